/* pg_hold.h - how the store's PostgreSQL suites force an interleaving:
 * a second libpq connection to the test's database (store_where.h) with
 * a transaction open holds row locks, as another host's batch or login
 * would, until the test ends it; the test waits until the store's
 * statements are seen waiting on those locks (pg_blocking_pids, polled
 * to a deadline: never a sleep of a guessed length). Header-only, like
 * store_fixture.h. */
#ifndef ROGUE_TEST_PG_HOLD_H
#define ROGUE_TEST_PG_HOLD_H

#include <check.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "store_where.h"

/* A connection to the test's database with a transaction open: what
 * another host does in it is held uncommitted until hold_end. */
static inline PGconn *hold_open(void)
{
    PGconn *c = PQconnectdb(sw_where());
    ck_assert_msg(PQstatus(c) == CONNECTION_OK, "%s", PQerrorMessage(c));
    PGresult *r = PQexec(c, "BEGIN");
    ck_assert_int_eq(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    return c;
}

/* The first value of sql run in c's transaction (which it must not end). */
static inline long long hold_ll(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    ck_assert_msg(PQresultStatus(r) == PGRES_TUPLES_OK, "%s: %s", sql,
                  PQresultErrorMessage(r));
    long long v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return v;
}

/* c's statement with no answer wanted. */
static inline void hold_do(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    ck_assert_msg(PQresultStatus(r) == PGRES_COMMAND_OK, "%s: %s", sql,
                  PQresultErrorMessage(r));
    PQclear(r);
}

/* Ends c's transaction (how: "COMMIT" or "ROLLBACK") and c. */
static inline void hold_end(PGconn *c, const char *how)
{
    PGresult *r = PQexec(c, how);
    ck_assert_int_eq(PQresultStatus(r), PGRES_COMMAND_OK);
    PQclear(r);
    PQfinish(c);
}

/* The pid of the backend that waits for a lock c's backend holds, once
 * there is one (30 s: a hang). The store's statement waits there. */
static inline long long blocked_by(PGconn *c)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT coalesce(min(pid), 0) FROM"
             " pg_stat_activity WHERE %d = ANY(pg_blocking_pids(pid))",
             PQbackendPID(c));
    long long pid = 0;
    for (int i = 0; i < 3000 && pid == 0; i++) {
        if (i > 0)
            nanosleep(&(struct timespec){ 0, 10 * 1000000L }, NULL);
        pid = sw_int(sql);
    }
    ck_assert_msg(pid > 0, "no statement came to wait on the lock");
    return pid;
}

/* A connection holding the row locks `sql` (a SELECT ... FOR UPDATE)
 * takes, until hold_end. */
static inline PGconn *hold_rows(const char *sql)
{
    PGconn *c = hold_open();
    hold_ll(c, sql);
    return c;
}

/* A connection holding account id's game's row, until hold_end. */
static inline PGconn *hold_game(int64_t id)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM (SELECT 1 FROM progress"
             " WHERE account_id = %lld FOR UPDATE) s", (long long)id);
    return hold_rows(sql);
}

/* How many backends wait for a lock c's backend holds. */
static inline long long blocked_count(PGconn *c)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM pg_stat_activity WHERE"
             " %d = ANY(pg_blocking_pids(pid))", PQbackendPID(c));
    return sw_int(sql);
}

/* Waits (30 s: a hang) until n backends wait on c's locks. */
static inline void wait_blocked(PGconn *c, long long n)
{
    long long got = blocked_count(c);
    for (int i = 0; i < 3000 && got != n; i++) {
        nanosleep(&(struct timespec){ 0, 10 * 1000000L }, NULL);
        got = blocked_count(c);
    }
    ck_assert_int_eq(got, n);
}

#endif
