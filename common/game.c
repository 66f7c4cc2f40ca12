/* game.c - the dispatcher at the top of the core (world.h shows the
 * layers): a new game, and each key to the mode that reads it. The modes
 * (inventory.c, target.c, look.c, travel.c) and the world below them
 * (world.c, turn.c, floor.c, describe.c) never call back up here. An
 * action that takes a turn ends with game_end_turn (turn.c). */
#include "game.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combat.h"
#include "keys.h"

/* The cosmetic stream is derived from the seed but never shares state with
 * the rules stream. */
#define FX_SALT 0x5deece66dULL

_Static_assert(sizeof(((combat_line_t *)0)->text) == MSG_LEN,
               "a combat line is a log line");
_Static_assert(KEY_CLICK_BASE >= KEY_LAST &&
               KEY_CLICK_BASE + MAP_W * MAP_H <= KEY_CLICK_END,
               "click keys are above every other key");
_Static_assert(IK_COUNT <= 256 && PACK_SIZE == 26,
               "a pack slot is a byte; slots are the letters a-z");

/* A new level at g->depth from the rules stream: the map with its stairs
 * (none on the Amulet's level), the player in the centre of the first room,
 * 0-N monsters in each room but the first (more and stronger deeper), 0-2
 * items in every room, nothing remembered. The player's own state (hp, pack, XP) stays. */
static void game_build_level(game_t *g)
{
    map_generate(&g->map, &g->rng);
    if (g->depth < GAME_AMULET_DEPTH)
        map_place_stairs(&g->map);
    rect_center(&g->map.rooms[0], &g->player.x, &g->player.y);
    memset(g->monsters, 0, sizeof g->monsters);
    memset(g->items, 0, sizeof g->items);
    /* The level is filled searching every slot; its bounds after. */
    memset(&g->derived, 0, sizeof g->derived);
    /* The last level's view is not this one's: nothing is in view until
     * game_update_fov below, so no item is marked seen from afar. */
    memset(g->visible, 0, sizeof g->visible);
    for (int i = 1; i < g->map.nrooms; i++)
        monster_spawn_room(g->monsters, MAX_MONSTERS, &g->map,
                           &g->map.rooms[i], &g->rng, g->depth,
                           g->player.x, g->player.y);
    item_spawn_level(g);
    game_derive(g);
    game_update_fov(g);
}

/* How many slots at the end of n records (each `size` bytes from `slots`)
 * have a 0 at live_at. */
static int free_top(const void *slots, int n, size_t size, size_t live_at)
{
    const unsigned char *base = (const unsigned char *)slots;
    int top = 0;
    while (top < n && !base[(size_t)(n - 1 - top) * size + live_at])
        top++;
    return top;
}

void game_derive(game_t *g)
{
    uint32_t unsaid = g->derived.log_unsaid;
    /* The last view's place unknown: the next view clears all of it. */
    memset(&g->derived, 0, sizeof g->derived);
    g->derived.log_unsaid = unsaid;
    g->derived.items_free_top = (uint16_t)free_top(
        g->items, MAX_ITEMS, sizeof(item_t), offsetof(item_t, type));
    g->derived.monsters_free_top = (uint8_t)free_top(
        g->monsters, MAX_MONSTERS, sizeof(monster_t),
        offsetof(monster_t, alive));
}

game_t *game_new(uint64_t seed, const game_options_t *opt)
{
    game_t *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->seed = seed;
    if (opt)
        g->opt = *opt;
    if (g->opt.ruleset < 0 || g->opt.ruleset >= RULES_COUNT)
        g->opt.ruleset = RULES_ATTACK_DEFENSE;
    rng_seed(&g->rng, seed);
    rng_seed(&g->fx, seed ^ FX_SALT);

    player_t *p = &g->player;
    const creature_stats_t *base = monster_player_stats();
    p->hp = p->max_hp = base->hp;
    p->attack = base->attack;
    p->defense = base->defense;
    p->level = 1;
    p->weapon = p->armor = -1;
    g->depth = 1;
    g->mode = MODE_PLAY;
    item_deal_appearances(g);
    game_build_level(g);
    game_log(g, MSG_SYSTEM, "Welcome to the dungeon, adventurer!");
    game_log(g, MSG_INFO, "Press ? for help. Move with the arrow keys, hjklyubn or the numpad.");
    return g;
}

