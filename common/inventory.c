/* inventory.c - the items mode (inventory.h): picking up, dropping, using
 * and casting, and each kind's effect. */
#include "inventory.h"

#include <string.h>

#include "magic.h"

/* The Amulet: the game is won at once (no monster acts after). One line
 * (game version 10: "won: took the Amulet at depth 12." after it said it
 * again; the won screen gives the cause). */
static int take_amulet(game_t *g, item_t *it)
{
    memset(it, 0, sizeof *it);
    g->killer = KILLER_WON;
    g->mode = MODE_WON;
    g->turn++;
    game_log(g, MSG_LEVEL, "You take the Amulet of Yendor! You have won.");
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
    if (item_is_wand(kind)) {
        /* A wand's count is its charges: a second one adds its own. */
        int n = g->pack_n[slot] - 1 + (it->amount > 0 ? it->amount : 1);
        g->pack_n[slot] = (uint8_t)(n < PACK_STACK_MAX ? n : PACK_STACK_MAX);
    }
    if (item_is_equipment(kind)) { /* the piece, as it lay */
        g->pack_ench[slot] = it->ench;
        g->pack_flags[slot] = it->flags & (ITEM_F_KNOWN | ITEM_F_UNCURSED);
    }
    memset(it, 0, sizeof *it);
    char name[MSG_LEN];
    item_slot_name(g, slot, 1, name, sizeof name);
    if (item_is_wand(kind))
        game_log(g, MSG_GOOD, "You pick up %s (%c, %d charges).", name,
                 'a' + slot, g->pack_n[slot]);
    else if (g->pack_n[slot] > 1)
        game_log(g, MSG_GOOD, "You pick up %s (%c, %d now).", name, 'a' + slot,
                 g->pack_n[slot]);
    else
        game_log(g, MSG_GOOD, "You pick up %s (%c).", name, 'a' + slot);
    game_end_turn(g);
    return 1;
}

int item_drop(game_t *g, int slot)
{
    if (!item_pack_has(g, slot))
        return 0;
    int kind = g->pack[slot];
    int wand = item_is_wand(kind);
    if (item_slot_stuck(g, slot))
        return 0;
    item_t *it = item_put(g, ITEM_THING, kind, g->player.x, g->player.y,
                          wand ? g->pack_n[slot] : 0);
    if (!it) {
        game_log(g, MSG_INFO, "There is no room here to drop it.");
        return 0;
    }
    /* The piece keeps what is known of it; autoexplore leaves it be. */
    it->ench = g->pack_ench[slot];
    it->flags = (uint8_t)(g->pack_flags[slot] | ITEM_F_DROPPED);
    char name[MSG_LEN];
    item_piece_name(g, kind, 1, g->pack_ench[slot], g->pack_flags[slot],
                    name, sizeof name);
    if (wand) /* with all its charges */
        g->pack_n[slot] = 1;
    item_pack_remove(g, slot);
    game_log(g, MSG_INFO, "You drop the %s.", name);
    game_end_turn(g);
    return 1;
}

/* Wields or wears slot `slot`, or puts it away if it is in use. A turn. */
static int use_equipment(game_t *g, int slot, const item_stats_t *k)
{
    int *worn = k->effect == EFFECT_WIELD ? &g->player.weapon
                                          : &g->player.armor;
    char name[MSG_LEN];
    if (item_slot_stuck(g, slot) || item_slot_stuck(g, *worn))
        return 0;
    if (*worn == slot) {
        *worn = -1;
        game_log(g, MSG_INFO, "You %s the %s.",
                 k->effect == EFFECT_WIELD ? "put away" : "take off",
                 item_slot_name(g, slot, 0, name, sizeof name));
        game_end_turn(g);
        return 1;
    }
    /* Worn, a piece shows what it is (docs/game.md, "Enchanted and cursed
     * equipment"). */
    *worn = slot;
    g->pack_flags[slot] |= ITEM_F_KNOWN;
    item_slot_name(g, slot, 0, name, sizeof name);
    if (item_slot_cursed(g, slot))
        game_log(g, MSG_BAD, "You %s the %s. It is cursed!",
                 k->effect == EFFECT_WIELD ? "wield" : "put on", name);
    else
        game_log(g, MSG_GOOD, "You %s the %s.",
                 k->effect == EFFECT_WIELD ? "wield" : "put on", name);
    game_end_turn(g);
    return 1;
}

