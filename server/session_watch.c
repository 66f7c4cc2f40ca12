/* session_watch.c - S_WATCHING: another player's game, live.
 *
 * A watcher never touches the player's game: it rebuilds its own copy from
 * the summary the player sent (seed, options, every key so far and their
 * checks, through the record player: thousands of turns take
 * milliseconds), and from then on plays each key the player forwards
 * (WATCH_KEY). Each copy is drawn at its watcher's own terminal size, by the
 * same view and encoder. The watch ends with the player's WATCH_END, or
 * when the watcher leaves (WATCH_LEAVE to the player). */
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "log.h"
#include "session.h"
#include "view.h"

/* Rebuilds the player's game from m's summary into the watcher's copy.
 * Returns 0, or -1 (the lobby says why). */
static int rebuild(sess_t *s, const smsg_t *m)
{
    st_watch_t *w = &s->st.watch;
    const msg_game_t *g = m->game;
    record_player_t pl;
    int rc = record_player_start_raw(&pl, g->seed, &g->opt, g->keys.data,
                                     g->keys.len, g->checks.data,
                                     g->checks.len, NULL);
    if (rc == RECORD_OK)
        rc = record_player_run(&pl, 0);
    if (rc != RECORD_OK) {
        /* Never expected: the core is deterministic. Say so. */
        log_error("watch: the game of session %llu does not rebuild: %s",
                  (unsigned long long)m->from, record_strerror(rc));
        record_player_free(&pl);
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "That game cannot be watched: %s.",
                   record_strerror(rc));
        return -1;
    }
    game_free(w->game);
    w->game = record_player_take(&pl);
    w->player = m->from;
    size_t n = strnlen(m->text, sizeof w->name - 1);
    memcpy(w->name, m->text, n);
    w->name[n] = '\0';
    return 0;
}

static int watch_enter(sess_t *s, void *arg)
{
    const smsg_t *m = arg; /* the player's WATCH_START */
    if (rebuild(s, m) != 0) {
        sess_post(s, MSG_WATCH_LEAVE, m->from, 0, NULL, NULL);
        return -1;
    }
    return 0;
}

static void watch_leave(sess_t *s)
{
    st_watch_t *w = &s->st.watch;
    if (w->player)
        sess_post(s, MSG_WATCH_LEAVE, w->player, 0, NULL, NULL);
    game_free(w->game);
    w->game = NULL;
}

static void watch_key(sess_t *s, int key)
{
    if (key == 'q' || key == 'Q' || key == KEY_ESC || key == KEY_CTRL_C)
        sess_goto(s, S_LOBBY, NULL);
    /* Any other key: a watcher cannot change the game. */
}

static int watch_msg(sess_t *s, smsg_t *m)
{
    st_watch_t *w = &s->st.watch;
    if (m->from != w->player) {
        /* A game it no longer watches still sends keys: stop it. */
        if (m->type == MSG_WATCH_KEY || m->type == MSG_WATCH_START)
            sess_post(s, MSG_WATCH_LEAVE, m->from, 0, NULL, NULL);
        return m->type == MSG_WATCH_KEY || m->type == MSG_WATCH_START ||
               m->type == MSG_WATCH_END || m->type == MSG_WATCH_MOVED;
    }
    switch (m->type) {
    case MSG_WATCH_KEY:
        game_key(w->game, (int)m->a);
        sess_owe_frame(s);
        return 1;
    case MSG_WATCH_START:
        /* The player starts another game: follow it. */
        if (m->game && rebuild(s, m) == 0) {
            snprintf(s->notice, sizeof s->notice, "%s starts a new game.",
                     w->name);
            sess_owe_frame(s);
            return 1;
        }
        w->player = 0; /* rebuild said why; the player was told below */
        sess_post(s, MSG_WATCH_LEAVE, m->from, 0, NULL, NULL);
        sess_goto(s, S_LOBBY, NULL);
        return 1;
    case MSG_WATCH_END:
        w->player = 0; /* the player has forgotten us already */
        lobby_note(&s->lobby, LOBBY_NOTE_INFO, "%s",
                   m->text[0] ? m->text : "The game you watched has ended.");
        sess_goto(s, S_LOBBY, NULL);
        return 1;
    case MSG_WATCH_MOVED:
        w->player = (uint64_t)m->a; /* the same game, on another connection */
        return 1;
    default:
        return 0;
    }
}

static void watch_draw(sess_t *s, screen_t *next)
{
    const st_watch_t *w = &s->st.watch;
    view_draw(w->game, next);
    if (view_fits(next->w, next->h)) {
        char line[64];
        snprintf(line, sizeof line, " Watching %s - q leaves ", w->name);
        sess_overlay_line(next, line, COL_BCYAN);
    }
}

const sess_state_ops_t sess_watch_ops = {
    .name = "watching",
    .enter = watch_enter,
    .leave = watch_leave,
    .key = watch_key,
    .msg = watch_msg,
    .draw = watch_draw,
};
