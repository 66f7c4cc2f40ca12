/* test_start.c - a database the server cannot keep games in stops it at
 * start, with a message that names the file and what to do, rather than
 * losing every game later: a file or directory it may not write (the
 * server run as an unprivileged user), and a file with a damaged page;
 * a data directory the user may not enter, named as such (by the start,
 * --list-games and rogued ctl).
 * And the store's start line names the lock wait in force; a metrics_port
 * in use stops the start as a port in use does. */
#include <check.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"

#define NOBODY "65534"

/* The server on a data directory, as prefix's user (may be ""). */
static int run_server(const char *prefix, const char *dir, char *out,
                      size_t len)
{
    char args[256];
    snprintf(args, sizeof args, "--config /dev/null --data-dir %s", dir);
    return srv_run_once(prefix, args, out, len);
}

/* A data directory with a database the server made (some games in it). */
static void make_database(char *dir)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    tsrv_t *s = srv_start("--data-dir", dir, NULL);
    for (int i = 0; i < 3; i++) {
        tclient_t *c = cl_connect(srv_port(s), NULL);
        ck_assert(cl_wait_ready(c, CL_WAIT_MS));
        cl_close(c);
    }
    srv_stop(s);
}

/* store_lock_timeout_ms reaches the store: its line at start says the
 * wait in force, the default's and the one set. */
