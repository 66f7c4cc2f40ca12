/* session_lobby.c - the lobby inside a session: keys to lobby.h, the store
 * calls it asks for, and the store's answers back to it.
 *
 * Every store call passes the session as its context; the session cancels
 * them all (store_cancel) before it is freed, so an answer never reaches a
 * session that is gone. Answers arrive on the loop thread between reads,
 * so each one renders and flushes itself. */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "session.h"
#include "store.h"

void sess_lobby_enter(sess_t *s)
{
    s->state = S_LOBBY;
    s->lobby.page = LOBBY_MENU;
    s->need_render = 1;
}

void sess_lobby_draw(sess_t *s, screen_t *next)
{
    const config_t *c = &s->srv->cfg;
    lobby_info_t info = { c->server_name, c->motd, s->srv->nplaying,
                          s->srv->ngames };
    if (s->lobby.page == LOBBY_WATCH)
        sess_watch_list(s); /* as it is now: games come and go */
    lobby_draw(&s->lobby, &info, next);
}

static void on_taken(void *ctx, int status, int taken)
{
    sess_t *s = ctx;
    if (s->state != S_LOBBY)
        return;
    if (lobby_guest_checked(&s->lobby, status, taken) == LOBBY_DO_PLAY)
        sess_game_start(s);
    sess_redraw(s);
}

/* The account is logged in here now: any older session of it is told and
 * closed, and a game it was playing moves here with its record and its
 * watchers, as players expect when a link died without them noticing.
 * Returns 1 if a game was taken over. */
static int take_over(sess_t *s, int64_t account_id)
{
    int took = 0;
    sess_t *next;
    for (sess_t *o = s->srv->sessions; o; o = next) {
        next = o->next;
        if (o == s || o->state == S_CLOSING || o->state == S_NEGOTIATING ||
            o->lobby.account_id != account_id)
            continue;
        if (o->state == S_PLAYING && o->game && !took) {
            s->game = o->game;
            s->rec = o->rec;
            s->game_started = o->game_started;
            s->game_recorded = o->game_recorded;
            s->progress_sent = o->progress_sent;
            s->progress_begun = o->progress_begun;
            memset(&o->rec, 0, sizeof o->rec);
            o->game = NULL;
            s->watchers = o->watchers;
            s->nwatchers = o->nwatchers;
            for (sess_t *w = s->watchers; w; w = w->wnext)
                w->watched = s;
            o->watchers = NULL;
            o->nwatchers = 0;
            o->state = S_LOBBY; /* its game is not its to end any more */
            s->state = S_PLAYING;
            took = 1;
            /* Aiming goes on here: this terminal needs the mouse too. */
            sess_set_mouse(s, 0, game_targeting(s->game));
            log_info("takeover id=%llu takes the game of id=%llu",
                     (unsigned long long)s->id, (unsigned long long)o->id);
        }
        sess_close(o, "logged in elsewhere", 1,
                   "Your account has logged in from elsewhere. Goodbye.");
    }
    return took;
}

/* The answer to store_progress_load after a login: a game to continue is
 * rebuilt now and held (s->game, s->rec) until p. */
static void on_progress(void *ctx, const store_progress_t *pr)
{
    sess_t *s = ctx;
    if (s->state != S_LOBBY)
        return;
    lobby_waited(&s->lobby);
    if (s->game || pr->account_id != s->lobby.account_id) {
        sess_redraw(s);
        return;
    }
    if (pr->status == STORE_STALE) {
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Your game in progress was played "
                   "by another version of the server and cannot go on.");
        store_progress_end(s->srv->store, pr->account_id);
    } else if (pr->status == STORE_OK) {
        game_t *g = NULL;
        int rc = record_resume(pr->seed, &pr->opt, pr->keys, pr->len, &g, &s->rec);
        if (rc == RECORD_OK) {
            s->game = g;
            s->game_started = pr->started;
            lobby_offer_resume(&s->lobby, g->depth, (int)g->turn);
        } else {
            log_error("resume id=%llu: %s", (unsigned long long)s->id,
                      record_strerror(rc));
            lobby_note(&s->lobby, LOBBY_NOTE_BAD,
                       "Your game in progress cannot be rebuilt: %s.",
                       record_strerror(rc));
        }
    }
    sess_redraw(s);
}

