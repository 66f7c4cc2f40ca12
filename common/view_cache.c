/* view_cache.c - the play screen drawn over its previous frame, changing
 * only what changed (view_cache.h says what is remembered and why). */
#include "view_cache.h"

#include <string.h>

#include "fov.h"
#include "view.h"

static void forget(view_cache_t *c)
{
    c->valid = 0;
    c->incremental = 0;
}

void view_cache_reset(view_cache_t *c)
{
    uint8_t tracked = c->log_tracked; /* the host's promise stands */
    memset(c, 0, sizeof *c);
    c->log_tracked = tracked;
}

void view_cache_begin(view_cache_t *c, int may_reuse)
{
    c->primed = (uint8_t)(may_reuse && c->valid);
    c->used = 0;
    c->incremental = 0; /* until this frame is drawn so */
    c->in_place = 0;
}

/* The modes that draw the play screen and nothing over it. */
static int plain_mode(const game_t *g)
{
    return g->mode == MODE_PLAY || g->mode == MODE_QUIT_PROMPT ||
           g->mode == MODE_OVER;
}

int view_cache_wants_prime(const view_cache_t *c, int w, int h)
{
    return c->valid && c->primed && c->w == w && c->h == h;
}

/* 64 blank cells, for blank_cells to copy. */
#define BLANK1 { ' ', COL_DEFAULT, COL_DEFAULT, 0, 0 }
#define BLANK8 BLANK1, BLANK1, BLANK1, BLANK1, BLANK1, BLANK1, BLANK1, BLANK1
static const cell_t blank_block[64] = { BLANK8, BLANK8, BLANK8, BLANK8,
                                        BLANK8, BLANK8, BLANK8, BLANK8 };

static void blank_cells(cell_t *row, int n)
{
    if (n > 16) {
        /* A row (the log's, the status line) in a copy or two of the
         * block: a loop of stores took ~140 instructions for 80 cells. */
        int x = 0;
        for (; x + 64 <= n; x += 64)
            memcpy(&row[x], blank_block, sizeof blank_block);
        if (x < n)
            memcpy(&row[x], blank_block, (size_t)(n - x) * sizeof *row);
        return;
    }
    /* Two cells a store. */
    uint32_t word;
    memcpy(&word, &blank_block[0], sizeof word);
    uint64_t pair = (uint64_t)word << 32 | word;
    int x = 0;
    for (; x + 2 <= n; x += 2)
        memcpy(&row[x], &pair, sizeof pair);
    if (x < n)
        memcpy(&row[x], &word, sizeof word);
}

/* The values the status line shows (view_status). */
static void status_values(const game_t *g, int32_t v[8])
{
    const player_t *p = &g->player;
    v[0] = p->hp;
    v[1] = p->max_hp;
    v[2] = p->level;
    v[3] = p->xp;
    v[4] = p->gold;
    v[5] = g->depth;
    v[6] = (int32_t)g->turn;
    v[7] = (p->poison > 0) | (p->haste > 0) << 1; /* the effects shown */
}

