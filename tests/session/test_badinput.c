/* test_badinput.c - what a hostile or broken client may send: garbage, a
 * random flood, absurd window sizes, an endless subnegotiation, the
 * subnegotiations libtelnet 0.21 mishandles. After each, the server is
 * still up, a new player gets a playable game, and the log has no
 * sanitizer report (srv_stop checks the log again at the end). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

#define HINT "Press ? for help. Move with the arrow keys, hjklyubn or the numpad."

#define IAC "\xff"
#define SB "\xfa"
#define SE "\xf0"

/* The server survived: running, a new player plays, no sanitizer report. */
static void check_still_serving(tsrv_t *s)
{
    ck_assert_msg(srv_alive(s), "the server died");
    play_check_new_player(srv_port(s));
    ck_assert_msg(!srv_log_has(s, "Sanitizer"), "sanitizer report in the log");
    ck_assert_msg(!srv_log_has(s, "runtime error"), "UBSan report in the log");
    ck_assert_msg(srv_alive(s), "the server died");
}

/* A fixed pseudo-random byte stream (xorshift64), so a failure repeats. */
static void fill_random(unsigned char *p, size_t n, uint64_t seed)
{
    uint64_t x = seed | 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (unsigned char)(x >> 32);
    }
}

/* Bytes that are no key a game uses, none unbounded: control codes,
 * broken UTF-8, escape sequences that are cut, absurd or unknown, mouse
 * and cursor reports nobody asked for. The only keys among them that the
 * game answers are '(' (from the broken "c3 28") and '[' (a cut "ESC [" is
 * Esc and '['), each "Unknown key"; a cut "ESC O" is Esc and 'O', which
 * opens the options screen (docs/game.md) that the next Esc closes again.
 * Nothing moves, nothing takes a turn, and nothing is left held at the
 * end. */
static const char garbage_keys[] =
    "\x00\x01\x02\x04\x05\x06\x07\x08\x09\x0b\x0c\x0e\x1f\x7f"
    "\x80\xbf\xc0\xc1\xf5\xfe\xed\xa0\x80\xc3\x28\xe2\x82\xf0\x9f"
    "\x1b[99999999999999999999~\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16~"
    "\x1b[<1;2;3M\x1b[<99999;99999;99999m\x1b[M   \x1b[12;40R\x1b[;;;R"
    "\x1bO\x1b[\x1b\x1b\x1b[?\x1b[[Z";

/* Telnet that is broken or means nothing here: every command byte, option
 * negotiations for options nobody has, malformed NAWS and TTYPE,
 * subnegotiations ended by another command. (IAC IP is Ctrl-C and IAC EC
 * Backspace: the quit prompt comes and goes.) */
static const char garbage_telnet[] =
    IAC "\xf1" IAC "\xf2" IAC "\xf3" IAC "\xf4" IAC "\xf5" IAC "\xf6" IAC "\xf7"
    IAC "\xf8" IAC "\xf9" IAC "\x00" IAC "\x80" IAC SE
    IAC "\xfb\x05" IAC "\xfc\x05" IAC "\xfd\x05" IAC "\xfe\x05"
    IAC "\xfb\xff" IAC "\xfd\xff" IAC "\xfb\x18" IAC "\xfd\x1f"
    IAC SB "\x1f\x00" IAC SE                 /* NAWS, 2 bytes */
    IAC SB "\x1f\x00\x50\x00\x18\x00" IAC SE /* NAWS, 6 bytes */
    IAC SB "\x18\x00" "xterm" IAC SE          /* TTYPE IS, unasked */
    IAC SB "\x18\x01" IAC SE                  /* TTYPE SEND, to the server */
    IAC SB "\x18" IAC SE IAC SB IAC SE IAC SB "\x05" IAC IAC IAC SE
    IAC SB "\x63" "abc" IAC "\xf1";           /* SB ended by another command */

typedef struct at { int x, y, turn; } at_t;

static int pred_at(tclient_t *c, void *arg)
{
    const at_t *want = arg;
    int x, y;
    return cl_find(c, '@', &x, &y) == 1 && x == want->x && y == want->y &&
           cl_turn(c) == want->turn;
}

/* Garbage from a playing telnet client (keys and telnet) and from a raw
 * one (keys: it speaks no telnet): both sessions stay up and in the game,
 * and the server goes on serving. (The key rate limit is raised: the
 * garbage holds hundreds of keys, and a key over the limit is dropped
 * without an answer.) */
