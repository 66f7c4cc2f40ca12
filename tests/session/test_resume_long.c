/* test_resume_long.c - a long game in progress resumed by a login is
 * rebuilt from its latest snapshot in the store: only the keys after it
 * are replayed (the server's debug log counts them), and the player sees
 * the very game; so is a takeover by a second login, from the first
 * connection's snapshot. The long game is made quickly: in this process,
 * as a session would have left it in the store (its keys, and a snapshot
 * with the recorder's checks up to it), or through the server by a client
 * sending keys at the highest rate the server takes. A snapshot that does
 * not fit the keys is refused, logged, and the game replayed from the
 * start, to the same screen. */
#include <check.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "check_main.h"
#include "client.h"
#include "game.h"
#include "play.h"
#include "record.h"
#include "store.h"

enum {
    NKEYS = 200000,  /* keys of the synthetic game */
    SNAP_AT = 196608 /* its snapshot: after this many (3 * 65,536) */
};

/* Key i of the synthetic game: a few moves and waits in each thousand,
 * the rest a key that takes no turn (the record holds it all the same). */
static int synthetic_key(uint32_t i)
{
    static const char walk[] = "hjkl.yubn";
    return i % 1000 < 9 ? walk[(i / 1000 + i) % 9] : 'z';
}

static void on_account(void *ctx, const store_account_t *a)
{
    *(store_account_t *)ctx = *a;
}

/* The synthetic game: a seed whose player is alive after NKEYS keys,
 * played through a recorder (rec), and the copy taken at SNAP_AT. */
typedef struct synth {
    game_t *g, *snap;
    record_t rec;
    size_t snap_pos;
    buf_t snap_checks;
} synth_t;

static void synth_make(synth_t *s)
{
    memset(s, 0, sizeof *s);
    buf_init(&s->snap_checks, 0);
    for (uint64_t seed = 1; seed < 50; seed++) {
        s->g = game_new(seed, NULL);
        ck_assert_int_eq(record_init(&s->rec, s->g, 0), 0);
        for (uint32_t i = 0; i < NKEYS && !game_dead(s->g); i++) {
            if (i == SNAP_AT) {
                s->snap = game_clone(s->g);
                s->snap_pos = s->rec.keys.len;
                ck_assert_int_eq(buf_append(&s->snap_checks,
                                            s->rec.checks.data,
                                            s->rec.checks.len), 0);
            }
            record_key(&s->rec, s->g, synthetic_key(i));
        }
        if (!game_dead(s->g) && !game_over(s->g) && s->g->turn > 500)
            return;
        game_free(s->g);
        game_free(s->snap);
        record_free(&s->rec);
        s->snap = NULL;
        s->snap_checks.len = 0;
    }
    ck_abort_msg("no seed survives the synthetic game");
}

static void synth_free(synth_t *s)
{
    game_free(s->g);
    game_free(s->snap);
    record_free(&s->rec);
    buf_free(&s->snap_checks);
}

/* Writes into data_dir what a server would have left: the account "dave"
 * with a game in progress of s's keys and its snapshot (snap: s->snap, or
 * another game to store in its place). */
