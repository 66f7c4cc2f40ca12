/* test_progress.c - games in progress and records by id, against a real
 * SQLite file in a temporary directory with a real libuv loop: begin,
 * append and load rebuild the very game (record_resume), across batches,
 * across a close and across a SIGKILL; end drops it, a second begin
 * replaces it; appends that cannot follow on are dropped until the next
 * begin; the queue bound refuses appends only; cancel; a game of another
 * core is stale; the migration from schema 2; store_get_record. Every test
 * ends with uv_loop_close() == 0. */
#include <check.h>
#include <signal.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
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
    store_fixture_setup("/tmp/rogued-prog-XXXXXX");
}

static void teardown(void)
{
    store_fixture_teardown();
}

static store_t *open_with(const store_opts_t *o)
{
    return store_fixture_open(o);
}

#define sql_int sw_int
#define sql_exec sw_exec

/* --- answers ---------------------------------------------------------------- */

static void on_account(void *ctx, const store_account_t *a)
{
    *(store_account_t *)ctx = *a;
}

/* n keys: moves mostly, some waits and a look at the help. */
static void player_keys(gamer_t *p, int n)
{
    static const char set[] = "hjklyubn.hjkl5";
    for (int i = 0; i < n && !game_dead(p->g) && !game_over(p->g); i++)
        record_key(&p->rec, p->g, set[rng_range(&p->keys, 0,
                                                (int)sizeof set - 2)]);
}

/* The loaded game rebuilt is the player's game, to the hash. */
static void assert_resumes(const loaded_t *l, const gamer_t *p)
{
    ck_assert_int_eq(l->p.status, STORE_OK);
    ck_assert_uint_eq(l->p.seed, p->g->seed);
    ck_assert_int_eq(l->p.opt.ruleset, p->g->opt.ruleset);
    ck_assert_uint_eq(l->p.game_version, GAME_VERSION);
    ck_assert_uint_eq(l->keys.len, p->rec.keys.len);
    ck_assert(memcmp(l->keys.data, p->rec.keys.data, l->keys.len) == 0);
    game_t *g;
    record_t r;
    ck_assert_int_eq(record_resume(l->p.seed, &l->p.opt, l->keys.data,
                                   l->keys.len, &g, &r), RECORD_OK);
    ck_assert_uint_eq(game_hash(g), game_hash(p->g));
    ck_assert_uint_eq(r.nkeys, p->rec.nkeys);
    game_free(g);
    record_free(&r);
}

/* --- games in progress -------------------------------------------------------- */

START_TEST(round_trip_rebuilds_the_game)
{
    store_t *st = open_with(&fast);
    int64_t alice = store_fixture_account(st, "Alice");
    gamer_t p;
    player_start(&p, 0xfedcba9876543210ULL, 2);
    ck_assert_int_eq(store_progress_begin(st, alice, 0, p.g->seed, &p.g->opt,
                                          1700000000), 0);
    for (int sec = 0; sec < 8; sec++) {
        player_keys(&p, 40 + sec * 13);
        ck_assert_int_eq(player_send(st, &p, alice, 0), 0);
        if (sec % 3 == 0)
            flush(st); /* some committed apart, some in one batch */
    }
    loaded_t l = load(st, alice);
    ck_assert_int_eq(l.p.account_id, alice);
    ck_assert_int_eq(l.p.started, 1700000000);
    assert_resumes(&l, &p);
    loaded_free(&l);
    /* a few bytes a second, not the record: one row per append */
    store_close(st);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM progress_keys"), 8);
    ck_assert_int_eq(sql_int("SELECT sum(length(keys)) FROM progress_keys"),
                     (long long)p.rec.keys.len);
    ck_assert_int_eq(sql_int("SELECT keys_len FROM progress"),
                     (long long)p.rec.keys.len);
    player_free(&p);
}
END_TEST

/* Hundreds of appends of several accounts, interleaved, in batches of 3:
 * each account's keys come back whole and in order, and across a close
 * and a new open (what a clean shutdown does). */
