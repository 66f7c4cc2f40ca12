#!/usr/bin/env bash
# Every C file of the project passes clang's front end with the house's
# warnings as errors, so that `make CC=clang` keeps building: gcc and clang warn about
# different things. Syntax and semantics only (-fsyntax-only), no code is
# generated. Exit 77 (skipped) without clang.
set -eu
cd "$(dirname "$0")/../.."
command -v clang >/dev/null || { echo "clang is not installed"; exit 77; }
# The flags the Makefile compiles with (STD, WARN, INC), read from it so
# that this check follows them.
flags=$(make -s --no-print-directory print-cflags)
pg=$(pkg-config --cflags libpq 2>/dev/null || true)
# shellcheck disable=SC2086 # the flags are words
find common server tests -name '*.c' -print0 |
    xargs -0 -P1 -n16 clang $flags $pg -Itests -Itests/session -Itests/unit \
        -fsyntax-only
echo "clang -Werror: clean"
