/* site_watch.c - a game in progress watched in the page (/watch/ID, ID
 * the player's session as the front page links it): the player's name,
 * depth, turn and watchers when the page was made (the page's own
 * terminal counted in once it watches), and a terminal that watches the
 * game live at the page's size (site_term.h). Sent "no-cache". */
#include <stdio.h>

#include "directory.h"
#include "host.h"
#include "session.h"
#include "site.h"
#include "site_html.h"
#include "site_pages.h"
#include "site_term.h"

#define REMOTE_ID_BIT (1ull << 62) /* another host's game (cluster.h) */

void site_watch(sess_t *s, const char *rest, const char *query)
{
    (void)query;
    uint64_t id;
    dir_entry_t e;
    /* a browser guest's game goes on on the session its page came back
     * on: a link to the one it dropped (a watcher shared it) watches it
     * there (a QA's /watch/50 was a 404 after the player's reload) */
    int parsed = site_parse_id(rest, &id);
    if (parsed && !(id & REMOTE_ID_BIT))
        id = grace_moved_to(s->srv->grace, id);
    int here = parsed && dir_lookup(s->srv->dir, id, &e) && e.playing;
    int remote = !here && parsed && (id & REMOTE_ID_BIT) &&
                 s->srv->sh->cluster;
    char name[ACCT_NAME_MAX + 1];
    if (!here && !remote && parsed && grace_kept_of(s->srv->grace, id, name)) {
        char why[160];
        snprintf(why, sizeof why, "%s's connection dropped, and the game "
                 "waits for them: reload this page in a moment to watch it "
                 "when they are back.", name);
        site_error(s, "503 Service Unavailable", why);
        return;
    }
    if (!here && !remote) {
        site_error(s, "404 Not Found",
                   "There is no game in progress by that number: it may have "
                   "ended.");
        return;
    }
    page_t p;
    html_init(&p);
    char title[64];
    snprintf(title, sizeof title, "Watching %s",
             here ? e.game.name : "a game on another host");
    html_begin(&p, title, s->srv->cfg.server_name);
    /* The watchers are counted before this page's own terminal joins
     * them: its script adds it once its WebSocket is open (site_term.c),
     * rather than the page saying "0 watching" while it watches. */
    if (here)
        html_printf(&p, "<p id=\"where\">Depth %d, turn %d, <span "
                    "id=\"watching\" data-others=\"%d\">%d watching</span>."
                    "</p>\n", e.game.depth, e.game.turns, e.game.watchers,
                    e.game.watchers);
    site_term(&p, "watch", id);
    /* (its terminal's end hides it: site_term.c) */
    html_raw(&p, "<p id=\"termhint\">Keys do nothing to the game; q stops "
             "watching.</p>");
    html_end(&p);
    site_send(s, &p, "200 OK", "text/html; charset=utf-8", "no-cache");
}
