/* rest.c - waiting, resting and counts (rest.h). */
#include "rest.h"

#include "keys.h"

/* Heavy armour (item.h) heals on even turns only. */
static int heals_now(const game_t *g)
{
    const player_t *p = &g->player;
    return !item_pack_has(g, p->armor) || !item_stats(g->pack[p->armor])->heavy ||
           g->turn % 2 == 0;
}

int rest_wait(game_t *g)
{
    player_t *p = &g->player;
    if (p->hp < p->max_hp && !p->poison && !game_monster_in_view(g) &&
        heals_now(g))
        p->hp++;
    game_end_turn(g);
    return 1;
}

static int healed(const game_t *g)
{
    return g->player.hp >= g->player.max_hp && g->player.poison == 0;
}

/* 1 if a line logged since `since` (log_total then) is bad news for the
 * player (MSG_BAD: a blow at them, hit or miss, a theft, a summoning). */
static int bad_news_since(const game_t *g, uint32_t since)
{
    for (int i = 0; game_msg(g, i) && game_msg(g, i)->seq >= since; i++)
        if (game_msg(g, i)->kind == MSG_BAD)
            return 1;
    return 0;
}

/* 1 if the turn just taken hurt the player beyond the poison's own 1 HP
 * (`poisoned`: poison was left before it) or brought bad news: what stops
 * a rest or a count. The poison's tick does not (game version 9: each `R`
 * rested one turn while poisoned, and a count stopped after every turn,
 * with no line to say why; the poison is why one rests). */
static int hurt_since(const game_t *g, int hp, int poisoned, uint32_t since)
{
    return g->player.hp < hp - (poisoned ? 1 : 0) || bad_news_since(g, since);
}

/* The poison left would kill before it wears off (1 HP a turn, no healing
 * while it lasts): a rest or a count that went on through its ticks would
 * wait the player to death, so R is refused and a count stops after its
 * first turn, and says why. Its ticks take one of each a turn, so only a
 * blow (which stops them anyway) makes a poison deadly on the way. */
static int poison_deadly(const game_t *g)
{
    return g->player.poison > 0 && g->player.poison >= g->player.hp;
}

int rest_until_healed(game_t *g)
{
    if (game_monster_in_view(g)) {
        game_log(g, MSG_INFO, "You cannot rest with a monster in view.");
        return 0;
    }
    if (healed(g)) {
        game_log(g, MSG_INFO, "You have nothing to rest for.");
        return 0;
    }
    if (poison_deadly(g)) {
        game_log(g, MSG_WARN,
                 "Resting will not save you: the poison left would kill you.");
        return 0;
    }
    int turns = 0;
    while (turns < REST_MAX) {
        int hp = g->player.hp, poisoned = g->player.poison > 0;
        uint32_t since = g->log_total;
        rest_wait(g);
        turns++;
        if (g->mode != MODE_PLAY || hurt_since(g, hp, poisoned, since) ||
            healed(g))
            break;
        if (game_monster_in_view(g)) {
            /* none was in view: refused with one; the blow, if any,
             * told itself */
            game_tell_came(g, game_nearest_in_view(g, 0));
            break;
        }
    }
    if (g->mode == MODE_PLAY && healed(g))
        game_log(g, MSG_INFO, "You rest %d turn%s: HP %d/%d.", turns,
                 turns == 1 ? "" : "s", g->player.hp, g->player.max_hp);
    return 1;
}

/* The count's prompt is the status line's (view_status.c), not a log
 * message: logged, it stayed in the log, the history and the dump (a
 * play-test's finding, game version 11). */
void rest_count_begin(game_t *g)
{
    g->count = 0;
    g->mode = MODE_COUNT;
}

/* n waits or steps by (dx, dy); stops after the turn in which HP is lost,
 * a blow or other bad news comes (a miss or a blow for nothing too: game
 * version 9; a wait healed as much as a blow took; not the poison's own
 * HP: hurt_since), a monster not in view
 * before the turn is (named: game_tell_came; the slots in view are
 * compared, as a count may start with monsters in view and one may leave
 * as another comes), a step is a blow rather than a move or
 * ends where running stops (an item, the stairs: game version 9, where
 * the player would want to look), the poison left would kill
 * (poison_deadly), the step is refused, or the game ends. */
static int repeat(game_t *g, int n, int wait, int dx, int dy)
{
    int turns = 0;
    for (int i = 0; i < n; i++) {
        int hp = g->player.hp, poisoned = g->player.poison > 0;
        int x = g->player.x, y = g->player.y;
        uint32_t since = g->log_total;
        game_in_view_t seen;
        game_in_view(g, &seen);
        if (!(wait ? rest_wait(g) : game_step(g, dx, dy)))
            break;
        turns++;
        if (g->mode != MODE_PLAY || hurt_since(g, hp, poisoned, since) ||
            (!wait && g->player.x == x && g->player.y == y))
            break;
        if (i + 1 < n && poison_deadly(g)) {
            game_log(g, MSG_WARN, "You stop: the poison left would kill you.");
            break;
        }
        int came = game_came_into_view(g, &seen);
        if (came >= 0 || (!wait && game_stop_here(g))) {
            game_tell_came(g, came);
            break;
        }
    }
    return turns > 0;
}

int rest_count_key(game_t *g, int key)
{
    int dx = 0, dy = 0;
    if (key >= '0' && key <= '9') {
        int n = g->count * 10 + (key - '0');
        g->count = n > COUNT_MAX ? COUNT_MAX : n;
        return 0;
    }
    if (key == KEY_BACKSPACE && g->count > 0) { /* a digit back (version 11) */
        g->count /= 10;
        return 0;
    }
    int n = g->count;
    g->mode = MODE_PLAY;
    g->count = 0;
    if (key == KEY_ESC || key == KEY_BACKSPACE)
        return 0; /* the count given up, quietly (version 11) */
    int wait = key == '.' || key == '5';
    if (!wait && !game_key_direction(key, &dx, &dy)) {
        game_log(g, MSG_INFO, "Counts are for waiting and moving.");
        return 0;
    }
    if (n == 0)
        return 0;
    uint32_t lines = g->log_total;
    uint32_t turn = g->turn;
    int done = repeat(g, n, wait, dx, dy);
    /* A count of waits that nothing stopped or told of said nothing at
     * all (a play-test at full HP); now what it came to (version 11). */
    if (done && wait && g->mode == MODE_PLAY && g->log_total == lines) {
        unsigned t = (unsigned)(g->turn - turn);
        game_log(g, MSG_INFO, "You wait %u turn%s: HP %d/%d.", t,
                 t == 1 ? "" : "s", g->player.hp, g->player.max_hp);
    }
    return done;
}
