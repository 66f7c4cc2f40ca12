/* test_http_refusals.c - what the browser's port refuses, it answers and
 * logs (issue 25): an upgrade over HTTP/1.0, one with a body, a head past
 * 8 KiB, bytes that are not HTTP, and after the upgrade a frame whose
 * header claims 2^63 - 1 bytes or a fragment, refused at its header with
 * a close frame and the end of the connection (a fragmented ping: 1002);
 * a request with a body answered at its head (never waited for); another
 * site's page's upgrade 403; and a connection refused
 * before its request (the server or its address full) has the request
 * answered 503 with the server's line, its WebSocket closed with 1013 and
 * the line. docs/telnet.md, "The browser". */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

static int http;

/* A server with the browser's port (and one more setting, or NULL). */
static tsrv_t *web_server_with(const char *set)
{
    static char port_set[32];
    http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", http);
    /* one loop: connections are taken in the order they came */
    return srv_start("--set", port_set, "--set", "workers=1",
                     set ? "--set" : NULL, set, NULL);
}

static tsrv_t *web_server(void)
{
    return web_server_with(NULL);
}

/* Sends req on a new connection; the server answers and closes. */
static tclient_t *ask(const void *req, size_t n)
{
    cl_opts_t o = { .raw = 1 };
    tclient_t *c = cl_connect(http, &o);
    ck_assert_uint_eq(cl_send_raw(c, req, n, 1, CL_WAIT_MS), n);
    ck_assert_msg(cl_wait_eof(c, CL_WAIT_MS), "the server kept the connection");
    return c;
}

/* The request answered with status, and one more log line saying why
 * (counted: an earlier request may have been refused for the same). */
static void expect(tsrv_t *s, const char *req, size_t n, const char *status,
                   const char *why)
{
    char line[160];
    snprintf(line, sizeof line, ": %.*s: %s", (int)strcspn(status + 9, "\r"),
             status + 9, why);
    int before = srv_log_count(s, line);
    tclient_t *c = ask(req, n);
    ck_assert_msg(cl_stream_has(c, status), "no \"%s\" for %s", status, why);
    cl_close(c);
    ck_assert_msg(srv_wait_log_count(s, line, before + 1, CL_WAIT_MS),
                  "no log line \"%s\" (%d before)", line, before);
    ck_assert_int_eq(srv_log_count(s, line), before + 1);
}

#define UPGRADE_HEADERS "Upgrade: websocket\r\nConnection: Upgrade\r\n" \
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"

