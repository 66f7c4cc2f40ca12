/* lobby_view.c - draws the lobby into a cell grid. Layout and colours only;
 * the session's diff encoder turns it into bytes like any game frame. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "combat.h"
#include "lobby.h"
#include "screen_text.h"
#include "view.h"
#include "view_parts.h"

#define LEFT 4 /* the menu's left margin at 80 columns */
/* A prompt's note wraps over at most this many rows below 80 columns:
 * the hint under it still fits 40x20 (the prompt's line on row 10 at
 * most, its hint's 3 rows ending by row 16). */
#define PROMPT_NOTE_ROWS 3

static int left(const screen_t *s)
{
    return s->w > 80 ? (s->w - 80) / 2 + LEFT : LEFT;
}

/* text in the middle of row y; UTF-8, as the host's text may be (the
 * message of the day, the server's name: screen_text.h). */
static void centred(screen_t *s, int y, const char *text, uint8_t fg,
                    uint8_t attr)
{
    int x = (s->w - screen_text_width(text)) / 2;
    screen_puts_text(s, x < 0 ? 0 : x, y, text, fg, COL_DEFAULT, attr);
}

/* The message of the day on row 2, and where it does not fit the width
 * (a phone's 48 columns, a small terminal) broken at a space onto row 3
 * too. Returns the rows it took (0, 1 or 2). */
static int draw_motd(const char *motd, screen_t *s)
{
    size_t n = strlen(motd);
    if (n == 0)
        return 0;
    if (screen_text_width(motd) <= s->w) {
        centred(s, 2, motd, COL_WHITE, 0);
        return 1;
    }
    size_t cut = (size_t)s->w;
    while (cut > 0 && motd[cut] != ' ')
        cut--;
    if (cut == 0) /* one long word: cut at the edge */
        cut = (size_t)s->w;
    char first[256];
    snprintf(first, sizeof first, "%.*s", (int)cut, motd);
    centred(s, 2, first, COL_WHITE, 0);
    const char *rest = motd + cut;
    while (*rest == ' ')
        rest++;
    centred(s, 3, rest, COL_WHITE, 0); /* what is still too long is cut */
    return 2;
}

static int counts(const lobby_info_t *in, char *line, size_t n)
{
    return snprintf(line, n, "%d player%s online, %d game%s in progress",
                    in->online, in->online == 1 ? "" : "s", in->playing,
                    in->playing == 1 ? "" : "s");
}

/* "3 players online, 1 game in progress", then the hosts' note in
 * brackets. Where that is wider than w: the counts in fewer words with
 * the note ("3 online, 1 playing (...)"), else the counts alone. */
static void counts_line(const lobby_info_t *in, int w, char *line, size_t n)
{
    int k = counts(in, line, n);
    if (!in->hosts || !in->hosts[0] || k < 0 || (size_t)k >= n)
        return;
    snprintf(line + k, n - (size_t)k, " (%s)", in->hosts);
    if ((int)strlen(line) <= w)
        return;
    snprintf(line, n, "%d online, %d playing (%s)", in->online, in->playing,
             in->hosts);
    if ((int)strlen(line) > w)
        counts(in, line, n);
}

/* The news line in the width: whole, or cut at a space with "..." (a
 * word is never cut), or left out when not even a word fits. */
static void draw_news(screen_t *s, int y, const char *news)
{
    if (screen_text_width(news) <= s->w) {
        centred(s, y, news, COL_BYELLOW, 0);
        return;
    }
    char line[256];
    snprintf(line, sizeof line, "%s", news);
    int cut = s->w - 3 < (int)sizeof line - 4 ? s->w - 3 : (int)sizeof line - 4;
    while (cut > 0 && line[cut] != ' ')
        cut--;
    if (cut <= 0)
        return;
    memcpy(line + cut, "...", 4);
    centred(s, y, line, COL_BYELLOW, 0);
}

