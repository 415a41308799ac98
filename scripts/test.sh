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
# At most 8 tests at a time. Unbounded, Swift Testing starts every test at once: on two cores the
# suite's real-time windows (a socket closed within 2 s, a stop within 8 s) failed 1 to 4 tests in
# most whole runs; at 8 none did, and the whole run took 71-75 s instead of 80-94.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-8}"
scripts/with-postgres.sh swift test
scripts/browser-tests.sh
