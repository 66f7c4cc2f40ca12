/* test_proxy_proto.c - PROXY protocol headers (v1 text, v2 binary) split
 * at every byte, what follows them left to the client, malformed and
 * oversized ones refused, and the trusted balancers' networks. */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <string.h>

#include "check_main.h"
#include "proxy_proto.h"

/* Feeds h + tail cut at `cut`; returns the result and checks that exactly
 * the header's bytes were taken. */
static int feed_cut(proxy_parser_t *p, const unsigned char *b, size_t n,
                    size_t cut, size_t header)
{
    size_t used, total = 0;
    proxy_init(p);
    int rc = PROXY_MORE;
    if (cut > 0 && cut < n) {
        rc = proxy_feed(p, b, cut, &used);
        total += used;
        if (rc != PROXY_MORE)
            goto out;
        rc = proxy_feed(p, b + cut, n - cut, &used);
        total += used;
    } else {
        rc = proxy_feed(p, b, n, &used);
        total += used;
    }
out:
    if (rc == PROXY_DONE)
        ck_assert_uint_eq(total, header);
    return rc;
}

static void expect_v4(const proxy_parser_t *p, const char *ip, int port)
{
    const struct sockaddr_in *a = (const struct sockaddr_in *)&p->addr;
    char got[INET_ADDRSTRLEN];
    ck_assert(p->has_addr);
    ck_assert_int_eq(a->sin_family, AF_INET);
    inet_ntop(AF_INET, &a->sin_addr, got, sizeof got);
    ck_assert_str_eq(got, ip);
    ck_assert_int_eq(ntohs(a->sin_port), port);
}

START_TEST(v1_tcp4_at_every_cut)
{
    static const char h[] = "PROXY TCP4 203.0.113.7 10.0.0.1 56324 2323\r\n";
    unsigned char b[128];
    size_t hl = strlen(h);
    memcpy(b, h, hl);
    memcpy(b + hl, "\xff\xfd\x18xyz", 6); /* the client's own bytes */
    proxy_parser_t p;
    for (size_t cut = 0; cut < hl + 6; cut++) {
        ck_assert_int_eq(feed_cut(&p, b, hl + 6, cut, hl), PROXY_DONE);
        expect_v4(&p, "203.0.113.7", 56324);
    }
}
END_TEST

START_TEST(v1_tcp6_and_unknown)
{
    static const char h6[] = "PROXY TCP6 2001:db8::5 2001:db8::1 4000 23\r\n";
    proxy_parser_t p;
    size_t used;
    proxy_init(&p);
    ck_assert_int_eq(proxy_feed(&p, h6, strlen(h6), &used), PROXY_DONE);
    ck_assert(p.has_addr);
    const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&p.addr;
    char got[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, &a->sin6_addr, got, sizeof got);
    ck_assert_str_eq(got, "2001:db8::5");
    ck_assert_int_eq(ntohs(a->sin6_port), 4000);
    static const char hu[] = "PROXY UNKNOWN whatever follows\r\nrest";
    proxy_init(&p);
    ck_assert_int_eq(proxy_feed(&p, hu, strlen(hu), &used), PROXY_DONE);
    ck_assert(!p.has_addr);
    ck_assert_uint_eq(used, strlen(hu) - 4);
}
END_TEST

START_TEST(v1_malformed_refused)
{
    static const char *const bad[] = {
        "PROXY TCP4 203.0.113.7 10.0.0.1 56324\r\n",       /* 5 fields */
        "PROXY TCP4 203.0.113.7 10.0.0.1 56324 2323 x\r\n", /* 7 */
        "PROXY TCP4 203.0.113.999 10.0.0.1 1 2\r\n",
        "PROXY TCP4 ::1 ::1 1 2\r\n",
        "PROXY TCP6 10.0.0.1 10.0.0.2 1 2\r\n",
        "PROXY TCP4 1.2.3.4 1.2.3.4 65536 2\r\n",
        "PROXY TCP4 1.2.3.4 1.2.3.4 01 2\r\n",
        "PROXY TCP4 1.2.3.4 1.2.3.4 -1 2\r\n",
        "PROXY UDP4 1.2.3.4 1.2.3.4 1 2\r\n",
        "PROXY TCP4  1.2.3.4 1.2.3.4 1 2\r\n",
        "PROXY TCP4 1.2.3.4\t1.2.3.4 1 2\r\n",
        "PROXYTCP4 1.2.3.4 1.2.3.4 1 2\r\n",
        "GET / HTTP/1.0\r\n",
    };
    proxy_parser_t p;
    size_t used;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        proxy_init(&p);
        ck_assert_msg(proxy_feed(&p, bad[i], strlen(bad[i]), &used) == PROXY_BAD,
                      "accepted: %s", bad[i]);
        ck_assert_ptr_nonnull(p.error);
    }
    /* No CR LF within 107 bytes: refused however it is fed. */
    char longer[200];
    memset(longer, 'a', sizeof longer);
    memcpy(longer, "PROXY TCP4 ", 11);
    proxy_init(&p);
    int rc = PROXY_MORE;
    for (size_t i = 0; i < sizeof longer && rc == PROXY_MORE; i++)
        rc = proxy_feed(&p, longer + i, 1, &used);
    ck_assert_int_eq(rc, PROXY_BAD);
    /* Nor in one read with a CR LF past 107 bytes (found by fuzzing). */
    memcpy(longer + 150, "\r\n", 2);
    proxy_init(&p);
    ck_assert_int_eq(proxy_feed(&p, longer, sizeof longer, &used), PROXY_BAD);
}
END_TEST