START_TEST(appends_across_batches_and_restart)
{
    store_opts_t o = fast;
    o.batch_max = 3;
    store_t *st = open_with(&o);
    int64_t id[3];
    gamer_t p[3];
    for (int i = 0; i < 3; i++) {
        char name[24];
        snprintf(name, sizeof name, "Player%d", i);
        id[i] = store_fixture_account(st, name);
        player_start(&p[i], 100 + (uint64_t)i, i);
        ck_assert_int_eq(store_progress_begin(st, id[i], 0, p[i].g->seed,
                                              &p[i].g->opt, 5), 0);
    }
    for (int round = 0; round < 100; round++)
        for (int i = 0; i < 3; i++) {
            player_keys(&p[i], 1 + (round + i) % 5);
            ck_assert_int_eq(player_send(st, &p[i], id[i], 0), 0);
        }
    store_close(st); /* no flush: close writes what is queued */
    st = open_with(&o);
    for (int i = 0; i < 3; i++) {
        loaded_t l = load(st, id[i]);
        assert_resumes(&l, &p[i]);
        loaded_free(&l);
        player_free(&p[i]);
    }
    store_close(st);
}
END_TEST

START_TEST(end_drops_and_begin_replaces)
{
    store_t *st = open_with(&fast);
    int64_t bob = store_fixture_account(st, "Bob"), carol = store_fixture_account(st, "Carol");
    gamer_t p, q;
    player_start(&p, 7, 0);
    player_start(&q, 8, 1);
    ck_assert_int_eq(store_progress_begin(st, bob, 0, 7, &p.g->opt, 1), 0);
    ck_assert_int_eq(store_progress_begin(st, carol, 0, 8, &q.g->opt, 1), 0);
    player_keys(&p, 50);
    player_keys(&q, 50);
    ck_assert_int_eq(player_send(st, &p, bob, 0), 0);
    ck_assert_int_eq(player_send(st, &q, carol, 0), 0);
    /* ended: nothing to resume, no row left; Carol's untouched */
    ck_assert_int_eq(store_progress_end(st, bob, 0, 0, 0), 0);
    loaded_t l = load(st, bob);
    ck_assert_int_eq(l.p.status, STORE_NOT_FOUND);
    ck_assert_uint_eq(l.p.len, 0);
    loaded_free(&l);
    l = load(st, carol);
    assert_resumes(&l, &q);
    loaded_free(&l);

    /* a second begin replaces the first game, keys and all */
    gamer_t q2;
    player_start(&q2, 9, 3);
    ck_assert_int_eq(store_progress_begin(st, carol, 0, 9, &q2.g->opt, 2), 0);
    player_keys(&q2, 30);
    ck_assert_int_eq(player_send(st, &q2, carol, 0), 0);
    l = load(st, carol);
    assert_resumes(&l, &q2);
    ck_assert_int_eq(l.p.started, 2);
    loaded_free(&l);
    store_close(st);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM progress"), 1);
    ck_assert_int_eq(sql_int("SELECT sum(length(keys)) FROM progress_keys"),
                     (long long)q2.rec.keys.len);
    player_free(&p);
    player_free(&q);
    player_free(&q2);
}
END_TEST

START_TEST(load_of_none)
{
    store_t *st = open_with(&fast);
    int64_t dave = store_fixture_account(st, "Dave");
    loaded_t l = load(st, dave);
    ck_assert_int_eq(l.p.status, STORE_NOT_FOUND);
    ck_assert_int_eq(l.p.account_id, dave);
    loaded_free(&l);
    /* guests (account 0) have none, and cannot have one */
    l = load(st, 0);
    ck_assert_int_eq(l.p.status, STORE_NOT_FOUND);
    loaded_free(&l);
    ck_assert_int_eq(store_progress_begin(st, 0, 0, 1, NULL, 1), -1);
    ck_assert_int_eq(store_progress_append(st, 0, 0, "h", 1), -1);
    ck_assert_int_eq(store_progress_end(st, 0, 0, 0, 0), -1);
    /* an empty append is nothing */
    ck_assert_int_eq(store_progress_append(st, dave, 0, "", 0), 0);
    /* begun with no key yet: found, empty */
    ck_assert_int_eq(store_progress_begin(st, dave, 0, 77, NULL, 3), 0);
    l = load(st, dave);
    ck_assert_int_eq(l.p.status, STORE_OK);
    ck_assert_uint_eq(l.p.seed, 77);
    ck_assert_uint_eq(l.p.len, 0);
    loaded_free(&l);
    store_close(st);
}
END_TEST

/* Keys that cannot follow on (no game in progress: its begin was lost or
 * never made) are dropped, and so are the account's later ones until a
 * begin: the rows are always a prefix of one game's keys. */
