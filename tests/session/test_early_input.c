/* test_early_input.c - what a client types before the server is ready for
 * it, and what it types that a prompt cannot take as typed (issue 25):
 * keys sent in the first packet, or with the client's negotiation answers,
 * reach the lobby and start the game (docs/telnet.md, "The end of
 * negotiation"); a name typed with an escape sequence or a control
 * character is refused with the reason, never taken altered. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "clock_shift.h"
#include "play.h"
#include "sock_table.h"

#define IAC "\xff"

/* The game on screen: an '@' and the status line. */
static int in_game(tclient_t *c, void *arg)
{
    char row[16];
    int x, y;
    (void)arg;
    return cl_find(c, '@', &x, &y) == 1 &&
           strncmp(cl_row(c, cl_h(c) - 1, row, sizeof row), "HP:", 3) == 0;
}

/* nc-like: "p" and Enter in the very first packet, before the server's
 * negotiation is over (it waits out negotiation_ms for a client that
 * never answers; 10 s, the longest, so the keys always come during it):
 * the lobby takes them, the game starts. The 10 s pass on a clock the
 * test moves (clock_shift.h), once the server has read the keys. */
START_TEST(keys_in_the_first_packet)
{
    clock_shift_t clk;
    clock_shift_begin(&clk);
    tsrv_t *s = srv_start("--set", "negotiation_ms=10000", NULL);
    clock_shift_started(&clk);
    ck_assert(srv_wait_log(s, "clock_shift: the monotonic clocks follow",
                           CL_WAIT_MS));
    cl_opts_t o = { .raw = 1 };
    tclient_t *c = cl_connect(srv_port(s), &o);
    ck_assert_uint_eq(cl_send_raw(c, "p\r", 2, 0, CL_WAIT_MS), 2);
    /* the keys read by the server (its side's receive queue empty in the
     * kernel's table), so during the negotiation: its deadline is 10 s
     * of the clock as it was */
    ck_assert(sock_wait_server_read(srv_port(s), cl_local_port(c),
                                    CL_WAIT_MS));
    clock_shift_by(&clk, 10000);
    if (!cl_wait(c, in_game, NULL, CL_WAIT_MS))
        play_fail(c, "the keys sent first did not start the game");
    ck_assert(srv_wait_log(s, "game start", CL_WAIT_MS));
    cl_close(c);
    srv_stop(s);
    clock_shift_end(&clk);
}
END_TEST

/* The keys after the client's answers in one packet (WILL NAWS, the size,
 * WONT TTYPE): the answers end the negotiation within that read and the
 * keys behind them are the lobby's. Keys before the answers, too. */
START_TEST(keys_with_the_answers)
{
    /* the longest wait: the packet always comes during the negotiation */
    tsrv_t *s = srv_start("--set", "negotiation_ms=10000", NULL);
    static const char before[] = "p\r"
        IAC "\xfd\x01" IAC "\xfb\x1f" IAC "\xfa\x1f\x00\x50\x00\x18" IAC "\xf0"
        IAC "\xfc\x18";
    cl_opts_t o = { .raw = 1 };
    tclient_t *c = cl_connect(srv_port(s), &o);
    size_t n = sizeof before - 1;
    ck_assert_uint_eq(cl_send_raw(c, before, n, 0, CL_WAIT_MS), n);
    if (!cl_wait(c, in_game, NULL, CL_WAIT_MS))
        play_fail(c, "the keys sent with the answers did not start the game");
    cl_close(c);
    srv_stop(s);
}
END_TEST

#define LATE "negotiation_ms passed before the client's answers"

/* A client that refuses everything the server asks (DONT ECHO and SGA,
 * WONT NAWS and TTYPE) has answered: its lobby starts at once, not when
 * negotiation_ms (10 s here) has passed, which the log would then say
 * (libtelnet raises no event for a refusal: tnfilter tells it). A client
 * that answers nothing (nc) waits the deadline (0.1 s) out, and the log
 * says so. */
START_TEST(refusals_end_the_negotiation)
{
    tsrv_t *s = srv_start("--set", "negotiation_ms=10000", "--log-level",
                          "debug", NULL);
    static const char no[] = IAC "\xfe\x01" IAC "\xfe\x03" IAC "\xfc\x1f"
                             IAC "\xfc\x18";
    cl_opts_t o = { .raw = 1 };
    tclient_t *c = cl_connect(srv_port(s), &o);
    ck_assert_uint_eq(cl_send_raw(c, no, sizeof no - 1, 0, CL_WAIT_MS),
                      sizeof no - 1);
    play_wait_text(c, "Play (as a guest)");
    ck_assert_msg(!srv_log_has(s, LATE), "%s", srv_log(s));
    cl_close(c);
    srv_stop(s);

    /* (a short deadline: nothing will come) */
    s = srv_start("--set", "negotiation_ms=100", "--log-level", "debug",
                  NULL);
    tclient_t *nc = cl_connect(srv_port(s), &o);
    play_wait_text(nc, "Play (as a guest)");
    ck_assert(srv_log_has(s, LATE));
    cl_close(nc);
    srv_stop(s);
}
END_TEST

/* A name with an escape sequence in it ("ab" ESC[31m "red"): the decoder
 * drops the sequence, and the prompt refuses the line with the reason
 * instead of taking "abred". */
START_TEST(name_with_an_escape_refused)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *c = play_lobby(srv_port(s));
    ck_assert_int_eq(cl_send_str(c, "l"), 0);
    play_wait_text(c, "Name:");
    ck_assert_int_eq(cl_send_str(c, "ab\x1b[31mred\r"), 0);
    play_wait_text(c, "Refused: a name may use only letters, digits, _ "
                      "and -.");
    ck_assert(!cl_screen_has(c, "Password:"));
    /* typed again as it is: taken */
    ck_assert_int_eq(cl_send_str(c, "abred\r"), 0);
    play_wait_text(c, "Password:");
    cl_close(c);
    /* a Latin-1 letter (a byte that is no UTF-8), from a terminal in
     * another locale: the name's rule, not "control characters" */
    c = play_lobby(srv_port(s));
    ck_assert_int_eq(cl_send_str(c, "l"), 0);
    play_wait_text(c, "Name:");
    ck_assert_int_eq(cl_send_str(c, "Jos\xe9\r"), 0);
    play_wait_text(c, "Refused: a name may use only letters, digits, _ "
                      "and -.");
    ck_assert(!cl_screen_has(c, "Password:"));
    cl_close(c);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("early_input");
    TCase *tc = tcase_create("early_input");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, keys_in_the_first_packet);
    tcase_add_test(tc, keys_with_the_answers);
    tcase_add_test(tc, refusals_end_the_negotiation);
    tcase_add_test(tc, name_with_an_escape_refused);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
