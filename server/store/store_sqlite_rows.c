/* store_sqlite_rows.c - the SQLite backend's statements (store_db.h's
 * calls): transactions, accounts, the hall of fame, games in progress and
 * their snapshots, finished games, SSH keys, and the decoding of their
 * rows. store_sqlite.c opens the file and prepares them. */
#include "store_sqlite_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The uint64 seed as SQLite's int64, bit for bit, without an
 * implementation-defined conversion. */
static sqlite3_int64 u64_bits(uint64_t v)
{
    return v <= INT64_MAX ? (sqlite3_int64)v
                          : -(sqlite3_int64)(UINT64_MAX - v) - 1;
}

/* Steps a statement to its end and resets it (bindings cleared). */
static int run(lite_t *d, enum stmt which)
{
    sqlite3_stmt *s = d->st[which];
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        d->last_rc = rc;
    return rc;
}

static int simple(lite_t *d, enum stmt which)
{
    int rc = run(d, which);
    if (rc == SQLITE_DONE)
        return 0;
    db_fail(d, "store: %s: %s: %s", d->path, lite_stmt_sql[which], sqlite3_errstr(rc));
    return -1;
}

int lite_begin(store_db_t *db)
{
    lite_t *d = (lite_t *)db;
    d->last_rc = 0; /* lite_errmsg tells this batch's failure, no older one */
    return simple(d, ST_BEGIN);
}

int lite_commit(store_db_t *db)
{
    lite_t *d = (lite_t *)db;
    return simple(d, ST_COMMIT);
}

int lite_rollback(store_db_t *db)
{
    lite_t *d = (lite_t *)db;
    /* A full disk or an I/O error at COMMIT has rolled the transaction back
     * already: a ROLLBACK then fails ("no transaction is active"), and its
     * reason would take the place of the one that failed the batch. */
    if (sqlite3_get_autocommit(d->db))
        return 0;
    int why = d->last_rc;
    int rc = simple(d, ST_ROLLBACK);
    if (why) /* the reason the batch failed stays the one told */
        d->last_rc = why;
    return rc;
}

int lite_sock_fd(store_db_t *db)
{
    (void)db;
    return -1;
}

int lite_in_transaction(store_db_t *db)
{
    lite_t *d = (lite_t *)db;
    return !sqlite3_get_autocommit(d->db);
}

int lite_insert_game(store_db_t *db, const store_game_t *g, const void *record,
                     size_t len)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_INS_GAME];
    sqlite3_bind_text(s, 1, g->name, -1, SQLITE_STATIC);
    if (g->account_id > 0)
        sqlite3_bind_int64(s, 2, g->account_id);
    sqlite3_bind_int(s, 3, g->ruleset);
    sqlite3_bind_int64(s, 4, u64_bits(g->seed));
    sqlite3_bind_int(s, 5, g->score);
    sqlite3_bind_int(s, 6, g->depth);
    sqlite3_bind_int(s, 7, g->turns);
    sqlite3_bind_int(s, 8, g->kills);
    sqlite3_bind_text(s, 9, g->cause, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 10, g->started);
    sqlite3_bind_int64(s, 11, g->ended);
    if (record)
        sqlite3_bind_blob64(s, 12, record, len, SQLITE_STATIC);
    sqlite3_bind_int(s, 13, store_game_ending(g));
    sqlite3_bind_int(s, 14, store_game_ranked(g));
    if (g->token)
        sqlite3_bind_int64(s, 15, u64_bits(g->token));
    int rc = run(d, ST_INS_GAME);
    if (rc == SQLITE_DONE) /* (no change: ON CONFLICT, its token is in) */
        return sqlite3_changes(d->db) == 0;
    db_fail(d, "store: %s: a game of %s not written: %s", d->path, g->name,
              sqlite3_errstr(rc));
    return -1;
}

int lite_insert_account(store_db_t *db, const char *name, const char *hash,
                        int64_t now, int64_t *id)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_INS_ACCT];
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 3, now);
    int rc = run(d, ST_INS_ACCT);
    if (rc == SQLITE_DONE) {
        *id = sqlite3_last_insert_rowid(d->db);
        return STORE_OK;
    }
    if (rc == SQLITE_CONSTRAINT_UNIQUE)
        return STORE_NAME_TAKEN;
    db_fail(d, "store: %s: account %s not created: %s", d->path, name,
              sqlite3_errstr(rc));
    return STORE_ERROR;
}

