/* test_wsconn.c - the browser's side of a connection (server/net/wsconn.h):
 * the RFC 6455 handshake byte for byte, the page's files and only those,
 * refusals, frames in (keys, sizes, a ping, a close, an oversized message) and
 * out (the server's close: 1000, or 1001 going away), and the same bytes
 * fed one at a time. */
#define _GNU_SOURCE /* memmem */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "web_assets.h"
#include "wsconn.h"

typedef struct rec {
    char out[4096];          /* bytes sent, the static file excepted */
    size_t out_len;
    const unsigned char *file;
    size_t file_len;
    int opened, done;
    char data[256];
    size_t data_len;
    int w, h, resizes;
} rec_t;

static void r_send(void *ctx, const char *b, size_t n)
{
    rec_t *r = ctx;
    ck_assert_uint_le(r->out_len + n, sizeof r->out);
    memcpy(r->out + r->out_len, b, n);
    r->out_len += n;
}
static void r_open(void *ctx) { ((rec_t *)ctx)->opened++; }
static void r_data(void *ctx, const char *b, size_t n)
{
    rec_t *r = ctx;
    memcpy(r->data + r->data_len, b, n);
    r->data_len += n;
}
static void r_resize(void *ctx, int w, int h)
{
    rec_t *r = ctx;
    r->w = w;
    r->h = h;
    r->resizes++;
}
static void r_done(void *ctx) { ((rec_t *)ctx)->done++; }

static const wsconn_cb_t cbs = { r_send, r_open, r_data, r_resize, r_done,
                                 NULL };

/* The site's pages (site.h) as a test sees them: "/later" is taken and
 * answered later, "/now?..." at once with the query in the body, anything
 * else is not a page. */
static char page_path[128], page_query[128];
static int r_page(void *ctx, const char *path, const char *query)
{
    (void)ctx;
    snprintf(page_path, sizeof page_path, "%s", path);
    snprintf(page_query, sizeof page_query, "%s", query);
    return strcmp(path, "/later") == 0 || strcmp(path, "/now") == 0;
}
static const wsconn_cb_t page_cbs = { r_send, r_open, r_data, r_resize,
                                      r_done, r_page };

static const char upgrade[] =
    "GET /ws HTTP/1.1\r\nHost: example\r\nUpgrade: websocket\r\n"
    "Connection: keep-alive, Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    "Sec-WebSocket-Version: 13\r\n\r\n";

static void feed(wsconn_t *c, const char *bytes, size_t n, int one_by_one)
{
    if (!one_by_one) {
        ck_assert_int_eq(wsconn_feed(c, bytes, n), 0);
        return;
    }
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(wsconn_feed(c, bytes + i, 1), 0);
}

/* A client frame: masked, as browsers send. Returns its length. */
static size_t frame(char *out, int opcode, const void *payload, size_t n)
{
    static const unsigned char mask[4] = { 0x37, 0xfa, 0x21, 0x3d };
    size_t k = 0;
    out[k++] = (char)(0x80 | opcode);
    if (n < 126) {
        out[k++] = (char)(0x80 | n);
    } else {
        out[k++] = (char)(0x80 | 126);
        out[k++] = (char)(n >> 8);
        out[k++] = (char)(n & 255);
    }
    memcpy(out + k, mask, 4);
    k += 4;
    for (size_t i = 0; i < n; i++)
        out[k + i] = (char)(((const unsigned char *)payload)[i] ^ mask[i % 4]);
    return k + n;
}

