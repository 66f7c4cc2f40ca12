/* session_lobby.c - S_LOBBY: keys to the lobby (lobby.h), the store calls
 * it asks for and their answers, and the conversations that start here:
 * watching a game (WATCH_JOIN) and taking an account's game over from an
 * older connection (TAKEOVER). The account's saved game, looked up and
 * rebuilt: session_saved.c.
 *
 * Every store call passes the session as its context; the session cancels
 * them all (store_cancel) before it is freed, so an answer never reaches a
 * session that is gone. An answer that finds the session in another state
 * is dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ban_list.h"
#include "cluster.h"
#include "log.h"
#include "session.h"
#include "session_saved.h"
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
    /* a watch follows a browser guest's game to the session its page
     * came back on */
    s->lobby.pick_id = what == SITE_START_WATCH
        ? grace_moved_to(s->srv->grace, s->site_start_id) : s->site_start_id;
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
    owned_game_free(&l->held); /* the store keeps it for the next login */
    if (l->rebuild_job)
        sess_rebuild_cancel(s);
    msg_game_free(l->taken);
    l->taken = NULL;
}

/* The watch list as it is now (games come and go), from the directory
 * and the other hosts' (remote ids: cluster.h); none while it shows no
 * list (lobby_show_watch had no memory for it). */
static void watch_list_fill(sess_t *s)
{
    if (!s->lobby.watch)
        return;
    srv_t *srv = s->srv;
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
    cluster_t *cl = srv_cluster(srv);
    if (cl)
        n += cluster_games(cl, s->lobby.watch + n, LOBBY_WATCH_MAX - n);
    s->lobby.nwatch = n;
}

static void lobby_draw_page(sess_t *s, screen_t *next)
{
    srv_t *srv = s->srv;
    lobby_info_t info = { srv->cfg.server_name, srv->cfg.motd,
                          srv_online(srv), (int)dir_ngames(srv->dir), NULL,
                          NULL, srv->cfg.guest_min_turns };
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
    if (s->lobby.page == LOBBY_WATCH)
        watch_list_fill(s);
    lobby_draw(&s->lobby, &info, next);
}

/* --- store answers ------------------------------------------------------------ */

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

void sess_lobby_play_when_found(sess_t *s)
{
    if (s->state != S_LOBBY)
        return;
    s->st.lobby.play_typed = 1;
    if (!s->st.lobby.looking_up) /* answered already */
        sess_lobby_play_typed(s);
}

void sess_lobby_play_typed(sess_t *s)
{
    st_lobby_t *st = &s->st.lobby;
    int typed = st->play_typed;
    st->play_typed = 0;
    if (typed && s->state == S_LOBBY && st->held.game &&
        s->lobby.page != LOBBY_BUSY)
        act(s, LOBBY_DO_PLAY);
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
    /* a page that dropped before this login would take the game back
     * with its token: those go (open sessions' go as they are let go) */
    sess_web_login_forget_closed(s);
    s->st.lobby.looking_up = 1; /* until the load's answer */
    s->progress_known = 0; /* a login: the load after the takeovers tells */
    s->st.lobby.saved = 0; /* a login is welcomed back */
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
        sess_saved_load(s);
}

void sess_lobby_logged_in(sess_t *s)
{
    take_over(s);
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
    else if (a->status == STORE_SLOW_DOWN) /* no password was checked */
        log_info("%s refused id=%llu name=\"%s\": slowed down after failed "
                 "logins of the name; not checked",
                 registering ? "register" : "login", (unsigned long long)s->id,
                 log_safe(s->lobby.name, tried, sizeof tried));
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
        sess_web_login_issue(s);
        if (!registering)
            take_over(s);
        else
            s->progress_known = 0; /* (a guest's game handed here set it) */
    }
}

static void log_password_change(const sess_t *s, int status)
{
    log_info("password change id=%llu name=%s: %s", (unsigned long long)s->id,
             s->lobby.account, store_status_name(status));
}

/* The end of a password change: the store's answer, or the second check
 * of the present password refusing it. */
