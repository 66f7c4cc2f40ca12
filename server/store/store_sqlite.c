/* store_sqlite.c - the SQLite backend (store_backend.h), the default: the
 * file, refusing what is not ours, WAL, migrations in order inside one
 * transaction, and the prepared statements. */
#include "store_backend.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"

/* The schema, one step per version, in order: migrations[v] takes a
 * database from version v to v + 1. Released steps never change; a new
 * version is a new line at the end (and STORE_SCHEMA_VERSION + 1). */
static const char *const migrations[] = {
    /* 1: accounts, games, the hall of fame's order */
    "CREATE TABLE accounts ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
    "  pwhash TEXT NOT NULL,"        /* crypto_pwhash_str: Argon2id, salted */
    "  created INTEGER NOT NULL"     /* Unix seconds */
    ");"
    "CREATE TABLE games ("
    "  id INTEGER PRIMARY KEY,"
    "  player TEXT NOT NULL,"        /* the account's name, or a guest's */
    "  account_id INTEGER REFERENCES accounts(id)," /* NULL: a guest */
    "  ruleset INTEGER NOT NULL,"
    "  seed INTEGER NOT NULL,"       /* the uint64 seed's bits */
    "  score INTEGER NOT NULL,"
    "  depth INTEGER NOT NULL,"
    "  turns INTEGER NOT NULL,"
    "  kills INTEGER NOT NULL,"
    "  cause TEXT NOT NULL,"
    "  started INTEGER NOT NULL,"
    "  ended INTEGER NOT NULL,"
    "  record BLOB"                  /* record.h bytes; NULL if dropped */
    ");"
    "CREATE INDEX games_by_score ON games(score DESC, ended, id);",
    /* 2: a player's own best without a scan */
    "CREATE INDEX games_by_account ON games(account_id, score DESC, ended, id);",
    /* 3: games in progress, one per account, and their keys appended a
     * second at a time: the rows of an account are one byte string, cut at
     * pos (the bytes before it), in order; keys_len is its length */
    "CREATE TABLE progress ("
    "  account_id INTEGER PRIMARY KEY REFERENCES accounts(id),"
    "  game_version INTEGER NOT NULL," /* GAME_VERSION of the core */
    "  seed INTEGER NOT NULL,"       /* the uint64 seed's bits */
    "  ruleset INTEGER NOT NULL,"    /* game_options_t, one column a field */
    "  started INTEGER NOT NULL,"    /* Unix seconds */
    "  keys_len INTEGER NOT NULL"    /* bytes in progress_keys */
    ");"
    "CREATE TABLE progress_keys ("
    "  account_id INTEGER NOT NULL," /* progress(account_id) */
    "  pos INTEGER NOT NULL,"        /* bytes of keys before these */
    "  keys BLOB NOT NULL,"          /* record.h key varints, whole */
    "  PRIMARY KEY (account_id, pos)"
    ") WITHOUT ROWID;",
    /* 4: how each game ended (enum store_ending) and whether it counts in
     * the hall of fame (store_game_ranked), read from the cause for older
     * games; the guests' games by age, for the retention rule; and meta,
     * the server's counters (the next guest number). */
    "ALTER TABLE games ADD COLUMN ending INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN ranked INTEGER NOT NULL DEFAULT 0;"
    "UPDATE games SET ending = CASE WHEN cause = 'quit' THEN 3"
    "  WHEN cause LIKE 'disconnected%' THEN 4 ELSE 1 END;"
    "UPDATE games SET ranked = ending IN (1, 2) OR (ending = 3 AND turns >= 100);"
    "DROP INDEX games_by_score;"
    "CREATE INDEX games_ranked ON games(score DESC, ended, id) WHERE ranked = 1;"
    "DROP INDEX games_by_account;"
    "CREATE INDEX games_by_account ON games(account_id, ranked, score DESC,"
    "  ended, id);"
    "CREATE INDEX games_of_guests ON games(ended) WHERE account_id IS NULL;"
    "CREATE TABLE meta ("
    "  key TEXT PRIMARY KEY,"
    "  value INTEGER NOT NULL"
    ") WITHOUT ROWID;",
    /* 5: the latest snapshot of each game in progress, so that a resume
     * replays only the keys after it: NULL until the first (a begin
     * inserts the row without one; an end deletes it with the row) */
    "ALTER TABLE progress ADD COLUMN snap_version INTEGER;" /* GAME_VERSION */
    "ALTER TABLE progress ADD COLUMN snap_keys INTEGER;"  /* keys before it */
    "ALTER TABLE progress ADD COLUMN snap_pos INTEGER;"   /* their bytes */
    "ALTER TABLE progress ADD COLUMN snap_game BLOB;"     /* the game_t */
    "ALTER TABLE progress ADD COLUMN snap_checks BLOB;",  /* record.h checks
                                                             up to it */
    /* 6: the SSH public keys an account logs in with, and the account's
     * display choice (glyphs and colours; 0: as its terminal says) */
    "CREATE TABLE account_keys ("
    "  account_id INTEGER NOT NULL REFERENCES accounts(id),"
    "  fingerprint TEXT NOT NULL,"   /* "SHA256:..." as ssh-keygen -l shows */
    "  key TEXT NOT NULL,"           /* OpenSSH's one line: "type base64" */
    "  added INTEGER NOT NULL,"      /* Unix seconds */
    "  PRIMARY KEY (account_id, fingerprint)"
    ") WITHOUT ROWID;"
    "ALTER TABLE accounts ADD COLUMN display INTEGER NOT NULL DEFAULT 0;",
};
#define NMIGRATIONS (int)(sizeof migrations / sizeof migrations[0])
_Static_assert(sizeof migrations / sizeof migrations[0] == STORE_SCHEMA_VERSION,
               "one migration per schema version");
/* A new field of game_options_t is a new column of progress (a migration,
 * NOT NULL DEFAULT 0) and a line in lite_progress_begin and _load. */
_Static_assert(sizeof(game_options_t) == sizeof(int),
               "game_options_t grew: store it in the progress table");

#define SCORE_COLS "id, player, score, depth, turns, kills, ruleset, cause," \
                   " ended, ending"

