/* fov.c - symmetric shadowcasting (Albert Ford, 2020), in integer arithmetic.
 *
 * The area round the origin is scanned as four quadrants (north, east, south,
 * west), each row by row outwards. A row at depth d covers the columns
 * between two slopes; a wall narrows the slopes of the rows behind it. A
 * floor tile is lit only when its centre lies inside the slopes (the
 * "symmetric" test), which is what makes sight mutual; walls are lit when any
 * part of them is, so that rooms show their walls. The radius is applied as a
 * final filter (dx*dx + dy*dy <= r*r), itself symmetric, so the result stays
 * symmetric.
 *
 * Slopes are fractions num/den with den > 0; every comparison is done by
 * cross-multiplying, so there is no floating point and no rounding drift. */
#include "fov.h"

#include <string.h>

/* A quadrant maps (depth, col) to the map: x = ox + col * cx + depth * dx,
 * y = oy + col * cy + depth * dy. */
static const struct { int cx, dx, cy, dy; } quadrants[4] = {
    { 1, 0, 0, -1 }, /* north */
    { 0, 1, 1, 0 },  /* east */
    { 1, 0, 0, 1 },  /* south */
    { 0, -1, 1, 0 }, /* west */
};

typedef struct fov_ctx {
    const uint8_t *tile; /* the map's tiles, row-major */
    uint8_t *vis;        /* the tile set (map.h): TILE_BITS_ROW bytes a row */
    int ox, oy, radius;
    int cx, dx, cy, dy;  /* the quadrant being scanned */
} fov_ctx_t;

/* floor(a / b) for b > 0. */
static int floor_div(int a, int b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Scans one row at `depth` between slopes sn/sd and en/ed, then the rows
 * behind it (recursively; the depth of recursion is at most the radius).
 * Tiles off the map are walls that are never lit. */
static void scan(const fov_ctx_t *c, int depth, int sn, int sd, int en, int ed)
{
    if (depth > c->radius)
        return;
    /* The row's first tile and the step between its tiles, and which of its
     * columns are on the map (lo..hi; none when lo > hi). */
    int x0 = c->ox + depth * c->dx, y0 = c->oy + depth * c->dy;
    int lo, hi;
    if (c->cx) { /* a map row */
        if (y0 < 0 || y0 >= MAP_H)
            return; /* all walls off the map: nothing lit, nothing behind */
        lo = -x0;
        hi = MAP_W - 1 - x0;
    } else {     /* a map column */
        if (x0 < 0 || x0 >= MAP_W)
            return;
        lo = -y0;
        hi = MAP_H - 1 - y0;
    }
    int base = y0 * MAP_W + x0, step = c->cx ? 1 : MAP_W;
    int r2 = c->radius * c->radius - depth * depth;
    /* First column: depth * start rounded half up; last: depth * end
     * rounded half down. */
    int min_col = floor_div(2 * depth * sn + sd, 2 * sd);
    int max_col = -floor_div(-(2 * depth * en - ed), 2 * ed);
    int prev = -1; /* -1 none yet, 0 floor, 1 wall */
    for (int col = min_col; col <= max_col; col++) {
        int on_map = col >= lo && col <= hi;
        int at = base + col * step;
        int wall = !on_map || c->tile[at] == TILE_WALL;
        /* Lit: a wall, or a floor whose centre lies within [start, end]
         * (symmetric); on the map and within the radius. */
        if (on_map && col * col <= r2 &&
            (wall || (col * sd >= depth * sn && col * ed <= depth * en))) {
            int x = c->cx ? x0 + col : x0, y = c->cx ? y0 : y0 + col;
            tile_bit_set(c->vis + y * TILE_BITS_ROW, x);
        }
        if (prev == 1 && !wall) {
            /* Leaving a wall: the row's visible part starts at this tile's
             * left edge, slope (2col - 1) / (2depth). */
            sn = 2 * col - 1;
            sd = 2 * depth;
        }
        if (prev == 0 && wall)
            scan(c, depth + 1, sn, sd, 2 * col - 1, 2 * depth);
        prev = wall;
    }
    if (prev == 0)
        scan(c, depth + 1, sn, sd, en, ed);
}

void fov_compute(const map_t *m, int ox, int oy, int radius,
                 uint8_t vis[MAP_H][TILE_BITS_ROW])
{
    memset(vis, 0, (size_t)MAP_H * TILE_BITS_ROW);
    fov_light(m, ox, oy, radius, vis);
}

void fov_light(const map_t *m, int ox, int oy, int radius,
               uint8_t vis[MAP_H][TILE_BITS_ROW])
{
    if (!map_in_bounds(ox, oy))
        return;
    tile_bit_set(vis[oy], ox);
    fov_ctx_t c = { &m->tile[0][0], &vis[0][0], ox, oy, radius, 0, 0, 0, 0 };
    for (int q = 0; q < 4; q++) {
        c.cx = quadrants[q].cx;
        c.dx = quadrants[q].dx;
        c.cy = quadrants[q].cy;
        c.dy = quadrants[q].dy;
        scan(&c, 1, -1, 1, 1, 1);
    }
}
