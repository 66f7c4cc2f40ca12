/* ssh_bridge.h - `ssh -p ssh_port play@host`: an SSH server (libssh's
 * server API) that carries each connection into the game as an ordinary
 * telnet session.
 *
 * Each SSH connection gets a thread of its own, which runs libssh on its
 * socket (key exchange, authentication, the session channel, its pty and
 * window changes) and relays the channel to a socketpair. The other end of
 * the socketpair is handed to a worker loop like an accepted telnet
 * socket: the thread speaks telnet on it (libtelnet: NAWS from the pty's
 * size and every window change, TTYPE from its terminal type, data with
 * IAC doubled), so the game side is the telnet path that every other test
 * exercises, with every limit of a telnet session. The player's address
 * goes with the socket (the message's text), for the log and the limits.
 *
 * Why threads rather than libssh on the loop: libssh does its own reads
 * and writes on the socket (there is no bytes-in, bytes-out interface),
 * its non-blocking server mode is driven by polling the session, and the
 * key exchange is a burst of CPU (tens of milliseconds) that must not
 * stall a loop serving thousands. A thread per SSH player costs its stack
 * (SSH_BRIDGE_STACK) and libssh's state; docs/hosting.md has the memory
 * measured. At most SSH_BRIDGE_MAX connections at once (more are closed
 * at once).
 *
 * Authentication: "none" is accepted, whatever the user name: every SSH
 * player starts as a guest in the lobby, as with telnet, and logs in to an
 * account with its password there. (Logging in with a public key the
 * account registered is not built yet.)
 *
 * The host key (Ed25519) is made at the first start and kept in the data
 * directory (ssh_host_ed25519_key, mode 600); its SHA-256 fingerprint is
 * logged at each start, for players to check. */
#ifndef ROGUE_SSH_BRIDGE_H
#define ROGUE_SSH_BRIDGE_H

#include <pthread.h>
#include <stdatomic.h>

#define SSH_BRIDGE_MAX 2000
#define SSH_BRIDGE_STACK (256 * 1024)
#define SSH_HOST_KEY_FILE "ssh_host_ed25519_key"

struct host;

typedef struct ssh_bridge {
    void *bind;                /* ssh_bind; owned */
    pthread_mutex_t mu;        /* around ssh_bind_accept_fd */
    atomic_int live;           /* connections (threads) now */
    atomic_int stopping;
    char fingerprint[128];
} ssh_bridge_t;

/* Loads or makes the host key in data_dir. Returns 0, or -1 with err set. */
int ssh_bridge_init(ssh_bridge_t *b, const char *data_dir, char *err,
                    size_t errlen);

/* Takes an accepted SSH socket: its thread relays it to `game_fd` (one end
 * of a socketpair whose other end the caller has handed to a worker loop).
 * Takes both descriptors, whatever happens. `addr`: the player's address,
 * for the log. */
void ssh_bridge_accept(ssh_bridge_t *b, int fd, int game_fd, const char *addr);

/* Asks every connection to end, waits (bounded: 5 s) for their threads,
 * frees. Returns 0, or -1 if some thread is still running: then nothing
 * is freed and b must stay (the process is ending anyway). */
int ssh_bridge_free(ssh_bridge_t *b);

#endif
