/* test_lobby_narrow.c - the lobby's pages at the narrowest terminal that
 * plays, 40x20, and at 60x20: the menu with a game to continue and its
 * note, the prompts' hint and note (at 80x24 too, a note wider than
 * the room wrapped there as well), the help, the watch
 * list and the hall of fame
 * keep every word and every number whole (README: "Any terminal from
 * 40x20 plays"). The expected rows are written out by hand; a row that
 * ran off the right edge would differ. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "combat.h"
#include "keys.h"
#include "lobby.h"
#include "screen.h"
#include "store.h"

/* Row y of s as ASCII, trailing blanks cut. */
static const char *row(const screen_t *s, int y)
{
    static char out[256];
    int n = 0;
    for (int x = 0; x < s->w; x++) {
        uint32_t ch = screen_cat(s, x, y)->ch;
        out[n++] = ch < 0x80 ? (char)ch : '?';
    }
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
    return out;
}

/* l drawn at w x h into s (freed by the caller). */
static void draw(const lobby_t *l, screen_t *s, int w, int h)
{
    lobby_info_t info = { "rogued", "", 3, 1, NULL, NULL, 0 };
    ck_assert_int_eq(screen_init(s, w, h), 0);
    lobby_draw(l, &info, s);
}

/* Asserts rows y0.. of s are want[] (NULL-terminated). */
static void rows_are(const screen_t *s, int y0, const char *const *want)
{
    for (int i = 0; want[i]; i++)
        ck_assert_str_eq(row(s, y0 + i), want[i]);
}

START_TEST(menu_with_a_game_to_continue)
{
    lobby_t l;
    lobby_init(&l, "");
    snprintf(l.account, sizeof l.account, "hero1");
    lobby_offer_resume(&l, 2, 622, 0);
    screen_t s;
    draw(&l, &s, 40, 20);
    /* The numbers whole, in fewer words; the note wrapped under it. */
    ck_assert_str_eq(row(&s, 7), "    p   Continue (depth 2, turn 622)");
    ck_assert_str_eq(row(&s, 12), "    k   Your SSH keys");
    static const char *const note[] = {
        "    Welcome back, hero1! Your game is",
        "    waiting: p continues it.",
        "",
        NULL,
    };
    rows_are(&s, 17, note);
    screen_free(&s);
    /* At 60 columns the menu's line of 80 fits and is kept as it is. */
    draw(&l, &s, 60, 20);
    ck_assert_str_eq(row(&s, 7), "    p   Continue your game (depth 2, turn 622)");
    ck_assert_str_eq(row(&s, 17),
                     "    Welcome back, hero1! Your game is waiting: p continues");
    ck_assert_str_eq(row(&s, 18), "    it.");
    screen_free(&s);
    lobby_free(&l);
}
END_TEST

START_TEST(prompt_hint_wrapped)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'r');
    screen_t s;
    draw(&l, &s, 40, 20);
    static const char *const want[] = {
        "    Register an account",
        "",
        "    Name:",
        "",
        "    2-20 letters, digits, _ or -. Enter",
        "    to go on, Esc for the menu.",
        NULL,
    };
    rows_are(&s, 7, want);
    screen_free(&s);
    /* a new password is told its rule; a login's is not (below) */
    for (const char *c = "alice\r"; *c; c++)
        lobby_key(&l, (unsigned char)*c);
    draw(&l, &s, 80, 24);
    ck_assert_str_eq(row(&s, 12), "    Enter to go on, Esc for the menu. At "
                                  "least 6 characters.");
    screen_free(&s);
    lobby_free(&l);
}
END_TEST

/* Types text at the lobby's prompt. */
static void type(lobby_t *l, const char *text)
{
    for (const char *c = text; *c; c++)
        lobby_key(l, (unsigned char)*c);
}

/* A prompt's note is on the row under the line typed, where the player
 * looks, not rows below the hint: at 80x24 in one row with the hint where
 * it was; at 40x20 wrapped, the hint pushed down under it. */
