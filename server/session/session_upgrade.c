/* session_upgrade.c - a session across a binary upgrade (session.h):
 * packed into its blob (upgrade_blob.h) by the old process, made again
 * from the blob and its socket by the new one. What moves and why:
 * docs/hosting.md, "Upgrading without a goodbye". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inbox.h"
#include "log.h"
#include "session_impl.h"
#include "site.h"
#include "store.h"
#include "upgrade_blob.h"
#include "wsconn.h"

/* the blob keeps a site page's mark as the number it has here */
_Static_assert((int)UPB_SITE_WATCH == (int)SITE_START_WATCH &&
               (int)UPB_SITE_REPLAY == (int)SITE_START_REPLAY,
               "a site page's mark is carried as it is");

/* --- the old process ---------------------------------------------------- */

static void pack_player(const sess_t *s, upgrade_sess_t *u)
{
    u->kind = s->web ? UPB_WEB : UPB_TELNET;
    u->id = s->id;
    snprintf(u->addr, sizeof u->addr, "%s", s->addr);
    snprintf(u->ip, sizeof u->ip, "%s", s->ip);
    /* the client's latest size, though a resize flood has it owed */
    u->w = (uint16_t)(s->resize_owed ? s->owed_w : s->w);
    u->h = (uint16_t)(s->resize_owed ? s->owed_h : s->h);
    snprintf(u->ttype, sizeof u->ttype, "%s", s->tc.ttype);
    /* still negotiating: what it said so far */
    display_t d = s->state == S_NEGOTIATING ? tconn_display(&s->tc)
                                            : s->detected;
    u->glyphs = d.glyphs;
    u->colours = d.colours;
    u->display_choice = s->display_choice;
    u->account_id = s->lobby.account_id > 0 ? s->lobby.account_id : 0;
    if (u->account_id)
        snprintf(u->account, sizeof u->account, "%s", s->lobby.account);
    snprintf(u->guest, sizeof u->guest, "%s", s->lobby.guest);
    /* the page's token: an account's login's (a guest token from before
     * the login is no credential of it), or a guest's game's */
    snprintf(u->token, sizeof u->token, "%s",
             s->lobby.account_id > 0 ? s->login_token : s->guest_token);
    u->nheld = s->keys.seqlen <= UPB_HELD_MAX ? s->keys.seqlen : 0;
    memcpy(u->held, s->keys.seq, u->nheld);
    u->site_page = s->site_page; /* so that it never shows the lobby there */
    u->line_mode = !s->web && s->tc.echo_refused;
}

