/* store_db.h - the database side of the store: its schema and migrations,
 * and each statement, synchronous. Only the store's database thread calls
 * these (store.c); tests of the file format and tools (--export) may too.
 * One store_db_t is one connection with its prepared statements, to
 * whichever backend sdb_open chose (store_backend.h): the SQLite file, or
 * a PostgreSQL database. */
#ifndef ROGUE_STORE_DB_H
#define ROGUE_STORE_DB_H

#include <stddef.h>
#include <stdint.h>

#include "store_types.h"

/* One connection of a backend (store_backend.h). Each backend's own
 * connection struct begins with this, and its calls take it: the VFS shape
 * of SQLite, where a call is a pointer in the backend's table. */
typedef struct store_db store_db_t;
typedef struct sdb_ops sdb_ops_t;
struct store_db {
    const sdb_ops_t *ops;
};

/* A snapshot of a game in progress as the progress table keeps it: the
 * game (game_t bytes, game_len of them) after its first `keys` keys, `pos`
 * bytes of its keys, taken by core `version` (GAME_VERSION), and the
 * recorder's checks up to it (record.h: 4 bytes each). Read back as
 * stored: the store and the rebuild check that it fits. */
/* Which game in progress an end drops (sdb_progress_end): the one begun
 * with this seed and start alone (a held game's owed end, store_held.c:
 * by the time it runs, the account's game in progress may be a later
 * one of the same claim, as after an upgrade's hand-off). */
typedef struct sdb_which {
    uint64_t seed;
    int64_t started;
} sdb_which_t;

typedef struct sdb_snapshot {
    uint32_t version, keys;
    size_t pos;
    void *game;
    size_t game_len;
    void *checks;
    size_t checks_len;
} sdb_snapshot_t;

/* One row of rogued --list-games. */
typedef struct store_listed {
    int64_t game_id;
    store_game_t game;   /* ending read as stored (never 0 from schema 4) */
    int has_record;      /* 0: kept without its record (cannot be exported) */
} store_listed_t;

/* Why a progress write as a claim had nothing to follow, as the commit
 * found (store_unfollowed_t's why: PostgreSQL sends a batch's writes
 * without waiting for each; SQLite never has any). SDB_CLAIMED is also
 * what such a write returns when it is run at once and refused: neither
 * 0 nor 1, an append's other answers. */
enum sdb_unfollowed {
    SDB_NO_GAME_APPENDED = 0, /* an append found no game in progress: its
                                 keys are dropped */
    SDB_NO_ACCOUNT_BEGUN = 1, /* a begin found no such account */
    SDB_NO_GAME_SNAPPED = 2,  /* a snapshot found no game in progress:
                                 nothing to do */
    SDB_CLAIMED = 3,          /* a write of `claim` was refused: a later
                                 claim (sdb_progress_claim) holds the
                                 account's game, so nothing was written. A
                                 write of claim 0 is never refused (tools
                                 and tests: no claim), nor does it refuse
                                 any */
    SDB_NO_GAME_ENDED = 4     /* an end of claim > 0 found no game to drop:
                                 nothing to do, unless a later claim holds
                                 the game after all */
};

/* Begins, appends, snapshots and ends that returned 1 (or 0) but, as the
 * commit found, had nothing to follow. Valid until the next sdb_begin. */
typedef struct store_unfollowed {
    int64_t account_id;
    int64_t claim;
    enum sdb_unfollowed why;
} store_unfollowed_t;

/* Every call a backend answers, in one list: X(return type, name,
 * (parameters), (arguments)). The list makes the table of each backend
 * (sdb_ops_t) and the sdb_NAME functions that pass a call to the
 * connection's backend (store_backend.c); adding a call is a line here, a
 * function (and its statement) in each backend, and the call's own file
 * (docs/architecture.md, "Store", lists them). */
