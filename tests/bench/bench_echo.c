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
 *   bench_echo [--port P] [--bind ADDR] [--frame-bytes N] [rogued args]
 *   N: the bytes of each answer, marker included (default 100). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#define IAC 255
#define NOP 241

typedef struct conn {
    uv_tcp_t tcp;
    int tn; /* bytes of a telnet command still to skip */
} conn_t;

static uv_loop_t *loop;
static char *frame;        /* one answer: filler, then IAC NOP */
static size_t frame_len;
static char *out;          /* the answers to one read */
static size_t out_cap;

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

/* Writes n bytes of `out`: what the socket takes now, a request for the
 * rest (its bytes copied with it). */
static void send_out(conn_t *c, size_t n)
{
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
    (void)h;
    (void)suggested;
    static char buf[1 << 16];
    *b = uv_buf_init(buf, sizeof buf);
}

/* A frame per key byte; telnet commands (IAC and the 1 or 2 bytes after
 * it; a subnegotiation is not expected: nothing asks for one) skipped. */
static void on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
    conn_t *c = st->data;
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
    if (keys * frame_len > out_cap) {
        free(out);
        out_cap = keys * frame_len;
        out = malloc(out_cap);
        if (!out) {
            out_cap = 0;
            drop(c);
            return;
        }
    }
    for (size_t k = 0; k < keys; k++)
        memcpy(out + k * frame_len, frame, frame_len);
    send_out(c, keys * frame_len);
}

static void on_connection(uv_stream_t *server, int status)
{
    if (status < 0)
        return;
    conn_t *c = calloc(1, sizeof *c);
    if (!c)
        return;
    uv_tcp_init(loop, &c->tcp);
    c->tcp.data = c;
    if (uv_accept(server, (uv_stream_t *)&c->tcp) != 0) {
        uv_close((uv_handle_t *)&c->tcp, on_closed);
        return;
    }
    uv_tcp_nodelay(&c->tcp, 1);
    uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
    /* The first screen: bench_load holds a session once it has seen the
     * status line's "HP: " and a marker. */
    memcpy(out, frame, frame_len);
    send_out(c, frame_len);
}

static void on_term(uv_signal_t *h, int sig)
{
    (void)sig;
    uv_stop(h->loop);
}

int main(int argc, char **argv)
{
    const char *bind_addr = "127.0.0.1";
    int port = 0;
    long bytes = 100;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--port") == 0)
            port = atoi(argv[++i]);
        else if (strcmp(argv[i], "--bind") == 0)
            bind_addr = argv[++i];
        else if (strcmp(argv[i], "--frame-bytes") == 0)
            bytes = atol(argv[++i]);
    }
    if (bytes < 8 || bytes > 1 << 20) {
        fprintf(stderr, "bench_echo: --frame-bytes from 8 to 1048576\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    frame_len = (size_t)bytes;
    frame = malloc(frame_len);
    out_cap = frame_len;
    out = malloc(out_cap);
    if (!frame || !out)
        return 1;
    /* "HP: " then dots, never the words bench_load steers by. */
    memset(frame, '.', frame_len - 2);
    memcpy(frame, "HP: ", 4);
    frame[frame_len - 2] = (char)IAC;
    frame[frame_len - 1] = (char)NOP;

    loop = uv_default_loop();
    uv_tcp_t server;
    struct sockaddr_in addr;
    uv_tcp_init(loop, &server);
    if (uv_ip4_addr(bind_addr, port, &addr) != 0 ||
        uv_tcp_bind(&server, (const struct sockaddr *)&addr, 0) != 0 ||
        uv_listen((uv_stream_t *)&server, 4096, on_connection) != 0) {
        fprintf(stderr, "bench_echo: cannot listen on %s:%d\n", bind_addr, port);
        return 1;
    }
    struct sockaddr_in got;
    int len = sizeof got;
    uv_tcp_getsockname(&server, (struct sockaddr *)&got, &len);
    printf("listening on %s:%d\n", bind_addr, ntohs(got.sin_port));
    uv_signal_t term;
    uv_signal_init(loop, &term);
    uv_signal_start(&term, on_term, SIGTERM);
    uv_run(loop, UV_RUN_DEFAULT);
    free(frame);
    free(out);
    return 0;
}
