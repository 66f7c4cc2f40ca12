/* ai.c - Dijkstra maps (000 part 6, Brogue), chasing, fleeing, wandering. */
#include "ai.h"

#include <stdlib.h>

/* The eight neighbours, orthogonal first: the tie-break order of steps. */
static const int dir8[8][2] = {
    { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 },
    { 1, -1 }, { 1, 1 }, { -1, 1 }, { -1, -1 },
};

void ai_distance_map(const map_t *m, int tx, int ty, dmap_t *out)
{
    /* Every step costs 1, so Dijkstra is a breadth-first search. */
    int queue[MAP_W * MAP_H];
    int head = 0, tail = 0;
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            out->v[y][x] = DMAP_FAR;
    if (!map_walkable(m, tx, ty))
        return;
    out->v[ty][tx] = 0;
    queue[tail++] = ty * MAP_W + tx;
    while (head < tail) {
        int i = queue[head++], x = i % MAP_W, y = i / MAP_W;
        int d = out->v[y][x] + 1;
        for (int k = 0; k < 8; k++) {
            int ax = x + dir8[k][0], ay = y + dir8[k][1];
            if (!map_walkable(m, ax, ay) || out->v[ay][ax] <= d)
                continue;
            out->v[ay][ax] = d;
            if (tail < MAP_W * MAP_H)
                queue[tail++] = ay * MAP_W + ax;
        }
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

void ai_flee_map(const map_t *m, const dmap_t *dist, dmap_t *out)
{
    /* Scaled by 10: a step costs 10, a tile starts at -12 x its distance. */
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            out->v[y][x] = dist->v[y][x] >= DMAP_FAR
                               ? DMAP_FAR : -AI_FLEE_FACTOR * dist->v[y][x];
    /* Alternate forward and backward sweeps until nothing changes (values
     * only fall and are bounded below, so this ends; on room-and-corridor
     * maps within a few sweeps). */
    (void)m;
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

static const dmap_t *chase_map(const map_t *m, ai_turn_t *t)
{
    if (!t->have_chase) {
        ai_distance_map(m, t->px, t->py, &t->chase);
        t->have_chase = 1;
    }
    return &t->chase;
}

static const dmap_t *flee_map(const map_t *m, ai_turn_t *t)
{
    if (!t->have_flee) {
        ai_flee_map(m, chase_map(m, t), &t->flee);
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
    return ai_step_down(m, chase_map(m, t), occ, x, y, nx, ny) ? AI_MOVE
                                                               : AI_STAY;
}
