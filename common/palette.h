/* palette.h - the named colours beyond the 16 ANSI ones, for clients with
 * 256 colours or truecolor (display.h).
 *
 * A cell keeps a colour in 5 bits (screen.h): 0-15 are the ANSI colours,
 * 16 (COL_DEFAULT) the terminal's own, and 17-31 these. Each has an index
 * in xterm's 256-colour palette, an RGB value, and the ANSI colour a
 * 16-colour client is sent instead (today's colour for that thing), so a
 * screen drawn with them still reads right on any client. The view uses
 * them only for a display whose colours are not COLOURS_16; the encoder
 * (screen_diff.c) turns them into 38;5;N, 38;2;R;G;B or the fallback. The
 * tones are in docs/game.md ("Displays"). */
#ifndef ROGUE_PALETTE_H
#define ROGUE_PALETTE_H

#include <stdint.h>

#include "screen.h"

enum {
    /* Remembered (explored, out of view): a cool dark tone. */
    COL_MEM_WALL = COL_DEFAULT + 1,
    COL_MEM_FLOOR,
    COL_MEM_STAIRS,
    COL_MEM_ITEM,
    /* Lit floor, brightest first. The view uses the first two of these
     * and of the walls' (view_display.c: beside the player, the rest in
     * view); the darker ones stay named colours the encoder can send. */
    COL_LIT_FLOOR0,
    COL_LIT_FLOOR1,
    COL_LIT_FLOOR2,
    COL_LIT_FLOOR3,
    COL_LIT_FLOOR4,
    /* Lit wall, nearest first. */
    COL_LIT_WALL0,
    COL_LIT_WALL1,
    COL_LIT_WALL2,
    COL_LIT_WALL3,
    COL_LIT_STAIRS,
    /* The ground of the tiles a scroll may be aimed at. */
    COL_TARGET_GROUND,
    COL_EXT_END   /* one past the last */
};

_Static_assert(COL_EXT_END == 32, "every 5-bit colour value is named");


typedef struct palette_colour {
    uint8_t xterm;      /* xterm-256 index (16-255) */
    uint8_t r, g, b;    /* truecolor */
    uint8_t fallback;   /* COL_* 0-15: what a 16-colour client gets */
    uint8_t on_cube;    /* 1: r, g, b are exactly what xterm's standard
                           palette gives index xterm (the 6x6x6 cube
                           16-231, the grey ramp 232-255), so a truecolor
                           client is sent 38;5;N, the same tone in fewer
                           bytes (docs/performance.md, "Plain keys and
                           truecolor bytes") */
} palette_colour_t;

/* The colour col (COL_DEFAULT < col < COL_EXT_END), or NULL for any other
 * value (the ANSI colours and the default need no entry). */
const palette_colour_t *palette_colour(uint8_t col);

#endif
