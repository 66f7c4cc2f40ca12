/* test_prefetch.c - prefetch_range asks for exactly the lines a range
 * touches: the first and last partial lines included, none past the end
 * (docs/performance.md, "A key's cold lines"). */
#include <check.h>
#include <stdalign.h>
#include <stdint.h>

#include "check_main.h"
#include "prefetch.h"

static alignas(64) unsigned char area[64 * 8];

/* The lines [p, p + n) touches, counted by hand from the addresses. */
static size_t lines_touched(const unsigned char *p, size_t n)
{
    if (n == 0)
        return 0;
    uintptr_t first = (uintptr_t)p / 64, last = ((uintptr_t)p + n - 1) / 64;
    return (size_t)(last - first + 1);
}

START_TEST(aligned_ranges_ask_for_whole_lines)
{
    ck_assert_uint_eq(prefetch_range(area, 0), 0);
    ck_assert_uint_eq(prefetch_range(area, 1), 1);
    ck_assert_uint_eq(prefetch_range(area, 64), 1);
    ck_assert_uint_eq(prefetch_range(area, 65), 2);
    ck_assert_uint_eq(prefetch_range(area, sizeof area), 8);
}
END_TEST

START_TEST(unaligned_ranges_include_both_partial_lines)
{
    ck_assert_uint_eq(prefetch_range(area + 63, 1), 1);
    ck_assert_uint_eq(prefetch_range(area + 63, 2), 2);
    ck_assert_uint_eq(prefetch_range(area + 1, 64), 2);
    ck_assert_uint_eq(prefetch_range(area + 100, 200), 4);
    for (size_t off = 0; off < 128; off++)
        for (size_t n = 0; off + n <= sizeof area; n += 7)
            ck_assert_uint_eq(prefetch_range(area + off, n),
                              lines_touched(area + off, n));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("prefetch");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, aligned_ranges_ask_for_whole_lines);
    tcase_add_test(tc, unaligned_ranges_include_both_partial_lines);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(suite)
