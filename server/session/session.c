/* session.c - the session core: accept, read, the output buffer and its
 * writes, closing, the state machine, keys in, messages in.
 * What each state does is in its own file (session.h). */
#include "session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"
#include "keys.h"
#include "log.h"
#include "store.h"
#include "view.h"
#include "wsconn.h"

#define CLOSE_DEADLINE_MS 2000
#define ESC_DELAY_MS 100

/* One write request owns its bytes until its callback (libuv's rule). */
typedef struct wreq {
    uv_write_t req;
    sess_t *s;
    size_t len;
    char data[];
} wreq_t;

uint64_t sess_now(const sess_t *s)
{
    return uv_now(s->srv->loop);
}

const char *sess_player_name(const sess_t *s)
{
    return lobby_player_name(&s->lobby);
}

int sess_hash_begin(sess_t *s)
{
    if (addr_hash_begin(s->srv->addrs, s->ip) != 0)
        return -1;
    s->hashing = 1;
    return 0;
}

void sess_hash_end(sess_t *s)
{
    if (!s->hashing)
        return;
    s->hashing = 0;
    addr_hash_end(s->srv->addrs, s->ip);
}

void owned_game_free(owned_game_t *o)
{
    game_free(o->game);
    record_free(&o->rec);
    memset(o, 0, sizeof *o);
}

/* --- marks and requests ------------------------------------------------------ */

void sess_owe_frame(sess_t *s)
{
    s->owe_frame = 1;
    srv_mark(s->srv, s);
}

void sess_repaint(sess_t *s)
{
    screen_free(&s->shown); /* 0x0: the next frame paints everything */
    sess_owe_frame(s);
}

int sess_closing(const sess_t *s)
{
    return s->close.requested || s->state == S_CLOSING;
}

void sess_close(sess_t *s, const char *reason, int graceful,
                const char *message)
{
    if (s->state == S_CLOSING) {
        /* Draining already: a forced close (a write error, the deadline)
         * still drops it now. */
        if (!graceful && !s->handles_closing) {
            s->close.graceful = 0;
            srv_mark(s->srv, s);
        }
        return;
    }
    if (s->close.requested) {
        if (!graceful)
            s->close.graceful = 0;
        return;
    }
    s->close.requested = 1;
    s->close.graceful = (uint8_t)graceful;
    if (!message)
        message = "";
    size_t rl = strnlen(reason, 63), ml = strnlen(message, 95);
    s->close.buf = malloc(rl + ml + 2);
    if (s->close.buf) {
        memcpy(s->close.buf, reason, rl);
        s->close.buf[rl] = '\0';
        memcpy(s->close.buf + rl + 1, message, ml);
        s->close.buf[rl + 1 + ml] = '\0';
        s->close.reason = s->close.buf;
        s->close.message = s->close.buf + rl + 1;
    } else {
        s->close.reason = "out of memory";
        s->close.message = "";
    }
    srv_mark(s->srv, s);
}

int sess_post(sess_t *s, int type, uint64_t to, int64_t a, msg_game_t *game,
              const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    smsg_t *m = msg_newv(type, s->id, to, fmt, ap);
    va_end(ap);
    if (!m) {
        log_error("session %llu: out of memory for a %s message",
                  (unsigned long long)s->id, msg_type_name(type));
        msg_game_free(game);
        return -1;
    }
    m->a = a;
    m->game = game;
    srv_post(s->srv, m);
    return 0;
}

/* --- states ---------------------------------------------------------------------- */

void sess_goto(sess_t *s, int state, void *arg)
{
    if (s->state == S_NEGOTIATING && state != S_NEGOTIATING)
        sess_display_settle(s); /* what the client said is all in */
    const sess_state_ops_t *old = sess_state_ops(s->state);
    if (old->leave)
        old->leave(s);
    memset(&s->st, 0, sizeof s->st);
    s->state = (uint8_t)state;
    const sess_state_ops_t *ops = sess_state_ops(state);
    if (ops->enter && ops->enter(s, arg) != 0 && state != S_LOBBY) {
        /* It could not start (the enter left a note): the lobby instead. */
        memset(&s->st, 0, sizeof s->st);
        s->state = S_LOBBY;
        ops = sess_state_ops(S_LOBBY);
        if (ops->enter)
            ops->enter(s, NULL);
    }
    if (state != S_CLOSING)
        sess_owe_frame(s);
}

