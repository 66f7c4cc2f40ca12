/* view_pages_narrow.c - the character (`C`) and message history (`P`)
 * screens, and the log under the YOU DIED frame, below 80 columns, down to 40x20: the same words as at full
 * width, broken onto more rows instead of cut at the right edge. At 80
 * columns and more view.c draws them as they always were. docs/game.md,
 * "Small terminals". */
#include <stdio.h>
#include <string.h>

#include "view_parts.h"

/* Adds part to the rows out[0..*n) at width w: after the last row (with
 * sep between) where it fits there, else on rows of its own, broken at
 * spaces if it is wider than w. cur says the last row may take more. */
static void pack_part(const char *part, const char *sep, int w,
                      char out[][96], int *n, int max, int *cur)
{
    if (*cur && (int)(strlen(out[*n - 1]) + strlen(sep) + strlen(part)) <= w) {
        size_t k = strlen(out[*n - 1]);
        snprintf(out[*n - 1] + k, 96 - k, "%s%s", sep, part);
        return;
    }
    int start[4], len[4];
    int k = game_text_wrap(part, w, start, len, 4);
    for (int i = 0; i < k && *n < max; i++)
        snprintf(out[(*n)++], 96, "%.*s", len[i], part + start[i]);
    *cur = k == 1; /* a part broken over rows ends its last one */
}

/* Splits one line of the character screen into the rows it takes at
 * width w: whole if it fits, else its parts (they meet at "   " or at
 * "; ", which keeps its ';') as many to a row as fit, and a part still
 * too wide broken at spaces. Returns the rows written to out (at most
 * max). */
static int char_rows(const char *line, int w, char out[][96], int max)
{
    int n = 0, cur = 0;
    const char *p = line, *sep = "";
    if ((int)strlen(line) <= w) {
        snprintf(out[n++], 96, "%s", line);
        return n;
    }
    while (*p && n < max) {
        const char *a = strstr(p, "   "), *b = strstr(p, "; ");
        const char *end = a && (!b || a < b) ? a : b;
        int len = end ? (int)(end - p) + (end == b) : (int)strlen(p);
        char part[96];
        snprintf(part, sizeof part, "%.*s", len, p);
        pack_part(part, sep, w, out, &n, max, &cur);
        if (!end)
            break;
        sep = end == b ? " " : "   ";
        p = end + (end == b ? 2 : 3);
        while (*p == ' ')
            p++;
    }
    return n;
}

void view_character_narrow(screen_t *s, char line[][96], int n)
{
    enum { MAX_ROWS = 16 };
    char rows[MAX_ROWS][96];
    int k = 0;
    for (int i = 0; i < n && k < MAX_ROWS; i++)
        k += char_rows(line[i], s->w, rows + k, MAX_ROWS - k);
    if (k > s->h - 4)
        k = s->h - 4;
    int y0 = (s->h - k - 4) / 2;
    view_centred(s, y0, "Character", COL_BYELLOW, ATTR_BOLD);
    for (int i = 0; i < k; i++)
        view_centred(s, y0 + 2 + i, rows[i], COL_WHITE, 0);
    view_centred(s, y0 + 3 + k, "Press any key to return.", COL_BCYAN, 0);
}

/* P's rows: every message of the log wrapped to the width, the oldest's
 * first; each row keeps which message it is from. */
typedef struct {
    int msg[LOG_MAX * GAME_MSG_WRAP_MAX], start[LOG_MAX * GAME_MSG_WRAP_MAX],
        len[LOG_MAX * GAME_MSG_WRAP_MAX];
    int n;
} hist_rows_t;

