/* test_resize_flood.c - a flood of window sizes costs its sender its own
 * budget, not a full repaint each (issue 25, docs/telnet.md, "NAWS"), for
 * telnet's NAWS, the browser's size messages and SSH's window changes
 * (libssh's client; the SSH thread relays them as sizes, ssh_link.c).
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
 *     with nothing sent to ask for it;
 *   - that repaint counts as the first of the next window: one more size
 *     is drawn at once, the next held until that window ends.
 * The window runs on the server's clock, resize_window_ms, which the test
 * sets. Each step waits for its answer; the coalescing steps must all fall
 * within one window, which the test checks on its own clock (from before
 * the first size was sent to after the last answer came, an upper bound on
 * the time between the server reading the first and the last): if this
 * machine took longer, the run proves nothing either way and is done again
 * with a window ten times as long. No step asserts how fast anything ran.
 * A window whose last size is the one drawn (A, B, A) ends with no frame
 * at all. */
#include <check.h>
#include <libssh/libssh.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "play.h"
#include "ssh_guest.h"

#define BUDGET 2
#define SIZES 6
#define CLEAR "\x1b[H\x1b[2J" /* a full repaint (common/screen_diff.c) */

/* At most 33 rows: the status line is then on the last row (taller, it
 * sits under the log's VIEW_LOG_MAX rows, in row 32 at any height), so
 * that the row it is on tells the size a frame was drawn at. */
static const int sizes[SIZES][2] = { { 90, 26 }, { 92, 27 }, { 94, 28 },
                                     { 96, 29 }, { 98, 30 }, { 100, 31 } };

enum { TELNET, WEB, SSH };

/* A player over one of the three: the test's terminal (c) and, over SSH,
 * libssh's session and channel whose output feeds it. */
typedef struct flooder {
    int kind;
    tclient_t *c;
    ssh_session ss;
    ssh_channel ch;
} flooder_t;

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

static int shows(tclient_t *c, void *arg)
{
    return cl_screen_has(c, arg);
}

/* Waits until pred holds on p's screen: 1, or 0 at the deadline. */
static int p_wait(flooder_t *p, int (*pred)(tclient_t *, void *), void *arg,
                  int timeout_ms)
{
    if (p->kind != SSH)
        return cl_wait(p->c, pred, arg, timeout_ms);
    char buf[16384];
    for (int64_t end = cl_now_ms() + timeout_ms; !pred(p->c, arg);) {
        if (cl_now_ms() >= end || ssh_channel_is_eof(p->ch))
            return 0;
        int k = ssh_channel_read_timeout(p->ch, buf, sizeof buf, 0, 200);
        if (k < 0)
            return 0;
        cl_feed(p->c, buf, (size_t)k);
    }
    return 1;
}

static void p_send(flooder_t *p, const char *keys)
{
    if (p->kind == SSH)
        ck_assert_int_eq(ssh_channel_write(p->ch, keys, (uint32_t)strlen(keys)),
                         (int)strlen(keys));
    else
        ck_assert_int_eq(cl_send_str(p->c, keys), 0);
}

static void p_resize(flooder_t *p, int w, int h)
{
    if (p->kind != SSH) {
        cl_resize(p->c, w, h); /* NAWS, or the page's "size W H" */
        return;
    }
    cl_set_size(p->c, w, h);
    ck_assert_int_eq(ssh_channel_change_pty_size(p->ch, w, h), SSH_OK);
}

/* Everything the server sent for what p sent so far has come (telnet:
 * cl_sync; the browser and SSH have no such barrier, and the steps wait
 * for what they expect instead). */
static void settle(flooder_t *p)
{
    if (p->kind == TELNET)
        ck_assert(cl_sync(p->c, CL_WAIT_MS));
}

/* A guest over SSH (libssh's client, a pty of 80x24), in the game. */
static void ssh_player(flooder_t *p, int port)
{
    p->kind = SSH;
    p->c = cl_screen_new(80, 24);
    p->ss = ssh_guest(port, "xterm", 80, 24, 0, &p->ch);
    int row = 23;
    ck_assert(p_wait(p, shows, "Play (as a guest)", CL_WAIT_MS));
    p_send(p, "p");
    ck_assert(p_wait(p, shows, "Name: guest", CL_WAIT_MS));
    p_send(p, "\r");
    if (!p_wait(p, drawn_at, &row, CL_WAIT_MS) || cl_turn(p->c) < 0)
        play_fail(p->c, "no game over SSH");
}

