/* dump.c - the character dump (dump.h). */
#include "dump.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "combat.h"

/* A text being written into a capped buffer; len counts all of it. */
typedef struct text {
    char *out;
    size_t cap, len;
} text_t;

static void add(text_t *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void add(text_t *t, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t k = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    if (t->len + 1 < t->cap) {
        size_t room = t->cap - 1 - t->len;
        memcpy(t->out + t->len, line, k < room ? k : room);
    }
    t->len += k;
    if (t->cap)
        t->out[t->len < t->cap ? t->len : t->cap - 1] = 0;
}

static void head(text_t *t, const game_t *g, const char *end)
{
    const player_t *p = &g->player;
    char cause[96];
    add(t, "rogued character dump (game version %d, seed %llu, %s rules)\n\n",
        GAME_VERSION, (unsigned long long)g->seed,
        combat_ruleset_name(g->opt.ruleset));
    if (game_over(g))
        snprintf(cause, sizeof cause, "quit");
    else if (g->killer == KILLER_WON) /* (its depth follows: said once) */
        snprintf(cause, sizeof cause, "won: took the Amulet");
    else if (g->killer == KILLER_NONE && end && end[0])
        snprintf(cause, sizeof cause, "%s", end);
    else
        game_death_cause(g, cause, sizeof cause);
    add(t, "%s on depth %d after %u turn%s; score %d.\n", cause, g->depth,
        (unsigned)g->turn, g->turn == 1 ? "" : "s", game_score(g));
    add(t, "Level %d, %d XP (next at %d), HP %d/%d, gold %d, %d kills.\n",
        p->level, p->xp, game_xp_next(p->level), p->hp, p->max_hp, p->gold,
        g->kills);
}

/* A pack slot's name with everything identified: "+1 long sword
 * (cursed)", "long sword" (fists: NULL slot), the kind's own name. */
static const char *true_name(const game_t *g, int slot, char *buf,
                             size_t len)
{
    int kind = g->pack[slot];
    if (!item_is_equipment(kind))
        snprintf(buf, len, "%s", item_stats(kind)->name);
    else
        snprintf(buf, len, "%+d %s%s", g->pack_ench[slot],
                 item_stats(kind)->name,
                 item_slot_cursed(g, slot) ? " (cursed)" : "");
    return buf;
}

static void equipment(text_t *t, const game_t *g)
{
    const player_t *p = &g->player;
    char w[64], a[64], name[64];
    add(t, "\nWeapon: %s\nArmour: %s\n",
        item_pack_has(g, p->weapon) ? true_name(g, p->weapon, w, sizeof w)
                                    : "none (fists)",
        item_pack_has(g, p->armor) ? true_name(g, p->armor, a, sizeof a)
                                   : item_no_armour_name(g));
    add(t, "\nPack (everything identified):\n");
    int any = 0;
    for (int i = 0; i < PACK_SIZE; i++) {
        if (!item_pack_has(g, i))
            continue;
        int kind = g->pack[i];
        true_name(g, i, name, sizeof name);
        any = 1;
        if (item_is_wand(kind))
            add(t, "  %c) %s (%d charges)", 'a' + i, name, g->pack_n[i]);
        else if (g->pack_n[i] > 1)
            add(t, "  %c) %d x %s", 'a' + i, g->pack_n[i], name);
        else
            add(t, "  %c) %s", 'a' + i, name);
        add(t, "%s%s\n", i == p->weapon ? " (wielded)" : "",
            i == p->armor ? " (worn)" : "");
        if (item_is_magic(kind) && !item_known(g, kind)) {
            char was[64];
            add(t, "       (unknown to you: %s)\n",
                item_unknown_name(g, kind, was, sizeof was));
        }
        if (item_is_equipment(kind) && !(g->pack_flags[i] & ITEM_F_KNOWN))
            add(t, "       (enchantment unknown to you)\n");
    }
    if (!any)
        add(t, "  (empty)\n");
}

static void kills_and_depths(text_t *t, const game_t *g)
{
    add(t, "\nKills by kind:\n");
    int any = 0;
    for (int k = 0; k < MON_COUNT; k++) {
        if (!g->kills_by[k])
            continue;
        any = 1;
        add(t, "  %3u %s\n", (unsigned)g->kills_by[k], monster_stats(k)->name);
    }
    if (!any)
        add(t, "  (none)\n");
    add(t, "\nDepths reached:\n");
    for (int d = 1; d <= g->depth && d <= GAME_AMULET_DEPTH; d++)
        add(t, "  depth %2d on turn %u\n", d, (unsigned)g->depth_turn[d]);
}

static void last_messages(text_t *t, const game_t *g)
{
    add(t, "\nLast messages:\n");
    int n = 0;
    while (n < 12 && game_msg(g, n))
        n++;
    for (int i = n - 1; i >= 0; i--)
        add(t, "  %s\n", game_msg(g, i)->text);
}

/* The tile (x, y) as the player knew it at the end. */
static char glyph(const game_t *g, int x, int y)
{
    if (x == g->player.x && y == g->player.y)
        return '@';
    if (!map_known(&g->map, x, y))
        return ' ';
    int m = game_monster_at(g, x, y);
    if (m >= 0 && game_lit(g, x, y))
        return monster_stats(g->monsters[m].kind)->glyph;
    char c = 0;
    for (int i = 0; i < MAX_ITEMS; i++) {
        const item_t *it = &g->items[i];
        if (it->type == ITEM_NONE || !it->seen || it->x != x || it->y != y)
            continue;
        char ic = it->type == ITEM_THING ? item_stats(it->kind)->glyph
                  : it->type == ITEM_GOLD ? '$' : '%';
        if (!c || it->type == ITEM_THING) /* a thing over gold over a corpse */
            c = ic;
    }
    if (c)
        return c;
    switch (g->map.tile[y][x]) {
    case TILE_FLOOR: return '.';
    case TILE_STAIRS: return '>';
    default: return '#';
    }
}

static void final_map(text_t *t, const game_t *g)
{
    add(t, "\nThe map of depth %d at the end:\n", g->depth);
    for (int y = 0; y < MAP_H; y++) {
        char row[MAP_W + 1];
        int n = 0;
        for (int x = 0; x < MAP_W; x++) {
            row[x] = glyph(g, x, y);
            if (row[x] != ' ')
                n = x + 1;
        }
        row[n] = 0;
        add(t, "%s\n", row);
    }
}

size_t game_dump(const game_t *g, const char *end, char *out, size_t cap)
{
    text_t t = { out, cap, 0 };
    if (cap)
        out[0] = 0;
    head(&t, g, end);
    equipment(&t, g);
    kills_and_depths(&t, g);
    last_messages(&t, g);
    final_map(&t, g);
    return t.len;
}
