/* test_phase.c - what the host's render phase and messages must make safe
 * (docs/architecture.md): a session ending while others depend on it, in
 * the middle of their conversation. Each runs the real server under ASan
 * and ends with a clean SIGTERM and a quiet LeakSanitizer (srv_stop).
 *
 *  - a watcher whose socket is reset while the player moves;
 *  - the player leaving in the middle of a key forwarded to 50 watchers;
 *  - a takeover while the old connection is still sending keys;
 *  - 1,000 sessions closing at once: 500 by their clients in one burst,
 *    the rest (players with their watchers) by SIGTERM in one phase;
 *  - a flood of window sizes: one frame per phase, whatever their number. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "combat.h"
#include "game.h"
#include "play.h"

/* A seed under which the player survives n turns of waiting. */
static uint64_t seed_surviving(int n)
{
    for (uint64_t seed = 1; seed < 1000; seed++) {
        game_options_t o = { .ruleset = RULES_ATTACK_DEFENSE };
        game_t *g = game_new(seed, &o);
        for (int i = 0; i < n && !game_dead(g); i++)
            game_key(g, '.');
        int alive = !game_dead(g);
        game_free(g);
        if (alive)
            return seed;
    }
    ck_abort_msg("no seed survives %d turns of waiting", n);
    return 0;
}

static tsrv_t *start_surviving(int turns, const char *max_sessions)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)seed_surviving(turns));
    return srv_start("--seed", seed, "--max-sessions", max_sessions, "--set",
                     "max_keys_per_second=100000", NULL);
}

/* A new client that watches the first game listed, played by `who`. */
static tclient_t *watcher(int port, const char *who)
{
    tclient_t *w = play_lobby(port);
    ck_assert(cl_key(w, "w"));
    play_wait_text(w, who);
    ck_assert(cl_key(w, "a"));
    char line[64];
    snprintf(line, sizeof line, "Watching %s - q leaves", who);
    play_wait_text(w, line);
    return w;
}

static void waits(tclient_t *c, int n)
{
    char *b = malloc((size_t)n);
    memset(b, '.', (size_t)n);
    ck_assert_uint_eq(cl_send_raw(c, b, (size_t)n, 1, CL_WAIT_MS), (size_t)n);
    free(b);
}

START_TEST(watcher_reset_while_the_player_moves)
{
    tsrv_t *s = start_surviving(50, "100");
    tclient_t *p = play_connect(srv_port(s), NULL);
    tclient_t *w[3];
    for (int i = 0; i < 3; i++)
        w[i] = watcher(srv_port(s), "guest1");
    play_wait_text(p, " 3 watching");
    /* The middle watcher's link dies; the player keeps pressing keys, each
     * forwarded to it until the server has noticed. */
    cl_abort(w[1]);
    for (int i = 1; i <= 20; i++) {
        if (!cl_key(p, "."))
            play_fail(p, "no answer to key %d", i);
        ck_assert_int_eq(cl_turn(p), i);
    }
    play_wait_text(p, " 2 watching");
    ck_assert(srv_wait_log(s, "disconnect 127.0.0.1:", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "info disconnect "), 1);
    /* The others saw every key. */
    for (int i = 0; i < 3; i += 2) {
        ck_assert(cl_sync(w[i], CL_WAIT_MS));
        ck_assert_int_eq(cl_turn(w[i]), 20);
        cl_close(w[i]);
    }
    cl_close(p);
    srv_stop(s);
}
END_TEST

#define NWATCH 50

START_TEST(player_leaves_mid_key_with_50_watchers)
{
    tsrv_t *s = srv_start("--seed", "42", "--max-sessions", "100", NULL);
    tclient_t *p = play_connect(srv_port(s), NULL);
    tclient_t *w[NWATCH];
    for (int i = 0; i < NWATCH; i++)
        w[i] = watcher(srv_port(s), "guest1");
    play_wait_text(p, " 50 watching");
    /* One write: a move and then the end of the connection. The move is
     * forwarded to 50 watchers, and the player's close follows it. */
    ck_assert_uint_eq(cl_send_raw(p, "l", 1, 0, CL_WAIT_MS), 1);
    cl_close(p);
    for (int i = 0; i < NWATCH; i++) {
        play_wait_text(w[i], "The player has left.");
        play_wait_text(w[i], "Play (as a guest)");
    }
    ck_assert(srv_wait_log(s, "game over id=1 name=guest1 seed=42 turns=1 ",
                           CL_WAIT_MS));
    /* (client closed, or reset if the answer to the key was unread) */
    ck_assert(srv_log_has(s, "cause=\"disconnected ("));
    /* Nothing is left to watch, and the watchers are in their lobby. */
    ck_assert(cl_key(w[0], "w"));
    play_wait_text(w[0], "Nobody is playing right now.");
    for (int i = 0; i < NWATCH; i++)
        cl_close(w[i]);
    srv_stop(s);
}
END_TEST

