#!/usr/bin/env bash
# run-tests.sh [unit|session|tsan|e2e|fuzz|pg|cluster|lint]... - runs the built tests side
# by side (TEST_JOBS and TEST_CPUS below), and prints one summary line,
# `N passed, N failed`. With no argument: every family.
#
#  unit     build/san/tests/unit/test_*       check suites (ASan + UBSan)
#  session  build/san/tests/session/test_*    check suites driving the real
#                                             server (ROGUED_BIN, sanitizer build)
#  e2e      tests/e2e/*.sh                    real clients in tmux (rel build);
#                                             each script is one test: exit 0
#                                             passes, 77 skips, anything else fails
#  tsan     build/tsan/tests/unit/test_*: unit tests of code shared between
#           threads (the inbox between loops, the directory), built with
#           ThreadSanitizer; and the session suites whose server work crosses
#           threads (worker loops, the store's thread, the hashing and
#           rebuilding pool: TSAN_SUITES) against
#           build/tsan/rogued, the server under ThreadSanitizer: a data race
#           is a report in the server's log and a non-zero exit, which fail
#           the suite
#  fuzz     build/fuzz/fuzz_*                 each libFuzzer target for
#                                             FUZZ_RUNS runs or FUZZ_SMOKE_SECONDS,
#                                             whichever ends first (a smoke test)
#  pg       the store's suites (PG_SUITES) and the session suites named
#           test_pg_* (but the cluster family's) again, on PostgreSQL: a throwaway
#           cluster is started with pg_virtualenv (postgresql-common) for the
#           run and dropped after it; each test makes a database of its own
#           there (tests/store_where.h); PG_TSAN_SUITES (test_pg_store,
#           test_pg_cluster, test_pg_cluster_loss, test_pg_cluster_tokens:
#           the store's and the cluster's threads) run once
#           more against build/tsan/rogued. Without the PostgreSQL binaries the
#           family is skipped, and the summary says so.
#  cluster  test_pg_cluster, test_pg_cluster_loss and test_pg_cluster_tokens
#           on the same throwaway PostgreSQL: HAProxy in TCP mode with
#           send-proxy-v2 in front of several rogued processes sharing one
#           database; one of them losing the database; a browser page's
#           token across hosts (and again against build/tsan/rogued)
#  lint     tests/lint/*.sh: the house's limits (long functions, large
#           files, circles of includes), every C file through clang's
#           front end with -Werror, bench_core's own check on a short
#           script, and every citation of a docs section naming one that
#           is there; run as the e2e scripts are (exit 0 passes, 77 skips)
#
# A check binary's tests are counted from its "Checks: N, Failures: F,
# Errors: E" line; a binary that dies before printing it counts as one failure.
# Each test's output goes to build/test-logs/FAMILY_NAME.log (fuzz_NAME.log
# for a fuzz target) and is shown only when something failed, so a green run
# stays short.
#
# The tests run side by side: every one already uses its own free port, its
# own temporary data directory and its own tmux socket. The longest start
# first (so that the last to finish is a short one), by the times of the
# last run; a line per test says when it finished, how long it took and
# the CPU time it used, and
# the table at the end is in a fixed order whatever the order of finishing.
# How many at once: up to TEST_JOBS (default three times TEST_CPUS) while
# their shares of a core last run (CPU time over wall time: most wait on a
# server, a client or a timer most of the time) add up to at most
# TEST_CPUS cores (default: the number of cores).
# The fuzz smoke runs are niced (see run_one).
set -u
cd "$(dirname "$0")/.."

