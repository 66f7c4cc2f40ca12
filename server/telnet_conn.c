/* telnet_conn.c - one client's telnet (telnet_conn.h). */
#include "telnet_conn.h"

#include <stdio.h>
#include <string.h>

#include "keys.h"

/* Our side of the option table (docs/telnet.md, "What we negotiate"). */
static const telnet_telopt_t telopts[] = {
    { TELNET_TELOPT_ECHO, TELNET_WILL, TELNET_DONT },
    { TELNET_TELOPT_SGA, TELNET_WILL, TELNET_DO },
    { TELNET_TELOPT_NAWS, TELNET_WONT, TELNET_DO },
    { TELNET_TELOPT_TTYPE, TELNET_WONT, TELNET_DO },
    { -1, 0, 0 }
};

/* Options whose subnegotiations tnfilter drops before libtelnet. */
static int filtered_option(unsigned char opt)
{
    return opt == TELNET_TELOPT_MSSP || opt == TELNET_TELOPT_COMPRESS2 ||
           opt == TELNET_TELOPT_ENVIRON || opt == TELNET_TELOPT_NEW_ENVIRON ||
           opt == TELNET_TELOPT_ZMP;
}

static void fail(tconn_t *t, const char *why)
{
    if (!t->error)
        t->error = why;
}

static void on_naws(tconn_t *t, const unsigned char *b, size_t n)
{
    if (n != 4)
        return; /* malformed: as if never sent */
    int w = b[0] << 8 | b[1], h = b[2] << 8 | b[3];
    t->got_naws = 1;
    if (w == 0 || h == 0)
        return; /* 0 means unknown (RFC 1073): keep what we have */
    if (w > t->max_cols)
        w = t->max_cols;
    if (h > t->max_rows)
        h = t->max_rows;
    if (w == t->w && h == t->h)
        return;
    t->w = w;
    t->h = h;
    if (t->cb.resize)
        t->cb.resize(t->ctx, w, h);
}

static void on_ttype(tconn_t *t, const char *name)
{
    /* Ask again while the answer changes, at most 3 times (RFC 1091: a
     * repeat ends the list). Only the first answer names the terminal. */
    char clean[sizeof t->ttype];
    size_t j = 0;
    for (size_t i = 0; name[i] && j + 1 < sizeof clean; i++)
        if (name[i] > ' ' && name[i] < 127)
            clean[j++] = name[i];
    clean[j] = '\0';
    int repeat = t->ttype_asks > 0 && strcmp(clean, t->ttype) == 0;
    if (t->ttype_asks == 1 || t->ttype[0] == '\0')
        memcpy(t->ttype, clean, j + 1);
    if (repeat || t->ttype_asks >= 3) {
        t->ttype_done = 1;
        return;
    }
    t->ttype_asks++;
    telnet_ttype_send(t->telnet);
}

static void on_event(telnet_t *tel, telnet_event_t *ev, void *user)
{
    tconn_t *t = user;
    (void)tel;
    if (ev->type != TELNET_EV_DATA && ev->type != TELNET_EV_SEND)
        t->peer = 1;
    switch (ev->type) {
    case TELNET_EV_DATA:
        if (!t->error && t->cb.data)
            t->cb.data(t->ctx, ev->data.buffer, ev->data.size);
        break;
    case TELNET_EV_SEND:
        if (t->cb.send)
            t->cb.send(t->ctx, ev->data.buffer, ev->data.size);
        break;
    case TELNET_EV_DO:
    case TELNET_EV_DONT:
        if (ev->neg.telopt == TELNET_TELOPT_ECHO)
            t->got_echo = 1;
        break;
    case TELNET_EV_WILL:
        if (ev->neg.telopt == TELNET_TELOPT_TTYPE && t->ttype_asks == 0) {
            t->ttype_asks = 1;
            telnet_ttype_send(t->telnet);
        }
        break;
    case TELNET_EV_WONT:
        if (ev->neg.telopt == TELNET_TELOPT_NAWS)
            t->got_naws = 1;
        if (ev->neg.telopt == TELNET_TELOPT_TTYPE)
            t->ttype_done = 1;
        break;
    case TELNET_EV_SUBNEGOTIATION:
        t->subs++;
        if (filtered_option(ev->sub.telopt))
            t->bad_subs++;
        if (ev->sub.telopt == TELNET_TELOPT_NAWS && !t->error)
            on_naws(t, (const unsigned char *)ev->sub.buffer, ev->sub.size);
        break;
    case TELNET_EV_TTYPE:
        if (ev->ttype.cmd == TELNET_TTYPE_IS && ev->ttype.name && !t->error)
            on_ttype(t, ev->ttype.name);
        break;
    case TELNET_EV_IAC:
        if (t->error || !t->cb.key)
            break;
        if (ev->iac.cmd == TELNET_EC)
            t->cb.key(t->ctx, KEY_BACKSPACE);
        else if (ev->iac.cmd == TELNET_IP)
            t->cb.key(t->ctx, KEY_CTRL_C);
        break;
    case TELNET_EV_WARNING:
        /* libtelnet 0.21 passes the rest of an oversized subnegotiation on
         * as DATA, that is as keystrokes: end the connection instead.
         * Other warnings are harmless. */
        if (ev->error.msg && strstr(ev->error.msg, "subnegotiation buffer size"))
            fail(t, "oversized subnegotiation");
        break;
    case TELNET_EV_ERROR:
        fail(t, "telnet protocol error");
        break;
    default:
        break;
    }
}

int tconn_init(tconn_t *t, const tconn_cb_t *cb, void *ctx, int max_cols,
               int max_rows)
{
    memset(t, 0, sizeof *t);
    if (cb)
        t->cb = *cb;
    t->ctx = ctx;
    t->max_cols = max_cols;
    t->max_rows = max_rows;
    tnfilter_init(&t->filter);
    t->telnet = telnet_init(telopts, on_event, 0, t);
    return t->telnet ? 0 : -1;
}

void tconn_free(tconn_t *t)
{
    if (t->telnet)
        telnet_free(t->telnet);
    t->telnet = NULL;
}

void tconn_start(tconn_t *t)
{
    telnet_negotiate(t->telnet, TELNET_WILL, TELNET_TELOPT_ECHO);
    telnet_negotiate(t->telnet, TELNET_WILL, TELNET_TELOPT_SGA);
    telnet_negotiate(t->telnet, TELNET_DO, TELNET_TELOPT_NAWS);
    telnet_negotiate(t->telnet, TELNET_DO, TELNET_TELOPT_TTYPE);
}

int tconn_feed(tconn_t *t, const void *bytes, size_t n)
{
    /* tnfilter's output is at most its input plus what it held back. */
    enum { CHUNK = 4096 };
    unsigned char out[CHUNK + TNFILTER_HELD_MAX];
    const unsigned char *p = bytes;
    while (n > 0 && !t->error) {
        size_t k = n < CHUNK ? n : CHUNK;
        long m = tnfilter_feed(&t->filter, p, k, out, sizeof out);
        if (m < 0) {
            fail(t, "oversized subnegotiation");
            break;
        }
        if (m > 0)
            telnet_recv(t->telnet, (const char *)out, (size_t)m);
        p += k;
        n -= k;
    }
    return t->error ? -1 : 0;
}

void tconn_send(tconn_t *t, const void *data, size_t n)
{
    telnet_send(t->telnet, data, n);
}

void tconn_nop(tconn_t *t)
{
    if (t->peer)
        telnet_iac(t->telnet, TELNET_NOP);
}

int tconn_negotiated(const tconn_t *t)
{
    return t->got_echo && t->got_naws && t->ttype_done;
}
