/* host.c - the acceptor, the signals and the worker loops (host.h). */
#define _GNU_SOURCE /* accept4 */
#include "host.h"
#include "loop_close.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "byte_io.h"
#include "cluster.h"
#include "ctl.h"
#include "connect_lines.h"
#include "log.h"
#include "rebuild_pool.h"
#include "refusals.h"
#include "store.h"
#include "upgrade.h"

int host_default_workers(void)
{
    unsigned n = uv_available_parallelism();
    return n < 1 ? 1 : n > HOST_WORKERS_MAX ? HOST_WORKERS_MAX : (int)n;
}

/* The worker with the fewest sessions, ties taken in turn. */
static int pick_worker(host_t *h)
{
    int best = -1, best_load = 0;
    for (int k = 0; k < h->sh.nworkers; k++) {
        int i = (h->next_worker + k) % h->sh.nworkers;
        int load = atomic_load(&h->sh.load[i]);
        if (best < 0 || load < best_load) {
            best = i;
            best_load = load;
        }
    }
    h->next_worker = (best + 1) % h->sh.nworkers;
    return best;
}

static void on_accept_resume(uv_timer_t *t);

/* The SSH bridge's threads hand a connection here once the player is in
 * (ssh_bridge.h: its libssh session, ssh_play.h), or say that one ended
 * before (conn NULL): it was counted on worker w when accepted, and holds
 * its slot and its place among the startups (srv_ssh_hold) until its
 * session takes them. conn is taken either way. */
static int hand_ssh_game(void *arg, int w, void *conn, const byte_io_t *io,
                         const char *what)
{
    host_t *h = arg;
    /* what: "ssh ADDR", or "ssh ADDR ID NAME DISPLAY" after a key login
     * (the bridge's words, not the client's); not sent unless whole (a
     * name cut short could be another account's) */
    msg_accept_t acc = { .kind = ACCEPT_SSH, .conn = conn, .io = io };
    char from[96]; /* "ip:port", as srv_ssh_hold was given it */
    snprintf(from, sizeof from, "%.*s", (int)strcspn(what + 4, " "),
             what + 4);
    if (conn && strlen(what) < 96) {
        snprintf(acc.addr, sizeof acc.addr, "%s", from);
        long long id = 0;
        char addr[96];
        if (sscanf(what, "ssh %95s %lld %21s %d", addr, &id, acc.name,
                   &acc.display) == 4)
            acc.account_id = id;
        else
            acc.name[0] = '\0';
        if (srv_send_connection(&h->workers[w], -1, &acc) == 0)
            return 0; /* its hold is the session's now (sess_accept) */
    }
    if (conn)
        io->drop(conn);
    srv_ssh_hold_release(&h->sh, from);
    atomic_fetch_sub(&h->sh.load[w], 1);
    return -1;
}

/* An SSH connection: one of the bridge's threads (ssh_bridge.h) runs its
 * key exchange and login, then hands it to worker w, which plays it as a
 * session with the player's address. */
static void hand_ssh(host_t *h, int w, int fd,
                     const struct sockaddr_storage *peer)
{
    char addr[80] = "?:0";
    if (peer->ss_family != 0)
        srv_addr_name(peer, addr, sizeof addr);
    /* counted from its accept, as telnet is from its first byte: the
     * handshake and the login hold a slot and may be dropped early */
    if (srv_ssh_hold(&h->sh, h->cfg.max_sessions, &h->ssh_drops,
                     addr) != 0) {
        close(fd);
        atomic_fetch_sub(&h->sh.load[w], 1);
        return;
    }
    ssh_bridge_accept(h->ssh_bridge, fd, w, addr);
}

/* Out of descriptors (or buffers): the connection waits in the backlog
 * rather than the acceptor spinning on it. A stall can last minutes, ten
 * pauses a second: its first pause is logged, then the 10th, 100th,
 * 1,000th... and its end (accept_stall_over), not each one. It ends when
 * accept() finds the backlog empty, not at a connection taken: at the
 * limit, the kernel refuses the descriptor before it looks at the
 * backlog, so a connection taken is followed by one more pause. */
