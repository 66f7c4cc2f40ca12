/* session.c - a connection's life: accept, read, write, close, free.
 * What the bytes mean (telnet, keys, the game) is session_play.c. */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store.h"

/* Our side of the option table (TELNET.md): we will ECHO and SGA, we want
 * NAWS and TTYPE from the client, and we refuse everything else. */
static const telnet_telopt_t telopts[] = {
    { TELNET_TELOPT_ECHO, TELNET_WILL, TELNET_DONT },
    { TELNET_TELOPT_SGA, TELNET_WILL, TELNET_DO },
    { TELNET_TELOPT_NAWS, TELNET_WONT, TELNET_DO },
    { TELNET_TELOPT_TTYPE, TELNET_WONT, TELNET_DO },
    { -1, 0, 0 }
};

#define CLOSE_DEADLINE_MS 2000
#define ESC_DELAY_MS 100

/* One write request owns its bytes until its callback (libuv's rule). */
typedef struct wreq {
    uv_write_t req;
    sess_t *s;
    size_t len;
    char data[];
} wreq_t;

static void sess_free(sess_t *s)
{
    srv_t *srv = s->srv;
    if (s->prev)
        s->prev->next = s->next;
    else
        srv->sessions = s->next;
    if (s->next)
        s->next->prev = s->prev;
    if (srv->out_owner == s) {
        buf_reset(&srv->out);
        srv->out_owner = NULL;
    }
    /* No store answer may reach this session any more. */
    store_cancel(srv->store, s);
    if (s->telnet)
        telnet_free(s->telnet);
    screen_free(&s->shown);
    game_free(s->game); /* NULL, or an account's game held in the lobby */
    record_free(&s->rec);
    lobby_free(&s->lobby);
    free(s);
}

static void on_handle_closed(uv_handle_t *h)
{
    sess_t *s = h->data;
    if (--s->open_handles == 0)
        sess_free(s);
}

static void close_handles(sess_t *s)
{
    if (s->handles_closing)
        return;
    s->handles_closing = 1;
    uv_close((uv_handle_t *)&s->tcp, on_handle_closed);
    uv_close((uv_handle_t *)&s->timer, on_handle_closed);
    uv_close((uv_handle_t *)&s->esc_timer, on_handle_closed);
}

static void on_shutdown(uv_shutdown_t *req, int status)
{
    (void)status;
    close_handles(req->data);
}

static void on_write(uv_write_t *req, int status)
{
    wreq_t *w = (wreq_t *)req;
    sess_t *s = w->s;
    s->queued -= w->len;
    s->drained_ms = uv_now(s->srv->loop);
    free(w);
    if (status < 0) {
        if (status != UV_ECANCELED)
            sess_close(s, "write error", 0, NULL);
        return;
    }
    /* Frames were skipped while the client lagged: catch up in one diff. */
    if (s->dirty && s->queued <= (size_t)s->srv->cfg.output_highwater / 2) {
        sess_render(s);
        sess_flush(s);
    }
}

void sess_flush(sess_t *s)
{
    srv_t *srv = s->srv;
    if (srv->out_owner != s)
        return;
    srv->out_owner = NULL;
    const char *p = srv->out.data;
    size_t len = srv->out.len;
    buf_reset(&srv->out);
    if (len == 0 || s->handles_closing)
        return;
    s->last_output_ms = uv_now(srv->loop);
    /* Most frames fit the socket buffer: write them at once, no copy. */
    uv_buf_t b = uv_buf_init((char *)p, (unsigned)len);
    int n = uv_try_write((uv_stream_t *)&s->tcp, &b, 1);
    if (n > 0) {
        p += n;
        len -= (size_t)n;
    } else if (n != UV_EAGAIN && n != UV_ENOSYS) {
        sess_close(s, "write error", 0, NULL);
        return;
    }
    if (len == 0)
        return;
    if (s->queued + len > (size_t)srv->cfg.output_limit) {
        /* It stopped reading: memory per session never depends on the client. */
        sess_close(s, "output limit (client not reading)", 0, NULL);
        return;
    }
    if (s->queued == 0)
        s->drained_ms = uv_now(srv->loop); /* a stall is timed from here */
    wreq_t *w = malloc(sizeof *w + len);
    if (!w) {
        sess_close(s, "out of memory", 0, NULL);
        return;
    }
    w->s = s;
    w->len = len;
    memcpy(w->data, p, len);
    b = uv_buf_init(w->data, (unsigned)len);
    int rc = uv_write(&w->req, (uv_stream_t *)&s->tcp, &b, 1, on_write);
    if (rc != 0) {
        free(w);
        sess_close(s, "write error", 0, NULL);
        return;
    }
    s->queued += len;
}

