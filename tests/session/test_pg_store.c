/* test_pg_store.c - the real server with `store = postgresql://...`: a
 * player registers and plays, the server is killed with SIGKILL, and the
 * next login continues the game (at most the last second of keys lost);
 * a guest's finished game is in the hall of fame and replays to its final
 * screen; a database that stops taking writes is said on screen and the
 * game goes on, nothing lost once it takes them again. Nothing is written
 * to a SQLite file in the data directory.
 *
 * Run by tests/run-tests.sh's pg family only (ROGUED_TEST_PG: a throwaway
 * cluster, each test a database of its own: tests/store_where.h); the
 * session family leaves test_pg_* out. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "combat.h"
#include "game.h"
#include "metrics.h"
#include "plan.h"
#include "play.h"
#include "store_where.h"

static char dir[64], store_arg[300];

/* A data directory and a database of the test's own. */
static void start_test(void)
{
    ck_assert_msg(sw_pg(), "ROGUED_TEST_PG is not set: run the pg family "
                  "(tests/run-tests.sh pg)");
    snprintf(dir, sizeof dir, "/tmp/rogued-pgs-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    sw_setup(dir);
    snprintf(store_arg, sizeof store_arg, "store=%s", sw_url);
}

static void end_test(void)
{
    /* the server kept nothing in the data directory's SQLite file */
    char db[128];
    snprintf(db, sizeof db, "%s/%s", dir, STORE_FILE);
    ck_assert_int_ne(access(db, F_OK), 0);
    sw_teardown();
    srv_remove_tree(dir);
}

START_TEST(register_play_sigkill_and_continue)
{
    start_test();
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)play_walk_seed());
    tsrv_t *s = srv_start("--seed", seed, "--data-dir", dir, "--set",
                          store_arg, "--log-level", "debug", "--set",
                          "max_keys_per_second=100000", NULL);
    ck_assert(srv_log_has(s, "store: postgresql://"));
    tclient_t *a = play_lobby(srv_port(s));
    play_login_dave(a, 1);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM accounts WHERE name ="
                            " 'dave'"), 1);
    int turn40, last = play_walk_saved(s, a, &turn40);
    srv_kill(s);
    cl_close(a);
    /* what the database holds: at least the first 40 keys */
    ck_assert_int_ge(sw_int("SELECT keys_len FROM progress"), 40);

    s = srv_start("--seed", seed, "--data-dir", dir, "--set", store_arg, NULL);
    tclient_t *b = play_lobby(srv_port(s));
    play_login_dave(b, 0);
    int turn = play_continue(b, turn40, last);
    /* the very game: the same keys in-process reach that turn on the same
     * screen */
    static const int calls[] = { 40, 10, 5 };
    play_expect_walked(b, strtoull(seed, NULL, 10), calls, 3, turn);
    cl_close(b);
    srv_stop(s);
    end_test();
}
END_TEST

START_TEST(hall_of_fame_and_replay)
{
    start_test();
    tsrv_t *s;
    tclient_t *c;
    game_t *g = plan_death_setup(NULL, &s, &c, NULL, "--data-dir", dir,
                                 "--set", store_arg, NULL);
    ck_assert(cl_key(c, "q"));
    play_wait_text(c, "Play as guest1");
    /* the store writes the finished game on its own thread, soon after:
     * waited for (a deadline only ends the wait) */
    ck_assert_int_eq(sw_int_reaches("SELECT count(*) FROM games WHERE player ="
                                    " 'guest1' AND record IS NOT NULL", 1), 1);

    tclient_t *r = play_lobby(srv_port(s));
    ck_assert(cl_key(r, "s"));
    play_wait_text(r, "Hall of fame");
    ck_assert(cl_key(r, "a"));
    play_wait_text(r, "Replay: guest1");
    for (int i = 0; i < 4; i++) /* faster */
        ck_assert(cl_key(r, "+"));
    play_wait_replay_end(r);
    play_expect_rows(r, g, 0, 12, 0, -1);
    play_expect_rows(r, g, 14, 19, 0, -1);
    play_expect_replay_log(r, g, 20, 23);
    /* but for the end box's keys: a replay's go back to the lobby */
    char row13[128];
    ck_assert_str_eq(cl_row(r, 13, row13, sizeof row13),
                     "               |          Esc or q: back to the lobby"
                     "           |");
    game_free(g);
    cl_close(r);
    cl_close(c);
    srv_stop(s);
    end_test();
}
END_TEST