START_TEST(appends_without_a_game_are_dropped)
{
    store_t *st = open_with(&fast);
    int64_t erin = store_fixture_account(st, "Erin");
    ck_assert_int_eq(store_progress_append(st, erin, 0, "hjkl", 4), 0);
    ck_assert_int_eq(store_progress_append(st, erin, 0, "yubn", 4), 0);
    flush(st);
    ck_assert_int_eq(load(st, erin).p.status, STORE_NOT_FOUND);
    /* a begin the database refuses (no such account) leaves none either */
    ck_assert_int_eq(store_progress_begin(st, 424242, 0, 1, NULL, 1), 0);
    ck_assert_int_eq(store_progress_append(st, 424242, 0, "hjkl", 4), 0);
    loaded_t l = load(st, 424242);
    ck_assert_int_eq(l.p.status, STORE_NOT_FOUND);
    loaded_free(&l);
    store_stats_t s;
    store_stats(st, &s);
    ck_assert_uint_eq(s.progress_dropped, 4);
    /* the next begin starts clean */
    gamer_t p;
    player_start(&p, 31, 0);
    ck_assert_int_eq(store_progress_begin(st, erin, 0, 31, NULL, 1), 0);
    player_keys(&p, 20);
    ck_assert_int_eq(player_send(st, &p, erin, 0), 0);
    l = load(st, erin);
    assert_resumes(&l, &p);
    loaded_free(&l);
    store_stats(st, &s);
    ck_assert_uint_eq(s.progress_written, 2);
    store_close(st);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM progress_keys"), 1);
    player_free(&p);
}
END_TEST

/* Takes the progress tables from the store (another connection's write
 * lock): its writes fail after opts.busy_ms. Undone by unlock_tables. */
typedef struct lock { sqlite3 *db; PGconn *pg; } lock_t;

static lock_t lock_tables(void)
{
    lock_t k = { NULL, NULL };
    if (sw_pg()) {
        k.pg = PQconnectdb(sw_url);
        ck_assert_int_eq(PQstatus(k.pg), CONNECTION_OK);
        PGresult *r = PQexec(k.pg, "BEGIN; LOCK TABLE progress, progress_keys"
                                   " IN ACCESS EXCLUSIVE MODE");
        /* checked: a test that goes on without the lock fails later, far
         * from why */
        ck_assert_msg(PQresultStatus(r) == PGRES_COMMAND_OK, "LOCK TABLE: %s",
                      PQerrorMessage(k.pg));
        PQclear(r);
    } else {
        ck_assert_int_eq(sqlite3_open(dbpath, &k.db), SQLITE_OK);
        ck_assert_int_eq(sqlite3_exec(k.db, "BEGIN IMMEDIATE", NULL, NULL,
                                      NULL), SQLITE_OK);
    }
    return k;
}

static void unlock_tables(lock_t *k)
{
    if (k->pg) {
        PGresult *r = PQexec(k->pg, "COMMIT");
        ck_assert_msg(PQresultStatus(r) == PGRES_COMMAND_OK, "COMMIT: %s",
                      PQerrorMessage(k->pg));
        PQclear(r);
        PQfinish(k->pg);
    } else {
        ck_assert_int_eq(sqlite3_exec(k->db, "COMMIT", NULL, NULL, NULL),
                         SQLITE_OK);
        sqlite3_close(k->db);
    }
}

/* Waits for a flush's answer, whatever it is (STORE_ERROR if its own
 * batch failed). */
