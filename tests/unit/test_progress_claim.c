/* test_progress_claim.c - claims on games in progress (store.h, "Claims"):
 * two stores open on one database, as two hosts behind a balancer are
 * (the SQLite file, or with ROGUED_TEST_PG the PostgreSQL database: the
 * pg family runs this file too). Host A's login loads (a claim), begins
 * and plays; host B's later login loads (a later claim) and goes on with a
 * game of its own; then every write A still makes (keys, a snapshot, the
 * game sent again whole, an end) is refused, is no failed batch, and is
 * told by store_progress_claimed; and B's game loads back whole, to the
 * byte. Also: a stale begin after B's game ended leaves nothing; claims
 * only grow, across a restart; claim 0 (no claim) writes as before. Every
 * test ends with uv_loop_close() == 0. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "check_main.h"
#include "game.h"
#include "record.h"
#include "rng.h"
#include "store.h"
#include "progress_fixture.h"
#include "progress_player.h"
#include "store_fixture.h"
#include "store_where.h"

static void setup(void)
{
    store_fixture_setup("/tmp/rogued-claim-XXXXXX");
}

static void teardown(void)
{
    store_fixture_teardown();
}

/* --- answers ---------------------------------------------------------------- */

static uint64_t claimed_count(store_t *st)
{
    store_stats_t s;
    store_stats(st, &s);
    return s.progress_claimed;
}

/* --- a player ---------------------------------------------------------------- */

/* Exactly n keys (waits and looks do not end a game). */
static void player_keys(gamer_t *p, int n)
{
    static const char set[] = "hjklyubn";
    for (int i = 0; i < n; i++) {
        int key = game_dead(p->g) || game_over(p->g)
                      ? '.' : set[rng_range(&p->keys, 0, 7)];
        record_key(&p->rec, p->g, key);
    }
}

/* Hands the store what it has not had yet, as `claim`: taken. */
static void player_give(store_t *st, gamer_t *p, int64_t account,
                        int64_t claim)
{
    ck_assert_int_eq(player_send(st, p, account, claim), 0);
}

static void player_begin(store_t *st, gamer_t *p, int64_t account,
                         int64_t claim, int64_t started)
{
    ck_assert_int_eq(store_progress_begin(st, account, claim, p->g->seed,
                                          &p->g->opt, started), 0);
    p->sent = 0;
}

/* A snapshot of the game as it is (every key handed over first). */
static void player_snapshot(store_t *st, gamer_t *p, int64_t account,
                            int64_t claim)
{
    player_give(st, p, account, claim);
    ck_assert_int_eq(store_progress_snapshot(st, account, claim, p->g,
                                             p->rec.nkeys, p->rec.keys.len,
                                             p->rec.checks.data,
                                             p->rec.checks.len), 0);
}

/* The load is p's game, to the byte and to the hash. */
static void assert_is(const loaded_t *l, const gamer_t *p, int64_t started)
{
    ck_assert_int_eq(l->p.status, STORE_OK);
    ck_assert_uint_eq(l->p.seed, p->g->seed);
    ck_assert_int_eq(l->p.started, started);
    ck_assert_uint_eq(l->keys.len, p->rec.keys.len);
    ck_assert(memcmp(l->keys.data, p->rec.keys.data, l->keys.len) == 0);
    game_t *g;
    record_t r;
    ck_assert_int_eq(record_resume(l->p.seed, &l->p.opt, l->keys.data,
                                   l->keys.len, &g, &r), RECORD_OK);
    ck_assert_uint_eq(game_hash(g), game_hash(p->g));
    game_free(g);
    record_free(&r);
}

/* --- tests ------------------------------------------------------------------- */

/* The brief's window: A plays on cut off, B takes the game over from the
 * database and plays; A's writes come back. Each of A's writes is refused
 * (before the change, each of them landed: the append after B's keys, the
 * begin replacing B's game, the end deleting it), none fails a batch, A's
 * store tells its claim is taken, and B's game is whole. */
