/* view.c - draws a game into a cell grid. Knows layout and colours; knows
 * nothing of escape codes (that is screen_diff.c). */
#include "view.h"

#include <stdio.h>
#include <string.h>

#include "combat.h"
#include "keys.h"
#include "palette.h"
#include "view_know.h"
#include "view_parts.h"
#include "view_status.h"

_Static_assert(VIEW_MIN_H - 2 == GAME_HISTORY_ROWS,
               "the core's history clamp is the smallest history page");
_Static_assert(VIEW_NARROW_MIN_W == GAME_HISTORY_NARROW_W &&
                   VIEW_NARROW_MIN_H - 2 == GAME_HISTORY_NARROW_ROWS,
               "the core's narrow history clamp is the smallest narrow page");

int view_fits(int w, int h)
{
    return w >= VIEW_NARROW_MIN_W && h >= VIEW_NARROW_MIN_H;
}

int view_full(int w, int h)
{
    return w >= VIEW_MIN_W && h >= VIEW_MIN_H;
}

uint8_t view_msg_colour(int kind)
{
    switch (kind) {
    case MSG_SYSTEM: return COL_BCYAN;
    case MSG_GOOD:   return COL_BGREEN;
    case MSG_BAD:    return COL_BRED;
    case MSG_KILL:   return COL_BYELLOW;
    case MSG_LEVEL:  return COL_BMAGENTA;
    case MSG_WARN:   return COL_YELLOW;
    default:         return COL_WHITE;
    }
}

void view_centred(screen_t *s, int y, const char *text, uint8_t fg,
                  uint8_t attr)
{
    int x = (s->w - (int)strlen(text)) / 2;
    screen_puts(s, x < 0 ? 0 : x, y, text, fg, COL_DEFAULT, attr);
}

void view_draw_too_small(screen_t *s)
{
    static const char ask[] = "Please enlarge your terminal to 40x20.";
    char line[64];
    int y = s->h / 2 - 1;
    /* The whole sentence where it fits, the size alone where it would be
     * cut (a phone's narrow terminal). */
    view_centred(s, y < 0 ? 0 : y,
                  s->w >= (int)sizeof ask - 1 ? ask : "Enlarge to 40x20.",
                  COL_BYELLOW, ATTR_BOLD);
    snprintf(line, sizeof line, "(it is %dx%d now)", s->w, s->h);
    view_centred(s, y + 1, line, COL_WHITE, 0);
}

void view_too_small_keys(screen_t *s, const char *text, uint8_t fg)
{
    int y = s->h / 2 + 1;
    if (y >= s->h)
        return;
    cell_t blank = cell_make(' ', COL_DEFAULT, COL_DEFAULT, 0);
    for (int x = 0; x < s->w; x++)
        *screen_at(s, x, y) = blank;
    view_centred(s, y, text, fg, 0);
}

/* The look of each tile, by view_look8's index: lit wins over remembered;
 * and of every two neighbouring tiles, so that eight take four loads. */
#define LOOK(i) VIEW_LOOK_##i
const cell_t view_look[VIEW_LOOKS] = {
    LOOK(0), LOOK(1), LOOK(2), LOOK(3), LOOK(4), LOOK(5),
    LOOK(6), LOOK(7), LOOK(8), LOOK(9), LOOK(10), LOOK(11),
};
#define PAIR(a, b) { LOOK(a), LOOK(b) }
#define PAIRS(a) PAIR(a, 0), PAIR(a, 1), PAIR(a, 2), PAIR(a, 3), PAIR(a, 4), \
                 PAIR(a, 5), PAIR(a, 6), PAIR(a, 7), PAIR(a, 8), PAIR(a, 9), \
                 PAIR(a, 10), PAIR(a, 11)
const cell_t view_look_pair[VIEW_LOOKS * VIEW_LOOKS][2] = {
    PAIRS(0), PAIRS(1), PAIRS(2), PAIRS(3), PAIRS(4), PAIRS(5),
    PAIRS(6), PAIRS(7), PAIRS(8), PAIRS(9), PAIRS(10), PAIRS(11),
};
#undef PAIRS
#undef PAIR
#undef LOOK
_Static_assert(TILE_WALL == 0 && TILE_FLOOR == 1 && TILE_STAIRS == 2,
               "the looks are in tile order");

static void mark_chunk(uint8_t *marks, int x, int y)
{
    if (marks && (unsigned)x < MAP_W && (unsigned)y < MAP_H) {
        int c = y * VIEW_CHUNKS_X + x / 8;
        marks[c / 8] |= (uint8_t)(1u << (c % 8));
    }
}

/* The slots of the items seen, in the order they are drawn, and of the
 * living monsters: every slot up to the slots' ends (world.h) looked at. */