static void accept_pause(host_t *h, int err)
{
    long n = ++h->accept_pauses;
    long p10 = 1;
    while (p10 < n)
        p10 *= 10;
    if (n == 1)
        log_error("accept: %s: pausing for 100 ms", strerror(err));
    else if (n == p10)
        log_error("accept: %s: still pausing (%ld pauses of 100 ms so far)",
                  strerror(err), n);
    host_pause_accepting(h);
    uv_timer_start(&h->accept_pause, on_accept_resume, 100, 0);
}

static void accept_stall_over(host_t *h)
{
    if (h->accept_pauses == 0)
        return;
    log_info("accept: accepting again after %ld pause%s of 100 ms",
             h->accept_pauses, h->accept_pauses == 1 ? "" : "s");
    h->accept_pauses = 0;
}

static void on_acceptable(uv_poll_t *p, int status, int events)
{
    listener_t *l = p->data;
    host_t *h = l->host;
    (void)events;
    if (status < 0) {
        log_error("accept: %s", uv_strerror(status));
        return;
    }
    /* A bounded batch: one flood of connections must not hold the
     * acceptor from its signals. */
    for (int i = 0; i < 64; i++) {
        msg_accept_t acc = { .kind = l->kind == LISTEN_HTTP ? ACCEPT_WEB
                                                            : ACCEPT_TELNET };
        socklen_t plen = sizeof acc.peer;
        int fd = accept4(l->fd, (struct sockaddr *)&acc.peer, &plen,
                         SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
                errno == ENOMEM) {
                accept_pause(h, errno);
            } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
                accept_stall_over(h); /* a descriptor free, none waiting */
            } else if (errno != EINTR && errno != ECONNABORTED) {
                log_error("accept: %s", strerror(errno));
            }
            return;
        }
        if (fdb_admit(&h->fds, fd, uv_now(h->loop)) != 0) {
            close(fd); /* the reserve is not for players */
            continue;
        }
        int w = pick_worker(h);
        atomic_fetch_add(&h->sh.load[w], 1);
        if (l->kind == LISTEN_SSH) {
            hand_ssh(h, w, fd, &acc.peer);
            continue;
        }
        if (srv_send_connection(&h->workers[w], fd, &acc) != 0) {
            atomic_fetch_sub(&h->sh.load[w], 1);
            close(fd);
        }
    }
}

/* A listener's poll handle, for one that has a socket (the telnet one
 * always has; HTTP's and SSH's only when their ports are set). */
static void listener_poll_init(uv_loop_t *loop, listener_t *l)
{
    if (l->fd < 0)
        return;
    uv_poll_init(loop, &l->poll, l->fd);
    l->poll.data = l;
}

static void listener_poll_start(listener_t *l)
{
    if (l->fd >= 0)
        uv_poll_start(&l->poll, UV_READABLE, on_acceptable);
}

static void listener_poll_stop(listener_t *l)
{
    if (l->fd >= 0)
        uv_poll_stop(&l->poll);
}

/* At shutdown: the handle closed, for a listener that has one (the
 * socket itself is closed once the loop has ended, host_run). */
static void listener_poll_close(listener_t *l)
{
    if (l->fd >= 0)
        uv_close((uv_handle_t *)&l->poll, NULL);
}

void host_resume_accepting(host_t *h)
{
    if (atomic_load(&h->sh.shutting_down))
        return;
    listener_poll_start(&h->telnet);
    listener_poll_start(&h->http);
    listener_poll_start(&h->ssh);
}

void host_pause_accepting(host_t *h)
{
    uv_timer_stop(&h->accept_pause);
    listener_poll_stop(&h->telnet);
    listener_poll_stop(&h->http);
    listener_poll_stop(&h->ssh);
}

static void on_accept_resume(uv_timer_t *t)
{
    host_resume_accepting(t->data);
}

void host_session_gone(host_t *h, int worker)
{
    atomic_fetch_sub(&h->sh.load[worker], 1);
}

static void on_signal(uv_signal_t *sig, int signum)
{
    host_t *h = sig->data;
    /* SIGHUP (the terminal that ran us closed) is a clean shutdown too:
     * every game kept or recorded, never lost. */
    host_shutdown(h, signum == SIGINT ? "SIGINT"
                     : signum == SIGHUP ? "SIGHUP" : "SIGTERM");
}

