/* test_game.c - the game core through its public API: determinism, turns,
 * movement, modes, and the view's layout. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "game.h"
#include "keys.h"
#include "rng.h"
#include "view.h"

/* Finds a direction the player can move in, or returns 0. */
static int open_direction(const game_t *g, int *key)
{
    static const struct { int key, dx, dy; } d[] = {
        { 'l', 1, 0 }, { 'h', -1, 0 }, { 'j', 0, 1 }, { 'k', 0, -1 },
    };
    for (int i = 0; i < 4; i++)
        if (map_walkable(&g->map, g->player.x + d[i].dx, g->player.y + d[i].dy)) {
            *key = d[i].key;
            return 1;
        }
    return 0;
}

START_TEST(new_game_starts_in_first_room)
{
    game_t *g = game_new(42, NULL);
    ck_assert_ptr_nonnull(g);
    int cx, cy;
    rect_center(&g->map.rooms[0], &cx, &cy);
    ck_assert_int_eq(g->player.x, cx);
    ck_assert_int_eq(g->player.y, cy);
    ck_assert_int_eq(g->player.hp, 30);
    ck_assert_int_eq(g->player.max_hp, 30);
    ck_assert_int_eq(g->turn, 0);
    ck_assert_int_eq(g->depth, 1);
    ck_assert(game_lit(g, cx, cy));
    ck_assert(map_known(&g->map, cx, cy));
    ck_assert_str_eq(game_msg(g, 1)->text, "Welcome to the dungeon, adventurer!");
    ck_assert_ptr_nonnull(strstr(game_msg(g, 0)->text, "Press ? for help"));
    game_free(g);
}
END_TEST

START_TEST(determinism_seed_and_keys)
{
    static const int keyset[] = { 'h', 'j', 'k', 'l', 'y', 'u', 'b', 'n', '.',
                                  '5', '1', '3', '7', '9', KEY_UP, KEY_DOWN,
                                  KEY_LEFT, KEY_RIGHT, '?', 'x', KEY_ESC };
    const int n = sizeof keyset / sizeof keyset[0];
    uint64_t hashes[2];
    screen_t s[2];
    for (int run = 0; run < 2; run++) {
        game_t *g = game_new(1234567, NULL);
        rng_t keys;
        rng_seed(&keys, 99);
        for (int i = 0; i < 1000; i++)
            game_key(g, keyset[rng_range(&keys, 0, n - 1)]);
        hashes[run] = game_hash(g);
        screen_init(&s[run], 80, 24);
        view_draw(g, &s[run]);
        game_free(g);
    }
    ck_assert_uint_eq(hashes[0], hashes[1]);
    ck_assert(screen_equal(&s[0], &s[1]));
    screen_free(&s[0]);
    screen_free(&s[1]);
}
END_TEST

START_TEST(different_seeds_differ)
{
    game_t *a = game_new(1, NULL), *b = game_new(2, NULL);
    ck_assert_uint_ne(game_hash(a), game_hash(b));
    ck_assert(memcmp(a->map.tile, b->map.tile, sizeof a->map.tile) != 0);
    game_free(a);
    game_free(b);
}
END_TEST

START_TEST(move_takes_a_turn)
{
    game_t *g = game_new(7, NULL);
    int key, x = g->player.x, y = g->player.y;
    ck_assert(open_direction(g, &key));
    ck_assert_int_eq(game_key(g, key), 1);
    ck_assert_int_eq(g->turn, 1);
    ck_assert_int_eq(abs(g->player.x - x) + abs(g->player.y - y), 1);
    game_free(g);
}
END_TEST

START_TEST(wall_blocks_without_a_turn)
{
    game_t *g = game_new(7, NULL);
    /* Walk left until blocked: rooms are bounded by walls. */
    for (int i = 0; i < MAP_W && map_walkable(&g->map, g->player.x - 1, g->player.y); i++)
        game_key(g, 'h');
    uint32_t turn = g->turn;
    int x = g->player.x;
    ck_assert_int_eq(game_key(g, 'h'), 0);
    ck_assert_int_eq(g->turn, turn);
    ck_assert_int_eq(g->player.x, x);
    ck_assert_str_eq(game_msg(g, 0)->text, "There is a wall in the way.");
    game_free(g);
}
END_TEST