START_TEST(accept_key_is_the_rfc_example)
{
    char accept[29];
    wsconn_accept_key("dGhlIHNhbXBsZSBub25jZQ==", 24, accept);
    ck_assert_str_eq(accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}
END_TEST

/* The handshake, then keys and a size, whole or a byte at a time. */
static void session(int one_by_one)
{
    rec_t r;
    memset(&r, 0, sizeof r);
    wsconn_t c;
    ck_assert_int_eq(wsconn_init(&c, &cbs, &r, 250, 100), 0);
    feed(&c, upgrade, sizeof upgrade - 1, one_by_one);
    r.out[r.out_len] = '\0';
    ck_assert_str_eq(r.out, "HTTP/1.1 101 Switching Protocols\r\n"
                            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                            "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
                            "\r\n\r\n");
    ck_assert_int_eq(r.opened, 1);
    char f[600];
    size_t n = frame(f, 1, "size 100 40", 11);
    n += frame(f + n, 2, "jk\x1b[A", 5);
    n += frame(f + n, 1, "size 999 999", 12); /* capped at the limits */
    /* not sizes: signs, a third number, a NUL, no number, spaces, 0 */
    n += frame(f + n, 1, "size +80 +24", 12);
    n += frame(f + n, 1, "size 80 24 1", 12);
    n += frame(f + n, 1, "size 80 24\0", 11);
    n += frame(f + n, 1, "size 80", 7);
    n += frame(f + n, 1, "size  80 24", 11);
    n += frame(f + n, 1, "size 0 24", 9);
    n += frame(f + n, 1, "size 123456 24", 14);
    feed(&c, f, n, one_by_one);
    ck_assert_int_eq(r.resizes, 2);
    ck_assert_int_eq(r.w, 250);
    ck_assert_int_eq(r.h, 100);
    ck_assert_uint_eq(r.data_len, 5);
    ck_assert_int_eq(memcmp(r.data, "jk\x1b[A", 5), 0);
    /* Screen bytes go out as one unmasked binary frame each. */
    r.out_len = 0;
    wsconn_send(&c, "\x1b[H@", 4);
    ck_assert_uint_eq(r.out_len, 6);
    ck_assert_int_eq(memcmp(r.out, "\x82\x04\x1b[H@", 6), 0);
    /* The page closes: done, and wslay's answering close frame. */
    r.out_len = 0;
    n = frame(f, 8, "\x03\xe8", 2);
    feed(&c, f, n, one_by_one);
    ck_assert_int_eq(r.done, 1);
    ck_assert_uint_ge(r.out_len, 2);
    ck_assert_int_eq((unsigned char)r.out[0], 0x88);
    wsconn_free(&c);
}

START_TEST(handshake_keys_sizes_and_close)
{
    session(0);
}
END_TEST

START_TEST(the_same_one_byte_at_a_time)
{
    session(1);
}
END_TEST

/* GET path: the status line, and the file handed over without a copy. */
static void get(const char *path, rec_t *r, const char *method)
{
    memset(r, 0, sizeof *r);
    wsconn_t c;
    ck_assert_int_eq(wsconn_init(&c, &cbs, r, 250, 100), 0);
    char req[256];
    int n = snprintf(req, sizeof req, "%s %s HTTP/1.1\r\nHost: x\r\n\r\n",
                     method, path);
    ck_assert_int_eq(wsconn_feed(&c, req, (size_t)n), 0);
    r->file = c.file; /* the file left for the owner to write */
    r->file_len = c.file_len;
    r->out[r->out_len] = '\0';
    ck_assert_int_eq(r->done, 1);
    ck_assert_int_eq(r->opened, 0);
    wsconn_free(&c);
}

/* "ping", the page's heartbeat: answered at once with one unmasked text
 * frame "pong", before a size and after it; no key, no size. Only the
 * four letters are a ping. */
START_TEST(ping_is_answered_pong)
{
    rec_t r;
    memset(&r, 0, sizeof r);
    wsconn_t c;
    ck_assert_int_eq(wsconn_init(&c, &cbs, &r, 250, 100), 0);
    feed(&c, upgrade, sizeof upgrade - 1, 0);
    r.out_len = 0;
    char f[64];
    size_t n = frame(f, 1, "ping", 4);
    feed(&c, f, n, 1);
    ck_assert_uint_eq(r.out_len, 6);
    ck_assert_int_eq(memcmp(r.out, "\x81\x04pong", 6), 0);
    n = frame(f, 1, "size 80 24", 10);
    n += frame(f + n, 1, "ping", 4);
    n += frame(f + n, 1, "pingx", 5);
    n += frame(f + n, 1, "ping ", 5);
    feed(&c, f, n, 0);
    ck_assert_uint_eq(r.out_len, 12);
    ck_assert_int_eq(memcmp(r.out + 6, "\x81\x04pong", 6), 0);
    ck_assert_uint_eq(r.data_len, 0);
    ck_assert_int_eq(r.resizes, 1);
    wsconn_free(&c);
}
END_TEST

/* "resume T" before the first size is kept for the session (letters and
 * digits, at most WS_RESUME_MAX); a bad one, or one after the size, is
 * not. "token T" goes out as one text frame. */
START_TEST(resume_and_token_messages)
{
    static const char *const cases[][2] = {
        { "resume 0123456789abcdef", "0123456789abcdef" },
        { "resume abc<script>", "" },
        { "resume ", "" },
        { "resumeabc", "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rec_t r;
        memset(&r, 0, sizeof r);
        wsconn_t c;
        ck_assert_int_eq(wsconn_init(&c, &cbs, &r, 250, 100), 0);
        feed(&c, upgrade, sizeof upgrade - 1, 0);
        char f[600];
        size_t n = frame(f, 1, cases[i][0], strlen(cases[i][0]));
        n += frame(f + n, 1, "size 80 24", 10);
        n += frame(f + n, 1, "resume ffff", 11); /* after the size: ignored */
        feed(&c, f, n, 0);
        ck_assert_str_eq(c.resume, cases[i][1]);
        ck_assert_int_eq(r.resizes, 1);
        r.out_len = 0;
        wsconn_send_text(&c, "token ab12");
        ck_assert_uint_eq(r.out_len, 12);
        ck_assert_int_eq(memcmp(r.out, "\x81\x0atoken ab12", 12), 0);
        wsconn_free(&c);
    }
    /* too long */
    rec_t r;
    memset(&r, 0, sizeof r);
    wsconn_t c;
    ck_assert_int_eq(wsconn_init(&c, &cbs, &r, 250, 100), 0);
    feed(&c, upgrade, sizeof upgrade - 1, 0);
    char msg[7 + WS_RESUME_MAX + 2], f[600];
    memcpy(msg, "resume ", 7);
    memset(msg + 7, 'a', WS_RESUME_MAX + 1);
    size_t n = frame(f, 1, msg, sizeof msg - 1);
    feed(&c, f, n, 0);
    ck_assert_str_eq(c.resume, "");
    wsconn_free(&c);
}
END_TEST

START_TEST(only_the_page_files_are_served)
{
    rec_t r;
    for (size_t i = 0; i < web_nassets; i++) {
        get(web_assets[i].path, &r, "GET");
        ck_assert_msg(strncmp(r.out, "HTTP/1.1 200 OK\r\n", 17) == 0, "%s: %s",
                      web_assets[i].path, r.out);
        char type[128];
        snprintf(type, sizeof type, "Content-Type: %s\r\n", web_assets[i].type);
        ck_assert_ptr_nonnull(strstr(r.out, type));
        ck_assert_ptr_eq(r.file, web_assets[i].data);
        ck_assert_uint_eq(r.file_len, web_assets[i].len);
    }
    get("/play?from=somewhere", &r, "GET");
    ck_assert_ptr_eq(r.file, web_assets[0].data);
    static const char *const refused[] = {
        "/../etc/passwd", "/etc/passwd", "//xterm.js", "/xterm.js/",
        "/index.html", "/ws/../xterm.js", "/%2e%2e/etc/passwd"
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        get(refused[i], &r, "GET");
        ck_assert_msg(strncmp(r.out, "HTTP/1.1 404 Not Found\r\n", 24) == 0,
                      "%s: %s", refused[i], r.out);
        ck_assert_ptr_null(r.file);
    }
    get("/", &r, "POST");
    ck_assert(strncmp(r.out, "HTTP/1.1 405 ", 13) == 0);
    /* /ws without a proper upgrade: 426, naming the upgrade wanted */
    get("/ws", &r, "GET");
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 426 Upgrade Required\r\n", 31) == 0,
                  "%s", r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "Sec-WebSocket-Version: 13\r\n"));
}
END_TEST

/* GET path with an If-None-Match header. */
static void get_if(const char *path, const char *inm, rec_t *r)
{
    memset(r, 0, sizeof *r);
    wsconn_t c;
    ck_assert_int_eq(wsconn_init(&c, &cbs, r, 250, 100), 0);
    char req[256];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n"
                     "If-None-Match: %s\r\n\r\n", path, inm);
    ck_assert_int_eq(wsconn_feed(&c, req, (size_t)n), 0);
    r->file = c.file;
    r->file_len = c.file_len;
    r->out[r->out_len] = '\0';
    ck_assert_int_eq(r->done, 1);
    wsconn_free(&c);
}

/* Every file has a strong ETag and is cached: a browser that has it is
 * answered 304 with no body; one with another tag gets the file. The
 * terminal's files are at addresses named by their hash, a year and
 * immutable; the play page is asked again each time and loads them
 * there. */
