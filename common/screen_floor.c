/* screen_floor.c - the floor under a full repaint's length
 * (screen_floor.h says what it counts). */
#include "screen_floor.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The bytes glyph() writes for ch. */
static int glyph_len(int utf8, uint32_t ch)
{
    if (ch < 0xa0 || !utf8 || ch > 0x10ffff || (ch >= 0xd800 && ch < 0xe000))
        return 1;
    return ch < 0x800 ? 2 : ch < 0x10000 ? 3 : 4;
}

/* What screen_paint_floor has counted so far. */
typedef struct floor_count {
    int utf8, colours;  /* the terminal's (term_state_t) */
    size_t n;
    uint32_t fgs, bgs;  /* the colours whose SGR is counted */
    unsigned attrs;     /* ...and attributes */
} floor_count_t;

/* Whether c has a colour or attribute not counted yet (most pen changes
 * in a screen are to pens counted already: tested without a call). */
static inline int pen_is_new(const floor_count_t *f, const cell_t *c)
{
    return ((~f->fgs >> c->fg | ~f->bgs >> c->bg) & 1) |
           (c->attr & ~f->attrs);
}

/* Counts the SGR that first sets c's colours and attributes, where not
 * counted yet. */
static void floor_pen(floor_count_t *f, const cell_t *c)
{
    char seq[16];
    if (!(f->fgs >> c->fg & 1)) {
        f->fgs |= 1u << c->fg;
        f->n += 3 + (size_t)screen_sgr_colour(seq, f->colours, 30,
                                              (uint8_t)c->fg);
    }
    if (!(f->bgs >> c->bg & 1)) {
        f->bgs |= 1u << c->bg;
        f->n += (size_t)screen_sgr_colour(seq, f->colours, 40, (uint8_t)c->bg);
    }
    if (c->attr & ~f->attrs) {
        f->n += (size_t)__builtin_popcount(c->attr & ~f->attrs);
        f->attrs |= c->attr;
    }
}

#ifdef __SSE2__
/* The set bits of an 8-bit mask (without -mpopcnt __builtin_popcount is
 * a call). */
static unsigned popcount8(unsigned m)
{
    static const uint8_t bits16[16] = { 0, 1, 1, 2, 1, 2, 2, 3,
                                        1, 2, 2, 3, 2, 3, 3, 4 };
    return bits16[m & 0xfu] + bits16[m >> 4 & 0xfu];
}

/* Four cells from c. */
static __m128i load4(const cell_t *c)
{
    return _mm_loadu_si128((const __m128i *)(const void *)c);
}

/* Bit i set where lane i of a equals lane i of b. */
static unsigned eq_mask4(__m128i a, __m128i b)
{
    return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, b)));
}

/* The bytes beyond the first that glyph() writes for each of 4 cells,
 * negated (0 to -3 a cell): 1 for a code point from 0xa0, 2 from 0x800,
 * 3 from 0x10000; none for a surrogate (written as '?'). The caller adds
 * them only when the client has UTF-8. */
static __m128i utf8_extra4(__m128i cells)
{
    static const cell_t ch_bits = { 0x3ffff, 0, 0, 0, 0 };
    __m128i ch =
        _mm_and_si128(cells, _mm_set1_epi32((int)cell_word(&ch_bits)));
    __m128i a0 = _mm_cmpgt_epi32(ch, _mm_set1_epi32(0x9f));
    __m128i b800 = _mm_cmpgt_epi32(ch, _mm_set1_epi32(0x7ff));
    __m128i c10000 = _mm_cmpgt_epi32(ch, _mm_set1_epi32(0xffff));
    __m128i sur = _mm_andnot_si128(_mm_cmpgt_epi32(ch, _mm_set1_epi32(0xdfff)),
                                   _mm_cmpgt_epi32(ch, _mm_set1_epi32(0xd7ff)));
    return _mm_andnot_si128(sur,
                            _mm_add_epi32(_mm_add_epi32(a0, b800), c10000));
}
#endif

/* screen_paint_floor's count of one row: each non-blank cell's glyph, a
 * byte before each run of them, and the SGRs of colours not counted yet:
 * of each cell whose pen is not its left neighbour's (that one's, or a
 * blank's, is counted already: the default pen's colours are counted
 * from the start). 1 if the row has a non-blank cell. */
