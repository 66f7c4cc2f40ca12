/* shared.h - what the worker loops share, owned by the host (host.h) and
 * lent to each loop (server.h) and to the cluster thread (cluster.h):
 * the directory of sessions, the news and the site's hall-of-fame cache,
 * the per-address limits, the rebuilds' threads, the dropped guests' games kept a while, the count against
 * max_sessions, session ids, each loop's inbox and load, the store and
 * the cluster. Each part is thread-safe on its own (its lock, or an
 * atomic); this header is the bottom they all stand on, so none of them
 * needs the host. docs/architecture.md, "Worker loops". */
#ifndef ROGUE_SHARED_H
#define ROGUE_SHARED_H

#include <stdatomic.h>

#include "addr_limits.h"
#include "directory.h"
#include "guest_grace.h"
#include "login_tokens.h"
#include "inbox.h"
#include "news.h"
#include "site_cache.h"
#include "proxy_proto.h"

/* At most this many worker loops (the store has a side for each). */
#define HOST_WORKERS_MAX 63

struct store;
struct cluster;
struct rbp;
struct upgrade;

typedef struct shared {
    directory_t dir;
    news_t news;               /* wins and deep deaths (news.h) */
    site_cache_t site_cache;   /* the hall of fame while true (site/) */
    addr_limits_t addrs;
    guest_grace_t grace;       /* dropped guests' games (guest_grace.h) */
    login_tokens_t logins;     /* browser pages' logins (login_tokens.h) */
    proxy_trust_t trust;
    int proxy_on;
    atomic_int online;         /* admitted sessions, every loop */
    atomic_int startups;       /* connections not yet in the lobby, every
                                  loop (startups.h) */
    atomic_int shutting_down;  /* host_shutdown has begun: no new player */
    atomic_uint_fast64_t next_id;
    int nworkers;
    inbox_t *inbox[HOST_WORKERS_MAX]; /* each loop's (server.h) */
    inbox_t *host_inbox;       /* the main thread's: the console's answers
                                  (server/ops/ctl.h); NULL: none */
    atomic_int *load;          /* [nworkers]: sessions each holds */
    atomic_int upgrade_settled; /* the new process of an upgrade: loops
                                  that took their moved sessions */
    struct store *store;       /* owned by the host: closed after the last
                                  worker */
    struct rbp *rebuilds;      /* the rebuilds' queue and threads
                                  (rebuild_pool.h); owned by the host */
    struct cluster *cluster;   /* store = postgresql://...: the other hosts
                                  on that database (cluster.h); owned by
                                  the host */
    struct upgrade *upgrade;   /* a binary upgrade's gathering of the
                                  loops' sessions (server/ops/upgrade.h);
                                  owned by the host */
} shared_t;

#endif
