/* look.c - the look cursor and what a tile shows (look.h). */
#include "look.h"

#include "keys.h"

void look_begin(game_t *g)
{
    g->target.slot = -1;
    g->target.range = 0;
    target_cursor_home(g);
    g->mode = MODE_LOOK;
}

int look_key(game_t *g, int key)
{
    target_t *t = &g->target;
    int dx, dy;
    if (game_key_direction(key, &dx, &dy)) {
        if (map_in_bounds(t->x + dx, t->y))
            t->x += dx;
        if (map_in_bounds(t->x, t->y + dy))
            t->y += dy;
        return 0;
    }
    if (key == KEY_ENTER || key == '\n' || key == '.' || key == ';') {
        char what[MSG_LEN - 16];
        game_describe(g, t->x, t->y, what, sizeof what);
        game_log(g, MSG_INFO, "You see %s.", what);
    }
    g->mode = MODE_PLAY;
    return 0;
}
