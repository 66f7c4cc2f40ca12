/* pg_hosts.c - what the tests of hosts sharing one PostgreSQL database
 * (test_pg_cluster.c, test_pg_cluster_loss.c) share: hosts and a player
 * on them, a watcher of him on another host, HAProxy before them, waits
 * on what another host publishes, a host's TCP ports and cluster name. (What runs SQL stays in the test: store_where.h's state is
 * each file's own.) */
#include <arpa/inet.h>
#include <check.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pg_hosts.h"
#include "play.h"
#include "sock_table.h"

char cluster_dir[64], cluster_store_arg[300];

/* Presses key until text is on c's screen (what another host publishes
 * arrives with its next heartbeat). Returns 1, or 0 at the deadline. */
int refresh_until(tclient_t *c, const char *key, const char *text)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        if (cl_wait_text(c, text, 200))
            return 1;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000
            > 2 * CL_WAIT_MS)
            return 0;
        if (!cl_key(c, key))
            return 0;
    }
}

void walk_on(tclient_t *c, int *i, int n)
{
    for (int k = 0; k < n; k++, (*i)++) {
        char key[2] = { (char)play_walk_key(*i), 0 };
        ck_assert(cl_key(c, key));
    }
}

/* The number after `after` on c's screen, or -1. */
int number_after(const tclient_t *c, const char *after)
{
    char row[256];
    for (int y = 0; y < cl_h(c); y++) {
        const char *p = strstr(cl_row(c, y, row, sizeof row), after);
        if (p)
            return atoi(p + strlen(after));
    }
    return -1;
}

/* Two hosts x and y on the test's database, played directly (no
 * balancer), x logging at debug; dave registers on x and walks 3 steps
 * (*walked counts the walk's keys). */
tclient_t *dave_on_x(const char *seed, tsrv_t **x, tsrv_t **y, int *walked)
{
    *x = srv_start("--seed", seed, "--set", cluster_store_arg, "--log-level",
                   "debug", NULL);
    *y = srv_start("--seed", seed, "--set", cluster_store_arg, "--log-level",
                   "debug", NULL);
    tclient_t *a = play_lobby(srv_port(*x));
    play_login_dave(a, 1);
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    walk_on(a, walked, 3);
    return a;
}

/* The local ports of process pid's TCP sockets, as "p1,p2,..." in out
 * (from /proc: its descriptors' socket inodes, found in /proc/net/tcp*).
 * Returns how many. */
int tcp_ports_of(int pid, char *out, size_t len)
{
    unsigned long inodes[256];
    int ninodes = sock_inodes_of(pid, inodes, 256), nports = 0;
    out[0] = '\0';
    const char *tables[2] = { "/proc/net/tcp", "/proc/net/tcp6" };
    for (int t = 0; t < 2; t++) {
        FILE *f = fopen(tables[t], "r");
        char line[512];
        while (f && fgets(line, sizeof line, f)) {
            char local[64];
            unsigned port;
            unsigned long inode;
            /* sl local rem st tx:rx tr:when retrnsmt uid timeout inode */
            if (sscanf(line, " %*s %63[0-9A-Fa-f:] %*s %*s %*s %*s %*s %*s "
                       "%*s %lu", local, &inode) != 2 ||
                sscanf(strrchr(local, ':') + 1, "%x", &port) != 1)
                continue;
            for (int i = 0; i < ninodes; i++)
                if (inodes[i] == inode) {
                    size_t at = strlen(out);
                    snprintf(out + at, len - at, "%s%u", nports ? "," : "",
                             port);
                    nports++;
                }
        }
        if (f)
            fclose(f);
    }
    return nports;
}

