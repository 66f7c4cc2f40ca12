/* plan.c - scripted fights for the session tests (plan.h). */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ai.h"
#include "combat.h"
#include "plan.h"
#include "play.h"
#include "view.h"
#include "walker.h"



enum bot_mode {
    BOT_FIGHT,  /* attack the monster next to it */
    BOT_STAND   /* once a monster is next to it, only wait ('.') */
};

static char dir_key(int dx, int dy)
{
    static const char keys[3][3] = { { 'y', 'k', 'u' }, { 'h', '.', 'l' },
                                     { 'b', 'j', 'n' } };
    return keys[dy + 1][dx + 1];
}

/* The bot's next key: next to a monster, fight (or stand); else walk the
 * shortest path to the nearest living monster. */
static char bot_key(const game_t *g, int mode)
{
    const player_t *p = &g->player;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && game_monster_at(g, p->x + dx, p->y + dy) >= 0)
                return mode == BOT_FIGHT ? dir_key(dx, dy) : '.';
    dmap_t d;
    ai_distance_map(&g->map, p->x, p->y, &d);
    int best = -1, best_d = DMAP_FAR;
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *m = &g->monsters[i];
        if (m->alive && d.v[m->y][m->x] < best_d) {
            best_d = d.v[m->y][m->x];
            best = i;
        }
    }
    if (best < 0)
        return '.';
    ai_distance_map(&g->map, g->monsters[best].x, g->monsters[best].y, &d);
    int nx, ny;
    if (!ai_step_down(&g->map, &d, NULL, p->x, p->y, &nx, &ny))
        return '.';
    return dir_key(nx - p->x, ny - p->y);
}

/* A plan's start: no keys yet, and its game. */
static game_t *plan_begin(uint64_t seed, int ruleset, plan_t *pl)
{
    game_options_t o = { .ruleset = ruleset };
    pl->seed = seed;
    pl->ruleset = ruleset;
    pl->n = 0;
    return game_new(seed, &o);
}

int hp_band(const player_t *p) /* 2 green, 1 yellow, 0 red */
{
    return p->hp * 10 > p->max_hp * 6 ? 2 : p->hp * 10 > p->max_hp * 3 ? 1 : 0;
}

/* A death plan: the bot walks to a monster and stands still until it
 * dies; the HP passes through yellow and red on the way. */
int plan_death(uint64_t seed, int ruleset, plan_t *pl)
{
    game_t *g = plan_begin(seed, ruleset, pl);
    int yellow = 0, red = 0;
    while (pl->n < MAX_KEYS && !game_dead(g)) {
        pl->keys[pl->n] = bot_key(g, BOT_STAND);
        game_key(g, pl->keys[pl->n++]);
        int band = hp_band(&g->player);
        yellow |= band == 1 && !red;
        red |= band == 0 && yellow;
    }
    int ok = game_dead(g) && yellow && red && pl->n < 200;
    game_free(g);
    return ok;
}

/* A fight plan: the bot walks to a monster and fights until the first
 * kill, and lives. */
int plan_fight(uint64_t seed, int ruleset, plan_t *pl)
{
    game_t *g = plan_begin(seed, ruleset, pl);
    while (pl->n < 150 && !game_dead(g) && g->kills == 0) {
        pl->keys[pl->n] = bot_key(g, BOT_FIGHT);
        game_key(g, pl->keys[pl->n++]);
    }
    int ok = g->kills == 1 && !game_dead(g);
    game_free(g);
    return ok;
}

/* One round of plan_errands: its keys go on pl's. */
static int errand_round(game_t *g, plan_t *pl)
{
    walk_keys_t k = { 0 };
    int tx, ty, kills = g->kills, packed = g->pack_count, slot = 0;
    if (!walk_nearest_item(g, -1, 60, &tx, &ty) || !walk_to(&k, g, tx, ty) ||
        !walk_push(&k, g, 'g') || g->pack_count <= packed)
        return 0;
    while (slot < PACK_SIZE - 1 && g->pack_n[slot] == 0)
        slot++;
    if (!walk_push(&k, g, 'd') || g->mode != MODE_DROP ||
        !walk_push(&k, g, 'a' + slot) || g->mode != MODE_PLAY)
        return 0;
    while (!game_dead(g) && g->kills == kills)
        if (!walk_push(&k, g, bot_key(g, BOT_FIGHT)))
            return 0;
    if (game_dead(g) || g->mode != MODE_PLAY || pl->n + k.n > MAX_KEYS)
        return 0;
    for (int i = 0; i < k.n; i++)
        pl->keys[pl->n++] = (char)k.keys[i];
    return 1;
}

int plan_errands(uint64_t seed, int ruleset, plan_t *pl)
{
    game_t *g = plan_begin(seed, ruleset, pl);
    int ok = errand_round(g, pl);
    pl->half = pl->n;
    pl->filler = PLAN_SNAP_KEYS - pl->n;
    for (int i = 0; ok && i < pl->filler; i++)
        game_key(g, 'z');
    ok = ok && errand_round(g, pl);
    game_free(g);
    return ok;
}

void find_plan(int (*fn)(uint64_t, int, plan_t *), int ruleset,
                      plan_t *pl)
{
    for (uint64_t seed = 1; seed <= 2000; seed++)
        if (fn(seed, ruleset, pl))
            return;
    ck_abort_msg("no seed in 1..2000 gives the fight this test needs");
}

/* The client's screen is the game's own screen, row for row; and the HP
 * on the status line has its colour (bright green, yellow or red). */
void expect_screen(const tclient_t *c, const game_t *g, int key_no)
{
    int h = cl_h(c);
    play_expect_rows(c, g, 0, h - 1, 0, key_no);
    if (!game_dead(g) && g->mode == MODE_PLAY) {
        screen_t s;
        cl_cell_t cell;
        screen_init(&s, cl_w(c), h);
        view_draw(g, &s);
        int y = view_status_row(cl_w(c), h);
        cl_cell(c, 0, y, &cell);
        ck_assert_int_eq(cell.fg, screen_cat(&s, 0, y)->fg);
        screen_free(&s);
    }
}

/* Sends the plan's keys, checking the screen after each. Returns the
 * test's copy of the game after the last key. */
game_t *play_plan(tclient_t *c, const plan_t *pl)
{
    game_options_t o = { .ruleset = pl->ruleset };
    game_t *g = game_new(pl->seed, &o);
    expect_screen(c, g, 0);
    for (int i = 0; i < pl->n; i++) {
        char key[2] = { pl->keys[i], 0 };
        if (!cl_key(c, key))
            play_fail(c, "no answer to key %d ('%c')", i + 1, key[0]);
        game_key(g, key[0]);
        expect_screen(c, g, i + 1);
    }
    return g;
}

game_t *plan_death_setup(plan_t *pl, tsrv_t **s, tclient_t **c,
                         const cl_opts_t *o, ...)
{
    plan_t own;
    if (!pl)
        pl = &own;
    find_plan(plan_death, RULES_ATTACK_DEFENSE, pl);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)pl->seed);
    const char *args[32] = { "--seed", seed };
    int n = 2;
    va_list ap;
    va_start(ap, o);
    for (const char *a = va_arg(ap, const char *); a;
         a = va_arg(ap, const char *)) {
        ck_assert_int_lt(n, 31);
        args[n++] = a;
    }
    va_end(ap);
    args[n] = NULL;
    *s = srv_start_argv(args);
    if (!c)
        return NULL;
    *c = play_connect(srv_port(*s), o);
    game_t *g = play_plan(*c, pl);
    ck_assert(game_dead(g));
    return g;
}