int lite_set_password_hash(store_db_t *db, int64_t id, const char *hash)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_SET_PWHASH];
    sqlite3_bind_text(s, 1, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 2, id);
    int rc = run(d, ST_SET_PWHASH);
    if (rc == SQLITE_DONE)
        return sqlite3_changes(d->db) == 1 ? STORE_OK : STORE_NOT_FOUND;
    db_fail(d, "store: %s: the password of account %lld not changed: %s",
            d->path, (long long)id, sqlite3_errstr(rc));
    return STORE_ERROR;
}

static void copy_text(char *out, size_t outlen, const unsigned char *text)
{
    snprintf(out, outlen, "%s", text ? (const char *)text : "");
}

int lite_find_account(store_db_t *db, const char *name, int64_t *id,
                      char *name_out, char *hash_out, size_t hashlen)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_FIND_ACCT];
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s), found = 0;
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(s, 0);
        copy_text(name_out, ACCT_NAME_MAX + 1, sqlite3_column_text(s, 1));
        copy_text(hash_out, hashlen, sqlite3_column_text(s, 2));
        found = 1;
    } else if (rc != SQLITE_DONE) {
        db_fail(d, "store: %s: account lookup: %s", d->path, sqlite3_errstr(rc));
        found = -1;
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return found;
}

int lite_account_exists(store_db_t *db, const char *name)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_ACCT_EXISTS];
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    int rc = run(d, ST_ACCT_EXISTS);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return rc == SQLITE_ROW;
    db_fail(d, "store: %s: account name check: %s", d->path, sqlite3_errstr(rc));
    return -1;
}

int lite_account_display(store_db_t *db, int64_t id, int *display)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_GET_DISPLAY];
    sqlite3_bind_int64(s, 1, id);
    int rc = sqlite3_step(s);
    *display = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return 0;
    d->last_rc = rc;
    db_fail(d, "store: %s: the display of account %lld: %s", d->path,
            (long long)id, sqlite3_errstr(rc));
    return -1;
}

int lite_set_account_display(store_db_t *db, int64_t id, int display)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_SET_DISPLAY];
    sqlite3_bind_int(s, 1, display);
    sqlite3_bind_int64(s, 2, id);
    int rc = run(d, ST_SET_DISPLAY);
    if (rc == SQLITE_DONE)
        return sqlite3_changes(d->db) == 1 ? STORE_OK : STORE_NOT_FOUND;
    db_fail(d, "store: %s: the display of account %lld not kept: %s",
            d->path, (long long)id, sqlite3_errstr(rc));
    return STORE_ERROR;
}

static void read_score(sqlite3_stmt *s, store_score_t *r)
{
    r->game_id = sqlite3_column_int64(s, 0);
    copy_text(r->name, sizeof r->name, sqlite3_column_text(s, 1));
    r->score = sqlite3_column_int(s, 2);
    r->depth = sqlite3_column_int(s, 3);
    r->turns = sqlite3_column_int(s, 4);
    r->kills = sqlite3_column_int(s, 5);
    r->ruleset = sqlite3_column_int(s, 6);
    copy_text(r->cause, sizeof r->cause, sqlite3_column_text(s, 7));
    r->ended = sqlite3_column_int64(s, 8);
    r->ending = sqlite3_column_int(s, 9);
}

/* Steps a row-returning statement once: 1 a row, 0 done, -1 an error. */
static int step_row(sqlite3_stmt *s, int *failed)
{
    int rc = sqlite3_step(s);
    /* (the failure is the caller's to log: it knows what was read) */
    if (rc == SQLITE_ROW)
        return 1;
    if (rc != SQLITE_DONE)
        *failed = rc;
    return 0;
}

