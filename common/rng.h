/* rng.h - the game's deterministic random number generator.
 *
 * splitmix64: 8 bytes of state, fast, statistically good enough for a game,
 * and trivially reproducible on every platform. A game holds two streams
 * (rules and cosmetic) so that flavour can never change an outcome. */
#ifndef ROGUE_RNG_H
#define ROGUE_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t s;
} rng_t;

/* Seeds a stream. Any seed is valid, 0 included. */
void rng_seed(rng_t *r, uint64_t seed);

/* Next 64 random bits. */
uint64_t rng_next(rng_t *r);

/* Uniform integer in [lo, hi] inclusive, without modulo bias. hi < lo gives lo. */
int rng_range(rng_t *r, int lo, int hi);

/* True with probability pct/100. */
int rng_chance(rng_t *r, int pct);

#endif
