/* ws_sites.h - a site as the browser's WebSocket upgrade names it: an
 * Origin ("scheme://host[:port]"), a Host ("host[:port]"), or an entry of
 * the configuration's ws_origins (either form). One reading for all three,
 * so that the list the configuration takes (ws_origins_check, at start) is
 * the list the upgrade matches (wsconn.c, ws_origin_listed). Pure: no I/O,
 * no allocation. docs/hosting.md, "The network". */
#ifndef ROGUE_WS_SITES_H
#define ROGUE_WS_SITES_H

#include <stddef.h>

/* host[:port] at `at`, len bytes as written, and bare bytes without its
 * default port (80 for http, 443 for https, either without a scheme). */
typedef struct {
    const char *at;
    size_t len, bare;
} ws_site_t;

/* The site of "scheme://host[:port]" or of host[:port] alone (n bytes).
 * Without a scheme both 80 and 443 are default: behind a TLS proxy the
 * server cannot know which scheme the browser used. */
ws_site_t ws_site_of(const char *a, size_t n);

/* 1 when a and b are the same site: as written, or without their default
 * ports (a proxy may add or drop one: $host:$server_port). */
int ws_same_site(ws_site_t a, ws_site_t b);

/* 1 when the list (sites separated by commas, spaces or tabs; NULL: none)
 * names the site o. */
int ws_origin_listed(const char *list, ws_site_t o);

/* 0 if every entry of the list (as ws_origin_listed splits it) is a site:
 * an optional http:// or https://, a host name or an IPv6 address in
 * brackets, an optional port 1-65535, nothing else (an Origin has no
 * path: one would never match). Else -1 with err naming the entry and
 * `key`. */
int ws_origins_check(const char *key, const char *list, char *err,
                     size_t errlen);

#endif
