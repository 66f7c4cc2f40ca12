/* test_view_cache.c - the incremental view (view_cache.h) sends exactly the
 * bytes of the whole-frame path.
 *
 * Two hosts watch the same game frame by frame. The reference draws every
 * frame from scratch (view_draw) and diffs it against what its client shows
 * (screen_diff, or screen_paint after a resize or a repaint). The other does
 * what server/session/session_render.c does: begins the frame; when the
 * cache asks for the frame shown, takes the client's screen to draw over,
 * keeping each row aside before its first change (screen_keep_start), or
 * (every fourth stretch of 50 keys, the server's way for a screen taller
 * than the keep) fills the scratch screen with a copy of it; draws with
 * view_draw_cached, writes the host's lines over the log (the notice, the
 * watch line), diffs against what its client shows (screen_diff_kept, or
 * screen_diff_rows told which rows the cache left alone), keeps the frame
 * and ends it. Every frame's bytes and the encoder's terminal state must
 * be equal.
 *
 * The games: many seeds under every combat ruleset, thousands of keys each
 * from a weighted random mix (autoexplore, travel and the stairs, which go
 * deep and get the player killed; walking, resting, picking up; the pack
 * menus with letters, aiming a scroll with cursor keys, clicks, Enter and
 * Esc; looking; the help, history and character screens; quitting asked
 * and declined), a new game after each death or win; and, between frames,
 * resizes (to sizes too small to play too), frames skipped (several keys
 * before the next frame, as when a client's output is backed up), repaints,
 * and frames of another screen in between (the lobby). Each game is played
 * for each of the six displays (display.h), and the display changes now and
 * then between frames (the options screen), with or without a repaint. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "combat.h"
#include "keys.h"
#include "rng.h"
#include "screen.h"
#include "screen_diff.h"
#include "view.h"
#include "view_cache.h"

/* The six displays. */
static const display_t displays[] = {
    { GLYPHS_ASCII, COLOURS_16 },   { GLYPHS_UTF8, COLOURS_16 },
    { GLYPHS_ASCII, COLOURS_256 },  { GLYPHS_UTF8, COLOURS_256 },
    { GLYPHS_ASCII, COLOURS_TRUE }, { GLYPHS_UTF8, COLOURS_TRUE },
};
#define NDISPLAYS (int)(sizeof displays / sizeof displays[0])

/* One client, as a host keeps it. */
typedef struct host {
    screen_t shown;
    term_state_t term;
    buf_t out;
    view_cache_t cache;
    display_t display;
    screen_keep_t keep;
    int kept;        /* the last frame's rows kept, -1: not drawn so */
} host_t;

/* 1: frame_host draws over the client's screen keeping rows aside (the
 * server's way); 0: over a copy of it. */
static int keep_rows = 1;

static void host_init(host_t *h, const display_t *d)
{
    memset(h, 0, sizeof *h);
    term_state_reset(&h->term);
    term_state_set_display(&h->term, d);
    h->display = *d;
    buf_init(&h->out, 0);
    view_cache_reset(&h->cache);
}

static void host_set_display(host_t *h, const display_t *d)
{
    term_state_set_display(&h->term, d);
    h->display = *d;
}

static void host_free(host_t *h)
{
    screen_free(&h->shown);
    buf_free(&h->out);
}

/* What the host draws over the game: none, the notice on the log's row
 * above its newest line (session_render.c's draw_notice: MAP_H at 80x24,
 * lower on a taller screen; the log's top row in the narrow layout; one
 * row of it here), or a line beside the map
 * (sess_overlay_line: row 0 when wide enough, else the log's top row). */
enum { OVER_NONE, OVER_NOTICE, OVER_LINE };

static int host_overlay(screen_t *next, int over)
{
    int y = -1; /* the row written, -1: none */
    if (over == OVER_NOTICE) {
        y = view_full(next->w, next->h) ? view_status_row(next->w, next->h) - 2
                                       : view_log_top(next->w, next->h);
        for (int x = 0; x < next->w; x++)
            screen_put(next, x, y, ' ', COL_DEFAULT, COL_DEFAULT, 0);
        screen_puts(next, 0, y, "Tip: a notice over the log", COL_BYELLOW,
                    COL_DEFAULT, ATTR_BOLD);
    } else if (over == OVER_LINE) {
        static const char text[] = " Watching someone - q leaves ";
        int n = (int)sizeof text - 1;
        y = next->w - n >= MAP_W ? 0 : MAP_H - 1;
        screen_puts(next, next->w - n > 0 ? next->w - n : 0, y, text,
                    COL_BLACK, COL_BCYAN, 0);
    }
    return y;
}

/* 1: the incremental host tracks its lines over the log as the server
 * does (view_cache_track_log): an unchanged log is not redrawn. */
static int track_log;

/* Sends what turns the host's client from what it shows into next, and
 * keeps next as what it shows (rows: only the rows marked changed). */
