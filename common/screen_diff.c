/* screen_diff.c - cells to ANSI bytes: the fewest we can cheaply find.
 *
 * For each row that changed, the changed cells are visited left to right.
 * Getting the cursor to the next one costs the cheaper of: writing the
 * unchanged cells in between again (when they need no pen change), a
 * relative move right (CUF), or an absolute move (CUP). When the rest of a
 * row is blank in the next screen, one erase-to-end-of-line (EL) replaces
 * the spaces. The pen (SGR) is changed only when a cell needs another one,
 * with the shortest sequence that gets there. Cursor moves are the cheapest
 * of rewriting the cells in between, CUP, or relative CSI moves. When a block
 * of rows moved up (the message log scrolled), the diff is also tried with
 * delete-line / insert-line first, and the shorter of the two is sent. */
#include "screen_diff.h"

#include <stdio.h>
#include <string.h>

typedef struct enc {
    buf_t *out;
    term_state_t *t;
    int w;
    int failed;
} enc_t;

static const cell_t blank_cell = { ' ', COL_DEFAULT, COL_DEFAULT, 0, 0 };

void term_state_reset(term_state_t *t)
{
    uint8_t utf8 = t->utf8;
    memset(t, 0, sizeof *t);
    t->x = t->y = -1;
    t->utf8 = utf8;
}

static void put(enc_t *e, const char *s, size_t n)
{
    if (!e->failed && buf_append(e->out, s, n) != 0)
        e->failed = 1;
}

