/* test_items.c - items, targeting and stairs against the real server: a
 * potion picked up and drunk (the HP on the status line goes up), a
 * fireball aimed and cancelled with Esc (the scroll stays in the pack) and
 * then cast with an SGR mouse click, xterm mouse reporting on only while
 * aiming (and off again on disconnect), and the stairs down to depth 2.
 *
 * As in test_combat.c, the game core is linked into this test: it plays a
 * seed in-process first (a small bot that walks to what it needs, bumping
 * into whatever monster is in the way), searches the seeds from 1 for the
 * first whose game shows what the test needs, then starts the server with
 * that --seed, sends the same keys and checks after every key that the
 * client's screen is, row for row, the screen of its own copy of the game. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "check_main.h"
#include "client.h"
#include "game.h"
#include "keys.h"
#include "palette.h"
#include "play.h"
#include "view.h"
#include "walker.h"

#define RIGHT_CLICK WALK_RIGHT_CLICK

static const char MOUSE_ON[] = "\x1b[?1000h\x1b[?1006h";
static const char MOUSE_OFF[] = "\x1b[?1000l\x1b[?1006l";

typedef struct plan {
    uint64_t seed;
    walk_keys_t k;      /* the keys pressed */
    int mark[8];        /* key indices the test looks at (plan-specific) */
} plan_t;

/* Fights: next to a monster it attacks; else it walks towards the nearest
 * living one. Until the first kill. Returns 1 if alive after it. */
static int fight_one(plan_t *pl, game_t *g)
{
    while (!game_dead(g) && g->kills == 0) {
        const player_t *p = &g->player;
        int key = 0;
        for (int dy = -1; dy <= 1 && !key; dy++)
            for (int dx = -1; dx <= 1 && !key; dx++)
                if ((dx || dy) && game_monster_at(g, p->x + dx, p->y + dy) >= 0)
                    key = walk_dir_key(dx, dy);
        if (!key) {
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
                return 0;
            ai_distance_map(&g->map, g->monsters[best].x, g->monsters[best].y,
                            &d);
            int nx, ny;
            key = ai_step_down(&g->map, &d, NULL, p->x, p->y, &nx, &ny)
                      ? walk_dir_key(nx - p->x, ny - p->y) : '.';
        }
        if (!walk_push(&pl->k, g, key))
            return 0;
    }
    return !game_dead(g);
}

/* Potion: walk to the nearest potion, pick it up, fight until the first
 * kill, and (hurt, nothing in view) drink it: +4 HP. mark[0]: the 'a' that
 * drinks; mark[1]: the HP before it; mark[2]: the keys up to the 'g'. */
static int plan_potion(uint64_t seed, plan_t *pl)
{
    game_t *g = game_new(seed, NULL);
    int tx, ty, ok = 0;
    pl->seed = seed;
    pl->k.n = 0;
    if (walk_nearest_item(g, IK_HEALTH_POTION, 25, &tx, &ty) && walk_to(&pl->k, g, tx, ty) &&
        (pl->mark[2] = pl->k.n + 1) && walk_push(&pl->k, g, 'g') && g->pack_count == 1 &&
        fight_one(pl, g) &&
        g->player.hp <= g->player.max_hp - 4 && !game_monster_in_view(g)) {
        int before = g->player.hp;
        walk_push(&pl->k, g, 'i');
        pl->mark[0] = pl->k.n;
        pl->mark[1] = before;
        walk_push(&pl->k, g, 'a');
        ok = g->player.hp == before + 4 && g->pack_count == 0 && pl->k.n < 200;
    }
    game_free(g);
    return ok;
}

/* Fireball: walk to the nearest fireball scroll and pick it up (the only
 * thing in the pack); read it and cancel with Esc (mark[0]: the 'a' that
 * starts aiming, mark[1]: the Esc); the pack menu and Esc; read it and
 * cancel with a right click (mark[2]); read it and click a tile in view 4
 * or more away (mark[3]: the click). */
