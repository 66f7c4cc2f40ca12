/* test_telnet_fast.c - telnet_conn's fast path (docs/telnet.md, "The fast
 * path") against libtelnet itself: every stream is fed to two connections,
 * one that may take the fast path and one with `slow` set (every byte
 * through tnfilter and libtelnet, as before the fast path), split at every
 * point and at random points, and both must make the same callbacks with
 * the same bytes in the same pieces, answer the same, and end in the same
 * state; then the same output (with and without 255 bytes, the frame
 * marker) is sent through both. A spy telnet_t shows that plain keys and
 * frames really do go around libtelnet. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "telnet_conn.h"

#define IAC 255
#define SB 250
#define SE 240

/* One connection and every callback it made, in order: a tag, then
 * D/S: a 16-bit length and the bytes; K: the key; R: width, height. */
typedef struct conn {
    tconn_t tc;
    unsigned char log[1 << 16];
    size_t loglen;
} conn_t;

static conn_t fast_conn, slow_conn;

static void log_put(conn_t *c, const void *p, size_t n)
{
    if (c->loglen + n > sizeof c->log)
        ck_abort_msg("the log is full");
    memcpy(c->log + c->loglen, p, n);
    c->loglen += n;
}

static void log_bytes(conn_t *c, char tag, const char *b, size_t n)
{
    unsigned char head[3] = { (unsigned char)tag, (unsigned char)(n >> 8),
                              (unsigned char)n };
    log_put(c, head, sizeof head);
    log_put(c, b, n);
}

static void on_data(void *ctx, const char *b, size_t n) { log_bytes(ctx, 'D', b, n); }
static void on_send(void *ctx, const char *b, size_t n) { log_bytes(ctx, 'S', b, n); }

static void on_key(void *ctx, int key)
{
    log_put(ctx, "K", 1);
    log_put(ctx, &key, sizeof key);
}

static void on_resize(void *ctx, int w, int h)
{
    int wh[2] = { w, h };
    log_put(ctx, "R", 1);
    log_put(ctx, wh, sizeof wh);
}

static const tconn_cb_t cb = { on_data, on_send, on_key, on_resize };

static void open_conn(conn_t *c, int slow)
{
    memset(&c->tc, 0, sizeof c->tc);
    c->loglen = 0;
    if (tconn_init(&c->tc, &cb, c, 250, 100) != 0)
        ck_abort_msg("tconn_init failed");
    c->tc.slow = (uint8_t)slow;
    tconn_start(&c->tc);
}

static void open_both(void)
{
    open_conn(&fast_conn, 0);
    open_conn(&slow_conn, 1);
}

static void free_both(void)
{
    tconn_free(&fast_conn.tc);
    tconn_free(&slow_conn.tc);
}

/* check's assertions each leave a mark (a system call under fork mode):
 * the comparisons run on every piece of every case, so they are plain, and
 * only a difference calls into check. */
#define DIFF(cond, name) \
    do { \
        if (cond) \
            return (name); \
    } while (0)

static int str_differ(const char *a, const char *b)
{
    return strcmp(a, b) != 0;
}

static const char *caps_difference(const tconn_caps_t *a, const tconn_caps_t *b)
{
    DIFF((a == NULL) != (b == NULL), "caps");
    if (!a)
        return NULL;
    DIFF(a->nttypes != b->nttypes, "nttypes");
    for (int i = 0; i < a->nttypes; i++)
        DIFF(str_differ(a->ttypes[i], b->ttypes[i]), "ttypes");
    DIFF(str_differ(a->env_term, b->env_term), "env_term");
    DIFF(str_differ(a->env_colorterm, b->env_colorterm), "env_colorterm");
    DIFF(str_differ(a->env_lang, b->env_lang), "env_lang");
    DIFF(str_differ(a->env_lc_all, b->env_lc_all), "env_lc_all");
    DIFF(str_differ(a->env_lc_ctype, b->env_lc_ctype), "env_lc_ctype");
    DIFF(str_differ(a->env_charset, b->env_charset), "env_charset");
    return NULL;
}

