/* test_session.c - a player's session against the real server: the first
 * screen, every movement key family, walls, help, quitting; the
 * disconnect line's turns after a game saved or quit.
 *
 * Each test starts its own server (ASan + UBSan build) and stops it, so each
 * ends with a clean shutdown and a quiet LeakSanitizer. With --seed 42 every
 * game is the same dungeon, but no test relies on what that dungeon looks
 * like: open directions and walls are read from the screen. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "clock_shift.h"
#include "play.h"

#define WELCOME "Welcome to the dungeon, adventurer!"
#define HINT "Press ? for help. Move with the arrow keys, hjklyubn or the numpad."

/* The first screen: the map with the '@', the welcome and the help hint in
 * the log, the status line; for a client that names a 16-colour terminal
 * (ANSI): the colours below are those. The other displays: test_caps. */
START_TEST(first_screen)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    cl_opts_t ansi = { .ttype = "ANSI" };
    tclient_t *c = play_connect(srv_port(s), &ansi);
    char row[256];
    int x, y, walls = 0, floors = 0;

    ck_assert_int_eq(cl_find(c, '@', &x, &y), 1);
    for (int j = 0; j < 21; j++)
        for (int i = 0; i < 80; i++) {
            walls += cl_at(c, i, j) == '#';
            floors += cl_at(c, i, j) == '.';
        }
    if (walls < 8 || floors < 8)
        play_fail(c, "%d walls and %d floor cells on the map", walls, floors);
    /* The '@' is bright white and bold; lit walls bright white, lit floor
     * white (indexed colours 15 and 7), all on the default background. */
    cl_cell_t cell;
    cl_cell(c, x, y, &cell);
    ck_assert_int_eq(cell.fg, 15);
    ck_assert_int_eq(cell.bg, -1);
    ck_assert_int_eq(cell.bold, 1);
    ck_assert_msg(play_open(c, 1, 0), "no floor right of the start");
    cl_cell(c, x + 1, y, &cell);
    ck_assert_int_eq(cell.ch, '.');
    ck_assert_int_eq(cell.fg, 7);

    /* The log: the newest line at the bottom, just above the status line. */
    ck_assert_str_eq(cl_row(c, 21, row, sizeof row), WELCOME);
    ck_assert_str_eq(cl_row(c, 22, row, sizeof row), HINT);
    cl_row(c, 23, row, sizeof row);
    if (strncmp(row, "HP: 30/30 [==========]  Lvl:1  XP:0", 35) != 0 ||
        !strstr(row, "  Gold:0  Depth:1  Turn:0"))
        play_fail(c, "the status line is \"%s\"", row);
    cl_cell(c, 0, 23, &cell); /* full HP: bright green, bold */
    ck_assert_int_eq(cell.fg, 10);
    ck_assert_int_eq(cell.bold, 1);
    /* A telnet client is told what to do, and everything came in frames. */
    ck_assert(cl_stream_has(c, "\x1b[?1049h"));
    ck_assert_int_ge(cl_frames(c), 1);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* Each key of a family moves the '@' one step its way (checked against the
 * screen: from the middle of the first room every neighbour is floor), and
 * the opposite key brings it back; each move is one turn. */
typedef struct dirkey {
    const char *key;
    int dx, dy;
    const char *back; /* the opposite key of the same family */
} dirkey_t;

static void check_family(const dirkey_t *keys, size_t n)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    int turn = cl_turn(c);
    ck_assert_int_eq(turn, 0);
    for (size_t i = 0; i < n; i++) {
        play_move(c, keys[i].key, keys[i].dx, keys[i].dy);
        play_move(c, keys[i].back, -keys[i].dx, -keys[i].dy);
        turn += 2;
        ck_assert_int_eq(cl_turn(c), turn);
    }
    cl_close(c);
    srv_stop(s);
}

