/* screen_diff.c - cells to ANSI bytes: the fewest we can cheaply find.
 *
 * The cells that changed are gathered into spans: runs of neighbouring
 * changed cells of one pen (SGR state), and the ends of rows that became
 * blank, which one erase-to-end-of-line (EL) each clears. The spans are
 * written in reading order, except that the pen the terminal has is kept
 * while a span of that pen is no dearer to reach than the next span in
 * reading order is with its pen change: the edge of the field of view
 * changes colour all round the player every step, and going round it once
 * per colour costs far fewer pen changes (5-8 bytes each) than going down
 * it row by row, for a few more cursor moves. A cursor move is the
 * cheapest of rewriting the unchanged cells in between (when they need no
 * pen change), CUP, or relative moves; a pen change is the shortest SGR
 * from the pen the terminal has. When a block of rows moved up (the
 * message log scrolled; screen_shift.c finds it), the diff is also tried
 * with delete-line / insert-line first, and when a diff is long (a new
 * level, a menu), as a full repaint; the shortest is sent. The named
 * colours beyond the ANSI 16 (palette.h) are sent as the client's colour
 * depth allows. */
#include "screen_diff.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "palette.h"
#include "screen_diff_impl.h"
#include "screen_floor.h"
#include "screen_scan.h"
#include "screen_shift.h"
#include "utf8.h"

void term_state_reset(term_state_t *t)
{
    uint8_t utf8 = t->utf8, colours = t->colours;
    memset(t, 0, sizeof *t);
    t->x = t->y = -1;
    t->utf8 = utf8;
    t->colours = colours;
}

void term_state_set_display(term_state_t *t, const display_t *d)
{
    uint8_t colours = d->colours <= COLOURS_TRUE ? d->colours : COLOURS_16;
    if (colours != t->colours)
        t->pen_known = 0;
    t->colours = colours;
    t->utf8 = d->glyphs == GLYPHS_UTF8;
}

/* The SGR parameters of colour c as a foreground (base 30) or background
 * (base 40): 30-37 / 90-97 for the ANSI 16, 39 for the default, and a
 * palette colour as 38;5;N, 38;2;R;G;B or its ANSI fallback by the
 * terminal's depth (in truecolor a tone on xterm's cube, palette.h's
 * on_cube, as 38;5;N too: the same colour). At most 16 bytes. */
int screen_sgr_colour(char *p, int colours, int base, uint8_t c)
{
    if (c > COL_DEFAULT) {
        const palette_colour_t *pc = palette_colour(c);
        if (!pc)
            c = COL_DEFAULT;
        else if (colours == COLOURS_16)
            c = pc->fallback;
        else {
            int n = put_num(p, base + 8);
            if (colours == COLOURS_256 || pc->on_cube) {
                memcpy(p + n, ";5;", 3);
                n += 3;
                return n + put_num(p + n, pc->xterm);
            }
            memcpy(p + n, ";2;", 3);
            n += 3;
            n += fmt_int(p + n, pc->r);
            p[n++] = ';';
            n += fmt_int(p + n, pc->g);
            p[n++] = ';';
            return n + fmt_int(p + n, pc->b);
        }
    }
    if (c == COL_DEFAULT)
        return put_num(p, base + 9);
    return put_num(p, c < 8 ? base + c : base + 60 + (c - 8));
}

/* --- spans and their order ------------------------------------------------ */

/* Changed cells x..x+len-1 of row y, all of one pen; or (len 0) EL from x:
 * the rest of the row is blank in the next screen. */
typedef struct span {
    const cell_t *row;  /* the next screen's row y */
    int x, y, len;
    cell_t pen;         /* what its cells are written with (EL: blank) */
    uint32_t pen_key;   /* pen_key(pen) */
    int queue;          /* its pen's queue, or -1 */
    int next;           /* the next span of that queue, or -1 */
    uint8_t done;
} span_t;