static void store_synthetic(const char *data_dir, const synth_t *s,
                            const game_t *snap)
{
    uv_loop_t loop;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    store_opts_t o;
    memset(&o, 0, sizeof o);
    o.pw_ops = crypto_pwhash_OPSLIMIT_MIN; /* the hash says its own cost */
    o.pw_mem = crypto_pwhash_MEMLIMIT_MIN;
    char err[512];
    store_t *st = store_open(&loop, data_dir, &o, err, sizeof err);
    ck_assert_msg(st != NULL, "%s", err);
    store_account_t a = { .status = -1 };
    ck_assert_int_eq(store_register(st, "dave", "davespassword", on_account,
                                    &a), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(a.status, STORE_OK);
    ck_assert_int_eq(store_progress_begin(st, a.id, 0, s->g->seed, &s->g->opt,
                                          1700000000), 0);
    ck_assert_int_eq(store_progress_append(st, a.id, 0, s->rec.keys.data,
                                           s->snap_pos), 0);
    ck_assert_int_eq(store_progress_snapshot(st, a.id, 0, snap, SNAP_AT,
                                             s->snap_pos, s->snap_checks.data,
                                             s->snap_checks.len), 0);
    ck_assert_int_eq(store_progress_append(st, a.id, 0,
                                           s->rec.keys.data + s->snap_pos,
                                           s->rec.keys.len - s->snap_pos), 0);
    store_close(st);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
}

static void login(tclient_t *c)
{
    ck_assert(cl_key(c, "l"));
    play_type_line(c, "dave");
    play_type_line(c, "davespassword");
    play_wait_text(c, "Logged in as dave");
}

/* dave logs in to the synthetic game stored with `snap`, is offered it,
 * and p shows the very game (every row as view_draw draws it). The
 * server's log is left for the caller to read. */
static tsrv_t *resume_synthetic(const synth_t *s, const game_t *snap,
                                char *dir)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    store_synthetic(dir, s, snap);
    tsrv_t *srv = srv_start("--data-dir", dir, "--log-level", "debug", NULL);
    tclient_t *c = play_lobby(srv_port(srv));
    login(c);
    char offer[64];
    snprintf(offer, sizeof offer, "Continue your game (depth %d, turn %u)",
             s->g->depth, (unsigned)s->g->turn);
    play_wait_text(c, offer);
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "HP: ");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    play_expect_rows(c, s->g, 0, cl_h(c) - 1, 0, -1);
    /* and it plays on: the next key is the game's */
    ck_assert(cl_key(c, "."));
    game_key(s->g, '.');
    play_expect_rows(c, s->g, 0, cl_h(c) - 1, 0, -1);
    cl_close(c);
    return srv;
}

START_TEST(a_long_game_resumes_from_its_snapshot)
{
    synth_t s;
    synth_make(&s);
    char dir[] = "/tmp/rogued-long-XXXXXX";
    tsrv_t *srv = resume_synthetic(&s, s.snap, dir);
    char line[160];
    snprintf(line, sizeof line, ": from the snapshot at key %d, %d keys "
             "replayed", SNAP_AT, NKEYS - SNAP_AT);
    ck_assert_msg(srv_log_has(srv, line), "no \"%s\" in the log", line);
    ck_assert(!srv_log_has(srv, "refused"));
    ck_assert(!srv_log_has(srv, "from the start"));
    srv_stop(srv);
    srv_remove_tree(dir);
    synth_free(&s);
}
END_TEST

/* A snapshot that is not the game its keys make (one hit point more than
 * the record's check at its key says): refused, and every key replayed. */
START_TEST(a_snapshot_that_does_not_fit_is_replayed_from_the_start)
{
    synth_t s;
    synth_make(&s);
    game_t *wrong = game_clone(s.snap);
    wrong->player.hp += 1;
    char dir[] = "/tmp/rogued-long-XXXXXX";
    tsrv_t *srv = resume_synthetic(&s, wrong, dir);
    char line[160];
    snprintf(line, sizeof line, ": the snapshot at key %d refused (the replay "
             "differs from the record): replayed from the start", SNAP_AT);
    ck_assert_msg(srv_log_has(srv, line), "no \"%s\" in the log", line);
    snprintf(line, sizeof line, ": from the start, %d keys replayed", NKEYS);
    ck_assert_msg(srv_log_has(srv, line), "no \"%s\" in the log", line);
    srv_stop(srv);
    srv_remove_tree(dir);
    game_free(wrong);
    synth_free(&s);
}
END_TEST

/* Through the server: dave's game past 65,536 keys (its keys sent at the
 * highest rate the server takes), then either the link drops and the next
 * login resumes it from the store's copy, or a second login takes it over
 * from the first connection. Either way the rebuild starts from a
 * snapshot (fewer than 65,536 keys replayed) and shows the screen the
 * player left; then the game plays on and ends like any other. */
