/* map.h - one dungeon level: tiles, rooms, and what the player has seen.
 *
 * Fixed size (MAP_W x MAP_H) so that a game is one allocation with no
 * pointers inside: cheap to create, copy and hash. */
#ifndef ROGUE_MAP_H
#define ROGUE_MAP_H

#include <stdint.h>

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

typedef struct map {
    uint8_t tile[MAP_H][MAP_W];     /* enum tile */
    uint8_t explored[MAP_H][MAP_W]; /* 1 once the player has seen it */
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

/* The centre tile of a room. */
void rect_center(const rect_t *r, int *x, int *y);

#endif
