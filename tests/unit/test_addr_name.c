/* test_addr_name.c - how the log names an address and its port
 * (srv_addr_name, server.h): IPv4 as "a.b.c.d:port", IPv6 in brackets,
 * "[::1]:41251", where "::1:41251" left the reader to guess where the
 * address ends; an IPv4-mapped one too, as the kernel gives it on a
 * listener bound to ::. */
#include <arpa/inet.h>
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "server.h"

static void name_of(int family, const char *ip, int port, char *out,
                    size_t n)
{
    struct sockaddr_storage a;
    memset(&a, 0, sizeof a);
    if (family == AF_INET) {
        struct sockaddr_in *v4 = (struct sockaddr_in *)&a;
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        ck_assert_int_eq(inet_pton(AF_INET, ip, &v4->sin_addr), 1);
    } else {
        struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&a;
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        ck_assert_int_eq(inet_pton(AF_INET6, ip, &v6->sin6_addr), 1);
    }
    srv_addr_name(&a, out, n);
}

START_TEST(ipv4_plain_ipv6_in_brackets)
{
    char out[80];
    name_of(AF_INET, "127.0.0.1", 2323, out, sizeof out);
    ck_assert_str_eq(out, "127.0.0.1:2323");
    name_of(AF_INET6, "::1", 41251, out, sizeof out);
    ck_assert_str_eq(out, "[::1]:41251");
    name_of(AF_INET6, "2001:db8::7", 22, out, sizeof out);
    ck_assert_str_eq(out, "[2001:db8::7]:22");
    name_of(AF_INET6, "::ffff:203.0.113.7", 8023, out, sizeof out);
    ck_assert_str_eq(out, "[::ffff:203.0.113.7]:8023");
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("addr name");
    TCase *tc = tcase_create("names");
    tcase_add_test(tc, ipv4_plain_ipv6_in_brackets);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
