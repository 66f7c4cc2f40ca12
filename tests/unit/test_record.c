/* test_record.c - game records: the recorder and its cap, the byte format
 * round trip, replays that reach the recorded hash, drift found where it
 * happens, damaged bytes refused without a crash, and the record player
 * that every rebuild steps. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check_main.h"
#include "game.h"
#include "keys.h"
#include "record.h"
#include "rng.h"

static const int keyset[] = { 'h', 'j', 'k', 'l', 'y', 'u', 'b', 'n', '.',
                              '5', KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT,
                              '?', 'x', KEY_ESC, 'P', 'q', KEY_F12, 0x10ffff,
                              -1, 0, 0x7fffffff };
#define NKEYSET (int)(sizeof keyset / sizeof keyset[0])

/* The i-th key of the test stream: mostly moves, sometimes anything. */
static int stream_key(rng_t *r)
{
    return keyset[rng_range(r, 0, NKEYSET - 1)];
}

/* Plays n keys of stream `kseed` through a recorder and encodes the record
 * into out. Returns the game's final hash. */
static uint64_t make_record(uint64_t seed, int ruleset, int n, uint64_t kseed,
                            buf_t *out)
{
    game_options_t opt = { .ruleset = ruleset };
    game_t *g = game_new(seed, &opt);
    record_t r;
    ck_assert_int_eq(record_init(&r, g, 0), 0);
    rng_t kr;
    rng_seed(&kr, kseed);
    for (int i = 0; i < n; i++)
        record_key(&r, g, stream_key(&kr));
    ck_assert_int_eq(record_finish(&r, g), 0);
    ck_assert_int_eq(record_encode(&r, out), 0);
    uint64_t h = game_hash(g);
    ck_assert_uint_eq(r.final_hash, h);
    ck_assert_uint_eq(r.nkeys, (uint32_t)n);
    ck_assert_int_eq(r.truncated, 0);
    record_free(&r);
    game_free(g);
    return h;
}

static uint32_t fnv32(const uint8_t *p, size_t n)
{
    uint32_t h = 0x811c9dc5u;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x01000193u;
    }
    return h;
}

/* Rewrites the trailing checksum, as if the bytes had been made so. */
static void fix_trailer(uint8_t *p, size_t len)
{
    uint32_t h = fnv32(p, len - 4);
    for (int i = 0; i < 4; i++)
        p[len - 4 + (size_t)i] = (uint8_t)(h >> (8 * i));
}

START_TEST(round_trip)
{
    buf_t a, b;
    buf_init(&a, 0);
    buf_init(&b, 0);
    make_record(777, 2, 1000, 5, &a);
    record_t r;
    ck_assert_int_eq(record_decode(a.data, a.len, &r), RECORD_OK);
    ck_assert_uint_eq(r.seed, 777);
    ck_assert_int_eq(r.opt.ruleset, 2);
    ck_assert_uint_eq(r.game_version, GAME_VERSION);
    ck_assert_uint_eq(r.nkeys, 1000);
    ck_assert_uint_eq(r.checks.len, 4 * (1000 / RECORD_CHECK_EVERY + 1));
    /* the keys come back in order, every value (negative, huge) intact */
    rng_t kr;
    rng_seed(&kr, 5);
    size_t pos = 0;
    for (int i = 0; i < 1000; i++) {
        int k;
        ck_assert_int_eq(record_next_key(&r, &pos, &k), 0);
        ck_assert_int_eq(k, stream_key(&kr));
    }
    int k;
    ck_assert_int_eq(record_next_key(&r, &pos, &k), -1);
    /* and encoding the decoded record gives the same bytes */
    ck_assert_int_eq(record_encode(&r, &b), 0);
    ck_assert_uint_eq(a.len, b.len);
    ck_assert(memcmp(a.data, b.data, a.len) == 0);
    record_free(&r);
    buf_free(&a);
    buf_free(&b);
}
END_TEST

