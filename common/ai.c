/* ai.c - Dijkstra maps (as in the tutorials and Brogue), chasing, fleeing,
 * wandering (docs/game.md, "Monsters"). */
#include "ai.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The eight neighbours, orthogonal first: the tie-break order of steps. */
static const int dir8[8][2] = {
    { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 },
    { 1, -1 }, { 1, 1 }, { -1, 1 }, { -1, -1 },
};

/* The maps below work on a padded grid: tile (x, y) is cell
 * (y + 1) * GRID_S + x + 1, with a border of cells that are never open
 * (column 0 doubles as the right border of the row above), so that the 8
 * neighbours of any tile are fixed offsets and need no bounds check. */
#define GRID_S (MAP_W + 1)
/* (MAP_H + 2) * GRID_S + 1 (ai.h, sizing ai_bfs_t.open); + 1: the last
 * tile's SE cell */
#define GRID_N AI_GRID_N

static const int grid_dir8[8] = {
    -GRID_S - 1, -GRID_S, -GRID_S + 1, -1, 1, GRID_S - 1, GRID_S, GRID_S + 1,
};

static int grid_at(int x, int y)
{
    return (y + 1) * GRID_S + x + 1;
}

/* Every step costs 1, so Dijkstra is a breadth-first search. open[p]:
 * walkable and not reached yet. Each tile is queued once, when first
 * reached, which in BFS order is at its distance; the queue is consumed a
 * distance (level) at a time, and a tile gets its distance when taken.
 * Neighbours are queued without a branch: each is written at the tail,
 * which moves on only for an open one. */

/* A row of the open grid from the map's row. restrict: both are bytes, and
 * without it the compiler must assume they overlap and goes a byte at a
 * time instead of 16. */
static void open_row(uint8_t *restrict row, const uint8_t *restrict tiles)
{
    for (int x = 0; x < MAP_W; x++)
        row[x] = tiles[x] != TILE_WALL;
}

/* The open grid of map m: its tiles' rows, and the border's cells closed
 * (each written once: the whole grid cleared first cost a tenth of a
 * search's start). */
static void open_grid(uint8_t *open, const map_t *m)
{
    memset(open, 0, GRID_S); /* the row above the map */
    for (int y = 0; y < MAP_H; y++) {
        open[grid_at(0, y) - 1] = 0; /* the border left of the row */
        open_row(&open[grid_at(0, y)], m->tile[y]);
    }
    memset(&open[grid_at(0, MAP_H) - 1], 0,
           GRID_N - (size_t)(grid_at(0, MAP_H) - 1)); /* the row below */
}

/* Starts a search from (tx, ty): every cell AI_FAR16 until taken. */
static void bfs_start(const map_t *m, int tx, int ty, ai_bfs_t *b)
{
    _Static_assert(AI_FAR16 == 0xffffu, "AI_FAR16 is the bytes 0xff");
    memset(b->dist, 0xff, sizeof b->dist);
    b->head = b->tail = b->level_end = b->depth = 0;
    if (!map_walkable(m, tx, ty))
        return;
    open_grid(b->open, m);
    b->queue[b->tail++] = (uint16_t)grid_at(tx, ty);
    b->open[grid_at(tx, ty)] = 0;
    b->level_end = b->tail;
}

/* A grid cell no search takes: a goal that makes bfs_run finish. */
#define GRID_NEVER 0

/* Goes on with the search until grid cell `goal` has its distance
 * (GRID_NEVER: until every reachable tile has). In BFS order every tile
 * nearer than the goal is taken before it: once the goal has its
 * distance, so has every tile nearer, and the others are still AI_FAR16,
 * which is more. */