static void hist_wrap(const game_t *g, int w, hist_rows_t *r)
{
    r->n = 0;
    for (int i = g->log_count - 1; i >= 0; i--) {
        const msg_t *m = game_msg(g, i);
        if (!m)
            continue;
        int k = game_text_wrap(m->text, w, r->start + r->n, r->len + r->n,
                               GAME_MSG_WRAP_MAX);
        if (k == 0) { /* an empty message keeps its row */
            r->start[r->n] = 0;
            r->len[r->n] = 0;
            k = 1;
        }
        for (int j = 0; j < k; j++)
            r->msg[r->n + j] = i;
        r->n += k;
    }
}

/* Narrows the page's rows top..*last to the messages it holds whole: a
 * message cut by its top edge (its start scrolled off above: a play-test
 * at 40x20 read its tail as the top line, and counted it in "lines A-B")
 * or by its bottom edge is left out, its rows blank, so that the first
 * row shown begins a line and A-B are the lines shown. *first: the
 * first row kept (after *last if none is). */
static void whole_messages(const hist_rows_t *r, int top, int *first,
                           int *last)
{
    *first = top;
    while (*first <= *last && *first > 0 &&
           r->msg[*first - 1] == r->msg[*first])
        (*first)++;
    while (*last >= *first && *last + 1 < r->n &&
           r->msg[*last + 1] == r->msg[*last])
        (*last)--;
}

/* The game pages hist_pos in rows of the log wrapped to 40 columns, up
 * to game_history_narrow_max, which at 40x20 is the rows this page has
 * to go back; at a larger size the log takes fewer rows than that, so
 * the range is spread over them: the oldest page is still at the top end
 * and a step moves a row or none. */
void view_history_narrow(const game_t *g, screen_t *s)
{
    hist_rows_t r; /* 18 KB */
    int rows = s->h - 2, count = g->log_count;
    hist_wrap(g, s->w, &r);
    int top_max = r.n - rows > 0 ? r.n - rows : 0;
    int max = game_history_narrow_max(g);
    int pos = g->derived.hist_pos < max ? g->derived.hist_pos : max;
    int back = max > 0 ? (int)((long)pos * top_max / max) : 0;
    int top = top_max - back, n = r.n - top < rows ? r.n - top : rows;
    int first, last = top + n - 1;
    whole_messages(&r, top, &first, &last);
    char line[96];
    if (first <= last)
        snprintf(line, sizeof line, "Message history: lines %d-%d of %d",
                 count - r.msg[first], count - r.msg[last], count);
    else
        snprintf(line, sizeof line, "Message history: empty");
    screen_puts(s, 0, 0, line, COL_BYELLOW, COL_DEFAULT, ATTR_BOLD);
    for (int i = first; i <= last; i++) { /* each where k moved it */
        const msg_t *m = game_msg(g, r.msg[i]);
        snprintf(line, sizeof line, "%.*s", r.len[i], m->text + r.start[i]);
        screen_puts(s, 0, 1 + i - top, line, view_msg_colour(m->kind),
                    COL_DEFAULT, 0);
    }
    const char *keys = VIEW_HISTORY_KEYS;
    if ((int)strlen(keys) > s->w) /* the arrows work, but go unsaid */
        keys = VIEW_HISTORY_KEYS_NARROW;
    screen_puts(s, 0, s->h - 1, keys, COL_BCYAN, COL_DEFAULT, 0);
}

void view_log_under_narrow(const game_t *g, screen_t *s, int top, int bottom)
{
    int row = bottom;
    for (int i = 0; row >= top; i++) {
        const msg_t *m = game_msg(g, i);
        if (!m)
            break;
        int start[4] = { 0 }, len[4] = { 0 };
        int k = game_text_wrap(m->text, s->w, start, len, 4);
        if (k == 0)
            k = 1; /* an empty line keeps its row */
        if (row - k + 1 < top)
            break; /* whole messages only */
        for (int j = 0; j < k; j++) {
            char line[96];
            snprintf(line, sizeof line, "%.*s", len[j], m->text + start[j]);
            screen_puts(s, 0, row - k + 1 + j, line, view_msg_colour(m->kind),
                        COL_DEFAULT, 0);
        }
        row -= k;
    }
}
