/* view_display.c - the map's look for a display other than the plain one
 * (display.h): walls of box-drawing lines joined by what the player knows,
 * a middle dot for floor, remembered tiles in a cool dark tone and the
 * light fading with distance (palette.h). The plain display's look is the
 * table in view.c, eight tiles at a time (view_parts.h). docs/game.md,
 * "Displays", says what each looks like. */
#include "view_parts.h"

#include <string.h>

#include "palette.h"

/* What the player knows of a tile: nothing, a wall, or open ground (floor
 * or stairs). A tile kind past TILE_STAIRS counts as a wall, as in
 * view_look8; outside the map is unknown. */
enum { UNKNOWN = 0, KNOWN_WALL = 1, KNOWN_OPEN = 2 };

static int knowledge(const game_t *g, int x, int y)
{
    if (!map_in_bounds(x, y) || !(g->visible[y][x] || g->map.explored[y][x]))
        return UNKNOWN;
    int t = g->map.tile[y][x];
    return t == TILE_WALL || t > TILE_STAIRS ? KNOWN_WALL : KNOWN_OPEN;
}

/* Directions as bits of a wall's joins. */
enum { JOIN_N = 1, JOIN_E = 2, JOIN_S = 4, JOIN_W = 8 };

/* The box-drawing character for each set of joins. A wall with none (its
 * neighbours not seen yet) is a small square. */
static const uint16_t wall_glyph[16] = {
    [0] = 0x25a0,                                          /* ■ */
    [JOIN_N] = 0x2502, [JOIN_S] = 0x2502,                  /* │ */
    [JOIN_N | JOIN_S] = 0x2502,
    [JOIN_E] = 0x2500, [JOIN_W] = 0x2500,                  /* ─ */
    [JOIN_E | JOIN_W] = 0x2500,
    [JOIN_N | JOIN_E] = 0x2514,                            /* └ */
    [JOIN_N | JOIN_W] = 0x2518,                            /* ┘ */
    [JOIN_S | JOIN_E] = 0x250c,                            /* ┌ */
    [JOIN_S | JOIN_W] = 0x2510,                            /* ┐ */
    [JOIN_N | JOIN_E | JOIN_S] = 0x251c,                   /* ├ */
    [JOIN_N | JOIN_W | JOIN_S] = 0x2524,                   /* ┤ */
    [JOIN_E | JOIN_S | JOIN_W] = 0x252c,                   /* ┬ */
    [JOIN_E | JOIN_N | JOIN_W] = 0x2534,                   /* ┴ */
    [JOIN_N | JOIN_E | JOIN_S | JOIN_W] = 0x253c,          /* ┼ */
};

/* What the player knows of tiles x-1..x+8 of rows y-1..y+1: k[r][c] is
 * tile (x - 1 + c, y - 1 + r). `word` is row y's look indices
 * (view_look8), which say it for the chunk's own tiles. */
typedef uint8_t chunk_knowledge_t[3][10];

/* knowledge() of the 8 tiles of look indices w (view_look8), one per
 * byte: a look index is tile * 4 + 2 * lit + explored, so a byte is known
 * when one of its low two bits is set, and a wall when its tile bits (2
 * and 3) are clear. */
static uint64_t knowledge8(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u;
    uint64_t known = (w | w >> 1) & ones, wall = ~(w >> 2 | w >> 3) & ones;
    return (known & wall) * KNOWN_WALL | (known & ~wall) * KNOWN_OPEN;
}

static void chunk_knowledge(const game_t *g, int y, int x, uint64_t word,
                            chunk_knowledge_t k)
{
    for (int r = 0; r < 3; r++) {
        int yy = y - 1 + r;
        if (yy < 0 || yy >= MAP_H) {
            memset(k[r], UNKNOWN, sizeof k[r]);
            continue;
        }
        uint64_t kw = knowledge8(r == 1 ? word : view_look8(g, yy, x));
        memcpy(&k[r][1], &kw, sizeof kw);
        k[r][0] = (uint8_t)knowledge(g, x - 1, yy);
        k[r][9] = (uint8_t)knowledge(g, x + 8, yy);
    }
}

