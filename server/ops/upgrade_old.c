/* upgrade_old.c - the old process's side of a binary upgrade (upgrade.h):
 * start the new binary, wait until it is ready, have the loops pack
 * their sessions, hand everything over, go. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl.h"
#include "game.h"
#include "host.h"
#include "le_bytes.h"
#include "log.h"
#include "upgrade_impl.h"
#include "upgrade_wire.h"

/* How long the loops may take to pack, and the new binary to take what it
 * is handed: past it the old process goes on. How long it may take to say
 * it is ready is the config's upgrade_ready_ms. */
#define UPGRADE_DEADLINE_MS 60000

extern char **environ;

enum { IDLE, STARTING, PACKING, HANDING };

struct upgrade {
    struct host *h;
    char **argv;
    char self[PATH_MAX];       /* the binary this process was started from */
    uv_signal_t sigusr2;
    uv_async_t wake;           /* a loop is done packing */
    uv_timer_t deadline;
    uv_poll_t poll;            /* the new process's "ready" */
    uv_process_t *proc;        /* the new process while it is ours to watch */
    int phase, poll_on, stopped;
    int sock;                  /* our end of the socketpair; -1 */
    int pid;
    uint64_t ctl_req;          /* the console's request to answer; 0 */
    char why[PATH_MAX + 256];  /* a refusal's words for the console, as
                                  the log has them */
    uv_mutex_t lock;           /* the loops' part, below */
    struct upgrade_item *items;
    int n, cap, loops_done;
};

/* --- the end of an upgrade ---------------------------------------------- */

static void answer(upgrade_t *u, const char *err, const char *line)
{
    ctl_req_t *r = u->ctl_req && u->h->ctl ? ctl_req_find(u->h->ctl, u->ctl_req)
                                           : NULL;
    u->ctl_req = 0;
    if (!r)
        return;
    if (line)
        ctl_req_printf(r, "%s\n", line);
    ctl_req_done(r, err);
}

static void drop_items(upgrade_t *u)
{
    uv_mutex_lock(&u->lock);
    for (int i = 0; i < u->n; i++) {
        close(u->items[i].fd);
        buf_free(&u->items[i].blob);
    }
    u->n = 0;
    u->loops_done = 0;
    uv_mutex_unlock(&u->lock);
}

static void end_wait(upgrade_t *u)
{
    uv_timer_stop(&u->deadline);
    if (u->poll_on) {
        uv_poll_stop(&u->poll);
        uv_close((uv_handle_t *)&u->poll, NULL);
        u->poll_on = 0;
    }
    if (u->sock >= 0)
        close(u->sock);
    u->sock = -1;
}

/* Everything the new binary started, not only the binary: a wrapper
 * script's server (forked, or a child left behind when the script exited)
 * would otherwise run on, holding its end of the socketpair and whatever
 * it opened. It was started as the leader of a process group of its own
 * (spawn), so the group is what is killed; a process that left the group
 * (setsid, a daemon) is beyond reach. The group outlives its leader while
 * a member runs, so this holds after the binary itself has exited too. */
static void kill_started(upgrade_t *u)
{
    if (u->pid > 0 && kill(-u->pid, SIGKILL) != 0 && errno != ESRCH)
        log_error("upgrade: cannot kill process group %d: %s", u->pid,
                  strerror(errno));
}

/* The upgrade did not happen: this process goes on serving, unless it
 * is the shutdown that stopped it (the log said it goes on, and the
 * server then stopped: a host QA). */
static void fail(upgrade_t *u, const char *why)
{
    char err[160];
    snprintf(err, sizeof err, "upgrade failed: %s", why);
    log_error("%s%s", err, atomic_load(&u->h->sh.shutting_down) ? ""
                           : "; this server goes on serving");
    int was = u->phase;
    u->phase = IDLE;
    end_wait(u);
    if (was == STARTING)
        kill_started(u); /* it never took anything */
    drop_items(u);
    if (was >= PACKING)
        host_resume_accepting(u->h);
    answer(u, err, NULL);
}

/* --- handing over --------------------------------------------------------- */