/* The first thing in which the two differ (callbacks, state), or NULL. */
static const char *difference(void)
{
    const tconn_t *a = &fast_conn.tc, *b = &slow_conn.tc;
    DIFF(fast_conn.loglen != slow_conn.loglen ||
         memcmp(fast_conn.log, slow_conn.log, fast_conn.loglen) != 0,
         "the callbacks");
    DIFF((a->error == NULL) != (b->error == NULL) ||
         (a->error && str_differ(a->error, b->error)), "error");
    DIFF(a->peer != b->peer, "peer");
    DIFF(a->got_echo != b->got_echo || a->got_naws != b->got_naws, "got_*");
    DIFF(a->ttype_done != b->ttype_done || a->ttype_asks != b->ttype_asks,
         "ttype_*");
    DIFF(a->env_asked != b->env_asked || a->env_done != b->env_done, "env_*");
    DIFF(a->w != b->w || a->h != b->h, "the size");
    DIFF(str_differ(a->ttype, b->ttype), "ttype");
    DIFF(a->subs != b->subs, "subs");
    DIFF(a->bad_subs != 0 || b->bad_subs != 0, "bad_subs");
    DIFF(a->filter.state != b->filter.state || a->filter.drop != b->filter.drop ||
         a->filter.open != b->filter.open || a->filter.failed != b->filter.failed ||
         a->filter.sb_len != b->filter.sb_len, "the filter");
    return caps_difference(a->caps, b->caps);
}

/* Both made the same callbacks and are in the same state. what: the case,
 * for the message. */
static void same_both(const char *what)
{
    const char *d = difference();
    if (d)
        ck_abort_msg("%s differ (%zu / %zu log bytes): %s", d,
                     fast_conn.loglen, slow_conn.loglen, what);
}

static void feed_both(const unsigned char *p, size_t n)
{
    int ra = tconn_feed(&fast_conn.tc, p, n);
    int rb = tconn_feed(&slow_conn.tc, p, n);
    if (ra != rb)
        ck_abort_msg("tconn_feed returned %d and %d", ra, rb);
}

/* --- random client streams -------------------------------------------------- */

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

typedef struct stream {
    unsigned char b[2048];
    size_t n;
} stream_t;

static void put(stream_t *s, const void *p, size_t n)
{
    if (s->n + n <= sizeof s->b) {
        memcpy(s->b + s->n, p, n);
        s->n += n;
    }
}

static void put1(stream_t *s, int c)
{
    unsigned char b = (unsigned char)c;
    put(s, &b, 1);
}

#define PUT(s, lit) put((s), (lit), sizeof(lit) - 1)

/* An option byte: ours, the dropped ones, or anything (255 too). */
static int any_option(void)
{
    static const unsigned char opts[] = { 1, 3, 24, 31, 39, 36, 70, 86, 93, 255 };
    return rnd(3) ? opts[rnd(sizeof opts)] : (int)rnd(256);
}

/* A subnegotiation's data byte, 255 doubled as a client must. */
static void put_sb_byte(stream_t *s, int c)
{
    put1(s, c);
    if (c == IAC)
        put1(s, IAC);
}

/* One piece of what a client may send: data as typed, and telnet. */
static void put_token(stream_t *s)
{
    switch (rnd(20)) {
    case 0: case 1: case 2: /* printable ASCII */
        for (uint32_t i = 0, n = 1 + rnd(5); i < n; i++)
            put1(s, ' ' + (int)rnd(95));
        break;
    case 3: PUT(s, "\r"); put1(s, 0); break;          /* Enter, CR NUL */
    case 4: PUT(s, "\r\n"); break;                    /* Enter, CR LF */
    case 5: put1(s, "\r\n\0\x1b\x7f\x08\x03"[rnd(7)]); break; /* alone */
    case 6: PUT(s, "\xc3\xa9\xe2\x94\x80"); break;    /* UTF-8 */
    case 7: PUT(s, "\x1b[A"); break;
    case 8: put1(s, IAC); put1(s, IAC); break;        /* a data 255 */
    case 9: /* IAC and a command: NOP, EC, IP, ... or any byte */
        put1(s, IAC);
        put1(s, rnd(2) ? 236 + (int)rnd(14) : (int)rnd(250));
        break;
    case 10: /* IAC WILL/WONT/DO/DONT option */
        put1(s, IAC);
        put1(s, 251 + (int)rnd(4));
        put1(s, any_option());
        break;
    case 11: { /* NAWS, its bytes any (255 doubled) */
        put1(s, IAC); put1(s, SB); put1(s, 31);
        for (int i = 0; i < 4; i++)
            put_sb_byte(s, rnd(4) ? (int)rnd(2) : (int)rnd(256));
        put1(s, IAC); put1(s, SE);
        break;
    }
    case 12: /* a TTYPE answer */
        put1(s, IAC); put1(s, SB); put1(s, 24); put1(s, 0);
        PUT(s, rnd(2) ? "XTERM-256COLOR" : "MTTS 2829");
        put1(s, IAC); put1(s, SE);
        break;
    case 13: /* a NEW-ENVIRON answer (tapped while negotiating) */
        put1(s, IAC); put1(s, SB); put1(s, 39);
        PUT(s, "\0\3TERM\1xterm-direct\0LANG\1C.UTF-8");
        put1(s, IAC); put1(s, SE);
        break;
    case 14: { /* any option's subnegotiation, maybe cut short */
        put1(s, IAC); put1(s, SB); put1(s, any_option());
        for (uint32_t i = 0, n = rnd(8); i < n; i++)
            put_sb_byte(s, (int)rnd(256));
        if (rnd(3)) {
            put1(s, IAC); put1(s, SE);
        }
        break;
    }
    case 15: put1(s, IAC); break;                      /* a lone IAC */
    case 16: put1(s, (int)rnd(256)); break;           /* any byte */
    case 17: /* a subnegotiation too long: the connection ends */
        if (rnd(8) == 0) {
            put1(s, IAC); put1(s, SB); put1(s, 31);
            for (int i = 0; i < TNFILTER_SB_MAX + 2; i++)
                put1(s, 'x');
        }
        break;
    default: /* the common case: a key, a few plain bytes */
        put1(s, "hjklyubn.\r"[rnd(10)]);
        break;
    }
}

