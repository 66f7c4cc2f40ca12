/* bench_core.c - the core benchmark: how fast one game plays, step by step.
 *
 * The bot (bot.h) plays a script of games (exploring, fighting, resting) of
 * at least MIN_TURNS turns in all, untimed. Each run then replays the keys
 * through the whole server-side turn twice, timing each stage: as the
 * server draws a frame (server/session/session_render.c: the frame the client
 * shows copied, view_draw_cached over it, screen_diff_kept, the frame kept)
 * and, as the baseline in the same run, the whole-frame path the server
 * used before (view_draw at 80x24, screen_diff_rows against the previous
 * frame with the same scroll region, screen_copy); both must send the same
 * bytes (checked). It replays them
 * again timing the steps inside a turn that are not functions of their own
 * on the host's path: field of view, the Dijkstra (BFS) distance map, the
 * flee map, and the monsters' decisions. Each step runs REPS times back to
 * back per turn on the turn's real state (so warm in cache; the slow flee
 * map once). Every number is the median of RUNS runs. The monsters' phase
 * is static in the core: monster_phase below makes the same public calls.
 *
 *   bench_core [MIN_TURNS] [RUNS]      (defaults 10000 and 5)
 *   bench_core --instructions [MIN_TURNS]
 *       replays the script once through each path, untimed, for a count of
 *       instructions under callgrind (run-bench.sh): the inclusive cost of
 *       replay_key, frame_full and frame_cached, divided by the keys it
 *       prints. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ai.h"
#include "bot.h"
#include "fov.h"
#include "game.h"
#include "map.h"
#include "screen.h"
#include "screen_diff.h"
#include "view.h"
#include "view_cache.h"

#define REPS 4
#define NEW_GAMES 2000
#define MAX_RUNS 15

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The cost of one clock_gettime pair, subtracted from each timed stage. */
static double timer_overhead(void)
{
    double v[101];
    for (int i = 0; i < 101; i++) {
        uint64_t t0 = now_ns(), t1 = now_ns();
        v[i] = (double)(t1 - t0);
    }
    return median(v, 101);
}

enum {
    ST_KEY, ST_VIEW, ST_DIFF, ST_COPY, ST_TURN,       /* the pipeline */
    ST_FOV, ST_DMAP, ST_FLEE, ST_MONSTERS,            /* inside a turn */
    ST_NEW, ST_MAPGEN,
    ST_COUNT
};

typedef struct result {
    double ns[ST_COUNT];   /* per call */
    double turns_per_s;
    double bytes_per_turn;
    uint64_t bytes_hash;   /* of every byte sent, in order */
} result_t;

/* What the host keeps per client: the frame it shows, the encoder's idea
 * of its terminal, the view cache; and the loop's scratch frame. */
static screen_t shown, next;
static term_state_t term;
static view_cache_t cache;
static screen_keep_t keep;
static buf_t out;

static uint64_t hash_bytes(uint64_t h, const buf_t *b)
{
    for (size_t i = 0; i < b->len; i++)
        h = (h ^ (uint8_t)b->data[i]) * 0x100000001b3u; /* FNV-1a */
    return h;
}

/* One key's turn (a function of its own for callgrind's count). */
static __attribute__((noinline)) int replay_key(game_t *g, int key)
{
    return game_key(g, key);
}

/* The stages of a frame, for the timings: draw, diff, keep. */
typedef struct stages {
    uint64_t t[3];
} stages_t;

/* Notes when stage i ended (st NULL: untimed, for callgrind). */
static void stamp(stages_t *st, int i)
{
    if (st)
        st->t[i] = now_ns();
}

/* The baseline: the whole frame drawn and diffed, the scroll searched
 * where the view says a frame may scroll (view_scroll), as the server's
 * path is told: otherwise the two find different scrolls and their bytes
 * differ. */
static __attribute__((noinline)) void frame_full(const game_t *g,
                                                 stages_t *st)
{
    screen_scroll_t log;
    view_draw(g, &next);
    stamp(st, 0);
    screen_diff_rows(&shown, &next, NULL, view_scroll(g, next.w, next.h, &log),
                     &term, &out);
    stamp(st, 1);
    screen_copy(&shown, &next);
    stamp(st, 2);
}

