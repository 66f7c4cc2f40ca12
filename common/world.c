/* world.c - the world's services (world.h): the log, who stands where,
 * experience, the view, a step of the player and the keys every mode
 * reads. The rules of a turn are turn.c's. */
#include "world.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fov.h"
#include "keys.h"

/* --- the log --------------------------------------------------------------- */

/* The log is written on most keys (a bump into a wall logs a line, which
 * merges into the last), so its common cases avoid printf: a line with no
 * conversion, or one "%s", is copied, and the " (xN)" of a merged line is
 * written by hand. The bytes are snprintf's. */

/* src cut to at most max bytes, into out, NUL-terminated. Returns its
 * length. */
static size_t copy_cut(char *out, const char *src, size_t max)
{
    size_t n = strnlen(src, max);
    memcpy(out, src, n);
    out[n] = '\0';
    return n;
}

/* The " (xN)" of a line repeated n times into suffix (no NUL); its
 * length. */
static int repeat_suffix(char suffix[16], int n)
{
    char digits[12];
    int nd = 0, k = 0;
    do
        digits[nd++] = (char)('0' + n % 10);
    while ((n /= 10) > 0);
    suffix[k++] = ' ';
    suffix[k++] = '(';
    suffix[k++] = 'x';
    while (nd > 0)
        suffix[k++] = digits[--nd];
    suffix[k++] = ')';
    return k;
}

/* text as it reads repeated n times (n > 0): "text (xN)", the text cut to
 * fit MSG_LEN. */
static void repeated(char out[MSG_LEN], const char *text, int n)
{
    char suffix[16];
    int k = repeat_suffix(suffix, n);
    size_t t = copy_cut(out, text, (size_t)(MSG_LEN - 1 - k));
    memcpy(out + t, suffix, (size_t)k);
    out[t + (size_t)k] = '\0';
}

/* 1 if line is text as logged n times: repeated(text, n) for n > 1, else
 * text cut to MSG_LEN - 1. The merge's test, compared in place (a bump
 * into a wall logs a line that merges: docs/performance.md, "The draw and
 * the turn, cheaper"). */
static int reads_as(const char *line, const char *text, int n)
{
    char suffix[16];
    int k = n > 1 ? repeat_suffix(suffix, n) : 0;
    size_t t = strnlen(text, (size_t)(MSG_LEN - 1 - k));
    return memcmp(line, text, t) == 0 &&
           memcmp(line + t, suffix, (size_t)k) == 0 && line[t + (size_t)k] == 0;
}

/* The line fmt formats to: fmt itself (no conversion) or the one "%s"'s
 * argument, or vsnprintf's into buf; each use cuts it to fit. */
static const char *format_line(char buf[MSG_LEN], const char *fmt, va_list ap)
{
    if (!strchr(fmt, '%'))
        return fmt;
    if (strcmp(fmt, "%s") == 0)
        return va_arg(ap, const char *);
    vsnprintf(buf, MSG_LEN, fmt, ap);
    return buf;
}

/* --- the log's records: a ring of bytes --------------------------------- */

/* Each line is a record of its own length (msg_t and its text, padded to
 * 4 bytes), laid one after another in game_t.log in the order logged, and
 * log_at holds where each begins (game version 10: 88 bytes a line
 * before, for lines of about 35 characters). */

/* The bytes of the record of a text of len characters. */
static int record_size(size_t len)
{
    return (int)((offsetof(msg_t, text) + len + 1 + 3) & ~(size_t)3);
}

static msg_t *record_at(const game_t *g, int off)
{
    return (msg_t *)(uintptr_t)(g->log + off);
}

static void drop_oldest(game_t *g)
{
    g->log_head = (g->log_head + 1) % LOG_MAX;
    g->log_count--;
}

/* Where a record of size bytes goes: at log_end, or at 0 when it does not
 * fit before the end; the oldest lines are dropped while they are in its
 * way. The bytes in use run from the oldest record to log_end, wrapped
 * past the end at most once. */
static int place(game_t *g, int size)
{
    if (g->log_count == LOG_MAX)
        drop_oldest(g);
    for (;;) {
        if (g->log_count == 0)
            return 0;
        int oldest = g->log_at[g->log_head], end = g->log_end;
        if (end > oldest) { /* in use: [oldest, end) */
            if (end + size <= LOG_BYTES)
                return end;
            if (size <= oldest)
                return 0;
        } else if (end + size <= oldest) { /* in use: [oldest, top), [0, end) */
            return end;
        }
        drop_oldest(g);
    }
}

