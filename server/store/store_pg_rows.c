/* store_pg_rows.c - the PostgreSQL backend's statements (store_db.h's
 * calls): accounts, the hall of fame, games in progress and their
 * snapshots, finished games, guests, SSH keys, and the decoding of their
 * rows. store_pg.c holds the connection, the pipeline and the
 * transactions they run in. */
#include "store_pg_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- statements ----------------------------------------------------------------- */

int spg_insert_game(store_db_t *db, const store_game_t *g, const void *record,
                    size_t len)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_text(&p, g->name);
    if (g->account_id > 0)
        p_ll(&p, g->account_id);
    else
        p_null(&p);
    p_ll(&p, g->ruleset);
    p_ll(&p, u64_bits(g->seed));
    p_ll(&p, g->score);
    p_ll(&p, g->depth);
    p_ll(&p, g->turns);
    p_ll(&p, g->kills);
    p_text(&p, g->cause);
    p_ll(&p, g->started);
    p_ll(&p, g->ended);
    if (record)
        p_blob(&p, record, len);
    else
        p_null(&p);
    p_ll(&p, store_game_ending(g));
    p_ll(&p, store_game_ranked(g));
    if (g->token)
        p_ll(&p, u64_bits(g->token));
    else
        p_null(&p);
    /* ($1..$15 of ST_INS_GAME: one more column and it must still fit) */
    _Static_assert(15 <= SPG_PARAMS_MAX, "a game's insert fits params_t");
    char what[96];
    snprintf(what, sizeof what, "a game of %s not written", g->name);
    uint64_t was = d->games_in;
    if (write_later(d, ST_INS_GAME, &p, K_GAME, 0, what) != 0)
        return -1;
    /* (run at once, outside a transaction: its answer is known now) */
    return !d->piped && d->games_in > was;
}

int spg_insert_account(store_db_t *db, const char *name, const char *hash,
                       int64_t now, int64_t *id)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_text(&p, name);
    p_text(&p, hash);
    p_ll(&p, now);
    char what[64];
    snprintf(what, sizeof what, "account %s not created", name);
    PGresult *r = read_now(d, ST_INS_ACCT, &p, what);
    if (!r)
        return STORE_ERROR;
    int status = PQntuples(r) == 1 ? STORE_OK : STORE_NAME_TAKEN;
    if (status == STORE_OK)
        *id = col_ll(r, 0, 0);
    PQclear(r);
    return status;
}

int spg_set_password_hash(store_db_t *db, int64_t id, const char *hash)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_text(&p, hash);
    p_ll(&p, id);
    char what[80];
    snprintf(what, sizeof what, "the password of account %lld not changed",
             (long long)id);
    long long n = change_now(d, ST_SET_PWHASH, &p, what);
    return n < 0 ? STORE_ERROR : n == 1 ? STORE_OK : STORE_NOT_FOUND;
}

int spg_find_account(store_db_t *db, const char *name, int64_t *id,
                     char *name_out, char *hash_out, size_t hashlen)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_text(&p, name);
    PGresult *r = read_now(d, ST_FIND_ACCT, &p, "account lookup");
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found) {
        *id = col_ll(r, 0, 0);
        col_text(name_out, ACCT_NAME_MAX + 1, r, 0, 1);
        col_text(hash_out, hashlen, r, 0, 2);
    }
    PQclear(r);
    return found;
}

int spg_account_exists(store_db_t *db, const char *name)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_text(&p, name);
    PGresult *r = read_now(d, ST_ACCT_EXISTS, &p, "account name check");
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    PQclear(r);
    return found;
}

int spg_account_display(store_db_t *db, int64_t id, int *display)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_ll(&p, id);
    PGresult *r = read_now(d, ST_GET_DISPLAY, &p, "the display of an account");
    if (!r)
        return -1;
    *display = PQntuples(r) > 0 ? (int)col_ll(r, 0, 0) : 0;
    PQclear(r);
    return 0;
}

int spg_set_account_display(store_db_t *db, int64_t id, int display)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_ll(&p, display);
    p_ll(&p, id);
    char what[80];
    snprintf(what, sizeof what, "the display of account %lld not kept",
             (long long)id);
    long long n = change_now(d, ST_SET_DISPLAY, &p, what);
    return n < 0 ? STORE_ERROR : n == 1 ? STORE_OK : STORE_NOT_FOUND;
}

