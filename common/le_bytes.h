/* le_bytes.h - integers as bytes, least significant first: the byte order
 * of a game's record (record.c) and of a binary upgrade's handover (the
 * session's blob and the wire records: upgrade_blob.c, upgrade_old.c,
 * upgrade_new.c). */
#ifndef ROGUE_LE_BYTES_H
#define ROGUE_LE_BYTES_H

#include <stdint.h>

/* v's low `bytes` bytes (1 to 8) into out, least significant first. */
static inline void le_put(uint8_t *out, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

/* The value of `bytes` bytes (1 to 8) at in, least significant first. */
static inline uint64_t le_get(const uint8_t *in, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)in[i] << (8 * i);
    return v;
}

#endif
