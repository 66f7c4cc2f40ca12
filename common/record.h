/* record.h - a game record: what replays a game exactly, as bytes.
 *
 * A record is inputs, not state (docs/style.md): the core version, the
 * seed, the options and every key fed, plus the low 32 bits of the state
 * hash at the start and after every RECORD_CHECK_EVERY keys, so that a
 * replay that drifts is caught where it drifts, and the final state hash.
 * The core encodes and decodes the bytes; the host decides where they go.
 *
 * The recorder is a record_t that the host feeds keys through
 * (record_key feeds the game and records the key in one call). It is capped:
 * at the cap it stops recording, keeps the state hash at that point and
 * marks itself truncated; the game goes on. A truncated record still replays
 * exactly, up to where it stopped.
 *
 * Encoded form (little-endian; "varint" is unsigned LEB128, minimal, at
 * most 5 bytes, holding a uint32; an int is stored as its uint32 bits):
 *
 *   "RGRC"                     magic
 *   u8      format             RECORD_FORMAT
 *   varint  game version       GAME_VERSION of the core that played it
 *   u64     seed
 *   varint  n options, then n varints (record.c: opt_fields, in order)
 *   u8      flags              bit 0: truncated; other bits 0
 *   varint  n keys, then n varints
 *   varint  n checks (= n keys / RECORD_CHECK_EVERY + 1), then n u32
 *   u64     final state hash   game_hash after the last recorded key
 *   u32     FNV-1a 32 of every byte before it
 *
 * The trailing checksum tells damaged bytes (RECORD_ECORRUPT, caught without
 * replaying) from a core whose behaviour changed (RECORD_EDRIFT). */
#ifndef ROGUE_RECORD_H
#define ROGUE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "game.h"

#define RECORD_FORMAT 1
#define RECORD_CHECK_EVERY 256          /* keys between state checksums */
#define RECORD_LIMIT_DEFAULT (4u << 20) /* bytes of encoded keys (>= 1.4M keys) */
/* The largest encoded record record_decode accepts: a default-capped record
 * with its checks and header fits well inside. */
#define RECORD_ENCODED_MAX (5u << 20)

enum record_err {
    RECORD_OK = 0,
    RECORD_EFORMAT = -1,  /* not a record (magic, size) */
    RECORD_EVERSION = -2, /* another record format, or another core version
                             (record_replay only: decoding still works) */
    RECORD_ECORRUPT = -3, /* damaged: checksum, structure, counts */
    RECORD_EDRIFT = -4,   /* replayed, but the state differs (drift_at) */
    RECORD_ENOMEM = -5
};

typedef struct record {
    uint32_t game_version;
    uint64_t seed;
    game_options_t opt;
    uint32_t nkeys;       /* keys recorded */
    uint8_t truncated;    /* the cap was reached: later keys are not here */
    uint8_t finished;     /* final_hash is set (record_finish or decoded) */
    uint64_t final_hash;  /* the state after the last recorded key */
    uint64_t trunc_hash;  /* the state when truncation happened */
    buf_t keys;           /* the keys, varints */
    buf_t checks;         /* u32 LE each: check i is after i * CHECK_EVERY keys */
} record_t;

typedef struct record_replay {
    uint32_t keys_replayed; /* keys fed to the rebuilt game */
    int64_t drift_at;       /* -1; or keys fed when the state first differed
                               from the record (a check, or the final hash:
                               then it is nkeys) */
    uint64_t final_hash;    /* the rebuilt game's hash where it stopped */
} record_replay_t;

/* Starts recording game g, which must be fresh (no key fed yet): takes its
 * seed and options and the start checksum. limit caps the encoded keys in
 * bytes (0: RECORD_LIMIT_DEFAULT). Returns 0, or -1 (g not fresh, OOM) with
 * r still safe to record_free. */
int record_init(record_t *r, const game_t *g, size_t limit);

/* Feeds key to g (game_key) and records it: the one way the host should
 * feed a recorded game. Past the cap (or on OOM) the record stops: it keeps
 * the state hash from before this key, is marked truncated, and records no
 * later key; the game still gets every key. Returns game_key's result. */
int record_key(record_t *r, game_t *g, int key);

/* Ends recording: stores the final state hash of g (the game recorded since
 * record_init; of the state when the cap was reached if truncated). Returns
 * 0, or -1 if g was fed keys the record did not see. */
int record_finish(record_t *r, const game_t *g);

/* Appends the encoded record to out. Returns 0, or -1 (not finished, or out
 * over its limit: out is left as it was). */
int record_encode(const record_t *r, buf_t *out);

/* Reads an encoded record into r (which it initialises; record_free it
 * whatever the result). Checks everything but the replay itself: magic,
 * format, checksum, every count and varint, no trailing bytes. A record of
 * another core version decodes (r->game_version says which). Returns
 * RECORD_OK or a negative enum record_err. Never reads past len. */
int record_decode(const void *bytes, size_t len, record_t *r);

/* Decodes and replays a record in a new game, comparing each checksum and
 * the final hash. Stops at the first difference (RECORD_EDRIFT,
 * out->drift_at). game_out (may be NULL) receives the rebuilt game, where it
 * stopped, for RECORD_OK and RECORD_EDRIFT (the caller frees it); NULL
 * otherwise. Returns RECORD_OK, or RECORD_EVERSION for another core, or a
 * decoding error. out is always filled. */
