/* server_proc.c - the session-test harness (see client.h): the server
 * binary as a child process, its temporary directory and its log. */
#include "client.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 64

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The poll interval for things that cannot be waited on with poll(2): the
 * log file and the process. */
static void tick(void)
{
    struct timespec ts = { 0, 5 * 1000 * 1000 };
    nanosleep(&ts, NULL);
}

/* --- files ----------------------------------------------------------------- */

char *srv_read_file(const char *path)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        for (;;) {
            if (cap - len < 4096) {
                cap *= 2;
                buf = realloc(buf, cap);
                ck_assert_ptr_nonnull(buf);
            }
            ssize_t n = read(fd, buf + len, cap - len - 1);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            len += (size_t)n;
        }
        close(fd);
    }
    buf[len] = '\0';
    return buf;
}

void srv_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                char sub[PATH_MAX];
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
                srv_remove_tree(sub);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* The last `lines` lines of text. */
static const char *tail_lines(const char *text, int lines)
{
    const char *p = text + strlen(text);
    if (p > text && p[-1] == '\n')
        p--;
    while (p > text) {
        if (p[-1] == '\n' && --lines == 0)
            break;
        p--;
    }
    return p;
}

/* --- the server ------------------------------------------------------------ */

struct tsrv {
    pid_t pid;
    int exited, status;  /* set once waitpid has reaped it */
    int stopping;        /* SIGTERM or SIGINT sent: never send another (a
                            second one, once the server has closed its
                            signal handles, would kill it) */
    int port;
    char dir[512];
    char log[600];
};

/* The directory the runner made (unchecked fixture) for every test's own
 * directory; inherited by the forked tests. Empty: TMPDIR or /tmp. */
static char tmp_base[256];

static const char *tmp_root(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

const char *srv_tmp_base(void)
{
    return tmp_base[0] ? tmp_base : tmp_root();
}

void srv_tmp_setup(void)
{
    snprintf(tmp_base, sizeof tmp_base, "%s/rogued-session-XXXXXX", tmp_root());
    if (!mkdtemp(tmp_base)) {
        fprintf(stderr, "mkdtemp %s: %s\n", tmp_base, strerror(errno));
        tmp_base[0] = '\0';
    }
}

/* Any process still running with a directory under tmp_base in its
 * command line: a new binary a failed upgrade test started (it runs
 * detached, beyond the test's own kill of its server, with the old one's
 * command line). Killed by its id, and said. */
static void kill_left_servers(void)
{
    DIR *d = opendir("/proc");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == (long)getpid())
            continue;
        char path[64], cmd[4096];
        snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, cmd, sizeof cmd - 1);
        close(fd);
        if (n <= 0)
            continue;
        for (ssize_t i = 0; i < n; i++)
            if (cmd[i] == '\0')
                cmd[i] = ' ';
        cmd[n] = '\0';
        if (strstr(cmd, tmp_base) && kill((pid_t)pid, SIGKILL) == 0)
            fprintf(stderr, "---- a server a failed test left running "
                    "(pid %ld) killed: %s\n", pid, cmd);
    }
    closedir(d);
}

void srv_tmp_teardown(void)
{
    if (!tmp_base[0])
        return;
    kill_left_servers();
    /* A test that passed removed its directory in srv_stop: whatever is
     * left belongs to a test that failed. Show its server's log. */
    DIR *d = opendir(tmp_base);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char path[600];
            snprintf(path, sizeof path, "%s/%s/server.log", tmp_base, e->d_name);
            char *log = srv_read_file(path);
            fprintf(stderr, "---- server log of a failed test (%s), last lines:\n%s\n",
                    path, tail_lines(log, 40));
            free(log);
        }
        closedir(d);
    }
    srv_remove_tree(tmp_base);
    tmp_base[0] = '\0';
}

/* The server binary: ROGUED_BIN, else build/san/rogued from the repo root
 * (the working directory of run-tests.sh), else found from this test's own
 * path (build/san/tests/session/NAME -> build/san/rogued). */
static void server_path(char *out, size_t len)
{
    const char *env = getenv("ROGUED_BIN");
    if (env && *env) {
        snprintf(out, len, "%s", env);
        return;
    }
    if (access("build/san/rogued", X_OK) == 0) {
        snprintf(out, len, "build/san/rogued");
        return;
    }
    char self[512];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strstr(self, "/tests/session/");
        if (slash) {
            *slash = '\0';
            snprintf(out, len, "%s/rogued", self);
            return;
        }
    }
    snprintf(out, len, "build/san/rogued");
}

static int without_config; /* srv_next_without_config: the next start's */

void srv_next_without_config(void)
{
    without_config = 1;
}

