/* screen.c - the cell grid. */
#include "screen.h"

#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Larger than any terminal we accept (the server clamps NAWS well below). */
#define SCREEN_MAX_CELLS (1 << 20)

static const cell_t blank = { ' ', COL_DEFAULT, COL_DEFAULT, 0, 0 };

int screen_init(screen_t *s, int w, int h)
{
    s->w = s->h = s->cap = 0;
    s->cells = NULL;
    s->keep = NULL;
    return screen_resize(s, w, h);
}

void screen_free(screen_t *s)
{
    free(s->cells);
    s->cells = NULL;
    s->keep = NULL;
    s->w = s->h = s->cap = 0;
}

/* Makes room for w x h cells and sets the size; the cells are left as
 * they were. Returns 0 or -1 (nothing changed). */
static int reshape(screen_t *s, int w, int h)
{
    if (w < 0 || h < 0 || (long)w * h > SCREEN_MAX_CELLS)
        return -1;
    int need = w * h;
    if (need > s->cap) {
        cell_t *c = realloc(s->cells, (size_t)need * sizeof *c);
        if (!c)
            return -1;
        s->cells = c;
        s->cap = need;
    }
    s->w = w;
    s->h = h;
    return 0;
}

int screen_resize(screen_t *s, int w, int h)
{
    if (s->keep && (w != s->w || h != s->h))
        return -1; /* the kept rows are of this size */
    if (reshape(s, w, h) != 0)
        return -1;
    screen_clear(s);
    return 0;
}

void screen_clear(screen_t *s)
{
    for (int y = 0; s->keep && y < s->h; y++)
        screen_keep_row(s, y);
    /* As words, which the compiler turns into wide stores. */
    uint32_t word;
    memcpy(&word, &blank, sizeof word);
    int n = s->w * s->h;
    for (int i = 0; i < n; i++)
        memcpy(&s->cells[i], &word, sizeof word);
}

cell_t *screen_at(screen_t *s, int x, int y)
{
    if (x < 0 || y < 0 || x >= s->w || y >= s->h)
        return NULL;
    screen_keep_row(s, y);
    return &s->cells[y * s->w + x];
}

const cell_t *screen_cat(const screen_t *s, int x, int y)
{
    if (x < 0 || y < 0 || x >= s->w || y >= s->h)
        return NULL;
    return &s->cells[y * s->w + x];
}

int screen_puts(screen_t *s, int x, int y, const char *str, uint8_t fg,
                uint8_t bg, uint8_t attr)
{
    int n = (int)strlen(str);
    if ((unsigned)y >= (unsigned)s->h)
        return n;
    /* The part of the string inside the row, one cell pattern for all of
     * it (the log and the status line are drawn on most keys). */
    long from = x < 0 ? -(long)x : 0, to = n;
    if ((long)x + to > s->w)
        to = (long)s->w - x;
    /* Each cell as a word: the pattern's, with the byte where ch is (a
     * store a character instead of a bit-field's read and write). */
    cell_t c = cell_make(0, fg, bg, attr), one = cell_make(1, 0, 0, 0);
    uint32_t base, unit;
    memcpy(&base, &c, sizeof base);
    memcpy(&unit, &one, sizeof unit);
    int shift = __builtin_ctz(unit);
    if (from < to)
        screen_keep_row(s, y);
    cell_t *row = &s->cells[(long)y * s->w];
    long i = from;
#ifdef __SSE2__
    if (shift == 0) {
        /* 16 characters a step, inside the string: their bytes widened to
         * the cells' words with the pattern or'ed in (docs/performance.md,
         * "The draw and the turn, cheaper"). */
        const __m128i zero = _mm_setzero_si128();
        const __m128i pat = _mm_set1_epi32((int)base);
        for (; i + 16 <= to; i += 16) {
            __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(str + i));
            __m128i lo = _mm_unpacklo_epi8(b, zero), hi = _mm_unpackhi_epi8(b, zero);
            __m128i *out = (__m128i *)(void *)&row[x + i];
            _mm_storeu_si128(out, _mm_or_si128(_mm_unpacklo_epi16(lo, zero), pat));
            _mm_storeu_si128(out + 1, _mm_or_si128(_mm_unpackhi_epi16(lo, zero), pat));
            _mm_storeu_si128(out + 2, _mm_or_si128(_mm_unpacklo_epi16(hi, zero), pat));
            _mm_storeu_si128(out + 3, _mm_or_si128(_mm_unpackhi_epi16(hi, zero), pat));
        }
    }
#endif
    for (; i < to; i++) {
        uint32_t word = base | (uint32_t)(unsigned char)str[i] << shift;
        memcpy(&row[x + i], &word, sizeof word);
    }
    return n;
}

int screen_copy(screen_t *dst, const screen_t *src)
{
    /* Every cell is overwritten: no clearing first. */
    if (dst->keep && (dst->w != src->w || dst->h != src->h))
        return -1; /* the kept rows are of this size */
    for (int y = 0; dst->keep && y < dst->h; y++)
        screen_keep_row(dst, y);
    if (reshape(dst, src->w, src->h) != 0)
        return -1;
    if (src->w > 0 && src->h > 0)
        memcpy(dst->cells, src->cells, (size_t)(src->w * src->h) * sizeof(cell_t));
    return 0;
}

void screen_copy_rows(screen_t *dst, const screen_t *src, const uint8_t *rows)
{
    size_t rowbytes = (size_t)src->w * sizeof(cell_t);
    for (int y = 0; y < src->h; y++)
        if (rows[y])
            memcpy(&dst->cells[y * src->w], &src->cells[y * src->w], rowbytes);
}

int screen_equal(const screen_t *a, const screen_t *b)
{
    if (a->w != b->w || a->h != b->h)
        return 0;
    return a->w * a->h == 0 ||
           memcmp(a->cells, b->cells, (size_t)(a->w * a->h) * sizeof(cell_t)) == 0;
}

int screen_keep_start(screen_t *s, screen_keep_t *k, screen_t *old)
{
    if (old->w != s->w || old->h != s->h || s->h > SCREEN_KEEP_MAX_ROWS)
        return -1;
    k->old = old;
    memset(k->rows, 0, sizeof k->rows);
    s->keep = k;
    return 0;
}

void screen_keep_stop(screen_t *s)
{
    s->keep = NULL;
}

void screen_keep_copy(screen_t *s, int y)
{
    screen_keep_t *k = s->keep;
    memcpy(&k->old->cells[y * s->w], &s->cells[y * s->w],
           (size_t)s->w * sizeof(cell_t));
    k->rows[(unsigned)y >> 6] |= (uint64_t)1 << (y & 63);
}