#define SDB_CALLS(X) \
    /* BEGIN IMMEDIATE / COMMIT / ROLLBACK. Return 0, or -1 (logged). */ \
    X(int, begin, (store_db_t *db), (db)) \
    X(int, commit, (store_db_t *db), (db)) \
    X(int, rollback, (store_db_t *db), (db)) \
    /* 1 while a transaction is open. SQLite rolls one back by itself on some \
     * errors (disk full, I/O): the caller checks after each statement. */ \
    X(int, in_transaction, (store_db_t *db), (db)) \
    /* The connection's socket, or -1 (none now; SQLite has none): the \
     * cluster thread's stop shuts a duplicate of it down (cluster.c). A \
     * PostgreSQL connection made again has a new one. */ \
    X(int, sock_fd, (store_db_t *db), (db)) \
    /* 1 when the transaction just ended failed only because the database \
     * ended it whole to break a deadlock or a serialization conflict \
     * (PostgreSQL's 40P01, 40001): nothing of it was written, and run \
     * again from its BEGIN it may well work. Such a failure is not logged \
     * by the backend: whoever ran the transaction says what it does about \
     * it. SQLite: always 0 (a writer waits its turn, nothing is ended). */ \
    X(int, retryable, (store_db_t *db), (db)) \
    /* 1 when the last failure (of the transaction just ended, or of a \
     * statement) was the database refusing what was asked, which asking \
     * again will not change: a constraint or a trigger (SQLite's \
     * SQLITE_CONSTRAINT*, TOOBIG, MISMATCH; PostgreSQL's SQLSTATE classes \
     * 22, 23 and P0). 0 for a write failing or to be tried again later (a \
     * deadlock, a serialization failure, a timeout, a lost connection, a \
     * full disk, an I/O error, a lock held elsewhere). A held game \
     * (store_held.c) counts only these toward giving it up. */ \
    X(int, refused, (store_db_t *db), (db)) \
    /* How many finished games the transaction just committed found in \
     * already by their token, writing nothing: PostgreSQL tells it from \
     * its pipeline's answers, after the commit. SQLite: 0 (its \
     * insert_game answers 1 for such a game at once). */ \
    X(uint64_t, games_in, (store_db_t *db), (db)) \
    /* 1 when the transaction just ended failed with no answer to its \
     * COMMIT (the connection lost, the answer past its deadline) and no \
     * error before: it may have committed. SQLite: 0 (a COMMIT that \
     * fails has rolled back). */ \
    X(int, commit_unanswered, (store_db_t *db), (db)) \
    /* Inserts a finished game (record may be NULL), unless its token is in \
     * already. Returns 0, 1 (its token is in: nothing written; in a \
     * PostgreSQL transaction, 0, and sdb_games_in counts it after the \
     * commit), or -1 (logged). */ \
    X(int, insert_game, (store_db_t *db, const store_game_t *g, \
      const void *record, size_t len), (db, g, record, len)) \
    /* Inserts an account with its password hash string, created now (Unix \
     * seconds). Returns STORE_OK with *id, STORE_NAME_TAKEN, or STORE_ERROR \
     * (logged, without the hash). */ \
    X(int, insert_account, (store_db_t *db, const char *name, \
      const char *hash, int64_t now, int64_t *id), (db, name, hash, now, \
      id)) \
    /* Replaces account id's password hash string. Returns STORE_OK, \
     * STORE_NOT_FOUND (no such account), or STORE_ERROR (logged, without the \
     * hash). */ \
    X(int, set_password_hash, (store_db_t *db, int64_t id, const char *hash), \
      (db, id, hash)) \
    /* Looks an account up by name, whatever its case. Returns 1 with its id, \
     * its name as registered (name_out, ACCT_NAME_MAX + 1 bytes) and its hash \
     * string (hash_out, hashlen bytes), 0 if there is none, -1 on error. */ \
    X(int, find_account, (store_db_t *db, const char *name, int64_t *id, \
      char *name_out, char *hash_out, size_t hashlen), (db, name, id, \
      name_out, hash_out, hashlen)) \
    /* 1 if an account has this name, whatever its case; 0 if none; -1 on \
     * error (logged). */ \
    X(int, account_exists, (store_db_t *db, const char *name), (db, name)) \
    /* Account id's display choice (accounts.display, server/session/options.h: 0 is \
     * Auto) into *display. Returns 0 (an account that is gone reads 0), or \
     * -1 on error (logged). */ \
    X(int, account_display, (store_db_t *db, int64_t id, int *display), (db, \
      id, display)) \
    /* Keeps account id's display choice. Returns STORE_OK, STORE_NOT_FOUND \
     * (no such account) or STORE_ERROR (logged). */ \
    X(int, set_account_display, (store_db_t *db, int64_t id, int display), \
      (db, id, display)) \
    /* Fills out (status, top, best, rank) for the n best games and player's \
     * best (player may be NULL). Returns 0, or -1 (out->status STORE_ERROR). */ \
    X(int, scores, (store_db_t *db, int n, const char *player, \
      store_scores_t *out), (db, n, player, out)) \
    /* Fills out (status, n, games) with up to n finished games (capped at \
     * STORE_RECENT_MAX) whose id is above `after`, the newest (highest id) \
     * first. Returns 0, or -1 (out->status STORE_ERROR). */ \
    X(int, recent, (store_db_t *db, int64_t after, int n, \
      store_recent_t *out), (db, after, n, out)) \
    /* Takes the next claim on the account's game in progress (inside a \
     * transaction): a number above every one taken before (SQLite: a meta \
     * counter; PostgreSQL: a sequence, so hosts never wait on each other \
     * for it), recorded on the account and on its game if it has one, so \
     * that the writes of every older claim are refused after. Returns 0 \
     * with *claim, or -1 (logged). */ \
    X(int, progress_claim, (store_db_t *db, int64_t account_id, \
      int64_t *claim), (db, account_id, claim)) \
    /* Games in progress (store.h): inside a transaction, each as `claim` \
     * (0: none). begin replaces the account's game in progress (the \
     * account must exist) and marks it with the claim; end drops it \
     * (which: only if it is that game; NULL: whichever it is). \
     * Return 0, SDB_CLAIMED (or sent, told by sdb_unfollowed), or -1 \
     * (logged). */ \
    X(int, progress_begin, (store_db_t *db, int64_t account_id, \
      int64_t claim, uint32_t version, uint64_t seed, \
      const game_options_t *opt, int64_t started), (db, account_id, claim, \
      version, seed, opt, started)) \
    X(int, progress_end, (store_db_t *db, int64_t account_id, \
      int64_t claim, const sdb_which_t *which), (db, account_id, claim, \
      which)) \
    /* Appends len > 0 key bytes to the account's game in progress. Returns 1 \
     * (appended, or sent: see sdb_unfollowed), 0 (it has none: nothing \
     * written), SDB_CLAIMED, -1 (logged). */ \
    X(int, progress_append, (store_db_t *db, int64_t account_id, \
      int64_t claim, const void *keys, size_t len), (db, account_id, claim, \
      keys, len)) \
    /* Reads the account's game in progress into out (keys, len: *keys, a \
     * malloc'd copy the caller frees, NULL if no byte; out->keys is left NULL). \
     * The keys are the longest run of rows that follow on from byte 0, within \
     * RECORD_ENCODED_MAX (all of them, unless the file was damaged). Returns \
     * and sets out->status: STORE_OK, STORE_NOT_FOUND, or STORE_ERROR \
     * (logged). game_version is not checked here. */ \
    X(int, progress_load, (store_db_t *db, int64_t account_id, \
      store_progress_t *out, void **keys), (db, account_id, out, keys)) \
    /* The account's game in progress without its keys: out's fields as \
     * sdb_progress_load sets them, but len the key bytes the row counts \
     * (keys NULL). Returns and sets out->status: STORE_OK, STORE_NOT_FOUND \
     * or STORE_ERROR (logged). */ \
    X(int, progress_head, (store_db_t *db, int64_t account_id, \
      store_progress_t *out), (db, account_id, out)) \
    /* Saves snap as the account's latest snapshot (inside a transaction), \
     * replacing the one before; a begin or an end of the game drops it. \
     * Returns 1 (saved, or sent: see sdb_unfollowed), 0 (the account has no \
     * game in progress: nothing written), SDB_CLAIMED, -1 (logged). */ \
    X(int, progress_snapshot, (store_db_t *db, int64_t account_id, \
      int64_t claim, const sdb_snapshot_t *snap), (db, account_id, claim, \
      snap)) \
    /* Reads the account's latest snapshot into out (game and checks: malloc'd \
     * copies, freed with sdb_snapshot_free). Returns 1 (found), 0 (none: out \
     * zeroed), -1 (logged; out zeroed). */ \
    X(int, progress_load_snapshot, (store_db_t *db, int64_t account_id, \
      sdb_snapshot_t *out), (db, account_id, out)) \
    /* Reads a finished game's row into g and its record into *record (a \
     * malloc'd copy the caller frees; *len bytes). Returns STORE_OK, \
     * STORE_NOT_FOUND, STORE_NO_RECORD (g set, *record NULL), or STORE_ERROR \
     * (logged). */ \
    X(int, get_record, (store_db_t *db, int64_t game_id, store_game_t *g, \
      void **record, size_t *len), (db, game_id, g, record, len)) \
    /* Up to n games with an id above `after`, oldest first, into out. Works on \
     * a connection from sdb_open_read too. Returns how many (0: no more), or \
     * -1 (logged). */ \
    X(int, list_games, (store_db_t *db, int64_t after, int n, \
      store_listed_t *out), (db, after, n, out)) \
    /* The retention rule (store.h): deletes the guests' games that ended \
     * before `before` (Unix seconds) and are not among the keep_top best of \
     * the hall of fame. Inside a transaction. Returns how many, or -1 \
     * (logged). */ \
    X(long long, prune_guests, (store_db_t *db, int64_t before, \
      int keep_top), (db, before, keep_top)) \
    /* Reserves n guest numbers in the meta table (inside a transaction): \
     * returns the first, or -1 (logged). sdb_open reserves STORE_GUEST_BLOCK \
     * of them as its first write; sdb_guest_first says the first of those. */ \
    X(long long, guest_reserve, (store_db_t *db, long long n), (db, n)) \
    /* Gives back the guest numbers [from, end) reserved and never handed \
     * out (inside a transaction): the next reservation starts at from, if \
     * the next is still end (nobody reserved since: no other host, no new \
     * process of an upgrade; the store's probe gives its one back in its \
     * own transaction). Returns 1 if given back, 0 if not, -1 (logged). */ \
    X(int, guest_give_back, (store_db_t *db, long long from, long long end), \
      (db, from, end)) \
    X(long long, guest_first, (const store_db_t *db), (db)) \
    X(size_t, unfollowed, (store_db_t *db, const store_unfollowed_t **out), \
      (db, out)) \
    /* What messages call the database: the file's path, or the URL without \
     * its password. */ \
    X(const char *, name, (store_db_t *db), (db)) \
    /* Whether the database's file is no longer at its path: 1 when the \
     * path names no file, or another one than the file open (renamed, \
     * deleted or replaced while open: SQLite goes on writing to the file \
     * it has open, which the next start does not read), 0 when it is in \
     * place or this cannot be told (PostgreSQL: always 0). */ \
    X(int, moved, (store_db_t *db), (db)) \
    /* The database as this connection sees it written to the new file \
     * dst (SQLite's VACUUM INTO; outside a transaction), for a file that \
     * moved: 0, or -1 with why in errmsg. PostgreSQL: -1, no file. */ \
    X(int, copy_to, (store_db_t *db, const char *dst), (db, dst)) \
    /* The database's sentence for the last statement that failed. */ \
    X(const char *, errmsg, (store_db_t *db), (db)) \
    /* The schema version of an open database (SQLite's PRAGMA user_version, \
     * PostgreSQL's rogued_schema table), or -1. */ \
    X(int, version, (store_db_t *db), (db)) \
    /* SSH public keys (store.h): inside a transaction. key_add inserts one \
     * unless the account has it (STORE_DUPLICATE) or max of them already \
     * (STORE_FULL), or there is no such account (STORE_NOT_FOUND); returns \
     * STORE_OK or one of those, or STORE_ERROR (logged). key_remove returns \
     * STORE_OK, STORE_NOT_FOUND or STORE_ERROR. keys_list fills out->n and \
     * out->keys (oldest first, at most STORE_KEYS_MAX); returns 0, or -1 \
     * (logged). key_find: the account of this name (any case) with this key \
     * fingerprint: 1 with its id, its name as registered (name_out, \
     * ACCT_NAME_MAX + 1 bytes) and the key's text (key_out, keylen bytes), 0 \
     * if none, -1 on error (logged). */ \
    X(int, key_add, (store_db_t *db, int64_t account_id, \
      const char *fingerprint, const char *key, int64_t now, int max), (db, \
      account_id, fingerprint, key, now, max)) \
    X(int, key_remove, (store_db_t *db, int64_t account_id, \
      const char *fingerprint), (db, account_id, fingerprint)) \
    X(int, keys_list, (store_db_t *db, int64_t account_id, \
      store_keys_t *out), (db, account_id, out)) \
    X(int, key_find, (store_db_t *db, const char *name, \
      const char *fingerprint, int64_t *id, char *name_out, char *key_out, \
      size_t keylen), (db, name, fingerprint, id, name_out, key_out, \
      keylen)) \
    /* Bans (store_types.h): ban_put keeps b, replacing a ban of the same \
     * target; returns 0, or -1 (logged). ban_remove returns STORE_OK, \
     * STORE_NOT_FOUND or STORE_ERROR. bans_read fills out with up to max \
     * bans, ended ones too, oldest first: returns how many, or -1 \
     * (logged). */ \
    X(int, ban_put, (store_db_t *db, const store_ban_t *b), (db, b)) \
    X(int, ban_remove, (store_db_t *db, const char *target), (db, target)) \
    X(int, bans_read, (store_db_t *db, store_ban_t *out, int max), (db, out, \
      max))

