/* guest_grace.h - a guest's game kept for a while after its connection
 * drops, so that the browser page (or any client that kept the token) can
 * come back to it: a phone that changes network or sleeps does not lose
 * the game (docs/telnet.md, "The browser"; docs/hosting.md, guest_grace).
 *
 * A kept game is found by its token (GRACE_TOKEN_LEN hex characters the
 * server drew at random and gave the page), ends after `grace_ms` unless
 * taken back, and there are at most `max` at once: past that the game ends
 * as it did before this existed (recorded as a disconnect). One table
 * serves every worker loop: each call takes its mutex; a game is moved in
 * and out, never shared. It also knows which session plays each token's
 * game now (the "live" list, one entry a browser guest's game), so that a
 * page back before the server saw its old connection drop takes the game
 * over from that session. The clock is the caller's (`now`, ms), so tests
 * drive expiry themselves. No I/O, no libuv. */
#ifndef ROGUE_GUEST_GRACE_H
#define ROGUE_GUEST_GRACE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "accounts.h"
#include "game.h"
#include "record.h"

#define GRACE_TOKEN_LEN 32

/* What is kept: the game, its record, its start, and whose it was. */
typedef struct grace_game {
    char token[GRACE_TOKEN_LEN + 1];
    char name[ACCT_NAME_MAX + 1];
    game_t *game;              /* owned while kept */
    record_t rec;
    int64_t started;           /* Unix seconds */
    uint64_t expires;          /* ms, on the caller's clock */
    uint64_t session;          /* the session that played it: its
                                  watchers' messages came from it */
    uint64_t *watchers;        /* their sessions, waiting for the page to
                                  come back (owned while kept; may be
                                  NULL) */
    int nwatchers;
} grace_game_t;

/* A token's game being played, and by which session. */
typedef struct grace_live {
    char token[GRACE_TOKEN_LEN + 1];
    char name[ACCT_NAME_MAX + 1];
    uint64_t id;
} grace_live_t;

/* A kept game's sessions: from the one that dropped to the one its page
 * came back on (grace_moved). */
#define GRACE_MOVED 256
typedef struct grace_move {
    uint64_t from, to;
} grace_move_t;

typedef struct guest_grace {
    pthread_mutex_t mu;        /* every field below */
    grace_move_t moved[GRACE_MOVED]; /* the latest, a ring */
    unsigned nmoved;           /* written so far (the next slot: % size) */
    grace_game_t *kept;        /* [n] of [max] */
    int n, max;
    uint64_t grace_ms;
    grace_live_t *live;        /* [nlive] of [caplive], grown as needed */
    int nlive, caplive;
} guest_grace_t;

/* An empty table for at most max games kept grace_ms each (either 0: none
 * is ever kept). Returns 0, or -1 (out of memory). */
int grace_init(guest_grace_t *gg, int max, uint64_t grace_ms);

/* Frees the table and any game still in it (grace_drain first to end
 * them properly). */
void grace_free(guest_grace_t *gg);

/* A new token: GRACE_TOKEN_LEN hex characters from the system's random
 * source, and a NUL. Returns 0, or -1 (no randomness: keep nothing). */
int grace_token(char out[GRACE_TOKEN_LEN + 1]);

/* Whether t is a token as grace_token draws them. */
int grace_token_valid(const char *t);

/* Whether two valid tokens are equal, compared in a time that does not
 * depend on where they differ (a token is a secret: it resumes someone's
 * game, or logs an account in: login_tokens.h). */
int grace_token_same(const char *a, const char *b);

/* Keeps g (its game and record, moved in: *g is zeroed) under token until
 * now + grace_ms. Returns 0, or -1 if it is not kept (no room, grace off,
 * a bad token): g is then still the caller's. */
int grace_keep(guest_grace_t *gg, const char *token, const char *name,
               grace_game_t *g, uint64_t now);

/* Takes back the game kept under token and not expired at now: 1 and it
 * in *out (the caller's from now on), or 0. */
int grace_take(guest_grace_t *gg, const char *token, uint64_t now,
               grace_game_t *out);

/* Hands every game expired at now (every game if all is set) to end(ctx,
 * game), which takes it, and forgets it. Returns how many. end is called
 * outside the lock. */
int grace_drain(guest_grace_t *gg, uint64_t now, int all,
                void (*end)(void *ctx, grace_game_t *g), void *ctx);

/* Games kept now. */
int grace_count(guest_grace_t *gg);

/* Calls each(ctx, name, turn, left_ms) for every game kept and not
 * expired at now (left_ms: until it ends), for the console's `who`: a
 * host sees the games that are nobody's session. Called under the lock:
 * each must not call back into gg. Returns how many. */
int grace_list(guest_grace_t *gg, uint64_t now,
               void (*each)(void *ctx, const char *name, unsigned turn,
                            uint64_t left_ms),
               void *ctx);

/* The game session `from` played goes on on session `to` (its page came
 * back): a /watch/FROM link, which a watcher shared, watches it there. */
void grace_moved(guest_grace_t *gg, uint64_t from, uint64_t to);

/* The session a game played on session id goes on on now, following its
 * moves (at most GRACE_MOVED of the latest); id itself if it never
 * moved. */
uint64_t grace_moved_to(guest_grace_t *gg, uint64_t id);

/* 1 if the game session id played is kept now (its page dropped), with
 * the player's name in name (ACCT_NAME_MAX + 1 bytes); else 0. */
int grace_kept_of(guest_grace_t *gg, uint64_t id, char *name);

/* Session id plays token's game (as name) from now on. Returns 0, or -1
 * (out of memory: the game cannot be taken over, only kept). */
int grace_live_set(guest_grace_t *gg, const char *token, const char *name,
                   uint64_t id);

/* Session id no longer plays token's game (another may: then nothing). */
void grace_live_clear(guest_grace_t *gg, const char *token, uint64_t id);

/* The session playing token's game: 1, its id and the player's name, or
 * 0. */
int grace_live_find(guest_grace_t *gg, const char *token, uint64_t *id,
                    char name[ACCT_NAME_MAX + 1]);

#endif
