/* site_front.c - the front page (/, and /home, its old address): the
 * server's name and message, a Play button to the play page (/play), how
 * many are on, every game in progress (player, depth, turn, watchers)
 * with a link to watch it, and
 * the latest news of wins and deep deaths (news.h). Made from the
 * directory (and the cluster's presence) at each request: never cached. */
#include <stdio.h>
#include <stdlib.h>

#include "cluster.h"
#include "directory.h"
#include "host.h"
#include "lobby.h"
#include "news.h"
#include "session.h"
#include "site_html.h"
#include "site_pages.h"

#define FRONT_GAMES_MAX 200  /* games listed (the rest counted) */

/* Every game in progress here, then on the other hosts: up to max. */
static int games_now(sess_t *s, lobby_game_t *out, int max)
{
    srv_t *srv = s->srv;
    dir_entry_t *here = malloc((size_t)max * sizeof *here);
    if (!here)
        return 0;
    int n = dir_games(srv->dir, 0, here, max);
    for (int i = 0; i < n; i++) {
        out[i].session_id = here[i].id;
        snprintf(out[i].name, sizeof out[i].name, "%s", here[i].game.name);
        out[i].depth = here[i].game.depth;
        out[i].turns = here[i].game.turns;
        out[i].watchers = here[i].game.watchers;
        out[i].idle_s = 0;
    }
    free(here);
    if (srv->sh->cluster)
        n += cluster_games(srv->sh->cluster, out + n, max - n);
    return n;
}

/* The page keeps itself current: its games and news fetched again every
 * minute while it is shown, and swapped in place (a reload would lose the
 * reader's place; docs/site.md). Each fetch is a connection of the
 * reader's address (connects_per_ip_per_minute: 60 by default), so once a
 * minute, and a fetch that fails (a 503 of a limit, a server away) waits
 * twice as long each time, up to 16 minutes, the page saying its lists
 * may be out of date meanwhile. A part that did not change is left as
 * it is: a reader's focus and selection in it stay (a QA's Tab to a
 * Watch link fell back to the page at each refresh). */
static const char refresh_script[] =
    "<script>\n(function () {\n"
    "if (!window.fetch || !window.DOMParser) return;\n"
    "var wait = 60000;\n"
    "function later() { setTimeout(again, wait); }\n"
    "function again() {\n"
    "if (document.hidden) { later(); return; }\n"
    "fetch(location.pathname, { cache: 'no-store' }).then(function (r) {\n"
    "return r.ok ? r.text() : null; }).then(function (t) {\n"
    "if (!t) throw new Error('no page');\n"
    "var d = new DOMParser().parseFromString(t, 'text/html');\n"
    "['live', 'news'].forEach(function (id) {\n"
    "var a = document.getElementById(id), b = d.getElementById(id);\n"
    "if (a && b && a.innerHTML !== b.innerHTML) a.replaceWith(b); });\n"
    "document.getElementById('stale').hidden = true;\n"
    "wait = 60000; later();\n"
    "}).catch(function () { document.getElementById('stale').hidden = false;\n"
    "wait = Math.min(wait * 2, 960000); later(); });\n"
    "}\nlater();\n})();\n</script>\n";

static void news_part(sess_t *s, page_t *p)
{
    news_line_t lines[NEWS_KEEP];
    int n = news_latest(&s->srv->sh->news, lines, NEWS_KEEP);
    html_raw(p, "<h2>News</h2>\n<ul id=\"news\">");
    if (n == 0)
        html_raw(p, "<li class=\"none\">Nothing yet.</li>");
    for (int i = 0; i < n; i++) {
        char when[24];
        site_date(lines[i].when, when, sizeof when);
        html_printf(p, "<li>%s UTC: ", when);
        html_text(p, lines[i].text);
        html_raw(p, "</li>");
    }
    html_raw(p, "</ul>\n");
}

void site_front(sess_t *s, const char *rest, const char *query)
{
    (void)rest;
    (void)query;
    srv_t *srv = s->srv;
    lobby_game_t *games = malloc(FRONT_GAMES_MAX * sizeof *games);
    if (!games) {
        site_error(s, "503 Service Unavailable", "Out of memory; try again.");
        return;
    }
    int n = games_now(s, games, FRONT_GAMES_MAX);
    /* players in the directory: a page being fetched holds a slot (it is
     * counted from its first byte) but is nobody online */
    int online = (int)dir_count(srv->dir), playing = (int)dir_ngames(srv->dir);
    if (srv->sh->cluster) {
        cluster_counts_t cc;
        cluster_counts(srv->sh->cluster, &cc);
        online += cc.online;
        playing += cc.playing;
    }
    page_t p;
    html_init(&p);
    html_begin(&p, srv->cfg.server_name, srv->cfg.server_name);
    html_raw(&p, "<p id=\"motd\">");
    html_text(&p, srv->cfg.motd);
    html_raw(&p, "</p>\n<p><a class=\"play\" href=\"/play\">Play</a></p>\n");
    html_raw(&p, "<div id=\"live\">\n");
    html_printf(&p, "<p id=\"counts\">%d online, %d %s in progress.</p>\n",
                online, playing, playing == 1 ? "game" : "games");
    html_raw(&p, "<h2>Games in progress</h2>\n");
    if (n == 0)
        html_raw(&p, "<p id=\"nogames\">Nobody is playing right now.</p>\n");
    else
        html_raw(&p, "<table id=\"games\"><tr><th>Player</th>"
                 "<th class=\"n\">Depth</th><th class=\"n\">Turn</th>"
                 "<th class=\"n\">Watchers</th><th></th></tr>\n");
    for (int i = 0; i < n; i++) {
        html_raw(&p, "<tr><td>");
        html_text(&p, games[i].name);
        html_printf(&p, "</td><td class=\"n\">%d</td><td class=\"n\">%d</td>"
                    "<td class=\"n\">%d</td><td><a href=\"/watch/%llu\">"
                    "Watch</a></td></tr>\n", games[i].depth, games[i].turns,
                    games[i].watchers,
                    (unsigned long long)games[i].session_id);
    }
    if (n > 0)
        html_raw(&p, "</table>\n");
    html_raw(&p, "</div>\n<p id=\"stale\" hidden>These games may be out of "
             "date: the server did not answer. The page asks again in a "
             "while.</p>\n");
    free(games);
    news_part(s, &p);
    html_raw(&p, "<p><a href=\"/scores\">The hall of fame</a></p>");
    /* the feeds in words, not in the nav (site_html.c): their addresses
     * for whoever writes a program, no link a visitor would open */
    html_raw(&p, "<p id=\"feeds\">For programs: the latest finished games "
             "are at <code>/games.json</code> (JSON) and "
             "<code>/games.xlog</code> (the xlogfile lines community "
             "scoreboards read).</p>");
    html_raw(&p, refresh_script);
    html_end(&p);
    site_send(s, &p, "200 OK", "text/html; charset=utf-8", "no-cache");
}
