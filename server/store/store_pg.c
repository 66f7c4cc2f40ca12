/* store_pg.c - the PostgreSQL backend (store_backend.h), chosen by
 * `store = postgresql://...`: one libpq connection, owned by the store's
 * database thread like the SQLite file.
 *
 * The schema is versioned as SQLite's is: a table rogued_schema holds the
 * version, spg_migrations[v] takes it from v to v + 1, all of them in one
 * transaction under an advisory lock (two hosts starting at once migrate
 * once). A database with tables but no rogued_schema is another
 * application's and is refused, as is one from a newer rogued.
 *
 * A batch is one transaction sent in libpq's pipeline mode: BEGIN, every
 * write, COMMIT and a sync go out without waiting for each answer, so a
 * thousand appends cost one round trip and one commit. A read (a login, the
 * hall of fame) flushes what is queued and waits for its own answer. Every
 * write is written so that it cannot fail on good data (a begin for no
 * account and an append to no game touch no row instead: sdb_unfollowed
 * tells which, after the commit), since one failed statement aborts the
 * whole transaction in PostgreSQL. A connection that drops fails the batch
 * it was in (the store says writes are failing, players are told) and is
 * made again at the next batch, at most once a second. Opening, checking
 * and migrating the database, and the backend's table: store_pg_open.c. */
#include "store_pg_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pg_deadline.h"

static void tell_apart(spg_t *d, store_unfollowed_t *u);

const char *spg_name(store_db_t *db)
{
    spg_t *d = (spg_t *)db;
    return d->name;
}

int spg_moved(store_db_t *db)
{
    (void)db; /* no file of ours */
    return 0;
}

int spg_copy_to(store_db_t *db, const char *dst)
{
    (void)db; /* no file of ours */
    (void)dst;
    return -1;
}

const char *spg_errmsg(store_db_t *db)
{
    spg_t *d = (spg_t *)db;
    return d->errmsg[0] ? d->errmsg : PQerrorMessage(d->conn);
}

void spg_set_quiet(store_db_t *db, int quiet)
{
    spg_t *d = (spg_t *)db;
    d->quiet = quiet;
}

/* libpq's messages end in a newline; ours are one line. */
void set_errmsg(spg_t *d, const char *msg)
{
    pgd_one_line(d->errmsg, sizeof d->errmsg, msg);
}

/* A failed result's reason: the primary message, without "ERROR:"; and
 * whether PostgreSQL ended the transaction to break a deadlock (40P01) or
 * a serialization conflict (40001): sdb_retryable. */
void set_result_err(spg_t *d, const PGresult *r)
{
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (state && (strcmp(state, "40P01") == 0 || strcmp(state, "40001") == 0))
        d->deadlock = 1;
    /* data (22), a constraint (23), a program limit (54: a row too large
     * for an index, say), a PL/pgSQL RAISE (P0): refused */
    if (state && (strncmp(state, "22", 2) == 0 ||
                  strncmp(state, "23", 2) == 0 ||
                  strncmp(state, "54", 2) == 0 ||
                  strncmp(state, "P0", 2) == 0))
        d->refused = 1;
    const char *m = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    set_errmsg(d, m ? m : r ? PQresultErrorMessage(r) : PQerrorMessage(d->conn));
}

static void no_notices(void *arg, const char *message)
{
    (void)arg;
    (void)message; /* "relation exists, skipping" and the like */
}

/* The URL for messages: user, host, port and database, never a password. */
void make_name(spg_t *d)
{
    const char *user = PQuser(d->conn), *host = PQhost(d->conn),
               *port = PQport(d->conn), *db = PQdb(d->conn);
    snprintf(d->name, sizeof d->name, "postgresql://%s%s%s%s%s/%s",
             user && *user ? user : "", user && *user ? "@" : "",
             host && *host ? host : "", port && *port ? ":" : "",
             port && *port ? port : "", db ? db : "");
}

/* Timeouts and keepalives on the connection, and a deadline on every
 * wait for its answers (pg_deadline.h): a database that hangs costs this
 * thread a failed batch, never the server. */
PGconn *connect_to(spg_t *d)
{
    PGconn *c = pgd_connect(d->url, "rogued");
    if (c)
        PQsetNoticeProcessor(c, no_notices, NULL);
    d->answer_ms = pgd_answer_ms(c);
    return c;
}