/* --- effects --------------------------------------------------------------- */

static int use_heal(game_t *g, int slot, const item_stats_t *k)
{
    player_t *p = &g->player;
    if (p->hp >= p->max_hp && item_known(g, g->pack[slot])) {
        game_log(g, MSG_INFO, "You are already at full health.");
        return 0;
    }
    int healed = p->max_hp - p->hp < k->power ? p->max_hp - p->hp : k->power;
    p->hp += healed;
    magic_learn(g, g->pack[slot]);
    item_pack_remove(g, slot);
    if (healed > 0)
        game_log(g, MSG_GOOD, "You drink the %s and heal %d HP.", k->name,
                 healed);
    else /* unknown, drunk at full health (version 11: "heal 0 HP") */
        game_log(g, MSG_INFO, "You drink the %s: you were already at full "
                 "health.", k->name);
    game_end_turn(g);
    return 1;
}

static int use_lightning(game_t *g, int slot, const item_stats_t *k)
{
    int i = game_nearest_in_view(g, k->range);
    if (i < 0 && item_known(g, g->pack[slot])) {
        game_log(g, MSG_INFO, "No enemy is close enough to strike.");
        return 0;
    }
    if (i < 0) {
        /* Read unknown, with nothing near: learnt, and wasted. */
        magic_learn(g, g->pack[slot]);
        item_pack_remove(g, slot);
        game_log(g, MSG_INFO, "The scroll crackles, but no enemy is close enough to strike.");
        game_end_turn(g);
        return 1;
    }
    magic_learn(g, g->pack[slot]);
    item_pack_remove(g, slot);
    game_log(g, MSG_GOOD,
             "A lightning bolt strikes the %s for %d damage, with a crack of thunder!",
             monster_stats(g->monsters[i].kind)->name, k->power);
    game_hurt_monster(g, i, k->power, 1);
    game_end_turn(g);
    return 1;
}

int item_needs_aim(const game_t *g, int slot)
{
    return item_pack_has(g, slot) && item_stats(g->pack[slot])->targeted;
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
    case EFFECT_MISSILE:
        game_log(g, MSG_INFO, "Throw it: t, then its letter.");
        return 0;
    case EFFECT_IDENTIFY:
    case EFFECT_TELEPORT:
    case EFFECT_SUMMON:
    case EFFECT_SPEED:
    case EFFECT_SLEEP:
        return magic_use(g, slot, k);
    default: /* the Amulet is never carried; aimed scrolls: item_cast_at */
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
        game_log_about(g, m); /* two goblins burned: two lines */
        game_log(g, MSG_GOOD, "The %s gets burned for %d damage.",
                 monster_stats(m->kind)->name, k->power);
        game_hurt_monster(g, i, k->power, 1);
    }
    game_log_about(g, NULL);
    if (item_in_reach(x, y, g->player.x, g->player.y, k->radius)) {
        game_log(g, MSG_BAD, "You get burned for %d damage.", k->power);
        game_hurt_player(g, k->power, KILLER_FIREBALL);
    }
}

/* A wand of sleep at a monster: it sleeps; a charge is spent, and the
 * last one takes the wand. */
static int zap_sleep(game_t *g, int slot, const item_stats_t *k, int x, int y)
{
    int i = game_monster_at(g, x, y);
    if (i < 0) {
        game_log(g, MSG_INFO, "There is no monster there.");
        return 0;
    }
    monster_t *m = &g->monsters[i];
    m->asleep = (uint8_t)k->turns;
    item_pack_remove(g, slot);
    game_log(g, MSG_GOOD, "The %s falls asleep.", monster_stats(m->kind)->name);
    if (!item_pack_has(g, slot))
        game_log(g, MSG_INFO, "Your %s crumbles to dust.", k->name);
    game_end_turn(g);
    return 1;
}

/* An unknown scroll cast at (x, y): learnt now (target.c aimed it
 * unknown, anywhere in view); a scroll of confusion with no monster there
 * within its range does nothing, and is spent all the same, as an unknown
 * scroll that can do nothing is (docs/game.md, "Unknown items"). 1 if it
 * was spent so. */
