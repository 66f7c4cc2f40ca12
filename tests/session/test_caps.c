/* test_caps.c - what each client can show, as the real server learns it
 * (docs/telnet.md, "What the client can show") and as the options screen
 * (`O`) reports it: scripted telnet clients that say XTERM-256COLOR, that
 * go through MTTS rounds (2825: truecolor without UTF-8; 2829: with it),
 * that answer NEW-ENVIRON (COLORTERM and LANG), and a client that says
 * nothing at all. Then a player's own choice: kept by an account across
 * connections, a guest's for the connection only; and a watcher's display
 * is its own, not the player's. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "combat.h"
#include "display.h"
#include "game.h"
#include "palette.h"
#include "plan.h"
#include "play.h"
#include "view.h"

#define OPTIONS "Options: how the screen is drawn"

/* From the lobby menu (or a game, with "O"): the options screen. */
static void open_options(tclient_t *c, const char *key)
{
    ck_assert(cl_key(c, key));
    play_wait_text(c, OPTIONS);
}

static void close_options(tclient_t *c)
{
    ck_assert(cl_key(c, "\x1b"));
    if (!cl_wait_no_text(c, OPTIONS, CL_WAIT_MS))
        play_fail(c, "the options screen did not close");
}

/* The options screen says what the client said and what it is drawn
 * with. */
static void expect_display(tclient_t *c, const char *said, const char *drawn)
{
    char line[128];
    snprintf(line, sizeof line, "Your terminal says: %s", said);
    play_wait_text(c, line);
    snprintf(line, sizeof line, "Drawn with: %s", drawn);
    play_wait_text(c, line);
}

/* A telnet client with these options, in the lobby menu. */
static tclient_t *lobby_with(int port, const cl_opts_t *o)
{
    tclient_t *c = cl_connect(port, o);
    play_wait_text(c, "Play (as a guest)");
    if (!cl_sync(c, CL_WAIT_MS))
        play_fail(c, "no answer from the lobby");
    return c;
}

START_TEST(xterm_256color)
{
    tsrv_t *s = srv_start(NULL);
    cl_opts_t o = { .ttype = "XTERM-256COLOR" };
    tclient_t *c = lobby_with(srv_port(s), &o);
    open_options(c, "o");
    expect_display(c, "ASCII, 256 colours (XTERM-256COLOR)",
                   "ASCII, 256 colours");
    ck_assert_int_eq(cl_ttype_asked(c), 2); /* the name, then its repeat */
    ck_assert_int_eq(cl_env_asked(c), 0);
    close_options(c);
    ck_assert(cl_screen_has(c, "Play (as a guest)"));
    cl_close(c);
    srv_stop(s);
}
END_TEST

START_TEST(mtts_2825_and_2829)
{
    /* 2825 = 2048 SSL + 512 MNES + 256 truecolor + 8 256 colours + 1 ANSI:
     * the UTF-8 bit (4) is not set. 2829 sets it. */
    static const char *const m2825[] = { "MUDLET", "ANSI-256COLOR",
                                         "MTTS 2825", NULL };
    static const char *const m2829[] = { "MUDLET", "ANSI-256COLOR",
                                         "MTTS 2829", NULL };
    tsrv_t *s = srv_start(NULL);
    cl_opts_t o = { .ttypes = m2825 };
    tclient_t *a = lobby_with(srv_port(s), &o);
    open_options(a, "o");
    expect_display(a, "ASCII, truecolor (MUDLET)",
                   "ASCII, truecolor");
    ck_assert_int_eq(cl_ttype_asked(a), 4); /* three names and a repeat */
    o.ttypes = m2829;
    tclient_t *b = lobby_with(srv_port(s), &o);
    open_options(b, "O");
    expect_display(b, "UTF-8, truecolor (MUDLET)",
                   "UTF-8, truecolor");
    ck_assert_int_eq(cl_ttype_asked(b), 4);
    cl_close(a);
    cl_close(b);
    srv_stop(s);
}
END_TEST

