/* bench_balance.c - the balance benchmark: the careful newcomer plays many
 * games of each combat ruleset, headless, and the bench prints how deep it
 * gets, what kills it, how often it wins, and where each balance target of
 * docs/balance.md stands. Two bots, one policy: the screen-only bot
 * (screen_bot.h: it sees the drawn 80x24 screen and nothing else), whose
 * figures the targets are about, and the state-reading bot (bot.h) as a
 * second row, so that the difference shows. Not a test: a measure for
 * tuning the content tables (common/monster.c).
 *
 *   bench_balance [GAMES] [FIRST_SEED]   (defaults 1000 and 1,000,001;
 *                                         BALANCE_GAMES=N sets GAMES too,
 *                                         BALANCE_BOTS=screen skips the
 *                                         state-reading bot,
 *                                         BALANCE_RULESET=NAME plays one
 *                                         ruleset, BALANCE_CROSS=1 adds the
 *                                         deaths by depth and kind)
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
#include "screen_bot.h"
#include "view.h"

#define TURN_CAP 30000
#define WORKERS 2
#define DEPTHS GAME_AMULET_DEPTH

enum { END_FIREBALL = MON_COUNT, END_WON, END_TIMEOUT, END_STUCK, END_COUNT };

typedef struct outcome {
    int turns, kills, level, depth, end; /* end: a monster kind, or END_* */
    int level_at[DEPTHS + 1];            /* XP level on leaving each depth
                                            (0: never there) */
} outcome_t;

/* The next key of the bot that plays g: the screen-only bot draws the
 * game as a player's terminal would show it and reads that alone. */
typedef struct player_bot {
    int screen_only;
    screen_t scr;
    sbot_t sb;
    int resting;
} player_bot_t;

static int next_key(player_bot_t *pb, const game_t *g)
{
    int kind = 0;
    if (!pb->screen_only)
        return bot_key(g, &pb->resting, &kind);
    view_draw(g, &pb->scr);
    return sbot_key(&pb->sb, &pb->scr);
}

