/* item.c - the item content table (docs/game.md, "Items"), floor items,
 * spawning, the pack, equipment, and each kind's effect. Tune the items
 * here (docs/balance.md). */
#include "item.h"

#include <string.h>

#include "game.h"
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
    [IK_DAGGER] = {
        .name = "dagger", .glyph = ')', .colour = COL_BWHITE, .weight = 6,
        .effect = EFFECT_WIELD, .min_depth = 2,
        .attack = 1, .to_hit = 3, .dmg_min = 2, .dmg_max = 4, .dice = 1,
    },
    [IK_SWORD] = {
        .name = "long sword", .glyph = ')', .colour = COL_BCYAN, .weight = 5,
        .effect = EFFECT_WIELD, .min_depth = 3,
        .attack = 3, .to_hit = 3, .dmg_min = 3, .dmg_max = 8, .dice = 2,
    },
    [IK_AXE] = {
        .name = "battle axe", .glyph = ')', .colour = COL_BYELLOW,
        .weight = 4, .effect = EFFECT_WIELD, .min_depth = 5,
        .attack = 5, .to_hit = 2, .dmg_min = 4, .dmg_max = 11, .dice = 3,
    },
    [IK_WAR_HAMMER] = {
        .name = "war hammer", .glyph = ')', .colour = COL_BRED, .weight = 3,
        .effect = EFFECT_WIELD, .min_depth = 7,
        .attack = 7, .to_hit = 4, .dmg_min = 6, .dmg_max = 14, .dice = 5,
    },
    [IK_LEATHER] = {
        .name = "leather armour", .glyph = '[', .colour = COL_YELLOW,
        .weight = 6, .effect = EFFECT_WEAR, .min_depth = 2,
        .defense = 1, .armor_defense = 1, .armor_class = 3, .dice = 1,
    },
    [IK_CHAIN_MAIL] = {
        .name = "chain mail", .glyph = '[', .colour = COL_BWHITE,
        .weight = 4, .effect = EFFECT_WEAR, .min_depth = 4,
        .defense = 2, .armor_defense = 2, .armor_class = 5, .dice = 2,
    },
    [IK_PLATE_MAIL] = {
        .name = "plate mail", .glyph = '[', .colour = COL_BCYAN,
        .weight = 3, .effect = EFFECT_WEAR, .min_depth = 7,
        .defense = 4, .armor_defense = 3, .armor_class = 7, .dice = 3,
    },
    [IK_AMULET] = {
        .name = "Amulet of Yendor", .glyph = '"', .colour = COL_BYELLOW,
        .weight = 0, .effect = EFFECT_AMULET,
    },
};

const item_stats_t *item_stats(int kind)
{
    if (kind < 0 || kind >= IK_COUNT)
        kind = IK_HEALTH_POTION;
    return &kinds[kind];
}

const char *item_article(int kind)
{
    switch (item_stats(kind)->name[0]) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
        return "an";
    default:
        return "a";
    }
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

/* --- the floor ------------------------------------------------------------- */

item_t *item_find(game_t *g, int type, int x, int y)
{
    for (int i = 0; i < MAX_ITEMS; i++) {
        item_t *it = &g->items[i];
        if (it->type == type && it->x == x && it->y == y)
            return it;
    }
    return NULL;
}

item_t *item_put(game_t *g, int type, int kind, int x, int y, int amount)
{
    item_t *it = type == ITEM_THING ? NULL : item_find(g, type, x, y);
    if (it && type == ITEM_GOLD) {
        it->amount += amount;
        it->seen |= g->visible[y][x];
        return it;
    }
    for (int i = 0; !it && i < MAX_ITEMS; i++)
        if (g->items[i].type == ITEM_NONE)
            it = &g->items[i];
    if (!it)
        return NULL;
    memset(it, 0, sizeof *it);
    it->type = (uint8_t)type;
    it->kind = (uint8_t)kind;
    it->seen = g->visible[y][x];
    it->x = x;
    it->y = y;
    it->amount = amount;
    return it;
}