/* A server on the test's database, with the walk's seed and one more
 * setting (or NULL). */
static tsrv_t *store_server(const char *set)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)play_walk_seed());
    return srv_start("--seed", seed, "--data-dir", dir, "--set", store_arg,
                     set ? "--set" : NULL, set, NULL);
}

/* a leaves (the server's session `id`), and dave is offered his game at
 * the turn a last showed: the store has every key. */
static void resume_offers_the_last_turn(tsrv_t *s, tclient_t *a, int id)
{
    int turn = cl_turn(a);
    cl_close(a);
    char left[64];
    snprintf(left, sizeof left, "game suspended id=%d name=dave", id);
    ck_assert(srv_wait_log(s, left, CL_WAIT_MS));
    tclient_t *b = play_lobby(srv_port(s));
    play_login_dave(b, 0);
    char offer[64];
    snprintf(offer, sizeof offer, "Continue your game (depth 1, turn %d)", turn);
    play_wait_text(b, offer);
    cl_close(b);
}

/* The store's lock wait for the tests whose order of events does not
 * hang on it: each waits it out once, so the default's 10 s made them
 * most of the suite's time. Two keep the default, as a busy machine
 * could take seconds over what must happen within the wait:
 * a_failure_between_two_sweeps_is_not_missed queues its second key
 * behind the first, and a_game_resumed_after_a_failure_is_kept_again
 * has its player leave while the batch with his keys waits (left after
 * the failure, the game would be sent again whole, and kept at a later
 * turn than the test offers). */
#define LOCK_WAIT_SET "store_lock_timeout_ms=2000"

/* A server on the test's database (store_server's `set`), on which dave
 * registers and plays (*a); once his game's begin is in the database,
 * another session takes its tables (*lock: unlock lets go): the store's
 * statements on them wait out lock_timeout (`store_lock_timeout_ms`: the
 * default 10 s, or LOCK_WAIT_SET's shorter wait) and fail. */
static tsrv_t *play_then_lock(const char *set, tclient_t **a, PGconn **lock)
{
    start_test();
    tsrv_t *s = store_server(set);
    *a = play_lobby(srv_port(s));
    play_login_dave(*a, 1);
    ck_assert(cl_key(*a, "p"));
    play_wait_text(*a, "HP: ");
    ck_assert_int_eq(sw_int_reaches("SELECT count(*) FROM progress", 1), 1);
    *lock = PQconnectdb(sw_url);
    ck_assert_int_eq(PQstatus(*lock), CONNECTION_OK);
    PGresult *res = PQexec(*lock, "BEGIN; LOCK TABLE progress, progress_keys"
                                  " IN ACCESS EXCLUSIVE MODE");
    ck_assert_int_eq(PQresultStatus(res), PGRES_COMMAND_OK);
    PQclear(res);
    return s;
}

/* a is told its game is not being saved. */
static void expect_told(tclient_t *a)
{
    if (!cl_wait_text(a, "The server cannot save your game right now.",
                      CL_WAIT_MS * 4))
        play_fail(a, "the player was not told");
}

/* Until a statement of the store waits on the lock. (pg_locks is the
 * whole cluster's: other tests' databases are in it.) */
