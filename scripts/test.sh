#!/usr/bin/env bash
# Every test: `swift test` beside a throwaway PostgreSQL 15, then the browser tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/with-postgres.sh swift test
scripts/browser-tests.sh