START_TEST(small_keys_take_one_byte)
{
    game_t *g = game_new(1, NULL);
    record_t r;
    ck_assert_int_eq(record_init(&r, g, 0), 0);
    record_key(&r, g, 'h');
    record_key(&r, g, 127);
    ck_assert_uint_eq(r.keys.len, 2);
    record_key(&r, g, KEY_UP); /* 0x110000: three bytes */
    ck_assert_uint_eq(r.keys.len, 5);
    record_key(&r, g, -1);     /* every int survives: five bytes */
    ck_assert_uint_eq(r.keys.len, 10);
    record_free(&r);
    game_free(g);
}
END_TEST

START_TEST(replay_reaches_final_hash)
{
    for (int rules = 0; rules < 4; rules++) {
        buf_t a;
        buf_init(&a, 0);
        uint64_t h = make_record(1000 + (uint64_t)rules, rules, 3000,
                                 (uint64_t)rules, &a);
        record_replay_t out;
        game_t *g = NULL;
        ck_assert_int_eq(record_replay(a.data, a.len, &out, &g), RECORD_OK);
        ck_assert_int_eq(out.drift_at, -1);
        ck_assert_uint_eq(out.keys_replayed, 3000);
        ck_assert_uint_eq(out.final_hash, h);
        ck_assert_ptr_nonnull(g);
        ck_assert_uint_eq(game_hash(g), h);
        ck_assert_int_eq(g->opt.ruleset, rules);
        game_free(g);
        buf_free(&a);
    }
}
END_TEST

START_TEST(empty_game_replays)
{
    game_t *g = game_new(9, NULL);
    record_t r;
    buf_t a;
    buf_init(&a, 0);
    ck_assert_int_eq(record_init(&r, g, 0), 0);
    ck_assert_int_eq(record_encode(&r, &a), -1); /* not finished yet */
    ck_assert_int_eq(record_finish(&r, g), 0);
    ck_assert_int_eq(record_encode(&r, &a), 0);
    record_replay_t out;
    ck_assert_int_eq(record_replay(a.data, a.len, &out, NULL), RECORD_OK);
    ck_assert_uint_eq(out.final_hash, game_hash(g));
    ck_assert_uint_eq(out.keys_replayed, 0);
    record_free(&r);
    buf_free(&a);
    game_free(g);
}
END_TEST

START_TEST(init_and_finish_refuse_mismatched_games)
{
    game_t *g = game_new(3, NULL);
    record_t r;
    game_key(g, '.');
    ck_assert_int_eq(record_init(&r, g, 0), -1); /* not fresh */
    record_free(&r);
    game_free(g);

    g = game_new(3, NULL);
    ck_assert_int_eq(record_init(&r, g, 0), 0);
    record_key(&r, g, '.');
    game_key(g, '.'); /* behind the recorder's back */
    ck_assert_int_eq(record_finish(&r, g), -1);
    record_free(&r);
    game_free(g);
}
END_TEST

/* At the cap: the record keeps every key that fitted and the state there,
 * stops for good (no holes), and still replays exactly. */
START_TEST(cap_truncates_cleanly)
{
    game_t *g = game_new(11, NULL);
    game_t *shadow = game_new(11, NULL);
    record_t r;
    ck_assert_int_eq(record_init(&r, g, 300), 0);
    uint64_t at_cap = 0;
    rng_t kr;
    rng_seed(&kr, 3);
    for (int i = 0; i < 298; i++) {
        int k = "hjkl."[rng_range(&kr, 0, 4)];
        record_key(&r, g, k);
        game_key(shadow, k);
    }
    ck_assert_int_eq(r.truncated, 0);
    /* two bytes left: a three-byte key does not fit, and nothing after it
     * is recorded, not even a one-byte key that would */
    at_cap = game_hash(shadow);
    record_key(&r, g, KEY_UP);
    ck_assert_int_eq(r.truncated, 1);
    record_key(&r, g, 'h');
    ck_assert_uint_eq(r.nkeys, 298);
    ck_assert_uint_eq(r.keys.len, 298);
    ck_assert_uint_eq(g->keys, 300); /* the game got them all */
    ck_assert_int_eq(record_finish(&r, g), 0);
    ck_assert_uint_eq(r.final_hash, at_cap);
    buf_t a;
    buf_init(&a, 0);
    ck_assert_int_eq(record_encode(&r, &a), 0);
    record_t d;
    ck_assert_int_eq(record_decode(a.data, a.len, &d), RECORD_OK);
    ck_assert_int_eq(d.truncated, 1);
    record_free(&d);
    record_replay_t out;
    ck_assert_int_eq(record_replay(a.data, a.len, &out, NULL), RECORD_OK);
    ck_assert_uint_eq(out.keys_replayed, 298);
    ck_assert_uint_eq(out.final_hash, at_cap);
    buf_free(&a);
    record_free(&r);
    game_free(g);
    game_free(shadow);
}
END_TEST