static void long_game_comes_back(int takeover)
{
    /* (a long negotiation: both sessions drawn on the same display) */
    tsrv_t *s = srv_start("--seed", "42", "--set",
                          "max_keys_per_second=100000", "--set",
                          "negotiation_ms=10000", "--log-level", "debug", NULL);
    tclient_t *a = play_lobby(srv_port(s));
    ck_assert(cl_key(a, "r"));
    play_type_line(a, "dave");
    play_type_line(a, "davespassword");
    play_type_line(a, "davespassword");
    play_wait_text(a, "Logged in as dave");
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    enum { N = 160000 };
    char *keys = malloc(N);
    memset(keys, 'z', N); /* an unknown key: recorded, no turn */
    ck_assert_uint_eq(cl_send_raw(a, keys, N, 1, CL_WAIT_MS * 4), N);
    free(keys);
    ck_assert(cl_sync(a, CL_WAIT_MS * 4));
    ck_assert(cl_key(a, "."));
    int turn = cl_turn(a);
    cl_snap_t before;
    cl_snap(a, &before);
    if (!takeover) {
        cl_close(a);
        ck_assert(srv_wait_log(s, "game suspended id=1 name=dave",
                               CL_WAIT_MS));
    }

    tclient_t *b = play_lobby(srv_port(s));
    login(b);
    if (takeover) {
        /* straight back into the game; the first connection is told */
        ck_assert(cl_wait_eof(a, CL_WAIT_MS));
        ck_assert(cl_stream_has(a, "Your account has logged in from "
                                   "elsewhere."));
        cl_close(a);
        ck_assert(srv_wait_log(s, "takeover id=2 takes the game of id=1",
                               CL_WAIT_MS));
    } else {
        play_wait_text(b, "Continue your game");
        ck_assert(cl_key(b, "p"));
    }
    play_wait_text(b, "HP: ");
    ck_assert(cl_sync(b, CL_WAIT_MS));
    char why[256];
    if (!cl_snap_equal(b, &before, why, sizeof why))
        play_fail(b, "the continued game differs from the one left: %s", why);
    ck_assert_int_eq(cl_turn(b), turn);
    /* The rebuild's line: from a snapshot, only the tail. */
    char *log = srv_log(s);
    const char *at = strstr(log, ": from the snapshot at key ");
    ck_assert_msg(at != NULL, "the rebuild did not start from a snapshot");
    unsigned from = 0, replayed = 0;
    ck_assert_int_eq(sscanf(at, ": from the snapshot at key %u, %u keys "
                            "replayed", &from, &replayed), 2);
    free(log);
    ck_assert_uint_ge(from, 65536);
    ck_assert_uint_eq(from % 65536, 0);
    ck_assert_uint_lt(replayed, 65536);
    ck_assert(!srv_log_has(s, "refused"));
    /* It plays on and ends: the game is recorded. */
    ck_assert(cl_key(b, "."));
    ck_assert_int_eq(cl_turn(b), turn + 1);
    ck_assert(cl_key(b, "Q"));
    ck_assert(cl_key(b, "y"));
    play_wait_text(b, "Play as dave");
    ck_assert(srv_wait_log(s, "game over id=2 name=dave", CL_WAIT_MS));
    cl_snap_free(&before);
    cl_close(b);
    srv_stop(s);
}

START_TEST(a_played_game_resumes_from_the_stores_snapshot)
{
    long_game_comes_back(0);
}
END_TEST

START_TEST(a_played_game_is_taken_over_from_its_snapshot)
{
    long_game_comes_back(1);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("resume_long");
    TCase *tc = tcase_create("resume_long");
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_long_game_resumes_from_its_snapshot);
    tcase_add_test(tc, a_snapshot_that_does_not_fit_is_replayed_from_the_start);
    tcase_add_test(tc, a_played_game_resumes_from_the_stores_snapshot);
    tcase_add_test(tc, a_played_game_is_taken_over_from_its_snapshot);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
