/* store_thread.c - the store's database thread: it takes its channel's
 * requests (chan.h) in batches and runs each batch in one transaction (one
 * commit, one fsync; run again whole if the database ended it to break a
 * deadlock), each request by its descriptor (r->call->db, and
 * r->call->undo if the batch is rolled back), then hands answers back to
 * the loop through the done queue. It names no call, nor a backend. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
    free(r->out);
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

static void probe(store_t *st);

/* ms until something done at last_ms is due again every every_ms (0:
 * now). */
static uint64_t due_in(uint64_t last_ms, uint64_t every_ms)
{
    uint64_t now = uv_hrtime() / 1000000u, at = last_ms + every_ms;
    return now >= at ? 0 : at - now;
}

/* ms until the bans are to be read again (0: now). */
static uint64_t bans_due_in(const store_t *st)
{
    return due_in(st->bans_read_ms, STORE_BAN_REFRESH_MS);
}

/* ms until the next write of the store's own is due while writes fail
 * (probe); UINT64_MAX while they work. */
static uint64_t probe_due_in(const store_t *st)
{
    return st->db_quiet ? due_in(st->probed_ms, (uint64_t)st->opt.probe_ms)
                        : UINT64_MAX;
}

/* ms until the next look whether the database's file moved (0: now). */
static uint64_t moved_due_in(const store_t *st)
{
    return due_in(st->moved_ms, STORE_MOVED_EVERY_MS);
}

/* A file that moved (look_moved): the database as this server has it,
 * written to PATH.rescued (through PATH.rescued.tmp, so that a copy cut
 * short never takes the place of a whole one), now and as the server
 * stops: a file deleted under the server is otherwise gone with
 * everything since the last backup once the server closes it. */
static void copy_moved(store_t *st, const char *when)
{
    char dst[sizeof st->path + 16], tmp[sizeof st->path + 24];
    snprintf(dst, sizeof dst, "%s.rescued", st->path);
    snprintf(tmp, sizeof tmp, "%s.tmp", dst);
    unlink(tmp); /* a copy cut short before: VACUUM INTO makes a new file */
    const char *why = NULL;
    if (sdb_copy_to(st->db, tmp) != 0)
        why = sdb_errmsg(st->db);
    else if (rename(tmp, dst) != 0)
        why = strerror(errno);
    if (why) {
        log_error("store: cannot copy the open database to %s: %s", dst, why);
        unlink(tmp);
        return;
    }
    log_info("store: the open database copied to %s %s", dst, when);
}

/* Whether the database's file is still at its path, looked at now: a
 * change is said once (look_moved says why) and the gauge set. Returns 1
 * when the file has moved since the last look, else 0. */
static int look_now(store_t *st)
{
    st->moved_ms = uv_hrtime() / 1000000u;
    int moved = sdb_moved(st->db);
    if (moved == st->file_moved)
        return 0;
    uv_mutex_lock(&st->mu);
    st->file_moved = moved;
    uv_mutex_unlock(&st->mu);
    if (!moved) {
        log_info("store: %s: the database file is in place again; what is "
                 "written is kept (%s.rescued is not needed)", st->path,
                 st->path);
        return 0;
    }
    log_error("store: %s is no longer the database file this server has "
              "open (renamed, deleted or replaced while it runs): accounts "
              "and games written from now on go to a file the next start "
              "does not read. If it was renamed, move it back now; if not, "
              "the open database is copied to %s.rescued now and again as "
              "the server stops: stop it, put that copy in place of %s "
              "(removing %s-wal and %s-shm), and start it", st->path,
              st->path, st->path, st->path, st->path);
    return 1;
}

/* Whether the database's file is still at its path, every
 * STORE_MOVED_EVERY_MS (and once more as the server stops). SQLite writes
 * on, without an error, to a file renamed or deleted under it, so nothing
 * else would tell: every account and game written from then on would be
 * lost silently at the next start. Said once when it moves (and once if
 * it comes back), and on /metrics; play goes on: refusing games would
 * lose them all the same, and the operator may still put the file back
 * (and copy_moved keeps a copy). */