START_TEST(new_environ)
{
    tsrv_t *s = srv_start(NULL);
    cl_opts_t o = { .ttype = "VT100",
                    .environ = "COLORTERM=truecolor\nLANG=en_US.UTF-8\n"
                               "USER=someone" };
    tclient_t *c = lobby_with(srv_port(s), &o);
    ck_assert_int_eq(cl_env_asked(c), 1);
    open_options(c, "o");
    expect_display(c, "UTF-8, truecolor (VT100)", "UTF-8, truecolor");
    cl_close(c);
    /* a locale without UTF-8 and no COLORTERM: nothing more than VT100 */
    o.environ = "LANG=C\nTERM=vt100";
    c = lobby_with(srv_port(s), &o);
    ck_assert_int_eq(cl_env_asked(c), 1);
    open_options(c, "o");
    expect_display(c, "ASCII, 16 colours (VT100)", "ASCII, 16 colours");
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A client that says nothing (nc: no telnet at all) is drawn as before:
 * ASCII and the 16 colours. */
START_TEST(nothing_said)
{
    tsrv_t *s = srv_start("--set", "negotiation_ms=100", NULL);
    cl_opts_t o = { .raw = 1 };
    tclient_t *c = cl_connect(srv_port(s), &o);
    play_wait_text(c, "Play (as a guest)");
    ck_assert_int_eq(cl_send_str(c, "o"), 0);
    play_wait_text(c, OPTIONS);
    expect_display(c, "ASCII, 16 colours", "ASCII, 16 colours");
    cl_close(c);
    /* a telnet client whose only name is the plainest */
    cl_opts_t t = { .ttype = "ANSI" };
    c = lobby_with(srv_port(s), &t);
    open_options(c, "o");
    expect_display(c, "ASCII, 16 colours (ANSI)", "ASCII, 16 colours");
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* Arrow keys on the options screen: from Auto, glyphs two steps right
 * (ASCII, UTF-8), then colours two steps right (16, 256). */
static void choose_utf8_256(tclient_t *c)
{
    ck_assert(cl_key(c, "\x1b[C"));
    ck_assert(cl_key(c, "\x1b[C"));
    ck_assert(cl_key(c, "\x1b[B"));
    ck_assert(cl_key(c, "\x1b[C"));
    ck_assert(cl_key(c, "\x1b[C"));
}

START_TEST(account_keeps_its_choice)
{
    tsrv_t *s = srv_start(NULL);
    cl_opts_t plain = { .ttype = "VT100" };
    tclient_t *a = lobby_with(srv_port(s), &plain);
    play_login_dave(a, 1);
    open_options(a, "o");
    expect_display(a, "ASCII, 16 colours (VT100)", "ASCII, 16 colours");
    ck_assert(cl_screen_has(a, "Your account keeps this choice."));
    choose_utf8_256(a);
    expect_display(a, "ASCII, 16 colours (VT100)", "UTF-8, 256 colours");
    close_options(a);
    ck_assert(cl_key(a, "l")); /* log out */
    play_wait_text(a, "Logged out of dave");
    cl_close(a);

    /* the next login, from a client that says nothing more than VT100 */
    tclient_t *b = lobby_with(srv_port(s), &plain);
    open_options(b, "o");
    expect_display(b, "ASCII, 16 colours (VT100)", "ASCII, 16 colours");
    close_options(b);
    play_login_dave(b, 0);
    play_wait_text(b, "Play as dave"); /* the menu: the saved-game check is over */
    open_options(b, "o");
    expect_display(b, "ASCII, 16 colours (VT100)", "UTF-8, 256 colours");
    close_options(b);
    cl_close(b);

    /* a guest's choice lasts its connection only */
    tclient_t *g = lobby_with(srv_port(s), &plain);
    open_options(g, "o");
    ck_assert(cl_screen_has(g, "A guest's choice lasts this connection"));
    choose_utf8_256(g);
    expect_display(g, "ASCII, 16 colours (VT100)", "UTF-8, 256 colours");
    close_options(g);
    cl_close(g);
    g = lobby_with(srv_port(s), &plain);
    open_options(g, "o");
    expect_display(g, "ASCII, 16 colours (VT100)", "ASCII, 16 colours");
    cl_close(g);
    srv_stop(s);
}
END_TEST

/* In a game, O opens the options over it (no turn passes) and closing
 * them shows the game again; a watcher's own options are its own. */
START_TEST(options_in_game_and_watching)
{
    static const char *const m2829[] = { "MUDLET", "MTTS 2829", NULL };
    tsrv_t *s = srv_start("--seed", "42", NULL);
    cl_opts_t po = { .ttype = "XTERM-256COLOR" };
    tclient_t *p = play_connect(srv_port(s), &po);
    int turn = cl_turn(p);
    open_options(p, "O");
    expect_display(p, "ASCII, 256 colours (XTERM-256COLOR)",
                   "ASCII, 256 colours");
    close_options(p);
    play_wait_text(p, "HP:");
    ck_assert_int_eq(cl_turn(p), turn);

    cl_opts_t wo = { .ttypes = m2829 };
    tclient_t *w = lobby_with(srv_port(s), &wo);
    play_watch_first(w, "guest1");
    open_options(w, "O");
    expect_display(w, "UTF-8, truecolor (MUDLET)",
                   "UTF-8, truecolor");
    close_options(w);
    play_wait_text(w, "Watching");
    cl_close(w);
    cl_close(p);
    srv_stop(s);
}
END_TEST

/* --- what each client is drawn with, read back through libvterm ---------- */

/* What the map rows (0..19, 80 columns) of c's screen are drawn with. */
typedef struct looks {
    int non_ascii;     /* cells with a code point beyond ASCII */
    int dots;          /* U+00B7, the UTF-8 floor */
    int boxes;         /* U+2500..U+25FF, the UTF-8 walls */
    int hashes;        /* '#', the ASCII walls */
    int rgb;           /* foregrounds in 24-bit RGB */
    int palette;       /* foregrounds in xterm's 256 beyond the first 16 */
    int off_cube;      /* ...of them, not the index of a tone on_cube */
    int ansi;          /* foregrounds among the 16 (or the default) */
} looks_t;

/* 1 if xterm index i is that of a palette tone on xterm's cube, which a
 * truecolor client is sent by index (palette.h). */
static int index_on_cube(int i)
{
    for (int col = COL_DEFAULT + 1; col < COL_EXT_END; col++) {
        const palette_colour_t *p = palette_colour((uint8_t)col);
        if (p->on_cube && p->xterm == i)
            return 1;
    }
    return 0;
}

static looks_t looks_of(const tclient_t *c)
{
    looks_t l;
    memset(&l, 0, sizeof l);
    for (int y = 0; y < 20; y++)
        for (int x = 0; x < 80; x++) {
            cl_cell_t cell;
            ck_assert_int_eq(cl_cell(c, x, y, &cell), 0);
            if (cell.ch == ' ')
                continue;
            l.non_ascii += cell.ch >= 128;
            l.dots += cell.ch == 0xb7;
            l.boxes += cell.ch >= 0x2500 && cell.ch <= 0x25ff;
            l.hashes += cell.ch == '#';
            if (cell.fg == -2)
                l.rgb++;
            else if (cell.fg > 15) {
                l.palette++;
                l.off_cube += !index_on_cube(cell.fg);
            }
            else
                l.ansi++;
        }
    return l;
}

/* The game on c's screen is drawn with these glyphs and colours. */
static void expect_drawn(const tclient_t *c, int glyphs, int colours)
{
    looks_t l = looks_of(c);
    if (glyphs == GLYPHS_UTF8 && (l.dots == 0 || l.boxes == 0 || l.hashes))
        play_fail(c, "not UTF-8 glyphs: %d dots, %d box cells, %d '#'",
                  l.dots, l.boxes, l.hashes);
    if (glyphs == GLYPHS_ASCII && (l.non_ascii || l.hashes == 0))
        play_fail(c, "not ASCII: %d cells beyond ASCII, %d '#'", l.non_ascii,
                  l.hashes);
    /* Truecolor: the tones on xterm's cube come by index (the lit ones),
     * the others (the remembered ones) as RGB, so a screen with nothing
     * remembered yet looks as in 256 colours (expect_rgb_after_walk). */
    int ok = colours == COLOURS_TRUE ? l.rgb + l.palette > 0 && l.off_cube == 0
           : colours == COLOURS_256 ? l.palette > 0 && l.rgb == 0
           : l.rgb == 0 && l.palette == 0;
    if (!ok)
        play_fail(c, "not colours %d: %d RGB, %d of the 256, %d of the 16",
                  colours, l.rgb, l.palette, l.ansi);
    /* and the encoder's bytes say the same */
    if (colours != COLOURS_TRUE)
        ck_assert(!cl_stream_has(c, "\x1b[38;2;") &&
                  !cl_stream_has(c, ";38;2;"));
    ck_assert_int_eq(cl_stream_has(c, "\x1b[38;5;") ||
                     cl_stream_has(c, ";38;5;"), colours != COLOURS_16);
}

/* After the walk (play_walk_keys, 80 keys, from play_walk_seed's game)
 * c shows remembered tiles, and in RGB: a truecolor client, not a
 * 256-colour one. */
static void expect_rgb_after_walk(tclient_t *c, int glyphs)
{
    play_walk_keys(c, 80);
    expect_drawn(c, glyphs, COLOURS_TRUE);
    looks_t l = looks_of(c);
    if (l.rgb == 0)
        play_fail(c, "no RGB after the walk: %d of the 256", l.palette);
    ck_assert(cl_stream_has(c, "\x1b[38;2;") || cl_stream_has(c, ";38;2;"));
}

/* Nothing on c's screen is beyond ASCII, and no colour beyond the 16. */
static void expect_drawn_none_beyond_ascii(const tclient_t *c)
{
    for (int y = 0; y < cl_h(c); y++)
        for (int x = 0; x < cl_w(c); x++) {
            cl_cell_t cell;
            ck_assert_int_eq(cl_cell(c, x, y, &cell), 0);
            if (cell.ch >= 128 || cell.fg > 15 || cell.fg < -1 ||
                cell.bg > 15 || cell.bg < -1)
                play_fail(c, "cell (%d,%d): U+%04X fg %d bg %d", x, y,
                          (unsigned)cell.ch, cell.fg, cell.bg);
        }
}

/* A colour of the view (COL_*) as the client's terminal holds it after
 * the encoder sent it for colour depth `colours`: an index (0-255), -1
 * for the default, or -2 with *rgb. */
static int colour_seen(uint8_t col, int colours, uint32_t *rgb)
{
    *rgb = 0;
    if (col == COL_DEFAULT)
        return -1;
    const palette_colour_t *p = palette_colour(col);
    if (!p)
        return col; /* one of the 16, alike in every depth */
    if (colours == COLOURS_16)
        return p->fallback;
    if (colours == COLOURS_256 || p->on_cube)
        return p->xterm; /* truecolor: a tone on xterm's cube by index */
    *rgb = (uint32_t)p->r << 16 | (uint32_t)p->g << 8 | p->b;
    return -2;
}

/* The map rows of c's screen are, cell for cell (code point, foreground
 * and background as the terminal holds them), what the view draws of g
 * for display d. Returns how many cells are remembered tiles (the
 * palette's cool tone), so that a test knows it saw some. */
static int expect_map_is(const tclient_t *c, const game_t *g, display_t d)
{
    screen_t want;
    ck_assert_int_eq(screen_init(&want, cl_w(c), cl_h(c)), 0);
    view_draw_display(g, &d, &want);
    /* an ended game is a replay's here: its keys line
     * (SESS_END_KEYS_VIEWER) */
    view_end_keys(g, &want, "Esc or q: back to the lobby");
    int remembered = 0;
    for (int y = 0; y < MAP_H - 1; y++)
        for (int x = 0; x < MAP_W; x++) {
            const cell_t *w = screen_cat(&want, x, y);
            cl_cell_t got;
            uint32_t fg_rgb, bg_rgb;
            ck_assert_int_eq(cl_cell(c, x, y, &got), 0);
            int fg = colour_seen(w->fg, d.colours, &fg_rgb);
            int bg = colour_seen(w->bg, d.colours, &bg_rgb);
            if (got.ch != w->ch || got.fg != fg || got.bg != bg ||
                got.fg_rgb != fg_rgb || got.bg_rgb != bg_rgb)
                play_fail(c, "cell (%d,%d) is U+%04X fg %d/%06x bg %d/%06x, "
                          "not U+%04X fg %d/%06x bg %d/%06x", x, y,
                          (unsigned)got.ch, got.fg, (unsigned)got.fg_rgb,
                          got.bg, (unsigned)got.bg_rgb, (unsigned)w->ch, fg,
                          (unsigned)fg_rgb, bg, (unsigned)bg_rgb);
            remembered += w->fg >= COL_MEM_WALL && w->fg <= COL_MEM_ITEM;
        }
    screen_free(&want);
    return remembered;
}

/* After a walk of 80 keys, the map is exactly what the view draws for
 * each client's display: lit tiles, remembered ones, monsters, items. */
START_TEST(map_exact_per_display)
{
    static const char *const m2829[] = { "MUDLET", "MTTS 2829", NULL };
    static const char *const m2825[] = { "MUDLET", "MTTS 2825", NULL };
    static const struct { cl_opts_t o; display_t d; } clients[] = {
        { { .ttype = "ANSI" }, { GLYPHS_ASCII, COLOURS_16 } },
        { { .ttype = "XTERM-256COLOR" }, { GLYPHS_ASCII, COLOURS_256 } },
        { { .ttypes = m2825 }, { GLYPHS_ASCII, COLOURS_TRUE } },
        { { .ttypes = m2829 }, { GLYPHS_UTF8, COLOURS_TRUE } },
        { { .ttype = "VT100", .environ = "LANG=C.UTF-8\nTERM=xterm-256color" },
          { GLYPHS_UTF8, COLOURS_256 } },
    };
    char seed[32];
    uint64_t sd = play_walk_seed();
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)sd);
    tsrv_t *s = srv_start("--seed", seed, NULL);
    game_t *g = game_new(sd, NULL);
    for (int i = 0; i < 80; i++)
        game_key(g, play_walk_key(i));
    for (size_t i = 0; i < sizeof clients / sizeof clients[0]; i++) {
        /* every guest's game has the server's seed: the same walk */
        tclient_t *c = play_connect(srv_port(s), &clients[i].o);
        play_walk_keys(c, 80);
        ck_assert_int_eq(cl_turn(c), (int)g->turn);
        int remembered = expect_map_is(c, g, clients[i].d);
        /* the palette's tones are for 256 colours and truecolor only */
        if (clients[i].d.colours != COLOURS_16)
            ck_assert_int_gt(remembered, 0);
        cl_close(c);
    }
    game_free(g);
    srv_stop(s);
}
END_TEST

