/* display.h - what a client's terminal is drawn with: the glyph set and the
 * colour depth (docs/telnet.md says how the server learns them).
 *
 * The server picks one per client, from what the client says and the
 * account's own choice; the core draws and encodes for it. A client that
 * says nothing gets DISPLAY_PLAIN: ASCII and the 16 ANSI colours, the same
 * bytes as before displays existed. */
#ifndef ROGUE_DISPLAY_H
#define ROGUE_DISPLAY_H

#include <stdint.h>

enum display_glyphs {
    GLYPHS_ASCII = 0,
    GLYPHS_UTF8 = 1     /* box-drawing walls, a middle dot for floor, ... */
};

enum display_colours {
    COLOURS_16 = 0,     /* the 16 ANSI colours */
    COLOURS_256 = 1,    /* xterm's 256-colour palette */
    COLOURS_TRUE = 2    /* 24-bit RGB */
};

typedef struct display {
    uint8_t glyphs;     /* enum display_glyphs */
    uint8_t colours;    /* enum display_colours */
} display_t;

#define DISPLAY_PLAIN ((display_t){ GLYPHS_ASCII, COLOURS_16 })

#endif
