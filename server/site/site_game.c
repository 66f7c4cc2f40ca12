/* site_game.c - a finished game's page (/game/ID, ID as the hall of fame
 * links it): its character dump, made from its record off the loop
 * (site_dump.h), or a summary of the store's row for a game kept without
 * one, and its replay in the page (a terminal whose session replays the
 * record at the page's size: site_term.h). A finished game never changes:
 * the page may be kept a day. */
#include <stdio.h>

#include "combat.h"
#include "record.h"
#include "session.h"
#include "site.h"
#include "site_html.h"
#include "site_dump.h"
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

/* The store's row in the dump's place: a game kept without its record,
 * or one whose record this build cannot replay. */
static void site_game_summary(page_t *p, const store_game_t *g)
{
    char started[24], ended[24];
    site_date(g->started, started, sizeof started);
    site_date(g->ended, ended, sizeof ended);
    html_raw(p, "<pre id=\"dump\">");
    html_text(p, g->name);
    html_printf(p, " %s after %d turn%s on depth %d.\n",
                ending_text(store_game_ending(g)), g->turns,
                g->turns == 1 ? "" : "s", g->depth);
    html_printf(p, "Score %d, %d kills, %s rules.\n", g->score, g->kills,
                ruleset_of(g->ruleset));
    html_raw(p, "The end: ");
    html_text(p, g->cause);
    html_printf(p, "\nPlayed %s to %s UTC.\n", started, ended);
    html_raw(p, "</pre>\n");
}

/* The page: the character dump (dump: the core's text, escaped whole), or
 * the summary in its place (dump NULL; why_not: the record's error, or
 * NULL for a game without one), after the replay if there is a record. */
static void game_page(sess_t *s, int64_t id, const store_game_t *g,
                      const char *dump, const char *why_not, int has_record)
{
    page_t p;
    html_init(&p);
    char title[96];
    snprintf(title, sizeof title, "Game %lld: %s, %d points", (long long)id,
             g->name, g->score);
    html_begin(&p, title, s->srv->cfg.server_name);
    /* the replay first: its terminal sizes itself to the window, which a
     * long dump above it would push below the fold (its heading's
     * margins tight: site_html.c) */
    html_raw(&p, "<h2 id=\"replay\">Replay</h2>\n");
    if (has_record) {
        site_term(&p, "replay", (uint64_t)id);
        html_raw(&p, "<p>Space pauses, + and - change the speed, q ends."
                 "</p>");
    } else {
        html_raw(&p, "<p id=\"norecord\">This game was kept without its "
                 "record: there is no replay.</p>");
    }
    html_raw(&p, "<h2>Character</h2>\n");
    if (dump) {
        html_raw(&p, "<pre id=\"dump\">");
        html_text(&p, dump);
        html_raw(&p, "</pre>\n");
    } else {
        site_game_summary(&p, g);
        if (why_not) {
            html_raw(&p, "<p id=\"nodump\">This server cannot replay the "
                     "game's record (");
            html_text(&p, why_not);
            html_raw(&p, "): its summary stands in for the dump.</p>\n");
        }
    }
    html_end(&p);
    site_send(s, &p, "200 OK", "text/html; charset=utf-8",
              "public, max-age=86400");
}

/* The dump made off the loop (site_dump.h). */
static void on_dump(sess_t *s, int64_t id, const store_game_t *g, int err,
                    const char *text)
{
    if (err == RECORD_ENOMEM) {
        site_error(s, "503 Service Unavailable",
                   "That game cannot be read right now.");
        return;
    }
    game_page(s, id, g, text, text ? NULL : record_strerror(err), 1);
}

static void on_record(void *ctx, const store_record_t *r)
{
    sess_t *s = ctx;
    if (r->status == STORE_NOT_FOUND) {
        site_error(s, "404 Not Found", "There is no finished game by that "
                   "number.");
        return;
    }
    if (r->status == STORE_NO_RECORD) {
        game_page(s, r->game_id, &r->game, NULL, NULL, 0);
        return;
    }
    /* the store says the game is there; its dump may be made already */
    int err;
    const char *text;
    if (r->status == STORE_OK && site_dump_kept(s, r->game_id, &err, &text)) {
        on_dump(s, r->game_id, &r->game, err, text);
        return;
    }
    int rc = r->status == STORE_OK
        ? site_dump_start(s, r->game_id, &r->game, r->record, r->len, on_dump)
        : -1;
    if (rc == SITE_DUMP_BUSY)
        site_error(s, "503 Service Unavailable", "The server is busy "
                   "replaying other games: try again in a moment.");
    else if (rc != 0)
        site_error(s, "503 Service Unavailable",
                   "That game cannot be read right now.");
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
