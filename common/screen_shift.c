/* screen_shift.c - the encoder's scroll search: the block of rows that
 * moved up between what the terminal shows and the next screen (the
 * message log scrolled), found from what the plain diff learnt of each
 * row. The encoder (screen_diff.c) asks only when the plain diff is long
 * (SHIFT_MIN_BYTES), then writes the block's delete-line / insert-line
 * and the rows that still differ, and keeps that if it is shorter. */
#include "screen_shift.h"

#include <string.h>

#include "screen_floor.h"

/* Cells of the two rows that differ. */
static int cells_differing(const cell_t *a, const cell_t *b, int w)
{
    int n = 0;
    for (int x = 0; x < w; x++)
        n += cell_word(&a[x]) != cell_word(&b[x]);
    return n;
}

/* A delete-line, an insert-line and the two moves before them, in bytes
 * (emit_shift's, at least). */
#define SHIFT_OVERHEAD 12

/* Whether sh could make the diff shorter, in cells (about a byte each):
 * the rows it spares are the cells of its moved rows that the plain diff
 * rewrites; the rows it breaks are the k left blank at the block's end,
 * whose ink must then be written whole where the plain diff wrote only
 * the cells that changed. Trying a shift costs a second encoding of the
 * whole frame, and a block of one row matching by chance (the map's rows
 * look alike) breaks a full map row to spare a few cells
 * (docs/performance.md, "Scroll trials that cannot pay"). */
static int shift_may_pay(const shown_t *a, const screen_t *b,
                         const frame_rows_t *fr, const shift_t *sh)
{
    int w = b->w, end = sh->bot - sh->k + 1, spared = 0, broken = 0;
    for (int y = sh->top; y < end; y++)
        if (fr->changed[y])
            spared += cells_differing(shown_row(a, y), row_of(b, y), w);
    for (int y = end; y <= sh->bot; y++) {
        const cell_t *row = row_of(b, y);
        int ink = 0;
        for (int x = 0; x < w; x++)
            ink += !is_blank(&row[x]);
        if (fr->changed[y])
            ink -= cells_differing(shown_row(a, y), row, w);
        broken += ink > 0 ? ink : 0;
    }
    return spared > broken + SHIFT_OVERHEAD;
}

/* Finds the block shift that spares the most changed, non-blank rows
 * (fr: what the plain diff learnt of each row). Cheap when there is none:
 * a run can only start at a changed row with ink whose first changed cell
 * matches, in place, the cell of the row k below in shown; the diff found
 * that cell and the ink (docs/performance.md, "The encoder's spans,
 * cheaper"), so no row is scanned here but to compare it whole. */
int screen_find_shift(const shown_t *a, const screen_t *b,
                      const frame_rows_t *fr, int top, int bot, shift_t *sh)
{
    /* h: the block's rows end at bot (rows below are not looked at). */
    int w = b->w, h = bot + 1, best = 0;
    size_t rowbytes = (size_t)w * sizeof(cell_t);
    int maxk = b->h / 2 < SHIFT_MAX_K ? b->h / 2 : SHIFT_MAX_K;
    const uint8_t *changed = fr->changed, *inked = fr->inked;
    const cell_t *sa_row[SHIFT_MAX_ROWS]; /* shown's rows (shown_row) */
    /* Unchanged rows are cold at many sessions: their cells read below
     * are asked for first, their misses overlapping (docs/performance.md,
     * "The frame, colder and cheaper"). */
    for (int y = top, f = -1, from = -1; y < h; y++) {
        sa_row[y] = shown_row(a, y);
        if (!changed[y]) {
            if (f >= 0 && y - from <= maxk) /* the nearest changed row's */
                __builtin_prefetch(&sa_row[y][f]);
            continue;
        }
        f = inked[y] ? fr->first[y] : -1;
        from = y;
    }
    for (int y = top; y + 1 < h; y++) {
        if (!changed[y] || !inked[y])
            continue;
        int f = fr->first[y], last = y + maxk < h ? maxk : h - 1 - y;
        int l = fr->last[y];
        uint32_t want = cell_word(&row_of(b, y)[f]);
        uint32_t want_l = cell_word(&row_of(b, y)[l]);
        for (int k = 1; k <= last; k++) {
            /* The first changed cell, then the last, before the whole
             * row: map rows of floor match at one cell often. */
            if (cell_word(&sa_row[y + k][f]) != want ||
                cell_word(&sa_row[y + k][l]) != want_l)
                continue;
            /* A run from y: next row r is shown row r + k. */
            int end = y, gain = 0;
            while (end + k < h &&
                   memcmp(row_of(b, end), sa_row[end + k], rowbytes) == 0) {
                gain += changed[end] && inked[end];
                end++;
            }
            if (gain > best) {
                best = gain;
                sh->top = y;
                sh->bot = end - 1 + k;
                sh->k = k;
            }
        }
    }
    return best > 0 && shift_may_pay(a, b, fr, sh);
}