static void read_score(const PGresult *r, int row, store_score_t *s)
{
    s->game_id = col_ll(r, row, 0);
    col_text(s->name, sizeof s->name, r, row, 1);
    s->score = (int)col_ll(r, row, 2);
    s->depth = (int)col_ll(r, row, 3);
    s->turns = (int)col_ll(r, row, 4);
    s->kills = (int)col_ll(r, row, 5);
    s->ruleset = (int)col_ll(r, row, 6);
    col_text(s->cause, sizeof s->cause, r, row, 7);
    s->ended = col_ll(r, row, 8);
    s->ending = (int)col_ll(r, row, 9);
}

int spg_scores(store_db_t *db, int n, const char *player, store_scores_t *out)
{
    spg_t *d = (spg_t *)db;
    memset(out, 0, sizeof *out);
    if (n > STORE_TOP_MAX)
        n = STORE_TOP_MAX;
    params_t p = { 0 };
    p_ll(&p, n);
    PGresult *r = read_now(d, ST_TOP, &p, "hall of fame");
    int failed = !r;
    for (int i = 0; r && i < PQntuples(r) && out->n < n; i++)
        read_score(r, i, &out->top[out->n++]);
    PQclear(r);
    if (player && !failed) {
        params_t q = { 0 };
        p_text(&q, player);
        r = read_now(d, ST_BEST, &q, "hall of fame");
        failed = !r;
        if (r && PQntuples(r) > 0) {
            read_score(r, 0, &out->best);
            out->has_best = 1;
        }
        PQclear(r);
    }
    if (out->has_best && !failed) {
        params_t q = { 0 };
        p_ll(&q, out->best.score);
        p_ll(&q, out->best.ended);
        p_ll(&q, out->best.game_id);
        r = read_now(d, ST_RANK, &q, "hall of fame");
        failed = !r;
        if (r && PQntuples(r) > 0)
            out->best_rank = col_ll(r, 0, 0) + 1;
        PQclear(r);
    }
    if (failed) {
        memset(out, 0, sizeof *out);
        out->status = STORE_ERROR;
        return -1;
    }
    out->status = STORE_OK;
    return 0;
}

int spg_recent(store_db_t *db, int64_t after, int n, store_recent_t *out)
{
    spg_t *d = (spg_t *)db;
    memset(out, 0, sizeof *out);
    if (n > STORE_RECENT_MAX)
        n = STORE_RECENT_MAX;
    params_t p = { 0 };
    p_ll(&p, after);
    p_ll(&p, n);
    PGresult *r = read_now(d, ST_RECENT, &p, "recent games");
    if (!r) {
        out->status = STORE_ERROR;
        return -1;
    }
    for (int i = 0; i < PQntuples(r) && out->n < n; i++)
        read_score(r, i, &out->games[out->n++]);
    PQclear(r);
    out->status = STORE_OK;
    return 0;
}

/* --- games in progress ------------------------------------------------------ */

/* Drops the account's game (unless a later claim holds it), then the keys
 * of no game. kind: how the drop's answer is noted (K_END tells a refusal;
 * a begin's is told by its insert). Returns 0 (sent, or done now),
 * SDB_CLAIMED (run now: refused), or -1. */
static int drop_game(spg_t *d, int64_t account_id, int64_t claim,
                     const sdb_which_t *which, int kind)
{
    params_t p = { 0 };
    p_ll(&p, account_id);
    p_ll(&p, claim);
    p_ll(&p, which != NULL);
    p_ll(&p, which ? u64_bits(which->seed) : 0);
    p_ll(&p, which ? which->started : 0);
    char what[80];
    snprintf(what, sizeof what, "account %lld: progress not dropped",
             (long long)account_id);
    int rc = write_claimed(d, ST_PROG_DEL, &p, kind, account_id, claim,
                           what);
    if (rc < 0 || rc == SDB_CLAIMED)
        return rc;
    params_t k = { 0 };
    p_ll(&k, account_id);
    return write_later(d, ST_PROG_DEL_KEYS, &k, K_PLAIN, account_id, what);
}

