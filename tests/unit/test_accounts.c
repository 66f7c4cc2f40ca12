/* test_accounts.c - name and password rules, the check on text shown to
 * other players, and the per-name slow-down of failed logins (with a fake
 * clock). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "accounts.h"
#include "check_main.h"
#include "throttle.h"

/* --- names -------------------------------------------------------------- */

START_TEST(names_of_the_allowed_characters_pass)
{
    const char *good[] = { "ab", "Alice", "bob_the-2nd", "A-Z_a-z_0-9", "--",
                           "12345678901234567890", "__" };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        ck_assert_msg(acct_name_valid(good[i], NULL, 0), "%s", good[i]);
}
END_TEST

START_TEST(other_names_fail_with_a_reason)
{
    const char *bad[] = { "", "a", "123456789012345678901", "bob smith",
                          "bob\033[2J", "bob\n", "bob\r", "caf\xc3\xa9",
                          "bob!", "a.b", "tab\there", "\x7f\x7f", "<b>" };
    char why[80];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        ck_assert_msg(!acct_name_valid(bad[i], why, sizeof why), "%zu", i);
        ck_assert_msg(why[0] != '\0', "%zu: no reason", i);
    }
    acct_name_valid("a", why, sizeof why);
    ck_assert_str_eq(why, "A name needs at least 2 characters.");
    acct_name_valid("123456789012345678901", why, sizeof why);
    ck_assert_str_eq(why, "A name has at most 20 characters.");
    acct_name_valid("a b", why, sizeof why);
    ck_assert_str_eq(why, "A name may use only letters, digits, _ and -.");
}
END_TEST

START_TEST(name_key_folds_case_and_cuts)
{
    char k[ACCT_NAME_MAX + 1];
    acct_name_key("AlIcE_9", k, sizeof k);
    ck_assert_str_eq(k, "alice_9");
    acct_name_key("ABCDEFGHIJKLMNOPQRSTUVWXYZ", k, sizeof k);
    ck_assert_str_eq(k, "abcdefghijklmnopqrst");
    char small[4];
    acct_name_key("ABCDEF", small, sizeof small);
    ck_assert_str_eq(small, "abc");
}
END_TEST

/* --- passwords ------------------------------------------------------------ */

START_TEST(password_rules)
{
    char why[80], longest[ACCT_PASS_MAX + 2];
    ck_assert(acct_password_valid("secret", why, sizeof why));
    ck_assert(acct_password_valid("with spaces ok", NULL, 0));
    ck_assert(acct_password_valid("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
                                  NULL, 0)); /* six characters, 12 bytes */
    ck_assert(!acct_password_valid("\xc3\xa9\xc3\xa9\xc3\xa9", why, sizeof why));
    ck_assert_str_eq(why, "A password needs at least 6 characters.");
    ck_assert(!acct_password_valid("five5", why, sizeof why));
    ck_assert(!acct_password_valid("", NULL, 0));
    ck_assert(!acct_password_valid("secret\033", why, sizeof why));
    ck_assert_str_eq(why, "A password may not hold control characters.");
    ck_assert(!acct_password_valid("secret\x7f", NULL, 0));
    ck_assert(!acct_password_valid("secret\xff", NULL, 0)); /* not UTF-8 */
    memset(longest, 'x', ACCT_PASS_MAX);
    longest[ACCT_PASS_MAX] = '\0';
    ck_assert(acct_password_valid(longest, NULL, 0));
    longest[ACCT_PASS_MAX] = 'x';
    longest[ACCT_PASS_MAX + 1] = '\0';
    ck_assert(!acct_password_valid(longest, why, sizeof why));
    ck_assert_str_eq(why, "A password has at most 128 bytes.");
}
END_TEST

/* --- text shown to others ------------------------------------------------- */

static int safe(const char *s)
{
    return acct_text_is_safe(s, strlen(s));
}

START_TEST(plain_and_unicode_text_is_safe)
{
    ck_assert(safe(""));
    ck_assert(safe("killed by a troll"));
    ck_assert(safe("~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./"));
    ck_assert(safe("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x90\x89")); /* é ✓ 🐉 */
}
END_TEST

