/* test_progress_snapshot.c - the latest snapshot of a game in progress in
 * the store (store_progress_snapshot), against a real SQLite file (or in
 * the pg family a PostgreSQL database: tests/store_where.h) with a real
 * libuv loop: saved and read back byte for byte after a close and an
 * open, replaced by a newer one, dropped when the game ends or a new one
 * begins, ignored for an account with no game in progress, refused with
 * checks that do not fit its key; a rebuild from it (the record player
 * with a recorder, record_player_resume_at) is the very game and goes on
 * to the very record an uninterrupted game makes; the migration from
 * schema 4 keeps a game in progress, without a snapshot. Every test ends
 * with uv_loop_close() == 0. */
#include <check.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "check_main.h"
#include "game.h"
#include "record.h"
#include "rng.h"
#include "store.h"
#include "progress_fixture.h"
#include "store_fixture.h"
#include "store_where.h"


static void setup(void)
{
    store_fixture_setup("/tmp/rogued-snap-XXXXXX");
}

static void teardown(void)
{
    store_fixture_teardown();
}

static store_t *open_store(void)
{
    return store_fixture_open(&fast);
}

#define sql_int sw_int

/* A player as a session keeps one: the game, its recorder, the key bytes
 * handed to the store, and the copy taken at its latest snapshot. */
typedef struct gamer {
    game_t *g;
    record_t rec;
    size_t sent;
    rng_t keys;
    game_t *snap;
    uint32_t snap_keys;
    size_t snap_pos;
    buf_t snap_checks;
} gamer_t;

static void player_start(gamer_t *p, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    p->g = game_new(seed, NULL);
    ck_assert_ptr_nonnull(p->g);
    ck_assert_int_eq(record_init(&p->rec, p->g, 0), 0);
    rng_seed(&p->keys, seed ^ 0x5eed);
    buf_init(&p->snap_checks, 0);
}

/* n keys (moves, waits, an unknown key) through the recorder: a key
 * taken or not, never the end of the game (z and . mostly, when low). */
static void player_keys(gamer_t *p, int n)
{
    static const char set[] = "hjklyubn.z";
    for (int i = 0; i < n; i++) {
        int k = game_dead(p->g) ? 'z'
                : set[rng_range(&p->keys, 0, (int)sizeof set - 2)];
        record_key(&p->rec, p->g, k);
    }
}

static void player_send(store_t *st, gamer_t *p, int64_t account)
{
    size_t n = p->rec.keys.len - p->sent;
    ck_assert_int_eq(store_progress_append(st, account, 0,
                                           p->rec.keys.data + p->sent, n), 0);
    p->sent += n;
}

/* A snapshot now (the recorder's keys must be a multiple of the check
 * interval), kept here and handed to the store after the keys. */
static void player_snapshot(store_t *st, gamer_t *p, int64_t account)
{
    ck_assert_uint_eq(p->rec.nkeys % RECORD_CHECK_EVERY, 0);
    player_send(st, p, account);
    game_free(p->snap);
    p->snap = game_clone(p->g);
    p->snap_keys = p->rec.nkeys;
    p->snap_pos = p->rec.keys.len;
    p->snap_checks.len = 0;
    ck_assert_int_eq(buf_append(&p->snap_checks, p->rec.checks.data,
                                p->rec.checks.len), 0);
    ck_assert_int_eq(store_progress_snapshot(st, account, 0, p->g, p->rec.nkeys,
                                             p->rec.keys.len,
                                             p->rec.checks.data,
                                             p->rec.checks.len), 0);
}

static void player_free(gamer_t *p)
{
    game_free(p->g);
    game_free(p->snap);
    record_free(&p->rec);
    buf_free(&p->snap_checks);
}

