/* server.h - one worker loop: its thread, its sessions, the messages
 * between them, and the render phase.
 *
 * The host (host.h) runs `workers` of these, each a libuv loop on a thread
 * of its own; a session lives on one worker for its whole life. One loop
 * iteration has two phases. Callbacks (reads, timers, store answers,
 * messages from other loops) only change state and mark sessions; then
 * the render phase (a uv_prepare_t, run once per iteration before the
 * loop waits for I/O) delivers the messages sessions posted, carries out
 * every requested close and draws and writes each marked session once.
 * Until both the queue and the marked list are empty: a close tells
 * watchers, whose answers are drawn in the same phase. A message for a
 * session on another loop goes to that loop's inbox (inbox.h) and is
 * delivered in its render phase. docs/architecture.md. */
#ifndef ROGUE_SERVER_H
#define ROGUE_SERVER_H

#include <stdint.h>
#include <uv.h>

#include "addr_limits.h"
#include "buf.h"
#include "config.h"
#include "directory.h"
#include "game.h"
#include "inbox.h"
#include "msg.h"
#include "outbox.h"
#include "proxy_proto.h"
#include "screen.h"
#include "shared.h"
#include "startups.h"

struct sess;

/* The loop-lag histogram's buckets: upper bounds in ms, the last +Inf. */
#define SRV_LAG_BUCKETS 8
extern const int srv_lag_le_ms[SRV_LAG_BUCKETS - 1];

typedef struct srv {
    shared_t *sh;              /* what the loops share (the host's) */
    int index;                 /* this loop's number, 0.. */
    uv_loop_t loop_storage;
    uv_loop_t *loop;
    uv_thread_t thread;
    config_t cfg;              /* a copy: read on this thread only */
    inbox_t inbox;             /* messages from other loops and the host */
    uv_timer_t sweep;          /* once a second: idle checks, keepalives */
    uv_prepare_t phase;        /* the render phase */
    struct sess *sessions;     /* every session of this loop not yet freed */
    struct sess *marked, *marked_tail; /* owing the render phase something */
    msgq_t msgs;               /* posted, not yet delivered */
    /* Shared by every loop (thread-safe: each call takes its lock). */
    directory_t *dir;          /* every session by id, and its loop */
    addr_limits_t *addrs;      /* what each address may take */
    struct guest_grace *grace; /* dropped guests' games (guest_grace.h) */
    struct login_tokens *logins; /* browser pages' logins (login_tokens.h) */
    const proxy_trust_t *trust; /* trusted balancers send PROXY headers */
    int proxy_on;
    struct store *store;       /* accounts, games, scores (store.h) */
    int shutting_down;
    uint8_t upgrading;         /* a binary upgrade (upgrade.h): 1 packing
                                  the sessions, 2 the store writing */
    uint64_t upgrade_ms;       /* ...since when (the loop's clock) */
    uint32_t upgrade_version;  /* ...to a core of this GAME_VERSION */
    uint8_t upgrade_ready;     /* the new process: every moved session is
                                  in the directory (MSG_UPGRADE_READY) */
    /* Counters for /metrics (server/ops/ctl_metrics.c): this loop's own,
     * read on its thread when the console asks (MSG_CTL_STATS). */
    struct srv_stats {
        uint64_t keys, frames, bytes_out;
        uint64_t bytes_in;     /* read from clients (their budgets') */
        uint64_t in_pauses;    /* reads stopped: a budget ran out */
        uint64_t outbox_early; /* the outbox written before the render
                                  phase's end, full (outbox.h) */
        uint64_t lag_due_ms;   /* when the sweep timer is due next */
        uint64_t lag_count, lag_sum_ms;
        uint64_t lag_bucket[SRV_LAG_BUCKETS]; /* by srv_lag_le_ms */
    } stats;
    uint64_t seeds;            /* fallback seed counter */
    startups_t drops;          /* new connections dropped under pressure
                                  (startups.h): this loop's random state */
    uint64_t idle_rule_ms;     /* when a reload last changed idle_timeout
                                  or idle_warning (uv_now; 0: never): a
                                  session idle past the new rule is warned
                                  from then, not closed at once */
    struct site_dumps *site_dumps; /* game pages' dumps being made in
                                  the thread pool, and the last ones made
                                  (site_dump.h); owned, made at the first
                                  page */
    void (*site_dumps_free)(struct site_dumps *d); /* set with it */
    /* Scratch, borrowed only within one call: a read (every read is
     * handled completely before the next), and the render phase's screen
     * being drawn and its bytes. */
    char readbuf[65536];
    screen_t next;
    screen_keep_t keep;        /* the rows of a frame drawn over the one
                                  shown, kept aside (sess_view_draw) */
    buf_t enc;
    buf_t wout;                /* lent to the session being written */
    int wout_lent;
    int in_phase;              /* within on_phase: frames go to the outbox */
    int wait_keys_held;        /* sessions holding keys typed while their
                                  lobby waited (sess_keep_waited_key): 0,
                                  the phase looks at no session's */
    outbox_t outbox;           /* the phase's frames, written at its end */
} srv_t;

