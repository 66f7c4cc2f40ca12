/* outbox.h - the render phase's frames, written together at its end.
 *
 * A loop renders every session a key marked, then writes. Written one by
 * one between renders, each frame finds the client's side asleep again
 * and pays to wake it (on loopback, and under a hypervisor, an interrupt
 * between CPUs charged to the writer); written back to back, one wake
 * serves several (docs/performance.md, "Frames written together"). The
 * outbox keeps each frame's bytes and whose they are, in order, in a fixed
 * buffer: when it is full the caller drains it early, and a frame larger
 * than the buffer is written directly (after a drain, so the order per
 * session holds). */
#ifndef ROGUE_OUTBOX_H
#define ROGUE_OUTBOX_H

#include <stddef.h>
#include <stdint.h>

#define OUTBOX_BYTES 65536
#define OUTBOX_FRAMES 256

typedef struct outbox {
    size_t len;   /* bytes held */
    int n;        /* frames held */
    int draining; /* within outbox_drain: nothing may be added */
    struct outbox_frame {
        void *who;  /* the caller's: a session */
        uint32_t at, len;
    } frames[OUTBOX_FRAMES];
    char bytes[OUTBOX_BYTES];
} outbox_t;

/* Empty. */
void outbox_init(outbox_t *o);

/* Keeps len bytes for who. Returns 0, or -1 (nothing kept) when they do
 * not fit (drain it, then try again, or write them directly if len alone
 * is over OUTBOX_BYTES) or it is being drained (write them directly). */
int outbox_add(outbox_t *o, void *who, const void *bytes, size_t len);

/* 1 if nothing is held. */
int outbox_empty(const outbox_t *o);

/* Hands every frame to write, in the order added, then empties the
 * outbox. Called again from within write, it does nothing. */
void outbox_drain(outbox_t *o, void (*write)(void *who, const char *p,
                                              size_t len, void *ctx),
                  void *ctx);

#endif
