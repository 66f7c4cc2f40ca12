/* inbox.c - messages from any thread to one loop (inbox.h). */
#include "inbox.h"

#include <string.h>

static void on_async(uv_async_t *h)
{
    inbox_t *ib = h->data;
    if (ib->cb)
        ib->cb(ib, ib->data);
}

int inbox_open(inbox_t *ib, uv_loop_t *loop, inbox_cb cb, void *data)
{
    memset(ib, 0, sizeof *ib);
    int rc = pthread_mutex_init(&ib->mu, NULL);
    if (rc != 0)
        return UV_ENOMEM;
    ib->cb = cb;
    ib->data = data;
    rc = uv_async_init(loop, &ib->async, on_async);
    if (rc != 0) {
        pthread_mutex_destroy(&ib->mu);
        return rc;
    }
    ib->async.data = ib;
    uv_unref((uv_handle_t *)&ib->async);
    ib->opened = 1;
    return 0;
}

int inbox_post(inbox_t *ib, smsg_t *m)
{
    pthread_mutex_lock(&ib->mu);
    if (ib->closed) {
        pthread_mutex_unlock(&ib->mu);
        return -1;
    }
    msgq_push(&ib->q, m);
    /* Under the mutex: inbox_close cannot close the handle in between. */
    uv_async_send(&ib->async);
    pthread_mutex_unlock(&ib->mu);
    return 0;
}

/* Appends all of `from` to `into`; from is empty afterwards. */
static void splice(msgq_t *into, msgq_t *from)
{
    if (!from->head)
        return;
    if (into->tail)
        into->tail->next = from->head;
    else
        into->head = from->head;
    into->tail = from->tail;
    into->len += from->len;
    memset(from, 0, sizeof *from);
}

void inbox_take(inbox_t *ib, msgq_t *into)
{
    pthread_mutex_lock(&ib->mu);
    splice(into, &ib->q);
    pthread_mutex_unlock(&ib->mu);
}

void inbox_close(inbox_t *ib, msgq_t *left)
{
    pthread_mutex_lock(&ib->mu);
    ib->closed = 1;
    splice(left, &ib->q);
    pthread_mutex_unlock(&ib->mu);
    uv_close((uv_handle_t *)&ib->async, NULL);
}

void inbox_free(inbox_t *ib)
{
    if (ib->opened)
        pthread_mutex_destroy(&ib->mu);
    ib->opened = 0;
    ib->cb = NULL;
}
