/* site_html.h - what every page of the site (site.h) is made with: a page
 * in a capped buffer, every string that a player, the host's settings or
 * the game wrote escaped on its way in, and the answer handed to the
 * browser's connection.
 *
 * Nothing here knows a page: the pages (site_*.c) call these. Text is
 * escaped for HTML (& < > " ') or for a JSON string; a number is printed
 * as one. */
#ifndef ROGUE_SITE_HTML_H
#define ROGUE_SITE_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define SITE_PAGE_MAX (512 * 1024) /* the most one page may hold */

struct sess;

/* A page being made: its bytes, and whether any append failed (past the
 * cap, out of memory), in which case it is never sent half made. */
typedef struct page {
    buf_t b;
    int failed;
} page_t;

/* An empty page (capped at SITE_PAGE_MAX). */
void html_init(page_t *b);

/* The head of a page titled `title` (escaped), the site's style, and the
 * links every page has; then the body's first heading (the same title).
 * The window's title is "TITLE - SITE" (the server's name), or SITE
 * alone on the page of that name: a tab or a bookmark says whose it is
 * (a QA's tabs read "Hall of fame", "404 Not Found"). */
void html_begin(page_t *b, const char *title, const char *site);

/* The end of the page. */
void html_end(page_t *b);

/* Markup the page itself wrote (never a string from outside). */
void html_raw(page_t *b, const char *markup);

/* Text from anywhere, escaped for an element's content or a quoted
 * attribute; bytes below 0x20 but tab and newline dropped. */
void html_text(page_t *b, const char *text);

/* Markup with numbers: printf for the page's own formats (%d, %lld,
 * %s of the page's own constants only). */
void html_printf(page_t *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A JSON string's content (no quotes) of text: " \ and control bytes
 * escaped, "<" as \u003c so that nothing in it can end a script. */
void json_text(page_t *b, const char *text);

/* "YYYY-MM-DD HH:MM" UTC of a Unix time into out (17 bytes or more). */
void site_date(int64_t t, char *out, size_t n);

/* The page goes to the browser: status ("200 OK"), content type, and
 * Cache-Control's value; b's bytes are handed over (b is left empty).
 * A page that could not be made whole is answered "500 Internal Server
 * Error" instead. */
void site_send(struct sess *s, page_t *b, const char *status,
               const char *type, const char *cache);

/* A short page that says what went wrong ("404 Not Found", and a
 * sentence of the page's own). */
void site_error(struct sess *s, const char *status, const char *sentence);

#endif
