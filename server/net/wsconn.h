/* wsconn.h - the browser side of one connection: the HTTP request that
 * opens it, then the WebSocket that carries a session exactly like a
 * telnet one (keys in, screen bytes out, the terminal's size).
 *
 * libuv-free, like telnet_conn.h: bytes in (wsconn_feed), callbacks out.
 * The request is parsed by http_parser (Debian's libhttp-parser), the
 * frames by wslay (libwslay); the handshake's SHA-1 is nettle's, its
 * base64 libsodium's. What this module adds is only the page's protocol
 * (docs/telnet.md, "The browser"):
 *
 *   GET / and the page's few files   answered from web_assets.h (with their
 *                                    ETag; 304 Not Modified when
 *                                    If-None-Match has it), then the
 *                                    connection ends (Connection: close)
 *   GET /ws with a WebSocket upgrade switched to WebSocket:
 *     binary messages, page -> server  what the terminal typed (keys, SGR
 *                                      mouse reports), as a telnet client's
 *                                      data bytes
 *     text "size W H", page -> server  the terminal's size, first and at
 *                                      every resize
 *     text "resume T", page -> server  before the first size: the token of
 *                                      a guest's game to play on (kept in
 *                                      `resume` for the session)
 *     binary messages, server -> page  screen bytes (ANSI, UTF-8)
 *     text "token T", server -> page   a guest's game's token, to resume it
 *                                      with after a drop
 *   HEAD for a file or a page        the GET's head, without its body
 *   anything else                    404, or 405 (with Allow), then the end
 *
 * Refusals are answered, never silent (refused says what, for the log),
 * as soon as the request's head is in (a body is never waited for, nor
 * counted as head): 400 a request http_parser cannot parse, or /ws over
 * anything but HTTP/1.1 or without a proper key, or an HTTP/1.1 request
 * without Host (RFC 9112); 403 an upgrade whose
 * Origin is neither the Host it asks nor one of `origins` (another site's
 * page; a default port aside, written or not); 405 a method other than
 * GET and HEAD (HEAD /ws too); 413 a GET with a body (none of ours has
 * one, and an upgrade's body would be read as frames); 414 a URL past the
 * url buffer (or past WS_HEAD_MAX before any header); 426 /ws without the
 * upgrade headers or version 13; 431 a head past WS_HEAD_MAX bytes; 505 an
 * HTTP version other than 1.x; for a
 * connection the server could not take (wsconn_refuse_busy), a WebSocket
 * opened and closed with 1013 and the reason (a GET upgrade only), any
 * other request 503.
 * Their text is plain, never cached nor sniffed. No answer may be framed
 * by another site's page (X-Frame-Options, CSP frame-ancestors). Frames: one longer than
 * WS_MSG_MAX, or any fragment, is refused as soon as its header arrives
 * with a close frame (1009, 1008); a control frame fragmented or past 125
 * bytes, or a length not in its shortest form, with 1002. */
#ifndef ROGUE_WSCONN_H
#define ROGUE_WSCONN_H

#include <http_parser.h>
#include <stddef.h>
#include <stdint.h>
#include <wslay/wslay.h>

#include "transport.h"
#include "wsframe.h"

#define WS_HEAD_MAX 8192
#define WS_MSG_MAX 4096
#define WS_RESUME_MAX 64

typedef struct wsconn_cb {
    /* bytes for the socket */
    void (*send)(void *ctx, const char *bytes, size_t n);
    /* the WebSocket is open: the session may start */
    void (*open)(void *ctx);
    /* the terminal typed these */
    void (*data)(void *ctx, const char *bytes, size_t n);
    /* the terminal's size (within the limits given to wsconn_init) */
    void (*resize)(void *ctx, int w, int h);
    /* the exchange is over (a file served, a refusal, a close frame):
     * end the connection once the bytes sent, then `file`, are written */
    void (*done)(void *ctx);
    /* A GET for a path that is no file of the page (NULL: none, 404): the
     * site's pages (server/site/site.h). Returns 1 if it takes the
     * request, answering now or later with wsconn_reply, else 0 (404). */
    int (*page)(void *ctx, const char *path, const char *query);
} wsconn_cb_t;

enum ws_stage { WS_HTTP = 0, WS_OPEN, WS_DONE,
                WS_PAGE /* a site's page is being made (wsconn_reply) */ };

