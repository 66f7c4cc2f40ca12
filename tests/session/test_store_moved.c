/* test_store_moved.c - the database file moved away while the server runs
 * (docs/hosting.md, "Files"): SQLite writes on to the file it has open, so
 * without a look at the path every account and game written from then on
 * would be lost silently at the next start. Renamed, the log says so (an
 * error naming the path and what to do) and /metrics has
 * rogued_store_file_moved 1; moved back, the log says it is in place again
 * and the gauge is 0. Deleted or replaced by another file, the same
 * error, and the database as the server has it copied to
 * rogued.db.rescued, at once and as it stops (a rename gets the copy at
 * once too, but none as it stops once the file is back); deleted just
 * before the stop, sooner than the next look, the stop's own look sees
 * it. A copy that cannot be written is logged, each time, and nothing is
 * left in its place. Play goes on meanwhile. */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* The store's line for a copy of the open database written to
 * PATH.rescued, `when` "(the file moved)" or "as the server stops". */
static void copied_line(const char *db, const char *when, char *out, size_t n)
{
    snprintf(out, n, "info store: the open database copied to %s.rescued %s\n",
             db, when);
}

/* A server, its database's path in db, and dave's account made in it. */
static tsrv_t *start_with_dave(char *db, size_t n)
{
    tsrv_t *s = srv_start(NULL);
    char dir[512];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(db, n, "%s/rogued.db", dir);
    tclient_t *a = play_lobby(srv_port(s));
    play_login_dave(a, 1);
    cl_close(a);
    return s;
}

/* SIGTERM, and the server's exit awaited, so that the test can read its
 * whole log and its data directory before srv_stop checks the exit and
 * removes them. */
static void stop_and_wait(tsrv_t *s)
{
    srv_signal(s, SIGTERM);
    ck_assert_msg(srv_wait_exited(s, CL_WAIT_MS), "the server did not stop");
}

/* The whole file at path (at most n - 1 bytes) into out; its length. */
static size_t read_all(const char *path, char *out, size_t n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    size_t got = fread(out, 1, n - 1, f);
    fclose(f);
    out[got] = '\0';
    return got;
}

static int exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

/* Renamed: the error and the gauge, and the copy at once (the store
 * cannot tell a rename from a delete: dave's account is in it); moved
 * back: in place again, said once, the gauge 0, and no copy as the
 * server stops, so that the copy keeps what it had (not eve, made after)
 * while the database in place has both. */
