/* test_addr_limits.c - per-address limits: sessions at once, connections
 * a minute (a token bucket refilled evenly), password checks in flight,
 * accounts an hour, each address on its own, and idle addresses
 * forgotten; the key an address is counted by (an IPv6 address's /64). */
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

/* The key of addr, as addr_key writes it. */
static const char *key_of(const char *addr)
{
    static char out[ADDR_MAX];
    addr_key(addr, out, sizeof out);
    return out;
}

START_TEST(an_address_is_keyed_by_its_host_or_its_64)
{
    ck_assert_str_eq(key_of("203.0.113.7"), "203.0.113.7");
    /* IPv4-mapped: one IPv4 host, the same key as its IPv4 form. */
    ck_assert_str_eq(key_of("::ffff:203.0.113.7"), "203.0.113.7");
    ck_assert_str_eq(key_of("::FFFF:cb00:7107"), "203.0.113.7");
    ck_assert_str_eq(key_of("::1"), "::/64");
    /* Two addresses of one /64, however written: one key. */
    ck_assert_str_eq(key_of("2001:db8:1:2::5"), "2001:db8:1:2::/64");
    ck_assert_str_eq(key_of("2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd"),
                     "2001:db8:1:2::/64");
    ck_assert_str_eq(key_of("2001:db8:1:3::5"), "2001:db8:1:3::/64");
    /* No address: kept as is (cut to fit). */
    ck_assert_str_eq(key_of("not an address"), "not an address");
    ck_assert_str_eq(key_of("2001:db8::1::2"), "2001:db8::1::2");
    ck_assert_str_eq(key_of("10.0.0.256"), "10.0.0.256");
    ck_assert_str_eq(key_of(""), "");
    char small[8];
    addr_key("2001:db8:1:2::5", small, sizeof small);
    ck_assert_str_eq(small, "2001:db");
}
END_TEST

START_TEST(two_addresses_of_one_64_are_one_address)
{
    addr_limits_t a;
    int t;
    ck_assert_int_eq(addr_limits_init(&a, 1, 0, 1, 0), 0);
    ck_assert_int_eq(addr_admit(&a, "2001:db8:1:2::5", 0, &t), ADDR_OK);
    ck_assert_int_eq(addr_admit(&a, "2001:db8:1:2::6", 0, &t),
                     ADDR_TOO_MANY_SESSIONS);
    ck_assert_int_eq(addr_admit(&a, "2001:db8:1:3::5", 0, &t), ADDR_OK);
    ck_assert_int_eq(addr_sessions(&a, "2001:db8:1:2:ffff::"), 1);
    ck_assert_int_eq(addr_hash_begin(&a, "2001:db8:1:2::7"), 0);
    ck_assert_int_eq(addr_hash_begin(&a, "2001:db8:1:2::8"), -1);
    addr_hash_end(&a, "2001:db8:1:2::9");
    /* A mapped address is its IPv4 host's. */
    ck_assert_int_eq(addr_admit(&a, "10.0.0.9", 0, &t), ADDR_OK);
    ck_assert_int_eq(addr_admit(&a, "::ffff:10.0.0.9", 0, &t),
                     ADDR_TOO_MANY_SESSIONS);
    ck_assert_int_eq(addr_startup_begin(&a, "2001:db8:1:2::a", 0), 0);
    ck_assert_int_eq(addr_startup_begin(&a, "2001:db8:1:2::b", 0), 1);
    addr_startup_end(&a, "2001:db8:1:2::a", 0);
    addr_startup_end(&a, "2001:db8:1:2::b", 0);
    /* Released from another address of the /64: the entry is forgotten. */
    addr_release(&a, "2001:db8:1:2::6", 0);
    addr_release(&a, "2001:db8:1:3::6", 0);
    addr_release(&a, "10.0.0.9", 0);
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
    tcase_add_test(tc, an_address_is_keyed_by_its_host_or_its_64);
    tcase_add_test(tc, two_addresses_of_one_64_are_one_address);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
