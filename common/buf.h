/* buf.h - a growable byte buffer with a hard cap.
 *
 * Every buffer in the project has a cap: an append that would pass it fails
 * and leaves the buffer as it was, so memory never depends on a client. */
#ifndef ROGUE_BUF_H
#define ROGUE_BUF_H

#include <stddef.h>

typedef struct buf {
    char *data;
    size_t len;
    size_t cap;   /* allocated bytes */
    size_t limit; /* most bytes it may ever hold; 0 means 1 MiB */
} buf_t;

/* An empty buffer that will hold at most limit bytes (0: 1 MiB). No allocation yet. */
void buf_init(buf_t *b, size_t limit);

/* Appends n bytes. Returns 0, or -1 (nothing appended) past the limit or on OOM. */
int buf_append(buf_t *b, const void *p, size_t n);

/* Appends a NUL-terminated string. */
int buf_puts(buf_t *b, const char *s);

/* printf into the buffer. Returns 0 or -1 as buf_append. */
int buf_printf(buf_t *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Empties the buffer, keeping its allocation. */
void buf_reset(buf_t *b);

/* Releases the allocation; the buffer is empty and usable again. */
void buf_free(buf_t *b);

#endif