int lite_scores(store_db_t *db, int n, const char *player, store_scores_t *out)
{
    lite_t *d = (lite_t *)db;
    int failed = 0;
    memset(out, 0, sizeof *out);
    if (n > STORE_TOP_MAX)
        n = STORE_TOP_MAX;
    sqlite3_stmt *s = d->st[ST_TOP];
    sqlite3_bind_int(s, 1, n);
    while (out->n < n && step_row(s, &failed))
        read_score(s, &out->top[out->n++]);
    sqlite3_reset(s);
    if (player && !failed) {
        s = d->st[ST_BEST];
        sqlite3_bind_text(s, 1, player, -1, SQLITE_STATIC);
        if (step_row(s, &failed)) {
            read_score(s, &out->best);
            out->has_best = 1;
        }
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
    }
    if (out->has_best && !failed) {
        s = d->st[ST_RANK];
        sqlite3_bind_int(s, 1, out->best.score);
        sqlite3_bind_int64(s, 2, out->best.ended);
        sqlite3_bind_int64(s, 3, out->best.game_id);
        if (step_row(s, &failed))
            out->best_rank = sqlite3_column_int64(s, 0) + 1;
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
    }
    if (failed) {
        db_fail(d, "store: %s: hall of fame: %s", d->path, sqlite3_errstr(failed));
        memset(out, 0, sizeof *out);
        out->status = STORE_ERROR;
        return -1;
    }
    out->status = STORE_OK;
    return 0;
}

int lite_recent(store_db_t *db, int64_t after, int n, store_recent_t *out)
{
    lite_t *d = (lite_t *)db;
    int failed = 0;
    memset(out, 0, sizeof *out);
    if (n > STORE_RECENT_MAX)
        n = STORE_RECENT_MAX;
    sqlite3_stmt *s = d->st[ST_RECENT];
    sqlite3_bind_int64(s, 1, after);
    sqlite3_bind_int(s, 2, n);
    while (out->n < n && step_row(s, &failed))
        read_score(s, &out->games[out->n++]);
    sqlite3_reset(s);
    if (failed) {
        db_fail(d, "store: %s: recent games: %s", d->path,
                sqlite3_errstr(failed));
        memset(out, 0, sizeof *out);
        out->status = STORE_ERROR;
        return -1;
    }
    out->status = STORE_OK;
    return 0;
}

/* --- games in progress ------------------------------------------------------ */

static int bind_run(lite_t *d, enum stmt which, int64_t id, const char *what)
{
    sqlite3_bind_int64(d->st[which], 1, id);
    int rc = run(d, which);
    if (rc == SQLITE_DONE)
        return 0;
    db_fail(d, "store: %s: account %lld: %s: %s", d->path, (long long)id, what,
              sqlite3_errstr(rc));
    return -1;
}

/* SDB_CLAIMED if a claim later than `claim` holds the account's game, -1
 * if that cannot be read, else 0: the write goes on. */
static int claimed(lite_t *d, int64_t account_id, int64_t claim)
{
    int newer = lite_claim_newer(d, account_id, claim);
    return newer < 0 ? -1 : newer ? SDB_CLAIMED : 0;
}

int lite_progress_end(store_db_t *db, int64_t account_id, int64_t claim,
                      const sdb_which_t *which)
{
    lite_t *d = (lite_t *)db;
    int c = claimed(d, account_id, claim);
    if (c != 0)
        return c;
    sqlite3_stmt *s = d->st[ST_PROG_DEL];
    sqlite3_bind_int(s, 2, which != NULL);
    sqlite3_bind_int64(s, 3, which ? u64_bits(which->seed) : 0);
    sqlite3_bind_int64(s, 4, which ? which->started : 0);
    if (bind_run(d, ST_PROG_DEL, account_id, "progress not dropped") != 0)
        return -1;
    return bind_run(d, ST_PROG_DEL_KEYS, account_id,
                    "progress keys not dropped");
}

int lite_progress_begin(store_db_t *db, int64_t account_id, int64_t claim,
                        uint32_t version, uint64_t seed,
                        const game_options_t *opt, int64_t started)
{
    lite_t *d = (lite_t *)db;
    int c = lite_progress_end(&d->base, account_id, claim, NULL);
    if (c != 0)
        return c; /* (SDB_CLAIMED: the later claim's game stays) */
    sqlite3_stmt *s = d->st[ST_PROG_INS];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_int64(s, 2, version);
    sqlite3_bind_int64(s, 3, u64_bits(seed));
    sqlite3_bind_int(s, 4, opt->ruleset);
    sqlite3_bind_int64(s, 5, started);
    sqlite3_bind_int64(s, 6, claim);
    int rc = run(d, ST_PROG_INS);
    if (rc == SQLITE_DONE)
        return 0;
    db_fail(d, "store: %s: account %lld: game in progress not begun: %s",
              d->path, (long long)account_id, sqlite3_errstr(rc));
    return -1;
}

