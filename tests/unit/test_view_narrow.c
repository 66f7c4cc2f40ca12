/* test_view_narrow.c - the play screen below 80x24 (common/view_narrow.c):
 * exact screens at 40x20 and 48x30, the map window following the player
 * to the map's edges, the log wrapped to the width, clicks mapped through
 * the window, the pack as a list, both help pages whole at 40x20, and
 * the character, history and discoveries screens and the log under the
 * YOU DIED frame saying at 40x20 and 60x20 what they say at 80x24, with
 * no word cut at the edge; where a watcher's or replay's line goes. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "combat.h"
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
 * take each form tried with an effect, from the widest: pinned from the
 * line as snprintf wrote it, before the line was written without printf
 * (docs/performance.md, "The draw and the turn, cheaper"), and since
 * then the bar outlasts the effects' long words, the long labels and the
 * double spaces (poisoned_status_keeps_its_bar); "Pois", once given up
 * for the bar, does not come back at a narrower width (at 80 and 44 it
 * did, a review). */
START_TEST(status_numbers_at_their_limits)
{
    static const int widths[] = { 120, 96, 90, 80, 72, 66, 60, 44, 36, 30,
                                  24 };
    static const char *const want[] = {
        "HP: -7/30 [----------]  Lvl:12  XP:123456/4500  Gold:2147483647  Depth:9  Turn:4294967295  Poisoned Fast",
        "HP: -7/30 [----------]  Lvl:12  XP:123456  Gold:2147483647  Depth:9  Turn:4294967295  Pois Fast",
        "HP:-7/30 [----------]  L:12  XP:123456  $2147483647  D:9  T:4294967295  Pois Fast",
        "HP:-7/30 [----------] L:12 XP:123456 $2147483647 D:9 T:4294967295 Pois Fast",
        "HP:-7/30  L:12  XP:123456  $2147483647  D:9  T:4294967295  Pois Fast",
        "HP:-7/30 L:12 XP:123456 $2147483647 D:9 T:4294967295 Pois Fast",
        "HP:-7/30 L:12 $2147483647 D:9 T:4294967295 Pois Fast",
        "HP:-7/30 L:12 D:9 T:4294967295 Pois Fast",
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

/* Poisoned deep in a game, the 80-column line keeps its HP bar: the
 * effect's word shortens ("Pois"), and with "Fast" too the labels do; a
 * play-test saw "Poisoned" push the bar out. 100 columns say it all; 40
 * columns, which have no room for the bar, keep "Pois" and the level
 * (they said "Poisoned" and gave up the level). Early in a game the
 * double spaces go before the bar too. */
START_TEST(poisoned_status_keeps_its_bar)
{
    game_t *g = game_new(9, NULL);
    g->player.hp = 37;
    g->player.max_hp = 65;
    g->player.level = 8;
    g->player.xp = 2150;
    g->player.gold = 1412;
    g->player.poison = 3;
    g->depth = 11;
    g->turn = 10234;
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 23), "HP: 37/65 [=====-----]  Lvl:8  XP:2150  "
                     "Gold:1412  Depth:11  Turn:10234  Pois");
    g->player.haste = 4;
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 23), "HP:37/65 [=====-----]  L:8  XP:2150  $1412"
                     "  D:11  T:10234  Pois Fast");
    screen_free(&s);
    screen_init(&s, 100, 30);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, view_status_row(100, 30)),
                     "HP: 37/65 [=====-----]  Lvl:8  XP:2150/2200  Gold:1412"
                     "  Depth:11  Turn:10234  Poisoned Fast");
    screen_free(&s);
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 19), "HP:37/65 L:8 D:11 T:10234 Pois Fast");
    /* no effect: the forms that keep the bar for one are not tried */
    g->player.poison = g->player.haste = 0;
    screen_free(&s);
    screen_init(&s, 60, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 19), "HP: 37/65  Lvl:8  XP:2150  Gold:1412  "
                     "Depth:11  Turn:10234");
    screen_free(&s);
    game_free(g);
    /* early and near death, at 50 columns: single spaces keep the bar */
    g = game_new(9, NULL);
    g->player.hp = 1;
    g->player.max_hp = 30;
    g->player.poison = 2;
    g->turn = 1;
    screen_init(&s, 50, 1);
    view_status_fit(g, &DISPLAY_PLAIN, &s, 0, 50);
    ck_assert_str_eq(row(&s, 0), "HP:1/30 [=---------] L:1 XP:0 $0 D:1 T:1 Pois");
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
    /* the welcome's three rows do not fit whole over it: none is shown,
     * not its last alone (an_older_message_whole_or_not) */
    ck_assert_str_eq(row(&s, 16), "");
    ck_assert_str_eq(row(&s, 17), "one two three four five six seven eight");
    ck_assert_str_eq(row(&s, 18), "nine ten eleven twelve");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* An older message the log's rows cannot hold whole is not shown at all
 * at 40x20: its last row alone ("(+10 XP)", a play-test) told nothing of
 * what it ended. Where it fits whole, it is shown whole. */
START_TEST(an_older_message_whole_or_not)
{
    game_t *g = game_new(9, NULL);
    game_log(g, MSG_KILL, "The %s dies, dropping %d gold. (+%d XP)", "goblin",
             12, 10);
    game_log(g, MSG_INFO, "You hear a door.");
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 16), "The goblin dies, dropping 12 gold.");
    ck_assert_str_eq(row(&s, 17), "(+10 XP)");
    ck_assert_str_eq(row(&s, 18), "You hear a door.");
    game_log(g, MSG_INFO, "You feel a draught.");
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 16), "");
    ck_assert_str_eq(row(&s, 17), "You hear a door.");
    ck_assert_str_eq(row(&s, 18), "You feel a draught.");
    /* a wrapped newest, and the one before it whole above */
    game_log(g, MSG_KILL, "The %s dies, dropping %d gold. (+%d XP)", "goblin",
             99, 12);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 16), "You feel a draught.");
    ck_assert_str_eq(row(&s, 17), "The goblin dies, dropping 99 gold.");
    ck_assert_str_eq(row(&s, 18), "(+12 XP)");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* A merged line's count is not left alone on its last row at 40
 * columns: the word before it comes down with it, the rows as many. */
