/* session_admit.c - a connection's way in, before negotiation: its
 * transport (telnet, the browser's page and WebSocket, SSH's records),
 * its address (the peer's, the balancer's PROXY header's, or the one an
 * SSH player's thread gives), the server's and the address's limits, and
 * the deadline for its first bytes; then the lobby's guest name and the
 * negotiation (session_impl.h). */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ban_list.h"
#include "byte_io.h"
#include "log.h"
#include "refusals.h"
#include "session_impl.h"
#include "site.h"
#include "site_html.h"
#include "store.h"
#include "ssh_guard.h"
#include "ssh_link.h"
#include "wsconn.h"

/* A browser's connection has this long for its request's head, and its
 * page as long again from there: twenty times negotiation_ms (10 s by
 * default, docs/hosting.md). */
static uint64_t web_deadline_ms(const sess_t *s)
{
    return (uint64_t)s->srv->cfg.negotiation_ms * 20;
}

/* A site's page still being made when its deadline passed (the store
 * away or slow, a long replay): answered 503, so the browser is told
 * rather than left with a closed connection; the work's answer, if it
 * ever comes, is dropped with the session. Not a refusal of the client:
 * not counted as one. */
static void page_too_slow(sess_t *s)
{
    log_info("page for %s not made within %d ms: 503", s->addr,
             (int)web_deadline_ms(s));
    site_error(s, "503 Service Unavailable",
               "The server could not make that page in time: try again in "
               "a moment.");
}

static void on_negotiate_deadline(uv_timer_t *t);

/* A browser's page always sends its size once its WebSocket is open (and
 * a kept game's "resume T" before it): over a slow network (a round trip
 * past negotiation_ms) it comes late, and the lobby started without it
 * would lose the game the resume names. The page has ten times
 * negotiation_ms (5 s by default, docs/hosting.md) from its WebSocket's
 * opening; the lobby starts then without it. */
#define WEB_SIZE_WAIT 10

/* At negotiation_ms a page whose size has not come: the timer started
 * again for the rest of its wait (logged at debug). Returns 1 if it
 * waits on, 0 once the wait is over. */
static int web_size_wait(sess_t *s)
{
    uint64_t wait = (uint64_t)s->srv->cfg.negotiation_ms * WEB_SIZE_WAIT;
    uint64_t spent = sess_now(s) - s->started_ms;
    if (spent >= wait)
        return 0;
    log_debug("session %llu: no size from the page within negotiation_ms: "
              "waiting up to %llu ms more", (unsigned long long)s->id,
              (unsigned long long)(wait - spent));
    uv_timer_start(&s->negotiate_timer, on_negotiate_deadline, wait - spent, 0);
    return 1;
}

/* The deadline of the state before the lobby: for admission, a PROXY
 * header or the browser's request, then a site's page being made; for
 * negotiation, the client's answers. */
static void on_negotiate_deadline(uv_timer_t *t)
{
    sess_t *s = t->data;
    if (s->state == S_ADMITTING && s->proxy && !sess_closing(s)) {
        if (refusal_count(REFUSE_PROXY))
            log_info("refused %s: no PROXY header in time", s->addr);
        sess_close(s, "no PROXY header", 0, NULL);
        return;
    }
    if (s->state == S_ADMITTING && s->web && s->web->stage == WS_PAGE &&
        !sess_closing(s)) {
        page_too_slow(s);
        return;
    }
    if (s->state == S_ADMITTING && s->web && s->web->busy &&
        !sess_closing(s)) {
        if (!s->refusal_quiet)
            log_info("refused %s: %s (no HTTP request to answer in time)",
                     s->addr, s->web->busy);
        sess_close(s, s->web->busy, 0, NULL);
        return;
    }
    if (s->state == S_ADMITTING && s->web && !sess_closing(s)) {
        if (refusal_count(REFUSE_SLOW))
            log_info("refused %s: no HTTP request in time", s->addr);
        sess_close(s, "no HTTP request in time", 0, NULL);
        return;
    }
    if (s->state == S_NEGOTIATING && s->web && !sess_closing(s) &&
        web_size_wait(s))
        return;
    /* Some answers never came (a client that speaks no telnet, nc; or one
     * that ignores a question): the deadline decides. A refusal is an
     * answer (telnet_conn.c, on_refused). */
    if (s->state == S_NEGOTIATING && !sess_closing(s)) {
        log_debug("session %llu: negotiation_ms passed before the client's "
                  "answers", (unsigned long long)s->id);
        sess_start_lobby(s);
    }
}

