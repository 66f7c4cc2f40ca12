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

/* 4 of 4: three play, one idles in the lobby. Only that one can be let
 * go (then 3 of 4 is no longer nearly full), so the count is exact. */
START_TEST(idle_lobby_let_go_when_nearly_full)
{
    tsrv_t *s = srv_start("--set", "max_sessions=4", "--set",
                          "lobby_full_idle_ms=300", "--set",
                          "max_keys_per_second=1000", NULL);
    tclient_t *game[3];
    for (int i = 0; i < 3; i++)
        game[i] = play_connect(srv_port(s), NULL); /* play */
    tclient_t *idle = play_lobby(srv_port(s));
    if (!cl_wait_eof(idle, CL_WAIT_MS))
        play_fail(idle, "the idle lobby player was not let go");
    ck_assert_msg(cl_stream_has(idle, "The server is nearly full and you "
                                "were idle: goodbye."), "no goodbye");
    ck_assert(srv_wait_log(s, "reason=\"idle in the lobby while the server "
                           "is nearly full\"", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "let go id="), 1);
    cl_close(idle);
    /* the players in a game stay, and a newcomer gets in */
    for (int i = 0; i < 3; i++) {
        ck_assert(!cl_closed(game[i]));
        ck_assert(cl_key(game[i], "."));
    }
    tclient_t *n = play_connect(srv_port(s), NULL);
    cl_close(n);
    for (int i = 0; i < 3; i++)
        cl_close(game[i]);
    ck_assert_int_eq(srv_log_count(s, "let go id="), 1);
    srv_stop(s);
}
END_TEST

/* With room to spare (2 of 10), the lobby keeps its idle players. The
 * order, not the time, is checked: the idle warning (idle_timeout=31,
 * idle_warning=30: after a second idle) is drawn by the same sweep that
 * first checks the lobby rule after more than lobby_full_idle_ms, just
 * after that check; had the rule let the player go, no warning would come. */
START_TEST(idle_lobby_kept_with_room)
{
    tsrv_t *s = srv_start("--set", "max_sessions=10", "--set",
                          "lobby_full_idle_ms=300", "--set",
                          "idle_timeout=31", "--set", "idle_warning=30", NULL);
    tclient_t *a = play_lobby(srv_port(s));
    tclient_t *b = play_lobby(srv_port(s));
    if (!cl_wait_text(a, "You are idle: press a key", CL_WAIT_MS))
        play_fail(a, "no idle warning");
    if (!cl_wait_text(b, "You are idle: press a key", CL_WAIT_MS))
        play_fail(b, "no idle warning");
    ck_assert(!cl_closed(a));
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
