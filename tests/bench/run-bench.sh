#!/usr/bin/env bash
# run-bench.sh - prints the benchmark tables (`make bench` builds, then runs
# this). A benchmark, not a test: nothing here asserts a time.
#
#   core     build/rel/tests/bench/bench_core     one game, turns per second
#   instr    the same under callgrind: instructions per key of the turn and
#            of the frame (the server's path against the whole-frame path),
#            and of a whole server loop under bench_load (needs valgrind;
#            skipped without it)
#   output   build/rel/tests/bench/bench_output   bytes per turn vs full redraw
#                                                  and ncurses, per display
#                                                  (ASCII/16, UTF-8/256 against
#                                                  xterm-256color, UTF-8/truecolor
#                                                  against xterm-direct)
#   load     build/rel/tests/bench/bench_load     N telnet sessions against a
#                                                  fresh build/rel/rogued; a row
#                                                  the machine cannot serve is
#                                                  marked machine-limited; then
#                                                  the floor rows, each
#                                                  alternated with bench_echo
#                                                  (the echo floor) with as
#                                                  many loops, pinned to
#                                                  separate CPUs when the
#                                                  machine has one to spare
#   store    build/rel/tests/bench/bench_store    the loop's worst stall while
#                                                  1,000 games end at once;
#                                                  SQLite beside PostgreSQL (a
#                                                  throwaway cluster, when the
#                                                  binaries are installed)
#   watch    build/rel/tests/bench/bench_watch    a late watcher's catch-up
#   balance  build/rel/tests/bench/bench_balance  (when built) the bot per
#                                                  combat ruleset
#   ssh      tests/bench/ssh_bench.py             memory, threads and CPU per
#                                                  key of SSH players (OpenSSH's
#                                                  client) beside telnet ones
#                                                  with a process a player (the
#                                                  like-for-like row) and in one
#                                                  process, alternated 3 times,
#                                                  the server and the clients
#                                                  on separate cores
#
# Environment: BENCH_TTYPES the displays of the instr part's server runs
# (default "ansi xterm-256color xterm-direct"; a display left out shows
# "-"), BENCH_ROWS overrides the load rows (N:keys-per-second:seconds
# with :W for W worker loops, comma-separated), BENCH_FLOOR_ROWS the rows
# measured beside the echo floor (the same syntax; a row without :W runs the
# server's default loops, one per core, and the echo with as many),
# BENCH_FLOOR_REPEAT the server/echo pairs of each floor row (default 3:
# each pair's ratio and their median); BENCH_ONLY="core output" runs only those parts;
# BENCH_BIN_DIR and ROGUED_REL_BIN point at other builds of the benchmarks
# and of the server.
set -u
cd "$(dirname "$0")/../.."

B=${BENCH_BIN_DIR:-build/rel/tests/bench}
ROGUED=${ROGUED_REL_BIN:-build/rel/rogued}
ROWS=${BENCH_ROWS:-1:1:10,100:1:10,1000:1:10,10000:1:15:1,10000:1:15:2,1000:5:10,1000:50:10:1,1000:50:10:2}
# One loop on each side, pinned apart (the ratio a core buys), then the
# default loops on shared cores (what a host runs): docs/performance.md,
# "The floor, like for like".
FLOOR_ROWS=${BENCH_FLOOR_ROWS:-1000:5:10:1,10000:1:15:1,1000:5:10}
FLOOR_REPEAT=${BENCH_FLOOR_REPEAT:-3}
ONLY=${BENCH_ONLY:-core instr output load store watch balance ssh}

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
# callgrind_annotate's inclusive count of function $2 in callgrind file $1.
# The compiler may clone a function under a suffixed name
# (frame_full.constprop.0): that is the same function.
inclusive() {
    callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
        awk -v f="$2" '$1 ~ /^[0-9,]+$/ && $0 ~ (":" f "(\\.[a-z]+\\.[0-9]+)* ") {
            gsub(",", "", $1); print $1; exit }'
}