/* The session's address, for the log and the per-address limits. */
static void set_peer(sess_t *s, const struct sockaddr_storage *a)
{
    if (a->ss_family == AF_INET || a->ss_family == AF_INET6) {
        srv_addr_name(a, s->addr, sizeof s->addr);
        if (a->ss_family == AF_INET6)
            uv_ip6_name((const struct sockaddr_in6 *)a, s->ip, sizeof s->ip);
        else
            uv_ip4_name((const struct sockaddr_in *)a, s->ip, sizeof s->ip);
    } else {
        snprintf(s->addr, sizeof s->addr, "?:0");
        snprintf(s->ip, sizeof s->ip, "?");
    }
}

/* The address an SSH player's thread gave ("ip:port", "[ip]:port"), for
 * the log and the limits (its socket is the libssh session's): the
 * address as srv_ssh_hold counted it, without an IPv6 address's
 * brackets, which a ban's range or a limit's key would not read. */
static void set_peer_name(sess_t *s, const char *name)
{
    snprintf(s->addr, sizeof s->addr, "%s", name);
    sshg_ip_of(name, s->ip, sizeof s->ip);
}

/* Refuses the connection with one line (and a log line), counted under
 * reason (refusals.h): never admitted. A browser's is told once its
 * request comes (why must then be a static string), if within
 * negotiation_ms: its page's WebSocket closed with 1013 and the line, any
 * other request 503 with the line (wsconn_refuse_busy), the log line
 * written then (on_ws_done); otherwise the deadline closes it, logged. */
static void refuse(sess_t *s, int reason, const char *why, const char *line)
{
    /* (a browser's line is written when it is told: on_ws_done) */
    s->refusal_quiet = !refusal_count(reason);
    if (s->web && s->web->stage == WS_HTTP) {
        wsconn_refuse_busy(s->web, why, line);
        uv_timer_start(&s->negotiate_timer, on_negotiate_deadline,
                       (uint64_t)s->srv->cfg.negotiation_ms, 0);
        return;
    }
    if (!s->refusal_quiet)
        log_info("refused %s: %s", s->addr, why);
    sess_close(s, why, 1, line);
}

/* Counts the connection against max_sessions and its address's limits
 * (online: the players then). Returns 0, or -1: refused with one line. */
static int count_in(sess_t *s, int *online_out)
{
    srv_t *srv = s->srv;
    uint64_t now = sess_now(s);
    char line[128];
    int online = srv_online(srv);
    /* an SSH player's slot, taken at its accept (srv_ssh_hold): this
     * function's now, as if taken here */
    int held = s->slot_early;
    s->slot_early = 0;
    if (held && srv->shutting_down)
        srv_slot_release(srv);
    if (srv->shutting_down || (!held && !srv_slot_take(srv, &online))) {
        snprintf(line, sizeof line,
                 "Sorry, the server is full (%d player%s). Please try again "
                 "later.", online, online == 1 ? "" : "s");
        refuse(s, REFUSE_FULL, "server full", line);
        return -1;
    }
    if (s->via_ssh) { /* its address counted at its accept too */
        *online_out = online;
        return 0;
    }
    int counted;
    switch (addr_admit(srv->addrs, s->ip, now, &counted)) {
    case ADDR_TOO_MANY_CONNECTS:
        srv_slot_release(srv);
        refuse(s, REFUSE_ADDR_CONNECTS, "too many connections from this address",
               "Too many connections from your address: please wait a minute.");
        return -1;
    case ADDR_TOO_MANY_SESSIONS:
        srv_slot_release(srv);
        snprintf(line, sizeof line, "Your address has %d sessions open already, "
                 "the most one address may have.", srv->cfg.max_sessions_per_ip);
        refuse(s, REFUSE_ADDR_SESSIONS, "too many sessions from this address",
               line);
        return -1;
    default:
        s->ip_counted = (uint8_t)counted;
        break;
    }
    *online_out = online;
    return 0;
}

