/* test_guest_grace.c - guests' games kept after a drop (server/session/
 * guest_grace.c): kept and taken back by their token, not by another,
 * ended when the clock the test gives passes their time, at most `max`
 * at once, all ended by a final drain; listed with the time each has
 * left. */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "guest_grace.h"

static const char *const T1 = "0123456789abcdef0123456789abcdef";
static const char *const T2 = "fedcba9876543210fedcba9876543210";

/* A game of seed `seed` with a record, to keep. */
static void make(grace_game_t *g, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->game = game_new(seed, NULL);
    ck_assert_ptr_nonnull(g->game);
    ck_assert_int_eq(record_init(&g->rec, g->game, 4096), 0);
    record_key(&g->rec, g->game, '.');
    g->started = 1000;
}

static int ended;
static uint64_t ended_seed;
static void end_game(void *ctx, grace_game_t *g)
{
    (void)ctx;
    ended++;
    ended_seed = g->game->seed;
    game_free(g->game);
    record_free(&g->rec);
}

START_TEST(kept_and_taken_by_token)
{
    guest_grace_t gg;
    ck_assert_int_eq(grace_init(&gg, 4, 60000), 0);
    grace_game_t g, back;
    make(&g, 7);
    ck_assert_int_eq(grace_keep(&gg, T1, "alice", &g, 1000), 0);
    ck_assert_ptr_null(g.game); /* moved in */
    ck_assert_int_eq(grace_count(&gg), 1);
    ck_assert_int_eq(grace_take(&gg, T2, 2000, &back), 0);
    ck_assert_int_eq(grace_take(&gg, "short", 2000, &back), 0);
    ck_assert_int_eq(grace_take(&gg, T1, 2000, &back), 1);
    ck_assert_str_eq(back.name, "alice");
    ck_assert_uint_eq(back.game->seed, 7);
    ck_assert_uint_eq(back.game->turn, 1);
    ck_assert_int_eq(back.rec.nkeys, 1);
    ck_assert_int_eq(back.started, 1000);
    ck_assert_int_eq(grace_count(&gg), 0);
    /* once taken, gone */
    grace_game_t again;
    ck_assert_int_eq(grace_take(&gg, T1, 2000, &again), 0);
    game_free(back.game);
    record_free(&back.rec);
    grace_free(&gg);
}
END_TEST

/* A kept game is found by the session that played it (a watch page's
 * link to it); taken back on another session, the link follows: each move
 * to a later session, chained, the newest of a ring of GRACE_MOVED; a
 * session that never moved is itself. */
START_TEST(kept_by_session_and_moves_followed)
{
    guest_grace_t gg;
    ck_assert_int_eq(grace_init(&gg, 4, 60000), 0);
    grace_game_t g, back;
    make(&g, 7);
    g.session = 12;
    char name[ACCT_NAME_MAX + 1];
    ck_assert_int_eq(grace_keep(&gg, T1, "alice", &g, 1000), 0);
    ck_assert_int_eq(grace_kept_of(&gg, 12, name), 1);
    ck_assert_str_eq(name, "alice");
    ck_assert_int_eq(grace_kept_of(&gg, 13, name), 0);
    ck_assert_int_eq(grace_take(&gg, T1, 2000, &back), 1);
    ck_assert_int_eq(grace_kept_of(&gg, 12, name), 0);
    ck_assert_uint_eq(grace_moved_to(&gg, 12), 12);
    grace_moved(&gg, 12, 20);
    grace_moved(&gg, 20, 31);
    ck_assert_uint_eq(grace_moved_to(&gg, 12), 31);
    ck_assert_uint_eq(grace_moved_to(&gg, 20), 31);
    ck_assert_uint_eq(grace_moved_to(&gg, 31), 31);
    ck_assert_uint_eq(grace_moved_to(&gg, 5), 5);
    /* the ring forgets the oldest */
    for (uint64_t i = 0; i < GRACE_MOVED; i++)
        grace_moved(&gg, 1000 + i, 5000 + i);
    ck_assert_uint_eq(grace_moved_to(&gg, 12), 12);
    ck_assert_uint_eq(grace_moved_to(&gg, 1000), 5000);
    game_free(back.game);
    record_free(&back.rec);
    free(back.watchers);
    grace_free(&gg);
}
END_TEST

