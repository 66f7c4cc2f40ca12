/* cluster_presence.c - the cluster thread's heartbeat: once a second this
 * host's presence rows (rogued_hosts: its counts and the games the lobby
 * lists; rogued_online: its logged-in accounts, and those of its dropped
 * pages' login tokens, as a difference from what was sent), the other
 * hosts' rows read back (the lobby's counts and watch list, which the
 * loops copy under vmu: cluster_counts, cluster_games), and the
 * conversations with hosts that stopped beating ended. docs/hosting.md,
 * "What the hosts share, and how" (who is online, and the games; a
 * dropped page's token); docs/architecture.md, "Hosts that share
 * players". */
#include <libpq-fe.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_impl.h"
#include "log.h"

/* A host not seen for ALIVE_S (cluster_impl.h) is gone, and its rows are
 * removed after this long. */
#define FORGET_S 30
/* Games each host publishes. */
#define LIST_MAX LOBBY_WATCH_MAX
/* The other hosts count this one gone ALIVE_S after its last heartbeat on
 * the database's clock (seen); this host counts from before it sent it,
 * and a second sooner: past this, a login elsewhere may not have asked
 * it to let go (cluster_current, forget_if_missed). */
#define SEEN_MS ((ALIVE_S - 1) * 1000)

typedef struct pres {           /* a logged-in session, as published */
    uint64_t sess;
    int64_t account;
    int playing;                /* it has a game in progress */
    int64_t since_us;           /* first published with this account (the
                                   database's clock, in microseconds), or 0 */
    int64_t claim;              /* its claim (dir_entry_t), or 0 */
    int held;                   /* not a session: a dropped page's login
                                   token, under the session it was given
                                   in (the same row as that session's) */
} pres_t;

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
    "  ON rogued_online (account_id);"
    /* when the session was first published with its account (the
     * database's clock: one for every host), whether it plays, and the
     * claim its game was loaded under (0: none, or a host older than the
     * column), and whether the row is a dropped page's token rather than
     * a session (held: a login elsewhere asks the host to let go, as of
     * a session; no other reader counts it); added to a table made
     * before them only (an ALTER would lock every host out of the table
     * at each connection) */
    "DO $$BEGIN IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid ="
    "  'rogued_online'::regclass AND attname = 'held') THEN"
    "  ALTER TABLE rogued_online ADD COLUMN IF NOT EXISTS since timestamptz"
    "  NOT NULL DEFAULT now(), ADD COLUMN IF NOT EXISTS playing boolean"
    "  NOT NULL DEFAULT false, ADD COLUMN IF NOT EXISTS claim bigint"
    "  NOT NULL DEFAULT 0, ADD COLUMN IF NOT EXISTS held boolean"
    "  NOT NULL DEFAULT false; END IF; END$$";

int cluster_presence_tables(cluster_t *c)
{
    /* Two hosts starting at once may race to make the tables (PostgreSQL's
     * IF NOT EXISTS does not hold against a table being made: "duplicate
     * key value violates unique constraint pg_type_typname_nsp_index"):
     * the loser finds them made the second time, so the first failure is
     * no error (debug level); the second is. */
    if (cluster_exec_retried(c, tables_sql) != 0 &&
        cluster_exec(c, tables_sql, 0, NULL) != 0)
        return -1;
    return 0;
}

/* This host's rows left from before its connection was lost, under the
 * name it had then (cluster.c, teardown): the other hosts, seeing that
 * name no more, end what they had with it at their next heartbeat. The
 * sessions are published again whole under the new name, each with the
 * time it was first published (publish_accounts). */
int cluster_presence_rejoin(cluster_t *c)
{
    const char *v[1] = { c->was };
    if (c->was[0] &&
        (cluster_exec(c, "DELETE FROM rogued_online WHERE host = $1", 1,
                      v) != 0 ||
         cluster_exec(c, "DELETE FROM rogued_hosts WHERE host = $1", 1,
                      v) != 0))
        return -1;
    c->was[0] = '\0';
    c->resend = 1;
    return 0;
}

/* --- the heartbeat ------------------------------------------------------- */

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

/* Appends "t," or "f," to a growing "{...}" array literal. */
static void arr_bool(buf_t *b, int v)
{
    const char *p = v ? ",t" : ",f";
    buf_append(b, b->len > 1 ? p : p + 1, b->len > 1 ? 2 : 1);
}

/* The tokens of pages that dropped here and may come back (lt_held), as
 * rows of the sessions they were given in, added to the n sessions of
 * now (sorted; room for cap) but for a session listed there: a login on
 * another host finds this host by them and asks it to let go, which ends
 * them (cluster_give_start). Returns the new count, sorted, or -1 (out of
 * memory, or more tokens than room: a publish that left some out would
 * delete their rows, so none is made and the next heartbeat tries again
 * with room for them). */
