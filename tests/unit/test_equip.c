/* test_equip.c - equipment with trade-offs (docs/game.md, "Equipment",
 * "Enchanted and cursed equipment"): the quick dagger, the reaching spear,
 * the war hammer that swings wide, plate mail that slows steps, and pieces
 * whose enchantment is unknown until worn or identified, the cursed ones
 * staying on. Exact values in an arena room on fixed seeds. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "combat.h"
#include "dump.h"
#include "game.h"
#include "keys.h"
#include "view.h"

/* The arena under ruleset r, every kind known, the player's HP out of
 * reach of a few blows (1000), nothing in view. */
static game_t *room(int r)
{
    game_options_t o = { .ruleset = r };
    game_t *g = arena_room(1, &o);
    for (int k = 0; k < IK_COUNT; k++)
        item_learn(g, k);
    g->player.hp = g->player.max_hp = 1000;
    return g;
}

/* A monster of kind k at (x, y) with hp 200 (more than its row's: it
 * never flees). */
static int tough(game_t *g, int kind, int x, int y)
{
    int m = game_place_monster(g, kind, x, y);
    ck_assert_int_ge(m, 0);
    g->monsters[m].hp = 200;
    return m;
}

/* Wields a new piece of `kind`, enchanted `ench`, known. */
static int wield(game_t *g, int kind, int ench)
{
    int slot = item_pack_add(g, kind);
    g->pack_ench[slot] = (int8_t)ench;
    g->pack_flags[slot] = ITEM_F_KNOWN;
    if (item_stats(kind)->effect == EFFECT_WIELD)
        g->player.weapon = slot;
    else
        g->player.armor = slot;
    return slot;
}

/* Lines of blows the orc made on the player (every ruleset's start with
 * "The orc" and name "you"; a critical hit's with "Critical hit! The orc"). */
static int orc_blows(const game_t *g)
{
    int n = 0;
    for (int i = 0; game_msg(g, i); i++) {
        const char *t = game_msg(g, i)->text;
        if (strstr(t, "The orc ") && strstr(t, " you"))
            n++;
    }
    return n;
}

START_TEST(the_dagger_is_quick_under_every_ruleset)
{
    /* Four bumps at an orc: with the dagger the orc has two phases (every
     * second bump is free), with the long sword four; the turn counts all
     * four either way. */
    for (int r = 0; r < RULES_COUNT; r++) {
        game_t *g = room(r);
        tough(g, MON_ORC, 11, 8);
        wield(g, IK_DAGGER, 0);
        for (int i = 0; i < 4; i++)
            ck_assert_int_eq(game_key(g, 'l'), 1);
        ck_assert_int_eq(g->turn, 4);
        ck_assert_int_eq(g->player.quick, 4);
        ck_assert_msg(orc_blows(g) == 2, "ruleset %d: %d orc blows", r,
                      orc_blows(g));
        game_free(g);
        g = room(r);
        tough(g, MON_ORC, 11, 8);
        wield(g, IK_SWORD, 0);
        for (int i = 0; i < 4; i++)
            game_key(g, 'l');
        ck_assert_int_eq(orc_blows(g), 4);
        game_free(g);
    }
    /* Power: the dagger adds no power, the bare 5 a blow. */
    game_t *g = room(RULES_POWER);
    int m = tough(g, MON_ORC, 11, 8);
    wield(g, IK_DAGGER, 0);
    game_key(g, 'l');
    game_key(g, 'l');
    ck_assert_int_eq(g->monsters[m].hp, 190);
    game_free(g);
}
END_TEST

