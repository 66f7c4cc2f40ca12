/* game.h - one game: the whole state of one player's dungeon, and the
 * dispatcher that feeds it keys (game.c).
 *
 * The core is a state machine behind a handle: game_new, game_key, game_free.
 * It does no I/O, reads no clock, has no globals and picks no seed of its own,
 * so (version, seed, options, keys) replays a game exactly. Every game owns
 * all of its memory in one allocation; instances share nothing.
 *
 * This is the top of the core's layers (world.h says which): the host
 * includes this header and gets the state (world.h) and every mode's
 * functions with it. */
#ifndef ROGUE_GAME_H
#define ROGUE_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "inventory.h"
#include "look.h"
#include "magic.h"
#include "rest.h"
#include "target.h"
#include "travel.h"
#include "world.h"

/* 2: monsters, combat rulesets (options.ruleset), death, items on the floor.
 * 3: items, the pack, targeting and click keys, stairs and depth.
 * 4: the same rules as 3; game_hash (the checks in records) is another
 *    function, of a smaller state (monster_t, item_t). */
/* 5: fourteen monster kinds (behaviours: monster.h), equipment, the Amulet
 *    and the win, a stacking pack with stable letters, running, travel,
 *    autoexplore, look, compact dice-pool lines; docs/game.md. */
/* 6: unknown potions and scrolls with appearances of each game's own, five
 *    new kinds (identify, teleportation, summon monster, speed, sleeping),
 *    throwing (darts, daggers, spears), a wand of sleep with charges,
 *    fleeing monsters that turn back and do not heal while they run,
 *    resting and counts, autoexplore to gold, merged repeated lines;
 *    docs/game.md. */
/* 7: equipment with trade-offs: a quick dagger, a reaching spear, a war
 *    hammer that misses a quarter of its blows, plate mail that slows
 *    steps; enchanted and cursed pieces unknown until worn or identified;
 *    autoexplore back to items left behind and autopickup (`A`); a click
 *    or tap on the map travels there; and the monster table tuned with the
 *    screen-only bot (docs/balance.md): the dragon, wraith and skeleton
 *    softer, the necromancer, ogre, hobgoblin and wolf harder, less XP from
 *    the kinds of depth 3 on, more monsters a room below depth 7;
 *    docs/game.md. */
/* 8: the curve retuned with the screen-only bot on the merged version 7
 *    (docs/balance.md, "Game version 8"): the troll, hobgoblin and wolf
 *    hit softer and (attack-defense) are harder to hurt; power's armour
 *    takes its defense plus one (not twice) and plate mail's defense is 3;
 *    the necromancer rarer at depth 8 and a die less in dice-pool; the
 *    ogre, wraith, necromancer and dragon easier to hurt, the orc,
 *    skeleton, orc archer and giant spider harder (attack-defense); the
 *    wraith, necromancer and dragon a point more damage in d10;
 *    docs/game.md. */
/* 9: the changes held for it (docs/game.md, "Game version 9"): the log's
 *    words (no "Critical hit!" over no damage, a kept throw, `q` and `<`
 *    answered, what a monster in view refused); explore and travel
 *    refused before their search when a monster is in view; depth 12's
 *    `_`, `>`, explore and Look speak of the Amulet; autopickup leaves a
 *    second piece of a kind carried; walks, runs and counts say why they
 *    stopped; a count stops on a blow; the dragon's breath told as
 *    breath; an unknown aimed scroll learnt only once cast. */
/* 10: the changes held for it (docs/game.md, "Game version 10"): what
 *    is told of monsters out of view (a confusion's end, a confused
 *    monster's blow on another); lines merged only about the same
 *    monster; an arrival told before what the monsters did in its turn;
 *    the throw prompt names the enchantment known, a wand is zapped; the
 *    win told once; autopickup's item told once; the history's lines
 *    kept as records of their own length (about 230 lines, not 128, in
 *    the same bytes); a fleeing archer or dragon shoots only when
 *    cornered (a rule: docs/balance.md, "Game version 10"). */
/* 11: a play-test's words (docs/game.md, "Game version 11"): a count's
 *    prompt on the status line only, Backspace a digit back and Esc
 *    giving a count up quietly, a count of waits told; "1 turn"; an
 *    unknown health potion at full health says so; d10's blows of a
 *    monster's body (bites, claws, reaches for) and a blow for nothing;
 *    dice-pool's "[none]"; the lightning bolt's line; identify's letter
 *    of no item said. */
#define GAME_VERSION 11

/* A new game from a seed. opt may be NULL (defaults). NULL on OOM. */
game_t *game_new(uint64_t seed, const game_options_t *opt);

/* A copy of g that shares nothing with it (NULL on OOM): a game is one
 * allocation with no pointers. */
game_t *game_clone(const game_t *g);

/* The state's bytes as a snapshot holds them: GAME_STATE_BYTES at out
 * (world.h; game_state.c). */
void game_state_bytes(const game_t *g, void *out);

/* A game from a snapshot's bytes (GAME_STATE_BYTES of them:
 * game_state_bytes), its derived part worked out; NULL on another length
 * or OOM. */
game_t *game_from_state(const void *state, size_t len);

/* Works out g's derived part (world.h) from its state: after the state's
 * bytes were written other than by the rules (a snapshot, a test's scene
 * set by hand). */
void game_derive(game_t *g);

/* Frees a game (NULL is fine). */
void game_free(game_t *g);

/* Feeds one key (keys.h). Returns 1 if it took a turn, 0 if not. */
int game_key(game_t *g, int key);

/* 1 once the player has confirmed quitting. */
int game_over(const game_t *g);

/* 1 while the game asks "Really quit? (y/n)" (Q, Ctrl-C). */
int game_quit_asked(const game_t *g);

/* 1 once the game has ended by death (MODE_DEAD) or by a win (MODE_WON).
 * The core takes no more keys; the host records the game and offers a new
 * one (with a new seed: the core picks none) or goodbye. */
int game_dead(const game_t *g);

/* 1 once the player has taken the Amulet (MODE_WON; game_dead is 1 too). */
int game_won(const game_t *g);

/* The death screen's choice for a key: 1 a new game (Space, r), -1 leave
 * (Esc, q, Q, Ctrl-C), 0 nothing. */
int game_dead_choice(int key);

/* The score: XP + gold + GAME_DEPTH_SCORE per dungeon level below the
 * first (x (depth - 1), not the character's level). */
int game_score(const game_t *g);

/* 1 while the game is targeting (MODE_TARGET): the host turns mouse
 * reporting on for exactly that time. */
int game_targeting(const game_t *g);

/* A 64-bit hash of everything that decides the game's future (the
 * state's GAME_STATE_BYTES, game_state_bytes): for replay checks and
 * determinism tests. Records keep it (record.h), so a change of the
 * function or of those bytes is a new GAME_VERSION. */
uint64_t game_hash(const game_t *g);

#endif