static int tokens_now(cluster_t *c, pres_t *now, int n, int cap)
{
    int room = cap - n;
    if (room <= 0)
        return -1;
    uint64_t *was = malloc((size_t)room * sizeof *was);
    int64_t *accts = malloc((size_t)room * sizeof *accts);
    /* (the loops' clock, uv_now, is libuv's monotonic milliseconds too) */
    int k = was && accts ? lt_held(&c->sh->logins, cluster_now_ms(), was,
                                   accts, room) : -1;
    if (k < 0 || k == room) { /* (room full: there may be more) */
        free(was);
        free(accts);
        return -1;
    }
    int listed = n;
    for (int i = 0; i < k; i++) {
        pres_t key = { was[i], 0, 0, 0, 0, 0 };
        if (!bsearch(&key, now, (size_t)listed, sizeof *now, pres_cmp))
            now[n++] = (pres_t){ was[i], accts[i], 0, 0, 0, 1 };
    }
    free(was);
    free(accts);
    qsort(now, (size_t)n, sizeof *now, pres_cmp);
    /* one row a session (a statement that wrote one twice would fail
     * whole): a token is given in one session at a time, which is
     * login_tokens.c's callers' rule, not this file's */
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || now[i].sess != now[m - 1].sess)
            now[m++] = now[i];
    return m;
}

/* The sessions logged in here now, by id (those let go left out), and the
 * tokens of pages that dropped here, each with the time it was published
 * first if it was with this account. */
static int accounts_now(cluster_t *c, pres_t *now, int cap)
{
    uint64_t *ids = malloc((size_t)cap * sizeof *ids);
    int64_t *accts = malloc((size_t)cap * sizeof *accts);
    int n = 0;
    if (!ids || !accts) {
        free(ids);
        free(accts);
        return -1;
    }
    int k = dir_accounts(&c->sh->dir, ids, accts, cap);
    for (int i = 0; i < k; i++) {
        dir_entry_t e;
        if (cluster_let_go_pending(c, ids[i]))
            continue;
        int found = dir_lookup(&c->sh->dir, ids[i], &e);
        now[n++] = (pres_t){ ids[i], accts[i], found && e.playing, 0,
                             found ? e.claim : 0, 0 };
    }
    free(ids);
    free(accts);
    qsort(now, (size_t)n, sizeof *now, pres_cmp);
    n = tokens_now(c, now, n, cap);
    if (n < 0)
        return -1;
    for (int i = 0, j = 0; i < n && j < c->nsent;) {
        if (c->sent[j].sess < now[i].sess)
            j++;
        else if (now[i].sess < c->sent[j].sess)
            i++;
        else {
            if (now[i].account == c->sent[j].account)
                now[i].since_us = c->sent[j].since_us;
            i++;
            j++;
        }
    }
    return n;
}

/* The first-published times of the rows just written (r: session_id,
 * since in microseconds), into now (sorted by session). */
static void accounts_since(pres_t *now, int n, PGresult *r)
{
    for (int k = 0; k < PQntuples(r); k++) {
        pres_t key = { strtoull(PQgetvalue(r, k, 0), NULL, 10), 0, 0, 0, 0,
                       0 };
        pres_t *p = bsearch(&key, now, (size_t)n, sizeof *now, pres_cmp);
        if (p)
            p->since_us = strtoll(PQgetvalue(r, k, 1), NULL, 10);
    }
}

/* The sessions logged in here, as the difference from what was sent (all
 * of them after a rejoin): a session's first time with its account is
 * kept across a loss of the database, as the later login of two is told
 * by it (cluster_single.c). */
