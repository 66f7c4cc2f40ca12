/* test_keydec.c - the key decoder against the key table of docs/telnet.md, and
 * the property that matters most: how the bytes are split between reads
 * never changes the keys. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "keydec.h"

#define ESC "\033"
#define MAXEV 16384

typedef struct rec {
    keyev_t ev[MAXEV];
    int n;
    int overflow;
} rec_t;

static void on_key(void *ctx, const keyev_t *ev)
{
    rec_t *r = ctx;
    if (r->n < MAXEV)
        r->ev[r->n++] = *ev;
    else
        r->overflow = 1;
}

static void rec_clear(rec_t *r)
{
    r->n = 0;
    r->overflow = 0;
}

/* One case of the table: bytes in, keys out (fed whole, then the timer fires
 * if a sequence is still held). */
typedef struct kcase {
    const char *name;
    const char *bytes;
    size_t len;
    int cpr;      /* keydec_expect_cpr on */
    int nkeys;
    keyev_t keys[4];
} kcase_t;

#define K(k) { (k), 0, 0, 0, 0 }
#define C(name, lit, ...) \
    { name, lit, sizeof(lit) - 1, 0, \
      (int)(sizeof((keyev_t[]){ __VA_ARGS__ }) / sizeof(keyev_t)), { __VA_ARGS__ } }
#define CE(name, lit, cpr, ...) \
    { name, lit, sizeof(lit) - 1, cpr, 1, { { __VA_ARGS__ } } }
#define C0(name, lit) { name, lit, sizeof(lit) - 1, 0, 0, { K(0) } }
#define CCPR(name, lit, ...) \
    { name, lit, sizeof(lit) - 1, 1, \
      (int)(sizeof((keyev_t[]){ __VA_ARGS__ }) / sizeof(keyev_t)), { __VA_ARGS__ } }

