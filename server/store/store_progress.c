/* store_progress.c - games in progress (store_progress_*) and finished
 * games' records by id (store_get_record): the loop thread's API (store.h)
 * and each request's work on the database thread. store_impl.h tells how a
 * request moves between the threads.
 *
 * Begins, appends, snapshots and ends answer nobody: like a finished game
 * they are queued in order, written in the batch they fall in and freed by
 * the database thread. What keeps an account's rows a prefix of what was
 * appended is the "broken" list (the database thread's): an account whose
 * begin or append was not written (a failed statement or a batch rolled
 * back), or whose append found no game in progress, loses its later
 * appends until its next begin, which replaces the game anyway, or until
 * its game is loaded (a login goes on from what was read).
 *
 * Claims (store.h): a load takes one first; each write carries its
 * session's, and one the backend refuses for a later claim (SDB_CLAIMED,
 * at once from SQLite, after the commit from PostgreSQL) is neither a
 * failure nor a break: it is counted and kept in the store's list of
 * claimed accounts, which the loops read (store_progress_claimed). */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store_impl.h"

/* --- the database thread ----------------------------------------------------- */

static size_t broken_find(const store_t *st, int64_t id)
{
    for (size_t i = 0; i < st->nbroken; i++)
        if (st->broken[i] == id)
            return i;
    return st->nbroken;
}

static void broken_remove(store_t *st, int64_t id)
{
    size_t i = broken_find(st, id);
    if (i < st->nbroken)
        st->broken[i] = st->broken[--st->nbroken];
}

/* Marks an account's game in progress as ending where it is on disk. Out
 * of memory, the account is logged but not marked: its next append may
 * then follow a gap (logged here, so the cause is known). */
static void broken_add(store_t *st, int64_t id, const char *why)
{
    if (broken_find(st, id) < st->nbroken)
        return;
    if (!st->db_quiet) /* else the store said once that writes fail */
        log_error("store: %s: account %lld: %s; its game in progress ends there "
              "until the next begins", st->path, (long long)id, why);
    if (st->nbroken == st->capbroken) {
        size_t cap = st->capbroken ? st->capbroken * 2 : 16;
        int64_t *p = realloc(st->broken, cap * sizeof *p);
        if (!p) {
            log_error("store: out of memory: account %lld's later keys may "
                      "not follow on", (long long)id);
            return;
        }
        st->broken = p;
        st->capbroken = cap;
    }
    st->broken[st->nbroken++] = id;
}

void store_progress_mark(store_t *st)
{
    st->broken_kept = 0;
    if (st->nbroken > st->capbroken_was) {
        int64_t *p = realloc(st->broken_was, st->nbroken * sizeof *p);
        if (!p)
            return;
        st->broken_was = p;
        st->capbroken_was = st->nbroken;
    }
    if (st->nbroken)
        memcpy(st->broken_was, st->broken, st->nbroken * sizeof *st->broken);
    st->nbroken_was = st->nbroken;
    st->broken_kept = 1;
}

int store_progress_rewind(store_t *st)
{
    if (!st->broken_kept)
        return -1;
    /* (its room never shrinks: it holds the kept one) */
    if (st->nbroken_was)
        memcpy(st->broken, st->broken_was,
               st->nbroken_was * sizeof *st->broken);
    st->nbroken = st->nbroken_was;
    return 0;
}

/* A write of the account's game as `claim` was refused: a later claim
 * holds it (a later login, here or on another host). Not a failure: the
 * batch goes on, and the loop learns of it from store_progress_claimed,
 * where the session that holds the claim lets its player go. */
static void claimed_add(store_t *st, int64_t id, int64_t claim)
{
    uv_mutex_lock(&st->mu);
    st->stats.progress_claimed++;
    int i;
    for (i = 0; i < st->nclaimed && st->claimed[i].account_id != id; i++)
        ;
    if (i == st->nclaimed) {
        if (st->nclaimed < STORE_CLAIMED_MAX) {
            st->nclaimed++;
        } else {
            i = st->claimed_next;
            st->claimed_next = (st->claimed_next + 1) % STORE_CLAIMED_MAX;
        }
        st->claimed[i].account_id = id;
        st->claimed[i].claim = claim;
    } else if (claim > st->claimed[i].claim) {
        st->claimed[i].claim = claim;
    }
    int first = st->stats.progress_claimed == 1;
    uv_mutex_unlock(&st->mu);
    /* the first one, then at debug: each is a player let go, logged so */
    if (first)
        log_info("store: %s: account %lld: a write of claim %lld refused: "
                 "a later login holds its game in progress", st->path,
                 (long long)id, (long long)claim);
    else
        log_debug("store: account %lld: a write of claim %lld refused",
                  (long long)id, (long long)claim);
}

