/* test_map.c - dungeon generation: bounds, rooms that neither overlap nor
 * touch, every floor tile reachable from the start, determinism. */
#include <check.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check_main.h"
#include "map.h"
#include "rng.h"

static void gen(map_t *m, uint64_t seed)
{
    rng_t r;
    rng_seed(&r, seed);
    map_generate(m, &r);
}

START_TEST(border_is_wall_and_rooms_in_bounds)
{
    map_t m;
    for (uint64_t seed = 0; seed < 500; seed++) {
        gen(&m, seed);
        ck_assert_int_ge(m.nrooms, 1);
        ck_assert_int_le(m.nrooms, MAP_MAX_ROOMS);
        for (int x = 0; x < MAP_W; x++) {
            ck_assert_int_eq(m.tile[0][x], TILE_WALL);
            ck_assert_int_eq(m.tile[MAP_H - 1][x], TILE_WALL);
        }
        for (int y = 0; y < MAP_H; y++) {
            ck_assert_int_eq(m.tile[y][0], TILE_WALL);
            ck_assert_int_eq(m.tile[y][MAP_W - 1], TILE_WALL);
        }
        for (int i = 0; i < m.nrooms; i++) {
            const rect_t *r = &m.rooms[i];
            ck_assert_int_ge(r->w, ROOM_MIN_SIZE);
            ck_assert_int_le(r->w, ROOM_MAX_SIZE);
            ck_assert_int_ge(r->h, ROOM_MIN_SIZE);
            ck_assert_int_le(r->h, ROOM_MAX_SIZE);
            ck_assert_int_ge(r->x, 1);
            ck_assert_int_ge(r->y, 1);
            ck_assert_int_le(r->x + r->w, MAP_W - 1);
            ck_assert_int_le(r->y + r->h, MAP_H - 1);
            /* The whole interior is floor. */
            for (int y = r->y; y < r->y + r->h; y++)
                for (int x = r->x; x < r->x + r->w; x++)
                    ck_assert_int_eq(m.tile[y][x], TILE_FLOOR);
        }
    }
}
END_TEST

START_TEST(rooms_neither_overlap_nor_touch)
{
    map_t m;
    for (uint64_t seed = 0; seed < 500; seed++) {
        gen(&m, seed);
        for (int i = 0; i < m.nrooms; i++)
            for (int j = i + 1; j < m.nrooms; j++) {
                const rect_t *a = &m.rooms[i], *b = &m.rooms[j];
                /* Separated by at least one column or row of wall. */
                int apart = a->x + a->w < b->x || b->x + b->w < a->x ||
                            a->y + a->h < b->y || b->y + b->h < a->y;
                ck_assert_msg(apart, "seed %llu: rooms %d and %d touch",
                              (unsigned long long)seed, i, j);
            }
    }
}
END_TEST

/* Flood fill from the start; returns the number of floor tiles reached. */
static int reachable(const map_t *m, int sx, int sy, uint8_t seen[MAP_H][MAP_W])
{
    static const int d[8][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 },
                                 { 1, 1 }, { -1, -1 }, { 1, -1 }, { -1, 1 } };
    int qx[MAP_W * MAP_H], qy[MAP_W * MAP_H], head = 0, tail = 0;
    memset(seen, 0, MAP_W * MAP_H);
    seen[sy][sx] = 1;
    qx[tail] = sx;
    qy[tail++] = sy;
    while (head < tail) {
        int x = qx[head], y = qy[head++];
        for (int i = 0; i < 8; i++) {
            int nx = x + d[i][0], ny = y + d[i][1];
            if (map_walkable(m, nx, ny) && !seen[ny][nx]) {
                seen[ny][nx] = 1;
                qx[tail] = nx;
                qy[tail++] = ny;
            }
        }
    }
    return tail;
}

START_TEST(every_floor_tile_is_reachable)
{
    map_t m;
    uint8_t seen[MAP_H][MAP_W];
    for (uint64_t seed = 0; seed < 500; seed++) {
        gen(&m, seed);
        int sx, sy, floor = 0;
        rect_center(&m.rooms[0], &sx, &sy);
        ck_assert(map_walkable(&m, sx, sy));
        int n = reachable(&m, sx, sy, seen);
        for (int y = 0; y < MAP_H; y++)
            for (int x = 0; x < MAP_W; x++)
                floor += m.tile[y][x] != TILE_WALL;
        ck_assert_int_eq(n, floor);
    }
}
END_TEST

START_TEST(same_seed_same_map_different_seeds_differ)
{
    map_t a, b;
    gen(&a, 77);
    gen(&b, 77);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    int differ = 0;
    for (uint64_t seed = 1; seed < 50; seed++) {
        gen(&b, 77 + seed);
        differ += memcmp(a.tile, b.tile, sizeof a.tile) != 0;
    }
    ck_assert_int_eq(differ, 49);
}
END_TEST