START_TEST(files_are_cached_by_their_tags)
{
    rec_t r;
    char line[160];
    for (size_t i = 0; i < web_nassets; i++) {
        const web_asset_t *a = &web_assets[i];
        get(a->path, &r, "GET");
        snprintf(line, sizeof line, "\r\nETag: %s\r\nCache-Control: %s\r\n",
                 a->etag, a->cache);
        ck_assert_msg(strstr(r.out, line), "%s: %s", a->path, r.out);
        ck_assert_uint_eq(strlen(a->etag), 18); /* "16 hex digits" */
        const char *same[] = { a->etag, "W/%s", "\"0000000000000000\", %s",
                               "*" };
        for (size_t k = 0; k < sizeof same / sizeof same[0]; k++) {
            char inm[64];
            snprintf(inm, sizeof inm, same[k], a->etag);
            get_if(a->path, inm, &r);
            ck_assert_msg(strncmp(r.out, "HTTP/1.1 304 Not Modified\r\n", 27)
                          == 0, "%s (%s): %s", a->path, inm, r.out);
            ck_assert_ptr_null(r.file);
            ck_assert_ptr_nonnull(strstr(r.out, line));
        }
        get_if(a->path, "\"0000000000000000\"", &r);
        ck_assert(strncmp(r.out, "HTTP/1.1 200 OK\r\n", 17) == 0);
        ck_assert_ptr_eq(r.file, a->data);
        /* immutable only at an address naming the content's hash */
        char hex[17];
        snprintf(hex, sizeof hex, "%s", a->etag + 1);
        if (strstr(a->cache, "immutable"))
            ck_assert_msg(strstr(a->path, hex), "%s", a->path);
        else
            ck_assert_str_eq(a->cache, "no-cache");
    }
    ck_assert_str_eq(web_assets[0].path, "/play");
    ck_assert_str_eq(web_assets[0].cache, "no-cache");
    if (!web_terminal_built)
        return;
    const char *urls[] = { web_xterm_js_url, web_xterm_css_url,
                           web_fit_js_url, web_font_js_url };
    for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
        get(urls[i], &r, "GET");
        ck_assert_msg(strstr(r.out, "Cache-Control: public, max-age=31536000, "
                             "immutable\r\n"), "%s: %s", urls[i], r.out);
        snprintf(line, sizeof line, "\"%s\"", urls[i]);
        ck_assert_msg(memmem(web_assets[0].data, web_assets[0].len, line,
                             strlen(line)), "the play page does not load %s",
                      urls[i]);
    }
}
END_TEST

/* web/embed.sh on files of other bytes: that file's tag and address
 * change, the others' do not (a binary upgrade's browsers fetch exactly
 * what changed). */
static void embed(const char *dir, const char *js, char *out, size_t size)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "printf '%s' >%s/xterm.js && "
             "printf 'css' >%s/xterm.css && printf 'fit' >%s/addon-fit.js && "
             "touch %s/.complete && sh web/embed.sh %s/gen.c %s && "
             "grep -e '_url\\[\\]' -e '\"/xterm.css\"' %s/gen.c",
             js, dir, dir, dir, dir, dir, dir, dir);
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(out, 1, size - 1, f);
    out[n] = '\0';
    ck_assert_int_eq(pclose(f), 0);
}

START_TEST(a_changed_file_gets_a_new_tag_and_address)
{
    char dir[] = "/tmp/test_wsconn_XXXXXX", a[2048], b[2048];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    embed(dir, "one", a, sizeof a);
    embed(dir, "two", b, sizeof b);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    /* web_xterm_js_url's line differs; the css's lines are the same */
    char *js_a = strstr(a, "web_xterm_js_url"), *js_b = strstr(b, "web_xterm_js_url");
    ck_assert_ptr_nonnull(js_a);
    ck_assert_ptr_nonnull(js_b);
    ck_assert_int_ne(strncmp(js_a, js_b, strcspn(js_a, "\n")), 0);
    char *css_a = strstr(a, "web_xterm_css_url"), *css_b = strstr(b, "web_xterm_css_url");
    ck_assert_int_eq(strncmp(css_a, css_b, strcspn(css_a, "\n")), 0);
    char *plain_a = strstr(a, "{ \"/xterm.css\""), *plain_b = strstr(b, "{ \"/xterm.css\"");
    ck_assert_ptr_nonnull(plain_a);
    ck_assert_int_eq(strncmp(plain_a, plain_b, strcspn(plain_a, "\n")), 0);
}
END_TEST

/* web/font.js, the font search the play page and the site's terminal
 * share: served at its hashed address as JavaScript (with nosniff a
 * browser runs a script of no other type), cached for good, with the
 * search in it. Built without the terminal (embed.sh without the xterm.js
 * files), the server has no such file: only the placeholder address. */
START_TEST(the_font_script_is_served_as_javascript)
{
    rec_t r;
    get(web_font_js_url, &r, "GET");
    if (web_terminal_built) {
        ck_assert_msg(strncmp(r.out, "HTTP/1.1 200 OK\r\n", 17) == 0, "%s",
                      r.out);
        ck_assert_msg(strstr(r.out, "\r\nContent-Type: text/javascript\r\n"
                             "Content-Length: "), "%s", r.out);
        ck_assert_ptr_nonnull(strstr(r.out, "\r\nCache-Control: public, "
                                     "max-age=31536000, immutable\r\n"));
        ck_assert_ptr_nonnull(strstr(r.out, "\r\nX-Content-Type-Options: "
                                     "nosniff\r\n"));
        ck_assert_ptr_nonnull(memmem(r.file, r.file_len,
                                     "function rogueFont(", 19));
        ck_assert_uint_eq(strlen(web_font_js_url), strlen("/font.") + 16 + 3);
    } else {
        ck_assert(strncmp(r.out, "HTTP/1.1 404 ", 13) == 0);
    }

    char dir[] = "/tmp/test_wsconn_XXXXXX", cmd[512], out[512];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "sh web/embed.sh %s/gen.c %s && grep font %s/gen.c;"
             " rm -rf '%s'", dir, dir, dir, dir);
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    ck_assert_int_eq(pclose(f), 0);
    ck_assert_str_eq(out, "const char web_font_js_url[] = \"/font.js\";\n");
}
END_TEST

/* One request, whole: what was answered and why the owner logs. */
static void ask(const char *req, size_t n, rec_t *r, wsconn_t *c)
{
    memset(r, 0, sizeof *r);
    ck_assert_int_eq(wsconn_init(c, &cbs, r, 250, 100), 0);
    ck_assert_int_eq(wsconn_feed(c, req, n), 0);
    r->out[r->out_len] = '\0';
}

/* Every refusal is answered with its status and says why (issue 25);
 * an upgrade only on a valid HTTP/1.1 GET without a body. */
