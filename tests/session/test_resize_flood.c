/* test_resize_flood.c - a flood of window sizes costs its sender a few
 * full repaints a second, not one each (issue 25): with
 * max_resizes_per_second=2, thirty NAWS sizes bring at most two frames for
 * each second they took (and the sweep's one), and the screen ends drawn
 * at the last size. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

#define SIZES 30

static int last_size_drawn(tclient_t *c, void *arg)
{
    char row[16];
    (void)arg;
    return strncmp(cl_row(c, 29, row, sizeof row), "HP:", 3) == 0;
}

START_TEST(resize_flood_coalesced)
{
    tsrv_t *s = srv_start("--set", "max_resizes_per_second=2", NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    ck_assert(cl_sync(c, CL_WAIT_MS));
    int frames0 = cl_frames(c);
    time_t t0 = time(NULL);
    for (int i = 0; i < SIZES; i++)
        cl_resize(c, 81 + i, i + 1 == SIZES ? 30 : 25 + i % 4);
    time_t t1 = time(NULL);
    /* the last size is drawn (by the sweep, if not at once) */
    if (!cl_wait(c, last_size_drawn, NULL, 30000))
        play_fail(c, "the last size was never drawn");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    int frames = cl_frames(c) - frames0;
    long seconds = (long)(t1 - t0) + 1;
    ck_assert_msg(frames <= 2 * (int)seconds + 2, "%d frames for %d sizes in "
                  "%ld s", frames, SIZES, seconds);
    ck_assert_int_ge(frames, 1);
    ck_assert(cl_key(c, ".")); /* still a game that answers */
    cl_close(c);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("resize_flood");
    TCase *tc = tcase_create("resize_flood");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, resize_flood_coalesced);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