static void find_slots(const game_t *g, uint8_t items[MAX_ITEMS], int *ni,
                       uint8_t monsters[MAX_MONSTERS], int *nm)
{
    /* Items where last seen (item_t.seen; only the player moves items, in
     * view, so a remembered item is where it was seen); corpses under
     * gold under things, each kind in slot order. */
    enum { CORPSES, GOLD, THINGS };
    uint8_t seen[3][MAX_ITEMS];
    int nseen[3] = { 0, 0, 0 };
    _Static_assert(MAX_ITEMS % 8 == 0 && MAX_MONSTERS % 8 == 0,
                   "the slots are looked at eight at a time");
    /* An item is seen only while its slot is live (item_see, item_put),
     * so no seen one is at or past the slots' end (world.h). */
    int items_end = (game_items_end(g) + 7) & ~7;
    for (int i0 = 0; i0 < items_end; i0 += 8) {
        const item_t *it = &g->items[i0];
        /* Most slots are empty or unseen: eight at a time (every key),
         * in a loop of its own (a test of i % 4 in the loop over the
         * slots cost three times as much). */
        if (!(it[0].seen | it[1].seen | it[2].seen | it[3].seen |
              it[4].seen | it[5].seen | it[6].seen | it[7].seen))
            continue;
        for (int i = i0; i < i0 + 8; i++) {
            it = &g->items[i];
            if (!it->seen)
                continue;
            int layer = it->type == ITEM_CORPSE ? CORPSES
                        : it->type == ITEM_GOLD ? GOLD
                        : it->type == ITEM_THING ? THINGS : -1;
            if (layer >= 0)
                seen[layer][nseen[layer]++] = (uint8_t)i;
        }
    }
    *ni = 0;
    for (int layer = CORPSES; layer <= THINGS; layer++) {
        memcpy(items + *ni, seen[layer], (size_t)nseen[layer]);
        *ni += nseen[layer];
    }
    *nm = 0;
    int monsters_end = (game_monsters_end(g) + 7) & ~7;
    for (int i0 = 0; i0 < monsters_end; i0 += 8) {
        const monster_t *m = &g->monsters[i0];
        if (!(m[0].alive | m[1].alive | m[2].alive | m[3].alive |
              m[4].alive | m[5].alive | m[6].alive | m[7].alive))
            continue;
        for (int i = i0; i < i0 + 8; i++)
            if (g->monsters[i].alive)
                monsters[(*nm)++] = (uint8_t)i;
    }
}

/* Draws the items of slots items[0..ni), the monsters of slots
 * monsters[0..nm) that are in view, then the player. */
static void draw_slots(const game_t *g, const display_t *d, screen_t *s,
                       uint8_t *marks, const uint8_t *items, int ni,
                       const uint8_t *monsters, int nm)
{
    uint8_t mem = d->colours == COLOURS_16 ? COL_GREY : COL_MEM_ITEM;
    for (int j = 0; j < ni; j++) {
        const item_t *it = &g->items[items[j]];
        int lit = game_lit(g, it->x, it->y);
        if (it->type == ITEM_CORPSE) {
            screen_put(s, it->x, it->y, '%', lit ? COL_RED : mem,
                       COL_DEFAULT, 0);
        } else if (it->type == ITEM_GOLD) {
            screen_put(s, it->x, it->y, '$', lit ? COL_BYELLOW : mem,
                       COL_DEFAULT, lit ? ATTR_BOLD : 0);
        } else {
            const item_stats_t *k = item_stats(it->kind);
            screen_put(s, it->x, it->y, (uint32_t)k->glyph,
                       lit ? item_colour(g, it->kind) : mem, COL_DEFAULT,
                       lit ? ATTR_BOLD : 0);
        }
        mark_chunk(marks, it->x, it->y);
    }
    /* Monsters only while in view. */
    for (int j = 0; j < nm; j++) {
        const monster_t *m = &g->monsters[monsters[j]];
        if (!m->alive || !game_lit(g, m->x, m->y))
            continue;
        const creature_stats_t *k = monster_stats(m->kind);
        screen_put(s, m->x, m->y, (uint32_t)k->glyph, k->colour,
                   COL_DEFAULT, ATTR_BOLD);
        mark_chunk(marks, m->x, m->y);
    }
    screen_put(s, g->player.x, g->player.y, '@', COL_BWHITE, COL_DEFAULT,
               ATTR_BOLD);
    mark_chunk(marks, g->player.x, g->player.y);
}

