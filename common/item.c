/* item.c - the item content table (docs/game.md, "Items"): the kinds, their
 * spawn weights and their numbers. Tune the items here (docs/balance.md).
 * Where items lie is floor.c's; what using one does, inventory.c's. */
#include "item.h"

#include "screen.h"

/* The first four rows are the source tutorials': a potion heals 4 there, a
 * bolt does 20 within 5, a fireball 12 within 3 of a tile anywhere in view,
 * confusion lasts 10 turns on a monster within 8; odds 70/10/10/10 at depth
 * 1. The potion heals more here (the tutorials' 4 of 30 HP made the first
 * troll decide the game); equipment and the Amulet are ours. */
static const item_stats_t kinds[IK_COUNT] = {
    [IK_HEALTH_POTION] = {
        .name = "health potion", .glyph = '!', .colour = COL_BMAGENTA,
        .weight = 70, .effect = EFFECT_HEAL, .power = 10,
    },
    [IK_LIGHTNING] = {
        .name = "scroll of lightning bolt", .glyph = '?',
        .colour = COL_BYELLOW, .weight = 10, .effect = EFFECT_LIGHTNING,
        .power = 20, .range = 5,
    },
    [IK_FIREBALL] = {
        .name = "scroll of fireball", .glyph = '?', .colour = COL_BRED,
        .weight = 10, .effect = EFFECT_FIREBALL, .power = 12, .range = 0,
        .radius = 3, .targeted = 1,
    },
    [IK_CONFUSION] = {
        .name = "scroll of confusion", .glyph = '?', .colour = COL_BCYAN,
        .weight = 10, .effect = EFFECT_CONFUSION, .range = 8, .turns = 10,
        .targeted = 1,
    },
    /* Game version 7: the dagger is quick and adds no power (two of the
     * bare hand's blows a monster phase), the spear reaches, the war hammer
     * misses a quarter of its blows, plate mail slows every second step. */
    [IK_DAGGER] = {
        .name = "dagger", .glyph = ')', .colour = COL_BWHITE, .weight = 6,
        .effect = EFFECT_WIELD, .min_depth = 2, .thrown = 1, .range = 6,
        .quick = 1, .attack = 0, .to_hit = 3, .dmg_min = 2, .dmg_max = 4,
        .dice = 0,
    },
    [IK_SWORD] = {
        .name = "long sword", .glyph = ')', .colour = COL_BCYAN, .weight = 5,
        .effect = EFFECT_WIELD, .min_depth = 3,
        .attack = 3, .to_hit = 3, .dmg_min = 3, .dmg_max = 8, .dice = 2,
    },
    [IK_AXE] = {
        .name = "battle axe", .glyph = ')', .colour = COL_BYELLOW,
        .weight = 4, .effect = EFFECT_WIELD, .min_depth = 5, .cleave = 1,
        .attack = 3, .to_hit = 1, .dmg_min = 3, .dmg_max = 8, .dice = 2,
    },
    [IK_WAR_HAMMER] = {
        .name = "war hammer", .glyph = ')', .colour = COL_BRED, .weight = 3,
        .effect = EFFECT_WIELD, .min_depth = 7, .clumsy = 25,
        .attack = 7, .to_hit = 4, .dmg_min = 6, .dmg_max = 14, .dice = 5,
    },
    [IK_LEATHER] = {
        .name = "leather armour", .glyph = '[', .colour = COL_YELLOW,
        .weight = 6, .effect = EFFECT_WEAR, .min_depth = 2,
        .defense = 1, .armor_defense = 1, .armor_class = 3, .dice = 1,
    },
    [IK_CHAIN_MAIL] = {
        .name = "chain mail", .glyph = '[', .colour = COL_BWHITE,
        .weight = 4, .effect = EFFECT_WEAR, .min_depth = 4, .heavy = 1,
        .defense = 2, .armor_defense = 2, .armor_class = 5, .dice = 2,
    },
    [IK_PLATE_MAIL] = {
        .name = "plate mail", .glyph = '[', .colour = COL_BCYAN,
        .weight = 3, .effect = EFFECT_WEAR, .min_depth = 7, .heavy = 1,
        .slow = 1,
        .defense = 3, .armor_defense = 3, .armor_class = 7, .dice = 3,
    },
    [IK_AMULET] = {
        .name = "Amulet of Yendor", .glyph = '"', .colour = COL_BYELLOW,
        .weight = 0, .effect = EFFECT_AMULET, .proper = 1,
    },
    /* Game version 6 (docs/game.md, "Unknown items"): each weighs as much
     * as a scroll of the tutorials' did; a bad one is rarer. */
    [IK_IDENTIFY] = {
        .name = "scroll of identify", .glyph = '?', .colour = COL_BWHITE,
        .weight = 10, .effect = EFFECT_IDENTIFY,
    },
    [IK_TELEPORT] = {
        .name = "scroll of teleportation", .glyph = '?',
        .colour = COL_BMAGENTA, .weight = 8, .effect = EFFECT_TELEPORT,
    },
    [IK_SUMMON] = {
        .name = "scroll of summon monster", .glyph = '?', .colour = COL_RED,
        .weight = 4, .effect = EFFECT_SUMMON, .power = 2,
    },
    [IK_SPEED] = {
        .name = "potion of speed", .glyph = '!', .colour = COL_BCYAN,
        .weight = 8, .effect = EFFECT_SPEED, .turns = 12,
    },
    [IK_SLEEP] = {
        .name = "potion of sleeping", .glyph = '!', .colour = COL_BBLUE,
        .weight = 5, .effect = EFFECT_SLEEP, .turns = 5,
    },
    /* Thrown: a dart's blow is a dagger's less a point; the spear is a
     * weapon between the dagger and the sword that flies furthest. */
    [IK_DART] = {
        .name = "dart", .glyph = ')', .colour = COL_WHITE, .weight = 8,
        .effect = EFFECT_MISSILE, .min_depth = 1, .thrown = 1, .range = 6,
        .attack = 1, .to_hit = 3, .dmg_min = 1, .dmg_max = 3, .dice = 1,
    },
    [IK_SPEAR] = {
        .name = "spear", .glyph = ')', .colour = COL_YELLOW, .weight = 5,
        .effect = EFFECT_WIELD, .min_depth = 2, .thrown = 1, .range = 7,
        .reach = 1,
        .attack = 2, .to_hit = 2, .dmg_min = 2, .dmg_max = 6, .dice = 1,
    },
    [IK_WAND_SLEEP] = {
        .name = "wand of sleep", .glyph = '/', .colour = COL_BBLUE,
        .weight = 4, .effect = EFFECT_WAND_SLEEP, .min_depth = 2,
        .range = 8, .turns = 8, .targeted = 1, .charges_min = 3,
        .charges_max = 6,
    },
};

