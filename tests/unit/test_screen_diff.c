/* test_screen_diff.c - the ANSI encoder, checked through a real terminal
 * emulator: for random pairs of grids A and B, feeding libvterm A's full
 * paint and then the diff A->B must leave exactly B on its screen (glyph,
 * colours, bold, underline, reverse in every cell), at every colour depth
 * (palette.h's colours as 256-colour indices, RGB or their 16-colour
 * fallbacks); and the exact bytes of each depth's colours. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <vterm.h>

#include "check_main.h"
#include "palette.h"
#include "rng.h"
#include "screen.h"
#include "screen_diff.h"
#include "screen_floor.h"
#include "screen_shift.h"

typedef struct term {
    VTerm *vt;
    VTermScreen *vs;
} term_t;

static void term_open(term_t *t, int w, int h, int utf8)
{
    t->vt = vterm_new(h, w);
    vterm_set_utf8(t->vt, utf8);
    t->vs = vterm_obtain_screen(t->vt);
    vterm_screen_reset(t->vs, 1);
}

static void term_close(term_t *t)
{
    vterm_free(t->vt);
}

static void term_feed(term_t *t, const buf_t *b)
{
    if (b->len)
        vterm_input_write(t->vt, b->data, b->len);
}

/* A terminal's colour as one number: TC_DEFAULT, TC_INDEX | index, or
 * TC_RGB | 0xRRGGBB. */
#define TC_DEFAULT 0x1000000u
#define TC_INDEX 0x2000000u
#define TC_RGB 0x4000000u

static uint32_t vt_colour(const VTermColor *c, int fg)
{
    if (fg ? VTERM_COLOR_IS_DEFAULT_FG(c) : VTERM_COLOR_IS_DEFAULT_BG(c))
        return TC_DEFAULT;
    if (VTERM_COLOR_IS_INDEXED(c))
        return TC_INDEX | c->indexed.idx;
    ck_assert(VTERM_COLOR_IS_RGB(c));
    return TC_RGB | (uint32_t)c->rgb.red << 16 | (uint32_t)c->rgb.green << 8 |
           c->rgb.blue;
}

/* What a terminal at depth `colours` shows for cell colour col, by the
 * rules of palette.h: the ANSI 16 as themselves, the others as their
 * xterm index, their RGB, or their fallback. */
static uint32_t want_colour(uint8_t col, int colours)
{
    const palette_colour_t *p = palette_colour(col);
    if (col == COL_DEFAULT)
        return TC_DEFAULT;
    if (!p)
        return TC_INDEX | col;
    if (colours == COLOURS_256)
        return TC_INDEX | p->xterm;
    if (colours == COLOURS_TRUE && p->on_cube)
        return TC_INDEX | p->xterm; /* the same tone, by index */
    if (colours == COLOURS_TRUE)
        return TC_RGB | (uint32_t)p->r << 16 | (uint32_t)p->g << 8 | p->b;
    return TC_INDEX | p->fallback;
}

/* A cell as a terminal shows it. */
typedef struct tcell {
    uint32_t ch, fg, bg;
    uint8_t attr;
} tcell_t;

/* The terminal's cell (x, y). */
static tcell_t term_cell(const term_t *t, int x, int y)
{
    VTermScreenCell vc;
    VTermPos pos = { .row = y, .col = x };
    vterm_screen_get_cell(t->vs, pos, &vc);
    tcell_t c = { vc.chars[0] ? vc.chars[0] : ' ', vt_colour(&vc.fg, 1),
                  vt_colour(&vc.bg, 0), 0 };
    c.attr = (uint8_t)((vc.attrs.bold ? ATTR_BOLD : 0) |
                       (vc.attrs.underline ? ATTR_UNDERLINE : 0) |
                       (vc.attrs.reverse ? ATTR_REVERSE : 0));
    return c;
}

/* The terminal shows exactly s (non-UTF-8 clients see '?' for what they
 * cannot show; colours as the depth shows them). */
static void assert_shows_in(const term_t *t, const screen_t *s, int utf8,
                            int colours)
{
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++) {
            cell_t c = *screen_cat(s, x, y);
            tcell_t want = { c.ch, want_colour(c.fg, colours),
                             want_colour(c.bg, colours), c.attr };
            tcell_t got = term_cell(t, x, y);
            if (!utf8 && want.ch >= 0x80)
                want.ch = '?';
            if (want.ch != got.ch || want.fg != got.fg || want.bg != got.bg ||
                want.attr != got.attr)
                ck_abort_msg("cell (%d,%d): want U+%04X fg %x bg %x attr %d, "
                             "got U+%04X fg %x bg %x attr %d", x, y,
                             (unsigned)want.ch, want.fg, want.bg, want.attr,
                             (unsigned)got.ch, got.fg, got.bg, got.attr);
        }
}

static void assert_shows(const term_t *t, const screen_t *s, int utf8)
{
    assert_shows_in(t, s, utf8, COLOURS_16);
}

/* No byte the encoder writes is a control byte other than ESC: no bare LF,
 * no CR, no BEL; cursor movement is CSI only. */
static void assert_clean(const buf_t *b)
{
    for (size_t i = 0; i < b->len; i++) {
        unsigned char c = (unsigned char)b->data[i];
        if ((c < 0x20 && c != 0x1b) || c == 0x7f)
            ck_abort_msg("control byte %02x at %zu", c, i);
    }
}

/* The buffer's bytes as a C string (a NUL after them, not counted). */
static const char *as_string(buf_t *b)
{
    ck_assert_int_eq(buf_append(b, "", 1), 0);
    b->len--;
    return b->data;
}

static const uint32_t glyphs[] = { ' ', ' ', ' ', ' ', '.', '#', '@', 'g',
                                   'T', '%', '$', '!', '?', 0xe9, 0x2588 };
static const uint8_t pens[] = { COL_DEFAULT, COL_DEFAULT, COL_WHITE,
                                COL_GREY, COL_RED, COL_BGREEN, COL_BYELLOW,
                                COL_BLUE, COL_BWHITE, COL_BLACK,
                                COL_MEM_FLOOR, COL_MEM_WALL, COL_LIT_FLOOR0,
                                COL_LIT_FLOOR4, COL_LIT_WALL2,
                                COL_TARGET_GROUND };

