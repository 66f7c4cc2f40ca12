/* test_addr_limits.c - per-address limits: sessions at once, connections
 * a minute (a token bucket refilled evenly), password checks in flight,
 * accounts an hour, each address on its own, and idle addresses
 * forgotten. */
#include <check.h>

#include "addr_limits.h"
#include "check_main.h"

START_TEST(sessions_per_address)
{
    addr_limits_t a;
    int t;
    ck_assert_int_eq(addr_limits_init(&a, 2, 0, 0, 0), 0);
    ck_assert_int_eq(addr_admit(&a, "10.0.0.1", 0, &t), ADDR_OK);
    ck_assert_int_eq(t, 1);
    ck_assert_int_eq(addr_admit(&a, "10.0.0.1", 0, &t), ADDR_OK);
    ck_assert_int_eq(addr_admit(&a, "10.0.0.1", 0, &t), ADDR_TOO_MANY_SESSIONS);
    ck_assert_int_eq(t, 0);
    /* Another address is not touched by the first one's. */
    ck_assert_int_eq(addr_admit(&a, "::1", 0, &t), ADDR_OK);
    ck_assert_int_eq(addr_sessions(&a, "10.0.0.1"), 2);
    ck_assert_int_eq(addr_sessions(&a, "::1"), 1);
    addr_release(&a, "10.0.0.1", 0);
    ck_assert_int_eq(addr_admit(&a, "10.0.0.1", 0, &t), ADDR_OK);
    /* Released to none: forgotten. */
    addr_release(&a, "::1", 0);
    ck_assert_int_eq(addr_sessions(&a, "::1"), 0);
    ck_assert_uint_eq(a.n, 1);
    addr_limits_free(&a);
}
END_TEST

START_TEST(connects_per_minute)
{
    addr_limits_t a;
    int t;
    ck_assert_int_eq(addr_limits_init(&a, 0, 6, 0, 0), 0);
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(addr_admit(&a, "10.0.0.2", 1000, &t), ADDR_OK);
        addr_release(&a, "10.0.0.2", 1000);
    }
    ck_assert_int_eq(addr_admit(&a, "10.0.0.2", 1000, &t),
                     ADDR_TOO_MANY_CONNECTS);
    ck_assert_int_eq(addr_admit(&a, "10.0.0.3", 1000, &t), ADDR_OK);
    /* One token every 10 s: 9.999 s later still none, at 10 s one. */
    ck_assert_int_eq(addr_admit(&a, "10.0.0.2", 10999, &t),
                     ADDR_TOO_MANY_CONNECTS);
    ck_assert_int_eq(addr_admit(&a, "10.0.0.2", 11000, &t), ADDR_OK);
    ck_assert_int_eq(addr_admit(&a, "10.0.0.2", 11000, &t),
                     ADDR_TOO_MANY_CONNECTS);
    /* 10.0.0.3's one token is back by 11 s: it is forgotten at once; a
     * minute idle refills 10.0.0.2's, and the sweep forgets it too. */
    addr_release(&a, "10.0.0.2", 11000);
    addr_release(&a, "10.0.0.3", 11000);
    ck_assert_uint_eq(a.n, 1);
    addr_sweep(&a, 70999);
    ck_assert_uint_eq(a.n, 1);
    addr_sweep(&a, 71000);
    ck_assert_uint_eq(a.n, 0);
    ck_assert_int_eq(addr_admit(&a, "10.0.0.2", 71000, &t), ADDR_OK);
    addr_limits_free(&a);
}
END_TEST

START_TEST(no_limits_track_nothing)
{
    addr_limits_t a;
    int t;
    ck_assert_int_eq(addr_limits_init(&a, 0, 0, 0, 0), 0);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(addr_admit(&a, "10.0.0.4", 0, &t), ADDR_OK);
    ck_assert_int_eq(t, 0);
    ck_assert_uint_eq(a.n, 0);
    addr_limits_free(&a);
}
END_TEST

