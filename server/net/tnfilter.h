/* tnfilter.h - a filter on the raw socket bytes, run before libtelnet sees
 * them, for libtelnet 0.21 bugs (docs/telnet.md, "libtelnet 0.21: the
 * pitfalls and what we do", and what was found while fuzzing it).
 * libtelnet parses the subnegotiations of options nobody agreed to, so
 * any client can reach these:
 *
 *  - MSSP (70): its parser reads one byte past its heap buffer.
 *  - ENVIRON (36), NEW-ENVIRON (39): after one that parses, libtelnet
 *    re-enters itself (telnet_recv on the rest of the buffer, a frame of
 *    over 4 KiB each): about 7000 of them in one 64 KiB read overflow the
 *    stack and crash the whole server (measured: SIGSEGV at 7000 with an
 *    8 MiB stack). And when one is ended by IAC <command> instead of IAC SE,
 *    libtelnet skips the command byte, so it no longer reads the stream as
 *    we do: "IAC SB 39 0 IAC x SB 70 ..." would smuggle an MSSP through.
 *  - COMPRESS2 (86): Debian builds it with zlib, and IAC SB 86 IAC SE from
 *    the client makes it inflate everything the client sends afterwards;
 *    this filter would then see compressed bytes while libtelnet parsed what
 *    they inflate to (an MSSP could get through that way too). Same
 *    re-entry as above.
 *  - ZMP (93): parsed too; no bug seen, but we never use it.
 * So every subnegotiation of those options is dropped whole, before
 * libtelnet. The only option libtelnet still parses itself is TTYPE, which
 * the server needs (its parser was checked: no re-entry, no skipped byte).
 * And a subnegotiation may grow to 16384 bytes and then spill into the data
 * as keystrokes: here one longer than TNFILTER_SB_MAX bytes is an error and
 * the session closes.
 *
 * Everything else passes unchanged, byte for byte. The filter follows the
 * byte stream exactly as libtelnet 0.21's parser does (the byte after IAC
 * WILL/WONT/DO/DONT/SB is an option whatever it is, even 255; IAC IAC inside
 * a subnegotiation is one data byte; IAC followed by anything but SE or IAC
 * inside a subnegotiation ends it and is a command), so the two never
 * disagree on where a subnegotiation starts or ends, however the bytes are
 * split between reads. No I/O, no allocation; the state is a few bytes. */
#ifndef ROGUE_TNFILTER_H
#define ROGUE_TNFILTER_H

#include <stddef.h>

/* The most data bytes (after un-escaping IAC IAC, option byte not counted)
 * a subnegotiation may carry. NAWS is 4, a TTYPE answer a few dozen. */
#define TNFILTER_SB_MAX 512

/* Held bytes released at the start of a call: out needs len + this. */
#define TNFILTER_HELD_MAX 2

/* A tap: the data of one dropped option's subnegotiations, for a parser
 * of our own (NEW-ENVIRON, telnet_conn.c). Each one ended by IAC SE is
 * handed over whole (IAC IAC undone, at most TNFILTER_SB_MAX bytes), during
 * tnfilter_feed; one cut short by another command is not. The caller owns
 * it (the filter keeps one pointer: memory per session is a target). */
typedef struct tnfilter_tap {
    unsigned char opt;     /* the option tapped (one of those dropped) */
    void (*fn)(void *ctx, const unsigned char *data, size_t len);
    /* Every WONT and DONT the client sends (cmd 252 or 254, and its
     * option) as it passes, NULL: none. libtelnet 0.21 raises no event
     * for a refusal of what we asked (docs/telnet.md, pitfall 2): this is
     * how the server learns of one at once. */
    void (*refused)(void *ctx, unsigned char cmd, unsigned char opt);
    void *ctx;
    unsigned char buf[TNFILTER_SB_MAX]; /* the subnegotiation collected */
} tnfilter_tap_t;

typedef struct tnfilter {
    unsigned char state;   /* internal: where in the telnet syntax we are */
    unsigned char drop;    /* the current subnegotiation is being dropped
                              (2: and collected for the tap) */
    unsigned char open;    /* libtelnet is inside a subnegotiation we passed
                              and have not yet passed the end of */
    unsigned char failed;  /* a subnegotiation was too long: -1 for good */
    unsigned int sb_len;   /* data bytes in the current subnegotiation */
    tnfilter_tap_t *tap;   /* NULL: none */
} tnfilter_t;

/* The state between telnet commands (tnfilter.c's TF_DATA). */
#define TNFILTER_PLAIN 0

/* 1 when the filter is between telnet commands: nothing held back, no
 * command or subnegotiation under way, not failed. A chunk without a 255
 * byte then passes unchanged and leaves this so; and libtelnet, which the
 * filter follows byte for byte, is in its data state too, where such a
 * chunk is one DATA event (telnet_conn.c's fast path: docs/telnet.md). */
static inline int tnfilter_plain(const tnfilter_t *f)
{
    return f->state == TNFILTER_PLAIN && !f->open && !f->failed;
}

/* Sets f to the start of a connection. */
void tnfilter_init(tnfilter_t *f);

/* Taps tap->opt (one of the options dropped: NEW-ENVIRON): tap->fn gets
 * the data of each of its subnegotiations, collected in tap->buf, and
 * tap->refused each WONT and DONT. tap (the caller's) must outlive its
 * use; NULL removes it. */
void tnfilter_set_tap(tnfilter_t *f, tnfilter_tap_t *tap);

/* Filters in[0..len) into out. The output is never longer than len +
 * TNFILTER_HELD_MAX (an IAC or IAC SB held back at the end of the previous
 * call, to see which option follows, is released now), and outcap must be at
 * least that. Returns the number of bytes written to out, to be given to
 * telnet_recv; or -1 when a subnegotiation has passed TNFILTER_SB_MAX bytes
 * (or outcap is too small): the session must close. After -1 every later
 * call returns -1 too. */
long tnfilter_feed(tnfilter_t *f, const unsigned char *in, size_t len,
                   unsigned char *out, size_t outcap);

#endif