static int send_listeners(upgrade_t *u)
{
    host_t *h = u->h;
    int fds[UPGRADE_LISTENERS] = { h->telnet.fd, h->http.fd, h->ssh.fd,
                                   ctl_listen_fd(h->ctl),
                                   ctl_metrics_fd(h->ctl) };
    for (uint8_t k = 0; k < UPGRADE_LISTENERS; k++)
        if (fds[k] >= 0 && upw_send(u->sock, UPW_LISTENER, &k, 1, fds[k]) != 0)
            return -1;
    return 0;
}

static void hand(upgrade_t *u)
{
    u->phase = HANDING;
    uv_timer_stop(&u->deadline);
    int rc = send_listeners(u);
    for (int i = 0; rc == 0 && i < u->n; i++)
        rc = upw_send(u->sock, UPW_SESSION, u->items[i].blob.data,
                      u->items[i].blob.len, u->items[i].fd);
    uint64_t next = atomic_load(&u->h->sh.next_id);
    uint8_t id[8];
    le_put(id, next, 8);
    if (rc == 0)
        rc = upw_send(u->sock, UPW_END, id, sizeof id, -1);
    buf_t ack;
    buf_init(&ack, 64);
    int fd;
    if (rc == 0 && upw_recv(u->sock, &ack, 64, &fd) != UPW_TAKEN)
        rc = -1;
    buf_free(&ack);
    if (rc != 0) {
        /* the sessions packed are gone with it: said, then served on */
        char why[128];
        snprintf(why, sizeof why, "the new binary did not take over (%s); "
                 "%d sessions were lost", errno ? strerror(errno) : "closed",
                 u->n);
        fail(u, why);
        return;
    }
    char line[128];
    snprintf(line, sizeof line, "upgraded: %d session%s moved to pid %d",
             u->n, u->n == 1 ? "" : "s", u->pid);
    log_info("%s; this process exits", line);
    drop_items(u);
    end_wait(u);
    u->phase = IDLE;
    answer(u, NULL, line);
    ctl_keep_socket(u->h->ctl); /* the new process listens on it */
    host_shutdown(u->h, "upgraded");
}

static void on_wake(uv_async_t *a)
{
    upgrade_t *u = a->data;
    uv_mutex_lock(&u->lock);
    int done = u->loops_done >= u->h->sh.nworkers;
    uv_mutex_unlock(&u->lock);
    if (u->phase == PACKING && done)
        hand(u);
}

void upgrade_hold(upgrade_t *u, int on)
{
    if (on)
        uv_mutex_lock(&u->lock);
    else
        uv_mutex_unlock(&u->lock);
}

int upgrade_add(upgrade_t *u, int fd, buf_t *blob)
{
    int rc = 0;
    if (u->n == u->cap) {
        int cap = u->cap ? u->cap * 2 : 64;
        struct upgrade_item *p = realloc(u->items, (size_t)cap * sizeof *p);
        if (p) {
            u->items = p;
            u->cap = cap;
        } else {
            rc = -1;
        }
    }
    if (rc == 0)
        u->items[u->n++] = (struct upgrade_item){ fd, *blob };
    return rc;
}

void upgrade_loop_done(upgrade_t *u)
{
    uv_mutex_lock(&u->lock);
    u->loops_done++;
    uv_mutex_unlock(&u->lock);
    uv_async_send(&u->wake);
}

/* --- starting the new binary ----------------------------------------------- */

static void on_proc_closed(uv_handle_t *hd)
{
    free(hd);
}

static void on_child_exit(uv_process_t *p, int64_t status, int sig)
{
    upgrade_t *u = p->data;
    uv_close((uv_handle_t *)p, on_proc_closed);
    if (u->proc == p)
        u->proc = NULL;
    if (u->phase == STARTING) {
        /* Its own words (a bad config's FILE:LINE) went to its stderr,
         * this server's log: the answer says where to look. */
        char why[128];
        snprintf(why, sizeof why, "the new binary exited (status %lld, signal "
                 "%d) before it was ready (what it said is in this server's "
                 "log)", (long long)status, sig);
        fail(u, why);
    }
}

