/* test_content.c - the content of game version 5 through the public API:
 * each monster behaviour (speed, shooting, regeneration, stealing, poison,
 * summoning, draining), each equipment effect in every ruleset's terms, the
 * Amulet and the win, and items of a new level not seen before they are
 * in view. Exact values: the power ruleset's blows need no roll. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "combat.h"
#include "fov.h"
#include "dump.h"
#include "game.h"
#include "keys.h"
#include "view.h"

/* arena.h's room under ruleset (seed 1). */
static game_t *arena(int ruleset)
{
    game_options_t o = { .ruleset = ruleset };
    return arena_room(1, &o);
}

/* --- behaviours ------------------------------------------------------------ */

START_TEST(fast_bat_moves_two_tiles_a_turn)
{
    game_t *g = arena(RULES_POWER);
    int b = game_place_monster(g, MON_BAT, 15, 8);
    int o = game_place_monster(g, MON_ORC, 10, 14);
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert_int_eq(g->monsters[b].x, 13); /* two steps closer */
    ck_assert_int_eq(g->monsters[b].y, 8);
    ck_assert_int_eq(g->monsters[o].y, 13); /* one */
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert_int_eq(g->monsters[b].x, 11);
    /* Next to the player: two bites a turn (3 each in power). */
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert_int_eq(arena_log_count(g, "The giant bat hits you for 3."), 2);
    game_free(g);
}
END_TEST

START_TEST(archer_shoots_from_afar)
{
    game_t *g = arena(RULES_POWER);
    int a = game_place_monster(g, MON_ARCHER, 16, 8); /* 6 away */
    int shots = 0;
    for (int t = 0; t < 20 && !shots; t++) {
        int dist = g->monsters[a].x - g->player.x, hp = g->player.hp;
        game_key(g, '.');
        if (arena_log_count(g, "The orc archer shoots at you!")) {
            shots = 1;
            ck_assert_int_gt(dist, 1);
            ck_assert_int_eq(g->player.hp, hp - 4);
            ck_assert_str_eq(game_msg(g, 0)->text,
                             "The orc archer hits you for 4. (You: 26 hp)");
        }
    }
    ck_assert_int_eq(shots, 1);
    /* Out of range (7 away in a straight line) it only walks. */
    ck_assert(!item_in_reach(16, 8, 9, 8, monster_stats(MON_ARCHER)->range));
    game_free(g);
}
END_TEST

START_TEST(dragon_regenerates_every_turn_troll_every_ten)
{
    game_t *g = arena(RULES_POWER);
    /* Walls between: neither is in view, both wander. */
    for (int y = 1; y <= 15; y++)
        g->map.tile[y][20] = TILE_WALL;
    game_update_fov(g);
    int d = game_place_monster(g, MON_DRAGON, 35, 4);
    int t = game_place_monster(g, MON_TROLL, 35, 12);
    g->monsters[d].hp = 30; /* of 42 (game version 7) */
    g->monsters[t].hp = 10;
    for (int i = 0; i < 3; i++)
        game_key(g, '.');
    ck_assert_int_eq(g->monsters[d].hp, 33);
    ck_assert_int_eq(g->monsters[t].hp, 10);
    for (int i = 0; i < 7; i++)
        game_key(g, '.');
    ck_assert_int_eq(g->monsters[d].hp, 41); /* 10 + the every-10 heal */
    ck_assert_int_eq(g->monsters[t].hp, 11);
    game_free(g);
}
END_TEST

START_TEST(thief_steals_gold_flees_and_drops_it)
{
    game_t *g = arena(RULES_POWER);
    g->player.gold = 100;
    int th = game_place_monster(g, MON_THIEF, 11, 8);
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert_int_eq(g->player.gold, 60);
    ck_assert_int_eq(g->monsters[th].loot, 40);
    ck_assert_int_eq(g->player.hp, 27);
    ck_assert_str_eq(game_msg(g, 0)->text, "The thief steals 40 gold!");
    /* Then it runs instead of fighting. */
    game_key(g, '.');
    ck_assert_int_gt(abs(g->monsters[th].x - 10) + abs(g->monsters[th].y - 8), 1);
    ck_assert_int_eq(g->player.hp, 27);
    /* Killed, it drops the loot (a thief carries no gold of its own). */
    int x = g->monsters[th].x, y = g->monsters[th].y;
    game_hurt_monster(g, th, 100, 1);
    item_t *gold = item_find(g, ITEM_GOLD, x, y);
    ck_assert_ptr_nonnull(gold);
    ck_assert_int_eq(gold->amount, 40);
    game_free(g);
}
END_TEST

