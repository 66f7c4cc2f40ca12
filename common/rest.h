/* rest.h - waiting, resting and counts (docs/game.md, "Resting and
 * counts"): a mode of the core (world.h says which layers there are).
 *
 * `.` waits a turn; `R` rests until healed (and the poison gone) or
 * until something happens; `0`, a number, then a wait or a direction does
 * that many (the digits 1-9 alone are the numpad's moves, so a count starts
 * with 0). Each turn is an ordinary one; they stop as running does. */
#ifndef ROGUE_REST_H
#define ROGUE_REST_H

#include "world.h"

/* Rests take at most this many turns a key. */
#define REST_MAX 1000
/* The largest count. */
#define COUNT_MAX 999

/* One turn of waiting: with no monster in view and no poison, 1 HP back.
 * Returns 1 (a turn). */
int rest_wait(game_t *g);

/* `R`: waits until HP is full and no poison is left, a monster comes
 * into view (named), HP is lost to anything but the poison, a blow comes,
 * or REST_MAX turns. Refused with a monster in view, nothing to heal, or
 * poison left that would kill first (no turn). Returns 1 if it took a
 * turn. */
int rest_until_healed(game_t *g);

/* `0`: MODE_COUNT, the count at 0. */
void rest_count_begin(game_t *g);

/* One key in MODE_COUNT: a digit (`5` and the numpad's too) adds to the
 * count; `.` or a direction does it that many times (stopping as running does, and after
 * a blow or other bad news, or poison left that would kill: rest.c
 * repeat); any other key ends the count with a line. Returns 1 if a turn
 * was taken. */
int rest_count_key(game_t *g, int key);

#endif
