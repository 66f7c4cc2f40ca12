/* test_lobby.c - the lobby, accounts and the hall of fame against the real
 * server: the menu and its counts, an empty hall of fame, register / log
 * out / log in / wrong password, five failures closing the connection,
 * passwords never echoed, a name taken told at its Enter while keys
 * typed ahead are kept, names with control bytes or other characters
 * refused, a guest who dies and is then seen in the hall of fame by
 * another player, and every finished game still there after SIGTERM and
 * a restart on the same data directory. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "combat.h"
#include "plan.h"
#include "play.h"

static void do_register(tclient_t *c, const char *name, const char *pass)
{
    ck_assert(cl_key(c, "r"));
    play_wait_text(c, "Register an account");
    play_type_line(c, name);
    play_wait_text(c, "Password:");
    play_type_line(c, pass);
    play_wait_text(c, "Again:");
    play_type_line(c, pass);
}

static void do_login(tclient_t *c, const char *name, const char *pass)
{
    ck_assert(cl_key(c, "l"));
    play_wait_text(c, "Log in");
    play_type_line(c, name);
    play_wait_text(c, "Password:");
    play_type_line(c, pass);
}

START_TEST(menu_counts_and_empty_hall_of_fame)
{
    tsrv_t *s = srv_start("--set", "server_name=Test Dungeon", "--set",
                          "motd=Hello from the tests", NULL);
    tclient_t *a = play_lobby(srv_port(s));
    ck_assert(cl_screen_has(a, "Welcome to Test Dungeon"));
    ck_assert(cl_screen_has(a, "Hello from the tests"));
    ck_assert(cl_screen_has(a, "1 player online, 0 games in progress"));
    ck_assert(cl_screen_has(a, "High scores"));
    ck_assert(cl_screen_has(a, "Register an account"));

    /* A second player playing shows in the first one's counts (on its
     * next frame). */
    tclient_t *b = play_connect(srv_port(s), NULL);
    ck_assert(cl_key(a, "?"));
    ck_assert(cl_key(a, " "));
    play_wait_text(a, "2 players online, 1 game in progress");

    ck_assert(cl_key(a, "s"));
    play_wait_text(a, "Hall of fame");
    play_wait_text(a, "The hall of fame is empty: it lists deaths, wins");
    ck_assert(cl_key(a, " "));
    play_wait_text(a, "Play (as a guest)");
    cl_close(b);
    cl_close(a);
    srv_stop(s);
}
END_TEST

START_TEST(register_logout_login_wrong_password)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *c = play_lobby(srv_port(s));

    /* A password too short, then two that differ, then a good one. */
    ck_assert(cl_key(c, "r"));
    play_type_line(c, "Alice");
    play_type_line(c, "abc");
    play_wait_text(c, "at least 6");
    play_type_line(c, "secret-one");
    play_wait_text(c, "Again:");
    play_type_line(c, "secret-two");
    play_wait_text(c, "The passwords differ");
    play_type_line(c, "hunter22");
    play_wait_text(c, "Again:");
    /* What is typed shows as stars, never as itself. */
    for (const char *p = "hunter2"; *p; p++) {
        char k[2] = { *p, 0 };
        ck_assert(cl_key(c, k));
    }
    ck_assert(cl_screen_has(c, "Again: *******"));
    ck_assert(cl_key(c, "2"));
    ck_assert(cl_key(c, "\r"));
    play_wait_text(c, "Welcome, Alice! Your account is ready.");
    play_wait_text(c, "Logged in as Alice");
    ck_assert(!cl_stream_has(c, "hunter"));
    ck_assert(!cl_stream_has(c, "secret"));

    /* Log out, then a wrong password and an unknown name: one answer. */
    ck_assert(cl_key(c, "l"));
    play_wait_text(c, "Logged out of Alice.");
    play_wait_text(c, "Not logged in");
    do_login(c, "alice", "wrong-password");
    play_wait_text(c, "Wrong name or password.");
    ck_assert(cl_key(c, "\x1b"));
    do_login(c, "nobody", "hunter22");
    play_wait_text(c, "Wrong name or password.");
    ck_assert(cl_key(c, "\x1b"));

    /* The right one, in another case: the account's own spelling comes back. */
    do_login(c, "ALICE", "hunter22");
    play_wait_text(c, "Welcome back, Alice!");
    play_wait_text(c, "Play as Alice");

    /* The name is taken in any case (told at its Enter: the test of it
     * is register_taken_name_told_before_the_password). */
    tclient_t *d = play_lobby(srv_port(s));
    ck_assert(cl_key(d, "r"));
    play_type_line(d, "aLiCe");
    play_wait_text(d, "The name aLiCe is taken: choose another.");
    cl_close(d);

    ck_assert(srv_log_has(s, "register id=1 name=Alice"));
    ck_assert(srv_log_has(s, "login id=1 name=Alice"));
    /* A failed login names the name tried, never the password. */
    ck_assert(srv_log_has(s, "login failed id=1 name=\"alice\": bad login"));
    ck_assert(srv_log_has(s, "login failed id=1 name=\"nobody\": bad login"));
    ck_assert(!srv_log_has(s, "wrong-password"));
    ck_assert(!srv_log_has(s, "hunter"));
    ck_assert(!srv_log_has(s, "argon2"));
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A player changes their password in the lobby: the present one is
 * checked first (a wrong one said before a new one is asked), the new one
 * works from then on and the old one no longer. */
