/* view.h - draws a game into a cell grid of any size.
 *
 * Layout at w x h (w >= 80, h >= 24): the map in rows 0..MAP_H-1, the message
 * log below it from the map's last row (3 rows at 80x24, on a taller
 * terminal up to VIEW_LOG_MAX; the newest at the bottom), the status line
 * right under the log: at 80x24 the last row; on a taller terminal map,
 * log and status stay one block at the top, the rows below blank.
 * Smaller, down to VIEW_NARROW_MIN_W x VIEW_NARROW_MIN_H: the narrow
 * layout (view_layout says where each part is); smaller still: a
 * "please enlarge" screen. The modes draw whole screens of their own: the key list
 * (MODE_HELP), the paged message history (MODE_HISTORY), the framed YOU
 * DIED screen over the last log lines (MODE_DEAD); the pack menus
 * (MODE_INVENTORY, MODE_DROP, MODE_IDENTIFY, MODE_THROW) are a box over
 * the map (a list at narrow sizes); aiming (MODE_TARGET)
 * gives the tiles that may be chosen a blue ground and the cursor reverse
 * video. The host maps a mouse click to a map tile with view_cell_tile. */
#ifndef ROGUE_VIEW_H
#define ROGUE_VIEW_H

#include "display.h"
#include "game.h"
#include "screen.h"

#define VIEW_MIN_W 80
#define VIEW_MIN_H 24

/* The log's rows at most in the full layout: a taller terminal gives the
 * log its rows up to this, and the status line sits right under them
 * rather than at the bottom of a screen of blank rows, far from the map
 * and the log. 12 lines are a fight's worth of history; P shows it all. */
#define VIEW_LOG_MAX 12

/* Below VIEW_MIN_W x VIEW_MIN_H, down to this, the narrow layout
 * (view_narrow.c): a window on the map that follows the player, a short
 * status line and the log wrapped to the width. docs/game.md, "Small
 * terminals". */
#define VIEW_NARROW_MIN_W 40
#define VIEW_NARROW_MIN_H 20
/* The log's rows at least, in the narrow layout. */
#define VIEW_NARROW_LOG 3

/* Where the play screen's parts are at a size: the map window shows map
 * tiles (map_x, map_y) .. (map_x + map_w - 1, map_y + map_h - 1) from the
 * top left cell; the log's first row; the status line's row. At
 * VIEW_MIN_W x VIEW_MIN_H and above the window is the whole map at (0, 0). */
typedef struct view_layout {
    int map_x, map_y, map_w, map_h;
    int log_top;
    int status_y;
} view_layout_t;

/* The layout of g's play screen at w x h (a size view_fits). */
void view_layout(const game_t *g, int w, int h, view_layout_t *lo);

/* The log's first row at w x h (view_layout's log_top, which depends on
 * the size alone). */
int view_log_top(int w, int h);

/* The status line's row of the play screen at w x h (view_layout's
 * status_y, which depends on the size alone): the last row, but in the
 * full layout the row under the log's rows (from the map's last row, as
 * many as fit up to VIEW_LOG_MAX). */
int view_status_row(int w, int h);

/* The row of a screen drawn by view_draw where a line of n columns goes
 * at the right end when it cannot go beside the map (a watcher's label, a
 * replay's banner): the log's first row whose end has room for it, the
 * oldest first, else -1. */
int view_label_row(const screen_t *s, int n);

/* 1 when g's screen is a page over the whole terminal (the help, the
 * history, the character and the discoveries): rows of text, no map and
 * no log rows, so no host's line goes over their words. */
int view_full_page(const game_t *g);

/* Which of a label's forms (NULL-ended, longest first) goes where on a
 * screen drawn by view_draw: the first form that fits beside the map on
 * row 0 or, failing that, whole at the end of a log row
 * (view_label_row). The form's index, its row in *y; -1 when none
 * fits, with *y the log's first (oldest) row, where the shortest would
 * cover the least. */
int view_label_place(const screen_t *s, const char *const *forms, int *y);

/* The column where a label n cells long placed on row y starts: beside
 * the map on row 0 (on a screen far wider than the game, the screen's
 * edge would leave it out of sight: a terminal QA at 250 columns), at
 * the row's end on a log row. */
int view_label_x(const screen_t *s, int n, int y);

/* The map tile under cell (x, y) of a w x h play screen of g: 1 and the
 * tile in *tx, *ty, or 0 if the cell is not on the map window. */
int view_cell_tile(const game_t *g, int w, int h, int x, int y, int *tx,
                   int *ty);

/* 1 if w x h gets the full layout (the whole map at the top left). */
int view_full(int w, int h);

/* Clears s and draws g into it at s's size, for display d: its glyphs
 * (GLYPHS_UTF8: box-drawing walls, a middle dot for floor, boxed menus)
 * and colours (256 or truecolor: palette.h's tones for remembered tiles
 * and the fading light). docs/game.md, "Displays". */
void view_draw_display(const game_t *g, const display_t *d, screen_t *s);

/* view_draw_display for DISPLAY_PLAIN: ASCII and the 16 colours. */
void view_draw(const game_t *g, screen_t *s);

/* Over the end screen (YOU DIED, YOU WON) just drawn into s, the keys
 * line says `keys` instead of the player's "Space or r: a new game ...":
 * for a host where those keys do something else (a replay, watching).
 * Nothing if g has not ended or s is too small to play. `keys` fits 38
 * columns, the frame's inside at 40. */
void view_end_keys(const game_t *g, screen_t *s, const char *keys);

/* 1 while a pack menu is shown (use, drop, identify, throw): a box over
 * the map, or the narrow layout's list. */
int view_shows_pack(const game_t *g);

/* 1 if a w x h terminal is large enough to play (the narrow layout or
 * the full one). */
int view_fits(int w, int h);

/* Draws the "please enlarge your terminal" screen (the lobby uses it too). */
void view_draw_too_small(screen_t *s);

/* The line under the too-small screen's size: the keys that leave there
 * (a game's "Q quits the game.", a watch's "q leaves."), centred, in place
 * of what was there. */
void view_too_small_keys(screen_t *s, const char *text, uint8_t fg);

#endif
