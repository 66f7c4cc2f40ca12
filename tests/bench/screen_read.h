/* screen_read.h - what a player reads off an 80x24 play screen: the map
 * glyphs, where the player and the monsters in view are, the log lines,
 * the status line (HP, depth, turn, effects), and the lines of a pack menu
 * when one is open. The screen-only bot (screen_bot.h) decides from this
 * and from nothing else of the game.
 *
 * It reads the characters the view drew (view_draw, DISPLAY_PLAIN: ASCII
 * glyphs), the same text the server sends a telnet player: the layout of
 * docs/game.md, "The screen" (the map in rows 0..MAP_H-2, the log above
 * the status line, the status line in the last row, the pack menu a box
 * over the map). Header-only (static inline), like bot.h. */
#ifndef ROGUE_BENCH_SCREEN_READ_H
#define ROGUE_BENCH_SCREEN_READ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "item.h"
#include "map.h"
#include "monster.h"
#include "screen.h"

#define SR_W 80
#define SR_H 24
#define SR_LOG 3        /* log rows above the status line */
#define SR_MONS 64
#define SR_PACK 26

/* What the screen shows. */
enum sr_mode {
    SR_PLAY = 0,    /* the map, the log, the status line */
    SR_INVENTORY,   /* the pack menu: a letter uses */
    SR_IDENTIFY,    /* the pack menu: a letter identifies */
    SR_THROW,       /* the pack menu: a letter throws */
    SR_DROP,        /* the pack menu: a letter drops */
    SR_TARGET,      /* aiming: the newest line says "Aim the ..." */
    SR_OTHER        /* a whole-screen page (help, character, history...) */
};

/* A pack menu line: "c) ! 2 murky potions (wielded)". */
typedef struct sr_item {
    char letter;
    char glyph;
    int count;          /* the leading number, else 1 */
    int in_use;         /* "(wielded)" or "(worn)" */
    char name[64];      /* without the count and the "(...)" suffixes */
} sr_item_t;

typedef struct sr_mon {
    int x, y;
    char glyph;
} sr_mon_t;

typedef struct sr_screen {
    int mode;                   /* enum sr_mode */
    char map[MAP_H][MAP_W];     /* the characters of the map rows */
    int px, py;                 /* '@', or -1 */
    int nmon;
    sr_mon_t mon[SR_MONS];
    char log[SR_LOG][SR_W + 1]; /* log[0] the newest, "(xN)" cut off */
    int hp, max_hp, depth, turn, poisoned, fast;
    int npack;
    sr_item_t pack[SR_PACK];
} sr_screen_t;

/* 1 if glyph c is a monster of the help's legend (monster.h's table). */
static inline int sr_is_monster(char c)
{
    for (int k = 0; k < MON_COUNT; k++)
        if (monster_stats(k)->glyph == c)
            return 1;
    return 0;
}

/* The legend's row for a monster glyph (its hp says how strong it is). */
static inline const creature_stats_t *sr_monster(char c)
{
    for (int k = 0; k < MON_COUNT; k++)
        if (monster_stats(k)->glyph == c)
            return monster_stats(k);
    return monster_stats(0);
}

/* Row y of s as text (trailing blanks cut), into out[SR_W + 1]. */
static inline void sr_row(const screen_t *s, int y, char *out)
{
    int n = 0;
    for (int x = 0; x < SR_W && x < s->w; x++) {
        uint32_t c = screen_cat(s, x, y)->ch;
        out[n++] = c < 128 ? (char)c : '?';
    }
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = 0;
}

/* The number after label in the status line, or -1. */
static inline int sr_status_num(const char *line, const char *label)
{
    const char *p = strstr(line, label);
    if (!p)
        return -1;
    p += strlen(label);
    while (*p == ' ')
        p++;
    return *p >= '0' && *p <= '9' ? atoi(p) : -1;
}

static inline void sr_read_status(sr_screen_t *r, const char *line)
{
    r->hp = sr_status_num(line, "HP:");
    const char *slash = strchr(line, '/');
    r->max_hp = slash && strstr(line, "HP:") < slash ? atoi(slash + 1) : r->hp;
    r->depth = sr_status_num(line, "Depth:");
    if (r->depth < 0)
        r->depth = sr_status_num(line, "D:");
    r->turn = sr_status_num(line, "Turn:");
    if (r->turn < 0)
        r->turn = sr_status_num(line, "T:");
    r->poisoned = strstr(line, "Pois") != NULL;
    r->fast = strstr(line, "Fast") != NULL;
}

