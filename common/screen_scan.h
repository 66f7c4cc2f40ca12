/* screen_scan.h - the encoder's scans along rows of cells: where two rows
 * start to differ, where a changed run of one pen ends, where a row's ink
 * starts and its blank end. Internal to the encoder (screen_diff.c), in a
 * header so that they inline; sixteen, eight or four cells a step with
 * SSE2 (x86-64 has it always), two without (docs/performance.md, "Cheaper
 * frames", "The encoder, fewer instructions a key"). Also the span
 * writer's four cells a step of printable ASCII (ascii_by_four), the same
 * kind of SSE2 compare over a row's cells. */
#ifndef ROGUE_SCREEN_SCAN_H
#define ROGUE_SCREEN_SCAN_H

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "screen_floor.h"

/* Two neighbouring cells as one 64-bit word: the scans below step over
 * blank or unchanged cells two at a time. */
static inline uint64_t pair_word(const cell_t *c)
{
    uint64_t w;
    memcpy(&w, c, sizeof w);
    return w;
}

#ifdef __SSE2__
/* Of the sixteen cells from a and b, a bit for each that differs (bit i:
 * cell i); 0, found with one mask of the four compares, when none does
 * (most of a row a key changes did not change). */
static inline unsigned changed16(const cell_t *a, const cell_t *b)
{
    __m128i e0 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)a),
                                 _mm_loadu_si128((const __m128i *)(const void *)b));
    __m128i e1 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)(a + 4)),
                                 _mm_loadu_si128((const __m128i *)(const void *)(b + 4)));
    __m128i e2 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)(a + 8)),
                                 _mm_loadu_si128((const __m128i *)(const void *)(b + 8)));
    __m128i e3 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)(a + 12)),
                                 _mm_loadu_si128((const __m128i *)(const void *)(b + 12)));
    __m128i all = _mm_and_si128(_mm_and_si128(e0, e1), _mm_and_si128(e2, e3));
    if (_mm_movemask_epi8(all) == 0xffff)
        return 0;
    return ~((unsigned)_mm_movemask_ps(_mm_castsi128_ps(e0)) |
             (unsigned)_mm_movemask_ps(_mm_castsi128_ps(e1)) << 4 |
             (unsigned)_mm_movemask_ps(_mm_castsi128_ps(e2)) << 8 |
             (unsigned)_mm_movemask_ps(_mm_castsi128_ps(e3)) << 12) &
           0xffffu;
}
#endif

/* From w down, eight cells a step, while the eight cells before it are
 * blank in both rows; returns where that stopped (a row of the map blank
 * far to the right is looked at on every frame that changes it). */
static inline int blank8_from_right(const cell_t *row, const cell_t *old, int w)
{
    int both = w;
#ifdef __SSE2__
    /* Four cells a compare (x86-64 has SSE2 always). */
    const __m128i b4 = _mm_set1_epi32((int)cell_word(&blank_cell));
    while (both >= 8) {
        __m128i r0 = _mm_loadu_si128((const __m128i *)(const void *)&row[both - 8]);
        __m128i r1 = _mm_loadu_si128((const __m128i *)(const void *)&row[both - 4]);
        __m128i o0 = _mm_loadu_si128((const __m128i *)(const void *)&old[both - 8]);
        __m128i o1 = _mm_loadu_si128((const __m128i *)(const void *)&old[both - 4]);
        __m128i eq = _mm_and_si128(
            _mm_and_si128(_mm_cmpeq_epi32(r0, b4), _mm_cmpeq_epi32(r1, b4)),
            _mm_and_si128(_mm_cmpeq_epi32(o0, b4), _mm_cmpeq_epi32(o1, b4)));
        if (_mm_movemask_epi8(eq) != 0xffff)
            break;
        both -= 8;
    }
#else
    uint32_t blank = cell_word(&blank_cell);
    uint64_t blank2 = (uint64_t)blank << 32 | blank;
    while (both >= 8 &&
           ((pair_word(&row[both - 8]) ^ blank2) |
            (pair_word(&row[both - 6]) ^ blank2) |
            (pair_word(&row[both - 4]) ^ blank2) |
            (pair_word(&row[both - 2]) ^ blank2) |
            (pair_word(&old[both - 8]) ^ blank2) |
            (pair_word(&old[both - 6]) ^ blank2) |
            (pair_word(&old[both - 4]) ^ blank2) |
            (pair_word(&old[both - 2]) ^ blank2)) == 0)
        both -= 8;
#endif
    return both;
}

