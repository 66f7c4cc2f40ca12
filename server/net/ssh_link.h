/* ssh_link.h - what an SSH connection tells the session that plays it,
 * and the session's transport for it (transport.h: ssh_transport).
 * docs/architecture.md, "Transports".
 *
 * The bridge's thread (ssh_conn.h) writes the setup, and the session's
 * libssh callbacks on its worker (ssh_play.h) the rest, as records handed
 * to the transport's feed in the same process: a type byte, a 16-bit
 * big-endian length and that many bytes:
 *   'T' the terminal's name (the pty request's TERM),
 *   'E' one environment request kept, "NAME=value" (LANG, LC_ALL,
 *       LC_CTYPE, COLORTERM),
 *   'W' the window: columns and rows, 16 bits each, big-endian,
 *   'G' the setup is whole: the lobby may start (empty),
 *   'D' the player's keys, as typed.
 * The session's frames go to the channel as they are: nothing to escape,
 * nothing to parse (no telnet on either side).
 *
 * The session's transport decodes those records into the telnet module's
 * callbacks and what-the-client-can-show (telnet_conn.h: the same key
 * decoder, the same display detection from TERM and the locale); its
 * feed is bounded (a record's length is at most 65535, its text at most
 * SSH_LINK_TEXT_MAX kept). */
#ifndef ROGUE_SSH_LINK_H
#define ROGUE_SSH_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "telnet_conn.h"
#include "transport.h"

#define SSH_LINK_TEXT_MAX 64       /* a 'T' or 'E' record's kept bytes */
#define SSH_LINK_DATA_MAX 4096     /* keys per 'D' record the thread sends */

/* Appends one record to out (at most 3 + n bytes; n <= 65535). Returns
 * the bytes written. */
size_t ssh_link_record(char *out, char type, const void *data, size_t n);

/* The window as a 'W' record into out (7 bytes). */
size_t ssh_link_size(char *out, int w, int h);

typedef struct ssh_link {
    tconn_t *tc;               /* the session's: its callbacks and caps */
    void (*send)(void *ctx, const char *bytes, size_t n); /* to the socket */
    void *ctx;
    uint8_t hdr[3];            /* the record header being read */
    uint8_t nhdr;
    uint16_t left;             /* the current record's bytes still to come */
    char text[SSH_LINK_TEXT_MAX + 1]; /* a 'T', 'E' or 'W' record's bytes */
    uint8_t ntext;
    uint8_t ready;             /* 'G' came */
    const char *error;
} ssh_link_t;

/* A link for a session whose telnet state is tc (tconn_init'd, with no
 * send callback: nothing telnet says reaches an SSH client); send/ctx
 * take the session's frames. NULL on OOM. Freed by the transport's free
 * (with tconn_free of tc). */
ssh_link_t *ssh_link_new(tconn_t *tc, void (*send)(void *, const char *,
                                                   size_t), void *ctx);

/* The session's table for SSH (transport.h). */
extern const transport_t ssh_transport;

#endif
