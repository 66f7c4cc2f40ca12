/* fov.h - field of view by symmetric shadowcasting (Albert Ford's algorithm).
 *
 * Symmetric: for two transparent tiles A and B, A sees B exactly when B sees A,
 * so a monster you can see can see you. Walls that bound a lit area are seen. */
#ifndef ROGUE_FOV_H
#define ROGUE_FOV_H

#include <stdint.h>

#include "map.h"

#define FOV_RADIUS 8

/* Clears vis (a tile set: map.h), then puts in it every tile seen from
 * (ox, oy) within radius (Euclidean: dx*dx + dy*dy <= radius*radius; a
 * radius is at most FOV_RADIUS, a larger one is taken as FOV_RADIUS). The
 * origin is always visible. */
void fov_compute(const map_t *m, int ox, int oy, int radius,
                 uint8_t vis[MAP_H][TILE_BITS_ROW]);

/* fov_compute without clearing vis first: it only adds tiles, all within
 * radius of (ox, oy), so a caller that knows where vis's tiles are clears
 * just those (game_update_fov). seen (may be NULL): the same tiles are
 * added to it too (the tiles explored), word by word as they are put in
 * vis, not by a pass over vis's rows after. */
void fov_light(const map_t *m, int ox, int oy, int radius,
               uint8_t vis[MAP_H][TILE_BITS_ROW],
               uint8_t seen[MAP_H][TILE_BITS_ROW]);

/* The map rows a view from row oy can light: y0..y1 (those within
 * FOV_RADIUS, on the map). */
static inline void fov_rows(int oy, int *y0, int *y1)
{
    *y0 = oy - FOV_RADIUS < 0 ? 0 : oy - FOV_RADIUS;
    *y1 = oy + FOV_RADIUS >= MAP_H ? MAP_H - 1 : oy + FOV_RADIUS;
}

#endif
