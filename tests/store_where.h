/* store_where.h - the store's tests on either backend.
 *
 * By default a test's store is the SQLite file in its temporary directory.
 * With ROGUED_TEST_PG set to a PostgreSQL URL (tests/run-tests.sh's "pg"
 * family sets it to a throwaway cluster started by pg_virtualenv, whose
 * PGPASSWORD it also passes), every test gets a database of its own on that
 * server instead, created in sw_setup and dropped in sw_teardown, and the
 * store is opened on it (sw_opts). sw_int and sw_exec run SQL on the test's
 * database, whichever it is: SQL that both understand (counts, plain
 * INSERTs), or a branch on sw_pg() where the dialects differ.
 *
 * Header-only: each test binary is one file. */
#ifndef ROGUE_TEST_STORE_WHERE_H
#define ROGUE_TEST_STORE_WHERE_H

#include <check.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store.h"

static char sw_file[256];  /* the SQLite file (SQLite) */
static char sw_url[256];   /* the test's own database (PostgreSQL; fits
                              config_t.store) */
static char sw_dbname[64];

/* 1 in the pg family. */
static inline int sw_pg(void)
{
    const char *u = getenv("ROGUED_TEST_PG");
    return u && *u;
}

/* The base URL with its database replaced by `db`. */
static inline void sw_url_for(const char *db, char *out, size_t len)
{
    const char *base = getenv("ROGUED_TEST_PG");
    const char *host = strstr(base, "://");
    host = host ? host + 3 : base;
    const char *slash = strpbrk(host, "/?");
    int n = slash ? (int)(slash - base) : (int)strlen(base);
    snprintf(out, len, "%.*s/%s", n, base, db);
}

static inline void sw_no_notices(void *arg, const char *message)
{
    (void)arg;
    (void)message; /* "does not exist, skipping" */
}

/* Runs sql on a connection to url; returns the first value (or -1). */
static inline long long sw_pq(const char *url, const char *sql, int want_ok)
{
    PGconn *c = PQconnectdb(url);
    ck_assert_msg(PQstatus(c) == CONNECTION_OK, "%s", PQerrorMessage(c));
    PQsetNoticeProcessor(c, sw_no_notices, NULL);
    PGresult *r = PQexec(c, sql);
    ExecStatusType s = PQresultStatus(r);
    int ok = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
    if (want_ok)
        ck_assert_msg(ok, "%s: %s", sql, PQresultErrorMessage(r));
    long long v = -1;
    if (s == PGRES_TUPLES_OK && PQntuples(r) > 0 && !PQgetisnull(r, 0, 0))
        v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    PQfinish(c);
    return v;
}

/* The test's database: dir is its temporary directory (the SQLite file
 * goes there). */
static inline void sw_setup(const char *dir)
{
    snprintf(sw_file, sizeof sw_file, "%s/%s", dir, STORE_FILE);
    if (!sw_pg())
        return;
    snprintf(sw_dbname, sizeof sw_dbname, "rt_%ld", (long)getpid());
    char sql[128], admin[512];
    sw_url_for("postgres", admin, sizeof admin);
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", sw_dbname);
    sw_pq(admin, sql, 1);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", sw_dbname);
    sw_pq(admin, sql, 1);
    sw_url_for(sw_dbname, sw_url, sizeof sw_url);
}

static inline void sw_teardown(void)
{
    if (!sw_pg())
        return;
    char sql[128], admin[512];
    sw_url_for("postgres", admin, sizeof admin);
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)",
             sw_dbname);
    sw_pq(admin, sql, 1);
}

/* What sdb_open and store_create_at_version take. */
static inline const char *sw_where(void)
{
    return sw_pg() ? sw_url : sw_file;
}

/* Sets the store's options to the test's database. */
static inline void sw_opts(store_opts_t *o)
{
    o->url = sw_pg() ? sw_url : NULL;
}

