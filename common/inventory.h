/* inventory.h - the items mode: picking up, using, dropping and casting
 * what the pack holds (docs/game.md, "Items", "The pack"). A mode of the
 * core (world.h says which layers there are): it calls the world below it
 * and nothing above. A scroll that needs a tile is aimed first (target.h,
 * which calls item_cast_at here once a tile is chosen). */
#ifndef ROGUE_INVENTORY_H
#define ROGUE_INVENTORY_H

#include "world.h"

/* `g`/`,`: picks up the thing underfoot (onto a slot of the same kind if it
 * stacks, else the first free letter; the Amulet wins the game). Returns 1
 * if it took a turn. */
int item_pick_up(game_t *g);

/* 1 if using pack slot `slot` needs a tile chosen first (a targeted scroll):
 * the dispatcher then starts aiming (target_begin) instead of item_use. */
int item_needs_aim(const game_t *g, int slot);

/* Uses pack slot `slot`: a potion or a lightning bolt acts at once (a turn,
 * or a refusal with a line and no turn); equipment is wielded or worn, or
 * put away. A scroll that needs a target is not used here (item_needs_aim).
 * Returns 1 if a turn was taken. */
int item_use(game_t *g, int slot);

/* Drops one of pack slot `slot` on the player's tile (equipment in use is
 * taken off first). Returns 1 (a turn) or 0. */
int item_drop(game_t *g, int slot);

/* Casts the scroll in pack slot `slot` on (x, y), which the targeting has
 * already checked is in view and in range. Returns 1 if it was cast (the
 * scroll is spent, a turn taken), 0 if refused with a line (confusion on a
 * tile with no monster). */
int item_cast_at(game_t *g, int slot, int x, int y);

/* 1 if pack slot `slot` holds something that can be thrown (darts,
 * daggers, spears). */
int item_can_throw(const game_t *g, int slot);

/* Throws one of pack slot `slot` at (x, y), which the targeting has checked
 * is in view and in range: it flies in a line and stops at the first
 * monster (a blow with it as the weapon: game_player_throws) or before a
 * wall, and lies there. A turn. Returns 1, or 0 if nothing was thrown. */
int item_throw_at(game_t *g, int slot, int x, int y);

#endif