static const unsigned char sig[12] = { 0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d,
                                       0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a };

static size_t v2(unsigned char *b, unsigned char cmd, unsigned char fam,
                 const unsigned char *body, size_t len)
{
    memcpy(b, sig, 12);
    b[12] = (unsigned char)(0x20 | cmd);
    b[13] = fam;
    b[14] = (unsigned char)(len >> 8);
    b[15] = (unsigned char)len;
    memcpy(b + 16, body, len);
    return 16 + len;
}

START_TEST(v2_tcp4_with_tlvs_at_every_cut)
{
    /* src 198.51.100.9, dst 10.0.0.1, ports 40000 and 2323, then a TLV */
    unsigned char body[12 + 7] = { 198, 51, 100, 9, 10, 0, 0, 1, 0x9c, 0x40,
                                   0x09, 0x13, 0x04, 0x00, 0x04, 't', 'e',
                                   's', 't' };
    unsigned char b[64];
    size_t hl = v2(b, 1, 0x11, body, sizeof body);
    memcpy(b + hl, "abc", 3);
    proxy_parser_t p;
    for (size_t cut = 0; cut < hl + 3; cut++) {
        ck_assert_int_eq(feed_cut(&p, b, hl + 3, cut, hl), PROXY_DONE);
        expect_v4(&p, "198.51.100.9", 40000);
    }
}
END_TEST

START_TEST(v2_tcp6_local_and_bad)
{
    unsigned char body[36] = { 0x20, 0x01, 0x0d, 0xb8 };
    body[15] = 7;
    body[32] = 0x13;
    body[33] = 0x88; /* port 5000 */
    unsigned char b[700];
    size_t used, hl = v2(b, 1, 0x21, body, sizeof body);
    proxy_parser_t p;
    proxy_init(&p);
    ck_assert_int_eq(proxy_feed(&p, b, hl, &used), PROXY_DONE);
    ck_assert(p.has_addr);
    const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&p.addr;
    char got[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, &a->sin6_addr, got, sizeof got);
    ck_assert_str_eq(got, "2001:db8::7");
    ck_assert_int_eq(ntohs(a->sin6_port), 5000);
    /* LOCAL (a health check): done, no address. */
    hl = v2(b, 0, 0x00, body, 0);
    proxy_init(&p);
    ck_assert_int_eq(proxy_feed(&p, b, hl, &used), PROXY_DONE);
    ck_assert(!p.has_addr);
    ck_assert_uint_eq(used, 16);
    /* Too short for its family, unknown command, too long. */
    hl = v2(b, 1, 0x11, body, 8);
    proxy_init(&p);
    ck_assert_int_eq(proxy_feed(&p, b, hl, &used), PROXY_BAD);
    hl = v2(b, 2, 0x11, body, 12);
    proxy_init(&p);
    ck_assert_int_eq(proxy_feed(&p, b, hl, &used), PROXY_BAD);
    b[14] = 0x02; /* 512 + 16 bytes: over PROXY_HEADER_MAX */
    b[15] = 0x10;
    b[12] = 0x21;
    proxy_init(&p);
    ck_assert_int_eq(proxy_feed(&p, b, 16, &used), PROXY_BAD);
}
END_TEST

START_TEST(trusted_networks)
{
    proxy_trust_t t;
    char err[128];
    ck_assert_int_eq(proxy_trust_parse(&t, "10.0.0.0/8, 192.168.1.7 ::1,fd00::/8",
                                       err, sizeof err), 0);
    ck_assert_int_eq(t.n, 4);
    struct sockaddr_in a4 = { .sin_family = AF_INET };
    struct sockaddr_in6 a6 = { .sin6_family = AF_INET6 };
    inet_pton(AF_INET, "10.200.3.4", &a4.sin_addr);
    ck_assert(proxy_trusted(&t, (struct sockaddr *)&a4));
    inet_pton(AF_INET, "11.0.0.1", &a4.sin_addr);
    ck_assert(!proxy_trusted(&t, (struct sockaddr *)&a4));
    inet_pton(AF_INET, "192.168.1.7", &a4.sin_addr);
    ck_assert(proxy_trusted(&t, (struct sockaddr *)&a4));
    inet_pton(AF_INET, "192.168.1.8", &a4.sin_addr);
    ck_assert(!proxy_trusted(&t, (struct sockaddr *)&a4));
    inet_pton(AF_INET6, "fdab::1", &a6.sin6_addr);
    ck_assert(proxy_trusted(&t, (struct sockaddr *)&a6));
    inet_pton(AF_INET6, "::ffff:10.1.1.1", &a6.sin6_addr); /* mapped */
    ck_assert(proxy_trusted(&t, (struct sockaddr *)&a6));
    inet_pton(AF_INET6, "::2", &a6.sin6_addr);
    ck_assert(!proxy_trusted(&t, (struct sockaddr *)&a6));
    ck_assert_int_eq(proxy_trust_parse(&t, "10.0.0.0/33", err, sizeof err), -1);
    ck_assert_int_eq(proxy_trust_parse(&t, "balancer", err, sizeof err), -1);
    ck_assert_int_eq(proxy_trust_parse(&t, "", err, sizeof err), 0);
    ck_assert_int_eq(t.n, 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("proxy_proto");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, v1_tcp4_at_every_cut);
    tcase_add_test(tc, v1_tcp6_and_unknown);
    tcase_add_test(tc, v1_malformed_refused);
    tcase_add_test(tc, v2_tcp4_with_tlvs_at_every_cut);
    tcase_add_test(tc, v2_tcp6_local_and_bad);
    tcase_add_test(tc, trusted_networks);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
