/* session_play.c - S_PLAYING: a game of the session's own, fed keys
 * through its recorder, watched by other sessions through messages, and
 * handed to the store when it ends (a death at once, so that a dropped
 * connection on the YOU DIED screen loses nothing).
 *
 * An account's game also lives in the store while it is played: begun with
 * the game, its new key bytes handed over once a second (the sweep) and
 * when the session closes, ended when the game is recorded. So a dropped
 * connection, a restart or a crash loses at most the last second, and the
 * next login continues it (session_lobby.c).
 *
 * Watchers: the player keeps the ids of the sessions watching it. A
 * WATCH_JOIN gets the game's summary (seed, options, keys and checks: the
 * watcher rebuilds its own copy), then every key fed is sent on as
 * WATCH_KEY; the end of the game is a WATCH_END, a new game after a death
 * a new WATCH_START (the watchers follow the player), a takeover a
 * WATCH_MOVED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "announce.h"
#include "host.h"
#include "log.h"
#include "prefetch.h"
#include "session.h"
#include "store.h"
#include "view.h"

/* --- the store ------------------------------------------------------------------ */

/* The store's row for the session's game, ended for `cause`. */
static void game_row(const sess_t *s, const game_t *g, const char *cause,
                     store_game_t *row)
{
    memset(row, 0, sizeof *row);
    snprintf(row->name, sizeof row->name, "%s", sess_player_name(s));
    row->account_id = s->lobby.account_id;
    row->ruleset = g->opt.ruleset;
    row->seed = g->seed;
    row->score = game_score(g);
    row->depth = g->depth;
    row->turns = (int)g->turn;
    row->kills = g->kills;
    if (game_dead(g))
        game_death_cause(g, row->cause, sizeof row->cause);
    else
        snprintf(row->cause, sizeof row->cause, "%s", cause);
    row->started = s->st.play.g.started;
    row->ended = (int64_t)time(NULL);
    /* the hall of fame ranks deaths, wins and long quits (store.h) */
    row->ending = game_won(g) ? STORE_END_WIN
                  : game_dead(g) ? STORE_END_DEATH
                  : cause && strcmp(cause, "quit") == 0 ? STORE_END_QUIT
                  : STORE_END_DISCONNECT;
}

/* Hands a game to the store: the store takes `g` (the session's game or a
 * copy of it) and the recorder's buffers. A game of no turns is not kept
 * (and freed here). Either way g is no longer the caller's. */
static void record_game(sess_t *s, game_t *g, const char *cause)
{
    st_play_t *p = &s->st.play;
    store_game_t row;
    game_row(s, g, cause, &row);
    p->recorded = 1;
    if (g->turn == 0) {
        game_free(g);
        if (s->lobby.account_id > 0) /* nothing to continue either */
            store_progress_end(s->srv->store, s->lobby.account_id, s->claim,
                               row.seed, row.started);
        return;
    }
    /* a win or a deep death: the lobby's and the front page's news */
    announce_game_end(&s->srv->sh->news, sess_now(s),
                      s->srv->cfg.news_min_depth, &row);
    /* The store frees g whatever happens (and logs a refusal). */
    store_end_game(s->srv->store, &row, g, &p->g.rec);
    if (s->lobby.account_id > 0) /* after the game, in the store's order */
        store_progress_end(s->srv->store, s->lobby.account_id, s->claim,
                           row.seed, row.started);
    /* Only now a new generation of the site's hall of fame (site_cache.h):
     * a reading asked at this generation is queued after the game, so the
     * store answers it with the row; one asked before is not kept. The log
     * line comes last, so whoever sees it and asks finds the row too. */
    site_cache_changed(&s->srv->sh->site_cache);
    log_info("game over id=%llu name=%s seed=%llu turns=%u depth=%d score=%d "
             "cause=\"%s\"", (unsigned long long)s->id, row.name,
             (unsigned long long)row.seed, (unsigned)row.turns, row.depth,
             row.score, row.cause);
}

