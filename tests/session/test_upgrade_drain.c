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
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "metrics.h"
#include "play.h"

#define WAIT_MS 30000
#define HANG_S 120
/* the requests one write carries (IAC DO 99 each) */
#define REQUESTS 8192

static int at_turn(tclient_t *c, void *arg)
{
    return cl_turn(c) == *(int *)arg;
}

/* Telnet requests the client must answer but does not read the answers
 * of, until the server's own queue for it is not empty: the kernel's
 * buffers are full, and stay full while the client does not read.
 * Answers to requests cannot be skipped as frames are (test_limits.c's
 * slow_reader_cut_off), and output_limit is set far above what the
 * buffers hold. */
static void stop_reading_with_output_owed(tclient_t *c, int mport)
{
    size_t len = 3 * REQUESTS;
    char *buf = malloc(len);
    ck_assert_ptr_nonnull(buf);
    for (size_t i = 0; i < len; i += 3) {
        buf[i] = (char)0xff;
        buf[i + 1] = (char)0xfd;
        buf[i + 2] = 99;
    }
    time_t deadline = time(NULL) + HANG_S; /* only a hang ends it */
    int owed = 0;
    size_t total = 0;
    while (!owed && !cl_closed(c) && time(NULL) < deadline) {
        total += cl_send_raw(c, buf, len, 0, 2000);
        owed = metrics_is(mport, "rogued_sessions_output_waiting", 1);
    }
    free(buf);
    ck_assert_msg(owed, "no output waiting after %zu bytes sent", total);
    ck_assert(!cl_closed(c));
}

START_TEST(a_client_not_reading_is_moved_after_the_drain_limit)
{
    int mport = cl_free_port();
    char set[64];
    snprintf(set, sizeof set, "metrics_port=%d", mport);
    tsrv_t *s = srv_start("--seed", "42", "--set", set,
                          "--set", "upgrade_drain_ms=50",
                          "--set", "output_limit=67108864",
                          "--set", "write_timeout=0", NULL);
    ck_assert(srv_wait_log(s, "metrics on ", WAIT_MS));
    int old_pid = srv_pid(s);
    cl_opts_t o = { .rcvbuf = 4096 };
    tclient_t *c = play_connect(srv_port(s), &o);
    int turn = cl_turn(c);
    stop_reading_with_output_owed(c, mport);

    char out[1024];
    int rc = srv_upgrade(s, out, sizeof out);
    ck_assert_msg(rc == 0, "rogued --upgrade: status %d: %s", rc, out);
    ck_assert_msg(strstr(out, "upgraded: 1 sessions moved to pid "), "%s", out);
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
    if (!cl_wait(c, at_turn, &next, WAIT_MS))
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
