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

# 1. The server.
e2e_start_server --seed 42
echo "server pid $srv_pid on port $port"

# 2-4. A guest game through telnet (lib.bash).
e2e_play_guest_game "telnet 127.0.0.1 $port" "Connection closed by foreign host."

# 5. SIGTERM: the server exits 0. (It is our child: once it has exited it
#    is a zombie until `wait`, which then gives its status.)
T_kill_server
e2e_stop_server
grep -q "shutting down (SIGTERM)" "$tmp/server.log" || fail "no shutdown line in the log"
echo "passed"
exit 0