START_TEST(the_spear_reaches_two_tiles_in_a_line)
{
    /* An orc two tiles east: `l` with the spear strikes it from where the
     * player stands (power: 5 + the spear's 2); diagonally too. */
    game_t *g = room(RULES_POWER);
    int m = tough(g, MON_ORC, 12, 8);
    wield(g, IK_SPEAR, 0);
    ck_assert_int_eq(game_key(g, 'l'), 1);
    ck_assert_int_eq(g->player.x, 10);
    ck_assert_int_eq(g->monsters[m].hp, 193);
    ck_assert_int_eq(g->monsters[m].x, 11); /* it closed in after */
    ck_assert_int_eq(arena_log_count(g, "You hit the orc for 7. (Orc: 193 hp)"), 1);
    memset(g->monsters, 0, sizeof g->monsters);
    m = tough(g, MON_ORC, 12, 10);
    g->monsters[m].asleep = 9; /* it stays two tiles off */
    game_update_fov(g);
    ck_assert_int_eq(game_key(g, 'n'), 1);
    ck_assert_int_eq(g->player.x, 10);
    ck_assert_int_eq(g->monsters[m].hp, 193);
    /* Not in a straight line: a step. */
    ck_assert_int_eq(game_key(g, 'l'), 1);
    ck_assert_int_eq(g->player.x, 11);
    game_free(g);

    /* A wall between: no blow through it; without the spear: a step. */
    g = room(RULES_POWER);
    m = tough(g, MON_ORC, 12, 8);
    g->monsters[m].asleep = 9;
    wield(g, IK_SPEAR, 0);
    g->map.tile[8][11] = TILE_WALL;
    game_update_fov(g);
    ck_assert_int_eq(game_key(g, 'l'), 0);
    ck_assert_int_eq(g->monsters[m].hp, 200);
    g->map.tile[8][11] = TILE_FLOOR;
    g->player.weapon = -1;
    game_update_fov(g);
    ck_assert_int_eq(game_key(g, 'l'), 1);
    ck_assert_int_eq(g->player.x, 11);
    ck_assert_int_eq(g->monsters[m].hp, 200);
    game_free(g);

    /* Every ruleset: the reach is a blow of that ruleset. */
    for (int r = 0; r < RULES_COUNT; r++) {
        g = room(r);
        m = tough(g, MON_ORC, 12, 8);
        g->monsters[m].asleep = 9;
        wield(g, IK_SPEAR, 0);
        game_update_fov(g);
        game_key(g, 'l');
        ck_assert_int_eq(g->player.x, 10);
        ck_assert_int_eq(arena_log_count(g, "the orc"), 1);
        game_free(g);
    }
}
END_TEST

START_TEST(the_war_hammer_swings_wide)
{
    /* Twenty bumps under power on seed 1: a quarter of the blows (by one
     * roll each) go wide; each other one does 5 + 7. */
    game_t *g = room(RULES_POWER);
    int m = tough(g, MON_ORC, 11, 8);
    g->monsters[m].hp = 1000;
    wield(g, IK_WAR_HAMMER, 0);
    for (int i = 0; i < 20; i++)
        game_key(g, 'l');
    int wide = arena_log_count(g, "Your war hammer swings wide of the orc.");
    ck_assert_int_eq(wide, 6);
    ck_assert_int_eq(g->monsters[m].hp, 1000 - 12 * (20 - wide));
    game_free(g);
    /* Under every ruleset some of the twenty go wide (seed 1's counts;
     * the ruleset's own rolls come between, so they differ). */
    static const int want[RULES_COUNT] = { 3, 6, 5, 6 };
    for (int r = 0; r < RULES_COUNT; r++) {
        g = room(r);
        m = tough(g, MON_ORC, 11, 8);
        g->monsters[m].hp = 1000;
        wield(g, IK_WAR_HAMMER, 0);
        for (int i = 0; i < 20; i++)
            game_key(g, 'l');
        ck_assert_msg(arena_log_count(g, "swings wide") == want[r],
                      "ruleset %d: %d wide", r, arena_log_count(g, "swings wide"));
        game_free(g);
    }
}
END_TEST

