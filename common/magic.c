/* magic.c - potions and scrolls beyond the tutorials' four (magic.h). */
#include "magic.h"

#include "keys.h"

void magic_learn(game_t *g, int kind)
{
    char was[64];
    if (!item_known(g, kind)) {
        item_unknown_name(g, kind, was, sizeof was);
        item_learn(g, kind);
        game_log(g, MSG_SYSTEM, "The %s was %s %s.", was, item_article(kind),
                 item_stats(kind)->name);
    }
}

static int pack_has_unknown(const game_t *g)
{
    for (int i = 0; i < PACK_SIZE; i++)
        if (item_slot_unknown(g, i))
            return 1;
    return 0;
}

/* Identify on a piece of equipment: its enchantment is known and its
 * curse lifted (docs/game.md, "Enchanted and cursed equipment"). */
static void identify_piece(game_t *g, int slot)
{
    char was[64], is[64];
    item_slot_name(g, slot, 0, was, sizeof was);
    int cursed = item_slot_cursed(g, slot);
    int known = g->pack_flags[slot] & ITEM_F_KNOWN;
    g->pack_flags[slot] |= ITEM_F_KNOWN | ITEM_F_UNCURSED;
    item_slot_name(g, slot, 1, is, sizeof is);
    if (known) /* worn already: only the curse was left to tell */
        game_log(g, MSG_GOOD, "%c) the curse on the %s is lifted.",
                 'a' + slot, was);
    else
        game_log(g, MSG_GOOD, "%c) the %s is %s%s", 'a' + slot, was, is,
                 cursed ? "; its curse is lifted." : ".");
}

/* The scroll is read (spent); choosing the item is MODE_IDENTIFY's key. */
static int read_identify(game_t *g)
{
    if (!pack_has_unknown(g)) {
        game_log(g, MSG_INFO, "You have nothing unknown to identify.");
        game_end_turn(g);
        return 1;
    }
    g->mode = MODE_IDENTIFY;
    game_log(g, MSG_SYSTEM, "Identify which item? Press its letter.");
    return 0;
}

int magic_identify_key(game_t *g, int key)
{
    char was[64];
    if (key == KEY_ESC) {
        g->mode = MODE_PLAY;
        game_log(g, MSG_INFO, "You identify nothing.");
        game_end_turn(g);
        return 1;
    }
    int slot = key - 'a';
    if (key < 'a' || key > 'z')
        return 0;
    if (!item_pack_has(g, slot)) { /* said, as the pack's menus say it
                                      (version 11: silence) */
        game_log(g, MSG_INFO, "You have no item '%c'.", key);
        return 0;
    }
    int kind = g->pack[slot];
    if (!item_slot_unknown(g, slot)) {
        game_log(g, MSG_INFO, "You know that one already.");
        return 0;
    }
    g->mode = MODE_PLAY;
    if (item_is_equipment(kind)) {
        identify_piece(g, slot);
        game_end_turn(g);
        return 1;
    }
    item_unknown_name(g, kind, was, sizeof was);
    item_learn(g, kind);
    game_log(g, MSG_GOOD, "%c) the %s is %s %s.", 'a' + slot, was,
             item_article(kind), item_stats(kind)->name);
    game_end_turn(g);
    return 1;
}

/* A random floor tile free of monsters, out of view if one is found in a
 * bounded number of draws (then in view will do). */
static void teleport(game_t *g)
{
    int fx = g->player.x, fy = g->player.y;
    for (int tries = 0; tries < 400; tries++) {
        int x = rng_range(&g->rng, 1, MAP_W - 2);
        int y = rng_range(&g->rng, 1, MAP_H - 2);
        if (g->map.tile[y][x] != TILE_FLOOR || game_monster_at(g, x, y) >= 0 ||
            (x == g->player.x && y == g->player.y))
            continue;
        fx = x;
        fy = y;
        if (!game_lit(g, x, y))
            break;
    }
    g->player.x = fx;
    g->player.y = fy;
    game_log(g, MSG_GOOD, "You feel yourself yanked away!");
    game_update_fov(g);
}

/* `n` monsters of the depth on free tiles around the player. */
static void summon(game_t *g, int n)
{
    static const int dir8[8][2] = {
        { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 },
        { 1, -1 }, { 1, 1 }, { -1, 1 }, { -1, -1 },
    };
    int placed = 0, start = rng_range(&g->rng, 0, 7);
    for (int j = 0; j < 8 && placed < n; j++) {
        int x = g->player.x + dir8[(start + j) % 8][0];
        int y = g->player.y + dir8[(start + j) % 8][1];
        int kind = monster_pick_kind(&g->rng, g->depth);
        if (game_place_monster(g, kind, x, y) >= 0)
            placed++;
    }
    game_log(g, MSG_BAD, placed ? "A shrill call: monsters appear around you!"
                                : "A shrill call echoes, and nothing comes.");
}

/* Sleeping: the turns pass with the player unable to act. */
static void sleep_turns(game_t *g, int turns)
{
    game_log(g, MSG_BAD, "You fall asleep.");
    for (int i = 0; i < turns && g->mode != MODE_DEAD; i++)
        game_end_turn(g);
    if (g->mode != MODE_DEAD)
        game_log(g, MSG_INFO, "You wake up.");
}

int magic_use(game_t *g, int slot, const item_stats_t *k)
{
    int kind = g->pack[slot];
    /* A known one that can do nothing is kept, as a known health potion
     * at full health is (game version 9: it was spent, for a turn); an
     * unknown one is spent, and learnt. */
    if (k->effect == EFFECT_IDENTIFY && item_known(g, kind) &&
        !pack_has_unknown(g)) {
        game_log(g, MSG_INFO, "You have nothing unknown to identify.");
        return 0;
    }
    magic_learn(g, kind);
    item_pack_remove(g, slot);
    switch (k->effect) {
    case EFFECT_IDENTIFY:
        return read_identify(g);
    case EFFECT_TELEPORT:
        teleport(g);
        break;
    case EFFECT_SUMMON:
        summon(g, k->power);
        break;
    case EFFECT_SPEED:
        g->player.haste += k->turns;
        game_log(g, MSG_GOOD, "You feel yourself speed up.");
        break;
    case EFFECT_SLEEP:
        sleep_turns(g, k->turns);
        return 1;
    default:
        break;
    }
    game_end_turn(g);
    return 1;
}