/* Hands the store the key bytes of an account's game it does not have yet. */
static void flush_progress(sess_t *s)
{
    st_play_t *p = &s->st.play;
    if (!p->g.game || p->recorded || p->handed || s->lobby.account_id <= 0 ||
        (p->progress_begun && p->g.rec.keys.len <= p->progress_sent))
        return;
    if (!p->progress_begun) {
        /* Its begin failed (out of memory): try again, from the start; keys
         * must never be appended to the account's older game. */
        if (store_progress_begin(s->srv->store, s->lobby.account_id,
                                 s->claim, p->g.game->seed, &p->g.game->opt,
                                 p->g.started) != 0)
            return;
        p->progress_begun = 1;
        p->progress_sent = 0;
    }
    size_t n = p->g.rec.keys.len - p->progress_sent;
    /* Refused (the queue is full): the same bytes go with the next ones. */
    if (store_progress_append(s->srv->store, s->lobby.account_id, s->claim,
                              p->g.rec.keys.data + p->progress_sent, n) == 0) {
        p->progress_sent = p->g.rec.keys.len;
        log_debug("progress id=%llu bytes=%zu", (unsigned long long)s->id,
                  p->progress_sent);
    }
}

/* 0 if keys handed to the store may have been lost: a batch failed
 * since it last had them all, or writes fail now. */
static int store_has_all(sess_t *s)
{
    const st_play_t *p = &s->st.play;
    store_t *st = s->srv->store;
    return store_failed_batches(st) == p->store_failed && store_healthy(st);
}

/* --- the directory and the watchers ------------------------------------------------ */

/* What the lobby's list of games shows of this one. */
static void publish(sess_t *s)
{
    const st_play_t *p = &s->st.play;
    dir_game_t d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", sess_player_name(s));
    d.depth = p->g.game->depth;
    d.turns = (int)p->g.game->turn;
    d.watchers = p->nwatchers;
    d.last_input_ms = s->last_input_ms;
    dir_set_game(s->srv->dir, s->id, &d);
    st_play_t *pw = &s->st.play;
    pw->pub_depth = d.depth;
    pw->pub_turns = d.turns;
    pw->pub_input_s = (uint32_t)(s->last_input_ms / 1000);
}

/* After a key: the directory's line gets the game's progress when it
 * changed, the turns and depth as they are and the last key to the second
 * (the lobby shows idle time in seconds), without formatting the line
 * again (publish did, once). Most keys take a turn, so most keys still
 * write; a key that does nothing new writes nothing. */
static void publish_progress(sess_t *s)
{
    st_play_t *p = &s->st.play;
    int depth = p->g.game->depth, turns = (int)p->g.game->turn;
    uint32_t input_s = (uint32_t)(s->last_input_ms / 1000);
    if (depth == p->pub_depth && turns == p->pub_turns &&
        input_s == p->pub_input_s)
        return;
    dir_set_progress(s->srv->dir, s->id, depth, turns, s->last_input_ms);
    p->pub_depth = depth;
    p->pub_turns = turns;
    p->pub_input_s = input_s;
}

/* Keys between snapshots (a multiple of RECORD_CHECK_EVERY, so that each
 * snapshot can be checked): a watcher joining a game of a million keys
 * replays at most this many. */
#define SNAP_EVERY 65536

static msg_game_t *summary(const sess_t *s)
{
    const st_play_t *p = &s->st.play;
    const record_t *r = &p->g.rec;
    msg_game_t *gs = msg_game_new(r->seed, &r->opt, p->g.started, &r->keys,
                                  &r->checks);
    if (gs && p->snap && (gs->snap = game_clone(p->snap))) {
        gs->snap_keys = p->snap_keys;
        gs->snap_pos = p->snap_pos;
    }
    return gs;
}

/* After a recorded key: every SNAP_EVERY keys, a copy of the game; an
 * account's goes to the store too, so that its next login rebuilds only
 * the tail (after the key bytes it follows, handed over first). */
