/* ai.h - how monsters move: Dijkstra maps (chase and flee) and wandering.
 *
 * A distance map holds, for every walkable tile, the number of steps (8
 * directions, each costing 1) to a target; it is computed once per turn from
 * the player and shared by every monster, so chasing follows the true
 * shortest path round any pillar (a greedy step does not). The flee map
 * is the distance map inverted and rescanned (Brogue's "safety map"): rolling
 * downhill on it leads away from the player and out of dead ends instead of
 * into them. Maps ignore monsters; a step never enters a tile that `occ`
 * marks as taken. No allocation: a map is a value (on the caller's stack). */
#ifndef ROGUE_AI_H
#define ROGUE_AI_H

#include <stdint.h>

#include "map.h"
#include "rng.h"

#define DMAP_FAR 1000000 /* unreachable, or a wall */

typedef struct dmap {
    int v[MAP_H][MAP_W];
} dmap_t;

/* What a monster does this turn. */
enum ai_action {
    AI_STAY = 0,
    AI_MOVE,    /* to (*nx, *ny) */
    AI_ATTACK   /* the player, who is next to it */
};

/* Steps from (tx, ty) to every tile (BFS over walkable tiles, 8 neighbours).
 * Walls and unreachable tiles get DMAP_FAR. */
void ai_distance_map(const map_t *m, int tx, int ty, dmap_t *out);

/* The flee map from a distance map: every reachable tile starts at
 * -FLEE_FACTOR/10 times its distance, then each tile is lowered to at most
 * its lowest neighbour + 1 (scaled by 10) until nothing changes, so that
 * local minima in dead ends fill in. Done as just that, sweep after sweep
 * (slow: for tests and tools); a monsters' phase gets the same map from a
 * Dijkstra (ai.c, flee_by_dijkstra). */
#define AI_FLEE_FACTOR 12
void ai_flee_map(const map_t *m, const dmap_t *dist, dmap_t *out);

/* The step downhill from (x, y): the free neighbour (walkable, not taken in
 * occ, which may be NULL) with the lowest value strictly below the value at
 * (x, y); ties go to the first in a fixed order (orthogonal before
 * diagonal). Returns 1 and sets *nx, *ny, or 0 if no neighbour is lower. */
int ai_step_down(const map_t *m, const dmap_t *dm,
                 const uint8_t occ[MAP_H][MAP_W], int x, int y, int *nx,
                 int *ny);

/* A random step or a pause: one of the 8 neighbours or staying, each
 * equally likely (one rng_range call); a step onto a wall or a taken tile
 * becomes a pause. Returns 1 and sets *nx, *ny if it moves. */
int ai_wander(const map_t *m, const uint8_t occ[MAP_H][MAP_W], rng_t *r,
              int x, int y, int *nx, int *ny);

/* A breadth-first search over the map's open tiles on a padded grid (ai.c),
 * kept so that it can go on where it stopped. Its distances are kept on
 * that grid too: a tile's is written when the search takes it, and a cell
 * not taken yet (or a wall, or the border) is AI_FAR16, so that the search
 * starts with one memset, not a pass writing DMAP_FAR over a whole dmap_t
 * (docs/performance.md, "The monsters' maps on the grid, and a still
 * player's view"). */
#define AI_GRID_N ((MAP_H + 2) * (MAP_W + 1) + 1)
#define AI_FAR16 0xffffu
typedef struct ai_bfs {
    uint8_t open[AI_GRID_N];          /* walkable and not reached yet */
    uint16_t dist[AI_GRID_N];         /* steps from the start, AI_FAR16:
                                         not taken yet */
    uint16_t queue[MAP_W * MAP_H + 1];
    int head, tail;                   /* queue[head..tail): reached, not
                                         taken yet */
    int level_end, depth;             /* the tiles before queue[level_end]
                                         are at most `depth` away */
} ai_bfs_t;

/* The maps of one monster phase, made when the first monster needs them
 * (most turns no monster is in view, and then none is made). The chase
 * map (bfs.dist) is searched only as far from the player as the monsters
 * that read it stand (a monster in view is near; the whole level is ten
 * times as much), and finished when the flee map needs all of it. Both
 * are on ai.c's padded grid, and read there: the same values as
 * ai_distance_map's and ai_flee_map's, so the same steps. On the stack of
 * the monsters' phase: nothing is kept from one turn to the next. */
typedef struct ai_turn {
    int px, py;             /* the player */
    int have_chase, have_flee;
    ai_bfs_t bfs;           /* the chase map's search so far */
    int flee[AI_GRID_N];    /* the flee map where bfs.dist is not
                               AI_FAR16 (the search finished) */
} ai_turn_t;

/* Starts a monster phase for a player at (px, py). */
void ai_turn_begin(ai_turn_t *t, int px, int py);

/* One monster's decision (docs/game.md, "Monsters"): out of view it
 * wanders; in view it attacks when next to the player, else it flees below
 * 30% hp (attacking if cornered next to the player), else it chases along
 * the shortest path. Uses r only to wander. */
int ai_decide(const map_t *m, ai_turn_t *t, const uint8_t occ[MAP_H][MAP_W],
              rng_t *r, int x, int y, int in_view, int hp, int max_hp,
              int *nx, int *ny);

/* 1 if (ax, ay) and (bx, by) are neighbours (8 directions, not the same). */
int ai_adjacent(int ax, int ay, int bx, int by);

/* 1 if a monster with hp of max_hp flees (below 30%). */
int ai_wants_to_flee(int hp, int max_hp);

#endif
