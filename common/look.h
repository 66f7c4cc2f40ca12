/* look.h - the look command (`;` or `x`): a cursor that says what is on a
 * tile, as the player knows it (game_describe, world.h).
 *
 * A mode (MODE_LOOK) like targeting: the cursor starts on the nearest
 * monster in view (or the player); the movement keys move it and the view
 * shows the description of its tile on the status line; Enter, '.' or ';'
 * puts the description in the log and ends; Esc (or any other key) ends.
 * Never a turn. */
#ifndef ROGUE_LOOK_H
#define ROGUE_LOOK_H

#include "world.h"

/* Enters MODE_LOOK with the cursor placed. */
void look_begin(game_t *g);

/* One key in MODE_LOOK. Returns 0 (looking never takes a turn). */
int look_key(game_t *g, int key);

#endif