const item_stats_t *item_stats(int kind)
{
    if (kind < 0 || kind >= IK_COUNT)
        kind = IK_HEALTH_POTION;
    return &kinds[kind];
}

const char *item_article_of(const char *name)
{
    switch (name[0]) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
    case 'A': case 'E': case 'I': case 'O': case 'U':
        return "an";
    default:
        return "a";
    }
}

const char *item_article(int kind)
{
    if (item_stats(kind)->proper)
        return "the";
    return item_article_of(item_stats(kind)->name);
}

int item_is_magic(int kind)
{
    char c = item_stats(kind)->glyph;
    return kind >= 0 && kind < IK_COUNT && (c == '!' || c == '?');
}

int item_weight(int kind, int depth)
{
    if (kind < 0 || kind >= IK_COUNT || depth < kinds[kind].min_depth)
        return 0;
    return kinds[kind].weight;
}

int item_pick_kind(rng_t *r, int depth)
{
    int total = 0;
    for (int k = 0; k < IK_COUNT; k++)
        total += item_weight(k, depth);
    int roll = rng_range(r, 0, total - 1);
    for (int k = 0; k < IK_COUNT; k++) {
        roll -= item_weight(k, depth);
        if (roll < 0)
            return k;
    }
    return IK_HEALTH_POTION;
}

int item_is_wand(int kind)
{
    return item_stats(kind)->glyph == '/';
}

int item_is_equipment(int kind)
{
    int e = item_stats(kind)->effect;
    return e == EFFECT_WIELD || e == EFFECT_WEAR;
}

int item_in_reach(int ox, int oy, int x, int y, int range)
{
    int dx = x - ox, dy = y - oy;
    return dx * dx + dy * dy <= range * range;
}

int item_roll_enchant(rng_t *r)
{
    static const int8_t table[] = { -2, -1, -1, 0, 0, 0, 0, 0, 0, 1, 1, 2 };
    return table[rng_range(r, 0, (int)sizeof table - 1)];
}