START_TEST(every_key_family_moves)
{
    /* Each family's "right" key moves one step east on an open tile. */
    static const int right[] = { 'l', '6', KEY_RIGHT };
    for (int i = 0; i < 3; i++) {
        game_t *g = game_new(11, NULL);
        /* Find a seed-independent spot: step back west first if needed. */
        if (!map_walkable(&g->map, g->player.x + 1, g->player.y))
            game_key(g, 'h');
        int x = g->player.x;
        ck_assert(map_walkable(&g->map, x + 1, g->player.y));
        ck_assert_int_eq(game_key(g, right[i]), 1);
        ck_assert_int_eq(g->player.x, x + 1);
        game_free(g);
    }
}
END_TEST

START_TEST(wait_keys_take_a_turn)
{
    game_t *g = game_new(3, NULL);
    int x = g->player.x, y = g->player.y;
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert_int_eq(game_key(g, '5'), 1);
    ck_assert_int_eq(g->turn, 2);
    ck_assert_int_eq(g->player.x, x);
    ck_assert_int_eq(g->player.y, y);
    game_free(g);
}
END_TEST

START_TEST(help_and_quit_modes)
{
    game_t *g = game_new(3, NULL);
    ck_assert_int_eq(game_key(g, '?'), 0);
    ck_assert_int_eq(g->mode, MODE_HELP);
    game_key(g, 'l'); /* any key leaves help and does nothing else */
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_int_eq(g->turn, 0);
    game_key(g, 'Q');
    ck_assert_int_eq(g->mode, MODE_QUIT_PROMPT);
    ck_assert_str_eq(game_msg(g, 0)->text, "Really quit? (y/n)");
    game_key(g, 'n');
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert(!game_over(g));
    game_key(g, 'Q');
    game_key(g, 'y');
    ck_assert(game_over(g));
    game_free(g);
}
END_TEST

START_TEST(fov_remembers_explored_tiles)
{
    game_t *g = game_new(5, NULL);
    int before = 0, after = 0;
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            before += map_known(&g->map, x, y);
    rng_t r;
    rng_seed(&r, 5);
    static const char moves[] = "hjklyubn";
    for (int i = 0; i < 300; i++)
        game_key(g, moves[rng_range(&r, 0, 7)]);
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++) {
            after += map_known(&g->map, x, y);
            /* everything in view is explored */
            if (game_lit(g, x, y))
                ck_assert(map_known(&g->map, x, y));
        }
    ck_assert_int_ge(after, before);
    game_free(g);
}
END_TEST

START_TEST(log_ring_keeps_newest)
{
    game_t *g = game_new(1, NULL);
    for (int i = 0; i < LOG_MAX + 10; i++)
        game_log(g, MSG_INFO, "line %d", i);
    char want[32];
    snprintf(want, sizeof want, "line %d", LOG_MAX + 9);
    ck_assert_str_eq(game_msg(g, 0)->text, want);
    ck_assert_str_eq(game_msg(g, LOG_MAX - 1)->text, "line 10");
    ck_assert_ptr_null(game_msg(g, LOG_MAX));
    game_free(g);
}
END_TEST

/* h folded (FNV-1a) with every line of the log, newest first: its text,
 * kind and repeat (not how the log lays them out in memory). */
static uint64_t log_lines_hash(const game_t *g, uint64_t h)
{
    for (int i = 0; game_msg(g, i); i++) {
        const msg_t *m = game_msg(g, i);
        for (const char *c = m->text; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull;
        h = (h ^ m->kind) * 1099511628211ull;
        h = (h ^ m->repeat) * 1099511628211ull;
    }
    return h;
}

/* Repeated lines merge into the newest, " (xN)" cutting a long line to
 * fit, up to 255 times, a line of another kind or text starting anew, in
 * every form of the call (no conversion, "%s", printf's): the log's lines
 * after each line logged, folded into one number pinned from the merge
 * as it was before it compared in place (docs/performance.md, "The draw
 * and the turn, cheaper"), and before the lines were records of their
 * own length (game version 10: the same lines, as many as fit). */
START_TEST(repeated_lines_merge_as_pinned)
{
    static const int lens[] = { 10, 70, 73, 74, 75, 76, 77, 78, 79, 90 };
    game_t *g = game_new(1, NULL);
    char text[128];
    uint64_t h = 1469598103934665603ull;
    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
        for (int i = 0; i < lens[l]; i++)
            text[i] = (char)('a' + (i + (int)l) % 26);
        text[lens[l]] = 0;
        for (int n = 0; n < 270; n++) {
            int kind = l > 0 && n % 97 == 96 ? MSG_BAD : MSG_INFO;
            if (n % 3 == 0)
                game_log(g, kind, "%s", text);
            else if (n % 3 == 1) {
                /* the text as the format itself (it holds no '%') */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
                game_log(g, kind, text);
#pragma GCC diagnostic pop
            } else
                game_log(g, kind, "%.*s", lens[l], text);
            h = log_lines_hash(g, h);
        }
    }
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "jklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcd (x76)");
    ck_assert_msg(h == 0xa9a2a0ff03e2a69dull, "the log hashes to 0x%016llx",
                  (unsigned long long)h);
    game_free(g);
}
END_TEST

