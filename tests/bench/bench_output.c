/* bench_output.c - the output benchmark: bytes per turn of our ANSI diff
 * encoder against two baselines, on the same frames in the same run, for
 * three displays (display.h): ASCII in 16 colours (the plain display, what
 * every client got before displays), UTF-8 in 256 colours, and UTF-8 in
 * truecolor.
 *
 * The frames: the bot (bot.h) plays games from seed 1 on until at least
 * MIN_TURNS turns are taken; every key's screen is drawn by
 * view_draw_display at 80x24 for the display (a new game's first screen
 * follows the last screen of the previous game, as on the server). Then
 * each encoder turns the same sequence into bytes:
 *   ours       screen_diff from the previous frame (what the server sends,
 *              before telnet's IAC doubling and the 2-byte frame marker),
 *              the encoder set to the display (term_state_set_display);
 *   full       screen_paint of every frame (clear, then every non-blank
 *              cell): a full redraw per turn;
 *   ncurses    the frames drawn through ncurses (the wide-character
 *              library, in a UTF-8 locale) writing to a file, with the
 *              terminal type that matches the display: xterm-256color for
 *              the 16 and 256 colours, xterm-direct for truecolor (its
 *              colours 8-15 and palette.h's as RGB, as a program on such a
 *              terminal must give them); every cell set with mvadd_wch
 *              (colour pairs over use_default_colors), refresh() per frame,
 *              cursor hidden and leaveok; the bytes per refresh are the
 *              file's growth. Twice: as set up by default (idlok off), and
 *              with idlok(TRUE) (ncurses may then scroll with insert/delete
 *              line).
 * The first frame (the initial paint, and ncurses' set-up) is not counted.
 *
 *   bench_output [MIN_TURNS]      (default 1000) */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <locale.h>
#include <wchar.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot.h"
#include "game.h"
#include "palette.h"
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

/* A display to measure, and the terminal type ncurses is run with. */
typedef struct mode {
    const char *name;
    display_t display;
    const char *term;
} disp_mode_t;

static const disp_mode_t modes[] = {
    { "ASCII, 16 colours", { GLYPHS_ASCII, COLOURS_16 }, "xterm-256color" },
    { "UTF-8, 256 colours", { GLYPHS_UTF8, COLOURS_256 }, "xterm-256color" },
    { "UTF-8, truecolor", { GLYPHS_UTF8, COLOURS_TRUE }, "xterm-direct" },
};
#define NMODES (int)(sizeof modes / sizeof modes[0])

/* Every frame of the script, drawn at W x H for display d. */
static screen_t *make_frames(const bot_script_t *s, const display_t *d,
                             int *nframes)
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
            view_draw_display(g, d, &f[k]);
            k++;
        }
        game_free(g);
    }
    *nframes = n;
    return f;
}

