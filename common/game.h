/* game.h - one game: the whole state of one player's dungeon.
 *
 * The core is a state machine behind a handle: game_new, game_key, game_free.
 * It does no I/O, reads no clock, has no globals and picks no seed of its own,
 * so (version, seed, options, keys) replays a game exactly. Every game owns
 * all of its memory in one allocation; instances share nothing. */
#ifndef ROGUE_GAME_H
#define ROGUE_GAME_H

#include <stdint.h>

#include "map.h"
#include "rng.h"

#define GAME_VERSION 1

#define LOG_MAX 64      /* lines of message history kept */
#define MSG_LEN 80      /* bytes of one message, NUL included */

/* What a key does depends on the mode: menus and prompts are states here,
 * never nested input loops. */
enum game_mode {
    MODE_PLAY = 0,
    MODE_HELP,         /* the key list; any key returns */
    MODE_QUIT_PROMPT,  /* "Really quit? (y/n)" */
    MODE_OVER          /* the player asked to quit: the host says goodbye */
};

/* Kinds of log line; the view gives each its own colour. */
enum msg_kind {
    MSG_SYSTEM = 0,
    MSG_INFO,
    MSG_GOOD,      /* your hits, pick-ups */
    MSG_BAD,       /* hits on you */
    MSG_KILL,
    MSG_LEVEL,
    MSG_WARN
};

typedef struct game_options {
    int reserved; /* combat ruleset and the like arrive here; 0 = defaults */
} game_options_t;

typedef struct msg {
    char text[MSG_LEN];
    uint8_t kind;   /* enum msg_kind */
} msg_t;

typedef struct player {
    int x, y;
    int hp, max_hp;
    int attack, defense;
    int level, xp, gold;
} player_t;

typedef struct game {
    uint64_t seed;
    game_options_t opt;
    rng_t rng;          /* rules: every outcome */
    rng_t fx;           /* cosmetic only: never changes an outcome */
    map_t map;
    uint8_t visible[MAP_H][MAP_W];
    player_t player;
    int depth;
    uint32_t turn;      /* turns taken */
    uint32_t keys;      /* keys fed, turn or not */
    uint8_t mode;       /* enum game_mode */
    msg_t log[LOG_MAX]; /* ring: log[(log_head + i) % LOG_MAX], i < log_count */
    int log_head, log_count;
} game_t;

/* A new game from a seed. opt may be NULL (defaults). NULL on OOM. */
game_t *game_new(uint64_t seed, const game_options_t *opt);

/* Frees a game (NULL is fine). */
void game_free(game_t *g);

/* Feeds one key (keys.h). Returns 1 if it took a turn, 0 if not. */
int game_key(game_t *g, int key);

/* 1 once the player has confirmed quitting. */
int game_over(const game_t *g);

/* The i-th newest message (0 = newest), or NULL past the history. */
const msg_t *game_msg(const game_t *g, int i);

/* Adds a line to the message log (printf-style; truncated to MSG_LEN-1). */
void game_log(game_t *g, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A 64-bit hash of everything that decides the game's future: for replay
 * checks and determinism tests. */
uint64_t game_hash(const game_t *g);

#endif