/* A key whose check falls due exactly at the cap. */
START_TEST(cap_at_a_check)
{
    game_t *g = game_new(12, NULL);
    record_t r;
    ck_assert_int_eq(record_init(&r, g, RECORD_CHECK_EVERY), 0);
    for (int i = 0; i < RECORD_CHECK_EVERY + 10; i++)
        record_key(&r, g, '.');
    ck_assert_uint_eq(r.nkeys, RECORD_CHECK_EVERY);
    ck_assert_uint_eq(r.checks.len, 8);
    ck_assert_int_eq(r.truncated, 1);
    ck_assert_int_eq(record_finish(&r, g), 0);
    buf_t a;
    buf_init(&a, 0);
    ck_assert_int_eq(record_encode(&r, &a), 0);
    record_replay_t out;
    ck_assert_int_eq(record_replay(a.data, a.len, &out, NULL), RECORD_OK);
    ck_assert_uint_eq(out.keys_replayed, RECORD_CHECK_EVERY);
    buf_free(&a);
    record_free(&r);
    game_free(g);
}
END_TEST

/* A changed key (bytes made consistent again) is caught at the first check
 * after it: exactly where a simulation of the changed keys first differs. */
START_TEST(drift_found_at_the_check_after_it)
{
    const int n = 1000, changed = 300;
    buf_t a;
    buf_init(&a, 0);
    game_t *g = game_new(21, NULL), *alt = game_new(21, NULL);
    record_t r;
    ck_assert_int_eq(record_init(&r, g, 0), 0);
    int64_t expect = -1;
    for (int i = 0; i < n; i++) {
        /* waits: each takes a turn while the player lives */
        record_key(&r, g, i == changed ? '5' : '.');
        game_key(alt, i == changed ? '?' : '.');
        if ((i + 1) % RECORD_CHECK_EVERY == 0 && expect < 0 &&
            (uint32_t)game_hash(g) != (uint32_t)game_hash(alt))
            expect = i + 1;
    }
    if (expect < 0 && game_hash(g) != game_hash(alt))
        expect = n;
    ck_assert_int_eq(expect, 512); /* the player was alive: turns differ */
    ck_assert_int_eq(record_finish(&r, g), 0);
    ck_assert_int_eq(record_encode(&r, &a), 0);
    /* '5' is one byte, '?' too: swap it in place. The keys start after
     * magic 4, format 1, version 1, seed 8, options 1 + 1, flags 1 and the
     * key count (1000: two bytes). */
    size_t keys_at = 4 + 1 + 1 + 8 + 2 + 1 + 2 + (size_t)changed;
    ck_assert_int_eq(a.data[keys_at], '5');
    ck_assert_int_eq(a.data[keys_at - 1], '.');
    a.data[keys_at] = '?';
    fix_trailer((uint8_t *)a.data, a.len);
    record_replay_t out;
    game_t *rg = NULL;
    ck_assert_int_eq(record_replay(a.data, a.len, &out, &rg), RECORD_EDRIFT);
    ck_assert_int_eq(out.drift_at, expect);
    ck_assert_uint_eq(out.keys_replayed, (uint32_t)expect);
    ck_assert_ptr_nonnull(rg);
    game_free(rg);

    /* a wrong final hash: drift at the end */
    a.data[keys_at] = '5';
    a.data[a.len - 12] ^= 1; /* the final hash's low byte */
    fix_trailer((uint8_t *)a.data, a.len);
    ck_assert_int_eq(record_replay(a.data, a.len, &out, NULL), RECORD_EDRIFT);
    ck_assert_int_eq(out.drift_at, n);
    /* a wrong seed: drift before the first key */
    a.data[a.len - 12] ^= 1;
    a.data[6] ^= 0x40; /* a seed byte (format 1, version < 128) */
    fix_trailer((uint8_t *)a.data, a.len);
    ck_assert_int_eq(record_replay(a.data, a.len, &out, NULL), RECORD_EDRIFT);
    ck_assert_int_eq(out.drift_at, 0);
    record_free(&r);
    buf_free(&a);
    game_free(g);
    game_free(alt);
}
END_TEST