START_TEST(a_merged_count_keeps_its_word)
{
    game_t *g = game_new(9, NULL);
    game_log(g, MSG_INFO, "There is nothing left to explore here.");
    game_log(g, MSG_INFO, "There is nothing left to explore here.");
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "There is nothing left to explore here. (x2)");
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 17), "There is nothing left to explore");
    ck_assert_str_eq(row(&s, 18), "here. (x2)");
    int start[4], len[4];
    /* a lone word above: the count stays alone, as the rows must */
    ck_assert_int_eq(game_text_wrap("Wordlongerthanthewidth (x3)", 22, start,
                                    len, 4), 2);
    ck_assert_int_eq(len[0], 22);
    ck_assert_int_eq(start[1], 23);
    /* text that merely ends in brackets is not a count */
    ck_assert_int_eq(game_text_wrap("aaaa bbbb (x2y)", 10, start, len, 4), 2);
    ck_assert_int_eq(len[0], 9);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* A kill's "(+10 XP)" is not split over two rows at 40 columns ("(+10"
 * / "XP)", a play-test): the row ends before it, on the play screen's
 * log and in `P`; the log's text is as it was. A merged kill's "(x2)"
 * takes the whole "(+10 XP)" down with it. With no other space in reach
 * the row ends inside it, rather than cut in a word. */
START_TEST(a_kill_keeps_its_xp_whole)
{
    static const char kill[] = "The goblin dies, dropping 12 gold. (+10 XP)";
    game_t *g = game_new(9, NULL);
    game_log(g, MSG_KILL, "The %s dies, dropping %d gold. (+%d XP)", "goblin",
             12, 10);
    ck_assert_str_eq(game_msg(g, 0)->text, kill);
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 17), "The goblin dies, dropping 12 gold.");
    ck_assert_str_eq(row(&s, 18), "(+10 XP)");
    game_key(g, 'P');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 4), "The goblin dies, dropping 12 gold.");
    ck_assert_str_eq(row(&s, 5), "(+10 XP)");
    int start[4], len[4];
    static const char merged[] = "The troll dies, dropping 123 gold. (+45 XP) (x2)";
    ck_assert_int_eq(game_text_wrap(merged, 40, start, len, 4), 2);
    ck_assert_int_eq(len[0], 34);
    ck_assert_str_eq(merged + start[1], "(+45 XP) (x2)");
    /* a full first row: the count alone below takes the XP with it */
    static const char full[] = "The orc dies, dropping 12 gold. (+45 XP) (x2)";
    ck_assert_int_eq(game_text_wrap(full, 40, start, len, 4), 2);
    ck_assert_int_eq(len[0], 31);
    ck_assert_str_eq(full + start[1], "(+45 XP) (x2)");
    /* only a kill's XP: other brackets break as any words */
    ck_assert_int_eq(game_text_wrap("aaaa bbbb (+10 HP)", 14, start, len, 4),
                     2);
    ck_assert_int_eq(len[0], 14);
    /* a preference: where the XP's space is the only one in reach the
     * row ends there, not cut in a word ("(+5 XP" / ")") */
    ck_assert_int_eq(game_text_wrap("(+5 XP)", 6, start, len, 4), 2);
    ck_assert_int_eq(len[0], 3);
    ck_assert_int_eq(start[1], 4);
    ck_assert_int_eq(len[1], 3);
    ck_assert_int_eq(game_text_wrap("Hit. (+5 XP)", 9, start, len, 4), 2);
    ck_assert_int_eq(len[0], 4);
    ck_assert_str_eq(&"Hit. (+5 XP)"[start[1]], "(+5 XP)");
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

/* Fills row y of s with n letters from the left, blanks after. */
static void fill_row(screen_t *s, int y, int n)
{
    for (int x = 0; x < s->w; x++)
        screen_put(s, x, y, x < n ? 'x' : ' ', COL_WHITE, COL_DEFAULT, 0);
}

/* A watcher's or a replay's label (view_label_place, view_label_x):
 * beside the map on row 0 when the terminal is wide enough (a column apart
 * from it on a far wider one); else the longest form that
 * fits whole at the end of a log row; when none does, none, and the
 * oldest log row named (where the shortest would lose the least). */
