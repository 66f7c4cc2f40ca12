/* test_ban_list.c - the bans a host honours (ban_list.h): targets parsed
 * to their canonical form (the host bits of a range cleared, a name in
 * lower case), durations, which addresses a range covers, and the list's
 * answers at a moment: a ban ends at its end, a ban for good never, the
 * latest end wins among several. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ban_list.h"
#include "check_main.h"

static const char *canon(const char *text)
{
    static ban_target_t t;
    char err[160];
    if (ban_parse_target(text, &t, err, sizeof err) != 0)
        return NULL;
    return t.text;
}

START_TEST(targets_parse_to_their_canonical_form)
{
    ck_assert_str_eq(canon("203.0.113.7"), "203.0.113.7/32");
    ck_assert_str_eq(canon("203.0.113.77/24"), "203.0.113.0/24");
    ck_assert_str_eq(canon("10.1.2.3/0"), "0.0.0.0/0");
    ck_assert_str_eq(canon("2001:db8::1"), "2001:db8::1/128");
    ck_assert_str_eq(canon("2001:db8:ff::1/32"), "2001:db8::/32");
    ck_assert_str_eq(canon("Dave"), "dave");
    ck_assert_ptr_null(canon("10.0.0.0/33"));
    ck_assert_ptr_null(canon("10.0.0.0/"));
    ck_assert_ptr_null(canon("10.0.0.0/8x"));
    ck_assert_ptr_null(canon("::/129"));
    ck_assert_ptr_null(canon("not a name"));
    ck_assert_ptr_null(canon("dave/3"));
    ck_assert_ptr_null(canon(""));
}
END_TEST

START_TEST(durations)
{
    int64_t m = -1;
    ck_assert_int_eq(ban_parse_duration("30m", &m), 0);
    ck_assert_int_eq(m, 30);
    ck_assert_int_eq(ban_parse_duration("2h", &m), 0);
    ck_assert_int_eq(m, 120);
    ck_assert_int_eq(ban_parse_duration("7d", &m), 0);
    ck_assert_int_eq(m, 7 * 24 * 60);
    ck_assert_int_eq(ban_parse_duration("30", &m), -1);
    ck_assert_int_eq(ban_parse_duration("0m", &m), -1);
    ck_assert_int_eq(ban_parse_duration("-1h", &m), -1);
    ck_assert_int_eq(ban_parse_duration("1w", &m), -1);
    ck_assert_int_eq(ban_parse_duration("1hh", &m), -1);
    ck_assert_int_eq(ban_parse_duration("h", &m), -1);
}
END_TEST

START_TEST(ranges_cover_their_addresses)
{
    ban_target_t t;
    char err[160];
    ck_assert_int_eq(ban_parse_target("192.0.2.64/26", &t, err, sizeof err), 0);
    ck_assert(ban_target_covers(&t, "192.0.2.64"));
    ck_assert(ban_target_covers(&t, "192.0.2.127"));
    ck_assert(!ban_target_covers(&t, "192.0.2.128"));
    ck_assert(!ban_target_covers(&t, "192.0.2.63"));
    ck_assert(!ban_target_covers(&t, "::1"));
    ck_assert(!ban_target_covers(&t, "?"));
    /* an IPv4 client on a listener bound to ::, as the kernel names it */
    ck_assert(ban_target_covers(&t, "::ffff:192.0.2.100"));
    ck_assert(!ban_target_covers(&t, "::ffff:192.0.2.200"));
    ck_assert(!ban_target_covers(&t, "::1:c000:264")); /* not mapped */
    ck_assert_int_eq(ban_parse_target("::ffff:192.0.2.0/120", &t, err,
                                      sizeof err), 0);
    ck_assert(ban_target_covers(&t, "192.0.2.7"));
    ck_assert(ban_target_covers(&t, "::ffff:192.0.2.7"));
    ck_assert(!ban_target_covers(&t, "192.0.3.7"));
    ck_assert_int_eq(ban_parse_target("2001:db8::/32", &t, err, sizeof err), 0);
    ck_assert(ban_target_covers(&t, "2001:db8:1234::5"));
    ck_assert(!ban_target_covers(&t, "2001:db9::5"));
    ck_assert(!ban_target_covers(&t, "192.0.2.64"));
    ck_assert_int_eq(ban_parse_target("dave", &t, err, sizeof err), 0);
    ck_assert(!ban_target_covers(&t, "192.0.2.64"));
}
END_TEST

START_TEST(the_list_at_a_moment)
{
    ban_list_t l;
    ck_assert_int_eq(ban_list_init(&l), 0);
    store_ban_t v[] = {
        { "192.0.2.0/24", 5000, 1 },
        { "192.0.2.7/32", 9000, 2 },
        { "dave", 0, 3 },
        { "not/valid", 0, 4 },      /* left out */
    };
    ck_assert_int_eq(ban_list_set(&l, v, 4), 0);
    int64_t until = -1;
    ck_assert_int_eq(ban_list_addr(&l, "192.0.2.7", 1000, &until), 1);
    ck_assert_int_eq(until, 9000);  /* the latest end of the two */
    ck_assert_int_eq(ban_list_addr(&l, "192.0.2.8", 1000, &until), 1);
    ck_assert_int_eq(until, 5000);
    ck_assert_int_eq(ban_list_addr(&l, "192.0.2.8", 5000, &until), 0);
    ck_assert_int_eq(ban_list_addr(&l, "192.0.2.7", 8999, &until), 1);
    ck_assert_int_eq(ban_list_addr(&l, "192.0.2.7", 9000, &until), 0);
    ck_assert_int_eq(ban_list_name(&l, "Dave", 1LL << 50, &until), 1);
    ck_assert_int_eq(until, 0);     /* for good */
    ck_assert_int_eq(ban_list_name(&l, "davey", 0, &until), 0);
    ck_assert_int_eq(ban_list_addr(&l, "203.0.113.1", 0, &until), 0);
    store_ban_t *c;
    ck_assert_uint_eq(ban_list_copy(&l, 6000, &c), 2);
    ck_assert_str_eq(c[0].target, "192.0.2.7/32");
    ck_assert_str_eq(c[1].target, "dave");
    free(c);
    ck_assert_int_eq(ban_list_set(&l, NULL, 0), 0);
    ck_assert_int_eq(ban_list_name(&l, "dave", 0, &until), 0);
    ck_assert_uint_eq(ban_list_copy(&l, 0, &c), 0);
    ck_assert_ptr_null(c);
    ban_list_free(&l);
}
END_TEST

START_TEST(what_the_client_is_told)
{
    char line[128];
    ban_say(line, sizeof line, "This address", 0);
    ck_assert_str_eq(line, "This address is banned.");
    ban_say(line, sizeof line, "This address", 1700000000000LL);
    ck_assert_str_eq(line, "This address is banned until 2023-11-14 22:13:20 UTC.");
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ban_list");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, targets_parse_to_their_canonical_form);
    tcase_add_test(tc, durations);
    tcase_add_test(tc, ranges_cover_their_addresses);
    tcase_add_test(tc, the_list_at_a_moment);
    tcase_add_test(tc, what_the_client_is_told);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
