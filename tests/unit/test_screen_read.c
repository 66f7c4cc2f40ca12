/* test_screen_read.c - the balance bench's screen-only bot reads what the
 * view draws (tests/bench/screen_read.h, screen_bot.h): the player, the
 * monsters in view, the status line, the log and a pack menu, each
 * compared with the game it was drawn from; and the bot's item names
 * matched to the help's kinds, known or not. */
#include <check.h>
#include <string.h>

#include "bench/screen_bot.h"
#include "check_main.h"
#include "game.h"
#include "view.h"

static void draw(const game_t *g, screen_t *s, sr_screen_t *r)
{
    view_draw(g, s);
    sr_read(r, s);
}

START_TEST(reads_the_play_screen)
{
    game_t *g = game_new(1000001, NULL);
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 80, 24), 0);
    sr_screen_t r;
    draw(g, &s, &r);
    ck_assert_int_eq(r.mode, SR_PLAY);
    ck_assert_int_eq(r.px, g->player.x);
    ck_assert_int_eq(r.py, g->player.y);
    ck_assert_int_eq(r.hp, 30);
    ck_assert_int_eq(r.max_hp, 30);
    ck_assert_int_eq(r.depth, 1);
    ck_assert_int_eq(r.turn, 0);
    ck_assert_int_eq(r.nmon, 0);
    ck_assert_str_eq(r.log[0], "Press ? for help. Move with the arrow keys, "
                               "hjklyubn or the numpad.");
    /* Autoexplore until a monster is in view: the one the game shows. */
    for (int i = 0; i < 40 && !game_monster_in_view(g); i++)
        game_key(g, 'o');
    ck_assert(game_monster_in_view(g));
    draw(g, &s, &r);
    int shown = 0;
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *m = &g->monsters[i];
        if (!m->alive || !game_lit(g, m->x, m->y))
            continue;
        shown++;
        int found = 0;
        for (int j = 0; j < r.nmon; j++)
            found |= r.mon[j].x == m->x && r.mon[j].y == m->y &&
                     r.mon[j].glyph == monster_stats(m->kind)->glyph;
        ck_assert(found);
    }
    ck_assert_int_eq(r.nmon, shown);
    ck_assert_int_eq(r.turn, (int)g->turn);
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(reads_a_pack_menu_and_names_kinds)
{
    game_t *g = game_new(1000001, NULL);
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 80, 24), 0);
    g->pack[0] = IK_HEALTH_POTION;
    g->pack_n[0] = 3;
    g->pack[2] = IK_DART;
    g->pack_n[2] = 5;
    g->pack[3] = IK_LEATHER;
    g->pack_n[3] = 1;
    g->pack[4] = IK_SPEED;
    g->pack_n[4] = 1;
    g->pack_count = 4;
    g->player.armor = 3;
    item_learn(g, IK_HEALTH_POTION);
    game_key(g, 'i');
    sr_screen_t r;
    draw(g, &s, &r);
    ck_assert_int_eq(r.mode, SR_INVENTORY);
    ck_assert_int_eq(r.npack, 4);
    ck_assert_int_eq(r.pack[0].letter, 'a');
    ck_assert_int_eq(r.pack[0].glyph, '!');
    ck_assert_int_eq(r.pack[0].count, 3);
    ck_assert_str_eq(r.pack[0].name, "health potions");
    ck_assert_int_eq(sbot_kind(&r.pack[0]), IK_HEALTH_POTION);
    ck_assert_int_eq(r.pack[1].letter, 'c');
    ck_assert_int_eq(sbot_kind(&r.pack[1]), IK_DART);
    ck_assert_int_eq(r.pack[2].letter, 'd');
    ck_assert_int_eq(r.pack[2].in_use, 1);
    ck_assert_int_eq(sbot_kind(&r.pack[2]), IK_LEATHER);
    /* The potion of speed is not known yet: a potion of some look. */
    ck_assert_int_eq(r.pack[3].glyph, '!');
    ck_assert_int_eq(sbot_kind(&r.pack[3]), -1);
    /* The bot reading this menu: nothing in view, full HP, armour worn:
     * nothing to use (an unknown potion waits for a hurt moment). */
    sbot_t b;
    sbot_init(&b);
    sr_screen_t play;
    game_key(g, 27);
    draw(g, &s, &play);
    ck_assert_int_eq(play.mode, SR_PLAY);
    b.seen = play;
    ck_assert_int_eq(sbot_menu(&b, &r), KEY_ESC_SB);
    ck_assert_int_eq(b.npack, 4);
    /* Hurt, with nothing in view: it drinks the unknown potion. */
    b.seen.hp = 10;
    ck_assert_int_eq(sbot_menu(&b, &r), 'e');
    screen_free(&s);
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("screen_read");
    TCase *tc = tcase_create("screen_read");
    tcase_add_test(tc, reads_the_play_screen);
    tcase_add_test(tc, reads_a_pack_menu_and_names_kinds);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
