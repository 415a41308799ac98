#!/usr/bin/env bash
# Every test: `swift test` beside a throwaway PostgreSQL 15, then the browser tests in Chromium.
# Temporary files go to memory when there is room (scripts/memory-folder.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests' temporary files (SQLite databases, token stores, caches) go to memory when there is room.
TMPDIR="$(mktemp -d "$(scripts/memory-folder.sh)/bazaar-test-XXXXXX")"
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
# libvips for the photo pipeline, when it is missing.
scripts/install-image-library.sh
scripts/with-postgres.sh swift test
scripts/browser-tests.sh