/* --- output ---------------------------------------------------------------------- */

static void on_write(uv_write_t *req, int status)
{
    wreq_t *w = (wreq_t *)req;
    sess_t *s = w->s;
    s->queued -= w->len;
    s->drained_ms = sess_now(s);
    free(w);
    if (status < 0) {
        if (status != UV_ECANCELED)
            sess_close(s, "write error", 0, NULL);
        return;
    }
    /* Frames were skipped while the client lagged: catch up in one diff. */
    if (s->owe_frame && s->queued <= (size_t)s->srv->cfg.output_highwater / 2)
        srv_mark(s->srv, s);
}

/* The loop lends its write buffer to the session the render phase is
 * handling (one at a time), so a frame costs no allocation: what the
 * socket does not take at once is copied into a write request anyway.
 * Bytes gathered outside the phase (telnet answers to a read) go to the
 * session's own buffer, which is allocated only while it holds some. */
static void out_borrow(sess_t *s)
{
    srv_t *srv = s->srv;
    if (s->out.cap != 0 || s->out.len != 0 || srv->wout_lent)
        return;
    size_t limit = s->out.limit;
    s->out = srv->wout;
    s->out.limit = limit;
    srv->wout_lent = 1;
    s->out_borrowed = 1;
}

/* Gives the loop's buffer back (emptied), or frees the session's own. */
static void out_release(sess_t *s)
{
    size_t limit = s->out.limit;
    if (s->out_borrowed) {
        buf_reset(&s->out);
        s->srv->wout = s->out;
        s->srv->wout_lent = 0;
        s->out_borrowed = 0;
        buf_init(&s->out, limit);
        return;
    }
    buf_free(&s->out);
    buf_init(&s->out, limit);
}

/* Queues len bytes behind what the socket has: a copy into the request,
 * or (copy 0) the bytes themselves, which must outlive the write (the
 * page's files are static). Counted against output_limit when copied.
 * Returns NULL, or why the session must end. */
static const char *queue_write(sess_t *s, const void *data, size_t len,
                               int copy)
{
    if (copy && s->queued + len > (size_t)s->srv->cfg.output_limit)
        /* It stopped reading: memory per session never depends on the client. */
        return "output limit (client not reading)";
    wreq_t *w = malloc(sizeof *w + (copy ? len : 0));
    if (!w)
        return "out of memory";
    w->s = s;
    w->len = len;
    if (copy)
        memcpy(w->data, data, len);
    uv_buf_t b = uv_buf_init(copy ? w->data : (char *)data, (unsigned)len);
    if (uv_write(&w->req, (uv_stream_t *)&s->tcp, &b, 1, on_write) != 0) {
        free(w);
        return "write error";
    }
    if (s->queued == 0)
        s->drained_ms = sess_now(s); /* a stall is timed from here */
    s->queued += len;
    return NULL;
}

/* Hands the gathered bytes to libuv: at once if the socket takes them, the
 * rest queued (bounded by output_limit). Returns NULL, or why the session
 * must end. */
static const char *write_out(sess_t *s)
{
    size_t len = s->out.len;
    const char *p = s->out.data;
    if (len == 0 || s->handles_closing)
        return NULL;
    s->last_output_ms = sess_now(s);
    /* Most frames fit the socket buffer: written at once, no copy. */
    uv_buf_t b = uv_buf_init((char *)p, (unsigned)len);
    int n = s->queued == 0 ? uv_try_write((uv_stream_t *)&s->tcp, &b, 1)
                           : UV_EAGAIN;
    if (n > 0) {
        p += n;
        len -= (size_t)n;
    } else if (n != UV_EAGAIN && n != UV_ENOSYS) {
        return "write error";
    }
    return len > 0 ? queue_write(s, p, len, 1) : NULL;
}

