/* test_watch.c - watching live and taking a game over, against the real
 * server: a watcher at 100x40 sees the same map and monsters as the player
 * at 80x24 while keys are pressed, cannot move the '@', and is counted on
 * the player's screen; a watcher joining after 1,000 turns sees the
 * current state at once; the watch ends with a line when the game does;
 * a second login of an account takes its game over and closes the first
 * connection. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "combat.h"
#include "game.h"
#include "plan.h"
#include "play.h"

/* Rows 0..19 of the map (row 20 is the log's oldest line, which carries
 * the watch line: it never hides a map cell), the 80 map
 * columns, are the same on both screens. */
static int maps_equal(const tclient_t *a, const tclient_t *b, char *why,
                      size_t n)
{
    for (int y = 0; y < 20; y++)
        for (int x = 0; x < 80; x++) {
            cl_cell_t ca, cb;
            cl_cell(a, x, y, &ca);
            cl_cell(b, x, y, &cb);
            if (ca.ch != cb.ch || ca.fg != cb.fg) {
                snprintf(why, n, "cell (%d,%d): '%c' fg %d vs '%c' fg %d", x, y,
                         (char)ca.ch, ca.fg, (char)cb.ch, cb.fg);
                return 0;
            }
        }
    return 1;
}

static int pred_maps_equal(tclient_t *b, void *arg)
{
    char why[128];
    return maps_equal(arg, b, why, sizeof why);
}

static void expect_same_map(tclient_t *player, tclient_t *watcher)
{
    char why[128];
    if (!cl_wait(watcher, pred_maps_equal, player, CL_WAIT_MS)) {
        maps_equal(player, watcher, why, sizeof why);
        play_fail(watcher, "the watcher's map differs from the player's: %s", why);
    }
}

static int pred_turn_is(tclient_t *w, void *arg)
{
    return cl_turn(w) == cl_turn(arg);
}

START_TEST(watcher_sees_the_game_at_its_own_size)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *p = play_connect(srv_port(s), NULL);
    play_move(p, "l", 1, 0);

    cl_opts_t big = { .w = 100, .h = 40 };
    tclient_t *w = cl_connect(srv_port(s), &big);
    play_wait_text(w, "Play (as a guest)");
    ck_assert(cl_sync(w, CL_WAIT_MS));
    play_watch_first(w, "guest1");
    expect_same_map(p, w);
    /* The watcher's layout is its own: status on row 32 (under the log's
     * twelve rows; its 80x24 player's on row 23). */
    char row[256];
    ck_assert(strncmp(cl_row(w, 32, row, sizeof row), "HP: ", 4) == 0);
    ck_assert_int_eq(cl_turn(w), 1);
    /* The player sees that someone watches; not over the help's page
     * (the row under its keys had room for it: no log row there). */
    play_wait_text(p, "1 watching");
    ck_assert(cl_key(p, "?"));
    play_wait_text(p, "Keys (? again");
    ck_assert(cl_sync(p, CL_WAIT_MS));
    ck_assert_msg(!cl_screen_has(p, "1 watching"), "over the help");
    ck_assert(cl_key(p, "?"));
    play_wait_text(p, "Monsters (from the top");
    ck_assert(cl_key(p, " "));
    play_wait_text(p, "1 watching");

    /* Keys the player presses: the watcher's copy follows each one. */
    const char *keys[] = { "h", "l", ".", "l", "5" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        ck_assert(cl_key(p, keys[i]));
        /* The watcher's frame is written in the same render phase as the
         * player's, just after it: wait for it. */
        if (!cl_wait(w, pred_turn_is, p, CL_WAIT_MS))
            play_fail(w, "the watcher is at turn %d, the player at %d",
                      cl_turn(w), cl_turn(p));
        expect_same_map(p, w);
    }
    /* The watcher cannot move the '@'. */
    int px, py, turn = cl_turn(p);
    ck_assert_int_eq(cl_find(p, '@', &px, &py), 1);
    ck_assert(cl_key(w, "h"));
    ck_assert(cl_key(w, "."));
    ck_assert(cl_sync(p, CL_WAIT_MS));
    int qx, qy;
    ck_assert_int_eq(cl_find(p, '@', &qx, &qy), 1);
    ck_assert_int_eq(qx, px);
    ck_assert_int_eq(qy, py);
    ck_assert_int_eq(cl_turn(p), turn);

    /* q: back to the lobby; the player's count goes. */
    ck_assert(cl_key(w, "q"));
    play_wait_text(w, "Play (as a guest)");
    if (!cl_wait_no_text(p, "1 watching", CL_WAIT_MS))
        play_fail(p, "the watcher count stayed after the watcher left");
    cl_close(w);
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* A seed whose player survives n turns of waiting, found in-process. */
static uint64_t seed_surviving(int n)
{
    for (uint64_t seed = 1; seed < 500; seed++) {
        game_t *g = game_new(seed, NULL);
        for (int i = 0; i < n && !game_dead(g); i++)
            game_key(g, '.');
        int ok = !game_dead(g) && g->turn == (uint32_t)n;
        game_free(g);
        if (ok)
            return seed;
    }
    ck_abort_msg("no seed survives %d turns of waiting", n);
    return 0;
}

