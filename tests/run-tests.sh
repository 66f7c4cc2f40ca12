#!/usr/bin/env bash
# run-tests.sh [unit|session|e2e|fuzz]... - runs the built test binaries and
# prints one summary line, `N passed, N failed`. With no argument: every family.
#
#  unit     build/san/tests/unit/test_*       check suites (ASan + UBSan)
#  session  build/san/tests/session/test_*    check suites driving the real
#                                             server (ROGUED_BIN, sanitizer build)
#  e2e      tests/e2e/*.sh                    real clients in tmux (rel build);
#                                             each script is one test: exit 0
#                                             passes, 77 skips, anything else fails
#  fuzz     build/fuzz/fuzz_*                 each libFuzzer target for
#                                             FUZZ_RUNS runs or FUZZ_SMOKE_SECONDS,
#                                             whichever ends first (a smoke test)
#
# A check binary's tests are counted from its "Checks: N, Failures: F,
# Errors: E" line; a binary that dies before printing it counts as one failure.
# Output of each binary goes to build/test-logs/NAME.log and is shown only
# when something failed, so a green run stays short.
set -u
cd "$(dirname "$0")/.."

FUZZ_RUNS=${FUZZ_RUNS:-200000}
FUZZ_SMOKE_SECONDS=${FUZZ_SMOKE_SECONDS:-15}
export ROGUED_BIN=${ROGUED_BIN:-$PWD/build/san/rogued}
export ROGUED_REL_BIN=${ROGUED_REL_BIN:-$PWD/build/rel/rogued}
# Sanitizers: any report fails the binary; leaks are reported at exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# check's own per-test timeout is 4 s by default; suites set their own.
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-60}

logs=build/test-logs
mkdir -p "$logs"
passed=0
failed=0
failures=()

fail() { failed=$((failed + $1)); failures+=("$2"); }

run_check() { # binary
    local bin=$1 name log line n f e
    name=$(basename "$bin")
    log=$logs/$name.log
    printf '%-32s ' "$name"
    "$bin" >"$log" 2>&1
    local rc=$?
    line=$(grep -Eo 'Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$log" | tail -1)
    if [ -z "$line" ]; then
        echo "died (exit $rc)"
        fail 1 "$name"
        return
    fi
    n=$(echo "$line" | sed -E 's/Checks: ([0-9]+).*/\1/')
    f=$(echo "$line" | sed -E 's/.*Failures: ([0-9]+).*/\1/')
    e=$(echo "$line" | sed -E 's/.*Errors: ([0-9]+).*/\1/')
    local bad=$((f + e))
    # Sanitizer reports after the summary (at exit) fail the binary too.
    if [ "$bad" -eq 0 ] && { [ $rc -ne 0 ] || grep -qE 'Sanitizer|runtime error' "$log"; }; then
        bad=1
    fi
    passed=$((passed + n - bad))
    if [ "$bad" -gt 0 ]; then
        echo "$((n - bad))/$n passed"
        fail "$bad" "$name"
    else
        echo "$n passed"
    fi
}

run_family_check() { # dir
    local found=0
    for bin in "$1"/test_*; do
        [ -x "$bin" ] && [ ! -d "$bin" ] || continue
        case "$bin" in *.o) continue ;; esac
        found=1
        run_check "$bin"
    done
    [ $found -eq 1 ] || { echo "no test binaries in $1 (build them first)"; fail 1 "$1"; }
}

run_e2e() {
    for t in tests/e2e/*.sh; do
        [ -f "$t" ] || continue
        local name log
        name=$(basename "$t" .sh)
        log=$logs/e2e_$name.log
        printf '%-32s ' "e2e/$name"
        bash "$t" >"$log" 2>&1
        case $? in
            0) echo "passed"; passed=$((passed + 1)) ;;
            77) echo "skipped: $(tail -1 "$log")" ;;
            *) echo "FAILED"; fail 1 "e2e_$name" ;;
        esac
    done
}

run_fuzz() {
    for bin in build/fuzz/fuzz_*; do
        [ -x "$bin" ] || continue
        local name log corpus
        name=$(basename "$bin")
        log=$logs/$name.log
        corpus=tests/fuzz/corpus/${name#fuzz_}
        printf '%-32s ' "$name"
        local args=(-runs="$FUZZ_RUNS" -max_total_time="$FUZZ_SMOKE_SECONDS" -seed=1)
        [ -d "$corpus" ] && args+=("$corpus")
        if "$bin" "${args[@]}" >"$log" 2>&1; then
            echo "$(grep -Eo 'Done [0-9]+ runs' "$log" | tail -1 | cut -d' ' -f2) runs clean"
            passed=$((passed + 1))
        else
            echo "FAILED"
            fail 1 "$name"
        fi
    done
}

families=("$@")
[ ${#families[@]} -eq 0 ] && families=(unit session e2e fuzz)
for fam in "${families[@]}"; do
    echo "== $fam"
    case $fam in
        unit) run_family_check build/san/tests/unit ;;
        session) run_family_check build/san/tests/session ;;
        e2e) run_e2e ;;
        fuzz) run_fuzz ;;
        *) echo "unknown family '$fam' (unit, session, e2e, fuzz)"; exit 2 ;;
    esac
done

for name in "${failures[@]+"${failures[@]}"}"; do
    for log in "$logs/$name.log" "$logs/e2e_$name.log"; do
        [ -f "$log" ] || continue
        echo "---- $log (last 60 lines)"
        tail -60 "$log"
    done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
