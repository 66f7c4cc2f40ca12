/* cluster.c - the cluster thread (cluster.h): its connection (LISTEN on
 * this host's channel, NOTIFY to the others', the presence rows, reading
 * games in progress), the remote ids it hands out and the conversations
 * behind them.
 *
 * Everything below `struct cluster`'s thread-owned part is touched only by
 * the thread; the loops reach it through the inbound queue (mu) and the
 * lobby through the view (vmu). The thread waits in poll() on its
 * connection's socket and an eventfd the loops write to, at most until
 * the next heartbeat or timer. */
#define _GNU_SOURCE
#include "cluster.h"

#include <errno.h>
#include <stdarg.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <uv.h>

#include "cluster_proto.h"
#include "host.h"
#include "log.h"
#include "record.h"
#include "store_backend.h"

/* A host not seen for this long is gone (its rows are ignored). */
#define ALIVE_S 5
/* ... and its rows are removed after this long. */
#define FORGET_S 30
#define BEAT_MS 1000
#define RETRY_MS 2000
/* How long a host's answer (to a watch or a takeover) may take. */
#define ANSWER_MS 3000
/* How long the database may take to have the keys a host flushed. */
#define FLUSHED_MS 5000
/* Between two looks at the database while waiting for those keys. */
#define LOOK_MS 50
/* Games of other hosts the lobby can list; games each host publishes. */
#define VIEW_MAX 64
#define LIST_MAX LOBBY_WATCH_MAX
/* Messages waiting for the thread; keys a watcher's host keeps while it
 * loads the game; conversations at once. */
#define INBOUND_MAX 100000
#define PENDING_MAX 262144
#define CONV_MAX 4096

typedef struct rgame {          /* another host's game, as a remote id */
    struct rgame *next;
    uint64_t id, sess;
    char chan[CLUSTER_CHAN_MAX + 1];
    int missed;                 /* heartbeats it was not listed in */
} rgame_t;

enum { W_ASKED, W_LOADING, W_LIVE };

typedef struct watch {          /* here: a watcher of another host's game */
    struct watch *next;
    uint64_t wid, watcher, game; /* game: the rgame's id (messages' from) */
    char chan[CLUSTER_CHAN_MAX + 1];
    int state;
    int started;                /* a WATCH_START went to the watcher */
    uint64_t deadline, look_at;
    uint64_t seed, seq;
    int64_t nbytes, account;
    char name[ACCT_NAME_MAX + 1];
    int32_t *pending;
    int npending, cappending;
} watch_t;

typedef struct feed {           /* here: a game watched from another host */
    struct feed *next;
    uint64_t id, wid, sess;
    char chan[CLUSTER_CHAN_MAX + 1];
    int64_t account;
    uint64_t seq;               /* keys sent since the last S */
    char buf[CLUSTER_PAYLOAD_MAX + 1]; /* a K payload being filled */
    size_t len;
} feed_t;

enum { A_ASKED, A_CHECK };

typedef struct ask {            /* here: a login asking other hosts */
    struct ask *next;
    uint64_t rid, session;
    int64_t account;
    int owed, state;
    int64_t nbytes;
    uint64_t seed, deadline, look_at;
} ask_t;

typedef struct give {           /* here: a game handed to another host */
    struct give *next;
    uint64_t id, rid;
    char chan[CLUSTER_CHAN_MAX + 1];
    int owed;
    int64_t nbytes;
    uint64_t seed, deadline;
} give_t;

typedef struct pres {           /* a logged-in session, as published */
    uint64_t sess;
    int64_t account;
} pres_t;

struct cluster {
    host_t *h;
    char url[1024];
    char chan[CLUSTER_CHAN_MAX + 1]; /* this host's channel and name */
    uv_thread_t thread;
    int efd;
    /* from the loops */
    pthread_mutex_t mu;
    msgq_t in;
    int stop, stopped;
    /* for the lobby */
    pthread_mutex_t vmu;
    cluster_counts_t counts;
    uint64_t read_at;           /* when the counts were read */
    int nview;
    lobby_game_t view[VIEW_MAX];
    /* the thread's own */
    PGconn *pg;
    int broken;                 /* the connection failed: torn down next */
    unsigned long queried, drained; /* statements run; as of the last drain */
    int said_down;
    uint64_t beat_at, retry_at;
    unsigned beats;
    uint64_t next_id, next_wid;
    rgame_t *rgames;
    watch_t *watches;
    feed_t *feeds;
    ask_t *asks;
    give_t *gives;
    int nconv;
    char (*alive)[CLUSTER_CHAN_MAX + 1];
    int nalive;
    pres_t *sent;               /* the sessions published last, by id */
    int nsent;
    cluster_note_t note;        /* scratch for a parsed payload */
};

static uint64_t now_ms(void)
{
    return uv_hrtime() / 1000000u;
}

/* --- the connection ------------------------------------------------------ */

static void no_notices(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* A statement's result, or NULL (logged; a lost connection is torn down
 * at the top of the loop). */
static PGresult *q(cluster_t *c, const char *sql, int n,
                   const char *const *vals, int binary)
{
    if (!c->pg || c->broken)
        return NULL;
    c->queried++;
    /* (several statements in one go only without parameters) */
    PGresult *r = n == 0 && !binary
        ? PQexec(c->pg, sql)
        : PQexecParams(c->pg, sql, n, NULL, vals, NULL, NULL, binary);
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
        return r;
    if (PQstatus(c->pg) != CONNECTION_OK)
        c->broken = 1;
    else
        log_error("cluster: %s", PQresultErrorMessage(r));
    PQclear(r);
    return NULL;
}

static int exec_ok(cluster_t *c, const char *sql, int n,
                   const char *const *vals)
{
    PGresult *r = q(c, sql, n, vals, 0);
    PQclear(r);
    return r ? 0 : -1;
}

static void notify(cluster_t *c, const char *chan, const char *payload)
{
    log_debug("cluster: to %s: %.60s", chan, payload);
    const char *v[2] = { chan, payload };
    exec_ok(c, "SELECT pg_notify($1, $2)", 2, v);
}

