/* screen.h - a grid of character cells: what a terminal shows.
 *
 * The view draws into a screen_t; the diff encoder (screen_diff.h) turns the
 * difference between two screens into ANSI bytes. Nothing here knows escape
 * codes. Colours are the 16 ANSI colours (0-7 normal, 8-15 bright) or
 * COL_DEFAULT for the terminal's own. */
#ifndef ROGUE_SCREEN_H
#define ROGUE_SCREEN_H

#include <stdint.h>

enum {
    COL_BLACK = 0, COL_RED, COL_GREEN, COL_YELLOW, COL_BLUE, COL_MAGENTA,
    COL_CYAN, COL_WHITE,
    COL_GREY = 8, COL_BRED, COL_BGREEN, COL_BYELLOW, COL_BBLUE, COL_BMAGENTA,
    COL_BCYAN, COL_BWHITE,
    COL_DEFAULT = 255
};

enum {
    ATTR_BOLD = 1,
    ATTR_UNDERLINE = 2,
    ATTR_REVERSE = 4
};

typedef struct cell {
    uint32_t ch;  /* Unicode code point; ' ' for blank */
    uint8_t fg;   /* COL_* */
    uint8_t bg;   /* COL_* */
    uint8_t attr; /* ATTR_* bits */
    uint8_t pad;  /* always 0, so that cells compare with memcmp */
} cell_t;

typedef struct screen {
    int w, h;
    int cap;      /* cells allocated */
    cell_t *cells;
} screen_t;

/* A blank w x h screen. Returns 0, or -1 on bad size or OOM (screen left empty). */
int screen_init(screen_t *s, int w, int h);

/* Frees the cells; the screen is 0x0 and may be initialised again. */
void screen_free(screen_t *s);

/* Changes the size and blanks every cell; reallocates only to grow.
 * Returns 0 or -1 (size unchanged) on OOM. */
int screen_resize(screen_t *s, int w, int h);

/* Every cell blank: ' ' in default colours. */
void screen_clear(screen_t *s);

/* The cell at (x, y), or NULL outside the screen. */
cell_t *screen_at(screen_t *s, int x, int y);
const cell_t *screen_cat(const screen_t *s, int x, int y);

/* Sets one cell; outside the screen it does nothing. */
void screen_put(screen_t *s, int x, int y, uint32_t ch, uint8_t fg, uint8_t bg,
                uint8_t attr);

/* Writes an ASCII string from (x, y) to the right, clipped at the edge.
 * Returns the number of columns the string takes (even where clipped). */
int screen_puts(screen_t *s, int x, int y, const char *str, uint8_t fg,
                uint8_t bg, uint8_t attr);

/* Copies src into dst (resizing dst). Returns 0 or -1 on OOM. */
int screen_copy(screen_t *dst, const screen_t *src);

/* 1 if both have the same size and cells. */
int screen_equal(const screen_t *a, const screen_t *b);

#endif