/* text (cut to MSG_LEN - 1) as the newest line, with its seq, turn and
 * repeat; the record's padding cleared, so that the state's bytes are the
 * same however it was written. */
static void append(game_t *g, int kind, const char *text, uint32_t seq,
                   uint16_t turn, int repeat)
{
    size_t len = strnlen(text, MSG_LEN - 1);
    int size = record_size(len), off = place(g, size);
    memset(g->log + off, 0, (size_t)size);
    msg_t *m = record_at(g, off);
    m->seq = seq;
    m->turn = turn;
    m->kind = (uint8_t)kind;
    m->repeat = (uint8_t)repeat;
    memcpy(m->text, text, len);
    g->log_at[(g->log_head + g->log_count) % LOG_MAX] = (uint16_t)off;
    g->log_count++;
    g->log_end = (uint16_t)(off + size);
}

/* The newest line taken off: its bytes are where the next goes. */
static void pop_newest(game_t *g)
{
    g->log_end = g->log_at[(g->log_head + g->log_count - 1) % LOG_MAX];
    g->log_count--;
}

/* --- the log ---------------------------------------------------------------- */

void game_log(game_t *g, int kind, const char *fmt, ...)
{
    char buf[MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    const char *text = format_line(buf, fmt, ap);
    va_end(ap);
    if (text >= (const char *)g->log && text < (const char *)(g->log + LOG_BYTES))
        text = strcpy(buf, text); /* a line of the log, about to change */
    const msg_t *last = game_msg(g, 0);
    /* Only within a turn (game version 9): a blow merged over turns read
     * as "The skeleton hits you for 2 damage! (x6)" while HP fell over
     * three of them. */
    uint16_t turn = (uint16_t)g->turn;
    /* And only about the same monster (game version 10): two goblins'
     * blows read as one goblin's "(x2)". */
    if (last && last->kind == kind && last->repeat < 255 &&
        last->turn == turn && g->log_about == g->about &&
        reads_as(last->text, text, last->repeat)) {
        int n = last->repeat > 1 ? last->repeat + 1 : 2;
        char merged[MSG_LEN];
        repeated(merged, text, n);
        pop_newest(g); /* a longer record, in its place */
        append(g, kind, merged, g->log_total++, turn, n);
        return;
    }
    g->log_about = g->about;
    append(g, kind, text, g->log_total++, turn, 0);
}

/* Lines logged since the last monsters' phase began (game_t.phase_log),
 * newest first: how many of the newest lines it logged, or what came
 * after it in that turn. */
static int lines_since_phase(const game_t *g)
{
    uint16_t since = (uint16_t)(g->log_total - g->phase_log);
    int n = 0;
    for (const msg_t *m; (m = game_msg(g, n)) != NULL &&
                         (uint16_t)(m->seq - g->phase_log) < since;)
        n++;
    return n;
}

/* Lines log_insert and game_log_unsay move at most (a turn's lines after
 * a monsters' phase: a fight of many is a dozen or two). */
#define INSERT_MAX 32

/* A line taken off the log to be logged again (log_insert,
 * game_log_unsay). */
typedef struct kept_line {
    uint32_t seq;
    uint16_t turn;
    uint8_t kind, repeat;
    char text[MSG_LEN];
} kept_line_t;

/* The newest n lines (n <= INSERT_MAX) taken off into kept, oldest
 * first. */
static void take_newest(game_t *g, int n, kept_line_t *kept)
{
    for (int i = n - 1; i >= 0; i--) {
        const msg_t *m = game_msg(g, 0);
        kept[i].seq = m->seq;
        kept[i].turn = m->turn;
        kept[i].kind = m->kind;
        kept[i].repeat = m->repeat;
        memcpy(kept[i].text, m->text, strlen(m->text) + 1);
        pop_newest(g);
    }
}

/* kept's n lines logged again in their order, each seq + shift. */
static void put_back(game_t *g, const kept_line_t *kept, int n,
                     uint32_t shift)
{
    for (int i = 0; i < n; i++)
        append(g, kept[i].kind, kept[i].text, kept[i].seq + shift,
               kept[i].turn, kept[i].repeat);
}

/* text logged as a line before the newest n: they are taken off and
 * logged again after it (more than INSERT_MAX: it is logged after them,
 * as every arrival was before game version 10). It takes the seq of the first
 * of them, and each of them the next, so that the seqs still run in the
 * log's order and name each line's text (the view cache draws a row
 * again when its seq changed). It merges with none. */
static void log_insert(game_t *g, int n, int kind, const char *text)
{
    kept_line_t kept[INSERT_MAX];
    if (n > INSERT_MAX)
        n = 0;
    take_newest(g, n, kept);
    if (n == 0) {
        g->log_about = g->about;
        append(g, kind, text, g->log_total++, (uint16_t)g->turn, 0);
        return;
    }
    g->log_total++;
    append(g, kind, text, kept[0].seq, kept[0].turn, 0);
    put_back(g, kept, n, 1);
}

void game_log_unsay(game_t *g, int i)
{
    kept_line_t kept[INSERT_MAX];
    if (i < 0 || i >= g->log_count || i > INSERT_MAX)
        return;
    take_newest(g, i, kept);
    pop_newest(g);
    put_back(g, kept, i, 0); /* their seqs: still in the log's order */
    if (i == 0)
        g->log_about = 0; /* the line before's is not kept: it merges with
                             no monster's line, only with none's */
    g->derived.log_unsaid++;
}

const msg_t *game_msg(const game_t *g, int i)
{
    if (i < 0 || i >= g->log_count)
        return NULL;
    return record_at(g, g->log_at[(g->log_head + g->log_count - 1 - i) %
                                  LOG_MAX]);
}

int game_msg_is_new(const game_t *g, int i)
{
    const msg_t *m = game_msg(g, i);
    return m && m->seq >= g->log_fresh;
}

/* 1 if the n bytes at t are a merged line's count alone: "(x12)". */
static int count_alone(const char *t, int n)
{
    if (n < 4 || t[0] != '(' || t[1] != 'x' || t[n - 1] != ')')
        return 0;
    for (int i = 2; i < n - 1; i++)
        if (t[i] < '0' || t[i] > '9')
            return 0;
    return 1;
}

/* 1 if a row had better end at text[q], a space: not the one inside a
 * kill's "(+10 XP)", which split over two rows read as "(+10" and "XP)"
 * (a play-test at 40 columns); the row ends before "(+" instead. A
 * preference: where that space is the only one in reach, the row ends
 * there rather than being cut inside a word (game_text_wrap). */
static int breaks_at(const char *text, int q)
{
    if (strncmp(text + q + 1, "XP)", 3) != 0)
        return 1;
    int d = q;
    while (d > 0 && text[d - 1] >= '0' && text[d - 1] <= '9')
        d--;
    return !(d < q && d >= 2 && text[d - 1] == '+' && text[d - 2] == '(');
}

/* A merged line's "(xN)" left alone on the last row takes the word before
 * it down with it, when both fit: "here. (x2)", not "(x2)" under a full
 * row; a kill's "(+10 XP)" is one word here. The rows stay as many (the
 * core counts them). */
static void keep_count_with_word(const char *text, int w, int n, int *start,
                                 int *len)
{
    if (n < 2 || !count_alone(text + start[n - 1], len[n - 1]))
        return;
    int a = start[n - 2], q = a + len[n - 2] - 1;
    while (q > a && (text[q] != ' ' || !breaks_at(text, q)))
        q--;
    if (q <= a || start[n - 1] + len[n - 1] - (q + 1) > w)
        return; /* one word on the row above, or no room below */
    int l = q - a;
    while (l > 0 && text[a + l - 1] == ' ')
        l--;
    len[n - 2] = l;
    len[n - 1] = start[n - 1] + len[n - 1] - (q + 1);
    start[n - 1] = q + 1;
}

/* The length of the row from text[p] at width w, of a text longer than
 * that: to the last space in reach where a row may end, else to the last
 * space at all ("(+5" / "XP)" at 6 columns, not "(+5 XP" / ")"), else w
 * (a word longer than the row is cut). */
static int row_end(const char *text, int p, int w)
{
    int any = 0;
    for (int q = p + w; q > p; q--) {
        if (text[q] != ' ')
            continue;
        if (breaks_at(text, q))
            return q - p;
        if (!any)
            any = q - p;
    }
    return any ? any : w;
}

int game_text_wrap(const char *text, int w, int *start, int *len, int max)
{
    int n = 0, p = 0, end = (int)strlen(text);
    while (p < end && n < max) {
        int take = end - p;
        if (take > w)
            take = row_end(text, p, w);
        start[n] = p;
        len[n++] = take;
        p += take;
        while (p < end && text[p] == ' ')
            p++;
    }
    if (p >= end)
        keep_count_with_word(text, w, n, start, len);
    return n;
}

/* The rows message i (0: the newest) takes in the log wrapped to
 * GAME_HISTORY_NARROW_W: an empty one takes a row too. */
static int narrow_rows_of(const game_t *g, int i)
{
    int start[GAME_MSG_WRAP_MAX], len[GAME_MSG_WRAP_MAX];
    int k = game_text_wrap(game_msg(g, i)->text, GAME_HISTORY_NARROW_W, start,
                           len, GAME_MSG_WRAP_MAX);
    return k > 0 ? k : 1;
}

int game_history_narrow_max(const game_t *g)
{
    int rows = 0;
    for (int i = 0; i < g->log_count; i++)
        rows += narrow_rows_of(g, i);
    return rows > GAME_HISTORY_NARROW_ROWS ? rows - GAME_HISTORY_NARROW_ROWS
                                           : 0;
}

/* The first and last rows, in the log wrapped to GAME_HISTORY_NARROW_W
 * (row 0: the oldest message's first), of the message that row is in. */
static void narrow_msg_rows(const game_t *g, int row, int *first, int *last)
{
    int at = 0;
    for (int i = g->log_count - 1; i >= 0; i--) {
        int k = narrow_rows_of(g, i);
        if (row < at + k) {
            *first = at;
            *last = at + k - 1;
            return;
        }
        at += k;
    }
    *first = *last = row;
}

int game_history_narrow_line(const game_t *g, int pos, int back)
{
    int max = game_history_narrow_max(g), first, last;
    pos = pos < max ? pos : max;
    int top = max - pos;
    if (back) { /* the message above the top (or cut by it), whole */
        if (top == 0)
            return pos;
        narrow_msg_rows(g, top - 1, &first, &last);
        pos += top - first;
    } else { /* the message at the top (whole or cut) out of the page */
        narrow_msg_rows(g, top, &first, &last);
        pos -= last + 1 - top;
    }
    return pos < 0 ? 0 : pos > max ? max : pos;
}

int game_history_narrow_page(const game_t *g, int pos, int back)
{
    int max = game_history_narrow_max(g), step = GAME_HISTORY_NARROW_ROWS - 1;
    pos = pos < max ? pos : max;
    int top = max - pos, edge = back ? top : top + step, first, last;
    narrow_msg_rows(g, edge, &first, &last);
    if (back && first < edge)
        step -= last - edge; /* the message cut at the top: whole below */
    else if (!back && last > edge)
        step -= edge - first; /* cut at the bottom: whole at the top */
    else if (!back && first < edge)
        step++; /* it ends on the shared row, whole above: not shared */
    int next = back ? top - step : top + step;
    if (back && next > 0) {
        /* the new top in a message: from the one after it (the cut one
         * is whole on the page before), so no page begins blank */
        narrow_msg_rows(g, next, &first, &last);
        if (first < next)
            next = last + 1;
    }
    pos = max - next;
    return pos < 0 ? 0 : pos > max ? max : pos;
}

/* --- creatures and the player --------------------------------------------- */

int game_xp_next(int level)
{
    /* 100, 250, 450, 700, ...: each level costs 50 more than the last. */
    return 25 * level * (level + 3);
}

void game_gain_xp(game_t *g, int xp)
{
    player_t *p = &g->player;
    p->xp += xp;
    while (p->xp >= game_xp_next(p->level)) {
        p->level++;
        p->max_hp += 5;
        p->hp = p->hp + 5 < p->max_hp ? p->hp + 5 : p->max_hp;
        p->attack += 1;
        game_log(g, MSG_LEVEL, "You reach level %d! Max HP %d, attack +1.",
                 p->level, p->max_hp);
    }
}

int game_monster_at(const game_t *g, int x, int y)
{
    return monster_at(g->monsters, game_monsters_end(g), x, y);
}

int game_monster_in_view(const game_t *g)
{
    for (int i = 0, end = game_monsters_end(g); i < end; i++) {
        const monster_t *m = &g->monsters[i];
        if (m->alive && game_lit(g, m->x, m->y))
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
        game_monster_slot_live(g, i);
        return i;
    }
    return -1;
}

/* Clears visible: the rows within FOV_RADIUS of the last view's origin if
 * that is known (the others are 0 already), else all of it. About 15 rows
 * of the 21, each a turn (docs/performance.md, "The turn's slots
 * bounded"). */
static void clear_last_view(game_t *g)
{
    const game_derived_t *d = &g->derived;
    if (!d->view_known) {
        memset(g->visible, 0, sizeof g->visible);
        return;
    }
    int y0, y1;
    fov_rows(d->view_y, &y0, &y1);
    memset(g->visible[y0], 0, (size_t)(y1 - y0 + 1) * sizeof g->visible[0]);
}

void game_update_fov(game_t *g)
{
    int x = g->player.x, y = g->player.y;
    clear_last_view(g);
    /* What is in view is explored: fov_light puts each of its rows in
     * both (a pass over the view's rows after cost ~3% of a view). */
    fov_light(&g->map, x, y, FOV_RADIUS, g->visible, g->map.explored);
    /* Nothing lit off the map (fov.h), so an origin off it leaves none. */
    int on = map_in_bounds(x, y);
    g->derived.view_known = (uint8_t)on;
    g->derived.view_x = (uint8_t)(on ? x : 0);
    g->derived.view_y = (uint8_t)(on ? y : 0);
    item_see(g);
}

/* 1 if visible is the view from (x, y) already: the last view was made
 * from there on this level (a new level, and a game worked out from its
 * bytes, forget it: game_derive), and a level's tiles never change after
 * it is built. Its tiles are explored already (docs/performance.md, "The
 * monsters' maps on the grid, and a still player's view"). */
static int view_still(const game_t *g, int x, int y)
{
    const game_derived_t *d = &g->derived;
    return d->view_known && d->view_x == x && d->view_y == y;
}

void game_update_fov_turn(game_t *g)
{
    if (!view_still(g, g->player.x, g->player.y))
        game_update_fov(g);
    else
        item_see(g); /* items move without the player */
}

/* The nearest living monster in view within `range` (0: any; Euclidean)
 * whose slot is not in `skip` (NULL: none skipped), ties to the lower
 * slot; -1 if none. */
static int nearest_in_view_but(const game_t *g, int range,
                               const game_in_view_t *skip)
{
    int best = -1, best_d = -1;
    for (int i = 0, end = game_monsters_end(g); i < end; i++) {
        const monster_t *m = &g->monsters[i];
        if (!m->alive || !game_lit(g, m->x, m->y) ||
            (skip && (skip->bits[i / 8] >> (i % 8) & 1)))
            continue;
        int dx = m->x - g->player.x, dy = m->y - g->player.y;
        int d = dx * dx + dy * dy;
        if ((range == 0 || d <= range * range) && (best_d < 0 || d < best_d)) {
            best_d = d;
            best = i;
        }
    }
    return best;
}

int game_nearest_in_view(const game_t *g, int range)
{
    return nearest_in_view_but(g, range, NULL);
}

void game_in_view(const game_t *g, game_in_view_t *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0, end = game_monsters_end(g); i < end; i++)
        if (g->monsters[i].alive &&
            game_lit(g, g->monsters[i].x, g->monsters[i].y))
            out->bits[i / 8] |= (uint8_t)(1u << (i % 8));
}

