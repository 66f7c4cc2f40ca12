/* test_store_moved.c - the database file moved away while the server runs
 * (docs/hosting.md, "Data"): SQLite writes on to the file it has open, so
 * without a look at the path every account and game written from then on
 * would be lost silently at the next start. Renamed, the log says so (an
 * error naming the path and what to do) and /metrics has
 * rogued_store_file_moved 1; moved back, the log says it is in place again
 * and the gauge is 0. Deleted, the same error. Play goes on meanwhile. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

#define WAIT_MS 30000

/* The sample line of rogued_store_file_moved that `ctl metrics` gives. */
static void expect_gauge(tsrv_t *s, int value)
{
    char out[65536], want[64];
    int rc = srv_ctl(s, "metrics", out, sizeof out);
    ck_assert_msg(rc == 0, "ctl metrics: status %d: %s", rc, out);
    snprintf(want, sizeof want, "\nrogued_store_file_moved %d\n", value);
    ck_assert_msg(strstr(out, want), "no \"%.*s\" in ctl metrics",
                  (int)strlen(want) - 2, want + 1);
}

/* The error the store logs once the file at path is not the one open. */
static void moved_line(const char *path, char *out, size_t n)
{
    snprintf(out, n, "error store: %s is no longer the database file this "
             "server has open (renamed, deleted or replaced while it runs): "
             "accounts and games written from now on go to a file the next "
             "start does not read, and are lost then; if it was renamed, move "
             "it back to %s now; if it was deleted, stop the server and "
             "restore a backup\n", path, path);
}

static void expect_playing(tsrv_t *s)
{
    tclient_t *c = play_connect(srv_port(s), NULL);
    play_step(c);
    cl_close(c);
}

START_TEST(renamed_then_moved_back)
{
    tsrv_t *s = srv_start(NULL);
    char dir[512], db[600], moved[640], line[2048];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(db, sizeof db, "%s/rogued.db", dir);
    snprintf(moved, sizeof moved, "%s/rogued.db.moved", dir);
    expect_gauge(s, 0);
    ck_assert_int_eq(rename(db, moved), 0);
    moved_line(db, line, sizeof line);
    ck_assert_msg(srv_wait_log(s, line, WAIT_MS), "no \"%s\"", line);
    expect_gauge(s, 1);
    expect_playing(s);
    ck_assert_int_eq(rename(moved, db), 0);
    snprintf(line, sizeof line, "info store: %s: the database file is in "
             "place again; what is written is kept\n", db);
    ck_assert_msg(srv_wait_log(s, line, WAIT_MS), "no \"%s\"", line);
    expect_gauge(s, 0);
    /* said once each way, not at each look */
    moved_line(db, line, sizeof line);
    ck_assert_int_eq(srv_log_count(s, line), 1);
    srv_stop(s);
}
END_TEST

START_TEST(deleted)
{
    tsrv_t *s = srv_start(NULL);
    char dir[512], db[600], line[2048];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(db, sizeof db, "%s/rogued.db", dir);
    ck_assert_int_eq(unlink(db), 0);
    moved_line(db, line, sizeof line);
    ck_assert_msg(srv_wait_log(s, line, WAIT_MS), "no \"%s\"", line);
    expect_gauge(s, 1);
    expect_playing(s);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("store_moved");
    TCase *tc = tcase_create("store_moved");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, renamed_then_moved_back);
    tcase_add_test(tc, deleted);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