static void flush_answered(store_t *st)
{
    int status = -1;
    ck_assert_int_eq(store_flush(st, progress_on_flush, &status), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_ne(status, -1);
}

/* Keys whose append failed break the account's game: its later appends
 * are dropped, the store keeping a prefix. A login that loads that prefix
 * and plays on from it is where the keys follow on again: what it appends
 * is kept. */
START_TEST(a_load_is_where_keys_follow_on_after_a_failure)
{
    store_opts_t o = fast;
    o.busy_ms = 20; /* do not wait long for the lock below */
    store_t *st = open_with(&o);
    int64_t erin = store_fixture_account(st, "Erin");
    gamer_t p;
    player_start(&p, 41, 0);
    ck_assert_int_eq(store_progress_begin(st, erin, 0, 41, NULL, 1), 0);
    player_keys(&p, 10);
    ck_assert_int_eq(player_send(st, &p, erin, 0), 0);
    flush(st);
    size_t kept = p.rec.keys.len;
    lock_t k = lock_tables();
    player_keys(&p, 5);
    ck_assert_int_eq(player_send(st, &p, erin, 0), 0);
    /* Answered once the append's batch is over. Its own batch may be
     * another, which wrote nothing and so committed even on a locked
     * database (PostgreSQL): the failure is read from the count. */
    flush_answered(st);
    ck_assert_uint_ge(store_failed_batches(st), 1);
    unlock_tables(&k);
    player_keys(&p, 5); /* dropped: they follow keys the store lost */
    ck_assert_int_eq(player_send(st, &p, erin, 0), 0);
    flush(st);
    loaded_t l = load(st, erin);
    ck_assert_int_eq(l.p.status, STORE_OK);
    ck_assert_uint_eq(l.keys.len, kept);
    /* the player goes on from what was loaded */
    gamer_t r;
    memset(&r, 0, sizeof r);
    ck_assert_int_eq(record_resume(l.p.seed, &l.p.opt, l.keys.data,
                                   l.keys.len, &r.g, &r.rec), RECORD_OK);
    loaded_free(&l);
    r.sent = r.rec.keys.len;
    rng_seed(&r.keys, 99);
    player_keys(&r, 7);
    ck_assert_int_eq(player_send(st, &r, erin, 0), 0);
    flush(st);
    l = load(st, erin);
    assert_resumes(&l, &r);
    loaded_free(&l);
    store_close(st);
    player_free(&p);
    player_free(&r);
}
END_TEST

/* Past max_queued_progress appends are refused (the caller keeps the
 * bytes and sends them with the next), begins and ends never are; what is
 * stored is exactly what was accepted. The database thread is held up by
 * another connection's write lock meanwhile, so the queue really fills. */
START_TEST(queue_bound_refuses_appends_only)
{
    store_opts_t o = fast;
    o.max_queued_progress = 2;
    store_t *st = open_with(&o);
    int64_t frank = store_fixture_account(st, "Frank"), gina = store_fixture_account(st, "Gina");
    gamer_t p;
    player_start(&p, 55, 0);
    lock_t k = lock_tables();
    ck_assert_int_eq(store_progress_begin(st, frank, 0, 55, NULL, 1), 0);
    int refused = 0;
    for (int i = 0; i < 20; i++) {
        player_keys(&p, 3);
        refused += player_send(st, &p, frank, 0) != 0;
    }
    ck_assert_int_ge(refused, 15);
    /* never refused: begins and ends */
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(store_progress_begin(st, gina, 0, 1, NULL, 1), 0);
        ck_assert_int_eq(store_progress_end(st, gina, 0, 0, 0), 0);
    }
    store_stats_t s;
    store_stats(st, &s);
    ck_assert_uint_ge(s.queued_progress, 10);
    unlock_tables(&k);
    flush(st); /* the queue drains */
    /* the rest goes with the next append */
    ck_assert_int_eq(player_send(st, &p, frank, 0), 0);
    loaded_t l = load(st, frank);
    assert_resumes(&l, &p);
    loaded_free(&l);
    ck_assert_int_eq(load(st, gina).p.status, STORE_NOT_FOUND);
    store_stats(st, &s);
    ck_assert_uint_eq(s.progress_dropped, (uint64_t)refused);
    store_close(st);
    player_free(&p);
}
END_TEST

/* Key bytes waiting count against max_queued_bytes too. */
START_TEST(queue_byte_bound)
{
    store_opts_t o = fast;
    o.max_queued_bytes = 100;
    store_t *st = open_with(&o);
    int64_t lee = store_fixture_account(st, "Lee");
    char keys[150];
    memset(keys, '.', sizeof keys);
    ck_assert_int_eq(store_progress_begin(st, lee, 0, 1, NULL, 1), 0);
    ck_assert_int_eq(store_progress_append(st, lee, 0, keys, 150), -1);
    ck_assert_int_eq(store_progress_append(st, lee, 0, keys, 50), 0);
    loaded_t l = load(st, lee);
    ck_assert_int_eq(l.p.status, STORE_OK);
    ck_assert_uint_eq(l.p.len, 50);
    loaded_free(&l);
    store_stats_t s;
    store_stats(st, &s);
    ck_assert_uint_eq(s.progress_dropped, 1);
    ck_assert_uint_eq(s.queued_progress, 0);
    store_close(st);
}
END_TEST