static void on_sweep(uv_timer_t *t)
{
    host_t *h = t->data;
    addr_sweep(&h->sh.addrs, uv_now(h->loop));
    refusal_log_flush(); /* a flood's refusals not logged one by one */
}

/* addr_text and port as a socket address: 0, or a libuv error. */
static int parse_addr(const char *addr_text, int port,
                      struct sockaddr_storage *addr)
{
    memset(addr, 0, sizeof *addr);
    if (strchr(addr_text, ':'))
        return uv_ip6_addr(addr_text, port, (struct sockaddr_in6 *)addr);
    return uv_ip4_addr(addr_text, port, (struct sockaddr_in *)addr);
}

/* How a host moves key's listener, in the way they started the server:
 * `make run` (config_t's make_run) is rerun with PORT= or ARGS=, not
 * with the server's flags. */
static void move_hint(int make_run, const char *key, char *hint, size_t n)
{
    if (!make_run)
        snprintf(hint, n, "--set %s=N", key);
    else if (strcmp(key, "port") == 0)
        snprintf(hint, n, "make run PORT=N");
    else
        snprintf(hint, n, "make run ARGS=\"--set %s=N\"", key);
}

/* A listening socket on addr and port, or -1 (logged, naming key: the
 * setting that moves it, in the way cfg says the server was started). */
static int open_listener(const config_t *cfg, const char *addr_text,
                         int port, const char *key)
{
    struct sockaddr_storage addr;
    if (parse_addr(addr_text, port, &addr) != 0) {
        log_error("address '%s' is not an IP address", addr_text);
        return -1;
    }
    int fd = socket(addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
                    0);
    if (fd < 0) {
        log_error("cannot make a socket: %s", strerror(errno));
        return -1;
    }
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    socklen_t len = addr.ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                               : sizeof(struct sockaddr_in);
    if (bind(fd, (struct sockaddr *)&addr, len) != 0 || listen(fd, 511) != 0) {
        int e = errno;
        /* In use: most often a second server on one machine; the key that
         * moves it is named. */
        char hint[120] = "", how[64];
        if (e == EADDRINUSE) {
            move_hint(cfg->make_run, key, how, sizeof how);
            snprintf(hint, sizeof hint, " (another server on it? %s moves "
                     "this one)", how);
        }
        log_error("cannot listen on %s port %d (%s): %s%s", addr_text, port,
                  key, strerror(e), hint);
        close(fd);
        return -1;
    }
    return fd;
}

int host_ports_free(const config_t *cfg)
{
    config_port_t ports[CONFIG_PORTS];
    config_ports(cfg, ports);
    for (int i = 0; i < CONFIG_PORTS; i++) {
        if (ports[i].port <= 0)
            continue;
        int fd = open_listener(cfg, ports[i].addr, ports[i].port,
                               ports[i].key);
        if (fd < 0)
            return -1;
        close(fd); /* nothing was accepted: no TIME_WAIT holds it */
    }
    return 0;
}

/* The setting that names a listener's port, and how the log names it. */
static const char *kind_key(int kind)
{
    return kind == LISTEN_HTTP ? "http_port"
           : kind == LISTEN_SSH ? "ssh_port" : "port";
}

static const char *kind_label(int kind)
{
    return kind == LISTEN_HTTP ? "browser page"
           : kind == LISTEN_SSH ? "ssh" : "listening";
}

/* The address a listening socket is bound to ("?" if it cannot tell):
 * with port 0 the kernel picks the port, and the tests read it from the
 * log. */
static void bound_name(int fd, char *name, size_t len)
{
    struct sockaddr_storage bound;
    socklen_t blen = sizeof bound;
    snprintf(name, len, "?");
    if (getsockname(fd, (struct sockaddr *)&bound, &blen) == 0)
        srv_addr_name(&bound, name, len);
}