START_TEST(controls_and_escapes_are_not)
{
    const char *bad[] = {
        "\033[2J", "a\033]0;title\007", "bell\a", "nl\n", "cr\r", "tab\t",
        "del\x7f", "\xc2\x9b" "2J",          /* C1 CSI */
        "\xc2\x85",                           /* C1 NEL */
        "\xe2\x80\xae" "evil",                /* RIGHT-TO-LEFT OVERRIDE */
        "\xe2\x81\xa6" "x",                   /* LEFT-TO-RIGHT ISOLATE */
        "zero\xe2\x80\x8bwidth",              /* ZERO WIDTH SPACE */
        "\xef\xbb\xbf" "bom",                 /* BOM */
        "\xf3\xa0\x80\x81",                   /* TAG character */
        "\xff", "\xc3", "\xc0\xaf",           /* bad, cut, overlong */
        "\xe0\x80\xaf", "\xed\xa0\x80",       /* overlong, surrogate */
        "\xf4\x90\x80\x80",                   /* past U+10FFFF */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!safe(bad[i]), "%zu", i);
    /* a NUL inside the length is a control too */
    ck_assert(!acct_text_is_safe("a\0b", 3));
    /* a sequence cut by the length is not read past it */
    ck_assert(!acct_text_is_safe("\xe2\x9c\x93", 2));
}
END_TEST

/* --- the slow-down -------------------------------------------------------- */

START_TEST(steps_double_to_a_cap)
{
    for (uint32_t f = 0; f < THROTTLE_FREE; f++)
        ck_assert_uint_eq(throttle_step_ms(f), 0);
    ck_assert_uint_eq(throttle_step_ms(THROTTLE_FREE), 1000);
    ck_assert_uint_eq(throttle_step_ms(THROTTLE_FREE + 1), 2000);
    ck_assert_uint_eq(throttle_step_ms(THROTTLE_FREE + 5), 32000);
    ck_assert_uint_eq(throttle_step_ms(THROTTLE_FREE + 6), THROTTLE_MAX_MS);
    ck_assert_uint_eq(throttle_step_ms(UINT32_MAX), THROTTLE_MAX_MS);
}
END_TEST

START_TEST(free_failures_then_waits)
{
    throttle_t t;
    ck_assert_int_eq(throttle_init(&t, 0), 0);
    uint64_t now = 1000000;
    for (int i = 0; i < THROTTLE_FREE; i++) {
        ck_assert_int_eq(throttle_admit(&t, "bob", now), 0);
        throttle_failed(&t, "Bob", now); /* any case */
    }
    ck_assert_int_eq(throttle_admit(&t, "BOB", now), 1000);
    throttle_failed(&t, "bob", now + 1000);
    /* 4 failures: the next may go 2 s after the last */
    ck_assert_int_eq(throttle_admit(&t, "bob", now + 1500), 1500);
    /* other names are not affected */
    ck_assert_int_eq(throttle_admit(&t, "alice", now), 0);
    throttle_free(&t);
}
END_TEST

START_TEST(parallel_attempts_are_spaced_then_refused)
{
    throttle_t t;
    ck_assert_int_eq(throttle_init(&t, 0), 0);
    for (int i = 0; i < THROTTLE_FREE; i++)
        throttle_failed(&t, "carol", 0);
    /* Many connections at once: each attempt counts as a failure from its
     * start, so they are spaced by doubling steps (1, 2, 4, 8, 16, 32 s)
     * and refused once the wait would pass THROTTLE_MAX_WAIT_MS. */
    static const int64_t want[] = { 1000, 3000, 7000, 15000, 31000, 63000 };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_int_eq(throttle_admit(&t, "carol", 0), want[i]);
    ck_assert_int_eq(throttle_admit(&t, "carol", 0), -1);
    /* and time makes room again */
    ck_assert_int_ge(throttle_admit(&t, "carol", 100000), 0);
    throttle_free(&t);
}
END_TEST

/* Attempts count from their start: on a fresh name, parallel guesses
 * beyond the free ones wait although no hash has failed yet; an attempt
 * that ends with no verdict stops counting. */
START_TEST(attempts_count_from_their_start)
{
    throttle_t t;
    ck_assert_int_eq(throttle_init(&t, 0), 0);
    for (int i = 0; i < THROTTLE_FREE; i++)
        ck_assert_int_eq(throttle_admit(&t, "fred", 5), 0);
    ck_assert_int_eq(throttle_admit(&t, "fred", 5), 1000);
    ck_assert_int_eq(throttle_admit(&t, "fred", 5), 3000);
    ck_assert_int_eq(throttle_admit(&t, "fred", 5), 7000);
    for (int i = 0; i < 6; i++)
        throttle_abandoned(&t, "fred", 6);
    /* nothing pending any more: once the last wait is over, free again */
    ck_assert_int_eq(throttle_admit(&t, "fred", 100000), 0);
    throttle_free(&t);
}
END_TEST