static const kcase_t cases[] = {
    /* Enter and the control keys */
    C("CR", "\r", K(KEY_ENTER)),
    C("CR NUL", "\r\0", K(KEY_ENTER)),
    C("CR LF", "\r\n", K(KEY_ENTER)),
    C("LF", "\n", K(KEY_ENTER)),
    C0("NUL", "\0"),
    C("DEL", "\x7f", K(KEY_BACKSPACE)),
    C("BS", "\x08", K(KEY_BACKSPACE)),
    C("ETX", "\x03", K(KEY_CTRL_C)),
    C("Tab", "\t", K('\t')),
    C("Ctrl-A", "\x01", K(1)),
    C("printable", "a", K('a')),
    C("printables", " ~", K(' '), K('~')),
    /* cursor keys, both modes */
    C("CSI A", ESC "[A", K(KEY_UP)),
    C("CSI B", ESC "[B", K(KEY_DOWN)),
    C("CSI C", ESC "[C", K(KEY_RIGHT)),
    C("CSI D", ESC "[D", K(KEY_LEFT)),
    C("SS3 A", ESC "OA", K(KEY_UP)),
    C("SS3 B", ESC "OB", K(KEY_DOWN)),
    C("SS3 C", ESC "OC", K(KEY_RIGHT)),
    C("SS3 D", ESC "OD", K(KEY_LEFT)),
    C("Ctrl-Up", ESC "[1;5A", K(KEY_UP)),
    C("Shift-Left", ESC "[1;2D", K(KEY_LEFT)),
    C("SS3 modified", ESC "O5C", K(KEY_RIGHT)),
    /* ESC [ n ~ */
    C("1~", ESC "[1~", K(KEY_HOME)),
    C("7~", ESC "[7~", K(KEY_HOME)),
    C("4~", ESC "[4~", K(KEY_END)),
    C("8~", ESC "[8~", K(KEY_END)),
    C("2~", ESC "[2~", K(KEY_INSERT)),
    C("3~", ESC "[3~", K(KEY_DELETE)),
    C("5~", ESC "[5~", K(KEY_PGUP)),
    C("6~", ESC "[6~", K(KEY_PGDN)),
    C("11~", ESC "[11~", K(KEY_F1)),
    C("12~", ESC "[12~", K(KEY_F2)),
    C("13~", ESC "[13~", K(KEY_F3)),
    C("14~", ESC "[14~", K(KEY_F4)),
    C("15~", ESC "[15~", K(KEY_F5)),
    C("17~", ESC "[17~", K(KEY_F6)),
    C("18~", ESC "[18~", K(KEY_F7)),
    C("19~", ESC "[19~", K(KEY_F8)),
    C("20~", ESC "[20~", K(KEY_F9)),
    C("21~", ESC "[21~", K(KEY_F10)),
    C("23~", ESC "[23~", K(KEY_F11)),
    C("24~", ESC "[24~", K(KEY_F12)),
    /* bracketed paste's marks */
    C("paste begins", ESC "[200~", K(KEY_PASTE_BEGIN)),
    C("paste ends", ESC "[201~", K(KEY_PASTE_END)),
    C0("202~ dropped", ESC "[202~"),
    C("Ctrl-Del", ESC "[3;5~", K(KEY_DELETE)),
    C("CSI H", ESC "[H", K(KEY_HOME)),
    C("CSI F", ESC "[F", K(KEY_END)),
    C("SS3 H", ESC "OH", K(KEY_HOME)),
    C("SS3 F", ESC "OF", K(KEY_END)),
    /* the keypad's 5 without Num Lock (Begin): a docs audit found it
     * dropped, where the docs say 5 waits */
    C("CSI E", ESC "[E", K('5')),
    C("SS3 E", ESC "OE", K('5')),
    C("Linux console kp 5", ESC "[G", K('5')),
    C0("CSI 2G dropped", ESC "[2G"),
    /* function keys */
    C("SS3 P", ESC "OP", K(KEY_F1)),
    C("SS3 Q", ESC "OQ", K(KEY_F2)),
    C("SS3 R", ESC "OR", K(KEY_F3)),
    C("SS3 S", ESC "OS", K(KEY_F4)),
    C("Shift-F1", ESC "[1;2P", K(KEY_F1)),
    C("Shift-F3", ESC "[1;2R", K(KEY_F3)),
    C("Linux F1", ESC "[[A", K(KEY_F1)),
    C("Linux F5", ESC "[[E", K(KEY_F5)),
    /* application keypad */
    C("kp 0", ESC "Op", K('0')),
    C("kp 1", ESC "Oq", K('1')),
    C("kp 2", ESC "Or", K('2')),
    C("kp 3", ESC "Os", K('3')),
    C("kp 4", ESC "Ot", K('4')),
    C("kp 5", ESC "Ou", K('5')),
    C("kp 6", ESC "Ov", K('6')),
    C("kp 7", ESC "Ow", K('7')),
    C("kp 8", ESC "Ox", K('8')),
    C("kp 9", ESC "Oy", K('9')),
    C("kp Enter", ESC "OM", K(KEY_ENTER)),
    C("kp -", ESC "Om", K('-')),
    /* Esc followed by a key */
    C("ESC h", ESC "h", K(KEY_ESC), K('h')),
    C("ESC CR", ESC "\r", K(KEY_ESC), K(KEY_ENTER)),
    C("ESC ESC", ESC ESC, K(KEY_ESC), K(KEY_ESC)),
    C("lone ESC", ESC, K(KEY_ESC)),
    C("ESC [ alone", ESC "[", K(KEY_ESC), K('[')),
    C("ESC O alone", ESC "O", K(KEY_ESC), K('O')),
    C0("cut CSI", ESC "[1;5"),
    C("CSI cut by CR", ESC "[1\r", K(KEY_ENTER)),
    C("ESC [ then CR", ESC "[\r", K(KEY_ESC), K('['), K(KEY_ENTER)),
    /* UTF-8 */
    C("e acute", "\xc3\xa9", K(0xe9)),
    C("euro", "\xe2\x82\xac", K(0x20ac)),
    C("emoji", "\xf0\x9f\x98\x80", K(0x1f600)),
    C("max", "\xf4\x8f\xbf\xbf", K(0x10ffff)),
    C("bad cont", "\xc3(", K('(')),
    C0("overlong 2", "\xc0\xaf"),
    C0("overlong 3", "\xe0\x80\xaf"),
    C0("surrogate", "\xed\xa0\x80"),
    C0("past max", "\xf4\x90\x80\x80"),
    C0("lone cont", "\x80"),
    C0("ff", "\xff"),
    C0("C1 control", "\xc2\x9b"),
    C("cut 3-byte", "\xe2\x82x", K('x')),
    C("cut by ESC", "\xe2" ESC "[A", K(KEY_UP)),
    /* mouse (SGR 1006 and X10) */
    CE("SGR press", ESC "[<0;10;5M", 0, KEY_MOUSE, 9, 4, 0, 0),
    CE("SGR release", ESC "[<0;10;5m", 0, KEY_MOUSE, 9, 4, 0, 1),
    CE("SGR right", ESC "[<2;1;1M", 0, KEY_MOUSE, 0, 0, 2, 0),
    CE("SGR wheel", ESC "[<65;200;100M", 0, KEY_MOUSE, 199, 99, 65, 0),
    CE("SGR ctrl", ESC "[<16;3;4M", 0, KEY_MOUSE, 2, 3, 16, 0),
    C0("SGR x=0", ESC "[<0;0;5M"),
    C0("SGR 2 params", ESC "[<0;5M"),
    CE("X10 press", ESC "[M !\"", 0, KEY_MOUSE, 0, 1, 0, 0),
    CE("X10 release", ESC "[M#**", 0, KEY_MOUSE, 9, 9, 3, 1),
    /* cursor reports */
    C0("CPR unasked", ESC "[24;80R"),
    CE("CPR asked", ESC "[24;80R", 1, KEY_CPR, 79, 23, 0, 0),
    CE("CPR 1;2 asked", ESC "[1;2R", 1, KEY_CPR, 1, 0, 0, 0),
    /* not keys: dropped whole */
    C0("DA reply", ESC "[?1;2c"),
    C0("back-tab", ESC "[Z"),
    C0("99~", ESC "[99~"),
    C0("intermediate", ESC "[1 q"),
    C0("SS3 unknown", ESC "Oz"),
    C0("Linux unknown", ESC "[[Z"),
};
#define NCASES (sizeof cases / sizeof cases[0])

