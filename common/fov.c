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

typedef struct fov_ctx {
    const map_t *m;
    int ox, oy, radius, quadrant;
    uint8_t (*vis)[MAP_W];
} fov_ctx_t;

/* Quadrant-local (depth, col) to map coordinates. */
static void to_map(const fov_ctx_t *c, int depth, int col, int *x, int *y)
{
    switch (c->quadrant) {
    case 0: *x = c->ox + col; *y = c->oy - depth; break; /* north */
    case 1: *x = c->ox + depth; *y = c->oy + col; break; /* east */
    case 2: *x = c->ox + col; *y = c->oy + depth; break; /* south */
    default: *x = c->ox - depth; *y = c->oy + col; break; /* west */
    }
}

static int is_wall(const fov_ctx_t *c, int depth, int col)
{
    int x, y;
    to_map(c, depth, col, &x, &y);
    return !map_transparent(c->m, x, y);
}

static void reveal(const fov_ctx_t *c, int depth, int col)
{
    int x, y;
    to_map(c, depth, col, &x, &y);
    if (map_in_bounds(x, y) && depth * depth + col * col <= c->radius * c->radius)
        c->vis[y][x] = 1;
}

/* floor(a / b) for b > 0. */
static int floor_div(int a, int b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Scans one row at `depth` between slopes sn/sd and en/ed, then the rows
 * behind it (recursively; the depth of recursion is at most the radius). */
static void scan(const fov_ctx_t *c, int depth, int sn, int sd, int en, int ed)
{
    if (depth > c->radius)
        return;
    /* First column: depth * start rounded half up; last: depth * end
     * rounded half down. */
    int min_col = floor_div(2 * depth * sn + sd, 2 * sd);
    int max_col = -floor_div(-(2 * depth * en - ed), 2 * ed);
    int prev = -1; /* -1 none yet, 0 floor, 1 wall */
    for (int col = min_col; col <= max_col; col++) {
        int wall = is_wall(c, depth, col);
        /* Symmetric: the tile's centre lies within [start, end]. */
        int centred = col * sd >= depth * sn && col * ed <= depth * en;
        if (wall || centred)
            reveal(c, depth, col);
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
                 uint8_t vis[MAP_H][MAP_W])
{
    memset(vis, 0, sizeof(uint8_t) * MAP_H * MAP_W);
    if (!map_in_bounds(ox, oy))
        return;
    vis[oy][ox] = 1;
    fov_ctx_t c = { m, ox, oy, radius, 0, vis };
    for (c.quadrant = 0; c.quadrant < 4; c.quadrant++)
        scan(&c, 1, -1, 1, 1, 1);
}
