/* store_lock.h - another process's write lock on the test's database
 * (store_where.h), held until released: SQLite's (BEGIN IMMEDIATE on a
 * connection of its own), or on PostgreSQL the tables a LOCK TABLE names.
 * While it is held every batch of the store that writes fails once its
 * lock wait (busy_ms) runs out. Header-only, like store_fixture.h. */
#ifndef ROGUE_TEST_STORE_LOCK_H
#define ROGUE_TEST_STORE_LOCK_H

#include <check.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>

#include "store_fixture.h"
#include "store_where.h"

/* The lock: SQLite's, or on PostgreSQL the tables pg_lock names (a LOCK
 * TABLE mode and tables). */
typedef struct held_lock {
    sqlite3 *lite;
    PGconn *pg;
} held_lock_t;

static inline void lock_hold(held_lock_t *h, const char *pg_lock)
{
    h->lite = NULL;
    h->pg = NULL;
    if (sw_pg()) {
        char sql[128];
        h->pg = PQconnectdb(sw_url);
        ck_assert_int_eq(PQstatus(h->pg), CONNECTION_OK);
        snprintf(sql, sizeof sql, "BEGIN; LOCK TABLE %s", pg_lock);
        PQclear(PQexec(h->pg, sql));
    } else {
        ck_assert_int_eq(sqlite3_open(dbpath, &h->lite), SQLITE_OK);
        ck_assert_int_eq(sqlite3_exec(h->lite, "BEGIN IMMEDIATE", NULL, NULL,
                                      NULL), SQLITE_OK);
    }
}

/* sql run in the lock's own transaction (seen by others once
 * lock_commit ends it): a change made while the lock is held, with no
 * moment between the change and the lock. */
static inline void lock_exec(held_lock_t *h, const char *sql)
{
    if (h->pg) {
        PGresult *res = PQexec(h->pg, sql);
        ck_assert_int_eq(PQresultStatus(res), PGRES_COMMAND_OK);
        PQclear(res);
    } else {
        ck_assert_int_eq(sqlite3_exec(h->lite, sql, NULL, NULL, NULL),
                         SQLITE_OK);
    }
}

static inline void lock_end(held_lock_t *h, const char *how)
{
    if (h->pg) {
        PGresult *res = PQexec(h->pg, how);
        ck_assert_int_eq(PQresultStatus(res), PGRES_COMMAND_OK);
        PQclear(res);
        PQfinish(h->pg);
    } else {
        ck_assert_int_eq(sqlite3_exec(h->lite, how, NULL, NULL, NULL),
                         SQLITE_OK);
        sqlite3_close(h->lite);
    }
}

/* Ends the lock's transaction (it wrote nothing) and its connection. */
static inline void lock_release(held_lock_t *h)
{
    lock_end(h, "ROLLBACK");
}

/* Ends the lock's transaction, keeping what lock_exec changed. */
static inline void lock_commit(held_lock_t *h)
{
    lock_end(h, "COMMIT");
}

#endif
