/* test_web_click.c - a click on the map travels there (docs/game.md,
 * "Moving more than a step"), as the browser's terminal sends it: the
 * page's protocol on the browser's port (cl_opts_t.web), where mouse
 * reporting is on while the player is on the map (a telnet terminal's is
 * on only while aiming: test_items.c), and off again in the lobby. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

static const char MOUSE_ON[] = "\x1b[?1000h\x1b[?1006h";
static const char MOUSE_OFF[] = "\x1b[?1000l\x1b[?1006l";

static int is_floor(uint32_t ch)
{
    return ch == '.' || ch == 0xb7; /* ASCII, or UTF-8's middle dot */
}

typedef struct at { int x, y; } at_t;

static int pred_at(tclient_t *c, void *arg)
{
    const at_t *want = arg;
    int x, y;
    return cl_find(c, '@', &x, &y) == 1 && x == want->x && y == want->y;
}

START_TEST(click_on_the_map_travels_there)
{
    char port_set[32];
    int http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", http);
    tsrv_t *s = srv_start("--seed", "42", "--set", port_set, NULL);
    cl_opts_t o = { .web = 1 };
    tclient_t *c = cl_connect(http, &o);
    play_ready(c);
    ck_assert(cl_stream_has(c, MOUSE_ON));
    int ax, ay;
    ck_assert_int_eq(cl_find(c, '@', &ax, &ay), 1);
    /* a floor cell in the @'s column two or more rows away, floor all the
     * way: a straight walk of that many turns */
    int ty = -1;
    for (int dir = 1; dir >= -1 && ty < 0; dir -= 2)
        for (int y = ay + dir; y >= 0 && y < cl_h(c) && is_floor(cl_at(c, ax, y));
             y += dir)
            if (y - ay >= 2 || ay - y >= 2)
                ty = y;
    ck_assert_msg(ty >= 0, "no floor two rows from the @:\n%s", cl_dump(c));
    int turn = cl_turn(c);
    char click[64];
    snprintf(click, sizeof click, "\x1b[<0;%d;%dM\x1b[<0;%d;%dm", ax + 1,
             ty + 1, ax + 1, ty + 1);
    ck_assert_int_eq(cl_send_str(c, click), 0);
    at_t want = { ax, ty };
    if (!cl_wait(c, pred_at, &want, CL_WAIT_MS))
        play_fail(c, "the @ did not walk to (%d, %d)", ax, ty);
    int steps = ty > ay ? ty - ay : ay - ty;
    ck_assert_int_eq(cl_turn(c), turn + steps);
    /* a right click outside aiming: nothing */
    ck_assert_int_eq(cl_send_str(c, "\x1b[<2;1;1M\x1b[<2;1;1m"), 0);
    /* an unknown key after it: its answer is the next change */
    ck_assert_int_eq(cl_send_str(c, "z"), 0);
    play_wait_text(c, "Unknown key 'z'.");
    ck_assert_int_eq(cl_find(c, '@', &ax, &ay), 1);
    ck_assert_int_eq(ay, ty);
    ck_assert_int_eq(cl_turn(c), turn + steps);
    /* back in the lobby: the terminal's mouse is its own again */
    ck_assert(!cl_stream_has(c, MOUSE_OFF));
    ck_assert_int_eq(cl_send_str(c, "Q"), 0);
    play_wait_text(c, "Really quit?");
    ck_assert_int_eq(cl_send_str(c, "y"), 0);
    play_wait_text(c, "Play as guest");
    ck_assert(cl_stream_has(c, MOUSE_OFF));
    cl_close(c);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("web_click");
    TCase *tc = tcase_create("web_click");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, click_on_the_map_travels_there);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
