/* game.c - the game state machine: keys in, state out. */
#include "game.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fov.h"
#include "keys.h"

/* The cosmetic stream is derived from the seed but never shares state with
 * the rules stream. */
#define FX_SALT 0x5deece66dULL

static void game_update_fov(game_t *g)
{
    fov_compute(&g->map, g->player.x, g->player.y, FOV_RADIUS, g->visible);
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            if (g->visible[y][x])
                g->map.explored[y][x] = 1;
}

game_t *game_new(uint64_t seed, const game_options_t *opt)
{
    game_t *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->seed = seed;
    if (opt)
        g->opt = *opt;
    rng_seed(&g->rng, seed);
    rng_seed(&g->fx, seed ^ FX_SALT);
    map_generate(&g->map, &g->rng);

    player_t *p = &g->player;
    rect_center(&g->map.rooms[0], &p->x, &p->y);
    p->hp = p->max_hp = 30;
    p->attack = 5;
    p->defense = 2;
    p->level = 1;
    g->depth = 1;
    g->mode = MODE_PLAY;
    game_update_fov(g);
    game_log(g, MSG_SYSTEM, "Welcome to the dungeon, adventurer!");
    game_log(g, MSG_INFO, "Press ? for help. Move with the arrow keys, hjklyubn or the numpad.");
    return g;
}

void game_free(game_t *g)
{
    free(g);
}

void game_log(game_t *g, int kind, const char *fmt, ...)
{
    int slot;
    if (g->log_count < LOG_MAX) {
        slot = (g->log_head + g->log_count) % LOG_MAX;
        g->log_count++;
    } else {
        slot = g->log_head;
        g->log_head = (g->log_head + 1) % LOG_MAX;
    }
    msg_t *m = &g->log[slot];
    /* Clear the whole slot so that the state hash never sees stale bytes. */
    memset(m->text, 0, sizeof m->text);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->text, sizeof m->text, fmt, ap);
    va_end(ap);
    m->kind = (uint8_t)kind;
}

const msg_t *game_msg(const game_t *g, int i)
{
    if (i < 0 || i >= g->log_count)
        return NULL;
    return &g->log[(g->log_head + g->log_count - 1 - i) % LOG_MAX];
}

int game_over(const game_t *g)
{
    return g->mode == MODE_OVER;
}

/* Maps a movement key to a direction. Returns 1 for a move, 0 otherwise. */
static int key_direction(int key, int *dx, int *dy)
{
    static const struct { int key, dx, dy; } dirs[] = {
        { 'h', -1, 0 }, { 'j', 0, 1 }, { 'k', 0, -1 }, { 'l', 1, 0 },
        { 'y', -1, -1 }, { 'u', 1, -1 }, { 'b', -1, 1 }, { 'n', 1, 1 },
        { '4', -1, 0 }, { '2', 0, 1 }, { '8', 0, -1 }, { '6', 1, 0 },
        { '7', -1, -1 }, { '9', 1, -1 }, { '1', -1, 1 }, { '3', 1, 1 },
        { KEY_LEFT, -1, 0 }, { KEY_DOWN, 0, 1 }, { KEY_UP, 0, -1 },
        { KEY_RIGHT, 1, 0 },
        { KEY_HOME, -1, -1 }, { KEY_PGUP, 1, -1 }, { KEY_END, -1, 1 },
        { KEY_PGDN, 1, 1 },
    };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (dirs[i].key == key) {
            *dx = dirs[i].dx;
            *dy = dirs[i].dy;
            return 1;
        }
    }
    return 0;
}

/* Ends a turn that the player's action took. */
static void game_end_turn(game_t *g)
{
    g->turn++;
    game_update_fov(g);
}

static int game_move(game_t *g, int dx, int dy)
{
    int nx = g->player.x + dx, ny = g->player.y + dy;
    if (!map_walkable(&g->map, nx, ny)) {
        game_log(g, MSG_INFO, "There is a wall in the way.");
        return 0;
    }
    g->player.x = nx;
    g->player.y = ny;
    game_end_turn(g);
    return 1;
}

static int game_key_play(game_t *g, int key)
{
    int dx, dy;
    if (key_direction(key, &dx, &dy))
        return game_move(g, dx, dy);
    switch (key) {
    case '.':
    case '5':
        game_end_turn(g);
        return 1;
    case '?':
        g->mode = MODE_HELP;
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
    default:
        if (key > ' ' && key < 127)
            game_log(g, MSG_INFO, "Unknown key '%c'. Press ? for help.", key);
        return 0;
    }
}

int game_key(game_t *g, int key)
{
    g->keys++;
    switch (g->mode) {
    case MODE_PLAY:
        return game_key_play(g, key);
    case MODE_HELP:
        g->mode = MODE_PLAY;
        return 0;
    case MODE_QUIT_PROMPT:
        if (key == 'y' || key == 'Y') {
            g->mode = MODE_OVER;
            game_log(g, MSG_SYSTEM, "Goodbye.");
        } else {
            g->mode = MODE_PLAY;
            game_log(g, MSG_INFO, "Never mind.");
        }
        return 0;
    default:
        return 0;
    }
}

uint64_t game_hash(const game_t *g)
{
    /* FNV-1a over the whole state: a game is one allocation with no pointers
     * and every byte of it is written deterministically (calloc, cleared
     * message slots), so equal histories give equal bytes. */
    const unsigned char *p = (const unsigned char *)g;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < sizeof *g; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}