#define SPAN_MAX 256    /* spans gathered before they are written (a
                           frame has tens; more are written in parts) */
#define PEN_MAX 16      /* pens given a queue; a frame has a handful */

/* The spans of a frame, in reading order, and for each pen the queue of
 * its spans not written yet, also in reading order. */
typedef struct spans {
    enc_t *e;
    int n, npens;
    frame_rows_t *fr; /* NULL, or where each row's first span and ink go */
    uint32_t pen_key[PEN_MAX];
    int head[PEN_MAX], tail[PEN_MAX];
    span_t s[SPAN_MAX];
} spans_t;

/* The terminal's pen as pen_key has it; UINT32_MAX when unknown. */
static uint32_t term_pen_key(const term_state_t *t)
{
    return t->pen_known ? t->pen_word : UINT32_MAX;
}

/* What move_seq would cost, roughly and fast (it prices the choices of
 * every step): rewriting a gap is taken to be possible when it is short,
 * without looking at its cells. */
static inline int move_guess(const term_state_t *t, int x, int y)
{
    int dy = y - t->y, dx = x - t->x;
    if ((dx | dy) == 0)
        return 0;
    int rel = INT_MAX; /* the cursor's place unknown: only a CUP */
    if ((t->x | t->y) >= 0) {
        if (dy == 0 && (unsigned)dx - 1u < 2u)
            return dx;
        int adx = dx > 0 ? dx : -dx, ady = dy > 0 ? dy : -dy;
        int h = dx == 0 ? 0 : csi_len(adx) < csi_len(x + 1) ? csi_len(adx)
                                                           : csi_len(x + 1);
        rel = (dy == 0 ? 0 : csi_len(ady)) + h;
        /* A CUP is at least 4 bytes, 6 past the first column: no need to
         * price it when the relative move is shorter. */
        if (rel < (x == 0 ? 4 : 6))
            return rel;
    }
    int cup = x == 0 ? 3 + digits(y + 1) : 4 + digits(y + 1) + digits(x + 1);
    return rel < cup ? rel : cup;
}

/* The bytes of the pen change to c's pen from the terminal's. */
static int pen_cost(const term_state_t *t, const cell_t *c)
{
    char seq[PEN_SEQ_MAX];
    return pen_seq(t, c, seq);
}

/* Writes span s's move, pen and glyphs into p (room for
 * span_bytes_max(s)); returns their length. */
static inline int span_bytes(enc_t *e, const span_t *s, char *p)
{
    term_state_t *t = e->t;
    int n = move_seq(t, s->row, s->x, s->y, p);
    /* Most spans keep the pen: that is known here without a call. */
    if (!t->pen_known || s->pen_key != t->pen_word)
        n += pen_to(t, &s->pen, p + n);
    if (s->len == 0) {
        /* EL fills with the current background: the pen is the default. */
        memcpy(p + n, "\x1b[K", 3);
        return n + 3;
    }
    const cell_t *c = &s->row[s->x], *end = c + s->len;
    char *q = p + n; /* a pointer, not p[n]: no index to widen a cell */
    int four = ascii_by_four(c, s->len, q);
    c += four;
    q += four;
    for (; c < end; c++) {
        uint32_t ch = c->ch;
        if (ch - 0x20u < 0x5fu)
            *q++ = (char)ch; /* printable ASCII, most cells */
        else
            q += glyph(t, ch, q);
    }
    /* In the last column the cursor waits to wrap: treat it as unknown. */
    t->x = s->x + s->len < e->w ? s->x + s->len : -1;
    return (int)(q - p);
}

/* The most span_bytes writes for s: a move, a pen, 4 bytes a glyph (or
 * EL's 3). */
static size_t span_bytes_max(const span_t *s)
{
    return MOVE_SEQ_MAX + PEN_SEQ_MAX + 4 * (size_t)s->len + 3;
}

