/* travel.c - running, travel to the stairs, autoexplore (travel.h). */
#include "travel.h"

#include <string.h>

#include "world.h"

/* The eight neighbours, orthogonal first (the tie-break order). */
static const int dir8[8][2] = {
    { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 },
    { 1, -1 }, { 1, 1 }, { -1, 1 }, { -1, -1 },
};

static int passable(const game_t *g, int x, int y)
{
    if (!map_walkable(&g->map, x, y) || !map_known(&g->map, x, y))
        return 0;
    int i = game_monster_at(g, x, y);
    return i < 0 || !game_lit(g, x, y);
}

/* A goal: a predicate on tiles, with what it needs to know. */
typedef struct goal {
    int (*is)(const game_t *g, int x, int y);   /* or NULL: the tile tx, ty */
    int tx, ty;
} goal_t;

static int at_goal(const game_t *g, const goal_t *goal, int x, int y)
{
    return goal->is ? goal->is(g, x, y) : x == goal->tx && y == goal->ty;
}

static int first_step(const game_t *g, const goal_t *goal, int *dx, int *dy)
{
    /* Breadth-first from the player; first[] is the first step's
     * direction taken to reach each tile (8: the start). */
    uint8_t first[MAP_H][MAP_W];
    uint16_t queue[MAP_W * MAP_H];
    uint16_t dist[MAP_H][MAP_W];
    memset(first, 0xff, sizeof first);
    int px = g->player.x, py = g->player.y, head = 0, tail = 0;
    first[py][px] = 8;
    dist[py][px] = 0;
    queue[tail++] = (uint16_t)(py * MAP_W + px);
    while (head < tail) {
        int p = queue[head++], x = p % MAP_W, y = p / MAP_W;
        if (at_goal(g, goal, x, y)) {
            int f = first[y][x];
            *dx = f == 8 ? 0 : dir8[f][0];
            *dy = f == 8 ? 0 : dir8[f][1];
            return dist[y][x];
        }
        for (int k = 0; k < 8; k++) {
            int nx = x + dir8[k][0], ny = y + dir8[k][1];
            if (!map_in_bounds(nx, ny) || first[ny][nx] != 0xff ||
                !passable(g, nx, ny))
                continue;
            first[ny][nx] = (uint8_t)(first[y][x] == 8 ? k : first[y][x]);
            dist[ny][nx] = (uint16_t)(dist[y][x] + 1);
            queue[tail++] = (uint16_t)(ny * MAP_W + nx);
        }
    }
    return -1;
}

int travel_first_step(const game_t *g,
                      int (*goal)(const game_t *g, int x, int y), int *dx,
                      int *dy)
{
    goal_t gl = { goal, 0, 0 };
    return first_step(g, &gl, dx, dy);
}

/* After a step: 1 if the walk goes on (the player alive and playing, no
 * monster in view, no HP lost, nothing underfoot). */
static int keep_going(const game_t *g, int hp_before)
{
    return g->mode == MODE_PLAY && g->player.hp >= hp_before &&
           !game_monster_in_view(g) && !game_stop_here(g);
}

static int refuse_in_view(game_t *g, const char *what)
{
    if (!game_monster_in_view(g))
        return 0;
    game_log(g, MSG_INFO, "You cannot %s with a monster in view.", what);
    return 1;
}

int travel_run(game_t *g, int dx, int dy)
{
    if (refuse_in_view(g, "run"))
        return 0;
    int steps = 0;
    while (steps < GAME_RUN_MAX) {
        int nx = g->player.x + dx, ny = g->player.y + dy;
        if (!map_walkable(&g->map, nx, ny) || game_monster_at(g, nx, ny) >= 0)
            break;
        int hp = g->player.hp;
        game_step(g, dx, dy);
        steps++;
        if (!keep_going(g, hp)) {
            /* (refused with one in view: begun with none) */
            game_tell_came(g, game_nearest_in_view(g, 0));
            break;
        }
    }
    if (steps == 0)
        game_log(g, MSG_INFO, "There is a wall in the way.");
    return steps > 0;
}

