/* utf8.h - one character read from UTF-8 bytes, and one written.
 *
 * The reading is the strict one (RFC 3629; Unicode's "well-formed"), for
 * the three places that read text they did not make: the host's text on
 * screen (screen_text.c), the account text shown to other players and
 * passwords (accounts.c), and the export's JSON strings (export.c). Each
 * of them decides what a malformed sequence becomes ('?', a refusal,
 * U+FFFD); this module only says where one is. The key decoder (keydec.c)
 * reads a byte at a time across reads and keeps its own state for the
 * same rules. The writing serves the encoder's glyphs (screen_diff.c) and
 * the lobby's typed line (lobby.c). */
#ifndef ROGUE_UTF8_H
#define ROGUE_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The most bytes a character takes. */
#define UTF8_MAX_LEN 4

/* Reads the character that starts at p, looking at no more than the n
 * bytes there. Returns its length in bytes (1 to 4) and stores its code
 * point in *cp; an ASCII byte, NUL included, is a character of 1.
 *
 * Returns 0, and leaves *cp alone, when the bytes do not start a
 * well-formed character:
 * - invalid: a continuation byte (0x80-0xbf) first, a byte that is never
 *   in UTF-8 (0xc0, 0xc1, 0xf5-0xff), or a lead byte whose next byte is
 *   not a continuation;
 * - overlong: a character in more bytes than it needs (0xc0 0xaf or
 *   0xe0 0x80 0xaf for '/', 0xf0 0x8f 0xbf 0xbf for U+FFFF);
 * - a surrogate, U+D800 to U+DFFF (0xed 0xa0 0x80), or a code point past
 *   U+10FFFF (0xf4 0x90 0x80 0x80);
 * - truncated: the n bytes end before the sequence does (n 0 included).
 * No part of a malformed sequence is taken: a caller that goes on does so
 * one byte further, and the next character still decodes.
 *
 * The bytes are read in order and none past the first that breaks the
 * sequence, nor past n. */
size_t utf8_decode(const unsigned char *p, size_t n, uint32_t *cp);

/* Writes the code point cp as UTF-8 into out (UTF8_MAX_LEN bytes), and
 * returns its length (1 to 4). cp must be a code point to write (below
 * 0x110000, not a surrogate): each caller decides first what stands for
 * one that is not. Inline: the encoder writes every non-ASCII glyph
 * through it. */
static inline int utf8_encode(uint32_t cp, char out[UTF8_MAX_LEN])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

#endif