START_TEST(cancel_drops_the_answer)
{
    store_t *st = open_with(&fast);
    int64_t hal = store_fixture_account(st, "Hal");
    ck_assert_int_eq(store_progress_begin(st, hal, 0, 3, NULL, 1), 0);
    loaded_t gone, keep;
    memset(&gone, 0, sizeof gone);
    memset(&keep, 0, sizeof keep);
    ck_assert_int_eq(store_progress_load(st, hal, progress_on_load, &gone), 0);
    ck_assert_int_eq(store_progress_load(st, 0, progress_on_load, &gone), 0);
    ck_assert_int_eq(store_progress_load(st, hal, progress_on_load, &keep), 0);
    store_cancel(st, &gone);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(gone.calls, 0);
    ck_assert_int_eq(keep.calls, 1);
    ck_assert_int_eq(keep.p.status, STORE_OK);
    loaded_free(&keep);
    /* owed at close: dropped */
    ck_assert_int_eq(store_progress_load(st, hal, progress_on_load, &gone), 0);
    store_close(st);
    ck_assert_int_eq(gone.calls, 0);
}
END_TEST

/* A game in progress left by another core cannot be replayed by this one:
 * STORE_STALE, with what it is, so that the host can say so and end it. */
START_TEST(other_core_is_stale)
{
    store_t *st = open_with(&fast);
    int64_t ivy = store_fixture_account(st, "Ivy");
    ck_assert_int_eq(store_progress_begin(st, ivy, 0, 12, NULL, 1), 0);
    ck_assert_int_eq(store_progress_append(st, ivy, 0, "hj", 2), 0);
    flush(st);
    char sql[96];
    snprintf(sql, sizeof sql, "UPDATE progress SET game_version = %d",
             GAME_VERSION + 1);
    sql_exec(sql);
    loaded_t l = load(st, ivy);
    ck_assert_int_eq(l.p.status, STORE_STALE);
    ck_assert_uint_eq(l.p.game_version, GAME_VERSION + 1);
    ck_assert_uint_eq(l.p.seed, 12);
    ck_assert_uint_eq(l.p.len, 2);
    loaded_free(&l);
    store_close(st);
}
END_TEST

/* A SIGKILL loses nothing the store had committed: a child process plays,
 * appends, waits for a flush, appends a little more and is killed; the
 * file then holds at least everything before the flush, and only a prefix
 * of everything appended. */
START_TEST(sigkill_keeps_what_was_committed)
{
    int pipefd[2];
    ck_assert_int_eq(pipe(pipefd), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        uv_loop_t l2;
        uv_loop_init(&l2);
        char err[512];
        store_t *st = store_open(&l2, dir, &fast, err, sizeof err);
        if (!st)
            _exit(2);
        store_account_t a = { .status = -1 };
        store_register(st, "Judy", "password", on_account, &a);
        uv_run(&l2, UV_RUN_DEFAULT);
        gamer_t p;
        player_start(&p, 2024, 1);
        store_progress_begin(st, a.id, 0, 2024, &p.g->opt, 1);
        for (int i = 0; i < 10; i++) {
            player_keys(&p, 25);
            player_send(st, &p, a.id, 0);
        }
        int status = -1;
        store_flush(st, progress_on_flush, &status);
        uv_run(&l2, UV_RUN_DEFAULT);
        size_t committed = p.sent;
        player_keys(&p, 25);
        player_send(st, &p, a.id, 0);
        /* tell the parent what was committed and every key, then die */
        if (status != STORE_OK || write(pipefd[1], &committed, sizeof committed) < 0 ||
            write(pipefd[1], &p.rec.keys.len, sizeof p.rec.keys.len) < 0 ||
            write(pipefd[1], p.rec.keys.data, p.rec.keys.len) < 0)
            _exit(3);
        kill(getpid(), SIGKILL);
        _exit(4);
    }
    close(pipefd[1]);
    int wst;
    ck_assert_int_eq(waitpid(pid, &wst, 0), pid);
    ck_assert_msg(WIFSIGNALED(wst) && WTERMSIG(wst) == SIGKILL,
                  "child status %d", wst);
    size_t committed, total;
    ck_assert_int_eq(read(pipefd[0], &committed, sizeof committed),
                     sizeof committed);
    ck_assert_int_eq(read(pipefd[0], &total, sizeof total), sizeof total);
    char *all = malloc(total);
    size_t got = 0;
    while (got < total) {
        ssize_t n = read(pipefd[0], all + got, total - got);
        ck_assert_int_gt(n, 0);
        got += (size_t)n;
    }
    close(pipefd[0]);

    store_t *st = open_with(&fast);
    loaded_t l = load(st, 1);
    ck_assert_int_eq(l.p.status, STORE_OK);
    ck_assert_uint_ge(l.keys.len, committed);
    ck_assert_uint_le(l.keys.len, total);
    ck_assert(memcmp(l.keys.data, all, l.keys.len) == 0);
    /* and it replays as the same game, at the point it reached */
    game_t *g, *want = game_new(2024, &l.p.opt);
    record_t r;
    ck_assert_int_eq(record_resume(l.p.seed, &l.p.opt, l.keys.data,
                                   l.keys.len, &g, &r), RECORD_OK);
    size_t pos = 0;
    int key;
    record_t view = { .keys = { .data = all, .len = l.keys.len } };
    while (record_next_key(&view, &pos, &key) == 0)
        game_key(want, key);
    ck_assert_uint_eq(game_hash(g), game_hash(want));
    game_free(g);
    game_free(want);
    record_free(&r);
    loaded_free(&l);
    free(all);
    store_close(st);
}
END_TEST