static int row_has(const screen_t *s, int y, const char *text)
{
    char line[512];
    int n = s->w < 511 ? s->w : 511;
    for (int x = 0; x < n; x++)
        line[x] = (char)screen_cat(s, x, y)->ch;
    line[n] = '\0';
    return strstr(line, text) != NULL;
}

/* 1 if row y of s is all blank. */
static int row_blank(const screen_t *s, int y)
{
    for (int x = 0; x < s->w; x++)
        if (screen_cat(s, x, y)->ch != ' ')
            return 0;
    return 1;
}

START_TEST(view_layout_80x24_and_120x40)
{
    game_t *g = game_new(9, NULL);
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert_uint_eq(screen_cat(&s, g->player.x, g->player.y)->ch, '@');
    ck_assert(row_has(&s, 23, "HP: 30/30"));
    ck_assert(row_has(&s, 22, "Press ? for help"));
    ck_assert(row_has(&s, 21, "Welcome"));
    ck_assert_uint_eq(screen_cat(&s, 0, 23)->fg, COL_BGREEN);
    screen_resize(&s, 120, 40);
    view_draw(g, &s);
    /* Two lines: at the bottom of the log's twelve rows (VIEW_LOG_MAX),
     * next to the status line under them; the rows below blank. */
    ck_assert(row_has(&s, 32, "HP: 30/30"));
    ck_assert(row_has(&s, 30, "Welcome"));
    ck_assert(row_has(&s, 31, "Press ? for help"));
    for (int y = 20; y < 30; y++)
        ck_assert(row_blank(&s, y));
    for (int y = 33; y < 40; y++)
        ck_assert(row_blank(&s, y));
    screen_free(&s);
    game_free(g);
}
END_TEST

/* The rows of the log (the newest at the bottom) hold "tall line k" for
 * k = newest, newest - 1, ... from row bottom up to row top. */
static void assert_log_rows(const screen_t *s, int top, int bottom,
                            int newest)
{
    for (int y = bottom, k = newest; y >= top; y--, k--) {
        char want[32];
        snprintf(want, sizeof want, "tall line %d", k);
        ck_assert_msg(row_has(s, y, want), "row %d: no \"%s\"", y, want);
    }
}

/* On a terminal taller than 80x24 the log takes the rows under the map up
 * to VIEW_LOG_MAX, the newest next to the status line, which sits right
 * under it: map, log and status one block at the top, the rows below
 * blank. */