static cell_t random_cell(rng_t *r, int plain)
{
    cell_t c = { ' ', COL_DEFAULT, COL_DEFAULT, 0, 0 };
    if (rng_chance(r, 30))
        return c; /* many blanks, as on a real screen */
    c.ch = glyphs[rng_range(r, 0, (int)(sizeof glyphs / sizeof glyphs[0]) - 1)];
    c.fg = pens[rng_range(r, 0, (int)sizeof pens - 1)];
    if (!plain) {
        c.bg = rng_chance(r, 80) ? COL_DEFAULT
                                 : pens[rng_range(r, 0, (int)sizeof pens - 1)];
        c.attr = (uint8_t)rng_range(r, 0, 7);
    }
    return c;
}

static void random_screen(screen_t *s, rng_t *r, int plain)
{
    for (int i = 0; i < s->w * s->h; i++)
        s->cells[i] = random_cell(r, plain);
}

/* B from A: a few random cells, a few short runs, sometimes a cleared row
 * tail (what a shorter log line does). */
static void mutate(screen_t *b, const screen_t *a, rng_t *r)
{
    screen_copy(b, a);
    int n = rng_range(r, 0, 40);
    for (int i = 0; i < n; i++) {
        int x = rng_range(r, 0, b->w - 1), y = rng_range(r, 0, b->h - 1);
        int run = rng_chance(r, 20) ? rng_range(r, 1, 12) : 1;
        for (int k = 0; k < run && x + k < b->w; k++)
            *screen_at(b, x + k, y) = random_cell(r, 0);
    }
    if (rng_chance(r, 50)) {
        int y = rng_range(r, 0, b->h - 1);
        for (int x = rng_range(r, 0, b->w - 1); x < b->w; x++)
            screen_put(b, x, y, ' ', COL_DEFAULT, COL_DEFAULT, 0);
    }
}

/* The encoder's state for a client of that display, its terminal
 * unknown (as after a connect). */
static void term_state_for(term_state_t *ts, int utf8, int colours)
{
    memset(ts, 0, sizeof *ts);
    display_t d = { utf8 ? GLYPHS_UTF8 : GLYPHS_ASCII, (uint8_t)colours };
    term_state_set_display(ts, &d);
    term_state_reset(ts);
}

/* Paints a, diffs to b, checks the terminal, for one pair, at a colour
 * depth. */
static void check_pair_in(const screen_t *a, const screen_t *b, int utf8,
                          int colours)
{
    term_t t;
    term_open(&t, a->w, a->h, utf8);
    term_state_t ts;
    term_state_for(&ts, utf8, colours);
    buf_t out;
    buf_init(&out, 0);
    ck_assert_int_eq(screen_paint(a, &ts, &out), 0);
    assert_clean(&out);
    term_feed(&t, &out);
    assert_shows_in(&t, a, utf8, colours);
    buf_reset(&out);
    ck_assert_int_eq(screen_diff(a, b, &ts, &out), 0);
    assert_clean(&out);
    term_feed(&t, &out);
    assert_shows_in(&t, b, utf8, colours);
    buf_free(&out);
    term_close(&t);
}

static void check_pair(const screen_t *a, const screen_t *b, int utf8)
{
    check_pair_in(a, b, utf8, COLOURS_16);
}

START_TEST(random_pairs_reach_b)
{
    rng_t r;
    rng_seed(&r, 31337);
    screen_t a, b;
    screen_init(&a, 80, 24);
    screen_init(&b, 80, 24);
    for (int i = 0; i < 300; i++) {
        int w = i % 3 == 0 ? rng_range(&r, 1, 130) : 80;
        int h = i % 3 == 0 ? rng_range(&r, 1, 50) : 24;
        screen_resize(&a, w, h);
        random_screen(&a, &r, i % 2);
        screen_resize(&b, w, h);
        if (i % 4 == 0)
            random_screen(&b, &r, 0); /* unrelated */
        else
            mutate(&b, &a, &r);       /* a few changes, as between turns */
        check_pair_in(&a, &b, i % 5 != 0, i % 3);
    }
    screen_free(&a);
    screen_free(&b);
}
END_TEST

START_TEST(chains_of_diffs_stay_in_step)
{
    /* The encoder's idea of cursor and pen carries from frame to frame:
     * a long chain must never drift from what the terminal shows, at any
     * colour depth (_i). */
    rng_t r;
    rng_seed(&r, 4);
    screen_t shown, next;
    screen_init(&shown, 80, 24);
    screen_init(&next, 80, 24);
    random_screen(&shown, &r, 0);
    term_t t;
    term_open(&t, 80, 24, 1);
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    display_t d = { GLYPHS_UTF8, (uint8_t)_i };
    term_state_set_display(&ts, &d);
    term_state_reset(&ts);
    buf_t out;
    buf_init(&out, 0);
    screen_paint(&shown, &ts, &out);
    term_feed(&t, &out);
    for (int i = 0; i < 200; i++) {
        mutate(&next, &shown, &r);
        buf_reset(&out);
        ck_assert_int_eq(screen_diff(&shown, &next, &ts, &out), 0);
        term_feed(&t, &out);
        screen_copy(&shown, &next);
    }
    assert_shows_in(&t, &shown, 1, _i);
    buf_free(&out);
    term_close(&t);
    screen_free(&shown);
    screen_free(&next);
}
END_TEST

START_TEST(equal_screens_send_nothing)
{
    rng_t r;
    rng_seed(&r, 8);
    screen_t a;
    screen_init(&a, 80, 24);
    random_screen(&a, &r, 0);
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    term_state_reset(&ts);
    buf_t out;
    buf_init(&out, 0);
    ck_assert_int_eq(screen_diff(&a, &a, &ts, &out), 0);
    ck_assert_uint_eq(out.len, 0);
    buf_free(&out);
    screen_free(&a);
}
END_TEST

