/* session_lobby.c - S_LOBBY: keys to the lobby (lobby.h), the store calls
 * it asks for and their answers, and the conversations that start here:
 * watching a game (WATCH_JOIN) and taking an account's game over from an
 * older connection (TAKEOVER).
 *
 * Every store call passes the session as its context; the session cancels
 * them all (store_cancel) before it is freed, so an answer never reaches a
 * session that is gone. An answer that finds the session in another state
 * is dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "ban_list.h"
#include "cluster.h"
#include "log.h"
#include "rebuild.h"
#include "session.h"
#include "site.h"
#include "store.h"

/* Sessions of one account that a login can take over at once. */
#define TAKEOVER_MAX 16

static void take_over(sess_t *s);
static void act(sess_t *s, int action);

/* A site page's terminal (/ws?watch=ID, ?replay=ID: site.h) goes straight
 * to that game, as if picked from the lobby's lists; once. */
static void site_start(sess_t *s)
{
    int what = s->site_start;
    s->site_start = SITE_START_NONE;
    s->lobby.pick_id = s->site_start_id;
    lobby_wait(&s->lobby);
    act(s, what == SITE_START_WATCH ? LOBBY_DO_WATCH : LOBBY_DO_REPLAY);
}

static int lobby_enter(sess_t *s, void *arg)
{
    (void)arg;
    s->lobby.page = LOBBY_MENU;
    if (s->site_start != SITE_START_NONE) {
        site_start(s);
        return 0;
    }
    /* logged in by an SSH key as the connection came: as after a login */
    if (lobby_take_key_login(&s->lobby))
        take_over(s);
    return 0;
}

static void lobby_leave(sess_t *s)
{
    st_lobby_t *l = &s->st.lobby;
    lobby_note_clear(&s->lobby); /* said for a step now over */
    sodium_memzero(l->new_password, sizeof l->new_password);
    owned_game_free(&l->held); /* the store keeps it for the next login */
    if (l->rebuild_job)
        sess_rebuild_cancel(s);
    msg_game_free(l->taken);
    l->taken = NULL;
}

static void lobby_draw_page(sess_t *s, screen_t *next)
{
    srv_t *srv = s->srv;
    lobby_info_t info = { srv->cfg.server_name, srv->cfg.motd,
                          srv_online(srv), (int)dir_ngames(srv->dir), NULL,
                          NULL };
    /* the latest news (news.h); the sweep redraws when there is more */
    news_line_t news;
    s->st.lobby.news_seen = news_seq(&srv->sh->news);
    if (news_latest(&srv->sh->news, &news, 1) == 1)
        info.news = news.text;
    cluster_t *cl = srv_cluster(srv);
    if (cl) { /* the other hosts' players too */
        cluster_counts_t cc;
        cluster_counts(cl, &cc);
        info.online += cc.online;
        info.playing += cc.playing;
        if (!cc.up)
            info.hosts = "other hosts unavailable";
    }
    if (s->lobby.page == LOBBY_WATCH && s->lobby.watch) {
        /* As it is now: games come and go. */
        dir_entry_t games[LOBBY_WATCH_MAX];
        int n = dir_games(srv->dir, s->id, games, LOBBY_WATCH_MAX);
        uint64_t now = sess_now(s);
        for (int i = 0; i < n; i++) {
            lobby_game_t *g = &s->lobby.watch[i];
            g->session_id = games[i].id;
            snprintf(g->name, sizeof g->name, "%s", games[i].game.name);
            g->depth = games[i].game.depth;
            g->turns = games[i].game.turns;
            g->idle_s = (int)((now - games[i].game.last_input_ms) / 1000);
            g->watchers = games[i].game.watchers;
        }
        if (cl) /* then the other hosts' (remote ids: cluster.h) */
            n += cluster_games(cl, s->lobby.watch + n, LOBBY_WATCH_MAX - n);
        s->lobby.nwatch = n;
    }
    lobby_draw(&s->lobby, &info, next);
}

