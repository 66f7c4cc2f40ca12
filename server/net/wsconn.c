/* wsconn.c - HTTP request, then WebSocket, for the browser (wsconn.h). */
#include "wsconn.h"

#include <ctype.h>
#include <nettle/sha1.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <limits.h>

#include "web_assets.h"
#include "ws_sites.h"

static const char ws_guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/* RFC 6455's "try again later" (IANA's registry; wslay has no name) */
#define WS_CLOSE_TRY_AGAIN 1013

void wsconn_accept_key(const char *key, size_t len, char out[29])
{
    struct sha1_ctx sha;
    uint8_t digest[SHA1_DIGEST_SIZE];
    sha1_init(&sha);
    sha1_update(&sha, len, (const uint8_t *)key);
    sha1_update(&sha, sizeof ws_guid - 1, (const uint8_t *)ws_guid);
    sha1_digest(&sha, sizeof digest, digest);
    sodium_bin2base64(out, 29, digest, sizeof digest,
                      sodium_base64_VARIANT_ORIGINAL);
}

/* --- the request ------------------------------------------------------------- */

/* Appends at..len to buf (cut at its size). Returns 1 if it was cut. */
static int take(char *buf, size_t size, size_t *len, const char *at,
                size_t n)
{
    size_t room = size - 1 - *len;
    int cut = n > room;
    if (cut)
        n = room;
    memcpy(buf + *len, at, n);
    *len += n;
    buf[*len] = '\0';
    return cut;
}

/* A URL longer than url's room is cut: refused (414) when its path is,
 * but where the cut falls in its query (a shared link's tracking tags,
 * utm_source=...&gclid=...: a play-test's 130-byte front page) the query
 * is dropped whole in answer() and the page served as without one. */
static int on_url(http_parser *p, const char *at, size_t n)
{
    wsconn_t *c = p->data;
    if (take(c->url, sizeof c->url, &c->url_len, at, n))
        c->url_cut = 1;
    return 0;
}

/* Every answer's safety headers: never sniffed, never framed by another
 * site's page (a framed page could be dressed to take a login's clicks:
 * docs/telnet.md, "The browser"). */
#define SAFE_HEADERS "X-Content-Type-Options: nosniff\r\n" \
                     "X-Frame-Options: DENY\r\n" \
                     "Content-Security-Policy: frame-ancestors 'none'\r\n"

static int field_is(const wsconn_t *c, const char *name)
{
    return c->field_len == strlen(name) && strcasecmp(c->field, name) == 0;
}

#define TOK_NO 0xff /* the Connection token being read is not "upgrade" */

/* The end of one of Connection's tokens (a comma, or the value's end). */
static void conn_token_done(wsconn_t *c)
{
    if (c->tok_len == 7)
        c->conn_upgrade = 1;
    c->tok_len = c->tok_end = 0;
}

/* Connection's value, read as it streams: "Upgrade", or a list such as
 * "keep-alive, Upgrade" of any length, one token of which must be
 * "upgrade" whole (not "upgrade-insecure"). Nothing is kept but how far
 * the current token matches. */
static void conn_tokens(wsconn_t *c, const char *at, size_t n)
{
    static const char want[] = "upgrade";
    for (size_t i = 0; i < n; i++) {
        char ch = at[i];
        if (ch == ',')
            conn_token_done(c);
        else if (ch == ' ' || ch == '\t')
            c->tok_end = c->tok_len > 0;
        else if (c->tok_end || c->tok_len >= sizeof want - 1 ||
                 tolower((unsigned char)ch) != want[c->tok_len])
            c->tok_len = TOK_NO;
        else
            c->tok_len++;
    }
}

/* A header's value is complete: keep what the upgrade needs. */
static void header_done(wsconn_t *c)
{
    if (field_is(c, "Upgrade"))
        c->want_ws = strcasecmp(c->value, "websocket") == 0;
    else if (field_is(c, "Connection"))
        conn_token_done(c);
    else if (field_is(c, "Sec-WebSocket-Version"))
        c->version_ok = strcmp(c->value, "13") == 0;
    else if (field_is(c, "Host")) {
        c->host_twice |= c->has_host; /* RFC 9112 3.2: a 400 */
        c->has_host = 1; /* (an empty one too) */
    }
    c->field_len = c->value_len = 0;
    c->field[0] = c->value[0] = '\0';
}

