/* screen_shift.h - what the encoder (screen_diff.c) and its scroll search
 * (screen_shift.c) share: what the terminal shows, what the plain diff
 * learnt of each row, and a block of rows that moved up. Internal to the
 * encoder; the small helpers are here so that the diff's rows loop still
 * inlines them. */
#ifndef ROGUE_SCREEN_SHIFT_H
#define ROGUE_SCREEN_SHIFT_H

#include <stddef.h>
#include <stdint.h>

#include "screen.h"

#define SHIFT_MAX_ROWS 256 /* taller screens are diffed without a scroll */
#define SHIFT_MAX_K 16
#define SHIFT_MIN_BYTES 24  /* a plain diff this short is kept as it is */

/* What the plain diff learnt of each row, for the scroll search
 * (screen_find_shift): whether it differs, and if so whether it has ink
 * in the next screen, its first changed cell (the first span's x) and a
 * later one (its last, or the first again). The columns are only where
 * the search looks first (any column would do; a changed one rules most
 * candidates out), so they are kept in 16 bits, past 65,534 as 65,535:
 * the struct as small as it was with the first alone, since a larger
 * frame moved the spans' lines and cost D1 write misses
 * (docs/performance.md, "The encoder's spans, fewer scans"). */
typedef struct frame_rows {
    uint8_t changed[SHIFT_MAX_ROWS];
    uint8_t inked[SHIFT_MAX_ROWS];
    uint16_t first[SHIFT_MAX_ROWS];
    uint16_t last[SHIFT_MAX_ROWS];
} frame_rows_t;

/* Column x as frame_rows_t keeps it: a column of the row all the same. */
static inline uint16_t col16(int x)
{
    return x < 0xffff ? (uint16_t)x : 0xffff;
}

/* A block of rows that moved up by k (a scrolling message log): rows
 * top..bot-k of the next screen are rows top+k..bot of the shown one. */
typedef struct shift {
    int top, bot, k;
} shift_t;

static inline const cell_t *row_of(const screen_t *s, int y)
{
    return &s->cells[y * s->w];
}

/* What the terminal shows: a whole screen (keep NULL), or the rows kept
 * aside in keep->old while next was drawn over the frame shown, and as
 * in next the rows not kept (screen.h: a row not kept did not change). */
typedef struct shown {
    const screen_t *cells;    /* the screen, or keep->old */
    const screen_keep_t *keep;
    const screen_t *next;
} shown_t;

static inline const cell_t *shown_row(const shown_t *a, int y)
{
    if (a->keep && !screen_kept(a->keep, y))
        return row_of(a->next, y);
    return row_of(a->cells, y);
}

/* What the terminal shows in row y after the shift (NULL: a blank row). */
static inline const cell_t *old_row(const shown_t *a, const shift_t *sh,
                                    int y)
{
    if (!sh || y < sh->top || y > sh->bot)
        return shown_row(a, y);
    return y + sh->k <= sh->bot ? shown_row(a, y + sh->k) : NULL;
}

/* Finds the block shift from a to b, inside rows top..bot (0 <= top <
 * bot < b->h), that spares the most changed, non-blank rows (fr: what the
 * plain diff learnt of each row, b->h at most SHIFT_MAX_ROWS); returns 1
 * with it in *sh, or 0 if none does or the one found could not make the
 * diff shorter (it would break more than it spares: screen_shift.c,
 * shift_may_pay). */
int screen_find_shift(const shown_t *a, const screen_t *b,
                      const frame_rows_t *fr, int top, int bot, shift_t *sh);

#endif
