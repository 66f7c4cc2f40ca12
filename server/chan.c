/* chan.c - the channel between threads (chan.h). */
#include "chan.h"

#include <string.h>

int chan_init(chan_t *ch, size_t max, void (*wake)(void *ctx), void *ctx)
{
    memset(ch, 0, sizeof *ch);
    if (pthread_mutex_init(&ch->mu, NULL) != 0)
        return -1;
    ch->max = max;
    ch->wake = wake;
    ch->ctx = ctx;
    ch->opened = 1;
    return 0;
}

int chan_post(chan_t *ch, smsg_t *m)
{
    pthread_mutex_lock(&ch->mu);
    if (ch->closed || (ch->max && ch->q.len >= ch->max)) {
        pthread_mutex_unlock(&ch->mu);
        return -1;
    }
    msgq_push(&ch->q, m);
    /* Under the mutex: chan_close cannot come in between. */
    if (ch->wake)
        ch->wake(ch->ctx);
    pthread_mutex_unlock(&ch->mu);
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

int chan_take(chan_t *ch, msgq_t *into)
{
    pthread_mutex_lock(&ch->mu);
    splice(into, &ch->q);
    int closed = ch->closed;
    pthread_mutex_unlock(&ch->mu);
    return closed;
}

int chan_close(chan_t *ch, msgq_t *left)
{
    pthread_mutex_lock(&ch->mu);
    int was = ch->closed;
    ch->closed = 1;
    if (left)
        splice(left, &ch->q);
    pthread_mutex_unlock(&ch->mu);
    return was;
}

void chan_free(chan_t *ch)
{
    if (!ch->opened)
        return;
    msgq_free(&ch->q);
    pthread_mutex_destroy(&ch->mu);
    ch->opened = 0;
}
