/* view_parts.h - the pieces of the play screen, shared by the whole-frame
 * view (view.c) and the incremental one (view_cache.c), so that both draw
 * every cell by the same rules. Internal to the view: the host uses view.h
 * and view_cache.h.
 *
 * The play screen: the map's base layer (each tile's look from its kind and
 * whether it is lit or explored), the movers over it (items where last seen,
 * monsters in view, the player), the log from the map's last row down to the
 * row above the status line, the status line. */
#ifndef ROGUE_VIEW_PARTS_H
#define ROGUE_VIEW_PARTS_H

#include <stdint.h>
#include <string.h>

#include "game.h"
#include "screen.h"

_Static_assert(MAP_W % 8 == 0, "the map is drawn 8 tiles at a time");

/* The map is handled in chunks of 8 tiles of one row. */
#define VIEW_CHUNKS_X (MAP_W / 8)
#define VIEW_CHUNKS (MAP_H * VIEW_CHUNKS_X)

/* The look of a tile by its index tile * 4 + 2 * lit + explored. */
#define VIEW_LOOKS 12
extern const cell_t view_look[VIEW_LOOKS];

/* The look indices of tiles x..x+7 of row y, one per byte (byte i is tile
 * x + i): a tile kind past TILE_STAIRS counts as a wall, any non-zero flag
 * as 1, so every byte is below VIEW_LOOKS. 0: none of them is lit or
 * explored (all blank). */
static inline uint64_t view_look8(const game_t *g, int y, int x)
{
    const uint64_t ones = 0x0101010101010101u;
    uint64_t t, lit, known;
    memcpy(&t, &g->map.tile[y][x], 8);
    memcpy(&lit, &g->visible[y][x], 8);
    memcpy(&known, &g->map.explored[y][x], 8);
    if (((lit | known) & ~ones) == 0 && (t & ~(3 * ones)) == 0 &&
        (t & t >> 1 & ones) == 0) {
        /* Every tile 0-2 and every flag 0 or 1 (always, in practice): all
         * eight at once, no byte carries into the next. */
        if ((lit | known) == 0)
            return 0;
        return t << 2 | lit << 1 | known;
    }
    uint8_t idx[8];
    for (int i = 0; i < 8; i++) {
        int tt = g->map.tile[y][x + i] <= TILE_STAIRS ? g->map.tile[y][x + i]
                                                      : TILE_WALL;
        idx[i] = (uint8_t)(tt * 4 + (g->visible[y][x + i] != 0) * 2 +
                           (g->map.explored[y][x + i] != 0));
    }
    uint64_t word;
    memcpy(&word, idx, 8);
    return word;
}

/* Writes the 8 cells of look indices `word` (view_look8) from (x, y). */
static inline void view_put_look8(screen_t *s, int y, int x, uint64_t word)
{
    /* Cells as 32-bit words (every bit is a field: screen.h). */
    cell_t *row = &s->cells[y * s->w + x];
    uint32_t cell;
    if (word == 0) {
        memcpy(&cell, &view_look[0], sizeof cell);
        uint64_t pair = (uint64_t)cell << 32 | cell;
        for (int i = 0; i < 8; i += 2)
            memcpy(&row[i], &pair, sizeof pair);
        return;
    }
    for (int i = 0; i < 8; i++, word >>= 8) {
        memcpy(&cell, &view_look[word & 0xff], sizeof cell);
        memcpy(&row[i], &cell, sizeof cell);
    }
}

/* Draws the movers over the map: items where last seen (corpses under gold
 * under things), monsters in view, the player. marks (may be NULL): the bit
 * of each chunk (y * VIEW_CHUNKS_X + x / 8) a mover is drawn in is set. */
void view_movers(const game_t *g, screen_t *s, uint8_t *marks);

/* Draws the log into rows MAP_H - 1 .. h - 2: the first blanked, the others
 * must be blank already. */
void view_log(const game_t *g, screen_t *s);

/* Draws the status line into the last row, which must be blank. */
void view_status(const game_t *g, screen_t *s);

#endif