int lite_progress_append(store_db_t *db, int64_t account_id, int64_t claim,
                         const void *keys, size_t len)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_PROG_APPEND];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_blob64(s, 2, keys, len, SQLITE_STATIC);
    sqlite3_bind_int64(s, 3, claim);
    int rc = run(d, ST_PROG_APPEND);
    if (rc != SQLITE_DONE) {
        db_fail(d, "store: %s: account %lld: keys not appended: %s", d->path,
                  (long long)account_id, sqlite3_errstr(rc));
        return -1;
    }
    /* nothing written: no game in progress, or a later claim's (asked
     * only then: an append, every player's once a second, reads no
     * claim of its own) */
    if (sqlite3_changes(d->db) == 0)
        return claimed(d, account_id, claim);
    s = d->st[ST_PROG_GROW];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_int64(s, 2, (sqlite3_int64)len);
    rc = run(d, ST_PROG_GROW);
    if (rc == SQLITE_DONE)
        return 1;
    db_fail(d, "store: %s: account %lld: keys not appended: %s", d->path,
              (long long)account_id, sqlite3_errstr(rc));
    return -1;
}

int lite_progress_head(store_db_t *db, int64_t account_id,
                       store_progress_t *out)
{
    lite_t *d = (lite_t *)db;
    int failed = 0;
    memset(out, 0, sizeof *out);
    out->account_id = account_id;
    out->status = STORE_NOT_FOUND;
    sqlite3_stmt *s = d->st[ST_PROG_GET];
    sqlite3_bind_int64(s, 1, account_id);
    if (step_row(s, &failed)) {
        out->game_version = (uint32_t)sqlite3_column_int64(s, 0);
        out->seed = (uint64_t)sqlite3_column_int64(s, 1);
        out->opt.ruleset = sqlite3_column_int(s, 2);
        out->started = sqlite3_column_int64(s, 3);
        out->len = (size_t)sqlite3_column_int64(s, 4);
        out->status = STORE_OK;
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        db_fail(d, "store: %s: account %lld: game in progress not read: %s",
                d->path, (long long)account_id, sqlite3_errstr(failed));
        memset(out, 0, sizeof *out);
        out->account_id = account_id;
        out->status = STORE_ERROR;
    }
    return out->status;
}

int lite_progress_load(store_db_t *db, int64_t account_id, store_progress_t *out,
                       void **keys)
{
    lite_t *d = (lite_t *)db;
    int failed = 0;
    *keys = NULL;
    if (lite_progress_head(db, account_id, out) == STORE_ERROR)
        return STORE_ERROR;
    long long want = (long long)out->len;
    out->len = 0;
    sqlite3_stmt *s;
    buf_t b;
    buf_init(&b, RECORD_ENCODED_MAX);
    if (out->status == STORE_OK && !failed) {
        s = d->st[ST_PROG_KEYS];
        sqlite3_bind_int64(s, 1, account_id);
        /* a prefix that follows on, within the cap: what appends made */
        while (step_row(s, &failed)) {
            const void *p = sqlite3_column_blob(s, 1);
            int n = sqlite3_column_bytes(s, 1);
            if (sqlite3_column_int64(s, 0) != (sqlite3_int64)b.len ||
                (n > 0 && buf_append(&b, p, (size_t)n) != 0))
                break;
        }
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
        if (!failed && (long long)b.len != want)
            db_fail(d, "store: %s: account %lld: game in progress has %zu of "
                      "%lld key bytes", d->path, (long long)account_id, b.len,
                      want);
    }
    if (failed) {
        db_fail(d, "store: %s: account %lld: game in progress not read: %s",
                  d->path, (long long)account_id, sqlite3_errstr(failed));
        buf_free(&b);
        memset(out, 0, sizeof *out);
        out->account_id = account_id;
        out->status = STORE_ERROR;
        return STORE_ERROR;
    }
    *keys = b.data; /* NULL if no byte */
    out->len = b.len;
    return out->status;
}

