/* test_connect_lines.c - the lines that tell a person how to connect
 * (server/connect_lines.h): the machine's name and 127.0.0.1 on a server
 * that listens everywhere, the bound address otherwise, each service's
 * line only when it is on, IPv6 in brackets in a URL, cut safely. */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "connect_lines.h"

START_TEST(everywhere_names_the_host_and_loopback)
{
    char out[512];
    ck_assert_int_eq(connect_lines(out, sizeof out, "0.0.0.0", "dungeon",
                                   2323, 8023, 2222), 6);
    ck_assert_str_eq(out,
                     "telnet dungeon 2323\n"
                     "http://dungeon:8023/\n"
                     "ssh -p 2222 play@dungeon\n"
                     "telnet 127.0.0.1 2323\n"
                     "http://127.0.0.1:8023/\n"
                     "ssh -p 2222 play@127.0.0.1\n");
}
END_TEST

START_TEST(only_what_is_on)
{
    char out[512];
    ck_assert_int_eq(connect_lines(out, sizeof out, "0.0.0.0", "dungeon",
                                   2323, 0, 0), 2);
    ck_assert_str_eq(out, "telnet dungeon 2323\ntelnet 127.0.0.1 2323\n");
    /* no host name known: loopback alone */
    ck_assert_int_eq(connect_lines(out, sizeof out, "0.0.0.0", "", 2323,
                                   8023, 0), 2);
    ck_assert_str_eq(out, "telnet 127.0.0.1 2323\nhttp://127.0.0.1:8023/\n");
}
END_TEST

START_TEST(a_bound_address_is_the_only_one)
{
    char out[512];
    ck_assert_int_eq(connect_lines(out, sizeof out, "127.0.0.1", "dungeon",
                                   4000, 4001, 0), 2);
    ck_assert_str_eq(out, "telnet 127.0.0.1 4000\nhttp://127.0.0.1:4001/\n");
    ck_assert_int_eq(connect_lines(out, sizeof out, "192.0.2.7", "dungeon",
                                   23, 0, 22), 2);
    ck_assert_str_eq(out, "telnet 192.0.2.7 23\nssh -p 22 play@192.0.2.7\n");
}
END_TEST

START_TEST(ipv6_in_brackets_in_urls)
{
    char out[512];
    ck_assert_int_eq(connect_lines(out, sizeof out, "::", "dungeon", 2323,
                                   8023, 0), 4);
    ck_assert_str_eq(out, "telnet dungeon 2323\nhttp://dungeon:8023/\n"
                          "telnet ::1 2323\nhttp://[::1]:8023/\n");
    ck_assert_int_eq(connect_lines(out, sizeof out, "2001:db8::5", NULL, 2323,
                                   8023, 0), 2);
    ck_assert_str_eq(out, "telnet 2001:db8::5 2323\nhttp://[2001:db8::5]:8023/\n");
}
END_TEST

START_TEST(cut_but_terminated)
{
    char out[16];
    memset(out, 'x', sizeof out);
    connect_lines(out, sizeof out, "0.0.0.0", "a-very-long-host-name", 2323,
                  8023, 2222);
    ck_assert_uint_eq(strlen(out), sizeof out - 1);
    ck_assert_str_eq(out, "telnet a-very-l");
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("connect_lines");
    TCase *tc = tcase_create("lines");
    tcase_add_test(tc, everywhere_names_the_host_and_loopback);
    tcase_add_test(tc, only_what_is_on);
    tcase_add_test(tc, a_bound_address_is_the_only_one);
    tcase_add_test(tc, ipv6_in_brackets_in_urls);
    tcase_add_test(tc, cut_but_terminated);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