/* Writes what was gathered, then releases the buffer: allocated only while
 * there is something to send, an idle session holds no output memory. */
static void flush(sess_t *s)
{
    const char *failed = write_out(s);
    out_release(s);
    if (failed)
        sess_close(s, failed, 0, NULL);
}

/* A file of the browser page (static bytes, web_assets.h): written
 * without a copy after what was gathered. */
static void write_static(sess_t *s)
{
    if (!s->web || !s->web->file || s->handles_closing)
        return;
    const char *failed = queue_write(s, s->web->file, s->web->file_len, 0);
    s->web->file = NULL;
    s->web->file_len = 0;
    if (failed)
        sess_close(s, failed, 0, NULL);
}

void sess_send(sess_t *s, const void *data, size_t len)
{
    if (s->handles_closing)
        return;
    if (s->web)
        wsconn_send(s->web, data, len);
    else if (s->tc.telnet)
        tconn_send(&s->tc, data, len);
}

/* Bytes for the socket, from the transport (tconn, wsconn). */
static void on_tc_send(void *ctx, const char *bytes, size_t n)
{
    sess_t *s = ctx;
    if (s->handles_closing)
        return;
    if (buf_append(&s->out, bytes, n) != 0) {
        /* More than output_limit in one iteration: it is not reading. */
        sess_close(s, "output limit (client not reading)", 0, NULL);
        return;
    }
    srv_mark(s->srv, s);
}

/* --- closing and freeing ----------------------------------------------------------- */

static void sess_free(sess_t *s)
{
    srv_t *srv = s->srv;
    if (s->prev)
        s->prev->next = s->next;
    else
        srv->sessions = s->next;
    if (s->next)
        s->next->prev = s->prev;
    srv_unmark(srv, s); /* (do_close took it out of the directory) */
    host_session_gone(srv->host, srv->index);
    /* No store answer may reach this session any more. */
    store_cancel(srv->store, s);
    tconn_free(&s->tc);
    free(s->close.buf);
    if (s->web)
        wsconn_free(s->web);
    free(s->web);
    free(s->proxy);
    screen_free(&s->shown);
    out_release(s);
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
    out_release(s);
    uv_close((uv_handle_t *)&s->tcp, on_handle_closed);
    uv_close((uv_handle_t *)&s->negotiate_timer, on_handle_closed);
    uv_close((uv_handle_t *)&s->esc_timer, on_handle_closed);
    uv_close((uv_handle_t *)&s->replay_timer, on_handle_closed);
    uv_close((uv_handle_t *)&s->close_timer, on_handle_closed);
}

static void on_shutdown(uv_shutdown_t *req, int status)
{
    (void)status;
    close_handles(req->data);
}

static void on_close_deadline(uv_timer_t *t)
{
    close_handles(t->data); /* the client never drained its output */
}