/* --- snapshots of games in progress ------------------------------------------- */

int lite_progress_snapshot(store_db_t *db, int64_t account_id,
                           int64_t claim, const sdb_snapshot_t *snap)
{
    lite_t *d = (lite_t *)db;
    int c = claimed(d, account_id, claim);
    if (c != 0)
        return c;
    sqlite3_stmt *s = d->st[ST_SNAP_SET];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_int64(s, 2, snap->version);
    sqlite3_bind_int64(s, 3, snap->keys);
    sqlite3_bind_int64(s, 4, (sqlite3_int64)snap->pos);
    sqlite3_bind_blob64(s, 5, snap->game, snap->game_len, SQLITE_STATIC);
    sqlite3_bind_blob64(s, 6, snap->checks, snap->checks_len, SQLITE_STATIC);
    int rc = run(d, ST_SNAP_SET);
    if (rc != SQLITE_DONE) {
        db_fail(d, "store: %s: account %lld: snapshot not saved: %s", d->path,
                (long long)account_id, sqlite3_errstr(rc));
        return -1;
    }
    return sqlite3_changes(d->db) > 0;
}

/* A malloc'd copy of a blob column (NULL for none or no byte). */
static int column_copy(sqlite3_stmt *s, int col, void **out, size_t *len)
{
    const void *p = sqlite3_column_blob(s, col);
    int n = sqlite3_column_bytes(s, col);
    *out = NULL;
    *len = 0;
    if (!p || n <= 0)
        return 0;
    if (!(*out = malloc((size_t)n)))
        return -1;
    memcpy(*out, p, (size_t)n);
    *len = (size_t)n;
    return 0;
}

int lite_progress_load_snapshot(store_db_t *db, int64_t account_id,
                                sdb_snapshot_t *out)
{
    lite_t *d = (lite_t *)db;
    int failed = 0, found = 0;
    memset(out, 0, sizeof *out);
    sqlite3_stmt *s = d->st[ST_SNAP_GET];
    sqlite3_bind_int64(s, 1, account_id);
    if (step_row(s, &failed)) {
        sqlite3_int64 keys = sqlite3_column_int64(s, 1);
        sqlite3_int64 pos = sqlite3_column_int64(s, 2);
        out->version = (uint32_t)sqlite3_column_int64(s, 0);
        out->keys = keys >= 0 && keys <= UINT32_MAX ? (uint32_t)keys : 0;
        out->pos = pos >= 0 ? (size_t)pos : 0;
        if (column_copy(s, 3, &out->game, &out->game_len) != 0 ||
            column_copy(s, 4, &out->checks, &out->checks_len) != 0)
            failed = SQLITE_NOMEM;
        found = out->game != NULL;
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        db_fail(d, "store: %s: account %lld: snapshot not read: %s", d->path,
                (long long)account_id, sqlite3_errstr(failed));
        sdb_snapshot_free(out);
        return -1;
    }
    if (!found) /* (an empty game is none, whatever the other columns say) */
        sdb_snapshot_free(out);
    return found;
}

/* --- finished games by id --------------------------------------------------- */

/* A finished game's columns from `first` on, in the order ST_GET_GAME and
 * ST_LIST both select them: player, account_id, ruleset, seed, score,
 * depth, turns, kills, cause, started, ended. */
static void read_game(sqlite3_stmt *s, int first, store_game_t *g)
{
    copy_text(g->name, sizeof g->name, sqlite3_column_text(s, first));
    g->account_id = sqlite3_column_int64(s, first + 1); /* NULL reads 0 */
    g->ruleset = sqlite3_column_int(s, first + 2);
    g->seed = (uint64_t)sqlite3_column_int64(s, first + 3);
    g->score = sqlite3_column_int(s, first + 4);
    g->depth = sqlite3_column_int(s, first + 5);
    g->turns = sqlite3_column_int(s, first + 6);
    g->kills = sqlite3_column_int(s, first + 7);
    copy_text(g->cause, sizeof g->cause, sqlite3_column_text(s, first + 8));
    g->started = sqlite3_column_int64(s, first + 9);
    g->ended = sqlite3_column_int64(s, first + 10);
}

