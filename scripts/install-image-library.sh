#!/usr/bin/env bash
# libvips, the image library the server's photo pipeline (Sources/BazaarImages) decodes and resizes
# with: Debian's libvips-dev (its headers, pkg-config file and the shared library). Installs it
# when it is missing (needs root); safe to run again.
set -euo pipefail
if pkg-config --exists vips 2>/dev/null; then exit 0; fi
echo "install-image-library: installing libvips-dev (apt-get)" >&2
DEBIAN_FRONTEND=noninteractive apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libvips-dev
