/* test_web_limits.c - a browser's session keeps every limit a telnet one
 * has: keys over max_keys_per_second are dropped, an idle player is warned
 * and then let go, and a client that stops reading is cut off after
 * write_timeout. The client speaks the page's protocol (WebSocket, the
 * size message) on the browser's port: cl_opts_t.web. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_main.h"
#include "client.h"
#include "clock_shift.h"
#include "play.h"

/* A server with a browser's port of its own (the port is in *http). */
static tsrv_t *web_server(int *http, const char *k1, const char *v1,
                          const char *k2, const char *v2)
{
    static char port_set[32], set1[64], set2[64];
    *http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", *http);
    snprintf(set1, sizeof set1, "%s=%s", k1, v1);
    snprintf(set2, sizeof set2, "%s=%s", k2, v2);
    /* sizes are how stalled_page_cut_off makes output: each redrawn at
     * once (resizes_per_window would draw a flood once a window) */
    return srv_start("--seed", "42", "--set", port_set, "--set", set1,
                     "--set", set2, "--set", "resizes_per_window=1000000",
                     NULL);
}

static tclient_t *web_player(int http, const cl_opts_t *extra)
{
    cl_opts_t o = extra ? *extra : (cl_opts_t){ 0 };
    o.web = 1;
    tclient_t *c = cl_connect(http, &o);
    play_ready(c);
    return c;
}

/* Forty waits in one message at max_keys_per_second=5: the bucket holds
 * five at most, the rest are dropped, not queued. The barrier is an unknown key,
 * sent until its message shows: every key before it has been handled. */
START_TEST(keys_over_the_limit_are_dropped)
{
    int http;
    tsrv_t *s = web_server(&http, "max_keys_per_second", "5",
                           "idle_timeout", "0");
    tclient_t *c = web_player(http, NULL);
    int turn0 = cl_turn(c);
    ck_assert_int_ge(turn0, 0);
    char waits[40];
    memset(waits, '.', sizeof waits);
    ck_assert_int_eq(cl_send(c, waits, sizeof waits), 0);
    int seen = 0;
    for (int64_t end = cl_now_ms() + CL_WAIT_MS; !seen && cl_now_ms() < end;) {
        ck_assert_int_eq(cl_send_str(c, "Z"), 0);
        seen = cl_wait_text(c, "Unknown key 'Z'", 500);
    }
    if (!seen)
        play_fail(c, "the unknown key's message never came");
    int turns = cl_turn(c) - turn0;
    /* what the bucket of five held after the lobby's keys, and whatever it
     * refilled meanwhile: some, and far fewer than forty */
    if (turns < 1 || turns > 10)
        play_fail(c, "%d turns for 40 waits at 5 keys a second", turns);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* The idle warning with 29 seconds left on the moved clock, less the
 * real seconds gone since *arg (play_idle_warned). */
static int pred_warned(tclient_t *c, void *arg)
{
    return play_idle_warned(c, 29, *(const int64_t *)arg) >= 0;
}

/* idle_timeout=60, idle_warning=30, on a clock the test moves forward
 * (clock_shift.h): warned 31 s after the last key, with the seconds left
 * (29, less any real seconds gone meanwhile), and not let go; then, 30 s
 * later, told and disconnected. */
START_TEST(idle_player_warned_then_let_go)
{
    int http;
    clock_shift_t clk;
    clock_shift_begin(&clk);
    tsrv_t *s = web_server(&http, "idle_timeout", "60", "idle_warning", "30");
    clock_shift_started(&clk);
    ck_assert(srv_wait_log(s, "clock_shift: the monotonic clocks follow",
                           CL_WAIT_MS));
    int64_t since = cl_now_ms(); /* before the last key */
    tclient_t *c = web_player(http, NULL);
    clock_shift_by(&clk, 31000);
    if (!cl_wait(c, pred_warned, &since, CL_WAIT_MS))
        play_fail(c, "no idle warning");
    ck_assert(!cl_stream_has(c, "You were idle for too long."));
    ck_assert(!cl_closed(c));
    clock_shift_by(&clk, 30000);
    if (!cl_wait_text(c, "You were idle for too long. Goodbye!", CL_WAIT_MS))
        play_fail(c, "no idle goodbye");
    if (!cl_wait_eof(c, CL_WAIT_MS))
        play_fail(c, "not disconnected after the idle goodbye");
    ck_assert(srv_wait_log(s, "reason=\"idle timeout\"", CL_WAIT_MS));
    cl_close(c);
    srv_stop(s);
    clock_shift_end(&clk);
}
END_TEST

/* The same on a phone's 40x20: the warning shows under the map window. */
START_TEST(idle_warning_on_a_narrow_screen)
{
    int http;
    /* warned after a second, let go only 30 s later: the warning is
     * on screen whenever the wait ends */
    tsrv_t *s = web_server(&http, "idle_timeout", "31", "idle_warning", "30");
    cl_opts_t small = { .w = 40, .h = 20 };
    tclient_t *c = web_player(http, &small);
    if (!cl_wait_text(c, "You are idle: press a key", CL_WAIT_MS))
        play_fail(c, "no idle warning");
    char row[256];
    ck_assert(strncmp(cl_row(c, 16, row, sizeof row), "You are idle", 12) == 0);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A page that sends but never reads: each size message costs a whole
 * screen (100 rows, the width going round so that every read ends at a new
 * size), its small receive buffer fills, and after write_timeout seconds
 * with no byte acknowledged by its side the session is cut off; another
 * player goes on. The server's own send buffer meanwhile grows to
 * megabytes: counting what it took as progress kept a page that never
 * reads connected for minutes on a busy machine (docs/architecture.md,
 * "A client that stops reading"). */
START_TEST(stalled_page_cut_off)
{
    int http;
    tsrv_t *s = web_server(&http, "write_timeout", "2",
                           "output_highwater", "4096");
    tclient_t *a = web_player(http, NULL);
    cl_opts_t small = { .rcvbuf = 4096 };
    tclient_t *slow = web_player(http, &small);
    unsigned char frame[64];
    /* The deadline only ends the wait: only a server that never cuts the
     * page off (write_timeout not enforced) reaches it. */
    time_t deadline = time(NULL) + 120;
    size_t total = 0;
    for (int i = 0; !cl_closed(slow) && time(NULL) < deadline; i++) {
        char msg[32];
        int n = snprintf(msg, sizeof msg, "size %d 100", 120 + i % 100);
        size_t len = cl_ws_frame(frame, 1, msg, (size_t)n);
        total += cl_send_raw(slow, frame, len, 0, 500);
    }
    ck_assert_msg(cl_closed(slow), "still connected after %zu bytes sent", total);
    ck_assert(srv_wait_log(s, "reason=\"output stalled (client not reading)\"",
                           CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "info disconnect "), 1);
    cl_close(slow);
    int turn = cl_turn(a);
    ck_assert_int_eq(cl_send_str(a, "."), 0);
    for (int i = 0; i < CL_WAIT_MS / 500 && cl_turn(a) == turn; i++)
        cl_pump(a, 500);
    ck_assert_int_eq(cl_turn(a), turn + 1);
    cl_close(a);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("web_limits");
    TCase *tc = tcase_create("web_limits");
    tcase_set_timeout(tc, 240); /* a hang catcher: the flood's 120 s */
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, keys_over_the_limit_are_dropped);
    tcase_add_test(tc, idle_player_warned_then_let_go);
    tcase_add_test(tc, idle_warning_on_a_narrow_screen);
    tcase_add_test(tc, stalled_page_cut_off);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
