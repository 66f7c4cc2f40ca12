/* site_scores_read.c - the hall of fame for a page (site_scores_read.h). */
#include "site_scores_read.h"

#include <stdlib.h>

#include "host.h"
#include "log.h"
#include "session.h"
#include "site_cache.h"

/* The cache holds only what this host knows ended (site_cache.h). */
static site_cache_t *cache_of(sess_t *s)
{
    return s->srv->sh->cluster ? NULL : &s->srv->sh->site_cache;
}

static void on_scores(void *ctx, const store_scores_t *sc)
{
    sess_t *s = ctx;
    site_cache_t *c = cache_of(s);
    if (c)
        site_cache_put(c, s->site_req.gen, s->site_req.held, sc);
    s->site_req.scores(s, sc);
}

int site_read_scores(sess_t *s, store_scores_cb cb)
{
    site_cache_t *c = cache_of(s);
    if (c) {
        store_scores_t *sc = malloc(sizeof *sc);
        uint64_t held = store_held_written(s->srv->store);
        if (sc && site_cache_get(c, held, sc)) {
            log_debug("site: the hall of fame from the cache");
            cb(s, sc);
            free(sc);
            return 0;
        }
        free(sc);
        s->site_req.gen = site_cache_gen(c);
        s->site_req.held = held;
    }
    s->site_req.scores = cb;
    log_debug("site: the hall of fame from the store");
    return store_scores(s->srv->store, STORE_TOP_MAX, NULL, on_scores, s);
}