int spg_progress_end(store_db_t *db, int64_t account_id, int64_t claim,
                     const sdb_which_t *which)
{
    return drop_game((spg_t *)db, account_id, claim, which, K_END);
}

/* One try at the claim (store_pg_schema.c, ST_CLAIM); what: its failure's
 * words. Returns 0 with *claim, or -1. */
static int claim_once(spg_t *d, int64_t account_id, const char *what,
                      int64_t *claim)
{
    params_t p = { 0 };
    p_ll(&p, account_id);
    PGresult *r = read_now(d, ST_CLAIM, &p, what);
    if (!r)
        return -1;
    *claim = PQntuples(r) == 1 ? col_ll(r, 0, 0) : 0;
    PQclear(r);
    if (*claim <= 0)
        return -1;
    /* the account, then a game begun meanwhile: sent together, so that
     * the game's row is claimed as soon as the account's lock is had
     * (store_pg_schema.c, ST_CLAIM) */
    p_ll(&p, *claim);
    if (write_later(d, ST_CLAIM_ACCT, &p, K_PLAIN, account_id, what) != 0 ||
        change_now(d, ST_CLAIM_GAME, &p, what) < 0)
        return -1;
    return 0;
}

/* The claim waits on the game's row, then the account's, in the order a
 * batch takes them, so that it and one other host's batch never wait on
 * each other in a circle. Three hosts on the account at the same instant
 * still can close one (a batch whose begin locked the account, the game's
 * row then committed by a third host's begin and claimed meanwhile, its
 * next write of it waiting on the claim), and PostgreSQL ends one
 * transaction of the circle as a deadlock.
 * When that is the claim's transaction and the claim is the first thing
 * in it (a load is a batch alone), the claim is taken again in a new
 * transaction, as if the login had come a moment later: nothing else was
 * in the one rolled back. That time it waits for the account first (the
 * circle was the claim holding the game's row while the account's holder
 * asked for it): had it taken the row again first, it could win the row
 * back from that holder and close the same circle again. (Ended so again,
 * or not first in its transaction, it fails the batch, which the store
 * runs again whole: sdb_retryable.) */
int spg_progress_claim(store_db_t *db, int64_t account_id, int64_t *claim)
{
    spg_t *d = (spg_t *)db;
    int again = d->piped && d->tx_stmts == 0;
    char what[80];
    snprintf(what, sizeof what, "account %lld: no claim on its game in "
             "progress", (long long)account_id);
    int rc = claim_once(d, account_id, what, claim);
    if (rc == 0 || !again || !d->deadlock)
        return rc;
    log_info("store: %s: account %lld: its claim was ended as a deadlock; "
             "taken again", d->name, (long long)account_id);
    spg_rollback(db);
    if (spg_begin(db) != 0)
        return -1;
    params_t p = { 0 };
    p_ll(&p, account_id);
    if (write_later(d, ST_CLAIM_LOCK, &p, K_PLAIN, account_id, what) != 0)
        return -1;
    return claim_once(d, account_id, what, claim);
}

int spg_progress_begin(store_db_t *db, int64_t account_id, int64_t claim,
                       uint32_t version, uint64_t seed,
                       const game_options_t *opt, int64_t started)
{
    spg_t *d = (spg_t *)db;
    int rc = drop_game(d, account_id, claim, NULL, K_PLAIN);
    if (rc != 0)
        return rc;
    params_t p = { 0 };
    p_ll(&p, account_id);
    p_ll(&p, claim);
    p_ll(&p, version);
    p_ll(&p, u64_bits(seed));
    p_ll(&p, opt->ruleset);
    p_ll(&p, started);
    char what[80];
    snprintf(what, sizeof what, "account %lld: game in progress not begun",
             (long long)account_id);
    rc = write_claimed(d, ST_PROG_INS, &p, K_BEGIN, account_id, claim, what);
    return rc == 1 ? 0 : rc; /* (0 run now: no account, as when sent) */
}