START_TEST(one_cell_costs_a_move_and_a_glyph)
{
    /* Moving the @ one step: two cells change. Cursor and pen known from the
     * paint, so the bytes are two moves, at most two pen changes, two glyphs. */
    screen_t a, b;
    screen_init(&a, 80, 24);
    screen_put(&a, 10, 5, '@', COL_BWHITE, COL_DEFAULT, ATTR_BOLD);
    screen_init(&b, 80, 24);
    screen_put(&b, 11, 5, '@', COL_BWHITE, COL_DEFAULT, ATTR_BOLD);
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    term_state_reset(&ts);
    buf_t out;
    buf_init(&out, 0);
    screen_paint(&a, &ts, &out);
    buf_reset(&out);
    screen_diff(&a, &b, &ts, &out);
    /* The paint left the cursor just right of the old @, on the new cell,
     * with the @'s pen: '@' first, then ESC[2D back to the old cell, ESC[m
     * (the default pen) and a space to clear it. */
    ck_assert_str_eq(as_string(&out), "@\x1b[2D\x1b[m ");
    buf_free(&out);
    screen_free(&a);
    screen_free(&b);
}
END_TEST

/* B from A: a block of rows moved up by k (the message log scrolled), new
 * rows below it, sometimes a changed cell elsewhere. */
static void shift_block(screen_t *b, const screen_t *a, rng_t *r)
{
    screen_copy(b, a);
    int h = a->h, w = a->w;
    if (h < 3)
        return;
    int top = rng_range(r, 0, h - 3), bot = rng_range(r, top + 2, h - 1);
    int k = rng_range(r, 1, (bot - top + 1) / 2 > 0 ? (bot - top + 1) / 2 : 1);
    for (int y = top; y <= bot - k; y++)
        memcpy(screen_at(b, 0, y), screen_cat(a, 0, y + k), sizeof(cell_t) * (size_t)w);
    for (int y = bot - k + 1; y <= bot; y++)
        for (int x = 0; x < w; x++)
            *screen_at(b, x, y) = rng_chance(r, 50) ? random_cell(r, 0)
                                                    : *screen_cat(a, x, y);
    if (rng_chance(r, 50))
        *screen_at(b, rng_range(r, 0, w - 1), rng_range(r, 0, h - 1)) =
            random_cell(r, 0);
}

START_TEST(shifted_blocks_reach_b)
{
    /* Delete-line / insert-line scrolling must leave exactly B, whether the
     * block ends at the bottom or has rows below it, in one diff and in a
     * chain of diffs. */
    rng_t r;
    rng_seed(&r, 2024);
    screen_t a, b;
    screen_init(&a, 80, 24);
    screen_init(&b, 80, 24);
    for (int i = 0; i < 200; i++) {
        int w = i % 3 == 0 ? rng_range(&r, 1, 100) : 80;
        int h = i % 3 == 0 ? rng_range(&r, 1, 40) : 24;
        screen_resize(&a, w, h);
        random_screen(&a, &r, i % 2);
        screen_resize(&b, w, h);
        shift_block(&b, &a, &r);
        check_pair(&a, &b, 1);
    }
    term_t t;
    term_open(&t, 80, 24, 1);
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    ts.utf8 = 1;
    term_state_reset(&ts);
    buf_t out;
    buf_init(&out, 0);
    screen_resize(&a, 80, 24);
    screen_resize(&b, 80, 24);
    random_screen(&a, &r, 0);
    screen_paint(&a, &ts, &out);
    term_feed(&t, &out);
    for (int i = 0; i < 200; i++) {
        if (i % 2)
            shift_block(&b, &a, &r);
        else
            mutate(&b, &a, &r);
        buf_reset(&out);
        ck_assert_int_eq(screen_diff(&a, &b, &ts, &out), 0);
        assert_clean(&out);
        term_feed(&t, &out);
        screen_copy(&a, &b);
    }
    assert_shows(&t, &a, 1);
    buf_free(&out);
    term_close(&t);
    screen_free(&a);
    screen_free(&b);
}
END_TEST

START_TEST(log_scroll_uses_delete_line)
{
    /* A map row, two log lines and a status line; one new message: the
     * old newest line moves up a row. Delete-line and insert-line beat
     * writing the moved line again. */
    static const char *const lines[] = {
        "You hit the goblin for 3 damage. The goblin hits you for 2.",
        "The goblin dies, dropping 5 gold. (+15 XP) You feel stronger.",
        "You pick up 5 gold.",
    };
    screen_t a, b;
    screen_init(&a, 80, 24);
    screen_init(&b, 80, 24);
    screen_puts(&a, 0, 0, "#....@....#", COL_WHITE, COL_DEFAULT, 0);
    screen_copy(&b, &a);
    screen_puts(&a, 0, 21, lines[0], COL_BRED, COL_DEFAULT, 0);
    screen_puts(&a, 0, 22, lines[1], COL_BYELLOW, COL_DEFAULT, 0);
    screen_puts(&b, 0, 21, lines[1], COL_BYELLOW, COL_DEFAULT, 0);
    screen_puts(&b, 0, 22, lines[2], COL_BGREEN, COL_DEFAULT, 0);
    screen_puts(&a, 0, 23, "HP: 30/30  Turn:41", COL_WHITE, COL_DEFAULT, 0);
    screen_puts(&b, 0, 23, "HP: 30/30  Turn:42", COL_WHITE, COL_DEFAULT, 0);
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    term_state_reset(&ts);
    buf_t out;
    buf_init(&out, 0);
    screen_paint(&a, &ts, &out);
    buf_reset(&out);
    screen_diff(&a, &b, &ts, &out);
    ck_assert_ptr_nonnull(strstr(as_string(&out), "\x1b[M"));
    ck_assert_ptr_nonnull(strstr(as_string(&out), "\x1b[L"));
    ck_assert_uint_lt(out.len, strlen(lines[1]) + strlen(lines[2]));
    /* Told where the frame may scroll (the host's log rows), the same
     * bytes; told a region without the log, no scroll: the moved line is
     * written again, and the terminal still shows b. */
    size_t anywhere = out.len;
    char *was = strndup(as_string(&out), out.len);
    uint8_t rows[24];
    for (int y = 0; y < 24; y++)
        rows[y] = y >= 21;
    const screen_scroll_t in_log = { 21, 22 }, in_map = { 0, 20 };
    term_state_t t2;
    memset(&t2, 0, sizeof t2);
    term_state_reset(&t2);
    buf_reset(&out);
    screen_paint(&a, &t2, &out);
    term_t vt; /* what a terminal shows after the second diff */
    term_open(&vt, 80, 24, t2.utf8);
    term_feed(&vt, &out);
    term_state_t t3 = t2;
    buf_reset(&out);
    ck_assert_int_eq(screen_diff_rows(&a, &b, rows, &in_log, &t2, &out), 0);
    ck_assert_uint_eq(out.len, anywhere);
    ck_assert_int_eq(memcmp(out.data, was, anywhere), 0);
    buf_reset(&out);
    ck_assert_int_eq(screen_diff_rows(&a, &b, rows, &in_map, &t3, &out), 0);
    ck_assert_ptr_null(strstr(as_string(&out), "\x1b[M"));
    ck_assert_ptr_null(strstr(as_string(&out), "\x1b[L"));
    ck_assert_uint_gt(out.len, anywhere);
    term_feed(&vt, &out);
    assert_shows_in(&vt, &b, t3.utf8, t3.colours);
    term_close(&vt);
    free(was);
    buf_free(&out);
    check_pair(&a, &b, 1);
    screen_free(&a);
    screen_free(&b);
}
END_TEST