/* PQexec of one or more statements with no answer wanted. Returns 0, or -1
 * with the reason in errmsg. */
int exec_plain(spg_t *d, const char *sql)
{
    PGresult *r = pgd_exec(d->conn, d->answer_ms, sql);
    ExecStatusType s = PQresultStatus(r);
    int ok = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
    if (!ok)
        set_result_err(d, r);
    PQclear(r);
    return ok ? 0 : -1;
}

/* One integer from a query (0 if no row or NULL). Returns 0, or -1. */
int query_ll(spg_t *d, const char *sql, long long *out)
{
    PGresult *r = pgd_exec(d->conn, d->answer_ms, sql);
    int ok = PQresultStatus(r) == PGRES_TUPLES_OK;
    *out = 0;
    if (ok && PQntuples(r) > 0 && !PQgetisnull(r, 0, 0))
        *out = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    if (!ok)
        set_result_err(d, r);
    PQclear(r);
    return ok ? 0 : -1;
}

static int prepare(spg_t *d)
{
    for (int i = 0; i < ST_COUNT; i++) {
        if (d->read_only && i != ST_GET_GAME && i != ST_LIST &&
            i != ST_PROG_GET && i != ST_PROG_KEYS && i != ST_SNAP_GET)
            continue;
        char name[24];
        snprintf(name, sizeof name, "rogued%u", (unsigned)i);
        PGresult *r = pgd_prepare(d->conn, d->answer_ms, name, spg_stmt_sql[i]);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok)
            set_result_err(d, r);
        PQclear(r);
        if (!ok)
            return -1;
    }
    return 0;
}

/* The session's settings, after every connect. */
int session_setup(spg_t *d)
{
    char sql[64];
    snprintf(sql, sizeof sql, "SET lock_timeout = %d", d->busy_ms);
    return exec_plain(d, "SET client_min_messages = warning") == 0 &&
           exec_plain(d, sql) == 0 && prepare(d) == 0 ? 0 : -1;
}

void spg_set_busy(store_db_t *db, int ms)
{
    spg_t *d = (spg_t *)db;
    d->busy_ms = ms > 0 ? ms : 0;
    char sql[64];
    snprintf(sql, sizeof sql, "SET lock_timeout = %d", d->busy_ms);
    if (!d->in_tx && exec_plain(d, sql) != 0)
        db_fail(d, "store: %s: lock_timeout not set: %s", d->name, d->errmsg);
}

/* --- sending and reading back ---------------------------------------------- */


void p_ll(params_t *p, long long v)
{
    snprintf(p->num[p->n], sizeof p->num[0], "%lld", v);
    p->v[p->n] = p->num[p->n];
    p->len[p->n] = 0;
    p->fmt[p->n++] = 0;
}

void p_text(params_t *p, const char *s)
{
    p->v[p->n] = s;
    p->len[p->n] = 0;
    p->fmt[p->n++] = 0;
}

void p_null(params_t *p)
{
    p_text(p, NULL);
}

/* bytea, sent as it is (binary) */
void p_blob(params_t *p, const void *b, size_t len)
{
    p->v[p->n] = b ? b : "";
    p->len[p->n] = (int)len;
    p->fmt[p->n++] = 1;
}

/* The uint64 seed as int64, bit for bit. */
long long u64_bits(uint64_t v)
{
    return v <= INT64_MAX ? (long long)v : -(long long)(UINT64_MAX - v) - 1;
}

static void push_sent(spg_t *d, int kind, int64_t id, int64_t claim)
{
    if (d->nsent == d->capsent) {
        size_t cap = d->capsent ? d->capsent * 2 : 64;
        sent_t *s = realloc(d->sent, cap * sizeof *s);
        if (!s) {
            /* its answer cannot be told apart: fail the transaction */
            d->failed = 1;
            set_errmsg(d, "out of memory");
            return;
        }
        d->sent = s;
        d->capsent = cap;
    }
    d->sent[d->nsent].kind = kind;
    d->sent[d->nsent].claim = claim;
    d->sent[d->nsent++].id = id;
}