/* The first cell from x on (below end) that differs between old and row;
 * end if none. Sixteen cells a step, then eight, then two (a pair that
 * differs says which of its two), then one. */
static inline int first_changed(const cell_t *old, const cell_t *row, int x,
                         int end)
{
#ifdef __SSE2__
    while (x + 16 <= end) {
        unsigned changed = changed16(&old[x], &row[x]);
        if (changed)
            return x + __builtin_ctz(changed);
        x += 16;
    }
    while (x + 8 <= end) {
        __m128i a0 = _mm_loadu_si128((const __m128i *)(const void *)&old[x]);
        __m128i b0 = _mm_loadu_si128((const __m128i *)(const void *)&row[x]);
        __m128i a1 = _mm_loadu_si128((const __m128i *)(const void *)&old[x + 4]);
        __m128i b1 = _mm_loadu_si128((const __m128i *)(const void *)&row[x + 4]);
        unsigned same =
            (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi32(a0, b0)) |
            (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi32(a1, b1)) << 16;
        if (same != 0xffffffffu)
            return x + __builtin_ctz(~same) / 4; /* 4 mask bits a cell */
        x += 8;
    }
#else
    while (x + 8 <= end &&
           ((pair_word(&old[x]) ^ pair_word(&row[x])) |
            (pair_word(&old[x + 2]) ^ pair_word(&row[x + 2])) |
            (pair_word(&old[x + 4]) ^ pair_word(&row[x + 4])) |
            (pair_word(&old[x + 6]) ^ pair_word(&row[x + 6]))) == 0)
        x += 8;
#endif
    while (x + 2 <= end) {
        if (pair_word(&old[x]) != pair_word(&row[x]))
            return x + (cell_word(&old[x]) == cell_word(&row[x]));
        x += 2;
    }
    while (x < end && cell_word(&old[x]) == cell_word(&row[x]))
        x++;
    return x;
}

/* The last cell below w that differs between old and row; -1 if none.
 * Sixteen cells a step from the right, then eight, then one. */
static inline int last_changed(const cell_t *old, const cell_t *row, int w)
{
    int x = w;
#ifdef __SSE2__
    while (x >= 16) {
        unsigned changed = changed16(&old[x - 16], &row[x - 16]);
        if (changed)
            return x - 16 + (31 - __builtin_clz(changed));
        x -= 16;
    }
    while (x >= 8) {
        __m128i a0 = _mm_loadu_si128((const __m128i *)(const void *)&old[x - 8]);
        __m128i b0 = _mm_loadu_si128((const __m128i *)(const void *)&row[x - 8]);
        __m128i a1 = _mm_loadu_si128((const __m128i *)(const void *)&old[x - 4]);
        __m128i b1 = _mm_loadu_si128((const __m128i *)(const void *)&row[x - 4]);
        unsigned same =
            (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi32(a0, b0)) |
            (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi32(a1, b1)) << 16;
        if (same != 0xffffffffu) /* 4 mask bits a cell */
            return x - 8 + (31 - __builtin_clz(~same)) / 4;
        x -= 8;
    }
#else
    while (x >= 8 &&
           ((pair_word(&old[x - 8]) ^ pair_word(&row[x - 8])) |
            (pair_word(&old[x - 6]) ^ pair_word(&row[x - 6])) |
            (pair_word(&old[x - 4]) ^ pair_word(&row[x - 4])) |
            (pair_word(&old[x - 2]) ^ pair_word(&row[x - 2]))) == 0)
        x -= 8;
#endif
    while (x > 0 && cell_word(&old[x - 1]) == cell_word(&row[x - 1]))
        x--;
    return x - 1;
}

/* The first cell from x on (below end) that did not change between old
 * and row or has a pen other than key's; end if none: where a span that
 * reaches x ends. Four cells a step. */