static void send_frame(host_t *h, const screen_t *next, const uint8_t *rows,
                       const screen_scroll_t *scroll)
{
    buf_reset(&h->out);
    int rc;
    int resized = h->shown.w != next->w || h->shown.h != next->h;
    if (resized)
        rc = screen_paint(next, &h->term, &h->out);
    else
        rc = screen_diff_rows(&h->shown, next, rows, scroll, &h->term,
                              &h->out);
    ck_assert_int_eq(rc, 0);
    if (rows && !resized)
        screen_copy_rows(&h->shown, next, rows);
    else
        ck_assert_int_eq(screen_copy(&h->shown, next), 0);
}

/* The reference: the whole frame drawn and diffed. */
static void frame_full(host_t *h, const game_t *g, screen_t *next, int w,
                       int hh, int over)
{
    ck_assert_int_eq(screen_resize(next, w, hh), 0);
    view_draw_display(g, &h->display, next);
    if (view_fits(w, hh))
        host_overlay(next, over);
    /* Told where the frame may scroll as the server's host is (the bytes
     * then depend on it: the search looks for one block). */
    screen_scroll_t log;
    send_frame(h, next, NULL, view_scroll(g, w, hh, &log));
}

/* Another state's screen (the lobby): a whole screen of its own. */
static void draw_other(screen_t *next, int n)
{
    screen_clear(next);
    char line[32];
    snprintf(line, sizeof line, "The lobby, visit %d", n);
    screen_puts(next, 2, 2, line, COL_BWHITE, COL_DEFAULT, ATTR_BOLD);
}

/* A frame as session_render.c runs it: g drawn with the cache (or, g NULL,
 * another screen, `other`), the host's line, the diff told which rows the
 * cache left alone. next is the loop's scratch screen: it holds whatever
 * the last frame drawn in it was. */
static void frame_host(host_t *h, const game_t *g, int other, screen_t *next,
                       int w, int hh, int over)
{
    view_cache_begin(&h->cache, h->shown.w == w && h->shown.h == hh);
    if (track_log)
        view_cache_track_log(&h->cache);
    if (next->w != w || next->h != hh)
        ck_assert_int_eq(screen_resize(next, w, hh), 0);
    int kept = 0;
    if (g) {
        if (view_cache_wants_prime(&h->cache, w, hh) && keep_rows) {
            screen_t was = h->shown; /* next draws over the frame shown */
            h->shown = *next;
            *next = was;
            ck_assert_int_eq(screen_keep_start(next, &h->keep, &h->shown), 0);
            kept = 1;
        } else if (view_cache_wants_prime(&h->cache, w, hh)) {
            ck_assert_int_eq(screen_copy(next, &h->shown), 0);
        }
        view_draw_cached_display(g, &h->display, &h->cache, next);
    } else {
        draw_other(next, other);
    }
    if (g && view_fits(w, hh) && host_overlay(next, over) > 0 && track_log)
        view_cache_log_overdrawn(&h->cache); /* as sess_overlay_line does */
    h->kept = -1;
    screen_scroll_t log;
    if (kept) {
        screen_keep_stop(next);
        buf_reset(&h->out);
        ck_assert_int_eq(screen_diff_kept(&h->keep, next,
                                          view_cache_scroll(&h->cache, hh, &log),
                                          &h->term, &h->out),
                         0);
        h->kept = 0;
        for (int y = 0; y < hh; y++)
            h->kept += screen_kept(&h->keep, y);
        screen_t was = h->shown;
        h->shown = *next;
        *next = was;
        view_cache_end(&h->cache, 1);
        return;
    }
    uint8_t rows[VIEW_CACHE_MAX_ROWS];
    const uint8_t *hint = NULL;
    if (view_cache_rows(&h->cache, rows, hh)) {
        rows[0] = 1; /* the host's line beside the map */
        hint = rows;
    }
    send_frame(h, next, hint, view_cache_scroll(&h->cache, hh, &log));
    view_cache_end(&h->cache, 1);
}

static void frame_cached(host_t *h, const game_t *g, screen_t *next, int w,
                         int hh, int over)
{
    frame_host(h, g, 0, next, w, hh, over);
}

/* The lobby's frame on the reference host and on the other. */
static void frame_other(host_t *ref, screen_t *next_ref, host_t *inc,
                        screen_t *next_inc, int w, int hh, int n)
{
    ck_assert_int_eq(screen_resize(next_ref, w, hh), 0);
    draw_other(next_ref, n);
    send_frame(ref, next_ref, NULL, NULL);
    frame_host(inc, NULL, n, next_inc, w, hh, OVER_NONE);
}