/* Follows first_step toward goal until there, stopped, or stuck. */
static int walk_to_goal(game_t *g, const goal_t *goal)
{
    int steps = 0, dx, dy;
    while (steps < GAME_RUN_MAX) {
        if (first_step(g, goal, &dx, &dy) <= 0)
            break;
        int hp = g->player.hp;
        game_step(g, dx, dy);
        steps++;
        if (at_goal(g, goal, g->player.x, g->player.y) &&
            !game_monster_in_view(g))
            break;
        if (!keep_going(g, hp)) {
            /* (refused with one in view: begun with none) */
            game_tell_came(g, game_nearest_in_view(g, 0));
            break;
        }
    }
    return steps;
}

static int walk_to(game_t *g, int (*goal)(const game_t *g, int x, int y))
{
    goal_t gl = { goal, 0, 0 };
    return walk_to_goal(g, &gl);
}

static int is_stairs(const game_t *g, int x, int y)
{
    return g->map.tile[y][x] == TILE_STAIRS;
}

/* The Amulet, once seen (another thing may lie on it: dropped there). */
static int is_amulet(const game_t *g, int x, int y)
{
    for (int i = item_next_at(g, 0, x, y); i < MAX_ITEMS;
         i = item_next_at(g, i + 1, x, y)) {
        const item_t *it = &g->items[i];
        if (it->type == ITEM_THING && it->kind == IK_AMULET)
            return it->seen;
    }
    return 0;
}

/* Travel to the nearest tile of `goal`: told `here` when standing on one,
 * `none` when no known one can be reached. */
static int travel_to(game_t *g, int (*goal)(const game_t *g, int x, int y),
                     const char *here, const char *none)
{
    int dx, dy;
    if (goal(g, g->player.x, g->player.y)) {
        game_log(g, MSG_INFO, "%s", here);
        return 0;
    }
    if (refuse_in_view(g, "travel"))
        return 0;
    if (travel_first_step(g, goal, &dx, &dy) < 0) {
        game_log(g, MSG_INFO, "%s", none);
        return 0;
    }
    return walk_to(g, goal) > 0;
}

int travel_to_stairs(game_t *g)
{
    /* the last level has no stairs: to the Amulet (game version 9; `_`
     * and `>` spoke of stairs there) */
    if (g->depth >= GAME_AMULET_DEPTH)
        return travel_to(g, is_amulet,
                         "The Amulet of Yendor lies here: g takes it.",
                         "No stairs go down from here: find the Amulet of "
                         "Yendor.");
    return travel_to(g, is_stairs, "You are on the stairs: > goes down.",
                     "You have not found the stairs down yet.");
}

/* 1 if the pack holds a weapon or armour of this kind already. */
static int carries_kind(const game_t *g, int kind)
{
    for (int i = 0; i < PACK_SIZE; i++)
        if (item_pack_has(g, i) && g->pack[i] == kind)
            return 1;
    return 0;
}

/* 1 if autopickup (game_t.autopickup) would take `it`: a thing the player
 * did not drop, not the Amulet (taking it ends the game: the player's
 * choice), not a second weapon or armour of a kind the pack holds (game
 * version 9: a pack filled with duplicates), with room for it in the pack
 * (docs/game.md, "Autoexplore"). */
static int pickable(const game_t *g, const item_t *it)
{
    if (!g->autopickup || it->type != ITEM_THING ||
        (it->flags & ITEM_F_DROPPED) || it->kind == IK_AMULET)
        return 0;
    if (item_is_equipment(it->kind) && carries_kind(g, it->kind))
        return 0;
    if (g->pack_count < PACK_SIZE)
        return 1;
    for (int i = 0; i < PACK_SIZE; i++)
        if (g->pack[i] == it->kind && !item_is_equipment(it->kind) &&
            g->pack_n[i] < PACK_STACK_MAX)
            return 1;
    return 0;
}

