/* test_store.c - the store against a real database, with a real libuv
 * loop: a SQLite file in a temporary directory, or in the pg family a
 * PostgreSQL database of the test's own (tests/store_where.h): the file (created, migrated, refused),
 * accounts (register, login, one answer for a wrong password and an unknown
 * name, the slow-down, whether a name is taken), cancelling, the hall of
 * fame, and a thousand games queued at once all written by store_close.
 * Every test ends with uv_loop_close() == 0. Hashing uses libsodium's
 * minimum cost except where the cost itself is tested. */
#include <check.h>
#include <fcntl.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "check_main.h"
#include "game.h"
#include "record.h"
#include "store.h"
#include "store_fixture.h"
#include "store_where.h"

static store_scores_t got_scores;
static int scores_calls;
static int flush_status = -1;

static void setup(void)
{
    store_fixture_setup("/tmp/rogued-store-XXXXXX");
    memset(&got_scores, 0, sizeof got_scores);
    scores_calls = 0;
    flush_status = -1;
}

static void teardown(void)
{
    store_fixture_teardown();
}

static store_t *open_fast(void)
{
    return store_fixture_open(&fast);
}

/* --- callbacks ------------------------------------------------------------ */

typedef struct answer {
    int calls;
    store_account_t acct;
    uint64_t at_ms; /* the loop's clock when answered */
    int order;      /* 1 for the first answer, 2 for the next... */
} answer_t;

static int answers_seen; /* answers so far, for answer_t.order */

static void on_account(void *ctx, const store_account_t *r)
{
    answer_t *a = ctx;
    a->calls++;
    a->acct = *r;
    a->at_ms = uv_now(&loop);
    a->order = ++answers_seen;
}

static void on_scores(void *ctx, const store_scores_t *r)
{
    (void)ctx;
    scores_calls++;
    got_scores = *r;
}

static void on_flush(void *ctx, int status)
{
    (void)ctx;
    flush_status = status;
}

/* Registers or logs in and runs the loop until the answer (the loop ends
 * when no callback is owed). */
static store_account_t do_account(store_t *st, int reg, const char *name,
                                  const char *pass)
{
    answer_t a = { 0 };
    int rc = reg ? store_register(st, name, pass, on_account, &a)
                 : store_login(st, name, pass, on_account, &a);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(a.calls, 0); /* never from inside the call */
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(a.calls, 1);
    return a.acct;
}

/* --- the file ------------------------------------------------------------- */

START_TEST(fresh_file_is_created_and_ours)
{
    store_t *st = open_fast();
    store_close(st);
    ck_assert_int_eq(sw_version(), STORE_SCHEMA_VERSION);
    ck_assert_int_eq(sw_objects("'accounts', 'games', 'games_ranked',"
                                " 'games_by_account'"), 4);
    if (sw_pg()) {
        /* one version row; opening it again changes nothing */
        ck_assert_int_eq(sw_int("SELECT count(*) FROM rogued_schema"), 1);
        store_close(open_fast());
        ck_assert_int_eq(sw_version(), STORE_SCHEMA_VERSION);
        ck_assert_int_eq(sw_int("SELECT count(*) FROM rogued_schema"), 1);
        return;
    }
    ck_assert_int_eq(sw_int("PRAGMA application_id"), STORE_APP_ID);
    /* WAL is a property of the file: a fresh connection sees it */
    sqlite3 *db;
    sqlite3_stmt *s;
    ck_assert_int_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s, NULL);
    ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
    ck_assert_str_eq((const char *)sqlite3_column_text(s, 0), "wal");
    sqlite3_finalize(s);
    sqlite3_close(db);
    /* opening it again changes nothing */
    st = open_fast();
    store_close(st);
    ck_assert_int_eq(sw_int("PRAGMA user_version"), STORE_SCHEMA_VERSION);
}
END_TEST

/* The database holds the password hashes: it and its -wal and -shm are
 * the owner's only (0600, as a backup's copy), whatever the umask. */
START_TEST(fresh_file_and_its_wal_are_private)
{
    mode_t old = umask(022);
    store_t *st = open_fast();
    static const char *const ext[] = { "", "-wal", "-shm" };
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        char path[sizeof dbpath + 8];
        struct stat sb;
        snprintf(path, sizeof path, "%s%s", dbpath, ext[i]);
        ck_assert_msg(stat(path, &sb) == 0, "%s: not there", path);
        ck_assert_msg((sb.st_mode & 0777) == 0600, "%s: mode %o", path,
                      (unsigned)(sb.st_mode & 0777));
    }
    store_close(st);
    umask(old);
}
END_TEST

START_TEST(empty_file_becomes_ours)
{
    int fd = open(dbpath, O_CREAT | O_WRONLY, 0600);
    ck_assert_int_ge(fd, 0);
    close(fd);
    store_close(open_fast());
    ck_assert_int_eq(sw_int("PRAGMA application_id"), STORE_APP_ID);
}
END_TEST