/* --- store answers ------------------------------------------------------------ */

/* Plays on a game rebuilt from its keys (a takeover) or held since the
 * login. */
static void play_on(sess_t *s, play_arg_t *a)
{
    s->progress_known = 1; /* the game here is the account's */
    sess_goto(s, S_PLAYING, a);
    owned_game_free(&a->g); /* only if the state did not take it */
    free(a->watchers);
}

static void load_progress(sess_t *s);

/* The account's saved game cannot be loaded now (its rebuild failed, or
 * could not be asked for): said, and p asks again. */
static void kept_for_now(sess_t *s)
{
    lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Your saved game could not be "
               "loaded right now: it is kept. p tries again.");
}

/* A game rebuilt off the loop for this lobby (rebuild.h): a takeover goes
 * on at once; a saved game is held until p. */
static void rebuilt(sess_t *s, smsg_t *m)
{
    st_lobby_t *l = &s->st.lobby;
    msg_rebuilt_t *r = m->rebuilt;
    int takeover = l->rebuild_takeover;
    l->rebuild_job = 0;
    lobby_waited(&s->lobby);
    sess_owe_frame(s);
    if (r->err != RECORD_OK) {
        log_error("%s id=%llu: the game does not rebuild: %s",
                  takeover ? "takeover" : "resume", (unsigned long long)s->id,
                  record_strerror(r->err));
        if (takeover) {
            /* Its watchers were moved here: send them back. */
            for (int i = 0; i < r->src->nwatchers; i++)
                sess_post(s, MSG_WATCH_END, r->src->watchers[i], 0, NULL,
                          "The game you watched has ended.");
            load_progress(s); /* the store's copy, then */
        } else if (r->err == RECORD_ENOMEM) {
            /* Kept, and p asks for it again: the store's game stays
             * unknown here (sess_t.progress_known). */
            kept_for_now(s);
        } else {
            /* A damaged or drifted record is still the player's game (a
             * host may mend it), which a new game's beginning would end
             * for good: kept too, unless the player says to end it. */
            lobby_saved_broken(&s->lobby);
        }
        return;
    }
    owned_game_t g = { r->game, r->rec, r->src->started };
    r->game = NULL;
    memset(&r->rec, 0, sizeof r->rec); /* moved */
    if (!takeover) {
        l->held = g;
        lobby_offer_resume(&s->lobby, g.game->depth, (int)g.game->turn);
        if (l->saved_here)
            lobby_note(&s->lobby, LOBBY_NOTE_GOOD, LOBBY_SAID_SAVED);
        return;
    }
    play_arg_t a;
    memset(&a, 0, sizeof a);
    a.g = g;
    /* the game goes on as the login it was handed from (same host, or
     * the process before an upgrade): the store has it under that claim */
    if (r->src->claim > s->claim)
        s->claim = r->src->claim;
    a.progress_begun = r->src->progress_begun;
    a.progress_sent = r->src->progress_sent;
    a.watchers = r->src->watchers; /* moved */
    a.nwatchers = r->src->nwatchers;
    r->src->watchers = NULL;
    r->src->nwatchers = 0;
    a.resumed = 1;
    a.rewatch = r->src->rewatch;
    play_on(s, &a);
}

/* Rebuilds src off the loop for this lobby; "One moment..." meanwhile.
 * Returns 0, or -1 (refused, said on the lobby: src freed). */
static int ask_rebuild(sess_t *s, msg_game_t *src, int takeover)
{
    st_lobby_t *l = &s->st.lobby;
    l->rebuild_job = ++s->jobs;
    l->rebuild_takeover = (uint8_t)takeover;
    int rc = sess_rebuild(s, l->rebuild_job, src, 1);
    if (rc != 0) {
        l->rebuild_job = 0;
        log_error("%s id=%llu: no rebuild: %s", takeover ? "takeover" :
                  "resume", (unsigned long long)s->id, rebuild_refusal(rc));
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "%s", rebuild_refusal(rc));
        return -1; /* (the store keeps it: p asks for it again) */
    }
    lobby_wait(&s->lobby);
    return 0;
}

