/* site_term.h - a terminal in a page of the site: xterm.js (the play
 * page's own files) connected to /ws?QUERY, which starts the session by
 * watching or replaying a game (site.h, site_ws_start) at the page's
 * size. Keys typed in it go to that session as the play page's do (q
 * leaves; a replay's speed keys). */
#ifndef ROGUE_SITE_TERM_H
#define ROGUE_SITE_TERM_H

#include <stdint.h>

#include "site_html.h"

/* The terminal and its script: ws_what is "watch" or "replay", id the
 * game's. Without xterm.js built in (web_assets.h), a sentence instead. */
void site_term(page_t *p, const char *ws_what, uint64_t id);

#endif