/* A key from the weighted mix. */
static int random_key(const game_t *g, rng_t *r)
{
    static const int moves[] = { 'h', 'j', 'k', 'l', 'y', 'u', 'b', 'n',
                                 'H', 'J', 'K', 'L', KEY_UP, KEY_DOWN,
                                 KEY_LEFT, KEY_RIGHT, KEY_HOME, KEY_PGDN };
    static const int others[] = { 'i', 'd', ';', 'x', 'P', '?', '@', 'C',
                                  'Q', 'n', 'y', KEY_ESC, KEY_ENTER, ' ',
                                  'g', ',', '.', '5', 'G', 'q', '+', '-',
                                  KEY_CTRL_L, 'Z' };
    int roll = (int)rng_range(r, 0, 99);
    if (g->mode == MODE_INVENTORY || g->mode == MODE_DROP) {
        /* A letter of the pack, mostly: use, wield, read a scroll, drop. */
        if (roll < 80)
            return 'a' + (int)rng_range(r, 0, 7);
        return roll < 90 ? KEY_ESC : others[rng_range(r, 0, 23)];
    }
    if (g->mode == MODE_TARGET || g->mode == MODE_LOOK) {
        if (roll < 60)
            return moves[rng_range(r, 0, 17)];
        if (roll < 72)
            return game_click_key((int)rng_range(r, 0, MAP_W - 1),
                                  (int)rng_range(r, 0, MAP_H - 1));
        return roll < 86 ? KEY_ENTER : roll < 93 ? '.' : KEY_ESC;
    }
    if (g->mode == MODE_HELP || g->mode == MODE_HISTORY ||
        g->mode == MODE_CHARACTER || g->mode == MODE_QUIT_PROMPT)
        return roll < 50 ? others[rng_range(r, 0, 23)]
                         : moves[rng_range(r, 0, 17)];
    if (roll < 28)
        return 'o';
    if (roll < 36)
        return roll < 33 ? '>' : '_';
    if (roll < 72)
        return moves[rng_range(r, 0, 17)];
    if (roll < 76)
        return 'i';
    return others[rng_range(r, 0, 23)];
}

static const int sizes[][2] = {
    { 80, 24 }, { 80, 24 }, { 80, 24 }, { 100, 30 }, { 81, 25 },
    { 132, 43 }, { 79, 24 }, { 80, 23 }, { 200, 60 }, { 90, 24 },
    { 200, 50 }, { 120, 40 },
};

/* Plays `keys` keys of games from `seed` under `ruleset`, both hosts side
 * by side, for display `di` at first; returns the frames compared. */
static long play_both(uint64_t seed, int ruleset, int di, int keys)
{
    rng_t r;
    rng_seed(&r, seed * 7919u + (uint64_t)ruleset);
    game_options_t opt = { ruleset };
    game_t *g = game_new(seed, &opt);
    ck_assert_ptr_nonnull(g);
    host_t ref, inc;
    host_init(&ref, &displays[di]);
    host_init(&inc, &displays[di]);
    /* Loop scratch: each host's, holding other frames between its own. */
    screen_t next_ref, next_inc;
    ck_assert_int_eq(screen_init(&next_ref, 80, 24), 0);
    ck_assert_int_eq(screen_init(&next_inc, 80, 24), 0);
    int w = 80, hh = 24, over = OVER_NONE, dead_frames = 0;
    long frames = 0;
    for (int k = 0; k < keys; k++) {
        int roll = (int)rng_range(&r, 0, 999);
        if (roll < 8) {
            int i = (int)rng_range(&r, 0, sizeof sizes / sizeof sizes[0] - 1);
            w = sizes[i][0];
            hh = sizes[i][1];
        } else if (roll < 14) {
            screen_free(&ref.shown); /* Ctrl-L: paint everything */
            screen_free(&inc.shown);
            term_state_reset(&ref.term);
            term_state_reset(&inc.term);
        } else if (roll < 18) {
            frame_other(&ref, &next_ref, &inc, &next_inc, w, hh, k);
            ck_assert_int_eq(inc.out.len, ref.out.len);
            ck_assert_mem_eq(inc.out.data, ref.out.data, ref.out.len);
        } else if (roll < 30) {
            over = (int)rng_range(&r, 0, 2);
        } else if (roll < 34) {
            /* Another session's frame in the loop's scratch screen. */
            draw_other(&next_inc, k);
        } else if (roll < 37) {
            /* The player picks another display; the host repaints, or
             * (the cache must cope either way) does not. */
            di = (int)rng_range(&r, 0, NDISPLAYS - 1);
            host_set_display(&ref, &displays[di]);
            host_set_display(&inc, &displays[di]);
            if (roll == 34) {
                screen_free(&ref.shown);
                screen_free(&inc.shown);
            }
        }
        if (game_dead(g) || game_over(g)) {
            if (++dead_frames > 2) {
                game_free(g);
                seed += 1000003u;
                g = game_new(seed, &opt);
                ck_assert_ptr_nonnull(g);
                dead_frames = 0;
            }
        } else {
            game_key(g, random_key(g, &r));
        }
        if (roll >= 960)
            continue; /* the client is backed up: no frame for this key */
        keep_rows = k / 50 % 4 != 3; /* the copy's way now and then */
        frame_full(&ref, g, &next_ref, w, hh, over);
        frame_cached(&inc, g, &next_inc, w, hh, over);
        ck_assert_int_eq(inc.out.len, ref.out.len);
        ck_assert_mem_eq(inc.out.data, ref.out.data, ref.out.len);
        ck_assert_mem_eq(&inc.term, &ref.term, sizeof ref.term);
        ck_assert(screen_equal(&inc.shown, &ref.shown));
        frames++;
    }
    game_free(g);
    host_free(&ref);
    host_free(&inc);
    screen_free(&next_ref);
    screen_free(&next_inc);
    keep_rows = 1;
    return frames;
}

