/* keydec.c - client bytes to key events; see keydec.h for the whole mapping.
 *
 * One byte at a time through a small state machine, so that where the bytes
 * were split between reads can never change the result: every decision is
 * made on a byte, or on the timer, never on the end of a buffer. */
#include "keydec.h"

#include <string.h>

/* What the next byte means. */
enum {
    KD_GROUND = 0, /* a key, or the start of a sequence or of UTF-8 */
    KD_ESC,        /* ESC held */
    KD_CSI,        /* ESC [ and parameter bytes held */
    KD_SS3,        /* ESC O and parameter bytes held */
    KD_LINUX,      /* ESC [ [ held: one of A..E follows (Linux console F1-F5) */
    KD_X10,        /* ESC [ M held: three raw report bytes follow */
    KD_DISCARD     /* eating the rest of an over-long sequence */
};

#define ESC 0x1b

/* The most parameters of a CSI looked at; more are counted but not kept. */
#define MAX_PARAMS 8
/* Parameter values saturate here: no overflow from a run of digits. */
#define PARAM_CAP 100000

static void emit_ev(keydec_emit_fn emit, void *ctx, int key, int x, int y,
                    int button, int release)
{
    keyev_t ev;
    ev.key = key;
    ev.x = x;
    ev.y = y;
    ev.button = button;
    ev.release = release;
    emit(ctx, &ev);
}

static void emit_key(keydec_emit_fn emit, void *ctx, int key)
{
    emit_ev(emit, ctx, key, 0, 0, 0, 0);
}

static void reset_seq(keydec_t *d)
{
    d->seqlen = 0;
    d->state = KD_GROUND;
}

/* Gives up the held sequence (timer, or a byte that cannot continue it):
 * ESC -> Esc; ESC [ / ESC O -> Esc and that character (what a person typing
 * Esc then a key, or Alt-[, sends); anything longer was a real sequence cut
 * short and is dropped, so its digits never become game commands. */
static void give_up(keydec_t *d, keydec_emit_fn emit, void *ctx)
{
    int st = d->state;
    unsigned char second = d->seqlen >= 2 ? d->seq[1] : 0;
    int n = d->seqlen;
    reset_seq(d);
    if (st == KD_ESC) {
        emit_key(emit, ctx, KEY_ESC);
    } else if ((st == KD_CSI || st == KD_SS3) && n == 2) {
        emit_key(emit, ctx, KEY_ESC);
        emit_key(emit, ctx, second);
    } else if (st != KD_DISCARD) {
        d->dropped++;
    }
}

/* Appends b to the held sequence; past KEYDEC_SEQ_MAX the sequence is given
 * up silently and the rest of it eaten (KD_DISCARD). */
static void hold(keydec_t *d, unsigned char b)
{
    if (d->seqlen >= KEYDEC_SEQ_MAX) {
        d->seqlen = 0;
        d->state = KD_DISCARD;
        d->dropped++;
        return;
    }
    d->seq[d->seqlen++] = b;
}

/* Parses CSI parameter bytes "n;n;n" (':' also separates). Returns the number
 * of parameters (an empty one is -1), or -1 when there is anything else in
 * them (intermediate bytes, a private marker past the start). */
static int parse_params(const unsigned char *p, size_t n, int *v)
{
    int np = 0;
    long cur = -1;
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c >= '0' && c <= '9') {
            cur = cur < 0 ? 0 : cur;
            cur = cur * 10 + (c - '0');
            if (cur > PARAM_CAP)
                cur = PARAM_CAP;
        } else if (c == ';' || c == ':') {
            if (np < MAX_PARAMS)
                v[np] = (int)cur;
            np++;
            cur = -1;
        } else {
            return -1;
        }
    }
    if (np < MAX_PARAMS)
        v[np] = (int)cur;
    return np + 1;
}

/* The key for ESC [ n ~, or 0. */
static int tilde_key(int n)
{
    switch (n) {
    case 1: case 7: return KEY_HOME;
    case 4: case 8: return KEY_END;
    case 2: return KEY_INSERT;
    case 3: return KEY_DELETE;
    case 5: return KEY_PGUP;
    case 6: return KEY_PGDN;
    case 11: case 12: case 13: case 14: case 15: return KEY_F1 + (n - 11);
    case 17: case 18: case 19: case 20: case 21: return KEY_F6 + (n - 17);
    case 23: case 24: return KEY_F11 + (n - 23);
    case 200: return KEY_PASTE_BEGIN;
    case 201: return KEY_PASTE_END;
    default: return 0;
    }
}

/* A complete CSI: seq = ESC [ params..., final byte f. Emits its key, or
 * nothing for a sequence that is not a key we know. */
