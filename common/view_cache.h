/* view_cache.h - draws a game into the screen that holds its previous frame,
 * changing only what changed.
 *
 * view_draw redraws all 1,680 map cells, the log and the status line every
 * key, although a key changes a few dozen cells. view_draw_cached starts
 * from the frame the client shows: it rewrites only the chunks of 8 map
 * tiles whose looks changed, then the movers (items, monsters, the
 * player), the log, and the status line only when the values on it
 * changed (only the turn's digits when only the turn did). It learns what
 * changed from the game's state alone, with no calls from the game; but
 * between two frames one turn apart it relies on three facts of the game
 * (docs/game.md, "What the frame relies on"): the level's tiles change
 * only with the level, what is lit and explored changes only when the
 * field of view (a fixed radius) is worked out from the player's place,
 * and one turn moves the player at most once. An effect that breaks one
 * (a light spell, magic mapping, blindness) must change map_one_turn and
 * step_box in view_cache.c. It marks the rows it may have changed, so
 * that the encoder compares only those (screen_diff_rows).
 *
 * Only the view writes the map's cells above its last row (the host's
 * lines go right of the map or over the log), so a chunk shows what the
 * last frame drew in it. The cache keeps each chunk's look indices as the
 * last frame had them (840 bytes, a nibble a tile: memory per session is
 * a target, under which this fits) and which chunks a mover was drawn in; a chunk whose
 * looks did not change and had no mover is not worked out or compared.
 * On the plain display the others are compared with the screen as words
 * and written where they differ; on the richer displays, whose cells cost
 * more to work out (the glow, the UTF-8 walls), a chunk is also drawn when
 * what is known of a neighbour's tiles changed (UTF-8 walls join them) or
 * the player is or was beside it. After one turn only the chunks near the
 * player's two places are worked out (view_cache.c, step_box).
 *
 * The cache is about 1 KB: the status line's values, the chunks' looks,
 * the size of the frame it drew last and whether the client shows it.
 * The host keeps its side: the screen passed in holds the cache's last frame
 * when view_cache_wants_prime says so (the host fills it from what it sent),
 * and it tells the cache when a frame was not sent or drawn another way.
 *
 * The result is the same, cell for cell, as view_draw's, and the bytes sent
 * the same as the whole-frame path's (tests/unit/test_view_cache.c checks
 * that over many games). Only the play screen (the map, log and status
 * line: MODE_PLAY, MODE_QUIT_PROMPT, MODE_OVER) is drawn incrementally; the
 * other modes and a terminal too small are drawn by view_draw in full, and
 * the status line of the frame after them in full too. */
#ifndef ROGUE_VIEW_CACHE_H
#define ROGUE_VIEW_CACHE_H

#include <stdint.h>

#include "display.h"
#include "game.h"
#include "screen.h"
#include "screen_diff.h" /* screen_scroll_t */
#include "view.h"
#include "view_parts.h"

_Static_assert(VIEW_CHUNKS_X <= 16, "a map row's chunks are bits of 16");

/* The log rows whose lines the cache remembers: all the log's rows at any
 * size (VIEW_LOG_MAX); a row past them would be drawn whenever the log
 * changed. */
#define VIEW_LOG_ROWS VIEW_LOG_MAX

/* What the last frame drawn with the cache showed. All zero: nothing. */
typedef struct view_cache {
    int w, h;                        /* its size */
    uint8_t valid;                   /* the fields below describe it */
    uint8_t primed;                  /* the screen now passed holds it */
    uint8_t used;                    /* a frame was drawn with the cache
                                        since view_cache_begin */
    uint8_t incremental;             /* the last frame was drawn over the
                                        one before */
    uint8_t in_place;                /* ...it drew the play screen whole
                                        (view_scroll) */
    uint8_t status_drawn;            /* the last frame drew the status
                                        line (it drew incrementally) */
    uint32_t map_rows;               /* ...and wrote in these map rows */
    uint32_t blank_rows;             /* ...and left these map rows blank
                                        with nothing seen in them (the
                                        plain display) */
    int32_t status[8];               /* the status line's values */
    int32_t turn_x;                  /* where the turn's digits begin on
                                        it (-1: the line was cut) */
    display_t display;               /* what it was drawn for */
    uint32_t looks[MAP_H][VIEW_CHUNKS_X]; /* each chunk's look word, a
                                             nibble a tile (view_cache.c,
                                             look_pack) */
    uint16_t mover_chunks[MAP_H - 1]; /* the chunks movers were drawn in */
    int16_t px, py;                  /* where the player was */
    uint32_t tiles_ok;               /* map rows whose tiles were all in
                                        view_look8's fast range when this
                                        level's row was worked out whole
                                        (the tiles change only with the
                                        level): after a step their
                                        chunks' tiles are not tested */
    int32_t map_depth;               /* ...at this depth */
    uint32_t map_turn;               /* ...at this turn (map_one_turn) */
    /* The log (view_cache_track_log): what the last frame's was drawn
     * from, and whether the host drew over it since. */
    uint8_t log_tracked;             /* the host says when it draws over
                                        the log */
    uint8_t log_overdrawn;           /* ...and did since the last frame */
    uint8_t log_drawn;               /* this frame drew the log */
    const game_t *log_game;          /* the game, and its state the log */
    uint64_t log_seed;               /* shows: the same game at the same */
    uint32_t log_keys;               /* count of lines logged and taken */
    uint32_t log_total, log_fresh;   /* back shows the same lines */
    uint32_t log_unsaid;             /* (view_cache.c, log_kept) */
    /* What each of the log's first VIEW_LOG_ROWS rows shows: its line's
     * seq + 1, shifted, with 1 if the line is new; 0 blank. A row whose
     * line and freshness are the same is not drawn again (view_cache.c,
     * draw_log). */
    uint64_t log_rows[VIEW_LOG_ROWS];
    uint32_t log_changed;            /* ...rows this frame drew (bits) */
    /* The movers' slots (view_mover_slots) found at a state of the game
     * that a key taking no turn does not leave: the same game at the same
     * turn, depth and place, at most a key on. */
    uint8_t movers_kept;             /* movers below hold them */
    int16_t movers_px, movers_py;
    const game_t *movers_game;
    uint64_t movers_seed;
    uint32_t movers_keys, movers_turn;
    int32_t movers_depth;
    view_mover_slots_t movers;
    uint32_t movers_found;           /* frames that looked at every slot */
} view_cache_t;

