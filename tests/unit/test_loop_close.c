/* test_loop_close.c - closing a loop that should have nothing left open
 * (server/loop_close.h): a clean loop closes silently; a handle left open
 * is named by type and state and closed; a request still active (a job in
 * libuv's pool) is named too, on the same "left open" words the session
 * and e2e harnesses look for, and is let finish before the loop closes.
 * The log (stderr) is read back from a file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "check_main.h"
#include "log_capture.h"
#include "loop_close.h"

/* stderr into a fresh file until log_end (log_capture.h). */
static void log_begin(void)
{
    log_begin_named("test_loop_close");
}

START_TEST(a_clean_loop_closes_silently)
{
    uv_loop_t loop;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    uv_timer_t t;
    uv_timer_init(&loop, &t);
    uv_close((uv_handle_t *)&t, NULL);
    ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0);
    char log[1024];
    log_begin();
    int rc = loop_close(&loop, "clean");
    log_end(log, sizeof log);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(log, "");
}
END_TEST

START_TEST(a_handle_left_open_is_named_and_closed)
{
    uv_loop_t loop;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    uv_timer_t t;
    uv_timer_init(&loop, &t); /* inactive: uv_run does not wait for it */
    t.data = &t;
    ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0);
    char log[1024], want[128];
    log_begin();
    int rc = loop_close(&loop, "worker 7");
    log_end(log, sizeof log);
    ck_assert_int_eq(rc, UV_EBUSY);
    snprintf(want, sizeof want,
             "worker 7: left open: timer (inactive, referenced, data %p)",
             (void *)&t);
    ck_assert_msg(strstr(log, want), "no \"%s\" in: %s", want, log);
    ck_assert(!strstr(log, "active requests"));
    ck_assert(!strstr(log, "does not close"));
    ck_assert(uv_is_closing((uv_handle_t *)&t));
}
END_TEST

static int job_done, job_status = 1;

static void job_work(uv_work_t *w)
{
    (void)w;
}

static void job_after(uv_work_t *w, int status)
{
    (void)w;
    job_done++;
    job_status = status;
}

/* No handle is open, but a job queued on the loop is still owed: EBUSY
 * all the same, and before, nothing said "left open". */
START_TEST(a_request_still_active_is_named_and_finished)
{
    uv_loop_t loop;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    uv_work_t w;
    job_done = 0;
    ck_assert_int_eq(uv_queue_work(&loop, &w, job_work, job_after), 0);
    char log[1024];
    log_begin();
    int rc = loop_close(&loop, "worker 3");
    log_end(log, sizeof log);
    ck_assert_int_eq(rc, UV_EBUSY);
    ck_assert_msg(strstr(log, "worker 3: left open: 1 active requests"),
                  "no request named in: %s", log);
    ck_assert(!strstr(log, "does not close"));
    ck_assert_int_eq(job_done, 1); /* let finish, not cancelled */
    ck_assert_int_eq(job_status, 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("loop_close");
    TCase *tc = tcase_create("close");
    tcase_add_test(tc, a_clean_loop_closes_silently);
    tcase_add_test(tc, a_handle_left_open_is_named_and_closed);
    tcase_add_test(tc, a_request_still_active_is_named_and_finished);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