START_TEST(drawn_as_said)
{
    static const char *const m2825[] = { "MUDLET", "ANSI-256COLOR",
                                         "MTTS 2825", NULL };
    static const char *const m2829[] = { "MUDLET", "ANSI-256COLOR",
                                         "MTTS 2829", NULL };
    char seed[32]; /* a game that survives the walk */
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)play_walk_seed());
    tsrv_t *s = srv_start("--seed", seed, NULL);
    cl_opts_t xterm = { .ttype = "XTERM-256COLOR" };
    tclient_t *c = play_connect(srv_port(s), &xterm);
    expect_drawn(c, GLYPHS_ASCII, COLOURS_256);
    cl_close(c);
    cl_opts_t a = { .ttypes = m2825 };
    c = play_connect(srv_port(s), &a);
    expect_drawn(c, GLYPHS_ASCII, COLOURS_TRUE);
    expect_rgb_after_walk(c, GLYPHS_ASCII);
    cl_close(c);
    cl_opts_t b = { .ttypes = m2829 };
    c = play_connect(srv_port(s), &b);
    expect_drawn(c, GLYPHS_UTF8, COLOURS_TRUE);
    expect_rgb_after_walk(c, GLYPHS_UTF8);
    cl_close(c);
    cl_opts_t env = { .ttype = "VT100",
                      .environ = "COLORTERM=truecolor\nLANG=en_US.UTF-8" };
    c = play_connect(srv_port(s), &env);
    expect_drawn(c, GLYPHS_UTF8, COLOURS_TRUE);
    expect_rgb_after_walk(c, GLYPHS_UTF8);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A client that says nothing gets exactly what it got before displays:
 * ASCII and the 16 colours, to the byte, whatever the MOTD holds. */
