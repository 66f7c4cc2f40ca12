/* session_render.c - a session's frame: set the terminal up once, follow
 * aiming with mouse reporting, draw the state, and send the difference
 * from what the client shows. Only the render phase calls sess_render. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "screen_text.h"
#include "session.h"
#include "view.h"
#include "view_cache.h"

/* Alternate screen, hidden cursor, normal cursor keys, numeric keypad,
 * bracketed paste (a paste comes marked, so that it is not played as
 * keys: session_input.c). */
static void terminal_setup(sess_t *s)
{
    static const char init[] =
        "\x1b[?1049h\x1b[?25l\x1b[?1l\x1b>\x1b[?2004h";
    sess_send(s, init, sizeof init - 1);
    term_state_reset(&s->term);
    screen_free(&s->shown); /* 0x0: this frame paints everything */
    s->term_ready = 1;
    if (!s->tc.peer && !s->web)
        sess_notice(s, SESS_NOTICE_SESSION, "Tip: for one key at a time use: "
                    "stty raw -echo; nc HOST PORT; stty sane");
    else if (s->tc.no_pty) /* (its keys wait for Enter: a QA's ssh -T) */
        sess_notice(s, SESS_NOTICE_SESSION, "Tip: this SSH connection has no "
                    "terminal: connect with ssh -t.");
    else if (strcasecmp(s->tc.ttype, "dumb") == 0) /* (TERM=dumb: Emacs's
                                 shell, a script: no cursor to move) */
        sess_notice(s, SESS_NOTICE_SESSION, "Tip: your terminal says it is "
                    "'dumb': it cannot draw this. Set TERM=xterm.");
    log_debug("session %llu plays at %dx%d, terminal '%s'",
              (unsigned long long)s->id, s->w, s->h, s->tc.ttype);
}

/* What the client is told at each frame besides the screen: telnet's
 * line mode (Ctrl-] mode line: the client echoes what is typed, a
 * password too, and sends a line at a time), said while it lasts (a QA
 * typed a password in clear with nothing said); and the play page's bar
 * for the lobby's page, which moves with keys and the store's answers. */
static void tell_the_client(sess_t *s)
{
    if (s->tc.echo_refused && !s->notice[0])
        sess_notice(s, SESS_NOTICE_SESSION, "Line mode: your client echoes "
                    "keys. In telnet: Ctrl-] then mode character");
    if (s->web && s->state == S_LOBBY)
        sess_tell_state(s);
}

/* xterm mouse reporting (1000: clicks; 1006: SGR coordinates, any size),
 * on while the game is aiming, and in the browser's terminal on the map
 * and in the pack menus too (a click travels, or uses the entry clicked:
 * a telnet or SSH terminal keeps its own mouse, to select text, outside
 * aiming). A graceful close turns it off too. */
static void follow_aiming(sess_t *s)
{
    static const char mouse_on[] = "\x1b[?1000h\x1b[?1006h";
    static const char mouse_off[] = "\x1b[?1000l\x1b[?1006l";
    const game_t *g = s->state == S_PLAYING ? s->st.play.g.game : NULL;
    int want = g && (game_targeting(g) ||
                     (s->web && (g->mode == MODE_PLAY || view_shows_pack(g))));
    if (want && !s->mouse_on)
        sess_send(s, mouse_on, sizeof mouse_on - 1);
    else if (s->mouse_on && !want)
        sess_send(s, mouse_off, sizeof mouse_off - 1);
    s->mouse_on = (uint8_t)want;
}

void sess_notice(sess_t *s, enum sess_notice_by by, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->notice, sizeof s->notice, fmt, ap);
    va_end(ap);
    s->notice_by = s->notice[0] ? (uint8_t)by : SESS_NOTICE_NONE;
}

void sess_notice_clear(sess_t *s, enum sess_notice_by by)
{
    if (by != SESS_NOTICE_NONE && s->notice_by != by)
        return; /* someone else's line, set over ours since */
    s->notice[0] = '\0';
    s->notice_by = SESS_NOTICE_NONE;
}

/* The game on the session's screen, or NULL (the lobby). */
static const game_t *game_shown(const sess_t *s)
{
    switch (s->state) {
    case S_PLAYING: return s->st.play.g.game;
    case S_WATCHING: return s->st.watch.game;
    case S_REPLAY: return s->st.replay.player.game;
    default: return NULL;
    }
}