START_TEST(arrows_csi)
{
    static const dirkey_t keys[] = {
        { "\x1b[A", 0, -1, "\x1b[B" }, { "\x1b[B", 0, 1, "\x1b[A" },
        { "\x1b[C", 1, 0, "\x1b[D" }, { "\x1b[D", -1, 0, "\x1b[C" },
    };
    check_family(keys, sizeof keys / sizeof keys[0]);
}
END_TEST

START_TEST(arrows_ss3)
{
    static const dirkey_t keys[] = {
        { "\x1bOA", 0, -1, "\x1bOB" }, { "\x1bOB", 0, 1, "\x1bOA" },
        { "\x1bOC", 1, 0, "\x1bOD" }, { "\x1bOD", -1, 0, "\x1bOC" },
    };
    check_family(keys, sizeof keys / sizeof keys[0]);
}
END_TEST

START_TEST(vi_keys)
{
    static const dirkey_t keys[] = {
        { "h", -1, 0, "l" }, { "j", 0, 1, "k" }, { "k", 0, -1, "j" },
        { "l", 1, 0, "h" }, { "y", -1, -1, "n" }, { "u", 1, -1, "b" },
        { "b", -1, 1, "u" }, { "n", 1, 1, "y" },
    };
    check_family(keys, sizeof keys / sizeof keys[0]);
}
END_TEST

