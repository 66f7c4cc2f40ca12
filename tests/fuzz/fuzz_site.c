/* fuzz_site.c - libFuzzer target for the browser's port up to the site's
 * router: an HTTP request fed to wsconn (wsconn.h) in reads of the size
 * the first input byte picks, with a page callback as the session gives
 * it, and what the router does with the path and query it is handed
 * (site.h: site_parse_id, site_ws_start) and the escaping every page
 * puts them through (site_html.h). The second byte picks the form: the
 * page answered at once or after the rest was fed, or the connection
 * refused as busy before its request.
 *
 * Besides the sanitizers it checks the contracts: the page is asked for
 * at most once, with a path of no '?' that fits the url buffer and a
 * query that fits its own; nothing reaches a callback once the exchange
 * is done; an id parsed is the number its digits say and never 0; escaped
 * text holds no byte that could end an element, an attribute or a JSON
 * string. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site.h"
#include "site_html.h"
#include "wsconn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct seen {
    wsconn_t *c;
    int done, pages, answer_now;
} seen_t;

static void f_send(void *ctx, const char *b, size_t n)
{
    (void)ctx;
    (void)b;
    (void)n;
}

static void f_open(void *ctx)
{
    seen_t *s = ctx;
    if (s->done)
        abort();
}

static void f_data(void *ctx, const char *b, size_t n)
{
    seen_t *s = ctx;
    (void)b;
    if (s->done || n > WS_MSG_MAX)
        abort();
}

static void f_resize(void *ctx, int w, int h)
{
    seen_t *s = ctx;
    if (s->done || w < 1 || h < 1 || w > 250 || h > 100)
        abort();
}

static void f_done(void *ctx) { ((seen_t *)ctx)->done = 1; }

/* The digits of text as a number, as site_parse_id should read them. */
static int digits_value(const char *text, uint64_t *v)
{
    size_t n = strlen(text);
    if (n == 0 || n > 19 || strspn(text, "0123456789") != n)
        return 0;
    *v = strtoull(text, NULL, 10);
    return *v != 0;
}

static void check_id(const char *text)
{
    uint64_t id = 0, want = 0;
    int ok = site_parse_id(text, &id);
    if (ok != digits_value(text, &want) || (ok && (id != want || id == 0)))
        abort();
}

/* No byte of an escaped HTML text may open or close markup or a quoted
 * attribute, and an '&' is only ever one of the five escapes. */
static void check_html(const char *text)
{
    static const char *const ents[] = { "&amp;", "&lt;", "&gt;", "&quot;",
                                        "&#39;" };
    page_t p;
    html_init(&p);
    html_text(&p, text);
    for (size_t i = 0; i < p.b.len; i++) {
        unsigned char ch = (unsigned char)p.b.data[i];
        if (ch == '<' || ch == '>' || ch == '"' || ch == '\'' ||
            (ch < 0x20 && ch != '\t' && ch != '\n'))
            abort();
        if (ch == '&') {
            int known = 0;
            for (size_t e = 0; e < sizeof ents / sizeof ents[0]; e++)
                known |= strncmp(p.b.data + i, ents[e], strlen(ents[e])) == 0;
            if (!known)
                abort();
        }
    }
    buf_free(&p.b);
}

/* An escaped JSON string's content: no raw quote or control byte, no
 * '<', '>' or '&', and every backslash starts an escape. */
static void check_json(const char *text)
{
    page_t p;
    html_init(&p);
    json_text(&p, text);
    for (size_t i = 0; i < p.b.len; i++) {
        unsigned char ch = (unsigned char)p.b.data[i];
        if (ch < 0x20 || ch == '"' || ch == '<' || ch == '>' || ch == '&')
            abort();
        if (ch == '\\') {
            if (i + 1 >= p.b.len || !strchr("\"\\u", p.b.data[i + 1]))
                abort();
            i++;
        }
    }
    buf_free(&p.b);
}

static char *copy_of(const char *text, size_t *len)
{
    *len = strlen(text);
    char *body = malloc(*len + 1);
    if (body)
        memcpy(body, text, *len + 1);
    return body;
}

static int f_page(void *ctx, const char *path, const char *query)
{
    seen_t *s = ctx;
    if (s->done || s->pages++ || s->c->stage != WS_PAGE)
        abort();
    if (strlen(path) >= sizeof s->c->url || strchr(path, '?') ||
        strlen(query) >= sizeof s->c->query)
        abort(); /* (not always '/'-first: "*" and absolute forms come
                  * too, and the router answers them 404) */
    if (strncmp(path, "/game/", 6) == 0)
        check_id(path + 6);
    else if (strncmp(path, "/watch/", 7) == 0)
        check_id(path + 7);
    uint64_t id = 0;
    int what = site_ws_start(query, &id);
    if (what != SITE_START_NONE && id == 0)
        abort();
    check_html(path);
    check_html(query);
    check_json(path);
    check_json(query);
    if (s->answer_now) {
        size_t len;
        char *body = copy_of(path, &len);
        wsconn_reply(s->c, "200 OK", "text/html; charset=utf-8", "no-cache",
                     body, body ? len : 0);
        if (!s->done)
            abort();
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t step = 1 + data[0] % 128;
    int answer_now = data[1] & 1, busy = data[1] & 2;
    data += 2;
    size -= 2;
    seen_t seen = { 0 };
    wsconn_cb_t cb = { f_send, f_open, f_data, f_resize, f_done, f_page };
    wsconn_t c;
    if (wsconn_init(&c, &cb, &seen, 250, 100) != 0)
        return 0;
    seen.c = &c;
    seen.answer_now = answer_now;
    if (busy)
        wsconn_refuse_busy(&c, "fuzz", "The server is full.");
    for (size_t at = 0; at < size; at += step) {
        size_t n = size - at < step ? size - at : step;
        if (wsconn_feed(&c, data + at, n) != 0) {
            if (!c.error || !c.error[0])
                abort();
            break;
        }
    }
    if (busy && seen.pages)
        abort(); /* a refused connection never reaches the site */
    if (seen.pages && !answer_now) {
        /* the page answered later, as one the store serves; then a second
         * answer is dropped */
        wsconn_reply(&c, "200 OK", "text/plain", "no-cache", NULL, 0);
        if (!seen.done)
            abort();
        char *late = malloc(1);
        wsconn_reply(&c, "500 Internal Server Error", "text/plain",
                     "no-store", late, late ? 1 : 0);
    }
    wsconn_send(&c, "x", 1);
    wsconn_close(&c, 0);
    wsconn_free(&c);
    return 0;
}
