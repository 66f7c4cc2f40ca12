/* test_telling.c - game version 9: what the game tells the player, and the
 * small rules held for that version (docs/game.md, "Game version 9"): the
 * log's words (a critical hit with no damage, a kept throw, `q` and `<`,
 * what a monster in view refused), explore and travel refused before
 * their search, depth 12's `_`, `>`, explore and Look, the identify menu,
 * autopickup and duplicates, why a walk or a count stopped (the monster
 * new in view named), a count broken by a blow, the dragon's breath (no
 * harm for no damage), an unknown aimed scroll put away (a play-test's
 * findings are test_playtest9.c's). Scripted games in the arena room,
 * exact lines. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "combat.h"
#include "fov.h"
#include "game.h"
#include "keys.h"
#include "view.h"

/* Rolls a test scripts: each call returns the next. */
typedef struct script {
    const int *v;
    int n, i;
} script_t;

static int scripted(void *ctx, int lo, int hi)
{
    script_t *s = ctx;
    (void)lo;
    (void)hi;
    return s->i < s->n ? s->v[s->i++] : lo;
}

/* --- the log's words -------------------------------------------------------- */

START_TEST(critical_hit_with_no_damage_is_not_told)
{
    fighter_t a, d;
    combat_result_t res;
    combat_fighter(&a, monster_stats(MON_RAT), 0, 3, 0);
    combat_fighter(&d, monster_player_stats(), 1, 30, 0);
    d.defense = 5; /* the rat's 1 attack does nothing */
    int rolls[] = { 1 };
    script_t s = { rolls, 1, 0 };
    combat_resolve(RULES_ATTACK_DEFENSE, &a, &d, scripted, &s, &res);
    ck_assert_int_eq(res.crit, 1);
    ck_assert_int_eq(res.damage, 0);
    ck_assert_str_eq(res.line[0].text,
                     "The rat hits you but deals no damage.");
    /* With damage the critical hit is told. */
    d.defense = 0;
    s.i = 0;
    combat_resolve(RULES_ATTACK_DEFENSE, &a, &d, scripted, &s, &res);
    ck_assert_str_eq(res.line[0].text,
                     "Critical hit! The rat hits you for 2 damage!");
}
END_TEST

START_TEST(a_cancelled_throw_keeps_the_weapon)
{
    game_t *g = arena_explored();
    int slot = item_pack_add(g, IK_DAGGER);
    game_key(g, 'i');
    game_key(g, 'a' + slot); /* wielded */
    ck_assert_int_eq(g->player.weapon, slot);
    game_key(g, 't');
    game_key(g, 'a' + slot);
    ck_assert_int_eq(g->mode, MODE_TARGET);
    ck_assert_int_eq(game_key(g, KEY_ESC), 0);
    /* wielded, its enchantment is known, and named (game version 10) */
    ck_assert_str_eq(game_msg(g, 0)->text, "You keep the +0 dagger.");
    ck_assert_int_eq(g->player.weapon, slot);
    game_free(g);
}
END_TEST