enum stmt {
    ST_INS_GAME, ST_INS_ACCT, ST_FIND_ACCT, ST_ACCT_EXISTS, ST_TOP, ST_BEST,
    ST_RANK, ST_BEGIN, ST_COMMIT, ST_ROLLBACK,
    ST_PROG_DEL_KEYS, ST_PROG_DEL, ST_PROG_INS, ST_PROG_APPEND, ST_PROG_GROW,
    ST_PROG_GET, ST_PROG_KEYS, ST_GET_GAME, ST_LIST, ST_PRUNE, ST_SET_PWHASH,
    ST_SNAP_SET, ST_SNAP_GET,
    ST_KEY_COUNT, ST_KEY_INS, ST_KEY_DEL, ST_KEY_LIST, ST_KEY_FIND,
    ST_GET_DISPLAY, ST_SET_DISPLAY,
    ST_COUNT
};

#define GAME_COLS "player, account_id, ruleset, seed, score, depth, turns," \
                  " kills, cause, started, ended"

static const char *const stmt_sql[ST_COUNT] = {
    [ST_INS_GAME] = "INSERT INTO games (player, account_id, ruleset, seed,"
                    " score, depth, turns, kills, cause, started, ended, record,"
                    " ending, ranked)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [ST_INS_ACCT] = "INSERT INTO accounts (name, pwhash, created) VALUES (?, ?, ?)",
    [ST_SET_PWHASH] = "UPDATE accounts SET pwhash = ? WHERE id = ?",
    [ST_FIND_ACCT] = "SELECT id, name, pwhash FROM accounts WHERE name = ?",
    [ST_ACCT_EXISTS] = "SELECT 1 FROM accounts WHERE name = ?",
    [ST_GET_DISPLAY] = "SELECT display FROM accounts WHERE id = ?",
    [ST_SET_DISPLAY] = "UPDATE accounts SET display = ? WHERE id = ?",
    [ST_TOP] = "SELECT " SCORE_COLS " FROM games WHERE ranked = 1"
               " ORDER BY score DESC, ended, id LIMIT ?",
    [ST_BEST] = "SELECT " SCORE_COLS " FROM games WHERE account_id ="
                " (SELECT id FROM accounts WHERE name = ?) AND ranked = 1"
                " ORDER BY score DESC, ended, id LIMIT 1",
    /* ranked games before (score, ended, id) in the hall of fame's order */
    [ST_RANK] = "SELECT (SELECT count(*) FROM games WHERE ranked = 1 AND"
                "  score > ?1) +"
                " (SELECT count(*) FROM games WHERE ranked = 1 AND score = ?1"
                "  AND (ended < ?2 OR (ended = ?2 AND id < ?3)))",
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_PROG_DEL_KEYS] = "DELETE FROM progress_keys WHERE account_id = ?",
    [ST_PROG_DEL] = "DELETE FROM progress WHERE account_id = ?",
    [ST_PROG_INS] = "INSERT INTO progress (account_id, game_version, seed,"
                    " ruleset, started, keys_len) VALUES (?, ?, ?, ?, ?, 0)",
    /* nothing if the account has no game in progress */
    [ST_PROG_APPEND] = "INSERT INTO progress_keys (account_id, pos, keys)"
                       " SELECT account_id, keys_len, ?2 FROM progress"
                       " WHERE account_id = ?1",
    [ST_PROG_GROW] = "UPDATE progress SET keys_len = keys_len + ?2"
                     " WHERE account_id = ?1",
    [ST_PROG_GET] = "SELECT game_version, seed, ruleset, started, keys_len"
                    " FROM progress WHERE account_id = ?",
    [ST_PROG_KEYS] = "SELECT pos, keys FROM progress_keys WHERE account_id = ?"
                     " ORDER BY pos",
    /* the latest snapshot replaces the one before; nothing if the account
     * has no game in progress */
    [ST_SNAP_SET] = "UPDATE progress SET snap_version = ?2, snap_keys = ?3,"
                    " snap_pos = ?4, snap_game = ?5, snap_checks = ?6"
                    " WHERE account_id = ?1",
    [ST_SNAP_GET] = "SELECT snap_version, snap_keys, snap_pos, snap_game,"
                    " snap_checks FROM progress"
                    " WHERE account_id = ? AND snap_game IS NOT NULL",
    [ST_GET_GAME] = "SELECT " GAME_COLS ", record, ending FROM games"
                    " WHERE id = ?",
    /* rogued --list-games: every game after id ?1, oldest first */
    [ST_LIST] = "SELECT id, " GAME_COLS ", ending, record IS NOT NULL"
                " FROM games WHERE id > ? ORDER BY id LIMIT ?",
    /* the retention rule (store.h): guests' games ended before ?1, unless
     * among the ?2 best of the hall of fame */
    [ST_PRUNE] = "DELETE FROM games WHERE account_id IS NULL AND ended < ?1"
                 " AND id NOT IN (SELECT id FROM games WHERE ranked = 1"
                 "  ORDER BY score DESC, ended, id LIMIT ?2)",
    /* SSH public keys: how many the account has, and whether this one */
    [ST_KEY_COUNT] = "SELECT count(*), coalesce(sum(fingerprint = ?2), 0)"
                     " FROM account_keys WHERE account_id = ?1",
    [ST_KEY_INS] = "INSERT INTO account_keys (account_id, fingerprint, key,"
                   " added) VALUES (?, ?, ?, ?)",
    [ST_KEY_DEL] = "DELETE FROM account_keys WHERE account_id = ?"
                   " AND fingerprint = ?",
    /* the type is the key line's first word */
    [ST_KEY_LIST] = "SELECT fingerprint, substr(key, 1, instr(key || ' ', ' ')"
                    " - 1), added FROM account_keys WHERE account_id = ?"
                    " ORDER BY added, fingerprint LIMIT ?",
    [ST_KEY_FIND] = "SELECT a.id, a.name, k.key FROM accounts a JOIN"
                    " account_keys k ON k.account_id = a.id"
                    " WHERE a.name = ?1 AND k.fingerprint = ?2",
};

struct lite {
    sqlite3 *db;
    char path[512];
    sqlite3_stmt *st[ST_COUNT];
    int quiet;          /* lite_set_quiet: failures are not logged */
    int last_rc;        /* the last statement's failure, for lite_errmsg */
    long long guest_first; /* lite_open: the first guest number reserved */
};

/* A failed statement's line in the log, unless the store already said it
 * is failing (lite_set_quiet): one line, not one per key. */