START_TEST(expires_on_the_given_clock)
{
    guest_grace_t gg;
    ck_assert_int_eq(grace_init(&gg, 4, 60000), 0);
    grace_game_t g, back;
    make(&g, 8);
    ck_assert_int_eq(grace_keep(&gg, T1, "bob", &g, 1000), 0);
    ended = 0;
    ck_assert_int_eq(grace_drain(&gg, 60999, 0, end_game, NULL), 0);
    ck_assert_int_eq(grace_count(&gg), 1);
    /* at its time it can no longer be taken, and the drain ends it */
    ck_assert_int_eq(grace_take(&gg, T1, 61000, &back), 0);
    ck_assert_int_eq(grace_drain(&gg, 61000, 0, end_game, NULL), 1);
    ck_assert_int_eq(ended, 1);
    ck_assert_uint_eq(ended_seed, 8);
    ck_assert_int_eq(grace_count(&gg), 0);
    grace_free(&gg);
}
END_TEST

/* grace_list: each kept game's player, turn and time left on the given
 * clock; one at its time is left out (nothing to come back to). */
static char listed[128];
static void list_one(void *ctx, const char *name, unsigned turn,
                     uint64_t left_ms)
{
    (*(int *)ctx)++;
    size_t n = strlen(listed);
    snprintf(listed + n, sizeof listed - n, "%s:%u:%llu ", name, turn,
             (unsigned long long)left_ms);
}

START_TEST(listed_with_time_left)
{
    guest_grace_t gg;
    ck_assert_int_eq(grace_init(&gg, 4, 60000), 0);
    grace_game_t a, b;
    make(&a, 9);
    make(&b, 10);
    ck_assert_int_eq(grace_keep(&gg, T1, "ann", &a, 1000), 0);
    ck_assert_int_eq(grace_keep(&gg, T2, "ben", &b, 5000), 0);
    int calls = 0;
    listed[0] = '\0';
    ck_assert_int_eq(grace_list(&gg, 21000, list_one, &calls), 2);
    ck_assert_int_eq(calls, 2);
    ck_assert_str_eq(listed, "ann:1:40000 ben:1:44000 ");
    calls = 0;
    listed[0] = '\0';
    ck_assert_int_eq(grace_list(&gg, 61000, list_one, &calls), 1);
    ck_assert_str_eq(listed, "ben:1:4000 ");
    ended = 0;
    ck_assert_int_eq(grace_drain(&gg, 0, 1, end_game, NULL), 2);
    grace_free(&gg);
}
END_TEST

START_TEST(capped)
{
    guest_grace_t gg;
    ck_assert_int_eq(grace_init(&gg, 1, 60000), 0);
    grace_game_t a, b;
    make(&a, 1);
    make(&b, 2);
    ck_assert_int_eq(grace_keep(&gg, T1, "a", &a, 0), 0);
    ck_assert_int_eq(grace_keep(&gg, T2, "b", &b, 0), -1);
    ck_assert_ptr_nonnull(b.game); /* still the caller's */
    ck_assert_int_eq(grace_count(&gg), 1);
    game_free(b.game);
    record_free(&b.rec);
    /* the final drain ends every game, expired or not */
    ended = 0;
    ck_assert_int_eq(grace_drain(&gg, 0, 1, end_game, NULL), 1);
    ck_assert_int_eq(ended, 1);
    grace_free(&gg);
}
END_TEST

START_TEST(off_keeps_nothing)
{
    guest_grace_t gg;
    ck_assert_int_eq(grace_init(&gg, 100, 0), 0);
    grace_game_t g;
    make(&g, 3);
    ck_assert_int_eq(grace_keep(&gg, T1, "c", &g, 0), -1);
    ck_assert_ptr_nonnull(g.game);
    /* a game still in the table at the end is freed with it */
    guest_grace_t on;
    ck_assert_int_eq(grace_init(&on, 2, 1000), 0);
    ck_assert_int_eq(grace_keep(&on, T1, "c", &g, 0), 0);
    grace_free(&on);
    grace_free(&gg);
}
END_TEST

START_TEST(tokens_are_hex_and_differ)
{
    char a[GRACE_TOKEN_LEN + 1], b[GRACE_TOKEN_LEN + 1];
    ck_assert_int_eq(grace_token(a), 0);
    ck_assert_int_eq(grace_token(b), 0);
    ck_assert_int_eq((int)strlen(a), GRACE_TOKEN_LEN);
    ck_assert_int_eq((int)strspn(a, "0123456789abcdef"), GRACE_TOKEN_LEN);
    ck_assert_str_ne(a, b);
}
END_TEST

