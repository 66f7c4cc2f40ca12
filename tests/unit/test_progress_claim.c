/* test_progress_claim.c - claims on games in progress (store.h, "Claims"):
 * two stores open on one database, as two hosts behind a balancer are
 * (the SQLite file, or with ROGUED_TEST_PG the PostgreSQL database: the
 * pg family runs this file too). Host A's login loads (a claim), begins
 * and plays; host B's later login loads (a later claim) and goes on with a
 * game of its own; then every write A still makes (keys, a snapshot, the
 * game sent again whole, an end) is refused, is no failed batch, and is
 * told by store_progress_claimed; and B's game loads back whole, to the
 * byte. Also: a stale begin after B's game ended leaves nothing; claims
 * only grow, across a restart; claim 0 (no claim) writes as before. On
 * PostgreSQL alone, races forced with second connections that hold locks
 * until the store's statements are seen waiting on them: a claim taken
 * while A's write waits on the game's row, two hosts' cross takeover, a
 * claim taken while another host's begin of a game is not committed, one
 * while another host's batch ends the game and begins the next, and a
 * claim PostgreSQL ends as a deadlock (taken again).
 * Every test ends with uv_loop_close() == 0. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "check_main.h"
#include "game.h"
#include "record.h"
#include "rng.h"
#include "store.h"
#include "progress_fixture.h"
#include "pg_hold.h"
#include "progress_player.h"
#include "store_fixture.h"
#include "store_log.h"
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

/* --- a second host's claim in flight (PostgreSQL; pg_hold.h) -------------------- */

/* A claim on account id, taken as the store takes one (ST_CLAIM,
 * ST_CLAIM_ACCT, ST_CLAIM_GAME: the game, the account, a game begun
 * meanwhile), its row locks held; returns it. */
static long long hold_claim(PGconn *c, int64_t id)
{
    char sql[512];
    snprintf(sql, sizeof sql, "WITH c AS (SELECT nextval('progress_claims')"
             " AS n), g AS (UPDATE progress SET claim = (SELECT n FROM c)"
             " WHERE account_id = %lld RETURNING 1) SELECT n FROM c",
             (long long)id);
    long long n = hold_ll(c, sql);
    snprintf(sql, sizeof sql, "UPDATE accounts SET progress_claim = %lld"
             " WHERE id = %lld", n, (long long)id);
    hold_do(c, sql);
    snprintf(sql, sizeof sql, "UPDATE progress SET claim = %lld WHERE"
             " account_id = %lld AND claim < %lld", n, (long long)id, n);
    hold_do(c, sql);
    return n;
}

/* Waits (30 s: a hang) until backend pid waits on a lock, or account
 * id's claim is above `claim` (committed): whichever the store's claim
 * comes to first. */
static void wait_claim_waits_or_lands(long long pid, int64_t id,
                                      int64_t claim)
{
    char waits[256], landed[128];
    snprintf(waits, sizeof waits, "SELECT count(*) FROM pg_stat_activity"
             " WHERE %lld = ANY(pg_blocking_pids(pid))", pid);
    snprintf(landed, sizeof landed, "SELECT count(*) FROM accounts WHERE"
             " id = %lld AND progress_claim > %lld", (long long)id,
             (long long)claim);
    int done = 0;
    for (int i = 0; i < 3000 && !done; i++) {
        if (i > 0)
            nanosleep(&(struct timespec){ 0, 10 * 1000000L }, NULL);
        done = sw_int(waits) > 0 || sw_int(landed) > 0;
    }
    ck_assert_msg(done, "the claim neither waited nor committed");
}

/* Flush asked, not yet answered: the loop is run once the test is done
 * with the database (flush_wait). */
static void flush_ask(store_t *st, int *status)
{
    *status = -1;
    ck_assert_int_eq(store_flush(st, progress_on_flush, status), 0);
}

