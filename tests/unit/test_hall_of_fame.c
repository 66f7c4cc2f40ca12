/* test_hall_of_fame.c - the hall of fame as lobby_draw draws it: every
 * column at the same place from rank 1 to rank 20 and for the own best
 * (its rank up to six digits), the replay letter in a column of its own,
 * the ruleset in at most 9 columns, and a cause printed whole when it fits
 * or, when it does not, its head before a colon ("won") or cut with
 * "...", a wider terminal giving the cause
 * its extra columns; below 80 columns, the columns that do not fit
 * whole are left out. The expected rows are written out by hand. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "combat.h"
#include "keys.h"
#include "lobby.h"
#include "screen.h"
#include "store.h"
#include "view.h"

/* 1700000100: 2023-11-14 (UTC) */
#define ENDED 1700000100

static store_scores_t sc;

static void fill(void)
{
    memset(&sc, 0, sizeof sc);
    sc.status = STORE_OK;
    sc.n = 20;
    for (int i = 0; i < 20; i++) {
        store_score_t *r = &sc.top[i];
        r->game_id = 100 + i;
        snprintf(r->name, sizeof r->name, "player%d", i + 1);
        r->score = 20000 - 1000 * i;
        r->depth = 20 - i;
        r->turns = 5000 - 100 * i;
        r->ruleset = RULES_POWER;
        snprintf(r->cause, sizeof r->cause, "killed by a rat");
        r->ended = ENDED;
        r->ending = STORE_END_DEATH;
    }
    store_score_t *j = &sc.top[9]; /* rank 10: letter j */
    snprintf(j->name, sizeof j->name, "Alexandrina_Quixote1"); /* 20 */
    j->score = 12345;
    j->depth = 7;
    j->turns = 4321;
    j->ruleset = RULES_D10;
    snprintf(j->cause, sizeof j->cause, "killed by a very long-named ogre chieftain");
    store_score_t *t = &sc.top[19]; /* rank 20: letter t */
    t->ruleset = RULES_ATTACK_DEFENSE;
    snprintf(t->cause, sizeof t->cause, "quit");
    t->ending = STORE_END_QUIT;
    sc.has_best = 1;
    sc.best = sc.top[0];
    snprintf(sc.best.name, sizeof sc.best.name, "Zed");
    sc.best.game_id = 99999;
    sc.best.score = 3;
    sc.best.ruleset = RULES_DICE_POOL;
    snprintf(sc.best.cause, sizeof sc.best.cause, "won: took the Amulet at depth 20");
    sc.best.ending = STORE_END_WIN;
    sc.best_rank = 123456;
}

/* The hall of fame drawn at w x h; row y's text into out (trailing
 * blanks cut). */
static void draw(screen_t *scr, int w, int h)
{
    lobby_t l;
    lobby_init(&l, "guest1");
    ck_assert_int_eq(lobby_key(&l, 's'), LOBBY_DO_SCORES);
    lobby_scores_done(&l, &sc);
    ck_assert_int_eq(l.page, LOBBY_SCORES);
    lobby_info_t info = { "rogued", "", 1, 0, NULL, NULL, 0 };
    ck_assert_int_eq(screen_init(scr, w, h), 0);
    lobby_draw(&l, &info, scr);
    lobby_free(&l);
}

static const char *row(const screen_t *scr, int y)
{
    static char out[512];
    int n = 0;
    for (int x = 0; x < scr->w; x++)
        out[n++] = (char)scr->cells[y * scr->w + x].ch;
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
    return out;
}

START_TEST(columns_aligned_to_rank_20_and_beyond)
{
    fill();
    screen_t scr = { 0 };
    draw(&scr, 80, 34); /* room for all 20 rows */
    ck_assert_str_eq(row(&scr, 7),
        "     # Name                  Score Dep  Turns Killed by/end Rules     Date");
    ck_assert_str_eq(row(&scr, 8),
        "a    1 player1               20000  20   5000 a rat         power     2023-11-14");
    ck_assert_str_eq(row(&scr, 17),
        "j   10 Alexandrina_Quixote1  12345   7   4321 a very lon... d10       2023-11-14");
    ck_assert_str_eq(row(&scr, 27),
        "t   20 player20               1000   1   3100 quit          att-def   2023-11-14");
    ck_assert_str_eq(row(&scr, 29), "Your best:");
    ck_assert_str_eq(row(&scr, 30),
        "123456 Zed                       3  20   5000 won           dice-pool 2023-11-14");
    screen_free(&scr);
}
END_TEST

