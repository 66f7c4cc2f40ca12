#!/usr/bin/env bash
# ssh_tmux.sh - a real player over SSH: Debian's OpenSSH client in an
# 80x24 tmux pane, against the release build of the server with ssh_port.
#
# 1. The server makes its host key in the data directory (mode 600) and
#    logs its fingerprint.
# 2. `ssh -p PORT play@127.0.0.1` (no password, no key): a guest game, as
#    with telnet (lib.bash: the lobby, a step and back, Q y, q); the server
#    logs the SSH client's own address.
# 3. An account over SSH: registered in the lobby, a game played, the
#    window resized (the status line follows to the new last row), the
#    connection dropped; a second SSH connection logs in with the password
#    and is offered the saved game.
# 4. A public key: erin (logged in with her password over SSH) registers
#    a key made with ssh-keygen on the lobby's keys page (a line that is no
#    key and the same key twice refused with their sentences), plays on to
#    turn 3 and drops; `ssh -i KEY erin@` then lands logged in as erin and
#    continues the saved game (same depth, turn and '@'); another key, and
#    the right key for another name, get "Permission denied (publickey)";
#    the key removed in the lobby is refused too.
# 5. A restart keeps the host key (the same fingerprint); SIGTERM exits 0.
#
# Exit 0: passed; 1: failed; 77: skipped (no tmux or no ssh client).
set -u
cd "$(dirname "$0")/../.." || exit 1

. tests/e2e/lib.bash
e2e_setup ssh tmux ssh

sport=$(free_port) || fail "no free port"
e2e_start_server --seed 42 --set ssh_port="$sport"
fp_line() { grep -q "ssh on 127.0.0.1:$sport .*host key SHA256:" "$tmp/server.log"; }
wait_for 30 fp_line || fail "no ssh line with the host key's fingerprint"
fp=$(sed -n 's/.*host key \(SHA256:[A-Za-z0-9+\/]*\).*/\1/p' "$tmp/server.log" | head -1)
key=$tmp/data/ssh_host_ed25519_key
[ -f "$key" ] || fail "no host key in the data directory"
[ "$(stat -c %a "$key")" = 600 ] || fail "the host key is not mode 600"
echo "host key $fp"

ssh_opts="-p $sport -o StrictHostKeyChecking=no -o UserKnownHostsFile=$tmp/known_hosts -o LogLevel=ERROR"
ssh_cmd="ssh $ssh_opts play@127.0.0.1"
E2E_PANE_GOODBYE=0 e2e_play_guest_game "$ssh_cmd"
grep -q 'connect 127.0.0.1:[0-9]* id=1 ' "$tmp/server.log" ||
    fail "the session did not log the SSH client's address"
T_kill_server

# 2b. The goodbye reaches the SSH client: its whole output kept in a file
#     (tmux may drop a client's last bytes when it exits at once). The keys
#     go in one at a time as their screens come, through a fifo held open
#     until the server closes.
mkfifo "$tmp/keys"
# shellcheck disable=SC2086
ssh $ssh_opts -tt play@127.0.0.1 <"$tmp/keys" >"$tmp/ssh.out" 2>&1 &
ssh_pid=$!
exec 3>"$tmp/keys"
# Each key once its screen is there (a key sent while the lobby waits for
# the store is dropped, as from any client).
out_has() { grep -qa -- "$1" "$tmp/ssh.out"; }
step() { # KEY TEXT-TO-WAIT-FOR-FIRST
    wait_for 30 out_has "$2" || fail "no \"$2\" on the SSH client's output"
    printf '%b' "$1" >&3
}
step p "Play (as a guest)"
step '\r' "Play as a guest"
step Q "HP: 30/30"
step y "Really quit?"
step q "Play as guest"
ssh_done() { ! kill -0 "$ssh_pid" 2>/dev/null; }
wait_for 30 ssh_done || { kill "$ssh_pid"; fail "ssh did not end after q"; }
exec 3>&-
ssh_rc=0
wait "$ssh_pid" || ssh_rc=$?
grep -q "Thanks for playing. Goodbye!" "$tmp/ssh.out" ||
    fail "the goodbye did not reach the SSH client: $(tail -c 300 "$tmp/ssh.out" | od -c | tail -5)"
# a goodbye is a finished command's end: an exit status of 0 (ssh exited
# 255, "closed by remote host", when the connection went before the
# channel's close was answered)
[ "$ssh_rc" -eq 0 ] || fail "ssh exited $ssh_rc after the goodbye: $(tail -c 300 "$tmp/ssh.out")"
echo "the goodbye reached the SSH client, which exited 0"

# 3. An account over SSH.
T new-session -d -s acct -x 80 -y 24 "$ssh_cmd" \; \
    set-option -t acct remain-on-exit on >/dev/null || fail "tmux did not start"