static void add_unfollowed(spg_t *d, int64_t id, int64_t claim,
                           enum sdb_unfollowed why)
{
    if (d->nunf == d->capunf) {
        size_t cap = d->capunf ? d->capunf * 2 : 16;
        store_unfollowed_t *u = realloc(d->unf, cap * sizeof *u);
        if (!u) {
            log_error("store: out of memory: account %lld's keys may not "
                      "follow on", (long long)id);
            return;
        }
        d->unf = u;
        d->capunf = cap;
    }
    d->unf[d->nunf].account_id = id;
    d->unf[d->nunf].claim = claim;
    d->unf[d->nunf++].why = why;
}

/* The answer of a progress write as a claim (write_claimed): its one row
 * says how many rows it wrote and whether a later claim holds the game;
 * an append's, its command's count alone. Whether a later claim holds it
 * is read in the statement's snapshot, taken before the statement waited
 * on the row: a claim committed meanwhile makes the write touch nothing
 * yet reads as none. So a write of a claim that touched nothing is told
 * apart after the commit, as an append is (tell_apart). */
static void note_claimed(spg_t *d, const sent_t *e, const PGresult *r)
{
    if (e->kind == K_APPEND) {
        /* its count alone: no row written is no game, or a later claim
         * (told apart in spg_unfollowed, after the batch: rare) */
        if (strtoll(PQcmdTuples((PGresult *)r), NULL, 10) == 0)
            add_unfollowed(d, e->id, e->claim, SDB_NO_GAME_APPENDED);
        return;
    }
    int one = PQntuples(r) == 1 && PQnfields(r) == 2;
    long long n = one ? col_ll(r, 0, 0) : 0;
    int newer = one && PQgetvalue(r, 0, 1)[0] == 't';
    if (newer)
        add_unfollowed(d, e->id, e->claim, SDB_CLAIMED);
    else if (n == 0 && (e->kind != K_END || e->claim != 0))
        add_unfollowed(d, e->id, e->claim,
                       e->kind == K_BEGIN ? SDB_NO_ACCOUNT_BEGUN
                       : e->kind == K_SNAP ? SDB_NO_GAME_SNAPPED
                       : SDB_NO_GAME_ENDED);
}

/* One result of a pipelined statement. */
static void note(spg_t *d, const sent_t *e, PGresult *r)
{
    ExecStatusType s = PQresultStatus(r);
    if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK) {
        if (e->kind == K_APPEND || e->kind == K_BEGIN || e->kind == K_SNAP ||
            e->kind == K_END)
            note_claimed(d, e, r);
        if (e->kind == K_GAME &&
            strtoll(PQcmdTuples(r), NULL, 10) == 0)
            d->games_in++;
        if (e->kind == K_COMMIT && strcmp(PQcmdStatus(r), "COMMIT") != 0) {
            d->failed = 1; /* a failed transaction's COMMIT rolls back */
            if (!d->errmsg[0])
                set_errmsg(d, "the transaction was rolled back");
        }
        return;
    }
    if (s != PGRES_PIPELINE_ABORTED && !d->failed) {
        set_result_err(d, r);
        /* libpq's own error, no server's: the connection was lost (or
         * given up, its answer past the deadline: pg_deadline.c) */
        if (!PQresultErrorField(r, PG_DIAG_SQLSTATE) ||
            PQstatus(d->conn) != CONNECTION_OK)
            d->no_answer = 1;
    }
    d->failed = 1; /* after an error the rest are skipped until the sync */
}

/* Reads every result sent so far, in order. keep: return the result of
 * the last one (a read), which the caller clears. */
static PGresult *drain(spg_t *d, int keep)
{
    PGresult *kept = NULL;
    for (size_t i = 0; i < d->nsent; i++) {
        const sent_t *e = &d->sent[i];
        PGresult *r;
        if (e->kind == K_SYNC) {
            r = pgd_get_result(d->conn, d->answer_ms);
            int ok = r && PQresultStatus(r) == PGRES_PIPELINE_SYNC;
            PQclear(r);
            if (ok)
                continue;
        } else {
            int got = 0;
            while ((r = pgd_get_result(d->conn, d->answer_ms)) != NULL) {
                got = 1;
                note(d, e, r);
                if (keep && i + 1 == d->nsent && !kept)
                    kept = r;
                else
                    PQclear(r);
            }
            if (got)
                continue;
        }
        /* no answer at all: the connection is gone */
        if (!d->failed) {
            set_errmsg(d, PQerrorMessage(d->conn));
            d->no_answer = 1; /* (no error before it: see finish_tx) */
        }
        d->failed = 1;
        break;
    }
    d->nsent = 0;
    return kept;
}

