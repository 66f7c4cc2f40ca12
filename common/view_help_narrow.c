/* view_help_narrow.c - the help screens (MODE_HELP) on a terminal below
 * the full layout's 80x24 (view_full), down to 40x20 (view_fits):
 * the keys as a short list of 40 columns or less that fits 20 rows, and
 * page 2's monsters in two columns, the items' glyphs (page 1's at full
 * width) and the ruleset's rule wrapped. The
 * pages are the same two as at full width (the game keeps which one is
 * shown, the same at every size); only their words are shorter. A key
 * added to the full list (view.c's help_lines) is added here too
 * (docs/game.md, "Small terminals"). */
#include <stdio.h>

#include "combat.h"
#include "monster.h"
#include "view_parts.h"

static const char *const keys_narrow[] = {
    "Keys (? again: monsters and rules)",
    "Move    arrows, hjklyubn, numpad",
    "Run     Shift + HJKLYUBN",
    "Attack  move into a monster",
    "Travel  _ (or > off the stairs)",
    "Explore o       Wait   . or 5",
    "Autopickup A (starts off): o picks up",
    "Rest    R       Count  0, number, key",
    "Pick up g or ,  Use    i, a letter",
    "Drop    d       Throw  t, a letter",
    "Go down >       Look   ; or x",
    "Self    @ or C  Learnt \\  Redraw ^L",
    "History P       Quit   Q (asks y/n)",
    "Options O       Save   S, to lobby",
    "Aim throw/wand/scroll: move the cursor,",
    "Enter/./click fires, Esc cancels.",
    "Runs stop when a monster comes in view.",
    "Goal: the Amulet (\") at depth 12.",
    "? page 2, any other key: the game.",
};

#define KEYS_NARROW_N (int)(sizeof keys_narrow / sizeof keys_narrow[0])
_Static_assert(KEYS_NARROW_N + 1 <= 20, "the keys fit 20 rows with the rules");

static void keys_page(const game_t *g, screen_t *s)
{
    for (int i = 0; i < KEYS_NARROW_N; i++)
        screen_puts(s, 0, i, keys_narrow[i], i == 0 ? COL_BYELLOW : COL_WHITE,
                    COL_DEFAULT, i == 0 ? ATTR_BOLD : 0);
    char line[64];
    snprintf(line, sizeof line, "Combat: %s",
             combat_ruleset_name(g->opt.ruleset));
    screen_puts(s, 0, s->h - 1, line, COL_BCYAN, COL_DEFAULT, 0);
}

/* Page 2: each monster's glyph, name and first depth, two to a row
 * (20 columns each), then the game's ruleset's rule wrapped. */
static void legend_page(const game_t *g, screen_t *s)
{
    screen_puts(s, 0, 0, "Monsters, from the top down", COL_BYELLOW,
                COL_DEFAULT, ATTR_BOLD);
    int rows = (MON_COUNT + 1) / 2, y = 1, order[MON_COUNT];
    monster_kinds_by_depth(order);
    for (int k = 0; k < MON_COUNT; k++) {
        const creature_stats_t *m = monster_stats(order[k]);
        int x = k < rows ? 0 : 20;
        y = 1 + (k < rows ? k : k - rows);
        char line[24];
        screen_put(s, x, y, (uint32_t)m->glyph, m->colour, COL_DEFAULT,
                   ATTR_BOLD);
        snprintf(line, sizeof line, "%-12.12s d%d", m->name, m->min_depth);
        screen_puts(s, x + 2, y, line, COL_WHITE, COL_DEFAULT, 0);
    }
    y = 1 + rows + 1;
    /* the items' glyphs, as page 1 at full width has them */
    screen_puts(s, 0, y++, "! potion ? scroll ) weapon [ armour",
                COL_WHITE, COL_DEFAULT, 0);
    screen_puts(s, 0, y++, "/ wand $ gold % corpse \" the Amulet",
                COL_WHITE, COL_DEFAULT, 0);
    y++;
    y += view_puts_wrapped(s, 0, y, s->w, s->h - y,
                           view_rules_text(g->opt.ruleset), COL_BCYAN, 0);
    char line[64];
    snprintf(line, sizeof line, "Combat: %s. Any key returns.",
             combat_ruleset_name(g->opt.ruleset));
    int last = y < s->h - 1 ? s->h - 1 : y;
    view_puts_wrapped(s, 0, last, s->w, s->h - last, line, COL_BCYAN, 0);
}

void view_help_narrow(const game_t *g, screen_t *s)
{
    if (g->hist_off == 1)
        legend_page(g, s);
    else
        keys_page(g, s);
}
