/* test_upgrade_metrics.c - /metrics across a binary upgrade
 * (docs/hosting.md, "Upgrading without a goodbye"): the metrics port's
 * listening socket is handed over with the others, so while a scraper
 * asks again and again through `rogued --upgrade`, no connect is ever
 * refused (at most the one scrape the old process had taken when it
 * exits is cut off), and once the old process has exited the answers
 * come from the new one (rogued_process_pid is the pid the upgrade names,
 * its start time no earlier than the old one's). A configuration that
 * moved metrics_port meanwhile: the new process listens on the new port,
 * the old one is closed. */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "metrics.h"

#define WAIT_MS 30000
/* the scraper's bound: one scrape every SCRAPE_PAUSE_US at most, and no
 * more than this many in all */
#define SCRAPES_MAX 20000
#define SCRAPE_PAUSE_US 2000

/* One scrape's outcome. */
enum { SCRAPE_OK, SCRAPE_REFUSED, SCRAPE_CUT };

/* GET /metrics on 127.0.0.1:port with plain sockets (the scraper runs on
 * a thread of its own: no check assertion there). *pid: the answer's
 * rogued_process_pid; *start: its rogued_process_start_time_seconds. */
static int scrape_once(int port, int *pid, double *start)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return SCRAPE_CUT;
    struct timeval tv = { WAIT_MS / 1000, 0 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    struct sockaddr_in a = { .sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        int refused = errno == ECONNREFUSED;
        close(fd);
        return refused ? SCRAPE_REFUSED : SCRAPE_CUT;
    }
    static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
    char buf[1 << 16];
    size_t n = 0;
    ssize_t k = send(fd, req, sizeof req - 1, MSG_NOSIGNAL);
    while (k > 0 && n < sizeof buf - 1 &&
           (k = recv(fd, buf + n, sizeof buf - 1 - n, 0)) > 0)
        n += (size_t)k;
    close(fd);
    buf[n] = '\0';
    const char *p = strstr(buf, "\nrogued_process_pid ");
    const char *t = strstr(buf, "\nrogued_process_start_time_seconds ");
    if (strncmp(buf, "HTTP/1.0 200 OK\r\n", 17) != 0 || !p || !t)
        return SCRAPE_CUT;
    *pid = atoi(p + strlen("\nrogued_process_pid "));
    *start = atof(t + strlen("\nrogued_process_start_time_seconds "));
    return SCRAPE_OK;
}

/* The scraper: asks until told to stop, counting each outcome. */
typedef struct scraper {
    int port;
    atomic_int stop;
    atomic_int done;           /* scrapes made */
    atomic_int count[3];       /* by outcome */
    atomic_int last_pid;       /* of the last answer */
    _Atomic double last_start;
} scraper_t;

static void *scrape_loop(void *arg)
{
    scraper_t *sc = arg;
    for (int i = 0; i < SCRAPES_MAX && !atomic_load(&sc->stop); i++) {
        int pid = 0;
        double start = 0;
        int out = scrape_once(sc->port, &pid, &start);
        atomic_fetch_add(&sc->count[out], 1);
        if (out == SCRAPE_OK) {
            atomic_store(&sc->last_pid, pid);
            atomic_store(&sc->last_start, start);
        }
        atomic_fetch_add(&sc->done, 1);
        usleep(SCRAPE_PAUSE_US);
    }
    return NULL;
}

/* Waits until the scraper has made `n` scrapes in all. */
static void wait_scrapes(scraper_t *sc, int n)
{
    for (int ms = 0; ms < WAIT_MS && atomic_load(&sc->done) < n; ms += 5)
        usleep(5000);
    ck_assert_msg(atomic_load(&sc->done) >= n, "the scraper made %d scrapes, "
                  "not %d", atomic_load(&sc->done), n);
}