START_TEST(row_tail_cleared_with_el)
{
    screen_t a, b;
    screen_init(&a, 80, 24);
    screen_puts(&a, 0, 22, "You hit the orc for 4 damage! The orc dies.", COL_WHITE,
                COL_DEFAULT, 0);
    screen_init(&b, 80, 24);
    screen_puts(&b, 0, 22, "You hit", COL_WHITE, COL_DEFAULT, 0);
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    term_state_reset(&ts);
    buf_t out;
    buf_init(&out, 0);
    screen_paint(&a, &ts, &out);
    buf_reset(&out);
    screen_diff(&a, &b, &ts, &out);
    ck_assert_ptr_nonnull(strstr(as_string(&out), "\x1b[K"));
    ck_assert_uint_lt(out.len, 20);
    buf_free(&out);
    check_pair(&a, &b, 1);
    screen_free(&a);
    screen_free(&b);
}
END_TEST

START_TEST(diff_far_smaller_than_paint)
{
    rng_t r;
    rng_seed(&r, 12);
    screen_t a, b;
    screen_init(&a, 80, 24);
    screen_init(&b, 80, 24);
    random_screen(&a, &r, 1);
    screen_copy(&b, &a);
    screen_put(&b, 40, 10, '@', COL_BWHITE, COL_DEFAULT, ATTR_BOLD);
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    term_state_reset(&ts);
    buf_t full, diff;
    buf_init(&full, 0);
    buf_init(&diff, 0);
    screen_paint(&b, &ts, &full);
    screen_diff(&a, &b, &ts, &diff);
    ck_assert_uint_gt(diff.len, 0);
    ck_assert_uint_lt(diff.len * 50, full.len);
    buf_free(&full);
    buf_free(&diff);
    screen_free(&a);
    screen_free(&b);
}
END_TEST

/* A screen whose cells are non-blank with probability pct percent. */
static void sparse_screen(screen_t *s, rng_t *r, int pct)
{
    for (int i = 0; i < s->w * s->h; i++) {
        cell_t c = random_cell(r, 0);
        s->cells[i] = rng_chance(r, pct) ? c : cell_make(' ', COL_DEFAULT,
                                                         COL_DEFAULT, 0);
    }
}

/* Two blank 80x24 screens. */
static void two_screens(screen_t *a, screen_t *b)
{
    screen_init(a, 80, 24);
    screen_init(b, 80, 24);
}

/* A terminal state with nothing known, for display d. */
static term_state_t fresh_term(display_t d)
{
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    term_state_set_display(&ts, &d);
    term_state_reset(&ts);
    return ts;
}

/* screen_puts writes each byte of the string as a cell of its pattern
 * where the row has the cell, and nothing else: every length from none to
 * past the row, from left of the row to past its end, with bytes above
 * 127 (its 16-at-a-time path, screen.c, and the byte loop of the _nosse2
 * build give the same cells). */
START_TEST(puts_writes_each_byte_in_the_row)
{
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 37, 3), 0);
    const cell_t mark = cell_make('~', COL_RED, COL_BLUE, ATTR_BOLD);
    char str[64];
    for (int len = 0; len < 60; len++) {
        for (int i = 0; i < len; i++)
            str[i] = (char)(i % 3 == 2 ? 0xb7 - i : 'A' + (i * 7) % 26);
        str[len] = 0;
        for (int x = -20; x <= 40; x += 3) {
            for (int c = 0; c < 37; c++)
                *screen_at(&s, c, 1) = mark;
            ck_assert_int_eq(screen_puts(&s, x, 1, str, COL_BCYAN, COL_GREEN,
                                         ATTR_UNDERLINE), len);
            for (int c = 0; c < 37; c++) {
                int i = c - x;
                cell_t want = i >= 0 && i < len
                                  ? cell_make((unsigned char)str[i], COL_BCYAN,
                                              COL_GREEN, ATTR_UNDERLINE)
                                  : mark;
                ck_assert_msg(memcmp(screen_cat(&s, c, 1), &want,
                                     sizeof want) == 0,
                              "len %d at %d: cell %d", len, x, c);
            }
        }
    }
    screen_free(&s);
}
END_TEST