/* Forgets everything but the host's view_cache_track_log: the next frame
 * is drawn in full. */
void view_cache_reset(view_cache_t *c);

/* Begins a frame. may_reuse: the caller can provide the last frame the
 * cache drew (it keeps what it sent). The frame's drawing then calls
 * view_draw_cached (with the screen filled by the caller when
 * view_cache_wants_prime says so), or draws something else; either way
 * view_cache_end follows. */
void view_cache_begin(view_cache_t *c, int may_reuse);

/* 1 if view_draw_cached would draw incrementally at w x h: the caller
 * should then fill the screen with the cache's last frame first. */
int view_cache_wants_prime(const view_cache_t *c, int w, int h);

/* Draws g into s as view_draw does. If view_cache_wants_prime was 1 for
 * s's size, s must hold the cache's last frame (plus anything drawn over
 * the log rows or right of the map since: those are redrawn); otherwise s
 * may hold anything. */
void view_draw_cached(const game_t *g, view_cache_t *c, screen_t *s);

/* view_draw_cached for display d: draws g into s as view_draw_display
 * does. A frame for another display than the last one's redraws what
 * depends on it (the map's chunks are compared anyway; the status line is
 * drawn in full), so the host need not reset the cache on a change. */
void view_draw_cached_display(const game_t *g, const display_t *d,
                              view_cache_t *c, screen_t *s);

/* The log's rows are redrawn every frame unless the host calls this once:
 * it promises to call view_cache_log_overdrawn whenever it draws over them
 * (its lines: a notice, a line beside a narrow map). Then a log that did
 * not change since the last frame (the same game, no key went back, the
 * same lines and the same of them new) is left as it is, and its rows are
 * not marked (view_cache_rows). */
void view_cache_track_log(view_cache_t *c);

/* The host drew over the log's rows in this frame (after the view): they
 * are marked changed now and redrawn in the next frame. */
void view_cache_log_overdrawn(view_cache_t *c);

/* After view_draw_cached: 1 if it drew incrementally, then rows[y] (for
 * the h rows of the screen, h at most VIEW_CACHE_MAX_ROWS) is 1 for each
 * row it may have changed and 0 for the rows it left as they were
 * (screen_diff_rows need not look at those). 0 if it drew in full. */
#define VIEW_CACHE_MAX_ROWS 256
int view_cache_rows(const view_cache_t *c, uint8_t *rows, int h);

/* Where a frame of g's screen at w x h may have scrolled, for the
 * encoder's scroll search (screen_diff.h): buf, holding the log's rows,
 * when it is the play screen with the whole map, drawn in place, so that
 * only they can have moved up (a new message); NULL when any row may have
 * (a narrow window's map follows the player; a menu). */
const screen_scroll_t *view_scroll(const game_t *g, int w, int h,
                                   screen_scroll_t *buf);

/* view_scroll for the frame view_draw_cached_display drew since
 * view_cache_begin (NULL if it drew none: the host drew another screen). */
const screen_scroll_t *view_cache_scroll(const view_cache_t *c, int h,
                                         screen_scroll_t *buf);

/* Ends a frame: sent is 1 if the screen drawn is what the client now
 * shows (the caller keeps it for the next frame), 0 if not. A frame not
 * drawn with the cache (another state's screen) invalidates it. */
void view_cache_end(view_cache_t *c, int sent);

#endif
