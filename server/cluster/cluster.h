/* cluster.h - hosts that share their players through PostgreSQL only: a
 * thread of the host's own, with its own connection to the store's
 * database, that
 *
 *   - publishes once a second who is on this host (a presence row per
 *     host: its counts and the games the lobby lists; a row per logged-in
 *     account) and reads the other hosts' rows: the lobby shows every
 *     host's players and games (cluster_counts, cluster_games);
 *   - LISTENs on a channel of this host's own and NOTIFYs the others'
 *     (cluster_proto.h has the payloads): watching a game on another host
 *     and taking an account's game over from another host are the same
 *     conversations as between two loops (msg.h), carried by
 *     notifications.
 *
 * A session never talks to another host: it posts its usual messages to
 * a *remote id* (cluster_is_id), which the loop hands to this thread
 * (cluster_deliver), and gets its answers from remote ids the same way.
 * Only keys and summaries cross hosts, and the games themselves come from
 * the database (the once-a-second progress of an account's game): a
 * watcher's host loads the game and applies the keys the player's host
 * streams after it; a login's host loads the game the other host flushed
 * and let go. A guest's game is in no database: it can be watched only on
 * its own host.
 *
 * If the database goes away, the thread says so once, shows other hosts
 * as unavailable (cluster_counts: up 0), ends the conversations with them
 * and connects again every two seconds; the host's own games go on.
 * docs/hosting.md, "Several hosts behind a balancer". */
#ifndef ROGUE_CLUSTER_H
#define ROGUE_CLUSTER_H

#include <stdint.h>

#include "lobby.h"
#include "msg.h"

struct shared;

/* Session ids with this bit set stand for something on another host (a
 * game, a watcher, a login); the cluster thread hands them out. */
#define CLUSTER_ID_BIT (1ULL << 62)
/* A login asks here (MSG_TAKEOVER, a: the account) whether another host
 * plays the account; the answer is a MSG_TAKEOVER_DONE with no game once
 * the other host has flushed its keys and let go (or did not answer). */
#define CLUSTER_TAKEOVER_ID (CLUSTER_ID_BIT | 1)

static inline int cluster_is_id(uint64_t id)
{
    return (id & CLUSTER_ID_BIT) != 0;
}

typedef struct cluster cluster_t;

/* Starts the thread for this host (sh: what its loops share) on the database at url (the store's), if
 * it is a PostgreSQL URL (else NULL: a SQLite host is alone). It connects
 * in its own time: a database that is down now is tried again. NULL also
 * when out of memory or threads. */
cluster_t *cluster_start(struct shared *sh, const char *url);

/* Stops the thread (removing this host's rows) and waits for it; later
 * deliveries are refused. */
void cluster_stop(cluster_t *c);

/* Frees it (after cluster_stop and the last loop's end). */
void cluster_free(cluster_t *c);

/* From a loop: a message to a remote id (taken). Returns 0, or -1 (the
 * thread is stopped or its queue is full: m stays the caller's, who
 * bounces it). */
int cluster_deliver(cluster_t *c, smsg_t *m);

typedef struct cluster_counts {
    int up;           /* the database answers: other hosts are known */
    int hosts;        /* other hosts seen in the last seconds */
    int online;       /* their players */
    int playing;      /* their games in progress */
} cluster_counts_t;

/* What other hosts have, as of the last heartbeat. */
void cluster_counts(cluster_t *c, cluster_counts_t *out);

/* Whether the other hosts see this host now: 1 if its heartbeat went in
 * less than ALIVE_S - 1 s ago (cluster_impl.h), so that a login on one of
 * them asks this host to let go of the account, which ends its dropped
 * pages' login tokens of it (cluster_takeover.c); -1 if not yet, this
 * process having written none since its start, less than ALIVE_S - 1 s
 * ago (a binary upgrade's new process: a token waits for its first
 * heartbeat, sess_web_login_wait); else 0: a token here must log nobody in
 * (session_web_login.c), the database being away, or having been until
 * this host's next heartbeat. docs/hosting.md, "What the hosts share". */
int cluster_current(cluster_t *c);

/* Up to max of the other hosts' games in progress, for the lobby's watch
 * page (session_id: a remote id to send MSG_WATCH_JOIN to). Returns how
 * many. */
int cluster_games(cluster_t *c, lobby_game_t *out, int max);

#endif
