/* test_startups.c - under pressure the newest connections go first
 * (server/startups.h, OpenSSH's MaxStartups): with startups_start =
 * startups_full = 3 (a step: no chance involved), three browser
 * connections that send nothing are all let in and counted before the
 * lobby (/metrics' rogued_startups); a fourth, telnet, is told the server
 * is busy, logged and closed, and one more on the browser's port has its
 * request answered 503; once one of the three has gone, a new one is let
 * in again. Players in the lobby do not count. A fresh address goes
 * first: past startups_start (at a drop's chance of 100%), a connection
 * from an address that has one before the lobby is told the server is
 * busy while one from another address gets the lobby, and an address's
 * count is given back as its connections close. The drop's chance between
 * start and full is test_startups (unit). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "metrics.h"
#include "play.h"

static int http, metrics;

static tsrv_t *start(void)
{
    static char port_set[32], metrics_set[32];
    http = cl_free_port();
    metrics = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", http);
    snprintf(metrics_set, sizeof metrics_set, "metrics_port=%d", metrics);
    /* a browser's request may take 20 times negotiation_ms: 200 s */
    return srv_start("--set", port_set, "--set", metrics_set, "--set",
                     "startups_start=3", "--set", "startups_full=3", "--set",
                     "negotiation_ms=10000", NULL);
}

/* The browser's port, startups_* as given (negotiation_ms as start's). */
static tsrv_t *start_with(const char *start_set, const char *rate_set)
{
    static char port_set[32], metrics_set[32];
    http = cl_free_port();
    metrics = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", http);
    snprintf(metrics_set, sizeof metrics_set, "metrics_port=%d", metrics);
    return srv_start("--set", port_set, "--set", metrics_set, "--set",
                     start_set, "--set", rate_set, "--set",
                     "negotiation_ms=10000", NULL);
}

static int startups_are(int n)
{
    return metrics_is(metrics, "rogued_startups", n);
}

static int wait_startups(int n)
{
    return metrics_wait(metrics, "rogued_startups", n);
}

static tclient_t *raw(int port)
{
    cl_opts_t o = { .raw = 1 };
    return cl_connect(port, &o);
}

START_TEST(below_start_all_are_let_in_at_full_new_ones_are_dropped)
{
    tsrv_t *s = start();
    int port = srv_port(s);
    tclient_t *c[3];
    for (int i = 0; i < 3; i++) {
        c[i] = raw(http); /* no request: before the lobby for 200 s */
        ck_assert_msg(wait_startups(i + 1), "connection %d not let in", i);
    }
    /* the fourth: busy, said, logged, closed */
    tclient_t *d = raw(port);
    ck_assert(cl_wait_eof(d, CL_WAIT_MS));
    ck_assert(cl_stream_has(d, "The server is busy: please try again in a "
                               "moment."));
    ck_assert(srv_wait_log(s, ": busy: 3 connections before the lobby",
                           CL_WAIT_MS));
    cl_close(d);
    /* the browser's port: a 503 for its request */
    tclient_t *w = raw(http);
    static const char req[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    ck_assert_uint_eq(cl_send_raw(w, req, sizeof req - 1, 1, CL_WAIT_MS),
                      sizeof req - 1);
    ck_assert(cl_wait_eof(w, CL_WAIT_MS));
    ck_assert(cl_stream_has(w, "HTTP/1.1 503 Service Unavailable\r\n"));
    ck_assert(srv_wait_log(s, ": 503 Service Unavailable: busy: too many "
                              "connections before the lobby", CL_WAIT_MS));
    cl_close(w);
    ck_assert(startups_are(3));
    /* one of the three goes: there is room for one again */
    cl_close(c[0]);
    ck_assert(wait_startups(2));
    tclient_t *e = raw(port);
    ck_assert(srv_wait_log_count(s, "connect 127.0.0.1:", 1, CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "before the lobby"), 2);
    cl_close(e);
    cl_close(c[1]);
    cl_close(c[2]);
    srv_stop(s);
}
END_TEST

/* A connection in the lobby has left the stages before it: three players
 * there leave room for three more. */
START_TEST(players_in_the_lobby_do_not_count)
{
    tsrv_t *s = start();
    int port = srv_port(s);
    tclient_t *p[3];
    for (int i = 0; i < 3; i++) {
        p[i] = cl_connect(port, NULL); /* answers the negotiation */
        play_wait_text(p[i], "Play (as a guest)");
    }
    ck_assert(wait_startups(0));
    tclient_t *c[3];
    for (int i = 0; i < 3; i++) {
        c[i] = raw(http);
        ck_assert(wait_startups(i + 1));
    }
    ck_assert_int_eq(srv_log_count(s, "before the lobby"), 0);
    for (int i = 0; i < 3; i++) {
        cl_close(c[i]);
        cl_close(p[i]);
    }
    srv_stop(s);
}
END_TEST

static tclient_t *raw_from(int port, const char *src)
{
    cl_opts_t o = { .raw = 1, .src = src };
    return cl_connect(port, &o);
}

/* A telnet player from src that reaches the lobby. */
static tclient_t *player_from(int port, const char *src)
{
    cl_opts_t o = { .src = src };
    tclient_t *c = cl_connect(port, &o);
    play_wait_text(c, "Play (as a guest)");
    return c;
}

START_TEST(a_fresh_address_goes_first)
{
    tsrv_t *s = start_with("startups_start=2", "startups_rate=100");
    int port = srv_port(s);
    tclient_t *held[2];
    for (int i = 0; i < 2; i++) {
        held[i] = raw_from(http, "127.0.0.2"); /* no request */
        ck_assert(wait_startups(i + 1));
    }
    /* past start, from an address with two before the lobby: busy */
    tclient_t *d = raw_from(port, "127.0.0.2");
    ck_assert(cl_wait_eof(d, CL_WAIT_MS));
    ck_assert(cl_stream_has(d, "The server is busy: please try again in a "
                               "moment."));
    ck_assert(srv_wait_log(s, ": busy: 2 connections before the lobby, 2 "
                              "from this address", CL_WAIT_MS));
    cl_close(d);
    ck_assert(startups_are(2));
    /* from an address with none: let in, to the lobby */
    tclient_t *p = player_from(port, "127.0.0.3");
    ck_assert(wait_startups(2));
    /* 127.0.0.2's two go, two from 127.0.0.4 (fresh) take their places:
     * 127.0.0.2 is fresh again, and let in past start */
    for (int i = 0; i < 2; i++)
        cl_close(held[i]);
    ck_assert(wait_startups(0));
    for (int i = 0; i < 2; i++) {
        held[i] = raw_from(http, "127.0.0.4");
        ck_assert(wait_startups(i + 1));
    }
    tclient_t *q = player_from(port, "127.0.0.2");
    ck_assert(wait_startups(2));
    ck_assert_int_eq(srv_log_count(s, "before the lobby"), 1);
    cl_close(q);
    cl_close(p);
    for (int i = 0; i < 2; i++)
        cl_close(held[i]);
    ck_assert(wait_startups(0));
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("startups");
    TCase *tc = tcase_create("startups");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, below_start_all_are_let_in_at_full_new_ones_are_dropped);
    tcase_add_test(tc, players_in_the_lobby_do_not_count);
    tcase_add_test(tc, a_fresh_address_goes_first);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
