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
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Answers waiting in port i's done queue. */
static int done_waiting_at(store_t *st, int i)
{
    uv_mutex_lock(&st->mu);
    int n = 0;
    for (req_t *r = st->ports[i].done_head; r; r = r->next)
        n++;
    uv_mutex_unlock(&st->mu);
    return n;
}

/* Waits (30 s at most) until the database thread has answered n lookups
 * of port i. */
static void lookups_answered(store_t *st, int i, int n)
{
    for (int ms = 0; done_waiting_at(st, i) < n && ms < 30000; ms++)
        uv_sleep(1);
    ck_assert_int_eq(done_waiting_at(st, i), n);
}

/* Waits for n lookups of the first port, then runs the loop until every
 * answer is in. */
static void settle(store_t *st, int n)
{
    lookups_answered(st, 0, n);
    uv_run(&loop, UV_RUN_DEFAULT);
}

/* --- the pool held ---------------------------------------------------------------
 * A hash given a slot stays in libuv's pool, not run, for as long as the
 * test likes: first every pool thread is given a job that waits for the
 * test's word (the pool runs its jobs in order), so the test, not the
 * time a hash takes, says when the slots come free. */

static uv_sem_t held;
static uv_work_t holders[1024];
static int nholders;

static void hold_work(uv_work_t *w)
{
    (void)w;
    uv_sem_wait(&held);
}

static void hold_after(uv_work_t *w, int status)
{
    (void)w;
    (void)status;
}

/* libuv's pool size: UV_THREADPOOL_SIZE, else 4 (its rule). */
static int pool_size(void)
{
    const char *e = getenv("UV_THREADPOOL_SIZE");
    int n = e && *e ? atoi(e) : 4;
    return n < 1 ? 1 : n > 1024 ? 1024 : n;
}

static void pool_hold(void)
{
    ck_assert_int_eq(uv_sem_init(&held, 0), 0);
    nholders = pool_size();
    for (int i = 0; i < nholders; i++)
        ck_assert_int_eq(uv_queue_work(&loop, &holders[i], hold_work,
                                       hold_after), 0);
}

static void pool_release(void)
{
    for (int i = 0; i < nholders; i++)
        uv_sem_post(&held);
}

static void setup(void)
{
    store_fixture_setup("/tmp/rogued-fair-XXXXXX");
}

/* The fast store without the bound per name, and (one_slot) with one
 * hash at a time: the line's order is then the order of the answers. */
static store_t *one_slot_store(int one_slot)
{
    store_opts_t o = fast;
    if (one_slot)
        o.hash_parallel = 1;
    o.hashes_per_name = 0;
    return store_fixture_open(&o);
}

/* Closes st, runs its loop out and removes the fixture's files. */
static void close_store(store_t *st)
{
    store_close(st);
    uv_run(&loop, UV_RUN_DEFAULT);
    store_fixture_teardown();
}

START_TEST(logins_are_answered_in_turn_by_address)
{
    store_t *st = one_slot_store(1);
    answers_t all = { 0 };
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
    close_store(st);
}
END_TEST

/* Eight strangers guess the owner's name, each from an address of its
 * own, then the owner comes from 192.0.2.10 (known to the store by then):
 * the first two strangers are checked, the other six refused at once
 * (answered first), the owner checked and in. */