/* --- the schema ---------------------------------------------------------------- */

START_TEST(migrates_from_version_2)
{
    char err[512];
    ck_assert_int_eq(store_create_at_version(sw_where(), 2, err, sizeof err), 0);
    ck_assert_int_eq(sw_version(), 2);
    ck_assert_int_eq(sw_objects("'progress', 'progress_keys'"), 0);
    /* what a version-2 server left: an account and a game with its record */
    buf_t rec;
    buf_init(&rec, 0);
    {
        game_t *g = game_new(42, NULL);
        record_t r;
        ck_assert_int_eq(record_init(&r, g, 0), 0);
        for (int i = 0; i < 10; i++)
            record_key(&r, g, "hjkl"[i % 4]);
        ck_assert_int_eq(record_finish(&r, g), 0);
        ck_assert_int_eq(record_encode(&r, &rec), 0);
        record_free(&r);
        game_free(g);
    }
    /* the record as a hex literal, in each dialect */
    char *sql = malloc(256 + 2 * rec.len);
    ck_assert_ptr_nonnull(sql);
    int n = sprintf(sql, "INSERT INTO accounts VALUES (7, 'Old_Timer', 'x', 1);"
                    " INSERT INTO games VALUES (5, 'Old_Timer', 7, 0, 42, 321,"
                    " 3, 10, 9, 'quit', 100, 200, %s", sw_pg() ? "decode('"
                                                              : "X'");
    for (size_t i = 0; i < rec.len; i++)
        n += sprintf(sql + n, "%02x", ((const unsigned char *)rec.data)[i]);
    sprintf(sql + n, "%s)", sw_pg() ? "', 'hex')" : "'");
    sw_exec(sql);
    free(sql);
    sw_ids_follow();

    store_t *st = open_with(&fast);
    ck_assert_int_eq(sw_version(), STORE_SCHEMA_VERSION);
    ck_assert_int_eq(sw_objects("'progress', 'progress_keys'"), 2);
    /* the old game is there, and the account can have a game in progress */
    ck_assert_int_eq(store_progress_begin(st, 7, 0, 1, NULL, 1), 0);
    ck_assert_int_eq(store_progress_append(st, 7, 0, "hj", 2), 0);
    loaded_t l = load(st, 7);
    ck_assert_int_eq(l.p.status, STORE_OK);
    ck_assert_uint_eq(l.p.len, 2);
    loaded_free(&l);
    store_close(st);
    ck_assert_int_eq(sql_int("SELECT score FROM games WHERE id = 5"), 321);
    ck_assert_int_eq(sql_int("SELECT length(record) FROM games WHERE id = 5"),
                     (long long)rec.len);
    buf_free(&rec);
}
END_TEST

/* --- records by id --------------------------------------------------------------- */

