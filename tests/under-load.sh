#!/usr/bin/env bash
# under-load.sh COMMAND... - runs COMMAND while every core is kept at 100%
# by busy processes at normal priority (they compete with the tests):
# stress-ng (Debian's package) with one CPU worker per core, or, without it,
# one shell busy loop per core. They are started here and stopped here, by
# their process ids, whatever COMMAND's end; its exit status is this
# script's. The tests assert no speed (docs/testing.md), so they must pass
# like this too; check's time limits, which only catch a hang, are
# stretched (CK_TIMEOUT_MULTIPLIER, 3 unless set).
set -u
cd "$(dirname "$0")/.."
cores=$(nproc 2>/dev/null || echo 2)
busy=()
stop_busy() {
    local p
    for p in "${busy[@]+"${busy[@]}"}"; do
        kill "$p" 2>/dev/null
    done
    for p in "${busy[@]+"${busy[@]}"}"; do
        wait "$p" 2>/dev/null
    done
    busy=()
}
trap stop_busy EXIT
trap 'stop_busy; exit 130' INT TERM
if command -v stress-ng >/dev/null 2>&1; then
    stress-ng --cpu "$cores" --cpu-method all --quiet >/dev/null 2>&1 &
    busy+=($!)
    how="stress-ng --cpu $cores"
else
    for _ in $(seq "$cores"); do
        bash -c 'while :; do :; done' &
        busy+=($!)
    done
    how="$cores shell busy loops"
fi
echo "under load: $how (pids ${busy[*]}), load average $(cut -d' ' -f1-3 /proc/loadavg)"
export CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-3}
start=$SECONDS
"$@"
rc=$?
echo "under load: $how; took $((SECONDS - start)) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
exit $rc
