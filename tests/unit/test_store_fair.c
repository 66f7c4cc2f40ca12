/* test_store_fair.c - the store's password checks shared fairly
 * (server/store/hash_fair.h, docs/hosting.md "The network"): logins
 * waiting for the one hash slot are answered in turn by address, so one
 * address's flood does not go before another's single login; and one
 * account name holds at most hashes_per_name checks, the rest answered
 * "slow down" at once, while a login from an address the name has logged
 * in from (or was registered from) is never held to it.
 *
 * Orders and counts only. To make the line form the same way every run,
 * the test lets the database thread answer every lookup before it runs
 * its loop (it waits, with a deadline, until its port's done queue holds
 * them all: white-box, store_impl.h); the loop then takes them in one go,
 * and no check can end in between. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "store_fixture.h"
#include "store_impl.h"

#define MAXN 16

typedef struct answers {
    int n;
    int order[MAXN];           /* the ids, in the order answered */
    int status[MAXN];          /* by id */
} answers_t;

typedef struct one {
    answers_t *all;
    int id;
} one_t;

static void on_login(void *ctx, const store_account_t *a)
{
    one_t *o = ctx;
    o->all->status[o->id] = a->status;
    o->all->order[o->all->n++] = o->id;
}

/* Answers waiting in the first port's done queue. */
static int done_waiting(store_t *st)
{
    uv_mutex_lock(&st->mu);
    int n = 0;
    for (req_t *r = st->ports[0].done_head; r; r = r->next)
        n++;
    uv_mutex_unlock(&st->mu);
    return n;
}

/* Waits (30 s at most) until the database thread has answered n lookups,
 * then runs the loop until every answer is in. */
static void settle(store_t *st, int n)
{
    for (int ms = 0; done_waiting(st) < n && ms < 30000; ms++)
        uv_sleep(1);
    ck_assert_int_eq(done_waiting(st), n);
    uv_run(&loop, UV_RUN_DEFAULT);
}

static void setup(void)
{
    store_fixture_setup("/tmp/rogued-fair-XXXXXX");
}

START_TEST(logins_are_answered_in_turn_by_address)
{
    store_opts_t o = fast;
    o.hash_parallel = 1;
    o.hashes_per_name = 0;
    store_t *st = store_fixture_open(&o);
    answers_t all;
    memset(&all, 0, sizeof all);
    one_t one[MAXN];
    /* 10.0.0.1 sends four, then 10.0.0.2 one, then 10.0.0.3 one */
    static const char *const from[6] = { "10.0.0.1", "10.0.0.1", "10.0.0.1",
                                         "10.0.0.1", "10.0.0.2", "10.0.0.3" };
    static const char *const name[6] = { "ann", "bob", "cid", "dan", "eve",
                                         "fay" };
    for (int i = 0; i < 6; i++) {
        one[i] = (one_t){ &all, i };
        ck_assert_int_eq(store_login_from(st, name[i], from[i], "wrongpass1",
                                          on_login, &one[i]), 0);
    }
    settle(st, 6);
    ck_assert_int_eq(all.n, 6);
    /* ann takes the slot at once; bob came while 10.0.0.1 was alone in
     * line, so it is next; then eve's and fay's addresses each have a
     * turn before 10.0.0.1's other two (without turns: 0 1 2 3 4 5) */
    static const int want[6] = { 0, 1, 4, 5, 2, 3 };
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(all.order[i], want[i]);
        ck_assert_int_eq(all.status[i], STORE_BAD_LOGIN);
    }
    store_close(st);
    uv_run(&loop, UV_RUN_DEFAULT);
    store_fixture_teardown();
}
END_TEST

/* Eight strangers guess the owner's name, each from an address of its
 * own, then the owner comes from 192.0.2.10 (known to the store by then):
 * the first two strangers are checked, the other six refused at once
 * (answered first), the owner checked and in. */
static void strangers_then_owner(store_t *st)
{
    answers_t all;
    memset(&all, 0, sizeof all);
    one_t one[MAXN];
    enum { STRANGERS = 8 };
    for (int i = 0; i < STRANGERS; i++) {
        char addr[32];
        snprintf(addr, sizeof addr, "198.51.100.%d", i + 1);
        one[i] = (one_t){ &all, i };
        ck_assert_int_eq(store_login_from(st, "owner", addr, "wrongpass1",
                                          on_login, &one[i]), 0);
    }
    one[STRANGERS] = (one_t){ &all, STRANGERS };
    ck_assert_int_eq(store_login_from(st, "owner", "192.0.2.10", "password",
                                      on_login, &one[STRANGERS]), 0);
    settle(st, STRANGERS + 1);
    ck_assert_int_eq(all.n, STRANGERS + 1);
    for (int i = 0; i < STRANGERS; i++)
        ck_assert_int_eq(all.status[i], i < 2 ? STORE_BAD_LOGIN
                                              : STORE_SLOW_DOWN);
    ck_assert_int_eq(all.status[STRANGERS], STORE_OK);
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(all.order[i], i + 2);
    /* each answered check gave its count back */
    ck_assert_int_eq(hf_names_count(&st->hash_names, "owner"), 0);
}

static store_t *bounded_store(void)
{
    store_opts_t o = fast;
    o.hash_parallel = 1;
    o.hashes_per_name = 2;
    return store_fixture_open(&o);
}

START_TEST(one_name_holds_at_most_its_checks_but_the_owner_is_not_held)
{
    store_t *st = bounded_store();
    store_fixture_account(st, "owner");
    /* the owner logs in from 192.0.2.10: that address is known now */
    answers_t all;
    memset(&all, 0, sizeof all);
    one_t one = { &all, 0 };
    ck_assert_int_eq(store_login_from(st, "owner", "192.0.2.10", "password",
                                      on_login, &one), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(all.status[0], STORE_OK);
    strangers_then_owner(st);
    store_close(st);
    uv_run(&loop, UV_RUN_DEFAULT);
    store_fixture_teardown();
}
END_TEST

/* The address an account was registered from is known as well. */
START_TEST(the_address_registered_from_is_the_owners_too)
{
    store_t *st = bounded_store();
    answers_t all;
    memset(&all, 0, sizeof all);
    one_t one = { &all, 0 };
    ck_assert_int_eq(store_register_from(st, "owner", "192.0.2.10",
                                         "password", on_login, &one), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(all.status[0], STORE_OK);
    strangers_then_owner(st);
    store_close(st);
    uv_run(&loop, UV_RUN_DEFAULT);
    store_fixture_teardown();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("store_fair");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, logins_are_answered_in_turn_by_address);
    tcase_add_test(tc, one_name_holds_at_most_its_checks_but_the_owner_is_not_held);
    tcase_add_test(tc, the_address_registered_from_is_the_owners_too);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