static void take_snapshot(sess_t *s)
{
    st_play_t *p = &s->st.play;
    const record_t *r = &p->g.rec;
    if (r->truncated || r->nkeys == 0 || r->nkeys % SNAP_EVERY != 0 ||
        r->nkeys == p->snap_keys)
        return;
    game_t *copy = game_clone(p->g.game);
    if (!copy)
        return; /* the older one still serves */
    game_free(p->snap);
    p->snap = copy;
    p->snap_keys = r->nkeys;
    p->snap_pos = r->keys.len;
    if (s->lobby.account_id <= 0)
        return;
    flush_progress(s);
    if (p->progress_begun && p->progress_sent >= p->snap_pos)
        store_progress_snapshot(s->srv->store, s->lobby.account_id, s->claim,
                                copy, p->snap_keys, p->snap_pos,
                                r->checks.data, r->checks.len);
}

static void drop_snapshot(st_play_t *p)
{
    game_free(p->snap);
    p->snap = NULL;
    p->snap_keys = 0;
    p->snap_pos = 0;
}

/* Whether watchers can rebuild the game from its record. */
static const char *unwatchable(const sess_t *s)
{
    const st_play_t *p = &s->st.play;
    if (p->recorded || game_dead(p->g.game))
        return "That game is over.";
    if (p->g.rec.truncated)
        return "That game is too long to watch.";
    return NULL;
}

static int add_watcher(st_play_t *p, uint64_t id)
{
    if (p->nwatchers == p->capwatchers) {
        int cap = p->capwatchers ? p->capwatchers * 2 : 4;
        uint64_t *w = realloc(p->watchers, (size_t)cap * sizeof *w);
        if (!w)
            return -1;
        p->watchers = w;
        p->capwatchers = cap;
    }
    p->watchers[p->nwatchers++] = id;
    return 0;
}

static void drop_watcher(st_play_t *p, uint64_t id)
{
    for (int i = 0; i < p->nwatchers; i++)
        if (p->watchers[i] == id) {
            p->watchers[i] = p->watchers[--p->nwatchers];
            return;
        }
}

static void tell_watchers(sess_t *s, int type, int64_t a, const char *text)
{
    st_play_t *p = &s->st.play;
    for (int i = 0; i < p->nwatchers; i++)
        sess_post(s, type, p->watchers[i], a, NULL, "%s", text ? text : "");
}

/* --- the game's life ------------------------------------------------------------------ */

/* A new game under the player's name. Returns 0, or -1 (out of memory:
 * the session closes). */
static int new_game(sess_t *s)
{
    st_play_t *p = &s->st.play;
    game_options_t opt;
    srv_game_options(s->srv, &opt);
    game_t *g = game_new(srv_new_seed(s->srv), &opt);
    if (!g || record_init(&p->g.rec, g, (size_t)s->srv->cfg.record_limit) != 0) {
        game_free(g);
        record_free(&p->g.rec);
        sess_close(s, "out of memory", 0, NULL);
        return -1;
    }
    p->g.game = g;
    p->g.started = (int64_t)time(NULL);
    p->recorded = 0;
    p->progress_sent = 0;
    p->progress_begun = s->lobby.account_id > 0 &&
        store_progress_begin(s->srv->store, s->lobby.account_id, s->claim,
                             g->seed, &opt, p->g.started) == 0;
    log_info("game start id=%llu name=%s seed=%llu", (unsigned long long)s->id,
             sess_player_name(s), (unsigned long long)g->seed);
    sess_guest_started(s);
    return 0;
}

/* The watchers who waited in the lobby (session_follow.c) watch this
 * game: each gets its summary, as after a death. */
