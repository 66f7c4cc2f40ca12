/* test_input_budget.c - a session's input budget (server/net/in_budget.h,
 * docs/hosting.md, "The network") through the real server: a client pouring
 * bytes is read no faster than its budget (the server stops reading its
 * socket and the kernel's window holds it back: rogued_bytes_in_total and
 * rogued_input_pauses_total say so), is read again as the budget refills,
 * and another player's keys are answered meanwhile; an honest burst, a
 * password pasted at a prompt, is taken whole and pauses nothing. A
 * paused client that leaves is closed without its backlog being read. */
#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "check_main.h"
#include "client.h"
#include "metrics.h"
#include "play.h"
#include "ssh_guest.h"

#define WAIT_MS CL_WAIT_MS
/* max_keys_per_second: 16 bytes a second for each (in_budget.h), a burst
 * of 16 KB */
#define KEYS "20"
#define RATE 320
#define BURST 16384
#define FLOOD (1024 * 1024)
/* what libssh may have read off the socket in the poll that spent the
 * budget (spent after it: owed) */
#define LIBSSH_AHEAD (64 * 1024)

#define IN "rogued_bytes_in_total"
#define PAUSES "rogued_input_pauses_total"

/* A server with /metrics (on *mport) and a browser's port (*http). */
static tsrv_t *budget_server(int *mport, int *http)
{
    *mport = cl_free_port();
    *http = cl_free_port();
    char set[64], hset[64];
    snprintf(set, sizeof set, "metrics_port=%d", *mport);
    snprintf(hset, sizeof hset, "http_port=%d", *http);
    tsrv_t *s = srv_start("--seed", "42", "--set", set, "--set", hset,
                          "--set", "max_keys_per_second=" KEYS, NULL);
    ck_assert(srv_wait_log(s, "metrics on ", WAIT_MS));
    return s;
}

/* A 64-character password pasted at the registration's prompt, at once:
 * taken whole (the account is made with it, and logs in with it), and no
 * read of anyone's was paused. */
START_TEST(a_pasted_password_pauses_nothing)
{
    int mport, http;
    tsrv_t *s = budget_server(&mport, &http);
    tclient_t *c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "r"));
    play_type_line(c, "pasty");
    char pw[65];
    for (int i = 0; i < 64; i++)
        pw[i] = (char)('a' + i % 26);
    pw[64] = '\r';
    for (int round = 0; round < 2; round++) { /* the password, then again */
        ck_assert_uint_eq(cl_send_raw(c, pw, sizeof pw, 1, WAIT_MS), sizeof pw);
        ck_assert(cl_sync(c, WAIT_MS));
    }
    play_wait_text(c, "Welcome, pasty! Your account is ready.");
    cl_close(c);
    c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "l"));
    play_type_line(c, "pasty");
    ck_assert_uint_eq(cl_send_raw(c, pw, sizeof pw, 1, WAIT_MS), sizeof pw);
    play_wait_text(c, "Welcome back, pasty!");
    ck_assert(metrics_is(mport, PAUSES, 0));
    ck_assert_double_ge(metrics_value(mport, IN), 3 * sizeof pw);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* FLOOD bytes of `unit` (len bytes) over and over. */
static unsigned char *flood_of(const void *unit, size_t len)
{
    unsigned char *buf = malloc(FLOOD);
    ck_assert_ptr_nonnull(buf);
    for (size_t i = 0; i < FLOOD; i++)
        buf[i] = ((const unsigned char *)unit)[i % len];
    return buf;
}

/* f pours buf (FLOOD bytes) and never reads. The server reads its burst
 * and then only its rate: what it has read by any moment is at most the
 * burst, the rate over the time since, and a's own keys; f's reading is
 * paused, and resumed (paused again) as its budget refills. Meanwhile a
 * player's keys in a game are answered, turn by turn. */
