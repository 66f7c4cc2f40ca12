/* test_resize_flood.c - a flood of window sizes costs its sender a few
 * full repaints a second, not one each (issue 25): with
 * max_resizes_per_second=2, thirty NAWS sizes sent in one write (handled
 * in one read, so the bound does not depend on how fast anything runs)
 * bring at most the two allowed at once and the sweep's one, and the
 * screen ends drawn at the last size. */
#include <check.h>
#include <stdio.h>
#include <string.h>

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
    /* IAC SB NAWS w w h h IAC SE each; no byte is 255, so none escaped */
    unsigned char buf[SIZES * 9];
    size_t n = 0;
    for (int i = 0; i < SIZES; i++) {
        int w = 81 + i, h = i + 1 == SIZES ? 30 : 25 + i % 4;
        const unsigned char naws[9] = { 255, 250, 31, (unsigned char)(w >> 8),
                                        (unsigned char)w, (unsigned char)(h >> 8),
                                        (unsigned char)h, 255, 240 };
        memcpy(buf + n, naws, sizeof naws);
        n += sizeof naws;
    }
    cl_set_size(c, 81 + SIZES - 1, 30);
    ck_assert_uint_eq(cl_send_raw(c, buf, n, 1, CL_WAIT_MS), n);
    /* the last size is drawn (by the sweep, if not at once) */
    if (!cl_wait(c, last_size_drawn, NULL, CL_WAIT_MS))
        play_fail(c, "the last size was never drawn");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    int frames = cl_frames(c) - frames0;
    ck_assert_msg(frames <= 2 + 1, "%d frames for %d sizes in one write",
                  frames, SIZES);
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
