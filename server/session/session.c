/* session.c - the session core: marks and requests, the state machine,
 * closing and freeing, the render phase's turn, messages in, the sweep.
 * Admission is session_admit.c, reading and keys session_input.c, the
 * output buffer and its writes session_output.c (session_impl.h is what
 * they share); what each state does is in its own file (session.h). */
#include "session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "byte_io.h"
#include "session_impl.h"
#include "keys.h"
#include "log.h"
#include "rebuild.h"
#include "store.h"
#include "tcp_acked.h"
#include "view.h"

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

int sess_rebuild(sess_t *s, int64_t job, msg_game_t *src, int record)
{
    return rebuild_start(s->srv->sh->rebuilds, &s->srv->inbox.ch, s->id,
                         s->rebuild_exempt ? NULL : s->ip, job, src, record);
}

void sess_rebuild_cancel(sess_t *s)
{
    rebuild_cancel(s->srv->sh->rebuilds, s->id);
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
    /* (bounded: a goodbye of two 80-column lines and more fits whole;
     * one cut mid-sentence would tell the player half of it) */
    size_t rl = strnlen(reason, 63), ml = strnlen(message, 255);
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

void sess_startup_done(sess_t *s)
{
    if (!s->startup)
        return;
    s->startup = 0;
    srv_startup_end(s->srv->sh, s->startup_ip, sess_now(s));
}

void sess_goto(sess_t *s, int state, void *arg)
{
    if (state != S_NEGOTIATING && state != S_ADMITTING)
        sess_startup_done(s); /* in the lobby, a game, or closing */
    if ((s->state == S_NEGOTIATING || s->state == S_ADMITTING) &&
        state != S_NEGOTIATING)
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
    sess_tell_state(s); /* (the state it came to: an enter may move on) */
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
    sess_drop_waited_keys(s);
    sess_startup_done(s); /* (one that never reached do_close) */
    if (s->slot_early) { /* (an SSH player's, from its accept) */
        s->slot_early = 0;
        srv_slot_release(srv);
    }
    if (s->ip_counted) { /* (the same: an SSH player's failed start) */
        s->ip_counted = 0;
        addr_release(srv->addrs, s->ip, sess_now(s));
    }
    srv_session_gone(srv);
    /* No store answer may reach this session any more. */
    store_cancel(srv->store, s);
    sess_rebuild_cancel(s); /* nor a rebuilt game */
    if (s->site_req.cancel) /* nor a job of the site's (a game's dump) */
        s->site_req.cancel(s);
    if (s->tr)
        s->tr->free(s->conn);
    free(s->close.buf);
    free(s->web);
    free(s->proxy);
    screen_free(&s->shown);
    sess_out_release(s);
    lobby_free(&s->lobby);
    free(s);
}

void sess_handle_closed(sess_t *s)
{
    if (--s->open_handles == 0)
        sess_free(s);
}

static void on_handle_closed(uv_handle_t *h)
{
    sess_handle_closed(h->data);
}

void sess_close_away(sess_t *s, const char *reason, const char *message)
{
    int was = s->close.requested;
    sess_close(s, reason, 1, message);
    if (!was && s->close.requested)
        s->close.away = 1;
}

void sess_close_unread(sess_t *s, const char *reason)
{
    s->close.reset = 1;
    sess_close(s, reason, 0, NULL);
}

/* The session's own TCP socket (not an SSH player's io, nor a moved
 * session's, whose socket the new process holds: SO_LINGER is the
 * socket's, not this descriptor's) into *fd. 1 if there is one. */
int sess_own_fd(sess_t *s, uv_os_fd_t *fd)
{
    return !s->io && !s->moved &&
           uv_fileno((uv_handle_t *)&s->tcp, fd) == 0;
}

/* Whether the kernel still holds more than `beyond` bytes for the peer,
 * sent and not acknowledged or not sent (or libuv some it has not handed
 * to the kernel). */
static int peer_owes(sess_t *s, uint64_t beyond)
{
    uv_os_fd_t fd;
    uint64_t held;
    if (!sess_own_fd(s, &fd))
        return 0;
    return s->queued > 0 || (tcp_unacked(fd, &held) == 0 && held > beyond);
}

/* Closes the socket, with a reset (close.reset) when its peer does not
 * read: a plain close leaves the kernel sending what it holds, an
 * orphan kept for minutes while the peer's window stays shut (a browser
 * file of 289 KB: 165 KB of kernel memory, still there 60 s later,
 * docs/architecture.md "A client that stops reading"); with SO_LINGER 0
 * the kernel drops it and tells the peer (RST). */
static void close_tcp(sess_t *s)
{
    uv_os_fd_t fd;
    if (s->close.reset && sess_own_fd(s, &fd)) {
        if (uv_tcp_close_reset(&s->tcp, on_handle_closed) == 0)
            return;
        /* refused while a shutdown is under way (the graceful close's,
         * which the peer never let finish): what it does, by hand */
        struct linger l = { 1, 0 };
        (void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    }
    uv_close((uv_handle_t *)&s->tcp, on_handle_closed);
}

void sess_close_handles(sess_t *s)
{
    if (s->handles_closing)
        return;
    if (s->in_outbox)
        sess_outbox_drain(s->srv); /* its frame, then the close */
    s->handles_closing = 1;
    sess_out_release(s);
    close_tcp(s);
    if (s->io)
        s->io->close(s->io_conn); /* sess_handle_closed once it is */
    uv_close((uv_handle_t *)&s->negotiate_timer, on_handle_closed);
    uv_close((uv_handle_t *)&s->esc_timer, on_handle_closed);
    uv_close((uv_handle_t *)&s->replay_timer, on_handle_closed);
    uv_close((uv_handle_t *)&s->close_timer, on_handle_closed);
    uv_close((uv_handle_t *)&s->resize_timer, on_handle_closed);
    uv_close((uv_handle_t *)&s->in_timer, on_handle_closed);
}

static void on_shutdown(uv_shutdown_t *req, int status)
{
    sess_t *s = req->data;
    uv_os_fd_t fd;
    /* All of it is in the kernel, but not all with the peer yet (beyond
     * the FIN just sent, which counts one). Closed, the rest goes on as
     * an orphan this process no longer sees, which Linux keeps probing
     * for minutes while the peer's window stays shut; TCP_USER_TIMEOUT
     * has the kernel give up on bytes unacknowledged that long, probes
     * of a shut window included (close_orphan_ms: 30 s by default, so
     * that a phone's network stalling a few seconds does not cut the end
     * of a file). Not a reset: an honest peer's last segments may only
     * be in flight. */
    if (status == 0 && peer_owes(s, 1) && sess_own_fd(s, &fd)) {
        unsigned ms = (unsigned)s->srv->cfg.close_orphan_ms;
        (void)setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ms, sizeof ms);
    }
    sess_close_handles(s);
}

static void on_close_deadline(uv_timer_t *t)
{
    sess_t *s = t->data;
    /* close_drain_ms passed: whatever the peer has not taken by now it
     * does not read; the kernel drops it */
    if (peer_owes(s, 0))
        s->close.reset = 1;
    sess_close_handles(s);
}

/* The goodbye, each of its lines ("\r\n" between them) broken at spaces
 * to the terminal's width: a terminal wraps it where the width falls,
 * in the middle of a word ("...ended the rep / lay": a review, at 44
 * columns). */
static void send_goodbye(sess_t *s, const char *text)
{
    enum { MAX_ROWS = 16 };
    while (*text) {
        const char *end = strstr(text, "\r\n");
        size_t n = end ? (size_t)(end - text) : strlen(text);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)n, text);
        int start[MAX_ROWS], len[MAX_ROWS], rows = 1;
        start[0] = 0;
        len[0] = (int)strlen(line);
        if (s->w >= 20 && len[0] > s->w)
            rows = game_text_wrap(line, s->w, start, len, MAX_ROWS);
        for (int r = 0; r < rows; r++) {
            sess_send(s, line + start[r], (size_t)len[r]);
            sess_send(s, "\r\n", 2);
        }
        text += n + (end ? 2 : 0);
    }
}