START_TEST(migrates_from_version_1)
{
    char err[512];
    ck_assert_int_eq(store_create_at_version(sw_where(), 1, err, sizeof err), 0);
    ck_assert_int_eq(sw_version(), 1);
    ck_assert_int_eq(sw_objects("'games_by_account'"), 0);
    /* what a version-1 server left: an account and its game */
    char hash[crypto_pwhash_STRBYTES], sql[512];
    ck_assert_int_eq(sodium_init() >= 0, 1);
    ck_assert_int_eq(crypto_pwhash_str(hash, "hunter22", 8,
                                       crypto_pwhash_OPSLIMIT_MIN,
                                       crypto_pwhash_MEMLIMIT_MIN), 0);
    snprintf(sql, sizeof sql,
             "INSERT INTO accounts VALUES (7, 'Old_Timer', '%s', 1);"
             "INSERT INTO games VALUES (1, 'Old_Timer', 7, 0, 42, 321, 3, 500,"
             " 9, 'killed by an orc', 100, 200, NULL);", hash);
    sw_exec(sql);
    sw_ids_follow();

    store_t *st = open_fast();
    store_account_t a = do_account(st, 0, "old_timer", "hunter22");
    ck_assert_int_eq(a.status, STORE_OK);
    ck_assert_int_eq(a.id, 7);
    ck_assert_str_eq(a.name, "Old_Timer");
    ck_assert_int_eq(store_scores(st, 20, "Old_Timer", on_scores, NULL), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(got_scores.n, 1);
    ck_assert_int_eq(got_scores.has_best, 1);
    ck_assert_int_eq(got_scores.best.score, 321);
    ck_assert_int_eq(got_scores.best_rank, 1);
    store_close(st);
    ck_assert_int_eq(sw_version(), STORE_SCHEMA_VERSION);
    ck_assert_int_eq(sw_objects("'games_by_account'"), 1);
}
END_TEST

START_TEST(random_bytes_refused)
{
    unsigned char junk[4096];
    randombytes_buf(junk, sizeof junk);
    FILE *f = fopen(dbpath, "wb");
    fwrite(junk, 1, sizeof junk, f);
    fclose(f);
    char err[512];
    ck_assert_ptr_null(store_open(&loop, dir, &fast, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, dbpath));
    ck_assert_ptr_nonnull(strstr(err, "not a SQLite database"));
    /* and what to do: a backup in its place, named where the docs say */
    ck_assert_ptr_nonnull(strstr(err, "put a backup in its place "
                                      "(docs/hosting.md, \"To restore a "
                                      "backup\")"));
    /* untouched, and nothing left beside it */
    unsigned char back[4096];
    f = fopen(dbpath, "rb");
    ck_assert_int_eq(fread(back, 1, sizeof back, f), sizeof back);
    fclose(f);
    ck_assert(memcmp(junk, back, sizeof junk) == 0);
    char wal[160];
    snprintf(wal, sizeof wal, "%s-wal", dbpath);
    ck_assert_int_ne(access(wal, F_OK), 0);
    /* a short text file too */
    f = fopen(dbpath, "wb");
    fputs("hello\n", f);
    fclose(f);
    ck_assert_ptr_null(store_open(&loop, dir, &fast, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "not a SQLite database"));
}
END_TEST

START_TEST(other_application_refused)
{
    char err[512];
    sw_exec("PRAGMA application_id = 305419896;" /* 0x12345678 */
                     "CREATE TABLE notes (t TEXT);");
    ck_assert_ptr_null(store_open(&loop, dir, &fast, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, dbpath));
    ck_assert_ptr_nonnull(strstr(err, "another application"));
    ck_assert_ptr_nonnull(strstr(err, "0x12345678"));
    /* and what to do */
    ck_assert_msg(strstr(err, "refusing to use it: give rogued a data_dir of "
                              "its own, or move that file away"), "%s", err);
    /* no application_id, but somebody's tables */
    unlink(dbpath);
    sw_exec("CREATE TABLE notes (t TEXT);");
    ck_assert_ptr_null(store_open(&loop, dir, &fast, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "another application"));
    /* ours, but from a newer server */
    unlink(dbpath);
    ck_assert_int_eq(store_create_at_version(dbpath, STORE_SCHEMA_VERSION, err,
                                             sizeof err), 0);
    sw_exec("PRAGMA user_version = 99;");
    ck_assert_ptr_null(store_open(&loop, dir, &fast, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "newer"));
    /* a directory that does not exist */
    ck_assert_ptr_null(store_open(&loop, "/nonexistent/rogued", &fast, err,
                                  sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/rogued/" STORE_FILE));
}
END_TEST

/* PostgreSQL: another application's tables, a newer rogued's schema and a
 * server that is not there are refused, each naming the database without
 * its password and saying what to do. */
START_TEST(pg_refusals)
{
    char err[768];
    sw_exec("CREATE TABLE notes (t text)");
    ck_assert_ptr_null(store_open(&loop, dir, &fast, err, sizeof err));
    ck_assert_msg(strstr(err, "another application") != NULL, "%s", err);
    ck_assert_msg(strstr(err, sw_dbname) != NULL, "%s", err);
    ck_assert_ptr_nonnull(strstr(err, "createdb"));
    ck_assert_int_eq(sw_int("SELECT count(*) FROM notes"), 0); /* untouched */
    ck_assert_int_eq(sw_objects("'rogued_schema', 'games'"), 0);
    sw_exec("DROP TABLE notes");
    /* ours, but from a newer server */
    ck_assert_int_eq(store_create_at_version(sw_where(), STORE_SCHEMA_VERSION,
                                             err, sizeof err), 0);
    sw_exec("UPDATE rogued_schema SET version = 99");
    ck_assert_ptr_null(store_open(&loop, dir, &fast, err, sizeof err));
    ck_assert_msg(strstr(err, "newer") != NULL, "%s", err);
    ck_assert_ptr_nonnull(strstr(err, "99"));
    /* no server there: a port nobody listens on, a password in the URL */
    store_opts_t o = fast;
    o.url = "postgresql://rogued:hunter22@127.0.0.1:1/nowhere";
    ck_assert_ptr_null(store_open(&loop, dir, &o, err, sizeof err));
    ck_assert_msg(strstr(err, "cannot connect") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "127.0.0.1:1/nowhere") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "hunter22") == NULL, "%s", err);
    /* a user that may read but not write: refused at start */
    char sql[400];
    snprintf(sql, sizeof sql, "UPDATE rogued_schema SET version = %d",
             STORE_SCHEMA_VERSION);
    sw_exec(sql);
    /* (roles are the cluster's: one of the test's own name) */
    char role[80];
    snprintf(role, sizeof role, "reader_%s", sw_dbname);
    snprintf(sql, sizeof sql, "CREATE ROLE %s LOGIN PASSWORD 'reader-pw';"
             " GRANT SELECT ON ALL TABLES IN SCHEMA public TO %s", role, role);
    sw_exec(sql);
    char url[600];
    snprintf(url, sizeof url, "%s", sw_url);
    char *at = strstr(url, "://");
    char ro[700];
    snprintf(ro, sizeof ro, "postgresql://%s:reader-pw@%s", role,
             strchr(at + 3, '@') ? strchr(at + 3, '@') + 1 : at + 3);
    o.url = ro;
    ck_assert_ptr_null(store_open(&loop, dir, &o, err, sizeof err));
    ck_assert_msg(strstr(err, "cannot be written") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "reader-pw") == NULL, "%s", err);
    snprintf(sql, sizeof sql, "DROP OWNED BY %s; DROP ROLE %s", role, role);
    sw_exec(sql);
}
END_TEST

