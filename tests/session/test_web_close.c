/* test_web_close.c - how the browser's WebSocket ends, which tells the
 * page what to do next (docs/telnet.md, "The browser"): a goodbye the
 * player asked for (q in the lobby) is a close frame of code 1000, after
 * which the page waits to be asked to connect again; a server shutting
 * down (SIGTERM) says its goodbye and closes with 1001, going away, and
 * the page then tries again by itself until the server is back. */
#include <check.h>
#include <signal.h>
#include <stdio.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

/* The opcode of a browser's keys (binary frames). */
#define KEY_OPCODE 2

static tsrv_t *start_web(int *http)
{
    char port_set[32];
    *http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", *http);
    return srv_start("--seed", "42", "--set", port_set, NULL);
}

static tclient_t *web_lobby(int http)
{
    cl_opts_t o = { .web = 1 };
    tclient_t *c = cl_connect(http, &o);
    play_wait_text(c, "Play (as a guest)");
    return c;
}

START_TEST(a_goodbye_asked_for_closes_with_1000)
{
    int http;
    tsrv_t *s = start_web(&http);
    tclient_t *c = web_lobby(http);
    ck_assert_int_eq(cl_web_close_code(c), 0);
    ck_assert_int_eq(cl_send_str(c, "q"), 0);
    ck_assert(cl_wait_eof(c, CL_WAIT_MS));
    ck_assert(cl_stream_has(c, "Thanks for playing. Goodbye!"));
    ck_assert_int_eq(cl_web_close_code(c), 1000);
    cl_close(c);
    srv_stop(s);
}
END_TEST

START_TEST(a_shutdown_closes_with_1001_going_away)
{
    int http;
    tsrv_t *s = start_web(&http);
    tclient_t *lobby = web_lobby(http);
    cl_opts_t o = { .web = 1 };
    tclient_t *playing = play_connect(http, &o);
    srv_signal(s, SIGTERM);
    tclient_t *both[2] = { lobby, playing };
    for (int i = 0; i < 2; i++) {
        ck_assert(cl_wait_eof(both[i], CL_WAIT_MS));
        ck_assert(cl_stream_has(both[i], i == 0
                                ? "The server is shutting down. Goodbye!"
                                : "The server is shutting down: a guest's "
                                  "game ends here. Goodbye!"));
        ck_assert_int_eq(cl_web_close_code(both[i]), 1001);
        cl_close(both[i]);
    }
    srv_stop(s); /* exit 0, clean log */
}
END_TEST

/* A browser whose frame is cut in two when an upgrade packs the
 * sessions cannot move (docs/hosting.md, "Upgrading without a goodbye"):
 * it is told to reconnect, and its close is 1001, going away, so that the
 * page connects again by itself, as at a shutdown. */
START_TEST(an_upgrade_that_cannot_move_a_page_closes_with_1001)
{
    int http;
    tsrv_t *s = start_web(&http);
    tclient_t *c = web_lobby(http);
    /* ? (the lobby's help) whole, then the first bytes of a frame, in one
     * write: once the help shows, the server has read both */
    unsigned char frames[64];
    size_t whole = cl_ws_frame(frames, KEY_OPCODE, "?", 1);
    cl_ws_frame(frames + whole, KEY_OPCODE, "p", 1);
    size_t n = whole + 3; /* the second's header and half its mask */
    ck_assert_uint_eq(cl_send_raw(c, frames, n, 0, CL_WAIT_MS), n);
    play_wait_text(c, "each player has a dungeon of their own");
    char out[1024];
    int rc = srv_upgrade(s, out, sizeof out);
    int pid = srv_upgraded_pid(out);
    ck_assert_msg(rc == 0 && pid > 0, "rogued --upgrade: status %d: %s", rc,
                  out);
    ck_assert(cl_wait_eof(c, CL_WAIT_MS));
    ck_assert(cl_stream_has(c, "The server is upgrading; reconnect to "
                               "continue."));
    ck_assert_int_eq(cl_web_close_code(c), 1001);
    ck_assert(srv_wait_exited(s, CL_WAIT_MS));
    cl_close(c);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("web_close");
    TCase *tc = tcase_create("web_close");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, a_goodbye_asked_for_closes_with_1000);
    tcase_add_test(tc, a_shutdown_closes_with_1001_going_away);
    tcase_add_test(tc, an_upgrade_that_cannot_move_a_page_closes_with_1001);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