static void follow_into(sess_t *s)
{
    st_play_t *p = &s->st.play;
    uint64_t *ids;
    int n = follow_take(s, &ids);
    for (int i = 0; i < n; i++) {
        if (unwatchable(s) || add_watcher(p, ids[i]) != 0) {
            sess_post(s, MSG_WATCH_END, ids[i], 0, NULL, "%s",
                      "The player's new game cannot be watched.");
            continue;
        }
        sess_post(s, MSG_WATCH_START, ids[i], 0, summary(s), "%s",
                  sess_player_name(s));
    }
    free(ids);
}

void sess_play_rewatch(sess_t *s)
{
    st_play_t *p = &s->st.play;
    if (s->state != S_PLAYING || !p->rewatch_owed)
        return;
    p->rewatch_owed = 0;
    for (int i = 0; i < p->nwatchers; i++)
        sess_post(s, MSG_WATCH_START, p->watchers[i], 0, summary(s), "%s",
                  sess_player_name(s));
}

static int play_enter(sess_t *s, void *arg)
{
    st_play_t *p = &s->st.play;
    play_arg_t *a = arg;
    int rewatch = 0;
    p->store_failed = store_failed_batches(s->srv->store); /* store_has_all */
    if (!a) {
        if (new_game(s) != 0)
            return -1;
    } else {
        p->g = a->g;
        p->progress_begun = a->progress_begun;
        p->progress_sent = a->progress_sent;
        p->watchers = a->watchers;
        p->nwatchers = p->capwatchers = a->nwatchers;
        rewatch = a->rewatch;
        memset(a, 0, sizeof *a); /* moved */
        log_info("game resumed id=%llu name=%s seed=%llu turns=%u",
                 (unsigned long long)s->id, sess_player_name(s),
                 (unsigned long long)p->g.game->seed,
                 (unsigned)p->g.game->turn);
        sess_guest_started(s);
    }
    /* after a binary upgrade the watchers have no copy yet: each gets
     * the summary, as a follower does, once every moved session is in
     * the directory (sess_upgrade_ready) */
    p->rewatch_owed = (uint8_t)rewatch;
    if (rewatch && s->srv->upgrade_ready)
        sess_play_rewatch(s);
    follow_into(s);
    publish(s);
    return 0;
}

/* What the `game suspended` line adds when the latest turns may not be
 * kept (sess_play_game_fate): the store failing (all: not), or its
 * database not answering for store_wait_ms or more (one that hangs);
 * buf (len bytes) holds the latter. */
static const char *suspended_note(sess_t *s, int all, char *buf, size_t len)
{
    int wait = s->srv->cfg.store_wait_ms;
    if (!all)
        return "; the store is failing: the turns since its last write may "
               "be lost";
    if (!store_db_stalled(s->srv->store, (uint64_t)wait))
        return "";
    snprintf(buf, len, "; the store has not answered for %d ms or more: the "
             "turns since its last write may be lost", wait);
    return buf;
}

/* The game is over for this session, or the session is: the game is
 * recorded, kept for the account's next login, or not ours any more. */