/* --- accounts ------------------------------------------------------------- */

START_TEST(register_and_login)
{
    store_t *st = open_fast();
    store_account_t a = do_account(st, 1, "Alice", "secret1");
    ck_assert_int_eq(a.status, STORE_OK);
    ck_assert_int_gt(a.id, 0);
    ck_assert_str_eq(a.name, "Alice");
    ck_assert_int_eq(do_account(st, 1, "aLICE", "another1").status,
                     STORE_NAME_TAKEN);
    ck_assert_int_eq(do_account(st, 1, "x", "secret1").status, STORE_INVALID);
    ck_assert_int_eq(do_account(st, 1, "Bob", "short").status, STORE_INVALID);
    ck_assert_int_eq(do_account(st, 1, "Bob\033[2J", "secret1").status,
                     STORE_INVALID);

    store_account_t ok = do_account(st, 0, "ALICE", "secret1");
    ck_assert_int_eq(ok.status, STORE_OK);
    ck_assert_int_eq(ok.id, a.id);
    ck_assert_str_eq(ok.name, "Alice");
    /* a wrong password and an unknown name: the same answer, to the byte */
    store_account_t wrong = do_account(st, 0, "Alice", "secret2");
    store_account_t unknown = do_account(st, 0, "Nobody", "secret1");
    store_account_t bad = do_account(st, 0, "no\nname", "secret1");
    ck_assert_int_eq(wrong.status, STORE_BAD_LOGIN);
    ck_assert(memcmp(&wrong, &unknown, sizeof wrong) == 0);
    ck_assert(memcmp(&wrong, &bad, sizeof wrong) == 0);
    store_close(st);
    /* stored: a salted Argon2id hash, not the password */
    ck_assert_int_eq(sw_int("SELECT count(*) FROM accounts WHERE"
                                     " pwhash LIKE '$argon2id$%'"), 1);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM accounts WHERE"
                            " pwhash LIKE '%secret1%'"), 0);
}
END_TEST

/* An account's display choice (accounts.display): 0 (Auto) for a new
 * account, kept by store_set_display, read back with every login. */
typedef struct done_answer {
    int calls, status;
} done_answer_t;

static void on_done(void *ctx, int status)
{
    done_answer_t *d = ctx;
    d->calls++;
    d->status = status;
}

static int do_set_display(store_t *st, int64_t id, int display)
{
    done_answer_t d = { 0, -1 };
    ck_assert_int_eq(store_set_display(st, id, display, on_done, &d), 0);
    ck_assert_int_eq(d.calls, 0); /* never from inside the call */
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(d.calls, 1);
    return d.status;
}