/* Carries out a requested close: the one place where a session ends. */
static void do_close(sess_t *s)
{
    srv_t *srv = s->srv;
    int was_playing = s->state != S_NEGOTIATING && s->state != S_ADMITTING;
    int in_game = s->state == S_PLAYING;
    /* The state's leave: a game kept or recorded, watchers told (and the
     * game's turns in last_turns, for the line below). */
    sess_goto(s, S_CLOSING, NULL);
    sess_guest_closed(s); /* (after the leave kept its game) */
    sess_web_login_closed(s, in_game);
    if (s->moved) { /* those waiting in the lobby are told nothing */
        free(s->followers);
        s->followers = NULL;
        s->nfollowers = 0;
    }
    follow_end(s, "The player has left."); /* those waiting in the lobby */
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
                 s->last_turns);
    }
    uv_timer_stop(&s->negotiate_timer);
    uv_timer_stop(&s->esc_timer);
    s->esc_armed = 0;
    uv_timer_stop(&s->replay_timer);
    uv_timer_stop(&s->resize_timer);
    uv_timer_stop(&s->in_timer);
    if (s->handles_closing)
        return;
    if (s->in_paused && s->io) {
        /* a goodbye may wait on SSH's window: its WINDOW_ADJUST must be
         * read (what else is read reaches no one: the session closes) */
        s->in_paused = 0;
        sess_in_reading(s, 1);
    }
    uv_read_stop((uv_stream_t *)&s->tcp);
    if (!s->close.graceful) {
        sess_close_handles(s);
        return;
    }
    sess_out_borrow(s);
    if (was_playing) {
        /* Leave the player's terminal as it was: pen, mouse, paste,
         * cursor, screen. */
        static const char restore[] =
            "\x1b[0m\x1b[?1000l\x1b[?1006l\x1b[?2004l\x1b[?25h\x1b[?1049l";
        sess_send(s, restore, sizeof restore - 1);
    }
    if (s->close.message[0])
        send_goodbye(s, s->close.message);
    if (s->tr && s->tr->close) /* the browser's close frame, after the goodbye */
        /* going away (1001: the page comes back by itself) for a
         * shutdown, and for a session an upgrade could not move */
        s->tr->close(s->conn, s->srv->shutting_down || s->close.away);
    sess_flush(s);
    sess_write_static(s);
    if (s->handles_closing || !s->close.graceful) {
        sess_close_handles(s); /* the sess_flush failed */
        return;
    }
    /* Shut down after the queued bytes are written; a client that never
     * reads them is cut off at the deadline. */
    if (s->io ? s->io->shutdown(s->io_conn) != 0
              : uv_shutdown(&s->shutdown_req, (uv_stream_t *)&s->tcp,
                            on_shutdown) != 0) {
        sess_close_handles(s);
        return;
    }
    uv_timer_start(&s->close_timer, on_close_deadline,
                   (uint64_t)s->srv->cfg.close_drain_ms, 0);
}

