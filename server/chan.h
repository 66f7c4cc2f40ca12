/* chan.h - the one channel between threads: a guarded queue of messages
 * (msg.h) and a wake function. Any thread posts; the owner takes the whole
 * queue at once. All three queues between threads are channels: the inbox
 * of each worker loop (inbox.h: its wake is a uv_async_t), the cluster
 * thread's inbound queue (cluster.c: its wake an eventfd its poll waits
 * on) and the store's request queue (store_thread.c: its wake signals the
 * condition variable the database thread waits on; a request rides as the
 * message embedded in it) (docs/architecture.md, "Worker loops").
 *
 * The wake runs under the channel's mutex right after a push: a close
 * (under the same mutex) cannot come in between, so no wake reaches a
 * handle that is closed. It must not block or post. Messages from one
 * poster arrive in the order posted. */
#ifndef ROGUE_CHAN_H
#define ROGUE_CHAN_H

#include <pthread.h>
#include <stddef.h>

#include "msg.h"

typedef struct chan {
    pthread_mutex_t mu;
    msgq_t q;                  /* under mu */
    size_t max;                /* queued at most (0: no bound) */
    int closed;                /* under mu */
    void (*wake)(void *ctx);   /* may be NULL: nobody is woken */
    void *ctx;
    int opened;                /* mu is initialised (chan_free destroys it) */
} chan_t;

/* Sets the channel up. Returns 0, or -1 (no mutex). */
int chan_init(chan_t *ch, size_t max, void (*wake)(void *ctx), void *ctx);

/* From any thread: queues m (taken) and wakes the owner. Returns 0, or -1
 * when the channel is closed or holds max messages: m stays the caller's. */
int chan_post(chan_t *ch, smsg_t *m);

/* The owner: moves every queued message to the end of `into`, in order.
 * Returns 1 if the channel is closed (a last take), else 0. */
int chan_take(chan_t *ch, msgq_t *into);

/* Refuses further posts; what is queued is moved to `left`, or stays for
 * a last chan_take or chan_free if left is NULL. Returns 1 if it was
 * closed already. */
int chan_close(chan_t *ch, msgq_t *left);

/* Frees what is still queued and the mutex (NULL-safe on a zeroed
 * channel). */
void chan_free(chan_t *ch);

#endif