static void strangers_then_owner(store_t *st)
{
    answers_t all = { 0 };
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
    answers_t all = { 0 };
    one_t one = { &all, 0 };
    ck_assert_int_eq(store_login_from(st, "owner", "192.0.2.10", "password",
                                      on_login, &one), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(all.status[0], STORE_OK);
    strangers_then_owner(st);
    close_store(st);
}
END_TEST

/* The address an account was registered from is known as well. */
START_TEST(the_address_registered_from_is_the_owners_too)
{
    store_t *st = bounded_store();
    answers_t all = { 0 };
    one_t one = { &all, 0 };
    ck_assert_int_eq(store_register_from(st, "owner", "192.0.2.10",
                                         "password", on_login, &one), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(all.status[0], STORE_OK);
    strangers_then_owner(st);
    close_store(st);
}
END_TEST

/* Where a login waits, as the store says it (store_wait_of): its lookup
 * at the database, then, the one slot held by another's hash in the
 * pool, in the line for it; a session giving up then tells its player
 * the server is busy checking passwords, not that the store is away. */
START_TEST(the_store_says_where_a_login_waits)
{
    store_t *st = one_slot_store(1);
    answers_t all = { 0 };
    one_t one[2] = { { &all, 0 }, { &all, 1 } };
    pool_hold();
    ck_assert_int_eq(store_wait_of(st, &one[0]), STORE_WAIT_NONE);
    ck_assert_int_eq(store_login_from(st, "ann", "10.0.0.1", "wrongpass1",
                                      on_login, &one[0]), 0);
    ck_assert_int_eq(store_wait_of(st, &one[0]), STORE_WAIT_DB);
    ck_assert_int_eq(store_login_from(st, "bob", "10.0.0.2", "wrongpass1",
                                      on_login, &one[1]), 0);
    lookups_answered(st, 0, 2);
    uv_run(&loop, UV_RUN_NOWAIT); /* the lookups' answers: to the line */
    ck_assert_int_eq(store_wait_of(st, &one[0]), STORE_WAIT_HASHING);
    ck_assert_int_eq(store_wait_of(st, &one[1]), STORE_WAIT_HASH_LINE);
    ck_assert_int_eq(all.n, 0);
    /* bob given up (as a session does past store_wait_ms): out of the
     * line, never answered; ann's check goes on */
    store_cancel(st, &one[1]);
    ck_assert_int_eq(store_wait_of(st, &one[1]), STORE_WAIT_NONE);
    pool_release();
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(all.n, 1);
    ck_assert_int_eq(all.order[0], 0);
    ck_assert_int_eq(all.status[0], STORE_BAD_LOGIN);
    ck_assert_int_eq(store_wait_of(st, &one[0]), STORE_WAIT_NONE);
    close_store(st);
    uv_sem_destroy(&held);
}
END_TEST

/* Runs both loops (this thread runs each in turn) until n answers are in,
 * 30 s at most. */
static void run_both_until(uv_loop_t *other, const answers_t *all, int n)
{
    for (int ms = 0; all->n < n && ms < 30000; ms++) {
        uv_run(&loop, UV_RUN_NOWAIT);
        uv_run(other, UV_RUN_NOWAIT);
        if (all->n < n)
            uv_sleep(1);
    }
    ck_assert_int_eq(all->n, n);
}

/* One line for every loop: a flood of four logins from one address on the
 * first loop, then one login from another address on a second loop; the
 * second loop's login takes the turn of its address, after at most one of
 * the flood's, where with a line per loop a slot freed on the first loop
 * went back to the first loop's line and the honest login came last. */
START_TEST(a_login_on_another_loop_takes_its_address_turn)
{
    store_t *st = one_slot_store(1);
    answers_t all = { 0 };
    one_t one[5];
    static const char *const name[5] = { "ann", "bob", "cid", "dan", "hal" };
    pool_hold();
    for (int i = 0; i < 4; i++) {
        one[i] = (one_t){ &all, i };
        ck_assert_int_eq(store_login_from(st, name[i], "10.0.0.1",
                                          "wrongpass1", on_login, &one[i]),
                         0);
    }
    /* this thread's calls go to the second loop's port from here */
    uv_loop_t loop2;
    ck_assert_int_eq(uv_loop_init(&loop2), 0);
    ck_assert_int_eq(store_attach(st, &loop2), 0);
    one[4] = (one_t){ &all, 4 };
    ck_assert_int_eq(store_login_from(st, name[4], "10.0.0.9", "wrongpass1",
                                      on_login, &one[4]), 0);
    lookups_answered(st, 0, 4);
    lookups_answered(st, 1, 1);
    uv_run(&loop, UV_RUN_NOWAIT);  /* ann has the slot, three wait */
    uv_run(&loop2, UV_RUN_NOWAIT); /* hal waits, behind another address */
    ck_assert_int_eq(store_wait_of(st, &one[4]), STORE_WAIT_HASH_LINE);
    pool_release();
    run_both_until(&loop2, &all, 5);
    /* ann at once; bob came while 10.0.0.1 was alone in line, so it is
     * next; then hal's address has its turn before cid and dan (with a
     * line per loop: 0 1 2 3 4) */
    static const int want[5] = { 0, 1, 4, 2, 3 };
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(all.order[i], want[i]);
        ck_assert_int_eq(all.status[i], STORE_BAD_LOGIN);
    }
    store_detach(st);
    ck_assert_int_eq(uv_loop_close(&loop2), 0);
    close_store(st);
    uv_sem_destroy(&held);
}
END_TEST

/* --- two threads, a loop each ----------------------------------------------------
 * The line shared across threads: each thread's loop makes its logins,
 * the pool held until all of them wait in the one line (the first loop's
 * one check given the slot), and then every slot freed on one loop may
 * go to the other's login (hash_grant). With one slot, each check starts
 * only when the one before it has been answered, in that answer's
 * after-callback (the line full until its end): so an answer on one loop
 * followed by one on the other is a slot passed from the first loop to
 * the second, counted in the order the answers came. Every login is
 * answered, each on the loop that asked, and the second loop detaches
 * cleanly (ThreadSanitizer watches it: TSAN_UNIT). The second thread
 * asserts nothing (a failed check there would not end the test): it
 * keeps what it saw for this one. */

enum { EACH_LOOP = 12 };

typedef struct loop_side {
    store_t *st;
    const char *prefix;        /* its addresses: prefix and a number */
    const char *name;          /* its logins' names: name and a number */
    answers_t all;
    one_t one[EACH_LOOP];
    uv_thread_t thread;
    uv_thread_t ran_on[EACH_LOOP]; /* the thread each answer came on */
    int refused;               /* logins store_login_from refused */
    int attach_rc, close_rc;   /* the second loop's attach and close */
    uv_sem_t asked, go;        /* the second loop's logins made; its run */
} loop_side_t;

static loop_side_t sides[2];
static uv_mutex_t answered_mu;
static int answered_by[2 * EACH_LOOP]; /* the side of each answer, in turn */
static int nanswered;

static loop_side_t *side_of(const one_t *o)
{
    return o->all == &sides[0].all ? &sides[0] : &sides[1];
}

static void on_side_login(void *ctx, const store_account_t *a)
{
    one_t *o = ctx;
    loop_side_t *sd = side_of(o);
    sd->ran_on[o->id] = uv_thread_self();
    uv_mutex_lock(&answered_mu);
    if (nanswered < 2 * EACH_LOOP)
        answered_by[nanswered++] = (int)(sd - sides);
    uv_mutex_unlock(&answered_mu);
    on_login(ctx, a);
}

static void side_logins(loop_side_t *sd)
{
    for (int i = 0; i < EACH_LOOP; i++) {
        char addr[32], name[32];
        snprintf(addr, sizeof addr, "%s%d", sd->prefix, i % 3);
        snprintf(name, sizeof name, "%s%d", sd->name, i); /* no slow-down */
        sd->one[i] = (one_t){ &sd->all, i };
        sd->refused += store_login_from(sd->st, name, addr, "wrongpass1",
                                        on_side_login, &sd->one[i]) != 0;
    }
}

static void second_loop(void *arg)
{
    loop_side_t *sd = arg;
    uv_loop_t loop2;
    sd->attach_rc = uv_loop_init(&loop2);
    if (sd->attach_rc == 0)
        sd->attach_rc = store_attach(sd->st, &loop2);
    if (sd->attach_rc == 0)
        side_logins(sd);
    uv_sem_post(&sd->asked);
    uv_sem_wait(&sd->go);
    if (sd->attach_rc != 0)
        return;
    uv_run(&loop2, UV_RUN_DEFAULT); /* alive while an answer is owed */
    store_detach(sd->st);
    sd->close_rc = uv_loop_close(&loop2);
}

/* Waits (30 s at most) until n checks wait in the line. */
static void line_holds(store_t *st, size_t n)
{
    size_t in = 0;
    for (int ms = 0; ms < 30000; ms++) {
        uv_mutex_lock(&st->lmu);
        in = st->hashq.n;
        uv_mutex_unlock(&st->lmu);
        if (in >= n)
            break;
        uv_sleep(1);
    }
    ck_assert_uint_eq(in, n);
}

/* The slots passed from loop `from` to the other: answers of side from
 * followed by one of the other side. */
static int passed_from(int from)
{
    int n = 0;
    for (int i = 1; i < nanswered; i++)
        n += answered_by[i - 1] == from && answered_by[i] != from;
    return n;
}

/* Both sides' logins in the line, the pool held, then let go. */
static void both_loops_line_up(store_t *st)
{
    ck_assert_int_eq(uv_thread_create(&sides[1].thread, second_loop,
                                      &sides[1]), 0);
    pool_hold();
    side_logins(&sides[0]);
    uv_sem_wait(&sides[1].asked);
    ck_assert_int_eq(sides[1].attach_rc, 0);
    lookups_answered(st, 0, EACH_LOOP);
    lookups_answered(st, 1, EACH_LOOP);
    uv_run(&loop, UV_RUN_NOWAIT); /* one has the slot, 11 wait */
    uv_sem_post(&sides[1].go);
    line_holds(st, 2 * EACH_LOOP - 1);
    pool_release();
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_thread_join(&sides[1].thread);
}

START_TEST(two_loops_share_the_line_across_threads)
{
    store_t *st = one_slot_store(1);
    memset(sides, 0, sizeof sides);
    sides[0] = (loop_side_t){ .st = st, .prefix = "10.0.0.", .name = "a" };
    sides[1] = (loop_side_t){ .st = st, .prefix = "10.0.1.", .name = "b" };
    ck_assert_int_eq(uv_sem_init(&sides[1].asked, 0), 0);
    ck_assert_int_eq(uv_sem_init(&sides[1].go, 0), 0);
    ck_assert_int_eq(uv_mutex_init(&answered_mu), 0);
    nanswered = 0;
    both_loops_line_up(st);
    ck_assert_int_eq(sides[1].close_rc, 0);
    uv_thread_t me = uv_thread_self();
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(sides[k].refused, 0);
        ck_assert_int_eq(sides[k].all.n, EACH_LOOP);
        for (int i = 0; i < EACH_LOOP; i++) {
            ck_assert_int_eq(sides[k].all.status[i], STORE_BAD_LOGIN);
            ck_assert_int_eq(uv_thread_equal(&sides[k].ran_on[i], &me),
                             k == 0);
        }
    }
    /* in turn by address (each loop's three, one after the other): slots
     * passed from each loop to the other */
    ck_assert_int_eq(nanswered, 2 * EACH_LOOP);
    ck_assert_int_ge(passed_from(0), 1);
    ck_assert_int_ge(passed_from(1), 1);
    store_close(st);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_sem_destroy(&sides[1].asked);
    uv_sem_destroy(&sides[1].go);
    uv_mutex_destroy(&answered_mu);
    uv_sem_destroy(&held);
    store_fixture_teardown();
}
END_TEST

