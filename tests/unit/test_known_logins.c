/* test_known_logins.c - the addresses an account logged in from
 * (server/known_logins.h): found by name in any case and address, not for
 * another address or name, forgotten after KL_FORGET_MS, and bounded. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "check_main.h"
#include "known_logins.h"

START_TEST(known_by_name_and_address)
{
    known_logins_t *k = calloc(1, sizeof *k);
    ck_assert_ptr_nonnull(k);
    kl_add(k, "Owner", "192.0.2.10", 1000);
    ck_assert_int_eq(kl_has(k, "owner", "192.0.2.10", 2000), 1);
    ck_assert_int_eq(kl_has(k, "owner", "192.0.2.11", 2000), 0);
    ck_assert_int_eq(kl_has(k, "other", "192.0.2.10", 2000), 0);
    ck_assert_int_eq(kl_has(k, "owner", "", 2000), 0);
    ck_assert_int_eq(kl_has(k, "owner", "192.0.2.10", 1000 + KL_FORGET_MS), 0);
    /* many more pairs than the table holds: no crash, the newest kept */
    char addr[32];
    for (int i = 0; i < KL_CAP * 2; i++) {
        snprintf(addr, sizeof addr, "10.%d.%d.1", i / 256, i % 256);
        kl_add(k, "x", addr, 5000 + (uint64_t)i);
    }
    ck_assert_int_eq(kl_has(k, "x", addr, 5000 + KL_CAP * 2), 1);
    free(k);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("known logins");
    TCase *tc = tcase_create("known");
    tcase_add_test(tc, known_by_name_and_address);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
