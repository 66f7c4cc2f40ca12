/* directory.h - who is on this server: every session by id, the loop it
 * lives on, the account it is logged in to, and a summary of each game in
 * progress (the lobby's list of games and its counts).
 *
 * Sessions publish their own line (dir_set_account, dir_set_game) and ask
 * about the others only through this directory, never by reading another
 * session. One directory serves every worker loop: each call takes its
 * mutex for the time of a lookup or a copy, and answers are copies, never
 * pointers into the table. No I/O, no libuv. Lookups by id are O(1) (open
 * addressing), so delivering a message costs the same with 10,000
 * sessions as with 10. */
#ifndef ROGUE_DIRECTORY_H
#define ROGUE_DIRECTORY_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "accounts.h"

/* The fields a key writes (dir_set_progress) first, and in dir_entry_t
 * right after what finds the entry: an entry's first 32 bytes, one line
 * of memory in three of four entries (docs/performance.md, "A key's cold
 * lines"). */
typedef struct dir_game {
    uint64_t last_input_ms;     /* the player's last key, loop time */
    int depth, turns, watchers;
    char name[ACCT_NAME_MAX + 1];
} dir_game_t;

typedef struct dir_entry {
    uint64_t id;                /* 0: a free slot */
    uint8_t playing;            /* game is set */
    int loop;                   /* the worker loop it lives on */
    dir_game_t game;
    void *sess;                 /* the session, for delivering messages on
                                   its own loop (only that loop may use it) */
    int64_t account_id;         /* 0: none logged in */
    int64_t claim;              /* the claim its account's game was loaded
                                   under (store.h), 0: none yet; by it the
                                   later of two hosts' sessions of an
                                   account is told (cluster_single.c) */
} dir_entry_t;

typedef struct directory {
    pthread_mutex_t mu;         /* every field below */
    dir_entry_t *slots;
    size_t cap;                 /* a power of two, or 0 */
    size_t n;                   /* entries */
    size_t ngames;              /* entries playing */
} directory_t;

void dir_init(directory_t *d);
void dir_free(directory_t *d);

/* Adds session `id` (> 0, not present) living on `loop`. Returns 0, or -1
 * (OOM). */
int dir_add(directory_t *d, uint64_t id, void *sess, int loop);

/* Removes it (absent: nothing). */
void dir_remove(directory_t *d, uint64_t id);

/* Copies session id's entry into *out: 1, or 0 if there is none. */
int dir_lookup(directory_t *d, uint64_t id, dir_entry_t *out);

/* Sessions, and games in progress, on every loop. */
size_t dir_count(directory_t *d);
size_t dir_ngames(directory_t *d);

/* The session's account (0: none). */
void dir_set_account(directory_t *d, uint64_t id, int64_t account_id);

/* The session's claim on its account's game (0: none). */
void dir_set_claim(directory_t *d, uint64_t id, int64_t claim);

/* The session's game in progress (NULL: none). */
void dir_set_game(directory_t *d, uint64_t id, const dir_game_t *g);

/* The progress of the session's game, set with dir_set_game: its depth,
 * turns and the player's last key (what changes as the game is played;
 * the name and the watchers stay). Nothing if no game is set. */
void dir_set_progress(directory_t *d, uint64_t id, int depth, int turns,
                      uint64_t last_input_ms);

/* The ids of up to max sessions logged in to account_id, but `except`.
 * Returns how many. */
int dir_sessions_of(directory_t *d, int64_t account_id,
                    uint64_t except, uint64_t *out, int max);

/* 1 if a game in progress but except's is played under `name` (letters'
 * case aside, as account names are compared), else 0. A scan of the
 * table: asked once a guest's name is typed, not a key. */
int dir_name_playing(directory_t *d, const char *name, uint64_t except);
/* Up to max games in progress but except's, lowest session id first (the
 * order they started in). Returns how many; out[i] are copies. */
int dir_games(directory_t *d, uint64_t except, dir_entry_t *out,
              int max);

/* Up to max sessions logged in to an account: ids[i] and accounts[i], in
 * no order. Returns how many. (A host of a cluster publishes them: the
 * login of an account on another host finds where it plays.) */
int dir_accounts(directory_t *d, uint64_t *ids, int64_t *accounts, int max);

#endif