/* A listening socket on cfg's address and `port`, or -1 (logged). */
static int listen_socket(host_t *h, int port, int kind)
{
    const config_t *c = &h->cfg;
    int fd = open_listener(c, c->bind, port, kind_key(kind));
    if (fd < 0)
        return -1;
    char name[80];
    bound_name(fd, name, sizeof name);
    if (kind == LISTEN_HTTP)
        log_info("browser page on http://%s/ (the same game in a web "
                 "terminal)", name);
    else if (kind == LISTEN_SSH) /* the port as bound (port 0: any) */
        log_info("ssh on %s (ssh -p %s play@HOST), host key %s", name,
                 strrchr(name, ':') ? strrchr(name, ':') + 1 : "PORT",
                 h->ssh_bridge->fingerprint);
    else
        log_info("listening on %s (max %d players, %d worker loop%s)", name,
                 c->max_sessions, h->sh.nworkers, h->sh.nworkers == 1 ? "" : "s");
    return fd;
}

/* Frees what host_init made, the workers not started or joined already. */
static void host_free(host_t *h)
{
    free(h->workers);
    free(h->sh.load);
    h->workers = NULL;
    h->sh.load = NULL;
    dir_free(&h->sh.dir);
    news_free(&h->sh.news);
    site_cache_free(&h->sh.site_cache);
    addr_limits_free(&h->sh.addrs);
    grace_free(&h->sh.grace); /* empty: each worker drained it (srv_shutdown) */
    lt_free(&h->sh.logins);
    /* Every session is gone, and each cancelled its rebuild: none posts. */
    rbp_free(h->sh.rebuilds);
    h->sh.rebuilds = NULL;
}

/* Starts the worker loops, each with what they share: how many started
 * (fewer than nworkers when one could not). */
static int start_workers(host_t *h)
{
    /* each loop's inbox, for the others and the cluster to post to */
    for (int i = 0; i < h->sh.nworkers; i++)
        h->sh.inbox[i] = &h->workers[i].inbox;
    int started = 0;
    for (; started < h->sh.nworkers; started++)
        if (srv_init(&h->workers[started], &h->sh, &h->cfg, started) != 0 ||
            srv_start(&h->workers[started]) != 0)
            break;
    return started;
}

/* ssh_port: the SSH players' threads (ssh_bridge.h), with their limits,
 * handing each logged-in player to a loop. Returns 0, or -1 (logged). */
static int start_ssh_bridge(host_t *h, const config_t *cfg)
{
    char err[512];
    h->ssh_bridge = calloc(1, sizeof *h->ssh_bridge);
    if (!h->ssh_bridge ||
        ssh_bridge_init(h->ssh_bridge, cfg->data_dir, cfg->ssh_ciphers, err,
                        sizeof err) != 0) {
        log_error("%s", h->ssh_bridge ? err : "out of memory");
        free(h->ssh_bridge);
        h->ssh_bridge = NULL;
        return -1;
    }
    h->ssh_bridge->store = h->sh.store;
    ssh_bridge_set_limits(h->ssh_bridge, cfg->ssh_unauth_per_ip,
                          cfg->ssh_login_grace_ms, cfg->ssh_fail_delay_ms);
    h->ssh_bridge->hand = hand_ssh_game;
    h->ssh_bridge->hand_arg = h;
    startups_init(&h->ssh_drops, cfg->startups_start, cfg->startups_rate,
                  cfg->startups_full, uv_hrtime());
    /* at most one per core (docs/hosting.md, ssh_threads) */
    int cores = host_default_workers();
    int n = cfg->ssh_threads > 0 ? cfg->ssh_threads : 2;
    if (cfg->ssh_threads > cores) /* (the default, 2, is 1 on one core) */
        log_info("ssh: %d thread%s (ssh_threads = %d: at most one per core)",
                 cores, cores == 1 ? "" : "s", cfg->ssh_threads);
    return ssh_bridge_start(h->ssh_bridge, n < cores ? n : cores);
}

/* A listener handed over by an upgrade (logged as listen_socket does),
 * or a new one. */
static int listener_fd(host_t *h, const host_inherit_t *in, int port, int kind)
{
    if (!in || in->fd[kind] < 0)
        return listen_socket(h, port, kind);
    char name[80];
    bound_name(in->fd[kind], name, sizeof name);
    log_info("%s on %s taken over from the old process", kind_label(kind),
             name);
    return in->fd[kind];
}

