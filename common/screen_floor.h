/* screen_floor.h - a floor under the length of a full repaint, so that
 * the encoder (screen_diff.c) tries the repaint only when it could be
 * shorter than the diff, and the cell words both files read. Internal to
 * the encoder. */
#ifndef ROGUE_SCREEN_FLOOR_H
#define ROGUE_SCREEN_FLOOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "screen.h"

/* Exactly what a cleared cell is, so that a cleared or erased terminal cell
 * and a blank grid cell are the same thing. */
static const cell_t blank_cell = { ' ', COL_DEFAULT, COL_DEFAULT, 0, 0 };

/* The bits of a cell's word that are its pen (colours and attributes). */
static const cell_t pen_bits = { 0, 31, 31, 7, 0 };

/* A cell as one 32-bit word: every bit is a field (screen.h), so equal
 * words are equal cells. */
static inline uint32_t cell_word(const cell_t *c)
{
    uint32_t w;
    memcpy(&w, c, sizeof w);
    return w;
}

static inline int is_blank(const cell_t *c)
{
    return cell_word(c) == cell_word(&blank_cell);
}

/* A cell's pen as a number: equal for equal pens. */
static inline uint32_t pen_key(const cell_t *c)
{
    return cell_word(c) & cell_word(&pen_bits);
}

/* The SGR parameters of colour c as a foreground (base 30) or background
 * (base 40) in colour depth `colours` (enum display_colours), into p (16
 * bytes); returns their length (screen_diff.c). */
int screen_sgr_colour(char *p, int colours, int base, uint8_t c);

/* A floor under the length of screen_paint(next) for a terminal with
 * UTF-8 (utf8 1) or not and of colour depth `colours` (term_state_t's),
 * counted until it reaches `enough` (then it may stop early): the SGR and
 * the clear it begins with (10 bytes); every non-blank cell's glyph; a
 * cursor move of a byte or more before each run of non-blank cells but
 * one at the top-left corner (where the clear leaves the cursor), and of 3
 * or more (a CSI) for the first arrival in each row below the first; and
 * for each colour the cells use, the SGR that first sets it: a whole SGR
 * (3 bytes and the colour's parameters) for each foreground other than
 * the default, which no other can share, the parameters for each
 * background, a byte for each attribute. Every span (screen_paint)
 * pays these whatever order flush_spans writes them in, so when the floor
 * is not below a diff's length the repaint cannot be shorter, and is not
 * tried: the same bytes for less work (a 256-colour frame's colours and
 * UTF-8 glyphs make a repaint long). */
size_t screen_paint_floor(const screen_t *next, int utf8, int colours,
                          size_t enough);

#endif
