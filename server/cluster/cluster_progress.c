/* cluster_progress.c - the cluster thread's reading of an account's game
 * in progress from the database (saved once a second by the player's
 * host): what a watcher here of another host's game starts from, before
 * the keys streamed after it, and whether a host that let a game go has
 * flushed every key. It reads through the store's read API (store_db.h,
 * on a read-only connection of the thread's own), never SQL of its own,
 * so the store's schema has one reader and writer.
 * docs/hosting.md, "What the hosts share, and how". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_impl.h"
#include "log.h"
#include "record.h"
#include "store_db.h"

/* The cluster's own limits on its connection, as its listening one has
 * them (cluster.c, db_connect): a database that stops answering must not
 * hold the thread. Added to the URL's query unless the URL sets the key
 * itself. */
static const char *const limits[][2] = {
    { "connect_timeout", "2" },
    { "application_name", "rogued-cluster" },
    { "options", "-c%20statement_timeout%3D5000" },
    { "keepalives_idle", "5" },
    { "keepalives_interval", "2" },
    { "keepalives_count", "2" },
    { "tcp_user_timeout", "5000" },
};

/* The thread's read-only connection to the store, opened when first
 * needed and again after a failure; NULL if the database cannot be
 * reached now. */
static store_db_t *reader(cluster_t *c)
{
    if (c->reader)
        return c->reader;
    if (cluster_cut(c))
        return NULL; /* the stop gave the database up */
    char url[sizeof c->url + 512];
    size_t n = (size_t)snprintf(url, sizeof url, "%s", c->url);
    char sep = strchr(c->url, '?') ? '&' : '?';
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        char key[40];
        snprintf(key, sizeof key, "%s=", limits[i][0]);
        if (strstr(c->url, key) || n >= sizeof url)
            continue;
        n += (size_t)snprintf(url + n, sizeof url - n, "%c%s%s", sep, key,
                              limits[i][1]);
        sep = '&';
    }
    char err[300];
    c->reader = sdb_open_read(url, err, sizeof err);
    if (!c->reader)
        log_error("cluster: cannot read games in progress: %s", err);
    else if (cluster_sock_hold(c, CLUSTER_SOCK_READ, sdb_sock_fd(c->reader)))
        cluster_progress_close(c); /* made while the stop gave up */
    return c->reader;
}

/* A read failed (logged by the store): the connection is made again at
 * the next read. */
static void reader_failed(cluster_t *c)
{
    cluster_progress_close(c);
}

void cluster_progress_close(cluster_t *c)
{
    cluster_sock_release(c, CLUSTER_SOCK_READ);
    sdb_close(c->reader);
    c->reader = NULL;
}

int cluster_progress_bytes(cluster_t *c, int64_t account, uint64_t *seed,
                           int64_t *nbytes)
{
    store_db_t *db = reader(c);
    store_progress_t p;
    if (!db)
        return -1;
    int st = sdb_progress_head(db, account, &p);
    if (st == STORE_ERROR)
        reader_failed(c);
    if (st != STORE_OK)
        return st == STORE_ERROR ? -1 : 0;
    *seed = p.seed;
    *nbytes = (int64_t)p.len;
    return 1;
}

/* The latest snapshot of the account's game, if it falls within its first
 * nbytes key bytes and this core took it: then only the tail replays. */
static game_t *snapshot_within(store_db_t *db, int64_t account,
                               int64_t nbytes, sdb_snapshot_t *snap)
{
    if (sdb_progress_load_snapshot(db, account, snap) != 1)
        return NULL;
    if (snap->version != GAME_VERSION || snap->pos == 0 ||
        (int64_t)snap->pos > nbytes || snap->keys == 0 ||
        snap->game_len != GAME_STATE_BYTES)
        return NULL;
    return game_from_state(snap->game, snap->game_len); /* NULL on OOM */
}

/* The account's game in progress, if the database has game `seed` with at
 * least nbytes key bytes: its first nbytes, as a summary to rebuild.
 * Returns 1 (*out set), 0 (not there yet), -1 (never: why says). */
int cluster_load_game(cluster_t *c, int64_t account, uint64_t seed,
                      int64_t nbytes, msg_game_t **out, const char **why)
{
    *out = NULL;
    if (nbytes > RECORD_ENCODED_MAX) {
        *why = "That game is too long to watch.";
        return -1;
    }
    store_db_t *db = reader(c);
    if (!db)
        return 0;
    store_progress_t p;
    int st = sdb_progress_head(db, account, &p);
    if (st == STORE_ERROR)
        reader_failed(c);
    if (st != STORE_OK || p.seed != seed || (int64_t)p.len < nbytes)
        return 0;
    if (p.game_version != GAME_VERSION) {
        *why = "That game is played by another version of the server.";
        return -1;
    }
    void *bytes = NULL;
    st = sdb_progress_load(db, account, &p, &bytes);
    if (st == STORE_ERROR)
        reader_failed(c);
    if (st != STORE_OK || p.seed != seed || (int64_t)p.len < nbytes) {
        free(bytes);
        return 0;
    }
    buf_t keys = { 0 };
    keys.data = bytes;
    keys.len = (size_t)nbytes;
    keys.cap = keys.limit = p.len;
    sdb_snapshot_t snap;
    memset(&snap, 0, sizeof snap);
    game_t *g = c->reader ? snapshot_within(c->reader, account, nbytes, &snap)
                          : NULL;
    buf_t checks = { 0 };
    if (g) {
        checks.data = snap.checks;
        checks.len = checks.cap = checks.limit = snap.checks_len;
    }
    *out = msg_game_new(seed, &p.opt, p.started, &keys, &checks);
    free(bytes);
    if (g && *out) {
        (*out)->snap = g; /* the rebuild checks it fits */
        (*out)->snap_keys = snap.keys;
        (*out)->snap_pos = snap.pos;
    } else if (g) {
        game_free(g);
    }
    sdb_snapshot_free(&snap);
    if (!*out) {
        *why = "Out of memory: try again later.";
        return -1;
    }
    return 1;
}
