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

/* Asks for every line of [p, p + n), for reading; returns how many lines
 * that was (0 when n is 0), which callers may ignore. */
static inline size_t prefetch_range(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)(PREFETCH_LINE - 1);
    uintptr_t end = (uintptr_t)p + n;
    size_t lines = 0;
    if (n == 0)
        return 0; /* else an unaligned p would ask for its line */
    for (; a < end; a += PREFETCH_LINE, lines++)
        __builtin_prefetch((const void *)a, 0, 3);
    return lines;
}

#endif