static int on_field(http_parser *p, const char *at, size_t n)
{
    wsconn_t *c = p->data;
    c->in_fields = 1;
    if (c->in_value) {
        header_done(c);
        c->in_value = 0;
    }
    take(c->field, sizeof c->field, &c->field_len, at, n);
    return 0;
}

static int on_value(http_parser *p, const char *at, size_t n)
{
    wsconn_t *c = p->data;
    c->in_value = 1;
    if (field_is(c, "Sec-WebSocket-Key"))
        take(c->key, sizeof c->key, &c->key_len, at, n);
    else if (field_is(c, "Connection"))
        conn_tokens(c, at, n);
    else if (field_is(c, "Host"))
        c->host_cut |= (uint8_t)take(c->host, sizeof c->host, &c->host_len,
                                     at, n);
    else if (field_is(c, "Origin")) {
        c->has_origin = 1;
        c->origin_cut |= (uint8_t)take(c->origin, sizeof c->origin,
                                       &c->origin_len, at, n);
    } else if (field_is(c, "If-None-Match"))
        take(c->inm, sizeof c->inm, &c->inm_len, at, n);
    else
        take(c->value, sizeof c->value, &c->value_len, at, n);
    return 0;
}

static int on_headers_complete(http_parser *p)
{
    wsconn_t *c = p->data;
    if (c->in_value)
        header_done(c);
    c->in_value = 0;
    c->head_only = p->method == HTTP_HEAD;
    /* No request of ours has a body: one that has is refused (an
     * upgrade's would otherwise be read as frames), as is any other
     * method, here at the head's end: its body is never waited for (it
     * may never come) nor counted as head. */
    if ((p->flags & F_CHUNKED) ||
        (p->content_length > 0 && p->content_length != ULLONG_MAX))
        c->has_body = 1;
    if (c->has_body || (p->method != HTTP_GET && p->method != HTTP_HEAD))
        http_parser_pause(p, 1); /* answered by wsconn_feed */
    return 0;
}

static int on_message_complete(http_parser *p)
{
    http_parser_pause(p, 1); /* one request per connection */
    return 0;
}

static const http_parser_settings parser_settings = {
    .on_url = on_url,
    .on_header_field = on_field,
    .on_header_value = on_value,
    .on_headers_complete = on_headers_complete,
    .on_message_complete = on_message_complete,
};

/* A short answer, text a line long (the status itself where body is
 * NULL; a HEAD's without it), then the end. extra: more header lines (""
 * for none). why: for the owner's log. Never cached (a refusal is of its
 * moment) nor sniffed as anything but text. */
static void refuse_body(wsconn_t *c, const char *status, const char *extra,
                        const char *body, const char *why)
{
    char out[512];
    if (!body)
        body = status;
    /* a 426 names the upgrade it wants as hop-by-hop, in the one
     * Connection header */
    int upgrade = strncmp(status, "426 ", 4) == 0;
    int n = snprintf(out, sizeof out,
                     "HTTP/1.1 %s\r\n%sContent-Type: text/plain; "
                     "charset=utf-8\r\nContent-Length: %zu\r\n"
                     "Cache-Control: no-store\r\n"
                     SAFE_HEADERS
                     "Connection: %s\r\n\r\n%s%s",
                     status, extra, strlen(body) + 1,
                     upgrade ? "Upgrade, close" : "close",
                     c->head_only ? "" : body, c->head_only ? "" : "\n");
    c->cb.send(c->ctx, out, (size_t)n);
    c->refused = status;
    c->refused_why = why;
    c->stage = WS_DONE;
    c->cb.done(c->ctx);
}

static void refuse_with(wsconn_t *c, const char *status, const char *extra,
                        const char *why)
{
    refuse_body(c, status, extra, NULL, why);
}

static void refuse(wsconn_t *c, const char *status, const char *why)
{
    refuse_with(c, status, "", why);
}

static const web_asset_t *find_asset(const char *path)
{
    for (size_t i = 0; i < web_nassets; i++)
        if (strcmp(web_assets[i].path, path) == 0)
            return &web_assets[i];
    return NULL;
}

/* 1 when the browser's If-None-Match names the asset's tag ("*", a list,
 * or W/ before it: a weak comparison, as RFC 9110 wants for a GET). */