START_TEST(plate_mail_slows_every_second_step)
{
    /* Four steps: four turns bare or in chain mail, six in plate mail. */
    static const struct { int kind, turns; } want[] = {
        { -1, 4 }, { IK_LEATHER, 4 }, { IK_CHAIN_MAIL, 4 },
        { IK_PLATE_MAIL, 6 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        game_t *g = room(RULES_D10);
        if (want[i].kind >= 0)
            wield(g, want[i].kind, 0);
        for (int s = 0; s < 4; s++)
            ck_assert_int_eq(game_key(g, 'l'), 1);
        ck_assert_int_eq(g->player.x, 14);
        ck_assert_int_eq((int)g->turn, want[i].turns);
        game_free(g);
    }
    /* A rat six tiles east closes in while the player walks west: two
     * steps bare, three in plate mail (the extra turn is its step). */
    for (int plate = 0; plate <= 1; plate++) {
        game_t *g = room(RULES_POWER);
        int m = game_place_monster(g, MON_RAT, 16, 8);
        if (plate)
            wield(g, IK_PLATE_MAIL, 0);
        game_update_fov(g);
        game_key(g, 'h');
        game_key(g, 'h');
        ck_assert_int_eq(g->player.x, 8);
        ck_assert_int_eq(g->monsters[m].x, 16 - 2 - plate);
        game_free(g);
    }
}
END_TEST

START_TEST(an_enchantment_is_unknown_until_worn)
{
    game_t *g = room(RULES_POWER);
    item_t *it = item_put(g, ITEM_THING, IK_SWORD, 10, 8, 0);
    it->ench = 2;
    ck_assert_int_eq(game_key(g, 'g'), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You pick up a long sword (a).");
    screen_t s;
    screen_init(&s, 80, 24);
    game_key(g, 'i');
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "a) ) long sword"));
    ck_assert(!arena_screen_has(&s, "+2"));
    game_key(g, KEY_ESC);
    /* The narrow pack list (a 40-column screen) says no more. */
    screen_t narrow;
    screen_init(&narrow, 40, 20);
    game_key(g, 'i');
    view_draw(g, &narrow);
    ck_assert(arena_screen_has(&narrow, "a) ) long sword"));
    ck_assert(!arena_screen_has(&narrow, "+2"));
    ck_assert_int_eq(game_key(g, 'a'), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You wield the +2 long sword.");
    game_key(g, 'i');
    view_draw(g, &narrow);
    ck_assert(arena_screen_has(&narrow, "a) ) +2 long sword (wielded)"));
    game_key(g, KEY_ESC);
    screen_free(&narrow);
    /* Power 5 + 3 + 2, on the screen and in a blow. */
    game_key(g, 'C');
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "Weapon: +2 long sword   Armour: none"));
    ck_assert(arena_screen_has(&s, "Power 10;"));
    game_key(g, KEY_ESC);
    int m = tough(g, MON_ORC, 11, 8);
    game_key(g, 'l');
    ck_assert_int_eq(g->monsters[m].hp, 190);
    /* Dropped, it stays known: the floor says "+2". */
    memset(g->monsters, 0, sizeof g->monsters);
    game_key(g, 'd');
    game_key(g, 'a');
    ck_assert_str_eq(game_msg(g, 0)->text, "You drop the +2 long sword.");
    char buf[80];
    game_key(g, 'l');
    ck_assert_str_eq(game_describe(g, 10, 8, buf, sizeof buf),
                     "a +2 long sword");
    screen_free(&s);
    game_free(g);

    /* Each ruleset takes the enchantment: a +2 and a -2 sword against the
     * plain one, in the character screen's numbers. */
    static const char *want[RULES_COUNT][3] = {
        { "Attack 6,", "Attack 8,", "Attack 10," },
        { "Power 6;", "Power 8;", "Power 10;" },
        { "To-hit +1, damage 1-6;", "To-hit +3, damage 3-8;",
          "To-hit +5, damage 5-10;" },
        { "Attack 5 dice", "Attack 7 dice", "Attack 9 dice" },
    };
    for (int r = 0; r < RULES_COUNT; r++)
        for (int e = -2; e <= 2; e += 2) {
            g = room(r);
            wield(g, IK_SWORD, e);
            screen_init(&s, 80, 24);
            game_key(g, 'C');
            view_draw(g, &s);
            ck_assert_msg(arena_screen_has(&s, want[r][e / 2 + 1]),
                          "ruleset %d, %+d: no '%s'", r, e,
                          want[r][e / 2 + 1]);
            screen_free(&s);
            game_free(g);
        }
}
END_TEST

/* With no armour worn, the character screen names the burlap sack only
 * under d10, the one ruleset whose bare player wears one. */
