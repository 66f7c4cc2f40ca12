/* test_web_login.c - a browser page's login across a dropped connection
 * (server/session/session_web_login.c, web_login_grace): the page gets a
 * token at its login; after a drop the page that sends it back is logged
 * in again and offered its game (or, its old connection still open, is
 * handed the game at once), with a new token, the old one spent; a
 * logout, a quit, a password change and a login elsewhere that takes the
 * game after the page dropped end the token, a reload of the
 * page does not; a site page's terminal cannot use it; a banned name's
 * is refused; a binary upgrade moves it with the connection; with
 * web_login_grace=0 none is given. Drives the page's protocol with the
 * tests' WebSocket client (client.h, cl_opts_t.web and .resume). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "play.h"
#include "web_page.h"

static tsrv_t *web_server(int *http, const char *grace)
{
    static char port_set[32], set[48];
    *http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", *http);
    snprintf(set, sizeof set, "web_login_grace=%s", grace);
    return srv_start("--seed", "42", "--set", port_set, "--set", set, NULL);
}

/* A page that registers wendy (her token into t) and begins her game. */
static tclient_t *wendy_playing(int http, char t[40])
{
    tclient_t *a = web_page(http, NULL);
    web_page_login(a, "wendy", 1);
    web_token_of(a, t);
    ck_assert_int_eq(cl_send_str(a, "p"), 0);
    play_ready(a);
    return a;
}

/* wendy's page plays a turn and drops (the network gone: no close), her
 * game suspended on s; her token into t. */
static void wendy_dropped(tsrv_t *s, int http, char t[40])
{
    tclient_t *a = wendy_playing(http, t);
    web_key_to_turn(a, ".", 1);
    cl_abort(a);
    ck_assert(srv_wait_log(s, "game suspended id=1 name=wendy", CL_WAIT_MS));
}