static int browser_has(const wsconn_t *c, const web_asset_t *a)
{
    return c->inm_len > 0 &&
           (strcmp(c->inm, "*") == 0 || strstr(c->inm, a->etag) != NULL);
}

/* The file, or 304 Not Modified (its head without the body) when the
 * browser's copy is this one: the tag is the content's hash, so a copy
 * from an older binary with other bytes is never taken for it. */
static void serve(wsconn_t *c, const web_asset_t *a)
{
    char head[512];
    int same = browser_has(c, a);
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %s\r\nContent-Type: %s\r\n"
                     "Content-Length: %zu\r\nETag: %s\r\n"
                     "Cache-Control: %s\r\n"
                     SAFE_HEADERS
                     "Connection: close\r\n\r\n",
                     same ? "304 Not Modified" : "200 OK", a->type,
                     a->len, a->etag, a->cache); /* (a 304's length is the
                                                    200's; it has no body) */
    c->cb.send(c->ctx, head, (size_t)n);
    same |= c->head_only; /* (its head is the GET's: no body) */
    c->file = same ? NULL : a->data;
    c->file_len = same ? 0 : a->len;
    c->stage = WS_DONE;
    c->cb.done(c->ctx);
}

static int open_websocket(wsconn_t *c);

void wsconn_refuse_busy(wsconn_t *c, const char *why, const char *line)
{
    c->busy = why;
    /* a close frame's reason is at most 123 bytes (RFC 6455, 5.5) */
    snprintf(c->busy_line, sizeof c->busy_line, "%s", line ? line : "");
}

/* Whether this upgrade may open: a browser says which site's page asks
 * (Origin, "scheme://host[:port]"), and a page of another site must not
 * open sessions from its visitors' browsers. A client without an Origin
 * is no browser's page (a script, a test): let in. A page from the Host
 * it asks (default ports aside), or from one the host lists (config
 * ws_origins: a page that embeds the terminal elsewhere, a proxy that
 * renames the Host), is. */
static int origin_allowed(const wsconn_t *c)
{
    if (!c->has_origin)
        return 1;
    if (c->origin_cut || !strstr(c->origin, "://"))
        return 0; /* ("null", from a sandbox or a file: no site) */
    ws_site_t o = ws_site_of(c->origin, c->origin_len);
    if (!c->host_cut && ws_same_site(o, ws_site_of(c->host, c->host_len)))
        return 1;
    return ws_origin_listed(c->origins, o);
}

/* RFC 6455 4.1: the key is 16 random bytes in base64: 22 of its letters
 * then "==" (a client's own, not checked further). */
static int key_is_proper(const wsconn_t *c)
{
    if (c->key_len != 24 || c->key[22] != '=' || c->key[23] != '=')
        return 0;
    for (size_t i = 0; i < 22; i++)
        if (!isalnum((unsigned char)c->key[i]) && c->key[i] != '+' &&
            c->key[i] != '/')
            return 0;
    return 1;
}

/* The answer to a request for /ws that is not an upgrade this module
 * would open: its status, header lines and why (for the owner's log). */
typedef struct {
    const char *status, *extra, *why;
} ws_fault_t;

/* What is wrong with a request for /ws as an upgrade, or NULL when
 * nothing is: the one place that decides, for answer and refuse_busy. */
static const ws_fault_t *upgrade_fault(const wsconn_t *c)
{
    static const ws_fault_t not_11 = {
        "400 Bad Request", "", "a WebSocket upgrade not over HTTP/1.1" };
    static const ws_fault_t no_upgrade = {
        "426 Upgrade Required", "Upgrade: websocket\r\n"
        "Sec-WebSocket-Version: 13\r\n",
        "/ws without a WebSocket upgrade (version 13)" };
    static const ws_fault_t bad_key = {
        "400 Bad Request", "", "a WebSocket upgrade without a proper key" };
    static const ws_fault_t not_get = {
        "405 Method Not Allowed", "Allow: GET\r\n",
        "a WebSocket upgrade asked with HEAD" };
    static const ws_fault_t other_site = {
        "403 Forbidden", "",
        "a WebSocket upgrade from another site's page" };
    if (c->hp.http_major != 1 || c->hp.http_minor != 1)
        return &not_11;
    /* (HEAD: answer refuses other methods first; a busy server asks only
     * whether there is a fault) */
    if (c->hp.method != HTTP_GET)
        return &not_get;
    if (!c->want_ws || !c->conn_upgrade || !c->version_ok)
        return &no_upgrade;
    if (!key_is_proper(c))
        return &bad_key;
    if (!origin_allowed(c))
        return &other_site;
    return NULL;
}