/* Sets worker `index` up with what the loops share and the settings: its
 * loop and handles, on the calling thread, before srv_start. Returns 0, or
 * -1 after logging why. */
int srv_init(srv_t *srv, shared_t *sh, const config_t *cfg, int index);

/* Starts the worker's thread: it attaches to the store, runs the loop
 * until a shutdown has closed everything, detaches and closes the loop.
 * Returns 0, or -1 when the thread cannot start: the worker is then closed
 * and freed already (no srv_join). */
int srv_start(srv_t *srv);

/* Waits for the thread (after srv_start). What srv_init set up stays
 * until srv_release: another worker still running may post to this one's
 * inbox (and is refused, as it is closed) until it has been joined too. */
void srv_join(srv_t *srv);

/* Frees what srv_init set up, once every worker has been joined. */
void srv_release(srv_t *srv);

/* From any thread: hands an accepted socket to the worker (it becomes a
 * session there; acc: how it came, copied; an SSH player's comes as
 * acc->conn, fd -1), or asks it to shut down. Returns 0, or -1 when the
 * worker has stopped already (the caller closes fd, and keeps conn). */
int srv_send_connection(srv_t *srv, int fd, const msg_accept_t *acc);
int srv_send_shutdown(srv_t *srv, const char *why);

/* On the worker's thread: a clean shutdown of its sessions: each player
 * is told, each game kept or recorded, each connection closed. The loop
 * ends when the last handle has closed. */
void srv_shutdown(srv_t *srv, const char *why);

/* Queues a message for delivery in the render phase (to a session of any
 * loop). Takes m. */
void srv_post(srv_t *srv, smsg_t *m);

/* Puts s on the render phase's list (once). */
void srv_mark(srv_t *srv, struct sess *s);

/* Takes s off it (s is being freed). */
void srv_unmark(srv_t *srv, struct sess *s);

/* Admission against max_sessions, counted over every loop: 1 and counted
 * (srv_slot_release when the session ends), or 0 (full, or the server is
 * shutting down). *online: the count with this one, or the count it met. */
int srv_slot_take(srv_t *srv, int *online);
void srv_slot_release(srv_t *srv);

/* Admitted sessions on every loop. */
int srv_online(const srv_t *srv);

/* An SSH connection, from its accept until its session on a loop (or its
 * end), holds what a telnet connection holds from its first byte
 * (docs/hosting.md): a place among the startups, subject to the random
 * early drop (drops: the calling thread's own) and counted under its
 * address (srv_startup_begin), a slot of max_sessions (the calling
 * thread's copy: the host's), and its address's connection token and
 * session (addr_admit: connects_per_ip_per_minute, max_sessions_per_ip). Atomics and the addresses' mutex: release
 * is safe from any thread. addr: "ip:port". Returns 0 and held (the
 * session takes it over in sess_accept, else srv_ssh_hold_release gives
 * it back, once, with the same addr), or -1: refused, logged and counted
 * (refusals.h). */
int srv_ssh_hold(shared_t *sh, int max_sessions, startups_t *drops,
                 const char *addr);
void srv_ssh_hold_release(shared_t *sh, const char *addr);

/* A place among the startups (every loop's connections before the lobby,
 * startups.h) begins for a connection from ip (no port), counted under
 * the address too: returns the count before it, and the address's in
 * *had (for startups_drop). srv_startup_end ends it, once, with the same
 * ip. Both safe from any thread. */
int srv_startup_begin(shared_t *sh, const char *ip, uint64_t now_ms,
                      int *had);
void srv_startup_end(shared_t *sh, const char *ip, uint64_t now_ms);

/* A session of this loop is gone (the host's count of its load). */
void srv_session_gone(srv_t *srv);

/* The other hosts on the store's database (cluster.h), or NULL. */
struct cluster *srv_cluster(const srv_t *srv);

/* A new session id, unique across loops. */
uint64_t srv_new_id(srv_t *srv);

/* "host:port" of an IPv4 address, "[host]:port" of an IPv6 one, for the
 * log. */
void srv_addr_name(const struct sockaddr_storage *a, char *out, size_t n);

/* A seed for a new game: the configured one, or a random one. */
uint64_t srv_new_seed(srv_t *srv);

/* The options of every new game on this server (the combat ruleset). */
void srv_game_options(const srv_t *srv, game_options_t *opt);

#endif
