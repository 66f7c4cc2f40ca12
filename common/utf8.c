/* utf8.c - one character read from UTF-8 bytes (utf8.h). */
#include "utf8.h"

/* The length of the sequence lead starts, or 0 for a byte that starts
 * none: a continuation byte, 0xc0 and 0xc1 (only ever overlong), 0xf5 and
 * above (only ever past U+10FFFF). */
static size_t lead_len(unsigned char lead)
{
    return lead < 0x80 ? 1 : lead < 0xc2 ? 0 : lead < 0xe0 ? 2
           : lead < 0xf0 ? 3 : lead < 0xf5 ? 4 : 0;
}

size_t utf8_decode(const unsigned char *p, size_t n, uint32_t *cp)
{
    /* by length: the lead byte's bits of the code point, and the
     * smallest code point the length may carry (below it, overlong) */
    static const unsigned char bits[UTF8_MAX_LEN + 1] = { 0, 0x7f, 0x1f,
                                                          0x0f, 0x07 };
    static const uint32_t least[UTF8_MAX_LEN + 1] = { 0, 0, 0x80, 0x800,
                                                      0x10000 };
    if (n == 0)
        return 0;
    size_t len = lead_len(p[0]);
    if (len == 0)
        return 0;
    uint32_t c = p[0] & bits[len];
    for (size_t i = 1; i < len; i++) {
        if (i >= n || (p[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (p[i] & 0x3fu);
    }
    if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return len;
}
