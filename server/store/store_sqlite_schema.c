/* store_sqlite_schema.c - the SQLite backend's schema (store_backend.h):
 * its migrations, one per version, and the text of every prepared
 * statement (store_sqlite_rows.c runs them). */
#include "store_sqlite_impl.h"

/* The schema, one step per version, in order: migrations[v] takes a
 * database from version v to v + 1. Released steps never change; a new
 * version is a new line at the end (and STORE_SCHEMA_VERSION + 1). */
const char *const lite_migrations[] = {
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
    /* 7: bans (ctl ban): an address range "ADDR/BITS" or a name in lower
     * case, kept out until until_ms (Unix ms; 0: for good) */
    "CREATE TABLE bans ("
    "  target TEXT PRIMARY KEY,"
    "  until_ms INTEGER NOT NULL,"
    "  made_ms INTEGER NOT NULL"
    ") WITHOUT ROWID;",
    /* 8: claims on games in progress (store.h): the latest claim taken on
     * each account's game, and the claim of the game's writer; 0 for the
     * games and accounts before */
    "ALTER TABLE accounts ADD COLUMN progress_claim INTEGER NOT NULL"
    "  DEFAULT 0;"
    "ALTER TABLE progress ADD COLUMN claim INTEGER NOT NULL DEFAULT 0;",
    /* 9: each finished game's token (store_game_t.token), unique, so that
     * a game written again after a batch that may have committed (held:
     * store_thread.c) is not a second row; NULL for the games before,
     * which a unique index lets repeat, so no older row stops it */
    ("ALTER TABLE games ADD COLUMN token INTEGER;" /* (one migration) */
     "CREATE UNIQUE INDEX games_token ON games(token);"),
};
_Static_assert(sizeof lite_migrations / sizeof lite_migrations[0] ==
               STORE_SCHEMA_VERSION,
               "one migration per schema version");
/* A new field of game_options_t is a new column of progress (a migration,
 * NOT NULL DEFAULT 0) and a line in lite_progress_begin and _load. */
_Static_assert(sizeof(game_options_t) == sizeof(int),
               "game_options_t grew: store it in the progress table");

#define SCORE_COLS "id, player, score, depth, turns, kills, ruleset, cause," \
                   " ended, ending"


#define GAME_COLS "player, account_id, ruleset, seed, score, depth, turns," \
                  " kills, cause, started, ended"

const char *const lite_stmt_sql[ST_COUNT] = {
    /* a game whose token is written already is not written again (only
     * that conflict: any other is the database refusing the game) */
    [ST_INS_GAME] = "INSERT INTO games (player, account_id, ruleset, seed,"
                    " score, depth, turns, kills, cause, started, ended, record,"
                    " ending, ranked, token)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (token) DO NOTHING",
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
    /* the feeds: the finished games after id ?1, newest first (the
     * primary key read backwards: no index needed) */
    [ST_RECENT] = "SELECT " SCORE_COLS " FROM games WHERE id > ?"
                  " ORDER BY id DESC LIMIT ?",
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    /* ?2 <> 0: only the game of seed ?3 begun at ?4 (sdb_which_t) */
    [ST_PROG_DEL] = "DELETE FROM progress WHERE account_id = ?1 AND"
                    " (?2 = 0 OR (seed = ?3 AND started = ?4))",
    /* the keys of no game: after ST_PROG_DEL, those of the game it
     * dropped (keys are never without their game otherwise) */
    [ST_PROG_DEL_KEYS] = "DELETE FROM progress_keys WHERE account_id = ?1"
                         " AND NOT EXISTS (SELECT 1 FROM progress"
                         " WHERE account_id = ?1)",
    [ST_PROG_INS] = "INSERT INTO progress (account_id, game_version, seed,"
                    " ruleset, started, keys_len, claim)"
                    " VALUES (?, ?, ?, ?, ?, 0, ?)",
    /* whether a claim later than ?2 holds the account's game */
    [ST_CLAIM_NEWER] = "SELECT coalesce((SELECT progress_claim FROM accounts"
                       " WHERE id = ?1), 0) > ?2 OR EXISTS (SELECT 1 FROM"
                       " progress WHERE account_id = ?1 AND claim > ?2)",
    [ST_CLAIM_ACCT] = "UPDATE accounts SET progress_claim = ?2 WHERE id = ?1",
    [ST_CLAIM_GAME] = "UPDATE progress SET claim = ?2 WHERE account_id = ?1",
    /* nothing if no game, or if a later claim holds it (the row's claim:
     * taking a claim writes it on the account and on its row) */
    [ST_PROG_APPEND] = "INSERT INTO progress_keys (account_id, pos, keys)"
                       " SELECT account_id, keys_len, ?2 FROM progress"
                       " WHERE account_id = ?1 AND (?3 = 0 OR claim <= ?3)",
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
    [ST_BAN_PUT] = "INSERT OR REPLACE INTO bans (target, until_ms, made_ms)"
                   " VALUES (?, ?, ?)",
    [ST_BAN_DEL] = "DELETE FROM bans WHERE target = ?",
    [ST_BAN_LIST] = "SELECT target, until_ms, made_ms FROM bans"
                    " ORDER BY made_ms, target LIMIT ?",
};