START_TEST(garbage_bytes)
{
    tsrv_t *s = srv_start("--seed", "42", "--set", "max_keys_per_second=100000",
                          NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    cl_opts_t raw = { .raw = 1 };
    tclient_t *r = play_connect(srv_port(s), &raw);
    int rx, ry;
    ck_assert_int_eq(cl_find(r, '@', &rx, &ry), 1);
    for (int i = 0; i < 20; i++) {
        ck_assert_uint_eq(cl_send_raw(c, garbage_keys, sizeof garbage_keys - 1, 1,
                                      CL_WAIT_MS), sizeof garbage_keys - 1);
        ck_assert_uint_eq(cl_send_raw(c, garbage_telnet, sizeof garbage_telnet - 1,
                                      1, CL_WAIT_MS), sizeof garbage_telnet - 1);
        ck_assert_uint_eq(cl_send_raw(r, garbage_keys, sizeof garbage_keys - 1, 1,
                                      CL_WAIT_MS), sizeof garbage_keys - 1);
    }
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert_int_eq(cl_turn(c), 0);
    ck_assert_msg(play_open(c, 1, 0), "no floor beside the start");
    play_move(c, "l", 1, 0);

    /* The raw client: no move from all that; then '.' waits one turn. */
    at_t want = { rx, ry, 1 };
    ck_assert_int_eq(cl_send_str(r, "."), 0);
    if (!cl_wait(r, pred_at, &want, CL_WAIT_MS))
        play_fail(r, "the raw client's game did not go on as it should");
    char row[256];
    ck_assert_str_eq(cl_row(r, 21, row, sizeof row), "Unknown key '('. Press ? for help.");
    ck_assert_str_eq(cl_row(r, 22, row, sizeof row), "Unknown key '['. Press ? for help.");
    ck_assert(!cl_closed(r));
    ck_assert(!srv_log_has(s, "info disconnect "));
    check_still_serving(s);
    cl_close(c);
    cl_close(r);
    srv_stop(s);
}
END_TEST

/* 2 MB of random bytes from one client while another plays, and the
 * server gets through all of it. Every 256 bytes come NUL IAC SE, which
 * leave telnet's parser in plain data from any state, so no random IAC SB
 * runs past the subnegotiation cap (that would close the session after a
 * few hundred KB: endless_subnegotiation tests that); and 'y' and 'Y' are
 * taken out, so that a random Q or Ctrl-C never quits. Everything else is
 * as random as it comes: telnet commands and negotiations, subnegotiations
 * of every option, escape sequences, broken UTF-8, keys (most of them over
 * the key rate limit). The session stays open, and a ping after the flood
 * proves that the server has read all of it (its input budget raised so
 * that it reads it at once: test_input_budget holds a flood back). */
START_TEST(random_flood)
{
    tsrv_t *s = srv_start("--seed", "42", "--set",
                          "max_input_bytes_per_second=100000000", NULL);
    tclient_t *a = play_connect(srv_port(s), NULL);
    tclient_t *f = play_connect(srv_port(s), NULL);
    size_t n = 2u << 20;
    unsigned char *junk = malloc(n);
    ck_assert_ptr_nonnull(junk);
    fill_random(junk, n, 0x9e3779b97f4a7c15ULL);
    for (size_t i = 0; i < n; i++)
        if (junk[i] == 'y' || junk[i] == 'Y')
            junk[i] = '.';
    for (size_t i = 0; i + 3 <= n; i++) /* no IAC DO of cl_sync's option */
        if (junk[i] == 0xff && junk[i + 1] == 0xfd && junk[i + 2] == CL_PING_OPT)
            junk[i + 2] = CL_FLOOD_OPT;
    for (size_t i = 253; i + 3 <= n; i += 256)
        memcpy(junk + i, "\x00" IAC SE, 3);
    memcpy(junk + n - 3, "\x00" IAC SE, 3);
    size_t sent = cl_send_raw(f, junk, n, 1, 30000);
    free(junk);
    if (sent != n)
        play_fail(f, "only %zu of %zu bytes sent", sent, n);
    if (!cl_sync(f, CL_WAIT_MS * 2))
        play_fail(f, "no answer to a ping after the flood");
    play_move(a, "l", 1, 0);
    play_move(a, "h", -1, 0);
    ck_assert(!srv_log_has(s, "info disconnect "));
    check_still_serving(s);
    cl_close(f);
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* NAWS 0x0 means "unknown": the size stays. NAWS 65535x65535 is clamped
 * to max_cols x max_rows (250x100 by default). */
START_TEST(naws_extremes)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    /* A 250x100 terminal that did not tell its size: the game is 80x24. */
    cl_opts_t o = { .w = 250, .h = 100, .refuse_naws = 1 };
    tclient_t *c = cl_connect(srv_port(s), &o);
    char row[512];
    /* The lobby, then the game, both at 80x24 in the top left corner. */
    if (!cl_wait_text(c, "Play (as a guest)", CL_WAIT_MS) || !cl_key(c, "p") ||
        !cl_wait_text(c, "Name: guest1", CL_WAIT_MS) || !cl_key(c, "\r") ||
        !cl_wait_text(c, "HP: 30/30 ", CL_WAIT_MS) || !cl_sync(c, CL_WAIT_MS))
        play_fail(c, "no game within %d ms", CL_WAIT_MS);
    ck_assert_str_eq(cl_row(c, 22, row, sizeof row), HINT);
    ck_assert(strncmp(cl_row(c, 23, row, sizeof row), "HP: 30/30 ", 10) == 0);
    ck_assert_str_eq(cl_row(c, 99, row, sizeof row), "");

    ck_assert_int_eq(cl_send_naws(c, 0, 0), 0);
    play_move(c, "l", 1, 0); /* still 80x24 */
    ck_assert_str_eq(cl_row(c, 22, row, sizeof row), HINT);
    ck_assert(strncmp(cl_row(c, 23, row, sizeof row), "HP: 30/30 ", 10) == 0);

    ck_assert_int_eq(cl_send_naws(c, 65535, 65535), 0);
    if (!cl_wait_frame(c, CL_WAIT_MS))
        play_fail(c, "no frame after NAWS 65535x65535");
    /* the log's twelve rows under the map (its newest line at their
     * bottom), the status line right under them, the rest blank */
    ck_assert_str_eq(cl_row(c, 31, row, sizeof row), HINT);
    ck_assert(strncmp(cl_row(c, 32, row, sizeof row), "HP: 30/30 ", 10) == 0);
    ck_assert_str_eq(cl_row(c, 22, row, sizeof row), "");
    ck_assert_str_eq(cl_row(c, 23, row, sizeof row), "");
    ck_assert_str_eq(cl_row(c, 99, row, sizeof row), "");
    ck_assert_int_eq(cl_turn(c), 1);
    play_move(c, "h", -1, 0);

    ck_assert_int_eq(cl_send_naws(c, 0, 0), 0);
    play_move(c, "l", 1, 0); /* still 250x100 */
    ck_assert(strncmp(cl_row(c, 32, row, sizeof row), "HP: 30/30 ", 10) == 0);
    ck_assert(!cl_closed(c));
    check_still_serving(s);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* IAC SB TTYPE and then megabytes that never end it: the session is
 * dropped (subnegotiations are capped), the server goes on. */
START_TEST(endless_subnegotiation)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *a = play_connect(srv_port(s), NULL);
    tclient_t *e = play_connect(srv_port(s), NULL);
    ck_assert_uint_eq(cl_send_raw(e, IAC SB "\x18", 3, 1, CL_WAIT_MS), 3);
    size_t chunk = 64 * 1024, total = 0;
    char *fill = malloc(chunk);
    ck_assert_ptr_nonnull(fill);
    memset(fill, 'A', chunk);
    for (int i = 0; i < 128 && !cl_closed(e); i++) /* up to 8 MiB */
        total += cl_send_raw(e, fill, chunk, 1, 2000);
    free(fill);
    if (!cl_wait_eof(e, CL_WAIT_MS))
        play_fail(e, "still connected after %zu bytes of subnegotiation", total);
    ck_assert(srv_wait_log(s, "reason=\"oversized subnegotiation\"", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "info disconnect "), 1);
    play_move(a, "l", 1, 0);
    check_still_serving(s);
    cl_close(e);
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* MSSP (libtelnet 0.21 reads past its buffer on it) and the other
 * subnegotiations that must never reach libtelnet: dropped whole, in every
 * shape; none of their bytes become keys, and the session plays on. */
START_TEST(mssp_and_friends)
{
    static const char burst[] =
        IAC SB "\x46" "\x01" "NAME" "\x02" "rogue" IAC SE  /* MSSP VAR VAL */
        IAC SB "\x46" IAC SE                                 /* empty */
        IAC SB "\x46" "\x02" IAC SE                          /* a lone VAL */
        IAC SB "\x46" "\x01" IAC SE                          /* a lone VAR */
        IAC SB "\x46" "\x02\x01\x02" "x" IAC SE
        IAC SB "\x46" "junk" IAC SE
        IAC SB "\x46" "\x01" "A" IAC IAC "B" IAC SE          /* escaped IAC */
        IAC SB "\x27" "\x00" "\x00" "USER" IAC SE            /* NEW-ENVIRON IS */
        IAC SB "\x27" "\x01" IAC SE                          /* NEW-ENVIRON SEND */
        IAC SB "\x24" "\x00" "\x01" "x" IAC SE               /* ENVIRON */
        IAC SB "\x5d" "zmp.ping" "\x00" IAC SE               /* ZMP */
        IAC SB "\x56" IAC SE;                                /* COMPRESS2 */
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    char row[256];
    for (int i = 0; i < 50; i++)
        ck_assert_uint_eq(cl_send_raw(c, burst, sizeof burst - 1, 1, CL_WAIT_MS),
                          sizeof burst - 1);
    play_move(c, "l", 1, 0);
    /* No "Unknown key" line: nothing of the bursts arrived as keys. */
    ck_assert_str_eq(cl_row(c, 22, row, sizeof row), HINT);
    ck_assert_int_eq(cl_turn(c), 1);
    play_move(c, "h", -1, 0);
    ck_assert(!srv_log_has(s, "info disconnect "));
    check_still_serving(s);
    cl_close(c);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("badinput");
    TCase *tc = tcase_create("badinput");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, garbage_bytes);
    tcase_add_test(tc, random_flood);
    tcase_add_test(tc, naws_extremes);
    tcase_add_test(tc, endless_subnegotiation);
    tcase_add_test(tc, mssp_and_friends);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