START_TEST(hashes_in_flight_and_accounts_an_hour)
{
    addr_limits_t a;
    int t;
    ck_assert_int_eq(addr_limits_init(&a, 0, 0, 2, 3), 0);
    ck_assert_int_eq(addr_admit(&a, "10.0.0.5", 0, &t), ADDR_OK);
    ck_assert_int_eq(addr_admit(&a, "10.0.0.6", 0, &t), ADDR_OK);
    ck_assert_int_eq(addr_hash_begin(&a, "10.0.0.5"), 0);
    ck_assert_int_eq(addr_hash_begin(&a, "10.0.0.5"), 0);
    ck_assert_int_eq(addr_hash_begin(&a, "10.0.0.5"), -1);
    ck_assert_int_eq(addr_hash_begin(&a, "10.0.0.6"), 0); /* its own share */
    addr_hash_end(&a, "10.0.0.5");
    ck_assert_int_eq(addr_hash_begin(&a, "10.0.0.5"), 0);
    /* 3 accounts an hour: one every 20 minutes after that. */
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(addr_register(&a, "10.0.0.5", 1000), 0);
    ck_assert_int_eq(addr_register(&a, "10.0.0.5", 1000), -1);
    ck_assert_int_eq(addr_register(&a, "10.0.0.6", 1000), 0);
    ck_assert_int_eq(addr_register(&a, "10.0.0.5", 1000 + 1199999), -1);
    ck_assert_int_eq(addr_register(&a, "10.0.0.5", 1000 + 1200000), 0);
    /* An address is kept while a check is in flight or its hour runs. */
    addr_release(&a, "10.0.0.5", 2000000);
    ck_assert_uint_eq(a.n, 2);
    addr_hash_end(&a, "10.0.0.5");
    addr_hash_end(&a, "10.0.0.5");
    addr_sweep(&a, 2000000);
    ck_assert_uint_eq(a.n, 2); /* its accounts are not back yet */
    addr_sweep(&a, 1000 + 1200000 + 3600000);
    ck_assert_uint_eq(a.n, 1); /* 10.0.0.6 still has its session */
    addr_limits_free(&a);
}
END_TEST

/* Connections before the lobby (startups.h): begin says how many the
 * address had, each address its own count, counted with no limit on, and
 * an address with one is kept by the sweep until the last has ended. */
START_TEST(startups_are_counted_per_address_and_kept_while_counted)
{
    addr_limits_t a;
    ck_assert_int_eq(addr_limits_init(&a, 0, 0, 0, 0), 0);
    ck_assert_int_eq(addr_startup_begin(&a, "10.0.0.7", 0), 0);
    ck_assert_int_eq(addr_startup_begin(&a, "10.0.0.7", 0), 1);
    ck_assert_int_eq(addr_startup_begin(&a, "10.0.0.8", 0), 0);
    ck_assert_int_eq(addr_startup_begin(&a, "10.0.0.7", 0), 2);
    ck_assert_uint_eq(a.n, 2);
    addr_sweep(&a, 1000000);
    ck_assert_uint_eq(a.n, 2); /* both still counted */
    addr_startup_end(&a, "10.0.0.8", 1000);
    ck_assert_uint_eq(a.n, 1); /* its last: forgotten at once */
    addr_startup_end(&a, "10.0.0.7", 1000);
    addr_startup_end(&a, "10.0.0.7", 1000);
    addr_sweep(&a, 2000000);
    ck_assert_uint_eq(a.n, 1); /* one left */
    ck_assert_int_eq(addr_startup_begin(&a, "10.0.0.7", 1000), 1);
    addr_startup_end(&a, "10.0.0.7", 1000);
    addr_startup_end(&a, "10.0.0.7", 1000);
    addr_startup_end(&a, "10.0.0.7", 1000); /* one too many: harmless */
    addr_startup_end(&a, "10.0.0.9", 1000); /* never counted: harmless */
    ck_assert_uint_eq(a.n, 0);
    ck_assert_int_eq(addr_startup_begin(&a, "10.0.0.7", 1000), 0);
    addr_limits_free(&a);
}
END_TEST

/* The count lives beside the address's session and tokens: a spent
 * bucket or a session keeps it after its startups end, and the startups
 * keep it after its bucket is full and its session gone. */
START_TEST(startups_share_the_entry_with_the_limits)
{
    addr_limits_t a;
    int t;
    ck_assert_int_eq(addr_limits_init(&a, 2, 6, 0, 0), 0);
    ck_assert_int_eq(addr_startup_begin(&a, "10.0.0.7", 0), 0);
    ck_assert_int_eq(addr_admit(&a, "10.0.0.7", 0, &t), ADDR_OK);
    ck_assert_int_eq(t, 1);
    ck_assert_uint_eq(a.n, 1);
    addr_release(&a, "10.0.0.7", 120000); /* bucket full, no session */
    ck_assert_uint_eq(a.n, 1); /* its startup holds it */
    ck_assert_int_eq(addr_startup_begin(&a, "10.0.0.7", 120000), 1);
    addr_startup_end(&a, "10.0.0.7", 120000);
    addr_startup_end(&a, "10.0.0.7", 120000);
    ck_assert_uint_eq(a.n, 0);
    addr_limits_free(&a);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("addr_limits");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, sessions_per_address);
    tcase_add_test(tc, connects_per_minute);
    tcase_add_test(tc, no_limits_track_nothing);
    tcase_add_test(tc, hashes_in_flight_and_accounts_an_hour);
    tcase_add_test(tc, startups_are_counted_per_address_and_kept_while_counted);
    tcase_add_test(tc, startups_share_the_entry_with_the_limits);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