typedef struct wsconn {
    http_parser hp;
    wsconn_cb_t cb;
    void *ctx;
    int max_cols, max_rows;
    uint8_t stage;             /* enum ws_stage */
    uint8_t in_value;          /* the parser is in a header's value */
    uint8_t want_ws, conn_upgrade, version_ok;
    uint8_t head_only;         /* a HEAD: the answer's head alone */
    uint8_t tok_len, tok_end;  /* Connection's token being read: how much
                                  of "upgrade" it matches (TOK_NO: not it),
                                  and whether a space has ended it */
    size_t head;               /* request bytes so far */
    char url[128];
    size_t url_len;
    char query[128];           /* after '?' in the request's URL (whole,
                                  or none: a query past url's room is
                                  dropped, a path past it refused 414) */
    char field[32];            /* the header being read (cut: ignored) */
    size_t field_len;
    char key[32];              /* Sec-WebSocket-Key */
    size_t key_len;
    char value[32];            /* Upgrade / Version, cut (Connection's
                                  tokens are read as they come) */
    size_t value_len;
    char host[128], origin[128]; /* Host and Origin, for the upgrade's
                                  check (cut: no match) */
    size_t host_len, origin_len;
    uint8_t has_origin, host_cut, origin_cut;
    /* More origins whose pages may open the WebSocket: host or
     * host:port, comma-separated (config ws_origins; NULL or "": only
     * the request's own Host). Set by the owner after wsconn_init; the
     * string must outlive the connection. */
    const char *origins;
    char inm[80];              /* If-None-Match: the tags the browser has
                                  (cut: at worst the file is sent again) */
    size_t inm_len;
    wslay_event_context_ptr ws;
    const char *in;            /* the bytes being fed, for wslay */
    size_t in_len;
    int w, h;                  /* the last size given; 0: none yet */
    char resume[WS_RESUME_MAX + 1]; /* the page's "resume T" ("": none) */
    const unsigned char *file; /* a page file served: static bytes
                                  (web_assets.h) that the owner writes,
                                  without a copy, after the bytes sent */
    size_t file_len;
    char *body;                /* a page's body (wsconn_reply): owned, freed
                                  by wsconn_free, so it outlives its write
                                  without a copy (file points into it) */
    const char *error;         /* set: the connection must end, this is why */
    /* A request or frame refused with an answer (a status, or a close
     * frame) before the connection ends: what was answered and why, for
     * the owner's log line (static strings). */
    const char *refused, *refused_why;
    const char *busy;          /* wsconn_refuse_busy: why (static) */
    char busy_line[124];       /* and what the player is told ("": none):
                                  at most a close frame's reason */
    uint8_t has_body, url_cut;
    uint8_t has_host;          /* a Host header came (an HTTP/1.1 request
                                  without one is refused) */
    uint8_t host_twice;        /* ...and another after it (refused) */
    uint8_t in_fields;         /* the request line is over: headers came */
    wsframe_t frames;          /* the page's frame headers, checked ahead
                                  of wslay (wsframe.h) */
} wsconn_t;

/* Returns 0, or -1 (out of memory). */
int wsconn_init(wsconn_t *c, const wsconn_cb_t *cb, void *ctx, int max_cols,
                int max_rows);
void wsconn_free(wsconn_t *c);

/* A binary upgrade (server/ops/upgrade.h): 1 when the WebSocket is open
 * and no frame from the page is part-read (the connection may move to a
 * new process here), else 0. */
int wsconn_between_frames(const wsconn_t *c);

/* In the new process: the WebSocket as it was, open, the page's size
 * w x h, nothing sent. Returns 0, or -1 (out of memory). */
int wsconn_resume_open(wsconn_t *c, int w, int h);

/* Takes bytes from the socket. Returns 0, or -1 once the connection must
 * end at once (c->error says why). */
int wsconn_feed(wsconn_t *c, const void *bytes, size_t n);

/* The server cannot take this connection (why: a static reason, for the
 * log; line: what the player is told, copied, cut at 123 bytes, or NULL).
 * Its request, once its head is in, is answered whatever it asks, then
 * the end (refused, refused_why set): a WebSocket upgrade is opened and
 * closed at once with 1013, try again later, line its reason (the page
 * can read that, not an HTTP status); anything else 503 Service
 * Unavailable with Retry-After: 10 and line as its text. */
void wsconn_refuse_busy(wsconn_t *c, const char *why, const char *line);

/* Screen bytes for the page: one binary message (nothing once closed). */
void wsconn_send(wsconn_t *c, const void *data, size_t n);

/* The answer to a request the page callback took: the head (status such
 * as "200 OK", type, cache as Cache-Control's value), then body (taken:
 * malloc'd, owned from here; may be NULL for none), then the end. Nothing
 * once the request was answered. */
void wsconn_reply(wsconn_t *c, const char *status, const char *type,
                  const char *cache, char *body, size_t len);

/* A text message for the page ("token T"; nothing once closed). */
void wsconn_send_text(wsconn_t *c, const char *text);

/* A close frame (the session ends): 1000, or with going_away 1001 (the
 * server is shutting down: the page tries again by itself, where after a
 * 1000, a goodbye it was given, it waits to be asked). */
void wsconn_close(wsconn_t *c, int going_away);

/* The Sec-WebSocket-Accept value for a key (RFC 6455): out gets 28
 * characters and a NUL. */
void wsconn_accept_key(const char *key, size_t len, char out[29]);

/* The session's table for the browser (transport.h). */
extern const transport_t ws_transport;

#endif
