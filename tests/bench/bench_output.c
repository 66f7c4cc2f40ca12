/* bench_output.c - the output benchmark: bytes per turn of our ANSI diff
 * encoder against two baselines, on the same frames in the same run.
 *
 * The frames: the bot (bot.h) plays games from seed 1 on until at least
 * MIN_TURNS turns are taken; every key's screen is drawn by view_draw at
 * 80x24 (a new game's first screen follows the last screen of the previous
 * game, as on the server). Then each encoder turns the same sequence into
 * bytes:
 *   ours       screen_diff from the previous frame (what the server sends,
 *              before telnet's IAC doubling and the 2-byte frame marker);
 *   full       screen_paint of every frame (clear, then every non-blank
 *              cell): a full redraw per turn;
 *   ncurses    the frames drawn through ncurses: newterm("xterm-256color")
 *              writing to a file, every cell set with mvaddch (colour pairs
 *              over use_default_colors), refresh() per frame, cursor
 *              hidden and leaveok; the bytes per refresh are the file's
 *              growth. Twice: as set up by default (idlok off), and with
 *              idlok(TRUE) (ncurses may then scroll with insert/delete line).
 * The first frame (the initial paint, and ncurses' set-up) is not counted.
 *
 *   bench_output [MIN_TURNS]      (default 1000) */
#include <curses.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot.h"
#include "game.h"
#include "screen.h"
#include "screen_diff.h"
#include "view.h"

#define W 80
#define H 24

typedef struct series {
    const char *name;
    long *bytes;   /* per frame, frames 1..n-1 */
} series_t;

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Every frame of the script, drawn at W x H. */
static screen_t *make_frames(const bot_script_t *s, int *nframes)
{
    int n = 0;
    for (int i = 0; i < s->ngames; i++)
        n += 1 + s->games[i].nkeys;
    screen_t *f = calloc((size_t)n, sizeof *f);
    if (!f)
        exit(1);
    int k = 0;
    for (int i = 0; i < s->ngames; i++) {
        game_t *g = game_new(s->games[i].seed, NULL);
        for (int j = 0; j <= s->games[i].nkeys; j++) {
            if (j > 0)
                game_key(g, s->games[i].keys[j - 1]);
            if (screen_init(&f[k], W, H) != 0)
                exit(1);
            view_draw(g, &f[k]);
            k++;
        }
        game_free(g);
    }
    *nframes = n;
    return f;
}

static void encode_ours(const screen_t *f, int n, long *bytes, long *first)
{
    term_state_t t;
    buf_t out;
    memset(&t, 0, sizeof t);
    term_state_reset(&t);
    buf_init(&out, 0);
    screen_paint(&f[0], &t, &out);
    *first = (long)out.len;
    for (int i = 1; i < n; i++) {
        buf_reset(&out);
        screen_diff(&f[i - 1], &f[i], &t, &out);
        bytes[i - 1] = (long)out.len;
    }
    buf_free(&out);
}

static void encode_full(const screen_t *f, int n, long *bytes)
{
    buf_t out;
    buf_init(&out, 0);
    for (int i = 1; i < n; i++) {
        term_state_t t;
        memset(&t, 0, sizeof t);
        term_state_reset(&t);
        buf_reset(&out);
        screen_paint(&f[i], &t, &out);
        bytes[i - 1] = (long)out.len;
    }
    buf_free(&out);
}

static long file_size(FILE *fp)
{
    struct stat st;
    fflush(fp);
    return fstat(fileno(fp), &st) == 0 ? (long)st.st_size : -1;
}

static short colour_of(uint8_t c)
{
    return c == COL_DEFAULT ? -1 : (short)c;
}

/* Draws every frame through ncurses; bytes per refresh after the first. */
static int encode_ncurses(const screen_t *f, int n, int idl, long *bytes,
                          long *first)
{
    FILE *out = tmpfile(), *in = fopen("/dev/null", "r");
    if (!out || !in)
        return -1;
    setenv("LINES", "24", 1);
    setenv("COLUMNS", "80", 1);
    SCREEN *scr = newterm("xterm-256color", out, in);
    if (!scr)
        return -1;
    set_term(scr);
    start_color();
    use_default_colors();
    curs_set(0);
    leaveok(stdscr, TRUE);
    idlok(stdscr, idl ? TRUE : FALSE);
    typeahead(-1);
    static short pair[17][17]; /* index 16: the terminal's default */
    memset(pair, 0, sizeof pair);
    short npairs = 0;
    long before = file_size(out);
    for (int i = 0; i < n; i++) {
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                const cell_t *c = &f[i].cells[y * W + x];
                int fi = c->fg == COL_DEFAULT ? 16 : c->fg & 15;
                int bi = c->bg == COL_DEFAULT ? 16 : c->bg & 15;
                if (!pair[fi][bi] && (fi != 16 || bi != 16)) {
                    pair[fi][bi] = ++npairs;
                    init_pair(npairs, colour_of(c->fg), colour_of(c->bg));
                }
                chtype ch = c->ch >= 0x20 && c->ch < 0x7f ? c->ch : '?';
                if (c->attr & ATTR_BOLD)
                    ch |= A_BOLD;
                if (c->attr & ATTR_UNDERLINE)
                    ch |= A_UNDERLINE;
                if (c->attr & ATTR_REVERSE)
                    ch |= A_REVERSE;
                ch |= COLOR_PAIR(pair[fi][bi]);
                mvaddch(y, x, ch);
            }
        }
        refresh();
        long now = file_size(out);
        if (i == 0)
            *first = now - before;
        else
            bytes[i - 1] = now - before;
        before = now;
    }
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    return 0;
}

