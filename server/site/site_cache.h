/* site_cache.h - the hall of fame as the site last read it, kept only
 * while it is true: every game that ends here is a new generation
 * (site_cache_changed, called once the game is queued to the store: a
 * reading asked at the new generation is queued after the game), and a
 * reading is kept only if no game ended between the request and its
 * answer. The store answers a request only after everything queued before
 * it is committed, so a reading asked after a game ended includes it;
 * except a game whose batch failed, held by the store and written later
 * (store_held_written): a reading is kept only while the store has
 * written no held game since it was asked.
 * With hosts sharing a database (cluster.h), games end elsewhere too: the
 * site does not use the cache there.
 *
 * Filled only when a page asks: nothing is read while nobody looks. One
 * cache serves every worker loop (it lives in the host): each call takes
 * its mutex for a copy. */
#ifndef ROGUE_SITE_CACHE_H
#define ROGUE_SITE_CACHE_H

#include <pthread.h>
#include <stdint.h>

#include "store.h"

typedef struct site_cache {
    pthread_mutex_t mu;        /* every field below */
    uint64_t gen;              /* games ended so far */
    int valid;                 /* scores is the reading of generation gen */
    uint64_t held;             /* store_held_written as it was asked */
    store_scores_t scores;
    uint64_t hits, misses;     /* for the log and the tests */
} site_cache_t;

void site_cache_init(site_cache_t *c);
void site_cache_free(site_cache_t *c);

/* A game ended: what was read is no longer true. */
void site_cache_changed(site_cache_t *c);

/* The generation now: pass it to site_cache_put with the answer. */
uint64_t site_cache_gen(site_cache_t *c);

/* Copies the reading into *out: 1 if there is a true one, else 0. held:
 * store_held_written now (a held game written since the reading was asked
 * makes it untrue). */
int site_cache_get(site_cache_t *c, uint64_t held, store_scores_t *out);

/* Keeps a reading asked at generation gen, when store_held_written was
 * held (nothing if a game ended since, or it is not STORE_OK). */
void site_cache_put(site_cache_t *c, uint64_t gen, uint64_t held,
                    const store_scores_t *s);

#endif
