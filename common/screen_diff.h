/* screen_diff.h - the ANSI encoder: the fewest bytes that turn what the
 * terminal shows into the next screen.
 *
 * This is the only module that knows escape codes. It writes plain bytes into
 * a buf_t (telnet escaping is the server's job) and never a bare LF: it moves
 * the cursor with CSI sequences only. The cursor is assumed hidden. */
#ifndef ROGUE_SCREEN_DIFF_H
#define ROGUE_SCREEN_DIFF_H

#include "buf.h"
#include "display.h"
#include "screen.h"

/* What the encoder believes the terminal's cursor and pen are after the
 * bytes it last produced. One per client; zeroed by term_state_reset. */
typedef struct term_state {
    int x, y;          /* cursor; -1 when unknown */
    uint8_t fg, bg, attr;
    uint8_t pen_known; /* 0 until the encoder has set the pen */
    uint8_t utf8;      /* 1: emit UTF-8 for code points >= 128; 0: '?' */
    uint8_t colours;   /* enum display_colours: how palette.h's colours
                          are sent (SGR 38;5, 38;2 or the 16-colour
                          fallback); the ANSI 16 are sent alike in all */
    uint32_t pen_word; /* fg, bg and attr as a cell's pen bits (a cell's
                          word masked), when pen_known */
} term_state_t;

/* Forgets cursor and pen (after anything else wrote to the terminal); keeps
 * utf8 and colours. */
void term_state_reset(term_state_t *t);

/* Encodes for display d from now on: UTF-8 for GLYPHS_UTF8, and d's colour
 * depth. A change of colour depth forgets the pen (the terminal's colour
 * was set in the other depth's terms). What the terminal shows was encoded
 * for the old display: the host repaints after a change. */
void term_state_set_display(term_state_t *t, const display_t *d);

/* A diff longer (in bytes) than the cells over this is also tried as a
 * full repaint, kept if shorter, when the repaint could be shorter
 * (screen_floor.h): a diff under it is kept as it is. At 4 (a quarter of
 * the cells) rather than 8 the floor is counted on a fifteenth as many of
 * a game's frames, for 36 bytes more in 3 MB of the bot's frames
 * (docs/performance.md, "The scroll search told where"). */
#define SCREEN_PAINT_TRY_DIVISOR 4

/* Clears the terminal and paints every non-blank cell of next.
 * Returns 0, or -1 if out ran out of room (out then holds a partial frame). */
int screen_paint(const screen_t *next, term_state_t *t, buf_t *out);

/* Appends the bytes that turn a terminal showing `shown` into `next`.
 * Both must have the same size (otherwise it paints next in full).
 * Appends nothing when they are equal. Returns 0 or -1 as screen_paint. */
int screen_diff(const screen_t *shown, const screen_t *next, term_state_t *t,
                buf_t *out);

/* Where a frame's rows may have scrolled (a block moved up, as a message
 * log does): rows top..bot. The encoder looks for such a block there
 * alone; told NULL, anywhere. A host that knows its frame scrolls only in
 * one region (the log under a map drawn in place) saves the search of the
 * rest (docs/performance.md, "The scroll search told where"). */
typedef struct screen_scroll {
    int top, bot;
} screen_scroll_t;

/* screen_diff, told that the rows y with rows[y] == 0 (rows has next->h
 * entries, or is NULL: any row may differ) are the same in both, so it need not compare them: the same
 * bytes, for less work when a frame was drawn over the one before
 * (view_cache.h). A row marked 1 may or may not differ. scroll: NULL, or
 * the only rows a block may have moved in (the bytes may then differ from
 * screen_diff's only where a block elsewhere would have paid). */
int screen_diff_rows(const screen_t *shown, const screen_t *next,
                     const uint8_t *rows, const screen_scroll_t *scroll,
                     term_state_t *t, buf_t *out);

/* screen_diff for a next drawn over the frame shown while keeping its rows
 * (screen_keep_start, stopped before this): the terminal shows keep->old's
 * rows where keep kept them and next's elsewhere. Only the kept rows are
 * compared; the same bytes as screen_diff from the frame before (scroll:
 * as screen_diff_rows). */
int screen_diff_kept(const screen_keep_t *keep, const screen_t *next,
                     const screen_scroll_t *scroll, term_state_t *t,
                     buf_t *out);

#endif
