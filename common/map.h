/* map.h - one dungeon level: tiles, rooms, and what the player has seen.
 *
 * Fixed size (MAP_W x MAP_H) so that a game is one allocation with no
 * pointers inside: cheap to create, copy and hash. */
#ifndef ROGUE_MAP_H
#define ROGUE_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rng.h"

#define MAP_W 80
#define MAP_H 21
#define MAP_MAX_ROOMS 30
#define ROOM_MIN_SIZE 4   /* interior, tiles */
#define ROOM_MAX_SIZE 10

enum tile {
    TILE_WALL = 0,
    TILE_FLOOR = 1,
    TILE_STAIRS = 2
};

/* A room's interior: floor from (x, y) to (x + w - 1, y + h - 1). */
typedef struct rect {
    int x, y, w, h;
} rect_t;

/* A set of a level's tiles, a bit a tile: bit x & 7 of byte x >> 3 of row
 * y. What is in view and what has been seen are read and written for a
 * view's 17 rows every turn; as bits a row is a fraction of a cache line
 * where bytes took a line and more, so a turn touches a quarter of the
 * lines (docs/performance.md, "Seen and in view, as bits"). A row is 16
 * bytes (10 would hold it) so that the byte after any tile's is in the row
 * (tile_bits8). Stored and hashed a byte a tile all the same (world.h,
 * GAME_STATE_BYTES). */
#define TILE_BITS_ROW 16
_Static_assert(MAP_W % 8 == 0 && MAP_W / 8 + 1 <= TILE_BITS_ROW,
               "a tile set's row has a byte past its last tile's");

typedef struct map {
    uint8_t tile[MAP_H][MAP_W];     /* enum tile */
    uint8_t explored[MAP_H][TILE_BITS_ROW]; /* the tiles the player has
                                               seen (bits, as above) */
    rect_t rooms[MAP_MAX_ROOMS];
    int nrooms;                     /* at least 1 after map_generate */
} map_t;

/* Builds a level: up to MAP_MAX_ROOMS attempts at placing rectangular rooms
 * that do not overlap (nor touch), each joined to the previous one by an
 * L-shaped corridor whose bend is chosen at random. The border is always wall.
 * Every floor tile is reachable from the centre of rooms[0]. Uses only r. */
void map_generate(map_t *m, rng_t *r);

/* Puts the stairs down in the last room: at its centre, or (a level of one
 * room) in its top-left corner, away from the player's start at the centre
 * of rooms[0]. Separate from map_generate, whose rooms are all floor. */
void map_place_stairs(map_t *m);

/* The tile queries are inline: the AI and the field of view ask them for
 * every neighbour of every tile they visit, and a call each cost more than
 * the question. */

/* 1 if (x, y) is on the map. */
static inline int map_in_bounds(int x, int y)
{
    /* One unsigned compare per axis also rejects negatives. */
    return (unsigned)x < MAP_W && (unsigned)y < MAP_H;
}

/* 1 if a creature may stand on (x, y) (floor or stairs; off-map is not). */
static inline int map_walkable(const map_t *m, int x, int y)
{
    return map_in_bounds(x, y) && m->tile[y][x] != TILE_WALL;
}

/* 1 if light passes (x, y). Off-map is opaque. */
static inline int map_transparent(const map_t *m, int x, int y)
{
    return map_in_bounds(x, y) && m->tile[y][x] != TILE_WALL;
}

/* 1 if tile x of a row of a tile set (TILE_BITS_ROW bytes) is in it. */
static inline int tile_bit(const uint8_t *row, int x)
{
    return row[x >> 3] >> (x & 7) & 1;
}

/* Puts tile x of a row of a tile set in it (on) or takes it out (0). */
static inline void tile_bit_put(uint8_t *row, int x, int on)
{
    row[x >> 3] = (uint8_t)((row[x >> 3] & ~(1u << (x & 7))) |
                            (unsigned)(on != 0) << (x & 7));
}

/* Tiles x..x+7 of a row of a tile set (0 <= x < MAP_W), tile x + i in bit
 * i; tiles past MAP_W are 0. */
static inline unsigned tile_bits8(const uint8_t *row, int x)
{
    unsigned two = row[x >> 3] | (unsigned)row[(x >> 3) + 1] << 8;
    return two >> (x & 7) & 0xffu;
}

/* Eight bits as eight bytes of 0 or 1, bit i in byte i: a tile set's
 * chunk beside the byte-a-tile map (the view's look words). The byte is
 * copied to all eight, byte i keeps bit i, and adding 0x7f carries any
 * bit left into the byte's top bit, which goes to its bottom. */
static inline uint64_t tile_bits_bytes(unsigned bits8)
{
    uint64_t x = (bits8 & 0xffu) * 0x0101010101010101ULL;
    x &= 0x8040201008040201ULL;
    return (x + 0x7f7f7f7f7f7f7f7fULL) >> 7 & 0x0101010101010101ULL;
}

/* 1 once the player has seen (x, y), on the map. */
static inline int map_known(const map_t *m, int x, int y)
{
    return tile_bit(m->explored[y], x);
}

/* The two bytes at p as one word (map_slot_at). */
static inline uint16_t map_slot_word(const unsigned char *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The first of n records (each `size` bytes, from `slots`) from index `from`
 * on whose x and y bytes (at offset xy_at, y right after x) are (x, y) and
 * whose byte at live_at is not 0; n if none. A coordinate is a byte
 * (monster.h): an x or y outside 0..255 is nobody's place, n (not the
 * place its low byte names). The monsters and the floor items are searched
 * by place on every step, over slots most of which are free or elsewhere:
 * the place is compared as one 16-bit word, four records a step, and only
 * a record there is looked at further. Inline, so that each caller's sizes
 * are constants. */
static inline int map_slot_at(const void *slots, int n, size_t size,
                              size_t xy_at, size_t live_at, int from, int x,
                              int y)
{
    if ((unsigned)x > 255 || (unsigned)y > 255)
        return n; /* one unsigned compare each also rejects negatives */
    const unsigned char *base = (const unsigned char *)slots;
    uint8_t place[2] = { (uint8_t)x, (uint8_t)y };
    uint16_t xy;
    memcpy(&xy, place, sizeof xy);
#define MAP_SLOT_IS(j) ((unsigned)(map_slot_word(base + (size_t)(j) * size + xy_at) == xy))
    int i = from;
    for (; i + 4 <= n; i += 4) {
        if (!(MAP_SLOT_IS(i) | MAP_SLOT_IS(i + 1) | MAP_SLOT_IS(i + 2) |
              MAP_SLOT_IS(i + 3)))
            continue;
        for (int j = i; j < i + 4; j++)
            if (MAP_SLOT_IS(j) && base[(size_t)j * size + live_at])
                return j;
    }
    for (; i < n; i++)
        if (MAP_SLOT_IS(i) && base[(size_t)i * size + live_at])
            return i;
#undef MAP_SLOT_IS
    return n;
}

/* The centre tile of a room. */
void rect_center(const rect_t *r, int *x, int *y);

#endif