static void bfs_run(ai_bfs_t *b, int goal)
{
    uint16_t *dist = b->dist;
    uint16_t *queue = b->queue;
    /* The tail as a pointer and the neighbours as offsets from the cell's
     * own pointer: with int indices gcc sign-extended each of them, nine
     * instructions a neighbour instead of five. */
    uint16_t *tail = queue + b->tail;
    int head = b->head, end = b->level_end;
    unsigned d = (unsigned)b->depth;
    while (queue + head < tail && dist[goal] == AI_FAR16) {
        if (head == end) { /* the next distance */
            d++;
            end = (int)(tail - queue);
        }
        unsigned p = queue[head++];
        dist[p] = (uint16_t)d;
        uint8_t *o = b->open + p;
        /* The eight neighbours written out: a loop over grid_dir8 spent a
         * third of the search on its own counting. */
#define BFS_QUEUE(k)                                                        \
    do {                                                                    \
        unsigned open_ = o[grid_dir8[k]];                                   \
        o[grid_dir8[k]] = 0;                                                \
        *tail = (uint16_t)(p + (unsigned)grid_dir8[k]);                     \
        tail += open_;                                                      \
    } while (0)
        BFS_QUEUE(0); BFS_QUEUE(1); BFS_QUEUE(2); BFS_QUEUE(3);
        BFS_QUEUE(4); BFS_QUEUE(5); BFS_QUEUE(6); BFS_QUEUE(7);
#undef BFS_QUEUE
    }
    b->head = head;
    b->tail = (int)(tail - queue);
    b->level_end = end;
    b->depth = (int)d;
}

void ai_distance_map(const map_t *m, int tx, int ty, dmap_t *out)
{
    ai_bfs_t b;
    bfs_start(m, tx, ty, &b);
    bfs_run(&b, GRID_NEVER);
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++) {
            unsigned d = b.dist[grid_at(x, y)];
            out->v[y][x] = d == AI_FAR16 ? DMAP_FAR : (int)d;
        }
}

/* Lowers (x, y) to its lowest walkable neighbour + 10. Returns 1 if it
 * changed. */
static int relax(dmap_t *f, int x, int y)
{
    if (f->v[y][x] >= DMAP_FAR)
        return 0;
    int best = f->v[y][x];
    for (int k = 0; k < 8; k++) {
        int ax = x + dir8[k][0], ay = y + dir8[k][1];
        if (map_in_bounds(ax, ay) && f->v[ay][ax] < DMAP_FAR &&
            f->v[ay][ax] + 10 < best)
            best = f->v[ay][ax] + 10;
    }
    if (best == f->v[y][x])
        return 0;
    f->v[y][x] = best;
    return 1;
}

/* The flee map by relaxation sweeps, for any distance map: every tile is
 * lowered to its lowest neighbour + 10, forward and backward, until nothing
 * changes (values only fall and are bounded below, so this ends). Slow
 * (tens of µs), and independent of flee_by_dijkstra, which test_ai checks
 * against it. */
static void flee_by_sweeps(dmap_t *out)
{
    for (int pass = 0; pass < MAP_W * MAP_H; pass++) {
        int changed = 0;
        if (pass % 2 == 0) {
            for (int y = 0; y < MAP_H; y++)
                for (int x = 0; x < MAP_W; x++)
                    changed |= relax(out, x, y);
        } else {
            for (int y = MAP_H - 1; y >= 0; y--)
                for (int x = MAP_W - 1; x >= 0; x--)
                    changed |= relax(out, x, y);
        }
        if (!changed)
            break;
    }
}

void ai_flee_map(const map_t *m, const dmap_t *dist, dmap_t *out)
{
    (void)m; /* the distance map says which tiles are open */
    /* Scaled by 10: a step costs 10, a tile starts at -12 x its distance. */
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            out->v[y][x] = dist->v[y][x] >= DMAP_FAR
                               ? DMAP_FAR : -AI_FLEE_FACTOR * dist->v[y][x];
    flee_by_sweeps(out);
}

/* The sweeps converge to the one fixed point of "each tile at most its
 * lowest neighbour + 10": f(x) = min over tiles y of start(y) + 10 *
 * steps(x, y), the steps taken over tiles of the map (8 directions). That
 * is a shortest-path problem where every tile is also a source with its
 * own start value, and since every step costs the same, Dijkstra needs no
 * heap: taking the lower head of two queues, the sources by start value
 * and a FIFO of lowered tiles (whose values are pushed in rising order),
 * visits tiles in rising order of value. The sources are the finished
 * search's queue read backwards (it holds every reachable tile nearest
 * first). The map is unique, so the order among equal values does not
 * matter. */
