/* store_types.h - what the whole store shares, at its bottom: its limits,
 * its statuses, the rows it keeps (a finished game, the hall of fame, a
 * game in progress, SSH keys) and the rules about them (how a game ended,
 * whether it is ranked). The loop side (store.h) and each backend
 * (store_db.h, store_sqlite*.c, store_pg*.c) include this; it includes
 * nothing of the store. docs/architecture.md, "Store". */
#ifndef ROGUE_STORE_TYPES_H
#define ROGUE_STORE_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "accounts.h"
#include "game.h"
#include "record.h"

#define STORE_FILE "rogued.db"        /* inside the data directory */
#define STORE_APP_ID 0x52474431       /* PRAGMA application_id: "RGD1" */
#define STORE_SCHEMA_VERSION 9        /* PRAGMA user_version when migrated */
#define STORE_TOP_MAX 20              /* hall of fame rows per request */
#define STORE_CAUSE_MAX 63            /* bytes of a cause of death */
#define STORE_QUIT_MIN_TURNS 100      /* a quit this long counts in the hall
                                         of fame (store_game_ranked) */
#define STORE_GUEST_BLOCK 1000        /* guest numbers reserved per write */
#define STORE_PRUNE_EVERY_S 3600      /* the retention rule runs at start and
                                         then at most this often */
#define STORE_PROBE_EVERY_MS 1000     /* while writes fail, the store tries
                                         one of its own this often */
#define STORE_HELD_PAUSE_MS 1000      /* a held game's try alone failed: its
                                         next after this long (store_opts_t
                                         held_pause_ms) */
#define STORE_MOVED_EVERY_MS 1000     /* the store looks whether its file is
                                         still at its path this often */
#define STORE_BAN_TARGET_MAX 63       /* bytes of a ban's target (ban_list.h) */
#define STORE_BANS_MAX 4096           /* bans read from the database at most */
#define STORE_BAN_REFRESH_MS 3000     /* each host reads the bans again at
                                         least this often (and at once after
                                         a ban or unban of its own) */

/* A ban (ctl ban, docs/hosting.md "Operations"): an address range or an
 * account name kept out until a moment, or for good. */
typedef struct store_ban {
    char target[STORE_BAN_TARGET_MAX + 1]; /* "ADDR/BITS" or a name in
                                              lower case (ban_list.h) */
    int64_t until_ms;         /* Unix ms it ends; 0: for good */
    int64_t made_ms;          /* Unix ms it was made */
} store_ban_t;

/* How a game ended. The hall of fame lists only games with a real end:
 * a death, a win, or a quit after STORE_QUIT_MIN_TURNS turns (a quit
 * before that, and a game cut off by its connection, are kept, replayable
 * and listed by --list-games, but not ranked). */
enum store_ending {
    STORE_END_UNSET = 0,  /* store_add_game: read from the cause ("quit",
                             "disconnected ...", else a death) */
    STORE_END_DEATH,
    STORE_END_WIN,
    STORE_END_QUIT,
    STORE_END_DISCONNECT
};

enum store_status {
    STORE_OK = 0,
    STORE_BAD_LOGIN,   /* wrong password or no such name: one answer */
    STORE_NAME_TAKEN,  /* register: the name exists, in any case */
    STORE_INVALID,     /* register: name or password breaks accounts.h */
    STORE_SLOW_DOWN,   /* login: too many failed attempts for this name are
                          waiting already; not checked, try again later */
    STORE_ERROR,       /* the database failed (logged) */
    STORE_NOT_FOUND,   /* progress: no game in progress; record: no such
                          game */
    STORE_NO_RECORD,   /* record: the game is kept without its record
                          (dropped at the queue's byte cap, or lost) */
    STORE_STALE,       /* progress: a game in progress played by another
                          core version (GAME_VERSION): it cannot be replayed
                          by this one; end it */
    STORE_DUPLICATE,   /* key add: the account has this key already */
    STORE_FULL         /* key add: the account has STORE_KEYS_MAX keys */
};