void srv_dir(const tsrv_t *s, char *out, size_t len)
{
    snprintf(out, len, "%s", s->dir);
}

/* Reaps the server if it has exited. Returns 1 if it has. */
static int reap(tsrv_t *s, int block)
{
    if (s->exited)
        return 1;
    int st;
    pid_t r;
    do
        r = waitpid(s->pid, &st, block ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == s->pid) {
        s->exited = 1;
        s->status = st;
        return 1;
    }
    return 0;
}

static void describe_status(int st, char *out, size_t len)
{
    if (WIFEXITED(st))
        snprintf(out, len, "exit status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(out, len, "killed by signal %d", WTERMSIG(st));
    else
        snprintf(out, len, "status 0x%x", st);
}

/* Ends the test with a message and the server log's tail on stderr. */
static void srv_fail(const tsrv_t *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void srv_fail(const tsrv_t *s, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *log = srv_read_file(s->log);
    fprintf(stderr, "%s\n---- %s, last lines:\n%s\n", msg, s->log,
            tail_lines(log, 60));
    free(log);
    ck_abort_msg("%s (server log above)", msg);
}

tsrv_t *srv_start(const char *arg, ...)
{
    const char *extra[MAX_ARGS];
    int n = 0;
    va_list ap;
    va_start(ap, arg);
    for (const char *a = arg; a; a = va_arg(ap, const char *)) {
        ck_assert_int_lt(n, MAX_ARGS - 1);
        extra[n++] = a;
    }
    va_end(ap);
    extra[n] = NULL;
    return srv_start_argv(extra);
}

tsrv_t *srv_start_argv(const char *const *extra)
{
    tsrv_t *s = calloc(1, sizeof *s);
    ck_assert_ptr_nonnull(s);
    snprintf(s->dir, sizeof s->dir, "%s/rogued-test-XXXXXX",
             tmp_base[0] ? tmp_base : tmp_root());
    ck_assert_msg(mkdtemp(s->dir) != NULL, "mkdtemp %s: %s", s->dir,
                  strerror(errno));
    snprintf(s->log, sizeof s->log, "%s/server.log", s->dir);

    char bin[PATH_MAX], data[600];
    server_path(bin, sizeof bin);
    ck_assert_msg(access(bin, X_OK) == 0, "server binary %s: %s", bin,
                  strerror(errno));
    int no_config = without_config; /* then run from s->dir: bin absolute */
    without_config = 0;
    char abs_bin[PATH_MAX];
    if (no_config && realpath(bin, abs_bin))
        snprintf(bin, sizeof bin, "%s", abs_bin);
    snprintf(data, sizeof data, "%s/data", s->dir);
    const char *argv[MAX_ARGS];
    int n = 0;
    argv[n++] = bin;
    argv[n++] = "--port";
    argv[n++] = "0";
    argv[n++] = "--bind";
    argv[n++] = "127.0.0.1";
    argv[n++] = "--data-dir";
    argv[n++] = data;
    if (!no_config) {
        argv[n++] = "--config";
        argv[n++] = "/dev/null";
    }
    /* Every test client comes from 127.0.0.1: no per-address limits unless
     * a test sets them (a later --set wins). */
    argv[n++] = "--set";
    argv[n++] = "max_sessions_per_ip=0";
    argv[n++] = "--set";
    argv[n++] = "connects_per_ip_per_minute=0";
    /* the tests' guests play a few turns and expect their games kept (the
     * threshold itself is tested in tests/unit/test_store_keep.c) */
    argv[n++] = "--set";
    argv[n++] = "guest_min_turns=0";
    /* Two worker loops whatever the machine: every session test crosses
     * loops (consecutive connections land on different ones). */
    argv[n++] = "--set";
    argv[n++] = "workers=2";
    /* No browser port unless a test asks for one (on a port it picked). */
    argv[n++] = "--set";
    argv[n++] = "http_port=0";
    /* A password's hash under ASan on a loaded machine may take longer
     * than the default 3 s before the player is told the store is away
     * (test_pg_hang and test_owner_defence set their own). */
    argv[n++] = "--set";
    argv[n++] = "store_wait_ms=60000";
    for (const char *const *a = extra; *a; a++) {
        ck_assert_int_lt(n, MAX_ARGS - 1);
        argv[n++] = *a;
    }
    argv[n] = NULL;

    int logfd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    ck_assert_msg(logfd >= 0, "%s: %s", s->log, strerror(errno));
    pid_t parent = getpid();
    s->pid = fork();
    ck_assert_msg(s->pid >= 0, "fork: %s", strerror(errno));
    if (s->pid == 0) {
        /* The child: only async-signal-safe calls until exec. It dies with
         * the test (a failed check test _exits without cleaning up). */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(logfd, 1) < 0 ||
            dup2(logfd, 2) < 0 || (no_config && chdir(s->dir) != 0))
            _exit(127);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        execv(bin, (char *const *)argv);
        static const char msg[] = "exec of the server failed\n";
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
        _exit(127);
    }
    close(logfd);

    /* The kernel picked the port: the server logs it once it listens.
     * Ready is the connect line after it, logged once the server also
     * handles its signals (a SIGTERM before that would kill it with
     * status 143 on a busy machine). */
    static const char needle[] = "listening on 127.0.0.1:";
    int64_t deadline = now_ms() + CL_WAIT_MS;
    for (;;) {
        char *log = srv_read_file(s->log);
        char *at = strstr(log, needle);
        if (at && strstr(at, "info connect: telnet ")) {
            s->port = atoi(at + sizeof needle - 1);
            free(log);
            break;
        }
        free(log);
        if (reap(s, 0)) {
            char st[64];
            describe_status(s->status, st, sizeof st);
            srv_fail(s, "the server exited before listening (%s)", st);
        }
        if (now_ms() > deadline) {
            kill(s->pid, SIGKILL);
            reap(s, 1);
            srv_fail(s, "the server did not log \"%s\" within %d ms", needle,
                     CL_WAIT_MS);
        }
        tick();
    }
    ck_assert_msg(s->port > 0 && s->port < 65536, "bad port %d in the log",
                  s->port);
    return s;
}

int srv_pid(const tsrv_t *s)
{
    return (int)s->pid;
}

int srv_threads_named(const tsrv_t *s, const char *name)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)s->pid);
    DIR *d = opendir(path);
    ck_assert_msg(d != NULL, "cannot read %s", path);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char comm_path[400], comm[32] = "";
        snprintf(comm_path, sizeof comm_path, "%s/%s/comm", path, e->d_name);
        FILE *f = fopen(comm_path, "r");
        if (f && fgets(comm, sizeof comm, f)) {
            comm[strcspn(comm, "\n")] = '\0';
            n += !name || strcmp(comm, name) == 0;
        }
        if (f)
            fclose(f);
    }
    closedir(d);
    return n;
}