void sess_close_now(sess_t *s, const char *reason)
{
    sess_close(s, reason, 0, NULL);
    srv_unmark(s->srv, s);
    do_close(s); /* not graceful: its handles close here, its socket too */
}

void sess_phase(sess_t *s)
{
    sess_site_page_done(s); /* before the lobby would be drawn */
    if (s->close.requested && s->state != S_CLOSING) {
        do_close(s);
        return;
    }
    if (s->state == S_CLOSING) {
        /* A forced close while draining (sess_close), or bytes to drop. */
        if (!s->close.graceful)
            sess_close_handles(s);
        sess_out_release(s);
        return;
    }
    sess_out_borrow(s);
    if (s->srv->wait_keys_held)
        sess_play_waited_keys(s); /* a wait that ended owes this frame */
    if (s->owe_frame && !sess_closing(s))
        sess_render(s);
    sess_flush(s);
    sess_write_static(s);
}

/* --- messages ------------------------------------------------------------------------- */

void sess_deliver(sess_t *s, smsg_t *m)
{
    if (m->type == MSG_TAKEOVER) /* before any close it carries out */
        s->close.taken_over = 1;
    if (m->type == MSG_TAKEOVER && s->close.requested &&
        s->state != S_CLOSING) {
        /* Its close is asked for but not carried out yet (it runs in the
         * render phase, after the messages): carried out now, so that the
         * state's leave keeps its game (a browser guest's, under its
         * token) or saves it (an account's) before the asker hears there
         * is nothing to hand over, and looks for it there. */
        srv_unmark(s->srv, s);
        do_close(s);
    }
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
    if (c->write_timeout &&
        sess_output_stalled(s, now, (uint64_t)c->write_timeout * 1000)) {
        sess_close_unread(s, "output stalled (client not reading)");
        return;
    }
    if (s->state == S_NEGOTIATING || s->state == S_ADMITTING)
        return;
    const sess_state_ops_t *ops = sess_state_ops(s->state);
    if (ops->sweep)
        ops->sweep(s, now);
    if (sess_closing(s))
        return; /* the state's sweep let it go */
    if (c->idle_timeout) {
        uint64_t idle = now - s->last_input_ms;
        uint64_t limit = (uint64_t)c->idle_timeout * 1000;
        uint64_t warn = (uint64_t)c->idle_warning * 1000;
        /* A reload that shortened the rule: idle counted as if the new
         * one's warning began at the reload, not as if it had always
         * been (a host QA's lowered timeout closed idle players at once,
         * unwarned). */
        uint64_t rule = s->srv->idle_rule_ms;
        if (rule && now >= rule && idle > now - rule + (limit - warn))
            idle = now - rule + (limit - warn);
        if (idle >= limit) {
            sess_close(s, "idle timeout", 1,
                       "You were idle for too long. Goodbye!");
            return;
        }
        if (c->idle_warning && !s->warned_idle && idle + warn >= limit) {
            s->warned_idle = 1;
            sess_notice(s, SESS_NOTICE_SESSION,
                     "You are idle: press a key within %d seconds to stay.",
                     (int)((limit - idle + 999) / 1000));
            sess_owe_frame(s);
        }
    }
    if (c->keepalive && s->tc.peer &&
        now - s->last_output_ms >= (uint64_t)c->keepalive * 1000)
        tconn_nop(&s->tc);
}

