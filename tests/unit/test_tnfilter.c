/* test_tnfilter.c - the pre-filter that keeps the MSSP, ENVIRON, NEW-ENVIRON,
 * COMPRESS2 and ZMP subnegotiations away from libtelnet 0.21 and caps
 * subnegotiation length; checked on its own output and through the
 * server's own telnet module (telnet_conn), which wraps libtelnet. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "telnet_conn.h"
#include "tnfilter.h"

#define IAC "\xff"
#define SB "\xfa"
#define SE "\xf0"
#define WILL "\xfb"
#define DO "\xfd"
#define WONT "\xfc"
#define DONT "\xfe"
#define NOP "\xf1"
#define NAWS "\x1f"
#define TTYPE "\x18"
#define MSSP "\x46"
#define COMPRESS2 "\x56"
#define ENVIRON "\x24"
#define NEW_ENVIRON "\x27"
#define ZMP "\x5d"
#define S(lit) (const unsigned char *)(lit), sizeof(lit) - 1

/* Filters in[0..len) split at the given points (one filter, several calls)
 * into out. Returns the total length, or -1 if a call failed. Checks the
 * documented output bound on every call. */
static long filter_split(const unsigned char *in, size_t len,
                         const size_t *cuts, int ncuts, unsigned char *out)
{
    tnfilter_t f;
    size_t at = 0, o = 0;
    tnfilter_init(&f);
    for (int i = 0; i <= ncuts; i++) {
        size_t end = i < ncuts ? cuts[i] : len;
        long m = tnfilter_feed(&f, in + at, end - at, out + o,
                               end - at + TNFILTER_HELD_MAX);
        if (m < 0)
            return -1;
        if ((size_t)m > end - at + TNFILTER_HELD_MAX)
            ck_abort_msg("%ld bytes out of %zu in", m, end - at);
        o += (size_t)m;
        at = end;
    }
    return (long)o;
}

static long filter_all(const unsigned char *in, size_t len, unsigned char *out)
{
    return filter_split(in, len, NULL, 0, out);
}

/* in, filtered whole, byte by byte and split at every one and every two
 * points, must give exactly want. */
static void check_every_split(const char *what, const unsigned char *in,
                              size_t len, const unsigned char *want,
                              size_t wantlen)
{
    static unsigned char out[4096];
    static size_t cuts[4096];
    long m;
    ck_assert(len < sizeof cuts);

    m = filter_all(in, len, out);
    ck_assert_msg(m == (long)wantlen && !memcmp(out, want, wantlen),
                  "%s whole: %ld bytes, want %zu", what, m, wantlen);
    for (size_t k = 1; k < len; k++)
        cuts[k - 1] = k;
    m = filter_split(in, len, cuts, (int)len - 1, out);
    ck_assert_msg(m == (long)wantlen && !memcmp(out, want, wantlen),
                  "%s byte by byte: %ld bytes, want %zu", what, m, wantlen);
    for (size_t a = 1; a < len; a++) {
        for (size_t b = a; b < len; b++) {
            size_t c2[2] = { a, b };
            m = filter_split(in, len, c2, 2, out);
            if (m != (long)wantlen || memcmp(out, want, wantlen))
                ck_abort_msg("%s split at %zu,%zu: %ld bytes, want %zu", what,
                             a, b, m, wantlen);
        }
    }
}

START_TEST(test_plain_data)
{
    unsigned char in[255], out[257];
    for (int i = 0; i < 255; i++)
        in[i] = (unsigned char)i; /* every byte but IAC */
    ck_assert_int_eq(filter_all(in, sizeof in, out), 255);
    ck_assert(!memcmp(in, out, sizeof in));
}
END_TEST

START_TEST(test_iac_iac_and_commands)
{
    /* IAC IAC (a data byte 255), commands and negotiations pass as they are,
     * including an option byte of 255 and IAC SE outside a subnegotiation */
    static const char s[] = "a" IAC IAC "b" IAC NOP IAC WILL NAWS IAC DO IAC
                            "c" IAC SE "d" IAC IAC;
    check_every_split("commands", S(s), (const unsigned char *)s, sizeof s - 1);
}
END_TEST