static void password_changed(sess_t *s, int status)
{
    log_password_change(s, status);
    if (!s->login_token[0]) /* it went before the change: a new one */
        sess_web_login_issue(s);
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

/* The answer to the present password's check, a change's first step. */
static void password_checked(sess_t *s, int status)
{
    if (status != STORE_OK)
        log_password_change(s, status);
    sess_owe_frame(s);
    if (lobby_password_checked(&s->lobby, status) == LOBBY_DO_QUIT)
        sess_close(s, "too many failed logins", 1,
                   "Too many failed logins. Goodbye.");
}

/* A check of the present password answered: its status, STORE_BAD_LOGIN
 * for another account's (the name's), or -1 when the lobby is left. */
static int present_checked(sess_t *s, const store_account_t *a)
{
    sess_hash_end(s);
    if (s->state != S_LOBBY)
        return -1;
    return a->status == STORE_OK && a->id != s->lobby.account_id
        ? STORE_BAD_LOGIN : a->status;
}

static void on_password_checked(void *ctx, const store_account_t *a)
{
    sess_t *s = ctx;
    int status = present_checked(s, a);
    if (status >= 0)
        password_checked(s, status);
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
        sess_saved_load(s);
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
        sess_saved_play_on(s, &a);
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
    s->st.lobby.play_typed = 0; /* a p (or a page back's) was the account's */
    s->registered = 0;
    dir_set_account(s->srv->dir, s->id, 0);
    s->claim = 0; /* the account's: the next login's load takes its own */
    dir_set_claim(s->srv->dir, s->id, 0);
    sess_web_login_forget(s);
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
    } else if (action == LOBBY_DO_REGISTER && sess_name_in_play(s, l->name)) {
        /* (the early check said so, unless the guest began since) */
        snprintf(banned, sizeof banned, "Someone is playing as %.20s now: "
                 "choose another.", l->name);
        no = banned;
        why = "a name a guest plays under now";
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

/* Asks the store to check the present password as a login is (and
 * counted as one per address), answered through cb. STORE_OK when
 * asked, else why not. The password stays with the lobby (for the
 * change's second check: lobby_password_checked). */
static int ask_present(sess_t *s, store_account_cb cb)
{
    lobby_t *l = &s->lobby;
    if (sess_hash_begin(s) != 0)
        return STORE_SLOW_DOWN;
    if (store_login_from(s->srv->store, l->account, s->ip,
                         lobby_take_password(l), cb, s) != 0) {
        sess_hash_end(s);
        return STORE_ERROR;
    }
    return STORE_OK;
}

/* The change's first step: the present password, before the new one is
 * asked. */
static void act_check_password(sess_t *s, int action)
{
    (void)action;
    int rc = ask_present(s, on_password_checked);
    if (rc != STORE_OK)
        lobby_password_checked(&s->lobby, rc);
}

/* The second check's answer: the present password is still right (it
 * may have been changed elsewhere since the first), then the new one is
 * set. Minutes can pass between the first check and the new password's
 * Enter; the second check keeps the set a moment from its check, as a
 * login's is. */
static void on_change_checked(void *ctx, const store_account_t *a)
{
    sess_t *s = ctx;
    lobby_t *l = &s->lobby;
    int status = present_checked(s, a);
    if (status < 0)
        return;
    if (status != STORE_OK) {
        password_changed(s, status);
        return;
    }
    /* Before the change, not at its answer: a session gone meanwhile
     * never hears the answer, and the change is made all the same. */
    sess_web_login_forget_account(s);
    int rc = store_set_password(s->srv->store, l->account_id,
                                lobby_take_new_password(l), on_password_set, s);
    lobby_wipe_password(l); /* the store has its copy */
    if (rc != 0)
        password_changed(s, STORE_ERROR);
}

static void act_change_password(sess_t *s, int action)
{
    (void)action;
    /* (the lobby asks only after the first check) */
    int rc = s->lobby.pw_checked ? ask_present(s, on_change_checked)
                                 : STORE_ERROR;
    if (rc != STORE_OK)
        password_changed(s, rc);
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
    } else {
        /* itself (a site page's /ws?watch= its own id), or no message
         * to ask with (out of memory): said, and a site page's wait ends
         * with it (a QA's page waited on "One moment..." for good) */
        lobby_waited(l);
        lobby_note(l, LOBBY_NOTE_BAD, "That game cannot be found now.");
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
    [LOBBY_DO_CHECK_PASSWORD] = act_check_password,
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
    case LOBBY_DO_CHECK_PASSWORD:
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
    st_lobby_t *st = &s->st.lobby;
    if (st->looking_up && (key == 'p' || key == '\r') &&
        s->lobby.page == LOBBY_BUSY) {
        /* p in the wait for a login's saved game ("One moment...", as long
         * as a dead host's takeover: seconds): kept, and played once the
         * answer comes (the game found goes on, none begins one), rather
         * than dropped unseen */
        st->play_typed = 1;
        s->play_if_none = 1;
        return;
    }
    if (s->lobby.page == LOBBY_BUSY) {
        if (st->wait_keeps_keys)
            sess_keep_waited_key(s, key); /* played once the answer is in */
        return;
    }
    int page = s->lobby.page, typing = lobby_typing(&s->lobby);
    int action = lobby_key(&s->lobby, key);
    if (page != LOBBY_WATCH && s->lobby.page == LOBBY_WATCH)
        watch_list_fill(s); /* a letter typed before its frame picks too */
    st->wait_keeps_keys = 0;
    act(s, action);
    if (s->state == S_LOBBY && s->lobby.page == LOBBY_BUSY)
        st->wait_keeps_keys = !typing;
    if (asks_store(action) && s->lobby.page == LOBBY_BUSY)
        sess_lobby_wait_start(s);
}

/* A store that does not answer within store_wait_ms (it hangs, or its
 * queue is long, or the password checks' line is): the player is told
 * where it waited (store_wait_of) and may try again; the answer, if it
 * ever comes, is dropped (store_cancel). docs/hosting.md. The wait's
 * clock starts here (a lobby key that asks the store, or the saved game's
 * lookup: session_saved.c), for this wait (busy_gen) only; lobby_sweep
 * reads it. */
void sess_lobby_wait_start(sess_t *s)
{
    s->st.lobby.store_asked_ms = sess_now(s);
    s->st.lobby.store_gen = s->lobby.busy_gen;
}

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

/* The log's line for a wait given up, naming where it waited (at: enum
 * store_wait): a host sent to look at the database for a line of password
 * checks would look in the wrong place. */
static void log_away(const sess_t *s, int at, uint64_t wait)
{
    unsigned long long id = (unsigned long long)s->id;
    unsigned long long ms = (unsigned long long)wait;
    if (at == STORE_WAIT_HASH_LINE || at == STORE_WAIT_HASHING)
        log_info("hash queue busy id=%llu: its password check %s within "
                 "%llu ms (%d checks at a time, in turn by address); "
                 "the player may try again", id,
                 at == STORE_WAIT_HASHING ? "did not end"
                                          : "had no slot", ms,
                 store_hash_parallel(s->srv->store));
    else if (at == STORE_WAIT_SLOWED)
        log_info("slowed login id=%llu: still waiting after failed logins "
                 "of the name at %llu ms; the player may try again", id, ms);
    else
        log_info("store away id=%llu: no answer within %llu ms; the player "
                 "may try again", id, ms);
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
    int at = store_wait_of(s->srv->store, s);
    if (!lobby_store_away(&s->lobby, l->store_gen, at))
        return; /* answered meanwhile */
    store_cancel(s->srv->store, s);
    s->play_if_none = 0; /* the p that asked is answered: try again */
    l->looking_up = l->play_typed = 0; /* (said: p looks again) */
    sess_hash_end(s);
    log_away(s, at, wait);
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
            watch_list_fill(s);
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
        if ((!t || sess_saved_rebuild(s, t, 1) != 0) && s->lobby.account_id > 0)
            sess_saved_load(s); /* (a guest's takeover has no store copy) */
        sess_owe_frame(s);
        return 1;
    case MSG_REBUILT:
        if (m->a == l->rebuild_job)
            sess_saved_rebuilt(s, m);
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
