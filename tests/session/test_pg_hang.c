/* test_pg_hang.c - a PostgreSQL store that hangs (its server process for
 * this test's rogued stopped with SIGSTOP: it neither answers nor closes,
 * and the kernel still acknowledges every byte) costs players nothing
 * but a note (issue 25, docs/hosting.md): a guest starts a game without
 * the store; a login is told on screen that the store is not answering;
 * the store gives the hung connection up at its deadline and connects
 * again, so the same login, tried again, gets in while the old process is
 * still stopped. A load of a saved game slower than the player's wait is
 * said as well, and p looks again rather than begin a game. A stop while
 * the store's connection hangs does not tell a player the game is saved;
 * one while the cluster thread's hangs ends within seconds.
 *
 * Run by tests/run-tests.sh's pg family only (ROGUED_TEST_PG). */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "play.h"
#include "store_where.h"

static char dir[64], store_arg[400];
/* the stopped processes: continued whatever happens */
static pid_t stopped[2];
static int nstopped;

static void continue_stopped(void)
{
    while (nstopped > 0)
        kill(stopped[--nstopped], SIGCONT);
}

/* Stops the database's server process for application app (other than
 * the one stopped already, if any), until continue_stopped. */
static void stop_backend(const char *app)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT pid FROM pg_stat_activity WHERE "
             "datname = current_database() AND application_name = '%s' "
             "AND pid <> %d", app, nstopped ? (int)stopped[0] : 0);
    long long pid = sw_int(sql);
    if (pid <= 0 || nstopped == 2)
        continue_stopped(); /* (a failed check skips the teardown) */
    ck_assert_int_gt(pid, 0);
    ck_assert_int_lt(nstopped, 2);
    ck_assert_int_eq(kill((pid_t)pid, SIGSTOP), 0);
    stopped[nstopped++] = (pid_t)pid;
}