START_TEST(test_mssp_dropped)
{
    static const char s[] = "x" IAC SB MSSP "\x01NAME\x02rogue" IAC SE "y";
    check_every_split("mssp", S(s), S("xy"));
    /* escaped IAC inside, and an escaped IAC followed by SE (data, not end) */
    static const char s2[] = IAC SB MSSP "\x01" IAC IAC SE "\x02v" IAC SE "z";
    check_every_split("mssp iac", S(s2), S("z"));
    /* empty, and one straight after another */
    static const char s3[] = IAC SB MSSP IAC SE IAC SB MSSP "\x01" IAC SE "k";
    check_every_split("mssp twice", S(s3), S("k"));
    /* ended by IAC <command>: the command is kept, as libtelnet reads it */
    static const char s4[] = IAC SB MSSP "\x01" IAC WILL NAWS "q";
    check_every_split("mssp cut", S(s4), S(IAC WILL NAWS "q"));
    /* cut short by a NAWS subnegotiation, which passes */
    static const char s5[] = IAC SB MSSP "\x01" IAC SB NAWS "\0P\0\x18" IAC SE;
    check_every_split("mssp then naws", S(s5), S(IAC SB NAWS "\0P\0\x18" IAC SE));
}
END_TEST

START_TEST(test_compress2_dropped)
{
    static const char s[] = "a" IAC SB COMPRESS2 IAC SE "b";
    check_every_split("compress2", S(s), S("ab"));
}
END_TEST

START_TEST(test_environ_zmp_dropped)
{
    static const char s[] = "a" IAC SB NEW_ENVIRON "\0\0USER\1x" IAC SE "b";
    check_every_split("new-environ", S(s), S("ab"));
    static const char t[] = IAC SB ENVIRON "\1" IAC SE "c";
    check_every_split("environ", S(t), S("c"));
    static const char u[] = IAC SB ZMP "zmp.ping\0" IAC SE "d";
    check_every_split("zmp", S(u), S("d"));
    /* ended by IAC <command>: the command passes, with no subnegotiation
     * around it for libtelnet to skip it after */
    static const char v[] = IAC SB NEW_ENVIRON "\0" IAC "A" "e";
    check_every_split("new-environ cut", S(v), S(IAC "A" "e"));
}
END_TEST

START_TEST(test_other_sb_passed)
{
    /* NAWS 255 x 40: the 255 is escaped as IAC IAC, and passes as it is */
    static const char s[] = "h" IAC SB NAWS "\0" IAC IAC "\0\x28" IAC SE "i";
    check_every_split("naws", S(s), (const unsigned char *)s, sizeof s - 1);
    static const char t[] = IAC SB TTYPE "\0xterm-256color" IAC SE;
    check_every_split("ttype", S(t), (const unsigned char *)t, sizeof t - 1);
    /* a NAWS cut short by IAC <command> passes as it is */
    static const char u[] = IAC SB NAWS "\0P" IAC WILL TTYPE;
    check_every_split("naws cut", S(u), (const unsigned char *)u, sizeof u - 1);
}
END_TEST

START_TEST(test_naws_cut_by_mssp)
{
    /* libtelnet ends the NAWS at "IAC SB"; the MSSP is dropped and its end
     * ends the NAWS instead */
    static const char s[] = IAC SB NAWS "\0P\0\x18" IAC SB MSSP "\x01n\x02v"
                            IAC SE "ok";
    check_every_split("naws+mssp", S(s),
                      S(IAC SB NAWS "\0P\0\x18" IAC SE "ok"));
    static const char t[] = IAC SB NAWS "\0P\0\x18" IAC SB MSSP "\x01" IAC NOP;
    check_every_split("naws+mssp+nop", S(t),
                      S(IAC SB NAWS "\0P\0\x18" IAC NOP));
}
END_TEST