int lite_get_record(store_db_t *db, int64_t game_id, store_game_t *g,
                    void **record, size_t *len)
{
    lite_t *d = (lite_t *)db;
    int failed = 0, status = STORE_NOT_FOUND;
    memset(g, 0, sizeof *g);
    *record = NULL;
    *len = 0;
    sqlite3_stmt *s = d->st[ST_GET_GAME];
    sqlite3_bind_int64(s, 1, game_id);
    if (step_row(s, &failed)) {
        read_game(s, 0, g);
        g->ending = sqlite3_column_int(s, 12);
        const void *p = sqlite3_column_blob(s, 11);
        int n = sqlite3_column_bytes(s, 11);
        status = STORE_NO_RECORD;
        if (sqlite3_column_type(s, 11) == SQLITE_BLOB && n > 0) {
            *record = malloc((size_t)n);
            if (*record) {
                memcpy(*record, p, (size_t)n);
                *len = (size_t)n;
                status = STORE_OK;
            } else {
                status = STORE_ERROR;
            }
        }
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        db_fail(d, "store: %s: game %lld not read: %s", d->path,
                  (long long)game_id, sqlite3_errstr(failed));
        memset(g, 0, sizeof *g);
        return STORE_ERROR;
    }
    return status;
}

/* --- listing and retention -------------------------------------------------- */

int lite_list_games(store_db_t *db, int64_t after, int n, store_listed_t *out)
{
    lite_t *d = (lite_t *)db;
    int failed = 0, got = 0;
    sqlite3_stmt *s = d->st[ST_LIST];
    sqlite3_bind_int64(s, 1, after);
    sqlite3_bind_int(s, 2, n);
    while (got < n && step_row(s, &failed)) {
        store_listed_t *l = &out[got++];
        store_game_t *g = &l->game;
        memset(l, 0, sizeof *l);
        l->game_id = sqlite3_column_int64(s, 0);
        read_game(s, 1, g);
        g->ending = sqlite3_column_int(s, 12);
        l->has_record = sqlite3_column_int(s, 13);
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        db_fail(d, "store: %s: games not listed: %s", d->path,
                sqlite3_errstr(failed));
        return -1;
    }
    return got;
}

long long lite_prune_guests(store_db_t *db, int64_t before, int keep_top)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_PRUNE];
    sqlite3_bind_int64(s, 1, before);
    sqlite3_bind_int(s, 2, keep_top);
    int rc = run(d, ST_PRUNE);
    if (rc != SQLITE_DONE) {
        db_fail(d, "store: %s: old guests' games not removed: %s", d->path,
                sqlite3_errstr(rc));
        return -1;
    }
    return sqlite3_changes(d->db);
}

/* --- SSH public keys ----------------------------------------------------------- */

int lite_key_add(store_db_t *db, int64_t account_id, const char *fingerprint,
                 const char *key, int64_t now, int max)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_KEY_COUNT];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_text(s, 2, fingerprint, -1, SQLITE_STATIC);
    int failed = 0;
    long long n = 0, same = 0;
    if (step_row(s, &failed)) {
        n = sqlite3_column_int64(s, 0);
        same = sqlite3_column_int64(s, 1);
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        d->last_rc = failed;
        db_fail(d, "store: %s: keys of account %lld not counted: %s", d->path,
                (long long)account_id, sqlite3_errstr(failed));
        return STORE_ERROR;
    }
    if (same)
        return STORE_DUPLICATE;
    if (n >= max)
        return STORE_FULL;
    s = d->st[ST_KEY_INS];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_text(s, 2, fingerprint, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, now);
    int rc = run(d, ST_KEY_INS);
    if (rc == SQLITE_DONE)
        return STORE_OK;
    if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
        return STORE_NOT_FOUND; /* (only this statement is undone) */
    if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
        return STORE_DUPLICATE;
    db_fail(d, "store: %s: a key of account %lld not added: %s", d->path,
            (long long)account_id, sqlite3_errstr(rc));
    return STORE_ERROR;
}

