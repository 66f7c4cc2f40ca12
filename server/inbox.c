/* inbox.c - messages from any thread to one loop (inbox.h), over a
 * channel (chan.h). */
#include "inbox.h"

#include <string.h>

static void on_async(uv_async_t *h)
{
    inbox_t *ib = h->data;
    if (ib->cb)
        ib->cb(ib, ib->data);
}

/* The channel's wake, under its mutex: inbox_close cannot close the
 * handle in between. */
static void wake(void *ctx)
{
    inbox_t *ib = ctx;
    uv_async_send(&ib->async);
}

int inbox_open(inbox_t *ib, uv_loop_t *loop, inbox_cb cb, void *data)
{
    memset(ib, 0, sizeof *ib);
    if (chan_init(&ib->ch, 0, wake, ib) != 0)
        return UV_ENOMEM;
    ib->cb = cb;
    ib->data = data;
    int rc = uv_async_init(loop, &ib->async, on_async);
    if (rc != 0) {
        chan_free(&ib->ch);
        return rc;
    }
    ib->async.data = ib;
    uv_unref((uv_handle_t *)&ib->async);
    return 0;
}

int inbox_post(inbox_t *ib, smsg_t *m)
{
    return chan_post(&ib->ch, m);
}

void inbox_take(inbox_t *ib, msgq_t *into)
{
    chan_take(&ib->ch, into);
}

void inbox_close(inbox_t *ib, msgq_t *left)
{
    chan_close(&ib->ch, left);
    uv_close((uv_handle_t *)&ib->async, NULL);
}

void inbox_free(inbox_t *ib)
{
    chan_free(&ib->ch);
    ib->cb = NULL;
}
