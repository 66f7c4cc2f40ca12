/* store_fixture.h - what the store's unit suites share: a temporary data
 * directory (dir; dbpath, its SQLite file), a libuv loop, store options
 * with libsodium's cheapest password hash (fast), a store opened on
 * them and accounts made in it, on the backend store_where.h picks (a SQLite file, or in the pg
 * family a PostgreSQL database of the test's own).
 *
 * Header-only: each test binary is one file. A suite's setup calls
 * store_fixture_setup(template) and then resets its own state; its
 * teardown calls store_fixture_teardown(). */
#ifndef ROGUE_TEST_STORE_FIXTURE_H
#define ROGUE_TEST_STORE_FIXTURE_H

#include <check.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "buf.h"
#include "record.h"
#include "store.h"
#include "store_where.h"

static char dir[64], dbpath[128];
static uv_loop_t loop;
static store_opts_t fast;

/* Removes the SQLite file with its WAL and shared-memory files. */
static inline void store_fixture_rm_db(void)
{
    char p[160];
    const char *suffix[] = { "", "-wal", "-shm" };
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s%s", dbpath, suffix[i]);
        unlink(p);
    }
}

/* template: a mkdtemp pattern ("/tmp/rogued-store-XXXXXX"). */
static inline void store_fixture_setup(const char *template)
{
    snprintf(dir, sizeof dir, "%s", template);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(dbpath, sizeof dbpath, "%s/%s", dir, STORE_FILE);
    sw_setup(dir);
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    memset(&fast, 0, sizeof fast);
    sw_opts(&fast);
    fast.pw_ops = crypto_pwhash_OPSLIMIT_MIN;
    fast.pw_mem = crypto_pwhash_MEMLIMIT_MIN;
}

/* Every handle closed (the loop closes cleanly), the database gone, and
 * the directory: with the store's log a test sent there (store_log.h),
 * which a test that fails, or reads it last, leaves behind. */
static inline void store_fixture_teardown(void)
{
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    sw_teardown();
    store_fixture_rm_db();
    char log[sizeof dir + 8];
    snprintf(log, sizeof log, "%s/log", dir);
    unlink(log);
    rmdir(dir);
}

/* A store on the fixture's loop and directory with options o; the test
 * ends if it cannot open. */
static inline store_t *store_fixture_open(const store_opts_t *o)
{
    char err[512];
    store_t *st = store_open(&loop, dir, o, err, sizeof err);
    ck_assert_msg(st != NULL, "%s", err);
    return st;
}

static inline void store_fixture_on_account(void *ctx,
                                            const store_account_t *a)
{
    *(store_account_t *)ctx = *a;
}

/* A new account `name` (password "password"), the loop run until it is
 * made; returns its id. */
static inline int64_t store_fixture_account(store_t *st, const char *name)
{
    store_account_t a = { .status = -1 };
    ck_assert_int_eq(store_register(st, name, "password",
                                    store_fixture_on_account, &a), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(a.status, STORE_OK);
    return a.id;
}

static inline void store_fixture_on_flush(void *ctx, int status)
{
    *(int *)ctx = status;
}

/* A flush, the loop run until it is answered: its status. */
static inline int store_fixture_flush(store_t *st)
{
    int status = -1;
    ck_assert_int_eq(store_flush(st, store_fixture_on_flush, &status), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    return status;
}

/* What store_get_record answered: how often, and the answer with its
 * record copied out (the caller frees bytes). */
typedef struct store_fixture_record {
    int calls;
    store_record_t r;
    buf_t bytes;
} store_fixture_record_t;

static inline void store_fixture_on_record(void *ctx, const store_record_t *r)
{
    store_fixture_record_t *g = ctx;
    g->calls++;
    g->r = *r;
    g->r.record = NULL;
    buf_init(&g->bytes, RECORD_ENCODED_MAX);
    if (r->len)
        ck_assert_int_eq(buf_append(&g->bytes, r->record, r->len), 0);
}

#endif