static void p_close(flooder_t *p)
{
    if (p->ch)
        ssh_guest_bye(p->ss, p->ch);
    cl_close(p->c);
}

/* A new size that must be drawn at once: one full repaint, the status
 * line on its last row. */
static void size_drawn_at_once(flooder_t *p, int w, int h)
{
    int clears = cl_stream_count(p->c, CLEAR), row = h - 1;
    p_resize(p, w, h);
    if (!p_wait(p, drawn_at, &row, CL_WAIT_MS))
        play_fail(p->c, "%dx%d, within the budget, was not drawn", w, h);
    settle(p);
    ck_assert_int_eq(cl_stream_count(p->c, CLEAR), clears + 1);
}

/* A wait key, answered: the turn goes on. */
static void key_answered(flooder_t *p)
{
    int turn = cl_turn(p->c) + 1;
    ck_assert_int_gt(turn, 0);
    if (p->kind == TELNET)
        ck_assert(cl_key(p->c, "."));
    else
        p_send(p, ".");
    if (!p_wait(p, cl_at_turn, &turn, CL_WAIT_MS))
        play_fail(p->c, "the wait key was not answered (turn %d)", turn);
}

/* A new size past the budget: kept, not drawn. The key after it is
 * answered at the size drawn before (row: its status row), without a
 * repaint; its answer also shows every frame the size made (the server
 * reads in order and draws in order). Returns 1, or 0 if the answer came
 * at or after until_ms (the test's clock): the window may have ended
 * meanwhile, and what came proves nothing. */
static int size_held(flooder_t *p, int w, int h, int row, int64_t until_ms)
{
    int clears = cl_stream_count(p->c, CLEAR);
    p_resize(p, w, h);
    key_answered(p);
    settle(p);
    if (cl_now_ms() >= until_ms)
        return 0;
    if (cl_stream_count(p->c, CLEAR) != clears)
        play_fail(p->c, "%dx%d, past the budget, was drawn at once", w, h);
    if (status_row(p->c) != row)
        play_fail(p->c, "a frame past the budget is not at the size drawn");
    return 1;
}

/* The server, with the browser's or SSH's port on if kind asks (*port:
 * the one the flooder uses). */
static tsrv_t *server(int kind, int window_ms, int *port)
{
    char set_window[48], set_budget[48], set_port[32];
    snprintf(set_window, sizeof set_window, "resize_window_ms=%d", window_ms);
    snprintf(set_budget, sizeof set_budget, "resizes_per_window=%d", BUDGET);
    *port = kind == TELNET ? 0 : cl_free_port();
    snprintf(set_port, sizeof set_port, "%s=%d",
             kind == SSH ? "ssh_port" : "http_port", *port);
    /* keepalive off: every frame marker is a frame the server drew */
    tsrv_t *s = srv_start("--seed", "42", "--set", set_window, "--set",
                          set_budget, "--set", set_port, "--set",
                          "keepalive=0", NULL);
    if (kind == SSH)
        ck_assert(srv_wait_log(s, "host key SHA256:", CL_WAIT_MS));
    else if (kind == TELNET)
        *port = srv_port(s);
    return s;
}

/* The window's end: the size held last (w x h) is drawn once, unasked,
 * and the game answers at it. */
static void drawn_at_window_end(flooder_t *p, int h, int window_ms)
{
    int clears = cl_stream_count(p->c, CLEAR), row = h - 1;
    if (!p_wait(p, drawn_at, &row, window_ms + CL_WAIT_MS))
        play_fail(p->c, "the last size held was never drawn");
    settle(p);
    ck_assert_int_eq(cl_stream_count(p->c, CLEAR), clears + 1);
    key_answered(p);
    ck_assert_int_eq(status_row(p->c), row);
    ck_assert_int_eq(cl_stream_count(p->c, CLEAR), clears + 1);
}

/* One run with a window of window_ms. Returns 1 if it proved the
 * behaviour, 0 if the machine was too slow for the windows to hold the
 * steps meant to fall in them (nothing shown either way). */
