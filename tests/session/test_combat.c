/* test_combat.c - fights against the real server: the hit lines in the log,
 * the HP colour going green -> yellow -> red, the YOU DIED screen and its
 * keys (r: a new game, Esc: goodbye), each `combat =` ruleset playing a
 * fight, and an unknown ruleset refusing to start.
 *
 * How a fight is scripted: the game core is deterministic and linked into
 * this test too, so the test plays the same seed in-process first (a small
 * bot: walk to the nearest monster, then fight it or stand still), keeps
 * the keys, and searches the seeds from 1 for the first one whose game
 * shows what the test needs. Then it starts the server with that fixed
 * --seed, sends the same keys, and after every key checks that the
 * client's screen is, row for row, the screen of its own copy of the game.
 * No cheat keys, and nothing breaks when the content table is tuned. */
#include <check.h>
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
#include "play.h"
#include "view.h"

#define MAX_KEYS 400

typedef struct plan {
    uint64_t seed;
    int ruleset;
    int n;                /* keys */
    char keys[MAX_KEYS];
} plan_t;

enum bot_mode {
    BOT_FIGHT,  /* attack the monster next to it */
    BOT_STAND   /* once a monster is next to it, only wait ('.') */
};

static char dir_key(int dx, int dy)
{
    static const char keys[3][3] = { { 'y', 'k', 'u' }, { 'h', '.', 'l' },
                                     { 'b', 'j', 'n' } };
    return keys[dy + 1][dx + 1];
}

/* The bot's next key: next to a monster, fight (or stand); else walk the
 * shortest path to the nearest living monster. */
static char bot_key(const game_t *g, int mode)
{
    const player_t *p = &g->player;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && game_monster_at(g, p->x + dx, p->y + dy) >= 0)
                return mode == BOT_FIGHT ? dir_key(dx, dy) : '.';
    dmap_t d;
    ai_distance_map(&g->map, p->x, p->y, &d);
    int best = -1, best_d = DMAP_FAR;
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *m = &g->monsters[i];
        if (m->alive && d.v[m->y][m->x] < best_d) {
            best_d = d.v[m->y][m->x];
            best = i;
        }
    }
    if (best < 0)
        return '.';
    ai_distance_map(&g->map, g->monsters[best].x, g->monsters[best].y, &d);
    int nx, ny;
    if (!ai_step_down(&g->map, &d, NULL, p->x, p->y, &nx, &ny))
        return '.';
    return dir_key(nx - p->x, ny - p->y);
}

static int hp_band(const player_t *p) /* 2 green, 1 yellow, 0 red (004) */
{
    return p->hp * 10 > p->max_hp * 6 ? 2 : p->hp * 10 > p->max_hp * 3 ? 1 : 0;
}

/* A death plan: the bot walks to a monster and stands still until it
 * dies; the HP passes through yellow and red on the way. */
static int plan_death(uint64_t seed, int ruleset, plan_t *pl)
{
    game_options_t o = { .ruleset = ruleset };
    game_t *g = game_new(seed, &o);
    int yellow = 0, red = 0;
    pl->seed = seed;
    pl->ruleset = ruleset;
    pl->n = 0;
    while (pl->n < MAX_KEYS && !game_dead(g)) {
        pl->keys[pl->n] = bot_key(g, BOT_STAND);
        game_key(g, pl->keys[pl->n++]);
        int band = hp_band(&g->player);
        yellow |= band == 1 && !red;
        red |= band == 0 && yellow;
    }
    int ok = game_dead(g) && yellow && red && pl->n < 200;
    game_free(g);
    return ok;
}

/* A fight plan: the bot walks to a monster and fights until the first
 * kill, and lives. */
static int plan_fight(uint64_t seed, int ruleset, plan_t *pl)
{
    game_options_t o = { .ruleset = ruleset };
    game_t *g = game_new(seed, &o);
    pl->seed = seed;
    pl->ruleset = ruleset;
    pl->n = 0;
    while (pl->n < 150 && !game_dead(g) && g->kills == 0) {
        pl->keys[pl->n] = bot_key(g, BOT_FIGHT);
        game_key(g, pl->keys[pl->n++]);
    }
    int ok = g->kills == 1 && !game_dead(g);
    game_free(g);
    return ok;
}

static void find_plan(int (*fn)(uint64_t, int, plan_t *), int ruleset,
                      plan_t *pl)
{
    for (uint64_t seed = 1; seed <= 2000; seed++)
        if (fn(seed, ruleset, pl))
            return;
    ck_abort_msg("no seed in 1..2000 gives the fight this test needs");
}