/* One pack menu line ("  | c) ! name"), 0 if it is none. */
static inline int sr_read_item(const char *row, sr_item_t *it)
{
    const char *p = strstr(row, ") ");
    if (!p || p - row < 1 || p[-1] < 'a' || p[-1] > 'z' || p[2] == 0 ||
        (p - row >= 2 && p[-2] != ' '))
        return 0;
    memset(it, 0, sizeof *it);
    it->letter = p[-1];
    it->glyph = p[2];
    p += 4;
    it->count = 1;
    if (*p >= '0' && *p <= '9') {
        it->count = atoi(p);
        while (*p && *p != ' ')
            p++;
        if (*p == ' ')
            p++;
    }
    int n = 0;
    while (*p && *p != '|' && n < (int)sizeof it->name - 1)
        it->name[n++] = *p++;
    while (n > 0 && it->name[n - 1] == ' ')
        n--;
    it->name[n] = 0;
    it->in_use = strstr(it->name, "(wielded)") || strstr(it->name, "(worn)");
    char *paren = strstr(it->name, " (");
    if (paren)
        *paren = 0;
    return 1;
}

/* A pack menu has two columns (36 cells apart): each row may hold two. */
static inline void sr_read_pack(sr_screen_t *r, const screen_t *s)
{
    char row[SR_W + 1];
    for (int y = 3; y < MAP_H && r->npack < SR_PACK; y++) {
        sr_row(s, y, row);
        for (int col = 0; col < 2 && r->npack < SR_PACK; col++) {
            int x0 = 4 + col * 36;
            if ((int)strlen(row) <= x0)
                continue;
            char cell[SR_W + 1];
            snprintf(cell, sizeof cell, "%.*s", col ? SR_W : 36, row + x0 - 1);
            sr_item_t it;
            if (sr_read_item(cell, &it))
                r->pack[r->npack++] = it;
        }
    }
}

static inline void sr_read_map(sr_screen_t *r, const screen_t *s)
{
    r->px = r->py = -1;
    memset(r->map[MAP_H - 1], '#', MAP_W); /* the border row: the log's */
    for (int y = 0; y < MAP_H - 1; y++)
        for (int x = 0; x < MAP_W; x++) {
            uint32_t c = screen_cat(s, x, y)->ch;
            char ch = c < 128 ? (char)c : '?';
            r->map[y][x] = ch;
            if (ch == '@') {
                r->px = x;
                r->py = y;
            } else if (sr_is_monster(ch) && r->nmon < SR_MONS) {
                r->mon[r->nmon].x = x;
                r->mon[r->nmon].y = y;
                r->mon[r->nmon++].glyph = ch;
            }
        }
}

/* Reads an 80x24 plain screen into r. */
static inline void sr_read(sr_screen_t *r, const screen_t *s)
{
    memset(r, 0, sizeof *r);
    char row[SR_W + 1];
    for (int i = 0; i < SR_LOG; i++) {
        sr_row(s, SR_H - 2 - i, r->log[i]);
        char *x = strstr(r->log[i], " (x");
        if (x && x[strlen(x) - 1] == ')')
            *x = 0;
    }
    sr_row(s, SR_H - 1, row);
    sr_read_status(r, row);
    sr_row(s, 2, row);
    if (strstr(row, "Inventory: press a letter"))
        r->mode = SR_INVENTORY;
    else if (strstr(row, "Identify which item?"))
        r->mode = SR_IDENTIFY;
    else if (strstr(row, "Throw which item?"))
        r->mode = SR_THROW;
    else if (strstr(row, "Drop which item?"))
        r->mode = SR_DROP;
    if (r->mode != SR_PLAY) {
        sr_read_pack(r, s);
        return;
    }
    sr_read_map(r, s);
    if (r->px < 0 || r->hp < 0)
        r->mode = SR_OTHER;
    else if (strncmp(r->log[0], "Aim the ", 8) == 0 ||
             strncmp(r->log[0], "Throw the ", 10) == 0)
        r->mode = SR_TARGET;
}

#endif
