/* test_terminal.c - terminal sizes and clients: NAWS at connect and in the
 * middle of a game, a terminal too small to play, and a client that speaks
 * no telnet at all (nc). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_main.h"
#include "client.h"
#include "combat.h"
#include "game.h"
#include "plan.h"
#include "play.h"

#define WELCOME "Welcome to the dungeon, adventurer!"
#define HINT "Press ? for help. Move with the arrow keys, hjklyubn or the numpad."
#define ENLARGE "Please enlarge your terminal to 40x20."

static void check_status_row(const tclient_t *c, int y)
{
    char row[512];
    if (strncmp(cl_row(c, y, row, sizeof row), "HP: 30/30 ", 10) != 0)
        play_fail(c, "row %d is \"%s\", not the status line", y, row);
}

/* A 120x40 terminal: the map on top, the log's twelve rows under it (rows
 * 20..31, the newest at the bottom), the status line in row 32 right
 * under them, the rows below blank; a notice on the row above the newest
 * line. */
START_TEST(naws_120x40_layout)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    cl_opts_t o = { .w = 120, .h = 40 };
    tclient_t *c = play_connect(srv_port(s), &o);
    char row[512];
    int x, y;
    check_status_row(c, 32);
    /* Two log lines: next to the status line, blank rows above them (from
     * the map's last row) and below the status line. */
    ck_assert_str_eq(cl_row(c, 30, row, sizeof row), WELCOME);
    ck_assert_str_eq(cl_row(c, 31, row, sizeof row), HINT);
    for (int j = 20; j < 30; j++)
        ck_assert_str_eq(cl_row(c, j, row, sizeof row), "");
    for (int j = 33; j < 40; j++)
        ck_assert_str_eq(cl_row(c, j, row, sizeof row), "");
    ck_assert_int_eq(cl_find(c, '@', &x, &y), 1);
    ck_assert_int_lt(y, 21);
    /* Nothing beyond the 80 map columns. */
    for (int j = 0; j < 21; j++)
        ck_assert_int_le((int)strlen(cl_row(c, j, row, sizeof row)), 80);
    play_move(c, "l", 1, 0);
    check_status_row(c, 32);
    /* Q's question on the log's last row and the word under it on the row
     * above, beside it (not on row 21, far above it, as it once was on a
     * tall screen) */
    ck_assert(cl_key(c, "Q"));
    play_wait_text(c, "y ends this game for good.");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert_str_eq(cl_row(c, 30, row, sizeof row),
                     "y ends this game for good.");
    ck_assert_str_eq(cl_row(c, 31, row, sizeof row), "Really quit? (y/n)");
    ck_assert_str_eq(cl_row(c, 21, row, sizeof row), "");
    check_status_row(c, 32);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* The same keys played at 80x24 and then resized to 120x40 give exactly
 * the screen of a client that played them at 120x40 from the start. */
START_TEST(resize_mid_game)
{
    /* Both clients answer every telnet question: the negotiation ends at
     * their answers, and a long deadline keeps a slow machine from ending
     * one client's early (its display plain, the other's 256 colours). */
    tsrv_t *s = srv_start("--seed", "42", "--set", "negotiation_ms=10000", NULL);
    static const struct { const char *key; int dx, dy; } keys[] = {
        { "l", 1, 0 }, { "j", 0, 1 }, { "\x1b[D", -1, 0 }, { "8", 0, -1 },
    };
    tclient_t *a = play_connect(srv_port(s), NULL);
    cl_opts_t big = { .w = 120, .h = 40 };
    tclient_t *b = play_connect(srv_port(s), &big);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        play_move(a, keys[i].key, keys[i].dx, keys[i].dy);
        play_move(b, keys[i].key, keys[i].dx, keys[i].dy);
    }
    ck_assert(cl_key(a, "?"));   /* help and back: no log line, no turn */
    ck_assert(cl_key(a, " "));
    ck_assert(cl_key(b, "?"));
    ck_assert(cl_key(b, " "));

    cl_resize(a, 120, 40);
    if (!cl_wait_frame(a, CL_WAIT_MS))
        play_fail(a, "no new frame after the resize");
    check_status_row(a, 32);
    char why[256];
    if (!cl_screen_equal(a, b, why, sizeof why))
        play_fail(a, "the resized screen differs from a fresh 120x40 one: %s", why);
    /* And both go on alike. */
    play_move(a, "l", 1, 0);
    play_move(b, "l", 1, 0);
    if (!cl_screen_equal(a, b, why, sizeof why))
        play_fail(a, "after a move the screens differ: %s", why);
    cl_close(a);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* 39x19 is too small: the enlarge message, the size and the key that
 * quits; keys do not play (y and n neither, but as the answer to Q's
 * question, shown there). Back at 80x24 the game is exactly as it was. */
