/* test_options.c - the options screen's state machine and the display
 * choice it makes (server/session/options.h): the number kept for an account, the
 * display it gives over what was detected, the keys and the drawing. */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "keys.h"
#include "options.h"

START_TEST(test_choice_numbers)
{
    ck_assert_int_eq(display_choice(CHOICE_AUTO, CHOICE_AUTO), 0);
    ck_assert_int_eq(display_choice(CHOICE_UTF8, CHOICE_256), 2 | 2 << 2);
    ck_assert_int_eq(display_choice_glyphs(10), CHOICE_UTF8);
    ck_assert_int_eq(display_choice_colours(10), CHOICE_256);
    /* read back from the store: only what we write is taken */
    for (int v = 0; v < 16; v++) {
        int want = (v & 3) == 3 ? v & 12 : v;
        ck_assert_int_eq(display_choice_clean(v), want);
    }
    ck_assert_int_eq(display_choice_clean(16), 0);
    ck_assert_int_eq(display_choice_clean(-1), 0);
    ck_assert_int_eq(display_choice_clean(1LL << 40), 0);
}
END_TEST

START_TEST(test_chosen_over_detected)
{
    display_t utf_true = { GLYPHS_UTF8, COLOURS_TRUE };
    display_t d = display_chosen(DISPLAY_PLAIN, 0);
    ck_assert(d.glyphs == GLYPHS_ASCII && d.colours == COLOURS_16);
    d = display_chosen(utf_true, 0);
    ck_assert(d.glyphs == GLYPHS_UTF8 && d.colours == COLOURS_TRUE);
    d = display_chosen(utf_true, display_choice(CHOICE_ASCII, CHOICE_AUTO));
    ck_assert(d.glyphs == GLYPHS_ASCII && d.colours == COLOURS_TRUE);
    d = display_chosen(DISPLAY_PLAIN, display_choice(CHOICE_UTF8, CHOICE_256));
    ck_assert(d.glyphs == GLYPHS_UTF8 && d.colours == COLOURS_256);
    d = display_chosen(utf_true, display_choice(CHOICE_AUTO, CHOICE_16));
    ck_assert(d.glyphs == GLYPHS_UTF8 && d.colours == COLOURS_16);
    char b[48];
    ck_assert_str_eq(display_describe(utf_true, b, sizeof b), "UTF-8, truecolor");
    ck_assert_str_eq(display_describe(DISPLAY_PLAIN, b, sizeof b),
                     "ASCII, 16 colours");
}
END_TEST

