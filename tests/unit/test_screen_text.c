/* test_screen_text.c - the host's text drawn as UTF-8 (common/screen_text.h):
 * a cell a character, '?' for what is not one column or not UTF-8, and the
 * width counted as drawn; and where its rows and the game's
 * (game_text_wrap) agree and where they do not. */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "screen_text.h"
#include "world.h"

/* The characters of row 0 from column 0, n of them. */
static void expect_row(const screen_t *s, const uint32_t *want, int n)
{
    for (int x = 0; x < n; x++)
        ck_assert_msg(screen_cat(s, x, 0)->ch == want[x],
                      "column %d: U+%04X, not U+%04X", x,
                      (unsigned)screen_cat(s, x, 0)->ch, (unsigned)want[x]);
}

START_TEST(letters_a_cell_each)
{
    screen_t s;
    screen_init(&s, 20, 2);
    const char *text = "Caf\xc3\xa9 \xe2\x9c\x93 \xe2\x82\xac\xce\xa9";
    ck_assert_int_eq(screen_text_width(text), 9);
    ck_assert_int_eq(screen_puts_text(&s, 0, 0, text, COL_WHITE, COL_DEFAULT,
                                      0), 9);
    const uint32_t want[] = { 'C', 'a', 'f', 0xe9, ' ', 0x2713, ' ', 0x20ac,
                              0x3a9, ' ' };
    expect_row(&s, want, 10);
    ck_assert_int_eq(screen_cat(&s, 3, 0)->fg, COL_WHITE);
    screen_free(&s);
}
END_TEST

START_TEST(what_is_not_one_column_is_a_question_mark)
{
    screen_t s;
    screen_init(&s, 30, 2);
    /* wide (two CJK), a combining accent, an emoji, a control byte, a
     * stray continuation byte, an overlong '/', a surrogate, a 0xff, and a
     * sequence cut short at the end */
    const char *text = "\xe6\x97\xa5\xe6\x9c\xac" "e\xcc\x81" "\xf0\x9f\x98\x80"
                       "\x01" "\x80" "\xc0\xaf" "\xed\xa0\x80" "\xff" "a\xe2\x82";
    const uint32_t want[] = { '?', '?', 'e', '?', '?', '?', '?', '?', '?',
                              '?', '?', '?', '?', 'a', '?', '?', ' ' };
    int n = screen_puts_text(&s, 0, 0, text, COL_WHITE, COL_DEFAULT, 0);
    ck_assert_int_eq(n, 16);
    ck_assert_int_eq(screen_text_width(text), 16);
    expect_row(&s, want, 17);
    screen_free(&s);
}
END_TEST

START_TEST(clipped_at_the_edge)
{
    screen_t s;
    screen_init(&s, 4, 1);
    ck_assert_int_eq(screen_puts_text(&s, 2, 0, "\xc3\xa9t\xc3\xa9", COL_WHITE,
                                      COL_DEFAULT, 0), 3);
    const uint32_t want[] = { ' ', ' ', 0xe9, 't' };
    expect_row(&s, want, 4);
    screen_free(&s);
}
END_TEST

/* A row's break: the last space that fits, in columns not bytes; a
 * first word wider than the row is taken whole (and clipped). */
START_TEST(a_row_breaks_at_a_space_by_columns)
{
    ck_assert_uint_eq(screen_text_row("one two three", 7), 7);
    ck_assert_uint_eq(screen_text_row("one two three", 12), 7);
    ck_assert_uint_eq(screen_text_row("one two three", 13), 13);
    ck_assert_uint_eq(screen_text_row("one two three", 2), 3);
    ck_assert_uint_eq(screen_text_row("Caf\xc3\xa9 au lait", 7), 8);
    ck_assert_uint_eq(screen_text_row("", 5), 0);
}
END_TEST

/* text's rows in w columns as draw_notice takes them: screen_text_row,
 * then the spaces after the row skipped. Writes each row's start and
 * length as game_text_wrap does; returns how many (at most max). */
static int host_rows(const char *text, int w, int *start, int *len, int max)
{
    int n = 0;
    for (size_t p = 0; text[p] && n < max; n++) {
        size_t k = screen_text_row(text + p, w);
        start[n] = (int)p;
        len[n] = (int)k;
        for (p += k; text[p] == ' '; p++)
            ;
    }
    return n;
}

/* Why the host's text and the game's wrap apart (the notice and
 * view_puts_wrapped): on ASCII whose words fit the row they make the
 * same rows, at every width; they differ on a word wider than the row
 * (the game cuts it: the lobby's "Key added: <50-character
 * fingerprint>" is read whole below 80 columns; the host's is taken whole
 * and clipped) and on UTF-8 (the game counts bytes, as screen_puts
 * draws a byte a cell; the host counts characters). */
START_TEST(the_game_and_the_host_wrap_alike_only_on_ascii_that_fits)
{
    const char *ascii[] = {
        "You hit the kobold. The kobold is killed!",
        "Welcome to the dungeon.  Press ? for help, and  mind the traps.",
        "a b c d e f g h i j k l m n o p q r s t u v w x y z",
        ("The hall of fame is empty: it lists deaths, wins and games quit "
         "after 50 turns. Be the first!"),
    };
    enum { MAX = 64 };
    int gs[MAX], gl[MAX], hs[MAX], hl[MAX];
    for (size_t t = 0; t < sizeof ascii / sizeof ascii[0]; t++)
        for (int w = 8; w <= 100; w++) { /* "dungeon.", the longest word */
            int g = game_text_wrap(ascii[t], w, gs, gl, MAX);
            int h = host_rows(ascii[t], w, hs, hl, MAX);
            ck_assert_msg(g == h, "text %zu at %d: %d rows, %d", t, w, g, h);
            for (int i = 0; i < g; i++)
                ck_assert_msg(gs[i] == hs[i] && gl[i] == hl[i],
                              "text %zu at %d, row %d", t, w, i);
        }
    /* a word wider than the row: cut by the game, whole for the host */
    const char *key = "Key added: SHA256:0123456789abcdefghijklmnopqrstuvwxyz"
                      "ABCDEFG"; /* a fingerprint: 50 characters */
    ck_assert_int_eq(game_text_wrap(key, 38, gs, gl, MAX), 3);
    ck_assert_int_eq(gl[1], 38);
    ck_assert_int_eq(gl[2], 50 - 38);
    ck_assert_int_eq(host_rows(key, 38, hs, hl, MAX), 2);
    ck_assert_int_eq(hl[1], 50);
    /* UTF-8: "Caf\xc3\xa9 au" is 7 characters (the host's row of 7) but
     * 8 bytes (the game's row stops at "Caf\xc3\xa9") */
    const char *cafe = "Caf\xc3\xa9 au lait";
    ck_assert_int_eq(game_text_wrap(cafe, 7, gs, gl, MAX), 2);
    ck_assert_int_eq(gl[0], 5);
    ck_assert_int_eq(host_rows(cafe, 7, hs, hl, MAX), 2);
    ck_assert_int_eq(hl[0], 8);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("screen_text");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, letters_a_cell_each);
    tcase_add_test(tc, what_is_not_one_column_is_a_question_mark);
    tcase_add_test(tc, clipped_at_the_edge);
    tcase_add_test(tc, a_row_breaks_at_a_space_by_columns);
    tcase_add_test(tc, the_game_and_the_host_wrap_alike_only_on_ascii_that_fits);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