START_TEST(test_oversize)
{
    static unsigned char in[2048], out[2048 + 2];
    tnfilter_t f;
    size_t n;
    /* exactly TNFILTER_SB_MAX data bytes: fine */
    n = 0;
    memcpy(in, IAC SB TTYPE, 3);
    n = 3;
    memset(in + n, 'a', TNFILTER_SB_MAX);
    n += TNFILTER_SB_MAX;
    memcpy(in + n, IAC SE, 2);
    n += 2;
    ck_assert_int_eq(filter_all(in, n, out), (long)n);
    /* one more: the session must close */
    in[n - 2] = 'a';
    ck_assert_int_eq(filter_all(in, n - 1, out), -1);
    /* escaped IACs count once each, and MSSP is capped too */
    for (int opt = 0; opt < 2; opt++) {
        n = 0;
        memcpy(in, opt ? IAC SB MSSP : IAC SB NAWS, 3);
        n = 3;
        for (int i = 0; i < TNFILTER_SB_MAX; i++) {
            in[n++] = 0xff;
            in[n++] = 0xff;
        }
        tnfilter_init(&f);
        ck_assert_int_ge(tnfilter_feed(&f, in, n, out, sizeof out), 0);
        ck_assert_int_eq(tnfilter_feed(&f, S("x"), out, sizeof out), -1);
        /* and it stays failed */
        ck_assert_int_eq(tnfilter_feed(&f, S("y"), out, sizeof out), -1);
    }
    /* byte by byte: fails on the first byte past the cap */
    tnfilter_init(&f);
    ck_assert_int_eq(tnfilter_feed(&f, S(IAC SB NAWS), out, sizeof out), 3);
    for (int i = 0; i < TNFILTER_SB_MAX; i++)
        ck_assert_int_eq(tnfilter_feed(&f, S("z"), out, sizeof out), 1);
    ck_assert_int_eq(tnfilter_feed(&f, S("z"), out, sizeof out), -1);
    /* too small an output buffer is refused (and the filter stays failed) */
    tnfilter_init(&f);
    ck_assert_int_eq(tnfilter_feed(&f, S("abc"), out, 5), 3);
    ck_assert_int_eq(tnfilter_feed(&f, S("abc"), out, 4), -1);
    ck_assert_int_eq(tnfilter_feed(&f, S("abc"), out, 5), -1);
}
END_TEST

START_TEST(test_held_iac)
{
    unsigned char out[16];
    tnfilter_t f;
    tnfilter_init(&f);
    /* a trailing IAC or IAC SB is held until the next byte says what it is */
    ck_assert_int_eq(tnfilter_feed(&f, S("a" IAC), out, sizeof out), 1);
    ck_assert_int_eq(tnfilter_feed(&f, S(SB), out, sizeof out), 0);
    ck_assert_int_eq(tnfilter_feed(&f, S(NAWS), out, sizeof out), 3);
    ck_assert(!memcmp(out, IAC SB NAWS, 3));
    ck_assert_int_eq(tnfilter_feed(&f, S(IAC), out, sizeof out), 0);
    ck_assert_int_eq(tnfilter_feed(&f, S(SE), out, sizeof out), 2);
    ck_assert(!memcmp(out, IAC SE, 2));
}
END_TEST

/* --- through the server's telnet module (telnet_conn) -------------------------- */

typedef struct tnlog {
    tconn_t tc;
    int nresize, w, h;
    char data[256];
    size_t datalen;
} tnlog_t;

static void on_data(void *ctx, const char *bytes, size_t n)
{
    tnlog_t *l = ctx;
    if (l->datalen + n <= sizeof l->data) {
        memcpy(l->data + l->datalen, bytes, n);
        l->datalen += n;
    }
}

static void on_resize(void *ctx, int w, int h)
{
    tnlog_t *l = ctx;
    l->nresize++;
    l->w = w;
    l->h = h;
}

static const tconn_cb_t log_cb = { on_data, NULL, NULL, on_resize };

/* Feeds in (split at cut, 0 for none) to a fresh telnet_conn, as a session
 * does; l->tc keeps what it learned (freed here: its telnet_t only). */
static void through_conn(const unsigned char *in, size_t len, size_t cut,
                         tnlog_t *l)
{
    memset(l, 0, sizeof *l);
    ck_assert_int_eq(tconn_init(&l->tc, &log_cb, l, 500, 200), 0);
    size_t parts[2][2] = { { 0, cut ? cut : len }, { cut ? cut : len, len } };
    for (int i = 0; i < 2; i++)
        tconn_feed(&l->tc, in + parts[i][0], parts[i][1] - parts[i][0]);
    tconn_free(&l->tc);
}