static void look_moved(store_t *st)
{
    if (moved_due_in(st) == 0 && look_now(st))
        copy_moved(st, "(the file moved)");
}

/* The database thread is at work on the database (busy) or not, for
 * store_db_stalled: around a batch and each of the store's own calls, so
 * that a database that hangs in any of them is seen. */
static void db_busy(store_t *st, int busy)
{
    uv_mutex_lock(&st->mu);
    st->db_busy_at_ms = busy ? uv_hrtime() / 1000000u : 0;
    uv_mutex_unlock(&st->mu);
}

/* The store's own work between batches, whether the queue waits or not:
 * the bans read again when due, the probe while writes fail, and the look
 * whether the file moved. */
static void between_batches(store_t *st)
{
    db_busy(st, 1);
    if (bans_due_in(st) == 0)
        store_bans_refresh(st);
    probe(st);
    look_moved(st);
    db_busy(st, 0);
}

/* Waits for the channel's wake (one since the last wait counts), or until
 * the bans, a probe, the look whether the file moved or a held game's try
 * are due. */
static void wait_wake(store_t *st)
{
    uv_mutex_lock(&st->wmu);
    uint64_t ms = bans_due_in(st), probe_ms = probe_due_in(st),
             moved_ms = moved_due_in(st), held_ms = store_held_due_in(st);
    if (probe_ms < ms)
        ms = probe_ms;
    if (moved_ms < ms)
        ms = moved_ms;
    if (held_ms < ms)
        ms = held_ms;
    if (!st->woken && ms > 0)
        uv_cond_timedwait(&st->cond, &st->wmu, ms * 1000000u);
    st->woken = 0;
    uv_mutex_unlock(&st->wmu);
}

/* Whether the backlog's next request goes in the batch so far (n of
 * them, the last `last`): one of STORE_CALL_OWN_BATCH is a batch alone. */
static int joins_batch(const store_t *st, const req_t *last, uint64_t n)
{
    smsg_t *m = st->backlog.head;
    if (!m || n >= (uint64_t)st->opt.batch_max)
        return 0;
    return n == 0 || !((last->call->flags | req_of(m)->call->flags) &
                       STORE_CALL_OWN_BATCH);
}

/* The next batch: up to batch_max requests from the front of what the
 * channel brought, linked by next (a claim's load alone: see
 * STORE_CALL_OWN_BATCH); no longer counted as queued. NULL once the
 * channel is closed and everything in it taken. While it is empty, the
 * held games' tries run (store_held.c), one at each look at it. */
static req_t *next_batch(store_t *st, uint64_t *n)
{
    for (;;) {
        /* what came since, behind what is left: the order posted */
        int closed = chan_take(&st->dbq, &st->backlog);
        if (st->backlog.head)
            break;
        if (closed)
            return NULL;
        between_batches(st);
        if (!store_held_turn(st))
            wait_wake(st);
    }
    req_t *batch = NULL, *last = NULL;
    smsg_t *m;
    *n = 0;
    while (joins_batch(st, last, *n) && (m = msgq_pop(&st->backlog))) {
        store_queue_push(&batch, &last, req_of(m));
        (*n)++;
    }
    uv_mutex_lock(&st->mu);
    for (req_t *r = batch; r; r = r->next) {
        if (r->call->flags & STORE_CALL_GAME) {
            st->q_games--;
            st->q_bytes -= r->qbytes;
        }
        if (r->call->flags & STORE_CALL_PROGRESS) {
            st->q_progress--;
            st->q_prog_bytes -= r->qbytes;
        }
    }
    uv_mutex_unlock(&st->mu);
    return batch;
}

void store_undo_error(store_t *st, req_t *r)
{
    (void)st;
    r->status = STORE_ERROR; /* (a key's list: rolled back) */
    if (r->keys)
        r->keys->n = 0;
}

void store_undo_error_if_ok(store_t *st, req_t *r)
{
    if (r->status == STORE_OK)
        store_undo_error(st, r);
}