/* A banned address (ctl ban; the host's list, no wait on the database) is
 * refused with one line. Returns 1 if it was. */
static int refuse_banned(sess_t *s)
{
    int64_t until;
    if (!store_banned_addr(s->srv->store, s->ip, ban_now_ms(), &until))
        return 0;
    char line[128];
    ban_say(line, sizeof line, "This address", until);
    refuse(s, REFUSE_BANNED, "a banned address", line);
    return 1;
}

/* Lets the connection in, from the address it now has (the balancer's
 * header may have named it), or refuses it with one line. A browser's was
 * counted at its first byte already (start_web_or_admit), and its ban is
 * checked once its WebSocket is open, where the line can be shown (its
 * page's files are served to a banned address too). */
static void admit(sess_t *s)
{
    srv_t *srv = s->srv;
    uint64_t now = sess_now(s);
    int online;
    if (refuse_banned(s))
        return;
    if (s->slot_early && s->web) { /* counted at its first byte */
        s->slot_early = 0; /* the slot is the admitted session's now */
        online = srv_online(srv);
    } else if (count_in(s, &online) != 0) {
        return;
    }
    if (dir_add(srv->dir, s->id, s, srv->index) != 0) {
        srv_slot_release(srv);
        sess_close(s, "out of memory", 0, NULL);
        return;
    }
    s->admitted = 1;
    s->state = S_NEGOTIATING; /* no data, no enter: admission is over */
    char guest[ACCT_NAME_MAX + 1];
    /* Guest numbers are never reused, across restarts too (store.h). */
    snprintf(guest, sizeof guest, "guest%llu", store_guest_number(srv->store));
    lobby_init(&s->lobby, guest);
    s->started_ms = s->last_input_ms = s->last_output_ms = now;
    log_info("connect %s id=%llu worker=%d (%d online)", s->addr,
             (unsigned long long)s->id, srv->index, online);
    if (s->tr->start)
        s->tr->start(s->conn); /* telnet: one write, our four options */
    /* telnet: the client's answers; the browser: its size message */
    uv_timer_start(&s->negotiate_timer, on_negotiate_deadline,
                   (uint64_t)srv->cfg.negotiation_ms, 0);
}

/* Once the address is known (the peer's, or the one a balancer's header
 * gave): a telnet player is admitted; a browser only when its page opens
 * the WebSocket (fetching the page's files is not playing), and its
 * request must come in time. */
static void start_web_or_admit(sess_t *s)
{
    if (!s->web) {
        admit(s);
        return;
    }
    /* Counted from the first byte, as a telnet connection is: a
     * connection waiting for its request holds a slot (docs/hosting.md). */
    int online;
    if (count_in(s, &online) != 0)
        return;
    s->slot_early = 1;
    uv_timer_start(&s->negotiate_timer, on_negotiate_deadline,
                   web_deadline_ms(s), 0);
}

/* The first bytes of a trusted balancer's connection: its PROXY header,
 * then the player's own. Returns how many bytes of b the header took, or
 * -1 once the session is closing. */
long sess_read_proxy_header(sess_t *s, const char *b, size_t n)
{
    size_t used;
    int rc = proxy_feed(s->proxy, b, n, &used);
    if (rc == PROXY_MORE)
        return (long)n;
    if (rc == PROXY_BAD) {
        if (refusal_count(REFUSE_PROXY))
            log_info("refused %s: %s", s->addr, s->proxy->error);
        sess_close(s, "bad PROXY header", 0, NULL);
        return -1;
    }
    if (s->proxy->has_addr) {
        char was[sizeof s->addr];
        memcpy(was, s->addr, sizeof was);
        set_peer(s, &s->proxy->addr);
        log_debug("session %llu: %s through the balancer at %s",
                  (unsigned long long)s->id, s->addr, was);
    }
    free(s->proxy);
    s->proxy = NULL;
    uv_timer_stop(&s->negotiate_timer);
    start_web_or_admit(s);
    return sess_closing(s) ? -1 : (long)used;
}