START_TEST(label_takes_the_form_that_fits)
{
    static const char longer[] = " Watching somebody-long - q leaves ";
    static const char brief[] = " somebody-long - q ";
    const char *const forms[] = {longer, brief, NULL};
    int n = (int)strlen(longer), m = (int)strlen(brief);
    game_t *g = game_new(9, NULL);
    screen_t s;
    screen_init(&s, 80 + n, 24);
    view_draw(g, &s);
    int y = -2;
    ck_assert_int_eq(view_label_place(&s, forms, &y), 0);
    ck_assert_int_eq(y, 0);
    ck_assert_int_eq(view_label_x(&s, n, 0), 80);
    screen_free(&s);
    /* far wider: beside the map still, a column apart, not at the far
     * edge (a terminal QA at 250 columns) */
    screen_init(&s, 250, 70);
    view_draw(g, &s);
    ck_assert_int_eq(view_label_place(&s, forms, &y), 0);
    ck_assert_int_eq(y, 0);
    ck_assert_int_eq(view_label_x(&s, n, 0), 81);
    screen_free(&s);

    screen_init(&s, 80, 24);
    view_draw(g, &s);
    int top = view_log_top(80, 24), end = view_status_row(80, 24);
    ck_assert_int_eq(end - top, 3);
    for (int r = top; r < end; r++)
        fill_row(&s, r, 80 - m + 1); /* one column short of either form */
    fill_row(&s, top + 2, 80 - n);  /* the newest: room for the long */
    ck_assert_int_eq(view_label_place(&s, forms, &y), 0);
    ck_assert_int_eq(y, top + 2);
    ck_assert_int_eq(view_label_x(&s, n, y), 80 - n); /* the row's end */

    fill_row(&s, top + 2, 80 - m + 1);
    fill_row(&s, top + 1, 80 - m); /* room for the brief form only */
    ck_assert_int_eq(view_label_place(&s, forms, &y), 1);
    ck_assert_int_eq(y, top + 1);

    fill_row(&s, top + 1, 80 - m + 1); /* room for neither */
    ck_assert_int_eq(view_label_place(&s, forms, &y), -1);
    ck_assert_int_eq(y, top);
    screen_free(&s);
    game_free(g);
}
END_TEST

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
        /* the same line in the box (one column: a name has the box's
         * width, "labelled" and all), the same colour for its glyph */
        char line[80];
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
    /* Identify lists only what is unknown (game version 9): the potion,
     * not the dart. */
    ck_assert_int_ge(item_pack_add(g, IK_SPEED), 0);
    g->mode = MODE_IDENTIFY;
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Identify which? (Esc: spent)");
    ck_assert(strstr(row(&s, 2), "potion"));
    ck_assert(!screen_has(&s, "dart"));
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
        "Autopickup A (starts off): o picks up",
        "Rest    R       Count  0, number, key",
        "Pick up g or ,  Use    i, a letter",
        "Drop    d       Throw  t, a letter",
        "Go down >       Look   ; or x",
        "Self    @ or C  Learnt \\  Redraw ^L",
        "History P       Quit   Q (asks y/n)",
        "Options O       Save   S, to lobby",
        "Aim throw/wand/scroll: move the cursor,",
        "Enter/./click fires, Esc cancels.",
        "Runs stop when a monster comes in view.",
        "Goal: the Amulet (\") at depth 12.",
        "? page 2, any other key: the game.",
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
        "! potion ? scroll ) weapon [ armour",
        "/ wand $ gold % corpse \" the Amulet",
        "",
        "Every blow hits, for attack - defense",
        "(never below 0); one blow in ten is a",
        "critical hit, for double.",
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

/* The help's aiming lines tell how every aimed thing goes (a throw, a
 * wand, a scroll: target.c's keys), not a scroll's alone (a play-test),
 * in the rows they had: page 1 still fills 80x24 to its last row, and
 * 40x20 (help_fits_40x20). */