void view_movers(const game_t *g, const display_t *d, screen_t *s,
                 uint8_t *marks)
{
    uint8_t items[MAX_ITEMS], monsters[MAX_MONSTERS];
    int ni, nm;
    find_slots(g, items, &ni, monsters, &nm);
    draw_slots(g, d, s, marks, items, ni, monsters, nm);
}

int view_mover_slots(const game_t *g, view_mover_slots_t *v)
{
    uint8_t items[MAX_ITEMS], monsters[MAX_MONSTERS];
    int ni, nm;
    find_slots(g, items, &ni, monsters, &nm);
    if (ni > VIEW_MOVER_SLOTS || nm > VIEW_MOVER_SLOTS)
        return 0;
    v->n_items = (uint8_t)ni;
    v->n_monsters = (uint8_t)nm;
    memcpy(v->items, items, (size_t)ni);
    memcpy(v->monsters, monsters, (size_t)nm);
    return 1;
}

void view_movers_from(const game_t *g, const display_t *d, screen_t *s,
                      uint8_t *marks, const view_mover_slots_t *v)
{
    draw_slots(g, d, s, marks, v->items, v->n_items, v->monsters,
               v->n_monsters);
}

/* Every cell of the map's rectangle, blank where nothing is known (so
 * view_draw need not clear it first), then the movers. */
void view_map(const game_t *g, const display_t *d, screen_t *s)
{
    int plain = view_plain_map(d);
    for (int y = 0; s->keep && y < MAP_H; y++)
        screen_keep_row(s, y); /* every cell is written: once, not a chunk */
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x += 8) {
            uint64_t word = view_look8(g, y, x);
            if (plain || word == 0) {
                view_put_look8(s, y, x, word);
            } else {
                cell_t cells[8];
                view_map_cells8(g, d, y, x, word, cells);
                memcpy(screen_at(s, x, y), cells, sizeof cells);
            }
        }
    view_movers(g, d, s, NULL);
}

/* Blanks all but the map's rectangle, which draw_map fills itself. */
static void clear_around_map(screen_t *s)
{
    cell_t blank = cell_make(' ', COL_DEFAULT, COL_DEFAULT, 0);
    for (int y = 0; y < s->h; y++) {
        cell_t *row = screen_at(s, 0, y);
        for (int x = y < MAP_H ? MAP_W : 0; x < s->w; x++)
            row[x] = blank;
    }
}

/* The frames of boxes: corners (top left, top right, bottom left, bottom
 * right), horizontal, vertical. */
enum { BOX_ASCII, BOX_LIGHT, BOX_DOUBLE };
static const uint32_t box_chars[3][6] = {
    [BOX_ASCII] = { '+', '+', '+', '+', '-', '|' },
    [BOX_LIGHT] = { 0x250c, 0x2510, 0x2514, 0x2518, 0x2500, 0x2502 },
    [BOX_DOUBLE] = { 0x2554, 0x2557, 0x255a, 0x255d, 0x2550, 0x2551 },
};

/* A box of w x h cells at (x0, y0): a frame (+ - | in ASCII, lines of
 * `style` in UTF-8), blank inside. */
static void draw_box(screen_t *s, const display_t *d, int style, int x0,
                     int y0, int w, int h, uint8_t fg)
{
    const uint32_t *b = box_chars[d->glyphs == GLYPHS_UTF8 ? style : BOX_ASCII];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int edge_x = x == 0 || x == w - 1, edge_y = y == 0 || y == h - 1;
            uint32_t ch = edge_x && edge_y ? b[(y > 0) * 2 + (x > 0)]
                          : edge_y ? b[4] : edge_x ? b[5] : ' ';
            screen_put(s, x0 + x, y0 + y, ch, fg, COL_DEFAULT, 0);
        }
}

/* The blast's radius of what is being aimed (a fireball's), or 0; 0 too
 * for a scroll not known yet, whose blast would tell its kind. */
static int blast_radius(const game_t *g)
{
    int slot = g->target.slot;
    if (!item_pack_has(g, slot) || !item_known(g, g->pack[slot]))
        return 0;
    return item_stats(g->pack[slot])->radius;
}

/* MODE_TARGET: every tile that may be chosen (in view, in range) on
 * a blue ground; a blast's tiles around the cursor (a fireball's, which
 * burns the player too) on a red one, the player's own among them; the
 * cursor in reverse video. A play-test burned itself for 12 of its 13 HP
 * with the blast's reach shown nowhere. */
