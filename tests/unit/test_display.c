/* test_display.c - games drawn for each display (display.h) and read back
 * through a real terminal emulator (libvterm), as a client would see them:
 * the UTF-8 glyphs (box-drawing walls joined only by what the player knows,
 * a middle dot for floor, boxed menus), the remembered tiles' cool tone and
 * the light brightest around the player in 256 colours and truecolor; and,
 * against the plain display, that 16 colours keep today's colours and ASCII keeps
 * today's glyphs. */
#include <check.h>
#include <string.h>
#include <vterm.h>

#include "check_main.h"
#include "item.h"
#include "keys.h"
#include "palette.h"
#include "screen_diff.h"
#include "view.h"

/* --- a terminal -------------------------------------------------------------- */

typedef struct term {
    VTerm *vt;
    VTermScreen *vs;
} term_t;

/* A terminal showing s as painted for display d. */
static void term_show(term_t *t, const screen_t *s, const display_t *d)
{
    t->vt = vterm_new(s->h, s->w);
    vterm_set_utf8(t->vt, d->glyphs == GLYPHS_UTF8);
    t->vs = vterm_obtain_screen(t->vt);
    vterm_screen_reset(t->vs, 1);
    term_state_t ts;
    memset(&ts, 0, sizeof ts);
    term_state_set_display(&ts, d);
    term_state_reset(&ts);
    buf_t out;
    buf_init(&out, 0);
    ck_assert_int_eq(screen_paint(s, &ts, &out), 0);
    vterm_input_write(t->vt, out.data, out.len);
    buf_free(&out);
}

static void term_close(term_t *t)
{
    vterm_free(t->vt);
}

static VTermScreenCell term_cell(const term_t *t, int x, int y)
{
    VTermScreenCell vc;
    VTermPos pos = { .row = y, .col = x };
    vterm_screen_get_cell(t->vs, pos, &vc);
    return vc;
}

static uint32_t term_ch(const term_t *t, int x, int y)
{
    VTermScreenCell vc = term_cell(t, x, y);
    ck_assert_int_eq(vc.width, 1); /* one cell per tile */
    return vc.chars[0] ? vc.chars[0] : ' ';
}

/* The RGB of xterm's 256-colour index i (16-255): the 6x6x6 cube, then
 * the grey ramp, as xterm defines them. */
static void xterm_rgb(int i, int rgb[3])
{
    static const int level[6] = { 0, 95, 135, 175, 215, 255 };
    ck_assert_int_ge(i, 16);
    if (i >= 232) {
        rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (i - 232);
        return;
    }
    i -= 16;
    rgb[0] = level[i / 36];
    rgb[1] = level[i / 6 % 6];
    rgb[2] = level[i % 6];
}

/* The foreground of cell (x, y) as RGB, from a 256-colour index or RGB. */
static void term_fg_rgb(const term_t *t, int x, int y, int rgb[3])
{
    VTermScreenCell vc = term_cell(t, x, y);
    if (VTERM_COLOR_IS_INDEXED(&vc.fg)) {
        xterm_rgb(vc.fg.indexed.idx, rgb);
        return;
    }
    ck_assert(VTERM_COLOR_IS_RGB(&vc.fg));
    rgb[0] = vc.fg.rgb.red;
    rgb[1] = vc.fg.rgb.green;
    rgb[2] = vc.fg.rgb.blue;
}

/* Relative luminance, scaled (Rec. 709 weights). */
static int luma(const int rgb[3])
{
    return 2126 * rgb[0] + 7152 * rgb[1] + 722 * rgb[2];
}

/* --- a map made by hand -------------------------------------------------------- */

/* A game whose level is rock but for what we carve, nothing known, no
 * monster or item, the player at (px, py). */
static game_t *bare_game(int px, int py)
{
    game_t *g = game_new(1, NULL);
    ck_assert_ptr_nonnull(g);
    memset(g->map.tile, TILE_WALL, sizeof g->map.tile);
    memset(g->map.explored, 0, sizeof g->map.explored);
    memset(g->visible, 0, sizeof g->visible);
    memset(g->monsters, 0, sizeof g->monsters);
    memset(g->items, 0, sizeof g->items);
    g->player.x = px;
    g->player.y = py;
    return g;
}

/* Floor over x0..x1, y0..y1, and that rectangle with its ring of walls
 * known (lit too if lit). */
