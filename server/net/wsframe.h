/* wsframe.h - a watch on the WebSocket frames a page sends, ahead of
 * wslay, so that a frame the server would refuse is refused as soon as its
 * header arrives rather than when (if ever) its payload does: a length
 * past the message limit (a header may claim 2^63 bytes), and any
 * fragmented message (a data frame without FIN, or a continuation frame:
 * the page never sends either, and a fragment left unfinished would hold
 * the connection); and what RFC 6455 calls a protocol error that wslay
 * would end the connection on without a word: a control frame without
 * FIN or past 125 bytes, a length not in its shortest form (and a close
 * frame of one byte, which wslay answers with an empty close).
 * docs/telnet.md, "The browser".
 *
 * No I/O, no allocation: feed it every byte after the upgrade, in any
 * split. */
#ifndef ROGUE_WSFRAME_H
#define ROGUE_WSFRAME_H

#include <stddef.h>
#include <stdint.h>

typedef struct wsframe {
    uint8_t hdr[14];     /* the header being read */
    uint8_t hlen;        /* bytes of it so far */
    uint64_t left;       /* payload bytes still to skip */
    uint64_t max;        /* the largest payload allowed */
    const char *why;     /* set once refused: why (for the log) */
    uint16_t code;       /* and the close frame's code (1002, 1008, 1009) */
} wsframe_t;

void wsframe_init(wsframe_t *f, uint64_t max_payload);

/* Follows n more bytes. Returns 0, or -1 once a frame is refused (f->why;
 * every later call returns -1 too). */
int wsframe_scan(wsframe_t *f, const uint8_t *p, size_t n);

#endif
