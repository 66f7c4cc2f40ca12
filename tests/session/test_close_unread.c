/* test_close_unread.c - connections whose client does not read what it
 * was sent, closed (docs/architecture.md, "A client that stops
 * reading"): the server's side of each is gone from the kernel's table
 * (/proc/net/tcp) by close_drain_ms or close_orphan_ms (set small: the
 * server's and the kernel's clocks, nothing is timed here), not left
 * sending as an orphan, and the client,
 * reading at last, gets what its own buffer held and then ECONNRESET.
 *
 * A browser's file: the biggest of the page's files (xterm.js, about
 * 289 KB) is more than the client's small receive buffer holds; the
 * kernel takes the rest, the server closes, and the kernel gives the
 * orphan up (TCP_USER_TIMEOUT, close_orphan_ms). An honest client, asking the same on the
 * same server, gets the whole file and the server's end (EOF).
 *
 * A telnet player kicked (a graceful close) while libuv still holds its
 * output (the kernel's buffers full: /metrics says so): the goodbye
 * cannot be written, and at close_drain_ms the connection is reset; its
 * side is gone while the client, still open, reads nothing. */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "metrics.h"
#include "play.h"
#include "sock_table.h"
#include "web_assets.h"

#define WAIT_MS 20000

static int http;

static tsrv_t *web_server(void)
{
    static char port_set[32];
    http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", http);
    /* the kernel takes the whole file before the close, so only
     * close_orphan_ms can end it: close_drain_ms, long, would leave it for
     * longer than the test waits */
    return srv_start("--set", port_set, "--set", "close_drain_ms=600000",
                     "--set", "close_orphan_ms=100", NULL);
}

static const web_asset_t *xterm_js(void)
{
    for (size_t i = 0; i < web_nassets; i++)
        if (strcmp(web_assets[i].path, web_xterm_js_url) == 0)
            return &web_assets[i];
    ck_abort_msg("no %s among the page's files", web_xterm_js_url);
    return NULL;
}

/* A connection to the browser's port that has asked for xterm.js;
 * rcvbuf > 0: its receive buffer, set before the connection (what the
 * client's kernel takes for it while it does not read). */
static int ask_for_xterm(int rcvbuf, int *local_port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    if (rcvbuf > 0)
        ck_assert_int_eq(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
                                    sizeof rcvbuf), 0);
    struct sockaddr_in a = { .sin_family = AF_INET,
                             .sin_port = htons((uint16_t)http) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t len = sizeof a;
    ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    *local_port = ntohs(a.sin_port);
    char req[160];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n",
                     web_xterm_js_url);
    ck_assert_int_eq(send(fd, req, (size_t)n, 0), n);
    return fd;
}

/* Reads fd to its end: the bytes in *got (up to max), and 0 for EOF or
 * the errno that ended it. */
static int read_all(int fd, char *buf, size_t max, size_t *got)
{
    *got = 0;
    for (;;) {
        struct pollfd p = { fd, POLLIN, 0 };
        ck_assert_msg(poll(&p, 1, WAIT_MS) == 1, "the server said nothing");
        ssize_t n = recv(fd, buf + *got, max - *got, 0);
        if (n == 0)
            return 0;
        if (n < 0)
            return errno;
        *got += (size_t)n;
        ck_assert_uint_lt(*got, max);
    }
}

START_TEST(an_unread_file_is_reset_an_honest_client_gets_it)
{
    tsrv_t *s = web_server();
    ck_assert(srv_wait_log(s, "browser page on", WAIT_MS));
    const web_asset_t *js = xterm_js();
    ck_assert_uint_gt(js->len, 200000); /* more than both buffers hold */
    size_t max = js->len + 4096;
    char *buf = malloc(max);
    ck_assert_ptr_nonnull(buf);

    int port;
    int fd = ask_for_xterm(4096, &port);
    ck_assert_msg(sock_wait_server_side(http, port, 1, WAIT_MS),
                  "the server's side never held the answer unread");
    /* nothing read: the kernel took it all and the server closed; at
     * close_orphan_ms the kernel lets it go, with all it held for it */
    ck_assert_msg(sock_wait_server_side(http, port, 0, WAIT_MS),
                  "the server's side is still there, %ld bytes queued",
                  sock_server_side_queue(http, port));
    size_t got;
    int err = read_all(fd, buf, max, &got);
    ck_assert_msg(err == ECONNRESET, "the client's read ended with %s after "
                  "%zu bytes, not a reset", err ? strerror(err) : "EOF", got);
    ck_assert_uint_lt(got, js->len);
    close(fd);

    /* an honest client reads as it comes: the headers, the whole file,
     * the server's end */
    fd = ask_for_xterm(0, &port);
    ck_assert_int_eq(read_all(fd, buf, max, &got), 0);
    close(fd);
    buf[got < max ? got : max - 1] = '\0';
    ck_assert_msg(strncmp(buf, "HTTP/1.1 200 OK\r\n", 17) == 0, "%.40s", buf);
    char *body = strstr(buf, "\r\n\r\n");
    ck_assert_ptr_nonnull(body);
    body += 4;
    ck_assert_uint_eq(got - (size_t)(body - buf), js->len);
    ck_assert_mem_eq(body, js->data, js->len);
    free(buf);
    srv_stop(s);
}
END_TEST

START_TEST(a_kicked_player_not_reading_is_reset)
{
    int mport = cl_free_port();
    char set[64];
    snprintf(set, sizeof set, "metrics_port=%d", mport);
    /* nothing cuts it off but the kick: no write_timeout, a high limit */
    tsrv_t *s = srv_start("--seed", "42", "--set", set,
                          "--set", "close_drain_ms=100",
                          "--set", "output_limit=67108864",
                          "--set", "write_timeout=0",
                          /* its requests fill the kernel's buffers */
                          "--set", "max_input_bytes_per_second=100000000",
                          NULL);
    ck_assert(srv_wait_log(s, "metrics on ", WAIT_MS));
    cl_opts_t o = { .rcvbuf = 4096 };
    tclient_t *c = play_connect(srv_port(s), &o);
    int port = cl_local_port(c);
    metrics_stop_reading_with_output_owed(c, mport);
    char out[256];
    ck_assert_int_eq(srv_ctl(s, "kick 1", out, sizeof out), 0);
    ck_assert(srv_wait_log(s, "reason=\"closed by the console\"", WAIT_MS));
    ck_assert_msg(sock_wait_server_side(srv_port(s), port, 0, WAIT_MS),
                  "the server's side is still there, %ld bytes queued",
                  sock_server_side_queue(srv_port(s), port));
    ck_assert(metrics_wait(mport, "rogued_sessions_output_waiting", 0));
    cl_close(c);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("close_unread");
    TCase *tc = tcase_create("close_unread");
    tcase_set_timeout(tc, 240);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, an_unread_file_is_reset_an_honest_client_gets_it);
    tcase_add_test(tc, a_kicked_player_not_reading_is_reset);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