START_TEST(other_core_version_decodes_but_does_not_replay)
{
    buf_t a;
    buf_init(&a, 0);
    make_record(5, 0, 50, 1, &a);
    ck_assert_int_eq((uint8_t)a.data[5], GAME_VERSION);
    a.data[5] = GAME_VERSION + 1;
    fix_trailer((uint8_t *)a.data, a.len);
    record_t r;
    ck_assert_int_eq(record_decode(a.data, a.len, &r), RECORD_OK);
    ck_assert_uint_eq(r.game_version, GAME_VERSION + 1);
    record_free(&r);
    record_replay_t out;
    game_t *g = (game_t *)&out; /* must come back NULL */
    ck_assert_int_eq(record_replay(a.data, a.len, &out, &g), RECORD_EVERSION);
    ck_assert_ptr_null(g);
    /* another format byte */
    a.data[4] = RECORD_FORMAT + 1;
    fix_trailer((uint8_t *)a.data, a.len);
    ck_assert_int_eq(record_decode(a.data, a.len, &r), RECORD_EVERSION);
    record_free(&r);
    buf_free(&a);
}
END_TEST

START_TEST(not_records_refused)
{
    record_t r;
    ck_assert_int_eq(record_decode("", 0, &r), RECORD_EFORMAT);
    record_free(&r);
    ck_assert_int_eq(record_decode("RGRC", 4, &r), RECORD_EFORMAT);
    record_free(&r);
    ck_assert_int_eq(record_decode("SQLite format 3", 16, &r), RECORD_EFORMAT);
    record_free(&r);
    /* cut short, or with bytes after it (checksum made to match) */
    buf_t a;
    buf_init(&a, 0);
    make_record(5, 0, 300, 1, &a);
    for (size_t cut = 0; cut < a.len; cut += 7) {
        ck_assert_int_ne(record_decode(a.data, cut, &r), RECORD_OK);
        record_free(&r);
    }
    uint8_t *longer = malloc(a.len + 1);
    memcpy(longer, a.data, a.len - 4);
    longer[a.len - 4] = 0;
    fix_trailer(longer, a.len + 1);
    ck_assert_int_eq(record_decode(longer, a.len + 1, &r), RECORD_ECORRUPT);
    record_free(&r);
    free(longer);
    buf_free(&a);
}
END_TEST

/* Every single-byte change is refused by decoding; random damage to many
 * bytes never crashes and never passes for a good record. */
START_TEST(corruption_detected)
{
    buf_t a;
    buf_init(&a, 0);
    make_record(8, 1, 600, 2, &a);
    uint8_t *p = malloc(a.len);
    for (size_t i = 0; i < a.len; i++) {
        memcpy(p, a.data, a.len);
        p[i] ^= 0x5a;
        record_replay_t out;
        ck_assert_int_ne(record_replay(p, a.len, &out, NULL), RECORD_OK);
    }
    rng_t rr;
    rng_seed(&rr, 77);
    for (int t = 0; t < 300; t++) {
        memcpy(p, a.data, a.len);
        int n = rng_range(&rr, 1, 20);
        int changed = 0;
        for (int j = 0; j < n; j++) {
            size_t at = (size_t)rng_range(&rr, 0, (int)a.len - 1);
            uint8_t v = (uint8_t)rng_range(&rr, 0, 255);
            changed |= p[at] != v;
            p[at] = v;
        }
        /* half of the time, damage made to look intact: replay finds it */
        int fixed = t & 1;
        if (fixed)
            fix_trailer(p, a.len);
        size_t len = a.len - (size_t)rng_range(&rr, 0, 2);
        record_replay_t out;
        int rc = record_replay(p, len, &out, NULL);
        if (changed && !fixed && len == a.len)
            ck_assert_int_ne(rc, RECORD_OK);
        ck_assert(rc <= 0 && rc >= RECORD_ENOMEM);
    }
    free(p);
    buf_free(&a);
}
END_TEST