START_TEST(refusals_are_answered)
{
    rec_t r;
    wsconn_t c;
    static const char v10[] = "GET /ws HTTP/1.0\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n";
    ask(v10, sizeof v10 - 1, &r, &c);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 400 Bad Request\r\n", 26) == 0,
                  "%s", r.out);
    ck_assert_int_eq(r.opened, 0);
    ck_assert_int_eq(r.done, 1);
    ck_assert_str_eq(c.refused_why, "a WebSocket upgrade not over HTTP/1.1");
    wsconn_free(&c);

    /* an upgrade carrying a body: its bytes are no frames */
    static const char body[] = "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\nContent-Length: 5\r\n\r\nhello";
    ask(body, sizeof body - 1, &r, &c);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 413 ", 13) == 0, "%s", r.out);
    ck_assert_int_eq(r.opened, 0);
    ck_assert_str_eq(c.refused_why, "a request with a body");
    wsconn_free(&c);
    static const char chunked[] = "GET / HTTP/1.1\r\nTransfer-Encoding: "
        "chunked\r\n\r\n0\r\n\r\n";
    ask(chunked, sizeof chunked - 1, &r, &c);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 413 ", 13) == 0, "%s", r.out);
    wsconn_free(&c);

    /* not HTTP at all (a TLS hello): 400, logged */
    ask("\x16\x03\x01\x02\x00\x01", 6, &r, &c);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 400 ", 13) == 0, "%s", r.out);
    ck_assert_str_eq(c.refused_why, "a request that is not HTTP");
    wsconn_free(&c);

    /* a path longer than we keep: 414, never a cut path served */
    char longreq[400];
    int n = snprintf(longreq, sizeof longreq, "GET /xterm.js%0300d "
                     "HTTP/1.1\r\n\r\n", 0);
    ask(longreq, (size_t)n, &r, &c);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 414 ", 13) == 0, "%s", r.out);
    ck_assert_ptr_null(c.file);
    wsconn_free(&c);

    /* a method: 405, logged */
    ask("DELETE / HTTP/1.1\r\n\r\n", 23, &r, &c);
    ck_assert(strncmp(r.out, "HTTP/1.1 405 ", 13) == 0);
    ck_assert_str_eq(c.refused_why, "a method other than GET and HEAD");
    wsconn_free(&c);

    /* an upgrade without its key: 400, logged */
    static const char nokey[] = "GET /ws HTTP/1.1\r\nHost: x\r\n"
        "Upgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n";
    ask(nokey, sizeof nokey - 1, &r, &c);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 400 Bad Request\r\n", 26) == 0,
                  "%s", r.out);
    ck_assert_int_eq(r.opened, 0);
    ck_assert_str_eq(c.refused_why, "a WebSocket upgrade without a proper "
                     "key");
    wsconn_free(&c);
}
END_TEST

/* Fed req to a connection the server could not take (line: its words). */
static void ask_busy(const char *req, size_t n, rec_t *r, wsconn_t *c)
{
    memset(r, 0, sizeof *r);
    ck_assert_int_eq(wsconn_init(c, &cbs, r, 250, 100), 0);
    wsconn_refuse_busy(c, "full", "Full.");
    ck_assert_int_eq(wsconn_feed(c, req, n), 0);
    r->out[r->out_len] = '\0';
}

/* A busy server opens only an upgrade it would open otherwise, to close
 * it with 1013 and its line; anything else, a /ws request that is no
 * proper upgrade included, is a 503 with the line. */
START_TEST(a_busy_server_closes_only_a_proper_upgrade)
{
    rec_t r;
    wsconn_t c;
    ask_busy(upgrade, sizeof upgrade - 1, &r, &c);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 101 ", 13) == 0, "%s", r.out);
    static const char close_frame[] = "\x88\x07\x03\xf5" "Full.";
    ck_assert_ptr_nonnull(memmem(r.out, r.out_len, close_frame,
                                 sizeof close_frame - 1));
    ck_assert_str_eq(c.refused, "close 1013");
    ck_assert_int_eq(r.opened, 0);
    wsconn_free(&c);
    /* (each in parentheses: one string, not a missing comma) */
    static const char *const not_upgrades[] = {
        ("GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Version: 13\r\n\r\n"),                 /* no key */
        ("GET /ws HTTP/1.0\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
         "Sec-WebSocket-Version: 13\r\n\r\n"),                 /* 1.0 */
        "GET /ws HTTP/1.1\r\n\r\n",                          /* no upgrade */
        "GET /ws?x=1 HTTP/1.1\r\n\r\n",
        ("POST /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
         "Sec-WebSocket-Version: 13\r\n\r\n"),           /* not GET */
    };
    for (size_t i = 0; i < sizeof not_upgrades / sizeof not_upgrades[0]; i++) {
        ask_busy(not_upgrades[i], strlen(not_upgrades[i]), &r, &c);
        ck_assert_msg(strncmp(r.out, "HTTP/1.1 503 Service Unavailable\r\n",
                              34) == 0, "%zu: %s", i, r.out);
        ck_assert_ptr_nonnull(strstr(r.out, "\r\n\r\nFull.\n"));
        ck_assert_str_eq(c.refused_why, "full");
        wsconn_free(&c);
    }
}
END_TEST

/* Frames refused at their header, before any payload: a length past the
 * limit (2^63 - 1 claimed) and fragments. */
START_TEST(frames_refused_at_their_header)
{
    rec_t r;
    wsconn_t c;
    static const unsigned char huge[] = { 0x82, 0xff, 0x7f, 0xff, 0xff, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4 };
    static const unsigned char frag[] = { 0x02, 0x81, 1, 2, 3, 4, 'a' };
    static const unsigned char cont[] = { 0x80, 0x81, 1, 2, 3, 4, 'a' };
    /* 2^64 - 1 bytes claimed, its mask not come yet: judged at its
     * length, not handed to wslay (a QA's ended without a close frame) */
    static const unsigned char no_mask_yet[] = { 0x82, 0xff, 0xff, 0xff, 0xff,
                                                 0xff, 0xff, 0xff, 0xff, 0xff };
    const unsigned char *bad[] = { huge, frag, cont, no_mask_yet };
    size_t len[] = { sizeof huge, sizeof frag, sizeof cont,
                     sizeof no_mask_yet };
    const char *why[] = { "a WebSocket frame longer than the message limit",
                          "a fragmented WebSocket message (no FIN)",
                          ("a fragmented WebSocket message (continuation "
                           "frame)"),
                          "a WebSocket frame longer than the message limit" };
    for (int i = 0; i < 4; i++) {
        ask(upgrade, sizeof upgrade - 1, &r, &c);
        ck_assert_int_eq(r.opened, 1);
        r.out_len = 0;
        ck_assert_int_eq(wsconn_feed(&c, bad[i], len[i]), 0);
        ck_assert_int_eq(r.done, 1);
        ck_assert_int_eq((unsigned char)r.out[0], 0x88); /* a close frame */
        unsigned code = (unsigned char)r.out[2] << 8 | (unsigned char)r.out[3];
        ck_assert_uint_eq(code, i == 0 || i == 3 ? 1009 : 1008);
        ck_assert_str_eq(c.refused_why, why[i]);
        ck_assert_uint_eq(r.data_len, 0);
        wsconn_free(&c);
    }
}
END_TEST

/* The server's own close: 1000 after a goodbye the player was given,
 * 1001 (going away) when the server shuts down, which the page takes as a
 * cue to try again by itself (docs/telnet.md, "The browser"). */
