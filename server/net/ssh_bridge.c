/* ssh_bridge.c - SSH's threads, each serving many connections (ssh_bridge.h). */
#define _GNU_SOURCE /* pthread_setname_np, pthread_timedjoin_np */
#include "ssh_bridge.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "chan.h"
#include "log.h"
#include "msg.h"
#include "refusals.h"
#include "ssh_ciphers.h"
#include "ssh_conn.h"

#define SSH_SWEEP_MS 200        /* every connection looked at, at least */
#define SSH_STOP_MS 3000        /* a stopping thread's last work, at most */

/* One of the bridge's threads: its event, its connections, and the
 * channel the acceptor hands it new sockets on (woken by an eventfd the
 * event polls). */
typedef struct ssh_worker {
    ssh_bridge_t *b;
    pthread_t th;
    int started;
    chan_t inbox;              /* MSG_CONNECTION: a = fd, from = the
                                  worker loop, text = the address */
    int wake_fd;               /* eventfd */
    atomic_int woken;
    ssh_event ev;
    ssh_conn_t *conns;         /* the thread's own */
    ssh_conn_t *touched;       /* to service after this poll */
} ssh_worker_t;

void ssh_conn_touch(ssh_conn_t *c)
{
    if (c->touched)
        return;
    c->touched = 1;
    c->touched_next = c->w->touched;
    c->w->touched = c;
}

static void wake(void *ctx)
{
    ssh_worker_t *w = ctx;
    uint64_t one = 1;
    atomic_store(&w->woken, 1);
    if (write(w->wake_fd, &one, sizeof one) < 0 && errno != EAGAIN)
        log_error("ssh: cannot wake a thread: %s", strerror(errno));
}

static int on_wake(socket_t fd, int revents, void *userdata)
{
    uint64_t n;
    (void)revents;
    (void)userdata;
    if (read(fd, &n, sizeof n) < 0 && errno != EAGAIN)
        log_error("ssh: wake: %s", strerror(errno));
    return 0;
}

/* A connection from addr ("ip:port") that ends before its thread took
 * it: what it holds (ip: its place in the guard, NULL: none). */
static void refuse(ssh_bridge_t *b, int fd, int worker, const char *addr,
                   const char *ip)
{
    char what[sizeof "ssh " + 96]; /* (addr: a message's text, 96 at most) */
    snprintf(what, sizeof what, "ssh %s", addr);
    if (fd >= 0)
        close(fd);
    if (ip)
        sshg_leave(&b->guard, ip);
    atomic_fetch_sub(&b->live, 1);
    ssh_bridge_hand(b, worker, NULL, NULL, what);
}

int ssh_bridge_hand(ssh_bridge_t *b, int worker, void *conn,
                    const struct byte_io *io, const char *what)
{
    pthread_mutex_lock(&b->hand_mu);
    int called = !b->handing_stopped && b->hand;
    if (called)
        b->hand(b->hand_arg, worker, conn, io, what);
    pthread_mutex_unlock(&b->hand_mu);
    return called;
}

/* c is over: out of the lists, freed. */
static void finish(ssh_worker_t *w, ssh_conn_t *c)
{
    if (c->touched) {
        for (ssh_conn_t **p = &w->touched; *p; p = &(*p)->touched_next)
            if (*p == c) {
                *p = c->touched_next;
                break;
            }
    }
    if (c->prev)
        c->prev->next = c->next;
    else
        w->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    ssh_conn_free(c);
    atomic_fetch_sub(&w->b->live, 1);
}

/* The sockets the acceptor handed over: a connection each. */
static void take_new(ssh_worker_t *w, uint64_t now)
{
    msgq_t q = { 0 };
    atomic_store(&w->woken, 0);
    chan_take(&w->inbox, &q);
    for (smsg_t *m; (m = msgq_pop(&q)) != NULL; msg_free(m)) {
        char ip[64];
        sshg_ip_of(m->text, ip, sizeof ip);
        ssh_conn_t *c = ssh_conn_new(w->b, w, w->ev, (int)m->a, (int)m->from,
                                     m->text, ip, now);
        if (!c) {
            log_error("ssh %s: out of memory", m->text);
            refuse(w->b, (int)m->a, (int)m->from, m->text, ip);
            continue;
        }
        c->next = w->conns;
        if (c->next)
            c->next->prev = c;
        w->conns = c;
        if (ssh_conn_start(c) != 0)
            finish(w, c);
    }
}