void view_target(const game_t *g, const display_t *d, screen_t *s)
{
    uint8_t ground = d->colours == COLOURS_16 ? COL_BLUE : COL_TARGET_GROUND;
    int r = blast_radius(g);
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            if (r > 0 && y < MAP_H - 1 && /* (that row is the log's) */
                item_in_reach(g->target.x, g->target.y, x, y, r)) {
                cell_t *c = screen_at(s, x, y);
                c->bg = COL_RED;
                if (c->fg == COL_RED) /* an orc: not red on red */
                    c->fg = COL_BWHITE;
            }
            else if (target_allowed(g, x, y))
                screen_at(s, x, y)->bg = ground;
    cell_t *c = screen_at(s, g->target.x, g->target.y);
    if (c)
        c->attr |= ATTR_REVERSE;
}

int view_pack_lists(const game_t *g, int i)
{
    return item_pack_has(g, i) &&
           (g->mode != MODE_IDENTIFY || item_slot_unknown(g, i));
}

void view_pack_line_fit(char *line, int room)
{
    if ((int)strlen(line) <= room)
        return;
    char *l = strstr(line, " labelled ");
    if (l)
        memmove(l + 1, l + 10, strlen(l + 10) + 1);
    if ((int)strlen(line) <= room)
        return;
    if (room >= 3)
        memcpy(line + room - 3, "...", 4);
    else
        line[room > 0 ? room : 0] = '\0'; /* no room for "..." */
}

/* The pack menus (view_shows_pack): the pack over the map, in two columns of
 * PACK_ROWS (so that 26 slots fit the map rows of an 80x24 terminal); one
 * column, and a name the box's width, while the pack fits in it. Each
 * item keeps its letter; a count for a stack; what is in use is marked. */
#define PACK_ROWS 13
static void draw_pack(const game_t *g, const display_t *d, screen_t *s)
{
    enum { W = 76, COL_W = 36 };
    int used[PACK_SIZE], n = 0;
    for (int i = 0; i < PACK_SIZE; i++)
        if (view_pack_lists(g, i))
            used[n++] = i;
    int rows = n < PACK_ROWS ? n : PACK_ROWS;
    int h = rows + 4, x0 = (MAP_W - W) / 2, y0 = 1;
    char line[80];
    draw_box(s, d, BOX_LIGHT, x0, y0, W, h, COL_BCYAN);
    screen_puts(s, x0 + 2, y0 + 1,
                g->mode == MODE_DROP
                    ? "Drop which item? Press its letter (Esc: back)."
                : g->mode == MODE_IDENTIFY
                    ? "Identify which item? Press its letter (Esc: the scroll is spent)."
                : g->mode == MODE_THROW
                    ? "Throw which item? Press its letter (Esc: back)."
                    : "Inventory: press a letter to use, wield or wear it (Esc: back).",
                COL_BYELLOW, COL_DEFAULT, ATTR_BOLD);
    for (int j = 0; j < n; j++) {
        int i = used[j];
        const item_stats_t *k = item_stats(g->pack[i]);
        int x = x0 + 2 + (j / PACK_ROWS) * COL_W, y = y0 + 3 + j % PACK_ROWS;
        snprintf(line, sizeof line, "%c) ", 'a' + i);
        x += screen_puts(s, x, y, line, COL_WHITE, COL_DEFAULT, 0);
        screen_put(s, x, y, (uint32_t)k->glyph, item_colour(g, g->pack[i]),
                   COL_DEFAULT, ATTR_BOLD);
        char name[56];
        item_slot_name(g, i, 0, name, sizeof name);
        snprintf(line, sizeof line, "%s%s", name,
                 i == g->player.weapon ? " (wielded)"
                 : i == g->player.armor ? " (worn)" : "");
        /* "a) ? " before, a blank after; a name has the box's width
         * while one column holds the pack */
        view_pack_line_fit(line, (n > PACK_ROWS ? COL_W : W - 4) - 6);
        screen_puts(s, x + 2, y, line, COL_WHITE, COL_DEFAULT, 0);
    }
}

/* The log: from the map's last row (always wall: the border), which it
 * blanks, to the row above the status line (view_status_row: up to
 * VIEW_LOG_MAX rows), the newest at the bottom, next to the status line,
 * older lines up from it as far as there are rows. Lines from the last
 * key that did anything are in their colours and bold; older lines
 * grey. */
int view_log_bottom(const screen_t *s)
{
    return view_status_row(s->w, s->h) - 1;
}

int view_log_line(const game_t *g, screen_t *s, int row, int i)
{
    const msg_t *m = game_msg(g, i);
    if (!m)
        return 0;
    int fresh = m->seq >= g->log_fresh; /* game_msg_is_new */
    int n = screen_puts(s, 0, row, m->text,
                        fresh ? view_msg_colour(m->kind) : COL_GREY,
                        COL_DEFAULT, fresh ? ATTR_BOLD : 0);
    return n < s->w ? n : s->w;
}