/* 1 when the request is a WebSocket upgrade this module would open. */
static int good_upgrade(const wsconn_t *c)
{
    return strcmp(c->url, "/ws") == 0 && !c->has_body && !upgrade_fault(c);
}

static void send_switch(wsconn_t *c)
{
    char accept[29];
    wsconn_accept_key(c->key, c->key_len, accept);
    char out[256];
    int n = snprintf(out, sizeof out,
                     "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n",
                     accept);
    c->cb.send(c->ctx, out, (size_t)n);
}

/* A connection the server could not take. A page's WebSocket is opened
 * and at once closed with 1013 ("try again later") and the server's line
 * as the reason: a browser shows a script nothing of a refused upgrade's
 * HTTP status (only 1006), so this is how the page can say the server is
 * full rather than "connection lost". Any other request: 503 with the
 * line as its text. */
static void refuse_busy(wsconn_t *c)
{
    if (!good_upgrade(c)) {
        refuse_body(c, "503 Service Unavailable", "Retry-After: 10\r\n",
                    c->busy_line[0] ? c->busy_line : NULL, c->busy);
        return;
    }
    send_switch(c);
    size_t len = strlen(c->busy_line);
    uint8_t frame[4 + sizeof c->busy_line];
    frame[0] = 0x88; /* FIN, close; from the server: unmasked */
    frame[1] = (uint8_t)(2 + len);
    frame[2] = WS_CLOSE_TRY_AGAIN >> 8;
    frame[3] = WS_CLOSE_TRY_AGAIN & 0xff;
    memcpy(frame + 4, c->busy_line, len);
    c->cb.send(c->ctx, (const char *)frame, 4 + len);
    c->refused = "close 1013";
    c->refused_why = c->busy;
    c->stage = WS_DONE;
    c->cb.done(c->ctx);
}

/* A URL in absolute form (http://HOST/PATH, as a proxy is sent; RFC
 * 9112 3.2.2: a server must take it): its path alone, in place. */
static void path_of_absolute(wsconn_t *c)
{
    const char *p = NULL;
    if (strncasecmp(c->url, "http://", 7) == 0)
        p = c->url + 7;
    else if (strncasecmp(c->url, "https://", 8) == 0)
        p = c->url + 8;
    if (!p)
        return;
    const char *path = strchr(p, '/');
    if (!path) {
        strcpy(c->url, "/");
        return;
    }
    memmove(c->url, path, strlen(path) + 1);
}

/* The request's head is in: answer it. */
static int answer(wsconn_t *c)
{
    path_of_absolute(c);
    /* The path alone; the query kept for the site's pages and /ws (none
     * when it was cut: a part of it could mean something else). */
    char *q = strchr(c->url, '?');
    if (q) {
        if (!c->url_cut)
            snprintf(c->query, sizeof c->query, "%s", q + 1);
        *q = '\0';
        c->url_cut = 0;
    }
    if (c->busy) {
        refuse_busy(c);
        return 0;
    }
    if (c->hp.http_major != 1) {
        refuse(c, "505 HTTP Version Not Supported",
               "an HTTP version other than 1.x");
        return 0;
    }
    if (c->url_cut) {
        refuse(c, "414 URI Too Long", "a path too long");
        return 0;
    }
    if (c->hp.method != HTTP_GET && c->hp.method != HTTP_HEAD) {
        refuse_with(c, "405 Method Not Allowed", "Allow: GET, HEAD\r\n",
                    "a method other than GET and HEAD");
        return 0;
    }
    if (c->has_body) {
        refuse(c, "413 Content Too Large", "a request with a body");
        return 0;
    }
    if (c->hp.http_minor >= 1 && !c->has_host) { /* RFC 9112 3.2 */
        refuse(c, "400 Bad Request", "an HTTP/1.1 request without Host");
        return 0;
    }
    if (c->host_twice) {
        refuse(c, "400 Bad Request", "a request with two Host headers");
        return 0;
    }
    if (strcmp(c->url, "/ws") == 0) {
        const ws_fault_t *f = upgrade_fault(c);
        if (!f)
            return open_websocket(c);
        refuse_with(c, f->status, f->extra, f->why);
        return 0;
    }
    const web_asset_t *a = find_asset(c->url);
    if (!a && c->cb.page) {
        c->stage = WS_PAGE; /* what comes meanwhile is ignored */
        if (c->cb.page(c->ctx, c->url, c->query))
            return 0; /* the site's page: answered with wsconn_reply */
        c->stage = WS_HTTP;
    }
    if (!a) {
        refuse(c, "404 Not Found", NULL); /* no abuse: not logged */
        return 0;
    }
    serve(c, a);
    return 0;
}

