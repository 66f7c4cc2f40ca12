/* test_proxy.c - behind a TCP balancer (HAProxy's PROXY protocol): a
 * header from a trusted address names the player, whose address the log
 * and the per-address limits then see; a malformed header, a header from
 * an address that is not trusted, or none in time closes the connection
 * with a log line; with the protocol off a header is just bytes. */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

static const char v1[] = "PROXY TCP4 203.0.113.7 127.0.0.1 56324 2323\r\n";

START_TEST(trusted_header_names_the_player)
{
    tsrv_t *s = srv_start("--seed", "42", "--set", "proxy_protocol=on", "--set",
                          "proxy_trusted=127.0.0.0/8", "--set",
                          "max_sessions_per_ip=1", NULL);
    tclient_t *c = cl_connect(srv_port(s), NULL);
    ck_assert_uint_eq(cl_send_raw(c, v1, strlen(v1), 1, CL_WAIT_MS), strlen(v1));
    play_ready(c);
    play_move(c, "l", 1, 0);
    ck_assert(srv_log_has(s, "connect 203.0.113.7:56324 id=1"));
    /* The limit is the player's address's, not the balancer's: a second
     * player through the same balancer gets in, the same player twice not. */
    tclient_t *d = cl_connect(srv_port(s), NULL);
    static const char other[] = "PROXY TCP4 198.51.100.2 127.0.0.1 4000 2323\r\n";
    cl_send_raw(d, other, strlen(other), 1, CL_WAIT_MS);
    play_ready(d);
    tclient_t *e = cl_connect(srv_port(s), NULL);
    cl_send_raw(e, v1, strlen(v1), 1, CL_WAIT_MS);
    if (!cl_wait_eof(e, CL_WAIT_MS))
        play_fail(e, "a second session of 203.0.113.7 was let in");
    ck_assert(cl_stream_has(e, "Your address has 1 sessions open already"));
    ck_assert(srv_log_has(s, "refused 203.0.113.7:56324: too many sessions"));
    cl_close(c);
    cl_close(d);
    cl_close(e);
    srv_stop(s);
}
END_TEST

START_TEST(bad_or_untrusted_headers_close)
{
    tsrv_t *s = srv_start("--set", "proxy_protocol=on", "--set",
                          "proxy_trusted=127.0.0.1", NULL);
    /* Malformed. */
    tclient_t *c = cl_connect(srv_port(s), NULL);
    static const char bad[] = "PROXY TCP4 203.0.113.7 127.0.0.1 99999 2323\r\n";
    cl_send_raw(c, bad, strlen(bad), 1, CL_WAIT_MS);
    ck_assert(cl_wait_eof(c, CL_WAIT_MS));
    ck_assert(srv_wait_log(s, ": a PROXY v1 header with a bad port", CL_WAIT_MS));
    cl_close(c);
    /* A trusted balancer that says nothing: closed at the deadline. */
    c = cl_connect(srv_port(s), NULL);
    ck_assert(cl_wait_eof(c, CL_WAIT_MS));
    ck_assert(srv_wait_log(s, ": no PROXY header in time", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "info connect "), 0);
    cl_close(c);
    srv_stop(s);

    /* From an address not trusted: a header is refused, plain play is not. */
    s = srv_start("--seed", "42", "--set", "proxy_protocol=on", "--set",
                  "proxy_trusted=10.0.0.0/8", NULL);
    c = cl_connect(srv_port(s), NULL);
    cl_send_raw(c, v1, strlen(v1), 1, CL_WAIT_MS);
    ck_assert(cl_wait_eof(c, CL_WAIT_MS));
    ck_assert(srv_wait_log(s, ": a PROXY header from an address not in "
                              "proxy_trusted", CL_WAIT_MS));
    cl_close(c);
    tclient_t *d = play_connect(srv_port(s), NULL);
    play_move(d, "l", 1, 0);
    ck_assert(srv_log_has(s, "connect 127.0.0.1:"));
    cl_close(d);
    srv_stop(s);
}
END_TEST