int spg_progress_append(store_db_t *db, int64_t account_id, int64_t claim,
                        const void *keys, size_t len)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_ll(&p, account_id);
    p_ll(&p, claim);
    p_blob(&p, keys, len);
    char what[80];
    snprintf(what, sizeof what, "account %lld: keys not appended",
             (long long)account_id);
    return write_claimed(d, ST_PROG_APPEND, &p, K_APPEND, account_id, claim,
                         what);
}

int spg_progress_head(store_db_t *db, int64_t account_id,
                      store_progress_t *out)
{
    spg_t *d = (spg_t *)db;
    memset(out, 0, sizeof *out);
    out->account_id = account_id;
    out->status = STORE_NOT_FOUND;
    char what[80];
    snprintf(what, sizeof what, "account %lld: game in progress not read",
             (long long)account_id);
    params_t p = { 0 };
    p_ll(&p, account_id);
    PGresult *r = read_now(d, ST_PROG_GET, &p, what);
    if (r && PQntuples(r) > 0) {
        out->game_version = (uint32_t)col_ll(r, 0, 0);
        out->seed = (uint64_t)col_ll(r, 0, 1);
        out->opt.ruleset = (int)col_ll(r, 0, 2);
        out->started = col_ll(r, 0, 3);
        out->len = (size_t)col_ll(r, 0, 4);
        out->status = STORE_OK;
    }
    if (!r)
        out->status = STORE_ERROR;
    PQclear(r);
    return out->status;
}

int spg_progress_load(store_db_t *db, int64_t account_id, store_progress_t *out,
                      void **keys)
{
    spg_t *d = (spg_t *)db;
    *keys = NULL;
    if (spg_progress_head(db, account_id, out) == STORE_ERROR)
        return STORE_ERROR;
    long long want = (long long)out->len;
    out->len = 0;
    char what[80];
    snprintf(what, sizeof what, "account %lld: game in progress not read",
             (long long)account_id);
    params_t p = { 0 };
    p_ll(&p, account_id);
    PGresult *r;
    int failed = 0;
    buf_t b;
    buf_init(&b, RECORD_ENCODED_MAX);
    if (out->status == STORE_OK && !failed) {
        r = read_now(d, ST_PROG_KEYS, &p, what);
        failed = !r;
        /* a prefix that follows on, within the cap: what appends made */
        for (int i = 0; r && i < PQntuples(r); i++) {
            void *bytes;
            size_t n;
            if (col_ll(r, i, 0) != (long long)b.len ||
                col_blob(r, i, 1, &bytes, &n) != 0)
                break;
            int full = n > 0 && buf_append(&b, bytes, n) != 0;
            free(bytes);
            if (full)
                break;
        }
        PQclear(r);
        if (!failed && (long long)b.len != want)
            db_fail(d, "store: %s: account %lld: game in progress has %zu of "
                    "%lld key bytes", d->name, (long long)account_id, b.len,
                    want);
    }
    if (failed) {
        buf_free(&b);
        memset(out, 0, sizeof *out);
        out->account_id = account_id;
        out->status = STORE_ERROR;
        return STORE_ERROR;
    }
    *keys = b.data;
    out->len = b.len;
    return out->status;
}

/* --- snapshots of games in progress --------------------------------------------- */

int spg_progress_snapshot(store_db_t *db, int64_t account_id,
                          int64_t claim, const sdb_snapshot_t *snap)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_ll(&p, account_id);
    p_ll(&p, claim);
    p_ll(&p, snap->version);
    p_ll(&p, snap->keys);
    p_ll(&p, (long long)snap->pos);
    p_blob(&p, snap->game, snap->game_len);
    p_blob(&p, snap->checks, snap->checks_len);
    char what[80];
    snprintf(what, sizeof what, "account %lld: snapshot not saved",
             (long long)account_id);
    return write_claimed(d, ST_SNAP_SET, &p, K_SNAP, account_id, claim, what);
}