static void on_progress(void *ctx, const store_progress_t *pr);

/* The account's game in progress could not be looked up: said, and p
 * asks again (sess_t.progress_known). */
static void lookup_failed(sess_t *s, const char *why)
{
    s->play_if_none = 0;
    log_info("progress id=%llu: not looked up (%s); p asks again",
             (unsigned long long)s->id, why);
    if (s->registered)
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "The server could not begin "
                   "your game now. p tries again.");
    else
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Your saved game could not be "
                   "looked up: it is kept. p looks again.");
    sess_owe_frame(s);
}

/* The lobby's wait for the store begins: store_wait_ms counts from now,
 * for this wait (busy_gen) only. */
static void store_wait_start(sess_t *s)
{
    s->st.lobby.store_asked_ms = sess_now(s);
    s->st.lobby.store_gen = s->lobby.busy_gen;
}

/* After a login (and any takeover): ask the store for a game to continue.
 * Until it answers, no game begins (p waits, then asks again): a new
 * game's beginning ends the saved one. A store that does not answer
 * within store_wait_ms is said as for any lobby request. */
static void load_progress(sess_t *s)
{
    s->progress_known = 0;
    if (store_progress_load(s->srv->store, s->lobby.account_id, on_progress,
                            s) != 0) {
        lookup_failed(s, "the store is busy");
        return;
    }
    lobby_wait(&s->lobby);
    store_wait_start(s);
}

/* A load's answer: its claim is the account's latest now, and whatever
 * this session writes after is written as it, or would be refused. */
static void on_claim(sess_t *s, const store_progress_t *pr)
{
    if (pr->account_id == s->lobby.account_id && pr->claim > s->claim)
        s->claim = pr->claim;
}

/* The answer to store_progress_load after a login: a game to continue is
 * rebuilt now and held until p. */
static void on_progress(void *ctx, const store_progress_t *pr)
{
    sess_t *s = ctx;
    on_claim(s, pr);
    if (s->state != S_LOBBY)
        return;
    st_lobby_t *l = &s->st.lobby;
    lobby_waited(&s->lobby);
    sess_owe_frame(s);
    if (l->held.game || pr->account_id != s->lobby.account_id)
        return;
    if (pr->status == STORE_ERROR) {
        lookup_failed(s, "the store failed");
        return;
    }
    int play = s->play_if_none;
    s->play_if_none = 0;
    /* answered: from now on the account has, or had, a game of its own,
     * and a failed lookup is said as one of a saved game */
    s->registered = 0;
    /* none, or one this core cannot go on (ended below): p begins a game;
     * a game to rebuild is held (or, refused for now, asked for again) */
    s->progress_known = pr->status != STORE_OK;
    if (pr->status == STORE_NOT_FOUND && play) {
        sess_goto(s, S_PLAYING, NULL); /* p was pressed for this */
        return;
    }
    if (pr->status == STORE_STALE) {
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Your game in progress was played "
                   "by another version of the server and cannot go on.");
        store_progress_end(s->srv->store, pr->account_id, s->claim);
    } else if (pr->status == STORE_OK) {
        buf_t keys = { (char *)pr->keys, pr->len, pr->len, pr->len };
        buf_t none = { NULL, 0, 0, 0 };
        buf_t checks = { (char *)pr->snap_checks, pr->snap_checks_len,
                         pr->snap_checks_len, pr->snap_checks_len };
        int snap = pr->snap && pr->snap_version == GAME_VERSION;
        if (pr->snap && !snap)
            log_error("resume id=%llu: the snapshot at key %u is of core "
                      "version %u, not %u: replayed from the start",
                      (unsigned long long)s->id, (unsigned)pr->snap_keys,
                      (unsigned)pr->snap_version, (unsigned)GAME_VERSION);
        /* with the snapshot (and the checks up to it), only the tail is
         * replayed (rebuild.h) */
        msg_game_t *src = msg_game_new(pr->seed, &pr->opt, pr->started, &keys,
                                       snap ? &checks : &none);
        if (src && snap && (src->snap = game_clone(pr->snap))) {
            src->snap_keys = pr->snap_keys;
            src->snap_pos = pr->snap_pos;
        }
        if (!src) {
            log_error("resume id=%llu: out of memory", (unsigned long long)s->id);
            kept_for_now(s);
        } else {
            ask_rebuild(s, src, 0); /* a refusal is said on the lobby */
        }
    }
}

