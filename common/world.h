/* world.h - the world layer of the game core: the state of one game
 * (game_t) and the services every mode is built on: the log, who stands
 * where, a step, hurting, the end of a turn, the floor and the pack.
 *
 * The core is in layers (docs/architecture.md, "The game core"):
 *   game.c (the dispatcher: a key to its mode)
 *     -> the modes: inventory.c (pick up, use, drop, cast), target.c (the
 *        aiming cursor), look.c, travel.c (run, travel, autoexplore)
 *       -> the world: world.c, turn.c, floor.c, describe.c (this header)
 *         -> the content and the mechanics below it: monster.c, item.c,
 *            combat.c, ai.c, fov.c, map.c, rng.c
 * A file includes only headers of its own layer or below, so a new mode is
 * a file that calls down, and nothing below it names it. */
#ifndef ROGUE_WORLD_H
#define ROGUE_WORLD_H

#include <stddef.h>
#include <stdint.h>

#include "item.h"
#include "map.h"
#include "monster.h"
#include "rng.h"

/* The cursor of aiming (target.h) and looking (look.h). */
enum target_purpose {
    TARGET_CAST = 0,    /* a scroll or a wand: item_cast_at */
    TARGET_THROW        /* a thrown item: item_throw_at */
};

typedef struct target {
    int x, y;   /* the cursor, on the map */
    int purpose; /* enum target_purpose */
    int slot;   /* the pack slot of the scroll being aimed (-1: looking) */
    int range;  /* from the player (Euclidean); 0: anywhere in view */
} target_t;

/* The Amulet lies on the last level, which has no stairs down. */
#define GAME_AMULET_DEPTH 12
/* A win adds this to the score. */
#define GAME_WIN_SCORE 1000
/* Running, travel and autoexplore take at most this many steps a key. */
#define GAME_RUN_MAX 200

/* The message history (`P` shows it): each line a record of its own
 * length in LOG_BYTES, so that the log keeps as many lines as fit (about
 * 230 of a game's, against 128 of 88 bytes each in the same memory
 * before game version 10: docs/performance.md's 32 KiB a player), at most
 * LOG_MAX. */
#define LOG_MAX 384     /* lines of message history kept at most */
#define LOG_BYTES 10496 /* their records' bytes (with log_at: the 11,264 of
                           the 128 lines of 88 bytes before) */
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
    MODE_CHARACTER,    /* the character screen (`@`/`C`); any key returns */
    MODE_IDENTIFY,     /* the pack: a letter identifies that item */
    MODE_DISCOVERIES,  /* what the player has learned (`\`); any key
                          returns */
    MODE_THROW,        /* the pack: a letter throws that item (`t`) */
    MODE_COUNT         /* `0` and digits: a count for the next command */
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

/* A line of the log as it lies in game_t.log: this header, then its
 * text (at most MSG_LEN bytes with the NUL), padded to 4 bytes. */
typedef struct msg {
    uint32_t seq;   /* lines logged before this one, over the whole game */
    uint16_t turn;  /* the turn it was logged in (its low 16 bits): a line
                       merges only with the same line of the same turn */
    uint8_t kind;   /* enum msg_kind */
    uint8_t repeat; /* the same line logged this many times in a row in
                       one turn (0 or 1: once); text then ends in " (xN)" */
    char text[];
} msg_t;

typedef struct player {
    int x, y;
    int hp, max_hp;
    int attack, defense; /* attack grows by 1 a level: game.c player_fighter
                            turns the gain into each ruleset's terms */
    int level, xp, gold;
    int weapon, armor;   /* pack slots wielded and worn, -1: none */
    int poison;          /* turns of poison left: 1 hp a turn */
    int haste;           /* turns of speed left: monsters act every other
                            turn */
    int strides;         /* steps taken in slow armour (item.h: every
                            second one costs a second turn) */
    int quick;           /* bumps made with a quick weapon (every second
                            one is free) */
} player_t;

#define MAX_ITEMS 256   /* floor items of a level: things, corpses, gold */

/* game_t.killer: what killed the player. */
#define KILLER_NONE 0
/* 1..MON_COUNT: the monster kind + 1 */
#define KILLER_FIREBALL 255 /* the player's own fireball */
#define KILLER_WON 254      /* not a death: the Amulet taken (MODE_WON) */

