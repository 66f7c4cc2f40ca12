/* test_playtest9.c - what a newcomer's play-test of game version 9 found,
 * mended in that version (docs/game.md, "Game version 9"): a rest or a
 * count under poison or stopped by a monster, a monster that flees told
 * once, lines merged within a turn only, throws that reach no monster,
 * the throw cursor within range, no scroll cast on its reader, the
 * fireball's words, the stairs told on arrival, the status line and the
 * count's prompt, a known identify with nothing to identify kept.
 * Scripted games in the arena room, exact lines. test_telling.c has the
 * rest of version 9's words. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "fov.h"
#include "game.h"
#include "keys.h"
#include "view.h"

/* The corridor (row 8 only) of the arena, a rat out of view to come. */
static game_t *corridor_with_rat(void)
{
    game_t *g = arena_room(1, NULL);
    arena_corridor(g);
    game_place_monster(g, MON_RAT, 19, 8);
    game_update_fov(g);
    ck_assert(!game_monster_in_view(g));
    return g;
}

START_TEST(a_rest_names_the_monster_come_into_view)
{
    game_t *g = corridor_with_rat();
    g->player.max_hp = 900; /* not healed before the rat comes */
    g->player.hp = 21;
    ck_assert_int_eq(game_key(g, 'R'), 1);
    ck_assert(game_monster_in_view(g));
    ck_assert_str_eq(game_msg(g, 0)->text, "A rat comes into view.");
    game_free(g);
}
END_TEST

/* The poison's own HP is what a rest waits out, not a reason to stop. */
START_TEST(a_rest_waits_the_poison_out)
{
    game_t *g = arena_room(1, NULL);
    g->player.hp = 20;
    g->player.poison = 6;
    ck_assert_int_eq(game_key(g, 'R'), 1);
    ck_assert_int_eq(g->player.poison, 0);
    ck_assert_int_eq(g->player.hp, 30);
    ck_assert_int_eq(g->turn, 6 + 16); /* 6 poisoned, then 14 -> 30 */
    ck_assert_str_eq(game_msg(g, 0)->text, "You rest 22 turns: HP 30/30.");
    game_free(g);
}
END_TEST

/* Poison left at or above the HP kills before it wears off (no healing
 * while it lasts, and its ticks take one of each a turn, so only a blow
 * makes it so): R is refused, and a count takes the turn asked for, then
 * stops and says why, rather than wait the player to death. */
START_TEST(a_rest_does_not_wait_for_a_deadly_poison)
{
    game_t *g = arena_room(1, NULL);
    g->player.hp = 3;
    g->player.poison = 6;
    ck_assert_int_eq(game_key(g, 'R'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "Resting will not save you: the poison left would kill "
                     "you.");
    ck_assert_int_eq(g->turn, 0);
    ck_assert_int_eq(g->player.hp, 3);
    /* a count of waits: the first turn is taken, then it stops */
    game_key(g, '0');
    game_key(g, '9');
    game_key(g, '.');
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_int_eq(g->turn, 1);
    ck_assert_int_eq(g->player.hp, 2);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You stop: the poison left would kill you.");
    game_free(g);
}
END_TEST

START_TEST(a_counted_wait_goes_on_under_poison)
{
    game_t *g = arena_room(1, NULL);
    g->player.hp = 20;
    g->player.poison = 6;
    ck_assert_int_eq(arena_count_key(g, 5, '.'), 1);
    ck_assert_int_eq(g->turn, 5);
    ck_assert_int_eq(g->player.hp, 15);
    /* A blow still stops it, poisoned or not. */
    g->player.defense = 50;
    game_place_monster(g, MON_RAT, 11, 8);
    game_update_fov(g);
    ck_assert_int_eq(arena_count_key(g, 5, '.'), 1);
    ck_assert_int_eq(g->turn, 6);
    ck_assert_int_eq(
        arena_log_count(g, "The rat hits you but deals no damage."), 1);
    game_free(g);
}
END_TEST

START_TEST(a_monster_that_flees_is_told_once)
{
    game_t *g = arena_room(1, NULL);
    int m = game_place_monster(g, MON_GOBLIN, 14, 8);
    ck_assert_int_ge(m, 0);
    g->monsters[m].hp = 1; /* below 30%: it flees */
    game_update_fov(g);
    game_key(g, '.');
    ck_assert_str_eq(game_msg(g, 0)->text, "The goblin flees!");
    for (int i = 0; i < 3; i++)
        game_key(g, '.');
    ck_assert_int_eq(arena_log_count(g, "flees"), 1);
    game_free(g);
}
END_TEST

/* The same blow in two turns is two lines; in one turn (two bumps into a
 * wall, no turn) one line with a count. */
START_TEST(lines_merge_only_within_a_turn)
{
    game_t *g = arena_room(1, NULL);
    g->player.defense = 50;
    game_place_monster(g, MON_RAT, 11, 8);
    game_update_fov(g);
    game_key(g, '.');
    game_key(g, '.');
    ck_assert_int_eq(g->turn, 2);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "The rat hits you but deals no damage.");
    ck_assert_str_eq(game_msg(g, 1)->text,
                     "The rat hits you but deals no damage.");
    g->player.x = 1;
    game_update_fov(g);
    game_key(g, 'h');
    game_key(g, 'h');
    ck_assert_str_eq(game_msg(g, 0)->text, "There is a wall in the way. (x2)");
    game_free(g);
}
END_TEST

