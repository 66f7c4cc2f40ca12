/* equip.c - enchanted and cursed equipment (world.h; docs/game.md,
 * "Enchanted and cursed equipment"): what the player knows of one piece,
 * its name, and the curse that keeps it on. The kinds of equipment are
 * always known; a piece's enchantment is not, until it is worn or
 * identified. */
#include <stdio.h>

#include "combat.h"
#include "world.h"

const char *item_piece_name(const game_t *g, int kind, int count, int ench,
                            int flags, char *buf, size_t len)
{
    if (!item_is_equipment(kind) || !(flags & ITEM_F_KNOWN))
        return item_name(g, kind, count, buf, len);
    snprintf(buf, len, "%+d %s", ench, item_stats(kind)->name);
    return buf;
}

const char *item_slot_name(const game_t *g, int slot, int article, char *buf,
                           size_t len)
{
    char one[64];
    int kind = g->pack[slot];
    if (article && !item_is_equipment(kind))
        return item_a_name(g, kind, buf, len);
    item_piece_name(g, kind, g->pack_n[slot], g->pack_ench[slot],
                    g->pack_flags[slot], one, sizeof one);
    if (article)
        snprintf(buf, len, "%s %s", item_article_of(one), one);
    else
        snprintf(buf, len, "%s", one);
    return buf;
}

int item_slot_cursed(const game_t *g, int slot)
{
    return item_pack_has(g, slot) && g->pack_ench[slot] < 0 &&
           !(g->pack_flags[slot] & ITEM_F_UNCURSED);
}

int item_slot_stuck(game_t *g, int slot)
{
    if ((slot != g->player.weapon && slot != g->player.armor) ||
        !item_slot_cursed(g, slot))
        return 0;
    char name[MSG_LEN];
    game_log(g, MSG_WARN, "The %s is cursed: you cannot let go of it.",
             item_slot_name(g, slot, 0, name, sizeof name));
    return 1;
}

int item_slot_unknown(const game_t *g, int slot)
{
    if (!item_pack_has(g, slot))
        return 0;
    int kind = g->pack[slot];
    if (!item_is_equipment(kind))
        return !item_known(g, kind);
    return !(g->pack_flags[slot] & ITEM_F_KNOWN) || item_slot_cursed(g, slot);
}

const char *item_floor_a_name(const game_t *g, const item_t *it, char *buf,
                              size_t len)
{
    char one[64];
    if (!item_is_equipment(it->kind))
        return item_a_name(g, it->kind, buf, len);
    item_piece_name(g, it->kind, 1, it->ench, it->flags, one, sizeof one);
    snprintf(buf, len, "%s %s", item_article_of(one), one);
    return buf;
}

const char *item_no_armour_name(const game_t *g)
{
    return g->opt.ruleset == RULES_D10 ? "none (burlap sack)" : "none";
}