/* The numpad digits move; 5 (and '.') wait a turn where you stand. */
START_TEST(numpad_digits)
{
    static const dirkey_t keys[] = {
        { "4", -1, 0, "6" }, { "2", 0, 1, "8" }, { "8", 0, -1, "2" },
        { "6", 1, 0, "4" }, { "7", -1, -1, "3" }, { "9", 1, -1, "1" },
        { "1", -1, 1, "9" }, { "3", 1, 1, "7" },
    };
    check_family(keys, sizeof keys / sizeof keys[0]);

    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    int x0, y0, x, y;
    cl_find(c, '@', &x0, &y0);
    ck_assert(cl_key(c, "5"));
    ck_assert_int_eq(cl_turn(c), 1);
    ck_assert(cl_key(c, "."));
    ck_assert_int_eq(cl_turn(c), 2);
    ck_assert_int_eq(cl_find(c, '@', &x, &y), 1);
    ck_assert_int_eq(x, x0);
    ck_assert_int_eq(y, y0);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* The nearest wall in a straight line of floor from the '@' (read from
 * the screen, so a monster or a doorway in the way rules a line out): the
 * '@' walks up to it and then into it, once with a vi-key and once with
 * the arrow: no move, no turn, and the log says so. */
START_TEST(walls_block)
{
    static const struct { const char *key, *arrow, *back; int dx, dy; } dirs[] = {
        { "k", "\x1b[A", "j", 0, -1 }, { "j", "\x1b[B", "k", 0, 1 },
        { "h", "\x1b[D", "l", -1, 0 }, { "l", "\x1b[C", "h", 1, 0 },
    };
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    int x, y, best = -1, best_steps = 1000;
    ck_assert_int_eq(cl_find(c, '@', &x, &y), 1);
    for (int i = 0; i < 4; i++) {
        int k = 1;
        while (cl_at(c, x + k * dirs[i].dx, y + k * dirs[i].dy) == '.')
            k++;
        if (cl_at(c, x + k * dirs[i].dx, y + k * dirs[i].dy) == '#' &&
            k - 1 < best_steps) {
            best = i;
            best_steps = k - 1;
        }
    }
    if (best < 0)
        play_fail(c, "no wall in a straight line of floor from the '@'");
    for (int i = 0; i < best_steps; i++)
        play_move(c, dirs[best].key, dirs[best].dx, dirs[best].dy);
    play_bump(c, dirs[best].key, dirs[best].dx, dirs[best].dy);
    play_bump(c, dirs[best].arrow, dirs[best].dx, dirs[best].dy);
    ck_assert_int_eq(cl_turn(c), best_steps);
    /* And the way back is still open. */
    play_move(c, dirs[best].back, -dirs[best].dx, -dirs[best].dy);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* '?' shows the key list instead of the map; any key brings the very same
 * screen back, and neither key takes a turn. */
START_TEST(help_screen)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    play_move(c, "l", 1, 0);
    cl_snap_t before;
    cl_snap(c, &before);
    int x, y;
    ck_assert_int_eq(cl_find(c, '@', &x, &y), 1);

    ck_assert(cl_key(c, "?"));
    static const char *const lines[] = {
        "Keys (? again: monsters and rules)",
        "Move          arrow keys, vi-keys (hjklyubn), numpad; Home/End/PgUp/PgDn",
        "Run           Shift + a vi-key (HJKLYUBN)  Attack   move into a monster",
        "Travel        _ (or > off the stairs): to the stairs, once seen",
        "Explore       o  (walks to what is not seen yet; stops at items)",
        "Wait a turn   .  or  5",
        "Look          ;  or  x          Character        @  or  C",
        "Quit Q (asks y/n)   Save & leave S",
        "Goal: the Amulet of Yendor (\") lies at depth 12. Take it to win.",
        "Press ? for page 2, any other key to return to the game.",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        if (!cl_screen_has(c, lines[i]))
            play_fail(c, "the help screen lacks \"%s\"", lines[i]);
    /* The map is gone (the help names the @ key, so look where the
     * player stood). */
    cl_cell_t cell;
    ck_assert_int_eq(cl_cell(c, x, y, &cell), 0);
    ck_assert_uint_ne(cell.ch, '@');
    ck_assert(!cl_screen_has(c, "HP:"));

    ck_assert(cl_key(c, "x"));
    char why[256];
    if (!cl_snap_equal(c, &before, why, sizeof why))
        play_fail(c, "the screen after help differs: %s", why);
    ck_assert_int_eq(cl_turn(c), 1);
    cl_snap_free(&before);
    play_move(c, "h", -1, 0);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* Ctrl-C asks to quit from a screen over the map too (the pack, Look):
 * the screen is closed first, and the question asked; n plays on. The
 * Esc is a key of the record, so that a replay is the same. */
START_TEST(ctrl_c_asks_from_a_menu)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    char row[256];
    const char *opens[] = { "i", "x" }; /* the pack, Look */
    for (int k = 0; k < 2; k++) {
        ck_assert(cl_key(c, opens[k]));
        ck_assert(cl_key(c, "\x03"));
        ck_assert_str_eq(cl_row(c, 22, row, sizeof row), "Really quit? (y/n)");
        ck_assert(cl_key(c, "n"));
        ck_assert(cl_screen_has(c, "Never mind."));
    }
    play_move(c, "l", 1, 0); /* and plays on */
    ck_assert_int_eq(cl_turn(c), 1);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* 'Q' asks; 'y' says goodbye on the player's own screen (the alternate
 * screen is left first) and the server closes the connection. */
START_TEST(quit_yes)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    char row[256];
    play_move(c, "l", 1, 0);
    ck_assert(cl_key(c, "Q"));
    ck_assert_str_eq(cl_row(c, 22, row, sizeof row), "Really quit? (y/n)");
    ck_assert_int_eq(cl_turn(c), 1);
    /* y: the game is over, and recorded; back in the lobby. q: goodbye. */
    ck_assert(cl_key(c, "y"));
    if (!cl_wait_text(c, "Play as guest1", CL_WAIT_MS))
        play_fail(c, "not back in the lobby");
    ck_assert(srv_wait_log(s, "game over id=1 name=guest1 seed=42 turns=1 ", CL_WAIT_MS));
    ck_assert(srv_log_has(s, "cause=\"quit\""));
    ck_assert_int_eq(cl_send_str(c, "q"), 0);
    if (!cl_wait_text(c, "Thanks for playing. Goodbye!", CL_WAIT_MS))
        play_fail(c, "no goodbye");
    if (!cl_wait_eof(c, CL_WAIT_MS))
        play_fail(c, "the server did not close the connection");
    /* Terminal restored (pen, cursor, main screen) before the goodbye. */
    ck_assert(cl_stream_has(c, "\x1b[0m\x1b[?1000l\x1b[?1006l\x1b[?2004l"
                               "\x1b[?25h\x1b[?1049lThanks for playing. "
                               "Goodbye!\r\n"));
    ck_assert_str_eq(cl_row(c, 0, row, sizeof row), "Thanks for playing. Goodbye!");
    ck_assert(srv_wait_log(s, "reason=\"quit\"", CL_WAIT_MS));
    /* the disconnect line's own count (the game over line has one too) */
    ck_assert(srv_log_has(s, "s turns=1\n"));
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* Bracketed paste, turned on with the terminal: a paste is typed at a
 * lobby's prompt (the guest's name here) and dropped in a game, where
 * text pasted by mistake would play as keys; the notice says so, and the
 * keys typed after it play. */
START_TEST(a_paste_is_typed_at_a_prompt_and_not_played)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *c = play_lobby(srv_port(s));
    ck_assert(cl_stream_has(c, "\x1b[?1049h\x1b[?25l\x1b[?1l\x1b>\x1b[?2004h"));
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "Name: guest1");
    ck_assert_int_eq(cl_send_str(c, "\x1b[200~Pasty\x1b[201~"), 0);
    play_wait_text(c, "Name: Pasty");
    ck_assert_int_eq(cl_send_str(c, "\r"), 0);
    play_ready(c);
    int x0, y0, x, y;
    ck_assert_int_eq(cl_find(c, '@', &x0, &y0), 1);
    ck_assert_int_eq(cl_send_str(c, "\x1b[200~lllljjjj5555\x1b[201~"), 0);
    play_wait_text(c, "Pasted text is not played as keys: it was dropped.");
    ck_assert_int_eq(cl_turn(c), 0);
    ck_assert_int_eq(cl_find(c, '@', &x, &y), 1);
    ck_assert_int_eq(x, x0);
    ck_assert_int_eq(y, y0);
    ck_assert(cl_key(c, "5")); /* typed: played, and the notice goes */
    ck_assert_int_eq(cl_turn(c), 1);
    ck_assert(!cl_screen_has(c, "Pasted text"));
    ck_assert(srv_log_has(s, "name=Pasty"));
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A paste's end mark cut short (its rest not come within the Esc delay,
 * on a clock the test moves): the paste ends there, and the keys typed
 * after it play rather than being dropped as pasted for good. */