/* Carries out a requested close: the one place where a session ends. */
static void do_close(sess_t *s)
{
    srv_t *srv = s->srv;
    int was_playing = s->state != S_NEGOTIATING;
    const sess_state_ops_t *ops = sess_state_ops(s->state);
    unsigned turns = ops->turns ? ops->turns(s) : 0u;
    /* The state's leave: a game kept or recorded, watchers told. */
    sess_goto(s, S_CLOSING, NULL);
    sess_hash_end(s);
    if (s->ip_counted) {
        s->ip_counted = 0;
        addr_release(srv->addrs, s->ip, sess_now(s));
    }
    if (s->slot_early) {
        s->slot_early = 0;
        srv_slot_release(srv);
    }
    if (s->admitted) {
        s->admitted = 0;
        srv_slot_release(srv);
        dir_remove(srv->dir, s->id);
        uint64_t ms = sess_now(s) - s->started_ms;
        log_info("disconnect %s id=%llu reason=\"%s\" duration=%llu.%03llus turns=%u",
                 s->addr, (unsigned long long)s->id, s->close.reason,
                 (unsigned long long)(ms / 1000), (unsigned long long)(ms % 1000),
                 turns);
    }
    uv_timer_stop(&s->negotiate_timer);
    uv_timer_stop(&s->esc_timer);
    uv_timer_stop(&s->replay_timer);
    if (s->handles_closing)
        return;
    uv_read_stop((uv_stream_t *)&s->tcp);
    if (!s->close.graceful) {
        close_handles(s);
        return;
    }
    out_borrow(s);
    if (was_playing) {
        /* Leave the player's terminal as it was: pen, mouse, cursor, screen. */
        static const char restore[] =
            "\x1b[0m\x1b[?1000l\x1b[?1006l\x1b[?25h\x1b[?1049l";
        sess_send(s, restore, sizeof restore - 1);
    }
    if (s->close.message[0]) {
        sess_send(s, s->close.message, strlen(s->close.message));
        sess_send(s, "\r\n", 2);
    }
    if (s->web)
        wsconn_close(s->web); /* the close frame, after the goodbye */
    flush(s);
    write_static(s);
    if (s->handles_closing || !s->close.graceful) {
        close_handles(s); /* the flush failed */
        return;
    }
    /* Shut down after the queued bytes are written; a client that never
     * reads them is cut off at the deadline. */
    if (uv_shutdown(&s->shutdown_req, (uv_stream_t *)&s->tcp, on_shutdown) != 0) {
        close_handles(s);
        return;
    }
    uv_timer_start(&s->close_timer, on_close_deadline, CLOSE_DEADLINE_MS, 0);
}

void sess_phase(sess_t *s)
{
    if (s->close.requested && s->state != S_CLOSING) {
        do_close(s);
        return;
    }
    if (s->state == S_CLOSING) {
        /* A forced close while draining (sess_close), or bytes to drop. */
        if (!s->close.graceful)
            close_handles(s);
        out_release(s);
        return;
    }
    out_borrow(s);
    if (s->owe_frame)
        sess_render(s);
    flush(s);
    write_static(s);
}

/* --- keys ---------------------------------------------------------------------------- */

/* Keys per second per player: a token bucket, so that a flood costs the
 * server no more than a fast typist. */
static int take_key_token(sess_t *s)
{
    uint64_t now = sess_now(s);
    double rate = s->srv->cfg.max_keys_per_second;
    s->key_tokens += (double)(now - s->key_tokens_ms) * rate / 1000.0;
    s->key_tokens_ms = now;
    if (s->key_tokens > rate)
        s->key_tokens = rate;
    if (s->key_tokens < 1.0)
        return 0;
    s->key_tokens -= 1.0;
    return 1;
}

static int is_quit_key(int key)
{
    return key == 'Q' || key == 'q' || key == 'y' || key == 'Y' ||
           key == 'n' || key == 'N' || key == KEY_CTRL_C || key == KEY_ESC;
}

/* The game key for a mouse report, or 0 for none: while aiming, a left
 * press on a map tile is a click key there (the map is drawn from the top
 * left cell at every size), a right press cancels as Esc does
 * (docs/game.md, "Targeting"). */
static int mouse_key(const sess_t *s, const keyev_t *ev)
{
    if (s->state != S_PLAYING || !game_targeting(s->st.play.g.game) ||
        ev->release || (ev->button & (32 | 64)))
        return 0;
    if ((ev->button & 3) == 2)
        return KEY_ESC;
    if ((ev->button & 3) != 0 || ev->x >= MAP_W || ev->y >= MAP_H)
        return 0;
    int key = game_click_key(ev->x, ev->y);
    return key > 0 ? key : 0;
}

#define CTRL_KEY(c) ((c) & 0x1f)