/* The games of loop test i: i picks the ruleset and the display to start
 * with. */
static void play_games(int i)
{
    int ruleset = i % RULES_COUNT, di = i / RULES_COUNT;
    long frames = 0;
    /* One game of 400 keys in `make test`, three of 2,000 in `make soak`. */
    int games = soak_count(1, 3), keys = soak_count(400, 2000);
    for (uint64_t seed = 1; seed <= (uint64_t)games; seed++)
        frames += play_both(seed * 101u + (uint64_t)i, ruleset, di, keys);
    ck_assert_int_gt(frames, games * keys * 8 / 10);
}

START_TEST(incremental_frames_equal_full_frames)
{
    play_games(_i);
}
END_TEST

/* A game from seed 42 on a host of display di, its first frame sent. */
typedef struct walk {
    game_t *g;
    host_t h;
    screen_t next;
    int w, hh;       /* the frames' size: 80x24 unless a test sets it */
    int with_ref;    /* walk_with_ref: a second host draws it whole */
    host_t ref;
    screen_t next_ref;
} walk_t;

/* w's host on game g (w owns it now), its first frame sent. */
static void walk_begin_game(walk_t *w, game_t *g, int di)
{
    w->with_ref = 0;
    w->w = 80;
    w->hh = 24;
    w->g = g;
    ck_assert_ptr_nonnull(w->g);
    host_init(&w->h, &displays[di]);
    ck_assert_int_eq(screen_init(&w->next, 80, 24), 0);
    frame_cached(&w->h, w->g, &w->next, 80, 24, OVER_NONE);
}

static void walk_begin(walk_t *w, int di)
{
    walk_begin_game(w, game_new(42, NULL), di);
}

static void walk_end(walk_t *w)
{
    game_free(w->g);
    host_free(&w->h);
    screen_free(&w->next);
    if (w->with_ref) {
        host_free(&w->ref);
        screen_free(&w->next_ref);
    }
}

/* walk_begin, and a second host drawing the game whole (the reference),
 * its first frame drawn. */
static void walk_with_ref_game(walk_t *w, game_t *g, int di)
{
    walk_begin_game(w, g, di);
    w->with_ref = 1;
    host_init(&w->ref, &displays[di]);
    ck_assert_int_eq(screen_init(&w->next_ref, 80, 24), 0);
    frame_full(&w->ref, w->g, &w->next_ref, 80, 24, OVER_NONE);
}

static void walk_with_ref(walk_t *w, int di)
{
    walk_with_ref_game(w, game_new(42, NULL), di);
}

/* The next frame of w's game, drawn whole by the reference and over the
 * last one by w's host: the same bytes. */
static void frames_agree(walk_t *w)
{
    frame_full(&w->ref, w->g, &w->next_ref, w->w, w->hh, OVER_NONE);
    frame_cached(&w->h, w->g, &w->next, w->w, w->hh, OVER_NONE);
    ck_assert_int_eq(w->h.out.len, w->ref.out.len);
    ck_assert_mem_eq(w->h.out.data, w->ref.out.data, w->ref.out.len);
    ck_assert(screen_equal(&w->h.shown, &w->ref.shown)); /* cell for cell */
}

/* The modes the cache draws in full must come back to it: a game that
 * only walks sends, after the first frame, frames drawn incrementally (the
 * cache says which rows it left alone, and the host kept only some rows
 * aside), for every display (_i). */
START_TEST(walking_is_drawn_incrementally)
{
    walk_t w;
    walk_begin(&w, _i);
    static const int keys[] = { 'h', 'l', 'h', 'l', '?', KEY_ESC, 'h', 'l' };
    uint8_t rows[24];
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        game_key(w.g, keys[i]);
        frame_cached(&w.h, w.g, &w.next, 80, 24, OVER_NONE);
        int incremental = view_cache_rows(&w.h.cache, rows, 24);
        ck_assert_int_eq(incremental, i <= 3 || i >= 6);
        /* The play screen with its whole map (drawn over the last frame
         * or in full): only the log's rows can scroll; the help: any. */
        screen_scroll_t log;
        const screen_scroll_t *in = view_cache_scroll(&w.h.cache, 24, &log);
        int in_place = keys[i] != '?';
        ck_assert_int_eq(in != NULL, in_place);
        if (in_place) {
            ck_assert_int_eq(in->top, MAP_H - 1);
            ck_assert_int_eq(in->bot, view_status_row(80, 24) - 1);
        }
        /* Drawn over the frame shown, a step keeps aside only the rows it
         * changes (the player's, the log's three, the status line's: no
         * whole copy); the help screen, drawn in full, all of them. */
        if (incremental)
            ck_assert(w.h.kept > 0 && w.h.kept <= 12);
        else if (keys[i] == '?')
            ck_assert_int_eq(w.h.kept, 24);
    }
    walk_end(&w);
}
END_TEST

