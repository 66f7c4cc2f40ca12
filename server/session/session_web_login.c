/* session_web_login.c - a browser page's login across a dropped
 * connection (login_tokens.h, the table every loop shares): the page gets
 * a token at each login, and a page that comes back with it in time is
 * logged in again on its new connection, as the login was (then offered
 * its game, or handed it by the old connection if that is still open).
 * docs/telnet.md, "The browser"; docs/hosting.md, web_login_grace. */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "ban_list.h"
#include "cluster.h"
#include "log.h"
#include "session.h"
#include "session_impl.h"
#include "store.h"
#include "wsconn.h"

/* The page's token: "token T", or "token " (it forgets the one it has). */
static void tell_page(sess_t *s)
{
    char text[8 + GRACE_TOKEN_LEN];
    snprintf(text, sizeof text, "token %s", s->login_token);
    wsconn_send_text(s->web, text);
}

void sess_web_login_issue(sess_t *s)
{
    if (!s->web || s->lobby.account_id <= 0 || s->site_page)
        return;
    if (s->login_token[0])
        lt_forget(s->srv->logins, s->login_token);
    if (lt_issue(s->srv->logins, s->lobby.account_id, s->lobby.account,
                 s->display_choice, s->id, sess_now(s), s->login_token) != 0)
        return; /* none (off, or full): the page comes back logged out */
    tell_page(s);
}

void sess_web_login_forget(sess_t *s)
{
    if (!s->login_token[0])
        return;
    lt_forget(s->srv->logins, s->login_token);
    s->login_token[0] = '\0';
    if (s->web)
        tell_page(s);
}

void sess_web_login_forget_account(sess_t *s)
{
    /* a token elsewhere (a page left open on another machine) is as good
     * as the old password: every one this host holds goes */
    lt_forget_account(s->srv->logins, s->lobby.account_id);
    s->login_token[0] = '\0';
}

void sess_web_login_forget_closed(sess_t *s)
{
    lt_forget_closed(s->srv->logins, s->lobby.account_id);
}

void sess_web_login_closed(sess_t *s, int in_game)
{
    if (!s->login_token[0])
        return;
    /* A goodbye of ours the page does not come back from by itself (a
     * quit, a login elsewhere, a kick, too long idle: close code 1000)
     * ends the login, and so does a later login's takeover however this
     * close went (a drop seen just before it, a goodbye cut by a write
     * error: kept, the token would take the game back); a drop, the
     * page's own close (a reload, as a guest's game is kept over one) or
     * a server going away leaves it for the page. */
    if (s->close.taken_over ||
        (s->close.graceful && !s->close.away && !s->close.by_page &&
         !s->srv->shutting_down))
        lt_forget(s->srv->logins, s->login_token);
    else
        lt_closed(s->srv->logins, s->login_token, s->id, s->display_choice,
                  in_game, sess_now(s));
}

void sess_web_login_moved(sess_t *s, const char *token)
{
    if (!s->web || s->lobby.account_id <= 0 || !grace_token_valid(token))
        return;
    if (lt_adopt(s->srv->logins, token, s->lobby.account_id,
                 s->lobby.account, s->display_choice, s->id,
                 sess_now(s)) == 0)
        memcpy(s->login_token, token, GRACE_TOKEN_LEN + 1);
}

void sess_web_login_ended(sess_t *s)
{
    lobby_note(&s->lobby, LOBBY_NOTE_INFO, "Your last visit here has "
               "ended (a login elsewhere, a logout, a restart or too long "
               "away).");
    wsconn_send_text(s->web, "token ");
}

/* Whether a token may log in on this host now: alone, yes; in a cluster,
 * only while the other hosts see this one (cluster_current), so that a
 * login on one of them since the page dropped has asked this host to let
 * go and ended the token. A host that cannot say (the database away, its
 * heartbeat late) refuses: the player logs in with the password, which
 * takes the game as any login does. -1: not yet (this process has not
 * written its first heartbeat: sess_web_login_wait). docs/hosting.md,
 * web_login_grace. */
static int tokens_hold_here(sess_t *s)
{
    struct cluster *cl = srv_cluster(s->srv);
    return !cl ? 1 : cluster_current(cl);
}

/* How often a page's return that waits looks again. */
#define TOKEN_WAIT_LOOK_MS 50

static void on_token_wait(uv_timer_t *t)
{
    sess_start_lobby_if_negotiated(t->data);
}

int sess_web_login_wait(sess_t *s)
{
    /* (a guest's kept game's token, or one this process never gave, has
     * nothing to wait for) */
    if (!s->web || !s->web->resume[0] || s->site_page ||
        tokens_hold_here(s) >= 0 ||
        !lt_holds(s->srv->logins, s->web->resume, sess_now(s)))
        return 0;
    if (!s->token_waited)
        log_info("resume id=%llu: its token waits for this host's first "
                 "heartbeat in the cluster", (unsigned long long)s->id);
    s->token_waited = 1;
    uv_timer_start(&s->negotiate_timer, on_token_wait, TOKEN_WAIT_LOOK_MS, 0);
    return 1;
}

int sess_web_login_resume(sess_t *s, const char *token)
{
    login_token_t e;
    if (!s->web || s->site_page || s->state != S_LOBBY ||
        s->lobby.account[0])
        return 0; /* (a site page's terminal watches: it logs nobody in) */
    /* Asked before the token is taken as well as after: the cluster's
     * thread forgets the tokens before it says this host is in touch
     * again, so a token taken after a "yes" was not due to be forgotten,
     * and one forgotten meanwhile is not taken. */
    int here = tokens_hold_here(s);
    if (!lt_take(s->srv->logins, token, sess_now(s), &e))
        return 0;
    if (here != 1 || tokens_hold_here(s) != 1) {
        /* spent (lt_take), as if a login elsewhere had ended it */
        log_info("login by the page's token refused id=%llu name=%s: this "
                 "host is not in touch with the cluster's other hosts now "
                 "(a login there may not have asked it to let go)",
                 (unsigned long long)s->id, e.name);
        sodium_memzero(e.token, sizeof e.token);
        sess_web_login_ended(s);
        return 1;
    }
    int64_t until;
    if (store_banned_name(s->srv->store, e.name, ban_now_ms(), &until)) {
        char subject[ACCT_NAME_MAX + 16], line[160];
        snprintf(subject, sizeof subject, "The name %.20s", e.name);
        ban_say(line, sizeof line, subject, until);
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "%s", line);
        log_info("login by the page's token refused id=%llu name=%s: a "
                 "banned name", (unsigned long long)s->id, e.name);
        tell_page(s); /* "token ": the page forgets it */
        return 1;
    }
    lobby_page_login(&s->lobby, e.account_id, e.name);
    dir_set_account(s->srv->dir, s->id, e.account_id);
    sess_set_display_choice(s, e.display);
    log_info("login id=%llu name=%s by the page's token",
             (unsigned long long)s->id, e.name);
    sodium_memzero(e.token, sizeof e.token);
    sess_web_login_issue(s); /* a token logs in once */
    sess_lobby_logged_in(s);
    /* A page that dropped in its game goes on with it, as a guest's page
     * does: as if p were pressed in the wait for the store's answer (a
     * game found goes on; none, and the lobby stays). */
    if (e.playing)
        sess_lobby_play_when_found(s);
    return 1;
}