static inline int run_end(const cell_t *old, const cell_t *row, int x, int end,
                   uint32_t key)
{
#ifdef __SSE2__
    const __m128i k4 = _mm_set1_epi32((int)key);
    const __m128i p4 = _mm_set1_epi32((int)cell_word(&pen_bits));
    while (x + 4 <= end) {
        __m128i r = _mm_loadu_si128((const __m128i *)(const void *)&row[x]);
        __m128i o = _mm_loadu_si128((const __m128i *)(const void *)&old[x]);
        unsigned same = (unsigned)_mm_movemask_ps(
            _mm_castsi128_ps(_mm_cmpeq_epi32(r, o)));
        unsigned pen = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(
            _mm_cmpeq_epi32(_mm_and_si128(r, p4), k4)));
        unsigned stop = (same | ~pen) & 0xfu;
        if (stop)
            return x + __builtin_ctz(stop);
        x += 4;
    }
#endif
    while (x < end && cell_word(&row[x]) != cell_word(&old[x]) &&
           pen_key(&row[x]) == key)
        x++;
    return x;
}

/* Index of the first non-blank cell of a row from x on, or w. */
static inline int ink_from(const cell_t *row, int x, int w)
{
    uint64_t blank2 = (uint64_t)cell_word(&blank_cell) << 32 |
                      cell_word(&blank_cell);
#ifdef __SSE2__
    /* Eight cells a step: the mask's lowest clear bit is the first ink. */
    const __m128i b4 = _mm_set1_epi32((int)cell_word(&blank_cell));
    while (x + 8 <= w) {
        __m128i r0 = _mm_loadu_si128((const __m128i *)(const void *)&row[x]);
        __m128i r1 = _mm_loadu_si128((const __m128i *)(const void *)&row[x + 4]);
        unsigned blank = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi32(r0, b4)) |
                         (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi32(r1, b4)) << 16;
        if (blank != 0xffffffffu)
            return x + __builtin_ctz(~blank) / 4;
        x += 8;
    }
#endif
    while (x + 2 <= w && pair_word(&row[x]) == blank2)
        x += 2;
    while (x < w && is_blank(&row[x]))
        x++;
    return x;
}

/* Where the blank cells that end row[0..x) start: x if row[x-1] has
 * ink, 0 if all are blank. Eight cells a step from the right. */
static inline int ink_end(const cell_t *row, int x)
{
    uint64_t blank2 = (uint64_t)cell_word(&blank_cell) << 32 |
                      cell_word(&blank_cell);
#ifdef __SSE2__
    const __m128i b4 = _mm_set1_epi32((int)cell_word(&blank_cell));
    while (x >= 8) {
        __m128i r0 = _mm_loadu_si128((const __m128i *)(const void *)&row[x - 8]);
        __m128i r1 = _mm_loadu_si128((const __m128i *)(const void *)&row[x - 4]);
        if (_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi32(r0, b4),
                                            _mm_cmpeq_epi32(r1, b4))) != 0xffff)
            break;
        x -= 8;
    }
#endif
    while (x >= 2 && pair_word(&row[x - 2]) == blank2)
        x -= 2;
    while (x > 0 && is_blank(&row[x - 1]))
        x--;
    return x;
}

/* A cell's character bits (its word masked). */
static const cell_t ch_bits = { CELL_CH_LIMIT - 1, 0, 0, 0, 0 };

/* Writes into q the characters of cells c[0..n) while they are printable
 * ASCII (most cells a span writes), four cells a step; returns how many it
 * wrote, a multiple of four: the cells from there on are the caller's. */
static inline int ascii_by_four(const cell_t *c, int n, char *q)
{
    int i = 0;
#ifdef __SSE2__
    const __m128i chm = _mm_set1_epi32((int)cell_word(&ch_bits));
    const __m128i lo = _mm_set1_epi32(0x1f), hi = _mm_set1_epi32(0x7f);
    for (; i + 4 <= n; i += 4) {
        __m128i v = _mm_and_si128(
            _mm_loadu_si128((const __m128i *)(const void *)&c[i]), chm);
        __m128i ok = _mm_and_si128(_mm_cmpgt_epi32(v, lo),
                                   _mm_cmpgt_epi32(hi, v));
        if (_mm_movemask_epi8(ok) != 0xffff)
            break;
        /* Each character is below 0x7f: it packs to its byte. */
        __m128i b = _mm_packs_epi32(v, v);
        int four = _mm_cvtsi128_si32(_mm_packus_epi16(b, b));
        memcpy(q + i, &four, 4);
    }
#else
    (void)c;
    (void)n;
    (void)q;
#endif
    return i;
}

/* Index of the first non-blank cell of a row, or w. */
static inline int first_ink(const cell_t *row, int w)
{
    return ink_from(row, 0, w);
}

#endif