START_TEST(help_says_how_every_aim_goes)
{
    static const char *const want[24] = {
        "  Keys (? again: monsters and rules)",
        "",
        "    Move          arrow keys, vi-keys (hjklyubn), numpad; Home/End/PgUp/PgDn",
        "    Run           Shift + a vi-key (HJKLYUBN)  Attack   move into a monster",
        "    Travel        _ (or > off the stairs): to the stairs, once seen",
        "    Explore       o  (walks to what is not seen yet; stops at items)",
        "    Wait a turn   .  or  5   (with no monster in view: heals 1 HP)",
        "    Pick up       g  or  ,          Use/wield/wear   i, then its letter",
        "    Drop          d, then a letter  Go down          >  (on the stairs)",
        "    Look          ;  or  x          Character        @  or  C",
        "    Messages      P  (history)      Quit Q (asks y/n)   Save & leave S",
        "    Options       O  (display)      Autopickup A (starts off)  Redraw ^L",
        "    Rest          R  (until healed) Count  0, a number, then . or a move",
        "    Throw         t, then a letter  Discoveries      \\  (what you learned)",
        "    Items         ! potion ? scroll ) weapon [ armour / wand $ gold % corpse",
        "  Running, travel and exploring stop when a monster comes into view.",
        "  Aiming a throw (t), a wand or a scroll: move the cursor; Enter or . (or a",
        "  click) fires, Esc cancels. A wall costs no turn; every other move,",
        "  attack, wait, pick-up, use or drop is one turn, then every monster acts.",
        "  Goal: the Amulet of Yendor (\") lies at depth 12. Take it to win.",
        "",
        "  Press ? for page 2, any other key to return to the game.",
        "",
        "  Combat rules on this server: attack-defense",
    };
    game_t *g = game_new(9, NULL);
    game_key(g, '?');
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    expect_screen(&s, want);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* The words of every row of s, in order, one space between: what a
 * screen says whatever its layout. */
static void words_of(const screen_t *s, char *out, size_t n)
{
    size_t k = 0;
    out[0] = '\0';
    for (int y = 0; y < s->h; y++) {
        const char *r = row(s, y);
        for (const char *p = r; *p;) {
            while (*p == ' ')
                p++;
            const char *e = p;
            while (*e && *e != ' ')
                e++;
            if (e > p && k + (size_t)(e - p) + 2 < n) {
                if (k)
                    out[k++] = ' ';
                memcpy(out + k, p, (size_t)(e - p));
                k += (size_t)(e - p);
                out[k] = '\0';
            }
            p = e;
        }
    }
}

/* `C` at 40x20 and 60x20 says, under every ruleset, the same words in
 * the same order as at 80x24: a line wider than the screen is broken
 * where its parts meet ("   ", the rules' "; "), as many to a row as
 * fit, at spaces if need be, and no word is cut at the edge. */
START_TEST(character_fits_40x20)
{
    static const int rules[] = { RULES_ATTACK_DEFENSE, RULES_POWER,
                                 RULES_D10, RULES_DICE_POOL };
    for (int r = 0; r < 4; r++) {
        game_options_t opt = { .ruleset = rules[r] };
        game_t *g = game_new(9, &opt);
        g->player.poison = 5; /* the longest HP line */
        game_key(g, 'C');
        screen_t s;
        char wide[1024], narrow[1024];
        screen_init(&s, 80, 24);
        view_draw(g, &s);
        words_of(&s, wide, sizeof wide);
        screen_free(&s);
        for (int w = 40; w <= 60; w += 20) {
            screen_init(&s, w, 20);
            view_draw(g, &s);
            words_of(&s, narrow, sizeof narrow);
            if (strcmp(wide, narrow) != 0)
                dump(&s);
            ck_assert_str_eq(narrow, wide);
            screen_free(&s);
        }
        game_free(g);
    }
    /* The rows at 40x20 (the default rules, poisoned): the HP line's
     * parts as many to a row as fit, centred. */
    game_t *g = game_new(9, NULL);
    g->player.poison = 5;
    game_key(g, 'C');
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    int y = 0;
    while (y < 20 && strcmp(row(&s, y), " Level 1   XP 0 (next at 100)   Gold 0"))
        y++;
    ck_assert_int_lt(y, 20);
    ck_assert_str_eq(row(&s, y + 1), " HP 30/30 (poisoned)   Depth 1   Turn 0");
    ck_assert_str_eq(row(&s, y + 2), "                Kills 0");
    ck_assert_int_eq(strncmp(row(&s, y + 3) + strspn(row(&s, y + 3), " "),
                             "Weapon: none (fists)", 20), 0);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* 1 if every word of row r is a whole word of one of the log's
 * messages, in its order: a row that is a piece of a message broken at
 * spaces. */
static int row_is_words_of_the_log(const game_t *g, const char *r)
{
    if (!*r)
        return 1;
    size_t n = strlen(r);
    for (int i = 0; i < g->log_count; i++) {
        const char *t = game_msg(g, i)->text, *p = t;
        while ((p = strstr(p, r)) != NULL) {
            if ((p == t || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
                return 1;
            p++;
        }
    }
    return 0;
}

/* `P` at 40x20: each message wrapped to the width (no row cut mid-
 * word), the newest at the bottom; paging reaches the oldest (at the
 * top after Home) and every row in between. */
START_TEST(history_wraps_at_40x20)
{
    game_t *g = game_new(9, NULL);
    for (int i = 1; i <= 40; i++)
        game_log(g, MSG_INFO, "Message %d: the quick brown fox jumps over "
                 "the lazy dog at %d.", i, 1000 + i);
    game_key(g, 'P');
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Message history: lines 34-42 of 42");
    ck_assert_str_eq(row(&s, 17), "Message 40: the quick brown fox jumps");
    ck_assert_str_eq(row(&s, 18), "over the lazy dog at 1040.");
    ck_assert_str_eq(row(&s, 19), "k/j line  b/Space page  g/G top/end  Esc");
    for (int y = 1; y < 19; y++)
        ck_assert_msg(row_is_words_of_the_log(g, row(&s, y)), "row %d: %s",
                      y, row(&s, y));
    /* One step back at a time: no row is skipped on the way up. */
    int seen_oldest = 0, prev_top = 34;
    for (int k = 0; k < 40 && !seen_oldest; k++) {
        game_key(g, 'k');
        view_draw(g, &s);
        int a = 0, b = 0, c = 0;
        ck_assert_int_eq(sscanf(row(&s, 0), "Message history: lines %d-%d of %d",
                                &a, &b, &c), 3);
        ck_assert_int_le(a, prev_top);
        ck_assert_int_ge(b, prev_top); /* overlaps the page before */
        prev_top = a;
        seen_oldest = a == 1;
    }
    game_key(g, 'g');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 1), "Welcome to the dungeon, adventurer!");
    ck_assert_str_eq(row(&s, 2), "Press ? for help. Move with the arrow");
    ck_assert_str_eq(row(&s, 3), "keys, hjklyubn or the numpad.");
    screen_free(&s);
    /* At 60 columns the key line of 80 does not fit: the short one. */
    screen_init(&s, 60, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 19), "k/j line  b/Space page  g/G top/end  Esc");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* `P` at 40x20 where the page's top row would be the tail of a wrapped
 * line (its start scrolled off above; a play-test read "over the lazy
 * dog at 1032." as the top line, counted in "lines 34-43"): that line is
 * left out, its row blank, so the page begins at a line's start and
 * counts the lines it shows. k then shows it whole. */
START_TEST(history_begins_at_a_line_start)
{
    static const char *const want[20] = {
        "Message history: lines 35-43 of 43",
        "",
        "Message 33: the quick brown fox jumps",
        "over the lazy dog at 1033.",
        "Message 34: the quick brown fox jumps",
        "over the lazy dog at 1034.",
        "Message 35: the quick brown fox jumps",
        "over the lazy dog at 1035.",
        "Message 36: the quick brown fox jumps",
        "over the lazy dog at 1036.",
        "Message 37: the quick brown fox jumps",
        "over the lazy dog at 1037.",
        "Message 38: the quick brown fox jumps",
        "over the lazy dog at 1038.",
        "Message 39: the quick brown fox jumps",
        "over the lazy dog at 1039.",
        "Message 40: the quick brown fox jumps",
        "over the lazy dog at 1040.",
        "One more.",
        "k/j line  b/Space page  g/G top/end  Esc",
    };
    game_t *g = game_new(9, NULL);
    for (int i = 1; i <= 40; i++)
        game_log(g, MSG_INFO, "Message %d: the quick brown fox jumps over "
                 "the lazy dog at %d.", i, 1000 + i);
    game_log(g, MSG_INFO, "One more.");
    game_key(g, 'P');
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    expect_screen(&s, want);
    /* a row up: line 34 whole at the top, the newest cut at the bottom */
    game_key(g, 'k');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Message history: lines 34-42 of 43");
    ck_assert_str_eq(row(&s, 1), "Message 32: the quick brown fox jumps");
    ck_assert_str_eq(row(&s, 2), "over the lazy dog at 1032.");
    ck_assert_str_eq(row(&s, 18), "over the lazy dog at 1040.");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* `P`'s key line names g and G (the top, the bottom), which work but
 * went unsaid: in 40 columns, and in full at 80x24. */
START_TEST(history_keys_name_g_and_G)
{
    game_t *g = game_new(9, NULL);
    for (int i = 1; i <= 30; i++)
        game_log(g, MSG_INFO, "Line %d.", i);
    game_key(g, 'P');
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 19), "k/j line  b/Space page  g/G top/end  Esc");
    game_key(g, 'g');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 1), "Welcome to the dungeon, adventurer!");
    game_key(g, 'G');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 18), "Line 30.");
    screen_free(&s);
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 23), "k/j Up/Down: line  b/Space PgUp/PgDn: page"
                     "  g/G Home/End: top/bottom  Esc: back");
    game_key(g, 'g');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Message history: lines 1-22 of 32");
    ck_assert_str_eq(row(&s, 1), "Welcome to the dungeon, adventurer!");
    game_key(g, 'G');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 22), "Line 30.");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* The first and last message numbers of the history page on s ("lines
 * A-B of C"); C into *count. */
static void history_lines(const screen_t *s, int *a, int *b, int *count)
{
    ck_assert_msg(sscanf(row(s, 0), "Message history: lines %d-%d of %d", a,
                         b, count) == 3, "row 0: %s", row(s, 0));
}

/* `P` at w x h with `lines` messages after the welcome's: k goes back a
 * little at a time, with no row skipped, until the oldest line is at the
 * top; G comes back to the newest, g goes to the oldest at once. */
static void history_pages_back(int w, int h, int lines)
{
    game_t *g = game_new(9, NULL);
    for (int i = 1; i <= lines; i++)
        game_log(g, MSG_INFO, "Message %d: the quick brown fox jumps over "
                 "the lazy dog at %d.", i, 1000 + i);
    int count = g->log_count;
    game_key(g, 'P');
    screen_t s;
    screen_init(&s, w, h);
    view_draw(g, &s);
    int a, b, c;
    history_lines(&s, &a, &b, &c);
    ck_assert_int_eq(c, count);
    ck_assert_int_eq(b, count); /* the newest at the bottom */
    ck_assert_int_gt(a, 1);     /* the oldest is above the page */
    int newest_top = a, prev_top = a, steps = 0;
    while (a > 1 && steps++ < 200) {
        game_key(g, 'k');
        view_draw(g, &s);
        history_lines(&s, &a, &b, &c);
        ck_assert_int_le(a, prev_top);
        ck_assert_msg(b >= prev_top, "%dx%d, %d lines: a step from the page "
                      "at line %d shows lines %d-%d", w, h, lines, prev_top,
                      a, b);
        prev_top = a;
    }
    ck_assert_msg(a == 1, "%dx%d, %d lines: k stops at line %d", w, h, lines,
                  a);
    ck_assert_str_eq(row(&s, 1), "Welcome to the dungeon, adventurer!");
    game_key(g, 'G');
    view_draw(g, &s);
    history_lines(&s, &a, &b, &c);
    ck_assert_int_eq(a, newest_top);
    ck_assert_int_eq(b, count);
    game_key(g, 'g');
    view_draw(g, &s);
    history_lines(&s, &a, &b, &c);
    ck_assert_int_eq(a, 1);
    ck_assert_str_eq(row(&s, 1), "Welcome to the dungeon, adventurer!");
    screen_free(&s);
    game_free(g);
}

/* `P` below 80x24 early in a game: a log that fits the 22 rows of 80x24
 * but not the 18 of 40x20 once wrapped (nor of 80x20), and one just past
 * 22 lines, where 80x24 has one step back to go, are paged back to their
 * oldest line all the same. */
START_TEST(history_pages_early_at_40x20)
{
    static const int lines[] = { 8, 12, 20, 23, 30 };
    for (size_t t = 0; t < sizeof lines / sizeof *lines; t++) {
        history_pages_back(40, 20, lines[t]);
        history_pages_back(60, 20, lines[t]);
    }
    /* 80 columns: a line a row; 18 of them on a page */
    history_pages_back(80, 20, 20);
    history_pages_back(80, 20, 23);
    /* At 40x20 k moves the page a message, b a page of 17 rows (the
     * top row is then the bottom one), less to begin at a message; a
     * line cut by an edge is left out. */
    game_t *g = game_new(9, NULL);
    for (int i = 1; i <= 30; i++)
        game_log(g, MSG_INFO, "Message %d: the quick brown fox jumps over "
                 "the lazy dog at %d.", i, 1000 + i);
    game_key(g, 'P');
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    char top[64];
    snprintf(top, sizeof top, "%s", row(&s, 1));
    game_key(g, 'k');
    view_draw(g, &s);
    /* the line above, whole, at the top: the last one off the foot */
    ck_assert_str_eq(row(&s, 3), top);
    ck_assert_str_eq(row(&s, 1), "Message 21: the quick brown fox jumps");
    ck_assert_str_eq(row(&s, 18), "over the lazy dog at 1029.");
    ck_assert_str_eq(row(&s, 0), "Message history: lines 23-31 of 32");
    game_key(g, 'b');
    view_draw(g, &s);
    /* that top line is the bottom one, whole, and the page begins at a
     * line, not at the tail of one */
    ck_assert_str_eq(row(&s, 0), "Message history: lines 15-23 of 32");
    ck_assert_str_eq(row(&s, 1), "Message 13: the quick brown fox jumps");
    ck_assert_str_eq(row(&s, 17), "Message 21: the quick brown fox jumps");
    ck_assert_str_eq(row(&s, 18), "over the lazy dog at 1021.");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* The 3-row message of the `b`/Space test, after 30 short lines and
 * before 16 (49 lines with the welcome's two). */
static game_t *history_with_a_long_line(void)
{
    game_t *g = game_new(9, NULL);
    for (int i = 1; i <= 30; i++)
        game_log(g, MSG_INFO, "Line %d.", i);
    game_log(g, MSG_INFO, "A lightning bolt strikes the giant spider with a "
             "loud thunder for 12 damage!");
    for (int i = 31; i <= 46; i++)
        game_log(g, MSG_INFO, "Line %d.", i);
    game_key(g, 'P');
    return g;
}

/* `P` at 40x20: b and Space move a page less where a message is cut by
 * the edge they move over, so that it is whole on the next page. A
 * 3-row message whose middle row was the row two pages share was cut
 * on both and never shown (a review: "lines 34-49", then "17-32"). */
START_TEST(history_pages_show_a_cut_line_whole)
{
    game_t *g = history_with_a_long_line();
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    /* the newest page: the long line's tail at the top, left out */
    ck_assert_str_eq(row(&s, 0), "Message history: lines 34-49 of 49");
    ck_assert_str_eq(row(&s, 1), "");
    ck_assert_str_eq(row(&s, 2), "");
    ck_assert_str_eq(row(&s, 3), "Line 31.");
    game_key(g, 'b');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Message history: lines 18-33 of 49");
    ck_assert_str_eq(row(&s, 1), "Line 16.");
    ck_assert_str_eq(row(&s, 16), "A lightning bolt strikes the giant");
    ck_assert_str_eq(row(&s, 17), "spider with a loud thunder for 12");
    ck_assert_str_eq(row(&s, 18), "damage!");
    /* forward from the oldest: the page that cuts its start, then it
     * whole at the top */
    game_key(g, 'g');
    game_key(g, ' ');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Message history: lines 17-32 of 49");
    ck_assert_str_eq(row(&s, 18), "");
    game_key(g, ' ');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Message history: lines 33-48 of 49");
    ck_assert_str_eq(row(&s, 1), "A lightning bolt strikes the giant");
    ck_assert_str_eq(row(&s, 3), "damage!");
    ck_assert_str_eq(row(&s, 18), "Line 45.");
    game_key(g, ' ');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Message history: lines 34-49 of 49");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* `P` at 40x20: k and j move a message at a time, so a page never
 * begins with the blank rows of a message its top cuts (a play-test: k
 * from the newest page showed a blank top row, the same lines a row
 * lower). */
START_TEST(history_lines_move_a_message_at_a_time)
{
    game_t *g = history_with_a_long_line();
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Message history: lines 34-49 of 49");
    ck_assert_str_eq(row(&s, 1), ""); /* the long line's tail, cut */
    game_key(g, 'k'); /* the long line, whole, at the top */
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 1), "A lightning bolt strikes the giant");
    ck_assert_str_eq(row(&s, 3), "damage!");
    ck_assert_str_eq(row(&s, 4), "Line 31.");
    game_key(g, 'k'); /* one short line more */
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 1), "Line 30.");
    ck_assert_str_eq(row(&s, 2), "A lightning bolt strikes the giant");
    game_key(g, 'j');
    game_key(g, 'j'); /* back to the newest page, which ends the log */
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Message history: lines 34-49 of 49");
    /* every k and j moves, and never begins a page with a blank row */
    game_key(g, 'G');
    for (int i = 0; i < 40; i++) {
        int was = g->derived.hist_pos;
        game_key(g, 'k');
        view_draw(g, &s);
        if (g->derived.hist_pos == was)
            break;
        ck_assert_str_ne(row(&s, 1), "");
    }
    screen_free(&s);
    game_free(g);
}
END_TEST

