/* arena.h - what the game's unit suites share: an open 40x15 room
 * (x 1..40, y 1..15), the player at (10, 8), no monster, no item, the
 * field of view made, so that a test places exactly what it is about;
 * and two ways to read what a test made: the log and the screen (a
 * row's text, or where some text is).
 *
 * Header-only: each test binary is one file. */
#ifndef ROGUE_TEST_ARENA_H
#define ROGUE_TEST_ARENA_H

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "screen.h"

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

/* The room made a corridor: row 8 alone is floor (the view is the
 * caller's to make again, once its monsters are placed). */
static inline void arena_corridor(game_t *g)
{
    for (int y = 1; y <= 15; y++)
        for (int x = 1; x <= 40; x++)
            g->map.tile[y][x] = y == 8 ? TILE_FLOOR : TILE_WALL;
}

/* The arena with every tile explored and every kind known. */
static inline game_t *arena_explored(void)
{
    game_t *g = arena_room(1, NULL);
    for (int k = 0; k < IK_COUNT; k++)
        item_learn(g, k);
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            tile_bit_put(g->map.explored[y], x, 1);
    game_update_fov(g);
    return g;
}

/* Types `0`, the digits of n, then key (a count); key's answer. */
static inline int arena_count_key(game_t *g, int n, int key)
{
    char digits[12];
    snprintf(digits, sizeof digits, "%d", n);
    game_key(g, '0');
    for (const char *d = digits; *d; d++)
        game_key(g, *d);
    return game_key(g, key);
}

/* Lines of the log (the whole history) holding `text`. */
static inline int arena_log_count(const game_t *g, const char *text)
{
    int n = 0;
    for (int i = 0; game_msg(g, i); i++)
        n += strstr(game_msg(g, i)->text, text) != NULL;
    return n;
}

/* Row y of s as text into line (n bytes, NUL-terminated): a byte a
 * cell, blanks kept. Returns line. */
static inline char *arena_row(const screen_t *s, int y, char *line, size_t n)
{
    int w = s->w < (int)n - 1 ? s->w : (int)n - 1;
    for (int x = 0; x < w; x++)
        line[x] = (char)screen_cat(s, x, y)->ch;
    line[w > 0 ? w : 0] = '\0';
    return line;
}

/* The first row of the screen that holds `text`, -1 if none. */
static inline int arena_screen_row(const screen_t *s, const char *text)
{
    for (int y = 0; y < s->h; y++) {
        char line[256];
        if (strstr(arena_row(s, y, line, sizeof line), text))
            return y;
    }
    return -1;
}

/* 1 if a row of the screen holds `text`. */
static inline int arena_screen_has(const screen_t *s, const char *text)
{
    return arena_screen_row(s, text) >= 0;
}

#endif
