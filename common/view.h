/* view.h - draws a game into a cell grid of any size.
 *
 * Layout at w x h (w >= 80, h >= 24): the map in rows 0..MAP_H-1, the message
 * log below it (h - MAP_H - 1 lines, the newest at the bottom), the status
 * line in the last row. Smaller than VIEW_MIN_W x VIEW_MIN_H: a "please
 * enlarge" screen. The modes draw whole screens of their own: the key list
 * (MODE_HELP), the paged message history (MODE_HISTORY), the framed YOU
 * DIED screen over the last log lines (MODE_DEAD); the pack menus
 * (MODE_INVENTORY, MODE_DROP) are a box over the map; aiming (MODE_TARGET)
 * gives the tiles that may be chosen a blue ground and the cursor reverse
 * video. The map is always at the top left, whatever the size: the host
 * maps a mouse click at (x, y) to map tile (x, y). */
#ifndef ROGUE_VIEW_H
#define ROGUE_VIEW_H

#include "display.h"
#include "game.h"
#include "screen.h"

#define VIEW_MIN_W 80
#define VIEW_MIN_H 24

/* Clears s and draws g into it at s's size, for display d: its glyphs
 * (GLYPHS_UTF8: box-drawing walls, a middle dot for floor, boxed menus)
 * and colours (256 or truecolor: palette.h's tones for remembered tiles
 * and the fading light). docs/game.md, "Displays". */
void view_draw_display(const game_t *g, const display_t *d, screen_t *s);

/* view_draw_display for DISPLAY_PLAIN: ASCII and the 16 colours. */
void view_draw(const game_t *g, screen_t *s);

/* 1 if a w x h terminal is large enough to play. */
int view_fits(int w, int h);

/* Draws the "please enlarge your terminal" screen (the lobby uses it too). */
void view_draw_too_small(screen_t *s);

#endif
