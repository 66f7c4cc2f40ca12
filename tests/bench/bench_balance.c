/* bench_balance.c - the balance benchmark: a simple bot plays many games of
 * each combat ruleset, headless, and prints how long it lives, how deep it
 * gets and what kills it. Not a test: a measure for tuning the content
 * tables (common/monster.c, common/item.c).
 *
 * The bot: items first, as tests/bench/bot.h's bot_item_key does (a potion
 * when low in a fight, scrolls against strong monsters, pick up what it
 * stands on); then attack a monster next to it; otherwise, hurt (below half
 * HP) with nothing in view, rest until healed; otherwise walk the shortest
 * path to the nearest living monster of the level (it knows where they
 * are); with none left, to the nearest item still on the floor; then to the
 * stairs and down. A game ends when the bot dies or at the turn cap.
 *
 *   bench_balance [GAMES] [FIRST_SEED]   (defaults 1000 and 1)
 *
 * Games of a ruleset are spread over two processes (the machine has two
 * cores); the output is the same whatever the split. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ai.h"
#include "bot.h"
#include "combat.h"
#include "game.h"

#define TURN_CAP 1000
#define WORKERS 2

enum { END_FIREBALL = MON_COUNT, END_TIMEOUT, END_COUNT };

typedef struct outcome {
    int turns, kills, level, depth, end; /* end: a monster kind, or END_* */
} outcome_t;

/* The balance bot's next key. */
static int balance_key(const game_t *g, int *resting)
{
    const player_t *p = &g->player;
    int key = bot_item_key(g);
    if (key)
        return key;
    /* A monster next to us: hit it. */
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && game_monster_at(g, p->x + dx, p->y + dy) >= 0)
                return bot_key_for(dx, dy);
    int in_view = game_monster_in_view(g);
    if (!in_view && p->hp * 2 < p->max_hp)
        *resting = 1;
    if (*resting && !in_view && p->hp < p->max_hp)
        return '.';
    *resting = 0;
    /* The nearest living monster, by path; else the nearest item on the
     * floor; else the stairs. */
    dmap_t from_player, to_target;
    ai_distance_map(&g->map, p->x, p->y, &from_player);
    int tx = -1, ty = -1, best_d = DMAP_FAR;
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *m = &g->monsters[i];
        if (m->alive && from_player.v[m->y][m->x] < best_d) {
            best_d = from_player.v[m->y][m->x];
            tx = m->x;
            ty = m->y;
        }
    }
    for (int i = 0; tx < 0 && i < MAX_ITEMS; i++) {
        const item_t *it = &g->items[i];
        if (it->type == ITEM_THING && g->pack_count < PACK_SIZE &&
            from_player.v[it->y][it->x] < best_d) {
            best_d = from_player.v[it->y][it->x];
            tx = it->x;
            ty = it->y;
        }
    }
    if (tx < 0) {
        if (g->map.tile[p->y][p->x] == TILE_STAIRS)
            return '>';
        for (int y = 0; y < MAP_H; y++)
            for (int x = 0; x < MAP_W; x++)
                if (g->map.tile[y][x] == TILE_STAIRS) {
                    tx = x;
                    ty = y;
                }
    }
    if (tx < 0)
        return '.';
    uint8_t occ[MAP_H][MAP_W];
    memset(occ, 0, sizeof occ);
    for (int i = 0; i < MAX_MONSTERS; i++)
        if (g->monsters[i].alive)
            occ[g->monsters[i].y][g->monsters[i].x] = 1;
    occ[ty][tx] = 0;
    ai_distance_map(&g->map, tx, ty, &to_target);
    int nx, ny;
    if (!ai_step_down(&g->map, &to_target, occ, p->x, p->y, &nx, &ny))
        return '.';
    return bot_key_for(nx - p->x, ny - p->y);
}

static outcome_t play(uint64_t seed, int ruleset)
{
    game_options_t opt = { .ruleset = ruleset };
    game_t *g = game_new(seed, &opt);
    if (!g) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    outcome_t o = { 0, 0, 0, 0, END_TIMEOUT };
    int resting = 0;
    while (!game_dead(g) && g->turn < TURN_CAP)
        game_key(g, balance_key(g, &resting));
    if (game_dead(g))
        o.end = g->killer == KILLER_FIREBALL ? END_FIREBALL : g->killer - 1;
    o.turns = (int)g->turn;
    o.kills = g->kills;
    o.level = g->player.level;
    o.depth = g->depth;
    game_free(g);
    return o;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The q-th quantile (0..1) of n values, sorted in place. */
static int quantile(int *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof *v, cmp_int);
    int i = (int)(q * (n - 1) + 0.5);
    return v[i];
}

/* Plays games [from, to) of a ruleset into out. */
static void play_range(int ruleset, uint64_t first_seed, int from, int to,
                       outcome_t *out)
{
    for (int i = from; i < to; i++)
        out[i] = play(first_seed + (uint64_t)i, ruleset);
}

