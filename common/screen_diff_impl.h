/* screen_diff_impl.h - the encoder's terminal sequences (screen_diff.c): the
 * bytes it appends, the numbers in a sequence, the shortest SGR from the
 * terminal's pen to a cell's, a glyph as the terminal can show it, and the
 * cheapest cursor move. Internal to the encoder, in a header so that they
 * inline into its span writer as they did in one file (as screen_scan.h's
 * scans do): included by screen_diff.c alone. */
#ifndef ROGUE_SCREEN_DIFF_IMPL_H
#define ROGUE_SCREEN_DIFF_IMPL_H

#include <limits.h>
#include <string.h>

#include "buf.h"
#include "palette.h"
#include "screen_diff.h"
#include "screen_floor.h"
#include "utf8.h"


typedef struct enc {
    buf_t *out;
    term_state_t *t;
    int w;
    int failed;
} enc_t;

static void put(enc_t *e, const char *s, size_t n)
{
    buf_t *b = e->out;
    if (e->failed)
        return;
    if (b->cap - b->len >= n) {
        /* Room allocated already (never past the limit): no call. */
        memcpy(b->data + b->len, s, n);
        b->len += n;
    } else if (buf_append(b, s, n) != 0) {
        e->failed = 1;
    }
}

/* The terminal's pen is c's (one compare of words: term_state_t.pen_word,
 * set with the pen). */
static int same_pen(const term_state_t *t, const cell_t *c)
{
    return t->pen_known && pen_key(c) == t->pen_word;
}

/* "00" to "99": two digits a load, no division by 10 for them. */
static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324"
    "25262728293031323334353637383940414243444546474849"
    "50515253545556575859606162636465666768697071727374"
    "75767778798081828384858687888990919293949596979899";

/* Writes a decimal number; returns its length. Up to 999 (every colour
 * and cursor move) without a loop: each SGR and move formats some. Not
 * inline: a copy at each of its callers cost more cold code lines than
 * the call (docs/performance.md, "The encoder's spans, cheaper"). */
static int fmt_int(char *p, int v)
{
    unsigned u = (unsigned)v;
    if (u < 10) {
        p[0] = (char)('0' + u);
        return 1;
    }
    if (u < 100) {
        memcpy(p, &digit_pairs[2 * u], 2);
        return 2;
    }
    if (u < 1000) {
        p[0] = (char)('0' + u / 100);
        memcpy(p + 1, &digit_pairs[2 * (u % 100)], 2);
        return 3;
    }
    char tmp[12];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    return n;
}

/* The digits of v (below 10 million), without a branch: it prices every
 * move. */
static int digits(int v)
{
    if (v < 100)
        return v < 10 ? 1 : 2;
    return 3 + (v >= 1000) + (v >= 10000) + (v >= 100000) + (v >= 1000000);
}

/* fmt_int for the moves' and colours' numbers: below 100 (every row and
 * column of an 80x24 screen, every SGR code but a palette index) written
 * here, no call, so that writing a move calls nothing and saves no
 * registers. */
static inline int put_num(char *p, int v)
{
    if ((unsigned)v < 10) {
        p[0] = (char)('0' + v);
        return 1;
    }
    if ((unsigned)v < 100) {
        memcpy(p, &digit_pairs[2 * v], 2);
        return 2;
    }
    return fmt_int(p, v);
}

/* The longest SGR pen_seq writes: ESC [ 0;1;4;7; two truecolor colours
 * (16 bytes each), the separators and m. */
#define PEN_SEQ_MAX 48

/* The shortest SGR we can work out from the terminal's pen to that of c,
 * into seq (PEN_SEQ_MAX bytes); returns its length, 0 when the pen is
 * right. */
