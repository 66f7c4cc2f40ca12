/* site_html.c - building a page and handing it over (site_html.h). */
#include "site_html.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "session.h"
#include "wsconn.h"

/* One style for every page: readable on a phone and a big screen alike. */
static const char style[] =
    "<style>"
    /* a player's name is one long word in a heading, a line, a cell:
     * wrapped anywhere rather than widening a phone's page (a QA's 20
     * W's made it 418 px at 390); anywhere, not break-word, also lets a
     * table's column be narrower than the word */
    "body{font-family:system-ui,sans-serif;background:#111;color:#ddd;"
    "margin:0 auto;padding:0 1em 2em;max-width:62em;line-height:1.4;"
    "overflow-wrap:anywhere}"
    "a{color:#8cf}h1{font-size:1.6em;margin:.6em 0 .2em}"
    /* the nav's links are tap targets of 44x44 px or more (WCAG 2.5.5;
     * their words alone were 19 px tall): one row on a 360 px phone, or
     * a wrap where a host's are longer, the words in line with the
     * heading under them */
    "nav{display:flex;flex-wrap:wrap;gap:0 .4em;margin:0 -.5em;padding:.2em 0;"
    "border-bottom:1px solid #333}"
    "nav a{display:flex;align-items:center;justify-content:center;"
    "box-sizing:border-box;min-width:44px;min-height:44px;padding:0 .5em}"
    "table{border-collapse:collapse;width:100%}"
    "td,th{text-align:left;padding:.25em .6em;border-bottom:1px solid #333}"
    /* but a heading's, a number's and the last column's words whole (a
     * Watch link, how a game ended): the name's column gives way first
     * ("Sc/ore", "Watc/h" otherwise) */
    "th,td.n,td:last-child{overflow-wrap:normal}"
    "td.n,th.n{text-align:right}"
    /* the Play button: white on a green dark enough for 4.5:1 (WCAG AA;
     * #2a6 was 3.0:1) */
    ".play{display:inline-block;background:#1a7f4b;color:#fff;padding:.5em 1.4em;"
    "border-radius:.3em;text-decoration:none;font-size:1.2em;margin:.6em 0}"
    /* a dump is 80 columns with a map in it: wrapped, the map falls
     * apart, so a narrow screen scrolls the box sideways instead */
    "pre{white-space:pre;overflow-x:auto;background:#000;padding:.6em}"
    /* a terminal (site_term.c) is laid out the window's width, out of
     * the column's 62em, as the play page's is (in the column, a big
     * screen, 1920x1080, watched the game in a third of it); web/font.js
     * then narrows it to the game's 80 columns, centred. Off a phone,
     * 85vh: the game's 33 rows at 15 px or more from 768 px tall (70vh
     * was 24 rows at 1920x1080, three lines of the log) */
    ".term{width:calc(100vw - 2em);margin-left:calc(50% - 50vw + 1em);"
    "height:70vh;min-height:20em;background:#000}"
    "@media (min-width:601px){.term{height:85vh}}"
    /* the replay's heading, over its terminal: the terminal's box ends
     * where the window does (web/font.js), and the heading's own margins
     * (20 px each) took from it the last pixels 33 rows of a 15 px font
     * needed at 1366x768 */
    "#replay{margin:.4em 0 .3em}"
    /* xterm.js's rows clip what a font draws below the cell: an
     * underscore at a phone's 13-14.5 px (DejaVu Sans Mono) was gone, a
     * name's "my_name" read "my name" (a QA; xterm.js issue 4067) */
    ".xterm-rows>div{overflow:visible!important}"
    /* a terminal's view bar on a touch device (site_term.c) */
    ".termkeys{display:flex;gap:6px;padding:6px 0}.termkeys[hidden]{display:none}"
    ".termkeys button{flex:1 1 0;min-height:44px;border:1px solid #555;"
    "border-radius:6px;background:#2a2a2a;color:#eee;font:18px monospace;"
    "touch-action:manipulation}"
    ".termkeys small{display:block;font:11px sans-serif;color:#aaa}"
    /* a phone held sideways: 70% of its height is 17 rows of a readable
     * font; the whole height (svh: with the browser's bars shown) holds
     * 80x24, the whole map, seen whole once scrolled to */
    "@media (orientation:landscape) and (max-height:500px){"
    ".term{height:100vh;height:100svh}}"
    "#news li{color:#fc6}"
    /* a finger's table links (a game's Watch, a player's name): tap
     * targets of 44 px too, where their words alone were 16 px tall at
     * 360 px (a play-test); a mouse's tables stay compact */
    "@media (pointer:coarse){td a{display:inline-flex;align-items:center;"
    "min-height:44px;min-width:44px}}"
    /* a phone: tighter, and without the columns that matter least (the
     * date of a score, a game's watchers) */
    "@media (max-width:600px){td,th{padding:.2em .3em;font-size:.9em}"
    "#scores tr>:nth-child(7),#games tr>:nth-child(4){display:none}}"
    "</style>";