START_TEST(a_paste_whose_end_mark_is_cut_short_ends)
{
    clock_shift_t clk;
    clock_shift_begin(&clk);
    /* one loop: a second client's reads wake the first one's */
    tsrv_t *s = srv_start("--seed", "42", "--set", "workers=1", NULL);
    clock_shift_started(&clk);
    ck_assert(srv_wait_log(s, "clock_shift: the monotonic clocks follow",
                           CL_WAIT_MS));
    tclient_t *c = play_connect(srv_port(s), NULL);
    tclient_t *d = play_lobby(srv_port(s)); /* its reads wake the loop */
    ck_assert_int_eq(cl_send_str(c, "\x1b[200~llll\x1b[201"), 0);
    ck_assert(cl_sync(c, CL_WAIT_MS)); /* read: the mark's start held */
    clock_shift_by(&clk, 1000);        /* past the Esc delay */
    /* (a read of c's would start the delay again: d's do not) */
    ck_assert(cl_sync(d, CL_WAIT_MS)); /* the loop has run its timers */
    ck_assert(cl_key(c, "5"));
    ck_assert_int_eq(cl_turn(c), 1);
    cl_close(d);
    cl_close(c);
    srv_stop(s);
    clock_shift_end(&clk);
}
END_TEST

/* Waits for the log's disconnect line of session id and returns, in
 * out, what follows its duration: " turns=N" (the line's end). */