/* The load holds the player's latest snapshot, byte for byte. */
static void assert_snapshot(const loaded_t *l, const gamer_t *p)
{
    ck_assert_int_eq(l->p.status, STORE_OK);
    ck_assert_ptr_nonnull(l->snap);
    ck_assert_uint_eq(l->p.snap_version, GAME_VERSION);
    ck_assert_uint_eq(l->p.snap_keys, p->snap_keys);
    ck_assert_uint_eq(l->p.snap_pos, p->snap_pos);
    /* The state byte for byte; the derived part after it is worked out on
     * load (world.h), so it may be tighter than the player's. */
    ck_assert(memcmp(l->snap, p->snap, GAME_STATE_SIZE) == 0);
    ck_assert_uint_eq(l->checks.len, p->snap_checks.len);
    ck_assert(memcmp(l->checks.data, p->snap_checks.data, l->checks.len) == 0);
}

/* --- the tests ------------------------------------------------------------- */

/* Saved, read back after a close and an open; then a rebuild from it with
 * a recorder replays only the tail and reaches the very game, whose
 * finished record is byte for byte the uninterrupted one's. */
START_TEST(saved_and_read_back_after_a_restart)
{
    store_t *st = open_store();
    int64_t alice = store_fixture_account(st, "Alice");
    gamer_t p;
    player_start(&p, 0x1234abcdULL);
    ck_assert_int_eq(store_progress_begin(st, alice, 0, p.g->seed, &p.g->opt,
                                          1700000000), 0);
    player_keys(&p, 1024);
    player_snapshot(st, &p, alice);
    player_keys(&p, 300);
    player_send(st, &p, alice);
    store_close(st);
    ck_assert_int_eq(sql_int("SELECT snap_keys FROM progress"), 1024);

    st = open_store();
    loaded_t l = load(st, alice);
    assert_snapshot(&l, &p);
    ck_assert_uint_eq(l.keys.len, p.rec.keys.len);

    record_player_t pl;
    record_t rec;
    game_t *from = game_clone(l.snap);
    ck_assert_int_eq(record_player_resume_at(&pl, from, l.p.snap_keys,
                                             l.keys.data, l.keys.len,
                                             l.p.snap_pos, l.checks.data,
                                             l.checks.len, &rec), RECORD_OK);
    ck_assert_int_eq(record_player_run(&pl, 0), 0);
    ck_assert_uint_eq(pl.fed, p.rec.nkeys); /* 300 of them replayed */
    game_t *g = record_player_take(&pl);
    record_player_free(&pl);
    ck_assert(memcmp(g, p.g, GAME_STATE_SIZE) == 0);
    buf_t a, b;
    buf_init(&a, 0);
    buf_init(&b, 0);
    ck_assert_int_eq(record_finish(&rec, g), 0);
    ck_assert_int_eq(record_finish(&p.rec, p.g), 0);
    ck_assert_int_eq(record_encode(&rec, &a), 0);
    ck_assert_int_eq(record_encode(&p.rec, &b), 0);
    ck_assert_uint_eq(a.len, b.len);
    ck_assert(memcmp(a.data, b.data, a.len) == 0);
    buf_free(&a);
    buf_free(&b);
    record_free(&rec);
    game_free(g);
    loaded_free(&l);
    player_free(&p);
    store_close(st);
}
END_TEST

/* A newer snapshot replaces the older one: one row, the latest answered. */
START_TEST(a_newer_snapshot_replaces_the_older)
{
    store_t *st = open_store();
    int64_t bob = store_fixture_account(st, "Bob");
    gamer_t p;
    player_start(&p, 77);
    ck_assert_int_eq(store_progress_begin(st, bob, 0, p.g->seed, &p.g->opt, 1), 0);
    player_keys(&p, 512);
    player_snapshot(st, &p, bob);
    loaded_t l = load(st, bob);
    assert_snapshot(&l, &p);
    loaded_free(&l);
    player_keys(&p, 768);
    player_snapshot(st, &p, bob);
    player_keys(&p, 10);
    player_send(st, &p, bob);
    l = load(st, bob);
    ck_assert_uint_eq(l.p.snap_keys, 1280);
    assert_snapshot(&l, &p);
    loaded_free(&l);
    store_close(st);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM progress"), 1);
    player_free(&p);
}
END_TEST