static int pen_seq(const term_state_t *t, const cell_t *c, char *seq)
{
    if (same_pen(t, c))
        return 0;
    int n = 0;
    seq[n++] = '\x1b';
    seq[n++] = '[';
    if (t->pen_known && c->attr == t->attr && c->bg == t->bg) {
        /* Only the foreground changes (most pen changes: the map's
         * colours on one background). */
        n += screen_sgr_colour(seq + n, t->colours, 30, c->fg);
        seq[n++] = 'm';
        return n;
    }
    int reset = !t->pen_known || (t->attr & ~c->attr) != 0;
    uint8_t fg = t->fg, bg = t->bg, attr = t->attr;
    if (reset) {
        /* An attribute must go: only SGR 0 removes bold everywhere. Alone
         * it is ESC[m (a missing parameter is 0). */
        fg = bg = COL_DEFAULT;
        attr = 0;
        if (c->attr || c->fg != fg || c->bg != bg)
            seq[n++] = '0';
    }
    static const struct { uint8_t bit; char code; } attrs[] = {
        { ATTR_BOLD, '1' }, { ATTR_UNDERLINE, '4' }, { ATTR_REVERSE, '7' },
    };
    unsigned add = c->attr & ~attr; /* most pen changes add none */
    for (size_t i = 0; add && i < sizeof attrs / sizeof attrs[0]; i++) {
        if (add & attrs[i].bit) {
            if (n > 2)
                seq[n++] = ';';
            seq[n++] = attrs[i].code;
        }
    }
    if (c->fg != fg) {
        if (n > 2)
            seq[n++] = ';';
        n += screen_sgr_colour(seq + n, t->colours, 30, c->fg);
    }
    if (c->bg != bg) {
        if (n > 2)
            seq[n++] = ';';
        n += screen_sgr_colour(seq + n, t->colours, 40, c->bg);
    }
    seq[n++] = 'm';
    return n;
}

/* Writes into seq (PEN_SEQ_MAX bytes) the SGR that sets the pen to that
 * of c, and takes it as the terminal's; returns its length. */
static int pen_to(term_state_t *t, const cell_t *c, char *seq)
{
    int n = pen_seq(t, c, seq);
    if (n == 0)
        return 0;
    t->fg = c->fg;
    t->bg = c->bg;
    t->attr = c->attr;
    t->pen_known = 1;
    t->pen_word = pen_key(c);
    return n;
}

/* Sets the pen to that of c. */
static void set_pen(enc_t *e, const cell_t *c)
{
    char seq[PEN_SEQ_MAX];
    int n = pen_to(e->t, c, seq);
    if (n > 0)
        put(e, seq, (size_t)n);
}

/* The bytes a cell's character takes: UTF-8 when the client has it, '?'
 * for what it cannot show; never a control byte. */
static int glyph(const term_state_t *t, uint32_t ch, char *p)
{
    if (ch - 0x20u < 0x5fu) {
        /* Printable ASCII (most cells) first: one test. */
        p[0] = (char)ch;
        return 1;
    }
    if (ch < 0x20 || ch == 0x7f || (ch >= 0x80 && ch < 0xa0) || ch > 0x10ffff ||
        (ch >= 0xd800 && ch < 0xe000)) {
        p[0] = '?';
        return 1;
    }
    if (ch < 0x80) {
        p[0] = (char)ch;
        return 1;
    }
    if (!t->utf8) {
        p[0] = '?';
        return 1;
    }
    return utf8_encode(ch, p);
}

/* Appends ESC [ n <final> (n omitted when it is 1).
 * Returns the bytes written. */
static int csi_n(char *p, int v, char final)
{
    int n = 0;
    p[n++] = '\x1b';
    p[n++] = '[';
    if (v != 1)
        n += put_num(p + n, v);
    p[n++] = final;
    return n;
}

/* The length of csi_n(v): ESC [ digits final, the digits left out for 1. */
static int csi_len(int v)
{
    return v == 1 ? 3 : 3 + digits(v);
}

/* How to move the cursor: the cheapest of rewriting the unchanged cells in
 * between (same row, same pen, printable), an absolute move (CUP), or
 * relative moves (CUU/CUD, then CUF/CUB or CHA), each CSI only; on a tie
 * the gap, then the CUP. Relative moves need a known cursor: after the
 * last column the cursor waits to wrap (x is -1), and only CUP is safe.
 * Each kind of move is written by a function of its own, the step right
 * on the row without pricing the others (docs/performance.md, "The
 * encoder, fewer instructions a key"). */

/* The length of a CUP to (x, y): ESC[H, ESC[yH or ESC[y;xH. */
static int cup_len(int x, int y)
{
    return x == 0 ? (y == 0 ? 3 : 3 + digits(y + 1))
                  : 4 + digits(y + 1) + digits(x + 1);
}