START_TEST(test_libtelnet_naws_and_mssp)
{
    static const char s[] = IAC WILL NAWS
        IAC SB MSSP "\x01NAME\x02x" IAC SE
        IAC SB NAWS "\0\x78\0\x28" IAC SE
        IAC SB MSSP "\x01PLAYERS\x02" "3" IAC SE
        IAC SB COMPRESS2 IAC SE
        "hello";
    tnlog_t l;
    for (size_t cut = 0; cut < sizeof s - 1; cut++) {
        through_conn(S(s), cut, &l);
        ck_assert_uint_eq(l.tc.subs, 1);
        ck_assert_int_eq(l.nresize, 1);
        ck_assert_int_eq(l.w, 120);
        ck_assert_int_eq(l.h, 40);
        ck_assert_uint_eq(l.tc.bad_subs, 0);
        ck_assert_ptr_null(l.tc.error);
        ck_assert_uint_eq(l.datalen, 5);
        ck_assert(!memcmp(l.data, "hello", 5));
    }
}
END_TEST

START_TEST(test_libtelnet_escaped_naws_and_ttype)
{
    static const char s[] = IAC SB NAWS "\0" IAC IAC "\0\x1e" IAC SE
        IAC SB TTYPE "\0XTERM-256COLOR" IAC SE;
    tnlog_t l;
    through_conn(S(s), 0, &l);
    ck_assert_uint_eq(l.tc.subs, 2);
    ck_assert_str_eq(l.tc.ttype, "XTERM-256COLOR");
    ck_assert_int_eq(l.w, 255); /* un-escaped */
    ck_assert_int_eq(l.h, 30);
}
END_TEST

START_TEST(test_libtelnet_naws_cut_by_mssp)
{
    static const char s[] = IAC SB NAWS "\0P\0\x18" IAC SB MSSP "\x01n\x02v"
                            IAC SE "ok";
    tnlog_t l;
    for (size_t cut = 0; cut < sizeof s - 1; cut++) {
        through_conn(S(s), cut, &l);
        ck_assert_uint_eq(l.tc.subs, 1);
        ck_assert_int_eq(l.w, 80);
        ck_assert_int_eq(l.h, 24);
        ck_assert_uint_eq(l.tc.bad_subs, 0);
        ck_assert_uint_eq(l.datalen, 2);
        ck_assert(!memcmp(l.data, "ok", 2));
    }
}
END_TEST

/* libtelnet 0.21 skips the command byte after a NEW-ENVIRON cut short by
 * IAC <command>; unfiltered, this hands it an MSSP subnegotiation. */
START_TEST(test_libtelnet_environ_smuggle)
{
    static const char s[] = IAC SB NEW_ENVIRON "\0" IAC "A" SB MSSP
                            "\x01x\x02y" IAC SE "z";
    static const char e[] = IAC SB ENVIRON "\0" IAC "A" SB MSSP
                            "\x01x\x02y" IAC SE "z";
    tnlog_t l;
    for (size_t cut = 0; cut < sizeof s - 1; cut++) {
        through_conn(S(s), cut, &l);
        ck_assert_uint_eq(l.tc.bad_subs + l.tc.subs, 0);
        through_conn(S(e), cut, &l);
        ck_assert_uint_eq(l.tc.bad_subs + l.tc.subs, 0);
    }
}
END_TEST

/* Unfiltered, ~7000 NEW-ENVIRON subnegotiations in one read overflow
 * libtelnet 0.21's stack (it re-enters telnet_recv after each): a 64 KiB
 * read of them must be harmless after the filter. */
START_TEST(test_libtelnet_many_environ)
{
    static unsigned char in[65536], out[65536 + 2];
    static const unsigned char one[6] = { 0xff, 0xfa, 39, 0, 0xff, 0xf0 };
    size_t n = 0;
    tnfilter_t f;
    tnlog_t l;
    while (n + sizeof one <= sizeof in) {
        memcpy(in + n, one, sizeof one);
        n += sizeof one;
    }
    tnfilter_init(&f);
    ck_assert_int_eq(tnfilter_feed(&f, in, n, out, sizeof out), 0);
    through_conn(in, n, 0, &l);
    ck_assert_uint_eq(l.tc.subs + l.tc.bad_subs, 0);
    ck_assert_ptr_null(l.tc.error);
}
END_TEST

/* The refusals a tap was told, as "cmd opt" pairs of bytes. */
typedef struct refusals {
    unsigned char seen[16];
    int n;
} refusals_t;

static void on_refused(void *ctx, unsigned char cmd, unsigned char opt)
{
    refusals_t *r = ctx;
    if (r->n + 2 <= (int)sizeof r->seen) {
        r->seen[r->n++] = cmd;
        r->seen[r->n++] = opt;
    }
}

