/* rng.c - splitmix64 (Steele, Lea, Flood 2014). */
#include "rng.h"

void rng_seed(rng_t *r, uint64_t seed)
{
    r->s = seed;
}

uint64_t rng_next(rng_t *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int rng_range(rng_t *r, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
    /* Reject the top sliver so that every value is equally likely. */
    uint64_t limit = UINT64_MAX - (UINT64_MAX % span);
    uint64_t v;
    do {
        v = rng_next(r);
    } while (v >= limit);
    return (int)((int64_t)lo + (int64_t)(v % span));
}

int rng_chance(rng_t *r, int pct)
{
    return rng_range(r, 0, 99) < pct;
}
