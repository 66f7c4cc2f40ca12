/* telnet_conn.h - one client's telnet: the bytes it sends in; its data
 * (what the key decoder reads), our answers and what it learned out.
 *
 * No libuv, no clock, no sockets: the session hands it every byte read and
 * gets callbacks, all within the call. The same module is driven directly
 * by the unit tests and the fuzzers, so what they test is what serves.
 *
 * What it does (docs/telnet.md has the why of each):
 *  - runs every byte through tnfilter first (libtelnet 0.21 bugs: MSSP,
 *    ENVIRON, NEW-ENVIRON, COMPRESS2 and ZMP subnegotiations dropped whole;
 *    a subnegotiation over TNFILTER_SB_MAX bytes is an error);
 *  - negotiates: we WILL ECHO and SGA, we ask the client to DO NAWS and
 *    TTYPE, accept NEW-ENVIRON when the client offers it, and refuse every
 *    other option;
 *  - reads the window size (NAWS, clamped to max_cols x max_rows; 0 or a
 *    malformed report keeps the old size), the terminal's names (TTYPE:
 *    asked until a name repeats, at most TCONN_TTYPES_MAX rounds, every
 *    name kept; MTTS bits among them) and, from a client that offered
 *    NEW-ENVIRON, the variables TERM, COLORTERM, LANG, LC_ALL, LC_CTYPE
 *    and CHARSET (our own bounded parser: libtelnet's never sees them);
 *  - says what the client can show (tconn_display: docs/telnet.md, "What
 *    the client can show"); what it learns for that is kept on the heap
 *    only until tconn_settle (memory per session is a target);
 *  - turns IAC EC and IAC IP into the keys Backspace and Ctrl-C;
 *  - takes a fast path around libtelnet for what steady play sends: a
 *    chunk of client data with no 255 byte while no command is under way
 *    goes straight to the data callback, and output with no 255 straight
 *    to the send callback; the same calls with the same bytes as through
 *    libtelnet (docs/telnet.md, "The fast path");
 *  - ends the connection (tconn_feed returns -1, `error` says why) on a
 *    protocol error or an oversized subnegotiation; after that no more data
 *    is passed on: libtelnet would hand the rest of an oversized
 *    subnegotiation over as keystrokes. */
#ifndef ROGUE_TELNET_CONN_H
#define ROGUE_TELNET_CONN_H

#include <stddef.h> /* libtelnet.h uses size_t without including it */
#include <libtelnet.h>
#include <stdint.h>

#include "display.h"
#include "tnfilter.h"
#include "transport.h"

/* TTYPE rounds asked at most, and the names kept (one per round). */
#define TCONN_TTYPES_MAX 8
#define TCONN_NAME_MAX 40   /* a name's room, its NUL included */
#define TCONN_ENV_MAX 48    /* a NEW-ENVIRON value's room, NUL included */

/* What the client says it can do, while the negotiation lasts. Every
 * string is printable ASCII, NUL-ended, "" when not said. */
typedef struct tconn_caps {
    char ttypes[TCONN_TTYPES_MAX][TCONN_NAME_MAX]; /* every TTYPE answer,
                                  in order, spaces kept ("MTTS 2825") */
    uint8_t nttypes;
    char env_term[TCONN_ENV_MAX], env_colorterm[TCONN_ENV_MAX];
    char env_lang[TCONN_ENV_MAX], env_lc_all[TCONN_ENV_MAX];
    char env_lc_ctype[TCONN_ENV_MAX], env_charset[TCONN_ENV_MAX];
    tnfilter_tap_t env_tap;    /* NEW-ENVIRON answers, from tnfilter */
} tconn_caps_t;

typedef struct tconn_cb {
    /* Client data, in order: the key decoder's input. */
    void (*data)(void *ctx, const char *bytes, size_t n);
    /* Bytes for the socket, in order (answers, and what tconn_send got). */
    void (*send)(void *ctx, const char *bytes, size_t n);
    /* A telnet command that is a key: KEY_BACKSPACE (EC), KEY_CTRL_C (IP). */
    void (*key)(void *ctx, int key);
    /* The window size changed (already clamped, never 0). */
    void (*resize)(void *ctx, int w, int h);
} tconn_cb_t;