START_TEST(strerror_names_every_error)
{
    for (int e = RECORD_OK; e >= RECORD_ENOMEM; e--)
        ck_assert_str_ne(record_strerror(e), "unknown record error");
    ck_assert_str_eq(record_strerror(42), "unknown record error");
}
END_TEST

/* A game cut anywhere (here: at, before and after a check) and rebuilt
 * from its key bytes is the same game, and its new recorder goes on so that
 * the finished record is byte for byte the uninterrupted one. */
START_TEST(resume_continues_exactly)
{
    static const int cuts[] = { 0, 1, 255, 256, 257, 700 };
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        game_options_t opt = { .ruleset = 3 };
        game_t *g = game_new(4711, &opt);
        record_t r;
        ck_assert_int_eq(record_init(&r, g, 0), 0);
        rng_t kr;
        rng_seed(&kr, 99);
        for (int i = 0; i < cuts[c]; i++)
            record_key(&r, g, stream_key(&kr));

        game_t *g2 = NULL;
        record_t r2;
        ck_assert_int_eq(record_resume(4711, &opt, r.keys.data, r.keys.len,
                                       &g2, &r2), RECORD_OK);
        ck_assert_ptr_nonnull(g2);
        ck_assert_uint_eq(game_hash(g2), game_hash(g));
        ck_assert_uint_eq(r2.nkeys, r.nkeys);
        ck_assert_int_eq(g2->opt.ruleset, 3);
        /* both go on with the same keys */
        rng_t kr2 = kr;
        for (int i = 0; i < 300; i++) {
            record_key(&r, g, stream_key(&kr));
            record_key(&r2, g2, stream_key(&kr2));
        }
        ck_assert_uint_eq(game_hash(g2), game_hash(g));
        ck_assert_int_eq(record_finish(&r, g), 0);
        ck_assert_int_eq(record_finish(&r2, g2), 0);
        buf_t a, b;
        buf_init(&a, 0);
        buf_init(&b, 0);
        ck_assert_int_eq(record_encode(&r, &a), 0);
        ck_assert_int_eq(record_encode(&r2, &b), 0);
        ck_assert_uint_eq(a.len, b.len);
        ck_assert(memcmp(a.data, b.data, a.len) == 0);
        buf_free(&a);
        buf_free(&b);
        record_free(&r);
        record_free(&r2);
        game_free(g);
        game_free(g2);
    }
}
END_TEST

START_TEST(resume_refuses_damaged_keys)
{
    static const uint8_t cut[] = { 'h', 0x80 };             /* a cut varint */
    static const uint8_t long6[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 };
    static const uint8_t padded[] = { 0x81, 0x00 };         /* not minimal */
    const struct { const uint8_t *p; size_t n; } bad[] = {
        { cut, sizeof cut }, { long6, sizeof long6 }, { padded, sizeof padded },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        game_t *g = (game_t *)1;
        record_t r;
        ck_assert_int_eq(record_resume(1, NULL, bad[i].p, bad[i].n, &g, &r),
                         RECORD_ECORRUPT);
        ck_assert_ptr_null(g);
        record_free(&r); /* harmless */
    }
    /* no key at all: a fresh game */
    game_t *g;
    record_t r;
    ck_assert_int_eq(record_resume(5, NULL, NULL, 0, &g, &r), RECORD_OK);
    game_t *fresh = game_new(5, NULL);
    ck_assert_uint_eq(game_hash(g), game_hash(fresh));
    ck_assert_uint_eq(r.nkeys, 0);
    game_free(fresh);
    game_free(g);
    record_free(&r);
}
END_TEST

/* --- the record player ------------------------------------------------------ */

