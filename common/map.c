/* map.c - dungeon generation (rooms and L-shaped corridors, docs/game.md);
 * the tile queries every other module uses are inline in map.h. */
#include "map.h"

#include <string.h>

void rect_center(const rect_t *r, int *x, int *y)
{
    *x = r->x + (r->w - 1) / 2;
    *y = r->y + (r->h - 1) / 2;
}

/* 1 if two room interiors overlap or touch, wall rings included: rooms keep
 * at least one wall tile between them. */
static int rooms_clash(const rect_t *a, const rect_t *b)
{
    return a->x - 1 <= b->x + b->w && b->x - 1 <= a->x + a->w &&
           a->y - 1 <= b->y + b->h && b->y - 1 <= a->y + a->h;
}

static void carve_room(map_t *m, const rect_t *r)
{
    for (int y = r->y; y < r->y + r->h; y++)
        memset(&m->tile[y][r->x], TILE_FLOOR, (size_t)r->w);
}

static void carve_hline(map_t *m, int x1, int x2, int y)
{
    int lo = x1 < x2 ? x1 : x2, hi = x1 < x2 ? x2 : x1;
    for (int x = lo; x <= hi; x++)
        m->tile[y][x] = TILE_FLOOR;
}

static void carve_vline(map_t *m, int y1, int y2, int x)
{
    int lo = y1 < y2 ? y1 : y2, hi = y1 < y2 ? y2 : y1;
    for (int y = lo; y <= hi; y++)
        m->tile[y][x] = TILE_FLOOR;
}

/* An L-shaped corridor between two points; which leg comes first (where it
 * bends) is a coin flip, as in the tutorials. Both ends are inside rooms, so the
 * corridor joins them whatever it crosses on the way. */
static void carve_corridor(map_t *m, rng_t *r, int x1, int y1, int x2, int y2)
{
    if (rng_range(r, 0, 1)) {
        carve_hline(m, x1, x2, y1);
        carve_vline(m, y1, y2, x2);
    } else {
        carve_vline(m, y1, y2, x1);
        carve_hline(m, x1, x2, y2);
    }
}

void map_generate(map_t *m, rng_t *r)
{
    memset(m, 0, sizeof *m); /* all wall, nothing explored */
    for (int attempt = 0; attempt < MAP_MAX_ROOMS; attempt++) {
        rect_t room;
        room.w = rng_range(r, ROOM_MIN_SIZE, ROOM_MAX_SIZE);
        room.h = rng_range(r, ROOM_MIN_SIZE, ROOM_MAX_SIZE);
        /* Interior from 1 to MAP_-2: the border stays wall. */
        room.x = rng_range(r, 1, MAP_W - 1 - room.w);
        room.y = rng_range(r, 1, MAP_H - 1 - room.h);
        int clash = 0;
        for (int i = 0; i < m->nrooms && !clash; i++)
            clash = rooms_clash(&room, &m->rooms[i]);
        if (clash)
            continue;
        carve_room(m, &room);
        if (m->nrooms > 0) {
            int px, py, cx, cy;
            rect_center(&m->rooms[m->nrooms - 1], &px, &py);
            rect_center(&room, &cx, &cy);
            carve_corridor(m, r, px, py, cx, cy);
        }
        m->rooms[m->nrooms++] = room;
    }
}

void map_place_stairs(map_t *m)
{
    const rect_t *last = &m->rooms[m->nrooms > 0 ? m->nrooms - 1 : 0];
    int x = last->x, y = last->y;
    if (m->nrooms > 1)
        rect_center(last, &x, &y);
    m->tile[y][x] = TILE_STAIRS;
}
