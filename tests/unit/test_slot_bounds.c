/* test_slot_bounds.c - the slots' ends (world.h, game_derived_t) never
 * hide a live slot, the last view's place clears all it lit, and the
 * state's bytes are what they were (docs/performance.md, "The turn's slots
 * bounded").
 *
 * Searches by place and passes over the living stop at game_items_end and
 * game_monsters_end; a path of the rules that makes a slot live past them
 * without moving them would make a monster or an item vanish from a search.
 * Many seeded games played by random keys check after every key that no
 * slot at or past an end is live, that every search by place finds what a
 * search of every slot finds, and that a game rebuilt from its state's
 * bytes is the same game. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "fov.h"
#include "game.h"
#include "keys.h"
#include "rng.h"

/* No live slot at or past the ends; and the ends no further than the
 * game's last live slot allows: at most the slots ever live. */
static void assert_bounds_hold(const game_t *g)
{
    for (int i = game_items_end(g); i < MAX_ITEMS; i++)
        ck_assert_msg(g->items[i].type == ITEM_NONE,
                      "item slot %d live past the end %d", i,
                      game_items_end(g));
    for (int i = game_monsters_end(g); i < MAX_MONSTERS; i++)
        ck_assert_msg(!g->monsters[i].alive,
                      "monster slot %d alive past the end %d", i,
                      game_monsters_end(g));
}

/* visible holds exactly the last view's tiles: what a view from its
 * origin, cleared whole, lights (game_update_fov clears only the part the
 * view before lit, and does not look again while the player stands
 * still); that origin is the player's place, and all of it is
 * explored. */
static void assert_view_exact(const game_t *g)
{
    if (!g->derived.view_known)
        return;
    uint8_t want[MAP_H][TILE_BITS_ROW];
    fov_compute(&g->map, g->derived.view_x, g->derived.view_y, FOV_RADIUS,
                want);
    ck_assert(memcmp(want, g->visible, sizeof want) == 0);
    ck_assert_int_eq(g->derived.view_x, g->player.x);
    ck_assert_int_eq(g->derived.view_y, g->player.y);
    /* Counted, then one assertion: one a tile (1,680 a key) made the
     * test four times as long. */
    int unknown = 0;
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            unknown += game_lit(g, x, y) && !map_known(&g->map, x, y);
    ck_assert_int_eq(unknown, 0);
}

/* Every search by place, around the player and at every live slot's
 * place, finds what a search of all the slots finds. */
static void assert_searches_agree(const game_t *g)
{
    int px = g->player.x, py = g->player.y;
    for (int y = py - 2; y <= py + 2; y++)
        for (int x = px - 2; x <= px + 2; x++) {
            ck_assert_int_eq(game_monster_at(g, x, y),
                             monster_at(g->monsters, MAX_MONSTERS, x, y));
            int all = map_slot_at(g->items, MAX_ITEMS, sizeof(item_t),
                                  offsetof(item_t, x),
                                  offsetof(item_t, type), 0, x, y);
            ck_assert_int_eq(item_next_at(g, 0, x, y), all);
        }
    for (int i = 0; i < MAX_MONSTERS; i++)
        if (g->monsters[i].alive)
            ck_assert_int_eq(game_monster_at(g, g->monsters[i].x,
                                             g->monsters[i].y), i);
    for (int i = 0; i < MAX_ITEMS; i++)
        if (g->items[i].type != ITEM_NONE)
            ck_assert_int_le(item_next_at(g, 0, g->items[i].x,
                                          g->items[i].y), i);
}

/* The keys of the walk: moves most of the time, and every command that
 * puts items or monsters in slots (picking up, using, dropping and
 * throwing a pack letter, the stairs, resting, autoexplore). */
static int walk_key(rng_t *r, int prev)
{
    static const int moves[] = { 'h', 'j', 'k', 'l', 'y', 'u', 'b', 'n' };
    static const int other[] = { ',', 'i', 'd', 't', '>', '.', 'o', 'o',
                                 KEY_ESC, 'f' };
    if (prev == 'i' || prev == 'd' || prev == 't')
        return 'a' + rng_range(r, 0, 5); /* a pack letter */
    if (rng_range(r, 0, 3) > 0)
        return moves[rng_range(r, 0, 7)];
    return other[rng_range(r, 0, (int)(sizeof other / sizeof other[0]) - 1)];
}