/* The first value of a query on the test's database (-1: no row). */
static inline long long sw_int(const char *sql)
{
    if (sw_pg())
        return sw_pq(sw_url, sql, 1);
    sqlite3 *db;
    sqlite3_stmt *s;
    long long v = -1;
    ck_assert_int_eq(sqlite3_open_v2(sw_file, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK,
                  "%s: %s", sql, sqlite3_errmsg(db));
    if (sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return v;
}

/* Waits (30 s: a hang) until sql's number is at least want, as the
 * store writes on its own thread; returns the last number read. */
static inline long long sw_int_reaches(const char *sql, long long want)
{
    long long v = sw_int(sql);
    for (int i = 0; i < 600 && v < want; i++) {
        struct timespec ts = { 0, 50 * 1000000L };
        nanosleep(&ts, NULL);
        v = sw_int(sql);
    }
    return v;
}

/* Runs statements on the test's database; they must work. A write the
 * store's thread may be making meanwhile (it tries held games again
 * after a batch writes) is waited for, up to 10 s, rather than failing
 * the statement with "database is locked" (seen once, in a full run:
 * test_store_held's DROP TRIGGER in a_close_meeting_a_lock_loses_the_
 * rest_at_once). */
static inline void sw_exec(const char *sql)
{
    if (sw_pg()) {
        sw_pq(sw_url, sql, 1);
        return;
    }
    sqlite3 *db;
    char *msg = NULL;
    ck_assert_int_eq(sqlite3_open(sw_file, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 10000);
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    ck_assert_msg(rc == SQLITE_OK, "%s: %s", sql, msg ? msg : "");
    sqlite3_free(msg);
    sqlite3_close(db);
}

/* After rows inserted with explicit ids (as an older rogued left them):
 * PostgreSQL's identity columns go on past them, as SQLite's rowids do. */
static inline void sw_ids_follow(void)
{
    if (sw_pg())
        sw_exec("SELECT setval(pg_get_serial_sequence('accounts', 'id'),"
                " coalesce((SELECT max(id) FROM accounts), 0) + 1, false);"
                "SELECT setval(pg_get_serial_sequence('games', 'id'),"
                " coalesce((SELECT max(id) FROM games), 0) + 1, false);");
}

/* The schema version, by the backend's own record of it. */
static inline long long sw_version(void)
{
    return sw_int(sw_pg() ? "SELECT max(version) FROM rogued_schema"
                          : "PRAGMA user_version");
}

/* The first row's first column (a blob) of a query, malloc'd (*len
 * bytes), or NULL if no row or NULL. */
static inline void *sw_blob(const char *sql, size_t *len)
{
    void *out = NULL;
    *len = 0;
    if (sw_pg()) {
        PGconn *c = PQconnectdb(sw_url);
        ck_assert_msg(PQstatus(c) == CONNECTION_OK, "%s", PQerrorMessage(c));
        /* binary results: the bytes as they are */
        PGresult *r = PQexecParams(c, sql, 0, NULL, NULL, NULL, NULL, 1);
        ck_assert_msg(PQresultStatus(r) == PGRES_TUPLES_OK, "%s: %s", sql,
                      PQresultErrorMessage(r));
        if (PQntuples(r) > 0 && !PQgetisnull(r, 0, 0)) {
            *len = (size_t)PQgetlength(r, 0, 0);
            out = malloc(*len ? *len : 1);
            memcpy(out, PQgetvalue(r, 0, 0), *len);
        }
        PQclear(r);
        PQfinish(c);
        return out;
    }
    sqlite3 *db;
    sqlite3_stmt *s;
    ck_assert_int_eq(sqlite3_open_v2(sw_file, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK,
                  "%s: %s", sql, sqlite3_errmsg(db));
    if (sqlite3_step(s) == SQLITE_ROW &&
        sqlite3_column_type(s, 0) != SQLITE_NULL) {
        *len = (size_t)sqlite3_column_bytes(s, 0);
        out = malloc(*len ? *len : 1);
        memcpy(out, sqlite3_column_blob(s, 0), *len);
    }
    sqlite3_finalize(s);
    sqlite3_close(db);
    return out;
}

/* How many of the named tables and indexes exist (names: 'a', 'b'). */
static inline long long sw_objects(const char *names)
{
    char sql[512];
    if (sw_pg())
        snprintf(sql, sizeof sql, "SELECT count(*) FROM pg_class WHERE"
                 " relname IN (%s) AND relnamespace = current_schema()::"
                 "regnamespace", names);
    else
        snprintf(sql, sizeof sql, "SELECT count(*) FROM sqlite_master WHERE"
                 " name IN (%s)", names);
    return sw_int(sql);
}

#endif
