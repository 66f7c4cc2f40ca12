/* site.c - the site's router: a table of paths and the page that answers
 * each (site.h). A page lives in a file of its own and is reached only
 * through this table. */
#include "site.h"

#include <string.h>

#include "site_html.h"
#include "site_pages.h"

typedef struct route {
    const char *path;
    int prefix;                /* path is a prefix; the rest is the page's */
    site_page_fn page;
} route_t;

static const route_t routes[] = {
    { "/", 0, site_front },
    { "/home", 0, site_front },   /* its old address: links kept working */
    { "/scores", 0, site_scores },
    { "/games.json", 0, site_feed_json },
    { "/games.xlog", 0, site_feed_xlog },
    { "/watch/", 1, site_watch },
    { "/game/", 1, site_game },
};

int site_request(struct sess *s, const char *path, const char *query)
{
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        const route_t *r = &routes[i];
        size_t n = strlen(r->path);
        if (r->prefix ? strncmp(path, r->path, n) == 0
                      : strcmp(path, r->path) == 0) {
            r->page(s, path + n, query);
            return 1;
        }
    }
    /* Any other path: the site's own 404, whose top line links the front
     * page, as a missing game's has; never the path given back. */
    site_error(s, "404 Not Found", "There is no page at this address.");
    return 1;
}

int site_parse_id(const char *text, uint64_t *out)
{
    uint64_t v = 0;
    size_t n = 0;
    for (; text[n]; n++) {
        if (text[n] < '0' || text[n] > '9' || n >= 19)
            return 0;
        v = v * 10 + (uint64_t)(text[n] - '0');
    }
    if (n == 0 || v == 0)
        return 0;
    *out = v;
    return 1;
}

int site_ws_start(const char *query, uint64_t *id)
{
    static const struct { const char *key; int what; } starts[] = {
        { "watch=", SITE_START_WATCH },
        { "replay=", SITE_START_REPLAY },
    };
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        size_t n = strlen(starts[i].key);
        if (strncmp(query, starts[i].key, n) == 0 &&
            site_parse_id(query + n, id))
            return starts[i].what;
    }
    return SITE_START_NONE;
}
