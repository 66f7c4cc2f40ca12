/* game_state.c - a game's state as bytes: the form a snapshot is stored
 * and sent in (game_state_bytes, game_from_state) and the hash the
 * records' checks keep (game_hash).
 *
 * That form is game version 8's memory, as game version 10 lays out its
 * fields (the log's records in the same bytes: world.h): the state's
 * fields in order, each tile set (map.explored, visible) a byte a tile. In memory the sets are
 * bits (map.h); here they are written out a byte a tile between the
 * fields around them, so the stored snapshots and the records' checks
 * did not change with the memory (docs/performance.md, "Seen and in view,
 * as bits"). */
#include "game.h"

#include <stdlib.h>
#include <string.h>

/* The state in memory, in the pieces the form puts a tile set between. */
#define PIECE_A_END offsetof(game_t, map.explored)
#define PIECE_B_FROM offsetof(game_t, map.rooms)
#define PIECE_B_END offsetof(game_t, visible)
#define PIECE_C_FROM offsetof(game_t, player)

_Static_assert(PIECE_B_FROM == PIECE_A_END + sizeof(((map_t *)0)->explored) &&
                   PIECE_C_FROM == PIECE_B_END + sizeof(((game_t *)0)->visible),
               "nothing between a tile set and the field after it");
/* Each set is 2,688 bytes longer in the form, a multiple of every field's
 * alignment: the fields after it keep their padding. */
_Static_assert((MAP_H * (MAP_W - TILE_BITS_ROW)) % 16 == 0,
               "the form keeps the memory's alignment");
/* The form is a game's identity: its hash, the records' checks and the
 * snapshots stored and sent between hosts. A change of it is a new
 * GAME_VERSION. */
_Static_assert(GAME_STATE_BYTES == 21592 &&
                   offsetof(game_t, pad6) + 3 == GAME_STATE_SIZE,
               "the state is 21,592 bytes, as since game version 8");

/* A tile set a byte a tile (MAP_W x MAP_H bytes at out). */
static void set_to_bytes(const uint8_t bits[MAP_H][TILE_BITS_ROW],
                         unsigned char *out)
{
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x += 8) {
            uint64_t w = tile_bits_bytes(bits[y][x >> 3]);
            memcpy(out + y * MAP_W + x, &w, sizeof w);
        }
}

/* The other way: a tile is in the set if its byte is not 0 (the
 * padding after each row's last tile stays 0: the game was calloc'ed). */
static void set_from_bytes(const unsigned char *in,
                           uint8_t bits[MAP_H][TILE_BITS_ROW])
{
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            tile_bit_put(bits[y], x, in[y * MAP_W + x]);
}

/* Where each piece and set begins in the form. */
#define FORM_EXPLORED PIECE_A_END
#define FORM_B (FORM_EXPLORED + MAP_H * MAP_W)
#define FORM_VISIBLE (FORM_B + (PIECE_B_END - PIECE_B_FROM))
#define FORM_C (FORM_VISIBLE + MAP_H * MAP_W)

void game_state_bytes(const game_t *g, void *out)
{
    const unsigned char *p = (const unsigned char *)g;
    unsigned char *o = out;
    memcpy(o, p, PIECE_A_END);
    set_to_bytes(g->map.explored, o + FORM_EXPLORED);
    memcpy(o + FORM_B, p + PIECE_B_FROM, PIECE_B_END - PIECE_B_FROM);
    set_to_bytes(g->visible, o + FORM_VISIBLE);
    memcpy(o + FORM_C, p + PIECE_C_FROM, GAME_STATE_SIZE - PIECE_C_FROM);
}

game_t *game_from_state(const void *state, size_t len)
{
    if (len != GAME_STATE_BYTES)
        return NULL;
    game_t *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    const unsigned char *in = state;
    unsigned char *p = (unsigned char *)g;
    memcpy(p, in, PIECE_A_END);
    set_from_bytes(in + FORM_EXPLORED, g->map.explored);
    memcpy(p + PIECE_B_FROM, in + FORM_B, PIECE_B_END - PIECE_B_FROM);
    set_from_bytes(in + FORM_VISIBLE, g->visible);
    memcpy(p + PIECE_C_FROM, in + FORM_C, GAME_STATE_SIZE - PIECE_C_FROM);
    game_derive(g);
    return g;
}