typedef struct stats {
    double mean;
    long p99, max, total;
} stats_t;

static stats_t stats_of(const long *v, int n)
{
    long *s = malloc(sizeof *s * (size_t)n);
    stats_t r = { 0, 0, 0, 0 };
    if (!s)
        exit(1);
    memcpy(s, v, sizeof *s * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, cmp_long);
    for (int i = 0; i < n; i++)
        r.total += s[i];
    r.mean = (double)r.total / n;
    r.p99 = s[(int)(0.99 * (n - 1) + 0.5)];
    r.max = s[n - 1];
    free(s);
    return r;
}

int main(int argc, char **argv)
{
    long min_turns = argc > 1 ? atol(argv[1]) : 1000;
    static bot_script_t s;
    bot_script_make(&s, 1, min_turns, BOT_TURN_CAP);
    int n;
    screen_t *f = make_frames(&s, &n);
    int m = n - 1;
    long *ours = calloc((size_t)m, sizeof(long)), *full = calloc((size_t)m, sizeof(long));
    long *nc = calloc((size_t)m, sizeof(long)), *nci = calloc((size_t)m, sizeof(long));
    if (!ours || !full || !nc || !nci)
        return 1;
    long first_ours, first_nc, first_nci;
    encode_ours(f, n, ours, &first_ours);
    encode_full(f, n, full);
    int have_nc = encode_ncurses(f, n, 0, nc, &first_nc) == 0 &&
                  encode_ncurses(f, n, 1, nci, &first_nci) == 0;

    int changed = 0;
    for (int i = 1; i < n; i++)
        changed += !screen_equal(&f[i - 1], &f[i]);
    printf("Output: %d frames at %dx%d from %d games of the bot (seeds 1..%d, "
           "%ld turns, %d frames differ from the one before); bytes per turn\n"
           "after the first frame (first paint: ours %ld bytes). Plain ANSI "
           "bytes, before telnet (IAC doubling, 2-byte frame marker).\n\n",
           n, W, H, s.ngames, s.ngames, s.turns, changed, first_ours);
    stats_t so = stats_of(ours, m), sf = stats_of(full, m);
    printf("| encoder | mean | p99 | max | total | ours / this |\n"
           "|---|---|---|---|---|---|\n");
    printf("| ours (screen_diff) | %.1f | %ld | %ld | %ld | 1.00 |\n", so.mean,
           so.p99, so.max, so.total);
    printf("| full redraw (screen_paint per frame) | %.1f | %ld | %ld | %ld | %.3f |\n",
           sf.mean, sf.p99, sf.max, sf.total, (double)so.total / sf.total);
    if (have_nc) {
        stats_t sn = stats_of(nc, m), si = stats_of(nci, m);
        printf("| ncurses %s, xterm-256color (defaults) | %.1f | %ld | %ld | %ld | %.3f |\n",
               curses_version(), sn.mean, sn.p99, sn.max, sn.total,
               (double)so.total / sn.total);
        printf("| ncurses, idlok(TRUE) | %.1f | %ld | %ld | %ld | %.3f |\n",
               si.mean, si.p99, si.max, si.total, (double)so.total / si.total);
        printf("\nTargets: ours/ncurses <= 0.80 (now %.2f), ours/full <= 0.08 "
               "(now %.3f).\n", (double)so.total / sn.total,
               (double)so.total / sf.total);
    } else {
        printf("| ncurses | (newterm failed: is the xterm-256color terminfo "
               "installed?) | | | | |\n");
    }
    for (int i = 0; i < n; i++)
        screen_free(&f[i]);
    free(f);
    free(ours);
    free(full);
    free(nc);
    free(nci);
    bot_script_free(&s);
    return 0;
}
