/* test_items.c - items, the pack, targeting and spells, stairs and depth,
 * through the game's public API: each item's effect with exact numbers, the
 * pack's limits, picking up and dropping, the menus and the targeting
 * cursor as modes, the stairs, and a whole game through items and stairs
 * replayed from its keys and from its record. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "arena.h"
#include "check_main.h"
#include "combat.h"
#include "fov.h"
#include "game.h"
#include "keys.h"
#include "record.h"
#include "view.h"

/* arena.h's room under ruleset (seed 1), every kind of item known. */
static game_t *arena(int ruleset)
{
    game_options_t o = { .ruleset = ruleset };
    game_t *g = arena_room(1, &o);
    /* The scene's player knows every kind: these tests are about what
     * items do; learning them is test_know.c's. */
    for (int k = 0; k < IK_COUNT; k++)
        item_learn(g, k);
    return g;
}

/* A monster of kind at (x, y) with hp (0: the kind's own). */
static int put_monster(game_t *g, int kind, int x, int y, int hp)
{
    int i = game_place_monster(g, kind, x, y);
    ck_assert_int_ge(i, 0);
    if (hp > 0)
        g->monsters[i].hp = hp;
    return i;
}

static int log_has(const game_t *g, const char *text)
{
    for (int i = 0; game_msg(g, i); i++)
        if (strstr(game_msg(g, i)->text, text))
            return 1;
    return 0;
}

static int things_at(const game_t *g, int x, int y)
{
    int n = 0;
    for (int i = 0; i < MAX_ITEMS; i++)
        n += g->items[i].type == ITEM_THING && g->items[i].x == x &&
             g->items[i].y == y;
    return n;
}

/* --- the table and spawning ------------------------------------------------ */

START_TEST(table_has_the_numbers_of_the_tutorials)
{
    const item_stats_t *p = item_stats(IK_HEALTH_POTION);
    ck_assert_int_eq(p->glyph, '!');
    ck_assert_int_eq(p->power, 10); /* the tutorials' 4, raised */
    ck_assert_int_eq(p->weight, 70);
    const item_stats_t *l = item_stats(IK_LIGHTNING);
    ck_assert_int_eq(l->glyph, '?');
    ck_assert_int_eq(l->power, 20);
    ck_assert_int_eq(l->range, 5);
    ck_assert_int_eq(l->weight, 10);
    const item_stats_t *f = item_stats(IK_FIREBALL);
    ck_assert_int_eq(f->power, 12);
    ck_assert_int_eq(f->radius, 3);
    ck_assert_int_eq(f->range, 0);
    ck_assert_int_eq(f->weight, 10);
    ck_assert(f->targeted);
    const item_stats_t *c = item_stats(IK_CONFUSION);
    ck_assert_int_eq(c->range, 8);
    ck_assert_int_eq(c->turns, 10);
    ck_assert_int_eq(c->weight, 10);
    ck_assert(c->targeted);
    ck_assert_str_eq(item_article(IK_HEALTH_POTION), "a");
}
END_TEST

START_TEST(spawn_0_to_2_per_room_at_the_odds)
{
    int per_room[ITEMS_PER_ROOM_MAX + 1] = { 0 }, kinds[IK_COUNT] = { 0 };
    int total = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        game_t *g = game_new(seed, NULL);
        int in_room[MAP_MAX_ROOMS] = { 0 };
        for (int i = 0; i < MAX_ITEMS; i++) {
            const item_t *it = &g->items[i];
            if (it->type == ITEM_NONE)
                continue;
            ck_assert_int_eq(it->type, ITEM_THING);
            ck_assert_int_lt(it->kind, IK_COUNT);
            ck_assert_int_eq(g->map.tile[it->y][it->x], TILE_FLOOR);
            ck_assert(it->x != g->player.x || it->y != g->player.y);
            ck_assert_int_eq(things_at(g, it->x, it->y), 1);
            ck_assert_int_eq(it->seen, game_lit(g, it->x, it->y));
            kinds[it->kind]++;
            total++;
            for (int r = 0; r < g->map.nrooms; r++) {
                const rect_t *rc = &g->map.rooms[r];
                if (it->x >= rc->x && it->x < rc->x + rc->w &&
                    it->y >= rc->y && it->y < rc->y + rc->h)
                    in_room[r]++;
            }
        }
        for (int r = 0; r < g->map.nrooms; r++) {
            ck_assert_int_le(in_room[r], ITEMS_PER_ROOM_MAX);
            per_room[in_room[r]]++;
        }
        ck_assert_int_eq(g->pack_count, 0);
        game_free(g);
    }
    for (int n = 0; n <= ITEMS_PER_ROOM_MAX; n++)
        ck_assert_int_gt(per_room[n], 0);
    /* Out of 143 at depth 1: the potion 70 (49%), the tutorials' scrolls
     * and identify 10 each (7%), give or take a few points over ~3000
     * items; every kind of game version 6 that spawns at depth 1 appears. */
    ck_assert_int_gt(total, 2000);
    ck_assert_int_gt(kinds[IK_HEALTH_POTION] * 100, total * 45);
    ck_assert_int_lt(kinds[IK_HEALTH_POTION] * 100, total * 53);
    for (int k = IK_LIGHTNING; k <= IK_CONFUSION; k++) {
        ck_assert_int_gt(kinds[k] * 100, total * 5);
        ck_assert_int_lt(kinds[k] * 100, total * 10);
    }
    for (int k = IK_IDENTIFY; k < IK_COUNT; k++)
        if (item_weight(k, 1) > 0)
            ck_assert_int_gt(kinds[k], 0);
        else
            ck_assert_int_eq(kinds[k], 0);
}
END_TEST