/* The answer to store_get_record for a replay. */
static void on_record(void *ctx, const store_record_t *r)
{
    sess_t *s = ctx;
    if (s->state != S_LOBBY || s->lobby.page != LOBBY_BUSY)
        return;
    lobby_waited(&s->lobby); /* back to the hall of fame */
    sess_owe_frame(s);
    if (s->st.lobby.held.game) { /* a game of its own waits: that first */
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Continue your own game first.");
    } else if (r->status == STORE_OK) {
        replay_arg_t a = { r->game.name, r->record, r->len };
        sess_goto(s, S_REPLAY, &a);
    } else {
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "%s",
                   r->status == STORE_NO_RECORD ? "That game has no record to replay."
                   : "That game cannot be found now.");
    }
}

int sess_lobby_play_summary(sess_t *s, msg_game_t *src)
{
    if (s->state != S_LOBBY) {
        msg_game_free(src);
        return -1;
    }
    return ask_rebuild(s, src, 1);
}

void sess_lobby_load_progress(sess_t *s)
{
    if (s->state == S_LOBBY && s->lobby.account_id > 0)
        load_progress(s);
}

int sess_lobby_take_game(sess_t *s, uint64_t from)
{
    if (s->state != S_LOBBY || sess_post(s, MSG_TAKEOVER, from, 0, NULL, NULL) != 0)
        return -1;
    s->st.lobby.takeovers_owed++;
    lobby_wait(&s->lobby);
    return 0;
}

/* The account is logged in here now: every older session of it is asked
 * to hand its game over and go (as players expect when a link died
 * without them noticing); then the store is asked for a saved game. */
static void take_over(sess_t *s)
{
    s->progress_known = 0; /* a login: the load after the takeovers tells */
    uint64_t ids[TAKEOVER_MAX];
    int n = dir_sessions_of(s->srv->dir, s->lobby.account_id, s->id, ids,
                            TAKEOVER_MAX);
    for (int i = 0; i < n; i++)
        if (sess_post(s, MSG_TAKEOVER, ids[i], 0, NULL, NULL) == 0)
            s->st.lobby.takeovers_owed++;
    /* and on other hosts: they flush its game to the database and let go */
    if (srv_cluster(s->srv) &&
        sess_post(s, MSG_TAKEOVER, CLUSTER_TAKEOVER_ID, s->lobby.account_id,
                  NULL, NULL) == 0)
        s->st.lobby.takeovers_owed++;
    if (s->st.lobby.takeovers_owed > 0)
        lobby_wait(&s->lobby);
    else
        load_progress(s);
}

static void on_account(void *ctx, const store_account_t *a)
{
    sess_t *s = ctx;
    sess_hash_end(s);
    if (s->state != S_LOBBY)
        return;
    int registering = s->lobby.back == LOBBY_REG_NAME;
    char tried[ACCT_NAME_MAX * 4 + 1];
    if (a->status == STORE_OK)
        log_info("%s id=%llu name=%s", registering ? "register" : "login",
                 (unsigned long long)s->id, a->name);
    else
        log_info("%s failed id=%llu name=\"%s\": %s",
                 registering ? "register" : "login", (unsigned long long)s->id,
                 log_safe(s->lobby.name, tried, sizeof tried),
                 store_status_name(a->status));
    sess_owe_frame(s);
    if (lobby_account_done(&s->lobby, a) == LOBBY_DO_QUIT) {
        sess_close(s, "too many failed logins", 1,
                   "Too many failed logins. Goodbye.");
        return;
    }
    if (a->status == STORE_OK) {
        dir_set_account(s->srv->dir, s->id, a->id);
        /* The account's display choice; a new account keeps the one made
         * here as a guest. */
        if (registering && s->display_choice != DISPLAY_CHOICE_AUTO)
            sess_keep_display_choice(s);
        else if (!registering)
            sess_set_display_choice(s, a->display);
        /* A new account has no other session to take over, and its
         * claim is taken by p's load as after a login's (act_play): a
         * game begun under no claim would write over a later login's
         * elsewhere (claim 0 writes as before the claims). */
        s->registered = (uint8_t)registering;
        if (!registering)
            take_over(s);
        else
            s->progress_known = 0; /* (a guest's game handed here set it) */
    }
}

