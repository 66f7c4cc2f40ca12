/* test_web_state.c - the play page is told what the server shows, a text
 * message "state NAME" at each change (docs/telnet.md, "The browser"),
 * for its key bar: the game's keys in a game, the lobby's in the lobby
 * (where a direction's numpad digit would be typed into a name), its
 * prompts' (Esc, Enter: where the lobby's p would be typed), a
 * watch's and a replay's while watching; the options screen's over any
 * of them. Once per change, never twice the same in a row. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

static void states_are(const tclient_t *c, const char *want)
{
    ck_assert_msg(strcmp(cl_web_states(c), want) == 0,
                  "the page was told \"%s\", not \"%s\"", cl_web_states(c),
                  want);
}

/* A server (seed 42) with the browser's port, in *http, and a play page
 * of it in its lobby, in *page. */
static tsrv_t *web_server(int *http, tclient_t **page)
{
    static char port_set[32];
    *http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", *http);
    tsrv_t *s = srv_start("--seed", "42", "--set", port_set, NULL);
    cl_opts_t o = { .web = 1 };
    *page = cl_connect(*http, &o);
    play_wait_text(*page, "Play (as a guest)");
    return s;
}

START_TEST(the_play_page_is_told_each_state)
{
    int http;
    tclient_t *p;
    tsrv_t *s = web_server(&http, &p);
    states_are(p, "lobby ");
    /* the name prompt: its own bar (Esc, Enter, the device's keyboard),
     * where the lobby's p was typed into the name */
    ck_assert_int_eq(cl_send_str(p, "p"), 0);
    play_wait_text(p, "Name: guest");
    states_are(p, "lobby prompt ");
    ck_assert_int_eq(cl_send_str(p, "\r"), 0);
    play_wait_text(p, "HP:");
    states_are(p, "lobby prompt playing ");

    /* a watcher from the lobby's list, and back */
    cl_opts_t o = { .web = 1 };
    tclient_t *w = cl_connect(http, &o);
    play_wait_text(w, "Play (as a guest)");
    ck_assert_int_eq(cl_send_str(w, "w"), 0);
    play_wait_text(w, "A letter watches");
    /* the list: its own bar (Esc, the keyboard), where the menu's p, w
     * and s would be letters that pick a game */
    states_are(w, "lobby list ");
    ck_assert_int_eq(cl_send_str(w, "a"), 0);
    play_wait_text(w, "q leaves");
    states_are(w, "lobby list watching ");
    ck_assert_int_eq(cl_send_str(w, "q"), 0);
    play_wait_text(w, "Play (as a guest)");
    states_are(w, "lobby list watching lobby ");
    cl_close(w);

    /* the options screen over the game: its own bar (its arrows, sent as
     * the numpad's digits, which it takes: 6 changes the glyphs), and the
     * game's again once it closes */
    ck_assert_int_eq(cl_send_str(p, "O"), 0);
    play_wait_text(p, "Options: how the screen is drawn");
    states_are(p, "lobby prompt playing options ");
    ck_assert_int_eq(cl_send_str(p, "6"), 0);
    play_wait_text(p, "Drawn with: ASCII");
    ck_assert_int_eq(cl_send_str(p, "\x1b"), 0);
    play_wait_text(p, "HP:");
    states_are(p, "lobby prompt playing options playing ");

    ck_assert_int_eq(cl_send_str(p, "Q"), 0);
    play_wait_text(p, "Really quit?");
    ck_assert_int_eq(cl_send_str(p, "y"), 0);
    play_wait_text(p, "Play as guest");
    states_are(p, "lobby prompt playing options playing lobby ");
    /* and from the lobby, back to the lobby's */
    ck_assert_int_eq(cl_send_str(p, "o"), 0);
    play_wait_text(p, "Options: how the screen is drawn");
    states_are(p, "lobby prompt playing options playing lobby options ");
    ck_assert_int_eq(cl_send_str(p, "\x1b"), 0);
    play_wait_text(p, "Play as guest");
    states_are(p, "lobby prompt playing options playing lobby options lobby ");
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* A login's prompts are one page to the bar, the password's check (the
 * store's wait) too: a wrong password is back at the name with no
 * "state lobby" between (the lobby's bar came and went for as long as
 * the check, the terminal resized twice: a review); Esc, the lobby's. */
START_TEST(a_login_s_wait_keeps_the_prompt_s_bar)
{
    int http;
    tclient_t *p;
    tsrv_t *s = web_server(&http, &p);
    ck_assert_int_eq(cl_send_str(p, "l"), 0);
    play_wait_text(p, "Name:");
    ck_assert_int_eq(cl_send_str(p, "nobody\r"), 0);
    play_wait_text(p, "Password:");
    ck_assert_int_eq(cl_send_str(p, "wrong-pass\r"), 0);
    play_wait_text(p, "Wrong name or password");
    states_are(p, "lobby prompt ");
    ck_assert_int_eq(cl_send_str(p, "\x1b"), 0);
    play_wait_text(p, "Play (as a guest)");
    states_are(p, "lobby prompt lobby ");
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* A replay from the hall of fame: "state replay" (pause, the speeds, a
 * turn, leave), and once it has ended the watch's bar, leave alone (a QA
 * tapped pause under "ended"); the hall of fame a list. */
START_TEST(an_ended_replay_takes_the_watch_s_bar)
{
    int http;
    tclient_t *p;
    tsrv_t *s = web_server(&http, &p);
    ck_assert_int_eq(cl_send_str(p, "p"), 0);
    play_wait_text(p, "Name: guest");
    ck_assert_int_eq(cl_send_str(p, "\r"), 0);
    play_wait_text(p, "HP:");
    /* 100 turns of waiting (a count): the hall of fame keeps a quit from
     * its 100th turn */
    ck_assert_int_eq(cl_send_str(p, "0100."), 0);
    play_wait_text(p, "Turn:100");
    ck_assert_int_eq(cl_send_str(p, "Q"), 0);
    play_wait_text(p, "Really quit?");
    ck_assert_int_eq(cl_send_str(p, "y"), 0);
    play_wait_text(p, "Play as guest");
    ck_assert_int_eq(cl_send_str(p, "s"), 0);
    play_wait_text(p, "A letter replays");
    ck_assert_int_eq(cl_send_str(p, "a"), 0);
    play_wait_text(p, "Replay: guest1");
    play_wait_text(p, ", the end - ");
    for (time_t end = time(NULL) + 30;
         strcmp(cl_web_states(p), "lobby prompt playing lobby list replay "
                                  "watching ") != 0 && time(NULL) <= end;)
        cl_pump(p, 100);
    states_are(p, "lobby prompt playing lobby list replay watching ");
    cl_close(p);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("web_state");
    TCase *tc = tcase_create("web_state");
    tcase_set_timeout(tc, 60);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, the_play_page_is_told_each_state);
    tcase_add_test(tc, a_login_s_wait_keeps_the_prompt_s_bar);
    tcase_add_test(tc, an_ended_replay_takes_the_watch_s_bar);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
