/* bench_watch.c - how long a watcher who joins mid-game waits: the time to
 * rebuild a game from its record (game_new, then every key so far through
 * game_key), which is what session_watch.c does when a watcher picks a
 * game, and what resuming an account's game costs (record_resume, the same
 * replay through a new recorder).
 *
 * The keys are the bench bot's (tests/bench/bot.h), played untimed first:
 * one long game per row, cut at the row's number of turns. Median of 7
 * runs. A benchmark, not a test: nothing is asserted.
 *
 * A second table is about long games: a watch-join, a takeover or a resume
 * of a game of up to a million keys. The loop thread pays only for the
 * summary copied into a message (msg_game_new); the rebuild (the record
 * player, with every check) runs in libuv's pool (rebuild.c), so the
 * loop's stall is the first column and the watcher's wait the second.
 *
 *   bench_watch        rows at 100, 1,000 and 3,000 turns; long games of
 *                      10,000, 100,000 and 1,000,000 keys */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot.h"
#include "game.h"
#include "msg.h"
#include "record.h"

#define RUNS 7

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The keys of one bot game that lasts `turns` turns (the first seed from 1
 * whose game does); the caller frees *keys_out. */
static int long_game(int turns, uint64_t *seed_out, int **keys_out, int *n_out)
{
    for (uint64_t seed = 1; seed < 2000; seed++) {
        game_t *g = game_new(seed, NULL);
        int *keys = malloc(sizeof(int) * (size_t)turns * 3);
        int n = 0, resting = 0, kind = 0;
        while (g && keys && !game_dead(g) && (int)g->turn < turns &&
               n < turns * 3) {
            int key = bot_key(g, &resting, &kind);
            if (!key)
                break;
            keys[n++] = key;
            game_key(g, key);
        }
        int ok = g && (int)g->turn >= turns;
        game_free(g);
        if (ok) {
            *seed_out = seed;
            *keys_out = keys;
            *n_out = n;
            return 0;
        }
        free(keys);
    }
    return -1;
}