game_t *game_clone(const game_t *g)
{
    game_t *c = malloc(sizeof *c);
    if (c)
        memcpy(c, g, sizeof *c);
    return c;
}

void game_free(game_t *g)
{
    free(g);
}

int game_over(const game_t *g)
{
    return g->mode == MODE_OVER;
}

int game_dead(const game_t *g)
{
    return g->mode == MODE_DEAD || g->mode == MODE_WON;
}

int game_quit_asked(const game_t *g)
{
    return g->mode == MODE_QUIT_PROMPT;
}

int game_won(const game_t *g)
{
    return g->mode == MODE_WON;
}

int game_dead_choice(int key)
{
    /* Not `R`: the rest key, pressed after a fight the player has just
     * lost, skipped the end screen for a new game (a play-test). */
    switch (key) {
    case ' ':
    case 'r':
        return 1;
    case KEY_ESC:
    case 'q':
    case 'Q':
    case KEY_CTRL_C:
        return -1;
    default:
        return 0;
    }
}

int game_score(const game_t *g)
{
    return g->player.xp + g->player.gold + GAME_DEPTH_SCORE * (g->depth - 1) +
           (g->killer == KILLER_WON ? GAME_WIN_SCORE : 0);
}

/* --- keys ------------------------------------------------------------------ */

int game_targeting(const game_t *g)
{
    return g->mode == MODE_TARGET;
}

/* `>` on the stairs: a new, deeper level; the player keeps hp, pack, XP.
 * It takes a turn, which the new level's monsters play. Off the stairs it
 * travels to them (travel.h). */
static int game_descend(game_t *g)
{
    if (g->map.tile[g->player.y][g->player.x] != TILE_STAIRS)
        return travel_to_stairs(g);
    g->depth++;
    if (g->depth < (int)(sizeof g->depth_turn / sizeof g->depth_turn[0]))
        g->depth_turn[g->depth] = g->turn;
    game_build_level(g);
    game_log(g, MSG_SYSTEM, "You descend the stairs to depth %d.", g->depth);
    game_end_turn(g);
    return 1;
}

/* `i` and `d`: the pack as a menu (no turn), unless it is empty. */
static int open_pack(game_t *g, int mode)
{
    if (g->pack_count == 0) {
        game_log(g, MSG_INFO, "Your pack is empty.");
        return 0;
    }
    g->mode = (uint8_t)mode;
    return 0;
}

/* `t`: the pack to throw from, if anything in it can be thrown. */
static int open_throw(game_t *g)
{
    for (int i = 0; i < PACK_SIZE; i++)
        if (item_can_throw(g, i))
            return open_pack(g, MODE_THROW);
    game_log(g, MSG_INFO, "You have nothing to throw.");
    return 0;
}

/* 1 if line is what the step onto the player's tile said of the thing
 * there: "You see a dart here." (world.c's arrive). */
static int told_here(game_t *g, const char *line)
{
    char name[MSG_LEN], seen[MSG_LEN + 16];
    const item_t *it = item_find(g, ITEM_THING, g->player.x, g->player.y);
    if (!it)
        return 0;
    snprintf(seen, sizeof seen, "You see %s here.",
             item_floor_a_name(g, it, name, sizeof name));
    seen[MSG_LEN - 1] = '\0'; /* cut as the log cut it */
    return strcmp(line, seen) == 0;
}

/* The step's "You see a dagger here." among this key's lines taken back
 * (the newest such; a line of the turn's end, "You feel yourself slow
 * down.", can follow it). */
static void unsay_told_here(game_t *g)
{
    for (int i = 0; game_msg_is_new(g, i); i++)
        if (told_here(g, game_msg(g, i)->text)) {
            game_log_unsay(g, i);
            return;
        }
}

