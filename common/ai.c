/* ai.c - Dijkstra maps (as in the tutorials and Brogue), chasing, fleeing,
 * wandering (docs/game.md, "Monster behaviour"). */
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

/* The index into a dmap's v, as one array, of grid cell p. */
static int grid_to_flat(int p)
{
    return p - p / GRID_S - GRID_S;
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

/* Starts a search from (tx, ty) into out: every tile DMAP_FAR until
 * taken. */
static void bfs_start(const map_t *m, int tx, int ty, dmap_t *out,
                      ai_bfs_t *b)
{
    int *flat = &out->v[0][0];
    for (int i = 0; i < MAP_W * MAP_H; i++)
        flat[i] = DMAP_FAR;
    b->head = b->tail = b->level_end = b->depth = 0;
    if (!map_walkable(m, tx, ty))
        return;
    memset(b->open, 0, sizeof b->open);
    for (int y = 0; y < MAP_H; y++)
        open_row(&b->open[grid_at(0, y)], m->tile[y]);
    b->queue[b->tail++] = (uint16_t)grid_at(tx, ty);
    b->open[grid_at(tx, ty)] = 0;
    b->level_end = b->tail;
}

/* Goes on with the search until the tile at flat index `goal` has its
 * distance (goal < 0: until every reachable tile has). In BFS order every
 * tile nearer than the goal is taken before it: once the goal has its
 * distance, so has every tile nearer, and the others are still DMAP_FAR,
 * which is more. */
static void bfs_run(ai_bfs_t *b, dmap_t *out, int goal)
{
    int *flat = &out->v[0][0];
    uint8_t *open = b->open;
    uint16_t *queue = b->queue;
    int head = b->head, tail = b->tail, end = b->level_end, d = b->depth;
    while (head < tail && (goal < 0 || flat[goal] >= DMAP_FAR)) {
        if (head == end) { /* the next distance */
            d++;
            end = tail;
        }
        int p = queue[head++];
        flat[grid_to_flat(p)] = d;
        /* The eight neighbours written out: a loop over grid_dir8 spent a
         * third of the search on its own counting. */
#define BFS_QUEUE(k)                                                        \
    do {                                                                    \
        int n_ = p + grid_dir8[k];                                          \
        queue[tail] = (uint16_t)n_;                                         \
        tail += open[n_];                                                   \
        open[n_] = 0;                                                       \
    } while (0)
        BFS_QUEUE(0); BFS_QUEUE(1); BFS_QUEUE(2); BFS_QUEUE(3);
        BFS_QUEUE(4); BFS_QUEUE(5); BFS_QUEUE(6); BFS_QUEUE(7);
#undef BFS_QUEUE
    }
    b->head = head;
    b->tail = tail;
    b->level_end = end;
    b->depth = d;
}

void ai_distance_map(const map_t *m, int tx, int ty, dmap_t *out)
{
    ai_bfs_t b;
    bfs_start(m, tx, ty, out, &b);
    bfs_run(&b, out, -1);
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
 * (tens of µs): ai_flee_map takes it only for distance maps no BFS makes. */
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

/* The sweeps converge to the one fixed point of "each tile at most its
 * lowest neighbour + 10": f(x) = min over tiles y of start(y) + 10 *
 * steps(x, y), the steps taken over tiles of the map (< DMAP_FAR, 8
 * directions). That is a shortest-path problem where every tile is also a
 * source with its own start value, and since every step costs the same,
 * Dijkstra needs no heap: popping the lower head of two queues, the sources
 * sorted by start value and a FIFO of relaxed tiles (whose values are
 * pushed in rising order), visits tiles in rising order of value. The
 * sources are sorted by counting sort on the distance, so this takes
 * distances in 0..MAP_W*MAP_H-1 (all a BFS gives); returns 0, leaving out
 * alone, for any other value. */
#define FLEE_DONE INT_MIN /* best[] of a cell that is final, or no tile */
#define FLEE_END INT_MAX  /* the value at an empty queue's head */

/* The sources of the flee map's Dijkstra: every reachable tile with its
 * start value, lowest first (the order among equal values does not change
 * the map: each tile ends at its least value whatever the order). */
typedef struct flee_src {
    uint16_t p[MAP_W * MAP_H + 1];
    int v[MAP_W * MAP_H + 1]; /* FLEE_END after the last */
    int n;
} flee_src_t;

/* The sources from any distance map, sorted by counting sort on the
 * distance; 0 for a distance outside 0..MAP_W*MAP_H-1. */
static int flee_sources_sorted(const dmap_t *dist, flee_src_t *s)
{
    enum { N = MAP_W * MAP_H };
    uint16_t slot[N]; /* tiles at, then next slot of, each distance */
    const int *d = &dist->v[0][0];
    int n = 0, maxd = 0;
    memset(slot, 0, sizeof slot);
    for (int t = 0; t < N; t++) {
        if (d[t] >= DMAP_FAR)
            continue;
        if (d[t] < 0 || d[t] >= N)
            return 0;
        if (d[t] > maxd)
            maxd = d[t];
        slot[d[t]]++;
        n++;
    }
    /* Farthest first: the lowest start values first. */
    for (int k = maxd, at = 0; k >= 0; k--) {
        int c = slot[k];
        slot[k] = (uint16_t)at;
        at += c;
    }
    for (int y = 0, t = 0; y < MAP_H; y++) {
        for (int x = 0; x < MAP_W; x++, t++) {
            if (d[t] >= DMAP_FAR)
                continue;
            int i = slot[d[t]]++;
            s->p[i] = (uint16_t)grid_at(x, y);
            s->v[i] = -AI_FLEE_FACTOR * d[t];
        }
    }
    s->n = n;
    s->v[n] = FLEE_END;
    return 1;
}

/* The sources from a finished search of the distance map: its queue holds
 * every reachable tile nearest first, so read backwards it is sorted
 * already, with no pass over the map. */
static void flee_sources_from_search(const ai_bfs_t *b, const dmap_t *dist,
                                     flee_src_t *s)
{
    const int *d = &dist->v[0][0];
    int n = b->tail;
    for (int i = 0; i < n; i++) {
        int p = b->queue[n - 1 - i];
        s->p[i] = (uint16_t)p;
        s->v[i] = -AI_FLEE_FACTOR * d[grid_to_flat(p)];
    }
    s->n = n;
    s->v[n] = FLEE_END;
}

static void flee_by_dijkstra(const flee_src_t *s, dmap_t *out)
{
    enum { N = MAP_W * MAP_H };
    int best[GRID_N];      /* the lowest value found so far */
    uint16_t fifo_p[N + 1];
    int fifo_v[N + 1];     /* values of relaxed tiles; FLEE_END after */
    const uint16_t *src_p = s->p;
    const int *src_v = s->v;
    int n = s->n;
    for (int i = 0; i < GRID_N; i++)
        best[i] = FLEE_DONE;
    for (int i = 0; i < n; i++)
        best[src_p[i]] = src_v[i];
    int *of = &out->v[0][0];
    for (int t = 0; t < N; t++)
        of[t] = DMAP_FAR;
    fifo_v[0] = FLEE_END;
    int src = 0, head = 0, tail = 0;
    while (src < n || head < tail) {
        /* The lower head (an empty queue's is FLEE_END), without a branch. */
        int from_fifo = fifo_v[head] < src_v[src];
        int p = from_fifo ? fifo_p[head] : src_p[src];
        int v = from_fifo ? fifo_v[head] : src_v[src];
        head += from_fifo;
        src += !from_fifo;
        if (best[p] == FLEE_DONE)
            continue; /* reached at a lower value already */
        best[p] = FLEE_DONE;
        of[grid_to_flat(p)] = v;
        /* A tile not final yet, higher than this way: pushed. Values are
         * popped in rising order, so a tile is pushed at most once (a later
         * push would not be lower). The eight written out, as in bfs_run. */
#define FLEE_PUSH(k)                                                        \
    do {                                                                    \
        int q_ = p + grid_dir8[k];                                          \
        if (v + 10 < best[q_]) {                                            \
            best[q_] = v + 10;                                              \
            fifo_p[tail] = (uint16_t)q_;                                    \
            fifo_v[tail++] = v + 10;                                        \
            fifo_v[tail] = FLEE_END;                                        \
        }                                                                   \
    } while (0)
        FLEE_PUSH(0); FLEE_PUSH(1); FLEE_PUSH(2); FLEE_PUSH(3);
        FLEE_PUSH(4); FLEE_PUSH(5); FLEE_PUSH(6); FLEE_PUSH(7);
#undef FLEE_PUSH
    }
}

void ai_flee_map(const map_t *m, const dmap_t *dist, dmap_t *out)
{
    (void)m; /* the distance map says which tiles are open */
    flee_src_t src;
    if (flee_sources_sorted(dist, &src)) {
        flee_by_dijkstra(&src, out);
        return;
    }
    /* Scaled by 10: a step costs 10, a tile starts at -12 x its distance. */
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            out->v[y][x] = dist->v[y][x] >= DMAP_FAR
                               ? DMAP_FAR : -AI_FLEE_FACTOR * dist->v[y][x];
    flee_by_sweeps(out);
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
 * map: all of it): enough for ai_step_down from (x, y), which reads only the
 * neighbours nearer than (x, y). */
static const dmap_t *chase_map(const map_t *m, ai_turn_t *t, int x, int y)
{
    if (!t->have_chase) {
        bfs_start(m, t->px, t->py, &t->chase, &t->bfs);
        t->have_chase = 1;
    }
    bfs_run(&t->bfs, &t->chase, map_in_bounds(x, y) ? y * MAP_W + x : -1);
    return &t->chase;
}

static const dmap_t *flee_map(const map_t *m, ai_turn_t *t)
{
    if (!t->have_flee) {
        /* ai_flee_map's, with the sources read from the finished search */
        flee_src_t src;
        flee_sources_from_search(&t->bfs, chase_map(m, t, -1, -1), &src);
        flee_by_dijkstra(&src, &t->flee);
        t->have_flee = 1;
    }
    return &t->flee;
}

int ai_decide(const map_t *m, ai_turn_t *t, const uint8_t occ[MAP_H][MAP_W],
              rng_t *r, int x, int y, int in_view, int hp, int max_hp,
              int *nx, int *ny)
{
    if (!in_view)
        return ai_wander(m, occ, r, x, y, nx, ny) ? AI_MOVE : AI_STAY;
    int adjacent = ai_adjacent(x, y, t->px, t->py);
    if (ai_wants_to_flee(hp, max_hp)) {
        if (ai_step_down(m, flee_map(m, t), occ, x, y, nx, ny))
            return AI_MOVE;
        return adjacent ? AI_ATTACK : AI_STAY; /* cornered */
    }
    if (adjacent)
        return AI_ATTACK;
    return ai_step_down(m, chase_map(m, t, x, y), occ, x, y, nx, ny)
               ? AI_MOVE : AI_STAY;
}
