/* cluster_impl.h - inside the cluster thread (cluster.h), shared by its
 * parts; nothing outside server/cluster*.c includes this:
 *
 *   cluster.c           the thread, its connection, the remote ids and
 *                       posting, what arrives (dispatch), the timers, the
 *                       loops' side of cluster.h;
 *   cluster_presence.c  the heartbeat: this host's presence rows, the other
 *                       hosts' rows and what the lobby reads of them;
 *   cluster_watch.c     watching across hosts, both sides: a watcher here
 *                       of another host's game, a game here watched from
 *                       another host;
 *   cluster_progress.c  loading an account's game in progress from the
 *                       database, for a watcher here;
 *   cluster_takeover.c  taking an account's game over from another host,
 *                       and handing this host's game over;
 *   cluster_single.c    one account, one host: a host's sessions of an
 *                       account another host went on with let go.
 *
 * Every part runs on the cluster thread only, except cluster.c's loops'
 * side (under mu) and the lobby's reads (under vmu). Each part keeps its
 * conversations in lists of its own (their entries are its business: the
 * struct names them only) and the others ask it through the functions
 * below. docs/architecture.md, "Hosts that share players";
 * docs/hosting.md, "What the hosts share, and how". */
#ifndef ROGUE_CLUSTER_IMPL_H
#define ROGUE_CLUSTER_IMPL_H

#include <libpq-fe.h>
#include <pthread.h>
#include <stdint.h>
#include <uv.h>

#include "cluster.h"
#include "cluster_proto.h"
#include "chan.h"
#include "shared.h"
#include "msg.h"

/* How long a host's answer (to a watch or a takeover) may take. */
#define ANSWER_MS 3000
/* The thread's heartbeat (cluster.c). */
#define BEAT_MS 1000
/* Between two tries to connect, and how long one may take (cluster.c). */
#define RETRY_MS 2000
#define CONNECT_S 2
/* A host not seen for this long is gone (its rows are ignored). */
#define ALIVE_S 5
/* How long a login waits in all for the hosts that play its account to
 * let go (cluster_takeover.c). A host that lost its connection to the
 * database hears no ask, yet plays on; it stays listed until ALIVE_S after
 * its last heartbeat (a database that stops answering is given up on
 * within the same 5 s: statement and TCP timeouts), then connects again
 * under a new name within RETRY_MS and a connection's CONNECT_S, and
 * lists its players at once (its first heartbeat, BEAT_MS at most): the
 * login looks again until then and asks it under that name. A host asked
 * late in the wait still has ANSWER_MS to answer. docs/hosting.md, "What
 * the hosts share, and how". */
#define TAKEOVER_WAIT_MS (ALIVE_S * 1000 + RETRY_MS + CONNECT_S * 1000 + BEAT_MS)
/* Between two looks for the hosts that play a login's account, once the
 * first answer is late. */
#define RELOOK_MS 500
/* How long the database may take to have the keys a host flushed. */
#define FLUSHED_MS 5000
/* Between two looks at the database while waiting for those keys. */
#define LOOK_MS 50
/* How long the host's stop waits for the thread to end its batch and
 * remove this host's rows before it gives the connection up (cluster.c,
 * cluster_stop). */
#define STOP_MS 1000
/* The thread's connections, as the stop knows them (cluster_sock_hold):
 * the listening one (cluster.c) and the reader of games in progress
 * (cluster_progress.c). */
enum { CLUSTER_SOCK_LISTEN, CLUSTER_SOCK_READ, CLUSTER_SOCKS };
/* Games of other hosts the lobby can list. */
#define VIEW_MAX 64
/* Sessions let go at once for another host's later login (cluster_single.c). */
#define LET_GO_MAX 64

