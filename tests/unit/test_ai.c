/* test_ai.c - monster movement: the Dijkstra chase round a pillar (where
 * a greedy step gets stuck), fleeing, wandering, the decision table. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "check_main.h"
#include "map.h"
#include "rng.h"

/* An all-wall map with one open rectangle (x0..x1, y0..y1 inclusive). */
static void open_map(map_t *m, int x0, int y0, int x1, int y1)
{
    memset(m, 0, sizeof *m);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            m->tile[y][x] = TILE_FLOOR;
    m->rooms[0] = (rect_t){ x0, y0, x1 - x0 + 1, y1 - y0 + 1 };
    m->nrooms = 1;
}

static int sgn(int v)
{
    return (v > 0) - (v < 0);
}

/* A greedy chase, for comparison: step along the longer axis, else try
 * the other one; four directions. Returns 1 if it moved. */
static int greedy_step(const map_t *m, int *x, int *y, int px, int py)
{
    int ddx = px - *x, ddy = py - *y;
    int sx = abs(ddx) >= abs(ddy) ? sgn(ddx) : 0;
    int sy = sx == 0 ? sgn(ddy) : 0;
    int tries[2][2] = { { sx, sy }, { sgn(ddx) - sx, sgn(ddy) - sy } };
    for (int i = 0; i < 2; i++) {
        int dx = tries[i][0], dy = tries[i][1];
        if ((dx || dy) && map_walkable(m, *x + dx, *y + dy) &&
            !(*x + dx == px && *y + dy == py)) {
            *x += dx;
            *y += dy;
            return 1;
        }
    }
    return 0;
}

static int chebyshev(int ax, int ay, int bx, int by)
{
    int dx = abs(ax - bx), dy = abs(ay - by);
    return dx > dy ? dx : dy;
}

START_TEST(distance_map_is_steps_in_8_directions)
{
    map_t m;
    dmap_t d;
    open_map(&m, 1, 1, 30, 15);
    ai_distance_map(&m, 10, 8, &d);
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++) {
            if (map_walkable(&m, x, y))
                ck_assert_int_eq(d.v[y][x], chebyshev(x, y, 10, 8));
            else
                ck_assert_int_eq(d.v[y][x], DMAP_FAR);
        }
}
END_TEST

START_TEST(chase_goes_round_a_pillar_where_greedy_sticks)
{
    /* A pillar (a wall 13 tiles tall, open above and below) between the
     * monster and the player, on one row: the greedy step walks into it
     * and stays there. */
    map_t m;
    open_map(&m, 1, 1, 30, 15);
    for (int y = 2; y <= 14; y++)
        m.tile[y][15] = TILE_WALL;
    const int px = 20, py = 8;
    int gx = 8, gy = 8;
    for (int turn = 0; turn < 100; turn++)
        greedy_step(&m, &gx, &gy, px, py);
    ck_assert_int_eq(gx, 14); /* stuck against the pillar */
    ck_assert_int_eq(gy, 8);
    ck_assert(!ai_adjacent(gx, gy, px, py));

    /* The Dijkstra map (from the player) goes round it, one step closer
     * every turn, and arrives in exactly the shortest-path length. */
    dmap_t d;
    ai_distance_map(&m, px, py, &d);
    uint8_t occ[MAP_H][MAP_W];
    memset(occ, 0, sizeof occ);
    occ[py][px] = 1;
    int x = 8, y = 8, turns = 0, start = d.v[y][x];
    ck_assert_int_gt(start, chebyshev(x, y, px, py)); /* a detour */
    while (!ai_adjacent(x, y, px, py)) {
        int nx, ny;
        ck_assert(ai_step_down(&m, &d, occ, x, y, &nx, &ny));
        ck_assert(map_walkable(&m, nx, ny));
        ck_assert_int_eq(d.v[ny][nx], d.v[y][x] - 1);
        x = nx;
        y = ny;
        ck_assert_int_lt(++turns, 100);
    }
    ck_assert_int_eq(turns, start - 1);
}
END_TEST