#define db_fail(d, ...) do { if (!(d)->quiet) log_error(__VA_ARGS__); } while (0)

const char *lite_errmsg(lite_t *d)
{
    return d->last_rc ? sqlite3_errstr(d->last_rc) : sqlite3_errmsg(d->db);
}

const char *lite_name(lite_t *d)
{
    return d->path;
}

void lite_set_busy(lite_t *d, int ms)
{
    sqlite3_busy_timeout(d->db, ms);
}

void lite_set_quiet(lite_t *d, int quiet)
{
    d->quiet = quiet;
}

/* The uint64 seed as SQLite's int64, bit for bit, without an
 * implementation-defined conversion. */
static sqlite3_int64 u64_bits(uint64_t v)
{
    return v <= INT64_MAX ? (sqlite3_int64)v
                          : -(sqlite3_int64)(UINT64_MAX - v) - 1;
}

static void set_err(char *err, size_t errlen, const char *fmt, const char *path,
                    const char *detail)
{
    snprintf(err, errlen, fmt, path, detail);
}

/* Runs one statement that returns at most one integer (a PRAGMA, a count).
 * Returns 0 with *out (0 if no row), or the SQLite error code. */
static int query_int(sqlite3 *db, const char *sql, long long *out)
{
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
    if (rc != SQLITE_OK)
        return rc;
    *out = 0;
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : rc;
}

/* Is it ours? Returns 0 (ours, or empty: *fresh), or -1 with err. */
static int check_owner(lite_t *d, int *fresh, long long *version,
                       char *err, size_t errlen)
{
    long long app, objects;
    int rc = query_int(d->db, "SELECT count(*) FROM sqlite_master", &objects);
    if (rc == SQLITE_NOTADB) {
        set_err(err, errlen, "%s is not a SQLite database (%s); move it away "
                "or choose another data directory", d->path, sqlite3_errstr(rc));
        return -1;
    }
    if (rc != 0 ||
        (rc = query_int(d->db, "PRAGMA application_id", &app)) != 0 ||
        (rc = query_int(d->db, "PRAGMA user_version", version)) != 0) {
        set_err(err, errlen, "%s: cannot read the database: %s", d->path,
                sqlite3_errmsg(d->db));
        return -1;
    }
    *fresh = app == 0 && objects == 0 && *version == 0;
    if (!*fresh && app != STORE_APP_ID) {
        char why[160];
        snprintf(why, sizeof why, "application_id 0x%08llx, %lld schema objects",
                 (unsigned long long)(app & 0xffffffffLL), objects);
        set_err(err, errlen, "%s is a SQLite database of another application "
                "(%s), not rogued's; refusing to use it", d->path, why);
        return -1;
    }
    if (*version > NMIGRATIONS) {
        char why[96];
        snprintf(why, sizeof why, "%lld, this rogued knows up to %d", *version,
                 NMIGRATIONS);
        set_err(err, errlen, "%s was made by a newer rogued (schema version "
                "%s); refusing to use it", d->path, why);
        return -1;
    }
    return 0;
}

/* Applies migrations[from .. to-1] and sets application_id and
 * user_version, all in one transaction. */
