/* test_proxy.c - behind a TCP balancer (HAProxy's PROXY protocol): a
 * header from a trusted address names the player, whose address the log
 * and the per-address limits then see; a malformed header, a header from
 * an address that is not trusted, or none in time closes the connection
 * with a log line; with the protocol off a header is just bytes. */
#include <check.h>
#include <stdio.h>
#include <string.h>

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

static Suite *make_suite(void)
{
    Suite *s = suite_create("proxy");
    TCase *tc = tcase_create("proxy");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, trusted_header_names_the_player);
    tcase_add_test(tc, bad_or_untrusted_headers_close);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