void cluster_name(tsrv_t *s, char name[CLUSTER_NAME_LEN])
{
    /* The cluster connects on its own thread, after the listeners: on a
     * busy machine its first connect may time out and be tried again
     * (cluster.c's RETRY_MS), so its line is waited for. */
    srv_wait_log(s, "cluster: host ", CL_WAIT_MS);
    char *log = srv_log(s);
    const char *at = NULL;
    for (const char *p = log; (p = strstr(p, "cluster: host ")) != NULL; p++)
        at = p;
    name[0] = '\0';
    ck_assert_msg(at && sscanf(at, "cluster: host %39[a-z0-9_]", name) == 1,
                  "the host's log names no cluster channel");
    free(log);
}

static int can_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return ok;
}

/* HAProxy on `port` in front of the two hosts, in the foreground (-db) with
 * its output in the test's directory. Returns its pid once it listens. */
pid_t haproxy_start(int port, int pa, int pb)
{
    ck_assert_msg(access("/usr/sbin/haproxy", X_OK) == 0,
                  "/usr/sbin/haproxy is missing (make test installs haproxy)");
    char cfg[128], log[128];
    snprintf(cfg, sizeof cfg, "%s/haproxy.cfg", cluster_dir);
    snprintf(log, sizeof log, "%s/haproxy.log", cluster_dir);
    FILE *f = fopen(cfg, "w");
    ck_assert_ptr_nonnull(f);
    /* docs/hosting.md has this configuration, for real ports */
    fprintf(f,
            "global\n"
            "    maxconn 2000\n"
            "defaults\n"
            "    mode tcp\n"
            "    timeout connect 2s\n"
            "    timeout client 1h\n"
            "    timeout server 1h\n"
            "    retries 2\n"
            "    option redispatch\n"
            "frontend players\n"
            "    bind 127.0.0.1:%d\n"
            "    default_backend rogued\n"
            "backend rogued\n"
            "    balance source\n"
            "    hash-type consistent\n"
            "    server a 127.0.0.1:%d send-proxy-v2 check inter 200ms fall 1 rise 2\n"
            "    server b 127.0.0.1:%d send-proxy-v2 check inter 200ms fall 1 rise 2\n",
            port, pa, pb);
    fclose(f);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(127);
        execl("/usr/sbin/haproxy", "haproxy", "-db", "-f", cfg, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 600 && !can_connect(port); i++) { /* 30 s: a hang */
        struct timespec ts = { 0, 50 * 1000000L };
        nanosleep(&ts, NULL);
    }
    ck_assert_msg(can_connect(port), "HAProxy did not listen on %d", port);
    return pid;
}

void haproxy_stop(pid_t pid)
{
    kill(pid, SIGTERM);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
}

/* Both hosts' logs, then the failure (what a takeover across hosts did
 * is in them). */
void fail_with_logs(tclient_t *c, tsrv_t *x, tsrv_t *y, const char *why)
{
    char *lx = srv_log(x), *ly = srv_log(y);
    fprintf(stderr, "---- x:\n%s\n---- y:\n%s\n", lx, ly);
    free(lx);
    free(ly);
    play_fail(c, "%s", why);
}

/* A watcher on host y, from its lobby, of dave playing on another host
 * (listed once y has heard of him). */
tclient_t *watch_dave_from(tsrv_t *y)
{
    tclient_t *w = play_lobby(srv_port(y));
    ck_assert(cl_key(w, "w"));
    play_wait_text(w, "Games in progress");
    if (!refresh_until(w, " ", "dave"))
        play_fail(w, "y's lobby does not list dave of x");
    ck_assert(cl_key(w, "a"));
    play_wait_text(w, "Watching dave - q leaves");
    return w;
}

/* dave plays on x (returned), watched from y by *w, which shows his
 * turn. */
tclient_t *dave_watched(const char *seed, tsrv_t **x, tsrv_t **y,
                        int *walked, tclient_t **w)
{
    tclient_t *a = dave_on_x(seed, x, y, walked);
    *w = watch_dave_from(*y);
    int turn = cl_turn(a);
    if (!cl_wait(*w, cl_at_turn, &turn, CL_WAIT_MS))
        play_fail(*w, "the watcher is not at dave's turn %d", turn);
    return a;
}
