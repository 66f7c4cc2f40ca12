/* test_store_recent.c - store_recent, the finished games newest first
 * that the site's feeds list, against a real database (a SQLite file, or
 * in the pg family a PostgreSQL database of the test's own:
 * tests/store_where.h): none at first; then every game whatever its
 * ending or score, the highest id first, at most STORE_RECENT_MAX; `after`
 * leaves out the games a reader has seen. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <uv.h>

#include "check_main.h"
#include "store.h"
#include "store_fixture.h"
#include "store_where.h"

static store_recent_t got;
static int calls;

static void setup(void)
{
    store_fixture_setup("/tmp/rogued-recent-XXXXXX");
    memset(&got, 0, sizeof got);
    calls = 0;
}

static void teardown(void)
{
    store_fixture_teardown();
}

static void on_recent(void *ctx, const store_recent_t *r)
{
    (void)ctx;
    calls++;
    got = *r;
}

/* Asks and runs the loop until the answer (never from inside the call). */
static void ask(store_t *st, int64_t after, int n)
{
    int before = calls;
    ck_assert_int_eq(store_recent(st, after, n, on_recent, NULL), 0);
    ck_assert_int_eq(calls, before);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(calls, before + 1);
    ck_assert_int_eq(got.status, STORE_OK);
}

/* Game i: its score falls as i grows (the hall of fame would list them
 * oldest first), every fourth is a quit (not ranked), the rest deaths. */
static store_game_t game_of(int i, int64_t account)
{
    store_game_t g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, account ? "Ann" : "guest%d", i);
    g.account_id = account;
    g.ruleset = 1;
    g.seed = 42 + (uint64_t)i;
    g.score = 10000 - i;
    g.depth = 1 + i % 9;
    g.turns = 100 + i;
    g.kills = i % 7;
    snprintf(g.cause, sizeof g.cause, i % 4 == 3 ? "quit" : "killed by rat %d",
             i);
    g.ending = i % 4 == 3 ? STORE_END_QUIT : STORE_END_DEATH;
    g.started = 5000 + i;
    g.ended = 6000 + i;
    return g;
}

enum { GAMES = 130 };

START_TEST(newest_first_bounded_and_after)
{
    store_t *st = store_fixture_open(&fast);
    ask(st, 0, STORE_RECENT_MAX);
    ck_assert_int_eq(got.n, 0);

    int64_t ann = store_fixture_account(st, "Ann");
    for (int i = 0; i < GAMES; i++) {
        store_game_t g = game_of(i, i % 2 ? ann : 0);
        ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    }
    /* more than the cap asked: the cap */
    ask(st, 0, 1000);
    ck_assert_int_eq(got.n, STORE_RECENT_MAX);
    for (int k = 0; k < got.n; k++) {
        int i = GAMES - 1 - k; /* the newest first */
        const store_score_t *r = &got.games[k];
        if (k > 0)
            ck_assert(r->game_id < got.games[k - 1].game_id);
        char name[32], cause[40];
        snprintf(name, sizeof name, i % 2 ? "Ann" : "guest%d", i);
        snprintf(cause, sizeof cause, i % 4 == 3 ? "quit" : "killed by rat %d",
                 i);
        ck_assert_str_eq(r->name, name);
        ck_assert_str_eq(r->cause, cause);
        ck_assert_int_eq(r->score, 10000 - i);
        ck_assert_int_eq(r->depth, 1 + i % 9);
        ck_assert_int_eq(r->turns, 100 + i);
        ck_assert_int_eq(r->kills, i % 7);
        ck_assert_int_eq(r->ruleset, 1);
        ck_assert_int_eq(r->ended, 6000 + i);
        ck_assert_int_eq(r->ending,
                         i % 4 == 3 ? STORE_END_QUIT : STORE_END_DEATH);
    }
    int64_t newest = got.games[0].game_id;
    int64_t fifth = got.games[4].game_id;

    /* a few */
    ask(st, 0, 3);
    ck_assert_int_eq(got.n, 3);
    ck_assert_int_eq(got.games[0].game_id, newest);
    ck_assert_int_eq(got.games[2].turns, 100 + GAMES - 3);

    /* after the fifth newest: the four above it, newest first */
    ask(st, fifth, STORE_RECENT_MAX);
    ck_assert_int_eq(got.n, 4);
    ck_assert_int_eq(got.games[0].game_id, newest);
    ck_assert_int_eq(got.games[3].turns, 100 + GAMES - 4);
    /* after the newest: nothing new */
    ask(st, newest, STORE_RECENT_MAX);
    ck_assert_int_eq(got.n, 0);
    /* none asked: none */
    ask(st, 0, 0);
    ck_assert_int_eq(got.n, 0);
    store_close(st);
}
END_TEST

/* A request not answered yet when its caller goes: no callback. */
START_TEST(cancelled_answers_nobody)
{
    store_t *st = store_fixture_open(&fast);
    int ctx;
    ck_assert_int_eq(store_recent(st, 0, 10, on_recent, &ctx), 0);
    store_cancel(st, &ctx);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(calls, 0);
    store_close(st);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create(sw_pg() ? "store_recent (PostgreSQL)"
                                    : "store_recent");
    TCase *tc = tcase_create("store_recent");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, newest_first_bounded_and_after);
    tcase_add_test(tc, cancelled_answers_nobody);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
