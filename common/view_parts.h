/* view_parts.h - the pieces of the play screen, shared by the whole-frame
 * view (view.c) and the incremental one (view_cache.c), so that both draw
 * every cell by the same rules. Internal to the view: the host uses view.h
 * and view_cache.h.
 *
 * The play screen: the map's base layer (each tile's look from its kind and
 * whether it is lit or explored), the movers over it (items where last seen,
 * monsters in view, the player), the log from the map's last row down to the
 * row above the status line, the status line (view_status_row), and on a
 * tall terminal blank rows below it. */
#ifndef ROGUE_VIEW_PARTS_H
#define ROGUE_VIEW_PARTS_H

#include <stdint.h>
#include <string.h>

#include "display.h"
#include "game.h"
#include "screen.h"

_Static_assert(MAP_W % 8 == 0, "the map is drawn 8 tiles at a time");

/* The map is handled in chunks of 8 tiles of one row. */
#define VIEW_CHUNKS_X (MAP_W / 8)
#define VIEW_CHUNKS (MAP_H * VIEW_CHUNKS_X)

/* The look of a tile by its index tile * 4 + 2 * lit + explored (lit wins
 * over remembered; nothing known is blank). */
#define VIEW_LOOKS 12
#define VIEW_LOOK_CELL(ch, fg) { ch, fg, COL_DEFAULT, 0, 0 }
#define VIEW_LOOK_0 VIEW_LOOK_CELL(' ', COL_DEFAULT)   /* TILE_WALL */
#define VIEW_LOOK_1 VIEW_LOOK_CELL('#', COL_GREY)
#define VIEW_LOOK_2 VIEW_LOOK_CELL('#', COL_BWHITE)
#define VIEW_LOOK_3 VIEW_LOOK_CELL('#', COL_BWHITE)
#define VIEW_LOOK_4 VIEW_LOOK_CELL(' ', COL_DEFAULT)   /* TILE_FLOOR */
#define VIEW_LOOK_5 VIEW_LOOK_CELL('.', COL_GREY)
#define VIEW_LOOK_6 VIEW_LOOK_CELL('.', COL_WHITE)
#define VIEW_LOOK_7 VIEW_LOOK_CELL('.', COL_WHITE)
#define VIEW_LOOK_8 VIEW_LOOK_CELL(' ', COL_DEFAULT)   /* TILE_STAIRS */
#define VIEW_LOOK_9 VIEW_LOOK_CELL('>', COL_GREY)
#define VIEW_LOOK_10 VIEW_LOOK_CELL('>', COL_BYELLOW)
#define VIEW_LOOK_11 VIEW_LOOK_CELL('>', COL_BYELLOW)
extern const cell_t view_look[VIEW_LOOKS];
/* view_look_pair[a * VIEW_LOOKS + b]: the looks of a tile and the next.
 * (Look indices are below 12: a pair index is below 144.) */
extern const cell_t view_look_pair[VIEW_LOOKS * VIEW_LOOKS][2];

/* The look indices of tiles x..x+7 of row y, one per byte (byte i is tile
 * x + i): a tile kind past TILE_STAIRS counts as a wall, so every byte is
 * below VIEW_LOOKS. 0: none of them is lit or
 * explored (all blank). */
static inline uint64_t view_look8(const game_t *g, int y, int x)
{
    const uint64_t ones = 0x0101010101010101u;
    uint64_t t;
    memcpy(&t, &g->map.tile[y][x], 8);
    unsigned lit = tile_bits8(g->visible[y], x),
             known = tile_bits8(g->map.explored[y], x);
    uint64_t flags = tile_bits_bytes(lit) << 1 | tile_bits_bytes(known);
    if ((t & ~(3 * ones)) == 0 && (t & t >> 1 & ones) == 0) {
        /* Every tile 0-2 (always, in practice): all eight at once, no
         * byte carries into the next. */
        return (lit | known) == 0 ? 0 : t << 2 | flags;
    }
    for (int i = 0; i < 8; i++) {
        uint64_t kind = g->map.tile[y][x + i] <= TILE_STAIRS
                            ? g->map.tile[y][x + i] : TILE_WALL;
        t = (t & ~((uint64_t)0xff << 8 * i)) | kind << 8 * i;
    }
    return t << 2 | flags;
}

/* The pair indices (view_look_pair) of look indices `word` (view_look8):
 * tiles 2p and 2p + 1 in bits 16p..16p+15, all four at once (below 144:
 * no lane carries into the next). */
static inline uint64_t view_pairs8(uint64_t word)
{
    const uint64_t lanes = 0x00ff00ff00ff00ffu;
    return (word & lanes) * VIEW_LOOKS + (word >> 8 & lanes);
}

/* The two cells of pair index lane p of `pairs` as one 64-bit word (every
 * bit of a cell is a field: screen.h). */
static inline uint64_t view_pair_cells(uint64_t pairs, int p)
{
    uint64_t cells;
    memcpy(&cells, view_look_pair[pairs >> (16 * p) & 0xffff], sizeof cells);
    return cells;
}

