/* screen_bot.h - the careful newcomer of bot.h, deciding only from the
 * screen: the balance benchmark's first row (docs/balance.md).
 *
 * Each key, the bench draws the game with the view into an 80x24 screen
 * (what the server would send) and gives the bot that screen alone
 * (screen_read.h reads it); the bot never sees game_t. It remembers what a
 * player would: the pack as the last pack menu showed it, what it meant to
 * do when it opened a menu, whether this level is explored.
 *
 * Its policy, in order:
 * - in trouble (a monster in view, below 40% HP): a known health potion,
 *   else a known scroll of teleportation, a known potion of speed (when
 *   not fast), the wand at the nearest monster, else an unknown potion,
 *   then an unknown scroll (a gamble, as a player takes one);
 *   poisoned below a third: a known health potion;
 * - against a strong monster (10 HP or more in the legend) or when below
 *   half HP: a lightning bolt within 5, a fireball at more than 3 away, a
 *   confusion within 8 (not twice in 10 turns);
 * - a monster in view but not next to it, within throwing range: throws a
 *   dart (or a spare thrown weapon);
 * - nothing in view: wields or wears better equipment (the help's ranking:
 *   attack plus defense bonus), drinks an unknown potion when below 60% HP
 *   (to learn it where a health potion is not wasted), reads an unknown
 *   scroll when above 80% (an aimed one it puts away, still unknown:
 *   game version 9; with a monster within 3 tiles it never casts one),
 *   reads identify on an unknown potion, then scroll;
 * - picks up what autoexplore stopped on ("You see ... here."); attacks a
 *   monster next to it; below 60% HP with nothing in view rests (`R`);
 *   walks to the nearest monster in view; explores (`o`); once "nothing
 *   left to explore", walks to the Amulet if it shows, else goes down
 *   (`>`: travel to the stairs, then down). */
#ifndef ROGUE_BENCH_SCREEN_BOT_H
#define ROGUE_BENCH_SCREEN_BOT_H

#include <string.h>

#include "screen_read.h"

/* Esc and Enter (keys.h's values; bench_output.c's curses.h clashes with
 * keys.h's names). */
#define KEY_ESC_SB 27
#define KEY_ENTER_SB 13

typedef struct sbot {
    sr_item_t pack[SR_PACK];    /* the pack as the last menu showed it */
    int npack;
    int pack_dirty;     /* picked up or used since: read the menu again */
    int want;           /* the letter to press in the menu it opened */
    int last_key;
    int depth;
    int explored_out;   /* "nothing left to explore" on this level */
    int idle_turn;      /* an item key on this turn took no turn: no more
                           item keys until the turn changes */
    int aimed;          /* pressed Enter while aiming */
    int confused_turn;  /* the turn of its last confusion, or -100 */
    int noted_turn;     /* the turn whose log lines sbot_note read */
    int menu_turn;      /* the turn a menu last had a letter pressed */
    sr_screen_t seen;   /* the last play screen (menus cover the map) */
} sbot_t;

static inline void sbot_init(sbot_t *b)
{
    memset(b, 0, sizeof *b);
    b->idle_turn = b->menu_turn = -1;
    b->confused_turn = -100;
}

/* A name with each word's final 's' dropped, so that plurals match. */
static inline void sbot_norm(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; in[i] && k + 1 < n; i++) {
        if (in[i] == 's' && (in[i + 1] == ' ' || in[i + 1] == 0))
            continue;
        out[k++] = in[i];
    }
    out[k] = 0;
}

/* The kind a menu line names (the help's item table), or -1: unknown. */
static inline int sbot_kind(const sr_item_t *it)
{
    char name[64], kn[64];
    sbot_norm(it->name, name, sizeof name);
    int best = -1;
    size_t best_len = 0;
    for (int k = 0; k < IK_COUNT; k++) {
        sbot_norm(item_stats(k)->name, kn, sizeof kn);
        if (strstr(name, kn) && strlen(kn) > best_len) {
            best = k;
            best_len = strlen(kn);
        }
    }
    return best;
}

static inline int sbot_effect(const sr_item_t *it)
{
    int k = sbot_kind(it);
    return k < 0 ? -1 : item_stats(k)->effect;
}

/* The pack index of a known item with this effect, or -1. */
static inline int sbot_find(const sbot_t *b, int effect)
{
    for (int i = 0; i < b->npack; i++)
        if (sbot_effect(&b->pack[i]) == effect)
            return i;
    return -1;
}

/* The pack index of an unknown potion ('!') or scroll ('?'), or -1. */
static inline int sbot_unknown(const sbot_t *b, char glyph)
{
    for (int i = 0; i < b->npack; i++)
        if (b->pack[i].glyph == glyph && sbot_kind(&b->pack[i]) < 0)
            return i;
    return -1;
}

