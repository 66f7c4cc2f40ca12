/* site_scores.c - the hall of fame (/scores): the best games as the
 * lobby's high scores list them (store_scores), each linked to its page
 * (/game/ID). Made when asked (from the cache while it is true:
 * site_scores_read.h), sent "no-cache": it changes whenever a game ends. */
#include <stdio.h>

#include "combat.h"
#include "session.h"
#include "site_html.h"
#include "site_pages.h"
#include "site_scores_read.h"
#include "store.h"

static void on_scores(void *ctx, const store_scores_t *sc)
{
    sess_t *s = ctx;
    if (sc->status != STORE_OK) {
        site_error(s, "503 Service Unavailable",
                   "The hall of fame cannot be read right now.");
        return;
    }
    page_t p;
    html_init(&p);
    html_begin(&p, "Hall of fame", s->srv->cfg.server_name);
    if (sc->n == 0)
        html_printf(&p, "<p id=\"noscores\">The hall of fame is empty: it "
                    "lists deaths, wins and games quit after %d turns.</p>\n",
                    STORE_QUIT_MIN_TURNS);
    else
        html_raw(&p, "<table id=\"scores\"><tr><th class=\"n\">#</th>"
                 "<th>Player</th><th class=\"n\">Score</th>"
                 "<th class=\"n\">Depth</th><th class=\"n\">Turns</th>"
                 "<th>How it ended</th><th>When (UTC)</th></tr>\n");
    for (int i = 0; i < sc->n; i++) {
        const store_score_t *g = &sc->top[i];
        char when[24];
        site_date(g->ended, when, sizeof when);
        html_printf(&p, "<tr><td class=\"n\">%d</td><td><a href=\"/game/%lld\">",
                    i + 1, (long long)g->game_id);
        html_text(&p, g->name);
        html_printf(&p, "</a></td><td class=\"n\">%d</td><td class=\"n\">%d"
                    "</td><td class=\"n\">%d</td><td>", g->score, g->depth,
                    g->turns);
        html_text(&p, g->cause);
        html_printf(&p, "</td><td>%s</td></tr>\n", when);
    }
    if (sc->n > 0)
        html_printf(&p, "</table>\n<p id=\"rule\">It lists deaths, wins and "
                    "games quit after %d turns.</p>\n", STORE_QUIT_MIN_TURNS);
    /* a guest's short game is not stored at all (guest_min_turns): said,
     * for the newcomer who looks for the one they just lost (a play-test) */
    if (s->srv->cfg.guest_min_turns > 0)
        html_printf(&p, "<p id=\"guests\">A guest's game of fewer than %d "
                    "turns is not kept.</p>\n", s->srv->cfg.guest_min_turns);
    html_raw(&p, "<p>Also as <a href=\"/games.json\">JSON</a> and "
             "<a href=\"/games.xlog\">xlogfile</a> lines.</p>");
    html_end(&p);
    site_send(s, &p, "200 OK", "text/html; charset=utf-8", "no-cache");
}

void site_scores(sess_t *s, const char *rest, const char *query)
{
    (void)rest;
    (void)query;
    if (site_read_scores(s, on_scores) != 0)
        site_error(s, "503 Service Unavailable",
                   "The server is too busy to read the hall of fame.");
}
