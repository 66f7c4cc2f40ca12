/* view_know.c - the discoveries screen (view_know.h; docs/game.md,
 * "Unknown items"). */
#include "view_know.h"

#include <stdio.h>

#include "view_parts.h"

/* The discoveries' order, by class: the potions, then the scrolls (in
 * the kinds' order the potion of speed came after every scroll: a
 * play-test). */
static int class_of(int glyph)
{
    return glyph == '!' ? 0 : glyph == '?' ? 1 : 2;
}

void view_discoveries(const game_t *g, screen_t *s)
{
    char line[96], was[64];
    int y = 1, n = 0;
    screen_puts(s, 2, y, "Discoveries", COL_BYELLOW, COL_DEFAULT, ATTR_BOLD);
    y += 2;
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < IK_COUNT && y < s->h - 2; k++) {
            if (class_of(item_stats(k)->glyph) != c || !item_is_magic(k) ||
                !item_known(g, k))
                continue;
            item_unknown_name(g, k, was, sizeof was);
            snprintf(line, sizeof line, "%s: %s", was, item_stats(k)->name);
            screen_put(s, 2, y, (uint32_t)item_stats(k)->glyph,
                       item_colour(g, k), COL_DEFAULT, ATTR_BOLD);
            y += view_puts_wrapped(s, 4, y, s->w - 4, 2, line, COL_WHITE, 0);
            n++;
        }
    static const char none[] = "You have learned nothing yet: use a potion "
                               "or a scroll, or read identify.";
    if (n == 0) /* broken at spaces where it does not fit */
        y += view_puts_wrapped(s, 2, y, s->w - 2, 3, none, COL_WHITE, 0);
    screen_puts(s, 2, y + 1, "Press any key to return.", COL_BCYAN,
                COL_DEFAULT, 0);
}
