/* proxy_proto.c - PROXY protocol v1 and v2 headers, trusted balancers
 * (proxy_proto.h). */
#include "proxy_proto.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char v2sig[12] = {
    0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a
};
#define V1_MAX 107

void proxy_init(proxy_parser_t *p)
{
    memset(p, 0, sizeof *p);
}

static int bad(proxy_parser_t *p, const char *why)
{
    p->error = why;
    return PROXY_BAD;
}

int proxy_looks_like_header(const void *bytes, size_t n)
{
    return (n >= 6 && memcmp(bytes, "PROXY ", 6) == 0) ||
           (n >= sizeof v2sig && memcmp(bytes, v2sig, sizeof v2sig) == 0);
}

/* A decimal port, 0..65535, no sign, no leading zero but "0". */
static int parse_port(const char *s, uint16_t *out)
{
    size_t n = strlen(s);
    if (n == 0 || n > 5 || (n > 1 && s[0] == '0'))
        return -1;
    unsigned long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (unsigned long)(s[i] - '0');
    }
    if (v > 65535)
        return -1;
    *out = (uint16_t)v;
    return 0;
}

/* "PROXY TCP4 src dst sport dport" (line without CR LF). */
static int parse_v1(proxy_parser_t *p, char *line)
{
    char *f[7];
    int n = 0;
    for (char *tok = line, *sp; n < 7; tok = sp + 1) {
        f[n++] = tok;
        sp = strchr(tok, ' ');
        if (!sp)
            break;
        *sp = '\0';
    }
    if (n < 2 || strcmp(f[0], "PROXY") != 0)
        return bad(p, "not a PROXY v1 header");
    if (strcmp(f[1], "UNKNOWN") == 0)
        return PROXY_DONE; /* the rest of the line does not matter */
    if (n != 6)
        return bad(p, "a PROXY v1 header needs 6 fields");
    uint16_t sport, dport;
    if (parse_port(f[4], &sport) != 0 || parse_port(f[5], &dport) != 0)
        return bad(p, "a PROXY v1 header with a bad port");
    if (strcmp(f[1], "TCP4") == 0) {
        struct sockaddr_in *a = (struct sockaddr_in *)&p->addr;
        struct in_addr dst;
        if (inet_pton(AF_INET, f[2], &a->sin_addr) != 1 ||
            inet_pton(AF_INET, f[3], &dst) != 1)
            return bad(p, "a PROXY v1 header with a bad IPv4 address");
        a->sin_family = AF_INET;
        a->sin_port = htons(sport);
    } else if (strcmp(f[1], "TCP6") == 0) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&p->addr;
        struct in6_addr dst;
        if (inet_pton(AF_INET6, f[2], &a->sin6_addr) != 1 ||
            inet_pton(AF_INET6, f[3], &dst) != 1)
            return bad(p, "a PROXY v1 header with a bad IPv6 address");
        a->sin6_family = AF_INET6;
        a->sin6_port = htons(sport);
    } else {
        return bad(p, "a PROXY v1 header of an unknown protocol");
    }
    p->has_addr = 1;
    return PROXY_DONE;
}

static int try_v1(proxy_parser_t *p)
{
    /* The CR LF must end the line within V1_MAX bytes. */
    for (size_t i = 0; i + 1 < p->len && i + 2 <= V1_MAX; i++)
        if (p->buf[i] == '\r' && p->buf[i + 1] == '\n') {
            char line[V1_MAX + 1];
            for (size_t k = 0; k < i; k++)
                if (p->buf[k] < ' ' || p->buf[k] > '~')
                    return bad(p, "a PROXY v1 header with a control byte");
            memcpy(line, p->buf, i);
            line[i] = '\0';
            p->header_len = i + 2;
            return parse_v1(p, line);
        }
    if (p->len >= V1_MAX)
        return bad(p, "a PROXY v1 header longer than 107 bytes");
    return PROXY_MORE;
}

static int try_v2(proxy_parser_t *p)
{
    if (p->len < 16)
        return PROXY_MORE;
    unsigned ver = p->buf[12] >> 4, cmd = p->buf[12] & 0xf;
    unsigned fam = p->buf[13];
    size_t len = (size_t)p->buf[14] << 8 | p->buf[15];
    if (ver != 2 || cmd > 1)
        return bad(p, "a PROXY v2 header of an unknown version or command");
    if (16 + len > PROXY_HEADER_MAX)
        return bad(p, "a PROXY v2 header longer than the server accepts");
    if (p->len < 16 + len)
        return PROXY_MORE;
    p->header_len = 16 + len;
    if (cmd == 0)
        return PROXY_DONE; /* LOCAL: the balancer's own connection */
    const unsigned char *b = p->buf + 16;
    if (fam == 0x11) { /* TCP over IPv4: src, dst, sport, dport */
        if (len < 12)
            return bad(p, "a PROXY v2 IPv4 header too short");
        struct sockaddr_in *a = (struct sockaddr_in *)&p->addr;
        a->sin_family = AF_INET;
        memcpy(&a->sin_addr, b, 4);
        memcpy(&a->sin_port, b + 8, 2);
        p->has_addr = 1;
    } else if (fam == 0x21) { /* TCP over IPv6 */
        if (len < 36)
            return bad(p, "a PROXY v2 IPv6 header too short");
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&p->addr;
        a->sin6_family = AF_INET6;
        memcpy(&a->sin6_addr, b, 16);
        memcpy(&a->sin6_port, b + 32, 2);
        p->has_addr = 1;
    } else if ((fam & 0xf0) > 0x30 || (fam & 0x0f) > 2) {
        return bad(p, "a PROXY v2 header of an unknown family");
    }
    /* Unspecified, UDP or a UNIX socket: no address we can use. */
    return PROXY_DONE;
}

