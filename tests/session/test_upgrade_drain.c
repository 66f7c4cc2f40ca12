/* test_upgrade_drain.c - a binary upgrade and a client that does not read
 * (docs/hosting.md, "Upgrading without a goodbye"): each session's last
 * output is written before it is packed, but a client that does not take
 * it holds the upgrade only upgrade_drain_ms (the test sets it small: the
 * clock is the server's, no time is measured here). The session is then
 * packed with its output unwritten (logged), the old process exits, and
 * the client, reading again, has its game painted whole by the new process
 * and plays on. Whether the output is stuck is read on /metrics
 * (rogued_sessions_output_waiting), not guessed. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "metrics.h"
#include "play.h"

#define WAIT_MS 30000

START_TEST(a_client_not_reading_is_moved_after_the_drain_limit)
{
    int mport = cl_free_port();
    char set[64];
    snprintf(set, sizeof set, "metrics_port=%d", mport);
    tsrv_t *s = srv_start("--seed", "42", "--set", set,
                          "--set", "upgrade_drain_ms=50",
                          "--set", "output_limit=67108864",
                          "--set", "write_timeout=0",
                          /* its requests fill the kernel's buffers */
                          "--set", "max_input_bytes_per_second=100000000",
                          NULL);
    ck_assert(srv_wait_log(s, "metrics on ", WAIT_MS));
    int old_pid = srv_pid(s);
    cl_opts_t o = { .rcvbuf = 4096 };
    tclient_t *c = play_connect(srv_port(s), &o);
    int turn = cl_turn(c);
    metrics_stop_reading_with_output_owed(c, mport);

    char out[1024];
    int rc = srv_upgrade(s, out, sizeof out);
    ck_assert_msg(rc == 0, "rogued --upgrade: status %d: %s", rc, out);
    ck_assert_msg(strstr(out, "upgraded: 1 session moved to pid "), "%s", out);
    int pid = srv_upgraded_pid(out);
    ck_assert_int_ne(pid, old_pid);
    /* it was not written: packed anyway, past upgrade_drain_ms */
    ck_assert(srv_log_has(s, "bytes of output unwritten after upgrade_drain_ms"));
    ck_assert_msg(srv_wait_exited(s, WAIT_MS), "the old process did not exit");

    /* reading again: the old output, then the new process's whole screen */
    ck_assert_msg(cl_sync(c, WAIT_MS), "no answer from the new process");
    ck_assert(!cl_closed(c));
    play_wait_text(c, "HP: ");
    ck_assert(cl_key(c, "."));
    int next = turn + 1;
    if (!cl_wait(c, cl_at_turn, &next, WAIT_MS))
        play_fail(c, "the turn is %d, not %d", cl_turn(c), next);
    ck_assert(metrics_wait(mport, "rogued_sessions_output_waiting", 0));
    ck_assert(metrics_is(mport, "rogued_process_pid", pid));

    cl_close(c);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("upgrade_drain");
    TCase *tc = tcase_create("upgrade_drain");
    tcase_set_timeout(tc, 240);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, a_client_not_reading_is_moved_after_the_drain_limit);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