int sess_upgrade_pack(sess_t *s, buf_t *out, uint32_t new_version)
{
    if (sess_closing(s) || !s->admitted || s->via_ssh || s->moved ||
        (s->web && !wsconn_between_frames(s->web)))
        return 0; /* a browser's frame cut in two cannot be finished */
    uv_read_stop((uv_stream_t *)&s->tcp);
    upgrade_sess_t u;
    memset(&u, 0, sizeof u);
    pack_player(s, &u);
    msg_game_t *gs = NULL;
    const sess_state_ops_t *ops = sess_state_ops(s->state);
    if (s->state == S_PLAYING && ops->hand_off)
        gs = ops->hand_off(s, new_version == GAME_VERSION ? NULL
                              : "ended by a server upgrade to new rules");
    if (gs) {
        u.state = UPB_PLAYING;
        u.seed = gs->seed;
        u.ruleset = gs->opt.ruleset;
        u.started = gs->started;
        u.keys = (const uint8_t *)gs->keys.data;
        u.keys_len = (uint32_t)gs->keys.len;
        u.checks = (const uint8_t *)gs->checks.data;
        u.checks_len = (uint32_t)gs->checks.len;
        u.progress_begun = gs->progress_begun;
        u.progress_sent = gs->progress_sent;
        u.claim = gs->claim;
        u.nwatchers = (uint16_t)(gs->nwatchers < UPB_WATCHERS_MAX
                                 ? gs->nwatchers : UPB_WATCHERS_MAX);
        u.watcher_ids = gs->watchers;
    } else if (s->state == S_WATCHING && s->st.watch.player &&
               s->st.watch.waiting != MSG_WATCH_AWAY) {
        /* (one waiting for a dropped page's game, which stays with this
         * process and ends with it (session_guest.c), lands in the new
         * one's lobby: there it would wait for good) */
        u.state = UPB_WATCHING;
        u.player = s->st.watch.player;
        snprintf(u.player_name, sizeof u.player_name, "%s", s->st.watch.name);
    } else if (s->state == S_LOBBY && lobby_typing(&s->lobby)) {
        u.state = UPB_LOBBY_TYPING; /* what was typed stays here */
    }
    if (!gs && s->nfollowers > 0) {
        /* not in a game (the lobby, or watching another): the watchers
         * waiting for its next game (session_follow.c) move with it; they
         * move too (UPB_WATCHING) */
        u.nwatchers = (uint16_t)(s->nfollowers < UPB_WATCHERS_MAX
                                 ? s->nfollowers : UPB_WATCHERS_MAX);
        u.watcher_ids = s->followers;
    }
    int rc = upgrade_blob_encode(&u, out);
    msg_game_free(gs);
    if (rc != 0) {
        /* it stays here, and ends with the old process as a shutdown ends
         * it (a game handed off ends recorded: p->handed is not undone) */
        log_error("upgrade id=%llu: out of memory for its blob",
                  (unsigned long long)s->id);
        return -1;
    }
    s->moved = 1;
    return 1;
}

/* --- the new process ---------------------------------------------------- */

/* The transport as the negotiation left it: nothing is asked again. */
static int resume_telnet(sess_t *s, const upgrade_sess_t *u)
{
    tconn_cb_t cb = { sess_on_tc_data, sess_on_tc_send, sess_on_tc_key,
                      sess_on_tc_resize };
    srv_t *srv = s->srv;
    if (tconn_init(&s->tc, &cb, s, srv->cfg.max_cols, srv->cfg.max_rows) != 0)
        return -1;
    s->tr = &telnet_transport;
    s->conn = &s->tc;
    tconn_settle(&s->tc);
    tconn_resume_options(&s->tc, u->line_mode);
    s->line_mode = s->tc.echo_refused; /* said at the first frame */
    s->tc.settled = (display_t){ u->glyphs, u->colours };
    s->tc.got_echo = s->tc.got_naws = s->tc.ttype_done = 1;
    s->tc.peer = 1;
    s->tc.w = s->w = u->w < srv->cfg.max_cols ? u->w : srv->cfg.max_cols;
    s->tc.h = s->h = u->h < srv->cfg.max_rows ? u->h : srv->cfg.max_rows;
    snprintf(s->tc.ttype, sizeof s->tc.ttype, "%.*s",
             (int)sizeof s->tc.ttype - 1, u->ttype);
    return 0;
}

/* The browser's WebSocket as it was, open. */
static int resume_web(sess_t *s, const upgrade_sess_t *u)
{
    srv_t *srv = s->srv;
    if (sess_web_init(s) != 0)
        return -1;
    s->w = u->w < srv->cfg.max_cols ? u->w : srv->cfg.max_cols;
    s->h = u->h < srv->cfg.max_rows ? u->h : srv->cfg.max_rows;
    snprintf(s->tc.ttype, sizeof s->tc.ttype, "browser");
    if (strlen(u->token) == GRACE_TOKEN_LEN)
        memcpy(s->guest_token, u->token, GRACE_TOKEN_LEN + 1);
    return wsconn_resume_open(s->web, s->w, s->h);
}