int proxy_feed(proxy_parser_t *p, const void *bytes, size_t n, size_t *used)
{
    size_t before = p->len;
    size_t take = n < sizeof p->buf - p->len ? n : sizeof p->buf - p->len;
    memcpy(p->buf + p->len, bytes, take);
    p->len += take;
    *used = 0;
    int rc;
    size_t sig = p->len < sizeof v2sig ? p->len : sizeof v2sig;
    if (memcmp(p->buf, v2sig, sig) == 0)
        rc = p->len < sizeof v2sig ? PROXY_MORE : try_v2(p);
    else if (memcmp(p->buf, "PROXY ", p->len < 6 ? p->len : 6) == 0)
        rc = p->len < 6 ? PROXY_MORE : try_v1(p);
    else
        rc = bad(p, "no PROXY header");
    if (rc == PROXY_DONE)
        *used = p->header_len - before;
    else if (rc == PROXY_MORE && p->len == sizeof p->buf)
        rc = bad(p, "a PROXY header longer than the server accepts");
    else if (rc == PROXY_MORE)
        *used = take;
    return rc;
}

/* --- trusted balancers ------------------------------------------------------ */

int proxy_trust_parse(proxy_trust_t *t, const char *list, char *err,
                      size_t errlen)
{
    char copy[1024];
    memset(t, 0, sizeof *t);
    snprintf(copy, sizeof copy, "%s", list);
    for (char *tok = strtok(copy, ", "); tok; tok = strtok(NULL, ", ")) {
        if (t->n == PROXY_TRUST_MAX) {
            snprintf(err, errlen, "proxy_trusted: at most %d entries",
                     PROXY_TRUST_MAX);
            return -1;
        }
        char *slash = strchr(tok, '/');
        if (slash)
            *slash = '\0';
        int fam = strchr(tok, ':') ? AF_INET6 : AF_INET;
        int max = fam == AF_INET ? 32 : 128;
        int prefix = max;
        if (slash) {
            char *end;
            long v = strtol(slash + 1, &end, 10);
            if (*end || end == slash + 1 || v < 0 || v > max) {
                snprintf(err, errlen, "proxy_trusted: bad prefix length in '%s/%s'",
                         tok, slash + 1);
                return -1;
            }
            prefix = (int)v;
        }
        if (inet_pton(fam, tok, t->net[t->n].addr) != 1) {
            snprintf(err, errlen, "proxy_trusted: '%s' is not an IP address", tok);
            return -1;
        }
        t->net[t->n].family = fam;
        t->net[t->n].prefix = prefix;
        t->n++;
    }
    return 0;
}

static int prefix_match(const unsigned char *a, const unsigned char *b,
                        int bits)
{
    int whole = bits / 8, rest = bits % 8;
    if (memcmp(a, b, (size_t)whole) != 0)
        return 0;
    if (rest == 0)
        return 1;
    unsigned char mask = (unsigned char)(0xff << (8 - rest));
    return (a[whole] & mask) == (b[whole] & mask);
}

int proxy_trusted(const proxy_trust_t *t, const struct sockaddr *a)
{
    unsigned char v4[4], v6[16];
    int fam = a->sa_family;
    if (fam == AF_INET) {
        memcpy(v4, &((const struct sockaddr_in *)a)->sin_addr, 4);
    } else if (fam == AF_INET6) {
        memcpy(v6, &((const struct sockaddr_in6 *)a)->sin6_addr, 16);
        static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                  0xff, 0xff };
        if (memcmp(v6, mapped, 12) == 0) {
            fam = AF_INET;
            memcpy(v4, v6 + 12, 4);
        }
    } else {
        return 0;
    }
    for (int i = 0; i < t->n; i++) {
        if (t->net[i].family != fam)
            continue;
        if (prefix_match(fam == AF_INET ? v4 : v6, t->net[i].addr,
                         t->net[i].prefix))
            return 1;
    }
    return 0;
}
