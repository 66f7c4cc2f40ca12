/* bench_echo.c - the floor under a key: a minimal libuv server that answers
 * each key with a frame of a given size, for bench_load to measure beside
 * rogued on the same machine in the same run (`bench_load --echo`).
 *
 * What it does per key is what any server must: one read from the socket,
 * one write of the frame (uv_try_write first, a request only for what is
 * left, as rogued does), on one loop. No game, no drawing, no telnet
 * negotiation: the frame is fixed (printable filler, then IAC NOP, the
 * frame marker bench_load waits for). Its CPU per key is the kernel's and
 * libuv's share of a key at that frame size, which rogued cannot go below
 * (docs/performance.md).
 *
 * It takes rogued's arguments as bench_load passes them and uses only
 * --port and --bind (the others are ignored), prints "listening on
 * ADDR:PORT" and a "disconnect" line per closed connection as rogued logs
 * them, and exits 0 on SIGTERM.
 *
 * --loops W runs W libuv loops, one thread each (the first on the main
 * thread), each with a listener of its own on the same port
 * (SO_REUSEPORT: the kernel spreads the connections), so that it uses as
 * many threads for the sessions as a rogued of W worker loops does (rogued
 * accepts on one thread and hands the sockets over; only the set-up
 * differs, not a key). W=1 is the single loop it always was. At exit it
 * prints each loop's connections.
 *
 *   bench_echo [--port P] [--bind ADDR] [--frame-bytes N] [--loops W]
 *              [rogued args]
 *   N: the bytes of each answer, marker included (default 100);
 *   W: 1..63 (default 1). */
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#include "floor_plan.h"

#define IAC 255
#define NOP 241

/* One loop and what its callbacks share; nothing is shared between loops
 * but the frame, which is only read. */
typedef struct eloop {
    uv_loop_t loop;
    uv_tcp_t server;
    uv_async_t stop;           /* loops past the first: SIGTERM came */
    uv_thread_t thread;
    char *out;                 /* the answers to one read */
    size_t out_cap;
    long conns;                /* accepted */
    char buf[1 << 16];         /* every read of this loop */
} eloop_t;

typedef struct conn {
    uv_tcp_t tcp;
    eloop_t *el;
    int tn; /* bytes of a telnet command still to skip */
} conn_t;

static char *frame;        /* one answer: filler, then IAC NOP */
static size_t frame_len;

static void on_closed(uv_handle_t *h)
{
    free(h->data);
}

static void drop(conn_t *c)
{
    printf("session disconnect \n");
    uv_close((uv_handle_t *)&c->tcp, on_closed);
}

static void on_write(uv_write_t *req, int status)
{
    (void)status;
    free(req);
}

/* Writes n bytes of the loop's `out`: what the socket takes now, a
 * request for the rest (its bytes copied with it). */
static void send_out(conn_t *c, size_t n)
{
    char *out = c->el->out;
    uv_buf_t b = uv_buf_init(out, (unsigned)n);
    int done = uv_try_write((uv_stream_t *)&c->tcp, &b, 1);
    if (done == (int)n)
        return;
    if (done < 0 && done != UV_EAGAIN) {
        drop(c);
        return;
    }
    size_t sent = done > 0 ? (size_t)done : 0;
    uv_write_t *req = malloc(sizeof *req + n - sent);
    if (!req) {
        drop(c);
        return;
    }
    char *copy = (char *)(req + 1);
    memcpy(copy, out + sent, n - sent);
    b = uv_buf_init(copy, (unsigned)(n - sent));
    if (uv_write(req, (uv_stream_t *)&c->tcp, &b, 1, on_write) != 0)
        free(req);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    (void)suggested;
    conn_t *c = h->data;
    *b = uv_buf_init(c->el->buf, sizeof c->el->buf);
}

/* A frame per key byte; telnet commands (IAC and the 1 or 2 bytes after
 * it; a subnegotiation is not expected: nothing asks for one) skipped. */
static void on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
    conn_t *c = st->data;
    eloop_t *el = c->el;
    if (n < 0) {
        drop(c);
        return;
    }
    size_t keys = 0;
    for (ssize_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)b->base[i];
        if (c->tn > 0) {
            c->tn = c->tn == 2 && ch >= 251 && ch <= 254 ? 1 : 0;
            continue;
        }
        if (ch == IAC)
            c->tn = 2;
        else
            keys++;
    }
    if (keys == 0)
        return;
    if (keys * frame_len > el->out_cap) {
        free(el->out);
        el->out_cap = keys * frame_len;
        el->out = malloc(el->out_cap);
        if (!el->out) {
            el->out_cap = 0;
            drop(c);
            return;
        }
    }
    for (size_t k = 0; k < keys; k++)
        memcpy(el->out + k * frame_len, frame, frame_len);
    send_out(c, keys * frame_len);
}

