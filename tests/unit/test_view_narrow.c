/* test_view_narrow.c - the play screen below 80x24 (common/view_narrow.c):
 * exact screens at 40x20 and 48x30, the map window following the player
 * to the map's edges, the log wrapped to the width, clicks mapped through
 * the window, the pack as a list, and both help pages whole at 40x20. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "game.h"
#include "item.h"
#include "keys.h"
#include "view.h"
#include "view_status.h"

/* Row y of s as text (trailing blanks dropped). */
static const char *row(const screen_t *s, int y)
{
    static char line[512];
    int n = s->w < 511 ? s->w : 511;
    for (int x = 0; x < n; x++) {
        uint32_t ch = screen_cat(s, x, y)->ch;
        line[x] = ch < 128 ? (char)ch : '?';
    }
    while (n > 0 && line[n - 1] == ' ')
        n--;
    line[n] = '\0';
    return line;
}

static void dump(const screen_t *s)
{
    for (int y = 0; y < s->h; y++)
        fprintf(stderr, "        \"%s\",\n", row(s, y));
}

static void expect_screen(const screen_t *s, const char *const *want)
{
    for (int y = 0; y < s->h; y++)
        if (strcmp(row(s, y), want[y]) != 0) {
            dump(s);
            ck_abort_msg("row %d is \"%s\", not \"%s\"", y, row(s, y), want[y]);
        }
}

/* A new game at 40x20: the map window (40x16) from the map's left edge
 * (the player is in its left half), the welcome wrapped into three log
 * rows, the short status line. */