/* `o`: autoexplore, then, with autopickup on, pick up what it stopped on
 * (a turn of its own). The pick-up is told, not also the step's "You see
 * a dagger here." before it (game version 10: each item was told
 * twice). */
static int explore(game_t *g)
{
    int took = travel_explore(g);
    if (g->mode == MODE_PLAY && travel_autopickup_here(g) &&
        !game_monster_in_view(g)) {
        unsay_told_here(g);
        took |= item_pick_up(g);
    }
    return took;
}

static int game_key_play(game_t *g, int key)
{
    int dx, dy;
    if (game_key_direction(key, &dx, &dy))
        return game_step(g, dx, dy);
    if (key >= 'A' && key <= 'Z' && key != 'P' && key != 'Q' && key != 'C' &&
        game_key_direction(key - 'A' + 'a', &dx, &dy))
        return travel_run(g, dx, dy);
    int tx, ty;
    if (game_click_tile(key, &tx, &ty))
        return travel_to_tile(g, tx, ty);
    switch (key) {
    case '_':
        return travel_to_stairs(g);
    case 'o':
        return explore(g);
    case 'A':
        g->autopickup = !g->autopickup;
        game_log(g, MSG_INFO, g->autopickup
                 ? "Autopickup on: exploring picks up what it finds."
                 : "Autopickup off: exploring stops at items.");
        return 0;
    case ';':
    case 'x':
        look_begin(g);
        return 0;
    case '@':
    case 'C':
        g->mode = MODE_CHARACTER;
        return 0;
    case '\\':
        g->mode = MODE_DISCOVERIES;
        return 0;
    case '.':
    case '5':
        return rest_wait(g);
    case 'R':
        return rest_until_healed(g);
    case '0':
        rest_count_begin(g);
        return 0;
    case 'g':
    case ',':
        return item_pick_up(g);
    case 'i':
        return open_pack(g, MODE_INVENTORY);
    case 'd':
        return open_pack(g, MODE_DROP);
    case 't':
        return open_throw(g);
    case '>':
        return game_descend(g);
    case '?':
        g->mode = MODE_HELP;
        g->hist_off = 0;
        return 0;
    case 'P':
        g->mode = MODE_HISTORY;
        g->hist_off = 0;
        g->derived.hist_pos = 0;
        return 0;
    case 'Q':
    case KEY_CTRL_C:
        g->mode = MODE_QUIT_PROMPT;
        game_log(g, MSG_WARN, "Really quit? (y/n)");
        return 0;
    case KEY_ENTER:
    case '\n':
    case ' ':
    case KEY_ESC:
        return 0;
    case 'q': /* other games quit with it: say which key does */
        game_log(g, MSG_INFO, "Unknown key 'q'. Q quits; ? is help.");
        return 0;
    case '<': /* the way out is the Amulet, not back up */
        game_log(g, MSG_INFO,
                 "There is no way up: only the Amulet of Yendor gets you out.");
        return 0;
    default:
        if (key > ' ' && key < 127)
            game_log(g, MSG_INFO, "Unknown key '%c'. Press ? for help.", key);
        return 0;
    }
}

/* MODE_INVENTORY and MODE_DROP: a letter picks a slot; Esc leaves. */
static int game_key_pack(game_t *g, int key)
{
    if (key == KEY_ESC) {
        g->mode = MODE_PLAY;
        return 0;
    }
    if (key < 'a' || key > 'z')
        return 0;
    int slot = key - 'a';
    if (!item_pack_has(g, slot)) {
        game_log(g, MSG_INFO, "You have no item '%c'.", key);
        return 0;
    }
    int mode = g->mode;
    g->mode = MODE_PLAY;
    if (mode == MODE_DROP)
        return item_drop(g, slot);
    if (mode == MODE_THROW) {
        if (!item_can_throw(g, slot)) {
            game_log(g, MSG_INFO, "You cannot throw that.");
            return 0;
        }
        target_begin_throw(g, slot);
        return 0;
    }
    if (item_needs_aim(g, slot)) {
        target_begin(g, slot);
        return 0;
    }
    return item_use(g, slot);
}