/* A waiting thread's request (req_t.sync), under st->mu: answered (wakes
 * it), or, if it stopped waiting, 1: the caller frees r (outside the
 * lock). */
static int sync_wake(req_t *r)
{
    if (r->sync->gone)
        return 1;
    r->sync->done = 1;
    uv_cond_signal(&r->sync->cond);
    return 0;
}

/* The health's change, said once each way: failing (db_quiet, the
 * statements' own lines silenced) or working again. */
static void health_said(store_t *st, int failing)
{
    if (failing == st->db_quiet)
        return;
    st->db_quiet = failing;
    sdb_set_quiet(st->db, failing);
    if (!failing) {
        log_info("store: %s: writes work again; games are kept", st->path);
        return;
    }
    log_error("store: %s: writes are failing (%s): games ending now are "
              "held in memory and written once writes work (lost if the "
              "server stops first), and accounts' games in progress are "
              "not kept until this is fixed (disk space? permissions? "
              "another process?); said once, not for each game", st->path,
              sdb_errmsg(st->db));
}

/* A batch committed (ok) or failed; wrote: it changed the database. Writes
 * fail from a failed batch until one that wrote has committed, for a batch
 * of reads (a login, a flush, the scores, or keys dropped for a game a
 * failure broke) commits while writes still fail (SQLite's full disk, a
 * PostgreSQL lock that readers pass): the health (store_healthy) and the
 * log both say so. The sessions send their games again whole once it is
 * healthy: not at each batch of reads in between, which would fail again;
 * the held games (store_held.c) are tried again then too. The first
 * failure is logged once, with the database's reason, and so is the
 * recovery; in between the statements' own lines are silenced
 * (db_quiet). */
static void health(store_t *st, int ok, int wrote)
{
    int failing = !ok || (st->db_quiet && !wrote);
    if (!ok) /* a write tried and failed: the probe need not, for now */
        st->probed_ms = uv_hrtime() / 1000000u;
    uv_mutex_lock(&st->mu);
    st->failed_batches += !ok;
    st->healthy = !failing;
    uv_mutex_unlock(&st->mu);
    health_said(st, failing);
}

void store_writes_fail(store_t *st)
{
    st->probed_ms = uv_hrtime() / 1000000u;
    uv_mutex_lock(&st->mu);
    st->healthy = 0;
    uv_mutex_unlock(&st->mu);
    health_said(st, 1);
}

int store_own_write(store_t *st)
{
    long long n = -1;
    int ok = sdb_begin(st->db) == 0 &&
             (n = sdb_guest_reserve(st->db, 1)) > 0 &&
             sdb_guest_give_back(st->db, n, n + 1) == 1 &&
             sdb_progress_end(st->db, 0, 0, NULL) == 0 &&
             sdb_prune_guests(st->db, INT64_MIN, 0) == 0 &&
             sdb_commit(st->db) == 0;
    if (!ok && sdb_in_transaction(st->db))
        sdb_rollback(st->db);
    return ok;
}

/* While writes fail, a write of the store's own, in a transaction of its
 * own, at most every STORE_PROBE_EVERY_MS: when nothing else writes (one
 * player, whose keys are dropped for the game the failure broke, and who
 * sends it again whole only once writes work) it is what tells that they
 * work again. It reserves a guest number and gives it back in the same
 * transaction: the row changes twice (SQLite writes no page for a row set
 * to what it was, nor for a delete of nothing: a full disk would let
 * those pass; a page changed and changed back is written all the same)
 * and ends as it was, so that no number is used up (the lock on the row
 * keeps any other host's reservation out in between). It ends the game
 * in progress of no account (account 0) too, which takes the locks of the
 * sessions' keys, and removes the guests' games ended before the first
 * moment there is (none), which takes the lock of a finished game's
 * insert: a lock held on those tables alone fails it as it fails them
 * (and a held game that fails alone while it works is one the database
 * refuses: store_held.c). Its failure is not a batch's: not counted, not
 * logged. Its success releases the held games (store_held_due_in). */