START_TEST(change_password_in_the_lobby)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *c = play_lobby(srv_port(s));
    do_register(c, "Nadia", "firstpass");
    play_wait_text(c, "Welcome, Nadia!");
    ck_assert(cl_key(c, "c"));
    play_type_line(c, "wrongpass"); /* said at once: no new one asked */
    play_wait_text(c, "That is not your password: it is unchanged.");
    ck_assert(!cl_screen_has(c, "New password:"));
    /* what is typed on (the new password, meant for the next prompt) is
     * typed at the present password's prompt again, hidden: its p never
     * plays at the menu */
    ck_assert(cl_key(c, "pw1"));
    play_wait_text(c, "Present password: ***");
    ck_assert(!cl_screen_has(c, "pw1"));
    ck_assert(!cl_screen_has(c, "HP: "));
    ck_assert(cl_key(c, "\x1b"));
    play_wait_text(c, "c   Change your password");
    ck_assert(cl_key(c, "c"));
    play_type_line(c, "firstpass");
    play_wait_text(c, "Type the new password."); /* checked first */
    play_type_line(c, "secondpass");
    play_type_line(c, "secondpass");
    play_wait_text(c, "Your password is changed.");
    cl_close(c);
    c = play_lobby(srv_port(s));
    do_login(c, "nadia", "firstpass");
    play_wait_text(c, "Wrong name or password.");
    ck_assert(cl_key(c, "\x1b"));
    do_login(c, "nadia", "secondpass");
    play_wait_text(c, "Welcome back, Nadia!");
    ck_assert(srv_log_has(s, "password change id=1 name=Nadia: bad login"));
    ck_assert(srv_log_has(s, "password change id=1 name=Nadia: ok"));
    ck_assert(!srv_log_has(s, "firstpass"));
    ck_assert(!srv_log_has(s, "secondpass"));
    cl_close(c);
    srv_stop(s);
}
END_TEST

START_TEST(five_failed_logins_close_the_connection)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *c = play_lobby(srv_port(s));
    /* Five names, so that no name's slow-down is reached. */
    for (int i = 1; i <= 5; i++) {
        char name[32];
        snprintf(name, sizeof name, "nobody%d", i);
        do_login(c, name, "password");
        if (i < 5) {
            play_wait_text(c, "Wrong name or password.");
            ck_assert(cl_key(c, "\x1b"));
        }
    }
    if (!cl_wait_eof(c, CL_WAIT_MS))
        play_fail(c, "still connected after five failed logins");
    ck_assert(cl_stream_has(c, "Too many failed logins. Goodbye."));
    ck_assert(srv_wait_log(s, "reason=\"too many failed logins\"", CL_WAIT_MS));
    cl_close(c);
    srv_stop(s);
}
END_TEST

