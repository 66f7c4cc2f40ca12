/* server.c - the loop, the listener, signals, the once-a-second sweep, and
 * the render phase that delivers messages, closes and draws (server.h). */
#include "server.h"

#include <stdio.h>
#include <string.h>

#include "log.h"
#include "session.h"
#include "store.h"

static void on_connection(uv_stream_t *listener, int status)
{
    srv_t *srv = listener->data;
    if (status < 0) {
        log_error("accept: %s", uv_strerror(status));
        return;
    }
    sess_accept(srv);
}

static void on_signal(uv_signal_t *h, int signum)
{
    srv_t *srv = h->data;
    /* SIGHUP (the terminal that ran us closed) is a clean shutdown too:
     * every game kept or recorded, never lost. */
    srv_shutdown(srv, signum == SIGINT ? "SIGINT"
                      : signum == SIGHUP ? "SIGHUP" : "SIGTERM");
}

void srv_post(srv_t *srv, smsg_t *m)
{
    msgq_push(&srv->msgs, m);
}

void srv_mark(srv_t *srv, sess_t *s)
{
    if (s->marked)
        return;
    s->marked = 1;
    s->mnext = NULL;
    s->mprev = srv->marked_tail;
    if (srv->marked_tail)
        srv->marked_tail->mnext = s;
    else
        srv->marked = s;
    srv->marked_tail = s;
}

void srv_unmark(srv_t *srv, sess_t *s)
{
    if (!s->marked)
        return;
    if (s->mprev)
        s->mprev->mnext = s->mnext;
    else
        srv->marked = s->mnext;
    if (s->mnext)
        s->mnext->mprev = s->mprev;
    else
        srv->marked_tail = s->mprev;
    s->marked = 0;
    s->mprev = s->mnext = NULL;
}

/* A message to its session, or its refusal back to the sender. */
static void deliver(srv_t *srv, smsg_t *m)
{
    dir_entry_t *e = dir_find(&srv->dir, m->to);
    if (e) {
        sess_deliver(e->sess, m);
        return;
    }
    log_debug("message %s from %llu to %llu: gone", msg_type_name(m->type),
              (unsigned long long)m->from, (unsigned long long)m->to);
    smsg_t *answer = msg_bounce(m);
    if (answer)
        srv_post(srv, answer);
    msg_free(m);
}

/* The render phase: once per loop iteration, before the loop waits. */
static void on_phase(uv_prepare_t *h)
{
    srv_t *srv = h->data;
    for (;;) {
        smsg_t *m = msgq_pop(&srv->msgs);
        if (m) {
            deliver(srv, m);
            continue;
        }
        sess_t *s = srv->marked;
        if (!s)
            break;
        srv_unmark(srv, s);
        sess_phase(s);
    }
    if (srv->shutting_down && !srv->sessions && !uv_is_closing((uv_handle_t *)h))
        uv_close((uv_handle_t *)h, NULL);
}

static void on_sweep(uv_timer_t *t)
{
    srv_t *srv = t->data;
    uint64_t now = uv_now(srv->loop);
    sess_t *next;
    for (sess_t *s = srv->sessions; s; s = next) {
        next = s->next; /* the sweep may close s, never free it */
        sess_sweep(s, now);
    }
    if (now / 1000 % 10 == 0)
        addr_sweep(&srv->addrs, now);
}

void srv_addr_name(const struct sockaddr_storage *a, char *out, size_t n)
{
    char host[INET6_ADDRSTRLEN] = "?";
    int port;
    if (a->ss_family == AF_INET6) {
        uv_ip6_name((const struct sockaddr_in6 *)a, host, sizeof host);
        port = ntohs(((const struct sockaddr_in6 *)a)->sin6_port);
    } else {
        uv_ip4_name((const struct sockaddr_in *)a, host, sizeof host);
        port = ntohs(((const struct sockaddr_in *)a)->sin_port);
    }
    snprintf(out, n, "%s:%d", host, port);
}

static int listen_on(srv_t *srv)
{
    struct sockaddr_storage addr;
    const config_t *c = &srv->cfg;
    int rc;
    if (strchr(c->bind, ':'))
        rc = uv_ip6_addr(c->bind, c->port, (struct sockaddr_in6 *)&addr);
    else
        rc = uv_ip4_addr(c->bind, c->port, (struct sockaddr_in *)&addr);
    if (rc != 0) {
        log_error("bind address '%s' is not an IP address", c->bind);
        return -1;
    }
    uv_tcp_init(srv->loop, &srv->listener);
    srv->listener.data = srv;
    rc = uv_tcp_bind(&srv->listener, (struct sockaddr *)&addr, 0);
    if (rc == 0)
        rc = uv_listen((uv_stream_t *)&srv->listener, 511, on_connection);
    if (rc != 0) {
        log_error("cannot listen on %s port %d: %s", c->bind, c->port,
                  uv_strerror(rc));
        return -1;
    }
    /* Report the port actually bound: with port 0 the kernel picks it, and
     * the tests read it from this line. */
    struct sockaddr_storage bound;
    int len = sizeof bound;
    char name[80];
    if (uv_tcp_getsockname(&srv->listener, (struct sockaddr *)&bound, &len) == 0)
        srv_addr_name(&bound, name, sizeof name);
    else
        snprintf(name, sizeof name, "%s:%d", c->bind, c->port);
    log_info("listening on %s (max %d players)", name,
             c->max_sessions);
    return 0;
}