/* A live recorder of n keys (not finished): what a player sends watchers. */
static game_t *live_record(uint64_t seed, int n, record_t *r)
{
    game_options_t opt = { .ruleset = 1 };
    game_t *g = game_new(seed, &opt);
    ck_assert_int_eq(record_init(r, g, 0), 0);
    rng_t kr;
    rng_seed(&kr, seed);
    for (int i = 0; i < n; i++)
        record_key(r, g, stream_key(&kr));
    return g;
}

START_TEST(player_steps_a_live_record_to_the_same_game)
{
    record_t r;
    game_t *g = live_record(4242, 3 * RECORD_CHECK_EVERY + 17, &r);
    record_player_t p;
    ck_assert_int_eq(record_player_start(&p, &r, NULL), RECORD_OK);
    int key, n = 0;
    size_t pos = 0;
    int want;
    while (record_player_step(&p, &key) == 1) {
        ck_assert_int_eq(record_next_key(&r, &pos, &want), 0);
        ck_assert_int_eq(key, want); /* the keys, in order */
        n++;
    }
    ck_assert_int_eq(n, 3 * RECORD_CHECK_EVERY + 17);
    ck_assert_uint_eq(p.fed, (uint32_t)n);
    ck_assert_int_eq(p.drift_at, -1);
    ck_assert_int_eq(record_player_step(&p, &key), 0); /* stays at the end */
    game_t *copy = record_player_take(&p);
    ck_assert_uint_eq(game_hash(copy), game_hash(g));
    record_player_free(&p); /* taken: frees nothing */
    game_free(copy);
    game_free(g);
    record_free(&r);
}
END_TEST

/* A check that differs stops the player at that check, from the raw parts
 * a watcher gets in a message. */
START_TEST(player_stops_at_a_damaged_check)
{
    record_t r;
    game_t *g = live_record(99, 2 * RECORD_CHECK_EVERY + 5, &r);
    uint8_t *checks = (uint8_t *)r.checks.data;
    checks[4 * 2] ^= 1; /* the check after 2 * CHECK_EVERY keys */
    record_player_t p;
    ck_assert_int_eq(record_player_start_raw(&p, r.seed, &r.opt, r.keys.data,
                                             r.keys.len, r.checks.data,
                                             r.checks.len, NULL), RECORD_OK);
    ck_assert_int_eq(record_player_run(&p, 0), RECORD_EDRIFT);
    ck_assert_int_eq(p.drift_at, 2 * RECORD_CHECK_EVERY);
    ck_assert_uint_eq(p.fed, 2 * RECORD_CHECK_EVERY);
    ck_assert_int_eq(record_player_step(&p, NULL), RECORD_EDRIFT);
    /* The start check too. */
    checks[4 * 2] ^= 1;
    checks[0] ^= 1;
    record_player_free(&p);
    ck_assert_int_eq(record_player_start_raw(&p, r.seed, &r.opt, r.keys.data,
                                             r.keys.len, r.checks.data,
                                             r.checks.len, NULL), RECORD_EDRIFT);
    ck_assert_int_eq(p.drift_at, 0);
    record_player_free(&p);
    game_free(g);
    record_free(&r);
}
END_TEST

/* max bounds a run; a recorder fed through `into` goes on exactly as the
 * original one; no checks means none are compared. */
START_TEST(player_runs_in_slices_into_a_recorder)
{
    record_t r, into;
    game_t *g = live_record(7, 600, &r);
    record_player_t p;
    ck_assert_int_eq(record_player_start_raw(&p, r.seed, &r.opt, r.keys.data,
                                             r.keys.len, NULL, 0, &into),
                     RECORD_OK);
    ck_assert_int_eq(record_player_run(&p, 250), 1);
    ck_assert_uint_eq(p.fed, 250);
    ck_assert_int_eq(record_player_run(&p, 250), 1);
    ck_assert_int_eq(record_player_run(&p, 250), 0);
    ck_assert_uint_eq(p.fed, 600);
    ck_assert_uint_eq(into.keys.len, r.keys.len);
    ck_assert(!memcmp(into.keys.data, r.keys.data, r.keys.len));
    ck_assert_uint_eq(into.checks.len, r.checks.len);
    ck_assert(!memcmp(into.checks.data, r.checks.data, r.checks.len));
    game_t *copy = record_player_take(&p);
    ck_assert_uint_eq(game_hash(copy), game_hash(g));
    game_free(copy);
    record_player_free(&p);
    record_free(&into);
    game_free(g);
    record_free(&r);
}
END_TEST