/* The rows the notice takes at width w (a character a cell, broken at
 * spaces: screen_text_row). */
static int notice_rows(const char *p, int w)
{
    int rows = 0;
    while (*p) {
        p += screen_text_row(p, w);
        while (*p == ' ')
            p++;
        rows++;
    }
    return rows;
}

/* The narrow layout's first notice row: its rows end right above the
 * newest message's, as at full size, so that Q's word sits by its
 * question (at 40x20 an older line was between them, a play-test); the
 * log's rows run from its top down to its last written row, the newest
 * message's. With no game (or no room), the log's top. */
static int notice_top_narrow(const sess_t *s, const screen_t *next, int rows)
{
    int top = view_log_top(s->w, s->h), bottom = s->h - 2;
    const game_t *g = game_shown(s);
    const msg_t *m = g ? game_msg(g, 0) : NULL;
    if (!m)
        return top;
    while (bottom > top) { /* the newest message's last row */
        int x = 0;
        while (x < next->w && screen_cat(next, x, bottom)->ch == ' ')
            x++;
        if (x < next->w)
            break;
        bottom--;
    }
    int start[8], len[8];
    int newest = game_text_wrap(m->text, s->w, start, len, 8);
    int y = bottom - (newest > 0 ? newest : 1) - rows + 1;
    return y > top ? y : top;
}

/* A host line (tips, idle warning, a console `say`, the word under a
 * question such as Q's) on the log's rows right above its newest line,
 * which stays in sight under it: the middle of the log's three at 80x24,
 * and on a taller screen still beside the newest (at 100x30 it was once
 * left at row MAP_H, five rows above the question it explained); in the
 * narrow layout broken at spaces where it is wider than the screen (a
 * notice is under 80 columns: two rows at 40, and the log there has
 * three), over the rows above the newest message (notice_top_narrow).
 * UTF-8: a console `say` is the host's text (screen_text.h). */
static void draw_notice(sess_t *s, screen_t *next)
{
    int full = view_full(s->w, s->h);
    int y = full ? view_status_row(s->w, s->h) - 2
                 : notice_top_narrow(s, next, notice_rows(s->notice, s->w));
    int last = full ? y : s->h - 2;
    const char *p = s->notice;
    for (; *p && y <= last; y++) {
        size_t n = full ? strlen(p) : screen_text_row(p, s->w);
        char row[sizeof s->notice];
        snprintf(row, sizeof row, "%.*s", (int)n, p);
        for (int x = 0; x < s->w; x++)
            screen_put(next, x, y, ' ', COL_DEFAULT, COL_DEFAULT, 0);
        screen_puts_text(next, 0, y, row, COL_BYELLOW, COL_DEFAULT, ATTR_BOLD);
        p += n;
        while (*p == ' ')
            p++;
    }
    view_cache_log_overdrawn(&s->view);
}