/* A balancer's health check connects, sends its header and hangs up at
 * once: here while the server is stopped (SIGSTOP), so the connection is
 * reset before it is accepted and its address can no longer be asked for.
 * The address accept() gave is the balancer's, trusted: nothing is
 * refused, nothing counted as a stranger's (it had been "refused ?:0: a
 * PROXY header from an address not in proxy_trusted", every 2 s). */
START_TEST(a_check_gone_before_its_accept_is_the_balancer_s)
{
    tsrv_t *s = srv_start("--seed", "42", "--set", "proxy_protocol=on",
                          "--set", "proxy_trusted=127.0.0.1", NULL);
    srv_signal(s, SIGSTOP);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in a = { .sin_family = AF_INET,
                             .sin_port = htons((uint16_t)srv_port(s)) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    /* (the kernel completes the handshake into the backlog meanwhile) */
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    ck_assert_int_eq(write(fd, v1, strlen(v1)), (ssize_t)strlen(v1));
    struct linger rst = { 1, 0 };
    ck_assert_int_eq(setsockopt(fd, SOL_SOCKET, SO_LINGER, &rst, sizeof rst),
                     0);
    close(fd);
    srv_signal(s, SIGCONT);
    /* a player through the balancer after it: accepted after the check */
    tclient_t *c = cl_connect(srv_port(s), NULL);
    static const char other[] = "PROXY TCP4 198.51.100.2 127.0.0.1 4000 2323\r\n";
    cl_send_raw(c, other, strlen(other), 1, CL_WAIT_MS);
    play_ready(c);
    ck_assert(srv_log_has(s, "connect 198.51.100.2:4000 id="));
    ck_assert(!srv_log_has(s, "refused"));
    ck_assert(!srv_log_has(s, "?:0"));
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* The browser's port behind the same balancer: the header comes before
 * the HTTP request and names the player the WebSocket admits; from an
 * address not trusted a header is refused there too, and a plain request
 * is served. */
static const char ws_upgrade[] =
    "GET /ws HTTP/1.1\r\nHost: rogued\r\nUpgrade: websocket\r\n"
    "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    "Sec-WebSocket-Version: 13\r\n\r\n";

static tclient_t *http_send(int port, const char *header, const char *req)
{
    cl_opts_t raw = { .raw = 1 };
    tclient_t *c = cl_connect(port, &raw);
    char all[1024];
    int n = snprintf(all, sizeof all, "%s%s", header, req);
    ck_assert_uint_eq(cl_send_raw(c, all, (size_t)n, 1, CL_WAIT_MS), (size_t)n);
    return c;
}

START_TEST(browser_port_reads_the_header_too)
{
    char http[32];
    int port = cl_free_port();
    snprintf(http, sizeof http, "http_port=%d", port);
    tsrv_t *s = srv_start("--set", "proxy_protocol=on", "--set",
                          "proxy_trusted=127.0.0.0/8", "--set", http, NULL);
    static const char v1_web[] =
        "PROXY TCP4 203.0.113.9 127.0.0.1 41000 8023\r\n";
    tclient_t *c = http_send(port, v1_web, ws_upgrade);
    ck_assert(srv_wait_log(s, "connect 203.0.113.9:41000 id=", CL_WAIT_MS));
    while (!cl_stream_has(c, "HTTP/1.1 101 ") && cl_pump(c, CL_WAIT_MS) > 0)
        ;
    ck_assert(cl_stream_has(c, "HTTP/1.1 101 "));
    ck_assert_int_eq(srv_log_count(s, "connect 127.0.0.1:"), 0);
    cl_close(c);
    srv_stop(s);

    port = cl_free_port();
    snprintf(http, sizeof http, "http_port=%d", port);
    s = srv_start("--set", "proxy_protocol=on", "--set",
                  "proxy_trusted=10.0.0.0/8", "--set", http, NULL);
    c = http_send(port, v1_web, ws_upgrade);
    ck_assert(cl_wait_eof(c, CL_WAIT_MS));
    ck_assert(srv_wait_log(s, ": a PROXY header from an address not in "
                              "proxy_trusted", CL_WAIT_MS));
    ck_assert(!cl_stream_has(c, "HTTP/1.1"));
    cl_close(c);
    c = http_send(port, "", "GET / HTTP/1.1\r\nHost: rogued\r\n\r\n");
    while (!cl_stream_has(c, "HTTP/1.1 200 ") && cl_pump(c, CL_WAIT_MS) > 0)
        ;
    ck_assert(cl_stream_has(c, "HTTP/1.1 200 "));
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A client at the login prompt from `ip` (through the balancer), with
 * name typed and the password typed but not yet entered. */
static tclient_t *login_from(int port, const char *ip, const char *name,
                             const char *pass)
{
    char h[128];
    snprintf(h, sizeof h, "PROXY TCP4 %s 127.0.0.1 40000 2323\r\n", ip);
    tclient_t *c = cl_connect(port, NULL);
    cl_send_raw(c, h, strlen(h), 1, CL_WAIT_MS);
    play_wait_text(c, "Play (as a guest)");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert(cl_key(c, "l"));
    play_type_line(c, name);
    for (const char *p = pass; *p; p++) {
        char k[2] = { *p, 0 };
        ck_assert(cl_key(c, k));
    }
    return c;
}

/* Someone hammering a name from one address slows that address down, not
 * the owner logging in from another: the owner is let in at once while the
 * guesses wait or are refused. */
START_TEST(owner_not_locked_out_by_another_address)
{
    tsrv_t *s = srv_start("--set", "proxy_protocol=on", "--set",
                          "proxy_trusted=127.0.0.1", "--set", "hashes_per_ip=0",
                          NULL);
    int port = srv_port(s);
    tclient_t *r = cl_connect(port, NULL);
    static const char h[] = "PROXY TCP4 198.51.100.7 127.0.0.1 40001 2323\r\n";
    cl_send_raw(r, h, strlen(h), 1, CL_WAIT_MS);
    play_wait_text(r, "Play (as a guest)");
    ck_assert(cl_key(r, "r"));
    play_type_line(r, "owner");
    play_type_line(r, "rightpass");
    play_type_line(r, "rightpass");
    play_wait_text(r, "Welcome, owner!");
    cl_close(r);
    /* Ten guesses at once from 203.0.113.9: three are checked, the next
     * wait 1, 3, 7, 15, 31, 63 s, and the last is refused. */
    enum { N = 10 };
    tclient_t *g[N];
    for (int i = 0; i < N; i++)
        g[i] = login_from(port, "203.0.113.9", "owner", "guessing");
    for (int i = 0; i < N; i++)
        ck_assert_uint_eq(cl_send_raw(g[i], "\r", 1, 1, CL_WAIT_MS), 1);
    /* The attempt past the longest wait is refused (whichever the server
     * read last). */
    static const char slow[] = "Too many failed logins for that name.";
    int refused = 0;
    for (int64_t end = cl_now_ms() + CL_WAIT_MS; !refused && cl_now_ms() < end;)
        for (int i = 0; i < N && !refused; i++) {
            cl_pump(g[i], 1);
            refused = cl_screen_has(g[i], slow);
        }
    ck_assert_msg(refused, "no guess was refused");
    /* The owner, from their own address, gets in at once. */
    tclient_t *o = login_from(port, "198.51.100.7", "owner", "rightpass");
    ck_assert(cl_key(o, "\r"));
    play_wait_text(o, "Welcome back, owner!");
    cl_close(o);
    for (int i = 0; i < N; i++)
        cl_close(g[i]);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("proxy");
    TCase *tc = tcase_create("proxy");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, trusted_header_names_the_player);
    tcase_add_test(tc, bad_or_untrusted_headers_close);
    tcase_add_test(tc, a_check_gone_before_its_accept_is_the_balancer_s);
    tcase_add_test(tc, owner_not_locked_out_by_another_address);
    tcase_add_test(tc, browser_port_reads_the_header_too);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