START_TEST(resize_too_small_and_back)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    play_move(c, "l", 1, 0);
    cl_snap_t before;
    cl_snap(c, &before);
    int x, y;
    char row[256];

    cl_resize(c, 39, 19);
    if (!cl_wait_frame(c, CL_WAIT_MS))
        play_fail(c, "no new frame after the resize");
    /* Centred: row h/2 - 1 and the next. */
    ck_assert_str_eq(cl_row(c, 8, row, sizeof row), ENLARGE);
    ck_assert_str_eq(cl_row(c, 9, row, sizeof row),
                     "           (it is 39x19 now)");
    ck_assert_str_eq(cl_row(c, 10, row, sizeof row),
                     "           Q quits the game.");
    for (int j = 0; j < 19; j++)
        if (j < 8 || j > 10)
            ck_assert_str_eq(cl_row(c, j, row, sizeof row), "");
    ck_assert_int_eq(cl_find(c, '@', &x, &y), 0);
    /* not played: a move, nor y and n, which only answer "Really quit?"
     * (they moved and ran unseen: a QA find) */
    ck_assert(cl_key(c, "l"));
    ck_assert(cl_key(c, "y"));
    ck_assert(cl_key(c, "N"));
    ck_assert(cl_screen_has(c, ENLARGE));

    cl_resize(c, 80, 24);
    if (!cl_wait_frame(c, CL_WAIT_MS))
        play_fail(c, "no new frame after the resize");
    char why[256];
    if (!cl_snap_equal(c, &before, why, sizeof why))
        play_fail(c, "back at 80x24 the screen differs: %s", why);
    ck_assert_int_eq(cl_turn(c), 1);
    cl_snap_free(&before);
    play_move(c, "h", -1, 0);
    /* too small again: Q asks, and the question is shown; n answers it */
    cl_resize(c, 39, 19);
    play_wait_text(c, "Q quits the game.");
    ck_assert(cl_key(c, "Q"));
    play_wait_text(c, "Really quit? (y/n)");
    ck_assert(cl_key(c, "n"));
    play_wait_text(c, "Q quits the game.");
    cl_resize(c, 80, 24);
    play_wait_text(c, "HP: 30/30");
    ck_assert_int_eq(cl_turn(c), 2);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* telnet's `mode line` (Ctrl-] mode line) says DONT ECHO: the client
 * then echoes what is typed, a password too, and sends a line at a time.
 * The screen says so while it lasts, and how to leave it; DO ECHO again
 * (mode character) and the next key takes it away. */
START_TEST(telnet_line_mode_is_told)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *c = play_lobby(srv_port(s));
    ck_assert(!cl_screen_has(c, "Line mode"));
    ck_assert_uint_eq(cl_send_raw(c, "\xff\xfe\x01", 3, 1, CL_WAIT_MS), 3);
    /* said at once, with no key (it came with the next one: a QA) */
    play_wait_text(c, "Line mode: your client echoes keys. In telnet: "
                      "Ctrl-] then mode character");
    ck_assert_int_eq(cl_send_str(c, "?"), 0);
    play_wait_text(c, "The lobby");
    /* told again after a key, while it lasts */
    ck_assert_int_eq(cl_send_str(c, "\x1b"), 0);
    play_wait_text(c, "Play (as a guest)");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert(cl_screen_has(c, "Line mode: your client echoes keys"));
    /* DO ECHO again: the screen painted whole (the client's own echo and
     * its telnet> lines were on it: a QA) */
    play_leave_line_mode(c);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A telnet client whose terminal says it is "dumb" (TERM=dumb: Emacs's
 * shell, a script) is told at once why the screen is wrong and what to
 * set; an xterm is told nothing of it. */