START_TEST(display_choice_kept)
{
    store_t *st = open_fast();
    store_account_t a = do_account(st, 1, "Alice", "secret1");
    store_account_t b = do_account(st, 1, "Bob", "secret2");
    ck_assert_int_eq(a.status, STORE_OK);
    ck_assert_int_eq(a.display, 0);
    ck_assert_int_eq(do_account(st, 0, "alice", "secret1").display, 0);
    ck_assert_int_eq(do_set_display(st, a.id, 9), STORE_OK);
    store_account_t again = do_account(st, 0, "alice", "secret1");
    ck_assert_int_eq(again.status, STORE_OK);
    ck_assert_int_eq(again.display, 9);
    ck_assert_int_eq(do_account(st, 0, "Bob", "secret2").display, 0);
    /* a failed login says nothing of it */
    store_account_t wrong = do_account(st, 0, "Alice", "secret9");
    ck_assert_int_eq(wrong.status, STORE_BAD_LOGIN);
    ck_assert_int_eq(wrong.display, 0);
    /* refused: no such account, not a choice */
    ck_assert_int_eq(do_set_display(st, b.id + 100, 4), STORE_NOT_FOUND);
    ck_assert_int_eq(do_set_display(st, 0, 4), STORE_INVALID);
    ck_assert_int_eq(do_set_display(st, a.id, 16), STORE_INVALID);
    ck_assert_int_eq(do_set_display(st, a.id, -1), STORE_INVALID);
    ck_assert_int_eq(do_set_display(st, a.id, 0), STORE_OK);
    ck_assert_int_eq(do_account(st, 0, "Alice", "secret1").display, 0);
    ck_assert_int_eq(do_set_display(st, b.id, 6), STORE_OK);
    store_close(st);
    /* kept across a restart, in the column */
    ck_assert_int_eq(sw_int("SELECT display FROM accounts WHERE name = 'Bob'"),
                     6);
    st = open_fast();
    ck_assert_int_eq(do_account(st, 0, "Bob", "secret2").display, 6);
    store_close(st);
}
END_TEST

/* The default cost is Argon2id at libsodium's INTERACTIVE limits. */
START_TEST(default_cost_is_interactive)
{
    char err[512];
    store_opts_t o = { 0 }; /* every default but where the store is */
    sw_opts(&o);
    store_t *st = store_open(&loop, dir, &o, err, sizeof err);
    ck_assert_msg(st != NULL, "%s", err);
    ck_assert_int_eq(do_account(st, 1, "Carol", "password").status, STORE_OK);
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM accounts WHERE"
                                     " pwhash LIKE '$argon2id$v=19$m=65536,t=2,p=1$%'"),
                     1);
}
END_TEST

/* A failed login; returns how many logins the slow-down has made wait
 * so far (store_stats_t). */
static uint64_t failed_login(store_t *st, const char *name, const char *pass)
{
    ck_assert_int_eq(do_account(st, 0, name, pass).status, STORE_BAD_LOGIN);
    store_stats_t stats;
    store_stats(st, &stats);
    return stats.login_waits;
}

/* An unknown name is verified against a dummy hash made with the same
 * cost, so that it takes as long as a wrong password: the same work is
 * counted (a verification each), the dummy's among them. (No time is
 * asserted: the cost is the same by construction, the dummy made at open
 * with the store's own options.) */
START_TEST(unknown_name_takes_as_long)
{
    store_t *st = open_fast();
    ck_assert_int_eq(do_account(st, 1, "Dave", "password").status, STORE_OK);
    store_stats_t before, after;
    store_stats(st, &before);
    ck_assert_int_eq(do_account(st, 0, "Dave", "wrong-pw").status, STORE_BAD_LOGIN);
    store_stats(st, &after);
    ck_assert_uint_eq(after.login_hashes, before.login_hashes + 1);
    ck_assert_uint_eq(after.login_hashes_dummy, before.login_hashes_dummy);
    ck_assert_int_eq(do_account(st, 0, "Eve", "wrong-pw").status, STORE_BAD_LOGIN);
    store_stats(st, &before);
    ck_assert_uint_eq(before.login_hashes, after.login_hashes + 1);
    ck_assert_uint_eq(before.login_hashes_dummy, after.login_hashes_dummy + 1);
    /* a name that breaks the rules is checked against the dummy too */
    ck_assert_int_eq(do_account(st, 0, "x", "wrong-pw").status, STORE_BAD_LOGIN);
    store_stats(st, &after);
    ck_assert_uint_eq(after.login_hashes_dummy, before.login_hashes_dummy + 1);
    store_close(st);
}
END_TEST

/* After THROTTLE_FREE failures the next attempts on the name wait, one
 * step apart even when they come at once; a success clears it. */
