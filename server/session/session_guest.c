/* session_guest.c - a browser guest's game across a dropped connection:
 * the page gets a token when the game begins, the game is kept under it
 * for guest_grace seconds when the connection ends (guest_grace.h: the
 * table every loop shares), and a page that comes back with the token in
 * time plays on. A kept game not taken back in time is recorded as the
 * disconnect it was. docs/telnet.md, "The browser"; docs/hosting.md. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "session.h"
#include "store.h"
#include "wsconn.h"

void sess_guest_started(sess_t *s)
{
    if (!s->web || s->lobby.account_id > 0 || s->srv->grace->max == 0)
        return;
    if (!s->guest_token[0] && grace_token(s->guest_token) != 0) {
        s->guest_token[0] = '\0';
        return; /* no randomness: the game is not kept, as before */
    }
    char text[8 + GRACE_TOKEN_LEN];
    snprintf(text, sizeof text, "token %s", s->guest_token);
    wsconn_send_text(s->web, text);
    /* this session plays it now (out of memory: it can only be kept) */
    grace_live_set(s->srv->grace, s->guest_token, sess_player_name(s), s->id);
}

void sess_guest_left(sess_t *s)
{
    /* A closing session's leave may keep the game: the entry goes after
     * (sess_guest_closed), so a page back in between finds one or the
     * other (sess_guest_resume). */
    if (s->guest_token[0] && !s->close.requested)
        grace_live_clear(s->srv->grace, s->guest_token, s->id);
}

void sess_guest_closed(sess_t *s)
{
    if (s->guest_token[0])
        grace_live_clear(s->srv->grace, s->guest_token, s->id);
}

int sess_guest_keep(sess_t *s, owned_game_t *g, uint64_t **watchers,
                    int *nwatchers)
{
    srv_t *srv = s->srv;
    if (!s->guest_token[0] || srv->shutting_down || !g->game)
        return 0;
    grace_game_t k;
    memset(&k, 0, sizeof k);
    k.game = g->game;
    k.rec = g->rec;
    k.started = g->started;
    k.session = s->id;
    k.watchers = *watchers;
    k.nwatchers = *nwatchers;
    /* Its watchers wait for the page, as for a player in the lobby (a
     * QA's watchers were dropped at every reload of the player's page):
     * told from here, the session they watch, and before the game is in
     * the table, where another loop's page may take it, ids and all, at
     * once. Not kept, the caller ends their watch after this. */
    for (int i = 0; i < *nwatchers; i++)
        sess_post(s, MSG_WATCH_END, (*watchers)[i], MSG_WATCH_AWAY, NULL,
                  "%s's connection dropped: waiting for them to come back.",
                  sess_player_name(s));
    unsigned turn = (unsigned)g->game->turn; /* (nor read after it) */
    if (grace_keep(srv->grace, s->guest_token, sess_player_name(s), &k,
                   sess_now(s)) != 0) {
        log_info("game not kept id=%llu name=%s: %d guests' games kept "
                 "already (guest_grace_max)", (unsigned long long)s->id,
                 sess_player_name(s), srv->grace->max);
        return 0;
    }
    log_info("game kept id=%llu name=%s turns=%u for %d s (guest_grace)",
             (unsigned long long)s->id, sess_player_name(s), turn,
             srv->cfg.guest_grace);
    *watchers = NULL; /* the kept game's now */
    *nwatchers = 0;
    memset(g, 0, sizeof *g); /* moved */
    return 1;
}

/* A message to a kept game's watcher from the session that played it
 * (k->session, gone): the one a watcher takes a move from. */
static void post_as_kept(srv_t *srv, const grace_game_t *k, int i, int type,
                         int64_t a, const char *text)
{
    smsg_t *m = msg_new(type, k->session, k->watchers[i], "%s", text);
    if (!m)
        return;
    m->a = a;
    srv_post(srv, m);
}

/* Plays on the kept game k (taken out of the table) as its guest; its
 * watchers are told the game moved here, then follow it again (each its
 * summary, as after an upgrade: sess_play_rewatch). */
static void play_kept(sess_t *s, grace_game_t *k)
{
    snprintf(s->guest_token, sizeof s->guest_token, "%s", k->token);
    lobby_set_guest(&s->lobby, k->name);
    for (int i = 0; i < k->nwatchers; i++)
        post_as_kept(s->srv, k, i, MSG_WATCH_MOVED, (int64_t)s->id, "");
    grace_moved(s->srv->grace, k->session, s->id); /* /watch/OLD follows */
    play_arg_t a;
    memset(&a, 0, sizeof a);
    a.g.game = k->game;
    a.g.rec = k->rec;
    a.g.started = k->started;
    a.watchers = k->watchers; /* moved */
    a.nwatchers = k->nwatchers;
    a.rewatch = k->nwatchers > 0;
    a.resumed = 1;
    sess_goto(s, S_PLAYING, &a);
    owned_game_free(&a.g); /* only if the state did not take it */
    for (int i = 0; i < a.nwatchers; i++) /* (nor them: moved here) */
        sess_post(s, MSG_WATCH_END, a.watchers[i], 0, NULL, "%s",
                  "The game you watched has ended.");
    free(a.watchers);
    sess_play_rewatch(s);
}

