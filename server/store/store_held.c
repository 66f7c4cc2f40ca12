/* store_held.c - finished games whose batch failed, held on the database
 * thread and written once writes work again, rather than lost
 * (docs/architecture.md, "Store"; docs/hosting.md says what a host sees).
 *
 * A held game stays counted among the queued (q_games, q_bytes), so the
 * queue's bounds hold: past them a new game is refused. Its tries run
 * only while writes work (store_healthy: after a write of the store's own,
 * the probe, or a batch that wrote), one transaction at each turn of the
 * thread's loop, between the channel's batches, so that a large backlog
 * never keeps a new request waiting more than one try. A try is outside
 * the health's reckoning: one row the database always refuses must not
 * flip the health at each try. So after a try of several fails, they are
 * tried one at a time; a game that fails alone while the store's own
 * write works is the database refusing it (a constraint, a trigger), and
 * after STORE_HELD_TRIES such tries it is given up, said once with what
 * finds it (the player, the seed, the turns). When the store's own write
 * fails too, writes are failing for everyone: said as after a failed
 * batch, and the held wait for the recovery. A game written twice is
 * refused by its token (store_game_t.token: the row of a batch whose
 * COMMIT answer was lost may be in). At a close, the held get their last
 * tries; those left unwritten are logged, each. */
#include <stdint.h>
#include <stdio.h>

#include "log.h"
#include "store_impl.h"

/* Tries alone that fail, while the store's own write works, before a held
 * game is given up; and the pause after each before the next held try
 * (whatever stands in that game's way alone has that long to pass). */
#define STORE_HELD_TRIES 3
#define STORE_HELD_PAUSE_MS 1000

static uint64_t now_ms(void)
{
    return uv_hrtime() / 1000000u;
}

/* r counted among the queued (in), or no longer (a game written or
 * lost). */
static void count_queued(store_t *st, const req_t *r, int in)
{
    uv_mutex_lock(&st->mu);
    if (in) {
        st->q_games++;
        st->q_bytes += r->qbytes;
    } else {
        st->q_games--;
        st->q_bytes -= r->qbytes;
    }
    uv_mutex_unlock(&st->mu);
}

uint64_t store_held_keep(store_t *st, req_t **batch, int committed)
{
    uint64_t n = 0;
    req_t **p = batch;
    while (*p) {
        req_t *r = *p;
        if (!(r->call->flags & STORE_CALL_GAME) ||
            (committed && r->status == STORE_OK)) {
            p = &r->next;
            continue;
        }
        *p = r->next;
        r->phase = PH_DB;
        count_queued(st, r, 1);
        store_queue_push(&st->held, &st->held_tail, r);
        n++;
    }
    return n;
}

uint64_t store_held_due_in(const store_t *st)
{
    if (!st->held || st->db_quiet)
        return UINT64_MAX;
    uint64_t now = now_ms();
    return now >= st->held_after_ms ? 0 : st->held_after_ms - now;
}

/* The list head..tail back in front of the held, in its order. */
static void held_put_back(store_t *st, req_t *head, req_t *tail)
{
    tail->next = st->held;
    if (!st->held)
        st->held_tail = tail;
    st->held = head;
}

/* A held game ends unwritten: said, with what finds it, and counted. */
static void held_lose(store_t *st, req_t *r, const char *why)
{
    log_error("store: %s: a game of %s lost (seed %llu, %d turns, ended "
              "%lld): %s", st->path, r->game.name,
              (unsigned long long)r->game.seed, r->game.turns,
              (long long)r->game.ended, why);
    count_queued(st, r, 0);
    uv_mutex_lock(&st->mu);
    st->stats.games_lost++;
    uv_mutex_unlock(&st->mu);
    store_req_free(r);
}

/* The store closes and writes fail: the list and every game still held
 * are lost, without more tries (each would wait for the database). */
static void held_lose_all(store_t *st, req_t *list)
{
    const char *why = "held while writes failed, and they still failed as "
                      "the store closed";
    for (req_t *r = list, *next; r; r = next) {
        next = r->next;
        held_lose(st, r, why);
    }
    for (req_t *r = st->held, *next; r; r = next) {
        next = r->next;
        held_lose(st, r, why);
    }
    st->held = st->held_tail = NULL;
}

/* r failed alone while the store's own write works: one try more spent,
 * given up at STORE_HELD_TRIES (at a close, at once). why: the database's
 * reason. */
static void held_refused(store_t *st, req_t *r, const char *why)
{
    if (++r->tries < STORE_HELD_TRIES && !st->held_closing) {
        store_queue_push(&st->held, &st->held_tail, r);
        st->held_after_ms = now_ms() + STORE_HELD_PAUSE_MS;
        return;
    }
    char line[384];
    snprintf(line, sizeof line, "the database refused it %d times while "
             "writes worked (%s); given up", r->tries, why);
    held_lose(st, r, line);
}

/* The games of a held try that were not written: `list`, n of them. */
static void held_failed(store_t *st, req_t *list, req_t *tail, uint64_t n)
{
    if (st->held_closing && st->db_quiet) {
        held_lose_all(st, list);
        return;
    }
    if (n > 1) { /* which of them is refused is not known: one at a time */
        st->held_single = 1;
        held_put_back(st, list, tail);
        return;
    }
    char why[256];
    snprintf(why, sizeof why, "%s", sdb_errmsg(st->db));
    if (store_own_write(st)) {
        held_refused(st, list, why);
        return;
    }
    store_writes_fail(st); /* for everyone: the held wait for the probe */
    if (st->held_closing)
        held_lose_all(st, list);
    else
        held_put_back(st, list, tail);
}

/* After a held try (ok: it committed): its games written are counted and
 * freed, the rest go to held_failed. */
static void held_settle(store_t *st, req_t *batch, int ok)
{
    req_t *failed = NULL, *tail = NULL;
    uint64_t nfailed = 0, written = 0;
    for (req_t *r = batch, *next; r; r = next) {
        next = r->next;
        if (ok && r->status == STORE_OK) {
            count_queued(st, r, 0);
            store_req_free(r);
            written++;
        } else {
            store_queue_push(&failed, &tail, r);
            nfailed++;
        }
    }
    uv_mutex_lock(&st->mu);
    st->stats.games_written += written;
    uv_mutex_unlock(&st->mu);
    if (failed)
        held_failed(st, failed, tail, nfailed);
}

/* One held try: up to batch_max of the held, oldest first (one, once a
 * try of several failed), in one transaction, its statements' own lines
 * silenced (a game given up is said once, by held_lose). */
static void held_run(store_t *st)
{
    uint64_t max = st->held_single ? 1 : (uint64_t)st->opt.batch_max, n = 0;
    req_t *batch = NULL, *last = NULL;
    while (st->held && n < max) {
        req_t *r = st->held;
        st->held = r->next;
        store_queue_push(&batch, &last, r);
        n++;
    }
    if (!st->held)
        st->held_tail = NULL;
    sdb_set_quiet(st->db, 1);
    batch_run_t b = store_run_batch(st, batch);
    held_settle(st, batch, b.ok);
    sdb_set_quiet(st->db, st->db_quiet);
    if (!st->held)
        st->held_single = 0;
}

int store_held_turn(store_t *st)
{
    if (store_held_due_in(st) != 0)
        return 0;
    held_run(st);
    return 1;
}

void store_held_close(store_t *st)
{
    st->held_closing = 1; /* no pauses: each try settles a game or more */
    while (st->held)
        held_run(st);
}