static inline int sbot_rank(const sr_item_t *it)
{
    int k = sbot_kind(it);
    return k < 0 ? -1 : item_stats(k)->attack + item_stats(k)->defense;
}

/* The pack index of a weapon or armour better than the one in use. */
static inline int sbot_upgrade(const sbot_t *b)
{
    int best = -1, best_gain = 0;
    for (int i = 0; i < b->npack; i++) {
        int e = sbot_effect(&b->pack[i]);
        if ((e != EFFECT_WIELD && e != EFFECT_WEAR) || b->pack[i].in_use)
            continue;
        int cur = -1;
        for (int j = 0; j < b->npack; j++)
            if (b->pack[j].in_use && sbot_effect(&b->pack[j]) == e)
                cur = sbot_rank(&b->pack[j]);
        int gain = sbot_rank(&b->pack[i]) - cur;
        if (gain > best_gain) {
            best = i;
            best_gain = gain;
        }
    }
    return best;
}

/* The pack index of something to throw: darts, or a thrown weapon not in
 * use; -1 if none. *range gets its range. */
static inline int sbot_missile(const sbot_t *b, int *range)
{
    for (int i = 0; i < b->npack; i++) {
        int k = sbot_kind(&b->pack[i]);
        if (k >= 0 && item_stats(k)->thrown && !b->pack[i].in_use &&
            (item_stats(k)->effect == EFFECT_MISSILE || b->pack[i].count > 1)) {
            *range = item_stats(k)->range;
            return i;
        }
    }
    return -1;
}

/* The nearest monster in view of r: its index, and its squared distance. */
static inline int sbot_nearest(const sr_screen_t *r, int *d2)
{
    int best = -1;
    for (int i = 0; i < r->nmon; i++) {
        int dx = r->mon[i].x - r->px, dy = r->mon[i].y - r->py;
        if (best < 0 || dx * dx + dy * dy < *d2) {
            best = i;
            *d2 = dx * dx + dy * dy;
        }
    }
    return best;
}

/* An item to use now: its pack index, *key 'i' (use) or 't' (throw). */
static inline int sbot_item_fight(const sbot_t *b, const sr_screen_t *r, int *key)
{
    int d2 = 0, near = sbot_nearest(r, &d2);
    int trouble = r->hp * 10 < r->max_hp * 4, pick = -1;
    *key = 'i';
    if (trouble) {
        static const int ways[] = { EFFECT_HEAL, EFFECT_TELEPORT };
        for (size_t w = 0; w < sizeof ways / sizeof ways[0] && pick < 0; w++)
            pick = sbot_find(b, ways[w]);
        if (pick < 0 && !r->fast)
            pick = sbot_find(b, EFFECT_SPEED);
        if (pick < 0 && d2 <= 64)
            pick = sbot_find(b, EFFECT_WAND_SLEEP);
        if (pick < 0)
            pick = sbot_unknown(b, '!');
        if (pick < 0)
            pick = sbot_unknown(b, '?');
        if (pick >= 0)
            return pick;
    }
    if (sr_monster(r->mon[near].glyph)->hp >= 10 || r->hp * 2 < r->max_hp) {
        if (d2 <= 25 && (pick = sbot_find(b, EFFECT_LIGHTNING)) >= 0)
            return pick;
        if (d2 > 9 && (pick = sbot_find(b, EFFECT_FIREBALL)) >= 0)
            return pick;
        if (d2 <= 64 && r->turn - b->confused_turn > 10 &&
            (pick = sbot_find(b, EFFECT_CONFUSION)) >= 0)
            return pick;
    }
    int range = 0;
    if (d2 > 2 && (pick = sbot_missile(b, &range)) >= 0 &&
        d2 <= range * range) {
        *key = 't';
        return pick;
    }
    return -1;
}

/* Nothing in view: equipment, and learning unknown items. */
static inline int sbot_item_quiet(const sbot_t *b, const sr_screen_t *r)
{
    int pick = sbot_upgrade(b);
    if (pick >= 0)
        return pick;
    if (r->hp * 10 < r->max_hp * 6 && (pick = sbot_unknown(b, '!')) >= 0)
        return pick;
    if (r->hp * 10 >= r->max_hp * 8 && (pick = sbot_unknown(b, '?')) >= 0)
        return pick;
    if ((sbot_unknown(b, '!') >= 0 || sbot_unknown(b, '?') >= 0) &&
        (pick = sbot_find(b, EFFECT_IDENTIFY)) >= 0)
        return pick;
    return -1;
}

