/* load_client.h - bench_load's simulated players: a session connects
 * (from one of several loopback source addresses), answers the server's
 * telnet as a terminal client does (80x24, the terminal type of --ttype),
 * leaves the lobby as a guest, then sends its keys on its schedule, one
 * in flight, and times each to the frame marker that ends its answer.
 * What a row counts (held, failed, refused, keys, bytes, latencies) is in
 * its lrow_t. Part of bench_load.c, kept apart for its size; header-only
 * (static inline) like floor_plan.h. */
#ifndef ROGUE_BENCH_LOAD_CLIENT_H
#define ROGUE_BENCH_LOAD_CLIENT_H

#include <stdarg.h> /* libtelnet.h uses va_list and size_t without */
#include <stddef.h> /* including what declares them */
#include <libtelnet.h> /* here for the telnet bytes' names only */
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

enum tn_state { TN_DATA, TN_IAC, TN_OPT, TN_SB, TN_SB_DATA, TN_SB_IAC };
enum phase { P_IDLE, P_CONNECTING, P_SETUP, P_READY, P_CLOSED };

typedef struct lsess {
    uv_tcp_t tcp;
    uv_connect_t creq;
    uv_timer_t timer;
    struct lrow *row;
    uint8_t phase;          /* enum phase */
    uint8_t tn, tn_cmd, sb_opt, sb_first, sb_len;
    uint8_t in_flight;      /* a key awaits its frame marker */
    uint8_t dead, dir;
    uint8_t m_died, m_wall; /* progress of the two text matchers */
    uint8_t m_hp, in_game;  /* "HP: " seen: the game's status line is here */
    uint8_t lobby_step;     /* 0: lobby shown, 1: p sent, 2: Enter sent */
    uint8_t answer_data;    /* screen bytes since the key was sent (capped) */
    uint8_t counted;        /* 1 once counted as held */
    uint8_t handles;        /* open handles to close */
    uint32_t rng;
    uint64_t sent_ns;       /* the in-flight key's latency counts from here:
                               when it fell due */
    uint64_t first_ns;      /* when the session's first key is due; key k
                               is due at first_ns + k * period */
    uint64_t next_ns;       /* when the next key is due */
    uint32_t due, sent, done; /* keys fallen due, sent, answered */
    uint64_t bytes;         /* received while measuring */
} lsess_t;

typedef struct lrow {
    int n, rate, secs;
    uv_loop_t *loop;
    lsess_t *s;
    struct sockaddr_in server;
    int sources;
    int window;             /* sessions setting up at once, at most */
    int next_connect, connecting, held, failed, disconnects, closed_handles;
    int refused;            /* closed by the server before the game */
    int measuring, stopping;
    uint64_t t_start, t_end, period_ns;
    uint32_t *lat;          /* µs, one per answered key */
    size_t nlat, caplat;
    long keys_sent, answered, answered_in_window, offered, unserved;
    uint64_t bytes;
    uv_timer_t guard;
} lrow_t;

static inline uint64_t now_ns(void)
{
    return uv_hrtime();
}

