/* test_know.c - unknown items (docs/game.md, "Unknown items"): potions and
 * scrolls look different in every game and the same all through one, until
 * used or identified; the scroll of identify; the discoveries screen; the
 * new kinds that are ways out (teleportation, speed) or bad at the wrong
 * time (sleeping, summon monster); the articles of names; and the pack
 * menu's columns holding long names. Exact values
 * on fixed seeds. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "game.h"
#include "keys.h"
#include "view.h"

/* An open 40x15 room (x 1..40, y 1..15), the player at (10, 8), nothing
 * else; the seed decides the appearances. */
static game_t *room(uint64_t seed)
{
    return arena_room(seed, NULL);
}

static const char *name(const game_t *g, int kind)
{
    static char buf[64];
    return item_name(g, kind, 1, buf, sizeof buf);
}

static int screen_has(const screen_t *s, const char *text)
{
    for (int y = 0; y < s->h; y++) {
        char line[256];
        int n = 0;
        for (int x = 0; x < s->w && n < 255; x++) {
            uint32_t ch = screen_cat(s, x, y)->ch;
            line[n++] = ch < 128 ? (char)ch : '?';
        }
        line[n] = 0;
        if (strstr(line, text))
            return 1;
    }
    return 0;
}

static int log_has(const game_t *g, const char *text)
{
    for (int i = 0; game_msg(g, i); i++)
        if (strstr(game_msg(g, i)->text, text))
            return 1;
    return 0;
}

/* Uses pack letter `letter` through the keys. */
static int use(game_t *g, int letter)
{
    game_key(g, 'i');
    return game_key(g, letter);
}

START_TEST(appearances_differ_between_seeds_and_stay)
{
    game_t *a = game_new(1, NULL), *b = game_new(2, NULL);
    ck_assert_str_eq(name(a, IK_HEALTH_POTION), "golden potion");
    ck_assert_str_eq(name(a, IK_FIREBALL), "scroll labelled XIXAXA XOXAXA");
    ck_assert_str_eq(name(a, IK_CONFUSION), "scroll labelled NR 9");
    ck_assert_str_eq(name(b, IK_HEALTH_POTION), "inky potion");
    ck_assert_str_eq(name(b, IK_FIREBALL), "scroll labelled FOOBIE BLETCH");
    /* Within a game, each potion and scroll has an appearance of its own,
     * and equipment is known from the start. */
    for (int k = 0; k < IK_COUNT; k++) {
        ck_assert_int_eq(item_known(a, k), !item_is_magic(k));
        char nk[64], nj[64];
        item_name(a, k, 1, nk, sizeof nk);
        for (int j = 0; j < k; j++) {
            item_name(a, j, 1, nj, sizeof nj);
            if (item_is_magic(k) && item_is_magic(j))
                ck_assert_str_ne(nk, nj);
        }
    }
    /* ...and keeps it all game long. */
    for (int i = 0; i < 200; i++)
        game_key(a, "hjkl"[i % 4]);
    ck_assert_str_eq(name(a, IK_HEALTH_POTION), "golden potion");
    ck_assert_str_eq(name(a, IK_DAGGER), "dagger");
    game_free(a);
    game_free(b);
}
END_TEST

