#!/usr/bin/env bash
# The browser tests: a real bazaar-server and `bazaar web` over it, driven in Debian's headless
# Chromium by Playwright (Tests/Browser). Each test saves a screenshot of its last screen in
# .build/browser-screenshots. Needs scripts/install-browser-tools.sh once. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product bazaar
swift build --product bazaar-server
python3 -m pytest -q Tests/Browser "$@"