/* An IPv6 address takes its /64's turn (addr_key): three logins from
 * three addresses of one /64 wait as one address's, behind an IPv4
 * address's one (each its own turn: 0 1 2 3). */
START_TEST(addresses_of_one_slash_64_share_a_turn)
{
    store_t *st = one_slot_store(1);
    answers_t all = { 0 };
    one_t one[4];
    static const char *const from[4] = { "2001:db8:1:2::1", "2001:db8:1:2::2",
                                         "2001:db8:1:2:ffff::3", "10.0.0.3" };
    static const char *const name[4] = { "ann", "bob", "cid", "dan" };
    for (int i = 0; i < 4; i++) {
        one[i] = (one_t){ &all, i };
        ck_assert_int_eq(store_login_from(st, name[i], from[i], "wrongpass1",
                                          on_login, &one[i]), 0);
    }
    settle(st, 4);
    static const int want[4] = { 0, 1, 3, 2 };
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(all.order[i], want[i]);
    close_store(st);
}
END_TEST

/* Logs in as `name` from addr, the loop run until it is answered. */
static int login_now(store_t *st, const char *name, const char *addr,
                     const char *pass)
{
    answers_t all = { 0 };
    one_t one = { &all, 0 };
    ck_assert_int_eq(store_login_from(st, name, addr, pass, on_login, &one),
                     0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(all.n, 1);
    return all.status[0];
}

/* The failed logins per (name, address) count an IPv6 address as its
 * /64: after the free failures from one address of it, a login from
 * another of the same /64 is slowed down; one from another /64 is not.
 * The addresses a name has logged in from stay whole addresses. */
START_TEST(failed_logins_count_a_slash_64_as_one_address)
{
    store_t *st = one_slot_store(0);
    store_fixture_account(st, "owner");
    for (int i = 0; i < THROTTLE_FREE; i++)
        ck_assert_int_eq(login_now(st, "owner", "2001:db8:1:2::1",
                                   "wrongpass1"), STORE_BAD_LOGIN);
    answers_t all = { 0 };
    one_t one = { &all, 0 };
    ck_assert_int_eq(store_login_from(st, "owner", "2001:db8:1:2::2",
                                      "password", on_login, &one), 0);
    ck_assert_int_eq(store_wait_of(st, &one), STORE_WAIT_SLOWED);
    store_stats_t stats;
    store_stats(st, &stats);
    ck_assert_uint_eq(stats.login_waits, 1);
    store_cancel(st, &one);
    ck_assert_int_eq(login_now(st, "owner", "2001:db8:1:3::1", "password"),
                     STORE_OK);
    store_stats(st, &stats);
    ck_assert_uint_eq(stats.login_waits, 1); /* not slowed */
    uint64_t now = uv_now(&loop);
    uv_mutex_lock(&st->lmu);
    ck_assert_int_eq(kl_has(&st->known, "owner", "2001:db8:1:3::1", now), 1);
    ck_assert_int_eq(kl_has(&st->known, "owner", "2001:db8:1:3::2", now), 0);
    uv_mutex_unlock(&st->lmu);
    ck_assert_int_eq(all.n, 0); /* the one given up: never answered */
    close_store(st);
}
END_TEST

/* --- logins given up before their check ----------------------------------------
 * The slow-down counts a login as a failure from its start (throttle.h:
 * pending) until its verdict. One given up before its password was
 * checked (its session freed, or its wait past store_wait_ms) has no
 * verdict: it must stop counting, or an honest player who tries again
 * after "busy" is slowed down and told "Too many failed logins". Read
 * from the store's tables (white-box). */

typedef struct counted {
    uint32_t pending, fails;
} counted_t;

/* What table t counts for name (from scope; "": the name from anywhere). */
static counted_t counted_in(store_t *st, const throttle_t *t, const char *name,
                            const char *scope)
{
    char key[THROTTLE_KEY_MAX + 1];
    acct_name_key(name, key, ACCT_NAME_MAX + 1);
    if (scope[0])
        snprintf(key + strlen(key), sizeof key - strlen(key), "@%s", scope);
    counted_t c = { 0, 0 };
    uv_mutex_lock(&st->lmu);
    for (size_t i = 0; i < t->cap; i++)
        if (strcmp(t->e[i].key, key) == 0)
            c = (counted_t){ t->e[i].pending, t->e[i].fails };
    uv_mutex_unlock(&st->lmu);
    return c;
}

/* Neither table counts owner's logins from 10.0.0.1 as pending, and
 * `fails` failures. */
static void owner_counted(store_t *st, uint32_t fails)
{
    counted_t in = counted_in(st, &st->thr, "owner", "10.0.0.1");
    counted_t name = counted_in(st, &st->thr_name, "owner", "");
    ck_assert_uint_eq(in.pending, 0);
    ck_assert_uint_eq(in.fails, fails);
    ck_assert_uint_eq(name.pending, 0);
    ck_assert_uint_eq(name.fails, fails);
}

/* Logs in as owner from 10.0.0.1 with the right password, as o. */
static void owner_login(store_t *st, one_t *o)
{
    ck_assert_int_eq(store_login_from(st, "owner", "10.0.0.1", "password",
                                      on_login, o), 0);
}

/* Owner's login given up in the line for the slot (ann's check holds it),
 * then another given up while its lookup was at the database. */
static void given_up_on_the_first_loop(store_t *st, one_t *one)
{
    owner_login(st, &one[1]);
    lookups_answered(st, 0, 1);
    uv_run(&loop, UV_RUN_NOWAIT);
    ck_assert_int_eq(store_wait_of(st, &one[1]), STORE_WAIT_HASH_LINE);
    store_cancel(st, &one[1]);
    owner_login(st, &one[2]);
    ck_assert_int_eq(store_wait_of(st, &one[2]), STORE_WAIT_DB);
    store_cancel(st, &one[2]);
    lookups_answered(st, 0, 1);
    uv_run(&loop, UV_RUN_NOWAIT); /* back from the database: dropped */
    ck_assert_int_eq(st->ports[0].npending, 1); /* ann's only */
}

/* On the second loop (this thread's calls go to its port): owner's
 * login given the slot by the first loop as ann's check ends there, and
 * given up before the second loop started it; then another given up at
 * the database. */
static void given_up_on_the_second_loop(store_t *st, uv_loop_t *loop2,
                                        one_t *one)
{
    owner_login(st, &one[3]);
    lookups_answered(st, 1, 1);
    uv_run(loop2, UV_RUN_NOWAIT);
    ck_assert_int_eq(store_wait_of(st, &one[3]), STORE_WAIT_HASH_LINE);
    pool_release();
    uv_run(&loop, UV_RUN_DEFAULT); /* ann answered, the slot passed on */
    uv_mutex_lock(&st->lmu);
    const req_t *g = st->ports[1].granted;
    int granted = g && g->ctx == &one[3] && !g->next, hashing = st->hashing;
    uv_mutex_unlock(&st->lmu);
    ck_assert_int_eq(granted, 1);
    ck_assert_int_eq(hashing, 1);
    store_cancel(st, &one[3]);
    uv_mutex_lock(&st->lmu);
    granted = st->ports[1].granted != NULL;
    hashing = st->hashing; /* its slot given back */
    uv_mutex_unlock(&st->lmu);
    ck_assert_int_eq(granted, 0);
    ck_assert_int_eq(hashing, 0);
    owner_login(st, &one[4]);
    ck_assert_int_eq(store_wait_of(st, &one[4]), STORE_WAIT_DB);
    store_cancel(st, &one[4]);
    lookups_answered(st, 1, 1);
    uv_run(loop2, UV_RUN_NOWAIT);
    ck_assert_int_eq(st->ports[1].npending, 0);
}

/* Four logins with the right password given up before their check (in
 * the line, at the database on each loop, given a slot and not started;
 * slowed down, the other way a login ends unchecked, is the next test's),
 * then a fifth: not slowed down, and in. With the four counted as
 * failures the fourth itself was slowed. */
START_TEST(logins_given_up_before_their_check_are_not_failures)
{
    store_t *st = one_slot_store(1);
    store_fixture_account(st, "owner");
    answers_t all = { 0 };
    one_t one[6];
    for (int i = 0; i < 6; i++)
        one[i] = (one_t){ &all, i };
    pool_hold();
    ck_assert_int_eq(store_login_from(st, "ann", "10.0.0.9", "wrongpass1",
                                      on_login, &one[0]), 0);
    lookups_answered(st, 0, 1);
    uv_run(&loop, UV_RUN_NOWAIT);
    ck_assert_int_eq(store_wait_of(st, &one[0]), STORE_WAIT_HASHING);
    given_up_on_the_first_loop(st, one);
    uv_loop_t loop2;
    ck_assert_int_eq(uv_loop_init(&loop2), 0);
    ck_assert_int_eq(store_attach(st, &loop2), 0);
    given_up_on_the_second_loop(st, &loop2, one);
    owner_counted(st, 0);
    owner_login(st, &one[5]);
    ck_assert_int_eq(store_wait_of(st, &one[5]), STORE_WAIT_DB);
    store_stats_t stats;
    store_stats(st, &stats);
    ck_assert_uint_eq(stats.login_waits, 0);
    uv_run(&loop2, UV_RUN_DEFAULT);
    ck_assert_int_eq(all.n, 2); /* ann's and the fifth's */
    ck_assert_int_eq(all.order[1], 5);
    ck_assert_int_eq(all.status[5], STORE_OK);
    store_detach(st);
    ck_assert_int_eq(uv_loop_close(&loop2), 0);
    close_store(st);
    uv_sem_destroy(&held);
}
END_TEST

/* A login slowed down after three failures and given up while it waits
 * is not a fourth failure and no longer counts as one (the next login is
 * slowed by the three alone). */
START_TEST(a_slowed_login_given_up_is_not_a_failure)
{
    store_t *st = one_slot_store(0);
    store_fixture_account(st, "owner");
    for (int i = 0; i < THROTTLE_FREE; i++)
        ck_assert_int_eq(login_now(st, "owner", "10.0.0.1", "wrongpass1"),
                         STORE_BAD_LOGIN);
    answers_t all = { 0 };
    one_t one = { &all, 0 };
    owner_login(st, &one);
    ck_assert_int_eq(store_wait_of(st, &one), STORE_WAIT_SLOWED);
    ck_assert_uint_eq(counted_in(st, &st->thr, "owner", "10.0.0.1").pending,
                      1);
    store_cancel(st, &one);
    owner_counted(st, THROTTLE_FREE);
    ck_assert_int_eq(store_wait_of(st, &one), STORE_WAIT_NONE);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(all.n, 0); /* never answered */
    close_store(st);
}
END_TEST

/* --- giving up, and the lock every loop shares ------------------------------- */

typedef struct canceller {
    store_t *st;
    void *ctx;
    atomic_int done;
} canceller_t;

static void cancel_on_a_thread(void *arg)
{
    canceller_t *c = arg;
    store_cancel(c->st, c->ctx); /* the first loop's port: not attached */
    atomic_store(&c->done, 1);
}

/* Every session freed gives up what it asked (store_cancel); only one
 * with a check waiting for a slot takes the lock every loop shares to
 * look through the server's line. Here the lock is held while a login
 * whose lookup is still at the database is given up, on another thread
 * (this one runs no loop meanwhile): the cancel returns without it, and
 * the login is never answered. (Every cancel took the lock before.) */
START_TEST(giving_up_a_login_not_in_line_leaves_the_line_alone)
{
    store_t *st = store_fixture_open(&fast);
    answers_t all = { 0 };
    one_t one = { &all, 0 };
    ck_assert_int_eq(store_login_from(st, "ann", "10.0.0.1", "wrongpass1",
                                      on_login, &one), 0);
    ck_assert_int_eq(store_wait_of(st, &one), STORE_WAIT_DB);
    canceller_t c = { .st = st, .ctx = &one };
    atomic_init(&c.done, 0);
    uv_thread_t t;
    uv_mutex_lock(&st->lmu);
    int made = uv_thread_create(&t, cancel_on_a_thread, &c) == 0;
    for (int ms = 0; made && !atomic_load(&c.done) && ms < 10000; ms++)
        uv_sleep(1);
    int returned = atomic_load(&c.done);
    uv_mutex_unlock(&st->lmu);
    if (made)
        uv_thread_join(&t);
    ck_assert_int_eq(made, 1);
    ck_assert_int_eq(returned, 1);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(all.n, 0);
    close_store(st);
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
    tcase_add_test(tc, the_store_says_where_a_login_waits);
    tcase_add_test(tc, a_login_on_another_loop_takes_its_address_turn);
    tcase_add_test(tc, addresses_of_one_slash_64_share_a_turn);
    tcase_add_test(tc, two_loops_share_the_line_across_threads);
    tcase_add_test(tc, failed_logins_count_a_slash_64_as_one_address);
    tcase_add_test(tc, logins_given_up_before_their_check_are_not_failures);
    tcase_add_test(tc, a_slowed_login_given_up_is_not_a_failure);
    tcase_add_test(tc, giving_up_a_login_not_in_line_leaves_the_line_alone);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
