/* test_web_counted.c - a browser's connection counts against its
 * address's limit and max_sessions from its first byte, not only once its
 * WebSocket opens (issue 25, docs/hosting.md): silent connections to the
 * browser's port from 127.0.0.2 fill its max_sessions_per_ip, the next
 * one from it (browser or telnet) is refused with a log line, and
 * 127.0.0.1 plays meanwhile. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

START_TEST(silent_browser_connections_are_counted)
{
    static char port_set[32];
    int http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", http);
    tsrv_t *s = srv_start("--set", port_set, "--set", "max_sessions_per_ip=3",
                          "--set", "negotiation_ms=3000", "--set", "workers=1",
                          NULL);
    cl_opts_t o = { .raw = 1, .src = "127.0.0.2" };
    tclient_t *held[3];
    for (int i = 0; i < 3; i++) {
        /* nothing sent; one worker loop takes connections in the order
         * they were accepted: the fourth is counted after these three */
        held[i] = cl_connect(http, &o);
    }
    tclient_t *fourth = cl_connect(http, &o);
    ck_assert_msg(cl_wait_eof(fourth, CL_WAIT_MS), "a fourth silent browser "
                  "connection from 127.0.0.2 was kept");
    ck_assert(srv_wait_log(s, "refused 127.0.0.2:", CL_WAIT_MS));
    ck_assert(srv_log_has(s, "too many sessions from this address"));
    cl_close(fourth);
    /* telnet from the same address: the same count */
    tclient_t *t = cl_connect(srv_port(s), &o);
    ck_assert_msg(cl_wait_eof(t, CL_WAIT_MS), "telnet from 127.0.0.2 was let "
                  "in past its limit");
    cl_close(t);
    ck_assert_int_eq(srv_log_count(s, "refused 127.0.0.2:"), 2);
    /* another address plays */
    play_check_new_player(srv_port(s));
    for (int i = 0; i < 3; i++)
        cl_close(held[i]);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("web_counted");
    TCase *tc = tcase_create("web_counted");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, silent_browser_connections_are_counted);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
