/* ssh_state.h - what the SSH bridge's parts share (ssh_bridge.h): the
 * bridge's state, which its threads (ssh_bridge.c) and each connection on
 * them (ssh_conn.c) read, and its limits. A header of its own so that a
 * connection needs nothing else of the bridge. */
#ifndef ROGUE_SSH_STATE_H
#define ROGUE_SSH_STATE_H

#include <pthread.h>
#include <stdatomic.h>

#include "ssh_guard.h"

#define SSH_BRIDGE_MAX 2000
#define SSH_HOST_KEY_FILE "ssh_host_ed25519_key"
#define SSH_GUEST_USER "play"      /* the user name that plays as a guest */
#define SSH_KEY_TRIES 6            /* keys looked up per connection */
/* A key's lookup blocks its thread (every connection on it) until the
 * store answers, for at most SSH_KEY_LOOKUP_MS; one that gets no answer
 * makes every thread refuse keys at once for SSH_STORE_AWAY_MS (logged),
 * so a hanging database costs SSH's players one such stall per thread
 * that long, not one per key offered. */
#define SSH_KEY_LOOKUP_MS 3000
#define SSH_STORE_AWAY_MS 10000

struct store;

/* Hands an authenticated connection (conn, whose table is io: ssh_play.h)
 * to worker `worker` (from the bridge's thread), taking it whatever
 * happens: 0, or -1 (the worker is gone: conn was dropped). conn NULL:
 * the connection ended before it was handed (the worker's count of it
 * is given back, and its hold: srv_ssh_hold_release). what: "ssh ADDR"
 * ("ip:port"), then for a conn the login's words (host.c). */
struct byte_io;
typedef int (*ssh_hand_fn)(void *arg, int worker, void *conn,
                           const struct byte_io *io, const char *what);

struct ssh_worker;

typedef struct ssh_bridge {
    void *bind;                /* ssh_bind; owned */
    struct ssh_worker *threads; /* [nthreads]; owned */
    int nthreads;
    atomic_uint next;          /* the thread the next connection goes to */
    pthread_mutex_t mu;        /* around ssh_bind_accept_fd */
    atomic_int live;           /* connections now */
    atomic_int stopping;
    char fingerprint[128];
    /* set by the host after ssh_bridge_init */
    struct store *store;       /* the keys' lookups */
    ssh_hand_fn hand;
    void *hand_arg;
    pthread_mutex_t hand_mu;   /* around hand: ssh_bridge_stop_handing */
    int handing_stopped;
    /* before login (ssh_bridge_set_limits): per address and name */
    sshg_t guard;
    int grace_ms;              /* handshake, login, channel and shell */
    atomic_ullong store_away_until; /* monotonic ms: keys refused till then */
} ssh_bridge_t;

/* Calls b's hand (as ssh_hand_fn) under hand_mu, unless handing has
 * stopped (ssh_bridge_stop_handing): 1 if it was called, 0 if not (conn,
 * if any, is then the caller's to drop). ssh_bridge.c. */
int ssh_bridge_hand(ssh_bridge_t *b, int worker, void *conn,
                    const struct byte_io *io, const char *what);

#endif
