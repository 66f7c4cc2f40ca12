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
 *   bench_watch        rows at 100, 1,000 and 10,000 turns */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot.h"
#include "game.h"
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
    static const int rows[] = { 100, 1000, 10000 };
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
    return 0;
}
