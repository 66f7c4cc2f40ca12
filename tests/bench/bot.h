/* bot.h - the scripted player of the core, output and balance benchmarks:
 * a careful newcomer.
 *
 * It uses an item when one fits (bot_item_key: a potion below 40% HP with
 * a monster in view, or poisoned below a third; against a strong monster in
 * view, or when hurt, a lightning bolt within 5, a fireball at more than 3
 * away, a confusion within 8); wields and wears the best equipment it
 * carries (the later rows of the item table are the better ones); picks up
 * what it stands on (the Amulet too, which wins); hits a monster next to
 * it; rests (waits) when below 60% HP with nothing in view, until healed;
 * walks toward the nearest monster in view; otherwise explores with `o`
 * (autoexplore, which also walks to items it has seen) and, once that
 * finds nothing, travels to the stairs and goes down with `>`. A game ends
 * when the bot dies, wins, has nothing left to do, or reaches a turn cap.
 *
 * A script is the keys the bot pressed in a run of games (seed, keys), played
 * once untimed, one turn per key (bot_key_single); the benchmarks then replay the keys, so that the bot's own
 * path finding is never part of a measured time. Header-only (static
 * inline): each benchmark is one source file. */
#ifndef ROGUE_BENCH_BOT_H
#define ROGUE_BENCH_BOT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "game.h"

#define BOT_TURN_CAP 2000

#include "item.h"
#include "travel.h"

/* Esc and Enter as keys.h has them (27, 13): bench_output.c includes
 * curses.h, whose KEY_* macros clash with keys.h's names. */
#define BOT_ESC 27
#define BOT_ENTER 13

/* What kinds of key the bot pressed (for the benchmarks' "mix" line). */
enum { BOT_EXPLORE, BOT_FIGHT, BOT_CHASE, BOT_REST, BOT_ITEM, BOT_DESCEND,
       BOT_KINDS };

static inline int bot_key_for(int dx, int dy)
{
    static const char keys[3][3] = { { 'y', 'k', 'u' }, { 'h', '.', 'l' },
                                     { 'b', 'j', 'n' } };
    return keys[dy + 1][dx + 1];
}

/* How good a weapon or armour is to the bot: its attack or defense bonus
 * (-1: none). Game version 6 added rows after the ladder (the spear), so
 * the row alone no longer ranks them. */
static inline int bot_rank(int kind)
{
    if (kind < 0)
        return -1;
    const item_stats_t *k = item_stats(kind);
    return k->attack + k->defense;
}

/* The equipment slot the bot would put on now, or -1: a weapon or armour
 * in the pack better (bot_rank) than what is in use. */
static inline int bot_equip_choice(const game_t *g)
{
    const player_t *p = &g->player;
    int best = -1, best_gain = 0;
    for (int i = 0; i < PACK_SIZE; i++) {
        if (!item_pack_has(g, i) || !item_is_equipment(g->pack[i]))
            continue;
        int wield = item_stats(g->pack[i])->effect == EFFECT_WIELD;
        int cur = wield ? p->weapon : p->armor;
        int cur_kind = item_pack_has(g, cur) ? g->pack[cur] : -1;
        int gain = bot_rank(g->pack[i]) - bot_rank(cur_kind);
        /* A cursed piece in use stays (game version 7): trying again
         * would take no turn, for ever. */
        if (i != cur && gain > best_gain && !item_slot_cursed(g, cur)) {
            best = i;
            best_gain = gain;
        }
    }
    return best;
}

