/* test_accept_errors.c - every errno the acceptor pauses on, and two it
 * does not (server/host.c, on_acceptable; docs/testing.md).
 *
 * accept4() failing with EMFILE, ENFILE, ENOBUFS or ENOMEM makes the
 * acceptor log "accept: <strerror>: pausing for 100 ms" (a stall's
 * first pause; then its 10th, 100th... and its end), stop polling its
 * listeners and poll them again after a 100 ms timer, the connection
 * waiting in the backlog meanwhile. test_accept_pause gets EMFILE from
 * the kernel (a lowered RLIMIT_NOFILE); the other three cannot be had on
 * demand. So the server runs with tests/preload/accept_fault.so preloaded,
 * which makes accept4 fail with the errno a flag file names while it
 * exists and counts the failures it made (its header says how;
 * preload.h: how it goes into a sanitizer's server). */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "play.h"
#include "preload.h"

/* The flag file's directory: made and removed by the runner (an unchecked
 * fixture), so a failed test leaves nothing behind. */
static char fault_dir[256];

static void fault_dir_setup(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(fault_dir, sizeof fault_dir, "%s/rogued-accept-fault-XXXXXX",
             t && *t ? t : "/tmp");
    if (!mkdtemp(fault_dir))
        fault_dir[0] = '\0';
}

static void fault_dir_teardown(void)
{
    if (fault_dir[0])
        srv_remove_tree(fault_dir);
}

static void fault_path(char *out, size_t len, const char *suffix)
{
    ck_assert_msg(fault_dir[0], "no directory for the flag file");
    snprintf(out, len, "%s/flag%s", fault_dir, suffix);
}

/* The flag on: the file names the errno (and a budget, "EPERM 3"),
 * written whole before the shim can see it (a rename). */
