/* test_fight.c - monsters and combat through the game's public API: spawning,
 * the turn order, bump to attack, no stacking, death, corpses and gold, XP
 * and levels, resting, the screens (HP colours, history, YOU DIED), and a
 * whole fight replayed from seed + keys. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "check_main.h"
#include "combat.h"
#include "fov.h"
#include "game.h"
#include "keys.h"
#include "view.h"

/* A game on an open 40x15 room (x 1..40, y 1..15), the player at (10, 8),
 * no monsters, nothing on the floor. */
static game_t *arena(int ruleset)
{
    game_options_t o = { .ruleset = ruleset };
    game_t *g = game_new(1, &o);
    ck_assert_ptr_nonnull(g);
    memset(g->monsters, 0, sizeof g->monsters);
    memset(g->items, 0, sizeof g->items);
    memset(&g->map, 0, sizeof g->map);
    for (int y = 1; y <= 15; y++)
        for (int x = 1; x <= 40; x++)
            g->map.tile[y][x] = TILE_FLOOR;
    g->map.rooms[0] = (rect_t){ 1, 1, 40, 15 };
    g->map.nrooms = 1;
    g->player.x = 10;
    g->player.y = 8;
    fov_compute(&g->map, 10, 8, FOV_RADIUS, g->visible);
    game_derive(g); /* visible[][] written by hand (world.h) */
    return g;
}

static int log_has(const game_t *g, const char *text)
{
    for (int i = 0; game_msg(g, i); i++)
        if (strstr(game_msg(g, i)->text, text))
            return 1;
    return 0;
}

static int chebyshev(int ax, int ay, int bx, int by)
{
    int dx = abs(ax - bx), dy = abs(ay - by);
    return dx > dy ? dx : dy;
}

static int row_has(const screen_t *s, int y, const char *text)
{
    char line[512];
    int n = s->w < 511 ? s->w : 511;
    for (int x = 0; x < n; x++)
        line[x] = (char)screen_cat(s, x, y)->ch;
    line[n] = '\0';
    return strstr(line, text) != NULL;
}

/* The first row holding text, or -1. */
static int row_of(const screen_t *s, const char *text)
{
    for (int y = 0; y < s->h; y++)
        if (row_has(s, y, text))
            return y;
    return -1;
}

static int screen_has(const screen_t *s, const char *text)
{
    for (int y = 0; y < s->h; y++)
        if (row_has(s, y, text))
            return 1;
    return 0;
}

/* Checks the invariants of the monsters: on walkable tiles, never two on a
 * tile, never on the player. */
static void check_no_stacking(const game_t *g)
{
    uint8_t taken[MAP_H][MAP_W];
    memset(taken, 0, sizeof taken);
    taken[g->player.y][g->player.x] = 1;
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *a = &g->monsters[i];
        if (!a->alive)
            continue;
        ck_assert(map_walkable(&g->map, a->x, a->y));
        ck_assert_msg(!taken[a->y][a->x], "two on (%d, %d)", a->x, a->y);
        taken[a->y][a->x] = 1;
    }
}

START_TEST(spawn_0_to_3_in_each_room_but_the_first)
{
    int per_count[4] = { 0 }, total = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        game_t *g = game_new(seed, NULL);
        check_no_stacking(g);
        int in_room[MAP_MAX_ROOMS] = { 0 };
        for (int i = 0; i < MAX_MONSTERS; i++) {
            const monster_t *m = &g->monsters[i];
            if (!m->alive)
                continue;
            total++;
            ck_assert_int_eq(m->hp, monster_stats(m->kind)->hp);
            ck_assert_int_ne(m->kind, MON_SKELETON); /* depth 2 and below */
            int room = -1;
            for (int r = 0; r < g->map.nrooms; r++) {
                const rect_t *rc = &g->map.rooms[r];
                if (m->x >= rc->x && m->x < rc->x + rc->w && m->y >= rc->y &&
                    m->y < rc->y + rc->h)
                    room = r;
            }
            ck_assert_int_ge(room, 1); /* never the first room */
            in_room[room]++;
        }
        for (int r = 1; r < g->map.nrooms; r++) {
            ck_assert_int_le(in_room[r], 3);
            per_count[in_room[r]]++;
        }
        game_free(g);
    }
    for (int n = 0; n <= 3; n++)
        ck_assert_int_gt(per_count[n], 0);
    ck_assert_int_gt(total, 200);
}
END_TEST