START_TEST(names_with_control_bytes_or_escapes_refused)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "r"));
    play_wait_text(c, "Register an account");
    /* Control bytes are never part of a name: BEL, ^A, a tab vanish. */
    ck_assert_int_eq(cl_send_str(c, "ev\x07i\x01l\t"), 0);
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert(cl_screen_has(c, "Name: evil"));
    /* Nor can an escape sequence be typed into one: the key decoder takes
     * ESC [ 3 1 m whole as a sequence, and it is no key at all. */
    ck_assert_int_eq(cl_send_str(c, "\x1b[31mred"), 0);
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert(cl_screen_has(c, "Name: evilred"));
    /* A lone Esc leaves the prompt; the name was never kept. */
    ck_assert_int_eq(cl_send_str(c, "\x1b"), 0);
    play_wait_text(c, "Play (as a guest)");
    ck_assert(!cl_screen_has(c, "evil"));
    /* Other characters are refused with the rule. */
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "Play as a guest");
    ck_assert(cl_key(c, "\x15")); /* Ctrl-U: clear the offered name */
    play_type_line(c, "bad name!");
    play_wait_text(c, "letters");
    ck_assert(cl_screen_has(c, "Play as a guest"));
    ck_assert(cl_key(c, "\x15"));
    play_type_line(c, "x");
    play_wait_text(c, "2-20");
    cl_close(c);
    srv_stop(s);
}
END_TEST

START_TEST(guest_may_not_take_an_account_name)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *a = play_lobby(srv_port(s));
    do_register(a, "Bob", "bobspassword");
    play_wait_text(a, "Logged in as Bob");
    tclient_t *b = play_lobby(srv_port(s));
    ck_assert(cl_key(b, "p"));
    play_wait_text(b, "Play as a guest");
    ck_assert(cl_key(b, "\x15"));
    play_type_line(b, "BOB");
    play_wait_text(b, "BOB belongs to an account");
    /* the name the server offered is back on the line */
    ck_assert(cl_screen_has(b, "Name: guest"));
    ck_assert(cl_key(b, "\x15"));
    play_type_line(b, "Bobby");
    play_wait_text(b, "HP: 30/30"); /* the game (its frame may be taken already) */
    ck_assert(cl_sync(b, CL_WAIT_MS));
    ck_assert(srv_log_has(s, "game start id=2 name=Bobby"));
    cl_close(b);
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* A guest in a game under a name of their own. */
static tclient_t *guest_playing_as(int port, const char *name)
{
    tclient_t *c = play_lobby(port);
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "Play as a guest");
    ck_assert(cl_key(c, "\x15"));
    play_type_line(c, name);
    play_wait_text(c, "HP: 30/30");
    return c;
}

/* Two guests may not play under one name at once (the list of games to
 * watch would show two rows alike): the second is told why and offered
 * the server's name again; once the first game ends the name is free. */
START_TEST(guest_may_not_take_a_name_in_play)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *a = guest_playing_as(srv_port(s), "Zed");
    tclient_t *b = play_lobby(srv_port(s));
    ck_assert(cl_key(b, "p"));
    play_wait_text(b, "Play as a guest");
    ck_assert(cl_key(b, "\x15"));
    play_type_line(b, "zED");
    play_wait_text(b, "Someone is playing as zED now: choose another name.");
    ck_assert(cl_screen_has(b, "Name: guest"));
    /* the first game ends (Q, y: quit it, back to the lobby) */
    ck_assert(cl_key(a, "Q"));
    ck_assert(cl_key(a, "y"));
    play_wait_text(a, "You quit your game at depth 1, turn 0: it has ended.");
    ck_assert(cl_key(b, "\x15"));
    play_type_line(b, "zED");
    play_wait_text(b, "HP: 30/30");
    ck_assert(srv_wait_log(s, "game start id=2 name=zED", CL_WAIT_MS));
    cl_close(b);
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* Nor may an account be registered under a name a guest plays under now
 * (the guest's game would enter the hall of fame under the account's
 * name): told before the password, as a name taken is; once the guest's
 * game has ended the name may be registered. */
START_TEST(a_name_in_play_may_not_be_registered)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *a = guest_playing_as(srv_port(s), "Victim2");
    tclient_t *b = play_lobby(srv_port(s));
    ck_assert(cl_key(b, "r"));
    play_wait_text(b, "Register an account");
    play_type_line(b, "victim2");
    play_wait_text(b, "Someone is playing as victim2 now: choose another.");
    ck_assert(cl_screen_has(b, "Name:"));
    if (cl_screen_has(b, "Password:"))
        play_fail(b, "the password is asked for under a name in play");
    ck_assert(cl_key(a, "Q"));
    ck_assert(cl_key(a, "y"));
    play_wait_text(a, "it has ended.");
    play_type_line(b, "victim2");
    play_wait_text(b, "Password:");
    play_type_line(b, "hunter22");
    play_wait_text(b, "Again:");
    play_type_line(b, "hunter22");
    play_wait_text(b, "Welcome, victim2! Your account is ready.");
    cl_close(b);
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* The row of the hall of fame that names `who`, or NULL. */
static const char *score_row(tclient_t *c, const char *who, char *row, size_t n)
{
    for (int y = 8; y < cl_h(c) - 1; y++)
        if (strstr(cl_row(c, y, row, n), who))
            return row;
    return NULL;
}

