/* fuzz_ssh_link.c - libFuzzer target for the session's side of the SSH
 * link (ssh_link.h): the records an SSH thread writes, as any bytes, cut
 * into reads by the first input byte. Besides the sanitizers it checks
 * the contracts: the keys passed on are never more than the bytes fed, a
 * window is never 0 nor over the maximum, the terminal's name is
 * printable ASCII, and once the link has failed nothing more is passed
 * on and every feed fails. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ssh_link.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct sink {
    size_t keys;
    int failed;
} sink_t;

static void on_data(void *ctx, const char *b, size_t n)
{
    sink_t *s = ctx;
    (void)b;
    if (s->failed)
        abort(); /* keys after the link failed */
    s->keys += n;
}

static void on_resize(void *ctx, int w, int h)
{
    (void)ctx;
    if (w < 1 || h < 1 || w > 250 || h > 100)
        abort();
}

static void on_out(void *ctx, const char *b, size_t n)
{
    (void)ctx, (void)b, (void)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t step = 1 + data[0] % 64;
    data++;
    size--;
    sink_t s = { 0, 0 };
    tconn_t tc;
    tconn_cb_t cb = { on_data, NULL, NULL, on_resize };
    if (tconn_init(&tc, &cb, &s, 250, 100) != 0)
        abort();
    ssh_link_t *l = ssh_link_new(&tc, on_out, &s);
    if (!l)
        abort();
    for (size_t at = 0; at < size; at += step) {
        size_t n = size - at < step ? size - at : step;
        int rc = ssh_transport.feed(l, data + at, n);
        if (s.failed && rc != -1)
            abort();
        if (rc != 0)
            s.failed = 1;
        if (rc != 0 && !ssh_transport.error(l))
            abort();
    }
    if (s.keys > size)
        abort();
    for (const char *p = tc.ttype; *p; p++)
        if (*p <= ' ' || *p >= 127)
            abort();
    tconn_settle(&tc);
    ssh_transport.free(l);
    return 0;
}