static int migrate(lite_t *d, int fresh, int to, char *err, size_t errlen)
{
    char *msg = NULL;
    long long from;
    int rc = sqlite3_exec(d->db, "BEGIN IMMEDIATE", NULL, NULL, &msg);
    /* read again under the write lock: another process may have been first */
    if (rc == SQLITE_OK &&
        (rc = query_int(d->db, "PRAGMA user_version", &from)) == 0 &&
        from < to) {
        char sql[96];
        if (fresh) {
            snprintf(sql, sizeof sql, "PRAGMA application_id = %d", STORE_APP_ID);
            rc = sqlite3_exec(d->db, sql, NULL, NULL, &msg);
        }
        for (long long v = from; rc == SQLITE_OK && v < to; v++)
            rc = sqlite3_exec(d->db, migrations[v], NULL, NULL, &msg);
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", to);
        if (rc == SQLITE_OK)
            rc = sqlite3_exec(d->db, sql, NULL, NULL, &msg);
        if (rc == SQLITE_OK)
            log_info("store: %s: schema version %lld -> %d", d->path, from, to);
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(d->db, "COMMIT", NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        set_err(err, errlen, "%s: cannot set up the schema: %s", d->path,
                msg ? msg : sqlite3_errmsg(d->db));
        sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
    }
    sqlite3_free(msg);
    return rc == SQLITE_OK ? 0 : -1;
}

/* Prepares every statement, or (read_only) those of lite_open_read. */
static int prepare(lite_t *d, int read_only, char *err, size_t errlen)
{
    for (int i = 0; i < ST_COUNT; i++) {
        if (read_only && i != ST_GET_GAME && i != ST_LIST)
            continue;
        if (sqlite3_prepare_v3(d->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
                               &d->st[i], NULL) != SQLITE_OK) {
            set_err(err, errlen, "%s: %s", d->path, sqlite3_errmsg(d->db));
            return -1;
        }
    }
    return 0;
}

/* PRAGMA quick_check: a damaged page refuses the file at start, rather
 * than failing every player later. Returns 0, or -1 with err. */
static int integrity(lite_t *d, char *err, size_t errlen)
{
    sqlite3_stmt *s;
    char first[200] = "";
    int rc = sqlite3_prepare_v2(d->db, "PRAGMA quick_check(1)", -1, &s, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(s);
        if (rc == SQLITE_ROW) {
            const unsigned char *t = sqlite3_column_text(s, 0);
            snprintf(first, sizeof first, "%s", t ? (const char *)t : "");
            rc = strcmp(first, "ok") == 0 ? SQLITE_OK : SQLITE_CORRUPT;
        }
        sqlite3_finalize(s);
    }
    if (rc == SQLITE_OK || rc == SQLITE_DONE)
        return 0;
    if (!first[0])
        snprintf(first, sizeof first, "%s", sqlite3_errmsg(d->db));
    set_err(err, errlen, "%s is damaged (PRAGMA quick_check: %s); stop here "
            "and restore it from a backup, or save what can be read with "
            "`sqlite3 rogued.db .recover | sqlite3 new.db` and put new.db in "
            "its place, or move it away to start with an empty one", d->path,
            first);
    return -1;
}

/* The meta row of the next guest number, and how far it is reserved. */
#define GUEST_KEY "next_guest"

static int meta_get(lite_t *d, const char *key, long long *v)
{
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(d->db, "SELECT value FROM meta WHERE key = ?",
                                -1, &s, NULL);
    *v = 0;
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int meta_set(lite_t *d, const char *key, long long v)
{
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(d->db, "INSERT INTO meta (key, value) VALUES"
                                " (?1, ?2) ON CONFLICT(key) DO UPDATE SET"
                                " value = ?2", -1, &s, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 2, v);
    rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

long long lite_guest_reserve(lite_t *d, long long n)
{
    long long next;
    int rc = meta_get(d, GUEST_KEY, &next);
    if (rc == SQLITE_OK) {
        if (next < 1)
            next = 1;
        rc = meta_set(d, GUEST_KEY, next + n);
    }
    if (rc != SQLITE_OK) {
        db_fail(d, "store: %s: guest numbers not reserved: %s", d->path,
                sqlite3_errstr(rc));
        return -1;
    }
    return next;
}

static int guest_reserve(lite_t *d, char *err, size_t errlen)
{
    char *msg = NULL;
    int rc = sqlite3_exec(d->db, "BEGIN IMMEDIATE", NULL, NULL, &msg);
    long long first = -1;
    if (rc == SQLITE_OK) {
        first = lite_guest_reserve(d, STORE_GUEST_BLOCK);
        rc = sqlite3_exec(d->db, first > 0 ? "COMMIT" : "ROLLBACK", NULL, NULL,
                          &msg);
    }
    if (rc != SQLITE_OK || first < 1) {
        set_err(err, errlen, "%s cannot be written (%s): games would be lost; "
                "make the file and its directory writable by the user rogued "
                "runs as (SQLite adds -wal and -shm files beside it), or "
                "choose another data directory", d->path,
                msg ? msg : sqlite3_errmsg(d->db));
        sqlite3_free(msg);
        return -1;
    }
    d->guest_first = first;
    return 0;
}

long long lite_guest_first(const lite_t *d)
{
    return d->guest_first;
}

static int setup(lite_t *d, int migrate_to, char *err, size_t errlen)
{
    int fresh;
    long long version;
    long long dummy;
    sqlite3_busy_timeout(d->db, 10000);
    if (check_owner(d, &fresh, &version, err, errlen) != 0)
        return -1;
    if (version > migrate_to) {
        set_err(err, errlen, "%s: its schema is newer than the version %s",
                d->path, "asked for");
        return -1;
    }
    /* WAL: readers never wait for the writer; one fsync per batch. */
    sqlite3_stmt *s;
    int wal = 0;
    if (sqlite3_prepare_v2(d->db, "PRAGMA journal_mode = WAL", -1, &s, NULL) ==
        SQLITE_OK) {
        const unsigned char *mode = NULL;
        if (sqlite3_step(s) == SQLITE_ROW)
            mode = sqlite3_column_text(s, 0);
        wal = mode && strcmp((const char *)mode, "wal") == 0;
        sqlite3_finalize(s);
    }
    if (!wal) {
        set_err(err, errlen, "%s: cannot switch to WAL mode: %s", d->path,
                sqlite3_errmsg(d->db));
        return -1;
    }
    if (query_int(d->db, "PRAGMA synchronous = FULL", &dummy) != 0 ||
        query_int(d->db, "PRAGMA foreign_keys = ON", &dummy) != 0) {
        set_err(err, errlen, "%s: %s", d->path, sqlite3_errmsg(d->db));
        return -1;
    }
    if (sqlite3_db_readonly(d->db, "main") == 1) {
        set_err(err, errlen, "%s cannot be written (the file is read-only to "
                "this user%s): games would be lost; make it and its directory "
                "writable by the user rogued runs as, or choose another data "
                "directory", d->path, "");
        return -1;
    }
    if (!fresh && integrity(d, err, errlen) != 0)
        return -1;
    if (migrate(d, fresh, migrate_to, err, errlen) != 0)
        return -1;
    if (migrate_to != STORE_SCHEMA_VERSION)
        return 0;
    if (prepare(d, 0, err, errlen) != 0)
        return -1;
    /* The first write of every start, so that a file or directory that
     * cannot be written stops the server now, not at the first game. */
    if (guest_reserve(d, err, errlen) != 0)
        return -1;
    return 0;
}

lite_t *lite_open(const char *path, int migrate_to, char *err, size_t errlen)
{
    if (migrate_to < 1 || migrate_to > NMIGRATIONS) {
        snprintf(err, errlen, "no schema version %d", migrate_to);
        return NULL;
    }
    lite_t *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(d->path, sizeof d->path, "%s", path);
    /* An existing file is opened as it is (never re-created); a missing or
     * empty one becomes ours. */
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode)) {
        set_err(err, errlen, "%s is not a regular file%s", path, "");
        free(d);
        return NULL;
    }
    /* SQLite would open a read-only file read-only, and a directory we may
     * not write fails only at the first game: refuse both now. */
    char parent[sizeof d->path];
    snprintf(parent, sizeof parent, "%s", path);
    char *slash = strrchr(parent, '/');
    if (slash)
        *(slash == parent ? slash + 1 : slash) = '\0';
    else
        snprintf(parent, sizeof parent, ".");
    if (access(parent, W_OK) != 0) {
        set_err(err, errlen, "%s cannot be written (its directory is "
                "read-only to this user: %s): games would be lost; make the "
                "directory writable by the user rogued runs as, or choose "
                "another data directory", path, strerror(errno));
        free(d);
        return NULL;
    }
    if (exists && access(path, W_OK) != 0) {
        set_err(err, errlen, "%s cannot be written (the file is read-only to "
                "this user: %s): games would be lost; make it writable by the "
                "user rogued runs as, or choose another data directory", path,
                strerror(errno));
        free(d);
        return NULL;
    }
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                (exists ? 0 : SQLITE_OPEN_CREATE);
    int rc = sqlite3_open_v2(path, &d->db, flags, NULL);
    if (rc != SQLITE_OK) {
        set_err(err, errlen, "%s: cannot open: %s", path,
                d->db ? sqlite3_errmsg(d->db) : sqlite3_errstr(rc));
        lite_close(d);
        return NULL;
    }
    sqlite3_extended_result_codes(d->db, 1);
    if (setup(d, migrate_to, err, errlen) != 0) {
        lite_close(d);
        return NULL;
    }
    return d;
}

lite_t *lite_open_read(const char *path, char *err, size_t errlen)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        set_err(err, errlen, "%s: no database there (%s); is the data "
                "directory right?", path, strerror(errno));
        return NULL;
    }
    lite_t *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(d->path, sizeof d->path, "%s", path);
    int fresh;
    long long version;
    /* Read-write where we may, made query-only: then closing the last
     * connection (no server running) checkpoints and removes the -wal and
     * -shm files it needed, and the directory is left as it was found. A
     * file we may not write is opened read-only. */
    int writable = access(path, W_OK) == 0;
    int rc = sqlite3_open_v2(path, &d->db, (writable ? SQLITE_OPEN_READWRITE
                                                     : SQLITE_OPEN_READONLY) |
                             SQLITE_OPEN_NOMUTEX, NULL);
    long long dummy;
    if (rc != SQLITE_OK) {
        set_err(err, errlen, "%s: cannot open: %s", path,
                d->db ? sqlite3_errmsg(d->db) : sqlite3_errstr(rc));
    } else {
        sqlite3_extended_result_codes(d->db, 1);
        sqlite3_busy_timeout(d->db, 10000);
        if (query_int(d->db, "PRAGMA query_only = ON", &dummy) != 0)
            set_err(err, errlen, "%s: %s", path, sqlite3_errmsg(d->db));
        else if (check_owner(d, &fresh, &version, err, errlen) == 0) {
            if (fresh || version < 1)
                set_err(err, errlen, "%s: no rogued database yet%s", path, "");
            else if (prepare(d, 1, err, errlen) == 0)
                return d;
        }
    }
    lite_close(d);
    return NULL;
}