START_TEST(chase_steps_round_a_blocked_tile)
{
    /* A monster on the best tile: the next best free one is taken. */
    map_t m;
    dmap_t d;
    open_map(&m, 1, 1, 30, 15);
    ai_distance_map(&m, 20, 8, &d);
    uint8_t occ[MAP_H][MAP_W];
    memset(occ, 0, sizeof occ);
    occ[8][11] = 1;
    int nx, ny;
    ck_assert(ai_step_down(&m, &d, occ, 10, 8, &nx, &ny));
    ck_assert_int_eq(nx, 11);
    ck_assert(ny == 7 || ny == 9);
    /* Boxed in: no step. */
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            occ[8 + dy][10 + dx] = 1;
    ck_assert(!ai_step_down(&m, &d, occ, 10, 8, &nx, &ny));
}
END_TEST

START_TEST(fleeing_increases_distance)
{
    map_t m;
    dmap_t d, f;
    open_map(&m, 1, 1, 40, 18);
    const int px = 20, py = 9;
    ai_distance_map(&m, px, py, &d);
    ai_flee_map(&m, &d, &f);
    uint8_t occ[MAP_H][MAP_W];
    memset(occ, 0, sizeof occ);
    occ[py][px] = 1;
    /* From every tile near the player, no flee step comes closer, four
     * steps are at least two tiles farther, and the flight ends far away in
     * a corner. */
    for (int sy = py - 2; sy <= py + 2; sy++)
        for (int sx = px - 2; sx <= px + 2; sx++) {
            if (sx == px && sy == py)
                continue;
            int x = sx, y = sy, steps = 0, nx, ny, before = d.v[y][x];
            while (ai_step_down(&m, &f, occ, x, y, &nx, &ny)) {
                ck_assert_int_ge(d.v[ny][nx], d.v[y][x]);
                x = nx;
                y = ny;
                if (++steps % 4 == 0) {
                    ck_assert_int_ge(d.v[y][x], before + 2);
                    before = d.v[y][x];
                }
                ck_assert_int_lt(steps, 200);
            }
            ck_assert_int_ge(steps, 15);
            ck_assert_int_ge(d.v[y][x], 17);
        }
}
END_TEST

START_TEST(fleeing_leaves_a_dead_end)
{
    /* A room with a dead-end alcove in its top wall; the monster stands
     * below the alcove's mouth, the player to its left. Stepping to the
     * farthest neighbour (the plain inverted map) walks into the alcove, a
     * trap 4 tiles deep; the rescanned flee map heads for the far end of
     * the room instead. */
    map_t m;
    open_map(&m, 1, 5, 30, 12);
    for (int y = 1; y <= 4; y++)
        m.tile[y][12] = TILE_FLOOR;
    const int px = 10, py = 8;
    dmap_t d, f, plain;
    ai_distance_map(&m, px, py, &d);
    ai_flee_map(&m, &d, &f);
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            plain.v[y][x] = d.v[y][x] >= DMAP_FAR ? DMAP_FAR : -d.v[y][x];
    uint8_t occ[MAP_H][MAP_W];
    memset(occ, 0, sizeof occ);
    occ[py][px] = 1;
    int nx, ny;
    ck_assert(ai_step_down(&m, &plain, occ, 12, 5, &nx, &ny));
    ck_assert_int_eq(nx, 12);
    ck_assert_int_eq(ny, 4); /* into the alcove */
    ck_assert(ai_step_down(&m, &f, occ, 12, 5, &nx, &ny));
    ck_assert_int_eq(nx, 13); /* along the room, away from the player */
    ck_assert_int_ge(d.v[ny][nx], d.v[5][12]);
}
END_TEST

