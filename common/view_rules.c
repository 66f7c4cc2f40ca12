/* view_rules.c - help page 2's words on how a blow is decided, for the
 * ruleset the game plays (docs/game.md, "Combat: the four rulesets"): a
 * line of the log as an example, and the rule in a sentence or two. The
 * full page and the narrow one (view_help_narrow.c) wrap the same words
 * to their widths, so that a server never explains another ruleset's
 * rolls. */
#include "combat.h"
#include "view_parts.h"

static const struct {
    const char *example;
    const char *rule;
} rules[RULES_COUNT] = {
    [RULES_ATTACK_DEFENSE] = {
        "You hit the orc for 4 damage!",
        "Every blow hits, for attack - defense (never below 0); one blow "
        "in ten is a critical hit, for double.",
    },
    [RULES_POWER] = {
        "The goblin hits you for 3. (You: 27 hp)",
        "Every blow hits, for the attacker's power; the armour you wear "
        "takes its defense + 1 off each blow on you.",
    },
    [RULES_D10] = {
        "You swing your fist at the skeleton and hit for 2.",
        "A blow hits if a d10 + the weapon's to-hit beats the defender's "
        "armour class; it deals a roll in the weapon's damage range, less "
        "what the armour absorbs (never below 0).",
    },
    [RULES_DICE_POOL] = {
        "You hit the orc: [12 88 95] 2 vs [40 97] 1 = 1 damage.",
        "[..] are the d100 rolls; a roll of 100 - chance or more is a hit "
        "(a block for the defender); damage = hits - blocks.",
    },
};

/* An unknown ruleset plays as the default (combat_resolve): so it is
 * explained. */
static int known(int r)
{
    return r >= 0 && r < RULES_COUNT ? r : RULES_ATTACK_DEFENSE;
}

const char *view_rules_example(int ruleset)
{
    return rules[known(ruleset)].example;
}

const char *view_rules_text(int ruleset)
{
    return rules[known(ruleset)].rule;
}
