/* store_backend.h - the two databases behind store_db.h: what each backend
 * provides, one function per sdb_* call (store_db.h says what each does;
 * store_backend.c picks the backend at sdb_open and passes each call on).
 *
 *   lite_*  store_sqlite.c: the embedded SQLite file in the data directory
 *           (the default: no database server needed)
 *   spg_*   store_pg.c: a PostgreSQL database named by a libpq URL
 *           (`store = postgresql://...`, docs/hosting.md)
 *
 * Both keep the same schema version (STORE_SCHEMA_VERSION), one migration
 * per version, and the same meaning for every call. What differs is when a
 * write inside a transaction is known to have worked: SQLite runs it at
 * once; PostgreSQL sends the writes of a batch without waiting (libpq's
 * pipeline mode: one round trip a batch) and learns at the commit which
 * begins and appends had nothing to follow (sdb_unfollowed). Only the
 * store's files include this. */
#ifndef ROGUE_STORE_BACKEND_H
#define ROGUE_STORE_BACKEND_H

#include "store_db.h"

/* The URL prefixes that choose PostgreSQL (libpq's own). */
int store_is_pg_url(const char *where);

/* --- SQLite ---------------------------------------------------------------- */
typedef struct lite lite_t;

lite_t *lite_open(const char *path, int migrate_to, char *err, size_t errlen);
lite_t *lite_open_read(const char *path, char *err, size_t errlen);
void lite_close(lite_t *d);
int lite_begin(lite_t *d);
int lite_commit(lite_t *d);
int lite_rollback(lite_t *d);
int lite_in_transaction(lite_t *d);
int lite_insert_game(lite_t *d, const store_game_t *g, const void *record,
                     size_t len);
int lite_insert_account(lite_t *d, const char *name, const char *hash,
                        int64_t now, int64_t *id);
int lite_set_password_hash(lite_t *d, int64_t id, const char *hash);
int lite_find_account(lite_t *d, const char *name, int64_t *id,
                      char *name_out, char *hash_out, size_t hashlen);
int lite_account_exists(lite_t *d, const char *name);
int lite_account_display(lite_t *d, int64_t id, int *display);
int lite_set_account_display(lite_t *d, int64_t id, int display);
int lite_scores(lite_t *d, int n, const char *player, store_scores_t *out);
int lite_progress_begin(lite_t *d, int64_t account_id, uint32_t version,
                        uint64_t seed, const game_options_t *opt,
                        int64_t started);
int lite_progress_end(lite_t *d, int64_t account_id);
int lite_progress_append(lite_t *d, int64_t account_id, const void *keys,
                         size_t len);
int lite_progress_load(lite_t *d, int64_t account_id, store_progress_t *out,
                       void **keys);
int lite_progress_snapshot(lite_t *d, int64_t account_id,
                           const sdb_snapshot_t *snap);
int lite_progress_load_snapshot(lite_t *d, int64_t account_id,
                                sdb_snapshot_t *out);
int lite_get_record(lite_t *d, int64_t game_id, store_game_t *g,
                    void **record, size_t *len);
int lite_list_games(lite_t *d, int64_t after, int n, store_listed_t *out);
long long lite_prune_guests(lite_t *d, int64_t before, int keep_top);
long long lite_guest_reserve(lite_t *d, long long n);
long long lite_guest_first(const lite_t *d);
void lite_set_quiet(lite_t *d, int quiet);
const char *lite_name(lite_t *d);
const char *lite_errmsg(lite_t *d);
void lite_set_busy(lite_t *d, int ms);
int lite_version(lite_t *d);
int lite_key_add(lite_t *d, int64_t account_id, const char *fingerprint,
                 const char *key, int64_t now, int max);
int lite_key_remove(lite_t *d, int64_t account_id, const char *fingerprint);
int lite_keys_list(lite_t *d, int64_t account_id, store_keys_t *out);
int lite_key_find(lite_t *d, const char *name, const char *fingerprint,
                  int64_t *id, char *name_out, char *key_out, size_t keylen);

/* --- PostgreSQL -------------------------------------------------------------- */
typedef struct spg spg_t;

spg_t *spg_open(const char *url, int migrate_to, char *err, size_t errlen);
spg_t *spg_open_read(const char *url, char *err, size_t errlen);
void spg_close(spg_t *d);
int spg_begin(spg_t *d);
int spg_commit(spg_t *d);
int spg_rollback(spg_t *d);
int spg_in_transaction(spg_t *d);
int spg_insert_game(spg_t *d, const store_game_t *g, const void *record,
                    size_t len);
int spg_insert_account(spg_t *d, const char *name, const char *hash,
                       int64_t now, int64_t *id);
int spg_set_password_hash(spg_t *d, int64_t id, const char *hash);
int spg_find_account(spg_t *d, const char *name, int64_t *id,
                     char *name_out, char *hash_out, size_t hashlen);
int spg_account_exists(spg_t *d, const char *name);
int spg_account_display(spg_t *d, int64_t id, int *display);
int spg_set_account_display(spg_t *d, int64_t id, int display);
int spg_scores(spg_t *d, int n, const char *player, store_scores_t *out);
int spg_progress_begin(spg_t *d, int64_t account_id, uint32_t version,
                       uint64_t seed, const game_options_t *opt,
                       int64_t started);
int spg_progress_end(spg_t *d, int64_t account_id);
int spg_progress_append(spg_t *d, int64_t account_id, const void *keys,
                        size_t len);
int spg_progress_load(spg_t *d, int64_t account_id, store_progress_t *out,
                      void **keys);
int spg_progress_snapshot(spg_t *d, int64_t account_id,
                          const sdb_snapshot_t *snap);
int spg_progress_load_snapshot(spg_t *d, int64_t account_id,
                               sdb_snapshot_t *out);
int spg_get_record(spg_t *d, int64_t game_id, store_game_t *g,
                   void **record, size_t *len);
int spg_list_games(spg_t *d, int64_t after, int n, store_listed_t *out);
long long spg_prune_guests(spg_t *d, int64_t before, int keep_top);
long long spg_guest_reserve(spg_t *d, long long n);
long long spg_guest_first(const spg_t *d);
void spg_set_quiet(spg_t *d, int quiet);
const char *spg_errmsg(spg_t *d);
void spg_set_busy(spg_t *d, int ms);
int spg_version(spg_t *d);
size_t spg_unfollowed(spg_t *d, const store_unfollowed_t **out);
/* What messages call the database: the URL without its password. */
const char *spg_name(spg_t *d);
int spg_key_add(spg_t *d, int64_t account_id, const char *fingerprint,
                const char *key, int64_t now, int max);
int spg_key_remove(spg_t *d, int64_t account_id, const char *fingerprint);
int spg_keys_list(spg_t *d, int64_t account_id, store_keys_t *out);
int spg_key_find(spg_t *d, const char *name, const char *fingerprint,
                 int64_t *id, char *name_out, char *key_out, size_t keylen);

#endif