START_TEST(long_diff_never_longer_than_paint)
{
    /* A diff long enough to be tried as a repaint (more bytes than the
     * cells over SCREEN_PAINT_TRY_DIVISOR) is never longer than the repaint from the same
     * terminal state: the encoder skips the trial only when it cannot win
     * (screen_floor.c, screen_paint_floor). Sparse and dense screens,
     * unrelated or mostly alike, at every depth, ASCII and UTF-8; the
     * repaint must have won some of them for the check to mean anything. */
    rng_t r;
    rng_seed(&r, 77);
    screen_t a, b;
    two_screens(&a, &b);
    buf_t out;
    buf_init(&out, 0);
    int tried = 0, painted = 0;
    for (int i = 0; i < 600; i++) {
        static const int pct[] = { 1, 3, 6, 12, 25, 50, 90 };
        sparse_screen(&a, &r, pct[rng_range(&r, 0, 6)]);
        if (rng_chance(&r, 50))
            sparse_screen(&b, &r, pct[rng_range(&r, 0, 6)]);
        else
            mutate(&b, &a, &r);
        display_t d = { (uint8_t)(i % 2), (uint8_t)(i / 2 % 3) };
        term_state_t ts = fresh_term(d);
        buf_reset(&out);
        ck_assert_int_eq(screen_paint(&a, &ts, &out), 0);
        term_state_t before = ts;
        buf_reset(&out);
        ck_assert_int_eq(screen_diff(&a, &b, &ts, &out), 0);
        size_t diff_len = out.len;
        ts = before;
        buf_reset(&out);
        ck_assert_int_eq(screen_paint(&b, &ts, &out), 0);
        if (diff_len > (size_t)(a.w * a.h / SCREEN_PAINT_TRY_DIVISOR)) {
            tried++;
            ck_assert_uint_le(diff_len, out.len);
            painted += diff_len == out.len;
        }
    }
    ck_assert_int_gt(tried, 100);
    ck_assert_int_gt(painted, 10);
    buf_free(&out);
    screen_free(&a);
    screen_free(&b);
}
END_TEST

START_TEST(size_change_paints_in_full)
{
    screen_t a, b;
    screen_init(&a, 80, 24);
    screen_init(&b, 120, 40);
    screen_puts(&b, 100, 39, "HP: 30/30", COL_BGREEN, COL_DEFAULT, ATTR_BOLD);
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    term_state_reset(&ts);
    buf_t out;
    buf_init(&out, 0);
    screen_diff(&a, &b, &ts, &out);
    ck_assert_ptr_nonnull(strstr(as_string(&out), "\x1b[2J"));
    buf_free(&out);
    screen_free(&a);
    screen_free(&b);
}
END_TEST

START_TEST(output_cap_fails_cleanly)
{
    rng_t r;
    rng_seed(&r, 1);
    screen_t a;
    screen_init(&a, 80, 24);
    random_screen(&a, &r, 0);
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    term_state_reset(&ts);
    buf_t out;
    buf_init(&out, 100);
    ck_assert_int_eq(screen_paint(&a, &ts, &out), -1);
    ck_assert_uint_le(out.len, 100);
    buf_free(&out);
    screen_free(&a);
}
END_TEST

/* The bytes of a paint of one cell 'x' at (0, 0) in fg/bg at a depth. */
static const char *paint_one(buf_t *out, uint8_t fg, uint8_t bg, int colours)
{
    screen_t a;
    screen_init(&a, 4, 2);
    screen_put(&a, 0, 0, 'x', fg, bg, 0);
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    display_t d = { GLYPHS_ASCII, (uint8_t)colours };
    term_state_set_display(&ts, &d);
    term_state_reset(&ts);
    buf_reset(out);
    ck_assert_int_eq(screen_paint(&a, &ts, out), 0);
    screen_free(&a);
    return as_string(out);
}

START_TEST(colours_by_depth_exact_bytes)
{
    /* The default pen, the clear, then the cell's pen and 'x': the ANSI
     * colours alike at every depth; the remembered floor as its fallback
     * (grey, 90), xterm index 60, or RGB 66,74,108; the aiming ground as a
     * background (blue 44, index 18, RGB 24,40,120). */
#define CLEAR "\x1b[m\x1b[H\x1b[2J"
    buf_t out;
    buf_init(&out, 0);
    for (int c = COLOURS_16; c <= COLOURS_TRUE; c++) {
        ck_assert_str_eq(paint_one(&out, COL_BRED, COL_DEFAULT, c),
                         CLEAR "\x1b[91mx");
        ck_assert_str_eq(paint_one(&out, COL_GREEN, COL_BLUE, c),
                         CLEAR "\x1b[32;44mx");
    }
    ck_assert_str_eq(paint_one(&out, COL_MEM_FLOOR, COL_DEFAULT, COLOURS_16),
                     CLEAR "\x1b[90mx");
    ck_assert_str_eq(paint_one(&out, COL_MEM_FLOOR, COL_DEFAULT, COLOURS_256),
                     CLEAR "\x1b[38;5;60mx");
    ck_assert_str_eq(paint_one(&out, COL_MEM_FLOOR, COL_DEFAULT, COLOURS_TRUE),
                     CLEAR "\x1b[38;2;66;74;108mx");
    ck_assert_str_eq(paint_one(&out, COL_WHITE, COL_TARGET_GROUND, COLOURS_16),
                     CLEAR "\x1b[37;44mx");
    ck_assert_str_eq(paint_one(&out, COL_WHITE, COL_TARGET_GROUND, COLOURS_256),
                     CLEAR "\x1b[37;48;5;18mx");
    ck_assert_str_eq(paint_one(&out, COL_LIT_WALL0, COL_TARGET_GROUND,
                               COLOURS_TRUE),
                     CLEAR "\x1b[38;5;230;48;2;24;40;120mx");
    /* A tone exactly xterm's for its index goes by index in truecolor too;
     * one a unit off goes as RGB. */
    ck_assert_str_eq(paint_one(&out, COL_LIT_FLOOR1, COL_DEFAULT, COLOURS_TRUE),
                     CLEAR "\x1b[38;5;144mx");
    ck_assert_str_eq(paint_one(&out, COL_LIT_WALL2, COL_DEFAULT, COLOURS_TRUE),
                     CLEAR "\x1b[38;2;182;174;144mx");
    buf_free(&out);
#undef CLEAR
}
END_TEST