START_TEST(prompt_note_under_its_line)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'l');
    type(&l, "alice\r");
    lobby_note(&l, LOBBY_NOTE_BAD, "Wrong name or password.");
    screen_t s;
    draw(&l, &s, 80, 24);
    static const char *const full[] = {
        "    Log in",
        "",
        "    Name: alice",
        "    Password:",
        "    Wrong name or password.",
        "    Enter to go on, Esc for the menu.",
        "",
        NULL,
    };
    rows_are(&s, 7, full);
    for (int y = 14; y < 24; y++)
        ck_assert_str_eq(row(&s, y), "");
    screen_free(&s);
    draw(&l, &s, 40, 20);
    static const char *const narrow[] = {
        "    Log in",
        "",
        "    Name: alice",
        "    Password:",
        "    Wrong name or password.",
        "    Enter to go on, Esc for the menu.",
        "",
        NULL,
    };
    rows_are(&s, 7, narrow);
    screen_free(&s);
    /* a note of two rows at 40 columns: the hint goes under both */
    lobby_key(&l, 27);
    lobby_key(&l, 'r');
    lobby_note(&l, LOBBY_NOTE_BAD, "The name alice is taken: choose "
               "another.");
    draw(&l, &s, 40, 20);
    static const char *const wrapped[] = {
        "    Register an account",
        "",
        "    Name:",
        "    The name alice is taken: choose",
        "    another.",
        "    2-20 letters, digits, _ or -. Enter",
        "    to go on, Esc for the menu.",
        "",
        NULL,
    };
    rows_are(&s, 7, wrapped);
    screen_free(&s);
    /* a note wider than 80 columns' room, at the menu: wrapped at 80x24
     * too, not cut at the edge (the last visit's end lost "away)." so) */
    lobby_key(&l, 27);
    lobby_note(&l, LOBBY_NOTE_INFO, "Your last visit here has ended (a "
               "login elsewhere, a logout, a restart or too long away).");
    draw(&l, &s, 80, 24);
    static const char *const menu_note[] = {
        "    Your last visit here has ended (a login elsewhere, a logout, a "
        "restart or",
        "    too long away).",
        "",
        NULL,
    };
    rows_are(&s, LOBBY_NOTE_ROW, menu_note);
    screen_free(&s);
    lobby_free(&l);
}
END_TEST

/* The help in 40 columns and 20 rows, over the header it has no room
 * for; centred at 60 columns. */
START_TEST(help_fits_40x20)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, '?');
    screen_t s;
    draw(&l, &s, 40, 20);
    static const char *const want[] = {
        "The lobby",
        "",
        "p  play: a dungeon of your own",
        "w  watch a game, at your own size",
        "s  the hall of fame: deaths, wins and",
        "   quits after 100 turns, and your",
        "   best. A letter replays that game:",
        "   space pauses, + - the speed, . a",
        "   step, q leaves",
        "l  log in or out   r  register",
        "c  your password   k  SSH keys",
        "o  glyphs and colours   q  quit",
        "",
        "A guest plays at once, but the game",
        "ends with the connection and the name",
        "is not kept; an account keeps both.",
        "In a game ? lists every key; after a",
        "death Space plays again, q comes here.",
        "",
        "Press any key to return.",
        NULL,
    };
    rows_are(&s, 0, want);
    screen_free(&s);
    draw(&l, &s, 60, 20);
    ck_assert_str_eq(row(&s, 3), "          w  watch a game, at your own size");
    screen_free(&s);
    lobby_free(&l);
}
END_TEST

/* The watch list keeps every number whole: the watchers' column goes
 * at 40 columns, where it does not fit. */
START_TEST(watch_list_numbers_whole)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'w');
    l.nwatch = 2;
    l.watch[0] = (lobby_game_t){ 11, "Alexandrina_Quixote1", 12, 12345, 5, 0 };
    l.watch[1] = (lobby_game_t){ 22, "hero1", 3, 622, 125, 2 };
    screen_t s;
    draw(&l, &s, 40, 20);
    static const char *const at40[] = {
        "   Player               Dep  Turns Idle",
        " a Alexandrina_Quixote1  12  12345   5s",
        " b hero1                  3    622   2m",
        NULL,
    };
    rows_are(&s, 7, at40);
    ck_assert_str_eq(row(&s, 19), "     A letter watches; q: the menu.");
    screen_free(&s);
    draw(&l, &s, 60, 20);
    static const char *const at60[] = {
        "   Player               Dep  Turns Idle Watchers",
        " a Alexandrina_Quixote1  12  12345   5s        0",
        " b hero1                  3    622   2m        2",
        NULL,
    };
    rows_are(&s, 7, at60);
    ck_assert_str_eq(row(&s, 19),
                     "     A letter watches that game; q returns to the menu.");
    screen_free(&s);
    lobby_free(&l);
}
END_TEST