START_TEST(spider_poisons_for_6_turns)
{
    game_t *g = arena(RULES_POWER);
    int s = game_place_monster(g, MON_SPIDER, 11, 8);
    game_key(g, '.');
    ck_assert(arena_log_count(g, "You are poisoned!") == 1);
    ck_assert_int_eq(g->player.poison, 5); /* 6, less this turn's tick */
    ck_assert_int_eq(g->player.hp, 30 - 5 - 1);
    g->monsters[s].alive = 0;
    /* Resting does not heal while poisoned: 1 HP a turn until it ends. */
    for (int i = 0; i < 5; i++)
        game_key(g, '.');
    ck_assert_int_eq(g->player.hp, 19);
    ck_assert_int_eq(g->player.poison, 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "The poison wears off.");
    game_key(g, '.');
    ck_assert_int_eq(g->player.hp, 20);
    /* Poison can kill: the cause is the spider. */
    g->player.hp = 1;
    g->player.poison = 3;
    game_key(g, '.');
    ck_assert(game_dead(g));
    char cause[64];
    ck_assert_str_eq(game_death_cause(g, cause, sizeof cause),
                     "killed by a giant spider");
    game_free(g);
}
END_TEST

START_TEST(necromancer_raises_skeletons)
{
    game_t *g = arena(RULES_POWER);
    game_place_monster(g, MON_NECROMANCER, 17, 8);
    int raised = 0;
    for (int t = 0; t < 12; t++) {
        game_key(g, '.');
        raised = arena_log_count(g, "The necromancer raises a skeleton!");
    }
    ck_assert_int_gt(raised, 0);
    int skeletons = 0;
    for (int i = 0; i < MAX_MONSTERS; i++)
        skeletons += g->monsters[i].alive &&
                     g->monsters[i].kind == MON_SKELETON;
    ck_assert_int_eq(skeletons, raised);
    game_free(g);
}
END_TEST

START_TEST(wraith_drains_max_hp)
{
    game_t *g = arena(RULES_POWER);
    game_place_monster(g, MON_WRAITH, 11, 8);
    game_key(g, '.');
    /* Fast: two touches of 8 (game version 7), each draining 1 max HP. */
    ck_assert_int_eq(g->player.max_hp, 28);
    ck_assert_int_eq(g->player.hp, 14);
    ck_assert_int_eq(arena_log_count(g, "The wraith drains you: max HP"), 2);
    game_free(g);
}
END_TEST

/* --- equipment ------------------------------------------------------------- */