START_TEST(q_and_less_than_are_answered)
{
    game_t *g = arena_explored();
    ck_assert_int_eq(game_key(g, 'q'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "Unknown key 'q'. Q quits; ? is help.");
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_int_eq(game_key(g, '<'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "There is no way up: only the Amulet of Yendor gets you out.");
    ck_assert_int_eq(g->turn, 0);
    game_free(g);
}
END_TEST

/* A monster in the only way out: a wall at x = 15 but for the gap at
 * (15, 8), where a rat stands in view. */
static game_t *blocked_gap(void)
{
    game_t *g = arena_explored();
    for (int y = 1; y <= 15; y++)
        if (y != 8)
            g->map.tile[y][15] = TILE_WALL;
    g->map.tile[12][35] = TILE_STAIRS;
    game_update_fov(g);
    ck_assert_int_ge(game_place_monster(g, MON_RAT, 15, 8), 0);
    ck_assert(game_monster_in_view(g));
    return g;
}

START_TEST(a_monster_in_the_way_out_is_named_as_the_reason)
{
    game_t *g = blocked_gap();
    ck_assert_int_eq(game_key(g, '_'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You cannot travel with a monster in view.");
    ck_assert_int_eq(game_key(g, '>'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You cannot travel with a monster in view. (x2)");
    ck_assert_int_eq(game_key(g, 'o'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You cannot explore with a monster in view.");
    ck_assert_int_eq(game_key(g, 'L'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You cannot run with a monster in view.");
    g->player.hp = 5;
    ck_assert_int_eq(game_key(g, 'R'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You cannot rest with a monster in view.");
    ck_assert_int_eq(game_key(g, game_click_key(35, 12)), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You cannot travel with a monster in view.");
    ck_assert_int_eq(g->turn, 0);
    game_free(g);
}
END_TEST

/* --- depth 12 ---------------------------------------------------------------- */

/* The arena as the last level: no stairs, the Amulet at (30, 8). */
static game_t *last_level(int seen)
{
    game_t *g = arena_explored();
    g->depth = GAME_AMULET_DEPTH;
    item_t *it = item_put(g, ITEM_THING, IK_AMULET, 30, 8, 0);
    ck_assert_ptr_nonnull(it);
    if (!seen) {
        for (int y = 1; y <= 15; y++)
            g->map.tile[y][20] = TILE_WALL;
        game_update_fov(g);
        it->seen = 0;
    } else {
        it->seen = 1;
    }
    return g;
}

START_TEST(travel_on_the_last_level_goes_to_the_amulet)
{
    game_t *g = last_level(0);
    ck_assert_int_eq(game_key(g, '_'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "No stairs go down from here: find the Amulet of Yendor.");
    game_free(g);
    g = last_level(1);
    ck_assert_int_eq(game_key(g, '>'), 1);
    ck_assert_int_eq(g->player.x, 30);
    ck_assert_int_eq(g->player.y, 8);
    ck_assert_int_eq(g->turn, 20);
    ck_assert_int_eq(game_key(g, '_'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "The Amulet of Yendor lies here: g takes it.");
    ck_assert_int_eq(g->mode, MODE_PLAY);
    game_free(g);
}
END_TEST

START_TEST(explore_says_the_amulet_is_left)
{
    game_t *g = last_level(1);
    /* Walk over it and on: left behind, come back to once, then done. */
    g->player.x = 29;
    game_key(g, 'l');
    game_key(g, 'l');
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->player.x, 30);
    ck_assert_int_eq(game_key(g, 'o'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "There is nothing left to explore here but the Amulet: "
                     "_ goes to it.");
    game_free(g);
}
END_TEST

START_TEST(look_on_your_own_tile_names_what_lies_there)
{
    game_t *g = last_level(1);
    char what[MSG_LEN];
    ck_assert_str_eq(game_describe(g, 10, 8, what, sizeof what), "yourself");
    g->player.x = 30;
    game_update_fov(g);
    ck_assert_str_eq(game_describe(g, 30, 8, what, sizeof what),
                     "yourself, on the Amulet of Yendor");
    game_key(g, ';');
    game_key(g, '.');
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You see yourself, on the Amulet of Yendor.");
    g->map.tile[3][3] = TILE_STAIRS;
    g->player.x = 3;
    g->player.y = 3;
    ck_assert_str_eq(game_describe(g, 3, 3, what, sizeof what),
                     "yourself, on the stairs down");
    game_free(g);
}
END_TEST

START_TEST(look_tells_a_pieces_traits_before_it_is_worn)
{
    game_t *g = arena_explored();
    char what[MSG_LEN];
    item_put(g, ITEM_THING, IK_SPEAR, 12, 8, 0);
    item_put(g, ITEM_THING, IK_PLATE_MAIL, 13, 8, 0);
    item_put(g, ITEM_THING, IK_SWORD, 14, 8, 0);
    game_update_fov(g);
    ck_assert_str_eq(game_describe(g, 12, 8, what, sizeof what),
                     "a spear (reaches)");
    ck_assert_str_eq(game_describe(g, 13, 8, what, sizeof what),
                     "a plate mail (heavy, slow)");
    ck_assert_str_eq(game_describe(g, 14, 8, what, sizeof what),
                     "a long sword");
    game_free(g);
}
END_TEST

/* --- the pack ------------------------------------------------------------------ */

START_TEST(the_identify_menu_lists_only_unknown_items)
{
    game_t *g = arena_room(1, NULL);
    item_learn(g, IK_IDENTIFY);
    int known = item_pack_add(g, IK_HEALTH_POTION);
    item_learn(g, IK_HEALTH_POTION);
    int unknown = item_pack_add(g, IK_SPEED);
    int scroll = item_pack_add(g, IK_IDENTIFY);
    item_pack_add(g, IK_IDENTIFY); /* two: one left after reading */
    game_key(g, 'i');
    game_key(g, 'a' + scroll);
    ck_assert_int_eq(g->mode, MODE_IDENTIFY);
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 80, 24), 0);
    view_draw(g, &s);
    char want[64];
    snprintf(want, sizeof want, "%c) ! ", 'a' + unknown);
    ck_assert(arena_screen_has(&s, want));
    snprintf(want, sizeof want, "%c) ! ", 'a' + known);
    ck_assert(!arena_screen_has(&s, want));
    snprintf(want, sizeof want, "%c) ? ", 'a' + scroll);
    ck_assert(!arena_screen_has(&s, want));
    screen_free(&s);
    /* The narrow list too. */
    ck_assert_int_eq(screen_init(&s, 40, 20), 0);
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "potion"));
    ck_assert(!arena_screen_has(&s, "health"));
    ck_assert(!arena_screen_has(&s, "identify"));
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(autopickup_leaves_a_second_piece_of_a_kind)
{
    game_t *g = arena_explored();
    item_pack_add(g, IK_SWORD);
    game_key(g, 'A');
    item_put(g, ITEM_THING, IK_SWORD, 13, 8, 0);
    item_put(g, ITEM_THING, IK_LEATHER, 16, 8, 0);
    game_update_fov(g);
    /* The second long sword: walked to once, not taken. */
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->player.x, 13);
    ck_assert_int_eq(g->pack_count, 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You see a long sword here.");
    /* The leather armour, a kind not carried: taken. */
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->player.x, 16);
    ck_assert_int_eq(g->pack_count, 2);
    ck_assert_str_eq(game_msg(g, 0)->text, "You pick up a leather armour (b).");
    game_free(g);
}
END_TEST

/* --- why a walk or a count stopped ------------------------------------------- */

/* The arena with a wall at x = 25 but for the gap at (25, 8). */
static game_t *walled(void)
{
    game_t *g = arena_room(1, NULL);
    for (int y = 1; y <= 15; y++)
        if (y != 8)
            g->map.tile[y][25] = TILE_WALL;
    game_update_fov(g);
    return g;
}

START_TEST(a_run_says_what_stopped_it)
{
    game_t *g = walled();
    game_place_monster(g, MON_KOBOLD, 32, 3);
    ck_assert(!game_monster_in_view(g));
    ck_assert_int_eq(game_key(g, 'L'), 1);
    ck_assert(game_monster_in_view(g));
    ck_assert_str_eq(game_msg(g, 0)->text, "A kobold comes into view.");
    game_free(g);
    /* The stairs, under the @ once there. */
    g = walled();
    g->map.tile[8][5] = TILE_STAIRS;
    ck_assert_int_eq(game_key(g, 'H'), 1);
    ck_assert_int_eq(g->player.x, 5);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You are on the stairs: > goes down.");
    game_free(g);
}
END_TEST

START_TEST(a_counted_wait_stops_on_a_blow_that_does_nothing)
{
    game_t *g = arena_room(1, NULL);
    g->player.defense = 50; /* the rat's blows do nothing */
    game_place_monster(g, MON_RAT, 11, 8);
    game_update_fov(g);
    ck_assert_int_eq(arena_count_key(g, 9, '.'), 1);
    ck_assert_int_eq(g->turn, 1);
    ck_assert_int_eq(g->player.hp, 30);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "The rat hits you but deals no damage.");
    game_free(g);
}
END_TEST

START_TEST(a_counted_wait_names_a_monster_come_into_view)
{
    /* A corridor (row 8 only), a rat wandering out of view. */
    game_t *g = arena_room(1, NULL);
    arena_corridor(g);
    game_place_monster(g, MON_RAT, 19, 8);
    game_update_fov(g);
    ck_assert(!game_monster_in_view(g));
    ck_assert_int_eq(arena_count_key(g, 999, '.'), 1);
    ck_assert(game_monster_in_view(g));
    ck_assert_int_lt(g->turn, 999);
    ck_assert_str_eq(game_msg(g, 0)->text, "A rat comes into view.");
    game_free(g);
}
END_TEST

/* A rat asleep in view the whole way: the kobold that comes into view
 * through the gap is named, not the nearer rat that was in view before. */
START_TEST(a_counted_walk_names_the_monster_new_in_view)
{
    game_t *g = walled();
    g->player.x = 20;
    int rat = game_place_monster(g, MON_RAT, 22, 9);
    int kobold = game_place_monster(g, MON_KOBOLD, 27, 4);
    ck_assert_int_ge(rat, 0);
    ck_assert_int_ge(kobold, 0);
    g->monsters[rat].asleep = g->monsters[kobold].asleep = 200;
    game_update_fov(g);
    ck_assert_int_eq(game_nearest_in_view(g, 0), rat);
    ck_assert_int_eq(arena_count_key(g, 20, 'l'), 1);
    ck_assert(game_lit(g, 27, 4));
    ck_assert_int_eq(game_nearest_in_view(g, 0), rat);
    ck_assert_int_lt(g->turn, 20);
    ck_assert_str_eq(game_msg(g, 0)->text, "A kobold comes into view.");
    ck_assert_int_eq(arena_log_count(g, "rat"), 0);
    game_free(g);
}
END_TEST

/* A corridor: with one step the rat behind goes out of view as the
 * kobold ahead comes into it; as many in view as before, but one new. */
START_TEST(a_counted_walk_stops_when_one_leaves_and_one_comes)
{
    game_t *g = arena_room(1, NULL);
    arena_corridor(g);
    int rat = game_place_monster(g, MON_RAT, 10 - FOV_RADIUS, 8);
    int kobold = game_place_monster(g, MON_KOBOLD, 11 + FOV_RADIUS, 8);
    ck_assert_int_ge(rat, 0);
    ck_assert_int_ge(kobold, 0);
    g->monsters[rat].asleep = g->monsters[kobold].asleep = 200;
    game_update_fov(g);
    ck_assert(game_lit(g, 10 - FOV_RADIUS, 8));
    ck_assert(!game_lit(g, 11 + FOV_RADIUS, 8));
    ck_assert_int_eq(arena_count_key(g, 20, 'l'), 1);
    ck_assert_int_eq(g->turn, 1);
    ck_assert_int_eq(g->player.x, 11);
    ck_assert(!game_lit(g, 10 - FOV_RADIUS, 8));
    ck_assert_str_eq(game_msg(g, 0)->text, "A kobold comes into view.");
    game_free(g);
}
END_TEST

START_TEST(counted_steps_stop_where_running_stops)
{
    game_t *g = arena_room(1, NULL);
    item_put(g, ITEM_THING, IK_DART, 13, 8, 0);
    item_put(g, ITEM_THING, IK_DART, 14, 8, 0);
    game_update_fov(g);
    /* On the first dart: one line of that turn, not "(x2)" over two. */
    ck_assert_int_eq(arena_count_key(g, 9, 'l'), 1);
    ck_assert_int_eq(g->player.x, 13);
    ck_assert_str_eq(game_msg(g, 0)->text, "You see a dart here.");
    ck_assert_int_eq(g->turn, 3);
    /* Into a monster: one blow, then the count ends. */
    g->player.defense = 50;
    game_place_monster(g, MON_TROLL, 14, 9);
    game_update_fov(g);
    ck_assert_int_eq(arena_count_key(g, 5, 'n'), 1);
    ck_assert_int_eq(g->turn, 4);
    ck_assert_int_eq(g->player.x, 13);
    game_free(g);
}
END_TEST

/* --- the dragon's breath ------------------------------------------------------ */

/* Under ruleset r, a dragon five tiles off breathes at the player within a
 * few waits; the line after "breathes fire" is the fire's, never a hit. */
START_TEST(the_dragons_breath_is_told_as_breath)
{
    static const char *want[RULES_COUNT] = {
        [RULES_ATTACK_DEFENSE] = "The dragon's fire burns you for ",
        [RULES_POWER] = "The dragon's fire burns you for ",
        [RULES_D10] = "The dragon's fire ",
        [RULES_DICE_POOL] = "The dragon's fire ",
    };
    game_options_t o = { .ruleset = _i };
    game_t *g = arena_room(3, &o);
    g->player.max_hp = g->player.hp = 900;
    ck_assert_int_ge(game_place_monster(g, MON_DRAGON, 15, 8), 0);
    game_update_fov(g);
    int i = -1;
    for (int k = 0; k < 20 && i < 0; k++) {
        game_key(g, '.');
        for (int j = 0; game_msg(g, j) && i < 0; j++)
            if (strcmp(game_msg(g, j)->text,
                       "The dragon breathes fire at you!") == 0)
                i = j;
    }
    ck_assert_int_gt(i, 0);
    const char *line = game_msg(g, i - 1)->text;
    ck_assert_msg(strncmp(line, want[_i], strlen(want[_i])) == 0,
                  "after the breath: \"%s\"", line);
    ck_assert(strstr(line, "misses") || strstr(line, "burns") ||
              strstr(line, "does you no harm"));
    ck_assert_int_eq(arena_log_count(g, "The dragon hits you"), 0);
    game_free(g);
}
END_TEST

/* Under ruleset r, a breath that hits for nothing does no harm: it does
 * not burn (rolls of 100: d10 hits, each die a hit and a block). */
START_TEST(a_breath_for_nothing_does_no_harm)
{
    static const char *want[RULES_COUNT] = {
        [RULES_ATTACK_DEFENSE] = "The dragon's fire does you no harm.",
        [RULES_POWER] = "The dragon's fire does you no harm. (You: 30 hp)",
        [RULES_D10] = "The dragon's fire does you no harm.",
        [RULES_DICE_POOL] = ("The dragon's fire does you no harm: [100 100] "
                             "2 vs [100 100] 2 = blocked."),
    };
    fighter_t a, d;
    combat_result_t res;
    combat_fighter(&a, monster_stats(MON_DRAGON), 0, 420, 0);
    a.breath = 1;
    a.att_dice = 2;
    combat_fighter(&d, monster_player_stats(), 1, 30, 0);
    d.defense = d.absorb = d.armor_defense = 200;
    d.def_dice = 2;
    int rolls[] = { 100, 100, 100, 100 };
    script_t s = { rolls, 4, 0 };
    combat_resolve(_i, &a, &d, scripted, &s, &res);
    ck_assert_int_eq(res.hit, 1);
    ck_assert_int_eq(res.damage, 0);
    ck_assert_int_eq(res.nlines, 1);
    ck_assert_str_eq(res.line[0].text, want[_i]);
}
END_TEST

/* --- an unknown aimed scroll ------------------------------------------------- */

START_TEST(an_unknown_aimed_scroll_put_away_stays_unknown)
{
    game_t *g = arena_room(1, NULL);
    char label[MSG_LEN], line[2 * MSG_LEN];
    item_unknown_name(g, IK_FIREBALL, label, sizeof label);
    int slot = item_pack_add(g, IK_FIREBALL);
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a' + slot), 0);
    ck_assert_int_eq(g->mode, MODE_TARGET);
    ck_assert(!item_known(g, IK_FIREBALL));
    snprintf(line, sizeof line,
             "Aim the scroll %s: move the cursor; Enter or . casts, Esc "
             "cancels.",
             label + strlen("scroll labelled "));
    ck_assert_str_eq(game_msg(g, 0)->text, line);
    /* No blast shown: it would tell a fireball. */
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 80, 24), 0);
    view_draw(g, &s);
    ck_assert_int_ne(screen_cat(&s, 10, 8)->bg, COL_RED);
    screen_free(&s);
    ck_assert_int_eq(game_key(g, KEY_ESC), 0);
    snprintf(line, sizeof line, "You put the %s away.", label);
    ck_assert_str_eq(game_msg(g, 0)->text, line);
    ck_assert(!item_known(g, IK_FIREBALL));
    ck_assert(item_pack_has(g, slot));
    ck_assert_int_eq(g->turn, 0);
    /* Cast, it is learnt: at a goblin far off. */
    game_place_monster(g, MON_GOBLIN, 16, 8);
    game_update_fov(g);
    game_key(g, 'i');
    game_key(g, 'a' + slot);
    ck_assert_int_eq(game_key(g, KEY_ENTER), 1);
    ck_assert(item_known(g, IK_FIREBALL));
    snprintf(line, sizeof line, "The %s was a scroll of fireball.", label);
    ck_assert_int_eq(arena_log_count(g, line), 1);
    game_free(g);
}
END_TEST

START_TEST(an_unknown_confusion_cast_at_nothing_is_spent)
{
    game_t *g = arena_room(1, NULL);
    int slot = item_pack_add(g, IK_CONFUSION);
    game_key(g, 'i');
    game_key(g, 'a' + slot);
    /* Aimed anywhere in view (its own range untold), at no monster. */
    ck_assert_int_eq(g->target.range, 0);
    for (int i = 0; i < 5; i++)
        game_key(g, 'l');
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert(item_known(g, IK_CONFUSION));
    ck_assert(!item_pack_has(g, slot));
    ck_assert_int_eq(g->turn, 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "The scroll flashes, but no monster there is in reach.");
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("telling");
    TCase *tc = tcase_create("version 9");
    tcase_add_test(tc, critical_hit_with_no_damage_is_not_told);
    tcase_add_test(tc, a_cancelled_throw_keeps_the_weapon);
    tcase_add_test(tc, q_and_less_than_are_answered);
    tcase_add_test(tc, a_monster_in_the_way_out_is_named_as_the_reason);
    tcase_add_test(tc, travel_on_the_last_level_goes_to_the_amulet);
    tcase_add_test(tc, explore_says_the_amulet_is_left);
    tcase_add_test(tc, look_on_your_own_tile_names_what_lies_there);
    tcase_add_test(tc, look_tells_a_pieces_traits_before_it_is_worn);
    tcase_add_test(tc, the_identify_menu_lists_only_unknown_items);
    tcase_add_test(tc, autopickup_leaves_a_second_piece_of_a_kind);
    tcase_add_test(tc, a_run_says_what_stopped_it);
    tcase_add_test(tc, a_counted_wait_stops_on_a_blow_that_does_nothing);
    tcase_add_test(tc, a_counted_wait_names_a_monster_come_into_view);
    tcase_add_test(tc, a_counted_walk_names_the_monster_new_in_view);
    tcase_add_test(tc, a_counted_walk_stops_when_one_leaves_and_one_comes);
    tcase_add_test(tc, counted_steps_stop_where_running_stops);
    tcase_add_test(tc, an_unknown_aimed_scroll_put_away_stays_unknown);
    tcase_add_test(tc, an_unknown_confusion_cast_at_nothing_is_spent);
    tcase_add_loop_test(tc, the_dragons_breath_is_told_as_breath, 0,
                        RULES_COUNT);
    tcase_add_loop_test(tc, a_breath_for_nothing_does_no_harm, 0,
                        RULES_COUNT);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
