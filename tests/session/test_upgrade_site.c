/* test_upgrade_site.c - a site page's terminal across a binary upgrade
 * (docs/hosting.md, "Upgrading without a goodbye"; docs/site.md): a watch
 * page's session moves watching, follows the game in the new process,
 * and `q` there ends it with the page's line ("You have stopped
 * watching."), not the lobby's menu, and tells the page no key bar's
 * state; a replay page's session (a replay does not move) ends in the new
 * process with a line that says the upgrade ended it, not the lobby. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

#define WAIT_MS 30000

static tsrv_t *start_server(int *http)
{
    static char seed[32], port_set[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)play_walk_seed());
    *http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", *http);
    return srv_start("--seed", seed, "--set", port_set, NULL);
}

/* Upgrades s, which has n sessions to move; returns the new pid once the
 * old process has exited. */
static int upgrade_moving(tsrv_t *s, int n)
{
    int old_pid = srv_pid(s);
    char out[1024], moved[64];
    snprintf(moved, sizeof moved, "upgraded: %d sessions moved", n);
    int rc = srv_upgrade(s, out, sizeof out);
    ck_assert_msg(rc == 0 && strstr(out, moved),
                  "rogued --upgrade: status %d: %s", rc, out);
    int pid = srv_upgraded_pid(out);
    ck_assert_msg(pid > 0 && pid != old_pid, "no new pid in: %s", out);
    ck_assert(srv_wait_exited(s, WAIT_MS));
    return pid;
}

static int same_turn(tclient_t *w, void *p)
{
    return cl_turn(w) == cl_turn((tclient_t *)p);
}

/* w at p's turn, or the test fails saying both. */
static void wait_same_turn(tclient_t *w, tclient_t *p)
{
    if (!cl_wait(w, same_turn, p, WAIT_MS))
        play_fail(w, "the page's watcher is at turn %d, the player at %d",
                  cl_turn(w), cl_turn(p));
}

/* The page's terminal (a browser at 100x30 on /ws?QUERY). */
static tclient_t *page_terminal(int http, const char *query)
{
    static char path[64];
    snprintf(path, sizeof path, "/ws?%s", query);
    cl_opts_t o = { .web = 1, .w = 100, .h = 30, .ws_path = path };
    return cl_connect(http, &o);
}

/* The page's connection ended with `line` as its goodbye and a normal
 * close (1000), the lobby's menu never drawn. */
static void page_ended_with(tclient_t *w, const char *line)
{
    ck_assert(cl_wait_eof(w, WAIT_MS));
    char want[160];
    snprintf(want, sizeof want, "%s\r\n", line);
    ck_assert_msg(cl_stream_has(w, want), "no \"%s\" from the page's end",
                  line);
    ck_assert(!cl_stream_has(w, "Watch a game"));
    ck_assert(!cl_stream_has(w, "Play (as a guest)"));
    ck_assert_int_eq(cl_web_close_code(w), 1000);
    ck_assert_str_eq(cl_web_states(w), ""); /* no key bar to tell */
}

START_TEST(watch_page_moves_and_q_ends_it_not_the_lobby)
{
    int http;
    tsrv_t *s = start_server(&http);
    tclient_t *p = play_connect(srv_port(s), NULL);
    play_walk_keys(p, 3);
    tclient_t *w = page_terminal(http, "watch=1");
    play_wait_text(w, "Watching guest1 - q leaves");
    wait_same_turn(w, p);
    play_wait_text(p, "1 watching");

    int pid = upgrade_moving(s, 2);
    /* it follows the game in the new process, key by key (waits, which
     * take a turn wherever the player stands: the walk's next steps would
     * be its first again, into a wall) */
    int turn = cl_turn(p);
    ck_assert(cl_key(p, "."));
    ck_assert(cl_key(p, "."));
    ck_assert_int_eq(cl_turn(p), turn + 2);
    wait_same_turn(w, p);
    ck_assert(!cl_closed(w));
    ck_assert_int_eq(cl_send_str(w, "q"), 0);
    page_ended_with(w, "You have stopped watching.");
    ck_assert(srv_wait_log(s, "reason=\"the watch page's watch ended\"",
                           WAIT_MS));
    cl_close(w);
    cl_close(p);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

START_TEST(replay_page_ends_with_the_upgrade_not_the_lobby)
{
    int http;
    tsrv_t *s = start_server(&http);
    tclient_t *p = play_connect(srv_port(s), NULL);
    play_walk_keys(p, 3);
    /* a quit game is kept, replayable (docs/hosting.md) */
    ck_assert(cl_key(p, "Q"));
    ck_assert(cl_key(p, "y"));
    play_wait_text(p, "Play as guest1");
    tclient_t *r = page_terminal(http, "replay=1");
    play_wait_text(r, "Replay: guest1");

    int pid = upgrade_moving(s, 2);
    page_ended_with(r, "The server was upgraded, which ended the replay: "
                       "reload to see it again.");
    ck_assert(srv_wait_log(s, "reason=\"the game page's replay ended by an "
                              "upgrade\"", WAIT_MS));
    cl_close(r);
    cl_close(p);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("upgrade_site");
    TCase *tc = tcase_create("upgrade_site");
    tcase_set_timeout(tc, 240);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, watch_page_moves_and_q_ends_it_not_the_lobby);
    tcase_add_test(tc, replay_page_ends_with_the_upgrade_not_the_lobby);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