START_TEST(older_claim_is_refused_newer_game_stays)
{
    store_t *a = store_fixture_open(&fast);
    store_t *b = store_fixture_open(&fast);
    int64_t alice = store_fixture_account(a, "Alice");

    loaded_t la = load(a, alice);
    ck_assert_int_eq(la.p.status, STORE_NOT_FOUND);
    int64_t ca = la.p.claim;
    ck_assert_int_gt(ca, 0);
    loaded_free(&la);
    gamer_t pa;
    player_start(&pa, 0xa11ce, 1);
    player_begin(a, &pa, alice, ca, 100);
    player_keys(&pa, 40);
    player_give(a, &pa, alice, ca);
    flush(a);

    /* B's login: a later claim, and A's game as the database has it */
    loaded_t lb = load(b, alice);
    int64_t cb = lb.p.claim;
    ck_assert_int_gt(cb, ca);
    assert_is(&lb, &pa, 100);
    loaded_free(&lb);
    /* B goes on with a game of its own: begun, keys, a snapshot */
    gamer_t pb;
    player_start(&pb, 0xb0b, 1);
    player_begin(b, &pb, alice, cb, 200);
    player_keys(&pb, 2 * RECORD_CHECK_EVERY);
    player_snapshot(b, &pb, alice, cb);
    player_keys(&pb, 25);
    player_give(b, &pb, alice, cb);
    flush(b);
    ck_assert_int_eq(store_progress_claimed(a, alice, ca), 0);

    /* A's writes come back: keys, a snapshot, the game sent whole again,
     * and its end */
    player_keys(&pa, 30);
    player_give(a, &pa, alice, ca);
    ck_assert_int_eq(store_progress_snapshot(a, alice, ca, pa.g, pa.rec.nkeys,
                                             pa.rec.keys.len,
                                             pa.rec.checks.data,
                                             pa.rec.checks.len), 0);
    player_begin(a, &pa, alice, ca, 100);
    player_give(a, &pa, alice, ca);
    flush(a);
    ck_assert_int_eq(store_progress_end(a, alice, ca), 0);
    flush(a);
    ck_assert_uint_eq(claimed_count(a), 5);
    ck_assert_int_eq(store_healthy(a), 1);
    ck_assert_uint_eq(store_failed_batches(a), 0);
    ck_assert_int_eq(store_progress_claimed(a, alice, cb), 0);
    ck_assert_int_eq(store_progress_claimed(b, alice, cb), 0);
    ck_assert_int_eq(store_progress_claimed(a, alice, ca), 1);
    ck_assert_int_eq(store_progress_claimed(a, alice, ca), 0); /* once */
    ck_assert_uint_eq(claimed_count(b), 0);

    /* B's game, whole, with its snapshot: what the next login goes on
     * from */
    player_keys(&pb, 10);
    player_give(b, &pb, alice, cb);
    loaded_t again = load(b, alice);
    ck_assert_int_gt(again.p.claim, cb);
    assert_is(&again, &pb, 200);
    ck_assert(again.snap != NULL);
    ck_assert_uint_eq(again.p.snap_keys, 2 * RECORD_CHECK_EVERY);
    loaded_free(&again);
    store_close(a);
    store_close(b);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress"), 1);
    ck_assert_int_eq(sw_int("SELECT sum(length(keys)) FROM progress_keys"),
                     (long long)pb.rec.keys.len);
    player_free(&pa);
    player_free(&pb);
}
END_TEST

/* B's game ended (no row left): A's stale begin and keys must not bring
 * A's game back for the next login. */
START_TEST(stale_begin_after_the_newer_game_ended)
{
    store_t *a = store_fixture_open(&fast);
    store_t *b = store_fixture_open(&fast);
    int64_t bob = store_fixture_account(a, "Bob");
    loaded_t la = load(a, bob);
    int64_t ca = la.p.claim;
    loaded_free(&la);
    loaded_t lb = load(b, bob);
    int64_t cb = lb.p.claim;
    ck_assert_int_eq(lb.p.status, STORE_NOT_FOUND);
    loaded_free(&lb);
    gamer_t pb;
    player_start(&pb, 77, 1);
    player_begin(b, &pb, bob, cb, 5);
    player_keys(&pb, 20);
    player_give(b, &pb, bob, cb);
    ck_assert_int_eq(store_progress_end(b, bob, cb), 0);
    flush(b);

    gamer_t pa;
    player_start(&pa, 78, 1);
    player_begin(a, &pa, bob, ca, 6);
    player_keys(&pa, 20);
    player_give(a, &pa, bob, ca);
    flush(a);
    ck_assert_int_eq(store_progress_claimed(a, bob, ca), 1);
    ck_assert_int_eq(store_healthy(a), 1);
    loaded_t l = load(b, bob);
    ck_assert_int_eq(l.p.status, STORE_NOT_FOUND);
    loaded_free(&l);
    store_close(a);
    store_close(b);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress"), 0);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress_keys"), 0);
    player_free(&pa);
    player_free(&pb);
}
END_TEST

/* Each load's claim is above every one before, on one store, on another,
 * and after a restart; and it is the account's, recorded on it. */
START_TEST(claims_only_grow)
{
    store_t *a = store_fixture_open(&fast);
    int64_t cy = store_fixture_account(a, "Cy");
    int64_t di = store_fixture_account(a, "Di");
    int64_t last = 0;
    for (int i = 0; i < 3; i++) {
        loaded_t l = load(a, i % 2 ? di : cy);
        ck_assert_int_gt(l.p.claim, last);
        last = l.p.claim;
        loaded_free(&l);
    }
    store_close(a);
    ck_assert_int_eq(sw_int("SELECT progress_claim FROM accounts WHERE"
                            " name = 'Cy'"), last);
    a = store_fixture_open(&fast);
    loaded_t l = load(a, di);
    ck_assert_int_gt(l.p.claim, last);
    loaded_free(&l);
    store_close(a);
}
END_TEST

/* Claim 0 (no claim: tools, tests, a login whose load failed) writes as
 * before the claims: after a load, and over a game of a claim. */
START_TEST(claim_zero_writes_as_before)
{
    store_t *a = store_fixture_open(&fast);
    int64_t eve = store_fixture_account(a, "Eve");
    loaded_t l = load(a, eve);
    int64_t c = l.p.claim;
    loaded_free(&l);
    gamer_t p;
    player_start(&p, 99, 1);
    player_begin(a, &p, eve, c, 1);
    player_keys(&p, 10);
    player_give(a, &p, eve, c);
    player_keys(&p, 10);
    player_give(a, &p, eve, 0);
    flush(a);
    ck_assert_uint_eq(claimed_count(a), 0);
    l = load(a, eve);
    assert_is(&l, &p, 1);
    loaded_free(&l);
    store_close(a);
    player_free(&p);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("progress_claim");
    TCase *tc = tcase_create("claims");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, older_claim_is_refused_newer_game_stays);
    tcase_add_test(tc, stale_begin_after_the_newer_game_ended);
    tcase_add_test(tc, claims_only_grow);
    tcase_add_test(tc, claim_zero_writes_as_before);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(suite)
