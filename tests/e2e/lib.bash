# lib.bash - what the end-to-end scripts share: the tools check, the server
# under test, a private tmux, bounded polling and cleanup on every path.
# Sourced (not run: tests/run-tests.sh runs tests/e2e/*.sh only).
#
#   e2e_setup NAME TOOL...   exit 77 (skip) unless every TOOL is installed;
#                            BIN, a temporary dir $tmp, tmux socket, trap
#   e2e_start_server ARG...  BIN on a free loopback port with $tmp/data and
#                            the extra ARGs; sets srv_pid and port
#   T ...                    tmux on the private socket
#   pane_name                the pane pane/pane_has/pane_dead/fail look at
#   wait_for SECS CMD...     polls CMD every 50 ms until it succeeds
#   fail MESSAGE             prints the pane and the server log, exits 1
#
# ROGUED_E2E_KEEP=1 keeps the temporary directory.

e2e_setup() {
    local name=$1 tool
    shift
    for tool in "$@"; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            echo "skipped: $tool is not installed"
            exit 77
        fi
    done
    BIN=${ROGUED_REL_BIN:-$PWD/build/rel/rogued}
    [ -x "$BIN" ] || { echo "FAIL: no server binary at $BIN (make build/rel/rogued)"; exit 1; }
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/rogued-$name-XXXXXX")
    sock="rogued-$name-$$"
    srv_pid=
    pane_name=$name
    trap e2e_cleanup EXIT
}

T() { tmux -L "$sock" -f /dev/null "$@"; }

# Ends the private tmux server (and so every client in it) and waits for
# its process to be gone: a `new-session` sent while it is still exiting
# reaches the dying server and fails ("server exited unexpectedly").
pid_gone() { ! kill -0 "$1" 2>/dev/null; }

T_kill_server() {
    local pid
    pid=$(T display-message -p '#{pid}' 2>/dev/null)
    T kill-server >/dev/null 2>&1
    [ -n "$pid" ] || return 0
    wait_for 30 pid_gone "$pid" || fail "the tmux server $pid did not exit"
}