static void draw_header(const lobby_t *l, const lobby_info_t *in, screen_t *s)
{
    char line[128];
    snprintf(line, sizeof line, "Welcome to %s", in->server_name);
    centred(s, 1, line, COL_BYELLOW, ATTR_BOLD);
    /* A motd of two rows moves the lines under it down one, into the row
     * above the menu. */
    int y = draw_motd(in->motd ? in->motd : "", s) == 2 ? 4 : 3;
    counts_line(in, s->w, line, sizeof line);
    centred(s, y++, line, COL_CYAN, 0);
    if (l->account[0])
        snprintf(line, sizeof line, "Logged in as %s", l->account);
    else if (l->guest[0])
        snprintf(line, sizeof line, "You are %s (a guest)", l->guest);
    else
        snprintf(line, sizeof line, "Not logged in");
    centred(s, y++, line, COL_GREY, 0);
    /* Under a motd of two rows (one wider than the terminal) the news is
     * on row 6, which most pages' first lines take: there it is left
     * out, not drawn over. */
    if (in->news && in->news[0] &&
        (y < 6 || (lobby_page_flags(l->page) & LOBBY_PAGE_ROW6_FREE)))
        draw_news(s, y, in->news);
}

static void menu_item(screen_t *s, int y, char key, const char *text)
{
    int x = left(s);
    screen_put(s, x, y, (uint32_t)key, COL_BYELLOW, COL_DEFAULT, ATTR_BOLD);
    screen_puts(s, x + 4, y, text, COL_WHITE, COL_DEFAULT, 0);
}

static void draw_menu(const lobby_t *l, screen_t *s)
{
    char play[64];
    if (l->resume)
        snprintf(play, sizeof play, "Continue your game (depth %d, turn %d)",
                 l->resume_depth, l->resume_turns);
    else if (l->account[0] || l->guest[0])
        snprintf(play, sizeof play, "Play as %s", lobby_player_name(l));
    else
        snprintf(play, sizeof play, "Play (as a guest)");
    /* Below 80 columns the numbers stay whole and the words go. */
    if (l->resume && left(s) + 4 + (int)strlen(play) > s->w)
        snprintf(play, sizeof play, "Continue (depth %d, turn %d)",
                 l->resume_depth, l->resume_turns);
    int y = 7;
    menu_item(s, y++, 'p', play);
    menu_item(s, y++, 'w', "Watch a game");
    menu_item(s, y++, 's', "High scores (and replays)");
    if (l->account[0]) {
        menu_item(s, y++, 'l', "Log out");
        menu_item(s, y++, 'c', "Change your password");
        menu_item(s, y++, 'k', "Your SSH keys");
    } else {
        menu_item(s, y++, 'l', "Log in");
        menu_item(s, y++, 'r', "Register an account");
    }
    menu_item(s, y++, 'o', "Options: glyphs and colours");
    menu_item(s, y++, '?', "Help");
    menu_item(s, y++, 'q', "Quit");
}

static uint8_t note_colour(const lobby_t *l)
{
    return l->note_kind == LOBBY_NOTE_BAD ? COL_BRED
           : l->note_kind == LOBBY_NOTE_GOOD ? COL_BGREEN : COL_YELLOW;
}

/* The note from row y, broken at spaces over at most max_rows rows where
 * it is wider than the room right of the margin, not cut: at 80 columns
 * too, where notes of 79 to 100 bytes (the last visit's end, a record at
 * its longest, a game of another version) lost their last words at the
 * edge. Returns the rows drawn. */
static int draw_note(const lobby_t *l, screen_t *s, int y, int max_rows)
{
    uint8_t fg = note_colour(l);
    int room = s->w - left(s);
    if (lobby_narrow(s) || (int)strlen(l->note) > room)
        return view_puts_wrapped(s, left(s), y, room, max_rows, l->note, fg,
                                 0);
    screen_puts(s, left(s), y, l->note, fg, COL_DEFAULT, 0);
    return 1;
}

/* A name or password prompt. Its note ("Wrong name or password.") goes on
 * the row under the line typed, where the player looks, and the hint
 * under the note. */
