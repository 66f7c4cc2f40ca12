/* store_pg_open.c - the PostgreSQL backend's opening (store_pg.c has the
 * connection's settings, the pipeline and transactions): whether the
 * database is rogued's, its migrations to this schema version under an
 * advisory lock, the first write that proves it writable, a read-only
 * opening for tools, the closing, and the backend's table (store_db.h). */
#include "store_pg_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_deadline.h"

static void spg_close(spg_t *d);

/* --- opening ------------------------------------------------------------------ */

/* Is it ours? Returns 0 (ours, or empty: *fresh), or -1 with err. */
static int check_owner(spg_t *d, int *fresh, long long *version, char *err,
                       size_t errlen)
{
    PGresult *r = pgd_exec(d->conn, d->answer_ms, "SELECT current_schema(),"
        " (SELECT count(*) FROM pg_class c JOIN pg_namespace n"
        "   ON n.oid = c.relnamespace WHERE n.nspname = current_schema()"
        "   AND c.relkind IN ('r', 'p', 'v', 'm', 'f')),"
        " to_regclass('rogued_schema') IS NOT NULL");
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
        set_result_err(d, r);
        snprintf(err, errlen, "%s: cannot read the database: %s", d->name,
                 d->errmsg);
        PQclear(r);
        return -1;
    }
    int no_schema = PQgetisnull(r, 0, 0);
    long long objects = col_ll(r, 0, 1);
    int ours = strcmp(PQgetvalue(r, 0, 2), "t") == 0;
    PQclear(r);
    if (no_schema) {
        snprintf(err, errlen, "%s has no schema to keep rogued's tables in "
                 "(search_path names none that exists); create one, or give "
                 "the user a search_path that does", d->name);
        return -1;
    }
    *version = 0;
    *fresh = !ours && objects == 0;
    if (!ours && objects > 0) {
        snprintf(err, errlen, "%s is a database of another application (%lld "
                 "tables, none of them rogued's); refusing to use it: create "
                 "an empty database for rogued (createdb) and point store at "
                 "it", d->name, objects);
        return -1;
    }
    if (ours && query_ll(d, "SELECT max(version) FROM rogued_schema",
                         version) != 0) {
        snprintf(err, errlen, "%s: cannot read the schema version: %s",
                 d->name, d->errmsg);
        return -1;
    }
    if (*version > NMIGRATIONS) {
        snprintf(err, errlen, "%s was made by a newer rogued (schema version "
                 "%lld, this rogued knows up to %d); refusing to use it",
                 d->name, *version, NMIGRATIONS);
        return -1;
    }
    return 0;
}

/* migrations[from .. to-1] and the version, in one transaction under the
 * advisory lock; read again under it: another host may have been first. */
static int migrate(spg_t *d, int to, char *err, size_t errlen)
{
    long long from = 0, exists = 0;
    int rc = exec_plain(d, "BEGIN");
    if (rc == 0)
        rc = exec_plain(d, "SELECT pg_advisory_xact_lock(" MIGRATE_LOCK ")");
    if (rc == 0)
        rc = query_ll(d, "SELECT (to_regclass('rogued_schema') IS NOT NULL)"
                         "::int", &exists);
    if (rc == 0 && !exists)
        rc = exec_plain(d, "CREATE TABLE rogued_schema ("
                           "  version integer NOT NULL"
                           ");"
                           "INSERT INTO rogued_schema VALUES (0)");
    if (rc == 0 && exists)
        rc = query_ll(d, "SELECT max(version) FROM rogued_schema", &from);
    if (rc == 0 && from < to) {
        for (long long v = from; rc == 0 && v < to; v++)
            rc = exec_plain(d, spg_migrations[v]);
        char sql[64];
        snprintf(sql, sizeof sql, "UPDATE rogued_schema SET version = %d", to);
        if (rc == 0)
            rc = exec_plain(d, sql);
        if (rc == 0)
            log_info("store: %s: schema version %lld -> %d", d->name, from, to);
    }
    if (rc == 0)
        rc = exec_plain(d, "COMMIT");
    if (rc != 0) {
        snprintf(err, errlen, "%s: cannot set up the schema: %s; the user "
                 "rogued connects as needs to own the database or to be "
                 "granted CREATE on its schema", d->name, d->errmsg);
        PQclear(pgd_exec(d->conn, d->answer_ms, "ROLLBACK"));
        return -1;
    }
    return 0;
}

/* The first write of every start, as with SQLite: a database that cannot
 * be written (a read-only user or standby) stops the server now. */
static int first_write(spg_t *d, char *err, size_t errlen)
{
    long long first = -1;
    int quiet = d->quiet;
    d->quiet = 1; /* told in err */
    if (spg_begin(&d->base) == 0) {
        first = spg_guest_reserve(&d->base, STORE_GUEST_BLOCK);
        if (first < 1 || spg_commit(&d->base) != 0) {
            first = -1;
            spg_rollback(&d->base);
        }
    }
    d->quiet = quiet;
    if (first < 1) {
        snprintf(err, errlen, "%s cannot be written (%s): games would be "
                 "lost; grant the user rogued connects as INSERT, UPDATE and "
                 "DELETE on rogued's tables, and point store at a primary "
                 "server, not a read-only standby", d->name, spg_errmsg(&d->base));
        return -1;
    }
    d->guest_first = first;
    return 0;
}