int store_progress_claimed(store_t *st, int64_t account_id, int64_t claim)
{
    if (!st || account_id <= 0 || claim <= 0)
        return 0;
    int found = 0;
    uv_mutex_lock(&st->mu);
    for (int i = 0; i < st->nclaimed && !found; i++) {
        found = st->claimed[i].account_id == account_id &&
                st->claimed[i].claim >= claim;
        if (found) { /* told once: the list stays short for every sweep */
            st->claimed[i] = st->claimed[--st->nclaimed];
            st->claimed_next = 0;
        }
    }
    uv_mutex_unlock(&st->mu);
    return found;
}

uint64_t store_progress_unfollowed(store_t *st)
{
    const store_unfollowed_t *u;
    size_t n = sdb_unfollowed(st->db, &u);
    for (size_t i = 0; i < n; i++) {
        switch (u[i].why) {
        case SDB_CLAIMED:
            claimed_add(st, u[i].account_id, u[i].claim);
            break;
        case SDB_NO_GAME_APPENDED:
            broken_add(st, u[i].account_id, "keys appended to no game in "
                       "progress: dropped");
            break;
        case SDB_NO_ACCOUNT_BEGUN:
            broken_add(st, u[i].account_id, "game in progress not begun (no "
                       "such account)");
            break;
        case SDB_NO_GAME_SNAPPED:
        case SDB_NO_GAME_ENDED:
            break; /* a snapshot of no game, or an end of none: nothing */
        }
    }
    return n;
}

/* A begin or an append rolled back with its batch: the account's later
 * appends are lost until a begin. */
static void prog_undo(store_t *st, req_t *r)
{
    broken_add(st, r->id, "keys lost with a failed transaction");
}

/* A read's answer freed: rolled back with its batch (read_undo), or
 * before the batch is run again (the db's first step). */
static void read_clear(req_t *r)
{
    free(r->record);
    r->record = NULL;
    r->record_len = 0;
    sdb_snapshot_free(&r->snap);
}

static void load_progress(store_t *st, req_t *r)
{
    store_progress_t p;
    void *keys;
    /* The load is a login taking the account's game: its claim makes the
     * writes of every earlier one refused from now on (store.h). Before
     * it, the end a held game of the account owes, with the claim that
     * ended it (the new one would refuse it): no login goes on with a
     * game held to be recorded (store_held.c). */
    if (store_held_end_owed(st, r->id) != 0 ||
        sdb_progress_claim(st->db, r->id, &r->claim) != 0) {
        r->status = STORE_ERROR;
        return;
    }
    r->status = sdb_progress_load(st->db, r->id, &p, &keys);
    r->record = keys;
    r->record_len = p.len;
    r->game.seed = p.seed;
    r->game.started = p.started;
    r->gopt = p.opt;
    r->game_version = p.game_version;
    if (r->status == STORE_OK && p.game_version != GAME_VERSION)
        r->status = STORE_STALE;
    if (r->status != STORE_OK)
        return;
    /* The latest snapshot, if it is a game of this build's size at all;
     * the rebuild checks the rest against the keys. Not read: the keys
     * alone still rebuild the game (from the start). */
    if (sdb_progress_load_snapshot(st->db, r->id, &r->snap) <= 0)
        return;
    /* The stored bytes are the state's (GAME_STATE_BYTES, game.h's
     * game_state_bytes); the answer holds a whole game_t, its derived part
     * worked out. */
    game_t *g = game_from_state(r->snap.game, r->snap.game_len);
    if (!g) {
        log_error("store: %s: account %lld: a snapshot of %zu bytes, not a "
                  "game of this build (%zu) or no memory: ignored", st->path,
                  (long long)r->id, r->snap.game_len,
                  (size_t)GAME_STATE_BYTES);
        sdb_snapshot_free(&r->snap);
        return;
    }
    free(r->snap.game);
    r->snap.game = g;
    r->snap.game_len = sizeof *g;
}