e2e_cleanup() {
    T kill-server >/dev/null 2>&1
    # (a server killed leaves its socket file behind: nothing of a run is
    # left in /tmp)
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
    if [ -n "$srv_pid" ] && kill -0 "$srv_pid" 2>/dev/null; then
        kill -KILL "$srv_pid" 2>/dev/null
        wait "$srv_pid" 2>/dev/null
    fi
    if [ -n "${ROGUED_E2E_KEEP:-}" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}

fail() {
    echo "FAIL: $*"
    echo "---- the pane ($pane_name):"
    T capture-pane -p -t "$pane_name" 2>/dev/null
    echo "---- the server log:"
    cat "$tmp/server.log" 2>/dev/null
    exit 1
}

# (COMMAND is run anew each time: pass a function, never "$(...)".)
# SECS is on the wall clock and only ends a wait that would never succeed
# (30 s or more: docs/testing.md).
wait_for() {
    local secs=$1 end=$((SECONDS + $1 + 1)) # SECONDS ticks in whole seconds: one more so the wait is at least secs
    shift
    while ! "$@"; do
        if [ $SECONDS -ge $end ]; then
            echo "deadline: waited $secs s for: $*" >&2 # for the summary
            return 1
        fi
        sleep 0.05
    done
    return 0
}

pane() { T capture-pane -p -t "$pane_name"; }
pane_has() { pane | grep -qF -- "$1"; }
pane_dead() { [ "$(T display-message -p -t "$pane_name" '#{pane_dead}')" = 1 ]; }
turn_of_pane() { pane | sed -n 's/.*Turn:\([0-9]*\).*/\1/p' | tail -1; }

port_of_log() { sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/server.log"; }
# Ready: the connect line, logged after the listening line once the
# server also handles its signals (a SIGTERM before that would kill it
# with status 143 on a busy machine).
has_port() { [ -n "$(port_of_log)" ] && grep -q 'info connect: telnet ' "$tmp/server.log"; }

e2e_start_server() {
    # store_wait_ms: a password's hash on a loaded machine may take longer
    # than the default 3 s before the player is told the store is away (a
    # later --set wins)
    "$BIN" --port 0 --bind 127.0.0.1 --data-dir "$tmp/data" --config /dev/null \
        --set http_port=0 --set store_wait_ms=60000 "$@" >"$tmp/server.log" 2>&1 &
    srv_pid=$!
    wait_for 30 has_port || fail "the server did not listen"
    port=$(port_of_log)
}

# --- one guest game in a client in tmux (telnet_tmux.sh, ssh_tmux.sh) ---

# Sets AT_X, AT_Y to the '@' in the map rows (0..20) of the pane; fails
# (returns 1) unless there is exactly one. Columns are characters, not
# bytes: a client with a UTF-8 locale gets UTF-8 walls and floors (an SSH
# client sends its LANG: docs/telnet.md), and bash counts characters in
# that locale.
find_at() {
    local line pre y=0 n=0 x=0 at_y=0
    while IFS= read -r line; do
        [ $y -ge 21 ] && break
        pre=${line%%@*}
        if [ "$pre" != "$line" ]; then
            n=$((n + 1)) x=${#pre} at_y=$y
        fi
        y=$((y + 1))
    done < <(pane)
    [ $n = 1 ] || return 1
    AT_X=$x AT_Y=$at_y
}

# The character at column $1, row $2 of the pane (characters, as find_at).
char_at() {
    local line
    line=$(pane | sed -n "$(($2 + 1))p")
    printf '%s' "${line:$1:1}"
}

# A floor a step can be taken onto: ASCII '.' or UTF-8's middle dot.
is_floor() { [ "$1" = "." ] || [ "$1" = "·" ]; }

at_is() { find_at && [ "$AT_X" = "$1" ] && [ "$AT_Y" = "$2" ]; }

turn_is() { [ "$(turn_of_pane)" = "$1" ]; }

# e2e_play_guest_game CLIENT_COMMAND [CLOSING_LINE]: the client in an 80x24
# pane against the server on $port (started with --seed 42): the lobby, a
# guest game, one step with a vi-key and back with an arrow, Q y (the game
# recorded), q (goodbye; the client exits, showing CLOSING_LINE if given).
e2e_play_guest_game() {
    pane_name=e2e
    # the session's id and guest name: the first of a fresh server's unless
    # the caller says (E2E_ID, E2E_GUEST: another connection came first)
    local guest=${E2E_GUEST:-guest1}
    local id=${E2E_ID:-1}
    # 2. The client in an 80x24 pane. The pane stays after the client exits
    #    (remain-on-exit), so its end can be seen.
    T new-session -d -s e2e -x 80 -y 24 "$1" \; \
        set-option -t e2e remain-on-exit on >/dev/null || fail "tmux did not start"
    wait_for 30 pane_has 'Play (as a guest)' || fail "no lobby on the screen"
    T send-keys -t e2e p
    wait_for 30 pane_has "Name: $guest" || fail "no guest name offered after p"
    T send-keys -t e2e Enter
    wait_for 30 find_at || fail "no '@' on the screen"
    wait_for 30 pane_has 'HP: 30/30' || fail "no status line"
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
        if is_floor "$c"; then key=$k back=$arrow dx=$ddx dy=$ddy; break; fi
    done
    [ -n "$key" ] || fail "no floor next to the '@'"
    T send-keys -t e2e "$key"
    wait_for 30 at_is $((x0 + dx)) $((y0 + dy)) ||
        fail "'$key' did not move the '@' from $x0,$y0 to $((x0 + dx)),$((y0 + dy))"
    wait_for 30 turn_is 1 || fail "the turn counter is not 1 after a move"
    echo "'$key' moved the '@' to $((x0 + dx)),$((y0 + dy))"
    T send-keys -t e2e "$back"
    wait_for 30 at_is "$x0" "$y0" || fail "the $back arrow did not move the '@' back to $x0,$y0"
    wait_for 30 turn_is 2 || fail "the turn counter is not 2 after two moves"
    echo "the $back arrow moved it back"

    # 4. Q y: back in the lobby, the game recorded; q there: goodbye, the
    #    client exits, the server logs why.
    T send-keys -t e2e Q
    wait_for 30 pane_has 'Really quit? (y/n)' || fail "no quit prompt"
    T send-keys -t e2e y
    wait_for 30 pane_has "Play as $guest" || fail "Q y did not return to the lobby"
    wait_for 30 grep -q "game over id=$id name=$guest seed=[0-9]* turns=2 " "$tmp/server.log" ||
        fail "the server did not record the game (2 turns)"
    T send-keys -t e2e q
    wait_for 30 pane_dead || fail "the client did not exit after Q y"
    # (a client that exits the moment the server closes can leave its last
    # bytes unread by tmux: E2E_PANE_GOODBYE=0 checks them elsewhere)
    [ "${E2E_PANE_GOODBYE:-1}" = 0 ] || pane_has "Thanks for playing. Goodbye!" ||
        fail "no goodbye on the screen"
    [ -z "${2:-}" ] || pane_has "$2" || fail "the client did not see the close ($2)"
    wait_for 30 grep -q 'reason="quit"' "$tmp/server.log" || fail "the server did not log the quit"
    echo "Q y, q: game recorded, goodbye shown, the client exited, quit logged"
}

# A loopback port nobody listens on now, below the kernel's ephemeral range
# (whose ports outgoing connections hold without listening), probed; a race
# with another program taking it is possible but rare: for the ports a
# server has no "0: pick one" for.
free_port() {
    local p i
    for i in $(seq 1 50); do
        p=$(( 10000 + (RANDOM * 32768 + RANDOM) % 22000 ))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# SIGTERM to the server, then its exit status must be 0 within 10 s. (It is
# our child: once it has exited it is a zombie until `wait`, which then
# gives its status.)
e2e_stop_server() {
    kill -TERM "$srv_pid"
    srv_exited() {
        local state
        state=$(awk '{ print $3 }' "/proc/$srv_pid/stat" 2>/dev/null)
        [ -z "$state" ] || [ "$state" = Z ]
    }
    wait_for 30 srv_exited || fail "the server did not exit within 10 s of SIGTERM"
    wait "$srv_pid"
    local rc=$?
    srv_pid=
    [ $rc -eq 0 ] || fail "the server exited with status $rc"
    # a loop that closed with a handle still open is a bug on the way out,
    # whatever the status (server/loop_close.h names the handle)
    ! grep -q "left open" "$tmp/server.log" ||
        fail "a loop closed with a handle left open"
}

# --- the browser tests (browser.sh, browser_screens.sh, site.sh) ---

# playwright-core, fetched once into build/web-test and checked against
# tests/web/playwright.lock; sets pw to its directory. Exits 77 (skip) when
# the npm registry cannot be reached.
e2e_playwright() {
    pw=$ROOT/build/web-test/playwright-core
    if [ ! -f "$pw/package.json" ]; then
        read -r _ url sum < <(grep -v '^#' tests/web/playwright.lock)
        if ! curl -fsSL --retry 2 --max-time 120 -o "$tmp/pw.tgz" "$url"; then
            echo "skipped: cannot fetch playwright-core from the npm registry"
            exit 77
        fi
        echo "$sum  $tmp/pw.tgz" | sha512sum -c --status ||
            fail "playwright-core: the tarball's SHA-512 is not the one in tests/web/playwright.lock"
        # Browser tests run side by side on a fresh tree: each unpacks into
        # a directory of its own and renames it into place (a rename is
        # atomic; -T fails where another test's got there first, which is
        # as good).
        local part="$pw.part.$$"
        rm -rf "$part" && mkdir -p "$part" &&
            tar -xzf "$tmp/pw.tgz" -C "$part" --strip-components=1 ||
            fail "cannot unpack playwright-core"
        if [ -e "$pw" ] && [ ! -f "$pw/package.json" ]; then
            rm -rf "$pw" # a partial one from before the rename
        fi
        if ! mv -T "$part" "$pw" 2>/dev/null; then
            rm -rf "$part"
            [ -f "$pw/package.json" ] || fail "cannot unpack playwright-core"
        fi
    fi
}