START_TEST(wield_and_wear_in_power)
{
    /* Worn, a piece's enchantment is known (game version 7): "+0". */
    game_t *g = arena(RULES_POWER);
    ck_assert_int_eq(item_pack_add(g, IK_SWORD), 0);
    ck_assert_int_eq(item_pack_add(g, IK_CHAIN_MAIL), 1);
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a'), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You wield the +0 long sword.");
    ck_assert_int_eq(g->player.weapon, 0);
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'b'), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You put on the +0 chain mail.");
    ck_assert_int_eq(g->player.armor, 1);
    /* Power 5 + 3; the troll's 5 less the mail's 2 plus one (game
     * version 8). */
    game_place_monster(g, MON_TROLL, 11, 8);
    game_key(g, 'l');
    ck_assert_int_eq(arena_log_count(g, "You hit the troll for 8. (Troll: 8 hp)"), 1);
    ck_assert_int_eq(arena_log_count(g, "The troll hits you for 2. (You: 28 hp)"), 1);
    memset(g->monsters, 0, sizeof g->monsters);
    /* The character screen says so. */
    screen_t s;
    screen_init(&s, 80, 24);
    ck_assert_int_eq(game_key(g, 'C'), 0);
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "Weapon: +0 long sword   Armour: +0 chain mail"));
    ck_assert(arena_screen_has(&s, "Power 8; armour takes 3 off each blow"));
    /* what the mail does besides; the plain sword does nothing more */
    ck_assert(arena_screen_has(&s, "Chain mail: heavy - resting heals half as fast"));
    ck_assert(!arena_screen_has(&s, "Long sword:"));
    ck_assert_int_eq(game_key(g, 'x'), 0);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    /* The menu marks them; using again puts away; dropping takes off. */
    game_key(g, 'i');
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "a) ) +0 long sword (wielded)"));
    ck_assert(arena_screen_has(&s, "b) [ +0 chain mail (worn)"));
    game_key(g, 'a');
    ck_assert_int_eq(g->player.weapon, -1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You put away the +0 long sword.");
    game_key(g, 'd');
    game_key(g, 'b');
    ck_assert_int_eq(g->player.armor, -1);
    ck_assert_int_eq(g->pack_count, 1);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* Game version 8: armour takes its defense plus one off a blow in power
 * (twice its defense at version 7): plate mail's +3 (4 at version 7) takes
 * 4 (8 at version 7), so the deep kinds hurt through it. */
START_TEST(plate_mail_takes_four_in_power)
{
    game_t *g = arena(RULES_POWER);
    ck_assert_int_eq(item_pack_add(g, IK_PLATE_MAIL), 0);
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a'), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You put on the +0 plate mail.");
    /* The ogre's 10 and the dragon's 12, each less 4. */
    static const struct { int kind; const char *blow; } next[] = {
        { MON_OGRE, "The ogre hits you for 6. (You: 24 hp)" },
        { MON_DRAGON, "The dragon hits you for 8. (You: 16 hp)" },
    };
    for (size_t i = 0; i < sizeof next / sizeof next[0]; i++) {
        memset(g->monsters, 0, sizeof g->monsters);
        game_place_monster(g, next[i].kind, 11, 8);
        ck_assert_int_eq(game_key(g, '.'), 1);
        ck_assert_str_eq(game_msg(g, 0)->text, next[i].blow);
    }
    game_free(g);
}
END_TEST

START_TEST(equipment_in_every_ruleset)
{
    static const struct { int r; const char *line; } want[] = {
        { RULES_ATTACK_DEFENSE, "Attack 8, defense 3" },
        { RULES_POWER, "Power 8; armour takes 2 off each blow" },
        { RULES_D10, "To-hit +3, damage 3-8; armour absorbs 1, armour class 3" },
        { RULES_DICE_POOL, "Attack 7 dice (50% each), defense 3 dice (40% each)" },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        game_t *g = arena(want[i].r);
        item_pack_add(g, IK_SWORD);
        item_pack_add(g, IK_LEATHER);
        game_key(g, 'i');
        game_key(g, 'a');
        game_key(g, 'i');
        game_key(g, 'b');
        game_key(g, '@');
        screen_t s;
        screen_init(&s, 80, 24);
        view_draw(g, &s);
        ck_assert_msg(arena_screen_has(&s, want[i].line), "%s", want[i].line);
        screen_free(&s);
        game_free(g);
    }
    /* d10: the sword's 3-8 and +3 against a goblin's AC 3, leather's AC 3
     * and absorb 1 against the goblin's club 1-3 (+1). */
    game_t *g = arena(RULES_D10);
    item_pack_add(g, IK_SWORD);
    game_key(g, 'i');
    game_key(g, 'a');
    game_place_monster(g, MON_GOBLIN, 11, 8);
    for (int t = 0; t < 6 && game_monster_at(g, 11, 8) >= 0; t++)
        game_key(g, 'l');
    ck_assert(arena_log_count(g, "You swing your long sword at the goblin") > 0);
    game_free(g);
}
END_TEST

/* --- the goal -------------------------------------------------------------- */

/* Walks g down to depth `depth` by standing on the stairs and pressing >. */
static void descend_to(game_t *g, int depth)
{
    while (g->depth < depth) {
        for (int y = 0; y < MAP_H; y++)
            for (int x = 0; x < MAP_W; x++)
                if (g->map.tile[y][x] == TILE_STAIRS) {
                    g->player.x = x;
                    g->player.y = y;
                }
        memset(g->monsters, 0, sizeof g->monsters);
        ck_assert_int_eq(game_key(g, '>'), 1);
    }
}

/* Game version 8's monster table, as the balance benchmark tuned it
 * (docs/balance.md, "Game version 8"): a change here is a change of the
 * curve, and of the version. Version 7's numbers kept are pinned too. */
START_TEST(version_8_curve)
{
    const creature_stats_t *d = monster_stats(MON_DRAGON);
    ck_assert_int_eq(d->hp, 42);
    ck_assert_int_eq(d->attack, 12);
    ck_assert_int_eq(d->defense, 3);  /* 5 at version 7 */
    ck_assert_int_eq(d->dmg_min, 4);
    ck_assert_int_eq(d->dmg_max, 12); /* 11 at version 7: d10 alone */
    ck_assert_int_eq(d->xp, 210);
    /* The dragon stays the last danger: from depth 10 only. */
    ck_assert_int_eq(monster_weight(MON_DRAGON, 9), 0);
    ck_assert_int_eq(monster_weight(MON_DRAGON, 10), 20);
    const creature_stats_t *w = monster_stats(MON_WRAITH);
    ck_assert_int_eq(w->attack, 8);
    ck_assert_int_eq(w->defense, 4);  /* 5 */
    ck_assert_int_eq(w->dmg_max, 8);  /* 7 */
    ck_assert_int_eq(monster_weight(MON_WRAITH, 7), 18);
    ck_assert_int_eq(monster_weight(MON_WRAITH, 12), 28);
    /* The necromancer hits harder in d10, is easier to hurt in
     * attack-defense, rolls a die less in dice-pool, and is rarer where it
     * first comes (depth 8 was dice-pool's wall). */
    const creature_stats_t *n = monster_stats(MON_NECROMANCER);
    ck_assert_int_eq(n->hp, 32);
    ck_assert_int_eq(n->attack, 12);
    ck_assert_int_eq(n->defense, 3);  /* 4 */
    ck_assert_int_eq(n->dmg_max, 11); /* 10 */
    ck_assert_int_eq(n->att_dice, 9); /* 10 */
    ck_assert_int_eq(monster_weight(MON_NECROMANCER, 7), 0);
    ck_assert_int_eq(monster_weight(MON_NECROMANCER, 8), 26); /* 29 */
    ck_assert_int_eq(monster_stats(MON_OGRE)->attack, 10);
    ck_assert_int_eq(monster_stats(MON_OGRE)->defense, 3); /* 4 */
    ck_assert_int_eq(monster_weight(MON_OGRE, 4), 0);
    ck_assert_int_eq(monster_weight(MON_OGRE, 5), 14);
    /* The threats of depths 1-4 hit a point softer (power and
     * attack-defense) and are a point harder to hurt (attack-defense). */
    ck_assert_int_eq(monster_stats(MON_TROLL)->attack, 5);     /* 6 */
    ck_assert_int_eq(monster_stats(MON_TROLL)->defense, 3);    /* 2 */
    ck_assert_int_eq(monster_stats(MON_HOBGOBLIN)->attack, 5); /* 6 */
    ck_assert_int_eq(monster_stats(MON_HOBGOBLIN)->defense, 3); /* 2 */
    ck_assert_int_eq(monster_weight(MON_HOBGOBLIN, 2), 17);
    ck_assert_int_eq(monster_weight(MON_HOBGOBLIN, 4), 19);
    ck_assert_int_eq(monster_weight(MON_HOBGOBLIN, 9), 0);
    ck_assert_int_eq(monster_stats(MON_WOLF)->attack, 3);  /* 4 */
    ck_assert_int_eq(monster_stats(MON_WOLF)->defense, 3); /* 2 */
    ck_assert_int_eq(monster_weight(MON_WOLF, 3), 14);
    /* Attack-defense's quiet depths 2-6 a little harder. */
    ck_assert_int_eq(monster_stats(MON_ORC)->defense, 2);      /* 1 */
    ck_assert_int_eq(monster_stats(MON_SKELETON)->defense, 3); /* 2 */
    ck_assert_int_eq(monster_stats(MON_ARCHER)->defense, 3);   /* 2 */
    ck_assert_int_eq(monster_stats(MON_SPIDER)->defense, 5);   /* 3 */
    /* Plate mail: +3 defense (4). */
    ck_assert_int_eq(item_stats(IK_PLATE_MAIL)->defense, 3);
    /* Less XP from depth 3 on: levels stay within d..3d. */
    ck_assert_int_eq(monster_stats(MON_OGRE)->xp, 58);
    ck_assert_int_eq(w->xp, 78);
    ck_assert_int_eq(monster_stats(MON_TROLL)->xp, 32);
}
END_TEST

START_TEST(amulet_at_depth_12_wins)
{
    game_t *g = game_new(5, NULL);
    descend_to(g, GAME_AMULET_DEPTH);
    ck_assert_int_eq(g->depth, 12);
    int stairs = 0, amulets = 0, ax = 0, ay = 0;
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            stairs += g->map.tile[y][x] == TILE_STAIRS;
    for (int i = 0; i < MAX_ITEMS; i++)
        if (g->items[i].type == ITEM_THING && g->items[i].kind == IK_AMULET) {
            amulets++;
            ax = g->items[i].x;
            ay = g->items[i].y;
        }
    ck_assert_int_eq(stairs, 0);
    ck_assert_int_eq(amulets, 1);
    int cx, cy;
    rect_center(&g->map.rooms[g->map.nrooms - 1], &cx, &cy);
    ck_assert_int_eq(ax, cx);
    ck_assert_int_eq(ay, cy);
    memset(g->monsters, 0, sizeof g->monsters);
    g->player.x = ax;
    g->player.y = ay;
    int score = game_score(g);
    uint32_t turn = g->turn;
    ck_assert_int_eq(game_key(g, 'g'), 1);
    ck_assert(game_won(g));
    ck_assert(game_dead(g)); /* the game has ended: the host records it */
    ck_assert_int_eq(g->mode, MODE_WON);
    ck_assert_int_eq(g->turn, turn + 1);
    ck_assert_int_eq(game_score(g), score + GAME_WIN_SCORE);
    char cause[64];
    ck_assert_str_eq(game_death_cause(g, cause, sizeof cause),
                     "won: took the Amulet at depth 12");
    /* the last line, said once (game version 10: the cause after it
     * said it again) */
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You take the Amulet of Yendor! You have won.");
    ck_assert_int_eq(arena_log_count(g, "won"), 1);
    /* the dump says the depth once ("at depth 12 on depth 12" before) */
    char dump[16384], want[128];
    ck_assert_uint_lt(game_dump(g, NULL, dump, sizeof dump), sizeof dump);
    snprintf(want, sizeof want, "\n\nwon: took the Amulet on depth 12 after "
             "%u turns; score %d.\n", (unsigned)g->turn, game_score(g));
    ck_assert_msg(strstr(dump, want), "no '%s' in the dump", want);
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "YOU WON! The Amulet of Yendor is yours."));
    ck_assert(!arena_screen_has(&s, "YOU DIED"));
    ck_assert_int_eq(game_key(g, 'l'), 0); /* no more keys */
    ck_assert_int_eq(g->turn, turn + 1);
    ck_assert_int_eq(game_dead_choice(' '), 1);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* --- the bug: items of a new level seen with the old level's view ---------- */