/* Row y of a screen as cl_row gives it: ASCII, trailing blanks removed. */
static void screen_row(const screen_t *s, int y, char *buf, size_t len)
{
    size_t n = 0;
    for (int x = 0; x < s->w && n + 1 < len; x++) {
        uint32_t ch = screen_cat(s, x, y)->ch;
        buf[n++] = ch < 128 ? (char)ch : '?';
    }
    while (n > 0 && buf[n - 1] == ' ')
        n--;
    buf[n] = '\0';
}

/* The client's screen is the game's own screen, row for row; and the HP
 * on the status line has its colour (bright green, yellow or red). */
static void expect_screen(const tclient_t *c, const game_t *g, int key_no)
{
    screen_t s;
    int h = cl_h(c);
    screen_init(&s, cl_w(c), h);
    view_draw(g, &s);
    for (int y = 0; y < h; y++) {
        char want[128], got[256];
        screen_row(&s, y, want, sizeof want);
        cl_row(c, y, got, sizeof got);
        if (strcmp(want, got) != 0) {
            screen_free(&s);
            play_fail(c, "after key %d, row %d is \"%s\", not \"%s\"", key_no, y,
                      got, want);
        }
    }
    if (!game_dead(g) && g->mode == MODE_PLAY) {
        cl_cell_t cell;
        cl_cell(c, 0, h - 1, &cell);
        ck_assert_int_eq(cell.fg, screen_cat(&s, 0, h - 1)->fg);
    }
    screen_free(&s);
}

/* Sends the plan's keys, checking the screen after each. Returns the
 * test's copy of the game after the last key. */
static game_t *play_plan(tclient_t *c, const plan_t *pl)
{
    game_options_t o = { .ruleset = pl->ruleset };
    game_t *g = game_new(pl->seed, &o);
    expect_screen(c, g, 0);
    for (int i = 0; i < pl->n; i++) {
        char key[2] = { pl->keys[i], 0 };
        if (!cl_key(c, key))
            play_fail(c, "no answer to key %d ('%c')", i + 1, key[0]);
        game_key(g, key[0]);
        expect_screen(c, g, i + 1);
    }
    return g;
}

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
    find_plan(plan_death, RULES_ATTACK_DEFENSE, &pl);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)pl.seed);
    tsrv_t *s = srv_start("--seed", seed, NULL);
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
            /* 004: green above 60%, yellow above 30%, red at or below. */
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
    snprintf(want, sizeof want, "new game id=1 seed=%s", seed);
    ck_assert(srv_wait_log(s, want, CL_WAIT_MS));
    game_free(g);

    /* The same keys die the same death; then Esc says goodbye and closes. */
    g = play_plan(c, &pl);
    ck_assert(game_dead(g));
    ck_assert(cl_screen_has(c, "YOU DIED"));
    game_free(g);
    ck_assert_int_eq(cl_send_str(c, "\x1b"), 0);
    if (!cl_wait_eof(c, CL_WAIT_MS))
        play_fail(c, "Esc on the death screen did not close the connection");
    ck_assert(cl_stream_has(c, "Goodbye"));
    ck_assert(srv_wait_log(s, "reason=\"quit\"", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "game over id=1"), 2);
    cl_close(c);
    srv_stop(s);
}
END_TEST

START_TEST(q_on_the_death_screen_leaves)
{
    plan_t pl;
    find_plan(plan_death, RULES_ATTACK_DEFENSE, &pl);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)pl.seed);
    tsrv_t *s = srv_start("--seed", seed, NULL);
    tclient_t *c = play_connect(srv_port(s), NULL);
    game_t *g = play_plan(c, &pl);
    ck_assert(game_dead(g));
    game_free(g);
    ck_assert_int_eq(cl_send_str(c, "q"), 0);
    if (!cl_wait_eof(c, CL_WAIT_MS))
        play_fail(c, "q on the death screen did not close the connection");
    ck_assert(cl_stream_has(c, "Thanks for playing. Goodbye!"));
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* The shape of each ruleset's lines (GAME.md), as the player sees them. */
static const struct {
    const char *name;
    const char *shape; /* in a line of the player's blows */
} rulesets[RULES_COUNT] = {
    [RULES_POWER] = { "power", " hp)" },
    [RULES_ATTACK_DEFENSE] = { "attack-defense", "You hit the " },
    [RULES_D10] = { "d10", "You swing your fist at the " },
    [RULES_DICE_POOL] = { "dice-pool", " and roll: " },
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
static int run_server(const char *args, char *out, size_t len)
{
    const char *bin = getenv("ROGUED_BIN");
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "%s --port 0 --bind 127.0.0.1 --data-dir /tmp/rogued-never-made "
             "%s 2>&1 </dev/null",
             bin ? bin : "build/san/rogued", args);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
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

static Suite *make_suite(void)
{
    Suite *s = suite_create("combat");
    TCase *tc = tcase_create("combat");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, fight_to_death_then_new_game_then_goodbye);
    tcase_add_test(tc, q_on_the_death_screen_leaves);
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