void lite_close(lite_t *d)
{
    if (!d)
        return;
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(d->st[i]);
    if (d->db && sqlite3_close(d->db) != SQLITE_OK)
        log_error("store: %s: close: %s", d->path, sqlite3_errmsg(d->db));
    free(d);
}

int lite_version(lite_t *d)
{
    long long v;
    return query_int(d->db, "PRAGMA user_version", &v) == 0 ? (int)v : -1;
}

/* Steps a statement to its end and resets it (bindings cleared). */
static int run(lite_t *d, enum stmt which)
{
    sqlite3_stmt *s = d->st[which];
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        d->last_rc = rc;
    return rc;
}

static int simple(lite_t *d, enum stmt which)
{
    int rc = run(d, which);
    if (rc == SQLITE_DONE)
        return 0;
    db_fail(d, "store: %s: %s: %s", d->path, stmt_sql[which], sqlite3_errstr(rc));
    return -1;
}

int lite_begin(lite_t *d)
{
    return simple(d, ST_BEGIN);
}

int lite_commit(lite_t *d)
{
    return simple(d, ST_COMMIT);
}

int lite_rollback(lite_t *d)
{
    return simple(d, ST_ROLLBACK);
}

int lite_in_transaction(lite_t *d)
{
    return !sqlite3_get_autocommit(d->db);
}

int lite_insert_game(lite_t *d, const store_game_t *g, const void *record,
                    size_t len)
{
    sqlite3_stmt *s = d->st[ST_INS_GAME];
    sqlite3_bind_text(s, 1, g->name, -1, SQLITE_STATIC);
    if (g->account_id > 0)
        sqlite3_bind_int64(s, 2, g->account_id);
    sqlite3_bind_int(s, 3, g->ruleset);
    sqlite3_bind_int64(s, 4, u64_bits(g->seed));
    sqlite3_bind_int(s, 5, g->score);
    sqlite3_bind_int(s, 6, g->depth);
    sqlite3_bind_int(s, 7, g->turns);
    sqlite3_bind_int(s, 8, g->kills);
    sqlite3_bind_text(s, 9, g->cause, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 10, g->started);
    sqlite3_bind_int64(s, 11, g->ended);
    if (record)
        sqlite3_bind_blob64(s, 12, record, len, SQLITE_STATIC);
    sqlite3_bind_int(s, 13, store_game_ending(g));
    sqlite3_bind_int(s, 14, store_game_ranked(g));
    int rc = run(d, ST_INS_GAME);
    if (rc == SQLITE_DONE)
        return 0;
    db_fail(d, "store: %s: a game of %s not written: %s", d->path, g->name,
              sqlite3_errstr(rc));
    return -1;
}

int lite_insert_account(lite_t *d, const char *name, const char *hash,
                       int64_t now, int64_t *id)
{
    sqlite3_stmt *s = d->st[ST_INS_ACCT];
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 3, now);
    int rc = run(d, ST_INS_ACCT);
    if (rc == SQLITE_DONE) {
        *id = sqlite3_last_insert_rowid(d->db);
        return STORE_OK;
    }
    if (rc == SQLITE_CONSTRAINT_UNIQUE)
        return STORE_NAME_TAKEN;
    db_fail(d, "store: %s: account %s not created: %s", d->path, name,
              sqlite3_errstr(rc));
    return STORE_ERROR;
}

int lite_set_password_hash(lite_t *d, int64_t id, const char *hash)
{
    sqlite3_stmt *s = d->st[ST_SET_PWHASH];
    sqlite3_bind_text(s, 1, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 2, id);
    int rc = run(d, ST_SET_PWHASH);
    if (rc == SQLITE_DONE)
        return sqlite3_changes(d->db) == 1 ? STORE_OK : STORE_NOT_FOUND;
    db_fail(d, "store: %s: the password of account %lld not changed: %s",
            d->path, (long long)id, sqlite3_errstr(rc));
    return STORE_ERROR;
}

static void copy_text(char *out, size_t outlen, const unsigned char *text)
{
    snprintf(out, outlen, "%s", text ? (const char *)text : "");
}

int lite_find_account(lite_t *d, const char *name, int64_t *id,
                     char *name_out, char *hash_out, size_t hashlen)
{
    sqlite3_stmt *s = d->st[ST_FIND_ACCT];
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s), found = 0;
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(s, 0);
        copy_text(name_out, ACCT_NAME_MAX + 1, sqlite3_column_text(s, 1));
        copy_text(hash_out, hashlen, sqlite3_column_text(s, 2));
        found = 1;
    } else if (rc != SQLITE_DONE) {
        db_fail(d, "store: %s: account lookup: %s", d->path, sqlite3_errstr(rc));
        found = -1;
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return found;
}

