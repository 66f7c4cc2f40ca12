/* test_tcp_acked.c - tcp_acked (server/net/tcp_acked.h) on a loopback TCP
 * connection the test makes on a port the kernel picks: what the peer has
 * acknowledged, and whether the kernel still holds bytes for it, before a
 * write, after the peer read it all, and while a peer that does not read
 * has shut its window, in acknowledgements and in bytes held (tcp_unacked;
 * a shutdown's FIN counting one until acknowledged); a socket that is not
 * TCP is refused. And how often the once-a-second sweep asks it
 * (sess_output_stalled). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "session.h"
#include "session_impl.h"
#include "tcp_acked.h"

#define WAIT_S 30 /* only a broken kernel or test ends a wait here */

/* A connected pair on 127.0.0.1: *srv the accepted side (non-blocking),
 * *cli the connecting side, its receive buffer rcvbuf bytes if not 0. */
static void tcp_pair(int *srv, int *cli, int rcvbuf)
{
    int l = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(l, 0);
    struct sockaddr_in a = { .sin_family = AF_INET,
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t alen = sizeof a;
    ck_assert_int_eq(bind(l, (struct sockaddr *)&a, sizeof a), 0);
    ck_assert_int_eq(listen(l, 1), 0);
    ck_assert_int_eq(getsockname(l, (struct sockaddr *)&a, &alen), 0);
    *cli = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(*cli, 0);
    if (rcvbuf)
        ck_assert_int_eq(setsockopt(*cli, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
                                    sizeof rcvbuf), 0);
    ck_assert_int_eq(connect(*cli, (struct sockaddr *)&a, sizeof a), 0);
    *srv = accept(l, NULL, NULL);
    ck_assert_int_ge(*srv, 0);
    close(l);
    ck_assert_int_eq(fcntl(*srv, F_SETFL, O_NONBLOCK), 0);
}

/* Waits (up to WAIT_S) for the kernel to hold nothing for the peer; the
 * acknowledged count then. */
static uint64_t wait_all_taken(int fd)
{
    uint64_t acked = 0;
    int all = 0;
    time_t deadline = time(NULL) + WAIT_S;
    while (time(NULL) < deadline) {
        ck_assert_int_eq(tcp_acked(fd, &acked, &all), 0);
        if (all)
            return acked;
        const struct timespec pause = { 0, 1000 * 1000 };
        nanosleep(&pause, NULL);
    }
    ck_abort_msg("bytes still held after %d s", WAIT_S);
    return 0;
}

/* Reads exactly n bytes from fd (blocking). */
static void read_n(int fd, size_t n)
{
    char buf[4096];
    while (n > 0) {
        ssize_t r = read(fd, buf, n < sizeof buf ? n : sizeof buf);
        ck_assert_int_gt(r, 0);
        n -= (size_t)r;
    }
}

START_TEST(fresh_connection_holds_nothing)
{
    int srv, cli;
    tcp_pair(&srv, &cli, 0);
    uint64_t acked = 99;
    int all = 0;
    ck_assert_int_eq(tcp_acked(srv, &acked, &all), 0);
    ck_assert_int_eq(all, 1);
    ck_assert_uint_eq(acked, 0);
    close(srv);
    close(cli);
}
END_TEST

START_TEST(bytes_read_are_acknowledged)
{
    int srv, cli;
    tcp_pair(&srv, &cli, 0);
    char frame[1000];
    memset(frame, 'x', sizeof frame);
    ck_assert_int_eq(write(srv, frame, sizeof frame), (ssize_t)sizeof frame);
    read_n(cli, sizeof frame);
    ck_assert_uint_eq(wait_all_taken(srv), sizeof frame);
    ck_assert_int_eq(write(srv, frame, 200), 200);
    read_n(cli, 200);
    ck_assert_uint_eq(wait_all_taken(srv), sizeof frame + 200);
    close(srv);
    close(cli);
}
END_TEST

/* A peer that reads nothing: once its window is shut the kernel holds
 * what we wrote and the acknowledged count is short of it; when it reads
 * everything, all of it is acknowledged. */
START_TEST(unread_bytes_are_held)
{
    int srv, cli;
    tcp_pair(&srv, &cli, 4096);
    char chunk[4096];
    memset(chunk, 'y', sizeof chunk);
    size_t written = 0;
    for (;;) {
        ssize_t w = write(srv, chunk, sizeof chunk);
        if (w < 0) {
            ck_assert(errno == EAGAIN || errno == EWOULDBLOCK);
            break;
        }
        written += (size_t)w;
    }
    uint64_t acked = 0, held = 0;
    int all = 1;
    ck_assert_int_eq(tcp_acked(srv, &acked, &all), 0);
    ck_assert_int_eq(all, 0);
    ck_assert_uint_lt(acked, written);
    /* what the kernel holds for it, in bytes (tcp_unacked) */
    ck_assert_int_eq(tcp_unacked(srv, &held), 0);
    ck_assert_uint_gt(held, 0);
    ck_assert_uint_le(held, written);
    read_n(cli, written);
    ck_assert_uint_eq(wait_all_taken(srv), written);
    ck_assert_int_eq(tcp_unacked(srv, &held), 0);
    ck_assert_uint_eq(held, 0);
    close(srv);
    close(cli);
}
END_TEST

/* After a shutdown with everything taken, tcp_unacked holds at most the
 * FIN, one, until the peer acknowledges it, then none (the session tells
 * an orphan to be from that: server/session/session.c, on_shutdown). On
 * loopback the FIN is acknowledged almost at once, so the one is rarely
 * seen: this holds the bound, not the count. */
START_TEST(a_shutdown_holds_at_most_its_fin)
{
    int srv, cli;
    tcp_pair(&srv, &cli, 0);
    ck_assert_int_eq(write(srv, "goodbye", 7), 7);
    read_n(cli, 7);
    wait_all_taken(srv);
    ck_assert_int_eq(shutdown(srv, SHUT_WR), 0);
    uint64_t held = 99;
    time_t deadline = time(NULL) + WAIT_S;
    do {
        ck_assert_int_eq(tcp_unacked(srv, &held), 0);
        ck_assert_uint_le(held, 1);
        const struct timespec pause = { 0, 1000 * 1000 };
        nanosleep(&pause, NULL);
    } while (held != 0 && time(NULL) < deadline);
    ck_assert_uint_eq(held, 0);
    char c;
    ck_assert_int_eq(read(cli, &c, 1), 0); /* the peer sees the end */
    close(srv);
    close(cli);
}
END_TEST

/* Writes n bytes to srv, the peer reads them, and the kernel holds none. */
static void taken(int srv, int cli, size_t n)
{
    char frame[1000];
    ck_assert_uint_le(n, sizeof frame);
    memset(frame, 'z', n);
    ck_assert_int_eq(write(srv, frame, n), (ssize_t)n);
    read_n(cli, n);
    (void)wait_all_taken(srv);
}

/* The sweep's questions (sess_output_stalled, on a clock the test gives):
 * with a long write_timeout the kernel is asked what the client took only
 * every sixteenth of it, with a short one at every sweep; between two
 * questions the session's count stays what the last one found. */
START_TEST(the_sweep_asks_every_sixteenth_of_a_long_timeout)
{
    ck_assert_uint_eq(sess_stall_ask_ms(2000), 1000);
    ck_assert_uint_eq(sess_stall_ask_ms(16000), 1000);
    ck_assert_uint_eq(sess_stall_ask_ms(60000), 3750);
    int srv, cli;
    tcp_pair(&srv, &cli, 0);
    sess_t *s = calloc(1, sizeof *s);
    ck_assert_ptr_nonnull(s);
    s->fd_plus1 = srv + 1;
    taken(srv, cli, 1000);
    s->out_held = 1; /* a frame written at 10 s */
    s->acked_ms = 10000;
    ck_assert_int_eq(sess_output_stalled(s, 10000, 60000), 0);
    ck_assert_uint_eq(s->acked, 1000); /* asked: all taken */
    ck_assert_int_eq(s->out_held, 0);

    taken(srv, cli, 200);
    s->out_held = 1;
    s->acked_ms = 10200;
    for (uint64_t now = 11000; now <= 13000; now += 1000) {
        ck_assert_int_eq(sess_output_stalled(s, now, 60000), 0);
        ck_assert_uint_eq(s->acked, 1000); /* not asked */
        ck_assert_int_eq(s->out_held, 1);
    }
    ck_assert_int_eq(sess_output_stalled(s, 14000, 60000), 0);
    ck_assert_uint_eq(s->acked, 1200); /* 4 s on: asked */
    ck_assert_int_eq(s->out_held, 0);

    taken(srv, cli, 300);
    s->out_held = 1;
    s->acked_ms = 14500;
    ck_assert_int_eq(sess_output_stalled(s, 15000, 2000), 0);
    ck_assert_uint_eq(s->acked, 1500); /* a short timeout: every sweep */
    taken(srv, cli, 100);
    s->out_held = 1;
    ck_assert_int_eq(sess_output_stalled(s, 15999, 2000), 0);
    ck_assert_uint_eq(s->acked, 1600); /* a sweep a little early too */
    free(s);
    close(srv);
    close(cli);
}
END_TEST

START_TEST(not_tcp_refused)
{
    int sv[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    uint64_t acked;
    int all;
    ck_assert_int_eq(tcp_acked(sv[0], &acked, &all), -1);
    close(sv[0]);
    close(sv[1]);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("tcp_acked");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 2 * WAIT_S + 10);
    tcase_add_test(tc, fresh_connection_holds_nothing);
    tcase_add_test(tc, bytes_read_are_acknowledged);
    tcase_add_test(tc, unread_bytes_are_held);
    tcase_add_test(tc, a_shutdown_holds_at_most_its_fin);
    tcase_add_test(tc, not_tcp_refused);
    tcase_add_test(tc, the_sweep_asks_every_sixteenth_of_a_long_timeout);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