START_TEST(unknown_until_used)
{
    game_t *g = room(1);
    item_put(g, ITEM_THING, IK_HEALTH_POTION, 11, 8, 0);
    game_key(g, 'l');
    ck_assert_str_eq(game_msg(g, 0)->text, "You see a golden potion here.");
    game_key(g, 'g');
    ck_assert_str_eq(game_msg(g, 0)->text, "You pick up a golden potion (a).");
    char look[64];
    item_put(g, ITEM_THING, IK_HEALTH_POTION, 12, 8, 0);
    game_update_fov(g);
    ck_assert_str_eq(game_describe(g, 12, 8, look, sizeof look),
                     "a golden potion");
    g->player.hp = 10;
    ck_assert_int_eq(use(g, 'a'), 1);
    ck_assert_str_eq(game_msg(g, 1)->text,
                     "The golden potion was a health potion.");
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You drink the health potion and heal 10 HP.");
    ck_assert(item_known(g, IK_HEALTH_POTION));
    ck_assert_str_eq(game_describe(g, 12, 8, look, sizeof look),
                     "a health potion");
    game_free(g);

    /* Unknown, it is drunk even at full health: wasted, but learnt. */
    g = room(1);
    item_pack_add(g, IK_HEALTH_POTION);
    ck_assert_int_eq(use(g, 'a'), 1);
    ck_assert_int_eq(g->pack_count, 0);
    ck_assert(item_known(g, IK_HEALTH_POTION));
    /* Known, it is kept. */
    item_pack_add(g, IK_HEALTH_POTION);
    ck_assert_int_eq(use(g, 'a'), 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You are already at full health.");
    game_free(g);

    /* An unknown bolt read with nothing near is learnt and wasted. */
    g = room(1);
    item_pack_add(g, IK_LIGHTNING);
    ck_assert_int_eq(use(g, 'a'), 1);
    ck_assert_int_eq(g->pack_count, 0);
    ck_assert(item_known(g, IK_LIGHTNING));
    ck_assert(log_has(g, "The scroll crackles, but no enemy is close enough"));
    game_free(g);
}
END_TEST

START_TEST(scroll_of_identify)
{
    game_t *g = room(1);
    item_pack_add(g, IK_IDENTIFY);
    item_pack_add(g, IK_SPEED);
    item_pack_add(g, IK_FIREBALL);
    char was[64];
    item_unknown_name(g, IK_SPEED, was, sizeof was);
    ck_assert_int_eq(use(g, 'a'), 0); /* the turn comes with the choice */
    ck_assert_int_eq(g->mode, MODE_IDENTIFY);
    ck_assert(item_known(g, IK_IDENTIFY));
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert(screen_has(&s, "Identify which item? Press its letter (Esc: the "
                         "scroll is spent)."));
    /* The read scroll's letter is empty now: nothing happens. */
    ck_assert_int_eq(game_key(g, 'a'), 0);
    ck_assert_int_eq(g->mode, MODE_IDENTIFY);
    ck_assert_int_eq(game_key(g, 'b'), 1);
    ck_assert_int_eq(g->mode, MODE_PLAY);
    ck_assert_int_eq(g->turn, 1);
    char want[96];
    snprintf(want, sizeof want, "b) the %s is a potion of speed.", was);
    ck_assert_str_eq(game_msg(g, 0)->text, want);
    ck_assert(item_known(g, IK_SPEED));
    ck_assert(!item_known(g, IK_FIREBALL));
    game_key(g, 'i');
    view_draw(g, &s);
    ck_assert(screen_has(&s, "b) ! potion of speed"));
    ck_assert(screen_has(&s, "c) ? scroll labelled XIXAXA XOXAXA"));
    game_key(g, KEY_ESC);

    /* The discoveries screen lists what was learnt, by appearance. */
    game_key(g, '\\');
    ck_assert_int_eq(g->mode, MODE_DISCOVERIES);
    view_draw(g, &s);
    ck_assert(screen_has(&s, "Discoveries"));
    snprintf(want, sizeof want, "%s: potion of speed", was);
    ck_assert(screen_has(&s, want));
    item_unknown_name(g, IK_IDENTIFY, was, sizeof was);
    snprintf(want, sizeof want, "%s: scroll of identify", was);
    ck_assert(screen_has(&s, want));
    ck_assert(!screen_has(&s, "fireball"));
    game_key(g, ' ');
    ck_assert_int_eq(g->mode, MODE_PLAY);

    /* A second scroll with nothing left unknown but the fireball: Esc
     * gives the chance up, a turn all the same. */
    item_pack_add(g, IK_IDENTIFY);
    use(g, 'a');
    ck_assert_int_eq(game_key(g, KEY_ESC), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You identify nothing.");
    ck_assert_int_eq(g->turn, 2);
    screen_free(&s);
    game_free(g);

    /* Nothing unknown at all: read and spent. */
    g = room(1);
    item_pack_add(g, IK_IDENTIFY);
    ck_assert_int_eq(use(g, 'a'), 1);
    ck_assert_str_eq(game_msg(g, 0)->text, "You have nothing unknown to identify.");
    game_key(g, '\\');
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert(screen_has(&s, "scroll of identify"));
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(teleportation_is_a_way_out)
{
    game_t *g = room(1);
    int m = game_place_monster(g, MON_TROLL, 11, 8);
    item_pack_add(g, IK_TELEPORT);
    ck_assert_int_eq(use(g, 'a'), 1);
    ck_assert(log_has(g, "You feel yourself yanked away!"));
    /* Seed 1's draw: a free tile out of the troll's view. */
    ck_assert_int_eq(g->player.x, 26);
    ck_assert_int_eq(g->player.y, 9);
    ck_assert(!game_lit(g, 11, 8));
    ck_assert_int_eq(g->player.hp, g->player.max_hp);
    ck_assert_int_eq(g->monsters[m].alive, 1);
    ck_assert(item_known(g, IK_TELEPORT));
    game_free(g);
}
END_TEST

START_TEST(speed_halves_the_monsters_turns)
{
    game_t *g = room(1);
    int m = game_place_monster(g, MON_ORC, 16, 8);
    item_pack_add(g, IK_SPEED);
    ck_assert_int_eq(use(g, 'a'), 1);
    ck_assert(log_has(g, "You feel yourself speed up."));
    /* The first turn of speed is the player's alone. */
    ck_assert_int_eq(g->monsters[m].x, 16);
    ck_assert_int_eq(g->player.haste, 11);
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert(screen_has(&s, "Fast"));
    game_key(g, '.'); /* haste 11: the orc steps */
    ck_assert_int_eq(g->monsters[m].x, 15);
    game_key(g, '.'); /* 10: it does not */
    ck_assert_int_eq(g->monsters[m].x, 15);
    game_key(g, '.'); /* 9: it does */
    ck_assert_int_eq(g->monsters[m].x, 14);
    g->monsters[m].alive = 0;
    for (int i = 0; i < 9; i++)
        game_key(g, '.');
    ck_assert_int_eq(g->player.haste, 0);
    ck_assert(log_has(g, "You feel yourself slow down."));
    view_draw(g, &s);
    ck_assert(!screen_has(&s, "Fast"));
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(bad_at_the_wrong_time)
{
    /* Sleeping next to an orc: five turns of its blows. */
    game_t *g = room(1);
    game_place_monster(g, MON_ORC, 11, 8);
    item_pack_add(g, IK_SLEEP);
    ck_assert_int_eq(use(g, 'a'), 1);
    ck_assert_int_eq(g->turn, 5);
    ck_assert(log_has(g, "You fall asleep."));
    ck_assert_str_eq(game_msg(g, 0)->text, "You wake up.");
    ck_assert_int_eq(g->player.hp, 20);
    game_free(g);

    /* Summon monster: two of the depth around the player. */
    g = room(1);
    item_pack_add(g, IK_SUMMON);
    ck_assert_int_eq(use(g, 'a'), 1);
    ck_assert(log_has(g, "A shrill call: monsters appear around you!"));
    int near = 0;
    for (int i = 0; i < MAX_MONSTERS; i++)
        if (g->monsters[i].alive)
            near++;
    ck_assert_int_eq(near, 2);
    game_free(g);
}
END_TEST

START_TEST(articles)
{
    ck_assert_str_eq(item_article(IK_AMULET), "the");
    ck_assert_str_eq(item_article_of("orc"), "an");
    ck_assert_str_eq(item_article_of("Orc"), "an");
    ck_assert_str_eq(item_article_of("Elbereth scroll"), "an");
    ck_assert_str_eq(item_article_of("dagger"), "a");
    ck_assert_str_eq(item_article_of("ZELGO MER"), "a");
    game_t *g = room(1);
    item_put(g, ITEM_THING, IK_AMULET, 11, 8, 0);
    game_key(g, 'l');
    ck_assert_str_eq(game_msg(g, 0)->text, "You see the Amulet of Yendor here.");
    char buf[64];
    ck_assert_str_eq(item_a_name(g, IK_AMULET, buf, sizeof buf),
                     "the Amulet of Yendor");
    ck_assert_str_eq(item_name(g, IK_SPEED, 3, buf, sizeof buf),
                     "3 pink potions");
    item_learn(g, IK_SPEED);
    ck_assert_str_eq(item_name(g, IK_SPEED, 3, buf, sizeof buf),
                     "3 potions of speed");
    ck_assert_str_eq(item_name(g, IK_FIREBALL, 2, buf, sizeof buf),
                     "2 scrolls labelled XIXAXA XOXAXA");
    game_free(g);
}
END_TEST

/* The pack's two columns are 30 columns of name each: a stack of an
 * unknown scroll with a long label loses "labelled", not the label, and
 * never runs into the right column. */
START_TEST(pack_names_fit_their_column)
{
    game_t *g = room(1);
    g->appear[IK_FIREBALL] = 5; /* "VERR YED HORRE", the longest label */
    for (int i = 0; i < 12; i++)
        ck_assert_int_eq(item_pack_add(g, IK_FIREBALL), 0);
    /* slots b-n: n, the 14th, heads the right column, on a's row */
    for (int i = 1; i <= 13; i++)
        ck_assert_int_eq(item_pack_add(g, IK_SWORD), i);
    ck_assert_int_eq(game_key(g, 'i'), 0);
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    char row[81];
    for (int x = 0; x < 80; x++) {
        uint32_t ch = screen_cat(&s, x, 4)->ch;
        row[x] = ch < 128 ? (char)ch : '?';
    }
    row[80] = '\0';
    ck_assert_str_eq(row, "  | a) ? 12 scrolls VERR YED HORRE      n) ) "
                          "long sword                      |  ");
    screen_free(&s);
    game_free(g);
}
END_TEST

/* One column while the pack fits in it: the name has the box's width,
 * "labelled" and all. */
START_TEST(pack_names_keep_their_words_in_one_column)
{
    game_t *g = room(1);
    g->appear[IK_FIREBALL] = 5;
    for (int i = 0; i < 12; i++)
        ck_assert_int_eq(item_pack_add(g, IK_FIREBALL), 0);
    ck_assert_int_eq(game_key(g, 'i'), 0);
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw(g, &s);
    ck_assert(screen_has(&s, "a) ? 12 scrolls labelled VERR YED HORRE  "));
    screen_free(&s);
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("know");
    TCase *tc = tcase_create("know");
    tcase_add_test(tc, appearances_differ_between_seeds_and_stay);
    tcase_add_test(tc, unknown_until_used);
    tcase_add_test(tc, scroll_of_identify);
    tcase_add_test(tc, teleportation_is_a_way_out);
    tcase_add_test(tc, speed_halves_the_monsters_turns);
    tcase_add_test(tc, bad_at_the_wrong_time);
    tcase_add_test(tc, articles);
    tcase_add_test(tc, pack_names_fit_their_column);
    tcase_add_test(tc, pack_names_keep_their_words_in_one_column);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
