/* fuzz_store_row.c - libFuzzer target for what the store reads back from
 * its file: a crafted row (any SQLite type in any column: text where a
 * number belongs, a blob for a name, NULLs, huge numbers) is written into
 * a real rogued database with a connection of its own, then read through
 * the store's load paths, as a damaged or tampered file would be:
 *
 *   mode bit 0 clear: a finished game (games table) read by sdb_get_record
 *     (the store's replay and --export path), listed by sdb_list_games and
 *     ranked by sdb_scores; its record bytes go to record_decode and
 *     record_replay, as a replay would
 *   mode bit 0 set: a game in progress (progress and progress_keys) read by
 *     sdb_progress_load (the store's resume path) and rebuilt by
 *     record_resume, as a login would; its snapshot columns read by
 *     sdb_progress_load_snapshot
 *   mode bit 1 set: the record or keys are first made well-formed (the
 *     bytes played as keys through a recorder), then one byte damaged where
 *     the input says, so that the deep checks are reached without a corpus
 *
 * Input: a mode byte, a type byte (two bits per column: integer, text,
 * blob or NULL), then for each column a length byte and that many bytes,
 * and the rest is the record (or keys). Besides the sanitizers it checks
 * that what is read back stays within its buffers and that a record that
 * decodes also replays consistently. */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "game.h"
#include "keys.h"
#include "record.h"
#include "store.h"
#include "store_db.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], path[128];
static store_db_t *db;      /* the store's connection: reads */
static sqlite3 *raw;        /* ours: writes the crafted rows */

static void cleanup(void)
{
    sdb_close(db);
    sqlite3_close(raw);
    char p[160];
    const char *suffix[] = { "", "-wal", "-shm" };
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s%s", path, suffix[i]);
        unlink(p);
    }
    rmdir(dir);
}

static void open_once(void)
{
    if (db)
        return;
    snprintf(dir, sizeof dir, "/dev/shm/fuzz_store_row-XXXXXX");
    if (!mkdtemp(dir)) { /* memory if we may, else the disk */
        snprintf(dir, sizeof dir, "/tmp/fuzz_store_row-XXXXXX");
        if (!mkdtemp(dir))
            abort();
    }
    snprintf(path, sizeof path, "%s/%s", dir, STORE_FILE);
    char err[512];
    db = sdb_open(path, STORE_SCHEMA_VERSION, err, sizeof err);
    if (!db || sqlite3_open(path, &raw) != SQLITE_OK ||
        sqlite3_exec(raw, "PRAGMA synchronous = OFF;"
                          "PRAGMA foreign_keys = OFF;"
                          "INSERT INTO accounts (id, name, pwhash, created)"
                          " VALUES (1, 'Fuzz', 'x', 0);",
                     NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "fuzz_store_row: %s\n", err);
        abort();
    }
    atexit(cleanup);
}

/* The input, read front to back. */
typedef struct in {
    const uint8_t *p;
    size_t n;
} in_t;

static size_t take(in_t *in, const uint8_t **out, size_t want)
{
    if (want > in->n)
        want = in->n;
    *out = in->p;
    in->p += want;
    in->n -= want;
    return want;
}

/* Binds parameter i as the type the input picks, from the next field. */
static void bind_field(sqlite3_stmt *s, int i, int type, in_t *in)
{
    const uint8_t *len_p, *p;
    size_t n = take(in, &len_p, 1) ? *len_p : 0;
    n = take(in, &p, n);
    switch (type) {
    case 0: {
        uint64_t v = 0;
        memcpy(&v, p, n < 8 ? n : 8);
        sqlite3_bind_int64(s, i, (sqlite3_int64)v);
        break;
    }
    case 1:
        sqlite3_bind_text(s, i, (const char *)p, (int)n, SQLITE_TRANSIENT);
        break;
    case 2:
        sqlite3_bind_blob(s, i, p, (int)n, SQLITE_TRANSIENT);
        break;
    default:
        sqlite3_bind_null(s, i);
        break;
    }
}

