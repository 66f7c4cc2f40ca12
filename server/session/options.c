/* options.c - the options screen (options.h): keys and drawing. */
#include "options.h"

#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "view.h"
#include "view_parts.h"

int display_choice_clean(long long stored)
{
    if (stored < 0 || stored > 15)
        return DISPLAY_CHOICE_AUTO;
    int g = display_choice_glyphs((int)stored);
    int c = display_choice_colours((int)stored);
    return display_choice(g > CHOICE_UTF8 ? CHOICE_AUTO : g, c);
}

display_t display_chosen(display_t detected, int choice)
{
    display_t d = detected;
    switch (display_choice_glyphs(choice)) {
    case CHOICE_ASCII: d.glyphs = GLYPHS_ASCII; break;
    case CHOICE_UTF8: d.glyphs = GLYPHS_UTF8; break;
    default: break;
    }
    switch (display_choice_colours(choice)) {
    case CHOICE_16: d.colours = COLOURS_16; break;
    case CHOICE_256: d.colours = COLOURS_256; break;
    case CHOICE_TRUE: d.colours = COLOURS_TRUE; break;
    default: break;
    }
    return d;
}

static const char *glyphs_name(int g)
{
    return g == GLYPHS_UTF8 ? "UTF-8" : "ASCII";
}

static const char *colours_name(int c)
{
    return c == COLOURS_TRUE ? "truecolor" : c == COLOURS_256 ? "256 colours"
                                                              : "16 colours";
}

const char *display_describe(display_t d, char *out, size_t n)
{
    snprintf(out, n, "%s, %s", glyphs_name(d.glyphs), colours_name(d.colours));
    return out;
}

void options_open(options_t *o, int choice)
{
    memset(o, 0, sizeof *o);
    o->open = 1;
    o->choice = (uint8_t)display_choice_clean(choice);
}

/* The line's value one step on (dir +1) or back (-1), wrapping. */
static void step(options_t *o, int dir)
{
    int g = display_choice_glyphs(o->choice);
    int c = display_choice_colours(o->choice);
    if (o->row == 0)
        g = (g + 3 + dir) % 3;
    else
        c = (c + 4 + dir) % 4;
    o->choice = (uint8_t)display_choice(g, c);
}

int options_key(options_t *o, int key)
{
    switch (key) {
    /* the numpad's digits too: a phone's key bar sends its arrows so
     * (web/index.html), and in a game O opens this screen under them */
    case KEY_UP: case 'k': case '8':
    case KEY_DOWN: case 'j': case '2':
        o->row = !o->row;
        return OPTIONS_NOTHING;
    case KEY_LEFT: case 'h': case '4':
        step(o, -1);
        return OPTIONS_CHANGED;
    case KEY_RIGHT: case 'l': case ' ': case '6':
        step(o, 1);
        return OPTIONS_CHANGED;
    case KEY_ENTER: case '\n': case KEY_ESC: case 'q': case 'Q': case 'O':
    case 'o': case KEY_CTRL_C:
        o->open = 0;
        return OPTIONS_CLOSED;
    default:
        return OPTIONS_NOTHING;
    }
}

/* One line of choices: the label, then each value, the chosen one in
 * reverse video (bright when the line is the one being changed). */
static void choice_line(screen_t *s, int x, int y, const char *label,
                        const char *const *values, int n, int chosen,
                        int current)
{
    screen_puts(s, x, y, current ? ">" : " ", COL_BYELLOW, COL_DEFAULT,
                ATTR_BOLD);
    x += 2;
    screen_puts(s, x, y, label, COL_BWHITE, COL_DEFAULT, current ? ATTR_BOLD : 0);
    x += 10;
    for (int i = 0; i < n; i++) {
        int on = i == chosen;
        x += screen_puts(s, x, y, values[i], on ? COL_BYELLOW : COL_WHITE,
                         COL_DEFAULT, on ? ATTR_REVERSE | ATTR_BOLD : 0);
        x += 2;
    }
}

/* A few map cells as the glyph set draws them (docs/game.md). */
static void sample(screen_t *s, int x, int y, int glyphs)
{
    static const uint32_t utf8[] = { 0x250c, 0x2500, 0x2500, 0x2500, 0x2500,
                                     0x2510, ' ', 0x00b7, 0x00b7, '@',
                                     0x00b7, ' ', 0x2502 };
    static const char ascii[] = "###### ..@. #";
    for (int i = 0; i < 13; i++)
        screen_put(s, x + i, y, glyphs == GLYPHS_UTF8 ? utf8[i]
                                                      : (uint32_t)ascii[i],
                   COL_WHITE, COL_DEFAULT, 0);
}