START_TEST(success_clears_and_time_forgets)
{
    throttle_t t;
    ck_assert_int_eq(throttle_init(&t, 0), 0);
    for (int i = 0; i < 10; i++)
        throttle_failed(&t, "dave", 0);
    ck_assert_int_gt(throttle_admit(&t, "dave", 1), 0);
    throttle_succeeded(&t, "DAVE");
    ck_assert_int_eq(throttle_admit(&t, "dave", 2), 0);

    for (int i = 0; i < 10; i++)
        throttle_failed(&t, "erin", 0);
    /* still remembered just inside the window: one more failure waits */
    throttle_failed(&t, "erin", THROTTLE_FORGET_MS - 1);
    ck_assert_int_eq(throttle_admit(&t, "erin", THROTTLE_FORGET_MS - 1),
                     THROTTLE_MAX_MS);
    /* forgotten once both the wait and the window are over */
    ck_assert_int_eq(throttle_admit(&t, "erin", 10 * THROTTLE_FORGET_MS), 0);
    throttle_failed(&t, "erin", 10 * THROTTLE_FORGET_MS);
    ck_assert_int_eq(throttle_admit(&t, "erin", 10 * THROTTLE_FORGET_MS), 0);
    throttle_free(&t);
}
END_TEST

/* Failures count per (name, address): guesses from one address never slow
 * the owner down at another; the name alone is slowed only past a far
 * higher count, from anywhere. */
START_TEST(per_address_then_a_ceiling_per_name)
{
    throttle_t t, by_name;
    ck_assert_int_eq(throttle_init(&t, 0), 0);
    ck_assert_int_eq(throttle_init(&by_name, 0), 0);
    by_name.free_fails = THROTTLE_NAME_FREE;
    for (int i = 0; i < 10; i++) {
        throttle_failed_in(&t, "eve", "203.0.113.1", 0);
        throttle_failed(&by_name, "eve", 0);
    }
    ck_assert_int_gt(throttle_admit_in(&t, "EVE", "203.0.113.1", 1), 0);
    ck_assert_int_eq(throttle_admit_in(&t, "eve", "198.51.100.2", 1), 0);
    ck_assert_int_eq(throttle_admit(&by_name, "eve", 1), 0);
    /* Many addresses at once: one failure each, THROTTLE_NAME_FREE in all. */
    char addr[32];
    for (int i = 10; i < THROTTLE_NAME_FREE; i++) {
        snprintf(addr, sizeof addr, "10.0.%d.%d", i / 250, i % 250);
        throttle_failed_in(&t, "eve", addr, 2);
        throttle_failed(&by_name, "eve", 2);
    }
    ck_assert_int_eq(throttle_admit_in(&t, "eve", "10.9.9.9", 3), 0);
    ck_assert_int_gt(throttle_admit(&by_name, "eve", 3), 0);
    /* A success clears its own address only. */
    throttle_succeeded_in(&t, "eve", "203.0.113.1");
    ck_assert_int_eq(throttle_admit_in(&t, "eve", "203.0.113.1", 4), 0);
    ck_assert_int_gt(throttle_admit(&by_name, "eve", 4), 0);
    throttle_free(&t);
    throttle_free(&by_name);
}
END_TEST

/* A flood of single failures on other names does not push out a name
 * that is being guessed hard. */
START_TEST(flood_does_not_evict_the_target)
{
    throttle_t t;
    ck_assert_int_eq(throttle_init(&t, 8), 0);
    for (int i = 0; i < 6; i++)
        throttle_failed(&t, "target", 0);
    char name[16];
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "n%d", i);
        throttle_failed(&t, name, (uint64_t)i);
    }
    ck_assert_int_gt(throttle_admit(&t, "target", 1000), 0);
    /* the table never grows */
    ck_assert_uint_eq(t.cap, 8);
    throttle_free(&t);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("accounts");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, names_of_the_allowed_characters_pass);
    tcase_add_test(tc, other_names_fail_with_a_reason);
    tcase_add_test(tc, name_key_folds_case_and_cuts);
    tcase_add_test(tc, password_rules);
    tcase_add_test(tc, plain_and_unicode_text_is_safe);
    tcase_add_test(tc, controls_and_escapes_are_not);
    suite_add_tcase(s, tc);
    tc = tcase_create("throttle");
    tcase_add_test(tc, steps_double_to_a_cap);
    tcase_add_test(tc, free_failures_then_waits);
    tcase_add_test(tc, parallel_attempts_are_spaced_then_refused);
    tcase_add_test(tc, attempts_count_from_their_start);
    tcase_add_test(tc, success_clears_and_time_forgets);
    tcase_add_test(tc, flood_does_not_evict_the_target);
    tcase_add_test(tc, per_address_then_a_ceiling_per_name);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
