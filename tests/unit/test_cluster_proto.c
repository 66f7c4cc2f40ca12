/* test_cluster_proto.c - what hosts of a cluster say to each other
 * (cluster_proto.h): each payload's fields read back exactly, everything
 * malformed, out of range or oversized refused, and the presence row's
 * list of games written and read back, its bad lines skipped. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "cluster_proto.h"

static cluster_note_t n;

static int parse(const char *s)
{
    return cluster_note_parse(s, strlen(s), &n);
}

START_TEST(each_payload_reads_back)
{
    ck_assert_int_eq(parse("J 7 rogued_00ff 42"), 0);
    ck_assert_int_eq(n.kind, 'J');
    ck_assert_uint_eq(n.id, 7);
    ck_assert_str_eq(n.chan, "rogued_00ff");
    ck_assert_uint_eq(n.sess, 42);

    ck_assert_int_eq(parse("L 7 rogued_00ff"), 0);
    ck_assert_str_eq(n.chan, "rogued_00ff");

    ck_assert_int_eq(parse("S 9 18446744073709551615 1234 5 Dave the Brave"), 0);
    ck_assert_uint_eq(n.seed, UINT64_MAX);
    ck_assert_int_eq(n.nbytes, 1234);
    ck_assert_int_eq(n.account, 5);
    ck_assert_str_eq(n.name, "Dave the Brave");

    ck_assert_int_eq(parse("K 9 300 106,0,2147483647"), 0);
    ck_assert_uint_eq(n.seq, 300);
    ck_assert_int_eq(n.nkeys, 3);
    ck_assert_int_eq(n.keys[0], 106);
    ck_assert_int_eq(n.keys[1], 0);
    ck_assert_int_eq(n.keys[2], 2147483647);

    ck_assert_int_eq(parse("E 9 The game moved to another host."), 0);
    ck_assert_str_eq(n.text, "The game moved to another host.");
    ck_assert_int_eq(parse("R 9 That game is over."), 0);
    ck_assert_int_eq(n.kind, 'R');
    ck_assert_int_eq(parse("W 9 dave is in the lobby: waiting for the next game."), 0);
    ck_assert_int_eq(n.kind, 'W');
    ck_assert_uint_eq(n.id, 9);
    ck_assert_str_eq(n.text, "dave is in the lobby: waiting for the next game.");

    ck_assert_int_eq(parse("T 3 rogued_ab 12"), 0);
    ck_assert_int_eq(n.account, 12);
    ck_assert_int_eq(parse("D 3 -1 0"), 0);
    ck_assert_int_eq(n.nbytes, -1);
    ck_assert_int_eq(parse("D 3 18 77"), 0);
    ck_assert_int_eq(n.nbytes, 18);
    ck_assert_uint_eq(n.seed, 77);
}
END_TEST

START_TEST(malformed_payloads_are_refused)
{
    static const char *const bad[] = {
        "", "J", "J ", "X 1 a", "J 0 rogued_a 1", "J 1 Rogued_a 1",
        "J 1 rogued-a 1", "J 1 rogued_a 0", "J 1 rogued_a 1 ", "J 1 rogued_a  1",
        "J 1  rogued_a 1", "L 1", "S 1 2 3 0 dave", "S 1 2 -1 5 dave",
        "S 1 2 3 5 ", "S 1 2 3 5 123456789012345678901", "S 1 2 3 5 da\tve",
        "K 1 0 ", "K 1 0 1,", "K 1 0 ,1", "K 1 0 1,,2", "K 1 0 2147483648",
        "K 1 0 -1", "E 1 ", "E 1 caf\xc3\xa9", "W 1 ", "W 1", "W 0 x",
        "T 1 rogued_a 0", "T 1 rogued_a -1",
        "D 1 -2 0", "D 1 -1", "D 1 5 1 2", "J 18446744073709551616 rogued_a 1",
        "J 99999999999999999999 rogued_a 1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(parse(bad[i]) == -1, "\"%s\" was taken", bad[i]);
    /* a NUL inside is not the end */
    ck_assert_int_eq(cluster_note_parse("E 1 ab\0c", 8, &n), -1);
    /* a channel of 64 characters is one too many */
    char p[128];
    snprintf(p, sizeof p, "L 1 %064d", 0);
    ck_assert_int_eq(parse(p), -1);
    snprintf(p, sizeof p, "L 1 %063d", 0);
    ck_assert_int_eq(parse(p), 0);
}
END_TEST

START_TEST(key_payloads_are_bounded)
{
    static char p[CLUSTER_PAYLOAD_MAX + 64];
    size_t len = (size_t)snprintf(p, sizeof p, "K 1 0 1");
    while (len + 2 <= CLUSTER_PAYLOAD_MAX)
        len += (size_t)snprintf(p + len, sizeof p - len, ",1");
    ck_assert_int_eq(cluster_note_parse(p, len, &n), 0);
    ck_assert_int_eq(n.nkeys, (int)(len - 6 + 1) / 2);
    ck_assert_int_le(n.nkeys, CLUSTER_KEYS_MAX);
    len += (size_t)snprintf(p + len, sizeof p - len, ",1");
    ck_assert_int_eq(cluster_note_parse(p, len, &n), -1); /* too long */
}
END_TEST

START_TEST(games_list_round_trip)
{
    char list[256];
    size_t len = 0;
    cluster_game_t a = { 42, 3, 1700, 2, 65, "dave" };
    cluster_game_t b = { 7, 1, 0, 0, 0, "a b" }; /* a space is dropped */
    cluster_game_t none = { 8, 1, 0, 0, 0, " " };
    ck_assert_int_eq(cluster_game_format(&a, list, sizeof list, &len), 0);
    ck_assert_int_eq(cluster_game_format(&b, list, sizeof list, &len), 0);
    ck_assert_int_eq(cluster_game_format(&none, list, sizeof list, &len), -1);
    ck_assert_str_eq(list, "42 3 1700 2 65 dave\n7 1 0 0 0 ab\n");
    /* a full buffer takes nothing */
    size_t small = 0;
    char tiny[8] = "";
    ck_assert_int_eq(cluster_game_format(&a, tiny, sizeof tiny, &small), -1);
    ck_assert_uint_eq(small, 0);
    ck_assert_str_eq(tiny, "");

    cluster_game_t out[4];
    const char *in = "42 3 1700 2 65 dave\nnonsense\n0 1 1 1 1 zero\n"
                     "9 1 1 1 -1 neg\n7 1 0 0 0 ab\n";
    ck_assert_int_eq(cluster_games_parse(in, strlen(in), out, 4), 2);
    ck_assert_uint_eq(out[0].sess, 42);
    ck_assert_int_eq(out[0].turns, 1700);
    ck_assert_int_eq(out[0].idle_s, 65);
    ck_assert_str_eq(out[0].name, "dave");
    ck_assert_uint_eq(out[1].sess, 7);
    ck_assert_str_eq(out[1].name, "ab");
    /* at most max */
    ck_assert_int_eq(cluster_games_parse(in, strlen(in), out, 1), 1);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("cluster_proto");
    TCase *tc = tcase_create("proto");
    tcase_add_test(tc, each_payload_reads_back);
    tcase_add_test(tc, malformed_payloads_are_refused);
    tcase_add_test(tc, key_payloads_are_bounded);
    tcase_add_test(tc, games_list_round_trip);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