START_TEST(guest_dies_back_to_lobby_seen_in_hall_of_fame)
{
    tsrv_t *s;
    tclient_t *c;
    game_t *g = plan_death_setup(NULL, &s, &c, NULL, NULL);
    char cause[64];
    game_death_cause(g, cause, sizeof cause);
    int score = game_score(g), turns = (int)g->turn;
    game_free(g);
    ck_assert(cl_key(c, "\x1b"));
    play_wait_text(c, "Play as guest1");

    /* Another player sees it. */
    tclient_t *o = play_lobby(srv_port(s));
    ck_assert(cl_key(o, "s"));
    play_wait_text(o, "Hall of fame");
    char row[256], want[128];
    if (!score_row(o, "guest1", row, sizeof row))
        play_fail(o, "guest1 is not in the hall of fame");
    snprintf(want, sizeof want, "a    1 guest1 "); /* a: the replay key */
    ck_assert_msg(strncmp(row, want, strlen(want)) == 0, "row: %s", row);
    /* the cause's first 10 characters: whole or cut with "...", both start so */
    snprintf(want, sizeof want, " %6d   1 %6d %.10s", score, turns, cause + 10);
    ck_assert_msg(strstr(row, want) != NULL, "row \"%s\" lacks \"%s\"", row, want);
    ck_assert(strstr(row, " att-def ") != NULL);
    cl_close(o);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* Q y: the game ends and the lobby is back, saying so (the test fails
 * otherwise). */
static void quit_game(tclient_t *c, const char *back)
{
    ck_assert(cl_key(c, "Q"));
    ck_assert(cl_key(c, "y"));
    if (!cl_wait_text(c, back, CL_WAIT_MS))
        play_fail(c, "not back in the lobby (\"%s\")", back);
    ck_assert(cl_sync(c, CL_WAIT_MS));
    if (!cl_screen_has(c, "You quit your game at depth 1, turn ") ||
        !cl_screen_has(c, ": it has ended."))
        play_fail(c, "the lobby does not say the game ended");
}

/* A lobby note is for the step it was said at: the rule a guest name
 * broke, the guest prompt's hint and an account's welcome are gone when
 * the player is back from the game they led to; a refused name's word is
 * gone from the password step once a name is taken. */
START_TEST(old_notes_do_not_outlive_their_step)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "A guest's game ends with the connection");
    ck_assert(cl_key(c, "\x15"));
    play_type_line(c, "a b");
    play_wait_text(c, "A name may use only letters, digits, _ and -.");
    play_type_line(c, "Tester");
    play_wait_text(c, "HP:");
    quit_game(c, "Play as Tester");
    if (cl_screen_has(c, "A name may use") ||
        cl_screen_has(c, "A guest's game ends with the connection"))
        play_fail(c, "an old note is back in the lobby");
    cl_close(c);

    /* registering: a refused name, then a good one */
    c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "r"));
    play_wait_text(c, "Register an account");
    ck_assert(cl_key(c, "x"));
    ck_assert(cl_key(c, "y"));
    ck_assert(cl_key(c, "\x01"));
    ck_assert(cl_key(c, "\r"));
    play_wait_text(c, "Refused: a name may use only letters, digits, _ and -.");
    play_type_line(c, "hero1");
    play_wait_text(c, "Password:");
    if (cl_screen_has(c, "Refused"))
        play_fail(c, "the name's refusal is still shown at the password");
    play_type_line(c, "password1");
    play_wait_text(c, "Again:");
    play_type_line(c, "password1");
    play_wait_text(c, "Logged in as hero1");
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "HP:");
    /* A login on another connection takes the game over and plays on
     * at once: the login's welcome was for the lobby it left. */
    tclient_t *b = play_lobby(srv_port(s));
    do_login(b, "hero1", "password1");
    play_wait_text(b, "HP:");
    quit_game(b, "Logged in as hero1");
    if (cl_screen_has(b, "Welcome back"))
        play_fail(b, "the login's welcome is still shown after the game");
    cl_close(b);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A name taken is told as soon as its Enter is typed: the player sees it
 * at the name prompt before typing any password, and the prompt takes
 * another name at once. */