static int run(int kind, int window_ms)
{
    int port;
    tsrv_t *s = server(kind, window_ms, &port);
    flooder_t p = { .kind = kind }, other = { .kind = TELNET };
    if (kind == SSH) {
        ssh_player(&p, port);
    } else {
        cl_opts_t o = { .web = kind == WEB };
        p.c = play_connect(port, &o);
    }
    other.c = play_connect(srv_port(s), NULL);
    settle(&p);

    /* The first window began when the server read the first size, after
     * t0: what was answered before t0 + window_ms (less a margin for the
     * clocks' whole milliseconds) was read within it. */
    int64_t t0 = cl_now_ms(), end1 = t0 + window_ms - 50;
    for (int i = 0; i < BUDGET; i++)
        size_drawn_at_once(&p, sizes[i][0], sizes[i][1]);
    int held_row = sizes[BUDGET - 1][1] - 1, proved = 1;
    for (int i = BUDGET; proved && i < SIZES; i++)
        proved = size_held(&p, sizes[i][0], sizes[i][1], held_row, end1);
    if (proved) {
        /* another player's size: its own budget, drawn at once */
        size_drawn_at_once(&other, 85, 27);
        key_answered(&other);
        drawn_at_window_end(&p, sizes[SIZES - 1][1], window_ms);
        /* That repaint was the next window's first (it began a window or
         * more after t0): a steady flood gets BUDGET repaints a window.
         * One more is drawn at once, the next held to that window's end. */
        size_drawn_at_once(&p, 102, 32);
        proved = size_held(&p, 104, 33, 31, end1 + window_ms);
        if (proved)
            drawn_at_window_end(&p, 33, window_ms);
    }
    p_close(&other);
    p_close(&p);
    srv_stop(s);
    return proved;
}

static void flood(int kind)
{
    if (run(kind, 3000))
        return;
    fprintf(stderr, "resize_flood: slower than a 3 s window, again with 30 s\n");
    ck_assert_msg(run(kind, 30000),
                  "the steps took longer than a 30 s window");
}

/* Sizes A, B, A in one window, A drawn when B came (telnet): the window's
 * end owes nothing, so it draws nothing, not even an empty frame. Once
 * the server's window is over (its start came before the test had the
 * answer to its first size: t_a), two keys are answered, one frame each;
 * a frame the window's end made would have come before the second answer
 * (the loop runs its due timers before it reads again). The next size
 * begins a new window: drawn at once. Returns as run. */
static int run_back_to_drawn(int window_ms)
{
    int port;
    tsrv_t *s = server(TELNET, window_ms, &port);
    flooder_t p = { .kind = TELNET };
    p.c = play_connect(port, NULL);
    settle(&p);
    int64_t t0 = cl_now_ms(), end1 = t0 + window_ms - 50;
    size_drawn_at_once(&p, sizes[0][0], sizes[0][1]);
    int64_t t_a = cl_now_ms();
    size_drawn_at_once(&p, sizes[1][0], sizes[1][1]); /* A, the budget spent */
    int row = sizes[1][1] - 1;
    int proved = size_held(&p, sizes[2][0], sizes[2][1], row, end1) && /* B */
                 size_held(&p, sizes[1][0], sizes[1][1], row, end1);   /* A */
    if (proved) {
        int clears = cl_stream_count(p.c, CLEAR), frames = cl_frames(p.c);
        for (int64_t now; (now = cl_now_ms()) < t_a + window_ms + 50;)
            cl_pump(p.c, (int)(t_a + window_ms + 50 - now));
        key_answered(&p);
        key_answered(&p);
        settle(&p);
        ck_assert_int_eq(cl_frames(p.c), frames + 2);
        ck_assert_int_eq(cl_stream_count(p.c, CLEAR), clears);
        ck_assert_int_eq(status_row(p.c), row);
        size_drawn_at_once(&p, sizes[3][0], sizes[3][1]);
    }
    p_close(&p);
    srv_stop(s);
    return proved;
}

START_TEST(a_window_ending_at_the_size_drawn_draws_nothing)
{
    if (run_back_to_drawn(3000))
        return;
    fprintf(stderr, "resize_flood: slower than a 3 s window, again with 30 s\n");
    ck_assert_msg(run_back_to_drawn(30000),
                  "the steps took longer than a 30 s window");
}
END_TEST

START_TEST(telnet_naws_flood_coalesced)
{
    flood(TELNET);
}
END_TEST

START_TEST(web_size_flood_coalesced)
{
    flood(WEB);
}
END_TEST

START_TEST(ssh_window_change_flood_coalesced)
{
    flood(SSH);
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
    tcase_add_test(tc, ssh_window_change_flood_coalesced);
    tcase_add_test(tc, a_window_ending_at_the_size_drawn_draws_nothing);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
