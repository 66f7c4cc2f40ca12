/* startups.h - under pressure, new connections are let go first (OpenSSH's
 * MaxStartups "start:rate:full", its random early drop).
 *
 * A connection before the lobby (waiting for its PROXY header or HTTP
 * request, or negotiating) has done the least of anyone: when more than
 * `start` such connections are open at once, a new one is dropped with
 * probability `rate` percent, rising linearly to 100% at `full`; below
 * `start` every one is let in. Random, so that a flood cannot time its
 * connections around a fixed rule, and so that some newcomers still get in
 * while it lasts. A fresh address (none of its connections before the
 * lobby) goes first: it is let in until `full`, so that a flood from a few
 * addresses holding several connections each (the per-address caps) meets
 * the chance with its own further connections, not the newcomers', and
 * shuts them out only by filling all of `full`. Pure: the caller holds
 * the counts (addr_limits.h: the address's) and the random state (one per
 * worker loop; tests seed their own). docs/hosting.md, "The network". */
#ifndef ROGUE_STARTUPS_H
#define ROGUE_STARTUPS_H

#include <stdint.h>

typedef struct startups {
    int start, rate, full;     /* start 0: never drop */
    uint64_t rng;              /* xorshift64 state, never 0 */
} startups_t;

/* rate in percent (0..100); full < start counts as full = start. */
void startups_init(startups_t *s, int start, int rate, int full,
                   uint64_t seed);

/* The chance, in parts per 10,000, that a new connection is dropped
 * while n connections (not counting it) are before the lobby. */
int startups_drop_chance(const startups_t *s, int n);

/* 1: drop the new connection (n as above), drawn from s's random state.
 * fresh: its address has no other connection before the lobby, so it is
 * let in below full whatever the chance (and nothing is drawn). */
int startups_drop(startups_t *s, int n, int fresh);

#endif