void view_log(const game_t *g, screen_t *s)
{
    int top = MAP_H - 1, bottom = view_log_bottom(s);
    cell_t blank = cell_make(' ', COL_DEFAULT, COL_DEFAULT, 0);
    uint32_t word;
    memcpy(&word, &blank, sizeof word);
    cell_t *row0 = screen_at(s, 0, top);
    for (int x = 0; x < s->w; x++) /* words: the compiler stores 4 a time */
        memcpy(&row0[x], &word, sizeof word);
    for (int row = bottom, i = 0; row >= top && i < g->log_count; row--, i++)
        view_log_line(g, s, row, i);
}

int view_status(const game_t *g, const display_t *d, screen_t *s)
{
    /* The whole width; view_status.c drops what does not fit. */
    return view_status_fit(g, d, s, view_status_row(s->w, s->h), s->w);
}

void view_status_turn(const game_t *g, screen_t *s, int x)
{
    /* On every key that takes a turn: no printf (docs/performance.md,
     * "The draw and the turn, cheaper"). */
    char digits[VIEW_NUM_MAX];
    screen_puts(s, x, view_status_row(s->w, s->h),
                view_num(digits, g->turn), COL_WHITE, COL_DEFAULT, 0);
}

void view_look_line(const game_t *g, char *line, size_t len)
{
    char what[MSG_LEN];
    game_describe(g, g->target.x, g->target.y, what, sizeof what);
    snprintf(line, len, "Look: %s%s", what,
             game_describe_beneath(g, g->target.x, g->target.y));
}

/* MODE_LOOK: the cursor in reverse video, its tile's description on the
 * status line. */
static void draw_look(const game_t *g, screen_t *s)
{
    char line[VIEW_LOOK_LINE];
    cell_t *c = screen_at(s, g->target.x, g->target.y);
    if (c)
        c->attr |= ATTR_REVERSE;
    view_look_line(g, line, sizeof line);
    int y = view_status_row(s->w, s->h);
    cell_t blank = cell_make(' ', COL_DEFAULT, COL_DEFAULT, 0);
    for (int x = 0; x < s->w; x++)
        *screen_at(s, x, y) = blank;
    screen_puts(s, 0, y, line, COL_BYELLOW, COL_DEFAULT, ATTR_BOLD);
}

/* Page 1 fills 80x24 to its last row (the combat line); the items'
 * glyphs take the row that parted the keys from the rules (a play-test
 * found every monster's letter explained and no item's). Its aiming
 * lines are for whatever aims (target.c: a throw, a wand, a scroll; a
 * play-test found them naming a scroll only), in the rows a scroll's
 * took. */
static const char *const help_lines[] = {
    "Keys (? again: monsters and rules)",
    "",
    "  Move          arrow keys, vi-keys (hjklyubn), numpad; Home/End/PgUp/PgDn",
    "  Run           Shift + a vi-key (HJKLYUBN)  Attack   move into a monster",
    "  Travel        _ (or > off the stairs): to the stairs, once seen",
    "  Explore       o  (walks to what is not seen yet; stops at items)",
    "  Wait a turn   .  or  5   (with no monster in view: heals 1 HP)",
    "  Pick up       g  or  ,          Use/wield/wear   i, then its letter",
    "  Drop          d, then a letter  Go down          >  (on the stairs)",
    "  Look          ;  or  x          Character        @  or  C",
    "  Messages      P  (history)      Quit Q (asks y/n)   Save & leave S",
    "  Options       O  (display)      Autopickup A (starts off)  Redraw ^L",
    "  Rest          R  (until healed) Count  0, a number, then . or a move",
    "  Throw         t, then a letter  Discoveries      \\  (what you learned)",
    "  Items         ! potion ? scroll ) weapon [ armour / wand $ gold % corpse",
    "Running, travel and exploring stop when a monster comes into view.",
    "Aiming a throw (t), a wand or a scroll: move the cursor; Enter or . (or a",
    "click) fires, Esc cancels. A wall costs no turn; every other move,",
    "attack, wait, pick-up, use or drop is one turn, then every monster acts.",
    "Goal: the Amulet of Yendor (\") lies at depth 12. Take it to win.",
    "",
    "Press ? for page 2, any other key to return to the game.",
};

/* Page 2: the monster legend and the rules of a blow, 24 rows to its
 * footer, centred on a bigger screen as page 1 is (a terminal QA at
 * 250x70 found page 2 at the top, its footer 50 rows under it). */