/* A finished game, as the hall of fame and the games table keep it. */
typedef struct store_game {
    char name[ACCT_NAME_MAX + 1];   /* the player's or a guest's name */
    int64_t account_id;             /* 0: a guest */
    int ruleset;                    /* enum ruleset (combat.h) */
    uint64_t seed;
    int score, depth, turns, kills;
    char cause[STORE_CAUSE_MAX + 1]; /* "killed by a troll", "quit" */
    int64_t started, ended;         /* Unix seconds */
    int ending;                     /* enum store_ending */
    uint64_t token;                 /* the game's key: a game whose token is
                                       written already is not written again
                                       (one held after a batch that may have
                                       committed). 0: the store gives it a
                                       random one as it queues it */
} store_game_t;

typedef struct store_account {
    int status;                     /* enum store_status */
    int64_t id;                     /* STORE_OK: the account */
    char name[ACCT_NAME_MAX + 1];   /* STORE_OK: as registered (its case) */
    int display;                    /* STORE_OK of a login: the display
                                       choice it keeps (accounts.display,
                                       server/session/options.h; 0 Auto) */
} store_account_t;

/* One row of the hall of fame. */
typedef struct store_score {
    int64_t game_id;
    char name[ACCT_NAME_MAX + 1];
    int score, depth, turns, kills, ruleset;
    char cause[STORE_CAUSE_MAX + 1];
    int64_t ended;                  /* Unix seconds: the date shown */
    int ending;                     /* enum store_ending */
} store_score_t;

typedef struct store_scores {
    int status;                     /* enum store_status */
    int n;                          /* rows in top; 0: no game yet */
    store_score_t top[STORE_TOP_MAX]; /* best first: score, then the earlier
                                         game, then the lower id */
    int has_best;                   /* the named player has a game */
    store_score_t best;             /* their best, by the same order */
    int64_t best_rank;              /* its place in that order, from 1 */
} store_scores_t;

/* The finished games newest first (store_recent): every ending, ranked or
 * not, as the feeds list them. */
#define STORE_RECENT_MAX 100            /* rows per request */
typedef struct store_recent {
    int status;                     /* enum store_status */
    int n;                          /* rows in games; 0: none (left) */
    store_score_t games[STORE_RECENT_MAX]; /* the higher id first */
} store_recent_t;

/* A game in progress, as store_progress_load answers it. */
typedef struct store_progress {
    int status;          /* STORE_OK; STORE_NOT_FOUND (none); STORE_STALE
                            (fields set, keys too, but of another core);
                            STORE_ERROR */
    int64_t account_id;
    /* The claim this load took on the account's game in progress (> 0; 0
     * if it took none: STORE_ERROR, or a read outside the store's loop
     * API): the session passes it with every progress write after, and a
     * later load's claim makes those writes refused (store.h). */
    int64_t claim;
    uint32_t game_version; /* GAME_VERSION of the core that played it */
    uint64_t seed;
    game_options_t opt;
    int64_t started;     /* Unix seconds */
    const void *keys;    /* every key appended, in order: record_t.keys
                            bytes (whole varints); owned by the store, valid
                            only during the callback (record_resume copies) */
    size_t len;          /* bytes at keys */
    /* The latest snapshot (store_progress_snapshot), or snap NULL for
     * none: the game after its first snap_keys keys (snap_pos bytes of
     * keys), taken by core snap_version, with the recorder's checks up to
     * it (snap_checks: snap_checks_len bytes). As stored: whoever rebuilds
     * from it checks that it fits the keys (rebuild.c), and replays from
     * the start if not. Owned by the store, valid only during the
     * callback. */
    const game_t *snap;
    uint32_t snap_version, snap_keys;
    size_t snap_pos;
    const void *snap_checks;
    size_t snap_checks_len;
} store_progress_t;