/* Closes metrics_fd if nothing took it (a start that failed, a console
 * that did not start: another server answers on its socket): a socket
 * left listening with nothing to accept would hold scrapers waiting. */
static void close_metrics_fd(host_t *h)
{
    if (h->metrics_fd >= 0)
        close(h->metrics_fd);
    h->metrics_fd = -1;
}

/* 1 if a and b are the same IPv4 or IPv6 address and port. */
static int same_addr(const struct sockaddr_storage *a,
                     const struct sockaddr_storage *b)
{
    if (a->ss_family != b->ss_family)
        return 0;
    if (a->ss_family == AF_INET) {
        const struct sockaddr_in *x = (const void *)a, *y = (const void *)b;
        return x->sin_port == y->sin_port &&
               x->sin_addr.s_addr == y->sin_addr.s_addr;
    }
    const struct sockaddr_in6 *x = (const void *)a, *y = (const void *)b;
    return a->ss_family == AF_INET6 && x->sin6_port == y->sin6_port &&
           memcmp(&x->sin6_addr, &y->sin6_addr, sizeof x->sin6_addr) == 0;
}

/* 1 if fd listens on addr_text:port. */
static int listens_on(int fd, const char *addr_text, int port)
{
    struct sockaddr_storage want, got;
    socklen_t len = sizeof got;
    memset(&got, 0, sizeof got);
    return parse_addr(addr_text, port, &want) == 0 &&
           getsockname(fd, (struct sockaddr *)&got, &len) == 0 &&
           same_addr(&got, &want);
}

/* /metrics' socket (docs/hosting.md, "Operations"), for the console to
 * serve (ctl_server.c takes metrics_fd). At a start it is opened with the
 * other listeners, so that a port in use stops the start as theirs does.
 * An upgrade's new process keeps the old process's socket when it is
 * still on the configured address (a scrape is never refused), closes it
 * when the file moved it or turned it off, and binds its own; if it
 * cannot, it runs on without /metrics: it holds the sessions already. */
static int open_metrics(host_t *h, const host_inherit_t *in)
{
    const config_t *cfg = &h->cfg;
    int old = in ? in->fd[INHERIT_METRICS] : -1;
    if (old >= 0 && cfg->metrics_port > 0 &&
        listens_on(old, cfg->metrics_addr, cfg->metrics_port)) {
        h->metrics_fd = old;
        h->metrics_taken = 1;
        return 0;
    }
    if (old >= 0)
        close(old);
    if (cfg->metrics_port <= 0)
        return 0;
    h->metrics_fd = open_listener(cfg, cfg->metrics_addr, cfg->metrics_port,
                                  "metrics_port");
    if (h->metrics_fd >= 0 || !in)
        return h->metrics_fd >= 0 ? 0 : -1;
    log_error("metrics: off until the next start (this process holds the "
              "sessions already)");
    return 0;
}

/* A listener an upgrade handed over for a port the configuration file
 * has turned off since (http_port or ssh_port 0): closed, so that a
 * browser is refused rather than left waiting on a socket nobody
 * accepts on. */
static void close_turned_off(const host_inherit_t *in, int kind)
{
    if (!in || in->fd[kind] < 0)
        return;
    char name[80];
    bound_name(in->fd[kind], name, sizeof name);
    log_info("%s on %s closed: %s is 0 now", kind_label(kind), name,
             kind_key(kind));
    close(in->fd[kind]);
}

/* Every listener, taken over or opened: 0, or -1 (logged) with none left
 * open. */
