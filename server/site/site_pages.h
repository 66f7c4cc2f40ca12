/* site_pages.h - the site's pages, each in its own file, as the router
 * (site.c) calls them: the session asking, what follows the route's path
 * (a prefix route's id), and the query. A page always answers, now or
 * once the store has (site_html.h's site_send or site_error). */
#ifndef ROGUE_SITE_PAGES_H
#define ROGUE_SITE_PAGES_H

struct sess;

typedef void (*site_page_fn)(struct sess *s, const char *rest,
                             const char *query);

void site_front(struct sess *s, const char *rest, const char *query);     /* site_front.c */
void site_scores(struct sess *s, const char *rest, const char *query);    /* site_scores.c */
void site_feed_json(struct sess *s, const char *rest, const char *query); /* site_feed.c */
void site_feed_xlog(struct sess *s, const char *rest, const char *query); /* site_feed.c */
void site_watch(struct sess *s, const char *rest, const char *query);     /* site_watch.c */
void site_game(struct sess *s, const char *rest, const char *query);      /* site_game.c */

#endif