/* Score: XP + gold + 100 for each dungeon level (depth) below the first
 * (+ GAME_WIN_SCORE for a win). */
#define GAME_DEPTH_SCORE 100

/* What a game works out from its state to go faster (docs/performance.md,
 * "The turn's slots bounded"). All zero is "unknown", always safe: every
 * search then goes over every slot, as a game copied from a snapshot's
 * bytes does until game_derive. A test that writes slots or visible
 * by hand calls game_derive after, and one that writes the map's tiles
 * or explored, game_update_fov or game_derive. */
typedef struct game_derived {
    uint16_t items_free_top;  /* the last this many item slots are free */
    uint8_t monsters_free_top; /* the last this many monster slots are free */
    uint8_t view_known;       /* 1: visible is the view from (view_x,
                                 view_y) on this level's tiles, all of
                                 them explored (game_update_fov_turn
                                 does not look again from there) */
    uint8_t view_x, view_y;   /* the last view's origin (game_update_fov) */
    /* MODE_HISTORY below 80x24: the rows of the log wrapped to
     * GAME_HISTORY_NARROW_W scrolled back from the newest (at most
     * game_history_narrow_max). Only a view reads it, so it is no state
     * (hist_off is, and stops where 80x24 shows the oldest line, short of
     * what the wrapped log has further up); 0, the newest page, is where
     * a game copied from a snapshot's bytes shows it. */
    uint16_t hist_pos;
    /* Not worked out but counted: the lines taken back (game_log_unsay),
     * which leave log_total as it was; the view cache compares it to
     * tell the log's rows changed. game_derive keeps it. */
    uint32_t log_unsaid;
} game_derived_t;

_Static_assert(MAX_ITEMS <= UINT16_MAX && MAX_MONSTERS <= UINT8_MAX,
               "game_derived_t counts slots in its fields' widths");

typedef struct game {
    uint64_t seed;
    game_options_t opt;
    rng_t rng;          /* rules: every outcome */
    rng_t fx;           /* cosmetic only: never changes an outcome */
    map_t map;
    uint8_t visible[MAP_H][TILE_BITS_ROW]; /* the tiles in view now (a
                                              tile set: map.h) */
    player_t player;
    monster_t monsters[MAX_MONSTERS]; /* dead ones stay, alive == 0 */
    item_t items[MAX_ITEMS];          /* type ITEM_NONE: a free slot */
    int depth;
    uint32_t turn;      /* turns taken */
    uint32_t keys;      /* keys fed, turn or not */
    uint8_t mode;       /* enum game_mode */
    uint8_t killer;     /* KILLER_*, or the monster kind + 1 */
    uint8_t autopickup; /* 1: autoexplore picks items up (`A` toggles) */
    uint8_t about;      /* the monster (its slot + 1) the lines logged now
                           are about, 0: none; set while a monster acts or
                           is hit (game version 10: a line merges only with
                           one about the same monster, log_about) */
    uint8_t pack[PACK_SIZE]; /* the item kind in each slot a-z (0 if empty) */
    uint16_t phase_log; /* log_total (its low 16 bits) when the last
                           monsters' phase began (a slow armour's step of
                           two turns: the first's): an arrival is told
                           before what the monsters did (game_tell_came) */
    uint8_t pack_n[PACK_SIZE]; /* how many of it (0: the slot is empty) */
    uint16_t log_end;   /* the log's next record goes here (log) */
    int8_t pack_ench[PACK_SIZE];  /* equipment: each piece's enchantment */
    uint8_t pad4[2];    /* always 0 */
    uint8_t pack_flags[PACK_SIZE]; /* equipment: ITEM_F_* of each piece */
    uint8_t pad5[2];    /* always 0 */
    uint8_t appear[IK_MAX]; /* each potion's and scroll's appearance in
                               this game (know.c) */
    uint8_t known[IK_MAX];  /* 1: the player knows the kind */
    int pack_count;     /* slots in use (letters stay with their items, so
                           the used slots need not be the first ones) */
    target_t target;    /* MODE_TARGET and MODE_LOOK: the cursor */
    int kills;
    uint16_t kills_by[MON_MAX];   /* kills of each monster kind (dump.h) */
    uint32_t depth_turn[GAME_AMULET_DEPTH + 4]; /* the turn each depth was
                                                   reached on (dump.h) */
    int count;          /* MODE_COUNT: the number typed so far */
    int hist_off;       /* MODE_HISTORY: lines scrolled back from the newest;
                           MODE_HELP: the page */
    uint32_t log_total; /* lines ever logged */
    uint32_t log_fresh; /* log_total when the last key that did anything
                           began: the lines after it are new (they stand
                           out) */
    /* The lines' records (msg_t) in a ring of bytes, in the order logged
     * (world.c); line i, oldest first, is at log + log_at[(log_head + i) %
     * LOG_MAX], i < log_count; the next goes at log_end or, with no room
     * before the end, at 0, the oldest lines dropped to make room. */
    _Alignas(4) uint8_t log[LOG_BYTES];
    uint16_t log_at[LOG_MAX];
    int log_head, log_count;
    uint8_t log_about;  /* `about` when the newest line was logged */
    uint8_t pad6[3];    /* always 0: the state ends at GAME_STATE_SIZE */
    /* Not state: worked out from it (game_derive), neither hashed nor
     * stored nor sent, which is why it is last. */
    game_derived_t derived;
} game_t;

