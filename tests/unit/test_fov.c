/* test_fov.c - symmetric shadowcasting: symmetry on random maps, walls stop
 * sight, the radius, and exact shadows on small hand-made maps. */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "fov.h"
#include "map.h"
#include "rng.h"

/* An open room: the whole map floor but its border. */
static void open_map(map_t *m)
{
    memset(m, 0, sizeof *m);
    for (int y = 1; y < MAP_H - 1; y++)
        for (int x = 1; x < MAP_W - 1; x++)
            m->tile[y][x] = TILE_FLOOR;
}

/* Random walls on an open map: pct percent of the inner tiles. */
static void random_map(map_t *m, rng_t *r, int pct)
{
    open_map(m);
    for (int y = 1; y < MAP_H - 1; y++)
        for (int x = 1; x < MAP_W - 1; x++)
            if (rng_chance(r, pct))
                m->tile[y][x] = TILE_WALL;
}

static uint8_t vis[MAP_H][TILE_BITS_ROW]; /* a tile set (map.h) */
/* Every tile's field of view, so that each pair is compared once. */
static uint8_t all[MAP_H][MAP_W][MAP_H][TILE_BITS_ROW];

/* For every pair of floor tiles: A sees B iff B sees A. */
static void check_symmetry(const map_t *m, int radius)
{
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            fov_compute(m, x, y, radius, all[y][x]);
    long pairs = 0;
    for (int ay = 0; ay < MAP_H; ay++)
        for (int ax = 0; ax < MAP_W; ax++) {
            if (!map_transparent(m, ax, ay))
                continue;
            for (int by = 0; by < MAP_H; by++)
                for (int bx = 0; bx < MAP_W; bx++) {
                    if (!map_transparent(m, bx, by))
                        continue;
                    /* A plain if: ck_assert marks a point per call, and
                     * this loop makes millions of comparisons. */
                    int ab = tile_bit(all[ay][ax][by], bx);
                    if (ab != tile_bit(all[by][bx][ay], ax))
                        ck_abort_msg("(%d,%d) %s (%d,%d) but not back", ax, ay,
                                     ab ? "sees" : "does not see", bx, by);
                    pairs += ab;
                }
        }
    ck_assert_int_gt(pairs, 0);
}

START_TEST(symmetric_on_random_maps)
{
    rng_t r;
    rng_seed(&r, 2024);
    map_t m;
        for (int i = 0; i < 4; i++) {
        random_map(&m, &r, 5 + 10 * i);
        check_symmetry(&m, FOV_RADIUS);
    }
}
END_TEST

START_TEST(symmetric_on_dungeons)
{
    rng_t r;
    rng_seed(&r, 5);
    map_t m;
    map_generate(&m, &r);
    check_symmetry(&m, FOV_RADIUS);
}
END_TEST

/* Every tile's view on generated dungeons and random maps (border walls
 * and walls on the border's edge both), folded into one number pinned from
 * the field of view as it was before it was made cheaper (docs/
 * performance.md, "Cheaper turns") and before the view became bits ("Seen
 * and in view, as bits"): any tile seen or not seen otherwise changes it,
 * and with it every game's state. fov_light only adds tiles, to vis and
 * to the seen set it is given. */
START_TEST(views_pinned)
{
    static map_t m;
    static uint8_t before[MAP_H][TILE_BITS_ROW], view[MAP_H][TILE_BITS_ROW],
        seen_set[MAP_H][TILE_BITS_ROW];
    rng_t r;
    rng_seed(&r, 77);
    uint64_t h = 1469598103934665603ull;
    long seen = 0;
    for (int map = 0; map < 6; map++) {
        if (map < 4)
            map_generate(&m, &r);
        else
            random_map(&m, &r, 10 + 15 * (map - 4));
        for (int oy = 0; oy < MAP_H; oy++)
            for (int ox = 0; ox < MAP_W; ox++) {
                fov_compute(&m, ox, oy, FOV_RADIUS, vis);
                for (int y = 0; y < MAP_H; y++)
                    for (int x = 0; x < MAP_W; x++) {
                        h = (h ^ tile_bit(vis[y], x)) * 1099511628211ull;
                        seen += tile_bit(vis[y], x);
                    }
                /* Lit over a set with every fourth tile in: those stay,
                 * and the view is added; the same view is added to seen_set
                 * (every fifth tile in) too. */
                memcpy(view, vis, sizeof vis);
                for (int y = 0; y < MAP_H; y++)
                    for (int x = 0; x < MAP_W; x++) {
                        tile_bit_put(before[y], x, (x + y) % 4 == 0);
                        tile_bit_put(seen_set[y], x, (3 * x + y) % 5 == 0);
                    }
                memcpy(vis, before, sizeof vis);
                fov_light(&m, ox, oy, FOV_RADIUS, vis, seen_set);
                for (int y = 0; y < MAP_H; y++)
                    for (int x = 0; x < MAP_W; x++) {
                        int in = tile_bit(view[y], x);
                        if (tile_bit(vis[y], x) != ((x + y) % 4 == 0 || in))
                            ck_abort_msg("(%d,%d) from (%d,%d) taken out or "
                                         "not added", x, y, ox, oy);
                        if (tile_bit(seen_set[y], x) !=
                            ((3 * x + y) % 5 == 0 || in))
                            ck_abort_msg("(%d,%d) from (%d,%d): seen not "
                                         "the view added", x, y, ox, oy);
                    }
            }
    }
    ck_assert_int_gt(seen, 100000);
    ck_assert_msg(h == 0xd8bf5a452dda6349ull, "views hash to 0x%016llx",
                  (unsigned long long)h);
}
END_TEST

