/* test_login_tokens.c - browser pages' logins kept by token (server/
 * session/login_tokens.c): a token logs its account in once; it holds
 * while its session is open and for grace_ms after it closes (the test's
 * clock), not a millisecond more; forgotten alone or with all of its
 * account's, or its account's closed sessions' alone, or every one; the
 * closed ones still holding listed by the session each was given in (a
 * host of a cluster publishes them); at most max, the
 * closed one that ends first giving way, none made while every one's
 * session is open; no table without a grace;
 * nothing of a malformed token; two threads at once (as two worker loops:
 * the tsan family runs this under ThreadSanitizer). */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "login_tokens.h"

#define GRACE 1000

static login_tokens_t lt;

static void setup(void)
{
    ck_assert_int_eq(lt_init(&lt, 3, GRACE), 0);
}

static void teardown(void)
{
    lt_free(&lt);
}

/* A new token for account id (name "acct<id>") open in session id. */
static void issue(int64_t id, char t[GRACE_TOKEN_LEN + 1])
{
    char name[16];
    snprintf(name, sizeof name, "acct%lld", (long long)id);
    ck_assert_int_eq(lt_issue(&lt, id, name, 2, (uint64_t)id, 0, t), 0);
    ck_assert(grace_token_valid(t));
}

START_TEST(a_token_logs_in_once)
{
    char t[GRACE_TOKEN_LEN + 1];
    issue(7, t);
    login_token_t e;
    ck_assert_int_eq(lt_take(&lt, t, 5, &e), 1); /* its session still open */
    ck_assert_int_eq(e.account_id, 7);
    ck_assert_str_eq(e.name, "acct7");
    ck_assert_int_eq(e.display, 2);
    ck_assert_str_eq(e.token, t);
    ck_assert_int_eq(lt_take(&lt, t, 5, &e), 0);
    ck_assert_int_eq(lt_count(&lt), 0);
}
END_TEST

START_TEST(a_closed_session_s_token_holds_grace_ms)
{
    char t[GRACE_TOKEN_LEN + 1], u[GRACE_TOKEN_LEN + 1];
    issue(1, t);
    issue(2, u);
    login_token_t e;
    lt_closed(&lt, t, 99, 4, 0, 100); /* not its session: nothing */
    lt_closed(&lt, t, 1, 4, 1, 100);
    lt_closed(&lt, u, 2, 4, 0, 100);
    /* asked without taking (lt_holds): it stays */
    ck_assert_int_eq(lt_holds(&lt, t, 100 + GRACE - 1), 1);
    ck_assert_int_eq(lt_holds(&lt, t, 100 + GRACE), 0);
    ck_assert_int_eq(lt_holds(&lt, "not a token", 0), 0);
    ck_assert_int_eq(lt_count(&lt), 2);
    ck_assert_int_eq(lt_take(&lt, t, 100 + GRACE - 1, &e), 1);
    ck_assert_int_eq(lt_holds(&lt, t, 100), 0); /* taken */
    ck_assert_int_eq(e.display, 4); /* the choice at the close */
    ck_assert_int_eq(e.playing, 1); /* it closed in a game */
    ck_assert_int_eq(lt_take(&lt, u, 100 + GRACE, &e), 0); /* ended */
    ck_assert_int_eq(lt_count(&lt), 0); /* (and gone) */
    /* open, it holds whatever the clock says */
    issue(3, t);
    ck_assert_int_eq(lt_take(&lt, t, UINT64_MAX - 1, &e), 1);
    ck_assert_int_eq(e.playing, 0);
}
END_TEST

START_TEST(forgotten_alone_or_with_the_account)
{
    char a1[GRACE_TOKEN_LEN + 1], a2[GRACE_TOKEN_LEN + 1],
         b[GRACE_TOKEN_LEN + 1];
    issue(1, a1);
    ck_assert_int_eq(lt_issue(&lt, 1, "acct1", 0, 11, 0, a2), 0);
    issue(2, b);
    login_token_t e;
    lt_forget(&lt, b);
    ck_assert_int_eq(lt_take(&lt, b, 0, &e), 0);
    lt_forget_account(&lt, 1);
    ck_assert_int_eq(lt_count(&lt), 0);
    ck_assert_int_eq(lt_take(&lt, a1, 0, &e), 0);
    ck_assert_int_eq(lt_take(&lt, a2, 0, &e), 0);
}
END_TEST