/* At 80x24 the "Watching" label goes at the right end of a log line it
 * leaves whole: the game's first line (68 columns), the log's oldest
 * shown, keeps its end, and the label is on a row with room for it. */
START_TEST(watch_label_leaves_a_long_line_whole)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *p = play_connect(srv_port(s), NULL);
    tclient_t *w = play_lobby(srv_port(s));
    play_watch_first(w, "guest1");
    play_wait_text(w, "Watching guest1 - q leaves");
    /* two lines more: the long first one is the log's oldest shown */
    ck_assert(cl_key(p, ","));
    ck_assert(cl_key(p, "z"));
    play_wait_text(w, "Unknown key");
    char row[256];
    int first = -1, label = -1;
    for (int y = 20; y < 23; y++) {
        cl_row(w, y, row, sizeof row);
        if (strstr(row, "Press ? for help. Move"))
            first = y;
        if (strstr(row, "Watching guest1 - q leaves"))
            label = y;
    }
    ck_assert_int_ge(first, 20);
    ck_assert_int_ge(label, 20);
    cl_row(w, first, row, sizeof row);
    ck_assert_msg(strstr(row, "hjklyubn or the numpad."), "row %d: %s", first,
                  row);
    ck_assert_int_ne(label, first);
    cl_close(w);
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* A watcher at 40x20 (a phone) gets the narrow layout (docs/game.md,
 * "Small terminals"): the short status line, the '@' in the map window,
 * the watcher's line in its shorter form (no log row has room for the
 * whole) at the right end of the log's first row (under the window, as
 * under the map at 80 columns); and it follows the player. */
START_TEST(narrow_watcher_follows)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *p = play_connect(srv_port(s), NULL);
    play_move(p, "l", 1, 0);
    cl_opts_t small = { .w = 40, .h = 20 };
    tclient_t *w = cl_connect(srv_port(s), &small);
    play_wait_text(w, "Play (as a guest)");
    ck_assert(cl_sync(w, CL_WAIT_MS));
    play_watch_first(w, "guest1");
    char row[256];
    ck_assert_str_eq(cl_row(w, 19, row, sizeof row),
                     "HP:30/30  L:1  XP:0  $0  D:1  T:1");
    ck_assert_str_eq(cl_row(w, 16, row, sizeof row),
                     "Welcome to the dungeo guest1 - q leaves");
    int x, y;
    ck_assert_int_eq(cl_find(w, '@', &x, &y), 1);
    ck_assert_int_lt(y, 16);
    ck_assert(cl_key(p, "h"));
    if (!cl_wait(w, pred_turn_is, p, CL_WAIT_MS))
        play_fail(w, "the watcher is at turn %d, the player at %d",
                  cl_turn(w), cl_turn(p));
    ck_assert_str_eq(cl_row(w, 19, row, sizeof row),
                     "HP:30/30  L:1  XP:0  $0  D:1  T:2");
    ck_assert(cl_key(w, "q"));
    play_wait_text(w, "Play (as a guest)");
    cl_close(w);
    cl_close(p);
    srv_stop(s);
}
END_TEST