/* The history pager: the newest line at the bottom, hist_off lines back;
 * below 80x24, hist_pos rows of the log wrapped to 40 columns back (a
 * page there is 17 rows, or fewer so that a message cut by the page's
 * edge is whole on the next, game_history_narrow_page; the log wraps
 * into more rows than it has lines: it goes further than hist_off). */
static void game_key_history(game_t *g, int key)
{
    int page = GAME_HISTORY_ROWS - 1, pos = g->derived.hist_pos;
    int step, nstep, far = LOG_MAX * GAME_MSG_WRAP_MAX;
    switch (key) {
    case KEY_UP: case 'k':
        step = 1;
        nstep = game_history_narrow_line(g, pos, 1) - pos;
        break;
    case KEY_DOWN: case 'j':
        step = -1;
        nstep = game_history_narrow_line(g, pos, 0) - pos;
        break;
    case KEY_PGUP: case 'b': case '-':
        step = page;
        nstep = game_history_narrow_page(g, pos, 1) - pos;
        break;
    case KEY_PGDN: case ' ': case '+':
        step = -page;
        nstep = game_history_narrow_page(g, pos, 0) - pos;
        break;
    case KEY_HOME: case 'g': step = LOG_MAX; nstep = far; break;
    case KEY_END: case 'G': step = -LOG_MAX; nstep = -far; break;
    case KEY_ESC: case 'q': case 'Q': case 'P': case KEY_ENTER: case '\n':
        g->mode = MODE_PLAY;
        return;
    default:
        return;
    }
    int max = g->log_count - GAME_HISTORY_ROWS;
    g->hist_off += step;
    if (g->hist_off > max)
        g->hist_off = max;
    if (g->hist_off < 0)
        g->hist_off = 0;
    int nmax = game_history_narrow_max(g);
    pos += nstep;
    g->derived.hist_pos = (uint16_t)(pos < 0 ? 0 : pos > nmax ? nmax : pos);
}

static int game_key_mode(game_t *g, int key)
{
    switch (g->mode) {
    case MODE_PLAY:
        return game_key_play(g, key);
    case MODE_HELP:
        /* Page 1 (keys): ? again shows page 2 (monsters, dice); any
         * other key returns. */
        if (g->hist_off == 0 && key == '?')
            g->hist_off = 1;
        else
            g->mode = MODE_PLAY;
        return 0;
    case MODE_CHARACTER:
    case MODE_DISCOVERIES:
        g->mode = MODE_PLAY;
        return 0;
    case MODE_IDENTIFY:
        return magic_identify_key(g, key);
    case MODE_COUNT:
        return rest_count_key(g, key);
    case MODE_LOOK:
        return look_key(g, key);
    case MODE_HISTORY:
        game_key_history(g, key);
        return 0;
    case MODE_INVENTORY:
    case MODE_DROP:
    case MODE_THROW:
        return game_key_pack(g, key);
    case MODE_TARGET:
        return target_key(g, key);
    case MODE_QUIT_PROMPT:
        if (key == 'y' || key == 'Y') {
            g->mode = MODE_OVER;
            game_log(g, MSG_SYSTEM, "Goodbye.");
        } else {
            g->mode = MODE_PLAY;
            game_log(g, MSG_INFO, "Never mind.");
        }
        return 0;
    default: /* MODE_OVER, MODE_DEAD, MODE_WON: the host's turn */
        return 0;
    }
}

int game_key(game_t *g, int key)
{
    g->keys++;
    /* Ctrl-L and Ctrl-R redraw the screen: the host's business, no turn,
     * no line. */
    if (key == KEY_CTRL_L || key == KEY_CTRL_R)
        return 0;
    uint32_t before = g->log_total, turn = g->turn;
    int took = game_key_mode(g, key);
    if (g->log_total != before || g->turn != turn)
        g->log_fresh = before;
    return took;
}
