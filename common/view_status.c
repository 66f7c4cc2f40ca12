/* view_status.c - the status line that fits its width (view_status.h).
 *
 * The line is made of parts, each with a long and a short form. The forms
 * below are tried in order, each giving up a little more, and the first
 * that fits is drawn: at 80 columns most states fit whole; a long game at
 * 80 gives up XP's target first; at 40 the labels shrink and the gold and
 * level go, but never the effects or the turn. While an effect is shown
 * the bar outlasts the effects' long words, the long labels and the
 * double spaces: poison is when HP falls, and "Poisoned" pushed the bar
 * out of a deep game's line at 80 columns (a play-test); once given up
 * for the bar, "Pois" does not come back at a narrower width. */
#include "view_status.h"

#include <stdio.h>
#include <string.h>

enum { P_HP, P_BAR, P_LVL, P_XP, P_GOLD, P_DEPTH, P_TURN, P_EFFECTS, P_N };

/* One way to draw the line: what each part shows. */
typedef struct form {
    uint8_t xp_next;   /* XP as "130/250" (else "130") */
    uint8_t bar;       /* the 10-cell HP bar */
    uint8_t shorts;    /* "L:2 $14 D:3 T:412" rather than "Lvl:2 Gold:14 ..." */
    uint8_t gap;       /* spaces between parts: 2 or 1 */
    uint8_t xp, gold, lvl; /* shown at all */
    uint8_t eff_short; /* "Pois" rather than "Poisoned" */
    uint8_t hp_max;    /* "27/30" (else "27") */
    uint8_t when;      /* FORM_ANY, or tried only with (FORM_EFF) or
                          without (FORM_NO_EFF) an effect shown */
} form_t;

enum { FORM_ANY, FORM_EFF, FORM_NO_EFF };

/* With an effect shown, the long labels without the bar (FORM_NO_EFF)
 * would be wider than the short ones with it, and never win; after the
 * bar the effects keep their short words ("Pois"). */
static const form_t forms[] = {
    { 1, 1, 0, 2, 1, 1, 1, 0, 1, FORM_ANY },
    { 0, 1, 0, 2, 1, 1, 1, 0, 1, FORM_ANY },
    { 0, 1, 0, 2, 1, 1, 1, 1, 1, FORM_EFF },
    { 0, 1, 1, 2, 1, 1, 1, 1, 1, FORM_EFF },
    { 0, 1, 1, 1, 1, 1, 1, 1, 1, FORM_EFF },
    { 0, 0, 0, 2, 1, 1, 1, 0, 1, FORM_NO_EFF },
    { 0, 0, 1, 2, 1, 1, 1, 1, 1, FORM_ANY },
    { 0, 0, 1, 1, 1, 1, 1, 1, 1, FORM_ANY },
    { 0, 0, 1, 1, 0, 1, 1, 1, 1, FORM_ANY },
    { 0, 0, 1, 1, 0, 0, 1, 1, 1, FORM_ANY },
    { 0, 0, 1, 1, 0, 0, 0, 1, 1, FORM_ANY },
    { 0, 0, 1, 1, 0, 0, 0, 1, 0, FORM_ANY },
};
#define NFORMS (int)(sizeof forms / sizeof forms[0])

typedef struct part {
    char text[40];
    int len;          /* cells: the bar's 12 for P_BAR */
    int label;        /* P_TURN: cells before the digits */
} part_t;

static int effects_text(const game_t *g, int shorts, char *buf, size_t n)
{
    const player_t *p = &g->player;
    buf[0] = 0;
    if (p->poison > 0)
        snprintf(buf, n, "%s", shorts ? "Pois" : "Poisoned");
    if (p->haste > 0)
        snprintf(buf + strlen(buf), n - strlen(buf), "%sFast",
                 buf[0] ? " " : "");
    return (int)strlen(buf);
}

/* A part's text written as snprintf into its 40 bytes would: a label and
 * numbers, without printf (docs/performance.md, "The draw and the turn,
 * cheaper": each snprintf cost ~700 instructions, and the line is built
 * again whenever a value on it changes). */
static void text_str(char text[40], int *n, const char *str)
{
    while (*str && *n < 39)
        text[(*n)++] = *str++;
    text[*n] = 0;
}

const char *view_num(char buf[VIEW_NUM_MAX], long long v)
{
    unsigned long long u = v < 0 ? 0 - (unsigned long long)v
                                 : (unsigned long long)v;
    char *p = buf + VIEW_NUM_MAX - 1;
    *p = 0;
    do
        *--p = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        *--p = '-';
    return p;
}

static void text_num(char text[40], int *n, long long v)
{
    char digits[VIEW_NUM_MAX];
    text_str(text, n, view_num(digits, v));
}

/* text = label, a, and if b_too "/" b. */
static void text_set(char text[40], const char *label, long long a,
                     int b_too, long long b)
{
    int n = 0;
    text_str(text, &n, label);
    text_num(text, &n, a);
    if (b_too) {
        text_str(text, &n, "/");
        text_num(text, &n, b);
    }
}

