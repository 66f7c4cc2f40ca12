/* session.h - one connection: its socket, telnet state, key decoder, the
 * screen last sent, its output accounting and its game.
 *
 * One owner: the server's list holds the session; sess_close starts the end,
 * and the session is freed in the close callback of its last handle, nowhere
 * else. */
#ifndef ROGUE_SESSION_H
#define ROGUE_SESSION_H

#include <stddef.h> /* libtelnet.h uses size_t without including it */
#include <libtelnet.h>
#include <stdint.h>
#include <uv.h>

#include "game.h"
#include "keydec.h"
#include "lobby.h"
#include "record.h"
#include "screen.h"
#include "screen_diff.h"
#include "server.h"
#include "tnfilter.h"

enum sess_state {
    S_NEGOTIATING = 0, /* waiting (bounded) for the client's telnet answers */
    S_LOBBY,           /* the menu, prompts, scores (lobby.h) */
    S_PLAYING,         /* a game (s->game) */
    S_WATCHING,        /* a copy of another session's game (s->game) */
    S_REPLAY,          /* a finished game played back (s->game) */
    S_CLOSING          /* no more input; handles closing or output draining */
};

typedef struct sess {
    struct sess *prev, *next;  /* srv->sessions */
    srv_t *srv;
    uint64_t id;
    uv_tcp_t tcp;
    uv_timer_t timer;          /* negotiation deadline, then close deadline */
    uv_timer_t esc_timer;      /* a held Esc becomes a key after 100 ms */
    uv_shutdown_t shutdown_req;
    int open_handles;          /* freed when this reaches 0 after closing */
    int handles_closing;
    uint8_t state;             /* enum sess_state */
    uint8_t telnet_peer;       /* the client has sent telnet commands */
    uint8_t got_echo, got_naws, ttype_done, ttype_asks;
    uint8_t need_render, dirty, warned_idle, refused;
    char ttype[40];
    char addr[64];             /* "ip:port" for the log */
    telnet_t *telnet;
    tnfilter_t filter;
    keydec_t keys;
    term_state_t term;
    screen_t shown;            /* what the client's terminal shows */
    int w, h;
    size_t queued;             /* bytes handed to libuv, not yet written */
    uint64_t started_ms, last_input_ms, last_output_ms;
    uint64_t drained_ms;       /* the queue last shrank or was empty */
    double key_tokens;         /* keys-per-second bucket */
    uint64_t key_tokens_ms;
    char notice[80];           /* a host line over the log, until the next key */
    game_t *game;              /* S_PLAYING: the game; S_WATCHING: a copy of
                                  the watched one; S_REPLAY: the one played
                                  back; S_LOBBY: NULL, or an account's game
                                  held to continue */
    record_t rec;              /* the game's record (keys go through it);
                                  S_REPLAY: the record played back */
    int64_t game_started;      /* Unix seconds, for the store */
    uint8_t game_recorded;     /* the store has this game already (it died) */
    size_t progress_sent;      /* bytes of rec.keys the store has (resume) */
    uint8_t progress_begun;    /* the store has this game's begin */
    lobby_t lobby;
    /* Watching (session_watch.c). A player's watchers are a list through
     * wprev/wnext headed at its `watchers`; a watcher's `watched` is the
     * player's session. Both ends unlink in sess_watch_detach. */
    struct sess *watched;      /* S_WATCHING: whose game */
    struct sess *watchers;     /* S_PLAYING: who watches */
    struct sess *wprev, *wnext;
    int nwatchers;
    /* Replaying (session_replay.c): the finished game's record is in rec,
     * its next key at replay_pos; s->timer ticks the keys. */
    size_t replay_pos;
    uint8_t replay_speed;      /* index into the speed table */
    uint8_t replay_paused, replay_done;
    char replay_name[ACCT_NAME_MAX + 1];
} sess_t;

/* Accepts a pending connection from the listener into a new session.
 * Refuses it (one line, close) when the server is full or shutting down. */
void sess_accept(srv_t *srv);

/* Starts closing a session. graceful: say `message` (may be NULL), restore
 * the terminal, flush and shut the socket down (bounded by a deadline);
 * otherwise drop it at once. Safe to call more than once. */
void sess_close(sess_t *s, const char *reason, int graceful,
                const char *message);

/* The once-a-second check: idle warning and timeout, keepalive. */
void sess_sweep(sess_t *s, uint64_t now_ms);

/* Hands the gathered telnet output of its owner to libuv. */
void sess_flush(sess_t *s);

/* --- between session.c and session_play.c ------------------------------- */

/* libtelnet's event handler for every session (user data: the session). */
void sess_telnet_event(telnet_t *t, telnet_event_t *ev, void *user);

