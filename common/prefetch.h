/* prefetch.h - asking the memory for lines before they are read.
 *
 * At a thousand sessions a key's state (its session, its game) is out of
 * the caches when the key comes: each first touch of a line waits for the
 * memory, one after another as the code reaches them. Asking for the lines
 * as soon as their addresses are known lets those waits overlap each other
 * and the work in between (docs/performance.md, "A key's cold lines").
 * A prefetch changes nothing but timing: it never faults, whatever the
 * address. */
#ifndef ROGUE_PREFETCH_H
#define ROGUE_PREFETCH_H

#include <stddef.h>
#include <stdint.h>

#define PREFETCH_LINE 64

/* Every line of [p, p + n), for reading. */
static inline void prefetch_range(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)(PREFETCH_LINE - 1);
    uintptr_t end = (uintptr_t)p + n;
    for (; a < end; a += PREFETCH_LINE)
        __builtin_prefetch((const void *)a, 0, 3);
}

#endif