pane_name=acct
wait_for 30 pane_has 'Play (as a guest)' || fail "no lobby (account)"
T send-keys -t acct r
wait_for 30 pane_has 'Name:' || fail "no registration prompt"
T send-keys -t acct -l erin
T send-keys -t acct Enter
wait_for 30 pane_has 'Password:' || fail "no password prompt"
T send-keys -t acct -l erinspassword
T send-keys -t acct Enter
wait_for 30 pane_has 'Again:' || fail "no second password prompt"
T send-keys -t acct -l erinspassword
T send-keys -t acct Enter
wait_for 30 pane_has 'Logged in as erin' || fail "registration over SSH failed"
T send-keys -t acct p
wait_for 30 pane_has 'HP: 30/30' || fail "no game for erin"
T send-keys -t acct .
wait_for 30 turn_is 1 || fail "a wait did not take a turn"
T resize-window -t acct -x 100 -y 30
last_row_is_status() { [ "$(pane | sed -n 30p | cut -c1-3)" = "HP:" ]; }
wait_for 30 last_row_is_status || fail "the view did not follow the window change to 100x30"
T_kill_server # the connection drops
wait_for 30 grep -q 'game suspended id=[0-9]* name=erin' "$tmp/server.log" ||
    fail "erin's game was not kept when the connection dropped"
T new-session -d -s again -x 80 -y 24 "$ssh_cmd" \; \
    set-option -t again remain-on-exit on >/dev/null || fail "tmux did not start"
pane_name=again
wait_for 30 pane_has 'Play (as a guest)' || fail "no lobby (again)"
T send-keys -t again l
wait_for 30 pane_has 'Name:' || fail "no login prompt"
T send-keys -t again -l erin
T send-keys -t again Enter
wait_for 30 pane_has 'Password:' || fail "no password prompt (login)"
T send-keys -t again -l erinspassword
T send-keys -t again Enter
wait_for 30 pane_has 'Continue your game (depth 1, turn 1)' ||
    fail "the saved game was not offered after a login over SSH"
T_kill_server
echo "an account registered, played, dropped and logged in again over SSH"

# 4. A public key.
command -v ssh-keygen >/dev/null || fail "no ssh-keygen (openssh-client)"
ssh-keygen -q -t ed25519 -N '' -C erin@e2e -f "$tmp/id_erin" || fail "ssh-keygen failed"
ssh-keygen -q -t ed25519 -N '' -C other@e2e -f "$tmp/id_other" || fail "ssh-keygen failed"
erin_fp=$(ssh-keygen -l -f "$tmp/id_erin.pub" | awk '{ print $2 }')
# only the key given: no agent, no user configuration, no password prompt
key_opts="-F /dev/null -o IdentitiesOnly=yes -o IdentityAgent=none -o BatchMode=yes"
T new-session -d -s keys -x 80 -y 24 "$ssh_cmd" \; \
    set-option -t keys remain-on-exit on >/dev/null || fail "tmux did not start"
pane_name=keys
wait_for 30 pane_has 'Play (as a guest)' || fail "no lobby (keys)"
T send-keys -t keys l
wait_for 30 pane_has 'Name:' || fail "no login prompt (keys)"
T send-keys -t keys -l erin
T send-keys -t keys Enter
wait_for 30 pane_has 'Password:' || fail "no password prompt (keys)"
T send-keys -t keys -l erinspassword
T send-keys -t keys Enter
wait_for 30 pane_has 'Continue your game (depth 1, turn 1)' || fail "erin's login (keys)"
pane_has 'k   Your SSH keys' || fail "no keys item in the menu of an account"
T send-keys -t keys k
wait_for 30 pane_has 'No key yet.' || fail "no empty keys page after k"
T send-keys -t keys a
wait_for 30 pane_has 'Add an SSH key' || fail "no key prompt after a"
T send-keys -t keys -l "ssh-ed25519 this-is-no-key"
T send-keys -t keys Enter
wait_for 30 pane_has "That key's data is damaged" || fail "a broken key line was not refused"
T send-keys -t keys -l "$(cat "$tmp/id_erin.pub")"
T send-keys -t keys Enter
wait_for 30 pane_has "Key added: $erin_fp" || fail "the key was not added (want $erin_fp)"
pane_has "  $erin_fp  ed25519" || fail "the key is not listed"
T send-keys -t keys a
wait_for 30 pane_has 'Add an SSH key' || fail "no key prompt after a (again)"
T send-keys -t keys -l "$(cat "$tmp/id_erin.pub")"
T send-keys -t keys Enter
wait_for 30 pane_has 'That key is registered already.' || fail "the same key twice was not refused"
T send-keys -t keys q
wait_for 30 pane_has 'Continue your game (depth 1, turn 1)' || fail "q did not return to the menu"
T send-keys -t keys p
wait_for 30 turn_is 1 || fail "erin's game did not continue at turn 1"
T send-keys -t keys .
wait_for 30 turn_is 2 || fail "a wait did not take turn 2"
T send-keys -t keys .
wait_for 30 turn_is 3 || fail "a wait did not take turn 3"
find_at || fail "no '@' in erin's game"
erin_x=$AT_X erin_y=$AT_Y
T_kill_server # the connection drops: the game is kept
# (turns=3: the first drop's line, at turn 1, must not answer for this one)
wait_for 30 grep -q 'game suspended id=[0-9]* name=erin turns=3 ' "$tmp/server.log" ||
    fail "erin's game was not kept at turn 3 when the connection dropped (keys)"
