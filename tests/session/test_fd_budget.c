/* test_fd_budget.c - the server's descriptors as a budget (issue 25,
 * docs/hosting.md "Sizing"): with a limit of 100 and 30 kept in reserve, a
 * flood of connections is accepted up to the budget, the next ones are
 * closed at once with a log line (not left to fail accept() on every port
 * at the limit), and once the flood goes a new player plays. */
#include <check.h>
#include <stdio.h>
#include <sys/resource.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

#define FLOOD 75

/* The server's first bytes (IAC: its telnet options) have come, or it
 * closed the connection. */
static int answered_or_closed(tclient_t *c, void *arg)
{
    (void)arg;
    return cl_closed(c) || cl_stream_has(c, "\xff");
}

START_TEST(connections_past_the_budget_closed_at_once)
{
    /* this test's process (check forks one per test) and the server it
     * starts: a hard limit of 100 */
    struct rlimit rl = { 100, 100 };
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
    tsrv_t *s = srv_start("--set", "fd_reserve=30", "--set",
                          "max_sessions_per_ip=0", "--set",
                          "connects_per_ip_per_minute=0", "--set", "workers=1",
                          "--set", "http_port=0", NULL);
    ck_assert(srv_wait_log(s, "descriptors: limit 100, 30 kept in reserve",
                           CL_WAIT_MS));
    cl_opts_t o = { .raw = 1 };
    static tclient_t *c[FLOOD];
    for (int i = 0; i < FLOOD; i++)
        c[i] = cl_connect(srv_port(s), &o);
    ck_assert(srv_wait_log(s, "refused: descriptors nearly all used", 30000));
    /* the last is past the budget: closed, not left waiting */
    ck_assert_msg(cl_wait_eof(c[FLOOD - 1], CL_WAIT_MS), "the connection "
                  "past the budget was not closed");
    ck_assert(srv_alive(s));
    /* The acceptor hands a connection over before it logs it; the worker
     * logs "connect", then writes its telnet options: so once each of the
     * others has an answer (kept) or is closed (refused), every kept one
     * is in the log (counted at once, a busy worker could be behind). */
    int kept = 0;
    for (int i = 0; i < FLOOD - 1; i++) {
        ck_assert_msg(cl_wait(c[i], answered_or_closed, NULL, CL_WAIT_MS),
                      "connection %d: neither an answer nor closed", i);
        kept += !cl_closed(c[i]);
    }
    int in = srv_log_count(s, "info connect ");
    ck_assert_int_eq(in, kept);
    ck_assert_int_gt(in, 0);
    ck_assert_int_lt(in, FLOOD);
    for (int i = 0; i < FLOOD; i++)
        cl_close(c[i]);
    /* every descriptor of the flood given back */
    ck_assert(srv_wait_log_count(s, "info disconnect ", in, 30000));
    play_check_new_player(srv_port(s));
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("fd_budget");
    TCase *tc = tcase_create("fd_budget");
    tcase_set_timeout(tc, 90);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, connections_past_the_budget_closed_at_once);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