START_TEST(renamed_then_moved_back)
{
    char db[600], moved[640],
         rescued[640], line[2048], back[1536], copied[1024];
    tsrv_t *s = start_with_dave(db, sizeof db);
    snprintf(moved, sizeof moved, "%s.moved", db);
    snprintf(rescued, sizeof rescued, "%s.rescued", db);
    expect_gauge(s, 0);
    ck_assert_int_eq(rename(db, moved), 0);
    moved_line(db, line, sizeof line);
    ck_assert_msg(srv_wait_log(s, line, WAIT_MS), "no \"%s\"", line);
    copied_line(db, "(the file moved)", copied, sizeof copied);
    ck_assert_msg(srv_wait_log(s, copied, WAIT_MS), "no \"%s\"", copied);
    ck_assert_int_eq(accounts_named(rescued, "dave"), 1);
    expect_gauge(s, 1);
    expect_playing(s);
    ck_assert_int_eq(rename(moved, db), 0);
    snprintf(back, sizeof back, "info store: %s: the database file is in "
             "place again; what is written is kept (%s.rescued is not "
             "needed)\n", db, db);
    ck_assert_msg(srv_wait_log(s, back, WAIT_MS), "no \"%s\"", back);
    expect_gauge(s, 0);
    cl_close(play_register(srv_port(s), "eve")); /* an account after */
    stop_and_wait(s);
    /* said once each way, not at each look (once a second), and one copy */
    ck_assert_int_eq(srv_log_count(s, line), 1);
    ck_assert_int_eq(srv_log_count(s, back), 1);
    ck_assert_int_eq(srv_log_count(s, "store: the open database copied"), 1);
    ck_assert_int_eq(srv_log_count(s, copied), 1);
    ck_assert_int_eq(accounts_named(rescued, "dave"), 1);
    ck_assert_int_eq(accounts_named(rescued, "eve"), 0);
    ck_assert_int_eq(accounts_named(db, "dave"), 1);
    ck_assert_int_eq(accounts_named(db, "eve"), 1);
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

/* Deleted just before the stop, sooner than the next look (once a
 * second) would see it: the stop looks once more, so the error is said
 * and the copy made as the server stops all the same, with every
 * account in it. */
START_TEST(deleted_just_before_the_stop)
{
    char db[600], rescued[640], line[2048], copied[1024];
    tsrv_t *s = start_with_dave(db, sizeof db);
    snprintf(rescued, sizeof rescued, "%s.rescued", db);
    ck_assert_int_eq(unlink(db), 0);
    stop_and_wait(s);
    moved_line(db, line, sizeof line);
    ck_assert_int_eq(srv_log_count(s, line), 1);
    copied_line(db, "as the server stops", copied, sizeof copied);
    ck_assert_int_eq(srv_log_count(s, copied), 1);
    /* (a look of the once-a-second round may still land between the
     * unlink and the stop, and copy once more: not counted) */
    ck_assert_int_eq(accounts_named(rescued, "dave"), 1);
    srv_stop(s);
}
END_TEST

/* Replaced: another file put at the path (renamed over it, as an editor
 * or a restore by hand would): the same error, the gauge, the copy at once
 * and as the server stops (eve, made after, is in the last), and the file
 * put there is left as it was: the server never writes to it. */
START_TEST(replaced)
{
    char db[600], other[640],
         rescued[640], line[2048], copied[1024], got[256];
    static const char put[] = "another program's file, not a database\n";
    tsrv_t *s = start_with_dave(db, sizeof db);
    snprintf(other, sizeof other, "%s.other", db);
    snprintf(rescued, sizeof rescued, "%s.rescued", db);
    FILE *f = fopen(other, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(put, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(rename(other, db), 0);
    moved_line(db, line, sizeof line);
    ck_assert_msg(srv_wait_log(s, line, WAIT_MS), "no \"%s\"", line);
    copied_line(db, "(the file moved)", copied, sizeof copied);
    ck_assert_msg(srv_wait_log(s, copied, WAIT_MS), "no \"%s\"", copied);
    ck_assert_int_eq(accounts_named(rescued, "dave"), 1);
    ck_assert_int_eq(accounts_named(rescued, "eve"), 0);
    expect_gauge(s, 1);
    expect_playing(s);
    cl_close(play_register(srv_port(s), "eve")); /* an account after */
    stop_and_wait(s);
    ck_assert_int_eq(srv_log_count(s, line), 1);
    copied_line(db, "as the server stops", copied, sizeof copied);
    ck_assert_int_eq(srv_log_count(s, copied), 1);
    ck_assert_int_eq(accounts_named(rescued, "dave"), 1);
    ck_assert_int_eq(accounts_named(rescued, "eve"), 1);
    ck_assert_uint_eq(read_all(db, got, sizeof got), strlen(put));
    ck_assert_str_eq(got, put);
    srv_stop(s);
}
END_TEST

/* A rescue copy that cannot be made: the file deleted, and a directory
 * where the copy goes, or (tmp) where its temporary file goes. The store
 * says so at once, naming the copy and why. */
typedef struct blocked {
    tsrv_t *s;
    char db[600], rescued[640], tmp[660], cannot[1536];
} blocked_t;

static void blocked_said(blocked_t *b, int tmp)
{
    char line[2048];
    b->s = start_with_dave(b->db, sizeof b->db);
    snprintf(b->rescued, sizeof b->rescued, "%s.rescued", b->db);
    snprintf(b->tmp, sizeof b->tmp, "%s.tmp", b->rescued);
    ck_assert_int_eq(mkdir(tmp ? b->tmp : b->rescued, 0755), 0);
    ck_assert_int_eq(unlink(b->db), 0);
    moved_line(b->db, line, sizeof line);
    ck_assert_msg(srv_wait_log(b->s, line, WAIT_MS), "no \"%s\"", line);
    if (tmp) /* SQLite's VACUUM INTO cannot open it */
        snprintf(b->cannot, sizeof b->cannot, "error store: cannot copy the "
                 "open database to %s: unable to open database: %s\n",
                 b->rescued, b->tmp);
    else /* the rename over it fails */
        snprintf(b->cannot, sizeof b->cannot, "error store: cannot copy the "
                 "open database to %s: %s\n", b->rescued, strerror(EISDIR));
    ck_assert_msg(srv_wait_log(b->s, b->cannot, WAIT_MS), "no \"%s\"",
                  b->cannot);
}

/* ...and play goes on; stopped, the store says it once more, and no copy
 * is made. */
static void blocked_stop(blocked_t *b)
{
    expect_playing(b->s);
    stop_and_wait(b->s);
    ck_assert_int_eq(srv_log_count(b->s, b->cannot), 2); /* and as it stops */
    ck_assert_int_eq(srv_log_count(b->s, "store: the open database copied"),
                     0);
}

/* The file deleted, and its copy's place taken by a directory: the copy
 * cannot be put there (the rename over it fails), and the store says so,
 * naming the path and why, at once and again as the server stops; the
 * copy's temporary file is removed each time, the directory is left as
 * it was, and play goes on. */
START_TEST(rescue_copy_blocked_by_a_directory)
{
    blocked_t b;
    blocked_said(&b, 0);
    ck_assert(!exists(b.tmp));
    expect_gauge(b.s, 1);
    blocked_stop(&b);
    ck_assert(!exists(b.tmp));
    ck_assert(!exists(b.db));
    struct stat sb;
    ck_assert_int_eq(lstat(b.rescued, &sb), 0);
    ck_assert(S_ISDIR(sb.st_mode));
    ck_assert_int_eq(rmdir(b.rescued), 0); /* still empty */
    srv_stop(b.s);
}
END_TEST

/* The copy's temporary file cannot be made (a directory in its place:
 * SQLite's VACUUM INTO cannot open it): the store says so with SQLite's
 * reason, at once and as the server stops, and leaves the directory
 * alone; no copy is made. */
START_TEST(rescue_copy_that_cannot_be_made)
{
    blocked_t b;
    blocked_said(&b, 1);
    blocked_stop(&b);
    ck_assert(!exists(b.rescued));
    ck_assert_int_eq(rmdir(b.tmp), 0); /* still there, still empty */
    srv_stop(b.s);
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
    tcase_add_test(tc, deleted_just_before_the_stop);
    tcase_add_test(tc, replaced);
    tcase_add_test(tc, rescue_copy_blocked_by_a_directory);
    tcase_add_test(tc, rescue_copy_that_cannot_be_made);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
