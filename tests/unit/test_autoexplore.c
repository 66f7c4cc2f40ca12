/* test_autoexplore.c - autoexplore and the items it left (docs/game.md,
 * "Autoexplore"): with the level explored, `o` walks back to an item the
 * player walked past (once: going on declines it), never to one the player
 * dropped; with autopickup on (`A`), it walks to items and picks them up.
 * Exact values in an arena room. */
#include <check.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "game.h"
#include "keys.h"

START_TEST(autoexplore_returns_to_an_item_it_left)
{
    game_t *g = arena_explored();
    item_put(g, ITEM_THING, IK_HEALTH_POTION, 11, 8, 0);
    game_update_fov(g);
    /* Walk over it and on: it is left behind. */
    ck_assert_int_eq(game_key(g, 'l'), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You see a health potion here.");
    for (int i = 0; i < 4; i++)
        game_key(g, 'l');
    ck_assert_int_eq(g->player.x, 15);
    ck_assert_int_eq(g->turn, 5);
    /* `o`: back to it, four steps, and it says what lies there. */
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->player.x, 11);
    ck_assert_int_eq(g->turn, 9);
    /* A line of its own: lines merge only within a turn. */
    ck_assert_str_eq(game_msg(g, 0)->text, "You see a health potion here.");
    ck_assert_str_eq(game_msg(g, 1)->text, "You see a health potion here.");
    /* `o` again: declined, nothing left. */
    ck_assert_int_eq(game_key(g, 'o'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "There is nothing left to explore here.");
    ck_assert_int_eq(g->player.x, 11);
    game_free(g);
}
END_TEST

START_TEST(autoexplore_leaves_what_the_player_dropped)
{
    game_t *g = arena_explored();
    item_pack_add(g, IK_DAGGER);
    game_key(g, 'd');
    ck_assert_int_eq(game_key(g, 'a'), 1);
    game_key(g, 'l');
    game_key(g, 'l');
    ck_assert_int_eq(game_key(g, 'o'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "There is nothing left to explore here.");
    ck_assert_int_eq(g->player.x, 12);
    /* Autopickup leaves it too. */
    ck_assert_int_eq(game_key(g, 'A'), 0);
    ck_assert_int_eq(game_key(g, 'o'), 0);
    ck_assert_int_eq(g->player.x, 12);
    game_free(g);
}
END_TEST

START_TEST(autopickup_walks_to_items_and_takes_them)
{
    game_t *g = arena_explored();
    ck_assert_int_eq(g->autopickup, 0);
    ck_assert_int_eq(game_key(g, 'A'), 0);
    ck_assert_int_eq(g->autopickup, 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "Autopickup on: exploring picks up what it finds.");
    item_put(g, ITEM_THING, IK_SPEAR, 14, 8, 0);
    item_put(g, ITEM_THING, IK_DART, 10, 12, 0);
    game_update_fov(g);
    /* The nearest first: the spear, four steps and a pick-up. */
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->player.x, 14);
    ck_assert_int_eq(g->turn, 5);
    ck_assert_str_eq(game_msg(g, 0)->text, "You pick up a spear (a).");
    /* Then the dart: four steps diagonally and a pick-up. */
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->player.x, 10);
    ck_assert_int_eq(g->player.y, 12);
    ck_assert_int_eq(g->turn, 10);
    ck_assert_str_eq(game_msg(g, 0)->text, "You pick up a dart (b).");
    ck_assert_int_eq(game_key(g, 'o'), 0);
    /* Off again: it stops at an item without taking it. */
    ck_assert_int_eq(game_key(g, 'A'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "Autopickup off: exploring stops at items.");
    item_put(g, ITEM_THING, IK_LEATHER, 12, 12, 0);
    game_update_fov(g);
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->player.x, 12);
    ck_assert_int_eq(g->pack_count, 2);
    ck_assert_str_eq(game_msg(g, 0)->text, "You see a leather armour here.");
    game_free(g);
}
END_TEST

START_TEST(autopickup_leaves_the_amulet_and_a_full_pack)
{
    game_t *g = arena_explored();
    game_key(g, 'A');
    item_put(g, ITEM_THING, IK_AMULET, 12, 8, 0);
    game_update_fov(g);
    /* The Amulet: walked to (never stood on), not taken. */
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->player.x, 12);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_int_eq(game_key(g, 'o'), 0);
    game_free(g);
    /* A full pack: a sword is walked to once, as with autopickup off. */
    g = arena_explored();
    game_key(g, 'A');
    for (int i = 0; i < PACK_SIZE; i++)
        item_pack_add(g, IK_DAGGER);
    item_put(g, ITEM_THING, IK_SWORD, 13, 8, 0);
    game_update_fov(g);
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->player.x, 13);
    ck_assert_int_eq(g->pack_count, PACK_SIZE);
    ck_assert_int_eq(game_key(g, 'o'), 0);
    game_free(g);
}
END_TEST

/* An item is a goal like any other, not a first choice: the nearest goal
 * wins. A 7x7 room (x 5..11, y 5..11) with a potion 4 steps west of the
 * player, and a gap at (12, 8) in its east wall to a room not seen yet:
 * the gap's unseen side is nearer, so `o` heads east, leaving the potion
 * (docs/game.md, "Autoexplore"). A rat asleep in the east room stops the
 * walk once it comes into view. */
START_TEST(autoexplore_goes_to_the_nearest_goal_not_to_items_first)
{
    game_t *g = arena_room(1, NULL);
    for (int y = 1; y <= 15; y++)
        for (int x = 1; x <= 40; x++) {
            int west = x >= 5 && x <= 11 && y >= 5 && y <= 11;
            int east = x >= 13 && x <= 30 && y >= 5 && y <= 11;
            g->map.tile[y][x] = west || east || (x == 12 && y == 8)
                                    ? TILE_FLOOR : TILE_WALL;
        }
    memset(g->map.explored, 0, sizeof g->map.explored); /* the open room's */
    item_put(g, ITEM_THING, IK_HEALTH_POTION, 6, 8, 0);
    int rat = game_place_monster(g, MON_RAT, 20, 8);
    g->monsters[rat].asleep = 100;
    game_update_fov(g);
    ck_assert(!game_monster_in_view(g));
    ck_assert(!map_known(&g->map, 20, 8));
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert(game_monster_in_view(g));
    ck_assert_int_eq(g->player.x, 12); /* east, into the gap: 2 steps */
    ck_assert_int_eq(g->player.y, 8);
    ck_assert_int_eq(g->turn, 2);
    const item_t *potion = item_find(g, ITEM_THING, 6, 8);
    ck_assert_ptr_nonnull(potion);
    ck_assert(!potion->walked);
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("autoexplore");
    TCase *tc = tcase_create("autoexplore");
    tcase_add_test(tc, autoexplore_returns_to_an_item_it_left);
    tcase_add_test(tc, autoexplore_leaves_what_the_player_dropped);
    tcase_add_test(tc, autopickup_walks_to_items_and_takes_them);
    tcase_add_test(tc, autopickup_leaves_the_amulet_and_a_full_pack);
    tcase_add_test(tc, autoexplore_goes_to_the_nearest_goal_not_to_items_first);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
