/* cluster_proto.c - parsing and formatting what hosts say to each other
 * (cluster_proto.h): a cursor over bounded bytes, nothing read past len. */
#include "cluster_proto.h"

#include <stdio.h>
#include <string.h>

typedef struct cur {
    const char *p;
    size_t len, at;
} cur_t;

static int at_end(const cur_t *c)
{
    return c->at >= c->len;
}

/* One space, then something. */
static int space(cur_t *c)
{
    if (c->at + 1 >= c->len || c->p[c->at] != ' ')
        return -1;
    c->at++;
    return 0;
}

/* An unsigned decimal of at most 20 digits, no larger than max. */
static int u64(cur_t *c, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    size_t start = c->at;
    while (c->at < c->len && c->p[c->at] >= '0' && c->p[c->at] <= '9') {
        unsigned d = (unsigned)(c->p[c->at] - '0');
        if (c->at - start >= 20 || v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
        c->at++;
    }
    if (c->at == start)
        return -1;
    *out = v;
    return 0;
}

/* A signed decimal in [min, max] (min >= -1: only "-1" is negative). */
static int i64(cur_t *c, int64_t min, int64_t max, int64_t *out)
{
    if (c->at < c->len && c->p[c->at] == '-') {
        if (min > -1 || c->at + 1 >= c->len || c->p[c->at + 1] != '1')
            return -1;
        c->at += 2;
        *out = -1;
        return 0;
    }
    uint64_t v;
    if (u64(c, (uint64_t)max, &v) != 0 || (int64_t)v < min)
        return -1;
    *out = (int64_t)v;
    return 0;
}

/* A channel name up to the next space or the end. */
static int chan(cur_t *c, char *out)
{
    size_t n = 0;
    while (c->at < c->len && c->p[c->at] != ' ') {
        char ch = c->p[c->at];
        if (n >= CLUSTER_CHAN_MAX ||
            !((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'))
            return -1;
        out[n++] = ch;
        c->at++;
    }
    out[n] = '\0';
    return n > 0 ? 0 : -1;
}

/* The rest of the payload: printable ASCII, at most max bytes, at least
 * min. */
static int rest(cur_t *c, char *out, size_t max, size_t min)
{
    size_t n = c->len - c->at;
    if (n > max || n < min)
        return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)c->p[c->at + i];
        if (ch < 0x20 || ch > 0x7e)
            return -1;
        out[i] = (char)ch;
    }
    out[n] = '\0';
    c->at = c->len;
    return 0;
}

int cluster_chan_ok(const char *s)
{
    cur_t c = { s, strlen(s), 0 };
    char tmp[CLUSTER_CHAN_MAX + 1];
    return chan(&c, tmp) == 0 && at_end(&c);
}

static int keys(cur_t *c, cluster_note_t *out)
{
    out->nkeys = 0;
    for (;;) {
        uint64_t k;
        if (out->nkeys >= CLUSTER_KEYS_MAX || u64(c, CLUSTER_KEY_LIMIT, &k) != 0)
            return -1;
        out->keys[out->nkeys++] = (int32_t)k;
        if (at_end(c))
            return 0;
        if (c->p[c->at] != ',')
            return -1;
        c->at++;
    }
}

int cluster_note_parse(const char *p, size_t len, cluster_note_t *out)
{
    if (!p || len < 3 || len > CLUSTER_PAYLOAD_MAX)
        return -1;
    memset(out, 0, offsetof(cluster_note_t, keys));
    cur_t c = { p, len, 1 };
    out->kind = p[0];
    if (space(&c) != 0 || u64(&c, UINT64_MAX, &out->id) != 0 || out->id == 0)
        return -1;
    int rc = -1;
    int64_t v = 0;
    switch (out->kind) {
    case 'J':
        rc = space(&c) || chan(&c, out->chan) || space(&c) ||
             u64(&c, UINT64_MAX, &out->sess) || out->sess == 0;
        break;
    case 'L':
        rc = space(&c) || chan(&c, out->chan);
        break;
    case 'S':
        rc = space(&c) || u64(&c, UINT64_MAX, &out->seed) || space(&c) ||
             i64(&c, 0, INT64_MAX, &out->nbytes) || space(&c) ||
             i64(&c, 1, INT64_MAX, &out->account) || space(&c) ||
             rest(&c, out->name, ACCT_NAME_MAX, 1);
        break;
    case 'K':
        rc = space(&c) || u64(&c, UINT64_MAX, &out->seq) || space(&c) ||
             keys(&c, out);
        break;
    case 'W':
    case 'E':
    case 'R':
        rc = space(&c) || rest(&c, out->text, CLUSTER_TEXT_MAX, 1);
        break;
    case 'T':
        rc = space(&c) || chan(&c, out->chan) || space(&c) ||
             i64(&c, 1, INT64_MAX, &out->account);
        break;
    case 'D':
        rc = space(&c) || i64(&c, -1, INT64_MAX, &v) || space(&c) ||
             u64(&c, UINT64_MAX, &out->seed);
        out->nbytes = v;
        break;
    default:
        return -1;
    }
    return rc == 0 && at_end(&c) ? 0 : -1;
}

int cluster_game_format(const cluster_game_t *g, char *out, size_t cap,
                        size_t *len)
{
    char name[ACCT_NAME_MAX + 1];
    size_t n = 0;
    for (size_t i = 0; g->name[i] && n < ACCT_NAME_MAX; i++)
        if (g->name[i] > 0x20 && g->name[i] < 0x7f)
            name[n++] = g->name[i];
    name[n] = '\0';
    if (n == 0 || *len >= cap)
        return -1;
    int w = snprintf(out + *len, cap - *len, "%llu %d %d %d %d %s\n",
                     (unsigned long long)g->sess, g->depth < 0 ? 0 : g->depth,
                     g->turns < 0 ? 0 : g->turns,
                     g->watchers < 0 ? 0 : g->watchers,
                     g->idle_s < 0 ? 0 : g->idle_s, name);
    if (w < 0 || (size_t)w >= cap - *len) {
        out[*len] = '\0';
        return -1;
    }
    *len += (size_t)w;
    return 0;
}

/* One line (no newline in it). */
static int game_line(const char *p, size_t len, cluster_game_t *g)
{
    cur_t c = { p, len, 0 };
    int64_t v[4];
    if (u64(&c, UINT64_MAX, &g->sess) != 0 || g->sess == 0)
        return -1;
    for (int i = 0; i < 4; i++)
        if (space(&c) != 0 || i64(&c, 0, 1000000000, &v[i]) != 0)
            return -1;
    g->depth = (int)v[0];
    g->turns = (int)v[1];
    g->watchers = (int)v[2];
    g->idle_s = (int)v[3];
    if (space(&c) != 0)
        return -1;
    size_t n = len - c.at;
    if (n < 1 || n > ACCT_NAME_MAX)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char ch = p[c.at + i];
        if (ch <= 0x20 || ch >= 0x7f)
            return -1;
        g->name[i] = ch;
    }
    g->name[n] = '\0';
    return 0;
}

int cluster_games_parse(const char *p, size_t len, cluster_game_t *out,
                        int max)
{
    int n = 0;
    size_t at = 0;
    while (at < len && n < max) {
        const char *nl = memchr(p + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - p) : len;
        if (game_line(p + at, end - at, &out[n]) == 0)
            n++;
        at = end + 1;
    }
    return n;
}
