/* target.c - the targeting cursor: a mode of the game, one key at a time
 * (the tutorials' tile picker, without its nested loop). */
#include "target.h"

#include "inventory.h"
#include "magic.h"
#include "keys.h"

void target_begin(game_t *g, int slot)
{
    int kind = g->pack[slot];
    target_t *t = &g->target;
    /* A scroll not known yet stays unknown while it is aimed (game
     * version 9: reading it told its kind, and Esc kept it, known, for
     * free): it is named by its label, aims anywhere in view (its own
     * range would tell the kind) and is learnt once cast
     * (item_cast_at). */
    t->purpose = TARGET_CAST;
    t->slot = slot;
    t->range = item_known(g, kind) ? item_stats(kind)->range : 0;
    target_cursor_home(g);
    g->mode = MODE_TARGET;
    if (item_known(g, kind)) /* a wand is zapped (game version 10) */
        game_log(g, MSG_SYSTEM,
                 "Aim the %s: move the cursor; Enter or . %s, Esc cancels.",
                 item_stats(kind)->name, item_is_wand(kind) ? "zaps" : "casts");
    else /* by its label alone: "scroll labelled JUYED AWK YACC" and the
            whole prompt is longer than a line of the log holds */
        game_log(g, MSG_SYSTEM,
                 "Aim the scroll %s: move the cursor; Enter or . casts, Esc "
                 "cancels.",
                 item_scroll_label(g, kind));
}

/* The piece in slot as the player knows it: "-1 dagger" once its
 * enchantment is known, as "You throw the -1 dagger." names it (game
 * version 10: the prompt and Esc said "dagger"). */
static const char *piece_name(const game_t *g, int slot, char *name,
                              size_t n)
{
    return item_piece_name(g, g->pack[slot], 1, g->pack_ench[slot],
                           g->pack_flags[slot], name, n);
}

void target_begin_throw(game_t *g, int slot)
{
    const item_stats_t *k = item_stats(g->pack[slot]);
    target_t *t = &g->target;
    char name[MSG_LEN];
    t->purpose = TARGET_THROW;
    t->slot = slot;
    t->range = k->range;
    target_cursor_home(g);
    g->mode = MODE_TARGET;
    game_log(g, MSG_SYSTEM,
             "Throw the %s: move the cursor; Enter or . throws, Esc cancels.",
             piece_name(g, slot, name, sizeof name));
}

int target_allowed(const game_t *g, int x, int y)
{
    const target_t *t = &g->target;
    return map_in_bounds(x, y) && game_lit(g, x, y) &&
           (t->range == 0 ||
            item_in_reach(g->player.x, g->player.y, x, y, t->range));
}

/* Chooses the cursor's tile: refused with a line (targeting goes on), or
 * the scroll is cast and a turn taken. */
static int choose(game_t *g)
{
    target_t *t = &g->target;
    if (!game_lit(g, t->x, t->y)) {
        game_log(g, MSG_INFO, "You cannot see that spot.");
        return 0;
    }
    if (!target_allowed(g, t->x, t->y)) {
        game_log(g, MSG_INFO, "That is out of range.");
        return 0;
    }
    /* With no monster in reach the cursor starts on the player, and Enter
     * threw the thing onto its own tile, or cast the scroll there (an
     * unknown one, showing no blast, burned its reader with a fireball),
     * for a turn (game version 9): refused, aiming goes on. */
    if (t->x == g->player.x && t->y == g->player.y) {
        if (t->purpose == TARGET_THROW)
            game_log(g, MSG_INFO, game_monster_in_view(g)
                                      ? "Move the cursor to what to throw at."
                                      : "There is nothing to throw at.");
        else
            game_log(g, MSG_INFO, "Move the cursor off yourself to cast it.");
        return 0;
    }
    g->mode = MODE_PLAY;
    if (t->purpose == TARGET_THROW ? item_throw_at(g, t->slot, t->x, t->y)
                                   : item_cast_at(g, t->slot, t->x, t->y))
        return 1;
    g->mode = MODE_TARGET; /* refused: aim again, or Esc */
    return 0;
}

/* Esc: nothing is spent. A throw says the thing is kept, not "put away",
 * which read as unwielding the weapon thrown (game version 9). */
static void cancel(game_t *g)
{
    const target_t *t = &g->target;
    char name[MSG_LEN];
    if (t->purpose == TARGET_THROW)
        game_log(g, MSG_INFO, "You keep the %s.",
                 piece_name(g, t->slot, name, sizeof name));
    else /* a wand with its charges left, a scroll as one */
        game_log(g, MSG_INFO, "You put the %s away.",
                 item_name(g, g->pack[t->slot],
                           item_is_wand(g->pack[t->slot])
                               ? g->pack_n[t->slot] : 1,
                           name, sizeof name));
}

int target_key(game_t *g, int key)
{
    target_t *t = &g->target;
    int dx, dy, x, y;
    if (game_key_direction(key, &dx, &dy)) {
        /* Along an edge, a diagonal key still moves the other way. */
        if (map_in_bounds(t->x + dx, t->y))
            t->x += dx;
        if (map_in_bounds(t->x, t->y + dy))
            t->y += dy;
        return 0;
    }
    if (game_click_tile(key, &x, &y)) {
        t->x = x;
        t->y = y;
        return choose(g);
    }
    switch (key) {
    case KEY_ENTER:
    case '\n':
    case '.':
        return choose(g);
    case KEY_ESC:
        g->mode = MODE_PLAY;
        cancel(g);
        return 0;
    default:
        return 0;
    }
}
