/* ws_sites.c - sites as the WebSocket upgrade names them (ws_sites.h). */
#define _GNU_SOURCE /* memmem */
#include "ws_sites.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The length of host[:port] a (n bytes) without its port when that port
 * is 80 (drop80) or 443 (drop443): the same site whether or not the
 * default port is spelt out. An IPv6 literal is in brackets
 * ("[::1]:8080"); a colon inside them is no port's. */
static size_t site_len(const char *a, size_t n, int drop80, int drop443)
{
    size_t p = n;
    while (p > 0 && a[p - 1] != ':')
        p--;
    if (p == 0)
        return n; /* no port */
    size_t colon = p - 1;
    if (a[0] == '[' ? colon == 0 || a[colon - 1] != ']'
                    : memchr(a, ':', colon) != NULL)
        return n; /* a colon of an address, not a port */
    const char *port = a + p;
    size_t pn = n - p;
    if ((drop80 && pn == 2 && memcmp(port, "80", 2) == 0) ||
        (drop443 && pn == 3 && memcmp(port, "443", 3) == 0))
        return colon;
    return n;
}

ws_site_t ws_site_of(const char *a, size_t n)
{
    ws_site_t s = { a, n, 0 };
    const char *sep = memmem(a, n, "://", 3);
    int http = 1, https = 1;
    if (sep) {
        size_t sn = (size_t)(sep - a);
        http = sn == 4 && strncasecmp(a, "http", 4) == 0;
        https = sn == 5 && strncasecmp(a, "https", 5) == 0;
        s.at = sep + 3;
        s.len = n - sn - 3;
    }
    s.bare = site_len(s.at, s.len, http, https);
    return s;
}

int ws_same_site(ws_site_t a, ws_site_t b)
{
    return a.len > 0 &&
           ((a.len == b.len && strncasecmp(a.at, b.at, a.len) == 0) ||
            (a.bare > 0 && a.bare == b.bare &&
             strncasecmp(a.at, b.at, a.bare) == 0));
}

/* The separators of a list of sites. */
#define LIST_SEP " \t,"

int ws_origin_listed(const char *list, ws_site_t o)
{
    while (list && *list) {
        list += strspn(list, LIST_SEP);
        size_t n = strcspn(list, LIST_SEP);
        if (n > 0 && ws_same_site(ws_site_of(list, n), o))
            return 1;
        list += n;
    }
    return 0;
}

/* The length of a port (":1" to ":65535") at p, n bytes; 0 if it is not
 * one. */
static size_t port_len(const char *p, size_t n)
{
    if (n < 2 || n > 6 || p[0] != ':')
        return 0;
    long v = 0;
    for (size_t i = 1; i < n; i++) {
        if (!isdigit((unsigned char)p[i]))
            return 0;
        v = v * 10 + (p[i] - '0');
    }
    return v >= 1 && v <= 65535 ? n : 0;
}

/* 1 if e (n bytes) is a site as ws_origins_check takes it. */
static int entry_ok(const char *e, size_t n)
{
    static const char *const schemes[] = { "http://", "https://" };
    for (int i = 0; i < 2; i++) {
        size_t sn = strlen(schemes[i]);
        if (n > sn && strncasecmp(e, schemes[i], sn) == 0) {
            e += sn;
            n -= sn;
            break;
        }
    }
    size_t h = 0;
    if (n > 0 && e[0] == '[') {
        while (h + 1 < n && strchr("0123456789abcdefABCDEF:.", e[h + 1]))
            h++;
        if (h == 0 || h + 1 >= n || e[h + 1] != ']')
            return 0;
        h += 2;
    } else {
        while (h < n && (isalnum((unsigned char)e[h]) || e[h] == '-' ||
                         e[h] == '.'))
            h++;
        if (h == 0)
            return 0;
    }
    return h == n || port_len(e + h, n - h) == n - h;
}

int ws_origins_check(const char *key, const char *list, char *err,
                     size_t errlen)
{
    while (*list) {
        list += strspn(list, LIST_SEP);
        size_t n = strcspn(list, LIST_SEP);
        if (n > 0 && !entry_ok(list, n)) {
            snprintf(err, errlen, "%s: '%.*s' is not a host or host:port "
                     "(maybe after http:// or https://; IPv6 in brackets: "
                     "[::1]:8080)", key, (int)n, list);
            return -1;
        }
        list += n;
    }
    return 0;
}