START_TEST(random_walks_keep_every_live_slot_within_the_ends)
{
    int kills = 0, levels = 0, dropped = 0, still = 0;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        game_t *g = game_new(seed, NULL);
        ck_assert_ptr_nonnull(g);
        rng_t r;
        rng_seed(&r, seed * 7919);
        int key = 0;
        for (int n = 0; n < 1200 && !game_dead(g) && !game_over(g); n++) {
            int depth = g->depth, k0 = g->kills, items = 0;
            int px = g->player.x, py = g->player.y;
            uint32_t turn = g->turn;
            for (int i = 0; i < MAX_ITEMS; i++)
                items += g->items[i].type != ITEM_NONE;
            key = walk_key(&r, key);
            if (g->mode == MODE_TARGET)
                key = rng_range(&r, 0, 1) ? KEY_ENTER : KEY_ESC;
            game_key(g, key);
            assert_bounds_hold(g);
            assert_searches_agree(g);
            assert_view_exact(g);
            still += g->turn > turn && g->depth == depth &&
                     g->player.x == px && g->player.y == py;
            kills += g->kills > k0;
            levels += g->depth > depth;
            int after = 0;
            for (int i = 0; i < MAX_ITEMS; i++)
                after += g->items[i].type != ITEM_NONE;
            dropped += after > items;
            if (n % 100 == 0) { /* a snapshot's bytes: the same game */
                static unsigned char form[GAME_STATE_BYTES];
                game_state_bytes(g, form);
                game_t *c = game_from_state(form, sizeof form);
                ck_assert_ptr_nonnull(c);
                ck_assert_uint_eq(game_hash(c), game_hash(g));
                ck_assert(memcmp(c, g, GAME_STATE_SIZE) == 0);
                ck_assert_int_le(game_items_end(c), game_items_end(g));
                ck_assert_int_le(game_monsters_end(c), game_monsters_end(g));
                assert_bounds_hold(c);
                game_free(c);
            }
        }
        game_free(g);
    }
    /* The walks did what the bounds are about: slots made live in play. */
    ck_assert_int_ge(kills, 20);
    ck_assert_int_ge(levels, 2);
    ck_assert_int_ge(dropped, 20);
    ck_assert_int_ge(still, 100); /* turns taken standing still (where
                                     the turn's end keeps the view): each
                                     checked exact above */
}
END_TEST

/* A monster placed past the end (a summoning) and an item put past it (a
 * corpse, a drop) are found; so are they once the ends are unknown (all
 * zero: a game's bytes copied without its derived part). */
START_TEST(a_slot_made_live_past_the_end_is_found)
{
    game_t *g = arena_room(1, NULL);
    game_derive(g); /* the arena's slots, cleared by hand: none live */
    ck_assert_int_eq(game_monsters_end(g), 0);
    ck_assert_int_eq(game_items_end(g), 0);
    ck_assert_int_eq(game_monster_at(g, 20, 5), -1);
    int m = game_place_monster(g, MON_RAT, 20, 5);
    ck_assert_int_eq(m, 0);
    ck_assert_int_eq(game_monster_at(g, 20, 5), 0);
    ck_assert_int_eq(game_monsters_end(g), 1);
    item_t *it = item_put(g, ITEM_GOLD, 0, 21, 5, 7);
    ck_assert_ptr_eq(it, &g->items[0]);
    ck_assert_int_eq(item_next_at(g, 0, 21, 5), 0);
    ck_assert_ptr_eq(item_find(g, ITEM_GOLD, 21, 5), it);
    ck_assert_int_eq(game_items_end(g), 1);
    memset(&g->derived, 0, sizeof g->derived); /* unknown */
    ck_assert_int_eq(game_monsters_end(g), MAX_MONSTERS);
    ck_assert_int_eq(game_items_end(g), MAX_ITEMS);
    ck_assert_int_eq(game_monster_at(g, 20, 5), 0);
    ck_assert_int_eq(item_next_at(g, 0, 21, 5), 0);
    game_free(g);
}
END_TEST

/* The state is 21,592 bytes, as since game version 8: its size is what every host stores
 * and sends, the hash covers exactly it, and nothing derived changes it.
 * The tile sets, bits in memory, are a byte a tile in it, between the
 * fields around them as before (game_state.c). */
START_TEST(the_state_is_the_hashed_and_stored_bytes)
{
    ck_assert_uint_eq(GAME_STATE_BYTES, 21592);
    game_t *g = game_new(42, NULL);
    for (int i = 0; i < 40; i++) /* a few steps: more seen than in view */
        game_key(g, i % 8 < 4 ? 'l' : 'j');
    static unsigned char form[GAME_STATE_BYTES];
    game_state_bytes(g, form);
    const size_t grown = (size_t)MAP_H * (MAP_W - TILE_BITS_ROW);
    const unsigned char *explored = form + offsetof(game_t, map.explored);
    const unsigned char *visible = form + offsetof(game_t, visible) + grown;
    int seen = 0, lit = 0;
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++) {
            ck_assert_uint_eq(explored[y * MAP_W + x], map_known(&g->map, x, y));
            ck_assert_uint_eq(visible[y * MAP_W + x], game_lit(g, x, y));
            seen += explored[y * MAP_W + x];
            lit += visible[y * MAP_W + x];
        }
    ck_assert_int_gt(seen, lit);
    ck_assert_int_gt(lit, 0);
    ck_assert(memcmp(form, g, offsetof(game_t, map.explored)) == 0);
    ck_assert(memcmp(form + offsetof(game_t, player) + 2 * grown, &g->player,
                     GAME_STATE_SIZE - offsetof(game_t, player)) == 0);
    game_t *c = game_clone(g);
    uint64_t h = game_hash(g);
    memset(&c->derived, 0xa5, sizeof c->derived);
    ck_assert_uint_eq(game_hash(c), h);
    c->pad6[0] = 1; /* the state's last bytes are hashed */
    ck_assert_uint_ne(game_hash(c), h);
    c->pad6[0] = 0;
    tile_bit_put(c->visible[3], 79, !game_lit(c, 79, 3)); /* and the sets */
    ck_assert_uint_ne(game_hash(c), h);
    ck_assert_ptr_null(game_from_state(form, sizeof form - 1));
    ck_assert_ptr_null(game_from_state(g, GAME_STATE_SIZE));
    game_free(c);
    game_free(g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("slot_bounds");
    TCase *tc = tcase_create("bounds");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, random_walks_keep_every_live_slot_within_the_ends);
    tcase_add_test(tc, a_slot_made_live_past_the_end_is_found);
    tcase_add_test(tc, the_state_is_the_hashed_and_stored_bytes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