static void draw_legend(const game_t *g, screen_t *s)
{
    int x = (s->w - 78) / 2, top = (s->h - 24) / 2, y;
    char line[96];
    if (x < 0)
        x = 0;
    if (top < 0)
        top = 0;
    y = top;
    screen_puts(s, x, y++, "Monsters (from the top of the dungeon down)",
                COL_BYELLOW, COL_DEFAULT, ATTR_BOLD);
    int order[MON_COUNT];
    monster_kinds_by_depth(order);
    for (int k = 0; k < MON_COUNT; k++) {
        const creature_stats_t *m = monster_stats(order[k]);
        screen_put(s, x + 2, y, (uint32_t)m->glyph, m->colour, COL_DEFAULT,
                   ATTR_BOLD);
        snprintf(line, sizeof line, "%-12s from depth %-2d %s", m->name,
                 m->min_depth, m->blurb);
        screen_puts(s, x + 4, y++, line, COL_WHITE, COL_DEFAULT, 0);
    }
    y++;
    /* The server's own ruleset: an example line, then its rule wrapped. */
    snprintf(line, sizeof line, "Blows: \"%s\"",
             view_rules_example(g->opt.ruleset));
    screen_puts(s, x, y++, line, COL_BCYAN, COL_DEFAULT, 0);
    view_puts_wrapped(s, x, y, 78, 4, view_rules_text(g->opt.ruleset),
                      COL_BCYAN, 0);
    snprintf(line, sizeof line, "Combat rules on this server: %s. Any key returns.",
             combat_ruleset_name(g->opt.ruleset));
    screen_puts(s, x, top + 23 < s->h ? top + 23 : s->h - 1, line, COL_BCYAN,
                COL_DEFAULT, 0);
}

static void draw_help(const game_t *g, screen_t *s)
{
    /* below 80x24 the full pages (76 and 78 columns, 24 rows) are cut */
    if (!view_full(s->w, s->h)) {
        view_help_narrow(g, s);
        return;
    }
    if (g->hist_off == 1) {
        draw_legend(g, s);
        return;
    }
    int n = (int)(sizeof help_lines / sizeof help_lines[0]);
    int x = (s->w - 76) / 2, y = (s->h - n - 2) / 2;
    char line[64];
    if (x < 0)
        x = 0;
    if (y < 0)
        y = 0;
    for (int i = 0; i < n; i++)
        screen_puts(s, x, y + i, help_lines[i],
                    i == 0 ? COL_BYELLOW : COL_WHITE, COL_DEFAULT,
                    i == 0 ? ATTR_BOLD : 0);
    snprintf(line, sizeof line, "Combat rules on this server: %s",
             combat_ruleset_name(g->opt.ruleset));
    screen_puts(s, x, y + n + 1, line, COL_BCYAN, COL_DEFAULT, 0);
}

/* What the piece in pack slot `slot` does beyond its numbers (docs/game.md,
 * "Equipment"), a line a trait, into line[*n] on (at most `room` lines):
 * told here, on the screen the player looks at to choose, and not only
 * in the documentation. */
static void equipment_traits(const game_t *g, int slot, char line[][96],
                             int *n, int room)
{
    if (!item_pack_has(g, slot))
        return;
    const item_stats_t *st = item_stats(g->pack[slot]);
    char name[32];
    snprintf(name, sizeof name, "%s", st->name);
    if (name[0] >= 'a' && name[0] <= 'z')
        name[0] = (char)(name[0] - 'a' + 'A');
    const char *said[6]; /* one a trait below */
    char wide[48];
    int k = 0;
    if (st->quick)
        said[k++] = "quick - after every second blow the monsters lose "
                    "their turn";
    if (st->reach)
        said[k++] = "reaches - strikes a monster two tiles away in a "
                    "straight line";
    if (st->cleave)
        said[k++] = "cleaves - each blow also strikes every monster "
                    "beside you";
    if (st->heavy)
        said[k++] = "heavy - resting heals half as fast";
    if (st->slow)
        said[k++] = "slow - every second step costs two turns";
    if (st->clumsy) {
        snprintf(wide, sizeof wide, "swings wide - %d%% of its blows miss",
                 st->clumsy);
        said[k++] = wide;
    }
    for (int i = 0; i < k && *n < room; i++)
        snprintf(line[(*n)++], 96, "%s: %s", name, said[i]);
}

/* `@`/`C`: the character, in the terms of this game's ruleset: the numbers
 * of its blows (game_player_fighter: levels, weapon, armour and their
 * enchantments), and what the weapon and armour do besides. */
