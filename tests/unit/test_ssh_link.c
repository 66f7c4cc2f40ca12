/* test_ssh_link.c - the records an SSH thread writes to its session
 * (ssh_link.h) as the session's transport reads them: the keys reach the
 * key decoder's callback exactly as typed (0xff and NUL included), the
 * window reaches the resize callback clamped, the terminal and locale make
 * the display as a telnet client's would, 'G' makes it ready, and a
 * record split at any byte reads the same. The frames go out untouched. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "ssh_link.h"

typedef struct sink {
    tconn_t tc;
    ssh_link_t *link;
    char keys[256];
    size_t nkeys;
    int w, h, resizes;
    char out[256];
    size_t nout;
} sink_t;

static void on_data(void *ctx, const char *b, size_t n)
{
    sink_t *s = ctx;
    ck_assert_uint_le(s->nkeys + n, sizeof s->keys);
    memcpy(s->keys + s->nkeys, b, n);
    s->nkeys += n;
}

static void on_resize(void *ctx, int w, int h)
{
    sink_t *s = ctx;
    s->w = w;
    s->h = h;
    s->resizes++;
}

static void on_out(void *ctx, const char *b, size_t n)
{
    sink_t *s = ctx;
    memcpy(s->out + s->nout, b, n);
    s->nout += n;
}

static void open_sink(sink_t *s)
{
    memset(s, 0, sizeof *s);
    tconn_cb_t cb = { on_data, NULL, NULL, on_resize };
    ck_assert_int_eq(tconn_init(&s->tc, &cb, s, 250, 100), 0);
    s->link = ssh_link_new(&s->tc, on_out, s);
    ck_assert_ptr_nonnull(s->link);
}

static void close_sink(sink_t *s)
{
    ssh_transport.free(s->link);
}

/* A whole setup and some keys, as the thread sends them at the shell. */
static size_t hello(char *buf, const char *term, const char *env)
{
    size_t n = ssh_link_record(buf, 'T', term, strlen(term));
    if (env)
        n += ssh_link_record(buf + n, 'E', env, strlen(env));
    n += ssh_link_size(buf + n, 120, 40);
    n += ssh_link_record(buf + n, 'G', NULL, 0);
    n += ssh_link_record(buf + n, 'D', "p\xff\0q", 4);
    return n;
}

START_TEST(setup_and_keys_read_whole_or_byte_by_byte)
{
    char buf[512];
    size_t n = hello(buf, "xterm-256color", "LANG=C.UTF-8");
    for (int bytewise = 0; bytewise < 2; bytewise++) {
        sink_t s;
        open_sink(&s);
        ck_assert_int_eq(ssh_transport.ready(s.link), 0);
        if (bytewise) {
            for (size_t i = 0; i < n; i++)
                ck_assert_int_eq(ssh_transport.feed(s.link, buf + i, 1), 0);
        } else {
            ck_assert_int_eq(ssh_transport.feed(s.link, buf, n), 0);
        }
        ck_assert_int_eq(ssh_transport.ready(s.link), 1);
        ck_assert_uint_eq(s.nkeys, 4);
        ck_assert_int_eq(memcmp(s.keys, "p\xff\0q", 4), 0);
        ck_assert_int_eq(s.resizes, 1);
        ck_assert_int_eq(s.w, 120);
        ck_assert_int_eq(s.h, 40);
        ck_assert_str_eq(s.tc.ttype, "xterm-256color");
        ck_assert_int_eq(s.tc.no_pty, 0);
        display_t d = tconn_settle(&s.tc);
        ck_assert_int_eq(d.glyphs, GLYPHS_UTF8);
        ck_assert_int_eq(d.colours, COLOURS_256);
        close_sink(&s);
    }
}
END_TEST

/* No locale and a plain terminal: ASCII and 16 colours; COLORTERM makes
 * truecolor; the window is clamped to the server's maximum and 0 keeps
 * the old size. */
START_TEST(display_and_window_limits)
{
    char buf[512];
    sink_t s;
    open_sink(&s);
    size_t n = hello(buf, "vt100", NULL);
    ck_assert_int_eq(ssh_transport.feed(s.link, buf, n), 0);
    display_t d = tconn_display(&s.tc);
    ck_assert_int_eq(d.glyphs, GLYPHS_ASCII);
    ck_assert_int_eq(d.colours, COLOURS_16);
    n = ssh_link_record(buf, 'E', "COLORTERM=truecolor", 19);
    ck_assert_int_eq(ssh_transport.feed(s.link, buf, n), 0);
    ck_assert_int_eq(tconn_display(&s.tc).colours, COLOURS_TRUE);
    n = ssh_link_size(buf, 999, 999);
    ck_assert_int_eq(ssh_transport.feed(s.link, buf, n), 0);
    ck_assert_int_eq(s.w, 250);
    ck_assert_int_eq(s.h, 100);
    n = ssh_link_size(buf, 0, 30);
    ck_assert_int_eq(ssh_transport.feed(s.link, buf, n), 0);
    ck_assert_int_eq(s.w, 250);
    ck_assert_int_eq(s.resizes, 2);
    close_sink(&s);
}
END_TEST

/* An empty terminal's name: the client asked for no terminal (ssh -T):
 * said so (no_pty, which the lobby's tip reads), and VT100 as before. */
START_TEST(no_terminal_asked_for)
{
    char buf[512];
    sink_t s;
    open_sink(&s);
    size_t n = hello(buf, "", NULL);
    ck_assert_int_eq(ssh_transport.feed(s.link, buf, n), 0);
    ck_assert_int_eq(s.tc.no_pty, 1);
    ck_assert_str_eq(s.tc.ttype, "VT100");
    ck_assert_int_eq(tconn_display(&s.tc).glyphs, GLYPHS_ASCII);
    close_sink(&s);
}
END_TEST

/* The session's frames go out as they are, telnet's bytes included (an
 * SSH client has no telnet to read them); its frame marker goes nowhere. */
START_TEST(frames_untouched_and_no_telnet_marker)
{
    sink_t s;
    open_sink(&s);
    ssh_transport.send(s.link, "\x1b[2J\xff", 5);
    tconn_nop(&s.tc);
    ck_assert_uint_eq(s.nout, 5);
    ck_assert_int_eq(memcmp(s.out, "\x1b[2J\xff", 5), 0);
    ck_assert_int_eq(s.tc.peer, 1); /* a terminal: no tip about nc */
    close_sink(&s);
}
END_TEST

/* A record of no known type is a bug on the other side: the link ends,
 * and says why; nothing after it is read as keys. */
START_TEST(unknown_record_ends_the_link)
{
    sink_t s;
    open_sink(&s);
    char buf[16];
    size_t n = ssh_link_record(buf, 'Z', "ab", 2);
    n += ssh_link_record(buf + n, 'D', "x", 1);
    ck_assert_int_eq(ssh_transport.feed(s.link, buf, n), -1);
    ck_assert_str_eq(ssh_transport.error(s.link), "ssh link: unknown record");
    ck_assert_uint_eq(s.nkeys, 0);
    ck_assert_int_eq(ssh_transport.feed(s.link, "D\0\1y", 4), -1);
    ck_assert_uint_eq(s.nkeys, 0);
    close_sink(&s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ssh link");
    TCase *tc = tcase_create("link");
    tcase_add_test(tc, setup_and_keys_read_whole_or_byte_by_byte);
    tcase_add_test(tc, display_and_window_limits);
    tcase_add_test(tc, no_terminal_asked_for);
    tcase_add_test(tc, frames_untouched_and_no_telnet_marker);
    tcase_add_test(tc, unknown_record_ends_the_link);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