/* Feeds the chunks of b split at the given cut points, then fires the timer
 * if anything is held. */
static void run_split(const kcase_t *c, const char *b, size_t len,
                      const size_t *cuts, int ncuts, rec_t *r)
{
    keydec_t d;
    size_t at = 0;
    keydec_init(&d);
    keydec_expect_cpr(&d, c ? c->cpr : 0);
    rec_clear(r);
    for (int i = 0; i < ncuts; i++) {
        keydec_feed(&d, b + at, cuts[i] - at, on_key, r);
        at = cuts[i];
    }
    keydec_feed(&d, b + at, len - at, on_key, r);
    if (keydec_pending(&d))
        keydec_timeout(&d, on_key, r);
    if (keydec_pending(&d))
        ck_abort_msg("still pending after the timer");
}

/* The index of the first key that differs from want (n if they differ only
 * in number), or -1 if all are the same. No check assertion per key: check
 * records every assertion that passes, which is slow in the split loops. */
static int first_diff(const rec_t *r, const keyev_t *want, int n)
{
    for (int i = 0; i < n && i < r->n; i++) {
        const keyev_t *g = &r->ev[i], *w = &want[i];
        if (g->key != w->key || g->x != w->x || g->y != w->y ||
            g->button != w->button || g->release != w->release)
            return i;
    }
    return r->n == n ? -1 : (r->n < n ? r->n : n);
}

static void check_keys(const char *what, const rec_t *r, const keyev_t *want,
                       int n)
{
    int i = first_diff(r, want, n);
    if (i < 0)
        return;
    if (i < r->n && i < n) {
        const keyev_t *g = &r->ev[i], *w = &want[i];
        ck_abort_msg("%s: key %d is {%#x,%d,%d,%d,%d}, want {%#x,%d,%d,%d,%d}",
                     what, i, g->key, g->x, g->y, g->button, g->release,
                     w->key, w->x, w->y, w->button, w->release);
    }
    ck_abort_msg("%s: %d keys, want %d", what, r->n, n);
}

static void check_same(const char *what, const rec_t *a, const rec_t *b)
{
    check_keys(what, a, b->ev, b->n);
}

START_TEST(test_table)
{
    static rec_t r;
    for (size_t i = 0; i < NCASES; i++) {
        run_split(&cases[i], cases[i].bytes, cases[i].len, NULL, 0, &r);
        check_keys(cases[i].name, &r, cases[i].keys, cases[i].nkeys);
    }
}
END_TEST

