/* test_floor_plan.c - the load benchmark's pure helpers
 * (tests/bench/floor_plan.h): its row list and counts read strictly (bad
 * input refused, never read past), the median of a floor row's ratios,
 * which CPUs the generator and the server get, and the connect window
 * under the server's limit on connections before the lobby. */
#include <check.h>
#include <string.h>

#include "bench/floor_plan.h"
#include "check_main.h"

START_TEST(rows_read)
{
    fp_row_t r[4];
    ck_assert_int_eq(fp_parse_rows("1000:5:10:1,10000:1:15:1,1000:5:10", r, 4), 3);
    ck_assert_int_eq(r[0].n, 1000);
    ck_assert_int_eq(r[0].rate, 5);
    ck_assert_int_eq(r[0].secs, 10);
    ck_assert_int_eq(r[0].workers, 1);
    ck_assert_int_eq(r[1].n, 10000);
    ck_assert_int_eq(r[1].secs, 15);
    ck_assert_int_eq(r[2].workers, 0); /* the server's default */
    ck_assert_int_eq(fp_parse_rows("1:1000:600:63", r, 4), 1);
    ck_assert_int_eq(r[0].rate, 1000);
    ck_assert_int_eq(r[0].workers, 63);
}
END_TEST

START_TEST(bad_rows_refused)
{
    static const char *const bad[] = {
        "", ",", "1000:5:10,", ",1000:5:10", "1000:5", "1000:5:", "1000::10",
        "1000:5:10:", "1000:5:10:0", "1000:5:10:64", "0:5:10", "1000:0:10",
        "1000:1001:10", "1000:5:601", "1000000001:5:10",
        "99999999999999999999999:5:10", "-1:5:10", "+1:5:10", " 1:5:10",
        "1:5:10 ", "1:5:10;2:5:10", "1:5:10:1:1", "a:b:c", "1,5,10",
        "1:1:1,1:1:1,1:1:1", /* one more than max */
    };
    fp_row_t r[2];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_msg(fp_parse_rows(bad[i], r, 2) == -1, "accepted \"%s\"", bad[i]);
    ck_assert_int_eq(fp_parse_rows(NULL, r, 2), -1);
}
END_TEST

START_TEST(counts_read_strictly)
{
    int v = -7;
    ck_assert_int_eq(fp_parse_int("1", 1, 63, &v), 0);
    ck_assert_int_eq(v, 1);
    ck_assert_int_eq(fp_parse_int("63", 1, 63, &v), 0);
    ck_assert_int_eq(v, 63);
    static const char *const bad[] = { "", "0", "64", "-1", "+2", " 2", "2 ",
                                       "2x", "x", "4294967297",
                                       "999999999999999999999999" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        v = -7;
        ck_assert_msg(fp_parse_int(bad[i], 1, 63, &v) == -1, "accepted \"%s\"", bad[i]);
        ck_assert_int_eq(v, -7); /* left as it was */
    }
    ck_assert_int_eq(fp_parse_int(NULL, 1, 63, &v), -1);
}
END_TEST

START_TEST(median_of_ratios)
{
    const double one[] = { 2.5 };
    ck_assert(fp_median(one, 1) == 2.5);
    const double odd[] = { 3.0, 1.0, 2.0 };
    ck_assert(fp_median(odd, 3) == 2.0);
    ck_assert(odd[0] == 3.0 && odd[1] == 1.0); /* not sorted in place */
    const double even[] = { 4.0, 1.0, 3.0, 2.0 };
    ck_assert(fp_median(even, 4) == 2.5);
    /* one wild run does not move it */
    const double noisy[] = { 2.1, 9.0, 2.2, 2.0, 2.3 };
    ck_assert(fp_median(noisy, 5) == 2.2);
    const double same[] = { 1.5, 1.5, 1.5 };
    ck_assert(fp_median(same, 3) == 1.5);
    ck_assert(fp_median(odd, 0) == 0.0);
    double many[FP_MAX_REPEAT + 1];
    for (int i = 0; i <= FP_MAX_REPEAT; i++)
        many[i] = FP_MAX_REPEAT - i; /* descending */
    ck_assert(fp_median(many, FP_MAX_REPEAT + 1) == 0.0); /* too many */
    ck_assert(fp_median(many, FP_MAX_REPEAT) == (FP_MAX_REPEAT + 1) / 2.0);
}
END_TEST

START_TEST(pinned_when_a_cpu_is_left)
{
    const int two[] = { 0, 1 };
    fp_pin_t pl;
    char text[128];
    fp_pin_plan(two, 2, 1, &pl);
    ck_assert_int_eq(pl.pinned, 1);
    ck_assert_int_eq(pl.nserver, 1);
    ck_assert_int_eq(pl.server_cpus[0], 0);
    ck_assert_int_eq(pl.gen_cpu, 1);
    fp_pin_text(&pl, text, sizeof text);
    ck_assert_str_eq(text, "server on CPU 0, generator on CPU 1");

    /* The CPUs this process may use need not start at 0 nor be adjacent. */
    const int some[] = { 2, 5, 6, 9 };
    fp_pin_plan(some, 4, 3, &pl);
    ck_assert_int_eq(pl.pinned, 1);
    ck_assert_int_eq(pl.nserver, 3);
    ck_assert_int_eq(pl.server_cpus[0], 2);
    ck_assert_int_eq(pl.server_cpus[2], 6);
    ck_assert_int_eq(pl.gen_cpu, 9);
    fp_pin_text(&pl, text, sizeof text);
    ck_assert_str_eq(text, "server on CPUs 2,5,6, generator on CPU 9");
}
END_TEST

START_TEST(shared_when_none_is_left)
{
    const int two[] = { 0, 1 };
    fp_pin_t pl;
    char text[64];
    fp_pin_plan(two, 2, 2, &pl); /* W = the cores */
    ck_assert_int_eq(pl.pinned, 0);
    fp_pin_text(&pl, text, sizeof text);
    ck_assert_str_eq(text, "shared cores");
    fp_pin_plan(two, 2, 3, &pl); /* more loops than cores */
    ck_assert_int_eq(pl.pinned, 0);
    const int one[] = { 0 };
    fp_pin_plan(one, 1, 1, &pl); /* one core */
    ck_assert_int_eq(pl.pinned, 0);
    fp_pin_plan(two, 2, 0, &pl);
    ck_assert_int_eq(pl.pinned, 0);
    fp_pin_plan(two, 0, 1, &pl); /* the CPUs unknown (no affinity read) */
    ck_assert_int_eq(pl.pinned, 0);
}
END_TEST

START_TEST(window_under_the_limit)
{
    ck_assert_int_eq(fp_connect_window(200, 256), 100); /* rogued's default */
    ck_assert_int_eq(fp_connect_window(1000, 256), 256);
    ck_assert_int_eq(fp_connect_window(0, 256), 256);   /* no limit */
    ck_assert_int_eq(fp_connect_window(1, 256), 1);
    ck_assert_int_eq(fp_connect_window(3, 256), 1);
    for (int start = 1; start < 600; start++)
        ck_assert_int_lt(fp_connect_window(start, 256) - 1, start);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("floor_plan");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, rows_read);
    tcase_add_test(tc, bad_rows_refused);
    tcase_add_test(tc, counts_read_strictly);
    tcase_add_test(tc, median_of_ratios);
    tcase_add_test(tc, pinned_when_a_cpu_is_left);
    tcase_add_test(tc, shared_when_none_is_left);
    tcase_add_test(tc, window_under_the_limit);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