int srv_port(const tsrv_t *s)
{
    return s->port;
}

char *srv_log(const tsrv_t *s)
{
    return srv_read_file(s->log);
}

int srv_log_count(const tsrv_t *s, const char *needle)
{
    char *log = srv_read_file(s->log);
    int n = 0;
    for (const char *p = log; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    free(log);
    return n;
}

int srv_log_has(const tsrv_t *s, const char *needle)
{
    return srv_log_count(s, needle) > 0;
}

int srv_wait_log(const tsrv_t *s, const char *needle, int timeout_ms)
{
    return srv_wait_log_count(s, needle, 1, timeout_ms);
}

int srv_wait_log_count(const tsrv_t *s, const char *needle, int n,
                       int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        if (srv_log_count(s, needle) >= n)
            return 1;
        if (now_ms() > deadline) {
            if (timeout_ms >= CL_WAIT_MS) /* for the runner's summary */
                fprintf(stderr, "deadline: waited %d ms for \"%s\" x%d in "
                        "the server's log\n", timeout_ms, needle, n);
            return 0;
        }
        tick();
    }
}

void srv_signal(tsrv_t *s, int sig)
{
    if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP)
        s->stopping = 1;
    if (!reap(s, 0))
        kill(s->pid, sig);
}

int srv_alive(tsrv_t *s)
{
    return !reap(s, 0);
}

int srv_wait_exited(tsrv_t *s, int ms)
{
    for (int i = 0; i < ms / 10 && srv_alive(s); i++)
        usleep(10000);
    return !srv_alive(s);
}

/* 1 once pid is gone: no such process, or (unless reaped) a zombie. */
static int pid_gone(int pid, int reaped)
{
    if (kill(pid, 0) != 0)
        return 1;
    if (reaped)
        return 0;
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* "pid (comm) S ..." */
    return p && p[1] == ' ' && p[2] == 'Z';
}

int srv_wait_pid_gone(int pid, int reaped, int ms)
{
    for (int i = 0; i < ms / 10 && !pid_gone(pid, reaped); i++)
        usleep(10000);
    return pid_gone(pid, reaped);
}

void srv_kill(tsrv_t *s)
{
    if (!reap(s, 0)) {
        kill(s->pid, SIGKILL);
        reap(s, 1);
    }
    srv_remove_tree(s->dir);
    free(s);
}