#define FLEE_END INT_MAX /* the value past the FIFO's last */
/* best[] of a wall or an unreachable cell: lower than any value, so never
 * lowered nor pushed; the bytes 0x80, for memset. */
#define FLEE_BLOCK ((int)0x80808080u)

/* Tile p is final at v: each neighbour not final yet, higher than this
 * way, is lowered and pushed. Values are taken in rising order, so a tile
 * is pushed at most once (a later push would not be lower), and a tile
 * taken is never lowered again. The eight written out, as in bfs_run. */
static inline void flee_from(int *best, unsigned p, int v, uint16_t *fifo_p,
                             int *fifo_v, int *tail)
{
    int *b = best + p, w = v + 10, t = *tail;
#define FLEE_PUSH(k)                                                        \
    do {                                                                    \
        if (w < b[grid_dir8[k]]) {                                          \
            b[grid_dir8[k]] = w;                                            \
            fifo_p[t] = (uint16_t)(p + (unsigned)grid_dir8[k]);             \
            fifo_v[t++] = w;                                                \
        }                                                                   \
    } while (0)
    FLEE_PUSH(0); FLEE_PUSH(1); FLEE_PUSH(2); FLEE_PUSH(3);
    FLEE_PUSH(4); FLEE_PUSH(5); FLEE_PUSH(6); FLEE_PUSH(7);
#undef FLEE_PUSH
    fifo_v[t] = FLEE_END;
    *tail = t;
}

/* The flee map into best (a cell a grid cell: FLEE_BLOCK for walls and
 * unreachable tiles) from the finished search b. A tile lowered is final
 * at its FIFO value, and its source value comes later, higher: a source
 * is taken only if its tile still has its start value. */
static void flee_by_dijkstra(const ai_bfs_t *b, int *best)
{
    enum { N = MAP_W * MAP_H };
    uint16_t fifo_p[N + 1];
    int fifo_v[N + 1]; /* FLEE_END after the last */
    const uint16_t *src = b->queue;
    memset(best, 0x80, sizeof(int) * GRID_N);
    for (int i = 0; i < b->tail; i++)
        best[src[i]] = -AI_FLEE_FACTOR * (int)b->dist[src[i]];
    fifo_v[0] = FLEE_END;
    int head = 0, tail = 0;
    for (int i = b->tail - 1; i >= 0; i--) { /* the farthest first */
        unsigned p = src[i];
        int v = -AI_FLEE_FACTOR * (int)b->dist[p];
        while (fifo_v[head] < v) {
            flee_from(best, fifo_p[head], fifo_v[head], fifo_p, fifo_v,
                      &tail);
            head++;
        }
        if (best[p] == v)
            flee_from(best, p, v, fifo_p, fifo_v, &tail);
    }
    /* Never runs in play (the last source is the player's tile at 0, and
     * every value pushed is below its tile's, so at most 0 and drained
     * before it): kept so that the map is whole whatever the sources. */
    for (; head < tail; head++)
        flee_from(best, fifo_p[head], fifo_v[head], fifo_p, fifo_v, &tail);
}

static int tile_free(const map_t *m, const uint8_t occ[MAP_H][MAP_W], int x,
                     int y)
{
    return map_walkable(m, x, y) && !(occ && occ[y][x]);
}

int ai_step_down(const map_t *m, const dmap_t *dm,
                 const uint8_t occ[MAP_H][MAP_W], int x, int y, int *nx,
                 int *ny)
{
    int best = map_in_bounds(x, y) ? dm->v[y][x] : DMAP_FAR, found = 0;
    for (int k = 0; k < 8; k++) {
        int ax = x + dir8[k][0], ay = y + dir8[k][1];
        if (!tile_free(m, occ, ax, ay) || dm->v[ay][ax] >= best)
            continue;
        best = dm->v[ay][ax];
        *nx = ax;
        *ny = ay;
        found = 1;
    }
    return found;
}

