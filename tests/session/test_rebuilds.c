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
 *   - a client that stops reading: rogued_sessions_output_waiting 1 and
 *     rogued_output_queued_bytes above 0; reading again, both back to 0. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "metrics.h"
#include "play.h"

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
            "rogued: rebuild_threads: 0 is outside 1..64\n");
    refused("--config /dev/null --set rebuild_threads=65",
            "rogued: rebuild_threads: 65 is outside 1..64\n");
    refused("--config /dev/null --set rebuild_queue=-1",
            "rogued: rebuild_queue: -1 is outside 0..1000000\n");
    refused("--config /dev/null --set rebuild_per_ip=four",
            "rogued: rebuild_per_ip: 'four' is not a whole number\n");
}
END_TEST

/* A server with /metrics on *mport and its console up. */
static tsrv_t *metrics_server(int *mport, const char *seed)
{
    *mport = cl_free_port();
    char set[48];
    snprintf(set, sizeof set, "metrics_port=%d", *mport);
    tsrv_t *s = srv_start("--seed", seed, "--set", set, "--set",
                          "output_limit=67108864", "--set", "write_timeout=0",
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
    tcase_add_test(tc, a_client_not_reading_shows_its_output_waiting);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
