/* test_connect.c - the lines the server's log gives a person to connect
 * with (`telnet HOST PORT`, `http://HOST:PORT/`, `ssh -p PORT play@HOST`):
 * read from the log as a person would, and used: each one reaches the
 * service it names. The tests bind to 127.0.0.1 only (loopback), so the
 * lines name 127.0.0.1; what a server on every address says (the host
 * name, and 127.0.0.1) is unit/test_connect_lines. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

/* The port in the log's line that starts with `prefix` (after "connect: "),
 * or 0. */
static int port_after(const char *log, const char *prefix)
{
    char needle[128];
    snprintf(needle, sizeof needle, "connect: %s", prefix);
    const char *at = strstr(log, needle);
    return at ? atoi(at + strlen(needle)) : 0;
}

START_TEST(the_log_says_how_to_connect)
{
    int http = cl_free_port(), ssh = cl_free_port();
    char h[32], s_[32];
    snprintf(h, sizeof h, "http_port=%d", http);
    snprintf(s_, sizeof s_, "ssh_port=%d", ssh);
    tsrv_t *s = srv_start("--seed", "42", "--set", h, "--set", s_, NULL);
    ck_assert(srv_wait_log(s, "connect: ssh -p ", CL_WAIT_MS));
    char *log = srv_log(s);
    /* After the listening lines, one line per service, on the address
     * the server is bound to; never 0.0.0.0. */
    ck_assert_ptr_nonnull(strstr(strstr(log, "listening on "), "connect: "));
    ck_assert_int_eq(port_after(log, "telnet 127.0.0.1 "), srv_port(s));
    ck_assert_int_eq(port_after(log, "http://127.0.0.1:"), http);
    ck_assert_int_eq(port_after(log, "ssh -p "), ssh);
    ck_assert(srv_log_has(s, "connect: http://127.0.0.1:"));
    char want[64];
    snprintf(want, sizeof want, "connect: ssh -p %d play@127.0.0.1\n", ssh);
    ck_assert_msg(strstr(log, want), "no line \"%s\"", want);
    ck_assert_int_eq(srv_log_count(s, "connect: "), 3);
    ck_assert(!srv_log_has(s, "connect: telnet 0.0.0.0"));

    /* telnet HOST PORT: a game */
    tclient_t *c = play_connect(port_after(log, "telnet 127.0.0.1 "), NULL);
    play_move(c, "l", 1, 0);
    cl_close(c);
    /* the page */
    cl_opts_t raw = { .raw = 1 };
    c = cl_connect(port_after(log, "http://127.0.0.1:"), &raw);
    static const char get[] = "GET / HTTP/1.1\r\nHost: rogued\r\n\r\n";
    ck_assert_uint_eq(cl_send_raw(c, get, sizeof get - 1, 1, CL_WAIT_MS),
                      sizeof get - 1);
    while (!cl_stream_has(c, "HTTP/1.1 200 ") && cl_pump(c, CL_WAIT_MS) > 0)
        ;
    ck_assert(cl_stream_has(c, "HTTP/1.1 200 "));
    cl_close(c);
    /* SSH: the server's greeting */
    c = cl_connect(port_after(log, "ssh -p "), &raw);
    while (!cl_stream_has(c, "SSH-2.0-") && cl_pump(c, CL_WAIT_MS) > 0)
        ;
    ck_assert(cl_stream_has(c, "SSH-2.0-"));
    cl_close(c);
    free(log);
    srv_stop(s);
}
END_TEST

/* Without the browser's port and SSH, only the telnet line. */
START_TEST(only_what_is_on)
{
    tsrv_t *s = srv_start(NULL);
    ck_assert(srv_wait_log(s, "connect: telnet ", CL_WAIT_MS));
    char want[64];
    snprintf(want, sizeof want, "connect: telnet 127.0.0.1 %d", srv_port(s));
    ck_assert(srv_log_has(s, want));
    ck_assert_int_eq(srv_log_count(s, "connect: "), 1);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("connect");
    TCase *tc = tcase_create("connect");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, the_log_says_how_to_connect);
    tcase_add_test(tc, only_what_is_on);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
