/* news.h - the server's news: one line for each win and each death below
 * a depth (news_min_depth), shown by the lobby and the front page as they
 * happen. Rate-limited: at most one line each news_interval_ms, the rest
 * dropped (counted), so a burst of deaths is one line, not a flood.
 *
 * One news_t serves every worker loop (it lives in the host): each call
 * takes its mutex for a copy. Bounded: the last NEWS_KEEP lines. */
#ifndef ROGUE_NEWS_H
#define ROGUE_NEWS_H

#include <pthread.h>
#include <stdint.h>

#define NEWS_KEEP 8
#define NEWS_TEXT_MAX 120

typedef struct news_line {
    uint64_t seq;              /* 1, 2, ...: which line this is */
    int64_t when;              /* Unix seconds */
    char text[NEWS_TEXT_MAX];
} news_line_t;

typedef struct news {
    pthread_mutex_t mu;        /* every field below */
    news_line_t ring[NEWS_KEEP];
    uint64_t seq;              /* lines posted so far */
    uint64_t dropped;          /* lines the rate limit dropped */
    uint64_t last_ms;          /* when the last line was posted */
    int every_ms;              /* the rate limit (0: none) */
} news_t;

void news_init(news_t *n, int every_ms);
void news_free(news_t *n);

/* Posts a line (cut at NEWS_TEXT_MAX - 1 bytes) at now_ms (a monotonic
 * clock in ms) and when (Unix seconds, shown). Returns 1, or 0 when the
 * rate limit dropped it. */
int news_post(news_t *n, uint64_t now_ms, int64_t when, const char *text);

/* Copies up to max of the latest lines, newest first. Returns how many. */
int news_latest(news_t *n, news_line_t *out, int max);

/* The latest line's seq (0: none yet): a lobby redraws when it grows. */
uint64_t news_seq(news_t *n);

#endif