/* Writes the 8 cells of look indices `word` (view_look8) from (x, y),
 * without keeping the row (screen_keep_row): the caller does. */
static inline void view_put_look8(screen_t *s, int y, int x, uint64_t word)
{
    cell_t *row = &s->cells[y * s->w + x];
    uint64_t pairs = view_pairs8(word);
    uint64_t c0 = view_pair_cells(pairs, 0), c1 = view_pair_cells(pairs, 1),
             c2 = view_pair_cells(pairs, 2), c3 = view_pair_cells(pairs, 3);
    memcpy(&row[0], &c0, sizeof c0);
    memcpy(&row[2], &c1, sizeof c1);
    memcpy(&row[4], &c2, sizeof c2);
    memcpy(&row[6], &c3, sizeof c3);
}

/* Makes the 8 cells from (x, y) those of look indices `word` where they
 * are not; 1 if any was not. */
static inline int view_update_look8(screen_t *s, int y, int x, uint64_t word)
{
    cell_t *row = &s->cells[y * s->w + x];
    uint64_t pairs = view_pairs8(word);
    uint64_t c0 = view_pair_cells(pairs, 0), c1 = view_pair_cells(pairs, 1),
             c2 = view_pair_cells(pairs, 2), c3 = view_pair_cells(pairs, 3);
    uint64_t o[4];
    memcpy(o, row, sizeof o);
    if (((o[0] ^ c0) | (o[1] ^ c1) | (o[2] ^ c2) | (o[3] ^ c3)) == 0)
        return 0;
    screen_keep_row(s, y);
    memcpy(&row[0], &c0, sizeof c0);
    memcpy(&row[2], &c1, sizeof c1);
    memcpy(&row[4], &c2, sizeof c2);
    memcpy(&row[6], &c3, sizeof c3);
    return 1;
}

/* 1 if display d draws the map with the tables above (ASCII, 16 colours:
 * the plain display); any other uses view_map_cells8. */
static inline int view_plain_map(const display_t *d)
{
    return d->glyphs == GLYPHS_ASCII && d->colours == COLOURS_16;
}

/* What the player knows of the 8 tiles of look indices w (view_look8),
 * one per byte: 0 nothing, 1 a wall, 2 open ground (floor or stairs). A
 * look index is tile * 4 + 2 * lit + explored, so a byte is known when
 * one of its low two bits is set, and a wall when its tile bits (2 and 3)
 * are clear. The UTF-8 walls join by it (view_display.c); a tile going
 * from lit to remembered keeps it. */
static inline uint64_t view_knowledge8(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u;
    uint64_t known = (w | w >> 1) & ones, wall = ~(w >> 2 | w >> 3) & ones;
    return (known & wall) | (known & ~wall) * 2;
}

/* The cells of tiles x..x+7 of row y for display d (view_display.c): from
 * their look indices `word` (view_look8), and for walls with UTF-8 glyphs
 * the known tiles around them, and for lit tiles in 256 colours or
 * truecolor the player's distance. For the plain display they are
 * view_look's cells. */
void view_map_cells8(const game_t *g, const display_t *d, int y, int x,
                     uint64_t word, cell_t out[8]);

/* Draws the movers over the map: items where last seen (corpses under gold
 * under things), monsters in view, the player; remembered items in
 * display d's remembered tone. marks (may be NULL): the bit of each chunk
 * (y * VIEW_CHUNKS_X + x / 8) a mover is drawn in is set. */
void view_movers(const game_t *g, const display_t *d, screen_t *s,
                 uint8_t *marks);

/* The slots view_movers finds by looking at every item and monster slot
 * (68 cache lines of game_t): the items seen, in the order they are drawn,
 * and the living monsters. They change only with a turn (game_end_turn and
 * the Amulet count one) or a level, so a frame after a key that took no
 * turn can draw from the last frame's slots (view_cache.c). */
#define VIEW_MOVER_SLOTS 64
typedef struct view_mover_slots {
    uint8_t n_items, n_monsters;
    uint8_t items[VIEW_MOVER_SLOTS];
    uint8_t monsters[VIEW_MOVER_SLOTS];
} view_mover_slots_t;
_Static_assert(MAX_ITEMS <= 256 && MAX_MONSTERS <= 256,
               "a slot is a byte");

/* Finds g's movers' slots into v; 0 if more than VIEW_MOVER_SLOTS of
 * either (v is then not to be used). */
int view_mover_slots(const game_t *g, view_mover_slots_t *v);

/* view_movers from slots v that view_mover_slots found in g since which
 * no turn passed: the same cells and marks. */
void view_movers_from(const game_t *g, const display_t *d, screen_t *s,
                      uint8_t *marks, const view_mover_slots_t *v);

/* The colour of a log line of kind `kind` (MSG_*) while it is new. */
uint8_t view_msg_colour(int kind);

/* MODE_LOOK's words for the tile under the cursor, "Look: ..." (with the
 * stairs under a thing lying on them: game_describe_beneath), into line
 * (VIEW_LOOK_LINE bytes): both layouts' status rows. */
