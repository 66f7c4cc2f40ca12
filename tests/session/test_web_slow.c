/* test_web_slow.c - the play page over a slow or stalled network
 * (docs/telnet.md, "The browser"): a page whose size comes after
 * negotiation_ms (a round trip past it) still lands where its "resume T"
 * says, not in the lobby, since a WebSocket's page has ten times
 * negotiation_ms for its size (server/session/session_admit.c); and the
 * page's heartbeat, a text message "ping", is answered "pong", whatever
 * the session shows. The clock: negotiation_ms = 3000, so the page's
 * size comes after the 3 s a telnet client would have had and 27 s before
 * its own wait ends; waited for through the server's log line. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

#define WAITING "no size from the page within negotiation_ms"

static tsrv_t *web_server(int *http)
{
    static char port_set[32];
    *http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", *http);
    return srv_start("--seed", "42", "--set", port_set, "--set",
                     "negotiation_ms=3000", "--set", "guest_grace=300",
                     "--log-level", "debug", NULL);
}

static int at_turn_1(tclient_t *c, void *arg)
{
    (void)arg;
    return cl_turn(c) == 1;
}

START_TEST(late_size_lands_in_the_resumed_game)
{
    int http;
    tsrv_t *s = web_server(&http);
    cl_opts_t o = { .web = 1 };
    tclient_t *a = cl_connect(http, &o);
    play_ready(a);
    ck_assert_int_eq(cl_send_str(a, "l"), 0); /* seed 42: floor east */
    if (!cl_wait(a, at_turn_1, NULL, CL_WAIT_MS))
        play_fail(a, "no turn 1");
    char token[80];
    snprintf(token, sizeof token, "%s", cl_web_token(a));
    ck_assert_int_eq((int)strlen(token), 32);
    cl_abort(a);
    ck_assert(srv_wait_log(s, "game kept id=1", CL_WAIT_MS));

    /* the resume at once, the size only once negotiation_ms has passed */
    cl_opts_t ro = { .web = 1, .resume = token, .hold_size = 1 };
    tclient_t *b = cl_connect(http, &ro);
    ck_assert(cl_wait(b, cl_web_open, NULL, CL_WAIT_MS));
    if (!srv_wait_log(s, WAITING, CL_WAIT_MS))
        ck_abort_msg("no \"%s\":\n%s", WAITING, srv_log(s));
    ck_assert_int_eq(srv_log_count(s, "negotiation_ms passed"), 0);
    ck_assert(!cl_screen_has(b, "Play (as a guest)"));
    cl_web_size(b);
    play_ready(b);
    ck_assert_int_eq(cl_turn(b), 1);
    ck_assert(!cl_screen_has(b, "Play (as a guest)"));
    ck_assert(srv_wait_log(s, "game resumed id=2", CL_WAIT_MS));
    cl_close(b);
    srv_stop(s);
}
END_TEST

static int pongs_are(tclient_t *c, void *arg)
{
    return cl_web_pongs(c) == *(int *)arg;
}

/* "ping" is answered "pong" in the lobby and in a game, once for each,
 * and is no key: the name prompt does not take it. */
START_TEST(ping_is_answered_pong)
{
    int http;
    tsrv_t *s = web_server(&http);
    cl_opts_t o = { .web = 1 };
    tclient_t *c = cl_connect(http, &o);
    ck_assert(cl_wait_text(c, "Play (as a guest)", CL_WAIT_MS));
    unsigned char frame[32];
    size_t n = cl_ws_frame(frame, 1, "ping", 4);
    ck_assert_uint_eq(cl_send_raw(c, frame, n, 1, CL_WAIT_MS), n);
    int want = 1;
    ck_assert(cl_wait(c, pongs_are, &want, CL_WAIT_MS));
    ck_assert_int_eq(cl_send_str(c, "p"), 0);
    ck_assert(cl_wait_text(c, "Name: guest", CL_WAIT_MS));
    ck_assert_uint_eq(cl_send_raw(c, frame, n, 1, CL_WAIT_MS), n);
    ck_assert_uint_eq(cl_send_raw(c, frame, n, 1, CL_WAIT_MS), n);
    want = 3;
    ck_assert(cl_wait(c, pongs_are, &want, CL_WAIT_MS));
    ck_assert(!cl_screen_has(c, "ping")); /* not typed into the name */
    ck_assert_int_eq(cl_send_str(c, "\r"), 0);
    play_ready(c);
    /* nor taken after the check above (a pong goes before a frame): the
     * game begins under the name offered */
    ck_assert(srv_wait_log(s, "game start id=1 name=guest1 seed=", CL_WAIT_MS));
    ck_assert_uint_eq(cl_send_raw(c, frame, n, 1, CL_WAIT_MS), n);
    want = 4;
    ck_assert(cl_wait(c, pongs_are, &want, CL_WAIT_MS));
    cl_close(c);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("web_slow");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, late_size_lands_in_the_resumed_game);
    tcase_add_test(tc, ping_is_answered_pong);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
