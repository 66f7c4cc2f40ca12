/* web_assets.h - the files the browser page is made of, built into the
 * binary (build/gen/web_assets.c, made by web/embed.sh from web/ and the
 * xterm.js release fetched from the npm registry: web/assets.lock). The
 * HTTP side serves exactly these: no path from a request ever reaches the
 * file system. */
#ifndef ROGUE_WEB_ASSETS_H
#define ROGUE_WEB_ASSETS_H

#include <stddef.h>

typedef struct web_asset {
    const char *path;          /* "/", "/xterm.js", ... */
    const char *type;          /* its Content-Type */
    const unsigned char *data;
    size_t len;
    const char *etag;          /* strong, quoted: its content's SHA-256 */
    const char *cache;         /* Cache-Control: "no-cache" (asked again,
                                  304 while the tag matches), or a year,
                                  immutable, at an address named by hash */
} web_asset_t;

extern const web_asset_t web_assets[];
extern const size_t web_nassets;

/* 1 when the terminal emulator was built in (the build could reach the
 * npm registry); 0: the page only says how to play with telnet. */
extern const int web_terminal_built;

/* Where the play page and the site's terminal load the terminal's files
 * (xterm.js, its fit addon, and web/font.js, the font search both share):
 * addresses with the content's hash in the name, cached for good (a new
 * binary with other bytes has other addresses). */
extern const char web_xterm_js_url[];
extern const char web_xterm_css_url[];
extern const char web_fit_js_url[];
extern const char web_font_js_url[];

#endif
