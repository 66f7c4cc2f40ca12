/* screen_diff.c - cells to ANSI bytes: the fewest we can cheaply find.
 *
 * For each row that changed, the changed cells are visited left to right.
 * Getting the cursor to the next one costs the cheaper of: writing the
 * unchanged cells in between again (when they need no pen change), a
 * relative move right (CUF), or an absolute move (CUP). When the rest of a
 * row is blank in the next screen, one erase-to-end-of-line (EL) replaces
 * the spaces. The pen (SGR) is changed only when a cell needs another one,
 * with the shortest sequence that gets there. */
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

/* Moves the cursor to (x, y). `row` is the next screen's row y, used to
 * rewrite a short gap of unchanged cells instead of moving over it. */
static void move_to(enc_t *e, const cell_t *row, int x, int y)
{
    term_state_t *t = e->t;
    if (t->y == y && t->x == x)
        return;
    char seq[24];
    int n = 0;
    if (t->y == y && t->x >= 0 && t->x < x) {
        int gap = x - t->x;
        int cuf = gap == 1 ? 3 : 3 + digits(gap);
        int cheap = gap <= cuf;
        for (int i = t->x; cheap && i < x; i++)
            cheap = same_pen(t, &row[i]) && row[i].ch >= 0x20 && row[i].ch < 0x7f;
        if (cheap) {
            for (int i = t->x; i < x; i++)
                seq[n++] = (char)row[i].ch;
        } else {
            seq[n++] = '\x1b';
            seq[n++] = '[';
            if (gap > 1)
                n += fmt_int(seq + n, gap);
            seq[n++] = 'C';
        }
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

int screen_diff(const screen_t *shown, const screen_t *next, term_state_t *t,
                buf_t *out)
{
    if (shown->w != next->w || shown->h != next->h)
        return screen_paint(next, t, out);
    enc_t e = { out, t, next->w, 0 };
    size_t rowbytes = (size_t)next->w * sizeof(cell_t);
    for (int y = 0; y < next->h; y++) {
        const cell_t *a = &shown->cells[y * next->w];
        const cell_t *b = &next->cells[y * next->w];
        if (memcmp(a, b, rowbytes) != 0)
            encode_row(&e, a, b, y);
    }
    return e.failed ? -1 : 0;
}