if wants instr; then
    echo
    echo "## 1b. Instructions per key (callgrind)"
    if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
        echo
        echo "(skipped: valgrind is not installed)"
    else
        tmp=$(mktemp -d /tmp/rogued-bench-instr.XXXXXX)
        echo
        echo "\$ valgrind --tool=callgrind $B/bench_core --instructions 3000"
        keys=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/core.cg" \
               "$B/bench_core" --instructions 3000 2>/dev/null |
               awk '/keys per path/ { print $4 }')
        turn=$(inclusive "$tmp/core.cg" replay_key)
        full=$(inclusive "$tmp/core.cg" frame_full)
        cached=$(inclusive "$tmp/core.cg" frame_cached)
        echo
        echo "Counted by callgrind, so the same on a busy machine: the bot's script"
        echo "replayed once through each path ($keys keys, 80x24)."
        echo
        echo "| per key | instructions | / whole-frame path |"
        echo "|---|---|---|"
        awk -v k="$keys" -v t="$turn" -v f="$full" -v c="$cached" 'BEGIN {
            printf "| the turn (game_key) | %.0f | - |\n", t / k / 2
            printf "| the frame, whole-frame path (view_draw, screen_diff, screen_copy) | %.0f | 1.00 |\n", f / k
            printf "| the frame as the server draws it (view_draw_cached over the frame shown, its changed rows kept aside, screen_diff_kept) | %.0f | %.2f |\n", c / k, c / f
        }'
        # A whole server under callgrind: 20 sessions x 5 keys/s for 20 s of
        # bench_load's random walk, every game from seed 42 (so the same keys
        # play the same games every run); its loop's instructions per key
        # offered (the sessions' set-up included), by part, for each display:
        # clients that say ansi (the plain display: ASCII, 16 colours),
        # xterm-256color (256 colours) and xterm-direct (truecolor).
        printf '#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=%s/server.%%p.cg "%s" "$@"\n' \
            "$tmp" "$(cd "$(dirname "$ROGUED")" && pwd)/$(basename "$ROGUED")" > "$tmp/server.sh"
        chmod +x "$tmp/server.sh"
        ttypes=${BENCH_TTYPES:-ansi xterm-256color xterm-direct}
        declare -A cg=()
        for tt in $ttypes; do
            rm -f "$tmp"/server.*.cg
            run "$B/bench_load" --server "$tmp/server.sh" --rows 20:5:20 --ttype "$tt" \
                --arg --seed --arg 42 | tee "$tmp/load.out"
            f=$(ls "$tmp"/server.*.cg 2>/dev/null | head -1)
            [ -n "$f" ] || continue
            callgrind_annotate --inclusive=yes "$f" > "$tmp/annotated" 2>/dev/null
            cg[$tt]=$(awk -v bytes="$(awk -F'|' '$2 ~ /^ *20 *$/ { gsub(/ /, "", $15); print $15; exit }' "$tmp/load.out")" '
                # The first (the per-function list) inclusive count of each.
                function take(name) { if (!(name in v)) v[name] = $1 }
                $1 ~ /^[0-9,]+$/ {
                    gsub(",", "", $1)
                    # The read callback is sess_on_read (on_read before the
                    # session/ split; without a match decode came out negative).
                    if (index($0, ":uv_run ")) take("loop")
                    else if (index($0, ":sess_on_read ") || index($0, ":on_read ")) take("read")
                    else if (index($0, ":game_key ")) take("turn")
                    else if (index($0, ":sess_render ")) take("render")
                    else if ($0 ~ /screen_diff\.c:diff(\.part\.[0-9]+)? /) take("diff")
                    else if (index($0, ":sess_send ")) take("send")
                    else if (index($0, ":tconn_nop ")) take("nop")
                }
                END { printf "%s %s %s %s %s %s %s %s", v["loop"], v["read"], v["turn"],
                      v["render"], v["diff"], v["send"], v["nop"], bytes }' "$tmp/annotated")
        done
        if [ -n "${cg[ansi]:-}${cg[xterm-256color]:-}${cg[xterm-direct]:-}" ]; then
            echo
            echo "That server under callgrind (its loop, uv_run; 2,000 keys offered), per key offered"
            echo "and per display: decode = reading a key (telnet, the key decoder, the"
            echo "session's handling) without its turn; turn = game_key; diff = the encoder"
            echo "(screen_diff_rows / screen_diff, trial repaints included); write = sess_send"
            echo "and the frame marker (telnet escaping, uv_try_write); draw = the rest of"
            echo "the frame (sess_render: drawing, copying the screens); other = the loop's"
            echo "remainder (epoll, timers, the sessions' set-up)."
            echo
            echo "| per key offered | ansi: plain | xterm-256color: 256 colours | xterm-direct: truecolor | 256 / plain | truecolor / plain |"
            echo "|---|---|---|---|---|---|"
            awk -v a="${cg[ansi]:-}" -v b="${cg[xterm-256color]:-}" -v c="${cg[xterm-direct]:-}" '
                # A display whose run failed shows "-".
                function cell(v) { return v ? sprintf("%.0f", v) : "-" }
                function ratio(v, x) { return v && x ? sprintf("%.2f", v / x) : "-" }
                function row(name, i,   x, y, z) {
                    x = A[i] / 2000; y = B[i] / 2000; z = C[i] / 2000
                    printf "| %s | %s | %s | %s | %s | %s |\n", name, cell(x), cell(y),
                           cell(z), ratio(y, x), ratio(z, x)
                }
                function parts(s, P,   f) {
                    split(s, f, " ")
                    P[1] = f[1]; P[3] = f[3]; P[2] = f[2] - f[3]; P[5] = f[5]
                    P[6] = f[6] + f[7]; P[4] = f[4] - f[5] - P[6]
                    P[7] = f[1] - f[2] - f[4]; P[8] = f[8] * 2000
                }
                BEGIN {
                    parts(a, A); parts(b, B); parts(c, C)
                    row("the loop, all of it", 1)
                    row("decode", 2); row("turn", 3); row("draw", 4)
                    row("diff", 5); row("write", 6); row("other", 7)
                    row("bytes on the wire per key (bench_load)", 8)
                }'
        fi
        rm -rf "$tmp"
    fi
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
    echo
    echo "The floor: the rows this machine can serve, each run $FLOOR_REPEAT times"
    echo "alternated with the same row against bench_echo (a bare libuv server"
    echo "answering each key with a frame of the server run's bytes per key, with"
    echo "as many loops as the server's row); each pair's ratio of the CPU per"
    echo "key, and their median."
    run "$B/bench_load" --server "$ROGUED" --echo "$B/bench_echo" \
        --repeat "$FLOOR_REPEAT" --rows "$FLOOR_ROWS"
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
    run "$B/bench_balance" "${BALANCE_GAMES:-1000}"
fi
if wants ssh && command -v ssh >/dev/null; then
    echo
    echo "## 7. SSH beside telnet"
    # telnet with a process a player (SSH's target is judged on it), SSH,
    # telnet in one process, alternated BENCH_ROUNDS (3) times
    # (docs/performance.md, "SSH like for like")
    run python3 tests/bench/ssh_bench.py "$ROGUED" 50 40
fi
