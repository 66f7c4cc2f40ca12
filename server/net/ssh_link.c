/* ssh_link.c - the SSH thread's records, written and read (ssh_link.h). */
#include "ssh_link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t ssh_link_header(char *out, char type, size_t n)
{
    out[0] = type;
    out[1] = (char)(n >> 8);
    out[2] = (char)n;
    return 3;
}

size_t ssh_link_record(char *out, char type, const void *data, size_t n)
{
    ssh_link_header(out, type, n);
    if (n)
        memcpy(out + 3, data, n);
    return 3 + n;
}

size_t ssh_link_size(char *out, int w, int h)
{
    char b[4] = { (char)(w >> 8), (char)w, (char)(h >> 8), (char)h };
    return ssh_link_record(out, 'W', b, 4);
}

ssh_link_t *ssh_link_new(tconn_t *tc, void (*send)(void *, const char *,
                                                   size_t), void *ctx)
{
    ssh_link_t *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->tc = tc;
    l->send = send;
    l->ctx = ctx;
    /* a terminal, not nc: no tip about stty (and tc has no send callback,
     * so its frame markers and keepalives reach nobody) */
    tc->peer = 1;
    tc->got_echo = tc->got_naws = tc->ttype_done = 1;
    return l;
}

/* "NAME=value" (or the terminal's name as TERM) as a NEW-ENVIRON answer,
 * which the telnet module reads into what the client can show: the same
 * detection as a telnet client's (docs/telnet.md). The thread sent
 * printable ASCII; anything else is dropped here too. */
static void on_env(ssh_link_t *l, const char *name, const char *value)
{
    unsigned char is[2 + 2 * SSH_LINK_TEXT_MAX + 2];
    size_t n = 0;
    is[n++] = 0; /* IS */
    is[n++] = 3; /* USERVAR */
    for (const char *p = name; *p; p++)
        if (*p > ' ' && *p < 127)
            is[n++] = (unsigned char)*p;
    is[n++] = 1; /* VALUE */
    for (const char *p = value; *p; p++)
        if (*p >= ' ' && *p < 127)
            is[n++] = (unsigned char)*p;
    tconn_environ(l->tc, is, n);
}

/* A whole 'T', 'E' or 'W' record (its kept bytes in l->text). */
static void on_record(ssh_link_t *l, char type)
{
    l->text[l->ntext] = '\0';
    if (type == 'W' && l->ntext == 4) {
        const unsigned char *b = (const unsigned char *)l->text;
        tconn_window(l->tc, b[0] << 8 | b[1], b[2] << 8 | b[3]);
    } else if (type == 'T' && l->ntext == 0) {
        /* no terminal asked for (ssh -T): told the player; VT100 */
        l->tc->no_pty = 1;
        snprintf(l->tc->ttype, sizeof l->tc->ttype, "VT100");
        on_env(l, "TERM", l->tc->ttype);
    } else if (type == 'T') {
        char *ttype = l->tc->ttype;
        size_t j = 0;
        for (const char *p = l->text; *p && j + 1 < sizeof l->tc->ttype; p++)
            if (*p > ' ' && *p < 127)
                ttype[j++] = *p;
        ttype[j] = '\0';
        on_env(l, "TERM", ttype);
    } else if (type == 'E') {
        char *eq = strchr(l->text, '=');
        if (eq) {
            *eq = '\0';
            on_env(l, l->text, eq + 1);
        }
    }
}

static int feed(void *conn, const void *bytes, size_t n)
{
    ssh_link_t *l = conn;
    const unsigned char *p = bytes;
    while (n > 0 && !l->error) {
        if (l->nhdr < 3) {
            l->hdr[l->nhdr++] = *p++;
            n--;
            if (l->nhdr < 3)
                continue;
            l->left = (uint16_t)(l->hdr[1] << 8 | l->hdr[2]);
            l->ntext = 0;
            if (!strchr("TEWGD", l->hdr[0]) || l->hdr[0] == 0) {
                l->error = "ssh link: unknown record"; /* a bug, not a client */
                break;
            }
        }
        size_t k = n < l->left ? n : l->left;
        if (l->hdr[0] == 'D' && k > 0) {
            if (l->tc->cb.data)
                l->tc->cb.data(l->tc->ctx, (const char *)p, k);
        } else {
            for (size_t i = 0; i < k; i++)
                if (l->ntext < SSH_LINK_TEXT_MAX)
                    l->text[l->ntext++] = (char)p[i];
        }
        p += k;
        n -= k;
        l->left = (uint16_t)(l->left - k);
        if (l->left > 0)
            break; /* the rest comes with the next read */
        if (l->hdr[0] == 'G')
            l->ready = 1;
        else if (l->hdr[0] != 'D')
            on_record(l, (char)l->hdr[0]);
        l->nhdr = 0;
    }
    return l->error ? -1 : 0;
}

static void send_raw(void *conn, const void *data, size_t n)
{
    ssh_link_t *l = conn;
    l->send(l->ctx, data, n);
}

static int ready(const void *conn)
{
    return ((const ssh_link_t *)conn)->ready;
}

static void link_free(void *conn)
{
    ssh_link_t *l = conn;
    tconn_free(l->tc);
    free(l);
}

static const char *error(const void *conn)
{
    return ((const ssh_link_t *)conn)->error;
}

const transport_t ssh_transport = {
    "ssh", feed, send_raw, NULL, ready, NULL, link_free, error
};