static void play_leave(sess_t *s)
{
    st_play_t *p = &s->st.play;
    if (p->g.game) /* before it is kept, recorded or freed below */
        s->last_turns = (unsigned)p->g.game->turn;
    sess_guest_left(s);
    /* (a closing session's watchers are told at the end below: a guest's
     * kept game takes them along) */
    int left = p->g.game && !p->handed && s->close.requested;
    if (p->g.game && !p->handed && !s->close.requested) {
        /* back to the lobby: the watchers wait for the next game */
        follow_keep(s, p->watchers, p->nwatchers);
        p->watchers = NULL;
        p->nwatchers = p->capwatchers = 0;
    }
    if (!p->g.game || p->handed || p->recorded) {
        owned_game_free(&p->g);
    } else if (game_over(p->g.game) || p->end_cause) {
        /* the store takes the game */
        record_game(s, p->g.game, p->end_cause ? p->end_cause : "quit");
        p->g.game = NULL;
        owned_game_free(&p->g);
    } else if (s->lobby.account_id > 0) {
        /* No sweep comes after this one to send the game whole if keys
         * may have been lost: sent whole now. */
        int all = store_has_all(s);
        if (!all)
            p->progress_begun = 0;
        flush_progress(s);
        char note[160];
        log_info("game suspended id=%llu name=%s turns=%u (kept for the next "
                 "login%s)", (unsigned long long)s->id, sess_player_name(s),
                 (unsigned)p->g.game->turn,
                 suspended_note(s, all, note, sizeof note));
        owned_game_free(&p->g);
    } else if (sess_guest_keep(s, &p->g, &p->watchers, &p->nwatchers)) {
        /* A browser guest's: kept a while for the page to come back, its
         * watchers waiting with it. */
        p->capwatchers = 0;
    } else {
        /* A guest's game cut short by the connection is over: record it. */
        char cause[96];
        snprintf(cause, sizeof cause, "disconnected (%s)", s->close.reason);
        record_game(s, p->g.game, cause);
        p->g.game = NULL;
        owned_game_free(&p->g);
    }
    if (left)
        tell_watchers(s, MSG_WATCH_END, 0, "The player has left.");
    free(p->watchers);
    p->watchers = NULL;
    p->nwatchers = p->capwatchers = 0;
    drop_snapshot(p);
    dir_set_game(s->srv->dir, s->id, NULL);
}

/* 1 if s plays a game that is not over (nor handed on). */
static int game_on(const sess_t *s)
{
    const st_play_t *p = &s->st.play;
    return s->state == S_PLAYING && p->g.game && !p->handed &&
           !p->recorded && !p->end_cause && !game_over(p->g.game) &&
           !game_dead(p->g.game);
}

enum sess_game_fate sess_play_game_fate(sess_t *s)
{
    if (!game_on(s))
        return SESS_GAME_NONE;
    if (s->lobby.account_id <= 0)
        return SESS_GAME_ENDS; /* a guest's (its leave records it) */
    /* an account's: its leave saves it for the next login; with the
     * store's work on the database stalled for longer than a player
     * waits for the store (a database that hangs), its latest keys may
     * never be kept */
    int stalled = store_db_stalled(s->srv->store,
                                   (uint64_t)s->srv->cfg.store_wait_ms);
    return store_has_all(s) && !stalled ? SESS_GAME_KEPT
                                        : SESS_GAME_KEPT_BEHIND;
}

/* What a key reads of the game first (sess_state_ops_t.warm): the line of
 * its mode, turn and key count, and the player's. */
static void play_warm(const sess_t *s)
{
    const game_t *g = s->st.play.g.game;
    if (!g)
        return;
    prefetch_range(&g->mode, sizeof g->mode);
    prefetch_range(&g->player, sizeof g->player);
}

/* S in play: an account's game is saved and the player is back in the
 * lobby, where p goes on with it (the leave flushes it to the store, and
 * the lobby loads it again as after a login: docs/game.md, "Keys"). Not a
 * key of the game: nothing is recorded. A guest's game is not kept, and
 * while the store cannot write, leaving would lose the keys it lacks: the
 * player is told and plays on. 1 if the key was this. */
static int save_and_leave(sess_t *s, int key)
{
    const game_t *g = s->st.play.g.game;
    if (key != 'S' || g->mode != MODE_PLAY)
        return 0;
    if (s->lobby.account_id <= 0) {
        /* (Registering is in the lobby, and a guest reaches it only by
         * ending the game: no word of it here.) */
        sess_notice(s, SESS_NOTICE_SESSION, "A guest's game ends with the "
                 "connection: only an account's game is saved.");
        return 1;
    }
    if (!store_healthy(s->srv->store)) {
        sess_notice(s, SESS_NOTICE_SESSION, "The server cannot save your "
                 "game right now: play on, or try again later.");
        return 1;
    }
    sess_goto(s, S_LOBBY, NULL);
    s->st.lobby.saved = 1; /* (after sess_goto, which zeroes it) */
    lobby_note(&s->lobby, LOBBY_NOTE_GOOD, LOBBY_SAID_SAVED);
    sess_lobby_load_progress(s);
    return 1;
}

