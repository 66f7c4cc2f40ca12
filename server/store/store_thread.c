/* store_thread.c - the store's database thread: it takes its channel's
 * requests (chan.h) in batches and runs each batch in one transaction (one
 * commit, one fsync), then hands answers back to the loop through the done
 * queue. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "store_impl.h"

void store_req_free(req_t *r)
{
    sodium_memzero(r->pass, sizeof r->pass);
    sodium_memzero(r->hash, sizeof r->hash);
    free(r->record);
    game_free(r->played);
    record_free(&r->rec);
    sdb_snapshot_free(&r->snap);
    free(r->scores);
    free(r->recent);
    free(r->key);
    free(r->keys);
    if (r->sync) {
        uv_cond_destroy(&r->sync->cond);
        free(r->sync);
    }
    free(r);
}

void store_queue_push(req_t **head, req_t **tail, req_t *r)
{
    r->next = NULL;
    if (*tail)
        (*tail)->next = r;
    else
        *head = r;
    *tail = r;
}

int store_db_post(store_t *st, req_t *r)
{
    r->next = NULL;
    return chan_post(&st->dbq, &r->link);
}

void store_db_wake(void *arg)
{
    store_t *st = arg;
    uv_mutex_lock(&st->wmu);
    st->woken = 1;
    uv_cond_signal(&st->cond);
    uv_mutex_unlock(&st->wmu);
}

/* The request a channel message is the link of. */
static req_t *req_of(smsg_t *m)
{
    return (req_t *)(void *)((char *)m - offsetof(req_t, link));
}

/* ms until the bans are to be read again (0: now). */
static uint64_t bans_due_in(const store_t *st)
{
    uint64_t now = uv_hrtime() / 1000000u, at = st->bans_read_ms +
                   STORE_BAN_REFRESH_MS;
    return now >= at ? 0 : at - now;
}

/* Waits for the channel's wake (one since the last wait counts), or until
 * the bans are due. */
static void wait_wake(store_t *st)
{
    uv_mutex_lock(&st->wmu);
    uint64_t ms = bans_due_in(st);
    if (!st->woken && ms > 0)
        uv_cond_timedwait(&st->cond, &st->wmu, ms * 1000000u);
    st->woken = 0;
    uv_mutex_unlock(&st->wmu);
}

/* The next batch: up to batch_max requests from the front of what the
 * channel brought, linked by next; no longer counted as queued. NULL once
 * the channel is closed and everything in it taken. */
static req_t *next_batch(store_t *st, uint64_t *n)
{
    for (;;) {
        /* what came since, behind what is left: the order posted */
        int closed = chan_take(&st->dbq, &st->backlog);
        if (st->backlog.head)
            break;
        if (closed)
            return NULL;
        if (bans_due_in(st) == 0)
            store_bans_refresh(st);
        wait_wake(st);
    }
    req_t *batch = NULL, *last = NULL;
    smsg_t *m;
    *n = 0;
    while (*n < (uint64_t)st->opt.batch_max && (m = msgq_pop(&st->backlog))) {
        store_queue_push(&batch, &last, req_of(m));
        (*n)++;
    }
    uv_mutex_lock(&st->mu);
    for (req_t *r = batch; r; r = r->next) {
        if (r->op == OP_GAME) {
            st->q_games--;
            st->q_bytes -= r->qbytes;
        }
        if (OP_IS_PROGRESS(r->op)) {
            st->q_progress--;
            st->q_prog_bytes -= r->qbytes;
        }
    }
    uv_mutex_unlock(&st->mu);
    return batch;
}

/* store_end_game's half on this thread: the final hash and the encoding,
 * off the loop. A record that fails (it cannot: a finished game's record
 * fits RECORD_ENCODED_MAX) is left out and the game kept. */
static void finish_record(store_t *st, req_t *r)
{
    buf_t out;
    buf_init(&out, RECORD_ENCODED_MAX);
    if (record_finish(&r->rec, r->played) == 0 &&
        record_encode(&r->rec, &out) == 0) {
        r->record = out.data; /* its allocation is the request's now */
        r->record_len = out.len;
    } else {
        buf_free(&out);
        log_error("store: %s: a game of %s stored without its record",
                  st->path, r->game.name);
    }
    /* game and recorder are freed with the request (store_req_free) */
}

/* One request inside the batch's transaction (ok: the BEGIN worked).
 * *written counts games written, *progress progress requests written. */
