/* play.c - game-aware helpers for the session tests (see play.h). */
#include "play.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

void play_fail(const tclient_t *c, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c) {
        char *dump = cl_dump(c);
        fprintf(stderr, "%s\n---- the client's screen (%dx%d%s):\n%s----\n", msg,
                cl_w(c), cl_h(c), cl_closed(c) ? ", connection closed" : "",
                dump);
        free(dump);
    }
    ck_abort_msg("%s", msg);
    abort(); /* not reached: ck_abort_msg does not return */
}

void play_ready(tclient_t *c)
{
    if (!cl_wait_ready(c, CL_WAIT_MS))
        play_fail(c, "the game did not appear within %d ms", CL_WAIT_MS);
}

tclient_t *play_connect(int port, const cl_opts_t *o)
{
    tclient_t *c = cl_connect(port, o);
    play_ready(c);
    return c;
}

int play_open(const tclient_t *c, int dx, int dy)
{
    int x, y;
    if (cl_find(c, '@', &x, &y) != 1)
        return 0;
    uint32_t ch = cl_at(c, x + dx, y + dy);
    return ch == '.' || ch == '>';
}

static void where(const tclient_t *c, int *x, int *y)
{
    int n = cl_find(c, '@', x, y);
    if (n != 1)
        play_fail(c, "%d '@' on the map, not 1", n);
}

void play_move(tclient_t *c, const char *key, int dx, int dy)
{
    int x0, y0, x1, y1;
    where(c, &x0, &y0);
    if (!play_open(c, dx, dy))
        play_fail(c, "no floor at %+d,%+d of the '@' at %d,%d", dx, dy, x0, y0);
    int turn = cl_turn(c);
    if (turn < 0)
        play_fail(c, "no turn counter on the status line");
    if (!cl_key(c, key))
        play_fail(c, "no answer to a key within %d ms", CL_WAIT_MS);
    where(c, &x1, &y1);
    if (x1 != x0 + dx || y1 != y0 + dy)
        play_fail(c, "the '@' went from %d,%d to %d,%d, not to %d,%d", x0, y0,
                  x1, y1, x0 + dx, y0 + dy);
    if (cl_turn(c) != turn + 1)
        play_fail(c, "the turn counter went from %d to %d, not %d", turn,
                  cl_turn(c), turn + 1);
}

void play_bump(tclient_t *c, const char *key, int dx, int dy)
{
    int x0, y0, x1, y1;
    char row[256];
    where(c, &x0, &y0);
    if (cl_at(c, x0 + dx, y0 + dy) != '#')
        play_fail(c, "no wall at %+d,%+d of the '@' at %d,%d", dx, dy, x0, y0);
    int turn = cl_turn(c);
    if (!cl_key(c, key))
        play_fail(c, "no answer to a key within %d ms", CL_WAIT_MS);
    where(c, &x1, &y1);
    if (x1 != x0 || y1 != y0)
        play_fail(c, "the '@' went through a wall from %d,%d to %d,%d", x0, y0,
                  x1, y1);
    if (cl_turn(c) != turn)
        play_fail(c, "bumping a wall took a turn: %d -> %d", turn, cl_turn(c));
    /* A second bump in a row merges with the first: "... (x2)"
     * (docs/game.md, "The screen"); the newest line is right above the
     * status line. */
    cl_row(c, view_status_row(cl_w(c), cl_h(c)) - 1, row, sizeof row);
    static const char wall[] = "There is a wall in the way.";
    if (strncmp(row, wall, sizeof wall - 1) != 0 ||
        (row[sizeof wall - 1] && strncmp(row + sizeof wall - 1, " (x", 3) != 0))
        play_fail(c, "newest log line is \"%s\"", row);
}

void play_step(tclient_t *c)
{
    static const struct { const char *key; int dx, dy; } dirs[] = {
        { "h", -1, 0 }, { "j", 0, 1 }, { "k", 0, -1 }, { "l", 1, 0 },
        { "y", -1, -1 }, { "u", 1, -1 }, { "b", -1, 1 }, { "n", 1, 1 },
    };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (play_open(c, dirs[i].dx, dirs[i].dy)) {
            play_move(c, dirs[i].key, dirs[i].dx, dirs[i].dy);
            return;
        }
    }
    play_fail(c, "no open direction around the '@'");
}