/* The pack slot the bot would use now, or -1 (see the top of the file). */
static inline int bot_item_choice(const game_t *g)
{
    const player_t *p = &g->player;
    int slot[IK_COUNT];
    for (int k = 0; k < IK_COUNT; k++)
        slot[k] = -1;
    for (int i = PACK_SIZE - 1; i >= 0; i--)
        if (item_pack_has(g, i))
            slot[g->pack[i]] = i;
    int near = -1, nd = 0;
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *m = &g->monsters[i];
        if (!m->alive || !game_lit(g, m->x, m->y))
            continue;
        int dx = m->x - p->x, dy = m->y - p->y;
        if (near < 0 || dx * dx + dy * dy < nd) {
            near = i;
            nd = dx * dx + dy * dy;
        }
    }
    if (near < 0) {
        if (slot[IK_HEALTH_POTION] >= 0 && p->poison > 0 &&
            p->hp * 3 < p->max_hp)
            return slot[IK_HEALTH_POTION];
        return bot_equip_choice(g);
    }
    if (slot[IK_HEALTH_POTION] >= 0 && p->hp * 10 < p->max_hp * 4)
        return slot[IK_HEALTH_POTION];
    const monster_t *m = &g->monsters[near];
    if (monster_stats(m->kind)->hp < 10 && p->hp * 2 >= p->max_hp)
        return -1;
    if (slot[IK_LIGHTNING] >= 0 && nd <= 25)
        return slot[IK_LIGHTNING];
    if (slot[IK_FIREBALL] >= 0 && nd > 9)
        return slot[IK_FIREBALL];
    if (slot[IK_CONFUSION] >= 0 && nd <= 64 && !m->confused)
        return slot[IK_CONFUSION];
    return -1;
}

/* The key for items, or 0: in the pack menu the chosen letter; aiming,
 * Enter (the cursor starts on the nearest monster in view, the one chosen
 * for), or Esc if that cannot be chosen; else `i` when an item fits, `g`
 * on a thing with room in the pack. */
static inline int bot_item_key(const game_t *g)
{
    const player_t *p = &g->player;
    int use = bot_item_choice(g);
    switch (g->mode) {
    case MODE_INVENTORY:
        return use >= 0 ? 'a' + use : BOT_ESC;
    case MODE_DROP:
    case MODE_HELP:
    case MODE_LOOK:
    case MODE_CHARACTER:
    case MODE_HISTORY:
        return BOT_ESC;
    case MODE_TARGET:
        return target_allowed(g, g->target.x, g->target.y) &&
                       game_monster_at(g, g->target.x, g->target.y) >= 0
                   ? BOT_ENTER : BOT_ESC;
    default:
        break;
    }
    if (use >= 0)
        return 'i';
    for (int i = 0; i < MAX_ITEMS; i++) {
        const item_t *it = &g->items[i];
        if (it->type != ITEM_THING || it->x != p->x || it->y != p->y ||
            g->pack_count >= PACK_SIZE)
            continue;
        if (!item_is_equipment(it->kind))
            return 'g';
        int wield = item_stats(it->kind)->effect == EFFECT_WIELD;
        int cur = wield ? p->weapon : p->armor;
        if (!item_pack_has(g, cur) || bot_rank(it->kind) > bot_rank(g->pack[cur]))
            return 'g';
    }
    return 0;
}

static inline int bot_is_unexplored_goal(const game_t *g, int x, int y)
{
    if (x == g->player.x && y == g->player.y)
        return 0;
    for (int i = 0; i < MAX_ITEMS; i++)
        if (g->items[i].type == ITEM_THING && g->items[i].x == x &&
            g->items[i].y == y && g->items[i].seen && !g->items[i].walked)
            return 1;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (map_in_bounds(x + dx, y + dy) &&
                !map_known(&g->map, x + dx, y + dy))
                return 1;
    return 0;
}

static inline int bot_is_stairs(const game_t *g, int x, int y)
{
    return g->map.tile[y][x] == TILE_STAIRS;
}