/* Sends bytes to the client through telnet (IAC doubled), gathered until
 * sess_flush. */
void sess_send(sess_t *s, const void *data, size_t len);

/* Leaves negotiation: sets up the terminal and paints the first screen. */
void sess_start_play(sess_t *s);

/* Writes a host line right-aligned in row 0, black on bg (above the map
 * at 80 columns, beside it on wider terminals): who is watched, the
 * replay's speed. */
void sess_overlay_line(screen_t *next, const char *text, uint8_t bg);

/* Turns xterm mouse reporting on or off as aiming starts or ends (was_on:
 * whether it is on now). */
void sess_set_mouse(sess_t *s, int was_on, int on);

/* Renders now and flushes: for changes that come from outside the
 * session's own read (a store answer, another session, a timer). */
void sess_redraw(sess_t *s);

/* Draws the game and sends the difference from what the client shows,
 * ended by the frame marker; skipped (marked dirty) while output is backed up. */
void sess_render(sess_t *s);

/* A held Esc's deadline passed: let the decoder give up on the sequence. */
void sess_esc_timeout(sess_t *s);

/* --- session_game.c: a game's life inside a session ---------------------- */

/* Starts a new game (a new seed) under the lobby's player name: S_PLAYING.
 * Returns 0, or -1 after closing the session (out of memory). */
int sess_game_start(sess_t *s);

/* Feeds a key to the game (through its record) and handles what follows:
 * a death is recorded in the store at once; quitting returns to the lobby. */
void sess_game_key(sess_t *s, int key);

/* The game is over for the session (the player left it, or the connection
 * is closing): records it unless done already (cause: why it ended, for a
 * game that did not end in death), frees it, and leaves S_PLAYING. */
void sess_game_end(sess_t *s, const char *cause);

/* Hands the store the key bytes of an account's game it does not have yet
 * (once a second, from the sweep, and before a disconnect). */
void sess_game_flush(sess_t *s);

/* The connection is closing (its watchers detached already): an
 * account's game in progress is kept in the store (flushed, then freed
 * here) for the next login; a guest's, or one recorded already, ends as
 * sess_game_end(s, cause). */
void sess_game_suspend(sess_t *s, const char *cause);

/* Plays on the game held in the lobby after a login (s->game and s->rec,
 * rebuilt from the store by record_resume; s->game_started set): S_PLAYING. */
void sess_game_continue(sess_t *s);

/* --- session_watch.c: watching another session's game ------------------------ */

/* Starts watching the game of the session with id `id`: the watcher
 * rebuilds the game from its record (seed and keys) and is fed every key
 * the player presses from then on. Returns 0, or -1 (no such game, a game
 * of its own held to continue, out of memory: the lobby says which). */
int sess_watch_start(sess_t *s, uint64_t id);

/* A key from a watcher: q (or Esc) leaves, anything else is ignored. */
void sess_watch_key(sess_t *s, int key);

/* The player fed `key` to its game: every watcher's copy gets it too. */
void sess_watch_forward(sess_t *player, int key);

/* Unlinks s from whatever watching it is part of: a watcher stops
 * watching (its copy is freed); a player's watchers are sent back to the
 * lobby with `why` (may be NULL). */
void sess_watch_detach(sess_t *s, const char *why);

/* Overlays the watch line (who is watched, or how many watch) on next. */
void sess_watch_overlay(const sess_t *s, screen_t *next);

/* Fills the lobby's list of games in progress. */
void sess_watch_list(sess_t *s);

/* --- session_replay.c: playing a finished game back ------------------------------ */

/* Plays back the encoded record (copied) of a game `name` played:
 * S_REPLAY. Returns 0, or -1 (a record that does not decode: the lobby
 * says so). */
int sess_replay_begin(sess_t *s, const char *name, const void *rec, size_t len);

/* Space pauses, + and - change the speed, . steps while paused, q leaves. */
void sess_replay_key(sess_t *s, int key);

/* Ends the playback (its timer, its game and record); the caller says
 * where the session goes next. */
void sess_replay_stop(sess_t *s);

/* Overlays the playback line (speed, paused, the end) on next. */
void sess_replay_overlay(const sess_t *s, screen_t *next);

/* --- session_lobby.c: the lobby inside a session ---------------------------- */

/* Shows the lobby (after negotiation, and after every game). */
void sess_lobby_enter(sess_t *s);

/* A key in the lobby: drives lobby.h and the store calls it asks for. */
void sess_lobby_key(sess_t *s, int key);

/* Draws the lobby into next at the session's size. */
void sess_lobby_draw(sess_t *s, screen_t *next);

#endif
