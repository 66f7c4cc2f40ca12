/* item.h - the item content table (docs/game.md, "Items"): every kind the
 * player can carry, its effect and its numbers, and the item_t of the
 * floor.
 *
 * Every kind the player can carry is a row of one table (item_stats): its
 * glyph, colour, spawn weight and effect with the effect's numbers. The
 * floor holds item_t values (corpses and gold too, which are not carried);
 * the pack holds item kinds. No pointers anywhere: a game is one allocation
 * that hashes as bytes. This header is the content only and knows no game:
 * the floor and the pack are the world's (world.h, floor.c), using items
 * is a mode (inventory.h). */
#ifndef ROGUE_ITEM_H
#define ROGUE_ITEM_H

#include <stdint.h>

#include "rng.h"

#define PACK_SIZE 26        /* slots a-z */
#define PACK_STACK_MAX 99   /* potions and scrolls of a kind share a slot */
#define ITEMS_PER_ROOM_MAX 2 /* 0-2 in each room */

/* What lies on a floor tile. */
enum item_type {
    ITEM_NONE = 0,  /* a free slot */
    ITEM_CORPSE,    /* '%': kind is the monster kind; does not block, stays */
    ITEM_GOLD,      /* '$': amount; picked up by walking over it */
    ITEM_THING      /* something to carry: kind is an enum item_kind */
};

/* The rows of the table, in spawn-roll order. Stored in games (pack and
 * floor): the values never change once released. */
enum item_kind {
    IK_HEALTH_POTION = 0,
    IK_LIGHTNING,
    IK_FIREBALL,
    IK_CONFUSION,
    IK_DAGGER,
    IK_SWORD,
    IK_AXE,
    IK_WAR_HAMMER,
    IK_LEATHER,
    IK_CHAIN_MAIL,
    IK_PLATE_MAIL,
    IK_AMULET,          /* the goal: taking it wins (never in the pack) */
    IK_IDENTIFY,        /* game version 6: unknown items and ways out */
    IK_TELEPORT,
    IK_SUMMON,
    IK_SPEED,
    IK_SLEEP,
    IK_DART,            /* thrown (`t`), in stacks */
    IK_SPEAR,           /* a weapon that is also thrown well */
    IK_WAND_SLEEP,      /* a wand: its count in the pack is its charges */
    IK_COUNT
};

/* Kinds a game can know (world.h: game_t.known): room to grow without a
 * new layout for every kind. */
#define IK_MAX 32
_Static_assert(IK_COUNT <= IK_MAX, "game_t.known has a byte per kind");

/* What using a kind does. */
enum item_effect {
    EFFECT_HEAL = 0,    /* the player regains `power` hp, not above max */
    EFFECT_LIGHTNING,   /* `power` damage to the closest visible monster
                           within `range`; none: fizzles, nothing spent */
    EFFECT_FIREBALL,    /* a chosen tile in view: `power` damage to every
                           creature within `radius` of it, the player too */
    EFFECT_CONFUSION,   /* a chosen monster within `range`: confused for
                           `turns` turns */
    EFFECT_WIELD,       /* a weapon: using it wields it (or puts it away) */
    EFFECT_WEAR,        /* armour: using it puts it on (or takes it off) */
    EFFECT_AMULET,      /* picking it up wins the game */
    EFFECT_IDENTIFY,    /* the player picks a pack item: its kind is known */
    EFFECT_TELEPORT,    /* the player lands on a random free floor tile */
    EFFECT_SUMMON,      /* `power` monsters of the depth appear around you */
    EFFECT_SPEED,       /* `turns` turns in which monsters act every other
                           turn */
    EFFECT_SLEEP,       /* the player sleeps `turns` turns: monsters act */
    EFFECT_MISSILE,     /* nothing when used: it is thrown (`t`) */
    EFFECT_WAND_SLEEP   /* zapped at a monster within `range`: it sleeps
                           `turns` turns, or until hurt; a charge each */
};

