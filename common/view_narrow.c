/* view_narrow.c - the play screen below 80x24, down to 40x20 (a phone held
 * upright, a small terminal window): a window on the map that follows the
 * player (or the cursor while aiming or looking), the log wrapped to the
 * width under it, a short status line in the last row, and the pack menus
 * as a list over the whole screen. docs/game.md, "Small terminals". */
#include <stdio.h>
#include <string.h>

#include "item.h"
#include "view.h"
#include "view_parts.h"
#include "view_status.h"

static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The map window's rows in the narrow layout: the map's last row is always
 * wall (its border) and is never shown; the log keeps VIEW_NARROW_LOG. */
static int narrow_map_rows(int h)
{
    int rows = h - 1 - VIEW_NARROW_LOG;
    return rows > MAP_H - 1 ? MAP_H - 1 : rows < 1 ? 1 : rows;
}

int view_log_top(int w, int h)
{
    return view_full(w, h) ? MAP_H - 1 : narrow_map_rows(h);
}

int view_status_row(int w, int h)
{
    if (!view_full(w, h))
        return h - 1;
    /* The log's rows: from the map's last row down to the status line's
     * (h - MAP_H of them fit: 3 at 80x24). */
    int rows = h - MAP_H;
    return MAP_H - 1 + (rows < VIEW_LOG_MAX ? rows : VIEW_LOG_MAX);
}

int view_label_row(const screen_t *s, int n)
{
    int top = view_log_top(s->w, s->h);
    int end = view_status_row(s->w, s->h);
    for (int y = top; y < end; y++) {
        int used = s->w;
        while (used > 0 && screen_cat(s, used - 1, y)->ch == ' ')
            used--;
        if (s->w - used >= n)
            return y;
    }
    return -1;
}

int view_label_place(const screen_t *s, const char *const *forms, int *y)
{
    for (int i = 0; forms[i]; i++) {
        int n = (int)strlen(forms[i]);
        *y = s->w - n >= MAP_W ? 0 : view_label_row(s, n);
        if (*y >= 0)
            return i;
    }
    /* No form fits whole anywhere: the shortest would cover the least of
     * the oldest log line (the caller's choice). */
    *y = view_log_top(s->w, s->h);
    return -1;
}

int view_label_x(const screen_t *s, int n, int y)
{
    int x = s->w - n;
    if (y == 0 && x > MAP_W + 1)
        x = MAP_W + 1; /* a column apart from the map */
    return x > 0 ? x : 0;
}

/* The first of `size` cells of a window over [0, span): centred on c,
 * then moved as little as it takes to hold n too if both fit, never past
 * the edges. */
static int window_start(int c, int n, int size, int span)
{
    int start = c - size / 2;
    int lo = c < n ? c : n, hi = c < n ? n : c;
    if (hi - lo < size) {
        if (start > lo)
            start = lo;
        if (start + size - 1 < hi)
            start = hi - size + 1;
    }
    return clamp(start, 0, span - size);
}

void view_layout(const game_t *g, int w, int h, view_layout_t *lo)
{
    memset(lo, 0, sizeof *lo);
    lo->status_y = view_status_row(w, h);
    if (view_full(w, h)) {
        lo->map_w = MAP_W;
        lo->map_h = MAP_H;
        lo->log_top = MAP_H - 1;
        return;
    }
    int rows = MAP_H - 1;
    lo->map_w = w < MAP_W ? w : MAP_W;
    lo->map_h = narrow_map_rows(h);
    int cx = g->player.x, cy = g->player.y;
    /* what must show besides: the nearest monster in view (a monster in
     * view off the window made explore, travel and rest refuse for a
     * reason the player could not see) */
    int nx = cx, ny = cy, m = game_nearest_in_view(g, 0);
    if (g->mode == MODE_TARGET || g->mode == MODE_LOOK) {
        cx = nx = g->target.x;
        cy = ny = g->target.y;
    } else if (m >= 0) {
        nx = g->monsters[m].x;
        ny = g->monsters[m].y;
    }
    /* Centred on it, moved as little as it takes to show that monster
     * too, and never past the map's edges. */
    lo->map_x = window_start(cx, nx, lo->map_w, MAP_W);
    lo->map_y = window_start(cy, ny, lo->map_h, rows);
    lo->log_top = lo->map_h;
}

