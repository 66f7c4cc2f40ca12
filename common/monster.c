/* monster.c - the content table (every kind, every ruleset's numbers) and
 * spawning. Tune the game here: tests/bench/bench_balance.c measures it. */
#include "monster.h"

#include "screen.h"

/* Sources: hp, attack and defense of rat, kobold (000), goblin, orc, troll
 * (004); the skeleton's short sword and bone armor and the player's fist and
 * burlap sack (001); the dice-pool shape (003). The rest (the other kinds'
 * weapons and dice, XP, gold, depths) is ours, tuned with the balance
 * benchmark. */
static const creature_stats_t kinds[MON_COUNT] = {
    [MON_RAT] = {
        .name = "rat", .glyph = 'r', .colour = COL_YELLOW, .hp = 3,
        .attack = 1, .defense = 0,
        .weapon = "teeth", .to_hit = 0, .dmg_min = 1, .dmg_max = 2,
        .armor = "fur", .armor_defense = 0, .armor_class = 2,
        .att_dice = 1, .att_chance = 50, .def_dice = 0, .def_chance = 0,
        .xp = 5, .gold_min = 0, .gold_max = 2,
        .min_depth = 1, .weight = 20, .weight_per_depth = -5,
    },
    [MON_KOBOLD] = {
        .name = "kobold", .glyph = 'k', .colour = COL_GREEN, .hp = 5,
        .attack = 2, .defense = 0,
        .weapon = "dagger", .to_hit = 0, .dmg_min = 1, .dmg_max = 3,
        .armor = "rags", .armor_defense = 0, .armor_class = 2,
        .att_dice = 2, .att_chance = 40, .def_dice = 1, .def_chance = 20,
        .xp = 10, .gold_min = 1, .gold_max = 4,
        .min_depth = 1, .weight = 20, .weight_per_depth = -5,
    },
    [MON_GOBLIN] = {
        .name = "goblin", .glyph = 'g', .colour = COL_BBLUE, .hp = 6,
        .attack = 3, .defense = 0,
        .weapon = "club", .to_hit = 1, .dmg_min = 1, .dmg_max = 3,
        .armor = "leather", .armor_defense = 0, .armor_class = 3,
        .att_dice = 3, .att_chance = 40, .def_dice = 1, .def_chance = 30,
        .xp = 15, .gold_min = 2, .gold_max = 8,
        .min_depth = 1, .weight = 30, .weight_per_depth = 0,
    },
    [MON_ORC] = {
        .name = "orc", .glyph = 'o', .colour = COL_RED, .hp = 10,
        .attack = 4, .defense = 1,
        .weapon = "axe", .to_hit = 1, .dmg_min = 1, .dmg_max = 4,
        .armor = "hide", .armor_defense = 0, .armor_class = 3,
        .att_dice = 4, .att_chance = 45, .def_dice = 2, .def_chance = 30,
        .xp = 25, .gold_min = 4, .gold_max = 12,
        .min_depth = 1, .weight = 20, .weight_per_depth = 5,
    },
    [MON_SKELETON] = {
        .name = "skeleton", .glyph = 's', .colour = COL_BWHITE, .hp = 10,
        .attack = 4, .defense = 2,
        .weapon = "short sword", .to_hit = 0, .dmg_min = 2, .dmg_max = 6,
        .armor = "bone", .armor_defense = 3, .armor_class = 4,
        .att_dice = 4, .att_chance = 50, .def_dice = 2, .def_chance = 40,
        .xp = 35, .gold_min = 5, .gold_max = 15,
        .min_depth = 2, .weight = 10, .weight_per_depth = 5,
    },
    [MON_TROLL] = {
        .name = "troll", .glyph = 'T', .colour = COL_BGREEN, .hp = 16,
        .attack = 6, .defense = 2,
        .weapon = "claws", .to_hit = 1, .dmg_min = 2, .dmg_max = 4,
        .armor = "thick hide", .armor_defense = 0, .armor_class = 2,
        .att_dice = 6, .att_chance = 50, .def_dice = 2, .def_chance = 30,
        .xp = 60, .gold_min = 10, .gold_max = 30,
        .min_depth = 1, .weight = 10, .weight_per_depth = 5,
    },
};

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

const creature_stats_t *monster_player_stats(void)
{
    return &player;
}

const char *monster_article(int kind)
{
    switch (monster_stats(kind)->name[0]) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
        return "an";
    default:
        return "a";
    }
}

int monster_weight(int kind, int depth)
{
    const creature_stats_t *k = monster_stats(kind);
    if (depth < k->min_depth)
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

int monster_at(const monster_t *ms, int max, int x, int y)
{
    for (int i = 0; i < max; i++)
        if (ms[i].alive && ms[i].x == x && ms[i].y == y)
            return i;
    return -1;
}

int monster_room_max(int depth)
{
    int n = MONSTERS_PER_ROOM_MAX + (depth > 1 ? depth - 1 : 0);
    return n < MONSTERS_PER_ROOM_CAP ? n : MONSTERS_PER_ROOM_CAP;
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