static void carve(game_t *g, int x0, int y0, int x1, int y1, int lit)
{
    for (int y = y0 - 1; y <= y1 + 1; y++)
        for (int x = x0 - 1; x <= x1 + 1; x++) {
            if (x >= x0 && x <= x1 && y >= y0 && y <= y1)
                g->map.tile[y][x] = TILE_FLOOR;
            tile_bit_put(g->map.explored[y], x, 1);
            tile_bit_put(g->visible[y], x, (uint8_t)lit);
        }
    game_derive(g); /* visible[][] written by hand (world.h) */
}

static const display_t utf8_16 = { GLYPHS_UTF8, COLOURS_16 };

/* --- the tests ----------------------------------------------------------------- */

START_TEST(utf8_room_and_doorway_glyphs)
{
    /* A room (floor 10..14 x 5..7) with a doorway east into a corridor
     * going east: the ring's corners and sides, the walls where the
     * corridor meets the room turn into it, the floor is a middle dot. */
    game_t *g = bare_game(12, 6);
    carve(g, 10, 5, 14, 7, 1);
    carve(g, 15, 6, 17, 6, 1); /* the doorway and the corridor */
    for (int y = 5; y <= 7; y++) { /* its end unseen */
        tile_bit_put(g->map.explored[y], 18, 0);
        tile_bit_put(g->visible[y], 18, 0);
    }
    screen_t s;
    screen_init(&s, 80, 24);
    view_draw_display(g, &utf8_16, &s);
    term_t t;
    term_show(&t, &s, &utf8_16);
    static const struct { int x, y; uint32_t ch; } want[] = {
        { 9, 4, 0x250c },  { 15, 4, 0x2510 },  /* ┌ ┐ */
        { 9, 8, 0x2514 },  { 15, 8, 0x2518 },  /* └ ┘ */
        { 10, 4, 0x2500 }, { 14, 4, 0x2500 }, { 12, 8, 0x2500 }, /* ─ */
        { 9, 5, 0x2502 },  { 9, 7, 0x2502 },   /* │ */
        { 15, 5, 0x2514 }, { 15, 7, 0x250c },  /* └ ┌ round the doorway */
        { 16, 5, 0x2500 }, { 16, 7, 0x2500 },  /* the corridor's walls */
        { 10, 5, 0xb7 },   { 14, 7, 0xb7 },    /* · */
        { 15, 6, 0xb7 },   { 17, 6, 0xb7 },
        { 12, 6, '@' },
        { 8, 4, ' ' },     { 18, 6, ' ' },     /* not known */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(term_ch(&t, want[i].x, want[i].y) == want[i].ch,
                      "(%d,%d): want U+%04X, got U+%04X", want[i].x, want[i].y,
                      (unsigned)want[i].ch,
                      (unsigned)term_ch(&t, want[i].x, want[i].y));
    /* The corridor's far end is not known yet: its walls end in a line
     * that does not turn (nothing tells which way it goes). */
    ck_assert_uint_eq(term_ch(&t, 17, 5), 0x2500);
    ck_assert_uint_eq(term_ch(&t, 17, 7), 0x2500);
    term_close(&t);
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(utf8_boxes_for_the_pack_and_the_end)
{
    /* The pack menu in a light box, the death screen in a double one. */
    game_t *g = game_new(5, NULL);
    ck_assert_ptr_nonnull(g);
    screen_t s;
    screen_init(&s, 80, 24);
    ck_assert_int_ge(item_pack_add(g, IK_DAGGER), 0);
    game_key(g, 'i');
    ck_assert_int_eq(g->mode, MODE_INVENTORY);
    view_draw_display(g, &utf8_16, &s);
    term_t t;
    term_show(&t, &s, &utf8_16);
    ck_assert_uint_eq(term_ch(&t, 2, 1), 0x250c);   /* ┌ */
    ck_assert_uint_eq(term_ch(&t, 77, 1), 0x2510);  /* ┐ */
    ck_assert_uint_eq(term_ch(&t, 3, 1), 0x2500);   /* ─ */
    ck_assert_uint_eq(term_ch(&t, 2, 2), 0x2502);   /* │ */
    term_close(&t);
    g->mode = MODE_DEAD;
    view_draw_display(g, &utf8_16, &s);
    term_show(&t, &s, &utf8_16);
    /* 50 x 12 at ((80 - 50) / 2, (24 - 12) / 2 - 2). */
    ck_assert_uint_eq(term_ch(&t, 15, 4), 0x2554);  /* ╔ */
    ck_assert_uint_eq(term_ch(&t, 64, 4), 0x2557);  /* ╗ */
    ck_assert_uint_eq(term_ch(&t, 15, 15), 0x255a); /* ╚ */
    ck_assert_uint_eq(term_ch(&t, 64, 15), 0x255d); /* ╝ */
    ck_assert_uint_eq(term_ch(&t, 30, 4), 0x2550);  /* ═ */
    ck_assert_uint_eq(term_ch(&t, 15, 10), 0x2551); /* ║ */
    term_close(&t);
    screen_free(&s);
    game_free(g);
}
END_TEST

/* Plays n autoexplore and walking keys of seed's game. */
static game_t *played(uint64_t seed, int n)
{
    static const int keys[] = { 'o', 'o', 'o', 'h', 'j', 'k', 'l', 'y', 'n' };
    game_t *g = game_new(seed, NULL);
    ck_assert_ptr_nonnull(g);
    for (int i = 0; i < n && !game_dead(g) && !game_over(g); i++)
        game_key(g, keys[(seed + (uint64_t)i * 7) % 9]);
    return g;
}

START_TEST(wall_shapes_never_tell_of_unseen_tiles)
{
    /* The same game with every tile the player does not know turned
     * (wall to floor, floor to wall) draws the same map, cell for cell, in
     * every display: nothing unseen shows in a wall's shape or colour. */
    static const display_t all[] = {
        { GLYPHS_UTF8, COLOURS_16 }, { GLYPHS_UTF8, COLOURS_256 },
        { GLYPHS_ASCII, COLOURS_TRUE },
    };
    screen_t a, b;
    screen_init(&a, 80, 24);
    screen_init(&b, 80, 24);
    int turned = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        game_t *g = played(seed, (int)seed * 15);
        game_t *h = game_clone(g);
        ck_assert_ptr_nonnull(h);
        for (int y = 0; y < MAP_H; y++)
            for (int x = 0; x < MAP_W; x++)
                if (!map_known(&g->map, x, y) && !game_lit(g, x, y)) {
                    h->map.tile[y][x] = g->map.tile[y][x] == TILE_WALL
                                            ? TILE_FLOOR : TILE_WALL;
                    turned++;
                }
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
            view_draw_display(g, &all[i], &a);
            view_draw_display(h, &all[i], &b);
            ck_assert(screen_equal(&a, &b));
        }
        game_free(g);
        game_free(h);
    }
    ck_assert_int_gt(turned, 1000);
    screen_free(&a);
    screen_free(&b);
}
END_TEST

