/* test_telnet_caps.c - what the server learns of a telnet client's display
 * (telnet_conn: TTYPE rounds with their MTTS bits, NEW-ENVIRON through
 * tnfilter's tap and our own parser) and the display it makes of it
 * (docs/telnet.md, "What the client can show"). The module is fed bytes as
 * a client sends them; what it answers is read back from its send
 * callback. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "telnet_conn.h"

#define IAC "\xff"
#define SB "\xfa"
#define SE "\xf0"
#define WILL "\xfb"
#define WONT "\xfc"
#define DO "\xfd"
#define DONT "\xfe"
#define NOP "\xf1"
#define ECHO "\x01"
#define NAWS "\x1f"
#define TTYPE "\x18"
#define NEW_ENVIRON "\x27"
/* NEW-ENVIRON codes (RFC 1572) */
#define IS "\x00"
#define INFO "\x02"
#define VAR "\x00"
#define VALUE "\x01"
#define ESC "\x02"
#define USERVAR "\x03"
#define S(lit) (lit), sizeof(lit) - 1

typedef struct conn {
    tconn_t tc;
    char sent[4096];           /* what the server sent, in order */
    size_t sentlen;
} conn_t;

static void on_send(void *ctx, const char *bytes, size_t n)
{
    conn_t *c = ctx;
    ck_assert_uint_le(c->sentlen + n, sizeof c->sent);
    memcpy(c->sent + c->sentlen, bytes, n);
    c->sentlen += n;
}

static const tconn_cb_t cb = { NULL, on_send, NULL, NULL };

static void open_conn(conn_t *c)
{
    memset(c, 0, sizeof *c);
    ck_assert_int_eq(tconn_init(&c->tc, &cb, c, 250, 100), 0);
    tconn_start(&c->tc);
}

static void feed(conn_t *c, const char *bytes, size_t n)
{
    ck_assert_int_eq(tconn_feed(&c->tc, bytes, n), 0);
}

/* How many times needle[0..n) occurs in what the server sent. */
static int sent_count(const conn_t *c, const char *needle, size_t n)
{
    int k = 0;
    for (size_t i = 0; i + n <= c->sentlen; i++)
        k += memcmp(c->sent + i, needle, n) == 0;
    return k;
}

static int ttype_asks(const conn_t *c)
{
    return sent_count(c, S(IAC SB TTYPE "\x01" IAC SE));
}

/* One TTYPE answer: IAC SB TTYPE IS name IAC SE. */
static void answer_ttype(conn_t *c, const char *name)
{
    char b[128];
    int n = snprintf(b, sizeof b, IAC SB TTYPE "%c%s" IAC SE, 0, name);
    feed(c, b, (size_t)n);
}

/* The usual answers to our opening, then the TTYPE names one round each
 * (each only after the server asked for it). */
static void client_says(conn_t *c, const char *const *names, int n)
{
    feed(c, S(IAC DO ECHO IAC WILL NAWS IAC SB NAWS "\0\x50\0\x18" IAC SE
              IAC WILL TTYPE));
    for (int i = 0; i < n; i++) {
        if (ttype_asks(c) != i + 1)
            return; /* the server stopped asking */
        answer_ttype(c, names[i]);
    }
}

static void check_display(const conn_t *c, int glyphs, int colours)
{
    display_t d = tconn_display(&c->tc);
    ck_assert_int_eq(d.glyphs, glyphs);
    ck_assert_int_eq(d.colours, colours);
}

START_TEST(test_nothing_said_is_plain)
{
    conn_t c;
    open_conn(&c);
    /* A refusal of what we asked answers it: libtelnet raises no event
     * for one (docs/telnet.md, pitfall 2), tnfilter tells it, so the
     * negotiation ends with the last answer, not at the deadline. */
    feed(&c, S(IAC DO ECHO IAC WONT NAWS));
    ck_assert(!tconn_negotiated(&c.tc)); /* TTYPE not answered yet */
    feed(&c, S(IAC WONT TTYPE));
    ck_assert(tconn_negotiated(&c.tc));
    check_display(&c, GLYPHS_ASCII, COLOURS_16);
    ck_assert_int_eq(c.tc.caps->nttypes, 0);
    /* no question we did not ask before: NEW-ENVIRON only when offered */
    ck_assert_int_eq(sent_count(&c, S(IAC DO NEW_ENVIRON)), 0);
    tconn_free(&c.tc);

    open_conn(&c); /* DONT ECHO answers ECHO; WONT TTYPE cut in two */
    feed(&c, S(IAC DONT ECHO IAC WONT NAWS IAC WONT));
    ck_assert(!tconn_negotiated(&c.tc));
    feed(&c, S(TTYPE));
    ck_assert(tconn_negotiated(&c.tc));
    tconn_free(&c.tc);

    open_conn(&c); /* a raw client (nc): no telnet at all */
    feed(&c, S("hello"));
    ck_assert(!tconn_negotiated(&c.tc)); /* the deadline ends it */
    check_display(&c, GLYPHS_ASCII, COLOURS_16);
    tconn_free(&c.tc);
}
END_TEST

