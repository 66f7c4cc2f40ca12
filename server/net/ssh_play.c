/* ssh_play.c - an SSH player's connection on its session's worker loop
 * (ssh_play.h). */
#include "ssh_play.h"

#include <fcntl.h>
#include <libssh/callbacks.h>
#include <libssh/server.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "ssh_link.h"
#include "ssh_pend.h"

struct ssh_play {
    ssh_session session;        /* owned */
    ssh_channel chan;           /* the session's (freed with it) */
    ssh_event ev;               /* this session's alone, on the worker */
    uv_poll_t poll;
    int watch_fd;               /* a dup of libssh's socket, for the poll */
    int events;                 /* what the poll waits for now */
    const byte_io_cb_t *cb;
    void *ctx;
    struct ssh_server_callbacks_struct scb;
    struct ssh_channel_callbacks_struct ccb;
    ssh_pend_t setup;           /* records for the session's first read */
    ssh_pend_t out;             /* frames the window or the socket held */
    uint8_t opened, ended, shutting, shut_told, closing, eof, chan_closed;
    uint8_t client_closed;      /* the client's close answered ours */
    uint8_t paused;             /* the session reads no more for now */
    /* the bytes libssh has read from the socket (ssh_set_counters), and
     * how many of them the session has been told of (cb->read) */
    struct ssh_counter_struct wire;
    uint64_t wire_told;
};

/* --- towards the session: ssh_link.h's records ------------------------------ */

/* One record, in one call: the session reads a key's record once (its
 * transport, the lobby's start and the Esc timer each run once a key). */
static void to_session(ssh_play_t *p, char type, const char *data, size_t n)
{
    char rec[3 + SSH_LINK_DATA_MAX];
    p->cb->bytes(p->ctx, rec, ssh_link_record(rec, type, data, n));
}

/* The client has gone (or failed): the socket is watched no more
 * (libssh may have closed its descriptor). Returns 1 the first time. */
static int stop(ssh_play_t *p)
{
    if (p->ended)
        return 0;
    p->ended = 1;
    if (p->opened && p->events) {
        uv_poll_stop(&p->poll);
        p->events = 0;
    }
    return 1;
}

/* ...and the session is told, once: only from the poll's callbacks (a
 * failure inside one of the session's calls is told by that call's
 * result, byte_io.h). */
static void end(ssh_play_t *p, const char *why)
{
    if (stop(p) && !p->closing)
        p->cb->ended(p->ctx, why);
}

static int on_data(ssh_session s, ssh_channel ch, void *data, uint32_t len,
                   int is_stderr, void *userdata)
{
    ssh_play_t *p = userdata;
    (void)s, (void)ch, (void)is_stderr;
    for (uint32_t at = 0; at < len && !p->ended && !p->closing;
         at += SSH_LINK_DATA_MAX) {
        uint32_t k = len - at < SSH_LINK_DATA_MAX ? len - at : SSH_LINK_DATA_MAX;
        to_session(p, 'D', (const char *)data + at, k); /* keys, as typed */
    }
    return (int)len;
}

static int on_window(ssh_session s, ssh_channel ch, int w, int h, int pw,
                     int ph, void *userdata)
{
    ssh_play_t *p = userdata;
    char rec[8];
    (void)s, (void)ch, (void)pw, (void)ph;
    if (w > 0 && h > 0 && !p->ended && !p->closing) {
        size_t n = ssh_link_size(rec, w, h);
        p->cb->bytes(p->ctx, rec, n);
    }
    return SSH_OK;
}

static void on_eof(ssh_session s, ssh_channel ch, void *userdata)
{
    ssh_play_t *p = userdata;
    (void)s, (void)ch;
    if (p->chan_closed) { /* the answer to our goodbye's close (shut_step) */
        p->client_closed = 1;
        return;
    }
    end(p, "client closed");
}

/* A second channel is refused: one session channel a connection. */
static ssh_channel on_channel_open(ssh_session s, void *userdata)
{
    (void)s, (void)userdata;
    return NULL;
}

static void set_callbacks(ssh_play_t *p)
{
    p->scb = (struct ssh_server_callbacks_struct){
        .userdata = p,
        .channel_open_request_session_function = on_channel_open,
    };
    ssh_callbacks_init(&p->scb);
    p->ccb = (struct ssh_channel_callbacks_struct){
        .userdata = p,
        .channel_data_function = on_data,
        .channel_eof_function = on_eof,
        .channel_close_function = on_eof,
        .channel_pty_window_change_function = on_window,
    };
    ssh_callbacks_init(&p->ccb);
}

/* --- towards the client ------------------------------------------------------ */