/* --- game_hash -------------------------------------------------------------
 * The rounds and constants of xxHash64 (public domain, Yann Collet), over
 * the form's bytes as host-order words, four lanes at a time. FNV-1a a
 * byte at a time took ~30 µs for a game; this takes ~1. The form is fed
 * in its five pieces (each tile set expanded whole), not built first. */
#define H_P1 0x9e3779b185ebca87ULL
#define H_P2 0xc2b2ae3d27d4eb4fULL
#define H_P3 0x165667b19e3779f9ULL
#define H_P4 0x85ebca77c2b2ae63ULL
#define H_P5 0x27d4eb2f165667c5ULL

static uint64_t rotl64(uint64_t v, int r)
{
    return v << r | v >> (64 - r);
}

static uint64_t h_round(uint64_t acc, uint64_t word)
{
    return rotl64(acc + word * H_P2, 31) * H_P1;
}

static uint64_t h_merge(uint64_t h, uint64_t lane)
{
    return (h ^ h_round(0, lane)) * H_P1 + H_P4;
}

static uint64_t h_word(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

typedef struct hasher {
    uint64_t lane[4];
    unsigned char part[32]; /* the bytes of a block not complete yet */
    size_t npart, total;
} hasher_t;

/* Feeds n bytes: whole blocks straight from p, the lanes in registers;
 * a block split between two feeds through h->part. */
static void h_feed(hasher_t *h, const unsigned char *p, size_t n)
{
    h->total += n;
    if (h->npart) {
        size_t k = 32 - h->npart < n ? 32 - h->npart : n;
        memcpy(h->part + h->npart, p, k);
        h->npart += k;
        p += k;
        n -= k;
        if (h->npart < 32)
            return;
        for (int i = 0; i < 4; i++)
            h->lane[i] = h_round(h->lane[i], h_word(h->part + 8 * i));
        h->npart = 0;
    }
    uint64_t a = h->lane[0], b = h->lane[1], c = h->lane[2], d = h->lane[3];
    for (; n >= 32; p += 32, n -= 32) {
        a = h_round(a, h_word(p));
        b = h_round(b, h_word(p + 8));
        c = h_round(c, h_word(p + 16));
        d = h_round(d, h_word(p + 24));
    }
    h->lane[0] = a, h->lane[1] = b, h->lane[2] = c, h->lane[3] = d;
    memcpy(h->part, p, n);
    h->npart = n;
}

/* A tile set a byte a tile, fed whole. */
static void h_feed_set(hasher_t *h, const uint8_t bits[MAP_H][TILE_BITS_ROW])
{
    unsigned char bytes[MAP_H * MAP_W];
    set_to_bytes(bits, bytes);
    h_feed(h, bytes, sizeof bytes);
}

uint64_t game_hash(const game_t *g)
{
    /* Every byte of the state is written deterministically (calloc,
     * cleared slots, explicit padding), so equal histories give equal
     * bytes. */
    const unsigned char *p = (const unsigned char *)g;
    hasher_t h = { { H_P1 + H_P2, H_P2, 0, (uint64_t)0 - H_P1 }, { 0 }, 0, 0 };
    h_feed(&h, p, PIECE_A_END);
    h_feed_set(&h, g->map.explored);
    h_feed(&h, p + PIECE_B_FROM, PIECE_B_END - PIECE_B_FROM);
    h_feed_set(&h, g->visible);
    h_feed(&h, p + PIECE_C_FROM, GAME_STATE_SIZE - PIECE_C_FROM);
    uint64_t a = h.lane[0], b = h.lane[1], c = h.lane[2], d = h.lane[3];
    uint64_t v = rotl64(a, 1) + rotl64(b, 7) + rotl64(c, 12) + rotl64(d, 18);
    v = h_merge(h_merge(h_merge(h_merge(v, a), b), c), d);
    v += h.total;
    size_t i = 0, n = h.npart;
    for (; i + 8 <= n; i += 8)
        v = rotl64(v ^ h_round(0, h_word(h.part + i)), 27) * H_P1 + H_P4;
    for (; i < n; i++)
        v = rotl64(v ^ h.part[i] * H_P5, 11) * H_P1;
    v ^= v >> 33;
    v *= H_P2;
    v ^= v >> 29;
    v *= H_P3;
    v ^= v >> 32;
    return v;
}
