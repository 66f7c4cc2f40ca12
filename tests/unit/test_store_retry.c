/* test_store_retry.c - a batch PostgreSQL ends as a deadlock (40P01) is
 * run again, whole, and counts as one batch that worked (store_thread.c,
 * run_again): its writes are in the database once, its reads answered
 * once, the store stays healthy, nothing is counted twice, and the log
 * says it at info, with no error. The deadlock is a real one, forced with
 * a second connection (pg_hold.h) as another host's batch would close
 * it: the store's batch holds one game's row and waits for another's,
 * which the connection holds, and the connection then asks for a lock
 * the batch holds. How often a batch is run again is told with a trigger
 * that ends each insert of a game as PostgreSQL would, a number of times
 * (40001, a serialization failure, is run again too; three ends running
 * fail the batch, once). PostgreSQL only (the pg family runs this file;
 * SQLite's writers take turns, and none is ended). Every test ends with
 * uv_loop_close() == 0. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>

#include "check_main.h"
#include "game.h"
#include "record.h"
#include "rng.h"
#include "store.h"
#include "pg_hold.h"
#include "progress_fixture.h"
#include "progress_player.h"
#include "store_fixture.h"
#include "store_log.h"
#include "store_where.h"

static void setup(void)
{
    store_fixture_setup("/tmp/rogued-retry-XXXXXX");
}

static void teardown(void)
{
    store_fixture_teardown();
}

/* n keys of the player's game (waits, once it is over). */
static void play(gamer_t *p, int n)
{
    static const char set[] = "hjklyubn";
    for (int i = 0; i < n; i++) {
        int key = game_dead(p->g) || game_over(p->g)
                      ? '.' : set[rng_range(&p->keys, 0, 7)];
        record_key(&p->rec, p->g, key);
    }
}

/* A player of account `id` (no claim: claims are test_progress_claim's)
 * whose game is begun in the store. */
static void begin(store_t *st, gamer_t *p, int64_t id, uint64_t seed)
{
    player_start(p, seed, 1);
    ck_assert_int_eq(store_progress_begin(st, id, 0, p->g->seed, &p->g->opt,
                                          1), 0);
}

static void give(store_t *st, gamer_t *p, int64_t id, int n)
{
    play(p, n);
    ck_assert_int_eq(player_send(st, p, id, 0), 0);
}

/* The account's keys in the database are exactly the player's, in
 * order, each byte once. */
static void assert_keys(int64_t id, const gamer_t *p)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT keys_len FROM progress WHERE"
             " account_id = %lld", (long long)id);
    ck_assert_int_eq(sw_int(sql), (long long)p->rec.keys.len);
    snprintf(sql, sizeof sql, "SELECT string_agg(keys, ''::bytea ORDER BY"
             " pos) FROM progress_keys WHERE account_id = %lld",
             (long long)id);
    size_t len;
    void *keys = sw_blob(sql, &len);
    ck_assert_uint_eq(len, p->rec.keys.len);
    ck_assert(memcmp(keys, p->rec.keys.data, len) == 0);
    free(keys);
}


static store_game_t finished(int64_t id, const char *name, int score)
{
    store_game_t g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "%s", name);
    g.account_id = id;
    g.ruleset = 1;
    g.seed = 7;
    g.score = score;
    g.depth = 2;
    g.turns = 500;
    snprintf(g.cause, sizeof g.cause, "killed by a rat");
    g.started = 10;
    g.ended = 20;
    return g;
}

