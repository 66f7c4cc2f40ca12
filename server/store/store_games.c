/* store_games.c - finished games in the store (store.h): store_add_game
 * and store_end_game (whose record is finished and encoded on the
 * database thread, off the loop), bounded by the queue's limits and
 * written in batches, answering nobody; and store_flush, which answers
 * once everything queued before it is written. store_impl.h tells how a
 * request moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store_impl.h"

/* --- the database thread ----------------------------------------------------- */

/* store_end_game's half on this thread: the final hash and the encoding,
 * off the loop. A record that fails (it cannot: a finished game's record
 * fits RECORD_ENCODED_MAX) is left out and the game kept. */
static void finish_record(store_t *st, req_t *r)
{
    buf_t out;
    buf_init(&out, RECORD_ENCODED_MAX);
    if (record_finish(&r->rec, r->played) == 0 &&
        record_encode(&r->rec, &out) == 0) {
        /* its allocation is the request's now, no larger than its bytes:
         * a held game's memory is what the queue's bound counts */
        void *fit = realloc(out.data, out.len ? out.len : 1);
        r->record = fit ? fit : out.data;
        r->record_len = out.len;
    } else {
        buf_free(&out);
        log_error("store: %s: a game of %s stored without its record",
                  st->path, r->game.name);
    }
    /* the recorder's buffers are not needed again (a run again or a held
     * try writes r->record): freed now, not when the request is */
    record_free(&r->rec);
}

/* Returns 1 if the game was written (counted in games_written; not a
 * game whose token is in already), and sets r->status to STORE_OK if its
 * row is in (a game not in is held: store_held.c).
 * The record is finished once, at the first run of the batch: a run
 * again, or a held game's try, writes the same bytes (or, had it failed,
 * the same game without), with the same token, so that a game whose row
 * is in already (a COMMIT whose answer was lost) is not a second row. */
static int game_db(store_t *st, req_t *r, int ok)
{
    if (r->played) {
        if (!r->record)
            finish_record(st, r);
        game_free(r->played);
        r->played = NULL;
    }
    /* in: its row is in (1: it was already, and nothing was written) */
    int in = ok ? sdb_insert_game(st->db, &r->game, r->record,
                                  r->record_len)
                : -1;
    /* a held game whose account's end was lost with its batch ends the
     * game in progress with it, in one transaction (store_held.c) */
    if (in >= 0 && r->end_owed &&
        store_progress_end_now(st, r->game.account_id, r->claim, r->owed_seed,
                               r->owed_started) != 0)
        in = -1;
    r->status = in >= 0 ? STORE_OK : STORE_ERROR;
    return in == 0;
}

static int flush_db(store_t *st, req_t *r, int ok)
{
    (void)st;
    (void)ok;
    r->status = STORE_OK;
    r->phase = PH_DONE;
    return 0;
}

static const store_call_t game_call = {
    .name = "game", .db = game_db,
    .flags = STORE_CALL_SILENT | STORE_CALL_GAME,
};
static const store_call_t flush_call = {
    .name = "flush", .db = flush_db, .answer = store_answer_done,
    .undo = store_undo_error,
};

/* --- the loop thread ----------------------------------------------------------- */

/* Logs the first of a run of refusals and then every 1000th: a full
 * queue must not also flood the log. */
static void log_refusal(store_t *st, uint64_t *count, const char *what,
                        const char *name)
{
    uv_mutex_lock(&st->lmu);
    uint64_t n = ++*count;
    uv_mutex_unlock(&st->lmu);
    if (n % 1000 == 1)
        log_error("store: %s (a game of %s; %llu so far)", what, name,
                  (unsigned long long)n);
}

/* A game request for g, checked and counted against the queue's limits, or
 * NULL (refused, logged; or *skip: a guest's game too short to keep).
 * *drop: over the byte cap, keep no record. */
static req_t *game_req(store_t *st, const store_game_t *g, size_t bytes,
                       int *drop, int *skip)
{
    *skip = g->account_id <= 0 && g->turns < st->opt.guest_min_turns;
    if (*skip) {
        uv_mutex_lock(&st->mu);
        st->stats.guests_skipped++;
        uv_mutex_unlock(&st->mu);
        return NULL;
    }
    size_t cause_len = strnlen(g->cause, sizeof g->cause);
    if (!acct_name_valid(g->name, NULL, 0) || cause_len == sizeof g->cause ||
        !acct_text_is_safe(g->cause, cause_len)) {
        log_error("store: a game with a malformed name or cause refused");
        return NULL;
    }
    uv_mutex_lock(&st->mu);
    uint64_t games = st->q_games, queued = st->q_bytes;
    uv_mutex_unlock(&st->mu);
    if (games >= (uint64_t)st->opt.max_queued_games) {
        log_refusal(st, &st->refused, "too many games waiting for the disk: lost",
                    g->name);
        return NULL;
    }
    req_t *r = calloc(1, sizeof *r);
    if (!r) {
        log_refusal(st, &st->refused, "out of memory: game lost", g->name);
        return NULL;
    }
    *drop = bytes && queued + bytes > st->opt.max_queued_bytes;
    if (*drop)
        log_refusal(st, &st->dropped, "too many record bytes waiting: a game "
                    "stored without its record", g->name);
    r->st = st;
    r->call = &game_call;
    r->phase = PH_DB;
    r->game = *g;
    while (r->game.token == 0) /* (a random key: no two hosts share one) */
        randombytes_buf(&r->game.token, sizeof r->game.token);
    return r;
}

static void game_queue(store_t *st, req_t *r, int drop)
{
    uv_mutex_lock(&st->mu);
    st->q_games++;
    st->q_bytes += r->qbytes;
    st->stats.records_dropped += (uint64_t)drop;
    int closed = store_db_post(st, r) != 0;
    if (closed) {
        st->q_games--;
        st->q_bytes -= r->qbytes;
        st->stats.games_lost++;
    }
    uv_mutex_unlock(&st->mu);
    if (closed) {
        log_error("store: %s: a game of %s after the store closed: lost",
                  st->path, r->game.name);
        store_req_free(r);
    }
}

int store_add_game(store_t *st, const store_game_t *g, const void *record,
                   size_t len)
{
    int drop = 0, skip;
    req_t *r = game_req(st, g, record ? len : 0, &drop, &skip);
    if (!r)
        return skip ? 0 : -1;
    if (record && !drop) {
        r->record = malloc(len ? len : 1);
        if (r->record) {
            memcpy(r->record, record, len);
            r->record_len = r->qbytes = len;
        } else {
            drop = 1;
        }
    }
    game_queue(st, r, drop && record);
    return 0;
}

int store_end_game(store_t *st, const store_game_t *g, game_t *game,
                   record_t *rec)
{
    int drop = 0, skip;
    /* the record is ours from here, whatever happens */
    record_t taken = *rec;
    memset(rec, 0, sizeof *rec);
    size_t bytes = taken.keys.len + taken.checks.len;
    req_t *r = game_req(st, g, bytes, &drop, &skip);
    if (!r || drop) {
        game_free(game);
        record_free(&taken);
        if (!r)
            return skip ? 0 : -1;
    } else {
        r->played = game;
        r->rec = taken;
        r->qbytes = bytes;
    }
    game_queue(st, r, drop);
    return 0;
}


int store_flush(store_t *st, store_done_cb cb, void *ctx)
{
    req_t *r = store_req_new(st, &flush_call, ctx);
    if (!r)
        return -1;
    r->cb.done = cb;
    store_db_submit(st, r);
    return 0;
}