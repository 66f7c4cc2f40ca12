/* monster.h - the monster content table, the player's base stats, and
 * spawning.
 *
 * One row per kind holds everything any combat ruleset needs (combat.h), so
 * that a ruleset is chosen per game without touching the content. A live
 * monster (monster_t) stores only what changes: its kind, place and hp;
 * everything else is read from its row. No pointers in monster_t: a game is
 * one allocation that hashes as bytes. */
#ifndef ROGUE_MONSTER_H
#define ROGUE_MONSTER_H

#include <stdint.h>

#include "map.h"
#include "rng.h"

#define MAX_MONSTERS 128        /* per level; a deep level of many rooms may
                                   fill it, and spawning stops there */
#define MONSTERS_PER_ROOM_MAX 3 /* 0-3 in each room but the first at
                                   depth 1; one more each level down, to 6 */
#define MONSTERS_PER_ROOM_CAP 6  /* to depth 7; then one more every two
                                   levels (game version 7), to ... */
#define MONSTERS_PER_ROOM_DEEP_CAP 9 /* ... 9 from depth 12 */
#define MONSTER_REGEN_TURNS 10  /* a hurt monster heals 1 hp every 10 turns,
                                   so one that fled comes back to fight */

enum monster_kind {
    MON_RAT = 0,
    MON_KOBOLD,
    MON_GOBLIN,
    MON_ORC,
    MON_SKELETON,
    MON_TROLL,
    MON_BAT,        /* fast: two steps a turn */
    MON_ARCHER,     /* shoots from afar */
    MON_THIEF,      /* steals gold and runs */
    MON_SPIDER,     /* poisons */
    MON_OGRE,
    MON_WRAITH,     /* fast, drains: its hits lower max HP */
    MON_NECROMANCER,/* raises skeletons */
    MON_DRAGON,     /* breathes fire from afar, regenerates */
    MON_HOBGOBLIN,  /* game version 6: the threats of depths 2-4 */
    MON_WOLF,       /* fast */
    MON_COUNT
};

/* Room for more kinds without a new game_t layout (game_t.kills_by). */
#define MON_MAX 24
_Static_assert(MON_COUNT <= MON_MAX, "game_t.kills_by has a slot per kind");

/* Behaviours beyond walking and hitting (creature_stats_t.flags). Each acts
 * through the ruleset's own blow (combat.h), so each means something under
 * every ruleset. */
enum monster_flag {
    MF_FAST = 1,      /* acts twice a turn */
    MF_REGEN = 2,     /* heals 1 hp every turn (not every 10) */
    MF_RANGED = 4,    /* in view, not next to the player, within `range`:
                         a blow from afar (one turn in two) */
    MF_STEAL = 8,     /* a hit that lands takes gold; then it flees, and
                         dies with the gold on it */
    MF_POISON = 16,   /* a hit that lands poisons for `power` turns: 1 hp a
                         turn */
    MF_SUMMON = 32,   /* in view, one turn in four: a skeleton next to it */
    MF_DRAIN = 64     /* a hit that lands lowers max HP by 1 (not below 10) */
};

/* What a creature fights with, in every ruleset's terms. */
typedef struct creature_stats {
    const char *name;       /* "goblin" (lower case, no article) */
    char glyph;
    uint8_t colour;         /* COL_* (screen.h) */
    int hp;
    /* power uses attack as power; attack-defense both (docs/game.md). */
    int attack, defense;
    /* d10: a weapon and an armor. */
    const char *weapon;     /* "short sword" */
    int to_hit, dmg_min, dmg_max;
    const char *armor;      /* "bone" */
    int armor_defense, armor_class;
    /* dice-pool: dice counts and per-die success chances (percent). */
    int att_dice, att_chance, def_dice, def_chance;
    /* rewards */
    int xp, gold_min, gold_max;
    /* spawning: eligible from min_depth; weight at depth d is
     * weight + weight_per_depth * (d - 1), at least 0. */
    int min_depth, weight, weight_per_depth;
    /* at most this deep (0: no limit): the weak kinds leave the depths */
    int max_depth;
    int flags;              /* enum monster_flag */
    int range;              /* MF_RANGED: how far it shoots (Euclidean) */
    int power;              /* MF_POISON: turns; MF_STEAL: most gold taken */
    const char *blurb;      /* the legend's and look's few words */
} creature_stats_t;