static void on_key(void *ctx, const keyev_t *ev)
{
    sess_t *s = ctx;
    if (sess_closing(s) || s->state == S_NEGOTIATING)
        return;
    int key = ev->key;
    if (s->keys.dropped != s->keys_dropped) {
        /* The decoder dropped an escape sequence or a byte since the last
         * key: a line being typed cannot be taken as typed. */
        s->keys_dropped = s->keys.dropped;
        if (s->state == S_LOBBY)
            lobby_typed_refused(&s->lobby);
    }
    if (key == KEY_CPR)
        return; /* nothing asks for cursor reports */
    if (key == KEY_MOUSE && (key = mouse_key(s, ev)) == 0)
        return;
    /* Typing at a prompt costs no turn: a pasted password must not lose
     * characters to the limit on game keys. */
    int typing = s->state == S_LOBBY && lobby_typing(&s->lobby);
    if (!typing && !take_key_token(s))
        return;
    s->last_input_ms = sess_now(s);
    s->warned_idle = 0;
    s->notice[0] = '\0';
    sess_owe_frame(s);
    if (key == CTRL_KEY('L') || key == CTRL_KEY('R')) {
        /* Redraw: the terminal may show anything after a resize or noise. */
        term_state_reset(&s->term);
        sess_repaint(s);
        return;
    }
    /* Too small to see anything: only let the player leave. */
    if (!view_fits(s->w, s->h) && !is_quit_key(key))
        return;
    if (sess_options_key(s, key))
        return; /* the options screen's (O) */
    const sess_state_ops_t *ops = sess_state_ops(s->state);
    if (ops->key)
        ops->key(s, key);
}

/* The negotiation is over: the lobby starts, and takes what was typed
 * meanwhile. */
static void start_lobby(sess_t *s)
{
    sess_goto(s, S_LOBBY, NULL);
    uint16_t n = s->nearly;
    s->nearly = 0;
    if (n && s->state == S_LOBBY && !sess_closing(s))
        keydec_feed(&s->keys, s->early, n, on_key, s);
}

static void start_lobby_if_negotiated(sess_t *s)
{
    /* telnet: the client's answers are in; the browser: its size is */
    int ready = s->web ? s->admitted && s->web->w > 0
                       : tconn_negotiated(&s->tc);
    if (s->state == S_NEGOTIATING && !sess_closing(s) && ready) {
        uv_timer_stop(&s->negotiate_timer);
        start_lobby(s);
    }
}

/* The client's data (tconn, wsconn): keys. Negotiation may have just
 * finished within the same read: the lobby then takes these keys; before
 * it has, they wait in s->early (bounded: what does not fit is dropped). */
static void on_tc_data(void *ctx, const char *bytes, size_t n)
{
    sess_t *s = ctx;
    start_lobby_if_negotiated(s);
    if (s->state == S_NEGOTIATING) {
        size_t room = sizeof s->early - s->nearly;
        size_t take = n < room ? n : room;
        memcpy(s->early + s->nearly, bytes, take);
        s->nearly = (uint16_t)(s->nearly + take);
        return;
    }
    keydec_feed(&s->keys, bytes, n, on_key, s);
}

static void on_tc_key(void *ctx, int key)
{
    keyev_t k = { key, 0, 0, 0, 0 };
    start_lobby_if_negotiated(ctx);
    on_key(ctx, &k);
}

static void on_tc_resize(void *ctx, int w, int h)
{
    sess_t *s = ctx;
    uint64_t now = sess_now(s);
    s->w = w;
    s->h = h;
    /* A flood of sizes costs its sender a few full repaints a second,
     * not one each: past the limit the size is kept, and the sweep draws
     * it once (docs/telnet.md, NAWS). */
    if (now - s->resize_window_ms >= 1000) {
        s->resize_window_ms = now;
        s->resizes = 0;
    }
    if (s->resizes < (uint32_t)s->srv->cfg.max_resizes_per_second) {
        s->resizes++;
        sess_owe_frame(s); /* the size differs from shown: a full repaint */
    } else {
        s->resize_owed = 1;
    }
}

