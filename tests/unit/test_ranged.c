/* test_ranged.c - ranged play and ways out (docs/game.md, "Throwing and
 * wands", "Monsters"): `t` throws darts, daggers and spears with the
 * aiming cursor, a blow of the ruleset in force; a wand of sleep puts a
 * monster out of the fight for a charge; a fleeing monster turns back after
 * a few turns and does not heal while it runs. Exact values on fixed
 * seeds; aiming a fireball shows the blast it would make. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "combat.h"
#include "game.h"
#include "keys.h"
#include "view.h"

/* An open 40x15 room (x 1..40, y 1..15), the player at (10, 8), nothing
 * else, every kind known. */
static game_t *room(int ruleset)
{
    game_options_t o = { .ruleset = ruleset };
    game_t *g = arena_room(1, &o);
    for (int k = 0; k < IK_COUNT; k++)
        item_learn(g, k);
    game_update_fov(g);
    return g;
}

static int log_has(const game_t *g, const char *text)
{
    for (int i = 0; game_msg(g, i); i++)
        if (strstr(game_msg(g, i)->text, text))
            return 1;
    return 0;
}

static int things_at(game_t *g, int kind, int x, int y)
{
    int n = 0;
    for (int i = 0; i < MAX_ITEMS; i++)
        if (g->items[i].type == ITEM_THING && g->items[i].kind == kind &&
            g->items[i].x == x && g->items[i].y == y)
            n++;
    return n;
}

START_TEST(throwing_a_dart_under_each_ruleset)
{
    /* The same throw at an orc 4 tiles east, under every ruleset: the
     * damage is each ruleset's blow with the dart as the weapon. */
    static const int want_hp[RULES_COUNT] = { 46, 44, 47, 46 };
    for (int r = 0; r < RULES_COUNT; r++) {
        game_t *g = room(r);
        int m = game_place_monster(g, MON_ORC, 14, 8);
        g->monsters[m].hp = 50;
        item_pack_add(g, IK_DART);
        item_pack_add(g, IK_DART);
        ck_assert_int_eq(game_key(g, 't'), 0);
        ck_assert_int_eq(g->mode, MODE_THROW);
        ck_assert_int_eq(game_key(g, 'a'), 0);
        ck_assert_int_eq(g->mode, MODE_TARGET);
        ck_assert_int_eq(g->target.x, 14); /* on the orc */
        ck_assert_int_eq(game_key(g, KEY_ENTER), 1);
        ck_assert_int_eq(g->turn, 1);
        ck_assert(log_has(g, "You throw the dart."));
        ck_assert_int_eq(g->pack_n[0], 1);
        ck_assert_int_eq(things_at(g, IK_DART, 14, 8), 1);
        ck_assert_int_eq(g->monsters[m].hp, want_hp[r]);
        game_free(g);
    }
}
END_TEST

/* Aiming a fireball: the blast around the cursor (on the nearest
 * monster) has a red ground, the player's tile in it too, and what is in
 * it stays seen: a red orc is drawn bright white, not red on red. */
