/* byte_io.h - a session's bytes carried by something other than its own
 * socket: the table a connection module fills (ssh_play.h: an SSH
 * player's libssh session on the worker loop) and the session calls,
 * never by name (docs/architecture.md, "Transports"). A session without
 * one reads and writes its uv_tcp_t as before.
 *
 * Everything happens on the session's loop. The module reports back
 * through byte_io_cb_t; none of those callbacks is made from inside a
 * call of the session's into the table, except `closed` (see close) and
 * start's (the first read: `bytes`, and `ended` for a client gone before
 * it). A write that fails says so by its -1 alone. */
#ifndef ROGUE_BYTE_IO_H
#define ROGUE_BYTE_IO_H

#include <stddef.h>
#include <uv.h>

typedef struct byte_io_cb {
    /* the client's bytes, for the session's transport (its feed) */
    void (*bytes)(void *ctx, const char *p, size_t n);
    /* n bytes were read from the client's socket: what its input budget
     * is charged (the wire's bytes, not what bytes passes on: a protocol
     * has messages and overhead that never reach the session) */
    void (*read)(void *ctx, size_t n);
    /* bytes that waited were sent: `queued` is what still waits */
    void (*drained)(void *ctx, size_t queued);
    /* the client left or the connection failed: the session ends */
    void (*ended)(void *ctx, const char *why);
    /* a shutdown (below) that was not done at once is done */
    void (*shut)(void *ctx);
    /* after close: the module's handle is closed and conn freed */
    void (*closed)(void *ctx);
} byte_io_cb_t;

typedef struct byte_io {
    const char *name;
    /* Takes conn onto loop: its handles made, nothing read yet. 0, or -1
     * (then only close or drop may follow). */
    int (*open)(void *conn, uv_loop_t *loop, const byte_io_cb_t *cb,
                void *ctx);
    /* Starts reading (what came before is passed to cb->bytes now). */
    void (*start)(void *conn);
    /* Sends n bytes, or keeps what cannot go now (the session bounds it:
     * queued). 0, or -1 once the connection has failed. */
    int (*write)(void *conn, const char *p, size_t n);
    /* The bytes kept, not yet sent. */
    size_t (*queued)(const void *conn);
    /* The end after a goodbye: what is kept is sent, then the connection
     * is closed to the client. 1 if done now, else 0 and cb->shut later
     * (the session's own deadline covers a client that never reads). */
    int (*shutdown)(void *conn);
    /* Closes the handles; cb->closed once they are (never from here). */
    void (*close)(void *conn);
    /* Frees a conn never opened (a message that was not delivered). */
    void (*drop)(void *conn);
    /* paused 1: the client's bytes are read no more (the session's input
     * budget is spent: session_input.c), so that the kernel's window
     * holds the client back; 0: read again. */
    void (*pause)(void *conn, int paused);
} byte_io_t;

#endif