START_TEST(failures_slow_down)
{
    store_t *st = open_fast();
    ck_assert_int_eq(do_account(st, 1, "Frank", "password").status, STORE_OK);
    for (int i = 0; i < 3; i++) /* free */
        ck_assert_uint_eq(failed_login(st, "frank", "guess-000"), 0);
    answer_t a = { 0 }, b = { 0 };
    store_stats_t stats;
    /* The store schedules its waits on the loop's clock (uv_now), so that
     * is the clock the answers are read on: no wall-clock time, which a
     * busy machine stretches, is asserted (docs/testing.md). The loop's
     * time is not updated here: store_login reads this same t0, the time
     * of the last failure, so the waits are exactly the steps. */
    uint64_t t0 = uv_now(&loop);
    answers_seen = 0;
    /* The waits given: a second, then the doubled step after the first's
     * slot (spaced, not just delayed: 1 + 2 seconds from now). */
    ck_assert_int_eq(store_login(st, "Frank", "guess-001", on_account, &a), 0);
    store_stats(st, &stats);
    ck_assert_uint_eq(stats.login_waits, 1);
    ck_assert_uint_eq(stats.login_wait_ms, 1000);
    ck_assert_int_eq(store_login(st, "FRANK", "password", on_account, &b), 0);
    store_stats(st, &stats);
    ck_assert_uint_eq(stats.login_waits, 2);
    ck_assert_uint_eq(stats.login_wait_ms, 1000 + 3000);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(a.acct.status, STORE_BAD_LOGIN);
    ck_assert_int_eq(b.acct.status, STORE_OK); /* right, but made to wait */
    /* In their order, and neither before its wait was out on the clock
     * the store waits by (how much later depends on the load: not
     * asserted). */
    ck_assert_int_eq(a.order, 1);
    ck_assert_int_eq(b.order, 2);
    ck_assert_msg(a.at_ms >= t0 + 1000, "first answered %llu ms on",
                  (unsigned long long)(a.at_ms - t0));
    ck_assert_msg(b.at_ms >= t0 + 3000, "second answered %llu ms on",
                  (unsigned long long)(b.at_ms - t0));
    /* cleared by the success: the next failure waits for nothing */
    ck_assert_uint_eq(failed_login(st, "Frank", "guess-002"), 2);
    store_close(st);
}
END_TEST

START_TEST(cancel_drops_callbacks)
{
    store_t *st = open_fast();
    answer_t a = { 0 }, keep = { 0 };
    ck_assert_int_eq(store_register(st, "Grace", "password", on_account, &a), 0);
    ck_assert_int_eq(store_login(st, "Grace", "password", on_account, &a), 0);
    ck_assert_int_eq(store_scores(st, 5, NULL, on_scores, &a), 0);
    ck_assert_int_eq(store_login(st, "Heidi", "password", on_account, &keep), 0);
    store_cancel(st, &a);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(a.calls, 0);
    ck_assert_int_eq(scores_calls, 0);
    ck_assert_int_eq(keep.calls, 1);

    /* a login waiting out the slow-down goes at once when cancelled: it
     * must not hold the loop (or a shutting-down server) for seconds */
    for (int i = 0; i < 3; i++)
        failed_login(st, "Ivan", "password");
    ck_assert_int_eq(store_login(st, "Ivan", "password", on_account, &a), 0);
    store_cancel(st, &a);
    /* nothing left to keep the loop: no timer for the wait it had */
    uv_run(&loop, UV_RUN_NOWAIT);
    ck_assert(!uv_loop_alive(&loop));
    ck_assert_int_eq(a.calls, 0);

    /* cancelled while hashing: the pool finishes, nobody hears of it */
    ck_assert_int_eq(store_login(st, "Grace", "password", on_account, &a), 0);
    uv_run(&loop, UV_RUN_NOWAIT);
    store_cancel(st, &a);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(a.calls, 0);
    /* and owed answers are dropped at close */
    ck_assert_int_eq(store_login(st, "Grace", "password", on_account, &a), 0);
    store_close(st);
    ck_assert_int_eq(a.calls, 0);
}
END_TEST

/* --- games and the hall of fame ------------------------------------------- */

static store_game_t game_row(const char *name, int64_t account, int score,
                             int64_t ended)
{
    store_game_t g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "%s", name);
    g.account_id = account;
    g.ruleset = 1;
    g.seed = 0xfedcba9876543210ULL;
    g.score = score;
    g.depth = 1 + score / 100;
    g.turns = score * 3;
    g.kills = score / 10;
    snprintf(g.cause, sizeof g.cause, "killed by a rat");
    g.started = ended - 60;
    g.ended = ended;
    return g;
}