static void wait_store_blocked(void)
{
    ck_assert_int_eq(sw_int_reaches("SELECT count(*) FROM pg_locks l JOIN "
                                    "pg_database d ON d.oid = l.database "
                                    "WHERE NOT l.granted AND d.datname = "
                                    "current_database()", 1), 1);
}

/* The lock goes (play_then_lock's). */
static void unlock(PGconn *lock)
{
    PQclear(PQexec(lock, "ROLLBACK"));
    PQfinish(lock);
}

/* Another session holds the game's tables: the store's statements wait
 * out lock_timeout (2 s here) and fail; the player is told, plays on, and
 * once the lock goes every key is kept. The game's begin is in the
 * database before the lock, and one key goes before the player is told:
 * so the failing batch is the only one, and no batch of keys dropped for
 * the failed game (which touches no table) commits before the sweep has
 * seen the failure and told the player (a batch that writes nothing
 * does not make the store healthy again: the next test is that case). */
START_TEST(a_database_that_fails_is_said_on_screen)
{
    tclient_t *a;
    PGconn *lock;
    tsrv_t *s = play_then_lock(LOCK_WAIT_SET, &a, &lock);
    play_walk_keys(a, 1);
    expect_told(a);
    ck_assert(srv_log_has(s, "writes are failing"));
    play_walk_keys(a, 3); /* it plays on */
    unlock(lock);
    play_walk_keys(a, 1);
    ck_assert(srv_wait_log(s, "writes work again", CL_WAIT_MS * 4));
    ck_assert(srv_wait_log(s, "progress id=1: sent again whole after the "
                              "store recovered", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "writes are failing"), 1);
    resume_offers_the_last_turn(s, a, 1);
    srv_stop(s);
    end_test();
}
END_TEST

/* A failure that a batch of no writes follows at once: a key's append
 * waits on the lock, the next key's append is queued behind it; when the
 * first fails (lock_timeout), the second is dropped for the game that
 * failure broke, so its batch touches no table and commits. That is no
 * recovery: the store stays failing, so no sweep sends the game again
 * whole (to fail again) nor says it did while the lock holds (the
 * store's own write, once a second, waits on it too). Once the lock goes
 * the log says writes work again, the game is sent again whole once, and
 * a resume goes on from the last key. */
START_TEST(a_failure_between_two_sweeps_is_not_missed)
{
    char set[64];
    int mport = cl_free_port();
    snprintf(set, sizeof set, "metrics_port=%d", mport);
    tclient_t *a;
    PGconn *lock;
    const char *again = "progress id=1: sent again whole after the store "
                        "recovered";
    tsrv_t *s = play_then_lock(set, &a, &lock);
    play_walk_keys(a, 1);
    wait_store_blocked();
    play_walk_keys(a, 1);
    ck_assert(metrics_wait(mport, "rogued_store_queued", 1));
    ck_assert(srv_wait_log(s, "writes are failing", CL_WAIT_MS * 2));
    ck_assert(metrics_wait(mport, "rogued_store_failed_batches_total", 1));
    ck_assert(metrics_wait(mport, "rogued_store_queued", 0));
    /* (a sweep after the batch of no writes: the player is told) */
    play_walk_keys(a, 1);
    expect_told(a);
    ck_assert_int_eq(srv_log_count(s, again), 0);
    ck_assert_int_eq(srv_log_count(s, "writes work again"), 0);
    unlock(lock);
    ck_assert(srv_wait_log(s, "writes work again", CL_WAIT_MS * 2));
    ck_assert(srv_wait_log(s, again, CL_WAIT_MS));
    play_walk_keys(a, 1);
    resume_offers_the_last_turn(s, a, 1);
    ck_assert_int_eq(srv_log_count(s, again), 1);
    ck_assert_int_eq(srv_log_count(s, "writes are failing"), 1);
    srv_stop(s);
    end_test();
}
END_TEST

/* dave leaves while a batch with his keys waits on the lock; it fails,
 * and the store's copy of his game ends at the last key it kept (the
 * keys after it are dropped until something says where they follow on).
 * At his next login he goes on from that key, and what he plays then is
 * kept: the load the game went on from is where the keys follow on. */