/* As session_render.c draws a frame of a game. */
static __attribute__((noinline)) void frame_cached(const game_t *g,
                                                   stages_t *st)
{
    view_cache_begin(&cache, 1);
    screen_scroll_t log;
    int kept = 0;
    if (view_cache_wants_prime(&cache, next.w, next.h)) {
        /* Over the frame shown, its rows kept aside before they change. */
        screen_t was = shown;
        shown = next;
        next = was;
        kept = screen_keep_start(&next, &keep, &shown) == 0;
        if (!kept) { /* (never at 80x24) a copy of the frame shown */
            was = shown;
            shown = next;
            next = was;
            screen_copy(&next, &shown);
        }
    }
    view_draw_cached(g, &cache, &next);
    stamp(st, 0);
    screen_keep_stop(&next);
    if (kept)
        screen_diff_kept(&keep, &next, view_cache_scroll(&cache, next.h, &log),
                         &term, &out);
    else
        screen_diff_rows(&shown, &next, NULL,
                         view_cache_scroll(&cache, next.h, &log), &term, &out);
    stamp(st, 1);
    if (kept) {
        screen_t was = shown; /* next is the whole frame: keep it */
        shown = next;
        next = was;
    } else {
        screen_copy(&shown, &next);
    }
    view_cache_end(&cache, 1);
    stamp(st, 2);
}

enum { PATH_CACHED, PATH_FULL, PATHS };

/* Replays the script through the host's per-key path. */
static void run_pipeline(const bot_script_t *s, int path, double overhead,
                         result_t *r)
{
    double sum[ST_COUNT] = { 0 };
    long turns = 0, keys = 0;
    size_t bytes = 0;
    uint64_t hash = 0xcbf29ce484222325u;
    for (int gi = 0; gi < s->ngames; gi++) {
        const bot_game_t *bg = &s->games[gi];
        game_t *g = game_new(bg->seed, NULL);
        memset(&term, 0, sizeof term);
        term_state_reset(&term);
        view_cache_reset(&cache); /* a new client: painted in full */
        view_draw(g, &shown);
        buf_reset(&out);
        screen_paint(&shown, &term, &out);
        for (int k = 0; k < bg->nkeys; k++) {
            buf_reset(&out);
            stages_t st;
            uint64_t t0 = now_ns();
            turns += replay_key(g, bg->keys[k]);
            uint64_t t1 = now_ns();
            if (path == PATH_FULL)
                frame_full(g, &st);
            else
                frame_cached(g, &st);
            sum[ST_KEY] += (double)(t1 - t0) - overhead;
            sum[ST_VIEW] += (double)(st.t[0] - t1) - overhead;
            sum[ST_DIFF] += (double)(st.t[1] - st.t[0]) - overhead;
            sum[ST_COPY] += (double)(st.t[2] - st.t[1]) - overhead;
            bytes += out.len;
            hash = hash_bytes(hash, &out);
            keys++;
        }
        game_free(g);
    }
    double total = sum[ST_KEY] + sum[ST_VIEW] + sum[ST_DIFF] + sum[ST_COPY];
    for (int i = ST_KEY; i <= ST_COPY; i++)
        r->ns[i] = sum[i] / (double)keys;
    r->ns[ST_TURN] = total / (double)keys;
    r->turns_per_s = (double)turns / (total / 1e9);
    r->bytes_per_turn = (double)bytes / (double)keys;
    r->bytes_hash = hash;
}

/* The monsters' half of a turn as game.c does it (monsters_act is static
 * there): the same public calls, on a scratch copy of the monsters, without
 * applying blows. */
static int monster_phase(const game_t *g)
{
    monster_t ms[MAX_MONSTERS];
    uint8_t occ[MAP_H][MAP_W];
    static ai_turn_t t;
    rng_t r = g->rng;
    int moved = 0;
    memcpy(ms, g->monsters, sizeof ms);
    memset(occ, 0, sizeof occ);
    for (int i = 0; i < MAX_MONSTERS; i++)
        if (ms[i].alive)
            occ[ms[i].y][ms[i].x] = 1;
    occ[g->player.y][g->player.x] = 1;
    ai_turn_begin(&t, g->player.x, g->player.y);
    for (int i = 0; i < MAX_MONSTERS; i++) {
        monster_t *m = &ms[i];
        if (!m->alive)
            continue;
        int nx, ny;
        int act = ai_decide(&g->map, &t, occ, &r, m->x, m->y,
                            game_lit(g, m->x, m->y), m->hp,
                            monster_stats(m->kind)->hp, &nx, &ny);
        if (act == AI_MOVE) {
            occ[m->y][m->x] = 0;
            m->x = nx;
            m->y = ny;
            occ[ny][nx] = 1;
            moved++;
        }
    }
    return moved;
}

static volatile int sink;