int spg_progress_load_snapshot(store_db_t *db, int64_t account_id,
                               sdb_snapshot_t *out)
{
    spg_t *d = (spg_t *)db;
    memset(out, 0, sizeof *out);
    params_t p = { 0 };
    p_ll(&p, account_id);
    char what[80];
    snprintf(what, sizeof what, "account %lld: snapshot not read",
             (long long)account_id);
    PGresult *r = read_now(d, ST_SNAP_GET, &p, what);
    if (!r)
        return -1;
    int found = 0, failed = 0;
    if (PQntuples(r) > 0) {
        long long keys = col_ll(r, 0, 1), pos = col_ll(r, 0, 2);
        out->version = (uint32_t)col_ll(r, 0, 0);
        out->keys = keys >= 0 && keys <= UINT32_MAX ? (uint32_t)keys : 0;
        out->pos = pos >= 0 ? (size_t)pos : 0;
        failed = col_blob(r, 0, 3, &out->game, &out->game_len) != 0 ||
                 col_blob(r, 0, 4, &out->checks, &out->checks_len) != 0;
        found = out->game != NULL;
    }
    PQclear(r);
    if (failed) {
        db_fail(d, "store: %s: %s: out of memory", d->name, what);
        sdb_snapshot_free(out);
        return -1;
    }
    return found;
}

/* --- finished games by id, listing, retention, guests ---------------------------- */

static void read_game(const PGresult *r, int row, int first, store_game_t *g)
{
    col_text(g->name, sizeof g->name, r, row, first);
    g->account_id = col_ll(r, row, first + 1); /* NULL reads 0 */
    g->ruleset = (int)col_ll(r, row, first + 2);
    g->seed = (uint64_t)col_ll(r, row, first + 3);
    g->score = (int)col_ll(r, row, first + 4);
    g->depth = (int)col_ll(r, row, first + 5);
    g->turns = (int)col_ll(r, row, first + 6);
    g->kills = (int)col_ll(r, row, first + 7);
    col_text(g->cause, sizeof g->cause, r, row, first + 8);
    g->started = col_ll(r, row, first + 9);
    g->ended = col_ll(r, row, first + 10);
}

int spg_get_record(store_db_t *db, int64_t game_id, store_game_t *g, void **record,
                   size_t *len)
{
    spg_t *d = (spg_t *)db;
    memset(g, 0, sizeof *g);
    *record = NULL;
    *len = 0;
    params_t p = { 0 };
    p_ll(&p, game_id);
    char what[64];
    snprintf(what, sizeof what, "game %lld not read", (long long)game_id);
    PGresult *r = read_now(d, ST_GET_GAME, &p, what);
    if (!r)
        return STORE_ERROR;
    int status = STORE_NOT_FOUND;
    if (PQntuples(r) > 0) {
        read_game(r, 0, 0, g);
        g->ending = (int)col_ll(r, 0, 12);
        status = col_blob(r, 0, 11, record, len) != 0 ? STORE_ERROR
                 : *record ? STORE_OK : STORE_NO_RECORD;
    }
    PQclear(r);
    return status;
}

int spg_list_games(store_db_t *db, int64_t after, int n, store_listed_t *out)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_ll(&p, after);
    p_ll(&p, n);
    PGresult *r = read_now(d, ST_LIST, &p, "games not listed");
    if (!r)
        return -1;
    int got = 0;
    for (int i = 0; i < PQntuples(r) && got < n; i++) {
        store_listed_t *l = &out[got++];
        memset(l, 0, sizeof *l);
        l->game_id = col_ll(r, i, 0);
        read_game(r, i, 1, &l->game);
        l->game.ending = (int)col_ll(r, i, 12);
        l->has_record = (int)col_ll(r, i, 13);
    }
    PQclear(r);
    return got;
}

long long spg_prune_guests(store_db_t *db, int64_t before, int keep_top)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_ll(&p, before);
    p_ll(&p, keep_top);
    return change_now(d, ST_PRUNE, &p, "old guests' games not removed");
}

long long spg_guest_reserve(store_db_t *db, long long n)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_ll(&p, n);
    PGresult *r = read_now(d, ST_GUEST, &p, "guest numbers not reserved");
    if (!r)
        return -1;
    long long first = PQntuples(r) == 1 ? col_ll(r, 0, 0) : -1;
    PQclear(r);
    return first;
}

int spg_guest_give_back(store_db_t *db, long long from, long long end)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_ll(&p, from);
    p_ll(&p, end);
    long long n = change_now(d, ST_GUEST_BACK, &p,
                             "guest numbers not given back");
    return n < 0 ? -1 : n > 0;
}