START_TEST(no_armour_is_named_as_the_ruleset_has_it)
{
    static const char *const want[RULES_COUNT] = {
        [RULES_ATTACK_DEFENSE] = "Armour: none",
        [RULES_POWER] = "Armour: none",
        [RULES_D10] = "Armour: none (burlap sack)",
        [RULES_DICE_POOL] = "Armour: none",
    };
    for (int r = 0; r < RULES_COUNT; r++) {
        game_t *g = room(r);
        screen_t s;
        screen_init(&s, 80, 24);
        ck_assert_int_eq(game_key(g, 'C'), 0);
        view_draw(g, &s);
        ck_assert_msg(arena_screen_has(&s, want[r]), "ruleset %d", r);
        ck_assert_msg(arena_screen_has(&s, "burlap") == (r == RULES_D10),
                      "ruleset %d", r);
        ck_assert_str_eq(item_no_armour_name(g), want[r] + 8);
        screen_free(&s);
        game_free(g);
    }
}
END_TEST

START_TEST(a_cursed_piece_stays_on_until_identified)
{
    game_t *g = room(RULES_POWER);
    int a = item_pack_add(g, IK_CHAIN_MAIL);
    g->pack_ench[a] = -1;
    int b = item_pack_add(g, IK_IDENTIFY);
    int c = item_pack_add(g, IK_LEATHER);
    ck_assert_int_eq(game_key(g, 'i'), 0);
    ck_assert_int_eq(game_key(g, 'a' + a), 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You put on the -1 chain mail. It is cursed!");
    /* It cannot come off, be dropped or be swapped for other armour. */
    uint32_t turn = g->turn;
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a' + a), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "The -1 chain mail is cursed: you cannot let go of it.");
    game_key(g, 'd');
    ck_assert_int_eq(game_key(g, 'a' + a), 0);
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a' + c), 0);
    ck_assert_int_eq(g->player.armor, a);
    ck_assert_int_eq(g->turn, turn);
    /* Its minus counts: the troll's 5 less (2 - 1) plus one (game
     * version 8). */
    game_place_monster(g, MON_TROLL, 11, 8);
    g->player.hp = 30;
    game_key(g, '.');
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "The troll hits you for 3. (You: 27 hp)");
    memset(g->monsters, 0, sizeof g->monsters);
    /* A scroll of identify lifts the curse; then it comes off. */
    game_key(g, 'i');
    game_key(g, 'a' + b);
    ck_assert_int_eq(g->mode, MODE_IDENTIFY);
    ck_assert_int_eq(game_key(g, 'a' + a), 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "a) the curse on the -1 chain mail is lifted.");
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a' + a), 1);
    ck_assert_int_eq(g->player.armor, -1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You take off the -1 chain mail.");
    game_free(g);

    /* A cursed weapon cannot be thrown away either. */
    g = room(RULES_POWER);
    int d = wield(g, IK_DAGGER, -2);
    g->pack_flags[d] = ITEM_F_KNOWN;
    tough(g, MON_ORC, 14, 8);
    game_update_fov(g);
    game_key(g, 't');
    game_key(g, 'a' + d);
    ck_assert_int_eq(game_key(g, KEY_ENTER), 0);
    ck_assert_int_eq(g->pack_n[d], 1);
    ck_assert_int_eq(arena_log_count(g, "The -2 dagger is cursed"), 1);
    game_free(g);
}
END_TEST

START_TEST(identify_tells_an_enchantment_unworn)
{
    game_t *g = room(RULES_POWER);
    int a = item_pack_add(g, IK_DAGGER);
    g->pack_ench[a] = 1;
    int b = item_pack_add(g, IK_IDENTIFY);
    int c = item_pack_add(g, IK_SPEAR);
    game_key(g, 'i');
    game_key(g, 'a' + b);
    ck_assert_int_eq(g->mode, MODE_IDENTIFY);
    ck_assert_int_eq(game_key(g, 'a' + a), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "a) the dagger is a +1 dagger.");
    ck_assert_int_eq(g->player.weapon, -1);
    /* Known and not cursed: nothing more to tell. */
    item_pack_add(g, IK_IDENTIFY);
    game_key(g, 'i');
    game_key(g, 'a' + b);
    ck_assert_int_eq(game_key(g, 'a' + a), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You know that one already.");
    /* An unworn cursed one: named and freed at once. */
    g->pack_ench[c] = -2;
    ck_assert_int_eq(game_key(g, 'a' + c), 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "c) the spear is a -2 spear; its curse is lifted.");
    game_key(g, 'i');
    game_key(g, 'a' + c);
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a' + c), 1);
    ck_assert_int_eq(g->player.weapon, -1);
    game_free(g);
}
END_TEST

START_TEST(the_dump_shows_enchantments)
{
    game_t *g = room(RULES_POWER);
    int a = wield(g, IK_SWORD, 2);
    int b = item_pack_add(g, IK_PLATE_MAIL);
    g->pack_ench[b] = -1;
    g->pack_flags[a] = ITEM_F_KNOWN;
    size_t n = game_dump(g, NULL, NULL, 0);
    char *d = malloc(n + 1);
    ck_assert_ptr_nonnull(d);
    game_dump(g, NULL, d, n + 1);
    ck_assert_ptr_nonnull(strstr(d, "Weapon: +2 long sword\n"));
    ck_assert_ptr_nonnull(strstr(d, "  a) +2 long sword (wielded)\n"));
    ck_assert_ptr_nonnull(strstr(d, "  b) -1 plate mail (cursed)\n"
                                    "       (enchantment unknown to you)\n"));
    free(d);
    game_free(g);
}
END_TEST

START_TEST(new_pieces_are_enchanted_by_the_rules_stream)
{
    /* The roll: -2..+2, a quarter cursed and a quarter enchanted; 1,200
     * draws of seed 1's stream. */
    rng_t r;
    rng_seed(&r, 1);
    int count[5] = { 0 };
    for (int i = 0; i < 1200; i++) {
        int e = item_roll_enchant(&r);
        ck_assert_int_ge(e, -2);
        ck_assert_int_le(e, 2);
        count[e + 2]++;
    }
    ck_assert_int_eq(count[0], 100);
    ck_assert_int_eq(count[1], 181);
    ck_assert_int_eq(count[2], 594);
    ck_assert_int_eq(count[3], 220);
    ck_assert_int_eq(count[4], 105);
    /* Spawned at depth 7 in the arena's one room, seeds 1-60: every piece
     * of equipment carries a roll, unknown; the rest carry none. */
    int pieces = 0, sum = 0, cursed = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        game_t *g = arena_room(seed, NULL);
        g->depth = 7;
        item_spawn_level(g);
        for (int i = 0; i < MAX_ITEMS; i++) {
            const item_t *it = &g->items[i];
            if (it->type != ITEM_THING)
                continue;
            ck_assert_int_eq(it->flags, 0);
            if (!item_is_equipment(it->kind)) {
                ck_assert_int_eq(it->ench, 0);
                continue;
            }
            pieces++;
            sum += it->ench;
            cursed += it->ench < 0;
        }
        game_free(g);
    }
    ck_assert_int_eq(pieces, 16);
    ck_assert_int_eq(sum, -1);
    ck_assert_int_eq(cursed, 4);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("equip");
    TCase *tc = tcase_create("equip");
    tcase_add_test(tc, the_dagger_is_quick_under_every_ruleset);
    tcase_add_test(tc, the_spear_reaches_two_tiles_in_a_line);
    tcase_add_test(tc, the_war_hammer_swings_wide);
    tcase_add_test(tc, plate_mail_slows_every_second_step);
    tcase_add_test(tc, an_enchantment_is_unknown_until_worn);
    tcase_add_test(tc, no_armour_is_named_as_the_ruleset_has_it);
    tcase_add_test(tc, a_cursed_piece_stays_on_until_identified);
    tcase_add_test(tc, identify_tells_an_enchantment_unworn);
    tcase_add_test(tc, the_dump_shows_enchantments);
    tcase_add_test(tc, new_pieces_are_enchanted_by_the_rules_stream);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