/* The screens over the map that Esc closes and nothing is lost by it:
 * aiming, a pack menu, Look, the help, the history, a count. Not
 * identify's menu (its scroll is read already). */
static int esc_closes(int mode)
{
    switch (mode) {
    case MODE_TARGET: case MODE_LOOK: case MODE_INVENTORY: case MODE_DROP:
    case MODE_THROW: case MODE_HISTORY: case MODE_HELP: case MODE_CHARACTER:
    case MODE_DISCOVERIES: case MODE_COUNT:
        return 1;
    default:
        return 0;
    }
}

static void play_key(sess_t *s, int key)
{
    st_play_t *p = &s->st.play;
    game_t *g = p->g.game;
    if (save_and_leave(s, key))
        return;
    /* Ctrl-C asks to quit from such a screen too, as in play (README): it
     * is closed first with Esc, as the player would close it, each a key
     * of the record, so that a replay is the same (a QA's Ctrl-C while
     * aiming did nothing). At most three: a throw's aiming, its menu. */
    for (int i = 0; key == KEY_CTRL_C && i < 3 && esc_closes(g->mode); i++)
        play_key(s, KEY_ESC);
    if (key == KEY_CTRL_C && esc_closes(g->mode))
        return; /* (a screen Esc did not close: left as it is) */
    if (game_dead(g)) {
        /* YOU DIED: the game is in the store already. */
        int choice = game_dead_choice(key);
        if (choice > 0) {
            /* Another game; the watchers follow. */
            owned_game_free(&p->g);
            drop_snapshot(p);
            if (new_game(s) != 0)
                return;
            for (int i = 0; i < p->nwatchers; i++)
                sess_post(s, MSG_WATCH_START, p->watchers[i], 0, summary(s),
                          "%s", sess_player_name(s));
            publish(s);
            sess_tell_state(s); /* the game's key bar again */
        } else if (choice < 0) {
            sess_goto(s, S_LOBBY, NULL);
        }
        return;
    }
    record_key(&p->g.rec, g, key);
    if (g->mode == MODE_QUIT_PROMPT) /* the game asks "Really quit?" */
        sess_notice(s, SESS_NOTICE_SESSION, "%s", s->lobby.account_id > 0
                 ? "y ends it for good; n then S saves it."
                 : "y ends this game for good.");
    take_snapshot(s);
    tell_watchers(s, MSG_WATCH_KEY, key, NULL);
    if (game_dead(g)) {
        /* Record it now, from a copy: the YOU DIED screen still draws g. */
        game_t *copy = game_clone(g);
        if (copy)
            record_game(s, copy, NULL);
        else
            log_error("game over id=%llu: out of memory, game not recorded",
                      (unsigned long long)s->id);
        p->recorded = 1;
        /* what the store cannot take while its writes fail is lost: not
         * said, the player would take the game for recorded */
        if (!store_healthy(s->srv->store))
            sess_notice(s, SESS_NOTICE_SESSION, "The server cannot record "
                        "games right now: this one may be lost.");
        sess_tell_state(s); /* the end screen's key bar */
    } else if (game_over(g)) {
        /* Q then y: the game is over for good; the lobby says so, since
         * no end screen did (and, as above, when it may be lost) */
        if (store_healthy(s->srv->store))
            lobby_note(&s->lobby, LOBBY_NOTE_INFO, "You quit your game at "
                       "depth %d, turn %u: it has ended.", g->depth,
                       (unsigned)g->turn);
        else
            lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Quit at depth %d, turn "
                       "%u. It may be lost: the server cannot save now.",
                       g->depth, (unsigned)g->turn); /* (76 at most) */
        sess_goto(s, S_LOBBY, NULL);
        return;
    } else if (p->g.rec.truncated) {
        /* The record is full: a game must never go on past what can be
         * kept, or a resume would roll it back. It ends here, whole. */
        p->end_cause = "stopped: too long to record";
        lobby_note(&s->lobby, LOBBY_NOTE_BAD, "Your game reached the longest "
                   "record this server keeps (%u keys) and was recorded as "
                   "it stands.", (unsigned)p->g.rec.nkeys);
        sess_goto(s, S_LOBBY, NULL);
        return;
    }
    publish_progress(s);
}