void wsconn_reply(wsconn_t *c, const char *status, const char *type,
                  const char *cache, char *body, size_t len)
{
    if (c->stage != WS_PAGE || c->body) {
        free(body);
        return;
    }
    char head[512];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %s\r\nContent-Type: %s\r\n"
                     "Content-Length: %zu\r\nCache-Control: %s\r\n"
                     SAFE_HEADERS
                     "Connection: close\r\n\r\n", status, type, len, cache);
    c->cb.send(c->ctx, head, (size_t)n);
    if (c->head_only) { /* the GET's head, its length too: no body */
        free(body);
        body = NULL;
    }
    c->body = body;
    c->file = (const unsigned char *)body;
    c->file_len = body ? len : 0;
    c->stage = WS_DONE;
    c->cb.done(c->ctx);
}

/* --- the WebSocket ------------------------------------------------------------- */

static ssize_t ws_recv(wslay_event_context_ptr ws, uint8_t *buf, size_t len,
                       int flags, void *user)
{
    wsconn_t *c = user;
    (void)flags;
    if (c->in_len == 0) {
        wslay_event_set_error(ws, WSLAY_ERR_WOULDBLOCK);
        return -1;
    }
    if (len > c->in_len)
        len = c->in_len;
    memcpy(buf, c->in, len);
    c->in += len;
    c->in_len -= len;
    return (ssize_t)len;
}

static ssize_t ws_send(wslay_event_context_ptr ws, const uint8_t *data,
                       size_t len, int flags, void *user)
{
    wsconn_t *c = user;
    (void)ws;
    (void)flags;
    /* The session's output buffer takes everything (it is bounded: past
     * output_limit the session ends). */
    c->cb.send(c->ctx, (const char *)data, len);
    return (ssize_t)len;
}

/* A number of 1 to 5 digits at *p, and the byte after it `end`: its
 * value, *p moved past it; -1 for anything else (a sign, a space, more). */
static int digits_then(const char **p, char end)
{
    int v = 0, n = 0;
    while (**p >= '0' && **p <= '9' && n < 5)
        v = v * 10 + (*(*p)++ - '0'), n++;
    if (n == 0 || **p != end)
        return -1;
    if (end)
        (*p)++;
    return v;
}

/* "size W H": the terminal's size, written as the page writes it (digits
 * alone: a QA's "size +80 +24" and "size 80 24 1" were taken). */
static void size_message(wsconn_t *c, const uint8_t *msg, size_t len)
{
    char text[32];
    if (len <= 5 || len >= sizeof text || memcmp(msg, "size ", 5) != 0 ||
        memchr(msg, '\0', len))
        return; /* (an empty message has no bytes: msg may be NULL) */
    memcpy(text, msg, len);
    text[len] = '\0';
    const char *p = text + 5;
    int w = digits_then(&p, ' '), h = w < 0 ? -1 : digits_then(&p, '\0');
    if (w < 1 || h < 1)
        return;
    if (w > c->max_cols)
        w = c->max_cols;
    if (h > c->max_rows)
        h = c->max_rows;
    c->w = w;
    c->h = h;
    c->cb.resize(c->ctx, w, h);
}

/* "ping": the page's heartbeat, sent when it has heard nothing for a
 * while (a stalled connection shows nothing, neither a close nor a reset):
 * answered "pong" at once, whatever the session is doing. Only queued
 * here: feed_frames sends what wslay holds once the frames are read. */
static int ping_message(wsconn_t *c, const uint8_t *msg, size_t len)
{
    static const char pong[] = "pong";
    if (len != 4 || memcmp(msg, "ping", 4) != 0)
        return 0;
    struct wslay_event_msg m = { WSLAY_TEXT_FRAME, (const uint8_t *)pong,
                                 sizeof pong - 1 };
    wslay_event_queue_msg(c->ws, &m); /* a failure: no pong, the page retries */
    return 1;
}

