/* travel.h - moving more than a step with one key: running in a direction
 * (Shift + a direction), travel to the stairs (`_`, or `>` off the stairs),
 * travel to a tile clicked or tapped, and autoexplore (`o`).
 *
 * Each is a run of ordinary steps (game_step, a turn each) inside one key,
 * deterministic like every key. None starts with a monster in view, and
 * each stops after the step on which a monster comes into view, the player
 * loses HP, something lies underfoot, or the way ends; at most
 * GAME_RUN_MAX steps. Travel and autoexplore go only over tiles the player
 * has seen, by the shortest path (8 directions). No allocation. */
#ifndef ROGUE_TRAVEL_H
#define ROGUE_TRAVEL_H

#include "world.h"

/* Runs in direction (dx, dy) until something stops it. Returns 1 if it
 * took at least one turn. */
int travel_run(game_t *g, int dx, int dy);

/* Walks to the stairs down, once they have been seen. Returns 1 if it took
 * at least one turn. */
int travel_to_stairs(game_t *g);

/* Walks toward the nearest of: an item seen and never stood on (or, with
 * autopickup on, one it would pick up), gold seen, or a seen tile next to
 * one not seen yet (all goals alike: an item is not preferred to a nearer
 * unseen edge), choosing again after each step; stops on arriving at an
 * item. With nothing of those left, walks
 * back to the nearest item left behind (docs/game.md, "Autoexplore").
 * Returns 1 if it took at least one turn. */
int travel_explore(game_t *g);

/* A click (or tap) on tile (x, y) outside aiming: a tile next to the
 * player is one step there (a blow if a monster stands on it), as its
 * direction key; a tile further away is walked to like travel, over seen
 * tiles by the shortest path, stopping as travel stops. Refused with a
 * line and no turn: a tile not seen or not walkable, or no known way
 * ("You know no way there."), or a monster in view. The player's own
 * tile: nothing. Returns 1 if it took at least one turn. */
int travel_to_tile(game_t *g, int x, int y);

/* 1 if autopickup is on and the player stands on a thing it takes. */
int travel_autopickup_here(const game_t *g);

/* The first step (*dx, *dy) of the shortest path over seen, walkable tiles
 * free of visible monsters from the player to the nearest tile where
 * goal(g, x, y) is 1. Returns the path's length (0: already there), or -1
 * if none is reachable. */
int travel_first_step(const game_t *g,
                      int (*goal)(const game_t *g, int x, int y),
                      int *dx, int *dy);

#endif