/* The player as it was: the account logged in, or the guest's name. */
static int resume_player(sess_t *s, const upgrade_sess_t *u)
{
    srv_t *srv = s->srv;
    int online;
    if (!srv_slot_take(srv, &online))
        return -1;
    if (dir_add(srv->dir, s->id, s, srv->index) != 0) {
        srv_slot_release(srv);
        return -1;
    }
    s->admitted = 1;
    s->state = S_NEGOTIATING;
    char guest[ACCT_NAME_MAX + 1];
    snprintf(guest, sizeof guest, "guest%llu", store_guest_number(srv->store));
    lobby_init(&s->lobby, guest);
    if (u->guest[0])
        lobby_set_guest(&s->lobby, u->guest); /* (checked: it fits) */
    if (u->account_id > 0) {
        memcpy(s->lobby.account, u->account, strlen(u->account) + 1);
        s->lobby.account_id = u->account_id;
        dir_set_account(srv->dir, s->id, u->account_id);
    }
    s->display_choice = u->display_choice;
    log_info("connect %s id=%llu worker=%d (%d online, moved by an upgrade)",
             s->addr, (unsigned long long)s->id, srv->index, online);
    return 0;
}

/* Not in a game: the watchers waiting for the player's next game wait
 * here again (session_follow.c; each is told so again). */
static void follow_resume(sess_t *s, const upgrade_sess_t *u)
{
    if (u->nwatchers == 0)
        return;
    uint64_t *ids = malloc((size_t)u->nwatchers * sizeof *ids);
    for (int i = 0; i < u->nwatchers; i++)
        if (ids)
            ids[i] = upgrade_blob_watcher(u, i);
        else /* they cannot wait: they are told, as when the player goes */
            sess_post(s, MSG_WATCH_END, upgrade_blob_watcher(u, i), 0, NULL,
                      "%s", "The player has left.");
    if (ids)
        follow_keep(s, ids, u->nwatchers);
}

/* A site page's terminal that was not watching: a replay (which does
 * not move: the new process has not its game), or a watch still on its
 * way. Its page would show the lobby; it ends with why instead, as
 * when its watch or replay ends (session_page.c). Returns 1 if it did. */
static int site_page_cut(sess_t *s, const upgrade_sess_t *u)
{
    if (!s->site_page || u->state == UPB_WATCHING)
        return 0;
    if (s->site_page == SITE_START_REPLAY)
        sess_close(s, "the game page's replay ended by an upgrade", 1,
                   "The server was upgraded, which ended the replay: "
                   "reload to see it again."); /* (80 columns: one row) */
    else
        sess_close(s, "the watch page's watch ended by an upgrade", 1,
                   "The server was upgraded before the watch began: "
                   "reload the page to watch.");
    return 1;
}

/* The state it was in: a game is rebuilt off the loop, a watcher waits
 * for its player's summary, an account's lobby asks the store. */
static void resume_state(sess_t *s, const upgrade_sess_t *u)
{
    s->site_page = u->site_page; /* before a state is told to a key bar */
    sess_goto(s, S_LOBBY, NULL);
    if (site_page_cut(s, u))
        return;
    if (u->state == UPB_PLAYING) {
        game_options_t opt = { .ruleset = u->ruleset };
        buf_t keys = { (char *)u->keys, u->keys_len, u->keys_len, u->keys_len };
        buf_t checks = { (char *)u->checks, u->checks_len, u->checks_len,
                         u->checks_len };
        msg_game_t *g = msg_game_new(u->seed, &opt, u->started, &keys, &checks);
        if (g && u->nwatchers > 0 &&
            (g->watchers = malloc((size_t)u->nwatchers * sizeof *g->watchers))) {
            g->nwatchers = u->nwatchers;
            for (int i = 0; i < u->nwatchers; i++)
                g->watchers[i] = upgrade_blob_watcher(u, i);
        }
        if (g) {
            g->progress_begun = u->progress_begun;
            g->progress_sent = (size_t)u->progress_sent;
            g->claim = u->claim;
            g->rewatch = 1;
        }
        s->rebuild_exempt = 1;
        int rc = g ? sess_lobby_play_summary(s, g) : -1;
        s->rebuild_exempt = 0;
        /* An account's: the store has it up to the keys sent, and p asks
         * for that (sess_t.progress_known is 0 after an upgrade). */
        if (rc != 0)
            log_error("upgrade id=%llu: its game cannot be rebuilt: %s",
                      (unsigned long long)s->id, s->lobby.account_id > 0
                          ? "p asks the store for its saved copy"
                          : "it is lost");
    } else if (u->state == UPB_WATCHING) {
        smsg_t m;
        memset(&m, 0, sizeof m);
        m.type = MSG_WATCH_END;
        m.from = u->player;
        m.a = MSG_WATCH_LOBBY;
        snprintf(m.text, sizeof m.text, "%s", u->player_name);
        sess_goto(s, S_WATCHING, &m);
    } else {
        sess_lobby_load_progress(s);
        if (u->state == UPB_LOBBY_TYPING)
            lobby_drop_line(&s->lobby);
    }
    if (u->state != UPB_PLAYING)
        follow_resume(s, u);
    sess_repaint(s);
}

