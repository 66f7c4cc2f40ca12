/* session_watch.c - watching another player's game, live.
 *
 * A watcher never touches the player's game: it rebuilds its own copy from
 * the player's record (seed, options, every key so far: replaying thousands
 * of turns takes milliseconds), and from then on the player's session
 * forwards each key it feeds its game to every watcher's copy. Each copy is
 * drawn at its watcher's own terminal size, by the same view and encoder.
 * Only keys cross sessions, as messages would between processes.
 *
 * The links (player->watchers, watcher->watched) are undone in one place,
 * sess_watch_detach, which both ends call when they stop: leaving, the
 * game ending, a connection closing. */
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "log.h"
#include "session.h"
#include "view.h"

static sess_t *find_session(srv_t *srv, uint64_t id)
{
    for (sess_t *p = srv->sessions; p; p = p->next)
        if (p->id == id)
            return p;
    return NULL;
}

/* The player's game, rebuilt from its record; a copy of its state where
 * the record cannot give it (capped, or handed to the store at death). */
static game_t *rebuild(const sess_t *p)
{
    const record_t *r = &p->rec;
    if (!p->game_recorded && !r->truncated && r->finished == 0) {
        game_t *g = game_new(r->seed, &r->opt);
        size_t pos = 0;
        int key;
        while (g && record_next_key(r, &pos, &key) == 0)
            game_key(g, key);
        if (g && game_hash(g) == game_hash(p->game))
            return g;
        /* Never expected: the core is deterministic. Say so, then copy. */
        log_error("watch: the record of session %llu does not rebuild its game",
                  (unsigned long long)p->id);
        game_free(g);
    }
    return game_clone(p->game);
}

int sess_watch_start(sess_t *s, uint64_t id)
{
    sess_t *p = find_session(s->srv, id);
    if (s->game) { /* a game of its own is held for it: that first */
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Continue your own game first.");
        return -1;
    }
    if (!p || p == s || p->state != S_PLAYING || !p->game) {
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "That game is over.");
        return -1;
    }
    game_t *g = rebuild(p);
    if (!g) {
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Out of memory: try again later.");
        return -1;
    }
    s->game = g;
    s->watched = p;
    s->wprev = NULL;
    s->wnext = p->watchers;
    if (p->watchers)
        p->watchers->wprev = s;
    p->watchers = s;
    p->nwatchers++;
    s->state = S_WATCHING;
    s->need_render = 1;
    log_info("watch id=%llu watches id=%llu name=%s (%d watching)",
             (unsigned long long)s->id, (unsigned long long)p->id,
             lobby_player_name(&p->lobby), p->nwatchers);
    sess_redraw(p); /* the player's screen counts its watchers */
    return 0;
}

void sess_watch_detach(sess_t *s, const char *why)
{
    sess_t *p = s->watched;
    if (p) {
        if (s->wprev)
            s->wprev->wnext = s->wnext;
        else
            p->watchers = s->wnext;
        if (s->wnext)
            s->wnext->wprev = s->wprev;
        p->nwatchers--;
        s->watched = s->wprev = s->wnext = NULL;
        game_free(s->game);
        s->game = NULL;
        if (p->state == S_PLAYING)
            sess_redraw(p);
    }
    while (s->watchers) {
        sess_t *w = s->watchers;
        s->watchers = w->wnext;
        w->watched = w->wprev = w->wnext = NULL;
        game_free(w->game);
        w->game = NULL;
        if (w->state != S_WATCHING)
            continue;
        lobby_note(&w->lobby, LOBBY_NOTE_INFO, "%s",
                   why ? why : "The game you watched has ended.");
        sess_lobby_enter(w);
        sess_redraw(w);
    }
    s->nwatchers = 0;
}

void sess_watch_key(sess_t *s, int key)
{
    if (key == 'q' || key == 'Q' || key == KEY_ESC || key == KEY_CTRL_C) {
        sess_watch_detach(s, NULL);
        sess_lobby_enter(s);
    }
    /* Any other key: a watcher cannot change the game. */
}

void sess_watch_forward(sess_t *player, int key)
{
    sess_t *next;
    for (sess_t *w = player->watchers; w; w = next) {
        next = w->wnext;
        game_key(w->game, key);
        sess_redraw(w);
        /* A watcher whose write failed closes and redraws the player, whose
         * write may fail too: then the player's watchers are gone. */
        if (player->state != S_PLAYING)
            return;
    }
}

void sess_watch_overlay(const sess_t *s, screen_t *next)
{
    char line[64];
    if (!view_fits(next->w, next->h))
        return;
    if (s->state == S_WATCHING && s->watched) {
        snprintf(line, sizeof line, " Watching %s - q leaves ",
                 lobby_player_name(&s->watched->lobby));
        sess_overlay_line(next, line, COL_BCYAN);
    } else if (s->state == S_PLAYING && s->nwatchers > 0) {
        snprintf(line, sizeof line, " %d watching ", s->nwatchers);
        sess_overlay_line(next, line, COL_BCYAN);
    }
}

void sess_watch_list(sess_t *s)
{
    lobby_t *l = &s->lobby;
    uint64_t now = uv_now(s->srv->loop);
    l->nwatch = 0;
    for (sess_t *p = s->srv->sessions; p && l->nwatch < LOBBY_WATCH_MAX;
         p = p->next) {
        if (p->state != S_PLAYING || !p->game || p == s)
            continue;
        lobby_game_t *g = &l->watch[l->nwatch++];
        g->session_id = p->id;
        snprintf(g->name, sizeof g->name, "%s", lobby_player_name(&p->lobby));
        g->depth = p->game->depth;
        g->turns = (int)p->game->turn;
        g->idle_s = (int)((now - p->last_input_ms) / 1000);
        g->watchers = p->nwatchers;
    }
}