struct cluster {
    /* cluster.c; sh and chan are set at the start and read by every part */
    shared_t *sh;               /* what the loops share (the host's) */
    char url[1024];
    char chan[CLUSTER_CHAN_MAX + 1]; /* this host's channel and name */
    char was[CLUSTER_CHAN_MAX + 1];  /* its name before the database was
                                   lost ("": none): its rows go at the
                                   next connection (cluster_presence.c) */
    uv_thread_t thread;
    int efd;
    /* from the loops: a channel whose wake writes efd (cluster.c) */
    chan_t in;
    int stopped;
    /* the thread's end, for cluster_stop (under smu): a duplicate of each
     * of its connections' sockets while it has one (-1: none; the
     * thread's to close, cluster_sock_hold), whether it has ended, and
     * whether the stop gave its connections up (for good: any made after
     * is shut down at once, and none is tried) */
    uv_mutex_t smu;
    uv_cond_t ended_cond;
    int sock[CLUSTER_SOCKS], ended, cut;
    /* the thread's own */
    PGconn *pg;
    int answer_ms;              /* a statement's deadline (pg_deadline.h) */
    struct store_db *reader;    /* cluster_progress.c: the store's reads */
    int broken;                 /* the connection failed: torn down next */
    unsigned long queried, drained; /* statements run; as of the last drain */
    int said_down;
    uint64_t beat_at, retry_at;
    uint64_t next_id, next_wid;
    int nconv;                  /* conversations at once (cluster_conv_*) */
    cluster_note_t note;        /* scratch for a parsed payload */
    /* cluster_presence.c; the lobby reads under vmu */
    pthread_mutex_t vmu;
    cluster_counts_t counts;
    uint64_t read_at;           /* when the counts were read */
    uint64_t pub_at;            /* when this host's heartbeat last went in
                                   (its row and its accounts' rows; the
                                   time before it was sent; 0: none on
                                   this connection): cluster_current */
    int published;              /* one has, on any connection (written by
                                   the thread alone) */
    uint64_t born;              /* when the thread was started (set once) */
    int nview;
    lobby_game_t view[VIEW_MAX];
    unsigned beats;
    char (*alive)[CLUSTER_CHAN_MAX + 1];
    int nalive;
    struct pres *sent;          /* the sessions published last, by id */
    int nsent;
    int resend;                 /* all of them again (a new name) */
    /* cluster_single.c */
    uint64_t let_go[LET_GO_MAX]; /* sessions let go, until they end */
    int nlet_go;
    /* cluster_watch.c */
    struct rgame *rgames;
    struct watch *watches;
    struct feed *feeds;
    /* cluster_takeover.c */
    struct ask *asks;
    struct give *gives;
};

static inline uint64_t cluster_now_ms(void)
{
    return uv_hrtime() / 1000000u;
}

/* --- cluster.c: the connection, remote ids, posting ----------------------- */

/* A statement's result, or NULL (logged, as one line; a lost connection,
 * or one that gave no answer within answer_ms and was given up, is torn
 * down at the end of the thread's loop). binary: the results in binary. */
PGresult *cluster_query(cluster_t *c, const char *sql, int n,
                        const char *const *vals, int binary);

/* A statement without rows: 0, or -1 (as cluster_query). */
int cluster_exec(cluster_t *c, const char *sql, int n,
                 const char *const *vals);

/* The same for a statement without parameters whose failure the caller
 * expects now and then and tries again (two hosts making the tables at
 * once): its failure is logged at debug level only. */
int cluster_exec_retried(cluster_t *c, const char *sql);

/* One part of the thread: a conversation with other hosts, or what the
 * heartbeat and the reads of games in progress keep. The hub (cluster.c)
 * calls each part's pointers in the table's order (cluster_parts.c); any
 * may be NULL. */
typedef struct cluster_part {
    const char *name;
    /* A message from a loop to a remote id: 1 if this part took it (the
     * hub frees it). */
    int (*take)(cluster_t *c, smsg_t *m);
    /* A message no part took, before the hub bounces it. */
    void (*orphan)(cluster_t *c, const smsg_t *m);
    /* A notification from another host: 1 if it is this part's kind. */
    int (*note)(cluster_t *c, const cluster_note_t *n);
    /* Deadlines (now: cluster_now_ms), and whether any is pending. */
    void (*timers)(cluster_t *c, uint64_t now);
    int (*waiting)(const cluster_t *c);
    /* The database went away; the thread has ended (free what is left). */
    void (*down)(cluster_t *c);
    void (*free)(cluster_t *c);
    /* After each batch of messages and of timers: what is gathered goes. */
    void (*flush)(cluster_t *c);
    /* The connection is made (and listening): 0, or -1 (it is dropped). */
    int (*up)(cluster_t *c);
    /* Once a second while connected. */
    void (*beat)(cluster_t *c);
    /* The thread ends while connected. */
    void (*leave)(cluster_t *c);
} cluster_part_t;