START_TEST(the_server_closes_with_1000_or_1001_going_away)
{
    for (int going_away = 0; going_away <= 1; going_away++) {
        rec_t r;
        memset(&r, 0, sizeof r);
        wsconn_t c;
        ask(upgrade, sizeof upgrade - 1, &r, &c);
        ck_assert_int_eq(r.opened, 1);
        r.out_len = 0;
        wsconn_close(&c, going_away);
        ck_assert_uint_eq(r.out_len, 4);
        ck_assert_int_eq(memcmp(r.out, going_away ? "\x88\x02\x03\xe9"
                                                  : "\x88\x02\x03\xe8", 4), 0);
        r.out_len = 0;
        wsconn_close(&c, going_away); /* once only */
        ck_assert_uint_eq(r.out_len, 0);
        wsconn_free(&c);
    }
}
END_TEST

START_TEST(oversized_and_malformed_input_end_the_connection)
{
    rec_t r;
    memset(&r, 0, sizeof r);
    wsconn_t c;
    /* a head past WS_HEAD_MAX */
    ck_assert_int_eq(wsconn_init(&c, &cbs, &r, 250, 100), 0);
    ck_assert_int_eq(wsconn_feed(&c, "GET / HTTP/1.1\r\n", 16), 0);
    char line[128];
    memset(line, 'a', sizeof line);
    memcpy(line, "X-Pad: ", 7);
    line[sizeof line - 2] = '\r';
    line[sizeof line - 1] = '\n';
    for (int i = 0; i < WS_HEAD_MAX / (int)sizeof line + 2 && !r.done; i++)
        ck_assert_int_eq(wsconn_feed(&c, line, sizeof line), 0);
    ck_assert_int_eq(r.done, 1);
    r.out[r.out_len] = '\0';
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 431 ", 13) == 0, "%s", r.out);
    ck_assert_str_eq(c.refused_why, "a request head past 8 KiB");
    wsconn_free(&c);
    /* a message past WS_MSG_MAX: closed by a close frame, then done */
    memset(&r, 0, sizeof r);
    ck_assert_int_eq(wsconn_init(&c, &cbs, &r, 250, 100), 0);
    feed(&c, upgrade, sizeof upgrade - 1, 0);
    static char big[WS_MSG_MAX + 100], f[WS_MSG_MAX + 200];
    memset(big, 'x', sizeof big);
    size_t n = frame(f, 2, big, sizeof big);
    r.out_len = 0;
    ck_assert_int_eq(wsconn_feed(&c, f, n), 0);
    ck_assert_uint_eq(r.data_len, 0);
    ck_assert_int_eq(r.done, 1);
    ck_assert_int_eq((unsigned char)r.out[0], 0x88);
    wsconn_free(&c);
}
END_TEST

/* A path that is no file of the page goes to the page callback with its
 * query; a page taken is answered with wsconn_reply, once, its body owned
 * by the connection (written after the head, like a file); bytes that
 * come meanwhile are ignored; a path not taken is 404. */
START_TEST(pages_go_to_the_site)
{
    rec_t r;
    memset(&r, 0, sizeof r);
    wsconn_t c;
    ck_assert_int_eq(wsconn_init(&c, &page_cbs, &r, 250, 100), 0);
    static const char get[] = "GET /later?watch=3 HTTP/1.1\r\nHost: x\r\n\r\n";
    feed(&c, get, sizeof get - 1, 0);
    ck_assert_str_eq(page_path, "/later");
    ck_assert_str_eq(page_query, "watch=3");
    ck_assert_uint_eq(r.out_len, 0);
    ck_assert_int_eq(r.done, 0);
    feed(&c, "GET / HTTP/1.1\r\n\r\n", 18, 0); /* ignored meanwhile */
    ck_assert_uint_eq(r.out_len, 0);
    char *body = malloc(5);
    memcpy(body, "hello", 5);
    wsconn_reply(&c, "200 OK", "text/html; charset=utf-8", "no-cache", body, 5);
    r.out[r.out_len] = '\0';
    ck_assert_str_eq(r.out, "HTTP/1.1 200 OK\r\nContent-Type: text/html; "
                            "charset=utf-8\r\nContent-Length: 5\r\n"
                            "Cache-Control: no-cache\r\n"
                            "X-Content-Type-Options: nosniff\r\n"
                            "X-Frame-Options: DENY\r\n"
                            "Content-Security-Policy: frame-ancestors "
                            "'none'\r\n"
                            "Connection: close\r\n\r\n");
    ck_assert_int_eq(r.done, 1);
    ck_assert_uint_eq(c.file_len, 5);
    ck_assert_int_eq(memcmp(c.file, "hello", 5), 0);
    /* a second answer changes nothing (and its body is freed) */
    char *again = malloc(3);
    wsconn_reply(&c, "500 Internal Server Error", "text/plain", "no-cache",
                 again, 3);
    ck_assert_int_eq(r.done, 1);
    wsconn_free(&c);

    memset(&r, 0, sizeof r);
    ck_assert_int_eq(wsconn_init(&c, &page_cbs, &r, 250, 100), 0);
    static const char other[] = "GET /other HTTP/1.1\r\nHost: x\r\n\r\n";
    feed(&c, other, sizeof other - 1, 1);
    r.out[r.out_len] = '\0';
    ck_assert_ptr_nonnull(strstr(r.out, "HTTP/1.1 404 Not Found\r\n"));
    ck_assert_int_eq(r.done, 1);
    wsconn_free(&c);
}
END_TEST

/* A request with a body is answered at its head's end: the body is
 * never waited for (it may never come) nor counted against the head's
 * 8 KiB. A GET's is 413, any other method 405 naming the ones allowed. */
START_TEST(a_body_is_answered_at_the_head)
{
    rec_t r;
    wsconn_t c;
    static const char no_body[] = "GET / HTTP/1.1\r\nHost: x\r\n"
        "Content-Length: 5\r\n\r\n";
    ask(no_body, sizeof no_body - 1, &r, &c);
    ck_assert_int_eq(r.done, 1);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 413 Content Too Large\r\n", 32) == 0,
                  "%s", r.out);
    ck_assert_str_eq(c.refused_why, "a request with a body");
    wsconn_free(&c);
    static const char post_head[] = "POST /x HTTP/1.1\r\nHost: x\r\n"
        "Content-Length: 1048576\r\n\r\n";
    ask(post_head, sizeof post_head - 1, &r, &c);
    ck_assert_int_eq(r.done, 1);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 405 Method Not Allowed\r\n"
                          "Allow: GET, HEAD\r\n", 51) == 0, "%s", r.out);
    wsconn_free(&c);
    /* the head and 200 KB of body in one read: 405, not 431 */
    size_t n = 200000 + sizeof post_head;
    char *big = malloc(n);
    ck_assert_ptr_nonnull(big);
    n = (size_t)snprintf(big, n, "POST /x HTTP/1.1\r\nHost: x\r\n"
                         "Content-Length: 200000\r\n\r\n");
    memset(big + n, 'a', 200000);
    ask(big, n + 200000, &r, &c);
    free(big);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 405 ", 13) == 0, "%s", r.out);
    ck_assert_int_eq(r.done, 1);
    wsconn_free(&c);
}
END_TEST