START_TEST(a_game_resumed_after_a_failure_is_kept_again)
{
    tclient_t *a;
    PGconn *lock;
    tsrv_t *s = play_then_lock(NULL, &a, &lock);
    int kept = cl_turn(a);
    play_walk_keys(a, 1);
    wait_store_blocked();
    cl_close(a);
    ck_assert(srv_wait_log(s, "game suspended id=1 name=dave", CL_WAIT_MS));
    ck_assert(srv_wait_log(s, "writes are failing", CL_WAIT_MS * 2));
    unlock(lock);
    tclient_t *b = play_lobby(srv_port(s));
    play_login_dave(b, 0);
    char offer[64];
    snprintf(offer, sizeof offer, "Continue your game (depth 1, turn %d)", kept);
    play_wait_text(b, offer);
    ck_assert(cl_key(b, "p"));
    play_wait_text(b, "HP: ");
    play_walk_keys(b, 3);
    ck_assert_int_gt(cl_turn(b), kept);
    resume_offers_the_last_turn(s, b, 2);
    srv_stop(s);
    end_test();
}
END_TEST

/* dave's game is taken over by his next login (another loop) while writes
 * fail and he has been told so: the store has dropped his keys since the
 * failure, and the session that goes on with the game sends it again
 * whole once writes work, as the one that lost them would have. */
START_TEST(a_game_taken_over_while_writes_fail_is_kept)
{
    tclient_t *a;
    PGconn *lock;
    tsrv_t *s = play_then_lock(LOCK_WAIT_SET, &a, &lock);
    play_walk_keys(a, 1);
    expect_told(a);
    tclient_t *b = play_lobby(srv_port(s));
    ck_assert(cl_key(b, "l"));
    play_type_line(b, "dave");
    play_type_line(b, "davespassword");
    play_wait_text(b, "HP: ");
    if (!cl_wait_eof(a, CL_WAIT_MS))
        play_fail(a, "the first connection is still open");
    cl_close(a);
    unlock(lock);
    play_walk_keys(b, 3);
    ck_assert(srv_wait_log(s, "writes work again", CL_WAIT_MS));
    resume_offers_the_last_turn(s, b, 2);
    srv_stop(s);
    end_test();
}
END_TEST

/* dave is told his game cannot be saved; the lock goes, and he leaves
 * before the sweep that would send his game whole (once a second: he
 * leaves as soon as his next key is shown, so the sweep seldom comes
 * first, and when it does the test passes either way). His leave sends
 * the game whole itself (if the store's own write has not found writes
 * working first), and the next login is offered the turn he left at. */
START_TEST(a_player_who_leaves_as_writes_come_back_loses_nothing)
{
    tclient_t *a;
    PGconn *lock;
    tsrv_t *s = play_then_lock(LOCK_WAIT_SET, &a, &lock);
    play_walk_keys(a, 1);
    expect_told(a);
    unlock(lock);
    play_walk_keys(a, 1); /* its append is dropped: its batch commits */
    resume_offers_the_last_turn(s, a, 1);
    ck_assert(srv_wait_log(s, "writes work again", CL_WAIT_MS));
    srv_stop(s);
    end_test();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pg_store");
    TCase *tc = tcase_create("pg_store");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, register_play_sigkill_and_continue);
    tcase_add_test(tc, hall_of_fame_and_replay);
    tcase_add_test(tc, a_database_that_fails_is_said_on_screen);
    tcase_add_test(tc, a_failure_between_two_sweeps_is_not_missed);
    tcase_add_test(tc, a_game_resumed_after_a_failure_is_kept_again);
    tcase_add_test(tc, a_game_taken_over_while_writes_fail_is_kept);
    tcase_add_test(tc, a_player_who_leaves_as_writes_come_back_loses_nothing);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
