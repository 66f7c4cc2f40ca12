/* test_screen_text.c - the host's text drawn as UTF-8 (common/screen_text.h):
 * a cell a character, '?' for what is not one column or not UTF-8, and the
 * width counted as drawn. */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "screen_text.h"

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

static Suite *make_suite(void)
{
    Suite *s = suite_create("screen_text");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, letters_a_cell_each);
    tcase_add_test(tc, what_is_not_one_column_is_a_question_mark);
    tcase_add_test(tc, clipped_at_the_edge);
    tcase_add_test(tc, a_row_breaks_at_a_space_by_columns);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