START_TEST(requests_refused_are_answered_and_logged)
{
    tsrv_t *s = web_server();
    static const char v10[] = "GET /ws HTTP/1.0\r\n" UPGRADE_HEADERS "\r\n";
    expect(s, v10, sizeof v10 - 1, "HTTP/1.1 400 Bad Request\r\n",
           "a WebSocket upgrade not over HTTP/1.1");
    static const char body[] = "GET /ws HTTP/1.1\r\nHost: x\r\n" UPGRADE_HEADERS
        "Content-Length: 4\r\n\r\nabcd";
    expect(s, body, sizeof body - 1, "HTTP/1.1 413 Content Too Large\r\n",
           "a request with a body");
    /* answered at the head's end: a body is never waited for */
    static const char no_body[] = "GET / HTTP/1.1\r\nHost: x\r\n"
        "Content-Length: 5\r\n\r\n";
    expect(s, no_body, sizeof no_body - 1, "HTTP/1.1 413 Content Too Large\r\n",
           "a request with a body");
    /* nor counted against the head's 8 KiB */
    static char post[20100];
    size_t pn = (size_t)snprintf(post, sizeof post, "POST /x HTTP/1.1\r\n"
                                 "Content-Length: 20000\r\n\r\n");
    memset(post + pn, 'a', 20000);
    expect(s, post, pn + 20000, "HTTP/1.1 405 Method Not Allowed\r\n"
           "Allow: GET, HEAD\r\n", "a method other than GET and HEAD");
    /* another site's page asking for a WebSocket (the visitor's browser) */
    static const char other[] = "GET /ws HTTP/1.1\r\nHost: play.example\r\n"
        "Origin: https://evil.example\r\n" UPGRADE_HEADERS "\r\n";
    expect(s, other, sizeof other - 1, "HTTP/1.1 403 Forbidden\r\n",
           "a WebSocket upgrade from another site's page "
           "(Origin: https://evil.example)");
    static const char noup[] = "GET /ws HTTP/1.1\r\nHost: x\r\n\r\n";
    expect(s, noup, sizeof noup - 1, "HTTP/1.1 426 Upgrade Required\r\n",
           "/ws without a WebSocket upgrade (version 13)");
    static const char v99[] = "GET / HTTP/9.9\r\nHost: x\r\n\r\n";
    expect(s, v99, sizeof v99 - 1, "HTTP/1.1 505 HTTP Version Not Supported"
           "\r\n", "an HTTP version other than 1.x");
    static const char no_host[] = "GET / HTTP/1.1\r\n\r\n";
    expect(s, no_host, sizeof no_host - 1, "HTTP/1.1 400 Bad Request\r\n",
           "an HTTP/1.1 request without Host");
    static const char tls[] = "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03";
    expect(s, tls, sizeof tls - 1, "HTTP/1.1 400 Bad Request\r\n",
           "a request that is not HTTP");
    static char big[9000];
    size_t n = (size_t)snprintf(big, sizeof big, "GET / HTTP/1.1\r\n");
    while (n + 40 < sizeof big)
        n += (size_t)snprintf(big + n, sizeof big - n,
                              "X-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n");
    expect(s, big, n, "HTTP/1.1 431 Request Header Fields Too Large\r\n",
           "a request head past 8 KiB");
    ck_assert(srv_alive(s));
    srv_stop(s);
}
END_TEST

/* After a good upgrade: a frame header claiming 2^63 - 1 bytes, and a
 * fragment that never ends, each end the connection at once with a
 * close frame (1009, 1008) and a log line: no waiting for idle_timeout
 * (30 minutes by default) or for bytes that never come. And frames
 * wslay refuses past the header (unmasked: 1002; text not UTF-8: 1007),
 * logged as refusals too; every one's disconnect says "frame refused". */
START_TEST(frames_refused_at_their_header)
{
    tsrv_t *s = web_server();
    static const char up[] = "GET /ws HTTP/1.1\r\nHost: x\r\n"
        UPGRADE_HEADERS "\r\n";
    static const unsigned char huge[] = { 0x82, 0xff, 0x7f, 0xff, 0xff, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4 };
    static const unsigned char frag[] = { 0x02, 0x81, 1, 2, 3, 4, 'a' };
    static const unsigned char frag_ping[] = { 0x09, 0x81, 1, 2, 3, 4, 'a' };
    /* and past the header, refused by wslay (a host QA found these closed
     * without a refused line, and logged as a page that left): a frame
     * not masked, and text that is not UTF-8 (0xff 0xfe, masked by 0) */
    static const unsigned char unmasked[] = { 0x82, 0x01, 'a' };
    static const unsigned char not_utf8[] = { 0x81, 0x82, 0, 0, 0, 0, 0xff,
                                              0xfe };
    const unsigned char *bad[] = { huge, frag, frag_ping, unmasked, not_utf8 };
    size_t len[] = { sizeof huge, sizeof frag, sizeof frag_ping,
                     sizeof unmasked, sizeof not_utf8 };
    const char *close_frame[] = { "\x88\x02\x03\xf1", "\x88\x02\x03\xf0",
                                  "\x88\x02\x03\xea", "\x88\x02\x03\xea",
                                  "\x88\x02\x03\xef" };
    const char *why[] = { "close 1009: a WebSocket frame longer than the "
                          "message limit",
                          "close 1008: a fragmented WebSocket message (no "
                          "FIN)",
                          "close 1002: a fragmented WebSocket control frame",
                          "close 1002: a WebSocket frame against the protocol "
                          "(unmasked, a reserved opcode or bit, a close code "
                          "not allowed)",
                          "close 1007: WebSocket text that is not UTF-8" };
    for (int i = 0; i < 5; i++) {
        char req[256];
        memcpy(req, up, sizeof up - 1);
        memcpy(req + sizeof up - 1, bad[i], len[i]);
        tclient_t *c = ask(req, sizeof up - 1 + len[i]);
        ck_assert(cl_stream_has(c, "HTTP/1.1 101 Switching Protocols\r\n"));
        ck_assert_msg(cl_stream_has(c, close_frame[i]), "no close frame %d", i);
        cl_close(c);
        ck_assert_msg(srv_wait_log(s, why[i], CL_WAIT_MS), "no log: %s", why[i]);
        /* refused, not a page that left */
        ck_assert(srv_wait_log_count(s, "reason=\"frame refused\"", i + 1,
                                     CL_WAIT_MS));
    }
    ck_assert(!srv_log_has(s, "reason=\"browser closed\""));
    srv_stop(s);
}
END_TEST