static void on_esc_timer(uv_timer_t *t)
{
    sess_t *s = t->data;
    if (!sess_closing(s))
        keydec_timeout(&s->keys, on_key, s);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    sess_t *s = h->data;
    (void)suggested;
    /* One read is handled completely before the next alloc: one buffer
     * serves every session of the loop. */
    *b = uv_buf_init(s->srv->readbuf, sizeof s->srv->readbuf);
}

static long read_proxy_header(sess_t *s, const char *b, size_t n);

static void on_read(uv_stream_t *stream, ssize_t n, const uv_buf_t *b)
{
    sess_t *s = stream->data;
    if (n < 0) {
        sess_close(s, n == UV_EOF ? "client closed" : uv_strerror((int)n), 0,
                   NULL);
        return;
    }
    if (n == 0 || sess_closing(s))
        return;
    const char *p = b->base;
    size_t len = (size_t)n;
    if (s->proxy) {
        long used = read_proxy_header(s, p, len);
        if (used < 0)
            return;
        p += used;
        len -= (size_t)used;
        if (len == 0)
            return;
    } else if (s->check_first_read) {
        s->check_first_read = 0;
        if (proxy_looks_like_header(p, len)) {
            log_info("refused %s: a PROXY header from an address not in "
                     "proxy_trusted", s->addr);
            sess_close(s, "untrusted PROXY header", 0, NULL);
            return;
        }
    }
    if (s->web) {
        if (wsconn_feed(s->web, p, len) != 0) {
            sess_close(s, s->web->error, 0, NULL);
            return;
        }
    } else if (tconn_feed(&s->tc, p, len) != 0) {
        sess_close(s, s->tc.error, 0, NULL);
        return;
    }
    start_lobby_if_negotiated(s);
    if (keydec_pending(&s->keys))
        uv_timer_start(&s->esc_timer, on_esc_timer, ESC_DELAY_MS, 0);
    else
        uv_timer_stop(&s->esc_timer);
}

static void on_negotiate_deadline(uv_timer_t *t)
{
    sess_t *s = t->data;
    if (s->proxy && !sess_closing(s)) {
        log_info("refused %s: no PROXY header in time", s->addr);
        sess_close(s, "no PROXY header", 0, NULL);
        return;
    }
    if (s->web && !s->admitted && !sess_closing(s)) {
        log_info("refused %s: no HTTP request in time", s->addr);
        sess_close(s, "no HTTP request in time", 0, NULL);
        return;
    }
    /* Refusals raise no telnet event: the deadline decides. */
    if (s->state == S_NEGOTIATING && !sess_closing(s))
        start_lobby(s);
}

/* --- messages ------------------------------------------------------------------------- */

void sess_deliver(sess_t *s, smsg_t *m)
{
    const sess_state_ops_t *ops = sess_state_ops(s->state);
    if (!sess_closing(s) && ops->msg && ops->msg(s, m)) {
        msg_free(m);
        return;
    }
    /* Not for this state. A takeover closes whatever the session does
     * (it has no game to hand over); another request is refused. */
    if (m->type == MSG_TAKEOVER && !sess_closing(s))
        sess_close(s, "logged in elsewhere", 1,
                   "Your account has logged in from elsewhere. Goodbye.");
    smsg_t *answer = msg_bounce(m);
    if (answer)
        srv_post(s->srv, answer);
    msg_free(m);
}

/* --- the once-a-second sweep -------------------------------------------------------- */

void sess_sweep(sess_t *s, uint64_t now)
{
    const config_t *c = &s->srv->cfg;
    if (sess_closing(s))
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
    if (s->resize_owed) { /* sizes that came past the limit: drawn now */
        s->resize_owed = 0;
        sess_owe_frame(s);
    }
    const sess_state_ops_t *ops = sess_state_ops(s->state);
    if (ops->sweep)
        ops->sweep(s, now);
    if (sess_closing(s))
        return; /* the state's sweep let it go */
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
            sess_owe_frame(s);
        }
    }
    if (c->keepalive && s->tc.peer &&
        now - s->last_output_ms >= (uint64_t)c->keepalive * 1000)
        tconn_nop(&s->tc);
}

