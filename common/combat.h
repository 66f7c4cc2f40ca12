/* combat.h - the four combat rulesets: one attack in, its outcome and log
 * lines out.
 *
 * A ruleset is chosen per game (game_options_t.ruleset). Resolving a blow is
 * a pure function of the two fighters and the rolls it is given: the game
 * passes its rules RNG through `roll`, tests pass scripted rolls, so every
 * rule can be checked against exact numbers. Applying the damage (death,
 * corpse, XP) is the game's job. */
#ifndef ROGUE_COMBAT_H
#define ROGUE_COMBAT_H

#include "monster.h"
#include "world.h"

/* The order is fixed (game records store it): 0 is the default. */
enum ruleset {
    RULES_ATTACK_DEFENSE = 0, /* max(0, attack - defense), 10% crits x2 */
    RULES_POWER,              /* the defender loses the attacker's power */
    RULES_D10,                /* d10 + to-hit > AC, weapon roll - armor */
    RULES_DICE_POOL,          /* attack d100s minus defense d100s */
    RULES_COUNT
};

#define COMBAT_CRIT_PCT 10    /* attack-defense: chance of a critical hit */
#define COMBAT_MAX_LINES 3    /* log lines one blow may write */

/* Returns a uniform integer in [lo, hi]. The game's is rng_range on its
 * rules stream; a test's returns the rolls it was scripted with. */
typedef int (*combat_roll_fn)(void *ctx, int lo, int hi);

/* One side of a blow, in every ruleset's terms. */
typedef struct fighter {
    const char *name;      /* the kind's name ("goblin"); the player: "you" */
    int is_player;
    int hp;                /* before the blow (power's line shows what is left) */
    int attack, defense;   /* power, attack-defense */
    const char *weapon;    /* d10 */
    int to_hit, dmg_min, dmg_max;
    int armor_defense, armor_class;
    int att_dice, att_chance, def_dice, def_chance; /* dice-pool */
    int absorb;            /* power: taken off each blow it receives (the
                              player's armour; 0 for monsters) */
    int breath;            /* 1: the blow is the kind's breath (the dragon's
                              fire from afar), told as "The dragon's fire
                              burns you" ("does you no harm" for no damage)
                              rather than a hit (game version 9) */
} fighter_t;

typedef struct combat_line {
    char text[MSG_LEN];
    uint8_t kind;          /* enum msg_kind: MSG_GOOD for the player's blows,
                              MSG_BAD for blows on the player */
} combat_line_t;

typedef struct combat_result {
    int hit;               /* the blow connected (dice-pool: any hit die) */
    int crit;              /* attack-defense: a critical hit (damage doubled) */
    int damage;            /* hp the defender loses, >= 0 (not capped) */
    int nlines;
    combat_line_t line[COMBAT_MAX_LINES];
} combat_result_t;

/* Fills f from a content row: hp is the current hp; `bonus` (the player's
 * levels gained) adds to power/attack, to both ends of the weapon's damage
 * and to the attack dice. */
void combat_fighter(fighter_t *f, const creature_stats_t *s, int is_player,
                    int hp, int bonus);

/* Resolves one blow of att on def under ruleset r (an unknown r resolves as
 * the default). The rolls it asks for, in order:
 *   power           none;
 *   attack-defense  roll(1, 100): <= COMBAT_CRIT_PCT is a critical hit;
 *   d10             roll(1, 10) to hit; on a hit roll(dmg_min, dmg_max);
 *   dice-pool       att_dice x roll(1, 100), each >= 100 - att_chance a hit;
 *                   if any hit, def_dice x roll(1, 100), each
 *                   >= 100 - def_chance a block.
 * Writes out (every byte: unused line text is zeroed). */
void combat_resolve(int r, const fighter_t *att, const fighter_t *def,
                    combat_roll_fn roll, void *ctx, combat_result_t *out);

/* The ruleset's config name ("attack-defense"), or NULL if out of range. */
const char *combat_ruleset_name(int r);

/* The ruleset called `name`, or -1. */
int combat_ruleset_parse(const char *name);

/* Every name, comma-separated, in the order of the source tutorials:
 * "power, attack-defense, d10, dice-pool". For error messages. */
const char *combat_ruleset_names(void);

#endif