FUZZ_RUNS=${FUZZ_RUNS:-200000}
# (20 s: niced, they take the CPU the other tests leave, and these keep the
# cores busier now that they run by their CPU shares: a longer window gives
# them about the runs 15 s gave when the tests ran one per core. Ten runs,
# FUZZ_JOBS at a time, still end before the other tests do.)
FUZZ_SMOKE_SECONDS=${FUZZ_SMOKE_SECONDS:-20}
CORES=$(nproc 2>/dev/null || echo 2)
TEST_CPUS=${TEST_CPUS:-$CORES}
TEST_JOBS=${TEST_JOBS:-$((3 * TEST_CPUS))}
FUZZ_JOBS=${FUZZ_JOBS:-$CORES}
export ROGUED_BIN=${ROGUED_BIN:-$PWD/build/san/rogued}
export ROGUED_REL_BIN=${ROGUED_REL_BIN:-$PWD/build/rel/rogued}
ROGUED_TSAN_BIN=${ROGUED_TSAN_BIN:-$PWD/build/tsan/rogued}
TSAN_SUITES=${TSAN_SUITES:-test_lobby test_hash_busy test_resume test_resume_long test_watch test_phase test_workers test_ssh_keys test_ssh_guard test_ssh_threads test_ssh_admit test_ssh_loop test_site test_guest_grace test_web_login test_upgrade test_upgrade_metrics test_upgrade_drain}
PG_TSAN_SUITES=${PG_TSAN_SUITES:-test_pg_store test_pg_cluster test_pg_cluster_loss test_pg_cluster_tokens}
PG_SUITES=${PG_SUITES:-test_store test_store_keep test_store_recent test_progress test_progress_snapshot test_progress_claim test_store_retry test_export test_store_keys test_store_bans test_store_held}
# Sanitizers: any report fails the binary; leaks are reported at exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# ThreadSanitizer: what libuv's uninstrumented closes make it report in error
# (tests/tsan.supp says why).
export TSAN_OPTIONS=${TSAN_OPTIONS:-suppressions=$PWD/tests/tsan.supp}
# check's own per-test timeout is 4 s by default; suites set their own.
# They only catch a hang (docs/testing.md): CK_TIMEOUT_MULTIPLIER stretches
# them all on a machine that is busier still (make test-under-load: 3).
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-60}
export CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-1}
# An e2e script's own waits end at 30 s each; this ends a script that
# hangs between them (exit 124, which the summary names).
E2E_TIMEOUT=${E2E_TIMEOUT:-600}
# Lines of each failed test's log in the summary.
FAIL_LINES=${FAIL_LINES:-40}

logs=build/test-logs
mkdir -p "$logs"

# --- one test: each writes $logs/ID.result: "PASSED FAILED text" ---------------