START_TEST(scores_empty_then_ordered)
{
    store_t *st = open_fast();
    ck_assert_int_eq(store_scores(st, 20, "Judy", on_scores, NULL), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(got_scores.status, STORE_OK);
    ck_assert_int_eq(got_scores.n, 0);
    ck_assert_int_eq(got_scores.has_best, 0);

    store_account_t judy = do_account(st, 1, "Judy", "password");
    ck_assert_int_eq(judy.status, STORE_OK);
    /* 30 games; scores repeat so that ties are ordered by the end time */
    for (int i = 0; i < 30; i++) {
        store_game_t g = i % 3 == 0 ? game_row("Judy", judy.id, (i * 37) % 500, 1000 + i)
                                    : game_row("guest-7", 0, (i * 37) % 500, 1000 - i);
        ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    }
    ck_assert_int_eq(store_scores(st, 20, "judy", on_scores, NULL), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(got_scores.n, 20);
    for (int i = 1; i < 20; i++) {
        const store_score_t *p = &got_scores.top[i - 1], *q = &got_scores.top[i];
        ck_assert(p->score > q->score ||
                  (p->score == q->score && p->ended <= q->ended));
    }
    int top = 0;
    for (int i = 0; i < 30; i++)
        top = (i * 37) % 500 > top ? (i * 37) % 500 : top;
    ck_assert_int_eq(got_scores.top[0].score, top);
    ck_assert_str_eq(got_scores.top[0].cause, "killed by a rat");
    ck_assert_int_eq(got_scores.top[0].ruleset, 1);
    /* Judy's best: games 0, 3, .. 27: scores (i * 37) % 500 */
    int best = -1;
    for (int i = 0; i < 30; i += 3)
        if ((i * 37) % 500 > best)
            best = (i * 37) % 500;
    ck_assert_int_eq(got_scores.has_best, 1);
    ck_assert_str_eq(got_scores.best.name, "Judy");
    ck_assert_int_eq(got_scores.best.score, best);
    int higher = 0;
    for (int i = 0; i < 30; i++)
        higher += (i * 37) % 500 > best;
    ck_assert_int_eq(got_scores.best_rank, higher + 1);
    ck_assert_int_eq(got_scores.top[got_scores.best_rank - 1].game_id,
                     got_scores.best.game_id);
    /* a guest has no best; nor does a name that never played */
    ck_assert_int_eq(store_scores(st, 5, "guest-7", on_scores, NULL), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(got_scores.n, 5);
    ck_assert_int_eq(got_scores.has_best, 0);
    store_close(st);
}
END_TEST

START_TEST(unsafe_text_refused)
{
    store_t *st = open_fast();
    store_game_t g = game_row("Mallory", 0, 10, 100);
    snprintf(g.name, sizeof g.name, "Mal\033[2J");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), -1);
    g = game_row("Mallory", 0, 10, 100);
    snprintf(g.cause, sizeof g.cause, "killed \a by \033]0;x\007");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), -1);
    g = game_row("Mallory", 0, 10, 100);
    memset(g.cause, 'a', sizeof g.cause); /* no NUL */
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), -1);
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 0);
}
END_TEST

/* A thousand games queued at once, the store closed at once: every one is
 * on disk, and a real game's record read back replays to its final hash. */
START_TEST(thousand_games_written_by_close)
{
    /* a real game and its record */
    game_t *gm = game_new(4242, NULL);
    record_t rec;
    ck_assert_int_eq(record_init(&rec, gm, 0), 0);
    for (int i = 0; i < 2000; i++)
        record_key(&rec, gm, "hjklyubn."[i % 9]);
    ck_assert_int_eq(record_finish(&rec, gm), 0);
    buf_t bytes;
    buf_init(&bytes, 0);
    ck_assert_int_eq(record_encode(&rec, &bytes), 0);
    uint64_t final = game_hash(gm);

    store_t *st = open_fast();
    for (int i = 0; i < 1000; i++) {
        store_game_t g = game_row(i ? "guest-1" : "Replayed", 0, i, 5000 + i);
        ck_assert_int_eq(store_add_game(st, &g, bytes.data, bytes.len), 0);
    }
    ck_assert_int_eq(store_flush(st, on_flush, NULL), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(flush_status, STORE_OK);
    store_stats_t s;
    store_stats(st, &s);
    ck_assert_uint_eq(s.games_written, 1000);
    ck_assert_uint_eq(s.games_lost, 0);
    ck_assert_uint_eq(s.queued_games, 0);
    ck_assert_uint_lt(s.batches, 1000); /* batched, not one commit each */
    /* and again without waiting: close itself writes them */
    for (int i = 0; i < 1000; i++) {
        store_game_t g = game_row("guest-2", 0, i, 9000 + i);
        ck_assert_int_eq(store_add_game(st, &g, bytes.data, bytes.len), 0);
    }
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 2000);
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE"
             " length(record) = %zu", bytes.len);
    ck_assert_int_eq(sw_int(sql), 2000);

    size_t n;
    void *stored = sw_blob("SELECT record FROM games WHERE player = 'Replayed'",
                           &n);
    ck_assert_ptr_nonnull(stored);
    ck_assert_uint_eq(n, bytes.len);
    ck_assert_uint_eq((uint64_t)sw_int("SELECT seed FROM games WHERE"
                                       " player = 'Replayed'"),
                      0xfedcba9876543210ULL);
    record_replay_t out;
    ck_assert_int_eq(record_replay(stored, n, &out, NULL), RECORD_OK);
    ck_assert_uint_eq(out.final_hash, final);
    free(stored);
    record_free(&rec);
    buf_free(&bytes);
    game_free(gm);
}
END_TEST

/* store_end_game: the store takes the game and the recorder's buffers,
 * finishes and encodes off the loop; the records replay to the games'
 * final hashes. */