int lite_account_exists(lite_t *d, const char *name)
{
    sqlite3_stmt *s = d->st[ST_ACCT_EXISTS];
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    int rc = run(d, ST_ACCT_EXISTS);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return rc == SQLITE_ROW;
    db_fail(d, "store: %s: account name check: %s", d->path, sqlite3_errstr(rc));
    return -1;
}

int lite_account_display(lite_t *d, int64_t id, int *display)
{
    sqlite3_stmt *s = d->st[ST_GET_DISPLAY];
    sqlite3_bind_int64(s, 1, id);
    int rc = sqlite3_step(s);
    *display = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return 0;
    d->last_rc = rc;
    db_fail(d, "store: %s: the display of account %lld: %s", d->path,
            (long long)id, sqlite3_errstr(rc));
    return -1;
}

int lite_set_account_display(lite_t *d, int64_t id, int display)
{
    sqlite3_stmt *s = d->st[ST_SET_DISPLAY];
    sqlite3_bind_int(s, 1, display);
    sqlite3_bind_int64(s, 2, id);
    int rc = run(d, ST_SET_DISPLAY);
    if (rc == SQLITE_DONE)
        return sqlite3_changes(d->db) == 1 ? STORE_OK : STORE_NOT_FOUND;
    db_fail(d, "store: %s: the display of account %lld not kept: %s",
            d->path, (long long)id, sqlite3_errstr(rc));
    return STORE_ERROR;
}

static void read_score(sqlite3_stmt *s, store_score_t *r)
{
    r->game_id = sqlite3_column_int64(s, 0);
    copy_text(r->name, sizeof r->name, sqlite3_column_text(s, 1));
    r->score = sqlite3_column_int(s, 2);
    r->depth = sqlite3_column_int(s, 3);
    r->turns = sqlite3_column_int(s, 4);
    r->kills = sqlite3_column_int(s, 5);
    r->ruleset = sqlite3_column_int(s, 6);
    copy_text(r->cause, sizeof r->cause, sqlite3_column_text(s, 7));
    r->ended = sqlite3_column_int64(s, 8);
    r->ending = sqlite3_column_int(s, 9);
}

/* Steps a row-returning statement once: 1 a row, 0 done, -1 an error. */
static int step_row(sqlite3_stmt *s, int *failed)
{
    int rc = sqlite3_step(s);
    /* (the failure is the caller's to log: it knows what was read) */
    if (rc == SQLITE_ROW)
        return 1;
    if (rc != SQLITE_DONE)
        *failed = rc;
    return 0;
}

int lite_scores(lite_t *d, int n, const char *player, store_scores_t *out)
{
    int failed = 0;
    memset(out, 0, sizeof *out);
    if (n > STORE_TOP_MAX)
        n = STORE_TOP_MAX;
    sqlite3_stmt *s = d->st[ST_TOP];
    sqlite3_bind_int(s, 1, n);
    while (out->n < n && step_row(s, &failed))
        read_score(s, &out->top[out->n++]);
    sqlite3_reset(s);
    if (player && !failed) {
        s = d->st[ST_BEST];
        sqlite3_bind_text(s, 1, player, -1, SQLITE_STATIC);
        if (step_row(s, &failed)) {
            read_score(s, &out->best);
            out->has_best = 1;
        }
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
    }
    if (out->has_best && !failed) {
        s = d->st[ST_RANK];
        sqlite3_bind_int(s, 1, out->best.score);
        sqlite3_bind_int64(s, 2, out->best.ended);
        sqlite3_bind_int64(s, 3, out->best.game_id);
        if (step_row(s, &failed))
            out->best_rank = sqlite3_column_int64(s, 0) + 1;
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
    }
    if (failed) {
        db_fail(d, "store: %s: hall of fame: %s", d->path, sqlite3_errstr(failed));
        memset(out, 0, sizeof *out);
        out->status = STORE_ERROR;
        return -1;
    }
    out->status = STORE_OK;
    return 0;
}

/* --- games in progress ------------------------------------------------------ */

static int bind_run(lite_t *d, enum stmt which, int64_t id, const char *what)
{
    sqlite3_bind_int64(d->st[which], 1, id);
    int rc = run(d, which);
    if (rc == SQLITE_DONE)
        return 0;
    db_fail(d, "store: %s: account %lld: %s: %s", d->path, (long long)id, what,
              sqlite3_errstr(rc));
    return -1;
}

int lite_progress_end(lite_t *d, int64_t account_id)
{
    if (bind_run(d, ST_PROG_DEL_KEYS, account_id, "progress keys not dropped") != 0)
        return -1;
    return bind_run(d, ST_PROG_DEL, account_id, "progress not dropped");
}

int lite_progress_begin(lite_t *d, int64_t account_id, uint32_t version,
                       uint64_t seed, const game_options_t *opt,
                       int64_t started)
{
    if (lite_progress_end(d, account_id) != 0)
        return -1;
    sqlite3_stmt *s = d->st[ST_PROG_INS];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_int64(s, 2, version);
    sqlite3_bind_int64(s, 3, u64_bits(seed));
    sqlite3_bind_int(s, 4, opt->ruleset);
    sqlite3_bind_int64(s, 5, started);
    int rc = run(d, ST_PROG_INS);
    if (rc == SQLITE_DONE)
        return 0;
    db_fail(d, "store: %s: account %lld: game in progress not begun: %s",
              d->path, (long long)account_id, sqlite3_errstr(rc));
    return -1;
}

int lite_progress_append(lite_t *d, int64_t account_id, const void *keys,
                        size_t len)
{
    sqlite3_stmt *s = d->st[ST_PROG_APPEND];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_blob64(s, 2, keys, len, SQLITE_STATIC);
    int rc = run(d, ST_PROG_APPEND);
    if (rc != SQLITE_DONE) {
        db_fail(d, "store: %s: account %lld: keys not appended: %s", d->path,
                  (long long)account_id, sqlite3_errstr(rc));
        return -1;
    }
    if (sqlite3_changes(d->db) == 0)
        return 0; /* no game in progress */
    s = d->st[ST_PROG_GROW];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_int64(s, 2, (sqlite3_int64)len);
    rc = run(d, ST_PROG_GROW);
    if (rc == SQLITE_DONE)
        return 1;
    db_fail(d, "store: %s: account %lld: keys not appended: %s", d->path,
              (long long)account_id, sqlite3_errstr(rc));
    return -1;
}