START_TEST(no_stacking_in_play)
{
    static const int keys[] = { 'h', 'j', 'k', 'l', 'y', 'u', 'b', 'n', '.' };
    for (int r = 0; r < RULES_COUNT; r++)
        for (uint64_t seed = 1; seed <= 8; seed++) {
            game_options_t o = { .ruleset = r };
            game_t *g = game_new(seed, &o);
            rng_t k;
            rng_seed(&k, seed);
            for (int i = 0; i < 400 && !game_dead(g); i++) {
                game_key(g, keys[rng_range(&k, 0, 8)]);
                check_no_stacking(g);
            }
            game_free(g);
        }
}
END_TEST

START_TEST(bump_to_attack)
{
    game_t *g = arena(RULES_ATTACK_DEFENSE);
    int i = game_place_monster(g, MON_TROLL, 11, 8);
    ck_assert_int_ge(i, 0);
    ck_assert_int_eq(game_key(g, 'l'), 1);
    ck_assert_int_eq(g->player.x, 10); /* attacked, did not move */
    ck_assert_int_eq(g->turn, 1);
    ck_assert(log_has(g, "You hit the troll for "));
    /* 5 less the troll's 3 (game version 8): 2, or a critical 4 */
    ck_assert(g->monsters[i].hp == 14 || g->monsters[i].hp == 12);
    /* ...and the troll, next to the player, hit back in the same turn. */
    ck_assert(log_has(g, "The troll hits you for "));
    ck_assert_int_lt(g->player.hp, 30);
    game_free(g);
}
END_TEST

START_TEST(adjacent_monsters_attack_in_8_directions)
{
    game_t *g = arena(RULES_POWER);
    game_place_monster(g, MON_ORC, 11, 9); /* diagonal */
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert_int_eq(g->player.hp, 26);
    ck_assert_str_eq(game_msg(g, 0)->text, "The orc hits you for 4. (You: 26 hp)");
    ck_assert_int_eq(game_msg(g, 0)->kind, MSG_BAD);
    game_free(g);
}
END_TEST

START_TEST(only_turns_advance_monsters)
{
    game_t *g = arena(RULES_POWER);
    int i = game_place_monster(g, MON_GOBLIN, 16, 8);
    static const int no_turn[] = { '?', 'x', 'P', KEY_ESC, 'x', ' ', 'Q', 'n' };
    for (size_t k = 0; k < sizeof no_turn / sizeof no_turn[0]; k++)
        ck_assert_int_eq(game_key(g, no_turn[k]), 0);
    ck_assert_int_eq(g->monsters[i].x, 16);
    ck_assert_int_eq(g->turn, 0);
    /* A wall bump takes no turn either. */
    g->player.x = 1;
    fov_compute(&g->map, 1, 8, FOV_RADIUS, g->visible);
    game_derive(g); /* visible[][] written by hand (world.h) */
    ck_assert_int_eq(game_key(g, 'h'), 0);
    ck_assert_int_eq(g->monsters[i].x, 16);
    /* A wait does: the goblin, in view, comes one step closer. */
    g->player.x = 10;
    fov_compute(&g->map, 10, 8, FOV_RADIUS, g->visible);
    game_derive(g); /* visible[][] written by hand (world.h) */
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert_int_eq(chebyshev(g->monsters[i].x, g->monsters[i].y, 10, 8), 5);
    game_free(g);
}
END_TEST

