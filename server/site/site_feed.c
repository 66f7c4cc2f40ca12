/* site_feed.c - the finished games for machines: /games.json, and
 * /games.xlog with one line a game in the xlogfile style that community
 * scoreboards read (key=value fields joined by ':'; no value holds a ':'
 * or a line break). Both list the latest finished games, newest first
 * (store_recent: every ending, at most STORE_RECENT_MAX), as docs/site.md
 * says: `?limit=N` fewer, `?after=ID` only those after the game ID. Made
 * when asked, from the store, sent "no-cache". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combat.h"
#include "game.h"
#include "session.h"
#include "site_html.h"
#include "site_pages.h"
#include "store.h"

/* The ruleset's name ("?" for a number this build does not know). */
static const char *ruleset_of(int r)
{
    const char *name = combat_ruleset_name(r);
    return name ? name : "?";
}

static const char *ending_name(int ending)
{
    switch (ending) {
    case STORE_END_WIN: return "win";
    case STORE_END_DEATH: return "death";
    case STORE_END_QUIT: return "quit";
    default: return "disconnect";
    }
}

static int unreadable(sess_t *s, const store_recent_t *sc)
{
    if (sc->status == STORE_OK)
        return 0;
    site_error(s, "503 Service Unavailable",
               "The finished games cannot be read right now.");
    return 1;
}

static void on_recent_json(void *ctx, const store_recent_t *sc)
{
    sess_t *s = ctx;
    if (unreadable(s, sc))
        return;
    page_t p;
    html_init(&p);
    html_raw(&p, "{\"server\": \"");
    json_text(&p, s->srv->cfg.server_name);
    html_printf(&p, "\", \"version\": %d, \"games\": [", GAME_VERSION);
    for (int i = 0; i < sc->n; i++) {
        const store_score_t *g = &sc->games[i];
        html_printf(&p, "%s\n  {\"id\": %lld, \"name\": \"", i ? "," : "",
                    (long long)g->game_id);
        json_text(&p, g->name);
        html_printf(&p, "\", \"score\": %d, \"depth\": %d, \"turns\": %d, "
                    "\"kills\": %d, \"ruleset\": \"%s\", \"ending\": \"%s\", "
                    "\"cause\": \"", g->score, g->depth, g->turns, g->kills,
                    ruleset_of(g->ruleset), ending_name(g->ending));
        json_text(&p, g->cause);
        html_printf(&p, "\", \"ended\": %lld, \"url\": \"/game/%lld\"}",
                    (long long)g->ended, (long long)g->game_id);
    }
    html_raw(&p, "\n]}\n");
    site_send(s, &p, "200 OK", "application/json", "no-cache");
}

/* An xlogfile value: ':' becomes ';', control bytes a blank. */
static void xlog_text(page_t *p, const char *text)
{
    char out[128];
    size_t n = 0;
    for (const char *c = text; *c && n + 1 < sizeof out; c++)
        out[n++] = *c == ':' ? ';' : (unsigned char)*c < 0x20 ? ' ' : *c;
    out[n] = '\0';
    html_raw(p, out);
}

static void on_recent_xlog(void *ctx, const store_recent_t *sc)
{
    sess_t *s = ctx;
    if (unreadable(s, sc))
        return;
    page_t p;
    html_init(&p);
    for (int i = 0; i < sc->n; i++) {
        const store_score_t *g = &sc->games[i];
        html_printf(&p, "version=%d:gameid=%lld:points=%d:deathlev=%d:"
                    "maxlvl=%d:turns=%d:kills=%d:ruleset=%s:ending=%s:"
                    "endtime=%lld:name=", GAME_VERSION, (long long)g->game_id,
                    g->score, g->depth, g->depth, g->turns, g->kills,
                    ruleset_of(g->ruleset), ending_name(g->ending),
                    (long long)g->ended);
        xlog_text(&p, g->name);
        html_raw(&p, ":death=");
        xlog_text(&p, g->cause);
        html_raw(&p, "\n");
    }
    site_send(s, &p, "200 OK", "text/plain; charset=utf-8", "no-cache");
}

/* The value of `key=` in a query of `a=1&b=2` pairs as a number of at
 * most 18 digits; fallback if it is absent or not such a number. */
static long long query_number(const char *query, const char *key,
                              long long fallback)
{
    size_t n = strlen(key);
    for (const char *q = query; q && *q;) {
        if (strncmp(q, key, n) == 0 && q[n] == '=') {
            const char *v = q + n + 1;
            size_t d = strspn(v, "0123456789");
            if (d == 0 || d > 18 || (v[d] && v[d] != '&'))
                return fallback;
            return strtoll(v, NULL, 10);
        }
        q = strchr(q, '&');
        q = q ? q + 1 : NULL;
    }
    return fallback;
}

static void ask(sess_t *s, const char *query, store_recent_cb cb)
{
    long long limit = query_number(query, "limit", STORE_RECENT_MAX);
    long long after = query_number(query, "after", 0);
    if (limit > STORE_RECENT_MAX)
        limit = STORE_RECENT_MAX;
    if (store_recent(s->srv->store, after, (int)limit, cb, s) != 0)
        site_error(s, "503 Service Unavailable",
                   "The server is too busy to read the finished games.");
}

void site_feed_json(sess_t *s, const char *rest, const char *query)
{
    (void)rest;
    ask(s, query, on_recent_json);
}

void site_feed_xlog(sess_t *s, const char *rest, const char *query)
{
    (void)rest;
    ask(s, query, on_recent_xlog);
}