START_TEST(a_dropped_page_comes_back_logged_in)
{
    int http;
    tsrv_t *s = web_server(&http, "300");
    char t1[40], t2[40];
    wendy_dropped(s, http, t1);

    /* dropped in its game, the page is back in it with no key pressed,
     * as a guest's page is */
    tclient_t *b = web_page(http, t1);
    play_wait_text(b, "HP: ");
    play_ready(b);
    ck_assert_int_eq(cl_turn(b), 1);
    ck_assert(srv_log_has(s, "login id=2 name=wendy by the page's token"));
    ck_assert(!srv_log_has(s, t1)); /* a secret: never logged */
    web_token_of(b, t2);
    ck_assert_str_ne(t2, t1);
    /* the spent token logs nobody in, and takes nothing from b */
    web_back_logged_out(http, t1);
    web_key_to_turn(b, ".", 2);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* A page that dropped in the lobby (its game saved with S) is back
 * there, logged in and offered the game one key away, as it left it. */
START_TEST(a_page_dropped_in_the_lobby_comes_back_there)
{
    int http;
    tsrv_t *s = web_server(&http, "300");
    char t[40];
    tclient_t *a = wendy_playing(http, t);
    web_key_to_turn(a, ".", 1);
    ck_assert_int_eq(cl_send_str(a, "S"), 0);
    play_wait_text(a, "Continue your game (depth 1, turn 1)");
    web_token_of(a, t);
    cl_abort(a);
    ck_assert(srv_wait_log(s, "id=1 reason=", CL_WAIT_MS));
    tclient_t *b = web_page(http, t);
    play_wait_text(b, "Continue your game (depth 1, turn 1)");
    ck_assert(srv_wait_log(s, "name=wendy by the page's token", CL_WAIT_MS));
    /* (the offer is drawn by the answer that would have played it) */
    ck_assert(!cl_screen_has(b, "HP: "));
    ck_assert_int_eq(cl_send_str(b, "p"), 0);
    play_wait_text(b, "HP: ");
    play_ready(b);
    ck_assert_int_eq(cl_turn(b), 1);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* A page drops; the player logs in elsewhere with the password (a
 * telnet client here) and plays on: the dropped page, back with its
 * token, lands logged out and takes nothing from the login. */
START_TEST(a_login_elsewhere_ends_a_dropped_page_s_token)
{
    int http;
    tsrv_t *s = web_server(&http, "300");
    char t[40];
    wendy_dropped(s, http, t);

    tclient_t *b = play_lobby(srv_port(s));
    ck_assert(cl_key(b, "l"));
    play_type_line(b, "wendy");
    play_type_line(b, "password1");
    play_wait_text(b, "Continue your game (depth 1, turn 1)");
    ck_assert(cl_key(b, "p"));
    play_wait_text(b, "HP: ");
    ck_assert(cl_sync(b, CL_WAIT_MS));
    ck_assert_int_eq(cl_turn(b), 1);

    web_back_logged_out(http, t);
    ck_assert(!srv_log_has(s, "by the page's token"));
    ck_assert(cl_key(b, "."));
    ck_assert_int_eq(cl_turn(b), 2);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* The old connection still open (the server has not seen it drop): the
 * page back with the token is handed the game at once, at its turn, and
 * the old one is told and closed with a goodbye (code 1000: its page does
 * not come back by itself). */
START_TEST(a_page_back_before_its_drop_is_seen_takes_the_game)
{
    int http;
    tsrv_t *s = web_server(&http, "300");
    char t[40];
    tclient_t *a = wendy_playing(http, t);
    web_key_to_turn(a, ".", 1);
    tclient_t *b = web_page(http, t);
    play_ready(b);
    ck_assert_int_eq(cl_turn(b), 1);
    ck_assert(cl_wait_text(a, "Your account has logged in from elsewhere.",
                           CL_WAIT_MS));
    ck_assert(cl_wait_eof(a, CL_WAIT_MS));
    ck_assert_int_eq(cl_web_close_code(a), 1000);
    web_key_to_turn(b, ".", 2);
    cl_close(a);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* A logout tells the page to forget its token ("token "), a quit and a
 * password change forget it on the server: none of them logs in again. */
START_TEST(logout_quit_and_a_new_password_end_the_token)
{
    int http;
    tsrv_t *s = web_server(&http, "300");
    char t[40], u[40];
    tclient_t *a = web_page(http, NULL);
    web_page_login(a, "wendy", 1);
    web_token_of(a, t);
    ck_assert_int_eq(cl_send_str(a, "l"), 0); /* log out */
    play_wait_text(a, "Not logged in");
    for (int i = 0; i < 100 && cl_web_token(a)[0]; i++)
        cl_pump(a, 100);
    ck_assert_str_eq(cl_web_token(a), "");
    web_back_logged_out(http, t);

    web_page_login(a, "wendy", 0);
    web_token_of(a, t);
    play_wait_text(a, "Play as wendy"); /* the lookup of a game answered */
    ck_assert_int_eq(cl_send_str(a, "q"), 0); /* quit: a goodbye */
    ck_assert(cl_wait_eof(a, CL_WAIT_MS));
    cl_close(a);
    web_back_logged_out(http, t);

    /* a page left dropped, and the password changed on another */
    a = web_page(http, NULL);
    web_page_login(a, "wendy", 0);
    web_token_of(a, t);
    cl_abort(a);
    tclient_t *b = web_page(http, NULL);
    web_page_login(b, "wendy", 0);
    web_token_of(b, u);
    play_wait_text(b, "Play as wendy");
    ck_assert_int_eq(cl_send_str(b, "c"), 0);
    web_answer(b, "Present password:", "password1");
    web_answer(b, "New password:", "password2");
    web_answer(b, "Again:", "password2");
    play_wait_text(b, "Your password is changed.");
    for (int i = 0; i < 100 && strcmp(cl_web_token(b), u) == 0; i++)
        cl_pump(b, 100);
    ck_assert_str_ne(cl_web_token(b), u); /* a new one for this page */
    ck_assert_int_eq((int)strlen(cl_web_token(b)), 32);
    web_back_logged_out(http, t);
    web_back_logged_out(http, u);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* A binary upgrade moves the page's connection and its token with it:
 * dropped afterwards, the page comes back logged in to the new process. */
START_TEST(the_token_moves_with_an_upgrade)
{
    int http;
    tsrv_t *s = web_server(&http, "300");
    tclient_t *a = web_page(http, NULL);
    web_page_login(a, "wendy", 1);
    char t[40], res[1024];
    web_token_of(a, t);
    ck_assert_int_eq(srv_upgrade(s, res, sizeof res), 0);
    ck_assert_msg(strstr(res, "upgraded: 1 session moved"), "%s", res);
    int pid = srv_upgraded_pid(res);
    /* the new process has made the session again, its token with it (on
     * its loop, after the process says it serves) */
    ck_assert(srv_wait_log(s, "online, moved by an upgrade)", CL_WAIT_MS));
    cl_abort(a);
    tclient_t *b = web_page(http, t);
    play_wait_text(b, "Logged in as wendy");
    ck_assert(srv_wait_log(s, "name=wendy by the page's token", CL_WAIT_MS));
    cl_close(b);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

/* The page's own close (a reload: the browser closes the WebSocket with
 * 1001 before the page comes back) keeps the login, as it keeps a
 * guest's game; a site page's terminal (a watch) that sends the token
 * logs nobody in and leaves it to the play page. */
START_TEST(a_reload_keeps_it_a_site_page_cannot_use_it)
{
    int http;
    tsrv_t *s = web_server(&http, "300");
    char t[40];
    tclient_t *a = wendy_playing(http, t);
    unsigned char bye[16];
    size_t n = cl_ws_frame(bye, 8, "\x03\xe9", 2); /* close, 1001 */
    ck_assert_uint_eq(cl_send_raw(a, bye, n, 1, CL_WAIT_MS), n);
    ck_assert(cl_wait_eof(a, CL_WAIT_MS));
    cl_close(a);
    ck_assert(srv_wait_log(s, "reason=\"browser closed\"", CL_WAIT_MS));

    /* a watch of wendy's own game from the site, with her token (the
     * page back from its reload is in its game) */
    tclient_t *b = web_page(http, t);
    play_wait_text(b, "HP: ");
    play_ready(b);
    web_token_of(b, t);
    cl_opts_t o = { .web = 1, .resume = t, .ws_path = "/ws?watch=2" };
    tclient_t *w = cl_connect(http, &o);
    play_wait_text(w, "Watching wendy");
    ck_assert_int_eq(srv_log_count(s, "by the page's token"), 1);
    cl_close(w);
    cl_abort(b);
    tclient_t *c = web_page(http, t); /* the play page: still hers */
    play_wait_text(c, "HP: ");
    ck_assert_int_eq(srv_log_count(s, "by the page's token"), 2);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A banned name's token logs nobody in: the page is told why and told to
 * forget it, and the token is spent. */
START_TEST(a_banned_name_s_token_is_refused)
{
    int http;
    tsrv_t *s = web_server(&http, "300");
    tclient_t *a = web_page(http, NULL);
    web_page_login(a, "wendy", 1);
    char t[40], out[256];
    web_token_of(a, t);
    cl_abort(a);
    ck_assert_int_eq(srv_ctl(s, "ban wendy", out, sizeof out), 0);
    tclient_t *b = web_page(http, t);
    play_wait_text(b, "The name wendy is banned");
    ck_assert(cl_screen_has(b, "Not logged in"));
    ck_assert(srv_wait_log(s, "login by the page's token refused id=2 "
                              "name=wendy: a banned name", CL_WAIT_MS));
    ck_assert_str_eq(cl_web_token(b), "");
    cl_close(b);
    ck_assert_int_eq(srv_ctl(s, "unban wendy", out, sizeof out), 0);
    web_back_logged_out(http, t);
    srv_stop(s);
}
END_TEST

START_TEST(no_token_without_a_grace)
{
    int http;
    tsrv_t *s = web_server(&http, "0");
    tclient_t *a = web_page(http, NULL);
    web_page_login(a, "wendy", 1);
    ck_assert_int_eq(cl_send_str(a, "p"), 0);
    play_ready(a); /* every message before the game's frame is in */
    ck_assert_str_eq(cl_web_token(a), "");
    cl_close(a);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("web login");
    TCase *tc = tcase_create("web login");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, a_dropped_page_comes_back_logged_in);
    tcase_add_test(tc, a_page_dropped_in_the_lobby_comes_back_there);
    tcase_add_test(tc, a_page_back_before_its_drop_is_seen_takes_the_game);
    tcase_add_test(tc, a_login_elsewhere_ends_a_dropped_page_s_token);
    tcase_add_test(tc, logout_quit_and_a_new_password_end_the_token);
    tcase_add_test(tc, the_token_moves_with_an_upgrade);
    tcase_add_test(tc, a_reload_keeps_it_a_site_page_cannot_use_it);
    tcase_add_test(tc, a_banned_name_s_token_is_refused);
    tcase_add_test(tc, no_token_without_a_grace);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