static int open_listeners(host_t *h, const host_inherit_t *in)
{
    const config_t *cfg = &h->cfg;
    if (open_metrics(h, in) != 0) /* first: it takes the handed-over fd */
        return -1;
    if (cfg->http_port <= 0)
        close_turned_off(in, LISTEN_HTTP);
    if (cfg->ssh_port <= 0)
        close_turned_off(in, LISTEN_SSH);
    h->telnet.fd = listener_fd(h, in, cfg->port, LISTEN_TELNET);
    if (h->telnet.fd >= 0 && cfg->http_port > 0)
        h->http.fd = listener_fd(h, in, cfg->http_port, LISTEN_HTTP);
    if (h->telnet.fd >= 0 && cfg->ssh_port > 0)
        h->ssh.fd = listener_fd(h, in, cfg->ssh_port, LISTEN_SSH);
    if (h->telnet.fd >= 0 && (cfg->http_port <= 0 || h->http.fd >= 0) &&
        (cfg->ssh_port <= 0 || h->ssh.fd >= 0))
        return 0;
    listener_t *all[3] = { &h->telnet, &h->http, &h->ssh };
    for (int i = 0; i < 3; i++)
        if (all[i]->fd >= 0)
            close(all[i]->fd);
    close_metrics_fd(h);
    return -1;
}

int host_init_from(host_t *h, uv_loop_t *loop, const config_t *cfg,
                   struct store *store, const host_inherit_t *in, char **argv)
{
    memset(h, 0, sizeof *h);
    h->ctl_fd = in ? in->fd[INHERIT_CTL] : -1;
    h->metrics_fd = -1; /* open_listeners opens or takes it */
    if (in)
        atomic_store(&h->sh.next_id, in->next_id);
    h->loop = loop;
    h->cfg = *cfg;
    h->sh.store = store;
    h->telnet = (listener_t){ h, -1, LISTEN_TELNET, { 0 } };
    h->http = (listener_t){ h, -1, LISTEN_HTTP, { 0 } };
    h->ssh = (listener_t){ h, -1, LISTEN_SSH, { 0 } };
    h->sh.nworkers = cfg->workers > 0 ? cfg->workers : host_default_workers();
    dir_init(&h->sh.dir);
    news_init(&h->sh.news, cfg->news_interval_ms);
    site_cache_init(&h->sh.site_cache);
    if (grace_init(&h->sh.grace, cfg->guest_grace_max,
                   (uint64_t)cfg->guest_grace * 1000) != 0)
        grace_init(&h->sh.grace, 0, 0); /* out of memory: keep none */
    /* a token for each session that may be open, and as many closed */
    lt_init(&h->sh.logins, 2 * cfg->max_sessions,
            (uint64_t)cfg->web_login_grace * 1000); /* (none: makes none) */
    char err[256];
    h->sh.proxy_on = config_proxy_on(cfg);
    proxy_trust_parse(&h->sh.trust, cfg->proxy_trusted, err, sizeof err);
    h->workers = calloc((size_t)h->sh.nworkers, sizeof *h->workers);
    h->sh.load = calloc((size_t)h->sh.nworkers, sizeof *h->sh.load);
    h->sh.rebuilds = rbp_new(cfg->rebuild_threads, cfg->rebuild_queue,
                             cfg->rebuild_per_ip);
    if (!h->workers || !h->sh.load || !h->sh.rebuilds ||
        addr_limits_init(&h->sh.addrs, cfg->max_sessions_per_ip,
                         cfg->connects_per_ip_per_minute, cfg->hashes_per_ip,
                         cfg->registrations_per_ip_per_hour) != 0) {
        log_error("out of memory");
        host_free(h);
        store_close(store);
        return -1;
    }
    if (cfg->ssh_port > 0 && start_ssh_bridge(h, cfg) != 0) {
        host_free(h);
        store_close(store);
        return -1;
    }
    if (open_listeners(h, in) != 0) {
        host_free(h);
        store_close(store);
        return -1;
    }
    int started = start_workers(h);
    listener_poll_init(loop, &h->telnet);
    listener_poll_init(loop, &h->http);
    listener_poll_init(loop, &h->ssh);
    fdb_init(&h->fds, cfg->fd_reserve);
    uv_timer_init(loop, &h->accept_pause);
    h->accept_pause.data = h;
    uv_signal_init(loop, &h->sigint);
    uv_signal_init(loop, &h->sigterm);
    uv_signal_init(loop, &h->sighup);
    h->sigint.data = h->sigterm.data = h->sighup.data = h;
    uv_timer_init(loop, &h->sweep);
    h->sweep.data = h;
    if (started < h->sh.nworkers) {
        /* A worker that started is stopped the usual way. */
        h->sh.nworkers = started;
        close_metrics_fd(h);
        host_shutdown(h, "a worker could not start");
        return 0;
    }
    listener_poll_start(&h->telnet);
    listener_poll_start(&h->http);
    listener_poll_start(&h->ssh);
    uv_signal_start(&h->sigint, on_signal, SIGINT);
    uv_signal_start(&h->sigterm, on_signal, SIGTERM);
    uv_signal_start(&h->sighup, on_signal, SIGHUP);
    uv_timer_start(&h->sweep, on_sweep, 10000, 10000);
    h->ctl = ctl_start(h);
    close_metrics_fd(h); /* the console took it, or serves none */
    h->upgrade = argv ? upgrade_start(h, argv) : NULL;
    /* How a person connects, with addresses they can use. */
    connect_lines_log(cfg->bind, h->telnet.fd, h->http.fd, h->ssh.fd);
    /* On PostgreSQL, hosts on the same database share their players. */
    if (cfg->store[0])
        h->sh.cluster = cluster_start(&h->sh, cfg->store);
    return 0;
}

