/* magic.h - the potions and scrolls of game version 6 (docs/game.md,
 * "Unknown items", "Ways out"), a part of the items mode (inventory.c):
 * identify, teleportation, summon monster, speed and sleeping, and what
 * using an unknown kind teaches. */
#ifndef ROGUE_MAGIC_H
#define ROGUE_MAGIC_H

#include "world.h"

/* The player learns `kind` by using it: "The murky potion was a potion of
 * speed." when it was unknown. */
void magic_learn(game_t *g, int kind);

/* Uses the potion or scroll in pack slot `slot` whose row is k (one of the
 * effects above). Returns 1 if a turn was taken (identify takes its turn
 * once an item is chosen: magic_identify_key). */
int magic_use(game_t *g, int slot, const item_stats_t *k);

/* One key in MODE_IDENTIFY (a scroll of identify was read): a letter of an
 * unknown item identifies its kind (a turn); a known one is refused; Esc
 * gives the chance up (a turn). Other keys do nothing. Returns 1 on a
 * turn. */
int magic_identify_key(game_t *g, int key);

#endif