/* --- accepting ------------------------------------------------------------------------ */

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

/* The address an SSH player's thread gave ("ip:port"), for the log and
 * the limits: the socketpair itself has none. */
static void set_peer_name(sess_t *s, const char *name)
{
    snprintf(s->addr, sizeof s->addr, "%s", name);
    const char *colon = strrchr(name, ':');
    size_t n = colon ? (size_t)(colon - name) : strlen(name);
    if (n >= sizeof s->ip)
        n = sizeof s->ip - 1;
    memcpy(s->ip, name, n);
    s->ip[n] = '\0';
}

/* Refuses the connection with one line (and a log line): never admitted. */
static void refuse(sess_t *s, const char *why, const char *line)
{
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
    int online;
    if (srv->shutting_down || !srv_slot_take(srv, &online)) {
        log_info("refused %s: server full (%d players)", s->addr, online);
        snprintf(line, sizeof line,
                 "Sorry, the server is full (%d players). Please try again later.",
                 online);
        sess_close(s, "server full", 1, line);
        return -1;
    }
    int counted;
    switch (addr_admit(srv->addrs, s->ip, now, &counted)) {
    case ADDR_TOO_MANY_CONNECTS:
        srv_slot_release(srv);
        refuse(s, "too many connections from this address",
               "Too many connections from your address: please wait a minute.");
        return -1;
    case ADDR_TOO_MANY_SESSIONS:
        srv_slot_release(srv);
        snprintf(line, sizeof line, "Your address has %d sessions open already, "
                 "the most one address may have.", srv->cfg.max_sessions_per_ip);
        refuse(s, "too many sessions from this address", line);
        return -1;
    default:
        s->ip_counted = (uint8_t)counted;
        break;
    }
    *online_out = online;
    return 0;
}

/* Lets the connection in, from the address it now has (the balancer's
 * header may have named it), or refuses it with one line. A browser's was
 * counted at its first byte already (start_web_or_admit). */
static void admit(sess_t *s)
{
    srv_t *srv = s->srv;
    uint64_t now = sess_now(s);
    int online;
    if (s->slot_early) {
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
    char guest[ACCT_NAME_MAX + 1];
    /* Guest numbers are never reused, across restarts too (store.h). */
    snprintf(guest, sizeof guest, "guest%llu", store_guest_number(srv->store));
    lobby_init(&s->lobby, guest);
    s->started_ms = s->last_input_ms = s->last_output_ms = now;
    log_info("connect %s id=%llu worker=%d (%d online)", s->addr,
             (unsigned long long)s->id, srv->index, online);
    if (!s->web)
        tconn_start(&s->tc); /* one write: our four options */
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
                   (uint64_t)s->srv->cfg.negotiation_ms * 20, 0);
}

/* The first bytes of a trusted balancer's connection: its PROXY header,
 * then the player's own. Returns how many bytes of b the header took, or
 * -1 once the session is closing. */
