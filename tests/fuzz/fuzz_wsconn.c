/* fuzz_wsconn.c - libFuzzer target for what parses the browser's bytes
 * (wsconn.h): an HTTP request, then WebSocket frames, fed in reads of the
 * size the first input byte picks. A second form starts already upgraded
 * (the second byte's low bit), so the frame path is reached at once.
 * Besides the sanitizers it checks the contracts: a failure says why, a
 * resize stays within the limits given, a message never exceeds WS_MSG_MAX,
 * and nothing is handed on once the exchange is done. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wsconn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct seen {
    int done;
} seen_t;

static void f_send(void *ctx, const char *b, size_t n) { (void)ctx; (void)b; (void)n; }
static void f_open(void *ctx) { (void)ctx; }
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

static const char upgrade[] =
    "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    "Sec-WebSocket-Version: 13\r\n\r\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t step = 1 + data[0] % 128;
    int open = data[1] & 1;
    data += 2;
    size -= 2;
    seen_t seen = { 0 };
    wsconn_cb_t cb = { f_send, f_open, f_data, f_resize, f_done, NULL };
    wsconn_t c;
    if (wsconn_init(&c, &cb, &seen, 250, 100) != 0)
        return 0;
    if (open && wsconn_feed(&c, upgrade, sizeof upgrade - 1) != 0)
        abort();
    for (size_t at = 0; at < size; at += step) {
        size_t n = size - at < step ? size - at : step;
        if (wsconn_feed(&c, data + at, n) != 0) {
            if (!c.error || !c.error[0])
                abort();
            break;
        }
    }
    wsconn_send(&c, "x", 1);
    wsconn_close(&c, 0);
    wsconn_free(&c);
    return 0;
}