static void on_ws_open(void *ctx)
{
    sess_t *s = ctx;
    uv_timer_stop(&s->negotiate_timer);
    snprintf(s->tc.ttype, sizeof s->tc.ttype, "browser");
    /* a site page's terminal: /ws?watch=ID or ?replay=ID (site.h) */
    s->site_start = (uint8_t)site_ws_start(s->web->query, &s->site_start_id);
    s->site_page = s->site_start;
    admit(s);
}

static void on_ws_resize(void *ctx, int w, int h)
{
    sess_on_tc_resize(ctx, w, h);
    sess_start_lobby_if_negotiated(ctx);
}

/* A GET that is no file of the play page: the site's (site.h). The
 * request is in, so its deadline is over; the page has one of its own,
 * as long, from here (a page not made by then is a 503). */
static int on_ws_page(void *ctx, const char *path, const char *query)
{
    sess_t *s = ctx;
    uv_timer_start(&s->negotiate_timer, on_negotiate_deadline,
                   web_deadline_ms(s), 0);
    return site_request(ctx, path, query);
}

/* An upgrade refused for its Origin: the Origin, for the log (what a
 * host whose pages are elsewhere puts in ws_origins); printable ASCII
 * only, the rest '?', as it is the client's. "" for any other refusal. */
static void refused_origin(const wsconn_t *c, char *out, size_t size)
{
    out[0] = '\0';
    if (strncmp(c->refused, "403 ", 4) != 0) /* only an Origin is 403 */
        return;
    size_t n = 0;
    n += (size_t)snprintf(out, size, " (Origin: ");
    for (size_t i = 0; i < c->origin_len && n + 3 < size; i++)
        out[n++] = c->origin[i] >= 0x20 && c->origin[i] < 0x7f ? c->origin[i]
                                                               : '?';
    snprintf(out + n, size - n, ")");
}

static void on_ws_done(void *ctx)
{
    sess_t *s = ctx;
    if (s->web->refused && s->web->refused_why) { /* answered: say why */
        char origin[sizeof s->web->origin + 16];
        refused_origin(s->web, origin, sizeof origin);
        /* a limit's: counted by refuse() already */
        if (s->web->busy ? !s->refusal_quiet
                         : refusal_count(REFUSE_BAD_HTTP))
            log_info("refused %s: %s: %s%s", s->addr, s->web->refused,
                     s->web->refused_why, origin);
    }
    if (!s->close.requested)
        s->close.by_page = 1; /* (a page that reloads keeps its login) */
    /* a frame the server refused is no page that left (the refused line
     * above says which) */
    sess_close(s, !s->admitted ? "page served"
                  : s->web->refused ? "frame refused" : "browser closed", 1,
               NULL);
}

/* Under pressure the newest connection, which has done nothing yet, is
 * let go first (startups.h): counted among the connections before the
 * lobby, and its address's (a fresh address is let in first), and
 * dropped at random past startups_start (told the server is busy). An SSH
 * player was counted, and could have been dropped, at its accept
 * (srv_ssh_hold). Returns 1 when dropped. */
static int drop_early(sess_t *s)
{
    srv_t *srv = s->srv;
    snprintf(s->startup_ip, sizeof s->startup_ip, "%s", s->ip);
    int had, n = srv_startup_begin(srv->sh, s->startup_ip, sess_now(s), &had);
    s->startup = 1;
    if (!startups_drop(&srv->drops, n, had == 0))
        return 0;
    sess_startup_done(s); /* refused: not one of them */
    char why[128];
    snprintf(why, sizeof why, "busy: %d connections before the lobby, %d "
             "from this address", n, had);
    if (s->web) /* (its answer needs a static reason) */
        refuse(s, REFUSE_STARTUPS, "busy: too many connections before the lobby",
               "The server is busy: please try again in a moment.");
    else
        refuse(s, REFUSE_STARTUPS, why,
               "The server is busy: please try again in a moment.");
    return 1;
}