/* 1 if ch is one of the wall glyphs: a box-drawing line or the square. */
static int wall_glyph(uint32_t ch)
{
    static const uint32_t walls[] = { 0x2500, 0x2502, 0x250c, 0x2510, 0x2514,
                                      0x2518, 0x251c, 0x2524, 0x252c, 0x2534,
                                      0x253c, 0x25a0 };
    for (size_t i = 0; i < sizeof walls / sizeof walls[0]; i++)
        if (walls[i] == ch)
            return 1;
    return 0;
}

START_TEST(played_games_through_the_terminal)
{
    /* Games played for a while, drawn in UTF-8 (256 colours) and read
     * back from the terminal: every map cell under no mover shows what
     * the player knows of its tile: a wall glyph for a known wall, the
     * middle dot for known floor, '>' for known stairs, blank for the
     * rest; and the walls are not all one glyph (they join). */
    static const display_t d = { GLYPHS_UTF8, COLOURS_256 };
    screen_t plain, s;
    screen_init(&plain, 80, 24);
    screen_init(&s, 80, 24);
    int walls = 0, floors = 0, corners = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        game_t *g = played(seed, 60);
        if (g->mode != MODE_PLAY) {
            game_free(g); /* died on the way: the map is not shown */
            continue;
        }
        view_draw(g, &plain);
        view_draw_display(g, &d, &s);
        term_t t;
        term_show(&t, &s, &d);
        for (int y = 0; y < MAP_H - 1; y++)
            for (int x = 0; x < MAP_W; x++) {
                uint32_t was = screen_cat(&plain, x, y)->ch;
                if (was != '#' && was != '.' && was != '>' && was != ' ')
                    continue; /* a mover */
                int known = game_lit(g, x, y) || map_known(&g->map, x, y);
                int tile = g->map.tile[y][x];
                uint32_t ch = term_ch(&t, x, y);
                if (!known) {
                    ck_assert_uint_eq(ch, ' ');
                } else if (tile == TILE_WALL) {
                    ck_assert_msg(wall_glyph(ch), "(%d,%d) U+%04X", x, y,
                                  (unsigned)ch);
                    walls++;
                    corners += ch != 0x2500 && ch != 0x2502;
                } else if (tile == TILE_FLOOR) {
                    ck_assert_uint_eq(ch, 0xb7);
                    floors++;
                } else {
                    ck_assert_uint_eq(ch, '>');
                }
            }
        term_close(&t);
        game_free(g);
    }
    ck_assert_int_gt(walls, 300);
    ck_assert_int_gt(floors, 300);
    ck_assert_int_gt(corners, 20);
    screen_free(&plain);
    screen_free(&s);
}
END_TEST

