/* session_output.c - a session's output: the buffer it gathers bytes in
 * (the loop's, lent during the render phase, or its own), the writes to
 * its socket and their requests, the browser page's static files
 * (session_impl.h). */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_io.h"
#include "session_impl.h"
#include "tcp_acked.h"
#include "wsconn.h"

/* One write request owns its bytes until its callback (libuv's rule). */
typedef struct wreq {
    uv_write_t req;
    sess_t *s;
    size_t len;
    char data[];
} wreq_t;

/* Frames were skipped while the client lagged: once its queue is down to
 * half of output_highwater, they are caught up in one diff. */
static void catch_up(sess_t *s)
{
    if (s->owe_frame && s->queued <= (size_t)s->srv->cfg.output_highwater / 2)
        srv_mark(s->srv, s);
}

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
    catch_up(s);
}

/* The loop lends its write buffer to the session the render phase is
 * handling (one at a time), so a frame costs no allocation: what the
 * socket does not take at once is copied into a write request anyway.
 * Bytes gathered outside the phase (telnet answers to a read) go to the
 * session's own buffer, which is allocated only while it holds some. */
void sess_out_borrow(sess_t *s)
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
void sess_out_release(sess_t *s)
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

/* Why a session is cut off for not reading what it was sent: its
 * socket is then reset (sess_close_unread). */
static const char OUTPUT_LIMIT[] = "output limit (client not reading)";

/* Ends the session for a failed write: why, from the writes below. */
static void close_failed(sess_t *s, const char *why)
{
    if (why == OUTPUT_LIMIT)
        sess_close_unread(s, why);
    else
        sess_close(s, why, 0, NULL);
}