/* The end of a password change: the store's answer, or the present
 * password's refusal. */
static void password_changed(sess_t *s, int status)
{
    sodium_memzero(s->st.lobby.new_password, sizeof s->st.lobby.new_password);
    log_info("password change id=%llu name=%s: %s", (unsigned long long)s->id,
             s->lobby.account, store_status_name(status));
    sess_owe_frame(s);
    if (lobby_password_changed(&s->lobby, status) == LOBBY_DO_QUIT)
        sess_close(s, "too many failed logins", 1,
                   "Too many failed logins. Goodbye.");
}

static void on_password_set(void *ctx, int status)
{
    sess_t *s = ctx;
    if (s->state == S_LOBBY)
        password_changed(s, status);
}

/* The present password was checked: then the new one is set. */
static void on_password_checked(void *ctx, const store_account_t *a)
{
    sess_t *s = ctx;
    sess_hash_end(s);
    if (s->state != S_LOBBY)
        return;
    if (a->status != STORE_OK || a->id != s->lobby.account_id) {
        password_changed(s, a->status == STORE_OK ? STORE_BAD_LOGIN : a->status);
        return;
    }
    if (store_set_password(s->srv->store, a->id, s->st.lobby.new_password,
                           on_password_set, s) != 0)
        password_changed(s, STORE_ERROR);
    sodium_memzero(s->st.lobby.new_password, sizeof s->st.lobby.new_password);
}

static void on_scores(void *ctx, const store_scores_t *sc)
{
    sess_t *s = ctx;
    if (s->state != S_LOBBY)
        return;
    lobby_scores_done(&s->lobby, sc);
    sess_owe_frame(s);
}

/* --- keys ------------------------------------------------------------------------- */

/* The lobby's actions (lobby.h, enum lobby_action), one function each,
 * found in the table below: the lobby asks, the session does it with the
 * store, the directory or a message. */

static void act_play(sess_t *s, int action)
{
    st_lobby_t *st = &s->st.lobby;
    (void)action;
    if (!st->held.game && !s->progress_known && s->lobby.account_id > 0) {
        /* the saved game first: p again only if there is none */
        s->play_if_none = 1;
        load_progress(s);
        return;
    }
    if (st->held.game) { /* held since the login */
        play_arg_t a;
        memset(&a, 0, sizeof a);
        a.g = st->held;
        memset(&st->held, 0, sizeof st->held); /* moved */
        a.progress_begun = 1;
        a.progress_sent = a.g.rec.keys.len; /* the store has all of these */
        a.resumed = 1;
        play_on(s, &a);
    } else {
        sess_goto(s, S_PLAYING, NULL); /* (progress_known already) */
    }
}

/* n after a saved game that cannot be rebuilt: the player ends it, and
 * the new game begins under the claim its load took. */
static void act_play_new(sess_t *s, int action)
{
    log_info("resume id=%llu: the saved game that does not rebuild is "
             "ended by its player", (unsigned long long)s->id);
    s->progress_known = 1;
    act_play(s, action);
}

static void act_logout(sess_t *s, int action)
{
    (void)action;
    /* A game held for the account stays in the store, not here. */
    owned_game_free(&s->st.lobby.held);
    s->registered = 0;
    dir_set_account(s->srv->dir, s->id, 0);
    s->claim = 0; /* the account's: the next login's load takes its own */
}