static void csi_done(keydec_t *d, unsigned char f, keydec_emit_fn emit,
                     void *ctx)
{
    const unsigned char *p = d->seq + 2;
    size_t n = d->seqlen - 2u;
    unsigned char marker = 0;
    int v[MAX_PARAMS];
    int np;
    int key = 0;

    if (n > 0 && p[0] >= 0x3c && p[0] <= 0x3f) { /* < = > ? */
        marker = p[0];
        p++;
        n--;
    }
    np = parse_params(p, n, v);
    reset_seq(d);
    if (np < 0) {
        d->dropped++;
        return;
    }

    if (marker == '<') {
        /* SGR mouse: ESC [ < b ; x ; y M (press, motion) or m (release). */
        if ((f == 'M' || f == 'm') && np == 3 && v[0] >= 0 && v[1] >= 1 &&
            v[2] >= 1)
            emit_ev(emit, ctx, KEY_MOUSE, v[1] - 1, v[2] - 1, v[0], f == 'm');
        else
            d->dropped++;
        return;
    }
    if (marker) {
        d->dropped++;
        return; /* ESC[?...: terminal replies, not keys */
    }

    switch (f) {
    case 'A': key = KEY_UP; break;
    case 'B': key = KEY_DOWN; break;
    case 'C': key = KEY_RIGHT; break;
    case 'D': key = KEY_LEFT; break;
    case 'H': key = KEY_HOME; break;
    case 'F': key = KEY_END; break;
    case 'E': key = '5'; break; /* the keypad's 5 without Num Lock (its
                                   Begin): wait, as its digit does */
    case 'G': /* the Linux console's keypad 5 (its terminfo kb2), bare */
        if (np == 0)
            key = '5';
        break;
    case 'P': key = KEY_F1; break;
    case 'Q': key = KEY_F2; break;
    case 'S': key = KEY_F4; break;
    case 'R':
        if (d->expect_cpr) {
            if (np == 2 && v[0] >= 1 && v[1] >= 1)
                emit_ev(emit, ctx, KEY_CPR, v[1] - 1, v[0] - 1, 0, 0);
            return;
        }
        /* ESC[R, ESC[1;mR: F3 with modifiers; another row is a stray
         * cursor report. */
        if (np == 0 || v[0] <= 1)
            key = KEY_F3;
        break;
    case '~':
        if (np >= 1 && v[0] >= 0)
            key = tilde_key(v[0]);
        break;
    default:
        break;
    }
    if (key)
        emit_key(emit, ctx, key);
    else
        d->dropped++;
}

/* A complete SS3 (ESC O, optional modifier digits, final f). */
static void ss3_done(keydec_t *d, unsigned char f, keydec_emit_fn emit,
                     void *ctx)
{
    static const char keypad[] = "*+,-./"; /* ESC O j..o */
    int key = 0;
    reset_seq(d);
    if (f >= 'A' && f <= 'D')
        key = KEY_UP + (f - 'A');
    else if (f == 'H')
        key = KEY_HOME;
    else if (f == 'F')
        key = KEY_END;
    else if (f == 'E')
        key = '5'; /* the keypad's 5 without Num Lock, as CSI E */
    else if (f >= 'P' && f <= 'S')
        key = KEY_F1 + (f - 'P');
    else if (f == 'M')
        key = KEY_ENTER;
    else if (f >= 'p' && f <= 'y')
        key = '0' + (f - 'p');
    else if (f >= 'j' && f <= 'o')
        key = keypad[f - 'j'];
    else if (f == 'X')
        key = '=';
    else if (f == 'I')
        key = '\t';
    if (key)
        emit_key(emit, ctx, key);
    else
        d->dropped++;
}

/* X10 mouse: ESC [ M then button+32, column+33, row+33 as raw bytes. */
static void x10_done(keydec_t *d, keydec_emit_fn emit, void *ctx)
{
    int b = d->seq[3] - 32, x = d->seq[4] - 33, y = d->seq[5] - 33;
    reset_seq(d);
    if (b < 0 || x < 0 || y < 0)
        return;
    emit_ev(emit, ctx, KEY_MOUSE, x, y, b, (b & 3) == 3 && !(b & 64));
}