/* Ann's batch: a registration, her keys (her game's row written), a read
 * of her last game and its record, a finished game, Bo's keys that are
 * dropped (his keys before went to no game) then his new game and its
 * keys, then Yan's keys, which wait on Yan's game's row, held by a second
 * connection; that connection then asks for the progress table in SHARE
 * mode, which waits for the batch's writes to end. The store's statement
 * waited first, so PostgreSQL ends the store's transaction (after its
 * deadlock_timeout) and the connection has the table, and commits. (Its
 * lock, not Ann's row: a lock on a row is no queue, and the batch run
 * again could take Ann's row first and close the same circle: run_again's
 * pause makes that unlikely, not impossible.) The store runs the batch
 * again: every write of it is in the database once (the keys to the byte,
 * one finished game), the read answered once with its record, the
 * account registered logs in with its password (the hash a run before
 * wiped would not), no batch failed, the store healthy, the counts those
 * of one batch (Bo's first keys dropped in the run that stands too: the
 * list of accounts whose keys are dropped is put back as the batch found
 * it), and the log says "ran it again" at info and no error of its own.
 * Before, the batch failed: writes failing, the account, the game and
 * the keys lost. Zed's keys, waiting on a first connection, hold the
 * store while the batch queues up behind them. */
/* PostgreSQL looks for a deadlock once in a wait, deadlock_timeout after
 * it began (1 s), and ends the transaction of the wait that looked. The
 * store's wait begins first; if the holder's began more than that later
 * (a loaded machine), the store's look would find no circle yet and the
 * holder's would end the holder. So, where the test may (a superuser's
 * settings): the store's connections look after 3 s, long after the
 * circle is closed, and the holder's transaction not for a minute. */
static int superuser(void)
{
    return sw_int("SELECT (current_setting('is_superuser') = 'on')::int") == 1;
}

static void store_looks_late(void)
{
    if (superuser())
        sw_exec("DO $$BEGIN EXECUTE format('ALTER DATABASE %I SET "
                "deadlock_timeout = ''3s''', current_database()); END$$");
}

static void never_the_victim(PGconn *c)
{
    if (superuser())
        hold_do(c, "SET LOCAL deadlock_timeout = '60s'");
}