/* The game ends: its snapshot goes with it; a new game begins without
 * one; a snapshot for an account with no game in progress is dropped. */
START_TEST(dropped_when_the_game_ends)
{
    store_t *st = open_store();
    int64_t cy = store_fixture_account(st, "Cy");
    gamer_t p;
    player_start(&p, 5);
    ck_assert_int_eq(store_progress_begin(st, cy, 0, p.g->seed, &p.g->opt, 1), 0);
    player_keys(&p, 256);
    player_snapshot(st, &p, cy);
    ck_assert_int_eq(store_progress_end(st, cy, 0, 0, 0), 0);
    loaded_t l = load(st, cy);
    ck_assert_int_eq(l.p.status, STORE_NOT_FOUND);
    ck_assert_ptr_null(l.snap);
    loaded_free(&l);
    /* no game in progress: the snapshot has nothing to belong to */
    store_stats_t before, after;
    store_stats(st, &before);
    ck_assert_int_eq(store_progress_snapshot(st, cy, 0, p.g, p.rec.nkeys,
                                             p.rec.keys.len, p.rec.checks.data,
                                             p.rec.checks.len), 0);
    l = load(st, cy);
    ck_assert_int_eq(l.p.status, STORE_NOT_FOUND);
    loaded_free(&l);
    store_stats(st, &after);
    ck_assert_uint_eq(after.progress_dropped, before.progress_dropped + 1);
    /* the same game begun again (what a restart from the begin does) */
    ck_assert_int_eq(store_progress_begin(st, cy, 0, p.g->seed, &p.g->opt, 1), 0);
    p.sent = 0;
    player_snapshot(st, &p, cy);
    ck_assert_int_eq(store_progress_begin(st, cy, 0, 6, NULL, 2), 0);
    l = load(st, cy);
    ck_assert_int_eq(l.p.status, STORE_OK);
    ck_assert_uint_eq(l.p.seed, 6);
    ck_assert_ptr_null(l.snap); /* the new game has none yet */
    loaded_free(&l);
    store_close(st);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM progress WHERE"
                             " snap_game IS NOT NULL"), 0);
    player_free(&p);
}
END_TEST

/* Checks that are not those of its key: refused at once, nothing queued. */
START_TEST(refused_with_the_wrong_checks)
{
    store_t *st = open_store();
    int64_t di = store_fixture_account(st, "Di");
    gamer_t p;
    player_start(&p, 9);
    ck_assert_int_eq(store_progress_begin(st, di, 0, p.g->seed, &p.g->opt, 1), 0);
    player_keys(&p, 512);
    player_send(st, &p, di);
    ck_assert_int_eq(store_progress_snapshot(st, di, 0, p.g, 512, p.rec.keys.len,
                                             p.rec.checks.data,
                                             p.rec.checks.len - 4), -1);
    ck_assert_int_eq(store_progress_snapshot(st, 0, 0, p.g, 512, p.rec.keys.len,
                                             p.rec.checks.data,
                                             p.rec.checks.len), -1);
    loaded_t l = load(st, di);
    ck_assert_int_eq(l.p.status, STORE_OK);
    ck_assert_ptr_null(l.snap);
    loaded_free(&l);
    player_free(&p);
    store_close(st);
}
END_TEST

/* A snapshot that is not what it says is refused by the record player
 * (the rebuild then replays from the start): not after as many whole keys
 * as it says, or not the game of the check at its key. */