static int floor_row(floor_count_t *f, const cell_t *row, int w)
{
    int x = 0, in_run = 0, ink_row = 0;
    uint32_t pen = pen_key(&blank_cell); /* the cell before x's */
#ifdef __SSE2__
    /* Eight cells a step: their ink and pen changes as bits. */
    const __m128i b4 = _mm_set1_epi32((int)cell_word(&blank_cell));
    const __m128i pm = _mm_set1_epi32((int)cell_word(&pen_bits));
    __m128i extra = _mm_setzero_si128();
    for (; x + 8 <= w; x += 8) {
        __m128i r0 = load4(&row[x]), r1 = load4(&row[x + 4]);
        __m128i e0 = _mm_cmpeq_epi32(r0, b4), e1 = _mm_cmpeq_epi32(r1, b4);
        if (_mm_movemask_epi8(_mm_and_si128(e0, e1)) == 0xffff) {
            /* Eight blank cells (most steps): one mask. */
            in_run = 0;
            pen = pen_key(&blank_cell);
            continue;
        }
        unsigned ink =
            ~((unsigned)_mm_movemask_ps(_mm_castsi128_ps(e0)) |
              (unsigned)_mm_movemask_ps(_mm_castsi128_ps(e1)) << 4) & 0xffu;
        ink_row = 1;
        unsigned starts = ink & ~(ink << 1 | (unsigned)in_run) & 0xffu;
        f->n += popcount8(ink) + popcount8(starts);
        in_run = (int)(ink >> 7);
        if (f->utf8)
            extra = _mm_add_epi32(extra, _mm_add_epi32(utf8_extra4(r0),
                                                       utf8_extra4(r1)));
        /* The pens of cells x-1..x+6 (the first from the step before). */
        __m128i p0 = _mm_and_si128(r0, pm), p1 = _mm_and_si128(r1, pm);
        __m128i l0 = _mm_or_si128(_mm_slli_si128(p0, 4),
                                  _mm_cvtsi32_si128((int)pen));
        __m128i l1 =
            _mm_or_si128(_mm_slli_si128(p1, 4), _mm_srli_si128(p0, 12));
        unsigned same = eq_mask4(p0, l0) | eq_mask4(p1, l1) << 4;
        for (unsigned changed = ink & ~same; changed; changed &= changed - 1) {
            const cell_t *c = &row[x + __builtin_ctz(changed)];
            if (pen_is_new(f, c))
                floor_pen(f, c);
        }
        pen = pen_key(&row[x + 7]);
    }
    /* The extra bytes were counted negated (utf8_extra4); none without
     * UTF-8. */
    if (f->utf8) {
        int32_t e[4];
        _mm_storeu_si128((__m128i *)(void *)e, extra);
        f->n += (size_t)-(e[0] + e[1] + e[2] + e[3]);
    }
#endif
    for (; x < w; x++) {
        const cell_t *c = &row[x];
        if (is_blank(c)) {
            in_run = 0;
            pen = pen_key(c);
            continue;
        }
        f->n += (size_t)glyph_len(f->utf8, c->ch) + !in_run;
        in_run = ink_row = 1;
        if (pen_key(c) != pen && pen_is_new(f, c))
            floor_pen(f, c);
        pen = pen_key(c);
    }
    return ink_row;
}

/* The parts of the count do not depend on the order they are found in,
 * so it is counted a row at a time, eight cells a step (floor_row). */
size_t screen_paint_floor(const screen_t *next, int utf8, int colours,
                          size_t enough)
{
    floor_count_t f;
    f.utf8 = utf8;
    f.colours = colours;
    f.n = is_blank(&next->cells[0]) ? 10 : 9; /* the corner's run: no move */
    f.fgs = 1u << COL_DEFAULT;
    f.bgs = 1u << COL_DEFAULT;
    f.attrs = 0;
    for (int y = 0; y < next->h && f.n < enough; y++)
        if (floor_row(&f, &next->cells[y * next->w], next->w) && y > 0)
            f.n += 2;
    return f.n;
}