START_TEST(test_xterm_256color)
{
    /* inetutils telnet: one name, repeated when asked again */
    static const char *const names[] = { "XTERM-256COLOR", "XTERM-256COLOR" };
    conn_t c;
    open_conn(&c);
    client_says(&c, names, 2);
    ck_assert_int_eq(ttype_asks(&c), 2);
    ck_assert(tconn_negotiated(&c.tc));
    ck_assert_int_eq(c.tc.caps->nttypes, 1);
    ck_assert_str_eq(c.tc.ttype, "XTERM-256COLOR");
    check_display(&c, GLYPHS_ASCII, COLOURS_256);
    tconn_free(&c.tc);
}
END_TEST

START_TEST(test_mtts_rounds)
{
    /* A MUD client: its name, its terminal, then MTTS, repeated. 2825 is
     * 2048 SSL + 512 MNES + 256 truecolor + 8 256 colours + 1 ANSI: no
     * UTF-8 bit (4). 2829 has it. */
    static const char *const m2825[] = { "MUDLET", "XTERM", "MTTS 2825",
                                         "MTTS 2825" };
    static const char *const m2829[] = { "TINTIN++", "XTERM-256COLOR",
                                         "MTTS 2829", "MTTS 2829" };
    conn_t c;
    open_conn(&c);
    client_says(&c, m2825, 4);
    ck_assert_int_eq(ttype_asks(&c), 4); /* three rounds used to be all */
    ck_assert(tconn_negotiated(&c.tc));
    ck_assert_int_eq(c.tc.caps->nttypes, 3);
    ck_assert_str_eq(c.tc.caps->ttypes[2], "MTTS 2825");
    ck_assert_str_eq(c.tc.ttype, "MUDLET"); /* the first names the terminal */
    check_display(&c, GLYPHS_ASCII, COLOURS_TRUE);
    tconn_free(&c.tc);

    open_conn(&c);
    client_says(&c, m2829, 4);
    ck_assert(tconn_negotiated(&c.tc));
    check_display(&c, GLYPHS_UTF8, COLOURS_TRUE);
    tconn_free(&c.tc);
}
END_TEST

