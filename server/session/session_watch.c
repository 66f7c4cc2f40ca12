/* session_watch.c - S_WATCHING: another player's game, live.
 *
 * A watcher never touches the player's game: it rebuilds its own copy from
 * the summary the player sent (seed, options, every key so far and their
 * checks, through the record player, on the rebuilds' threads: a long game takes
 * seconds and the loop serves everyone meanwhile; the watcher sees "One
 * moment..." and keeps the keys forwarded until then), and from then on
 * plays each key the player forwards (WATCH_KEY). Each copy is drawn at its watcher's own terminal size, by the
 * same view and encoder. The watch ends with the player's WATCH_END, or
 * when the watcher leaves (WATCH_LEAVE to the player). */
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "log.h"
#include "rebuild.h"
#include "session.h"
#include "view.h"

/* Keys forwarded while the copy is being rebuilt: at most this many bytes
 * (4 a key); a player faster than that for the whole rebuild ends the
 * watch. */
#define PENDING_MAX (1u << 20)

/* The watch's notice ("NAME starts a new game.") goes after this many of
 * the player's keys: it told the watcher, and for the whole game it hid a
 * log row (a play-test saw it 227 turns on). */
#define WATCH_NOTICE_KEYS 10

/* Asks for the player's game rebuilt from m's summary (the summary moves
 * out of m; a rebuild still running for this session is cancelled).
 * Returns 0, or -1 (the lobby says why). */
static int ask_rebuild(sess_t *s, smsg_t *m)
{
    st_watch_t *w = &s->st.watch;
    game_free(w->game);
    w->game = NULL;
    buf_free(&w->pending);
    buf_init(&w->pending, PENDING_MAX);
    w->player = m->from;
    size_t n = strnlen(m->text, sizeof w->name - 1);
    memcpy(w->name, m->text, n);
    w->name[n] = '\0';
    w->rebuild_job = ++s->jobs;
    msg_game_t *g = m->game;
    m->game = NULL;
    int rc = g ? sess_rebuild(s, w->rebuild_job, g, 0) : REBUILD_NOMEM;
    if (rc != 0) {
        log_info("watch id=%llu: no rebuild: %s", (unsigned long long)s->id,
                 rebuild_refusal(rc));
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "%s", rebuild_refusal(rc));
        return -1;
    }
    return 0;
}

static int watch_enter(sess_t *s, void *arg)
{
    smsg_t *m = arg; /* the player's WATCH_START */
    if (m->type == MSG_WATCH_END) {
        /* A binary upgrade (session_upgrade.c): the player's game is
         * being rebuilt; its summary comes as a WATCH_START. */
        st_watch_t *w = &s->st.watch;
        buf_init(&w->pending, PENDING_MAX);
        w->player = m->from;
        snprintf(w->name, sizeof w->name, "%.*s", (int)sizeof w->name - 1,
                 m->text);
        w->waiting = 1;
        return 0;
    }
    if (ask_rebuild(s, m) != 0)
        return -1; /* the leave tells the player */
    return 0;
}

static void watch_leave(sess_t *s)
{
    st_watch_t *w = &s->st.watch;
    /* The notice said about the game watched ("NAME starts a new game.")
     * goes when that game does (the session draws its notice over every
     * state's frame until a key, the lobby's too); one said since by
     * someone else (a `say`) stays. */
    sess_notice_clear(s, SESS_NOTICE_WATCH);
    sess_rebuild_cancel(s); /* one still running is of no use */
    if (w->player && !s->moved) /* moved: the player moves too */
        sess_post(s, MSG_WATCH_LEAVE, w->player, 0, NULL, NULL);
    game_free(w->game);
    w->game = NULL;
    buf_free(&w->pending);
}

