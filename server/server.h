/* server.h - the host: one libuv loop, its listener, every session on it,
 * the messages between them, and the render phase.
 *
 * One loop iteration has two phases. Callbacks (reads, timers, store
 * answers) only change state and mark sessions; then the render phase (a
 * uv_prepare_t, run once per iteration before the loop waits for I/O)
 * delivers the messages sessions posted to each other, carries out every
 * requested close and draws and writes each marked session once. Until
 * both the queue and the marked list are empty: a close tells watchers,
 * whose answers are drawn in the same phase. docs/architecture.md. */
#ifndef ROGUE_SERVER_H
#define ROGUE_SERVER_H

#include <stdint.h>
#include <uv.h>

#include "addr_limits.h"
#include "buf.h"
#include "config.h"
#include "directory.h"
#include "game.h"
#include "msg.h"
#include "proxy_proto.h"
#include "screen.h"

struct sess;
struct store;

typedef struct srv {
    uv_loop_t *loop;
    config_t cfg;
    uv_tcp_t listener;
    uv_signal_t sigint, sigterm, sighup;
    uv_timer_t sweep;          /* once a second: idle checks, keepalives */
    uv_prepare_t phase;        /* the render phase */
    struct sess *sessions;     /* every session not yet freed */
    struct sess *marked, *marked_tail; /* owing the render phase something */
    msgq_t msgs;               /* posted, not yet delivered */
    directory_t dir;           /* admitted sessions by id */
    addr_limits_t addrs;       /* what each address may take */
    int proxy_on;              /* trusted balancers send PROXY headers */
    proxy_trust_t trust;       /* ...these ones */
    int nplaying;              /* admitted (not refused, not closing) */
    struct store *store;       /* accounts, games, scores (store.h); owned */
    int shutting_down;
    uint64_t next_id;
    /* Scratch, borrowed only within one call: a read (every read is
     * handled completely before the next), and the render phase's screen
     * being drawn and its bytes. */
    char readbuf[65536];
    screen_t next;
    buf_t enc;
} srv_t;

/* Sets up the loop, binds and listens (logging "listening on ADDR:PORT").
 * The server takes the store (store_open'd on the same loop) and closes it
 * in srv_run, or here on failure. Returns 0, or -1 after logging why. */
int srv_init(srv_t *srv, uv_loop_t *loop, const config_t *cfg,
             struct store *store);

/* Runs until a signal or srv_shutdown has closed everything, then writes
 * what the store still holds and closes it. Returns the uv_loop_close
 * result (0 when every handle was closed). */
int srv_run(srv_t *srv);

/* Starts a clean shutdown: stop accepting, tell every player, close every
 * connection. The loop ends when the last handle has closed. */
void srv_shutdown(srv_t *srv, const char *why);

/* Queues a message for delivery in the render phase. Takes m. */
void srv_post(srv_t *srv, smsg_t *m);

/* Puts s on the render phase's list (once). */
void srv_mark(srv_t *srv, struct sess *s);

/* Takes s off it (s is being freed). */
void srv_unmark(srv_t *srv, struct sess *s);

/* "host:port" of an IPv4 or IPv6 address, for the log. */
void srv_addr_name(const struct sockaddr_storage *a, char *out, size_t n);

/* A seed for a new game: the configured one, or a random one. */
uint64_t srv_new_seed(srv_t *srv);

/* The options of every new game on this server (the combat ruleset). */
void srv_game_options(const srv_t *srv, game_options_t *opt);

#endif
