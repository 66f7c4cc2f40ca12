/* server.c - one worker loop: its thread, the render phase that delivers
 * messages, closes and draws, the once-a-second sweep, and the messages
 * from the host (server.h). */
#include "server.h"
#include "loop_close.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"
#include "ctl.h"
#include "log.h"
#include "refusals.h"
#include "session.h"
#include "ssh_guard.h"
#include "store.h"
#include "upgrade.h"

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

/* A message from the host to this loop (to == 0). */
static void loop_message(srv_t *srv, smsg_t *m)
{
    if (m->type == MSG_CONNECTION && srv->shutting_down) {
        /* handed over as the shutdown came (an SSH login finishing, say):
         * a session now would hold the loop open past it */
        if ((int)m->a >= 0)
            close((int)m->a);
        if (m->accept->kind == ACCEPT_SSH)
            srv_ssh_hold_release(srv->sh, m->accept->addr);
        srv_session_gone(srv);
    } else if (m->type == MSG_CONNECTION &&
               m->accept->kind == ACCEPT_UPGRADE) {
        sess_upgrade_accept(srv, (int)m->a, m->accept->blob,
                            m->accept->blob_len);
    } else if (m->type == MSG_CONNECTION) {
        sess_accept(srv, (int)m->a, m->accept);
    } else if (m->type == MSG_SHUTDOWN)
        srv_shutdown(srv, m->text);
    else if (m->type == MSG_UPGRADE)
        upgrade_loop_begin(srv, (uint32_t)m->a);
    else if (m->type == MSG_UPGRADE_SETTLED)
        sess_upgrade_settled(srv);
    else if (m->type == MSG_UPGRADE_READY)
        sess_upgrade_ready(srv);
    else
        ctl_loop_message(srv, m); /* the operator's console (ctl.h) */
    msg_free(m);
}

/* A message to its session, wherever it lives, or its refusal back to the
 * sender. A session of this loop is in the directory until it is freed,
 * and only this thread frees it: its pointer is good here. */
static void deliver(srv_t *srv, smsg_t *m)
{
    if (m->to == 0) {
        loop_message(srv, m);
        return;
    }
    dir_entry_t e;
    if (cluster_is_id(m->to)) {
        /* something on another host: the cluster thread carries it */
        if (srv->sh->cluster && cluster_deliver(srv->sh->cluster, m) == 0)
            return;
    } else if (dir_lookup(srv->dir, m->to, &e)) {
        if (e.loop == srv->index) {
            sess_deliver(e.sess, m);
            return;
        }
        if (inbox_post(srv->sh->inbox[e.loop], m) == 0)
            return;
    }
    log_debug("message %s from %llu to %llu: gone", msg_type_name(m->type),
              (unsigned long long)m->from, (unsigned long long)m->to);
    smsg_t *answer = msg_bounce(m);
    if (answer)
        srv_post(srv, answer);
    msg_free(m);
}

/* Messages from other loops: delivered in the render phase that follows. */
static void on_inbox(inbox_t *ib, void *data)
{
    srv_t *srv = data;
    inbox_take(ib, &srv->msgs);
}

/* What was still in the inbox when it closed: sockets never taken are
 * closed, the rest bounced (a request from another loop gets its answer)
 * or dropped. */
static void drop_left(srv_t *srv, msgq_t *left)
{
    smsg_t *m;
    while ((m = msgq_pop(left))) {
        if (m->type == MSG_CONNECTION)
            /* as one handed over as the shutdown came: closed, its SSH
             * hold and the loop's count given back, freed (an SSH
             * player's connection with it) */
            loop_message(srv, m);
        else
            deliver(srv, m); /* the addressee is gone: bounced */
    }
}