START_TEST(view_tall_log_and_status_200x50_and_100x30)
{
    game_t *g = game_new(9, NULL);
    screen_t s;
    view_layout_t lo;
    screen_init(&s, 200, 50);
    for (int k = 0; k < 18; k++)
        game_log(g, MSG_INFO, "tall line %d", k);
    view_draw(g, &s);
    view_layout(g, 200, 50, &lo);
    ck_assert_int_eq(lo.log_top, 20);
    ck_assert_int_eq(lo.status_y, 20 + VIEW_LOG_MAX);
    ck_assert_int_eq(view_status_row(200, 50), 32);
    /* The newest twelve lines in rows 20-31, then the status line; the
     * older ones only in the history (P). */
    assert_log_rows(&s, 20, 31, 17);
    ck_assert(row_has(&s, 32, "HP: 30/30"));
    for (int y = 33; y < 50; y++)
        ck_assert(row_blank(&s, y));
    for (int y = 0; y < 50; y++)
        ck_assert(!row_has(&s, y, "tall line 5"));
    /* Looking: the description takes the status line's row. */
    game_key(g, ';');
    view_draw(g, &s);
    ck_assert(row_has(&s, 32, "Look: "));
    ck_assert(row_blank(&s, 33) && row_blank(&s, 49));
    game_key(g, KEY_ESC);
    /* 100x30: room for nine log rows, the status line in the last row. */
    screen_resize(&s, 100, 30);
    view_draw(g, &s);
    ck_assert_int_eq(view_status_row(100, 30), 29);
    assert_log_rows(&s, 20, 28, 17);
    ck_assert(row_has(&s, 29, "HP: 30/30"));
    /* 80x24 as it always was: three lines, the status line last. */
    screen_resize(&s, 80, 24);
    view_draw(g, &s);
    ck_assert_int_eq(view_status_row(80, 24), 23);
    assert_log_rows(&s, 20, 22, 17);
    ck_assert(row_has(&s, 23, "HP: 30/30"));
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(view_too_small)
{
    game_t *g = game_new(9, NULL);
    screen_t s;
    screen_init(&s, 39, 20);
    view_draw(g, &s);
    ck_assert(row_has(&s, 9, "Please enlarge your terminal to 40x20."));
    ck_assert(row_has(&s, 10, "(it is 39x20 now)"));
    ck_assert(row_has(&s, 11, "Q quits the game."));
    game_key(g, 'Q'); /* the question, where the key that asks it was */
    view_draw(g, &s);
    ck_assert(row_has(&s, 11, "Really quit? (y/n)"));
    ck_assert(!row_has(&s, 11, "Q quits the game."));
    ck_assert(game_quit_asked(g));
    game_key(g, 'n');
    ck_assert(!game_quit_asked(g));
    screen_resize(&s, 40, 19);
    view_draw(g, &s);
    ck_assert(row_has(&s, 8, "Please enlarge your terminal to 40x20."));
    screen_resize(&s, 30, 15); /* too narrow for the sentence: not cut */
    view_draw(g, &s);
    ck_assert(row_has(&s, 6, "Enlarge to 40x20."));
    ck_assert(row_has(&s, 7, "(it is 30x15 now)"));
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(view_dims_remembered_tiles)
{
    game_t *g = game_new(21, NULL);
    rng_t r;
    rng_seed(&r, 21);
    for (int i = 0; i < 400; i++)
        game_key(g, "hjklyubn"[rng_range(&r, 0, 7)]);
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    int lit = 0, dim = 0;
    /* The map's last row (always wall) is the log's first. */
    for (int y = 0; y < MAP_H - 1; y++)
        for (int x = 0; x < MAP_W; x++) {
            const cell_t *c = screen_cat(&s, x, y);
            if (x == g->player.x && y == g->player.y)
                continue;
            if (game_lit(g, x, y)) {
                ck_assert_uint_ne(c->fg, COL_GREY);
                lit++;
            } else if (map_known(&g->map, x, y)) {
                ck_assert_uint_eq(c->fg, COL_GREY);
                dim++;
            } else {
                ck_assert_uint_eq(c->ch, ' ');
            }
        }
    ck_assert_int_gt(lit, 0);
    ck_assert_int_gt(dim, 0);
    screen_free(&s);
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("game");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, new_game_starts_in_first_room);
    tcase_add_test(tc, determinism_seed_and_keys);
    tcase_add_test(tc, repeated_lines_merge_as_pinned);
    tcase_add_test(tc, different_seeds_differ);
    tcase_add_test(tc, move_takes_a_turn);
    tcase_add_test(tc, wall_blocks_without_a_turn);
    tcase_add_test(tc, every_key_family_moves);
    tcase_add_test(tc, wait_keys_take_a_turn);
    tcase_add_test(tc, help_and_quit_modes);
    tcase_add_test(tc, fov_remembers_explored_tiles);
    tcase_add_test(tc, log_ring_keeps_newest);
    tcase_add_test(tc, view_layout_80x24_and_120x40);
    tcase_add_test(tc, view_tall_log_and_status_200x50_and_100x30);
    tcase_add_test(tc, view_too_small);
    tcase_add_test(tc, view_dims_remembered_tiles);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
