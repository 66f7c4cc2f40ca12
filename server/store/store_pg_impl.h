/* store_pg_impl.h - what the PostgreSQL backend's files share (store_pg.c
 * the connection, the pipeline and transactions; store_pg_open.c the
 * opening and migrations; store_pg_schema.c the schema and the
 * statements' text; store_pg_rows.c the statements): the connection, the
 * statements by number, the helpers that send and read them, and each
 * call of store_db.h's lists as spg_NAME. */
#ifndef ROGUE_STORE_PG_IMPL_H
#define ROGUE_STORE_PG_IMPL_H

#include <libpq-fe.h>
#include <time.h>

#include "buf.h"
#include "log.h"
#include "store_backend.h"

/* store_pg_schema.c: migrations[v] takes a database from version v to
 * v + 1 (one per version: checked there). */
extern const char *const spg_migrations[];
#define NMIGRATIONS STORE_SCHEMA_VERSION

/* The advisory lock every migration holds: "RGD1", as SQLite's
 * application_id. */
#define MIGRATE_LOCK "1380402225"

enum stmt {
    ST_INS_GAME, ST_INS_ACCT, ST_SET_PWHASH, ST_FIND_ACCT, ST_ACCT_EXISTS,
    ST_TOP, ST_BEST, ST_RANK, ST_PROG_DEL_KEYS, ST_PROG_DEL, ST_PROG_INS,
    ST_PROG_APPEND, ST_PROG_GET, ST_PROG_KEYS, ST_SNAP_SET, ST_SNAP_GET,
    ST_GET_GAME, ST_LIST, ST_PRUNE, ST_GUEST, ST_GUEST_BACK,
    ST_KEY_ADD, ST_KEY_DEL, ST_KEY_LIST, ST_KEY_FIND,
    ST_GET_DISPLAY, ST_SET_DISPLAY, ST_RECENT,
    ST_BAN_PUT, ST_BAN_DEL, ST_BAN_LIST, ST_CLAIM, ST_CLAIM_NEWER,
    ST_CLAIM_ACCT, ST_CLAIM_GAME, ST_CLAIM_LOCK,
    ST_COUNT
};

/* What a result not read yet is, in the order sent. */
enum kind {
    K_PLAIN,   /* a write: only its failure matters */
    K_APPEND,  /* no row: the append had no game (SDB_NO_GAME_APPENDED) */
    K_BEGIN,   /* no row: the begin had no account (SDB_NO_ACCOUNT_BEGUN) */
    K_SNAP,    /* no row: the snapshot had no game (SDB_NO_GAME_SNAPPED) */
    K_END,     /* no row: the end had no game (SDB_NO_GAME_ENDED) */
    K_GAME,    /* no row: the game's token was in already (games_in) */
    K_COMMIT,  /* "ROLLBACK" is its answer when the transaction failed */
    K_WANT,    /* a read: its result goes to the caller */
    K_SYNC     /* the pipeline's sync point */
};

typedef struct sent {
    int kind;
    int64_t id;
    int64_t claim;      /* K_APPEND, K_BEGIN, K_SNAP, K_END: the write's */
} sent_t;