static int plan_fireball(uint64_t seed, plan_t *pl)
{
    game_t *g = game_new(seed, NULL);
    int tx, ty, ok = 0;
    pl->seed = seed;
    pl->k.n = 0;
    if (walk_nearest_item(g, IK_FIREBALL, 40, &tx, &ty) && walk_to(&pl->k, g, tx, ty) &&
        walk_push(&pl->k, g, 'g') && g->pack_count == 1) {
        walk_push(&pl->k, g, 'i');
        pl->mark[0] = pl->k.n;
        walk_push(&pl->k, g, 'a');
        pl->mark[1] = pl->k.n;
        walk_push(&pl->k, g, KEY_ESC);
        walk_push(&pl->k, g, 'i');
        walk_push(&pl->k, g, KEY_ESC);
        walk_push(&pl->k, g, 'i');
        walk_push(&pl->k, g, 'a');
        pl->mark[2] = pl->k.n;
        walk_push(&pl->k, g, RIGHT_CLICK);
        walk_push(&pl->k, g, 'i');
        walk_push(&pl->k, g, 'a');
        if (game_targeting(g) && g->pack_count == 1 && walk_far_tile(g, &tx, &ty)) {
            pl->mark[3] = pl->k.n;
            walk_push(&pl->k, g, game_click_key(tx, ty));
            ok = !game_dead(g) && g->pack_count == 0 && !game_targeting(g) &&
                 pl->k.n < 300;
        }
    }
    game_free(g);
    return ok;
}

/* Stairs: walk to the stairs down and take them. */
static int plan_stairs(uint64_t seed, plan_t *pl)
{
    game_t *g = game_new(seed, NULL);
    int ok = 0;
    pl->seed = seed;
    pl->k.n = 0;
    int sx = -1, sy = -1;
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            if (g->map.tile[y][x] == TILE_STAIRS) {
                sx = x;
                sy = y;
            }
    if (walk_to(&pl->k, g, sx, sy)) {
        walk_push(&pl->k, g, '>');
        ok = g->depth == 2 && !game_dead(g) && pl->k.n < 150;
    }
    game_free(g);
    return ok;
}

static void find_plan(int (*fn)(uint64_t, plan_t *), plan_t *pl)
{
    for (uint64_t seed = 1; seed <= 2000; seed++)
        if (fn(seed, pl))
            return;
    ck_abort_msg("no seed in 1..2000 gives the game this test needs");
}


/* Sends one plan key as a terminal sends it and waits for its answer. */
static void send_key(tclient_t *c, int key, int key_no)
{
    char bytes[48];
    int x, y;
    if (key == KEY_ESC)
        snprintf(bytes, sizeof bytes, "\x1b");
    else if (key == RIGHT_CLICK)
        snprintf(bytes, sizeof bytes, "\x1b[<2;1;1M\x1b[<2;1;1m");
    else if (game_click_tile(key, &x, &y)) /* SGR 1006: 1-based, press+release */
        snprintf(bytes, sizeof bytes, "\x1b[<0;%d;%dM\x1b[<0;%d;%dm", x + 1,
                 y + 1, x + 1, y + 1);
    else
        snprintf(bytes, sizeof bytes, "%c", key);
    if (!cl_key(c, bytes))
        play_fail(c, "no answer to key %d (%d)", key_no, key);
}

/* Plays keys [from, to) of the plan, checking the screen after each. */
static void play_keys(tclient_t *c, game_t *g, const plan_t *pl, int from,
                      int to)
{
    for (int i = from; i < to; i++) {
        send_key(c, pl->k.keys[i], i + 1);
        walk_feed(g, pl->k.keys[i]);
        play_expect_rows(c, g, 0, cl_h(c) - 1, 0, i + 1);
    }
}

static tsrv_t *start_with_seed(uint64_t seed)
{
    char arg[32];
    snprintf(arg, sizeof arg, "%llu", (unsigned long long)seed);
    return srv_start("--seed", arg, NULL);
}

