/* item.h - things on the floor and in the pack: the item content table
 * (docs/game.md, "Items"), spawning, the pack, equipment, and what each
 * item does.
 *
 * Every kind the player can carry is a row of one table (item_stats): its
 * glyph, colour, spawn weight and effect with the effect's numbers. The
 * floor holds item_t values (corpses and gold too, which are not carried);
 * the pack holds item kinds. No pointers anywhere: a game is one allocation
 * that hashes as bytes. The functions that change a game take a game_t
 * (game.h) and use only its rules stream. */
#ifndef ROGUE_ITEM_H
#define ROGUE_ITEM_H

#include <stdint.h>

#include "rng.h"

struct game;

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
    IK_COUNT
};

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
    EFFECT_AMULET       /* picking it up wins the game */
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
    uint8_t pad[2]; /* always 0 */
    int amount;     /* gold */
} item_t;

/* The row of a kind (out of range: the health potion's). */
const item_stats_t *item_stats(int kind);

/* "a" or "an" for a kind's name. */
const char *item_article(int kind);

/* The weight of a kind at a depth (0: never spawns there). */
int item_weight(int kind, int depth);

/* Draws a kind for a level at `depth` by the table's weights (at depth 1:
 * potion 70, each scroll 10). One rng_range call. */
int item_pick_kind(rng_t *r, int depth);

/* 1 if a kind is a weapon or armour. */
int item_is_equipment(int kind);

/* 1 if (x, y) is within `range` of (ox, oy): dx*dx + dy*dy <= range*range
 * (distance is a straight line). */
int item_in_reach(int ox, int oy, int x, int y, int range);

/* --- the floor ------------------------------------------------------------- */

/* The first floor item of `type` at (x, y), or NULL. */
item_t *item_find(struct game *g, int type, int x, int y);

/* Puts an item on (x, y): gold on gold adds up, a corpse on a corpse
 * replaces it, things lie side by side. Returns the item, or NULL when
 * every floor slot is taken (the item is not placed). */
item_t *item_put(struct game *g, int type, int kind, int x, int y,
                 int amount);

/* 0-ITEMS_PER_ROOM_MAX things in every room, never on the stairs, on the
 * player or on another thing (a taken tile is skipped, as for monsters);
 * on the last level (GAME_AMULET_DEPTH) the Amulet at the centre of the
 * last room. Items are seen only once the level's view is computed. Uses
 * only the rules stream. */
void item_spawn_level(struct game *g);

/* Marks every item in view as seen. */
void item_see(struct game *g);

/* --- the pack and the effects ---------------------------------------------- */

/* `g`/`,`: picks up the thing underfoot (onto a slot of the same kind if it
 * stacks, else the first free letter; the Amulet wins the game). Returns 1
 * if it took a turn. */
int item_pick_up(struct game *g);

/* Uses pack slot `slot`: a potion or a lightning bolt acts at once (a turn,
 * or a refusal with a line and no turn); a scroll that needs a target
 * starts targeting (target.h) and takes no turn yet. Returns 1 if a turn
 * was taken. */
int item_use(struct game *g, int slot);

/* Drops one of pack slot `slot` on the player's tile (equipment in use is
 * taken off first). Returns 1 (a turn) or 0. */
int item_drop(struct game *g, int slot);

/* Casts the scroll in pack slot `slot` on (x, y), which the targeting has
 * already checked is in view and in range. Returns 1 if it was cast (the
 * scroll is spent, a turn taken), 0 if refused with a line (confusion on a
 * tile with no monster). */
int item_cast_at(struct game *g, int slot, int x, int y);

/* Removes one item of pack slot `slot`; an emptied slot stays free (the
 * other items keep their letters) and stops being wielded or worn. */
void item_pack_remove(struct game *g, int slot);

/* Adds a kind to the pack: onto a slot of that kind when it stacks, else
 * into the first free slot. Returns the slot, or -1 when the pack is
 * full. */
int item_pack_add(struct game *g, int kind);

/* 1 if pack slot `slot` holds something. */
int item_pack_has(const struct game *g, int slot);

#endif