static int cast_unknown_wasted(game_t *g, int slot, const item_stats_t *k,
                               int x, int y)
{
    magic_learn(g, g->pack[slot]);
    if (k->effect != EFFECT_CONFUSION ||
        (game_monster_at(g, x, y) >= 0 &&
         item_in_reach(g->player.x, g->player.y, x, y, k->range)))
        return 0;
    item_pack_remove(g, slot);
    game_log(g, MSG_INFO, "The scroll flashes, but no monster there is in reach.");
    game_end_turn(g);
    return 1;
}

int item_cast_at(game_t *g, int slot, int x, int y)
{
    if (!item_pack_has(g, slot))
        return 0;
    const item_stats_t *k = item_stats(g->pack[slot]);
    if (k->effect == EFFECT_WAND_SLEEP)
        return zap_sleep(g, slot, k, x, y);
    if (!item_known(g, g->pack[slot]) &&
        cast_unknown_wasted(g, slot, k, x, y))
        return 1;
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

int item_can_throw(const game_t *g, int slot)
{
    return item_pack_has(g, slot) && item_stats(g->pack[slot])->thrown;
}

/* The tile where a thing thrown from the player at (tx, ty) stops: the
 * first monster on the line (*hit its slot), else the last floor tile
 * before a wall, the target or the end of the range. A line of Bresenham's
 * steps. */
static void flight(const game_t *g, int tx, int ty, int range, int *x,
                   int *y, int *hit)
{
    int x0 = g->player.x, y0 = g->player.y;
    int dx = tx > x0 ? tx - x0 : x0 - tx, dy = ty > y0 ? ty - y0 : y0 - ty;
    int sx = tx > x0 ? 1 : -1, sy = ty > y0 ? 1 : -1, err = dx - dy;
    int cx = x0, cy = y0;
    *x = x0;
    *y = y0;
    *hit = -1;
    for (int step = 0; step < range && (cx != tx || cy != ty); step++) {
        int e2 = 2 * err;
        if (e2 > -dy) {
            err -= dy;
            cx += sx;
        }
        if (e2 < dx) {
            err += dx;
            cy += sy;
        }
        if (!map_walkable(&g->map, cx, cy))
            return;
        *x = cx;
        *y = cy;
        int m = game_monster_at(g, cx, cy);
        if (m >= 0) {
            *hit = m;
            return;
        }
    }
}

/* A throw that reached no monster says so (game version 9: only "You
 * throw the dagger." showed): one aimed at a monster (x, y) missed it, a
 * wall or the range in the way; else it falls to the floor. */
static void tell_fall(game_t *g, int kind, int x, int y)
{
    const char *name = item_stats(kind)->name;
    int m = game_monster_at(g, x, y);
    if (m >= 0 && game_lit(g, x, y))
        game_log(g, MSG_INFO, "The %s misses the %s.", name,
                 monster_stats(g->monsters[m].kind)->name);
    else
        game_log(g, MSG_INFO, "The %s falls to the floor.", name);
}

int item_throw_at(game_t *g, int slot, int x, int y)
{
    if (!item_can_throw(g, slot))
        return 0;
    int kind = g->pack[slot];
    const item_stats_t *k = item_stats(kind);
    if (item_slot_stuck(g, slot))
        return 0;
    int lx, ly, hit, ench = g->pack_ench[slot], flags = g->pack_flags[slot];
    flight(g, x, y, k->range, &lx, &ly, &hit);
    char name[MSG_LEN];
    item_piece_name(g, kind, 1, ench, flags, name, sizeof name);
    item_pack_remove(g, slot);
    game_log(g, MSG_INFO, "You throw the %s.", name);
    if (hit >= 0)
        game_player_throws(g, kind, ench, hit);
    else
        tell_fall(g, kind, x, y);
    /* It lies where it stopped, to be picked up again, the same piece. */
    item_t *it = item_put(g, ITEM_THING, kind, lx, ly, 0);
    if (it) {
        it->ench = (int8_t)ench;
        it->flags = (uint8_t)flags;
    }
    game_end_turn(g);
    return 1;
}