int sess_web_init(sess_t *s)
{
    /* the browser's bytes and keys take telnet's paths */
    static const wsconn_cb_t wcb = { sess_on_tc_send, on_ws_open,
                                     sess_on_tc_data, on_ws_resize,
                                     on_ws_done, on_ws_page };
    s->web = calloc(1, sizeof *s->web);
    if (!s->web)
        return -1;
    s->tr = &ws_transport;
    s->conn = s->web;
    if (wsconn_init(s->web, &wcb, s, s->srv->cfg.max_cols,
                    s->srv->cfg.max_rows) != 0)
        return -1;
    /* (a key read at start only: the string lives as long as the loop) */
    s->web->origins = s->srv->cfg.ws_origins;
    return 0;
}

/* An SSH player's: the bridge's records (ssh_link.h), not telnet, and its
 * libssh session (acc->conn), the session's from here on, closed with its
 * handles. 0, or -1 (logged). */
static int ssh_attach(sess_t *s, msg_accept_t *acc)
{
    ssh_link_t *link = ssh_link_new(&s->tc, sess_on_tc_send, s);
    if (!link) {
        log_error("accept: out of memory");
        return -1;
    }
    s->tr = &ssh_transport;
    s->conn = link;
    if (acc->io->open(acc->conn, s->srv->loop, &sess_io_cb, s) != 0) {
        log_error("accept %s: cannot watch its SSH connection", acc->addr);
        return -1;
    }
    s->io = acc->io;
    s->io_conn = acc->conn;
    acc->conn = NULL;
    s->open_handles++;
    return 0;
}

/* A new session on srv's list, in S_ADMITTING: its handles, clocks,
 * buffers and the plain display until the client says more. NULL when out
 * of memory. */
sess_t *sess_new(srv_t *srv)
{
    /* On a cache line of its own: the fields a key touches are at the top
     * (session.h), in as few lines as they fill. */
    void *mem = NULL;
    if (posix_memalign(&mem, 64, sizeof(sess_t)) != 0)
        return NULL;
    sess_t *s = memset(mem, 0, sizeof(sess_t));
    s->srv = srv;
    s->id = srv_new_id(srv);
    uv_tcp_init(srv->loop, &s->tcp);
    uv_timer_init(srv->loop, &s->negotiate_timer);
    uv_timer_init(srv->loop, &s->esc_timer);
    uv_timer_init(srv->loop, &s->replay_timer);
    uv_timer_init(srv->loop, &s->close_timer);
    uv_timer_init(srv->loop, &s->resize_timer);
    uv_timer_init(srv->loop, &s->in_timer);
    s->tcp.data = s->negotiate_timer.data = s->esc_timer.data = s;
    s->replay_timer.data = s->close_timer.data = s->shutdown_req.data = s;
    s->resize_timer.data = s->in_timer.data = s;
    s->open_handles = 7;
    s->next = srv->sessions;
    if (s->next)
        s->next->prev = s;
    srv->sessions = s;
    s->state = S_ADMITTING;
    s->close.reason = s->close.message = "";
    s->w = 80;
    s->h = 24;
    uint64_t now = uv_now(srv->loop);
    s->started_ms = s->last_input_ms = s->last_output_ms = now;
    s->key_tokens = srv->cfg.max_keys_per_second;
    s->key_tokens_ms = now;
    inb_init(&s->in, inb_burst(sess_in_rate(s)), now);
    buf_init(&s->out, (size_t)srv->cfg.output_limit);
    keydec_init(&s->keys);
    term_state_reset(&s->term);
    /* ASCII and 16 colours until the client says more (session_options.c) */
    s->detected = s->display = DISPLAY_PLAIN;
    term_state_set_display(&s->term, &s->display);
    return s;
}

