/* server.h - the host: one libuv loop, its listener, and every session on it.
 *
 * The server owns the loop-wide scratch space that every session borrows
 * while it is being served (a read buffer, the next screen, the encoder's
 * output, the telnet output being gathered): one loop runs one callback at
 * a time, so one copy serves everyone and a session keeps only what must
 * outlive a callback. */
#ifndef ROGUE_SERVER_H
#define ROGUE_SERVER_H

#include <stdint.h>
#include <uv.h>

#include "buf.h"
#include "config.h"
#include "game.h"
#include "screen.h"

struct sess;
struct store;

typedef struct srv {
    uv_loop_t *loop;
    config_t cfg;
    uv_tcp_t listener;
    uv_signal_t sigint, sigterm;
    uv_timer_t sweep;          /* once a second: idle checks, keepalives */
    struct sess *sessions;     /* every session not yet freed */
    int nplaying;              /* admitted (not refused, not closing) */
    int ngames;                /* sessions with a game in progress */
    struct store *store;       /* accounts, games, scores (store.h); owned */
    int shutting_down;
    uint64_t next_id;
    /* scratch, borrowed by the session being served */
    char readbuf[65536];
    unsigned char filtbuf[65536 + 2]; /* readbuf after tnfilter */
    screen_t next;             /* the screen being drawn */
    buf_t enc;                 /* the encoder's bytes for one frame */
    buf_t out;                 /* telnet bytes gathered for out_owner */
    struct sess *out_owner;
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

/* "host:port" of an IPv4 or IPv6 address, for the log. */
void srv_addr_name(const struct sockaddr_storage *a, char *out, size_t n);

/* A seed for a new game: the configured one, or a random one. */
uint64_t srv_new_seed(srv_t *srv);

/* The options of every new game on this server (the combat ruleset). */
void srv_game_options(const srv_t *srv, game_options_t *opt);

#endif
