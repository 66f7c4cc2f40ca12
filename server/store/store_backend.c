/* store_backend.c - store_db.h's calls, passed on to the backend that
 * sdb_open chose (store_backend.h): a URL of PostgreSQL's picks store_pg.c,
 * anything else is a SQLite file (store_sqlite.c). */
#include "store_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct store_db {
    lite_t *lite; /* exactly one of the two */
    spg_t *pg;
};

/* Each call goes to the backend in use, with the same arguments. */
#define PASS(d, f, ...) ((d)->pg ? spg_##f((d)->pg, __VA_ARGS__) \
                                 : lite_##f((d)->lite, __VA_ARGS__))
#define PASS0(d, f) ((d)->pg ? spg_##f((d)->pg) : lite_##f((d)->lite))

int store_is_pg_url(const char *where)
{
    return where && (strncmp(where, "postgresql://", 13) == 0 ||
                     strncmp(where, "postgres://", 11) == 0);
}

static store_db_t *wrap(lite_t *lite, spg_t *pg)
{
    if (!lite && !pg)
        return NULL;
    store_db_t *d = calloc(1, sizeof *d);
    if (!d) {
        lite_close(lite);
        spg_close(pg);
        return NULL;
    }
    d->lite = lite;
    d->pg = pg;
    return d;
}

store_db_t *sdb_open(const char *where, int migrate_to, char *err,
                     size_t errlen)
{
    if (store_is_pg_url(where))
        return wrap(NULL, spg_open(where, migrate_to, err, errlen));
    return wrap(lite_open(where, migrate_to, err, errlen), NULL);
}

store_db_t *sdb_open_read(const char *where, char *err, size_t errlen)
{
    if (store_is_pg_url(where))
        return wrap(NULL, spg_open_read(where, err, errlen));
    return wrap(lite_open_read(where, err, errlen), NULL);
}

void sdb_close(store_db_t *d)
{
    if (!d)
        return;
    lite_close(d->lite);
    spg_close(d->pg);
    free(d);
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

int sdb_begin(store_db_t *d) { return PASS0(d, begin); }
int sdb_commit(store_db_t *d) { return PASS0(d, commit); }
int sdb_rollback(store_db_t *d) { return PASS0(d, rollback); }
int sdb_in_transaction(store_db_t *d) { return PASS0(d, in_transaction); }
int sdb_version(store_db_t *d) { return PASS0(d, version); }
const char *sdb_errmsg(store_db_t *d) { return PASS0(d, errmsg); }
const char *sdb_name(store_db_t *d) { return PASS0(d, name); }
void sdb_set_quiet(store_db_t *d, int quiet) { PASS(d, set_quiet, quiet); }
void sdb_set_busy(store_db_t *d, int ms) { PASS(d, set_busy, ms); }

long long sdb_guest_first(const store_db_t *d)
{
    return d->pg ? spg_guest_first(d->pg) : lite_guest_first(d->lite);
}

size_t sdb_unfollowed(store_db_t *d, const store_unfollowed_t **out)
{
    *out = NULL;
    return d->pg ? spg_unfollowed(d->pg, out) : 0;
}

int sdb_insert_game(store_db_t *d, const store_game_t *g, const void *record,
                    size_t len)
{
    return PASS(d, insert_game, g, record, len);
}

int sdb_insert_account(store_db_t *d, const char *name, const char *hash,
                       int64_t now, int64_t *id)
{
    return PASS(d, insert_account, name, hash, now, id);
}

int sdb_set_password_hash(store_db_t *d, int64_t id, const char *hash)
{
    return PASS(d, set_password_hash, id, hash);
}

int sdb_find_account(store_db_t *d, const char *name, int64_t *id,
                     char *name_out, char *hash_out, size_t hashlen)
{
    return PASS(d, find_account, name, id, name_out, hash_out, hashlen);
}

int sdb_account_display(store_db_t *d, int64_t id, int *display)
{
    return PASS(d, account_display, id, display);
}

int sdb_set_account_display(store_db_t *d, int64_t id, int display)
{
    return PASS(d, set_account_display, id, display);
}

int sdb_account_exists(store_db_t *d, const char *name)
{
    return PASS(d, account_exists, name);
}

int sdb_scores(store_db_t *d, int n, const char *player, store_scores_t *out)
{
    return PASS(d, scores, n, player, out);
}

int sdb_progress_begin(store_db_t *d, int64_t account_id, uint32_t version,
                       uint64_t seed, const game_options_t *opt,
                       int64_t started)
{
    return PASS(d, progress_begin, account_id, version, seed, opt, started);
}

int sdb_progress_end(store_db_t *d, int64_t account_id)
{
    return PASS(d, progress_end, account_id);
}

int sdb_progress_append(store_db_t *d, int64_t account_id, const void *keys,
                        size_t len)
{
    return PASS(d, progress_append, account_id, keys, len);
}

int sdb_progress_load(store_db_t *d, int64_t account_id,
                      store_progress_t *out, void **keys)
{
    return PASS(d, progress_load, account_id, out, keys);
}

int sdb_get_record(store_db_t *d, int64_t game_id, store_game_t *g,
                   void **record, size_t *len)
{
    return PASS(d, get_record, game_id, g, record, len);
}

int sdb_list_games(store_db_t *d, int64_t after, int n, store_listed_t *out)
{
    return PASS(d, list_games, after, n, out);
}

long long sdb_prune_guests(store_db_t *d, int64_t before, int keep_top)
{
    return PASS(d, prune_guests, before, keep_top);
}

int sdb_progress_snapshot(store_db_t *d, int64_t account_id,
                          const sdb_snapshot_t *snap)
{
    return PASS(d, progress_snapshot, account_id, snap);
}

int sdb_progress_load_snapshot(store_db_t *d, int64_t account_id,
                               sdb_snapshot_t *out)
{
    return PASS(d, progress_load_snapshot, account_id, out);
}

void sdb_snapshot_free(sdb_snapshot_t *snap)
{
    free(snap->game);
    free(snap->checks);
    memset(snap, 0, sizeof *snap);
}

long long sdb_guest_reserve(store_db_t *d, long long n)
{
    return PASS(d, guest_reserve, n);
}

int sdb_key_add(store_db_t *d, int64_t account_id, const char *fingerprint,
                const char *key, int64_t now, int max)
{
    return PASS(d, key_add, account_id, fingerprint, key, now, max);
}

int sdb_key_remove(store_db_t *d, int64_t account_id, const char *fingerprint)
{
    return PASS(d, key_remove, account_id, fingerprint);
}

int sdb_keys_list(store_db_t *d, int64_t account_id, store_keys_t *out)
{
    return PASS(d, keys_list, account_id, out);
}

int sdb_key_find(store_db_t *d, const char *name, const char *fingerprint,
                 int64_t *id, char *name_out, char *key_out, size_t keylen)
{
    return PASS(d, key_find, name, fingerprint, id, name_out, key_out, keylen);
}
