/* host.h - the process: the listener and its acceptor, the signals, the
 * worker loops and what they share.
 *
 * The main thread runs a small loop of its own: it accepts connections
 * and hands each socket to the worker with the fewest sessions (ties go
 * round), turns SIGINT, SIGTERM and SIGHUP into a clean shutdown of every
 * worker, and forgets idle addresses now and then. It never touches a
 * session. The workers (server.h) share, each behind its own lock: the
 * directory of sessions, the per-address limits, the count against
 * max_sessions, session ids, and the store (its one database thread and
 * queue; each worker has its own side of it: store_attach).
 *
 * Why one acceptor rather than a listener per worker (SO_REUSEPORT): the
 * kernel's hash spreads connections evenly only on average, and not at all
 * for one busy address; the acceptor balances by the sessions each worker
 * actually has, costs one message per connection, and places connections
 * predictably (the tests put two players on two loops by connecting one
 * after the other). docs/architecture.md, "Worker loops". */
#ifndef ROGUE_HOST_H
#define ROGUE_HOST_H

#include <stdatomic.h>
#include <uv.h>

#include "fd_budget.h"
#include "config.h"
#include "server.h"
#include "shared.h"
#include "ssh_bridge.h"

enum listener_kind { LISTEN_TELNET, LISTEN_HTTP, LISTEN_SSH };

/* A listening socket: telnet's port, the browser's (http_port) or SSH's
 * (ssh_port). */
typedef struct listener {
    struct host *host;
    int fd;                    /* -1: none */
    int kind;                  /* enum listener_kind */
    uv_poll_t poll;
} listener_t;

typedef struct host {
    uv_loop_t *loop;           /* the main thread's */
    config_t cfg;
    listener_t telnet, http, ssh;
    ssh_bridge_t *ssh_bridge;  /* ssh_port: SSH players' threads; owned */
    uv_timer_t accept_pause;   /* out of descriptors: stop a moment */
    long accept_pauses;        /* in the current stall (0: none): its
                                  first, tenth, hundredth... are logged */
    fd_budget_t fds;           /* descriptors kept back (fd_budget.h) */
    uv_signal_t sigint, sigterm, sighup;
    uv_timer_t sweep;          /* forgets idle addresses */
    shared_t sh;               /* what the workers share (shared.h) */
    srv_t *workers;            /* [sh.nworkers]; owned */
    int next_worker;           /* the acceptor's round */
    startups_t ssh_drops;      /* SSH connections dropped under pressure
                                  (srv_ssh_hold): the acceptor's random
                                  state */
    struct ctl *ctl;           /* the operator's console (ctl.h); owned */
    struct upgrade *upgrade;   /* a binary upgrade (upgrade.h); owned */
    int ctl_fd;                /* the console's socket handed over by an
                                  upgrade; -1: ctl_start binds its own */
    int metrics_fd;            /* metrics_port's: an upgrade's, kept while
                                  on the configured address, or opened by
                                  host_init_from; -1: none; ctl_start takes
                                  it (ctl.h) */
    int metrics_taken;         /* 1: metrics_fd is the old process's (the
                                  console's log says so) */
} host_t;

/* What a new process of a binary upgrade takes over (upgrade.h): the
 * listening sockets (-1: none; telnet, http, ssh by enum listener_kind,
 * then the console's and /metrics') and the first session id that is
 * free. */
enum { INHERIT_CTL = 3, INHERIT_METRICS = 4, INHERIT_FDS = 5 };
typedef struct host_inherit {
    int fd[INHERIT_FDS];
    uint64_t next_id;
} host_inherit_t;

/* The number of worker loops `workers = 0` means: one per core. */
int host_default_workers(void);

/* Whether every port cfg names (port, http_port, ssh_port, metrics_port;
 * 0: none, or any, which is always free) can be listened on now: each
 * is opened and closed again. 0, or -1 after logging the first that
 * cannot, and the key that moves it. A fresh start asks first, so that
 * a port in use stops it before it makes a data directory or a
 * database. */
int host_ports_free(const config_t *cfg);

/* Binds and listens (logging "listening on ADDR:PORT ..."), or takes the
 * sockets an upgrade handed over (in: taken, closed on failure; NULL: none),
 * and starts the workers. Takes the store (store_open'd on `loop`, the
 * calling thread's) and closes it in host_run, or here on failure; argv:
 * the process's arguments, for a later upgrade (kept, not copied).
 * Returns 0, or -1 after logging why. */
int host_init_from(host_t *h, uv_loop_t *loop, const config_t *cfg,
                   struct store *store, const host_inherit_t *in, char **argv);

/* A binary upgrade stops the acceptor while it hands the listeners over,
 * and starts it again if the upgrade fails (an accept out of descriptors
 * pauses it so too, for 100 ms). */
void host_pause_accepting(host_t *h);
void host_resume_accepting(host_t *h);

/* Runs until a signal or host_shutdown has stopped every worker, then
 * writes what the store still holds and closes it. Returns 0 when every
 * loop closed cleanly. */
int host_run(host_t *h);

/* Starts a clean shutdown: stop accepting, tell every worker. */
void host_shutdown(host_t *h, const char *why);

/* A worker is done with a session (its load, for the acceptor). */
void host_session_gone(host_t *h, int worker);

#endif