static int begin_db(store_t *st, req_t *r, int ok)
{
    r->status = STORE_ERROR;
    if (!ok)
        return 0; /* prog_undo marks it */
    int rc = sdb_progress_begin(st->db, r->id, r->claim, r->game_version,
                                r->game.seed, &r->gopt, r->game.started);
    if (rc == SDB_CLAIMED) {
        claimed_add(st, r->id, r->claim); /* the later game stays */
        return 0;
    }
    if (rc != 0) {
        broken_add(st, r->id, "game in progress not begun");
        return 0;
    }
    broken_remove(st, r->id);
    r->status = STORE_OK;
    return 1;
}

static int append_db(store_t *st, req_t *r, int ok)
{
    if (!ok || broken_find(st, r->id) < st->nbroken)
        return 0;
    int rc = sdb_progress_append(st->db, r->id, r->claim, r->record,
                                 r->record_len);
    if (rc == SDB_CLAIMED) {
        claimed_add(st, r->id, r->claim);
        return 0;
    }
    if (rc <= 0)
        broken_add(st, r->id, rc == 0 ? "keys appended to no game in "
                                        "progress: dropped"
                                      : "keys not appended");
    return rc > 0;
}

static int snap_db(store_t *st, req_t *r, int ok)
{
    /* (an account whose keys are broken has no tail to go on from it) */
    if (!ok || broken_find(st, r->id) < st->nbroken)
        return 0;
    int rc = sdb_progress_snapshot(st->db, r->id, r->claim, &r->snap);
    if (rc == SDB_CLAIMED)
        claimed_add(st, r->id, r->claim);
    return rc == 1;
}

static int end_db(store_t *st, req_t *r, int ok)
{
    r->status = STORE_ERROR; /* (not written: a held game owes it) */
    if (!ok)
        return 0;
    broken_remove(st, r->id);
    int rc = sdb_progress_end(st->db, r->id, r->claim, NULL);
    if (rc == SDB_CLAIMED)
        claimed_add(st, r->id, r->claim); /* the later game stays */
    if (rc == 0 || rc == SDB_CLAIMED)
        r->status = STORE_OK;
    return rc == 0;
}

int store_progress_end_now(store_t *st, int64_t account_id, int64_t claim,
                           uint64_t seed, int64_t started)
{
    sdb_which_t which = { seed, started };
    int rc = sdb_progress_end(st->db, account_id, claim, &which);
    if (rc == SDB_CLAIMED)
        claimed_add(st, account_id, claim); /* the later game stays */
    return rc == 0 || rc == SDB_CLAIMED ? 0 : -1;
}

static int load_db(store_t *st, req_t *r, int ok)
{
    read_clear(r);
    if (ok)
        load_progress(st, r);
    else
        r->status = STORE_ERROR;
    /* The player goes on from the keys read here, so the next appends
     * follow on from them, whatever broke the account before (the load is
     * the login's: the account's game is played nowhere else). A batch
     * that fails after this read answers STORE_ERROR (read_undo): then no
     * game goes on from it, and the failure's undo marks the account
     * again if its keys were in the batch. */
    if (r->status == STORE_OK)
        broken_remove(st, r->id);
    r->phase = PH_DONE;
    return 0;
}

static int record_db(store_t *st, req_t *r, int ok)
{
    read_clear(r);
    r->status = ok ? sdb_get_record(st->db, r->id, &r->game, &r->record,
                                    &r->record_len)
                   : STORE_ERROR;
    r->phase = PH_DONE;
    return 0;
}

/* A read rolled back with its batch: it may have read what was rolled
 * back. */
static void read_undo(store_t *st, req_t *r)
{
    (void)st;
    r->status = STORE_ERROR;
    read_clear(r);
}

/* --- the loop thread ----------------------------------------------------------- */

