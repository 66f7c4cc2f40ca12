/* target.h - choosing a tile for a scroll: the targeting cursor (docs/game.md).
 *
 * Targeting is a mode of the game (MODE_TARGET), not a nested input loop:
 * the dispatcher starts it for a scroll that needs a tile (item_needs_aim), and every key until it ends goes to target_key. The
 * cursor starts on the nearest visible monster (or on the player); the
 * movement keys move it; Enter or '.' chooses; a click key (keys.h,
 * KEY_CLICK_BASE) moves it to the clicked tile and chooses; Esc cancels,
 * keeping the scroll and the turn. A choice out of view or out of range is
 * refused with a line and targeting goes on. */
#ifndef ROGUE_TARGET_H
#define ROGUE_TARGET_H

#include "world.h"

/* Starts aiming the scroll in pack slot `slot`: MODE_TARGET, the cursor on
 * the nearest visible monster (or the player), a prompt in the log. */
void target_begin(game_t *g, int slot);

/* Starts aiming a throw of pack slot `slot` (item_can_throw): the same
 * cursor, within the item's range; choosing throws it (item_throw_at). */
void target_begin_throw(game_t *g, int slot);

/* One key in MODE_TARGET. Returns 1 if it took a turn (the scroll was
 * cast), else 0. */
int target_key(game_t *g, int key);

/* 1 if (x, y) may be chosen: in the player's view and within the range
 * (what the view highlights). */
int target_allowed(const game_t *g, int x, int y);

#endif