/* The render phase: once per loop iteration, before the loop waits. */
static void on_phase(uv_prepare_t *h)
{
    srv_t *srv = h->data;
    smsg_t *m;
    if (srv->upgrading == 1)
        upgrade_loop_phase(srv); /* may close sessions: before the marks */
    /* Every frame of the phase is written at its end, together (outbox.h):
     * one wake of a client's side serves several. */
    srv->in_phase = 1;
    for (;;) {
        m = msgq_pop(&srv->msgs);
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
    srv->in_phase = 0;
    sess_outbox_drain(srv);
    if (srv->shutting_down && !srv->sessions &&
        !uv_is_closing((uv_handle_t *)h)) {
        msgq_t left = { 0 };
        inbox_close(&srv->inbox, &left);
        drop_left(srv, &left);
        /* their bounces, to senders on other loops or gone */
        while ((m = msgq_pop(&srv->msgs)))
            deliver(srv, m);
        uv_close((uv_handle_t *)h, NULL);
    }
}

const int srv_lag_le_ms[SRV_LAG_BUCKETS - 1] = { 1, 5, 10, 50, 100, 500, 1000 };

/* The loop's lag: how late the sweep timer runs after its due time. */
static void count_lag(srv_t *srv)
{
    struct srv_stats *st = &srv->stats;
    uint64_t real = uv_hrtime() / 1000000;
    uint64_t lag = real > st->lag_due_ms ? real - st->lag_due_ms : 0;
    int b = 0;
    while (b < SRV_LAG_BUCKETS - 1 && lag > (uint64_t)srv_lag_le_ms[b])
        b++;
    st->lag_bucket[b]++;
    st->lag_count++;
    st->lag_sum_ms += lag;
    st->lag_due_ms = uv_now(srv->loop) + 1000; /* libuv repeats from now */
}

static void on_sweep(uv_timer_t *t)
{
    srv_t *srv = t->data;
    count_lag(srv);
    uint64_t now = uv_now(srv->loop);
    sess_t *next;
    for (sess_t *s = srv->sessions; s; s = next) {
        next = s->next; /* the sweep may close s, never free it */
        sess_sweep(s, now);
    }
    sess_guest_sweep(srv, now, 0);
}

void srv_addr_name(const struct sockaddr_storage *a, char *out, size_t n)
{
    char host[INET6_ADDRSTRLEN] = "?";
    int port;
    if (a->ss_family == AF_INET6) {
        uv_ip6_name((const struct sockaddr_in6 *)a, host, sizeof host);
        port = ntohs(((const struct sockaddr_in6 *)a)->sin6_port);
        /* in brackets, as a URL has it: "::1:41251" left the reader to
         * guess where the address ends (a host QA) */
        snprintf(out, n, "[%s]:%d", host, port);
        return;
    }
    uv_ip4_name((const struct sockaddr_in *)a, host, sizeof host);
    port = ntohs(((const struct sockaddr_in *)a)->sin_port);
    snprintf(out, n, "%s:%d", host, port);
}

int srv_init(srv_t *srv, shared_t *sh, const config_t *cfg, int index)
{
    memset(srv, 0, sizeof *srv);
    srv->sh = sh;
    srv->index = index;
    srv->cfg = *cfg;
    srv->dir = &sh->dir;
    srv->addrs = &sh->addrs;
    srv->grace = &sh->grace;
    srv->logins = &sh->logins;
    srv->trust = &sh->trust;
    srv->proxy_on = sh->proxy_on;
    srv->store = sh->store;
    srv->loop = &srv->loop_storage;
    if (uv_loop_init(srv->loop) != 0) {
        log_error("worker %d: cannot make its loop", index);
        return -1;
    }
    buf_init(&srv->enc, 0);
    buf_init(&srv->wout, 0);
    outbox_init(&srv->outbox);
    if (screen_init(&srv->next, 80, 24) != 0 ||
        inbox_open(&srv->inbox, srv->loop, on_inbox, srv) != 0) {
        log_error("worker %d: out of memory", index);
        screen_free(&srv->next);
        uv_loop_close(srv->loop);
        return -1;
    }
    uv_prepare_init(srv->loop, &srv->phase);
    srv->phase.data = srv;
    uv_prepare_start(&srv->phase, on_phase);
    uv_timer_init(srv->loop, &srv->sweep);
    srv->sweep.data = srv;
    uv_timer_start(&srv->sweep, on_sweep, 1000, 1000);
    srv->stats.lag_due_ms = uv_now(srv->loop) + 1000;
    startups_init(&srv->drops, cfg->startups_start, cfg->startups_rate,
                  cfg->startups_full,
                  uv_hrtime() ^ ((uint64_t)(index + 1) * 0x9e3779b97f4a7c15ULL));
    return 0;
}

static void worker_main(void *arg)
{
    srv_t *srv = arg;
    int attached = store_attach(srv->store, srv->loop) == 0;
    if (!attached)
        srv_shutdown(srv, "no store");
    uv_run(srv->loop, UV_RUN_DEFAULT);
    /* Every session is gone: answers still owed to this loop come, and
     * are dropped, before its side of the store closes. */
    if (attached)
        store_detach(srv->store);
    char who[32];
    snprintf(who, sizeof who, "worker %d", srv->index);
    int rc = loop_close(srv->loop, who);
    if (rc != 0)
        log_error("%s: loop closed with handles still open: %s", who,
                  uv_strerror(rc));
}

/* What srv_init allocated, once the loop has closed. */
static void srv_free(srv_t *srv)
{
    screen_free(&srv->next);
    buf_free(&srv->enc);
    buf_free(&srv->wout);
    msgq_free(&srv->msgs);
    inbox_free(&srv->inbox);
    if (srv->site_dumps_free) /* the site's, freed by the site */
        srv->site_dumps_free(srv->site_dumps);
    srv->site_dumps = NULL;
}

int srv_start(srv_t *srv)
{
    if (uv_thread_create(&srv->thread, worker_main, srv) == 0)
        return 0;
    log_error("worker %d: cannot start its thread", srv->index);
    /* Nothing has run on the loop and it holds no session: shut it down
     * here, as its thread would have, so that no handle is left open. */
    srv_shutdown(srv, "its thread did not start");
    uv_run(srv->loop, UV_RUN_DEFAULT);
    uv_loop_close(srv->loop);
    srv_free(srv);
    return -1;
}

void srv_join(srv_t *srv)
{
    uv_thread_join(&srv->thread);
}

void srv_release(srv_t *srv)
{
    srv_free(srv);
}

int srv_send_connection(srv_t *srv, int fd, const msg_accept_t *acc)
{
    smsg_t *m = msg_new(MSG_CONNECTION, 0, 0, NULL);
    if (!m)
        return -1;
    m->accept = malloc(sizeof *m->accept);
    if (!m->accept) {
        msg_free(m);
        return -1;
    }
    *m->accept = *acc;
    m->a = fd;
    if (inbox_post(&srv->inbox, m) != 0) {
        m->accept->conn = NULL; /* still the caller's */
        msg_free(m);
        return -1;
    }
    return 0;
}

int srv_send_shutdown(srv_t *srv, const char *why)
{
    smsg_t *m = msg_new(MSG_SHUTDOWN, 0, 0, "%s", why);
    if (!m)
        return -1;
    if (inbox_post(&srv->inbox, m) != 0) {
        msg_free(m);
        return -1;
    }
    return 0;
}

/* A shutdown's goodbye: whether the game is kept, and whole. */
static const char *shutdown_words(sess_t *s)
{
    switch (sess_play_game_fate(s)) {
    case SESS_GAME_KEPT:
        return "The server is shutting down: your game is saved, log in "
               "again to go on. Goodbye!";
    case SESS_GAME_KEPT_BEHIND: /* two lines: one would break mid-word */
        return "The server is shutting down and may not have saved your "
               "latest\r\nturns: your next login goes on from its last "
               "save. Goodbye!";
    case SESS_GAME_ENDS: /* recorded as it stands (guest_min_turns) */
        return "The server is shutting down: a guest's game ends here. "
               "Goodbye!";
    default:
        return "The server is shutting down. Goodbye!";
    }
}

void srv_shutdown(srv_t *srv, const char *why)
{
    if (srv->shutting_down)
        return;
    srv->shutting_down = 1;
    log_debug("worker %d: shutting down (%s)", srv->index, why);
    /* No session of this loop keeps a game from now on; the games kept so
     * far end now, while the store is at hand (the last loop to shut
     * down ends the last of them). */
    sess_guest_sweep(srv, uv_now(srv->loop), 1);
    /* The phase keeps the loop alive until the last session is freed;
     * then it closes the inbox and itself. */
    uv_close((uv_handle_t *)&srv->sweep, NULL);
    sess_t *next;
    for (sess_t *s = srv->sessions; s; s = next) {
        next = s->next;
        sess_close(s, "the server stopped", 1, shutdown_words(s));
    }
}

/* srv_slot_take's, against max (the calling thread's copy of
 * max_sessions: reload changes each loop's, and the host's, on its own
 * thread). */
static int slot_take(shared_t *h, int max, int *online)
{
    int n = atomic_fetch_add(&h->online, 1);
    if (n >= max || atomic_load(&h->shutting_down)) {
        atomic_fetch_sub(&h->online, 1);
        *online = n;
        return 0;
    }
    *online = n + 1;
    return 1;
}

int srv_slot_take(srv_t *srv, int *online)
{
    return slot_take(srv->sh, srv->cfg.max_sessions, online);
}

void srv_slot_release(srv_t *srv)
{
    atomic_fetch_sub(&srv->sh->online, 1);
}

int srv_online(const srv_t *srv)
{
    return atomic_load(&srv->sh->online);
}

/* The monotonic clock in ms, as the loops' uv_now: the addresses' buckets
 * are kept on it, and the SSH hold is taken and given back off any loop. */
static uint64_t mono_ms(void)
{
    return uv_hrtime() / 1000000u;
}

int srv_startup_begin(shared_t *sh, const char *ip, uint64_t now_ms,
                      int *had)
{
    *had = addr_startup_begin(&sh->addrs, ip, now_ms);
    return atomic_fetch_add(&sh->startups, 1);
}

void srv_startup_end(shared_t *sh, const char *ip, uint64_t now_ms)
{
    addr_startup_end(&sh->addrs, ip, now_ms);
    atomic_fetch_sub(&sh->startups, 1);
}

/* An SSH connection's place among the startups ends (addr: "ip:port"). */
static void startup_end(shared_t *sh, const char *addr)
{
    char ip[ADDR_MAX];
    sshg_ip_of(addr, ip, sizeof ip);
    srv_startup_end(sh, ip, mono_ms());
}

int srv_ssh_hold(shared_t *sh, int max_sessions, startups_t *drops,
                 const char *addr)
{
    char ip[ADDR_MAX];
    sshg_ip_of(addr, ip, sizeof ip);
    int had, n = srv_startup_begin(sh, ip, mono_ms(), &had), online;
    if (startups_drop(drops, n, had == 0)) {
        startup_end(sh, addr);
        /* closed at once: nothing can be said before SSH's banner */
        if (refusal_count(REFUSE_STARTUPS))
            log_info("refused %s: busy: %d connections before the lobby "
                     "(SSH), %d from its address", addr, n, had);
        return -1;
    }
    if (!slot_take(sh, max_sessions, &online)) {
        startup_end(sh, addr);
        if (refusal_count(REFUSE_FULL))
            log_info("refused %s: server full (SSH, %d players)", addr,
                     online);
        return -1;
    }
    /* Its address's connection a minute and session, as a telnet
     * connection's at its first byte: before the key exchange and the
     * store's lookups, which a refused connection never costs. (Out of
     * memory it is let in untracked; its release then finds nothing, or
     * at worst lets that address one session more.) */
    int tracked, verdict = addr_admit(&sh->addrs, ip, mono_ms(), &tracked);
    if (verdict != ADDR_OK) {
        atomic_fetch_sub(&sh->online, 1);
        startup_end(sh, addr);
        int connects = verdict == ADDR_TOO_MANY_CONNECTS;
        /* closed at once: nothing can be said before SSH's banner */
        if (refusal_count(connects ? REFUSE_ADDR_CONNECTS
                                   : REFUSE_ADDR_SESSIONS))
            log_info("refused %s: %s (SSH)", addr, connects
                     ? "too many connections from this address"
                     : "too many sessions from this address");
        return -1;
    }
    return 0;
}

void srv_ssh_hold_release(shared_t *sh, const char *addr)
{
    char ip[ADDR_MAX];
    sshg_ip_of(addr, ip, sizeof ip);
    addr_release(&sh->addrs, ip, mono_ms());
    atomic_fetch_sub(&sh->online, 1);
    startup_end(sh, addr);
}

uint64_t srv_new_id(srv_t *srv)
{
    return (uint64_t)atomic_fetch_add(&srv->sh->next_id, 1) + 1;
}

void srv_session_gone(srv_t *srv)
{
    atomic_fetch_sub(&srv->sh->load[srv->index], 1);
}

struct cluster *srv_cluster(const srv_t *srv)
{
    return srv->sh->cluster;
}

uint64_t srv_new_seed(srv_t *srv)
{
    uint64_t seed;
    if (config_seed(&srv->cfg, &seed))
        return seed;
    if (uv_random(NULL, NULL, &seed, sizeof seed, 0, NULL) != 0) {
        /* No entropy source: fall back to time and a counter. Only the
         * dungeon's variety depends on it, never security. */
        seed = uv_hrtime() ^ (++srv->seeds * 0x9e3779b97f4a7c15ULL) ^
               (uint64_t)srv->index;
    }
    return seed;
}

void srv_game_options(const srv_t *srv, game_options_t *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->ruleset = config_ruleset(&srv->cfg);
}
