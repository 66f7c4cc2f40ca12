/* monster.c - the content table (every kind, every ruleset's numbers) and
 * spawning. Tune the game here: tests/bench/bench_balance.c measures it
 * (docs/balance.md). */
#include "monster.h"

#include <stddef.h>
#include <string.h>

#include "screen.h"

/* The first six kinds' hp, attack and defense come from the source
 * tutorials (docs/game.md, "Monsters"), as do the player's fist and burlap
 * sack and the skeleton's short sword and bone armor (2-6 and 2 there; 1-5
 * and 1 since game version 7, where they made the skeleton d10's one wall
 * at depth 2; the troll's attack and defense 6 and 2 there, 5 and 3 since
 * game version 8, where it was power's first wall; the orc's and
 * skeleton's defense 1 and 2 there, 2 and 3 since game version 8, for
 * attack-defense's middle depths); every other number is
 * ours, tuned with the balance
 * benchmark's screen-only bot (docs/balance.md). A row holds
 * each ruleset's numbers: power and attack-defense use attack/defense, d10
 * the weapon and armor, dice-pool the dice. */
#define ROW(nm, gl, col, hp_, at, de, wp, th, dmin, dmax, ar, ad, ac, an, ach, \
            dn, dch, xp_, g0, g1, d0, w, wpd, d1)                             \
    .name = nm, .glyph = gl, .colour = col, .hp = hp_, .attack = at,         \
    .defense = de, .weapon = wp, .to_hit = th, .dmg_min = dmin,              \
    .dmg_max = dmax, .armor = ar, .armor_defense = ad, .armor_class = ac,    \
    .att_dice = an, .att_chance = ach, .def_dice = dn, .def_chance = dch,    \
    .xp = xp_, .gold_min = g0, .gold_max = g1, .min_depth = d0,              \
    .weight = w, .weight_per_depth = wpd, .max_depth = d1
static const creature_stats_t kinds[MON_COUNT] = {
    [MON_RAT] = { ROW("rat", 'r', COL_YELLOW, 3, 1, 0, "teeth", 0, 1, 2,
                      "fur", 0, 2, 1, 50, 0, 0, 5, 0, 2, 1, 20, -5, 4),
                  .blurb = "small and weak" },
    [MON_KOBOLD] = { ROW("kobold", 'k', COL_GREEN, 5, 2, 0, "dagger", 0, 1, 3,
                         "rags", 0, 2, 2, 40, 1, 20, 10, 1, 4, 1, 20, -5, 5),
                     .blurb = "weak" },
    [MON_GOBLIN] = { ROW("goblin", 'g', COL_BBLUE, 6, 3, 0, "club", 1, 1, 3,
                         "leather", 0, 3, 3, 40, 1, 30, 15, 2, 8, 1, 34, -3,
                         8),
                     .blurb = "a fair fight early on" },
    [MON_ORC] = { ROW("orc", 'o', COL_RED, 10, 4, 2, "axe", 1, 1, 4, "hide",
                      0, 3, 5, 45, 2, 30, 16, 4, 12, 1, 22, 3, 10),
                  .blurb = "a strong fighter" },
    [MON_SKELETON] = { ROW("skeleton", 's', COL_BWHITE, 10, 4, 3,
                           "short sword", 0, 1, 5, "bone", 1, 4, 5, 50, 2, 40,
                           23, 5, 15, 2, 10, 3, 0),
                       .blurb = "hard to hurt" },
    [MON_TROLL] = { ROW("troll", 'T', COL_BGREEN, 16, 5, 3, "claws", 1, 2, 4,
                        "thick hide", 0, 2, 6, 50, 2, 30, 32, 10, 30, 1, 4, 3,
                        0),
                    .blurb = "big, hits hard: rare near the top" },
    [MON_BAT] = { ROW("giant bat", 'b', COL_YELLOW, 6, 3, 0, "fangs", 1, 1, 3,
                      "wings", 0, 4, 3, 45, 1, 40, 10, 0, 0, 2, 14, 2, 9),
                  .flags = MF_FAST, .blurb = "fast: two moves a turn" },
    [MON_ARCHER] = { ROW("orc archer", 'a', COL_BRED, 9, 4, 3, "bow", 2, 1, 5,
                         "hide", 0, 3, 5, 45, 2, 30, 20, 4, 12, 3, 14, 2, 0),
                     .flags = MF_RANGED, .range = 6,
                     .blurb = "shoots arrows from up to 6 tiles" },
    [MON_THIEF] = { ROW("thief", 't', COL_BMAGENTA, 8, 3, 1, "knife", 2, 1, 4,
                        "cloak", 0, 4, 3, 50, 2, 40, 16, 0, 0, 3, 10, 1, 0),
                    .flags = MF_STEAL, .power = 40,
                    .blurb = "steals gold, then runs" },
    [MON_SPIDER] = { ROW("giant spider", 'S', COL_MAGENTA, 14, 5, 5, "fangs",
                         2, 2, 5, "chitin", 1, 4, 7, 50, 2, 40, 27, 0, 0, 4,
                         12, 3, 0),
                     .flags = MF_POISON, .power = 6,
                     .blurb = "its bite poisons: 1 HP a turn" },
    [MON_OGRE] = { ROW("ogre", 'O', COL_BYELLOW, 30, 10, 3, "club", 3, 3, 10,
                       "hide", 1, 5, 11, 50, 3, 40, 58, 15, 40, 5, 2, 3, 0),
                   .blurb = "huge and strong" },
    [MON_WRAITH] = { ROW("wraith", 'W', COL_BWHITE, 22, 8, 4, "touch", 4, 3, 8,
                         "shadow", 2, 6, 8, 55, 3, 50, 78, 0, 0, 7, 6, 2, 0),
                     .flags = MF_FAST | MF_DRAIN,
                     .blurb = "fast; its touch lowers max HP" },
    [MON_NECROMANCER] = { ROW("necromancer", 'N', COL_BMAGENTA, 32, 12, 3,
                              "staff", 4, 3, 11, "robes", 2, 6, 9, 50, 4, 45,
                              84, 20, 60, 8, 5, 3, 0),
                          .flags = MF_SUMMON,
                          .blurb = "raises skeletons around it" },
    [MON_DRAGON] = { ROW("dragon", 'D', COL_BRED, 42, 12, 3, "fire", 5, 4, 12,
                         "scales", 3, 8, 9, 55, 5, 50, 210, 50, 150, 10, 2,
                         2, 0),
                     .flags = MF_RANGED | MF_REGEN, .range = 5,
                     .blurb = "breathes fire from 5 tiles; heals fast" },
    /* Game version 6: the climb from depth 2 to 4 (docs/balance.md). */
    [MON_HOBGOBLIN] = { ROW("hobgoblin", 'h', COL_BYELLOW, 13, 5, 3,
                            "morning star", 0, 1, 5, "ring mail", 1, 4, 5, 45,
                            2, 35, 20, 3, 12, 2, 16, 1, 8),
                        .blurb = "a goblin's big cousin" },
    [MON_WOLF] = { ROW("wolf", 'w', COL_WHITE, 9, 3, 3, "teeth", 2, 1, 4,
                       "fur", 0, 4, 4, 50, 1, 40, 23, 0, 0, 3, 14, 0, 9),
                   .flags = MF_FAST, .blurb = "fast: two moves a turn" },
};
#undef ROW