START_TEST(end_game_takes_game_and_record)
{
    store_t *st = open_fast();
    uint64_t want[5];
    for (int i = 0; i < 5; i++) {
        game_t *g = game_new(100 + (uint64_t)i, NULL);
        record_t rec;
        ck_assert_int_eq(record_init(&rec, g, 0), 0);
        for (int k = 0; k < 300 * i; k++)
            record_key(&rec, g, "hjklyubn.?"[k % 10]);
        want[i] = game_hash(g);
        store_game_t row = game_row("guest-5", 0, i, 100 + i);
        ck_assert_int_eq(store_end_game(st, &row, g, &rec), 0);
        ck_assert_ptr_null(rec.keys.data); /* emptied: nothing to free */
        record_free(&rec);
    }
    /* refused (bad name): freed all the same */
    game_t *g = game_new(1, NULL);
    record_t rec;
    ck_assert_int_eq(record_init(&rec, g, 0), 0);
    store_game_t row = game_row("bad name", 0, 1, 1);
    ck_assert_int_eq(store_end_game(st, &row, g, &rec), -1);
    store_close(st);

    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 5);
    for (int i = 0; i < 5; i++) {
        char sql[96];
        size_t n;
        snprintf(sql, sizeof sql, "SELECT record FROM games ORDER BY score"
                 " LIMIT 1 OFFSET %d", i);
        void *stored = sw_blob(sql, &n);
        ck_assert_ptr_nonnull(stored);
        record_replay_t out;
        ck_assert_int_eq(record_replay(stored, n, &out, NULL), RECORD_OK);
        ck_assert_uint_eq(out.final_hash, want[i]);
        ck_assert_uint_eq(out.keys_replayed, 300 * (unsigned)i);
        free(stored);
    }
}
END_TEST

/* Past the queue's byte cap a game is kept, its record is not. */
START_TEST(queue_cap_drops_records_not_games)
{
    store_opts_t o = fast;
    o.max_queued_bytes = 10000;
    o.max_queued_games = 50;
    char err[512];
    char blob[4000];
    memset(blob, 7, sizeof blob);
    store_t *st = store_open(&loop, dir, &o, err, sizeof err);
    ck_assert_msg(st != NULL, "%s", err);
    int refused = 0;
    for (int i = 0; i < 60; i++) {
        store_game_t g = game_row("guest-3", 0, i, 100 + i);
        refused += store_add_game(st, &g, blob, sizeof blob) != 0;
    }
    store_stats_t s;
    store_stats(st, &s);
    store_close(st);
    long long rows = sw_int("SELECT count(*) FROM games");
    long long with = sw_int("SELECT count(*) FROM games WHERE record"
                                     " IS NOT NULL");
    ck_assert_int_eq(rows, 60 - refused);
    ck_assert_int_eq(with, rows - (long long)s.records_dropped);
    ck_assert_int_ge(with, 2); /* at least what fits under the cap */
}
END_TEST

/* --- whether a name is taken --------------------------------------------- */

typedef struct taken_answer {
    int calls, status, taken;
    char name[ACCT_NAME_MAX + 1]; /* the name the answer says it is for */
    store_t *st;                /* set: look at the games when answered */
    long long games_on_disk;
    uint64_t games_written;
} taken_answer_t;

static void on_taken(void *ctx, const char *name, int status, int taken)
{
    taken_answer_t *t = ctx;
    t->calls++;
    snprintf(t->name, sizeof t->name, "%s", name);
    t->status = status;
    t->taken = taken;
    if (t->st) {
        store_stats_t s;
        store_stats(t->st, &s);
        t->games_written = s.games_written;
        t->games_on_disk = sw_int("SELECT count(*) FROM games");
    }
}

static taken_answer_t do_taken(store_t *st, const char *name)
{
    taken_answer_t t = { 0 };
    ck_assert_int_eq(store_name_taken(st, name, on_taken, &t), 0);
    ck_assert_int_eq(t.calls, 0); /* never from inside the call */
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(t.calls, 1);
    return t;
}

START_TEST(name_taken_any_case)
{
    store_t *st = open_fast();
    taken_answer_t t = do_taken(st, "Alice");
    ck_assert_int_eq(t.status, STORE_OK);
    ck_assert_int_eq(t.taken, 0);
    ck_assert_int_eq(do_account(st, 1, "Alice", "secret1").status, STORE_OK);
    const char *same[] = { "Alice", "alice", "ALICE", "aLiCe" };
    for (int i = 0; i < 4; i++) {
        t = do_taken(st, same[i]);
        ck_assert_int_eq(t.status, STORE_OK);
        ck_assert_msg(t.taken == 1, "%s not taken", same[i]);
        /* the answer names what was asked, as it was asked (the lobby
         * tells an answer for a name since given up by it) */
        ck_assert_str_eq(t.name, same[i]);
    }
    const char *free_names[] = { "Alicia", "Alic", "Bob", "guest-1" };
    for (int i = 0; i < 4; i++) {
        t = do_taken(st, free_names[i]);
        ck_assert_int_eq(t.status, STORE_OK);
        ck_assert_msg(t.taken == 0, "%s taken", free_names[i]);
        ck_assert_str_eq(t.name, free_names[i]);
    }
    /* malformed: answered without the database, and never "taken" */
    const char *bad[] = { "x", "", "Alice\033[2J", "al ice",
                          "a-name-far-too-long-for-us" };
    for (int i = 0; i < 4; i++) {
        t = do_taken(st, bad[i]);
        ck_assert_int_eq(t.status, STORE_INVALID);
        ck_assert_int_eq(t.taken, 0);
        ck_assert_str_eq(t.name, bad[i]);
    }
    t = do_taken(st, bad[4]); /* named cut at ACCT_NAME_MAX bytes */
    ck_assert_int_eq(t.status, STORE_INVALID);
    ck_assert_str_eq(t.name, "a-name-far-too-long-");
    store_close(st);
}
END_TEST