/* monster_at and item_find compare a slot's place as one word, four slots a
 * step (monster.c, floor.c), and monster_next_alive tests four slots at
 * once: the first living monster (first item of the type) in slot order,
 * whatever slot of a group of four it is in, a dead one or another type at
 * the same place skipped, nobody and nothing off the map, nor at the
 * place an out-of-range coordinate's low byte names (map_slot_at). */
START_TEST(who_and_what_is_at_a_place)
{
    game_t *g = arena(RULES_POWER);
    for (int slot = 0; slot < MAX_MONSTERS; slot++) {
        memset(g->monsters, 0, sizeof g->monsters);
        ck_assert_int_eq(game_monster_at(g, 20, 5), -1);
        g->monsters[slot] = (monster_t){ .kind = MON_RAT, .alive = 0,
                                         .x = 20, .y = 5, .hp = 1 };
        game_derive(g); /* slots written by hand: their bounds (world.h) */
        ck_assert_int_eq(game_monster_at(g, 20, 5), -1); /* dead */
        if (slot + 1 < MAX_MONSTERS) {
            g->monsters[slot + 1] = g->monsters[slot];
            g->monsters[slot + 1].alive = 1;
            game_derive(g);
            ck_assert_int_eq(game_monster_at(g, 20, 5), slot + 1);
        }
        g->monsters[slot].alive = 1;
        game_derive(g);
        ck_assert_int_eq(game_monster_at(g, 20, 5), slot);
        ck_assert_int_eq(monster_next_alive(g->monsters, MAX_MONSTERS, 0),
                         slot);
        if (slot + 2 <= MAX_MONSTERS)
            ck_assert_int_eq(monster_next_alive(g->monsters, MAX_MONSTERS,
                                                slot + 2), MAX_MONSTERS);
        ck_assert_int_eq(game_monster_at(g, 5, 20), -1); /* x, y swapped */
        ck_assert_int_eq(game_monster_at(g, 20 + 256, 5), -1);
        ck_assert_int_eq(game_monster_at(g, 20, 5 - 256), -1);
    }
    for (int slot = 0; slot < MAX_ITEMS; slot++) {
        memset(g->items, 0, sizeof g->items);
        g->items[slot] = (item_t){ .type = ITEM_GOLD, .x = 20, .y = 5,
                                   .amount = 3 };
        game_derive(g);
        ck_assert_ptr_null(item_find(g, ITEM_THING, 20, 5));
        ck_assert_ptr_eq(item_find(g, ITEM_GOLD, 20, 5), &g->items[slot]);
        ck_assert_ptr_null(item_find(g, ITEM_GOLD, 5, 20));
        ck_assert_ptr_null(item_find(g, ITEM_GOLD, 20 - 256, 5));
        ck_assert_ptr_null(item_find(g, ITEM_GOLD, 20, 5 + 256));
        ck_assert_int_eq(item_next_at(g, 0, 20 + 256, 5), MAX_ITEMS);
        ck_assert_int_eq(item_next_at(g, 0, 20, 5 - 256), MAX_ITEMS);
        if (slot + 1 < MAX_ITEMS) {
            g->items[slot + 1] = g->items[slot];
            g->items[slot + 1].type = ITEM_THING;
            game_derive(g);
            ck_assert_ptr_eq(item_find(g, ITEM_THING, 20, 5),
                             &g->items[slot + 1]);
            ck_assert_int_eq(item_next_at(g, slot + 1, 20, 5), slot + 1);
        }
        ck_assert_int_eq(item_next_at(g, 0, 20, 5), slot);
    }
    game_free(g);
}
END_TEST