START_TEST(watcher_joining_late_catches_up)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)seed_surviving(1000));
    tsrv_t *s = srv_start("--seed", seed, "--set", "max_keys_per_second=100000",
                          NULL);
    tclient_t *p = play_connect(srv_port(s), NULL);
    char waits[1000];
    memset(waits, '.', sizeof waits);
    ck_assert_uint_eq(cl_send_raw(p, waits, sizeof waits, 1, CL_WAIT_MS * 2),
                      sizeof waits);
    ck_assert(cl_sync(p, CL_WAIT_MS));
    ck_assert_int_eq(cl_turn(p), 1000);

    tclient_t *w = cl_connect(srv_port(s), NULL);
    play_wait_text(w, "Play (as a guest)");
    ck_assert(cl_sync(w, CL_WAIT_MS));
    play_watch_first(w, "guest1");
    ck_assert_int_eq(cl_turn(w), 1000);
    expect_same_map(p, w);
    /* The message log too (rows 21-22): the same game, the same lines. */
    char a[256], b[256];
    for (int y = 21; y <= 22; y++)
        ck_assert_str_eq(cl_row(p, y, a, sizeof a), cl_row(w, y, b, sizeof b));
    cl_close(w);
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* The watch ends when the player leaves the server (a game ended to the
 * lobby only makes the watcher wait: watcher_follows_through_the_lobby). */
START_TEST(watch_ends_with_the_game)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *p = play_connect(srv_port(s), NULL);
    play_move(p, "l", 1, 0);
    tclient_t *w = cl_connect(srv_port(s), NULL);
    play_wait_text(w, "Play (as a guest)");
    ck_assert(cl_sync(w, CL_WAIT_MS));
    play_watch_first(w, "guest1");
    ck_assert(cl_key(p, "Q"));
    ck_assert(cl_key(p, "y"));
    play_wait_text(w, "guest1 is in the lobby. Waiting for them to play");
    ck_assert(cl_sync(w, CL_WAIT_MS));
    if (cl_screen_has(w, "in the lobby: waiting"))
        play_fail(w, "the wait is said twice");
    ck_assert_int_eq(cl_send_str(p, "q"), 0); /* the player leaves */
    play_wait_text(w, "The player has left.");
    play_wait_text(w, "Play (as a guest)");
    ck_assert(cl_sync(w, CL_WAIT_MS));
    /* the lobby alone, as a repaint draws it: nothing of the watch left */
    if (cl_screen_has(w, "waiting for the next game"))
        play_fail(w, "a line of the watch is left on the lobby");
    cl_snap_t lobby;
    cl_snap(w, &lobby);
    ck_assert(cl_key(w, "\x0c")); /* Ctrl-L */
    char why[128];
    if (!cl_snap_equal(w, &lobby, why, sizeof why))
        play_fail(w, "the lobby differs from its repaint: %s", why);
    cl_snap_free(&lobby);
    /* Nothing left to watch. */
    ck_assert(cl_key(w, "w"));
    play_wait_text(w, "Nobody is playing right now.");
    cl_close(w);
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* Joining a long game (200,000 keys sent, over 100,000 taken) rebuilds it
 * off the loop from the player's latest snapshot: the watcher gets the
 * very game, and another player is answered meanwhile. */