START_TEST(wandering_never_enters_walls)
{
    map_t m;
    rng_t r;
    rng_seed(&r, 3);
    map_generate(&m, &r);
    uint8_t occ[MAP_H][MAP_W];
    memset(occ, 0, sizeof occ);
    /* Block every other floor tile of the first room. */
    const rect_t *room = &m.rooms[0];
    for (int y = room->y; y < room->y + room->h; y++)
        for (int x = room->x; x < room->x + room->w; x++)
            occ[y][x] = (x + y) % 2;
    int moved = 0, stayed = 0;
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++) {
            if (!map_walkable(&m, x, y))
                continue;
            for (int i = 0; i < 20; i++) {
                int nx = -1, ny = -1;
                if (ai_wander(&m, occ, &r, x, y, &nx, &ny)) {
                    ck_assert(map_walkable(&m, nx, ny));
                    ck_assert(!occ[ny][nx]);
                    ck_assert(ai_adjacent(x, y, nx, ny));
                    moved++;
                } else {
                    stayed++;
                }
            }
        }
    ck_assert_int_gt(moved, 0);
    ck_assert_int_gt(stayed, 0);
}
END_TEST

/* ai_decide for a monster in view at (x, y), fleeing (1 HP of 10) or
 * not, checked against ai_step_down on the whole map `whole` (the chase
 * or the flee map): the same action and the same step. Returns the
 * action. */
static int decides_as_whole(const map_t *m, ai_turn_t *t,
                            const uint8_t occ[MAP_H][MAP_W], rng_t *r, int x,
                            int y, int flee, const dmap_t *whole)
{
    int nx = -1, ny = -1, wx = -1, wy = -1;
    int act = ai_decide(m, t, occ, r, x, y, 1, flee ? 1 : 10, 10, &nx, &ny);
    int want = ai_step_down(m, whole, occ, x, y, &wx, &wy) ? AI_MOVE : AI_STAY;
    ck_assert_int_eq(act, want);
    if (act == AI_MOVE) {
        ck_assert_int_eq(nx, wx);
        ck_assert_int_eq(ny, wy);
    }
    return act;
}

/* A phase's chase map is searched only as far as the monsters asking stand
 * (ai.c, chase_map), and its flee map takes its sources from that search:
 * every decision must be the one the whole maps (ai_distance_map,
 * ai_flee_map) give, whatever order the monsters ask in, flees (which
 * finish the search) between chases. */
START_TEST(a_partial_chase_map_decides_as_the_whole_one)
{
    static map_t m;
    static dmap_t whole, whole_flee;
    static ai_turn_t t;
    rng_t r, order;
    rng_seed(&r, 7);
    rng_seed(&order, 11);
    int asked = 0, moved = 0, fled = 0;
    for (int level = 0; level < 20; level++) {
        map_generate(&m, &r);
        int px, py;
        rect_center(&m.rooms[level % m.nrooms], &px, &py);
        ai_distance_map(&m, px, py, &whole);
        ai_flee_map(&m, &whole, &whole_flee);
        ai_turn_begin(&t, px, py);
        for (int i = 0; i < 400; i++) {
            int x = rng_range(&order, 0, MAP_W - 1);
            int y = rng_range(&order, 0, MAP_H - 1);
            if (!map_walkable(&m, x, y) || ai_adjacent(x, y, px, py) ||
                (x == px && y == py))
                continue;
            int flee = rng_range(&order, 0, 30) == 0;
            int act = decides_as_whole(&m, &t, NULL, &r, x, y, flee,
                                       flee ? &whole_flee : &whole);
            moved += act == AI_MOVE;
            fled += flee && act == AI_MOVE;
            asked++;
        }
    }
    ck_assert_int_gt(asked, 1000);
    ck_assert_int_gt(moved, 1000);
    ck_assert_int_gt(fled, 30);
}
END_TEST

/* The phase's maps on ai.c's grid against the whole maps, from every
 * walkable tile of ten levels, with a sixth of the tiles taken: the chase
 * step and the flee step (the flee map by a Dijkstra on the grid, the
 * whole one by ai_flee_map's relaxation sweeps, two ways to the same
 * fixed point) are the same step or the same pause. */
