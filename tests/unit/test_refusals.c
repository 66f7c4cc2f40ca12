/* test_refusals.c - refusals counted by reason, and their log lines
 * bounded (server/refusals.h): each reason's first REFUSAL_LOG_BURST
 * refusals of a REFUSAL_LOG_MS window are logged one by one, the rest
 * counted and said in one line when the window ends (at the next refusal,
 * or the host's sweep: refusal_log_flush). Every refusal is counted for
 * /metrics either way. The clock is the test's (refusal_count_at); the log
 * (stderr) is read back from a file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "log_capture.h"
#include "refusals.h"

/* stderr into a fresh file until log_end (log_capture.h). */
static void log_begin(void)
{
    log_begin_named("test_refusals");
}

static int count_of(const char *text, const char *needle)
{
    int k = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        k++;
    return k;
}

/* A flood: 25 refusals of one reason in a second. The first 10 may be
 * logged, the other 15 not; a reason of its own has its own 10; nothing
 * is said of the 15 before the window's 10 s are over (a flush at 9.9 s
 * says nothing), then one line says them, once; every refusal counted. */
START_TEST(a_flood_is_logged_ten_then_once)
{
    refusal_log_reset();
    uint64_t before = refusal_total(REFUSE_ADDR_CONNECTS);
    uint64_t t0 = 1000000;
    int may = 0;
    for (int i = 0; i < 25; i++)
        may += refusal_count_at(REFUSE_ADDR_CONNECTS, t0 + (uint64_t)i * 40);
    ck_assert_int_eq(may, REFUSAL_LOG_BURST);
    ck_assert_uint_eq(refusal_total(REFUSE_ADDR_CONNECTS), before + 25);
    ck_assert_int_eq(refusal_count_at(REFUSE_FULL, t0 + 1000), 1);

    char log[4096];
    log_begin();
    refusal_log_flush_at(t0 + 9900);
    log_end(log, sizeof log);
    ck_assert_str_eq(log, "");

    log_begin();
    refusal_log_flush_at(t0 + 10000);
    refusal_log_flush_at(t0 + 20000); /* said once */
    log_end(log, sizeof log);
    ck_assert_int_eq(count_of(log, "\n"), 1);
    ck_assert_msg(strstr(log, " info refused: 15 more (per_address_connects) "
                         "over 1 s, not logged one by one; /metrics counts "
                         "them all\n"), "%s", log);

    /* the next window: its own 10 again */
    may = 0;
    for (int i = 0; i < 12; i++)
        may += refusal_count_at(REFUSE_ADDR_CONNECTS, t0 + 30000);
    ck_assert_int_eq(may, REFUSAL_LOG_BURST);
}
END_TEST

/* A window whose refusals were all logged says nothing at its end; the
 * line of one that held more comes with the next refusal after it too, if
 * no flush came first, naming the seconds from its first refusal to its
 * last (at least 1); a moment before the window began (a thread's read
 * before another's began it) is in it. */
START_TEST(the_next_refusal_ends_a_window)
{
    refusal_log_reset();
    uint64_t t0 = 5000000;
    char log[4096];
    log_begin();
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(refusal_count_at(REFUSE_BAD_HTTP, t0), 1);
    refusal_log_flush_at(t0 + 60000);
    for (int i = 0; i < 11; i++)
        refusal_count_at(REFUSE_SLOW, t0 + (uint64_t)i * 400);
    ck_assert_int_eq(refusal_count_at(REFUSE_SLOW, t0 - 5), 0);
    ck_assert_int_eq(refusal_count_at(REFUSE_SLOW, t0 + 25000), 1);
    log_end(log, sizeof log);
    ck_assert_int_eq(count_of(log, "\n"), 1);
    ck_assert_msg(strstr(log, " info refused: 2 more (no_request_in_time) "
                         "over 4 s, not logged one by one; /metrics counts "
                         "them all\n"), "%s", log);
}
END_TEST

/* A refusal whose caller says its own summary (the descriptors' reserve)
 * is counted, with no window of its own. */
START_TEST(counted_quietly_has_no_window)
{
    refusal_log_reset();
    uint64_t before = refusal_total(REFUSE_FD_BUDGET);
    for (int i = 0; i < 30; i++)
        refusal_count_quietly(REFUSE_FD_BUDGET);
    ck_assert_uint_eq(refusal_total(REFUSE_FD_BUDGET), before + 30);
    char log[4096];
    log_begin();
    refusal_log_flush_at(UINT64_C(1) << 40);
    log_end(log, sizeof log);
    ck_assert_str_eq(log, "");
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("refusals");
    TCase *tc = tcase_create("refusals");
    tcase_add_test(tc, a_flood_is_logged_ten_then_once);
    tcase_add_test(tc, the_next_refusal_ends_a_window);
    tcase_add_test(tc, counted_quietly_has_no_window);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