static void flush_wait(const int *status)
{
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(*status, STORE_OK);
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
    ck_assert_int_eq(store_progress_end(a, alice, ca, 0, 0), 0);
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
    ck_assert_int_eq(store_progress_end(b, bob, cb, 0, 0), 0);
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

/* A later claim taken while A's write of the game is waiting on its row
 * (another host's login locks the row to take it, A's statement waits,
 * then re-reads the row and writes nothing): A's store tells its claim is
 * taken, not that it had no game. Before, the statement's own answer read
 * its snapshot from before the claim, and a snapshot or an end refused so
 * was told as no game: dropped, the session playing on. PostgreSQL only
 * (SQLite's writers take turns: no statement waits inside another's). */
START_TEST(claim_taken_during_the_write_is_told)
{
    if (!sw_pg())
        return;
    store_t *a = store_fixture_open(&fast);
    int64_t fay = store_fixture_account(a, "Fay");
    loaded_t la = load(a, fay);
    int64_t ca = la.p.claim;
    loaded_free(&la);
    gamer_t pa;
    player_start(&pa, 0xfa1, 1);
    player_begin(a, &pa, fay, ca, 300);
    player_keys(&pa, 2 * RECORD_CHECK_EVERY);
    player_give(a, &pa, fay, ca);
    flush(a);

    for (int write = 0; write < 2; write++) {
        if (write > 0) { /* A's login again: the row A's claim's again */
            la = load(a, fay);
            ck_assert_int_eq(la.p.status, STORE_OK);
            ca = la.p.claim;
            loaded_free(&la);
        }
        PGconn *other = hold_open();
        long long later = hold_claim(other, fay);
        ck_assert_int_gt(later, ca);
        int status;
        if (write == 0)
            ck_assert_int_eq(store_progress_snapshot(a, fay, ca, pa.g,
                                                     pa.rec.nkeys,
                                                     pa.rec.keys.len,
                                                     pa.rec.checks.data,
                                                     pa.rec.checks.len), 0);
        else
            ck_assert_int_eq(store_progress_end(a, fay, ca, 0, 0), 0);
        flush_ask(a, &status);
        blocked_by(other); /* A's write waits on the claim's row */
        hold_end(other, "COMMIT");
        flush_wait(&status);
        ck_assert_uint_eq(claimed_count(a), (uint64_t)write + 1);
        ck_assert_int_eq(store_progress_claimed(a, fay, ca), 1);
        ck_assert_int_eq(store_healthy(a), 1);
        ck_assert_uint_eq(store_failed_batches(a), 0);
        /* the game stays, the later claim's, without A's snapshot */
        ck_assert_int_eq(sw_int("SELECT claim FROM progress"), later);
        ck_assert_int_eq(sw_int("SELECT count(*) FROM progress WHERE"
                                " snap_game IS NOT NULL"), 0);
        ck_assert_int_eq(sw_int("SELECT sum(length(keys)) FROM"
                                " progress_keys"),
                         (long long)pa.rec.keys.len);
    }
    store_close(a);
    player_free(&pa);
}
END_TEST

/* Two hosts each take over the account the other plays, at once: A plays
 * Gus and logs Hal in, B plays Hal and logs Gus in, and each host's last
 * keys of its own game reach the store just before the login's load. Were
 * a host's keys and its load one transaction, each would hold its own
 * game's row (the keys) and wait for the other's (the load's claim writes
 * the row): a deadlock, PostgreSQL ending one of the transactions (40P01)
 * and with it that host's keys and its login's load. The order is forced
 * with second connections: one holds both game rows until both hosts'
 * earlier keys wait on them, so that the last keys and the login queue up
 * behind; another holds the claims' sequence (ALTER SEQUENCE: every
 * nextval waits) until both loads wait on it, after each host's last keys
 * went in. Then each login loads the other host's game whole, every key
 * included; each host's next write of the game it lost is refused and
 * told; no batch fails. PostgreSQL only (SQLite's writers take turns). */
START_TEST(cross_takeover_loses_nothing)
{
    if (!sw_pg())
        return;
    log_to_file();
    store_t *a = store_fixture_open(&fast);
    store_t *b = store_fixture_open(&fast);
    int64_t gus = store_fixture_account(a, "Gus");
    int64_t hal = store_fixture_account(a, "Hal");
    gamer_t pg, ph; /* Gus's game on A, Hal's on B */
    loaded_t l = load(a, gus);
    int64_t ag = l.p.claim;
    loaded_free(&l);
    l = load(b, hal);
    int64_t bh = l.p.claim;
    loaded_free(&l);
    player_start(&pg, 0x9e5, 1);
    player_begin(a, &pg, gus, ag, 10);
    player_keys(&pg, 30);
    player_give(a, &pg, gus, ag);
    flush(a);
    player_start(&ph, 0x4a1, 1);
    player_begin(b, &ph, hal, bh, 20);
    player_keys(&ph, 30);
    player_give(b, &ph, hal, bh);
    flush(b);

    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM (SELECT 1 FROM progress"
             " WHERE account_id IN (%lld, %lld) FOR UPDATE) s",
             (long long)gus, (long long)hal);
    PGconn *games = hold_rows(sql);
    PGconn *claims = hold_open();
    PGresult *r = PQexec(claims, "ALTER SEQUENCE progress_claims NO CYCLE");
    ck_assert_int_eq(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    /* each host's store busy with keys that wait on the game rows */
    player_keys(&pg, 10);
    player_give(a, &pg, gus, ag);
    player_keys(&ph, 10);
    player_give(b, &ph, hal, bh);
    wait_blocked(games, 2);
    /* queued behind them: each host's last keys, and the other's login */
    player_keys(&pg, 10);
    player_give(a, &pg, gus, ag);
    player_keys(&ph, 10);
    player_give(b, &ph, hal, bh);
    loaded_t lh, lg; /* A's load of Hal, B's of Gus */
    memset(&lh, 0, sizeof lh);
    memset(&lg, 0, sizeof lg);
    ck_assert_int_eq(store_progress_load(a, hal, progress_on_load, &lh), 0);
    ck_assert_int_eq(store_progress_load(b, gus, progress_on_load, &lg), 0);
    hold_end(games, "COMMIT");
    wait_blocked(claims, 2); /* both claims, after both hosts' last keys */
    hold_end(claims, "ROLLBACK");
    int sa, sb;
    flush_ask(a, &sa);
    flush_ask(b, &sb);
    flush_wait(&sa);
    ck_assert_int_eq(sb, STORE_OK);
    ck_assert_int_eq(logged("deadlock detected"), 0);
    ck_assert_int_eq(logged(" error "), 0);

    /* each login has the other host's game whole */
    ck_assert_int_eq(lh.calls, 1);
    ck_assert_int_eq(lg.calls, 1);
    ck_assert_int_gt(lh.p.claim, bh);
    ck_assert_int_gt(lg.p.claim, ag);
    assert_is(&lh, &ph, 20);
    assert_is(&lg, &pg, 10);
    ck_assert_uint_eq(store_failed_batches(a), 0);
    ck_assert_uint_eq(store_failed_batches(b), 0);
    ck_assert_int_eq(store_healthy(a), 1);
    ck_assert_int_eq(store_healthy(b), 1);
    ck_assert_uint_eq(claimed_count(a), 0);
    ck_assert_uint_eq(claimed_count(b), 0);

    /* each host's next keys of the game it lost are refused and told: its
     * session lets the player go; the database keeps the login's game */
    player_keys(&pg, 5);
    player_give(a, &pg, gus, ag);
    player_keys(&ph, 5);
    player_give(b, &ph, hal, bh);
    flush(a);
    flush(b);
    ck_assert_int_eq(store_progress_claimed(a, gus, ag), 1);
    ck_assert_int_eq(store_progress_claimed(b, hal, bh), 1);
    ck_assert_int_eq(store_progress_claimed(a, hal, lh.p.claim), 0);
    ck_assert_int_eq(store_progress_claimed(b, gus, lg.p.claim), 0);
    store_close(a);
    store_close(b);
    snprintf(sql, sizeof sql, "SELECT claim FROM progress WHERE account_id"
             " = %lld", (long long)gus);
    ck_assert_int_eq(sw_int(sql), lg.p.claim);
    snprintf(sql, sizeof sql, "SELECT claim FROM progress WHERE account_id"
             " = %lld", (long long)hal);
    ck_assert_int_eq(sw_int(sql), lh.p.claim);
    ck_assert_int_eq(sw_int("SELECT sum(length(keys)) FROM progress_keys"),
                     (long long)(lg.keys.len + lh.keys.len));
    ck_assert_int_eq(logged(" error "), 0);
    log_restore();
    unlink(logpath);
    loaded_free(&lh);
    loaded_free(&lg);
    player_free(&pg);
    player_free(&ph);
}
END_TEST

/* A host's begin of a new game, not committed yet, while another host's
 * login takes the account's claim: A begins Ida's game (its row inserted
 * under claim ca) and its batch is held open by a later write in it that
 * waits on a row a second connection locks; then B's login loads Ida.
 * Both commit. Only the later claim's writes may pass: the game A began
 * is B's now (B's load has it, its row carries B's claim), A's next keys
 * are refused and told, B's own writes are kept, and the game the next
 * login loads is B's. Before the fix the claim did not wait for the
 * begin, read the game in a snapshot without it and committed first: B
 * loaded no game, the row kept A's claim, and A's keys and B's writes
 * both passed (two hosts writing one game). The order is forced with two
 * connections: one holds Zed's row until A's store waits on it (so that
 * the begin and Yan's keys queue up as one batch behind), the other
 * holds Yan's row until that batch waits on it, its begin made; the claim
 * then runs, and the held batch goes on once the claim waits on it (or,
 * before the fix, committed). PostgreSQL only (SQLite's writers take
 * turns). */
START_TEST(claim_during_an_uncommitted_begin)
{
    if (!sw_pg())
        return;
    store_t *a = store_fixture_open(&fast);
    store_t *b = store_fixture_open(&fast);
    int64_t ida = store_fixture_account(a, "Ida");
    int64_t zed = store_fixture_account(a, "Zed");
    int64_t yan = store_fixture_account(a, "Yan");
    gamer_t pz, py, pa, pb;
    player_start(&pz, 0x2ed, 1);
    player_begin(a, &pz, zed, 0, 1);
    player_start(&py, 0x4a2, 1);
    player_begin(a, &py, yan, 0, 2);
    flush(a);
    loaded_t la = load(a, ida);
    ck_assert_int_eq(la.p.status, STORE_NOT_FOUND);
    int64_t ca = la.p.claim;
    loaded_free(&la);

    char sql[256];
    PGconn *first = hold_game(zed);
    PGconn *last = hold_game(yan);
    player_keys(&pz, 5);
    player_give(a, &pz, zed, 0);
    wait_blocked(first, 1);
    /* the next batch: Ida's begin and keys, then Yan's, which wait */
    player_start(&pa, 0x1da, 1);
    player_begin(a, &pa, ida, ca, 400);
    player_keys(&pa, 20);
    player_give(a, &pa, ida, ca);
    player_keys(&py, 5);
    player_give(a, &py, yan, 0);
    hold_end(first, "COMMIT");
    long long apid = blocked_by(last); /* A's begin made, not committed */
    loaded_t lb;
    memset(&lb, 0, sizeof lb);
    ck_assert_int_eq(store_progress_load(b, ida, progress_on_load, &lb), 0);
    wait_claim_waits_or_lands(apid, ida, ca);
    hold_end(last, "COMMIT");
    int sa;
    flush_ask(a, &sa);
    flush_wait(&sa);
    ck_assert_int_eq(lb.calls, 1);
    int64_t cb = lb.p.claim;
    ck_assert_int_gt(cb, ca);
    snprintf(sql, sizeof sql, "SELECT claim FROM progress WHERE account_id"
             " = %lld", (long long)ida);
    ck_assert_int_eq(sw_int(sql), cb);
    assert_is(&lb, &pa, 400); /* B's login has the game A began */
    loaded_free(&lb);

    /* A's next keys are refused and told; B's writes are kept */
    player_keys(&pa, 10);
    player_give(a, &pa, ida, ca);
    flush(a);
    ck_assert_int_eq(store_progress_claimed(a, ida, ca), 1);
    ck_assert_uint_eq(claimed_count(a), 1);
    player_start(&pb, 0xb1da, 1);
    player_begin(b, &pb, ida, cb, 500);
    player_keys(&pb, 15);
    player_give(b, &pb, ida, cb);
    flush(b);
    ck_assert_uint_eq(claimed_count(b), 0);
    ck_assert_uint_eq(store_failed_batches(a), 0);
    ck_assert_uint_eq(store_failed_batches(b), 0);
    player_keys(&pa, 10);
    player_give(a, &pa, ida, ca);
    flush(a);
    ck_assert_int_eq(store_progress_claimed(a, ida, ca), 1);
    loaded_t again = load(b, ida);
    assert_is(&again, &pb, 500);
    loaded_free(&again);
    store_close(a);
    store_close(b);
    player_free(&pz);
    player_free(&py);
    player_free(&pa);
    player_free(&pb);
}
END_TEST

/* A login's claim while another host's batch holds the account's game
 * (its last keys written) and has yet to end it and begin the next: the
 * batch then takes the account's lock (the begin), the claim its game's
 * and the account's. Were the claim to lock the account first, each would
 * wait for the other, and PostgreSQL would end one as a deadlock (the
 * batch's keys or the login's load lost). It takes the game's row first,
 * so it waits for the batch, then claims the game the batch began: A's
 * batch is held open by Yan's keys, waiting on a row a second connection
 * locks, after Jo's keys and before Jo's end and begin; B's load waits
 * on A's batch; then A's batch goes on and commits, B loads the game A
 * began, and A's next keys are refused. Nothing fails, nothing is
 * logged as a deadlock. PostgreSQL only. */
START_TEST(claim_during_a_batch_that_ends_and_begins)
{
    if (!sw_pg())
        return;
    log_to_file();
    store_t *a = store_fixture_open(&fast);
    store_t *b = store_fixture_open(&fast);
    int64_t jo = store_fixture_account(a, "Jo");
    int64_t zed = store_fixture_account(a, "Zed");
    int64_t yan = store_fixture_account(a, "Yan");
    gamer_t pz, py, pa, pn;
    player_start(&pz, 0x2ed, 1);
    player_begin(a, &pz, zed, 0, 1);
    player_start(&py, 0x4a2, 1);
    player_begin(a, &py, yan, 0, 2);
    loaded_t la = load(a, jo);
    int64_t ca = la.p.claim;
    loaded_free(&la);
    player_start(&pa, 0x10, 1);
    player_begin(a, &pa, jo, ca, 600);
    player_keys(&pa, 20);
    player_give(a, &pa, jo, ca);
    flush(a);

    char sql[256];
    PGconn *first = hold_game(zed);
    PGconn *last = hold_game(yan);
    player_keys(&pz, 5);
    player_give(a, &pz, zed, 0);
    wait_blocked(first, 1);
    /* the next batch: Jo's last keys, Yan's (which wait), Jo's end, a new
     * game begun and its keys */
    player_keys(&pa, 10);
    player_give(a, &pa, jo, ca);
    player_keys(&py, 5);
    player_give(a, &py, yan, 0);
    ck_assert_int_eq(store_progress_end(a, jo, ca, 0, 0), 0);
    player_start(&pn, 0x11, 1);
    player_begin(a, &pn, jo, ca, 700);
    player_keys(&pn, 15);
    player_give(a, &pn, jo, ca);
    hold_end(first, "COMMIT");
    long long apid = blocked_by(last); /* Jo's game's row held by A */
    loaded_t lb;
    memset(&lb, 0, sizeof lb);
    ck_assert_int_eq(store_progress_load(b, jo, progress_on_load, &lb), 0);
    wait_claim_waits_or_lands(apid, jo, ca);
    snprintf(sql, sizeof sql, "SELECT progress_claim FROM accounts WHERE"
             " id = %lld", (long long)jo);
    ck_assert_int_eq(sw_int(sql), ca); /* B waits, not committed */
    hold_end(last, "COMMIT");
    int sa;
    flush_ask(a, &sa);
    flush_wait(&sa);
    ck_assert_int_eq(lb.calls, 1);
    ck_assert_int_gt(lb.p.claim, ca);
    assert_is(&lb, &pn, 700); /* the game A began, whole */
    ck_assert_uint_eq(store_failed_batches(a), 0);
    ck_assert_uint_eq(store_failed_batches(b), 0);
    ck_assert_uint_eq(claimed_count(a), 0);
    ck_assert_int_eq(logged("deadlock detected"), 0);
    ck_assert_int_eq(logged(" error "), 0);

    player_keys(&pn, 5);
    player_give(a, &pn, jo, ca);
    flush(a);
    ck_assert_int_eq(store_progress_claimed(a, jo, ca), 1);
    store_close(a);
    store_close(b);
    snprintf(sql, sizeof sql, "SELECT claim FROM progress WHERE account_id"
             " = %lld", (long long)jo);
    ck_assert_int_eq(sw_int(sql), lb.p.claim);
    snprintf(sql, sizeof sql, "SELECT sum(length(keys)) FROM progress_keys"
             " WHERE account_id = %lld", (long long)jo);
    ck_assert_int_eq(sw_int(sql), (long long)lb.keys.len);
    log_restore();
    unlink(logpath);
    loaded_free(&lb);
    player_free(&pz);
    player_free(&py);
    player_free(&pa);
    player_free(&pn);
}
END_TEST

/* A login's claim ended by PostgreSQL as a deadlock is taken again, and
 * the login loads: the claim holds Kit's game's row and waits for the
 * account's, which a second connection holds (as a host's begin would),
 * and that connection then asks for the game's row (as a third host's
 * batch could: see spg_progress_claim). The claim waited first, so
 * PostgreSQL ends the claim's transaction (after its deadlock_timeout);
 * the connection commits; the claim, in a new transaction, takes Kit's
 * game. No batch fails and no error is logged; before, the login's load
 * failed (claim 0, "could not be looked up"). PostgreSQL only. */
START_TEST(claim_ended_as_a_deadlock_is_taken_again)
{
    if (!sw_pg())
        return;
    log_to_file();
    store_t *a = store_fixture_open(&fast);
    store_t *b = store_fixture_open(&fast);
    int64_t kit = store_fixture_account(a, "Kit");
    loaded_t la = load(a, kit);
    int64_t ca = la.p.claim;
    loaded_free(&la);
    gamer_t pa;
    player_start(&pa, 0x1c17, 1);
    player_begin(a, &pa, kit, ca, 800);
    player_keys(&pa, 25);
    player_give(a, &pa, kit, ca);
    flush(a);

    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM (SELECT 1 FROM accounts"
             " WHERE id = %lld FOR NO KEY UPDATE) s", (long long)kit);
    PGconn *other = hold_rows(sql);
    loaded_t lb;
    memset(&lb, 0, sizeof lb);
    ck_assert_int_eq(store_progress_load(b, kit, progress_on_load, &lb), 0);
    blocked_by(other); /* the claim holds the game, waits for the account */
    /* returns once PostgreSQL has ended the claim's transaction */
    snprintf(sql, sizeof sql, "SELECT count(*) FROM (SELECT 1 FROM progress"
             " WHERE account_id = %lld FOR UPDATE) s", (long long)kit);
    ck_assert_int_eq(hold_ll(other, sql), 1);
    hold_end(other, "COMMIT");
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(lb.calls, 1);
    ck_assert_int_gt(lb.p.claim, ca);
    assert_is(&lb, &pa, 800);
    ck_assert_uint_eq(store_failed_batches(b), 0);
    ck_assert_int_eq(store_healthy(b), 1);
    ck_assert_int_eq(logged("its claim was ended as a deadlock; taken"
                            " again"), 1);
    ck_assert_int_eq(logged(" error "), 0);
    player_keys(&pa, 5);
    player_give(a, &pa, kit, ca);
    flush(a);
    ck_assert_int_eq(store_progress_claimed(a, kit, ca), 1);
    store_close(a);
    store_close(b);
    snprintf(sql, sizeof sql, "SELECT claim FROM progress WHERE account_id"
             " = %lld", (long long)kit);
    ck_assert_int_eq(sw_int(sql), lb.p.claim);
    log_restore();
    unlink(logpath);
    loaded_free(&lb);
    player_free(&pa);
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
    tcase_add_test(tc, claim_taken_during_the_write_is_told);
    tcase_add_test(tc, cross_takeover_loses_nothing);
    tcase_add_test(tc, claim_during_an_uncommitted_begin);
    tcase_add_test(tc, claim_during_a_batch_that_ends_and_begins);
    tcase_add_test(tc, claim_ended_as_a_deadlock_is_taken_again);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(suite)
