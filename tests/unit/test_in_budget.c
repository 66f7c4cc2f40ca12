/* test_in_budget.c - a session's budget of bytes read (server/net/
 * in_budget.h) on a clock the test moves: full at the start, spent (and
 * whether less than a byte is left, the only case in which the room is
 * asked again after a read), what comes back with time (never past the
 * burst, a long quiet spell included), a debt paid back before anything
 * more is read, the wait for a given room, a burst lowered by a reload;
 * and the rate and burst a max_keys_per_second gives. */
#include <check.h>
#include <stdint.h>

#include "check_main.h"
#include "in_budget.h"

#define T0 1000000u /* the loop's clock at the start (not 0: it is not) */

START_TEST(full_at_the_start_then_spent)
{
    in_budget_t b;
    inb_init(&b, 4096, T0);
    ck_assert_uint_eq(inb_room(&b, 100, 4096, T0), 4096);
    inb_spend(&b, 4000);
    ck_assert_uint_eq(inb_room(&b, 100, 4096, T0), 96);
    ck_assert_int_eq(inb_low(&b), 0);
    inb_spend(&b, 95);
    ck_assert_int_eq(inb_low(&b), 0); /* a byte left */
    inb_spend(&b, 1);
    ck_assert_int_eq(inb_low(&b), 1);
    ck_assert_uint_eq(inb_room(&b, 100, 4096, T0), 0);
    /* 5 ms at 100 bytes a second: half a byte, still low */
    ck_assert_uint_eq(inb_room(&b, 100, 4096, T0 + 5), 0);
    ck_assert_int_eq(inb_low(&b), 1);
    ck_assert_uint_eq(inb_room(&b, 100, 4096, T0 + 10), 1);
    ck_assert_int_eq(inb_low(&b), 0);
}
END_TEST

/* 100 bytes a second: 1 byte each 10 ms, a part-byte kept for later. */
START_TEST(refills_at_its_rate_up_to_the_burst)
{
    in_budget_t b;
    inb_init(&b, 4096, T0);
    inb_spend(&b, 4096);
    ck_assert_uint_eq(inb_room(&b, 100, 4096, T0 + 9), 0);
    ck_assert_uint_eq(inb_room(&b, 100, 4096, T0 + 15), 1);
    ck_assert_uint_eq(inb_room(&b, 100, 4096, T0 + 20), 2);
    ck_assert_uint_eq(inb_room(&b, 100, 4096, T0 + 1000), 100);
    ck_assert_uint_eq(inb_room(&b, 100, 4096, T0 + 60000), 4096);
    /* a year later, and at a rate of 1.6 MB/s: full, not overflowed */
    ck_assert_uint_eq(inb_room(&b, 1600000, 4096, T0 + 86400000ull * 365),
                      4096);
    /* the clock standing still adds nothing */
    inb_spend(&b, 10);
    ck_assert_uint_eq(inb_room(&b, 100, 4096, T0 + 86400000ull * 365), 4086);
}
END_TEST

/* Bytes read past the room (SSH's records) are owed: nothing may be read
 * until they are paid back. */
START_TEST(a_debt_is_paid_first)
{
    in_budget_t b;
    inb_init(&b, 1000, T0);
    inb_spend(&b, 1500);
    ck_assert_uint_eq(inb_room(&b, 100, 1000, T0), 0);
    ck_assert_uint_eq(inb_room(&b, 100, 1000, T0 + 5000), 0); /* paid */
    ck_assert_uint_eq(inb_room(&b, 100, 1000, T0 + 5010), 1);
    /* a debt and a long spell: full */
    inb_spend(&b, 2500);
    ck_assert_uint_eq(inb_room(&b, 100, 1000, T0 + 100000), 1000);
}
END_TEST

/* A gap times a rate past 64 bits (2^33 ms at 2^31 bytes a second is
 * 2^64, 0 once wrapped): the gap is cut first, so the bucket is full. */
START_TEST(a_huge_rate_does_not_wrap)
{
    in_budget_t b;
    inb_init(&b, 4096, T0);
    inb_spend(&b, 4096);
    ck_assert_uint_eq(inb_room(&b, 1u << 31, 4096, T0 + (1ull << 33)), 4096);
}
END_TEST

START_TEST(the_wait_for_a_room)
{
    in_budget_t b;
    inb_init(&b, 1000, T0);
    ck_assert_uint_eq(inb_wait_ms(&b, 100, 1000), 0);
    inb_spend(&b, 1000);
    ck_assert_uint_eq(inb_wait_ms(&b, 100, 10), 100);
    ck_assert_uint_eq(inb_wait_ms(&b, 300, 1), 4); /* 3.33 ms, rounded up */
    inb_spend(&b, 50); /* owed */
    ck_assert_uint_eq(inb_wait_ms(&b, 100, 10), 600);
    /* waited that long, the room is there */
    ck_assert_uint_eq(inb_room(&b, 100, 1000, T0 + 600), 10);
    ck_assert_uint_eq(inb_wait_ms(&b, 100, 10), 0);
}
END_TEST

/* A reload lowers max_keys_per_second: a fuller bucket is cut to the new
 * burst at once. */
START_TEST(a_lowered_burst_cuts_it)
{
    in_budget_t b;
    inb_init(&b, 100000, T0);
    ck_assert_uint_eq(inb_room(&b, 100, 20000, T0), 20000);
    ck_assert_uint_eq(inb_room(&b, 100, 20000, T0 + 1000), 20000);
}
END_TEST

/* 16 bytes a key, unless max_input_bytes_per_second says; a burst of
 * 16 KB or a second's worth. */
START_TEST(rate_and_burst_of_the_limits)
{
    ck_assert_uint_eq(inb_rate(100, 0), 1600);
    ck_assert_uint_eq(inb_burst(1600), INB_BURST_MIN);
    ck_assert_uint_eq(inb_rate(1, 0), 16);
    ck_assert_uint_eq(inb_burst(16), 16384);
    ck_assert_uint_eq(inb_rate(100000, 0), 1600000);
    ck_assert_uint_eq(inb_burst(1600000), 1600000);
    ck_assert_uint_eq(inb_rate(100, 500), 500);
    ck_assert_uint_eq(inb_rate(1, 100000000), 100000000);
    ck_assert_uint_eq(inb_burst(100000000), 100000000);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("in_budget");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, full_at_the_start_then_spent);
    tcase_add_test(tc, refills_at_its_rate_up_to_the_burst);
    tcase_add_test(tc, a_debt_is_paid_first);
    tcase_add_test(tc, a_huge_rate_does_not_wrap);
    tcase_add_test(tc, the_wait_for_a_room);
    tcase_add_test(tc, a_lowered_burst_cuts_it);
    tcase_add_test(tc, rate_and_burst_of_the_limits);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
