/* tnfilter.c - drop the subnegotiations libtelnet 0.21 mishandles and cap
 * the length of every other one, before libtelnet parses the bytes; see
 * tnfilter.h for which and why.
 *
 * The state machine mirrors libtelnet 0.21's _process() so that both agree on
 * every subnegotiation boundary. A subnegotiation that is dropped leaves no
 * trace, with one case to take care of: libtelnet ends a subnegotiation at
 * "IAC <anything but SE or IAC>", so "IAC SB 31 ... IAC SB 70 ..." is a NAWS
 * subnegotiation cut short by an MSSP one. We pass the NAWS part and drop the
 * MSSP part; libtelnet is then still inside the NAWS subnegotiation (`open`),
 * and the IAC SE (or IAC <command>) that ends the dropped one is passed on to
 * end it, so both parsers are back in step. Every output byte stands for an
 * input byte, which is what bounds the output by len + 2. */
#include "tnfilter.h"

#include <limits.h>
#include <string.h>

#define IAC 255
#define DONT 254
#define DO 253
#define WONT 252
#define WILL 251
#define SB 250
#define SE 240


enum {
    TF_DATA = TNFILTER_PLAIN, /* plain data */
    TF_IAC,      /* IAC held back */
    TF_NEG,      /* IAC WILL/DO passed: an option byte follows */
    TF_REFUSAL,  /* IAC WONT passed: an option byte follows */
    TF_REFUSAL_DONT, /* IAC DONT passed: an option byte follows */
    TF_SB,       /* IAC SB held back: the option byte decides */
    TF_SB_DATA,  /* inside a subnegotiation */
    TF_SB_IAC    /* IAC inside a subnegotiation (held back, or dropped) */
};

/* 1 for the options whose subnegotiations never reach libtelnet: those it
 * parses itself (all but TTYPE); see tnfilter.h. */
static int dropped_option(unsigned char opt)
{
    switch (opt) {
    case 36: /* ENVIRON */
    case 39: /* NEW-ENVIRON */
    case 70: /* MSSP */
    case 86: /* COMPRESS2 */
    case 93: /* ZMP */
        return 1;
    default:
        return 0;
    }
}

void tnfilter_init(tnfilter_t *f)
{
    memset(f, 0, sizeof *f);
    f->state = TF_DATA;
}

void tnfilter_set_tap(tnfilter_t *f, tnfilter_tap_t *tap)
{
    f->tap = tap;
    if (!tap && f->drop == 2)
        f->drop = 1; /* dropped still, no longer collected */
}

/* A data byte of a dropped subnegotiation, for the tap if it is its. The
 * caller has counted it in sb_len (at most TNFILTER_SB_MAX): it fits. */
static void tap_byte(tnfilter_t *f, unsigned char b)
{
    if (f->drop == 2)
        f->tap->buf[f->sb_len - 1] = b;
}

/* "IAC cmd" with cmd neither SB nor (inside a subnegotiation) SE or IAC:
 * passes both bytes and moves on as libtelnet does. */
static size_t pass_command(tnfilter_t *f, unsigned char cmd, unsigned char *out)
{
    out[0] = IAC;
    out[1] = cmd;
    f->state = cmd == WONT ? TF_REFUSAL : cmd == DONT ? TF_REFUSAL_DONT
               : (cmd == WILL || cmd == DO) ? TF_NEG : TF_DATA;
    return 2;
}

/* The byte after an IAC inside a subnegotiation: an escaped 255, its
 * end (SE), a new one (SB), or a command that ends it. Returns the bytes
 * written to out, or -1 (the subnegotiation is too long: failed). */
static long sb_iac(tnfilter_t *f, unsigned char b, unsigned char *out)
{
    size_t o = 0;
    if (b == IAC) { /* an escaped 255 in the data */
        if (++f->sb_len > TNFILTER_SB_MAX) {
            f->failed = 1;
            return -1;
        }
        if (!f->drop) {
            out[o++] = IAC;
            out[o++] = IAC;
        } else {
            tap_byte(f, IAC);
        }
        f->state = TF_SB_DATA;
    } else if (b == SE) {
        /* The end. After a dropped one it also ends the passed
         * subnegotiation that libtelnet may still be inside. */
        if (f->open) {
            out[o++] = IAC;
            out[o++] = SE;
        }
        if (f->drop == 2)
            f->tap->fn(f->tap->ctx, f->tap->buf, f->sb_len);
        f->open = 0;
        f->drop = 0;
        f->state = TF_DATA;
    } else if (b == SB) {
        /* A new subnegotiation ends this one; its option decides
         * (libtelnet stays inside this one until it sees bytes). */
        f->drop = 0;
        f->state = TF_SB;
    } else {
        /* IAC <command> ends it, and is a command. */
        f->open = 0;
        f->drop = 0;
        o += pass_command(f, b, out);
    }
    return (long)o;
}

long tnfilter_feed(tnfilter_t *f, const unsigned char *in, size_t len,
                   unsigned char *out, size_t outcap)
{
    size_t o = 0;

    if (len > (size_t)LONG_MAX - TNFILTER_HELD_MAX ||
        outcap < len + TNFILTER_HELD_MAX)
        f->failed = 1; /* a caller's bug: fail safe, never write past out */
    if (f->failed)
        return -1;

    for (size_t i = 0; i < len; i++) {
        unsigned char b = in[i];
        switch (f->state) {
        case TF_DATA:
            if (b == IAC)
                f->state = TF_IAC;
            else
                out[o++] = b;
            break;

        case TF_IAC:
            if (b == SB)
                f->state = TF_SB;
            else
                o += pass_command(f, b, out + o); /* IAC IAC passes as is */
            break;

        case TF_NEG:
            out[o++] = b; /* the option byte, whatever its value */
            f->state = TF_DATA;
            break;

        case TF_REFUSAL:
        case TF_REFUSAL_DONT:
            out[o++] = b; /* as TF_NEG's, and told */
            if (f->tap && f->tap->refused)
                f->tap->refused(f->tap->ctx,
                                f->state == TF_REFUSAL ? WONT : DONT, b);
            f->state = TF_DATA;
            break;

        case TF_SB:
            f->sb_len = 0;
            f->state = TF_SB_DATA;
            if (dropped_option(b)) {
                f->drop = f->tap && b == f->tap->opt ? 2 : 1;
            } else {
                f->drop = 0;
                f->open = 1;
                out[o++] = IAC;
                out[o++] = SB;
                out[o++] = b;
            }
            break;

        case TF_SB_DATA:
            if (b == IAC) {
                f->state = TF_SB_IAC;
                break;
            }
            if (++f->sb_len > TNFILTER_SB_MAX) {
                f->failed = 1;
                return -1;
            }
            if (!f->drop)
                out[o++] = b;
            else
                tap_byte(f, b);
            break;

        case TF_SB_IAC: {
            long n = sb_iac(f, b, out + o);
            if (n < 0)
                return -1;
            o += (size_t)n;
            break;
        }

        default:
            f->failed = 1;
            return -1;
        }
    }
    return (long)o;
}
