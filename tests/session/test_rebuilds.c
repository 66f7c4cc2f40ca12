/* test_rebuilds.c - the rebuilds' settings reach their pool, and what
 * /metrics says of the rebuilds and of output waiting follows from what a
 * player did (docs/hosting.md, "Operations"):
 *   - rebuild_threads, rebuild_queue and rebuild_per_ip set: the server
 *     runs that many threads named "rogued-rebuild" (counted in
 *     /proc/PID/task) and its pool logs its bounds; the defaults likewise;
 *   - a value outside a key's range, or not a number, stops the server at
 *     start with the line naming the key, the value and the range;
 *   - a game resumed at login is rebuilt once, every key it had replayed:
 *     rogued_rebuilds_total{outcome="started"} 1 and
 *     rogued_rebuild_keys_total the keys the player sent, none waiting or
 *     running after;
 *   - a saved game whose rebuild is refused for its address is kept: p
 *     asks again and begins no game, and offers it once the other
 *     rebuild has run;
 *   - a client that stops reading: rogued_sessions_output_waiting 1 and
 *     rogued_output_queued_bytes above 0; reading again, both back to 0. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "metrics.h"
#include "play.h"
#include "preload.h"

/* the keys of the resumed game */
#define KEYS 12

START_TEST(rebuild_settings_reach_the_pool)
{
    tsrv_t *s = srv_start("--set", "rebuild_threads=3", "--set",
                          "rebuild_queue=7", "--set", "rebuild_per_ip=0",
                          NULL);
    ck_assert(srv_wait_log(s, "rebuilds: 3 threads, at most 7 waiting, "
                              "no bound an address", CL_WAIT_MS));
    ck_assert_int_eq(srv_threads_named(s, "rogued-rebuild"), 3);
    srv_stop(s);

    s = srv_start(NULL); /* the defaults (docs/hosting.md) */
    ck_assert(srv_wait_log(s, "rebuilds: 2 threads, at most 256 waiting, "
                              "at most 4 an address", CL_WAIT_MS));
    ck_assert_int_eq(srv_threads_named(s, "rogued-rebuild"), 2);
    srv_stop(s);
}
END_TEST

/* The server started with args must not start: it says exactly why and
 * exits 2 (a usage error, as for any setting it refuses). */
static void refused(const char *args, const char *line)
{
    char out[4096];
    int rc = srv_run_once("", args, out, sizeof out);
    ck_assert_msg(rc == 2, "%s: exit status %d: %s", args, rc, out);
    ck_assert_msg(strstr(out, line), "%s: no \"%s\" in: %s", args, line, out);
    ck_assert_msg(!strstr(out, "listening"), "%s: %s", args, out);
}

START_TEST(bad_rebuild_values_refused)
{
    refused("--config /dev/null --set rebuild_threads=0",
            "rogued: --set rebuild_threads: 0 is outside 1..64\n");
    refused("--config /dev/null --set rebuild_threads=65",
            "rogued: --set rebuild_threads: 65 is outside 1..64\n");
    refused("--config /dev/null --set rebuild_queue=-1",
            "rogued: --set rebuild_queue: -1 is outside 0..1000000\n");
    refused("--config /dev/null --set rebuild_per_ip=four",
            "rogued: --set rebuild_per_ip: 'four' is not a whole number\n");
}
END_TEST

/* A server with /metrics on *mport and its console up. */
static tsrv_t *metrics_server(int *mport, const char *seed)
{
    *mport = cl_free_port();
    char set[48];
    snprintf(set, sizeof set, "metrics_port=%d", *mport);
    /* (the input budget raised: metrics_stop_reading_with_output_owed
     * pours requests until the kernel's buffers are full) */
    tsrv_t *s = srv_start("--seed", seed, "--set", set, "--set",
                          "output_limit=67108864", "--set", "write_timeout=0",
                          "--set", "max_input_bytes_per_second=100000000",
                          NULL);
    ck_assert(srv_wait_log(s, "metrics on ", CL_WAIT_MS));
    return s;
}

static void expect(int mport, const char *series, int n)
{
    ck_assert_msg(metrics_is(mport, series, n), "/metrics: %s is %g, not %d",
                  series, metrics_value(mport, series), n);
}