/* `t` and the dagger's letter: the throw's cursor. */
static int aim_dagger(game_t *g)
{
    int slot = item_pack_add(g, IK_DAGGER);
    game_key(g, 't');
    game_key(g, 'a' + slot);
    ck_assert_int_eq(g->mode, MODE_TARGET);
    return slot;
}

START_TEST(a_throw_at_nothing_says_where_it_went)
{
    game_t *g = arena_explored();
    int slot = aim_dagger(g);
    /* The cursor on the player: refused, no turn. */
    ck_assert_int_eq(game_key(g, KEY_ENTER), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "There is nothing to throw at.");
    ck_assert_int_eq(g->turn, 0);
    ck_assert_int_eq(g->mode, MODE_TARGET);
    ck_assert(item_pack_has(g, slot));
    for (int i = 0; i < 3; i++)
        game_key(g, 'l');
    ck_assert_int_eq(game_key(g, KEY_ENTER), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "The dagger falls to the floor.");
    ck_assert(item_find(g, ITEM_THING, 13, 8));
    game_free(g);
}
END_TEST

/* A pillar on the dagger's line to a monster seen past it. */
START_TEST(a_throw_stopped_short_misses)
{
    game_t *g = arena_explored();
    g->map.tile[8][12] = TILE_WALL;
    int m = game_place_monster(g, MON_HOBGOBLIN, 14, 9);
    ck_assert_int_ge(m, 0);
    g->monsters[m].asleep = 200;
    game_update_fov(g);
    ck_assert(game_lit(g, 14, 9));
    aim_dagger(g);
    ck_assert_int_eq(g->target.x, 14);
    ck_assert_int_eq(game_key(g, KEY_ENTER), 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "The dagger misses the hobgoblin.");
    ck_assert(item_find(g, ITEM_THING, 11, 8));
    ck_assert_int_eq(g->monsters[m].hp, monster_stats(MON_HOBGOBLIN)->hp);
    game_free(g);
}
END_TEST

START_TEST(the_throw_cursor_skips_a_monster_out_of_range)
{
    game_t *g = arena_explored();
    game_place_monster(g, MON_RAT, 18, 8); /* 8 off: a dagger reaches 6 */
    game_update_fov(g);
    ck_assert(game_monster_in_view(g));
    aim_dagger(g);
    ck_assert_int_eq(g->target.x, 10);
    ck_assert_int_eq(g->target.y, 8);
    /* A monster in view, the cursor on the player: not "nothing". */
    ck_assert_int_eq(game_key(g, KEY_ENTER), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "Move the cursor to what to throw at.");
    ck_assert_int_eq(g->turn, 0);
    /* Euclidean: (5, 3) is 34 <= 36, in reach; (5, 4) is 41, not. */
    ck_assert(item_in_reach(0, 0, 5, 3, 6));
    ck_assert(!item_in_reach(0, 0, 5, 4, 6));
    game_free(g);
}
END_TEST

/* A scroll, known or not, is not cast on the reader's own tile, where the
 * cursor starts with nothing in reach: refused, no turn, still aiming. */
START_TEST(a_scroll_is_not_cast_on_its_reader)
{
    /* a known fireball (every kind known), then an unknown confusion */
    static const int kinds[] = { IK_FIREBALL, IK_CONFUSION };
    for (int k = 0; k < 2; k++) {
        game_t *g = k == 0 ? arena_explored() : arena_room(1, NULL);
        int hp = g->player.hp;
        int slot = item_pack_add(g, kinds[k]);
        ck_assert_int_eq(item_known(g, kinds[k]), k == 0);
        game_key(g, 'i');
        game_key(g, 'a' + slot);
        ck_assert_int_eq(g->target.x, g->player.x);
        ck_assert_int_eq(g->target.y, g->player.y);
        ck_assert_int_eq(game_key(g, KEY_ENTER), 0);
        ck_assert_str_eq(game_msg(g, 0)->text,
                         "Move the cursor off yourself to cast it.");
        ck_assert_int_eq(g->mode, MODE_TARGET);
        ck_assert_int_eq(g->turn, 0);
        ck_assert_int_eq(g->player.hp, hp);
        ck_assert(item_pack_has(g, slot));
        ck_assert(k == 0 || !item_known(g, kinds[k]));
        game_free(g);
    }
}
END_TEST