/* The same games with the host tracking its lines over the log, as the
 * server does (view_cache_track_log): the log is left alone while it does
 * not change, and every frame's bytes are still the whole-frame path's
 * (new games, the host's lines coming and going, frames skipped). */
START_TEST(incremental_frames_equal_full_frames_tracking_log)
{
    track_log = 1;
    play_games(_i);
    track_log = 0;
}
END_TEST

/* With the log tracked, a step that logs nothing leaves the log's rows
 * unmarked; the host's notice over it marks them, and the frame after it
 * redraws them (its bytes: the first test). */
START_TEST(an_unchanged_log_is_not_redrawn)
{
    track_log = 1;
    walk_t w;
    walk_begin(&w, _i);
    game_t *g = w.g;
    uint8_t rows[24];
    static const int keys[] = { 'h', 'l', 'h', 'l' };
    int left = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        uint32_t logged = g->log_total;
        game_key(g, keys[i]);
        int over = i == 2 ? OVER_NOTICE : OVER_NONE;
        frame_cached(&w.h, g, &w.next, 80, 24, over);
        ck_assert(view_cache_rows(&w.h.cache, rows, 24));
        int marked = rows[MAP_H - 1] | rows[MAP_H] | rows[MAP_H + 1];
        if (over == OVER_NOTICE || i == 3 || g->log_total != logged)
            ck_assert_int_eq(marked, 1); /* i == 3: the notice went */
        else
            left += !marked;
    }
    ck_assert_int_gt(left, 0);
    track_log = 0;
    walk_end(&w);
}
END_TEST

/* With the log tracked, a key that only turns the newest line grey, or
 * merges a repeat into it, redraws only that line's row: the rows of the
 * lines that did not change are left unmarked (view_cache.c, draw_log),
 * and every frame's bytes are the whole-frame path's. */
START_TEST(only_the_log_rows_that_changed_are_redrawn)
{
    track_log = 1;
    walk_t w;
    walk_with_ref(&w, _i);
    game_t *g = w.g;
    uint8_t rows[24];
    game_log(g, MSG_INFO, "The first line.");
    game_log(g, MSG_INFO, "The second line.");
    game_log(g, MSG_INFO, "The third line.");
    g->log_fresh = g->log_total - 1; /* the third is new */
    frames_agree(&w);
    ck_assert(view_cache_rows(&w.h.cache, rows, 24));
    ck_assert(rows[MAP_H - 1] && rows[MAP_H] && rows[MAP_H + 1]);
    for (int step = 0; step < 2; step++) {
        if (step == 0)
            g->log_fresh = g->log_total; /* the third turns grey */
        else
            game_log(g, MSG_INFO, "The third line."); /* "... (x2)" */
        frames_agree(&w);
        ck_assert(view_cache_rows(&w.h.cache, rows, 24));
        ck_assert_int_eq(rows[MAP_H + 1], 1);
        ck_assert_int_eq(rows[MAP_H - 1] | rows[MAP_H], 0);
    }
    track_log = 0;
    walk_end(&w);
}
END_TEST

/* With the log tracked, a line taken back (game_log_unsay: autopickup's
 * "You see a dagger here.") with nothing logged after it, at the same
 * key: the log's rows are drawn again, the frame's bytes the whole-frame
 * path's (log_total alone stayed the same, and the rows were left as they
 * were: no bytes). */
START_TEST(a_line_taken_back_is_redrawn)
{
    track_log = 1;
    walk_t w;
    walk_with_ref(&w, _i);
    game_t *g = w.g;
    uint8_t rows[24];
    for (int i = 0; i < 5; i++)
        game_log(g, MSG_INFO, "Line %d.", i);
    frames_agree(&w);
    for (int i = 0; i < 2; i++) {
        game_log_unsay(g, i); /* "Line 4." then "Line 2." */
        frames_agree(&w); /* the same bytes, drawn over the last frame */
        ck_assert(view_cache_rows(&w.h.cache, rows, 24));
    }
    ck_assert_str_eq(game_msg(g, 0)->text, "Line 3.");
    ck_assert_str_eq(game_msg(g, 1)->text, "Line 1.");
    track_log = 0;
    walk_end(&w);
}
END_TEST

/* On a tall terminal (200x50, 100x30: _i / NDISPLAYS) the log has up to
 * VIEW_LOG_MAX rows and the status line sits under them, the rows below
 * blank. Drawn over the last frame as the log fills its rows, every
 * frame's bytes are the whole-frame path's; the cache marks the log's rows
 * that changed, never the status line when its values did not, nor a row
 * below it; a new game's frame (its log shorter again) is the same. */