void item_spawn_level(game_t *g)
{
    for (int r = 0; r < g->map.nrooms; r++) {
        const rect_t *room = &g->map.rooms[r];
        int n = rng_range(&g->rng, 0, ITEMS_PER_ROOM_MAX);
        for (int i = 0; i < n; i++) {
            int x = rng_range(&g->rng, room->x, room->x + room->w - 1);
            int y = rng_range(&g->rng, room->y, room->y + room->h - 1);
            int kind = item_pick_kind(&g->rng, g->depth);
            if (g->map.tile[y][x] != TILE_FLOOR ||
                (x == g->player.x && y == g->player.y) ||
                item_find(g, ITEM_THING, x, y))
                continue;
            item_put(g, ITEM_THING, kind, x, y, 0);
        }
    }
    if (g->depth >= GAME_AMULET_DEPTH) {
        /* Where the stairs would be (map_place_stairs): the centre of the
         * last room, or the top-left corner of a level of one room. */
        const rect_t *last = &g->map.rooms[g->map.nrooms - 1];
        int x = last->x, y = last->y;
        if (g->map.nrooms > 1)
            rect_center(last, &x, &y);
        item_t *it = item_find(g, ITEM_THING, x, y);
        if (it)
            it->kind = IK_AMULET;
        else
            item_put(g, ITEM_THING, IK_AMULET, x, y, 0);
    }
}

void item_see(game_t *g)
{
    for (int i = 0; i < MAX_ITEMS; i++) {
        item_t *it = &g->items[i];
        if (it->type != ITEM_NONE && g->visible[it->y][it->x])
            it->seen = 1;
    }
}

/* --- the pack -------------------------------------------------------------- */

int item_pack_has(const game_t *g, int slot)
{
    return slot >= 0 && slot < PACK_SIZE && g->pack_n[slot] > 0;
}

int item_pack_add(game_t *g, int kind)
{
    if (!item_is_equipment(kind))
        for (int i = 0; i < PACK_SIZE; i++)
            if (g->pack_n[i] > 0 && g->pack[i] == kind &&
                g->pack_n[i] < PACK_STACK_MAX) {
                g->pack_n[i]++;
                return i;
            }
    for (int i = 0; i < PACK_SIZE; i++)
        if (g->pack_n[i] == 0) {
            g->pack[i] = (uint8_t)kind;
            g->pack_n[i] = 1;
            g->pack_count++;
            return i;
        }
    return -1;
}

void item_pack_remove(game_t *g, int slot)
{
    if (!item_pack_has(g, slot))
        return;
    if (--g->pack_n[slot] > 0)
        return;
    g->pack[slot] = 0;
    g->pack_count--;
    if (g->player.weapon == slot)
        g->player.weapon = -1;
    if (g->player.armor == slot)
        g->player.armor = -1;
}

/* The Amulet: the game is won at once (no monster acts after). */
static int take_amulet(game_t *g, item_t *it)
{
    char cause[64];
    memset(it, 0, sizeof *it);
    g->killer = KILLER_WON;
    g->mode = MODE_WON;
    g->turn++;
    game_log(g, MSG_LEVEL, "You take the Amulet of Yendor! You have won.");
    game_log(g, MSG_SYSTEM, "%s.", game_death_cause(g, cause, sizeof cause));
    return 1;
}

int item_pick_up(game_t *g)
{
    item_t *it = item_find(g, ITEM_THING, g->player.x, g->player.y);
    if (!it) {
        game_log(g, MSG_INFO, "There is nothing here to pick up.");
        return 0;
    }
    int kind = it->kind;
    if (kind == IK_AMULET)
        return take_amulet(g, it);
    int slot = item_pack_add(g, kind);
    if (slot < 0) {
        game_log(g, MSG_WARN, "Your pack is full.");
        return 0;
    }
    memset(it, 0, sizeof *it);
    if (g->pack_n[slot] > 1)
        game_log(g, MSG_GOOD, "You pick up %s %s (%c, %d now).",
                 item_article(kind), item_stats(kind)->name, 'a' + slot,
                 g->pack_n[slot]);
    else
        game_log(g, MSG_GOOD, "You pick up %s %s (%c).", item_article(kind),
                 item_stats(kind)->name, 'a' + slot);
    game_end_turn(g);
    return 1;
}

int item_drop(game_t *g, int slot)
{
    if (!item_pack_has(g, slot))
        return 0;
    int kind = g->pack[slot];
    if (!item_put(g, ITEM_THING, kind, g->player.x, g->player.y, 0)) {
        game_log(g, MSG_INFO, "There is no room here to drop it.");
        return 0;
    }
    item_pack_remove(g, slot);
    game_log(g, MSG_INFO, "You drop the %s.", item_stats(kind)->name);
    game_end_turn(g);
    return 1;
}