static void notifyf(cluster_t *c, const char *chan, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void notifyf(cluster_t *c, const char *chan, const char *fmt, ...)
{
    char p[CLUSTER_PAYLOAD_MAX + 1];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(p, sizeof p, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < sizeof p)
        notify(c, chan, p);
}

/* The presence tables: unlogged (nothing to recover after a crash: every
 * host publishes itself again within a second), made by whichever host
 * comes first. */
static const char tables_sql[] =
    "CREATE UNLOGGED TABLE IF NOT EXISTS rogued_hosts ("
    "  host text PRIMARY KEY,"
    "  seen timestamptz NOT NULL,"
    "  online integer NOT NULL,"
    "  games integer NOT NULL,"
    "  list text NOT NULL);"
    "CREATE UNLOGGED TABLE IF NOT EXISTS rogued_online ("
    "  host text NOT NULL,"
    "  session_id bigint NOT NULL,"
    "  account_id bigint NOT NULL,"
    "  PRIMARY KEY (host, session_id));"
    "CREATE INDEX IF NOT EXISTS rogued_online_account"
    "  ON rogued_online (account_id)";

static void db_connect(cluster_t *c)
{
    /* A database that stops answering must not hold the thread: the
     * statements, the connection and the socket all time out (the URL's
     * own settings, coming last, win over these). */
    const char *const kw[] = { "connect_timeout", "application_name",
                               "options", "keepalives_idle",
                               "keepalives_interval", "keepalives_count",
                               "tcp_user_timeout", "dbname", NULL };
    const char *const val[] = { "2", "rogued-cluster",
                                "-c statement_timeout=5000", "5", "2", "2",
                                "5000", c->url, NULL };
    PGconn *pg = PQconnectdbParams(kw, val, 1);
    c->retry_at = now_ms() + RETRY_MS;
    if (!pg || PQstatus(pg) != CONNECTION_OK) {
        if (!c->said_down) {
            log_error("cluster: cannot reach the database: %s; other "
                      "hosts are shown as unavailable, trying again every "
                      "%d s", pg ? PQerrorMessage(pg) : "out of memory",
                      RETRY_MS / 1000);
            c->said_down = 1;
        }
        PQfinish(pg);
        return;
    }
    PQsetNoticeProcessor(pg, no_notices, NULL);
    c->pg = pg;
    c->broken = 0;
    /* Two hosts starting at once may race to make the tables: the loser
     * finds them made the second time. */
    const char *v[1] = { c->chan };
    char listen[CLUSTER_CHAN_MAX + 16];
    snprintf(listen, sizeof listen, "LISTEN %s", c->chan);
    if ((exec_ok(c, tables_sql, 0, NULL) != 0 &&
         exec_ok(c, tables_sql, 0, NULL) != 0) ||
        exec_ok(c, listen, 0, NULL) != 0 ||
        exec_ok(c, "DELETE FROM rogued_online WHERE host = $1", 1, v) != 0) {
        log_error("cluster: the database refuses the presence tables");
        PQfinish(c->pg);
        c->pg = NULL;
        c->said_down = 1;
        return;
    }
    free(c->sent);
    c->sent = NULL;
    c->nsent = 0;
    c->beat_at = 0;
    log_info("cluster: host %s listening on the database", c->chan);
    c->said_down = 0;
}

/* --- remote ids and posting ---------------------------------------------- */

static uint64_t new_id(cluster_t *c)
{
    return CLUSTER_ID_BIT | ++c->next_id;
}

static void handle(cluster_t *c, smsg_t *m);

/* To a session of this host (through its loop's inbox), or to one of our
 * own remote ids; a message that cannot be delivered is bounced. */
static void post(cluster_t *c, smsg_t *m)
{
    if (!m)
        return;
    if (cluster_is_id(m->to)) {
        handle(c, m);
        return;
    }
    dir_entry_t e;
    if (!c->stopped && dir_lookup(&c->h->dir, m->to, &e) &&
        e.loop >= 0 && e.loop < c->h->nworkers &&
        inbox_post(&c->h->workers[e.loop].inbox, m) == 0)
        return;
    smsg_t *b = msg_bounce(m);
    msg_free(m);
    if (b)
        post(c, b);
}

static void postf(cluster_t *c, int type, uint64_t from, uint64_t to,
                  int64_t a, msg_game_t *g, const char *text)
{
    smsg_t *m = msg_new(type, from, to, text ? "%s" : NULL, text);
    if (!m) {
        msg_game_free(g);
        return;
    }
    m->a = a;
    m->game = g;
    post(c, m);
}

/* Printable ASCII of at most CLUSTER_TEXT_MAX bytes, or dflt if none. */
static void clean_text(const char *in, const char *dflt, char *out)
{
    size_t n = 0;
    for (size_t i = 0; in && in[i] && n < CLUSTER_TEXT_MAX; i++)
        if (in[i] >= 0x20 && in[i] < 0x7f)
            out[n++] = in[i];
    out[n] = '\0';
    if (n == 0)
        snprintf(out, CLUSTER_TEXT_MAX + 1, "%s", dflt);
}

/* --- watching another host's game (here: the watcher's host) ------------- */

static rgame_t *rgame_by_id(cluster_t *c, uint64_t id)
{
    for (rgame_t *g = c->rgames; g; g = g->next)
        if (g->id == id)
            return g;
    return NULL;
}

static void watch_free(cluster_t *c, watch_t *w)
{
    for (watch_t **p = &c->watches; *p; p = &(*p)->next)
        if (*p == w) {
            *p = w->next;
            break;
        }
    free(w->pending);
    free(w);
    c->nconv--;
}

/* Ends watch w: the watcher is told (refused while it waits for the
 * start, ended after), the player's host too if tell_host. */
static void watch_end(cluster_t *c, watch_t *w, const char *why, int tell_host)
{
    if (tell_host)
        notifyf(c, w->chan, "L %llu %s", (unsigned long long)w->wid, c->chan);
    postf(c, w->started ? MSG_WATCH_END : MSG_WATCH_REFUSED, w->game,
          w->watcher, 0, NULL, why);
    watch_free(c, w);
}

static void watch_join(cluster_t *c, uint64_t watcher, rgame_t *g)
{
    if (!c->pg || c->nconv >= CONV_MAX) {
        postf(c, MSG_WATCH_REFUSED, g->id, watcher, 0, NULL,
              "Other hosts are unavailable now.");
        return;
    }
    watch_t *w = calloc(1, sizeof *w);
    if (!w) {
        postf(c, MSG_WATCH_REFUSED, g->id, watcher, 0, NULL,
              "Out of memory: try again later.");
        return;
    }
    w->wid = ++c->next_wid;
    w->watcher = watcher;
    w->game = g->id;
    memcpy(w->chan, g->chan, sizeof w->chan);
    w->state = W_ASKED;
    w->deadline = now_ms() + ANSWER_MS;
    w->next = c->watches;
    c->watches = w;
    c->nconv++;
    notifyf(c, w->chan, "J %llu %s %llu", (unsigned long long)w->wid, c->chan,
            (unsigned long long)g->sess);
}

static watch_t *watch_by_wid(cluster_t *c, uint64_t wid)
{
    for (watch_t *w = c->watches; w; w = w->next)
        if (w->wid == wid)
            return w;
    return NULL;
}

static uint64_t be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* The account's game in progress, if the database has game `seed` with at
 * least nbytes key bytes: its first nbytes, as a summary to rebuild.
 * Returns 1 (*out set), 0 (not there yet), -1 (never: why says). */
static int load_game(cluster_t *c, int64_t account, uint64_t seed,
                     int64_t nbytes, msg_game_t **out, const char **why)
{
    char acct[24], lim[24];
    snprintf(acct, sizeof acct, "%lld", (long long)account);
    snprintf(lim, sizeof lim, "%lld", (long long)nbytes);
    const char *v[2] = { acct, lim };
    *out = NULL;
    if (nbytes > RECORD_ENCODED_MAX) {
        *why = "That game is too long to watch.";
        return -1;
    }
    PGresult *r = q(c, "SELECT game_version, seed, ruleset, started, keys_len,"
                    " snap_version, snap_keys, snap_pos FROM progress WHERE"
                    " account_id = $1", 1, v, 0);
    if (!r)
        return 0;
    int ok = PQntuples(r) == 1 &&
             (uint64_t)strtoll(PQgetvalue(r, 0, 1), NULL, 10) == seed &&
             strtoll(PQgetvalue(r, 0, 4), NULL, 10) >= nbytes;
    if (ok && strtoll(PQgetvalue(r, 0, 0), NULL, 10) != GAME_VERSION) {
        PQclear(r);
        *why = "That game is played by another version of the server.";
        return -1;
    }
    game_options_t opt;
    memset(&opt, 0, sizeof opt);
    int64_t started = 0;
    long long snap_keys = 0, snap_pos = -1;
    if (ok) {
        opt.ruleset = (int)strtol(PQgetvalue(r, 0, 2), NULL, 10);
        started = strtoll(PQgetvalue(r, 0, 3), NULL, 10);
        /* the latest snapshot, if it falls within: only the tail replays */
        if (!PQgetisnull(r, 0, 5) &&
            strtoll(PQgetvalue(r, 0, 5), NULL, 10) == GAME_VERSION) {
            snap_keys = strtoll(PQgetvalue(r, 0, 6), NULL, 10);
            snap_pos = strtoll(PQgetvalue(r, 0, 7), NULL, 10);
        }
    }
    PQclear(r);
    if (!ok)
        return 0;
    r = q(c, "SELECT pos, keys FROM progress_keys WHERE account_id = $1"
          " AND pos < $2 ORDER BY pos", 2, v, 1);
    if (!r)
        return 0;
    buf_t keys;
    buf_init(&keys, RECORD_ENCODED_MAX);
    for (int i = 0; i < PQntuples(r) && (int64_t)keys.len < nbytes; i++) {
        if (PQgetlength(r, i, 0) != 8 ||
            be64((const unsigned char *)PQgetvalue(r, i, 0)) != keys.len)
            break;
        size_t n = (size_t)PQgetlength(r, i, 1);
        if ((int64_t)(keys.len + n) > nbytes)
            n = (size_t)nbytes - keys.len;
        if (buf_append(&keys, PQgetvalue(r, i, 1), n) != 0)
            break;
    }
    PQclear(r);
    if ((int64_t)keys.len != nbytes) {
        buf_free(&keys);
        return 0;
    }
    buf_t checks = { NULL, 0, 0, 0 };
    game_t *snap = NULL;
    if (snap_pos > 0 && snap_pos <= nbytes && snap_keys > 0 &&
        snap_keys <= UINT32_MAX) {
        char pos[24];
        snprintf(pos, sizeof pos, "%lld", snap_pos);
        const char *sv[2] = { acct, pos };
        r = q(c, "SELECT snap_game, snap_checks FROM progress WHERE"
              " account_id = $1 AND snap_pos = $2", 2, sv, 1);
        if (r && PQntuples(r) == 1 && !PQgetisnull(r, 0, 0) &&
            !PQgetisnull(r, 0, 1) &&
            PQgetlength(r, 0, 0) == (int)sizeof(game_t) &&
            (snap = malloc(sizeof *snap))) {
            memcpy(snap, PQgetvalue(r, 0, 0), sizeof *snap);
            checks.data = PQgetvalue(r, 0, 1);
            checks.len = checks.cap = checks.limit =
                (size_t)PQgetlength(r, 0, 1);
        }
        if (!snap)
            PQclear(r);
    }
    *out = msg_game_new(seed, &opt, started, &keys, &checks);
    buf_free(&keys);
    if (snap) {
        PQclear(r);
        if (*out) {
            (*out)->snap = snap; /* the rebuild checks it fits */
            (*out)->snap_keys = (uint32_t)snap_keys;
            (*out)->snap_pos = (size_t)snap_pos;
        } else {
            game_free(snap);
        }
    }
    if (!*out) {
        *why = "Out of memory: try again later.";
        return -1;
    }
    return 1;
}

/* The game is in the database: the watcher gets it and the keys kept. */
static void watch_look(cluster_t *c, watch_t *w, uint64_t now)
{
    msg_game_t *g;
    const char *why = NULL;
    int rc = load_game(c, w->account, w->seed, w->nbytes, &g, &why);
    if (rc < 0) {
        watch_end(c, w, why, 1);
        return;
    }
    if (rc == 0) {
        if (now >= w->deadline)
            watch_end(c, w, "That game cannot be loaded from the database.", 1);
        else
            w->look_at = now + LOOK_MS;
        return;
    }
    log_info("cluster: watch %llu of %s on %s: loaded %lld key bytes, %d "
             "keys since", (unsigned long long)w->wid, w->name, w->chan,
             (long long)w->nbytes, w->npending);
    postf(c, MSG_WATCH_START, w->game, w->watcher, 0, g, w->name);
    for (int i = 0; i < w->npending; i++)
        postf(c, MSG_WATCH_KEY, w->game, w->watcher, w->pending[i], NULL, NULL);
    free(w->pending);
    w->pending = NULL;
    w->npending = w->cappending = 0;
    w->state = W_LIVE;
    w->started = 1;
}

static void watch_note(cluster_t *c, const cluster_note_t *n)
{
    watch_t *w = watch_by_wid(c, n->id);
    if (!w)
        return; /* over already */
    switch (n->kind) {
    case 'R':
        watch_end(c, w, n->text, 0);
        return;
    case 'E':
        watch_end(c, w, n->text, 0);
        return;
    case 'S':
        w->state = W_LOADING;
        w->seed = n->seed;
        w->nbytes = n->nbytes;
        w->account = n->account;
        memcpy(w->name, n->name, sizeof w->name);
        w->seq = 0;
        w->npending = 0;
        w->deadline = now_ms() + FLUSHED_MS;
        w->look_at = 0;
        watch_look(c, w, now_ms());
        return;
    case 'K':
        if (w->state == W_ASKED)
            return;
        if (n->seq != w->seq) {
            log_error("cluster: watch %llu: keys from %llu, %llu expected",
                      (unsigned long long)w->wid, (unsigned long long)n->seq,
                      (unsigned long long)w->seq);
            watch_end(c, w, "The game's stream broke off.", 1);
            return;
        }
        w->seq += (uint64_t)n->nkeys;
        if (w->state == W_LIVE) {
            for (int i = 0; i < n->nkeys; i++)
                postf(c, MSG_WATCH_KEY, w->game, w->watcher, n->keys[i], NULL,
                      NULL);
            return;
        }
        if (w->npending + n->nkeys > w->cappending) {
            int cap = w->cappending ? w->cappending * 2 : 1024;
            while (cap < w->npending + n->nkeys)
                cap *= 2;
            int32_t *p = cap <= PENDING_MAX
                ? realloc(w->pending, (size_t)cap * sizeof *p) : NULL;
            if (!p) {
                watch_end(c, w, "That game moves too fast to catch up with.", 1);
                return;
            }
            w->pending = p;
            w->cappending = cap;
        }
        memcpy(w->pending + w->npending, n->keys,
               (size_t)n->nkeys * sizeof *n->keys);
        w->npending += n->nkeys;
        return;
    default:
        return;
    }
}

/* A message from a watcher here to another host's game. */
static void to_rgame(cluster_t *c, smsg_t *m)
{
    rgame_t *g = rgame_by_id(c, m->to);
    if (m->type == MSG_WATCH_JOIN) {
        if (g)
            watch_join(c, m->from, g);
        else
            postf(c, MSG_WATCH_REFUSED, m->to, m->from, 0, NULL,
                  "That game is over.");
        return;
    }
    if (m->type == MSG_WATCH_LEAVE)
        for (watch_t *w = c->watches; w; w = w->next)
            if (w->watcher == m->from && w->game == m->to) {
                notifyf(c, w->chan, "L %llu %s", (unsigned long long)w->wid,
                        c->chan);
                watch_free(c, w);
                return;
            }
}

/* --- a game of this host watched from another (here: the player's) ----- */

static feed_t *feed_by_id(cluster_t *c, uint64_t id)
{
    for (feed_t *f = c->feeds; f; f = f->next)
        if (f->id == id)
            return f;
    return NULL;
}

static void feed_free(cluster_t *c, feed_t *f)
{
    for (feed_t **p = &c->feeds; *p; p = &(*p)->next)
        if (*p == f) {
            *p = f->next;
            break;
        }
    free(f);
    c->nconv--;
}

static void feed_flush(cluster_t *c, feed_t *f)
{
    if (f->len == 0)
        return;
    f->buf[f->len] = '\0';
    notify(c, f->chan, f->buf);
    f->len = 0;
}

static void feed_key(cluster_t *c, feed_t *f, int64_t key)
{
    char k[16];
    if (key < 0 || key > CLUSTER_KEY_LIMIT)
        return;
    int kl = snprintf(k, sizeof k, "%lld", (long long)key);
    if (f->len > 0 && f->len + 1 + (size_t)kl > CLUSTER_PAYLOAD_MAX)
        feed_flush(c, f);
    if (f->len == 0)
        f->len = (size_t)snprintf(f->buf, sizeof f->buf, "K %llu %llu %s",
                                  (unsigned long long)f->wid,
                                  (unsigned long long)f->seq, k);
    else {
        f->buf[f->len++] = ',';
        memcpy(f->buf + f->len, k, (size_t)kl);
        f->len += (size_t)kl;
    }
    f->seq++;
}

static void feed_join(cluster_t *c, const cluster_note_t *n)
{
    dir_entry_t e;
    const char *why = NULL;
    if (!dir_lookup(&c->h->dir, n->sess, &e) || !e.playing)
        why = "That game is over.";
    else if (e.account_id <= 0)
        why = "A guest's game can be watched only on its own host.";
    else if (c->nconv >= CONV_MAX)
        why = "Too many games are watched across hosts now.";
    feed_t *f = why ? NULL : calloc(1, sizeof *f);
    if (!why && !f)
        why = "Out of memory: try again later.";
    if (why) {
        notifyf(c, n->chan, "R %llu %s", (unsigned long long)n->id, why);
        return;
    }
    f->id = new_id(c);
    f->wid = n->id;
    f->sess = n->sess;
    f->account = e.account_id;
    memcpy(f->chan, n->chan, sizeof f->chan);
    f->next = c->feeds;
    c->feeds = f;
    c->nconv++;
    log_info("cluster: %s watches session %llu (%s)", f->chan,
             (unsigned long long)f->sess, e.game.name);
    postf(c, MSG_WATCH_JOIN, f->id, f->sess, 0, NULL, NULL);
}

/* A message from the player's session to a watcher on another host. */
static void to_feed(cluster_t *c, feed_t *f, smsg_t *m)
{
    char text[CLUSTER_TEXT_MAX + 1];
    switch (m->type) {
    case MSG_WATCH_START:
        if (!m->game)
            return;
        feed_flush(c, f);
        f->seq = 0;
        clean_text(m->text, "?", text);
        text[ACCT_NAME_MAX] = '\0';
        notifyf(c, f->chan, "S %llu %llu %zu %lld %s",
                (unsigned long long)f->wid, (unsigned long long)m->game->seed,
                m->game->keys.len, (long long)f->account, text);
        return;
    case MSG_WATCH_KEY:
        feed_key(c, f, m->a);
        return;
    case MSG_WATCH_MOVED:
        f->sess = (uint64_t)m->a;
        return;
    case MSG_WATCH_END:
    case MSG_WATCH_REFUSED:
        feed_flush(c, f);
        clean_text(m->text, "The game you watched has ended.", text);
        notifyf(c, f->chan, "%c %llu %s", m->type == MSG_WATCH_END ? 'E' : 'R',
                (unsigned long long)f->wid, text);
        feed_free(c, f);
        return;
    default:
        return;
    }
}

static void feed_note(cluster_t *c, const cluster_note_t *n)
{
    if (n->kind == 'J') {
        feed_join(c, n);
        return;
    }
    for (feed_t *f = c->feeds; f; f = f->next)
        if (f->wid == n->id && strcmp(f->chan, n->chan) == 0) {
            postf(c, MSG_WATCH_LEAVE, f->id, f->sess, 0, NULL, NULL);
            feed_free(c, f);
            return;
        }
}

/* --- taking over an account's game from another host (here: the login) -- */

static void ask_done(cluster_t *c, ask_t *a)
{
    postf(c, MSG_TAKEOVER_DONE, CLUSTER_TAKEOVER_ID, a->session, 0, NULL, NULL);
    for (ask_t **p = &c->asks; *p; p = &(*p)->next)
        if (*p == a) {
            *p = a->next;
            break;
        }
    free(a);
    c->nconv--;
}

static void ask_start(cluster_t *c, uint64_t session, int64_t account)
{
    ask_t *a = c->pg && account > 0 && c->nconv < CONV_MAX
        ? calloc(1, sizeof *a) : NULL;
    if (!a) {
        postf(c, MSG_TAKEOVER_DONE, CLUSTER_TAKEOVER_ID, session, 0, NULL, NULL);
        return;
    }
    a->rid = ++c->next_wid;
    a->session = session;
    a->account = account;
    a->nbytes = -1;
    a->state = A_ASKED;
    a->deadline = now_ms() + ANSWER_MS;
    a->next = c->asks;
    c->asks = a;
    c->nconv++;
    char acct[24];
    snprintf(acct, sizeof acct, "%lld", (long long)account);
    const char *v[2] = { acct, c->chan };
    PGresult *r = q(c, "SELECT DISTINCT o.host FROM rogued_online o JOIN"
                    " rogued_hosts h ON h.host = o.host WHERE o.account_id ="
                    " $1 AND o.host <> $2 AND h.seen > now() - interval '"
                    "5 seconds' LIMIT 16", 2, v, 0);
    for (int i = 0; r && i < PQntuples(r); i++) {
        const char *chan = PQgetvalue(r, i, 0);
        if (!cluster_chan_ok(chan))
            continue;
        notifyf(c, chan, "T %llu %s %lld", (unsigned long long)a->rid, c->chan,
                (long long)account);
        a->owed++;
        log_info("cluster: account %lld logs in here and plays on %s: asking "
                 "it to let go", (long long)account, chan);
    }
    PQclear(r);
    if (a->owed == 0)
        ask_done(c, a);
}

/* Whether the database has every key the other host flushed. */
static void ask_look(cluster_t *c, ask_t *a, uint64_t now)
{
    char acct[24];
    snprintf(acct, sizeof acct, "%lld", (long long)a->account);
    const char *v[1] = { acct };
    PGresult *r = q(c, "SELECT seed, keys_len FROM progress WHERE account_id"
                    " = $1", 1, v, 0);
    long long have = -1;
    int same = 0;
    if (r && PQntuples(r) == 1) {
        same = (uint64_t)strtoll(PQgetvalue(r, 0, 0), NULL, 10) == a->seed;
        have = strtoll(PQgetvalue(r, 0, 1), NULL, 10);
    }
    PQclear(r);
    if (same && have >= a->nbytes) {
        log_info("cluster: takeover of account %lld: every key is in the "
                 "database (%lld of %lld bytes)", (long long)a->account, have,
                 (long long)a->nbytes);
        ask_done(c, a);
    } else if (now >= a->deadline) {
        log_error("cluster: takeover of account %lld: the database has %lld "
                  "of the %lld key bytes handed over (game %s)",
                  (long long)a->account, have < 0 ? 0 : have,
                  (long long)a->nbytes, same ? "the same" : "not found");
        ask_done(c, a);
    } else {
        a->look_at = now + LOOK_MS;
    }
}

static void ask_note(cluster_t *c, const cluster_note_t *n)
{
    ask_t *a;
    for (a = c->asks; a && a->rid != n->id; a = a->next)
        ;
    if (!a || a->state != A_ASKED)
        return;
    if (n->nbytes >= 0 && n->nbytes > a->nbytes) {
        a->nbytes = n->nbytes;
        a->seed = n->seed;
    }
    if (--a->owed > 0)
        return;
    if (a->nbytes < 0) {
        ask_done(c, a);
        return;
    }
    a->state = A_CHECK;
    a->deadline = now_ms() + FLUSHED_MS;
    ask_look(c, a, now_ms());
}

/* --- handing this host's game over (here: the player's host) ------------- */

static void give_free(cluster_t *c, give_t *g)
{
    notifyf(c, g->chan, "D %llu %lld %llu", (unsigned long long)g->rid,
            (long long)g->nbytes, (unsigned long long)g->seed);
    for (give_t **p = &c->gives; *p; p = &(*p)->next)
        if (*p == g) {
            *p = g->next;
            break;
        }
    free(g);
    c->nconv--;
}

#define GIVE_MAX 16

static void give_start(cluster_t *c, const cluster_note_t *n)
{
    uint64_t ids[GIVE_MAX];
    int k = dir_sessions_of(&c->h->dir, n->account, 0, ids, GIVE_MAX);
    give_t *g = k > 0 ? calloc(1, sizeof *g) : NULL;
    if (!g) {
        notifyf(c, n->chan, "D %llu -1 0", (unsigned long long)n->id);
        return;
    }
    g->id = new_id(c);
    g->rid = n->id;
    memcpy(g->chan, n->chan, sizeof g->chan);
    g->owed = k;
    g->nbytes = -1;
    g->deadline = now_ms() + ANSWER_MS;
    g->next = c->gives;
    c->gives = g;
    c->nconv++;
    log_info("cluster: account %lld logged in on %s: this host lets go of "
             "its %d session%s", (long long)n->account, n->chan, k,
             k == 1 ? "" : "s");
    for (int i = 0; i < k; i++)
        postf(c, MSG_TAKEOVER, g->id, ids[i], 0, NULL, NULL);
}

/* A session's answer: its game is flushed to the store and let go. */
static void to_give(cluster_t *c, give_t *g, smsg_t *m)
{
    if (m->type != MSG_TAKEOVER_DONE)
        return;
    msg_game_t *gs = m->game;
    if (gs) {
        g->nbytes = (int64_t)gs->keys.len;
        g->seed = gs->seed;
        /* Its watchers (told WATCH_MOVED to g) cannot follow it there. */
        for (int i = 0; i < gs->nwatchers; i++)
            postf(c, MSG_WATCH_END, g->id, gs->watchers[i], 0, NULL,
                  "The game moved to another host.");
        log_info("cluster: handed a game of %zu key bytes to %s", gs->keys.len,
                 g->chan);
    }
    if (--g->owed <= 0)
        give_free(c, g);
}

/* --- what arrives ---------------------------------------------------------- */

/* A message from a loop (or one of ours) to a remote id. */
static void handle(cluster_t *c, smsg_t *m)
{
    if (m->type != MSG_WATCH_KEY)
        log_debug("cluster: message %s from %llx to %llx",
                  msg_type_name(m->type), (unsigned long long)m->from,
                  (unsigned long long)m->to);
    if (m->to == CLUSTER_TAKEOVER_ID) {
        if (m->type == MSG_TAKEOVER)
            ask_start(c, m->from, m->a);
        msg_free(m);
        return;
    }
    feed_t *f = feed_by_id(c, m->to);
    if (f) {
        to_feed(c, f, m);
        msg_free(m);
        return;
    }
    for (give_t *g = c->gives; g; g = g->next)
        if (g->id == m->to) {
            to_give(c, g, m);
            msg_free(m);
            return;
        }
    if (rgame_by_id(c, m->to) || m->type == MSG_WATCH_JOIN ||
        m->type == MSG_WATCH_LEAVE) {
        to_rgame(c, m);
        msg_free(m);
        return;
    }
    /* Nothing here any more: a player still feeding it is told to stop,
     * a request gets its refusal. */
    if (m->type == MSG_WATCH_KEY || m->type == MSG_WATCH_START)
        postf(c, MSG_WATCH_LEAVE, m->to, m->from, 0, NULL, NULL);
    if (m->type == MSG_TAKEOVER_DONE && m->game)
        for (int i = 0; i < m->game->nwatchers; i++)
            postf(c, MSG_WATCH_END, m->to, m->game->watchers[i], 0, NULL,
                  "The game moved to another host.");
    smsg_t *b = msg_bounce(m);
    msg_free(m);
    post(c, b);
}

static void on_note(cluster_t *c, const char *payload)
{
    cluster_note_t *n = &c->note;
    log_debug("cluster: heard %.60s", payload);
    if (cluster_note_parse(payload, strlen(payload), n) != 0) {
        log_error("cluster: a malformed notification (%zu bytes) ignored",
                  strlen(payload));
        return;
    }
    switch (n->kind) {
    case 'J':
    case 'L':
        feed_note(c, n);
        break;
    case 'S':
    case 'K':
    case 'E':
    case 'R':
        watch_note(c, n);
        break;
    case 'T':
        give_start(c, n);
        break;
    case 'D':
        ask_note(c, n);
        break;
    default:
        break;
    }
}

static void drain_notes(cluster_t *c)
{
    if (!c->pg || c->broken)
        return;
    if (!PQconsumeInput(c->pg)) {
        c->broken = 1;
        return;
    }
    PGnotify *n;
    while (!c->broken && (n = PQnotifies(c->pg))) {
        on_note(c, n->extra);
        PQfreemem(n);
    }
    c->drained = c->queried;
}

/* --- the heartbeat ----------------------------------------------------------- */

static int pres_cmp(const void *a, const void *b)
{
    const pres_t *x = a, *y = b;
    return x->sess < y->sess ? -1 : x->sess > y->sess;
}

/* Appends "v," to a growing "{...}" array literal. */
static int arr_add(buf_t *b, long long v)
{
    char t[24];
    int n = snprintf(t, sizeof t, "%s%lld", b->len > 1 ? "," : "", v);
    return buf_append(b, t, (size_t)n);
}

/* The sessions logged in here, as the difference from what was sent. */
static int publish_accounts(cluster_t *c)
{
    int cap = (int)dir_count(&c->h->dir) + 16;
    uint64_t *ids = malloc((size_t)cap * sizeof *ids);
    int64_t *accts = malloc((size_t)cap * sizeof *accts);
    pres_t *now = malloc((size_t)cap * sizeof *now);
    buf_t gone, add_s, add_a;
    buf_init(&gone, 0);
    buf_init(&add_s, 0);
    buf_init(&add_a, 0);
    int rc = -1, n = 0;
    if (!ids || !accts || !now)
        goto out;
    n = dir_accounts(&c->h->dir, ids, accts, cap);
    for (int i = 0; i < n; i++)
        now[i] = (pres_t){ ids[i], accts[i] };
    qsort(now, (size_t)n, sizeof *now, pres_cmp);
    buf_append(&gone, "{", 1);
    buf_append(&add_s, "{", 1);
    buf_append(&add_a, "{", 1);
    int i = 0, j = 0, ngone = 0, nadd = 0;
    while (i < c->nsent || j < n) {
        if (j >= n || (i < c->nsent && c->sent[i].sess < now[j].sess)) {
            arr_add(&gone, (long long)c->sent[i++].sess);
            ngone++;
        } else if (i >= c->nsent || now[j].sess < c->sent[i].sess ||
                   now[j].account != c->sent[i].account) {
            if (i < c->nsent && now[j].sess == c->sent[i].sess)
                i++;
            arr_add(&add_s, (long long)now[j].sess);
            arr_add(&add_a, (long long)now[j].account);
            j++;
            nadd++;
        } else {
            i++;
            j++;
        }
    }
    if (buf_append(&gone, "}", 2) != 0 || buf_append(&add_s, "}", 2) != 0 ||
        buf_append(&add_a, "}", 2) != 0)
        goto out;
    rc = 0;
    if (ngone > 0) {
        const char *v[2] = { c->chan, gone.data };
        rc = exec_ok(c, "DELETE FROM rogued_online WHERE host = $1 AND"
                     " session_id = ANY ($2::bigint[])", 2, v);
    }
    if (rc == 0 && nadd > 0) {
        const char *v[3] = { c->chan, add_s.data, add_a.data };
        rc = exec_ok(c, "INSERT INTO rogued_online (host, session_id,"
                     " account_id) SELECT $1, s, a FROM unnest($2::bigint[],"
                     " $3::bigint[]) AS t(s, a) ON CONFLICT (host, session_id)"
                     " DO UPDATE SET account_id = EXCLUDED.account_id", 3, v);
    }
    if (rc == 0) {
        free(c->sent);
        c->sent = now;
        c->nsent = n;
        now = NULL;
    }
out:
    free(ids);
    free(accts);
    free(now);
    buf_free(&gone);
    buf_free(&add_s);
    buf_free(&add_a);
    return rc;
}

static int alive(const cluster_t *c, const char *chan)
{
    for (int i = 0; i < c->nalive; i++)
        if (strcmp(c->alive[i], chan) == 0)
            return 1;
    return 0;
}

/* The other hosts' rows: the lobby's view, the remote ids of their games,
 * and the conversations with hosts that are gone ended. */
static void read_hosts(cluster_t *c)
{
    const char *v[1] = { c->chan };
    PGresult *r = q(c, "SELECT host, online, games, list FROM rogued_hosts"
                    " WHERE host <> $1 AND seen > now() - interval '5 seconds'"
                    " ORDER BY host", 1, v, 0);
    if (!r)
        return;
    int rows = PQntuples(r);
    free(c->alive);
    c->alive = calloc((size_t)rows + 1, sizeof *c->alive);
    c->nalive = 0;
    cluster_counts_t counts = { 1, 0, 0, 0 };
    lobby_game_t view[VIEW_MAX];
    int nview = 0;
    for (rgame_t *g = c->rgames; g; g = g->next)
        g->missed++;
    for (int i = 0; i < rows && c->alive; i++) {
        const char *chan = PQgetvalue(r, i, 0);
        if (!cluster_chan_ok(chan))
            continue;
        snprintf(c->alive[c->nalive++], CLUSTER_CHAN_MAX + 1, "%s", chan);
        counts.hosts++;
        long on = strtol(PQgetvalue(r, i, 1), NULL, 10);
        long ga = strtol(PQgetvalue(r, i, 2), NULL, 10);
        counts.online += on > 0 && on < 10000000 ? (int)on : 0;
        counts.playing += ga > 0 && ga < 10000000 ? (int)ga : 0;
        cluster_game_t games[LIST_MAX];
        int k = cluster_games_parse(PQgetvalue(r, i, 3),
                                    (size_t)PQgetlength(r, i, 3), games,
                                    LIST_MAX);
        for (int j = 0; j < k && nview < VIEW_MAX; j++) {
            rgame_t *g;
            for (g = c->rgames; g; g = g->next)
                if (g->sess == games[j].sess && strcmp(g->chan, chan) == 0)
                    break;
            if (!g && (g = calloc(1, sizeof *g))) {
                g->id = new_id(c);
                g->sess = games[j].sess;
                snprintf(g->chan, sizeof g->chan, "%s", chan);
                g->next = c->rgames;
                c->rgames = g;
            }
            if (!g)
                continue;
            g->missed = 0;
            lobby_game_t *lg = &view[nview++];
            memset(lg, 0, sizeof *lg);
            lg->session_id = g->id;
            memcpy(lg->name, games[j].name, sizeof lg->name);
            lg->depth = games[j].depth;
            lg->turns = games[j].turns;
            lg->idle_s = games[j].idle_s;
            lg->watchers = games[j].watchers;
        }
    }
    PQclear(r);
    /* remote ids of games listed no more are forgotten after a while */
    for (rgame_t **p = &c->rgames; *p;) {
        rgame_t *g = *p;
        if (g->missed > 10) {
            *p = g->next;
            free(g);
        } else {
            p = &g->next;
        }
    }
    pthread_mutex_lock(&c->vmu);
    c->counts = counts;
    c->read_at = now_ms();
    memcpy(c->view, view, (size_t)nview * sizeof *view);
    c->nview = nview;
    pthread_mutex_unlock(&c->vmu);
    /* conversations with hosts that stopped beating */
    for (watch_t *w = c->watches, *next; w; w = next) {
        next = w->next;
        if (!alive(c, w->chan))
            watch_end(c, w, "The game's host has gone away.", 0);
    }
    for (feed_t *f = c->feeds, *next; f; f = next) {
        next = f->next;
        if (!alive(c, f->chan)) {
            postf(c, MSG_WATCH_LEAVE, f->id, f->sess, 0, NULL, NULL);
            feed_free(c, f);
        }
    }
}

static void heartbeat(cluster_t *c)
{
    enum { GAMES = LIST_MAX };
    dir_entry_t games[GAMES];
    int n = dir_games(&c->h->dir, 0, games, GAMES);
    char list[GAMES * 128 + 1];
    size_t len = 0;
    list[0] = '\0';
    uint64_t now = now_ms();
    for (int i = 0; i < n; i++) {
        cluster_game_t g;
        memset(&g, 0, sizeof g);
        g.sess = games[i].id;
        g.depth = games[i].game.depth;
        g.turns = games[i].game.turns;
        g.watchers = games[i].game.watchers;
        g.idle_s = now > games[i].game.last_input_ms
            ? (int)((now - games[i].game.last_input_ms) / 1000) : 0;
        memcpy(g.name, games[i].game.name, sizeof g.name);
        cluster_game_format(&g, list, sizeof list, &len);
    }
    char online[16], ngames[16];
    snprintf(online, sizeof online, "%d", atomic_load(&c->h->online));
    snprintf(ngames, sizeof ngames, "%zu", dir_ngames(&c->h->dir));
    const char *v[4] = { c->chan, online, ngames, list };
    if (exec_ok(c, "INSERT INTO rogued_hosts (host, seen, online, games,"
                " list) VALUES ($1, now(), $2, $3, $4) ON CONFLICT (host) DO"
                " UPDATE SET seen = now(), online = EXCLUDED.online, games ="
                " EXCLUDED.games, list = EXCLUDED.list", 4, v) != 0)
        return;
    publish_accounts(c);
    if (c->beats++ % 10 == 0)
        exec_ok(c, "WITH gone AS (DELETE FROM rogued_hosts WHERE seen < now()"
                " - interval '30 seconds' RETURNING host) DELETE FROM"
                " rogued_online WHERE host IN (SELECT host FROM gone) OR host"
                " NOT IN (SELECT host FROM rogued_hosts)", 0, NULL);
    read_hosts(c);
}

/* --- timers and the thread ------------------------------------------------------ */

static void timers(cluster_t *c, uint64_t now)
{
    for (watch_t *w = c->watches, *next; w; w = next) {
        next = w->next;
        if (w->state == W_ASKED && now >= w->deadline)
            watch_end(c, w, "That game's host does not answer.", 1);
        else if (w->state == W_LOADING && now >= w->look_at)
            watch_look(c, w, now);
    }
    for (ask_t *a = c->asks, *next; a; a = next) {
        next = a->next;
        if (a->state == A_ASKED && now >= a->deadline) {
            log_error("cluster: takeover of account %lld: another host did "
                      "not answer in %d ms: the game goes on from the "
                      "database", (long long)a->account, ANSWER_MS);
            ask_done(c, a);
        } else if (a->state == A_CHECK && now >= a->look_at) {
            ask_look(c, a, now);
        }
    }
    for (give_t *g = c->gives, *next; g; g = next) {
        next = g->next;
        if (now >= g->deadline)
            give_free(c, g);
    }
}

/* The database went away: every conversation with other hosts ends. */
static void teardown(cluster_t *c)
{
    log_error("cluster: lost the database: other hosts are shown as "
              "unavailable until it is back");
    c->said_down = 1;
    PQfinish(c->pg);
    c->pg = NULL;
    c->broken = 0;
    c->retry_at = now_ms() + RETRY_MS;
    while (c->watches)
        watch_end(c, c->watches, "The game's host cannot be reached now.", 0);
    while (c->feeds) {
        postf(c, MSG_WATCH_LEAVE, c->feeds->id, c->feeds->sess, 0, NULL, NULL);
        feed_free(c, c->feeds);
    }
    while (c->asks)
        ask_done(c, c->asks);
    while (c->gives) {
        give_t *g = c->gives;
        c->gives = g->next;
        free(g);
        c->nconv--;
    }
    pthread_mutex_lock(&c->vmu);
    memset(&c->counts, 0, sizeof c->counts);
    c->nview = 0;
    pthread_mutex_unlock(&c->vmu);
}

static int has_timers(const cluster_t *c)
{
    return c->watches || c->asks || c->gives;
}

static void run(void *arg)
{
    cluster_t *c = arg;
    for (;;) {
        uint64_t now = now_ms();
        if (!c->pg && now >= c->retry_at)
            db_connect(c);
        now = now_ms();
        if (c->pg && now >= c->beat_at) {
            c->beat_at = now + BEAT_MS;
            heartbeat(c);
        }
        msgq_t in = { 0 };
        pthread_mutex_lock(&c->mu);
        int stop = c->stop;
        in = c->in;
        memset(&c->in, 0, sizeof c->in);
        pthread_mutex_unlock(&c->mu);
        smsg_t *m;
        while ((m = msgq_pop(&in)))
            handle(c, m);
        for (feed_t *f = c->feeds; f; f = f->next)
            feed_flush(c, f);
        drain_notes(c);
        timers(c, now_ms());
        for (feed_t *f = c->feeds; f; f = f->next)
            feed_flush(c, f);
        if (c->broken)
            teardown(c);
        if (stop)
            break;
        now = now_ms();
        uint64_t until = c->pg ? c->beat_at : c->retry_at;
        if (has_timers(c) && until > now + LOOK_MS)
            until = now + LOOK_MS;
        int timeout = until > now ? (int)(until - now) : 0;
        /* a statement since the last drain may have read notifications
         * into libpq's list: the socket would not say so */
        if (c->pg && c->queried != c->drained)
            timeout = 0;
        struct pollfd fds[2] = { { c->efd, POLLIN, 0 }, { -1, POLLIN, 0 } };
        if (c->pg)
            fds[1].fd = PQsocket(c->pg);
        if (poll(fds, 2, timeout) > 0 && (fds[0].revents & POLLIN)) {
            uint64_t v;
            if (read(c->efd, &v, sizeof v) < 0 && errno != EAGAIN)
                log_error("cluster: eventfd: %s", strerror(errno));
        }
    }
    /* Leaving: this host's rows go now rather than in 30 s. */
    if (c->pg) {
        const char *v[1] = { c->chan };
        exec_ok(c, "DELETE FROM rogued_online WHERE host = $1", 1, v);
        exec_ok(c, "DELETE FROM rogued_hosts WHERE host = $1", 1, v);
        PQfinish(c->pg);
        c->pg = NULL;
    }
}

/* --- the loops' side ---------------------------------------------------------- */

cluster_t *cluster_start(host_t *h, const char *url)
{
    if (!store_is_pg_url(url))
        return NULL;
    cluster_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->h = h;
    c->next_id = CLUSTER_TAKEOVER_ID & ~CLUSTER_ID_BIT; /* ids after it */
    snprintf(c->url, sizeof c->url, "%s", url);
    uint64_t r;
    if (uv_random(NULL, NULL, &r, sizeof r, 0, NULL) != 0)
        r = uv_hrtime() ^ (uint64_t)getpid() << 32;
    snprintf(c->chan, sizeof c->chan, "rogued_%016llx", (unsigned long long)r);
    c->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    pthread_mutex_init(&c->mu, NULL);
    pthread_mutex_init(&c->vmu, NULL);
    if (c->efd < 0 || uv_thread_create(&c->thread, run, c) != 0) {
        log_error("cluster: cannot start its thread");
        if (c->efd >= 0)
            close(c->efd);
        pthread_mutex_destroy(&c->mu);
        pthread_mutex_destroy(&c->vmu);
        free(c);
        return NULL;
    }
    return c;
}

static void wake(cluster_t *c)
{
    uint64_t one = 1;
    if (write(c->efd, &one, sizeof one) < 0 && errno != EAGAIN)
        log_error("cluster: eventfd: %s", strerror(errno));
}

void cluster_stop(cluster_t *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->mu);
    int was = c->stop;
    c->stop = 1;
    pthread_mutex_unlock(&c->mu);
    if (was)
        return;
    wake(c);
    uv_thread_join(&c->thread);
    c->stopped = 1;
}