int record_replay(const void *bytes, size_t len, record_replay_t *out,
                  game_t **game_out);

/* Reads the next key of a record from byte position *pos in r->keys (start
 * at 0; each call advances it). Returns 0, or -1 at the end or on a damaged
 * varint. */
int record_next_key(const record_t *r, size_t *pos, int *key);

/* --- the record player ------------------------------------------------------
 * The one way a game is rebuilt from its keys: replays (all at once or one
 * key per tick), watching (a watcher rebuilds the player's game from its
 * summary), export and resume all step a player. It feeds the keys to a new
 * game in order and compares the game's state with every check the keys
 * come with (one each RECORD_CHECK_EVERY keys) and, at the end, with the
 * final hash if there is one; the first difference stops it
 * (RECORD_EDRIFT, drift_at). Keys without checks (a game in progress as the
 * store keeps it) are fed unchecked. The source bytes are borrowed: they
 * must outlive the player. */
typedef struct record_player {
    game_t *game;              /* owned, until record_player_take */
    record_t *into;            /* NULL, or a recorder each key goes through */
    const uint8_t *keys, *checks;
    size_t keys_len, nchecks, pos;
    uint32_t fed;              /* keys fed so far */
    uint8_t has_final, done;
    uint64_t final_hash;
    int64_t drift_at;          /* -1, or the keys fed when it differed */
    int err;                   /* RECORD_OK, or why it stopped */
} record_player_t;

/* A player of record r (a recorder's or a decoded one; r->game_version must
 * be GAME_VERSION). into (may be NULL) is initialised as a new recorder of
 * the rebuilt game: the record it makes goes on exactly as r would have.
 * Returns RECORD_OK, RECORD_EVERSION, RECORD_ENOMEM or RECORD_EDRIFT (the
 * start check differs); the player is safe to free whatever the result. */
int record_player_start(record_player_t *p, const record_t *r, record_t *into);

/* The same from parts: a game's seed and options, its key bytes (whole
 * varints, as record_t.keys holds them), and its checks (4 bytes each, as
 * record_t.checks; NULL and 0 for none). No final hash. */
int record_player_start_raw(record_player_t *p, uint64_t seed,
                            const game_options_t *opt, const void *keys,
                            size_t keys_len, const void *checks,
                            size_t checks_len, record_t *into);

/* A player that starts from a copy of the game after its first `fed` keys
 * (a snapshot; the player takes g), at byte pos of the keys: only the
 * tail is replayed. If a check falls at `fed`, the snapshot is compared
 * with it first (RECORD_EDRIFT if it differs). No recorder. */
int record_player_start_at(record_player_t *p, game_t *g, uint32_t fed,
                           const void *keys, size_t keys_len, size_t pos,
                           const void *checks, size_t checks_len);

/* record_player_start_at with a recorder: into is initialised as the
 * recorder of the game's first `fed` keys (keys[0..pos) and the first
 * fed / RECORD_CHECK_EVERY + 1 checks, copied; the default cap, as
 * record_resume), so that with the tail fed through it, it is byte for
 * byte the recorder an uninterrupted game would have. Checks first that
 * keys[0..pos) is exactly `fed` whole varints, that g has been fed `fed`
 * keys and that there are those checks (RECORD_ECORRUPT if not), then the
 * check at `fed` (RECORD_EDRIFT). The player takes g whatever the result;
 * into is safe to record_free. */
int record_player_resume_at(record_player_t *p, game_t *g, uint32_t fed,
                            const void *keys, size_t keys_len, size_t pos,
                            const void *checks, size_t checks_len,
                            record_t *into);

/* Feeds the next key (*key receives it; key may be NULL). Returns 1 when a
 * key was fed, 0 at the end (everything fed and checked), or a negative
 * enum record_err: RECORD_EDRIFT (p->drift_at), RECORD_ECORRUPT (a damaged
 * varint). After 0 or an error every later call returns the same. */
int record_player_step(record_player_t *p, int *key);

/* Steps to the end or the first error, at most max keys (0: no limit).
 * Returns as record_player_step: 1 (stopped at max, more to come), 0 or an
 * error. */
int record_player_run(record_player_t *p, uint32_t max);

/* Takes the rebuilt game (the caller frees it); the player keeps none. */
game_t *record_player_take(record_player_t *p);

/* Frees the game unless taken. The recorder `into` stays the caller's. */
void record_player_free(record_player_t *p);

/* Rebuilds a game in progress from its seed, options and the keys recorded
 * so far, encoded as a recorder keeps them (the bytes of record_t.keys from
 * the start, whole varints: what store_progress_load answers). A new game
 * is fed every key through a new recorder (default cap, as record_init with
 * limit 0), so that *game_out is the game exactly as the player left it and
 * *rec goes on recording where the old recorder was: the record finished
 * later is byte for byte the one an uninterrupted game would have had.
 * Checks every varint before feeding any. Returns RECORD_OK with both set
 * (the caller owns both: game_free, record_free), or RECORD_ECORRUPT (a
 * damaged or cut varint) or RECORD_ENOMEM: then *game_out is NULL and rec is
 * empty (record_free on it is harmless). Costs a replay: O(keys). */
int record_resume(uint64_t seed, const game_options_t *opt, const void *keys,
                  size_t len, game_t **game_out, record_t *rec);

/* Releases a record's buffers; it may be initialised again. */
void record_free(record_t *r);

/* A short English description of a record_err. */
const char *record_strerror(int err);

#endif