static long read_proxy_header(sess_t *s, const char *b, size_t n)
{
    size_t used;
    int rc = proxy_feed(s->proxy, b, n, &used);
    if (rc == PROXY_MORE)
        return (long)n;
    if (rc == PROXY_BAD) {
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

/* --- the browser's connection (wsconn.h) --------------------------------------- */

static void on_ws_open(void *ctx)
{
    sess_t *s = ctx;
    uv_timer_stop(&s->negotiate_timer);
    snprintf(s->tc.ttype, sizeof s->tc.ttype, "browser");
    admit(s);
}

static void on_ws_resize(void *ctx, int w, int h)
{
    on_tc_resize(ctx, w, h);
    start_lobby_if_negotiated(ctx);
}

static void on_ws_done(void *ctx)
{
    sess_t *s = ctx;
    if (s->web->refused && s->web->refused_why) /* answered: say why */
        log_info("refused %s: %s: %s", s->addr, s->web->refused,
                 s->web->refused_why);
    sess_close(s, s->admitted ? "browser closed" : "page served", 1, NULL);
}

void sess_accept(srv_t *srv, int fd, const char *what)
{
    int web = strcmp(what, "web") == 0;
    int ssh = strncmp(what, "ssh ", 4) == 0;
    sess_t *s = calloc(1, sizeof *s);
    if (!s) {
        log_error("accept: out of memory");
        close(fd);
        host_session_gone(srv->host, srv->index);
        return;
    }
    s->srv = srv;
    s->id = srv_new_id(srv);
    uv_tcp_init(srv->loop, &s->tcp);
    uv_timer_init(srv->loop, &s->negotiate_timer);
    uv_timer_init(srv->loop, &s->esc_timer);
    uv_timer_init(srv->loop, &s->replay_timer);
    uv_timer_init(srv->loop, &s->close_timer);
    s->tcp.data = s->negotiate_timer.data = s->esc_timer.data = s;
    s->replay_timer.data = s->close_timer.data = s->shutdown_req.data = s;
    s->open_handles = 5;
    s->next = srv->sessions;
    if (s->next)
        s->next->prev = s;
    srv->sessions = s;
    s->state = S_NEGOTIATING;
    s->close.reason = s->close.message = "";
    s->w = 80;
    s->h = 24;
    uint64_t now = uv_now(srv->loop);
    s->started_ms = s->last_input_ms = s->last_output_ms = now;
    s->key_tokens = srv->cfg.max_keys_per_second;
    s->key_tokens_ms = now;
    buf_init(&s->out, (size_t)srv->cfg.output_limit);
    keydec_init(&s->keys);
    term_state_reset(&s->term);
    /* ASCII and 16 colours until the client says more (session_options.c) */
    s->detected = s->display = DISPLAY_PLAIN;
    term_state_set_display(&s->term, &s->display);

    int rc = uv_tcp_open(&s->tcp, fd);
    if (rc != 0)
        close(fd); /* not the handle's: it closes only what it opened */
    struct sockaddr_storage peer;
    int len = sizeof peer;
    if (rc == 0 && uv_tcp_getpeername(&s->tcp, (struct sockaddr *)&peer, &len) != 0)
        memset(&peer, 0, sizeof peer);
    tconn_cb_t cb = { on_tc_data, on_tc_send, on_tc_key, on_tc_resize };
    /* the browser's bytes and keys take telnet's paths */
    wsconn_cb_t wcb = { on_tc_send, on_ws_open, on_tc_data, on_ws_resize,
                        on_ws_done };
    if (rc == 0 && web) {
        s->web = calloc(1, sizeof *s->web);
        if (!s->web || wsconn_init(s->web, &wcb, s, srv->cfg.max_cols,
                                   srv->cfg.max_rows) != 0)
            rc = UV_ENOMEM;
    }
    if (rc != 0 || (!web &&
        tconn_init(&s->tc, &cb, s, srv->cfg.max_cols, srv->cfg.max_rows) != 0)) {
        log_error("accept: %s", rc ? uv_strerror(rc) : "out of memory");
        s->state = S_CLOSING;
        close_handles(s);
        return;
    }
    set_peer(s, &peer);
    if (ssh) {
        /* "ssh ADDR", or "ssh ADDR ID NAME DISPLAY" after a key login */
        char from[sizeof s->addr];
        snprintf(from, sizeof from, "%.*s", (int)strcspn(what + 4, " "),
                 what + 4);
        set_peer_name(s, from);
    }
    uv_tcp_nodelay(&s->tcp, 1);
    uv_tcp_keepalive(&s->tcp, 1, 60);
    uv_read_start((uv_stream_t *)&s->tcp, on_alloc, on_read);
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
        sess_ssh_login(s, what); /* session_keys.c */
}
