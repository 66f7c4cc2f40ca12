/* screen.h - a grid of character cells: what a terminal shows.
 *
 * The view draws into a screen_t; the diff encoder (screen_diff.h) turns the
 * difference between two screens into ANSI bytes. Nothing here knows escape
 * codes. Colours are the 16 ANSI colours (0-7 normal, 8-15 bright),
 * COL_DEFAULT for the terminal's own, or 17-31, palette.h's named colours
 * for clients with more than 16. */
#ifndef ROGUE_SCREEN_H
#define ROGUE_SCREEN_H

#include <stdint.h>

/* The 16 ANSI colours and the terminal's own (COL_DEFAULT, the 17th value:
 * a cell keeps a colour in 5 bits; palette.h names the other 15). */
enum {
    COL_BLACK = 0, COL_RED, COL_GREEN, COL_YELLOW, COL_BLUE, COL_MAGENTA,
    COL_CYAN, COL_WHITE,
    COL_GREY = 8, COL_BRED, COL_BGREEN, COL_BYELLOW, COL_BBLUE, COL_BMAGENTA,
    COL_BCYAN, COL_BWHITE,
    COL_DEFAULT = 16
};

enum {
    ATTR_BOLD = 1,
    ATTR_UNDERLINE = 2,
    ATTR_REVERSE = 4
};

/* Code points a cell holds: planes 0-3, every assigned character outside
 * the tag and private-use planes. screen_put stores '?' for any other,
 * which is what the encoder sends for code points a terminal cannot show. */
#define CELL_CH_LIMIT 0x40000u

/* One cell in 4 bytes: the server keeps every client's screen, so its size
 * is most of a session's memory; a smaller cell also makes clearing,
 * copying and comparing screens cheaper. Write the fields in range (ch
 * below CELL_CH_LIMIT, fg and bg below 32, attr ATTR_* bits): they are bit
 * fields and would be cut. Every bit is a field, so cells compare with
 * memcmp. */
typedef struct cell {
    uint32_t ch : 18;  /* Unicode code point; ' ' for blank */
    uint32_t fg : 5;   /* COL_* (screen.h, palette.h) */
    uint32_t bg : 5;   /* COL_* (screen.h, palette.h) */
    uint32_t attr : 3; /* ATTR_* bits */
    uint32_t pad : 1;  /* always 0 */
} cell_t;

_Static_assert(sizeof(cell_t) == 4, "a cell is 4 bytes");

struct screen_keep;

typedef struct screen {
    int w, h;
    int cap;      /* cells allocated */
    cell_t *cells;
    struct screen_keep *keep; /* NULL, or where each row goes before its
                                 first change (screen_keep_start) */
} screen_t;

/* Rows kept aside while a frame is drawn over the one before, so that the
 * encoder can tell what changed without a copy of the whole screen made
 * first (docs/performance.md, "Plain keys and truecolor bytes"): every
 * write to a screen with `keep` set (screen_put, screen_puts, screen_at,
 * screen_clear, and the view's own word stores, which call
 * screen_keep_row) first copies its row into `old`, once a frame. A row
 * not kept is the same as before. */
#define SCREEN_KEEP_MAX_ROWS 256
typedef struct screen_keep {
    screen_t *old;        /* the screen's size: row y as it was, if kept */
    uint64_t rows[SCREEN_KEEP_MAX_ROWS / 64]; /* bit y: row y kept */
} screen_keep_t;

/* Starts keeping s's rows in old (which must have s's size; its cells are
 * overwritten as rows are kept). Returns 0, or -1 (nothing started) when
 * the sizes differ or s is taller than SCREEN_KEEP_MAX_ROWS. */
int screen_keep_start(screen_t *s, screen_keep_t *k, screen_t *old);

/* Stops keeping: s->keep is NULL again; k still says which rows it kept. */
void screen_keep_stop(screen_t *s);

/* Copies row y (inside s) into the keep, and marks it. */
void screen_keep_copy(screen_t *s, int y);

/* Before writing into row y (inside s): keeps it if s keeps rows and it is
 * not kept yet. Inline: every screen_put calls it. */
static inline void screen_keep_row(screen_t *s, int y)
{
    const screen_keep_t *k = s->keep;
    if (__builtin_expect(k != 0, 0) &&
        !(k->rows[(unsigned)y >> 6] >> (y & 63) & 1))
        screen_keep_copy(s, y);
}

/* 1 if k kept row y. */
static inline int screen_kept(const screen_keep_t *k, int y)
{
    return (int)(k->rows[(unsigned)y >> 6] >> (y & 63) & 1);
}

/* The cell for (ch, fg, bg, attr), ch out of range stored as '?'. */
static inline cell_t cell_make(uint32_t ch, uint8_t fg, uint8_t bg,
                               uint8_t attr)
{
    cell_t c = { ch < CELL_CH_LIMIT ? ch : '?', fg, bg, attr, 0 };
    return c;
}

/* A blank w x h screen. Returns 0, or -1 on bad size or OOM (screen left empty). */
int screen_init(screen_t *s, int w, int h);

/* Frees the cells; the screen is 0x0 and may be initialised again. */
void screen_free(screen_t *s);

/* Changes the size and blanks every cell; reallocates only to grow.
 * Returns 0 or -1 (size unchanged) on OOM. */
int screen_resize(screen_t *s, int w, int h);

/* Every cell blank: ' ' in default colours. */
void screen_clear(screen_t *s);

/* The cell at (x, y), or NULL outside the screen: to write (the row is
 * kept, screen_keep_row); screen_cat to read. */
cell_t *screen_at(screen_t *s, int x, int y);
const cell_t *screen_cat(const screen_t *s, int x, int y);

/* Sets one cell; outside the screen it does nothing. Inline: the view sets
 * every cell of a frame through it. */
static inline void screen_put(screen_t *s, int x, int y, uint32_t ch,
                              uint8_t fg, uint8_t bg, uint8_t attr)
{
    if ((unsigned)x < (unsigned)s->w && (unsigned)y < (unsigned)s->h) {
        screen_keep_row(s, y);
        s->cells[y * s->w + x] = cell_make(ch, fg, bg, attr);
    }
}

/* Writes an ASCII string from (x, y) to the right, clipped at the edge.
 * Returns the number of columns the string takes (even where clipped). */
int screen_puts(screen_t *s, int x, int y, const char *str, uint8_t fg,
                uint8_t bg, uint8_t attr);

/* Copies src into dst (resizing dst). Returns 0 or -1 on OOM. */
int screen_copy(screen_t *dst, const screen_t *src);

/* Copies the rows y of src with rows[y] != 0 into dst, which has src's
 * size (the other rows are the same in both already). */
void screen_copy_rows(screen_t *dst, const screen_t *src, const uint8_t *rows);

/* 1 if both have the same size and cells. */
int screen_equal(const screen_t *a, const screen_t *b);

#endif
