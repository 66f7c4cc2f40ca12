/* test_hash_fair.c - the password hashes' waiting line
 * (server/store/hash_fair.h): served in turn by address, so one address
 * with many logins waits behind each other address's one, never the other
 * way round; removing some keeps the order of the rest; and the count per
 * account name refuses past its bound and forgets a name at zero. Orders
 * and counts only: no clock. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "hash_fair.h"

typedef struct login {
    hf_item_t it;              /* first */
    int id;
} login_t;

static int pop_id(hash_fair_t *q)
{
    hf_item_t *it = hf_pop(q);
    ck_assert_ptr_nonnull(it);
    return ((login_t *)it)->id;
}

START_TEST(one_address_with_many_waits_behind_the_others)
{
    hash_fair_t q;
    memset(&q, 0, sizeof q);
    login_t l[8];
    /* address A sends five, then B one, then C one, then A another */
    const char *from[8] = { "A", "A", "A", "A", "A", "B", "C", "A" };
    for (int i = 0; i < 8; i++) {
        l[i] = (login_t){ { NULL, from[i] }, i };
        ck_assert_int_eq(hf_push(&q, &l[i].it), 0);
    }
    ck_assert_uint_eq(q.n, 8);
    ck_assert_ptr_eq(hf_peek(&q), &l[0].it);
    /* A's first, then B's and C's before A's second; A's in their order */
    static const int want[8] = { 0, 5, 6, 1, 2, 3, 4, 7 };
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(pop_id(&q), want[i]);
    ck_assert_ptr_null(hf_pop(&q));
    ck_assert_uint_eq(q.n, 0);
}
END_TEST

START_TEST(a_newcomer_waits_one_turn_of_each_address_at_most)
{
    hash_fair_t q;
    memset(&q, 0, sizeof q);
    enum { ADDRS = 20, EACH = 10 };
    static login_t l[ADDRS * EACH + 1];
    static char names[ADDRS][16];
    for (int a = 0; a < ADDRS; a++)
        snprintf(names[a], sizeof names[a], "x%d", a);
    int n = 0;
    for (int k = 0; k < EACH; k++)
        for (int a = 0; a < ADDRS; a++, n++) {
            l[n] = (login_t){ { NULL, names[a] }, n };
            ck_assert_int_eq(hf_push(&q, &l[n].it), 0);
        }
    /* two of the line served, then the owner comes */
    pop_id(&q);
    pop_id(&q);
    l[n] = (login_t){ { NULL, "owner" }, -1 };
    ck_assert_int_eq(hf_push(&q, &l[n].it), 0);
    int served = 0;
    while (pop_id(&q) != -1)
        served++;
    ck_assert_int_eq(served, ADDRS); /* one of each address, not 198 */
    while (hf_pop(&q))
        ;
}
END_TEST

static int odd(hf_item_t *it, void *ctx)
{
    (void)ctx;
    return ((login_t *)it)->id % 2;
}

START_TEST(removing_some_keeps_the_order_of_the_rest)
{
    hash_fair_t q;
    memset(&q, 0, sizeof q);
    login_t l[6];
    const char *from[6] = { "A", "A", "B", "B", "C", "A" };
    for (int i = 0; i < 6; i++) {
        l[i] = (login_t){ { NULL, from[i] }, i };
        ck_assert_int_eq(hf_push(&q, &l[i].it), 0);
    }
    hf_item_t *gone = hf_remove_if(&q, odd, NULL);
    int ngone = 0;
    for (hf_item_t *it = gone; it; it = it->next) {
        ck_assert_int_eq(((login_t *)it)->id % 2, 1);
        ngone++;
    }
    ck_assert_int_eq(ngone, 3);
    ck_assert_uint_eq(q.n, 3);
    /* A (0), B (2), C (4): each address kept its turn */
    ck_assert_int_eq(pop_id(&q), 0);
    ck_assert_int_eq(pop_id(&q), 2);
    ck_assert_int_eq(pop_id(&q), 4);
    ck_assert_ptr_null(hf_pop(&q));
    /* and the line goes on after it is empty */
    ck_assert_int_eq(hf_push(&q, &l[1].it), 0);
    ck_assert_int_eq(pop_id(&q), 1);
}
END_TEST

START_TEST(a_name_has_at_most_its_bound_counted)
{
    hf_names_t t;
    memset(&t, 0, sizeof t);
    int refused = 0;
    for (int i = 0; i < 10; i++)
        refused += hf_names_take(&t, "owner", 4) != 0;
    ck_assert_int_eq(refused, 6);
    ck_assert_int_eq(hf_names_count(&t, "owner"), 4);
    /* another name is counted apart */
    ck_assert_int_eq(hf_names_take(&t, "other", 4), 0);
    ck_assert_int_eq(hf_names_count(&t, "other"), 1);
    /* one answered: one more may go */
    hf_names_put(&t, "owner");
    ck_assert_int_eq(hf_names_take(&t, "owner", 4), 0);
    ck_assert_int_ne(hf_names_take(&t, "owner", 4), 0);
    for (int i = 0; i < 4; i++)
        hf_names_put(&t, "owner");
    ck_assert_int_eq(hf_names_count(&t, "owner"), 0);
    ck_assert_uint_eq(t.n, 1); /* forgotten at zero: only "other" */
    /* no bound */
    for (int i = 0; i < 100; i++)
        ck_assert_int_eq(hf_names_take(&t, "many", 0), 0);
    ck_assert_int_eq(hf_names_count(&t, "many"), 100);
    hf_names_free(&t);
    ck_assert_int_eq(hf_names_count(&t, "many"), 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("hash_fair");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, one_address_with_many_waits_behind_the_others);
    tcase_add_test(tc, a_newcomer_waits_one_turn_of_each_address_at_most);
    tcase_add_test(tc, removing_some_keeps_the_order_of_the_rest);
    tcase_add_test(tc, a_name_has_at_most_its_bound_counted);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