static void db_one(store_t *st, req_t *r, int ok, uint64_t *written,
                   uint64_t *progress)
{
    switch (r->op) {
    case OP_PROG_BEGIN:
    case OP_PROG_APPEND:
    case OP_PROG_END:
    case OP_PROG_SNAP:
    case OP_PROG_LOAD:
    case OP_GET_RECORD:
        *progress += (uint64_t)store_progress_db(st, r, ok);
        break;
    case OP_GAME:
        if (r->played && !r->record)
            finish_record(st, r);
        if (ok && sdb_insert_game(st->db, &r->game, r->record,
                                  r->record_len) == 0)
            (*written)++;
        break;
    case OP_REGISTER:
        r->status = ok ? sdb_insert_account(st->db, r->name, r->hash,
                                            (int64_t)time(NULL), &r->id)
                       : STORE_ERROR;
        sodium_memzero(r->hash, sizeof r->hash);
        r->phase = PH_DONE;
        break;
    case OP_SETPASS:
        r->status = ok ? sdb_set_password_hash(st->db, r->id, r->hash)
                       : STORE_ERROR;
        sodium_memzero(r->hash, sizeof r->hash);
        r->phase = PH_DONE;
        break;
    case OP_LOGIN: {
        char name[ACCT_NAME_MAX + 1];
        int found = !ok ? -1 : !r->name_ok ? 0
                  : sdb_find_account(st->db, r->name, &r->id, name, r->hash,
                                     sizeof r->hash);
        if (found < 0) {
            r->status = STORE_ERROR;
            r->phase = PH_DONE;
            break;
        }
        r->found = (uint8_t)found;
        /* the display choice comes with the login (0 if it cannot be read:
         * the login itself is not worth failing for it) */
        if (found && sdb_account_display(st->db, r->id, &r->display) != 0)
            r->display = 0;
        if (found)
            memcpy(r->name, name, sizeof name);
        else
            memcpy(r->hash, st->dummy, sizeof r->hash);
        r->phase = PH_HASH;
        break;
    }
    case OP_SETDISPLAY:
        r->status = ok ? sdb_set_account_display(st->db, r->id, r->display)
                       : STORE_ERROR;
        r->phase = PH_DONE;
        break;
    case OP_SCORES:
        if (!ok || sdb_scores(st->db, r->limit, r->name[0] ? r->name : NULL,
                              r->scores) != 0)
            r->scores->status = STORE_ERROR;
        r->status = r->scores->status;
        r->phase = PH_DONE;
        break;
    case OP_RECENT:
        store_recent_db(st, r, ok);
        break;
    case OP_TAKEN: {
        int found = ok ? sdb_account_exists(st->db, r->name) : -1;
        r->status = found < 0 ? STORE_ERROR : STORE_OK;
        r->found = (uint8_t)(found > 0);
        r->phase = PH_DONE;
        break;
    }
    case OP_FLUSH:
        r->status = STORE_OK;
        r->phase = PH_DONE;
        break;
    case OP_KEYS_LIST:
    case OP_KEY_ADD:
    case OP_KEY_DEL:
    case OP_KEY_FIND:
        store_keys_db(st, r, ok);
        break;
    case OP_BAN_PUT:
    case OP_BAN_DEL:
        store_bans_db(st, r, ok);
        break;
    case OP_GUEST: {
        long long first = ok ? sdb_guest_reserve(st->db, STORE_GUEST_BLOCK) : -1;
        r->status = first > 0 ? STORE_OK : STORE_ERROR;
        r->id = first;
        r->phase = PH_DONE;
        break;
    }
    }
}

/* A batch committed (ok) or failed: the first failure after a success is
 * logged once, with SQLite's reason, and so is the recovery; in between
 * the statements' own lines are silenced (store_healthy). */
static void health(store_t *st, int ok)
{
    if (ok == !st->db_quiet)
        return;
    st->db_quiet = !ok;
    sdb_set_quiet(st->db, !ok);
    uv_mutex_lock(&st->mu);
    st->healthy = ok;
    uv_mutex_unlock(&st->mu);
    if (ok)
        log_info("store: %s: writes work again; games are kept", st->path);
    else
        log_error("store: %s: writes are failing (%s): games ending now are "
                  "lost and accounts' games in progress are not kept until "
                  "this is fixed (disk space? permissions? another process?); "
                  "said once, not for each game", st->path,
                  sdb_errmsg(st->db));
}

/* The retention rule (store.h), in a transaction of its own: at start,
 * then at most every STORE_PRUNE_EVERY_S, after a batch. */
static void prune(store_t *st, int64_t now)
{
    if (st->opt.guest_keep_s <= 0)
        return;
    st->last_prune = now;
    if (sdb_begin(st->db) != 0)
        return;
    long long n = sdb_prune_guests(st->db, now - st->opt.guest_keep_s,
                                   STORE_TOP_MAX);
    if (n < 0 || sdb_commit(st->db) != 0) {
        if (sdb_in_transaction(st->db))
            sdb_rollback(st->db);
        return;
    }
    if (n > 0)
        log_info("store: %s: %lld guests' games older than %lld s removed "
                 "(the retention rule)", st->path, n,
                 (long long)st->opt.guest_keep_s);
    uv_mutex_lock(&st->mu);
    st->stats.guests_pruned += (uint64_t)n;
    uv_mutex_unlock(&st->mu);
}