/* How long the poll may wait: until the next sweep, which also keeps
 * every connection's deadlines (so a wakeup costs nothing per connection;
 * a deadline is kept within SSH_SWEEP_MS). */
static int poll_ms(uint64_t now, uint64_t next_sweep)
{
    return next_sweep <= now ? 0 : (int)(next_sweep - now);
}

static void service_touched(ssh_worker_t *w, uint64_t now)
{
    ssh_conn_t *c;
    while ((c = w->touched) != NULL) {
        w->touched = c->touched_next;
        c->touched = 0;
        if (ssh_conn_service(c, now))
            finish(w, c);
    }
}

static void sweep(ssh_worker_t *w, uint64_t now)
{
    ssh_conn_t *next;
    for (ssh_conn_t *c = w->conns; c; c = next) {
        next = c->next;
        if (ssh_conn_service(c, now))
            finish(w, c);
        /* a nested poll may have ended next: start over from the list's
         * head is not needed, finish() only frees c */
    }
}

/* The sockets never taken (the thread is stopping): given back. */
static void drop_inbox(ssh_worker_t *w)
{
    msgq_t left = { 0 };
    if (!w->inbox.opened)
        return;
    chan_close(&w->inbox, &left);
    for (smsg_t *m; (m = msgq_pop(&left)) != NULL; msg_free(m)) {
        char ip[64];
        sshg_ip_of(m->text, ip, sizeof ip);
        refuse(w->b, (int)m->a, (int)m->from, m->text, ip);
    }
}

static void *thread_main(void *arg)
{
    ssh_worker_t *w = arg;
    ssh_bridge_t *b = w->b;
    uint64_t now = ssh_mono_ms(), next_sweep = now + SSH_SWEEP_MS, stop_by = 0;
    for (;;) {
        int rc = ssh_event_dopoll(w->ev, poll_ms(now, next_sweep));
        now = ssh_mono_ms();
        if (atomic_load(&w->woken))
            take_new(w, now);
        service_touched(w, now);
        /* SSH_ERROR: a session's socket closed (libssh ends the poll) */
        if (rc == SSH_ERROR || now >= next_sweep) {
            sweep(w, now);
            next_sweep = now + SSH_SWEEP_MS;
        }
        if (atomic_load(&b->stopping)) {
            if (!stop_by) {
                stop_by = now + SSH_STOP_MS;
                drop_inbox(w);
                sweep(w, now); /* every one not yet in ends */
            }
            if (!w->conns || now >= stop_by)
                break;
        }
    }
    while (w->conns)
        finish(w, w->conns);
    return NULL;
}

/* Starts n threads (each with its event and channel). 0, or -1. */
static int start_threads(ssh_bridge_t *b, int n)
{
    b->threads = calloc((size_t)n, sizeof *b->threads);
    if (!b->threads)
        return -1;
    for (int i = 0; i < n; i++)
        b->threads[i].wake_fd = -1;
    for (int i = 0; i < n; i++) {
        ssh_worker_t *w = &b->threads[i];
        w->b = b;
        b->nthreads = i + 1; /* (ssh_bridge_free frees what it has) */
        w->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        w->ev = ssh_event_new();
        if (w->wake_fd < 0 || !w->ev || chan_init(&w->inbox, 0, wake, w) != 0 ||
            ssh_event_add_fd(w->ev, w->wake_fd, POLLIN, on_wake, w) != SSH_OK)
            return -1;
        if (pthread_create(&w->th, NULL, thread_main, w) != 0)
            return -1;
        w->started = 1;
        pthread_setname_np(w->th, "rogued-ssh");
    }
    return 0;
}