/* Wields or wears slot `slot`, or puts it away if it is in use. A turn. */
static int use_equipment(game_t *g, int slot, const item_stats_t *k)
{
    int *worn = k->effect == EFFECT_WIELD ? &g->player.weapon
                                          : &g->player.armor;
    if (*worn == slot) {
        *worn = -1;
        game_log(g, MSG_INFO, "You %s the %s.",
                 k->effect == EFFECT_WIELD ? "put away" : "take off",
                 k->name);
    } else {
        *worn = slot;
        game_log(g, MSG_GOOD, "You %s the %s.",
                 k->effect == EFFECT_WIELD ? "wield" : "put on", k->name);
    }
    game_end_turn(g);
    return 1;
}

/* --- effects --------------------------------------------------------------- */

/* The closest living monster in view within range of the player (the
 * tutorials' closest monster, limited to what the player sees), or -1. Ties go to
 * the lower slot. */
static int closest_visible_monster(const game_t *g, int range)
{
    int best = -1, best_d = 0;
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *m = &g->monsters[i];
        if (!m->alive || !g->visible[m->y][m->x])
            continue;
        int dx = m->x - g->player.x, dy = m->y - g->player.y;
        int d = dx * dx + dy * dy;
        if ((range == 0 || d <= range * range) && (best < 0 || d < best_d)) {
            best = i;
            best_d = d;
        }
    }
    return best;
}

static int use_heal(game_t *g, int slot, const item_stats_t *k)
{
    player_t *p = &g->player;
    if (p->hp >= p->max_hp) {
        game_log(g, MSG_INFO, "You are already at full health.");
        return 0;
    }
    int healed = p->max_hp - p->hp < k->power ? p->max_hp - p->hp : k->power;
    p->hp += healed;
    item_pack_remove(g, slot);
    game_log(g, MSG_GOOD, "You drink the %s and heal %d HP.", k->name, healed);
    game_end_turn(g);
    return 1;
}

static int use_lightning(game_t *g, int slot, const item_stats_t *k)
{
    int i = closest_visible_monster(g, k->range);
    if (i < 0) {
        game_log(g, MSG_INFO, "No enemy is close enough to strike.");
        return 0;
    }
    item_pack_remove(g, slot);
    game_log(g, MSG_GOOD,
             "A lightning bolt strikes the %s with a loud thunder for %d damage!",
             monster_stats(g->monsters[i].kind)->name, k->power);
    game_hurt_monster(g, i, k->power, 1);
    game_end_turn(g);
    return 1;
}

int item_use(game_t *g, int slot)
{
    if (!item_pack_has(g, slot))
        return 0;
    const item_stats_t *k = item_stats(g->pack[slot]);
    switch (k->effect) {
    case EFFECT_HEAL:
        return use_heal(g, slot, k);
    case EFFECT_LIGHTNING:
        return use_lightning(g, slot, k);
    case EFFECT_WIELD:
    case EFFECT_WEAR:
        return use_equipment(g, slot, k);
    case EFFECT_AMULET:
        return 0;
    default:
        target_begin(g, slot);
        return 0;
    }
}

/* Everything within the radius of the tile burns, the player too. */
static void cast_fireball(game_t *g, const item_stats_t *k, int x, int y)
{
    game_log(g, MSG_WARN,
             "The fireball explodes, burning everything within %d tiles!",
             k->radius);
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *m = &g->monsters[i];
        if (!m->alive || !item_in_reach(x, y, m->x, m->y, k->radius))
            continue;
        game_log(g, MSG_GOOD, "The %s gets burned for %d hit points.",
                 monster_stats(m->kind)->name, k->power);
        game_hurt_monster(g, i, k->power, 1);
    }
    if (item_in_reach(x, y, g->player.x, g->player.y, k->radius)) {
        game_log(g, MSG_BAD, "You get burned for %d hit points.", k->power);
        game_hurt_player(g, k->power, KILLER_FIREBALL);
    }
}

int item_cast_at(game_t *g, int slot, int x, int y)
{
    if (!item_pack_has(g, slot))
        return 0;
    const item_stats_t *k = item_stats(g->pack[slot]);
    if (k->effect == EFFECT_CONFUSION) {
        int i = game_monster_at(g, x, y);
        if (i < 0) {
            game_log(g, MSG_INFO, "There is no monster there.");
            return 0;
        }
        monster_t *m = &g->monsters[i];
        m->confused = (uint8_t)k->turns;
        item_pack_remove(g, slot);
        game_log(g, MSG_GOOD,
                 "The eyes of the %s look vacant, as it starts to stumble around!",
                 monster_stats(m->kind)->name);
    } else {
        item_pack_remove(g, slot);
        cast_fireball(g, k, x, y);
    }
    game_end_turn(g);
    return 1;
}