int game_came_into_view(const game_t *g, const game_in_view_t *before)
{
    return nearest_in_view_but(g, 0, before);
}

void target_cursor_home(game_t *g)
{
    target_t *t = &g->target;
    /* not on a monster out of range, where Enter is refused */
    int i = game_nearest_in_view(g, t->range);
    t->x = i >= 0 ? g->monsters[i].x : g->player.x;
    t->y = i >= 0 ? g->monsters[i].y : g->player.y;
}

int game_stop_here(const game_t *g)
{
    return item_find((game_t *)g, ITEM_THING, g->player.x, g->player.y) ||
           g->map.tile[g->player.y][g->player.x] == TILE_STAIRS;
}

void game_tell_came(game_t *g, int came)
{
    if (g->mode != MODE_PLAY)
        return;
    if (came >= 0) {
        int kind = g->monsters[came].kind;
        char line[MSG_LEN];
        snprintf(line, sizeof line, "%s %s comes into view.",
                 monster_article(kind)[1] ? "An" : "A",
                 monster_stats(kind)->name);
        /* Before what the monsters did in the turn (game version 10: a
         * goblin's blow was told before it came into view). */
        log_insert(g, lines_since_phase(g), MSG_WARN, line);
    }
}

/* --- keys ------------------------------------------------------------------ */