/* --- the potion ------------------------------------------------------------ */

START_TEST(potion_heals_10_capped_at_max)
{
    game_t *g = arena(RULES_POWER);
    /* Three potions stack in slot a. */
    ck_assert_int_eq(item_pack_add(g, IK_HEALTH_POTION), 0);
    ck_assert_int_eq(item_pack_add(g, IK_HEALTH_POTION), 0);
    ck_assert_int_eq(item_pack_add(g, IK_HEALTH_POTION), 0);
    ck_assert_int_eq(g->pack_n[0], 3);
    ck_assert_int_eq(g->pack_count, 1);
    g->player.hp = 15;
    ck_assert_int_eq(game_key(g, 'i'), 0);
    ck_assert_int_eq(g->mode, MODE_INVENTORY);
    ck_assert_int_eq(game_key(g, 'a'), 1);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_int_eq(g->player.hp, 25);
    ck_assert_int_eq(g->pack_n[0], 2);
    ck_assert_int_eq(g->turn, 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You drink the health potion and heal 10 HP.");
    /* Not above max. */
    g->player.hp = 28;
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a'), 1);
    ck_assert_int_eq(g->player.hp, 30);
    ck_assert_int_eq(g->pack_n[0], 1);
    ck_assert_int_eq(g->pack_count, 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You drink the health potion and heal 2 HP.");
    /* At full health it is kept, and no turn passes. */
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a'), 0);
    ck_assert_int_eq(g->player.hp, 30);
    ck_assert_int_eq(g->pack_count, 1);
    ck_assert_int_eq(g->turn, 2);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_str_eq(game_msg(g, 0)->text, "You are already at full health.");
    game_free(g);
}
END_TEST

/* --- the lightning bolt ---------------------------------------------------- */

static int bolt(game_t *g)
{
    item_pack_add(g, IK_LIGHTNING);
    ck_assert_int_eq(game_key(g, 'i'), 0);
    return game_key(g, 'a' + g->pack_count - 1);
}

START_TEST(bolt_reaches_5_not_6)
{
    /* Straight: 5 away is struck for exactly 20. */
    game_t *g = arena(RULES_POWER);
    int m = put_monster(g, MON_ORC, 15, 8, 50);
    ck_assert_int_eq(bolt(g), 1);
    ck_assert_int_eq(g->monsters[m].hp, 30);
    ck_assert_int_eq(g->pack_count, 0);
    ck_assert_int_eq(g->turn, 1);
    ck_assert(log_has(g, "A lightning bolt strikes the orc for 20 damage, "
                         "with a crack of thunder!"));
    game_free(g);

    /* 6 away: it fizzles; neither the scroll nor the turn is spent. */
    g = arena(RULES_POWER);
    m = put_monster(g, MON_ORC, 16, 8, 50);
    ck_assert(game_lit(g, 16, 8));
    ck_assert_int_eq(bolt(g), 0);
    ck_assert_int_eq(g->monsters[m].hp, 50);
    ck_assert_int_eq(g->pack_count, 1);
    ck_assert_int_eq(g->pack[0], IK_LIGHTNING);
    ck_assert_int_eq(g->turn, 0);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_str_eq(game_msg(g, 0)->text, "No enemy is close enough to strike.");
    game_free(g);

    /* A straight line: (3, 4) away is 5; (4, 4) is not. */
    g = arena(RULES_POWER);
    m = put_monster(g, MON_ORC, 13, 12, 50);
    ck_assert_int_eq(bolt(g), 1);
    ck_assert_int_eq(g->monsters[m].hp, 30);
    game_free(g);
    g = arena(RULES_POWER);
    m = put_monster(g, MON_ORC, 14, 12, 50);
    ck_assert_int_eq(bolt(g), 0);
    ck_assert_int_eq(g->monsters[m].hp, 50);
    game_free(g);
}
END_TEST

START_TEST(bolt_strikes_the_closest_visible_and_kills)
{
    game_t *g = arena(RULES_POWER);
    int far = put_monster(g, MON_TROLL, 14, 8, 0);
    int near = put_monster(g, MON_TROLL, 7, 8, 0);
    ck_assert_int_eq(bolt(g), 1);
    ck_assert(!g->monsters[near].alive); /* 16 hp < 20 */
    ck_assert_int_eq(g->monsters[far].hp, monster_stats(MON_TROLL)->hp);
    ck_assert_int_eq(g->kills, 1);
    ck_assert_int_eq(g->player.xp, monster_stats(MON_TROLL)->xp);
    ck_assert(log_has(g, "The troll dies"));
    game_free(g);

    /* A monster behind a pillar is not in view: it fizzles. */
    g = arena(RULES_POWER);
    g->map.tile[8][11] = TILE_WALL;
    g->map.tile[7][11] = TILE_WALL;
    g->map.tile[9][11] = TILE_WALL;
    game_update_fov(g);
    int hid = put_monster(g, MON_ORC, 13, 8, 50);
    ck_assert(!game_lit(g, 13, 8));
    ck_assert_int_eq(bolt(g), 0);
    ck_assert_int_eq(g->monsters[hid].hp, 50);
    ck_assert_int_eq(g->pack_count, 1);
    game_free(g);
}
END_TEST

/* --- the fireball ---------------------------------------------------------- */

/* Reads the fireball in the pack's last slot and clicks (x, y). */
static int fireball_at(game_t *g, int x, int y)
{
    item_pack_add(g, IK_FIREBALL);
    ck_assert_int_eq(game_key(g, 'i'), 0);
    ck_assert_int_eq(game_key(g, 'a' + g->pack_count - 1), 0);
    ck_assert_int_eq(g->mode, MODE_TARGET);
    return game_key(g, game_click_key(x, y));
}

START_TEST(fireball_burns_within_3_not_4)
{
    game_t *g = arena(RULES_POWER);
    /* Around (16, 8), 6 from the player: */
    int a = put_monster(g, MON_ORC, 19, 8, 50);  /* 3 */
    int b = put_monster(g, MON_ORC, 16, 11, 50); /* 3 */
    int c = put_monster(g, MON_ORC, 18, 10, 50); /* sqrt 8 */
    int d = put_monster(g, MON_ORC, 20, 8, 50);  /* 4 */
    int e = put_monster(g, MON_ORC, 16, 12, 50); /* 4 */
    int f = put_monster(g, MON_ORC, 19, 10, 50); /* sqrt 13 */
    ck_assert_int_eq(fireball_at(g, 16, 8), 1);
    ck_assert_int_eq(g->monsters[a].hp, 38);
    ck_assert_int_eq(g->monsters[b].hp, 38);
    ck_assert_int_eq(g->monsters[c].hp, 38);
    ck_assert_int_eq(g->monsters[d].hp, 50);
    ck_assert_int_eq(g->monsters[e].hp, 50);
    ck_assert_int_eq(g->monsters[f].hp, 50);
    ck_assert_int_eq(g->player.hp, 30);
    ck_assert_int_eq(g->pack_count, 0);
    ck_assert_int_eq(g->turn, 1);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert(log_has(g, "The fireball explodes, burning everything within 3 tiles!"));
    ck_assert(log_has(g, "The orc gets burned for 12 damage."));
    ck_assert(!log_has(g, "You get burned"));
    game_free(g);
}
END_TEST

START_TEST(fireball_hurts_the_player_inside)
{
    game_t *g = arena(RULES_POWER);
    int m = put_monster(g, MON_TROLL, 13, 8, 0);
    ck_assert_int_eq(fireball_at(g, 12, 8), 1); /* the player is 2 away */
    ck_assert_int_eq(g->player.hp, 30 - 12);
    ck_assert_int_eq(g->monsters[m].hp, 16 - 12);
    ck_assert(log_has(g, "You get burned for 12 damage."));
    game_free(g);

    /* And it can kill: the cause is the player's own fireball (cast next
     * to the player: on its own tile a cast is refused). */
    g = arena(RULES_POWER);
    g->player.hp = 12;
    ck_assert_int_eq(fireball_at(g, 11, 8), 1);
    ck_assert_int_eq(g->player.hp, 0);
    ck_assert(game_dead(g));
    char cause[64];
    ck_assert_str_eq(game_death_cause(g, cause, sizeof cause),
                     "killed by your own fireball");
    ck_assert_str_eq(game_msg(g, 0)->text, "You die, killed by your own fireball.");
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    int found = 0;
    for (int y = 0; y < 24 && !found; y++) {
        char row[81];
        for (int x = 0; x < 80; x++)
            row[x] = (char)screen_cat(&s, x, y)->ch;
        row[80] = '\0';
        found = strstr(row, "killed by your own fireball") != NULL;
    }
    ck_assert(found);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* --- confusion ------------------------------------------------------------- */

START_TEST(confusion_lasts_10_turns)
{
    game_t *g = arena(RULES_POWER);
    g->player.hp = g->player.max_hp = 500;
    int m = put_monster(g, MON_ORC, 14, 8, 200);
    item_pack_add(g, IK_CONFUSION);
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a'), 0);
    ck_assert_int_eq(g->mode, MODE_TARGET);
    ck_assert_int_eq(g->target.x, 14); /* on the nearest monster */
    ck_assert_int_eq(g->target.y, 8);
    ck_assert_int_eq(game_key(g, KEY_ENTER), 1);
    ck_assert_int_eq(g->pack_count, 0);
    ck_assert(log_has(g, "The eyes of the orc look vacant, as it starts to "
                         "stumble around!"));
    /* Reading took turn 1, in which it stumbled once. */
    ck_assert_int_eq(g->monsters[m].confused, 9);
    for (int t = 2; t <= 10; t++) {
        ck_assert(!log_has(g, "The orc is no longer confused."));
        if (t == 10) { /* its stumbles took it anywhere: back in view, where
                          the end is told (game version 10) */
            g->monsters[m].x = 13;
            g->monsters[m].y = 8;
        }
        game_key(g, '.');
        ck_assert_int_eq(g->monsters[m].confused, 10 - t);
    }
    ck_assert_str_eq(game_msg(g, 0)->text, "The orc is no longer confused.");
    ck_assert_int_eq(g->turn, 10);
    game_free(g);
}
END_TEST

START_TEST(confused_monsters_bump_into_monsters)
{
    /* An orc and a rat shut in a closet of two tiles; the player far off.
     * The rat cannot move; the confused orc stumbles, and a step towards
     * the rat is a blow (power: 4 > the rat's 3 hp). Out of view, neither
     * the blow nor the death is told (game version 10). */
    int hit = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        game_t *g = arena(RULES_POWER);
        for (int y = 2; y <= 4; y++)
            for (int x = 30; x <= 33; x++)
                g->map.tile[y][x] = TILE_WALL;
        g->map.tile[3][31] = TILE_FLOOR;
        g->map.tile[3][32] = TILE_FLOOR;
        game_update_fov(g);
        int orc = put_monster(g, MON_ORC, 31, 3, 0);
        int rat = put_monster(g, MON_RAT, 32, 3, 0);
        g->monsters[orc].confused = 10;
        rng_seed(&g->rng, seed);
        for (int t = 0; t < 10 && g->monsters[rat].alive; t++)
            game_key(g, '.');
        if (!g->monsters[rat].alive) {
            hit++;
            ck_assert(!log_has(g, "The orc hits the rat"));
            ck_assert(!log_has(g, "The rat dies"));
            ck_assert_int_eq(g->kills, 0); /* not the player's kill */
            ck_assert_int_eq(g->player.xp, 0);
            ck_assert_int_eq(g->monsters[orc].x, 31);
        }
        game_free(g);
    }
    ck_assert_int_gt(hit, 0);
    ck_assert_int_lt(hit, 30);
}
END_TEST

START_TEST(confusion_needs_a_monster_in_range)
{
    game_t *g = arena(RULES_POWER);
    put_monster(g, MON_ORC, 14, 8, 0);
    item_pack_add(g, IK_CONFUSION);
    game_key(g, 'i');
    game_key(g, 'a');
    /* An empty tile: refused, still aiming. */
    ck_assert_int_eq(game_key(g, game_click_key(12, 8)), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "There is no monster there.");
    ck_assert_int_eq(g->mode, MODE_TARGET);
    ck_assert_int_eq(g->pack_count, 1);
    ck_assert_int_eq(g->turn, 0);
    /* Out of view (11 away): refused. */
    ck_assert_int_eq(game_key(g, game_click_key(21, 8)), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You cannot see that spot.");
    ck_assert_int_eq(g->mode, MODE_TARGET);
    /* Out of range: with the range at 3, the orc 4 away is refused. */
    g->target.range = 3;
    ck_assert_int_eq(game_key(g, game_click_key(14, 8)), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "That is out of range.");
    ck_assert_int_eq(g->pack_count, 1);
    ck_assert_int_eq(g->turn, 0);
    g->target.range = 8;
    ck_assert_int_eq(game_key(g, game_click_key(14, 8)), 1);
    ck_assert_int_eq(g->pack_count, 0);
    game_free(g);
}
END_TEST

/* --- targeting ------------------------------------------------------------- */

START_TEST(targeting_keys_move_choose_and_cancel)
{
    game_t *g = arena(RULES_POWER);
    put_monster(g, MON_ORC, 16, 8, 0);
    put_monster(g, MON_RAT, 10, 5, 0);
    item_pack_add(g, IK_FIREBALL);
    game_key(g, 'i');
    ck_assert_int_eq(game_key(g, 'a'), 0);
    ck_assert(game_targeting(g));
    ck_assert(log_has(g, "Aim the scroll of fireball: move the cursor; Enter "
                         "or . casts, Esc cancels."));
    /* The nearest visible monster: the rat, 3 away. */
    ck_assert_int_eq(g->target.x, 10);
    ck_assert_int_eq(g->target.y, 5);
    /* Every movement key family moves the cursor, not the player. */
    game_key(g, 'l');
    game_key(g, KEY_RIGHT);
    game_key(g, '6');
    ck_assert_int_eq(g->target.x, 13);
    game_key(g, 'j');
    game_key(g, KEY_PGDN);
    ck_assert_int_eq(g->target.x, 14);
    ck_assert_int_eq(g->target.y, 7);
    ck_assert_int_eq(g->player.x, 10);
    ck_assert_int_eq(g->player.y, 8);
    ck_assert_int_eq(g->turn, 0);
    /* Other keys do nothing. */
    game_key(g, 'x');
    game_key(g, 'i');
    ck_assert(game_targeting(g));
    /* Esc: the scroll and the turn are kept. */
    ck_assert_int_eq(game_key(g, KEY_ESC), 0);
    ck_assert(!game_targeting(g));
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_int_eq(g->pack_count, 1);
    ck_assert_int_eq(g->pack[0], IK_FIREBALL);
    ck_assert_int_eq(g->turn, 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You put the scroll of fireball away.");
    /* Again: the cursor never leaves the map. */
    game_key(g, 'i');
    game_key(g, 'a');
    for (int i = 0; i < 30; i++)
        game_key(g, 'y');
    ck_assert_int_eq(g->target.x, 0);
    ck_assert_int_eq(g->target.y, 0);
    /* Out of view: refused; then '.' on a tile in view casts. */
    ck_assert_int_eq(game_key(g, KEY_ENTER), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You cannot see that spot.");
    ck_assert(game_targeting(g));
    g->target.x = 16;
    g->target.y = 3;
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert(!game_targeting(g));
    ck_assert_int_eq(g->pack_count, 0);
    ck_assert_int_eq(g->turn, 1);
    game_free(g);

    /* No monster in view: the cursor starts on the player. */
    g = arena(RULES_POWER);
    item_pack_add(g, IK_FIREBALL);
    game_key(g, 'i');
    game_key(g, 'a');
    ck_assert_int_eq(g->target.x, 10);
    ck_assert_int_eq(g->target.y, 8);
    game_free(g);
}
END_TEST

START_TEST(click_keys)
{
    int x, y;
    ck_assert_int_eq(game_click_key(0, 0), KEY_CLICK_BASE);
    ck_assert_int_eq(game_click_key(79, 20), KEY_CLICK_BASE + 20 * 80 + 79);
    ck_assert_int_eq(game_click_key(80, 0), -1);
    ck_assert_int_eq(game_click_key(0, 21), -1);
    ck_assert_int_eq(game_click_key(-1, 3), -1);
    ck_assert(game_click_tile(game_click_key(12, 7), &x, &y));
    ck_assert_int_eq(x, 12);
    ck_assert_int_eq(y, 7);
    ck_assert(!game_click_tile(KEY_CLICK_BASE - 1, &x, &y));
    ck_assert(!game_click_tile(KEY_CLICK_BASE + 80 * 21, &x, &y));
    ck_assert(!game_click_tile('a', &x, &y));
    ck_assert_int_gt(KEY_CLICK_BASE, KEY_LAST);

    /* Outside targeting a click travels there (two steps east here:
     * test_comforts has the rest of it). */
    game_t *g = arena(RULES_POWER);
    uint32_t before = g->turn;
    ck_assert_int_eq(game_key(g, game_click_key(12, 8)), 1);
    ck_assert_int_eq(g->turn, before + 2);
    ck_assert_int_eq(g->player.x, 12);
    game_key(g, 'i');
    ck_assert_int_eq(g->mode, MODE_PLAY); /* the pack is empty */
    ck_assert_str_eq(game_msg(g, 0)->text, "Your pack is empty.");
    game_free(g);
}
END_TEST

/* --- the pack -------------------------------------------------------------- */

START_TEST(pack_holds_26)
{
    game_t *g = arena(RULES_POWER);
    /* Equipment does not stack: one slot each. */
    for (int i = 0; i < PACK_SIZE - 1; i++)
        ck_assert_int_eq(item_pack_add(g, IK_DAGGER), i);
    item_put(g, ITEM_THING, IK_CONFUSION, 10, 8, 0);
    item_put(g, ITEM_THING, IK_FIREBALL, 10, 8, 0);
    ck_assert_int_eq(game_key(g, 'g'), 1);
    ck_assert_int_eq(g->pack_count, PACK_SIZE);
    ck_assert_int_eq(g->pack[25], IK_CONFUSION);
    ck_assert_str_eq(game_msg(g, 0)->text, "You pick up a scroll of confusion (z).");
    /* Full: refused, no turn, the item stays. */
    ck_assert_int_eq(game_key(g, ','), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "Your pack is full.");
    ck_assert_int_eq(g->turn, 1);
    ck_assert_int_eq(things_at(g, 10, 8), 1);
    ck_assert_int_eq(item_pack_add(g, IK_HEALTH_POTION), -1);
    /* A scroll of a kind already carried still stacks. */
    ck_assert_int_eq(item_pack_add(g, IK_CONFUSION), 25);
    ck_assert_int_eq(g->pack_n[25], 2);
    /* 'z' is the last slot: the menu lists all 26. */
    game_key(g, 'i');
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    int found_a = 0, found_z = 0;
    for (int y = 0; y < 24; y++) {
        char row[81];
        for (int x = 0; x < 80; x++)
            row[x] = (char)screen_cat(&s, x, y)->ch;
        row[80] = '\0';
        found_a |= strstr(row, "a) ) dagger") != NULL;
        found_z |= strstr(row, "z) ? 2 scrolls of confusion") != NULL;
        ck_assert(y >= MAP_H || strstr(row, "Inventory") == NULL || y == 2);
    }
    ck_assert(found_a && found_z);
    screen_free(&s);
    ck_assert_int_eq(game_key(g, KEY_ESC), 0);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_int_eq(g->turn, 1);
    game_free(g);
}
END_TEST

START_TEST(pick_up_and_drop_round_trip)
{
    game_t *g = arena(RULES_POWER);
    ck_assert_int_eq(game_key(g, 'g'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "There is nothing here to pick up.");
    ck_assert_int_eq(game_key(g, 'd'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "Your pack is empty.");
    ck_assert_int_eq(g->mode, MODE_PLAY);
    /* Walking onto an item names it; g picks it up (a turn). */
    item_put(g, ITEM_THING, IK_FIREBALL, 11, 8, 0);
    item_put(g, ITEM_THING, IK_HEALTH_POTION, 11, 8, 0);
    ck_assert_int_eq(game_key(g, 'l'), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You see a scroll of fireball here.");
    ck_assert_int_eq(game_key(g, 'g'), 1);
    ck_assert_int_eq(game_key(g, ','), 1);
    ck_assert_int_eq(g->pack_count, 2);
    ck_assert_int_eq(g->pack[0], IK_FIREBALL);
    ck_assert_int_eq(g->pack[1], IK_HEALTH_POTION);
    ck_assert_int_eq(things_at(g, 11, 8), 0);
    ck_assert_int_eq(g->turn, 3);
    /* Drop a: the fireball on the floor; the potion keeps its letter b. */
    game_key(g, 'l');
    ck_assert_int_eq(game_key(g, 'd'), 0);
    ck_assert_int_eq(g->mode, MODE_DROP);
    ck_assert_int_eq(game_key(g, 'c'), 0); /* no such slot */
    ck_assert_str_eq(game_msg(g, 0)->text, "You have no item 'c'.");
    ck_assert_int_eq(g->mode, MODE_DROP);
    ck_assert_int_eq(game_key(g, 'a'), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You drop the scroll of fireball.");
    ck_assert_int_eq(g->pack_count, 1);
    ck_assert_int_eq(g->pack[1], IK_HEALTH_POTION);
    ck_assert_int_eq(g->pack_n[1], 1);
    ck_assert_int_eq(g->pack[0], 0); /* freed slots are cleared */
    ck_assert_int_eq(g->pack_n[0], 0);
    ck_assert_int_eq(things_at(g, 12, 8), 1);
    ck_assert_int_eq(g->turn, 5);
    /* And back again: into the first free letter, a. */
    ck_assert_int_eq(game_key(g, 'g'), 1);
    ck_assert_int_eq(g->pack_count, 2);
    ck_assert_int_eq(g->pack[0], IK_FIREBALL);
    ck_assert_str_eq(game_msg(g, 0)->text, "You pick up a scroll of fireball (a).");
    ck_assert_int_eq(things_at(g, 12, 8), 0);
    /* Esc leaves the drop menu without a turn. */
    game_key(g, 'd');
    ck_assert_int_eq(game_key(g, KEY_ESC), 0);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_int_eq(g->turn, 6);
    game_free(g);
}
END_TEST

START_TEST(items_are_remembered_where_last_seen)
{
    game_t *g = arena(RULES_POWER);
    item_put(g, ITEM_THING, IK_HEALTH_POTION, 14, 8, 0); /* in view */
    item_put(g, ITEM_THING, IK_FIREBALL, 30, 8, 0);      /* not */
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert_uint_eq(screen_cat(&s, 14, 8)->ch, '!');
    /* Drawn in its appearance's colour: seed 1's potion of healing is
     * golden (know.c). */
    ck_assert_uint_eq(screen_cat(&s, 14, 8)->fg, COL_BYELLOW);
    ck_assert_uint_eq(screen_cat(&s, 30, 8)->ch, ' ');
    /* Walk away east, then back west: the potion stays drawn, dim. */
    for (int i = 0; i < 14; i++)
        game_key(g, 'l');
    view_draw(g, &s);
    ck_assert_uint_eq(screen_cat(&s, 30, 8)->ch, '?');
    for (int i = 0; i < 14; i++)
        game_key(g, 'l');
    ck_assert(!game_lit(g, 14, 8));
    view_draw(g, &s);
    ck_assert_uint_eq(screen_cat(&s, 14, 8)->ch, '!');
    ck_assert_uint_eq(screen_cat(&s, 14, 8)->fg, COL_GREY);
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(view_highlights_targets)
{
    game_t *g = arena(RULES_POWER);
    put_monster(g, MON_ORC, 14, 8, 0);
    item_pack_add(g, IK_CONFUSION);
    game_key(g, 'i');
    game_key(g, 'a');
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert(screen_cat(&s, 14, 8)->attr & ATTR_REVERSE); /* the cursor */
    ck_assert_uint_eq(screen_cat(&s, 14, 8)->ch, 'o');
    int lit = 0;
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++) {
            int want = game_lit(g, x, y) &&
                       (x - 10) * (x - 10) + (y - 8) * (y - 8) <= 64;
            ck_assert_int_eq(screen_cat(&s, x, y)->bg == COL_BLUE, want);
            ck_assert_int_eq(target_allowed(g, x, y), want);
            lit += want;
            if (!(x == 14 && y == 8))
                ck_assert(!(screen_cat(&s, x, y)->attr & ATTR_REVERSE));
        }
    ck_assert_int_gt(lit, 100);
    game_key(g, KEY_ESC);
    view_draw(g, &s);
    ck_assert_uint_eq(screen_cat(&s, 10, 8)->bg, COL_DEFAULT);
    ck_assert(!(screen_cat(&s, 14, 8)->attr & ATTR_REVERSE));
    screen_free(&s);
    game_free(g);
}
END_TEST

/* --- stairs and depth ------------------------------------------------------ */

static void find_stairs(const game_t *g, int *sx, int *sy)
{
    int n = 0;
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            if (g->map.tile[y][x] == TILE_STAIRS) {
                *sx = x;
                *sy = y;
                n++;
            }
    ck_assert_int_eq(n, 1);
}

START_TEST(stairs_in_the_last_room)
{
    for (uint64_t seed = 1; seed <= 200; seed++) {
        game_t *g = game_new(seed, NULL);
        int sx, sy, cx, cy;
        find_stairs(g, &sx, &sy);
        ck_assert_int_gt(g->map.nrooms, 1);
        rect_center(&g->map.rooms[g->map.nrooms - 1], &cx, &cy);
        ck_assert_int_eq(sx, cx);
        ck_assert_int_eq(sy, cy);
        /* Reachable from the start. */
        dmap_t d;
        ai_distance_map(&g->map, g->player.x, g->player.y, &d);
        ck_assert_int_lt(d.v[sy][sx], DMAP_FAR);
        game_free(g);
    }
    /* A level of one room keeps the stairs off the start. */
    map_t m;
    memset(&m, 0, sizeof m);
    m.rooms[0] = (rect_t){ 5, 5, 4, 4 };
    m.nrooms = 1;
    for (int y = 5; y < 9; y++)
        for (int x = 5; x < 9; x++)
            m.tile[y][x] = TILE_FLOOR;
    map_place_stairs(&m);
    ck_assert_int_eq(m.tile[5][5], TILE_STAIRS);
}
END_TEST

START_TEST(descending_keeps_the_player)
{
    game_t *g = game_new(77, NULL);
    ck_assert_int_eq(game_key(g, '>'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You have not found the stairs down yet.");
    ck_assert_int_eq(g->depth, 1);
    ck_assert_int_eq(g->turn, 0);
    int sx, sy;
    find_stairs(g, &sx, &sy);
    /* Put the player on the stairs with a history of their own. */
    memset(g->monsters, 0, sizeof g->monsters);
    g->player.x = sx;
    g->player.y = sy;
    g->player.hp = 17;
    g->player.max_hp = 35;
    g->player.level = 2;
    g->player.xp = 120;
    g->player.gold = 44;
    g->player.attack = 6;
    g->kills = 5;
    item_pack_add(g, IK_FIREBALL);
    item_pack_add(g, IK_HEALTH_POTION);
    player_t before = g->player;
    map_t old = g->map;
    game_update_fov(g);
    ck_assert_int_eq(game_key(g, '>'), 1);
    ck_assert_int_eq(g->depth, 2);
    ck_assert_int_eq(g->turn, 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You descend the stairs to depth 2.");
    /* The same player... */
    ck_assert_int_eq(g->player.hp, before.hp);
    ck_assert_int_eq(g->player.max_hp, before.max_hp);
    ck_assert_int_eq(g->player.level, before.level);
    ck_assert_int_eq(g->player.xp, before.xp);
    ck_assert_int_eq(g->player.gold, before.gold);
    ck_assert_int_eq(g->player.attack, before.attack);
    ck_assert_int_eq(g->kills, 5);
    ck_assert_int_eq(g->pack_count, 2);
    ck_assert_int_eq(g->pack[0], IK_FIREBALL);
    ck_assert_int_eq(g->pack[1], IK_HEALTH_POTION);
    /* ...on a new level, in the centre of its first room, remembering only
     * what is in view. */
    ck_assert(memcmp(old.tile, g->map.tile, sizeof old.tile) != 0);
    int cx, cy;
    rect_center(&g->map.rooms[0], &cx, &cy);
    ck_assert_int_eq(g->player.x, cx);
    ck_assert_int_eq(g->player.y, cy);
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            ck_assert_int_eq(map_known(&g->map, x, y), game_lit(g, x, y));
    find_stairs(g, &sx, &sy);
    int monsters = 0;
    for (int i = 0; i < MAX_MONSTERS; i++)
        monsters += g->monsters[i].alive;
    ck_assert_int_gt(monsters, 0);
    /* The status line shows the depth; the score counts it. */
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    char row[81];
    for (int x = 0; x < 80; x++)
        row[x] = (char)screen_cat(&s, x, 23)->ch;
    row[80] = '\0';
    ck_assert_ptr_nonnull(strstr(row, "Depth:2"));
    ck_assert_int_eq(game_score(g), 120 + 44 + 100);
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(deeper_levels_have_more_and_stronger_monsters)
{
    ck_assert_int_eq(monster_room_max(1), 3);
    ck_assert_int_eq(monster_room_max(2), 4);
    ck_assert_int_eq(monster_room_max(4), 6);
    ck_assert_int_eq(monster_room_max(7), 6);
    ck_assert_int_eq(monster_room_max(8), 7);
    ck_assert_int_eq(monster_room_max(10), 8);
    ck_assert_int_eq(monster_room_max(12), 9);
    ck_assert_int_eq(monster_room_max(20), 9);
    long count[2] = { 0, 0 }, strong[2] = { 0, 0 };
    for (uint64_t seed = 1; seed <= 100; seed++) {
        for (int deep = 0; deep < 2; deep++) {
            game_t *g = game_new(seed, NULL);
            if (deep) {
                int sx, sy;
                find_stairs(g, &sx, &sy);
                memset(g->monsters, 0, sizeof g->monsters);
                g->depth = 4;
                g->player.x = sx;
                g->player.y = sy;
                ck_assert_int_eq(game_key(g, '>'), 1);
                ck_assert_int_eq(g->depth, 5);
            }
            for (int i = 0; i < MAX_MONSTERS; i++) {
                const monster_t *m = &g->monsters[i];
                if (!m->alive)
                    continue;
                count[deep]++;
                strong[deep] += m->kind == MON_ORC || m->kind == MON_TROLL ||
                                m->kind == MON_SKELETON;
            }
            game_free(g);
        }
    }
    ck_assert_int_gt(count[1], count[0] * 3 / 2);
    ck_assert_int_gt(strong[1] * count[0], strong[0] * count[1]);
}
END_TEST

/* --- a whole game through items and stairs, replayed ------------------------ */

static char dir_key(int dx, int dy)
{
    static const char keys[3][3] = { { 'y', 'k', 'u' }, { 'h', '.', 'l' },
                                     { 'b', 'j', 'n' } };
    return keys[dy + 1][dx + 1];
}

/* The step from the player towards (tx, ty), or '.'. */
static int step_to(const game_t *g, int tx, int ty)
{
    dmap_t d;
    int nx, ny;
    ai_distance_map(&g->map, tx, ty, &d);
    if (!ai_step_down(&g->map, &d, NULL, g->player.x, g->player.y, &nx, &ny))
        return '.';
    return dir_key(nx - g->player.x, ny - g->player.y);
}

/* A bot that uses everything: it aims with a click or the keys, picks up
 * what it sees, drinks when hurt, reads scrolls at monsters, drops a
 * potion now and then, fights, and takes the stairs. */
static int item_bot(const game_t *g, int n)
{
    const player_t *p = &g->player;
    switch (g->mode) {
    case MODE_TARGET:
        if (n % 13 == 0)
            return KEY_ESC; /* (confusion with no monster: refused for ever) */
        if (n % 2)
            return game_click_key(g->target.x, g->target.y);
        return KEY_ENTER;
    case MODE_INVENTORY:
    case MODE_DROP:
        return n % 7 == 0 ? KEY_ESC : 'a' + n % g->pack_count;
    default:
        break;
    }
    int in_view = game_monster_in_view(g);
    if (g->pack_count > 0 && (p->hp * 2 < p->max_hp || (in_view && n % 5 == 0)))
        return 'i';
    if (g->pack_count > 3 && n % 11 == 0)
        return 'd';
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && game_monster_at(g, p->x + dx, p->y + dy) >= 0)
                return dir_key(dx, dy);
    if (item_find((game_t *)g, ITEM_THING, p->x, p->y) && g->pack_count < 20)
        return 'g';
    /* The nearest seen item, else the stairs. */
    dmap_t from;
    ai_distance_map(&g->map, p->x, p->y, &from);
    int best = DMAP_FAR, tx = -1, ty = -1;
    for (int i = 0; i < MAX_ITEMS; i++) {
        const item_t *it = &g->items[i];
        if (it->type == ITEM_THING && it->seen && g->pack_count < 20 &&
            from.v[it->y][it->x] < best) {
            best = from.v[it->y][it->x];
            tx = it->x;
            ty = it->y;
        }
    }
    if (tx < 0) {
        if (g->map.tile[p->y][p->x] == TILE_STAIRS)
            return '>';
        for (int y = 0; y < MAP_H; y++)
            for (int x = 0; x < MAP_W; x++)
                if (g->map.tile[y][x] == TILE_STAIRS) {
                    tx = x;
                    ty = y;
                }
    }
    return step_to(g, tx, ty);
}

START_TEST(replay_through_items_and_stairs)
{
    enum { MAXK = 3000 };
    static int keys[MAXK];
    int n = 0, clicks = 0, targets = 0, picks = 0, uses = 0;
    uint64_t seed;
    game_t *g = NULL;
    for (seed = 1; seed <= 50; seed++) {
        game_free(g);
        g = game_new(seed, NULL);
        n = clicks = targets = picks = uses = 0;
        while (n < MAXK && !game_dead(g) && g->depth < 4) {
            int mode = g->mode, pack = g->pack_count;
            int key = item_bot(g, n);
            keys[n++] = key;
            game_key(g, key);
            clicks += key >= KEY_CLICK_BASE;
            targets += mode == MODE_TARGET && g->mode != MODE_TARGET;
            picks += key == 'g' && g->pack_count > pack;
            uses += mode == MODE_INVENTORY && g->pack_count < pack;
        }
        if (g->depth >= 3 && clicks > 0 && targets > 1 && picks >= 5 &&
            uses >= 3)
            break;
    }
    ck_assert_msg(seed <= 50, "no seed gave a game through items and stairs");
    uint64_t h = game_hash(g);

    /* The same keys again: the same game, byte for byte. */
    game_t *again = game_new(seed, NULL);
    for (int i = 0; i < n; i++)
        game_key(again, keys[i]);
    ck_assert_uint_eq(game_hash(again), h);
    ck_assert_int_eq(memcmp(g, again, sizeof *g), 0);
    game_free(again);

    /* And through a game record (click keys are keys like any other). */
    game_t *rg = game_new(seed, NULL);
    record_t r;
    ck_assert_int_eq(record_init(&r, rg, 0), 0);
    for (int i = 0; i < n; i++)
        record_key(&r, rg, keys[i]);
    ck_assert_int_eq(record_finish(&r, rg), 0);
    buf_t out;
    buf_init(&out, 1 << 20);
    ck_assert_int_eq(record_encode(&r, &out), 0);
    record_replay_t rep;
    game_t *back = NULL;
    ck_assert_int_eq(record_replay(out.data, out.len, &rep, &back), RECORD_OK);
    ck_assert_int_eq(rep.drift_at, -1);
    ck_assert_uint_eq(rep.final_hash, h);
    ck_assert_uint_eq(game_hash(back), h);
    ck_assert_int_eq(back->depth, g->depth);
    game_free(back);
    buf_free(&out);
    record_free(&r);
    game_free(rg);
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("items");
    TCase *tc = tcase_create("items");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, table_has_the_numbers_of_the_tutorials);
    tcase_add_test(tc, spawn_0_to_2_per_room_at_the_odds);
    tcase_add_test(tc, potion_heals_10_capped_at_max);
    tcase_add_test(tc, bolt_reaches_5_not_6);
    tcase_add_test(tc, bolt_strikes_the_closest_visible_and_kills);
    tcase_add_test(tc, fireball_burns_within_3_not_4);
    tcase_add_test(tc, fireball_hurts_the_player_inside);
    tcase_add_test(tc, confusion_lasts_10_turns);
    tcase_add_test(tc, confused_monsters_bump_into_monsters);
    tcase_add_test(tc, confusion_needs_a_monster_in_range);
    tcase_add_test(tc, targeting_keys_move_choose_and_cancel);
    tcase_add_test(tc, click_keys);
    tcase_add_test(tc, pack_holds_26);
    tcase_add_test(tc, pick_up_and_drop_round_trip);
    tcase_add_test(tc, items_are_remembered_where_last_seen);
    tcase_add_test(tc, view_highlights_targets);
    tcase_add_test(tc, stairs_in_the_last_room);
    tcase_add_test(tc, descending_keeps_the_player);
    tcase_add_test(tc, deeper_levels_have_more_and_stronger_monsters);
    tcase_add_test(tc, replay_through_items_and_stairs);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