void host_shutdown(host_t *h, const char *why)
{
    if (atomic_exchange(&h->sh.shutting_down, 1))
        return;
    int online = atomic_load(&h->sh.online);
    log_info("shutting down (%s), %d player%s online", why, online,
             online == 1 ? "" : "s");
    listener_poll_close(&h->telnet);
    listener_poll_close(&h->http);
    listener_poll_close(&h->ssh);
    uv_close((uv_handle_t *)&h->accept_pause, NULL);
    uv_close((uv_handle_t *)&h->sigint, NULL);
    uv_close((uv_handle_t *)&h->sigterm, NULL);
    uv_close((uv_handle_t *)&h->sighup, NULL);
    uv_close((uv_handle_t *)&h->sweep, NULL);
    upgrade_stop(h->upgrade);
    ctl_stop(h->ctl);
    for (int i = 0; i < h->sh.nworkers; i++)
        srv_send_shutdown(&h->workers[i], why);
}

int host_run(host_t *h)
{
    uv_run(h->loop, UV_RUN_DEFAULT);
    /* The acceptor is closed (its loop ended with it): no socket reaches a
     * worker any more. Each worker ends once its sessions are gone. */
    if (h->telnet.fd >= 0)
        close(h->telnet.fd);
    if (h->http.fd >= 0)
        close(h->http.fd);
    if (h->ssh.fd >= 0)
        close(h->ssh.fd);
    h->telnet.fd = h->http.fd = h->ssh.fd = -1;
    /* no SSH player reaches a worker from here on */
    if (h->ssh_bridge)
        ssh_bridge_stop_handing(h->ssh_bridge);
    /* Other hosts are let go first: what the loops still send them is
     * refused (and bounced) from here on. */
    cluster_stop(h->sh.cluster);
    for (int i = 0; i < h->sh.nworkers; i++)
        srv_join(&h->workers[i]);
    /* Freed only once all have ended: until then a loop still running may
     * post to one that has ended (its inbox, closed, refuses it). */
    for (int i = 0; i < h->sh.nworkers; i++)
        srv_release(&h->workers[i]);
    ctl_free(h->ctl); /* no loop posts to its inbox any more */
    h->ctl = NULL;
    upgrade_free(h->upgrade); /* nor hands it a session */
    h->upgrade = NULL;
    h->sh.upgrade = NULL;
    cluster_free(h->sh.cluster);
    h->sh.cluster = NULL;
    /* The workers have closed their SSH players' connections: the
     * threads end those not in yet, then libssh is finalized. */
    if (h->ssh_bridge) {
        if (ssh_bridge_free(h->ssh_bridge) == 0)
            free(h->ssh_bridge);
        h->ssh_bridge = NULL;
    }
    /* Every session is gone and every game it ended is queued: write them. */
    store_close(h->sh.store);
    h->sh.store = NULL;
    host_free(h);
    int rc = loop_close(h->loop, "host");
    if (rc != 0)
        log_error("loop closed with handles still open: %s", uv_strerror(rc));
    return rc;
}