check_result() { # binary log -> "passed failed text"
    local bin=$1 log=$2 rc=$3 line n f e
    line=$(grep -Eo 'Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$log" | tail -1)
    if [ -z "$line" ]; then
        echo "0 1 died (exit $rc)"
        return
    fi
    n=$(echo "$line" | sed -E 's/Checks: ([0-9]+).*/\1/')
    f=$(echo "$line" | sed -E 's/.*Failures: ([0-9]+).*/\1/')
    e=$(echo "$line" | sed -E 's/.*Errors: ([0-9]+).*/\1/')
    local bad=$((f + e))
    # Sanitizer reports after the summary (at exit) fail the binary too.
    if [ "$bad" -eq 0 ] && { [ "$rc" -ne 0 ] || grep -qE 'Sanitizer|runtime error' "$log"; }; then
        bad=1
    fi
    if [ "$bad" -gt 0 ]; then
        echo "$((n - bad)) $bad $((n - bad))/$n passed"
    else
        echo "$n 0 $n passed"
    fi
}

run_one() { # id kind path
    local id=$1 kind=$2 path=$3 log=$logs/$1.log rc
    case $kind in
        check)
            "$path" >"$log" 2>&1
            rc=$?
            check_result "$path" "$log" $rc ;;
        tsan)
            ROGUED_BIN=$ROGUED_TSAN_BIN "$path" >"$log" 2>&1
            rc=$?
            check_result "$path" "$log" $rc ;;
        pg)
            ROGUED_TEST_PG=$PG_URL PGPASSWORD=$PG_PASSWORD "$path" >"$log" 2>&1
            rc=$?
            check_result "$path" "$log" $rc ;;
        pgtsan)
            ROGUED_BIN=$ROGUED_TSAN_BIN ROGUED_TEST_PG=$PG_URL \
                PGPASSWORD=$PG_PASSWORD "$path" >"$log" 2>&1
            rc=$?
            check_result "$path" "$log" $rc ;;
        e2e)
            timeout -k 10 "$E2E_TIMEOUT" bash "$path" >"$log" 2>&1
            case $? in
                0) echo "1 0 passed" ;;
                77) echo "0 0 skipped: $(tail -1 "$log")" ;;
                124|137) echo "0 1 FAILED (ran past E2E_TIMEOUT, $E2E_TIMEOUT s)" ;;
                *) echo "0 1 FAILED" ;;
            esac ;;
        fuzz)
            local corpus=tests/fuzz/corpus/${id#fuzz_}
            local args=(-runs="$FUZZ_RUNS" -max_total_time="$FUZZ_SMOKE_SECONDS" -seed=1)
            # libFuzzer writes what it finds into the first directory: a
            # scratch one in build/, so the checked-in corpus stays as it is.
            if [ -d "$corpus" ]; then
                local scratch=build/fuzz-smoke/$id
                rm -rf "$scratch" && mkdir -p "$scratch"
                args+=("$scratch" "$corpus")
            fi
            # Niced: a smoke run is bounded in time, so a lower priority only
            # costs it runs, while the session tests beside it keep the CPU
            # their deadlines assume.
            if nice -n 10 "$path" "${args[@]}" >"$log" 2>&1; then
                echo "1 0 $(grep -Eo 'Done [0-9]+ runs' "$log" | tail -1 | cut -d' ' -f2) runs clean"
            else
                echo "0 1 FAILED"
            fi ;;
    esac >"$logs/$id.result.tmp"
    # The CPU time (user + sys) of the test and of every process it waited
    # for (its servers, clients): `times`' second line, in this subshell.
    # (A builtin, and not in a pipe: a pipe's subshell has no children.)
    times >"$logs/$id.times"
    awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
                   printf "%d\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] + 0.5 }' \
        "$logs/$id.times" >"$logs/$id.cpu"
    rm -f "$logs/$id.times"
    mv "$logs/$id.result.tmp" "$logs/$id.result"
}

# --- what to run -----------------------------------------------------------------
# Parallel arrays, in the order of the final table.
ids=() kinds=() paths=() fams=() labels=()
missing=()

add() { # family id kind path label
    fams+=("$1"); ids+=("$2"); kinds+=("$3"); paths+=("$4"); labels+=("$5")
}

add_check_family() { # family dir
    local found=0 bin
    for bin in "$2"/test_*; do
        [ -x "$bin" ] && [ ! -d "$bin" ] || continue
        case "$bin" in *.o|*.d|*/test_pg_*) continue ;; esac # test_pg_*: pg
        found=1
        add "$1" "$1_$(basename "$bin")" check "$bin" "$(basename "$bin")"
    done
    [ $found -eq 1 ] || missing+=("$1:$2")
}

# --- PostgreSQL: one throwaway cluster for the pg and cluster families -------------
# (tests/pg-cluster.sh), started once for both
# shellcheck source=tests/pg-cluster.sh
pg_log=$logs/pg_cluster.log
. tests/pg-cluster.sh
trap pg_stop EXIT
pg_state=
pg_up() {
    [ -z "$pg_state" ] && { pg_start && pg_state=up || pg_state=down; }
    [ "$pg_state" = up ]
}

# The session suite $1 on PostgreSQL in family $2, and again against the
# server under ThreadSanitizer when it is in PG_TSAN_SUITES.
add_pg_session() {
    local bin=build/san/tests/session/$1
    [ -x "$bin" ] || { missing+=("$2:$bin"); return; }
    add "$2" "$2_$1" pg "$bin" "$1"
    case " $PG_TSAN_SUITES " in *" $1 "*) ;; *) return ;; esac
    [ -x "$ROGUED_TSAN_BIN" ] && add "$2" "${2}tsan_$1" pgtsan "$bin" "$1 (tsan)"
}