START_TEST(potion_picked_up_and_drunk)
{
    plan_t pl;
    find_plan(plan_potion, &pl);
    tsrv_t *s = start_with_seed(pl.seed);
    tclient_t *c = play_connect(srv_port(s), NULL);
    game_t *g = game_new(pl.seed, NULL);
    play_expect_rows(c, g, 0, cl_h(c) - 1, 0, 0);
    play_keys(c, g, &pl, 0, pl.mark[2]);
    /* Unknown until drunk: it goes by this game's appearance (know.c). */
    char name[64], want[96];
    snprintf(want, sizeof want, "You pick up %s (a).",
             item_a_name(g, IK_HEALTH_POTION, name, sizeof name));
    ck_assert(cl_screen_has(c, want));
    play_keys(c, g, &pl, pl.mark[2], pl.mark[0]);
    /* The pack menu lists it. */
    ck_assert(cl_screen_has(c, "Inventory: press a letter to use, wield or wear it"));
    snprintf(want, sizeof want, "a) ! %s",
             item_name(g, IK_HEALTH_POTION, 1, name, sizeof name));
    ck_assert(cl_screen_has(c, want));
    char hp[32];
    snprintf(hp, sizeof hp, "HP: %d/30", pl.mark[1]);
    ck_assert(cl_screen_has(c, hp));
    play_keys(c, g, &pl, pl.mark[0], pl.k.n);
    snprintf(hp, sizeof hp, "HP: %d/30", pl.mark[1] + 4);
    if (!cl_screen_has(c, hp))
        play_fail(c, "the status line does not say %s", hp);
    ck_assert(cl_screen_has(c, "You drink the health potion and heal 4 HP."));
    ck_assert_int_eq(g->pack_count, 0);
    game_free(g);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* The row and column where text first shows on c's screen: 1, or 0. */
static int find_on_screen(tclient_t *c, const char *text, int *x, int *y)
{
    char row[256];
    for (*y = 0; *y < cl_h(c); (*y)++) {
        const char *r = cl_row(c, *y, row, sizeof row), *at = strstr(r, text);
        if (at) {
            *x = (int)(at - r);
            return 1;
        }
    }
    return 0;
}

/* A left press and release at 0-based cell (x, y), as SGR 1006 sends it. */
static void click_at(tclient_t *c, int x, int y, int wait_answer)
{
    char click[64];
    snprintf(click, sizeof click, "\x1b[<0;%d;%dM\x1b[<0;%d;%dm", x + 1, y + 1,
             x + 1, y + 1);
    if (wait_answer ? !cl_key(c, click) : cl_send_str(c, click) != 0)
        play_fail(c, "no answer to a click at (%d, %d)", x, y);
}

/* A left click on a pack entry is its letter (a phone's key bar has no
 * letters: a play-test found its items out of reach without the device's
 * keyboard): the potion's plan with its last key, 'a' in the inventory,
 * sent as a click on the entry's name, the screen then exactly the game's
 * after 'a'; a click on the menu's title first does nothing. */
START_TEST(potion_drunk_with_a_click_on_its_entry)
{
    plan_t pl;
    find_plan(plan_potion, &pl);
    ck_assert_int_eq(pl.k.n, pl.mark[0] + 1);
    ck_assert_int_eq(pl.k.keys[pl.mark[0]], 'a');
    tsrv_t *s = start_with_seed(pl.seed);
    tclient_t *c = play_connect(srv_port(s), NULL);
    game_t *g = game_new(pl.seed, NULL);
    play_keys(c, g, &pl, 0, pl.mark[0]);
    int ex, ey, tx, ty;
    ck_assert_msg(find_on_screen(c, "a) ! ", &ex, &ey) &&
                  find_on_screen(c, "Inventory: press a letter", &tx, &ty),
                  "no inventory on screen:\n%s", cl_dump(c));
    click_at(c, tx + 4, ty, 0);
    click_at(c, ex + 8, ey, 1);
    walk_feed(g, 'a');
    play_expect_rows(c, g, 0, cl_h(c) - 1, 0, pl.k.n);
    ck_assert(cl_screen_has(c, "You drink the health potion and heal 4 HP."));
    ck_assert_int_eq(g->pack_count, 0);
    game_free(g);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* In the browser's terminal the mouse stays reported while a pack menu is
 * open (it was turned off there, so a desktop's click on an entry was the
 * browser's own), and the click on the entry uses it: the potion's plan
 * over the page's protocol, each key's frame waited for. */
START_TEST(the_browser_reports_clicks_in_the_pack)
{
    plan_t pl;
    find_plan(plan_potion, &pl);
    char seed[32], port_set[32];
    int http = cl_free_port();
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)pl.seed);
    snprintf(port_set, sizeof port_set, "http_port=%d", http);
    tsrv_t *s = srv_start("--seed", seed, "--set", port_set, "--set",
                          "max_keys_per_second=100000", NULL);
    cl_opts_t o = { .web = 1 };
    tclient_t *c = cl_connect(http, &o);
    play_ready(c);
    ck_assert(cl_stream_has(c, MOUSE_ON));
    for (int i = 0; i < pl.mark[0]; i++) {
        char key[2] = { (char)pl.k.keys[i], 0 };
        ck_assert_msg(pl.k.keys[i] > 0 && pl.k.keys[i] < 128, "key %d", i);
        ck_assert_int_eq(cl_send_str(c, key), 0);
        if (!cl_wait_frame(c, CL_WAIT_MS))
            play_fail(c, "no frame for key %d", i + 1);
    }
    play_wait_text(c, "Inventory: press a letter");
    int ex, ey;
    ck_assert(find_on_screen(c, "a) ! ", &ex, &ey));
    click_at(c, ex + 8, ey, 0);
    play_wait_text(c, "You drink the health potion and heal 4 HP.");
    ck_assert_int_eq(cl_stream_count(c, MOUSE_ON), 1);
    ck_assert(!cl_stream_has(c, MOUSE_OFF));
    cl_close(c);
    srv_stop(s);
}
END_TEST

START_TEST(fireball_cancelled_then_cast_with_a_click)
{
    plan_t pl;
    find_plan(plan_fireball, &pl);
    tsrv_t *s = start_with_seed(pl.seed);
    tclient_t *c = play_connect(srv_port(s), NULL);
    game_t *g = game_new(pl.seed, NULL);
    play_keys(c, g, &pl, 0, pl.mark[0]);
    char name[64], want[96];
    snprintf(want, sizeof want, "You pick up %s (a).",
             item_a_name(g, IK_FIREBALL, name, sizeof name));
    ck_assert(cl_screen_has(c, want));
    ck_assert(!cl_stream_has(c, MOUSE_ON));

    /* Aiming: mouse reporting on, the cursor and the tiles in range. The
     * scroll is not known yet, and aiming does not tell it (game version
     * 9): it goes by its label, anywhere in view, with no blast shown. */
    char label[64];
    item_unknown_name(g, IK_FIREBALL, label, sizeof label);
    play_keys(c, g, &pl, pl.mark[0], pl.mark[0] + 1);
    ck_assert(game_targeting(g));
    snprintf(want, sizeof want, "Aim the scroll %s: move the cursor; Enter",
             label + strlen("scroll labelled "));
    ck_assert(cl_screen_has(c, want));
    ck_assert(cl_stream_has(c, MOUSE_ON));
    ck_assert(!cl_stream_has(c, MOUSE_OFF));
    cl_cell_t cell;
    ck_assert_int_eq(cl_cell(c, g->target.x, g->target.y, &cell), 0);
    ck_assert(cell.reverse);
    int lit = 0;
    /* The ground a scroll may be aimed at, in the palette's tone: the
     * client says XTERM-256COLOR (its 16-colour fallback is blue); no
     * red blast around the cursor, which would tell a fireball. */
    int ground = palette_colour(COL_TARGET_GROUND)->xterm;
    /* The map's last row (border wall) is the log's first. */
    for (int y = 0; y < MAP_H - 1; y++)
        for (int x = 0; x < MAP_W; x++) {
            cl_cell(c, x, y, &cell);
            ck_assert_int_ne(cell.bg, COL_RED);
            ck_assert_int_eq(cell.bg == ground, target_allowed(g, x, y));
            lit += cell.bg == ground;
        }
    ck_assert_int_gt(lit, 10);

    /* Esc: no turn, the scroll stays (unknown), mouse reporting off. */
    int turn = cl_turn(c);
    play_keys(c, g, &pl, pl.mark[0] + 1, pl.mark[1] + 1);
    snprintf(want, sizeof want, "You put the %s away.", label);
    ck_assert(cl_screen_has(c, want));
    ck_assert(cl_stream_has(c, MOUSE_OFF));
    ck_assert_int_eq(cl_turn(c), turn);
    play_keys(c, g, &pl, pl.mark[1] + 1, pl.mark[1] + 2); /* i */
    snprintf(want, sizeof want, "a) ? %s", label);
    ck_assert(cl_screen_has(c, want));

    /* A right click cancels too; then a left click casts it there. */
    play_keys(c, g, &pl, pl.mark[1] + 2, pl.mark[2] + 1);
    ck_assert(!game_targeting(g));
    ck_assert_int_eq(g->pack_count, 1);
    ck_assert_int_eq(cl_turn(c), turn);
    play_keys(c, g, &pl, pl.mark[2] + 1, pl.k.n);
    ck_assert(cl_screen_has(c, "The fireball explodes, burning everything "
                               "within 3 tiles!"));
    ck_assert_int_eq(cl_turn(c), turn + 1);
    ck_assert_int_eq(g->pack_count, 0);
    ck_assert(cl_key(c, "i"));
    ck_assert(cl_screen_has(c, "Your pack is empty."));
    /* A click outside aiming travels (docs/game.md, "Travel"): on the
     * map's corner, never seen, there is no way: a line, no turn. */
    ck_assert_int_eq(cl_send_str(c, "\x1b[<0;5;5M\x1b[<0;5;5m"), 0);
    play_wait_text(c, "You know no way there.");
    ck_assert(cl_key(c, "z")); /* an unknown key: its answer comes alone */
    ck_assert(cl_screen_has(c, "Unknown key 'z'."));
    ck_assert_int_eq(cl_turn(c), turn + 1);
    game_free(g);
    cl_close(c);
    srv_stop(s);
}
END_TEST

START_TEST(mouse_off_on_disconnect)
{
    plan_t pl;
    find_plan(plan_fireball, &pl);
    tsrv_t *s = start_with_seed(pl.seed);
    tclient_t *c = play_connect(srv_port(s), NULL);
    game_t *g = game_new(pl.seed, NULL);
    play_keys(c, g, &pl, 0, pl.mark[0] + 1);
    ck_assert(game_targeting(g));
    ck_assert(cl_stream_has(c, MOUSE_ON));
    ck_assert(!cl_stream_has(c, MOUSE_OFF));
    srv_signal(s, SIGTERM);
    if (!cl_wait_eof(c, CL_WAIT_MS))
        play_fail(c, "the server did not close the connection");
    ck_assert(cl_stream_has(c, MOUSE_OFF));
    game_free(g);
    cl_close(c);
    srv_stop(s);
}
END_TEST

START_TEST(stairs_down_to_depth_2)
{
    plan_t pl;
    find_plan(plan_stairs, &pl);
    tsrv_t *s = start_with_seed(pl.seed);
    tclient_t *c = play_connect(srv_port(s), NULL);
    game_t *g = game_new(pl.seed, NULL);
    ck_assert(cl_screen_has(c, "Depth:1"));
    play_keys(c, g, &pl, 0, pl.k.n - 1);
    int x, y;
    ck_assert_int_eq(cl_find(c, '@', &x, &y), 1);
    ck_assert_int_eq(g->map.tile[y][x], TILE_STAIRS);
    play_keys(c, g, &pl, pl.k.n - 1, pl.k.n);
    if (!cl_screen_has(c, "Depth:2"))
        play_fail(c, "the status line does not say Depth:2");
    ck_assert(cl_screen_has(c, "You descend the stairs to depth 2."));
    /* A new level: the '@' in the centre of its first room. */
    int cx, cy;
    rect_center(&g->map.rooms[0], &cx, &cy);
    ck_assert_int_eq(cl_find(c, '@', &x, &y), 1);
    ck_assert_int_eq(x, cx);
    ck_assert_int_eq(y, cy);
    game_free(g);
    cl_close(c);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("items");
    TCase *tc = tcase_create("items");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, potion_picked_up_and_drunk);
    tcase_add_test(tc, potion_drunk_with_a_click_on_its_entry);
    tcase_add_test(tc, the_browser_reports_clicks_in_the_pack);
    tcase_add_test(tc, fireball_cancelled_then_cast_with_a_click);
    tcase_add_test(tc, mouse_off_on_disconnect);
    tcase_add_test(tc, stairs_down_to_depth_2);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