START_TEST(every_tile_decides_as_the_whole_maps)
{
    static map_t m;
    static dmap_t whole, whole_flee;
    static ai_turn_t t;
    static uint8_t occ[MAP_H][MAP_W];
    rng_t r, pick;
    rng_seed(&r, 5);
    rng_seed(&pick, 13);
    int asked = 0, moved = 0, fled = 0, cornered = 0;
    for (int level = 0; level < 10; level++) {
        map_generate(&m, &r);
        int px, py;
        do {
            px = rng_range(&pick, 0, MAP_W - 1);
            py = rng_range(&pick, 0, MAP_H - 1);
        } while (!map_walkable(&m, px, py));
        for (int y = 0; y < MAP_H; y++)
            for (int x = 0; x < MAP_W; x++)
                occ[y][x] = map_walkable(&m, x, y) &&
                            rng_range(&pick, 0, 5) == 0;
        occ[py][px] = 1;
        ai_distance_map(&m, px, py, &whole);
        ai_flee_map(&m, &whole, &whole_flee);
        for (int flee = 0; flee < 2; flee++) {
            ai_turn_begin(&t, px, py);
            for (int y = 0; y < MAP_H; y++)
                for (int x = 0; x < MAP_W; x++) {
                    if (!map_walkable(&m, x, y) || ai_adjacent(x, y, px, py) ||
                        (x == px && y == py))
                        continue;
                    int act = decides_as_whole(&m, &t, occ, &r, x, y, flee,
                                               flee ? &whole_flee : &whole);
                    moved += act == AI_MOVE;
                    fled += flee && act == AI_MOVE;
                    cornered += flee && act != AI_MOVE;
                    asked++;
                }
        }
    }
    ck_assert_int_gt(asked, 5000);
    ck_assert_int_gt(fled, 2000);
    ck_assert_int_gt(moved - fled, 2000);
    ck_assert_int_gt(cornered, 10);
}
END_TEST

START_TEST(decisions)
{
    map_t m;
    rng_t r;
    rng_seed(&r, 1);
    open_map(&m, 1, 1, 30, 15);
    uint8_t occ[MAP_H][MAP_W];
    memset(occ, 0, sizeof occ);
    occ[8][10] = 1;
    ai_turn_t t;
    ai_turn_begin(&t, 10, 8);
    int nx, ny;
    /* Next to the player (diagonals count): attack. */
    ck_assert_int_eq(ai_decide(&m, &t, occ, &r, 11, 9, 1, 5, 5, &nx, &ny), AI_ATTACK);
    ck_assert_int_eq(t.have_chase, 0); /* no map needed for that */
    /* In view, farther: one step closer along the map. */
    ck_assert_int_eq(ai_decide(&m, &t, occ, &r, 15, 8, 1, 5, 5, &nx, &ny), AI_MOVE);
    ck_assert_int_eq(chebyshev(nx, ny, 10, 8), 4);
    /* Hurt below 30%: away, even when next to the player. */
    ck_assert_int_eq(ai_decide(&m, &t, occ, &r, 11, 8, 1, 2, 10, &nx, &ny), AI_MOVE);
    ck_assert_int_eq(chebyshev(nx, ny, 10, 8), 2);
    ck_assert(t.have_flee);
    /* 30% exactly is not below 30%. */
    ck_assert(!ai_wants_to_flee(3, 10));
    ck_assert(ai_wants_to_flee(2, 10));
    ck_assert(ai_wants_to_flee(4, 16));
    ck_assert(!ai_wants_to_flee(5, 16));
    /* Out of view: wander, never more than a step. */
    for (int i = 0; i < 50; i++) {
        int a = ai_decide(&m, &t, occ, &r, 20, 8, 0, 5, 5, &nx, &ny);
        ck_assert(a == AI_MOVE || a == AI_STAY);
        if (a == AI_MOVE)
            ck_assert(ai_adjacent(20, 8, nx, ny));
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ai");
    TCase *tc = tcase_create("ai");
    tcase_add_test(tc, distance_map_is_steps_in_8_directions);
    tcase_add_test(tc, chase_goes_round_a_pillar_where_greedy_sticks);
    tcase_add_test(tc, chase_steps_round_a_blocked_tile);
    tcase_add_test(tc, fleeing_increases_distance);
    tcase_add_test(tc, fleeing_leaves_a_dead_end);
    tcase_add_test(tc, wandering_never_enters_walls);
    tcase_add_test(tc, decisions);
    tcase_add_test(tc, a_partial_chase_map_decides_as_the_whole_one);
    tcase_add_test(tc, every_tile_decides_as_the_whole_maps);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