/* A login that takes the account's game forgets its closed sessions'
 * tokens (a page that dropped before it), not the open ones, nor another
 * account's. */
START_TEST(a_login_forgets_the_account_s_closed_ones)
{
    char open1[GRACE_TOKEN_LEN + 1], closed1[GRACE_TOKEN_LEN + 1],
         closed2[GRACE_TOKEN_LEN + 1];
    issue(1, open1);
    ck_assert_int_eq(lt_issue(&lt, 1, "acct1", 0, 11, 0, closed1), 0);
    issue(2, closed2);
    lt_closed(&lt, closed1, 11, 0, 0, 0);
    lt_closed(&lt, closed2, 2, 0, 0, 0);
    ck_assert_int_eq(lt_forget_closed(&lt, 1), 1);
    ck_assert_int_eq(lt_count(&lt), 2);
    login_token_t e;
    ck_assert_int_eq(lt_take(&lt, closed1, 1, &e), 0);
    ck_assert_int_eq(lt_take(&lt, open1, 1, &e), 1);
    ck_assert_int_eq(e.account_id, 1);
    ck_assert_int_eq(lt_take(&lt, closed2, 1, &e), 1);
    ck_assert_int_eq(e.account_id, 2);
}
END_TEST

/* The closed sessions' tokens that still hold, as a host of a cluster
 * publishes them: by the session each was given in, with its account;
 * not the open ones, nor one past its grace; at most cap. Then every
 * token goes at once (a host the others may have counted gone). */
START_TEST(the_closed_ones_held_and_every_one_forgotten)
{
    char open1[GRACE_TOKEN_LEN + 1], closed1[GRACE_TOKEN_LEN + 1],
         closed2[GRACE_TOKEN_LEN + 1];
    issue(1, open1);
    ck_assert_int_eq(lt_issue(&lt, 1, "acct1", 0, 11, 0, closed1), 0);
    issue(2, closed2);
    lt_closed(&lt, closed1, 11, 0, 0, 0);
    lt_closed(&lt, closed2, 2, 0, 0, 500);
    uint64_t was[4];
    int64_t acct[4];
    ck_assert_int_eq(lt_held(&lt, GRACE - 1, was, acct, 4), 2);
    int i1 = was[0] == 11 ? 0 : 1;
    ck_assert_int_eq((int)was[i1], 11);
    ck_assert_int_eq(acct[i1], 1);
    ck_assert_int_eq((int)was[1 - i1], 2);
    ck_assert_int_eq(acct[1 - i1], 2);
    ck_assert_int_eq(lt_held(&lt, GRACE - 1, was, acct, 1), 1);
    /* closed1's grace has ended (at 0 + GRACE), closed2's not */
    ck_assert_int_eq(lt_held(&lt, GRACE, was, acct, 4), 1);
    ck_assert_int_eq((int)was[0], 2);
    ck_assert_int_eq(acct[0], 2);
    ck_assert_int_eq(lt_forget_all(&lt), 3);
    ck_assert_int_eq(lt_count(&lt), 0);
    login_token_t e;
    ck_assert_int_eq(lt_take(&lt, open1, 1, &e), 0);
    ck_assert_int_eq(lt_held(&lt, 1, was, acct, 4), 0);
}
END_TEST

