/* fuzz_proxy.c - libFuzzer target for the PROXY protocol header parser
 * (proxy_proto.h), fed as a balancer's connection would feed it: the first
 * input byte picks how the rest is cut into reads. Besides the sanitizers
 * it checks the contracts: the bytes taken are never more than given, a
 * header is never longer than PROXY_HEADER_MAX, a refusal says why, and
 * an address, when there is one, is IPv4 or IPv6. The trusted-network
 * list parser gets the same bytes as text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proxy_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t step = 1 + data[0] % 64;
    data++;
    size--;
    proxy_parser_t p;
    proxy_init(&p);
    size_t at = 0, taken = 0;
    int rc = PROXY_MORE;
    while (at < size && rc == PROXY_MORE) {
        size_t n = size - at < step ? size - at : step, used;
        rc = proxy_feed(&p, data + at, n, &used);
        if (used > n)
            abort();
        taken += used;
        at += n;
    }
    if (rc == PROXY_DONE) {
        if (taken != p.header_len || p.header_len > PROXY_HEADER_MAX)
            abort();
        if (p.has_addr && p.addr.ss_family != AF_INET &&
            p.addr.ss_family != AF_INET6)
            abort();
    } else if (rc == PROXY_BAD && !p.error) {
        abort();
    }
    char text[1100];
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = '\0';
    proxy_trust_t t;
    char err[128];
    if (proxy_trust_parse(&t, text, err, sizeof err) == 0 && t.n > PROXY_TRUST_MAX)
        abort();
    return 0;
}