/* The bytes of a game in memory that are its state: everything before
 * `derived`. */
#define GAME_STATE_SIZE offsetof(game_t, derived)

/* The state's bytes as game_hash hashes them and a snapshot holds them
 * (game_state_bytes): the state with each tile set (map.explored,
 * visible) a byte a tile, 0 or 1, as game version 8 kept them in memory,
 * so that the records' checks and the stored snapshots did not change
 * when the sets became bits. */
#define GAME_STATE_BYTES                                                   \
    (GAME_STATE_SIZE + 2 * (size_t)MAP_H * (MAP_W - TILE_BITS_ROW))

/* 1 if (x, y), on the map, is in view. */
static inline int game_lit(const game_t *g, int x, int y)
{
    return tile_bit(g->visible[y], x);
}

/* The end of the slots a search by place or a pass over the living must
 * look at: every slot from there on is free (docs/performance.md, "The
 * turn's slots bounded"). */
static inline int game_items_end(const game_t *g)
{
    return MAX_ITEMS - g->derived.items_free_top;
}

static inline int game_monsters_end(const game_t *g)
{
    return MAX_MONSTERS - g->derived.monsters_free_top;
}

/* Every path of the rules that makes a slot live calls these (item_put,
 * game_place_monster; a level's are counted once it is built). */
static inline void game_item_slot_live(game_t *g, int i)
{
    if (i >= game_items_end(g))
        g->derived.items_free_top = (uint16_t)(MAX_ITEMS - 1 - i);
}

static inline void game_monster_slot_live(game_t *g, int i)
{
    if (i >= game_monsters_end(g))
        g->derived.monsters_free_top = (uint8_t)(MAX_MONSTERS - 1 - i);
}

/* --- the log (world.c) ----------------------------------------------------- */

/* Lines the history screen shows at the smallest terminal (80x24): the
 * core stops scrolling back when the oldest line is on that page. */
#define GAME_HISTORY_ROWS 22

/* The lines logged from now on are about monster m (NULL: about none):
 * game_log merges a line only with one about the same monster. */
static inline void game_log_about(game_t *g, const monster_t *m)
{
    g->about = m ? (uint8_t)(m - g->monsters + 1) : 0;
}

/* Adds a line to the message log (printf-style; truncated to MSG_LEN-1).
 * The same line of the same kind as the newest, in the same turn and
 * about the same monster (game_t.about), is merged into it: "Not with a
 * monster in view. (x5)" (it counts as new again); a run of more than 255
 * goes on in a new line. */