families=("$@")
[ ${#families[@]} -eq 0 ] && families=(unit session tsan e2e fuzz pg cluster lint)
for fam in "${families[@]}"; do
    case $fam in
        unit) add_check_family unit build/san/tests/unit ;;
        session) add_check_family session build/san/tests/session ;;
        tsan)
            if [ ! -x "$ROGUED_TSAN_BIN" ]; then
                missing+=("tsan:$ROGUED_TSAN_BIN")
            else
                for t in $TSAN_SUITES; do
                    bin=build/san/tests/session/$t
                    [ -x "$bin" ] || { missing+=("tsan:$bin"); continue; }
                    add tsan "tsan_$t" tsan "$bin" "$t"
                done
            fi
            # unit tests of code shared between threads, built with TSan
            for bin in build/tsan/tests/unit/test_*; do
                [ -x "$bin" ] && [ -f "$bin" ] || continue
                add tsan "tsan_unit_$(basename "$bin")" check "$bin" "$(basename "$bin")"
            done ;;
        e2e)
            for t in tests/e2e/*.sh; do
                [ -f "$t" ] || continue
                add e2e "e2e_$(basename "$t" .sh)" e2e "$t" "e2e/$(basename "$t" .sh)"
            done ;;
        lint)
            for t in tests/lint/*.sh; do
                [ -f "$t" ] || continue
                add lint "lint_$(basename "$t" .sh)" e2e "$t" "lint/$(basename "$t" .sh)"
            done ;;
        fuzz)
            for bin in build/fuzz/fuzz_*; do
                [ -x "$bin" ] && [ -f "$bin" ] || continue
                add fuzz "$(basename "$bin")" fuzz "$bin" "$(basename "$bin")"
            done ;;
        pg)
            if pg_up; then
                for t in $PG_SUITES; do
                    bin=build/san/tests/unit/$t
                    [ -x "$bin" ] || { missing+=("pg:$bin"); continue; }
                    add pg "pg_$t" pg "$bin" "$t"
                done
                for bin in build/san/tests/session/test_pg_*; do
                    [ -x "$bin" ] && [ -f "$bin" ] || continue
                    case "$bin" in *.o|*.d|*/test_pg_cluster|*/test_pg_cluster_loss|*/test_pg_cluster_tokens) continue ;; esac
                    add_pg_session "$(basename "$bin")" pg
                done
            fi ;;
        cluster) pg_up && for t in test_pg_cluster test_pg_cluster_loss test_pg_cluster_tokens; do
                add_pg_session "$t" cluster
            done ;;
        *) echo "unknown family '$fam' (unit, session, tsan, e2e, fuzz, pg, cluster, lint)"; exit 2 ;;
    esac
done

# Start order: longest first, by the time each took last run (in
# $logs/ID.secs); a test not run here before (a fresh clone) takes its time
# from tests/test-times (a run's times, checked in), else its family's
# usual length (a fuzz target FUZZ_SMOKE_SECONDS, a pg or cluster suite
# 25 s, a session suite 10 s, an e2e script 5 s, a unit suite 2 s).
last_run() { # index column(2: secs, 3: cpu) -> that figure of the last run, or nothing
    local f=$logs/${ids[$1]}.secs
    [ "$2" = 3 ] && f=$logs/${ids[$1]}.cpu
    if [ -s "$f" ] && [ -s "$logs/${ids[$1]}.secs" ]; then cat "$f"; return; fi
    awk -v id="${ids[$1]}" -v c="$2" '$1 == id { print $c }' tests/test-times 2>/dev/null
}
guess() { # index
    local t
    t=$(last_run "$1" 2)
    if [ -n "$t" ]; then echo "$t"; return; fi
    case ${fams[$1]} in
        fuzz) echo "$FUZZ_SMOKE_SECONDS" ;; pg|cluster) echo 25 ;;
        session|tsan) echo 10 ;; e2e) echo 5 ;; *) echo 2 ;;
    esac
}
# How much of a core a test kept busy last run, in percent (its CPU time
# over its wall time; 100 when not known): most session tests spend their
# time waiting on their server, a timer or a client, and use a fraction.
share() { # index
    local t c
    t=$(last_run "$1" 2) c=$(last_run "$1" 3)
    if [ -z "$t" ] || [ -z "$c" ]; then echo 100; return; fi
    [ "$t" -ge 1 ] || t=1
    c=$((c * 100 / t))
    [ $c -le 100 ] || c=100
    [ $c -ge 10 ] || c=10
    echo $c
}
order=()
declare -A share_of=()
while read -r _ i; do order+=("$i"); share_of[$i]=$(share "$i"); done < <(
    for i in "${!ids[@]}"; do echo "$(guess "$i") $i"; done | sort -k1,1nr -k2,2n)