/* The game, for whoever goes on with it: the store brought up to date,
 * the summary with the watchers moved into it; the game is not ours to
 * end any more. NULL when it does not go on (over, or out of memory). */
static msg_game_t *hand_off(sess_t *s, const char *end)
{
    st_play_t *p = &s->st.play;
    msg_game_t *gs = NULL;
    if (end) {
        p->end_cause = end; /* recorded by the leave */
        /* the player moves to the lobby: its watchers wait for the next
         * game there (told so here, so that each moves waiting whichever
         * loop packs it first, and the player's blob names them) */
        follow_keep(s, p->watchers, p->nwatchers);
        p->watchers = NULL;
        p->nwatchers = p->capwatchers = 0;
        return NULL;
    }
    /* If the store may lack keys, the game is sent whole now (another
     * host goes on from the database), and whoever goes on from this
     * game sends it whole again (these writes may fail too), as this
     * session would have once writes work again. */
    int all = store_has_all(s);
    if (!p->recorded && !game_dead(p->g.game)) {
        if (!all)
            p->progress_begun = 0;
        flush_progress(s); /* the store is up to date whatever follows */
        gs = summary(s);
    }
    if (gs) {
        gs->progress_begun = all ? p->progress_begun : 0;
        gs->progress_sent = all ? p->progress_sent : 0;
        gs->claim = s->claim;
        gs->watchers = p->watchers; /* moved */
        gs->nwatchers = p->nwatchers;
        p->watchers = NULL;
        p->nwatchers = p->capwatchers = 0;
        p->handed = 1;
    }
    return gs;
}

/* Hands the game to the account's new login, then goes. */
static void hand_over(sess_t *s, uint64_t to)
{
    msg_game_t *gs = hand_off(s, NULL);
    if (gs) {
        for (int i = 0; i < gs->nwatchers; i++)
            sess_post(s, MSG_WATCH_MOVED, gs->watchers[i], (int64_t)to, NULL,
                      "%s", "");
        log_info("takeover id=%llu takes the game of id=%llu",
                 (unsigned long long)to, (unsigned long long)s->id);
    }
    sess_post(s, MSG_TAKEOVER_DONE, to, 0, gs, NULL);
    if (s->lobby.account_id > 0)
        sess_close(s, "logged in elsewhere", 1,
                   "Your account has logged in from elsewhere. Goodbye.");
    else /* a browser guest's page came back on a new connection */
        sess_close(s, "resumed elsewhere", 1,
                   "Your game goes on in another window. Goodbye.");
}

/* Another host went on with the account's game from the database (a
 * login there while this host could not be asked: cluster_single.c; or
 * the store refused this session's writes for a later login's claim):
 * this session goes writing nothing more of its game, which would be
 * appended to that host's, or end it. why: for the log. */
static void let_go_unsaved(sess_t *s, const char *why)
{
    st_play_t *p = &s->st.play;
    tell_watchers(s, MSG_WATCH_END, 0, "The game moved to another host.");
    p->handed = 1; /* not ours to end, nor to save */
    p->progress_begun = 0;
    log_info("takeover id=%llu: %s: let go unsaved at turn %u",
             (unsigned long long)s->id, why,
             p->g.game ? (unsigned)p->g.game->turn : 0u);
    sess_close(s, "logged in elsewhere", 1,
               "Your account has logged in from elsewhere. Goodbye.");
}