START_TEST(takeover_while_the_old_connection_sends_keys)
{
    tsrv_t *s = start_surviving(450, "100");
    uint64_t seed = seed_surviving(450);
    tclient_t *a = play_lobby(srv_port(s));
    ck_assert(cl_key(a, "r"));
    play_type_line(a, "erin");
    play_type_line(a, "erinspass");
    play_type_line(a, "erinspass");
    play_wait_text(a, "Logged in as erin");
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    /* 200 keys in flight when the second login starts, more while it runs. */
    waits(a, 200);
    tclient_t *b = play_lobby(srv_port(s));
    ck_assert(cl_key(b, "l"));
    play_type_line(b, "erin");
    cl_send_raw(a, "..........", 10, 1, CL_WAIT_MS); /* may find it closed */
    play_type_line(b, "erinspass");
    play_wait_text(b, "HP: ");
    ck_assert(cl_sync(b, CL_WAIT_MS));
    int t = cl_turn(b);
    ck_assert_int_ge(t, 200);
    ck_assert_int_le(t, 210);
    /* Exactly the game after t waits: nothing lost, nothing twice. */
    game_options_t o = { .ruleset = RULES_ATTACK_DEFENSE };
    game_t *g = game_new(seed, &o);
    for (int i = 0; i < t; i++)
        game_key(g, '.');
    play_expect_rows(b, g, 0, 23, 0, -1);
    if (!cl_wait_eof(a, CL_WAIT_MS))
        play_fail(a, "the first connection is still open");
    ck_assert(cl_stream_has(a, "Your account has logged in from elsewhere."));
    /* It plays on, and the game ends once, here. */
    ck_assert(cl_key(b, "."));
    ck_assert_int_eq(cl_turn(b), t + 1);
    ck_assert(cl_key(b, "Q"));
    ck_assert(cl_key(b, "y"));
    char want[96];
    snprintf(want, sizeof want, "game over id=%d name=erin seed=%llu turns=%d ",
             2, (unsigned long long)seed, t + 1);
    ck_assert(srv_wait_log(s, want, CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "game over "), 1);
    ck_assert(srv_log_has(s, "takeover id=2 takes the game of id=1"));
    game_free(g);
    cl_close(a);
    cl_close(b);
    srv_stop(s);
}
END_TEST

#define NSESS 1000
#define NPLAYERS 40
#define NWATCHED 20