/* 1 if (r, g, b) is xterm's standard colour for index i (16-255). */
static int xterm_is(int i, int r, int g, int b)
{
    static const int level[6] = { 0, 95, 135, 175, 215, 255 };
    if (i >= 232)
        return r == 8 + 10 * (i - 232) && g == r && b == r;
    i -= 16;
    return r == level[i / 36] && g == level[i / 6 % 6] && b == level[i % 6];
}

START_TEST(every_palette_colour_reaches_the_terminal)
{
    /* Each named colour, as foreground and as background, at each depth,
     * read back from libvterm: the xterm index, the RGB or the fallback
     * (want_colour); and the fallbacks are ANSI colours, the indices
     * beyond the 16 (so that a 256-colour client never gets them from its
     * own 16-colour settings). */
    screen_t a, b;
    screen_init(&a, COL_EXT_END, 2);
    screen_init(&b, COL_EXT_END, 2);
    for (int col = 0; col < COL_EXT_END; col++) {
        screen_put(&b, col, 0, '#', (uint8_t)col, COL_DEFAULT, 0);
        screen_put(&b, col, 1, ' ', COL_DEFAULT, (uint8_t)col, 0);
        const palette_colour_t *p = palette_colour((uint8_t)col);
        ck_assert(!p == (col <= COL_DEFAULT));
        if (p) {
            ck_assert_uint_lt(p->fallback, 16);
            ck_assert_uint_ge(p->xterm, 16);
            ck_assert_int_eq(p->on_cube, xterm_is(p->xterm, p->r, p->g, p->b));
        }
    }
    for (int c = COLOURS_16; c <= COLOURS_TRUE; c++)
        check_pair_in(&a, &b, 1, c);
    screen_free(&a);
    screen_free(&b);
}
END_TEST

START_TEST(display_sets_glyphs_and_depth)
{
    /* term_state_set_display sets UTF-8 and the depth; a reset keeps them;
     * a change of depth forgets the pen (its colour was sent in the other
     * depth's terms) and a change of glyphs alone does not. */
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    term_state_reset(&ts);
    display_t rich = { GLYPHS_UTF8, COLOURS_TRUE };
    term_state_set_display(&ts, &rich);
    ck_assert_int_eq(ts.utf8, 1);
    ck_assert_int_eq(ts.colours, COLOURS_TRUE);
    term_state_reset(&ts);
    ck_assert_int_eq(ts.utf8, 1);
    ck_assert_int_eq(ts.colours, COLOURS_TRUE);
    screen_t a;
    screen_init(&a, 4, 2);
    screen_put(&a, 0, 0, 'x', COL_MEM_WALL, COL_DEFAULT, 0);
    buf_t out;
    buf_init(&out, 0);
    screen_paint(&a, &ts, &out);
    ck_assert_int_eq(ts.pen_known, 1);
    display_t ascii_true = { GLYPHS_ASCII, COLOURS_TRUE };
    term_state_set_display(&ts, &ascii_true);
    ck_assert_int_eq(ts.utf8, 0);
    ck_assert_int_eq(ts.pen_known, 1);
    term_state_set_display(&ts, &DISPLAY_PLAIN);
    ck_assert_int_eq(ts.pen_known, 0);
    ck_assert_int_eq(ts.colours, COLOURS_16);
    ck_assert_int_eq(ts.utf8, 0);
    buf_free(&out);
    screen_free(&a);
}
END_TEST

/* The encoder writes a span straight into the output when it has room,
 * else through a buffer of its own (docs/performance.md, "The encoder's
 * spans, cheaper"): the same bytes either way. A fresh buffer has no room
 * for the first span (and a row of 80 three-byte glyphs is longer than the
 * encoder's stack buffer); one grown beforehand has room for all. */
START_TEST(spans_alike_with_or_without_room)
{
    rng_t r;
    rng_seed(&r, 4242);
    screen_t a, b;
    two_screens(&a, &b);
    for (int i = 0; i < 60; i++) {
        random_screen(&a, &r, i % 2);
        mutate(&b, &a, &r);
        if (i % 3 == 0) /* one long span: a whole row of one pen */
            for (int x = 0; x < b.w; x++)
                screen_put(&b, x, i % b.h, 0x2500u, COL_RED, COL_BLUE, 0);
        display_t d = { GLYPHS_UTF8, (uint8_t)(i % 3) };
        term_state_t t1 = fresh_term(d), t2 = t1;
        buf_t tight, roomy;
        buf_init(&tight, 0);
        buf_init(&roomy, 0);
        static char blob[1 << 16];
        ck_assert_int_eq(buf_append(&roomy, blob, sizeof blob), 0);
        buf_reset(&roomy);
        ck_assert_int_eq(screen_diff(&a, &b, &t1, &tight), 0);
        ck_assert_int_eq(screen_diff(&a, &b, &t2, &roomy), 0);
        ck_assert_uint_gt(tight.len, 0);
        ck_assert_uint_eq(tight.len, roomy.len);
        ck_assert(memcmp(tight.data, roomy.data, tight.len) == 0);
        ck_assert(memcmp(&t1, &t2, sizeof t1) == 0);
        buf_free(&tight);
        buf_free(&roomy);
    }
    screen_free(&a);
    screen_free(&b);
}
END_TEST

/* What the plain diff learns of each row (screen_diff.c's encode_rows),
 * worked out from the two screens: whether the row differs, whether the
 * next one has ink there, and its first and last differing columns. */
static void rows_learnt(const screen_t *a, const screen_t *b,
                        frame_rows_t *fr)
{
    memset(fr, 0, sizeof *fr);
    for (int y = 0; y < b->h; y++) {
        int first = -1, last = -1, ink = 0;
        for (int x = 0; x < b->w; x++) {
            const cell_t *na = screen_cat(a, x, y), *nb = screen_cat(b, x, y);
            if (cell_word(na) != cell_word(nb)) {
                first = first < 0 ? x : first;
                last = x;
            }
            ink |= !is_blank(nb);
        }
        fr->changed[y] = first >= 0;
        fr->inked[y] = (uint8_t)ink;
        fr->first[y] = (uint16_t)(first < 0 ? 0 : first);
        fr->last[y] = (uint16_t)(last < 0 ? 0 : last);
    }
}

