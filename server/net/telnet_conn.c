/* telnet_conn.c - one client's telnet (telnet_conn.h). */
#include "telnet_conn.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "keys.h"

/* Our side of the option table (docs/telnet.md, "What the server
 * negotiates"). */
static const telnet_telopt_t telopts[] = {
    { TELNET_TELOPT_ECHO, TELNET_WILL, TELNET_DONT },
    { TELNET_TELOPT_SGA, TELNET_WILL, TELNET_DO },
    { TELNET_TELOPT_NAWS, TELNET_WONT, TELNET_DO },
    { TELNET_TELOPT_TTYPE, TELNET_WONT, TELNET_DO },
    /* only answered: we never ask (docs/telnet.md, "NEW-ENVIRON") */
    { TELNET_TELOPT_NEW_ENVIRON, TELNET_WONT, TELNET_DO },
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
    t->got_naws = 1;
    tconn_window(t, b[0] << 8 | b[1], b[2] << 8 | b[3]);
}

void tconn_window(tconn_t *t, int w, int h)
{
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

/* name as printable ASCII in out (size n), cut to fit. keep_spaces: the
 * list keeps "MTTS 2825" as sent; the first name (ttype, for the log)
 * drops them, as it always has. */
static size_t clean_name(char *out, size_t n, const char *name, int keep_spaces)
{
    size_t j = 0;
    for (size_t i = 0; name[i] && j + 1 < n; i++)
        if ((name[i] > ' ' || (keep_spaces && name[i] == ' ')) && name[i] < 127)
            out[j++] = name[i];
    out[j] = '\0';
    return j;
}

static void on_ttype(tconn_t *t, const char *name)
{
    /* Ask again while the answers are new (RFC 1091: a client ends its list
     * by repeating the last name; some start over at the first), at most
     * TCONN_TTYPES_MAX rounds. A MUD client's third name is "MTTS <bits>"
     * (docs/telnet.md). Only the first answer names the terminal. Once
     * settled, a late answer only ends the asking. */
    char clean[sizeof t->ttype], full[TCONN_NAME_MAX];
    size_t j = clean_name(clean, sizeof clean, name, 0);
    clean_name(full, sizeof full, name, 1);
    if (t->ttype_asks == 1 || t->ttype[0] == '\0')
        memcpy(t->ttype, clean, j + 1);
    tconn_caps_t *c = t->caps;
    int repeat = !c;
    for (int i = 0; c && i < c->nttypes; i++)
        repeat |= strcmp(c->ttypes[i], full) == 0;
    if (!repeat && c->nttypes < TCONN_TTYPES_MAX)
        memcpy(c->ttypes[c->nttypes++], full, sizeof full);
    if (repeat || t->ttype_asks >= TCONN_TTYPES_MAX) {
        t->ttype_done = 1;
        return;
    }
    t->ttype_asks++;
    telnet_ttype_send(t->telnet);
}

/* --- NEW-ENVIRON (RFC 1572) ---------------------------------------------- */

enum { ENV_IS = 0, ENV_SEND = 1, ENV_INFO = 2,
       ENV_VAR = 0, ENV_VALUE = 1, ENV_ESC = 2, ENV_USERVAR = 3 };

/* Our one question, sent once the client agrees to NEW-ENVIRON: CHARSET
 * as MUD clients name it (a VAR, as MNES has it), the rest as a telnet
 * client's exported variables (USERVARs). Small on purpose: some clients
 * overflow on long requests (docs/telnet.md). libtelnet's own
 * telnet_begin_newenviron drops the SEND byte: the bytes are ours. */
static const char env_request[] =
    "\x01" "\x00" "CHARSET" "\x03" "TERM" "\x03" "COLORTERM" "\x03" "LANG"
    "\x03" "LC_ALL" "\x03" "LC_CTYPE";

/* One variable of an answer: kept if it is one we asked for. */
static void env_set(tconn_caps_t *c, const char *name, const char *value)
{
    static const struct { const char *name; size_t off; } vars[] = {
        { "TERM", offsetof(tconn_caps_t, env_term) },
        { "COLORTERM", offsetof(tconn_caps_t, env_colorterm) },
        { "LANG", offsetof(tconn_caps_t, env_lang) },
        { "LC_ALL", offsetof(tconn_caps_t, env_lc_all) },
        { "LC_CTYPE", offsetof(tconn_caps_t, env_lc_ctype) },
        { "CHARSET", offsetof(tconn_caps_t, env_charset) },
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (strcmp(name, vars[i].name) == 0)
            snprintf((char *)c + vars[i].off, TCONN_ENV_MAX, "%s", value);
}

void tconn_environ(tconn_t *t, const unsigned char *b, size_t n)
{
    /* IS or INFO, then: (VAR | USERVAR) name [VALUE value], again and
     * again; ESC makes the next byte plain. A name or value longer than
     * its room is cut (a cut name matches nothing); bytes other than
     * printable ASCII are dropped from values. */
    if (n == 0 || (b[0] != ENV_IS && b[0] != ENV_INFO) || !t->caps)
        return;
    if (b[0] == ENV_IS)
        t->env_done = 1;
    char name[TCONN_ENV_MAX], value[TCONN_ENV_MAX];
    size_t nl = 0, vl = 0;
    int in_var = 0, in_value = 0, has_value = 0, cut = 0;
    for (size_t i = 1; i <= n; i++) {
        int end = i == n;
        unsigned char c = end ? 0 : b[i];
        if (end || c == ENV_VAR || c == ENV_USERVAR) {
            if (in_var && has_value && !cut) {
                name[nl] = value[vl] = '\0';
                env_set(t->caps, name, value);
            }
            in_var = 1;
            in_value = has_value = cut = 0;
            nl = vl = 0;
            continue;
        }
        if (!in_var)
            continue; /* before the first variable: nothing to read */
        if (c == ENV_VALUE && !in_value) {
            in_value = has_value = 1;
            continue;
        }
        if (c == ENV_VALUE) {
            cut = 1; /* a second VALUE: malformed, the variable is dropped */
            continue;
        }
        if (c == ENV_ESC) {
            if (++i >= n)
                break; /* ESC as the last byte: the variable is dropped */
            c = b[i];
        }
        if (in_value) {
            if (c >= ' ' && c < 127 && vl + 1 < sizeof value)
                value[vl++] = (char)c;
        } else if (nl + 1 < sizeof name) {
            name[nl++] = (char)c;
        } else {
            cut = 1;
        }
    }
}

static void on_environ_sb(void *ctx, const unsigned char *data, size_t n)
{
    tconn_t *t = ctx;
    if (!t->error)
        tconn_environ(t, data, n);
}

/* A WONT or DONT from the client, seen by tnfilter while negotiating:
 * libtelnet 0.21 changes its state silently on a refusal of what we asked
 * (docs/telnet.md, pitfall 2), so without this a client refusing NAWS,
 * TTYPE or ECHO waited the whole negotiation_ms. A refusal answers the
 * question as a yes would: negotiation can end as soon as all are in. */
static void on_refused(void *ctx, unsigned char cmd, unsigned char opt)
{
    tconn_t *t = ctx;
    if (cmd == TELNET_DONT && opt == TELNET_TELOPT_ECHO)
        t->got_echo = t->echo_refused = 1;
    if (cmd != TELNET_WONT)
        return;
    if (opt == TELNET_TELOPT_NAWS)
        t->got_naws = 1;
    else if (opt == TELNET_TELOPT_TTYPE)
        t->ttype_done = 1;
    else if (opt == TELNET_TELOPT_NEW_ENVIRON)
        t->env_done = 1;
}

/* --- what the client can show ---------------------------------------------- */

/* 1 if s contains word, any case. */
static int has_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (; *s; s++)
        if (strncasecmp(s, word, n) == 0)
            return 1;
    return 0;
}

static void raise_to(display_t *d, display_t by)
{
    if (by.glyphs > d->glyphs)
        d->glyphs = by.glyphs;
    if (by.colours > d->colours)
        d->colours = by.colours;
}

/* The MTTS bits (docs/telnet.md): 4 UTF-8, 8 256 colours, 256 truecolor. */
static display_t display_of_mtts(uint32_t bits)
{
    display_t d = DISPLAY_PLAIN;
    if (bits & 4)
        d.glyphs = GLYPHS_UTF8;
    if (bits & 256)
        d.colours = COLOURS_TRUE;
    else if (bits & 8)
        d.colours = COLOURS_256;
    return d;
}

/* "MTTS <n>": n (up to 2^31 - 1), or 0 if name is not one. */
static uint32_t mtts_of(const char *name)
{
    if (strncasecmp(name, "MTTS", 4) != 0)
        return 0;
    const char *p = name + 4;
    while (*p == ' ')
        p++;
    if (!isdigit((unsigned char)*p))
        return 0;
    uint32_t v = 0;
    for (; isdigit((unsigned char)*p); p++) {
        if (v > 214748364u)
            return 0; /* too big to be a real bit field */
        v = v * 10 + (uint32_t)(*p - '0');
    }
    return *p == '\0' ? v : 0;
}

display_t tconn_display_of_name(const char *name)
{
    display_t d = DISPLAY_PLAIN;
    uint32_t mtts = mtts_of(name);
    if (mtts)
        return display_of_mtts(mtts);
    if (has_word(name, "-DIRECT") || has_word(name, "-TRUECOLOR") ||
        has_word(name, "-24BIT"))
        d.colours = COLOURS_TRUE;
    else if (has_word(name, "-256COLOR"))
        d.colours = COLOURS_256;
    return d;
}

/* A locale or charset that says UTF-8 ("en_US.UTF-8", "C.utf8", "UTF-8"). */
static int says_utf8(const char *v)
{
    return has_word(v, "UTF-8") || has_word(v, "UTF8");
}

display_t tconn_display(const tconn_t *t)
{
    const tconn_caps_t *c = t->caps;
    if (!c)
        return t->settled;
    display_t d = DISPLAY_PLAIN;
    for (int i = 0; i < c->nttypes; i++)
        raise_to(&d, tconn_display_of_name(c->ttypes[i]));
    raise_to(&d, tconn_display_of_name(c->env_term));
    if (strcasecmp(c->env_colorterm, "truecolor") == 0 ||
        strcasecmp(c->env_colorterm, "24bit") == 0)
        d.colours = COLOURS_TRUE;
    /* The locale's character set, as a C library reads it: LC_ALL, else
     * LC_CTYPE, else LANG (the first that is set and not empty). */
    const char *locale = c->env_lc_all[0] ? c->env_lc_all
                         : c->env_lc_ctype[0] ? c->env_lc_ctype : c->env_lang;
    if (says_utf8(locale) || says_utf8(c->env_charset))
        d.glyphs = GLYPHS_UTF8;
    return d;
}

display_t tconn_settle(tconn_t *t)
{
    tconn_caps_t *c = t->caps;
    if (!c)
        return t->settled;
    t->settled = tconn_display(t);
    tnfilter_set_tap(&t->filter, NULL);
    free(c);
    t->caps = NULL;
    return t->settled;
}

static void on_event(telnet_t *tel, telnet_event_t *ev, void *user)
{
    tconn_t *t = user;
    (void)tel;
    if (t->mute)
        return;
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
        if (ev->neg.telopt == TELNET_TELOPT_ECHO) {
            t->got_echo = 1;
            /* DONT: the client echoes (its line mode); DO: ours again */
            t->echo_refused = ev->type == TELNET_EV_DONT;
        }
        break;
    case TELNET_EV_WILL:
        if (ev->neg.telopt == TELNET_TELOPT_TTYPE && t->ttype_asks == 0) {
            t->ttype_asks = 1;
            telnet_ttype_send(t->telnet);
        }
        if (ev->neg.telopt == TELNET_TELOPT_NEW_ENVIRON && !t->env_asked &&
            t->caps && !t->error) {
            t->env_asked = 1;
            telnet_subnegotiation(t->telnet, TELNET_TELOPT_NEW_ENVIRON,
                                  env_request, sizeof env_request - 1);
        }
        break;
    case TELNET_EV_WONT:
        if (ev->neg.telopt == TELNET_TELOPT_NAWS)
            t->got_naws = 1;
        if (ev->neg.telopt == TELNET_TELOPT_TTYPE)
            t->ttype_done = 1;
        if (ev->neg.telopt == TELNET_TELOPT_NEW_ENVIRON)
            t->env_done = 1;
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
    t->settled = DISPLAY_PLAIN;
    t->caps = calloc(1, sizeof *t->caps);
    if (!t->caps)
        return -1;
    t->caps->env_tap.opt = TELNET_TELOPT_NEW_ENVIRON;
    t->caps->env_tap.fn = on_environ_sb;
    t->caps->env_tap.refused = on_refused;
    t->caps->env_tap.ctx = t;
    tnfilter_set_tap(&t->filter, &t->caps->env_tap);
    t->telnet = telnet_init(telopts, on_event, 0, t);
    return t->telnet ? 0 : -1;
}

void tconn_free(tconn_t *t)
{
    if (t->telnet)
        telnet_free(t->telnet);
    t->telnet = NULL;
    free(t->caps);
    t->caps = NULL;
}

void tconn_start(tconn_t *t)
{
    telnet_negotiate(t->telnet, TELNET_WILL, TELNET_TELOPT_ECHO);
    telnet_negotiate(t->telnet, TELNET_WILL, TELNET_TELOPT_SGA);
    telnet_negotiate(t->telnet, TELNET_DO, TELNET_TELOPT_NAWS);
    telnet_negotiate(t->telnet, TELNET_DO, TELNET_TELOPT_TTYPE);
}

void tconn_resume_options(tconn_t *t, int line_mode)
{
    const unsigned char yes[] = {
        TELNET_IAC, line_mode ? TELNET_DONT : TELNET_DO, TELNET_TELOPT_ECHO,
        TELNET_IAC, TELNET_DO, TELNET_TELOPT_SGA,
        TELNET_IAC, TELNET_WILL, TELNET_TELOPT_NAWS,
        TELNET_IAC, TELNET_WILL, TELNET_TELOPT_TTYPE,
    };
    t->mute = 1;
    tconn_start(t);
    telnet_recv(t->telnet, (const char *)yes, sizeof yes);
    t->mute = 0;
    t->echo_refused = line_mode != 0;
}

/* --- the bytes in and out, and the fast path (docs/telnet.md) ------------- */

enum { CHUNK = 4096 }; /* client bytes filtered and parsed at a time */

/* One chunk (at most CHUNK bytes) through tnfilter and libtelnet. Apart
 * from the fast path, for its stack buffer. */
static void feed_slow(tconn_t *t, const unsigned char *p, size_t k)
{
    /* tnfilter's output is at most its input plus what it held back. */
    unsigned char out[CHUNK + TNFILTER_HELD_MAX];
    long m = tnfilter_feed(&t->filter, p, k, out, sizeof out);
    if (m < 0)
        fail(t, "oversized subnegotiation");
    else if (m > 0)
        telnet_recv(t->telnet, (const char *)out, (size_t)m);
}

/* The fast path in: between telnet commands (tnfilter_plain: libtelnet is
 * in its data state too) a chunk without a 255 byte would pass the filter
 * unchanged and come out of libtelnet as one DATA event of the same bytes,
 * leaving both where they were; CR is plain data to libtelnet 0.21 (no
 * NVT end-of-line option in it) and to the filter. So it goes where that
 * event would: on_event's TELNET_EV_DATA. 1 if it did. */
static int feed_plain(tconn_t *t, const unsigned char *p, size_t k)
{
    if (t->slow || !tnfilter_plain(&t->filter) || memchr(p, TELNET_IAC, k))
        return 0;
    if (t->cb.data)
        t->cb.data(t->ctx, (const char *)p, k);
    return 1;
}

int tconn_feed(tconn_t *t, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    while (n > 0 && !t->error) {
        size_t k = n < CHUNK ? n : CHUNK;
        if (!feed_plain(t, p, k))
            feed_slow(t, p, k);
        p += k;
        n -= k;
    }
    return t->error ? -1 : 0;
}

void tconn_send(tconn_t *t, const void *data, size_t n)
{
    /* The fast path out: libtelnet's telnet_send hands a buffer without a
     * 255 to on_event's TELNET_EV_SEND whole, in one event (it never
     * compresses: we never start COMPRESS2), and nothing for 0 bytes. */
    if (n == 0)
        return;
    if (t->slow || memchr(data, TELNET_IAC, n)) {
        telnet_send(t->telnet, data, n); /* each 255 doubled */
        return;
    }
    if (t->cb.send)
        t->cb.send(t->ctx, data, n);
}

void tconn_nop(tconn_t *t)
{
    static const char nop[2] = { (char)TELNET_IAC, (char)TELNET_NOP };
    if (!t->peer)
        return;
    if (t->slow)
        telnet_iac(t->telnet, TELNET_NOP);
    else if (t->cb.send)
        t->cb.send(t->ctx, nop, sizeof nop); /* telnet_iac's one event */
}

int tconn_negotiated(const tconn_t *t)
{
    return t->got_echo && t->got_naws && t->ttype_done &&
           (!t->env_asked || t->env_done);
}

/* --- the session's table (transport.h) ------------------------------------ */

static int tr_feed(void *conn, const void *bytes, size_t n)
{
    return tconn_feed(conn, bytes, n);
}

static void tr_send(void *conn, const void *data, size_t n)
{
    tconn_t *t = conn;
    if (t->telnet)
        tconn_send(t, data, n);
}

static void tr_start(void *conn)
{
    tconn_start(conn); /* one write: our four options */
}

static int tr_ready(const void *conn)
{
    return tconn_negotiated(conn);
}

static void tr_free(void *conn)
{
    tconn_free(conn);
}

static const char *tr_error(const void *conn)
{
    return ((const tconn_t *)conn)->error;
}

const transport_t telnet_transport = {
    "telnet", tr_feed, tr_send, tr_start, tr_ready, NULL, tr_free, tr_error
};