void sess_guest_resume(sess_t *s)
{
    if (!s->web || !s->web->resume[0] || s->state != S_LOBBY ||
        s->lobby.account[0] || s->site_page)
        return;
    grace_game_t k;
    int found = grace_take(s->srv->grace, s->web->resume, sess_now(s), &k);
    uint64_t old;
    char name[ACCT_NAME_MAX + 1];
    int live = !found &&
               grace_live_find(s->srv->grace, s->web->resume, &old, name);
    if (live && old != s->id) {
        /* Its old connection is not seen to have dropped yet (a phone on
         * a new network): that session hands the game over, as an
         * account's older session does (session_lobby.c, MSG_TAKEOVER). */
        snprintf(s->guest_token, sizeof s->guest_token, "%.*s",
                 GRACE_TOKEN_LEN, s->web->resume); /* checked: 32 */
        lobby_set_guest(&s->lobby, name);
        s->web->resume[0] = '\0';
        if (sess_lobby_take_game(s, old) == 0) {
            log_info("resume id=%llu takes the game of id=%llu by its token",
                     (unsigned long long)s->id, (unsigned long long)old);
        }
        return;
    }
    /* Played nowhere: kept, if the session playing it closed (on another
     * loop) between the two looks (it keeps the game before it leaves the
     * live list: sess_guest_left). */
    if (!found && !live)
        found = grace_take(s->srv->grace, s->web->resume, sess_now(s), &k);
    if (!found && !live && sess_web_login_resume(s, s->web->resume)) {
        s->web->resume[0] = '\0';
        return; /* a page's login, back */
    }
    s->web->resume[0] = '\0';
    if (!found) {
        /* gone (expired, spent, or never given): the lobby, as for
         * anyone; said (never the token) so that a host sees guessing,
         * at most one a connection (a page resumes before its size) */
        log_info("resume id=%llu: its token holds nothing here (spent, "
                 "expired or never given): the lobby",
                 (unsigned long long)s->id);
        /* the page is told why it is in the lobby, and forgets the token
         * (it would send it again at its next drop) */
        sess_web_login_ended(s);
        return;
    }
    play_kept(s, &k);
}

int sess_guest_take_kept(sess_t *s)
{
    grace_game_t k;
    if (!s->guest_token[0] || s->lobby.account_id > 0 ||
        s->state != S_LOBBY ||
        !grace_take(s->srv->grace, s->guest_token, sess_now(s), &k))
        return 0;
    log_info("resume id=%llu: the game was kept as its session closed",
             (unsigned long long)s->id);
    play_kept(s, &k);
    return 1;
}

/* Records a kept game nobody came back for (grace_drain's end), in time
 * or before the server stopped. */
static void end_kept(void *ctx, grace_game_t *k)
{
    srv_t *srv = ctx;
    for (int i = 0; i < k->nwatchers; i++)
        post_as_kept(srv, k, i, MSG_WATCH_END, 0,
                     "The game you watched has ended.");
    free(k->watchers);
    k->watchers = NULL;
    if (k->game->turn == 0) {
        game_free(k->game);
        record_free(&k->rec);
        return;
    }
    store_game_t row;
    memset(&row, 0, sizeof row);
    snprintf(row.name, sizeof row.name, "%s", k->name);
    row.ruleset = k->game->opt.ruleset;
    row.seed = k->game->seed;
    row.score = game_score(k->game);
    row.depth = k->game->depth;
    row.turns = (int)k->game->turn;
    row.kills = k->game->kills;
    /* its grace ran out, or the server stops (a shutdown, or an upgrade:
     * kept games stay with the old process) before the page came back */
    snprintf(row.cause, sizeof row.cause, "%s",
             srv->shutting_down ? "disconnected (the server stopped)"
                                : "disconnected (not back in time)");
    row.started = k->started;
    row.ended = (int64_t)time(NULL);
    row.ending = STORE_END_DISCONNECT;
    log_info("game over name=%s seed=%llu turns=%u depth=%d score=%d "
             "cause=\"%s\"", row.name, (unsigned long long)row.seed,
             (unsigned)row.turns, row.depth, row.score, row.cause);
    store_end_game(srv->store, &row, k->game, &k->rec); /* takes both */
    record_free(&k->rec);
}

void sess_guest_sweep(srv_t *srv, uint64_t now, int all)
{
    grace_drain(srv->grace, now, all, end_kept, srv);
}
