/* ctl_backup.c - the console's `backup FILE`: SQLite's online backup of
 * the data directory's database into FILE, then `PRAGMA quick_check` on
 * the copy; on libuv's thread pool, so that the host's loop goes on. A
 * connection of its own reads the database: in WAL mode the server's
 * writes go on meanwhile, and the copy is one consistent moment. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>
#include <uv.h>

#include "ctl.h"
#include "host.h"
#include "store_types.h"

typedef struct backup_job {
    uv_work_t work;
    ctl_t *c;
    uint64_t req;              /* the request's number: it may be gone */
    char src[CONFIG_STR_MAX + 32];
    char dst[1024];
    int ok;
    char result[2048];
} backup_job_t;

/* The application_id of the SQLite database at path, into *app: 0, or
 * -1 when it is none (SQLITE_NOTADB) or cannot be read. */
static int app_id_of(const char *path, long long *app)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int ok = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) ==
                 SQLITE_OK &&
             sqlite3_prepare_v2(db, "PRAGMA application_id", -1, &st, NULL) ==
                 SQLITE_OK &&
             sqlite3_step(st) == SQLITE_ROW;
    if (ok)
        *app = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return ok ? 0 : -1;
}

/* What is at dst may be written over only when it is nothing, an empty
 * file, or rogued's own database (an older backup). Not a symbolic link
 * (a new copy through a dangling one was made 0644, its hashes readable
 * by all), a device or a fifo (/dev/null left a /dev/null-journal
 * beside it), a directory, nor another application's SQLite database
 * (a host QA's backup wrote over one; the server refuses to open such a
 * file too). 0, or -1 with why in j->result. */