/* The answer to store_get_record for a replay. */
static void on_record(void *ctx, const store_record_t *r)
{
    sess_t *s = ctx;
    if (s->state != S_LOBBY || s->lobby.page != LOBBY_BUSY)
        return;
    lobby_waited(&s->lobby); /* back to the hall of fame */
    if (s->game) /* a game of its own is held for it: that first */
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Continue your own game first.");
    else if (r->status == STORE_OK)
        sess_replay_begin(s, r->game.name, r->record, r->len);
    else
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "%s",
                   r->status == STORE_NO_RECORD ? "That game has no record to replay."
                   : "That game cannot be found now.");
    sess_redraw(s);
}

static void on_account(void *ctx, const store_account_t *a)
{
    sess_t *s = ctx;
    if (s->state != S_LOBBY)
        return;
    int registering = s->lobby.back == LOBBY_REG_NAME;
    if (a->status == STORE_OK)
        log_info("%s id=%llu name=%s", registering ? "register" : "login",
                 (unsigned long long)s->id, a->name);
    else
        log_info("%s failed id=%llu: %s", registering ? "register" : "login",
                 (unsigned long long)s->id, store_status_name(a->status));
    if (lobby_account_done(&s->lobby, a) == LOBBY_DO_QUIT) {
        sess_close(s, "too many failed logins", 1,
                   "Too many failed logins. Goodbye.");
        return;
    }
    if (a->status == STORE_OK && !registering && !take_over(s, a->id)) {
        if (store_progress_load(s->srv->store, a->id, on_progress, s) == 0)
            lobby_wait(&s->lobby); /* no new game before the answer */
        else
            log_error("resume id=%llu: the store is busy",
                      (unsigned long long)s->id);
    }
    sess_redraw(s);
}

static void on_scores(void *ctx, const store_scores_t *sc)
{
    sess_t *s = ctx;
    if (s->state != S_LOBBY)
        return;
    lobby_scores_done(&s->lobby, sc);
    sess_redraw(s);
}

/* Carries out what the lobby asked for. */
static void act(sess_t *s, int action)
{
    lobby_t *l = &s->lobby;
    store_t *st = s->srv->store;
    store_account_t fail = { STORE_ERROR, 0, "" };
    switch (action) {
    case LOBBY_DO_PLAY:
        if (s->game)
            sess_game_continue(s); /* held since the login */
        else
            sess_game_start(s);
        break;
    case LOBBY_DO_LOGOUT:
        /* A game held for the account stays in the store, not here. */
        game_free(s->game);
        s->game = NULL;
        record_free(&s->rec);
        break;
    case LOBBY_DO_CHECK_GUEST:
        if (store_name_taken(st, l->name, on_taken, s) != 0)
            lobby_guest_checked(l, STORE_ERROR, 1);
        break;
    case LOBBY_DO_LOGIN:
    case LOBBY_DO_REGISTER: {
        int rc = action == LOBBY_DO_LOGIN
            ? store_login(st, l->name, lobby_take_password(l), on_account, s)
            : store_register(st, l->name, lobby_take_password(l), on_account, s);
        lobby_wipe_password(l); /* the store has its own copy */
        if (rc != 0)
            lobby_account_done(l, &fail);
        break;
    }
    case LOBBY_DO_SCORES: {
        const char *me = lobby_player_name(l);
        store_scores_t none;
        if (store_scores(st, STORE_TOP_MAX, me[0] ? me : NULL, on_scores, s) != 0) {
            memset(&none, 0, sizeof none);
            none.status = STORE_ERROR;
            lobby_scores_done(l, &none);
        }
        break;
    }
    case LOBBY_DO_WATCH:
        sess_watch_start(s, l->pick_id);
        break;
    case LOBBY_DO_REPLAY:
        if (store_get_record(st, (int64_t)l->pick_id, on_record, s) != 0) {
            lobby_waited(l);
            lobby_note(l, LOBBY_NOTE_BAD, "The server is busy: try again.");
        }
        break;
    case LOBBY_DO_QUIT:
        sess_close(s, "quit", 1, "Thanks for playing. Goodbye!");
        break;
    default:
        break;
    }
}

void sess_lobby_key(sess_t *s, int key)
{
    act(s, lobby_key(&s->lobby, key));
}
