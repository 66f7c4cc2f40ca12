/* fireball_plan.c - for the browser test: finds a seed (1..2000, the
 * default combat rules) whose game lets the player walk to a scroll of
 * fireball, pick it up, read it and cast it at a tile in view 4 or more
 * away, and prints it as one line of JSON:
 *
 *   {"seed":N,"keys":"...","aim":"ia","click":[X,Y]}
 *
 * keys: the walk and the pick-up ('g'); aim: the keys that start aiming;
 * click: the map tile (column, row) to click, which is also the terminal
 * cell (the map is drawn from the top left). The test sends these to a
 * server started with --seed N. */
#include <stdio.h>

#include "game.h"
#include "item.h"
#include "walker.h"

static int plan(uint64_t seed, walk_keys_t *k, int *cx, int *cy)
{
    game_t *g = game_new(seed, NULL);
    int tx, ty, ok = 0;
    k->n = 0;
    if (walk_nearest_item(g, IK_FIREBALL, 40, &tx, &ty) &&
        walk_to(k, g, tx, ty) && walk_push(k, g, 'g') && g->pack_count == 1) {
        int walked = k->n;
        walk_push(k, g, 'i');
        walk_push(k, g, 'a');
        if (game_targeting(g) && walk_far_tile(g, cx, cy)) {
            k->n = walked; /* the aim is printed apart */
            ok = k->n < 200;
        }
    }
    game_free(g);
    return ok;
}

int main(void)
{
    walk_keys_t k;
    int x, y;
    for (uint64_t seed = 1; seed <= 2000; seed++) {
        if (!plan(seed, &k, &x, &y))
            continue;
        printf("{\"seed\":%llu,\"keys\":\"", (unsigned long long)seed);
        for (int i = 0; i < k.n; i++)
            putchar(k.keys[i]);
        printf("\",\"aim\":\"ia\",\"click\":[%d,%d]}\n", x, y);
        return 0;
    }
    fprintf(stderr, "no seed in 1..2000 gives a fireball to aim\n");
    return 1;
}