/* A connection refused before its request (a limit reached) has that
 * request answered, and a log line, instead of a silent close: a page's
 * request 503 with the server's line as its text; the page's WebSocket
 * opened and closed at once with 1013, try again later, and the line as
 * its reason (a browser's script sees that, not a refused upgrade's
 * status). One silent browser connection holds the only slot (counted
 * from its first byte): the next ones' requests are refused so. */
START_TEST(limits_reached_are_answered_503)
{
    static const char *const limit[] = { "max_sessions=1",
                                         "max_sessions_per_ip=1" };
    static const char *const why[] = { "server full",
                                       "too many sessions from this address" };
    static const char *const reason[] = { "full", "per_address_sessions" };
    static const char *const line[] = {
        "Sorry, the server is full (1 player). Please try again later.",
        "Your address has 1 sessions open already, the most one address "
        "may have." };
    static const char req[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    static const char up[] = "GET /ws HTTP/1.1\r\nHost: x\r\n"
        UPGRADE_HEADERS "\r\n";
    for (int i = 0; i < 2; i++) {
        tsrv_t *s = web_server_with(limit[i]);
        cl_opts_t o = { .raw = 1 };
        tclient_t *holder = cl_connect(http, &o);
        ck_assert(cl_send_raw(holder, "G", 1, 1, CL_WAIT_MS) == 1);
        expect(s, req, sizeof req - 1, "HTTP/1.1 503 Service Unavailable\r\n",
               why[i]);
        char body[160];
        snprintf(body, sizeof body, "\r\n\r\n%s\n", line[i]);
        tclient_t *c = ask(req, sizeof req - 1);
        ck_assert_msg(cl_stream_has(c, body), "no \"%s\" in the 503", line[i]);
        cl_close(c);
        /* the WebSocket: 101, then the close frame 1013 with the line */
        char frame[160];
        size_t n = strlen(line[i]);
        snprintf(frame, sizeof frame, "\x88%c\x03\xf5%s", (char)(2 + n), line[i]);
        c = ask(up, sizeof up - 1);
        ck_assert(cl_stream_has(c, "HTTP/1.1 101 Switching Protocols\r\n"));
        ck_assert_msg(cl_stream_has(c, frame), "no close 1013 \"%s\"", line[i]);
        cl_close(c);
        char logged[96];
        snprintf(logged, sizeof logged, ": close 1013: %s", why[i]);
        ck_assert_msg(srv_wait_log(s, logged, CL_WAIT_MS), "no log \"%s\"", logged);
        /* each refusal counted once, under its limit, none as bad HTTP */
        char metrics[65536], want[128];
        ck_assert_int_eq(srv_ctl(s, "metrics", metrics, sizeof metrics), 0);
        snprintf(want, sizeof want, "\nrogued_refusals_total{reason=\"%s\"} 3\n",
                 reason[i]);
        ck_assert_msg(strstr(metrics, want), "no \"%s\"", want + 1);
        ck_assert(strstr(metrics, "\nrogued_refusals_total{reason=\"bad_http\"} 0\n"));
        ck_assert(!cl_closed(holder));
        cl_close(holder);
        srv_stop(s);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("http_refusals");
    TCase *tc = tcase_create("http_refusals");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, requests_refused_are_answered_and_logged);
    tcase_add_test(tc, frames_refused_at_their_header);
    tcase_add_test(tc, limits_reached_are_answered_503);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