static int publish_accounts(cluster_t *c)
{
    int cap = (int)dir_count(&c->sh->dir) + lt_count(&c->sh->logins) + 16;
    pres_t *now = malloc((size_t)cap * sizeof *now);
    buf_t gone, add_s, add_a, add_p, add_t, add_c, add_h;
    buf_t *bufs[7] = { &gone, &add_s, &add_a, &add_p, &add_t, &add_c,
                       &add_h };
    for (int b = 0; b < 7; b++) {
        buf_init(bufs[b], 0);
        buf_append(bufs[b], "{", 1);
    }
    int rc = -1, n = now ? accounts_now(c, now, cap) : -1;
    if (n < 0)
        goto out;
    int i = 0, j = 0, ngone = 0, nadd = 0;
    while (i < c->nsent || j < n) {
        if (j >= n || (i < c->nsent && c->sent[i].sess < now[j].sess)) {
            arr_add(&gone, (long long)c->sent[i++].sess);
            ngone++;
            continue;
        }
        int same = i < c->nsent && now[j].sess == c->sent[i].sess;
        if (c->resend || !same || now[j].account != c->sent[i].account ||
            now[j].playing != c->sent[i].playing ||
            now[j].claim != c->sent[i].claim ||
            now[j].held != c->sent[i].held) {
            arr_add(&add_s, (long long)now[j].sess);
            arr_add(&add_a, (long long)now[j].account);
            arr_bool(&add_p, now[j].playing);
            arr_add(&add_t, (long long)now[j].since_us);
            arr_add(&add_c, (long long)now[j].claim);
            arr_bool(&add_h, now[j].held);
            nadd++;
        }
        i += same;
        j++;
    }
    for (int b = 0; b < 7; b++)
        if (buf_append(bufs[b], "}", 2) != 0)
            goto out;
    rc = 0;
    if (ngone > 0 && !c->resend) {
        const char *v[2] = { c->chan, gone.data };
        rc = cluster_exec(c, "DELETE FROM rogued_online WHERE host = $1 AND"
                     " session_id = ANY ($2::bigint[])", 2, v);
    }
    if (rc == 0 && nadd > 0) {
        const char *v[7] = { c->chan, add_s.data, add_a.data, add_p.data,
                             add_t.data, add_c.data, add_h.data };
        PGresult *r = cluster_query(c, "INSERT INTO rogued_online (host,"
                     " session_id, account_id, playing, since, claim, held)"
                     " SELECT $1, s, a, p, CASE WHEN t > 0 THEN"
                     " to_timestamp(t / 1e6) ELSE now() END, k, h FROM"
                     " unnest($2::bigint[], $3::bigint[], $4::boolean[],"
                     " $5::bigint[], $6::bigint[], $7::boolean[]) AS u(s, a,"
                     " p, t, k, h) ON CONFLICT (host, session_id) DO UPDATE"
                     " SET account_id = EXCLUDED.account_id, playing ="
                     " EXCLUDED.playing, since = EXCLUDED.since, claim ="
                     " EXCLUDED.claim, held = EXCLUDED.held RETURNING"
                     " session_id, (extract(epoch FROM since) *"
                     " 1000000)::bigint", 7, v, 0);
        rc = r ? 0 : -1;
        if (r)
            accounts_since(now, n, r);
        PQclear(r);
    }
    if (rc == 0) {
        free(c->sent);
        c->sent = now;
        c->nsent = n;
        c->resend = 0;
        now = NULL;
    }
out:
    free(now);
    for (int b = 0; b < 7; b++)
        buf_free(bufs[b]);
    return rc;
}

int cluster_host_alive(const cluster_t *c, const char *chan)
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
    PGresult *r = cluster_query(c, "SELECT host, online, games, list FROM"
                                " rogued_hosts WHERE host <> $1 AND seen >"
                                " now() - interval '5 seconds' ORDER BY host",
                                1, v, 0);
    if (!r)
        return;
    int rows = PQntuples(r);
    free(c->alive);
    c->alive = calloc((size_t)rows + 1, sizeof *c->alive);
    c->nalive = 0;
    cluster_counts_t counts = { 1, 0, 0, 0 };
    lobby_game_t view[VIEW_MAX];
    int nview = 0;
    cluster_rgames_unlist(c);
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
            uint64_t id = cluster_rgame_listed(c, chan, games[j].sess);
            if (!id)
                continue;
            lobby_game_t *lg = &view[nview++];
            memset(lg, 0, sizeof *lg);
            lg->session_id = id;
            memcpy(lg->name, games[j].name, sizeof lg->name);
            lg->depth = games[j].depth;
            lg->turns = games[j].turns;
            lg->idle_s = games[j].idle_s;
            lg->watchers = games[j].watchers;
        }
    }
    PQclear(r);
    cluster_rgames_forget(c);
    pthread_mutex_lock(&c->vmu);
    c->counts = counts;
    c->read_at = cluster_now_ms();
    memcpy(c->view, view, (size_t)nview * sizeof *view);
    c->nview = nview;
    pthread_mutex_unlock(&c->vmu);
    /* conversations with hosts that stopped beating */
    cluster_watch_hosts_gone(c);
}

/* After a heartbeat went in (this host's row, then its accounts' rows),
 * at now: if the one before went in SEEN_MS or more earlier (or there was
 * none since the connection was made again, or none yet SEEN_MS after
 * the start), the other hosts may have counted this one gone meanwhile
 * (from when the row before expired until this one committed, which a
 * slow statement puts off up to its timeout), and a login there did not
 * ask it to let go: every login token here goes (an open session's too,
 * so that its page dropping later cannot take the game back either;
 * those pages come back logged out), before cluster_current says yes
 * again. A first heartbeat soon after the start keeps them: the tokens a
 * binary upgrade moved here are of pages still connected. */