static inline uint32_t xorshift(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* --- a session ---------------------------------------------------------------- */

static inline void on_write_done(uv_write_t *req, int status)
{
    (void)status;
    free(req);
}

/* Writes constant bytes (static storage: they outlive any request). */
static inline void send_bytes(lsess_t *c, const char *p, size_t n)
{
    if (c->phase == P_CLOSED)
        return;
    uv_buf_t b = uv_buf_init((char *)p, (unsigned)n);
    int k = uv_try_write((uv_stream_t *)&c->tcp, &b, 1);
    if (k == (int)n)
        return;
    if (k > 0) {
        b.base += k;
        b.len -= (size_t)k;
    }
    uv_write_t *req = malloc(sizeof *req);
    if (!req || uv_write(req, (uv_stream_t *)&c->tcp, &b, 1, on_write_done) != 0)
        free(req);
}

static inline void on_closed(uv_handle_t *h)
{
    lsess_t *c = h->data;
    c->row->closed_handles++;
}

static inline void sess_end(lsess_t *c, int by_server)
{
    lrow_t *r = c->row;
    if (c->phase == P_CLOSED)
        return;
    if (c->phase == P_CONNECTING || c->phase == P_SETUP) {
        r->connecting--;
        /* Connected, then closed by the server before the game: refused
         * (rogued says why in its log: "busy", a limit). */
        if (by_server && c->phase == P_SETUP)
            r->refused++;
        else
            r->failed++;
    }
    if (by_server && c->phase == P_READY)
        r->disconnects++;
    if (c->counted)
        r->held--;
    c->counted = 0;
    c->phase = P_CLOSED;
    uv_timer_stop(&c->timer);
    uv_close((uv_handle_t *)&c->tcp, on_closed);
    uv_close((uv_handle_t *)&c->timer, on_closed);
}

static inline void start_connects(lrow_t *r);

static inline void record_latency(lrow_t *r, uint64_t ns)
{
    if (r->nlat == r->caplat) {
        size_t cap = r->caplat ? r->caplat * 2 : 65536;
        uint32_t *p = realloc(r->lat, cap * sizeof *p);
        if (!p)
            return;
        r->lat = p;
        r->caplat = cap;
    }
    uint64_t us = ns / 1000;
    r->lat[r->nlat++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

static FILE *trace; /* BENCH_LOAD_TRACE=FILE: one line per key */

static const char keyset[8] = { 'h', 'j', 'k', 'l', 'y', 'u', 'b', 'n' };

/* Sends the session's next key (number c->sent). Its latency counts from
 * now when it is sent as it falls due (the timer's own lateness, up to a
 * millisecond, is the generator's, not the server's), and from when it
 * fell due when it waited for the answers before it (backlog: the
 * server's). */
static inline void send_key(lsess_t *c, int backlog)
{
    lrow_t *r = c->row;
    const char *k;
    if (c->dead) {
        k = "r"; /* YOU DIED: a new game */
        c->dead = 0;
    } else {
        /* A random walk: keep going, turn now and then and at walls. */
        if (xorshift(&c->rng) % 8 == 0)
            c->dir = (uint8_t)(xorshift(&c->rng) % 8);
        k = &keyset[c->dir];
    }
    c->in_flight = 1;
    c->answer_data = 0;
    uint64_t due = c->first_ns + (uint64_t)c->sent * r->period_ns, now = now_ns();
    c->sent_ns = backlog && due < now ? due : now;
    c->sent++;
    r->keys_sent++;
    send_bytes(c, k, 1);
}

static inline void schedule(lsess_t *c);

static inline void on_key_timer(uv_timer_t *t)
{
    lsess_t *c = t->data;
    lrow_t *r = c->row;
    if (c->phase != P_READY || !r->measuring)
        return;
    c->due++;
    r->offered++;
    if (!c->in_flight)
        send_key(c, 0); /* else it waits for the answers before it */
    c->next_ns += r->period_ns;
    schedule(c);
}

static inline void schedule(lsess_t *c)
{
    lrow_t *r = c->row;
    if (c->next_ns >= r->t_end) {
        uv_timer_stop(&c->timer);
        return;
    }
    uint64_t now = now_ns();
    uint64_t ms = c->next_ns > now ? (c->next_ns - now + 999999) / 1000000 : 0;
    uv_timer_start(&c->timer, on_key_timer, ms, 0);
}

static inline void on_marker(lsess_t *c)
{
    lrow_t *r = c->row;
    if (c->phase == P_SETUP) {
        /* The lobby comes first: p, then Enter on the guest name it
         * offers; the frames in between (the prompt, "one moment") are
         * not the game's. */
        if (!c->in_game) {
            if (c->lobby_step < 2)
                send_bytes(c, c->lobby_step++ == 0 ? "p" : "\r", 1);
            return;
        }
        /* The game's first screen: the session is held. */
        c->phase = P_READY;
        c->counted = 1;
        r->connecting--;
        r->held++;
        start_connects(r);
        return;
    }
    if (c->phase != P_READY || !c->in_flight)
        return; /* a keepalive, or a screen nobody asked for */
    uint64_t t = now_ns();
    record_latency(r, t - c->sent_ns);
    if (trace)
        fprintf(trace, "%.3f %.3f %d\n", (double)(c->sent_ns - r->t_start) / 1e6,
                (double)(t - c->sent_ns) / 1e6, (int)(c - r->s));
    r->answered++;
    if (t <= r->t_end)
        r->answered_in_window++;
    c->done++;
    c->in_flight = 0;
    if (c->answer_data == 0) /* nothing changed: a wall said so before */
        c->dir = (uint8_t)(xorshift(&c->rng) % 8);
    if (c->sent < c->due)
        send_key(c, 1); /* late because the server was: counted from its due */
}

/* Two phrases in the screen text steer the player. */
static inline void match_text(lsess_t *c, unsigned char b)
{
    static const char died[] = "YOU DIED", wall[] = "wall in the way";
    c->m_died = b == (unsigned char)died[c->m_died] ? c->m_died + 1
                : b == (unsigned char)died[0] ? 1 : 0;
    if (c->m_died == sizeof died - 1) {
        c->dead = 1;
        c->m_died = 0;
    }
    c->m_wall = b == (unsigned char)wall[c->m_wall] ? c->m_wall + 1
                : b == (unsigned char)wall[0] ? 1 : 0;
    if (c->m_wall == sizeof wall - 1) {
        c->dir = (uint8_t)(xorshift(&c->rng) % 8);
        c->m_wall = 0;
    }
    static const char hp[] = "HP: ";
    c->m_hp = b == (unsigned char)hp[c->m_hp] ? c->m_hp + 1
              : b == (unsigned char)hp[0] ? 1 : 0;
    if (c->m_hp == sizeof hp - 1) {
        c->in_game = 1;
        c->m_hp = 0;
    }
}

/* The client's telnet: answers what a terminal client answers. */
static inline void telnet_option(lsess_t *c, uint8_t cmd, uint8_t opt)
{
    static const char do_echo[] = { (char)TELNET_IAC, (char)TELNET_DO,
                                    TELNET_TELOPT_ECHO };
    static const char do_sga[] = { (char)TELNET_IAC, (char)TELNET_DO,
                                   TELNET_TELOPT_SGA };
    static const char naws[] = { (char)TELNET_IAC, (char)TELNET_WILL,
                                 TELNET_TELOPT_NAWS, (char)TELNET_IAC,
                                 (char)TELNET_SB, TELNET_TELOPT_NAWS, 0, 80, 0,
                                 24, (char)TELNET_IAC, (char)TELNET_SE };
    static const char will_ttype[] = { (char)TELNET_IAC, (char)TELNET_WILL,
                                       TELNET_TELOPT_TTYPE };
    static char refuse[4][256][3];
    if (cmd == TELNET_WILL && opt == TELNET_TELOPT_ECHO)
        send_bytes(c, do_echo, 3);
    else if (cmd == TELNET_WILL && opt == TELNET_TELOPT_SGA)
        send_bytes(c, do_sga, 3);
    else if (cmd == TELNET_DO && opt == TELNET_TELOPT_NAWS)
        send_bytes(c, naws, sizeof naws);
    else if (cmd == TELNET_DO && opt == TELNET_TELOPT_TTYPE)
        send_bytes(c, will_ttype, 3);
    else if (cmd == TELNET_WILL || cmd == TELNET_DO) {
        char *p = refuse[cmd == TELNET_WILL][opt];
        p[0] = (char)TELNET_IAC;
        p[1] = (char)(cmd == TELNET_WILL ? TELNET_DONT : TELNET_WONT);
        p[2] = (char)opt;
        send_bytes(c, p, 3);
    }
}

/* The terminal type every session says it is (--ttype): the display the
 * server draws it with follows from it (docs/telnet.md). */
static const char *ttype_name = "xterm-256color";

static inline void telnet_sb_end(lsess_t *c)
{
    if (c->sb_opt == TELNET_TELOPT_TTYPE && c->sb_len >= 1 && c->sb_first == 1) {
        char is[96];
        int n = snprintf(is, sizeof is, "\xff\xfa\x18%c%s\xff\xf0", 0,
                         ttype_name);
        send_bytes(c, is, (size_t)n);
    }
}

static inline void telnet_feed(lsess_t *c, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n && c->phase != P_CLOSED; i++) {
        unsigned char b = p[i];
        switch (c->tn) {
        case TN_DATA:
            if (b == TELNET_IAC) {
                c->tn = TN_IAC;
            } else {
                match_text(c, b);
                c->answer_data = 1;
            }
            break;
        case TN_IAC:
            c->tn = TN_DATA;
            if (b == TELNET_WILL || b == TELNET_WONT || b == TELNET_DO ||
                b == TELNET_DONT) {
                c->tn_cmd = b;
                c->tn = TN_OPT;
            } else if (b == TELNET_SB) {
                c->tn = TN_SB;
            } else if (b == TELNET_NOP) {
                on_marker(c);
            } else if (b == TELNET_IAC) {
                match_text(c, b);
            }
            break;
        case TN_OPT:
            c->tn = TN_DATA;
            telnet_option(c, c->tn_cmd, b);
            break;
        case TN_SB:
            c->sb_opt = b;
            c->sb_len = 0;
            c->tn = TN_SB_DATA;
            break;
        case TN_SB_DATA:
            if (b == TELNET_IAC) {
                c->tn = TN_SB_IAC;
            } else {
                if (c->sb_len == 0)
                    c->sb_first = b;
                if (c->sb_len < 255)
                    c->sb_len++;
            }
            break;
        case TN_SB_IAC:
            if (b == TELNET_SE) {
                telnet_sb_end(c);
                c->tn = TN_DATA;
            } else {
                c->tn = TN_SB_DATA; /* IAC IAC: a 255 inside */
            }
            break;
        }
    }
}

static char readbuf[1 << 16];

static inline void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    (void)h;
    (void)suggested;
    *b = uv_buf_init(readbuf, sizeof readbuf);
}

static inline void on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
    lsess_t *c = st->data;
    if (n < 0) {
        sess_end(c, 1);
        return;
    }
    if (c->row->measuring) {
        c->bytes += (uint64_t)n;
        c->row->bytes += (uint64_t)n;
    }
    telnet_feed(c, (const unsigned char *)b->base, (size_t)n);
}