static void flood_held(int mport, tclient_t *a, tclient_t *f,
                       unsigned char *buf)
{
    int64_t t0 = cl_now_ms();
    double in0 = metrics_value(mport, IN);
    ck_assert(metrics_is(mport, PAUSES, 0));
    size_t sent = cl_send_raw(f, buf, FLOOD, 0, 2000);
    free(buf);
    ck_assert_uint_gt(sent, 2 * BURST);
    ck_assert(metrics_wait_at_least(mport, PAUSES, 1));
    /* read again, a little at a time, as the budget refills */
    ck_assert(metrics_wait_at_least(mport, PAUSES, 3));

    /* the player plays on, its keys answered */
    for (int turn = 1; turn <= 3; turn++) {
        ck_assert(cl_key(a, "5"));
        ck_assert_int_eq(cl_turn(a), turn);
    }
    double read = metrics_value(mport, IN) - in0;
    int64_t ms = cl_now_ms() - t0;
    /* the player's keys and syncs: a few hundred bytes at most */
    double most = BURST + (double)RATE * (double)(ms + 1000) / 1000.0 + 1024;
    /* (less the little of its burst its setup took: the negotiation, the
     * browser's request) */
    ck_assert_msg(read >= BURST - 1024, "read %.0f of %zu sent", read, sent);
    ck_assert_msg(read <= most, "read %.0f bytes in %lld ms (at most %.0f)",
                  read, (long long)ms, most);
    ck_assert(!cl_closed(a));
}

/* A telnet client in the lobby pours telnet NOPs (decoded, never
 * answered). */
