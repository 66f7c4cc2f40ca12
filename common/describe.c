/* describe.c - what the player knows, in words (world.h): a tile as the
 * look cursor describes it, and how the game ended. */
#include <stdio.h>

#include "world.h"

const char *game_death_cause(const game_t *g, char *buf, size_t len)
{
    if (g->killer == KILLER_NONE) {
        snprintf(buf, len, "alive");
        return buf;
    }
    if (g->killer == KILLER_WON) {
        snprintf(buf, len, "won: took the Amulet at depth %d", g->depth);
        return buf;
    }
    if (g->killer == KILLER_FIREBALL) {
        snprintf(buf, len, "killed by your own fireball");
        return buf;
    }
    int kind = g->killer - 1;
    snprintf(buf, len, "killed by %s %s", monster_article(kind),
             monster_stats(kind)->name);
    return buf;
}

/* How hurt a monster looks. */
static const char *wounds(int hp, int max)
{
    if (hp >= max)
        return "unhurt";
    if (hp * 10 > max * 6)
        return "lightly hurt";
    if (hp * 10 > max * 3)
        return "hurt";
    return "badly hurt";
}

/* A piece's traits in a word or two ("reaches", "heavy, slow"), so that
 * Look tells them before the piece is tried (game version 9; the `C`
 * screen tells them at length once worn); "" for none. */
static const char *traits(int kind)
{
    const item_stats_t *st = item_stats(kind);
    if (st->quick)
        return "quick";
    if (st->reach)
        return "reaches";
    if (st->cleave)
        return "cleaves";
    if (st->clumsy)
        return "swings wide";
    if (st->heavy && st->slow)
        return "heavy, slow";
    if (st->heavy)
        return "heavy";
    return "";
}

/* What lies on (x, y) as the player knows it, the things before the
 * ground: an item, gold, a corpse, else the tile. */
static const char *describe_ground(const game_t *g, int x, int y, char *buf,
                                   size_t len)
{
    for (int type = ITEM_THING; type >= ITEM_CORPSE; type--) {
        const item_t *it = item_find((game_t *)g, type, x, y);
        if (!it || !it->seen)
            continue;
        if (type == ITEM_THING) {
            char name[MSG_LEN];
            item_floor_a_name(g, it, name, sizeof name);
            const char *t = traits(it->kind);
            if (t[0])
                snprintf(buf, len, "%s (%s)", name, t);
            else
                snprintf(buf, len, "%s", name);
        }
        else if (type == ITEM_GOLD)
            snprintf(buf, len, "%d gold", it->amount);
        else
            snprintf(buf, len, "%s %s corpse", monster_article(it->kind),
                     monster_stats(it->kind)->name);
        return buf;
    }
    switch (g->map.tile[y][x]) {
    case TILE_STAIRS: snprintf(buf, len, "the stairs down"); break;
    case TILE_FLOOR: snprintf(buf, len, "the floor"); break;
    default: snprintf(buf, len, "a wall"); break;
    }
    return buf;
}

/* 1 if something the player has seen lies on (x, y). */
static int seen_lying(const game_t *g, int x, int y)
{
    for (int type = ITEM_THING; type >= ITEM_CORPSE; type--) {
        const item_t *it = item_find((game_t *)g, type, x, y);
        if (it && it->seen)
            return 1;
    }
    return 0;
}

/* 1 if (x, y) is floor with nothing on it that the player has seen. */
static int bare_floor(const game_t *g, int x, int y)
{
    return !seen_lying(g, x, y) && g->map.tile[y][x] == TILE_FLOOR;
}

/* The monster game_describe tells of at (x, y), not the player's tile:
 * one standing there in the light, or -1. */
static int described_monster(const game_t *g, int x, int y)
{
    if (x == g->player.x && y == g->player.y)
        return -1;
    int i = game_monster_at(g, x, y);
    return i >= 0 && game_lit(g, x, y) ? i : -1;
}

const char *game_describe_beneath(const game_t *g, int x, int y)
{
    if (!map_in_bounds(x, y) || !map_known(&g->map, x, y) ||
        g->map.tile[y][x] != TILE_STAIRS || !seen_lying(g, x, y) ||
        described_monster(g, x, y) >= 0)
        return "";
    return ", on the stairs down";
}

const char *game_describe(const game_t *g, int x, int y, char *buf,
                          size_t len)
{
    if (!map_in_bounds(x, y) || !map_known(&g->map, x, y)) {
        snprintf(buf, len, "nothing you know of");
        return buf;
    }
    if (x == g->player.x && y == g->player.y) {
        /* What the player stands on, too: on depth 12 the Amulet
         * (game version 9). */
        char under[MSG_LEN];
        if (bare_floor(g, x, y))
            snprintf(buf, len, "yourself");
        else
            snprintf(buf, len, "yourself, on %s",
                     describe_ground(g, x, y, under, sizeof under));
        return buf;
    }
    int i = described_monster(g, x, y);
    if (i >= 0) {
        const monster_t *m = &g->monsters[i];
        const creature_stats_t *k = monster_stats(m->kind);
        snprintf(buf, len, "%s %s (%s%s): %s", monster_article(m->kind),
                 k->name, wounds(m->hp, k->hp),
                 m->confused ? ", confused" : "", k->blurb);
        return buf;
    }
    return describe_ground(g, x, y, buf, len);
}
