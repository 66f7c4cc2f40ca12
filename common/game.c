/* game.c - the game state machine: keys in, state out. A turn (GAME.md
 * "Turns"): the player acts; if that took a turn, every living monster acts;
 * then the death check. The rules of a blow are combat.c's, the monsters'
 * choices ai.c's, the content monster.c's. */
#include "game.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai.h"
#include "combat.h"
#include "fov.h"
#include "keys.h"

/* The cosmetic stream is derived from the seed but never shares state with
 * the rules stream. */
#define FX_SALT 0x5deece66dULL

_Static_assert(sizeof(((combat_line_t *)0)->text) == MSG_LEN,
               "a combat line is a log line");

static void game_update_fov(game_t *g)
{
    fov_compute(&g->map, g->player.x, g->player.y, FOV_RADIUS, g->visible);
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            if (g->visible[y][x])
                g->map.explored[y][x] = 1;
}

/* 0-3 monsters in each room but the first (004), of kinds for the depth. */
static void game_populate(game_t *g)
{
    memset(g->monsters, 0, sizeof g->monsters);
    for (int i = 1; i < g->map.nrooms; i++)
        monster_spawn_room(g->monsters, MAX_MONSTERS, &g->map,
                           &g->map.rooms[i], &g->rng, g->depth,
                           g->player.x, g->player.y);
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
    map_generate(&g->map, &g->rng);

    player_t *p = &g->player;
    const creature_stats_t *base = monster_player_stats();
    rect_center(&g->map.rooms[0], &p->x, &p->y);
    p->hp = p->max_hp = base->hp;
    p->attack = base->attack;
    p->defense = base->defense;
    p->level = 1;
    g->depth = 1;
    g->mode = MODE_PLAY;
    game_populate(g);
    game_update_fov(g);
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

int game_dead(const game_t *g)
{
    return g->mode == MODE_DEAD;
}

int game_dead_choice(int key)
{
    switch (key) {
    case ' ':
    case 'r':
    case 'R':
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

const char *game_death_cause(const game_t *g, char *buf, size_t len)
{
    if (!g->killer) {
        snprintf(buf, len, "alive");
        return buf;
    }
    int kind = g->killer - 1;
    snprintf(buf, len, "killed by %s %s", monster_article(kind),
             monster_stats(kind)->name);
    return buf;
}

int game_score(const game_t *g)
{
    return g->player.xp + g->player.gold + GAME_DEPTH_SCORE * (g->depth - 1);
}

int game_xp_next(int level)
{
    return level * 100;
}

void game_gain_xp(game_t *g, int xp)
{
    player_t *p = &g->player;
    p->xp += xp;
    while (p->xp >= game_xp_next(p->level)) {
        p->level++;
        p->max_hp += 5;
        p->hp = p->max_hp;
        p->attack += 1;
        game_log(g, MSG_LEVEL,
                 "You reach level %d! Max HP %d, attack +1, fully healed.",
                 p->level, p->max_hp);
    }
}

int game_monster_at(const game_t *g, int x, int y)
{
    return monster_at(g->monsters, MAX_MONSTERS, x, y);
}

int game_monster_in_view(const game_t *g)
{
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *m = &g->monsters[i];
        if (m->alive && g->visible[m->y][m->x])
            return 1;
    }
    return 0;
}

int game_place_monster(game_t *g, int kind, int x, int y)
{
    if (kind < 0 || kind >= MON_COUNT || !map_walkable(&g->map, x, y) ||
        (x == g->player.x && y == g->player.y) || game_monster_at(g, x, y) >= 0)
        return -1;
    for (int i = 0; i < MAX_MONSTERS; i++) {
        monster_t *m = &g->monsters[i];
        if (m->alive)
            continue;
        *m = (monster_t){ 0 };
        m->kind = (uint8_t)kind;
        m->alive = 1;
        m->x = x;
        m->y = y;
        m->hp = monster_stats(kind)->hp;
        return i;
    }
    return -1;
}

/* --- items on the floor ---------------------------------------------------- */

static item_t *item_find(game_t *g, int type, int x, int y)
{
    for (int i = 0; i < MAX_ITEMS; i++) {
        item_t *it = &g->items[i];
        if (it->type == type && it->x == x && it->y == y)
            return it;
    }
    return NULL;
}

/* Puts an item on (x, y); gold on gold adds up, a corpse on a corpse
 * replaces it. When every slot is taken the item is lost. */
static void item_drop(game_t *g, int type, int kind, int x, int y, int amount)
{
    item_t *it = item_find(g, type, x, y);
    if (it && type == ITEM_GOLD) {
        it->amount += amount;
        return;
    }
    for (int i = 0; !it && i < MAX_ITEMS; i++)
        if (g->items[i].type == ITEM_NONE)
            it = &g->items[i];
    if (!it)
        return;
    *it = (item_t){ 0 };
    it->type = (uint8_t)type;
    it->kind = (uint8_t)kind;
    it->x = x;
    it->y = y;
    it->amount = amount;
}

static void pick_up_gold(game_t *g)
{
    item_t *it = item_find(g, ITEM_GOLD, g->player.x, g->player.y);
    if (!it)
        return;
    g->player.gold += it->amount;
    game_log(g, MSG_GOOD, "You pick up %d gold.", it->amount);
    *it = (item_t){ 0 };
}

/* --- fighting -------------------------------------------------------------- */

static int game_roll(void *ctx, int lo, int hi)
{
    return rng_range(ctx, lo, hi);
}

static void player_fighter(const game_t *g, fighter_t *f)
{
    const creature_stats_t *base = monster_player_stats();
    combat_fighter(f, base, 1, g->player.hp, g->player.attack - base->attack);
    f->defense = g->player.defense;
}

static void monster_fighter(const monster_t *m, fighter_t *f)
{
    combat_fighter(f, monster_stats(m->kind), 0, m->hp, 0);
}

static void log_blow(game_t *g, const combat_result_t *res)
{
    for (int i = 0; i < res->nlines; i++)
        game_log(g, res->line[i].kind, "%s", res->line[i].text);
}

/* A monster at 0 hp dies: a corpse, its gold on the floor, XP to you. */
static void monster_dies(game_t *g, monster_t *m)
{
    const creature_stats_t *k = monster_stats(m->kind);
    int gold = rng_range(&g->rng, k->gold_min, k->gold_max);
    m->hp = 0;
    m->alive = 0;
    g->kills++;
    item_drop(g, ITEM_CORPSE, m->kind, m->x, m->y, 0);
    if (gold > 0) {
        item_drop(g, ITEM_GOLD, 0, m->x, m->y, gold);
        game_log(g, MSG_KILL, "The %s dies, dropping %d gold. (+%d XP)",
                 k->name, gold, k->xp);
    } else {
        game_log(g, MSG_KILL, "The %s dies. (+%d XP)", k->name, k->xp);
    }
    game_gain_xp(g, k->xp);
}

static void player_attacks(game_t *g, monster_t *m)
{
    fighter_t a, d;
    combat_result_t res;
    player_fighter(g, &a);
    monster_fighter(m, &d);
    combat_resolve(g->opt.ruleset, &a, &d, game_roll, &g->rng, &res);
    log_blow(g, &res);
    m->hp -= res.damage;
    if (m->hp <= 0)
        monster_dies(g, m);
}

static void monster_attacks(game_t *g, const monster_t *m)
{
    fighter_t a, d;
    combat_result_t res;
    monster_fighter(m, &a);
    player_fighter(g, &d);
    combat_resolve(g->opt.ruleset, &a, &d, game_roll, &g->rng, &res);
    log_blow(g, &res);
    g->player.hp -= res.damage;
    if (g->player.hp <= 0) {
        g->player.hp = 0;
        g->killer = (uint8_t)(m->kind + 1);
    }
}

/* Every living monster acts, in slot order, sharing this turn's maps. A
 * monster stops acting once the player is dead. */
static void monsters_act(game_t *g)
{
    uint8_t occ[MAP_H][MAP_W];
    ai_turn_t t;
    memset(occ, 0, sizeof occ);
    for (int i = 0; i < MAX_MONSTERS; i++)
        if (g->monsters[i].alive)
            occ[g->monsters[i].y][g->monsters[i].x] = 1;
    occ[g->player.y][g->player.x] = 1;
    ai_turn_begin(&t, g->player.x, g->player.y);
    for (int i = 0; i < MAX_MONSTERS && g->player.hp > 0; i++) {
        monster_t *m = &g->monsters[i];
        if (!m->alive)
            continue;
        int nx, ny;
        int act = ai_decide(&g->map, &t, occ, &g->rng, m->x, m->y,
                            g->visible[m->y][m->x], m->hp,
                            monster_stats(m->kind)->hp, &nx, &ny);
        if (act == AI_MOVE) {
            occ[m->y][m->x] = 0;
            m->x = nx;
            m->y = ny;
            occ[ny][nx] = 1;
        } else if (act == AI_ATTACK) {
            monster_attacks(g, m);
        }
    }
}

/* Every MONSTER_REGEN_TURNS turns each hurt monster heals 1 hp: a monster
 * that fled (below 30%) turns back to fight instead of being chased round
 * a loop of corridors for ever. */
static void monsters_regenerate(game_t *g)
{
    if ((g->turn + 1) % MONSTER_REGEN_TURNS != 0)
        return;
    for (int i = 0; i < MAX_MONSTERS; i++) {
        monster_t *m = &g->monsters[i];
        if (m->alive && m->hp < monster_stats(m->kind)->hp)
            m->hp++;
    }
}

/* Ends a turn that the player's action took: the monsters, then the death
 * check; timed effects last. */
static void game_end_turn(game_t *g)
{
    game_update_fov(g);
    monsters_act(g);
    monsters_regenerate(g);
    g->turn++;
    if (g->player.hp <= 0) {
        char cause[64];
        g->mode = MODE_DEAD;
        game_log(g, MSG_BAD, "You die, %s.",
                 game_death_cause(g, cause, sizeof cause));
    }
}

/* --- keys ------------------------------------------------------------------ */

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

/* Moves, or attacks the monster in the way (bump to attack). */
static int game_move(game_t *g, int dx, int dy)
{
    int nx = g->player.x + dx, ny = g->player.y + dy;
    int target = game_monster_at(g, nx, ny);
    if (target >= 0) {
        player_attacks(g, &g->monsters[target]);
        game_end_turn(g);
        return 1;
    }
    if (!map_walkable(&g->map, nx, ny)) {
        game_log(g, MSG_INFO, "There is a wall in the way.");
        return 0;
    }
    g->player.x = nx;
    g->player.y = ny;
    pick_up_gold(g);
    game_end_turn(g);
    return 1;
}

/* Waiting with no monster in view heals 1 hp (004 "try this"). */
static int game_wait(game_t *g)
{
    player_t *p = &g->player;
    if (p->hp < p->max_hp && !game_monster_in_view(g))
        p->hp++;
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
        return game_wait(g);
    case '?':
        g->mode = MODE_HELP;
        return 0;
    case 'P':
        g->mode = MODE_HISTORY;
        g->hist_off = 0;
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

/* The history pager: the newest line at the bottom, hist_off lines back. */
static void game_key_history(game_t *g, int key)
{
    int page = GAME_HISTORY_ROWS - 1, step;
    switch (key) {
    case KEY_UP: case 'k': step = 1; break;
    case KEY_DOWN: case 'j': step = -1; break;
    case KEY_PGUP: case 'b': case '-': step = page; break;
    case KEY_PGDN: case ' ': case '+': step = -page; break;
    case KEY_HOME: case 'g': step = LOG_MAX; break;
    case KEY_END: case 'G': step = -LOG_MAX; break;
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
    case MODE_HISTORY:
        game_key_history(g, key);
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
    default: /* MODE_OVER, MODE_DEAD: the host's turn */
        return 0;
    }
}

uint64_t game_hash(const game_t *g)
{
    /* FNV-1a over the whole state: a game is one allocation with no pointers
     * and every byte of it is written deterministically (calloc, cleared
     * slots), so equal histories give equal bytes. */
    const unsigned char *p = (const unsigned char *)g;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < sizeof *g; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}