static void forget_if_missed(cluster_t *c, uint64_t now)
{
    /* (pub_at is written by this thread only) */
    uint64_t last = c->published ? c->pub_at : c->born;
    if (last != 0 && now - last < SEEN_MS)
        return;
    int n = lt_forget_all(&c->sh->logins);
    if (n > 0)
        log_info("cluster: %d login token%s forgotten: other hosts may "
                 "have counted this one gone (its heartbeat lost with the "
                 "database, or %d s late), and a login there could not ask "
                 "it to let go", n, n == 1 ? "" : "s", SEEN_MS / 1000);
}

void cluster_heartbeat(cluster_t *c)
{
    enum { GAMES = LIST_MAX };
    dir_entry_t games[GAMES];
    int n = dir_games(&c->sh->dir, 0, games, GAMES);
    char list[GAMES * 128 + 1];
    size_t len = 0;
    list[0] = '\0';
    uint64_t now = cluster_now_ms();
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
    snprintf(online, sizeof online, "%d", atomic_load(&c->sh->online));
    snprintf(ngames, sizeof ngames, "%zu", dir_ngames(&c->sh->dir));
    const char *v[4] = { c->chan, online, ngames, list };
    if (cluster_exec(c, "INSERT INTO rogued_hosts (host, seen, online, games,"
                     " list) VALUES ($1, now(), $2, $3, $4) ON CONFLICT (host)"
                     " DO UPDATE SET seen = now(), online = EXCLUDED.online,"
                     " games = EXCLUDED.games, list = EXCLUDED.list", 4,
                     v) != 0)
        return;
    if (publish_accounts(c) == 0) {
        /* both in: seen is the database's time of the row (its
         * statement's start), later than now, so the others count this
         * host alive until at least now + ALIVE_S, and find its
         * accounts' rows; the tokens go first if they may have missed it
         * (however long the statements took) */
        forget_if_missed(c, cluster_now_ms());
        pthread_mutex_lock(&c->vmu);
        c->pub_at = now;
        c->published = 1;
        pthread_mutex_unlock(&c->vmu);
    }
    if (c->beats++ % 10 == 0)
        cluster_exec(c, "WITH gone AS (DELETE FROM rogued_hosts WHERE seen <"
                     " now() - interval '30 seconds' RETURNING host) DELETE"
                     " FROM rogued_online WHERE host IN (SELECT host FROM"
                     " gone) OR host NOT IN (SELECT host FROM rogued_hosts)",
                     0, NULL);
    read_hosts(c);
}

void cluster_presence_down(cluster_t *c)
{
    pthread_mutex_lock(&c->vmu);
    memset(&c->counts, 0, sizeof c->counts);
    c->nview = 0;
    c->pub_at = 0; /* (the next connection is under a new name) */
    pthread_mutex_unlock(&c->vmu);
}

void cluster_presence_leave(cluster_t *c)
{
    const char *v[1] = { c->chan };
    cluster_exec(c, "DELETE FROM rogued_online WHERE host = $1", 1, v);
    cluster_exec(c, "DELETE FROM rogued_hosts WHERE host = $1", 1, v);
}

void cluster_presence_free(cluster_t *c)
{
    free(c->alive);
    free(c->sent);
}

/* --- what the lobby reads (the loops' threads) --------------------------- */

void cluster_counts(cluster_t *c, cluster_counts_t *out)
{
    pthread_mutex_lock(&c->vmu);
    *out = c->counts;
    /* not read for a while (a database that hangs): not known either */
    if (cluster_now_ms() > c->read_at + ALIVE_S * 1000)
        memset(out, 0, sizeof *out);
    pthread_mutex_unlock(&c->vmu);
}

int cluster_games(cluster_t *c, lobby_game_t *out, int max)
{
    pthread_mutex_lock(&c->vmu);
    int n = c->nview < max ? c->nview : max;
    if (cluster_now_ms() > c->read_at + ALIVE_S * 1000)
        n = 0;
    if (n > 0)
        memcpy(out, c->view, (size_t)n * sizeof *out);
    pthread_mutex_unlock(&c->vmu);
    return n;
}

int cluster_current(cluster_t *c)
{
    pthread_mutex_lock(&c->vmu);
    uint64_t now = cluster_now_ms();
    int current = c->pub_at != 0 && now < c->pub_at + SEEN_MS ? 1
        : !c->published && now < c->born + SEEN_MS ? -1 : 0;
    pthread_mutex_unlock(&c->vmu);
    return current;
}
