/* view.c - draws a game into a cell grid. Knows layout and colours; knows
 * nothing of escape codes (that is screen_diff.c). */
#include "view.h"

#include <stdio.h>
#include <string.h>

#include "keys.h"

int view_fits(int w, int h)
{
    return w >= VIEW_MIN_W && h >= VIEW_MIN_H;
}

static uint8_t msg_colour(int kind)
{
    switch (kind) {
    case MSG_SYSTEM: return COL_BCYAN;
    case MSG_GOOD:   return COL_BGREEN;
    case MSG_BAD:    return COL_BRED;
    case MSG_KILL:   return COL_BYELLOW;
    case MSG_LEVEL:  return COL_BMAGENTA;
    case MSG_WARN:   return COL_YELLOW;
    default:         return COL_WHITE;
    }
}

static void draw_centered(screen_t *s, int y, const char *text, uint8_t fg,
                          uint8_t attr)
{
    int x = (s->w - (int)strlen(text)) / 2;
    screen_puts(s, x < 0 ? 0 : x, y, text, fg, COL_DEFAULT, attr);
}

static void draw_too_small(screen_t *s)
{
    char line[64];
    int y = s->h / 2 - 1;
    draw_centered(s, y < 0 ? 0 : y, "Please enlarge your terminal to 80x24.",
                  COL_BYELLOW, ATTR_BOLD);
    snprintf(line, sizeof line, "(it is %dx%d now)", s->w, s->h);
    draw_centered(s, y + 1, line, COL_WHITE, 0);
}

static void draw_map(const game_t *g, screen_t *s)
{
    for (int y = 0; y < MAP_H; y++) {
        for (int x = 0; x < MAP_W; x++) {
            int lit = g->visible[y][x];
            if (!lit && !g->map.explored[y][x])
                continue;
            uint32_t ch;
            uint8_t fg;
            switch (g->map.tile[y][x]) {
            case TILE_FLOOR:  ch = '.'; fg = COL_WHITE; break;
            case TILE_STAIRS: ch = '>'; fg = COL_BYELLOW; break;
            default:          ch = '#'; fg = COL_BWHITE; break;
            }
            screen_put(s, x, y, ch, lit ? fg : COL_GREY, COL_DEFAULT, 0);
        }
    }
    screen_put(s, g->player.x, g->player.y, '@', COL_BWHITE, COL_DEFAULT,
               ATTR_BOLD);
}

static void draw_log(const game_t *g, screen_t *s)
{
    int top = MAP_H, bottom = s->h - 2; /* inclusive rows of the log */
    for (int row = bottom, i = 0; row >= top; row--, i++) {
        const msg_t *m = game_msg(g, i);
        if (!m)
            break;
        screen_puts(s, 0, row, m->text, msg_colour(m->kind), COL_DEFAULT, 0);
    }
}

static uint8_t hp_colour(int hp, int max)
{
    /* Green above 60%, yellow above 30%, red at or below (004). */
    if (hp * 10 > max * 6)
        return COL_BGREEN;
    if (hp * 10 > max * 3)
        return COL_BYELLOW;
    return COL_BRED;
}

static void draw_status(const game_t *g, screen_t *s)
{
    const player_t *p = &g->player;
    int y = s->h - 1, x = 0;
    char text[96];
    uint8_t col = hp_colour(p->hp, p->max_hp);

    snprintf(text, sizeof text, "HP: %d/%d ", p->hp, p->max_hp);
    x += screen_puts(s, x, y, text, col, COL_DEFAULT, ATTR_BOLD);
    /* A 10-cell bar: filled part in the HP colour, the rest dim. */
    int fill = p->max_hp > 0 ? (p->hp * 10 + p->max_hp - 1) / p->max_hp : 0;
    screen_put(s, x++, y, '[', COL_WHITE, COL_DEFAULT, 0);
    for (int i = 0; i < 10; i++)
        screen_put(s, x++, y, i < fill ? '=' : '-', i < fill ? col : COL_GREY,
                   COL_DEFAULT, 0);
    screen_put(s, x++, y, ']', COL_WHITE, COL_DEFAULT, 0);
    snprintf(text, sizeof text, "  Lvl:%d  XP:%d  Gold:%d  Depth:%d  Turn:%u",
             p->level, p->xp, p->gold, g->depth, (unsigned)g->turn);
    screen_puts(s, x, y, text, COL_WHITE, COL_DEFAULT, 0);
}

static const char *const help_lines[] = {
    "Keys",
    "",
    "  Move          arrow keys, or vi-keys, or the numpad:",
    "                    y k u      7 8 9",
    "                    h   l      4   6",
    "                    b j n      1 2 3",
    "                Home/End/PgUp/PgDn move diagonally",
    "  Attack        move into a monster",
    "  Wait a turn   .  or  5",
    "  Help          ?  (this screen)",
    "  Quit          Q  (asks y/n)",
    "",
    "Walls block you and cost no turn. Each move or wait is one turn.",
    "",
    "Press any key to return to the game.",
};

static void draw_help(screen_t *s)
{
    int n = (int)(sizeof help_lines / sizeof help_lines[0]);
    int x = (s->w - 64) / 2, y = (s->h - n) / 2;
    for (int i = 0; i < n; i++)
        screen_puts(s, x < 0 ? 0 : x, y + i, help_lines[i],
                    i == 0 ? COL_BYELLOW : COL_WHITE, COL_DEFAULT,
                    i == 0 ? ATTR_BOLD : 0);
}

void view_draw(const game_t *g, screen_t *s)
{
    screen_clear(s);
    if (!view_fits(s->w, s->h)) {
        draw_too_small(s);
        return;
    }
    if (g->mode == MODE_HELP) {
        draw_help(s);
        return;
    }
    draw_map(g, s);
    draw_log(g, s);
    draw_status(g, s);
}