void play_check_new_player(int port)
{
    tclient_t *c = play_connect(port, NULL);
    char row[256];
    if (strncmp(cl_row(c, 23, row, sizeof row), "HP: 30/30 ", 10) != 0)
        play_fail(c, "the status line is \"%s\"", row);
    play_step(c);
    cl_close(c);
}

void play_wait_text(tclient_t *c, const char *text)
{
    if (!cl_wait_text(c, text, CL_WAIT_MS))
        play_fail(c, "\"%s\" never appeared", text);
}

void play_type_line(tclient_t *c, const char *text)
{
    for (const char *p = text; *p; p++) {
        char k[2] = { *p, 0 };
        if (!cl_key(c, k))
            play_fail(c, "no answer to '%c'", *p);
    }
    if (!cl_key(c, "\r"))
        play_fail(c, "no answer to Enter");
}

tclient_t *play_lobby(int port)
{
    tclient_t *c = cl_connect(port, NULL);
    play_wait_text(c, "Play (as a guest)");
    if (!cl_sync(c, CL_WAIT_MS))
        play_fail(c, "no answer from the lobby");
    return c;
}

tclient_t *play_register(int port, const char *name)
{
    tclient_t *c = play_lobby(port);
    ck_assert(cl_key(c, "r"));
    play_wait_text(c, "Register an account");
    play_type_line(c, name);
    play_wait_text(c, "Password:");
    play_type_line(c, "password1");
    play_wait_text(c, "Again:");
    play_type_line(c, "password1");
    char who[64];
    snprintf(who, sizeof who, "Logged in as %s", name);
    play_wait_text(c, who);
    return c;
}

int play_admitted_from(int port, const char *src, int *banned)
{
    cl_opts_t o = { .src = src };
    tclient_t *c = cl_connect(port, &o);
    int in = 0;
    for (int i = 0; i < CL_WAIT_MS / 20 && !in && !cl_closed(c); i++) {
        cl_pump(c, 20);
        in = cl_screen_has(c, "Play (as a guest)");
    }
    *banned = 0;
    if (!in) {
        if (!cl_wait_eof(c, CL_WAIT_MS))
            play_fail(c, "from %s: neither admitted nor refused", src);
        *banned = cl_stream_has(c, "This address is banned");
    }
    cl_close(c);
    return in;
}

/* Row y of a screen as cl_row gives it: ASCII, trailing blanks removed. */
static void screen_row(const screen_t *s, int y, char *buf, size_t len)
{
    size_t n = 0;
    for (int x = 0; x < s->w && n + 1 < len; x++) {
        uint32_t ch = screen_cat(s, x, y)->ch;
        buf[n++] = ch < 128 ? (char)ch : '?';
    }
    while (n > 0 && buf[n - 1] == ' ')
        n--;
    buf[n] = '\0';
}

/* The first of rows from..to where c's text is not s's (the log's rows
 * left out if skip_log), with both texts; -1 if none. */
static int first_other_row(const tclient_t *c, const screen_t *s, int from,
                           int to, int skip_log, char *want, char *got,
                           size_t len)
{
    for (int y = from; y <= to; y++) {
        /* the log: from the map's last row (always wall, given to the log)
         * down to the status line */
        if (skip_log && y >= MAP_H - 1 &&
            y < view_status_row(cl_w(c), cl_h(c)))
            continue;
        screen_row(s, y, want, len);
        cl_row(c, y, got, len);
        if (strcmp(want, got) != 0)
            return y;
    }
    return -1;
}

void play_expect_rows(const tclient_t *c, const game_t *g, int from, int to,
                      int skip_log, int key_no)
{
    screen_t s;
    char want[512], got[512];
    screen_init(&s, cl_w(c), cl_h(c));
    view_draw(g, &s);
    int y = first_other_row(c, &s, from, to, skip_log, want, got, sizeof want);
    screen_free(&s);
    if (y >= 0 && key_no >= 0)
        play_fail(c, "after key %d, row %d is \"%s\", not \"%s\"", key_no,
                  y, got, want);
    if (y >= 0)
        play_fail(c, "row %d is \"%s\", not \"%s\"", y, got, want);
}