/* The letters too: the lobby's key bar on a phone has no arrows, and its
 * keyboard has no arrow keys (a play-test). */
#define OPTIONS_KEYS "k/j Up/Down: a line.  h/l Left/Right, Space: change.  " \
                     "Enter/Esc: back."
#define OPTIONS_GUEST "A guest's choice lasts this connection; an account " \
                      "keeps it."
#define OPTIONS_NOT_KEPT "Your choice could not be kept now: it holds " \
                         "until you leave."

/* The lines under the choices below 80 columns, from row 9: each wrapped
 * at spaces to the width instead of cut, one under the other with no
 * blank row (20 rows hold the longest), the keys in fewer words at the
 * bottom. says and drawn are the two lines options_draw made. */
static void draw_notes_narrow(const options_t *o, const options_info_t *in,
                              const char *says, const char *drawn,
                              int glyphs, screen_t *s)
{
    int x = 4, w = s->w - x, y = 9;
    y += view_puts_wrapped(s, x, y, w, 3, says, COL_CYAN, 0);
    y += view_puts_wrapped(s, x, y, w, 2, drawn, COL_CYAN, 0);
    sample(s, x + screen_puts(s, x, y, "Sample: ", COL_CYAN, COL_DEFAULT, 0),
           y, glyphs);
    y++;
    y += view_puts_wrapped(s, x, y, w, 2, in->account
                           ? "Your account keeps this choice." : OPTIONS_GUEST,
                           COL_GREY, 0);
    if (o->not_kept)
        y += view_puts_wrapped(s, x, y, w, 2, OPTIONS_NOT_KEPT, COL_BRED, 0);
    const char *keys = (int)strlen(OPTIONS_KEYS) <= w
        ? OPTIONS_KEYS : "k/j Up/Down: line. h/l Left/Right: change. "
                         "Esc: back.";
    int at = s->h - 2 > y ? s->h - 2 : y;
    view_puts_wrapped(s, x, at, w, s->h - at, keys, COL_GREY, 0);
}

void options_draw(const options_t *o, const options_info_t *in, screen_t *s)
{
    static const char *const glyphs[] = { "Auto", "ASCII", "UTF-8" };
    static const char *const colours[] = { "Auto", "16", "256", "truecolor" };
    screen_clear(s);
    if (!view_fits(s->w, s->h)) {
        view_draw_too_small(s);
        return;
    }
    int x = s->w > 80 ? (s->w - 80) / 2 + 4 : 4;
    char line[160], what[48];
    screen_puts(s, x, 2, "Options: how the screen is drawn", COL_BWHITE,
                COL_DEFAULT, ATTR_BOLD);
    choice_line(s, x, 5, "Glyphs", glyphs, 3,
                display_choice_glyphs(o->choice), o->row == 0);
    choice_line(s, x, 7, "Colours", colours, 4,
                display_choice_colours(o->choice), o->row == 1);
    if (in->terminal && in->terminal[0])
        snprintf(line, sizeof line, "Your terminal says: %s (%.60s)",
                 display_describe(in->detected, what, sizeof what),
                 in->terminal);
    else
        snprintf(line, sizeof line, "Your terminal says: %s",
                 display_describe(in->detected, what, sizeof what));
    display_t used = display_chosen(in->detected, o->choice);
    if (s->w < 80) {
        char drawn[64];
        snprintf(drawn, sizeof drawn, "Drawn with: %s",
                 display_describe(used, what, sizeof what));
        draw_notes_narrow(o, in, line, drawn, used.glyphs, s);
        return;
    }
    screen_puts(s, x, 10, line, COL_CYAN, COL_DEFAULT, 0);
    snprintf(line, sizeof line, "Drawn with: %s",
             display_describe(used, what, sizeof what));
    screen_puts(s, x, 11, line, COL_CYAN, COL_DEFAULT, 0);
    x += screen_puts(s, x, 12, "Sample: ", COL_CYAN, COL_DEFAULT, 0);
    sample(s, x, 12, used.glyphs);
    x = s->w > 80 ? (s->w - 80) / 2 + 4 : 4;
    screen_puts(s, x, 14, in->account
                ? "Your account keeps this choice."
                : OPTIONS_GUEST,
                COL_GREY, COL_DEFAULT, 0);
    if (o->not_kept)
        screen_puts(s, x, 15, OPTIONS_NOT_KEPT, COL_BRED, COL_DEFAULT, 0);
    screen_puts(s, x, 17, OPTIONS_KEYS, COL_GREY, COL_DEFAULT, 0);
}
