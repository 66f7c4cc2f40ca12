/* test_lobby_full.c - silent connections cannot hold the slots for half
 * an hour (issue 25): while the server is nearly full (90% of
 * max_sessions), a player idle in the lobby past lobby_full_idle_ms is let
 * go with a goodbye; one playing a game stays; then a new player gets in.
 * With room to spare, nobody is let go. */
#include <check.h>
#include <stdio.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

START_TEST(idle_lobby_let_go_when_nearly_full)
{
    tsrv_t *s = srv_start("--set", "max_sessions=4", "--set",
                          "lobby_full_idle_ms=300", "--set",
                          "max_keys_per_second=1000", NULL);
    tclient_t *game = play_connect(srv_port(s), NULL); /* plays */
    tclient_t *idle[3];
    for (int i = 0; i < 3; i++)
        idle[i] = play_lobby(srv_port(s));
    /* full: the lobby's idle players go (until there is room again),
     * each with a goodbye */
    ck_assert(srv_wait_log(s, "let go id=", 30000));
    int let_go = srv_log_count(s, "let go id=");
    ck_assert(srv_wait_log_count(s, "reason=\"idle in the lobby while the "
                                 "server is nearly full\"", let_go, 30000));
    int gone = 0;
    for (int i = 0; i < 3; i++) {
        if (!cl_wait_eof(idle[i], 2000))
            continue;
        ck_assert_msg(cl_stream_has(idle[i], "The server is nearly full and "
                                    "you were idle: goodbye."), "no goodbye");
        gone++;
    }
    ck_assert_int_ge(gone, 1);
    ck_assert_int_eq(gone, let_go);
    for (int i = 0; i < 3; i++)
        cl_close(idle[i]);
    /* the player in a game stays, and a newcomer gets in */
    ck_assert(!cl_closed(game));
    ck_assert(cl_key(game, "."));
    tclient_t *n = play_connect(srv_port(s), NULL);
    cl_close(n);
    cl_close(game);
    srv_stop(s);
}
END_TEST

/* With room to spare (2 of 10), the lobby keeps its idle players. */
START_TEST(idle_lobby_kept_with_room)
{
    tsrv_t *s = srv_start("--set", "max_sessions=10", "--set",
                          "lobby_full_idle_ms=300", NULL);
    tclient_t *a = play_lobby(srv_port(s));
    tclient_t *b = play_lobby(srv_port(s));
    /* a second connection after more than the clock: both still here */
    ck_assert(!cl_wait_eof(a, 2500));
    ck_assert(!cl_closed(b));
    ck_assert_int_eq(srv_log_count(s, "nearly full"), 0);
    cl_close(a);
    cl_close(b);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("lobby_full");
    TCase *tc = tcase_create("lobby_full");
    tcase_set_timeout(tc, 90);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, idle_lobby_let_go_when_nearly_full);
    tcase_add_test(tc, idle_lobby_kept_with_room);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
