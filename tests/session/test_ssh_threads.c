/* test_ssh_threads.c - SSH costs a fixed number of threads, not one per
 * connection (issue 26, docs/performance.md, "SSH"): with ssh_threads=2
 * the server runs min(2, cores) threads named "rogued-ssh", and 40 SSH
 * connections that each got the server's banner (so a thread serves
 * them) add none: the server's thread count (/proc/PID/task) stays within
 * what it had before plus libuv's pool (4, started lazily by other work).
 * A count, not a timing. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <check.h>
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "client.h"

#define CONNS 40
#define UV_POOL 4

/* The server's threads: all of them, and those named name. */
static int threads(const tsrv_t *s, const char *name, int *named)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", srv_pid(s));
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    *named = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        n++;
        char comm_path[400], comm[32] = "";
        snprintf(comm_path, sizeof comm_path, "%s/%s/comm", path, e->d_name);
        FILE *f = fopen(comm_path, "r");
        if (f && fgets(comm, sizeof comm, f)) {
            comm[strcspn(comm, "\n")] = '\0';
            *named += strcmp(comm, name) == 0;
        }
        if (f)
            fclose(f);
    }
    closedir(d);
    return n;
}

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
    int ssh_before, before = threads(s, "rogued-ssh", &ssh_before);
    ck_assert_int_eq(ssh_before, want);

    cl_opts_t o = { .raw = 1 };
    tclient_t *c[CONNS];
    for (int i = 0; i < CONNS; i++) {
        c[i] = cl_connect(sport, &o);
        ck_assert_msg(cl_wait_text(c[i], "SSH-2.0", CL_WAIT_MS) ||
                      cl_stream_has(c[i], "SSH-2.0"), "no banner on %d", i);
    }
    int ssh_now, now = threads(s, "rogued-ssh", &ssh_now);
    ck_assert_int_eq(ssh_now, want);
    ck_assert_msg(now <= before + UV_POOL, "%d connections: %d threads, %d "
                  "before", CONNS, now, before);
    for (int i = 0; i < CONNS; i++)
        cl_close(c[i]);
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
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