START_TEST(register_taken_name_told_before_the_password)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *a = play_register(srv_port(s), "Alice");
    cl_close(a);

    tclient_t *c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "r"));
    play_wait_text(c, "Register an account");
    play_type_line(c, "aLiCe");
    play_wait_text(c, "The name aLiCe is taken: choose another.");
    ck_assert(cl_screen_has(c, "Name:"));
    if (cl_screen_has(c, "Password:"))
        play_fail(c, "the password is asked for under a name taken");
    play_type_line(c, "Bob");
    play_wait_text(c, "Password:");
    play_type_line(c, "hunter22");
    play_wait_text(c, "Again:");
    play_type_line(c, "hunter22");
    play_wait_text(c, "Welcome, Bob! Your account is ready.");
    cl_close(c);

    /* A password typed ahead under a name taken: wiped, and the rest of
     * its line dropped up to Enter, never shown as a name. */
    c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "r"));
    play_wait_text(c, "Register an account");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert_int_eq(cl_send_str(c, "alice\rsecr"), 0);
    play_wait_text(c, "The name alice is taken. Press Enter, then choose "
                   "another.");
    play_type_line(c, "et99");
    play_wait_text(c, "The name alice is taken: choose another.");
    ck_assert(cl_screen_has(c, "Name:"));
    if (cl_stream_has(c, "secr") || cl_stream_has(c, "et99"))
        play_fail(c, "a password typed ahead was shown");
    cl_close(c);
    ck_assert(!srv_log_has(s, "secr"));
    srv_stop(s);
}
END_TEST

/* The name is asked about without a wait: a name, its Enter and the
 * first letters of the password sent in one write lose none of them
 * (a wait for the store's answer would drop the keys typed meanwhile). */
START_TEST(register_keys_typed_ahead_are_kept)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "r"));
    play_wait_text(c, "Register an account");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert_int_eq(cl_send_str(c, "Zed\rhunter22"), 0);
    play_wait_text(c, "Password: ********");
    ck_assert(cl_key(c, "\r"));
    play_wait_text(c, "Again:");
    play_type_line(c, "hunter22");
    play_wait_text(c, "Welcome, Zed! Your account is ready.");
    cl_close(c);
    /* the password is all of what was typed */
    c = play_lobby(srv_port(s));
    do_login(c, "zed", "hunter22");
    play_wait_text(c, "Welcome back, Zed!");
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* Whether the row of c's screen that holds `label` is exactly `want`
 * (trailing blanks aside): a prompt and what its field holds. */
static int prompt_row_is(tclient_t *c, const char *label, const char *want)
{
    char row[256];
    for (int y = 0; y < cl_h(c); y++)
        if (strstr(cl_row(c, y, row, sizeof row), label))
            return strcmp(row, want) == 0;
    return 0;
}

/* A name free when its Enter asked, and taken by another player before
 * the registration ends: the end's own check refuses it, and the name is
 * asked for again: the name prompt is back, empty, and a free name typed
 * there registers (with a new password: the refused one is not kept). */
START_TEST(register_a_name_taken_meanwhile_is_refused_at_the_end)
{
    tsrv_t *s = srv_start("--log-level", "debug", NULL);
    tclient_t *c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "r"));
    play_type_line(c, "Zed");
    ck_assert(srv_wait_log(s, ": Zed is free", CL_WAIT_MS));
    cl_close(play_register(srv_port(s), "zed")); /* the other player */
    play_type_line(c, "hunter22");
    play_wait_text(c, "Again:");
    play_type_line(c, "hunter22");
    play_wait_text(c, "That name is taken. Choose another.");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert(!cl_screen_has(c, "Welcome, Zed!"));
    ck_assert(cl_screen_has(c, "Register an account"));
    if (!prompt_row_is(c, "Name:", "    Name:") ||
        cl_screen_has(c, "Password:") || cl_screen_has(c, "Again:"))
        play_fail(c, "not the name prompt, empty, after the name was taken");
    ck_assert(srv_log_has(s, "register failed id=1 name=\"Zed\": name taken"));
    play_type_line(c, "Zoe");
    play_wait_text(c, "Password:");
    play_type_line(c, "hunter33");
    play_wait_text(c, "Again:");
    play_type_line(c, "hunter33");
    play_wait_text(c, "Welcome, Zoe! Your account is ready.");
    play_wait_text(c, "Logged in as Zoe");
    ck_assert(srv_log_has(s, "register id=1 name=Zoe"));
    cl_close(c);
    /* the account is Zoe's with the password typed for it */
    c = play_lobby(srv_port(s));
    do_login(c, "zoe", "hunter33");
    play_wait_text(c, "Welcome back, Zoe!");
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A password longer than 128 bytes is refused at Enter, not taken as its
 * first 128: registering with 150 bytes asks again. */
