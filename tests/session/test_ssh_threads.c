/* test_ssh_threads.c - SSH costs a fixed number of threads, not one per
 * connection (issue 26, docs/performance.md, "SSH at telnet's cost"):
 * with ssh_threads=2 the server runs min(2, cores) threads named
 * "rogued-ssh", and 40 SSH
 * connections that each got the server's banner (so a thread serves
 * them) add none: the server's thread count (/proc/PID/task) stays within
 * what it had before plus libuv's pool (4, started lazily by other work);
 * with ssh_threads past the cores, one a core, said in the log. A count,
 * not a timing. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <check.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "client.h"

#define CONNS 40
#define UV_POOL 4

START_TEST(connections_add_no_threads)
{
    static char port_set[32];
    int sport = cl_free_port();
    snprintf(port_set, sizeof port_set, "ssh_port=%d", sport);
    tsrv_t *s = srv_start("--set", port_set, "--set", "ssh_threads=2", "--set",
                          "ssh_unauth_per_ip=0", "--set",
                          "ssh_login_grace_ms=60000", NULL);
    ck_assert(srv_wait_log(s, "host key SHA256:", CL_WAIT_MS));
    cpu_set_t set;
    ck_assert_int_eq(sched_getaffinity(0, sizeof set, &set), 0);
    int cores = CPU_COUNT(&set), want = cores < 2 ? cores : 2;
    int ssh_before = srv_threads_named(s, "rogued-ssh");
    int before = srv_threads_named(s, NULL);
    ck_assert_int_eq(ssh_before, want);

    cl_opts_t o = { .raw = 1 };
    tclient_t *c[CONNS];
    for (int i = 0; i < CONNS; i++) {
        c[i] = cl_connect(sport, &o);
        ck_assert_msg(cl_wait_text(c[i], "SSH-2.0", CL_WAIT_MS) ||
                      cl_stream_has(c[i], "SSH-2.0"), "no banner on %d", i);
    }
    int ssh_now = srv_threads_named(s, "rogued-ssh");
    int now = srv_threads_named(s, NULL);
    ck_assert_int_eq(ssh_now, want);
    ck_assert_msg(now <= before + UV_POOL, "%d connections: %d threads, %d "
                  "before", CONNS, now, before);
    for (int i = 0; i < CONNS; i++)
        cl_close(c[i]);
    srv_stop(s);
}
END_TEST

/* More threads asked for than there are cores: one a core, and the log
 * says so (the host asked for more than it got). */
START_TEST(past_the_cores_one_a_core_and_said)
{
    static char port_set[32];
    snprintf(port_set, sizeof port_set, "ssh_port=%d", cl_free_port());
    tsrv_t *s = srv_start("--set", port_set, "--set", "ssh_threads=64", NULL);
    ck_assert(srv_wait_log(s, "host key SHA256:", CL_WAIT_MS));
    char *log = srv_log(s);
    const char *at = strstr(log, "ssh: ");
    int n = 0, asked = 0;
    while (at && sscanf(at, "ssh: %d threads (ssh_threads = %d: at most one "
                        "per core)", &n, &asked) != 2)
        at = strstr(at + 1, "ssh: ");
    int said = at != NULL;
    free(log);
    ck_assert_msg(said, "no line saying the threads were cut to the cores");
    ck_assert_int_eq(asked, 64);
    cpu_set_t set;
    ck_assert_int_eq(sched_getaffinity(0, sizeof set, &set), 0);
    ck_assert_int_ge(n, 1);
    ck_assert_int_le(n, CPU_COUNT(&set));
    ck_assert_int_eq(srv_threads_named(s, "rogued-ssh"), n);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ssh threads");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, connections_add_no_threads);
    tcase_add_test(tc, past_the_cores_one_a_core_and_said);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