START_TEST(metrics_port_moves_without_a_gap)
{
    int mport = cl_free_port();
    char set[64], line[128];
    snprintf(set, sizeof set, "metrics_port=%d", mport);
    tsrv_t *s = srv_start("--set", set, NULL);
    snprintf(line, sizeof line, "metrics on http://127.0.0.1:%d/metrics\n",
             mport);
    ck_assert(srv_wait_log(s, line, WAIT_MS));
    int old_pid = srv_pid(s);
    ck_assert(metrics_wait(mport, "rogued_process_pid", old_pid));

    scraper_t sc = { .port = mport };
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, scrape_loop, &sc), 0);
    wait_scrapes(&sc, 3);
    ck_assert_int_eq(atomic_load(&sc.last_pid), old_pid);
    double old_start = atomic_load(&sc.last_start);

    char out[1024];
    int rc = srv_upgrade(s, out, sizeof out);
    int pid = srv_upgraded_pid(out);
    ck_assert_msg(rc == 0 && pid > 0, "rogued --upgrade: status %d: %s", rc, out);
    ck_assert_int_ne(pid, old_pid);
    ck_assert_msg(srv_wait_exited(s, WAIT_MS), "the old process did not exit");
    /* scrapes made after the old process is gone */
    wait_scrapes(&sc, atomic_load(&sc.done) + 3);
    atomic_store(&sc.stop, 1);
    pthread_join(th, NULL);
    fprintf(stderr, "scrapes: %d answered, %d refused, %d cut off\n",
            atomic_load(&sc.count[SCRAPE_OK]),
            atomic_load(&sc.count[SCRAPE_REFUSED]),
            atomic_load(&sc.count[SCRAPE_CUT]));

    ck_assert_msg(atomic_load(&sc.count[SCRAPE_REFUSED]) == 0,
                  "%d of %d scrapes refused across the upgrade",
                  atomic_load(&sc.count[SCRAPE_REFUSED]),
                  atomic_load(&sc.done));
    /* the scraper has one scrape open at a time: the old process, as it
     * exits, may cut off the one it had taken, no other */
    ck_assert_int_le(atomic_load(&sc.count[SCRAPE_CUT]), 1);
    ck_assert_int_ge(atomic_load(&sc.count[SCRAPE_OK]), 5); /* 3 before, 2 after */
    ck_assert_int_eq(atomic_load(&sc.last_pid), pid);
    ck_assert(atomic_load(&sc.last_start) >= old_start);
    /* the new process says it took the socket over, and answers alone */
    snprintf(line, sizeof line, "metrics on http://127.0.0.1:%d/metrics "
             "(taken over from the old process)\n", mport);
    ck_assert(srv_wait_log(s, line, WAIT_MS));
    ck_assert(metrics_is(mport, "rogued_process_pid", pid));

    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

/* A server reading a configuration file of its own, holding text; conf
 * is a mkstemp template, filled in (the caller unlinks it). */
static tsrv_t *start_with_conf(char *conf, const char *text)
{
    srv_new_conf(conf, text);
    return srv_start("--config", conf, NULL);
}

/* Upgrades s to the same binary; the new process's pid, once its log
 * says `line` and the old process has exited. */
static int upgrade_saying(tsrv_t *s, const char *line)
{
    char out[1024];
    int rc = srv_upgrade(s, out, sizeof out);
    int pid = srv_upgraded_pid(out);
    ck_assert_msg(rc == 0 && pid > 0, "rogued --upgrade: status %d: %s", rc, out);
    ck_assert(srv_wait_log(s, line, WAIT_MS));
    ck_assert_msg(srv_wait_exited(s, WAIT_MS), "the old process did not exit");
    return pid;
}

/* A connect to 127.0.0.1:port is refused: nothing listens there. */
static void expect_refused(int port)
{
    int got = 0;
    double start;
    ck_assert_int_eq(scrape_once(port, &got, &start), SCRAPE_REFUSED);
}

/* The configuration file moved metrics_port before the upgrade: the new
 * process closes the port it was handed and listens on the new one. */
START_TEST(a_moved_metrics_port_is_bound_anew)
{
    char conf[] = "/tmp/rogued-upgrade-conf-XXXXXX", text[64], line[128];
    int a = cl_free_port(), b = cl_free_port();
    ck_assert_int_ne(a, b);
    snprintf(text, sizeof text, "metrics_port = %d\n", a);
    tsrv_t *s = start_with_conf(conf, text);
    snprintf(line, sizeof line, "metrics on http://127.0.0.1:%d/metrics\n", a);
    ck_assert(srv_wait_log(s, line, WAIT_MS));
    snprintf(text, sizeof text, "metrics_port = %d\n", b);
    srv_write_file(conf, text);
    snprintf(line, sizeof line, "metrics on http://127.0.0.1:%d/metrics\n", b);
    int pid = upgrade_saying(s, line);
    ck_assert(metrics_is(b, "rogued_process_pid", pid));
    expect_refused(a);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
    unlink(conf);
}
END_TEST

