/* test_workers.c - two worker loops behave as one server. Consecutive
 * connections land on different loops (the acceptor gives each to the
 * loop with the fewest sessions; the log says which), and across loops:
 * players watch each other, see each other in the lobby's counts and list
 * of games, take an account's game over, meet one server-full limit; and
 * a SIGTERM with players on both loops exits 0 with every account's game
 * kept for the next login. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

/* The log's connect line puts session `id` on loop `worker`. */
static void expect_loop(tsrv_t *s, int id, int worker)
{
    char line[64];
    snprintf(line, sizeof line, " id=%d worker=%d ", id, worker);
    if (!srv_wait_log(s, line, CL_WAIT_MS))
        ck_abort_msg("session %d is not on worker %d:\n%s", id, worker,
                     srv_log(s));
}

static int pred_turn_is(tclient_t *w, void *arg)
{
    return cl_turn(w) == cl_turn(arg);
}

static void expect_follows(tclient_t *player, tclient_t *watcher)
{
    if (!cl_wait(watcher, pred_turn_is, player, CL_WAIT_MS))
        play_fail(watcher, "the watcher is at turn %d, the player at %d",
                  cl_turn(watcher), cl_turn(player));
}

START_TEST(loops_count_list_and_watch_each_other)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    ck_assert(srv_log_has(s, "2 worker loops"));
    tclient_t *a = play_connect(srv_port(s), NULL); /* guest1 plays */
    expect_loop(s, 1, 0);
    tclient_t *b = play_connect(srv_port(s), NULL); /* guest2 plays */
    expect_loop(s, 2, 1);
    /* A third and a fourth, one on each loop, each watching the player of
     * the other loop. */
    tclient_t *c = play_lobby(srv_port(s));
    expect_loop(s, 3, 0);
    play_wait_text(c, "3 players online, 2 games in progress");
    tclient_t *d = play_lobby(srv_port(s));
    expect_loop(s, 4, 1);
    play_wait_text(d, "4 players online, 2 games in progress");
    ck_assert(cl_key(c, "w"));
    play_wait_text(c, "guest1");
    play_wait_text(c, "guest2");
    ck_assert(cl_key(c, "q"));
    play_wait_text(c, "Play (as a guest)");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    /* c (loop 0) watches guest2 (loop 1): the second game listed */
    ck_assert(cl_key(c, "w"));
    play_wait_text(c, "guest2");
    ck_assert(cl_key(c, "b"));
    play_wait_text(c, "Watching guest2 - q leaves");
    /* d (loop 1) watches guest1 (loop 0) */
    play_watch_first(d, "guest1");
    play_move(a, "l", 1, 0);
    play_move(a, "h", -1, 0);
    play_move(b, "l", 1, 0);
    expect_follows(a, d);
    expect_follows(b, c);
    /* Each player sees its watcher counted, from the other loop. */
    play_wait_text(a, "1 watching");
    play_wait_text(b, "1 watching");
    cl_close(a);
    cl_close(b);
    cl_close(c);
    cl_close(d);
    srv_stop(s);
}
END_TEST

START_TEST(a_login_on_one_loop_takes_the_game_from_the_other)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *a = play_lobby(srv_port(s));
    expect_loop(s, 1, 0);
    play_account(a, "carol", "carolspw", 1);
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    play_move(a, "l", 1, 0);
    play_move(a, "h", -1, 0);
    int ax, ay;
    ck_assert_int_eq(cl_find(a, '@', &ax, &ay), 1);

    tclient_t *b = play_lobby(srv_port(s));
    expect_loop(s, 2, 1);
    ck_assert(cl_key(b, "l"));
    play_type_line(b, "carol");
    play_type_line(b, "carolspw");
    play_wait_text(b, "Turn:2");
    ck_assert(cl_sync(b, CL_WAIT_MS));
    int bx, by;
    ck_assert_int_eq(cl_find(b, '@', &bx, &by), 1);
    ck_assert_int_eq(bx, ax);
    ck_assert_int_eq(by, ay);
    if (!cl_wait_eof(a, CL_WAIT_MS))
        play_fail(a, "the first connection is still open");
    ck_assert(cl_stream_has(a, "Your account has logged in from elsewhere."));
    play_move(b, "l", 1, 0);
    ck_assert_int_eq(cl_turn(b), 3);
    /* one game, moved: nothing ended or recorded on the way */
    ck_assert_int_eq(srv_log_count(s, "game over"), 0);
    cl_close(a);
    cl_close(b);
    srv_stop(s);
}
END_TEST