START_TEST(a_dumb_terminal_is_told)
{
    tsrv_t *s = srv_start(NULL);
    static const char tip[] = "Tip: your terminal says it is 'dumb': it "
                              "cannot draw this. Set TERM=xterm.";
    cl_opts_t o = { .ttype = "DUMB" };
    tclient_t *c = cl_connect(srv_port(s), &o);
    play_wait_text(c, tip);
    cl_close(c);
    tclient_t *x = play_lobby(srv_port(s));
    ck_assert(cl_sync(x, CL_WAIT_MS));
    ck_assert(!cl_screen_has(x, "'dumb'"));
    cl_close(x);
    srv_stop(s);
}
END_TEST

/* The lobby at 40 columns: the message of the day, longer than the row,
 * is broken at a space over two rows (not cut), and the lines under it
 * move down one. */
START_TEST(narrow_lobby_wraps_the_motd)
{
    tsrv_t *s = srv_start(NULL);
    cl_opts_t o = { .w = 40, .h = 20 };
    tclient_t *c = cl_connect(srv_port(s), &o);
    play_wait_text(c, "Not logged in");
    char row[256];
    ck_assert_str_eq(cl_row(c, 2, row, sizeof row),
                     "Every player has a dungeon of their own.");
    ck_assert_str_eq(cl_row(c, 3, row, sizeof row), "               Good luck!");
    ck_assert_str_eq(cl_row(c, 4, row, sizeof row),
                     "  1 player online, 0 games in progress");
    ck_assert_str_eq(cl_row(c, 5, row, sizeof row), "             Not logged in");
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A 40x20 terminal plays (docs/game.md, "Small terminals"): the map
 * window with the '@', the wrapped log, the short status line on the
 * last row; a move takes a turn; a resize to 80x24 and back keeps the
 * game; the host's notice is wrapped over the log. */
START_TEST(narrow_40x20_plays)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    cl_opts_t o = { .w = 40, .h = 20 };
    tclient_t *c = play_connect(srv_port(s), &o);
    char row[256];
    int x, y;
    ck_assert_str_eq(cl_row(c, 19, row, sizeof row),
                     "HP:30/30  L:1  XP:0  $0  D:1  T:0");
    ck_assert_str_eq(cl_row(c, 16, row, sizeof row),
                     "Welcome to the dungeon, adventurer!");
    ck_assert_str_eq(cl_row(c, 17, row, sizeof row),
                     "Press ? for help. Move with the arrow");
    ck_assert_str_eq(cl_row(c, 18, row, sizeof row),
                     "keys, hjklyubn or the numpad.");
    ck_assert_int_eq(cl_find(c, '@', &x, &y), 1);
    ck_assert_int_lt(y, 16);
    static const char *const keys[] = { "l", "h", "j", "k" };
    static const int dx[] = { 1, -1, 0, 0 }, dy[] = { 0, 0, 1, -1 };
    int moved = 0;
    for (int i = 0; i < 4 && !moved; i++)
        if (play_open(c, dx[i], dy[i])) {
            ck_assert(cl_key(c, keys[i]));
            ck_assert_int_eq(cl_turn(c), 1);
            moved = 1;
        }
    ck_assert(moved);
    cl_resize(c, 80, 24);
    if (!cl_wait_frame(c, CL_WAIT_MS))
        play_fail(c, "no new frame after the resize");
    check_status_row(c, 23);
    ck_assert_int_eq(cl_turn(c), 1);
    cl_resize(c, 40, 20);
    if (!cl_wait_frame(c, CL_WAIT_MS))
        play_fail(c, "no new frame after the resize");
    ck_assert_str_eq(cl_row(c, 19, row, sizeof row),
                     "HP:30/30  L:1  XP:0  $0  D:1  T:1");
    /* The host's notice over the log, wrapped at a space, not cut. */
    ck_assert(cl_key(c, "S"));
    play_wait_text(c, "only an account's game is saved.");
    ck_assert_str_eq(cl_row(c, 16, row, sizeof row),
                     "A guest's game ends with the connection:");
    ck_assert_str_eq(cl_row(c, 17, row, sizeof row),
                     "only an account's game is saved.");
    /* Q's word right above its question, not on the log's top row with an
     * older line between them (a play-test) */
    ck_assert(cl_key(c, "Q"));
    play_wait_text(c, "y ends this game for good.");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert_str_eq(cl_row(c, 17, row, sizeof row),
                     "y ends this game for good.");
    ck_assert_str_eq(cl_row(c, 18, row, sizeof row), "Really quit? (y/n)");
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* 1 if row y of c's screen ends with text (blanks after it dropped);
 * else says what the row is. */
static int row_ends_with(tclient_t *c, int y, const char *text)
{
    char row[256];
    cl_row(c, y, row, sizeof row);
    size_t n = strlen(row), k = strlen(text);
    if (n >= k && strcmp(row + n - k, text) == 0)
        return 1;
    fprintf(stderr, "row %d: \"%s\"\n", y, row);
    return 0;
}

/* At 40x20 through the server: the lobby's help and hall of fame and a
 * replay's playback line (on the row under the map window) in words that
 * fit, none cut at the right edge (docs/game.md, "Small terminals"). */
START_TEST(narrow_40x20_lobby_and_replay)
{
    tsrv_t *s;
    tclient_t *c;
    game_t *g = plan_death_setup(NULL, &s, &c, NULL, NULL);
    game_free(g);
    ck_assert(cl_key(c, "q"));
    play_wait_text(c, "Play as guest1");
    cl_opts_t o = { .w = 40, .h = 20 };
    tclient_t *r = cl_connect(srv_port(s), &o);
    play_wait_text(r, "Play (as a guest)");
    char row[256];
    ck_assert(cl_key(r, "?"));
    play_wait_text(r, "Press any key to return.");
    ck_assert_str_eq(cl_row(r, 3, row, sizeof row),
                     "w  watch a game, at your own size");
    ck_assert(cl_key(r, "x"));
    play_wait_text(r, "Play (as a guest)");
    ck_assert(cl_key(r, "s"));
    play_wait_text(r, "Hall of fame");
    ck_assert_str_eq(cl_row(r, 7, row, sizeof row),
                     "     # Name                  Score Dep");
    ck_assert_str_eq(cl_row(r, 19, row, sizeof row),
                     "  A letter replays; other keys return.");
    ck_assert(cl_key(r, "a"));
    /* the replay's line in its shortest form: no log row has room for
     * the others (sess_overlay_line), over the oldest's end */
    play_wait_text(r, "guest1 10/s");
    ck_assert(row_ends_with(r, 16, " guest1 10/s"));
    ck_assert(cl_key(r, " "));
    if (cl_wait_text(r, "guest1 10/s paused", CL_WAIT_MS))
        ck_assert(row_ends_with(r, 16, " guest1 10/s paused"));
    else /* the replay ended first */
        ck_assert(row_ends_with(r, 16, " guest1 10/s ended"));
    cl_close(r);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A client that refuses NAWS plays at 80x24. */
START_TEST(naws_refused)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    cl_opts_t o = { .refuse_naws = 1 };
    tclient_t *c = play_connect(srv_port(s), &o);
    check_status_row(c, 23);
    play_move(c, "l", 1, 0);
    cl_close(c);
    srv_stop(s);
}
END_TEST

static int64_t ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

typedef struct at { int x, y, turn; } at_t;

static int pred_at(tclient_t *c, void *arg)
{
    const at_t *want = arg;
    int x, y;
    return cl_find(c, '@', &x, &y) == 1 && x == want->x && y == want->y &&
           cl_turn(c) == want->turn;
}

/* nc: no telnet at all. After the negotiation deadline (set to 1 s here)
 * the game comes at 80x24 with the tip for raw mode; keys work whether they
 * come a line at a time (cooked nc: "l\n") or one byte at a time. */
START_TEST(raw_client)
{
    tsrv_t *s = srv_start("--seed", "42", "--set", "negotiation_ms=1000", NULL);
    cl_opts_t o = { .raw = 1 };
    int64_t t0 = ms_now();
    tclient_t *c = cl_connect(srv_port(s), &o);
    if (!cl_wait_text(c, "Play (as a guest)", CL_WAIT_MS))
        play_fail(c, "no lobby");
    /* It was the deadline that let the lobby come: not before the server's
     * second had run (half of it, so that the server's clock and the
     * test's may differ). How long after is the machine's business, and
     * not asserted (docs/testing.md). */
    int64_t took = ms_now() - t0;
    if (took < 500)
        play_fail(c, "the lobby came after %lld ms, before the 1000 ms "
                  "negotiation deadline", (long long)took);
    char row[256];
    /* The tip is on the first screen, the lobby's, until the first key. */
    ck_assert_str_eq(cl_row(c, 21, row, sizeof row),
                     "Tip: for one key at a time use: stty raw -echo; nc HOST PORT; stty sane");
    ck_assert_int_eq(cl_frames(c), 0); /* no telnet, no IAC NOP */
    if (!cl_wait_ready(c, CL_WAIT_MS)) /* "p\n": play as the guest offered */
        play_fail(c, "no game after p");
    check_status_row(c, 23);
    ck_assert_str_eq(cl_row(c, 21, row, sizeof row), WELCOME);
    ck_assert_str_eq(cl_row(c, 22, row, sizeof row), HINT);

    int x, y;
    ck_assert_int_eq(cl_find(c, '@', &x, &y), 1);
    ck_assert_msg(play_open(c, 1, 0) && play_open(c, 2, 0), "no floor to the right");
    at_t want = { x + 1, y, 1 };
    ck_assert_int_eq(cl_send_str(c, "l\n"), 0);
    if (!cl_wait(c, pred_at, &want, CL_WAIT_MS))
        play_fail(c, "\"l\\n\" did not move the '@' one step right");
    ck_assert_str_eq(cl_row(c, 21, row, sizeof row), WELCOME); /* tip gone */
    want.x = x + 2;
    want.turn = 2;
    ck_assert_int_eq(cl_send_str(c, "l"), 0);
    if (!cl_wait(c, pred_at, &want, CL_WAIT_MS))
        play_fail(c, "\"l\" did not move the '@' one step right");
    want.x = x + 1;
    want.turn = 3;
    ck_assert_int_eq(cl_send_str(c, "\x1b[D"), 0);
    if (!cl_wait(c, pred_at, &want, CL_WAIT_MS))
        play_fail(c, "the left arrow did not move the '@' one step left");
    ck_assert(!cl_closed(c));
    cl_close(c);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("terminal");
    TCase *tc = tcase_create("terminal");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, naws_120x40_layout);
    tcase_add_test(tc, a_dumb_terminal_is_told);
    tcase_add_test(tc, narrow_40x20_lobby_and_replay);
    tcase_add_test(tc, resize_mid_game);
    tcase_add_test(tc, resize_too_small_and_back);
    tcase_add_test(tc, narrow_40x20_plays);
    tcase_add_test(tc, narrow_lobby_wraps_the_motd);
    tcase_add_test(tc, naws_refused);
    tcase_add_test(tc, raw_client);
    tcase_add_test(tc, telnet_line_mode_is_told);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
