#!/usr/bin/env python3
"""Fails when a Swift code block in a DocC article is not found, line for line, in a test file.

The articles' code is run by the DocumentationExampleTests suites; this keeps the two the same.
Lines are compared with surrounding whitespace stripped and blank lines dropped.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent


def lines(text):
    return [line.strip() for line in text.splitlines() if line.strip()]


tests = [lines(path.read_text()) for path in (root / "Tests").rglob("*.swift")]


def found(block):
    size = len(block)
    return any(block == test[i:i + size] for test in tests for i in range(len(test) - size + 1))


checked, missing = 0, []
for article in sorted((root / "Sources").glob("*/*.docc/*.md")):
    for number, block in enumerate(re.findall(r"```swift\n(.*?)```", article.read_text(), re.S), 1):
        checked += 1
        if not found(lines(block)):
            missing.append(f"{article.relative_to(root)}: code block {number} is not in any test file")

for line in missing:
    print(line, file=sys.stderr)
print(f"{checked} code blocks in the DocC articles, {checked - len(missing)} found in tests")
sys.exit(1 if missing else 0)