static void draw_prompt(const lobby_t *l, screen_t *s)
{
    const char *title = "", *label = "Name: ";
    switch (l->page) {
    case LOBBY_GUEST_NAME: title = "Play as a guest"; break;
    case LOBBY_LOGIN_NAME: title = "Log in"; break;
    case LOBBY_LOGIN_PASS: title = "Log in"; label = "Password: "; break;
    case LOBBY_REG_NAME: title = "Register an account"; break;
    case LOBBY_REG_PASS: title = "Register an account"; label = "Password: "; break;
    case LOBBY_REG_PASS2: title = "Register an account"; label = "Again: "; break;
    case LOBBY_PW_OLD: title = "Change your password"; label = "Present password: "; break;
    case LOBBY_PW_NEW: title = "Change your password"; label = "New password: "; break;
    case LOBBY_PW_NEW2: title = "Change your password"; label = "Again: "; break;
    default: break;
    }
    int x = left(s), y = 7;
    screen_puts(s, x, y, title, COL_BWHITE, COL_DEFAULT, ATTR_BOLD);
    if (lobby_in_password(l)) {
        char who[64];
        snprintf(who, sizeof who, "Name: %s",
                 l->page >= LOBBY_PW_OLD ? l->account : l->name);
        screen_puts(s, x, y + 2, who, COL_WHITE, COL_DEFAULT, 0);
        y++;
    }
    x += screen_puts(s, x, y + 2, label, COL_WHITE, COL_DEFAULT, 0);
    if (lobby_in_password(l)) {
        /* One star per character, never the characters. */
        const char *line = lobby_line(l);
        int n = 0;
        for (int i = 0; i < lobby_line_len(l); i++)
            n += ((unsigned char)line[i] & 0xc0) != 0x80;
        for (int i = 0; i < n; i++)
            screen_put(s, x++, y + 2, '*', COL_BWHITE, COL_DEFAULT, 0);
    } else {
        /* UTF-8, a character a cell, as typed (a name's rules refuse
         * any but ASCII at Enter, with the rule) */
        x += screen_puts_text(s, x, y + 2, lobby_line(l), COL_BWHITE,
                              COL_DEFAULT, 0);
    }
    screen_put(s, x, y + 2, ' ', COL_DEFAULT, COL_DEFAULT, ATTR_REVERSE);
    /* the blank row under the line, or the note in it and any rows it
     * wraps to: the hint stays where it was unless the note needs more */
    int rows = l->note[0] ? draw_note(l, s, y + 3, PROMPT_NOTE_ROWS) : 0;
    int hint_y = y + 3 + (rows > 1 ? rows : 1);
    /* A name or password being made is told its rules; one being given
     * (a login, the present password) is not: they were the rules then. */
    int giving = l->page == LOBBY_LOGIN_NAME || l->page == LOBBY_LOGIN_PASS ||
                 l->page == LOBBY_PW_OLD;
    const char *hint = giving ? "Enter to go on, Esc for the menu."
        : lobby_in_password(l)
        ? "Enter to go on, Esc for the menu. At least 6 characters."
        : "2-20 letters, digits, _ or -. Enter to go on, Esc for the menu.";
    if (lobby_narrow(s)) /* broken at spaces, not cut at the edge */
        view_puts_wrapped(s, left(s), hint_y, s->w - left(s), 3, hint,
                          COL_GREY, 0);
    else
        screen_puts(s, left(s), hint_y, hint, COL_GREY, COL_DEFAULT, 0);
}

/* "2026-11-23" from Unix seconds (UTC). */
static void date_of(int64_t t, char *out, size_t n)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!gmtime_r(&tt, &tm) || strftime(out, n, "%Y-%m-%d", &tm) == 0)
        snprintf(out, n, "?");
}

/* The hall of fame's table. At 80 columns: rank, name, score, depth,
 * turns, cause, ruleset, date; a wider terminal gives its extra columns
 * to the cause, up to a whole STORE_CAUSE_MAX one. The rank is right-
 * aligned in RANK_W columns; a top row's replay letter goes in the first,
 * which a rank of 20 never reaches, and the own best's row (no letter) has
 * room for a rank up to 999999. A cause longer than its column is cut
 * with "...". */
#define RANK_W 6
#define NAME_W ACCT_NAME_MAX
#define RULES_W 9
#define CAUSE_MIN 13 /* at 80 columns */
#define TABLE_FIXED (RANK_W + 1 + NAME_W + 1 + 6 + 1 + 3 + 1 + 6 + 1 + 1 + \
                     RULES_W + 1 + 10)
#define ROW_FMT "%*ld %-*s %6d %3d %6d %-*s %-*s %s"
#define ROW_FMT_HEAD "%*s %-*s %6s %3s %6s %-*s %-*s %s"
_Static_assert(TABLE_FIXED + CAUSE_MIN == 80, "the table fits 80 columns");