/* write_span when out has not the room: through a buffer as long as the
 * span. A call of its own, so that the common path has span_bytes inline. */
static __attribute__((noinline)) void write_span_through(enc_t *e,
                                                         const span_t *s,
                                                         size_t need)
{
    char small[MOVE_SEQ_MAX + PEN_SEQ_MAX + 256];
    char *g = need <= sizeof small ? small : malloc(need);
    if (!g) {
        e->failed = 1;
        return;
    }
    put(e, g, (size_t)span_bytes(e, s, g));
    if (g != small)
        free(g);
}

static void write_span(enc_t *e, const span_t *s)
{
    /* Straight into out when it has the room (nearly always: no copy
     * and no call a span). */
    buf_t *b = e->out;
    size_t need = span_bytes_max(s);
    if (!e->failed && b->cap - b->len >= need)
        b->len += (size_t)span_bytes(e, s, b->data + b->len);
    else
        write_span_through(e, s, need);
}

/* Whether s[i], the first span not written of the terminal's pen (queue
 * q), goes before s[lo], the first span not written (of another pen):
 * when it is no dearer to reach than s[lo] is with its pen change. That
 * change is at least 3 bytes (ESC [ m), so the moves alone decide most
 * choices, and is priced only when they do not; *lo_pen keeps it (-1:
 * not priced yet). The terminal's pen stays q while s[lo] waits (a span
 * of q written keeps it), so the price holds until s[lo] is written. */
static inline int pen_span_first(const term_state_t *t, const span_t *s,
                                 int i, int lo, int *lo_pen)
{
    int gi = move_guess(t, s[i].x, s[i].y);
    if (gi <= 3)
        return 1; /* no dearer than any move with a pen change */
    int glo = move_guess(t, s[lo].x, s[lo].y);
    if (gi <= glo + 3)
        return 1;
    if (*lo_pen < 0)
        *lo_pen = pen_cost(t, &s[lo].pen);
    return gi <= glo + *lo_pen;
}

/* Writes the gathered spans and empties the list. Each time, the next
 * span is the first not written (in reading order), unless a span of the
 * pen the terminal has is no dearer to reach than that one is with its pen
 * change: then the first such span. So a pen is used for as long as it
 * pays, wherever its spans are. */
static void flush_spans(spans_t *sp)
{
    span_t *s = sp->s;
    const term_state_t *t = sp->e->t;
    uint32_t now = term_pen_key(t);
    int q = -1; /* the queue of the terminal's pen */
    for (int k = 0; k < sp->npens; k++)
        if (sp->pen_key[k] == now)
            q = k;
    for (int lo = 0; lo < sp->n; lo++) {
        /* s[lo]'s pen change from the terminal's pen q, once priced
         * (pen_span_first). */
        int lo_pen = -1;
        while (!s[lo].done) {
            /* s[lo] heads its queue: spans leave queues only from the
             * head, and the first span not written is first in its pen. */
            int pick = lo;
            if (q >= 0 && q != s[lo].queue && sp->head[q] >= 0 &&
                pen_span_first(t, s, sp->head[q], lo, &lo_pen))
                pick = sp->head[q];
            write_span(sp->e, &s[pick]);
            s[pick].done = 1;
            q = s[pick].queue;
            if (q >= 0)
                sp->head[q] = s[pick].next;
        }
    }
    sp->n = 0;
    sp->npens = 0;
}

static void add_span(spans_t *sp, const cell_t *row, int x, int y, int len);

/* add_span to a full list: written first. Rare (a frame has tens of
 * spans), and a call of its own (not inline), so that add_span's common
 * path calls nothing and saves no registers. */
static __attribute__((noinline)) void add_span_full(spans_t *sp,
                                                    const cell_t *row, int x,
                                                    int y, int len)
{
    flush_spans(sp);
    add_span(sp, row, x, y, len);
}