static void load_answer(req_t *r)
{
    store_progress_t p;
    memset(&p, 0, sizeof p);
    p.status = r->status;
    p.account_id = r->id;
    p.claim = r->status == STORE_ERROR ? 0 : r->claim;
    if (r->status == STORE_OK || r->status == STORE_STALE) {
        p.game_version = r->game_version;
        p.seed = r->game.seed;
        p.opt = r->gopt;
        p.started = r->game.started;
        p.keys = r->record;
        p.len = r->record_len;
    }
    if (r->status == STORE_OK && r->snap.game) {
        p.snap = r->snap.game;
        p.snap_version = r->snap.version;
        p.snap_keys = r->snap.keys;
        p.snap_pos = r->snap.pos;
        p.snap_checks = r->snap.checks;
        p.snap_checks_len = r->snap.checks_len;
    }
    r->cb.progress(r->ctx, &p);
}

static void record_answer(req_t *r)
{
    store_record_t a;
    memset(&a, 0, sizeof a);
    a.status = r->status;
    a.game_id = r->id;
    if (r->status == STORE_OK || r->status == STORE_NO_RECORD)
        a.game = r->game;
    if (r->status == STORE_OK) {
        a.record = r->record;
        a.len = r->record_len;
    }
    r->cb.record(r->ctx, &a);
}

static const store_call_t begin_call = {
    .name = "progress begin", .db = begin_db, .undo = prog_undo,
    .flags = STORE_CALL_SILENT | STORE_CALL_PROGRESS | STORE_CALL_PROG_FRESH,
};
static const store_call_t append_call = {
    .name = "progress append", .db = append_db, .undo = prog_undo,
    .flags = STORE_CALL_SILENT | STORE_CALL_PROGRESS,
};
static const store_call_t snap_call = {
    .name = "progress snapshot", .db = snap_db,
    .flags = STORE_CALL_SILENT | STORE_CALL_PROGRESS,
};
static const store_call_t end_call = {
    .name = "progress end", .db = end_db,
    .flags = STORE_CALL_SILENT | STORE_CALL_PROGRESS | STORE_CALL_PROG_END,
};
static const store_call_t load_call = {
    .name = "progress load", .db = load_db, .answer = load_answer,
    .undo = read_undo, .flags = STORE_CALL_OWN_BATCH | STORE_CALL_PROG_FRESH,
};
static const store_call_t record_call = {
    .name = "get record", .db = record_db, .answer = record_answer,
    .undo = read_undo,
};

/* A silent progress request for an account, or NULL (refused, logged).
 * bounded: refused past opts.max_queued_progress requests or, with these
 * `bytes`, opts.max_queued_bytes (appends only: a begin or an end refused
 * would leave the account's rows wrong). */
static req_t *prog_req(store_t *st, const store_call_t *call,
                       int64_t account_id, int bounded, size_t bytes)
{
    if (account_id <= 0) {
        log_error("store: a game in progress for account %lld refused",
                  (long long)account_id);
        return NULL;
    }
    uv_mutex_lock(&st->mu);
    int full = bounded &&
               (st->q_progress >= (uint64_t)st->opt.max_queued_progress ||
                st->q_prog_bytes + bytes > st->opt.max_queued_bytes);
    if (full)
        st->stats.progress_dropped++;
    uv_mutex_unlock(&st->mu);
    req_t *r = full ? NULL : calloc(1, sizeof *r);
    if (!r) {
        /* the first of a run and every 1000th: a full queue must not also
         * flood the log */
        uv_mutex_lock(&st->lmu);
        uint64_t n = ++st->prog_refused;
        uv_mutex_unlock(&st->lmu);
        if (n % 1000 == 1)
            log_error("store: %s: keys of account %lld refused (%llu so far)",
                      full ? "too many waiting for the disk" : "out of memory",
                      (long long)account_id, (unsigned long long)n);
        return NULL;
    }
    r->st = st;
    r->call = call;
    r->phase = PH_DB;
    r->id = account_id;
    r->qbytes = bytes;
    return r;
}