# shellcheck disable=SC2086
T new-session -d -s bykey -x 80 -y 24 \
    "ssh $ssh_opts $key_opts -i $tmp/id_erin erin@127.0.0.1" \; \
    set-option -t bykey remain-on-exit on >/dev/null || fail "tmux did not start"
pane_name=bykey
wait_for 30 pane_has 'Logged in as erin' || fail "ssh -i KEY erin@ did not land logged in"
grep -q "login id=[0-9]* name=erin by SSH key" "$tmp/server.log" ||
    fail "the session did not log the key login"
wait_for 30 pane_has 'Continue your game (depth 1, turn 3)' ||
    fail "the saved game was not offered after the key login"
grep -q "ssh 127.0.0.1:[0-9]*: erin logged in by the key $erin_fp" "$tmp/server.log" ||
    fail "the server did not log the key login"
T send-keys -t bykey p
wait_for 30 turn_is 3 || fail "the saved game did not continue at turn 3"
wait_for 30 at_is "$erin_x" "$erin_y" || fail "the '@' is not where erin left it ($erin_x,$erin_y)"
pane_has 'Depth:1' || fail "not at depth 1"
echo "ssh -i KEY erin@ continued erin's game at turn 3, '@' at $erin_x,$erin_y"
# A wrong key, and the right key under another name: refused by OpenSSH's
# own words.
refused_with() { # KEY USER
    local out rc
    # shellcheck disable=SC2086
    out=$(ssh $ssh_opts $key_opts -i "$1" "$2@127.0.0.1" true 2>&1 </dev/null)
    rc=$?
    [ $rc -ne 0 ] || fail "ssh with $1 as $2 exited 0"
    case "$out" in
        *"Permission denied (publickey)"*) ;;
        *) fail "ssh with $1 as $2: no \"Permission denied (publickey)\": $out" ;;
    esac
}
refused_with "$tmp/id_other" erin
refused_with "$tmp/id_erin" erinx
grep -q "refused 127.0.0.1:[0-9]*: the SSH key SHA256:[^ ]* is not registered for erin$" "$tmp/server.log" ||
    fail "the refused key was not logged"
echo "a wrong key and another name were refused (Permission denied (publickey))"
# The key removed in the lobby: refused from then on.
T send-keys -t bykey Q
wait_for 30 pane_has 'Really quit? (y/n)' || fail "no quit prompt (bykey)"
T send-keys -t bykey n
T send-keys -t bykey Escape
suspended() { grep -c 'game suspended id=[0-9]* name=erin' "$tmp/server.log"; }
before=$(suspended)
T_kill_server
more_suspended() { [ "$(suspended)" -gt "$before" ]; }
wait_for 30 more_suspended || fail "erin's game was not kept when the key login dropped"
T new-session -d -s unkey -x 80 -y 24 \
    "ssh $ssh_opts $key_opts -i $tmp/id_erin erin@127.0.0.1" \; \
    set-option -t unkey remain-on-exit on >/dev/null || fail "tmux did not start"
pane_name=unkey
wait_for 30 pane_has 'Logged in as erin' || fail "the second key login failed"
wait_for 30 pane_has 'Continue your game' || fail "no saved game (unkey)"
T send-keys -t unkey k
wait_for 30 pane_has "  $erin_fp  ed25519" || fail "the key is not listed (unkey)"
T send-keys -t unkey 1
wait_for 30 pane_has "Remove $erin_fp?" || fail "no removal question"
T send-keys -t unkey y
wait_for 30 pane_has 'Key removed.' || fail "the key was not removed"
pane_has 'No key yet.' || fail "the list still shows the key"
T_kill_server
refused_with "$tmp/id_erin" erin
echo "the key removed in the lobby is refused"

# 5. A restart keeps the key; SIGTERM exits 0.
e2e_stop_server
mv "$tmp/server.log" "$tmp/server.1.log"
e2e_start_server --seed 42 --set ssh_port="$sport"
wait_for 30 fp_line || fail "no ssh line after the restart"
grep -q "host key $fp" "$tmp/server.log" || fail "the host key changed across a restart"
grep -q "made the host key" "$tmp/server.log" && fail "a new host key was made at the restart"
e2e_stop_server
echo "passed"
exit 0
