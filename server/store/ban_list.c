/* ban_list.c - the bans a host honours, in memory (ban_list.h). */
#include "ban_list.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include "accounts.h"

/* Clears the bits of a past its first `bits`. */
static void mask(uint8_t *a, int len, int bits)
{
    for (int i = 0; i < len; i++) {
        int keep = bits - i * 8;
        a[i] &= keep >= 8 ? 0xff : keep <= 0 ? 0 : (uint8_t)(0xff << (8 - keep));
    }
}

int ban_parse_target(const char *text, ban_target_t *t, char *err,
                     size_t errlen)
{
    memset(t, 0, sizeof *t);
    char addr[64];
    const char *slash = strchr(text, '/');
    size_t alen = slash ? (size_t)(slash - text) : strlen(text);
    if (alen < sizeof addr) {
        memcpy(addr, text, alen);
        addr[alen] = '\0';
        if (inet_pton(AF_INET, addr, t->addr) == 1)
            t->family = AF_INET;
        else if (inet_pton(AF_INET6, addr, t->addr) == 1)
            t->family = AF_INET6;
    }
    if (t->family) {
        int max = t->family == AF_INET ? 32 : 128;
        t->bits = max;
        if (slash) {
            char *end;
            long bits = strtol(slash + 1, &end, 10);
            if (!slash[1] || *end || bits < 0 || bits > max) {
                snprintf(err, errlen, "the prefix of %s is not 0 to %d", text,
                         max);
                return -1;
            }
            t->bits = (int)bits;
        }
        mask(t->addr, max / 8, t->bits);
        char net[INET6_ADDRSTRLEN];
        inet_ntop(t->family, t->addr, net, sizeof net);
        snprintf(t->text, sizeof t->text, "%s/%d", net, t->bits);
        return 0;
    }
    if (slash || !acct_name_valid(text, NULL, 0)) {
        snprintf(err, errlen, "%.80s is neither an address (ADDRESS[/BITS]) "
                 "nor an account name", text);
        return -1;
    }
    size_t i = 0;
    for (; text[i] && i < sizeof t->text - 1; i++)
        t->text[i] = (char)tolower((unsigned char)text[i]);
    t->text[i] = '\0';
    return 0;
}

int ban_parse_duration(const char *text, int64_t *minutes)
{
    char *end;
    long long n = strtoll(text, &end, 10);
    if (end == text || n <= 0 || n > 1000000 || !end[0] || end[1])
        return -1;
    switch (*end) {
    case 'm': *minutes = n; return 0;
    case 'h': *minutes = n * 60; return 0;
    case 'd': *minutes = n * 60 * 24; return 0;
    default: return -1;
    }
}

/* ip read in family's form into out: an IPv4 client on a listener bound
 * to :: comes as ::ffff:a.b.c.d, which an IPv4 ban covers as a.b.c.d (a
 * host QA banned 127.15.0.1 and it played on); an IPv4 address is
 * ::ffff:a.b.c.d to an IPv6 range. 1 if ip reads so. */
static int ip_as(int family, const char *ip, uint8_t out[16])
{
    struct in6_addr v6;
    struct in_addr v4;
    if (inet_pton(family, ip, out) == 1)
        return 1;
    if (family == AF_INET) { /* (as addr_key reads it: addr_limits.c) */
        if (inet_pton(AF_INET6, ip, &v6) != 1 || !IN6_IS_ADDR_V4MAPPED(&v6))
            return 0;
        memcpy(out, &v6.s6_addr[12], 4);
        return 1;
    }
    if (inet_pton(AF_INET, ip, &v4) != 1)
        return 0;
    memset(out, 0, 10);
    out[10] = out[11] = 0xff; /* ::ffff:a.b.c.d */
    memcpy(out + 12, &v4, 4);
    return 1;
}

int ban_target_covers(const ban_target_t *t, const char *ip)
{
    uint8_t a[16];
    if (!t->family || !ip_as(t->family, ip, a))
        return 0;
    mask(a, t->family == AF_INET ? 4 : 16, t->bits);
    return memcmp(a, t->addr, t->family == AF_INET ? 4 : 16) == 0;
}