static void draw_character(const game_t *g, screen_t *s)
{
    const player_t *p = &g->player;
    const creature_stats_t *base = monster_player_stats();
    fighter_t f;
    game_player_fighter(g, &f);
    /* five lines, then the traits: a weapon's one, armour's two, and
     * room for a trait more on either */
    char line[10][96], w[64], a[64];
    int n = 0;
    snprintf(line[n++], 96, "Level %d   XP %d (next at %d)   Gold %d",
             p->level, p->xp, game_xp_next(p->level), p->gold);
    snprintf(line[n++], 96, "HP %d/%d%s   Depth %d   Turn %u   Kills %d",
             p->hp, p->max_hp, p->poison ? " (poisoned)" : "", g->depth,
             (unsigned)g->turn, g->kills);
    snprintf(line[n++], 96, "Weapon: %s   Armour: %s",
             item_pack_has(g, p->weapon)
                 ? item_slot_name(g, p->weapon, 0, w, sizeof w)
                 : "none (fists)",
             item_pack_has(g, p->armor)
                 ? item_slot_name(g, p->armor, 0, a, sizeof a)
                 : item_no_armour_name(g));
    switch (g->opt.ruleset) {
    case RULES_POWER:
        snprintf(line[n++], 96, "Power %d; armour takes %d off each blow",
                 f.attack, f.absorb);
        break;
    case RULES_D10:
        snprintf(line[n++], 96,
                 "To-hit +%d, damage %d-%d; armour absorbs %d, armour class %d",
                 f.to_hit, f.dmg_min, f.dmg_max, f.armor_defense,
                 f.armor_class);
        break;
    case RULES_DICE_POOL:
        snprintf(line[n++], 96,
                 "Attack %d dice (%d%% each), defense %d dice (%d%% each)",
                 f.att_dice, base->att_chance, f.def_dice, base->def_chance);
        break;
    default:
        snprintf(line[n++], 96, "Attack %d, defense %d", f.attack,
                 f.defense);
        break;
    }
    snprintf(line[n++], 96, "Combat rules: %s", combat_ruleset_name(g->opt.ruleset));
    int room = (int)(sizeof line / sizeof line[0]);
    equipment_traits(g, p->weapon, line, &n, room);
    equipment_traits(g, p->armor, line, &n, room);
    if (s->w < 80) {
        view_character_narrow(s, line, n);
        return;
    }
    int y0 = (s->h - n - 4) / 2;
    view_centred(s, y0, "Character", COL_BYELLOW, ATTR_BOLD);
    for (int i = 0; i < n; i++)
        view_centred(s, y0 + 2 + i, line[i], COL_WHITE, 0);
    view_centred(s, y0 + 3 + n, "Press any key to return.", COL_BCYAN, 0);
}

/* `P`: the whole log, oldest at the top, paged from the newest. */
static void draw_history(const game_t *g, screen_t *s)
{
    /* messages are up to 79 columns; and below 24 rows hist_off stops
     * short of the oldest line (GAME_HISTORY_ROWS) */
    if (!view_full(s->w, s->h)) {
        view_history_narrow(g, s);
        return;
    }
    int rows = s->h - 2, count = g->log_count;
    int max = count - rows > 0 ? count - rows : 0;
    int off = g->hist_off < max ? g->hist_off : max;
    int n = count - off < rows ? count - off : rows;
    char line[96];
    snprintf(line, sizeof line, "Message history: lines %d-%d of %d",
             count - off - n + 1, count - off, count);
    screen_puts(s, 0, 0, line, COL_BYELLOW, COL_DEFAULT, ATTR_BOLD);
    for (int r = 0; r < n; r++) {
        const msg_t *m = game_msg(g, off + n - 1 - r);
        if (m)
            screen_puts(s, 0, 1 + r, m->text, view_msg_colour(m->kind),
                        COL_DEFAULT, 0);
    }
    screen_puts(s, 0, s->h - 1, VIEW_HISTORY_KEYS, COL_BCYAN, COL_DEFAULT, 0);
}

/* The end screen's frame at s's size: its left column, top row and
 * width (draw_dead, and view_end_keys over it). */
enum { DEAD_H = 12, DEAD_KEYS_ROW = 9 };
static void dead_box(const screen_t *s, int *x0, int *y0, int *w)
{
    *w = s->w < 50 ? s->w : 50;
    *x0 = (s->w - *w) / 2;
    *y0 = (s->h - DEAD_H) / 2 - 2;
    if (*y0 < 0)
        *y0 = 0;
}

