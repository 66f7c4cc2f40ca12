/* test_utf8.c - one UTF-8 character read from bytes (common/utf8.h): each
 * class of sequence, well-formed at both ends of each length, and each
 * kind of malformed one, with the length taken and the code point; and
 * every code point written back as the bytes it is read from. */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "utf8.h"

/* utf8_decode over the n bytes of s; *cp starts at a marker so that a
 * refusal is seen to leave it alone. */
static size_t decode(const char *s, size_t n, uint32_t *cp)
{
    *cp = 0xdeadu;
    return utf8_decode((const unsigned char *)s, n, cp);
}

/* s (all of its bytes) is one character: U+want in strlen(s) bytes. */
static void expect_char(const char *s, uint32_t want)
{
    uint32_t cp;
    size_t n = strlen(s) ? strlen(s) : 1;
    ck_assert_msg(decode(s, n, &cp) == n, "U+%04X: length", (unsigned)want);
    ck_assert_msg(cp == want, "U+%04X: got U+%04X", (unsigned)want,
                  (unsigned)cp);
}

/* The n bytes of s start no character. */
static void expect_none(const char *s, size_t n, const char *what)
{
    uint32_t cp;
    ck_assert_msg(decode(s, n, &cp) == 0, "%s taken", what);
    ck_assert_msg(cp == 0xdeadu, "%s: code point written", what);
}

START_TEST(each_length_at_its_ends)
{
    expect_char("", 0);                      /* NUL is a character */
    expect_char("A", 'A');
    expect_char("\x7f", 0x7f);
    expect_char("\xc2\x80", 0x80);
    expect_char("\xc3\xa9", 0xe9);
    expect_char("\xdf\xbf", 0x7ff);
    expect_char("\xe0\xa0\x80", 0x800);
    expect_char("\xe2\x9c\x93", 0x2713);
    expect_char("\xed\x9f\xbf", 0xd7ff);     /* just below the surrogates */
    expect_char("\xee\x80\x80", 0xe000);     /* just above them */
    expect_char("\xef\xbf\xbf", 0xffff);
    expect_char("\xf0\x90\x80\x80", 0x10000);
    expect_char("\xf0\x9f\x90\x89", 0x1f409);
    expect_char("\xf4\x8f\xbf\xbf", 0x10ffff);
}
END_TEST

START_TEST(only_the_first_character_is_taken)
{
    uint32_t cp;
    ck_assert_uint_eq(decode("ab", 2, &cp), 1);
    ck_assert_uint_eq(cp, 'a');
    ck_assert_uint_eq(decode("\xc3\xa9\xc3\xa9", 4, &cp), 2);
    ck_assert_uint_eq(cp, 0xe9);
    ck_assert_uint_eq(decode("\xe2\x9c\x93x", 4, &cp), 3);
    ck_assert_uint_eq(cp, 0x2713);
}
END_TEST

START_TEST(invalid_bytes_start_nothing)
{
    expect_none("\x80", 1, "a continuation byte");
    expect_none("\xbf\x80", 2, "a continuation byte first");
    expect_none("\xc0\x80", 2, "0xc0");
    expect_none("\xc1\xbf", 2, "0xc1");
    expect_none("\xf5\x80\x80\x80", 4, "0xf5");
    expect_none("\xf8\x88\x80\x80\x80", 5, "0xf8 (five bytes)");
    expect_none("\xfe", 1, "0xfe");
    expect_none("\xff", 1, "0xff");
    /* a lead byte and then not a continuation, at each place */
    expect_none("\xc3" "A", 2, "0xc3 then A");
    expect_none("\xe2" "A\x93", 3, "0xe2 then A");
    expect_none("\xe2\x9c" "A", 3, "0xe2 0x9c then A");
    expect_none("\xf0\x9f\x90" "A", 4, "0xf0 0x9f 0x90 then A");
    expect_none("\xc3\xc3\xa9", 3, "a lead byte then a lead byte");
    expect_none("\xe2\x9c\0", 3, "a NUL inside");
}
END_TEST

START_TEST(overlong_forms_start_nothing)
{
    expect_none("\xc0\xaf", 2, "'/' in two bytes");
    expect_none("\xc1\xbf", 2, "U+7F in two bytes");
    expect_none("\xe0\x80\xaf", 3, "'/' in three bytes");
    expect_none("\xe0\x9f\xbf", 3, "U+7FF in three bytes");
    expect_none("\xf0\x80\x80\xaf", 4, "'/' in four bytes");
    expect_none("\xf0\x8f\xbf\xbf", 4, "U+FFFF in four bytes");
}
END_TEST

