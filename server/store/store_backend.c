/* store_backend.c - store_db.h's calls, passed on to the backend whose table
 * (store_backend.h) sdb_open chose: a URL of PostgreSQL's picks
 * store_pg_ops, anything else is a SQLite file (store_sqlite_ops). */
#include "store_backend.h"

#include <stdlib.h>
#include <string.h>

int store_is_pg_url(const char *where)
{
    return where && (strncmp(where, "postgresql://", 13) == 0 ||
                     strncmp(where, "postgres://", 11) == 0);
}

static const sdb_ops_t *backend(const char *where)
{
    return store_is_pg_url(where) ? &store_pg_ops : &store_sqlite_ops;
}

store_db_t *sdb_open(const char *where, int migrate_to, char *err,
                     size_t errlen)
{
    return backend(where)->open(where, migrate_to, err, errlen);
}

store_db_t *sdb_open_read(const char *where, char *err, size_t errlen)
{
    return backend(where)->open_read(where, err, errlen);
}

void sdb_close(store_db_t *d)
{
    if (d)
        d->ops->close(d);
}

int store_create_at_version(const char *where, int version, char *err,
                            size_t errlen)
{
    store_db_t *d = sdb_open(where, version, err, errlen);
    if (!d)
        return -1;
    sdb_close(d);
    return 0;
}

/* Each call of store_db.h's lists goes to the connection's backend, with
 * the same arguments. */
#define PASS(ret, name, params, args) \
    ret sdb_##name params { return db->ops->name args; }
SDB_CALLS(PASS)
#undef PASS
#define PASS_VOID(ret, name, params, args) \
    ret sdb_##name params { db->ops->name args; }
SDB_VOID_CALLS(PASS_VOID)
#undef PASS_VOID

void sdb_snapshot_free(sdb_snapshot_t *snap)
{
    free(snap->game);
    free(snap->checks);
    memset(snap, 0, sizeof *snap);
}