static spg_t *connect_new(const char *url, int read_only, char *err,
                          size_t errlen)
{
    spg_t *d = calloc(1, sizeof *d);
    if (!d || strlen(url) >= sizeof d->url) {
        snprintf(err, errlen, "%s", d ? "store: the URL is too long"
                                      : "out of memory");
        free(d);
        return NULL;
    }
    snprintf(d->url, sizeof d->url, "%s", url);
    d->read_only = read_only;
    d->busy_ms = 10000;
    d->conn = connect_to(d);
    if (!d->conn) {
        snprintf(err, errlen, "out of memory");
        free(d);
        return NULL;
    }
    make_name(d);
    if (PQstatus(d->conn) != CONNECTION_OK) {
        set_errmsg(d, PQerrorMessage(d->conn));
        snprintf(err, errlen, "%s: cannot connect (%s); check that PostgreSQL "
                 "runs there and that the store setting names the right host, "
                 "port, user, password and database", d->name, d->errmsg);
        spg_close(d);
        return NULL;
    }
    return d;
}

static spg_t *spg_open(const char *url, int migrate_to, char *err, size_t errlen)
{
    if (migrate_to < 1 || migrate_to > NMIGRATIONS) {
        snprintf(err, errlen, "no schema version %d", migrate_to);
        return NULL;
    }
    spg_t *d = connect_new(url, 0, err, errlen);
    if (!d)
        return NULL;
    int fresh;
    long long version;
    if (exec_plain(d, "SET client_min_messages = warning") != 0 ||
        check_owner(d, &fresh, &version, err, errlen) != 0)
        goto fail;
    if (version > migrate_to) {
        snprintf(err, errlen, "%s: its schema is newer than the version "
                 "asked for", d->name);
        goto fail;
    }
    if (migrate(d, migrate_to, err, errlen) != 0)
        goto fail;
    if (migrate_to != STORE_SCHEMA_VERSION)
        return d;
    if (session_setup(d) != 0) {
        snprintf(err, errlen, "%s: %s", d->name, d->errmsg);
        goto fail;
    }
    if (first_write(d, err, errlen) != 0)
        goto fail;
    return d;
fail:
    spg_close(d);
    return NULL;
}

static spg_t *spg_open_read(const char *url, char *err, size_t errlen)
{
    spg_t *d = connect_new(url, 1, err, errlen);
    if (!d)
        return NULL;
    int fresh;
    long long version;
    if (exec_plain(d, "SET default_transaction_read_only = on") != 0)
        snprintf(err, errlen, "%s: %s", d->name, d->errmsg);
    else if (check_owner(d, &fresh, &version, err, errlen) == 0) {
        if (fresh || version < 1)
            snprintf(err, errlen, "%s: no rogued database yet", d->name);
        else if (session_setup(d) == 0)
            return d;
        else
            snprintf(err, errlen, "%s: %s", d->name, d->errmsg);
    }
    spg_close(d);
    return NULL;
}

static void spg_close(spg_t *d)
{
    if (!d)
        return;
    if (d->in_tx)
        spg_rollback(&d->base);
    PQfinish(d->conn);
    free(d->sent);
    free(d->unf);
    /* the URL may hold a password */
    memset(d->url, 0, sizeof d->url);
    free(d);
}

int spg_version(store_db_t *db)
{
    spg_t *d = (spg_t *)db;
    long long v;
    return !d->piped && query_ll(d, "SELECT max(version) FROM rogued_schema",
                                 &v) == 0 ? (int)v : -1;
}

long long spg_guest_first(const store_db_t *db)
{
    const spg_t *d = (const spg_t *)db;
    return d->guest_first;
}

/* --- the backend's table (store_db.h) --------------------------------------- */

static store_db_t *op_open(const char *where, int migrate_to, char *err,
                           size_t errlen)
{
    spg_t *d = spg_open(where, migrate_to, err, errlen);
    if (!d)
        return NULL;
    d->base.ops = &store_pg_ops;
    return &d->base;
}

static store_db_t *op_open_read(const char *where, char *err, size_t errlen)
{
    spg_t *d = spg_open_read(where, err, errlen);
    if (!d)
        return NULL;
    d->base.ops = &store_pg_ops;
    return &d->base;
}

static void op_close(store_db_t *db)
{
    spg_close((spg_t *)db);
}

const sdb_ops_t store_pg_ops = {
    .open = op_open,
    .open_read = op_open_read,
    .close = op_close,
#define OP(ret, name, params, args) .name = spg_##name,
    SDB_CALLS(OP)
    SDB_VOID_CALLS(OP)
#undef OP
};