START_TEST(name_taken_cancelled)
{
    store_t *st = open_fast();
    ck_assert_int_eq(do_account(st, 1, "Alice", "secret1").status, STORE_OK);
    taken_answer_t gone = { 0 }, keep = { 0 };
    ck_assert_int_eq(store_name_taken(st, "alice", on_taken, &gone), 0);
    /* malformed: answered through the done queue, cancelled all the same */
    ck_assert_int_eq(store_name_taken(st, "x", on_taken, &gone), 0);
    ck_assert_int_eq(store_name_taken(st, "ALICE", on_taken, &keep), 0);
    store_cancel(st, &gone);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(gone.calls, 0);
    ck_assert_int_eq(keep.calls, 1);
    ck_assert_int_eq(keep.status, STORE_OK);
    ck_assert_int_eq(keep.taken, 1);
    /* owed answers are dropped at close */
    ck_assert_int_eq(store_name_taken(st, "alice", on_taken, &gone), 0);
    store_close(st);
    ck_assert_int_eq(gone.calls, 0);
}
END_TEST

/* The answer comes only after the games queued before it are committed,
 * over several batches. */
START_TEST(name_taken_after_queued_games)
{
    store_opts_t o = fast;
    o.batch_max = 7;
    char err[512];
    store_t *st = store_open(&loop, dir, &o, err, sizeof err);
    ck_assert_msg(st != NULL, "%s", err);
    store_game_t g = game_row("guest-4", 0, 10, 100);
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    taken_answer_t t = { 0 };
    t.st = st;
    ck_assert_int_eq(store_name_taken(st, "guest-4", on_taken, &t), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(t.calls, 1);
    ck_assert_int_eq(t.status, STORE_OK);
    ck_assert_int_eq(t.taken, 0); /* a guest's game makes no account */
    ck_assert_uint_eq(t.games_written, 1);
    ck_assert_int_eq(t.games_on_disk, 1);

    memset(&t, 0, sizeof t);
    t.st = st;
    for (int i = 0; i < 100; i++) {
        g = game_row("guest-4", 0, i, 200 + i);
        ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    }
    ck_assert_int_eq(store_name_taken(st, "Nobody", on_taken, &t), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(t.calls, 1);
    ck_assert_int_eq(t.status, STORE_OK);
    ck_assert_uint_eq(t.games_written, 101);
    ck_assert_int_eq(t.games_on_disk, 101);
    store_close(st);
}
END_TEST

/* It counts against max_pending like every request that answers. */
START_TEST(name_taken_counts_as_pending)
{
    store_opts_t o = fast;
    o.max_pending = 2;
    char err[512];
    store_t *st = store_open(&loop, dir, &o, err, sizeof err);
    ck_assert_msg(st != NULL, "%s", err);
    taken_answer_t a = { 0 }, b = { 0 }, c = { 0 };
    ck_assert_int_eq(store_name_taken(st, "Alice", on_taken, &a), 0);
    ck_assert_int_eq(store_name_taken(st, "x", on_taken, &b), 0);
    ck_assert_int_eq(store_name_taken(st, "Carol", on_taken, &c), -1);
    ck_assert_int_eq(store_flush(st, on_flush, NULL), -1);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(a.calls, 1);
    ck_assert_int_eq(b.calls, 1);
    ck_assert_int_eq(b.status, STORE_INVALID);
    ck_assert_int_eq(c.calls, 0); /* refused: never a callback */
    /* answered: room again */
    ck_assert_int_eq(do_taken(st, "Carol").status, STORE_OK);
    store_close(st);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create(sw_pg() ? "store (PostgreSQL)" : "store");
    TCase *tc = tcase_create("store");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, fresh_file_is_created_and_ours);
    tcase_add_test(tc, migrates_from_version_1);
    if (sw_pg()) {
        tcase_add_test(tc, pg_refusals);
    } else { /* a file's own troubles */
        tcase_add_test(tc, fresh_file_and_its_wal_are_private);
        tcase_add_test(tc, empty_file_becomes_ours);
        tcase_add_test(tc, random_bytes_refused);
        tcase_add_test(tc, other_application_refused);
    }
    tcase_add_test(tc, register_and_login);
    tcase_add_test(tc, display_choice_kept);
    tcase_add_test(tc, default_cost_is_interactive);
    tcase_add_test(tc, unknown_name_takes_as_long);
    tcase_add_test(tc, failures_slow_down);
    tcase_add_test(tc, cancel_drops_callbacks);
    tcase_add_test(tc, scores_empty_then_ordered);
    tcase_add_test(tc, unsafe_text_refused);
    tcase_add_test(tc, thousand_games_written_by_close);
    tcase_add_test(tc, end_game_takes_game_and_record);
    tcase_add_test(tc, queue_cap_drops_records_not_games);
    tcase_add_test(tc, name_taken_any_case);
    tcase_add_test(tc, name_taken_cancelled);
    tcase_add_test(tc, name_taken_after_queued_games);
    tcase_add_test(tc, name_taken_counts_as_pending);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