/* A key that is not 16 bytes in base64 (22 letters of its alphabet then
 * "==") is no proper key: 400 (a QA's "!!!" was let in). */
START_TEST(only_a_proper_key_upgrades)
{
    static const struct { const char *key; int opens; } cases[] = {
        { "dGhlIHNhbXBsZSBub25jZQ==", 1 },
        { "AAAAAAAAAAAAAAAAAAAA+/==", 1 },
        { "!!!", 0 },
        { "dGhlIHNhbXBsZSBub25jZQ", 0 },       /* no padding */
        { "dGhlIHNhbXBsZSBub25jZQ=x", 0 },
        { "dGhlIHNhbXBsZSBub25jZ!==", 0 },
        { "dGhlIHNhbXBsZSBub25jZQ==AAAA", 0 }, /* 20 bytes */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char req[512];
        int n = snprintf(req, sizeof req, "GET /ws HTTP/1.1\r\nHost: x\r\n"
                         "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                         "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13"
                         "\r\n\r\n", cases[i].key);
        rec_t r;
        wsconn_t c;
        ask(req, (size_t)n, &r, &c);
        ck_assert_msg(r.opened == cases[i].opens, "%s: %s", cases[i].key,
                      r.out);
        if (!cases[i].opens)
            ck_assert_str_eq(c.refused_why, "a WebSocket upgrade without a "
                             "proper key");
        wsconn_free(&c);
    }
}
END_TEST

/* HTTP/1.x only (505 for another version); an HTTP/1.1 request names its
 * Host, once (400 without one or with two, RFC 9112), an HTTP/1.0 one need
 * not; a URL in absolute form is served by its path; a URL that
 * fills the head's 8 KiB before any header is 414, not 431. */
START_TEST(versions_and_host_are_checked)
{
    rec_t r;
    wsconn_t c;
    static const char *const versions[] = {
        "GET /play HTTP/9.9\r\nHost: x\r\n\r\n",
        "GET /play HTTP/2.0\r\nHost: x\r\n\r\n",
        "GET /play HTTP/0.9\r\nHost: x\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        ask(versions[i], strlen(versions[i]), &r, &c);
        ck_assert_msg(strncmp(r.out, "HTTP/1.1 505 HTTP Version Not "
                              "Supported\r\n", 40) == 0, "%zu: %s", i, r.out);
        ck_assert_str_eq(c.refused_why, "an HTTP version other than 1.x");
        ck_assert_ptr_null(c.file);
        wsconn_free(&c);
    }
    static const char no_host[] = "GET /play HTTP/1.1\r\nX-Any: 1\r\n\r\n";
    ask(no_host, sizeof no_host - 1, &r, &c);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 400 Bad Request\r\n", 26) == 0,
                  "%s", r.out);
    ck_assert_str_eq(c.refused_why, "an HTTP/1.1 request without Host");
    ck_assert_ptr_null(c.file);
    wsconn_free(&c);
    /* an upgrade without Host: the same 400, before its Origin's check */
    static const char up[] = "GET /ws HTTP/1.1\r\nOrigin: https://a.example\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n";
    ask(up, sizeof up - 1, &r, &c);
    ck_assert_int_eq(r.opened, 0);
    ck_assert_str_eq(c.refused_why, "an HTTP/1.1 request without Host");
    wsconn_free(&c);
    /* two Host headers: 400 (RFC 9112 3.2) */
    static const char two[] = "GET /play HTTP/1.1\r\nHost: a\r\n"
                              "Host: b\r\n\r\n";
    ask(two, sizeof two - 1, &r, &c);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 400 Bad Request\r\n", 26) == 0,
                  "%s", r.out);
    ck_assert_str_eq(c.refused_why, "a request with two Host headers");
    wsconn_free(&c);
    /* a URL in absolute form (a proxy's): its path served */
    static const char absolute[] = "GET http://play.example:8023/play "
                                   "HTTP/1.1\r\nHost: play.example\r\n\r\n";
    ask(absolute, sizeof absolute - 1, &r, &c);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 200 OK\r\n", 17) == 0, "%s", r.out);
    ck_assert_ptr_nonnull(c.file);
    wsconn_free(&c);
    static const char v10[] = "GET /play HTTP/1.0\r\n\r\n";
    ask(v10, sizeof v10 - 1, &r, &c);
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 200 OK\r\n", 17) == 0, "%s", r.out);
    ck_assert_ptr_nonnull(c.file);
    wsconn_free(&c);

    memset(&r, 0, sizeof r);
    ck_assert_int_eq(wsconn_init(&c, &cbs, &r, 250, 100), 0);
    ck_assert_int_eq(wsconn_feed(&c, "GET /", 5), 0);
    char chunk[128];
    memset(chunk, 'a', sizeof chunk);
    for (int i = 0; i < WS_HEAD_MAX / (int)sizeof chunk + 2 && !r.done; i++)
        ck_assert_int_eq(wsconn_feed(&c, chunk, sizeof chunk), 0);
    ck_assert_int_eq(r.done, 1);
    r.out[r.out_len] = '\0';
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 414 URI Too Long\r\n", 27) == 0,
                  "%s", r.out);
    ck_assert_str_eq(c.refused_why, "a URL past 8 KiB");
    wsconn_free(&c);
}
END_TEST

/* Every plain-text refusal: UTF-8 text, never cached nor sniffed, one
 * Connection header (the 426's names the upgrade too). */
START_TEST(refusals_are_plain_text_never_cached)
{
    static const char *const reqs[] = {
        "DELETE / HTTP/1.1\r\n\r\n", "GET /ws HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n", "\x16\x03\x01\x02",
        "GET / HTTP/1.1\r\n\r\n", "GET / HTTP/9.9\r\nHost: x\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
        rec_t r;
        wsconn_t c;
        ask(reqs[i], strlen(reqs[i]), &r, &c);
        ck_assert_msg(strstr(r.out, "\r\nContent-Type: text/plain; "
                             "charset=utf-8\r\n"), "%s", r.out);
        ck_assert_msg(strstr(r.out, "\r\nCache-Control: no-store\r\n"), "%s",
                      r.out);
        ck_assert_msg(strstr(r.out, "\r\nX-Content-Type-Options: nosniff\r\n"),
                      "%s", r.out);
        ck_assert_msg(strstr(r.out, "\r\nX-Frame-Options: DENY\r\n"
                             "Content-Security-Policy: frame-ancestors "
                             "'none'\r\n"), "%s", r.out);
        const char *conn = strstr(r.out, "\r\nConnection: ");
        ck_assert_ptr_nonnull(conn);
        ck_assert_ptr_null(strstr(conn + 2, "\r\nConnection: "));
        if (i == 1)
            ck_assert_msg(strstr(r.out, "\r\nConnection: Upgrade, close\r\n"),
                          "%s", r.out);
        wsconn_free(&c);
    }
}
END_TEST