START_TEST(empty_hall_of_fame_wrapped)
{
    lobby_t l;
    lobby_init(&l, "");
    store_scores_t sc;
    memset(&sc, 0, sizeof sc);
    sc.status = STORE_OK;
    lobby_key(&l, 's');
    lobby_scores_done(&l, &sc);
    screen_t s;
    draw(&l, &s, 40, 20);
    static const char *const want[] = {
        "  The hall of fame is empty: it lists",
        "  deaths, wins and games quit after",
        "  100 turns. Be the first!",
        NULL,
    };
    rows_are(&s, 8, want);
    screen_free(&s);
    /* with guest_min_turns: a guest's short game is not kept, said too
     * (a newcomer looked for one there), at 40x20 and at 80x24 */
    lobby_info_t info = { "rogued", "", 3, 1, NULL, NULL, 50 };
    ck_assert_int_eq(screen_init(&s, 40, 20), 0);
    lobby_draw(&l, &info, &s);
    static const char *const guests[] = {
        "  The hall of fame is empty: it lists",
        "  deaths, wins and games quit after",
        "  100 turns. Be the first! A guest's",
        "  game of fewer than 50 turns is not",
        "  kept.",
        NULL,
    };
    rows_are(&s, 8, guests);
    screen_free(&s);
    ck_assert_int_eq(screen_init(&s, 80, 24), 0);
    lobby_draw(&l, &info, &s);
    ck_assert_str_eq(row(&s, 11), "               A guest's game of fewer "
                                  "than 50 turns is not kept.");
    screen_free(&s);
    lobby_free(&l);
}
END_TEST

/* The counts with the hosts' note: whole at 80, in fewer words at 60,
 * the counts alone at 40 (the note does not fit whole). */
START_TEST(counts_with_the_hosts_note)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_info_t info = { "rogued", "", 3, 1, "other hosts unavailable", NULL,
                          0 };
    static const struct { int w; const char *row; } want[] = {
        { 80, "         3 players online, 1 game in progress (other hosts unavailable)" },
        { 60, "       3 online, 1 playing (other hosts unavailable)" },
        { 40, "  3 players online, 1 game in progress" },
    };
    for (int i = 0; i < 3; i++) {
        screen_t s;
        ck_assert_int_eq(screen_init(&s, want[i].w, 24), 0);
        lobby_draw(&l, &info, &s);
        ck_assert_str_eq(row(&s, 3), want[i].row);
        screen_free(&s);
    }
    lobby_free(&l);
}
END_TEST

/* A motd of two rows at 40 columns (the news line under it goes down to
 * row 6), and the news. */
static const lobby_info_t two_row_motd = {
    "rogued", "Be kind to each other, and have fun down there", 3, 1, NULL,
    "tester won with 13841 points in 4672 turns", 0 };
static const char news_cut[] = "tester won with 13841 points in 4672...";

/* Row y of l drawn at 40x20 with two_row_motd is want. */
static void expect_row(const lobby_t *l, int y, const char *want)
{
    screen_t s;
    ck_assert_int_eq(screen_init(&s, 40, 20), 0);
    lobby_draw(l, &two_row_motd, &s);
    ck_assert_str_eq(row(&s, y), want);
    screen_free(&s);
}

/* A motd of two rows moves the news line down to row 6: on the menu it
 * is there, cut after a whole word; on the pages whose title is on row 6
 * it is left out, never drawn into the title. */
START_TEST(news_never_over_a_title)
{
    lobby_t l;
    lobby_init(&l, "");
    expect_row(&l, 3, "                 there");
    expect_row(&l, 6, news_cut);
    store_scores_t sc;
    memset(&sc, 0, sizeof sc);
    sc.status = STORE_OK;
    lobby_key(&l, 's'); /* "One moment..." is lower: row 6 is free */
    expect_row(&l, 6, news_cut);
    lobby_scores_done(&l, &sc);
    expect_row(&l, 6, "              Hall of fame");
    lobby_free(&l);
}
END_TEST

/* The prompts begin on row 7, a name's and a password's alike: the news
 * a motd of two rows moves to row 6 is drawn there, over no title. */
START_TEST(news_over_the_prompts)
{
    lobby_t l;
    lobby_init(&l, "");
    lobby_key(&l, 'l');
    ck_assert_int_eq(l.page, LOBBY_LOGIN_NAME);
    expect_row(&l, 6, news_cut);
    expect_row(&l, 7, "    Log in");
    for (const char *k = "kate"; *k; k++)
        lobby_key(&l, *k);
    lobby_key(&l, KEY_ENTER);
    ck_assert_int_eq(l.page, LOBBY_LOGIN_PASS);
    expect_row(&l, 6, news_cut);
    expect_row(&l, 7, "    Log in");
    lobby_free(&l);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("lobby narrow");
    TCase *tc = tcase_create("narrow");
    tcase_add_test(tc, menu_with_a_game_to_continue);
    tcase_add_test(tc, prompt_hint_wrapped);
    tcase_add_test(tc, prompt_note_under_its_line);
    tcase_add_test(tc, help_fits_40x20);
    tcase_add_test(tc, watch_list_numbers_whole);
    tcase_add_test(tc, empty_hall_of_fame_wrapped);
    tcase_add_test(tc, counts_with_the_hosts_note);
    tcase_add_test(tc, news_never_over_a_title);
    tcase_add_test(tc, news_over_the_prompts);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