int view_cell_tile(const game_t *g, int w, int h, int x, int y, int *tx,
                   int *ty)
{
    view_layout_t lo;
    view_layout(g, w, h, &lo);
    if (x < 0 || y < 0 || x >= lo.map_w || y >= lo.map_h)
        return 0;
    *tx = lo.map_x + x;
    *ty = lo.map_y + y;
    return 1;
}

int view_puts_wrapped(screen_t *s, int x, int y, int w, int max_rows,
                      const char *text, uint8_t fg, uint8_t attr)
{
    enum { MAX_ROWS = 16 };
    int start[MAX_ROWS], len[MAX_ROWS];
    if (w < 1 || max_rows < 1)
        return 0;
    int n = game_text_wrap(text, w, start, len,
                      max_rows < MAX_ROWS ? max_rows : MAX_ROWS);
    for (int i = 0; i < n; i++) {
        char line[256];
        snprintf(line, sizeof line, "%.*s", len[i], text + start[i]);
        screen_puts(s, x, y + i, line, fg, COL_DEFAULT, attr);
    }
    return n;
}

/* The log, wrapped, in rows lo->log_top .. h - 2: the newest line at the
 * bottom of the lines it has (at least VIEW_NARROW_LOG rows), so that it
 * stays right under the map on a tall screen. Older messages are shown
 * whole or not at all: a wrapped message's last row alone at the top
 * ("(+20 XP)") says nothing of what it ends (a play-test at 40x20). */
static void draw_log(const game_t *g, const view_layout_t *lo, screen_t *s)
{
    enum { MAX_LINES = MSG_LEN };
    int room = s->h - 1 - lo->log_top;
    int start[MAX_LINES], len[MAX_LINES];
    /* How many rows the messages that fit whole take (the newest's, its
     * first rows lost, if it alone is taller than the room: it is drawn
     * from its last row up). */
    int used = 0;
    for (int i = 0; used < room; i++) {
        const msg_t *m = game_msg(g, i);
        if (!m)
            break;
        int n = game_text_wrap(m->text, s->w, start, len, MAX_LINES);
        if (i > 0 && used + n > room)
            break;
        used += n;
    }
    if (used < VIEW_NARROW_LOG)
        used = VIEW_NARROW_LOG;
    if (used > room)
        used = room;
    int row = lo->log_top + used - 1;
    for (int i = 0; row >= lo->log_top; i++) {
        const msg_t *m = game_msg(g, i);
        if (!m)
            break;
        int fresh = game_msg_is_new(g, i);
        uint8_t fg = fresh ? view_msg_colour(m->kind) : COL_GREY;
        int n = game_text_wrap(m->text, s->w, start, len, MAX_LINES);
        if (i > 0 && row - n + 1 < lo->log_top)
            break; /* whole, as above */
        for (int j = n - 1; j >= 0 && row >= lo->log_top; j--, row--) {
            char line[MSG_LEN];
            snprintf(line, sizeof line, "%.*s", len[j], m->text + start[j]);
            screen_puts(s, 0, row, line, fg, COL_DEFAULT,
                        fresh ? ATTR_BOLD : 0);
        }
    }
}

#define LOOK_ROWS 3 /* what Look tells, at most: over the log's last rows */
/* Look's rows above the status row are the log's: there are as many. And
 * the longest thing Look tells (a monster's name, state and blurb, under
 * MSG_LEN) fits them at 40 columns, with room for the wrap's waste. */
_Static_assert(LOOK_ROWS - 1 <= VIEW_NARROW_LOG, "Look over the log's rows");
_Static_assert(MSG_LEN + 6 + sizeof ", on the stairs down" <= 40 * LOOK_ROWS,
               "Look whole at 40 columns");

/* MODE_LOOK's words in the status row: what is under the cursor, wrapped
 * at spaces onto the rows above it when one row is too narrow (at 40
 * columns a monster's description was cut mid-word), over the log. */
static void look_status(const game_t *g, screen_t *s)
{
    char line[VIEW_LOOK_LINE];
    view_look_line(g, line, sizeof line);
    int start[LOOK_ROWS], len[LOOK_ROWS];
    int n = game_text_wrap(line, s->w, start, len, LOOK_ROWS);
    int top = s->h - n;
    for (int y = top; y < s->h; y++) /* (the log's words under it go) */
        for (int x = 0; x < s->w; x++)
            screen_put(s, x, y, ' ', COL_DEFAULT, COL_DEFAULT, 0);
    view_puts_wrapped(s, 0, top, s->w, n, line, COL_BYELLOW, ATTR_BOLD);
}