void play_expect_screen(const tclient_t *c, const screen_t *want, int key_no)
{
    char a[512], b[512];
    ck_assert_int_eq(want->w, cl_w(c));
    ck_assert_int_eq(want->h, cl_h(c));
    int y = first_other_row(c, want, 0, want->h - 1, 0, a, b, sizeof a);
    if (y >= 0)
        play_fail(c, "after key %d, row %d is \"%s\", not \"%s\"", key_no,
                  y, b, a);
}

static const char walk[] = "llllhhhhjjjjkkkk.yubn5";

int play_walk_key(int i)
{
    return walk[i % (int)(sizeof walk - 1)];
}

void play_walk_keys(tclient_t *c, int n)
{
    for (int i = 0; i < n; i++) {
        char k[2] = { (char)play_walk_key(i), 0 };
        ck_assert(cl_key(c, k));
    }
}

uint64_t play_walk_seed(void)
{
    for (uint64_t seed = 1; seed < 500; seed++) {
        game_t *g = game_new(seed, NULL);
        for (int i = 0; i < 80 && !game_dead(g); i++)
            game_key(g, play_walk_key(i));
        int ok = !game_dead(g) && g->turn >= 40;
        game_free(g);
        if (ok)
            return seed;
    }
    ck_abort_msg("no seed survives the walk");
    return 0;
}

void play_account(tclient_t *c, const char *name, const char *pass,
                  int registering)
{
    ck_assert(cl_key(c, registering ? "r" : "l"));
    play_type_line(c, name);
    play_type_line(c, pass);
    if (registering)
        play_type_line(c, pass);
    char who[64];
    snprintf(who, sizeof who, "Logged in as %s", name);
    play_wait_text(c, who);
}

void play_login_dave(tclient_t *c, int registering)
{
    play_account(c, "dave", "davespassword", registering);
}

int play_walk_saved(tsrv_t *s, tclient_t *c, int *turn40)
{
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "HP: ");
    play_walk_keys(c, 40);
    *turn40 = cl_turn(c);
    /* The sweep hands the 40 keys over; one more sweep later (with 10 more
     * keys), the first batch is long committed. */
    ck_assert(srv_wait_log(s, "progress id=1 bytes=40", CL_WAIT_MS));
    play_walk_keys(c, 10);
    ck_assert(srv_wait_log(s, "progress id=1 bytes=50", CL_WAIT_MS));
    play_walk_keys(c, 5); /* these may be lost */
    return cl_turn(c);
}

int play_continue(tclient_t *c, int at_least, int at_most)
{
    play_wait_text(c, "Continue your game (depth 1, turn ");
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "HP: ");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    int turn = cl_turn(c);
    if (turn < at_least || turn > at_most)
        play_fail(c, "continued at turn %d: %d were kept a second before, %d "
                  "were played", turn, at_least, at_most);
    return turn;
}

void play_expect_walked(tclient_t *c, uint64_t seed, const int *calls,
                        int ncalls, int turn)
{
    game_t *g = game_new(seed, NULL);
    for (int b = 0; b < ncalls; b++)
        for (int i = 0; (int)g->turn < turn && i < calls[b]; i++)
            game_key(g, play_walk_key(i));
    /* The map and the status line (the log may hold a wall's line more). */
    play_expect_rows(c, g, 1, 23, 1, -1);
    game_free(g);
}

void play_watch_first(tclient_t *w, const char *who)
{
    ck_assert(cl_key(w, "w"));
    play_wait_text(w, "Games in progress");
    play_wait_text(w, who);
    ck_assert(cl_key(w, "a"));
    /* (both forms of the line: the shorter, without "Watching", where no
     * log row has room for the whole, as at 40x20: sess_overlay_line) */
    char line[64];
    snprintf(line, sizeof line, "%s - q leaves", who);
    play_wait_text(w, line);
}

static int says_ended(tclient_t *c, void *arg)
{
    (void)arg;
    return cl_screen_has(c, ", the end") || cl_screen_has(c, " ended");
}