/* "resume T": a kept game's token (letters and digits only), before the
 * first size; then "size W H". */
static void text_message(wsconn_t *c, const uint8_t *msg, size_t len)
{
    static const char resume[] = "resume ";
    size_t n = sizeof resume - 1;
    if (ping_message(c, msg, len))
        return;
    if (len > n && len - n <= WS_RESUME_MAX && c->w == 0 &&
        memcmp(msg, resume, n) == 0) {
        for (size_t i = n; i < len; i++)
            if (!isalnum(msg[i]))
                return;
        memcpy(c->resume, msg + n, len - n);
        c->resume[len - n] = '\0';
        return;
    }
    size_message(c, msg, len);
}

static void ws_message(wslay_event_context_ptr ws,
                       const struct wslay_event_on_msg_recv_arg *arg,
                       void *user)
{
    wsconn_t *c = user;
    (void)ws;
    if (c->stage != WS_OPEN)
        return;
    if (arg->opcode == WSLAY_BINARY_FRAME) {
        if (arg->msg_length > 0)
            c->cb.data(c->ctx, (const char *)arg->msg, arg->msg_length);
    }
    else if (arg->opcode == WSLAY_TEXT_FRAME)
        text_message(c, arg->msg, arg->msg_length);
    else if (arg->opcode == WSLAY_CONNECTION_CLOSE) {
        /* wslay answers the close frame; the page is gone */
        c->stage = WS_DONE;
        c->cb.done(c->ctx);
    }
}

static const struct wslay_event_callbacks ws_callbacks = {
    .recv_callback = ws_recv,
    .send_callback = ws_send,
    .on_msg_recv_callback = ws_message,
};

/* wslay's side of an open WebSocket. Returns 0, or -1 (out of memory). */
static int ws_context(wsconn_t *c)
{
    if (wslay_event_context_server_init(&c->ws, &ws_callbacks, c) != 0) {
        c->error = "out of memory";
        return -1;
    }
    wslay_event_config_set_max_recv_msg_length(c->ws, WS_MSG_MAX);
    wsframe_init(&c->frames, WS_MSG_MAX);
    return 0;
}

int wsconn_between_frames(const wsconn_t *c)
{
    return c->stage == WS_OPEN && c->frames.hlen == 0 && c->frames.left == 0;
}

int wsconn_resume_open(wsconn_t *c, int w, int h)
{
    if (ws_context(c) != 0)
        return -1;
    c->stage = WS_OPEN;
    c->w = w;
    c->h = h;
    return 0;
}

static int open_websocket(wsconn_t *c)
{
    if (ws_context(c) != 0)
        return -1;
    send_switch(c);
    c->stage = WS_OPEN;
    c->cb.open(c->ctx);
    return 0;
}

/* Frames from the page; and whatever wslay owes it (pongs, a close). */
static int feed_frames(wsconn_t *c, const char *p, size_t n)
{
    if (wsframe_scan(&c->frames, (const uint8_t *)p, n) != 0) {
        /* refused at its header: a close frame, then the end */
        uint16_t code = c->frames.code;
        wslay_event_queue_close(c->ws, code, NULL, 0);
        wslay_event_send(c->ws);
        c->refused = code == 1009 ? "close 1009"
                   : code == 1008 ? "close 1008" : "close 1002";
        c->refused_why = c->frames.why;
        c->stage = WS_DONE;
        c->cb.done(c->ctx);
        return 0;
    }
    c->in = p;
    c->in_len = n;
    int rc = wslay_event_recv(c->ws);
    c->in = NULL;
    c->in_len = 0;
    if (rc == 0)
        rc = wslay_event_send(c->ws);
    if (rc != 0) {
        c->error = "websocket error";
        return -1;
    }
    if (c->stage == WS_OPEN && !wslay_event_get_read_enabled(c->ws)) {
        /* a protocol error (an unmasked frame, a reserved opcode or bit,
         * a close code a peer may not send: 1002; text that is not UTF-8:
         * 1007): wslay has queued its close frame, and the connection
         * ends after it, refused as the header scan's are (a log line and
         * a count, not a page that left) */
        uint16_t code = wslay_event_get_status_code_sent(c->ws);
        c->refused = code == 1007 ? "close 1007" : "close 1002";
        c->refused_why = code == 1007
            ? "WebSocket text that is not UTF-8"
            : "a WebSocket frame against the protocol (unmasked, a reserved "
              "opcode or bit, a close code not allowed)";
        c->stage = WS_DONE;
        c->cb.done(c->ctx);
    }
    return 0;
}