START_TEST(drawn_plain_when_nothing_said)
{
    tsrv_t *s = srv_start("--seed", "42", "--set", "negotiation_ms=100", NULL);
    cl_opts_t o = { .raw = 1 };
    tclient_t *c = cl_connect(srv_port(s), &o);
    play_wait_text(c, "Play (as a guest)");
    ck_assert_int_eq(cl_send_str(c, "p"), 0);
    play_wait_text(c, "Name:");
    ck_assert_int_eq(cl_send_str(c, "\r"), 0);
    play_wait_text(c, "HP:");
    int x, y;
    ck_assert_int_eq(cl_find(c, '@', &x, &y), 1);
    expect_drawn(c, GLYPHS_ASCII, COLOURS_16);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* An account's choice is drawn with after its next login; a watcher is
 * drawn with its own display, not the player's. */
START_TEST(drawn_as_chosen_and_watched)
{
    static const char *const m2829[] = { "MUDLET", "MTTS 2829", NULL };
    tsrv_t *s = srv_start("--seed", "42", NULL);
    cl_opts_t plain = { .ttype = "VT100" };
    tclient_t *a = lobby_with(srv_port(s), &plain);
    play_login_dave(a, 1);
    open_options(a, "o");
    choose_utf8_256(a);
    close_options(a);
    cl_close(a);
    tclient_t *b = lobby_with(srv_port(s), &plain);
    play_login_dave(b, 0);
    play_wait_text(b, "Play as dave");
    ck_assert(cl_key(b, "p")); /* the game, in one answered key */
    play_wait_text(b, "HP:");
    expect_drawn(b, GLYPHS_UTF8, COLOURS_256);

    cl_opts_t wo = { .ttypes = m2829 };
    tclient_t *w = lobby_with(srv_port(s), &wo);
    play_watch_first(w, "dave");
    expect_drawn(w, GLYPHS_UTF8, COLOURS_TRUE);
    expect_drawn(b, GLYPHS_UTF8, COLOURS_256);
    /* the player's choice, changed in the game, is the player's alone */
    open_options(b, "O");
    ck_assert(cl_key(b, "\x1b[D")); /* glyphs: UTF-8 -> ASCII */
    close_options(b);
    play_wait_text(b, "HP:");
    expect_drawn(b, GLYPHS_ASCII, COLOURS_256);
    static const struct { const char *key; int dx, dy; } dirs[] = {
        { "l", 1, 0 }, { "h", -1, 0 }, { "j", 0, 1 }, { "k", 0, -1 },
    };
    int d = 0;
    while (d < 3 && !play_open(b, dirs[d].dx, dirs[d].dy))
        d++;
    play_move(b, dirs[d].key, dirs[d].dx, dirs[d].dy);
    if (!cl_wait_text(w, "Turn:1", CL_WAIT_MS))
        play_fail(w, "the watcher did not follow the move");
    expect_drawn(w, GLYPHS_UTF8, COLOURS_TRUE);
    cl_close(w);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* A replay is drawn with the display of the one who watches it, not of
 * the one who played. */
START_TEST(replay_drawn_with_the_viewers_display)
{
    static const char *const m2829[] = { "MUDLET", "MTTS 2829", NULL };
    cl_opts_t ansi = { .ttype = "ANSI" };
    tsrv_t *s;
    tclient_t *c;
    game_t *g = plan_death_setup(NULL, &s, &c, &ansi, NULL);
    ck_assert(cl_key(c, "q"));
    play_wait_text(c, "Play as guest1");
    expect_drawn_none_beyond_ascii(c);

    cl_opts_t wo = { .ttypes = m2829 };
    tclient_t *r = lobby_with(srv_port(s), &wo);
    ck_assert(cl_key(r, "s"));
    play_wait_text(r, "Hall of fame");
    ck_assert(cl_key(r, "a"));
    play_wait_text(r, "Replay: guest1");
    for (int i = 0; i < 4; i++)
        ck_assert(cl_key(r, "+"));
    play_wait_replay_end(r);
    /* The end screen says the replay's keys, not the player's. */
    ck_assert(cl_screen_has(r, "Esc or q: back to the lobby"));
    ck_assert(!cl_screen_has(r, "new game"));
    display_t utf8_true = { GLYPHS_UTF8, COLOURS_TRUE };
    expect_map_is(r, g, utf8_true);
    game_free(g);
    cl_close(r);
    cl_close(c);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("caps");
    TCase *tc = tcase_create("caps");
    tcase_set_timeout(tc, 90);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, xterm_256color);
    tcase_add_test(tc, mtts_2825_and_2829);
    tcase_add_test(tc, new_environ);
    tcase_add_test(tc, nothing_said);
    tcase_add_test(tc, account_keeps_its_choice);
    tcase_add_test(tc, options_in_game_and_watching);
    tcase_add_test(tc, drawn_as_said);
    tcase_add_test(tc, map_exact_per_display);
    tcase_add_test(tc, replay_drawn_with_the_viewers_display);
    tcase_add_test(tc, drawn_plain_when_nothing_said);
    tcase_add_test(tc, drawn_as_chosen_and_watched);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