/* The configuration file turned the SSH port off (ssh_port 0) before
 * the upgrade: the new process closes the socket it was handed, so that a
 * client is refused at once rather than left waiting on a port no
 * process accepts on (http_port is closed the same way; the tests' own
 * --set http_port=0 pins that one). */
START_TEST(a_port_turned_off_is_closed)
{
    char conf[] = "/tmp/rogued-upgrade-conf-XXXXXX", text[64], line[128];
    int a = cl_free_port();
    snprintf(text, sizeof text, "ssh_port = %d\n", a);
    tsrv_t *s = start_with_conf(conf, text);
    snprintf(line, sizeof line, "ssh on 127.0.0.1:%d (ssh -p %d play@HOST)",
             a, a);
    ck_assert(srv_wait_log(s, line, WAIT_MS));
    srv_write_file(conf, "ssh_port = 0\n");
    snprintf(line, sizeof line, "ssh on 127.0.0.1:%d closed: ssh_port is 0 "
             "now", a);
    int pid = upgrade_saying(s, line);
    expect_refused(a);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
    unlink(conf);
}
END_TEST

/* The configuration file moved metrics_port to a port in use before the
 * upgrade: the new process says why it has no /metrics and runs on (it
 * holds the sessions), its console answering; the old port is closed. */
START_TEST(a_metrics_port_in_use_leaves_the_upgrade_running)
{
    char conf[] = "/tmp/rogued-upgrade-conf-XXXXXX", text[64], line[256];
    int a = cl_free_port(), b = cl_free_port();
    ck_assert_int_ne(a, b);
    snprintf(text, sizeof text, "metrics_port = %d\n", a);
    tsrv_t *s = start_with_conf(conf, text);
    snprintf(line, sizeof line, "metrics on http://127.0.0.1:%d/metrics\n", a);
    ck_assert(srv_wait_log(s, line, WAIT_MS));
    int taken = cl_hold_port(b);
    snprintf(text, sizeof text, "metrics_port = %d\n", b);
    srv_write_file(conf, text);
    int pid = upgrade_saying(s, "metrics: off until the next start (this "
                             "process holds the sessions already)\n");
    snprintf(line, sizeof line, "cannot listen on 127.0.0.1 port %d "
             "(metrics_port): Address already in use", b);
    ck_assert(srv_log_has(s, line));
    ck_assert_int_eq(srv_log_count(s, "metrics on http://"), 1);
    expect_refused(a);
    char out[1024];
    ck_assert_int_eq(srv_ctl(s, "who", out, sizeof out), 0);
    close(taken);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
    unlink(conf);
}
END_TEST

/* The configuration file turned /metrics off (metrics_port 0) before the
 * upgrade: the new process closes the socket it was handed. */
START_TEST(metrics_turned_off_is_closed)
{
    char conf[] = "/tmp/rogued-upgrade-conf-XXXXXX", text[64], line[128];
    int a = cl_free_port();
    snprintf(text, sizeof text, "metrics_port = %d\n", a);
    tsrv_t *s = start_with_conf(conf, text);
    snprintf(line, sizeof line, "metrics on http://127.0.0.1:%d/metrics\n", a);
    ck_assert(srv_wait_log(s, line, WAIT_MS));
    srv_write_file(conf, "metrics_port = 0\n");
    int pid = upgrade_saying(s, "upgraded: serving as pid");
    expect_refused(a);
    ck_assert_int_eq(srv_log_count(s, "metrics on http://"), 1);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
    unlink(conf);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("upgrade_metrics");
    TCase *tc = tcase_create("upgrade_metrics");
    tcase_set_timeout(tc, 240);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, metrics_port_moves_without_a_gap);
    tcase_add_test(tc, a_port_turned_off_is_closed);
    tcase_add_test(tc, a_moved_metrics_port_is_bound_anew);
    tcase_add_test(tc, a_metrics_port_in_use_leaves_the_upgrade_running);
    tcase_add_test(tc, metrics_turned_off_is_closed);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