static void make_stream(stream_t *s)
{
    s->n = 0;
    for (uint32_t i = 0, n = 4 + rnd(16); i < n; i++)
        put_token(s);
}

/* Random output: a frame's bytes, sometimes with a 255, sometimes none. */
static size_t make_output(unsigned char *b, size_t cap)
{
    size_t n = rnd(8) == 0 ? 0 : 1 + rnd((uint32_t)cap - 1);
    int with_iac = rnd(3) == 0;
    for (size_t i = 0; i < n; i++) {
        b[i] = rnd(4) ? (unsigned char)(' ' + rnd(95)) : (unsigned char)(128 + rnd(127));
        if (with_iac && rnd(20) == 0)
            b[i] = IAC;
    }
    return n;
}

/* After a stream: the same output through both, and the frame marker. */
static void send_both(void)
{
    unsigned char out[300];
    for (int i = 0; i < 3; i++) {
        size_t n = make_output(out, sizeof out);
        tconn_send(&fast_conn.tc, out, n);
        tconn_send(&slow_conn.tc, out, n);
        tconn_nop(&fast_conn.tc);
        tconn_nop(&slow_conn.tc);
        same_both("output");
    }
}

/* s fed in the pieces cut at cuts[0..ncuts) (ascending); with settle, the
 * negotiation is settled (the NEW-ENVIRON tap removed) after the first. */
static void run_case(const stream_t *s, const size_t *cuts, int ncuts, int settle)
{
    char what[64];
    open_both();
    same_both("start");
    size_t at = 0;
    for (int i = 0; i <= ncuts; i++) {
        size_t end = i < ncuts ? cuts[i] : s->n;
        feed_both(s->b + at, end - at);
        snprintf(what, sizeof what, "piece %d [%zu, %zu) of %zu", i, at, end, s->n);
        same_both(what);
        if (i == 0 && settle) {
            tconn_settle(&fast_conn.tc);
            tconn_settle(&slow_conn.tc);
        }
        at = end;
    }
    send_both();
    free_both();
}

START_TEST(test_random_streams_every_split)
{
    rng_state = 0x9e3779b97f4a7c15ull;
    int streams = soak_count(300, 20000);
    stream_t s;
    for (int k = 0; k < streams; k++) {
        make_stream(&s);
        /* in two, at every point (0 and n: one piece and an empty one) */
        for (size_t cut = 0; cut <= s.n; cut++)
            run_case(&s, &cut, 1, (int)(cut & 1));
        /* in many, at random points */
        for (int r = 0; r < 4; r++) {
            size_t cuts[16];
            int ncuts = 0;
            for (size_t at = 0; ncuts < 16 && s.n > 0;) {
                at += 1 + rnd(4);
                if (at >= s.n)
                    break;
                cuts[ncuts++] = at;
            }
            run_case(&s, cuts, ncuts, r & 1);
        }
    }
}
END_TEST

