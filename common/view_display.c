/* view_display.c - the map's look for a display other than the plain one
 * (display.h): walls of box-drawing lines joined by what the player knows,
 * a middle dot for floor, remembered tiles in a cool dark tone and the
 * light fading with distance (palette.h). The plain display's look is the
 * table in view.c, eight tiles at a time (view_parts.h). docs/game.md,
 * "Displays", says what each looks like. */
#include "view_parts.h"

#include "palette.h"

/* A tile the player knows: in view now or explored. */
static int known(const game_t *g, int x, int y)
{
    return map_in_bounds(x, y) && (g->visible[y][x] || g->map.explored[y][x]);
}

/* As view_look8: a tile kind past TILE_STAIRS counts as a wall. */
static int is_wall(const game_t *g, int x, int y)
{
    int t = g->map.tile[y][x];
    return t == TILE_WALL || t > TILE_STAIRS;
}

static int known_wall(const game_t *g, int x, int y)
{
    return known(g, x, y) && is_wall(g, x, y);
}

static int known_open(const game_t *g, int x, int y)
{
    return known(g, x, y) && !is_wall(g, x, y);
}

/* Directions as bits of a wall's joins. */
enum { JOIN_N = 1, JOIN_E = 2, JOIN_S = 4, JOIN_W = 8 };

/* The line from wall (x, y) to the wall next to it (dx, dy) is drawn when
 * both are known walls and a known open tile borders the pair on one side
 * (beside either of them): a wall's face, not the inside of solid rock, so
 * thick rock shows its outline instead of a grid of crosses. Only known
 * tiles count, so a wall's shape never tells of a tile not yet seen. */
static int joins(const game_t *g, int x, int y, int dx, int dy)
{
    int nx = x + dx, ny = y + dy;
    if (!known_wall(g, nx, ny))
        return 0;
    /* The two sides of the pair: perpendicular to (dx, dy). */
    int sx = dy, sy = dx;
    return known_open(g, x + sx, y + sy) || known_open(g, nx + sx, ny + sy) ||
           known_open(g, x - sx, y - sy) || known_open(g, nx - sx, ny - sy);
}

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

static uint32_t wall_char(const game_t *g, int x, int y)
{
    int j = (joins(g, x, y, 0, -1) ? JOIN_N : 0) |
            (joins(g, x, y, 1, 0) ? JOIN_E : 0) |
            (joins(g, x, y, 0, 1) ? JOIN_S : 0) |
            (joins(g, x, y, -1, 0) ? JOIN_W : 0);
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

static cell_t tile_cell(const game_t *g, const display_t *d, int x, int y,
                        int look)
{
    cell_t c = view_look[look]; /* today's glyph and colour */
    int lit = look & 2, tile = look >> 2;
    if (!(look & 3))
        return c; /* not known: blank */
    if (d->glyphs == GLYPHS_UTF8) {
        if (tile == TILE_WALL)
            c.ch = wall_char(g, x, y);
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
    for (int i = 0; i < 8; i++)
        out[i] = tile_cell(g, d, x + i, y, (int)(word >> (8 * i) & 0xff));
}
