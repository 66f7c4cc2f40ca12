/* walker.c - the tests' in-process bot (walker.h). */
#include "walker.h"

#include "ai.h"
#include "keys.h"
#include "target.h"

char walk_dir_key(int dx, int dy)
{
    static const char keys[3][3] = { { 'y', 'k', 'u' }, { 'h', '.', 'l' },
                                     { 'b', 'j', 'n' } };
    return keys[dy + 1][dx + 1];
}

void walk_feed(game_t *g, int key)
{
    game_key(g, key == WALK_RIGHT_CLICK ? KEY_ESC : key);
}

int walk_push(walk_keys_t *k, game_t *g, int key)
{
    if (k->n >= WALK_MAX_KEYS)
        return 0;
    k->keys[k->n++] = key;
    walk_feed(g, key);
    return 1;
}

int walk_to(walk_keys_t *k, game_t *g, int tx, int ty)
{
    dmap_t d;
    ai_distance_map(&g->map, tx, ty, &d);
    while (!game_dead(g) && (g->player.x != tx || g->player.y != ty)) {
        int nx, ny;
        if (!ai_step_down(&g->map, &d, NULL, g->player.x, g->player.y, &nx,
                          &ny))
            return 0;
        if (!walk_push(k, g, walk_dir_key(nx - g->player.x, ny - g->player.y)))
            return 0;
    }
    return !game_dead(g);
}

int walk_nearest_item(const game_t *g, int kind, int max, int *tx, int *ty)
{
    dmap_t d;
    ai_distance_map(&g->map, g->player.x, g->player.y, &d);
    int best = max + 1;
    for (int i = 0; i < MAX_ITEMS; i++) {
        const item_t *it = &g->items[i];
        if (it->type == ITEM_THING && (kind < 0 || it->kind == kind) &&
            d.v[it->y][it->x] < best) {
            best = d.v[it->y][it->x];
            *tx = it->x;
            *ty = it->y;
        }
    }
    return best <= max;
}

int walk_far_tile(const game_t *g, int *tx, int *ty)
{
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++) {
            int dx = x - g->player.x, dy = y - g->player.y;
            if (game_lit(g, x, y) && map_walkable(&g->map, x, y) &&
                dx * dx + dy * dy >= 16 && target_allowed(g, x, y)) {
                *tx = x;
                *ty = y;
                return 1;
            }
        }
    return 0;
}