int ssh_bridge_start(ssh_bridge_t *b, int nthreads)
{
    if (start_threads(b, nthreads) != 0) {
        log_error("ssh: cannot start its threads");
        return -1;
    }
    return 0;
}

void ssh_bridge_accept(ssh_bridge_t *b, int fd, int worker, const char *addr)
{
    char ip[64];
    sshg_ip_of(addr, ip, sizeof ip);
    if (atomic_fetch_add(&b->live, 1) >= SSH_BRIDGE_MAX ||
        atomic_load(&b->stopping) || b->nthreads == 0) {
        refuse(b, fd, worker, addr, NULL);
        return;
    }
    if (sshg_enter(&b->guard, ip, ssh_mono_ms()) != 0) {
        if (refusal_count(REFUSE_SSH_GUARD))
            log_info("refused %s: %d SSH connections from its address are "
                     "not logged in yet (ssh_unauth_per_ip)", addr,
                     b->guard.pending_cap);
        refuse(b, fd, worker, addr, NULL);
        return;
    }
    /* the threads in turn: each connection costs its thread alike */
    ssh_worker_t *w = &b->threads[atomic_fetch_add(&b->next, 1) %
                                  (unsigned)b->nthreads];
    smsg_t *m = msg_new(MSG_CONNECTION, (uint64_t)worker, 0, "%s", addr);
    if (m)
        m->a = fd;
    if (!m || chan_post(&w->inbox, m) != 0) {
        msg_free(m);
        refuse(b, fd, worker, addr, ip);
    }
}

void ssh_bridge_stop_handing(ssh_bridge_t *b)
{
    if (!b->bind)
        return;
    pthread_mutex_lock(&b->hand_mu);
    b->handing_stopped = 1;
    pthread_mutex_unlock(&b->hand_mu);
}

/* --- the host key ---------------------------------------------------------- */

static int load_or_make_key(ssh_bridge_t *b, const char *path, char *err,
                            size_t errlen)
{
    ssh_key key = NULL;
    if (access(path, F_OK) != 0) {
        if (ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &key) != SSH_OK ||
            ssh_pki_export_privkey_file(key, NULL, NULL, NULL, path) != SSH_OK) {
            snprintf(err, errlen, "cannot make the SSH host key %s", path);
            ssh_key_free(key);
            return -1;
        }
        chmod(path, 0600);
        log_info("ssh: made the host key %s", path);
    } else if (ssh_pki_import_privkey_file(path, NULL, NULL, NULL, &key) !=
               SSH_OK) {
        snprintf(err, errlen, "cannot read the SSH host key %s (delete it "
                 "to make a new one; players will see the key change)", path);
        return -1;
    }
    unsigned char *hash = NULL;
    size_t hlen = 0;
    ssh_key pub = NULL;
    if (ssh_pki_export_privkey_to_pubkey(key, &pub) == SSH_OK &&
        ssh_get_publickey_hash(pub, SSH_PUBLICKEY_HASH_SHA256, &hash,
                               &hlen) == 0) {
        char *fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash,
                                            hlen);
        snprintf(b->fingerprint, sizeof b->fingerprint, "%s", fp ? fp : "?");
        ssh_string_free_char(fp);
        ssh_clean_pubkey_hash(&hash);
    }
    ssh_key_free(pub);
    ssh_key_free(key);
    return 0;
}

/* The ciphers offered, both ways (ssh_ciphers; AES-GCM alone by
 * default: with the CPU's AES instructions it is OpenSSL's cheapest of
 * libssh's ciphers for a key's small packets, with no per-packet key
 * set-up, as chacha20-poly1305 has, and no separate MAC, as the -ctr
 * ciphers have; docs/performance.md, "SSH, fewer calls a key"). The
 * client's order picks among what both offer, and OpenSSH's puts
 * chacha20-poly1305 and the -ctr ciphers first, so a host that adds them
 * for older clients makes OpenSSH's players use them. */