int srv_init(srv_t *srv, uv_loop_t *loop, const config_t *cfg,
             struct store *store)
{
    memset(srv, 0, sizeof *srv);
    srv->loop = loop;
    srv->cfg = *cfg;
    srv->store = store;
    dir_init(&srv->dir);
    char err[256];
    srv->proxy_on = config_proxy_on(cfg);
    proxy_trust_parse(&srv->trust, cfg->proxy_trusted, err, sizeof err);
    if (addr_limits_init(&srv->addrs, cfg->max_sessions_per_ip,
                         cfg->connects_per_ip_per_minute, cfg->hashes_per_ip,
                         cfg->registrations_per_ip_per_hour) != 0) {
        store_close(store);
        return -1;
    }
    buf_init(&srv->enc, 0);
    if (screen_init(&srv->next, 80, 24) != 0) {
        store_close(store);
        addr_limits_free(&srv->addrs);
        return -1;
    }
    if (listen_on(srv) != 0) {
        /* The listener handle was initialised: close it so the loop can end. */
        uv_close((uv_handle_t *)&srv->listener, NULL);
        uv_run(loop, UV_RUN_DEFAULT);
        store_close(store);
        screen_free(&srv->next);
        addr_limits_free(&srv->addrs);
        return -1;
    }
    uv_signal_init(loop, &srv->sigint);
    uv_signal_init(loop, &srv->sigterm);
    uv_signal_init(loop, &srv->sighup);
    srv->sigint.data = srv->sigterm.data = srv->sighup.data = srv;
    uv_signal_start(&srv->sigint, on_signal, SIGINT);
    uv_signal_start(&srv->sigterm, on_signal, SIGTERM);
    uv_signal_start(&srv->sighup, on_signal, SIGHUP);
    uv_prepare_init(loop, &srv->phase);
    srv->phase.data = srv;
    uv_prepare_start(&srv->phase, on_phase);
    uv_timer_init(loop, &srv->sweep);
    srv->sweep.data = srv;
    uv_timer_start(&srv->sweep, on_sweep, 1000, 1000);
    return 0;
}

void srv_shutdown(srv_t *srv, const char *why)
{
    if (srv->shutting_down)
        return;
    srv->shutting_down = 1;
    log_info("shutting down (%s), %d players online", why, srv->nplaying);
    uv_close((uv_handle_t *)&srv->listener, NULL);
    uv_close((uv_handle_t *)&srv->sigint, NULL);
    uv_close((uv_handle_t *)&srv->sigterm, NULL);
    uv_close((uv_handle_t *)&srv->sighup, NULL);
    uv_close((uv_handle_t *)&srv->sweep, NULL);
    sess_t *next;
    for (sess_t *s = srv->sessions; s; s = next) {
        next = s->next;
        sess_close(s, "server shutdown", 1,
                   "The server is shutting down. Goodbye!");
    }
}

int srv_run(srv_t *srv)
{
    uv_run(srv->loop, UV_RUN_DEFAULT);
    /* Every session is gone and every game it ended is queued: write them. */
    store_close(srv->store);
    srv->store = NULL;
    screen_free(&srv->next);
    buf_free(&srv->enc);
    msgq_free(&srv->msgs);
    dir_free(&srv->dir);
    addr_limits_free(&srv->addrs);
    int rc = uv_loop_close(srv->loop);
    if (rc != 0)
        log_error("loop closed with handles still open: %s", uv_strerror(rc));
    return rc;
}

uint64_t srv_new_seed(srv_t *srv)
{
    uint64_t seed;
    if (config_seed(&srv->cfg, &seed))
        return seed;
    if (uv_random(NULL, NULL, &seed, sizeof seed, 0, NULL) != 0) {
        /* No entropy source: fall back to time and a counter. Only the
         * dungeon's variety depends on it, never security. */
        seed = uv_hrtime() ^ (++srv->next_id * 0x9e3779b97f4a7c15ULL);
    }
    return seed;
}

void srv_game_options(const srv_t *srv, game_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->ruleset = config_ruleset(&srv->cfg);
}