/* The copy is ready: it catches up with the keys forwarded meanwhile. */
static void rebuilt(sess_t *s, smsg_t *m)
{
    st_watch_t *w = &s->st.watch;
    msg_rebuilt_t *r = m->rebuilt;
    if (r->err != RECORD_OK) {
        /* Never expected: the core is deterministic. Say so. */
        log_error("watch: the game of session %llu does not rebuild: %s",
                  (unsigned long long)w->player, record_strerror(r->err));
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "That game cannot be watched: %s.",
                   record_strerror(r->err));
        sess_goto(s, S_LOBBY, NULL);
        return;
    }
    w->game = r->game;
    r->game = NULL;
    const unsigned char *p = (const unsigned char *)w->pending.data;
    for (size_t i = 0; i + 4 <= w->pending.len; i += 4)
        game_key(w->game, (int)((uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
                                (uint32_t)p[i + 2] << 16 |
                                (uint32_t)p[i + 3] << 24));
    buf_free(&w->pending);
    sess_owe_frame(s);
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
    if (m->type == MSG_REBUILT) {
        if (m->a == w->rebuild_job && !w->game)
            rebuilt(s, m);
        return 1; /* a stale one: dropped */
    }
    if (m->from != w->player) {
        /* A game it no longer watches still sends keys: stop it. */
        if (m->type == MSG_WATCH_KEY || m->type == MSG_WATCH_START)
            sess_post(s, MSG_WATCH_LEAVE, m->from, 0, NULL, NULL);
        return m->type == MSG_WATCH_KEY || m->type == MSG_WATCH_START ||
               m->type == MSG_WATCH_END || m->type == MSG_WATCH_MOVED;
    }
    switch (m->type) {
    case MSG_WATCH_KEY:
        if (s->notice_by == SESS_NOTICE_WATCH &&
            ++w->notice_keys >= WATCH_NOTICE_KEYS)
            sess_notice_clear(s, SESS_NOTICE_WATCH);
        if (w->game) {
            game_key(w->game, (int)m->a);
            sess_owe_frame(s);
        } else {
            uint32_t k = (uint32_t)m->a;
            uint8_t b[4] = { (uint8_t)k, (uint8_t)(k >> 8), (uint8_t)(k >> 16),
                             (uint8_t)(k >> 24) };
            if (buf_append(&w->pending, b, 4) != 0) {
                lobby_note(&s->lobby, LOBBY_NOTE_BAD,
                           "That game moves too fast to catch up with.");
                sess_goto(s, S_LOBBY, NULL);
            }
        }
        return 1;
    case MSG_WATCH_START: {
        /* The player starts another game, or goes on with the one saved
         * (it has keys already: S then p, a login's p): follow it. */
        int goes_on = m->game && m->game->keys.len > 0;
        w->waiting = 0;
        if (ask_rebuild(s, m) == 0) {
            sess_notice(s, SESS_NOTICE_WATCH, goes_on
                        ? "%s goes on with the game." : "%s starts a new game.",
                        w->name);
            w->notice_keys = 0;
            sess_owe_frame(s);
        } else {
            sess_goto(s, S_LOBBY, NULL); /* the leave tells the player */
        }
        return 1;
    }
    case MSG_WATCH_END:
        if (m->a == MSG_WATCH_LOBBY || m->a == MSG_WATCH_AWAY) {
            /* the player is in the lobby, or its page dropped: wait for
             * them to play, a new game or the one saved or kept
             * (session_follow.c, session_guest.c) */
            game_free(w->game);
            w->game = NULL;
            w->waiting = (uint8_t)m->a;
            w->rebuild_job = 0; /* a rebuild still running is stale */
            sess_rebuild_cancel(s);
            /* the waiting screen says so (watch_draw): once is enough */
            sess_notice_clear(s, SESS_NOTICE_WATCH);
            sess_owe_frame(s);
            return 1;
        }
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
    if (!w->game) {
        char wait[96];
        if (w->waiting == MSG_WATCH_AWAY)
            snprintf(wait, sizeof wait, "%s's connection dropped. Waiting "
                     "for them to come back - q leaves", w->name);
        else if (w->waiting)
            /* "them to play", not "the next game": after a save the
             * same game may go on (watch_msg says which it was) */
            snprintf(wait, sizeof wait, "%s is in the lobby. Waiting for "
                     "them to play - q leaves", w->name);
        else
            snprintf(wait, sizeof wait, "One moment...");
        /* Wrapped at spaces, each row centred: on a phone's 40 columns
         * the line lost its "game - q leaves" at the edge (a play-test). */
        screen_clear(next);
        int start[4], len[4];
        int n = game_text_wrap(wait, next->w, start, len, 4);
        for (int i = 0; i < n; i++) {
            char row[sizeof wait];
            snprintf(row, sizeof row, "%.*s", len[i], wait + start[i]);
            int x = (next->w - len[i]) / 2;
            screen_puts(next, x > 0 ? x : 0, next->h / 2 - (n - 1) / 2 + i,
                        row, COL_WHITE, COL_DEFAULT, 0);
        }
        return;
    }
    sess_view_draw(s, w->game, next);
    /* The player's end keys are the player's: a watcher's q leaves. */
    view_end_keys(w->game, next, sess_end_keys_viewer(s));
    if (!view_fits(next->w, next->h)) {
        view_too_small_keys(next, "q leaves.", COL_WHITE); /* not Q's */
    } else {
        /* The shorter form when no log row has room for the whole
         * (sess_overlay_line): it covers less of a log line. */
        char line[64], brief[48];
        snprintf(line, sizeof line, " Watching %s - q leaves ", w->name);
        snprintf(brief, sizeof brief, " %s - q leaves ", w->name);
        const char *const forms[] = {line, brief, NULL};
        /* never over a full page's words (the help the player reads) */
        sess_overlay_line(s, next, forms, COL_BCYAN,
                          !view_full_page(w->game));
    }
}

/* O opens the options screen over the game shown (docs/game.md). */
static int watch_opens_options(const sess_t *s, int key)
{
    (void)s;
    return key == 'O';
}

const sess_state_ops_t sess_watch_ops = {
    .name = "watching",
    .enter = watch_enter,
    .leave = watch_leave,
    .key = watch_key,
    .msg = watch_msg,
    .draw = watch_draw,
    .opens_options = watch_opens_options,
};