/* The pack index to use now (-1: none); *key the key that opens its menu. */
static inline int sbot_item(const sbot_t *b, const sr_screen_t *r, int *key)
{
    *key = 'i';
    if (r->poisoned && r->hp * 3 < r->max_hp) {
        int h = sbot_find(b, EFFECT_HEAL);
        if (h >= 0)
            return h;
    }
    if (r->nmon > 0)
        return sbot_item_fight(b, r, key);
    return sbot_item_quiet(b, r);
}

/* 1 if a map character can be walked over as far as the screen shows. */
static inline int sbot_open(char c)
{
    return c != ' ' && c != '#';
}

/* The first step from the player toward (tx, ty) over what the screen
 * shows (8 directions, monsters other than the target in the way unless
 * through_monsters): 1 and *dx, *dy, or 0 if there is no way. */
static inline int sbot_step_to(const sr_screen_t *r, int tx, int ty,
                               int through_monsters, int *dx, int *dy)
{
    static short dist[MAP_H][MAP_W]; /* the bench bot is not threaded */
    static short qx[MAP_H * MAP_W], qy[MAP_H * MAP_W];
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            dist[y][x] = -1;
    int head = 0, tail = 0;
    dist[ty][tx] = 0;
    qx[tail] = (short)tx;
    qy[tail++] = (short)ty;
    while (head < tail) {
        int x = qx[head], y = qy[head++];
        for (int ey = -1; ey <= 1; ey++)
            for (int ex = -1; ex <= 1; ex++) {
                int nx = x + ex, ny = y + ey;
                if (!map_in_bounds(nx, ny) || dist[ny][nx] >= 0)
                    continue;
                char c = r->map[ny][nx];
                if (nx == r->px && ny == r->py) {
                    *dx = x - nx;
                    *dy = y - ny;
                    return 1;
                }
                if (!sbot_open(c) || (!through_monsters && sr_is_monster(c)))
                    continue;
                dist[ny][nx] = (short)(dist[y][x] + 1);
                qx[tail] = (short)nx;
                qy[tail++] = (short)ny;
            }
    }
    return 0;
}

static inline int sbot_dir_key(int dx, int dy)
{
    static const char keys[3][3] = { { 'y', 'k', 'u' }, { 'h', '.', 'l' },
                                     { 'b', 'j', 'n' } };
    return keys[dy + 1][dx + 1];
}

/* A pack menu is open: it reads the pack, then presses the letter of the
 * throw it meant, or of the item it would use with the pack as it is now
 * (at most one a turn), else Esc. */
static inline int sbot_menu(sbot_t *b, const sr_screen_t *r)
{
    memcpy(b->pack, r->pack, sizeof b->pack);
    b->npack = r->npack;
    b->pack_dirty = 0;
    int want = b->want, key = 'i';
    b->want = 0;
    if (r->mode == SR_IDENTIFY) {
        int u = sbot_unknown(b, '!');
        if (u < 0)
            u = sbot_unknown(b, '?');
        return u >= 0 ? b->pack[u].letter : KEY_ESC_SB;
    }
    if (b->menu_turn == b->seen.turn)
        return KEY_ESC_SB;
    int i = -1;
    if (r->mode == SR_THROW) {
        for (int j = 0; want && j < b->npack; j++)
            if (b->pack[j].letter == want)
                i = j;
    } else if (r->mode == SR_INVENTORY) {
        i = sbot_item(b, &b->seen, &key);
        if (key != 'i')
            i = -1;
    }
    if (i < 0)
        return KEY_ESC_SB;
    if (sbot_effect(&b->pack[i]) == EFFECT_CONFUSION)
        b->confused_turn = b->seen.turn;
    b->pack_dirty = 1;
    b->menu_turn = b->seen.turn;
    return b->pack[i].letter;
}

/* Aiming (a scroll, the wand or a throw): Enter when there is a monster in
 * view to aim at (the cursor starts on the nearest), unless a fireball
 * would burn the bot too; Esc otherwise, or when Enter was refused. */
static inline int sbot_aim(sbot_t *b, const sr_screen_t *r)
{
    int d2 = 0;
    /* An unknown scroll may be a fireball (aiming does not tell it): its
     * prompt names its label, "Aim the scroll ZELGO MER: ...", where a
     * known one's says "Aim the scroll of ...". */
    int unknown = strncmp(r->log[0], "Aim the scroll ", 15) == 0 &&
                  strncmp(r->log[0], "Aim the scroll of ", 18) != 0;
    if (b->aimed || sbot_nearest(&b->seen, &d2) < 0 ||
        ((strstr(r->log[0], "fireball") || unknown) && d2 <= 9))
        return KEY_ESC_SB;
    b->aimed = 1;
    return KEY_ENTER_SB;
}

