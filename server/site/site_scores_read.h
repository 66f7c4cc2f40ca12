/* site_scores_read.h - the hall of fame for a page (the scores page; the
 * feeds read the latest games instead: site_feed.c): from the cache while
 * it is true (site_cache.h), else from the store, which then refills the
 * cache. */
#ifndef ROGUE_SITE_SCORES_READ_H
#define ROGUE_SITE_SCORES_READ_H

#include "store.h"

struct sess;

/* Calls cb(s, scores) now (a true cached reading) or once the store
 * answers. Returns 0, or -1 (the store refused: no callback). */
int site_read_scores(struct sess *s, store_scores_cb cb);

#endif