START_TEST(a_fireball_burns_for_damage)
{
    game_t *g = arena_explored();
    game_place_monster(g, MON_ORC, 12, 8);
    game_update_fov(g);
    int slot = item_pack_add(g, IK_FIREBALL);
    game_key(g, 'i');
    game_key(g, 'a' + slot);
    ck_assert_int_eq(game_key(g, KEY_ENTER), 1);
    ck_assert_int_eq(arena_log_count(g, "The orc gets burned for 12 damage."),
                     1);
    ck_assert_int_eq(arena_log_count(g, "You get burned for 12 damage."), 1);
    ck_assert_int_eq(arena_log_count(g, "hit points"), 0);
    game_free(g);
}
END_TEST

START_TEST(a_step_or_a_travel_onto_the_stairs_tells_them)
{
    game_t *g = arena_explored();
    g->map.tile[8][11] = TILE_STAIRS;
    ck_assert_int_eq(game_key(g, 'l'), 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You are on the stairs: > goes down.");
    game_free(g);
    g = arena_explored();
    g->map.tile[8][16] = TILE_STAIRS;
    ck_assert_int_eq(game_key(g, '_'), 1);
    ck_assert_int_eq(g->player.x, 16);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You are on the stairs: > goes down.");
    ck_assert_int_eq(arena_log_count(g, "stairs"), 1);
    game_free(g);
}
END_TEST

START_TEST(the_status_line_tells_no_more_than_it_knows)
{
    game_t *g = arena_room(1, NULL);
    screen_t s;
    char line[256];
    ck_assert_int_eq(screen_init(&s, 80, 24), 0);
    g->player.hp = 28;
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "HP: 28/30 [=========-]"));
    g->player.hp = 30;
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "HP: 30/30 [==========]"));
    /* `0` alone: no count of zero shown. */
    game_key(g, '0');
    view_draw(g, &s);
    ck_assert(!arena_screen_has(&s, "Count: 0"));
    ck_assert_int_eq(strncmp(arena_row(&s, 23, line, sizeof line),
                             "Count: type a number.", 21), 0);
    game_key(g, '7');
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "Count: 7 - then . or a direction."));
    game_key(g, KEY_ESC);
    /* The help says how autopickup starts, and it does start so. */
    ck_assert(!g->autopickup);
    game_key(g, '?');
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "Autopickup A (starts off)"));
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(a_known_identify_with_nothing_to_identify_is_kept)
{
    game_t *g = arena_room(1, NULL);
    item_learn(g, IK_IDENTIFY);
    int slot = item_pack_add(g, IK_IDENTIFY);
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a' + slot), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You have nothing unknown to identify.");
    ck_assert(item_pack_has(g, slot));
    ck_assert_int_eq(g->turn, 0);
    game_free(g);
    /* An unknown one is read, learnt and spent, for a turn. */
    g = arena_room(1, NULL);
    slot = item_pack_add(g, IK_IDENTIFY);
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a' + slot), 1);
    ck_assert(item_known(g, IK_IDENTIFY));
    ck_assert(!item_pack_has(g, slot));
    ck_assert_int_eq(g->turn, 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You have nothing unknown to identify.");
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("playtest9");
    TCase *tc = tcase_create("version 9");
    tcase_add_test(tc, a_rest_names_the_monster_come_into_view);
    tcase_add_test(tc, a_rest_waits_the_poison_out);
    tcase_add_test(tc, a_rest_does_not_wait_for_a_deadly_poison);
    tcase_add_test(tc, a_counted_wait_goes_on_under_poison);
    tcase_add_test(tc, a_monster_that_flees_is_told_once);
    tcase_add_test(tc, lines_merge_only_within_a_turn);
    tcase_add_test(tc, a_throw_at_nothing_says_where_it_went);
    tcase_add_test(tc, a_throw_stopped_short_misses);
    tcase_add_test(tc, the_throw_cursor_skips_a_monster_out_of_range);
    tcase_add_test(tc, a_scroll_is_not_cast_on_its_reader);
    tcase_add_test(tc, a_fireball_burns_for_damage);
    tcase_add_test(tc, a_step_or_a_travel_onto_the_stairs_tells_them);
    tcase_add_test(tc, the_status_line_tells_no_more_than_it_knows);
    tcase_add_test(tc, a_known_identify_with_nothing_to_identify_is_kept);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