void game_log(game_t *g, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Takes the i-th newest line (0 = newest) back, the newer ones kept as
 * they were (no such line, or i past 32: nothing): one the next would say
 * again ("You see a dagger here." before "You pick up a dagger (b).", a
 * line of the turn's end between them or not). Counted in
 * derived.log_unsaid: the log's lines changed, log_total did not. */
void game_log_unsay(game_t *g, int i);

/* The i-th newest message (0 = newest), or NULL past the history. */
const msg_t *game_msg(const game_t *g, int i);

/* 1 if the i-th newest message (0 = newest) came from the last key that
 * did anything: the view makes such lines stand out. */
int game_msg_is_new(const game_t *g, int i);

/* The smallest narrow history page (40x20, view.h's VIEW_NARROW_MIN_*):
 * 18 rows of 40 columns, paged by the log wrapped to that width
 * (game_derived_t.hist_pos). */
#define GAME_HISTORY_NARROW_W 40
#define GAME_HISTORY_NARROW_ROWS 18

/* Splits text into lines of at most w columns, at spaces where it can
 * (a word longer than w is cut), and not inside a kill's "(+10 XP)"
 * unless no other space is in reach. Writes each line's start and length;
 * returns how many (at most max). The views wrap with it too, so that
 * the core counts the rows they draw. A column is a byte, as screen_puts
 * draws: the host's UTF-8 text has its own rows (screen_text_row). */
int game_text_wrap(const char *text, int w, int *start, int *len, int max);

/* The rows of the log wrapped to GAME_HISTORY_NARROW_W (a message at
 * most GAME_MSG_WRAP_MAX of them, an empty one 1) past a page of
 * GAME_HISTORY_NARROW_ROWS: how far back hist_pos goes (0 if the log
 * fits the page). */
#define GAME_MSG_WRAP_MAX 4
int game_history_narrow_max(const game_t *g);

/* hist_pos a page on from pos, back (b) or, if back is 0, forward
 * (Space): at 40x20 a page of GAME_HISTORY_NARROW_ROWS moves all but a
 * row, the pages sharing one, and less where a message is cut by the
 * edge it moves over, so that it is whole on the new page (the view
 * leaves out a message an edge cuts: a 3-row message whose middle row was
 * the shared one was cut on both pages and never shown). Clamped to
 * 0..game_history_narrow_max. */
int game_history_narrow_page(const game_t *g, int pos, int back);

/* The same for k (back) and j: a message at a time, so that the page
 * never begins with the blank rows of a message its top cuts (a step of
 * a row showed one, and at other widths could show no move at all). */
int game_history_narrow_line(const game_t *g, int pos, int back);

/* --- creatures and the player (world.c) ----------------------------------- */

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

/* Recomputes the player's view; what comes into view is explored and its
 * items seen. */
void game_update_fov(game_t *g);

/* The view at a turn's end: game_update_fov's, but a player standing
 * where the last view was made on this level (resting, fighting,
 * reading) sees what it saw, and only its items are looked for again. */
void game_update_fov_turn(game_t *g);

/* Puts g->target's cursor on the nearest living monster in view (ties: the
 * lower slot) if it is within g->target.range (0: any), else on the
 * player: where aiming and looking start. */
void target_cursor_home(game_t *g);

/* The slot of the living monster in view nearest the player within range
 * (0: any; Euclidean, as item_in_reach), ties to the lower slot, or -1. */
int game_nearest_in_view(const game_t *g, int range);

/* The slots of the living monsters in view, a bit each: taken before a
 * turn, it tells which monsters came into view in it. A count may start
 * with monsters in view, and one may leave as another comes, so neither
 * how many are in view nor the nearest one says that. */
typedef struct game_in_view {
    uint8_t bits[(MAX_MONSTERS + 7) / 8];
} game_in_view_t;

void game_in_view(const game_t *g, game_in_view_t *out);

/* The slot of the living monster in view, not in `before` (NULL: none
 * was in view), nearest the player (ties: the lower slot), or -1: the one
 * that came into view. */
int game_came_into_view(const game_t *g, const game_in_view_t *before);

/* 1 if a walk stops where the player stands: a thing lies there, or the
 * stairs (running, travel, autoexplore and counted steps). */
int game_stop_here(const game_t *g);

/* After a walk, a run, a count or a rest stopped short of its end by a
 * monster come into view (game version 9): names the monster in slot came
 * ("A goblin comes into view."; -1: none). A count passes the one new in
 * view (game_came_into_view); a walk or rest, refused with a monster in
 * view and so begun with none, the nearest (game_nearest_in_view). An
 * item underfoot is told by the step ("You see ... here."), and so are
 * the stairs hidden under the `@` ("You are on the stairs: > goes
 * down."); a blow by its own line, after the arrival: the line goes
 * before those of the last turn's monsters' phase (game version 10). */
void game_tell_came(game_t *g, int came);

/* One step of the player by (dx, dy): a move (a turn), a bump attack (a
 * turn), or a wall (a line, no turn). Returns 1 if it took a turn. */
int game_step(game_t *g, int dx, int dy);

/* --- keys every mode reads (world.c) --------------------------------------- */

/* Maps a movement key (arrows, vi-keys, numpad digits, Home/End/PgUp/PgDn)
 * to a direction. Returns 1 for a movement key, else 0. */
int game_key_direction(int key, int *dx, int *dy);

/* The key of a click on map tile (x, y) (keys.h: KEY_CLICK_BASE); -1 off
 * the map. The host sends it while the game is targeting. */
int game_click_key(int x, int y);

/* 1 if key is a click key; then *x, *y get its tile. */
int game_click_tile(int key, int *x, int *y);

/* --- the rules of a turn (turn.c) ------------------------------------------ */

/* Ends a turn that the player's action took (docs/game.md, "Turns"): every
 * living monster acts, hurt monsters regenerate, timed effects (confusion)
 * tick, the turn counter goes up, then the death check. */
void game_end_turn(game_t *g);

/* The monster in slot i loses dmg hp; at 0 it dies (a corpse, its gold, a
 * line; and, if by_player, XP and a kill). */
void game_hurt_monster(game_t *g, int i, int dmg, int by_player);

/* The player's thrown `kind` hits or misses the monster in slot i: a blow
 * of the ruleset in force with the thrown item as the weapon. */
void game_player_throws(game_t *g, int kind, int ench, int i);

/* The player attacks the monster in slot i (bump to attack). */
void game_player_attacks(game_t *g, int i);

/* Ends a turn in which the monsters do not act (a quick weapon's second
 * bump): the rest of game_end_turn happens. */
void game_end_turn_free(game_t *g);

/* The player in the terms of every ruleset (combat.h's fighter_t): the
 * levels gained, the weapon and armour with their enchantments. For the
 * blows and the character screen. */
struct fighter;
void game_player_fighter(const game_t *g, struct fighter *f);

/* The player loses dmg hp; at 0 `killer` (KILLER_* or kind + 1) is what
 * killed them (the death check at the end of the turn ends the game). */
void game_hurt_player(game_t *g, int dmg, int killer);

/* --- what the player knows (describe.c) ------------------------------------ */

/* What is on tile (x, y) as the player knows it, into buf: "a goblin
 * (badly hurt)", "a health potion", "the stairs down", "a wall", "unknown".
 * Returns buf. */
const char *game_describe(const game_t *g, int x, int y, char *buf,
                          size_t len);

/* What game_describe leaves out of a tile the look cursor shows: ", on
 * the stairs down" when something seen lies on them (the map shows the
 * thing, not the stairs), else "". Not in game_describe itself: its
 * words are logged by a look, and the log is part of a game's state, so
 * they change only with the rules' version (docs/game.md, "Look"). */
const char *game_describe_beneath(const game_t *g, int x, int y);

/* "killed by a troll", "won: took the Amulet at depth 12" (or "alive"),
 * into buf. Returns buf. The host stores it as the game's end. */
const char *game_death_cause(const game_t *g, char *buf, size_t len);

/* --- the floor (floor.c) --------------------------------------------------- */

/* The first floor item of `type` at (x, y), or NULL. */
item_t *item_find(game_t *g, int type, int x, int y);

/* The first slot from `from` on (slot order) holding an item at (x, y), on
 * the map; MAX_ITEMS if none. */
int item_next_at(const game_t *g, int from, int x, int y);

/* Puts an item on (x, y): gold on gold adds up, a corpse on a corpse
 * replaces it, things lie side by side. Returns the item, or NULL when
 * every floor slot is taken (the item is not placed). */
item_t *item_put(game_t *g, int type, int kind, int x, int y, int amount);

/* 0-ITEMS_PER_ROOM_MAX things in every room, never on the stairs, on the
 * player or on another thing (a taken tile is skipped, as for monsters);
 * on the last level (GAME_AMULET_DEPTH) the Amulet at the centre of the
 * last room. Items are seen only once the level's view is computed. Uses
 * only the rules stream. */
void item_spawn_level(game_t *g);

/* Marks every item in view as seen. */
void item_see(game_t *g);

/* --- what the player knows of items (know.c) ------------------------------ */

/* Gives this game's potions and scrolls their appearances (from the seed,
 * not the rules stream) and marks every other kind known. game_new's. */
void item_deal_appearances(game_t *g);

/* 1 if the player knows what `kind` is. */
int item_known(const game_t *g, int kind);

/* The player learns `kind`. Returns 1 if it was unknown. */
int item_learn(game_t *g, int kind);

/* A kind's name as the player knows it, for `count` of it: "murky potion",
 * "scroll labelled ZELGO MER", "health potion"; "2 murky potions", "3
 * scrolls labelled NR 9", "2 potions of speed". Returns buf. */
const char *item_name(const game_t *g, int kind, int count, char *buf,
                      size_t len);

/* The same for one, with its article: "a murky potion", "the Amulet of
 * Yendor". Returns buf. */
const char *item_a_name(const game_t *g, int kind, char *buf, size_t len);

/* What a kind looks like, whether known or not: "murky potion". */
const char *item_unknown_name(const game_t *g, int kind, char *buf,
                              size_t len);

/* A scroll kind's label in this game ("ZELGO MER"). */
const char *item_scroll_label(const game_t *g, int kind);

/* The colour a kind is drawn in: its appearance's for a potion or scroll
 * (so the colour tells nothing), else the table's. */
uint8_t item_colour(const game_t *g, int kind);

/* --- the pack (floor.c) ---------------------------------------------------- */

/* Removes one item of pack slot `slot`; an emptied slot stays free (the
 * other items keep their letters) and stops being wielded or worn. */
void item_pack_remove(game_t *g, int slot);

/* Adds a kind to the pack: onto a slot of that kind when it stacks, else
 * into the first free slot. Returns the slot, or -1 when the pack is
 * full. */
int item_pack_add(game_t *g, int kind);

/* 1 if pack slot `slot` holds something. */
int item_pack_has(const game_t *g, int slot);

/* --- enchanted and cursed equipment (equip.c) ----------------------------- */

/* A piece's name as the player knows it: "long sword" until its
 * enchantment is known, then "+2 long sword", "-1 long sword"; another
 * kind: item_name's for `count`. Returns buf. */
const char *item_piece_name(const game_t *g, int kind, int count, int ench,
                            int flags, char *buf, size_t len);

/* A floor thing's name with its article: "a long sword", "a +1 spear",
 * "a murky potion". Returns buf. */
const char *item_floor_a_name(const game_t *g, const item_t *it, char *buf,
                              size_t len);

/* The name of pack slot `slot` (item_piece_name); `article`: with "a"/"an"
 * ("a +2 long sword"). Returns buf. */
const char *item_slot_name(const game_t *g, int slot, int article, char *buf,
                           size_t len);

/* The armour line's words with no armour worn: "none (burlap sack)" under
 * d10, whose bare player wears one (absorbs 1, armour class 1:
 * monster.c's player row), "none" under the rulesets that have no such
 * thing. For the character screen and the dump. */
const char *item_no_armour_name(const game_t *g);

/* 1 if pack slot `slot` is cursed: a piece below +0 whose curse no scroll
 * of identify has lifted. Worn or wielded, it cannot be taken off. */
int item_slot_cursed(const game_t *g, int slot);

/* 1 if pack slot `slot` is wielded or worn and cursed: it stays (and says
 * so, a line). */
int item_slot_stuck(game_t *g, int slot);

/* 1 if pack slot `slot` has something a scroll of identify can tell: an
 * unknown kind, or a piece whose enchantment is unknown or cursed. */
int item_slot_unknown(const game_t *g, int slot);

#endif