START_TEST(test_names)
{
    static const struct { const char *name; int glyphs, colours; } t[] = {
        { "XTERM", GLYPHS_ASCII, COLOURS_16 },
        { "ANSI", GLYPHS_ASCII, COLOURS_16 },
        { "VT100", GLYPHS_ASCII, COLOURS_16 },
        { "xterm-256color", GLYPHS_ASCII, COLOURS_256 },
        { "SCREEN-256COLOR", GLYPHS_ASCII, COLOURS_256 },
        { "xterm-direct", GLYPHS_ASCII, COLOURS_TRUE },
        { "ANSI-TRUECOLOR", GLYPHS_ASCII, COLOURS_TRUE },
        { "konsole-24bit", GLYPHS_ASCII, COLOURS_TRUE },
        { "MTTS 8", GLYPHS_ASCII, COLOURS_256 },
        { "MTTS 13", GLYPHS_UTF8, COLOURS_256 },
        { "MTTS 5", GLYPHS_UTF8, COLOURS_16 },
        { "MTTS 256", GLYPHS_ASCII, COLOURS_TRUE },
        { "mtts 2829", GLYPHS_UTF8, COLOURS_TRUE },
        { "MTTS", GLYPHS_ASCII, COLOURS_16 },
        { "MTTS x", GLYPHS_ASCII, COLOURS_16 },
        { "MTTS 12x", GLYPHS_ASCII, COLOURS_16 },
        { "MTTS 99999999999999999999", GLYPHS_ASCII, COLOURS_16 },
        { "", GLYPHS_ASCII, COLOURS_16 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        display_t d = tconn_display_of_name(t[i].name);
        ck_assert_msg(d.glyphs == t[i].glyphs && d.colours == t[i].colours,
                      "%s: glyphs %d colours %d", t[i].name, d.glyphs,
                      d.colours);
    }
}
END_TEST

START_TEST(test_ttype_rounds_bounded)
{
    /* A client that never repeats itself is asked TCONN_TTYPES_MAX times. */
    conn_t c;
    open_conn(&c);
    feed(&c, S(IAC DO ECHO IAC WONT NAWS IAC WILL TTYPE));
    char name[32];
    for (int i = 0; i < 3 * TCONN_TTYPES_MAX && !c.tc.ttype_done; i++) {
        snprintf(name, sizeof name, "NAME%d", i);
        answer_ttype(&c, name);
    }
    ck_assert(c.tc.ttype_done);
    ck_assert_int_eq(ttype_asks(&c), TCONN_TTYPES_MAX);
    ck_assert_int_eq(c.tc.caps->nttypes, TCONN_TTYPES_MAX);
    ck_assert_str_eq(c.tc.caps->ttypes[TCONN_TTYPES_MAX - 1], "NAME7");
    /* a client that starts over at its first name ends the list too */
    tconn_free(&c.tc);
    static const char *const cycle[] = { "A", "B", "C", "A" };
    open_conn(&c);
    client_says(&c, cycle, 4);
    ck_assert(c.tc.ttype_done);
    ck_assert_int_eq(ttype_asks(&c), 4);
    ck_assert_int_eq(c.tc.caps->nttypes, 3);
    tconn_free(&c.tc);

    /* a long name is cut, and control bytes are dropped */
    open_conn(&c);
    feed(&c, S(IAC WILL TTYPE));
    feed(&c, S(IAC SB TTYPE "\0XTERM\x1b[2J-256COLOR-and-a-very-long-tail-"
               "that-goes-on" IAC SE));
    ck_assert_int_eq(strlen(c.tc.caps->ttypes[0]), TCONN_NAME_MAX - 1);
    ck_assert(strncmp(c.tc.caps->ttypes[0], "XTERM[2J-256COLOR", 17) == 0);
    tconn_free(&c.tc);
}
END_TEST

START_TEST(test_new_environ)
{
    static const char *const vt100[] = { "VT100", "VT100" };
    conn_t c;
    open_conn(&c);
    client_says(&c, vt100, 2);
    ck_assert(tconn_negotiated(&c.tc));
    feed(&c, S(IAC WILL NEW_ENVIRON));
    /* agreed, and asked in one small request */
    ck_assert_int_eq(sent_count(&c, S(IAC DO NEW_ENVIRON)), 1);
    ck_assert_int_eq(sent_count(&c, S(IAC SB NEW_ENVIRON "\x01" VAR "CHARSET"
        USERVAR "TERM" USERVAR "COLORTERM" USERVAR "LANG" USERVAR "LC_ALL"
        USERVAR "LC_CTYPE" IAC SE)), 1);
    ck_assert(!tconn_negotiated(&c.tc)); /* the answer is awaited */
    /* split anywhere, the answer is the same */
    static const char ans[] = IAC SB NEW_ENVIRON IS USERVAR "COLORTERM" VALUE
        "truecolor" USERVAR "LANG" VALUE "en_US.UTF-8" VAR "USER" VALUE "bob"
        IAC SE;
    for (size_t cut = 0; cut < sizeof ans - 1; cut++) {
        conn_t d;
        open_conn(&d);
        client_says(&d, vt100, 2);
        feed(&d, S(IAC WILL NEW_ENVIRON));
        unsigned long subs = d.tc.subs;
        feed(&d, ans, cut);
        feed(&d, ans + cut, sizeof ans - 1 - cut);
        ck_assert(tconn_negotiated(&d.tc));
        ck_assert_str_eq(d.tc.caps->env_colorterm, "truecolor");
        ck_assert_str_eq(d.tc.caps->env_lang, "en_US.UTF-8");
        check_display(&d, GLYPHS_UTF8, COLOURS_TRUE);
        ck_assert_uint_eq(d.tc.subs, subs); /* libtelnet parsed none of it */
        tconn_free(&d.tc);
    }
    /* a refusal ends the wait too */
    feed(&c, S(IAC WONT NEW_ENVIRON));
    ck_assert(tconn_negotiated(&c.tc));
    check_display(&c, GLYPHS_ASCII, COLOURS_16);
    tconn_free(&c.tc);
}
END_TEST

START_TEST(test_new_environ_values)
{
    conn_t c;
    open_conn(&c);
    /* LC_ALL wins over LANG, as in the C library: no UTF-8 */
    tconn_environ(&c.tc, (const unsigned char *)S(IS USERVAR "LANG" VALUE
        "en_US.UTF-8" USERVAR "LC_ALL" VALUE "C"));
    check_display(&c, GLYPHS_ASCII, COLOURS_16);
    /* LC_CTYPE before LANG; TERM as a TTYPE name; COLORTERM=24bit */
    memset(c.tc.caps->env_lc_all, 0, sizeof c.tc.caps->env_lc_all);
    tconn_environ(&c.tc, (const unsigned char *)S(INFO USERVAR "LC_CTYPE"
        VALUE "C.utf8" USERVAR "TERM" VALUE "xterm-256color"));
    check_display(&c, GLYPHS_UTF8, COLOURS_256);
    tconn_environ(&c.tc, (const unsigned char *)S(IS USERVAR "COLORTERM" VALUE
        "24bit"));
    check_display(&c, GLYPHS_UTF8, COLOURS_TRUE);
    tconn_free(&c.tc);

    /* MNES's CHARSET; ESC makes a code byte plain */
    open_conn(&c);
    tconn_environ(&c.tc, (const unsigned char *)S(IS VAR "CHAR" ESC "\x01"
        "SET" VALUE "x" VAR "CHARSET" VALUE "UTF-8"));
    ck_assert_str_eq(c.tc.caps->env_charset, "UTF-8");
    check_display(&c, GLYPHS_UTF8, COLOURS_16);
    tconn_free(&c.tc);

    /* malformed: no VALUE, two VALUEs, a trailing ESC, a SEND, a name too
     * long to be ours, values cut to their room and kept printable */
    open_conn(&c);
    tconn_environ(&c.tc, (const unsigned char *)S(IS USERVAR "COLORTERM"
        USERVAR "LANG" VALUE "a" VALUE "UTF-8" USERVAR "LC_CTYPE" VALUE
        "UTF-8" ESC));
    check_display(&c, GLYPHS_ASCII, COLOURS_16);
    tconn_environ(&c.tc, (const unsigned char *)S("\x01" USERVAR "COLORTERM"
        VALUE "truecolor"));
    ck_assert_str_eq(c.tc.caps->env_colorterm, "");
    char big[300];
    size_t n = 0;
    big[n++] = 0; /* IS */
    big[n++] = 3; /* USERVAR */
    memcpy(big + n, "TERM", 4);
    n += 4;
    big[n++] = 1; /* VALUE */
    for (int i = 0; i < 200; i++)
        big[n++] = (char)(i % 3 ? 'x' : '\x7f');
    tconn_environ(&c.tc, (const unsigned char *)big, n);
    ck_assert_uint_eq(strlen(c.tc.caps->env_term), TCONN_ENV_MAX - 1);
    ck_assert(strspn(c.tc.caps->env_term, "x") == TCONN_ENV_MAX - 1);
    memset(big + 1, 3, sizeof big - 1); /* only names, each empty */
    tconn_environ(&c.tc, (const unsigned char *)big, sizeof big);
    memset(big + 1, 'T', sizeof big - 1); /* bytes before any variable */
    tconn_environ(&c.tc, (const unsigned char *)big, sizeof big);
    tconn_environ(&c.tc, (const unsigned char *)"", 0);
    tconn_free(&c.tc);
}
END_TEST

START_TEST(test_new_environ_cut_short)
{
    /* A NEW-ENVIRON subnegotiation ended by a command instead of IAC SE is
     * not read (tnfilter hands over only whole ones); the command is. */
    conn_t c;
    open_conn(&c);
    feed(&c, S(IAC WILL NEW_ENVIRON IAC SB NEW_ENVIRON IS USERVAR "COLORTERM"
               VALUE "truecolor" IAC NOP
               IAC SB NEW_ENVIRON IS USERVAR "LANG" VALUE "C.UTF-8" IAC SE));
    ck_assert_str_eq(c.tc.caps->env_colorterm, "");
    ck_assert_str_eq(c.tc.caps->env_lang, "C.UTF-8");
    ck_assert_uint_eq(c.tc.bad_subs, 0);
    /* one over TNFILTER_SB_MAX bytes ends the connection, as any would */
    char big[TNFILTER_SB_MAX + 16];
    memset(big, 'x', sizeof big);
    memcpy(big, IAC SB NEW_ENVIRON IS USERVAR, 5);
    ck_assert_int_eq(tconn_feed(&c.tc, big, sizeof big), -1);
    ck_assert_ptr_nonnull(c.tc.error);
    tconn_free(&c.tc);
}
END_TEST

START_TEST(test_settle)
{
    /* Settled: the display and the names stay, the rest is freed, and
     * nothing said later changes them. */
    static const char *const m2829[] = { "MUDLET", "XTERM-256COLOR",
                                         "MTTS 2829", "MTTS 2829" };
    conn_t c;
    open_conn(&c);
    client_says(&c, m2829, 4);
    display_t d = tconn_settle(&c.tc);
    ck_assert_ptr_null(c.tc.caps);
    ck_assert_int_eq(d.glyphs, GLYPHS_UTF8);
    ck_assert_int_eq(d.colours, COLOURS_TRUE);
    ck_assert_str_eq(c.tc.ttype, "MUDLET");
    check_display(&c, GLYPHS_UTF8, COLOURS_TRUE);
    feed(&c, S(IAC WILL NEW_ENVIRON IAC SB NEW_ENVIRON IS USERVAR "LANG"
               VALUE "C" IAC SE));
    ck_assert_int_eq(sent_count(&c, S(IAC SB NEW_ENVIRON "\x01")), 0);
    answer_ttype(&c, "VT100");
    d = tconn_settle(&c.tc);
    ck_assert_int_eq(d.glyphs, GLYPHS_UTF8);
    ck_assert_int_eq(d.colours, COLOURS_TRUE);
    tconn_free(&c.tc);

    /* one name; none: plain */
    static const char *const one[] = { "XTERM-256COLOR", "XTERM-256COLOR" };
    open_conn(&c);
    client_says(&c, one, 2);
    d = tconn_settle(&c.tc);
    ck_assert_str_eq(c.tc.ttype, "XTERM-256COLOR");
    ck_assert(d.glyphs == GLYPHS_ASCII && d.colours == COLOURS_256);
    tconn_free(&c.tc);
    open_conn(&c);
    d = tconn_settle(&c.tc);
    ck_assert_str_eq(c.tc.ttype, "");
    ck_assert(d.glyphs == GLYPHS_ASCII && d.colours == COLOURS_16);
    tconn_free(&c.tc);
}
END_TEST

/* A connection an upgrade moved (tconn_resume_options): libtelnet set as
 * the opening and the client's yes left it, nothing sent; the client's
 * DONT ECHO (telnet's mode line) is then answered WONT ECHO and heard,
 * DO ECHO again heard; a fresh libtelnet would have dropped both. */
START_TEST(test_resumed_options_hear_line_mode)
{
    conn_t c;
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(tconn_init(&c.tc, &cb, &c, 250, 100), 0);
    tconn_settle(&c.tc);
    tconn_resume_options(&c.tc, 0);
    ck_assert_uint_eq(c.sentlen, 0);
    feed(&c, S(IAC DONT ECHO));
    ck_assert_int_eq(c.tc.echo_refused, 1);
    ck_assert_int_eq(sent_count(&c, S(IAC WONT ECHO)), 1);
    feed(&c, S(IAC DO ECHO));
    ck_assert_int_eq(c.tc.echo_refused, 0);
    /* the client's options as they were: a repeated WILL NAWS is no news
     * (no DO sent back) */
    size_t was = c.sentlen;
    feed(&c, S(IAC WILL "\x1f"));
    ck_assert_uint_eq(c.sentlen, was);
    tconn_free(&c.tc);

    /* one in line mode at the upgrade: heard as such, and its DO ECHO
     * (mode character) answered WILL ECHO and heard, nothing sent before */
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(tconn_init(&c.tc, &cb, &c, 250, 100), 0);
    tconn_settle(&c.tc);
    tconn_resume_options(&c.tc, 1);
    ck_assert_uint_eq(c.sentlen, 0);
    ck_assert_int_eq(c.tc.echo_refused, 1);
    feed(&c, S(IAC DO ECHO));
    ck_assert_int_eq(c.tc.echo_refused, 0);
    ck_assert_int_eq(sent_count(&c, S(IAC WILL ECHO)), 1);
    tconn_free(&c.tc);

    /* without it: DONT ECHO dropped, unheard */
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(tconn_init(&c.tc, &cb, &c, 250, 100), 0);
    tconn_settle(&c.tc);
    feed(&c, S(IAC DONT ECHO));
    ck_assert_int_eq(c.tc.echo_refused, 0);
    tconn_free(&c.tc);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("telnet_caps");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_nothing_said_is_plain);
    tcase_add_test(tc, test_xterm_256color);
    tcase_add_test(tc, test_mtts_rounds);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_ttype_rounds_bounded);
    tcase_add_test(tc, test_new_environ);
    tcase_add_test(tc, test_new_environ_values);
    tcase_add_test(tc, test_new_environ_cut_short);
    tcase_add_test(tc, test_settle);
    tcase_add_test(tc, test_resumed_options_hear_line_mode);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