void cluster_free(cluster_t *c)
{
    if (!c)
        return;
    cluster_stop(c);
    msgq_free(&c->in);
    for (rgame_t *g = c->rgames, *next; g; g = next) {
        next = g->next;
        free(g);
    }
    for (watch_t *w = c->watches, *next; w; w = next) {
        next = w->next;
        free(w->pending);
        free(w);
    }
    for (feed_t *f = c->feeds, *next; f; f = next) {
        next = f->next;
        free(f);
    }
    for (ask_t *a = c->asks, *next; a; a = next) {
        next = a->next;
        free(a);
    }
    for (give_t *g = c->gives, *next; g; g = next) {
        next = g->next;
        free(g);
    }
    free(c->alive);
    free(c->sent);
    close(c->efd);
    pthread_mutex_destroy(&c->mu);
    pthread_mutex_destroy(&c->vmu);
    free(c);
}

int cluster_deliver(cluster_t *c, smsg_t *m)
{
    pthread_mutex_lock(&c->mu);
    if (c->stop || c->in.len >= INBOUND_MAX) {
        pthread_mutex_unlock(&c->mu);
        return -1;
    }
    msgq_push(&c->in, m);
    pthread_mutex_unlock(&c->mu);
    wake(c);
    return 0;
}

void cluster_counts(cluster_t *c, cluster_counts_t *out)
{
    pthread_mutex_lock(&c->vmu);
    *out = c->counts;
    /* not read for a while (a database that hangs): not known either */
    if (now_ms() > c->read_at + ALIVE_S * 1000)
        memset(out, 0, sizeof *out);
    pthread_mutex_unlock(&c->vmu);
}

int cluster_games(cluster_t *c, lobby_game_t *out, int max)
{
    pthread_mutex_lock(&c->vmu);
    int n = c->nview < max ? c->nview : max;
    if (now_ms() > c->read_at + ALIVE_S * 1000)
        n = 0;
    if (n > 0)
        memcpy(out, c->view, (size_t)n * sizeof *out);
    pthread_mutex_unlock(&c->vmu);
    return n;
}