/* Pages `key` from where g is until the page stops moving, marking in
 * seen[] each line a page counts whole ("lines A-B", which the page
 * draws and no other); returns the pages. */
static int history_walk(game_t *g, screen_t *s, int key, char *seen)
{
    int pages = 0, a, b, count;
    for (int was = -1; was != g->derived.hist_pos; pages++) {
        view_draw(g, s);
        history_lines(s, &a, &b, &count);
        for (int i = a; i <= b; i++)
            seen[i] = 1;
        /* a page begins at a line, but the newest, which ends the log */
        if (g->derived.hist_pos != 0)
            ck_assert_msg(row(s, 1)[0] != '\0', "a page begins blank: %s",
                          row(s, 0));
        was = g->derived.hist_pos;
        game_key(g, key);
    }
    return pages;
}

/* `P` at 40x20 with lines of one to four rows: b from the newest page
 * and Space from the oldest each show every line whole at least once. */
START_TEST(history_pages_show_every_line)
{
    static const char *const words[] = {
        "Short.",
        "A line of two rows at forty columns, the second row short.",
        "A lightning bolt strikes the giant spider with a loud thunder "
        "for 12 damage!",
        "A line that wraps onto four rows at forty columns: it goes on and "
        "on, past the second row and the third, to a fourth.",
    };
    for (int shift = 0; shift < 7; shift++) {
        game_t *g = game_new(9, NULL);
        /* never the same line twice in a row, which would merge */
        for (int i = 0, w = 0; i < 90; i++) {
            w = (w + 1 + (i * 7 + shift) % 3) % 4;
            game_log(g, MSG_INFO, "%s", words[w]);
        }
        int start[4], len[4];
        ck_assert_int_eq(game_text_wrap(words[3], 40, start, len, 4), 4);
        game_key(g, 'P');
        screen_t s;
        screen_init(&s, 40, 20);
        char seen[LOG_MAX + 1] = { 0 };
        int pages = history_walk(g, &s, 'b', seen);
        ck_assert_int_gt(pages, 5);
        for (int i = 1; i <= g->log_count; i++)
            ck_assert_msg(seen[i], "shift %d: b never shows line %d", shift,
                          i);
        memset(seen, 0, sizeof seen);
        game_key(g, 'g');
        pages = history_walk(g, &s, ' ', seen);
        ck_assert_int_gt(pages, 5);
        for (int i = 1; i <= g->log_count; i++)
            ck_assert_msg(seen[i], "shift %d: Space never shows line %d",
                          shift, i);
        screen_free(&s);
        game_free(g);
    }
}
END_TEST