START_TEST(maps_have_several_rooms)
{
    /* Not a property of every seed, but of the generator: 30 attempts on an
     * 80x21 map place several rooms on average. */
    map_t m;
    long total = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        gen(&m, seed);
        total += m.nrooms;
    }
    ck_assert_int_ge(total / 200, 5);
}
END_TEST

START_TEST(queries_off_the_map)
{
    map_t m;
    gen(&m, 3);
    ck_assert(!map_in_bounds(-1, 0));
    ck_assert(!map_in_bounds(0, MAP_H));
    ck_assert(!map_walkable(&m, MAP_W, 5));
    ck_assert(!map_transparent(&m, -1, -1));
    int cx, cy;
    rect_center(&m.rooms[0], &cx, &cy);
    ck_assert(map_transparent(&m, cx, cy));
    rect_t r = { 10, 5, 4, 6 };
    rect_center(&r, &cx, &cy);
    ck_assert_int_eq(cx, 11);
    ck_assert_int_eq(cy, 7);
}
END_TEST

/* A record as map_slot_at reads it: x and y side by side, a live byte. */
typedef struct slot {
    uint8_t live, x, y, pad;
} slot_t;

#define NSLOTS 9 /* two groups of four and one more (map_slot_at's tail) */

static int slot_at(const slot_t *s, int from, int x, int y)
{
    return map_slot_at(s, NSLOTS, sizeof(slot_t), offsetof(slot_t, x),
                       offsetof(slot_t, live), from, x, y);
}

/* map_slot_at: the first living record at a place from `from` on, in the
 * groups of four and after them; a coordinate outside 0..255 is nobody's
 * place (NSLOTS), though its low byte names one where a record lives
 * (-1 is 255, 20 + 256 is 20). */
START_TEST(slots_by_place_and_coordinates_out_of_a_byte)
{
    slot_t s[NSLOTS];
    memset(s, 0, sizeof s);
    s[1] = (slot_t){ 1, 0, 0, 0 };
    s[2] = (slot_t){ 1, 20, 5, 0 };
    s[3] = (slot_t){ 0, 20, 5, 0 }; /* dead */
    s[6] = (slot_t){ 1, 20, 5, 0 };
    s[8] = (slot_t){ 1, 255, 255, 0 };
    ck_assert_int_eq(slot_at(s, 0, 20, 5), 2);
    ck_assert_int_eq(slot_at(s, 3, 20, 5), 6);
    ck_assert_int_eq(slot_at(s, 7, 20, 5), NSLOTS);
    ck_assert_int_eq(slot_at(s, 0, 5, 20), NSLOTS);
    ck_assert_int_eq(slot_at(s, 0, 0, 0), 1);
    ck_assert_int_eq(slot_at(s, 0, 255, 255), 8);
    ck_assert_int_eq(slot_at(s, 8, 255, 255), 8);
    /* Out of a byte. */
    ck_assert_int_eq(slot_at(s, 0, 20 + 256, 5), NSLOTS);
    ck_assert_int_eq(slot_at(s, 0, 20, 5 + 256), NSLOTS);
    ck_assert_int_eq(slot_at(s, 0, 20 - 256, 5), NSLOTS);
    ck_assert_int_eq(slot_at(s, 3, 20, 5 - 256), NSLOTS);
    ck_assert_int_eq(slot_at(s, 0, 256, 256), NSLOTS);
    ck_assert_int_eq(slot_at(s, 0, 256, 0), NSLOTS);
    ck_assert_int_eq(slot_at(s, 0, -1, -1), NSLOTS);
    ck_assert_int_eq(slot_at(s, 0, -1, 255), NSLOTS);
    ck_assert_int_eq(slot_at(s, 8, 255, -1), NSLOTS);
    ck_assert_int_eq(slot_at(s, 0, INT_MAX, INT_MAX), NSLOTS);
    ck_assert_int_eq(slot_at(s, 0, INT_MIN, 0), NSLOTS);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("map");
    TCase *tc = tcase_create("generate");
    tcase_add_test(tc, border_is_wall_and_rooms_in_bounds);
    tcase_add_test(tc, rooms_neither_overlap_nor_touch);
    tcase_add_test(tc, every_floor_tile_is_reachable);
    tcase_add_test(tc, same_seed_same_map_different_seeds_differ);
    tcase_add_test(tc, maps_have_several_rooms);
    tcase_add_test(tc, queries_off_the_map);
    tcase_add_test(tc, slots_by_place_and_coordinates_out_of_a_byte);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