START_TEST(lock_wait_is_the_setting)
{
    char dir[] = "/tmp/rogued-start-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    tsrv_t *s = srv_start("--data-dir", dir, NULL);
    ck_assert(srv_wait_log(s, "a lock held elsewhere is waited for 10000 ms",
                           CL_WAIT_MS));
    srv_stop(s);
    s = srv_start("--data-dir", dir, "--set", "store_lock_timeout_ms=1500",
                  NULL);
    ck_assert(srv_wait_log(s, "a lock held elsewhere is waited for 1500 ms",
                           CL_WAIT_MS));
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

START_TEST(unwritable_database_refused)
{
    if (getuid() != 0 || access("/usr/bin/setpriv", X_OK) != 0) {
        /* Not root: the files are this user's own, nothing to show. */
        fprintf(stderr, "skipped: needs root and setpriv\n");
        return;
    }
    char dir[] = "/tmp/rogued-start-XXXXXX", out[4096];
    make_database(dir);
    /* The directory and the file stay root's: to another user both are
     * read-only (SQLite must also make its -wal file beside the file). */
    ck_assert_int_eq(chmod(dir, 0755), 0);
    int rc = run_server("setpriv --reuid=" NOBODY " --regid=" NOBODY
                        " --clear-groups", dir, out, sizeof out);
    ck_assert_int_ne(rc, 0);
    ck_assert_msg(strstr(out, "cannot be written") && strstr(out, dir),
                  "said: %s", out);
    ck_assert_ptr_null(strstr(out, "listening"));
    srv_remove_tree(dir);
}
END_TEST

/* A data directory this user may not enter (mode 0: as root, the server
 * runs as nobody, for whom the directory is root's and shut; as anyone
 * else, their own directory shut to them) is named as a permission
 * refused, with the user, by the start, by --list-games (which read "no
 * database there") and by rogued ctl, never as a missing database. */
/* The start's (and --list-games') line for a data directory dir that
 * user uid may not reach, into out. */
static void unreachable_line(char *out, size_t n, const char *dir,
                             unsigned uid)
{
    snprintf(out, n, "rogued: %s/rogued.db cannot be reached: Permission "
             "denied: this user, uid %u, may not open it or a directory on "
             "its path; run rogued as the user the data directory belongs "
             "to\n", dir, uid);
}

START_TEST(a_data_directory_not_open_to_the_user_is_said_so)
{
    const char *prefix = "";
    unsigned uid = (unsigned)getuid();
    if (uid == 0) {
        if (access("/usr/bin/setpriv", X_OK) != 0) {
            fprintf(stderr, "skipped: root without setpriv\n");
            return;
        }
        prefix = "setpriv --reuid=" NOBODY " --regid=" NOBODY " --clear-groups";
        uid = 65534;
    }
    char dir[] = "/tmp/rogued-start-XXXXXX", args[256], want[1024], cmd[1024];
    char inner[64];
    static char out[4096];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(inner, sizeof inner, "%s/inner", dir);
    ck_assert_int_eq(mkdir(inner, 0755), 0);
    ck_assert_int_eq(chmod(dir, 0), 0);
    char inner_want[1024];
    unreachable_line(want, sizeof want, dir, uid);
    ck_assert_int_eq(run_server(prefix, dir, out, sizeof out), 1);
    ck_assert_str_eq(out, want);
    /* one under it, there but out of reach: the same sentence, not "cannot
     * create data directory" (a host QA's find) */
    unreachable_line(inner_want, sizeof inner_want, inner, uid);
    ck_assert_int_eq(run_server(prefix, inner, out, sizeof out), 1);
    ck_assert_str_eq(out, inner_want);
    snprintf(args, sizeof args, "--config /dev/null --data-dir %s "
             "--list-games", dir);
    ck_assert_int_eq(srv_run_once(prefix, args, out, sizeof out), 1);
    ck_assert_str_eq(out, want);
    const char *bin = getenv("ROGUED_BIN");
    snprintf(cmd, sizeof cmd, "timeout 60 %s %s ctl --data-dir %s who 2>&1 "
             "</dev/null", prefix, bin ? bin : "build/san/rogued", dir);
    ck_assert_int_eq(srv_ctl_finish(popen(cmd, "r"), out, sizeof out), 2);
    snprintf(want, sizeof want, "rogued ctl: cannot reach the server at "
             "%s/ctl.sock: Permission denied (this user, uid %u, may not open "
             "it or a directory on its path; run rogued ctl as the user the "
             "server runs as)\n", dir, uid);
    ck_assert_str_eq(out, want);
    ck_assert_int_eq(chmod(dir, 0700), 0);
    srv_remove_tree(dir);
}
END_TEST

/* A data_dir that is a file (or under one): said so, with what to do,
 * not "cannot create data directory ...: File exists". */
START_TEST(a_file_as_the_data_directory_is_said_so)
{
    char file[] = "/tmp/rogued-start-XXXXXX", under[64], want[256];
    static char out[4096];
    int fd = mkstemp(file);
    ck_assert_int_ge(fd, 0);
    close(fd);
    snprintf(want, sizeof want, "rogued: data directory '%s' is not a "
             "directory (or a part of its path is a file): give data_dir a "
             "directory\n", file);
    ck_assert_int_eq(run_server("", file, out, sizeof out), 1);
    ck_assert_str_eq(out, want);
    snprintf(under, sizeof under, "%s/data", file);
    snprintf(want, sizeof want, "rogued: data directory '%s' is not a "
             "directory (or a part of its path is a file): give data_dir a "
             "directory\n", under);
    ck_assert_int_eq(run_server("", under, out, sizeof out), 1);
    ck_assert_str_eq(out, want);
    unlink(file);
}
END_TEST

START_TEST(damaged_database_refused)
{
    char dir[] = "/tmp/rogued-start-XXXXXX", path[128], out[4096];
    make_database(dir);
    snprintf(path, sizeof path, "%s/rogued.db", dir);
    /* The games table's root page: its b-tree header overwritten. */
    sqlite3 *db;
    sqlite3_stmt *q;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT rootpage, (SELECT page_size"
                                        " FROM pragma_page_size) FROM sqlite_master"
                                        " WHERE name = 'games'", -1, &q, NULL),
                     SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
    long long root = sqlite3_column_int64(q, 0), page = sqlite3_column_int64(q, 1);
    sqlite3_finalize(q);
    sqlite3_close(db);
    ck_assert_int_gt(root, 1);
    int fd = open(path, O_WRONLY);
    ck_assert_int_ge(fd, 0);
    unsigned char junk[64];
    memset(junk, 0x5a, sizeof junk);
    ck_assert_int_eq(pwrite(fd, junk, sizeof junk, (root - 1) * page),
                     (ssize_t)sizeof junk);
    close(fd);
    ck_assert_int_ne(run_server("", dir, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "is damaged") && strstr(out, path), "said: %s", out);
    ck_assert_ptr_null(strstr(out, "listening"));
    srv_remove_tree(dir);
}
END_TEST

/* metrics_port in use stops the start as port in use does (the same
 * exit status, the key that moves it named), rather than a server that
 * runs on with no /metrics for its scraper to notice. */
START_TEST(a_metrics_port_in_use_stops_the_start)
{
    char dir[] = "/tmp/rogued-start-XXXXXX", args[256], want[256];
    static char out[8192];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    int port = cl_free_port(), fd = cl_hold_port(port);
    snprintf(args, sizeof args, "--config /dev/null --data-dir %s --port %d",
             dir, port);
    int port_rc = srv_run_once("", args, out, sizeof out);
    ck_assert_msg(port_rc == 1, "port in use: exit status %d: %s", port_rc,
                  out);
    snprintf(args, sizeof args, "--config /dev/null --data-dir %s --set "
             "metrics_port=%d", dir, port);
    int rc = srv_run_once("", args, out, sizeof out);
    ck_assert_msg(rc == port_rc, "exit status %d: %s", rc, out);
    snprintf(want, sizeof want, "cannot listen on 127.0.0.1 port %d "
             "(metrics_port): Address already in use (another server on it? "
             "--set metrics_port=N moves this one)\n", port);
    ck_assert_msg(strstr(out, want), "%s", out);
    ck_assert_msg(!strstr(out, "console on"), "%s", out);
    close(fd);
    srv_remove_tree(dir);
}
END_TEST

/* --upgrade with no server on the data directory says so as itself,
 * not as `rogued ctl` (which the host did not run), with exit status 2. */
START_TEST(upgrade_without_a_server_says_so)
{
    char dir[] = "/tmp/rogued-start-XXXXXX", want[512];
    static char out[4096];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char args[256];
    snprintf(args, sizeof args, "--config /dev/null --data-dir %s --upgrade",
             dir);
    ck_assert_int_eq(srv_run_once("", args, out, sizeof out), 2);
    snprintf(want, sizeof want, "rogued --upgrade: cannot reach the server "
             "at %s/ctl.sock: No such file or directory (no server runs with "
             "this data directory: start one, or name its own with "
             "--data-dir DIR)\n", dir);
    ck_assert_str_eq(out, want);
    srv_remove_tree(dir);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("start");
    TCase *tc = tcase_create("start");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, unwritable_database_refused);
    tcase_add_test(tc, a_data_directory_not_open_to_the_user_is_said_so);
    tcase_add_test(tc, a_file_as_the_data_directory_is_said_so);
    tcase_add_test(tc, damaged_database_refused);
    tcase_add_test(tc, lock_wait_is_the_setting);
    tcase_add_test(tc, a_metrics_port_in_use_stops_the_start);
    tcase_add_test(tc, upgrade_without_a_server_says_so);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
