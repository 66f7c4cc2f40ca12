/* fuzz_input.c - libFuzzer target for the server's whole input path, wired as
 * a session wires it: socket bytes -> tnfilter_feed -> telnet_recv (a server
 * telnet_t with the server's option table) -> DATA -> keydec_feed -> keys.
 *
 * The first two input bytes choose how the rest is split into reads (so that
 * state carried from one read to the next is exercised), whether a cursor
 * report is expected, and whether the Esc timer fires between reads.
 *
 * Besides the sanitizers it checks the contracts: tnfilter's output bound,
 * no subnegotiation tnfilter drops (MSSP, ENVIRON, NEW-ENVIRON, COMPRESS2,
 * ZMP) ever reaching libtelnet's parsers, and every key being a Unicode
 * scalar value or a KEY_* code.
 *
 * Note: the system libtelnet is not built with ASan, so a bad memory access
 * inside libtelnet itself is not seen here (run under valgrind for that);
 * what this target proves is that such input never gets to it. */
#include <stdarg.h> /* libtelnet.h uses size_t and va_list without them */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libtelnet.h>

#include "keydec.h"
#include "keys.h"
#include "tnfilter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define READ_MAX 65536

typedef struct fz {
    telnet_t *telnet;
    keydec_t keys;
    int closed;          /* the session would close now */
    char ttype[40];
    int w, h;
    unsigned long nkeys;
} fz_t;

static const telnet_telopt_t telopts[] = {
    { TELNET_TELOPT_ECHO, TELNET_WILL, TELNET_DONT },
    { TELNET_TELOPT_SGA, TELNET_WILL, TELNET_DO },
    { TELNET_TELOPT_NAWS, TELNET_WONT, TELNET_DO },
    { TELNET_TELOPT_TTYPE, TELNET_WONT, TELNET_DO },
    { -1, 0, 0 }
};

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

static void on_telnet(telnet_t *t, telnet_event_t *ev, void *ud)
{
    fz_t *f = ud;
    (void)t;
    switch (ev->type) {
    case TELNET_EV_SEND:
        break;
    case TELNET_EV_DATA:
        keydec_feed(&f->keys, ev->data.buffer, ev->data.size, on_key, f);
        break;
    case TELNET_EV_IAC: {
        keyev_t k = { 0, 0, 0, 0, 0 };
        if (ev->iac.cmd == TELNET_EC)
            k.key = KEY_BACKSPACE;
        else if (ev->iac.cmd == TELNET_IP)
            k.key = KEY_CTRL_C;
        if (k.key)
            on_key(f, &k);
        break;
    }
    case TELNET_EV_SUBNEGOTIATION:
        switch (ev->sub.telopt) {
        case TELNET_TELOPT_MSSP:
        case TELNET_TELOPT_COMPRESS2:
        case TELNET_TELOPT_ENVIRON:
        case TELNET_TELOPT_NEW_ENVIRON:
        case TELNET_TELOPT_ZMP:
            abort(); /* tnfilter must have dropped it */
        default:
            break;
        }
        if (ev->sub.telopt == TELNET_TELOPT_NAWS && ev->sub.size == 4) {
            const unsigned char *b = (const unsigned char *)ev->sub.buffer;
            f->w = b[0] << 8 | b[1];
            f->h = b[2] << 8 | b[3];
        }
        break;
    case TELNET_EV_TTYPE:
        /* the name is freed after the callback: copy it */
        if (ev->ttype.cmd == TELNET_TTYPE_IS && ev->ttype.name) {
            size_t n = strlen(ev->ttype.name);
            if (n >= sizeof f->ttype)
                n = sizeof f->ttype - 1;
            memcpy(f->ttype, ev->ttype.name, n);
            f->ttype[n] = '\0';
        }
        break;
    case TELNET_EV_MSSP:
    case TELNET_EV_COMPRESS:
    case TELNET_EV_ENVIRON:
    case TELNET_EV_ZMP:
        abort();
    case TELNET_EV_WARNING:
        if (ev->error.msg && strstr(ev->error.msg, "subnegotiation buffer size"))
            f->closed = 1;
        break;
    case TELNET_EV_ERROR:
        f->closed = 1;
        break;
    default:
        break;
    }
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 16;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned char out[READ_MAX + TNFILTER_HELD_MAX];
    static const size_t maxread[8] = { 1, 2, 3, 5, 16, 64, 512, READ_MAX };
    tnfilter_t filter;
    fz_t f;
    uint32_t seed;

    if (size < 2)
        return 0;
    seed = (uint32_t)data[0] | (uint32_t)data[1] << 8;
    data += 2;
    size -= 2;

    memset(&f, 0, sizeof f);
    tnfilter_init(&filter);
    keydec_init(&f.keys);
    keydec_expect_cpr(&f.keys, seed & 1);
    f.telnet = telnet_init(telopts, on_telnet, 0, &f);
    if (!f.telnet)
        return 0;

    size_t biggest = maxread[(seed >> 1) & 7];
    int timer = (seed >> 4) & 1;
    size_t at = 0;
    while (at < size && !f.closed) {
        size_t n = 1 + lcg(&seed) % biggest;
        if (n > size - at)
            n = size - at;
        long m = tnfilter_feed(&filter, data + at, n, out, sizeof out);
        at += n;
        if (m < 0)
            break; /* oversized subnegotiation: the session closes */
        if ((size_t)m > n + TNFILTER_HELD_MAX)
            abort();
        if (m > 0)
            telnet_recv(f.telnet, (const char *)out, (size_t)m);
        /* sometimes the Esc timer fires between two reads */
        if (timer && keydec_pending(&f.keys) && (lcg(&seed) & 3) == 0)
            keydec_timeout(&f.keys, on_key, &f);
    }
    keydec_timeout(&f.keys, on_key, &f);
    if (keydec_pending(&f.keys))
        abort();
    telnet_free(f.telnet);
    return 0;
}