/* Plays n games split over WORKERS processes (results through pipes). */
static void play_all(int ruleset, uint64_t first_seed, int n, outcome_t *out)
{
    int fds[WORKERS][2];
    pid_t pids[WORKERS];
    for (int w = 0; w < WORKERS; w++) {
        int from = n * w / WORKERS, to = n * (w + 1) / WORKERS;
        if (pipe(fds[w]) != 0 || (pids[w] = fork()) < 0) {
            perror("bench_balance");
            exit(1);
        }
        if (pids[w] == 0) {
            close(fds[w][0]);
            play_range(ruleset, first_seed, from, to, out);
            const char *p = (const char *)(out + from);
            size_t left = (size_t)(to - from) * sizeof *out;
            while (left > 0) {
                ssize_t k = write(fds[w][1], p, left);
                if (k <= 0)
                    _exit(1);
                p += k;
                left -= (size_t)k;
            }
            _exit(0);
        }
        close(fds[w][1]);
    }
    for (int w = 0; w < WORKERS; w++) {
        int from = n * w / WORKERS, to = n * (w + 1) / WORKERS;
        char *p = (char *)(out + from);
        size_t left = (size_t)(to - from) * sizeof *out;
        while (left > 0) {
            ssize_t k = read(fds[w][0], p, left);
            if (k <= 0) {
                fprintf(stderr, "bench_balance: a worker failed\n");
                exit(1);
            }
            p += k;
            left -= (size_t)k;
        }
        close(fds[w][0]);
        int st;
        waitpid(pids[w], &st, 0);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    uint64_t first_seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (n < 1)
        n = 1;
    outcome_t *out = calloc((size_t)n, sizeof *out);
    int *v = calloc((size_t)n, sizeof *v);
    if (!out || !v)
        return 1;
    printf("Balance: %d games per ruleset (seeds %llu..%llu), bot as in "
           "tests/bench/bench_balance.c\n(clears each level, picks up and uses "
           "items, takes the stairs), turn cap %d.\n\n",
           n, (unsigned long long)first_seed,
           (unsigned long long)(first_seed + (uint64_t)n - 1), TURN_CAP);
    printf("| ruleset | turns median | turns p90 | kills median | kills p90 "
           "| level median | level p90 | depth median | depth p90 | died "
           "| deaths: turn median | deaths: depth median "
           "| causes of death (share of games) | reached the cap |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    static const int order[RULES_COUNT] = { RULES_POWER, RULES_ATTACK_DEFENSE,
                                            RULES_D10, RULES_DICE_POOL };
    for (int oi = 0; oi < RULES_COUNT; oi++) {
        int r = order[oi];
        play_all(r, first_seed, n, out);
        int ends[END_COUNT] = { 0 };
        for (int i = 0; i < n; i++)
            ends[out[i].end]++;
        int tm, t90, km, k90, lm, l90, dm, d90;
        for (int i = 0; i < n; i++) v[i] = out[i].turns;
        tm = quantile(v, n, 0.5);
        t90 = quantile(v, n, 0.9);
        for (int i = 0; i < n; i++) v[i] = out[i].kills;
        km = quantile(v, n, 0.5);
        k90 = quantile(v, n, 0.9);
        for (int i = 0; i < n; i++) v[i] = out[i].level;
        lm = quantile(v, n, 0.5);
        l90 = quantile(v, n, 0.9);
        for (int i = 0; i < n; i++) v[i] = out[i].depth;
        dm = quantile(v, n, 0.5);
        d90 = quantile(v, n, 0.9);
        /* The games that ended in death: when and how deep. */
        int nd = 0, dtm = 0, ddm = 0;
        for (int i = 0; i < n; i++)
            if (out[i].end != END_TIMEOUT)
                v[nd++] = out[i].turns;
        if (nd > 0)
            dtm = quantile(v, nd, 0.5);
        nd = 0;
        for (int i = 0; i < n; i++)
            if (out[i].end != END_TIMEOUT)
                v[nd++] = out[i].depth;
        if (nd > 0)
            ddm = quantile(v, nd, 0.5);
        int died = 0;
        char causes[256] = "";
        size_t used = 0;
        for (int k = 0; k <= END_FIREBALL; k++) {
            died += ends[k];
            if (ends[k] && used < sizeof causes)
                used += (size_t)snprintf(causes + used, sizeof causes - used,
                                         "%s%s %.1f%%", used ? ", " : "",
                                         k == END_FIREBALL ? "own fireball"
                                                           : monster_stats(k)->name,
                                         100.0 * ends[k] / n);
        }
        printf("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %.1f%% | %d | %d "
               "| %s | %.1f%% |\n",
               combat_ruleset_name(r), tm, t90, km, k90, lm, l90, dm, d90,
               100.0 * died / n, dtm, ddm, died ? causes : "-",
               100.0 * ends[END_TIMEOUT] / n);
        fflush(stdout);
    }
    free(out);
    free(v);
    return 0;
}