static void add_span(spans_t *sp, const cell_t *row, int x, int y, int len)
{
    if (__builtin_expect(sp->n == SPAN_MAX, 0)) {
        add_span_full(sp, row, x, y, len);
        return;
    }
    int i = sp->n++;
    span_t *s = &sp->s[i];
    cell_t pen = len ? row[x] : blank_cell;
    uint32_t key = pen_key(&pen);
    s->row = row;
    s->x = x;
    s->y = y;
    s->len = len;
    s->pen = pen;
    s->pen_key = key;
    s->next = -1;
    s->done = 0;
    int k = 0;
    while (k < sp->npens && sp->pen_key[k] != key)
        k++;
    if (k == sp->npens) {
        if (k == PEN_MAX) {
            s->queue = -1; /* written in reading order only */
            return;
        }
        sp->npens++;
        sp->pen_key[k] = key;
        sp->head[k] = -1;
    }
    s->queue = k;
    if (sp->head[k] < 0)
        sp->head[k] = i;
    else
        sp->s[sp->tail[k]].next = i;
    sp->tail[k] = i;
}

/* gather_row's short way for a row whose last changed cell is not blank
 * in the next screen (most rows a key changes: a few map cells, the
 * status line's numbers): no EL can apply, since the row's blank end
 * starts after every change, so the spans are the changed runs between
 * the first and the last changed cell, found from both ends without
 * measuring the blank ends (docs/performance.md, "The encoder's spans,
 * fewer scans"). Returns 0, having done nothing, for other rows. */
static int gather_inked_end(spans_t *sp, const cell_t *old,
                            const cell_t *row, int y, int last)
{
    if (is_blank(&row[last]))
        return 0;
    int end = last + 1;
    int first = first_changed(old, row, 0, end);
    for (int x = first; x < end; x = first_changed(old, row, x, end)) {
        int stop = run_end(old, row, x + 1, end, pen_key(&row[x]));
        add_span(sp, row, x, y, stop - x);
        x = stop;
    }
    if (sp->fr) { /* for screen_find_shift: the row has ink (at last) */
        sp->fr->first[y] = col16(first);
        sp->fr->last[y] = col16(last);
        sp->fr->inked[y] = 1;
    }
    return 1;
}

/* Gathers the spans of row y: `old` is what the terminal shows there
 * (NULL: blank). */
static void gather_row(spans_t *sp, const cell_t *old, const cell_t *row,
                       int y)
{
    int w = sp->e->w;
    uint32_t blank = cell_word(&blank_cell);
    uint64_t blank2 = (uint64_t)blank << 32 | blank;
    /* Cell x changed: differs from what is shown (words compare cells). */
#define CHANGED(x) (cell_word(&row[x]) != (old ? cell_word(&old[x]) : blank))
    /* From `both` on, both rows are blank (found from the right a pair at
     * a time): nothing there changed, and nothing is looked at again. */
    int both = w;
    if (old)
        both = blank8_from_right(row, old, w); /* eight cells a step */
    /* then two */
    while (old && both >= 2 && ((pair_word(&row[both - 2]) ^ blank2) |
                                (pair_word(&old[both - 2]) ^ blank2)) == 0)
        both -= 2;
    /* From `tail` on, the next row is blank: one EL can clear it, worth it
     * for more than 3 changed cells. */
    int tail = ink_end(row, both);
    /* Changed cells at or after tail (counted up to 4: only "more than 3"
     * matters): there the next row is blank, so those that are not
     * blank in old (none from `both` on). */
    int remaining = 0;
    for (int x = tail; old && x < both && remaining <= 3; x++) {
        while (x + 2 <= both && pair_word(&old[x]) == blank2)
            x += 2;
        if (x < both)
            remaining += CHANGED(x);
    }
    /* Cells written one by one: up to tail with an EL after, else all
     * that may have changed. */
    int end = remaining > 3 ? tail : both;
    /* Most cells did not change: straight to the first that did. */
    int first = old ? first_changed(old, row, 0, end) : end;
    for (int x = first; old && x < end; x = first_changed(old, row, x, end)) {
        int stop = run_end(old, row, x + 1, end, pen_key(&row[x]));
        add_span(sp, row, x, y, stop - x);
        x = stop;
    }
    for (int x = 0; !old && x < end; x++) {
        /* A paint: the cells that changed are those not blank. */
        x = ink_from(row, x, end);
        if (x >= end)
            break;
        uint32_t key = pen_key(&row[x]);
        int len = 1;
        while (x + len < end && CHANGED(x + len) &&
               pen_key(&row[x + len]) == key)
            len++;
        add_span(sp, row, x, y, len);
        x += len - 1;
    }
    if (remaining > 3) {
        int x = tail;
        while (!CHANGED(x))
            x++;
        add_span(sp, row, x, y, 0);
        if (first >= end)
            first = x;
    }
    if (sp->fr) { /* for screen_find_shift */
        sp->fr->first[y] = col16(first);
        sp->fr->last[y] = col16(first);
        sp->fr->inked[y] = tail > 0;
    }
#undef CHANGED
}