START_TEST(a_resumed_game_counts_its_rebuild_and_keys)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)play_walk_seed());
    int mport;
    tsrv_t *s = metrics_server(&mport, seed);
    tclient_t *a = play_lobby(srv_port(s));
    play_login_dave(a, 1);
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    int turn = cl_turn(a);
    for (int i = 0; i < KEYS; i++)
        ck_assert(cl_key(a, ".")); /* a wait: one key, one turn */
    ck_assert_int_eq(cl_turn(a), turn + KEYS);
    expect(mport, "rogued_rebuilds_total{outcome=\"started\"}", 0);
    expect(mport, "rogued_rebuild_keys_total", 0);
    cl_close(a);
    ck_assert(srv_wait_log(s, "game suspended id=1 name=dave", CL_WAIT_MS));

    tclient_t *b = play_lobby(srv_port(s));
    play_login_dave(b, 0);
    char offer[64];
    snprintf(offer, sizeof offer, "Continue your game (depth 1, turn %d)",
             turn + KEYS);
    play_wait_text(b, offer);
    ck_assert(cl_key(b, "p"));
    play_wait_text(b, "HP: ");
    ck_assert_int_eq(cl_turn(b), turn + KEYS);
    /* the game is back: its rebuild has ended (and been counted) */
    expect(mport, "rogued_rebuilds_total{outcome=\"started\"}", 1);
    expect(mport, "rogued_rebuild_keys_total", KEYS);
    expect(mport, "rogued_rebuilds{stage=\"waiting\"}", 0);
    expect(mport, "rogued_rebuilds{stage=\"running\"}", 0);
    expect(mport, "rogued_rebuilds_total{outcome=\"cancelled\"}", 0);
    expect(mport, "rogued_rebuilds_total{outcome=\"refused\"}", 0);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* name registers, plays `keys` keys of the walk and leaves its game for
 * the next login (session id). Returns the game's turn. */
static int leave_a_game(tsrv_t *s, const char *name, int id, int keys)
{
    tclient_t *c = play_register(srv_port(s), name);
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "HP: ");
    play_walk_keys(c, keys);
    int turn = cl_turn(c);
    cl_close(c);
    char line[64];
    snprintf(line, sizeof line, "game suspended id=%d name=%s", id, name);
    ck_assert(srv_wait_log(s, line, CL_WAIT_MS));
    return turn;
}

/* p offers the game at `turn` (on the menu already, or after p). */
static void offered(tclient_t *c, int turn)
{
    char offer[64];
    snprintf(offer, sizeof offer, "Continue your game (depth 1, turn %d)",
             turn);
    play_wait_text(c, offer);
}

/* A server with one rebuilds' thread, held before its first job
 * (tests/preload/rebuild_hold.so) until the test opens fifo (made in dir,
 * a mkdtemp template, filled in) for writing; set: one more "--set". */
static tsrv_t *start_held(char *dir, char fifo[64], const char *set)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(fifo, 64, "%s/hold", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)play_walk_seed());
    ck_assert_int_eq(setenv("REBUILD_HOLD_FIFO", fifo, 1), 0);
    preload_env_t env;
    preload_set(&env, "rebuild_hold.so", NULL);
    tsrv_t *s = srv_start("--seed", seed, "--set", set, "--set",
                          "rebuild_threads=1", "--set", "rebuild_per_ip=1",
                          NULL);
    preload_unset(&env);
    ck_assert_int_eq(unsetenv("REBUILD_HOLD_FIFO"), 0);
    return s;
}