START_TEST(scroll_tried_only_where_it_could_pay)
{
    /* Map rows look alike: after a step, a row of the map can equal the
     * row below it as it was, though only two of its cells changed.
     * Shifting it up would leave the row below blank, to be written again
     * whole: the search does not offer that block. A message log that
     * scrolled by a line still is. */
    screen_t a, b;
    screen_init(&a, 80, 24);
    screen_init(&b, 80, 24);
    const char *wall = "#################################################";
    const char *room = "#...............................................#";
    for (int y = 2; y <= 10; y++)
        screen_puts(&a, 0, y, y == 2 || y == 10 ? wall : room, COL_WHITE,
                    COL_DEFAULT, 0);
    screen_puts(&a, 5, 9, "..", COL_WHITE, COL_DEFAULT, 0);
    screen_puts(&a, 5, 8, "@!", COL_WHITE, COL_DEFAULT, 0);
    screen_copy(&b, &a);
    screen_puts(&b, 5, 8, "..", COL_WHITE, COL_DEFAULT, 0); /* = a's row 9 */
    shown_t shown = { &a, NULL, &b };
    frame_rows_t fr;
    shift_t sh;
    rows_learnt(&a, &b, &fr);
    ck_assert_int_eq(screen_find_shift(&shown, &b, &fr, 0, b.h - 1, &sh), 0);
    /* the log: three lines, one new at the bottom */
    static const char *const lines[] = {
        "You hit the goblin for 3 damage. The goblin hits you for 2.",
        "The goblin dies, dropping 5 gold. (+15 XP) You feel stronger.",
        "You pick up 5 gold.",
        "There is a wall in the way.",
    };
    for (int i = 0; i < 3; i++)
        screen_puts(&a, 0, 20 + i, lines[i], COL_BYELLOW, COL_DEFAULT, 0);
    screen_copy(&b, &a);
    char blank[81];
    memset(blank, ' ', 80);
    blank[80] = 0;
    for (int i = 0; i < 3; i++) {
        screen_puts(&b, 0, 20 + i, blank, COL_DEFAULT, COL_DEFAULT, 0);
        screen_puts(&b, 0, 20 + i, lines[i + 1], COL_BYELLOW, COL_DEFAULT, 0);
    }
    rows_learnt(&a, &b, &fr);
    ck_assert_int_eq(screen_find_shift(&shown, &b, &fr, 0, b.h - 1, &sh), 1);
    ck_assert_int_eq(sh.top, 20);
    ck_assert_int_eq(sh.k, 1);
    /* Asked in the log's rows alone, the same block; in the map's alone,
     * none (the block is not looked for outside the rows asked). */
    ck_assert_int_eq(screen_find_shift(&shown, &b, &fr, 20, 22, &sh), 1);
    ck_assert_int_eq(sh.top, 20);
    ck_assert_int_eq(sh.bot, 22);
    ck_assert_int_eq(screen_find_shift(&shown, &b, &fr, 0, 19, &sh), 0);
    ck_assert_int_eq(screen_find_shift(&shown, &b, &fr, 21, 22, &sh), 1);
    ck_assert_int_eq(sh.top, 21);
    screen_free(&a);
    screen_free(&b);
}
END_TEST

/* FNV-1a over bytes, carried on from h. */
static uint64_t fnv1a(uint64_t h, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)p[i]) * 0x100000001b3ull;
    return h;
}

/* The encoder's exact bytes, pinned: the other tests check what a terminal
 * shows and a few sequences byte for byte; this one catches any change in
 * the bytes chosen (the order of spans by pen, the cursor moves, the
 * scroll and repaint trials) that a rewrite for speed must not make
 * (docs/performance.md, "The encoder's spans, cheaper"). Chains of diffs
 * of every kind this file makes, at every depth, ASCII and UTF-8; the
 * values were printed by the encoder before that rewrite. */
START_TEST(encoder_bytes_pinned)
{
    rng_t r;
    rng_seed(&r, 2611);
    screen_t shown, next;
    two_screens(&shown, &next);
    buf_t out;
    buf_init(&out, 0);
    uint64_t h = 0xcbf29ce484222325ull;
    size_t total = 0;
    for (int depth = COLOURS_16; depth <= COLOURS_TRUE; depth++) {
        for (int utf8 = 0; utf8 < 2; utf8++) {
            display_t d = { utf8 ? GLYPHS_UTF8 : GLYPHS_ASCII, (uint8_t)depth };
            term_state_t ts = fresh_term(d);
            random_screen(&shown, &r, 0);
            buf_reset(&out);
            ck_assert_int_eq(screen_paint(&shown, &ts, &out), 0);
            for (int i = 0; i < 120; i++) {
                int kind = rng_range(&r, 0, 9);
                if (kind < 6)
                    mutate(&next, &shown, &r);
                else if (kind < 8)
                    shift_block(&next, &shown, &r);
                else
                    sparse_screen(&next, &r, rng_range(&r, 1, 60));
                ck_assert_int_eq(screen_diff(&shown, &next, &ts, &out), 0);
                screen_copy(&shown, &next);
            }
            h = fnv1a(h, out.data, out.len);
            total += out.len;
        }
    }
    if (h != 0x807f27d7a1d0494dull || total != 1416825)
        ck_abort_msg("encoder bytes: hash 0x%016llxull, %zu bytes",
                     (unsigned long long)h, total);
    buf_free(&out);
    screen_free(&shown);
    screen_free(&next);
}
END_TEST