void play_wait_replay_end(tclient_t *r)
{
    if (!cl_wait(r, says_ended, NULL, CL_WAIT_MS * 2))
        play_fail(r, "the replay did not reach its end");
}

void play_expect_replay_log(const tclient_t *r, const game_t *g, int from,
                            int to)
{
    screen_t want;
    ck_assert_int_eq(screen_init(&want, cl_w(r), cl_h(r)), 0);
    view_draw(g, &want);
    int labelled = 0;
    for (int y = from; y <= to; y++) {
        char row[512], mine[512];
        cl_row(r, y, row, sizeof row);
        int n = 0;
        for (int x = 0; x < want.w && n < (int)sizeof mine - 1; x++) {
            uint32_t ch = screen_cat(&want, x, y)->ch;
            mine[n++] = ch < 128 ? (char)ch : '?';
        }
        while (n > 0 && mine[n - 1] == ' ')
            n--;
        mine[n] = '\0';
        if (strstr(row, " ended") || strstr(row, ", the end")) {
            labelled++;
            if (strncmp(row, mine, (size_t)n) != 0)
                play_fail(r, "row %d: \"%s\" covers \"%s\"", y, row, mine);
        } else if (strcmp(row, mine) != 0) {
            play_fail(r, "row %d is \"%s\", not \"%s\"", y, row, mine);
        }
    }
    if (labelled != 1)
        play_fail(r, "%d rows say the replay ended", labelled);
    screen_free(&want);
}

/* 1 if a's and b's screens are the same, cell for cell, but for the log's
 * oldest line: each has its own line over it (" 1 watching ", " Watching
 * dave - q leaves "); else 0 and why. */
static int same_screens(const tclient_t *a, const tclient_t *b, char *why,
                        size_t n)
{
    return cl_screen_equal_but(a, b, view_log_top(cl_w(a), cl_h(a)), why, n);
}

static int shows_the_players(tclient_t *w, void *player)
{
    char why[128];
    return same_screens(player, w, why, sizeof why);
}

void play_expect_watched(tclient_t *a, tclient_t *w, const game_t *g,
                         int key_no)
{
    char why[160];
    if (!cl_wait(w, shows_the_players, a, CL_WAIT_MS)) {
        same_screens(a, w, why, sizeof why);
        play_fail(w, "after key %d, the watcher's screen is not the "
                  "player's: %s", key_no, why);
    }
    int top = view_log_top(cl_w(a), cl_h(a));
    for (int i = 0; i < 2; i++) {
        tclient_t *c = i ? w : a;
        play_expect_rows(c, g, 0, top - 1, 0, key_no);
        play_expect_rows(c, g, top + 1, cl_h(c) - 1, 0, key_no);
    }
}

int play_idle_warned(const tclient_t *c, int most, int64_t since_ms)
{
    int64_t gone = cl_now_ms() - since_ms;
    int least = most - (int)((gone + 999) / 1000);
    char row[256];
    for (int y = 0; y < cl_h(c); y++) {
        int secs;
        const char *at = strstr(cl_row(c, y, row, sizeof row),
                                "You are idle: press a key within ");
        if (at && sscanf(at, "You are idle: press a key within %d seconds "
                         "to stay.", &secs) == 1 &&
            strstr(at, " seconds to stay.") && secs <= most && secs >= least)
            return y;
    }
    return -1;
}

static int pred_painted_after(tclient_t *c, void *arg)
{
    return cl_stream_count(c, "\x1b[2J") > *(int *)arg;
}

void play_leave_line_mode(tclient_t *c)
{
    int painted = cl_stream_count(c, "\x1b[2J");
    ck_assert_uint_eq(cl_send_raw(c, "\xff\xfd\x01", 3, 1, CL_WAIT_MS), 3);
    if (!cl_wait(c, pred_painted_after, &painted, CL_WAIT_MS))
        play_fail(c, "mode character: the screen was not painted whole");
    ck_assert_int_eq(cl_send_str(c, "?"), 0);
    play_wait_text(c, "The lobby");
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert(!cl_screen_has(c, "Line mode"));
}