static const creature_stats_t player = {
    .name = "you", .glyph = '@', .colour = COL_BWHITE, .hp = 30,
    .attack = 5, .defense = 2,
    .weapon = "fist", .to_hit = 2, .dmg_min = 1, .dmg_max = 3,
    .armor = "burlap sack", .armor_defense = 1, .armor_class = 1,
    .att_dice = 5, .att_chance = 50, .def_dice = 2, .def_chance = 40,
};

const creature_stats_t *monster_stats(int kind)
{
    if (kind < 0 || kind >= MON_COUNT)
        kind = MON_RAT;
    return &kinds[kind];
}

void monster_kinds_by_depth(int order[MON_COUNT])
{
    for (int k = 0; k < MON_COUNT; k++) { /* an insertion sort: stable */
        int i = k;
        for (; i > 0 && kinds[order[i - 1]].min_depth > kinds[k].min_depth; i--)
            order[i] = order[i - 1];
        order[i] = k;
    }
}

const creature_stats_t *monster_player_stats(void)
{
    return &player;
}

const char *monster_article(int kind)
{
    switch (monster_stats(kind)->name[0]) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
    case 'A': case 'E': case 'I': case 'O': case 'U':
        return "an";
    default:
        return "a";
    }
}

int monster_weight(int kind, int depth)
{
    const creature_stats_t *k = monster_stats(kind);
    if (depth < k->min_depth || (k->max_depth && depth > k->max_depth))
        return 0;
    int w = k->weight + k->weight_per_depth * (depth - 1);
    return w > 0 ? w : 0;
}

int monster_pick_kind(rng_t *r, int depth)
{
    int total = 0;
    for (int k = 0; k < MON_COUNT; k++)
        total += monster_weight(k, depth);
    if (total <= 0)
        return MON_RAT;
    int roll = rng_range(r, 0, total - 1);
    for (int k = 0; k < MON_COUNT; k++) {
        roll -= monster_weight(k, depth);
        if (roll < 0)
            return k;
    }
    return MON_COUNT - 1;
}

_Static_assert(offsetof(monster_t, y) == offsetof(monster_t, x) + 1,
               "map_slot_at reads x and y as one word");

int monster_at(const monster_t *ms, int max, int x, int y)
{
    int i = map_slot_at(ms, max, sizeof(monster_t), offsetof(monster_t, x),
                        offsetof(monster_t, alive), 0, x, y);
    return i < max ? i : -1;
}

int monster_room_max(int depth)
{
    int n = MONSTERS_PER_ROOM_MAX + (depth > 1 ? depth - 1 : 0);
    int cap = MONSTERS_PER_ROOM_CAP + (depth > 6 ? (depth - 6) / 2 : 0);
    if (cap > MONSTERS_PER_ROOM_DEEP_CAP)
        cap = MONSTERS_PER_ROOM_DEEP_CAP;
    return n < cap ? n : cap;
}

int monster_spawn_room(monster_t *ms, int max, const map_t *m,
                       const rect_t *room, rng_t *r, int depth, int px,
                       int py)
{
    int placed = 0;
    int n = rng_range(r, 0, monster_room_max(depth));
    for (int i = 0; i < n; i++) {
        int x = rng_range(r, room->x, room->x + room->w - 1);
        int y = rng_range(r, room->y, room->y + room->h - 1);
        int kind = monster_pick_kind(r, depth);
        if (!map_walkable(m, x, y) || (x == px && y == py) ||
            monster_at(ms, max, x, y) >= 0)
            continue;
        int slot = 0;
        while (slot < max && ms[slot].alive)
            slot++;
        if (slot == max)
            break;
        monster_t *mon = &ms[slot];
        *mon = (monster_t){ 0 };
        mon->kind = (uint8_t)kind;
        mon->alive = 1;
        mon->x = x;
        mon->y = y;
        mon->hp = monster_stats(kind)->hp;
        placed++;
    }
    return placed;
}