START_TEST(a_tall_screen_keeps_the_rows_below_the_status_line_blank)
{
    static const int tall[][2] = { { 200, 50 }, { 100, 30 } };
    track_log = 1;
    walk_t w;
    walk_with_ref(&w, _i % NDISPLAYS);
    w.w = tall[_i / NDISPLAYS][0];
    w.hh = tall[_i / NDISPLAYS][1];
    frames_agree(&w); /* the resize: painted whole */
    uint8_t rows[VIEW_CACHE_MAX_ROWS];
    int y = view_status_row(w.w, w.hh);
    ck_assert_int_eq(y, w.hh - MAP_H < VIEW_LOG_MAX ? w.hh - 1
                                                    : MAP_H - 1 + VIEW_LOG_MAX);
    for (int k = 0; k < 14; k++) {
        game_log(w.g, MSG_INFO, "Line %d of the log.", k);
        frames_agree(&w);
        ck_assert(view_cache_rows(&w.h.cache, rows, w.hh));
        ck_assert_int_eq(rows[y - 1], 1); /* the newest line's row */
        ck_assert_int_eq(rows[y], 0);     /* no turn: the same values */
        for (int row = y + 1; row < w.hh; row++)
            ck_assert_msg(rows[row] == 0, "row %d below the status marked",
                          row);
    }
    /* A new game in the same client. */
    game_free(w.g);
    w.g = game_new(43, NULL);
    ck_assert_ptr_nonnull(w.g);
    frames_agree(&w);
    game_key(w.g, 'Z');
    frames_agree(&w);
    track_log = 0;
    walk_end(&w);
}
END_TEST

/* A key that takes no turn (a bump into a wall) leaves the map and its
 * movers as they were: none of the map's rows is drawn or marked
 * (view_cache.c, map_unchanged), and the frame's bytes are the
 * whole-frame path's. */
START_TEST(a_bump_leaves_the_map_unmarked)
{
    walk_t w;
    walk_with_ref(&w, _i);
    game_t *g = w.g;
    uint8_t rows[24];
    int bumps = 0;
    for (int i = 0; i < 60 && bumps < 2; i++) {
        uint32_t turn = g->turn;
        game_key(g, 'h');
        frames_agree(&w);
        if (g->turn != turn)
            continue;
        ck_assert(view_cache_rows(&w.h.cache, rows, 24));
        for (int y = 0; y < MAP_H - 1; y++)
            ck_assert_msg(rows[y] == 0, "map row %d marked", y);
        bumps++;
    }
    ck_assert_int_eq(bumps, 2);
    walk_end(&w);
}
END_TEST

/* A tile out of view_look8's fast range (never in play; drawn as a wall)
 * in a row found so when the level was first drawn: the steps after it
 * test that row's tiles again (view_cache.c keeps which rows had none:
 * tiles_ok), so every frame's bytes are the whole-frame path's. */
START_TEST(a_tile_out_of_range_is_drawn_after_steps)
{
    walk_t w;
    walk_with_ref(&w, _i);
    game_t *g = w.g;
    int bx = -1, by = -1;
    for (int dy = 1; dy <= 2 && bx < 0; dy++)
        for (int dx = 2; dx <= 4 && bx < 0; dx++)
            if (g->map.tile[g->player.y + dy][g->player.x + dx] == TILE_FLOOR)
                bx = g->player.x + dx, by = g->player.y + dy;
    ck_assert_int_ge(bx, 0);
    g->map.tile[by][bx] = 7;
    view_cache_reset(&w.h.cache); /* as for a new level: drawn whole */
    frames_agree(&w);
    static const int keys[] = { 'h', 'l', 'l', 'h', 'k', 'j' };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        game_key(g, keys[i]);
        frames_agree(&w);
    }
    walk_end(&w);
}
END_TEST

/* The tiles explored so far. */
static int explored_count(const game_t *g)
{
    int n = 0;
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            n += map_known(&g->map, x, y) != 0;
    return n;
}

/* A step away and back between two frames (a frame skipped: the client
 * backed up) leaves the player where the last frame saw it, but tiles
 * seen from the other place are explored now: the cache must not take the
 * map as unchanged (map_one_turn, view_cache.c). Each frame's bytes must be
 * the whole-frame path's, and the walk must have explored a tile that way
 * at least once, with the player back in place. */
START_TEST(a_step_away_and_back_between_frames)
{
    walk_t w;
    walk_with_ref(&w, _i);
    game_t *g = w.g;
    static const int there[] = { 'l', 'h', 'j', 'k', 'y', 'u', 'b', 'n' };
    static const int back[] = { 'h', 'l', 'k', 'j', 'n', 'b', 'u', 'y' };
    int seen_away = 0;
    for (int round = 0; round < 6; round++) {
        for (int i = 0; i < 8; i++) {
            int x = g->player.x, y = g->player.y, known = explored_count(g);
            game_key(g, there[i]);
            game_key(g, back[i]);
            seen_away += g->player.x == x && g->player.y == y &&
                         explored_count(g) > known;
            frames_agree(&w);
        }
        /* On to new ground for the next round. */
        for (int k = 0; k < 3; k++) {
            game_key(g, round % 2 ? 'j' : 'l');
            frames_agree(&w);
        }
    }
    ck_assert_int_gt(seen_away, 0);
    walk_end(&w);
}
END_TEST

