/* walker.h - a small bot for the tests that need a game in a given state
 * (a scroll in the pack, a monster killed, the stairs taken): it plays the
 * game in-process, knowing the map, and records the keys it pressed, so
 * that a test can send the very same keys to a server started with the
 * same seed. Game core only: no client, no I/O. */
#ifndef ROGUE_TEST_WALKER_H
#define ROGUE_TEST_WALKER_H

#include "game.h"

#define WALK_MAX_KEYS 400
#define WALK_RIGHT_CLICK (-2) /* a right press on the map: Esc to the game */

typedef struct walk_keys {
    int n;
    int keys[WALK_MAX_KEYS];   /* game keys, click keys, WALK_RIGHT_CLICK */
} walk_keys_t;

/* The movement key for a step (dx, dy), '.' for none. */
char walk_dir_key(int dx, int dy);

/* Feeds one recorded key to the game. */
void walk_feed(game_t *g, int key);

/* Records key and plays it. Returns 0 when the record is full. */
int walk_push(walk_keys_t *k, game_t *g, int key);

/* Walks to (tx, ty) along the shortest path, bumping (attacking) whatever
 * monster stands in the way. Returns 1 once there, alive. */
int walk_to(walk_keys_t *k, game_t *g, int tx, int ty);

/* The nearest thing of `kind` (< 0: of any kind) on the level by path,
 * within max steps. Returns 1 and its tile. */
int walk_nearest_item(const game_t *g, int kind, int max, int *tx, int *ty);

/* The first tile in view (row by row) at least 4 from the player that may
 * be aimed at: a fireball there does not burn the player. */
int walk_far_tile(const game_t *g, int *tx, int *ty);

#endif
