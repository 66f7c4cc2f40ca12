#!/usr/bin/env bash
# Every citation of a section of our docs names one that is there
# (tests/tools/doc-refs.py: its matcher checked on its own examples
# first, then the repository's files). Exit 0 when all resolve.
set -eu
cd "$(dirname "$0")/../.."
python3 tests/tools/doc-refs.py --self-test
python3 tests/tools/doc-refs.py --check