/* Sends one prepared statement into the pipeline. Returns 0, or -1. */
static int send_stmt(spg_t *d, enum stmt which, const params_t *p, int kind,
                     int64_t id, int64_t claim)
{
    char name[24];
    snprintf(name, sizeof name, "rogued%u", (unsigned)which);
    if (!PQsendQueryPrepared(d->conn, name, p->n, p->v, p->len, p->fmt, 0)) {
        if (!d->failed)
            set_errmsg(d, PQerrorMessage(d->conn));
        d->failed = 1;
        return -1;
    }
    push_sent(d, kind, id, claim);
    d->tx_stmts++;
    return 0;
}

/* A write inside the batch's transaction: sent, not waited for (its
 * answer noted as e says). Outside a transaction (never, from the store)
 * it runs at once. Returns 0, or -1 (already known to have failed:
 * logged). */
static int write_sent(spg_t *d, enum stmt which, const params_t *p,
                      sent_t e, const char *what)
{
    if (!d->piped) {
        char name[24];
        snprintf(name, sizeof name, "rogued%u", (unsigned)which);
        PGresult *r = pgd_exec_prepared(d->conn, d->answer_ms, name, p->n,
                                        p->v, p->len, p->fmt);
        int was = d->failed;
        d->failed = 0;
        note(d, &e, r);
        PQclear(r);
        int bad = d->failed;
        d->failed = was;
        if (bad)
            db_fail(d, "store: %s: %s: %s", d->name, what, d->errmsg);
        return bad ? -1 : 0;
    }
    if (send_stmt(d, which, p, e.kind, e.id, e.claim) != 0) {
        d->told = 1;
        db_fail(d, "store: %s: %s: %s", d->name, what, d->errmsg);
        return -1;
    }
    if (d->nsent >= SENT_MAX) {
        PQsendFlushRequest(d->conn);
        PQflush(d->conn);
        drain(d, 0);
    }
    return 0;
}

/* write_sent of a plain write (store_pg_impl.h). */
int write_later(spg_t *d, enum stmt which, const params_t *p, int kind,
                int64_t id, const char *what)
{
    return write_sent(d, which, p, (sent_t){ kind, id, 0 }, what);
}

int write_claimed(spg_t *d, enum stmt which, const params_t *p, int kind,
                  int64_t id, int64_t claim, const char *what)
{
    size_t before = d->nunf;
    if (write_sent(d, which, p, (sent_t){ kind, id, claim }, what) != 0)
        return -1;
    if (d->piped || d->nunf == before)
        return 1;
    /* run at once (outside a transaction): its answer is known now */
    tell_apart(d, &d->unf[before]);
    enum sdb_unfollowed why = d->unf[before].why;
    d->nunf = before;
    return why == SDB_CLAIMED ? SDB_CLAIMED : 0;
}

/* A read: everything queued goes first, then its answer. Returns the
 * result (the caller clears it), or NULL (failed: logged with `what`). */
PGresult *read_now(spg_t *d, enum stmt which, const params_t *p,
                   const char *what)
{
    PGresult *r = NULL;
    int in_batch = d->piped; /* (drain may end the pipeline) */
    if (!d->piped) {
        char name[24];
        snprintf(name, sizeof name, "rogued%u", (unsigned)which);
        r = pgd_exec_prepared(d->conn, d->answer_ms, name, p->n, p->v,
                              p->len, p->fmt);
    } else if (send_stmt(d, which, p, K_WANT, 0, 0) == 0) {
        PQsendFlushRequest(d->conn);
        PQflush(d->conn);
        r = drain(d, 1);
    }
    ExecStatusType s = PQresultStatus(r);
    if (r && (s == PGRES_TUPLES_OK || s == PGRES_COMMAND_OK))
        return r;
    if (r && s != PGRES_PIPELINE_ABORTED)
        set_result_err(d, r);
    else if (!r && !d->errmsg[0])
        set_errmsg(d, PQerrorMessage(d->conn));
    if (d->piped)
        d->failed = 1;
    d->told = 1;
    /* A batch ended by a deadlock is the store's to say (sdb_retryable:
     * it runs it again); a statement of its own, outside a batch (the
     * cluster's reads, the bans read after a batch, the guest numbers
     * given back at a stop), has nobody to say it but here. */
    if (!(d->deadlock && in_batch))
        db_fail(d, "store: %s: %s: %s", d->name, what, spg_errmsg(&d->base));
    PQclear(r);
    return NULL;
}