int ban_list_init(ban_list_t *l)
{
    memset(l, 0, sizeof *l);
    return pthread_mutex_init(&l->mu, NULL) == 0 ? 0 : -1;
}

void ban_list_free(ban_list_t *l)
{
    free(l->bans);
    free(l->targets);
    l->bans = NULL;
    l->targets = NULL;
    l->n = 0;
    pthread_mutex_destroy(&l->mu);
}

int ban_list_set(ban_list_t *l, const store_ban_t *bans, size_t n)
{
    store_ban_t *b = n ? malloc(n * sizeof *b) : NULL;
    ban_target_t *t = n ? malloc(n * sizeof *t) : NULL;
    if (n && (!b || !t)) {
        free(b);
        free(t);
        return -1;
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        char err[160];
        if (ban_parse_target(bans[i].target, &t[kept], err, sizeof err) != 0)
            continue; /* (not one ban_parse_target wrote) */
        b[kept++] = bans[i];
    }
    pthread_mutex_lock(&l->mu);
    free(l->bans);
    free(l->targets);
    l->bans = b;
    l->targets = t;
    l->n = kept;
    pthread_mutex_unlock(&l->mu);
    return 0;
}

static int in_force(const store_ban_t *b, int64_t now_ms)
{
    return b->until_ms == 0 || b->until_ms > now_ms;
}

/* The latest end among the bans in force that match `what`: an address,
 * or (by_name) an account's name (0 wins: for good). */
static int find(ban_list_t *l, const char *what, int by_name,
                int64_t now_ms, int64_t *until_ms)
{
    int found = 0;
    int64_t until = -1;
    pthread_mutex_lock(&l->mu);
    for (size_t i = 0; i < l->n; i++) {
        const store_ban_t *b = &l->bans[i];
        const ban_target_t *t = &l->targets[i];
        if (!in_force(b, now_ms))
            continue;
        int match = by_name ? !t->family && strcasecmp(t->text, what) == 0
                            : ban_target_covers(t, what);
        if (!match)
            continue;
        found = 1;
        if (until != 0 && (b->until_ms == 0 || b->until_ms > until))
            until = b->until_ms;
    }
    pthread_mutex_unlock(&l->mu);
    if (found && until_ms)
        *until_ms = until;
    return found;
}

int ban_list_addr(ban_list_t *l, const char *ip, int64_t now_ms,
                  int64_t *until_ms)
{
    return find(l, ip, 0, now_ms, until_ms);
}

int ban_list_name(ban_list_t *l, const char *name, int64_t now_ms,
                  int64_t *until_ms)
{
    return find(l, name, 1, now_ms, until_ms);
}

size_t ban_list_copy(ban_list_t *l, int64_t now_ms, store_ban_t **out)
{
    *out = NULL;
    size_t n = 0;
    pthread_mutex_lock(&l->mu);
    store_ban_t *c = l->n ? malloc(l->n * sizeof *c) : NULL;
    for (size_t i = 0; c && i < l->n; i++)
        if (in_force(&l->bans[i], now_ms))
            c[n++] = l->bans[i];
    pthread_mutex_unlock(&l->mu);
    if (n == 0) {
        free(c);
        return 0;
    }
    *out = c;
    return n;
}

void ban_format_until(int64_t until_ms, char *out, size_t outlen)
{
    if (until_ms == 0) {
        snprintf(out, outlen, "for good");
        return;
    }
    time_t t = (time_t)(until_ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, outlen, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

void ban_say(char *out, size_t outlen, const char *subject, int64_t until_ms)
{
    char when[48];
    ban_format_until(until_ms, when, sizeof when);
    if (until_ms)
        snprintf(out, outlen, "%s is banned until %s.", subject, when);
    else
        snprintf(out, outlen, "%s is banned.", subject);
}

int64_t ban_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
