/* view_status.h - the status line at any width (docs/game.md, "The
 * screen"): HP and its bar, level, XP, gold, depth, the turn and the
 * effects on the player, shortened or dropped, least useful first, until
 * the line fits, so that the effects and the turn are always shown. */
#ifndef ROGUE_VIEW_STATUS_H
#define ROGUE_VIEW_STATUS_H

#include "display.h"
#include "game.h"
#include "screen.h"

/* Draws the status line of g into row y of s, from column 0 to width - 1
 * (width at most s->w; the cells must be blank), with display d's glyphs
 * for the HP bar. Returns the column where the turn's digits begin, or -1
 * if even the shortest form was cut (below about 30 columns). While a
 * count is typed (MODE_COUNT) the row shows it instead ("Count: 34 - then
 * . or a direction."), and -1 is returned. */
/* v in decimal (a '-' first if negative), NUL-ended, written at the end
 * of buf; returns where it starts. Without printf: the status line's
 * numbers are written on most keys (view_status.c). */
#define VIEW_NUM_MAX 24
const char *view_num(char buf[VIEW_NUM_MAX], long long v);

int view_status_fit(const game_t *g, const display_t *d, screen_t *s, int y,
                    int width);

#endif
