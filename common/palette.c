/* palette.c - the extended colours' values (palette.h). The 256-colour
 * index is the closest in xterm's cube or grey ramp that keeps each fading
 * step darker than the one before; the RGB is the tone itself. The four
 * nearest lit tones (LIT_FLOOR0-1, LIT_WALL0-1: the ones that change on
 * most steps) are the cube's own colours, a few units from the tones they
 * replaced, so that a truecolor client is sent them as 38;5;N (on_cube);
 * the farther lit tones and the remembered ones stay RGB. */
#include "palette.h"

/* xterm's standard colour for index i (16-255), a channel at a time: the
 * cube's levels 0, 95, 135, 175, 215, 255, then the grey ramp. */
#define CUBE_LEVEL(v) ((v) == 0 ? 0 : 55 + 40 * (v))
#define XTERM_R(i) ((i) >= 232 ? 8 + 10 * ((i) - 232) : CUBE_LEVEL(((i) - 16) / 36))
#define XTERM_G(i) ((i) >= 232 ? 8 + 10 * ((i) - 232) : CUBE_LEVEL(((i) - 16) / 6 % 6))
#define XTERM_B(i) ((i) >= 232 ? 8 + 10 * ((i) - 232) : CUBE_LEVEL(((i) - 16) % 6))
/* A tone: its xterm index, its RGB, its 16-colour fallback. */
#define TONE(i, r, g, b, fallback)                                           \
    { i, r, g, b, fallback,                                                  \
      XTERM_R(i) == (r) && XTERM_G(i) == (g) && XTERM_B(i) == (b) }

static const palette_colour_t colours[COL_EXT_END - COL_MEM_WALL] = {
    [COL_MEM_WALL - COL_MEM_WALL]      = TONE(67, 88, 106, 144, COL_GREY),
    [COL_MEM_FLOOR - COL_MEM_WALL]     = TONE(60, 66, 74, 108, COL_GREY),
    [COL_MEM_STAIRS - COL_MEM_WALL]    = TONE(110, 120, 140, 176, COL_GREY),
    [COL_MEM_ITEM - COL_MEM_WALL]      = TONE(103, 112, 118, 150, COL_GREY),
    [COL_LIT_FLOOR0 - COL_MEM_WALL]    = TONE(187, 215, 215, 175, COL_WHITE),
    [COL_LIT_FLOOR1 - COL_MEM_WALL]    = TONE(144, 175, 175, 135, COL_WHITE),
    [COL_LIT_FLOOR2 - COL_MEM_WALL]    = TONE(101, 146, 139, 112, COL_WHITE),
    [COL_LIT_FLOOR3 - COL_MEM_WALL]    = TONE(59, 112, 106, 86, COL_WHITE),
    [COL_LIT_FLOOR4 - COL_MEM_WALL]    = TONE(239, 80, 77, 66, COL_WHITE),
    [COL_LIT_WALL0 - COL_MEM_WALL]     = TONE(230, 255, 255, 215, COL_BWHITE),
    [COL_LIT_WALL1 - COL_MEM_WALL]     = TONE(187, 215, 215, 175, COL_BWHITE),
    [COL_LIT_WALL2 - COL_MEM_WALL]     = TONE(144, 182, 174, 144, COL_BWHITE),
    [COL_LIT_WALL3 - COL_MEM_WALL]     = TONE(101, 146, 139, 112, COL_BWHITE),
    [COL_LIT_STAIRS - COL_MEM_WALL]    = TONE(220, 255, 204, 64, COL_BYELLOW),
    [COL_TARGET_GROUND - COL_MEM_WALL] = TONE(18, 24, 40, 120, COL_BLUE),
};

const palette_colour_t *palette_colour(uint8_t col)
{
    if (col <= COL_DEFAULT || col >= COL_EXT_END)
        return 0;
    return &colours[col - COL_MEM_WALL];
}