/* A key that takes no turn (a bump into a wall) draws the movers from the
 * slots found for the frame before, without looking at every slot again:
 * the same slots as looking would find, the same bytes as the whole
 * frame. A turn looks again. */
START_TEST(a_key_taking_no_turn_keeps_the_movers_slots)
{
    walk_t w;
    walk_with_ref(&w, _i);
    game_t *g = w.g;
    static const int dirs[] = { 'h', 'k', 'l', 'j' };
    int bumps = 0, turns = 0;
    for (int k = 0; k < 80 && g->mode == MODE_PLAY; k++) {
        uint32_t turn = g->turn, found = w.h.cache.movers_found;
        game_key(g, dirs[k / 20]);
        frames_agree(&w);
        view_mover_slots_t look;
        ck_assert_int_eq(view_mover_slots(g, &look), 1);
        ck_assert_int_eq(w.h.cache.movers_kept, 1);
        ck_assert_int_eq(w.h.cache.movers.n_items, look.n_items);
        ck_assert_int_eq(w.h.cache.movers.n_monsters, look.n_monsters);
        ck_assert_mem_eq(w.h.cache.movers.items, look.items, look.n_items);
        ck_assert_mem_eq(w.h.cache.movers.monsters, look.monsters,
                         look.n_monsters);
        if (g->turn == turn) {
            bumps++;
            ck_assert_uint_eq(w.h.cache.movers_found, found);
        } else {
            turns++;
            ck_assert_uint_eq(w.h.cache.movers_found, found + 1);
        }
    }
    ck_assert_int_ge(bumps, 3);
    ck_assert_int_ge(turns, 3);
    walk_end(&w);
}
END_TEST


/* --- more movers than the cache keeps slots of ---------------------------- */

/* What view_mover_slots counts: the items seen (every item is a corpse,
 * gold or a thing) and the living monsters. */
static int seen_items(const game_t *g)
{
    int n = 0;
    for (int i = 0; i < MAX_ITEMS; i++)
        n += g->items[i].type != ITEM_NONE && g->items[i].seen;
    return n;
}

static int living_monsters(const game_t *g)
{
    int n = 0;
    for (int i = 0; i < MAX_MONSTERS; i++)
        n += g->monsters[i].alive != 0;
    return n;
}

/* 1 if the cache can keep g's movers' slots (VIEW_MOVER_SLOTS of each). */
static int movers_fit(const game_t *g)
{
    return seen_items(g) <= VIEW_MOVER_SLOTS &&
           living_monsters(g) <= VIEW_MOVER_SLOTS;
}

/* The open room of arena.h, the player in its middle and tough enough to
 * stand a crowd of rats for the walk. */
static game_t *crowd_room(void)
{
    game_t *g = arena_room(42, NULL);
    g->player.x = 20;
    g->player.y = 8;
    g->player.hp = g->player.max_hp = 5000;
    game_update_fov(g);
    return g;
}

/* Rats on tiles in view, every other one first, until n are living. */
static void crowd_of_rats(game_t *g, int n)
{
    for (int pass = 0; pass < 2; pass++)
        for (int y = 1; y <= 15; y++)
            for (int x = 1; x <= 40 && living_monsters(g) < n; x++)
                if (game_lit(g, x, y) && ((x + y) % 2 == 1 || pass == 1))
                    game_place_monster(g, MON_RAT, x, y);
    ck_assert_int_eq(living_monsters(g), n);
}

/* 67 items seen: gold on the five tiles right of the player (walking
 * right picks it up: 64 and fewer), and corpses, gold and things on every
 * other tile in view off the player's row; and, out of sight further
 * right on that row, 8 spears, seen as the walk comes near (over 64
 * again). */
static game_t *crowd_of_items(void)
{
    game_t *g = crowd_room();
    for (int x = 21; x <= 25; x++)
        ck_assert_ptr_nonnull(item_put(g, ITEM_GOLD, 0, x, 8, 10));
    int n = 5;
    for (int y = 1; y <= 15; y++)
        for (int x = 1; x <= 40 && n < 67; x++) {
            if (!game_lit(g, x, y) || y == 8 || (x + y) % 2)
                continue;
            int type = ITEM_CORPSE + n % 3;
            int kind = type == ITEM_CORPSE  ? MON_RAT
                       : type == ITEM_THING ? IK_DAGGER + n % 4
                                            : 0;
            ck_assert_ptr_nonnull(item_put(g, type, kind, x, y, 7));
            n++;
        }
    for (int x = 33; x <= 40; x++)
        ck_assert_ptr_nonnull(item_put(g, ITEM_THING, IK_SPEAR, x, 8, 0));
    ck_assert_int_eq(seen_items(g), 67);
    return g;
}

