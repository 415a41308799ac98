#!/usr/bin/env bash
# Installs what the browser tests need: Debian's Chromium (Playwright drives it; nothing is
# downloaded) and the Python packages. Safe to run again; installs only what is missing.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
    apt-get update && apt-get install -y --no-install-recommends chromium
fi
pip install --quiet 'playwright==1.65.2' 'axe-playwright-python==0.1.8' 'pytest==9.0.3' 'requests==2.34.2'