static void start_test(const char *params)
{
    ck_assert_msg(sw_pg(), "ROGUED_TEST_PG is not set: run the pg family "
                  "(tests/run-tests.sh pg)");
    snprintf(dir, sizeof dir, "/tmp/rogued-pgh-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    sw_setup(dir);
    snprintf(store_arg, sizeof store_arg, "store=%s%s", sw_url, params);
}

static void end_test(void)
{
    sw_teardown();
    srv_remove_tree(dir);
}

/* The game on screen: an '@' and the status line. */
static int in_game(tclient_t *c, void *arg)
{
    char row[16];
    int x, y;
    (void)arg;
    return cl_find(c, '@', &x, &y) == 1 &&
           strncmp(cl_row(c, cl_h(c) - 1, row, sizeof row), "HP:", 3) == 0;
}

static void login_dave(tclient_t *c)
{
    ck_assert(cl_key(c, "l"));
    play_type_line(c, "dave");
    play_type_line(c, "davespassword");
}

START_TEST(store_stopped_guests_play_logins_told)
{
    /* the store gives a wait up after tcp_user_timeout + 2 s (10 s); a
     * player is told after store_wait_ms (2 s, checked each second):
     * the player is told long before the store gives up */
    start_test("?tcp_user_timeout=8000");
    tsrv_t *s = srv_start("--data-dir", dir, "--set", store_arg, "--set",
                          "store_wait_ms=2000", "--log-level", "debug", NULL);
    tclient_t *a = play_lobby(srv_port(s));
    play_login_dave(a, 1);
    cl_close(a);

    /* the store's own server process (the cluster thread has another) */
    stop_backend("rogued");

    /* a guest: p, Enter on the name offered, and the game is on */
    tclient_t *g = play_lobby(srv_port(s));
    ck_assert_int_eq(cl_send_str(g, "p"), 0);
    play_wait_text(g, "Name: guest");
    ck_assert_int_eq(cl_send_str(g, "\r"), 0);
    if (!cl_wait(g, in_game, NULL, CL_WAIT_MS))
        play_fail(g, "a guest did not get a game while the store hung");

    /* a login: told, and back at the prompt */
    tclient_t *b = play_lobby(srv_port(s));
    login_dave(b);
    play_wait_text(b, "The server's store is not answering: please try "
                      "again in a moment.");
    ck_assert(srv_wait_log(s, "store away id=", CL_WAIT_MS));
    play_wait_text(b, "Name:");

    /* the store gives the hung connection up, and connects anew: the
     * login tried again gets in, the old process still stopped */
    ck_assert(srv_wait_log(s, "the connection is given up", 30000));
    play_type_line(b, "dave");
    play_type_line(b, "davespassword");
    play_wait_text(b, "Logged in as dave");

    continue_stopped();
    ck_assert(srv_alive(s));
    cl_close(b);
    cl_close(g);
    srv_stop(s);
    end_test();
}
END_TEST

/* A login whose saved game is not looked up within store_wait_ms (4 s,
 * told at the sweep after it: a trigger makes the load's claim take 9 s,
 * under the store's 10 s statement timeout) is told the store is not
 * answering; p then looks again rather than begin a game, and goes on
 * with the saved one once the store answers (docs/hosting.md). */
START_TEST(a_slow_lookup_is_said_and_p_looks_again)
{
    start_test("");
    tsrv_t *s = srv_start("--data-dir", dir, "--set", store_arg, "--set",
                          "store_wait_ms=4000", NULL);
    tclient_t *a = play_lobby(srv_port(s));
    play_login_dave(a, 1);
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    play_walk_keys(a, 10);
    int turn = cl_turn(a);
    cl_close(a);
    ck_assert(srv_wait_log(s, "game suspended id=1 name=dave", CL_WAIT_MS));

    sw_exec("CREATE FUNCTION slow_claim() RETURNS trigger LANGUAGE plpgsql"
            " AS $$ BEGIN PERFORM pg_sleep(9); RETURN NEW; END $$");
    sw_exec("CREATE TRIGGER slow_claim BEFORE UPDATE OF progress_claim ON"
            " accounts FOR EACH ROW EXECUTE FUNCTION slow_claim()");
    tclient_t *b = play_lobby(srv_port(s));
    login_dave(b);
    /* the login itself was answered: what is not is the lookup after it */
    ck_assert(srv_wait_log(s, "login id=2 name=dave", CL_WAIT_MS));
    play_wait_text(b, "The server's store is not answering: please try "
                      "again in a moment.");
    ck_assert(srv_wait_log(s, "store away id=2", CL_WAIT_MS));
    ck_assert(!srv_log_has(s, "game start id=2"));
    /* (waits for the slow statement's end, which holds the table) */
    sw_exec("DROP TRIGGER slow_claim ON accounts");

    ck_assert(cl_key(b, "p"));
    char offer[64];
    snprintf(offer, sizeof offer, "Continue your game (depth 1, turn %d)", turn);
    play_wait_text(b, offer);
    ck_assert(!srv_log_has(s, "game start id=2"));
    ck_assert(cl_key(b, "p"));
    play_wait_text(b, "HP: ");
    ck_assert(cl_sync(b, CL_WAIT_MS));
    ck_assert_int_eq(cl_turn(b), turn);
    cl_close(b);
    srv_stop(s);
    end_test();
}
END_TEST

/* A stop while the store's connection hangs: the batch it runs has waited
 * longer than a player waits (store_wait_ms, 2 s: a login is told the
 * store is not answering), so dave's latest keys may never be kept, and
 * his goodbye says so rather than that his game is saved, and the log's
 * `game suspended` line says the store has not answered. The store
 * gives the hung connection up at its deadline (tcp_user_timeout + 2 s,
 * 10 s) and the server exits 0. */
START_TEST(a_stop_while_the_store_hangs_says_the_game_may_not_be_saved)
{
    start_test("?tcp_user_timeout=8000");
    tsrv_t *s = srv_start("--data-dir", dir, "--set", store_arg, "--set",
                          "store_wait_ms=2000", NULL);
    tclient_t *a = play_lobby(srv_port(s));
    play_login_dave(a, 1);
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");

    stop_backend("rogued");
    play_walk_keys(a, 3);
    tclient_t *b = play_lobby(srv_port(s));
    login_dave(b);
    int told = cl_wait_text(b, "The server's store is not answering",
                            CL_WAIT_MS);
    srv_signal(s, SIGTERM);
    int bye = cl_wait_text(a, "may not have saved your latest", CL_WAIT_MS);
    int noted = srv_wait_log(s, "game suspended id=1 name=dave", CL_WAIT_MS) &&
                srv_log_has(s, "(kept for the next login; the store has not "
                               "answered for 2000 ms or more: the turns "
                               "since its last write may be lost)");
    continue_stopped(); /* (a failed check skips the teardown) */
    ck_assert_msg(told, "the login was not told the store is not answering");
    if (!bye)
        play_fail(a, "the goodbye did not say the game may not be saved");
    ck_assert_msg(noted, "the log did not say the store has not answered");
    ck_assert(!cl_screen_has(a, "your game is saved"));
    cl_close(b);
    cl_close(a);
    srv_stop(s);
    end_test();
}
END_TEST

/* The cluster thread's connection hangs (its server process stopped): its
 * heartbeat is given up at the deadline (tcp_user_timeout + 2 s: 5 s) and
 * the thread connects again, the old process still stopped. That
 * connection hangs too, and the server is stopped: the thread's last
 * statements (this host's rows removed) would wait for their deadline;
 * the stop gives the connection up after 1 s instead, as its log says,
 * and the server exits 0, its player told goodbye, the deadline's line
 * logged only for the first connection (no timed check: the wait for the
 * exit only ends the test; docs/hosting.md, "What the hosts share, and
 * how"). */
START_TEST(a_stop_while_the_cluster_hangs_exits)
{
    start_test("?tcp_user_timeout=3000");
    tsrv_t *s = srv_start("--data-dir", dir, "--set", store_arg, NULL);
    ck_assert(srv_wait_log(s, "listening on the database", CL_WAIT_MS));
    tclient_t *a = play_lobby(srv_port(s));
    play_login_dave(a, 1);
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");

    /* (a failed check ends the test before its checked teardown: the
     * processes are continued before each) */
    stop_backend("rogued-cluster");
    int again = srv_wait_log(s, "postgresql: no answer within 5000 ms: the "
                                "connection is given up", 15000) &&
                srv_wait_log(s, "cluster: lost the database", CL_WAIT_MS) &&
                srv_wait_log_count(s, "listening on the database", 2,
                                   CL_WAIT_MS);
    if (!again)
        continue_stopped();
    ck_assert_msg(again, "the hung statement was not given up, or the "
                  "thread did not connect again");

    stop_backend("rogued-cluster");
    srv_signal(s, SIGTERM);
    int exited = srv_wait_exited(s, CL_WAIT_MS);
    continue_stopped();
    ck_assert_msg(exited, "still running after SIGTERM, its cluster "
                  "connection hung");
    play_wait_text(a, "The server is shutting down");
    ck_assert(srv_log_has(s, "cluster: no answer from the database within "
                             "1000 ms of the stop: its connection is given "
                             "up"));
    ck_assert(srv_log_has(s, "cluster: stopped without removing this "
                             "host's rows"));
    ck_assert_int_eq(srv_log_count(s, "no answer within 5000 ms"), 1);
    cl_close(a);
    srv_stop(s); /* exit status 0, and no sanitizer's report */
    end_test();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pg_hang");
    TCase *tc = tcase_create("pg_hang");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_checked_fixture(tc, NULL, continue_stopped);
    tcase_add_test(tc, store_stopped_guests_play_logins_told);
    tcase_add_test(tc, a_slow_lookup_is_said_and_p_looks_again);
    tcase_add_test(tc, a_stop_while_the_cluster_hangs_exits);
    tcase_add_test(tc, a_stop_while_the_store_hangs_says_the_game_may_not_be_saved);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