static int dst_may_be_written(backup_job_t *j)
{
    struct stat st;
    const char *why = NULL;
    long long app = 0;
    if (lstat(j->dst, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(j->result, sizeof j->result, "backup to %s failed: %s",
                 j->dst, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode))
        why = "it is a symbolic link: give the path it names";
    else if (!S_ISREG(st.st_mode))
        why = "it is not a regular file: give a new path, or an older backup";
    else if (st.st_size == 0)
        return 0;
    else if (app_id_of(j->dst, &app) != 0)
        why = "file is not a database (a file there that is not a database "
              "is never written over: give a new path, or an older backup)";
    else if (app != STORE_APP_ID)
        why = "it is a SQLite database of another application, never "
              "written over: give a new path, or an older backup";
    if (!why)
        return 0;
    snprintf(j->result, sizeof j->result, "backup to %s failed: %s", j->dst,
             why);
    return -1;
}

/* Copies src into dst: SQLITE_OK or the error, with why in j->result. */
static int copy_db(backup_job_t *j, int *pages)
{
    sqlite3 *from = NULL, *to = NULL;
    if (dst_may_be_written(j) != 0)
        return SQLITE_CANTOPEN;
    /* A new copy is made for this user alone, as the database is: it
     * holds the accounts' password hashes (SQLite would make it 0644). A
     * FILE already there keeps the mode its owner gave it. */
    int fd = open(j->dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    int made = fd >= 0 ? 0 : errno; /* EEXIST: there already, kept */
    if (fd >= 0)
        close(fd);
    int rc = sqlite3_open_v2(j->src, &from, SQLITE_OPEN_READONLY, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_open_v2(j->dst, &to,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_busy_timeout(from, 5000);
        sqlite3_backup *b = sqlite3_backup_init(to, "main", from, "main");
        if (!b) {
            rc = sqlite3_errcode(to);
        } else {
            /* all pages in one step: one read transaction, one moment */
            for (int tries = 0; tries < 100; tries++) {
                rc = sqlite3_backup_step(b, -1);
                if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
                    break;
                sqlite3_sleep(50);
            }
            *pages = sqlite3_backup_pagecount(b);
            int fin = sqlite3_backup_finish(b);
            if (rc == SQLITE_DONE)
                rc = fin;
        }
    }
    /* The copy is one file: the database's WAL mode, copied with its
     * header, would leave FILE-wal and FILE-shm beside it (the check's
     * read-only connection cannot remove them). The server sets WAL
     * again when it opens a restored copy. */
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(to, "PRAGMA journal_mode = DELETE", NULL, NULL,
                          NULL);
    /* SQLite's words alone ("unable to open database file") said
     * neither which file nor what to do (a host QA's find). */
    if (rc != SQLITE_OK && made && made != EEXIST)
        snprintf(j->result, sizeof j->result, "backup to %s failed: it "
                 "cannot be made: %s (its directory must be there and "
                 "writable by the server's user)", j->dst, strerror(made));
    else if (rc != SQLITE_OK)
        snprintf(j->result, sizeof j->result, "backup to %s failed: %s",
                 j->dst, sqlite3_errstr(rc));
    sqlite3_close(from);
    sqlite3_close(to);
    return rc;
}

/* PRAGMA quick_check on the copy: 1 if it says "ok". */
static int check_copy(backup_job_t *j)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int ok = 0;
    if (sqlite3_open_v2(j->dst, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        ok = t && strcmp(t, "ok") == 0;
        snprintf(j->result, sizeof j->result, "%s: quick_check says %.200s",
                 j->dst, t ? t : "nothing");
    } else {
        snprintf(j->result, sizeof j->result, "%s: cannot check the copy: %s",
                 j->dst, db ? sqlite3_errmsg(db) : "out of memory");
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return ok;
}

static void backup_work(uv_work_t *w)
{
    backup_job_t *j = w->data;
    int pages = 0;
    if (copy_db(j, &pages) != SQLITE_OK)
        return;
    if (!check_copy(j))
        return;
    j->ok = 1;
    snprintf(j->result, sizeof j->result,
             "backup written to %s (%d pages), quick_check ok", j->dst, pages);
}

static void backup_done(uv_work_t *w, int status)
{
    backup_job_t *j = w->data;
    ctl_req_t *r = ctl_req_find(j->c, j->req);
    if (r) {
        if (status != 0)
            ctl_req_done(r, "the backup did not run");
        else if (j->ok) {
            ctl_req_printf(r, "%s\n", j->result);
            ctl_req_done(r, NULL);
        } else {
            ctl_req_done(r, j->result);
        }
    }
    free(j);
}

int ctl_backup_run(ctl_req_t *r, const char *args)
{
    host_t *h = ctl_req_host(r);
    if (h->cfg.store[0]) {
        ctl_req_done(r, "the store is PostgreSQL: back it up with pg_dump "
                        "(docs/hosting.md, \"Operations\")");
        return 0;
    }
    if (!args[0]) {
        ctl_req_done(r, "backup needs a FILE: where to write the copy");
        return 0;
    }
    if (args[0] != '/') { /* rogued ctl makes FILE absolute */
        ctl_req_done(r, "backup's FILE must be an absolute path (rogued ctl "
                        "makes a relative one absolute)");
        return 0;
    }
    char db[sizeof h->cfg.data_dir + sizeof STORE_FILE + 1];
    snprintf(db, sizeof db, "%s/%s", h->cfg.data_dir, STORE_FILE);
    struct stat a, b;
    if (stat(args, &a) == 0 && stat(db, &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino) {
        /* the copy would be written over the database it copies */
        ctl_req_done(r, "backup: that FILE is the database itself: name "
                        "another");
        return 0;
    }
    backup_job_t *j = calloc(1, sizeof *j);
    if (!j) {
        ctl_req_done(r, "out of memory");
        return 0;
    }
    j->c = ctl_req_ctl(r);
    j->req = ctl_req_id(r);
    snprintf(j->src, sizeof j->src, "%s/%s", h->cfg.data_dir, STORE_FILE);
    snprintf(j->dst, sizeof j->dst, "%s", args);
    j->work.data = j;
    if (uv_queue_work(h->loop, &j->work, backup_work, backup_done) != 0) {
        free(j);
        ctl_req_done(r, "cannot start the backup");
        return 0;
    }
    return 2; /* answered by backup_done */
}