int game_key_direction(int key, int *dx, int *dy)
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

int game_click_key(int x, int y)
{
    if (!map_in_bounds(x, y))
        return -1;
    return KEY_CLICK_BASE + y * MAP_W + x;
}

int game_click_tile(int key, int *x, int *y)
{
    if (key < KEY_CLICK_BASE || key >= KEY_CLICK_BASE + MAP_W * MAP_H)
        return 0;
    *x = (key - KEY_CLICK_BASE) % MAP_W;
    *y = (key - KEY_CLICK_BASE) / MAP_W;
    return 1;
}

/* Walking onto gold picks it up; a thing there is named. */
static void arrive(game_t *g)
{
    /* The first gold and the first thing here, in one pass over the
     * slots (item_find for each, as it was, took two). */
    item_t *gold = NULL, *it = NULL;
    for (int i = item_next_at(g, 0, g->player.x, g->player.y);
         i < MAX_ITEMS && !(gold && it);
         i = item_next_at(g, i + 1, g->player.x, g->player.y)) {
        item_t *here = &g->items[i];
        if (!gold && here->type == ITEM_GOLD)
            gold = here;
        else if (!it && here->type == ITEM_THING)
            it = here;
    }
    if (gold) {
        g->player.gold += gold->amount;
        game_log(g, MSG_GOOD, "You pick up %d gold.", gold->amount);
        memset(gold, 0, sizeof *gold);
    }
    if (it)
        it->walked = 1;
    char name[MSG_LEN];
    if (it)
        game_log(g, MSG_INFO, "You see %s here.",
                 item_floor_a_name(g, it, name, sizeof name));
    else if (g->map.tile[g->player.y][g->player.x] == TILE_STAIRS)
        /* Hidden under the `@`: told by every arrival (game version 9: a
         * step, a travel's end and a count said nothing, a run did). */
        game_log(g, MSG_INFO, "You are on the stairs: > goes down.");
}