/* A statement that changes rows, run now: how many it changed, or -1 (its
 * failure told as read_now tells it). */
long long change_now(spg_t *d, enum stmt which, const params_t *p,
                     const char *what)
{
    PGresult *r = read_now(d, which, p, what);
    if (!r)
        return -1;
    long long n = strtoll(PQcmdTuples(r), NULL, 10);
    PQclear(r);
    return n;
}

long long col_ll(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? 0
                                    : strtoll(PQgetvalue(r, row, col), NULL, 10);
}

void col_text(char *out, size_t outlen, const PGresult *r, int row,
              int col)
{
    snprintf(out, outlen, "%s", PQgetisnull(r, row, col) ? ""
                                                         : PQgetvalue(r, row, col));
}

/* A bytea column as a malloc'd copy (*len bytes; NULL if NULL or empty).
 * Returns 0, or -1 (out of memory). */
int col_blob(const PGresult *r, int row, int col, void **out,
             size_t *len)
{
    *out = NULL;
    *len = 0;
    if (PQgetisnull(r, row, col))
        return 0;
    size_t n = 0;
    unsigned char *raw = PQunescapeBytea((const unsigned char *)
                                         PQgetvalue(r, row, col), &n);
    if (!raw)
        return -1;
    if (n > 0) {
        *out = malloc(n);
        if (*out) {
            memcpy(*out, raw, n);
            *len = n;
        }
    }
    PQfreemem(raw);
    return n > 0 && !*out ? -1 : 0;
}

/* --- transactions ------------------------------------------------------------ */

/* A connection that dropped is made again, at most once a second. */
static int reconnect(spg_t *d)
{
    time_t now = time(NULL);
    if (d->last_fail && now - d->last_fail < 1) {
        set_errmsg(d, "the connection was lost; trying again each second");
        return -1;
    }
    PQfinish(d->conn);
    d->conn = connect_to(d);
    d->piped = d->in_tx = 0;
    d->nsent = 0;
    if (!d->conn || PQstatus(d->conn) != CONNECTION_OK) {
        set_errmsg(d, d->conn ? PQerrorMessage(d->conn) : "out of memory");
        d->last_fail = now;
        return -1;
    }
    if (session_setup(d) != 0) {
        d->last_fail = now;
        return -1;
    }
    d->last_fail = 0;
    log_info("store: %s: connected again", d->name);
    return 0;
}

static void pipeline_end(spg_t *d)
{
    if (d->piped && PQstatus(d->conn) == CONNECTION_OK)
        PQexitPipelineMode(d->conn);
    d->piped = 0;
    d->in_tx = 0;
    d->nsent = 0;
}

int spg_begin(store_db_t *db)
{
    spg_t *d = (spg_t *)db;
    d->nunf = 0;
    d->failed = d->told = d->deadlock = d->refused = 0;
    d->games_in = 0;
    d->commit_unanswered = 0;
    d->tx_stmts = 0;
    d->errmsg[0] = '\0';
    if (d->piped)
        spg_rollback(&d->base); /* a batch left half-read (cannot happen) */
    if (PQstatus(d->conn) != CONNECTION_OK && reconnect(d) != 0) {
        db_fail(d, "store: %s: not connected: %s", d->name, d->errmsg);
        return -1;
    }
    if (PQenterPipelineMode(d->conn) != 1) {
        set_errmsg(d, PQerrorMessage(d->conn));
        db_fail(d, "store: %s: BEGIN: %s", d->name, d->errmsg);
        return -1;
    }
    d->piped = 1;
    if (!PQsendQueryParams(d->conn, "BEGIN", 0, NULL, NULL, NULL, NULL, 0)) {
        set_errmsg(d, PQerrorMessage(d->conn));
        db_fail(d, "store: %s: BEGIN: %s", d->name, d->errmsg);
        pipeline_end(d);
        return -1;
    }
    push_sent(d, K_PLAIN, 0, 0);
    d->in_tx = 1;
    return 0;
}

/* Sends `sql` and a sync, and reads everything back. Returns 0 if every
 * statement of the transaction worked. */