START_TEST(chase_then_attack)
{
    game_t *g = arena(RULES_POWER);
    int i = game_place_monster(g, MON_RAT, 16, 12); /* in view: 36 + 16 <= 64 */
    for (int d = 5; d >= 1; d--) {
        game_key(g, '.');
        ck_assert_int_eq(chebyshev(g->monsters[i].x, g->monsters[i].y, 10, 8), d);
    }
    ck_assert_int_eq(g->player.hp, 30);
    game_key(g, '.');
    ck_assert_int_eq(g->player.hp, 29);
    game_free(g);
}
END_TEST

START_TEST(hurt_monsters_flee_and_heal)
{
    game_t *g = arena(RULES_POWER);
    int i = game_place_monster(g, MON_GOBLIN, 11, 8);
    g->monsters[i].hp = 1; /* below 30% of 6 */
    game_key(g, '.');
    ck_assert_int_eq(chebyshev(g->monsters[i].x, g->monsters[i].y, 10, 8), 2);
    ck_assert_int_eq(g->player.hp, 30); /* it ran instead of hitting */
    for (int t = 0; t < 3; t++)
        game_key(g, '.');
    ck_assert_int_eq(chebyshev(g->monsters[i].x, g->monsters[i].y, 10, 8), 5);
    /* Every MONSTER_REGEN_TURNS turns it heals 1; at 2 of 6 it is no
     * longer below 30% and, in view, comes back to fight. */
    while (g->turn < MONSTER_REGEN_TURNS)
        game_key(g, '.');
    ck_assert_int_eq(g->monsters[i].hp, 2);
    g->monsters[i].x = 13;
    g->monsters[i].y = 8;
    game_key(g, '.');
    ck_assert_int_eq(chebyshev(g->monsters[i].x, g->monsters[i].y, 10, 8), 2);
    game_free(g);
}
END_TEST