/* LOBBY_DO_LOGIN and LOBBY_DO_REGISTER. */
static void act_account(sess_t *s, int action)
{
    lobby_t *l = &s->lobby;
    store_t *store = s->srv->store;
    store_account_t fail = { STORE_ERROR, 0, "", 0 };
    /* What one address may ask of the hashing everyone shares. */
    const char *no = NULL, *why = NULL;
    char banned[160];
    int64_t until;
    if (store_banned_name(store, l->name, ban_now_ms(), &until)) {
        char subject[ACCT_NAME_MAX + 16];
        snprintf(subject, sizeof subject, "The name %.20s", l->name);
        ban_say(banned, sizeof banned, subject, until);
        no = banned;
        why = "a banned name";
    } else if (action == LOBBY_DO_REGISTER &&
        addr_register(s->srv->addrs, s->ip, sess_now(s)) != 0) {
        no = "Too many accounts were made from your address: try again "
             "in an hour.";
        why = "too many accounts from this address";
    } else if (sess_hash_begin(s) != 0) {
        no = "Logins from your address are being checked already: try "
             "again in a moment.";
        why = "too many checks in flight from this address";
    }
    if (no) {
        lobby_wipe_password(l);
        lobby_account_done(l, &fail);
        lobby_note(l, LOBBY_NOTE_BAD, "%s", no);
        log_info("%s refused id=%llu from %s: %s",
                 action == LOBBY_DO_LOGIN ? "login" : "register",
                 (unsigned long long)s->id, s->ip, why);
        return;
    }
    int rc = action == LOBBY_DO_LOGIN
        ? store_login_from(store, l->name, s->ip, lobby_take_password(l),
                           on_account, s)
        : store_register_from(store, l->name, s->ip, lobby_take_password(l),
                              on_account, s);
    lobby_wipe_password(l); /* the store has its own copy */
    if (rc != 0) {
        sess_hash_end(s);
        lobby_account_done(l, &fail);
    }
}

static void act_change_password(sess_t *s, int action)
{
    lobby_t *l = &s->lobby;
    st_lobby_t *st = &s->st.lobby;
    (void)action;
    /* The present password is checked as a login is (and counted as
     * one per address); the new one waits here meanwhile. */
    snprintf(st->new_password, sizeof st->new_password, "%s",
             lobby_take_new_password(l));
    if (sess_hash_begin(s) != 0) {
        lobby_password_changed(l, STORE_SLOW_DOWN);
        sodium_memzero(st->new_password, sizeof st->new_password);
    } else if (store_login_from(s->srv->store, l->account, s->ip,
                                lobby_take_password(l),
                                on_password_checked, s) != 0) {
        sess_hash_end(s);
        sodium_memzero(st->new_password, sizeof st->new_password);
        lobby_password_changed(l, STORE_ERROR);
    }
    lobby_wipe_password(l); /* the store and st have their copies */
}

static void act_scores(sess_t *s, int action)
{
    lobby_t *l = &s->lobby;
    (void)action;
    const char *me = lobby_player_name(l);
    store_scores_t none;
    if (store_scores(s->srv->store, STORE_TOP_MAX, me[0] ? me : NULL,
                     on_scores, s) != 0) {
        memset(&none, 0, sizeof none);
        none.status = STORE_ERROR;
        lobby_scores_done(l, &none);
    }
}

static void act_watch(sess_t *s, int action)
{
    lobby_t *l = &s->lobby;
    st_lobby_t *st = &s->st.lobby;
    (void)action;
    if (st->held.game) { /* a game of its own waits: that first */
        lobby_note(l, LOBBY_NOTE_BAD, "Continue your own game first.");
    } else if (l->pick_id != s->id &&
               sess_post(s, MSG_WATCH_JOIN, l->pick_id, 0, NULL, NULL) == 0) {
        st->watch_asked = l->pick_id;
        lobby_wait(l);
    }
}