void sess_render(sess_t *s)
{
    srv_t *srv = s->srv;
    const sess_state_ops_t *ops = sess_state_ops(s->state);
    if (!ops->draw || sess_closing(s))
        return;
    if (!s->term_ready)
        terminal_setup(s);
    tell_the_client(s);
    follow_aiming(s);
    if (s->queued > (size_t)srv->cfg.output_highwater) {
        /* Skip this frame; the next diff starts from what was last sent, so
         * nothing is lost. The write callback asks again when it drains. */
        return;
    }
    s->owe_frame = 0;
    srv->stats.frames++; /* /metrics */
    screen_t *next = &srv->next;
    /* A state that draws a game draws it over the frame the client shows
     * (sess_view_draw); the others draw whole screens. */
    view_cache_begin(&s->view, s->shown.w == s->w && s->shown.h == s->h);
    /* Every line of ours over the log says so (the notice below,
     * sess_overlay_line): an unchanged log is then not redrawn. */
    view_cache_track_log(&s->view);
    /* view_draw clears the grid itself: resize (which clears too) only
     * when the size changes. */
    if ((next->w != s->w || next->h != s->h) &&
        screen_resize(next, s->w, s->h) != 0) {
        view_cache_end(&s->view, 0);
        sess_close(s, "out of memory", 0, NULL);
        return;
    }
    int covered = 0;
    for (int i = 0; !covered && sess_overlays[i]; i++)
        covered = sess_overlays[i]->draw(s, next);
    if (!covered)
        ops->draw(s, next);
    if (s->notice[0] && view_fits(s->w, s->h))
        draw_notice(s, next);
    buf_reset(&srv->enc);
    int rc;
    uint8_t rows[VIEW_CACHE_MAX_ROWS];
    screen_scroll_t log;
    int some_rows = 0;
    int kept = next->keep != NULL;
    screen_keep_stop(next);
    if (kept) {
        /* Drawn over the frame shown, its changed rows kept aside in
         * s->shown (sess_view_draw): next is the whole new frame. */
        rc = screen_diff_kept(&srv->keep, next,
                              view_cache_scroll(&s->view, next->h, &log),
                              &s->term, &srv->enc);
        some_rows = 1;
    } else if (s->shown.w != next->w || s->shown.h != next->h) {
        rc = screen_paint(next, &s->term, &srv->enc);
    } else if (view_cache_rows(&s->view, rows, next->h)) {
        /* The host's lines: the notice (a log row, marked already) and
         * sess_overlay_line's, on row 0 or a log row. */
        rows[0] = 1;
        some_rows = 1;
        rc = screen_diff_rows(&s->shown, next, rows,
                              view_cache_scroll(&s->view, next->h, &log),
                              &s->term, &srv->enc);
    } else {
        /* Every row compared; the scroll still looked for only where the
         * view says a frame may scroll (the log's rows when the cache drew
         * the play screen), as on the paths above: the bytes of a frame
         * do not depend on which path it took. */
        rc = screen_diff_rows(&s->shown, next, NULL,
                              view_cache_scroll(&s->view, next->h, &log),
                              &s->term, &srv->enc);
    }
    if (rc == 0 && some_rows) {
        /* next is the whole new frame, drawn over the one shown (or a
         * copy of it): it becomes the session's, and the old one the
         * loop's scratch, instead of copying the changed rows back. */
        screen_t was = s->shown;
        s->shown = *next;
        *next = was;
    } else if (rc == 0) {
        rc = screen_copy(&s->shown, next);
    }
    if (rc != 0) {
        /* (A failed kept frame leaves s->shown the scratch: the session
         * closes, and never diffs from it.) */
        view_cache_end(&s->view, 0);
        sess_close(s, "frame too large", 0, NULL);
        return;
    }
    view_cache_end(&s->view, 1);
    sess_send(s, srv->enc.data, srv->enc.len);
    /* The frame marker: invisible to terminals, and tells a client (our
     * tests, the load generator) that a key's whole answer has arrived. */
    tconn_nop(&s->tc);
}

void sess_display_changed(sess_t *s)
{
    /* The encoder speaks the new display from now on; what the terminal
     * shows was encoded for the old one: paint the next frame whole. */
    term_state_set_display(&s->term, &s->display);
    view_cache_reset(&s->view);
    sess_repaint(s);
}

void sess_view_draw(sess_t *s, const game_t *g, screen_t *next)
{
    if (view_cache_wants_prime(&s->view, next->w, next->h)) {
        /* The cache draws over the frame shown: next takes the session's
         * screen, and the session the scratch, which gets each row of it
         * before the frame first changes the row (screen_keep_start):
         * no copy of the whole screen (docs/performance.md, "Plain keys
         * and truecolor bytes"). sess_render encodes the kept rows and
         * keeps next. */
        screen_t was = s->shown;
        s->shown = *next;
        *next = was;
        if (screen_keep_start(next, &s->srv->keep, &s->shown) != 0) {
            /* Taller than the keep: a copy of the frame shown instead. */
            was = s->shown;
            s->shown = *next;
            *next = was;
            if (screen_copy(next, &s->shown) != 0)
                view_cache_reset(&s->view); /* cannot happen: same size,
                                               no room needed; drawn in
                                               full then */
        }
    }
    view_draw_cached_display(g, &s->display, &s->view, next);
}

void sess_overlay_line(sess_t *s, screen_t *next, const char *const *forms,
                       uint8_t bg, int cover)
{
    /* Never over the map (in the narrow layout the log is under the map
     * window: view_layout); over a log line's end only when no form of
     * the line has room (view_label_place) and the caller says so. */
    int y, i = view_label_place(next, forms, &y);
    if (i < 0 && !cover)
        return;
    if (i < 0)
        while (forms[i + 1])
            i++;
    const char *text = forms[i];
    int n = (int)strlen(text);
    screen_puts(next, view_label_x(next, n, y), y, text, COL_BLACK, bg, 0);
    if (y > 0)
        view_cache_log_overdrawn(&s->view);
}
