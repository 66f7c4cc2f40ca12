#!/usr/bin/env bash
# run-bench.sh - prints the benchmark tables (`make bench` builds, then runs
# this). A benchmark, not a test: nothing here asserts a time.
#
#   core     build/rel/tests/bench/bench_core     one game, turns per second
#   output   build/rel/tests/bench/bench_output   bytes per turn vs full redraw
#                                                  and ncurses
#   load     build/rel/tests/bench/bench_load     N telnet sessions against a
#                                                  fresh build/rel/rogued
#   store    build/rel/tests/bench/bench_store    the loop's worst stall while
#                                                  1,000 games end at once;
#                                                  SQLite beside PostgreSQL (a
#                                                  throwaway cluster, when the
#                                                  binaries are installed)
#   watch    build/rel/tests/bench/bench_watch    a late watcher's catch-up
#   balance  build/rel/tests/bench/bench_balance  (when built) the bot per
#                                                  combat ruleset
#
# Environment: BENCH_ROWS overrides the load rows (N:keys-per-second:seconds
# with :W for W worker loops, comma-separated); BENCH_ONLY="core output" runs only those parts;
# BENCH_BIN_DIR and ROGUED_REL_BIN point at other builds of the benchmarks
# and of the server.
set -u
cd "$(dirname "$0")/../.."

B=${BENCH_BIN_DIR:-build/rel/tests/bench}
ROGUED=${ROGUED_REL_BIN:-build/rel/rogued}
ROWS=${BENCH_ROWS:-1:1:10,100:1:10,1000:1:10,10000:1:15:1,10000:1:15:2,1000:5:10,1000:50:10:1,1000:50:10:2}
ONLY=${BENCH_ONLY:-core output load store watch balance}

wants() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }

run() { # command...
    echo
    echo "\$ $*"
    echo
    "$@" || echo "(exit status $?)"
}

echo "# rogued benchmarks"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(free -m | awk '/^Mem:/ {print $2 " MiB RAM"}')"
echo "- kernel: $(uname -srm)"
echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews the numbers)"
echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' + uncommitted changes')"
echo "- compiler: $(${CC:-cc} --version | head -1), flags -O2 -g"
echo "- descriptors: soft $(ulimit -Sn), hard $(ulimit -Hn); ephemeral ports $(tr '\t' '-' < /proc/sys/net/ipv4/ip_local_port_range)"

if wants core; then
    echo
    echo "## 1. Core"
    run "$B/bench_core" 10000 5
fi
if wants output; then
    echo
    echo "## 2. Output"
    run "$B/bench_output" 1000
fi
if wants load; then
    echo
    echo "## 3. The server under load"
    run "$B/bench_load" --server "$ROGUED" --rows "$ROWS"
fi
if wants store; then
    echo
    echo "## 4. The store"
    # PostgreSQL beside SQLite: a throwaway cluster (tests/pg-cluster.sh),
    # with fsync on, so that its commits cost what SQLite's do
    mkdir -p build
    pg_log=build/bench-pg-cluster.log
    . tests/pg-cluster.sh
    if pg_start -o fsync=on; then
        BENCH_PG_URL=$PG_URL PGPASSWORD=$PG_PASSWORD run "$B/bench_store"
        pg_stop
    else
        echo "(PostgreSQL not measured: $pg_skipped$pg_broken)"
        run "$B/bench_store"
    fi
fi
if wants watch; then
    echo
    echo "## 5. Watching and resuming"
    run "$B/bench_watch"
fi
if wants balance && [ -x "$B/bench_balance" ]; then
    echo
    echo "## 6. Balance"
    run "$B/bench_balance" 1000
fi