/* The glyph of the known wall at column 1 + i of k. It joins a neighbour
 * (north, east, south, west) when that neighbour is a known wall and a
 * known open tile borders the pair on one side (beside either of them): a
 * wall's face, not the inside of solid rock, so thick rock shows its
 * outline instead of a grid of crosses. Only known tiles count, so a
 * wall's shape never tells of a tile not yet seen. */
static uint32_t wall_char(const chunk_knowledge_t k, int i)
{
#define OPEN(r, c) (k[r][i + (c)] == KNOWN_OPEN)
    int j = 0;
    if (k[0][i + 1] == KNOWN_WALL &&
        (OPEN(0, 0) || OPEN(1, 0) || OPEN(0, 2) || OPEN(1, 2)))
        j |= JOIN_N;
    if (k[2][i + 1] == KNOWN_WALL &&
        (OPEN(2, 0) || OPEN(1, 0) || OPEN(2, 2) || OPEN(1, 2)))
        j |= JOIN_S;
    if (k[1][i + 2] == KNOWN_WALL &&
        (OPEN(0, 1) || OPEN(0, 2) || OPEN(2, 1) || OPEN(2, 2)))
        j |= JOIN_E;
    if (k[1][i] == KNOWN_WALL &&
        (OPEN(0, 1) || OPEN(0, 0) || OPEN(2, 1) || OPEN(2, 0)))
        j |= JOIN_W;
#undef OPEN
    return wall_glyph[j];
}

/* How far the light has faded at (x, y): 0 next to the player, up to
 * PALETTE_FLOOR_STEPS - 1 at the edge of the field of view (radius 8), by
 * the squared distance. */
static int light_step(const game_t *g, int x, int y)
{
    static const int edge[PALETTE_FLOOR_STEPS - 1] = { 2, 8, 20, 40 };
    int dx = x - g->player.x, dy = y - g->player.y, d2 = dx * dx + dy * dy;
    int step = 0;
    while (step < PALETTE_FLOOR_STEPS - 1 && d2 > edge[step])
        step++;
    return step;
}

static cell_t tile_cell(const game_t *g, const display_t *d,
                        const chunk_knowledge_t k, int i, int x, int y,
                        int look)
{
    cell_t c = view_look[look]; /* today's glyph and colour */
    int lit = look & 2, tile = look >> 2;
    if (!(look & 3))
        return c; /* not known: blank */
    if (d->glyphs == GLYPHS_UTF8) {
        if (tile == TILE_WALL)
            c.ch = wall_char(k, i);
        else if (tile == TILE_FLOOR)
            c.ch = 0xb7; /* · */
    }
    if (d->colours != COLOURS_16) {
        int step = lit ? light_step(g, x, y) : 0;
        if (tile == TILE_WALL)
            c.fg = !lit ? COL_MEM_WALL
                        : COL_LIT_WALL0 + (step < PALETTE_WALL_STEPS
                                               ? step : PALETTE_WALL_STEPS - 1);
        else if (tile == TILE_FLOOR)
            c.fg = lit ? COL_LIT_FLOOR0 + step : COL_MEM_FLOOR;
        else
            c.fg = lit ? COL_LIT_STAIRS : COL_MEM_STAIRS;
    }
    return c;
}

void view_map_cells8(const game_t *g, const display_t *d, int y, int x,
                     uint64_t word, cell_t out[8])
{
    chunk_knowledge_t k;
    /* Only walls look at their neighbours. */
    const uint64_t ones = 0x0101010101010101u;
    if (d->glyphs == GLYPHS_UTF8 && (knowledge8(word) & KNOWN_WALL * ones))
        chunk_knowledge(g, y, x, word, k);
    for (int i = 0; i < 8; i++)
        out[i] = tile_cell(g, d, k, i, x + i, y, (int)(word >> (8 * i) & 0xff));
}