/* The parts of form f (an empty text: not shown); returns the width. */
static int build(const game_t *g, const form_t *f, part_t pt[P_N])
{
    const player_t *p = &g->player;
    memset(pt, 0, sizeof(part_t) * P_N);
    text_set(pt[P_HP].text, f->hp_max && !f->shorts ? "HP: " : "HP:", p->hp,
             f->hp_max, p->max_hp);
    if (f->bar)
        pt[P_BAR].len = 12;
    if (f->lvl)
        text_set(pt[P_LVL].text, f->shorts ? "L:" : "Lvl:", p->level, 0, 0);
    if (f->xp)
        text_set(pt[P_XP].text, "XP:", p->xp, f->xp_next,
                 f->xp_next ? game_xp_next(p->level) : 0);
    if (f->gold)
        text_set(pt[P_GOLD].text, f->shorts ? "$" : "Gold:", p->gold, 0, 0);
    text_set(pt[P_DEPTH].text, f->shorts ? "D:" : "Depth:", g->depth, 0, 0);
    pt[P_TURN].label = f->shorts ? 2 : 5;
    text_set(pt[P_TURN].text, f->shorts ? "T:" : "Turn:", (unsigned)g->turn,
             0, 0);
    effects_text(g, f->eff_short, pt[P_EFFECTS].text,
                 sizeof pt[P_EFFECTS].text);
    int w = 0, shown = 0;
    for (int i = 0; i < P_N; i++) {
        if (i != P_BAR)
            pt[i].len = (int)strlen(pt[i].text);
        if (pt[i].len == 0)
            continue;
        /* The bar follows HP after one space, as it always has. */
        w += shown ? (i == P_BAR ? 1 : f->gap) : 0;
        w += pt[i].len;
        shown++;
    }
    return w;
}

static uint8_t hp_colour(int hp, int max)
{
    if (hp * 10 > max * 6)
        return COL_BGREEN;
    if (hp * 10 > max * 3)
        return COL_BYELLOW;
    return COL_BRED;
}

/* Writes str from column x, stopping at width; returns the new column. */
static int put(screen_t *s, int x, int y, int width, const char *str,
               uint8_t fg, uint8_t attr)
{
    /* As screen_put a cell at a time, the row kept already
     * (view_status_fit): the status line is drawn on most keys. */
    cell_t *row = (unsigned)y < (unsigned)s->h ? &s->cells[y * s->w] : NULL;
    for (; *str && x < width; str++, x++)
        if (row && (unsigned)x < (unsigned)s->w)
            row[x] = cell_make((uint8_t)*str, fg, COL_DEFAULT, attr);
    return x;
}

static int draw_bar(const game_t *g, const display_t *d, screen_t *s, int x,
                    int y, int width, uint8_t col)
{
    const player_t *p = &g->player;
    int utf8 = d->glyphs == GLYPHS_UTF8;
    /* Rounded down: full only at the maximum (28/30 read as full); but
     * never empty while alive (1/30 read as dead). */
    int fill = p->max_hp > 0 ? p->hp * 10 / p->max_hp : 0;
    if (fill == 0 && p->hp > 0)
        fill = 1;
    if (x < width)
        screen_put(s, x++, y, '[', COL_WHITE, COL_DEFAULT, 0);
    for (int i = 0; i < 10 && x < width; i++)
        screen_put(s, x++, y,
                   i < fill ? (utf8 ? 0x2588u : '=') : (utf8 ? 0x2591u : '-'),
                   i < fill ? col : COL_GREY, COL_DEFAULT, 0);
    if (x < width)
        screen_put(s, x++, y, ']', COL_WHITE, COL_DEFAULT, 0);
    return x;
}

/* MODE_COUNT: the count typed so far, in place of the line (as Look's
 * description is), so that the digits are seen as they are typed (the
 * log says once how a count goes). */
static int draw_count(const game_t *g, screen_t *s, int y, int width)
{
    char line[48];
    /* No number before a digit: "Count: 0" read as a count of nothing. */
    if (g->count > 0)
        snprintf(line, sizeof line, "Count: %d - then . or a direction.",
                 g->count);
    else
        snprintf(line, sizeof line, "Count: type a number.");
    if ((unsigned)y < (unsigned)s->h)
        screen_keep_row(s, y); /* put writes its cells */
    put(s, 0, y, width, line, COL_BYELLOW, ATTR_BOLD);
    return -1;
}

int view_status_fit(const game_t *g, const display_t *d, screen_t *s, int y,
                    int width)
{
    part_t pt[P_N];
    if (width > s->w)
        width = s->w;
    if (g->mode == MODE_COUNT)
        return draw_count(g, s, y, width);
    int f = 0, w = build(g, &forms[0], pt);
    int effects = g->player.poison > 0 || g->player.haste > 0;
    while (w > width && f + 1 < NFORMS)
        if (forms[++f].when != (effects ? FORM_NO_EFF : FORM_EFF))
            w = build(g, &forms[f], pt);
    uint8_t col = hp_colour(g->player.hp, g->player.max_hp);
    int x = 0, turn_x = -1, shown = 0;
    if ((unsigned)y < (unsigned)s->h)
        screen_keep_row(s, y); /* put writes its cells */
    for (int i = 0; i < P_N; i++) {
        if (pt[i].len == 0)
            continue;
        if (shown++ && i == P_BAR) /* HP's colour, as the number's */
            x = put(s, x, y, width, " ", col, ATTR_BOLD);
        else if (shown > 1)
            x = put(s, x, y, width, forms[f].gap == 1 ? " " : "  ", COL_WHITE,
                    0);
        if (i == P_BAR) {
            x = draw_bar(g, d, s, x, y, width, col);
            continue;
        }
        if (i == P_TURN)
            turn_x = x + pt[i].label;
        uint8_t fg = i == P_HP ? col
                     : i == P_EFFECTS ? (g->player.poison ? COL_BGREEN : COL_BCYAN)
                     : COL_WHITE;
        x = put(s, x, y, width, pt[i].text, fg,
                i == P_HP || i == P_EFFECTS ? ATTR_BOLD : 0);
    }
    return w > width ? -1 : turn_x;
}
