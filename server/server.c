/* server.c - the loop, the listener, signals and the once-a-second sweep. */
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
    srv_shutdown(srv, signum == SIGINT ? "SIGINT" : "SIGTERM");
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
    buf_init(&srv->enc, 0);
    buf_init(&srv->out, 0);
    if (screen_init(&srv->next, 80, 24) != 0) {
        store_close(store);
        return -1;
    }
    if (listen_on(srv) != 0) {
        /* The listener handle was initialised: close it so the loop can end. */
        uv_close((uv_handle_t *)&srv->listener, NULL);
        uv_run(loop, UV_RUN_DEFAULT);
        store_close(store);
        screen_free(&srv->next);
        return -1;
    }
    uv_signal_init(loop, &srv->sigint);
    uv_signal_init(loop, &srv->sigterm);
    srv->sigint.data = srv->sigterm.data = srv;
    uv_signal_start(&srv->sigint, on_signal, SIGINT);
    uv_signal_start(&srv->sigterm, on_signal, SIGTERM);
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
    buf_free(&srv->out);
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
