/* test_telling11.c - game version 11: a play-test's words (docs/game.md,
 * "Game version 11"), each a line the log told wrongly or a key a menu
 * took in silence: a rest of one turn, an unknown health potion drunk at
 * full health, a count of waits, identify's letter of no item, the
 * discoveries' order.
 * (The count's keys: test_rest; the blows' lines: test_combat; the
 * lightning bolt's: test_items.) Scripted games in the arena room, exact
 * lines. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "game.h"
#include "keys.h"
#include "view.h"

/* "You rest 1 turns" was said of a rest of one turn. */
START_TEST(a_rest_of_one_turn_is_one_turn)
{
    game_t *g = arena_room(1, NULL);
    g->player.hp = g->player.max_hp - 1;
    ck_assert_int_eq(game_key(g, 'R'), 1);
    ck_assert_int_eq(g->player.hp, g->player.max_hp);
    char want[64];
    snprintf(want, sizeof want, "You rest 1 turn: HP %d/%d.",
             g->player.max_hp, g->player.max_hp);
    ck_assert_str_eq(game_msg(g, 0)->text, want);
    game_free(g);
}
END_TEST

/* A count of waits nothing stopped said nothing at all; now what it came
 * to. */
START_TEST(a_count_of_waits_says_what_it_came_to)
{
    game_t *g = arena_room(1, NULL);
    game_key(g, '0');
    game_key(g, '5');
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert_uint_eq(g->turn, 5);
    char want[64];
    snprintf(want, sizeof want, "You wait 5 turns: HP %d/%d.",
             g->player.max_hp, g->player.max_hp);
    ck_assert_str_eq(game_msg(g, 0)->text, want);
    game_free(g);
}
END_TEST

/* An unknown health potion drunk at full health said "heal 0 HP"; it is
 * learnt and spent, and says it did nothing. A known one is refused, as
 * before. */
START_TEST(an_unknown_health_potion_at_full_health_says_so)
{
    game_t *g = arena_room(1, NULL);
    ck_assert(!item_known(g, IK_HEALTH_POTION));
    ck_assert_int_eq(item_pack_add(g, IK_HEALTH_POTION), 0);
    ck_assert_int_eq(item_pack_add(g, IK_HEALTH_POTION), 0);
    ck_assert_int_eq(game_key(g, 'i'), 0);
    ck_assert_int_eq(game_key(g, 'a'), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You drink the health potion: you "
                                           "were already at full health.");
    ck_assert_int_eq(arena_log_count(g, "heal 0 HP"), 0);
    ck_assert(item_known(g, IK_HEALTH_POTION));
    ck_assert_int_eq(game_key(g, 'i'), 0);
    ck_assert_int_eq(game_key(g, 'a'), 0); /* known: no turn spent */
    ck_assert_str_eq(game_msg(g, 0)->text, "You are already at full health.");
    game_free(g);
}
END_TEST

/* Identify's menu took a letter of no item in silence, where the pack's
 * menus say so. */
START_TEST(identify_says_a_letter_of_no_item)
{
    game_t *g = arena_room(1, NULL);
    ck_assert_int_eq(item_pack_add(g, IK_IDENTIFY), 0);
    ck_assert_int_eq(item_pack_add(g, IK_SPEED), 1);
    item_learn(g, IK_IDENTIFY);
    ck_assert_int_eq(game_key(g, 'i'), 0);
    ck_assert_int_eq(game_key(g, 'a'), 0);
    ck_assert_int_eq(g->mode, MODE_IDENTIFY);
    ck_assert_int_eq(game_key(g, 'z'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You have no item 'z'.");
    ck_assert_int_eq(g->mode, MODE_IDENTIFY); /* still asking */
    game_free(g);
}
END_TEST

/* The discoveries: the potions, then the scrolls (the potion of speed
 * came after every scroll). */
START_TEST(discoveries_go_by_class)
{
    game_t *g = arena_room(1, NULL);
    static const int kinds[] = { IK_LIGHTNING, IK_SPEED, IK_HEALTH_POTION,
                                 IK_TELEPORT };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        item_learn(g, kinds[i]);
    ck_assert_int_eq(game_key(g, '\\'), 0);
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    int health = arena_screen_row(&s, ": health potion"),
        speed = arena_screen_row(&s, ": potion of speed"),
        bolt = arena_screen_row(&s, ": scroll of lightning"),
        tele = arena_screen_row(&s, ": scroll of teleportation");
    ck_assert_msg(health >= 0 && speed >= 0 && bolt >= 0 && tele >= 0,
                  "%d %d %d %d", health, speed, bolt, tele);
    ck_assert_int_lt(health, speed);
    ck_assert_int_lt(speed, bolt);
    ck_assert_int_lt(bolt, tele);
    screen_free(&s);
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("telling11");
    TCase *tc = tcase_create("telling11");
    tcase_add_test(tc, a_rest_of_one_turn_is_one_turn);
    tcase_add_test(tc, a_count_of_waits_says_what_it_came_to);
    tcase_add_test(tc, an_unknown_health_potion_at_full_health_says_so);
    tcase_add_test(tc, identify_says_a_letter_of_no_item);
    tcase_add_test(tc, discoveries_go_by_class);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