static void flag_on(const char *what)
{
    char tmp[PATH_MAX], flag[PATH_MAX];
    fault_path(tmp, sizeof tmp, ".tmp");
    fault_path(flag, sizeof flag, "");
    FILE *f = fopen(tmp, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_ge(fprintf(f, "%s\n", what), 0);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(rename(tmp, flag), 0);
}

static void flag_off(void)
{
    char flag[PATH_MAX];
    fault_path(flag, sizeof flag, "");
    ck_assert_int_eq(unlink(flag), 0);
}

/* The failures the shim has made since the last count_reset. */
static int failures(void)
{
    char path[PATH_MAX];
    fault_path(path, sizeof path, ".count");
    struct stat st;
    return stat(path, &st) == 0 ? (int)st.st_size : 0;
}

/* With the flag off nothing writes the count. */
static void count_reset(void)
{
    char path[PATH_MAX];
    fault_path(path, sizeof path, ".count");
    ck_assert(unlink(path) == 0 || errno == ENOENT);
    ck_assert_int_eq(failures(), 0);
}

/* The server with the shim preloaded. Only its process gets the
 * variables: they are taken back once it runs. */
static tsrv_t *start_with_shim(void)
{
    char flag[PATH_MAX];
    fault_path(flag, sizeof flag, "");
    unlink(flag);
    count_reset();
    ck_assert_int_eq(setenv("ACCEPT_FAULT_FLAG", flag, 1), 0);
    preload_env_t env;
    preload_set(&env, "accept_fault.so", "ACCEPT_FAULT_SO");
    tsrv_t *s = srv_start(NULL);
    preload_unset(&env);
    ck_assert_int_eq(unsetenv("ACCEPT_FAULT_FLAG"), 0);
    return s;
}

static const char connect_line[] = "info connect 127.0.0.1:";

/* Waits until the shim has made n failures, or the log has `wrong` once
 * (an error that did not pause: the acceptor then calls again at once, and
 * logs it again and again, so the wait ends there rather than at the
 * deadline). 1 when made. */
static int wait_failures(const tsrv_t *s, int n, const char *wrong)
{
    int64_t deadline = cl_now_ms() + CL_WAIT_MS;
    while (srv_log_count(s, wrong) == 0 && cl_now_ms() < deadline) {
        if (failures() >= n)
            return 1;
        struct timespec ts = { 0, 10 * 1000 * 1000 }; /* polled: 10 ms */
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* The flag naming errno `name` on, a player connects: the exact pause
 * line with strerror's text is logged once, however many times the
 * acceptor pauses (the timer ends a pause, the backlog is polled, accept
 * fails again); `pauses` of them are waited for, the player unaccepted
 * meanwhile (the tenth logged as "still pausing"). The flag off, the
 * player is accepted and gets the game, and the stall's end is logged with
 * its count: each failure made was one pause. *connects: the connect lines
 * so far. */
static void pauses_on(tsrv_t *s, const char *name, const char *text,
                      int pauses, int *connects)
{
    char line[160], wrong[160], still[160];
    snprintf(line, sizeof line,
             "Z error accept: %s: pausing for 100 ms\n", text);
    snprintf(wrong, sizeof wrong, "Z error accept: %s\n", text);
    snprintf(still, sizeof still, "Z error accept: %s: still pausing (10 "
             "pauses of 100 ms so far)\n", text);
    count_reset();
    ck_assert_int_eq(srv_log_count(s, line), 0);
    int ends = srv_log_count(s, "info accept: accepting again after ");

    flag_on(name);
    tclient_t *c = cl_connect(srv_port(s), NULL);
    ck_assert_msg(wait_failures(s, pauses, wrong),
                  "%s: not paused %d times; logged without a pause %d "
                  "times", name, pauses, srv_log_count(s, wrong));
    ck_assert(srv_wait_log(s, line, CL_WAIT_MS));
    if (pauses >= 10)
        ck_assert(srv_wait_log(s, still, CL_WAIT_MS));
    /* it waits in the backlog: not accepted, nothing sent to it */
    ck_assert_int_eq(srv_log_count(s, connect_line), *connects);
    ck_assert_int_eq(cl_pump(c, 0), 0);
    flag_off();

    play_ready(c);
    *connects += 1;
    ck_assert(srv_wait_log_count(s, connect_line, *connects, CL_WAIT_MS));
    ck_assert(srv_alive(s));
    /* accepted: the shim makes no more failures, and the acceptor logs
     * the stall's end before it hands the connection on, so both counts
     * are final */
    int made = failures();
    ck_assert_int_ge(made, pauses);
    char end[96];
    snprintf(end, sizeof end, "Z info accept: accepting again after %d "
             "pauses of 100 ms\n", made);
    ck_assert_msg(srv_wait_log_count(s, "info accept: accepting again "
                                     "after ", ends + 1, CL_WAIT_MS),
                  "%s: the stall's end not logged", name);
    char *log = srv_log(s), *last = log, *at;
    while ((at = strstr(last + 1, "info accept: accepting again")) != NULL)
        last = at;
    /* (last > log: the wait above found one; "Z " ends its time) */
    ck_assert_msg(strncmp(last - 2, end, strlen(end)) == 0, "%s: \"%s\" is "
                  "not the last end: %.60s", name, end, last);
    free(log);
    ck_assert_int_eq(srv_log_count(s, line), 1);
    ck_assert_int_eq(srv_log_count(s, still), made >= 10 ? 1 : 0);
    cl_close(c);
}

START_TEST(each_resource_errno_pauses_then_accepts)
{
    tsrv_t *s = start_with_shim();
    int connects = 0;
    pauses_on(s, "EMFILE", "Too many open files", 10, &connects);
    pauses_on(s, "ENFILE", "Too many open files in system", 2, &connects);
    pauses_on(s, "ENOBUFS", "No buffer space available", 2, &connects);
    pauses_on(s, "ENOMEM", "Cannot allocate memory", 2, &connects);
    /* nothing else went wrong with accept, and the shim had no complaint */
    ck_assert_int_eq(srv_log_count(s, "error accept:"),
                     srv_log_count(s, ": pausing for 100 ms\n") +
                     srv_log_count(s, "so far)\n"));
    ck_assert_int_eq(srv_log_count(s, "accept_fault:"), 0);
    play_check_new_player(srv_port(s));
    srv_stop(s);
}
END_TEST

/* The flag naming `name` with a budget of `budget` failures on: they are
 * made (the acceptor, polled without a pause, calls again at once), then
 * the player is accepted. `line`: what each failure logs, NULL for
 * nothing. No pause. */
static void no_pause_on(tsrv_t *s, const char *name, int budget,
                        const char *line, int *connects)
{
    char what[64];
    snprintf(what, sizeof what, "%s %d", name, budget);
    count_reset();
    int errors = srv_log_count(s, "error accept:");

    flag_on(what);
    tclient_t *c = cl_connect(srv_port(s), NULL);
    play_ready(c);
    *connects += 1;
    ck_assert(srv_wait_log_count(s, connect_line, *connects, CL_WAIT_MS));
    flag_off();
    ck_assert_int_eq(failures(), budget);
    if (line)
        ck_assert_int_eq(srv_log_count(s, line), budget);
    ck_assert_int_eq(srv_log_count(s, "error accept:"),
                     errors + (line ? budget : 0));
    ck_assert_int_eq(srv_log_count(s, "pausing for 100 ms"), 0);
    ck_assert(srv_alive(s));
    cl_close(c);
}

START_TEST(other_errnos_do_not_pause)
{
    tsrv_t *s = start_with_shim();
    int connects = 0;
    /* an error it logs, each time, and tries again */
    no_pause_on(s, "EPERM", 3, "Z error accept: Operation not permitted\n",
                &connects);
    /* a connection gone before it was accepted: tried again, silently */
    no_pause_on(s, "ECONNABORTED", 3, NULL, &connects);
    ck_assert_int_eq(srv_log_count(s, "Software caused connection abort"), 0);
    ck_assert_int_eq(srv_log_count(s, "accept_fault:"), 0);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("accept_errors");
    TCase *tc = tcase_create("accept_errors");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_unchecked_fixture(tc, fault_dir_setup, fault_dir_teardown);
    tcase_add_test(tc, each_resource_errno_pauses_then_accepts);
    tcase_add_test(tc, other_errnos_do_not_pause);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