START_TEST(test_table_splits)
{
    static rec_t r;
    char what[128];
    for (size_t i = 0; i < NCASES; i++) {
        const kcase_t *c = &cases[i];
        size_t cuts[64];
        /* byte by byte */
        for (size_t k = 1; k < c->len; k++)
            cuts[k - 1] = k;
        run_split(c, c->bytes, c->len, cuts, (int)c->len - 1, &r);
        snprintf(what, sizeof what, "%s byte by byte", c->name);
        check_keys(what, &r, c->keys, c->nkeys);
        /* every 2-way and 3-way split */
        for (size_t k = 1; k < c->len; k++) {
            cuts[0] = k;
            run_split(c, c->bytes, c->len, cuts, 1, &r);
            snprintf(what, sizeof what, "%s split at %zu", c->name, k);
            check_keys(what, &r, c->keys, c->nkeys);
            for (size_t m = k + 1; m < c->len; m++) {
                cuts[1] = m;
                run_split(c, c->bytes, c->len, cuts, 2, &r);
                snprintf(what, sizeof what, "%s split at %zu,%zu", c->name, k, m);
                check_keys(what, &r, c->keys, c->nkeys);
            }
        }
    }
}
END_TEST

/* All the table's cases that need no timer and no cursor-report mode, one
 * after the other, split at every pair of points: the keys are the
 * concatenation of theirs. Catches state leaking from one key to the next. */
START_TEST(test_concatenated_splits)
{
    static char stream[4096];
    static keyev_t want[1024];
    static rec_t r;
    size_t len = 0;
    int nwant = 0;
    for (size_t i = 0; i < NCASES; i++) {
        const kcase_t *c = &cases[i];
        if (c->cpr)
            continue;
        /* a sequence that ends held, or a NUL that a CR before would
         * swallow, or an invalid UTF-8 tail, does not concatenate */
        if (c->len && ((unsigned char)c->bytes[c->len - 1] >= 0x80 ||
                       c->bytes[c->len - 1] == 0x1b))
            continue;
        if (!strcmp(c->name, "NUL") || !strcmp(c->name, "cut CSI") ||
            !strcmp(c->name, "ESC [ alone") || !strcmp(c->name, "ESC O alone"))
            continue;
        memcpy(stream + len, c->bytes, c->len);
        len += c->len;
        memcpy(want + nwant, c->keys, sizeof(keyev_t) * (size_t)c->nkeys);
        nwant += c->nkeys;
        ck_assert(len < sizeof stream - 64);
    }
    run_split(NULL, stream, len, NULL, 0, &r);
    check_keys("whole stream", &r, want, nwant);
    for (size_t a = 1; a < len; a++) {
        for (size_t b = a; b < len; b += 7) {
            size_t cuts[2] = { a, b };
            run_split(NULL, stream, len, cuts, 2, &r);
            if (first_diff(&r, want, nwant) >= 0) {
                char what[64];
                snprintf(what, sizeof what, "stream split at %zu,%zu", a, b);
                check_keys(what, &r, want, nwant);
            }
        }
    }
}
END_TEST

static int count_key(const rec_t *r, int key)
{
    int n = 0;
    for (int i = 0; i < r->n; i++)
        n += r->ev[i].key == key;
    return n;
}

START_TEST(test_cr_across_feeds)
{
    static rec_t r;
    keydec_t d;
    static const char *seconds[] = { "\0", "\n" };
    for (int i = 0; i < 2; i++) {
        keydec_init(&d);
        rec_clear(&r);
        keydec_feed(&d, "\r", 1, on_key, &r);
        ck_assert_int_eq(r.n, 1); /* Enter at once, not after the next read */
        ck_assert_int_eq(r.ev[0].key, KEY_ENTER);
        keydec_feed(&d, NULL, 0, on_key, &r);
        keydec_feed(&d, seconds[i], 1, on_key, &r);
        ck_assert_int_eq(r.n, 1);
        ck_assert_int_eq(keydec_pending(&d), 0);
        /* only one byte is swallowed */
        keydec_feed(&d, seconds[i], 1, on_key, &r);
        ck_assert_int_eq(r.n, i == 0 ? 1 : 2);
    }
    keydec_init(&d);
    rec_clear(&r);
    /* CR, CR LF, LF, CR NUL, CR: five Enters */
    keydec_feed(&d, "\r\r\n\n\r\0\r", 7, on_key, &r);
    ck_assert_int_eq(r.n, 5);
    ck_assert_int_eq(count_key(&r, KEY_ENTER), 5);
    keydec_feed(&d, "x", 1, on_key, &r);
    ck_assert_int_eq(r.n, 6);
    ck_assert_int_eq(r.ev[5].key, 'x');
}
END_TEST