typedef struct tconn {
    telnet_t *telnet;
    tnfilter_t filter;
    tconn_cb_t cb;
    void *ctx;
    int max_cols, max_rows;
    int w, h;                  /* the last size reported; 0: none yet */
    uint8_t peer;              /* the client has sent a telnet command */
    uint8_t echo_refused;      /* the client's last word on ECHO was DONT
                                  (telnet's `mode line`): it echoes what
                                  is typed itself, a password too, and
                                  sends a line at a time */
    uint8_t no_pty;            /* an SSH client that asked for no terminal
                                  (ssh -T, or a command): its keys come a
                                  line at a time, echoed by itself */
    uint8_t got_echo, got_naws, ttype_done, ttype_asks;
    uint8_t env_asked;         /* the client offered NEW-ENVIRON: we asked */
    uint8_t env_done;          /* ...and its IS answer came (or a refusal) */
    uint8_t mute;              /* tconn_resume_options: libtelnet's events
                                  (its sends too) swallowed */
    uint8_t slow;              /* for tests: every byte through libtelnet, the
                                  reference the fast path is checked against
                                  (test_telnet_fast) */
    char ttype[40];            /* the first TTYPE answer, printable ASCII */
    const char *error;         /* set: the connection must end, this is why */
    /* For tests and fuzzers: subnegotiations libtelnet parsed, and those of
     * an option tnfilter must have dropped (always 0). */
    unsigned long subs, bad_subs;
    /* What the client said it can do (docs/telnet.md): caps until
     * tconn_settle (NULL after), then the display it made (and ttype, the
     * first name). A few bytes: memory per session is a target. */
    tconn_caps_t *caps;        /* owned */
    display_t settled;         /* tconn_settle's display */
} tconn_t;

/* Sets up t with our option table. cb's functions may be NULL (ignored).
 * Returns 0, or -1 (out of memory; tconn_free is still safe). */
int tconn_init(tconn_t *t, const tconn_cb_t *cb, void *ctx, int max_cols,
               int max_rows);

void tconn_free(tconn_t *t);

/* Our opening, in one burst: IAC WILL ECHO, IAC WILL SGA, IAC DO NAWS,
 * IAC DO TTYPE. */
void tconn_start(tconn_t *t);

/* After a binary upgrade, on a connection whose negotiation the old
 * process did: libtelnet's option states set as tconn_start's questions
 * and the client's answers left them (its yes, and for ECHO its DONT when
 * line_mode: telnet's `mode line`), without a byte sent. A fresh
 * libtelnet believes every option off and drops as nothing new the
 * client's DONT ECHO, which then went unanswered and unsaid (and a DO
 * ECHO back from line mode, had it believed ECHO on). */
void tconn_resume_options(tconn_t *t, int line_mode);

/* Feeds bytes read from the client. Returns 0, or -1 once the connection
 * must end (t->error); every later call returns -1 too. */
int tconn_feed(tconn_t *t, const void *bytes, size_t n);

/* A window size the client reported (NAWS, or another transport's own
 * report: ssh_link.h): clamped to max_cols x max_rows, 0 keeps the old
 * size (RFC 1073: unknown), the resize callback told of a change. */
void tconn_window(tconn_t *t, int w, int h);

/* Sends data to the client (IAC doubled). */
void tconn_send(tconn_t *t, const void *data, size_t n);

/* Sends IAC NOP if the client speaks telnet (a frame marker, a keepalive);
 * a raw client (nc) would see a stray byte, so it gets nothing. */
void tconn_nop(tconn_t *t);

/* 1 once every answer we wait for has come: ECHO, NAWS, TTYPE (its last
 * round) and, if the client offered NEW-ENVIRON, its variables. Refusals
 * raise no event, so the caller also keeps a deadline. */
int tconn_negotiated(const tconn_t *t);

/* What the client can show, from everything it said so far: DISPLAY_PLAIN
 * (ASCII, 16 colours) when it said nothing that names more. After
 * tconn_settle: what it settled. */
display_t tconn_display(const tconn_t *t);

/* The negotiation is over: keeps the display (t->settled), frees what was
 * learned (t->caps) and stops reading NEW-ENVIRON. Later answers change
 * nothing. Returns the display. */
display_t tconn_settle(tconn_t *t);

/* The display the terminal names alone imply (TTYPE or TERM): 256 colours
 * for *-256COLOR, truecolor for *-DIRECT, *-TRUECOLOR and *-24BIT, the MTTS
 * bits for "MTTS <n>"; any case. For tconn_display, and for the tests. */
display_t tconn_display_of_name(const char *name);

/* A NEW-ENVIRON subnegotiation's data (after IAC SB 39, IAC IAC undone,
 * before IAC SE), as tnfilter's tap hands it over: an IS or INFO answer
 * sets the env_* fields it names. Bounded: any bytes, any length. Public
 * for the unit tests and the fuzz target. */
void tconn_environ(tconn_t *t, const unsigned char *data, size_t n);

/* The session's table for telnet (transport.h). */
extern const transport_t telnet_transport;

#endif
