/* site_cache.c - the hall of fame while it is true (site_cache.h). */
#include "site_cache.h"

#include <string.h>

void site_cache_init(site_cache_t *c)
{
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
}

void site_cache_free(site_cache_t *c)
{
    pthread_mutex_destroy(&c->mu);
}

void site_cache_changed(site_cache_t *c)
{
    pthread_mutex_lock(&c->mu);
    c->gen++;
    c->valid = 0;
    pthread_mutex_unlock(&c->mu);
}

uint64_t site_cache_gen(site_cache_t *c)
{
    pthread_mutex_lock(&c->mu);
    uint64_t g = c->gen;
    pthread_mutex_unlock(&c->mu);
    return g;
}

int site_cache_get(site_cache_t *c, uint64_t held, store_scores_t *out)
{
    pthread_mutex_lock(&c->mu);
    int ok = c->valid && c->held == held;
    if (ok) {
        *out = c->scores;
        c->hits++;
    } else {
        c->misses++;
    }
    pthread_mutex_unlock(&c->mu);
    return ok;
}

void site_cache_put(site_cache_t *c, uint64_t gen, uint64_t held,
                    const store_scores_t *s)
{
    if (s->status != STORE_OK)
        return;
    pthread_mutex_lock(&c->mu);
    if (gen == c->gen) {
        c->scores = *s;
        c->held = held;
        c->valid = 1;
    }
    pthread_mutex_unlock(&c->mu);
}