START_TEST(new_level_items_unseen_until_in_view)
{
    /* The case: seed 42, depth 3 showed a '!' alone in the dark. */
    for (uint64_t seed = 40; seed <= 60; seed++) {
        game_t *g = game_new(seed, NULL);
        descend_to(g, 4);
        for (int i = 0; i < MAX_ITEMS; i++) {
            const item_t *it = &g->items[i];
            if (it->type == ITEM_NONE)
                continue;
            ck_assert_msg(it->seen == game_lit(g, it->x, it->y),
                          "seed %llu: item at %d,%d seen %d, in view %d",
                          (unsigned long long)seed, it->x, it->y, it->seen,
                          game_lit(g, it->x, it->y));
        }
        game_free(g);
    }
}
END_TEST

/* The character screen tells each trait of the weapon and armour worn,
 * a line each, at 80x24 and wrapped whole at 40x20. */
START_TEST(character_screen_tells_equipment_traits)
{
    game_t *g = arena(RULES_ATTACK_DEFENSE);
    ck_assert_int_eq(item_pack_add(g, IK_SPEAR), 0);
    ck_assert_int_eq(item_pack_add(g, IK_PLATE_MAIL), 1);
    game_key(g, 'i');
    game_key(g, 'a');
    game_key(g, 'i');
    game_key(g, 'b');
    ck_assert_int_eq(g->player.weapon, 0);
    ck_assert_int_eq(g->player.armor, 1);
    ck_assert_int_eq(game_key(g, 'C'), 0);
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "Spear: reaches - strikes a monster two "
                                   "tiles away in a straight line"));
    ck_assert(arena_screen_has(&s, "Plate mail: heavy - resting heals half "
                                   "as fast"));
    ck_assert(arena_screen_has(&s, "Plate mail: slow - every second step "
                                   "costs two turns"));
    screen_free(&s);
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert(arena_screen_has(&s, "Plate mail: slow - every second step"));
    ck_assert(arena_screen_has(&s, "costs two turns"));
    screen_free(&s);
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("content");
    TCase *tc = tcase_create("content");
    tcase_add_test(tc, fast_bat_moves_two_tiles_a_turn);
    tcase_add_test(tc, character_screen_tells_equipment_traits);
    tcase_add_test(tc, archer_shoots_from_afar);
    tcase_add_test(tc, dragon_regenerates_every_turn_troll_every_ten);
    tcase_add_test(tc, thief_steals_gold_flees_and_drops_it);
    tcase_add_test(tc, spider_poisons_for_6_turns);
    tcase_add_test(tc, necromancer_raises_skeletons);
    tcase_add_test(tc, wraith_drains_max_hp);
    tcase_add_test(tc, wield_and_wear_in_power);
    tcase_add_test(tc, plate_mail_takes_four_in_power);
    tcase_add_test(tc, equipment_in_every_ruleset);
    tcase_add_test(tc, version_8_curve);
    tcase_add_test(tc, amulet_at_depth_12_wins);
    tcase_add_test(tc, new_level_items_unseen_until_in_view);
    tcase_add_test(tc, who_and_what_is_at_a_place);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