static inline void on_connect(uv_connect_t *req, int status)
{
    lsess_t *c = req->data;
    if (c->phase == P_CLOSED)
        return;
    if (status < 0) {
        sess_end(c, 0);
        start_connects(c->row);
        return;
    }
    c->phase = P_SETUP;
    uv_tcp_nodelay(&c->tcp, 1);
    uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
}

/* Opens a socket from source 127.0.0.(1 + i % sources); the port is picked
 * at connect time (IP_BIND_ADDRESS_NO_PORT), so each source has its own
 * ephemeral range toward the server. */
static inline int open_socket(lrow_t *r, int i)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (r->sources > 1) {
        int one = 1;
#ifdef IP_BIND_ADDRESS_NO_PORT
        setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
#endif
        struct sockaddr_in a;
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(0x7f000001u + (uint32_t)(i % r->sources));
        if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

static inline void start_connects(lrow_t *r)
{
    while (!r->stopping && r->connecting < r->window &&
           r->next_connect < r->n) {
        int i = r->next_connect++;
        lsess_t *c = &r->s[i];
        memset(c, 0, sizeof *c);
        c->row = r;
        c->rng = 2463534242u ^ (uint32_t)(i * 2654435761u);
        if (!c->rng)
            c->rng = 1;
        c->dir = (uint8_t)(xorshift(&c->rng) % 8);
        c->tcp.data = c->timer.data = c->creq.data = c;
        r->connecting++;
        c->phase = P_CONNECTING;
        uv_tcp_init(r->loop, &c->tcp);
        uv_timer_init(r->loop, &c->timer);
        int fd = open_socket(r, i), ok = fd >= 0;
        if (ok && uv_tcp_open(&c->tcp, fd) != 0) {
            close(fd);
            ok = 0;
        }
        if (ok && uv_tcp_connect(&c->creq, &c->tcp,
                                 (struct sockaddr *)&r->server, on_connect) != 0)
            ok = 0;
        if (!ok)
            sess_end(c, 0);
    }
}

#endif