static void prog_queue(store_t *st, req_t *r)
{
    uv_mutex_lock(&st->mu);
    st->q_progress++;
    st->q_prog_bytes += r->qbytes;
    int closed = store_db_post(st, r) != 0;
    if (closed) {
        st->q_progress--;
        st->q_prog_bytes -= r->qbytes;
        st->stats.progress_dropped++;
    }
    uv_mutex_unlock(&st->mu);
    if (closed)
        store_req_free(r); /* the store is closing */
}

int store_progress_begin(store_t *st, int64_t account_id, int64_t claim,
                         uint64_t seed, const game_options_t *opt,
                         int64_t started)
{
    req_t *r = prog_req(st, &begin_call, account_id, 0, 0);
    if (!r)
        return -1;
    r->claim = claim;
    r->game.seed = seed;
    r->game.started = started;
    if (opt)
        r->gopt = *opt;
    r->game_version = GAME_VERSION;
    prog_queue(st, r);
    return 0;
}

int store_progress_append(store_t *st, int64_t account_id, int64_t claim,
                          const void *keys, size_t len)
{
    if (len == 0)
        return account_id > 0 ? 0 : -1;
    req_t *r = prog_req(st, &append_call, account_id, 1, len);
    if (!r)
        return -1;
    r->record = malloc(len);
    if (!r->record) {
        log_error("store: out of memory: keys of account %lld refused",
                  (long long)account_id);
        store_req_free(r);
        return -1;
    }
    memcpy(r->record, keys, len);
    r->record_len = len;
    r->claim = claim;
    prog_queue(st, r);
    return 0;
}

int store_progress_snapshot(store_t *st, int64_t account_id, int64_t claim,
                            const game_t *g, uint32_t nkeys, size_t pos,
                            const void *checks, size_t checks_len)
{
    if (checks_len != ((size_t)nkeys / RECORD_CHECK_EVERY + 1) * 4) {
        log_error("store: account %lld: a snapshot at key %u with %zu bytes "
                  "of checks refused", (long long)account_id, (unsigned)nkeys,
                  checks_len);
        return -1;
    }
    /* The state's bytes alone (world.h): what every host stores and
     * reads, whatever it derives from them. */
    req_t *r = prog_req(st, &snap_call, account_id, 1,
                        GAME_STATE_BYTES + checks_len);
    if (!r)
        return -1;
    r->snap.game = malloc(GAME_STATE_BYTES);
    r->snap.checks = malloc(checks_len);
    if (!r->snap.game || !r->snap.checks) {
        log_error("store: out of memory: a snapshot of account %lld refused",
                  (long long)account_id);
        store_req_free(r);
        return -1;
    }
    game_state_bytes(g, r->snap.game);
    memcpy(r->snap.checks, checks, checks_len);
    r->snap.game_len = GAME_STATE_BYTES;
    r->snap.checks_len = checks_len;
    r->snap.version = GAME_VERSION;
    r->snap.keys = nkeys;
    r->snap.pos = pos;
    r->claim = claim;
    prog_queue(st, r);
    return 0;
}

int store_progress_end(store_t *st, int64_t account_id, int64_t claim,
                       uint64_t seed, int64_t started)
{
    req_t *r = prog_req(st, &end_call, account_id, 0, 0);
    if (!r)
        return -1;
    r->claim = claim;
    r->game.seed = seed; /* the game it ends, should a held game carry it */
    r->game.started = started;
    prog_queue(st, r);
    return 0;
}

int store_progress_load(store_t *st, int64_t account_id, store_progress_cb cb,
                        void *ctx)
{
    req_t *r = store_req_new(st, &load_call, ctx);
    if (!r)
        return -1;
    r->cb.progress = cb;
    r->id = account_id;
    if (account_id <= 0)
        store_answer_soon(st, r, STORE_NOT_FOUND); /* guests have none */
    else
        store_db_submit(st, r);
    return 0;
}

int store_get_record(store_t *st, int64_t game_id, store_record_cb cb,
                     void *ctx)
{
    req_t *r = store_req_new(st, &record_call, ctx);
    if (!r)
        return -1;
    r->cb.record = cb;
    r->id = game_id;
    if (game_id <= 0)
        store_answer_soon(st, r, STORE_NOT_FOUND);
    else
        store_db_submit(st, r);
    return 0;
}
