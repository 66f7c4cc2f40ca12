/* inbox.h - messages posted from any thread to one loop, delivered on
 * that loop's thread: a channel (chan.h) whose wake is a uv_async_t.
 *
 * Every worker loop has one (server.h). A poster pushes under the
 * channel's mutex and wakes the loop with the async; wake-ups coalesce, so a burst
 * of messages costs the loop one callback, which takes the whole queue at
 * once. Messages from one poster arrive in the order posted. Once the loop
 * has closed its inbox, a post is refused and the poster keeps the message
 * (it bounces it, as for a session that is gone): nothing is posted into a
 * loop that will never read it, and no wake-up reaches a closed handle. */
#ifndef ROGUE_INBOX_H
#define ROGUE_INBOX_H

#include <uv.h>

#include "chan.h"
#include "msg.h"

typedef struct inbox inbox_t;
typedef void (*inbox_cb)(inbox_t *ib, void *data);

struct inbox {
    chan_t ch;                 /* its wake sends the async */
    uv_async_t async;          /* the owner loop's */
    inbox_cb cb;               /* may be NULL: nobody is woken */
    void *data;
};

/* Sets the inbox up on `loop` (call on the loop's thread): cb runs there
 * whenever messages have arrived. The async handle does not keep the loop
 * alive by itself. Returns 0 or a libuv error. */
int inbox_open(inbox_t *ib, uv_loop_t *loop, inbox_cb cb, void *data);

/* From any thread: queues m (taken) and wakes the loop. Returns 0, or -1
 * when the inbox is closed: m stays the caller's. */
int inbox_post(inbox_t *ib, smsg_t *m);

/* On the owner's thread: moves every queued message to the end of `into`,
 * in order. */
void inbox_take(inbox_t *ib, msgq_t *into);

/* On the owner's thread: refuses further posts and closes the handle;
 * messages still queued are moved to `left` (to bounce or free). The inbox
 * may be freed with inbox_free once its loop has run the close. */
void inbox_close(inbox_t *ib, msgq_t *left);

/* Releases the mutex (after inbox_close and the loop's last run, or for
 * an inbox that was never opened: NULL-safe on a zeroed one). */
void inbox_free(inbox_t *ib);

#endif