START_TEST(batch_ended_as_a_deadlock_runs_again)
{
    log_to_file();
    store_looks_late(); /* before the store's connection is made */
    store_t *a = store_fixture_open(&fast);
    int64_t ann = store_fixture_account(a, "Ann");
    int64_t yan = store_fixture_account(a, "Yan");
    int64_t zed = store_fixture_account(a, "Zed");
    int64_t bo = store_fixture_account(a, "Bo");
    gamer_t pa, py, pz, pb;
    begin(a, &pa, ann, 0xa22);
    begin(a, &py, yan, 0x4a2);
    begin(a, &pz, zed, 0x2ed);
    give(a, &pa, ann, 20);
    give(a, &py, yan, 20);
    static const char bytes[] = "a record, as the store keeps it";
    store_game_t g1 = finished(ann, "Ann", 100);
    ck_assert_int_eq(store_add_game(a, &g1, bytes, sizeof bytes), 0);
    /* Bo's keys with no game in progress: dropped, and his later keys
     * too until his next begin (the store's broken list; logged) */
    ck_assert_int_eq(store_progress_append(a, bo, 0, "hjk", 3), 0);
    flush(a);
    ck_assert_int_eq(logged(" error "), 1);
    long long game1 = sw_int("SELECT max(id) FROM games");
    store_stats_t s0;
    store_stats(a, &s0);

    PGconn *first = hold_game(zed);
    PGconn *last = hold_game(yan);
    give(a, &pz, zed, 5);
    wait_blocked(first, 1);
    /* the next batch, queued behind Zed's keys: a registration first (its
     * hash made in the pool, then queued: the one event the loop waits
     * for now, as the database thread answers nothing while it waits) */
    store_account_t neo = { .status = -1 };
    ck_assert_int_eq(store_register(a, "Neo", "password",
                                    store_fixture_on_account, &neo), 0);
    uv_run(&loop, UV_RUN_ONCE);
    ck_assert_int_eq(neo.status, -1);
    give(a, &pa, ann, 15);
    store_fixture_record_t got;
    memset(&got, 0, sizeof got);
    ck_assert_int_eq(store_get_record(a, game1, store_fixture_on_record, &got), 0);
    store_game_t g2 = finished(ann, "Ann", 200);
    ck_assert_int_eq(store_add_game(a, &g2, NULL, 0), 0);
    /* Bo's: keys still dropped, then a begin, which ends that, and keys */
    ck_assert_int_eq(store_progress_append(a, bo, 0, "lll", 3), 0);
    begin(a, &pb, bo, 0xb0);
    give(a, &pb, bo, 10);
    give(a, &py, yan, 15);
    hold_end(first, "COMMIT");
    blocked_by(last); /* the batch holds Ann's row, waits for Yan's */
    never_the_victim(last);
    /* returns once PostgreSQL has ended the store's transaction */
    hold_do(last, "LOCK TABLE progress IN SHARE MODE");
    hold_end(last, "COMMIT");
    char sql[256];
    flush(a);

    /* the account made once, with its password's hash (not a wiped one) */
    ck_assert_int_eq(neo.status, STORE_OK);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM accounts WHERE name ="
                            " 'Neo'"), 1);
    store_account_t in = { .status = -1 };
    ck_assert_int_eq(store_login(a, "Neo", "password",
                                 store_fixture_on_account, &in), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(in.status, STORE_OK);
    ck_assert_int_eq(in.id, neo.id);
    ck_assert_int_eq(got.calls, 1);
    ck_assert_int_eq(got.r.status, STORE_OK);
    ck_assert_int_eq(got.r.game.score, 100);
    ck_assert_uint_eq(got.bytes.len, sizeof bytes);
    ck_assert(memcmp(got.bytes.data, bytes, sizeof bytes) == 0);
    ck_assert_uint_eq(store_failed_batches(a), 0);
    ck_assert_uint_eq(store_rerun_batches(a), 1);
    ck_assert_int_eq(store_healthy(a), 1);
    store_stats_t s;
    store_stats(a, &s);
    ck_assert_uint_eq(s.games_written, s0.games_written + 1);
    ck_assert_uint_eq(s.games_lost, 0);
    /* Zed's keys; Ann's, Bo's begin and keys, Yan's; Bo's first dropped
     * (each run finds Bo's keys dropped until the begin) */
    ck_assert_uint_eq(s.progress_written, s0.progress_written + 5);
    ck_assert_uint_eq(s.progress_dropped, s0.progress_dropped + 1);
    /* Zed's, it, the flush, the login */
    ck_assert_uint_eq(s.batches, s0.batches + 4);
    ck_assert_int_eq(logged("a batch of 8 requests ended by a deadlock"
                            " (deadlock detected); ran it again"), 1);
    ck_assert_int_eq(logged(" error "), 1); /* (Bo's, before) */

    /* the keys go on from there: nothing was marked lost */
    give(a, &pa, ann, 5);
    give(a, &py, yan, 5);
    give(a, &pb, bo, 5);
    flush(a);
    store_close(a);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 2);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE score = 200"
             " AND account_id = %lld", (long long)ann);
    ck_assert_int_eq(sw_int(sql), 1);
    assert_keys(ann, &pa);
    assert_keys(yan, &py);
    assert_keys(zed, &pz);
    assert_keys(bo, &pb);
    ck_assert_int_eq(logged(" error "), 1);
    log_restore();
    unlink(logpath);
    buf_free(&got.bytes);
    player_free(&pa);
    player_free(&py);
    player_free(&pz);
    player_free(&pb);
}
END_TEST

/* A trigger on the games' table that ends the transaction of each of the
 * next `times` inserts as PostgreSQL ends one to break a deadlock or a
 * serialization conflict (sqlstate 40P01 or 40001, with its message), as
 * often as asked and no more: its count is a sequence, which a
 * transaction rolled back does not take back. */