/* libssh holds bytes its socket has not taken. */
static int socket_full(const ssh_play_t *p)
{
    return (ssh_get_status(p->session) & SSH_WRITE_PENDING) != 0;
}

/* Writes what the window allows of data (never a write that would wait
 * for the window: libssh would poll for it). The bytes taken, or -1. */
static long chan_put(ssh_play_t *p, const char *data, size_t n)
{
    uint32_t win = ssh_channel_window_size(p->chan);
    size_t k = n < win ? n : win;
    if (k == 0)
        return 0;
    int w = ssh_channel_write(p->chan, data, (uint32_t)k);
    return w == SSH_ERROR ? -1 : w;
}

/* What was kept, while the window and the socket take it. Returns 1 if
 * some went. */
static int flush_out(ssh_play_t *p)
{
    if (p->ended || p->out.len == 0 || socket_full(p))
        return 0;
    long k = chan_put(p, p->out.data, p->out.len);
    if (k < 0) {
        end(p, "write error");
        return 0;
    }
    if (k > 0)
        ssh_pend_drop(&p->out, (size_t)k);
    return k > 0;
}

static void on_poll(uv_poll_t *h, int status, int events);

/* The poll waits for what libssh needs: the client's bytes (unless the
 * session has paused them: the kernel's window then holds the client
 * back, and the poll waits only for the client's leaving, which would
 * else be read after the backlog), and the socket's room while libssh
 * holds some. (libssh reads whatever has come as it writes too: a paused
 * client that also does not read is bounded by the output's limits
 * instead.) */
static void follow(ssh_play_t *p)
{
    if (p->ended || p->closing)
        return;
    int want = (p->paused ? UV_DISCONNECT : UV_READABLE) |
               (socket_full(p) ? UV_WRITABLE : 0);
    if (want != p->events && uv_poll_start(&p->poll, want, on_poll) == 0)
        p->events = want;
}

/* A goodbye: once what was kept is out, the channel ends as a finished
 * command's does (an exit status of 0, its end, its close); done once
 * libssh has sent that and the client has closed its side too. Cut
 * sooner (the connection closed after the close), OpenSSH's client
 * exited 255 and said the connection was "closed by remote host", as
 * after an error (a QA's finding). A client that never answers is left
 * to the session's close_drain_ms. Returns 1 when done. */
static int shut_step(ssh_play_t *p)
{
    if (p->ended)
        return 1;
    if (p->out.len > 0)
        return 0;
    if (!p->chan_closed) {
        if (ssh_channel_is_open(p->chan)) {
            ssh_channel_request_send_exit_status(p->chan, 0);
            ssh_channel_send_eof(p->chan);
            ssh_channel_close(p->chan);
        } else {
            p->client_closed = 1; /* nothing to answer */
        }
    }
    p->chan_closed = 1;
    return p->client_closed && !socket_full(p);
}

/* What libssh read from the socket since the last call, for the
 * session's input budget: every byte on the wire (packets' overhead,
 * SSH_MSG_IGNORE, requests the channel never sees), so that a client is
 * held to its budget whatever it sends. The session may pause us. */
static void tell_read(ssh_play_t *p)
{
    uint64_t n = p->wire.in_bytes - p->wire_told;
    p->wire_told = p->wire.in_bytes;
    if (n > 0)
        p->cb->read(p->ctx, (size_t)n);
}

static void on_poll(uv_poll_t *h, int status, int events)
{
    ssh_play_t *p = h->data;
    if (p->ended || p->closing)
        return;
    if (status < 0) { /* (libuv's word for an error on the socket) */
        end(p, "connection lost");
        return;
    }
    if (p->paused && (events & UV_DISCONNECT)) {
        /* its FIN behind a backlog the budget would take minutes to
         * read: that backlog is worth nothing (follow) */
        end(p, "client closed");
        return;
    }
    /* libssh reads, decrypts and answers (a rekeying too); the channel's
     * callbacks hand the keys to the session */
    ssh_event_dopoll(p->ev, 0);
    tell_read(p);
    if (!p->ended && !ssh_is_connected(p->session))
        end(p, "client closed");
    if (p->ended || p->closing)
        return;
    if (flush_out(p) && !p->shutting)
        p->cb->drained(p->ctx, p->out.len);
    if (p->shutting && !p->shut_told && shut_step(p)) {
        p->shut_told = 1;
        p->cb->shut(p->ctx);
        return;
    }
    follow(p);
}

/* --- the table (byte_io.h) ---------------------------------------------------- */