void html_init(page_t *b)
{
    buf_init(&b->b, SITE_PAGE_MAX);
    b->failed = 0;
}

static void put(page_t *b, const void *p, size_t n)
{
    if (buf_append(&b->b, p, n) != 0)
        b->failed = 1;
}

void html_raw(page_t *b, const char *markup)
{
    put(b, markup, strlen(markup));
}

void html_printf(page_t *b, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0)
        put(b, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

void html_text(page_t *b, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        switch (*p) {
        case '&': html_raw(b, "&amp;"); break;
        case '<': html_raw(b, "&lt;"); break;
        case '>': html_raw(b, "&gt;"); break;
        case '"': html_raw(b, "&quot;"); break;
        case '\'': html_raw(b, "&#39;"); break;
        default:
            if (*p >= 0x20 || *p == '\t' || *p == '\n')
                put(b, p, 1);
        }
    }
}

void json_text(page_t *b, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\')
            html_printf(b, "\\%c", *p);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
            html_printf(b, "\\u%04x", *p);
        else
            put(b, p, 1);
    }
}

void site_date(int64_t t, char *out, size_t n)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!gmtime_r(&tt, &tm) || strftime(out, n, "%Y-%m-%d %H:%M", &tm) == 0)
        snprintf(out, n, "?");
}

void html_begin(page_t *b, const char *title, const char *site)
{
    html_raw(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             "<meta name=\"viewport\" content=\"width=device-width, "
             "initial-scale=1\"><title>");
    html_text(b, title);
    if (site && site[0] && strcmp(site, title) != 0) {
        html_raw(b, " - ");
        html_text(b, site);
    }
    html_raw(b, "</title><link rel=\"icon\" href=\"/favicon.svg\" "
             "type=\"image/svg+xml\">");
    /* The feeds are for programs: named in the head, where a feed reader
     * or a scoreboard looks, not in the nav, where a person's tap opened
     * raw JSON (the front page says in words where they are). */
    html_raw(b, "<link rel=\"alternate\" type=\"application/json\" "
             "href=\"/games.json\" title=\"Finished games (JSON)\">");
    html_raw(b, style);
    html_raw(b, "</head><body><nav><a href=\"/\">Home</a>"
             "<a href=\"/play\">Play</a><a href=\"/scores\">Hall of fame</a>"
             "</nav>\n<h1>");
    html_text(b, title);
    html_raw(b, "</h1>\n");
}

void html_end(page_t *b)
{
    html_raw(b, "\n</body></html>\n");
}

void site_send(sess_t *s, page_t *b, const char *status, const char *type,
               const char *cache)
{
    if (b->failed) {
        buf_free(&b->b);
        static const char text[] = "The page could not be made.\n";
        char *body = malloc(sizeof text);
        if (body)
            memcpy(body, text, sizeof text - 1);
        wsconn_reply(s->web, "500 Internal Server Error",
                     "text/plain; charset=utf-8", "no-store", body,
                     body ? sizeof text - 1 : 0);
        return;
    }
    char *body = b->b.data;
    size_t len = b->b.len;
    b->b.data = NULL;
    b->b.len = b->b.cap = 0;
    wsconn_reply(s->web, status, type, cache, body, len);
}

void site_error(sess_t *s, const char *status, const char *sentence)
{
    page_t b;
    html_init(&b);
    html_begin(&b, status, s->srv->cfg.server_name);
    html_raw(&b, "<p>");
    html_text(&b, sentence);
    html_raw(&b, "</p>");
    html_end(&b);
    site_send(s, &b, status, "text/html; charset=utf-8", "no-cache");
}