START_TEST(test_lf_alone)
{
    static rec_t r;
    keydec_t d;
    keydec_init(&d);
    rec_clear(&r);
    keydec_feed(&d, "a\nb\n", 4, on_key, &r); /* nc in cooked mode */
    ck_assert_int_eq(r.n, 4);
    ck_assert_int_eq(r.ev[0].key, 'a');
    ck_assert_int_eq(r.ev[1].key, KEY_ENTER);
    ck_assert_int_eq(r.ev[2].key, 'b');
    ck_assert_int_eq(r.ev[3].key, KEY_ENTER);
}
END_TEST

START_TEST(test_lone_esc_timeout)
{
    static rec_t r;
    keydec_t d;
    keydec_init(&d);
    rec_clear(&r);
    ck_assert_int_eq(keydec_pending(&d), 0);
    keydec_timeout(&d, on_key, &r); /* nothing held: nothing happens */
    ck_assert_int_eq(r.n, 0);
    keydec_feed(&d, ESC, 1, on_key, &r);
    ck_assert_int_eq(r.n, 0);
    ck_assert_int_eq(keydec_pending(&d), 1);
    keydec_timeout(&d, on_key, &r);
    ck_assert_int_eq(r.n, 1);
    ck_assert_int_eq(r.ev[0].key, KEY_ESC);
    ck_assert_int_eq(keydec_pending(&d), 0);
    keydec_timeout(&d, on_key, &r);
    ck_assert_int_eq(r.n, 1);
    /* the next bytes are fresh: '[' 'A' are keys, not a sequence */
    keydec_feed(&d, "[A", 2, on_key, &r);
    ck_assert_int_eq(r.n, 3);
    ck_assert_int_eq(r.ev[1].key, '[');
    ck_assert_int_eq(r.ev[2].key, 'A');
}
END_TEST

START_TEST(test_esc_then_key)
{
    static rec_t r;
    keydec_t d;
    keydec_init(&d);
    rec_clear(&r);
    keydec_feed(&d, ESC, 1, on_key, &r);
    keydec_feed(&d, "h", 1, on_key, &r); /* a later read, timer not fired */
    ck_assert_int_eq(r.n, 2);
    ck_assert_int_eq(r.ev[0].key, KEY_ESC);
    ck_assert_int_eq(r.ev[1].key, 'h');
    ck_assert_int_eq(keydec_pending(&d), 0);
    /* ESC ESC: the first is a key, the second is held */
    keydec_feed(&d, ESC ESC, 2, on_key, &r);
    ck_assert_int_eq(r.n, 3);
    ck_assert_int_eq(keydec_pending(&d), 1);
    keydec_feed(&d, "[B", 2, on_key, &r);
    ck_assert_int_eq(r.n, 4);
    ck_assert_int_eq(r.ev[3].key, KEY_DOWN);
}
END_TEST

/* Every key a decoder may emit: a Unicode scalar value (not a surrogate, not
 * a C1 control) or one of the KEY_* codes. */
static int valid_key(const keyev_t *e)
{
    int k = e->key;
    if (k >= KEY_SPECIAL)
        return k < KEY_LAST;
    if (k < 0 || (k >= 0x80 && k < 0xa0) || (k >= 0xd800 && k <= 0xdfff))
        return 0;
    return k != 0; /* NUL is never a key */
}

