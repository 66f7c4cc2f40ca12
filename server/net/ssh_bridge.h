/* ssh_bridge.h - `ssh -p ssh_port play@host`: an SSH server (libssh's
 * server API) that carries each connection into the game as a session.
 *
 * A fixed number of threads (ssh_threads: at most one per core) serve
 * every SSH connection between them, each running libssh's non-blocking
 * event API (ssh_event) over its connections' sockets (ssh_conn.h: the
 * key exchange, authentication, the session channel, its pty, window
 * changes, environment and shell). The acceptor hands a new socket to a
 * thread, in turn, through the thread's channel (chan.h), whose wake is
 * an eventfd in the thread's event. Once the client has authenticated
 * and asked for its shell, the libssh session itself leaves the thread
 * and goes to a worker loop (ssh_hand_fn: the host's srv_send_connection;
 * ssh_play.h), which plays it from then on: the keys are read and
 * decrypted, played, and the frames encrypted and sent on that loop's
 * thread, as telnet's are, with the thread's records (ssh_link.h: the
 * terminal, locale, window) in front. The session
 * has every limit of any session (the per-address ones are counted as it
 * is admitted; its slot of max_sessions and its place among the startups
 * are held from the accept, by the host: srv_ssh_hold). The player's
 * address goes with the socket (the message's text, "ssh ADDR"), for the
 * log and the limits; after a key login the account and its display
 * choice ("ssh ADDR ID NAME DISPLAY"): the text is the bridge's own,
 * nothing a client types reaches it.
 *
 * A connection costs its thread nothing while it waits: its socket in the
 * thread's poll, libssh's state and the conn's (ssh_conn_t);
 * docs/performance.md has the memory and CPU measured. At most
 * SSH_BRIDGE_MAX connections not yet in at once (more are closed at
 * once); those in are sessions, under max_sessions.
 *
 * Authentication. The user "play" is a guest: "none" is accepted, and the
 * player starts in the lobby, logging in to an account with its password
 * there if they like. Any other user name is an account's, and only its
 * public keys are offered ("publickey"): a key is accepted when the
 * account registered it in the lobby (store.h, "SSH public keys": looked
 * up by name and fingerprint, with a deadline; a probe without a
 * signature is answered by the same lookup, then libssh checks the
 * signature), and the session then starts logged in as the account.
 * Anything else is refused, so OpenSSH says "Permission denied
 * (publickey)". A store that cannot answer refuses the key (logged). At
 * most SSH_KEY_TRIES keys are looked up per connection.
 *
 * The host key (Ed25519) is made at the first start and kept in the data
 * directory (ssh_host_ed25519_key, mode 600); its SHA-256 fingerprint is
 * logged at each start, for players to check. */
#ifndef ROGUE_SSH_BRIDGE_H
#define ROGUE_SSH_BRIDGE_H

#include "ssh_state.h"

/* The limits before login (docs/hosting.md): connections not logged in
 * from one address (0: no cap), how long one may take to get in
 * (OpenSSH's LoginGraceTime, in ms), and the first wait after failed key
 * tries (0: none). Call once, after ssh_bridge_init. */
void ssh_bridge_set_limits(ssh_bridge_t *b, int unauth_per_ip, int grace_ms,
                           int fail_delay_ms);

/* Loads or makes the host key in data_dir and offers the ciphers listed
 * (ssh_ciphers: comma-separated names). Returns 0, or -1 with err set. */
int ssh_bridge_init(ssh_bridge_t *b, const char *data_dir,
                    const char *ciphers, char *err, size_t errlen);

/* Starts the threads (after ssh_bridge_set_limits). Returns 0, or -1
 * (logged; ssh_bridge_free still frees). */
int ssh_bridge_start(ssh_bridge_t *b, int nthreads);

/* Takes an accepted SSH socket, whatever happens: a thread runs the
 * connection and, once the player is in, hands the game's end to worker
 * `worker` through b->hand (which is also told of a connection that ends
 * before that). `addr`: the player's address, for the log. */
void ssh_bridge_accept(ssh_bridge_t *b, int fd, int worker, const char *addr);

/* No connection is handed to a worker after this returns (the workers are
 * about to stop): one that is ready later is closed. */
void ssh_bridge_stop_handing(ssh_bridge_t *b);

/* Asks every connection to end, waits (bounded: 5 s) for the threads,
 * frees. Returns 0, or -1 if some thread is still running: then nothing
 * is freed and b must stay (the process is ending anyway). */
int ssh_bridge_free(ssh_bridge_t *b);

#endif