typedef struct item_stats {
    const char *name;     /* "scroll of fireball" (lower case, no article) */
    char glyph;
    uint8_t colour;       /* COL_* (screen.h) */
    int weight;           /* spawn odds: weight out of the table's total */
    int effect;           /* enum item_effect */
    int power;            /* hp healed, or damage */
    int range;            /* from the player (Euclidean); 0: anywhere in view */
    int radius;           /* fireball: the blast, around the chosen tile */
    int turns;            /* confusion: how long */
    int targeted;         /* 1: the player chooses a tile first (target.h) */
    int min_depth;        /* spawns from this depth on (0 or 1: from the top) */
    int proper;           /* 1: a proper name, "the Amulet of Yendor" */
    int thrown;           /* 1: `t` throws it `range` tiles, its blow made
                             with the weapon numbers below */
    int charges_min, charges_max; /* a wand's charges when found */
    int cleave;           /* a weapon: a bump also strikes every other
                             monster next to the player (the battle axe) */
    int heavy;            /* armour: resting heals every other turn only
                             (chain and plate mail) */
    /* Game version 7 (docs/game.md, "Equipment"): trade-offs. */
    int quick;            /* a weapon: every second bump with it is free
                             (the monsters do not act after it) */
    int reach;            /* a weapon: a step toward a monster two tiles
                             away in a straight line strikes it instead */
    int clumsy;           /* a weapon: per cent of its blows that miss
                             before the ruleset is asked (one roll) */
    int slow;             /* armour: every second step taken in it costs
                             a second turn */
    /* Equipment, in every ruleset's terms (combat.h). A weapon replaces
     * the fist (d10: to_hit, dmg_min-dmg_max) and adds `attack` to attack
     * (attack-defense) and power (power), `dice` attack dice (dice-pool).
     * Armour replaces the burlap sack (d10: armor_defense, armor_class) and
     * adds `defense` to defense (attack-defense), takes `defense` off each
     * blow (power), and adds `dice` defense dice (dice-pool). */
    int attack, to_hit, dmg_min, dmg_max;
    int defense, armor_defense, armor_class;
    int dice;
} item_stats_t;

/* Something on the floor. Small (12 bytes): a game holds MAX_ITEMS. */
typedef struct item {
    uint8_t type;   /* enum item_type */
    uint8_t kind;   /* ITEM_CORPSE: monster kind; ITEM_THING: item kind */
    uint8_t seen;   /* 1 once the player has seen it: drawn where last seen */
    uint8_t x, y;   /* a tile of the map (monster.h: a coordinate is a byte) */
    uint8_t walked; /* 1 once the player has stood on it (autoexplore
                       stops going to it) */
    int8_t ench;    /* equipment: its enchantment, -2..+2 (below 0:
                       cursed) */
    uint8_t flags;  /* ITEM_F_* */
    int amount;     /* gold */
} item_t;

/* item_t.flags and game_t.pack_flags: what is known of one piece, and
 * what autoexplore knows of a floor item (docs/game.md, "Enchanted and
 * cursed equipment", "Autoexplore"). */
#define ITEM_F_KNOWN 1     /* its enchantment is known (worn or identified) */
#define ITEM_F_UNCURSED 2  /* a scroll of identify lifted its curse */
#define ITEM_F_DROPPED 4   /* the player dropped it: autoexplore leaves it */
#define ITEM_F_REVISITED 8 /* autoexplore came back to it once: declined */

/* The enchantment of a new piece of equipment: one rng_range call, -2 to
 * +2 (a quarter cursed, a quarter enchanted). */
int item_roll_enchant(rng_t *r);

/* The row of a kind (out of range: the health potion's). */
const item_stats_t *item_stats(int kind);

/* "a" or "an" for a kind's name ("the" for the Amulet). */
const char *item_article(int kind);

/* The article of a common name: "an" before a vowel of either case
 * ("an orc", "an Elbereth scroll"), else "a". */
const char *item_article_of(const char *name);

/* 1 for the kinds that look different in every game until known (potions
 * and scrolls: docs/game.md, "Unknown items"). */
int item_is_magic(int kind);

/* The weight of a kind at a depth (0: never spawns there). */
int item_weight(int kind, int depth);

/* Draws a kind for a level at `depth` by the table's weights (at depth 1:
 * potion 70, each scroll 10). One rng_range call. */
int item_pick_kind(rng_t *r, int depth);

/* 1 if a kind is a wand (its pack count is its charges). */
int item_is_wand(int kind);

/* 1 if a kind is a weapon or armour. */
int item_is_equipment(int kind);

/* 1 if (x, y) is within `range` of (ox, oy): dx*dx + dy*dy <= range*range
 * (distance is a straight line). */
int item_in_reach(int ox, int oy, int x, int y, int range);

#endif
