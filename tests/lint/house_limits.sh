#!/usr/bin/env bash
# The house's limits (docs/style.md): no function over 100 lines (main
# excepted), no file over 1,000, and no circle of includes between folders
# but the one allowed. Exit 0 when all hold.
set -eu
cd "$(dirname "$0")/../.."
python3 tests/tools/long-functions.py --check
python3 tests/tools/include-cycles.py --check
