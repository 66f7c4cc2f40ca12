/* session_replay.c - S_REPLAY: a finished game played back from its
 * record at the player's own terminal size: the record player steps the
 * keys, one per tick of the replay clock, checking each of the record's
 * checks on the way, and the same view draws each step.
 *
 * Keys: space pauses and resumes, + and - change the speed, . steps one
 * turn while paused (the keys up to the next one that takes a turn), q or
 * Esc leaves. */
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "log.h"
#include "session.h"
#include "view.h"

/* Keys per second at each speed; playback starts at REPLAY_START. */
static const int speeds[] = { 1, 2, 5, 10, 20, 50, 100 };
#define NSPEEDS ((int)(sizeof speeds / sizeof speeds[0]))
#define REPLAY_START 3

/* Feeds the next key; at the end (or a record that differs), stops the
 * clock. Returns 1 if a key was fed. */
static int step(sess_t *s)
{
    st_replay_t *r = &s->st.replay;
    if (r->done)
        return 0;
    int rc = record_player_step(&r->player, NULL);
    if (rc == 1)
        return 1;
    r->done = 1;
    r->err = rc;
    if (rc != RECORD_OK)
        log_error("replay id=%llu stopped at key %u: %s",
                  (unsigned long long)s->id, (unsigned)r->player.fed,
                  record_strerror(rc));
    uv_timer_stop(&s->replay_timer);
    sess_tell_state(s); /* the page's bar: leave alone, as a watch's */
    return 0;
}

static void on_tick(uv_timer_t *t)
{
    sess_t *s = t->data;
    if (s->state != S_REPLAY || s->st.replay.paused || sess_closing(s))
        return;
    step(s);
    sess_owe_frame(s);
}

static void run_clock(sess_t *s)
{
    st_replay_t *r = &s->st.replay;
    uint64_t ms = 1000 / (uint64_t)speeds[r->speed];
    if (r->paused || r->done)
        uv_timer_stop(&s->replay_timer);
    else
        uv_timer_start(&s->replay_timer, on_tick, ms, ms);
}

static int replay_enter(sess_t *s, void *arg)
{
    const replay_arg_t *a = arg;
    st_replay_t *r = &s->st.replay;
    int rc = record_decode(a->record, a->len, &r->rec);
    if (rc == RECORD_OK)
        rc = record_player_start(&r->player, &r->rec, NULL);
    if (rc != RECORD_OK) {
        record_player_free(&r->player);
        record_free(&r->rec);
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "That game cannot be replayed: %s.",
                   record_strerror(rc));
        return -1;
    }
    r->speed = REPLAY_START;
    snprintf(r->name, sizeof r->name, "%s", a->name);
    log_info("replay id=%llu of a game of %s (%u keys)",
             (unsigned long long)s->id, a->name, (unsigned)r->rec.nkeys);
    run_clock(s);
    return 0;
}

static void replay_leave(sess_t *s)
{
    st_replay_t *r = &s->st.replay;
    uv_timer_stop(&s->replay_timer);
    record_player_free(&r->player);
    record_free(&r->rec);
}

static void replay_key(sess_t *s, int key)
{
    st_replay_t *r = &s->st.replay;
    switch (key) {
    case ' ':
        r->paused = !r->paused;
        break;
    case '+':
    case '=':
        if (r->speed + 1 < NSPEEDS)
            r->speed++;
        break;
    case '-':
        if (r->speed > 0)
            r->speed--;
        break;
    case '.':
        if (r->paused) {
            /* One turn: keys that take none (a wall, a menu) go with it. */
            uint32_t turn = r->player.game->turn;
            while (r->player.game->turn == turn && step(s))
                ;
        }
        break;
    case 'q':
    case 'Q':
    case KEY_ESC:
    case KEY_CTRL_C:
        sess_goto(s, S_LOBBY, NULL);
        return;
    default:
        return;
    }
    run_clock(s);
}

/* The playback line's three forms, longest first: the whole line; the
 * speed as "N/s" and the state in a word; then without the keys. The
 * last (at most 36 columns with a 20-letter name) fits the narrowest
 * terminal, 40 columns, and covers the least of a log line when no log
 * row has room for the others (sess_overlay_line). */
static void replay_forms(const st_replay_t *r, char forms[3][128])
{
    int v = speeds[r->speed];
    int differs = r->done && r->err != RECORD_OK;
    snprintf(forms[0], sizeof forms[0],
             " Replay: %s, %d key%s/s%s - space + - . q ", r->name, v,
             v == 1 ? "" : "s",
             differs ? ", differs from its record" : r->done ? ", the end"
             : r->paused ? ", paused" : "");
    const char *state = differs ? " differs" : r->done ? " ended"
                        : r->paused ? " paused" : "";
    snprintf(forms[1], sizeof forms[1],
             " Replay: %s, %d/s%s - space + - . q ", r->name, v, state);
    snprintf(forms[2], sizeof forms[2], " %s %d/s%s ", r->name, v, state);
}

/* The playback line, right-aligned in row 0 (as the watch line). */
static void replay_draw(sess_t *s, screen_t *next)
{
    const st_replay_t *r = &s->st.replay;
    sess_view_draw(s, r->player.game, next);
    /* The game's end screen offers a new game: not here, where q leaves. */
    view_end_keys(r->player.game, next, sess_end_keys_viewer(s));
    if (!view_fits(next->w, next->h)) {
        view_too_small_keys(next, "q leaves.", COL_WHITE); /* not Q's */
        return;
    }
    char forms[3][128];
    replay_forms(r, forms);
    const char *const list[] = {forms[0], forms[1], forms[2], NULL};
    /* never over a full page's words (the help the player read) */
    sess_overlay_line(s, next, list, COL_BYELLOW,
                      !view_full_page(r->player.game));
}

/* O opens the options screen over the game shown (docs/game.md). */
static int replay_opens_options(const sess_t *s, int key)
{
    (void)s;
    return key == 'O';
}

const sess_state_ops_t sess_replay_ops = {
    .name = "replay",
    .enter = replay_enter,
    .leave = replay_leave,
    .key = replay_key,
    .draw = replay_draw,
    .opens_options = replay_opens_options,
};
