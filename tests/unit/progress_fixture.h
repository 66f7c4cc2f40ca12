/* progress_fixture.h - what the suites of games in progress share, on top
 * of store_fixture.h: a load's answer copied out of its callback (the
 * keys, and the snapshot's game and checks when there is one), and a
 * flush run to its answer. Header-only, like store_fixture.h. */
#ifndef ROGUE_TEST_PROGRESS_FIXTURE_H
#define ROGUE_TEST_PROGRESS_FIXTURE_H

#include <check.h>
#include <string.h>
#include <uv.h>

#include "buf.h"
#include "game.h"
#include "record.h"
#include "store.h"
#include "store_fixture.h"

/* What a load answered (p's pointers cleared: the copies are below). */
typedef struct loaded {
    int calls;
    store_progress_t p;
    buf_t keys;
    game_t *snap;     /* a copy of the snapshot's game, or NULL */
    buf_t checks;     /* the snapshot's checks */
} loaded_t;

static inline void progress_on_load(void *ctx, const store_progress_t *p)
{
    loaded_t *l = ctx;
    l->calls++;
    l->p = *p;
    l->p.keys = NULL;
    l->p.snap = NULL;
    l->p.snap_checks = NULL;
    buf_init(&l->keys, RECORD_ENCODED_MAX);
    buf_init(&l->checks, RECORD_ENCODED_MAX);
    if (p->len)
        ck_assert_int_eq(buf_append(&l->keys, p->keys, p->len), 0);
    if (p->snap) {
        l->snap = game_clone(p->snap);
        ck_assert_ptr_nonnull(l->snap);
        ck_assert_int_eq(buf_append(&l->checks, p->snap_checks,
                                    p->snap_checks_len), 0);
    }
}

/* A login's load of the account's game on st, run to its one answer
 * (never given from inside the call). */
static inline loaded_t load(store_t *st, int64_t account)
{
    loaded_t l;
    memset(&l, 0, sizeof l);
    ck_assert_int_eq(store_progress_load(st, account, progress_on_load, &l),
                     0);
    ck_assert_int_eq(l.calls, 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(l.calls, 1);
    return l;
}

static inline void loaded_free(loaded_t *l)
{
    buf_free(&l->keys);
    buf_free(&l->checks);
    game_free(l->snap);
}

static inline void progress_on_flush(void *ctx, int status)
{
    *(int *)ctx = status;
}

/* Everything queued on st is committed (a claim's refusal is no failure). */
static inline void flush(store_t *st)
{
    int status = -1;
    ck_assert_int_eq(store_flush(st, progress_on_flush, &status), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(status, STORE_OK);
}

#endif