START_TEST(test_keys)
{
    options_t o;
    options_open(&o, 0);
    ck_assert(o.open);
    ck_assert_int_eq(o.row, 0);
    /* glyphs: Auto -> ASCII -> UTF-8 -> Auto; Left goes back */
    ck_assert_int_eq(options_key(&o, KEY_RIGHT), OPTIONS_CHANGED);
    ck_assert_int_eq(display_choice_glyphs(o.choice), CHOICE_ASCII);
    ck_assert_int_eq(options_key(&o, ' '), OPTIONS_CHANGED);
    ck_assert_int_eq(display_choice_glyphs(o.choice), CHOICE_UTF8);
    ck_assert_int_eq(options_key(&o, 'l'), OPTIONS_CHANGED);
    ck_assert_int_eq(display_choice_glyphs(o.choice), CHOICE_AUTO);
    ck_assert_int_eq(options_key(&o, KEY_LEFT), OPTIONS_CHANGED);
    ck_assert_int_eq(display_choice_glyphs(o.choice), CHOICE_UTF8);
    /* colours: the other line; Auto -> 16 -> 256 -> truecolor -> Auto */
    ck_assert_int_eq(options_key(&o, KEY_DOWN), OPTIONS_NOTHING);
    ck_assert_int_eq(o.row, 1);
    ck_assert_int_eq(options_key(&o, 'h'), OPTIONS_CHANGED);
    ck_assert_int_eq(display_choice_colours(o.choice), CHOICE_TRUE);
    ck_assert_int_eq(options_key(&o, 'h'), OPTIONS_CHANGED);
    ck_assert_int_eq(display_choice_colours(o.choice), CHOICE_256);
    ck_assert_int_eq(display_choice_glyphs(o.choice), CHOICE_UTF8);
    ck_assert_int_eq(options_key(&o, 'x'), OPTIONS_NOTHING);
    ck_assert_int_eq(options_key(&o, 'k'), OPTIONS_NOTHING);
    ck_assert_int_eq(o.row, 0);
    ck_assert_int_eq(options_key(&o, KEY_ESC), OPTIONS_CLOSED);
    ck_assert(!o.open);
    ck_assert_int_eq(o.choice, display_choice(CHOICE_UTF8, CHOICE_256));
    /* the numpad's digits, as a phone's key bar sends its arrows: 2 and
     * 8 a line, 6 and 4 a change */
    options_open(&o, 0);
    ck_assert_int_eq(options_key(&o, '2'), OPTIONS_NOTHING);
    ck_assert_int_eq(o.row, 1);
    ck_assert_int_eq(options_key(&o, '6'), OPTIONS_CHANGED);
    ck_assert_int_eq(display_choice_colours(o.choice), CHOICE_16);
    ck_assert_int_eq(options_key(&o, '4'), OPTIONS_CHANGED);
    ck_assert_int_eq(display_choice_colours(o.choice), CHOICE_AUTO);
    ck_assert_int_eq(options_key(&o, '8'), OPTIONS_NOTHING);
    ck_assert_int_eq(o.row, 0);
    static const int closers[] = { KEY_ENTER, 'q', 'Q', 'O', 'o', KEY_CTRL_C };
    for (size_t i = 0; i < sizeof closers / sizeof closers[0]; i++) {
        options_open(&o, 7);
        ck_assert_int_eq(o.choice, 7 & 12); /* glyphs 3 is no choice */
        ck_assert_int_eq(options_key(&o, closers[i]), OPTIONS_CLOSED);
    }
}
END_TEST

/* The row of s at y as ASCII ('?' for others), trailing blanks cut. */
static void row_text(const screen_t *s, int y, char *out)
{
    int n = 0;
    for (int x = 0; x < s->w; x++) {
        uint32_t ch = screen_cat(s, x, y)->ch;
        out[n++] = ch < 128 ? (char)ch : '?';
    }
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
}

static int screen_has(const screen_t *s, const char *text)
{
    char row[512];
    for (int y = 0; y < s->h; y++) {
        row_text(s, y, row);
        if (strstr(row, text))
            return 1;
    }
    return 0;
}

START_TEST(test_draw)
{
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 80, 24), 0);
    options_t o;
    options_open(&o, display_choice(CHOICE_UTF8, CHOICE_AUTO));
    options_info_t in = { { GLYPHS_ASCII, COLOURS_256 }, "XTERM-256COLOR", 0 };
    options_draw(&o, &in, &s);
    ck_assert(screen_has(&s, "Options"));
    ck_assert(screen_has(&s, "Your terminal says: ASCII, 256 colours "
                             "(XTERM-256COLOR)"));
    ck_assert(screen_has(&s, "Drawn with: UTF-8, 256 colours"));
    ck_assert(screen_has(&s, "a guest's choice lasts") ||
              screen_has(&s, "A guest's choice lasts"));
    /* the sample is drawn with the glyphs in use: a box-drawing corner */
    int corner = 0;
    for (int i = 0; i < 80 * 24; i++)
        corner |= s.cells[i].ch == 0x250c;
    ck_assert(corner);
    in.account = 1;
    options_key(&o, KEY_RIGHT); /* UTF-8 -> Auto: ASCII as detected */
    options_draw(&o, &in, &s);
    ck_assert(screen_has(&s, "Drawn with: ASCII, 256 colours"));
    ck_assert(screen_has(&s, "Your account keeps this choice."));
    for (int i = 0; i < 80 * 24; i++)
        ck_assert_uint_lt(s.cells[i].ch, 128);
    /* too small: the usual request to enlarge */
    ck_assert_int_eq(screen_resize(&s, 40, 10), 0);
    options_draw(&o, &in, &s);
    ck_assert(!screen_has(&s, "Options"));
    screen_free(&s);
}
END_TEST

