/* rebuild_pool.h - the queue and threads that rebuild games (rebuild.h),
 * apart from libuv's thread pool, where password hashes are checked: a
 * flood of watch-joins cannot hold a login's hash back, nor the other way
 * round.
 *
 * A job belongs to the session that asked and to its address. A session has
 * at most one job: a new one replaces the one before (cancelled). An
 * address has at most per_ip jobs waiting or running, the queue at most
 * queue_max waiting; past either a job is refused and the asker says so.
 * A cancelled job that has not started is dropped at once; one running
 * stops at the next check between keys (rbp_cancelled), and its answer is
 * never delivered: cancelling and delivering take the pool's lock, so
 * once rbp_cancel returns nothing of that session's is delivered any more
 * (its loop may be gone). docs/architecture.md, "Rebuilding a game off
 * the loop". */
#ifndef ROGUE_REBUILD_POOL_H
#define ROGUE_REBUILD_POOL_H

#include <stdatomic.h>
#include <stdint.h>

#include "addr_limits.h"

typedef struct rbp rbp_t;
typedef struct rbp_job rbp_job_t;

struct rbp_job {
    rbp_job_t *next;           /* the pool's */
    uint64_t session;          /* who asked */
    char ip[ADDR_MAX];         /* its address ("" counts as one address);
                                  rbp_submit makes it the address's key
                                  (addr_key), which rebuild_per_ip counts */
    uint8_t exempt;            /* the host's own (a session moved by a binary
                                  upgrade): held to neither bound; still one
                                  job a session, so bounded by the sessions */
    atomic_int cancelled;
    /* On a pool thread: the work, checking rbp_cancelled now and then. */
    void (*run)(rbp_job_t *j, rbp_t *p);
    /* Under the pool's lock, after run, only if not cancelled: hands the
     * answer over (must not block nor call the pool). */
    void (*deliver)(rbp_job_t *j);
    /* Frees the job: after run and deliver, or never run (cancelled, or
     * the pool closing). Outside the lock. */
    void (*drop)(rbp_job_t *j);
};

enum rbp_refusal {
    RBP_OK = 0,
    RBP_FULL = -1,             /* queue_max jobs are waiting */
    RBP_ADDR = -2,             /* the address has per_ip jobs */
    RBP_CLOSED = -3            /* the pool is closing */
};

typedef struct rbp_stats {
    uint64_t waiting, running;
    uint64_t started, cancelled, refused, keys; /* since the start */
} rbp_stats_t;

/* A pool of `threads` threads (0: none; rbp_run_one runs jobs, for tests),
 * queue_max waiting jobs (0: no bound) and per_ip per address (0: no
 * bound). Returns NULL when out of memory or a thread cannot start. */
rbp_t *rbp_new(int threads, int queue_max, int per_ip);

/* Cancels the jobs of j->session, then queues j. Returns RBP_OK (the pool
 * owns j), or a refusal (j stays the caller's, counted as refused). */
int rbp_submit(rbp_t *p, rbp_job_t *j);

/* Cancels the jobs of a session (gone, or no longer waiting for them). */
void rbp_cancel(rbp_t *p, uint64_t session);

/* For a job's run: 1 when it should stop (cancelled, or the pool closing). */
int rbp_cancelled(rbp_t *p, rbp_job_t *j);

/* For a job's run: keys it replayed (the figure /metrics shows). */
void rbp_count_keys(rbp_t *p, uint64_t n);

void rbp_stats(rbp_t *p, rbp_stats_t *out);

/* On the calling thread: runs the first waiting job. Returns 1, or 0 when
 * none waits. For a pool of no threads (tests). */
int rbp_run_one(rbp_t *p);

/* Tests: fn(ctx, j) runs on the job's thread at each rbp_cancelled. */
void rbp_set_check_hook(rbp_t *p, void (*fn)(void *ctx, rbp_job_t *j),
                        void *ctx);

/* Cancels everything, waits for the threads and frees the pool
 * (NULL-safe). */
void rbp_free(rbp_t *p);

#endif