START_TEST(wider_terminal_prints_causes_whole)
{
    fill();
    screen_t scr = { 0 };
    draw(&scr, 100, 34); /* 20 more columns, all the cause's: 33 in all */
    ck_assert_str_eq(row(&scr, 17),
        "j   10 Alexandrina_Quixote1  12345   7   4321 a very long-named ogre chieftain  "
        "d10       2023-11-14");
    ck_assert_str_eq(row(&scr, 30),
        "123456 Zed                       3  20   5000 won: took the Amulet at depth 20  "
        "dice-pool 2023-11-14");
    screen_free(&scr);
    /* wider still: the table (at most a whole cause wide) is centred */
    draw(&scr, 200, 34);
    const char *r = row(&scr, 8);
    int lead = (200 - (67 + STORE_CAUSE_MAX)) / 2;
    for (int i = 0; i < lead; i++)
        ck_assert_int_eq(r[i], ' ');
    ck_assert(strncmp(r + lead, "a    1 player1 ", 15) == 0);
    screen_free(&scr);
}
END_TEST

/* Below 80 columns the table drops the columns that do not fit whole
 * (the date and the ruleset, then the cause and the turns) rather than
 * cut a number or a name at the edge; the own best's row stays clear of
 * the hint. */
START_TEST(narrow_terminal_drops_columns)
{
    fill();
    screen_t scr = { 0 };
    draw(&scr, 40, 20);
    static const char *const at40[] = {
        "     # Name                  Score Dep",
        "a    1 player1               20000  20",
        "b    2 player2               19000  19",
    };
    for (int i = 0; i < 3; i++)
        ck_assert_str_eq(row(&scr, 7 + i), at40[i]);
    ck_assert_str_eq(row(&scr, 15), "h    8 player8               13000  13");
    ck_assert_str_eq(row(&scr, 16), "");
    ck_assert_str_eq(row(&scr, 17), "Your best:");
    ck_assert_str_eq(row(&scr, 18), "123456 Zed                       3  20");
    ck_assert_str_eq(row(&scr, 19), "  A letter replays; other keys return.");
    screen_free(&scr);
    draw(&scr, 60, 20); /* room for the turns and a short cause */
    ck_assert_str_eq(row(&scr, 7),
        "     # Name                  Score Dep  Turns Killed by/end");
    ck_assert_str_eq(row(&scr, 8),
        "a    1 player1               20000  20   5000 a rat");
    ck_assert_str_eq(row(&scr, 18),
        "123456 Zed                       3  20   5000 won");
    ck_assert_str_eq(row(&scr, 19),
        "     A letter replays that game; any other key returns.");
    screen_free(&scr);
}
END_TEST

/* A full hall of fame leaves the own best's two rows clear of the hint
 * on the last row, at 80x24 and at every height up to the one that holds
 * all 20 games: the table gives up the row the own best needs. Without
 * an own best, the table has that row (13 at 80x24). */
START_TEST(full_table_keeps_the_own_best_clear_of_the_hint)
{
    fill();
    screen_t scr = { 0 };
    draw(&scr, 80, 24);
    ck_assert_str_eq(row(&scr, 19),
        "l   12 player12               9000   9   3900 a rat         power     2023-11-14");
    ck_assert_str_eq(row(&scr, 20), "");
    ck_assert_str_eq(row(&scr, 21), "Your best:");
    ck_assert_str_eq(row(&scr, 22),
        "123456 Zed                       3  20   5000 won           dice-pool 2023-11-14");
    ck_assert_str_eq(row(&scr, 23),
        "               A letter replays that game; any other key returns.");
    screen_free(&scr);
    for (int h = 24; h <= 34; h++) {
        draw(&scr, 80, h);
        int rows = h - 12 < 20 ? h - 12 : 20;
        ck_assert_msg(row(&scr, 8 + rows - 1)[0] == 'a' + rows - 1,
                      "at 80x%d the last letter is not row %d's", h, rows);
        ck_assert_msg(row(&scr, 8 + rows)[0] == '\0', "at 80x%d", h);
        ck_assert_str_eq(row(&scr, 8 + rows + 1), "Your best:");
        ck_assert(strncmp(row(&scr, 8 + rows + 2), "123456 Zed ", 11) == 0);
        ck_assert(strstr(row(&scr, h - 1), "A letter replays that game"));
        screen_free(&scr);
    }
    sc.has_best = 0;
    draw(&scr, 80, 24);
    ck_assert_str_eq(row(&scr, 20),
        "m   13 player13               8000   8   3800 a rat         power     2023-11-14");
    ck_assert_str_eq(row(&scr, 21), "");
    ck_assert_str_eq(row(&scr, 22), "");
    screen_free(&scr);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("hall_of_fame");
    TCase *tc = tcase_create("hall_of_fame");
    tcase_add_test(tc, columns_aligned_to_rank_20_and_beyond);
    tcase_add_test(tc, wider_terminal_prints_causes_whole);
    tcase_add_test(tc, narrow_terminal_drops_columns);
    tcase_add_test(tc, full_table_keeps_the_own_best_clear_of_the_hint);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
