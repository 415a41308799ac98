#!/usr/bin/env bash
# The kit's documentation: a DocC site per module (Networking, Session, Dependencies) in .build/docs,
# built with warnings as errors, and a check that every code block in the articles is the code the
# DocumentationExampleTests run. Open .build/docs/NAME/index.html through any static file server.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/check-doc-examples.py
mkdir -p .build/docs
for target in Networking Session Dependencies; do
    rm -rf ".build/docs/$target"
    swift package --allow-writing-to-directory .build/docs generate-documentation --target "$target" \
        --output-path ".build/docs/$target" --transform-for-static-hosting --hosting-base-path "$target" \
        --warnings-as-errors
done
echo "documentation: .build/docs/{Networking,Session,Dependencies}"
