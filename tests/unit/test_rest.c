/* test_rest.c - the comforts of game version 6 (docs/game.md): resting
 * until healed (`R`), counts (`0`, digits, a command), autoexplore walking
 * to gold, repeated messages merged "(x5)", and the status line that fits
 * any width from 40 columns, the effects and the turn always shown. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "display.h"
#include "game.h"
#include "keys.h"
#include "view.h"
#include "view_status.h"

static game_t *room(void)
{
    return arena_room(1, NULL);
}

/* Row y of s as text (ASCII; anything else as '?'). */
static const char *row(const screen_t *s, int y)
{
    static char line[256];
    int n = 0;
    for (int x = 0; x < s->w && n < 255; x++) {
        uint32_t ch = screen_cat(s, x, y)->ch;
        line[n++] = ch < 128 ? (char)ch : '?';
    }
    while (n > 0 && line[n - 1] == ' ')
        n--;
    line[n] = 0;
    return line;
}

START_TEST(rest_until_healed_or_disturbed)
{
    game_t *g = room();
    g->player.hp = 12;
    ck_assert_int_eq(game_key(g, 'R'), 1);
    ck_assert_int_eq(g->player.hp, 30);
    ck_assert_int_eq(g->turn, 18);
    ck_assert_str_eq(game_msg(g, 0)->text, "You rest 18 turns: HP 30/30.");
    /* Nothing to rest for: no turn. */
    ck_assert_int_eq(game_key(g, 'R'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You have nothing to rest for.");
    /* A monster coming into view ends it: in a corridor (row 8 only), a
     * rat wandering one step out of view. */
    arena_corridor(g);
    game_update_fov(g);
    g->player.max_hp = 200;
    g->player.hp = 1;
    int m = game_place_monster(g, MON_RAT, 19, 8);
    ck_assert(!game_lit(g, 19, 8));
    ck_assert_int_eq(game_key(g, 'R'), 1);
    /* Seed 1's wander brings it to 18 after 162 turns of rest, 1 HP
     * each. */
    ck_assert_int_eq(g->turn, 18 + 162);
    ck_assert_int_eq(g->player.hp, 1 + 162);
    ck_assert_int_eq(g->monsters[m].x, 18);
    ck_assert(game_monster_in_view(g));
    /* With it in view, resting is refused. */
    ck_assert_int_eq(game_key(g, 'R'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You cannot rest with a monster in view.");
    game_free(g);
}
END_TEST

START_TEST(counts)
{
    game_t *g = room();
    g->player.hp = 10;
    game_key(g, '0');
    ck_assert_int_eq(g->mode, MODE_COUNT);
    game_key(g, '1');
    game_key(g, '2');
    ck_assert_int_eq(game_key(g, '.'), 1);
    ck_assert_int_eq(g->turn, 12);
    ck_assert_int_eq(g->player.hp, 22); /* 1 HP a wait */
    ck_assert_int_eq(g->mode, MODE_PLAY);
    /* A count of moves: 5 steps west. */
    game_key(g, '0');
    game_key(g, '5');
    ck_assert_int_eq(game_key(g, 'h'), 1);
    ck_assert_int_eq(g->player.x, 5);
    ck_assert_int_eq(g->turn, 17);
    /* Into a wall it stops. */
    game_key(g, '0');
    game_key(g, '9');
    game_key(g, 'h');
    ck_assert_int_eq(g->player.x, 1);
    ck_assert_int_eq(g->turn, 21);
    /* Anything else ends the count. */
    game_key(g, '0');
    ck_assert_int_eq(game_key(g, 'i'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "Counts are for waiting and moving.");
    ck_assert_int_eq(g->mode, MODE_PLAY);
    game_free(g);
}
END_TEST

START_TEST(autoexplore_takes_gold)
{
    game_t *g = room();
    /* Everything explored but for gold in the far corner. */
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            tile_bit_put(g->map.explored[y], x, 1);
    item_put(g, ITEM_GOLD, 0, 16, 8, 25);
    game_update_fov(g);
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->player.gold, 25);
    ck_assert_int_eq(g->player.x, 16);
    ck_assert_int_eq(g->turn, 6);
    ck_assert_int_eq(game_key(g, 'o'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "There is nothing left to explore here.");
    game_free(g);
}
END_TEST

START_TEST(repeated_lines_merge)
{
    game_t *g = room();
    int count = g->log_count;
    for (int i = 0; i < 5; i++)
        game_key(g, 'W');
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "Unknown key 'W'. Press ? for help. (x5)");
    ck_assert_int_eq(g->log_count, count + 1);
    ck_assert(game_msg_is_new(g, 0));
    game_key(g, 'X');
    ck_assert_str_eq(game_msg(g, 0)->text, "Unknown key 'X'. Press ? for help.");
    ck_assert_str_eq(game_msg(g, 1)->text,
                     "Unknown key 'W'. Press ? for help. (x5)");
    ck_assert(!game_msg_is_new(g, 1));
    /* A line too long for its count is cut before " (xN)". */
    char longer[MSG_LEN];
    memset(longer, 'a', MSG_LEN - 1);
    longer[MSG_LEN - 1] = 0;
    game_log(g, MSG_INFO, "%s", longer);
    game_log(g, MSG_INFO, "%s", longer);
    game_log(g, MSG_INFO, "%s", longer);
    ck_assert_uint_eq(strlen(game_msg(g, 0)->text), MSG_LEN - 1);
    ck_assert_str_eq(game_msg(g, 0)->text + MSG_LEN - 6, " (x3)");
    game_free(g);
}
END_TEST

/* The log writes its common lines without printf (world.c): the bytes must
 * be printf's, and a slot's bytes past the text zero (the state hash reads
 * them). */
START_TEST(log_lines_as_printf_writes_them)
{
    game_t *g = room();
    char huge[2 * MSG_LEN], want[MSG_LEN];
    memset(huge, 'b', sizeof huge - 1);
    huge[sizeof huge - 1] = 0;
    game_log(g, MSG_GOOD, "%s", huge); /* copied, cut to MSG_LEN - 1 */
    ck_assert_uint_eq(strlen(game_msg(g, 0)->text), MSG_LEN - 1);
    game_log(g, MSG_GOOD, "%s and %d", "x", 7); /* printf's own */
    ck_assert_str_eq(game_msg(g, 0)->text, "x and 7");
    for (int n = 1; n <= 300; n++) {
        game_log(g, MSG_BAD, "A line with no conversion.");
        if (n > 255)
            continue; /* a line merges 255 times at most: see below */
        if (n > 1)
            snprintf(want, sizeof want, "A line with no conversion. (x%d)", n);
        else
            snprintf(want, sizeof want, "A line with no conversion.");
        const msg_t *m = game_msg(g, 0);
        ck_assert_str_eq(m->text, want);
        for (size_t i = strlen(m->text); i < MSG_LEN; i++)
            ck_assert_int_eq(m->text[i], 0);
    }
    /* Past 255 a new line starts: the 256th is the text alone, the 300th
     * the 45th of the second run. */
    ck_assert_str_eq(game_msg(g, 1)->text, "A line with no conversion. (x255)");
    ck_assert_str_eq(game_msg(g, 0)->text, "A line with no conversion. (x45)");
    game_free(g);
}
END_TEST

START_TEST(status_line_fits_its_width)
{
    /* The longest state a game reaches: level 21, five-digit XP and turn,
     * poisoned and fast. At 80 columns XP's target, the effects' long
     * words and the long labels give way, and the bar stays. */
    game_t *g = room();
    g->player.hp = 123;
    g->player.max_hp = 135;
    g->player.level = 21;
    g->player.xp = 11885;
    g->player.gold = 1398;
    g->depth = 12;
    g->turn = 10000;
    g->player.poison = 3;
    g->player.haste = 4;
    const display_t plain_d = DISPLAY_PLAIN, *plain = &plain_d;
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 23),
                     "HP:123/135 [=========-]  L:21  XP:11885  $1398  D:12  T:10000  Pois Fast");
    screen_free(&s);
    /* At 40 columns the labels shrink and the least useful parts go. */
    screen_init(&s, 40, 1);
    ck_assert_int_ge(view_status_fit(g, plain, &s, 0, 40), 0);
    ck_assert_str_eq(row(&s, 0), "HP:123/135 L:21 D:12 T:10000 Pois Fast");
    screen_free(&s);
    /* A short state keeps everything at 80. */
    game_t *h = room();
    screen_init(&s, 80, 24);
    view_draw(h, &s);
    ck_assert_str_eq(row(&s, 23),
                     "HP: 30/30 [==========]  Lvl:1  XP:0/100  Gold:0  Depth:1  Turn:0");
    screen_free(&s);
    /* Every width from 40 to 200 shows the effects and the turn. */
    for (int w = 40; w <= 200; w++) {
        screen_init(&s, w, 1);
        int tx = view_status_fit(g, plain, &s, 0, w);
        ck_assert_int_ge(tx, 0);
        ck_assert_ptr_nonnull(strstr(row(&s, 0), "10000"));
        ck_assert_ptr_nonnull(strstr(row(&s, 0), "Pois"));
        ck_assert_ptr_nonnull(strstr(row(&s, 0), "Fast"));
        ck_assert_uint_eq(screen_cat(&s, tx, 0)->ch, '1');
        screen_free(&s);
    }
    game_free(g);
    game_free(h);
}
END_TEST

/* The digits of a count are shown as they are typed: the status row says
 * the count so far, at 80 columns and in the narrow layout (Backspace a
 * digit back), and the status line is back once the count is done; Esc
 * gives it up with nothing said. */
START_TEST(count_shows_its_digits)
{
    game_t *g = room();
    screen_t s;
    screen_init(&s, 80, 24);
    game_key(g, '0');
    view_draw(g, &s);
    /* the prompt is the status row's alone (game version 11: it was a
     * log message too, kept in the history and the dump) */
    ck_assert_int_ne(strncmp(row(&s, 22), "Count", 5), 0);
    ck_assert_str_eq(row(&s, 23), "Count: type a number.");
    game_key(g, '3');
    game_key(g, '4');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 23), "Count: 34 - then . or a direction.");
    game_key(g, KEY_BACKSPACE); /* a digit back */
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 23), "Count: 3 - then . or a direction.");
    game_key(g, '4');
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 23), "Count: 34 - then . or a direction.");
    screen_free(&s);
    screen_init(&s, 40, 20);
    view_draw(g, &s);
    ck_assert_str_eq(row(&s, 19), "Count: 34 - then . or a direction.");
    screen_free(&s);
    game_key(g, '.');
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert_int_eq(strncmp(row(&s, 23), "HP: ", 4), 0);
    ck_assert_ptr_nonnull(strstr(row(&s, 23), "Turn:34"));
    /* Esc gives a count up quietly, as Backspace does on no digits */
    uint32_t lines = g->log_total;
    game_key(g, '0');
    game_key(g, '5');
    game_key(g, KEY_ESC);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    game_key(g, '0');
    game_key(g, KEY_BACKSPACE);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_uint_eq(g->log_total, lines);
    ck_assert_uint_eq(g->turn, 34);
    screen_free(&s);
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("rest");
    TCase *tc = tcase_create("rest");
    tcase_add_test(tc, rest_until_healed_or_disturbed);
    tcase_add_test(tc, counts);
    tcase_add_test(tc, count_shows_its_digits);
    tcase_add_test(tc, autoexplore_takes_gold);
    tcase_add_test(tc, repeated_lines_merge);
    tcase_add_test(tc, log_lines_as_printf_writes_them);
    tcase_add_test(tc, status_line_fits_its_width);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