static void fit(char *out, size_t outlen, const char *text, int width);

/* The cause column's width on this screen. */
static int cause_width(const screen_t *s)
{
    int w = s->w - TABLE_FIXED;
    return w < CAUSE_MIN ? CAUSE_MIN : w > STORE_CAUSE_MAX ? STORE_CAUSE_MAX : w;
}

/* Below 80 columns the table keeps the rank, name, score and depth (the
 * 38 columns a 40-column terminal holds), then the turns and the cause
 * as the width allows; the ruleset and the date go. No number or name is
 * ever cut: a column that does not fit whole is left out. */
#define NARROW_BASE (RANK_W + 1 + NAME_W + 1 + 6 + 1 + 3)
#define NARROW_TURNS (NARROW_BASE + 1 + 6)
#define NARROW_CAUSE_MIN 8
_Static_assert(NARROW_BASE <= 40, "the narrow table fits 40 columns");

/* The narrow table's cause width, 0 if it has no room for one. */
static int narrow_cause_width(const screen_t *s)
{
    int w = s->w - NARROW_TURNS - 1;
    return w < NARROW_CAUSE_MIN ? 0 : w > STORE_CAUSE_MAX ? STORE_CAUSE_MAX : w;
}

/* A narrow row: rank, name, score, depth, then turns and cause if they
 * fit (the header's too, with the numbers given as text). */
static void narrow_line(const screen_t *s, char *out, size_t n,
                        const char *const col[6])
{
    int k = snprintf(out, n, "%*s %-*s %6s %3s", RANK_W, col[0], NAME_W,
                     col[1], col[2], col[3]);
    if (s->w >= NARROW_TURNS && k > 0 && (size_t)k < n)
        k += snprintf(out + k, n - (size_t)k, " %6s", col[4]);
    int cw = narrow_cause_width(s);
    if (cw > 0 && k > 0 && (size_t)k < n) {
        char cause[STORE_CAUSE_MAX + 1];
        fit(cause, sizeof cause, col[5], cw);
        snprintf(out + k, n - (size_t)k, " %s", cause);
    }
}

static int table_x(const screen_t *s)
{
    if (lobby_narrow(s))
        return 0;
    int w = TABLE_FIXED + cause_width(s);
    return s->w > w ? (s->w - w) / 2 : 0;
}

/* The ruleset in at most RULES_W columns. */
static const char *rules_label(int ruleset)
{
    switch (ruleset) {
    case RULES_ATTACK_DEFENSE: return "att-def";
    case RULES_POWER: return "power";
    case RULES_D10: return "d10";
    case RULES_DICE_POOL: return "dice-pool";
    default: return "?";
    }
}

/* text in at most width columns: whole; or, when it does not fit, its
 * head before a colon that fits ("won: took the Amulet at depth 12" is
 * "won", not "won: took ..."); or cut with "..." at the end. */
static void fit(char *out, size_t outlen, const char *text, int width)
{
    int n = (int)strlen(text);
    const char *colon = strchr(text, ':');
    if (n <= width)
        snprintf(out, outlen, "%s", text);
    else if (colon && colon - text <= width)
        snprintf(out, outlen, "%.*s", (int)(colon - text), text);
    else
        snprintf(out, outlen, "%.*s...", width - 3, text);
}

static void score_row(screen_t *s, int y, long rank, const store_score_t *r,
                      uint8_t fg)
{
    char date[16], cause[STORE_CAUSE_MAX + 1], line[256];
    const char *why = r->cause;
    if (strncmp(why, "killed by ", 10) == 0)
        why += 10; /* the column is headed "Killed by/end" */
    if (lobby_narrow(s)) {
        char nums[4][16];
        snprintf(nums[0], sizeof nums[0], "%ld", rank);
        snprintf(nums[1], sizeof nums[1], "%d", r->score);
        snprintf(nums[2], sizeof nums[2], "%d", r->depth);
        snprintf(nums[3], sizeof nums[3], "%d", r->turns);
        const char *const col[6] = { nums[0], r->name, nums[1], nums[2],
                                     nums[3], why };
        narrow_line(s, line, sizeof line, col);
        screen_puts(s, 0, y, line, fg, COL_DEFAULT, 0);
        return;
    }
    int cw = cause_width(s);
    fit(cause, sizeof cause, why, cw);
    date_of(r->ended, date, sizeof date);
    snprintf(line, sizeof line, ROW_FMT, RANK_W, rank, NAME_W, r->name,
             r->score, r->depth, r->turns, cw, cause, RULES_W,
             rules_label(r->ruleset), date);
    screen_puts(s, table_x(s), y, line, fg, COL_DEFAULT, 0);
}

