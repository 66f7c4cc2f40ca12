#!/usr/bin/env bash
# export_players.sh - a game played through Debian's telnet, exported with
# `rogued --export`, played back by the real players: Debian's ttyplay
# (package ttyrec) and asciinema play (package asciinema).
#
# Starts ROGUED_REL_BIN (default build/rel/rogued) on a free port with a
# temporary data dir and --seed 42, plays one guest game in an 80x24 tmux
# pane (p, Enter, a few waits and moves, Q y, q), stops the server with
# SIGTERM (having exported it once while the server ran: the same bytes),
# exports game 1 (the first game of a fresh data dir) as a ttyrec and as
# an asciicast, then runs `ttyplay FILE` and `asciinema play FILE`
# each in an 80x24 tmux pane: each must exit 0 within its time limit and
# leave the game's status line ("HP:") on the screen. An unknown id and an
# unknown format must fail with a message and a non-zero status.
#
# ROGUED_E2E_KEEP=1 keeps the temporary directory (data, exports, logs).
# Exit 0: passed; 1: failed; 77: skipped (tmux, telnet, ttyplay or
# asciinema not installed). Builds nothing. Every wait is a bounded poll;
# everything started is stopped on every path.
set -u
cd "$(dirname "$0")/../.." || exit 1

. tests/e2e/lib.bash
e2e_setup export tmux telnet ttyplay asciinema
"$BIN" --help | grep -q -- '--export' ||
    { echo "FAIL: $BIN has no --export flag"; exit 1; }

pane_name=play
turn_at_least() { local t; t=$(turn_of_pane); [ -n "$t" ] && [ "$t" -ge "$1" ]; }

# 1. The server, and one guest game through telnet (a short one: stored
# since guest_min_turns=0; the default keeps only guests' games of 50 turns).
e2e_start_server --seed 42 --set guest_min_turns=0

T new-session -d -s play -x 80 -y 24 "telnet 127.0.0.1 $port" \; \
    set-option -t play remain-on-exit on >/dev/null || fail "tmux did not start"
wait_for 30 pane_has 'Play (as a guest)' || fail "no lobby on the screen"
T send-keys -t play p
wait_for 30 pane_has 'Name: guest1' || fail "no guest name offered after p"
T send-keys -t play Enter
wait_for 30 pane_has 'HP:' || fail "no status line"
T send-keys -t play . .
wait_for 30 turn_at_least 2 || fail "two waits did not take two turns"
for k in l h j k y u b n . l l h h; do
    T send-keys -t play "$k"
    sleep 0.05
done
T send-keys -t play .
wait_for 30 turn_at_least 3 || fail "the turn counter did not move"
T send-keys -t play Q
wait_for 30 pane_has 'Really quit? (y/n)' || fail "no quit prompt"
T send-keys -t play y
wait_for 30 grep -q 'game over id=[0-9]* name=guest1 ' "$tmp/server.log" ||
    fail "the server did not record the game"
T send-keys -t play q
wait_for 30 pane_dead || fail "telnet did not exit after q"
T kill-session -t play

# While the server runs (WAL: it is not disturbed), once the game is
# committed: an export, to compare with the one made after the shutdown.
live_export() {
    "$BIN" --config /dev/null --data-dir "$tmp/data" --export 1 \
        --format ttyrec "$tmp/live.ttyrec" 2>"$tmp/export.err"
}
wait_for 30 live_export || fail "no export while the server runs: $(cat "$tmp/export.err")"

e2e_stop_server
echo "played and recorded one game"

# 2. Export it (game 1: the first of a fresh data dir), both ways.
export_game() { # FORMAT FILE [ID]
    "$BIN" --config /dev/null --data-dir "$tmp/data" --export "${3:-1}" \
        --format "$1" "$2" 2>"$tmp/export.err"
}
export_game ttyrec "$tmp/game.ttyrec" ||
    fail "export as ttyrec failed: $(cat "$tmp/export.err")"
export_game asciicast "$tmp/game.cast" ||
    fail "export as asciicast failed: $(cat "$tmp/export.err")"
[ -s "$tmp/game.ttyrec" ] && [ -s "$tmp/game.cast" ] || fail "empty exports"
cmp -s "$tmp/live.ttyrec" "$tmp/game.ttyrec" ||
    fail "the export made while the server ran differs from the one after"
head -c 200 "$tmp/game.cast" | head -1 | grep -q '"version": 2' ||
    fail "the asciicast has no v2 header"
echo "exported: $(cat "$tmp/export.err")"
if export_game ttyrec "$tmp/none.ttyrec" 99; then fail "game 99 exported"; fi
grep -q 'no game 99' "$tmp/export.err" || fail "no message for game 99: $(cat "$tmp/export.err")"
if export_game gif "$tmp/none.gif"; then fail "format gif accepted"; fi
grep -q 'ttyrec or asciicast' "$tmp/export.err" || fail "no message for gif"
[ ! -e "$tmp/none.ttyrec" ] && [ ! -e "$tmp/none.gif" ] || fail "a failed export left a file"

# 3. The players, each in an 80x24 pane that stays after it exits. The
#    exit status is written by a shell around the player (tmux 3.3 may
#    show a dead pane before it has the status).
play() { # NAME SECONDS COMMAND
    pane_name=$1
    local rcfile="$tmp/$1.rc" st
    T new-session -d -s "$1" -x 80 -y 24 "$3; echo \$? >$rcfile" \; \
        set-option -t "$1" remain-on-exit on >/dev/null || fail "tmux did not start"
    has_rc() { [ -s "$rcfile" ]; }
    wait_for "$2" has_rc || fail "$3 did not end within $2 s"
    st=$(cat "$rcfile")
    [ "$st" = 0 ] || fail "$3 exited with status $st"
    pane_has 'HP:' || fail "$3 did not leave the game's status line on the screen"
    echo "$3: exit 0, the final screen shows the status line"
}
play ttyplay 30 "ttyplay $tmp/game.ttyrec"
export ASCIINEMA_CONFIG_HOME="$tmp/asciinema"
play asciinema 30 "asciinema play $tmp/game.cast"
echo "passed"
exit 0