static void db_batch(store_t *st, req_t *batch, uint64_t n)
{
    uint64_t games = 0, written = 0, progress = 0, prog_written = 0;
    int ok = sdb_begin(st->db) == 0;
    for (req_t *r = batch; r; r = r->next) {
        games += r->op == OP_GAME;
        progress += OP_IS_PROGRESS(r->op);
        db_one(st, r, ok, &written, &prog_written);
        /* some errors (disk full, I/O) roll the transaction back at once:
         * then nothing of this batch is written, and the rest is not tried */
        if (ok && !sdb_in_transaction(st->db))
            ok = 0;
    }
    if (ok && sdb_commit(st->db) != 0) {
        sdb_rollback(st->db);
        ok = 0;
    }
    if (ok) /* begins and appends the commit found had nothing to follow */
        prog_written -= store_progress_unfollowed(st);
    health(st, ok);
    if (!ok) {
        written = prog_written = 0;
        for (req_t *r = batch; r; r = r->next) {
            if (((r->op == OP_REGISTER || r->op == OP_SETPASS ||
                  r->op == OP_SETDISPLAY) &&
                 r->status == STORE_OK) ||
                r->op == OP_FLUSH || r->op == OP_TAKEN || r->op == OP_GUEST ||
                OP_IS_KEYS(r->op) || OP_IS_BAN(r->op)) {
                r->status = STORE_ERROR; /* (a key's list: rolled back) */
                if (r->keys)
                    r->keys->n = 0;
            }
            if (r->op == OP_PROG_LOAD || r->op == OP_GET_RECORD) {
                /* it may have read what was rolled back */
                r->status = STORE_ERROR;
                free(r->record);
                r->record = NULL;
                r->record_len = 0;
                sdb_snapshot_free(&r->snap);
            }
        }
        store_progress_failed(st, batch);
    }
    if (st->bans_changed) /* before the answers: a ban holds once answered */
        store_bans_refresh(st);
    if (written < games && !st->db_quiet)
        log_error("store: %s: %llu of %llu games lost", st->path,
                  (unsigned long long)(games - written),
                  (unsigned long long)games);
    req_t *ended = NULL, *next;
    uv_mutex_lock(&st->mu);
    st->stats.games_written += written;
    st->stats.games_lost += games - written;
    st->stats.progress_written += prog_written;
    st->stats.progress_dropped += progress - prog_written;
    st->stats.batches++;
    if (n > st->stats.largest_batch)
        st->stats.largest_batch = n;
    for (req_t *r = batch; r; r = next) {
        next = r->next;
        if (OP_IS_SILENT(r->op) || (r->sync && store_keys_wake(r))) {
            r->next = ended;
            ended = r;
        } else if (r->sync) {
            /* a waiting thread's: it has its answer */
        } else {
            store_done_push(st, r);
        }
    }
    uv_mutex_unlock(&st->mu);
    /* games (and progress) end here, outside the lock: freeing a thousand
     * games and their records must not hold up the loop's next
     * store_add_game */
    for (req_t *r = ended; r; r = next) {
        next = r->next;
        store_req_free(r);
    }
}

void store_db_main(void *arg)
{
    store_t *st = arg;
    st->db = sdb_open(st->where, STORE_SCHEMA_VERSION, st->open_err,
                      sizeof st->open_err);
    int opened = st->db != NULL;
    if (opened) {
        sdb_set_busy(st->db, st->opt.busy_ms);
        /* messages name it without a password */
        snprintf(st->path, sizeof st->path, "%s", sdb_name(st->db));
    }
    if (opened)
        store_bans_refresh(st); /* before the first connection */
    uv_sem_post(&st->ready); /* st->db is ours from here on */
    if (!opened)
        return;
    /* A hash of a random password at the configured cost: logins for
     * unknown names verify against it and take as long as real ones. */
    unsigned char pw[32];
    randombytes_buf(pw, sizeof pw);
    if (crypto_pwhash_str(st->dummy, (const char *)pw, sizeof pw,
                          st->opt.pw_ops, st->opt.pw_mem) != 0)
        log_error("store: cannot make the dummy password hash (memory?)");
    prune(st, (int64_t)time(NULL));
    uint64_t n;
    req_t *batch;
    while ((batch = next_batch(st, &n)) != NULL) {
        db_batch(st, batch, n);
        if (bans_due_in(st) == 0) /* (a busy queue never waits) */
            store_bans_refresh(st);
        int64_t now = (int64_t)time(NULL);
        if (now - st->last_prune >= STORE_PRUNE_EVERY_S)
            prune(st, now);
    }
    sdb_close(st->db);
    st->db = NULL;
    free(st->broken);
    st->broken = NULL;
    st->nbroken = st->capbroken = 0;
}

