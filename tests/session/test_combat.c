/* test_combat.c - fights against the real server: the hit lines in the log,
 * the HP colour going green -> yellow -> red, the YOU DIED screen and its
 * keys (r: a new game, Esc or q: back to the lobby), each `combat =`
 * ruleset playing a fight, and an unknown ruleset refusing to start.
 * Fights are scripted from a fixed seed (plan.h). */
#include <check.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ai.h"
#include "check_main.h"
#include "client.h"
#include "combat.h"
#include "game.h"
#include "plan.h"
#include "play.h"
#include "view.h"

/* 1 if a log row (21 to the one above the status line) of the screen
 * contains text. */
static int log_rows_have(const tclient_t *c, const char *text)
{
    char row[256];
    for (int y = 21; y <= cl_h(c) - 2; y++)
        if (strstr(cl_row(c, y, row, sizeof row), text))
            return 1;
    return 0;
}

START_TEST(fight_to_death_then_new_game_then_goodbye)
{
    plan_t pl;
    tsrv_t *s;
    plan_death_setup(&pl, &s, NULL, NULL, NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);

    int yellow = 0, red = 0, hit_lines = 0;
    game_options_t o = { .ruleset = pl.ruleset };
    game_t *g = game_new(pl.seed, &o);
    expect_screen(c, g, 0);
    for (int i = 0; i < pl.n; i++) {
        char key[2] = { pl.keys[i], 0 };
        if (!cl_key(c, key))
            play_fail(c, "no answer to key %d ('%c')", i + 1, key[0]);
        game_key(g, key[0]);
        expect_screen(c, g, i + 1);
        hit_lines += log_rows_have(c, " hits you for ") ||
                     log_rows_have(c, " hits you but deals no damage.");
        cl_cell_t cell;
        cl_cell(c, 0, 23, &cell);
        if (!game_dead(g)) {
            /* Green above 60%, yellow above 30%, red at or below. */
            int band = hp_band(&g->player);
            ck_assert_int_eq(cell.fg, band == 2 ? 10 : band == 1 ? 11 : 9);
            yellow |= cell.fg == 11;
            red |= cell.fg == 9 && yellow;
        }
    }
    ck_assert_msg(hit_lines > 0, "no hit line was ever on screen");
    ck_assert_msg(yellow && red, "the HP never went yellow then red");

    /* The framed YOU DIED screen, with the cause, depth, turns, kills. */
    ck_assert(game_dead(g));
    char cause[64], want[80];
    game_death_cause(g, cause, sizeof cause);
    ck_assert_ptr_nonnull(strstr(cause, "killed by "));
    ck_assert(cl_screen_has(c, "YOU DIED"));
    ck_assert(cl_screen_has(c, cause));
    snprintf(want, sizeof want, "Depth: 1   Turns: %u   Kills: 0",
             (unsigned)g->turn);
    ck_assert(cl_screen_has(c, want));
    ck_assert(cl_screen_has(c, "Score: "));
    ck_assert(cl_screen_has(c, "Space or r: a new game    Esc or q: leave"));
    ck_assert(cl_screen_has(c, "+-----"));
    snprintf(want, sizeof want, "cause=\"%s\"", cause);
    ck_assert(srv_wait_log(s, want, CL_WAIT_MS));
    /* Other keys do nothing there. */
    ck_assert(cl_key(c, "l"));
    ck_assert(cl_screen_has(c, "YOU DIED"));

    /* r: a new game (the configured seed, so the same dungeon again). */
    ck_assert(cl_key(c, "r"));
    game_free(g);
    g = game_new(pl.seed, &o);
    expect_screen(c, g, 0);
    ck_assert(cl_screen_has(c, "HP: 30/30"));
    ck_assert(cl_screen_has(c, "Turn:0"));
    ck_assert(cl_screen_has(c, "Welcome to the dungeon, adventurer!"));
    snprintf(want, sizeof want, "game start id=1 name=guest1 seed=%llu",
             (unsigned long long)pl.seed);
    ck_assert_int_eq(srv_log_count(s, want), 2);
    game_free(g);

    /* The same keys die the same death; then Esc goes back to the lobby,
     * and q there says goodbye and closes. */
    g = play_plan(c, &pl);
    ck_assert(game_dead(g));
    ck_assert(cl_screen_has(c, "YOU DIED"));
    game_free(g);
    ck_assert(cl_key(c, "\x1b"));
    if (!cl_wait_text(c, "Play as guest1", CL_WAIT_MS))
        play_fail(c, "Esc on the death screen did not return to the lobby");
    ck_assert_int_eq(cl_send_str(c, "q"), 0);
    if (!cl_wait_eof(c, CL_WAIT_MS))
        play_fail(c, "q in the lobby did not close the connection");
    ck_assert(cl_stream_has(c, "Goodbye"));
    ck_assert(srv_wait_log(s, "reason=\"quit\"", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "game over id=1"), 2);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* In the browser the end screen has a key bar of its own (r, Esc: a
 * phone's game bar has neither): the page is told "state over" at the
 * death, and "state playing" again with the new game r starts. The
 * death's keys in one write (the limit lifted), played in order. */
START_TEST(the_page_is_told_the_game_is_over)
{
    plan_t pl;
    tsrv_t *s;
    char port_set[32];
    int http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", http);
    plan_death_setup(&pl, &s, NULL, NULL, "--set", port_set, "--set",
                     "max_keys_per_second=100000", NULL);
    cl_opts_t o = { .web = 1 };
    tclient_t *c = cl_connect(http, &o);
    play_ready(c);
    ck_assert_str_eq(cl_web_states(c), "lobby prompt playing ");
    char keys[512];
    ck_assert_int_lt(pl.n, (int)sizeof keys);
    for (int i = 0; i < pl.n; i++)
        keys[i] = (char)pl.keys[i];
    keys[pl.n] = '\0';
    ck_assert_int_eq(cl_send_str(c, keys), 0);
    play_wait_text(c, "YOU DIED");
    play_wait_text(c, "Space or r: a new game");
    ck_assert_str_eq(cl_web_states(c), "lobby prompt playing over ");
    ck_assert_int_eq(cl_send_str(c, "r"), 0);
    play_wait_text(c, "Turn:0");
    ck_assert_str_eq(cl_web_states(c), "lobby prompt playing over playing ");
    cl_close(c);
    srv_stop(s);
}
END_TEST

START_TEST(q_on_the_death_screen_returns_to_the_lobby)
{
    tsrv_t *s;
    tclient_t *c;
    game_t *g = plan_death_setup(NULL, &s, &c, NULL, NULL);
    game_free(g);
    ck_assert(cl_key(c, "q"));
    if (!cl_wait_text(c, "Play as guest1", CL_WAIT_MS))
        play_fail(c, "q on the death screen did not return to the lobby");
    /* The game was recorded when it ended, with the cause of death. */
    ck_assert(srv_log_has(s, "game over id=1 name=guest1"));
    ck_assert(srv_log_has(s, "cause=\"killed by"));
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* The shape of each ruleset's lines (docs/game.md), as the player sees them. */
static const struct {
    const char *name;
    const char *shape; /* in a line of the player's blows */
} rulesets[RULES_COUNT] = {
    [RULES_POWER] = { "power", " hp)" },
    [RULES_ATTACK_DEFENSE] = { "attack-defense", "You hit the " },
    [RULES_D10] = { "d10", "You swing your fist at the " },
    [RULES_DICE_POOL] = { "dice-pool", " vs [" },
};

/* Each `combat = NAME` of a config file plays its own rules: a fight to the
 * first kill, screen for screen as the core plays it. */
static void fight_with_config(int r)
{
    plan_t pl;
    find_plan(plan_fight, r, &pl);
    char conf[] = "/tmp/rogued-combat-XXXXXX", seed[32], line[64];
    int fd = mkstemp(conf);
    ck_assert_int_ge(fd, 0);
    int len = snprintf(line, sizeof line, "combat = %s\n", rulesets[r].name);
    ck_assert_int_eq(write(fd, line, (size_t)len), len);
    close(fd);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)pl.seed);
    tsrv_t *s = srv_start("--config", conf, "--seed", seed, NULL);
    unlink(conf);
    /* 80x30: a log of 8 lines, so that a dice-pool attack (three lines)
     * is not pushed off by the answer (three more). */
    cl_opts_t co = { .w = 80, .h = 30 };
    tclient_t *c = play_connect(srv_port(s), &co);

    game_options_t o = { .ruleset = r };
    game_t *g = game_new(pl.seed, &o);
    int shape = 0;
    for (int i = 0; i < pl.n; i++) {
        char key[2] = { pl.keys[i], 0 };
        if (!cl_key(c, key))
            play_fail(c, "no answer to key %d ('%c')", i + 1, key[0]);
        game_key(g, key[0]);
        expect_screen(c, g, i + 1);
        shape |= log_rows_have(c, rulesets[r].shape);
    }
    ck_assert_int_eq(g->kills, 1);
    ck_assert(cl_screen_has(c, " dies"));
    ck_assert_msg(shape, "no \"%s\" line for %s", rulesets[r].shape,
                  rulesets[r].name);
    /* The help screen names the rules in force. */
    ck_assert(cl_key(c, "?"));
    snprintf(line, sizeof line, "Combat rules on this server: %s",
             rulesets[r].name);
    ck_assert(cl_screen_has(c, line));
    game_free(g);
    cl_close(c);
    srv_stop(s);
}

START_TEST(config_power)
{
    fight_with_config(RULES_POWER);
}
END_TEST

START_TEST(config_attack_defense)
{
    fight_with_config(RULES_ATTACK_DEFENSE);
}
END_TEST

START_TEST(config_d10)
{
    fight_with_config(RULES_D10);
}
END_TEST

START_TEST(config_dice_pool)
{
    fight_with_config(RULES_DICE_POOL);
}
END_TEST

START_TEST(combat_flag)
{
    tsrv_t *s = srv_start("--combat", "dice-pool", NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    ck_assert(cl_key(c, "?"));
    ck_assert(cl_screen_has(c, "Combat rules on this server: dice-pool"));
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* Runs the server binary with args (a shell fragment), returning its exit
 * status and its output (stdout and stderr) in out. */
/* The server with a data directory it must never make. */
static int run_server(const char *args, char *out, size_t len)
{
    char all[512];
    snprintf(all, sizeof all, "--data-dir /tmp/rogued-never-made %s", args);
    return srv_run_once("", all, out, len);
}

START_TEST(unknown_ruleset_refuses_to_start)
{
    char out[4096];
    static const char valid[] = "(valid: power, attack-defense, d10, dice-pool)";
    /* A flag... */
    ck_assert_int_eq(run_server("--config /dev/null --combat chess", out, sizeof out), 2);
    ck_assert_msg(strstr(out, "unknown ruleset 'chess'") && strstr(out, valid),
                  "said: %s", out);
    ck_assert_ptr_null(strstr(out, "listening"));
    /* ...and a config file, which is named with its line. */
    char conf[] = "/tmp/rogued-combat-XXXXXX", args[128];
    int fd = mkstemp(conf);
    ck_assert_int_ge(fd, 0);
    static const char text[] = "port = 0\ncombat = Power\n";
    ck_assert_int_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    snprintf(args, sizeof args, "--config %s", conf);
    int rc = run_server(args, out, sizeof out);
    unlink(conf);
    ck_assert_int_eq(rc, 2);
    char where[64];
    snprintf(where, sizeof where, "%s:2: combat: unknown ruleset 'Power'", conf);
    ck_assert_msg(strstr(out, where) && strstr(out, valid), "said: %s", out);
    ck_assert_int_ne(access("/tmp/rogued-never-made", F_OK), 0);
}
END_TEST

/* A death while the store is known to be failing says, under YOU DIED,
 * that the game may be lost: the player would take it for recorded.
 * Here an account's game cannot begin (every write of a game in progress
 * refused by a trigger), which the store counts as a failed batch. */
START_TEST(a_death_while_writes_fail_says_it_may_be_lost)
{
    plan_t pl;
    tsrv_t *s;
    plan_death_setup(&pl, &s, NULL, NULL, NULL);
    char dir[256], path[300];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/rogued.db", dir);
    tclient_t *a = play_register(srv_port(s), "dave");
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, CL_WAIT_MS);
    ck_assert_int_eq(sqlite3_exec(db, "CREATE TRIGGER no_progress BEFORE "
                                  "INSERT ON progress BEGIN SELECT "
                                  "RAISE(ROLLBACK, 'full'); END", NULL, NULL,
                                  NULL), SQLITE_OK);
    sqlite3_close(db);
    ck_assert(cl_key(a, "p"));
    if (!cl_wait_text(a, "The server cannot save your game right now.",
                      CL_WAIT_MS * 4))
        play_fail(a, "the player was not told");

    const char *lost = "The server cannot record games right now: this one "
                       "may be lost.";
    tclient_t *c = play_connect(srv_port(s), NULL);
    for (int i = 0; i < pl.n; i++) {
        ck_assert(!cl_screen_has(c, lost));
        char key[2] = { pl.keys[i], 0 };
        if (!cl_key(c, key))
            play_fail(c, "no answer to key %d ('%c')", i + 1, key[0]);
    }
    ck_assert(cl_screen_has(c, "YOU DIED"));
    ck_assert(cl_screen_has(c, lost));
    cl_close(c);
    cl_close(a);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("combat");
    TCase *tc = tcase_create("combat");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, fight_to_death_then_new_game_then_goodbye);
    tcase_add_test(tc, q_on_the_death_screen_returns_to_the_lobby);
    tcase_add_test(tc, the_page_is_told_the_game_is_over);
    tcase_add_test(tc, a_death_while_writes_fail_says_it_may_be_lost);
    tcase_add_test(tc, config_power);
    tcase_add_test(tc, config_attack_defense);
    tcase_add_test(tc, config_d10);
    tcase_add_test(tc, config_dice_pool);
    tcase_add_test(tc, combat_flag);
    tcase_add_test(tc, unknown_ruleset_refuses_to_start);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
