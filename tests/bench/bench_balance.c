/* bench_balance.c - the balance benchmark: the careful-newcomer bot of
 * tests/bench/bot.h plays many games of each combat ruleset, headless, and
 * prints how deep it gets, what kills it, how often it wins, and where each
 * balance target of docs/balance.md stands. Not a test: a measure for
 * tuning the content tables (common/monster.c, common/item.c).
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

#define TURN_CAP 30000
#define WORKERS 2
#define DEPTHS GAME_AMULET_DEPTH

enum { END_FIREBALL = MON_COUNT, END_WON, END_TIMEOUT, END_STUCK, END_COUNT };

typedef struct outcome {
    int turns, kills, level, depth, end; /* end: a monster kind, or END_* */
    int level_at[DEPTHS + 1];            /* XP level on leaving each depth
                                            (0: never there) */
} outcome_t;

static outcome_t play(uint64_t seed, int ruleset)
{
    game_options_t opt = { .ruleset = ruleset };
    game_t *g = game_new(seed, &opt);
    if (!g) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    outcome_t o;
    memset(&o, 0, sizeof o);
    o.end = END_TIMEOUT;
    int resting = 0, kind = 0, idle = 0;
    while (!game_dead(g) && g->turn < TURN_CAP) {
        int key = bot_key(g, &resting, &kind);
        if (!key) {
            o.end = END_STUCK;
            break;
        }
        uint32_t before = g->turn;
        o.level_at[g->depth] = g->player.level;
        game_key(g, key);
        idle = g->turn == before ? idle + 1 : 0;
        if (idle > 50) {
            o.end = END_STUCK;
            break;
        }
    }
    if (g->depth <= DEPTHS)
        o.level_at[g->depth] = g->player.level;
    if (game_won(g))
        o.end = END_WON;
    else if (game_dead(g))
        o.end = g->killer == KILLER_FIREBALL ? END_FIREBALL : g->killer - 1;
    o.turns = (int)g->turn;
    o.kills = g->kills;
    o.level = g->player.level;
    o.depth = g->depth;
    game_free(g);
    return o;
}