START_TEST(aiming_a_fireball_shows_its_blast)
{
    game_t *g = room(0);
    int m = game_place_monster(g, MON_ORC, 12, 8);
    ck_assert_int_ge(m, 0);
    item_pack_add(g, IK_FIREBALL);
    ck_assert_int_eq(game_key(g, 'i'), 0);
    ck_assert_int_eq(game_key(g, 'a'), 0);
    ck_assert_int_eq(g->mode, MODE_TARGET);
    ck_assert_int_eq(g->target.x, 12); /* on the orc */
    int r = item_stats(IK_FIREBALL)->radius;
    ck_assert_int_eq(r, 3);
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 80, 24), 0);
    display_t d = { GLYPHS_ASCII, COLOURS_16 };
    view_draw_display(g, &d, &s);
    const cell_t *orc = screen_cat(&s, 12, 8), *me = screen_cat(&s, 10, 8);
    ck_assert_uint_eq(orc->ch, 'o');
    ck_assert_int_eq(orc->bg, COL_RED);
    ck_assert_int_eq(orc->fg, COL_BWHITE);
    ck_assert_uint_eq(me->ch, '@');
    ck_assert_int_eq(me->bg, COL_RED);
    ck_assert_int_ne(me->fg, COL_RED);
    ck_assert_int_eq(screen_cat(&s, 15, 8)->bg, COL_RED); /* 3 away */
    ck_assert_int_ne(screen_cat(&s, 16, 8)->bg, COL_RED); /* 4 away */
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(throws_stop_at_the_first_monster_and_at_walls)
{
    game_t *g = room(RULES_POWER);
    int near = game_place_monster(g, MON_RAT, 12, 8);
    int far = game_place_monster(g, MON_ORC, 15, 8);
    g->monsters[far].hp = 50;
    item_pack_add(g, IK_SPEAR);
    game_key(g, 't');
    game_key(g, 'a');
    g->target.x = 15;
    g->target.y = 8;
    ck_assert_int_eq(game_key(g, '.'), 1);
    /* The rat was in the way: power 5 + the spear's 2 kill it (3 hp). */
    ck_assert_int_eq(g->monsters[near].alive, 0);
    ck_assert_int_eq(g->monsters[far].hp, 50);
    ck_assert_int_eq(things_at(g, IK_SPEAR, 12, 8), 1);
    ck_assert_int_eq(g->pack_count, 0);
    game_free(g);

    /* Into a wall: it lies on the last floor tile. */
    g = room(RULES_POWER);
    g->map.tile[8][13] = TILE_WALL;
    game_update_fov(g);
    item_pack_add(g, IK_DAGGER);
    game_key(g, 't');
    game_key(g, 'a');
    g->target.x = 12;
    g->target.y = 8;
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert_int_eq(things_at(g, IK_DAGGER, 12, 8), 1);
    game_free(g);

    /* Out of range: refused, aiming goes on; Esc keeps it. */
    g = room(RULES_POWER);
    item_pack_add(g, IK_DART);
    game_key(g, 't');
    game_key(g, 'a');
    g->target.x = 17; /* 7 > the dart's 6 */
    g->target.y = 8;
    ck_assert_int_eq(game_key(g, '.'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "That is out of range.");
    ck_assert_int_eq(game_key(g, KEY_ESC), 0);
    ck_assert_int_eq(g->pack_n[0], 1);
    /* What cannot be thrown is refused; nothing to throw at all too. */
    item_pack_add(g, IK_HEALTH_POTION);
    game_key(g, 't');
    ck_assert_int_eq(game_key(g, 'b'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You cannot throw that.");
    game_free(g);
    g = room(RULES_POWER);
    ck_assert_int_eq(game_key(g, 't'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You have nothing to throw.");
    game_free(g);
}
END_TEST

START_TEST(a_wand_of_sleep_and_its_charges)
{
    game_t *g = room(RULES_ATTACK_DEFENSE);
    int m = game_place_monster(g, MON_TROLL, 13, 8);
    item_put(g, ITEM_THING, IK_WAND_SLEEP, 10, 8, 2);
    ck_assert_int_eq(game_key(g, 'g'), 1);
    ck_assert(log_has(g, "You pick up a wand of sleep (a, 2 charges)."));
    int hp = g->player.hp;
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a'), 0);
    ck_assert_int_eq(g->mode, MODE_TARGET);
    ck_assert_int_eq(game_key(g, KEY_ENTER), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "The troll falls asleep.");
    ck_assert_int_eq(g->monsters[m].asleep, 7);
    ck_assert_int_eq(g->pack_n[0], 1);
    /* Asleep, it does not act: waiting next to it costs nothing. */
    hp = g->player.hp;
    for (int i = 0; i < 3; i++)
        game_key(g, '.');
    ck_assert_int_eq(g->player.hp, hp);
    ck_assert_int_eq(g->monsters[m].asleep, 4);
    /* Hurt, it wakes. */
    ck_assert_int_eq(g->monsters[m].x, 12);
    game_key(g, 'l');
    ck_assert_int_eq(g->monsters[m].asleep, 3);
    game_key(g, 'l');
    ck_assert_int_eq(g->monsters[m].asleep, 0);
    ck_assert_int_lt(g->monsters[m].hp, monster_stats(MON_TROLL)->hp);
    /* The last charge takes the wand. */
    game_key(g, 'i');
    game_key(g, 'a');
    ck_assert_int_eq(game_key(g, KEY_ENTER), 1);
    ck_assert(log_has(g, "Your wand of sleep crumbles to dust."));
    ck_assert_int_eq(g->pack_count, 0);
    game_free(g);
}
END_TEST

START_TEST(a_fleeing_monster_turns_back_and_does_not_heal)
{
    game_t *g = room(RULES_POWER);
    for (int y = 1; y <= 15; y++) /* the room ends at x = 16: in view */
        for (int x = 17; x <= 40; x++)
            g->map.tile[y][x] = TILE_WALL;
    game_update_fov(g);
    int m = game_place_monster(g, MON_ORC, 14, 8);
    g->monsters[m].hp = 2; /* below 30% of 10: it flees */
    int turns_fled = 0;
    for (int i = 0; i < 40 && g->monsters[m].fled < MONSTER_FLEE_TURNS; i++) {
        game_key(g, '.');
        turns_fled++;
    }
    ck_assert_int_eq(g->monsters[m].fled, MONSTER_FLEE_TURNS);
    ck_assert_int_eq(turns_fled, MONSTER_FLEE_TURNS);
    ck_assert_int_eq(g->monsters[m].hp, 2);
    /* Then it comes back, straight at the player: next to it 5 turns
     * later (from the room's east wall, 16, to 11). */
    int back = 0, turns_back = 0;
    for (int i = 0; i < 20 && !back; i++, turns_back++) {
        game_key(g, '.');
        int dx = g->monsters[m].x - g->player.x;
        int dy = g->monsters[m].y - g->player.y;
        back = dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1;
    }
    ck_assert(back);
    ck_assert_int_eq(turns_back, 5);
    ck_assert_int_eq(g->monsters[m].x, 11);
    game_free(g);
}
END_TEST

START_TEST(the_axe_cleaves_and_heavy_armour_rests_slowly)
{
    /* Three orcs round the player: a bump with the battle axe strikes all
     * three (power: 5 + the axe's 3 each), with the long sword (as
     * strong a blow) only the one bumped. */
    game_t *g = room(RULES_POWER);
    int a = game_place_monster(g, MON_ORC, 11, 8);
    int b = game_place_monster(g, MON_ORC, 9, 8);
    int c = game_place_monster(g, MON_ORC, 10, 9);
    for (int i = 0; i < MAX_MONSTERS; i++)
        if (g->monsters[i].alive)
            g->monsters[i].hp = 50;
    g->player.weapon = item_pack_add(g, IK_AXE);
    game_key(g, 'l');
    ck_assert_int_eq(g->monsters[a].hp, 42);
    ck_assert_int_eq(g->monsters[b].hp, 42);
    ck_assert_int_eq(g->monsters[c].hp, 42);
    game_free(g);
    g = room(RULES_POWER);
    a = game_place_monster(g, MON_ORC, 11, 8);
    b = game_place_monster(g, MON_ORC, 9, 8);
    g->monsters[a].hp = g->monsters[b].hp = 50;
    g->player.weapon = item_pack_add(g, IK_SWORD);
    game_key(g, 'l');
    ck_assert_int_eq(g->monsters[a].hp, 42);
    ck_assert_int_eq(g->monsters[b].hp, 50);
    game_free(g);

    /* Resting in plate mail heals on even turns only: 10 HP take 19
     * turns from turn 10 (heals on 10, 12, ..., 28), against 10 without
     * it. */
    g = room(RULES_POWER);
    g->player.hp = 20;
    ck_assert_int_eq(game_key(g, 'R'), 1);
    ck_assert_int_eq(g->turn, 10);
    g->player.armor = item_pack_add(g, IK_PLATE_MAIL);
    g->player.hp = 20;
    ck_assert_int_eq(game_key(g, 'R'), 1);
    ck_assert_int_eq(g->turn, 10 + 19);
    ck_assert_int_eq(g->player.hp, 30);
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ranged");
    TCase *tc = tcase_create("ranged");
    tcase_add_test(tc, throwing_a_dart_under_each_ruleset);
    tcase_add_test(tc, aiming_a_fireball_shows_its_blast);
    tcase_add_test(tc, throws_stop_at_the_first_monster_and_at_walls);
    tcase_add_test(tc, a_wand_of_sleep_and_its_charges);
    tcase_add_test(tc, a_fleeing_monster_turns_back_and_does_not_heal);
    tcase_add_test(tc, the_axe_cleaves_and_heavy_armour_rests_slowly);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