int travel_autopickup_here(const game_t *g)
{
    const item_t *it =
        item_find((game_t *)g, ITEM_THING, g->player.x, g->player.y);
    return it && pickable(g, it);
}

/* An item seen and never stood on nor dropped (or one autopickup would
 * take), gold
 * seen (walking there takes it), or a seen tile next to an unseen one (not
 * the player's own tile: that would stop before a step). */
static int unexplored(const game_t *g, int x, int y)
{
    if (x == g->player.x && y == g->player.y)
        return 0;
    const item_t *it = item_find((game_t *)g, ITEM_THING, x, y);
    if (it && it->seen && !(it->flags & ITEM_F_DROPPED) &&
        (!it->walked || pickable(g, it)))
        return 1;
    const item_t *gold = item_find((game_t *)g, ITEM_GOLD, x, y);
    if (gold && gold->seen)
        return 1;
    for (int k = 0; k < 8; k++) {
        int nx = x + dir8[k][0], ny = y + dir8[k][1];
        if (map_in_bounds(nx, ny) && !map_known(&g->map, nx, ny))
            return 1;
    }
    return 0;
}

/* An item the player walked past and left: not dropped, not already come
 * back to once (coming back and going on declines it). */
static int left_behind_item(const item_t *it)
{
    return it && it->seen && it->walked &&
           !(it->flags & (ITEM_F_DROPPED | ITEM_F_REVISITED));
}

static int left_behind(const game_t *g, int x, int y)
{
    if (x == g->player.x && y == g->player.y)
        return 0;
    return left_behind_item(item_find((game_t *)g, ITEM_THING, x, y));
}

/* 1 if the Amulet lies on this level where the player has seen it. */
static int amulet_seen(const game_t *g)
{
    for (int i = 0, end = game_items_end(g); i < end; i++) {
        const item_t *it = &g->items[i];
        if (it->type == ITEM_THING && it->kind == IK_AMULET && it->seen)
            return 1;
    }
    return 0;
}

/* Once the level is explored: back to the nearest item left behind. */
static int return_to_items(game_t *g)
{
    int dx, dy;
    item_t *here = item_find(g, ITEM_THING, g->player.x, g->player.y);
    if (left_behind_item(here)) /* standing on it and going on: declined */
        here->flags |= ITEM_F_REVISITED;
    if (travel_first_step(g, left_behind, &dx, &dy) < 0) {
        /* The Amulet is not taken by exploring: say where the game goes
         * on (game version 9). */
        if (amulet_seen(g))
            game_log(g, MSG_INFO, "There is nothing left to explore here "
                     "but the Amulet: _ goes to it.");
        else
            game_log(g, MSG_INFO, "There is nothing left to explore here.");
        return 0;
    }
    int steps = walk_to(g, left_behind);
    here = item_find(g, ITEM_THING, g->player.x, g->player.y);
    if (left_behind_item(here))
        here->flags |= ITEM_F_REVISITED;
    return steps > 0;
}

int travel_explore(game_t *g)
{
    int dx, dy;
    if (refuse_in_view(g, "explore"))
        return 0;
    if (travel_first_step(g, unexplored, &dx, &dy) < 0)
        return return_to_items(g);
    return walk_to(g, unexplored) > 0;
}

int travel_to_tile(game_t *g, int x, int y)
{
    int dx = x - g->player.x, dy = y - g->player.y;
    if (dx == 0 && dy == 0)
        return 0;
    if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1)
        return game_step(g, dx, dy); /* a step, or a blow: as its key */
    goal_t gl = { NULL, x, y };
    int sx, sy;
    int known = map_in_bounds(x, y) && map_walkable(&g->map, x, y) &&
                map_known(&g->map, x, y);
    if (known && refuse_in_view(g, "travel"))
        return 0;
    if (!known || first_step(g, &gl, &sx, &sy) < 0) {
        game_log(g, MSG_INFO, "You know no way there.");
        return 0;
    }
    return walk_to_goal(g, &gl) > 0;
}
