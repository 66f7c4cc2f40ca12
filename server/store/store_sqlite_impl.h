/* store_sqlite_impl.h - what the SQLite backend's files share
 * (store_sqlite.c the connection, store_sqlite_schema.c the schema and the
 * statements' text, store_sqlite_rows.c the statements): the connection,
 * the statements by number, and each call of store_db.h's lists as
 * lite_NAME. */
#ifndef ROGUE_STORE_SQLITE_IMPL_H
#define ROGUE_STORE_SQLITE_IMPL_H

#include <sqlite3.h>
#include <sys/types.h>

#include "log.h"
#include "store_backend.h"

/* store_sqlite_schema.c: migrations[v] takes a database from version v to
 * v + 1 (one per version: checked there). */
extern const char *const lite_migrations[];
#define NMIGRATIONS STORE_SCHEMA_VERSION

enum stmt {
    ST_INS_GAME, ST_INS_ACCT, ST_FIND_ACCT, ST_ACCT_EXISTS, ST_TOP, ST_BEST,
    ST_RANK, ST_BEGIN, ST_COMMIT, ST_ROLLBACK,
    ST_PROG_DEL_KEYS, ST_PROG_DEL, ST_PROG_INS, ST_PROG_APPEND, ST_PROG_GROW,
    ST_PROG_GET, ST_PROG_KEYS, ST_GET_GAME, ST_LIST, ST_PRUNE, ST_SET_PWHASH,
    ST_SNAP_SET, ST_SNAP_GET,
    ST_KEY_COUNT, ST_KEY_INS, ST_KEY_DEL, ST_KEY_LIST, ST_KEY_FIND,
    ST_GET_DISPLAY, ST_SET_DISPLAY, ST_RECENT,
    ST_BAN_PUT, ST_BAN_DEL, ST_BAN_LIST,
    ST_CLAIM_NEWER, ST_CLAIM_ACCT, ST_CLAIM_GAME,
    ST_COUNT
};

typedef struct lite lite_t;
struct lite {
    store_db_t base;    /* first: what store_db.h's calls take */
    sqlite3 *db;
    char path[512];
    sqlite3_stmt *st[ST_COUNT];
    int quiet;          /* lite_set_quiet: failures are not logged */
    int last_rc;        /* the last statement's failure, for lite_errmsg */
    long long guest_first; /* lite_open: the first guest number reserved */
    int has_id;         /* lite_open: dev and ino, the file opened, known */
    dev_t dev;          /*   (lite_moved compares the path's with them) */
    ino_t ino;
};

/* A failed statement's line in the log, unless the store already said it
 * is failing (lite_set_quiet): one line, not one per key. */
#define db_fail(d, ...) do { if (!(d)->quiet) log_error(__VA_ARGS__); } while (0)

/* store_sqlite.c: whether a claim later than `claim` holds the account's
 * game in progress (store_db.h, SDB_CLAIMED): 1, 0 (or claim 0: none), or
 * -1 (logged). */
int lite_claim_newer(lite_t *d, int64_t account_id, int64_t claim);

/* store_sqlite_schema.c: each statement's text. */
extern const char *const lite_stmt_sql[ST_COUNT];

/* Each call of store_db.h's lists (store_sqlite.c, store_sqlite_rows.c),
 * put in the backend's table (store_sqlite.c). */
#define LITE_PROTO(ret, name, params, args) ret lite_##name params;
SDB_CALLS(LITE_PROTO)
SDB_VOID_CALLS(LITE_PROTO)
#undef LITE_PROTO

#endif
