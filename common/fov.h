/* fov.h - field of view by symmetric shadowcasting (Albert Ford's algorithm).
 *
 * Symmetric: for two transparent tiles A and B, A sees B exactly when B sees A,
 * so a monster you can see can see you. Walls that bound a lit area are seen. */
#ifndef ROGUE_FOV_H
#define ROGUE_FOV_H

#include <stdint.h>

#include "map.h"

#define FOV_RADIUS 8

/* Clears vis, then sets vis[y][x] = 1 for every tile seen from (ox, oy)
 * within radius (Euclidean: dx*dx + dy*dy <= radius*radius). The origin is
 * always visible. */
void fov_compute(const map_t *m, int ox, int oy, int radius,
                 uint8_t vis[MAP_H][MAP_W]);

/* fov_compute, and known[y][x] = 1 for every tile seen (the map's explored
 * tiles: one store beside each of vis's instead of a pass over the map). */
void fov_compute_known(const map_t *m, int ox, int oy, int radius,
                       uint8_t vis[MAP_H][MAP_W], uint8_t known[MAP_H][MAP_W]);

/* fov_compute_known without clearing vis first: it only sets tiles, all
 * within radius of (ox, oy), so a caller that knows where vis's lit tiles
 * are clears just those (game_update_fov). */
void fov_light_known(const map_t *m, int ox, int oy, int radius,
                     uint8_t vis[MAP_H][MAP_W], uint8_t known[MAP_H][MAP_W]);

#endif
