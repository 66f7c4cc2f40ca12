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

e2e_cleanup() {
    T kill-server >/dev/null 2>&1
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
wait_for() {
    local limit=$(( $1 * 20 )) i=0
    shift
    while ! "$@"; do
        i=$((i + 1))
        [ $i -ge $limit ] && return 1
        sleep 0.05
    done
    return 0
}

pane() { T capture-pane -p -t "$pane_name"; }
pane_has() { pane | grep -qF -- "$1"; }
pane_dead() { [ "$(T display-message -p -t "$pane_name" '#{pane_dead}')" = 1 ]; }
turn_of_pane() { pane | sed -n 's/.*Turn:\([0-9]*\).*/\1/p' | tail -1; }

port_of_log() { sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/server.log"; }
has_port() { [ -n "$(port_of_log)" ]; }

e2e_start_server() {
    "$BIN" --port 0 --bind 127.0.0.1 --data-dir "$tmp/data" --config /dev/null \
        --set http_port=0 "$@" >"$tmp/server.log" 2>&1 &
    srv_pid=$!
    wait_for 10 has_port || fail "the server did not listen"
    port=$(port_of_log)
}
