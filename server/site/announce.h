/* announce.h - a finished game as news (news.h): a win always, a death at
 * news_min_depth or deeper; anything else (a quit, a shallow death, a
 * dropped connection) is not news. */
#ifndef ROGUE_ANNOUNCE_H
#define ROGUE_ANNOUNCE_H

#include <stdint.h>

#include "news.h"
#include "store.h"

/* The line for row, if it is news: returns 1 and fills out, else 0. */
int announce_line(const store_game_t *row, int min_depth, char *out,
                  size_t n);

/* Posts row's line to news if it is news (rate-limited by news_post).
 * Returns 1 if a line was posted. */
int announce_game_end(news_t *news, uint64_t now_ms, int min_depth,
                      const store_game_t *row);

#endif