typedef struct spg spg_t;
struct spg {
    store_db_t base;    /* first: what store_db.h's calls take */
    PGconn *conn;
    char url[1024];     /* as configured, to connect again: it may hold the
                           password, so it is never logged */
    char name[300];     /* what messages call it: no password */
    int read_only;      /* spg_open_read: only the reads prepared */
    int quiet;          /* spg_set_quiet */
    int busy_ms;
    int answer_ms;      /* the longest wait for an answer (pg_deadline.h) */
    int in_tx;          /* BEGIN sent, no COMMIT or ROLLBACK yet */
    int piped;          /* in pipeline mode */
    int failed;         /* a statement of this transaction failed */
    int told;           /* and that was logged: the COMMIT need not be */
    char errmsg[300];   /* the last failure, for spg_errmsg */
    int deadlock;       /* this transaction was ended by PostgreSQL to
                           break a deadlock (40P01) or a serialization
                           conflict (40001): sdb_retryable; not logged */
    int refused;        /* a statement of it was refused (SQLSTATE class
                           22, 23, P0): sdb_refused */
    uint64_t games_in;  /* its games' inserts that found their token in
                           already, writing nothing: sdb_games_in */
    int no_answer;      /* a drain found the connection gone (no answer,
                           or libpq's error for it), no error before */
    int commit_unanswered; /* its COMMIT got no answer so: it may have
                           committed (sdb_commit_unanswered) */
    size_t tx_stmts;    /* statements sent in this transaction */
    sent_t *sent;       /* results not read yet */
    size_t nsent, capsent;
    store_unfollowed_t *unf;
    size_t nunf, capunf;
    long long guest_first;
    time_t last_fail;   /* the last failed attempt to connect again */
};
#define db_fail(d, ...) do { if (!(d)->quiet) log_error(__VA_ARGS__); } while (0)

/* Pipelined statements read back at least this often, so that neither
 * side's socket buffer fills while the other waits. */
#define SENT_MAX 2048

/* A statement's parameters: at most SPG_PARAMS_MAX (p_ll and the rest do
 * not check; each statement with many asserts that it fits). */
#define SPG_PARAMS_MAX 16
typedef struct params {
    int n;
    const char *v[SPG_PARAMS_MAX];
    int len[SPG_PARAMS_MAX], fmt[SPG_PARAMS_MAX];
    char num[SPG_PARAMS_MAX][24];
} params_t;

/* store_pg_schema.c: each statement's text. */
extern const char *const spg_stmt_sql[ST_COUNT];

/* store_pg.c's connection helpers, which store_pg_open.c opens with:
 * the message of the last failure (set_errmsg, or a result's), the name
 * messages give the database (the URL without its password), a
 * connection with the session's settings, a statement run at once, and
 * a one-number query (0, or -1 with the message set). */
void set_errmsg(spg_t *d, const char *msg);
void set_result_err(spg_t *d, const PGresult *r);
void make_name(spg_t *d);
PGconn *connect_to(spg_t *d);
int session_setup(spg_t *d);
int exec_plain(spg_t *d, const char *sql);
int query_ll(spg_t *d, const char *sql, long long *out);

/* store_pg.c: the helpers the statements use (each says what it does). */
long long change_now(spg_t *d, enum stmt which, const params_t *p,
                     const char *what);
int col_blob(const PGresult *r, int row, int col, void **out, size_t *len);
long long col_ll(const PGresult *r, int row, int col);
void col_text(char *out, size_t outlen, const PGresult *r, int row, int col);
void p_blob(params_t *p, const void *b, size_t len);
void p_ll(params_t *p, long long v);
void p_null(params_t *p);
void p_text(params_t *p, const char *s);
PGresult *read_now(spg_t *d, enum stmt which, const params_t *p,
                   const char *what);
long long u64_bits(uint64_t v);
int write_later(spg_t *d, enum stmt which, const params_t *p, int kind,
                int64_t id, const char *what);
/* write_later of a progress write as `claim` (its statement answers
 * (rows written, a later claim holds the game): sdb_unfollowed). Returns
 * 1 (sent, or written now), 0 (run now: nothing to follow), SDB_CLAIMED
 * (run now: refused), or -1. */
int write_claimed(spg_t *d, enum stmt which, const params_t *p, int kind,
                  int64_t id, int64_t claim, const char *what);

/* Each call of store_db.h's lists (store_pg.c, store_pg_rows.c), put in
 * the backend's table (store_pg.c). */
#define SPG_PROTO(ret, name, params, args) ret spg_##name params;
SDB_CALLS(SPG_PROTO)
SDB_VOID_CALLS(SPG_PROTO)
#undef SPG_PROTO

#endif
