/* outbox.c - the render phase's frames, written together at its end
 * (outbox.h). */
#include "outbox.h"

#include <string.h>

void outbox_init(outbox_t *o)
{
    o->len = 0;
    o->n = 0;
    o->draining = 0;
}

int outbox_add(outbox_t *o, void *who, const void *bytes, size_t len)
{
    if (o->draining || o->n == OUTBOX_FRAMES || len > OUTBOX_BYTES - o->len)
        return -1;
    struct outbox_frame *f = &o->frames[o->n++];
    f->who = who;
    f->at = (uint32_t)o->len;
    f->len = (uint32_t)len;
    memcpy(o->bytes + o->len, bytes, len);
    o->len += len;
    return 0;
}

int outbox_empty(const outbox_t *o)
{
    return o->n == 0;
}

void outbox_drain(outbox_t *o, void (*write)(void *who, const char *p,
                                              size_t len, void *ctx),
                  void *ctx)
{
    /* A write may end its session, which may try to send a last line:
     * refused here (outbox_add), it goes directly; and a drain asked for
     * meanwhile is this one. */
    if (o->draining)
        return;
    o->draining = 1;
    for (int i = 0; i < o->n; i++) {
        const struct outbox_frame *f = &o->frames[i];
        write(f->who, o->bytes + f->at, f->len, ctx);
    }
    o->n = 0;
    o->len = 0;
    o->draining = 0;
}
