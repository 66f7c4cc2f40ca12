/* store_backend.h - the two databases behind store_db.h, each a table of
 * the calls store_db.h lists (sdb_ops_t), as SQLite's VFS is:
 *
 *   store_sqlite_ops  store_sqlite*.c: the embedded SQLite file in the data
 *                     directory (the default: no database server needed)
 *   store_pg_ops      store_pg*.c: a PostgreSQL database named by a libpq
 *                     URL (`store = postgresql://...`, docs/hosting.md)
 *
 * Both keep the same schema version (STORE_SCHEMA_VERSION), one migration
 * per version, and the same meaning for every call. What differs is when a
 * write inside a transaction is known to have worked: SQLite runs it at
 * once; PostgreSQL sends the writes of a batch without waiting (libpq's
 * pipeline mode: one round trip a batch) and learns at the commit which
 * begins and appends had nothing to follow (sdb_unfollowed). And only
 * PostgreSQL ends a transaction to break a deadlock, which the store then
 * runs again (sdb_retryable; SQLite's writers take turns). sdb_open
 * (store_backend.c) picks the table; only the store's files include this. */
#ifndef ROGUE_STORE_BACKEND_H
#define ROGUE_STORE_BACKEND_H

#include "store_db.h"

/* The URL prefixes that choose PostgreSQL (libpq's own). */
int store_is_pg_url(const char *where);

extern const sdb_ops_t store_sqlite_ops;
extern const sdb_ops_t store_pg_ops;

#endif
