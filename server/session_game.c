/* session_game.c - a game's life inside a session: started from the lobby,
 * fed keys through its record, handed to the store when it ends (a death
 * at once, so that a dropped connection on the YOU DIED screen loses
 * nothing), and back to the lobby.
 *
 * An account's game also lives in the store while it is played: begun with
 * the game, its new key bytes handed over once a second (sess_game_flush,
 * from the sweep) and at every disconnect, ended when the game is recorded.
 * So a dropped connection, a restart or a crash loses at most the last
 * second, and the next login continues it (session_lobby.c). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "session.h"
#include "store.h"

/* The store's row for the session's game, ended for `cause`. */
static void game_row(const sess_t *s, const char *cause, store_game_t *row)
{
    const game_t *g = s->game;
    memset(row, 0, sizeof *row);
    snprintf(row->name, sizeof row->name, "%s", lobby_player_name(&s->lobby));
    row->account_id = s->lobby.account_id;
    row->ruleset = g->opt.ruleset;
    row->seed = g->seed;
    row->score = game_score(g);
    row->depth = g->depth;
    row->turns = (int)g->turn;
    row->kills = g->kills;
    if (game_dead(g))
        game_death_cause(g, row->cause, sizeof row->cause);
    else
        snprintf(row->cause, sizeof row->cause, "%s", cause);
    row->started = s->game_started;
    row->ended = (int64_t)time(NULL);
    /* the hall of fame ranks deaths, wins and long quits (store.h) */
    row->ending = game_dead(g) ? STORE_END_DEATH
                  : cause && strcmp(cause, "quit") == 0 ? STORE_END_QUIT
                  : STORE_END_DISCONNECT;
}

/* Hands the game to the store: the store takes `g` (the session's game or
 * a copy of it) and the record's buffers. A game of no turns is not kept
 * (and freed here). Either way g is no longer the caller's. */
static void record_game(sess_t *s, game_t *g, const char *cause)
{
    store_game_t row;
    game_row(s, cause, &row);
    s->game_recorded = 1;
    if (g->turn == 0) {
        game_free(g);
        if (s->lobby.account_id > 0) /* nothing to continue either */
            store_progress_end(s->srv->store, s->lobby.account_id);
        return;
    }
    log_info("game over id=%llu name=%s seed=%llu turns=%u depth=%d score=%d "
             "cause=\"%s\"", (unsigned long long)s->id, row.name,
             (unsigned long long)row.seed, (unsigned)row.turns, row.depth,
             row.score, row.cause);
    /* The store frees g whatever happens (and logs a refusal). */
    store_end_game(s->srv->store, &row, g, &s->rec);
    if (s->lobby.account_id > 0) /* after the game, in the store's order */
        store_progress_end(s->srv->store, s->lobby.account_id);
}

void sess_game_flush(sess_t *s)
{
    if (s->state != S_PLAYING || !s->game || s->game_recorded ||
        s->lobby.account_id <= 0 || s->rec.keys.len <= s->progress_sent)
        return;
    if (!s->progress_begun) {
        /* Its begin failed (out of memory): try again, from the start; keys
         * must never be appended to the account's older game. */
        if (store_progress_begin(s->srv->store, s->lobby.account_id,
                                 s->game->seed, &s->game->opt,
                                 s->game_started) != 0)
            return;
        s->progress_begun = 1;
        s->progress_sent = 0;
    }
    size_t n = s->rec.keys.len - s->progress_sent;
    /* Refused (the queue is full): the same bytes go with the next ones. */
    if (store_progress_append(s->srv->store, s->lobby.account_id,
                              s->rec.keys.data + s->progress_sent, n) == 0) {
        s->progress_sent = s->rec.keys.len;
        log_debug("progress id=%llu bytes=%zu", (unsigned long long)s->id,
                  s->progress_sent);
    }
}

void sess_game_suspend(sess_t *s, const char *cause)
{
    if (s->game_recorded || s->lobby.account_id <= 0) {
        sess_game_end(s, cause);
        return;
    }
    sess_game_flush(s);
    log_info("game suspended id=%llu name=%s turns=%u (kept for the next login)",
             (unsigned long long)s->id, lobby_player_name(&s->lobby),
             (unsigned)s->game->turn);
    game_free(s->game);
    s->game = NULL;
    record_free(&s->rec);
    s->srv->ngames--;
}

void sess_game_continue(sess_t *s)
{
    game_t *g = s->game;
    s->game_recorded = 0;
    s->progress_begun = 1;
    s->progress_sent = s->rec.keys.len; /* the store has all of these */
    s->state = S_PLAYING;
    s->srv->ngames++;
    s->need_render = 1;
    log_info("game resumed id=%llu name=%s seed=%llu turns=%u",
             (unsigned long long)s->id, lobby_player_name(&s->lobby),
             (unsigned long long)g->seed, (unsigned)g->turn);
}

int sess_game_start(sess_t *s)
{
    game_options_t opt;
    srv_game_options(s->srv, &opt);
    game_t *g = game_new(srv_new_seed(s->srv), &opt);
    if (!g || record_init(&s->rec, g, 0) != 0) {
        game_free(g);
        record_free(&s->rec);
        sess_close(s, "out of memory", 0, NULL);
        return -1;
    }
    s->game = g;
    s->game_started = (int64_t)time(NULL);
    s->game_recorded = 0;
    s->progress_sent = 0;
    s->progress_begun = s->lobby.account_id > 0 &&
        store_progress_begin(s->srv->store, s->lobby.account_id, g->seed, &opt,
                             s->game_started) == 0;
    s->state = S_PLAYING;
    s->srv->ngames++;
    s->need_render = 1;
    log_info("game start id=%llu name=%s seed=%llu", (unsigned long long)s->id,
             lobby_player_name(&s->lobby), (unsigned long long)g->seed);
    return 0;
}

void sess_game_end(sess_t *s, const char *cause)
{
    if (!s->game)
        return;
    char why[64];
    snprintf(why, sizeof why, "%s's game has ended.", lobby_player_name(&s->lobby));
    sess_watch_detach(s, why);
    if (!s->game_recorded)
        record_game(s, s->game, cause); /* the store takes the game */
    else
        game_free(s->game);
    s->game = NULL;
    record_free(&s->rec);
    s->srv->ngames--;
}

void sess_game_key(sess_t *s, int key)
{
    game_t *g = s->game;
    if (game_dead(g)) {
        /* YOU DIED: the game is in the store already. */
        int choice = game_dead_choice(key);
        if (choice > 0) {
            sess_game_end(s, NULL);
            sess_game_start(s);
        } else if (choice < 0) {
            sess_game_end(s, NULL);
            sess_lobby_enter(s);
        }
        return;
    }
    record_key(&s->rec, g, key);
    sess_watch_forward(s, key);
    if (s->state != S_PLAYING)
        return; /* closed while it told its watchers: g is gone */
    if (game_dead(g)) {
        /* Record it now, from a copy: the YOU DIED screen still draws g. */
        game_t *copy = game_clone(g);
        if (copy)
            record_game(s, copy, NULL);
        else
            log_error("game over id=%llu: out of memory, game not recorded",
                      (unsigned long long)s->id);
        s->game_recorded = 1;
    } else if (game_over(g)) {
        sess_game_end(s, "quit");
        sess_lobby_enter(s);
    }
}