START_TEST(thousand_sessions_close_at_once)
{
    tsrv_t *s = srv_start("--max-sessions", "2000", "--set",
                          "max_keys_per_second=100000", NULL);
    int port = srv_port(s);
    tclient_t **c = calloc(NSESS, sizeof *c);
    /* 40 players; the first 20 (all the watch page lists) watched by 12
     * sessions each; the rest in the lobby. */
    for (int i = 0; i < NPLAYERS; i++)
        c[i] = play_connect(port, NULL);
    int n = NPLAYERS;
    for (int i = 0; i < NWATCHED; i++) {
        char name[32], key[2] = { (char)('a' + i), 0 };
        snprintf(name, sizeof name, "guest%d", i + 1);
        for (int k = 0; k < 12; k++) {
            tclient_t *w = play_lobby(port);
            ck_assert(cl_key(w, "w"));
            play_wait_text(w, "Games in progress");
            ck_assert(cl_key(w, key)); /* listed in the order they started */
            char line[64];
            snprintf(line, sizeof line, "Watching %s - q leaves", name);
            play_wait_text(w, line);
            c[n++] = w;
        }
    }
    while (n < NSESS)
        c[n++] = play_lobby(port);
    ck_assert(srv_wait_log(s, "(1000 online)", CL_WAIT_MS));
    for (int i = 0; i < NPLAYERS; i++)
        ck_assert(cl_key(c[i], "."));

    /* Every other session goes in one burst: half the players (with their
     * watchers still watching), half the watchers, half the lobby. */
    for (int i = 0; i < NSESS; i += 2) {
        cl_close(c[i]);
        c[i] = NULL;
    }
    /* (Closing with unread frames resets the link: reasons differ.) */
    for (int64_t end = cl_now_ms() + CL_WAIT_MS;
         srv_log_count(s, "info disconnect ") < NSESS / 2 && cl_now_ms() < end;)
        cl_pump(c[1], 10); /* a bounded wait that reads meanwhile */
    ck_assert_int_eq(srv_log_count(s, "info disconnect "), NSESS / 2);
    tclient_t *late = play_connect(port, NULL); /* the server still serves */
    /* the second: the first was the 501st connect of the ramp up */
    ck_assert(srv_wait_log_count(s, "(501 online)", 2, CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "(501 online)"), 2);
    cl_close(late);
    /* Watchers of the players that left are back in their lobby. */
    for (int i = NPLAYERS; i < NPLAYERS + NWATCHED * 12; i++)
        if (c[i] && ((i - NPLAYERS) / 12) % 2 == 0)
            play_wait_text(c[i], "The player has left.");

    /* The rest in one phase: SIGTERM. Each is told, each guest game kept. */
    srv_signal(s, SIGTERM);
    ck_assert(srv_wait_log(s, " info stopped\n", CL_WAIT_MS * 4));
    ck_assert_int_eq(srv_log_count(s, "reason=\"the server stopped\""), NSESS / 2);
    ck_assert_int_eq(srv_log_count(s, "cause=\"disconnected (the server stopped)\""),
                     NPLAYERS / 2);
    for (int i = 1; i < NSESS; i += 2) {
        if (!cl_wait_eof(c[i], CL_WAIT_MS))
            play_fail(c[i], "session %d is still open", i);
        /* a guest in a game is told it ends; the others, goodbye */
        ck_assert(cl_stream_has(c[i], i < NPLAYERS
                                ? "The server is shutting down: a guest's "
                                  "game ends here. Goodbye!"
                                : "The server is shutting down. Goodbye!"));
        cl_close(c[i]);
    }
    free(c);
    srv_stop(s);
}
END_TEST

/* 500 window sizes in one write (a terminal dragged about, or a flood):
 * the sizes change state only; the render phase draws once, at the last
 * size. The resize budget is set out of the way (test_resize_flood has
 * it): each size is taken at once here. */
START_TEST(resize_flood_costs_one_frame)
{
    tsrv_t *s = srv_start("--seed", "42", "--set",
                          "resizes_per_window=1000000", NULL);
    tclient_t *p = play_connect(srv_port(s), NULL);
    ck_assert(cl_sync(p, CL_WAIT_MS));
    int before = cl_frames(p);
    static unsigned char buf[500 * 9];
    for (int i = 0; i < 500; i++) {
        unsigned char *b = buf + i * 9;
        int w = i == 499 ? 100 : 81 + i % 50, h = i == 499 ? 30 : 25 + i % 9;
        b[0] = 0xff; b[1] = 0xfa; b[2] = 31;          /* IAC SB NAWS */
        b[3] = 0; b[4] = (unsigned char)w; b[5] = 0; b[6] = (unsigned char)h;
        b[7] = 0xff; b[8] = 0xf0;                     /* IAC SE */
    }
    ck_assert_uint_eq(cl_send_raw(p, buf, sizeof buf, 1, CL_WAIT_MS), sizeof buf);
    ck_assert(cl_sync(p, CL_WAIT_MS));
    ck_assert_int_eq(cl_frames(p) - before, 1);
    /* It was drawn at the last size: the status line on row 29. */
    cl_resize(p, 100, 30);
    ck_assert(cl_key(p, "\x0c")); /* Ctrl-L: everything again */
    char row[128];
    ck_assert(strncmp(cl_row(p, 29, row, sizeof row), "HP: ", 4) == 0);
    cl_close(p);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("phase");
    TCase *tc = tcase_create("phase");
    tcase_set_timeout(tc, 240);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, watcher_reset_while_the_player_moves);
    tcase_add_test(tc, player_leaves_mid_key_with_50_watchers);
    tcase_add_test(tc, takeover_while_the_old_connection_sends_keys);
    tcase_add_test(tc, thousand_sessions_close_at_once);
    tcase_add_test(tc, resize_flood_costs_one_frame);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