void sess_send(sess_t *s, const void *data, size_t len)
{
    if (s->telnet && !s->handles_closing)
        telnet_send(s->telnet, data, len);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    sess_t *s = h->data;
    (void)suggested;
    /* One read is handled completely before the next alloc: share a buffer. */
    *b = uv_buf_init(s->srv->readbuf, sizeof s->srv->readbuf);
}

static void on_esc_timer(uv_timer_t *t)
{
    sess_t *s = t->data;
    sess_esc_timeout(s);
    sess_flush(s);
}

static void on_read(uv_stream_t *stream, ssize_t n, const uv_buf_t *b)
{
    sess_t *s = stream->data;
    srv_t *srv = s->srv;
    if (n < 0) {
        sess_close(s, n == UV_EOF ? "client closed" : uv_strerror((int)n), 0,
                   NULL);
        return;
    }
    if (n == 0 || s->state == S_CLOSING)
        return;
    /* libtelnet 0.21 must never see an MSSP subnegotiation, and no
     * subnegotiation may grow without bound: tnfilter sees the bytes first. */
    long m = tnfilter_feed(&s->filter, (const unsigned char *)b->base,
                           (size_t)n, srv->filtbuf, sizeof srv->filtbuf);
    if (m < 0) {
        sess_close(s, "oversized subnegotiation", 0, NULL);
        return;
    }
    if (m > 0)
        telnet_recv(s->telnet, (const char *)srv->filtbuf, (size_t)m);
    if (s->state == S_CLOSING) {
        sess_flush(s);
        return;
    }
    if (keydec_pending(&s->keys))
        uv_timer_start(&s->esc_timer, on_esc_timer, ESC_DELAY_MS, 0);
    else
        uv_timer_stop(&s->esc_timer);
    if (s->need_render)
        sess_render(s);
    sess_flush(s);
}

static void on_timer(uv_timer_t *t)
{
    sess_t *s = t->data;
    if (s->state == S_NEGOTIATING) {
        /* Refusals raise no libtelnet event: the deadline decides. */
        sess_start_play(s);
        sess_flush(s);
    } else if (s->state == S_CLOSING) {
        close_handles(s); /* the client never drained its output */
    }
}

static void peer_name(sess_t *s)
{
    struct sockaddr_storage a;
    int len = sizeof a;
    if (uv_tcp_getpeername(&s->tcp, (struct sockaddr *)&a, &len) == 0)
        srv_addr_name(&a, s->addr, sizeof s->addr);
    else
        snprintf(s->addr, sizeof s->addr, "?:0");
}

void sess_accept(srv_t *srv)
{
    sess_t *s = calloc(1, sizeof *s);
    if (!s) {
        log_error("accept: out of memory");
        return;
    }
    s->srv = srv;
    s->id = ++srv->next_id;
    uv_tcp_init(srv->loop, &s->tcp);
    uv_timer_init(srv->loop, &s->timer);
    uv_timer_init(srv->loop, &s->esc_timer);
    s->tcp.data = s->timer.data = s->esc_timer.data = s->shutdown_req.data = s;
    s->open_handles = 3;
    s->next = srv->sessions;
    if (s->next)
        s->next->prev = s;
    srv->sessions = s;
    s->state = S_NEGOTIATING;
    s->w = 80;
    s->h = 24;
    uint64_t now = uv_now(srv->loop);
    s->started_ms = s->last_input_ms = s->last_output_ms = now;
    s->key_tokens = srv->cfg.max_keys_per_second;
    s->key_tokens_ms = now;
    tnfilter_init(&s->filter);
    keydec_init(&s->keys);
    term_state_reset(&s->term);
    s->refused = 1; /* until admitted below */

    int rc = uv_accept((uv_stream_t *)&srv->listener, (uv_stream_t *)&s->tcp);
    if (rc != 0) {
        log_error("accept: %s", uv_strerror(rc));
        s->state = S_CLOSING;
        close_handles(s);
        return;
    }
    peer_name(s);
    s->telnet = telnet_init(telopts, sess_telnet_event, 0, s);
    if (!s->telnet) {
        s->state = S_CLOSING;
        close_handles(s);
        return;
    }
    if (srv->shutting_down || srv->nplaying >= srv->cfg.max_sessions) {
        log_info("refused %s: server full (%d players)", s->addr, srv->nplaying);
        char line[128];
        snprintf(line, sizeof line,
                 "Sorry, the server is full (%d players). Please try again later.\r\n",
                 srv->nplaying);
        sess_send(s, line, strlen(line));
        sess_close(s, "server full", 1, NULL);
        return;
    }
    s->refused = 0;
    char guest[ACCT_NAME_MAX + 1];
    snprintf(guest, sizeof guest, "guest%llu", (unsigned long long)s->id);
    lobby_init(&s->lobby, guest);
    srv->nplaying++;
    uv_tcp_nodelay(&s->tcp, 1);
    uv_tcp_keepalive(&s->tcp, 1, 60);
    log_info("connect %s id=%llu (%d online)", s->addr,
             (unsigned long long)s->id, srv->nplaying);
    /* One write: IAC WILL ECHO, IAC WILL SGA, IAC DO NAWS, IAC DO TTYPE. */
    telnet_negotiate(s->telnet, TELNET_WILL, TELNET_TELOPT_ECHO);
    telnet_negotiate(s->telnet, TELNET_WILL, TELNET_TELOPT_SGA);
    telnet_negotiate(s->telnet, TELNET_DO, TELNET_TELOPT_NAWS);
    telnet_negotiate(s->telnet, TELNET_DO, TELNET_TELOPT_TTYPE);
    sess_flush(s);
    uv_timer_start(&s->timer, on_timer, (uint64_t)srv->cfg.negotiation_ms, 0);
    uv_read_start((uv_stream_t *)&s->tcp, on_alloc, on_read);
}

