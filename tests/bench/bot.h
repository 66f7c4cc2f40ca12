/* bot.h - the scripted player of the core and output benchmarks.
 *
 * It explores, fights, uses items and goes down: it uses an item when one
 * fits (bot_item_key: a potion below 40% HP in a fight; against a strong
 * monster in view, or when hurt, a lightning bolt within 5, a fireball at
 * one more than 3 away, a confusion within 8); picks up what it stands on;
 * hits a monster next to it; rests (waits) when below half HP with nothing
 * in view; walks toward the nearest monster in view; otherwise toward the
 * nearest item it has seen, then the nearest walkable tile it has not seen
 * yet (the bot knows the map: it reads game_t); once everything is seen,
 * toward the nearest living monster; with none left, to the stairs and
 * down. A game ends when the bot dies, has nothing left to do, or reaches a
 * turn cap.
 *
 * A script is the keys the bot pressed in a run of games (seed, keys), played
 * once untimed; the benchmarks then replay the keys, so that the bot's own
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

/* The pack slot the bot would use now, or -1: a potion below 40% HP with
 * a monster in view; against the nearest monster in view when it is strong
 * (10 hp or more) or the bot is below half HP: a lightning bolt if it is
 * within 5, a fireball if it is more than 3 away (the blast misses the bot),
 * a confusion if it is within 8 and not confused yet. */
static inline int bot_item_choice(const game_t *g)
{
    const player_t *p = &g->player;
    int slot[IK_COUNT];
    for (int k = 0; k < IK_COUNT; k++)
        slot[k] = -1;
    for (int i = g->pack_count - 1; i >= 0; i--)
        slot[g->pack[i]] = i;
    int near = -1, nd = 0;
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *m = &g->monsters[i];
        if (!m->alive || !g->visible[m->y][m->x])
            continue;
        int dx = m->x - p->x, dy = m->y - p->y;
        if (near < 0 || dx * dx + dy * dy < nd) {
            near = i;
            nd = dx * dx + dy * dy;
        }
    }
    if (near < 0)
        return -1;
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
    if (g->pack_count < PACK_SIZE)
        for (int i = 0; i < MAX_ITEMS; i++)
            if (g->items[i].type == ITEM_THING && g->items[i].x == p->x &&
                g->items[i].y == p->y)
                return 'g';
    return 0;
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
    if (!in_view && p->hp * 2 < p->max_hp)
        *resting = 1;
    if (*resting && !in_view && p->hp < p->max_hp) {
        *kind = BOT_REST;
        return '.';
    }
    *resting = 0;
    static dmap_t from, to; /* the bot is not timed and not threaded */
    ai_distance_map(&g->map, p->x, p->y, &from);
    int tx = -1, ty = -1, best = DMAP_FAR;
    /* 1: a monster in view; 2: a seen item; 3: an unseen tile; 4: any
     * monster; 5: the stairs. */
    for (int pass = 1; pass <= 5 && tx < 0; pass++) {
        if (pass == 2) {
            for (int i = 0; i < MAX_ITEMS && g->pack_count < PACK_SIZE; i++) {
                const item_t *it = &g->items[i];
                if (it->type == ITEM_THING && it->seen &&
                    from.v[it->y][it->x] < best) {
                    best = from.v[it->y][it->x];
                    tx = it->x;
                    ty = it->y;
                }
            }
            *kind = BOT_EXPLORE;
            continue;
        }
        if (pass == 5) {
            if (g->map.tile[p->y][p->x] == TILE_STAIRS) {
                *kind = BOT_DESCEND;
                return '>';
            }
            for (int y = 0; y < MAP_H; y++)
                for (int x = 0; x < MAP_W; x++)
                    if (g->map.tile[y][x] == TILE_STAIRS) {
                        tx = x;
                        ty = y;
                    }
            *kind = BOT_DESCEND;
            continue;
        }
        if (pass == 3) {
            for (int y = 0; y < MAP_H; y++)
                for (int x = 0; x < MAP_W; x++)
                    if (!g->map.explored[y][x] && from.v[y][x] < best) {
                        best = from.v[y][x];
                        tx = x;
                        ty = y;
                    }
            *kind = BOT_EXPLORE;
            continue;
        }
        for (int i = 0; i < MAX_MONSTERS; i++) {
            const monster_t *m = &g->monsters[i];
            if (m->alive && (pass == 4 || g->visible[m->y][m->x]) &&
                from.v[m->y][m->x] < best) {
                best = from.v[m->y][m->x];
                tx = m->x;
                ty = m->y;
            }
        }
        *kind = BOT_CHASE;
    }
    if (tx < 0)
        return 0;
    uint8_t occ[MAP_H][MAP_W];
    memset(occ, 0, sizeof occ);
    for (int i = 0; i < MAX_MONSTERS; i++)
        if (g->monsters[i].alive)
            occ[g->monsters[i].y][g->monsters[i].x] = 1;
    occ[ty][tx] = 0; /* the target itself: step next to it, then bump */
    ai_distance_map(&g->map, tx, ty, &to);
    int nx, ny;
    if (!ai_step_down(&g->map, &to, occ, p->x, p->y, &nx, &ny)) {
        *kind = BOT_REST;
        return '.';
    }
    return bot_key_for(nx - p->x, ny - p->y);
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
            int key = bot_key(g, &resting, &kind);
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
