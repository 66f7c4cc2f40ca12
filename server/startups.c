/* startups.c - the random early drop of new connections (startups.h). */
#include "startups.h"

void startups_init(startups_t *s, int start, int rate, int full,
                   uint64_t seed)
{
    s->start = start > 0 ? start : 0;
    s->rate = rate < 0 ? 0 : rate > 100 ? 100 : rate;
    s->full = full < s->start ? s->start : full;
    s->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
}

int startups_drop_chance(const startups_t *s, int n)
{
    if (s->start <= 0 || n < s->start)
        return 0;
    if (n >= s->full)
        return 10000;
    /* rate at start, then linearly up to 100% at full */
    long span = s->full - s->start; /* > 0 here */
    long r = (long)s->rate * 100;
    return (int)(r + (10000 - r) * (n - s->start) / span);
}

static uint64_t next(startups_t *s)
{
    uint64_t x = s->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    s->rng = x;
    return x;
}

int startups_drop(startups_t *s, int n, int fresh)
{
    if (fresh && n < s->full)
        return 0;
    int chance = startups_drop_chance(s, n);
    if (chance <= 0)
        return 0;
    if (chance >= 10000)
        return 1;
    return (int)(next(s) % 10000) < chance;
}
