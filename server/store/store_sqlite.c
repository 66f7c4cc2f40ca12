/* store_sqlite.c - the SQLite backend (store_backend.h), the default: the
 * file, refusing what is not ours, WAL, migrations in order inside one
 * transaction (store_sqlite_schema.c has them), the prepared statements
 * (store_sqlite_rows.c runs them) and the backend's table. */
#include "store_sqlite_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "denied_hint.h"

static void lite_close(lite_t *d);

const char *lite_errmsg(store_db_t *db)
{
    lite_t *d = (lite_t *)db;
    return d->last_rc ? sqlite3_errstr(d->last_rc) : sqlite3_errmsg(d->db);
}

const char *lite_name(store_db_t *db)
{
    lite_t *d = (lite_t *)db;
    return d->path;
}

int lite_moved(store_db_t *db)
{
    lite_t *d = (lite_t *)db;
    struct stat sb;
    if (!d->has_id)
        return 0;
    if (stat(d->path, &sb) != 0)
        return errno == ENOENT || errno == ENOTDIR; /* else: cannot tell */
    return sb.st_dev != d->dev || sb.st_ino != d->ino;
}

int lite_copy_to(store_db_t *db, const char *dst)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(d->db, "VACUUM INTO ?1", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 1, dst, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int lite_retryable(store_db_t *db)
{
    (void)db; /* BEGIN IMMEDIATE: writers take turns, none is ended */
    return 0;
}

int lite_commit_unanswered(store_db_t *db)
{
    (void)db; /* a COMMIT that fails has rolled back */
    return 0;
}

uint64_t lite_games_in(store_db_t *db)
{
    (void)db; /* lite_insert_game answers 1 at once for such a game */
    return 0;
}

int lite_refused(store_db_t *db)
{
    lite_t *d = (lite_t *)db;
    int rc = d->last_rc & 0xff; /* (an extended code's primary) */
    return rc == SQLITE_CONSTRAINT || rc == SQLITE_TOOBIG ||
           rc == SQLITE_MISMATCH;
}

void lite_set_busy(store_db_t *db, int ms)
{
    lite_t *d = (lite_t *)db;
    sqlite3_busy_timeout(d->db, ms);
}

void lite_set_quiet(store_db_t *db, int quiet)
{
    lite_t *d = (lite_t *)db;
    d->quiet = quiet;
}

static void set_err(char *err, size_t errlen, const char *fmt, const char *path,
                    const char *detail)
{
    snprintf(err, errlen, fmt, path, detail);
}

/* Why path cannot even be looked at (stat failed with e, not ENOENT): a
 * permission refused is named as one, with this user, so that it never
 * reads as a missing database or a read-only disk. */
static void unreachable(char *err, size_t errlen, const char *path, int e)
{
    char hint[256];
    if (e == EACCES || e == EPERM)
        snprintf(err, errlen, "%s cannot be reached: %s: %s", path,
                 strerror(e), denied_hint("rogued", "the user the data "
                                          "directory belongs to", hint,
                                          sizeof hint));
    else
        snprintf(err, errlen, "%s cannot be reached: %s", path, strerror(e));
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

/* Whether the last failure on db was a full disk. SQLite says so
 * (SQLITE_FULL) when a write of its own finds no room, but not when it
 * cannot grow the -shm file a WAL database needs even to be read: that is
 * "disk I/O error" (SQLITE_IOERR_SHMSIZE), told apart by its errno. */
static int disk_full(sqlite3 *db)
{
    int rc = sqlite3_extended_errcode(db) & 0xff;
    return rc == SQLITE_FULL ||
           ((rc == SQLITE_IOERR || rc == SQLITE_CANTOPEN) &&
            sqlite3_system_errno(db) == ENOSPC);
}

/* The database cannot be read or written at start because its disk is
 * full: said so, not as a damaged disk or a question of permissions. */
static void set_full_err(lite_t *d, char *err, size_t errlen)
{
    int sys = sqlite3_system_errno(d->db) == ENOSPC;
    set_err(err, errlen, "%s cannot be used: the disk it is on is full (%s); "
            "free some space there, or choose another data directory",
            d->path, sys ? strerror(ENOSPC) : sqlite3_errmsg(d->db));
}

/* Is it ours? Returns 0 (ours, or empty: *fresh), or -1 with err. */
static int check_owner(lite_t *d, int *fresh, long long *version,
                       char *err, size_t errlen)
{
    long long app, objects;
    int rc = query_int(d->db, "SELECT count(*) FROM sqlite_master", &objects);
    if (rc == SQLITE_NOTADB) {
        set_err(err, errlen, "%s is not a SQLite database (%s); move it away "
                "and put a backup in its place (docs/hosting.md, \"To "
                "restore a backup\"), or choose another data directory",
                d->path, sqlite3_errstr(rc));
        return -1;
    }
    if (rc != 0 ||
        (rc = query_int(d->db, "PRAGMA application_id", &app)) != 0 ||
        (rc = query_int(d->db, "PRAGMA user_version", version)) != 0) {
        if (disk_full(d->db))
            set_full_err(d, err, errlen);
        else
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
                "(%s), not rogued's; refusing to use it: give rogued a "
                "data_dir of its own, or move that file away", d->path, why);
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
            rc = sqlite3_exec(d->db, lite_migrations[v], NULL, NULL, &msg);
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
        if (sqlite3_prepare_v3(d->db, lite_stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
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

long long lite_guest_reserve(store_db_t *db, long long n)
{
    lite_t *d = (lite_t *)db;
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

int lite_guest_give_back(store_db_t *db, long long from, long long end)
{
    lite_t *d = (lite_t *)db;
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(d->db, "UPDATE meta SET value = ?1 WHERE key"
                                " = '" GUEST_KEY "' AND value = ?2", -1, &s,
                                NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(s, 1, from);
        sqlite3_bind_int64(s, 2, end);
        rc = sqlite3_step(s);
        sqlite3_finalize(s);
    }
    if (rc != SQLITE_DONE) {
        db_fail(d, "store: %s: guest numbers not given back: %s", d->path,
                sqlite3_errstr(rc));
        return -1;
    }
    return sqlite3_changes(d->db) > 0;
}

/* The meta row of the last claim taken on a game in progress. */
#define CLAIM_KEY "last_claim"

/* Runs a statement of two integer parameters (account, claim) that
 * returns no row, or one of one integer into *v (may be NULL). */
static int claim_stmt(lite_t *d, enum stmt which, int64_t id, int64_t claim,
                      long long *v)
{
    sqlite3_stmt *s = d->st[which];
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_int64(s, 2, claim);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW && v)
        *v = sqlite3_column_int64(s, 0);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        d->last_rc = rc;
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

int lite_progress_claim(store_db_t *db, int64_t account_id, int64_t *claim)
{
    lite_t *d = (lite_t *)db;
    long long last;
    /* one writer at a time (BEGIN IMMEDIATE): last + 1 is ours alone */
    int rc = meta_get(d, CLAIM_KEY, &last);
    if (rc == SQLITE_OK)
        rc = meta_set(d, CLAIM_KEY, last + 1);
    if (rc == SQLITE_OK)
        rc = claim_stmt(d, ST_CLAIM_ACCT, account_id, last + 1, NULL);
    if (rc == SQLITE_OK)
        rc = claim_stmt(d, ST_CLAIM_GAME, account_id, last + 1, NULL);
    if (rc != SQLITE_OK) {
        db_fail(d, "store: %s: account %lld: no claim on its game in "
                "progress: %s", d->path, (long long)account_id,
                sqlite3_errstr(rc));
        return -1;
    }
    *claim = last + 1;
    return 0;
}

int lite_claim_newer(lite_t *d, int64_t account_id, int64_t claim)
{
    if (claim == 0)
        return 0;
    long long newer = 0;
    int rc = claim_stmt(d, ST_CLAIM_NEWER, account_id, claim, &newer);
    if (rc != SQLITE_OK) {
        db_fail(d, "store: %s: account %lld: claim not read: %s", d->path,
                (long long)account_id, sqlite3_errstr(rc));
        return -1;
    }
    return newer != 0;
}

static int guest_reserve(lite_t *d, char *err, size_t errlen)
{
    char *msg = NULL;
    int rc = sqlite3_exec(d->db, "BEGIN IMMEDIATE", NULL, NULL, &msg);
    long long first = -1;
    int full = 0;
    if (rc == SQLITE_OK) {
        first = lite_guest_reserve(&d->base, STORE_GUEST_BLOCK);
        full = first < 1 && disk_full(d->db); /* before ROLLBACK resets it */
        rc = sqlite3_exec(d->db, first > 0 ? "COMMIT" : "ROLLBACK", NULL, NULL,
                          &msg);
    }
    if (rc == SQLITE_OK && first > 0) {
        d->guest_first = first;
        return 0;
    }
    if (full || disk_full(d->db))
        set_full_err(d, err, errlen);
    else
        set_err(err, errlen, "%s cannot be written (%s): games would be lost; "
                "make the file and its directory writable by the user rogued "
                "runs as (SQLite adds -wal and -shm files beside it), or "
                "choose another data directory", d->path,
                msg ? msg : sqlite3_errmsg(d->db));
    sqlite3_free(msg);
    return -1;
}

long long lite_guest_first(const store_db_t *db)
{
    const lite_t *d = (const lite_t *)db;
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

/* A new database file, empty (SQLite takes an empty file as a new
 * database), 0600 whatever the umask: it holds the accounts' password
 * hashes, as a backup's copy does. SQLite gives its -wal and -shm the
 * database file's mode, so they are 0600 too. Created here rather than
 * under a umask: the process's umask is every thread's. */
static int create_private(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST)
        return 0; /* made since the stat: opened as it is, as any other */
    if (fd < 0) {
        set_err(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    close(fd);
    return 0;
}

static lite_t *lite_open(const char *path, int migrate_to, char *err, size_t errlen)
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
    if (!exists && errno != ENOENT) {
        unreachable(err, errlen, path, errno);
        free(d);
        return NULL;
    }
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
    if (!exists && create_private(path, err, errlen) != 0) {
        free(d);
        return NULL;
    }
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
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
    /* the file just opened (and written: it exists), for lite_moved */
    if (stat(path, &sb) == 0) {
        d->has_id = 1;
        d->dev = sb.st_dev;
        d->ino = sb.st_ino;
    }
    return d;
}

static lite_t *lite_open_read(const char *path, char *err, size_t errlen)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        if (errno == ENOENT)
            set_err(err, errlen, "%s: no database there (%s); is the data "
                    "directory right?", path, strerror(errno));
        else
            unreachable(err, errlen, path, errno);
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

static void lite_close(lite_t *d)
{
    if (!d)
        return;
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(d->st[i]);
    if (d->db && sqlite3_close(d->db) != SQLITE_OK)
        log_error("store: %s: close: %s", d->path, sqlite3_errmsg(d->db));
    free(d);
}

int lite_version(store_db_t *db)
{
    lite_t *d = (lite_t *)db;
    long long v;
    return query_int(d->db, "PRAGMA user_version", &v) == 0 ? (int)v : -1;
}

/* --- the backend's table (store_db.h) --------------------------------------- */

static store_db_t *op_open(const char *where, int migrate_to, char *err,
                           size_t errlen)
{
    lite_t *d = lite_open(where, migrate_to, err, errlen);
    if (!d)
        return NULL;
    d->base.ops = &store_sqlite_ops;
    return &d->base;
}

static store_db_t *op_open_read(const char *where, char *err, size_t errlen)
{
    lite_t *d = lite_open_read(where, err, errlen);
    if (!d)
        return NULL;
    d->base.ops = &store_sqlite_ops;
    return &d->base;
}

static void op_close(store_db_t *db)
{
    lite_close((lite_t *)db);
}

const sdb_ops_t store_sqlite_ops = {
    .open = op_open,
    .open_read = op_open_read,
    .close = op_close,
#define OP(ret, name, params, args) .name = lite_##name,
    SDB_CALLS(OP)
    SDB_VOID_CALLS(OP)
#undef OP
};