START_TEST(a_snapshot_that_does_not_fit_is_refused)
{
    gamer_t p;
    player_start(&p, 31);
    player_keys(&p, 512);
    game_t *snap = game_clone(p.g);
    size_t pos = p.rec.keys.len;
    buf_t checks;
    buf_init(&checks, 0);
    ck_assert_int_eq(buf_append(&checks, p.rec.checks.data, p.rec.checks.len),
                     0);
    player_keys(&p, 100);
    record_player_t pl;
    record_t rec;
    /* the key count it says is not the keys before its offset */
    ck_assert_int_eq(record_player_resume_at(&pl, game_clone(snap), 256,
                                             p.rec.keys.data, p.rec.keys.len,
                                             pos, checks.data, checks.len,
                                             &rec), RECORD_ECORRUPT);
    record_player_free(&pl);
    record_free(&rec);
    /* its offset past the end of the keys */
    ck_assert_int_eq(record_player_resume_at(&pl, game_clone(snap), 512,
                                             p.rec.keys.data, pos, pos + 1,
                                             checks.data, checks.len, &rec),
                     RECORD_ECORRUPT);
    record_player_free(&pl);
    record_free(&rec);
    /* its offset inside a key */
    ck_assert_int_eq(record_player_resume_at(&pl, game_clone(snap), 512,
                                             p.rec.keys.data, p.rec.keys.len,
                                             pos - 1, checks.data, checks.len,
                                             &rec), RECORD_ECORRUPT);
    record_player_free(&pl);
    record_free(&rec);
    /* the check at its key says another state */
    game_t *wrong = game_clone(snap);
    wrong->player.hp += 1;
    ck_assert_int_eq(record_player_resume_at(&pl, wrong, 512, p.rec.keys.data,
                                             p.rec.keys.len, pos, checks.data,
                                             checks.len, &rec), RECORD_EDRIFT);
    record_player_free(&pl);
    record_free(&rec);
    /* and the right one is taken */
    ck_assert_int_eq(record_player_resume_at(&pl, snap, 512, p.rec.keys.data,
                                             p.rec.keys.len, pos, checks.data,
                                             checks.len, &rec), RECORD_OK);
    ck_assert_int_eq(record_player_run(&pl, 0), 0);
    ck_assert_uint_eq(game_hash(pl.game), game_hash(p.g));
    record_player_free(&pl);
    record_free(&rec);
    buf_free(&checks);
    player_free(&p);
}
END_TEST

/* A schema-4 file with a game in progress: migrated, the game still loads
 * (without a snapshot) and takes one. */
START_TEST(migrates_from_version_4)
{
    char err[512];
    ck_assert_int_eq(store_create_at_version(sw_where(), 4, err, sizeof err), 0);
    sw_exec("INSERT INTO accounts VALUES (7, 'Old_Timer', 'x', 1);"
            "INSERT INTO progress VALUES (7, 5, 42, 0, 100, 2);");
    sw_exec(sw_pg() ? "INSERT INTO progress_keys VALUES (7, 0, '\\x6a6b')"
                    : "INSERT INTO progress_keys VALUES (7, 0, x'6a6b')");
    sw_ids_follow();
    store_t *st = open_store();
    ck_assert_int_eq(sw_version(), STORE_SCHEMA_VERSION);
    loaded_t l = load(st, 7);
    ck_assert_int_eq(l.p.status, GAME_VERSION == 5 ? STORE_OK : STORE_STALE);
    ck_assert_uint_eq(l.p.len, 2);
    ck_assert_ptr_null(l.snap);
    loaded_free(&l);
    store_close(st);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create(sw_pg() ? "progress_snapshot (PostgreSQL)"
                                     : "progress_snapshot");
    TCase *tc = tcase_create("progress_snapshot");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, saved_and_read_back_after_a_restart);
    tcase_add_test(tc, a_newer_snapshot_replaces_the_older);
    tcase_add_test(tc, dropped_when_the_game_ends);
    tcase_add_test(tc, refused_with_the_wrong_checks);
    tcase_add_test(tc, a_snapshot_that_does_not_fit_is_refused);
    tcase_add_test(tc, migrates_from_version_4);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
