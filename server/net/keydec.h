/* keydec.h - the key decoder: the bytes a telnet client types (after
 * libtelnet has removed the telnet commands) in, key events out.
 *
 * No I/O, no globals, no allocation: all state is in keydec_t, and it is
 * bounded (an escape sequence is held up to KEYDEC_SEQ_MAX bytes, never more),
 * so a client cannot make a session's decoder grow. The output depends only on
 * the byte stream and on when keydec_timeout is called, never on how the bytes
 * were split across keydec_feed calls.
 *
 * What each input decodes to (docs/telnet.md, keys):
 *   0d                  KEY_ENTER at once; one 00 or 0a right after it (even
 *                       in a later feed) is swallowed
 *   0a (not after 0d)   KEY_ENTER
 *   00                  ignored
 *   7f, 08              KEY_BACKSPACE
 *   03                  KEY_CTRL_C
 *   other 01..1f        that control code as the key (09 is Tab, ...)
 *   20..7e              that character
 *   UTF-8 (>= 80)       the code point, decoded across feeds; an invalid or
 *                       overlong sequence, a surrogate, a C1 control (U+0080
 *                       ..U+009F) or a lone continuation byte is dropped (no
 *                       U+FFFD: a replacement character is no use as a key)
 *   ESC [ A..D, ESC O A..D            KEY_UP, KEY_DOWN, KEY_RIGHT, KEY_LEFT
 *                                     (modifier params as in ESC[1;5A ignored)
 *   ESC [ H / F, ESC O H / F          KEY_HOME / KEY_END
 *   ESC [ n ~           1,7 Home; 4,8 End; 2 Ins; 3 Del; 5 PgUp; 6 PgDn;
 *                       11-15 F1-F5; 17-21 F6-F10; 23,24 F11,F12;
 *                       200, 201 KEY_PASTE_BEGIN, KEY_PASTE_END (bracketed
 *                       paste's marks, around what was pasted); else dropped
 *   ESC O P..S, ESC [ 1;m P..S        F1-F4
 *   ESC [ [ A..E        F1-F5 (Linux console, PuTTY "Linux" function keys)
 *   ESC O p..y          keypad '0'..'9'; ESC O j..o '*' '+' ',' '-' '.' '/';
 *                       ESC O X '='; ESC O M KEY_ENTER
 *   ESC [ < b ; x ; y M/m   KEY_MOUSE (SGR 1006 report), see keyev_t
 *   ESC [ M b x y       KEY_MOUSE (X10 encoding, if a terminal that lacks
 *                       1006 answers ?1000h that way; x, y, b raw bytes)
 *   ESC [ r ; c R       KEY_CPR while keydec_expect_cpr is on; otherwise
 *                       ESC[1;mR is F3 (Shift-F3 = ESC[1;2R), other rows dropped
 *   ESC + a byte that cannot start a sequence
 *                       KEY_ESC, then that byte decoded as usual (ESC ESC is
 *                       KEY_ESC then a new ESC held)
 *   any other complete sequence (unknown final byte, intermediates, private
 *   markers on a non-mouse final): dropped whole, no key.
 *
 * A sequence that is cut short - the timer fired (keydec_timeout) or a byte
 * came that cannot continue it (a control code, ESC, >= 80) - is given up:
 *   ESC alone          -> KEY_ESC
 *   ESC [ or ESC O     -> KEY_ESC then '[' or 'O' (Esc then a key, or Alt-[ /
 *                         Alt-O, which terminals send as these bytes)
 *   anything longer    -> dropped whole: it was a real sequence cut short,
 *                         and its digits must not turn into game commands
 * and then the interrupting byte, if any, is decoded as usual.
 *
 * A sequence longer than KEYDEC_SEQ_MAX bytes is dropped whole: the decoder
 * stops holding it and eats its remaining parameter bytes up to and including
 * its final byte (or until a byte that cannot be part of it, which is then
 * decoded as usual, or until keydec_timeout). It emits nothing. */
#ifndef ROGUE_KEYDEC_H
#define ROGUE_KEYDEC_H

#include <stddef.h>

#include "keys.h"

/* The longest escape sequence held, ESC included. Real key and mouse reports
 * are under 20 bytes. */
#define KEYDEC_SEQ_MAX 32

/* One decoded key.
 * key: a code point or KEY_* (common/keys.h).
 * KEY_MOUSE: x, y are the 0-based column and row; button is the report's
 *   button code as the terminal sent it: low 2 bits 0 left, 1 middle,
 *   2 right (3 "released" in X10 encoding); +4 Shift, +8 Meta, +16 Ctrl,
 *   +32 motion, +64 wheel (64 up, 65 down); release is 1 for a button
 *   release (SGR final 'm', or X10 code 3), else 0.
 * KEY_CPR: x, y are the 0-based cursor column and row, so a reply to
 *   ESC[999;999H ESC[6n gives the terminal size as x + 1 by y + 1.
 * Other keys: x, y, button, release are 0. */
typedef struct keyev {
    int key;
    int x, y;
    int button;
    int release;
} keyev_t;

/* The decoder's state. Treat as opaque; one per session. */
typedef struct keydec {
    unsigned char seq[KEYDEC_SEQ_MAX]; /* held escape sequence, seq[0] = ESC */
    unsigned char seqlen;              /* bytes in seq */
    unsigned char state;               /* internal: what the next byte means */
    unsigned char after_cr;            /* swallow one 00 or 0a next */
    unsigned char expect_cpr;          /* ESC[r;cR is a cursor report */
    unsigned char utf8_need;           /* continuation bytes still to come */
    unsigned char utf8_lo, utf8_hi;    /* allowed range of the next one */
    unsigned int utf8_cp;              /* code point so far */
    unsigned int dropped;              /* counts what was dropped without a
                                          key (an unknown or cut-short
                                          sequence, a bad UTF-8 byte): a
                                          prompt refuses a line typed with
                                          one rather than take it altered */
} keydec_t;

/* Receives each decoded key. ev is valid only during the call. The callback
 * may call keydec_expect_cpr on the decoder, but not keydec_feed or
 * keydec_timeout on it. */
typedef void (*keydec_emit_fn)(void *ctx, const keyev_t *ev);

/* Sets d to the start state: nothing held, cursor reports not expected. */
void keydec_init(keydec_t *d);

/* Decodes len bytes of client input, calling emit(ctx, ev) for each key in
 * order. Bytes that end in the middle of a sequence or a UTF-8 character
 * are held for the next call. buf may be NULL when len is 0. */
void keydec_feed(keydec_t *d, const void *buf, size_t len,
                 keydec_emit_fn emit, void *ctx);

/* 1 while an incomplete escape sequence is held (a lone ESC included), else 0.
 * After each keydec_feed the caller (re)arms a ~100 ms timer while this is 1
 * and calls keydec_timeout when it fires: that is how a lone Esc key press
 * becomes KEY_ESC. A partial UTF-8 character does not count: the next byte
 * resolves it. */
int keydec_pending(const keydec_t *d);

/* The timer fired: gives up the held sequence as described at the top of
 * this file (a lone ESC becomes KEY_ESC). Does nothing if none is held. */
void keydec_timeout(keydec_t *d, keydec_emit_fn emit, void *ctx);

/* on != 0: a cursor position report (ESC [ row ; col R) is expected, so that
 * shape decodes to KEY_CPR; on == 0 (the default): it is Shift/Ctrl-F3 or
 * dropped. The server turns it on when it sends ESC[6n and off when the
 * report has arrived or its wait is over. */
void keydec_expect_cpr(keydec_t *d, int on);

#endif