void sess_upgrade_accept(srv_t *srv, int fd, const void *blob, size_t len)
{
    upgrade_sess_t u;
    const char *why = NULL;
    if (upgrade_blob_decode(blob, len, (size_t)srv->cfg.record_limit, &u,
                            &why) == 0 && (strlen(u.account) > ACCT_NAME_MAX ||
                                           strlen(u.guest) > ACCT_NAME_MAX))
        why = "a name too long";
    if (why) {
        log_error("upgrade: a session's blob refused: %s", why);
        close(fd);
        srv_session_gone(srv);
        return;
    }
    sess_t *s = sess_new(srv);
    if (!s) {
        close(fd);
        srv_session_gone(srv);
        return;
    }
    s->id = u.id;
    snprintf(s->addr, sizeof s->addr, "%.*s", (int)sizeof s->addr - 1, u.addr);
    snprintf(s->ip, sizeof s->ip, "%.*s", (int)sizeof s->ip - 1, u.ip);
    int rc = uv_tcp_open(&s->tcp, fd);
    if (rc != 0)
        close(fd);
    if (rc == 0)
        rc = u.kind == UPB_WEB ? resume_web(s, &u) : resume_telnet(s, &u);
    if (rc != 0 || resume_player(s, &u) != 0) {
        log_error("upgrade id=%llu: cannot take the session over",
                  (unsigned long long)u.id);
        s->state = S_CLOSING;
        sess_close_handles(s);
        return;
    }
    if (s->lobby.account_id > 0 && s->guest_token[0]) {
        /* an account's page: the token is its login's (from a process
         * before login tokens, its guest game's, which the page holds) */
        sess_web_login_moved(s, s->guest_token);
        s->guest_token[0] = '\0';
    }
    uv_tcp_nodelay(&s->tcp, 1);
    uv_tcp_keepalive(&s->tcp, 1, 60);
    uv_read_start((uv_stream_t *)&s->tcp, sess_on_alloc, sess_on_read);
    resume_state(s, &u);
    sess_feed_held(s, u.held, u.nheld);
}

void sess_upgrade_settled(srv_t *srv)
{
    if (atomic_fetch_add(&srv->sh->upgrade_settled, 1) + 1 != srv->sh->nworkers)
        return;
    for (int i = 0; i < srv->sh->nworkers; i++) {
        smsg_t *m = msg_new(MSG_UPGRADE_READY, 0, 0, NULL);
        if (!m || inbox_post(srv->sh->inbox[i], m) != 0) {
            msg_free(m);
            log_error("upgrade: loop %d not told the moved sessions are all "
                      "in: its moved games' watchers wait", i);
        }
    }
}

void sess_upgrade_ready(srv_t *srv)
{
    srv->upgrade_ready = 1;
    for (sess_t *s = srv->sessions; s; s = s->next)
        sess_play_rewatch(s);
}