static void draw_scores(const lobby_t *l, const lobby_info_t *in,
                        screen_t *s)
{
    const store_scores_t *sc = l->scores;
    int x0 = table_x(s);
    centred(s, 6, "Hall of fame", COL_BWHITE, ATTR_BOLD);
    /* and a guest's short game is not stored at all: said, for the
     * newcomer who looks for the one they just lost (a play-test) */
    char guests[64] = "";
    if (in->guest_min_turns > 0)
        snprintf(guests, sizeof guests, "A guest's game of fewer than %d "
                 "turns is not kept.", in->guest_min_turns);
    if ((!sc || sc->n == 0) && lobby_narrow(s)) {
        char empty[192];
        snprintf(empty, sizeof empty, "The hall of fame is empty: it lists "
                 "deaths, wins and games quit after %d turns. Be the first!"
                 "%s%s", STORE_QUIT_MIN_TURNS, guests[0] ? " " : "", guests);
        view_puts_wrapped(s, 2, 8, s->w - 4, 6, empty, COL_WHITE, 0);
        centred(s, s->h - 2, "Press any key to return.", COL_GREY, 0);
        return;
    }
    if (!sc || sc->n == 0) {
        /* Not "no game has ended": a quit of fewer turns is not listed
         * (STORE_QUIT_MIN_TURNS). */
        centred(s, 9, "The hall of fame is empty: it lists deaths, wins",
                COL_WHITE, 0);
        char rule[64];
        snprintf(rule, sizeof rule, "and games quit after %d turns. Be the "
                 "first!", STORE_QUIT_MIN_TURNS);
        centred(s, 10, rule, COL_WHITE, 0);
        if (guests[0])
            centred(s, 11, guests, COL_WHITE, 0);
        centred(s, s->h - 2, "Press any key to return.", COL_GREY, 0);
        return;
    }
    char head[256];
    if (lobby_narrow(s)) {
        /* the cause's heading whole, or a short one in a short column */
        const char *const col[6] = { "#", "Name", "Score", "Dep", "Turns",
                                     narrow_cause_width(s) >= 13
                                         ? "Killed by/end" : "End" };
        narrow_line(s, head, sizeof head, col);
    } else {
        snprintf(head, sizeof head, ROW_FMT_HEAD, RANK_W, "#", NAME_W, "Name",
                 "Score", "Dep", "Turns", cause_width(s), "Killed by/end",
                 RULES_W, "Rules", "Date");
    }
    screen_puts(s, x0, 7, head, COL_CYAN, COL_DEFAULT, ATTR_BOLD);
    int rows = sc->n;
    int room = s->h - 11; /* header above, own best and hint below */
    if (sc->has_best)
        room--; /* the own best's row clear of the hint's (12 at 80x24) */
    if (rows > room)
        rows = room;
    for (int i = 0; i < rows; i++) {
        int mine = sc->has_best && sc->top[i].game_id == sc->best.game_id;
        score_row(s, 8 + i, i + 1, &sc->top[i], mine ? COL_BYELLOW : COL_WHITE);
        screen_put(s, x0, 8 + i, (uint32_t)('a' + i), COL_BYELLOW, COL_DEFAULT,
                   ATTR_BOLD);
    }
    int y = 8 + rows + 1;
    if (sc->has_best) {
        screen_puts(s, x0, y, "Your best:", COL_BYELLOW, COL_DEFAULT, ATTR_BOLD);
        score_row(s, y + 1, (long)sc->best_rank, &sc->best, COL_BYELLOW);
    }
    /* A replay refused (a saved game first, no record, a busy store) is
     * said where the hint was: the list leaves no other row free. */
    const char *hint = "A letter replays that game; any other key returns.";
    if (l->note[0])
        centred(s, s->h - 1, l->note, note_colour(l), 0);
    else
        centred(s, s->h - 1, (int)strlen(hint) > s->w
                                 ? "A letter replays; other keys return."
                                 : hint, COL_GREY, 0);
}