static void on_connection(uv_stream_t *server, int status)
{
    eloop_t *el = server->data;
    if (status < 0)
        return;
    conn_t *c = calloc(1, sizeof *c);
    if (!c)
        return;
    c->el = el;
    uv_tcp_init(&el->loop, &c->tcp);
    c->tcp.data = c;
    if (uv_accept(server, (uv_stream_t *)&c->tcp) != 0) {
        uv_close((uv_handle_t *)&c->tcp, on_closed);
        return;
    }
    el->conns++;
    uv_tcp_nodelay(&c->tcp, 1);
    uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
    /* The first screen: bench_load holds a session once it has seen the
     * status line's "HP: " and a marker. */
    memcpy(el->out, frame, frame_len);
    send_out(c, frame_len);
}

/* A listening socket on addr; with reuse, others may listen on the same
 * port (each loop has its own). -1 on failure. */
static int listen_fd(const struct sockaddr_in *addr, int reuse)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if ((reuse && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) != 0) ||
        bind(fd, (const struct sockaddr *)addr, sizeof *addr) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Sets up loop el listening on addr (its port filled in by the first).
 * Returns 0, or -1. */
static int eloop_init(eloop_t *el, struct sockaddr_in *addr, int reuse)
{
    if (uv_loop_init(&el->loop) != 0)
        return -1;
    el->out_cap = frame_len;
    el->out = malloc(el->out_cap);
    int fd = listen_fd(addr, reuse);
    if (!el->out || fd < 0)
        return -1;
    uv_tcp_init(&el->loop, &el->server);
    el->server.data = el;
    if (uv_tcp_open(&el->server, fd) != 0 ||
        uv_listen((uv_stream_t *)&el->server, 4096, on_connection) != 0)
        return -1;
    int len = sizeof *addr;
    return uv_tcp_getsockname(&el->server, (struct sockaddr *)addr, &len);
}

static void on_stop(uv_async_t *h)
{
    uv_stop(h->loop);
}

static void run_thread(void *arg)
{
    eloop_t *el = arg;
    uv_run(&el->loop, UV_RUN_DEFAULT);
}

static eloop_t *loops;
static int nloops;

/* SIGTERM, on the first loop: every loop stops. */
static void on_term(uv_signal_t *h, int sig)
{
    (void)sig;
    for (int i = 1; i < nloops; i++)
        uv_async_send(&loops[i].stop);
    uv_stop(h->loop);
}

/* The frame: "HP: " then dots (never the words bench_load steers by),
 * then the marker. */
static int make_frame(long bytes)
{
    frame_len = (size_t)bytes;
    frame = malloc(frame_len);
    if (!frame)
        return -1;
    memset(frame, '.', frame_len - 2);
    memcpy(frame, "HP: ", 4);
    frame[frame_len - 2] = (char)IAC;
    frame[frame_len - 1] = (char)NOP;
    return 0;
}

int main(int argc, char **argv)
{
    const char *bind_addr = "127.0.0.1";
    int port = 0, nl = 1;
    long bytes = 100;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--port") == 0)
            port = atoi(argv[++i]);
        else if (strcmp(argv[i], "--bind") == 0)
            bind_addr = argv[++i];
        else if (strcmp(argv[i], "--frame-bytes") == 0)
            bytes = atol(argv[++i]);
        else if (strcmp(argv[i], "--loops") == 0 &&
                 fp_parse_int(argv[++i], 1, FP_MAX_LOOPS, &nl) != 0) {
            fprintf(stderr, "bench_echo: --loops from 1 to %d\n", FP_MAX_LOOPS);
            return 2;
        }
    }
    if (bytes < 8 || bytes > 1 << 20) {
        fprintf(stderr, "bench_echo: --frame-bytes from 8 to 1048576\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    nloops = nl;
    loops = calloc((size_t)nloops, sizeof *loops);
    if (!loops || make_frame(bytes) != 0)
        return 1;
    struct sockaddr_in addr;
    if (uv_ip4_addr(bind_addr, port, &addr) != 0) {
        fprintf(stderr, "bench_echo: bad address %s\n", bind_addr);
        return 1;
    }
    /* Every listener before the first connection can come. */
    for (int i = 0; i < nloops; i++) {
        if (eloop_init(&loops[i], &addr, nloops > 1) != 0) {
            fprintf(stderr, "bench_echo: cannot listen on %s:%d\n", bind_addr, port);
            return 1;
        }
    }
    printf("listening on %s:%d\n", bind_addr, ntohs(addr.sin_port));
    uv_signal_t term;
    uv_signal_init(&loops[0].loop, &term);
    uv_signal_start(&term, on_term, SIGTERM);
    for (int i = 1; i < nloops; i++) {
        uv_async_init(&loops[i].loop, &loops[i].stop, on_stop);
        if (uv_thread_create(&loops[i].thread, run_thread, &loops[i]) != 0) {
            fprintf(stderr, "bench_echo: cannot start loop %d\n", i);
            return 1;
        }
    }
    uv_run(&loops[0].loop, UV_RUN_DEFAULT);
    for (int i = 1; i < nloops; i++)
        uv_thread_join(&loops[i].thread);
    for (int i = 0; i < nloops; i++) {
        printf("echo loop %d: %ld connections\n", i, loops[i].conns);
        free(loops[i].out);
    }
    free(loops);
    free(frame);
    return 0;
}