extern const cluster_part_t cluster_parts[];
extern const int cluster_nparts;

/* NOTIFYs another host's channel (a payload of cluster_proto.h). */
void cluster_notify(cluster_t *c, const char *chan, const char *payload);

/* The same, formatted; a payload too long for a notification is dropped. */
void cluster_notifyf(cluster_t *c, const char *chan, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* What the stop may cut (cluster_stop), for connection `which`
 * (CLUSTER_SOCK_*): _hold publishes a duplicate of its socket fd before
 * its first statement, and returns 1 if the stop has cut already (the
 * duplicate is then shut down at once: the caller gives the connection
 * up), else 0; _release closes the duplicate, before the connection is
 * closed. cluster_cut: whether the stop has cut (no connection is made
 * after). */
int cluster_sock_hold(cluster_t *c, int which, int fd);
void cluster_sock_release(cluster_t *c, int which);
int cluster_cut(cluster_t *c);

/* Whether the thread has its connection (other hosts can be talked to). */
int cluster_connected(const cluster_t *c);

/* Conversations with other hosts (watches, feeds, asks and gives
 * together) are bounded: whether another may start; and each part says
 * when one of its own starts and ends. */
int cluster_conv_room(const cluster_t *c);
void cluster_conv_opened(cluster_t *c);
void cluster_conv_closed(cluster_t *c);

/* A new remote id (cluster_is_id) for something on another host. */
uint64_t cluster_new_id(cluster_t *c);

/* A new id for a conversation with another host (a watch or an ask), the
 * one the notifications about it carry. */
uint64_t cluster_new_conv_id(cluster_t *c);

/* To a session of this host (through its loop's inbox), or to one of our
 * own remote ids; a message that cannot be delivered is bounced. Takes m
 * (NULL: nothing). */
void cluster_post(cluster_t *c, smsg_t *m);

/* Posts a new message (type, from, to, a, game g taken, text); out of
 * memory, g is freed and nothing is sent. */
void cluster_postf(cluster_t *c, int type, uint64_t from, uint64_t to,
                   int64_t a, msg_game_t *g, const char *text);

/* --- cluster_presence.c: the heartbeat ------------------------------------ */

/* Makes the presence tables if no host has: 0, or -1. */
int cluster_presence_tables(cluster_t *c);

/* On a new connection: this host's rows of logged-in sessions, left from
 * before, are removed and published again at the next heartbeat. 0, or
 * -1. */
int cluster_presence_rejoin(cluster_t *c);

/* Publishes this host's rows and reads the other hosts': the lobby's
 * view, the remote ids of their games (cluster_rgame_listed), and the
 * conversations with hosts that are gone ended (cluster_watch_hosts_gone). */
void cluster_heartbeat(cluster_t *c);

/* Whether host chan was in the other hosts' rows at the last heartbeat. */
int cluster_host_alive(const cluster_t *c, const char *chan);

/* The database went away: the lobby sees no other host. */
void cluster_presence_down(cluster_t *c);

/* The thread stops: this host's rows go now rather than in 30 s. */
void cluster_presence_leave(cluster_t *c);

/* Frees what the heartbeat keeps (after the thread's end). */
void cluster_presence_free(cluster_t *c);

/* --- cluster_single.c: one account, one host ----------------------------- */

/* Sessions of this host whose account another live host plays, logged
 * in there later, are let go without saving (their games went on there
 * from the database): each heartbeat, after this host's rows. */
void cluster_single_beat(cluster_t *c);

/* Whether session sess was let go and has not ended yet (it is not
 * published). */
int cluster_let_go_pending(cluster_t *c, uint64_t sess);

/* --- cluster_watch.c: watching across hosts ------------------------------- */

/* The remote ids of other hosts' games, as the heartbeat reads their
 * lists: _unlist before a read, _listed for each game listed (its remote
 * id, made the first time; 0 when out of memory), _forget after (ids not
 * listed for a while go). */
void cluster_rgames_unlist(cluster_t *c);
uint64_t cluster_rgame_listed(cluster_t *c, const char *chan, uint64_t sess);
void cluster_rgames_forget(cluster_t *c);

/* A message from a session here to another host's game (a remote id of
 * cluster_rgame_listed), or any WATCH_JOIN or WATCH_LEAVE to a remote id:
 * handled, returns 1 (m stays the caller's); else 0. */
int cluster_to_rgame(cluster_t *c, smsg_t *m);

/* A message from a player here to a watcher on another host: handled,
 * returns 1 (m stays the caller's); else 0. */
int cluster_to_feed(cluster_t *c, smsg_t *m);

/* A notification from a player's host to a watcher here (S, K, E, R). */
void cluster_watch_note(cluster_t *c, const cluster_note_t *n);

/* A notification from a watcher's host to a game here (J, L). */
void cluster_feed_note(cluster_t *c, const cluster_note_t *n);

/* Sends the keys the feeds gathered. */
void cluster_feeds_flush(cluster_t *c);

/* Watches whose host does not answer end; loading ones look again. */
void cluster_watch_timers(cluster_t *c, uint64_t now);

/* Whether a watch waits (the thread then wakes every LOOK_MS). */
int cluster_watch_waiting(const cluster_t *c);

/* Ends the watches and feeds with hosts not alive (cluster_host_alive). */
void cluster_watch_hosts_gone(cluster_t *c);

/* The database went away: every watch and feed ends. */
void cluster_watch_down(cluster_t *c);

/* Frees the watch's lists (after the thread's end). */
void cluster_watch_free_all(cluster_t *c);

/* --- cluster_progress.c: games in progress -------------------------------- */

/* The account's game in progress, if the database has game `seed` with at
 * least nbytes key bytes: its first nbytes, as a summary to rebuild.
 * Returns 1 (*out set), 0 (not there yet), -1 (never: why says). */
int cluster_load_game(cluster_t *c, int64_t account, uint64_t seed,
                      int64_t nbytes, msg_game_t **out, const char **why);

/* How far the database has the account's game in progress: 1 with its
 * seed and key bytes, 0 if it has none, -1 if it cannot say now. */
int cluster_progress_bytes(cluster_t *c, int64_t account, uint64_t *seed,
                           int64_t *nbytes);

/* Closes the thread's connection for these reads (the database went
 * away, or the thread ends). */
void cluster_progress_close(cluster_t *c);

/* --- cluster_takeover.c: taking over and handing over --------------------- */

/* A login here (session) asks the hosts that play account to let go; the
 * session gets its MSG_TAKEOVER_DONE once they have (or did not answer). */
void cluster_ask_start(cluster_t *c, uint64_t session, int64_t account);

/* A host's answer to our ask (D). */
void cluster_ask_note(cluster_t *c, const cluster_note_t *n);

/* Another host asks this one to let go of an account's games (T). */
void cluster_give_start(cluster_t *c, const cluster_note_t *n);

/* A session's answer to a give: handled, returns 1 (m stays the
 * caller's); else 0. */
int cluster_to_give(cluster_t *c, smsg_t *m);

/* The watchers of game g (handed to another host) are told it moved;
 * from: the id they watched it through. */
void cluster_game_moved(cluster_t *c, uint64_t from, const msg_game_t *g);

/* Asks and gives past their time end; checking ones look again. */
void cluster_takeover_timers(cluster_t *c, uint64_t now);

/* Whether an ask or a give waits (the thread then wakes every LOOK_MS). */
int cluster_takeover_waiting(const cluster_t *c);

/* The database went away: every ask is done, every give dropped. */
void cluster_takeover_down(cluster_t *c);

/* Frees the asks and gives (after the thread's end). */
void cluster_takeover_free_all(cluster_t *c);

#endif
