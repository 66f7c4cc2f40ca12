/* game.h - one game: the whole state of one player's dungeon.
 *
 * The core is a state machine behind a handle: game_new, game_key, game_free.
 * It does no I/O, reads no clock, has no globals and picks no seed of its own,
 * so (version, seed, options, keys) replays a game exactly. Every game owns
 * all of its memory in one allocation; instances share nothing. */
#ifndef ROGUE_GAME_H
#define ROGUE_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "item.h"
#include "map.h"
#include "monster.h"
#include "rng.h"
#include "target.h"

/* 2: monsters, combat rulesets (options.ruleset), death, items on the floor.
 * 3: items, the pack, targeting and click keys, stairs and depth.
 * 4: the same rules as 3; game_hash (the checks in records) is another
 *    function, of a smaller state (monster_t, item_t). */
/* 5: fourteen monster kinds (behaviours: monster.h), equipment, the Amulet
 *    and the win, a stacking pack with stable letters, running, travel,
 *    autoexplore, look, compact dice-pool lines; docs/game.md. */
#define GAME_VERSION 5

/* The Amulet lies on the last level, which has no stairs down. */
#define GAME_AMULET_DEPTH 12
/* A win adds this to the score. */
#define GAME_WIN_SCORE 1000
/* Running, travel and autoexplore take at most this many steps a key. */
#define GAME_RUN_MAX 200

#define LOG_MAX 128     /* lines of message history kept (`P` shows them) */
#define MSG_LEN 80      /* bytes of one message, NUL included */

/* What a key does depends on the mode: menus and prompts are states here,
 * never nested input loops. */
