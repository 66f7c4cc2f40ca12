/* cluster.c - the cluster thread (cluster.h): its connection (LISTEN on
 * this host's channel, NOTIFY to the others'), the remote ids it hands out
 * and the posting of messages to sessions, what arrives (messages from the
 * loops, notifications from other hosts) and which part it goes to, the
 * timers, the thread's loop, and the loops' side of cluster.h. The parts
 * are in cluster_impl.h: the heartbeat (cluster_presence.c), watching
 * across hosts (cluster_watch.c, cluster_progress.c) and takeovers
 * (cluster_takeover.c).
 *
 * The thread alone touches the thread's own part of `struct cluster`; the
 * loops reach it through the inbound queue (mu) and the lobby through the
 * view (vmu). The thread waits in poll() on its connection's socket and an
 * eventfd the loops write to, at most until the next heartbeat or timer.
 * docs/architecture.md, "Hosts that share players"; docs/hosting.md,
 * "What the hosts share, and how". */
#define _GNU_SOURCE
#include "cluster.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#include "cluster_impl.h"
#include "log.h"
#include "pg_deadline.h"
#include "store_backend.h"

/* Messages waiting for the thread. */
#define INBOUND_MAX 100000
/* Conversations with other hosts at once. */
#define CONV_MAX 4096

/* --- the connection ------------------------------------------------------ */