static void act_replay(sess_t *s, int action)
{
    lobby_t *l = &s->lobby;
    (void)action;
    if (store_get_record(s->srv->store, (int64_t)l->pick_id, on_record,
                         s) != 0) {
        lobby_waited(l);
        lobby_note(l, LOBBY_NOTE_BAD, "The server is busy: try again.");
    }
}

static void act_quit(sess_t *s, int action)
{
    (void)action;
    sess_close(s, "quit", 1, "Thanks for playing. Goodbye!");
}

static void (*const actions[])(sess_t *s, int action) = {
    [LOBBY_DO_PLAY] = act_play,
    [LOBBY_DO_PLAY_NEW] = act_play_new,
    [LOBBY_DO_LOGOUT] = act_logout,
    [LOBBY_DO_CHECK_GUEST] = sess_names_act, /* session_names.c */
    [LOBBY_DO_CHECK_NAME] = sess_names_act,
    [LOBBY_DO_LOGIN] = act_account,
    [LOBBY_DO_REGISTER] = act_account,
    [LOBBY_DO_CHANGE_PASSWORD] = act_change_password,
    [LOBBY_DO_SCORES] = act_scores,
    [LOBBY_DO_WATCH] = act_watch,
    [LOBBY_DO_REPLAY] = act_replay,
    [LOBBY_DO_QUIT] = act_quit,
    [LOBBY_DO_KEYS_LIST] = sess_keys_act,   /* session_keys.c */
    [LOBBY_DO_KEY_ADD] = sess_keys_act,
    [LOBBY_DO_KEY_REMOVE] = sess_keys_act,
};

/* Carries out what the lobby asked for. */
static void act(sess_t *s, int action)
{
    if (action > 0 && action < (int)(sizeof actions / sizeof actions[0]) &&
        actions[action])
        actions[action](s, action);
}


/* Whether an action waits for the store's answer. */
static int asks_store(int action)
{
    switch (action) {
    case LOBBY_DO_CHECK_GUEST:
    case LOBBY_DO_LOGIN:
    case LOBBY_DO_REGISTER:
    case LOBBY_DO_SCORES:
    case LOBBY_DO_REPLAY:
    case LOBBY_DO_CHANGE_PASSWORD:
    case LOBBY_DO_KEYS_LIST:
    case LOBBY_DO_KEY_ADD:
    case LOBBY_DO_KEY_REMOVE:
        return 1;
    default:
        return 0;
    }
}

static void lobby_key_in(sess_t *s, int key)
{
    int action = lobby_key(&s->lobby, key);
    act(s, action);
    if (asks_store(action) && s->lobby.page == LOBBY_BUSY)
        store_wait_start(s);
}

/* A store that does not answer within store_wait_ms (it hangs, or its
 * queue is long): the player is told so and may try again; the answer, if
 * it ever comes, is dropped (store_cancel). docs/hosting.md. */
/* The lobby while the server is nearly full (90% of max_sessions): a
 * short clock, lobby_full_idle_ms without a key, for those not logged in
 * (four times as long for an account), so that silent connections cannot
 * hold the slots players are waiting for. Returns 1 if s was let go. */
static int let_go_when_full(sess_t *s, uint64_t now)
{
    const config_t *c = &s->srv->cfg;
    if (!c->lobby_full_idle_ms || s->lobby.page == LOBBY_BUSY ||
        (uint64_t)srv_online(s->srv) * 10 < (uint64_t)c->max_sessions * 9)
        return 0;
    uint64_t limit = (uint64_t)c->lobby_full_idle_ms *
                     (s->lobby.account[0] ? 4u : 1u);
    if (now - s->last_input_ms < limit)
        return 0;
    log_info("let go id=%llu: idle in the lobby for %llu ms while the server "
             "is nearly full", (unsigned long long)s->id,
             (unsigned long long)(now - s->last_input_ms));
    sess_close(s, "idle in the lobby while the server is nearly full", 1,
               "The server is nearly full and you were idle: goodbye. "
               "Please come back later.");
    return 1;
}

