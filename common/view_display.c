/* view_display.c - the map's look for a display other than the plain one
 * (display.h): walls of box-drawing lines joined by what the player knows,
 * a middle dot for floor, remembered tiles in a cool dark tone and the
 * light brightest beside the player (palette.h). The plain display's look is the
 * table in view.c, eight tiles at a time (view_parts.h). docs/game.md,
 * "Displays", says what each looks like. */
#include "view_parts.h"

#include <string.h>

#include "palette.h"

/* What the player knows of a tile: nothing, a wall, or open ground (floor
 * or stairs). A tile kind past TILE_STAIRS counts as a wall, as in
 * view_look8; outside the map is unknown. */
enum { UNKNOWN = 0, KNOWN_WALL = 1, KNOWN_OPEN = 2 };

/* Of tile (x, y) of a row of the map (y in range): called for the tiles
 * left and right of a chunk, x may be off the map. */
static inline uint8_t knowledge(const game_t *g, int x, int y)
{
    if ((unsigned)x >= MAP_W || !(game_lit(g, x, y) | map_known(&g->map, x, y)))
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

/* view_knowledge8 gives knowledge() of 8 tiles, one per byte. */
_Static_assert(KNOWN_WALL == 1 && KNOWN_OPEN == 2, "view_knowledge8's values");

static void chunk_knowledge(const game_t *g, int y, int x, uint64_t word,
                            chunk_knowledge_t k)
{
    for (int r = 0; r < 3; r++) {
        int yy = y - 1 + r;
        if (yy < 0 || yy >= MAP_H) {
            memset(k[r], UNKNOWN, sizeof k[r]);
            continue;
        }
        uint64_t kw = view_knowledge8(r == 1 ? word : view_look8(g, yy, x));
        memcpy(&k[r][1], &kw, sizeof kw);
        k[r][0] = knowledge(g, x - 1, yy);
        k[r][9] = knowledge(g, x + 8, yy);
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

/* The look of each tile by look index (view_look8) for each glyph set and
 * colour depth (16, or more): today's looks with the UTF-8 floor and the
 * remembered tones. A known wall's UTF-8 glyph and a lit tile's colour in
 * more than 16 colours are worked out per tile (view_map_cells8). */
#define CELL(ch, fg) { ch, fg, COL_DEFAULT, 0, 0 }
#define BLANK CELL(' ', COL_DEFAULT)
#define LOOKS(floor, mwall, lwall, mfloor, lfloor, mstairs, lstairs)           \
    { BLANK, CELL('#', mwall), CELL('#', lwall), CELL('#', lwall),            \
      BLANK, CELL(floor, mfloor), CELL(floor, lfloor), CELL(floor, lfloor),   \
      BLANK, CELL('>', mstairs), CELL('>', lstairs), CELL('>', lstairs) }
static const cell_t looks[2][2][VIEW_LOOKS] = {
    [GLYPHS_ASCII] = {
        LOOKS('.', COL_GREY, COL_BWHITE, COL_GREY, COL_WHITE, COL_GREY,
              COL_BYELLOW),
        LOOKS('.', COL_MEM_WALL, COL_LIT_WALL0, COL_MEM_FLOOR, COL_LIT_FLOOR0,
              COL_MEM_STAIRS, COL_LIT_STAIRS),
    },
    [GLYPHS_UTF8] = {
        LOOKS(0xb7, COL_GREY, COL_BWHITE, COL_GREY, COL_WHITE, COL_GREY,
              COL_BYELLOW),
        LOOKS(0xb7, COL_MEM_WALL, COL_LIT_WALL0, COL_MEM_FLOOR, COL_LIT_FLOOR0,
              COL_MEM_STAIRS, COL_LIT_STAIRS),
    },
};
#undef LOOKS
#undef BLANK
#undef CELL

/* The light: the eight tiles around the player in the bright tone (the
 * lit looks above), the rest of the field of view in one lit tone. A tone
 * per band of distance (the five rings this had) recoloured every tile
 * that crossed a ring on every step, which nearly tripled a rich display's
 * bytes per key (docs/performance.md); with one ring only the tiles that
 * enter or leave the player's glow change colour, and those are beside the
 * player, whose move redraws that place anyway. A lit tile is in the glow
 * when its squared distance (dx*dx + dy*dy) is at most LIGHT_GLOW_D2. */
#define LIGHT_GLOW_D2 2

/* The looks in more than 16 colours out of the glow: a lit tile in the
 * lit tone (as `looks`, the lit ones dimmed), for each glyph set (a
 * wall's UTF-8 glyph is worked out per tile). */
#define CELL(ch, fg) { ch, fg, COL_DEFAULT, 0, 0 }
#define BLANK CELL(' ', COL_DEFAULT)
#define LOOKS(floor)                                                           \
    { BLANK, CELL('#', COL_MEM_WALL), CELL('#', COL_LIT_WALL1),               \
      CELL('#', COL_LIT_WALL1), BLANK, CELL(floor, COL_MEM_FLOOR),            \
      CELL(floor, COL_LIT_FLOOR1), CELL(floor, COL_LIT_FLOOR1), BLANK,        \
      CELL('>', COL_MEM_STAIRS), CELL('>', COL_LIT_STAIRS),                   \
      CELL('>', COL_LIT_STAIRS) }
static const cell_t looks_dim[2][VIEW_LOOKS] = {
    [GLYPHS_ASCII] = LOOKS('.'),
    [GLYPHS_UTF8] = LOOKS(0xb7),
};
#undef LOOKS
#undef BLANK
#undef CELL

void view_map_cells8(const game_t *g, const display_t *d, int y, int x,
                     uint64_t word, cell_t out[8])
{
    const uint64_t ones = 0x0101010101010101u;
    int utf8 = d->glyphs == GLYPHS_UTF8, rich = d->colours != COLOURS_16;
    /* The glow reaches a step from the player: a chunk beyond has every
     * lit tile in the lit tone. */
    int dy = y - g->player.y, px = g->player.x;
    int glow = rich && dy >= -1 && dy <= 1 && px + 1 >= x && px - 1 <= x + 7;
    const cell_t *look = rich && !glow ? looks_dim[utf8] : looks[utf8][rich];
    for (int i = 0; i < 8; i++)
        out[i] = look[word >> (8 * i) & 0xff];
    /* Lit tiles (bit 1 of a look index) out of the glow: the lit tone. */
    for (uint64_t lit = glow ? word >> 1 & ones : 0; lit; lit &= lit - 1) {
        int i = __builtin_ctzll(lit) / 8, dx = x + i - px;
        if (dx * dx + dy * dy > LIGHT_GLOW_D2)
            out[i] = looks_dim[utf8][word >> (8 * i) & 0xff];
    }
    /* Only walls look at their neighbours. */
    uint64_t walls = utf8 ? view_knowledge8(word) & KNOWN_WALL * ones : 0;
    if (!walls)
        return;
    chunk_knowledge_t k;
    chunk_knowledge(g, y, x, word, k);
    for (; walls; walls &= walls - 1) {
        int i = __builtin_ctzll(walls) / 8;
        out[i].ch = wall_char(k, i);
    }
}
