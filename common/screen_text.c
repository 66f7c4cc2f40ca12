/* screen_text.c - the host's text as UTF-8 (screen_text.h). */
#include "screen_text.h"

#include <string.h>

#include "utf8.h"

/* The character at p, of the n bytes left (its bytes in *len), or '?'
 * for bytes that are not one (utf8_decode: a stray continuation byte, a
 * sequence cut short, an overlong or surrogate form): one byte is taken
 * then, so the rest still decodes. */
static uint32_t next_char(const unsigned char *p, size_t n, size_t *len)
{
    uint32_t c;
    *len = utf8_decode(p, n, &c);
    if (*len == 0) {
        *len = 1;
        return '?';
    }
    return c;
}

/* 1 for a character every terminal gives one column: the Latin, Greek
 * and Cyrillic letters, punctuation, currency, arrows, maths, box drawing
 * and shapes, check marks. Not combining marks (no column of their own),
 * East Asian or emoji (two on most terminals, one on some): without a
 * table of widths those are '?'. */
static int one_column(uint32_t c)
{
    return (c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c < 0x300) ||
           (c >= 0x370 && c < 0x483) || (c >= 0x48a && c < 0x530) ||
           (c >= 0x1e00 && c < 0x2000) || (c >= 0x2010 && c < 0x2028) ||
           (c >= 0x2030 && c < 0x205f) || (c >= 0x20a0 && c < 0x20c1) ||
           (c >= 0x2100 && c < 0x2150) || (c >= 0x2190 && c < 0x2300) ||
           (c >= 0x2500 && c < 0x2600) || (c >= 0x2713 && c < 0x2719);
}

int screen_text_width(const char *str)
{
    const unsigned char *p = (const unsigned char *)str;
    size_t end = strlen(str), len;
    int n = 0;
    for (size_t i = 0; i < end; i += len) {
        next_char(p + i, end - i, &len);
        n++;
    }
    return n;
}

size_t screen_text_row(const char *text, int w)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t best = 0, end = strlen(text), len = 1;
    int col = 0;
    for (size_t i = 0;; i += len) {
        if (p[i] == ' ' || i == end) {
            /* a break: the row up to it takes col columns */
            if (best > 0 && col > w)
                return best;
            best = i;
            if (col > w || i == end)
                return best;
        }
        next_char(p + i, end - i, &len);
        col++;
    }
}

int screen_puts_text(screen_t *s, int x, int y, const char *str, uint8_t fg,
                     uint8_t bg, uint8_t attr)
{
    const unsigned char *p = (const unsigned char *)str;
    size_t end = strlen(str), len;
    int col = 0;
    for (size_t i = 0; i < end; i += len, col++) {
        uint32_t c = next_char(p + i, end - i, &len);
        screen_put(s, x + col, y, one_column(c) ? c : '?', fg, bg, attr);
    }
    return col;
}
