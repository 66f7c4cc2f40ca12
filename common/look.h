/* look.h - the look command (`;` or `x`): a cursor that says what is on a
 * tile, as the player knows it (game_describe, game.h).
 *
 * A mode (MODE_LOOK) like targeting: the cursor starts on the nearest
 * monster in view (or the player); the movement keys move it and the view
 * shows the description of its tile on the status line; Enter, '.' or ';'
 * puts the description in the log and ends; Esc (or any other key) ends.
 * Never a turn. */
#ifndef ROGUE_LOOK_H
#define ROGUE_LOOK_H

struct game;

/* Enters MODE_LOOK with the cursor placed. */
void look_begin(struct game *g);

/* One key in MODE_LOOK. Returns 0 (looking never takes a turn). */
int look_key(struct game *g, int key);

#endif