/* A monster on the level. alive == 0 is a free slot or a dead monster.
 * Small (8 bytes): every game holds MAX_MONSTERS of them, and the server
 * a game per player. */
typedef struct monster {
    uint8_t kind;   /* enum monster_kind */
    uint8_t alive;
    uint8_t confused; /* turns of confusion left; 0: itself */
    uint8_t x, y;     /* a tile of the map */
    uint8_t loot;     /* MF_STEAL: 1 once it has stolen (it flees) */
    int16_t hp;       /* at most a kind's hp (tens) */
    uint8_t asleep;   /* turns of magic sleep left (a wand): it does not
                         act; hurt, it wakes */
    uint8_t fled;     /* turns it has fled in view; at MONSTER_FLEE_TURNS
                         it turns back and fights */
} monster_t;

/* A fleeing monster turns back after this many turns of running in view
 * (docs/game.md, "Monsters"); it does not heal while it runs. */
#define MONSTER_FLEE_TURNS 5

_Static_assert(MAP_W <= 256 && MAP_H <= 256, "a map coordinate fits a byte");

/* The row of a kind (any out-of-range kind gives the rat's row). */
const creature_stats_t *monster_stats(int kind);

/* Every kind, in the order of the depth it is first met at (kinds of one
 * depth in their enum order): the help's legend, top of the dungeon
 * first. */
void monster_kinds_by_depth(int order[MON_COUNT]);

/* The player's base stats at level 1 (each level adds to them: game.c). */
const creature_stats_t *monster_player_stats(void);

/* "a" or "an" for a kind's name. */
const char *monster_article(int kind);

/* The weight of a kind at a depth (0: never spawns there). */
int monster_weight(int kind, int depth);

/* Draws a kind for a level at `depth` (1 = the first), deeper levels
 * favouring the stronger kinds. Uses exactly one rng_range call. */
int monster_pick_kind(rng_t *r, int depth);

/* The most monsters a room gets at `depth`: MONSTERS_PER_ROOM_MAX at
 * depth 1, one more each level down, at most MONSTERS_PER_ROOM_CAP to
 * depth 7, then one more every two levels to MONSTERS_PER_ROOM_DEEP_CAP
 * (docs/balance.md: more to fight where the player is strong). */
int monster_room_max(int depth);

/* Spawns 0-monster_room_max(depth) monsters in the interior of `room` into
 * free slots of ms[0..max-1]: never two on one tile, never on (px, py) nor
 * on a non-walkable tile (a tile already taken is skipped).
 * Returns how many it placed. Uses only r. */
int monster_spawn_room(monster_t *ms, int max, const map_t *m,
                       const rect_t *room, rng_t *r, int depth, int px,
                       int py);

/* Index of the living monster at (x, y), or -1. */
int monster_at(const monster_t *ms, int max, int x, int y);

/* The first living monster's slot from `from` on (slot order), or max.
 * Every turn goes over all MAX_MONSTERS slots, most of them free or dead:
 * four slots' alive bytes are tested at once. Inline: it is called once
 * for each living monster. */
static inline int monster_next_alive(const monster_t *ms, int max, int from)
{
    int i = from;
    for (; i + 4 <= max; i += 4)
        if (ms[i].alive | ms[i + 1].alive | ms[i + 2].alive | ms[i + 3].alive)
            break;
    for (; i < max; i++)
        if (ms[i].alive)
            return i;
    return max;
}

#endif