static int play_msg(sess_t *s, smsg_t *m)
{
    st_play_t *p = &s->st.play;
    switch (m->type) {
    case MSG_WATCH_JOIN: {
        const char *why = unwatchable(s);
        msg_game_t *gs = why ? NULL : summary(s);
        if (!why && (!gs || add_watcher(p, m->from) != 0)) {
            msg_game_free(gs);
            gs = NULL;
            why = "Out of memory: try again later.";
        }
        if (why) {
            sess_post(s, MSG_WATCH_REFUSED, m->from, 0, NULL, "%s", why);
            return 1;
        }
        sess_post(s, MSG_WATCH_START, m->from, 0, gs, "%s", sess_player_name(s));
        log_info("watch id=%llu watches id=%llu name=%s (%d watching)",
                 (unsigned long long)m->from, (unsigned long long)s->id,
                 sess_player_name(s), p->nwatchers);
        publish(s);
        sess_owe_frame(s); /* the screen counts its watchers */
        return 1;
    }
    case MSG_WATCH_LEAVE:
        drop_watcher(p, m->from);
        publish(s);
        sess_owe_frame(s);
        return 1;
    case MSG_TAKEOVER:
        if (m->a == MSG_TAKEOVER_UNSAVED)
            let_go_unsaved(s, "the game goes on on another host");
        else
            hand_over(s, m->from);
        return 1;
    default:
        return 0;
    }
}

/* The player's own count of watchers: a note, so only where a log row has
 * room for it, never over a word, and not on a full page, where a row's
 * end is no log's (a play-test met it over the help's lines). */
static void play_draw(sess_t *s, screen_t *next)
{
    const st_play_t *p = &s->st.play;
    sess_view_draw(s, p->g.game, next);
    if (p->nwatchers > 0 && view_fits(next->w, next->h) &&
        !view_full_page(p->g.game)) {
        char line[32];
        snprintf(line, sizeof line, " %d watching ", p->nwatchers);
        const char *const forms[] = {line, NULL};
        sess_overlay_line(s, next, forms, COL_BCYAN, 0);
    }
}

static void play_sweep(sess_t *s, uint64_t now)
{
    (void)now;
    st_play_t *p = &s->st.play;
    if (s->lobby.account_id > 0 && !p->handed &&
        store_progress_claimed(s->srv->store, s->lobby.account_id, s->claim)) {
        /* A later login took the game from the database (another host,
         * while this one could not reach it): the store refuses what this
         * session writes, and its player goes as for any later login. */
        let_go_unsaved(s, "a later login's claim holds the game");
        return;
    }
    if (s->lobby.account_id > 0 && !p->recorded) {
        /* (counted before the health is read: a failure in between is
         * then seen at the next sweep) */
        uint64_t failed = store_failed_batches(s->srv->store);
        if (!store_healthy(s->srv->store)) {
            /* The host's log says it once; the player is told while it
             * lasts. */
            if (!s->notice[0]) {
                sess_notice(s, SESS_NOTICE_SESSION,
                            "The server cannot save your game right now.");
                sess_owe_frame(s);
            }
        } else if (failed != p->store_failed) {
            /* Writes work again, but a batch failed since the store had
             * every key (even one between two sweeps): keys handed over
             * meanwhile may be lost, so the store gets the whole game
             * again, from its begin. */
            p->store_failed = failed;
            p->progress_begun = 0;
            log_info("progress id=%llu: sent again whole after the store "
                     "recovered", (unsigned long long)s->id);
        }
    }
    flush_progress(s); /* an account's new keys, at least once a second */
}

/* O opens the options screen while a game is played and O is no game key
 * (docs/game.md). */
static int play_opens_options(const sess_t *s, int key)
{
    return key == 'O' && s->st.play.g.game &&
           s->st.play.g.game->mode == MODE_PLAY &&
           !game_dead(s->st.play.g.game);
}

const sess_state_ops_t sess_play_ops = {
    .name = "playing",
    .enter = play_enter,
    .leave = play_leave,
    .key = play_key,
    .msg = play_msg,
    .draw = play_draw,
    .sweep = play_sweep,
    .opens_options = play_opens_options,
    .hand_off = hand_off,
    .warm = play_warm,
};