static void on_tapped(void *ctx, const unsigned char *data, size_t len)
{
    (void)ctx;
    (void)data;
    (void)len;
}

/* Each WONT and DONT is told once, with its option, however the bytes
 * are split; WILL and DO are not, nor 252 or 254 inside a
 * subnegotiation's data; and the bytes pass unchanged. */
START_TEST(test_refusals_told)
{
    static const unsigned char in[] =
        IAC WILL TTYPE IAC WONT NAWS IAC SB TTYPE "\xfc\x1f" IAC SE
        IAC DO NAWS IAC DONT "\x01" IAC IAC "\xfc" IAC WONT TTYPE;
    static const unsigned char want[] = { 0xfc, 0x1f, 0xfe, 0x01, 0xfc, 0x18 };
    for (size_t cut = 0; cut <= sizeof in - 1; cut++) {
        refusals_t r = { .n = 0 };
        tnfilter_tap_t tap = { .opt = 39, .fn = on_tapped,
                               .refused = on_refused, .ctx = &r };
        tnfilter_t f;
        tnfilter_init(&f);
        tnfilter_set_tap(&f, &tap);
        unsigned char out[sizeof in + 2 * TNFILTER_HELD_MAX];
        long a = tnfilter_feed(&f, in, cut, out, cut + TNFILTER_HELD_MAX);
        long b = tnfilter_feed(&f, in + cut, sizeof in - 1 - cut, out + a,
                               sizeof in - 1 - cut + TNFILTER_HELD_MAX);
        ck_assert_int_eq(a + b, (long)sizeof in - 1);
        ck_assert(memcmp(out, in, sizeof in - 1) == 0);
        ck_assert_msg(r.n == (int)sizeof want &&
                      memcmp(r.seen, want, sizeof want) == 0,
                      "cut at %zu: %d bytes told", cut, r.n);
    }
}
END_TEST

static unsigned int lcg(unsigned int *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

/* Random streams rich in telnet syntax, in random pieces: the same output
 * as in one piece, never more than len + 2 per call, and libtelnet never
 * sees a subnegotiation of a dropped option. */
START_TEST(test_random_streams)
{
    static const unsigned char alpha[] = {
        0xff, 0xff, 0xff, 0xff, 0xfa, 0xfa, 0xf0, 0xf0, 0xfb, 0xfd, 0xf1,
        70, 70, 86, 31, 24, 36, 39, 93, 0, 1, 2, 'a',
    };
    static unsigned char in[800], whole[1024], parts[1024];
    unsigned int seed = 3;
    for (int round = 0; round < 5000; round++) {
        size_t len = 1 + lcg(&seed) % sizeof in;
        size_t cuts[800];
        int ncuts = 0;
        for (size_t i = 0; i < len; i++)
            in[i] = alpha[lcg(&seed) % sizeof alpha];
        for (size_t at = 1 + lcg(&seed) % 7; at < len; at += 1 + lcg(&seed) % 7)
            cuts[ncuts++] = at;
        long a = filter_all(in, len, whole);
        long b = filter_split(in, len, cuts, ncuts, parts);
        ck_assert_int_eq(a, b);
        if (a > 0 && memcmp(whole, parts, (size_t)a))
            ck_abort_msg("round %d: split output differs", round);
        tnlog_t l;
        through_conn(in, len, 0, &l);
        if (l.tc.bad_subs)
            ck_abort_msg("round %d: a dropped option reached libtelnet", round);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("tnfilter");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_plain_data);
    tcase_add_test(tc, test_iac_iac_and_commands);
    tcase_add_test(tc, test_mssp_dropped);
    tcase_add_test(tc, test_compress2_dropped);
    tcase_add_test(tc, test_environ_zmp_dropped);
    tcase_add_test(tc, test_other_sb_passed);
    tcase_add_test(tc, test_naws_cut_by_mssp);
    tcase_add_test(tc, test_oversize);
    tcase_add_test(tc, test_held_iac);
    tcase_add_test(tc, test_libtelnet_naws_and_mssp);
    tcase_add_test(tc, test_libtelnet_escaped_naws_and_ttype);
    tcase_add_test(tc, test_libtelnet_naws_cut_by_mssp);
    tcase_add_test(tc, test_libtelnet_environ_smuggle);
    tcase_add_test(tc, test_libtelnet_many_environ);
    tcase_add_test(tc, test_random_streams);
    tcase_add_test(tc, test_refusals_told);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