START_TEST(radius_on_an_open_map)
{
    map_t m;
    open_map(&m);
    int ox = 40, oy = 10;
    fov_compute(&m, ox, oy, FOV_RADIUS, vis);
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++) {
            int dx = x - ox, dy = y - oy;
            int in = dx * dx + dy * dy <= FOV_RADIUS * FOV_RADIUS;
            ck_assert_msg(tile_bit(vis[y], x) == in, "(%d,%d) visible=%d", x,
                          y, tile_bit(vis[y], x));
        }
    /* Radius 0 sees only the origin. */
    fov_compute(&m, ox, oy, 0, vis);
    int n = 0;
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            n += tile_bit(vis[y], x);
    ck_assert_int_eq(n, 1);
    ck_assert(tile_bit(vis[oy], ox));
}
END_TEST

START_TEST(walls_stop_sight)
{
    map_t m;
    open_map(&m);
    /* A full-height wall at x = 45: nothing beyond it is seen, the wall is. */
    for (int y = 0; y < MAP_H; y++)
        m.tile[y][45] = TILE_WALL;
    fov_compute(&m, 42, 10, FOV_RADIUS, vis);
    for (int y = 0; y < MAP_H; y++)
        for (int x = 46; x < MAP_W; x++)
            ck_assert(!tile_bit(vis[y], x));
    ck_assert(tile_bit(vis[10], 45));
    ck_assert(tile_bit(vis[10], 44));
}
END_TEST

START_TEST(pillar_casts_a_shadow)
{
    map_t m;
    open_map(&m);
    m.tile[10][42] = TILE_WALL; /* a pillar two east of the origin */
    fov_compute(&m, 40, 10, FOV_RADIUS, vis);
    ck_assert(tile_bit(vis[10], 42));  /* the pillar itself is seen */
    for (int x = 43; x <= 48; x++)
        ck_assert_msg(!tile_bit(vis[10], x),
                      "(%d,10) behind the pillar is visible", x);
    ck_assert(tile_bit(vis[9], 43));   /* beside the shadow's edge: seen */
    ck_assert(tile_bit(vis[11], 43));
}
END_TEST

START_TEST(corridor_view)
{
    /* A one-tile corridor: from its middle you see along it and nothing of
     * the walls' far sides. */
    map_t m;
    memset(&m, 0, sizeof m);
    for (int x = 10; x < 30; x++)
        m.tile[10][x] = TILE_FLOOR;
    fov_compute(&m, 20, 10, FOV_RADIUS, vis);
    for (int x = 12; x <= 28; x++)
        ck_assert(tile_bit(vis[10], x));
    ck_assert(!tile_bit(vis[10], 29)); /* 9 away: beyond the radius */
    /* the corridor's walls */
    ck_assert(tile_bit(vis[9], 20) && tile_bit(vis[11], 20));
    ck_assert(!tile_bit(vis[8], 20) && !tile_bit(vis[12], 20));
}
END_TEST

START_TEST(origin_off_map_sees_nothing)
{
    map_t m;
    open_map(&m);
    memset(vis, 1, sizeof vis);
    fov_compute(&m, -5, 3, FOV_RADIUS, vis);
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            ck_assert(!tile_bit(vis[y], x));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("fov");
    TCase *tc = tcase_create("shadowcasting");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, symmetric_on_random_maps);
    tcase_add_test(tc, symmetric_on_dungeons);
    tcase_add_test(tc, radius_on_an_open_map);
    tcase_add_test(tc, views_pinned);
    tcase_add_test(tc, walls_stop_sight);
    tcase_add_test(tc, pillar_casts_a_shadow);
    tcase_add_test(tc, corridor_view);
    tcase_add_test(tc, origin_off_map_sees_nothing);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