# --- run them ----------------------------------------------------------------------
for i in "${!ids[@]}"; do rm -f "$logs/${ids[$i]}.result" "$logs/${ids[$i]}.cpu"; done
total=${#ids[@]}
echo "running $total tests, up to $TEST_JOBS at a time (TEST_JOBS) while their CPU shares of the last run add up to $TEST_CPUS cores at most (TEST_CPUS), and the fuzz smoke runs $FUZZ_JOBS at a time beside them (FUZZ_JOBS); logs in $logs/"
start=$SECONDS
declare -A pid_of=() began=()
done_count=0
n_other=0 n_fuzz=0 used=0 # tests running (not fuzz), fuzz runs, the tests' shares

# Reports every test that has finished since the last call.
reap() {
    local i cpu
    for i in "${!pid_of[@]}"; do
        # A job that is gone without a result (killed) failed.
        # (Checked again after kill -0: a result may land just before exit.)
        if [ ! -f "$logs/${ids[$i]}.result" ] && ! kill -0 "${pid_of[$i]}" 2>/dev/null &&
           [ ! -f "$logs/${ids[$i]}.result" ]; then
            echo "0 1 died (no result)" >"$logs/${ids[$i]}.result"
        fi
        if [ -f "$logs/${ids[$i]}.result" ]; then
            wait "${pid_of[$i]}" 2>/dev/null
            unset "pid_of[$i]"
            if [ "${kinds[$i]}" = fuzz ]; then n_fuzz=$((n_fuzz - 1))
            else n_other=$((n_other - 1)) used=$((used - share_of[$i])); fi
            done_count=$((done_count + 1))
            echo $((SECONDS - began[$i])) >"$logs/${ids[$i]}.secs"
            cpu=$(cat "$logs/${ids[$i]}.cpu" 2>/dev/null)
            printf '  [%d/%d] %-28s %3d s  (CPU %s s)\n' "$done_count" "$total" \
                "${fams[$i]}/${labels[$i]#e2e/}" $((SECONDS - began[$i])) "${cpu:-?}"
        fi
    done
}

# The fuzz smoke runs go beside the others, FUZZ_JOBS at a time, rather
# than in their TEST_JOBS slots: they are niced and end at
# FUZZ_SMOKE_SECONDS whatever the load, so they only take what CPU the
# other tests leave, and the run does not wait for them one slot at a time.
queue=() fuzzq=()
for i in "${order[@]+"${order[@]}"}"; do
    if [ "${kinds[$i]}" = fuzz ]; then fuzzq+=("$i"); else queue+=("$i"); fi
done
start_one() {
    began[$1]=$SECONDS
    run_one "${ids[$1]}" "${kinds[$1]}" "${paths[$1]}" &
    pid_of[$1]=$!
}
# The next test (in order, never one behind it: the longest must not wait
# for the short ones) starts when fewer than TEST_JOBS run and its share
# fits beside theirs in TEST_CPUS cores (or nothing else runs). So the
# tests that mostly wait run beside the busy ones, and the cores are not
# asked for much more than they have.
fits() { # index
    [ $n_other -lt "$TEST_JOBS" ] &&
        { [ $n_other -eq 0 ] || [ $((used + share_of[$1])) -le $((TEST_CPUS * 100)) ]; }
}
qi=0 fi_=0
while [ $qi -lt ${#queue[@]} ] || [ $fi_ -lt ${#fuzzq[@]} ] || [ ${#pid_of[@]} -gt 0 ]; do
    while [ $qi -lt ${#queue[@]} ] && fits "${queue[$qi]}"; do
        start_one "${queue[$qi]}"
        n_other=$((n_other + 1)) used=$((used + share_of[${queue[$qi]}]))
        qi=$((qi + 1))
    done
    while [ $fi_ -lt ${#fuzzq[@]} ] && [ $n_fuzz -lt "$FUZZ_JOBS" ]; do
        start_one "${fuzzq[$fi_]}"
        n_fuzz=$((n_fuzz + 1))
        fi_=$((fi_ + 1))
    done
    [ ${#pid_of[@]} -gt 0 ] || break
    wait -n 2>/dev/null
    reap
done

# --- the table and the summary ---------------------------------------------------
passed=0
failed=0
failures=()
last=""
for i in "${!ids[@]}"; do
    if [ "${fams[$i]}" != "$last" ]; then
        last=${fams[$i]}
        echo "== $last"
    fi
    read -r p f text <"$logs/${ids[$i]}.result"
    passed=$((passed + p))
    failed=$((failed + f))
    [ "$f" -gt 0 ] && failures+=("${ids[$i]}")
    printf '%-32s %s\n' "${labels[$i]}" "$text"
done
for m in "${missing[@]+"${missing[@]}"}"; do
    echo "== ${m%%:*}"
    echo "no test binaries in ${m#*:} (build them first)"
    failed=$((failed + 1))
done
pg_stop
skipped=0
if [ -n "$pg_broken" ]; then
    echo "== pg, cluster"
    echo "FAILED: $pg_broken"
    failed=$((failed + 1))
elif [ -n "$pg_skipped" ]; then
    echo "== pg, cluster"
    echo "SKIPPED: $pg_skipped"
    skipped=1
fi

# Why a failed test failed, in a line: check's failed assertions and time
# limits, a script's deadlines (lib.bash's wait_for, the runner's
# E2E_TIMEOUT), a death without a summary.
why() { # id result-text
    local log=$logs/$1.log n
    n=$(grep -c 'Test timeout expired' "$log" 2>/dev/null)
    if [ "${n:-0}" -gt 0 ]; then
        echo "hit check's time limit in $n test(s):" \
            "$(grep 'Test timeout expired' "$log" | awk -F: '{print $5}' | sort -u | paste -sd' ')" \
            "(tcase_set_timeout x CK_TIMEOUT_MULTIPLIER=$CK_TIMEOUT_MULTIPLIER)"
    elif [[ $2 == *E2E_TIMEOUT* ]]; then
        echo "hit its time limit: $2"
    elif grep -q '^deadline: ' "$log" 2>/dev/null; then
        echo "a wait hit its deadline: $(grep "^deadline: " "$log" | tail -1 | sed "s/^deadline: //")"
    elif grep -qE ':[FE]:' "$log" 2>/dev/null; then
        echo "failed (not a time limit): $(grep -cE ':[FE]:' "$log") check(s)"
    else
        echo "$2 (not a time limit)"
    fi
}

if [ ${#failures[@]} -gt 0 ]; then
    echo
    echo "==== what failed (each log: $logs/ID.log)"
fi
for id in "${failures[@]+"${failures[@]}"}"; do
    for i in "${!ids[@]}"; do [ "${ids[$i]}" = "$id" ] && break; done
    read -r _ _ text <"$logs/$id.result"
    echo "---- ${fams[$i]}/${labels[$i]#e2e/}: $(why "$id" "$text")"
    grep -E ':[FE]:' "$logs/$id.log" 2>/dev/null | head -10 | sed 's/^/   /'
    echo "   last $FAIL_LINES lines of $logs/$id.log:"
    tail -"$FAIL_LINES" "$logs/$id.log" | sed 's/^/   | /'
done
for id in "${failures[@]+"${failures[@]}"}"; do
    for i in "${!ids[@]}"; do [ "${ids[$i]}" = "$id" ] && break; done
    echo "FAILED: ${fams[$i]}/${labels[$i]#e2e/}"
done
cpu_total=0
for i in "${!ids[@]}"; do
    cpu_total=$((cpu_total + $(cat "$logs/${ids[$i]}.cpu" 2>/dev/null || echo 0)))
done
echo "(took $((SECONDS - start)) s; the tests' CPU time $cpu_total s)"
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