/* Once a second: the clock while nearly full, news came since the lobby
 * was drawn (draw it again), and the store's wait. */
static void lobby_sweep(sess_t *s, uint64_t now)
{
    st_lobby_t *l = &s->st.lobby;
    if (let_go_when_full(s, now))
        return;
    if (news_seq(&s->srv->sh->news) != l->news_seen)
        sess_owe_frame(s);
    uint64_t wait = (uint64_t)s->srv->cfg.store_wait_ms;
    if (!l->store_asked_ms || now - l->store_asked_ms < wait)
        return;
    l->store_asked_ms = 0;
    if (!lobby_store_away(&s->lobby, l->store_gen))
        return; /* answered meanwhile */
    store_cancel(s->srv->store, s);
    s->play_if_none = 0; /* the p that asked is answered: try again */
    sess_hash_end(s);
    sodium_memzero(l->new_password, sizeof l->new_password);
    log_info("store away id=%llu: no answer within %llu ms; the player may "
             "try again", (unsigned long long)s->id,
             (unsigned long long)wait);
    sess_owe_frame(s);
}

/* --- messages ---------------------------------------------------------------------- */

static int lobby_msg(sess_t *s, smsg_t *m)
{
    st_lobby_t *l = &s->st.lobby;
    switch (m->type) {
    case MSG_WATCH_START:
        if (m->from != l->watch_asked) {
            /* a game it waited for once, and left: say so again */
            sess_post(s, MSG_WATCH_LEAVE, m->from, 0, NULL, NULL);
            return 1;
        }
        if (!m->game)
            return 0;
        l->watch_asked = 0;
        lobby_waited(&s->lobby);
        sess_goto(s, S_WATCHING, m);
        return 1;
    case MSG_WATCH_REFUSED:
        if (m->from == l->watch_asked) {
            l->watch_asked = 0;
            lobby_waited(&s->lobby);
            lobby_show_watch(&s->lobby);
            lobby_note(&s->lobby, LOBBY_NOTE_BAD, "%s", m->text);
            sess_owe_frame(s);
        }
        return 1;
    case MSG_WATCH_LEAVE:
        /* a watcher who waited for this player's next game went */
        follow_forget(s, m->from);
        return 1;
    case MSG_WATCH_KEY:
        /* From a game it asked to watch and no longer waits for. */
        sess_post(s, MSG_WATCH_LEAVE, m->from, 0, NULL, NULL);
        return 1;
    case MSG_TAKEOVER_DONE:
        if (l->takeovers_owed <= 0)
            return 1;
        if (m->game && !l->taken) {
            l->taken = m->game; /* the first game handed over */
            m->game = NULL;
        }
        if (--l->takeovers_owed > 0)
            return 1;
        msg_game_t *t = l->taken;
        l->taken = NULL;
        lobby_waited(&s->lobby);
        if (!t && sess_guest_take_kept(s))
            return 1; /* a page back: the old connection kept it, closing */
        if ((!t || ask_rebuild(s, t, 1) != 0) && s->lobby.account_id > 0)
            load_progress(s); /* (a guest's takeover has no store copy) */
        sess_owe_frame(s);
        return 1;
    case MSG_REBUILT:
        if (m->a == l->rebuild_job)
            rebuilt(s, m);
        return 1; /* a stale one: dropped */
    default:
        return 0;
    }
}

/* The lobby's menu opens the options screen with o or O (docs/game.md). */
static int lobby_opens_options(const sess_t *s, int key)
{
    return s->lobby.page == LOBBY_MENU && (key == 'o' || key == 'O');
}

const sess_state_ops_t sess_lobby_ops = {
    .name = "lobby",
    .enter = lobby_enter,
    .leave = lobby_leave,
    .key = lobby_key_in,
    .msg = lobby_msg,
    .draw = lobby_draw_page,
    .sweep = lobby_sweep,
    .opens_options = lobby_opens_options,
};