static int finish_tx(spg_t *d, const char *sql, int kind)
{
    if (PQsendQueryParams(d->conn, sql, 0, NULL, NULL, NULL, NULL, 0))
        push_sent(d, kind, 0, 0);
    else
        d->failed = 1;
    if (PQpipelineSync(d->conn))
        push_sent(d, K_SYNC, 0, 0);
    else
        d->failed = 1;
    d->no_answer = 0;
    drain(d, 0);
    /* a COMMIT sent with everything before it, and no answer to any with
     * no error before: the server may have committed it all */
    if (kind == K_COMMIT)
        d->commit_unanswered = d->no_answer;
    if (d->failed && !d->errmsg[0])
        set_errmsg(d, PQerrorMessage(d->conn));
    pipeline_end(d);
    /* after an error the COMMIT was skipped: the failed transaction is
     * still open on the server until rolled back */
    if (PQstatus(d->conn) == CONNECTION_OK &&
        PQtransactionStatus(d->conn) != PQTRANS_IDLE)
        PQclear(pgd_exec(d->conn, d->answer_ms, "ROLLBACK"));
    return d->failed ? -1 : 0;
}

int spg_commit(store_db_t *db)
{
    spg_t *d = (spg_t *)db;
    if (!d->in_tx)
        return -1;
    if (finish_tx(d, "COMMIT", K_COMMIT) == 0)
        return 0;
    /* one line a batch: its first failure (a deadlock: the store's) */
    if (!d->told && !d->deadlock)
        db_fail(d, "store: %s: COMMIT: %s", d->name, d->errmsg);
    return -1;
}

int spg_rollback(store_db_t *db)
{
    spg_t *d = (spg_t *)db;
    if (!d->in_tx && !d->piped)
        return 0;
    int was = d->failed;
    char msg[sizeof d->errmsg];
    memcpy(msg, d->errmsg, sizeof msg);
    if (PQstatus(d->conn) == CONNECTION_OK)
        finish_tx(d, "ROLLBACK", K_PLAIN);
    pipeline_end(d);
    /* the reason the batch failed stays the one told */
    d->failed = was;
    memcpy(d->errmsg, msg, sizeof msg);
    return 0;
}

int spg_retryable(store_db_t *db)
{
    spg_t *d = (spg_t *)db;
    return d->deadlock && !d->in_tx;
}

int spg_commit_unanswered(store_db_t *db)
{
    spg_t *d = (spg_t *)db;
    return d->commit_unanswered;
}

uint64_t spg_games_in(store_db_t *db)
{
    spg_t *d = (spg_t *)db;
    return d->games_in;
}

int spg_refused(store_db_t *db)
{
    spg_t *d = (spg_t *)db;
    return d->refused;
}

int spg_sock_fd(store_db_t *db)
{
    spg_t *d = (spg_t *)db;
    return d->conn ? PQsocket(d->conn) : -1;
}

int spg_in_transaction(store_db_t *db)
{
    spg_t *d = (spg_t *)db;
    /* a lost connection ends it: nothing of the batch is written */
    return d->in_tx && PQstatus(d->conn) == CONNECTION_OK;
}

/* A write as a claim that wrote nothing: no game (or account), or a
 * later claim's (ST_CLAIM_NEWER, read now, outside the batch's
 * transaction, in a snapshot of its own: it sees a claim that committed
 * while the write waited on its row). A read that fails leaves it "no
 * game": an append's keys are dropped until the next begin, which a later
 * claim refuses, letting the session go then. */
static void tell_apart(spg_t *d, store_unfollowed_t *u)
{
    if (u->why == SDB_CLAIMED || u->claim == 0)
        return;
    params_t p = { 0 };
    p_ll(&p, u->account_id);
    p_ll(&p, u->claim);
    char what[80];
    snprintf(what, sizeof what, "account %lld: its claim not read",
             (long long)u->account_id);
    PGresult *r = read_now(d, ST_CLAIM_NEWER, &p, what);
    if (r && PQntuples(r) == 1 && PQgetvalue(r, 0, 0)[0] == 't')
        u->why = SDB_CLAIMED;
    PQclear(r);
}

size_t spg_unfollowed(store_db_t *db, const store_unfollowed_t **out)
{
    spg_t *d = (spg_t *)db;
    for (size_t i = 0; i < d->nunf && !d->piped; i++)
        tell_apart(d, &d->unf[i]);
    *out = d->unf;
    return d->nunf;
}
