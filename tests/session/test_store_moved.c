/* test_store_moved.c - the database file moved away while the server runs
 * (docs/hosting.md, "Data"): SQLite writes on to the file it has open, so
 * without a look at the path every account and game written from then on
 * would be lost silently at the next start. Renamed, the log says so (an
 * error naming the path and what to do) and /metrics has
 * rogued_store_file_moved 1; moved back, the log says it is in place again
 * and the gauge is 0. Deleted, the same error, and the database as the
 * server has it copied to rogued.db.rescued, at once and as it stops.
 * Play goes on meanwhile. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

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
             "start does not read. If it was renamed, move it back now; if "
             "not, the open database is copied to %s.rescued now and again as "
             "the server stops: stop it, put that copy in place of %s "
             "(removing %s-wal and %s-shm), and start it\n", path, path, path,
             path, path);
}

/* The accounts named name in the SQLite database at path. */
static int accounts_named(const char *path, const char *name)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int n = -1;
    ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM accounts "
                                        "WHERE name = ?1", -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
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
             "place again; what is written is kept (%s.rescued is not "
             "needed)\n", db, db);
    ck_assert_msg(srv_wait_log(s, line, WAIT_MS), "no \"%s\"", line);
    expect_gauge(s, 0);
    /* said once each way, not at each look */
    moved_line(db, line, sizeof line);
    ck_assert_int_eq(srv_log_count(s, line), 1);
    srv_stop(s);
}
END_TEST

/* Deleted: the same error, and the database as the server has it is
 * copied beside it at once and again as the server stops, so that an
 * account made after the deletion is in the last copy. */
START_TEST(deleted)
{
    /* a data directory of the test's own: the last copy is read after
     * the server (and its own directory) is gone */
    char dir[] = "/tmp/rogued-moved-XXXXXX", db[600], rescued[640],
         line[2048];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    tsrv_t *s = srv_start("--data-dir", dir, NULL);
    snprintf(db, sizeof db, "%s/rogued.db", dir);
    snprintf(rescued, sizeof rescued, "%s.rescued", db);
    tclient_t *a = play_lobby(srv_port(s));
    play_login_dave(a, 1); /* an account before */
    cl_close(a);
    ck_assert_int_eq(unlink(db), 0);
    moved_line(db, line, sizeof line);
    ck_assert_msg(srv_wait_log(s, line, WAIT_MS), "no \"%s\"", line);
    snprintf(line, sizeof line, "info store: the open database copied to %s "
             "(the file moved)\n", rescued);
    ck_assert_msg(srv_wait_log(s, line, WAIT_MS), "no \"%s\"", line);
    ck_assert_int_eq(accounts_named(rescued, "dave"), 1);
    ck_assert_int_eq(accounts_named(rescued, "eve"), 0);
    expect_playing(s); /* (the gauge: renamed_then_moved_back) */
    cl_close(play_register(srv_port(s), "eve")); /* an account after */
    srv_stop(s);
    ck_assert_int_eq(accounts_named(rescued, "eve"), 1);
    ck_assert_int_eq(accounts_named(rescued, "dave"), 1);
    srv_remove_tree(dir);
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
