/* test_accept_pause.c - the acceptor out of descriptors (server/host.c,
 * on_acceptable): accept() failing with EMFILE pauses accepting for
 * 100 ms (host_pause_accepting; a stall's first pause logged, its tenth,
 * and its end), and the waiting connections stay
 * in the listen backlog until descriptors are free again.
 *
 * The limit the server reads at start never gets it there: fd_budget
 * (server/fd_budget.h, test_fd_budget) closes connections at the limit
 * minus its reserve, before accept() can fail. accept() fails when the
 * limit is lowered after start, under what the budget read: an operator's
 * prlimit(1) on a running server does just that. So the test starts the
 * server with the limit it has, then lowers the server's soft limit with
 * prlimit(2) to a few descriptors above what it holds (counted in
 * /proc/PID/fd) and connects more clients than that leaves room for. */
#define _GNU_SOURCE /* prlimit */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

/* Descriptors left free under the lowered limit, and the connections
 * past them that accept() cannot take. */
#define ROOM 2
#define PAST 8
#define FLOOD (ROOM + PAST)

/* The exact line host.c logs (after the time and the level). */
static const char pause_line[] =
    "Z error accept: Too many open files: pausing for 100 ms\n";
/* A stall's tenth pause, and its end (the count of pauses after it). */
static const char still_line[] = "Z error accept: Too many open files: "
                                 "still pausing (10 pauses of 100 ms so far)\n";
static const char end_line[] = "Z info accept: accepting again after ";

/* The soft limit that leaves process pid exactly `room` descriptors: the
 * (room + 1)th lowest number it does not have open (/proc/PID/fd), as
 * the kernel hands out the lowest free number first. Descriptors open
 * above it (the test runner's, inherited) stay open and take no room. */
static int limit_leaving(int pid, int room)
{
    enum { MAX_FD = 4096 };
    static unsigned char open_fd[MAX_FD];
    memset(open_fd, 0, sizeof open_fd);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", pid);
    DIR *d = opendir(path);
    ck_assert_msg(d != NULL, "cannot read %s", path);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] != '.' && fd < MAX_FD)
            open_fd[fd] = 1;
    }
    closedir(d);
    int fd = 0;
    for (int free_below = 0; fd < MAX_FD; fd++)
        if (!open_fd[fd] && free_below++ == room)
            break;
    ck_assert_int_lt(fd, MAX_FD);
    return fd;
}

/* Sets the soft RLIMIT_NOFILE of process pid (its hard limit kept);
 * returns the soft limit it had. */
static rlim_t set_soft_limit(int pid, rlim_t soft)
{
    struct rlimit old;
    ck_assert_int_eq(prlimit(pid, RLIMIT_NOFILE, NULL, &old), 0);
    struct rlimit rl = { soft, old.rlim_max };
    ck_assert_int_eq(prlimit(pid, RLIMIT_NOFILE, &rl, NULL), 0);
    return old.rlim_cur;
}

START_TEST(out_of_descriptors_pauses_then_accepts_again)
{
    tsrv_t *s = srv_start(NULL);
    int port = srv_port(s), pid = srv_pid(s);
    tclient_t *player = play_connect(port, NULL);
    play_step(player);

    /* ROOM descriptors left: FLOOD connections are PAST too many */
    rlim_t soft = (rlim_t)limit_leaving(pid, ROOM);
    rlim_t was = set_soft_limit(pid, soft);
    ck_assert_uint_gt(was, soft);

    tclient_t *c[FLOOD];
    cl_opts_t raw = { .raw = 1 };
    for (int i = 0; i < FLOOD; i++)
        c[i] = cl_connect(port, &raw);
    /* (b) the pause, logged */
    ck_assert_msg(srv_wait_log(s, pause_line, CL_WAIT_MS),
                  "no pause logged with %d connections for %d free "
                  "descriptors", FLOOD, ROOM);
    /* it keeps trying, and pausing, while the backlog waits: logged at
     * the tenth pause, not each one */
    ck_assert(srv_wait_log(s, still_line, CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, pause_line), 1);

    /* (a) the server is up and the player plays on meanwhile */
    ck_assert(srv_alive(s));
    play_step(player);

    /* (c) the flood gone, its descriptors are free: a new player gets in
     * (past the connections still in the backlog, accepted and closed)
     * under the same lowered limit */
    for (int i = 0; i < FLOOD; i++)
        cl_close(c[i]);
    /* none of those that waited in the backlog was lost: each accepted
     * (its connect line, after the player's) */
    ck_assert(srv_wait_log_count(s, "info connect 127.0.0.1:", 1 + FLOOD,
                                 CL_WAIT_MS));
    play_check_new_player(port);
    play_step(player);
    cl_close(player);
    /* The limit given back, one more connection is taken and accept()
     * finds the backlog empty: every stall has ended, each logged once
     * as it began and once as it ended (at the limit, a connection taken
     * is followed by a pause: the kernel refuses the descriptor before it
     * looks at the backlog; so the flood's closing may make more). */
    set_soft_limit(pid, was);
    play_check_new_player(port);

    int stalls = srv_log_count(s, pause_line);
    ck_assert_int_ge(stalls, 1);
    ck_assert(srv_wait_log_count(s, end_line, stalls, CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, end_line), stalls);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("accept_pause");
    TCase *tc = tcase_create("accept_pause");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, out_of_descriptors_pauses_then_accepts_again);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