/* The pack menu's question, short enough for 40 columns. */
static const char *pack_question(const game_t *g)
{
    switch (g->mode) {
    case MODE_DROP:
        return "Drop which? (Esc: back)";
    case MODE_IDENTIFY:
        return "Identify which? (Esc: spent)";
    case MODE_THROW:
        return "Throw which? (Esc: back)";
    default:
        return "Use which? (Esc: back)";
    }
}

/* In two columns (14 columns a name at 40x20) the class's words go, which
 * the glyph beside the name says already: "? identify", "! 42 health",
 * "? ELBIB YLOH", "/ sleep (5)". Cut short instead, "scroll of i..."
 * told identify, teleportation and confusion apart by nothing (a
 * play-test at 40x20 with 18 items). */
static void drop_class_words(char *name)
{
    static const char *const words[] = {
        "scrolls labelled ", "scroll labelled ", "scrolls of ", "scroll of ",
        "potions of ", "potion of ", "wand of ", " potions", " potion",
    };
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        char *at = strstr(name, words[w]);
        if (at) {
            size_t n = strlen(words[w]);
            memmove(at, at + n, strlen(at + n) + 1);
        }
    }
}

/* The pack's menus (use, drop, identify, throw) as a list, one item a row
 * (two columns when the rows run out: drop_class_words), each with its
 * letter, named and
 * coloured as the player knows it (an unknown potion by its look), as
 * the full layout's box shows it (view.c, draw_pack). */
static void draw_pack_list(const game_t *g, screen_t *s)
{
    int used[PACK_SIZE], n = 0;
    for (int i = 0; i < PACK_SIZE; i++)
        if (view_pack_lists(g, i))
            used[n++] = i;
    screen_puts(s, 0, 0, pack_question(g), COL_BYELLOW, COL_DEFAULT,
                ATTR_BOLD);
    int rows = s->h - 3, cols = n > rows ? 2 : 1, cw = s->w / cols;
    for (int j = 0; j < n && j < rows * cols; j++) {
        int i = used[j];
        int x = (j / rows) * cw, y = 2 + j % rows;
        char line[96], name[64];
        item_slot_name(g, i, 0, name, sizeof name);
        if (cols == 2)
            drop_class_words(name);
        snprintf(line, sizeof line, "%s%s", name,
                 i == g->player.weapon ? " (wielded)"
                 : i == g->player.armor ? " (worn)" : "");
        view_pack_line_fit(line, cw - 6); /* its column, a space after */
        screen_put(s, x, y, (uint32_t)('a' + i), COL_WHITE, COL_DEFAULT, 0);
        screen_put(s, x + 1, y, ')', COL_WHITE, COL_DEFAULT, 0);
        screen_put(s, x + 3, y, (uint32_t)item_stats(g->pack[i])->glyph,
                   item_colour(g, g->pack[i]), COL_DEFAULT, ATTR_BOLD);
        screen_puts(s, x + 5, y, line, COL_WHITE, COL_DEFAULT, 0);
    }
}

void view_draw_narrow(const game_t *g, const display_t *d, screen_t *s)
{
    screen_clear(s);
    if (view_shows_pack(g)) {
        draw_pack_list(g, s);
        return;
    }
    view_layout_t lo;
    view_layout(g, s->w, s->h, &lo);
    /* The whole map drawn as the full layout draws it, then the window. */
    cell_t cells[MAP_W * MAP_H];
    screen_t map = { MAP_W, MAP_H, MAP_W * MAP_H, cells, NULL };
    view_map(g, d, &map);
    if (g->mode == MODE_TARGET)
        view_target(g, d, &map);
    if (g->mode == MODE_LOOK)
        screen_at(&map, g->target.x, g->target.y)->attr |= ATTR_REVERSE;
    for (int y = 0; y < lo.map_h; y++)
        memcpy(screen_at(s, 0, y), screen_at(&map, lo.map_x, lo.map_y + y),
               (size_t)lo.map_w * sizeof(cell_t));
    draw_log(g, &lo, s);
    if (g->mode == MODE_LOOK)
        look_status(g, s);
    else
        view_status_fit(g, d, s, s->h - 1, s->w); /* the line at this width */
}