START_TEST(too_long_a_password_is_refused)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *c = play_lobby(srv_port(s));
    char many[151];
    memset(many, 'x', 150);
    many[150] = '\0';
    ck_assert(cl_key(c, "r"));
    play_type_line(c, "Longpw");
    play_wait_text(c, "Password:");
    ck_assert_int_eq(cl_send_str(c, many), 0);
    play_wait_text(c, "A password has at most 128 bytes.");
    ck_assert(cl_key(c, "\r"));
    play_wait_text(c, "A password has at most 128 bytes.");
    ck_assert(cl_screen_has(c, "Password:"));
    ck_assert(!cl_screen_has(c, "Again:"));
    play_type_line(c, "password1");
    play_wait_text(c, "Again:");
    play_type_line(c, "password1");
    play_wait_text(c, "Logged in as Longpw");
    cl_close(c);
    srv_stop(s);
}
END_TEST

START_TEST(finished_games_survive_sigterm_and_restart)
{
    char dir[] = "/tmp/rogued-lobby-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    tsrv_t *s = srv_start("--data-dir", dir, NULL);
    /* One game quit after three turns, one still going at SIGTERM. */
    tclient_t *a = play_connect(srv_port(s), NULL);
    ck_assert(cl_key(a, "."));
    ck_assert(cl_key(a, "."));
    ck_assert(cl_key(a, "."));
    ck_assert(cl_key(a, "Q"));
    ck_assert(cl_key(a, "y"));
    play_wait_text(a, "Play as guest1");
    tclient_t *b = play_connect(srv_port(s), NULL);
    ck_assert(cl_key(b, "."));
    srv_stop(s); /* SIGTERM, exit 0, clean log */
    cl_close(a);
    cl_close(b);

    /* Both kept: rogued --list-games (read-only, beside a running server)
     * lists them; the hall of fame ranks neither (a quit of 3 turns, a
     * game cut off: store.h, enum store_ending). */
    s = srv_start("--data-dir", dir, NULL);
    const char *bin = getenv("ROGUED_BIN");
    char cmd[512], list[4096];
    snprintf(cmd, sizeof cmd, "%s --config /dev/null --data-dir '%s' "
             "--list-games 2>/dev/null", bin ? bin : "build/san/rogued", dir);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t got = fread(list, 1, sizeof list - 1, p);
    list[got] = '\0';
    ck_assert_int_eq(pclose(p), 0);
    const char *q = strstr(list, "\n     1  ");
    ck_assert_msg(q && strstr(q, " guest1 ") && strstr(q, "   3  quit\n"),
                  "list: %s", list);
    q = strstr(list, "\n     2  ");
    ck_assert_msg(q && strstr(q, " guest2 ") && strstr(q, "  disconnected ("),
                  "list: %s", list);
    tclient_t *c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "s"));
    play_wait_text(c, "Hall of fame");
    /* Two games ended, neither listed: what the list takes is said. */
    play_wait_text(c, "The hall of fame is empty: it lists deaths, wins");
    play_wait_text(c, "and games quit after 100 turns. Be the first!");
    cl_close(c);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

/* The stream holds more of text than *n (the count before). */
static int more_in_stream(tclient_t *c, void *arg)
{
    const struct { const char *text; int n; } *was = arg;
    return cl_stream_count(c, was->text) > was->n;
}

/* Keys typed before their page is drawn are not lost: "s h" in one write
 * (the hall of fame asks the store; the space and the h typed meanwhile
 * are kept and played on its page once the answer is in: the space back
 * to the menu, h its help), and "wa" (the watch list filled as it opens,
 * so that the a picks the first game before any frame showed it). */