static void disconnect_tail(tsrv_t *s, int id, char *out, size_t len)
{
    char want[48];
    snprintf(want, sizeof want, " id=%d reason=\"", id);
    ck_assert(srv_wait_log(s, want, CL_WAIT_MS));
    char *log = srv_log(s);
    char *line = strstr(log, want);
    while (line > log && line[-1] != '\n')
        line--;
    char *end = strchr(line, '\n');
    if (end)
        *end = '\0';
    ck_assert_msg(strstr(line, " info disconnect "), "%s", line);
    const char *dur = strstr(line, " duration=");
    ck_assert_msg(dur, "%s", line);
    snprintf(out, len, "%s", strchr(dur + 1, ' ') ? strchr(dur + 1, ' ') : "");
    free(log);
}

/* The disconnect line's turns are the session's last game's, however it
 * left that game: saved with S (game suspended ... turns=T), then the
 * lobby's q, says turns=T, as the quit game's (game over ... turns=T)
 * does. */
START_TEST(disconnect_says_the_last_games_turns)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *c = play_register(srv_port(s), "nell");
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "HP: ");
    play_walk_keys(c, 5);
    int t = cl_turn(c);
    ck_assert_int_gt(t, 0);
    ck_assert(cl_key(c, "S"));
    play_wait_text(c, "Your game is saved");
    char want[96], tail[64];
    snprintf(want, sizeof want, "game suspended id=1 name=nell turns=%d (kept "
             "for the next login)\n", t);
    ck_assert(srv_wait_log(s, want, CL_WAIT_MS));
    play_wait_text(c, "Continue your game"); /* the store has answered */
    ck_assert_int_eq(cl_send_str(c, "q"), 0);
    ck_assert(cl_wait_eof(c, CL_WAIT_MS));
    disconnect_tail(s, 1, tail, sizeof tail);
    snprintf(want, sizeof want, " turns=%d", t);
    ck_assert_str_eq(tail, want);
    cl_close(c);
    /* a guest's quit game, then the lobby's q: its turns too */
    tclient_t *g = play_connect(srv_port(s), NULL);
    play_move(g, "l", 1, 0);
    ck_assert(cl_key(g, "Q"));
    ck_assert(cl_key(g, "y"));
    ck_assert(srv_wait_log(s, "game over id=2 name=guest", CL_WAIT_MS));
    ck_assert(cl_wait_text(g, "Play as guest", CL_WAIT_MS));
    ck_assert_int_eq(cl_send_str(g, "q"), 0);
    ck_assert(cl_wait_eof(g, CL_WAIT_MS));
    disconnect_tail(s, 2, tail, sizeof tail);
    ck_assert_str_eq(tail, " turns=1");
    cl_close(g);
    srv_stop(s);
}
END_TEST

/* 'Q' then 'n': "Never mind." and the game goes on. */
START_TEST(quit_no)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    char row[256];
    ck_assert(cl_key(c, "Q"));
    ck_assert_str_eq(cl_row(c, 22, row, sizeof row), "Really quit? (y/n)");
    ck_assert(cl_key(c, "n"));
    ck_assert_str_eq(cl_row(c, 21, row, sizeof row), "Really quit? (y/n)");
    ck_assert_str_eq(cl_row(c, 22, row, sizeof row), "Never mind.");
    ck_assert_int_eq(cl_turn(c), 0);
    play_move(c, "l", 1, 0);
    play_move(c, "h", -1, 0);
    ck_assert(!cl_closed(c));
    ck_assert(!srv_log_has(s, "info disconnect "));
    cl_close(c);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("session");
    TCase *tc = tcase_create("play");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, first_screen);
    tcase_add_test(tc, arrows_csi);
    tcase_add_test(tc, arrows_ss3);
    tcase_add_test(tc, vi_keys);
    tcase_add_test(tc, numpad_digits);
    tcase_add_test(tc, walls_block);
    tcase_add_test(tc, help_screen);
    tcase_add_test(tc, quit_yes);
    tcase_add_test(tc, ctrl_c_asks_from_a_menu);
    tcase_add_test(tc, quit_no);
    tcase_add_test(tc, a_paste_is_typed_at_a_prompt_and_not_played);
    tcase_add_test(tc, a_paste_whose_end_mark_is_cut_short_ends);
    tcase_add_test(tc, disconnect_says_the_last_games_turns);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
