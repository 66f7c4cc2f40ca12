/* load_server.h - the server process a row of bench_load measures: started
 * fresh (its own data directory, built-in defaults, its log to a file, on
 * the CPUs the row gives it), read from /proc (CPU time, RSS), stopped,
 * its log read for turns and disconnects; where the generator itself runs;
 * and the server's limit on connections before the lobby, read as the
 * server reads its settings. Part of bench_load.c, kept apart for its
 * size; header-only (static inline) like floor_plan.h, so the build needs
 * no rule of its own. Needs _GNU_SOURCE before any system header
 * (sched_setaffinity). */
#ifndef ROGUE_BENCH_LOAD_SERVER_H
#define ROGUE_BENCH_LOAD_SERVER_H

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "floor_plan.h"

#define MAX_ARGS 16 /* extra server arguments */

typedef struct server {
    pid_t pid;
    int port;
    char dir[64], log[96];
} server_t;

static inline int read_file(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    size_t len = 0;
    ssize_t k;
    while (len + 1 < cap && (k = read(fd, buf + len, cap - 1 - len)) > 0)
        len += (size_t)k;
    close(fd);
    buf[len] = '\0';
    return (int)len;
}

/* VmRSS of pid in KiB, or -1. */
static inline long rss_kib(pid_t pid)
{
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    if (read_file(path, buf, sizeof buf) < 0)
        return -1;
    char *p = strstr(buf, "VmRSS:");
    return p ? strtol(p + 6, NULL, 10) : -1;
}

/* utime + stime of pid in seconds, or -1; the user share into *user (may
 * be NULL), so the floor can say which side of the system call boundary a
 * difference lies. */
static inline double cpu_user_s(pid_t pid, double *user)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (read_file(path, buf, sizeof buf) < 0)
        return -1;
    char *p = strrchr(buf, ')');
    if (!p)
        return -1;
    /* Fields after the name: 3 state ... 14 utime, 15 stime. */
    unsigned long ut = 0, st = 0;
    int field = 2;
    for (char *q = p + 1; *q && field < 15; q++) {
        if (*q == ' ') {
            field++;
            if (field == 14)
                ut = strtoul(q + 1, NULL, 10);
            else if (field == 15)
                st = strtoul(q + 1, NULL, 10);
        }
    }
    double tck = (double)sysconf(_SC_CLK_TCK);
    if (user)
        *user = (double)ut / tck;
    return (double)(ut + st) / tck;
}

static inline double cpu_s(pid_t pid)
{
    return cpu_user_s(pid, NULL);
}

static inline double self_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static inline void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* The 1-minute load average. */
static inline double load_avg(void)
{
    char buf[128];
    return read_file("/proc/loadavg", buf, sizeof buf) > 0 ? atof(buf) : -1;
}

/* Waits until pid has used no CPU for 300 ms (up to ms): start-up done.
 * Returns 1 if it went idle. */
static inline int wait_idle(pid_t pid, int ms)
{
    double last = cpu_s(pid);
    int quiet = 0;
    for (int waited = 0; waited < ms; waited += 100) {
        sleep_ms(100);
        double now = cpu_s(pid);
        quiet = now == last ? quiet + 100 : 0;
        last = now;
        if (quiet >= 300)
            return 1;
    }
    return 0;
}

/* The calling thread (the generator is one) on the CPUs cpus[0..n-1];
 * n == 0 (the CPUs unknown) leaves it where it is. */
static inline int pin_to(const int *cpus, int n)
{
    cpu_set_t set;
    if (n == 0)
        return 0;
    CPU_ZERO(&set);
    for (int i = 0; i < n; i++)
        CPU_SET(cpus[i], &set);
    return sched_setaffinity(0, sizeof set, &set);
}

/* The CPUs the generator may use, in order, as it started. */
static int all_cpus[CPU_SETSIZE], nall_cpus;

static inline void read_cpus(void)
{
    cpu_set_t set;
    nall_cpus = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return; /* unknown: none listed, so nothing is pinned */
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            all_cpus[nall_cpus++] = c;
}

/* Starts the server; pin: where it runs (its own CPUs when pinned, else
 * all the generator may use); rate: the row's keys a second a session. */
