/* fuzz_input.c - libFuzzer target for the server's whole input path, the
 * real modules a session wires together: socket bytes -> telnet_conn
 * (tnfilter, then libtelnet with the server's option table, negotiation,
 * NAWS, TTYPE) -> data -> keydec_feed -> keys.
 *
 * The first two input bytes choose how the rest is split into reads (so that
 * state carried from one read to the next is exercised), whether a cursor
 * report is expected, whether the Esc timer fires between reads, and
 * whether the rest is also handed to our NEW-ENVIRON parser (tconn_environ)
 * as one answer's data, as tnfilter's tap would, so that the parser gets
 * every shape of bytes and not only those a fuzzer finds its way to.
 *
 * Every read also goes to a second connection with `slow` set (every byte
 * through tnfilter and libtelnet, never the fast path: docs/telnet.md),
 * and both must make the same callbacks with the same bytes in the same
 * pieces, the same answers and the same verdict; at the end the input is
 * sent back through both as a frame (255 bytes and all), with the frame
 * marker, and the bytes must be the same too.
 *
 * Besides the sanitizers it checks the contracts: no subnegotiation that
 * tnfilter drops (MSSP, ENVIRON, NEW-ENVIRON, COMPRESS2, ZMP) ever reaching
 * libtelnet's parsers, no data after the connection must end, window sizes
 * within the clamp, every key being a Unicode scalar value or a KEY_*
 * code, and what the client said it can do staying in bounds (NUL-ended
 * printable names and values, a display of known values).
 *
 * Note: the system libtelnet is not built with ASan, so a bad memory access
 * inside libtelnet itself is not seen here (run under valgrind for that);
 * what this target proves is that such input never gets to it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keydec.h"
#include "keys.h"
#include "telnet_conn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define READ_MAX 65536

#define MAX_COLS 500
#define MAX_ROWS 200

/* A running hash of a connection's callbacks: each one's kind, length and
 * bytes (FNV-1a), so that two connections can be compared read by read. */
typedef struct trace {
    uint64_t h;
    unsigned long calls;
} trace_t;

static void trace_add(trace_t *t, char kind, const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = t->h ^ (unsigned char)kind;
    h *= 1099511628211ull;
    for (size_t i = 0; i < sizeof n; i++) {
        h ^= (n >> (8 * i)) & 0xff;
        h *= 1099511628211ull;
    }
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    t->h = h;
    t->calls++;
}

typedef struct fz {
    tconn_t tc;
    keydec_t keys;
    unsigned long nkeys;
    trace_t trace;
} fz_t;

/* The reference: the same bytes, every one through libtelnet. */
typedef struct ref {
    tconn_t tc;
    trace_t trace;
} ref_t;

static void ref_data(void *ctx, const char *bytes, size_t n)
{
    trace_add(&((ref_t *)ctx)->trace, 'D', bytes, n);
}

static void ref_send(void *ctx, const char *bytes, size_t n)
{
    trace_add(&((ref_t *)ctx)->trace, 'S', bytes, n);
}

static void ref_key(void *ctx, int key)
{
    trace_add(&((ref_t *)ctx)->trace, 'K', &key, sizeof key);
}

static void ref_resize(void *ctx, int w, int h)
{
    int wh[2] = { w, h };
    trace_add(&((ref_t *)ctx)->trace, 'R', wh, sizeof wh);
}

static void on_send(void *ctx, const char *bytes, size_t n)
{
    trace_add(&((fz_t *)ctx)->trace, 'S', bytes, n);
}

/* The fast path made the same callbacks as libtelnet, and agrees on the
 * connection's state. */
static void same_as_ref(const fz_t *f, const ref_t *r)
{
    if (f->trace.h != r->trace.h || f->trace.calls != r->trace.calls ||
        (f->tc.error == NULL) != (r->tc.error == NULL) ||
        f->tc.peer != r->tc.peer || f->tc.w != r->tc.w || f->tc.h != r->tc.h ||
        f->tc.subs != r->tc.subs || f->tc.filter.state != r->tc.filter.state)
        abort();
}

static void on_key(void *ctx, const keyev_t *ev)
{
    fz_t *f = ctx;
    int k = ev->key;
    if (k >= KEY_SPECIAL) {
        if (k >= KEY_LAST)
            abort();
        if ((k == KEY_MOUSE || k == KEY_CPR) && (ev->x < 0 || ev->y < 0))
            abort();
    } else if (k <= 0 || (k >= 0x80 && k < 0xa0) ||
               (k >= 0xd800 && k <= 0xdfff)) {
        abort();
    }
    if (k == KEY_CPR)
        keydec_expect_cpr(&f->keys, 0); /* as the server does */
    f->nkeys++;
}