static int play_open(void *conn, uv_loop_t *loop, const byte_io_cb_t *cb,
                     void *ctx)
{
    ssh_play_t *p = conn;
    p->cb = cb;
    p->ctx = ctx;
    /* close-on-exec, as the accepted socket is: a plain dup() is not,
     * and an upgrade's new process would inherit it and hold the
     * connection open (in CLOSE-WAIT) for good */
    p->watch_fd = fcntl(ssh_get_fd(p->session), F_DUPFD_CLOEXEC, 0);
    if (p->watch_fd < 0)
        return -1;
    p->ev = ssh_event_new();
    if (!p->ev || ssh_event_add_session(p->ev, p->session) != SSH_OK ||
        uv_poll_init(loop, &p->poll, p->watch_fd) != 0) {
        close(p->watch_fd);
        p->watch_fd = -1;
        return -1;
    }
    p->poll.data = p;
    p->opened = 1;
    /* counted from here: what the bridge read (the handshake) is the
     * SSH guard's (ssh_guard.c) */
    ssh_set_counters(p->session, &p->wire, NULL);
    return 0;
}

static void play_start(void *conn)
{
    ssh_play_t *p = conn;
    if (!p->opened || p->ended || p->closing)
        return;
    if (p->setup.len > 0)
        p->cb->bytes(p->ctx, p->setup.data, p->setup.len);
    ssh_pend_free(&p->setup);
    if (p->eof || !ssh_is_connected(p->session))
        end(p, "client closed");
    follow(p);
}

static int play_write(void *conn, const char *data, size_t n)
{
    ssh_play_t *p = conn;
    if (p->ended || p->closing)
        return p->ended ? -1 : 0;
    if (p->out.len == 0 && !socket_full(p)) {
        long k = chan_put(p, data, n);
        if (k < 0) {
            stop(p); /* the -1 closes the session (not cb->ended too) */
            return -1;
        }
        data += k;
        n -= (size_t)k;
    }
    /* the session bounds what is kept (output_limit) */
    if (n > 0 && ssh_pend_add(&p->out, data, n, 0) != 0)
        return -1;
    follow(p);
    return 0;
}

static size_t play_queued(const void *conn)
{
    return ((const ssh_play_t *)conn)->out.len;
}

static int play_shutdown(void *conn)
{
    ssh_play_t *p = conn;
    p->shutting = 1;
    if (shut_step(p))
        return 1;
    follow(p);
    return 0;
}

/* Everything of the connection's but the struct: libssh's session (a
 * disconnect message to a client still there), the event, the dup. */
static void release(ssh_play_t *p)
{
    if (p->ev) {
        ssh_event_remove_session(p->ev, p->session);
        ssh_event_free(p->ev);
    }
    if (p->session) {
        ssh_set_counters(p->session, NULL, NULL); /* (p is freed next) */
        if (ssh_is_connected(p->session))
            ssh_disconnect(p->session);
        ssh_free(p->session); /* (frees the channel) */
    }
    if (p->watch_fd >= 0)
        close(p->watch_fd);
    ssh_pend_free(&p->setup);
    ssh_pend_free(&p->out);
}

static void on_closed(uv_handle_t *h)
{
    ssh_play_t *p = h->data;
    const byte_io_cb_t *cb = p->cb;
    void *ctx = p->ctx;
    release(p);
    free(p);
    cb->closed(ctx);
}

static void play_close(void *conn)
{
    ssh_play_t *p = conn;
    p->closing = 1;
    uv_close((uv_handle_t *)&p->poll, on_closed); /* (opened: byte_io.h) */
}

static void play_drop(void *conn)
{
    ssh_play_t *p = conn;
    release(p);
    free(p);
}

static void play_pause(void *conn, int paused)
{
    ssh_play_t *p = conn;
    p->paused = paused != 0;
    if (p->opened)
        follow(p);
}

const byte_io_t ssh_play_io = {
    "ssh", play_open, play_start, play_write, play_queued, play_shutdown,
    play_close, play_drop, play_pause
};

/* --- on the bridge's thread ---------------------------------------------------- */

ssh_play_t *ssh_play_new(ssh_session session, ssh_channel chan,
                         const char *setup, size_t setup_len, int eof)
{
    ssh_play_t *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (ssh_pend_add(&p->setup, setup, setup_len, 0) != 0) {
        free(p);
        return NULL;
    }
    p->session = session;
    p->chan = chan;
    p->watch_fd = -1;
    p->eof = (uint8_t)eof;
    /* ours from now on (they fire only in the worker's dopoll) */
    set_callbacks(p);
    ssh_set_server_callbacks(session, &p->scb);
    ssh_set_channel_callbacks(chan, &p->ccb);
    return p;
}
