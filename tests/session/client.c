/* client.c - the session-test harness (see client.h): a scripted telnet
 * client whose screen is a libvterm terminal. The server process is
 * server_proc.c. */
#include "client.h"
#include "port_claim.h"

#include <check.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <stdarg.h> /* libtelnet.h uses va_list and size_t without */
#include <stddef.h> /* including what declares them */
#include <libtelnet.h>
#include <vterm.h>

#define MAP_ROWS 21            /* the map is rows 0..20 (common/map.h) */
#define STREAM_KEEP (1 << 20)  /* data kept for cl_stream_has */

/* --- time ------------------------------------------------------------------ */

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Milliseconds left until deadline, never negative. */
static int left_ms(int64_t deadline)
{
    int64_t d = deadline - now_ms();
    return d < 0 ? 0 : (int)d;
}

/* --- the client ------------------------------------------------------------ */

struct tclient {
    int fd;
    int raw;
    int closed;          /* reading: EOF or reset seen */
    int wclosed;         /* writing: failed (the server has closed) */
    int w, h;
    int naws_on;         /* the server asked for NAWS and we agreed */
    int frames;          /* IAC NOP frame markers received */
    int frames_taken;    /* ... of which a wait has consumed */
    int writing_failed;
    int pongs;           /* IAC WONT CL_PING_OPT received (cl_sync) */
    int pong_state;      /* bytes of that sequence matched so far */
    char ttype[64];
    const char *const *ttypes; /* round by round (cl_opts_t) */
    int ttype_round;
    const char *environ;       /* NEW-ENVIRON answers (cl_opts_t) */
    int env_asked;
    telnet_t *tn;
    VTerm *vt;
    VTermScreen *vs;
    char *stream;        /* the last STREAM_KEEP bytes of data, NUL-ended */
    size_t slen;
    int web;             /* the browser's protocol (cl_opts_t) */
    int ws_open;         /* web: the server's 101 answer has been read */
    unsigned char *ws;   /* web: bytes of the head or frame not yet whole */
    size_t wslen;
    char token[80];      /* web: the last "token T" text message's T */
    char states[256];    /* web: every "state NAME" message's NAME, each
                            followed by a space, in order (cut when full) */
    int ws_close_code;   /* web: the server's close frame's code (0: none) */
    int ws_pongs;          /* web: "pong" text messages read */
    char rbuf[65536];
};

#define WS_IN_MAX (1 << 17)    /* the server sends messages of at most 64 KiB */

/* How inetutils telnet answers: it accepts the server's ECHO and SGA, and
 * will do NAWS and TTYPE when asked. */
static const telnet_telopt_t telopts[] = {
    { TELNET_TELOPT_ECHO, TELNET_WONT, TELNET_DO },
    { TELNET_TELOPT_SGA, TELNET_WONT, TELNET_DO },
    { TELNET_TELOPT_NAWS, TELNET_WILL, TELNET_DONT },
    { TELNET_TELOPT_TTYPE, TELNET_WILL, TELNET_DONT },
    { -1, 0, 0 }
};

/* The same without NAWS: a client that refuses to tell its size. */
static const telnet_telopt_t telopts_no_naws[] = {
    { TELNET_TELOPT_ECHO, TELNET_WONT, TELNET_DO },
    { TELNET_TELOPT_SGA, TELNET_WONT, TELNET_DO },
    { TELNET_TELOPT_TTYPE, TELNET_WILL, TELNET_DONT },
    { -1, 0, 0 }
};

/* The same as telopts, and NEW-ENVIRON too: a client that offers it. */
static const telnet_telopt_t telopts_environ[] = {
    { TELNET_TELOPT_ECHO, TELNET_WONT, TELNET_DO },
    { TELNET_TELOPT_SGA, TELNET_WONT, TELNET_DO },
    { TELNET_TELOPT_NAWS, TELNET_WILL, TELNET_DONT },
    { TELNET_TELOPT_TTYPE, TELNET_WILL, TELNET_DONT },
    { TELNET_TELOPT_NEW_ENVIRON, TELNET_WILL, TELNET_DONT },
    { -1, 0, 0 }
};

/* Writes all of data to the socket within the deadline, without reading
 * (it may run inside a libtelnet callback). Returns 0 or -1. */
/* A wait that ran to its deadline says so on stderr, for the runner's
 * summary ("deadline: ..."): only the long waits, the ones that catch a
 * hang (a short one polls in a loop of its own). */
static void say_deadline(const char *what, int timeout_ms)
{
    if (timeout_ms >= CL_WAIT_MS)
        fprintf(stderr, "deadline: %s waited %d ms\n", what, timeout_ms);
}