START_TEST(server_full_counts_every_loop)
{
    tsrv_t *s = srv_start("--set", "max_sessions=2", NULL);
    tclient_t *a = play_lobby(srv_port(s));
    tclient_t *b = play_lobby(srv_port(s));
    expect_loop(s, 1, 0);
    expect_loop(s, 2, 1);
    tclient_t *c = cl_connect(srv_port(s), NULL);
    if (!cl_wait_text(c, "server is full", CL_WAIT_MS))
        play_fail(c, "no \"server is full\" line");
    ck_assert(cl_stream_has(c, "Sorry, the server is full (2 players)."));
    ck_assert(cl_wait_eof(c, CL_WAIT_MS));
    cl_close(c);
    /* One leaves (from loop 1): the next gets its slot, on either loop. */
    cl_close(b);
    ck_assert(srv_wait_log(s, "disconnect", CL_WAIT_MS));
    tclient_t *d = play_lobby(srv_port(s));
    play_wait_text(d, "2 players online");
    cl_close(a);
    cl_close(d);
    srv_stop(s);
}
END_TEST

START_TEST(sigterm_keeps_the_games_of_both_loops)
{
    char dir[] = "/tmp/rogued-workers-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    tsrv_t *s = srv_start("--seed", "42", "--data-dir", dir, NULL);
    tclient_t *a = play_lobby(srv_port(s));
    tclient_t *b = play_lobby(srv_port(s));
    expect_loop(s, 1, 0);
    expect_loop(s, 2, 1);
    play_account(a, "dave", "davespassword", 1);
    play_account(b, "erin", "erinspassword", 1);
    ck_assert(cl_key(a, "p"));
    ck_assert(cl_key(b, "p"));
    play_wait_text(a, "HP: ");
    play_wait_text(b, "HP: ");
    play_move(a, "l", 1, 0);
    play_move(b, "l", 1, 0);
    play_move(b, "h", -1, 0);
    int ta = cl_turn(a), tb = cl_turn(b);
    srv_signal(s, SIGTERM);
    ck_assert(srv_wait_log(s, "shutting down (SIGTERM), 2 players online",
                           CL_WAIT_MS));
    ck_assert(cl_wait_eof(a, CL_WAIT_MS));
    ck_assert(cl_wait_eof(b, CL_WAIT_MS));
    ck_assert(srv_wait_log(s, "game suspended id=1 name=dave", CL_WAIT_MS));
    ck_assert(srv_wait_log(s, "game suspended id=2 name=erin", CL_WAIT_MS));
    srv_stop(s); /* exit 0 */
    cl_close(a);
    cl_close(b);

    s = srv_start("--seed", "42", "--data-dir", dir, NULL);
    const char *names[2] = { "dave", "erin" };
    const char *pass[2] = { "davespassword", "erinspassword" };
    int turns[2] = { ta, tb };
    for (int i = 0; i < 2; i++) {
        tclient_t *c = play_lobby(srv_port(s));
        play_account(c, names[i], pass[i], 0);
        char offer[64];
        snprintf(offer, sizeof offer, "Continue your game (depth 1, turn %d)",
                 turns[i]);
        play_wait_text(c, offer);
        cl_close(c);
    }
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("workers");
    TCase *tc = tcase_create("workers");
    tcase_set_timeout(tc, 90);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, loops_count_list_and_watch_each_other);
    tcase_add_test(tc, a_login_on_one_loop_takes_the_game_from_the_other);
    tcase_add_test(tc, server_full_counts_every_loop);
    tcase_add_test(tc, sigterm_keeps_the_games_of_both_loops);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
