/* test_comforts.c - what makes the game comfortable to play, through the
 * public API: running, travel to the stairs or to a clicked tile, and
 * autoexplore (each stopping when a monster comes into view), the
 * stacking pack with stable letters, look, the monster legend, and the redraw keys that the core ignores. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "combat.h"
#include "fov.h"
#include "game.h"
#include "keys.h"
#include "view.h"

/* An open 40x15 room (x 1..40, y 1..15) with a wall at x = 25 but for a
 * gap at y = 8; the player at (10, 8); nothing else. */
static game_t *walled(void)
{
    game_t *g = game_new(1, NULL);
    ck_assert_ptr_nonnull(g);
    memset(g->monsters, 0, sizeof g->monsters);
    memset(g->items, 0, sizeof g->items);
    memset(&g->map, 0, sizeof g->map);
    for (int y = 1; y <= 15; y++)
        for (int x = 1; x <= 40; x++)
            g->map.tile[y][x] = x == 25 && y != 8 ? TILE_WALL : TILE_FLOOR;
    g->map.rooms[0] = (rect_t){ 1, 1, 40, 15 };
    g->map.nrooms = 1;
    g->player.x = 10;
    g->player.y = 8;
    game_update_fov(g);
    return g;
}

START_TEST(running_stops_at_walls_and_on_sight)
{
    game_t *g = walled();
    /* West to the wall: 9 steps, one key. */
    ck_assert_int_eq(game_key(g, 'H'), 1);
    ck_assert_int_eq(g->player.x, 1);
    ck_assert_int_eq(g->turn, 9);
    /* Into a wall: no turn. */
    ck_assert_int_eq(game_key(g, 'H'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "There is a wall in the way.");
    ck_assert_int_eq(g->turn, 9);
    /* East through the gap: a rat behind the wall comes into view. */
    int r = game_place_monster(g, MON_RAT, 32, 3);
    ck_assert(!game_lit(g, 32, 3));
    ck_assert_int_eq(game_key(g, 'L'), 1);
    ck_assert(game_lit(g, g->monsters[r].x, g->monsters[r].y));
    ck_assert_int_eq(g->player.y, 8);
    ck_assert_int_lt(g->player.x, 40);
    int x = g->player.x;
    /* With the rat in view, running is refused. */
    ck_assert_int_eq(game_key(g, 'L'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You cannot run with a monster in view.");
    ck_assert_int_eq(g->player.x, x);
    game_free(g);
}
END_TEST

START_TEST(running_stops_on_items)
{
    game_t *g = walled();
    item_put(g, ITEM_THING, IK_HEALTH_POTION, 5, 8, 0);
    ck_assert_int_eq(game_key(g, 'H'), 1);
    ck_assert_int_eq(g->player.x, 5);
    ck_assert_int_eq(g->turn, 5);
    ck_assert_str_eq(game_msg(g, 0)->text, "You see a golden potion here.");
    game_free(g);
}
END_TEST

START_TEST(travel_to_the_stairs)
{
    game_t *g = walled();
    /* Stairs not seen yet: refused. */
    g->map.tile[12][35] = TILE_STAIRS;
    tile_bit_put(g->map.explored[12], 35, 0);
    ck_assert_int_eq(game_key(g, '_'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You have not found the stairs down yet.");
    /* Seen (the whole room known): `_` walks there by the gap, 26 steps. */
    for (int y = 0; y <= 16; y++)
        for (int x = 0; x <= 41; x++)
            tile_bit_put(g->map.explored[y], x, 1);
    ck_assert_int_eq(game_key(g, '_'), 1);
    ck_assert_int_eq(g->player.x, 35);
    ck_assert_int_eq(g->player.y, 12);
    ck_assert_int_eq(g->turn, 25);
    ck_assert_int_eq(game_key(g, '_'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You are on the stairs: > goes down.");
    /* `>` on them descends. */
    ck_assert_int_eq(game_key(g, '>'), 1);
    ck_assert_int_eq(g->depth, 2);
    game_free(g);
}
END_TEST

START_TEST(travel_stops_when_a_monster_comes_into_view)
{
    game_t *g = walled();
    g->map.tile[3][38] = TILE_STAIRS;
    for (int y = 0; y <= 16; y++)
        for (int x = 0; x <= 41; x++)
            tile_bit_put(g->map.explored[y], x, 1);
    int k = game_place_monster(g, MON_KOBOLD, 30, 14);
    ck_assert(!game_lit(g, 30, 14));
    ck_assert_int_eq(game_key(g, '>'), 1); /* off the stairs: travel */
    ck_assert(game_monster_in_view(g));
    ck_assert(game_lit(g, g->monsters[k].x, g->monsters[k].y));
    ck_assert(g->player.x != 38 || g->player.y != 3);
    ck_assert_int_eq(game_key(g, '_'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You cannot travel with a monster in view.");
    game_free(g);
}
END_TEST

START_TEST(autoexplore_explores_and_stops_on_sight)
{
    /* A real level: `o` until a monster is in view or all is seen. */
    game_t *g = game_new(7, NULL);
    int keys = 0, turns_before;
    while (keys < 200 && !game_monster_in_view(g)) {
        turns_before = (int)g->turn;
        int took = game_key(g, 'o');
        keys++;
        if (!took) {
            ck_assert_str_eq(game_msg(g, 0)->text,
                             "There is nothing left to explore here.");
            break;
        }
        ck_assert_int_gt((int)g->turn, turns_before);
        /* Each stop: a monster in view, or an item underfoot, or done. */
        int item = item_find(g, ITEM_THING, g->player.x, g->player.y) != NULL;
        ck_assert(game_monster_in_view(g) || item || g->turn - turns_before ==
                  GAME_RUN_MAX || game_key(g, 'o') >= 0);
    }
    ck_assert(game_monster_in_view(g));
    ck_assert_int_eq(game_key(g, 'o'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You cannot explore with a monster in view.");
    game_free(g);
}
END_TEST

START_TEST(stacks_and_stable_letters)
{
    game_t *g = walled();
    item_put(g, ITEM_THING, IK_HEALTH_POTION, 10, 8, 0);
    ck_assert_int_eq(game_key(g, 'g'), 1);
    item_put(g, ITEM_THING, IK_DAGGER, 10, 8, 0);
    ck_assert_int_eq(game_key(g, 'g'), 1);
    item_put(g, ITEM_THING, IK_FIREBALL, 10, 8, 0);
    ck_assert_int_eq(game_key(g, 'g'), 1);
    item_put(g, ITEM_THING, IK_HEALTH_POTION, 10, 8, 0);
    ck_assert_int_eq(game_key(g, 'g'), 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You pick up a golden potion (a, 2 now).");
    ck_assert_int_eq(g->pack_count, 3);
    ck_assert_int_eq(g->pack_n[0], 2);
    /* Dropping the dagger (b) leaves c where it was. */
    game_key(g, 'd');
    ck_assert_int_eq(game_key(g, 'b'), 1);
    ck_assert_int_eq(g->pack[2], IK_FIREBALL);
    ck_assert_int_eq(g->pack_n[1], 0);
    /* Drinking one potion keeps the other at a. */
    g->player.hp = 10;
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a'), 1);
    ck_assert_int_eq(g->pack_n[0], 1);
    screen_t s;
    screen_init(&s, 80, 24);
    game_key(g, 'i');
    view_draw(g, &s);
    /* Drunk, the potion is known by its name; the scroll still shows
     * only its label (seed 1's appearances: know.c). */
    ck_assert(arena_screen_has(&s, "a) ! health potion"));
    ck_assert(arena_screen_has(&s, "c) ? scroll labelled XIXAXA XOXAXA"));
    ck_assert(!arena_screen_has(&s, "b) "));
    /* An empty letter is refused. */
    ck_assert_int_eq(game_key(g, 'b'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You have no item 'b'.");
    /* The next thing fills the hole at b. */
    game_key(g, KEY_ESC);
    game_key(g, 'l');
    item_put(g, ITEM_THING, IK_CONFUSION, g->player.x, g->player.y, 0);
    game_key(g, 'g');
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You pick up a scroll labelled NR 9 (b).");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* Row y of s as text, trailing blanks dropped. */
static void row_text(const screen_t *s, int y, char *out, size_t n)
{
    size_t w = strlen(arena_row(s, y, out, n));
    while (w > 0 && out[w - 1] == ' ')
        out[--w] = '\0';
}

/* At 40x20 what Look tells is wrapped at spaces onto the rows above the
 * status row, not cut at the edge (it was: "Look: a troll (unhurt): big,
 * hits hard: rare near th"). */
START_TEST(look_wraps_at_40_columns)
{
    game_t *g = walled();
    game_place_monster(g, MON_TROLL, 13, 8);
    screen_t s;
    screen_init(&s, 40, 20);
    ck_assert_int_eq(game_key(g, ';'), 0);
    ck_assert_int_eq(g->target.x, 13);
    view_draw(g, &s);
    char r[3][64];
    for (int i = 0; i < 3; i++)
        row_text(&s, 17 + i, r[i], sizeof r[i]);
    ck_assert(!strstr(r[0], "Look"));
    ck_assert_str_eq(r[1], "Look: a troll (unhurt): big, hits hard:");
    ck_assert_str_eq(r[2], "rare near the top");
    /* a short one takes the status row alone */
    game_key(g, 'h');
    view_draw(g, &s);
    row_text(&s, 19, r[2], sizeof r[2]);
    ck_assert_str_eq(r[2], "Look: the floor");
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(look_describes_tiles)
{
    game_t *g = walled();
    int t = game_place_monster(g, MON_TROLL, 13, 8);
    g->monsters[t].hp = 4;
    item_put(g, ITEM_THING, IK_SWORD, 10, 10, 0);
    screen_t s;
    screen_init(&s, 80, 24);
    ck_assert_int_eq(game_key(g, ';'), 0);
    ck_assert_int_eq(g->mode, MODE_LOOK);
    ck_assert_int_eq(g->target.x, 13); /* on the nearest monster */
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s,
        "Look: a troll (badly hurt): big, hits hard: rare near the top"));
    ck_assert(screen_cat(&s, 13, 8)->attr & ATTR_REVERSE);
    game_key(g, 'h');
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "Look: the floor"));
    /* Enter logs it and ends; never a turn. */
    game_key(g, 'h');
    game_key(g, 'h');
    game_key(g, 'j');
    game_key(g, 'j');
    ck_assert_int_eq(game_key(g, KEY_ENTER), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You see a long sword.");
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_int_eq(g->turn, 0);
    char buf[80];
    ck_assert_str_eq(game_describe(g, 10, 8, buf, sizeof buf), "yourself");
    tile_bit_put(g->map.explored[3], 25, 1); /* remembered, out of view */
    ck_assert_str_eq(game_describe(g, 25, 3, buf, sizeof buf), "a wall");
    ck_assert_str_eq(game_describe(g, 60, 3, buf, sizeof buf),
                     "nothing you know of");
    /* x looks too; Esc ends without a line. */
    int lines = g->log_count;
    ck_assert_int_eq(game_key(g, 'x'), 0);
    ck_assert_int_eq(g->mode, MODE_LOOK);
    ck_assert_int_eq(game_key(g, KEY_ESC), 0);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_int_eq(g->log_count, lines);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* A thing lying on the stairs hides them on the map: Look's line names
 * them after it; the log's "You see" keeps its words (its change waits
 * for the next game version: docs/game.md); a monster on them is the
 * monster, as game_describe says. */
START_TEST(look_names_the_stairs_under_a_thing)
{
    game_t *g = walled();
    g->map.tile[10][12] = TILE_STAIRS;
    item_put(g, ITEM_CORPSE, MON_GOBLIN, 12, 10, 0);
    g->map.tile[10][8] = TILE_STAIRS;
    game_update_fov(g);
    screen_t s;
    screen_init(&s, 80, 24);
    ck_assert_int_eq(game_key(g, 'x'), 0);
    g->target.x = 12;
    g->target.y = 10;
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s,
                               "Look: a goblin corpse, on the stairs down"));
    ck_assert_int_eq(game_key(g, KEY_ENTER), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You see a goblin corpse.");
    /* bare stairs: named as they are, once */
    ck_assert_str_eq(game_describe_beneath(g, 8, 10), "");
    ck_assert_int_eq(game_key(g, 'x'), 0);
    g->target.x = 8;
    g->target.y = 10;
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "Look: the stairs down"));
    ck_assert(!arena_screen_has(&s, "down, on the stairs"));
    game_key(g, KEY_ESC);
    /* a monster on the corpse and the stairs: the monster */
    game_place_monster(g, MON_RAT, 12, 10);
    game_update_fov(g);
    ck_assert_str_eq(game_describe_beneath(g, 12, 10), "");
    /* the player on them: yourself, on the corpse, on the stairs */
    g->player.x = 12;
    g->player.y = 9;
    g->map.tile[9][12] = TILE_STAIRS;
    item_put(g, ITEM_GOLD, 0, 12, 9, 5);
    game_update_fov(g);
    ck_assert_str_eq(game_describe_beneath(g, 12, 9), ", on the stairs down");
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(help_has_a_monster_legend)
{
    game_t *g = walled();
    screen_t s;
    screen_init(&s, 80, 24);
    ck_assert_int_eq(game_key(g, '?'), 0);
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "Run           Shift + a vi-key (HJKLYUBN)"));
    ck_assert_int_eq(game_key(g, '?'), 0);
    ck_assert_int_eq(g->mode, MODE_HELP);
    view_draw(g, &s);
    for (int k = 0; k < MON_COUNT; k++)
        ck_assert_msg(arena_screen_has(&s, monster_stats(k)->name), "%d", k);
    /* From the top of the dungeon down, as its title says. */
    for (int a = 0; a < MON_COUNT; a++)
        for (int b = 0; b < MON_COUNT; b++) {
            char na[40], nb[40]; /* the name and its depth: one kind each */
            snprintf(na, sizeof na, "%-12s from depth %-2d",
                     monster_stats(a)->name, monster_stats(a)->min_depth);
            snprintf(nb, sizeof nb, "%-12s from depth %-2d",
                     monster_stats(b)->name, monster_stats(b)->min_depth);
            if (monster_stats(a)->min_depth < monster_stats(b)->min_depth)
                ck_assert_msg(arena_screen_row(&s, na) <
                                  arena_screen_row(&s, nb),
                              "%s below %s", na, nb);
        }
    ck_assert(arena_screen_has(&s, "giant spider from depth 4  its bite poisons"));
    /* The rule of this game's ruleset (the default, attack-defense), not
     * dice-pool's rolls. */
    ck_assert(arena_screen_has(&s, "Every blow hits, for attack - defense"));
    ck_assert(!arena_screen_has(&s, "damage = hits - blocks"));
    ck_assert_int_eq(game_key(g, ' '), 0);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    /* Any other key on page 1 returns at once. */
    game_key(g, '?');
    game_key(g, ' ');
    ck_assert_int_eq(g->mode, MODE_PLAY);
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(redraw_keys_are_ignored)
{
    game_t *g = walled();
    int lines = g->log_count;
    ck_assert_int_eq(game_key(g, KEY_CTRL_R), 0);
    ck_assert_int_eq(game_key(g, KEY_CTRL_L), 0);
    ck_assert_int_eq(g->turn, 0);
    ck_assert_int_eq(g->log_count, lines);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    /* Not even a help page or a menu is left by them. */
    game_key(g, '?');
    game_key(g, KEY_CTRL_L);
    ck_assert_int_eq(g->mode, MODE_HELP);
    game_free(g);
}
END_TEST

/* A click (or tap) on a tile outside aiming: travel there over known
 * tiles, one turn a step; next to the player one step; nothing on the
 * player's own tile; refused on a tile with no known way, and with a
 * monster in view unless it is a single step. */
START_TEST(click_travels_to_a_known_tile)
{
    game_t *g = walled();
    for (int y = 0; y <= 16; y++)
        for (int x = 0; x <= 41; x++)
            tile_bit_put(g->map.explored[y], x, 1);
    /* beyond the wall, by the gap at (25, 8): 25 steps */
    ck_assert_int_eq(game_key(g, game_click_key(35, 12)), 1);
    ck_assert_int_eq(g->player.x, 35);
    ck_assert_int_eq(g->player.y, 12);
    ck_assert_int_eq(g->turn, 25);
    /* the player's own tile: nothing */
    ck_assert_int_eq(game_key(g, game_click_key(35, 12)), 0);
    ck_assert_int_eq(g->turn, 25);
    /* next to the player: one step */
    ck_assert_int_eq(game_key(g, game_click_key(36, 13)), 1);
    ck_assert_int_eq(g->player.x, 36);
    ck_assert_int_eq(g->player.y, 13);
    ck_assert_int_eq(g->turn, 26);
    /* a wall, and a floor tile never seen: no way, no turn */
    ck_assert_int_eq(game_key(g, game_click_key(25, 3)), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You know no way there.");
    tile_bit_put(g->map.explored[2], 30, 0);
    ck_assert_int_eq(game_key(g, game_click_key(30, 2)), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You know no way there. (x2)");
    ck_assert_int_eq(g->turn, 26);
    /* a rat in view: travel refused, a single step still made */
    game_place_monster(g, MON_RAT, 38, 11);
    game_update_fov(g);
    ck_assert(game_monster_in_view(g));
    ck_assert_int_eq(game_key(g, game_click_key(30, 13)), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You cannot travel with a monster in view.");
    ck_assert_int_eq(g->turn, 26);
    ck_assert_int_eq(game_key(g, game_click_key(35, 13)), 1);
    ck_assert_int_eq(g->player.x, 35);
    ck_assert_int_eq(g->turn, 27);
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("comforts");
    TCase *tc = tcase_create("comforts");
    tcase_add_test(tc, running_stops_at_walls_and_on_sight);
    tcase_add_test(tc, running_stops_on_items);
    tcase_add_test(tc, travel_to_the_stairs);
    tcase_add_test(tc, travel_stops_when_a_monster_comes_into_view);
    tcase_add_test(tc, click_travels_to_a_known_tile);
    tcase_add_test(tc, autoexplore_explores_and_stops_on_sight);
    tcase_add_test(tc, stacks_and_stable_letters);
    tcase_add_test(tc, look_describes_tiles);
    tcase_add_test(tc, look_names_the_stairs_under_a_thing);
    tcase_add_test(tc, look_wraps_at_40_columns);
    tcase_add_test(tc, help_has_a_monster_legend);
    tcase_add_test(tc, redraw_keys_are_ignored);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
