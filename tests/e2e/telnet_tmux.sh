#!/usr/bin/env bash
# telnet_tmux.sh - a real player: Debian's telnet client (inetutils) in an
# 80x24 tmux pane, against the release build of the server.
#
# Starts ROGUED_REL_BIN (default build/rel/rogued) on a free port with a
# temporary data dir and --seed 42, runs `telnet 127.0.0.1 PORT` in a
# detached tmux session on a private socket (tmux -L), waits for the '@',
# moves it one step into an open direction (read from the pane) with a vi-key
# and back with an arrow key, checks each move went exactly one cell, then
# quits with Q y (back to the lobby, the game recorded) and q: the goodbye
# is shown, telnet exits, the server logs a "quit" disconnect. Finally SIGTERM: the server must exit 0.
#
# Exit 0: passed; 1: failed; 77: skipped (no tmux or no telnet).
# Every wait is a bounded poll; everything started is stopped on every path.
set -u
cd "$(dirname "$0")/../.." || exit 1

. tests/e2e/lib.bash
e2e_setup e2e tmux telnet

# Sets AT_X, AT_Y to the '@' in the map rows (0..20) of the pane; fails
# (returns 1) unless there is exactly one.
find_at() {
    local out
    out=$(pane | head -21 | awk '{ n = index($0, "@"); if (n) { c++; x = n - 1; y = NR - 1 } }
                                 END { if (c == 1) print x, y; else print "none" }')
    [ "$out" = none ] && return 1
    read -r AT_X AT_Y <<<"$out"
}

# The character at column $1, row $2 of the pane.
char_at() { pane | sed -n "$(($2 + 1))p" | cut -c"$(($1 + 1))"; }

at_is() { find_at && [ "$AT_X" = "$1" ] && [ "$AT_Y" = "$2" ]; }

turn_is() { [ "$(turn_of_pane)" = "$1" ]; }

# 1. The server.
e2e_start_server --seed 42
echo "server pid $srv_pid on port $port"

# 2. telnet in an 80x24 pane. The pane stays after telnet exits
#    (remain-on-exit), so its end can be seen.
T new-session -d -s e2e -x 80 -y 24 "telnet 127.0.0.1 $port" \; \
    set-option -t e2e remain-on-exit on >/dev/null || fail "tmux did not start"
wait_for 10 pane_has 'Play (as a guest)' || fail "no lobby on the screen"
T send-keys -t e2e p
wait_for 5 pane_has 'Name: guest1' || fail "no guest name offered after p"
T send-keys -t e2e Enter
wait_for 10 find_at || fail "no '@' on the screen"
wait_for 5 pane_has 'HP: 30/30' || fail "no status line"
find_at
x0=$AT_X y0=$AT_Y
turn0=$(turn_of_pane)
[ "$turn0" = 0 ] || fail "turn $turn0 at the start"
echo "'@' at $x0,$y0"

# 3. One step into an open direction (floor), with its vi-key; back with
#    the opposite arrow key.
key= back= dx=0 dy=0
for d in "l 1 0 Left" "h -1 0 Right" "j 0 1 Up" "k 0 -1 Down"; do
    read -r k ddx ddy arrow <<<"$d"
    c=$(char_at $((x0 + ddx)) $((y0 + ddy)))
    if [ "$c" = "." ]; then key=$k back=$arrow dx=$ddx dy=$ddy; break; fi
done
[ -n "$key" ] || fail "no floor next to the '@'"
T send-keys -t e2e "$key"
wait_for 5 at_is $((x0 + dx)) $((y0 + dy)) ||
    fail "'$key' did not move the '@' from $x0,$y0 to $((x0 + dx)),$((y0 + dy))"
wait_for 5 turn_is 1 || fail "the turn counter is not 1 after a move"
echo "'$key' moved the '@' to $((x0 + dx)),$((y0 + dy))"
T send-keys -t e2e "$back"
wait_for 5 at_is "$x0" "$y0" || fail "the $back arrow did not move the '@' back to $x0,$y0"
wait_for 5 turn_is 2 || fail "the turn counter is not 2 after two moves"
echo "the $back arrow moved it back"

# 4. Q y: back in the lobby, the game recorded; q there: goodbye, telnet
#    exits, the server logs why.
T send-keys -t e2e Q
wait_for 5 pane_has 'Really quit? (y/n)' || fail "no quit prompt"
T send-keys -t e2e y
wait_for 5 pane_has 'Play as guest1' || fail "Q y did not return to the lobby"
wait_for 5 grep -q 'game over id=1 name=guest1 seed=[0-9]* turns=2 ' "$tmp/server.log" ||
    fail "the server did not record the game (2 turns)"
T send-keys -t e2e q
wait_for 10 pane_dead || fail "telnet did not exit after Q y"
pane_has "Thanks for playing. Goodbye!" || fail "no goodbye on the screen"
pane_has "Connection closed by foreign host." || fail "telnet did not see the close"
wait_for 5 grep -q 'reason="quit"' "$tmp/server.log" || fail "the server did not log the quit"
echo "Q y, q: game recorded, goodbye shown, telnet exited, quit logged"

# 5. SIGTERM: the server exits 0. (It is our child: once it has exited it
#    is a zombie until `wait`, which then gives its status.)
T kill-server >/dev/null 2>&1
kill -TERM "$srv_pid"
exited() {
    local state
    state=$(awk '{ print $3 }' "/proc/$srv_pid/stat" 2>/dev/null)
    [ -z "$state" ] || [ "$state" = Z ]
}
wait_for 10 exited || fail "the server did not exit within 10 s of SIGTERM"
wait "$srv_pid"
rc=$?
srv_pid=
[ $rc -eq 0 ] || fail "the server exited with status $rc"
grep -q "shutting down (SIGTERM)" "$tmp/server.log" || fail "no shutdown line in the log"
echo "passed"
exit 0