/* A byte outside any escape sequence. */
static void ground(keydec_t *d, unsigned char b, keydec_emit_fn emit,
                   void *ctx)
{
    if (d->utf8_need) {
        if (b >= d->utf8_lo && b <= d->utf8_hi) {
            d->utf8_cp = (d->utf8_cp << 6) | (b & 0x3fu);
            d->utf8_lo = 0x80;
            d->utf8_hi = 0xbf;
            if (--d->utf8_need == 0 && d->utf8_cp >= 0xa0)
                emit_key(emit, ctx, (int)d->utf8_cp); /* C1 controls dropped */
            else if (d->utf8_need == 0)
                d->dropped++;
            return;
        }
        d->utf8_need = 0; /* invalid: drop what was held, decode b afresh */
        d->dropped++;
    }
    if (d->after_cr) {
        d->after_cr = 0;
        if (b == 0x00 || b == 0x0a)
            return; /* the second half of CR NUL / CR LF */
    }
    if (b == ESC) {
        d->seq[0] = ESC;
        d->seqlen = 1;
        d->state = KD_ESC;
    } else if (b == 0x0d) {
        emit_key(emit, ctx, KEY_ENTER);
        d->after_cr = 1;
    } else if (b == 0x0a) {
        emit_key(emit, ctx, KEY_ENTER);
    } else if (b == 0x00) {
        /* ignored */
    } else if (b == 0x7f || b == 0x08) {
        emit_key(emit, ctx, KEY_BACKSPACE);
    } else if (b < 0x80) {
        emit_key(emit, ctx, b); /* printable, or a control code (03 Ctrl-C) */
    } else if (b >= 0xc2 && b <= 0xf4) {
        /* A UTF-8 lead byte: remember how many continuation bytes follow
         * and the range the first one must be in, which rules out overlong
         * forms, surrogates and code points past U+10FFFF. */
        d->utf8_lo = 0x80;
        d->utf8_hi = 0xbf;
        if (b < 0xe0) {
            d->utf8_need = 1;
            d->utf8_cp = b & 0x1fu;
        } else if (b < 0xf0) {
            d->utf8_need = 2;
            d->utf8_cp = b & 0x0fu;
            if (b == 0xe0)
                d->utf8_lo = 0xa0;
            else if (b == 0xed)
                d->utf8_hi = 0x9f;
        } else {
            d->utf8_need = 3;
            d->utf8_cp = b & 0x07u;
            if (b == 0xf0)
                d->utf8_lo = 0x90;
            else if (b == 0xf4)
                d->utf8_hi = 0x8f;
        }
    } else {
        d->dropped++; /* a lone continuation byte, c0, c1 or f5..ff */
    }
}

/* One byte through the state machine. */
static void step(keydec_t *d, unsigned char b, keydec_emit_fn emit, void *ctx)
{
    switch (d->state) {
    case KD_GROUND:
        ground(d, b, emit, ctx);
        return;

    case KD_ESC:
        if (b == '[') {
            hold(d, b);
            d->state = KD_CSI;
        } else if (b == 'O') {
            hold(d, b);
            d->state = KD_SS3;
        } else {
            /* Esc, then this byte as usual (ESC ESC: Esc, and hold anew). */
            reset_seq(d);
            emit_key(emit, ctx, KEY_ESC);
            ground(d, b, emit, ctx);
        }
        return;

    case KD_CSI:
        if (b >= 0x20 && b <= 0x3f) {
            hold(d, b);
        } else if (b >= 0x40 && b <= 0x7e) {
            if (d->seqlen == 2 && b == '[') {
                hold(d, b);
                d->state = KD_LINUX;
            } else if (d->seqlen == 2 && b == 'M') {
                hold(d, b);
                d->state = KD_X10;
            } else {
                csi_done(d, b, emit, ctx);
            }
        } else {
            give_up(d, emit, ctx);
            ground(d, b, emit, ctx);
        }
        return;

    case KD_SS3:
        if (b >= 0x30 && b <= 0x3f) {
            hold(d, b); /* modifiers, as in old xterms' ESC O 5 A */
        } else if (b >= 0x40 && b <= 0x7e) {
            ss3_done(d, b, emit, ctx);
        } else {
            give_up(d, emit, ctx);
            ground(d, b, emit, ctx);
        }
        return;

    case KD_LINUX:
        if (b >= 'A' && b <= 'E') {
            reset_seq(d);
            emit_key(emit, ctx, KEY_F1 + (b - 'A'));
        } else if (b >= 0x40 && b <= 0x7e) {
            reset_seq(d); /* some other ESC [ [ x: not a key */
            d->dropped++;
        } else {
            give_up(d, emit, ctx);
            ground(d, b, emit, ctx);
        }
        return;

    case KD_X10:
        hold(d, b); /* raw bytes, any value; seqlen stays <= 6 */
        if (d->seqlen == 6)
            x10_done(d, emit, ctx);
        return;

    case KD_DISCARD:
        if (b >= 0x20 && b <= 0x3f)
            return;
        reset_seq(d);
        if (b < 0x40 || b > 0x7e)
            ground(d, b, emit, ctx); /* not part of it: a key again */
        return;

    default:
        reset_seq(d);
        return;
    }
}

void keydec_init(keydec_t *d)
{
    memset(d, 0, sizeof *d);
    d->state = KD_GROUND;
}

void keydec_feed(keydec_t *d, const void *buf, size_t len,
                 keydec_emit_fn emit, void *ctx)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < len; i++)
        step(d, p[i], emit, ctx);
}

int keydec_pending(const keydec_t *d)
{
    return d->state != KD_GROUND;
}

void keydec_timeout(keydec_t *d, keydec_emit_fn emit, void *ctx)
{
    if (d->state != KD_GROUND)
        give_up(d, emit, ctx);
}

void keydec_expect_cpr(keydec_t *d, int on)
{
    d->expect_cpr = on != 0;
}