enum game_mode {
    MODE_PLAY = 0,
    MODE_HELP,         /* the key list; any key returns */
    MODE_QUIT_PROMPT,  /* "Really quit? (y/n)" */
    MODE_OVER,         /* the player asked to quit: the host says goodbye */
    MODE_HISTORY,      /* the whole message log, paged; Esc returns */
    MODE_DEAD,         /* YOU DIED: the host reads the next key (a new game
                          or goodbye); the game takes no more keys */
    MODE_INVENTORY,    /* the pack: a letter uses that item; Esc returns */
    MODE_DROP,         /* the pack: a letter drops that item; Esc returns */
    MODE_TARGET,       /* aiming a scroll (target.h); Esc cancels */
    MODE_WON,          /* the Amulet taken: like MODE_DEAD, the host reads
                          the next key; the game takes no more keys */
    MODE_LOOK,         /* a cursor describes what is on a tile; Esc ends */
    MODE_CHARACTER     /* the character screen (`@`/`C`); any key returns */
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

/* Everything about a game that is not its seed or keys. All zero is the
 * default game. */
typedef struct game_options {
    int ruleset;  /* enum ruleset (combat.h); 0 = attack-defense */
} game_options_t;

typedef struct msg {
    char text[MSG_LEN];
    uint8_t kind;   /* enum msg_kind */
    uint8_t pad[3]; /* always 0 */
    uint32_t seq;   /* lines logged before this one, over the whole game */
} msg_t;

typedef struct player {
    int x, y;
    int hp, max_hp;
    int attack, defense; /* attack grows by 1 a level: game.c player_fighter
                            turns the gain into each ruleset's terms */
    int level, xp, gold;
    int weapon, armor;   /* pack slots wielded and worn, -1: none */
    int poison;          /* turns of poison left: 1 hp a turn */
} player_t;

#define MAX_ITEMS 256   /* floor items of a level: things, corpses, gold */

/* game_t.killer: what killed the player. */
#define KILLER_NONE 0
/* 1..MON_COUNT: the monster kind + 1 */
#define KILLER_FIREBALL 255 /* the player's own fireball */
#define KILLER_WON 254      /* not a death: the Amulet taken (MODE_WON) */

/* Score: XP + gold + 100 for each level below the first (+ GAME_WIN_SCORE
 * for a win). */
#define GAME_DEPTH_SCORE 100

typedef struct game {
    uint64_t seed;
    game_options_t opt;
    rng_t rng;          /* rules: every outcome */
    rng_t fx;           /* cosmetic only: never changes an outcome */
    map_t map;
    uint8_t visible[MAP_H][MAP_W];
    player_t player;
    monster_t monsters[MAX_MONSTERS]; /* dead ones stay, alive == 0 */
    item_t items[MAX_ITEMS];          /* type ITEM_NONE: a free slot */
    int depth;
    uint32_t turn;      /* turns taken */
    uint32_t keys;      /* keys fed, turn or not */
    uint8_t mode;       /* enum game_mode */
    uint8_t killer;     /* KILLER_*, or the monster kind + 1 */
    uint8_t pad[2];     /* always 0 */
    uint8_t pack[PACK_SIZE]; /* the item kind in each slot a-z (0 if empty) */
    uint8_t pad2[2];    /* always 0 */
    uint8_t pack_n[PACK_SIZE]; /* how many of it (0: the slot is empty) */
    uint8_t pad3[2];    /* always 0 */
    int pack_count;     /* slots in use (letters stay with their items, so
                           the used slots need not be the first ones) */
    target_t target;    /* MODE_TARGET: the cursor and the scroll */
    int kills;
    int hist_off;       /* MODE_HISTORY: lines scrolled back from the newest;
                           MODE_HELP: the page */
    uint32_t log_total; /* lines ever logged */
    uint32_t log_fresh; /* log_total when the last key that did anything
                           began: the lines after it are new (they stand
                           out) */
    msg_t log[LOG_MAX]; /* ring: log[(log_head + i) % LOG_MAX], i < log_count */
    int log_head, log_count;
} game_t;

/* A new game from a seed. opt may be NULL (defaults). NULL on OOM. */
game_t *game_new(uint64_t seed, const game_options_t *opt);

/* A copy of g that shares nothing with it (NULL on OOM): a game is one
 * allocation with no pointers. */
game_t *game_clone(const game_t *g);

/* Frees a game (NULL is fine). */
void game_free(game_t *g);

/* Feeds one key (keys.h). Returns 1 if it took a turn, 0 if not. */
int game_key(game_t *g, int key);

/* 1 once the player has confirmed quitting. */
int game_over(const game_t *g);

/* 1 once the game has ended by death (MODE_DEAD) or by a win (MODE_WON).
 * The core takes no more keys; the host records the game and offers a new
 * one (with a new seed: the core picks none) or goodbye. */
int game_dead(const game_t *g);

/* 1 once the player has taken the Amulet (MODE_WON; game_dead is 1 too). */
int game_won(const game_t *g);

/* 1 if the i-th newest message (0 = newest) came from the last key that
 * did anything: the view makes such lines stand out. */
int game_msg_is_new(const game_t *g, int i);

/* What is on tile (x, y) as the player knows it, into buf: "a goblin
 * (badly hurt)", "a health potion", "the stairs down", "a wall", "unknown".
 * Returns buf. */
const char *game_describe(const game_t *g, int x, int y, char *buf,
                          size_t len);

/* The death screen's choice for a key: 1 a new game (Space, r), -1 leave
 * (Esc, q, Q, Ctrl-C), 0 nothing. */
int game_dead_choice(int key);

/* "killed by a troll", "won: took the Amulet at depth 12" (or "alive"),
 * into buf. Returns buf. The host stores it as the game's end. */
const char *game_death_cause(const game_t *g, char *buf, size_t len);

/* The score: XP + gold + GAME_DEPTH_SCORE per level below the first. */
int game_score(const game_t *g);

/* XP needed in total for the next level (docs/game.md, "Experience"). */
int game_xp_next(int level);

/* Gives the player XP, levelling up (possibly more than once: +5 max hp,
 * +5 hp, +1 attack, and a log line each) while it reaches the next. */
void game_gain_xp(game_t *g, int xp);

/* Index of the living monster at (x, y), or -1. */
int game_monster_at(const game_t *g, int x, int y);

/* 1 if any living monster is in the player's view. */
int game_monster_in_view(const game_t *g);

/* Places a monster of `kind` at (x, y) with full hp, in a free slot.
 * Returns its index, or -1 (no free slot, not walkable, or taken). For
 * levels being built and for tests that set up a scene. */
int game_place_monster(game_t *g, int kind, int x, int y);

/* The key of a click on map tile (x, y) (keys.h: KEY_CLICK_BASE); -1 off
 * the map. The host sends it while the game is targeting. */
int game_click_key(int x, int y);

/* 1 if key is a click key; then *x, *y get its tile. */
int game_click_tile(int key, int *x, int *y);

/* 1 while the game is targeting (MODE_TARGET): the host turns mouse
 * reporting on for exactly that time. */
int game_targeting(const game_t *g);

/* Maps a movement key (arrows, vi-keys, numpad digits, Home/End/PgUp/PgDn)
 * to a direction. Returns 1 for a movement key, else 0. */
int game_key_direction(int key, int *dx, int *dy);

/* --- the rules of a turn, for the core's own modules (turn.c) ------------- */

/* Ends a turn that the player's action took (docs/game.md, "Turns"): every
 * living monster acts, hurt monsters regenerate, timed effects (confusion)
 * tick, the turn counter goes up, then the death check. */
void game_end_turn(game_t *g);

/* Recomputes the player's view; what comes into view is explored and its
 * items seen. */
void game_update_fov(game_t *g);

/* The monster in slot i loses dmg hp; at 0 it dies (a corpse, its gold, a
 * line; and, if by_player, XP and a kill). */
void game_hurt_monster(game_t *g, int i, int dmg, int by_player);

/* One step of the player by (dx, dy): a move (a turn), a bump attack (a
 * turn), or a wall (a line, no turn). Returns 1 if it took a turn. */
int game_step(game_t *g, int dx, int dy);

/* The player attacks the monster in slot i (bump to attack). */
void game_player_attacks(game_t *g, int i);

/* The player loses dmg hp; at 0 `killer` (KILLER_* or kind + 1) is what
 * killed them (the death check at the end of the turn ends the game). */
void game_hurt_player(game_t *g, int dmg, int killer);

/* Lines the history screen shows at the smallest terminal (80x24): the
 * core stops scrolling back when the oldest line is on that page. */
#define GAME_HISTORY_ROWS 22

/* The i-th newest message (0 = newest), or NULL past the history. */
const msg_t *game_msg(const game_t *g, int i);

/* Adds a line to the message log (printf-style; truncated to MSG_LEN-1). */
void game_log(game_t *g, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A 64-bit hash of everything that decides the game's future: for replay
 * checks and determinism tests. Records keep it (record.h), so a change
 * of the function or of the state's layout is a new GAME_VERSION. */
uint64_t game_hash(const game_t *g);

#endif