/* --- SSH public keys ------------------------------------------------------------ */

int spg_key_add(store_db_t *db, int64_t account_id, const char *fingerprint,
                const char *key, int64_t now, int max)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_ll(&p, account_id);
    p_text(&p, fingerprint);
    p_text(&p, key);
    p_ll(&p, now);
    p_ll(&p, max);
    char what[80];
    snprintf(what, sizeof what, "a key of account %lld not added",
             (long long)account_id);
    PGresult *r = read_now(d, ST_KEY_ADD, &p, what);
    if (!r)
        return STORE_ERROR;
    long long n = col_ll(r, 0, 0), same = col_ll(r, 0, 1),
              added = col_ll(r, 0, 2);
    PQclear(r);
    if (added > 0)
        return STORE_OK;
    if (same > 0)
        return STORE_DUPLICATE;
    if (n >= max)
        return STORE_FULL;
    /* no such account, or the same key added by another host meanwhile */
    return STORE_NOT_FOUND;
}

int spg_key_remove(store_db_t *db, int64_t account_id, const char *fingerprint)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_ll(&p, account_id);
    p_text(&p, fingerprint);
    char what[80];
    snprintf(what, sizeof what, "a key of account %lld not removed",
             (long long)account_id);
    long long n = change_now(d, ST_KEY_DEL, &p, what);
    return n < 0 ? STORE_ERROR : n > 0 ? STORE_OK : STORE_NOT_FOUND;
}

int spg_keys_list(store_db_t *db, int64_t account_id, store_keys_t *out)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_ll(&p, account_id);
    p_ll(&p, STORE_KEYS_MAX);
    out->n = 0;
    PGresult *r = read_now(d, ST_KEY_LIST, &p, "keys not read");
    if (!r)
        return -1;
    int rows = PQntuples(r);
    for (int i = 0; i < rows && out->n < STORE_KEYS_MAX; i++) {
        store_key_t *k = &out->keys[out->n++];
        col_text(k->fingerprint, sizeof k->fingerprint, r, i, 0);
        col_text(k->type, sizeof k->type, r, i, 1);
        k->added = col_ll(r, i, 2);
    }
    PQclear(r);
    return 0;
}

int spg_key_find(store_db_t *db, const char *name, const char *fingerprint,
                 int64_t *id, char *name_out, char *key_out, size_t keylen)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_text(&p, name);
    p_text(&p, fingerprint);
    PGresult *r = read_now(d, ST_KEY_FIND, &p, "key lookup");
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found) {
        *id = col_ll(r, 0, 0);
        col_text(name_out, ACCT_NAME_MAX + 1, r, 0, 1);
        if (key_out)
            col_text(key_out, keylen, r, 0, 2);
    }
    PQclear(r);
    return found;
}

/* --- bans --------------------------------------------------------------------- */

int spg_ban_put(store_db_t *db, const store_ban_t *b)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_text(&p, b->target);
    p_ll(&p, b->until_ms);
    p_ll(&p, b->made_ms);
    return change_now(d, ST_BAN_PUT, &p, "a ban not kept") < 0 ? -1 : 0;
}

int spg_ban_remove(store_db_t *db, const char *target)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_text(&p, target);
    long long n = change_now(d, ST_BAN_DEL, &p, "a ban not removed");
    return n < 0 ? STORE_ERROR : n > 0 ? STORE_OK : STORE_NOT_FOUND;
}

int spg_bans_read(store_db_t *db, store_ban_t *out, int max)
{
    spg_t *d = (spg_t *)db;
    params_t p = { 0 };
    p_ll(&p, max);
    PGresult *r = read_now(d, ST_BAN_LIST, &p, "bans not read");
    if (!r)
        return -1;
    int rows = PQntuples(r), n = 0;
    for (int i = 0; i < rows && n < max; i++) {
        store_ban_t *b = &out[n++];
        col_text(b->target, sizeof b->target, r, i, 0);
        b->until_ms = col_ll(r, i, 1);
        b->made_ms = col_ll(r, i, 2);
    }
    PQclear(r);
    return n;
}
