#!/usr/bin/env bash
# The benchmarks still run and their own checks hold: bench_core replays a
# short script through the server's frame path and the whole-frame path
# and stops if the two send different bytes (docs/performance.md, "What
# each part measures"). Speed is not judged here: `make bench` measures it.
# Exit 0 when it ran clean; 77 (skipped) when the binary is not built
# (`make test` builds it).
set -u
cd "$(dirname "$0")/../.."
bin=build/rel/tests/bench/bench_core
if [ ! -x "$bin" ]; then
    echo "skipped: $bin is not built (make build/rel/tests/bench/bench_core)"
    exit 77
fi
out=$("$bin" 2000 1 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 0 ]; then
    echo "FAILED: bench_core exited $rc"
    exit 1
fi
if ! grep -q "both sent the same bytes" <<<"$out"; then
    echo "FAILED: bench_core did not say both paths sent the same bytes"
    exit 1
fi