START_TEST(a_telnet_flood_is_read_at_its_budget)
{
    int mport, http;
    tsrv_t *s = budget_server(&mport, &http);
    tclient_t *a = play_connect(srv_port(s), NULL);
    tclient_t *f = play_lobby(srv_port(s));
    flood_held(mport, a, f, flood_of("\xff\xf1", 2)); /* IAC NOP */
    cl_abort(f);
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* A browser in a game pours key messages, a wait each (a WebSocket
 * binary frame of 7 bytes). */
START_TEST(a_browsers_flood_is_read_at_its_budget)
{
    int mport, http;
    tsrv_t *s = budget_server(&mport, &http);
    tclient_t *a = play_connect(srv_port(s), NULL);
    cl_opts_t o = { .web = 1 };
    tclient_t *f = cl_connect(http, &o);
    play_ready(f);
    unsigned char frame[16];
    size_t len = cl_ws_frame(frame, 2, ".", 1);
    flood_held(mport, a, f, flood_of(frame, len));
    cl_abort(f);
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* An SSH guest pours 256 KiB of NULs (keys of nothing) in its channel,
 * which the kernel's buffers and the channel's window take whole, while
 * a telnet player plays on: the server reads no more than
 * the burst, the rate over the time, and what libssh had read off the
 * socket when the budget ran out (owed, below 0, and paid back before
 * the next read). */
START_TEST(an_ssh_flood_is_read_at_its_budget)
{
    int mport = cl_free_port(), sport = cl_free_port();
    char mset[64], sset[64];
    snprintf(mset, sizeof mset, "metrics_port=%d", mport);
    snprintf(sset, sizeof sset, "ssh_port=%d", sport);
    tsrv_t *s = srv_start("--seed", "42", "--set", mset, "--set", sset,
                          "--set", "ssh_unauth_per_ip=0", "--set",
                          "max_keys_per_second=" KEYS, NULL);
    ck_assert(srv_wait_log(s, "host key SHA256:", WAIT_MS));
    ck_assert(srv_wait_log(s, "metrics on ", WAIT_MS));
    tclient_t *a = play_connect(srv_port(s), NULL);
    ssh_channel ch;
    ssh_session ss = ssh_guest(sport, "vt100", 80, 24, 0, &ch);
    ck_assert(srv_wait_log(s, "connect ", WAIT_MS));
    int64_t t0 = cl_now_ms();
    double in0 = metrics_value(mport, IN);
    static char zeros[4096];
    size_t sent = 0;
    for (int i = 0; i < 64; i++) {
        ck_assert_int_eq(ssh_channel_write(ch, zeros, sizeof zeros),
                         (int)sizeof zeros);
        sent += sizeof zeros;
    }
    /* (paused once: what libssh read past the budget is owed for seconds
     * at this rate before it reads again; ssh_play's pause and resume are
     * test_ssh_play's) */
    ck_assert(metrics_wait_at_least(mport, PAUSES, 1));
    for (int turn = 1; turn <= 3; turn++) {
        ck_assert(cl_key(a, "5"));
        ck_assert_int_eq(cl_turn(a), turn);
    }
    double read = metrics_value(mport, IN) - in0;
    int64_t ms = cl_now_ms() - t0;
    double most = BURST + (double)RATE * (double)(ms + 1000) / 1000.0 +
                  LIBSSH_AHEAD;
    ck_assert_msg(read >= BURST - 1024, "read %.0f of %zu sent", read, sent);
    ck_assert_msg(read <= most, "read %.0f bytes in %lld ms (at most %.0f)",
                  read, (long long)ms, most);
    ssh_free(ss); /* (no goodbye: its end of input is never read) */
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* What a paused client leaves unread behind its going: more than the
 * test's wait reads at the budget's rate. A FIN is seen once it has come,
 * behind all the client sent (the kernel's window holds the rest in the
 * client's own kernel), so the FIN's flood is one the server's receive
 * buffer takes whole; a reset is seen at once, behind any flood. */
#define SMALL_FLOOD (BURST + 2 * RATE * (WAIT_MS / 1000))

/* f pours n bytes of IAC NOP, is paused, and leaves (cl_abort: a reset;
 * else a FIN after reading what came): the session ends at once, most of
 * what it sent unread, not once that has been read at its rate. */
static void paused_telnet_leaves(size_t n, int reset)
{
    int mport, http;
    tsrv_t *s = budget_server(&mport, &http);
    tclient_t *f = play_lobby(srv_port(s));
    unsigned char *buf = flood_of("\xff\xf1", 2);
    size_t sent = cl_send_raw(f, buf, n, 0, 2000);
    free(buf);
    ck_assert_uint_ge(sent, SMALL_FLOOD);
    ck_assert(metrics_wait_at_least(mport, PAUSES, 1));
    ck_assert_int_eq(srv_log_count(s, "info disconnect "), 0);
    if (reset) {
        cl_abort(f);
    } else {
        cl_pump(f, 0); /* (nothing left unread: a FIN, not a reset) */
        cl_close(f);
    }
    ck_assert(srv_wait_log(s, "info disconnect ", WAIT_MS));
    ck_assert(srv_log_has(s, reset ? "reason=\"" : "reason=\"client closed\""));
    double read = metrics_value(mport, IN);
    ck_assert_msg(read < (double)sent - RATE * (WAIT_MS / 1000),
                  "read %.0f of %zu", read, sent);
    srv_stop(s);
}

START_TEST(a_paused_client_that_closes_is_closed)
{
    paused_telnet_leaves(SMALL_FLOOD, 0);
}
END_TEST

START_TEST(a_paused_client_that_resets_is_closed)
{
    paused_telnet_leaves(FLOOD, 1);
}
END_TEST

/* A server with /metrics (on *mport) and SSH (on *sport). */
static tsrv_t *ssh_budget_server(int *mport, int *sport)
{
    *mport = cl_free_port();
    *sport = cl_free_port();
    char mset[64], sset[64];
    snprintf(mset, sizeof mset, "metrics_port=%d", *mport);
    snprintf(sset, sizeof sset, "ssh_port=%d", *sport);
    tsrv_t *s = srv_start("--seed", "42", "--set", mset, "--set", sset,
                          "--set", "ssh_unauth_per_ip=0", "--set",
                          "max_keys_per_second=" KEYS, NULL);
    ck_assert(srv_wait_log(s, "host key SHA256:", WAIT_MS));
    ck_assert(srv_wait_log(s, "metrics on ", WAIT_MS));
    return s;
}

/* SSH_MSG_IGNORE packets of 4000 bytes, n of them, queued in libssh's
 * client (not blocking: what the socket does not take waits there). */
static void pour_ignores(ssh_session ss, int n)
{
    static char junk[4001];
    memset(junk, 'j', sizeof junk - 1);
    ssh_set_blocking(ss, 0);
    int fd = ssh_get_fd(ss); /* (libssh's client leaves it blocking) */
    ck_assert_int_eq(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK), 0);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(ssh_send_ignore(ss, junk), SSH_OK);
    /* onto the socket, what the kernel's buffers take */
    ssh_blocking_flush(ss, 500);
}

/* An SSH guest pours 8 MB of SSH_MSG_IGNORE, which never reaches its
 * channel: the server reads it from the socket at the budget's rate, as
 * any other bytes (the wire's bytes are what is spent: ssh_play.c), and
 * a telnet player plays on. */
START_TEST(an_ssh_ignore_flood_is_read_at_its_budget)
{
    int mport, sport;
    tsrv_t *s = ssh_budget_server(&mport, &sport);
    tclient_t *a = play_connect(srv_port(s), NULL);
    ssh_channel ch;
    ssh_session ss = ssh_guest(sport, "vt100", 80, 24, 0, &ch);
    ck_assert(srv_wait_log(s, "connect ", WAIT_MS));
    int64_t t0 = cl_now_ms();
    double in0 = metrics_value(mport, IN);
    pour_ignores(ss, 2000);
    ck_assert(metrics_wait_at_least(mport, PAUSES, 1));
    for (int turn = 1; turn <= 3; turn++) {
        ck_assert(cl_key(a, "5"));
        ck_assert_int_eq(cl_turn(a), turn);
    }
    double read = metrics_value(mport, IN) - in0;
    int64_t ms = cl_now_ms() - t0;
    double most = BURST + (double)RATE * (double)(ms + 1000) / 1000.0 +
                  LIBSSH_AHEAD;
    ck_assert_msg(read >= BURST - 1024, "read %.0f", read);
    ck_assert_msg(read <= most, "read %.0f bytes in %lld ms (at most %.0f)",
                  read, (long long)ms, most);
    ssh_free(ss); /* (no goodbye) */
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* A guest pours ignores, is paused, and closes its side (a FIN, once
 * they are all in the server's kernel): its session ends at once, not
 * after they have been read at its rate. */
START_TEST(a_paused_ssh_guest_that_leaves_is_closed)
{
    int mport, sport;
    tsrv_t *s = ssh_budget_server(&mport, &sport);
    ssh_channel ch;
    ssh_session ss = ssh_guest(sport, "vt100", 80, 24, 0, &ch);
    ck_assert(srv_wait_log(s, "connect ", WAIT_MS));
    double in0 = metrics_value(mport, IN);
    pour_ignores(ss, SMALL_FLOOD / 4000 + 1);
    ck_assert(metrics_wait_at_least(mport, PAUSES, 1));
    ck_assert_int_eq(srv_log_count(s, "info disconnect "), 0);
    ck_assert_int_eq(shutdown(ssh_get_fd(ss), SHUT_WR), 0);
    ck_assert(srv_wait_log(s, "reason=\"client closed\"", WAIT_MS));
    double read = metrics_value(mport, IN) - in0;
    ck_assert_msg(read < SMALL_FLOOD - RATE * (WAIT_MS / 1000), "read %.0f",
                  read);
    ssh_free(ss);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("input_budget");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_pasted_password_pauses_nothing);
    tcase_add_test(tc, a_telnet_flood_is_read_at_its_budget);
    tcase_add_test(tc, a_browsers_flood_is_read_at_its_budget);
    tcase_add_test(tc, an_ssh_flood_is_read_at_its_budget);
    tcase_add_test(tc, a_paused_client_that_closes_is_closed);
    tcase_add_test(tc, a_paused_client_that_resets_is_closed);
    tcase_add_test(tc, an_ssh_ignore_flood_is_read_at_its_budget);
    tcase_add_test(tc, a_paused_ssh_guest_that_leaves_is_closed);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