START_TEST(full_the_closed_one_ending_first_gives_way)
{
    char t[4][GRACE_TOKEN_LEN + 1];
    for (int i = 0; i < 3; i++)
        issue(i + 1, t[i]);
    /* every session open: no more */
    ck_assert_int_eq(lt_issue(&lt, 4, "acct4", 0, 4, 0, t[3]), -1);
    ck_assert_str_eq(t[3], "");
    lt_closed(&lt, t[1], 2, 0, 0, 50);
    lt_closed(&lt, t[0], 1, 0, 0, 10); /* ends first */
    issue(4, t[3]);
    login_token_t e;
    ck_assert_int_eq(lt_take(&lt, t[0], 20, &e), 0);
    ck_assert_int_eq(lt_take(&lt, t[1], 20, &e), 1);
    ck_assert_int_eq(lt_take(&lt, t[2], 20, &e), 1);
    ck_assert_int_eq(lt_take(&lt, t[3], 20, &e), 1);
}
END_TEST

START_TEST(adopted_as_it_was_given)
{
    const char *t = "0123456789abcdef0123456789abcdef";
    ck_assert_int_eq(lt_adopt(&lt, t, 5, "five", 1, 9, 0), 0);
    ck_assert_int_eq(lt_adopt(&lt, "0123", 5, "five", 1, 9, 0), -1);
    ck_assert_int_eq(lt_adopt(&lt, "0123456789ABCDEF0123456789ABCDEF", 5,
                              "five", 1, 9, 0), -1); /* not as drawn */
    ck_assert_int_eq(lt_adopt(&lt, t, 0, "none", 1, 9, 0), -1);
    login_token_t e;
    ck_assert_int_eq(lt_take(&lt, "0123456789abcdef0123456789abcdee", 0, &e),
                     0);
    ck_assert_int_eq(lt_take(&lt, "", 0, &e), 0);
    ck_assert_int_eq(lt_take(&lt, t, 0, &e), 1);
    ck_assert_int_eq(e.account_id, 5);
}
END_TEST

START_TEST(no_grace_no_tokens)
{
    login_tokens_t off;
    ck_assert_int_eq(lt_init(&off, 10, 0), 0);
    char t[GRACE_TOKEN_LEN + 1];
    ck_assert_int_eq(lt_issue(&off, 1, "a", 0, 1, 0, t), -1);
    ck_assert_str_eq(t, "");
    lt_free(&off);
}
END_TEST

/* One worker loop's logins: made, closed, taken back, one at a time. */
static void *loop_logins(void *arg)
{
    login_tokens_t *shared = arg;
    for (int i = 0; i < 300; i++) {
        char t[GRACE_TOKEN_LEN + 1];
        login_token_t e;
        if (lt_issue(shared, i + 1, "x", 0, (uint64_t)i + 1, 0, t) != 0)
            return (void *)1;
        lt_closed(shared, t, (uint64_t)i + 1, 0, 0, 0);
        if (!lt_take(shared, t, 1, &e) || e.account_id != i + 1)
            return (void *)1;
    }
    return NULL;
}

START_TEST(two_loops_at_once)
{
    login_tokens_t shared;
    ck_assert_int_eq(lt_init(&shared, 4, GRACE), 0);
    pthread_t a, b;
    void *ra, *rb;
    ck_assert_int_eq(pthread_create(&a, NULL, loop_logins, &shared), 0);
    ck_assert_int_eq(pthread_create(&b, NULL, loop_logins, &shared), 0);
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    ck_assert_ptr_null(ra);
    ck_assert_ptr_null(rb);
    ck_assert_int_eq(lt_count(&shared), 0);
    lt_free(&shared);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("login tokens");
    TCase *tc = tcase_create("tokens");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_token_logs_in_once);
    tcase_add_test(tc, a_closed_session_s_token_holds_grace_ms);
    tcase_add_test(tc, forgotten_alone_or_with_the_account);
    tcase_add_test(tc, a_login_forgets_the_account_s_closed_ones);
    tcase_add_test(tc, the_closed_ones_held_and_every_one_forgotten);
    tcase_add_test(tc, full_the_closed_one_ending_first_gives_way);
    tcase_add_test(tc, adopted_as_it_was_given);
    tcase_add_test(tc, no_grace_no_tokens);
    tcase_add_test(tc, two_loops_at_once);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