static void probe(store_t *st)
{
    if (probe_due_in(st) != 0)
        return;
    st->probed_ms = uv_hrtime() / 1000000u;
    if (store_own_write(st))
        health(st, 1, 1);
}

/* The retention rule (store.h), in a transaction of its own. */
static void prune_guests(store_t *st, int64_t now)
{
    if (sdb_begin(st->db) != 0)
        return;
    long long n = sdb_prune_guests(st->db, now - st->opt.guest_keep_s,
                                   STORE_TOP_MAX);
    if (n < 0 || sdb_commit(st->db) != 0) {
        if (sdb_in_transaction(st->db))
            sdb_rollback(st->db);
        if (sdb_retryable(st->db)) /* (not logged by the backend) */
            log_info("store: %s: the retention rule ended by a deadlock "
                     "(%s); it runs at its next time", st->path,
                     sdb_errmsg(st->db));
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

/* The retention rule: at start, then at most every STORE_PRUNE_EVERY_S,
 * after a batch. */
static void prune(store_t *st, int64_t now)
{
    if (st->opt.guest_keep_s <= 0)
        return;
    st->last_prune = now;
    db_busy(st, 1);
    prune_guests(st, now);
    db_busy(st, 0);
}

/* The most runs of one batch: a batch the database ended to break a
 * deadlock (sdb_retryable) is run again whole, twice at most, before it
 * counts as failed; after a pause of this many ms times the runs so far. */
#define STORE_BATCH_RUNS 3
#define STORE_RERUN_PAUSE_MS 10

batch_run_t store_run_batch(store_t *st, req_t *batch)
{
    batch_run_t b = { 0 };
    b.ok = sdb_begin(st->db) == 0;
    for (req_t *r = batch; r; r = r->next) {
        unsigned flags = r->call->flags;
        int w = r->call->db(st, r, b.ok);
        b.changes += (uint64_t)w;
        b.games += (flags & STORE_CALL_GAME) != 0;
        b.progress += (flags & STORE_CALL_PROGRESS) != 0;
        if (flags & STORE_CALL_GAME)
            b.written += (uint64_t)w;
        if (flags & STORE_CALL_PROGRESS)
            b.prog_written += (uint64_t)w;
        /* some errors (disk full, I/O) roll the transaction back at once:
         * then nothing of this batch is written, and the rest is not tried */
        if (b.ok && !sdb_in_transaction(st->db))
            b.ok = 0;
    }
    if (b.ok && sdb_commit(st->db) != 0) {
        sdb_rollback(st->db);
        b.ok = 0;
    }
    if (b.ok) { /* begins and appends the commit found had nothing to follow */
        uint64_t none = store_progress_unfollowed(st);
        /* (an end owed by a held game, run within a game's try or a
         * login's load, is no progress write counted: store_held.c) */
        if (none > b.prog_written)
            none = b.prog_written;
        /* games whose token was in already wrote nothing (PostgreSQL
         * tells them only now) */
        uint64_t in = sdb_games_in(st->db);
        b.written -= in < b.written ? in : b.written;
        b.prog_written -= none;
        b.changes -= none;
    }
    return b;
}

/* Whether a batch that failed (run `runs` times) is run again: the
 * database ended it whole to break a deadlock (sdb_retryable), which
 * another try is likely to pass, as the other side of the circle has
 * gone on. First a pause: the other side, woken as this one ended, is to
 * take the row it waited for; a lock on a row is no queue, and a batch
 * run again at once could take that row first and close the same circle
 * (seen with PostgreSQL). Nothing of it was written, so the next run is
 * as if the first had never been: each request is set back to how it
 * came (its status and phase; a call's db sets the rest of its answer
 * each run, freeing what a run before left), and so is the broken list
 * (store_progress_rewind). The claimed list needs nothing: a refusal is
 * told in the batch only by SQLite, which is never run again, and by
 * PostgreSQL only after the commit. Counted, logged and answered once,
 * for the run that stands (db_batch). */
static int run_again(store_t *st, req_t *batch, uint64_t n, int runs)
{
    if (runs >= STORE_BATCH_RUNS || !sdb_retryable(st->db) ||
        store_progress_rewind(st) != 0)
        return 0;
    log_info("store: %s: a batch of %llu requests ended by a deadlock "
             "(%s); ran it again", st->path, (unsigned long long)n,
             sdb_errmsg(st->db));
    uv_mutex_lock(&st->mu);
    st->rerun_batches++;
    uv_mutex_unlock(&st->mu);
    uv_sleep(STORE_RERUN_PAUSE_MS * (unsigned)runs);
    for (req_t *r = batch; r; r = r->next) {
        r->status = STORE_OK;
        r->phase = PH_DB;
    }
    return 1;
}

/* A batch's answers: each request to its loop's done queue, to its
 * waiting thread, or (silent, or its waiter gone) freed here. */
static void answer_batch(store_t *st, req_t *batch)
{
    req_t *ended = NULL, *next;
    uv_mutex_lock(&st->mu);
    for (req_t *r = batch; r; r = next) {
        next = r->next;
        if ((r->call->flags & STORE_CALL_SILENT) ||
            (r->sync && sync_wake(r))) {
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

/* A batch of n requests: run in one transaction (again, while the
 * database ends it as a deadlock: run_again), then told to the health,
 * undone if it failed (its finished games held: store_held.c), counted
 * and answered, once. */
static void db_batch(store_t *st, req_t *batch, uint64_t n)
{
    store_progress_mark(st);
    db_busy(st, 1);
    batch_run_t b = store_run_batch(st, batch);
    for (int runs = 1; !b.ok && run_again(st, batch, n, runs); runs++)
        b = store_run_batch(st, batch);
    db_busy(st, 0);
    health(st, b.ok, b.changes > 0);
    if (!b.ok) {
        b.written = b.prog_written = 0;
        for (req_t *r = batch; r; r = r->next)
            if (r->call->undo)
                r->call->undo(st, r);
    }
    /* a new password's hash: kept until here, for a batch run again */
    for (req_t *r = batch; r; r = r->next)
        if (r->call->flags & STORE_CALL_NEW_HASH)
            sodium_memzero(r->hash, sizeof r->hash);
    if (st->bans_changed) { /* before the answers: a ban holds once answered */
        db_busy(st, 1);
        store_bans_refresh(st);
        db_busy(st, 0);
    }
    /* its games not written are held, to be written once writes work
     * (counted lost only if they never are) */
    store_held_keep(st, &batch, b.ok);
    uv_mutex_lock(&st->mu);
    st->stats.games_written += b.written;
    st->stats.progress_written += b.prog_written;
    st->stats.progress_dropped += b.progress - b.prog_written;
    st->stats.batches++;
    if (n > st->stats.largest_batch)
        st->stats.largest_batch = n;
    uv_mutex_unlock(&st->mu);
    answer_batch(st, batch);
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
        db_batch(st, batch, n); /* (a busy queue never waits) */
        db_busy(st, 1);
        store_held_turn(st); /* a held try between two batches, at most */
        db_busy(st, 0);
        between_batches(st);
        int64_t now = (int64_t)time(NULL);
        if (now - st->last_prune >= STORE_PRUNE_EVERY_S)
            prune(st, now);
    }
    db_busy(st, 1);
    store_held_close(st);
    store_guest_give_back(st);
    /* A last look, however soon after the one before: a file deleted in
     * the second before the stop would otherwise go unsaid and uncopied,
     * and everything in it be lost as it is closed. */
    look_now(st);
    if (st->file_moved) /* the last writes too (look_moved) */
        copy_moved(st, "as the server stops");
    db_busy(st, 0);
    sdb_close(st->db);
    st->db = NULL;
    free(st->broken);
    st->broken = NULL;
    st->nbroken = st->capbroken = 0;
    free(st->broken_was);
    st->broken_was = NULL;
    st->nbroken_was = st->capbroken_was = 0;
}