static void games_ended(int times, const char *sqlstate, const char *msg)
{
    char sql[1024];
    snprintf(sql, sizeof sql, "CREATE SEQUENCE ends;"
             " CREATE FUNCTION end_it() RETURNS trigger LANGUAGE plpgsql AS"
             " $$ BEGIN IF nextval('ends') <= %d THEN RAISE EXCEPTION '%s'"
             " USING ERRCODE = '%s'; END IF; RETURN NEW; END $$;"
             " CREATE TRIGGER end_it BEFORE INSERT ON games FOR EACH ROW"
             " EXECUTE FUNCTION end_it()", times, msg, sqlstate);
    sw_exec(sql);
}

/* How many inserts of a game the trigger has seen (the batch's runs). */
static long long games_tried(void)
{
    return sw_int("SELECT last_value FROM ends");
}

/* A batch (Ann's keys, a finished game, a read of an earlier game's
 * record) queued as one behind Zed's keys, held on a connection until
 * the batch is whole; the loop run until all is answered. */
typedef struct batch_seen {
    store_fixture_record_t got;
    store_stats_t before, after;
} batch_seen_t;

static void batch_of_three(store_t *a, batch_seen_t *b, int64_t ann,
                           gamer_t *pa, int64_t zed, gamer_t *pz,
                           long long game1)
{
    store_stats(a, &b->before);
    PGconn *first = hold_game(zed);
    give(a, pz, zed, 5);
    wait_blocked(first, 1);
    give(a, pa, ann, 15);
    store_game_t g = finished(ann, "Ann", 300);
    ck_assert_int_eq(store_add_game(a, &g, NULL, 0), 0);
    memset(&b->got, 0, sizeof b->got);
    ck_assert_int_eq(store_get_record(a, game1, store_fixture_on_record, &b->got), 0);
    hold_end(first, "COMMIT");
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(b->got.calls, 1);
    store_stats(a, &b->after);
}

/* Ann's game, begun and flushed; the id of a finished game of hers with
 * a record (for the batch's read). */
static long long ann_ready(store_t *a, int64_t ann, gamer_t *pa,
                           int64_t zed, gamer_t *pz)
{
    begin(a, pa, ann, 0xa22);
    begin(a, pz, zed, 0x2ed);
    give(a, pa, ann, 20);
    store_game_t g = finished(ann, "Ann", 100);
    ck_assert_int_eq(store_add_game(a, &g, "rec", 3), 0);
    flush(a);
    return sw_int("SELECT max(id) FROM games");
}

/* A serialization failure (40001) is run again as a deadlock is, and a
 * batch ended twice runs a third time: it stands, written once, with two
 * info lines and no error. */
START_TEST(batch_ended_twice_runs_a_third_time)
{
    log_to_file();
    store_t *a = store_fixture_open(&fast);
    int64_t ann = store_fixture_account(a, "Ann");
    int64_t zed = store_fixture_account(a, "Zed");
    gamer_t pa, pz;
    long long game1 = ann_ready(a, ann, &pa, zed, &pz);
    games_ended(2, "40001", "could not serialize access due to concurrent"
                " update");
    batch_seen_t b;
    batch_of_three(a, &b, ann, &pa, zed, &pz, game1);
    ck_assert_int_eq(games_tried(), 3);
    ck_assert_int_eq(b.got.r.status, STORE_OK);
    ck_assert_uint_eq(b.got.bytes.len, 3);
    ck_assert_uint_eq(store_failed_batches(a), 0);
    ck_assert_uint_eq(store_rerun_batches(a), 2);
    ck_assert_int_eq(store_healthy(a), 1);
    ck_assert_uint_eq(b.after.games_written, b.before.games_written + 1);
    ck_assert_uint_eq(b.after.progress_written,
                      b.before.progress_written + 2);
    ck_assert_uint_eq(b.after.batches, b.before.batches + 2);
    ck_assert_int_eq(logged("a batch of 3 requests ended by a deadlock"
                            " (could not serialize access due to"
                            " concurrent update); ran it again"), 2);
    ck_assert_int_eq(logged(" error "), 0);
    store_close(a);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE score = 300"),
                     1);
    assert_keys(ann, &pa);
    assert_keys(zed, &pz);
    log_restore();
    unlink(logpath);
    buf_free(&b.got.bytes);
    player_free(&pa);
    player_free(&pz);
}
END_TEST

