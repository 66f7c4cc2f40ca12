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
    uint8_t *lit;        /* likewise, a byte a tile: 1 where lit (put_view
                            turns them into the tile set's bits) */
    int ox, oy, radius;
    int cx, dx, cy, dy;  /* the quadrant being scanned */
} fov_ctx_t;

/* floor(a / b) for b > 0. */
static int floor_div(int a, int b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Scans one row at `depth` (1 to the radius) between slopes sn/sd and
 * en/ed, then the rows behind it within the radius (recursively; the depth
 * of recursion is at most the radius). Tiles off the map are walls that
 * are never lit. The rows behind are tested here, not by a call that
 * returns at once; not inline: gcc inlining the recursion into itself
 * cost ~1% of a view (docs/performance.md, "The field of view's rows"). */
static __attribute__((noinline)) void scan(const fov_ctx_t *c, int depth,
                                           int sn, int sd, int en, int ed)
{
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
    /* The floors whose centre lies within [start, end]: col * sd >= depth
     * * sn from min_col or the next, col * ed <= depth * en up to max_col
     * or the one before (min_col and max_col round half way). */
    int floor_lo = min_col + (min_col * sd < depth * sn);
    int floor_hi = max_col - (max_col * ed > depth * en);
    int prev = -1; /* -1 none yet, 0 floor, 1 wall */
    for (int col = min_col; col <= max_col; col++) {
        int on_map = col >= lo && col <= hi;
        int at = base + col * step;
        int wall = !on_map || c->tile[at] == TILE_WALL;
        /* Lit: a wall, or a floor whose centre lies within [start, end]
         * (symmetric); on the map and within the radius. */
        if (on_map && col * col <= r2 &&
            (wall || (col >= floor_lo && col <= floor_hi))) {
            c->lit[at] = 1;
        }
        if (prev == 1 && !wall) {
            /* Leaving a wall: the row's visible part starts at this tile's
             * left edge, slope (2col - 1) / (2depth), and its first centre
             * within is this tile's. */
            sn = 2 * col - 1;
            sd = 2 * depth;
            floor_lo = col;
        }
        if (prev == 0 && wall && depth < c->radius)
            scan(c, depth + 1, sn, sd, 2 * col - 1, 2 * depth);
        prev = wall;
    }
    if (prev == 0 && depth < c->radius)
        scan(c, depth + 1, sn, sd, en, ed);
}

/* The square round the origin a view can light: its rows within
 * FOV_RADIUS, SPAN tiles of each from x0 (moved inside the map). */
enum { SPAN = 2 * FOV_RADIUS + 1 };
_Static_assert(SPAN <= 24 && SPAN + 7 <= 32 && SPAN <= MAP_W,
               "a view's row is read in three words and written in one");

static void view_square(int ox, int oy, int *x0, int *y0, int *y1)
{
    int x = ox - FOV_RADIUS;
    *x0 = x < 0 ? 0 : x > MAP_W - SPAN ? MAP_W - SPAN : x;
    fov_rows(oy, y0, y1);
}

/* Eight bytes of 0 or 1 as eight bits, byte i in bit i: each byte's bit
 * lands in the top byte of the product, no two in one place. */
static unsigned gather8(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return (unsigned)((w * 0x0102040810204080ULL) >> 56);
}

/* The square's lit bytes into vis's bits, and seen's if not NULL (or'ed
 * in). */
static void put_view(const uint8_t *lit, int ox, int oy,
                     uint8_t vis[MAP_H][TILE_BITS_ROW],
                     uint8_t seen[MAP_H][TILE_BITS_ROW])
{
    int x0, y0, y1;
    view_square(ox, oy, &x0, &y0, &y1);
    for (int y = y0; y <= y1; y++) {
        const uint8_t *p = lit + y * MAP_W + x0;
        uint32_t bits = gather8(p) | gather8(p + 8) << 8 |
                        (uint32_t)(p[16] != 0) << 16;
        uint32_t word;
        memcpy(&word, &vis[y][x0 >> 3], sizeof word);
        word |= bits << (x0 & 7);
        memcpy(&vis[y][x0 >> 3], &word, sizeof word);
        if (seen) {
            memcpy(&word, &seen[y][x0 >> 3], sizeof word);
            word |= bits << (x0 & 7);
            memcpy(&seen[y][x0 >> 3], &word, sizeof word);
        }
    }
}

void fov_compute(const map_t *m, int ox, int oy, int radius,
                 uint8_t vis[MAP_H][TILE_BITS_ROW])
{
    memset(vis, 0, (size_t)MAP_H * TILE_BITS_ROW);
    fov_light(m, ox, oy, radius, vis, NULL);
}

void fov_light(const map_t *m, int ox, int oy, int radius,
               uint8_t vis[MAP_H][TILE_BITS_ROW],
               uint8_t seen[MAP_H][TILE_BITS_ROW])
{
    if (!map_in_bounds(ox, oy))
        return;
    if (radius > FOV_RADIUS)
        radius = FOV_RADIUS;
    /* The scan stores a byte a tile, as it did when the view was bytes,
     * but on the stack, where it stays warm from one session's turn to
     * the next; only the square it can light is cleared and read. */
    uint8_t lit[MAP_H * MAP_W];
    int x0, y0, y1;
    view_square(ox, oy, &x0, &y0, &y1);
    for (int y = y0; y <= y1; y++)
        memset(lit + y * MAP_W + x0, 0, SPAN);
    lit[oy * MAP_W + ox] = 1;
    fov_ctx_t c = { &m->tile[0][0], lit, ox, oy, radius, 0, 0, 0, 0 };
    for (int q = 0; q < 4; q++) {
        c.cx = quadrants[q].cx;
        c.dx = quadrants[q].dx;
        c.cy = quadrants[q].cy;
        c.dy = quadrants[q].dy;
        if (radius >= 1)
            scan(&c, 1, -1, 1, 1, 1);
    }
    put_view(lit, ox, oy, vis, seen);
}