int screen_paint(const screen_t *next, term_state_t *t, buf_t *out)
{
    enc_t e = { out, t, next->w, 0 };
    /* The default pen first, so that the clear uses the default background. */
    t->pen_known = 0;
    set_pen(&e, &blank_cell);
    put(&e, "\x1b[H\x1b[2J", 7);
    t->x = t->y = 0;
    spans_t sp;
    sp.e = &e;
    sp.n = sp.npens = 0;
    sp.fr = NULL;
    for (int y = 0; y < next->h; y++)
        gather_row(&sp, NULL, &next->cells[y * next->w], y);
    flush_spans(&sp);
    return e.failed ? -1 : 0;
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

/* Gathers row y's spans if it differs from what the terminal shows there
 * (a, NULL: blank); returns whether it does. */
static int encode_row(spans_t *sp, const cell_t *a, const cell_t *b, int y)
{
    int w = sp->e->w;
    if (!a) {
        int differs = first_ink(b, w) < w;
        if (differs)
            gather_row(sp, a, b, y);
        return differs;
    }
    /* From the right: where the row's changes end is what gather_row
     * needs first (docs/performance.md, "The encoder's spans, fewer
     * scans"). */
    int last = last_changed(a, b, w);
    if (last >= 0 && !gather_inked_end(sp, a, b, y, last))
        gather_row(sp, a, b, y);
    return last >= 0;
}

/* Encodes every row that differs; records which in fr (may be NULL).
 * rows (may be NULL): rows[y] 0 says row y is the same in both, as does a
 * row shown->keep did not keep; either still holds outside a shift's
 * block. */
static void encode_rows(enc_t *e, const shown_t *shown, const screen_t *next,
                        const shift_t *sh, const uint8_t *rows,
                        frame_rows_t *fr)
{
    spans_t sp;
    sp.e = e;
    sp.n = sp.npens = 0;
    sp.fr = fr;
    uint8_t *changed = fr ? fr->changed : NULL;
    if (!rows && !sh && shown->keep) {
        /* Only the kept rows may differ: straight from one to the next
         * by the keep's bits (most of a frame's rows were not touched). */
        if (changed)
            memset(changed, 0, (size_t)next->h);
        for (int wi = 0; wi * 64 < next->h; wi++) {
            for (uint64_t m = shown->keep->rows[wi]; m; m &= m - 1) {
                int y = wi * 64 + __builtin_ctzll(m);
                int d = encode_row(&sp, row_of(shown->cells, y),
                                   row_of(next, y), y);
                if (changed)
                    changed[y] = (uint8_t)d;
            }
        }
        flush_spans(&sp);
        return;
    }
    for (int y = 0; y < next->h; y++) {
        /* Told the row is the same (rows), or not kept (shown->keep). */
        int same = ((rows && !rows[y]) ||
                    (shown->keep && !screen_kept(shown->keep, y))) &&
                   (!sh || y < sh->top || y > sh->bot);
        if (same) {
            if (changed)
                changed[y] = 0;
            continue;
        }
        int d = encode_row(&sp, old_row(shown, sh, y), row_of(next, y), y);
        if (changed)
            changed[y] = (uint8_t)d;
    }
    flush_spans(&sp);
}

/* Keeps the shorter of two encodings of one frame, both in out: the bytes
 * from start to mid (with the terminal state *kept) and from mid to the end
 * (the state now in *t); alt_failed: the second ran out of room. */
static void keep_shorter(buf_t *out, size_t start, size_t mid,
                         term_state_t *t, const term_state_t *kept,
                         int alt_failed)
{
    size_t alt = out->len - mid;
    if (!alt_failed && alt < mid - start) {
        memmove(out->data + start, out->data + mid, alt);
        out->len = start + alt;
    } else {
        out->len = mid;
        *t = *kept;
    }
}


static int diff(const shown_t *shown, const screen_t *next,
                const uint8_t *rows, const screen_scroll_t *scroll,
                term_state_t *t, buf_t *out)
{
    if (shown->cells->w != next->w || shown->cells->h != next->h)
        return screen_paint(next, t, out);
    enc_t e = { out, t, next->w, 0 };
    size_t start = out->len;
    term_state_t before = *t;
    frame_rows_t fr;
    int top = scroll ? scroll->top : 0;
    int bot = scroll ? scroll->bot : next->h - 1;
    if (top < 0)
        top = 0;
    if (bot > next->h - 1)
        bot = next->h - 1;
    int may_shift = next->h <= SHIFT_MAX_ROWS && top < bot;
    encode_rows(&e, shown, next, NULL, rows, may_shift ? &fr : NULL);
    shift_t sh;
    if (!e.failed && may_shift && out->len - start >= SHIFT_MIN_BYTES &&
        screen_find_shift(shown, next, &fr, top, bot, &sh)) {
        /* Try the scroll after the plain diff; keep the shorter. */
        size_t plain_end = out->len;
        term_state_t plain = *t;
        *t = before;
        enc_t e2 = { out, t, next->w, 0 };
        emit_shift(&e2, next, &sh);
        encode_rows(&e2, shown, next, &sh, rows, NULL);
        keep_shorter(out, start, plain_end, t, &plain, e2.failed);
    }
    size_t len = out->len - start;
    if (!e.failed && len > (size_t)(next->w * next->h / SCREEN_PAINT_TRY_DIVISOR) &&
        screen_paint_floor(next, t->utf8, t->colours, len) < len) {
        size_t diff_end = out->len;
        term_state_t diffed = *t;
        *t = before;
        int failed = screen_paint(next, t, out) != 0;
        keep_shorter(out, start, diff_end, t, &diffed, failed);
    }
    return e.failed ? -1 : 0;
}

int screen_diff(const screen_t *shown, const screen_t *next, term_state_t *t,
                buf_t *out)
{
    shown_t a = { shown, NULL, next };
    return diff(&a, next, NULL, NULL, t, out);
}

int screen_diff_rows(const screen_t *shown, const screen_t *next,
                     const uint8_t *rows, const screen_scroll_t *scroll,
                     term_state_t *t, buf_t *out)
{
    shown_t a = { shown, NULL, next };
    return diff(&a, next, rows, scroll, t, out);
}

int screen_diff_kept(const screen_keep_t *keep, const screen_t *next,
                     const screen_scroll_t *scroll, term_state_t *t,
                     buf_t *out)
{
    /* Only the kept rows may differ (encode_rows compares only those). */
    shown_t a = { keep->old, keep, next };
    return diff(&a, next, NULL, scroll, t, out);
}