static const char *end_name(int e)
{
    switch (e) {
    case END_FIREBALL: return "own fireball";
    case END_WON: return "won";
    case END_TIMEOUT: return "turn cap";
    case END_STUCK: return "bot stuck";
    default: return monster_stats(e)->name;
    }
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
    printf("Balance: %d games per ruleset (seeds %llu..%llu), the careful "
           "newcomer of tests/bench/bot.h\n(explores with o, travels to the "
           "stairs, wears the best equipment, rests below 60%% HP), turn cap "
           "%d.\n",
           n, (unsigned long long)first_seed,
           (unsigned long long)(first_seed + (uint64_t)n - 1), TURN_CAP);
    static const int order[RULES_COUNT] = { RULES_POWER, RULES_ATTACK_DEFENSE,
                                            RULES_D10, RULES_DICE_POOL };
    for (int oi = 0; oi < RULES_COUNT; oi++) {
        int r = order[oi];
        play_all(r, first_seed, n, out);
        int ends[END_COUNT] = { 0 }, by_depth[DEPTHS + 2] = { 0 };
        int died = 0;
        for (int i = 0; i < n; i++) {
            ends[out[i].end]++;
            if (out[i].end < END_WON) {
                died++;
                by_depth[out[i].depth <= DEPTHS ? out[i].depth : DEPTHS + 1]++;
            }
        }
        printf("\n### %s\n\n", combat_ruleset_name(r));
        int nd = 0;
        for (int i = 0; i < n; i++)
            if (out[i].end < END_WON)
                v[nd++] = out[i].depth;
        int ddm = nd ? quantile(v, nd, 0.5) : 0;
        for (int i = 0; i < n; i++) v[i] = out[i].turns;
        int tm = quantile(v, n, 0.5), t90 = quantile(v, n, 0.9);
        for (int i = 0; i < n; i++) v[i] = out[i].depth;
        int dm = quantile(v, n, 0.5);
        printf("Games: %d; died %d (%.1f%%), won %d (%.1f%%), turn cap %d "
               "(%.1f%%), bot stuck %d; turns median %d, p90 %d; depth "
               "reached median %d.\n\n",
               n, died, 100.0 * died / n, ends[END_WON],
               100.0 * ends[END_WON] / n, ends[END_TIMEOUT],
               100.0 * ends[END_TIMEOUT] / n, ends[END_STUCK], tm, t90, dm);
        printf("| deaths by depth |");
        for (int d = 1; d <= DEPTHS; d++)
            printf(" %d |", d);
        printf("\n|---|");
        for (int d = 1; d <= DEPTHS; d++)
            printf("---|");
        printf("\n| deaths |");
        for (int d = 1; d <= DEPTHS; d++)
            printf(" %d |", by_depth[d]);
        printf("\n| median XP level on leaving |");
        int lvl_med[DEPTHS + 1];
        for (int d = 1; d <= DEPTHS; d++) {
            int k = 0;
            for (int i = 0; i < n; i++)
                if (out[i].level_at[d] > 0)
                    v[k++] = out[i].level_at[d];
            lvl_med[d] = k >= 10 ? quantile(v, k, 0.5) : 0;
            if (lvl_med[d])
                printf(" %d |", lvl_med[d]);
            else
                printf(" - |");
        }
        printf("\n\n| cause of death | deaths | share of deaths |\n|---|---|---|\n");
        int worst = 0, worst_k = 0;
        for (int k = 0; k <= END_FIREBALL; k++) {
            if (!ends[k])
                continue;
            printf("| %s | %d | %.1f%% |\n", end_name(k), ends[k],
                   100.0 * ends[k] / (died ? died : 1));
            if (ends[k] > worst) {
                worst = ends[k];
                worst_k = k;
            }
        }
        double win = 100.0 * ends[END_WON] / n;
        double worst_share = died ? 100.0 * worst / died : 0;
        int lvl_ok = 1, lvl_bad = 0;
        for (int d = 1; d <= DEPTHS; d++)
            if (lvl_med[d] && (lvl_med[d] < d || lvl_med[d] > 3 * d)) {
                lvl_ok = 0;
                lvl_bad = d;
            }
        printf("\nTargets:\n");
        printf("- median depth of death 3-8: %d, %s\n", ddm,
               ddm >= 3 && ddm <= 8 ? "met" : "NOT met");
        printf("- wins 2-30%%: %.1f%%, %s\n", win,
               win >= 2 && win <= 30 ? "met" : "NOT met");
        printf("- no kind above 35%% of deaths: worst %s %.1f%%, %s\n",
               end_name(worst_k), worst_share,
               worst_share <= 35 ? "met" : "NOT met");
        if (lvl_ok)
            printf("- median XP level at depth d within d..3d: met at every "
                   "depth with 10 or more games\n");
        else
            printf("- median XP level at depth d within d..3d: NOT met "
                   "(depth %d: level %d)\n", lvl_bad, lvl_med[lvl_bad]);
        int d1 = 0, d1_troll = 0;
        for (int i = 0; i < n; i++)
            if (out[i].end < END_WON && out[i].depth == 1) {
                d1++;
                d1_troll += out[i].end == MON_TROLL;
            }
        printf("- a depth-1 troll not the main cause of death: %d of %d "
               "deaths (%.1f%%) were to a troll at depth 1, %s\n",
               d1_troll, died, died ? 100.0 * d1_troll / died : 0.0,
               d1_troll * 2 < died && d1_troll <= worst ? "met" : "NOT met");
        (void)d1;
        printf("- turn cap reached by under 1%%: %.1f%%, %s\n",
               100.0 * ends[END_TIMEOUT] / n,
               ends[END_TIMEOUT] * 100 < n ? "met" : "NOT met");
        fflush(stdout);
    }
    free(out);
    free(v);
    return 0;
}
