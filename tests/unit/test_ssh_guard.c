/* test_ssh_guard.c - the SSH bridge's limits before login
 * (server/net/ssh_guard.h): connections not logged in capped per address
 * (an IPv6 /64 as one),
 * the wait after failed tries per address and per name, forgetting, a
 * success forgetting the address's failures, and what a new connection
 * of an address owes of its wait. */
#include <check.h>
#include <stdio.h>

#include "check_main.h"
#include "ssh_guard.h"

START_TEST(pending_capped_per_address)
{
    sshg_t g;
    ck_assert_int_eq(sshg_init(&g, 2, 100), 0);
    ck_assert_int_eq(sshg_enter(&g, "10.0.0.1", 1), 0);
    ck_assert_int_eq(sshg_enter(&g, "10.0.0.1", 2), 0);
    ck_assert_int_eq(sshg_enter(&g, "10.0.0.1", 3), -1);
    ck_assert_int_eq(sshg_enter(&g, "10.0.0.2", 3), 0); /* another address */
    ck_assert_int_eq(sshg_pending(&g, "10.0.0.1"), 2);
    sshg_leave(&g, "10.0.0.1");
    ck_assert_int_eq(sshg_enter(&g, "10.0.0.1", 4), 0);
    /* An IPv6 /64 is one address. */
    ck_assert_int_eq(sshg_enter(&g, "2001:db8:1:2::5", 5), 0);
    ck_assert_int_eq(sshg_enter(&g, "2001:db8:1:2::6", 5), 0);
    ck_assert_int_eq(sshg_enter(&g, "2001:db8:1:2::7", 5), -1);
    ck_assert_int_eq(sshg_enter(&g, "2001:db8:1:3::5", 5), 0);
    sshg_leave(&g, "2001:db8:1:2::8");
    ck_assert_int_eq(sshg_pending(&g, "2001:db8:1:2::5"), 1);
    sshg_free(&g);
}
END_TEST

START_TEST(failures_wait_double_and_are_forgotten)
{
    sshg_t g;
    ck_assert_int_eq(sshg_init(&g, 0, 100), 0);
    uint64_t t = 1000;
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(sshg_failed(&g, "10.0.0.1", "Kim", t++), 0);
    ck_assert_int_eq(sshg_failed(&g, "10.0.0.1", "kim", t++), 100);
    ck_assert_int_eq(sshg_failed(&g, "10.0.0.1", "kim", t++), 200);
    ck_assert_int_eq(sshg_failed(&g, "10.0.0.1", "kim", t++), 400);
    for (int i = 0; i < 10; i++)
        sshg_failed(&g, "10.0.0.1", "kim", t++);
    ck_assert_int_eq(sshg_failed(&g, "10.0.0.1", "kim", t++), 1600); /* max */
    /* another address, the same name: free until the name's 50 */
    ck_assert_int_eq(sshg_failed(&g, "10.0.0.2", "kim", t++), 0);
    /* a success from the first address forgets it */
    sshg_succeeded(&g, "10.0.0.1");
    ck_assert_int_eq(sshg_failed(&g, "10.0.0.1", "bob", t++), 0);
    /* forgotten after forget_ms without a failure */
    for (int i = 0; i < 5; i++)
        sshg_failed(&g, "10.0.0.3", "x", t++);
    ck_assert_int_gt(sshg_failed(&g, "10.0.0.3", "x", t), 0);
    ck_assert_int_eq(sshg_failed(&g, "10.0.0.3", "x", t + 600000), 0);
    sshg_free(&g);
}
END_TEST

/* What a new connection of an address owes: the rest of the wait its
 * last failure earned, on the caller's clock; nothing for a fresh
 * address, within the free tries, once it has run out, or after a
 * success. */
START_TEST(a_new_connection_owes_the_address_s_wait)
{
    sshg_t g;
    ck_assert_int_eq(sshg_init(&g, 0, 100), 0);
    ck_assert_int_eq(sshg_owed(&g, "10.0.0.1", 1000), 0);
    for (int i = 0; i < 3; i++)
        sshg_failed(&g, "10.0.0.1", "kim", 1000);
    ck_assert_int_eq(sshg_owed(&g, "10.0.0.1", 1000), 0); /* free tries */
    ck_assert_int_eq(sshg_failed(&g, "10.0.0.1", "kim", 1000), 100);
    ck_assert_int_eq(sshg_owed(&g, "10.0.0.1", 1000), 100);
    ck_assert_int_eq(sshg_owed(&g, "10.0.0.1", 1060), 40);
    ck_assert_int_eq(sshg_owed(&g, "10.0.0.1", 1100), 0);
    ck_assert_int_eq(sshg_failed(&g, "10.0.0.1", "kim", 1100), 200);
    ck_assert_int_eq(sshg_owed(&g, "10.0.0.1", 1150), 150);
    /* an IPv6 /64 is one address; another address owes nothing */
    ck_assert_int_eq(sshg_owed(&g, "10.0.0.2", 1150), 0);
    sshg_failed(&g, "2001:db8::1", "x", 2000);
    sshg_failed(&g, "2001:db8::2", "x", 2000);
    sshg_failed(&g, "2001:db8::3", "x", 2000);
    sshg_failed(&g, "2001:db8::4", "x", 2000);
    ck_assert_int_eq(sshg_owed(&g, "2001:db8::9", 2000), 100);
    sshg_succeeded(&g, "10.0.0.1");
    ck_assert_int_eq(sshg_owed(&g, "10.0.0.1", 1150), 0);
    sshg_free(&g);
}
END_TEST

START_TEST(name_counted_from_anywhere)
{
    sshg_t g;
    ck_assert_int_eq(sshg_init(&g, 0, 100), 0);
    char ip[32];
    int waited = 0;
    for (int i = 0; i < 51; i++) {
        snprintf(ip, sizeof ip, "10.1.0.%d", i);
        waited = sshg_failed(&g, ip, "owner", 1000 + (uint64_t)i);
    }
    ck_assert_int_eq(waited, 100); /* the 51st failure for the name */
    sshg_free(&g);
}
END_TEST

START_TEST(ip_of_an_address)
{
    char ip[64];
    sshg_ip_of("127.0.0.2:5555", ip, sizeof ip);
    ck_assert_str_eq(ip, "127.0.0.2");
    sshg_ip_of("[::1]:22", ip, sizeof ip);
    ck_assert_str_eq(ip, "::1");
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ssh guard");
    TCase *tc = tcase_create("guard");
    tcase_add_test(tc, pending_capped_per_address);
    tcase_add_test(tc, failures_wait_double_and_are_forgotten);
    tcase_add_test(tc, name_counted_from_anywhere);
    tcase_add_test(tc, a_new_connection_owes_the_address_s_wait);
    tcase_add_test(tc, ip_of_an_address);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