/* 1 if r (a row of the screen) is a piece of t that ends it (end) or
 * begins it. */
static int row_ends_line(const char *r, const char *t, int end)
{
    size_t rl = strlen(r), tl = strlen(t);
    if (rl == 0 || rl > tl)
        return 0;
    return strncmp(end ? t + tl - rl : t, r, rl) == 0;
}

/* `P` at w x h on a log full of `lines` lines of len characters (each
 * its number, then words; none merges): the count is the log's, the
 * newest line at the bottom; g shows the oldest kept at the top, G the
 * newest again. Returns the count. */
static int history_full(int w, int h, int len, int lines)
{
    game_t *g = game_new(9, NULL);
    for (int i = 1; i <= lines; i++) {
        char text[MSG_LEN];
        int k = snprintf(text, sizeof text, "%d", i);
        while (k + 5 <= len)
            k += snprintf(text + k, sizeof text - (size_t)k, " word");
        while (k < len)
            text[k++] = 's'; /* " words": no blank at the end */
        text[len] = '\0';
        game_log(g, MSG_INFO, "%s", text);
    }
    int count = g->log_count, last = h - 2;
    const char *newest = game_msg(g, 0)->text;
    const char *oldest = game_msg(g, count - 1)->text;
    game_key(g, 'P');
    screen_t s;
    screen_init(&s, w, h);
    view_draw(g, &s);
    int a, b, c;
    history_lines(&s, &a, &b, &c);
    ck_assert_int_eq(c, count);
    ck_assert_int_eq(b, count);
    ck_assert_int_gt(a, 1);
    ck_assert_msg(row_ends_line(row(&s, last), newest, 1), "%dx%d: %s", w, h,
                  row(&s, last));
    game_key(g, 'g');
    view_draw(g, &s);
    history_lines(&s, &a, &b, &c);
    ck_assert_int_eq(a, 1);
    ck_assert_int_eq(c, count);
    ck_assert_msg(row_ends_line(row(&s, 1), oldest, 0), "%dx%d: %s", w, h,
                  row(&s, 1));
    game_key(g, 'G');
    view_draw(g, &s);
    history_lines(&s, &a, &b, &c);
    ck_assert_int_eq(b, count);
    ck_assert_int_eq(c, count);
    ck_assert(row_ends_line(row(&s, last), newest, 1));
    screen_free(&s);
    game_free(g);
    return count;
}