static outcome_t play(uint64_t seed, int ruleset, int screen_only)
{
    player_bot_t pb;
    memset(&pb, 0, sizeof pb);
    pb.screen_only = screen_only;
    sbot_init(&pb.sb);
    if (screen_only && screen_init(&pb.scr, SR_W, SR_H) != 0) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    game_options_t opt = { .ruleset = ruleset };
    game_t *g = game_new(seed, &opt);
    if (!g) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    outcome_t o;
    memset(&o, 0, sizeof o);
    o.end = END_TIMEOUT;
    int idle = 0;
    while (!game_dead(g) && g->turn < TURN_CAP) {
        int key = next_key(&pb, g);
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
    screen_free(&pb.scr);
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
static void play_range(int ruleset, int screen_only, uint64_t first_seed,
                       int from, int to, outcome_t *out)
{
    for (int i = from; i < to; i++)
        out[i] = play(first_seed + (uint64_t)i, ruleset, screen_only);
}

/* Plays n games split over WORKERS processes (results through pipes). */
static void play_all(int ruleset, int screen_only, uint64_t first_seed, int n,
                     outcome_t *out)
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
            play_range(ruleset, screen_only, first_seed, from, to, out);
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

/* What the targets are about, for one bot under one ruleset. */
typedef struct summary {
    int n, died, won, capped, stuck;
    int ends[END_COUNT];
    int by_depth[DEPTHS + 2];
    int lvl_med[DEPTHS + 1];  /* 0: under 10 games reached the depth */
    int death_depth_med, turns_med, turns_p90, depth_med;
    int worst_kind, worst_depth; /* the largest shares of deaths */
} summary_t;

static void summarize(const outcome_t *out, int n, int *v, summary_t *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    for (int i = 0; i < n; i++) {
        s->ends[out[i].end]++;
        if (out[i].end < END_WON) {
            s->died++;
            s->by_depth[out[i].depth <= DEPTHS ? out[i].depth : DEPTHS + 1]++;
        }
    }
    s->won = s->ends[END_WON];
    s->capped = s->ends[END_TIMEOUT];
    s->stuck = s->ends[END_STUCK];
    int nd = 0;
    for (int i = 0; i < n; i++)
        if (out[i].end < END_WON)
            v[nd++] = out[i].depth;
    s->death_depth_med = nd ? quantile(v, nd, 0.5) : 0;
    for (int i = 0; i < n; i++)
        v[i] = out[i].turns;
    s->turns_med = quantile(v, n, 0.5);
    s->turns_p90 = quantile(v, n, 0.9);
    for (int i = 0; i < n; i++)
        v[i] = out[i].depth;
    s->depth_med = quantile(v, n, 0.5);
    for (int d = 1; d <= DEPTHS; d++) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (out[i].level_at[d] > 0)
                v[k++] = out[i].level_at[d];
        s->lvl_med[d] = k >= 10 ? quantile(v, k, 0.5) : 0;
        if (s->by_depth[d] > s->by_depth[s->worst_depth])
            s->worst_depth = d;
    }
    for (int k = 0; k <= END_FIREBALL; k++)
        if (s->ends[k] > s->ends[s->worst_kind])
            s->worst_kind = k;
}

static double share(int k, int of)
{
    return of ? 100.0 * k / of : 0.0;
}

/* The depth whose median XP level is outside d..3d (0: none). */
static int level_miss(const summary_t *s)
{
    for (int d = 1; d <= DEPTHS; d++)
        if (s->lvl_med[d] && (s->lvl_med[d] < d || s->lvl_med[d] > 3 * d))
            return d;
    return 0;
}

/* A table's head: `first`, then a column per depth. */
static void print_depth_head(const char *first)
{
    printf("| %s |", first);
    for (int d = 1; d <= DEPTHS; d++)
        printf(" %d |", d);
    printf("\n|---|");
    for (int d = 1; d <= DEPTHS; d++)
        printf("---|");
}

static void print_tables(const summary_t *s)
{
    printf("Games: %d; died %d (%.1f%%), won %d (%.1f%%), turn cap %d "
           "(%.1f%%), bot stuck %d; turns median %d, p90 %d; depth reached "
           "median %d.\n\n", s->n, s->died, share(s->died, s->n),
           s->won, share(s->won, s->n), s->capped, share(s->capped, s->n),
           s->stuck, s->turns_med, s->turns_p90, s->depth_med);
    print_depth_head("depth");
    printf("\n| deaths |");
    for (int d = 1; d <= DEPTHS; d++)
        printf(" %d |", s->by_depth[d]);
    printf("\n| share of deaths |");
    for (int d = 1; d <= DEPTHS; d++)
        printf(" %.0f%% |", share(s->by_depth[d], s->died));
    printf("\n| median XP level on leaving |");
    for (int d = 1; d <= DEPTHS; d++)
        s->lvl_med[d] ? printf(" %d |", s->lvl_med[d]) : printf(" - |");
    printf("\n\n| cause of death | deaths | share of deaths |\n|---|---|---|\n");
    for (int k = 0; k <= END_FIREBALL; k++)
        if (s->ends[k])
            printf("| %s | %d | %.1f%% |\n", end_name(k), s->ends[k],
                   share(s->ends[k], s->died));
}

/* BALANCE_CROSS=1: the deaths by cause (rows) and depth (columns), to see
 * which kind makes a depth's share (a tuning aid, not in the published
 * run). */
static void print_cross(const outcome_t *out, int n)
{
    static int cell[END_COUNT][DEPTHS + 2];
    memset(cell, 0, sizeof cell);
    for (int i = 0; i < n; i++)
        if (out[i].end < END_WON)
            cell[out[i].end][out[i].depth <= DEPTHS ? out[i].depth
                                                    : DEPTHS + 1]++;
    printf("\n");
    print_depth_head("cause by depth");
    printf("\n");
    for (int k = 0; k < END_WON; k++) {
        int any = 0;
        for (int d = 1; d <= DEPTHS + 1; d++)
            any |= cell[k][d];
        if (!any)
            continue;
        printf("| %s |", end_name(k));
        for (int d = 1; d <= DEPTHS; d++)
            printf(" %d |", cell[k][d]);
        printf("\n");
    }
}

static const char *met(int ok)
{
    return ok ? "met" : "NOT met";
}

/* Issue 23's targets (docs/balance.md, "The targets"). */
static void print_targets(const summary_t *s)
{
    double win = share(s->won, s->n);
    double kind = share(s->ends[s->worst_kind], s->died);
    double depth = share(s->by_depth[s->worst_depth], s->died);
    int miss = level_miss(s);
    printf("\nTargets:\n");
    printf("- wins 3-20%%: %.1f%%, %s\n", win, met(win >= 3 && win <= 20));
    printf("- median depth of death 5-9: %d, %s\n", s->death_depth_med,
           met(s->death_depth_med >= 5 && s->death_depth_med <= 9));
    printf("- no depth above 20%% of deaths: worst depth %d, %.1f%%, %s\n",
           s->worst_depth, depth, met(depth <= 20));
    printf("- no kind above 25%% of deaths: worst %s, %.1f%%, %s\n",
           end_name(s->worst_kind), kind, met(kind <= 25));
    if (miss)
        printf("- median XP level at depth d within d..3d: NOT met (depth "
               "%d: level %d)\n", miss, s->lvl_med[miss]);
    else
        printf("- median XP level at depth d within d..3d: met at every "
               "depth with 10 or more games\n");
    printf("- turn cap under 1%%: %.1f%%, %s\n", share(s->capped, s->n),
           met(s->capped * 100 < s->n));
}

/* A row of the summary table. */
static void print_row(const char *ruleset, const char *bot, const summary_t *s)
{
    printf("| %s | %s | %.1f%% | %d | %d (%.1f%%) | %s (%.1f%%) | %s | "
           "%.1f%% |\n", ruleset, bot, share(s->won, s->n),
           s->death_depth_med, s->worst_depth,
           share(s->by_depth[s->worst_depth], s->died), end_name(s->worst_kind),
           share(s->ends[s->worst_kind], s->died),
           level_miss(s) ? "NOT met" : "met", share(s->capped, s->n));
}

int main(int argc, char **argv)
{
    const char *env = getenv("BALANCE_GAMES");
    int n = argc > 1 ? atoi(argv[1]) : env ? atoi(env) : 1000;
    uint64_t first_seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1000001;
    if (n < 1)
        n = 1;
    outcome_t *out = calloc((size_t)n, sizeof *out);
    int *v = calloc((size_t)n, sizeof *v);
    summary_t sum[RULES_COUNT][2];
    if (!out || !v)
        return 1;
    printf("Balance: %d games per ruleset (seeds %llu..%llu), turn cap %d. "
           "The careful newcomer: the screen-only bot (tests/bench/"
           "screen_bot.h) and, second, the state-reading bot (tests/bench/"
           "bot.h).\n", n, (unsigned long long)first_seed,
           (unsigned long long)(first_seed + (uint64_t)n - 1), TURN_CAP);
    static const int order[RULES_COUNT] = { RULES_POWER, RULES_ATTACK_DEFENSE,
                                            RULES_D10, RULES_DICE_POOL };
    static const char *bots[2] = { "state-reading", "screen-only" };
    /* BALANCE_BOTS=screen: the screen-only bot alone (quick tuning runs). */
    const char *which = getenv("BALANCE_BOTS");
    int last = which && strcmp(which, "screen") == 0 ? 1 : 0;
    const char *only = getenv("BALANCE_RULESET");
    const char *cross = getenv("BALANCE_CROSS");
    for (int oi = 0; oi < RULES_COUNT; oi++) {
        if (only && strcmp(only, combat_ruleset_name(order[oi])) != 0)
            continue;
        for (int so = 1; so >= last; so--) {
            play_all(order[oi], so, first_seed, n, out);
            summarize(out, n, v, &sum[oi][so]);
            printf("\n### %s, %s bot\n\n", combat_ruleset_name(order[oi]),
                   bots[so]);
            print_tables(&sum[oi][so]);
            if (cross && strcmp(cross, "1") == 0)
                print_cross(out, n);
            print_targets(&sum[oi][so]);
            fflush(stdout);
        }
    }
    printf("\n### Summary\n\n| ruleset | bot | wins | median depth of death "
           "| largest depth (share) | worst kind (share) | XP level d..3d | "
           "turn cap |\n|---|---|---|---|---|---|---|---|\n");
    for (int oi = 0; oi < RULES_COUNT; oi++)
        for (int so = 1; so >= last; so--)
            if (!only || strcmp(only, combat_ruleset_name(order[oi])) == 0)
                print_row(combat_ruleset_name(order[oi]), bots[so], &sum[oi][so]);
    free(out);
    free(v);
    return 0;
}