START_TEST(surrogates_and_past_the_last_start_nothing)
{
    expect_none("\xed\xa0\x80", 3, "U+D800");
    expect_none("\xed\xaf\xbf", 3, "U+DBFF");
    expect_none("\xed\xb0\x80", 3, "U+DC00");
    expect_none("\xed\xbf\xbf", 3, "U+DFFF");
    expect_none("\xed\xa0\xbd\xed\xb2\xa9", 6, "a CESU-8 pair");
    expect_none("\xf4\x90\x80\x80", 4, "U+110000");
    expect_none("\xf4\xbf\xbf\xbf", 4, "U+13FFFF");
}
END_TEST

/* Cut short by n: nothing, even where the bytes past n would finish it
 * (they are not read). */
START_TEST(truncated_sequences_start_nothing)
{
    expect_none("", 0, "no bytes");
    expect_none("A", 0, "no bytes before an A");
    expect_none("\xc3\xa9", 1, "two bytes cut at one");
    expect_none("\xe2\x9c\x93", 1, "three bytes cut at one");
    expect_none("\xe2\x9c\x93", 2, "three bytes cut at two");
    expect_none("\xf0\x9f\x90\x89", 1, "four bytes cut at one");
    expect_none("\xf0\x9f\x90\x89", 2, "four bytes cut at two");
    expect_none("\xf0\x9f\x90\x89", 3, "four bytes cut at three");
}
END_TEST

/* Every two-byte and three-byte sequence against the rule written out:
 * accepted exactly when the lead and the continuations have their forms
 * and the code point is minimal, not a surrogate; then it is the code
 * point the bits say. */
START_TEST(every_short_sequence_against_the_rule)
{
    for (unsigned a = 0xc0; a <= 0xef; a++)
        for (unsigned b = 0; b <= 0xff; b++)
            for (unsigned c = 0; c <= (a >= 0xe0 ? 0xffu : 0u); c++) {
                unsigned char s[3] = { (unsigned char)a, (unsigned char)b,
                                       (unsigned char)c };
                size_t len = a >= 0xe0 ? 3 : 2;
                uint32_t want = a >= 0xe0
                    ? (a & 0x0fu) << 12 | (b & 0x3fu) << 6 | (c & 0x3fu)
                    : (a & 0x1fu) << 6 | (b & 0x3fu);
                int cont = (b & 0xc0) == 0x80 &&
                           (len == 2 || (c & 0xc0) == 0x80);
                int ok = cont && want >= (len == 2 ? 0x80u : 0x800u) &&
                         !(want >= 0xd800 && want <= 0xdfff);
                uint32_t cp = 0xdeadu;
                size_t got = utf8_decode(s, len, &cp);
                /* (ck_assert on each of a million is too slow) */
                if (got != (ok ? len : 0) || cp != (ok ? want : 0xdeadu))
                    ck_abort_msg("%02x %02x %02x: %zu bytes, U+%04X", a, b,
                                 c, got, (unsigned)cp);
            }
}
END_TEST

/* Every code point that may be written encodes to the bytes it decodes
 * from, in the fewest bytes (1 to U+7F, 2 to U+7FF, 3 to U+FFFF, then
 * 4); "\xe2\x94\x80" is U+2500, a wall's line. */
START_TEST(encode_is_decode_backwards)
{
    char out[UTF8_MAX_LEN];
    ck_assert_int_eq(utf8_encode(0x2500, out), 3);
    ck_assert(memcmp(out, "\xe2\x94\x80", 3) == 0);
    uint32_t wrong = 0, first = 0; /* (a check a code point is slow) */
    for (uint32_t cp = 0; cp < 0x110000; cp++) {
        if (cp >= 0xd800 && cp < 0xe000)
            continue;
        int n = utf8_encode(cp, out);
        int len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        uint32_t back = 0xffffffffu;
        size_t got = utf8_decode((const unsigned char *)out, (size_t)n, &back);
        if ((n != len || got != (size_t)n || back != cp) && wrong++ == 0)
            first = cp;
    }
    ck_assert_msg(wrong == 0, "%u code points wrong, the first U+%04X",
                  (unsigned)wrong, (unsigned)first);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("utf8");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, each_length_at_its_ends);
    tcase_add_test(tc, encode_is_decode_backwards);
    tcase_add_test(tc, only_the_first_character_is_taken);
    tcase_add_test(tc, invalid_bytes_start_nothing);
    tcase_add_test(tc, overlong_forms_start_nothing);
    tcase_add_test(tc, surrogates_and_past_the_last_start_nothing);
    tcase_add_test(tc, truncated_sequences_start_nothing);
    tcase_add_test(tc, every_short_sequence_against_the_rule);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