START_TEST(test_overlong_csi)
{
    static unsigned char big[10000];
    static rec_t r;
    keydec_t d;

    /* ESC [ 1;1;1;...A, 10000 bytes: nothing at all, then keys again */
    big[0] = 0x1b;
    big[1] = '[';
    for (size_t i = 2; i < sizeof big - 1; i++)
        big[i] = (i & 1) ? ';' : '1';
    big[sizeof big - 1] = 'A';
    keydec_init(&d);
    rec_clear(&r);
    keydec_feed(&d, big, sizeof big, on_key, &r);
    ck_assert_int_eq(r.n, 0);
    ck_assert_int_eq(keydec_pending(&d), 0);
    keydec_feed(&d, "hj" ESC "[C", 5, on_key, &r);
    ck_assert_int_eq(r.n, 3);
    ck_assert_int_eq(r.ev[0].key, 'h');
    ck_assert_int_eq(r.ev[1].key, 'j');
    ck_assert_int_eq(r.ev[2].key, KEY_RIGHT);

    /* the same split byte by byte */
    keydec_init(&d);
    rec_clear(&r);
    for (size_t i = 0; i < sizeof big; i++)
        keydec_feed(&d, big + i, 1, on_key, &r);
    ck_assert_int_eq(r.n, 0);

    /* without a final byte: held (pending) until the timer, then dropped */
    keydec_init(&d);
    rec_clear(&r);
    keydec_feed(&d, big, sizeof big - 1, on_key, &r);
    ck_assert_int_eq(r.n, 0);
    ck_assert_int_eq(keydec_pending(&d), 1);
    keydec_timeout(&d, on_key, &r);
    ck_assert_int_eq(r.n, 0);
    ck_assert_int_eq(keydec_pending(&d), 0);
    keydec_feed(&d, "k", 1, on_key, &r);
    ck_assert_int_eq(r.n, 1);
    ck_assert_int_eq(r.ev[0].key, 'k');

    /* ... or until a byte that cannot be part of it, which is a key */
    keydec_init(&d);
    rec_clear(&r);
    keydec_feed(&d, big, sizeof big - 1, on_key, &r);
    keydec_feed(&d, "\r", 1, on_key, &r);
    ck_assert_int_eq(r.n, 1);
    ck_assert_int_eq(r.ev[0].key, KEY_ENTER);

    /* exactly KEYDEC_SEQ_MAX bytes is still a key; one more is not */
    {
        unsigned char s[KEYDEC_SEQ_MAX + 1];
        s[0] = 0x1b;
        s[1] = '[';
        for (int i = 2; i < KEYDEC_SEQ_MAX; i++)
            s[i] = '0';
        s[KEYDEC_SEQ_MAX - 1] = '1'; /* ESC [ 000...01 A: Up */
        s[KEYDEC_SEQ_MAX] = 'A';
        keydec_init(&d);
        rec_clear(&r);
        keydec_feed(&d, s, sizeof s, on_key, &r);
        ck_assert_int_eq(r.n, 1);
        ck_assert_int_eq(r.ev[0].key, KEY_UP);
        unsigned char t[KEYDEC_SEQ_MAX + 2];
        memcpy(t, s, KEYDEC_SEQ_MAX);
        t[KEYDEC_SEQ_MAX] = '1';
        t[KEYDEC_SEQ_MAX + 1] = 'A';
        keydec_init(&d);
        rec_clear(&r);
        keydec_feed(&d, t, sizeof t, on_key, &r);
        ck_assert_int_eq(r.n, 0);
    }

    /* an over-long SS3 and an over-long mouse report too */
    keydec_init(&d);
    rec_clear(&r);
    memset(big + 2, '5', sizeof big - 3);
    big[1] = 'O';
    keydec_feed(&d, big, sizeof big, on_key, &r);
    big[1] = '[';
    big[2] = '<';
    keydec_feed(&d, big, sizeof big, on_key, &r);
    ck_assert_int_eq(r.n, 0);
}
END_TEST

