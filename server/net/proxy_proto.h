/* proxy_proto.h - the PROXY protocol header (versions 1 and 2) a TCP
 * balancer such as HAProxy puts in front of each connection it forwards,
 * so that the server sees the player's address instead of the balancer's;
 * and the list of balancers trusted to send one.
 *
 * The parser takes the first bytes of a connection, in as many pieces as
 * they come, and says when the header is complete, how long it was (the
 * rest is the client's own data) and which address it names. It never
 * reads past what it was given, holds at most PROXY_HEADER_MAX bytes, and
 * refuses anything malformed or longer. No I/O, no libuv.
 *
 * Version 1: "PROXY TCP4 <src> <dst> <sport> <dport>\r\n" (or TCP6), at
 * most 107 bytes; "PROXY UNKNOWN...\r\n" names no address (the
 * connection's own is kept). Version 2: the 12-byte signature, a command
 * (PROXY, or LOCAL: no address, a health check), a family (TCP over IPv4
 * or IPv6, or unspecified: no address), a length and the addresses, then
 * TLVs, which are skipped. */
#ifndef ROGUE_PROXY_PROTO_H
#define ROGUE_PROXY_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* The longest header accepted: v1's limit is 107; v2 carries TLVs. */
#define PROXY_HEADER_MAX 536

enum proxy_result {
    PROXY_MORE = 0,      /* not complete yet: feed more */
    PROXY_DONE = 1,      /* complete: see header_len and has_addr */
    PROXY_BAD = -1       /* malformed, unsupported or too long */
};

typedef struct proxy_parser {
    unsigned char buf[PROXY_HEADER_MAX];
    size_t len;                    /* bytes held */
    size_t header_len;             /* PROXY_DONE: the header's length */
    int has_addr;                  /* PROXY_DONE: addr is the client's */
    struct sockaddr_storage addr;  /* the client's address and port */
    const char *error;             /* PROXY_BAD: why */
} proxy_parser_t;

void proxy_init(proxy_parser_t *p);

/* Feeds bytes; *used receives how many of them belong to the header (the
 * rest, on PROXY_DONE, is the client's data). Returns enum proxy_result;
 * after PROXY_DONE or PROXY_BAD, call proxy_init before feeding again. */
int proxy_feed(proxy_parser_t *p, const void *bytes, size_t n, size_t *used);

/* 1 if the bytes start with a PROXY header's signature ("PROXY " or
 * version 2's 12 bytes): for refusing one from an address that is not
 * trusted to send it. Fewer bytes than the signature: 0. */
int proxy_looks_like_header(const void *bytes, size_t n);

/* Trusted balancers: addresses and networks ("10.0.0.0/8", "::1"). */
#define PROXY_TRUST_MAX 32
typedef struct proxy_trust {
    int n;
    struct {
        int family;                /* AF_INET or AF_INET6 */
        unsigned char addr[16];
        int prefix;                /* bits that must match */
    } net[PROXY_TRUST_MAX];
} proxy_trust_t;

/* Parses a comma- or space-separated list. Returns 0, or -1 with why in
 * err. */
int proxy_trust_parse(proxy_trust_t *t, const char *list, char *err,
                      size_t errlen);

/* 1 if the address is in one of the networks. An IPv4 address mapped to
 * IPv6 (::ffff:a.b.c.d) counts as the IPv4 address. */
int proxy_trusted(const proxy_trust_t *t, const struct sockaddr *a);

#endif