/* Replays the script timing the steps inside a turn, REPS calls each. */
static void run_steps(const bot_script_t *s, double overhead, result_t *r)
{
    double sum[ST_COUNT] = { 0 };
    long calls = 0;
    static uint8_t vis[MAP_H][TILE_BITS_ROW];
    static dmap_t dist, flee;
    for (int gi = 0; gi < s->ngames; gi++) {
        const bot_game_t *bg = &s->games[gi];
        game_t *g = game_new(bg->seed, NULL);
        for (int k = 0; k < bg->nkeys; k++) {
            game_key(g, bg->keys[k]);
            int px = g->player.x, py = g->player.y;
            uint64_t t0 = now_ns();
            for (int i = 0; i < REPS; i++)
                fov_compute(&g->map, px, py, FOV_RADIUS, vis);
            uint64_t t1 = now_ns();
            for (int i = 0; i < REPS; i++)
                ai_distance_map(&g->map, px, py, &dist);
            uint64_t t2 = now_ns();
            ai_flee_map(&g->map, &dist, &flee); /* slow: once */
            uint64_t t3 = now_ns();
            int moved = 0;
            for (int i = 0; i < REPS; i++)
                moved += monster_phase(g);
            uint64_t t4 = now_ns();
            sink += vis[py][px] + flee.v[py][px] + moved;
            sum[ST_FOV] += (double)(t1 - t0) - overhead;
            sum[ST_DMAP] += (double)(t2 - t1) - overhead;
            sum[ST_FLEE] += ((double)(t3 - t2) - overhead) * REPS;
            sum[ST_MONSTERS] += (double)(t4 - t3) - overhead;
            calls += REPS;
        }
        game_free(g);
    }
    for (int i = ST_FOV; i <= ST_MONSTERS; i++)
        r->ns[i] = sum[i] / (double)calls;
}

/* The cost of a new game (dungeon, monsters, first FOV), and of the
 * dungeon alone. */
static void run_new(result_t *r)
{
    uint64_t t0 = now_ns();
    for (int i = 0; i < NEW_GAMES; i++) {
        game_t *g = game_new(1000000u + (uint64_t)i, NULL);
        sink += g->player.x;
        game_free(g);
    }
    uint64_t t1 = now_ns();
    static map_t m;
    for (int i = 0; i < NEW_GAMES; i++) {
        rng_t rng;
        rng_seed(&rng, 1000000u + (uint64_t)i);
        map_generate(&m, &rng);
        sink += m.nrooms;
    }
    uint64_t t2 = now_ns();
    r->ns[ST_NEW] = (double)(t1 - t0) / NEW_GAMES;
    r->ns[ST_MAPGEN] = (double)(t2 - t1) / NEW_GAMES;
}

static double med_of(const result_t *res, int n, int field)
{
    double v[MAX_RUNS];
    for (int i = 0; i < n; i++)
        v[i] = res[i].ns[field];
    return median(v, n);
}

/* --instructions: each path once, untimed; run-bench.sh reads callgrind's
 * inclusive counts of replay_key, frame_full and frame_cached. */
static int count_instructions(const bot_script_t *s)
{
    long keys = 0;
    for (int path = 0; path < PATHS; path++) {
        for (int gi = 0; gi < s->ngames; gi++) {
            const bot_game_t *bg = &s->games[gi];
            game_t *g = game_new(bg->seed, NULL);
            memset(&term, 0, sizeof term);
            term_state_reset(&term);
            view_cache_reset(&cache);
            view_draw(g, &shown);
            buf_reset(&out);
            screen_paint(&shown, &term, &out);
            for (int k = 0; k < bg->nkeys; k++) {
                buf_reset(&out);
                replay_key(g, bg->keys[k]);
                if (path == PATH_FULL)
                    frame_full(g, NULL);
                else
                    frame_cached(g, NULL);
                keys++;
            }
            game_free(g);
        }
    }
    printf("keys per path: %ld\n", keys / PATHS);
    return 0;
}