static store_fixture_record_t get_record(store_t *st, int64_t id)
{
    store_fixture_record_t g;
    memset(&g, 0, sizeof g);
    ck_assert_int_eq(store_get_record(st, id, store_fixture_on_record, &g), 0);
    ck_assert_int_eq(g.calls, 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(g.calls, 1);
    return g;
}

START_TEST(get_record_found_or_not)
{
    store_t *st = open_with(&fast);
    int64_t kim = store_fixture_account(st, "Kim");
    /* game 1: Kim's, with its record (store_end_game); game 2: no record */
    game_t *g = game_new(0x8000000000000001ULL, NULL);
    record_t rec;
    ck_assert_int_eq(record_init(&rec, g, 0), 0);
    for (int i = 0; i < 500; i++)
        record_key(&rec, g, "hjklyubn."[i % 9]);
    uint64_t final = game_hash(g);
    store_game_t row;
    memset(&row, 0, sizeof row);
    snprintf(row.name, sizeof row.name, "Kim");
    row.account_id = kim;
    row.ruleset = 0;
    row.seed = g->seed;
    row.score = 17;
    row.depth = 1;
    row.turns = (int)g->turn;
    row.kills = 2;
    snprintf(row.cause, sizeof row.cause, "quit");
    row.started = 1000;
    row.ended = 2000;
    ck_assert_int_eq(store_end_game(st, &row, g, &rec), 0);
    record_free(&rec);
    store_game_t row2 = row;
    snprintf(row2.name, sizeof row2.name, "guest-9");
    row2.account_id = 0;
    ck_assert_int_eq(store_add_game(st, &row2, NULL, 0), 0);

    store_fixture_record_t a = get_record(st, 1);
    ck_assert_int_eq(a.r.status, STORE_OK);
    ck_assert_int_eq(a.r.game_id, 1);
    ck_assert_str_eq(a.r.game.name, "Kim");
    ck_assert_int_eq(a.r.game.account_id, kim);
    ck_assert_uint_eq(a.r.game.seed, 0x8000000000000001ULL);
    ck_assert_int_eq(a.r.game.score, 17);
    ck_assert_int_eq(a.r.game.turns, row.turns);
    ck_assert_int_eq(a.r.game.kills, 2);
    ck_assert_str_eq(a.r.game.cause, "quit");
    ck_assert_int_eq(a.r.game.started, 1000);
    ck_assert_int_eq(a.r.game.ended, 2000);
    record_replay_t out;
    ck_assert_int_eq(record_replay(a.bytes.data, a.bytes.len, &out, NULL),
                     RECORD_OK);
    ck_assert_uint_eq(out.final_hash, final);
    buf_free(&a.bytes);

    store_fixture_record_t b = get_record(st, 2);
    ck_assert_int_eq(b.r.status, STORE_NO_RECORD);
    ck_assert_str_eq(b.r.game.name, "guest-9");
    ck_assert_int_eq(b.r.game.account_id, 0);
    ck_assert_uint_eq(b.r.len, 0);
    buf_free(&b.bytes);

    int64_t none[] = { 3, 0, -1, INT64_MAX };
    for (int i = 0; i < 4; i++) {
        store_fixture_record_t c = get_record(st, none[i]);
        ck_assert_int_eq(c.r.status, STORE_NOT_FOUND);
        ck_assert_str_eq(c.r.game.name, "");
        buf_free(&c.bytes);
    }
    /* cancelled: no answer */
    store_fixture_record_t gone;
    memset(&gone, 0, sizeof gone);
    ck_assert_int_eq(store_get_record(st, 1, store_fixture_on_record, &gone), 0);
    store_cancel(st, &gone);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(gone.calls, 0);
    ck_assert_str_eq(store_status_name(STORE_NO_RECORD), "no record");
    ck_assert_str_eq(store_status_name(STORE_NOT_FOUND), "not found");
    store_close(st);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create(sw_pg() ? "progress (PostgreSQL)" : "progress");
    TCase *tc = tcase_create("progress");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, round_trip_rebuilds_the_game);
    tcase_add_test(tc, appends_across_batches_and_restart);
    tcase_add_test(tc, end_drops_and_begin_replaces);
    tcase_add_test(tc, load_of_none);
    tcase_add_test(tc, appends_without_a_game_are_dropped);
    tcase_add_test(tc, queue_bound_refuses_appends_only);
    tcase_add_test(tc, queue_byte_bound);
    tcase_add_test(tc, cancel_drops_the_answer);
    tcase_add_test(tc, other_core_is_stale);
    tcase_add_test(tc, sigkill_keeps_what_was_committed);
    tcase_add_test(tc, migrates_from_version_2);
    tcase_add_test(tc, get_record_found_or_not);
    tcase_add_test(tc, a_load_is_where_keys_follow_on_after_a_failure);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