/* The held thread let go: it reads fifo to its end. */
static void let_go(const char *fifo)
{
    int fd = open(fifo, O_WRONLY | O_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(close(fd), 0);
}

/* A saved game whose rebuild is refused (its address has rebuild_per_ip
 * rebuilds waiting: here another account's, held by
 * tests/preload/rebuild_hold.so on the one rebuilds' thread) is kept:
 * the login is told why, and p asks again (refused again while the other
 * waits) rather than begin a game whose beginning would end the saved
 * one. Once the other rebuild has run, p rebuilds the game and offers
 * it, and p again goes on with it at its turn. */
START_TEST(a_refused_rebuild_begins_no_game)
{
    char dir[] = "/tmp/rogued-hold-XXXXXX", fifo[64];
    int mport = cl_free_port();
    char set[48];
    snprintf(set, sizeof set, "metrics_port=%d", mport);
    tsrv_t *s = start_held(dir, fifo, set);
    ck_assert(srv_wait_log(s, "metrics on ", CL_WAIT_MS));
    int eve_turn = leave_a_game(s, "eve", 1, 5);
    int dave_turn = leave_a_game(s, "dave", 2, 12);

    /* eve's rebuild waits for the thread, held */
    tclient_t *e = play_lobby(srv_port(s));
    play_account(e, "eve", "password1", 0);
    ck_assert(metrics_wait(mport, "rogued_rebuilds{stage=\"waiting\"}", 1));
    ck_assert(srv_wait_log(s, "rebuild_hold: holding", CL_WAIT_MS));

    tclient_t *d = play_lobby(srv_port(s));
    play_account(d, "dave", "password1", 0);
    const char *told = "Too many games are being rebuilt for your address: "
                       "try again in a moment.";
    const char *refused = "resume id=4: no rebuild: Too many games";
    play_wait_text(d, told);
    ck_assert(srv_wait_log_count(s, refused, 1, CL_WAIT_MS));
    /* p asks again, and is refused again: no game begins */
    ck_assert(cl_key(d, "p"));
    ck_assert(srv_wait_log_count(s, refused, 2, CL_WAIT_MS));
    play_wait_text(d, told);
    /* all the server wrote after the refusal is in before the checks */
    ck_assert(cl_sync(d, CL_WAIT_MS));
    ck_assert(!cl_screen_has(d, "HP: "));
    ck_assert(!srv_log_has(s, "game start id=4"));
    expect(mport, "rogued_rebuilds_total{outcome=\"refused\"}", 2);

    /* the thread let go: eve's game comes, then dave's p rebuilds his */
    let_go(fifo);
    offered(e, eve_turn);
    ck_assert(cl_key(d, "p"));
    offered(d, dave_turn);
    ck_assert(cl_key(d, "p"));
    play_wait_text(d, "HP: ");
    ck_assert(cl_sync(d, CL_WAIT_MS));
    ck_assert_int_eq(cl_turn(d), dave_turn);
    ck_assert(!srv_log_has(s, "game start id=4"));
    expect(mport, "rogued_rebuilds_total{outcome=\"started\"}", 2);
    expect(mport, "rogued_rebuilds_total{outcome=\"refused\"}", 2);
    cl_close(d);
    cl_close(e);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

/* p pressed while a login's saved game is on its way ("One moment...":
 * seconds when the store is slow or a dead host's takeover is waited
 * for; here its rebuild, held) is kept, and once the game is back it
 * goes on at its turn: the p had been dropped unseen. */
START_TEST(p_pressed_in_the_wait_plays_once_the_game_is_back)
{
    char dir[] = "/tmp/rogued-hold-XXXXXX", fifo[64];
    tsrv_t *s = start_held(dir, fifo, "store_wait_ms=60000");
    int turn = leave_a_game(s, "dave", 1, 12);
    tclient_t *d = play_lobby(srv_port(s));
    play_account(d, "dave", "password1", 0);
    ck_assert(srv_wait_log(s, "rebuild_hold: holding", CL_WAIT_MS));
    play_wait_text(d, "One moment...");
    ck_assert_int_eq(cl_send_str(d, "p"), 0);
    ck_assert(cl_sync(d, CL_WAIT_MS)); /* the p read in the wait */
    ck_assert(cl_screen_has(d, "One moment..."));
    let_go(fifo);
    if (!cl_wait(d, cl_at_turn, &turn, CL_WAIT_MS) ||
        !cl_wait_text(d, "HP: ", CL_WAIT_MS))
        play_fail(d, "not back in the game at turn %d", turn);
    ck_assert(srv_wait_log(s, "game resumed id=2 name=dave", CL_WAIT_MS));
    ck_assert(!srv_log_has(s, "game start id=2"));
    cl_close(d);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

START_TEST(a_client_not_reading_shows_its_output_waiting)
{
    int mport;
    tsrv_t *s = metrics_server(&mport, "42");
    cl_opts_t o = { .rcvbuf = 4096 };
    tclient_t *c = play_connect(srv_port(s), &o);
    expect(mport, "rogued_sessions_output_waiting", 0);
    expect(mport, "rogued_output_queued_bytes", 0);
    metrics_stop_reading_with_output_owed(c, mport); /* waiting: 1 */
    double queued = metrics_value(mport, "rogued_output_queued_bytes");
    ck_assert_msg(queued > 0, "rogued_output_queued_bytes %g", queued);
    ck_assert(cl_sync(c, CL_WAIT_MS)); /* reading again: all of it */
    ck_assert(metrics_wait(mport, "rogued_sessions_output_waiting", 0));
    ck_assert(metrics_wait(mport, "rogued_output_queued_bytes", 0));
    ck_assert(!cl_closed(c));
    cl_close(c);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("rebuilds");
    TCase *tc = tcase_create("rebuilds");
    tcase_set_timeout(tc, 180);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, rebuild_settings_reach_the_pool);
    tcase_add_test(tc, bad_rebuild_values_refused);
    tcase_add_test(tc, a_resumed_game_counts_its_rebuild_and_keys);
    tcase_add_test(tc, a_refused_rebuild_begins_no_game);
    tcase_add_test(tc, p_pressed_in_the_wait_plays_once_the_game_is_back);
    tcase_add_test(tc, a_client_not_reading_shows_its_output_waiting);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