int ai_wander(const map_t *m, const uint8_t occ[MAP_H][MAP_W], rng_t *r,
              int x, int y, int *nx, int *ny)
{
    int k = rng_range(r, 0, 8); /* 8: stay */
    if (k == 8)
        return 0;
    int ax = x + dir8[k][0], ay = y + dir8[k][1];
    if (!tile_free(m, occ, ax, ay))
        return 0;
    *nx = ax;
    *ny = ay;
    return 1;
}

int ai_adjacent(int ax, int ay, int bx, int by)
{
    int dx = abs(ax - bx), dy = abs(ay - by);
    return dx <= 1 && dy <= 1 && (dx | dy) != 0;
}

int ai_wants_to_flee(int hp, int max_hp)
{
    return hp * 10 < max_hp * 3;
}

void ai_turn_begin(ai_turn_t *t, int px, int py)
{
    t->px = px;
    t->py = py;
    t->have_chase = 0;
    t->have_flee = 0;
}

/* The chase map, searched at least until (x, y) has its distance (off the
 * map: all of it): enough for a step down from (x, y), which reads only
 * the neighbours nearer than (x, y). */
static const uint16_t *chase_map(const map_t *m, ai_turn_t *t, int x, int y)
{
    if (!t->have_chase) {
        bfs_start(m, t->px, t->py, &t->bfs);
        t->have_chase = 1;
    }
    bfs_run(&t->bfs, map_in_bounds(x, y) ? grid_at(x, y) : GRID_NEVER);
    return t->bfs.dist;
}

/* The flee map, made once a phase: the chase search finished, then the
 * Dijkstra from it. */
static const int *flee_map(const map_t *m, ai_turn_t *t)
{
    if (!t->have_flee) {
        chase_map(m, t, -1, -1);
        flee_by_dijkstra(&t->bfs, t->flee);
        t->have_flee = 1;
    }
    return t->flee;
}

/* ai_step_down on the grid's maps: dist, the chase map, and v the values
 * read (NULL: dist's own), both only where dist is not AI_FAR16 (the
 * search took the tile: walkable and reachable; other cells, the border
 * among them, are as unreachable, DMAP_FAR). The same neighbours in the
 * same order as ai_step_down, so the same step for a monster on an open
 * tile, which every monster is (placements and steps test
 * map_walkable); one on a wall would stay where ai_step_down moved it. */
static int grid_step_down(const uint16_t *dist, const int *v,
                          const uint8_t occ[MAP_H][MAP_W], int x, int y,
                          int *nx, int *ny)
{
    if (!map_in_bounds(x, y) || dist[grid_at(x, y)] == AI_FAR16)
        return 0; /* DMAP_FAR here and at every walkable neighbour */
    int at = grid_at(x, y), found = 0;
    int best = v ? v[at] : dist[at];
    for (int k = 0; k < 8; k++) {
        int ax = x + dir8[k][0], ay = y + dir8[k][1], n = grid_at(ax, ay);
        if (dist[n] == AI_FAR16 || (occ && occ[ay][ax]))
            continue;
        int here = v ? v[n] : dist[n];
        if (here >= best)
            continue;
        best = here;
        *nx = ax;
        *ny = ay;
        found = 1;
    }
    return found;
}

int ai_decide(const map_t *m, ai_turn_t *t, const uint8_t occ[MAP_H][MAP_W],
              rng_t *r, int x, int y, int in_view, int hp, int max_hp,
              int *nx, int *ny)
{
    if (!in_view)
        return ai_wander(m, occ, r, x, y, nx, ny) ? AI_MOVE : AI_STAY;
    int adjacent = ai_adjacent(x, y, t->px, t->py);
    if (ai_wants_to_flee(hp, max_hp)) {
        const int *flee = flee_map(m, t);
        if (grid_step_down(t->bfs.dist, flee, occ, x, y, nx, ny))
            return AI_MOVE;
        return adjacent ? AI_ATTACK : AI_STAY; /* cornered */
    }
    if (adjacent)
        return AI_ATTACK;
    return grid_step_down(chase_map(m, t, x, y), NULL, occ, x, y, nx, ny)
               ? AI_MOVE : AI_STAY;
}