/* The history full (game version 10's records of their own length): 400
 * short lines keep the newest LOG_MAX (384); 400 of 79 characters (88
 * bytes a record) the newest 119, or 118 as the ring's free bytes fall
 * (10,496 / 88: 119, 24 bytes over). Both paged with g and G at 80x24
 * and 40x20, "of N" the lines kept. */
START_TEST(history_full_log_pages)
{
    static const int sizes[][2] = { { 80, 24 }, { 40, 20 } };
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(history_full(sizes[i][0], sizes[i][1], 9, 400),
                         LOG_MAX);
        int n = history_full(sizes[i][0], sizes[i][1], 79, 400);
        ck_assert_int_ge(n, 118);
        ck_assert_int_le(n, 119);
    }
}
END_TEST

/* `\` with nothing learned: the sentence broken at a space at 40 and 60
 * columns. */
START_TEST(discoveries_wrapped)
{
    game_t *g = game_new(9, NULL);
    game_key(g, '\\');
    screen_t s;
    screen_init(&s, 60, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 3), "  You have learned nothing yet: use a potion or a scroll, or");
    ck_assert_str_eq(row(&s, 4), "  read identify.");
    ck_assert_str_eq(row(&s, 6), "  Press any key to return.");
    screen_free(&s);
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 3), "  You have learned nothing yet: use a");
    ck_assert_str_eq(row(&s, 4), "  potion or a scroll, or read identify.");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* The log under the YOU DIED frame at 40x20: the last messages wrapped
 * to the width, whole, the newest at the bottom. */
START_TEST(death_log_wrapped)
{
    game_t *g = game_new(9, NULL);
    g->player.hp = 0;
    g->mode = MODE_DEAD;
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 17), "Welcome to the dungeon, adventurer!");
    ck_assert_str_eq(row(&s, 18), "Press ? for help. Move with the arrow");
    ck_assert_str_eq(row(&s, 19), "keys, hjklyubn or the numpad.");
    ck_assert_str_eq(row(&s, 16), "");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* Words of the full help's key rows that name no key: the article, "Shift
 * + a vi-key", "Save & leave", "heals 1 HP". */
static const char *const not_keys[] = { "a", "+", "&", "1" };

/* A run of the vi-keys' letters ("hjklyubn", "HJKLYUBN"). */
static int is_vi_run(const char *w, size_t n)
{
    if (n < 2)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr("hjklyubnHJKLYUBN", w[i]))
            return 0;
    return 1;
}

/* Adds to keys (" K1 K2 ... ", each once) the keys that row r names: its
 * words (between spaces and slashes, less the brackets, commas, colons
 * and semicolons around a longer one: "(hjklyubn)," is "hjklyubn", ","
 * and ";" stay) that are one character, a run of the vi-keys, or a
 * control key ("Ctrl-L" at 80 columns is "^L" in 40). */
static void keys_named(const char *r, char *keys, size_t cap)
{
    for (const char *p = r; *p;) {
        while (*p && strchr(" /", *p))
            p++;
        const char *e = p;
        while (*e && !strchr(" /", *e))
            e++;
        const char *a = p, *b = e;
        while (b - a > 1 && *a == '(')
            a++;
        while (b - a > 1 && strchr("),:;.", b[-1]))
            b--;
        size_t n = (size_t)(b - a);
        char word[16] = "";
        if (n == 6 && strncmp(a, "Ctrl-", 5) == 0)
            snprintf(word, sizeof word, " ^%c ", a[5]);
        else if (n == 1 || is_vi_run(a, n) || (n == 2 && a[0] == '^'))
            snprintf(word, sizeof word, " %.*s ", (int)n, a);
        for (size_t i = 0; word[0] && i < sizeof not_keys / sizeof *not_keys; i++)
            if (strlen(not_keys[i]) == n && strncmp(a, not_keys[i], n) == 0)
                word[0] = '\0';
        if (word[0] && !strstr(keys, word) &&
            strlen(keys) + strlen(word) < cap)
            strcat(keys, word + (keys[0] ? 1 : 0)); /* one space between */
        p = e;
    }
}