/* A key that takes a turn: a step (or a blow) towards a tile off the
 * walls. */
static int step_key(const game_t *g)
{
    static const int keys[] = { 'h', 'j', 'k', 'l' };
    static const int dx[] = { -1, 0, 0, 1 }, dy[] = { 0, 1, -1, 0 };
    for (int d = 0; d < 4; d++)
        if (map_walkable(&g->map, g->player.x + dx[d], g->player.y + dy[d]))
            return keys[d];
    ck_abort_msg("the player is walled in");
    return 0;
}

/* More movers than the cache keeps the slots of (VIEW_MOVER_SLOTS: more
 * than 64 items seen, or monsters living) are drawn by looking at every
 * slot (view_movers, not the slots kept: view_cache.c draw_movers), frame
 * after frame; the count crosses 64 both ways in the walk. Every frame is
 * the whole-frame path's, cell for cell and byte for byte, and the cache
 * kept the slots exactly when they fit. _i: the display (_i / 2), a crowd
 * of monsters (even) or of items (odd). */
START_TEST(more_movers_than_slots_are_drawn_from_every_slot)
{
    int monsters = _i % 2 == 0;
    walk_t w;
    game_t *g = monsters ? crowd_room() : crowd_of_items();
    if (monsters)
        crowd_of_rats(g, 72); /* slain as they come: 64 and fewer soon */
    walk_with_ref_game(&w, g, _i / 2);
    ck_assert_int_eq(w.h.cache.movers_kept, 0);
    /* Right along the row (picking the gold up, fighting through the
     * rats) to the wall and into it (no turn), up to the top wall and
     * into it, the help screen and back, a rest, down and left. */
    static const int keys[] = { 'l', 'l', 'l', 'l', 'l', 'l', 'l', 'l', 'l',
                                'l', 'l', 'l', 'l', 'l', 'l', 'l', 'l', 'l',
                                'l', 'l', 'l', 'l', 'k', 'k', 'k', 'k', 'k',
                                'k', 'k', 'k', 'k', '?', KEY_ESC, '5', 'j',
                                'j', 'h', 'h', 'b', 'b' };
    int over = 0, under = 0, crossed = 0, fit = 0;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        /* Down below 64 rats, a crowd again: before a key that takes a
         * turn (as in play: the slots change only in a turn,
         * view_parts.h). */
        int changed = monsters && k == 26;
        if (changed) {
            ck_assert_int_le(living_monsters(g), 64);
            crowd_of_rats(g, 72);
        }
        uint32_t turn = g->turn;
        game_key(g, changed ? step_key(g) : keys[k]);
        if (changed)
            ck_assert_uint_eq(g->turn, turn + 1);
        frames_agree(&w);
        ck_assert_int_eq(w.h.cache.movers_kept, movers_fit(g));
        over += !movers_fit(g);
        under += movers_fit(g);
        crossed += movers_fit(g) != fit;
        fit = movers_fit(g);
    }
    ck_assert_int_ge(over, 5);
    ck_assert_int_ge(under, 3);
    ck_assert_int_ge(crossed, 2); /* to the slots kept, and back */
    walk_end(&w);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("view_cache");
    TCase *tc = tcase_create("against view_draw");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, incremental_frames_equal_full_frames, 0,
                        RULES_COUNT * NDISPLAYS);
    tcase_add_loop_test(tc, walking_is_drawn_incrementally, 0, NDISPLAYS);
    tcase_add_loop_test(tc, incremental_frames_equal_full_frames_tracking_log,
                        0, RULES_COUNT * NDISPLAYS);
    tcase_add_loop_test(tc, an_unchanged_log_is_not_redrawn, 0, NDISPLAYS);
    tcase_add_loop_test(tc, only_the_log_rows_that_changed_are_redrawn, 0,
                        NDISPLAYS);
    tcase_add_loop_test(tc, a_line_taken_back_is_redrawn, 0, NDISPLAYS);
    tcase_add_loop_test(tc, a_bump_leaves_the_map_unmarked, 0, NDISPLAYS);
    tcase_add_loop_test(tc,
                        a_tall_screen_keeps_the_rows_below_the_status_line_blank,
                        0, 2 * NDISPLAYS);
    tcase_add_loop_test(tc, a_tile_out_of_range_is_drawn_after_steps, 0,
                        NDISPLAYS);
    tcase_add_loop_test(tc, a_step_away_and_back_between_frames, 0,
                        NDISPLAYS);
    tcase_add_loop_test(tc, a_key_taking_no_turn_keeps_the_movers_slots, 0,
                        NDISPLAYS);
    tcase_add_loop_test(tc, more_movers_than_slots_are_drawn_from_every_slot,
                        0, 2 * NDISPLAYS);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