/* The calls that answer nothing, listed the same way. */
#define SDB_VOID_CALLS(X) \
    /* After sdb_set_quiet(db, 1) failed statements are not logged: the store \
     * has said once that writes are failing (store_healthy). */ \
    X(void, set_quiet, (store_db_t *db, int quiet), (db, quiet)) \
    /* How long a statement waits for another connection's lock (ms; SQLite's \
     * busy timeout, PostgreSQL's lock_timeout). */ \
    X(void, set_busy, (store_db_t *db, int ms), (db, ms))

/* A backend's table: how it opens a connection, and each call of the
 * lists above as a pointer. */
struct sdb_ops {
    /* Opens or creates (open) a database at `where` and migrates it, or
     * opens an existing one to read (open_read): as sdb_open and
     * sdb_open_read say. */
    store_db_t *(*open)(const char *where, int migrate_to, char *err,
                        size_t errlen);
    store_db_t *(*open_read)(const char *where, char *err, size_t errlen);
    void (*close)(store_db_t *db);
#define SDB_OP(ret, name, params, args) ret (*name) params;
    SDB_CALLS(SDB_OP)
    SDB_VOID_CALLS(SDB_OP)
#undef SDB_OP
};

/* Each call of the lists, passed to db's backend (store_backend.c); one
 * prototype per line of the lists, sdb_NAME. */