void sess_close(sess_t *s, const char *reason, int graceful,
                const char *message)
{
    srv_t *srv = s->srv;
    if (s->state == S_CLOSING)
        return;
    int was_playing = s->state != S_NEGOTIATING;
    unsigned turns = s->state == S_PLAYING && s->game ? (unsigned)s->game->turn : 0u;
    sess_watch_detach(s, "The player has left.");
    if (s->state == S_REPLAY)
        sess_replay_stop(s);
    if (s->state == S_PLAYING && s->game) {
        /* A guest's game cut short by the connection is over: record it.
         * An account's is kept for its next login. */
        char cause[64];
        snprintf(cause, sizeof cause, "disconnected (%s)", reason);
        sess_game_suspend(s, cause);
    }
    s->state = S_CLOSING;
    if (!s->refused) {
        srv->nplaying--;
        uint64_t ms = uv_now(srv->loop) - s->started_ms;
        log_info("disconnect %s id=%llu reason=\"%s\" duration=%llu.%03llus turns=%u",
                 s->addr, (unsigned long long)s->id, reason,
                 (unsigned long long)(ms / 1000), (unsigned long long)(ms % 1000),
                 turns);
    }
    uv_timer_stop(&s->esc_timer);
    uv_timer_stop(&s->timer);
    if (s->handles_closing)
        return;
    uv_read_stop((uv_stream_t *)&s->tcp);
    if (!graceful) {
        if (srv->out_owner == s) {
            buf_reset(&srv->out);
            srv->out_owner = NULL;
        }
        close_handles(s);
        return;
    }
    if (was_playing) {
        /* Leave the player's terminal as it was: pen, mouse, cursor, screen. */
        static const char restore[] =
            "\x1b[0m\x1b[?1000l\x1b[?1006l\x1b[?25h\x1b[?1049l";
        sess_send(s, restore, sizeof restore - 1);
    }
    if (message) {
        sess_send(s, message, strlen(message));
        sess_send(s, "\r\n", 2);
    }
    sess_flush(s);
    if (s->handles_closing)
        return;
    /* Shut down after the queued bytes are written; a client that never reads
     * them is cut off at the deadline. */
    if (uv_shutdown(&s->shutdown_req, (uv_stream_t *)&s->tcp, on_shutdown) != 0) {
        close_handles(s);
        return;
    }
    uv_timer_start(&s->timer, on_timer, CLOSE_DEADLINE_MS, 0);
}

void sess_sweep(sess_t *s, uint64_t now)
{
    const config_t *c = &s->srv->cfg;
    if (s->state == S_CLOSING)
        return;
    /* Frames are skipped while a client lags, so one that sends keys but
     * never reads stays under output_limit: time its stall instead. */
    if (c->write_timeout && s->queued > 0 &&
        now - s->drained_ms >= (uint64_t)c->write_timeout * 1000) {
        sess_close(s, "output stalled (client not reading)", 0, NULL);
        return;
    }
    if (s->state == S_NEGOTIATING)
        return;
    sess_game_flush(s); /* an account's new keys, at least once a second */
    if (c->idle_timeout) {
        uint64_t idle = now - s->last_input_ms;
        uint64_t limit = (uint64_t)c->idle_timeout * 1000;
        if (idle >= limit) {
            sess_close(s, "idle timeout", 1,
                       "You were idle for too long. Goodbye!");
            return;
        }
        if (c->idle_warning && !s->warned_idle &&
            idle + (uint64_t)c->idle_warning * 1000 >= limit) {
            s->warned_idle = 1;
            snprintf(s->notice, sizeof s->notice,
                     "You are idle: press a key within %d seconds to stay.",
                     (int)((limit - idle + 999) / 1000));
            sess_redraw(s);
        }
    }
    if (c->keepalive && s->telnet_peer &&
        now - s->last_output_ms >= (uint64_t)c->keepalive * 1000) {
        telnet_iac(s->telnet, TELNET_NOP);
        sess_flush(s);
    }
}