/* Writes a decimal number; returns its length. */
static int fmt_int(char *p, int v)
{
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

static int digits(int v)
{
    return v >= 1000 ? 4 : v >= 100 ? 3 : v >= 10 ? 2 : 1;
}

static int sgr_colour(char *p, int base, int bright_base, int def, uint8_t c)
{
    if (c == COL_DEFAULT)
        return fmt_int(p, def);
    return fmt_int(p, c < 8 ? base + c : bright_base + (c - 8));
}

/* Sets the pen to that of c, with the shortest SGR we can work out. */
static void set_pen(enc_t *e, const cell_t *c)
{
    term_state_t *t = e->t;
    if (t->pen_known && t->fg == c->fg && t->bg == c->bg && t->attr == c->attr)
        return;
    char seq[48];
    int n = 0;
    seq[n++] = '\x1b';
    seq[n++] = '[';
    int reset = !t->pen_known || (t->attr & ~c->attr) != 0;
    uint8_t fg = t->fg, bg = t->bg, attr = t->attr;
    if (reset) {
        /* An attribute must go: only SGR 0 removes bold everywhere. */
        seq[n++] = '0';
        fg = bg = COL_DEFAULT;
        attr = 0;
    }
    static const struct { uint8_t bit; char code; } attrs[] = {
        { ATTR_BOLD, '1' }, { ATTR_UNDERLINE, '4' }, { ATTR_REVERSE, '7' },
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        if ((c->attr & attrs[i].bit) && !(attr & attrs[i].bit)) {
            if (n > 2)
                seq[n++] = ';';
            seq[n++] = attrs[i].code;
        }
    }
    if (c->fg != fg) {
        if (n > 2)
            seq[n++] = ';';
        n += sgr_colour(seq + n, 30, 90, 39, c->fg);
    }
    if (c->bg != bg) {
        if (n > 2)
            seq[n++] = ';';
        n += sgr_colour(seq + n, 40, 100, 49, c->bg);
    }
    seq[n++] = 'm';
    put(e, seq, (size_t)n);
    t->fg = c->fg;
    t->bg = c->bg;
    t->attr = c->attr;
    t->pen_known = 1;
}

/* The bytes a cell's character takes: UTF-8 when the client has it, '?'
 * for what it cannot show; never a control byte. */
static int glyph(const term_state_t *t, uint32_t ch, char *p)
{
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
    if (ch < 0x800) {
        p[0] = (char)(0xc0 | ch >> 6);
        p[1] = (char)(0x80 | (ch & 0x3f));
        return 2;
    }
    if (ch < 0x10000) {
        p[0] = (char)(0xe0 | ch >> 12);
        p[1] = (char)(0x80 | (ch >> 6 & 0x3f));
        p[2] = (char)(0x80 | (ch & 0x3f));
        return 3;
    }
    p[0] = (char)(0xf0 | ch >> 18);
    p[1] = (char)(0x80 | (ch >> 12 & 0x3f));
    p[2] = (char)(0x80 | (ch >> 6 & 0x3f));
    p[3] = (char)(0x80 | (ch & 0x3f));
    return 4;
}

static void put_cell(enc_t *e, const cell_t *c, int x)
{
    char g[4];
    set_pen(e, c);
    put(e, g, (size_t)glyph(e->t, c->ch, g));
    /* In the last column the cursor waits to wrap: treat it as unknown. */
    e->t->x = x + 1 < e->w ? x + 1 : -1;
}

static int same_pen(const term_state_t *t, const cell_t *c)
{
    return t->pen_known && t->fg == c->fg && t->bg == c->bg && t->attr == c->attr;
}

/* Appends ESC [ n <final> (n omitted when it is 1, or 0 with omit0).
 * Returns the bytes written. */
static int csi_n(char *p, int v, char final)
{
    int n = 0;
    p[n++] = '\x1b';
    p[n++] = '[';
    if (v != 1)
        n += fmt_int(p + n, v);
    p[n++] = final;
    return n;
}

/* The length of csi_n(v): ESC [ digits final, the digits left out for 1. */
static int csi_len(int v)
{
    return v == 1 ? 3 : 3 + digits(v);
}

/* Moves the cursor to (x, y) with the cheapest of: rewriting the unchanged
 * cells in between (same row, same pen, printable), an absolute move (CUP),
 * or relative moves (CUU/CUD, then CUF/CUB or CHA), each CSI only. `row` is
 * the next screen's row y. Relative moves need a known cursor: after the
 * last column the cursor waits to wrap (x is -1), and only CUP is safe. */
static void move_to(enc_t *e, const cell_t *row, int x, int y)
{
    term_state_t *t = e->t;
    if (t->y == y && t->x == x)
        return;
    char seq[32];
    int n = 0;
    /* CUP: ESC[H, ESC[yH or ESC[y;xH. */
    int best = x == 0 ? (y == 0 ? 3 : 3 + digits(y + 1))
                      : 4 + digits(y + 1) + digits(x + 1);
    enum { M_CUP, M_GAP, M_REL } how = M_CUP;
    int dy = y - t->y, dx = x - t->x, hcost = 0;
    char hfinal = 0;
    int hval = 0;
    if (t->y >= 0 && t->x >= 0) {
        if (dy == 0 && dx > 0 && dx < best) {
            int cheap = 1;
            for (int i = t->x; cheap && i < x; i++)
                cheap = same_pen(t, &row[i]) && row[i].ch >= 0x20 &&
                        row[i].ch < 0x7f;
            if (cheap) {
                best = dx;
                how = M_GAP;
            }
        }
        /* Horizontal part: CUF, CUB or CHA, whichever is shortest. */
        if (dx != 0) {
            hcost = csi_len(dx > 0 ? dx : -dx);
            hfinal = dx > 0 ? 'C' : 'D';
            hval = dx > 0 ? dx : -dx;
            if (csi_len(x + 1) < hcost) {
                hcost = csi_len(x + 1);
                hfinal = 'G';
                hval = x + 1;
            }
        }
        int vcost = dy == 0 ? 0 : csi_len(dy > 0 ? dy : -dy);
        if (vcost + hcost < best) {
            best = vcost + hcost;
            how = M_REL;
        }
    }
    if (how == M_GAP) {
        for (int i = t->x; i < x; i++)
            seq[n++] = (char)row[i].ch;
    } else if (how == M_REL) {
        if (dy != 0)
            n += csi_n(seq + n, dy > 0 ? dy : -dy, dy > 0 ? 'B' : 'A');
        if (dx != 0)
            n += csi_n(seq + n, hval, hfinal);
    } else {
        seq[n++] = '\x1b';
        seq[n++] = '[';
        if (y > 0 || x > 0) {
            n += fmt_int(seq + n, y + 1);
            if (x > 0) {
                seq[n++] = ';';
                n += fmt_int(seq + n, x + 1);
            }
        }
        seq[n++] = 'H';
    }
    put(e, seq, (size_t)n);
    t->x = x;
    t->y = y;
}

static int cell_eq(const cell_t *a, const cell_t *b)
{
    return a->ch == b->ch && a->fg == b->fg && a->bg == b->bg && a->attr == b->attr;
}

/* Exactly what a cleared cell is, so that a cleared or erased terminal cell
 * and a blank grid cell are the same thing. */
static int is_blank(const cell_t *c)
{
    return cell_eq(c, &blank_cell);
}

/* Emits row y: `old` is what the terminal shows there (NULL: blank). */
static void encode_row(enc_t *e, const cell_t *old, const cell_t *row, int y)
{
    int w = e->w;
    /* From `tail` on, the next row is blank: one EL can clear it. */
    int tail = w;
    while (tail > 0 && is_blank(&row[tail - 1]))
        tail--;
    int remaining = 0; /* changed cells at or after tail */
    for (int x = tail; x < w; x++)
        if (old ? !cell_eq(&old[x], &row[x]) : !is_blank(&row[x]))
            remaining++;
    for (int x = 0; x < w; x++) {
        const cell_t *want = &row[x];
        const cell_t *was = old ? &old[x] : &blank_cell;
        if (old ? cell_eq(was, want) : is_blank(want))
            continue;
        if (x >= tail && remaining > 3) {
            /* EL fills with the current background: use the default pen. */
            move_to(e, row, x, y);
            set_pen(e, &blank_cell);
            put(e, "\x1b[K", 3);
            return;
        }
        move_to(e, row, x, y);
        put_cell(e, want, x);
    }
}

int screen_paint(const screen_t *next, term_state_t *t, buf_t *out)
{
    enc_t e = { out, t, next->w, 0 };
    /* The default pen first, so that the clear uses the default background. */
    t->pen_known = 0;
    set_pen(&e, &blank_cell);
    put(&e, "\x1b[H\x1b[2J", 7);
    t->x = t->y = 0;
    for (int y = 0; y < next->h; y++)
        encode_row(&e, NULL, &next->cells[y * next->w], y);
    return e.failed ? -1 : 0;
}

/* A block of rows that moved up by k (a scrolling message log): rows
 * top..bot-k of the next screen are rows top+k..bot of the shown one. */
typedef struct shift {
    int top, bot, k;
} shift_t;

#define SHIFT_MAX_K 16
#define SHIFT_MAX_ROWS 256 /* taller screens are diffed without it */
#define SHIFT_MIN_BYTES 24  /* a plain diff this short is kept as it is */

static const cell_t *row_of(const screen_t *s, int y)
{
    return &s->cells[y * s->w];
}

/* Index of the first non-blank cell of a row, or w. */
static int first_ink(const cell_t *row, int w)
{
    int x = 0;
    while (x < w && is_blank(&row[x]))
        x++;
    return x;
}

/* Finds the block shift that spares the most changed, non-blank rows
 * (changed[y]: row y differs). Cheap when there is none: a run can only
 * start at a changed row whose first non-blank cell matches, in place, the
 * first non-blank cell of the row k below in shown. */
static int find_shift(const screen_t *a, const screen_t *b,
                      const uint8_t *changed, shift_t *sh)
{
    int w = b->w, h = b->h, best = 0;
    size_t rowbytes = (size_t)w * sizeof(cell_t);
    int maxk = h / 2 < SHIFT_MAX_K ? h / 2 : SHIFT_MAX_K;
    int ink[SHIFT_MAX_ROWS]; /* first_ink of shown rows, -1 until needed */
    for (int y = 0; y < h; y++)
        ink[y] = -1;
    for (int y = 0; y + 1 < h; y++) {
        if (!changed[y])
            continue;
        const cell_t *nb = row_of(b, y);
        int f = first_ink(nb, w);
        if (f == w)
            continue;
        for (int k = 1; k <= maxk && y + k < h; k++) {
            const cell_t *sa = row_of(a, y + k);
            if (!cell_eq(&sa[f], &nb[f]))
                continue;
            if (ink[y + k] < 0)
                ink[y + k] = first_ink(sa, w);
            if (ink[y + k] != f)
                continue;
            /* A run from y: next row r is shown row r + k. */
            int end = y, gain = 0;
            while (end + k < h &&
                   memcmp(row_of(b, end), row_of(a, end + k), rowbytes) == 0) {
                if (changed[end] && first_ink(row_of(b, end), w) < w)
                    gain++;
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
    return best > 0;
}

/* What the terminal shows in row y after the shift (NULL: a blank row). */
static const cell_t *old_row(const screen_t *a, const shift_t *sh, int y)
{
    if (!sh || y < sh->top || y > sh->bot)
        return row_of(a, y);
    return y + sh->k <= sh->bot ? row_of(a, y + sh->k) : NULL;
}

/* Delete k lines at the top of the block (everything below moves up),
 * then, unless the block reaches the bottom, insert k blank lines where
 * the block ends (what was below it moves back down). Both fill with the
 * current background: the default pen first. Where IL/DL leave the
 * cursor's column differs between terminals: forget the cursor. */
static void emit_shift(enc_t *e, const screen_t *next, const shift_t *sh)
{
    char seq[16];
    set_pen(e, &blank_cell);
    move_to(e, row_of(next, sh->top), 0, sh->top);
    put(e, seq, (size_t)csi_n(seq, sh->k, 'M'));
    if (sh->bot < next->h - 1) {
        e->t->x = e->t->y = -1;
        move_to(e, row_of(next, sh->bot - sh->k + 1), 0, sh->bot - sh->k + 1);
        put(e, seq, (size_t)csi_n(seq, sh->k, 'L'));
    }
    e->t->x = e->t->y = -1;
}

/* Encodes every row that differs; records which in changed (may be NULL). */
static void encode_rows(enc_t *e, const screen_t *shown, const screen_t *next,
                        const shift_t *sh, uint8_t *changed)
{
    size_t rowbytes = (size_t)next->w * sizeof(cell_t);
    for (int y = 0; y < next->h; y++) {
        const cell_t *a = old_row(shown, sh, y), *b = row_of(next, y);
        int differs = a ? memcmp(a, b, rowbytes) != 0
                        : first_ink(b, next->w) < next->w;
        if (changed)
            changed[y] = (uint8_t)differs;
        if (differs)
            encode_row(e, a, b, y);
    }
}

int screen_diff(const screen_t *shown, const screen_t *next, term_state_t *t,
                buf_t *out)
{
    if (shown->w != next->w || shown->h != next->h)
        return screen_paint(next, t, out);
    enc_t e = { out, t, next->w, 0 };
    size_t start = out->len;
    term_state_t before = *t;
    uint8_t changed[SHIFT_MAX_ROWS];
    int may_shift = next->h <= SHIFT_MAX_ROWS;
    encode_rows(&e, shown, next, NULL, may_shift ? changed : NULL);
    shift_t sh;
    if (!e.failed && may_shift && out->len - start >= SHIFT_MIN_BYTES &&
        find_shift(shown, next, changed, &sh)) {
        /* Try the scroll after the plain diff; keep the shorter. */
        size_t plain_end = out->len;
        term_state_t plain = *t;
        *t = before;
        enc_t e2 = { out, t, next->w, 0 };
        emit_shift(&e2, next, &sh);
        encode_rows(&e2, shown, next, &sh, NULL);
        size_t alt = out->len - plain_end;
        if (!e2.failed && alt < plain_end - start) {
            memmove(out->data + start, out->data + plain_end, alt);
            out->len = start + alt;
        } else {
            out->len = plain_end;
            *t = plain;
        }
    }
    return e.failed ? -1 : 0;
}