/* The watch list below 80 columns: the letter in column 1, then the
 * player, depth, turns and idle time (39 columns), and the watchers where
 * they fit; no number is cut. */
#define WATCH_NARROW_FMT "   %-20s %3s %6s %4s"
#define WATCH_NARROW_W 39
#define WATCH_NARROW_FULL (WATCH_NARROW_W + 9)

static void watch_line_narrow(const screen_t *s, char *out, size_t n,
                              const char *const col[5])
{
    int k = snprintf(out, n, WATCH_NARROW_FMT, col[0], col[1], col[2],
                     col[3]);
    if (s->w >= WATCH_NARROW_FULL && k > 0 && (size_t)k < n)
        snprintf(out + k, n - (size_t)k, " %8s", col[4]);
}

static void draw_watch_narrow(const lobby_t *l, screen_t *s)
{
    char line[128];
    const char *const head[5] = { "Player", "Dep", "Turns", "Idle",
                                  "Watchers" };
    watch_line_narrow(s, line, sizeof line, head);
    screen_puts(s, 0, 7, line, COL_CYAN, COL_DEFAULT, ATTR_BOLD);
    int rows = l->nwatch < s->h - 10 ? l->nwatch : s->h - 10;
    for (int i = 0; i < rows; i++) {
        const lobby_game_t *g = &l->watch[i];
        char num[3][16], idle[16];
        if (g->idle_s < 60)
            snprintf(idle, sizeof idle, "%ds", g->idle_s);
        else
            snprintf(idle, sizeof idle, "%dm", g->idle_s / 60);
        snprintf(num[0], sizeof num[0], "%d", g->depth);
        snprintf(num[1], sizeof num[1], "%d", g->turns);
        snprintf(num[2], sizeof num[2], "%d", g->watchers);
        const char *const col[5] = { g->name, num[0], num[1], idle, num[2] };
        watch_line_narrow(s, line, sizeof line, col);
        screen_puts(s, 0, 8 + i, line, COL_WHITE, COL_DEFAULT, 0);
        screen_put(s, 1, 8 + i, (uint32_t)('a' + i), COL_BYELLOW,
                   COL_DEFAULT, ATTR_BOLD);
    }
    const char *hint = "A letter watches that game; q returns to the menu.";
    centred(s, s->h - 1, (int)strlen(hint) > s->w
                             ? "A letter watches; q: the menu." : hint,
            COL_GREY, 0);
}

static void draw_watch(const lobby_t *l, screen_t *s)
{
    int x0 = s->w > 80 ? (s->w - 80) / 2 : 0;
    centred(s, 6, "Games in progress", COL_BWHITE, ATTR_BOLD);
    if (l->nwatch == 0) {
        centred(s, 9, "Nobody is playing right now.", COL_WHITE, 0);
        centred(s, s->h - 1, "q returns to the menu.", COL_GREY, 0);
        return;
    }
    if (lobby_narrow(s)) {
        draw_watch_narrow(l, s);
        return;
    }
    char line[128];
    snprintf(line, sizeof line, "    %-20s %5s %6s %8s %8s", "Player", "Depth",
             "Turns", "Idle", "Watchers");
    screen_puts(s, x0 + 4, 7, line, COL_CYAN, COL_DEFAULT, ATTR_BOLD);
    int rows = l->nwatch < s->h - 10 ? l->nwatch : s->h - 10;
    for (int i = 0; i < rows; i++) {
        const lobby_game_t *g = &l->watch[i];
        char idle[16];
        if (g->idle_s < 60)
            snprintf(idle, sizeof idle, "%ds", g->idle_s);
        else
            snprintf(idle, sizeof idle, "%dm", g->idle_s / 60);
        snprintf(line, sizeof line, "    %-20s %5d %6d %8s %8d", g->name,
                 g->depth, g->turns, idle, g->watchers);
        screen_puts(s, x0 + 4, 8 + i, line, COL_WHITE, COL_DEFAULT, 0);
        screen_put(s, x0 + 5, 8 + i, (uint32_t)('a' + i), COL_BYELLOW,
                   COL_DEFAULT, ATTR_BOLD);
    }
    centred(s, s->h - 1, "A letter watches that game; q returns to the menu.",
            COL_GREY, 0);
}

