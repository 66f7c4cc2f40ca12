/* site.h - the site: pages the server makes on the browser's port
 * (http_port), beside the play page's files (docs/site.md).
 *
 *   /                 the front page (also /home): the server's name and
 *                     message, who is playing which game (depth, turn),
 *                     news of wins and deep deaths, a Play button to
 *                     /play (the play page, web/index.html)
 *   /watch/ID         a game in progress watched in the page (xterm.js
 *                     over the WebSocket, read-only, at the page's size)
 *   /scores           the hall of fame, each game linked to its page
 *   /game/ID          a finished game: its character dump (replayed
 *                     from its record off the loop: site_dump.h) and its
 *                     replay in the page
 *   /games.json       the latest finished games (store_recent), as JSON
 *   /games.xlog       the same, one line a game in the xlogfile style
 *
 * Every page is made when asked, from the directory or the store, and
 * nothing is kept between requests: a page costs nothing while nobody
 * asks. What may change any moment is sent "no-cache"; a finished game's
 * page, which never changes, may be kept a day. The router is a table of
 * paths and page functions (site.c); each page is a file (site_*.c). */
#ifndef ROGUE_SITE_H
#define ROGUE_SITE_H

#include <stdint.h>

struct sess;

/* A browser's GET for path (no file of the play page): answered now or
 * once the store answers, a path that is no page with the site's 404.
 * Returns 1 (taken). */
int site_request(struct sess *s, const char *path, const char *query);

/* What a page's terminal asks of its WebSocket (/ws?watch=ID or
 * /ws?replay=ID): the session starts by watching or replaying that game
 * instead of the lobby's menu (site_start.c). */
enum site_start { SITE_START_NONE = 0, SITE_START_WATCH, SITE_START_REPLAY };

/* Reads /ws's query: *id gets the game's id. Returns enum site_start. */
int site_ws_start(const char *query, uint64_t *id);

/* A decimal id of 1 to 19 digits, the whole string: 1 and *out, or 0. */
int site_parse_id(const char *text, uint64_t *out);

#endif