static void encode_ours(const screen_t *f, int n, const display_t *d,
                        long *bytes, long *first)
{
    term_state_t t;
    buf_t out;
    memset(&t, 0, sizeof t);
    term_state_set_display(&t, d);
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

static void encode_full(const screen_t *f, int n, const display_t *d,
                        long *bytes)
{
    buf_t out;
    buf_init(&out, 0);
    for (int i = 1; i < n; i++) {
        term_state_t t;
        memset(&t, 0, sizeof t);
        term_state_set_display(&t, d);
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

/* xterm's colours 8-15 as RGB: what a truecolor terminal type
 * (xterm-direct: only 0-7 are indexed) is given for them. */
static const int bright_rgb[8] = {
    0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
    0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

/* A cell colour as ncurses' colour number for display d (-1: default). */
static int colour_of(uint8_t c, const display_t *d)
{
    const palette_colour_t *p = palette_colour(c);
    if (c == COL_DEFAULT)
        return -1;
    if (p && d->colours == COLOURS_16)
        c = p->fallback;
    else if (p && d->colours == COLOURS_256)
        return p->xterm;
    else if (p)
        return p->r << 16 | p->g << 8 | p->b;
    if (c >= 8 && d->colours == COLOURS_TRUE)
        return bright_rgb[c - 8];
    return c;
}

/* Draws every frame through ncurses with terminal type `term`; bytes per
 * refresh after the first. */
static int encode_ncurses(const screen_t *f, int n, const display_t *d,
                          const char *term, int idl, long *bytes, long *first)
{
    FILE *out = tmpfile(), *in = fopen("/dev/null", "r");
    if (!out || !in)
        return -1;
    setenv("LINES", "24", 1);
    setenv("COLUMNS", "80", 1);
    SCREEN *scr = newterm(term, out, in);
    if (!scr)
        return -1;
    set_term(scr);
    start_color();
    use_default_colors();
    curs_set(0);
    leaveok(stdscr, TRUE);
    idlok(stdscr, idl ? TRUE : FALSE);
    typeahead(-1);
    static int pair[32][32]; /* by the cells' colour values */
    memset(pair, 0, sizeof pair);
    int npairs = 0;
    long before = file_size(out);
    for (int i = 0; i < n; i++) {
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                const cell_t *c = &f[i].cells[y * W + x];
                int fi = c->fg, bi = c->bg;
                if (!pair[fi][bi] && (fi != COL_DEFAULT || bi != COL_DEFAULT)) {
                    pair[fi][bi] = ++npairs;
                    init_extended_pair(npairs, colour_of(c->fg, d),
                                       colour_of(c->bg, d));
                }
                wchar_t wch[2] = { (wchar_t)c->ch, 0 };
                if (d->glyphs == GLYPHS_ASCII && (c->ch < 0x20 || c->ch >= 0x7f))
                    wch[0] = '?';
                attr_t a = 0;
                if (c->attr & ATTR_BOLD)
                    a |= WA_BOLD;
                if (c->attr & ATTR_UNDERLINE)
                    a |= WA_UNDERLINE;
                if (c->attr & ATTR_REVERSE)
                    a |= WA_REVERSE;
                cchar_t cc;
                int p = pair[fi][bi];
                setcchar(&cc, wch, a, 0, &p);
                mvadd_wch(y, x, &cc);
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

/* One display's figures. */
typedef struct result {
    int frames, changed;
    long first;
    stats_t ours, full, nc, nci;
    int have_nc;
} result_t;

static result_t measure(const bot_script_t *s, const disp_mode_t *md)
{
    result_t r;
    memset(&r, 0, sizeof r);
    int n;
    screen_t *f = make_frames(s, &md->display, &n);
    int m = n - 1;
    long *ours = calloc((size_t)m, sizeof(long)), *full = calloc((size_t)m, sizeof(long));
    long *nc = calloc((size_t)m, sizeof(long)), *nci = calloc((size_t)m, sizeof(long));
    if (!ours || !full || !nc || !nci)
        exit(1);
    long first_nc, first_nci;
    encode_ours(f, n, &md->display, ours, &r.first);
    encode_full(f, n, &md->display, full);
    r.have_nc = encode_ncurses(f, n, &md->display, md->term, 0, nc, &first_nc) == 0 &&
                encode_ncurses(f, n, &md->display, md->term, 1, nci, &first_nci) == 0;
    r.frames = n;
    for (int i = 1; i < n; i++)
        r.changed += !screen_equal(&f[i - 1], &f[i]);
    r.ours = stats_of(ours, m);
    r.full = stats_of(full, m);
    if (r.have_nc) {
        r.nc = stats_of(nc, m);
        r.nci = stats_of(nci, m);
    }
    for (int i = 0; i < n; i++)
        screen_free(&f[i]);
    free(f);
    free(ours);
    free(full);
    free(nc);
    free(nci);
    return r;
}

static void row(const char *display, const char *encoder, const stats_t *st,
                const stats_t *ours)
{
    printf("| %s | %s | %.1f | %ld | %ld | %ld | %.3f |\n", display, encoder,
           st->mean, st->p99, st->max, st->total,
           (double)ours->total / st->total);
}

int main(int argc, char **argv)
{
    long min_turns = argc > 1 ? atol(argv[1]) : 1000;
    static bot_script_t s;
    /* ncurses writes UTF-8 only in a UTF-8 locale. */
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        fprintf(stderr, "bench_output: no C.UTF-8 locale; ncurses' UTF-8 "
                        "rows may be wrong\n");
    bot_script_make(&s, 1, min_turns, BOT_TURN_CAP);
    result_t r[NMODES];
    for (int k = 0; k < NMODES; k++)
        r[k] = measure(&s, &modes[k]);
    printf("Output: %d frames at %dx%d from %d games of the bot (seeds 1..%d, "
           "%ld turns, %d frames differ from the one before in ASCII); bytes\n"
           "per turn after the first frame (first paint, ours: %ld bytes in "
           "ASCII/16, %ld in UTF-8/256, %ld in UTF-8/truecolor). Plain ANSI\n"
           "bytes, before telnet (IAC doubling, 2-byte frame marker). ncurses "
           "%s with the terminal type named.\n\n",
           r[0].frames, W, H, s.ngames, s.ngames, s.turns, r[0].changed,
           r[0].first, r[1].first, r[2].first, curses_version());
    printf("| display | encoder | mean | p99 | max | total | ours / this |\n"
           "|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < NMODES; k++) {
        char name[96];
        row(modes[k].name, "ours (screen_diff)", &r[k].ours, &r[k].ours);
        row(modes[k].name, "full redraw (screen_paint per frame)", &r[k].full,
            &r[k].ours);
        if (r[k].have_nc) {
            snprintf(name, sizeof name, "ncurses, %s (defaults)", modes[k].term);
            row(modes[k].name, name, &r[k].nc, &r[k].ours);
            snprintf(name, sizeof name, "ncurses, %s, idlok(TRUE)", modes[k].term);
            row(modes[k].name, name, &r[k].nci, &r[k].ours);
        } else {
            printf("| %s | ncurses | (newterm(\"%s\") failed: is its terminfo "
                   "installed? ncurses-term has xterm-direct) | | | | |\n",
                   modes[k].name, modes[k].term);
        }
    }
    printf("\nThe richer displays against the plain one (ours, bytes per turn): "
           "UTF-8/256 %.2fx, UTF-8/truecolor %.2fx.\n",
           r[1].ours.mean / r[0].ours.mean, r[2].ours.mean / r[0].ours.mean);
    if (r[0].have_nc)
        printf("Targets (ASCII/16): ours/ncurses <= 0.80 (now %.2f), ours/full "
               "<= 0.08 (now %.3f).\n",
               (double)r[0].ours.total / r[0].nc.total,
               (double)r[0].ours.total / r[0].full.total);
    bot_script_free(&s);
    return 0;
}