static int decimal_digits(uint32_t v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

/* 1 if the status values were and are those of a line that differs only
 * in the turn's digits: the turn changed, to as many digits, nothing else
 * did, and nothing follows it (no "Poisoned"). */
static int turn_only(const int32_t was[8], const int32_t now[8])
{
    return was[6] != now[6] && memcmp(was, now, 6 * sizeof *now) == 0 &&
           was[7] == 0 && now[7] == 0 &&
           decimal_digits((uint32_t)was[6]) == decimal_digits((uint32_t)now[6]);
}

/* Blanks the cells right of the map in map row y that are not; 1 if any
 * was not. */
static int blank_right(screen_t *s, int y)
{
    const cell_t *row = screen_cat(s, 0, y);
    cell_t blank = cell_make(' ', COL_DEFAULT, COL_DEFAULT, 0);
    int dirty = 0;
    for (int x = MAP_W; x < s->w; x++)
        dirty |= memcmp(&row[x], &blank, sizeof blank) != 0;
    if (dirty)
        blank_cells(screen_at(s, MAP_W, y), s->w - MAP_W);
    return dirty;
}

/* Makes the 8 cells from (x, y) those of display d for look indices
 * `word` where they are not; 1 if any was not (view_update_look8 for a
 * display other than the plain one). */
static int update_cells8(const game_t *g, const display_t *d, screen_t *s,
                         int y, int x, uint64_t word)
{
    if (word == 0)
        return view_update_look8(s, y, x, 0);
    cell_t cells[8];
    view_map_cells8(g, d, y, x, word, cells);
    /* A map chunk is on the screen (view_full): indexed directly, as
     * view_update_look8 does, without screen_cat's and screen_at's
     * bounds tests (~15,000 calls a 2,000 keys). */
    cell_t *row = &s->cells[y * s->w + x];
    if (memcmp(row, cells, sizeof cells) == 0)
        return 0;
    screen_keep_row(s, y);
    memcpy(row, cells, sizeof cells);
    return 1;
}

/* 1 if the 8 cells from row[0] are blank. */
static int blank8(const cell_t *row)
{
    cell_t blank = cell_make(' ', COL_DEFAULT, COL_DEFAULT, 0);
    uint32_t bw;
    memcpy(&bw, &blank, sizeof bw);
    const uint64_t blank2 = (uint64_t)bw << 32 | bw;
    uint64_t o[4];
    memcpy(o, row, sizeof o);
    return ((o[0] ^ blank2) | (o[1] ^ blank2) | (o[2] ^ blank2) |
            (o[3] ^ blank2)) == 0;
}

/* Makes the 8 cells from (x, y) of a chunk with nothing seen blank where
 * they are not. 1 if any was not. */
static int update_unseen8(screen_t *s, int y, int x)
{
    cell_t *row = &s->cells[y * s->w + x]; /* as update_cells8 */
    if (blank8(row))
        return 0;
    screen_keep_row(s, y);
    blank_cells(row, 8);
    return 1;
}

/* A chunk's look word (a look index a byte, each below 16) in the
 * cache's half: a look index a nibble, tile i in bits 4i..4i+3. The
 * cache's looks are read for the chunks round the player every turn; at
 * half the bytes they are half the lines (docs/performance.md, "Seen and
 * in view, as bits"). */
_Static_assert(VIEW_LOOKS <= 16, "a look index is a nibble");

static inline uint32_t look_pack(uint64_t word)
{
    uint64_t x = (word | word >> 4) & 0x00ff00ff00ff00ffULL;
    x = (x | x >> 8) & 0x0000ffff0000ffffULL;
    return (uint32_t)(x | x >> 16);
}

static inline uint64_t look_unpack(uint32_t packed)
{
    uint64_t x = packed;
    x = (x | x << 16) & 0x0000ffff0000ffffULL;
    x = (x | x << 8) & 0x00ff00ff00ff00ffULL;
    return (x | x << 4) & 0x0f0f0f0f0f0f0f0fULL;
}

/* What row_looks found. */
enum { ROW_FAST = 1, ROW_SEEN = 2 };

/* The look indices of map row y's tiles, tile x in byte x of words (as
 * view_look8's words, but a tile with nothing seen keeps its kind: looks
 * 0, 4 and 8 are all blank), a chunk of 8 tiles a word. Returns ROW_FAST
 * unless a tile is out of view_look8's fast range (never in play), and
 * ROW_SEEN if a tile is lit or explored. Inline: it is called for every
 * map row, and a call per row (the words in memory) cost 460 instructions
 * a key. */
static inline int row_looks(const game_t *g, int y,
                            uint64_t words[VIEW_CHUNKS_X])
{
    const uint64_t ones = 0x0101010101010101u;
    uint64_t bad = 0;
    unsigned seen = 0;
    for (int cx = 0; cx < VIEW_CHUNKS_X; cx++) {
        uint64_t t;
        memcpy(&t, &g->map.tile[y][cx * 8], 8);
        unsigned lit = g->visible[y][cx], known = g->map.explored[y][cx];
        seen |= lit | known;
        bad |= (t & ~(3 * ones)) | (t & t >> 1 & ones);
        words[cx] = t << 2 | tile_bits_bytes(lit) << 1 | tile_bits_bytes(known);
    }
    return bad == 0 ? ROW_FAST | (seen ? ROW_SEEN : 0) : ROW_SEEN;
}

/* row_looks for the chunks of box only (a few, after a step: step_box);
 * the others' words are not written: their looks did not change, and the
 * caller reads the few it needs (a mover's chunk) from the cache instead
 * of a copy of the whole row. */
static inline int box_looks(const game_t *g, int y, unsigned box,
                            uint64_t words[VIEW_CHUNKS_X], int tiles_ok)
{
    const uint64_t ones = 0x0101010101010101u;
    uint64_t bad = 0;
    unsigned seen = 0;
    for (; box; box &= box - 1) {
        int cx = __builtin_ctz(box);
        uint64_t t;
        memcpy(&t, &g->map.tile[y][cx * 8], 8);
        unsigned lit = g->visible[y][cx], known = g->map.explored[y][cx];
        seen |= lit | known;
        if (!tiles_ok)
            bad |= (t & ~(3 * ones)) | (t & t >> 1 & ones);
        words[cx] = t << 2 | tile_bits_bytes(lit) << 1 | tile_bits_bytes(known);
    }
    return bad == 0 ? ROW_FAST | (seen ? ROW_SEEN : 0) : ROW_SEEN;
}

/* 1 if any tile of map row y is lit or explored. */
static int row_seen(const game_t *g, int y)
{
    /* The two sets' rows a word at a time. */
    uint64_t any = 0;
    for (int i = 0; i < TILE_BITS_ROW; i += 8) {
        uint64_t a, b;
        memcpy(&a, &g->visible[y][i], sizeof a);
        memcpy(&b, &g->map.explored[y][i], sizeof b);
        any |= a | b;
    }
    return any != 0;
}

/* Map row y of the plain display made its tiles' looks where it is not.
 * Its look indices are found (row_looks) and each chunk's compared
 * with the word the cache remembers for it (c->looks): a chunk whose word
 * did not change and that had no mover drawn in it last frame shows its
 * looks already (only the view writes the map: view_cache.h) and is not
 * compared with the screen; the others are, cell words against the look
 * table's. A row left blank with nothing seen and still unseen is not
 * looked at further (c->blank_rows). trust: the cache's words, movers and
 * blank rows describe s (otherwise every chunk is compared). 1 if any
 * cell was not its look. A row with a tile or flag out of the fast test's
 * range (never in play) is done again chunk by chunk with view_look8 and
 * counted as changed. box: the chunks whose looks may have changed
 * (step_box; 0: none, the looks are as they were). */
static int update_row_plain(const game_t *g, view_cache_t *c, screen_t *s,
                            int y, int trust, unsigned box)
{
    const unsigned all = (1u << VIEW_CHUNKS_X) - 1;
    if (box == 0) {
        /* The looks are as they were: only the movers' chunks. */
        int changed = 0;
        for (unsigned need = c->mover_chunks[y]; need; need &= need - 1) {
            int cx = __builtin_ctz(need);
            changed |= view_update_look8(s, y, cx * 8,
                                         look_unpack(c->looks[y][cx]));
        }
        return changed;
    }
    uint32_t bit = 1u << y;
    if (trust && (c->blank_rows & bit) && !c->mover_chunks[y] &&
        !row_seen(g, y))
        return 0;
    uint32_t *was = c->looks[y];
    uint64_t words[VIEW_CHUNKS_X];
    int found = trust && box != all
                    ? box_looks(g, y, box, words, c->tiles_ok >> y & 1)
                    : row_looks(g, y, words);
    if (!(trust && box != all))
        c->tiles_ok |= (uint32_t)(found & ROW_FAST) << y;
    if (trust && box != all && !(c->blank_rows & bit))
        found |= ROW_SEEN; /* seen outside the box before, and so now */
    if (!(found & ROW_FAST)) {
        for (int cx = 0; cx < VIEW_CHUNKS_X; cx++) {
            uint64_t word = view_look8(g, y, cx * 8);
            was[cx] = look_pack(word);
            view_update_look8(s, y, cx * 8, word);
        }
        c->blank_rows &= ~bit;
        return 1;
    }
    unsigned need = all;
    if (trust && box == all) {
        need = c->mover_chunks[y];
        for (int cx = 0; cx < VIEW_CHUNKS_X; cx++)
            need |= (unsigned)(look_pack(words[cx]) != was[cx]) << cx;
    } else if (trust) {
        /* Outside the box the words are as they were. */
        need = c->mover_chunks[y];
        for (unsigned b = box; b; b &= b - 1) {
            int cx = __builtin_ctz(b);
            need |= (unsigned)(look_pack(words[cx]) != was[cx]) << cx;
        }
    }
    int changed = 0;
    for (; need; need &= need - 1) {
        int cx = __builtin_ctz(need);
        /* Outside the box (a mover's chunk) the looks are the cache's. */
        uint64_t word = words[cx];
        if (box >> cx & 1)
            was[cx] = look_pack(word);
        else
            word = look_unpack(was[cx]);
        changed |= view_update_look8(s, y, cx * 8, word);
    }
    /* Blank if nothing is seen in it (a row with a mover is marked not
     * blank after: draw_map). */
    c->blank_rows = (c->blank_rows & ~bit) |
                    (uint32_t)!(found & ROW_SEEN) << y;
    return changed;
}

/* After one turn (map_one_turn) from (ox, oy) to (px, py): the map rows
 * top..bottom and, in them, the chunks whose looks may have changed. What
 * is lit was and is within FOV_RADIUS of where the player was and is
 * (fov.h), what was explored is what is lit: outside the box around both
 * places nothing changed. */
typedef struct step_box {
    int top, bottom;
    unsigned chunks;
} step_box_t;

static step_box_t step_box(int ox, int oy, int px, int py)
{
    step_box_t b;
    b.top = (oy < py ? oy : py) - FOV_RADIUS;
    b.bottom = (oy > py ? oy : py) + FOV_RADIUS;
    int lo = (ox < px ? ox : px) - FOV_RADIUS,
        hi = (ox > px ? ox : px) + FOV_RADIUS;
    lo = lo < 0 ? 0 : lo;
    hi = hi >= MAP_W ? MAP_W - 1 : hi;
    b.chunks = ((2u << (hi / 8)) - 1) & ~((1u << (lo / 8)) - 1);
    return b;
}

/* The chunks of map row y (bits) whose tiles are within a step of (px,
 * py): the glow (view_display.c) lights them brighter. */
static unsigned near_player(int y, int px, int py)
{
    if (y < py - 1 || y > py + 1)
        return 0;
    int lo = px - 1 < 0 ? 0 : px - 1, hi = px + 1 >= MAP_W ? MAP_W - 1 : px + 1;
    return ((2u << (hi / 8)) - 1) & ~((1u << (lo / 8)) - 1);
}

/* What changed in a map row's looks since the last frame, as bits of its
 * chunks: their look words, what the player knows of any of their tiles
 * (view_knowledge8), of their first tile and of their last. */
typedef struct row_change {
    uint16_t looks, known, first, last;
} row_change_t;

/* Map row y's look words into c->looks[y] (only the chunks of box are
 * worked out: outside it they did not change), and what changed. */
static row_change_t rich_row_looks(const game_t *g, view_cache_t *c, int y,
                                   unsigned box)
{
    const unsigned all = (1u << VIEW_CHUNKS_X) - 1;
    uint32_t *was = c->looks[y];
    uint64_t words[VIEW_CHUNKS_X];
    int found = box != all ? box_looks(g, y, box, words, c->tiles_ok >> y & 1)
                           : row_looks(g, y, words);
    if (box == all)
        c->tiles_ok |= (uint32_t)(found & ROW_FAST) << y;
    if (!(found & ROW_FAST)) {
        box = all;
        for (int cx = 0; cx < VIEW_CHUNKS_X; cx++)
            words[cx] = view_look8(g, y, cx * 8);
    }
    row_change_t rc = { 0, 0, 0, 0 };
    for (unsigned b = box; b; b &= b - 1) {
        int cx = __builtin_ctz(b);
        uint32_t packed = look_pack(words[cx]);
        if (packed == was[cx])
            continue;
        uint64_t k = view_knowledge8(words[cx]) ^
                     view_knowledge8(look_unpack(was[cx]));
        rc.looks |= (uint16_t)(1u << cx);
        rc.known |= (uint16_t)((k != 0) << cx);
        rc.first |= (uint16_t)((k & 0xff) != 0) << cx;
        rc.last |= (uint16_t)((k >> 56) != 0) << cx;
        was[cx] = packed;
    }
    return rc;
}

/* The map for a display other than the plain one: a chunk's cells
 * (view_map_cells8) depend on its look indices, with UTF-8 walls on what
 * the player knows of the tiles around it (the rows above and below, the
 * tile left and right of it in those and its own), and, for the glow, on
 * where the player is. The cache keeps each chunk's look word: a chunk
 * whose word did not change nor what is known around it, away from the
 * player now and last frame and not under a mover last frame, is as it
 * was and is not drawn or compared. A tile going from lit to remembered
 * changes its look but not what is known of it, so after a step only the
 * chunks at the field of view's edge are drawn, not their neighbours.
 * trust: the cache describes s; sb: the rows and chunks whose looks may
 * have changed (step_box; no chunks: the player stayed put). */
static void draw_map_rich(const game_t *g, const display_t *d,
                          view_cache_t *c, screen_t *s, int trust,
                          step_box_t sb)
{
    const unsigned all = (1u << VIEW_CHUNKS_X) - 1;
    const uint64_t flags = 0x0303030303030303u; /* lit, explored */
    int joins = d->glyphs == GLYPHS_UTF8;
    row_change_t ch[MAP_H + 2]; /* ch[y + 1]: row y's */
    memset(ch, 0, sizeof ch);
    if (!trust)
        sb.top = 0, sb.bottom = MAP_H, sb.chunks = all;
    if (sb.chunks) {
        int top = sb.top < 0 ? 0 : sb.top;
        int bottom = sb.bottom >= MAP_H ? MAP_H - 1 : sb.bottom;
        for (int y = top; y <= bottom; y++)
            ch[y + 1] = rich_row_looks(g, c, y, sb.chunks);
    }
    /* The rows a step from the player's two places (near_player). */
    int near_top = (c->py < g->player.y ? c->py : g->player.y) - 1,
        near_bottom = (c->py > g->player.y ? c->py : g->player.y) + 1;
    for (int y = 0; y < MAP_H - 1; y++) {
        unsigned need = trust ? ch[y + 1].looks : all;
        if (joins) {
            const row_change_t *a = &ch[y], *b = &ch[y + 1], *u = &ch[y + 2];
            need |= a->known | u->known |
                    ((a->last | b->last | u->last) << 1 & all) |
                    (a->first | b->first | u->first) >> 1;
        }
        need |= c->mover_chunks[y];
        if (sb.chunks && y >= near_top && y <= near_bottom)
            need |= near_player(y, c->px, c->py) |
                    near_player(y, g->player.x, g->player.y);
        int changed = 0;
        for (; need; need &= need - 1) {
            int cx = __builtin_ctz(need);
            uint64_t word = look_unpack(c->looks[y][cx]);
            /* Nothing seen in it: blank (row_looks keeps the kinds). */
            changed |= (word & flags) == 0
                           ? update_unseen8(s, y, cx * 8)
                           : update_cells8(g, d, s, y, cx * 8, word);
        }
        c->map_rows |= (uint32_t)changed << y;
    }
    c->px = (int16_t)g->player.x;
    c->py = (int16_t)g->player.y;
}

/* 1 if at most one turn passed in g since the last frame: the same game
 * (as log_kept tells it) at the same depth, at most one key and one turn
 * on. The map's looks depend only on the level's tiles, which change only
 * with the level, and on what is lit and explored, which change only when
 * game_update_fov looks from the player's place; a key of one turn moves
 * the player at most once (a key of many, travel or running, counts its
 * turns). So a player in the same place ("still") saw from there again:
 * the same tiles lit, none newly explored, the looks as they were; a
 * player who moved saw from where it is now, and what changed is near the
 * two places (step_box). A frame skipped (several keys) or a key that
 * goes back fails the test: then every chunk is worked out. */
static int map_one_turn(const view_cache_t *c, const game_t *g)
{
    return c->log_game == g && c->log_seed == g->seed &&
           g->keys - c->log_keys <= 1u && g->turn - c->map_turn <= 1u &&
           g->depth == c->map_depth;
}

/* 1 if the movers' slots kept in c are g's: no turn passed since they
 * were found (the items seen and the monsters living change only in a
 * turn or with the level; a new game starts its keys again). */
static int movers_still(const view_cache_t *c, const game_t *g)
{
    return c->movers_kept && c->movers_game == g &&
           c->movers_seed == g->seed && g->turn == c->movers_turn &&
           g->keys - c->movers_keys <= 1u && g->depth == c->movers_depth &&
           g->player.x == c->movers_px && g->player.y == c->movers_py;
}

/* view_movers, from the slots found for the last frame while no turn
 * passed: a key that took none (a bump into a wall, a menu) does not read
 * the 68 lines of slots, cold at many sessions (docs/performance.md). */
static void draw_movers(const game_t *g, const display_t *d, view_cache_t *c,
                        screen_t *s, uint8_t *marks)
{
    if (!movers_still(c, g)) {
        c->movers_kept = (uint8_t)view_mover_slots(g, &c->movers);
        c->movers_found++;
        c->movers_game = g;
        c->movers_seed = g->seed;
        c->movers_turn = g->turn;
        c->movers_depth = g->depth;
        c->movers_px = (int16_t)g->player.x;
        c->movers_py = (int16_t)g->player.y;
    }
    c->movers_keys = g->keys; /* a run of keys taking no turn keeps them */
    if (c->movers_kept)
        view_movers_from(g, d, s, marks, &c->movers);
    else
        view_movers(g, d, s, marks);
}

/* 1 if the map and its movers show what the last frame drew: no turn
 * passed since it (at most a key on, which took none: map_one_turn), the
 * player stands where it did, and the movers' slots kept are g's
 * (movers_still). The looks change only in a turn or with the level, the
 * movers and how they look likewise (an item's colour is fixed for a game:
 * item_colour), and the glow only with the player's place. A key that
 * took no turn (a bump into a wall, most keys of a walk that turns at
 * walls) then draws nothing of the map and marks none of its rows
 * (docs/performance.md, "The draw and the turn, cheaper"). */
static int map_unchanged(const view_cache_t *c, const game_t *g)
{
    return map_one_turn(c, g) && g->turn == c->map_turn &&
           g->player.x == c->px && g->player.y == c->py && movers_still(c, g);
}

/* The map above its last row (the log's first): a chunk is rewritten when
 * its cells are not its looks (they changed, or a mover was drawn over
 * them); then every mover. trust: the cache's looks and movers describe
 * s. */
static void draw_map(const game_t *g, const display_t *d, view_cache_t *c,
                     screen_t *s, int trust)
{
    if (trust && map_unchanged(c, g)) {
        c->movers_keys = g->keys; /* as draw_movers: the slots still hold */
        return;
    }
    int one_turn = trust && map_one_turn(c, g);
    int still = one_turn && g->player.x == c->px && g->player.y == c->py;
    if (!one_turn)
        c->tiles_ok = 0; /* perhaps another level: its rows found again */
    const unsigned all = (1u << VIEW_CHUNKS_X) - 1;
    step_box_t sb = { 0, MAP_H, all }; /* every chunk */
    if (still)
        sb.chunks = 0;
    else if (one_turn)
        sb = step_box(c->px, c->py, g->player.x, g->player.y);
    if (!view_plain_map(d)) {
        draw_map_rich(g, d, c, s, trust, sb);
    } else {
        for (int y = 0; y < MAP_H - 1; y++) {
            unsigned box = y >= sb.top && y <= sb.bottom ? sb.chunks : 0;
            c->map_rows |=
                (uint32_t)update_row_plain(g, c, s, y, trust, box) << y;
        }
        c->px = (int16_t)g->player.x;
        c->py = (int16_t)g->player.y;
    }
    c->map_turn = g->turn;
    c->map_depth = g->depth;
    /* The movers' chunks, a bit each (view_movers's marks), read back a
     * word at a time where a word's bytes are in that order. */
    uint8_t movers[(VIEW_CHUNKS + 63) / 64 * 8];
    memset(movers, 0, sizeof movers);
    draw_movers(g, d, c, s, movers);
    memset(c->mover_chunks, 0, sizeof c->mover_chunks);
    /* The movers' rows (a few bits set); their chunks are drawn again
     * next frame. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    typedef uint64_t marks_t;
#else
    typedef uint8_t marks_t;
#endif
    for (int b = 0; b < (int)sizeof movers; b += (int)sizeof(marks_t)) {
        marks_t word;
        memcpy(&word, &movers[b], sizeof word);
        for (uint64_t bits = word; bits; bits &= bits - 1) {
            int i = b * 8 + __builtin_ctzll(bits);
            int y = i / VIEW_CHUNKS_X;
            if (y < MAP_H - 1) {
                c->map_rows |= 1u << y;
                c->blank_rows &= ~(1u << y);
                c->mover_chunks[y] |= (uint16_t)(1u << (i % VIEW_CHUNKS_X));
            }
        }
    }
}

void view_cache_track_log(view_cache_t *c)
{
    c->log_tracked = 1;
}

void view_cache_log_overdrawn(view_cache_t *c)
{
    c->log_overdrawn = 1;
}

/* 1 if the screen's log rows show lines of g's log as c->log_rows says:
 * log_kept below but for the count of lines and of new ones. */
static int log_same_lines(const view_cache_t *c, const game_t *g)
{
    return c->log_tracked && !c->log_overdrawn && c->log_game == g &&
           c->log_seed == g->seed && g->keys >= c->log_keys;
}

/* 1 if the screen's log rows show g's log as it is: the host tracks its
 * lines and drew none over them since, and the last frame drew this
 * game's log at the same count of lines, the same of them new (log_fresh),
 * and the same count of lines taken back, no key before (a game's log
 * changes by lines added or the newest merged, each counted in
 * log_total, and by a line taken back, game_log_unsay, which log_total
 * does not count: derived.log_unsaid does). The game's address and seed
 * tell a new game from the last; a new one also starts from fewer keys. */
static int log_kept(const view_cache_t *c, const game_t *g)
{
    return log_same_lines(c, g) && c->log_total == g->log_total &&
           c->log_fresh == g->log_fresh &&
           c->log_unsaid == g->derived.log_unsaid;
}

static void log_remember(view_cache_t *c, const game_t *g)
{
    c->log_game = g;
    c->log_seed = g->seed;
    c->log_keys = g->keys;
    c->log_total = g->log_total;
    c->log_fresh = g->log_fresh;
    c->log_unsaid = g->derived.log_unsaid;
}

/* The log's rows over the last frame's: a row is drawn (blanked, then its
 * line: view_log_line) only when the line it shows, or whether that line
 * is new, changed. A line's seq names its text within a game (a merged
 * line takes a new one: game_log), so after a key that only turned the
 * new lines grey or merged a repeat, the rows of the lines that did not
 * change are left as they are and not marked (docs/performance.md, "The
 * draw and the turn, cheaper"). all: every row (s or the log may hold
 * anything: the cache's rows do not describe it). c->log_changed starts
 * the frame empty (view_draw_cached_display). */
static void draw_log(const game_t *g, view_cache_t *c, screen_t *s, int all)
{
    int top = MAP_H - 1, bottom = view_log_bottom(s);
    for (int y = top; y <= bottom; y++) {
        int k = y - top, i = bottom - y;
        const msg_t *m = game_msg(g, i); /* NULL below the lines */
        uint64_t key = m ? ((uint64_t)m->seq + 1) << 1 |
                               (uint64_t)(m->seq >= g->log_fresh)
                         : 0;
        if (k < VIEW_LOG_ROWS) {
            if (!all && c->log_rows[k] == key)
                continue;
            c->log_rows[k] = key;
            c->log_changed |= 1u << k;
        }
        /* The line, then blanks after it. */
        cell_t *row = screen_at(s, 0, y);
        int n = view_log_line(g, s, y, i);
        blank_cells(row + n, s->w - n);
    }
}

/* The status line in its row (view_status_row), drawn when its values
 * changed (only the turn's digits when only they did); full: s may hold
 * anything, so the line and the rows below it (on a terminal taller than
 * the log's VIEW_LOG_MAX rows) are drawn. The row depends on the size
 * alone, so a frame drawn over the last one (the same size) finds the rows
 * below blank, as it left them. */
static void draw_status(const game_t *g, const display_t *d, view_cache_t *c,
                        screen_t *s, int full)
{
    int y = view_status_row(s->w, s->h);
    if (full)
        for (int row = y + 1; row < s->h; row++)
            blank_cells(screen_at(s, 0, row), s->w);
    int32_t v[8];
    status_values(g, v);
    if (!full && turn_only(c->status, v) && c->turn_x >= 0) {
        /* Only the turn, with as many digits, and nothing after it. */
        view_status_turn(g, s, c->turn_x);
        c->status[6] = v[6];
        c->status_drawn = 1;
    } else if (full || memcmp(v, c->status, sizeof v) != 0) {
        blank_cells(screen_at(s, 0, y), s->w);
        c->turn_x = view_status(g, d, s);
        memcpy(c->status, v, sizeof v);
        c->status_drawn = 1;
    }
}

void view_draw_cached(const game_t *g, view_cache_t *c, screen_t *s)
{
    view_draw_cached_display(g, &DISPLAY_PLAIN, c, s);
}

void view_draw_cached_display(const game_t *g, const display_t *d,
                              view_cache_t *c, screen_t *s)
{
    c->used = 1;
    c->map_rows = 0;
    c->log_changed = 0;
    c->status_drawn = 0;
    c->incremental = 0;
    c->in_place = 0;
    if (!view_full(s->w, s->h) || !plain_mode(g)) {
        view_draw_display(g, d, s);
        forget(c);
        return;
    }
    /* Not primed: s holds anything. The map and the log are drawn right
     * whatever s holds; only the status line relies on it (and on the
     * display it was drawn for). */
    int full = !view_cache_wants_prime(c, s->w, s->h) ||
               c->display.glyphs != d->glyphs ||
               c->display.colours != d->colours;
    c->w = s->w;
    c->h = s->h;
    c->display = *d;
    draw_map(g, d, c, s, !full);
    /* Right of the map the view draws nothing; the host may have. */
    if (s->w > MAP_W)
        for (int y = 0; y < MAP_H - 1; y++)
            if (blank_right(s, y))
                c->map_rows |= 1u << y;
    /* The log: unless the host keeps track of its lines over it and it
     * is the one the last frame drew (view_cache_track_log). */
    c->log_drawn = (uint8_t)(full || !log_kept(c, g));
    if (c->log_drawn)
        draw_log(g, c, s, full || !log_same_lines(c, g));
    c->log_overdrawn = 0;
    log_remember(c, g);
    draw_status(g, d, c, s, full);
    c->valid = 1;
    c->incremental = (uint8_t)!full;
    c->in_place = 1;
}

int view_cache_rows(const view_cache_t *c, uint8_t *rows, int h)
{
    if (!c->valid || !c->incremental || h != c->h || h > VIEW_CACHE_MAX_ROWS)
        return 0;
    for (int y = 0; y < MAP_H - 1; y++)
        rows[y] = (uint8_t)(c->map_rows >> y & 1);
    int status_y = view_status_row(c->w, h);
    for (int y = MAP_H - 1; y < status_y; y++) {
        int k = y - (MAP_H - 1);
        rows[y] = (uint8_t)(c->log_overdrawn ||
                            (k < VIEW_LOG_ROWS ? c->log_changed >> k & 1
                                               : c->log_drawn));
    }
    rows[status_y] = c->status_drawn;
    /* Below the status line (a tall terminal): blank, as the last frame
     * left them (an incremental frame is drawn over one of its size). */
    for (int y = status_y + 1; y < h; y++)
        rows[y] = 0;
    return 1;
}

/* The log's rows at w x h (a full view), into buf. */
static const screen_scroll_t *log_rows(int w, int h, screen_scroll_t *buf)
{
    buf->top = MAP_H - 1;
    buf->bot = view_status_row(w, h) - 1;
    return buf;
}

const screen_scroll_t *view_scroll(const game_t *g, int w, int h,
                                   screen_scroll_t *buf)
{
    return view_full(w, h) && plain_mode(g) ? log_rows(w, h, buf) : NULL;
}

const screen_scroll_t *view_cache_scroll(const view_cache_t *c, int h,
                                         screen_scroll_t *buf)
{
    return c->in_place && h == c->h ? log_rows(c->w, h, buf) : NULL;
}

void view_cache_end(view_cache_t *c, int sent)
{
    if (!c->used || !sent)
        forget(c);
    c->primed = 0;
    c->used = 0;
}