/* The framed YOU DIED (or YOU WON) screen, over the last lines of the log. */
static void draw_dead(const game_t *g, const display_t *d, screen_t *s)
{
    enum { H = DEAD_H };
    const player_t *p = &g->player;
    int W, x0, y0;
    char line[4][80], cause[64];
    dead_box(s, &x0, &y0, &W);
    draw_box(s, d, BOX_DOUBLE, x0, y0, W, H,
             game_won(g) ? COL_BYELLOW : COL_RED);
    game_death_cause(g, cause, sizeof cause);
    snprintf(line[0], sizeof line[0], "%s", cause);
    snprintf(line[1], sizeof line[1], "Depth: %d   Turns: %u   Kills: %d",
             g->depth, (unsigned)g->turn, g->kills);
    snprintf(line[2], sizeof line[2], "Level: %d   XP: %d   Gold: %d",
             p->level, p->xp, p->gold);
    snprintf(line[3], sizeof line[3], "Score: %d", game_score(g));
    if (game_won(g))
        view_centred(s, y0 + 2, "YOU WON! The Amulet of Yendor is yours.",
                      COL_BYELLOW, ATTR_BOLD);
    else
        view_centred(s, y0 + 2, "YOU DIED", COL_BRED, ATTR_BOLD);
    view_centred(s, y0 + 4, line[0], COL_BWHITE, 0);
    view_centred(s, y0 + 5, line[1], COL_WHITE, 0);
    view_centred(s, y0 + 6, line[2], COL_WHITE, 0);
    view_centred(s, y0 + 7, line[3], COL_BYELLOW, ATTR_BOLD);
    view_centred(s, y0 + DEAD_KEYS_ROW, W < 50 ? "Space/r: new game  Esc/q: leave"
                                    : "Space or r: a new game    Esc or q: leave",
                  COL_BCYAN, 0);
    /* What happened, below the frame. */
    int bottom = s->h - 1, top = y0 + H + 1;
    if (s->w < 80) { /* messages are up to 79 columns: wrapped */
        view_log_under_narrow(g, s, top, bottom);
        return;
    }
    for (int row = bottom, i = 0; row >= top; row--, i++) {
        const msg_t *m = game_msg(g, i);
        if (!m)
            break;
        screen_puts(s, 0, row, m->text, view_msg_colour(m->kind), COL_DEFAULT, 0);
    }
}

void view_end_keys(const game_t *g, screen_t *s, const char *keys)
{
    if (!game_dead(g) || !view_fits(s->w, s->h))
        return;
    int x0, y0, w;
    dead_box(s, &x0, &y0, &w);
    uint8_t frame = game_won(g) ? COL_BYELLOW : COL_RED; /* as draw_dead */
    for (int x = x0 + 1; x < x0 + w - 1; x++)
        screen_put(s, x, y0 + DEAD_KEYS_ROW, ' ', frame, COL_DEFAULT, 0);
    view_centred(s, y0 + DEAD_KEYS_ROW, keys, COL_BCYAN, 0);
}

void view_draw(const game_t *g, screen_t *s)
{
    view_draw_display(g, &DISPLAY_PLAIN, s);
}

void view_draw_display(const game_t *g, const display_t *d, screen_t *s)
{
    if (!view_fits(s->w, s->h)) {
        screen_clear(s);
        view_draw_too_small(s);
        /* the keys a host takes here are the leaving ones (docs/game.md):
         * the question, when it is asked, else the key that asks it (a
         * watch or a replay says its own: view_too_small_keys) */
        if (g->mode == MODE_QUIT_PROMPT)
            view_too_small_keys(s, "Really quit? (y/n)", COL_BYELLOW);
        else
            view_too_small_keys(s, "Q quits the game.", COL_WHITE);
        return;
    }
    switch (g->mode) {
    case MODE_HELP:
        screen_clear(s);
        draw_help(g, s);
        return;
    case MODE_HISTORY:
        screen_clear(s);
        draw_history(g, s);
        return;
    case MODE_DEAD:
    case MODE_WON:
        screen_clear(s);
        draw_dead(g, d, s);
        return;
    case MODE_CHARACTER:
        screen_clear(s);
        draw_character(g, s);
        return;
    case MODE_DISCOVERIES:
        screen_clear(s);
        view_discoveries(g, s);
        return;
    default:
        break;
    }
    if (!view_full(s->w, s->h)) {
        view_draw_narrow(g, d, s);
        return;
    }
    clear_around_map(s);
    view_map(g, d, s);
    if (g->mode == MODE_TARGET)
        view_target(g, d, s);
    view_log(g, s);
    view_status(g, d, s);
    if (g->mode == MODE_LOOK)
        draw_look(g, s);
    if (view_shows_pack(g))
        draw_pack(g, d, s);
}

int view_full_page(const game_t *g)
{
    return g->mode == MODE_HELP || g->mode == MODE_HISTORY ||
           g->mode == MODE_CHARACTER || g->mode == MODE_DISCOVERIES;
}

int view_shows_pack(const game_t *g)
{
    return g->mode == MODE_INVENTORY || g->mode == MODE_DROP ||
           g->mode == MODE_IDENTIFY || g->mode == MODE_THROW;
}