/* HEAD: a file's or a page's head as a GET's, without the body; HEAD /ws
 * and OPTIONS are 405 naming what is allowed. */
START_TEST(head_is_the_get_without_its_body)
{
    rec_t r;
    get("/play", &r, "HEAD");
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 200 OK\r\n", 17) == 0, "%s", r.out);
    char len[64];
    snprintf(len, sizeof len, "\r\nContent-Length: %zu\r\n", web_assets[0].len);
    ck_assert_ptr_nonnull(strstr(r.out, len));
    ck_assert_ptr_null(r.file);
    ck_assert_uint_eq(r.file_len, 0);
    get("/nothing", &r, "HEAD");
    ck_assert(strncmp(r.out, "HTTP/1.1 404 Not Found\r\n", 24) == 0);
    ck_assert_msg(strstr(r.out, "\r\n\r\n")[4] == '\0', "%s", r.out);
    get("/ws", &r, "HEAD");
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 405 Method Not Allowed\r\n"
                          "Allow: GET\r\n", 45) == 0, "%s", r.out);
    get("/", &r, "OPTIONS");
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 405 Method Not Allowed\r\n"
                          "Allow: GET, HEAD\r\n", 51) == 0, "%s", r.out);

    /* a page's answer: its head only, the body dropped */
    memset(&r, 0, sizeof r);
    wsconn_t c;
    ck_assert_int_eq(wsconn_init(&c, &page_cbs, &r, 250, 100), 0);
    static const char head[] = "HEAD /later HTTP/1.1\r\nHost: x\r\n\r\n";
    feed(&c, head, sizeof head - 1, 0);
    ck_assert_str_eq(page_path, "/later");
    char *body = malloc(5);
    memcpy(body, "hello", 5);
    wsconn_reply(&c, "200 OK", "text/html; charset=utf-8", "no-cache", body, 5);
    r.out[r.out_len] = '\0';
    ck_assert_ptr_nonnull(strstr(r.out, "\r\nContent-Length: 5\r\n"));
    ck_assert_ptr_null(c.file);
    ck_assert_uint_eq(c.file_len, 0);
    ck_assert_int_eq(r.done, 1);
    wsconn_free(&c);
}
END_TEST

/* Connection's tokens are read whole however long the list; "upgrade"
 * must be one of them, not part of one. */
START_TEST(a_long_connection_list_still_upgrades)
{
    static const char *const lists[] = {
        "keep-alive, x-some-long-token-name, another-one, Upgrade",
        "Upgrade ,keep-alive", "upgrade-insecure", "up grade", "keep-alive",
    };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        char req[512];
        int n = snprintf(req, sizeof req, "GET /ws HTTP/1.1\r\nHost: x\r\n"
                         "Upgrade: websocket\r\nConnection: %s\r\n"
                         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n", lists[i]);
        for (int one_by_one = 0; one_by_one <= 1; one_by_one++) {
            rec_t r;
            memset(&r, 0, sizeof r);
            wsconn_t c;
            ck_assert_int_eq(wsconn_init(&c, &cbs, &r, 250, 100), 0);
            feed(&c, req, (size_t)n, one_by_one);
            ck_assert_msg(r.opened == (i < 2), "%s: %.*s", lists[i],
                          (int)r.out_len, r.out);
            wsconn_free(&c);
        }
    }
}
END_TEST

/* The query reaches the page whole, or not at all: one past the URL's
 * room (a shared link's tracking tags, 130 bytes in a play-test, were a
 * bare 414) is dropped and the page served as without one, never with a
 * part of it. */
START_TEST(the_query_is_never_cut)
{
    rec_t r;
    memset(&r, 0, sizeof r);
    wsconn_t c;
    ck_assert_int_eq(wsconn_init(&c, &page_cbs, &r, 250, 100), 0);
    char req[512], q[301];
    memset(q, '7', 100);
    q[100] = '\0';
    memcpy(q, "after=", 6);
    int n = snprintf(req, sizeof req, "GET /later?%s HTTP/1.1\r\nHost: x\r\n\r\n",
                 q);
    feed(&c, req, (size_t)n, 0);
    ck_assert_str_eq(page_path, "/later");
    ck_assert_str_eq(page_query, q);
    wsconn_free(&c);

    memset(&r, 0, sizeof r);
    page_path[0] = page_query[0] = '\0';
    ck_assert_int_eq(wsconn_init(&c, &page_cbs, &r, 250, 100), 0);
    memset(q, 'x', 300);
    q[300] = '\0';
    memcpy(q, "after=12&utm_source=", 20);
    n = snprintf(req, sizeof req, "GET /later?%s HTTP/1.1\r\nHost: x\r\n\r\n",
                 q);
    feed(&c, req, (size_t)n, 0);
    ck_assert_str_eq(page_path, "/later");
    ck_assert_str_eq(page_query, "");
    ck_assert_msg(strncmp(r.out, "HTTP/1.1 414 ", 13) != 0, "%s", r.out);
    wsconn_free(&c);
}
END_TEST

/* An upgrade with Origin: from the Host it asks, or a listed one, opens
 * (a default port written or not: a proxy may add or drop it); another
 * site's page (or "null") is 403. Without Origin: no browser's page,
 * opens. */