START_TEST(screen_40x20)
{
    static const char *const want[20] = {
        "                 ########",
        "                 #......#",
        "                 #......####",
        "                 #..@........",
        "                 #......###",
        "                 #......#",
        "                 #......#",
        "                 ########",
        "", "", "", "", "", "", "", "",
        "Welcome to the dungeon, adventurer!",
        "Press ? for help. Move with the arrow",
        "keys, hjklyubn or the numpad.",
        "HP:30/30  L:1  XP:0  $0  D:1  T:0",
    };
    game_t *g = game_new(9, NULL);
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    expect_screen(&s, want);
    view_layout_t lo;
    view_layout(g, 40, 20, &lo);
    ck_assert_int_eq(lo.map_x, 2); /* the player's x (22) less 20 */
    ck_assert_int_eq(lo.map_y, 0);
    ck_assert_int_eq(lo.map_w, 40);
    ck_assert_int_eq(lo.map_h, 16);
    ck_assert_int_eq(lo.log_top, 16);
    ck_assert_int_eq(lo.status_y, 19);
    ck_assert_int_eq(view_log_top(40, 20), 16);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* A tall narrow screen (a phone): the whole map's height, the log right
 * under it while it has few lines, the status line on the last row. */
START_TEST(screen_48x30_log_under_map)
{
    game_t *g = game_new(9, NULL);
    screen_t s;
    screen_init(&s, 48, 30);
    view_draw(g, &s);
    view_layout_t lo;
    view_layout(g, 48, 30, &lo);
    ck_assert_int_eq(lo.map_h, MAP_H - 1);
    ck_assert_int_eq(lo.log_top, MAP_H - 1);
    ck_assert_str_eq(row(&s, 20), "Welcome to the dungeon, adventurer!");
    ck_assert_str_eq(row(&s, 21), "Press ? for help. Move with the arrow keys,");
    ck_assert_str_eq(row(&s, 22), "hjklyubn or the numpad.");
    for (int y = 23; y < 29; y++)
        ck_assert_str_eq(row(&s, y), "");
    ck_assert_str_eq(row(&s, 29), "HP: 30/30  Lvl:1  XP:0  Gold:0  Depth:1  Turn:0");
    ck_assert_uint_eq(screen_cat(&s, g->player.x, g->player.y)->ch, '@');
    screen_free(&s);
    game_free(g);
}
END_TEST

/* The status line's numbers at their limits (a negative HP after a
 * killing blow, the largest gold and turn, an effect), at widths that
 * take each form from the widest: pinned from the line as snprintf wrote
 * it, before the line was written without printf (docs/performance.md,
 * "The draw and the turn, cheaper"). */
START_TEST(status_numbers_at_their_limits)
{
    static const int widths[] = { 120, 90, 80, 64, 52, 44, 36, 30, 24 };
    static const char *const want[] = {
        "HP: -7/30 [----------]  Lvl:12  XP:123456/4500  Gold:2147483647  Depth:9  Turn:4294967295  Poisoned Fast",
        "HP: -7/30  Lvl:12  XP:123456  Gold:2147483647  Depth:9  Turn:4294967295  Poisoned Fast",
        "HP:-7/30  L:12  XP:123456  $2147483647  D:9  T:4294967295  Poisoned Fast",
        "HP:-7/30 L:12 $2147483647 D:9 T:4294967295 Poisoned Fast",
        "HP:-7/30 L:12 D:9 T:4294967295 Poisoned Fast",
        "HP:-7/30 L:12 D:9 T:4294967295 Poisoned Fast",
        "HP:-7/30 D:9 T:4294967295 Pois Fast",
        "HP:-7 D:9 T:4294967295 Pois Fa",
        "HP:-7 D:9 T:4294967295 P"
    };
    game_t *g = game_new(9, NULL);
    g->player.hp = -7;
    g->player.level = 12;
    g->player.xp = 123456;
    g->player.gold = 2147483647;
    g->player.haste = 3;
    g->player.poison = 2;
    g->depth = 9;
    g->turn = 4294967295u;
    screen_t s;
    screen_init(&s, 120, 20);
    int wrong = -1;
    for (int i = 0; i < (int)(sizeof widths / sizeof widths[0]); i++) {
        screen_clear(&s);
        view_status_fit(g, &DISPLAY_PLAIN, &s, 19, widths[i]);
        if (strcmp(row(&s, 19), want[i]) != 0) {
            fprintf(stderr, "        \"%s\",\n", row(&s, 19));
            wrong = i;
        }
    }
    ck_assert_msg(wrong < 0, "at width %d", wrong < 0 ? 0 : widths[wrong]);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* A walkable tile with x at least min_x, or 0. */
static int floor_at(const game_t *g, int min_x, int *tx, int *ty)
{
    for (int x = MAP_W - 1; x >= min_x; x--)
        for (int y = 1; y < MAP_H - 1; y++)
            if (map_walkable(&g->map, x, y)) {
                *tx = x;
                *ty = y;
                return 1;
            }
    return 0;
}

/* The window follows the player to the map's right edge: the '@' is where
 * the window puts it, and a click on that cell is the player's tile. */
START_TEST(window_follows_the_player)
{
    game_t *g = game_new(9, NULL);
    int tx, ty;
    ck_assert(floor_at(g, 70, &tx, &ty));
    g->player.x = tx;
    g->player.y = ty;
    game_key(g, '.'); /* the view around the new place */
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    view_layout_t lo;
    view_layout(g, 40, 20, &lo);
    ck_assert_int_eq(lo.map_x, MAP_W - 40); /* clamped at the edge */
    int cx = g->player.x - lo.map_x, cy = g->player.y - lo.map_y;
    ck_assert_uint_eq(screen_cat(&s, cx, cy)->ch, '@');
    int mx, my;
    ck_assert(view_cell_tile(g, 40, 20, cx, cy, &mx, &my));
    ck_assert_int_eq(mx, g->player.x);
    ck_assert_int_eq(my, g->player.y);
    /* The log rows and beyond the window are not the map. */
    ck_assert(!view_cell_tile(g, 40, 20, 0, lo.log_top, &mx, &my));
    ck_assert(!view_cell_tile(g, 40, 20, 40, 0, &mx, &my));
    /* The full layout maps cells to tiles one to one. */
    ck_assert(view_cell_tile(g, 80, 24, 70, 5, &mx, &my));
    ck_assert_int_eq(mx, 70);
    ck_assert_int_eq(my, 5);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* A long log: each message wrapped at a space, the newest at the bottom,
 * the oldest cut at the log's first row. */
START_TEST(log_wraps_to_the_width)
{
    game_t *g = game_new(9, NULL);
    game_log(g, MSG_INFO, "one two three four five six seven eight nine ten "
                          "eleven twelve");
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 16), "keys, hjklyubn or the numpad.");
    ck_assert_str_eq(row(&s, 17), "one two three four five six seven eight");
    ck_assert_str_eq(row(&s, 18), "nine ten eleven twelve");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* Where text is on s: 1 with its column and row, or 0. */
static int find_text(const screen_t *s, const char *text, int *x, int *y)
{
    for (*y = 0; *y < s->h; (*y)++) {
        const char *line = row(s, *y), *at = strstr(line, text);
        if (at) {
            *x = (int)(at - line);
            return 1;
        }
    }
    return 0;
}

static int screen_has(const screen_t *s, const char *text)
{
    int x, y;
    return find_text(s, text, &x, &y);
}

/* The pack at 40x20: a list with each item's letter, each named and
 * coloured as the full layout's box shows it: an unknown scroll by its
 * label, never by what it is. */
START_TEST(pack_as_a_list)
{
    game_t *g = game_new(9, NULL);
    ck_assert_int_ge(item_pack_add(g, IK_FIREBALL), 0);
    ck_assert_int_ge(item_pack_add(g, IK_FIREBALL), 0);
    ck_assert_int_ge(item_pack_add(g, IK_DAGGER), 0);
    ck_assert_int_ge(item_pack_add(g, IK_HEALTH_POTION), 0);
    ck_assert(!item_known(g, IK_FIREBALL));
    ck_assert(!item_known(g, IK_HEALTH_POTION));
    game_key(g, 'i');
    ck_assert_int_eq(g->mode, MODE_INVENTORY);
    screen_t s, full;
    screen_init(&s, 40, 20);
    screen_init(&full, 80, 24);
    view_draw(g, &s);
    view_draw(g, &full);
    ck_assert_str_eq(row(&s, 0), "Use which? (Esc: back)");
    ck_assert(strncmp(row(&s, 2), "a) ? 2 scrolls labelled ", 24) == 0);
    ck_assert_str_eq(row(&s, 3), "b) ) dagger");
    ck_assert(strncmp(row(&s, 4), "c) ! ", 5) == 0);
    ck_assert_str_eq(row(&s, 5), "");
    for (int y = 2; y <= 4; y++) {
        /* the same line in the box, the same colour for its glyph */
        char line[64];
        snprintf(line, sizeof line, "%s", row(&s, y));
        int x = 0, fy = 0;
        ck_assert_msg(find_text(&full, line, &x, &fy), "not in the box: %s",
                      line);
        ck_assert_int_eq(screen_cat(&s, 3, y)->fg,
                         screen_cat(&full, x + 3, fy)->fg);
    }
    ck_assert(!screen_has(&s, "fireball") && !screen_has(&s, "health"));
    screen_free(&full);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* The throw and identify menus at 40x20: their question and the list
 * (they were not drawn: a letter picked an item unseen). */
START_TEST(throw_and_identify_lists)
{
    game_t *g = game_new(9, NULL);
    ck_assert_int_ge(item_pack_add(g, IK_DART), 0);
    game_key(g, 't');
    ck_assert_int_eq(g->mode, MODE_THROW);
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Throw which? (Esc: back)");
    ck_assert(strstr(row(&s, 2), "dart"));
    g->mode = MODE_IDENTIFY;
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Identify which?");
    ck_assert(strstr(row(&s, 2), "dart"));
    screen_free(&s);
    game_free(g);
}
END_TEST

/* ? at 40x20: the short key list whole, the rules on the last row; ?
 * again: every monster in two columns and the ruleset's rule, whole. */
START_TEST(help_fits_40x20)
{
    static const char *const keys[20] = {
        "Keys (? again: monsters and rules)",
        "Move    arrows, hjklyubn, numpad",
        "Run     Shift + HJKLYUBN",
        "Attack  move into a monster",
        "Travel  _ (or > off the stairs)",
        "Explore o       Wait   . or 5",
        "Rest    R       Count  0, number, key",
        "Pick up g or ,  Use    i, a letter",
        "Drop    d       Throw  t, a letter",
        "Go down >       Look   ; or x",
        "Self    @ or C  Learnt \\  Redraw ^L",
        "History P       Quit   Q (asks y/n)",
        "Options O       Save   S, to lobby",
        "Aim: move the cursor; Enter, . or a",
        "click casts; Esc keeps the scroll.",
        "Runs stop when a monster comes in view.",
        "Goal: the Amulet (\") at depth 12.",
        "? page 2, any other key: the game.",
        "",
        "Combat: attack-defense",
    };
    static const char *const legend[20] = {
        "Monsters, from the top down",
        "r rat          d1   a orc archer   d3",
        "k kobold       d1   t thief        d3",
        "g goblin       d1   w wolf         d3",
        "o orc          d1   S giant spider d4",
        "T troll        d1   O ogre         d5",
        "s skeleton     d2   W wraith       d7",
        "b giant bat    d2   N necromancer  d8",
        "h hobgoblin    d2   D dragon       d10",
        "",
        "Every blow hits, for attack - defense",
        "(never below 0); one blow in ten is a",
        "critical hit, for double.",
        "",
        "",
        "",
        "",
        "",
        "",
        "Combat: attack-defense. Any key returns.",
    };
    game_t *g = game_new(9, NULL);
    game_key(g, '?');
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    expect_screen(&s, keys);
    game_key(g, '?');
    view_draw(g, &s);
    expect_screen(&s, legend);
    screen_free(&s);
    /* 80x20: wide enough, too short for the full pages: the same short
     * ones */
    game_key(g, KEY_ESC);
    game_key(g, '?');
    screen_init(&s, 80, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 17), keys[17]);
    ck_assert_str_eq(row(&s, 19), keys[19]);
    screen_free(&s);
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("view_narrow");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, screen_40x20);
    tcase_add_test(tc, screen_48x30_log_under_map);
    tcase_add_test(tc, status_numbers_at_their_limits);
    tcase_add_test(tc, window_follows_the_player);
    tcase_add_test(tc, log_wraps_to_the_width);
    tcase_add_test(tc, pack_as_a_list);
    tcase_add_test(tc, throw_and_identify_lists);
    tcase_add_test(tc, help_fits_40x20);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