static int set_ciphers(ssh_bind bind, const char *ciphers, char *err,
                       size_t errlen)
{
    /* config.c refused a bad list when it read it (ssh_ciphers.h); the
     * bind that will use it takes it as that check's did */
    char why[256] = "libssh refused the list";
    if (ssh_ciphers_apply(bind, ciphers, why, sizeof why) != 0) {
        snprintf(err, errlen, "ssh_ciphers: %s", why);
        return SSH_ERROR;
    }
    log_info("ssh: ciphers offered: %s", ciphers);
    return SSH_OK;
}

int ssh_bridge_init(ssh_bridge_t *b, const char *data_dir,
                    const char *ciphers, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    char path[600];
    snprintf(path, sizeof path, "%s/%s", data_dir, SSH_HOST_KEY_FILE);
    if (ssh_init() != SSH_OK) {
        snprintf(err, errlen, "libssh cannot start");
        return -1;
    }
    if (load_or_make_key(b, path, err, errlen) != 0) {
        ssh_finalize();
        return -1;
    }
    ssh_bind bind = ssh_bind_new();
    if (!bind ||
        ssh_bind_options_set(bind, SSH_BIND_OPTIONS_HOSTKEY, path) != SSH_OK) {
        snprintf(err, errlen, "cannot use the SSH host key %s", path);
        if (bind)
            ssh_bind_free(bind);
        ssh_finalize();
        return -1;
    }
    if (set_ciphers(bind, ciphers, err, errlen) != SSH_OK) {
        ssh_bind_free(bind);
        ssh_finalize();
        return -1;
    }
    if (sshg_init(&b->guard, 10, 1000) != 0) {
        snprintf(err, errlen, "out of memory");
        ssh_bind_free(bind);
        ssh_finalize();
        return -1;
    }
    b->grace_ms = 30000;
    b->bind = bind;
    pthread_mutex_init(&b->mu, NULL);
    pthread_mutex_init(&b->hand_mu, NULL);
    return 0;
}

void ssh_bridge_set_limits(ssh_bridge_t *b, int unauth_per_ip, int grace_ms,
                           int fail_delay_ms)
{
    b->guard.pending_cap = unauth_per_ip;
    b->guard.base_ms = fail_delay_ms;
    b->guard.max_ms = fail_delay_ms * 16;
    b->grace_ms = grace_ms > 0 ? grace_ms : 30000;
}

/* Waits (bounded) for every thread to end. 0, or -1 if one is still on. */
static int join_threads(ssh_bridge_t *b)
{
    struct timespec by;
    clock_gettime(CLOCK_REALTIME, &by);
    by.tv_sec += 5;
    int rc = 0;
    for (int i = 0; i < b->nthreads; i++) {
        ssh_worker_t *w = &b->threads[i];
        if (w->started) {
            wake(w);
            if (pthread_timedjoin_np(w->th, NULL, &by) != 0)
                rc = -1;
            else
                w->started = 0;
        }
    }
    return rc;
}

int ssh_bridge_free(ssh_bridge_t *b)
{
    if (!b->bind)
        return 0;
    atomic_store(&b->stopping, 1);
    if (join_threads(b) != 0) {
        /* Their threads still use libssh and b: both stay as they are
         * until the process ends. */
        log_error("ssh: %d connections still ending at shutdown: left to "
                  "the process's exit", atomic_load(&b->live));
        return -1;
    }
    for (int i = 0; i < b->nthreads; i++) {
        ssh_worker_t *w = &b->threads[i];
        drop_inbox(w); /* (a thread that never started) */
        chan_free(&w->inbox);
        if (w->ev) {
            if (w->wake_fd >= 0) /* (libssh frees an fd's handle only here) */
                ssh_event_remove_fd(w->ev, w->wake_fd);
            ssh_event_free(w->ev);
        }
        if (w->wake_fd >= 0)
            close(w->wake_fd);
    }
    free(b->threads);
    b->threads = NULL;
    b->nthreads = 0;
    ssh_bind_free(b->bind);
    b->bind = NULL;
    sshg_free(&b->guard);
    pthread_mutex_destroy(&b->mu);
    pthread_mutex_destroy(&b->hand_mu);
    ssh_finalize();
    return 0;
}