int lite_key_remove(store_db_t *db, int64_t account_id, const char *fingerprint)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_KEY_DEL];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_text(s, 2, fingerprint, -1, SQLITE_STATIC);
    int rc = run(d, ST_KEY_DEL);
    if (rc == SQLITE_DONE)
        return sqlite3_changes(d->db) > 0 ? STORE_OK : STORE_NOT_FOUND;
    db_fail(d, "store: %s: a key of account %lld not removed: %s", d->path,
            (long long)account_id, sqlite3_errstr(rc));
    return STORE_ERROR;
}

int lite_keys_list(store_db_t *db, int64_t account_id, store_keys_t *out)
{
    lite_t *d = (lite_t *)db;
    int failed = 0;
    sqlite3_stmt *s = d->st[ST_KEY_LIST];
    out->n = 0;
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_int(s, 2, STORE_KEYS_MAX);
    while (out->n < STORE_KEYS_MAX && step_row(s, &failed)) {
        store_key_t *k = &out->keys[out->n++];
        copy_text(k->fingerprint, sizeof k->fingerprint,
                  sqlite3_column_text(s, 0));
        copy_text(k->type, sizeof k->type, sqlite3_column_text(s, 1));
        k->added = sqlite3_column_int64(s, 2);
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        d->last_rc = failed;
        out->n = 0;
        db_fail(d, "store: %s: keys of account %lld not read: %s", d->path,
                (long long)account_id, sqlite3_errstr(failed));
        return -1;
    }
    return 0;
}

int lite_key_find(store_db_t *db, const char *name, const char *fingerprint,
                  int64_t *id, char *name_out, char *key_out, size_t keylen)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_KEY_FIND];
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, fingerprint, -1, SQLITE_STATIC);
    int failed = 0, found = step_row(s, &failed);
    if (found) {
        *id = sqlite3_column_int64(s, 0);
        copy_text(name_out, ACCT_NAME_MAX + 1, sqlite3_column_text(s, 1));
        if (key_out)
            copy_text(key_out, keylen, sqlite3_column_text(s, 2));
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        d->last_rc = failed;
        db_fail(d, "store: %s: key lookup: %s", d->path, sqlite3_errstr(failed));
        return -1;
    }
    return found;
}

/* SQLite runs each write at once: nothing is ever left unfollowed. */
size_t lite_unfollowed(store_db_t *db, const store_unfollowed_t **out)
{
    (void)db;
    *out = NULL;
    return 0;
}

/* --- bans --------------------------------------------------------------------- */

int lite_ban_put(store_db_t *db, const store_ban_t *b)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s = d->st[ST_BAN_PUT];
    sqlite3_bind_text(s, 1, b->target, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 2, b->until_ms);
    sqlite3_bind_int64(s, 3, b->made_ms);
    return simple(d, ST_BAN_PUT);
}

int lite_ban_remove(store_db_t *db, const char *target)
{
    lite_t *d = (lite_t *)db;
    sqlite3_bind_text(d->st[ST_BAN_DEL], 1, target, -1, SQLITE_STATIC);
    int rc = run(d, ST_BAN_DEL);
    if (rc == SQLITE_DONE)
        return sqlite3_changes(d->db) > 0 ? STORE_OK : STORE_NOT_FOUND;
    db_fail(d, "store: %s: the ban of %s not removed: %s", d->path, target,
            sqlite3_errstr(rc));
    return STORE_ERROR;
}

int lite_bans_read(store_db_t *db, store_ban_t *out, int max)
{
    lite_t *d = (lite_t *)db;
    int failed = 0, n = 0;
    sqlite3_stmt *s = d->st[ST_BAN_LIST];
    sqlite3_bind_int(s, 1, max);
    while (n < max && step_row(s, &failed)) {
        store_ban_t *b = &out[n++];
        copy_text(b->target, sizeof b->target, sqlite3_column_text(s, 0));
        b->until_ms = sqlite3_column_int64(s, 1);
        b->made_ms = sqlite3_column_int64(s, 2);
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        d->last_rc = failed;
        db_fail(d, "store: %s: bans not read: %s", d->path,
                sqlite3_errstr(failed));
        return -1;
    }
    return n;
}