START_TEST(watching_a_long_game)
{
    tsrv_t *s = srv_start("--seed", "42", "--set",
                          "max_keys_per_second=100000", "--log-level", "debug",
                          NULL);
    tclient_t *p = play_connect(srv_port(s), NULL);
    enum { N = 200000 };
    char *keys = malloc(N);
    memset(keys, 'z', N); /* an unknown key: a key for the record, no turn */
    ck_assert_uint_eq(cl_send_raw(p, keys, N, 1, CL_WAIT_MS * 4), N);
    free(keys);
    ck_assert(cl_sync(p, CL_WAIT_MS * 4));
    play_move(p, "l", 1, 0);
    tclient_t *other = play_connect(srv_port(s), NULL);
    tclient_t *w = play_lobby(srv_port(s));
    ck_assert(cl_key(w, "w"));
    play_wait_text(w, "guest1");
    ck_assert(cl_key(w, "a"));
    /* Another player's keys are answered while the game is rebuilt. */
    play_move(other, "l", 1, 0);
    play_wait_text(w, "Watching guest1 - q leaves");
    ck_assert(cl_wait(w, pred_turn_is, p, CL_WAIT_MS));
    expect_same_map(p, w);
    /* (only the keys since the player's latest snapshot were replayed) */
    ck_assert(srv_log_has(s, ": from the snapshot at key "));
    play_move(p, "h", -1, 0);
    ck_assert(cl_wait(w, pred_turn_is, p, CL_WAIT_MS));
    expect_same_map(p, w);
    cl_close(w);
    cl_close(other);
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* A watcher follows the player into the next game: after YOU DIED, the
 * player's new game is what the watcher sees, and it says so. */
START_TEST(watcher_follows_into_the_next_game)
{
    plan_t pl;
    tsrv_t *s;
    plan_death_setup(&pl, &s, NULL, NULL, NULL);
    tclient_t *p = play_connect(srv_port(s), NULL);
    tclient_t *w = play_lobby(srv_port(s));
    play_watch_first(w, "guest1");
    for (int i = 0; i < pl.n; i++) {
        char key[2] = { pl.keys[i], 0 };
        if (!cl_key(p, key))
            play_fail(p, "no answer to key %d", i + 1);
    }
    play_wait_text(p, "YOU DIED");
    play_wait_text(w, "YOU DIED");
    ck_assert(cl_key(p, " ")); /* another game */
    play_wait_text(p, "Turn:0");
    play_wait_text(w, "guest1 starts a new game.");
    play_wait_text(w, "Watching guest1 - q leaves");
    ck_assert(cl_wait(w, pred_turn_is, p, CL_WAIT_MS));
    expect_same_map(p, w);
    /* And keys of the new game reach it. */
    play_move(p, "l", 1, 0);
    ck_assert(cl_wait(w, pred_turn_is, p, CL_WAIT_MS));
    expect_same_map(p, w);
    ck_assert(srv_log_count(s, "game start id=1 name=guest1") == 2);
    cl_close(w);
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* The player quits to the lobby and starts another game from there: the
 * watcher waits meanwhile (its screen says so), then watches the new game,
 * key for key, until it leaves; a watcher who left before the next game
 * is not brought back. */
START_TEST(watcher_follows_through_the_lobby)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *p = play_connect(srv_port(s), NULL);
    play_move(p, "l", 1, 0);
    tclient_t *w = play_lobby(srv_port(s));
    play_watch_first(w, "guest1");
    /* the one who leaves on a phone's 40x20: its waiting line wrapped,
     * not cut at the edge */
    cl_opts_t narrow = { .w = 40, .h = 20 };
    tclient_t *gone = cl_connect(srv_port(s), &narrow);
    play_wait_text(gone, "Play (as a guest)");
    ck_assert(cl_sync(gone, CL_WAIT_MS));
    play_watch_first(gone, "guest1");
    play_wait_text(p, "2 watching");
    ck_assert(cl_key(p, "Q"));
    ck_assert(cl_key(p, "y"));
    play_wait_text(p, "Play as guest1");
    play_wait_text(w, "guest1 is in the lobby. Waiting for them to play - "
                      "q leaves");
    play_wait_text(gone, "to play - q leaves");
    ck_assert(cl_sync(gone, CL_WAIT_MS));
    char row[64];
    ck_assert_str_eq(cl_row(gone, 10, row, sizeof row),
                     "guest1 is in the lobby. Waiting for them");
    ck_assert_str_eq(cl_row(gone, 11, row, sizeof row),
                     "           to play - q leaves");
    ck_assert(cl_key(gone, "q")); /* this one leaves while it waits */
    play_wait_text(gone, "Play (as a guest)");
    ck_assert(cl_key(p, "p"));
    play_wait_text(p, "Turn:0");
    play_wait_text(w, "guest1 starts a new game.");
    play_wait_text(w, "Watching guest1 - q leaves");
    ck_assert(cl_wait(w, pred_turn_is, p, CL_WAIT_MS));
    expect_same_map(p, w);
    play_wait_text(p, "1 watching");
    play_move(p, "l", 1, 0);
    ck_assert(cl_wait(w, pred_turn_is, p, CL_WAIT_MS));
    expect_same_map(p, w);
    /* the one who left stays in its lobby */
    ck_assert(cl_sync(gone, CL_WAIT_MS));
    ck_assert(cl_screen_has(gone, "Play (as a guest)"));
    ck_assert_int_eq(srv_log_count(s, "game start id=1 name=guest1"), 2);
    ck_assert(cl_key(w, "q"));
    play_wait_text(w, "Play (as a guest)");
    if (!cl_wait_no_text(p, "1 watching", CL_WAIT_MS))
        play_fail(p, "the watcher count stayed after the watcher left");
    cl_close(gone);
    cl_close(w);
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* The player starts a game from the lobby, and quits to it again. */
static void next_game(tclient_t *p, tclient_t *w)
{
    ck_assert(cl_key(p, "p"));
    play_wait_text(p, "Turn:0");
    play_wait_text(w, "guest1 starts a new game.");
}

static void back_to_the_lobby(tclient_t *p, tclient_t *w)
{
    ck_assert(cl_key(p, "Q"));
    ck_assert(cl_key(p, "y"));
    play_wait_text(p, "Play as guest1");
    play_wait_text(w, "guest1 is in the lobby. Waiting for them to play");
    ck_assert(cl_sync(w, CL_WAIT_MS));
}

/* The notice line has one owner at a time: the watch's "NAME starts a new
 * game." goes when that game does, but a console `say` over it is the
 * host's and stays until the watcher's own key (docs/hosting.md), through
 * the watch's waiting and its end. */
START_TEST(a_say_outlives_the_watch)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    ck_assert(srv_wait_log(s, "console on ", CL_WAIT_MS));
    tclient_t *p = play_connect(srv_port(s), NULL);
    tclient_t *w = play_lobby(srv_port(s));
    play_watch_first(w, "guest1");
    back_to_the_lobby(p, w);
    next_game(p, w);
    /* the watch's own notice goes with the game it was about */
    back_to_the_lobby(p, w);
    if (cl_screen_has(w, "starts a new game."))
        play_fail(w, "the watch's notice outlived the game it was about");
    next_game(p, w);
    char out[256];
    ck_assert_int_eq(srv_ctl(s, "say 'Back in five'", out, sizeof out), 0);
    play_wait_text(w, "[host] Back in five");
    ck_assert(!cl_screen_has(w, "starts a new game."));
    back_to_the_lobby(p, w);
    if (!cl_screen_has(w, "[host] Back in five"))
        play_fail(w, "the say went when the watched game did");
    ck_assert_int_eq(cl_send_str(p, "q"), 0); /* the watch ends */
    play_wait_text(w, "The player has left.");
    ck_assert(cl_sync(w, CL_WAIT_MS));
    if (!cl_screen_has(w, "[host] Back in five"))
        play_fail(w, "the say went when the watch ended");
    /* the watcher's key ends it */
    ck_assert(cl_key(w, "\x0c")); /* Ctrl-L */
    if (!cl_wait_no_text(w, "[host] Back in five", CL_WAIT_MS))
        play_fail(w, "the say stayed after the watcher's key");
    cl_close(w);
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* An account's game saved (S) and gone on with (p): its watcher, who
 * waited meanwhile, is told the player goes on with the game, not that a
 * new one starts; and the watch's notice goes after ten of the player's
 * keys (it hid a log row for the whole game: a play-test). */
START_TEST(a_saved_game_goes_on_and_the_notice_goes)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *p = play_register(srv_port(s), "ann");
    ck_assert(cl_key(p, "p"));
    play_wait_text(p, "HP: ");
    ck_assert(cl_sync(p, CL_WAIT_MS));
    play_walk_keys(p, 3);
    tclient_t *w = play_lobby(srv_port(s));
    play_watch_first(w, "ann");
    ck_assert(cl_key(p, "S"));
    play_wait_text(p, "Your game is saved: p goes on with it.");
    play_wait_text(p, "Continue your game (depth 1, turn ");
    play_wait_text(w, "ann is in the lobby. Waiting for them to play");
    ck_assert(cl_key(p, "p"));
    play_wait_text(p, "HP: ");
    play_wait_text(w, "ann goes on with the game.");
    ck_assert(!cl_stream_has(w, "ann starts a new game."));
    play_walk_keys(p, 9);
    ck_assert(cl_sync(w, CL_WAIT_MS));
    ck_assert(cl_screen_has(w, "ann goes on with the game."));
    play_walk_keys(p, 1);
    if (!cl_wait_no_text(w, "ann goes on with the game.", CL_WAIT_MS))
        play_fail(w, "the watch's notice stayed past ten keys");
    cl_close(w);
    cl_close(p);
    srv_stop(s);
}
END_TEST

START_TEST(second_login_takes_the_game_over)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *a = cl_connect(srv_port(s), NULL);
    play_wait_text(a, "Play (as a guest)");
    ck_assert(cl_sync(a, CL_WAIT_MS));
    ck_assert(cl_key(a, "r"));
    play_type_line(a, "carol");
    play_type_line(a, "carolspw");
    play_type_line(a, "carolspw");
    play_wait_text(a, "Logged in as carol");
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: 30/30");
    play_move(a, "l", 1, 0);
    play_move(a, "h", -1, 0);
    int ax, ay;
    ck_assert_int_eq(cl_find(a, '@', &ax, &ay), 1);

    tclient_t *b = cl_connect(srv_port(s), NULL);
    play_wait_text(b, "Play (as a guest)");
    ck_assert(cl_sync(b, CL_WAIT_MS));
    ck_assert(cl_key(b, "l"));
    play_type_line(b, "Carol");
    play_type_line(b, "carolspw");
    /* The game, where carol left it, on the new connection. */
    play_wait_text(b, "Turn:2");
    ck_assert(cl_sync(b, CL_WAIT_MS));
    ck_assert_int_eq(cl_turn(b), 2);
    int bx, by;
    ck_assert_int_eq(cl_find(b, '@', &bx, &by), 1);
    ck_assert_int_eq(bx, ax);
    ck_assert_int_eq(by, ay);
    /* The old connection was told and closed. */
    if (!cl_wait_eof(a, CL_WAIT_MS))
        play_fail(a, "the first connection is still open");
    ck_assert(cl_stream_has(a, "Your account has logged in from elsewhere."));
    ck_assert(srv_wait_log(s, "reason=\"logged in elsewhere\"", CL_WAIT_MS));
    /* It plays on. */
    play_move(b, "l", 1, 0);
    ck_assert_int_eq(cl_turn(b), 3);
    cl_close(a);
    cl_close(b);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("watch");
    TCase *tc = tcase_create("watch");
    tcase_set_timeout(tc, 90);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, watcher_sees_the_game_at_its_own_size);
    tcase_add_test(tc, narrow_watcher_follows);
    tcase_add_test(tc, watch_label_leaves_a_long_line_whole);
    tcase_add_test(tc, watcher_joining_late_catches_up);
    tcase_add_test(tc, watch_ends_with_the_game);
    tcase_add_test(tc, watcher_follows_into_the_next_game);
    tcase_add_test(tc, watcher_follows_through_the_lobby);
    tcase_add_test(tc, watching_a_long_game);
    tcase_add_test(tc, a_say_outlives_the_watch);
    tcase_add_test(tc, a_saved_game_goes_on_and_the_notice_goes);
    tcase_add_test(tc, second_login_takes_the_game_over);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