static void exec(const char *sql)
{
    if (sqlite3_exec(raw, sql, NULL, NULL, NULL) != SQLITE_OK)
        abort();
}

/* A well-formed record (or key bytes) made from the input, one byte of
 * it damaged where the input says. */
static void well_formed(const uint8_t *p, size_t n, int keys_only, buf_t *out)
{
    uint64_t seed = 0;
    memcpy(&seed, p, n < 8 ? n : 8);
    game_t *g = game_new(seed, NULL);
    record_t r;
    if (!g || record_init(&r, g, 0) != 0)
        abort();
    for (size_t i = 8; i < n; i++)
        record_key(&r, g, p[i] >= 0xf0 ? KEY_SPECIAL + (p[i] & 0x0f) : p[i]);
    if (record_finish(&r, g) != 0)
        abort();
    if (keys_only) {
        if (r.keys.len && buf_append(out, r.keys.data, r.keys.len) != 0)
            abort();
    } else if (record_encode(&r, out) != 0) {
        abort();
    }
    if (out->len)
        out->data[(size_t)(seed >> 16) % out->len] ^= (char)(seed >> 8);
    record_free(&r);
    game_free(g);
}

static void finished_game(uint8_t types, in_t *in, const void *rec, size_t len)
{
    exec("DELETE FROM games");
    sqlite3_stmt *s;
    /* the columns sdb reads; ranked chosen so that the hall of fame reads it */
    if (sqlite3_prepare_v2(raw, "INSERT INTO games (id, player, account_id,"
                           " ruleset, seed, score, depth, turns, kills, cause,"
                           " started, ended, ending, record, ranked) VALUES"
                           " (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
                           " ?12, ?13, 1)", -1, &s, NULL) != SQLITE_OK)
        abort();
    for (int i = 1; i <= 12; i++)
        bind_field(s, i, (types >> (2 * (i % 4))) & 3, in);
    static const uint8_t none[1];
    sqlite3_bind_blob(s, 13, rec ? rec : none, (int)len, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s); /* NOT NULL may refuse a NULL: then no row */
    sqlite3_finalize(s);
    (void)rc;

    store_game_t g;
    void *bytes;
    size_t n;
    int status = sdb_get_record(db, 1, &g, &bytes, &n);
    if (strnlen(g.name, sizeof g.name) == sizeof g.name ||
        strnlen(g.cause, sizeof g.cause) == sizeof g.cause)
        abort();
    if ((status == STORE_OK) != (bytes != NULL))
        abort();
    if (bytes) {
        record_t r;
        if (record_decode(bytes, n, &r) == RECORD_OK) {
            record_replay_t out;
            game_t *played = NULL;
            int rr = record_replay(bytes, n, &out, &played);
            if ((rr == RECORD_OK || rr == RECORD_EDRIFT) != (played != NULL))
                abort();
            if (rr == RECORD_OK && game_hash(played) != r.final_hash)
                abort();
            game_free(played);
        }
        record_free(&r);
        free(bytes);
    }
    store_listed_t listed[2];
    if (sdb_list_games(db, 0, 2, listed) > 1)
        abort();
    store_scores_t sc;
    if (sdb_scores(db, STORE_TOP_MAX, "Fuzz", &sc) == 0 && sc.n > 1)
        abort();
}