/* A finished game's row and its record, as store_get_record answers it. */
typedef struct store_record {
    int status;          /* STORE_OK; STORE_NOT_FOUND (no such game);
                            STORE_NO_RECORD (row set, no record); STORE_ERROR */
    int64_t game_id;
    store_game_t game;   /* the row (STORE_OK, STORE_NO_RECORD) */
    const void *record;  /* record.h bytes (STORE_OK): owned by the store,
                            valid only during the callback */
    size_t len;
} store_record_t;

typedef struct store_stats {
    uint64_t games_written;   /* committed (a game sent again whose token
                                 is in already not again) */
    uint64_t games_lost;      /* held after a failed batch and never
                                 written: given up as refused, or still
                                 failing at the close, or queued after it
                                 (each logged) */
    uint64_t records_dropped; /* stored without the record (queue bytes) */
    uint64_t batches;         /* transactions */
    uint64_t largest_batch;   /* requests in the largest */
    uint64_t queued_games;    /* waiting for the database thread now */
    uint64_t queued_bytes;    /* their record bytes */
    uint64_t progress_written; /* begins, appends, ends committed */
    uint64_t progress_dropped; /* refused at the queue, or not following
                                  (see above), or lost with a batch */
    uint64_t queued_progress;  /* progress requests waiting now */
    uint64_t progress_claimed; /* progress writes refused: a later load
                                  holds the account's game (store.h) */
    uint64_t guests_skipped;   /* guests' games too short to store */
    uint64_t guests_pruned;    /* guests' games removed by the retention rule */
    uint64_t login_hashes;     /* password checks run for logins: one for an
                                  unknown name too, against a dummy hash
                                  made with the same cost at open */
    uint64_t login_hashes_dummy; /* ...of which against the dummy */
    uint64_t login_waits;      /* logins made to wait by the slow-down */
    uint64_t login_wait_ms;    /* the waits they were given, summed */
} store_stats_t;

/* --- SSH public keys (the account_keys table) ------------------------------ */

#define STORE_KEYS_MAX 8          /* keys one account may register */
#define STORE_KEY_FP_MAX 63       /* a fingerprint's bytes: "SHA256:" and 43
                                     base64 characters, as ssh-keygen -l */
#define STORE_KEY_TEXT_MAX 2047   /* a key's bytes: OpenSSH's "type base64"
                                     (an RSA key of 8192 bits fits) */
#define STORE_KEY_TYPE_MAX 31

/* One key of an account, as the lobby lists it. */
typedef struct store_key {
    char fingerprint[STORE_KEY_FP_MAX + 1];
    char type[STORE_KEY_TYPE_MAX + 1]; /* the key line's first word */
    int64_t added;                     /* Unix seconds */
} store_key_t;

/* An account's keys, oldest first, and the status of the request. */
typedef struct store_keys {
    int status;  /* STORE_OK; store_key_add: STORE_DUPLICATE, STORE_FULL,
                    STORE_NOT_FOUND (no such account), STORE_INVALID;
                    store_key_remove: STORE_NOT_FOUND (no such key);
                    STORE_ERROR. The list is read after the change, and
                    whatever the status (empty for STORE_ERROR). */
    int n;
    store_key_t keys[STORE_KEYS_MAX];
} store_keys_t;

/* g->ending, or for STORE_END_UNSET the ending read from g->cause. */
int store_game_ending(const store_game_t *g);

/* 1 if the game counts in the hall of fame (see enum store_ending). */
int store_game_ranked(const store_game_t *g);

/* The name of a status, for logs. */
const char *store_status_name(int status);

/* For tests and tools, never the server: creates `where` (a SQLite file's
 * path or a PostgreSQL URL, as sdb_open) as a database at
 * schema `version` (1..STORE_SCHEMA_VERSION) with our application_id,
 * synchronously on the calling thread, as an older rogued would have left
 * it. Returns 0, or -1 with the reason in err. */
int store_create_at_version(const char *where, int version, char *err,
                            size_t errlen);

#endif