static void no_notices(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* A statement, waiting for its answer at most c->answer_ms (pg_deadline.h:
 * a database that hangs outright, its kernel still acknowledging, would
 * otherwise hold the thread, and the host's stop, for ever); a failure
 * the connection survives is logged, as one line, at level. */
static PGresult *query_at(cluster_t *c, int level, const char *sql, int n,
                          const char *const *vals, int binary)
{
    if (!c->pg || c->broken)
        return NULL;
    c->queried++;
    /* (several statements in one go only without parameters) */
    PGresult *r = n == 0 && !binary
        ? pgd_exec(c->pg, c->answer_ms, sql)
        : pgd_exec_params(c->pg, c->answer_ms, sql, n, vals, binary);
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
        return r;
    if (!r || PQstatus(c->pg) != CONNECTION_OK) {
        c->broken = 1;
    } else {
        char m[300];
        log_msg(level, "cluster: %s",
                pgd_one_line(m, sizeof m, PQresultErrorMessage(r)));
    }
    PQclear(r);
    return NULL;
}

PGresult *cluster_query(cluster_t *c, const char *sql, int n,
                        const char *const *vals, int binary)
{
    return query_at(c, LOG_ERROR, sql, n, vals, binary);
}

int cluster_exec_retried(cluster_t *c, const char *sql)
{
    PGresult *r = query_at(c, LOG_DEBUG, sql, 0, NULL, 0);
    PQclear(r);
    return r ? 0 : -1;
}

int cluster_exec(cluster_t *c, const char *sql, int n,
                 const char *const *vals)
{
    PGresult *r = cluster_query(c, sql, n, vals, 0);
    PQclear(r);
    return r ? 0 : -1;
}

void cluster_notify(cluster_t *c, const char *chan, const char *payload)
{
    log_debug("cluster: to %s: %.60s", chan, payload);
    const char *v[2] = { chan, payload };
    cluster_exec(c, "SELECT pg_notify($1, $2)", 2, v);
}

void cluster_notifyf(cluster_t *c, const char *chan, const char *fmt, ...)
{
    char p[CLUSTER_PAYLOAD_MAX + 1];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(p, sizeof p, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < sizeof p)
        cluster_notify(c, chan, p);
}

int cluster_connected(const cluster_t *c)
{
    return c->pg != NULL;
}

/* The stop shuts down a duplicate of libpq's socket, not its number:
 * libpq closes its own descriptor when it sees the connection fail (and
 * after pgd_await's deadline), and the number may then be another
 * socket's (the store's reconnection, a player's) before the connection
 * is closed; the duplicate keeps this socket open until then, and
 * shutting it down ends libpq's too. Without a duplicate (out of
 * descriptors) the stop cannot cut that connection: its statements end at
 * their deadline. */
int cluster_sock_hold(cluster_t *c, int which, int fd)
{
    int dup = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
    if (fd >= 0 && dup < 0)
        log_error("cluster: cannot duplicate a socket: %s (a stop waits "
                  "on a database that hangs)", strerror(errno));
    uv_mutex_lock(&c->smu);
    int cut = c->cut;
    if (cut && dup >= 0)
        shutdown(dup, SHUT_RDWR);
    c->sock[which] = dup;
    uv_mutex_unlock(&c->smu);
    return cut;
}

/* Under smu: the stop never shuts down a number closed (and perhaps
 * reused) under it. */
void cluster_sock_release(cluster_t *c, int which)
{
    uv_mutex_lock(&c->smu);
    if (c->sock[which] >= 0)
        close(c->sock[which]);
    c->sock[which] = -1;
    uv_mutex_unlock(&c->smu);
}

int cluster_cut(cluster_t *c)
{
    uv_mutex_lock(&c->smu);
    int cut = c->cut;
    uv_mutex_unlock(&c->smu);
    return cut;
}

static void db_close(cluster_t *c)
{
    cluster_sock_release(c, CLUSTER_SOCK_LISTEN);
    PQfinish(c->pg);
    c->pg = NULL;
}

/* Whether the stop gave the connection up (cluster_stop), said so. */
static int said_cut(cluster_t *c)
{
    int cut = cluster_cut(c);
    if (cut)
        log_info("cluster: stopped without removing this host's rows: the "
                 "other hosts count it gone within %d s", ALIVE_S);
    return cut;
}

static void db_connect(cluster_t *c)
{
    if (cluster_cut(c))
        return; /* the stop gave the database up */
    /* A database that stops answering must not hold the thread: the
     * statements, the connection and the socket all time out (the URL's
     * own settings, coming last, win over these). */
    const char *const kw[] = { "connect_timeout", "application_name",
                               "options", "keepalives_idle",
                               "keepalives_interval", "keepalives_count",
                               "tcp_user_timeout", "dbname", NULL };
    char connect_s[8];
    snprintf(connect_s, sizeof connect_s, "%d", CONNECT_S);
    const char *const val[] = { connect_s, "rogued-cluster",
                                "-c statement_timeout=5000", "5", "2", "2",
                                "5000", c->url, NULL };
    PGconn *pg = PQconnectdbParams(kw, val, 1);
    c->retry_at = cluster_now_ms() + RETRY_MS;
    if (!pg || PQstatus(pg) != CONNECTION_OK) {
        if (!c->said_down) {
            log_error("cluster: cannot reach the database: %s; other "
                      "hosts are shown as unavailable, trying again every "
                      "%d s", pg ? PQerrorMessage(pg) : "out of memory",
                      RETRY_MS / 1000);
            c->said_down = 1;
        }
        PQfinish(pg);
        return;
    }
    PQsetNoticeProcessor(pg, no_notices, NULL);
    c->pg = pg;
    c->answer_ms = pgd_answer_ms(pg);
    c->broken = 0;
    if (cluster_sock_hold(c, CLUSTER_SOCK_LISTEN, PQsocket(pg))) {
        db_close(c); /* made while the stop gave up: not used */
        return;
    }
    char listen[CLUSTER_CHAN_MAX + 16];
    snprintf(listen, sizeof listen, "LISTEN %s", c->chan);
    int refused = cluster_exec(c, listen, 0, NULL) != 0;
    for (int i = 0; !refused && i < cluster_nparts; i++)
        refused = cluster_parts[i].up && cluster_parts[i].up(c) != 0;
    if (refused) {
        log_error("cluster: the database refuses the presence tables");
        db_close(c);
        c->said_down = 1;
        return;
    }
    c->beat_at = 0;
    log_info("cluster: host %s listening on the database", c->chan);
    c->said_down = 0;
}

/* --- remote ids and posting ---------------------------------------------- */

uint64_t cluster_new_id(cluster_t *c)
{
    return CLUSTER_ID_BIT | ++c->next_id;
}

uint64_t cluster_new_conv_id(cluster_t *c)
{
    return ++c->next_wid;
}

int cluster_conv_room(const cluster_t *c)
{
    return c->nconv < CONV_MAX;
}

void cluster_conv_opened(cluster_t *c)
{
    c->nconv++;
}

void cluster_conv_closed(cluster_t *c)
{
    c->nconv--;
}

static void handle(cluster_t *c, smsg_t *m);

void cluster_post(cluster_t *c, smsg_t *m)
{
    if (!m)
        return;
    if (cluster_is_id(m->to)) {
        handle(c, m);
        return;
    }
    dir_entry_t e;
    if (!c->stopped && dir_lookup(&c->sh->dir, m->to, &e) &&
        e.loop >= 0 && e.loop < c->sh->nworkers &&
        inbox_post(c->sh->inbox[e.loop], m) == 0)
        return;
    smsg_t *b = msg_bounce(m);
    msg_free(m);
    if (b)
        cluster_post(c, b);
}

void cluster_postf(cluster_t *c, int type, uint64_t from, uint64_t to,
                   int64_t a, msg_game_t *g, const char *text)
{
    smsg_t *m = msg_new(type, from, to, text ? "%s" : NULL, text);
    if (!m) {
        msg_game_free(g);
        return;
    }
    m->a = a;
    m->game = g;
    cluster_post(c, m);
}

/* --- what arrives ------------------------------------------------------- */

/* A message from a loop (or one of ours) to a remote id. */
static void handle(cluster_t *c, smsg_t *m)
{
    if (m->type != MSG_WATCH_KEY)
        log_debug("cluster: message %s from %llx to %llx",
                  msg_type_name(m->type), (unsigned long long)m->from,
                  (unsigned long long)m->to);
    for (int i = 0; i < cluster_nparts; i++)
        if (cluster_parts[i].take && cluster_parts[i].take(c, m)) {
            msg_free(m);
            return;
        }
    /* Nothing here any more: each part says what that means to it (a
     * player still feeding a watch is told to stop), a request gets its
     * refusal. */
    for (int i = 0; i < cluster_nparts; i++)
        if (cluster_parts[i].orphan)
            cluster_parts[i].orphan(c, m);
    smsg_t *b = msg_bounce(m);
    msg_free(m);
    cluster_post(c, b);
}

static void on_note(cluster_t *c, const char *payload)
{
    cluster_note_t *n = &c->note;
    log_debug("cluster: heard %.60s", payload);
    if (cluster_note_parse(payload, strlen(payload), n) != 0) {
        log_error("cluster: a malformed notification (%zu bytes) ignored",
                  strlen(payload));
        return;
    }
    for (int i = 0; i < cluster_nparts; i++)
        if (cluster_parts[i].note && cluster_parts[i].note(c, n))
            break;
}

static void drain_notes(cluster_t *c)
{
    if (!c->pg || c->broken)
        return;
    if (!PQconsumeInput(c->pg)) {
        c->broken = 1;
        return;
    }
    PGnotify *n;
    while (!c->broken && (n = PQnotifies(c->pg))) {
        on_note(c, n->extra);
        PQfreemem(n);
    }
    c->drained = c->queried;
}

/* --- timers and the thread ------------------------------------------------ */

static void timers(cluster_t *c, uint64_t now)
{
    for (int i = 0; i < cluster_nparts; i++)
        if (cluster_parts[i].timers)
            cluster_parts[i].timers(c, now);
}

/* What the parts gathered goes out. */
static void flush(cluster_t *c)
{
    for (int i = 0; i < cluster_nparts; i++)
        if (cluster_parts[i].flush)
            cluster_parts[i].flush(c);
}

/* A new name (and channel) for this host, at random. */
static void name_host(cluster_t *c)
{
    uint64_t r;
    if (uv_random(NULL, NULL, &r, sizeof r, 0, NULL) != 0)
        r = uv_hrtime() ^ (uint64_t)getpid() << 32;
    snprintf(c->chan, sizeof c->chan, "rogued_%016llx", (unsigned long long)r);
}

/* The database went away: every conversation with other hosts ends. The
 * other hosts learn of it only from this host's heartbeat, read once a
 * second, and count a host gone after 5 s without one (ALIVE_S,
 * cluster_presence.c): a shorter loss would pass unseen, and their
 * watches of games here (whose feeds end now), their feeds to watchers
 * here and their takeovers would wait on a host that forgot them. So the
 * host comes back under a new name, and its rows under the old one go
 * (cluster_presence_rejoin): for the others, the old host has gone
 * whenever they look (docs/hosting.md, "What the hosts share"). */
static void teardown(cluster_t *c)
{
    int cut = said_cut(c);
    c->said_down = 1;
    db_close(c);
    c->broken = 0;
    c->retry_at = cluster_now_ms() + RETRY_MS;
    for (int i = 0; i < cluster_nparts; i++)
        if (cluster_parts[i].down)
            cluster_parts[i].down(c);
    /* said once every part has its down (a test that sees the line sees
     * this host's tokens refused: cluster_current) */
    if (!cut)
        log_error("cluster: lost the database: other hosts are shown as "
                  "unavailable until it is back");
    if (!c->was[0]) /* (lost again before its rows went: those go first) */
        memcpy(c->was, c->chan, sizeof c->was);
    name_host(c);
}

static int has_timers(const cluster_t *c)
{
    for (int i = 0; i < cluster_nparts; i++)
        if (cluster_parts[i].waiting && cluster_parts[i].waiting(c))
            return 1;
    return 0;
}

static void run(void *arg)
{
    cluster_t *c = arg;
    for (;;) {
        uint64_t now = cluster_now_ms();
        if (!c->pg && now >= c->retry_at)
            db_connect(c);
        now = cluster_now_ms();
        if (c->pg && now >= c->beat_at) {
            c->beat_at = now + BEAT_MS;
            for (int i = 0; i < cluster_nparts; i++)
                if (cluster_parts[i].beat)
                    cluster_parts[i].beat(c);
        }
        msgq_t in = { 0 };
        int stop = chan_take(&c->in, &in);
        smsg_t *m;
        while ((m = msgq_pop(&in)))
            handle(c, m);
        flush(c);
        drain_notes(c);
        timers(c, cluster_now_ms());
        flush(c);
        if (c->broken)
            teardown(c);
        if (stop)
            break;
        now = cluster_now_ms();
        uint64_t until = c->pg ? c->beat_at : c->retry_at;
        if (has_timers(c) && until > now + LOOK_MS)
            until = now + LOOK_MS;
        int timeout = until > now ? (int)(until - now) : 0;
        /* a statement since the last drain may have read notifications
         * into libpq's list: the socket would not say so */
        if (c->pg && c->queried != c->drained)
            timeout = 0;
        struct pollfd fds[2] = { { c->efd, POLLIN, 0 }, { -1, POLLIN, 0 } };
        if (c->pg)
            fds[1].fd = PQsocket(c->pg);
        if (poll(fds, 2, timeout) > 0 && (fds[0].revents & POLLIN)) {
            uint64_t v;
            if (read(c->efd, &v, sizeof v) < 0 && errno != EAGAIN)
                log_error("cluster: eventfd: %s", strerror(errno));
        }
    }
    /* Leaving: this host's rows go now rather than in 30 s. */
    if (c->pg) {
        for (int i = 0; i < cluster_nparts; i++)
            if (cluster_parts[i].leave)
                cluster_parts[i].leave(c);
        if (c->broken)
            said_cut(c);
        db_close(c);
    }
    uv_mutex_lock(&c->smu);
    c->ended = 1;
    uv_cond_signal(&c->ended_cond);
    uv_mutex_unlock(&c->smu);
}

/* --- the loops' side (cluster_counts and cluster_games: the heartbeat's) -- */

/* The channel's wake (under its mutex): the thread's poll sees the
 * eventfd. */
static void wake(void *ctx)
{
    cluster_t *c = ctx;
    uint64_t one = 1;
    if (write(c->efd, &one, sizeof one) < 0 && errno != EAGAIN)
        log_error("cluster: eventfd: %s", strerror(errno));
}

cluster_t *cluster_start(shared_t *sh, const char *url)
{
    if (!store_is_pg_url(url))
        return NULL;
    cluster_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->sh = sh;
    c->next_id = CLUSTER_TAKEOVER_ID & ~CLUSTER_ID_BIT; /* ids after it */
    snprintf(c->url, sizeof c->url, "%s", url);
    name_host(c);
    c->born = cluster_now_ms(); /* (cluster_presence.c, forget_if_missed) */
    c->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    for (int i = 0; i < CLUSTER_SOCKS; i++)
        c->sock[i] = -1;
    int in_ok = chan_init(&c->in, INBOUND_MAX, wake, c) == 0;
    pthread_mutex_init(&c->vmu, NULL);
    int sync_ok = uv_mutex_init(&c->smu) == 0;
    if (sync_ok && uv_cond_init(&c->ended_cond) != 0) {
        uv_mutex_destroy(&c->smu);
        sync_ok = 0;
    }
    if (c->efd < 0 || !in_ok || !sync_ok ||
        uv_thread_create(&c->thread, run, c) != 0) {
        log_error("cluster: cannot start its thread");
        if (c->efd >= 0)
            close(c->efd);
        chan_free(&c->in);
        pthread_mutex_destroy(&c->vmu);
        if (sync_ok) {
            uv_cond_destroy(&c->ended_cond);
            uv_mutex_destroy(&c->smu);
        }
        free(c);
        return NULL;
    }
    return c;
}

/* The thread ends its batch and removes this host's rows in milliseconds;
 * one waiting on a database that hangs would hold the stop until each
 * statement's deadline. Past STOP_MS its connections are shut down, which
 * libpq sees as lost, and for good (one being made is shut down as it is
 * published, cluster_sock_hold, and no other is tried): the thread ends
 * at once, leaving its rows to expire (the other hosts count the host gone
 * after ALIVE_S). Only a connection still being made (CONNECT_S at most)
 * is waited for. docs/hosting.md, "What the hosts share, and how". */
static void cut_if_late(cluster_t *c)
{
    uint64_t end = uv_hrtime() + (uint64_t)STOP_MS * 1000000u, now;
    uv_mutex_lock(&c->smu);
    while (!c->ended && (now = uv_hrtime()) < end)
        (void)uv_cond_timedwait(&c->ended_cond, &c->smu, end - now);
    if (!c->ended) {
        log_info("cluster: no answer from the database within %d ms of the "
                 "stop: its connection is given up", STOP_MS);
        for (int i = 0; i < CLUSTER_SOCKS; i++)
            if (c->sock[i] >= 0)
                shutdown(c->sock[i], SHUT_RDWR);
        c->cut = 1;
    }
    uv_mutex_unlock(&c->smu);
}

void cluster_stop(cluster_t *c)
{
    if (!c)
        return;
    if (chan_close(&c->in, NULL))
        return;
    wake(c);
    cut_if_late(c);
    uv_thread_join(&c->thread);
    c->stopped = 1;
}

void cluster_free(cluster_t *c)
{
    if (!c)
        return;
    cluster_stop(c);
    chan_free(&c->in);
    for (int i = 0; i < cluster_nparts; i++)
        if (cluster_parts[i].free)
            cluster_parts[i].free(c);
    close(c->efd);
    pthread_mutex_destroy(&c->vmu);
    uv_cond_destroy(&c->ended_cond);
    uv_mutex_destroy(&c->smu);
    free(c);
}

int cluster_deliver(cluster_t *c, smsg_t *m)
{
    return chan_post(&c->in, m);
}
