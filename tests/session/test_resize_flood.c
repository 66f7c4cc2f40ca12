/* test_resize_flood.c - a flood of window sizes costs its sender its own
 * budget, not a full repaint each (issue 25, docs/telnet.md, "NAWS"), for
 * telnet's NAWS and the browser's size messages.
 *
 * With resizes_per_window=2 a flooder sends six growing sizes, each in its
 * own write and each answered before the next (so the render phase runs
 * between them and only the budget can hold a repaint back):
 *   - the first two are drawn at once: one full repaint (ESC[H ESC[2J)
 *     each, the status line on the new last row;
 *   - the next four get no repaint: a key sent after each is answered
 *     (the turn goes on: the flooder's game is not starved), drawn at the
 *     size last drawn, with no clear;
 *   - meanwhile another player's size is drawn at once (its own budget);
 *   - when the window ends, exactly one repaint comes, at the last size,
 *     with nothing sent to ask for it.
 * The window runs on the server's clock, resize_window_ms, which the test
 * sets. Each step waits for its answer; the coalescing steps must all fall
 * within one window, which the test checks on its own clock (from before
 * the first size was sent to after the last answer came, an upper bound on
 * the time between the server reading the first and the last): if this
 * machine took longer, the run proves nothing either way and is done again
 * with a window ten times as long. No step asserts how fast anything ran. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

#define BUDGET 2
#define SIZES 6
#define CLEAR "\x1b[H\x1b[2J" /* a full repaint (common/screen_diff.c) */

static const int sizes[SIZES][2] = { { 90, 30 }, { 92, 31 }, { 94, 32 },
                                     { 96, 33 }, { 98, 34 }, { 100, 35 } };

/* The lowest row that starts with the status line's "HP:", or -1. */
static int status_row(const tclient_t *c)
{
    char row[16];
    for (int y = 120; y >= 0; y--)
        if (strncmp(cl_row(c, y, row, sizeof row), "HP:", 3) == 0)
            return y;
    return -1;
}

static int drawn_at(tclient_t *c, void *arg)
{
    return status_row(c) == *(int *)arg;
}

static int turn_is(tclient_t *c, void *arg)
{
    return cl_turn(c) == *(int *)arg;
}

/* Everything the server sent for what c sent so far has come (telnet:
 * cl_sync; the browser has no such barrier and its tests wait for what
 * they expect instead). */
static void settle(tclient_t *c, int web)
{
    if (!web)
        ck_assert(cl_sync(c, CL_WAIT_MS));
}

/* A new size that must be drawn at once: one full repaint, the status
 * line on its last row. */
static void size_drawn_at_once(tclient_t *c, int web, int w, int h)
{
    int clears = cl_stream_count(c, CLEAR), row = h - 1;
    cl_resize(c, w, h);
    if (!cl_wait(c, drawn_at, &row, CL_WAIT_MS))
        play_fail(c, "%dx%d, within the budget, was not drawn", w, h);
    settle(c, web);
    ck_assert_int_eq(cl_stream_count(c, CLEAR), clears + 1);
}

/* A wait key, answered: the turn goes on. */
static void key_answered(tclient_t *c, int web)
{
    int turn = cl_turn(c) + 1;
    ck_assert_int_gt(turn, 0);
    if (web)
        ck_assert_int_eq(cl_send_str(c, "."), 0);
    else
        ck_assert(cl_key(c, "."));
    if (!cl_wait(c, turn_is, &turn, CL_WAIT_MS))
        play_fail(c, "the wait key was not answered (turn %d)", turn);
}

/* A new size past the budget: kept, not drawn. The key after it is
 * answered at the size drawn before (row: its status row), without a
 * repaint; its answer also shows every frame the size made (the server
 * reads in order and draws in order). */
static void size_held(tclient_t *c, int web, int w, int h, int row)
{
    int clears = cl_stream_count(c, CLEAR);
    cl_resize(c, w, h);
    key_answered(c, web);
    settle(c, web);
    if (cl_stream_count(c, CLEAR) != clears)
        play_fail(c, "%dx%d, past the budget, was drawn at once", w, h);
    if (status_row(c) != row)
        play_fail(c, "a frame past the budget is not at the size drawn");
}

/* One run with a window of window_ms. Returns 1 if it proved the
 * behaviour, 0 if the machine was too slow for the window to hold the
 * coalescing steps (nothing shown either way). */
static int run(int web, int window_ms)
{
    char set_window[48];
    snprintf(set_window, sizeof set_window, "resize_window_ms=%d", window_ms);
    char set_http[32];
    int http = web ? cl_free_port() : 0;
    snprintf(set_http, sizeof set_http, "http_port=%d", http);
    char set_budget[48];
    snprintf(set_budget, sizeof set_budget, "resizes_per_window=%d", BUDGET);
    tsrv_t *s = srv_start("--seed", "42", "--set", set_window, "--set",
                          set_budget, "--set", set_http, NULL);
    cl_opts_t o = { .web = web };
    tclient_t *c = play_connect(web ? http : srv_port(s), &o);
    tclient_t *other = play_connect(srv_port(s), NULL);
    settle(c, web);

    int64_t t0 = cl_now_ms();
    for (int i = 0; i < BUDGET; i++)
        size_drawn_at_once(c, web, sizes[i][0], sizes[i][1]);
    int held_row = sizes[BUDGET - 1][1] - 1;
    for (int i = BUDGET; i < SIZES; i++)
        size_held(c, web, sizes[i][0], sizes[i][1], held_row);
    /* another player's size: its own budget, drawn at once */
    size_drawn_at_once(other, 0, 85, 27);
    key_answered(other, 0);
    int64_t t1 = cl_now_ms();
    if (t1 - t0 >= window_ms - 50) {
        cl_close(other);
        cl_close(c);
        srv_stop(s);
        return 0;
    }

    /* the window's end: the last size, drawn once, unasked */
    int clears = cl_stream_count(c, CLEAR);
    int last_row = sizes[SIZES - 1][1] - 1;
    if (!cl_wait(c, drawn_at, &last_row, window_ms + CL_WAIT_MS))
        play_fail(c, "the last size was never drawn");
    settle(c, web);
    ck_assert_int_eq(cl_stream_count(c, CLEAR), clears + 1);
    key_answered(c, web); /* a game that answers, at that size */
    ck_assert_int_eq(status_row(c), last_row);
    ck_assert_int_eq(cl_stream_count(c, CLEAR), clears + 1);
    cl_close(other);
    cl_close(c);
    srv_stop(s);
    return 1;
}

static void flood(int web)
{
    if (run(web, 3000))
        return;
    fprintf(stderr, "resize_flood: slower than a 3 s window, again with 30 s\n");
    ck_assert_msg(run(web, 30000),
                  "the steps took longer than a 30 s window");
}

START_TEST(telnet_naws_flood_coalesced)
{
    flood(0);
}
END_TEST

START_TEST(web_size_flood_coalesced)
{
    flood(1);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("resize_flood");
    TCase *tc = tcase_create("resize_flood");
    tcase_set_timeout(tc, 180);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, telnet_naws_flood_coalesced);
    tcase_add_test(tc, web_size_flood_coalesced);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
