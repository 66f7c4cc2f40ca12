#!/usr/bin/env bash
# test-times.sh - writes tests/test-times from the last run's figures in
# build/test-logs (ID.secs: a test's wall time, ID.cpu: its CPU time), the
# longest first: what tests/run-tests.sh goes by on a fresh clone.
set -eu
cd "$(dirname "$0")/../.."
logs=build/test-logs
{
    cat <<'HEAD'
# tests/test-times - one run's figures for each test (ID SECS CPU: its wall
# time and its CPU time in seconds, build/test-logs/ID.secs and ID.cpu), for
# tests/run-tests.sh on a fresh clone: the start order (longest first) and
# how much of a core each keeps busy (CPU over SECS). Written from a run's
# build/test-logs by tests/tools/test-times.sh.
HEAD
    for f in "$logs"/*.secs; do
        id=$(basename "$f" .secs)
        [ -s "$logs/$id.cpu" ] || continue
        echo "$id $(cat "$f") $(cat "$logs/$id.cpu")"
    done | sort -k2,2nr -k1,1
} >tests/test-times.tmp
mv tests/test-times.tmp tests/test-times