START_TEST(live_sessions_by_token)
{
    guest_grace_t gg;
    ck_assert_int_eq(grace_init(&gg, 4, 60000), 0);
    uint64_t id;
    char name[ACCT_NAME_MAX + 1];
    ck_assert_int_eq(grace_live_find(&gg, T1, &id, name), 0);
    ck_assert_int_eq(grace_live_set(&gg, T1, "amy", 5), 0);
    ck_assert_int_eq(grace_live_set(&gg, T2, "bea", 6), 0);
    ck_assert_int_eq(grace_live_find(&gg, T1, &id, name), 1);
    ck_assert_uint_eq(id, 5);
    ck_assert_str_eq(name, "amy");
    /* taken over by session 7: the old one leaving does not clear it */
    ck_assert_int_eq(grace_live_set(&gg, T1, "amy", 7), 0);
    grace_live_clear(&gg, T1, 5);
    ck_assert_int_eq(grace_live_find(&gg, T1, &id, name), 1);
    ck_assert_uint_eq(id, 7);
    grace_live_clear(&gg, T1, 7);
    ck_assert_int_eq(grace_live_find(&gg, T1, &id, name), 0);
    ck_assert_int_eq(grace_live_find(&gg, T2, &id, name), 1);
    ck_assert_uint_eq(id, 6);
    /* many: the list grows */
    char t[GRACE_TOKEN_LEN + 1];
    for (int i = 0; i < 100; i++) {
        snprintf(t, sizeof t, "%032x", i);
        ck_assert_int_eq(grace_live_set(&gg, t, "x", (uint64_t)(100 + i)), 0);
    }
    snprintf(t, sizeof t, "%032x", 42);
    ck_assert_int_eq(grace_live_find(&gg, t, &id, name), 1);
    ck_assert_uint_eq(id, 142);
    grace_free(&gg);
}
END_TEST

/* Loops keeping, taking and draining at once (the table is every worker
 * loop's): every game ends exactly once, taken or drained, and nothing is
 * left. Run under ThreadSanitizer too (make tsan). */
enum { THREADS = 4, ROUNDS = 200 };
static guest_grace_t shared;
static atomic_int taken_n, drained_n;

static void count_drained(void *ctx, grace_game_t *g)
{
    (void)ctx;
    atomic_fetch_add(&drained_n, 1);
    game_free(g->game);
    record_free(&g->rec);
}

static void *worker(void *arg)
{
    int me = (int)(intptr_t)arg;
    for (int r = 0; r < ROUNDS; r++) {
        char t[GRACE_TOKEN_LEN + 1];
        snprintf(t, sizeof t, "%016x%016x", me, r);
        grace_game_t g, back;
        memset(&g, 0, sizeof g);
        g.game = game_new((uint64_t)(me * ROUNDS + r + 1), NULL);
        grace_live_set(&shared, t, "w", (uint64_t)me);
        if (grace_keep(&shared, t, "w", &g, (uint64_t)r) != 0) {
            game_free(g.game); /* full: ended by its owner */
            atomic_fetch_add(&drained_n, 1);
        }
        grace_live_clear(&shared, t, (uint64_t)me);
        if (r % 2 && grace_take(&shared, t, (uint64_t)r, &back)) {
            atomic_fetch_add(&taken_n, 1);
            game_free(back.game);
            record_free(&back.rec);
        }
        grace_drain(&shared, (uint64_t)r, 0, count_drained, NULL);
    }
    return NULL;
}

START_TEST(threads_share_the_table)
{
    ck_assert_int_eq(grace_init(&shared, 8, 50), 0);
    atomic_store(&taken_n, 0);
    atomic_store(&drained_n, 0);
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i), 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    grace_drain(&shared, 0, 1, count_drained, NULL);
    ck_assert_int_eq(grace_count(&shared), 0);
    ck_assert_int_eq(atomic_load(&taken_n) + atomic_load(&drained_n),
                     THREADS * ROUNDS);
    grace_free(&shared);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("guest_grace");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, kept_and_taken_by_token);
    tcase_add_test(tc, kept_by_session_and_moves_followed);
    tcase_add_test(tc, expires_on_the_given_clock);
    tcase_add_test(tc, listed_with_time_left);
    tcase_add_test(tc, capped);
    tcase_add_test(tc, off_keeps_nothing);
    tcase_add_test(tc, tokens_are_hex_and_differ);
    tcase_add_test(tc, live_sessions_by_token);
    tcase_add_test(tc, threads_share_the_table);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
