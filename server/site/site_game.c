/* site_game.c - a finished game's page (/game/ID, ID as the hall of fame
 * links it): its summary from the store, its character dump, and its
 * replay in the page (a terminal whose session replays the record at the
 * page's size: site_term.h). A finished game never changes: the page may
 * be kept a day. */
#include <stdio.h>

#include "combat.h"
#include "session.h"
#include "site.h"
#include "site_html.h"
#include "site_pages.h"
#include "site_term.h"
#include "store.h"

/* The ruleset's name ("?" for a number this build does not know). */
static const char *ruleset_of(int r)
{
    const char *name = combat_ruleset_name(r);
    return name ? name : "?";
}

static const char *ending_text(int ending)
{
    switch (ending) {
    case STORE_END_WIN: return "won";
    case STORE_END_DEATH: return "died";
    case STORE_END_QUIT: return "quit";
    default: return "left (the connection ended)";
    }
}

/* THE CHARACTER DUMP'S CALL SITE. Until the game core's dump lands (the
 * `game` helper's game_dump in common/), the dump is this summary of the
 * store's row. At the merge: replay the record to its end (off the loop,
 * as rebuild.c does for a watcher) and write game_dump's text here, each
 * line through html_text. */
static void site_game_dump(page_t *p, const store_game_t *g)
{
    char started[24], ended[24];
    site_date(g->started, started, sizeof started);
    site_date(g->ended, ended, sizeof ended);
    html_raw(p, "<pre id=\"dump\">");
    html_text(p, g->name);
    html_printf(p, " %s after %d turns on depth %d.\n", ending_text(g->ending),
                g->turns, g->depth);
    html_printf(p, "Score %d, %d kills, %s rules.\n", g->score, g->kills,
                ruleset_of(g->ruleset));
    html_raw(p, "The end: ");
    html_text(p, g->cause);
    html_printf(p, "\nPlayed %s to %s UTC.\n", started, ended);
    html_raw(p, "</pre>\n");
}

static void on_record(void *ctx, const store_record_t *r)
{
    sess_t *s = ctx;
    if (r->status == STORE_NOT_FOUND) {
        site_error(s, "404 Not Found", "There is no finished game by that "
                   "number.");
        return;
    }
    if (r->status != STORE_OK && r->status != STORE_NO_RECORD) {
        site_error(s, "503 Service Unavailable",
                   "That game cannot be read right now.");
        return;
    }
    const store_game_t *g = &r->game;
    page_t p;
    html_init(&p);
    char title[96];
    snprintf(title, sizeof title, "Game %lld: %s, %d points",
             (long long)r->game_id, g->name, g->score);
    html_begin(&p, title);
    html_raw(&p, "<h2>Character</h2>\n");
    site_game_dump(&p, g);
    html_raw(&p, "<h2>Replay</h2>\n");
    if (r->status == STORE_OK) {
        site_term(&p, "replay", (uint64_t)r->game_id);
        html_raw(&p, "<p>Space pauses, + and - change the speed, q ends."
                 "</p>");
    } else {
        html_raw(&p, "<p id=\"norecord\">This game was kept without its "
                 "record: there is no replay.</p>");
    }
    html_end(&p);
    site_send(s, &p, "200 OK", "text/html; charset=utf-8",
              "public, max-age=86400");
}

void site_game(sess_t *s, const char *rest, const char *query)
{
    (void)query;
    uint64_t id;
    if (!site_parse_id(rest, &id)) {
        site_error(s, "404 Not Found", "There is no finished game by that "
                   "number.");
        return;
    }
    if (store_get_record(s->srv->store, (int64_t)id, on_record, s) != 0)
        site_error(s, "503 Service Unavailable",
                   "The server is too busy to read that game.");
}