START_TEST(paint_floor_pinned)
{
    /* The repaint floor (screen_floor.c) counted whole over random
     * screens, sparse to full, at every depth, ASCII and UTF-8: pinned to
     * the count main's scalar loop gave, so that the eight-cell steps (and
     * the nosse2 build's one-cell loop) count every glyph, run and pen
     * alike (docs/performance.md, "The encoder's spans, fewer scans"). */
    rng_t r;
    rng_seed(&r, 2711);
    screen_t s;
    screen_init(&s, 80, 24);
    size_t total = 0;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < 240; i++) {
        if (i % 4 == 0)
            random_screen(&s, &r, 0);
        else
            sparse_screen(&s, &r, rng_range(&r, 1, 90));
        size_t n = screen_paint_floor(&s, i % 2, i / 2 % 3, SIZE_MAX);
        total += n;
        h = fnv1a(h, (const char *)&n, sizeof n);
    }
    if (h != 0x36a5a2e1b039572eull || total != 353321)
        ck_abort_msg("paint floor: hash 0x%016llxull, %zu in all",
                     (unsigned long long)h, total);
    screen_free(&s);
}
END_TEST

/* Cells holding control characters (C0, DEL, C1) in runs long enough
 * for the span writer's four-at-a-time path: each is sent as '?', and no
 * control byte reaches the client, on every display. */
START_TEST(control_cells_sent_as_question_marks)
{
    static const uint32_t controls[] = { 0x7f, 0x1f, 0x01, 0x85, 0x9f, 0x0a };
    for (int utf8 = 0; utf8 <= 1; utf8++) {
        for (int colours = COLOURS_16; colours <= COLOURS_TRUE; colours++) {
            screen_t a, b;
            ck_assert_int_eq(screen_init(&a, 80, 4), 0);
            ck_assert_int_eq(screen_init(&b, 80, 4), 0);
            /* Rows 0-1: one control character among printable cells,
             * every fifth (a group of four with one in it; DEL in row 0,
             * 0x1f in row 1, the characters at the edges of the test);
             * rows 2-3: runs of one control character. */
            int bad = 0;
            for (int y = 0; y < 4; y++)
                for (int x = 4; x < 70; x++) {
                    int ctl = y < 2 ? (x + y) % 5 == 0 : (x / 8) % 2 == 0;
                    uint32_t ch = !ctl ? (uint32_t)('a' + x % 26)
                                  : y < 2 ? controls[y]
                                          : controls[(x / 8) % 6];
                    screen_put(&b, x, y, ch, COL_WHITE, COL_DEFAULT, 0);
                    bad += ctl;
                }
            term_state_t ts;
            term_state_for(&ts, utf8, colours);
            buf_t out;
            buf_init(&out, 0);
            ck_assert_int_eq(screen_diff(&a, &b, &ts, &out), 0);
            assert_clean(&out);
            int q = 0;
            for (size_t i = 0; i < out.len; i++)
                q += out.data[i] == '?';
            ck_assert_int_eq(q, bad);
            for (size_t i = 0; i + 1 < out.len; i++) /* no C1 as UTF-8 */
                ck_assert(!((unsigned char)out.data[i] == 0xc2 &&
                            (unsigned char)out.data[i + 1] < 0xa0));
            buf_free(&out);
            screen_free(&a);
            screen_free(&b);
        }
    }
}
END_TEST

/* Moves and changes past column and row 99 (and column 999): three-
 * and four-digit CUPs and relative moves, a diff (not a repaint) the
 * terminal follows to the next screen. */
START_TEST(moves_past_two_digits_reach_b)
{
    rng_t r;
    rng_seed(&r, 99);
    screen_t a, b;
    ck_assert_int_eq(screen_init(&a, 1100, 120), 0);
    ck_assert_int_eq(screen_init(&b, 1100, 120), 0);
    for (int i = 0; i < 400; i++) /* a sparse screen */
        *screen_at(&a, rng_range(&r, 0, 1099), rng_range(&r, 0, 119)) =
            random_cell(&r, 1);
    for (int round = 0; round < 20; round++) {
        ck_assert_int_eq(screen_copy(&b, &a), 0);
        for (int i = 0; i < 12; i++) {
            int x = rng_chance(&r, 50) ? rng_range(&r, 990, 1099)
                                       : rng_range(&r, 95, 140);
            int y = rng_chance(&r, 50) ? rng_range(&r, 97, 119)
                                       : rng_range(&r, 0, 119);
            screen_put(&b, x, y, 'A' + (uint32_t)i, COL_BGREEN, COL_DEFAULT, 0);
        }
        check_pair_in(&a, &b, round % 2, round % 3);
        ck_assert_int_eq(screen_copy(&a, &b), 0);
    }
    screen_free(&a);
    screen_free(&b);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("screen_diff");
    TCase *tc = tcase_create("libvterm");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_pairs_reach_b);
    tcase_add_loop_test(tc, chains_of_diffs_stay_in_step, COLOURS_16,
                        COLOURS_TRUE + 1);
    tcase_add_test(tc, colours_by_depth_exact_bytes);
    tcase_add_test(tc, every_palette_colour_reaches_the_terminal);
    tcase_add_test(tc, display_sets_glyphs_and_depth);
    tcase_add_test(tc, equal_screens_send_nothing);
    tcase_add_test(tc, one_cell_costs_a_move_and_a_glyph);
    tcase_add_test(tc, shifted_blocks_reach_b);
    tcase_add_test(tc, log_scroll_uses_delete_line);
    tcase_add_test(tc, scroll_tried_only_where_it_could_pay);
    tcase_add_test(tc, row_tail_cleared_with_el);
    tcase_add_test(tc, diff_far_smaller_than_paint);
    tcase_add_test(tc, long_diff_never_longer_than_paint);
    tcase_add_test(tc, puts_writes_each_byte_in_the_row);
    tcase_add_test(tc, size_change_paints_in_full);
    tcase_add_test(tc, output_cap_fails_cleanly);
    tcase_add_test(tc, spans_alike_with_or_without_room);
    tcase_add_test(tc, encoder_bytes_pinned);
    tcase_add_test(tc, paint_floor_pinned);
    tcase_add_test(tc, control_cells_sent_as_question_marks);
    tcase_add_test(tc, moves_past_two_digits_reach_b);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