/* What the log says about this level: explored out, or a new level. */
static inline void sbot_note(sbot_t *b, const sr_screen_t *r)
{
    if (r->depth != b->depth) {
        b->depth = r->depth;
        b->explored_out = 0;
    }
    /* on depth 12: "... here but the Amulet: _ goes to it." */
    if (strncmp(r->log[0], "There is nothing left to explore here", 37) == 0)
        b->explored_out = 1;
    if (r->turn == b->noted_turn)
        return; /* the lines are the ones read already */
    b->noted_turn = r->turn;
    for (int i = 0; i < SR_LOG; i++)
        if (strncmp(r->log[i], "You pick up ", 12) == 0)
            b->pack_dirty = 1;
}

/* 1 if the newest line says something lies here, to pick up. */
static inline int sbot_underfoot(const sr_screen_t *r)
{
    size_t n = strlen(r->log[0]);
    return strncmp(r->log[0], "You see ", 8) == 0 && n > 14 &&
           strcmp(r->log[0] + n - 6, " here.") == 0;
}

/* 1 and where, if glyph c is on the map. */
static inline int sbot_find_glyph(const sr_screen_t *r, char c, int *x, int *y)
{
    for (*y = 0; *y < MAP_H - 1; (*y)++)
        for (*x = 0; *x < MAP_W; (*x)++)
            if (r->map[*y][*x] == c)
                return 1;
    return 0;
}

/* In play, with r the screen: fight, chase, rest, explore or descend
 * (autoexplore leaves an item it once stood on: the Amulet, stood on in
 * a fight, it walks to itself). */
static inline int sbot_move(sbot_t *b, const sr_screen_t *r)
{
    for (int i = 0; i < r->nmon; i++) {
        int dx = r->mon[i].x - r->px, dy = r->mon[i].y - r->py;
        if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1)
            return sbot_dir_key(dx, dy);
    }
    if (r->nmon == 0 && r->hp * 10 < r->max_hp * 6 &&
        !(b->last_key == 'R' && b->idle_turn == r->turn))
        return 'R';
    if (r->nmon > 0) {
        int d2 = 0, m = sbot_nearest(r, &d2), dx, dy;
        if (sbot_step_to(r, r->mon[m].x, r->mon[m].y, 0, &dx, &dy) ||
            sbot_step_to(r, r->mon[m].x, r->mon[m].y, 1, &dx, &dy))
            return sbot_dir_key(dx, dy);
        return '.';
    }
    if (!b->explored_out)
        return 'o';
    int ax, ay, dx, dy;
    if (sbot_find_glyph(r, '"', &ax, &ay) &&
        sbot_step_to(r, ax, ay, 1, &dx, &dy))
        return sbot_dir_key(dx, dy); /* the Amulet, passed in a fight */
    if (strcmp(r->log[0], "You have not found the stairs down yet.") == 0)
        return 0;
    return '>';
}

/* The bot's next key for screen s (0: nothing left to do). */
static inline int sbot_key(sbot_t *b, const screen_t *s)
{
    sr_screen_t r;
    sr_read(&r, s);
    int key = 0, pick;
    if (r.mode != SR_TARGET)
        b->aimed = 0;
    switch (r.mode) {
    case SR_INVENTORY:
    case SR_IDENTIFY:
    case SR_THROW:
        key = sbot_menu(b, &r);
        break;
    case SR_TARGET:
        key = sbot_aim(b, &r);
        break;
    case SR_DROP:
    case SR_OTHER:
        key = KEY_ESC_SB;
        break;
    default:
        if (b->last_key == KEY_ENTER_SB && r.turn == b->seen.turn) {
            key = KEY_ESC_SB; /* aiming was refused: still aiming */
            break;
        }
        if (b->last_key == 'i') { /* no menu: "Your pack is empty." */
            b->npack = 0;
            b->pack_dirty = 0;
        }
        b->seen = r;
        sbot_note(b, &r);
        if (r.nmon == 0 && sbot_underfoot(&r) && b->last_key != 'g') {
            key = 'g';
        } else if (b->idle_turn != r.turn &&
                   (pick = sbot_item(b, &r, &key)) >= 0) {
            b->want = b->pack[pick].letter;
            b->idle_turn = r.turn;
        } else if (b->pack_dirty && r.nmon == 0) {
            key = 'i';
        } else {
            key = sbot_move(b, &r);
            if (key == 'R')
                b->idle_turn = r.turn;
        }
    }
    b->last_key = key;
    return key;
}

#endif