START_TEST(kill_leaves_corpse_and_gold)
{
    game_t *g = arena(RULES_POWER);
    int i = game_place_monster(g, MON_KOBOLD, 11, 8);
    game_key(g, 'l'); /* power 5 against 5 hp */
    ck_assert(!g->monsters[i].alive);
    ck_assert_int_eq(g->kills, 1);
    ck_assert_int_eq(g->player.xp, monster_stats(MON_KOBOLD)->xp);
    int gold = -1, corpse = 0;
    for (int k = 0; k < MAX_ITEMS; k++) {
        const item_t *it = &g->items[k];
        if (it->type == ITEM_GOLD && it->x == 11 && it->y == 8)
            gold = it->amount;
        if (it->type == ITEM_CORPSE && it->x == 11 && it->y == 8)
            corpse = it->kind == MON_KOBOLD;
    }
    ck_assert(corpse);
    ck_assert(gold >= 1 && gold <= 4);
    char want[80];
    snprintf(want, sizeof want, "The kobold dies, dropping %d gold. (+10 XP)", gold);
    ck_assert_str_eq(game_msg(g, 0)->text, want);
    ck_assert_int_eq(game_msg(g, 0)->kind, MSG_KILL);
    ck_assert_str_eq(game_msg(g, 1)->text, "You hit the kobold for 5. (Kobold: 0 hp)");
    ck_assert_int_eq(game_msg(g, 1)->kind, MSG_GOOD);

    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert_uint_eq(screen_cat(&s, 11, 8)->ch, '$');
    /* The corpse does not block; the gold is picked up by walking on it. */
    ck_assert_int_eq(game_key(g, 'l'), 1);
    ck_assert_int_eq(g->player.x, 11);
    ck_assert_int_eq(g->player.gold, gold);
    snprintf(want, sizeof want, "You pick up %d gold.", gold);
    ck_assert(log_has(g, want));
    game_key(g, 'h');
    view_draw(g, &s);
    ck_assert_uint_eq(screen_cat(&s, 11, 8)->ch, '%');
    ck_assert_int_eq(g->player.gold, gold); /* picked up once */
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(xp_and_level_thresholds)
{
    game_t *g = arena(RULES_POWER);
    ck_assert_int_eq(game_xp_next(1), 100);
    ck_assert_int_eq(game_xp_next(2), 250);
    ck_assert_int_eq(game_xp_next(3), 450);
    ck_assert_int_eq(game_xp_next(5), 1000);
    g->player.hp = 10;
    game_gain_xp(g, 99);
    ck_assert_int_eq(g->player.level, 1);
    ck_assert_int_eq(g->player.hp, 10);
    game_gain_xp(g, 1);
    ck_assert_int_eq(g->player.level, 2);
    ck_assert_int_eq(g->player.max_hp, 35);
    ck_assert_int_eq(g->player.hp, 15); /* +5, no full heal */
    ck_assert_int_eq(g->player.attack, 6);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You reach level 2! Max HP 35, attack +1.");
    ck_assert_int_eq(game_msg(g, 0)->kind, MSG_LEVEL);
    /* 100 -> 600 passes both 250 (level 3) and 450 (level 4), not 700. */
    game_gain_xp(g, 500);
    ck_assert_int_eq(g->player.level, 4);
    ck_assert_int_eq(g->player.max_hp, 45);
    ck_assert_int_eq(g->player.attack, 8);
    /* The extra attack counts: power 8 now. */
    game_place_monster(g, MON_TROLL, 11, 8);
    game_key(g, 'l');
    ck_assert(log_has(g, "You hit the troll for 8."));
    game_free(g);
}
END_TEST

START_TEST(resting_heals_only_with_nothing_in_view)
{
    game_t *g = arena(RULES_POWER);
    g->player.hp = 20;
    game_key(g, '.');
    ck_assert_int_eq(g->player.hp, 21);
    game_key(g, '5');
    ck_assert_int_eq(g->player.hp, 22);
    g->player.hp = g->player.max_hp;
    game_key(g, '.');
    ck_assert_int_eq(g->player.hp, g->player.max_hp); /* not above max */
    g->player.hp = 20;
    game_place_monster(g, MON_RAT, 17, 8);
    game_key(g, '.');
    ck_assert_int_eq(g->player.hp, 20);
    game_free(g);
}
END_TEST

START_TEST(death_screen_and_choices)
{
    game_t *g = arena(RULES_POWER);
    g->player.hp = 5;
    game_place_monster(g, MON_TROLL, 9, 7);
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert(game_dead(g));
    ck_assert(!game_over(g));
    ck_assert_int_eq(g->player.hp, 0);
    ck_assert_int_eq(g->killer, MON_TROLL + 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You die, killed by a troll.");
    ck_assert_str_eq(game_msg(g, 1)->text, "The troll hits you for 5. (You: 0 hp)");
    char cause[64];
    ck_assert_str_eq(game_death_cause(g, cause, sizeof cause), "killed by a troll");
    /* The core takes no more keys: the host decides. */
    uint32_t turn = g->turn;
    ck_assert_int_eq(game_key(g, 'l'), 0);
    ck_assert_int_eq(game_key(g, '.'), 0);
    ck_assert_int_eq(g->turn, turn);
    ck_assert(game_dead(g));
    ck_assert_int_eq(game_dead_choice(' '), 1);
    ck_assert_int_eq(game_dead_choice('r'), 1);
    ck_assert_int_eq(game_dead_choice('R'), 0); /* rest: not a new game */
    ck_assert_int_eq(game_dead_choice('Q'), -1);
    ck_assert_int_eq(game_dead_choice(KEY_ESC), -1);
    ck_assert_int_eq(game_dead_choice('q'), -1);
    ck_assert_int_eq(game_dead_choice('x'), 0);
    ck_assert_int_eq(game_dead_choice(KEY_UP), 0);

    g->player.gold = 12;
    g->player.xp = 40;
    g->kills = 3;
    ck_assert_int_eq(game_score(g), 52);
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert(screen_has(&s, "YOU DIED"));
    ck_assert(screen_has(&s, "killed by a troll"));
    ck_assert(screen_has(&s, "Depth: 1   Turns: 1   Kills: 3"));
    ck_assert(screen_has(&s, "Score: 52"));
    ck_assert(screen_has(&s, "Space or r: a new game    Esc or q: leave"));
    ck_assert(screen_has(&s, "+--------"));
    ck_assert(screen_has(&s, "You die, killed by a troll."));
    /* A replay's or a watcher's host says its own keys there instead,
     * in the frame, at every size. */
    int keys_row = -1;
    for (int y = 0; y < s.h; y++)
        if (row_has(&s, y, "Space or r: a new game"))
            keys_row = y;
    view_end_keys(g, &s, "Esc or q: back to the lobby");
    ck_assert(row_has(&s, keys_row, "|          Esc or q: back to the lobby"
                                    "           |"));
    ck_assert(!screen_has(&s, "new game"));
    ck_assert(screen_has(&s, "Score: 52"));
    screen_free(&s);
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert(screen_has(&s, "Space/r: new game  Esc/q: leave"));
    view_end_keys(g, &s, "Esc or q: back to the lobby");
    ck_assert(screen_has(&s, "|     Esc or q: back to the lobby      |"));
    ck_assert(!screen_has(&s, "new game"));
    screen_free(&s);
    /* The score counts the depth, not the character's level (docs/game.md,
     * "Score"): depth 4 at level 2 with 227 XP and 72 gold. */
    g->depth = 4;
    g->player.level = 2;
    g->player.xp = 227;
    g->player.gold = 72;
    ck_assert_int_eq(game_score(g), 227 + 72 + 300);
    game_free(g);
}
END_TEST

START_TEST(hp_colour_and_bar)
{
    game_t *g = arena(RULES_POWER);
    screen_t s;
    screen_init(&s, 80, 24);
    static const struct { int hp; uint8_t fg; const char *text; } cases[] = {
        { 30, COL_BGREEN, "HP: 30/30 [==========]" },
        { 19, COL_BGREEN, "HP: 19/30 [======----]" },  /* 63% */
        { 18, COL_BYELLOW, "HP: 18/30 [======----]" }, /* 60%: not above */
        { 10, COL_BYELLOW, "HP: 10/30 [===-------]" }, /* 33% */
        { 9, COL_BRED, "HP: 9/30 [===-------]" },      /* 30% */
        { 3, COL_BRED, "HP: 3/30 [=---------]" },       /* rounded down */
        { 29, COL_BGREEN, "HP: 29/30 [=========-]" },  /* full only at max */
        { 1, COL_BRED, "HP: 1/30 [=---------]" },       /* never empty alive */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        g->player.hp = cases[i].hp;
        view_draw(g, &s);
        ck_assert_msg(row_has(&s, 23, cases[i].text), "hp %d", cases[i].hp);
        ck_assert_uint_eq(screen_cat(&s, 0, 23)->fg, cases[i].fg);
        /* The bar's first cell (after "HP: a/b [") is filled, in colour. */
        int bar = (int)(strchr(cases[i].text, '[') - cases[i].text) + 1;
        ck_assert_uint_eq(screen_cat(&s, bar, 23)->ch, '=');
        ck_assert_uint_eq(screen_cat(&s, bar, 23)->fg, cases[i].fg);
    }
    ck_assert(row_has(&s, 23, "Lvl:1  XP:0/100  Gold:0  Depth:1  Turn:0"));
    g->player.poison = 3;
    view_draw(g, &s);
    ck_assert(row_has(&s, 23, "Turn:0  Poisoned"));
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(monsters_drawn_only_in_view)
{
    game_t *g = arena(RULES_POWER);
    game_place_monster(g, MON_ORC, 14, 8);  /* 4 away: in view */
    game_place_monster(g, MON_TROLL, 35, 8); /* 25 away: out of view */
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert_uint_eq(screen_cat(&s, 14, 8)->ch, 'o');
    ck_assert_uint_eq(screen_cat(&s, 14, 8)->fg, monster_stats(MON_ORC)->colour);
    ck_assert_uint_eq(screen_cat(&s, 35, 8)->ch, ' ');
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(history_pages_the_whole_log)
{
    game_t *g = arena(RULES_POWER);
    for (int i = 0; i < 60; i++)
        game_log(g, MSG_INFO, "history line %d", i);
    ck_assert_int_eq(game_key(g, 'P'), 0);
    ck_assert_int_eq(g->mode, MODE_HISTORY);
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    int n = g->log_count;
    char want[64];
    snprintf(want, sizeof want, "lines %d-%d of %d", n - 21, n, n);
    ck_assert(row_has(&s, 0, want));
    ck_assert(row_has(&s, 22, "history line 59"));
    ck_assert(row_has(&s, 1, "history line 38"));
    ck_assert(row_has(&s, 23, "Esc: back"));
    game_key(g, 'k'); /* one line back */
    view_draw(g, &s);
    ck_assert(row_has(&s, 22, "history line 58"));
    game_key(g, KEY_PGUP); /* a page back */
    view_draw(g, &s);
    ck_assert(row_has(&s, 22, "history line 37"));
    game_key(g, 'g'); /* the oldest: the welcome */
    view_draw(g, &s);
    ck_assert(row_has(&s, 1, "Welcome to the dungeon"));
    game_key(g, KEY_END);
    view_draw(g, &s);
    ck_assert(row_has(&s, 22, "history line 59"));
    /* A taller terminal shows more at once. */
    screen_resize(&s, 80, 40);
    view_draw(g, &s);
    ck_assert(row_has(&s, 38, "history line 59"));
    ck_assert(row_has(&s, 1, "history line 22"));
    ck_assert_int_eq(game_key(g, KEY_ESC), 0);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_int_eq(g->turn, 0);
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(log_shows_3_lines_at_80x24_and_6_when_taller)
{
    game_t *g = arena(RULES_POWER);
    for (int i = 0; i < 8; i++)
        game_log(g, MSG_GOOD, "fight line %d", i);
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert(row_has(&s, 22, "fight line 7"));
    ck_assert(row_has(&s, 21, "fight line 6"));
    ck_assert(row_has(&s, 20, "fight line 5"));
    /* The map's last row (border wall) is blanked for the log. */
    ck_assert_uint_eq(screen_cat(&s, 40, 20)->ch, ' ');
    /* Nothing was keyed yet: every line is new, in its colour, bold. */
    ck_assert_uint_eq(screen_cat(&s, 0, 22)->fg, COL_BGREEN);
    ck_assert_uint_eq(screen_cat(&s, 0, 22)->attr, ATTR_BOLD);
    screen_resize(&s, 80, 27);
    view_draw(g, &s);
    for (int i = 0; i < 6; i++) {
        char want[32];
        snprintf(want, sizeof want, "fight line %d", 7 - i);
        ck_assert(row_has(&s, 25 - i, want));
    }
    /* A key that logs: its line stands out, the older ones go grey. */
    game_key(g, '.'); /* no line: a turn, so the fresh mark moves */
    game_key(g, 'Z');
    ck_assert(game_msg_is_new(g, 0));
    ck_assert(!game_msg_is_new(g, 1));
    view_draw(g, &s);
    ck_assert(row_has(&s, 25, "Unknown key 'Z'. Press ? for help."));
    ck_assert_uint_eq(screen_cat(&s, 0, 25)->fg, COL_WHITE);
    ck_assert_uint_eq(screen_cat(&s, 0, 25)->attr, ATTR_BOLD);
    ck_assert_uint_eq(screen_cat(&s, 0, 24)->fg, COL_GREY);
    ck_assert_uint_eq(screen_cat(&s, 0, 24)->attr, 0);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* The bench's bot, short: hit a neighbour, else walk to the nearest monster. */
static int bot_key(const game_t *g)
{
    static const char keys[3][3] = { { 'y', 'k', 'u' }, { 'h', '.', 'l' },
                                     { 'b', 'j', 'n' } };
    const player_t *p = &g->player;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && game_monster_at(g, p->x + dx, p->y + dy) >= 0)
                return keys[dy + 1][dx + 1];
    dmap_t d;
    ai_distance_map(&g->map, p->x, p->y, &d);
    int best = -1;
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *m = &g->monsters[i];
        if (m->alive && (best < 0 || d.v[m->y][m->x] <
                                         d.v[g->monsters[best].y][g->monsters[best].x]))
            best = i;
    }
    if (best < 0)
        return '.';
    ai_distance_map(&g->map, g->monsters[best].x, g->monsters[best].y, &d);
    int nx, ny;
    if (!ai_step_down(&g->map, &d, NULL, p->x, p->y, &nx, &ny))
        return '.';
    return keys[ny - p->y + 1][nx - p->x + 1];
}

START_TEST(whole_fight_replays_from_seed_and_keys)
{
    for (int r = 0; r < RULES_COUNT; r++) {
        game_options_t o = { .ruleset = r };
        int keys[600], n = 0;
        game_t *a = game_new(4242, &o);
        /* Play until 3 kills or death, recording the keys. */
        while (n < 600 && !game_dead(a) && a->kills < 3) {
            keys[n] = bot_key(a);
            game_key(a, keys[n++]);
        }
        ck_assert_msg(a->kills >= 1 || game_dead(a), "no fight in %d keys", n);
        game_t *b = game_new(4242, &o);
        for (int i = 0; i < n; i++)
            game_key(b, keys[i]);
        ck_assert_int_eq(a->log_count, b->log_count);
        int hits = 0;
        for (int i = 0; game_msg(a, i); i++) {
            ck_assert_str_eq(game_msg(a, i)->text, game_msg(b, i)->text);
            ck_assert_int_eq(game_msg(a, i)->kind, game_msg(b, i)->kind);
            hits += game_msg(a, i)->kind == MSG_GOOD;
        }
        ck_assert_int_gt(hits, 0);
        ck_assert_uint_eq(game_hash(a), game_hash(b));
        game_free(a);
        game_free(b);
    }
}
END_TEST

START_TEST(options_pick_the_ruleset)
{
    game_options_t o = { .ruleset = RULES_D10 };
    game_t *g = game_new(5, &o);
    ck_assert_int_eq(g->opt.ruleset, RULES_D10);
    game_free(g);
    g = game_new(5, NULL);
    ck_assert_int_eq(g->opt.ruleset, RULES_ATTACK_DEFENSE);
    game_free(g);
    o.ruleset = 99; /* out of range: the default */
    g = game_new(5, &o);
    ck_assert_int_eq(g->opt.ruleset, RULES_ATTACK_DEFENSE);
    screen_t s;
    screen_init(&s, 80, 24);
    game_key(g, '?');
    view_draw(g, &s);
    ck_assert(screen_has(&s, "Combat rules on this server: attack-defense"));
    ck_assert(screen_has(&s, "P  (history)"));
    screen_free(&s);
    game_free(g);
}
END_TEST

/* Help page 2 explains the blows of the game's own ruleset, at full size
 * and at 40x20: the dice-pool's d100 rolls only where they are rolled. */
START_TEST(help_page_2_explains_the_games_ruleset)
{
    static const struct { const char *example, *wide, *narrow; } want[] = {
        [RULES_ATTACK_DEFENSE] = {
            "Blows: \"You hit the orc for 4 damage!\"",
            "Every blow hits, for attack - defense (never below 0); one "
            "blow in ten is a",
            "critical hit, for double." },
        [RULES_POWER] = {
            "Blows: \"The goblin hits you for 3. (You: 27 hp)\"",
            "Every blow hits, for the attacker's power; the armour you "
            "wear takes its",
            "defense + 1 off each blow on you." },
        [RULES_D10] = {
            "Blows: \"You swing your fist at the skeleton and hit for 2.\"",
            "A blow hits if a d10 + the weapon's to-hit beats the "
            "defender's armour class;",
            "absorbs (never below 0)." },
        [RULES_DICE_POOL] = {
            "Blows: \"You hit the orc: [12 88 95] 2 vs [40 97] 1 = 1 "
            "damage.\"",
            "[..] are the d100 rolls; a roll of 100 - chance or more is a "
            "hit (a block for",
            "defender); damage = hits - blocks." },
    };
    for (int r = 0; r < RULES_COUNT; r++) {
        game_options_t o = { .ruleset = r };
        game_t *g = game_new(5, &o);
        game_key(g, '?');
        game_key(g, '?');
        screen_t s;
        screen_init(&s, 80, 24);
        view_draw(g, &s);
        ck_assert_msg(screen_has(&s, want[r].example), "ruleset %d", r);
        ck_assert_msg(screen_has(&s, want[r].wide), "ruleset %d", r);
        ck_assert_msg(screen_has(&s, "d100") == (r == RULES_DICE_POOL),
                      "ruleset %d", r);
        screen_free(&s);
        screen_init(&s, 40, 20);
        view_draw(g, &s);
        ck_assert_msg(screen_has(&s, want[r].narrow), "ruleset %d", r);
        ck_assert_msg(screen_has(&s, "d100") == (r == RULES_DICE_POOL),
                      "ruleset %d", r);
        screen_free(&s);
        game_free(g);
    }
}
END_TEST

/* On a screen taller than 24 rows both help pages are centred, page 2 as
 * page 1 (a terminal QA at 250x70 found page 2 at the top and its footer
 * on the last row, 50 rows under it); at 80x24 page 2 fills the screen to
 * its last row, as it always has. */
START_TEST(both_help_pages_are_centred_on_a_tall_screen)
{
    static const int sizes[][2] = { { 250, 70 }, { 100, 40 }, { 80, 24 } };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int w = sizes[i][0], h = sizes[i][1];
        game_t *g = game_new(5, NULL);
        screen_t s;
        screen_init(&s, w, h);
        game_key(g, '?');
        view_draw(g, &s);
        int keys = row_of(&s, "Keys (? again: monsters and rules)");
        screen_free(&s);
        screen_init(&s, w, h);
        game_key(g, '?');
        view_draw(g, &s);
        int top = row_of(&s, "Monsters (from the top of the dungeon down)");
        int foot = row_of(&s, "Combat rules on this server: attack-defense. "
                          "Any key returns.");
        ck_assert_int_eq(top, (h - 24) / 2);
        ck_assert_int_eq(foot, top + 23);
        ck_assert_msg(keys == top, "%dx%d: page 1 at row %d, page 2 at %d",
                      w, h, keys, top);
        screen_free(&s);
        game_free(g);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("fight");
    TCase *tc = tcase_create("fight");
    tcase_add_test(tc, spawn_0_to_3_in_each_room_but_the_first);
    tcase_add_test(tc, no_stacking_in_play);
    tcase_add_test(tc, bump_to_attack);
    tcase_add_test(tc, adjacent_monsters_attack_in_8_directions);
    tcase_add_test(tc, only_turns_advance_monsters);
    tcase_add_test(tc, chase_then_attack);
    tcase_add_test(tc, hurt_monsters_flee_and_heal);
    tcase_add_test(tc, kill_leaves_corpse_and_gold);
    tcase_add_test(tc, xp_and_level_thresholds);
    tcase_add_test(tc, resting_heals_only_with_nothing_in_view);
    tcase_add_test(tc, death_screen_and_choices);
    tcase_add_test(tc, hp_colour_and_bar);
    tcase_add_test(tc, monsters_drawn_only_in_view);
    tcase_add_test(tc, history_pages_the_whole_log);
    tcase_add_test(tc, log_shows_3_lines_at_80x24_and_6_when_taller);
    tcase_add_test(tc, whole_fight_replays_from_seed_and_keys);
    tcase_add_test(tc, options_pick_the_ruleset);
    tcase_add_test(tc, help_page_2_explains_the_games_ruleset);
    tcase_add_test(tc, both_help_pages_are_centred_on_a_tall_screen);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