/* --- the API -------------------------------------------------------------------- */

int wsconn_init(wsconn_t *c, const wsconn_cb_t *cb, void *ctx, int max_cols,
                int max_rows)
{
    memset(c, 0, sizeof *c);
    c->cb = *cb;
    c->ctx = ctx;
    c->max_cols = max_cols;
    c->max_rows = max_rows;
    http_parser_init(&c->hp, HTTP_REQUEST);
    c->hp.data = c;
    return 0;
}

void wsconn_free(wsconn_t *c)
{
    if (c->ws)
        wslay_event_context_free(c->ws);
    c->ws = NULL;
    free(c->body);
    c->body = NULL;
}

int wsconn_feed(wsconn_t *c, const void *bytes, size_t n)
{
    const char *p = bytes;
    if (c->error)
        return -1;
    if (c->stage == WS_HTTP) {
        size_t used = http_parser_execute(&c->hp, &parser_settings, p, n);
        enum http_errno err = HTTP_PARSER_ERRNO(&c->hp);
        c->head += used;
        if (c->head > WS_HEAD_MAX) { /* the URL alone, or with headers */
            if (c->in_fields)
                refuse(c, "431 Request Header Fields Too Large",
                       "a request head past 8 KiB");
            else
                refuse(c, "414 URI Too Long", "a URL past 8 KiB");
            return 0;
        }
        if (err == HPE_PAUSED || (c->hp.upgrade && err == HPE_OK)) {
            /* The head (and, for GET, the whole request) is in. */
            if (answer(c) != 0)
                return -1;
            if (c->stage == WS_OPEN && used < n)
                return feed_frames(c, p + used, n - used);
            return 0;
        }
        if (err != HPE_OK) {
            refuse(c, "400 Bad Request", "a request that is not HTTP");
            return 0;
        }
        return 0;
    }
    if (c->stage == WS_OPEN)
        return feed_frames(c, p, n);
    return 0; /* done: whatever comes is ignored */
}

void wsconn_send(wsconn_t *c, const void *data, size_t n)
{
    if (c->stage != WS_OPEN || n == 0)
        return;
    struct wslay_event_msg m = { WSLAY_BINARY_FRAME, data, n };
    if (wslay_event_queue_msg(c->ws, &m) == 0)
        wslay_event_send(c->ws);
}

void wsconn_send_text(wsconn_t *c, const char *text)
{
    size_t n = strlen(text);
    if (c->stage != WS_OPEN || n == 0)
        return;
    struct wslay_event_msg m = { WSLAY_TEXT_FRAME, (const uint8_t *)text, n };
    if (wslay_event_queue_msg(c->ws, &m) == 0)
        wslay_event_send(c->ws);
}

void wsconn_close(wsconn_t *c, int going_away)
{
    if (c->stage != WS_OPEN)
        return;
    c->stage = WS_DONE;
    wslay_event_queue_close(c->ws, going_away ? WSLAY_CODE_GOING_AWAY
                                              : WSLAY_CODE_NORMAL_CLOSURE,
                            NULL, 0);
    wslay_event_send(c->ws);
}

/* --- the session's table (transport.h) ------------------------------------ */

static int tr_feed(void *conn, const void *bytes, size_t n)
{
    return wsconn_feed(conn, bytes, n);
}

static void tr_send(void *conn, const void *data, size_t n)
{
    wsconn_send(conn, data, n);
}

/* The WebSocket is open and the page has said its size (a size comes
 * only over the WebSocket). */
static int tr_ready(const void *conn)
{
    return ((const wsconn_t *)conn)->w > 0;
}

static void tr_close(void *conn, int going_away)
{
    wsconn_close(conn, going_away); /* the close frame, after the goodbye */
}

static void tr_free(void *conn)
{
    wsconn_free(conn);
}

static const char *tr_error(const void *conn)
{
    return ((const wsconn_t *)conn)->error;
}

const transport_t ws_transport = {
    "web", tr_feed, tr_send, NULL, tr_ready, tr_close, tr_free, tr_error
};
