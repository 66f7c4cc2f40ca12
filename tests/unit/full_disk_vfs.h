/* full_disk_vfs.h - a full disk for SQLite, on demand: a VFS put in front
 * of the default one (full_disk_install) that, while full_disk is set,
 * refuses what a full disk refuses and lets the rest through; and, while
 * write_gate is set, holds another thread's WAL write lock (its write
 * transaction's start) until the gate opens, gate_waiting saying one
 * waits: a test's way to have a request queued while the store's
 * thread is inside a batch, with no timing. A write
 * that would grow a file fails with SQLITE_FULL, as the unix VFS says
 * ENOSPC; a -shm region not mapped yet fails as the unix VFS fails to grow
 * the -shm file (SQLITE_IOERR_SHMSIZE, errno ENOSPC), which is what a WAL
 * database meets first when opened on a full disk. Writes within a file's
 * size go through, as on a real disk. Every connection of the process
 * opened after the install uses it (the store's thread's too).
 *
 * Header-only: each test binary is one file. */
#ifndef ROGUE_TEST_FULL_DISK_VFS_H
#define ROGUE_TEST_FULL_DISK_VFS_H

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

static atomic_int full_disk;
static atomic_int write_gate, gate_waiting;
static pthread_t gate_owner;     /* the thread the gate lets through */
static sqlite3_vfs *full_real;   /* the VFS behind */
static sqlite3_vfs full_vfs;

typedef struct full_file {
    sqlite3_file base;
    int shm_pages;               /* -shm regions mapped so far */
    sqlite3_file *real;          /* the real one, right after this */
} full_file_t;

#define FULL_REAL(f) (((full_file_t *)(f))->real)

static int full_close(sqlite3_file *f)
{
    return FULL_REAL(f)->pMethods->xClose(FULL_REAL(f));
}

static int full_read(sqlite3_file *f, void *b, int n, sqlite3_int64 at)
{
    return FULL_REAL(f)->pMethods->xRead(FULL_REAL(f), b, n, at);
}

static int full_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 at)
{
    sqlite3_file *r = FULL_REAL(f);
    sqlite3_int64 size = 0;
    if (atomic_load(&full_disk) && r->pMethods->xFileSize(r, &size) ==
        SQLITE_OK && at + n > size) {
        errno = ENOSPC;
        return SQLITE_FULL;
    }
    return r->pMethods->xWrite(r, b, n, at);
}

static int full_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    return FULL_REAL(f)->pMethods->xTruncate(FULL_REAL(f), size);
}

static int full_sync(sqlite3_file *f, int flags)
{
    return FULL_REAL(f)->pMethods->xSync(FULL_REAL(f), flags);
}

static int full_size(sqlite3_file *f, sqlite3_int64 *size)
{
    return FULL_REAL(f)->pMethods->xFileSize(FULL_REAL(f), size);
}

static int full_lock(sqlite3_file *f, int lock)
{
    return FULL_REAL(f)->pMethods->xLock(FULL_REAL(f), lock);
}

static int full_unlock(sqlite3_file *f, int lock)
{
    return FULL_REAL(f)->pMethods->xUnlock(FULL_REAL(f), lock);
}

static int full_reserved(sqlite3_file *f, int *out)
{
    return FULL_REAL(f)->pMethods->xCheckReservedLock(FULL_REAL(f), out);
}

static int full_control(sqlite3_file *f, int op, void *arg)
{
    return FULL_REAL(f)->pMethods->xFileControl(FULL_REAL(f), op, arg);
}

static int full_sector(sqlite3_file *f)
{
    return FULL_REAL(f)->pMethods->xSectorSize(FULL_REAL(f));
}

static int full_device(sqlite3_file *f)
{
    return FULL_REAL(f)->pMethods->xDeviceCharacteristics(FULL_REAL(f));
}

static int full_shm_map(sqlite3_file *f, int pg, int pgsz, int extend,
                        void volatile **p)
{
    full_file_t *ff = (full_file_t *)f;
    if (atomic_load(&full_disk) && extend && pg >= ff->shm_pages) {
        errno = ENOSPC;
        return SQLITE_IOERR_SHMSIZE;
    }
    int rc = ff->real->pMethods->xShmMap(ff->real, pg, pgsz, extend, p);
    if (rc == SQLITE_OK && *p && pg >= ff->shm_pages)
        ff->shm_pages = pg + 1;
    return rc;
}

static int full_shm_lock(sqlite3_file *f, int at, int n, int flags)
{
    /* (WAL's write lock is the -shm lock at 0, taken exclusive) */
    if (at == 0 && (flags & SQLITE_SHM_LOCK) && (flags & SQLITE_SHM_EXCLUSIVE)
        && atomic_load(&write_gate) && !pthread_equal(pthread_self(),
                                                      gate_owner)) {
        atomic_store(&gate_waiting, 1);
        while (atomic_load(&write_gate)) {
            struct timespec ts = { 0, 1000000L };
            nanosleep(&ts, NULL);
        }
        atomic_store(&gate_waiting, 0);
    }
    return FULL_REAL(f)->pMethods->xShmLock(FULL_REAL(f), at, n, flags);
}

static void full_shm_barrier(sqlite3_file *f)
{
    FULL_REAL(f)->pMethods->xShmBarrier(FULL_REAL(f));
}

static int full_shm_unmap(sqlite3_file *f, int del)
{
    ((full_file_t *)f)->shm_pages = 0;
    return FULL_REAL(f)->pMethods->xShmUnmap(FULL_REAL(f), del);
}

static int full_fetch(sqlite3_file *f, sqlite3_int64 at, int n, void **p)
{
    return FULL_REAL(f)->pMethods->xFetch(FULL_REAL(f), at, n, p);
}

static int full_unfetch(sqlite3_file *f, sqlite3_int64 at, void *p)
{
    return FULL_REAL(f)->pMethods->xUnfetch(FULL_REAL(f), at, p);
}

static const sqlite3_io_methods full_io = {
    3, full_close, full_read, full_write, full_truncate, full_sync,
    full_size, full_lock, full_unlock, full_reserved, full_control,
    full_sector, full_device, full_shm_map, full_shm_lock, full_shm_barrier,
    full_shm_unmap, full_fetch, full_unfetch,
};

static int full_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f,
                     int flags, int *out_flags)
{
    (void)vfs;
    full_file_t *ff = (full_file_t *)f;
    memset(ff, 0, sizeof *ff);
    ff->real = (sqlite3_file *)(ff + 1);
    int rc = full_real->xOpen(full_real, name, ff->real, flags, out_flags);
    /* (a file the real VFS did not open is not ours to close) */
    ff->base.pMethods = ff->real->pMethods ? &full_io : NULL;
    return rc;
}

/* The rest is the real VFS's, with its name changed. */
static void full_disk_install(void)
{
    if (full_real)
        return;
    gate_owner = pthread_self();
    full_real = sqlite3_vfs_find(NULL);
    full_vfs = *full_real;
    full_vfs.zName = "full-disk";
    full_vfs.szOsFile = (int)sizeof(full_file_t) + full_real->szOsFile;
    full_vfs.xOpen = full_open;
    ck_assert_int_eq(sqlite3_vfs_register(&full_vfs, 1), SQLITE_OK);
}

#endif