int lite_progress_load(lite_t *d, int64_t account_id, store_progress_t *out,
                      void **keys)
{
    int failed = 0;
    memset(out, 0, sizeof *out);
    *keys = NULL;
    out->account_id = account_id;
    out->status = STORE_NOT_FOUND;
    sqlite3_stmt *s = d->st[ST_PROG_GET];
    sqlite3_bind_int64(s, 1, account_id);
    long long want = 0;
    if (step_row(s, &failed)) {
        out->game_version = (uint32_t)sqlite3_column_int64(s, 0);
        out->seed = (uint64_t)sqlite3_column_int64(s, 1);
        out->opt.ruleset = sqlite3_column_int(s, 2);
        out->started = sqlite3_column_int64(s, 3);
        want = sqlite3_column_int64(s, 4);
        out->status = STORE_OK;
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    buf_t b;
    buf_init(&b, RECORD_ENCODED_MAX);
    if (out->status == STORE_OK && !failed) {
        s = d->st[ST_PROG_KEYS];
        sqlite3_bind_int64(s, 1, account_id);
        /* a prefix that follows on, within the cap: what appends made */
        while (step_row(s, &failed)) {
            const void *p = sqlite3_column_blob(s, 1);
            int n = sqlite3_column_bytes(s, 1);
            if (sqlite3_column_int64(s, 0) != (sqlite3_int64)b.len ||
                (n > 0 && buf_append(&b, p, (size_t)n) != 0))
                break;
        }
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
        if (!failed && (long long)b.len != want)
            db_fail(d, "store: %s: account %lld: game in progress has %zu of "
                      "%lld key bytes", d->path, (long long)account_id, b.len,
                      want);
    }
    if (failed) {
        db_fail(d, "store: %s: account %lld: game in progress not read: %s",
                  d->path, (long long)account_id, sqlite3_errstr(failed));
        buf_free(&b);
        memset(out, 0, sizeof *out);
        out->account_id = account_id;
        out->status = STORE_ERROR;
        return STORE_ERROR;
    }
    *keys = b.data; /* NULL if no byte */
    out->len = b.len;
    return out->status;
}

/* --- snapshots of games in progress ------------------------------------------- */

int lite_progress_snapshot(lite_t *d, int64_t account_id,
                           const sdb_snapshot_t *snap)
{
    sqlite3_stmt *s = d->st[ST_SNAP_SET];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_int64(s, 2, snap->version);
    sqlite3_bind_int64(s, 3, snap->keys);
    sqlite3_bind_int64(s, 4, (sqlite3_int64)snap->pos);
    sqlite3_bind_blob64(s, 5, snap->game, snap->game_len, SQLITE_STATIC);
    sqlite3_bind_blob64(s, 6, snap->checks, snap->checks_len, SQLITE_STATIC);
    int rc = run(d, ST_SNAP_SET);
    if (rc != SQLITE_DONE) {
        db_fail(d, "store: %s: account %lld: snapshot not saved: %s", d->path,
                (long long)account_id, sqlite3_errstr(rc));
        return -1;
    }
    return sqlite3_changes(d->db) > 0;
}

/* A malloc'd copy of a blob column (NULL for none or no byte). */
static int column_copy(sqlite3_stmt *s, int col, void **out, size_t *len)
{
    const void *p = sqlite3_column_blob(s, col);
    int n = sqlite3_column_bytes(s, col);
    *out = NULL;
    *len = 0;
    if (!p || n <= 0)
        return 0;
    if (!(*out = malloc((size_t)n)))
        return -1;
    memcpy(*out, p, (size_t)n);
    *len = (size_t)n;
    return 0;
}

int lite_progress_load_snapshot(lite_t *d, int64_t account_id,
                                sdb_snapshot_t *out)
{
    int failed = 0, found = 0;
    memset(out, 0, sizeof *out);
    sqlite3_stmt *s = d->st[ST_SNAP_GET];
    sqlite3_bind_int64(s, 1, account_id);
    if (step_row(s, &failed)) {
        sqlite3_int64 keys = sqlite3_column_int64(s, 1);
        sqlite3_int64 pos = sqlite3_column_int64(s, 2);
        out->version = (uint32_t)sqlite3_column_int64(s, 0);
        out->keys = keys >= 0 && keys <= UINT32_MAX ? (uint32_t)keys : 0;
        out->pos = pos >= 0 ? (size_t)pos : 0;
        if (column_copy(s, 3, &out->game, &out->game_len) != 0 ||
            column_copy(s, 4, &out->checks, &out->checks_len) != 0)
            failed = SQLITE_NOMEM;
        found = out->game != NULL;
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        db_fail(d, "store: %s: account %lld: snapshot not read: %s", d->path,
                (long long)account_id, sqlite3_errstr(failed));
        sdb_snapshot_free(out);
        return -1;
    }
    if (!found) /* (an empty game is none, whatever the other columns say) */
        sdb_snapshot_free(out);
    return found;
}

/* --- finished games by id --------------------------------------------------- */

/* A finished game's columns from `first` on, in the order ST_GET_GAME and
 * ST_LIST both select them: player, account_id, ruleset, seed, score,
 * depth, turns, kills, cause, started, ended. */
static void read_game(sqlite3_stmt *s, int first, store_game_t *g)
{
    copy_text(g->name, sizeof g->name, sqlite3_column_text(s, first));
    g->account_id = sqlite3_column_int64(s, first + 1); /* NULL reads 0 */
    g->ruleset = sqlite3_column_int(s, first + 2);
    g->seed = (uint64_t)sqlite3_column_int64(s, first + 3);
    g->score = sqlite3_column_int(s, first + 4);
    g->depth = sqlite3_column_int(s, first + 5);
    g->turns = sqlite3_column_int(s, first + 6);
    g->kills = sqlite3_column_int(s, first + 7);
    copy_text(g->cause, sizeof g->cause, sqlite3_column_text(s, first + 8));
    g->started = sqlite3_column_int64(s, first + 9);
    g->ended = sqlite3_column_int64(s, first + 10);
}

int lite_get_record(lite_t *d, int64_t game_id, store_game_t *g,
                   void **record, size_t *len)
{
    int failed = 0, status = STORE_NOT_FOUND;
    memset(g, 0, sizeof *g);
    *record = NULL;
    *len = 0;
    sqlite3_stmt *s = d->st[ST_GET_GAME];
    sqlite3_bind_int64(s, 1, game_id);
    if (step_row(s, &failed)) {
        read_game(s, 0, g);
        g->ending = sqlite3_column_int(s, 12);
        const void *p = sqlite3_column_blob(s, 11);
        int n = sqlite3_column_bytes(s, 11);
        status = STORE_NO_RECORD;
        if (sqlite3_column_type(s, 11) == SQLITE_BLOB && n > 0) {
            *record = malloc((size_t)n);
            if (*record) {
                memcpy(*record, p, (size_t)n);
                *len = (size_t)n;
                status = STORE_OK;
            } else {
                status = STORE_ERROR;
            }
        }
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        db_fail(d, "store: %s: game %lld not read: %s", d->path,
                  (long long)game_id, sqlite3_errstr(failed));
        memset(g, 0, sizeof *g);
        return STORE_ERROR;
    }
    return status;
}

/* --- listing and retention -------------------------------------------------- */

int lite_list_games(lite_t *d, int64_t after, int n, store_listed_t *out)
{
    int failed = 0, got = 0;
    sqlite3_stmt *s = d->st[ST_LIST];
    sqlite3_bind_int64(s, 1, after);
    sqlite3_bind_int(s, 2, n);
    while (got < n && step_row(s, &failed)) {
        store_listed_t *l = &out[got++];
        store_game_t *g = &l->game;
        memset(l, 0, sizeof *l);
        l->game_id = sqlite3_column_int64(s, 0);
        read_game(s, 1, g);
        g->ending = sqlite3_column_int(s, 12);
        l->has_record = sqlite3_column_int(s, 13);
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        db_fail(d, "store: %s: games not listed: %s", d->path,
                sqlite3_errstr(failed));
        return -1;
    }
    return got;
}

long long lite_prune_guests(lite_t *d, int64_t before, int keep_top)
{
    sqlite3_stmt *s = d->st[ST_PRUNE];
    sqlite3_bind_int64(s, 1, before);
    sqlite3_bind_int(s, 2, keep_top);
    int rc = run(d, ST_PRUNE);
    if (rc != SQLITE_DONE) {
        db_fail(d, "store: %s: old guests' games not removed: %s", d->path,
                sqlite3_errstr(rc));
        return -1;
    }
    return sqlite3_changes(d->db);
}

/* --- SSH public keys ----------------------------------------------------------- */

int lite_key_add(lite_t *d, int64_t account_id, const char *fingerprint,
                 const char *key, int64_t now, int max)
{
    sqlite3_stmt *s = d->st[ST_KEY_COUNT];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_text(s, 2, fingerprint, -1, SQLITE_STATIC);
    int failed = 0;
    long long n = 0, same = 0;
    if (step_row(s, &failed)) {
        n = sqlite3_column_int64(s, 0);
        same = sqlite3_column_int64(s, 1);
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        d->last_rc = failed;
        db_fail(d, "store: %s: keys of account %lld not counted: %s", d->path,
                (long long)account_id, sqlite3_errstr(failed));
        return STORE_ERROR;
    }
    if (same)
        return STORE_DUPLICATE;
    if (n >= max)
        return STORE_FULL;
    s = d->st[ST_KEY_INS];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_text(s, 2, fingerprint, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, now);
    int rc = run(d, ST_KEY_INS);
    if (rc == SQLITE_DONE)
        return STORE_OK;
    if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
        return STORE_NOT_FOUND; /* (only this statement is undone) */
    if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
        return STORE_DUPLICATE;
    db_fail(d, "store: %s: a key of account %lld not added: %s", d->path,
            (long long)account_id, sqlite3_errstr(rc));
    return STORE_ERROR;
}

int lite_key_remove(lite_t *d, int64_t account_id, const char *fingerprint)
{
    sqlite3_stmt *s = d->st[ST_KEY_DEL];
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_text(s, 2, fingerprint, -1, SQLITE_STATIC);
    int rc = run(d, ST_KEY_DEL);
    if (rc == SQLITE_DONE)
        return sqlite3_changes(d->db) > 0 ? STORE_OK : STORE_NOT_FOUND;
    db_fail(d, "store: %s: a key of account %lld not removed: %s", d->path,
            (long long)account_id, sqlite3_errstr(rc));
    return STORE_ERROR;
}

int lite_keys_list(lite_t *d, int64_t account_id, store_keys_t *out)
{
    int failed = 0;
    sqlite3_stmt *s = d->st[ST_KEY_LIST];
    out->n = 0;
    sqlite3_bind_int64(s, 1, account_id);
    sqlite3_bind_int(s, 2, STORE_KEYS_MAX);
    while (out->n < STORE_KEYS_MAX && step_row(s, &failed)) {
        store_key_t *k = &out->keys[out->n++];
        copy_text(k->fingerprint, sizeof k->fingerprint,
                  sqlite3_column_text(s, 0));
        copy_text(k->type, sizeof k->type, sqlite3_column_text(s, 1));
        k->added = sqlite3_column_int64(s, 2);
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        d->last_rc = failed;
        out->n = 0;
        db_fail(d, "store: %s: keys of account %lld not read: %s", d->path,
                (long long)account_id, sqlite3_errstr(failed));
        return -1;
    }
    return 0;
}

int lite_key_find(lite_t *d, const char *name, const char *fingerprint,
                  int64_t *id, char *name_out, char *key_out, size_t keylen)
{
    sqlite3_stmt *s = d->st[ST_KEY_FIND];
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, fingerprint, -1, SQLITE_STATIC);
    int failed = 0, found = step_row(s, &failed);
    if (found) {
        *id = sqlite3_column_int64(s, 0);
        copy_text(name_out, ACCT_NAME_MAX + 1, sqlite3_column_text(s, 1));
        if (key_out)
            copy_text(key_out, keylen, sqlite3_column_text(s, 2));
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (failed) {
        d->last_rc = failed;
        db_fail(d, "store: %s: key lookup: %s", d->path, sqlite3_errstr(failed));
        return -1;
    }
    return found;
}