static void on_data(void *ctx, const char *bytes, size_t n)
{
    fz_t *f = ctx;
    if (f->tc.error)
        abort(); /* no keystrokes once the connection must end */
    trace_add(&f->trace, 'D', bytes, n);
    keydec_feed(&f->keys, bytes, n, on_key, f);
}

static void on_cmd_key(void *ctx, int key)
{
    keyev_t k = { key, 0, 0, 0, 0 };
    trace_add(&((fz_t *)ctx)->trace, 'K', &key, sizeof key);
    on_key(ctx, &k);
}

static void on_resize(void *ctx, int w, int h)
{
    int wh[2] = { w, h };
    trace_add(&((fz_t *)ctx)->trace, 'R', wh, sizeof wh);
    if (w < 1 || h < 1 || w > MAX_COLS || h > MAX_ROWS)
        abort();
}

/* s is NUL-ended within n bytes and printable ASCII. */
static void check_text(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    if (len == n)
        abort();
    for (size_t i = 0; i < len; i++)
        if (s[i] < ' ' || s[i] > '~')
            abort();
}

/* What the client said it can do: in bounds. */
static void check_caps(const tconn_t *t)
{
    const tconn_caps_t *c = t->caps;
    if (c) {
        if (c->nttypes > TCONN_TTYPES_MAX)
            abort();
        for (int i = 0; i < c->nttypes; i++)
            check_text(c->ttypes[i], sizeof c->ttypes[i]);
        check_text(c->env_term, sizeof c->env_term);
        check_text(c->env_colorterm, sizeof c->env_colorterm);
        check_text(c->env_lang, sizeof c->env_lang);
        check_text(c->env_lc_all, sizeof c->env_lc_all);
        check_text(c->env_lc_ctype, sizeof c->env_lc_ctype);
        check_text(c->env_charset, sizeof c->env_charset);
    }
    check_text(t->ttype, sizeof t->ttype);
    display_t d = tconn_display(t);
    if (d.glyphs > GLYPHS_UTF8 || d.colours > COLOURS_TRUE)
        abort();
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 16;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const size_t maxread[8] = { 1, 2, 3, 5, 16, 64, 512, READ_MAX };
    static const tconn_cb_t cb = { on_data, on_send, on_cmd_key, on_resize };
    static const tconn_cb_t ref_cb = { ref_data, ref_send, ref_key, ref_resize };
    fz_t f;
    ref_t r;
    uint32_t seed;

    if (size < 2)
        return 0;
    seed = (uint32_t)data[0] | (uint32_t)data[1] << 8;
    data += 2;
    size -= 2;

    memset(&f, 0, sizeof f);
    keydec_init(&f.keys);
    keydec_expect_cpr(&f.keys, seed & 1);
    memset(&r, 0, sizeof r);
    if (tconn_init(&f.tc, &cb, &f, MAX_COLS, MAX_ROWS) != 0 ||
        tconn_init(&r.tc, &ref_cb, &r, MAX_COLS, MAX_ROWS) != 0) {
        tconn_free(&f.tc);
        tconn_free(&r.tc);
        return 0;
    }
    r.tc.slow = 1;
    tconn_start(&f.tc);
    tconn_start(&r.tc);

    size_t biggest = maxread[(seed >> 1) & 7];
    int timer = (seed >> 4) & 1;
    if ((seed >> 5) & 1) {
        tconn_environ(&f.tc, data, size);
        tconn_environ(&r.tc, data, size);
        check_caps(&f.tc);
    }
    size_t at = 0;
    while (at < size) {
        size_t n = 1 + lcg(&seed) % biggest;
        if (n > size - at)
            n = size - at;
        int rc = tconn_feed(&f.tc, data + at, n);
        if (tconn_feed(&r.tc, data + at, n) != rc)
            abort();
        same_as_ref(&f, &r);
        at += n;
        if (f.tc.bad_subs)
            abort(); /* tnfilter must have dropped it */
        if (rc != 0) {
            if (!f.tc.error || tconn_feed(&f.tc, "x", 1) != -1)
                abort(); /* an ended connection stays ended */
            break; /* the session closes */
        }
        /* sometimes the Esc timer fires between two reads */
        if (timer && keydec_pending(&f.keys) && (lcg(&seed) & 3) == 0)
            keydec_timeout(&f.keys, on_key, &f);
    }
    keydec_timeout(&f.keys, on_key, &f);
    if (keydec_pending(&f.keys))
        abort();
    check_caps(&f.tc);
    tconn_settle(&f.tc); /* as the session does when negotiation ends */
    tconn_settle(&r.tc);
    check_caps(&f.tc);
    /* the input as a frame, 255 bytes and all, then the frame marker */
    tconn_send(&f.tc, data, size);
    tconn_send(&r.tc, data, size);
    tconn_nop(&f.tc);
    tconn_nop(&r.tc);
    same_as_ref(&f, &r);
    tconn_free(&f.tc);
    tconn_free(&r.tc);
    return 0;
}