#define SDB_PROTO(ret, name, params, args) ret sdb_##name params;
SDB_CALLS(SDB_PROTO)
SDB_VOID_CALLS(SDB_PROTO)
#undef SDB_PROTO

/* Opens or creates the database and migrates it (see store_open for what
 * is refused). where: a file's path (SQLite), or a libpq URL beginning
 * postgresql:// or postgres:// (PostgreSQL). migrate_to: the schema
 * version to stop at (STORE_SCHEMA_VERSION for the server). Returns the
 * connection, or NULL with a sentence naming the database in err. */
store_db_t *sdb_open(const char *where, int migrate_to, char *err,
                     size_t errlen);

/* Opens an existing database to read, for tools (rogued --export) that
 * read while a server may be running (WAL: neither waits for the other):
 * query-only, nothing migrated or written, no file left behind (SQLite's
 * -wal and -shm files, if it made them, go when it closes, unless the
 * database file is read-only to us). Refuses what sdb_open
 * refuses, and a missing file or one with no schema yet, with a sentence
 * naming the file in err. Only sdb_get_record, sdb_list_games and the
 * reads of games in progress (sdb_progress_head, _load, _load_snapshot)
 * may be used on it. */
store_db_t *sdb_open_read(const char *where, char *err, size_t errlen);

/* Finalises every statement and closes the connection (NULL is fine). */
void sdb_close(store_db_t *db);

/* Frees a snapshot's copies and zeroes it. */
void sdb_snapshot_free(sdb_snapshot_t *snap);

#endif