void sess_accept(srv_t *srv, int fd, msg_accept_t *acc)
{
    int web = acc->kind == ACCEPT_WEB;
    int ssh = acc->kind == ACCEPT_SSH;
    sess_t *s = sess_new(srv);
    if (!s) {
        log_error("accept: out of memory");
        close(fd);
        if (ssh)
            srv_ssh_hold_release(srv->sh, acc->addr);
        srv_session_gone(srv);
        return;
    }
    if (ssh) {
        /* its hold from the accept (srv_ssh_hold), the session's now: its
         * place among the startups until the lobby, its slot (slot_early)
         * the admitted session's or given back as it ends */
        s->startup = 1;
        sshg_ip_of(acc->addr, s->startup_ip, sizeof s->startup_ip);
        s->slot_early = 1;
        /* its address's session (addr_admit), under the address it was
         * counted by, from now: a session that fails before set_peer_name
         * gives it back too (sess_free) */
        s->ip_counted = 1;
        sshg_ip_of(acc->addr, s->ip, sizeof s->ip);
    }
    /* an SSH player's bytes come by its libssh session (acc->conn) */
    int rc = ssh ? 0 : uv_tcp_open(&s->tcp, fd);
    if (rc != 0)
        close(fd); /* not the handle's: it closes only what it opened */
    /* accept()'s: a peer gone already (a balancer's health check) has
     * no address to ask for any more, and would be taken for a stranger */
    struct sockaddr_storage peer = acc->peer;
    tconn_cb_t cb = { sess_on_tc_data, sess_on_tc_send, sess_on_tc_key, sess_on_tc_resize };
    if (rc == 0 && web && sess_web_init(s) != 0)
        rc = UV_ENOMEM;
    if (!web) {
        s->tr = &telnet_transport;
        s->conn = &s->tc;
    }
    if (ssh)
        cb.send = NULL; /* no telnet reaches an SSH client (ssh_link.h) */
    if (rc != 0 || (!web &&
        tconn_init(&s->tc, &cb, s, srv->cfg.max_cols, srv->cfg.max_rows) != 0)) {
        log_error("accept: %s", rc ? uv_strerror(rc) : "out of memory");
        s->state = S_CLOSING;
        sess_close_handles(s);
        return;
    }
    if (ssh && ssh_attach(s, acc) != 0) {
        s->state = S_CLOSING;
        sess_close_handles(s);
        return; /* (the message drops a connection not taken) */
    }
    set_peer(s, &peer);
    if (ssh) {
        /* the player's address, as the SSH thread gave it */
        char from[sizeof s->addr];
        snprintf(from, sizeof from, "%.*s", (int)sizeof from - 1, acc->addr);
        set_peer_name(s, from);
        s->via_ssh = 1;
    }
    if (!ssh) {
        uv_tcp_nodelay(&s->tcp, 1);
        uv_tcp_keepalive(&s->tcp, 1, 60);
        uv_read_start((uv_stream_t *)&s->tcp, sess_on_alloc, sess_on_read);
    }
    if (!ssh && drop_early(s))
        return;
    if (!ssh && srv->proxy_on &&
        proxy_trusted(srv->trust, (struct sockaddr *)&peer)) {
        /* A balancer (in front of the browser's port too): its header
         * first, within the negotiation deadline. */
        s->proxy = calloc(1, sizeof *s->proxy);
        if (!s->proxy) {
            sess_close(s, "out of memory", 0, NULL);
            return;
        }
        proxy_init(s->proxy);
        uv_timer_start(&s->negotiate_timer, on_negotiate_deadline,
                       (uint64_t)srv->cfg.negotiation_ms * 4, 0);
        return;
    }
    s->check_first_read = (uint8_t)(srv->proxy_on && !ssh);
    start_web_or_admit(s);
    if (ssh && s->admitted)
        sess_ssh_login(s, acc); /* session_keys.c */
    if (ssh && !sess_closing(s))
        s->io->start(s->io_conn); /* its setup, then its keys */
}