/* Writes the CUP to (x, y); returns its length. */
static __attribute__((noinline)) int cup_seq(char *p, int x, int y)
{
    int n = 0;
    p[n++] = '\x1b';
    p[n++] = '[';
    if (y > 0 || x > 0) {
        n += put_num(p + n, y + 1);
        if (x > 0) {
            p[n++] = ';';
            n += put_num(p + n, x + 1);
        }
    }
    p[n++] = 'H';
    return n;
}

/* A step of dx (1 to 4) cells right on the cursor's row: the cells in
 * between rewritten when the terminal's pen is theirs and they are
 * printable ASCII (dx bytes, no more than CUF's 3 or 4: a tie goes to the
 * gap), else CUF. Nothing else is as short: CHA takes 4 bytes or more
 * here (the column is past the first), a CUP 6. Writes the move into p;
 * returns its length. */
static __attribute__((noinline)) int step_right(const term_state_t *t,
                                                const cell_t *c, int dx,
                                                char *p)
{
    int i = 0;
    if (t->pen_known) {
        /* Written as they are checked: a CUF written after overwrites. */
        while (i < dx && pen_key(&c[i]) == t->pen_word &&
               c[i].ch - 0x20u < 0x5fu) {
            p[i] = (char)c[i].ch;
            i++;
        }
    }
    return i == dx ? dx : csi_n(p, dx, 'C');
}

/* Any other move from a known cursor, dx and dy from it: the relative
 * moves when shorter than the CUP, else the CUP (a gap rewritten is never
 * the shortest past 4 cells: CUF takes 4 bytes up to 9 cells, 5 up to
 * 99). Writes it into p; returns its length. */
static __attribute__((noinline)) int move_far(char *p, int x, int y, int dx,
                                              int dy)
{
    int adx = dx > 0 ? dx : -dx, ady = dy > 0 ? dy : -dy;
    int cup = cup_len(x, y);
    int vcost = dy == 0 ? 0 : csi_len(ady);
    /* A horizontal move is 3 bytes or more: most moves to another row of
     * another column are then a CUP, without pricing it. */
    if (vcost + (dx != 0 ? 3 : 0) >= cup)
        return cup_seq(p, x, y);
    /* Horizontal part: CUF, CUB or CHA, whichever is shortest. */
    int hcost = 0, hval = adx;
    char hfinal = dx > 0 ? 'C' : 'D';
    if (dx != 0) {
        hcost = csi_len(adx);
        int cha = csi_len(x + 1);
        if (cha < hcost) {
            hcost = cha;
            hfinal = 'G';
            hval = x + 1;
        }
    }
    if (vcost + hcost >= cup)
        return cup_seq(p, x, y);
    int n = 0;
    if (dy != 0)
        n = csi_n(p, ady, dy > 0 ? 'B' : 'A');
    if (dx != 0)
        n += csi_n(p + n, hval, hfinal);
    return n;
}

/* The longest move move_seq writes: two CSIs of up to 7 digits, or a gap
 * rewritten (below a CUP's length). */
#define MOVE_SEQ_MAX 32

/* Writes into seq (MOVE_SEQ_MAX bytes) the cheapest move of the cursor to
 * (x, y), `row` the next screen's row y, and takes it as the terminal's;
 * returns its length. The cursor is set first and each kind is a call of
 * its own (not inline), so that each is a tail call and this function
 * saves no registers. */
static int move_seq(term_state_t *t, const cell_t *row, int x, int y,
                    char *seq)
{
    int dx = x - t->x, dy = y - t->y;
    int known = (t->x | t->y) >= 0;
    if ((dx | dy) == 0)
        return 0;
    t->x = x;
    t->y = y;
    if (!known)
        return cup_seq(seq, x, y);
    if (dy == 0 && (unsigned)dx - 1u < 4u)
        return step_right(t, row + x - dx, dx, seq);
    return move_far(seq, x, y, dx, dy);
}

static void move_to(enc_t *e, const cell_t *row, int x, int y)
{
    char seq[MOVE_SEQ_MAX];
    int n = move_seq(e->t, row, x, y, seq);
    if (n > 0)
        put(e, seq, (size_t)n);
}

#endif
