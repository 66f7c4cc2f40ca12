/* news.c - the server's news (news.h). */
#include "news.h"

#include <stdio.h>
#include <string.h>

void news_init(news_t *n, int every_ms)
{
    memset(n, 0, sizeof *n);
    pthread_mutex_init(&n->mu, NULL);
    n->every_ms = every_ms;
}

void news_free(news_t *n)
{
    pthread_mutex_destroy(&n->mu);
}

int news_post(news_t *n, uint64_t now_ms, int64_t when, const char *text)
{
    pthread_mutex_lock(&n->mu);
    int ok = n->seq == 0 || n->every_ms <= 0 ||
             now_ms >= n->last_ms + (uint64_t)n->every_ms;
    if (ok) {
        news_line_t *l = &n->ring[n->seq % NEWS_KEEP];
        l->seq = ++n->seq;
        l->when = when;
        snprintf(l->text, sizeof l->text, "%s", text);
        n->last_ms = now_ms;
    } else {
        n->dropped++;
    }
    pthread_mutex_unlock(&n->mu);
    return ok;
}

int news_latest(news_t *n, news_line_t *out, int max)
{
    pthread_mutex_lock(&n->mu);
    int k = 0;
    for (uint64_t s = n->seq; s > 0 && k < max && k < NEWS_KEEP; s--)
        out[k++] = n->ring[(s - 1) % NEWS_KEEP];
    pthread_mutex_unlock(&n->mu);
    return k;
}

uint64_t news_seq(news_t *n)
{
    pthread_mutex_lock(&n->mu);
    uint64_t s = n->seq;
    pthread_mutex_unlock(&n->mu);
    return s;
}