START_TEST(test_byte_at_a_time)
{
    /* Every piece one byte: each key alone takes the fast path between
     * commands, and every command goes byte by byte through libtelnet. */
    rng_state = 0x2545f4914f6cdd1dull;
    stream_t s;
    for (int k = 0; k < soak_count(300, 20000); k++) {
        make_stream(&s);
        size_t cuts[sizeof s.b];
        for (size_t i = 1; i < s.n; i++)
            cuts[i - 1] = i;
        run_case(&s, cuts, s.n > 0 ? (int)s.n - 1 : 0, k & 1);
    }
}
END_TEST

START_TEST(test_reads_longer_than_a_chunk)
{
    /* tconn_feed parses 4 KiB at a time: the fast path cuts the same
     * pieces, with the chunk boundary inside plain data and next to a
     * command. */
    static unsigned char big[10000];
    for (size_t at = 4090; at <= 4100; at++) {
        for (size_t i = 0; i < sizeof big; i++)
            big[i] = (unsigned char)('a' + i % 26);
        big[at] = IAC;
        big[at + 1] = 241; /* NOP */
        open_both();
        feed_both(big, sizeof big);
        same_both("10,000 bytes, one NOP");
        feed_both(big, 5000); /* after a command: plain again */
        same_both("5,000 more");
        free_both();
    }
}
END_TEST

/* --- the fast path really goes around libtelnet --------------------------- */

static int spy_events;

static void spy(telnet_t *tel, telnet_event_t *ev, void *user)
{
    (void)tel;
    (void)ev;
    (void)user;
    spy_events++;
}

static const telnet_telopt_t no_options[] = { { -1, 0, 0 } };

static int logged(const conn_t *c, const char *entry, size_t n)
{
    return c->loglen >= n && memcmp(c->log + c->loglen - n, entry, n) == 0;
}

START_TEST(test_plain_bytes_skip_libtelnet)
{
    conn_t *c = &fast_conn;
    open_conn(c, 0);
    static const char answers[] = "\xff\xfd\x01\xff\xfb\x1f\xff\xfa\x1f\0\x50\0\x18\xff\xf0";
    ck_assert_int_eq(tconn_feed(&c->tc, answers, sizeof answers - 1), 0);
    ck_assert_int_eq(c->tc.peer, 1);

    /* libtelnet's parser swapped for one that counts what reaches it */
    telnet_t *real = c->tc.telnet, *watch = telnet_init(no_options, spy, 0, NULL);
    ck_assert_ptr_nonnull(watch);
    c->tc.telnet = watch;
    spy_events = 0;
    ck_assert_int_eq(tconn_feed(&c->tc, "k", 1), 0);
    ck_assert(logged(c, "D\0\1k", 4));
    ck_assert_int_eq(tconn_feed(&c->tc, "\r\0", 2), 0); /* Enter: data too */
    ck_assert(logged(c, "D\0\2\r\0", 5));
    tconn_send(&c->tc, "\x1b[3;4H\xc2\xb7@", 9);
    ck_assert(logged(c, "S\0\x09\x1b[3;4H\xc2\xb7@", 12));
    tconn_nop(&c->tc);
    ck_assert(logged(c, "S\0\2\xff\xf1", 5));
    ck_assert_int_eq(spy_events, 0);

    /* a 255 goes through libtelnet, in and out */
    tconn_send(&c->tc, "a\xff", 2);
    ck_assert_int_eq(spy_events, 2); /* "a", then IAC IAC */
    ck_assert_int_eq(tconn_feed(&c->tc, "\xff", 1), 0);
    ck_assert_int_eq(spy_events, 2); /* the filter holds the IAC */
    ck_assert_int_eq(tconn_feed(&c->tc, "j", 1), 0); /* so this is its command */
    ck_assert_int_eq(spy_events, 3);
    ck_assert_int_eq(tconn_feed(&c->tc, "j", 1), 0); /* plain again */
    ck_assert_int_eq(spy_events, 3);
    ck_assert(logged(c, "D\0\1j", 4));

    c->tc.telnet = real;
    telnet_free(watch);
    tconn_free(&c->tc);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("telnet_fast");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_plain_bytes_skip_libtelnet);
    tcase_add_test(tc, test_reads_longer_than_a_chunk);
    tcase_add_test(tc, test_byte_at_a_time);
    tcase_add_test(tc, test_random_streams_every_split);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