START_TEST(another_sites_page_cannot_open_the_websocket)
{
    static const struct { const char *headers; int opens; } cases[] = {
        { "Host: play.example\r\n", 1 },
        { "Host: play.example\r\nOrigin: https://play.example\r\n", 1 },
        { "Host: play.example:8023\r\nOrigin: http://PLAY.example:8023\r\n", 1 },
        { "Host: play.example\r\nOrigin: https://evil.example\r\n", 0 },
        { "Host: play.example:8023\r\nOrigin: http://play.example\r\n", 0 },
        { "Host: play.example\r\nOrigin: null\r\n", 0 },
        { "Host: play.example\r\nOrigin: https://friend.example\r\n", 1 },
        { "Host: play.example\r\nOrigin: http://other.example:81\r\n", 1 },
        { "Host: play.example\r\nOrigin: http://other.example\r\n", 0 },
        /* a port other than the default: kept on both sides */
        { "Host: play.example:8443\r\nOrigin: https://play.example:8443\r\n",
          1 },
        { "Host: play.example\r\nOrigin: https://play.example:8443\r\n", 0 },
        { "Host: play.example:8443\r\nOrigin: https://play.example\r\n", 0 },
        { "Host: play.example:443\r\nOrigin: http://play.example:443\r\n", 1 },
        { "Host: play.example\r\nOrigin: http://play.example:443\r\n", 0 },
        /* a default port on either side (the Host's scheme unknown) */
        { "Host: play.example:443\r\nOrigin: https://play.example\r\n", 1 },
        { "Host: play.example:80\r\nOrigin: http://play.example\r\n", 1 },
        { "Host: play.example:80\r\nOrigin: https://play.example\r\n", 1 },
        { "Host: play.example\r\nOrigin: https://play.example:443\r\n", 1 },
        { "Host: play.example\r\nOrigin: http://play.example:80\r\n", 1 },
        { "Host: PLAY.Example:443\r\nOrigin: HTTPS://play.EXAMPLE:443\r\n", 1 },
        /* IPv6 literals: their colons are no port's */
        { "Host: [::1]:8080\r\nOrigin: http://[::1]:8080\r\n", 1 },
        { "Host: [::1]\r\nOrigin: http://[::1]:80\r\n", 1 },
        { "Host: [::1]:80\r\nOrigin: https://[::1]\r\n", 1 },
        { "Host: [::1]:8080\r\nOrigin: http://[::1]\r\n", 0 },
        { "Host: [::80]\r\nOrigin: http://[::]\r\n", 0 },
        { "Host: [::1]\r\nOrigin: http://[::2]\r\n", 0 },
        { "Host: [::1]\r\nOrigin: http://[::2]:8080\r\n", 1 },
        { "Host: [::1]\r\nOrigin: https://[fe80::1]\r\n", 1 },
        /* listed entries: default ports aside too */
        { "Host: play.example\r\nOrigin: http://friend.example:80\r\n", 1 },
        { "Host: play.example\r\nOrigin: https://Friend.Example\r\n", 1 },
        { "Host: play.example\r\nOrigin: https://friend.example:8443\r\n", 0 },
        { "Host: play.example\r\nOrigin: http://[::2]\r\n", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rec_t r;
        memset(&r, 0, sizeof r);
        wsconn_t c;
        ck_assert_int_eq(wsconn_init(&c, &cbs, &r, 250, 100), 0);
        c.origins = "friend.example, https://other.example:81,"
                    "[::2]:8080 https://[fe80::1]:443";
        char req[512];
        int n = snprintf(req, sizeof req, "GET /ws HTTP/1.1\r\n%s"
                         "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n", cases[i].headers);
        feed(&c, req, (size_t)n, 0);
        r.out[r.out_len] = '\0';
        ck_assert_msg(r.opened == cases[i].opens, "%zu: %s", i, r.out);
        if (!cases[i].opens) {
            ck_assert_msg(strncmp(r.out, "HTTP/1.1 403 Forbidden\r\n", 24) == 0,
                          "%zu: %s", i, r.out);
            ck_assert_str_eq(c.refused_why, "a WebSocket upgrade from another "
                             "site's page");
        }
        wsconn_free(&c);
    }
}
END_TEST

/* What wslay would end the connection on without a word (or, for a close
 * of one byte, answer with an empty close) is refused with a close frame,
 * 1002: a control frame past 125 bytes or fragmented, a length not in its
 * shortest form, a close frame whose body is one byte. */
START_TEST(protocol_errors_get_a_close_frame)
{
    static unsigned char long_ping[2 + 2 + 4 + 126] = { 0x89, 0x80 | 126, 0,
                                                        126, 1, 2, 3, 4 };
    static const unsigned char frag_ping[] = { 0x09, 0x81, 1, 2, 3, 4, 'a' };
    static const unsigned char long_form[] = { 0x82, 0x80 | 126, 0, 5, 1, 2, 3,
                                               4, 'a', 'b', 'c', 'd', 'e' };
    /* a close frame's body starts with a 2-byte code: one byte is none */
    static const unsigned char short_close[] = { 0x88, 0x81, 1, 2, 3, 4, 3 };
    const unsigned char *bad[] = { long_ping, frag_ping, long_form,
                                   short_close };
    size_t len[] = { sizeof long_ping, sizeof frag_ping, sizeof long_form,
                     sizeof short_close };
    const char *why[] = { "a WebSocket control frame past 125 bytes",
                          "a fragmented WebSocket control frame",
                          "a WebSocket frame length not in its shortest form",
                          "a WebSocket close frame of one byte" };
    for (int i = 0; i < 4; i++) {
        rec_t r;
        wsconn_t c;
        ask(upgrade, sizeof upgrade - 1, &r, &c);
        r.out_len = 0;
        ck_assert_int_eq(wsconn_feed(&c, bad[i], len[i]), 0);
        ck_assert_int_eq(r.done, 1);
        ck_assert_uint_ge(r.out_len, 4);
        ck_assert_int_eq((unsigned char)r.out[0], 0x88);
        unsigned code = (unsigned char)r.out[2] << 8 | (unsigned char)r.out[3];
        ck_assert_uint_eq(code, 1002);
        ck_assert_str_eq(c.refused, "close 1002");
        ck_assert_str_eq(c.refused_why, why[i]);
        wsconn_free(&c);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("wsconn");
    TCase *tc = tcase_create("wsconn");
    tcase_add_test(tc, accept_key_is_the_rfc_example);
    tcase_add_test(tc, ping_is_answered_pong);
    tcase_add_test(tc, handshake_keys_sizes_and_close);
    tcase_add_test(tc, the_same_one_byte_at_a_time);
    tcase_add_test(tc, resume_and_token_messages);
    tcase_add_test(tc, only_the_page_files_are_served);
    tcase_add_test(tc, files_are_cached_by_their_tags);
    tcase_add_test(tc, a_changed_file_gets_a_new_tag_and_address);
    tcase_add_test(tc, the_font_script_is_served_as_javascript);
    tcase_add_test(tc, oversized_and_malformed_input_end_the_connection);
    tcase_add_test(tc, pages_go_to_the_site);
    tcase_add_test(tc, refusals_are_answered);
    tcase_add_test(tc, a_busy_server_closes_only_a_proper_upgrade);
    tcase_add_test(tc, frames_refused_at_their_header);
    tcase_add_test(tc, the_server_closes_with_1000_or_1001_going_away);
    tcase_add_test(tc, a_body_is_answered_at_the_head);
    tcase_add_test(tc, refusals_are_plain_text_never_cached);
    tcase_add_test(tc, versions_and_host_are_checked);
    tcase_add_test(tc, only_a_proper_key_upgrades);
    tcase_add_test(tc, head_is_the_get_without_its_body);
    tcase_add_test(tc, a_long_connection_list_still_upgrades);
    tcase_add_test(tc, the_query_is_never_cut);
    tcase_add_test(tc, another_sites_page_cannot_open_the_websocket);
    tcase_add_test(tc, protocol_errors_get_a_close_frame);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
