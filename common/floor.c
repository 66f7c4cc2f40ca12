/* floor.c - the world's items (world.h): what lies on the floor of a level,
 * spawning it, what the player has seen, and the pack's slots. Using items
 * is the inventory mode's (inventory.c). */
#include <stddef.h>
#include <string.h>

#include "world.h"

/* --- the floor ------------------------------------------------------------- */

_Static_assert(offsetof(item_t, y) == offsetof(item_t, x) + 1,
               "map_slot_at reads x and y as one word");

int item_next_at(const game_t *g, int from, int x, int y)
{
    /* type: ITEM_NONE (0) is a free slot; none is live from the end on. */
    int end = game_items_end(g);
    int i = map_slot_at(g->items, end, sizeof(item_t), offsetof(item_t, x),
                        offsetof(item_t, type), from, x, y);
    return i < end ? i : MAX_ITEMS;
}

item_t *item_find(game_t *g, int type, int x, int y)
{
    /* Off the map nothing is found: no item lies there (item_put puts on
     * the map), and a place beyond a byte is none (map_slot_at). */
    for (int i = item_next_at(g, 0, x, y); i < MAX_ITEMS;
         i = item_next_at(g, i + 1, x, y))
        if (g->items[i].type == type)
            return &g->items[i];
    return NULL;
}

item_t *item_put(game_t *g, int type, int kind, int x, int y, int amount)
{
    item_t *it = type == ITEM_THING ? NULL : item_find(g, type, x, y);
    if (it && type == ITEM_GOLD) {
        it->amount += amount;
        it->seen |= game_lit(g, x, y);
        return it;
    }
    for (int i = 0; !it && i < MAX_ITEMS; i++)
        if (g->items[i].type == ITEM_NONE) {
            it = &g->items[i];
            game_item_slot_live(g, i);
        }
    if (!it)
        return NULL;
    memset(it, 0, sizeof *it);
    it->type = (uint8_t)type;
    it->kind = (uint8_t)kind;
    it->seen = game_lit(g, x, y);
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
            const item_stats_t *k = item_stats(kind);
            int charges = item_is_wand(kind)
                              ? rng_range(&g->rng, k->charges_min,
                                          k->charges_max)
                              : 0;
            item_t *it = item_put(g, ITEM_THING, kind, x, y, charges);
            /* Game version 7: a piece of equipment has an enchantment
             * (docs/game.md, "Enchanted and cursed equipment"). */
            int ench = item_is_equipment(kind) ? item_roll_enchant(&g->rng)
                                               : 0;
            if (it)
                it->ench = (int8_t)ench;
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

_Static_assert(MAX_ITEMS % 4 == 0, "item_see goes four slots a step");

void item_see(game_t *g)
{
    /* Every turn, over slots most of which are empty: four slots' types
     * are tested at once, up to the last that may be live. */
    item_t *items = g->items;
    int end = (game_items_end(g) + 3) & ~3;
    for (int i = 0; i < end; i += 4) {
        if (!(items[i].type | items[i + 1].type | items[i + 2].type |
              items[i + 3].type))
            continue;
        for (int j = i; j < i + 4; j++) {
            item_t *it = &items[j];
            if (it->type != ITEM_NONE && game_lit(g, it->x, it->y))
                it->seen = 1;
        }
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
    g->pack_ench[slot] = 0;
    g->pack_flags[slot] = 0;
    g->pack_count--;
    if (g->player.weapon == slot)
        g->player.weapon = -1;
    if (g->player.armor == slot)
        g->player.armor = -1;
}