/* The wielded weapon's row, or NULL (fists). */
static const item_stats_t *wielded(const game_t *g)
{
    return item_pack_has(g, g->player.weapon)
               ? item_stats(g->pack[g->player.weapon]) : NULL;
}

/* A reaching weapon (item.h): the monster two tiles away along (dx, dy),
 * in view, with free floor between; else -1. */
static int reach_target(const game_t *g, int dx, int dy)
{
    const item_stats_t *w = wielded(g);
    int mx = g->player.x + dx, my = g->player.y + dy;
    int fx = mx + dx, fy = my + dy;
    if (!w || !w->reach || !map_walkable(&g->map, mx, my) ||
        !map_in_bounds(fx, fy) || !game_lit(g, fx, fy))
        return -1;
    return game_monster_at(g, fx, fy);
}

/* A bump: a quick weapon's every second one leaves the monsters no
 * phase (docs/game.md, "Equipment"). */
static void bump(game_t *g, int target)
{
    const item_stats_t *w = wielded(g);
    game_player_attacks(g, target);
    if (w && w->quick && ++g->player.quick % 2 == 0)
        game_end_turn_free(g);
    else
        game_end_turn(g);
}

/* Slow armour: every second step in it costs a second turn. The step's
 * monsters' phases begin at the first's (phase_log): an arrival is told
 * before both turns' lines, not between them. */
static void step_cost(game_t *g)
{
    const player_t *p = &g->player;
    game_end_turn(g);
    if (item_pack_has(g, p->armor) && item_stats(g->pack[p->armor])->slow &&
        ++g->player.strides % 2 == 0 && g->mode == MODE_PLAY) {
        uint16_t first = g->phase_log;
        game_end_turn(g);
        g->phase_log = first;
    }
}

/* Moves, or attacks the monster in the way (bump to attack). */
int game_step(game_t *g, int dx, int dy)
{
    int nx = g->player.x + dx, ny = g->player.y + dy;
    /* A living monster stands only on a walkable tile (every placement and
     * every step checks it, and a level's map never changes), and a
     * reaching weapon does not reach past a wall: into a wall, the slots
     * need no search. Most keys of a walk that turns at walls are these. */
    if (!map_walkable(&g->map, nx, ny)) {
        game_log(g, MSG_INFO, "There is a wall in the way.");
        return 0;
    }
    int target = game_monster_at(g, nx, ny);
    if (target < 0)
        target = reach_target(g, dx, dy);
    if (target >= 0) {
        bump(g, target);
        return 1;
    }
    g->player.x = nx;
    g->player.y = ny;
    arrive(g);
    step_cost(g);
    return 1;
}