/* The bot's next key for g (0: nothing left to do); *kind says why. */
static inline int bot_key(const game_t *g, int *resting, int *kind)
{
    const player_t *p = &g->player;
    int item = bot_item_key(g);
    if (item) {
        *kind = BOT_ITEM;
        return item;
    }
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && game_monster_at(g, p->x + dx, p->y + dy) >= 0) {
                *kind = BOT_FIGHT;
                return bot_key_for(dx, dy);
            }
    int in_view = game_monster_in_view(g);
    if (!in_view && p->hp * 10 < p->max_hp * 6)
        *resting = 1;
    if (*resting && !in_view && p->hp < p->max_hp) {
        *kind = BOT_REST;
        return '.';
    }
    *resting = 0;
    int dx, dy;
    if (in_view) {
        /* Walk to the nearest monster in view. */
        static dmap_t from, to; /* the bot is not timed and not threaded */
        ai_distance_map(&g->map, p->x, p->y, &from);
        int tx = -1, ty = -1, best = DMAP_FAR;
        for (int i = 0; i < MAX_MONSTERS; i++) {
            const monster_t *m = &g->monsters[i];
            if (m->alive && game_lit(g, m->x, m->y) &&
                from.v[m->y][m->x] < best) {
                best = from.v[m->y][m->x];
                tx = m->x;
                ty = m->y;
            }
        }
        *kind = BOT_CHASE;
        if (tx < 0)
            return '.';
        uint8_t occ[MAP_H][MAP_W];
        memset(occ, 0, sizeof occ);
        for (int i = 0; i < MAX_MONSTERS; i++)
            if (g->monsters[i].alive)
                occ[g->monsters[i].y][g->monsters[i].x] = 1;
        occ[ty][tx] = 0; /* the target itself: step next to it, then bump */
        ai_distance_map(&g->map, tx, ty, &to);
        int nx, ny;
        /* Blocked by other monsters: step (or bump) through them. */
        if (!ai_step_down(&g->map, &to, occ, p->x, p->y, &nx, &ny) &&
            !ai_step_down(&g->map, &to, NULL, p->x, p->y, &nx, &ny))
            return '.';
        return bot_key_for(nx - p->x, ny - p->y);
    }
    *kind = BOT_EXPLORE;
    if (travel_first_step(g, bot_is_unexplored_goal, &dx, &dy) > 0)
        return 'o';
    *kind = BOT_DESCEND;
    if (g->map.tile[p->y][p->x] == TILE_STAIRS ||
        travel_first_step(g, bot_is_stairs, &dx, &dy) > 0)
        return '>';
    return 0;
}

/* bot_key for a script of one turn per key (the core and output
 * benchmarks time a key as a turn): autoexplore and travel become their
 * first step. */
static inline int bot_key_single(const game_t *g, int *resting, int *kind)
{
    int key = bot_key(g, resting, kind), dx, dy;
    if (key == 'o' &&
        travel_first_step(g, bot_is_unexplored_goal, &dx, &dy) > 0)
        return bot_key_for(dx, dy);
    if (key == '>' && g->map.tile[g->player.y][g->player.x] != TILE_STAIRS &&
        travel_first_step(g, bot_is_stairs, &dx, &dy) > 0)
        return bot_key_for(dx, dy);
    return key;
}

/* One game of a script. */
typedef struct bot_game {
    uint64_t seed;
    int nkeys;
    int *keys;
} bot_game_t;

typedef struct bot_script {
    int ngames;
    bot_game_t games[256];
    long turns, keys, kinds[BOT_KINDS];
    int died;
} bot_script_t;

/* Plays games from first_seed on until at least min_turns turns were taken
 * (each game at most cap turns). Exits on OOM. */
static inline void bot_script_make(bot_script_t *s, uint64_t first_seed,
                                   long min_turns, int cap)
{
    memset(s, 0, sizeof *s);
    for (uint64_t seed = first_seed; s->turns < min_turns && s->ngames < 256;
         seed++) {
        game_t *g = game_new(seed, NULL);
        bot_game_t *bg = &s->games[s->ngames++];
        bg->seed = seed;
        bg->keys = malloc(sizeof(int) * (size_t)(cap + 1) * 2);
        if (!g || !bg->keys) {
            fprintf(stderr, "bench: out of memory\n");
            exit(1);
        }
        int resting = 0, kind = 0;
        while (!game_dead(g) && (long)g->turn < cap &&
               s->turns + (long)g->turn < min_turns) {
            int key = bot_key_single(g, &resting, &kind);
            if (!key || bg->nkeys >= cap * 2)
                break;
            bg->keys[bg->nkeys++] = key;
            s->kinds[kind]++;
            game_key(g, key);
        }
        s->died += game_dead(g);
        s->turns += g->turn;
        s->keys += bg->nkeys;
        game_free(g);
    }
}

static inline void bot_script_free(bot_script_t *s)
{
    for (int i = 0; i < s->ngames; i++)
        free(s->games[i].keys);
    s->ngames = 0;
}

#endif