START_TEST(player_refuses_another_version_and_bad_varints)
{
    record_t r;
    game_t *g = live_record(5, 10, &r);
    record_player_t p;
    r.game_version = GAME_VERSION + 1;
    ck_assert_int_eq(record_player_start(&p, &r, NULL), RECORD_EVERSION);
    ck_assert_ptr_null(p.game);
    record_player_free(&p);
    static const uint8_t cut[] = { 'l', 0x80 }; /* a varint cut short */
    ck_assert_int_eq(record_player_start_raw(&p, 5, &r.opt, cut, sizeof cut,
                                             NULL, 0, NULL), RECORD_OK);
    ck_assert_int_eq(record_player_step(&p, NULL), 1);
    ck_assert_int_eq(record_player_step(&p, NULL), RECORD_ECORRUPT);
    record_player_free(&p);
    game_free(g);
    record_free(&r);
}
END_TEST

/* From a snapshot (the game after its first 512 keys), only the tail is
 * replayed, to the same game; a snapshot that is not that game is caught
 * at the check that falls where it was taken. */
START_TEST(player_starts_from_a_snapshot)
{
    game_options_t opt = { .ruleset = 2 };
    game_t *g = game_new(31, &opt), *snap = NULL;
    record_t r;
    ck_assert_int_eq(record_init(&r, g, 0), 0);
    rng_t kr;
    rng_seed(&kr, 31);
    size_t snap_pos = 0;
    for (int i = 0; i < 1300; i++) {
        record_key(&r, g, stream_key(&kr));
        if (r.nkeys == 512) {
            snap = game_clone(g);
            snap_pos = r.keys.len;
        }
    }
    record_player_t p;
    ck_assert_int_eq(record_player_start_at(&p, game_clone(snap), 512,
                                            r.keys.data, r.keys.len, snap_pos,
                                            r.checks.data, r.checks.len),
                     RECORD_OK);
    int fed = 0;
    while (record_player_step(&p, NULL) == 1)
        fed++;
    ck_assert_int_eq(fed, 1300 - 512);
    ck_assert_uint_eq(p.fed, 1300);
    ck_assert_uint_eq(game_hash(p.game), game_hash(g));
    record_player_free(&p);
    /* A wrong snapshot: one key more than it says. */
    game_t *bad = game_clone(snap);
    game_key(bad, '.');
    ck_assert_int_eq(record_player_start_at(&p, bad, 512, r.keys.data,
                                            r.keys.len, snap_pos, r.checks.data,
                                            r.checks.len), RECORD_EDRIFT);
    ck_assert_int_eq(p.drift_at, 512);
    record_player_free(&p);
    game_free(snap);
    game_free(g);
    record_free(&r);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("record");
    TCase *tc = tcase_create("record");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, round_trip);
    tcase_add_test(tc, small_keys_take_one_byte);
    tcase_add_test(tc, replay_reaches_final_hash);
    tcase_add_test(tc, empty_game_replays);
    tcase_add_test(tc, init_and_finish_refuse_mismatched_games);
    tcase_add_test(tc, cap_truncates_cleanly);
    tcase_add_test(tc, cap_at_a_check);
    tcase_add_test(tc, drift_found_at_the_check_after_it);
    tcase_add_test(tc, other_core_version_decodes_but_does_not_replay);
    tcase_add_test(tc, not_records_refused);
    tcase_add_test(tc, corruption_detected);
    tcase_add_test(tc, strerror_names_every_error);
    tcase_add_test(tc, resume_continues_exactly);
    tcase_add_test(tc, resume_refuses_damaged_keys);
    tcase_add_test(tc, player_steps_a_live_record_to_the_same_game);
    tcase_add_test(tc, player_stops_at_a_damaged_check);
    tcase_add_test(tc, player_runs_in_slices_into_a_recorder);
    tcase_add_test(tc, player_refuses_another_version_and_bad_varints);
    tcase_add_test(tc, player_starts_from_a_snapshot);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