/* A batch ended three times running is not run a fourth: it fails once,
 * as any failed batch (one failed batch, its finished game held, not
 * lost, the keys dropped, the read answered STORE_ERROR once, writes said
 * to be failing once, with the database's reason), after two info lines.
 * The held game's tries, ended as deadlocks still, are no refusal by the
 * database: tried again and again (a fourth time and more), never given
 * up; its last try as the store closes fails too, and it is lost then. */
START_TEST(batch_ended_three_times_fails_once)
{
    log_to_file();
    store_t *a = store_fixture_open(&fast);
    int64_t ann = store_fixture_account(a, "Ann");
    int64_t zed = store_fixture_account(a, "Zed");
    gamer_t pa, pz;
    long long game1 = ann_ready(a, ann, &pa, zed, &pz);
    games_ended(1000, "40P01", "deadlock detected");
    batch_seen_t b;
    batch_of_three(a, &b, ann, &pa, zed, &pz, game1);
    ck_assert_int_eq(games_tried(), 3);
    ck_assert_int_eq(b.got.r.status, STORE_ERROR);
    ck_assert_uint_eq(store_failed_batches(a), 1);
    ck_assert_uint_eq(store_rerun_batches(a), 2); /* no third */
    ck_assert_int_eq(store_healthy(a), 0);
    ck_assert_uint_eq(b.after.games_written, b.before.games_written);
    ck_assert_uint_eq(b.after.games_lost, b.before.games_lost); /* held */
    ck_assert_uint_eq(b.after.progress_written,
                      b.before.progress_written + 1); /* Zed's */
    ck_assert_uint_eq(b.after.progress_dropped,
                      b.before.progress_dropped + 1);
    ck_assert_uint_eq(b.after.batches, b.before.batches + 2);
    ck_assert_int_eq(logged("a batch of 3 requests ended by a deadlock"
                            " (deadlock detected); ran it again"), 2);
    ck_assert_int_eq(logged("writes are failing (deadlock detected)"), 1);
    ck_assert_int_eq(logged(" error "), 1);
    /* the batch's three runs, then four held tries (a second apart) */
    uint64_t end = uv_hrtime() / 1000000u + 15000;
    while (games_tried() < 7 && uv_hrtime() / 1000000u < end)
        nanosleep(&(struct timespec){ 0, 10 * 1000000L }, NULL);
    ck_assert_int_ge(games_tried(), 7);
    store_stats_t now;
    store_stats(a, &now);
    ck_assert_uint_eq(now.games_lost, b.before.games_lost);
    ck_assert_int_eq(logged("refused it"), 0);
    store_close(a);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE score = 300"),
                     0);
    ck_assert_int_eq(logged("lost (seed"), 1);
    ck_assert_int_eq(logged("its last try failed as the store closed"
                            " (deadlock detected)"), 1);
    log_restore();
    unlink(logpath);
    buf_free(&b.got.bytes);
    player_free(&pa);
    player_free(&pz);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("store_retry");
    TCase *tc = tcase_create("retry");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    /* PostgreSQL's deadlocks and serialization failures: on SQLite (the
     * unit family) there is nothing to run, and no test says it passed */
    if (sw_pg()) {
        tcase_add_test(tc, batch_ended_as_a_deadlock_runs_again);
        tcase_add_test(tc, batch_ended_twice_runs_a_third_time);
        tcase_add_test(tc, batch_ended_three_times_fails_once);
    }
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(suite)