static void game_in_progress(uint8_t types, in_t *in, const void *keys,
                             size_t len)
{
    exec("DELETE FROM progress; DELETE FROM progress_keys");
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(raw, "INSERT INTO progress (account_id,"
                           " game_version, seed, ruleset, started, keys_len)"
                           " VALUES (1, ?1, ?2, ?3, ?4, ?5)", -1, &s,
                           NULL) != SQLITE_OK)
        abort();
    for (int i = 1; i <= 5; i++)
        bind_field(s, i, (types >> (2 * (i % 4))) & 3, in);
    sqlite3_step(s);
    sqlite3_finalize(s);
    /* its snapshot, as crafted as the rest */
    if (sqlite3_prepare_v2(raw, "UPDATE progress SET snap_version = ?1,"
                           " snap_keys = ?2, snap_pos = ?3, snap_game = ?4,"
                           " snap_checks = ?5", -1, &s, NULL) != SQLITE_OK)
        abort();
    for (int i = 1; i <= 5; i++)
        bind_field(s, i, (types >> (2 * ((i + 1) % 4))) & 3, in);
    sqlite3_step(s);
    sqlite3_finalize(s);
    /* the keys in up to three rows, at positions the input says (a gap or
     * an overlap is what a damaged file has) */
    if (sqlite3_prepare_v2(raw, "INSERT INTO progress_keys VALUES (1, ?1, ?2)",
                           -1, &s, NULL) != SQLITE_OK)
        abort();
    static const uint8_t none[1];
    if (!keys)
        keys = none; /* an empty buffer */
    const uint8_t *cut;
    size_t at = 0, pos = 0;
    for (int i = 0; i < 3 && at <= len; i++) {
        size_t n = i == 2 ? len - at : take(in, &cut, 1) ? *cut % (len - at + 1) : 0;
        const uint8_t *shift;
        if (take(in, &shift, 1) && (*shift & 0x80))
            pos += *shift & 0x0f; /* a gap */
        sqlite3_bind_int64(s, 1, (sqlite3_int64)pos);
        sqlite3_bind_blob(s, 2, (const uint8_t *)keys + at, (int)n,
                          SQLITE_TRANSIENT);
        sqlite3_step(s);
        sqlite3_reset(s);
        at += n;
        pos += n;
        if (at == len)
            break;
    }
    sqlite3_finalize(s);

    /* the snapshot read back: a copy of what is there, or nothing */
    sdb_snapshot_t snap;
    int found = sdb_progress_load_snapshot(db, 1, &snap);
    if (found < -1 || found > 1 || (found == 1) != (snap.game != NULL) ||
        (snap.game && !snap.game_len) || (!snap.checks && snap.checks_len) ||
        (found != 1 && (snap.game_len || snap.checks_len)))
        abort();
    if (snap.game) { /* the copies are as long as they say (ASan reads) */
        volatile uint8_t last = ((const uint8_t *)snap.game)[snap.game_len - 1];
        if (snap.checks)
            last ^= ((const uint8_t *)snap.checks)[snap.checks_len - 1];
        (void)last;
    }
    sdb_snapshot_free(&snap);

    store_progress_t p;
    void *bytes;
    int status = sdb_progress_load(db, 1, &p, &bytes);
    if (status != p.status || (bytes && p.len == 0) || (!bytes && p.len))
        abort();
    if (status == STORE_OK && p.game_version == GAME_VERSION) {
        game_t *g = NULL;
        record_t rec;
        if (record_resume(p.seed, &p.opt, bytes, p.len, &g, &rec) == 0) {
            record_free(&rec);
            game_free(g);
        }
    }
    free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    open_once();
    uint8_t mode = data[0], types = data[1];
    in_t in = { data + 2, size - 2 };
    /* the fields first, then the rest is the record: count them off */
    in_t fields = in;
    int nfields = mode & 1 ? 5 + 5 + 6 : 12;
    for (int i = 0; i < nfields; i++) {
        const uint8_t *len_p, *p;
        size_t n = take(&fields, &len_p, 1) ? *len_p : 0;
        take(&fields, &p, n);
    }
    const uint8_t *rest = fields.p;
    size_t rest_len = fields.n;
    buf_t made;
    buf_init(&made, RECORD_ENCODED_MAX);
    if (mode & 2) {
        well_formed(rest, rest_len, mode & 1, &made);
        rest = (const uint8_t *)made.data;
        rest_len = made.len;
    }
    if (mode & 1)
        game_in_progress(types, &in, rest, rest_len);
    else
        finished_game(types, &in, rest, rest_len);
    buf_free(&made);
    return 0;
}