/* Bytes go to the socket: if none were held, a stall is timed from now. */
static void hold(sess_t *s)
{
    if (!s->out_held) {
        s->out_held = 1;
        s->acked_ms = sess_now(s);
    }
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
        return OUTPUT_LIMIT;
    hold(s);
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

/* The bytes to the session's io (byte_io.h), which keeps what cannot go
 * now: counted as queued, against output_limit, as libuv's writes are. */
static const char *write_io(sess_t *s, const char *p, size_t len)
{
    size_t before = s->queued;
    if (s->io->write(s->io_conn, p, len) != 0)
        return "write error";
    s->queued = s->io->queued(s->io_conn);
    if (s->queued > (size_t)s->srv->cfg.output_limit)
        return OUTPUT_LIMIT;
    if (before == 0 && s->queued > 0)
        s->drained_ms = sess_now(s); /* a stall is timed from here */
    return NULL;
}

/* Hands the gathered bytes to libuv: at once if the socket takes them, the
 * rest queued (bounded by output_limit). Returns NULL, or why the session
 * must end. */
static const char *write_bytes(sess_t *s, const char *p, size_t len)
{
    if (len == 0 || s->handles_closing)
        return NULL;
    s->last_output_ms = sess_now(s);
    s->srv->stats.bytes_out += len; /* /metrics: handed to the kernel or queued */
    if (s->io)
        return write_io(s, p, len);
    hold(s);
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

static void write_kept(void *who, const char *p, size_t len, void *ctx)
{
    sess_t *s = who;
    (void)ctx;
    s->in_outbox = 0;
    const char *failed = write_bytes(s, p, len);
    if (failed)
        close_failed(s, failed);
}

void sess_outbox_drain(srv_t *srv)
{
    if (!outbox_empty(&srv->outbox))
        outbox_drain(&srv->outbox, write_kept, NULL);
}

/* In the render phase a TCP session's bytes wait in the loop's outbox
 * (outbox.h), unless it is closing; 1 if they do. A full outbox is
 * written first; bytes larger than all of it go directly, after it (0).
 * Through the session's io (SSH) they go at once: its own thread writes
 * them. */
static int keep_for_later(sess_t *s)
{
    srv_t *srv = s->srv;
    size_t len = s->out.len;
    if (!srv->in_phase || s->io || len == 0 || sess_closing(s))
        return 0; /* a closing session's last bytes go before its shutdown */
    if (outbox_add(&srv->outbox, s, s->out.data, len) != 0) {
        if (!outbox_empty(&srv->outbox))
            srv->stats.outbox_early++; /* /metrics */
        sess_outbox_drain(srv);
        if (outbox_add(&srv->outbox, s, s->out.data, len) != 0)
            return 0;
    }
    s->in_outbox = 1;
    return 1;
}

static const char *write_out(sess_t *s)
{
    if (keep_for_later(s))
        return NULL;
    if (s->in_outbox)
        sess_outbox_drain(s->srv); /* its earlier frame first */
    return write_bytes(s, s->out.data, s->out.len);
}

/* Writes what was gathered, then releases the buffer: allocated only while
 * there is something to send, an idle session holds no output memory. */
void sess_flush(sess_t *s)
{
    const char *failed = write_out(s);
    sess_out_release(s);
    if (failed)
        close_failed(s, failed);
}

/* A file of the browser page (static bytes, web_assets.h): written
 * without a copy after what was gathered. */
void sess_write_static(sess_t *s)
{
    if (!s->web || !s->web->file || s->handles_closing)
        return;
    if (s->in_outbox)
        sess_outbox_drain(s->srv); /* the headers before the file */
    const char *failed = queue_write(s, s->web->file, s->web->file_len, 0);
    s->web->file = NULL;
    s->web->file_len = 0;
    if (failed)
        close_failed(s, failed);
}

/* The sweep need not ask the kernel every second what each client took:
 * with the default write_timeout (60 s) a question every 3.75 s makes a
 * cut at most that much late, and 10,000 players cost a quarter of the
 * system calls (docs/performance.md, "The sweep asks less"). */
/* The sweep's timer fires about every 1000 ms, a little early or late:
 * half a sweep of slack keeps "every second" from becoming every other. */
#define SWEEP_SLACK_MS 500

uint64_t sess_stall_ask_ms(uint64_t limit_ms)
{
    uint64_t every = limit_ms / 16;
    return every > 1000 ? every : 1000;
}

/* Over TCP, taken is what the client's side acknowledged (tcp_acked.h): a
 * write callback only says our kernel took the bytes, and it takes
 * megabytes while a client that never reads keeps its window shut (its
 * send buffer grows meanwhile): minutes of frames on a busy machine, each
 * one "progress". Through the session's io (SSH's window) and on a socket
 * that is not TCP, taken is libuv's queue shrinking. */
int sess_output_stalled(sess_t *s, uint64_t now, uint64_t limit_ms)
{
    uint64_t acked;
    int all_taken;
    if (!s->out_held && s->queued == 0)
        return 0; /* nothing written since a sweep found all taken: no
                     system call for an idle session */
    if (!s->io && s->fd_plus1 == 0) {
        uv_os_fd_t fd;
        if (uv_fileno((uv_handle_t *)&s->tcp, &fd) == 0)
            s->fd_plus1 = fd + 1; /* the same until the handle closes */
    }
    if (!s->io && s->fd_plus1 != 0 &&
        now - s->acked_asked_ms + SWEEP_SLACK_MS < sess_stall_ask_ms(limit_ms))
        return 0; /* asked lately: the next sweep that asks decides */
    if (s->io || s->fd_plus1 == 0 ||
        tcp_acked(s->fd_plus1 - 1, &acked, &all_taken) != 0)
        return s->queued > 0 && now - s->drained_ms >= limit_ms;
    s->acked_asked_ms = now;
    if (all_taken && s->queued == 0) {
        s->out_held = 0; /* all taken: the next write starts the clock */
        s->acked = acked;
        return 0;
    }
    if (acked != s->acked || !s->out_held) {
        s->acked = acked; /* it took some since the last sweep */
        s->acked_ms = now;
        s->out_held = 1;
        return 0;
    }
    return now - s->acked_ms >= limit_ms;
}

void sess_send(sess_t *s, const void *data, size_t len)
{
    if (s->handles_closing)
        return;
    if (s->tr)
        s->tr->send(s->conn, data, len);
}

/* Bytes for the socket, from the transport (tconn, wsconn). */
void sess_on_tc_send(void *ctx, const char *bytes, size_t n)
{
    sess_t *s = ctx;
    if (s->handles_closing)
        return;
    if (buf_append(&s->out, bytes, n) != 0) {
        /* More than output_limit in one iteration: it is not reading. */
        sess_close_unread(s, OUTPUT_LIMIT);
        return;
    }
    srv_mark(s->srv, s);
}

/* --- what the session's io tells it (byte_io.h) ---------------------------- */

static void io_bytes(void *ctx, const char *p, size_t n)
{
    sess_on_bytes(ctx, p, n);
}

static void io_read(void *ctx, size_t n)
{
    sess_spend_input(ctx, n);
}

static void io_drained(void *ctx, size_t queued)
{
    sess_t *s = ctx;
    s->queued = queued;
    s->drained_ms = sess_now(s);
    catch_up(s);
}

static void io_ended(void *ctx, const char *why)
{
    sess_close(ctx, why, 0, NULL);
}

static void io_shut(void *ctx)
{
    sess_close_handles(ctx);
}

static void io_closed(void *ctx)
{
    sess_handle_closed(ctx);
}

const byte_io_cb_t sess_io_cb = { io_bytes, io_read, io_drained, io_ended,
                                  io_shut, io_closed };
