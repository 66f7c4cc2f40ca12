/* test_upgrade_group.c - a binary upgrade that fails ends everything the
 * new binary started (docs/hosting.md, "Upgrading without a goodbye"):
 * the new binary is a wrapper script that starts a child. When the script
 * never says it is ready, past upgrade_ready_ms (set small: the server's
 * clock, set by the test) both the script and its child are killed; when
 * the script exits at once leaving its child behind, the child is killed.
 * Either way the old server serves on. Without the process group, the
 * child would run on, holding the socketpair's end. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

#define WAIT_MS 30000

/* pid is killed: gone, or a zombie (the script's child, its parent
 * killed, may wait for a reaper). */
static void expect_gone(int pid, const char *what)
{
    ck_assert_msg(srv_wait_pid_gone(pid, 0, WAIT_MS), "%s (pid %d) still runs",
                  what, pid);
}

/* DIR/NAME, a script that starts `sleep 600` in the background, writes
 * its own pid and the child's to DIR/NAME.pids and then runs `tail`. */
static void write_wrapper(const char *dir, const char *name, const char *tail,
                          char *exe, size_t n)
{
    snprintf(exe, n, "%s/%s", dir, name);
    FILE *f = fopen(exe, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert(fprintf(f, "#!/bin/sh\nsleep 600 &\n"
                         "echo $$ $! > %s.tmp && mv %s.tmp %s.pids\n%s\n",
                      exe, exe, exe, tail) > 0);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(chmod(exe, 0755), 0);
}

static void read_pids(const char *exe, int *script, int *child)
{
    char path[700];
    snprintf(path, sizeof path, "%s.pids", exe);
    for (int i = 0; i < WAIT_MS / 10 && access(path, F_OK) != 0; i++)
        usleep(10000);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "the script wrote no %s", path);
    ck_assert_int_eq(fscanf(f, "%d %d", script, child), 2);
    fclose(f);
    ck_assert(*script > 0 && *child > 0);
}

/* A script that forks the "real server" and waits on it, which never says
 * it is ready: at upgrade_ready_ms both are killed. (2 s: room for the
 * script to write the pids first on a loaded machine; the test waits on
 * the console's answer, not on the clock.) */
START_TEST(never_ready_wrapper_and_its_child_are_killed)
{
    tsrv_t *s = srv_start("--set", "upgrade_ready_ms=2000", NULL);
    char dir[512], exe[600], cmd[700], out[1024];
    srv_data_dir(s, dir, sizeof dir);
    write_wrapper(dir, "wrapper.sh", "wait", exe, sizeof exe);
    snprintf(cmd, sizeof cmd, "upgrade %s", exe);
    FILE *p = srv_ctl_start(s, cmd);
    ck_assert_ptr_nonnull(p);
    int script, child;
    read_pids(exe, &script, &child);
    int rc = srv_ctl_finish(p, out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "upgrade failed: the new binary did "
                                         "not say it was ready in time"),
                  "ctl %s: status %d: %s", cmd, rc, out);
    ck_assert(srv_wait_log(s, "this server goes on serving", WAIT_MS));
    expect_gone(script, "the wrapper script");
    expect_gone(child, "the wrapper's child");
    ck_assert(srv_alive(s)); /* the old server serves on */
    play_check_new_player(srv_port(s));
    srv_stop(s);
}
END_TEST

/* A script that starts the "real server" in the background and exits:
 * the upgrade fails at the script's exit, and the child left behind is
 * killed with it. */
START_TEST(exiting_wrapper_leaves_no_child)
{
    tsrv_t *s = srv_start(NULL);
    char dir[512], exe[600], cmd[700], out[1024];
    srv_data_dir(s, dir, sizeof dir);
    write_wrapper(dir, "daemonish.sh", "exit 0", exe, sizeof exe);
    snprintf(cmd, sizeof cmd, "upgrade %s", exe);
    int rc = srv_ctl(s, cmd, out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "upgrade failed: the new binary "
                                         "exited (status 0, signal 0) before "
                                         "it was ready"),
                  "ctl %s: status %d: %s", cmd, rc, out);
    int script, child;
    read_pids(exe, &script, &child);
    expect_gone(child, "the wrapper's child");
    ck_assert(srv_alive(s)); /* the old server serves on */
    play_check_new_player(srv_port(s));
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("upgrade_group");
    TCase *tc = tcase_create("upgrade_group");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, never_ready_wrapper_and_its_child_are_killed);
    tcase_add_test(tc, exiting_wrapper_leaves_no_child);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