static void on_deadline(uv_timer_t *t)
{
    upgrade_t *u = t->data;
    if (u->phase == STARTING)
        fail(u, "the new binary did not say it was ready in time");
    else if (u->phase == PACKING)
        fail(u, "the loops did not pack their sessions in time");
}

/* The new process's first record: ready, or gone. */
static void on_ready(uv_poll_t *p, int status, int events)
{
    upgrade_t *u = p->data;
    (void)status;
    (void)events;
    /* from here on the socket is used blocking, bounded by its timeouts
     * (uv_poll_init made it non-blocking): a record may come in parts */
    int fl = fcntl(u->sock, F_GETFL);
    if (fl >= 0)
        fcntl(u->sock, F_SETFL, fl & ~O_NONBLOCK);
    buf_t b;
    buf_init(&b, 64);
    int fd;
    int type = upw_recv(u->sock, &b, 64, &fd);
    if (fd >= 0)
        close(fd);
    uv_poll_stop(&u->poll);
    if (type != UPW_READY && u->proc) {
        buf_free(&b);
        return; /* its exit (with its status) or the deadline says why */
    }
    if (type != UPW_READY || b.len != 8) {
        buf_free(&b);
        fail(u, "the new binary closed its end before it was ready");
        return;
    }
    uint32_t version = (uint32_t)le_get((const uint8_t *)b.data + 4, 4);
    buf_free(&b);
    if (version != GAME_VERSION)
        log_info("upgrade: the new binary's rules are version %u, ours %u: "
                 "games in progress end recorded", (unsigned)version,
                 (unsigned)GAME_VERSION);
    uv_close((uv_handle_t *)&u->poll, NULL);
    u->poll_on = 0;
    u->phase = PACKING;
    log_info("upgrade: pid %d is ready: handing over", u->pid);
    host_pause_accepting(u->h);
    for (int i = 0; i < u->h->sh.nworkers; i++) {
        smsg_t *m = msg_new(MSG_UPGRADE, 0, 0, NULL);
        if (m)
            m->a = version;
        if (!m || inbox_post(u->h->sh.inbox[i], m) != 0) {
            msg_free(m);
            upgrade_loop_done(u); /* a loop gone has nothing to move */
        }
    }
    uv_timer_start(&u->deadline, on_deadline, UPGRADE_DEADLINE_MS, 0);
}

/* The new process's environment: ours, and its end of the socketpair. */
static char **child_env(void)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], UPGRADE_FD_ENV "=", sizeof UPGRADE_FD_ENV) != 0)
            env[k++] = environ[i];
    env[k] = UPGRADE_FD_ENV "=3";
    return env;
}

static int spawn(upgrade_t *u, const char *exe, const char **why)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        *why = "no socketpair";
        return -1;
    }
    int argc = 0;
    while (u->argv[argc])
        argc++;
    char **args = calloc((size_t)argc + 1, sizeof *args);
    char **env = child_env();
    u->proc = calloc(1, sizeof *u->proc);
    if (!args || !env || !u->proc) {
        free(args);
        free(env);
        free(u->proc);
        u->proc = NULL;
        close(sv[0]);
        close(sv[1]);
        *why = "out of memory";
        return -1;
    }
    args[0] = (char *)exe;
    for (int i = 1; i < argc; i++)
        args[i] = u->argv[i];
    uv_stdio_container_t io[4] = {
        { .flags = UV_INHERIT_FD, .data.fd = 0 },
        { .flags = UV_INHERIT_FD, .data.fd = 1 },
        { .flags = UV_INHERIT_FD, .data.fd = 2 },
        { .flags = UV_INHERIT_FD, .data.fd = sv[1] },
    };
    /* detached: the leader of a new session and process group (setsid),
     * so that a failed start kills all it started (kill_started) */
    uv_process_options_t o = { .exit_cb = on_child_exit, .file = exe, .args = args,
                               .env = env, .stdio_count = 4, .stdio = io,
                               .flags = UV_PROCESS_DETACHED };
    u->proc->data = u;
    int rc = uv_spawn(u->h->loop, u->proc, &o);
    free(args);
    free(env);
    close(sv[1]);
    if (rc != 0) {
        uv_close((uv_handle_t *)u->proc, on_proc_closed);
        u->proc = NULL;
        close(sv[0]);
        /* the console's answer in the log's words, as fail()'s */
        /* the binary it was started from, gone (a package removed, not
         * replaced): say where a new one goes */
        int gone = rc == UV_ENOENT && strcmp(exe, u->self) == 0;
        snprintf(u->why, sizeof u->why, "upgrade failed: cannot start %s: %s%s",
                 exe, uv_strerror(rc), gone ? " (the binary this server was "
                 "started from is gone: put the new one at that path, or "
                 "name it: rogued ctl upgrade FILE)" : "");
        log_error("%s; this server goes on serving", u->why);
        *why = u->why;
        return -1;
    }
    u->pid = u->proc->pid;
    u->sock = sv[0];
    upw_timeouts(u->sock, UPGRADE_DEADLINE_MS);
    uv_poll_init(u->h->loop, &u->poll, u->sock);
    u->poll.data = u;
    u->poll_on = 1;
    uv_poll_start(&u->poll, UV_READABLE, on_ready);
    uv_timer_start(&u->deadline, on_deadline,
                   (uint64_t)u->h->cfg.upgrade_ready_ms, 0);
    log_info("upgrade: started %s as pid %d", exe, u->pid);
    return 0;
}

