/* wsframe.c - frame headers checked ahead of wslay (wsframe.h). */
#include "wsframe.h"

#include <string.h>

void wsframe_init(wsframe_t *f, uint64_t max_payload)
{
    memset(f, 0, sizeof *f);
    f->max = max_payload;
}

/* The header's length up to its payload's length, once its first two
 * bytes are in: judged there, before the mask (a length of 2^63 with
 * the mask still to come reached wslay first, which ended the connection
 * without a word: a QA). */
static size_t header_len(const uint8_t *h)
{
    uint8_t len7 = h[1] & 0x7f;
    return len7 == 126 ? 4 : len7 == 127 ? 10 : 2;
}

/* Refused: the close frame's code and why. Returns -1. */
static int refuse(wsframe_t *f, uint16_t code, const char *why)
{
    f->code = code;
    f->why = why;
    return -1;
}

/* A whole header: refused (f->why), or its payload to skip. */
static int check_header(wsframe_t *f)
{
    const uint8_t *h = f->hdr;
    int fin = h[0] & 0x80, opcode = h[0] & 0x0f;
    uint8_t len7 = h[1] & 0x7f;
    uint64_t len = len7;
    if (len7 == 126) {
        len = (uint64_t)h[2] << 8 | h[3];
    } else if (len7 == 127) {
        len = 0;
        for (int i = 2; i < 10; i++)
            len = len << 8 | h[i];
    }
    if ((len7 == 126 && len < 126) || (len7 == 127 && len <= 0xffff))
        return refuse(f, 1002, "a WebSocket frame length not in its "
                      "shortest form");
    if (opcode >= 8 && !fin)
        return refuse(f, 1002, "a fragmented WebSocket control frame");
    if (opcode >= 8 && len > 125)
        return refuse(f, 1002, "a WebSocket control frame past 125 bytes");
    if (opcode == 8 && len == 1) /* a body starts with a 2-byte code */
        return refuse(f, 1002, "a WebSocket close frame of one byte");
    if (opcode == 0)
        return refuse(f, 1008, "a fragmented WebSocket message "
                      "(continuation frame)");
    if (!fin)
        return refuse(f, 1008, "a fragmented WebSocket message (no FIN)");
    if (len > f->max)
        return refuse(f, 1009, "a WebSocket frame longer than the message "
                      "limit");
    f->left = len + (h[1] & 0x80 ? 4 : 0); /* the mask, then the payload */
    return 0;
}

int wsframe_scan(wsframe_t *f, const uint8_t *p, size_t n)
{
    size_t i = 0;
    if (f->why)
        return -1;
    while (i < n) {
        if (f->left > 0) {
            size_t skip = n - i;
            if ((uint64_t)skip > f->left)
                skip = (size_t)f->left;
            f->left -= skip;
            i += skip;
            continue;
        }
        f->hdr[f->hlen++] = p[i++];
        if (f->hlen >= 2 && f->hlen == header_len(f->hdr)) {
            f->hlen = 0;
            if (check_header(f) != 0)
                return -1;
        }
    }
    return 0;
}
