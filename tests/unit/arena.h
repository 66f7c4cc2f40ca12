/* arena.h - what the game's unit suites share: an open 40x15 room
 * (x 1..40, y 1..15), the player at (10, 8), no monster, no item, the
 * field of view made, so that a test places exactly what it is about.
 *
 * Header-only: each test binary is one file. */
#ifndef ROGUE_TEST_ARENA_H
#define ROGUE_TEST_ARENA_H

#include <check.h>
#include <string.h>

#include "game.h"

/* A new game from seed (o may be NULL: the defaults) cleared to the room;
 * the seed still decides what the game draws from it (appearances). */
static inline game_t *arena_room(uint64_t seed, const game_options_t *o)
{
    game_t *g = game_new(seed, o);
    ck_assert_ptr_nonnull(g);
    memset(g->monsters, 0, sizeof g->monsters);
    memset(g->items, 0, sizeof g->items);
    memset(&g->map, 0, sizeof g->map);
    for (int y = 1; y <= 15; y++)
        for (int x = 1; x <= 40; x++)
            g->map.tile[y][x] = TILE_FLOOR;
    g->map.rooms[0] = (rect_t){ 1, 1, 40, 15 };
    g->map.nrooms = 1;
    g->player.x = 10;
    g->player.y = 8;
    game_update_fov(g);
    return g;
}

#endif