/* 1 if ch is a glyph the plain display draws and UTF-8 redraws: walls,
 * floor, box frames, the HP bar. */
static int redrawn_in_utf8(uint32_t ch)
{
    return ch == '#' || ch == '.' || ch == '+' || ch == '-' || ch == '|' ||
           ch == '=';
}

START_TEST(sixteen_colours_are_todays_and_ascii_keeps_its_glyphs)
{
    /* Against the plain display, cell by cell, over games in play, aiming
     * and the pack: UTF-8 in 16 colours changes only the glyphs of walls,
     * floor, frames and the HP bar (into non-ASCII ones), never a colour
     * or attribute; ASCII in 256 colours changes no glyph. */
    static const display_t u16 = { GLYPHS_UTF8, COLOURS_16 };
    static const display_t a256 = { GLYPHS_ASCII, COLOURS_256 };
    screen_t p, u, c;
    screen_init(&p, 80, 24);
    screen_init(&u, 80, 24);
    screen_init(&c, 80, 24);
    int changed = 0, recoloured = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        game_t *g = played(seed, 40);
        for (int k = 0; k < 3; k++) {
            if (k == 1)
                game_key(g, 'i');
            else if (k == 2)
                game_key(g, KEY_ESC);
            view_draw(g, &p);
            view_draw_display(g, &u16, &u);
            view_draw_display(g, &a256, &c);
            for (int i = 0; i < 80 * 24; i++) {
                cell_t cp = p.cells[i], cu = u.cells[i], cc = c.cells[i];
                ck_assert_uint_eq(cu.fg, cp.fg);
                ck_assert_uint_eq(cu.bg, cp.bg);
                ck_assert_uint_eq(cu.attr, cp.attr);
                if (cu.ch != cp.ch) {
                    ck_assert(redrawn_in_utf8(cp.ch));
                    ck_assert_uint_ge(cu.ch, 0x80);
                    changed++;
                }
                ck_assert_uint_eq(cc.ch, cp.ch);
                recoloured += cc.fg != cp.fg;
            }
        }
        game_free(g);
    }
    ck_assert_int_gt(changed, 500);
    ck_assert_int_gt(recoloured, 500);
    screen_free(&p);
    screen_free(&u);
    screen_free(&c);
}
END_TEST