/* Every key the full help's key rows name (80x24: the rows between its
 * title's blank row and the next blank one) is named on the narrow page
 * at 40x20 too: a key added to one list and not the other fails here. */
START_TEST(narrow_help_names_every_key)
{
    game_t *g = game_new(9, NULL);
    game_key(g, '?');
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    char full[512] = "", narrow[512] = "";
    int y = 0;
    while (y < s.h && !strstr(row(&s, y), "Keys (? again"))
        y++;
    ck_assert_int_lt(y, s.h);
    ck_assert_str_eq(row(&s, y + 1), "");
    int rows = 0;
    /* the keys' rows, up to the items' glyphs' */
    for (y += 2; y < s.h && row(&s, y)[0] && !strstr(row(&s, y), "  Items  ");
         y++, rows++)
        keys_named(row(&s, y), full, sizeof full);
    ck_assert_int_ge(rows, 10);
    screen_free(&s);
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 0), "Keys (? again: monsters and rules)");
    for (y = 1; y < s.h; y++)
        keys_named(row(&s, y), narrow, sizeof narrow);
    /* (the words found, for a failure to name) */
    ck_assert(strstr(full, " ^L ") && strstr(full, " HJKLYUBN "));
    for (const char *p = full; *p;) {
        const char *e = strchr(p + 1, ' ');
        char key[24];
        snprintf(key, sizeof key, "%.*s ", (int)(e - p), p);
        ck_assert_msg(strstr(narrow, key), "the full help names key%s, the "
                      "narrow one does not (full:%s; narrow:%s)", key, full,
                      narrow);
        p = e[1] ? e : e + 1;
    }
    screen_free(&s);
    game_free(g);
}
END_TEST

/* More items than rows: two columns of 20 at 40x20, 14 columns for a
 * name, which loses the class's words the glyph says ("scrolls
 * labelled", "potion of"), then its end, and never runs into the right
 * column. */
START_TEST(pack_list_in_two_columns)
{
    game_t *g = game_new(9, NULL);
    for (int i = 0; i < 12; i++)
        ck_assert_int_eq(item_pack_add(g, IK_FIREBALL), 0);
    ck_assert_int_eq(item_pack_add(g, IK_IDENTIFY), 1);
    ck_assert_int_eq(item_pack_add(g, IK_SPEED), 2);
    item_learn(g, IK_IDENTIFY);
    item_learn(g, IK_SPEED);
    for (int i = 3; i <= 17; i++) /* d-r: r, the 18th, heads column two */
        ck_assert_int_eq(item_pack_add(g, IK_SWORD), i);
    game_key(g, 'i');
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 2), "a) ? 12 VERR YED... r) ) long sword");
    ck_assert_str_eq(row(&s, 3), "b) ? identify");
    ck_assert_str_eq(row(&s, 4), "c) ! speed");
    ck_assert_str_eq(row(&s, 5), "d) ) long sword");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* The window follows the player, moved as little as it takes to show the
 * nearest monster in view too: a play-test at 40x20 was refused explore
 * ("You cannot explore with a monster in view.", x376) by an orc archer
 * the window did not show. */
START_TEST(the_window_shows_the_nearest_monster_in_view)
{
    game_t *g = arena_explored();
    for (int y = 16; y <= 19; y++) /* the room taller: rows 1-19 */
        for (int x = 1; x <= 40; x++)
            g->map.tile[y][x] = TILE_FLOOR;
    g->player.y = 10;
    /* 8 rows below: in view (FOV_RADIUS), and one row past the 16 of a
     * window centred on the player (rows 2-17) */
    ck_assert_int_ge(game_place_monster(g, MON_ORC, 10, 18), 0);
    game_update_fov(g);
    ck_assert_int_ge(game_nearest_in_view(g, 0), 0);
    screen_t s;
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    /* rows 3-18: one row down */
    ck_assert_int_eq((int)screen_cat(&s, 10, 7)->ch, '@');
    ck_assert_int_eq((int)screen_cat(&s, 10, 15)->ch, 'o');
    int tx, ty;
    ck_assert(view_cell_tile(g, 40, 20, 10, 15, &tx, &ty)); /* a click too */
    ck_assert_int_eq(tx, 10);
    ck_assert_int_eq(ty, 18);
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
    tcase_add_test(tc, an_older_message_whole_or_not);
    tcase_add_test(tc, label_takes_the_form_that_fits);
    tcase_add_test(tc, status_numbers_at_their_limits);
    tcase_add_test(tc, poisoned_status_keeps_its_bar);
    tcase_add_test(tc, window_follows_the_player);
    tcase_add_test(tc, log_wraps_to_the_width);
    tcase_add_test(tc, a_merged_count_keeps_its_word);
    tcase_add_test(tc, a_kill_keeps_its_xp_whole);
    tcase_add_test(tc, pack_as_a_list);
    tcase_add_test(tc, the_window_shows_the_nearest_monster_in_view);
    tcase_add_test(tc, pack_list_in_two_columns);
    tcase_add_test(tc, throw_and_identify_lists);
    tcase_add_test(tc, help_fits_40x20);
    tcase_add_test(tc, narrow_help_names_every_key);
    tcase_add_test(tc, help_says_how_every_aim_goes);
    tcase_add_test(tc, character_fits_40x20);
    tcase_add_test(tc, history_wraps_at_40x20);
    tcase_add_test(tc, history_begins_at_a_line_start);
    tcase_add_test(tc, history_keys_name_g_and_G);
    tcase_add_test(tc, history_pages_show_a_cut_line_whole);
    tcase_add_test(tc, history_pages_show_every_line);
    tcase_add_test(tc, history_lines_move_a_message_at_a_time);
    tcase_add_test(tc, history_pages_early_at_40x20);
    tcase_add_test(tc, history_full_log_pages);
    tcase_add_test(tc, discoveries_wrapped);
    tcase_add_test(tc, death_log_wrapped);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