int main(int argc, char **argv)
{
    int instr = argc > 1 && strcmp(argv[1], "--instructions") == 0;
    if (instr) {
        argc--;
        argv++;
    }
    long min_turns = argc > 1 ? atol(argv[1]) : 10000;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (runs < 1)
        runs = 1;
    if (runs > MAX_RUNS)
        runs = MAX_RUNS;
    static bot_script_t s;
    bot_script_make(&s, 1, min_turns, BOT_TURN_CAP);
    if (screen_init(&shown, 80, 24) || screen_init(&next, 80, 24))
        return 1;
    buf_init(&out, 0);
    if (instr)
        return count_instructions(&s);
    double overhead = timer_overhead();

    /* res: the server's path (and the steps inside a turn); base: the
     * whole-frame path, alternating with it run by run. */
    static result_t res[MAX_RUNS], base[MAX_RUNS];
    for (int i = 0; i < runs; i++) {
        run_pipeline(&s, PATH_CACHED, overhead, &res[i]);
        run_pipeline(&s, PATH_FULL, overhead, &base[i]);
        run_steps(&s, overhead, &res[i]);
        run_new(&res[i]);
        if (base[i].bytes_hash != res[i].bytes_hash) {
            fprintf(stderr, "bench_core: the two paths sent different bytes\n");
            return 1;
        }
    }
    double tps[MAX_RUNS], bpt[MAX_RUNS], btps[MAX_RUNS];
    for (int i = 0; i < runs; i++) {
        tps[i] = res[i].turns_per_s;
        btps[i] = base[i].turns_per_s;
        bpt[i] = res[i].bytes_per_turn;
    }

    printf("Core: one game instance at a time, one core. Script: %d games "
           "(seeds 1..%d), %ld keys, %ld turns\n"
           "(explore %ld, fight %ld, walk to a monster %ld, rest %ld, "
           "pick up or use items %ld, stairs %ld; %d games ended in death).\n"
           "Median of %d runs; %d calls per turn for the steps inside a "
           "turn; timer overhead %.0f ns subtracted. The server's frame\n"
           "(drawn over the one before: view_cache) against the whole-frame "
           "path before it, in the same run; both sent the same bytes.\n\n",
           s.ngames, s.ngames, s.keys, s.turns, s.kinds[BOT_EXPLORE],
           s.kinds[BOT_FIGHT], s.kinds[BOT_CHASE], s.kinds[BOT_REST],
           s.kinds[BOT_ITEM], s.kinds[BOT_DESCEND], s.died, runs, REPS,
           overhead);
    printf("| step | ns per call | target |\n|---|---|---|\n");
    printf("| field of view (fov_compute, radius %d, map %dx%d) | %.0f | ~350 |\n",
           FOV_RADIUS, MAP_W, MAP_H, med_of(res, runs, ST_FOV));
    printf("| Dijkstra map (ai_distance_map, 8-dir BFS, whole map) | %.0f | ~3,500 |\n",
           med_of(res, runs, ST_DMAP));
    printf("| flee map (ai_flee_map, from the distance map) | %.0f | - |\n",
           med_of(res, runs, ST_FLEE));
    printf("| all monster turns (ai_decide for each living monster) | %.0f | - |\n",
           med_of(res, runs, ST_MONSTERS));
    printf("| using items | inside game_key (%ld item keys in the script) | - |\n",
           s.kinds[BOT_ITEM]);
    printf("| game_key: one whole turn (player, FOV, monsters) | %.0f | - |\n",
           med_of(res, runs, ST_KEY));
    printf("| drawing: view_draw_cached over the frame shown (was view_draw: %.0f) | %.0f | - |\n",
           med_of(base, runs, ST_VIEW), med_of(res, runs, ST_VIEW));
    printf("| diff: screen_diff_rows, rows the view left alone skipped (was screen_diff: %.0f) | %.0f | - |\n",
           med_of(base, runs, ST_DIFF), med_of(res, runs, ST_DIFF));
    printf("| screen_copy (the server keeps what the client shows) | %.0f | - |\n",
           med_of(res, runs, ST_COPY));
    printf("| **a whole turn as the server runs it** (game_key + view + diff + copy) | %.0f | <= 10,000 |\n",
           med_of(res, runs, ST_TURN));
    printf("| the same with the whole-frame path (the baseline) | %.0f | - |\n",
           med_of(base, runs, ST_TURN));
    printf("| drawing, diff and copy: this path / the whole-frame path | %.2f | - |\n",
           (med_of(res, runs, ST_VIEW) + med_of(res, runs, ST_DIFF) +
            med_of(res, runs, ST_COPY)) /
               (med_of(base, runs, ST_VIEW) + med_of(base, runs, ST_DIFF) +
                med_of(base, runs, ST_COPY)));
    printf("\n| measure | value | target |\n|---|---|---|\n");
    printf("| turns per second, one core (drawing and diffing included) | %.0f | >= 100,000 |\n",
           median(tps, runs));
    printf("| the same with the whole-frame path | %.0f | - |\n",
           median(btps, runs));
    printf("| bytes per turn sent (diff) | %.0f | - |\n", median(bpt, runs));
    printf("| new game (game_new + game_free: dungeon, monsters, FOV), µs | %.1f | < 100 |\n",
           med_of(res, runs, ST_NEW) / 1000.0);
    printf("| of which the dungeon (map_generate), µs | %.1f | - |\n",
           med_of(res, runs, ST_MAPGEN) / 1000.0);
    bot_script_free(&s);
    screen_free(&shown);
    screen_free(&next);
    buf_free(&out);
    return 0;
}