void srv_stop(tsrv_t *s)
{
    if (!s)
        return;
    if (!s->stopping)
        srv_signal(s, SIGTERM);
    int64_t deadline = now_ms() + CL_WAIT_MS;
    while (!reap(s, 0)) {
        if (now_ms() > deadline) {
            kill(s->pid, SIGKILL);
            reap(s, 1);
            srv_fail(s, "the server did not exit within %d ms of SIGTERM",
                     CL_WAIT_MS);
        }
        tick();
    }
    char st[64];
    describe_status(s->status, st, sizeof st);
    if (!WIFEXITED(s->status) || WEXITSTATUS(s->status) != 0)
        srv_fail(s, "the server ended with %s, not exit status 0", st);
    /* (a loop that closed with a handle still open is a bug on the way
     * out, whatever the exit status: loop_close.h names the handle) */
    static const char *const bad[] = { "Sanitizer", "runtime error", "leak",
                                       "left open" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (srv_log_has(s, bad[i]))
            srv_fail(s, "the server log has \"%s\" in it", bad[i]);
    srv_remove_tree(s->dir);
    free(s);
}

int srv_run_once(const char *prefix, const char *args, char *out, size_t len)
{
    const char *bin = getenv("ROGUED_BIN");
    char cmd[1024];
    /* The server is not told the tests' ROGUED_BIN: it warns of it as a
     * stray key (near ROGUED_BIND) unless it names a program this user may
     * run, and a prefix may run it as another user, for whom the test's
     * directory may be shut (a clean clone in a mkdtemp directory). */
    snprintf(cmd, sizeof cmd,
             "timeout 60 env -u ROGUED_BIN %s %s --port 0 --bind 127.0.0.1 "
             "--set http_port=0 %s 2>&1 </dev/null",
             prefix, bin ? bin : "build/san/rogued", args);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void srv_data_dir(const tsrv_t *s, char *out, size_t len)
{
    snprintf(out, len, "%s/data", s->dir);
}

FILE *srv_ctl_start(const tsrv_t *s, const char *args)
{
    char bin[PATH_MAX], cmd[PATH_MAX + 1600];
    /* the console starts after the listeners' line */
    if (!srv_wait_log(s, "console on ", CL_WAIT_MS))
        srv_fail(s, "no console: no \"console on\" line");
    server_path(bin, sizeof bin);
    snprintf(cmd, sizeof cmd, "timeout 60 %s ctl --data-dir %s/data %s 2>&1 "
             "</dev/null", bin, s->dir, args);
    return popen(cmd, "r");
}

void srv_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

void srv_new_conf(char *conf, const char *text)
{
    int fd = mkstemp(conf);
    ck_assert(fd >= 0);
    close(fd);
    srv_write_file(conf, text);
}

int srv_ctl_in(const char *cwd, const char *env, const char *args, char *out,
               size_t len)
{
    char bin[PATH_MAX], cmd[PATH_MAX * 3];
    const char *b = getenv("ROGUED_BIN");
    ck_assert(realpath(b ? b : "build/san/rogued", bin));
    snprintf(cmd, sizeof cmd, "cd %s && %s timeout 60 %s ctl %s 2>&1 "
             "</dev/null", cwd, env, bin, args);
    return srv_ctl_finish(popen(cmd, "r"), out, len);
}

int srv_ctl_finish(FILE *p, char *out, size_t len)
{
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int srv_upgrade(const tsrv_t *s, char *out, size_t len)
{
    char bin[PATH_MAX], cmd[PATH_MAX + 1600];
    if (!srv_wait_log(s, "console on ", CL_WAIT_MS))
        srv_fail(s, "no console: no \"console on\" line");
    server_path(bin, sizeof bin);
    snprintf(cmd, sizeof cmd, "timeout 60 %s --upgrade --data-dir %s/data "
             "2>&1 </dev/null", bin, s->dir);
    return srv_ctl_finish(popen(cmd, "r"), out, len);
}

int srv_upgraded_pid(const char *out)
{
    const char *p = strstr(out, "moved to pid ");
    return p ? atoi(p + strlen("moved to pid ")) : 0;
}

void srv_stop_upgraded(tsrv_t *s, int pid)
{
    int before = srv_log_count(s, "info stopped\n");
    ck_assert_int_eq(kill(pid, SIGTERM), 0);
    ck_assert_msg(srv_wait_log_count(s, "info stopped\n", before + 1,
                                     CL_WAIT_MS),
                  "the new server did not stop");
    srv_wait_pid_gone(pid, 1, CL_WAIT_MS);
}

int srv_ctl(const tsrv_t *s, const char *args, char *out, size_t len)
{
    return srv_ctl_finish(srv_ctl_start(s, args), out, len);
}
