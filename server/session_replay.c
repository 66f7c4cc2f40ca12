/* session_replay.c - a finished game played back from its record, at the
 * player's own terminal size: the same core replays the same keys, one per
 * tick of the session's timer (free while a session is neither negotiating
 * nor closing), and the same view draws each step.
 *
 * Keys: space pauses and resumes, + and - change the speed, . steps one
 * turn while paused (the keys up to the next one that takes a turn), q or
 * Esc leaves. */
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "log.h"
#include "session.h"
#include "store.h"
#include "view.h"

/* Keys per second at each speed; playback starts at REPLAY_START. */
static const int speeds[] = { 1, 2, 5, 10, 20, 50, 100 };
#define NSPEEDS ((int)(sizeof speeds / sizeof speeds[0]))
#define REPLAY_START 3

/* Feeds the next key; at the end, stops the clock. Returns 1 if a key was
 * fed. */
static int step(sess_t *s)
{
    int key;
    if (s->replay_done || record_next_key(&s->rec, &s->replay_pos, &key) != 0) {
        s->replay_done = 1;
        uv_timer_stop(&s->timer);
        return 0;
    }
    game_key(s->game, key);
    return 1;
}

static void on_tick(uv_timer_t *t)
{
    sess_t *s = t->data;
    if (s->state != S_REPLAY || s->replay_paused)
        return;
    step(s);
    sess_redraw(s);
}

static void run_clock(sess_t *s)
{
    uint64_t ms = 1000 / (uint64_t)speeds[s->replay_speed];
    if (s->replay_paused || s->replay_done)
        uv_timer_stop(&s->timer);
    else
        uv_timer_start(&s->timer, on_tick, ms, ms);
}

int sess_replay_begin(sess_t *s, const char *name, const void *rec, size_t len)
{
    record_free(&s->rec);
    int rc = record_decode(rec, len, &s->rec);
    if (rc == RECORD_OK && s->rec.game_version != GAME_VERSION)
        rc = RECORD_EVERSION;
    game_t *g = rc == RECORD_OK ? game_new(s->rec.seed, &s->rec.opt) : NULL;
    if (!g) {
        record_free(&s->rec);
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "That game cannot be replayed: %s.",
                   rc == RECORD_OK ? "out of memory" : record_strerror(rc));
        return -1;
    }
    s->game = g;
    s->replay_pos = 0;
    s->replay_speed = REPLAY_START;
    s->replay_paused = 0;
    s->replay_done = 0;
    snprintf(s->replay_name, sizeof s->replay_name, "%s", name);
    s->state = S_REPLAY;
    log_info("replay id=%llu of a game of %s (%u keys)",
             (unsigned long long)s->id, name, (unsigned)s->rec.nkeys);
    run_clock(s);
    s->need_render = 1;
    return 0;
}

void sess_replay_stop(sess_t *s)
{
    uv_timer_stop(&s->timer);
    game_free(s->game);
    s->game = NULL;
    record_free(&s->rec);
}

void sess_replay_key(sess_t *s, int key)
{
    switch (key) {
    case ' ':
        s->replay_paused = !s->replay_paused;
        break;
    case '+':
    case '=':
        if (s->replay_speed + 1 < NSPEEDS)
            s->replay_speed++;
        break;
    case '-':
        if (s->replay_speed > 0)
            s->replay_speed--;
        break;
    case '.':
        if (s->replay_paused) {
            /* One turn: keys that take none (a wall, a menu) go with it. */
            uint32_t turn = s->game->turn;
            while (s->game->turn == turn && step(s))
                ;
        }
        break;
    case 'q':
    case 'Q':
    case KEY_ESC:
    case KEY_CTRL_C:
        sess_replay_stop(s);
        sess_lobby_enter(s);
        return;
    default:
        return;
    }
    run_clock(s);
}

/* The playback line, right-aligned in row 0 (as the watch line). */
void sess_replay_overlay(const sess_t *s, screen_t *next)
{
    char line[96];
    if (s->state != S_REPLAY || !view_fits(next->w, next->h))
        return;
    snprintf(line, sizeof line, " Replay: %s, %d keys/s%s - space + - . q ",
             s->replay_name, speeds[s->replay_speed],
             s->replay_done ? ", the end" : s->replay_paused ? ", paused" : "");
    sess_overlay_line(next, line, COL_BYELLOW);
}