START_TEST(remembered_tiles_in_the_cool_tone)
{
    /* A room explored but out of view: its floor is xterm colour 60 in
     * 256 colours, RGB 66,74,108 in truecolor (blue above red and green),
     * grey as today in 16; its walls are colour 67 / RGB 88,106,144. */
    game_t *g = bare_game(40, 15);
    carve(g, 10, 5, 14, 7, 0);
    carve(g, 40, 15, 40, 15, 1); /* where the player stands, in view */
    screen_t s;
    screen_init(&s, 80, 24);
    static const struct { uint8_t colours; int idx, rgb; } want[] = {
        { COLOURS_16, COL_GREY, -1 },
        { COLOURS_256, 60, -1 },
        { COLOURS_TRUE, -1, 0x424a6c },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        display_t d = { GLYPHS_UTF8, want[i].colours };
        view_draw_display(g, &d, &s);
        term_t t;
        term_show(&t, &s, &d);
        VTermScreenCell floor = term_cell(&t, 12, 6), wall = term_cell(&t, 9, 6);
        ck_assert_uint_eq(floor.chars[0], 0xb7);
        if (want[i].idx >= 0) {
            ck_assert(VTERM_COLOR_IS_INDEXED(&floor.fg));
            ck_assert_int_eq(floor.fg.indexed.idx, want[i].idx);
            ck_assert(VTERM_COLOR_IS_INDEXED(&wall.fg));
            ck_assert_int_eq(wall.fg.indexed.idx,
                             want[i].colours == COLOURS_16 ? COL_GREY : 67);
        } else {
            ck_assert(VTERM_COLOR_IS_RGB(&floor.fg));
            ck_assert_int_eq(floor.fg.rgb.red << 16 | floor.fg.rgb.green << 8 |
                             floor.fg.rgb.blue, want[i].rgb);
            ck_assert(VTERM_COLOR_IS_RGB(&wall.fg));
            ck_assert_int_eq(wall.fg.rgb.red << 16 | wall.fg.rgb.green << 8 |
                             wall.fg.rgb.blue, 0x586a90);
        }
        if (want[i].colours != COLOURS_16) {
            int rgb[3];
            term_fg_rgb(&t, 12, 6, rgb);
            ck_assert_int_gt(rgb[2], rgb[0]);
            ck_assert_int_gt(rgb[2], rgb[1]);
        }
        term_close(&t);
    }
    screen_free(&s);
    game_free(g);
}
END_TEST

START_TEST(light_glows_around_the_player)
{
    /* A wide lit room, the player near its top wall: in 256 colours and in
     * truecolor the floor tiles beside the player are the bright tone, the
     * rest of the room's floor one tone, darker; the lit wall beside the
     * player brighter than a far one. (Two tones, not a fade by distance:
     * docs/game.md, "Displays", says why.) In 16 colours every lit floor
     * tile is white, as today. */
    game_t *g = bare_game(20, 6);
    carve(g, 5, 5, 40, 15, 1);
    screen_t s;
    screen_init(&s, 80, 24);
    for (int colours = COLOURS_256; colours <= COLOURS_TRUE; colours++) {
        display_t d = { GLYPHS_UTF8, (uint8_t)colours };
        g->player.y = 6;
        view_draw_display(g, &d, &s);
        term_t t;
        term_show(&t, &s, &d);
        int near[3], rgb[3], far[3];
        term_fg_rgb(&t, 21, 6, near);
        term_fg_rgb(&t, 21, 7, rgb); /* diagonal: beside the player too */
        ck_assert_int_eq(luma(rgb), luma(near));
        term_fg_rgb(&t, 22, 6, far);
        ck_assert_int_lt(luma(far), luma(near));
        for (int x = 23; x <= 30; x++) {
            term_fg_rgb(&t, x, 6, rgb);
            ck_assert_int_eq(luma(rgb), luma(far));
        }
        term_close(&t);
        g->player.y = 5; /* beside the top wall */
        view_draw_display(g, &d, &s);
        term_show(&t, &s, &d);
        term_fg_rgb(&t, 20, 4, near);
        term_fg_rgb(&t, 40, 4, far);
        ck_assert_int_lt(luma(far), luma(near));
        term_close(&t);
    }
    display_t d16 = { GLYPHS_UTF8, COLOURS_16 };
    view_draw_display(g, &d16, &s);
    for (int x = 21; x <= 40; x++)
        ck_assert_uint_eq(screen_cat(&s, x, 6)->fg, COL_WHITE);
    screen_free(&s);
    game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("display");
    TCase *tc = tcase_create("through libvterm");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, utf8_room_and_doorway_glyphs);
    tcase_add_test(tc, utf8_boxes_for_the_pack_and_the_end);
    tcase_add_test(tc, played_games_through_the_terminal);
    tcase_add_test(tc, wall_shapes_never_tell_of_unseen_tiles);
    tcase_add_test(tc, sixteen_colours_are_todays_and_ascii_keeps_its_glyphs);
    tcase_add_test(tc, remembered_tiles_in_the_cool_tone);
    tcase_add_test(tc, light_glows_around_the_player);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