static int write_all(tclient_t *c, const void *data, size_t len, int timeout_ms)
{
    const char *p = data;
    int64_t deadline = now_ms() + timeout_ms;
    while (len > 0) {
        if (c->wclosed)
            return -1;
        ssize_t n = send(c->fd, p, len, MSG_NOSIGNAL);
        if (n > 0) {
            p += n;
            len -= (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pfd = { c->fd, POLLOUT, 0 };
            int left = left_ms(deadline);
            if (left == 0 || poll(&pfd, 1, left) < 0) {
                c->writing_failed = 1;
                return -1;
            }
            continue;
        }
        c->wclosed = 1; /* EPIPE, ECONNRESET: what is left to read stays */
        c->writing_failed = 1;
        return -1;
    }
    return 0;
}

static void keep_stream(tclient_t *c, const char *data, size_t len)
{
    if (len >= STREAM_KEEP) {
        data += len - STREAM_KEEP / 2;
        len = STREAM_KEEP / 2;
    }
    if (c->slen + len >= STREAM_KEEP) {
        size_t drop = c->slen + len - STREAM_KEEP / 2;
        if (drop > c->slen)
            drop = c->slen;
        memmove(c->stream, c->stream + drop, c->slen - drop);
        c->slen -= drop;
    }
    memcpy(c->stream + c->slen, data, len);
    c->slen += len;
    c->stream[c->slen] = '\0';
}

/* Data from the server: what the terminal shows. */
static void on_data(tclient_t *c, const char *data, size_t len)
{
    keep_stream(c, data, len);
    vterm_input_write(c->vt, data, len);
}

/* --- the browser's protocol (web mode) ------------------------------------- */

size_t cl_ws_frame(unsigned char *out, int opcode, const void *data,
                   size_t len)
{
    static const unsigned char mask[4] = { 0x5a, 0x17, 0xc3, 0x81 };
    size_t n = 0;
    out[n++] = (unsigned char)(0x80 | opcode);
    if (len < 126) {
        out[n++] = (unsigned char)(0x80 | len);
    } else if (len < 65536) {
        out[n++] = 0x80 | 126;
        out[n++] = (unsigned char)(len >> 8);
        out[n++] = (unsigned char)len;
    } else {
        out[n++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            out[n++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    memcpy(out + n, mask, 4);
    n += 4;
    for (size_t i = 0; i < len; i++)
        out[n + i] = ((const unsigned char *)data)[i] ^ mask[i % 4];
    return n + len;
}

static int ws_send(tclient_t *c, int opcode, const void *data, size_t len)
{
    unsigned char *f = malloc(len + 14);
    ck_assert_ptr_nonnull(f);
    size_t n = cl_ws_frame(f, opcode, data, len);
    int rc = write_all(c, f, n, CL_WAIT_MS);
    free(f);
    return rc;
}

static void ws_send_size(tclient_t *c)
{
    char msg[32];
    int n = snprintf(msg, sizeof msg, "size %d %d", c->w, c->h);
    ws_send(c, 1, msg, (size_t)n);
}

static void on_data(tclient_t *c, const char *data, size_t len);

/* Bytes from the server in web mode: the HTTP answer, then frames whose
 * data is what the terminal shows (one message, one frame). */
static void ws_in(tclient_t *c, const char *bytes, size_t n)
{
    ck_assert_msg(c->wslen + n <= WS_IN_MAX, "web: a message over %d bytes",
                  WS_IN_MAX);
    memcpy(c->ws + c->wslen, bytes, n);
    c->wslen += n;
    size_t at = 0;
    if (!c->ws_open) {
        size_t end = 0;
        while (end + 4 <= c->wslen && memcmp(c->ws + end, "\r\n\r\n", 4))
            end++;
        if (end + 4 > c->wslen)
            return;
        at = end + 4;
        keep_stream(c, (const char *)c->ws, at);
        c->ws_open = 1;
    }
    while (c->wslen - at >= 2) {
        const unsigned char *f = c->ws + at;
        size_t head = 2, len = f[1] & 0x7f;
        if (len == 126) {
            if (c->wslen - at < 4)
                break;
            len = (size_t)f[2] << 8 | f[3];
            head = 4;
        } else if (len == 127) {
            if (c->wslen - at < 10)
                break;
            len = 0;
            for (int i = 0; i < 8; i++)
                len = len << 8 | f[2 + i];
            head = 10;
        }
        ck_assert_msg(len <= WS_IN_MAX, "web: a frame of %zu bytes", len);
        if (c->wslen - at < head + len)
            break;
        int opcode = f[0] & 0x0f;
        if (opcode == 2) {
            on_data(c, (const char *)f + head, len);
            c->frames++;
        } else if (opcode == 1 && len >= 6 && len - 6 < sizeof c->token &&
                   memcmp(f + head, "token ", 6) == 0) {
            /* the page's token for resuming a guest's game or its login,
             * not screen ("token " alone: forget it) */
            memcpy(c->token, f + head + 6, len - 6);
            c->token[len - 6] = '\0';
        } else if (opcode == 1 && len > 6 && memcmp(f + head, "state ", 6) == 0) {
            /* what the server shows, for the page's key bar */
            size_t have = strlen(c->states);
            if (have + (len - 6) + 2 <= sizeof c->states) {
                memcpy(c->states + have, f + head + 6, len - 6);
                c->states[have + len - 6] = ' ';
                c->states[have + len - 5] = '\0';
            }
        } else if (opcode == 1 && len == 4 && memcmp(f + head, "pong", 4) == 0) {
            c->ws_pongs++; /* the heartbeat's answer */
        } else if (opcode == 8) {
            c->ws_close_code = len >= 2 ? f[head] << 8 | f[head + 1] : 1005;
        }
        at += head + len;
    }
    memmove(c->ws, c->ws + at, c->wslen - at);
    c->wslen -= at;
}

static void send_naws_bytes(tclient_t *c, int w, int h)
{
    unsigned char b[4] = { (unsigned char)(w >> 8), (unsigned char)w,
                           (unsigned char)(h >> 8), (unsigned char)h };
    if (!c->raw) {
        /* telnet_subnegotiation escapes an IAC (255) in the sizes. */
        telnet_subnegotiation(c->tn, TELNET_TELOPT_NAWS, (const char *)b, 4);
        return;
    }
    unsigned char out[16];
    size_t n = 0;
    out[n++] = TELNET_IAC;
    out[n++] = TELNET_SB;
    out[n++] = TELNET_TELOPT_NAWS;
    for (int i = 0; i < 4; i++) {
        out[n++] = b[i];
        if (b[i] == TELNET_IAC)
            out[n++] = TELNET_IAC;
    }
    out[n++] = TELNET_IAC;
    out[n++] = TELNET_SE;
    write_all(c, out, n, CL_WAIT_MS);
}

/* IAC SB NEW-ENVIRON IS, then USERVAR name VALUE value for each line of
 * c->environ, IAC SE; built here (libtelnet 0.21's own helper drops the
 * command byte: docs/telnet.md). The test's values hold no IAC. */
static void send_environ(tclient_t *c)
{
    unsigned char out[1024];
    size_t n = 0;
    out[n++] = TELNET_IAC;
    out[n++] = TELNET_SB;
    out[n++] = TELNET_TELOPT_NEW_ENVIRON;
    out[n++] = TELNET_ENVIRON_IS;
    for (const char *p = c->environ; *p && n + 8 < sizeof out;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (eq && len + n + 8 < sizeof out) {
            out[n++] = TELNET_ENVIRON_USERVAR;
            memcpy(out + n, p, (size_t)(eq - p));
            n += (size_t)(eq - p);
            out[n++] = TELNET_ENVIRON_VALUE;
            memcpy(out + n, eq + 1, len - (size_t)(eq - p) - 1);
            n += len - (size_t)(eq - p) - 1;
        }
        p += len + (end != NULL);
    }
    out[n++] = TELNET_IAC;
    out[n++] = TELNET_SE;
    write_all(c, out, n, CL_WAIT_MS);
}

static void on_telnet(telnet_t *t, telnet_event_t *ev, void *user)
{
    tclient_t *c = user;
    (void)t;
    switch (ev->type) {
    case TELNET_EV_DATA:
        on_data(c, ev->data.buffer, ev->data.size);
        break;
    case TELNET_EV_SEND:
        write_all(c, ev->data.buffer, ev->data.size, CL_WAIT_MS);
        break;
    case TELNET_EV_IAC:
        if (ev->iac.cmd == TELNET_NOP)
            c->frames++;
        break;
    case TELNET_EV_DO:
        if (ev->neg.telopt == TELNET_TELOPT_NAWS) {
            c->naws_on = 1;
            send_naws_bytes(c, c->w, c->h);
        }
        break;
    case TELNET_EV_TTYPE:
        if (ev->ttype.cmd == TELNET_TTYPE_SEND && c->ttypes) {
            /* the next name; the last again once the list is over */
            int i = 0;
            while (i < c->ttype_round && c->ttypes[i + 1])
                i++;
            c->ttype_round++;
            telnet_ttype_is(c->tn, c->ttypes[i]);
        } else if (ev->ttype.cmd == TELNET_TTYPE_SEND) {
            c->ttype_round++;
            telnet_ttype_is(c->tn, c->ttype);
        }
        break;
    case TELNET_EV_SUBNEGOTIATION:
        if (ev->sub.telopt == TELNET_TELOPT_NEW_ENVIRON && c->environ &&
            ev->sub.size > 0 && ev->sub.buffer[0] == TELNET_ENVIRON_SEND) {
            c->env_asked++;
            send_environ(c);
        }
        break;
    default:
        break;
    }
}

/* What the terminal answers (cursor reports and the like) goes back as
 * typed input, as a real terminal's would. */
static void on_vterm_output(const char *s, size_t len, void *user)
{
    tclient_t *c = user;
    if (c->fd >= 0) /* a screen alone (cl_screen_new) answers nobody */
        cl_send(c, s, len);
}

/* The kernel's ephemeral range (ports it gives a bind to port 0, as the
 * servers' own listeners and every outgoing connection get): its first. */
static int ephemeral_low(void)
{
    int low = 32768, high;
    FILE *f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r");
    if (f) {
        if (fscanf(f, "%d %d", &low, &high) != 2)
            low = 32768;
        fclose(f);
    }
    return low;
}

/* 127.0.0.1:port, for bind or connect. */
static struct sockaddr_in loopback(int port)
{
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((uint16_t)port);
    return a;
}

/* 1 if port can be bound on loopback now. */
static int port_bindable(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in a = loopback(port);
    int ok = bind(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return ok;
}

/* A port below the kernel's ephemeral range, free now and not handed out
 * by this process before: one taken by port 0 (a server's telnet
 * listener started beside it, a client's source port) can never be it,
 * which a port the kernel picked and freed could be (a test's http_port
 * once came back as the same server's telnet port). Nor by another test
 * process of the run while this one holds it (port_claim.h). */
int cl_free_port(void)
{
    static int given[256], ngiven;
    static unsigned seed;
    if (!seed)
        seed = (unsigned)getpid() ^ (unsigned)time(NULL);
    int low = 10000, span = ephemeral_low() - low;
    ck_assert_msg(span >= 1000, "the ephemeral range starts below 11000");
    for (int tries = 0; tries < 1000; tries++) {
        int p = low + (int)(rand_r(&seed) % (unsigned)span), seen = 0;
        for (int i = 0; i < ngiven && i < 256; i++)
            seen |= given[i] == p;
        if (seen || !port_bindable(p) || !port_claim(p))
            continue;
        given[ngiven++ % 256] = p;
        return p;
    }
    ck_abort_msg("no free port below the ephemeral range");
    return -1;
}

int cl_hold_port(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ck_assert_int_ge(fd, 0);
    int on = 1;
    ck_assert_int_eq(setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on),
                     0);
    struct sockaddr_in a = loopback(port);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    ck_assert_int_eq(listen(fd, 1), 0);
    return fd;
}

/* The client's terminal: a libvterm screen of c's size. */
static void terminal_init(tclient_t *c)
{
    c->vt = vterm_new(c->h, c->w);
    ck_assert_ptr_nonnull(c->vt);
    vterm_set_utf8(c->vt, 1);
    vterm_output_set_callback(c->vt, on_vterm_output, c);
    c->vs = vterm_obtain_screen(c->vt);
    vterm_screen_enable_altscreen(c->vs, 1);
    vterm_screen_reset(c->vs, 1);
}

tclient_t *cl_screen_new(int w, int h)
{
    tclient_t *c = calloc(1, sizeof *c);
    ck_assert_ptr_nonnull(c);
    c->fd = -1;
    c->raw = 1;
    c->w = w;
    c->h = h;
    c->stream = malloc(STREAM_KEEP + 1);
    ck_assert_ptr_nonnull(c->stream);
    c->stream[0] = '\0';
    terminal_init(c);
    return c;
}

void cl_feed(tclient_t *c, const void *data, size_t len)
{
    on_data(c, data, len);
}

tclient_t *cl_connect(int port, const cl_opts_t *o)
{
    cl_opts_t def = { .w = 80, .h = 24 };
    if (!o)
        o = &def;
    tclient_t *c = calloc(1, sizeof *c);
    ck_assert_ptr_nonnull(c);
    c->raw = o->raw;
    c->w = o->w > 0 ? o->w : 80;
    c->h = o->h > 0 ? o->h : 24;
    snprintf(c->ttype, sizeof c->ttype, "%s", o->ttype ? o->ttype : "XTERM-256COLOR");
    c->ttypes = o->ttypes && o->ttypes[0] ? o->ttypes : NULL;
    c->environ = o->environ;
    c->stream = malloc(STREAM_KEEP + 1);
    ck_assert_ptr_nonnull(c->stream);
    c->stream[0] = '\0';

    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ck_assert_msg(c->fd >= 0, "socket: %s", strerror(errno));
    if (o->rcvbuf > 0)
        setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &o->rcvbuf, sizeof o->rcvbuf);
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (o->src) {
        struct sockaddr_in from;
        memset(&from, 0, sizeof from);
        from.sin_family = AF_INET;
        ck_assert_int_eq(inet_pton(AF_INET, o->src, &from.sin_addr), 1);
        ck_assert_msg(bind(c->fd, (struct sockaddr *)&from, sizeof from) == 0,
                      "bind to %s: %s", o->src, strerror(errno));
    }
    struct sockaddr_in a = loopback(port);
    int rc;
    do
        rc = connect(c->fd, (struct sockaddr *)&a, sizeof a);
    while (rc < 0 && errno == EINTR);
    ck_assert_msg(rc == 0, "connect to 127.0.0.1:%d: %s", port, strerror(errno));
    fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);

    terminal_init(c);
    if (o->web) {
        char upgrade[512];
        snprintf(upgrade, sizeof upgrade,
                 "GET %s HTTP/1.1\r\nHost: rogued\r\nUpgrade: websocket\r\n"
                 "Connection: Upgrade\r\n"
                 "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n",
                 o->ws_path ? o->ws_path : "/ws");
        c->web = c->raw = 1;
        c->ws = malloc(WS_IN_MAX);
        ck_assert_ptr_nonnull(c->ws);
        ck_assert_int_eq(write_all(c, upgrade, strlen(upgrade), CL_WAIT_MS), 0);
        if (o->resume) {
            char msg[128];
            int n = snprintf(msg, sizeof msg, "resume %s", o->resume);
            ws_send(c, 1, msg, (size_t)n);
        }
        if (!o->hold_size)
            ws_send_size(c);
    } else if (!c->raw) {
        c->tn = telnet_init(o->refuse_naws ? telopts_no_naws
                            : o->environ ? telopts_environ : telopts,
                            on_telnet, 0, c);
        ck_assert_ptr_nonnull(c->tn);
        if (o->environ) /* offered before the server speaks, as PuTTY does */
            telnet_negotiate(c->tn, TELNET_WILL, TELNET_TELOPT_NEW_ENVIRON);
    }
    return c;
}

void cl_abort(tclient_t *c)
{
    if (!c)
        return;
    /* Linger 0: close() sends RST, as a crashed or unplugged peer would. */
    struct linger lg = { 1, 0 };
    setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    cl_close(c);
}

void cl_close(tclient_t *c)
{
    if (!c)
        return;
    if (c->tn)
        telnet_free(c->tn);
    vterm_free(c->vt);
    if (c->fd >= 0)
        close(c->fd);
    free(c->stream);
    free(c->ws);
    free(c);
}

/* Counts the server's IAC WONT CL_PING_OPT answers in the raw bytes. The
 * server never sends a 0xff data byte (it sends ASCII and UTF-8), so the
 * sequence cannot be part of anything else. */
static void count_pongs(tclient_t *c, const unsigned char *p, size_t n)
{
    static const unsigned char pong[3] = { TELNET_IAC, TELNET_WONT, CL_PING_OPT };
    for (size_t i = 0; i < n; i++) {
        if (p[i] == pong[c->pong_state])
            c->pong_state++;
        else
            c->pong_state = p[i] == pong[0];
        if (c->pong_state == 3) {
            c->pongs++;
            c->pong_state = 0;
        }
    }
}

int64_t cl_now_ms(void)
{
    return now_ms();
}

int cl_pump(tclient_t *c, int timeout_ms)
{
    if (c->closed)
        return -1;
    struct pollfd pfd = { c->fd, POLLIN, 0 };
    int r = poll(&pfd, 1, timeout_ms);
    if (r <= 0)
        return 0;
    int got = 0;
    while (!c->closed) {
        ssize_t n = recv(c->fd, c->rbuf, sizeof c->rbuf, 0);
        if (n > 0) {
            got = 1;
            count_pongs(c, (const unsigned char *)c->rbuf, (size_t)n);
            if (c->web)
                ws_in(c, c->rbuf, (size_t)n);
            else if (c->raw)
                on_data(c, c->rbuf, (size_t)n);
            else
                telnet_recv(c->tn, c->rbuf, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        c->closed = 1; /* EOF, or reset */
    }
    return c->closed ? -1 : got;
}

/* Handles everything that has already arrived. */
static void drain(tclient_t *c)
{
    while (cl_pump(c, 0) > 0)
        ;
}

int cl_send(tclient_t *c, const void *data, size_t len)
{
    if (c->wclosed)
        return -1;
    if (c->web)
        return ws_send(c, 2, data, len);
    if (c->raw)
        return write_all(c, data, len, CL_WAIT_MS);
    c->writing_failed = 0;
    telnet_send(c->tn, data, len);
    return c->writing_failed ? -1 : 0;
}

int cl_send_str(tclient_t *c, const char *s)
{
    return cl_send(c, s, strlen(s));
}

size_t cl_send_raw(tclient_t *c, const void *data, size_t len,
                   int read_meanwhile, int timeout_ms)
{
    const char *p = data;
    size_t sent = 0;
    int64_t deadline = now_ms() + timeout_ms;
    while (sent < len && !c->wclosed) {
        ssize_t n = send(c->fd, p + sent, len - sent, MSG_NOSIGNAL);
        if (n > 0) {
            sent += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            c->wclosed = 1; /* EPIPE, ECONNRESET: the server has closed it */
            break;
        }
        int left = left_ms(deadline);
        if (left == 0)
            break;
        int reading = read_meanwhile && !c->closed;
        struct pollfd pfd = { c->fd, (short)(POLLOUT | (reading ? POLLIN : 0)), 0 };
        if (poll(&pfd, 1, left) < 0)
            break;
        if (reading && (pfd.revents & (POLLIN | POLLHUP | POLLERR)))
            cl_pump(c, 0);
    }
    return sent;
}

int cl_wait_frame(tclient_t *c, int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        if (c->frames > c->frames_taken) {
            c->frames_taken = c->frames;
            return 1;
        }
        int left = left_ms(deadline);
        if (left == 0)
            say_deadline("a frame", timeout_ms);
        if (c->closed || left == 0)
            return 0;
        cl_pump(c, left);
    }
}

/* One ping: IAC DO CL_PING_OPT, answered by IAC WONT CL_PING_OPT. */
static int ping(tclient_t *c, int64_t deadline)
{
    static const char do_ping[3] = { (char)TELNET_IAC, (char)TELNET_DO, CL_PING_OPT };
    int want = c->pongs + 1;
    if (write_all(c, do_ping, 3, left_ms(deadline)) != 0)
        return 0;
    while (c->pongs < want) {
        int left = left_ms(deadline);
        if (c->closed || left == 0)
            return 0;
        cl_pump(c, left);
    }
    return 1;
}

int cl_sync(tclient_t *c, int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    if (c->raw)
        return 0;
    if (!ping(c, deadline) || !ping(c, deadline)) {
        if (left_ms(deadline) == 0)
            say_deadline("cl_sync's answer", timeout_ms);
        return 0;
    }
    drain(c);
    c->frames_taken = c->frames;
    return 1;
}

int cl_key(tclient_t *c, const char *bytes)
{
    if (!cl_sync(c, CL_WAIT_MS))
        return 0;
    if (cl_send_str(c, bytes) != 0)
        return 0;
    /* The frame may be one the server drew of itself (a watcher's count, a
     * notice) before it read the key: the sync after it brings in the
     * key's own, whatever came first. */
    return cl_wait_frame(c, CL_WAIT_MS) && cl_sync(c, CL_WAIT_MS);
}

int cl_frames(const tclient_t *c)
{
    return c->frames;
}

void cl_resize(tclient_t *c, int w, int h)
{
    c->w = w;
    c->h = h;
    vterm_set_size(c->vt, h, w);
    if (c->web)
        ws_send_size(c);
    else if (!c->raw && c->naws_on)
        send_naws_bytes(c, w, h);
}

void cl_set_size(tclient_t *c, int w, int h)
{
    c->w = w;
    c->h = h;
    vterm_set_size(c->vt, h, w);
}

int cl_send_naws(tclient_t *c, int w, int h)
{
    if (c->wclosed)
        return -1;
    c->writing_failed = 0;
    send_naws_bytes(c, w, h);
    return c->writing_failed ? -1 : 0;
}

int cl_wait(tclient_t *c, int (*pred)(tclient_t *c, void *arg), void *arg,
            int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    drain(c);
    for (;;) {
        if (pred(c, arg))
            return 1;
        int left = left_ms(deadline);
        if (left == 0)
            say_deadline("a screen (cl_wait)", timeout_ms);
        if (c->closed || left == 0)
            return 0;
        cl_pump(c, left);
    }
}

static int pred_text(tclient_t *c, void *arg)
{
    return cl_screen_has(c, arg);
}

static int pred_no_text(tclient_t *c, void *arg)
{
    return !cl_screen_has(c, arg);
}

int cl_wait_text(tclient_t *c, const char *text, int timeout_ms)
{
    return cl_wait(c, pred_text, (void *)text, timeout_ms);
}

int cl_wait_no_text(tclient_t *c, const char *text, int timeout_ms)
{
    return cl_wait(c, pred_no_text, (void *)text, timeout_ms);
}

static int pred_ready(tclient_t *c, void *arg)
{
    char row[16];
    int x, y, status = 0;
    (void)arg;
    if (cl_find(c, '@', &x, &y) != 1)
        return 0;
    /* The status line: the last row, or on a terminal taller than the
     * log's rows the row under them (view_status_row). */
    for (y = c->h - 1; y >= 0 && !status; y--)
        status = strncmp(cl_row(c, y, row, sizeof row), "HP:", 3) == 0;
    if (!status)
        return 0;
    return c->raw || c->frames > c->frames_taken;
}

static int pred_lobby_or_game(tclient_t *c, void *arg)
{
    return cl_screen_has(c, "Play (as a guest)") || pred_ready(c, arg);
}

static int pred_guest_prompt(tclient_t *c, void *arg)
{
    (void)arg;
    return cl_screen_has(c, "Play as a guest") && cl_screen_has(c, "Name: guest");
}

int cl_wait_ready(tclient_t *c, int timeout_ms)
{
    if (!cl_wait(c, pred_lobby_or_game, NULL, timeout_ms))
        return 0;
    if (cl_screen_has(c, "Play (as a guest)")) {
        /* The lobby: p, then Enter on the guest name it offers. A raw
         * (cooked nc) client sends a line: "p" and "\n" arrive as keys. */
        if (c->raw && !c->web ? cl_send_str(c, "p\n") != 0
                   : cl_send_str(c, "p") != 0 ||
                     !cl_wait(c, pred_guest_prompt, NULL, timeout_ms) ||
                     cl_send_str(c, "\r") != 0)
            return 0;
    }
    if (!cl_wait(c, pred_ready, NULL, timeout_ms))
        return 0;
    c->frames_taken = c->frames;
    return 1;
}

static int pred_closed(tclient_t *c, void *arg)
{
    (void)arg;
    return c->closed;
}

int cl_wait_eof(tclient_t *c, int timeout_ms)
{
    return cl_wait(c, pred_closed, NULL, timeout_ms);
}

int cl_closed(const tclient_t *c)
{
    return c->closed || c->wclosed;
}

/* --- reading the screen ---------------------------------------------------- */

static int colour_index(const VTermColor *col, int is_fg)
{
    if (is_fg ? VTERM_COLOR_IS_DEFAULT_FG(col) : VTERM_COLOR_IS_DEFAULT_BG(col))
        return -1;
    if (VTERM_COLOR_IS_INDEXED(col))
        return col->indexed.idx;
    return -2;
}

int cl_cell(const tclient_t *c, int x, int y, cl_cell_t *out)
{
    memset(out, 0, sizeof *out);
    if (x < 0 || y < 0 || x >= c->w || y >= c->h)
        return -1;
    VTermScreenCell cell;
    VTermPos pos = { y, x };
    if (!vterm_screen_get_cell(c->vs, pos, &cell))
        return -1;
    uint32_t ch = cell.chars[0];
    out->ch = ch == 0 || ch > 0x10ffff ? ' ' : ch;
    out->fg = colour_index(&cell.fg, 1);
    out->bg = colour_index(&cell.bg, 0);
    out->bold = cell.attrs.bold;
    out->underline = cell.attrs.underline != 0;
    out->reverse = cell.attrs.reverse;
    if (out->fg == -2)
        out->fg_rgb = (uint32_t)cell.fg.rgb.red << 16 |
                      (uint32_t)cell.fg.rgb.green << 8 | cell.fg.rgb.blue;
    if (out->bg == -2)
        out->bg_rgb = (uint32_t)cell.bg.rgb.red << 16 |
                      (uint32_t)cell.bg.rgb.green << 8 | cell.bg.rgb.blue;
    return 0;
}

uint32_t cl_at(const tclient_t *c, int x, int y)
{
    cl_cell_t cell;
    return cl_cell(c, x, y, &cell) == 0 ? cell.ch : 0;
}

char *cl_row(const tclient_t *c, int y, char *buf, size_t len)
{
    size_t n = 0;
    if (len == 0)
        return buf;
    if (y >= 0 && y < c->h) {
        for (int x = 0; x < c->w && n + 1 < len; x++) {
            uint32_t ch = cl_at(c, x, y);
            buf[n++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
        }
    }
    while (n > 0 && buf[n - 1] == ' ')
        n--;
    buf[n] = '\0';
    return buf;
}

int cl_screen_has(const tclient_t *c, const char *text)
{
    char row[1024];
    for (int y = 0; y < c->h; y++)
        if (strstr(cl_row(c, y, row, sizeof row), text))
            return 1;
    return 0;
}

int cl_stream_count(const tclient_t *c, const char *text)
{
    int n = 0;
    size_t len = strlen(text);
    for (size_t at = 0; at < c->slen; at += strlen(c->stream + at) + 1)
        for (const char *p = c->stream + at; (p = strstr(p, text)); p += len)
            n++;
    return n;
}

const char *cl_stream_find(const tclient_t *c, const char *text)
{
    /* The stream may hold NUL bytes: search each NUL-ended piece. */
    for (size_t at = 0; at < c->slen; at += strlen(c->stream + at) + 1) {
        const char *p = strstr(c->stream + at, text);
        if (p)
            return p;
    }
    return NULL;
}

/* TCP_INFO's tcpi_rcv_wnd (Linux 6.2 on): the u32 after tcpi_snd_wnd, at
 * byte 232 of the kernel's struct tcp_info, which only grows at its end;
 * the C library's struct stops well before it. */
#define TCPI_RCV_WND_AT 232

long cl_rcv_window(const tclient_t *c)
{
    unsigned char info[512];
    socklen_t len = sizeof info;
    uint32_t wnd;
    if (getsockopt(c->fd, IPPROTO_TCP, TCP_INFO, info, &len) != 0 ||
        len < TCPI_RCV_WND_AT + sizeof wnd)
        return -1;
    memcpy(&wnd, info + TCPI_RCV_WND_AT, sizeof wnd);
    return (long)wnd;
}

int cl_stream_has(const tclient_t *c, const char *text)
{
    return cl_stream_find(c, text) != NULL;
}

int cl_find(const tclient_t *c, uint32_t ch, int *x, int *y)
{
    int n = 0;
    *x = *y = -1;
    int rows = c->h < MAP_ROWS ? c->h : MAP_ROWS;
    for (int j = 0; j < rows; j++) {
        for (int i = 0; i < c->w; i++) {
            if (cl_at(c, i, j) == ch) {
                if (n++ == 0) {
                    *x = i;
                    *y = j;
                }
            }
        }
    }
    return n;
}

int cl_turn(const tclient_t *c)
{
    char row[1024];
    for (int y = c->h - 1; y >= 0; y--) {
        if (strncmp(cl_row(c, y, row, sizeof row), "HP:", 3) != 0)
            continue;
        /* "Turn:N", or "T:N" where the line is shortened to its width */
        const char *t = strstr(row, "Turn:");
        size_t skip = 5;
        if (!t) {
            t = strstr(row, " T:");
            skip = 3;
        }
        if (!t)
            return -1;
        char *end;
        long v = strtol(t + skip, &end, 10);
        return end == t + skip ? -1 : (int)v;
    }
    return -1;
}

int cl_at_turn(tclient_t *c, void *arg)
{
    return cl_turn(c) == *(int *)arg;
}

int cl_env_asked(const tclient_t *c)
{
    return c->env_asked;
}

int cl_ttype_asked(const tclient_t *c)
{
    return c->ttype_round;
}

int cl_w(const tclient_t *c)
{
    return c->w;
}

int cl_h(const tclient_t *c)
{
    return c->h;
}

char *cl_dump(const tclient_t *c)
{
    size_t cap = (size_t)(c->w + 1) * (size_t)c->h + 1;
    char *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    size_t n = 0;
    out[0] = '\0';
    for (int y = 0; y < c->h; y++) {
        cl_row(c, y, out + n, cap - n);
        n += strlen(out + n);
        out[n++] = '\n';
        out[n] = '\0';
    }
    return out;
}

void cl_snap(const tclient_t *c, cl_snap_t *snap)
{
    snap->w = c->w;
    snap->h = c->h;
    snap->cells = calloc((size_t)c->w * (size_t)c->h, sizeof *snap->cells);
    ck_assert_ptr_nonnull(snap->cells);
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++)
            cl_cell(c, x, y, &snap->cells[y * c->w + x]);
}

void cl_snap_free(cl_snap_t *snap)
{
    free(snap->cells);
    snap->cells = NULL;
}

static int cell_same(const cl_cell_t *a, const cl_cell_t *b)
{
    return a->ch == b->ch && a->fg == b->fg && a->bg == b->bg &&
           a->bold == b->bold && a->underline == b->underline &&
           a->reverse == b->reverse;
}

static void describe_cell(const cl_cell_t *a, char *out, size_t len)
{
    snprintf(out, len, "'%c' fg %d bg %d%s%s%s",
             a->ch >= 0x20 && a->ch < 0x7f ? (char)a->ch : '?', a->fg, a->bg,
             a->bold ? " bold" : "", a->underline ? " underline" : "",
             a->reverse ? " reverse" : "");
}

/* cl_snap_equal, row `skip` left out (-1: none). */
static int snap_equal_but(const tclient_t *c, const cl_snap_t *snap, int skip,
                          char *why, size_t whylen)
{
    if (snap->w != c->w || snap->h != c->h) {
        snprintf(why, whylen, "size %dx%d, not %dx%d", c->w, c->h, snap->w,
                 snap->h);
        return 0;
    }
    for (int y = 0; y < c->h; y++) {
        for (int x = 0; y != skip && x < c->w; x++) {
            cl_cell_t now;
            cl_cell(c, x, y, &now);
            const cl_cell_t *was = &snap->cells[y * c->w + x];
            if (!cell_same(&now, was)) {
                char a[64], b[64];
                describe_cell(&now, a, sizeof a);
                describe_cell(was, b, sizeof b);
                snprintf(why, whylen, "at column %d row %d: %s, not %s", x, y,
                         a, b);
                return 0;
            }
        }
    }
    return 1;
}

int cl_snap_equal(const tclient_t *c, const cl_snap_t *snap, char *why,
                  size_t whylen)
{
    return snap_equal_but(c, snap, -1, why, whylen);
}

int cl_screen_equal_but(const tclient_t *a, const tclient_t *b, int skip,
                        char *why, size_t whylen)
{
    cl_snap_t snap;
    cl_snap(b, &snap);
    int eq = snap_equal_but(a, &snap, skip, why, whylen);
    cl_snap_free(&snap);
    return eq;
}

int cl_screen_equal(const tclient_t *a, const tclient_t *b, char *why,
                    size_t whylen)
{
    return cl_screen_equal_but(a, b, -1, why, whylen);
}

int cl_web_open(tclient_t *c, void *arg)
{
    (void)arg;
    return c->ws_open;
}

void cl_web_size(tclient_t *c)
{
    ws_send_size(c);
}

int cl_web_close_code(const tclient_t *c)
{
    return c->ws_close_code;
}

const char *cl_web_token(const tclient_t *c)
{
    return c->token;
}

const char *cl_web_states(const tclient_t *c)
{
    return c->states;
}

int cl_web_pongs(const tclient_t *c)
{
    return c->ws_pongs;
}

int cl_local_port(const tclient_t *c)
{
    struct sockaddr_storage a;
    socklen_t len = sizeof a;
    if (getsockname(c->fd, (struct sockaddr *)&a, &len) != 0)
        return -1;
    if (a.ss_family == AF_INET)
        return ntohs(((struct sockaddr_in *)&a)->sin_port);
    if (a.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&a)->sin6_port);
    return -1;
}