/* A fixed pseudo-random generator: the tests must be repeatable. */
static unsigned int lcg(unsigned int *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

START_TEST(test_garbage)
{
    static unsigned char big[10000];
    static rec_t r;
    unsigned int seed = 1;
    keydec_t d;
    for (int round = 0; round < 20; round++) {
        for (size_t i = 0; i < sizeof big; i++)
            big[i] = (unsigned char)lcg(&seed);
        keydec_init(&d);
        keydec_expect_cpr(&d, round & 1);
        rec_clear(&r);
        keydec_feed(&d, big, sizeof big, on_key, &r);
        keydec_timeout(&d, on_key, &r);
        ck_assert_int_eq(r.overflow, 0);
        for (int i = 0; i < r.n; i++) {
            ck_assert_msg(valid_key(&r.ev[i]), "bad key %#x", r.ev[i].key);
            if (r.ev[i].key == KEY_MOUSE || r.ev[i].key == KEY_CPR)
                ck_assert(r.ev[i].x >= 0 && r.ev[i].y >= 0);
        }
        /* the decoder is fine afterwards */
        rec_clear(&r);
        keydec_feed(&d, ESC "[A\xc3\xa9", 5, on_key, &r);
        ck_assert_int_eq(r.n, 2);
        ck_assert_int_eq(r.ev[0].key, KEY_UP);
        ck_assert_int_eq(r.ev[1].key, 0xe9);
    }
}
END_TEST

/* Random streams from an alphabet rich in sequence bytes, fed whole and then
 * in random pieces: the keys must be identical. */
START_TEST(test_random_splits)
{
    static const unsigned char alpha[] = {
        0x1b, 0x1b, 0x1b, '[', '[', 'O', 'O', '<', '1', '2', '5', ';', ';',
        '~', 'A', 'M', 'm', 'R', 'h', '\r', '\n', 0, 0xc3, 0xa9, 0xe2, 0x82,
        0xac, 0xf0, 0x9f, 0x80, 0xff, 0x7f, ' ', '!', '?', 'x',
    };
    static unsigned char s[600];
    static rec_t whole, parts;
    unsigned int seed = 7;
    for (int round = 0; round < 3000; round++) {
        size_t len = 1 + lcg(&seed) % sizeof s;
        int cpr = lcg(&seed) & 1;
        keydec_t d;
        for (size_t i = 0; i < len; i++)
            s[i] = alpha[lcg(&seed) % sizeof alpha];

        keydec_init(&d);
        keydec_expect_cpr(&d, cpr);
        rec_clear(&whole);
        keydec_feed(&d, s, len, on_key, &whole);
        keydec_timeout(&d, on_key, &whole);

        keydec_init(&d);
        keydec_expect_cpr(&d, cpr);
        rec_clear(&parts);
        for (size_t at = 0; at < len;) {
            size_t n = 1 + lcg(&seed) % 9;
            if (n > len - at)
                n = len - at;
            keydec_feed(&d, s + at, n, on_key, &parts);
            at += n;
        }
        keydec_timeout(&d, on_key, &parts);
        check_same("random split", &parts, &whole);
    }
}
END_TEST

START_TEST(test_utf8_split)
{
    static rec_t r;
    keydec_t d;
    keydec_init(&d);
    rec_clear(&r);
    keydec_feed(&d, "\xc3", 1, on_key, &r);
    ck_assert_int_eq(r.n, 0);
    ck_assert_int_eq(keydec_pending(&d), 0); /* no timer for UTF-8 */
    keydec_feed(&d, "\xa9", 1, on_key, &r);
    ck_assert_int_eq(r.n, 1);
    ck_assert_int_eq(r.ev[0].key, 0xe9);
    /* four bytes in four reads */
    keydec_feed(&d, "\xf0", 1, on_key, &r);
    keydec_feed(&d, "\x9f", 1, on_key, &r);
    keydec_feed(&d, "\x98", 1, on_key, &r);
    ck_assert_int_eq(r.n, 1);
    keydec_feed(&d, "\x80", 1, on_key, &r);
    ck_assert_int_eq(r.n, 2);
    ck_assert_int_eq(r.ev[1].key, 0x1f600);
}
END_TEST

START_TEST(test_mouse)
{
    static rec_t r;
    keydec_t d;
    keydec_init(&d);
    rec_clear(&r);
    /* press, drag, release of the left button at column 10, row 5 (1-based) */
    const char *s = ESC "[<0;10;5M" ESC "[<32;11;5M" ESC "[<0;11;5m";
    keydec_feed(&d, s, strlen(s), on_key, &r);
    ck_assert_int_eq(r.n, 3);
    ck_assert_int_eq(r.ev[0].key, KEY_MOUSE);
    ck_assert_int_eq(r.ev[0].x, 9);
    ck_assert_int_eq(r.ev[0].y, 4);
    ck_assert_int_eq(r.ev[0].button, 0);
    ck_assert_int_eq(r.ev[0].release, 0);
    ck_assert_int_eq(r.ev[1].button, 32); /* motion */
    ck_assert_int_eq(r.ev[1].x, 10);
    ck_assert_int_eq(r.ev[2].x, 10);
    ck_assert_int_eq(r.ev[2].y, 4);
    ck_assert_int_eq(r.ev[2].release, 1);
    ck_assert_int_eq(keydec_pending(&d), 0);
    /* a huge coordinate saturates, no overflow */
    rec_clear(&r);
    s = ESC "[<0;99999999999;3M";
    keydec_feed(&d, s, strlen(s), on_key, &r);
    ck_assert_int_eq(r.n, 1);
    ck_assert_int_eq(r.ev[0].x, 99999);
    ck_assert_int_eq(r.ev[0].y, 2);
    /* a cut X10 report is dropped on the timer */
    rec_clear(&r);
    keydec_feed(&d, ESC "[M ", 4, on_key, &r);
    ck_assert_int_eq(keydec_pending(&d), 1);
    keydec_timeout(&d, on_key, &r);
    ck_assert_int_eq(r.n, 0);
}
END_TEST

/* What the decoder drops without a key is counted, so that a prompt can
 * refuse a line typed with it rather than take it altered; keys are not. */
START_TEST(test_dropped_counted)
{
    static rec_t r;
    keydec_t d;
    keydec_init(&d);
    rec_clear(&r);
    const char *in = "ab" ESC "[31mred";
    keydec_feed(&d, in, strlen(in), on_key, &r);
    ck_assert_int_eq(r.n, 5);
    ck_assert_int_eq(r.ev[2].key, 'r');
    ck_assert_uint_eq(d.dropped, 1);
    /* known keys, a lone Esc and Esc-[ are no drop */
    const char *keys = ESC "[A" ESC "OP" "x" ESC "x";
    keydec_feed(&d, keys, strlen(keys), on_key, &r);
    ck_assert_uint_eq(d.dropped, 1);
    /* a bad UTF-8 byte, a cut-short sequence, an overlong one */
    keydec_feed(&d, "\xff", 1, on_key, &r);
    ck_assert_uint_eq(d.dropped, 2);
    keydec_feed(&d, ESC "[12", 4, on_key, &r);
    keydec_timeout(&d, on_key, &r);
    ck_assert_uint_eq(d.dropped, 3);
    char big[64];
    memset(big, '1', sizeof big);
    big[0] = '\033';
    big[1] = '[';
    keydec_feed(&d, big, sizeof big, on_key, &r);
    keydec_feed(&d, "m", 1, on_key, &r);
    ck_assert_uint_eq(d.dropped, 4);
}
END_TEST

START_TEST(test_cpr)
{
    static rec_t r;
    keydec_t d;
    keydec_init(&d);
    rec_clear(&r);
    keydec_feed(&d, ESC "[40;120R", 9, on_key, &r);
    ck_assert_int_eq(r.n, 0); /* not asked for: a stray report */
    keydec_expect_cpr(&d, 1);
    keydec_feed(&d, ESC "[40;", 5, on_key, &r);
    keydec_feed(&d, "120R", 4, on_key, &r);
    ck_assert_int_eq(r.n, 1);
    ck_assert_int_eq(r.ev[0].key, KEY_CPR);
    ck_assert_int_eq(r.ev[0].x, 119);
    ck_assert_int_eq(r.ev[0].y, 39);
    keydec_feed(&d, ESC "[A", 3, on_key, &r); /* keys still work meanwhile */
    ck_assert_int_eq(r.n, 2);
    ck_assert_int_eq(r.ev[1].key, KEY_UP);
    keydec_feed(&d, ESC "[0;5R", 6, on_key, &r); /* row 0 is not a report */
    ck_assert_int_eq(r.n, 2);
    keydec_expect_cpr(&d, 0);
    keydec_feed(&d, ESC "[1;2R", 6, on_key, &r);
    ck_assert_int_eq(r.n, 3);
    ck_assert_int_eq(r.ev[2].key, KEY_F3);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("keydec");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_table);
    tcase_add_test(tc, test_table_splits);
    tcase_add_test(tc, test_concatenated_splits);
    tcase_add_test(tc, test_cr_across_feeds);
    tcase_add_test(tc, test_lf_alone);
    tcase_add_test(tc, test_lone_esc_timeout);
    tcase_add_test(tc, test_esc_then_key);
    tcase_add_test(tc, test_overlong_csi);
    tcase_add_test(tc, test_garbage);
    tcase_add_test(tc, test_random_splits);
    tcase_add_test(tc, test_utf8_split);
    tcase_add_test(tc, test_mouse);
    tcase_add_test(tc, test_dropped_counted);
    tcase_add_test(tc, test_cpr);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