_Static_assert(STORE_QUIT_MIN_TURNS == 100, "help_lines says 100 turns");
/* Rows 6 to 23: the page fits 80x24. */
static const char *const help_lines[] = {
    "The lobby",
    "",
    "  p  play a game: each player has a dungeon of their own",
    "  w  watch a game in progress, at your own terminal's size",
    "  s  the hall of fame: the best games that ended in a death, a win or a",
    "     quit after 100 turns (13 at 80x24, 12 over your own best). A letter",
    "     replays that game: space pauses, + and - the speed, . a step, q leaves",
    "  l  log in (or out); r  register; c  change your password; k  SSH keys",
    "  o  options: the glyphs and colours you see;  q  quit",
    "",
    "A guest plays at once under a name of their choosing, but a guest's",
    "game ends with the connection and the name is not kept. An account",
    "keeps your name and your games in the hall of fame.",
    "",
    "In the game, ? lists every key. When you die, the YOU DIED screen says",
    "how; then Space or r plays again, and Esc or q comes back here.",
    "",
    "Press any key to return.",
};

/* The same page below 80x24, in 40 columns and 20 rows: drawn from the
 * top over the lobby's header, which it has no room for. */
static const char *const help_narrow[] = {
    "The lobby",
    "",
    "p  play: a dungeon of your own",
    "w  watch a game, at your own size",
    "s  the hall of fame: deaths, wins and",
    "   quits after 100 turns, and your",
    "   best. A letter replays that game:",
    "   space pauses, + - the speed, . a",
    "   step, q leaves",
    "l  log in or out   r  register",
    "c  your password   k  SSH keys",
    "o  glyphs and colours   q  quit",
    "",
    "A guest plays at once, but the game",
    "ends with the connection and the name",
    "is not kept; an account keeps both.",
    "In a game ? lists every key; after a",
    "death Space plays again, q comes here.",
    "",
    "Press any key to return.",
};

#define HELP_NARROW_N (int)(sizeof help_narrow / sizeof help_narrow[0])
_Static_assert(HELP_NARROW_N <= 20, "the narrow lobby help fits 20 rows");

static void draw_help_narrow(screen_t *s)
{
    screen_clear(s);
    int x = (s->w - 40) / 2;
    for (int i = 0; i < HELP_NARROW_N; i++)
        screen_puts(s, x, i, help_narrow[i],
                    i == 0 ? COL_BWHITE : COL_WHITE, COL_DEFAULT,
                    i == 0 ? ATTR_BOLD : 0);
}

static void draw_help(screen_t *s)
{
    if (!view_full(s->w, s->h)) {
        draw_help_narrow(s);
        return;
    }
    int n = (int)(sizeof help_lines / sizeof help_lines[0]);
    for (int i = 0; i < n; i++)
        screen_puts(s, left(s), 6 + i, help_lines[i],
                    i == 0 ? COL_BWHITE : COL_WHITE, COL_DEFAULT,
                    i == 0 ? ATTR_BOLD : 0);
}

void lobby_draw(const lobby_t *l, const lobby_info_t *info, screen_t *s)
{
    screen_clear(s);
    if (!view_fits(s->w, s->h)) {
        view_draw_too_small(s);
        return;
    }
    draw_header(l, info, s);
    if (lobby_page_flags(l->page) & LOBBY_PAGE_PROMPT) {
        draw_prompt(l, s); /* the note next to its line */
        return;
    }
    switch (l->page) {
    case LOBBY_MENU: draw_menu(l, s); break;
    case LOBBY_BUSY: centred(s, 9, "One moment...", COL_WHITE, 0); break;
    case LOBBY_SCORES: /* its note: its own row */
        draw_scores(l, info, s);
        return;
    case LOBBY_HELP: draw_help(s); return;
    case LOBBY_WATCH: draw_watch(l, s); break;
    case LOBBY_KEYS:
    case LOBBY_KEY_ADD:
    case LOBBY_KEY_DEL: lobby_keys_draw(l, s); break;
    default: break;
    }
    if (l->note[0]) /* the rows under it are free */
        draw_note(l, s, LOBBY_NOTE_ROW, s->h - LOBBY_NOTE_ROW);
}