static inline int server_start(server_t *sv, const char *bin, int max_sessions,
                        int rate, char **extra, int nextra,
                        const fp_pin_t *pin)
{
    snprintf(sv->dir, sizeof sv->dir, "/tmp/bench_load.XXXXXX");
    if (!mkdtemp(sv->dir))
        return -1;
    snprintf(sv->log, sizeof sv->log, "%s/server.log", sv->dir);
    char data[96], maxs[32];
    snprintf(data, sizeof data, "%s/data", sv->dir);
    snprintf(maxs, sizeof maxs, "%d", max_sessions);
    char *argv[24 + MAX_ARGS]; /* the fixed ones (21 at most), extra, NULL */
    int a = 0;
    argv[a++] = (char *)bin;
    argv[a++] = "--config";
    argv[a++] = "/dev/null";
    argv[a++] = "--port";
    argv[a++] = "0";
    argv[a++] = "--bind";
    argv[a++] = "127.0.0.1";
    argv[a++] = "--data-dir";
    argv[a++] = data;
    argv[a++] = "--max-sessions";
    argv[a++] = maxs;
    /* Every simulated player comes from loopback: no per-address limits. */
    argv[a++] = "--set";
    argv[a++] = "max_sessions_per_ip=0";
    argv[a++] = "--set";
    argv[a++] = "connects_per_ip_per_minute=0";
    argv[a++] = "--set";
    argv[a++] = "http_port=0";
    /* A row faster than half the server's per-player key limit (its
     * default, read as the server sets it) lifts it to twice the rate,
     * as the per-address limits are lifted: the row measures keys
     * served, not keys dropped. */
    config_t defaults;
    config_defaults(&defaults);
    char keys[48];
    if (2 * rate > defaults.max_keys_per_second) {
        snprintf(keys, sizeof keys, "max_keys_per_second=%d", 2 * rate);
        argv[a++] = "--set";
        argv[a++] = keys;
    }
    for (int i = 0; i < nextra; i++)
        argv[a++] = extra[i];
    argv[a] = NULL;
    pid_t ppid = getpid();
    sv->pid = fork();
    if (sv->pid < 0)
        return -1;
    if (sv->pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the generator */
        if (getppid() != ppid)
            _exit(1);
        /* Before exec: every thread the server starts inherits it. */
        if (pin->pinned ? pin_to(pin->server_cpus, pin->nserver)
                        : pin_to(all_cpus, nall_cpus))
            _exit(126);
        int fd = open(sv->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0)
            _exit(1);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        execv(bin, argv);
        _exit(127);
    }
    static char buf[1 << 16];
    /* Up to a minute: under valgrind on a busy machine the start-up's
     * password hash alone can take tens of seconds. */
    for (int waited = 0; waited < 60000; waited += 10) {
        if (read_file(sv->log, buf, sizeof buf) > 0) {
            char *p = strstr(buf, "listening on 127.0.0.1:");
            if (p) {
                sv->port = atoi(p + strlen("listening on 127.0.0.1:"));
                return sv->port > 0 ? 0 : -1;
            }
        }
        if (waitpid(sv->pid, NULL, WNOHANG) == sv->pid) {
            sv->pid = 0;
            fprintf(stderr, "bench_load: the server exited at start:\n%s\n", buf);
            return -1;
        }
        sleep_ms(10);
    }
    fprintf(stderr, "bench_load: the server did not listen within 60 s\n");
    return -1;
}

/* SIGTERM, up to 10 s for it to exit, then SIGKILL. Returns its status. */
static inline int server_stop(server_t *sv)
{
    int st = -1;
    if (sv->pid <= 0)
        return -1;
    kill(sv->pid, SIGTERM);
    for (int waited = 0; waited < 10000; waited += 10) {
        if (waitpid(sv->pid, &st, WNOHANG) == sv->pid) {
            sv->pid = 0;
            return st;
        }
        sleep_ms(10);
    }
    kill(sv->pid, SIGKILL);
    waitpid(sv->pid, &st, 0);
    sv->pid = 0;
    return st;
}

/* Sums "turns=T" over the log's game over and game suspended lines (one
 * per game: a guest's game cut by a disconnect has its game over line, and
 * the disconnect line repeats the same turns, so it is not added); *disc
 * gets the number of disconnect lines. */
static inline long log_turns(const char *path, int *disc)
{
    FILE *f = fopen(path, "r");
    long turns = 0;
    char line[512];
    *disc = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        int is_disc = strstr(line, " disconnect ") != NULL;
        *disc += is_disc;
        char *p = strstr(line, " turns=");
        if (p && (strstr(line, " game over ") || strstr(line, " game suspended ")))
            turns += strtol(p + 7, NULL, 10);
    }
    fclose(f);
    return turns;
}

static inline void remove_dir(const char *dir)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_load: could not remove %s\n", dir);
}

/* The server's limit on connections before the lobby (startups_start),
 * read as the server reads it: its built-in defaults (bench_load passes
 * --config /dev/null), then every --set KEY=VALUE among args in order. */
static inline int server_startups_start(char **args, int nargs)
{
    config_t cfg;
    char err[256];
    config_defaults(&cfg);
    for (int i = 0; i + 1 < nargs; i++) {
        if (strcmp(args[i], "--set") != 0)
            continue;
        char kv[256];
        snprintf(kv, sizeof kv, "%s", args[++i]);
        char *eq = strchr(kv, '=');
        if (eq) {
            *eq = '\0';
            config_set(&cfg, kv, eq + 1, err, sizeof err); /* the server says */
        }
    }
    return cfg.startups_start;
}

#endif
