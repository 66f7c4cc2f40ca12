/* palette.c - the extended colours' values (palette.h). The 256-colour
 * index is the closest in xterm's cube or grey ramp that keeps each fading
 * step darker than the one before; the RGB is the tone itself. */
#include "palette.h"

static const palette_colour_t colours[COL_EXT_END - COL_MEM_WALL] = {
    [COL_MEM_WALL - COL_MEM_WALL]      = { 67, 88, 106, 144, COL_GREY },
    [COL_MEM_FLOOR - COL_MEM_WALL]     = { 60, 66, 74, 108, COL_GREY },
    [COL_MEM_STAIRS - COL_MEM_WALL]    = { 110, 120, 140, 176, COL_GREY },
    [COL_MEM_ITEM - COL_MEM_WALL]      = { 103, 112, 118, 150, COL_GREY },
    [COL_LIT_FLOOR0 - COL_MEM_WALL]    = { 187, 215, 208, 178, COL_WHITE },
    [COL_LIT_FLOOR1 - COL_MEM_WALL]    = { 144, 180, 172, 142, COL_WHITE },
    [COL_LIT_FLOOR2 - COL_MEM_WALL]    = { 101, 146, 139, 112, COL_WHITE },
    [COL_LIT_FLOOR3 - COL_MEM_WALL]    = { 59, 112, 106, 86, COL_WHITE },
    [COL_LIT_FLOOR4 - COL_MEM_WALL]    = { 239, 80, 77, 66, COL_WHITE },
    [COL_LIT_WALL0 - COL_MEM_WALL]     = { 230, 255, 248, 222, COL_BWHITE },
    [COL_LIT_WALL1 - COL_MEM_WALL]     = { 187, 218, 210, 180, COL_BWHITE },
    [COL_LIT_WALL2 - COL_MEM_WALL]     = { 144, 182, 174, 144, COL_BWHITE },
    [COL_LIT_WALL3 - COL_MEM_WALL]     = { 101, 146, 139, 112, COL_BWHITE },
    [COL_LIT_STAIRS - COL_MEM_WALL]    = { 220, 255, 204, 64, COL_BYELLOW },
    [COL_TARGET_GROUND - COL_MEM_WALL] = { 18, 24, 40, 120, COL_BLUE },
};

const palette_colour_t *palette_colour(uint8_t col)
{
    if (col <= COL_DEFAULT || col >= COL_EXT_END)
        return 0;
    return &colours[col - COL_MEM_WALL];
}