#define VIEW_LOOK_LINE (MSG_LEN + 32)
void view_look_line(const game_t *g, char *line, size_t len);

/* Draws the whole map (MAP_W x MAP_H from s's top left cell, which s must
 * hold) and the movers over it. */
void view_map(const game_t *g, const display_t *d, screen_t *s);

/* MODE_TARGET over view_map's drawing: the tiles that may be chosen on a
 * blue ground, the cursor in reverse video. */
void view_target(const game_t *g, const display_t *d, screen_t *s);

/* A pack menu's item line (a NUL-terminated name and mark) in at most
 * `room` columns, so that a column never runs into the next nor into a
 * frame: a name too long ("12 scrolls labelled VERR YED HORRE") loses
 * "labelled " first, which keeps the label that tells unknown scrolls
 * apart; then its end, with "...". The full layout's box and the narrow
 * list both fit their lines so. */
void view_pack_line_fit(char *line, int room);

/* 1 if the pack menu open now lists slot i: every item held, but the
 * identify menu only those still unknown (game version 9: it listed the
 * known ones too, which only refuse). */
int view_pack_lists(const game_t *g, int i);

/* text in the middle of row y (clipped at the left edge if wider). */
void view_centred(screen_t *s, int y, const char *text, uint8_t fg,
                  uint8_t attr);

/* Draws text from (x, y) in lines of at most w columns, broken at spaces
 * (game_text_wrap), one row under the other, at most max_rows of them: how
 * the screens outside the map fit a narrow terminal without cutting a
 * word. Returns the rows drawn. */
int view_puts_wrapped(screen_t *s, int x, int y, int w, int max_rows,
                      const char *text, uint8_t fg, uint8_t attr);

/* The play screen at a size below the full layout's (view_narrow.c):
 * the map window, the log wrapped to the width, the short status line,
 * and the pack menus as a list. */
void view_draw_narrow(const game_t *g, const display_t *d, screen_t *s);

/* The history screen's key line at full width (view.c and, where it
 * fits, view_pages_narrow.c), and in 40 columns, where the arrows and
 * PgUp/PgDn/Home/End work but go unsaid. Both name g/G (the top, the
 * bottom), which a play-test found working but unsaid. */
#define VIEW_HISTORY_KEYS                                                  \
    "k/j Up/Down: line  b/Space PgUp/PgDn: page  g/G Home/End: top/bottom" \
    "  Esc: back"
#define VIEW_HISTORY_KEYS_NARROW "k/j line  b/Space page  g/G top/end  Esc"
_Static_assert(sizeof VIEW_HISTORY_KEYS - 1 <= 80 &&
                   sizeof VIEW_HISTORY_KEYS_NARROW - 1 <= 40,
               "the history's key lines fit 80 and 40 columns");

/* `C` below 80 columns (view_pages_narrow.c): the n lines view.c made,
 * each broken where its parts meet, then at spaces, to fit the width. */
void view_character_narrow(screen_t *s, char line[][96], int n);

/* The last messages in rows top..bottom below 80 columns (under the
 * YOU DIED frame), the newest at the bottom, each wrapped to the width;
 * only messages that fit whole. */
void view_log_under_narrow(const game_t *g, screen_t *s, int top, int bottom);

/* `P` below 80x24 (view_pages_narrow.c): the log's messages wrapped to
 * the width, paged by game_derived_t.hist_pos. */
void view_history_narrow(const game_t *g, screen_t *s);

/* MODE_HELP below 80x24 (view_help_narrow.c): the same pages in words
 * that fit 40x20. */
void view_help_narrow(const game_t *g, screen_t *s);

/* Help page 2's words on a blow under `ruleset` (view_rules.c): a log
 * line as an example ("You hit the orc for 4 damage!"), and the rule in
 * words to wrap to the page's width. */
const char *view_rules_example(int ruleset);
const char *view_rules_text(int ruleset);

/* Draws the log into rows MAP_H - 1 .. view_status_row - 1: the first
 * blanked, the others must be blank already. */
void view_log(const game_t *g, screen_t *s);

/* The last row view_log writes lines in (the first is MAP_H - 1; the
 * status line's row is the next), and
 * line i (0 the newest) written at that row in its colours, over what is
 * there (nothing if there is no line i); returns the cells it wrote, from
 * column 0. */
int view_log_bottom(const screen_t *s);
int view_log_line(const game_t *g, screen_t *s, int row, int i);

/* Draws the status line into its row (view_status_row: the last row at
 * 80x24, the row under the log on a taller terminal), which must be
 * blank, with display d's glyphs for the HP bar. Returns the column where
 * the turn's digits begin (-1 if the line was cut). */
int view_status(const game_t *g, const display_t *d, screen_t *s);

/* Writes the turn's digits (as view_status does) from column x of the
 * status line in its row: what changes on most keys, when nothing else
 * on it does. */
void view_status_turn(const game_t *g, screen_t *s, int x);

#endif