START_TEST(keys_typed_during_a_wait_are_kept)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *p = play_connect(srv_port(s), NULL);
    tclient_t *a = play_lobby(srv_port(s));
    ck_assert_int_eq(cl_send_str(a, "s h"), 0);
    play_wait_text(a, "  w  watch a game in progress, at your own terminal");
    ck_assert(cl_key(a, " "));
    play_wait_text(a, "Play (as a guest)");
    ck_assert(cl_sync(a, CL_WAIT_MS));
    ck_assert_int_eq(cl_send_str(a, "wa"), 0);
    play_wait_text(a, "guest1 - q leaves");
    ck_assert(srv_wait_log(s, " watches id=", CL_WAIT_MS));
    /* A quit typed on in impatience is not played: "sqq" leaves the hall
     * of fame with the first q and drops the second (it would quit). */
    ck_assert(cl_key(a, "q"));
    play_wait_text(a, "Play (as a guest)");
    struct { const char *text; int n; } busy = {
        "One moment...", cl_stream_count(a, "One moment...") };
    ck_assert_int_eq(cl_send_str(a, "sqq"), 0);
    /* its wait drawn (no menu on that page), then the menu once the
     * answer is in and the kept keys were played */
    ck_assert(cl_wait(a, more_in_stream, &busy, CL_WAIT_MS));
    play_wait_text(a, "Play (as a guest)");
    ck_assert(cl_sync(a, CL_WAIT_MS));
    ck_assert(!cl_closed(a));
    ck_assert_int_eq(srv_log_count(s, "disconnect "), 0);
    cl_close(a);
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* Keys kept during a wait whose answer is a failure, or a prompt, are
 * dropped: a password typed on after a wrong one, while the login was
 * checked, never reaches the name prompt the failure returns to (shown
 * there, and sent as a name). */
START_TEST(keys_typed_on_after_a_failed_login_are_dropped)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *c = play_register(srv_port(s), "Alice");
    ck_assert(cl_key(c, "l"));
    play_wait_text(c, "Logged out of Alice.");
    ck_assert(cl_key(c, "l"));
    play_wait_text(c, "Log in");
    ck_assert_int_eq(cl_send_str(c, "alice\rwrong-one\rpassword9\r"), 0);
    play_wait_text(c, "Wrong name or password.");
    ck_assert(srv_wait_log(s, "login failed id=1 name=\"alice\": bad login",
                           CL_WAIT_MS));
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert(cl_screen_has(c, "Wrong name or password."));
    ck_assert(!cl_screen_has(c, "password9"));
    ck_assert(!cl_stream_has(c, "password9"));
    ck_assert(!srv_log_has(s, "password9"));
    ck_assert_int_eq(srv_log_count(s, "login failed "), 1);
    /* the name prompt takes the next try; a password typed twice (its
     * q, played at the menu, would quit) is dropped after a login that
     * succeeds too */
    ck_assert_int_eq(cl_send_str(c, "alice\rpassword1\rpassword1\r"), 0);
    play_wait_text(c, "Welcome back, Alice!");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert(!cl_closed(c));
    ck_assert(cl_screen_has(c, "Logged in as Alice"));
    ck_assert_int_eq(srv_log_count(s, "disconnect "), 0);
    cl_close(c);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("lobby");
    TCase *tc = tcase_create("lobby");
    tcase_set_timeout(tc, 90);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, menu_counts_and_empty_hall_of_fame);
    tcase_add_test(tc, register_logout_login_wrong_password);
    tcase_add_test(tc, register_taken_name_told_before_the_password);
    tcase_add_test(tc, register_keys_typed_ahead_are_kept);
    tcase_add_test(tc, keys_typed_during_a_wait_are_kept);
    tcase_add_test(tc, keys_typed_on_after_a_failed_login_are_dropped);
    tcase_add_test(tc, register_a_name_taken_meanwhile_is_refused_at_the_end);
    tcase_add_test(tc, five_failed_logins_close_the_connection);
    tcase_add_test(tc, change_password_in_the_lobby);
    tcase_add_test(tc, names_with_control_bytes_or_escapes_refused);
    tcase_add_test(tc, guest_may_not_take_an_account_name);
    tcase_add_test(tc, guest_may_not_take_a_name_in_play);
    tcase_add_test(tc, a_name_in_play_may_not_be_registered);
    tcase_add_test(tc, guest_dies_back_to_lobby_seen_in_hall_of_fame);
    tcase_add_test(tc, old_notes_do_not_outlive_their_step);
    tcase_add_test(tc, too_long_a_password_is_refused);
    tcase_add_test(tc, finished_games_survive_sigterm_and_restart);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