/* At 40x20 the notes under the choices are wrapped at spaces, the
 * keys in fewer words at the bottom; nothing is cut at the edge, even
 * with a choice that could not be kept. */
START_TEST(test_draw_40x20)
{
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 40, 20), 0);
    options_t o;
    options_open(&o, display_choice(CHOICE_UTF8, CHOICE_AUTO));
    o.not_kept = 1;
    options_info_t in = { { GLYPHS_ASCII, COLOURS_256 }, "XTERM-256COLOR", 0 };
    options_draw(&o, &in, &s);
    static const char *const want[] = {
        "    Options: how the screen is drawn",
        "",
        "",
        "    > Glyphs    Auto  ASCII  UTF-8",
        "",
        "      Colours   Auto  16  256  truecolor",
        "",
        "    Your terminal says: ASCII, 256",
        "    colours (XTERM-256COLOR)",
        "    Drawn with: UTF-8, 256 colours",
        NULL, /* the sample, in UTF-8 */
        "    A guest's choice lasts this",
        "    connection; an account keeps it.",
        "    Your choice could not be kept now:",
        "    it holds until you leave.",
        "",
        "    k/j Up/Down: line. h/l Left/Right:",
        "    change. Esc: back.",
    };
    char row[512];
    for (int i = 0; i < 18; i++) {
        if (!want[i])
            continue;
        row_text(&s, 2 + i, row);
        ck_assert_str_eq(row, want[i]);
    }
    screen_free(&s);
}
END_TEST

/* At 76x24, below 80 columns but with room for the keys' whole sentence
 * (70 columns from column 4): the notes one under the other from row 9,
 * each on one row, and the keys in full on the row above the last. */
START_TEST(test_draw_76x24)
{
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 76, 24), 0);
    options_t o;
    options_open(&o, display_choice(CHOICE_AUTO, CHOICE_TRUE));
    o.row = 1;
    o.not_kept = 1;
    options_info_t in = { { GLYPHS_ASCII, COLOURS_256 }, "XTERM-256COLOR", 0 };
    options_draw(&o, &in, &s);
    static const char *const want[24] = {
        [2] = "    Options: how the screen is drawn",
        [5] = "      Glyphs    Auto  ASCII  UTF-8",
        [7] = "    > Colours   Auto  16  256  truecolor",
        [9] = "    Your terminal says: ASCII, 256 colours (XTERM-256COLOR)",
        [10] = "    Drawn with: ASCII, truecolor",
        [11] = "    Sample: ###### ..@. #",
        [12] = "    A guest's choice lasts this connection; an account keeps it.",
        [13] = "    Your choice could not be kept now: it holds until you leave.",
        [22] = "    k/j Up/Down: a line.  h/l Left/Right, Space: change.  "
               "Enter/Esc: back.",
    };
    char row[512];
    for (int y = 0; y < 24; y++) {
        row_text(&s, y, row);
        ck_assert_msg(strcmp(row, want[y] ? want[y] : "") == 0,
                      "row %d: \"%s\"", y, row);
    }
    screen_free(&s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("options");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_choice_numbers);
    tcase_add_test(tc, test_chosen_over_detected);
    tcase_add_test(tc, test_keys);
    tcase_add_test(tc, test_draw);
    tcase_add_test(tc, test_draw_40x20);
    tcase_add_test(tc, test_draw_76x24);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