int main(void)
{
    static const int rows[] = { 100, 1000, 3000 };
    printf("Watching: the catch-up of a watcher who joins mid-game (the game\n"
           "rebuilt from seed and keys), and resuming an account's game\n"
           "(record_resume: the same replay through a new recorder). One bot game\n"
           "per row, median of %d runs.\n\n", RUNS);
    printf("| turns played | keys | rebuild (game_new + keys), ms | record_resume, ms | µs per key |\n");
    printf("|---|---|---|---|---|\n");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uint64_t seed;
        int *keys, n;
        if (long_game(rows[r], &seed, &keys, &n) != 0) {
            printf("| %d | - | no bot game lasts that long | - | - |\n", rows[r]);
            continue;
        }
        /* The recorder's bytes, as the store keeps them. */
        game_t *g = game_new(seed, NULL);
        record_t rec;
        record_init(&rec, g, 0);
        for (int i = 0; i < n; i++)
            record_key(&rec, g, keys[i]);
        uint64_t want = game_hash(g);
        game_free(g);

        double rebuild[RUNS], resume[RUNS];
        for (int k = 0; k < RUNS; k++) {
            double t0 = now_us();
            game_t *w = game_new(seed, NULL);
            for (int i = 0; i < n; i++)
                game_key(w, keys[i]);
            rebuild[k] = now_us() - t0;
            if (game_hash(w) != want)
                fprintf(stderr, "bench_watch: the rebuilt game differs!\n");
            game_free(w);

            game_t *rg = NULL;
            record_t rr;
            t0 = now_us();
            int rc = record_resume(seed, &rec.opt, rec.keys.data, rec.keys.len, &rg, &rr);
            resume[k] = now_us() - t0;
            if (rc != RECORD_OK || game_hash(rg) != want)
                fprintf(stderr, "bench_watch: the resumed game differs!\n");
            game_free(rg);
            record_free(&rr);
        }
        qsort(rebuild, RUNS, sizeof rebuild[0], cmp_double);
        qsort(resume, RUNS, sizeof resume[0], cmp_double);
        printf("| %d | %d | %.2f | %.2f | %.2f |\n", rows[r], n,
               rebuild[RUNS / 2] / 1e3, resume[RUNS / 2] / 1e3,
               rebuild[RUNS / 2] / n);
        record_free(&rec);
        free(keys);
    }

    /* Long games: a 1,000-turn bot game, then unknown keys (no turn, one
     * log line each) up to the row's length. */
    static const int lrows[] = { 10000, 100000, 1000000 };
    uint64_t seed;
    int *bot, nbot;
    if (long_game(1000, &seed, &bot, &nbot) != 0)
        return 0;
    printf("\nLong games joined: what the loop pays (the summary copied into a\n"
           "message) and what libuv's pool pays (the record player rebuilding\n"
           "the game, every check compared). Target: the loop's part under 5 ms\n"
           "at 1,000,000 keys. Median of %d runs.\n\n", RUNS);
    printf("| keys | loop: summary copy, ms | pool: rebuild, ms | µs per key | pool: from the latest snapshot (every 65,536 keys), ms |\n");
    printf("|---|---|---|---|---|\n");
    for (size_t r = 0; r < sizeof lrows / sizeof lrows[0]; r++) {
        game_t *g = game_new(seed, NULL), *snap = NULL;
        record_t rec;
        size_t snap_pos = 0;
        uint32_t snap_keys = 0;
        record_init(&rec, g, 0);
        for (int i = 0; i < lrows[r]; i++) {
            record_key(&rec, g, i < nbot ? bot[i] : 'z');
            if (rec.nkeys % 65536 == 0) { /* as session_play.c keeps them */
                game_free(snap);
                snap = game_clone(g);
                snap_pos = rec.keys.len;
                snap_keys = rec.nkeys;
            }
        }
        uint64_t want = game_hash(g);
        double copy[RUNS], build[RUNS], tail[RUNS];
        for (int k = 0; k < RUNS; k++) {
            double t0 = now_us();
            msg_game_t *sum = msg_game_new(rec.seed, &rec.opt, 0, &rec.keys,
                                           &rec.checks);
            copy[k] = now_us() - t0;
            record_player_t pl;
            t0 = now_us();
            int rc = record_player_start_raw(&pl, sum->seed, &sum->opt,
                                             sum->keys.data, sum->keys.len,
                                             sum->checks.data, sum->checks.len,
                                             NULL);
            if (rc == RECORD_OK)
                rc = record_player_run(&pl, 0);
            build[k] = now_us() - t0;
            if (rc != RECORD_OK || game_hash(pl.game) != want)
                fprintf(stderr, "bench_watch: the long game differs!\n");
            record_player_free(&pl);
            t0 = now_us();
            if (snap)
                rc = record_player_start_at(&pl, game_clone(snap), snap_keys,
                                            sum->keys.data, sum->keys.len,
                                            snap_pos, sum->checks.data,
                                            sum->checks.len);
            else
                rc = record_player_start_raw(&pl, sum->seed, &sum->opt,
                                             sum->keys.data, sum->keys.len,
                                             sum->checks.data, sum->checks.len,
                                             NULL);
            if (rc == RECORD_OK)
                rc = record_player_run(&pl, 0);
            tail[k] = now_us() - t0;
            if (rc != RECORD_OK || game_hash(pl.game) != want)
                fprintf(stderr, "bench_watch: the game from its snapshot differs!\n");
            record_player_free(&pl);
            msg_game_free(sum);
        }
        qsort(copy, RUNS, sizeof copy[0], cmp_double);
        qsort(build, RUNS, sizeof build[0], cmp_double);
        qsort(tail, RUNS, sizeof tail[0], cmp_double);
        printf("| %d | %.3f | %.1f | %.2f | %.1f |\n", lrows[r],
               copy[RUNS / 2] / 1e3, build[RUNS / 2] / 1e3,
               build[RUNS / 2] / lrows[r], tail[RUNS / 2] / 1e3);
        record_free(&rec);
        game_free(snap);
        game_free(g);
    }
    free(bot);
    return 0;
}