int upgrade_begin(upgrade_t *u, const char *exe, uint64_t ctl_req,
                  const char **why)
{
    if (!u || u->stopped || atomic_load(&u->h->sh.shutting_down)) {
        *why = "the server is shutting down";
        return -1;
    }
    if (u->phase != IDLE) {
        *why = "an upgrade is under way";
        return -1;
    }
    if (spawn(u, exe && exe[0] ? exe : u->self, why) != 0)
        return -1;
    u->phase = STARTING;
    u->ctl_req = ctl_req;
    return 0;
}

int upgrade_ctl_run(ctl_req_t *r, const char *args)
{
    const char *why;
    upgrade_t *u = ctl_req_host(r)->upgrade;
    if (upgrade_begin(u, args, ctl_req_id(r), &why) != 0) {
        ctl_req_done(r, why);
        return 0;
    }
    return 2; /* answered when it ends */
}

static void on_sigusr2(uv_signal_t *sig, int signum)
{
    const char *why;
    (void)signum;
    if (upgrade_begin(sig->data, NULL, 0, &why) != 0)
        log_error("SIGUSR2: no upgrade: %s", why);
}

upgrade_t *upgrade_start(host_t *h, char **argv)
{
    upgrade_t *u = calloc(1, sizeof *u);
    if (!u || uv_mutex_init(&u->lock) != 0) {
        free(u);
        log_error("upgrade: out of memory: SIGUSR2 does nothing");
        return NULL;
    }
    u->h = h;
    u->argv = argv;
    u->sock = -1;
    ssize_t n = readlink("/proc/self/exe", u->self, sizeof u->self - 1);
    u->self[n > 0 ? n : 0] = '\0';
    uv_async_init(h->loop, &u->wake, on_wake);
    u->wake.data = u;
    uv_timer_init(h->loop, &u->deadline);
    u->deadline.data = u;
    uv_signal_init(h->loop, &u->sigusr2);
    u->sigusr2.data = u;
    uv_signal_start(&u->sigusr2, on_sigusr2, SIGUSR2);
    h->sh.upgrade = u;
    return u;
}

void upgrade_stop(upgrade_t *u)
{
    if (!u || u->stopped)
        return;
    if (u->phase == STARTING || u->phase == PACKING)
        fail(u, "the server is shutting down");
    u->stopped = 1;
    end_wait(u);
    uv_close((uv_handle_t *)&u->sigusr2, NULL);
    uv_close((uv_handle_t *)&u->wake, NULL);
    uv_close((uv_handle_t *)&u->deadline, NULL);
    if (u->proc) { /* the new server runs on: no longer ours to watch */
        uv_close((uv_handle_t *)u->proc, on_proc_closed);
        u->proc = NULL;
    }
}

void upgrade_free(upgrade_t *u)
{
    if (!u)
        return;
    drop_items(u);
    free(u->items);
    uv_mutex_destroy(&u->lock);
    free(u);
}
