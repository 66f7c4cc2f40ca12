/* bench_store.c - the store under a burst: how long the loop stalls while
 * many games end at once, and how long until they are all on disk.
 *
 * Before the loop starts it plays two sets of GAMES games of KEYS keys
 * each through recorders (untimed). Then a libuv loop runs a 1 ms repeating
 * timer. After a calm second it ends every game of the first set in one
 * callback the way a session can: record_finish, record_encode and
 * store_add_game on the loop. When those are durable (store_flush) and half
 * a second has passed, it ends the second set in one callback with
 * store_end_game, which hands game and record to the store's thread to hash
 * and encode. The timer ticks throughout: the largest gap between two ticks
 * beyond 1 ms is the loop's worst stall in each phase. Nothing here asserts
 * a time.
 *
 *   bench_store [GAMES] [KEYS] [DIR]   (defaults 1000, 3000, a fresh
 *                                       directory under build/, removed
 *                                       afterwards)
 *
 * DIR should be on the disk the server's data directory would be on: the
 * commit's fsync is much of the time to durable.
 *
 * Then the disk: the database's size after SIZE_GAMES guests' games of
 * SIZE_KEYS_SHORT keys each (the fewest a guest's stored game has, at the
 * default guest_min_turns) and after as many of SIZE_KEYS_LONG keys, each
 * in a fresh file; from the two, the bytes a stored game costs besides its
 * keys, and a key's bytes: the figures of docs/hosting.md's worst case.
 *
 * Last, the two stores side by side in the same run (store_sides): the
 * SQLite file, and PostgreSQL when BENCH_PG_URL names a server on which
 * the benchmark may create and drop databases (run-bench.sh starts a
 * throwaway cluster with pg_virtualenv for it). For each: SIDE_GAMES games
 * ending at once (store_end_game in one callback), and the once-a-second
 * progress of SIDE_PLAYERS accounts' games (an append of a second's keys
 * for each, in one callback, SIDE_ROUNDS times, each with the claim its
 * account's load took, as a session's): the loop's worst stall
 * (a 1 ms timer, as above) and the database time (handed over until a
 * store_flush behind them answers: committed). */
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "game.h"
#include "record.h"
#include "rng.h"
#include "store.h"

#define CALM_MS 1000
#define AFTER_MS 500
#define SIZE_GAMES 10000
#define SIZE_KEYS_SHORT 50
#define SIZE_KEYS_LONG 500
#define SIDE_GAMES 1000
#define SIDE_KEYS 3000
#define SIDE_PLAYERS 10000
#define SIDE_ROUNDS 5
#define SIDE_KEY_BYTES 4    /* a second of keys: 4 at 4 keys a second */

typedef struct burst {
    const char *how;
    game_t **games;
    record_t *recs;
    uint64_t at, call_ns, durable_ns, worst;
    size_t record_bytes;
} burst_t;

typedef struct bench {
    uv_timer_t tick;
    store_t *st;
    int ngames;
    burst_t burst[2];
    int cur;             /* the burst under way, -1 before the first */
    int durable;         /* the current burst is committed */
    uint64_t last_tick, start, next_at, worst_calm;
} bench_t;

static void fill_row(store_game_t *g, const game_t *game, int i)
{
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "bench-%d", i);
    g->ruleset = game->opt.ruleset;
    g->seed = game->seed;
    g->score = game_score(game);
    g->depth = game->depth;
    g->turns = (int)game->turn;
    g->kills = game->kills;
    game_death_cause(game, g->cause, sizeof g->cause);
    g->started = 1700000000;
    g->ended = 1700000000 + i;
}

static void on_durable(void *ctx, int status)
{
    bench_t *b = ctx;
    burst_t *u = &b->burst[b->cur];
    u->durable_ns = uv_hrtime() - u->at;
    if (status != STORE_OK)
        fprintf(stderr, "bench_store: flush: %s\n", store_status_name(status));
    b->durable = 1;
    b->next_at = uv_hrtime() + (uint64_t)AFTER_MS * 1000000u;
}

/* Ends every game of burst k in this one callback. */
static void end_all(bench_t *b, int k)
{
    burst_t *u = &b->burst[k];
    buf_t out;
    buf_init(&out, RECORD_ENCODED_MAX);
    b->cur = k;
    b->durable = 0;
    u->at = uv_hrtime();
    for (int i = 0; i < b->ngames; i++) {
        store_game_t g;
        fill_row(&g, u->games[i], i);
        int rc;
        if (k == 0) {
            buf_reset(&out);
            rc = record_finish(&u->recs[i], u->games[i]) != 0 ||
                 record_encode(&u->recs[i], &out) != 0 ||
                 store_add_game(b->st, &g, out.data, out.len) != 0;
            u->record_bytes += out.len;
        } else {
            u->record_bytes += u->recs[i].keys.len + u->recs[i].checks.len;
            rc = store_end_game(b->st, &g, u->games[i], &u->recs[i]) != 0;
            u->games[i] = NULL; /* the store's now */
        }
        if (rc) {
            fprintf(stderr, "bench_store: game %d not queued\n", i);
            exit(1);
        }
    }
    if (store_flush(b->st, on_durable, b) != 0)
        exit(1);
    u->call_ns = uv_hrtime() - u->at;
    buf_free(&out);
}

static void on_tick(uv_timer_t *t)
{
    bench_t *b = t->data;
    uint64_t now = uv_hrtime();
    uint64_t gap = now - b->last_tick;
    uint64_t late = gap > 1000000u ? gap - 1000000u : 0;
    b->last_tick = now;
    uint64_t *worst = b->cur < 0 ? &b->worst_calm : &b->burst[b->cur].worst;
    if (late > *worst)
        *worst = late;
    if (b->cur < 0 && now >= b->next_at) {
        end_all(b, 0);
    } else if (b->cur >= 0 && b->durable && now >= b->next_at) {
        if (b->cur == 0) {
            end_all(b, 1);
        } else {
            uv_timer_stop(&b->tick);
            uv_close((uv_handle_t *)&b->tick, NULL);
        }
    }
}

static int make_dir(char *dir, size_t len, const char *given)
{
    if (given) {
        snprintf(dir, len, "%s", given);
        return mkdir(dir, 0750) == 0 || access(dir, W_OK) == 0 ? 0 : -1;
    }
    mkdir("build", 0750);
    snprintf(dir, len, "build/bench-store-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static void play(burst_t *u, int ngames, int keys, uint64_t first_seed)
{
    static const char moves[] = "hjklyubn.";
    rng_t kr;
    rng_seed(&kr, first_seed);
    u->games = calloc((size_t)ngames, sizeof *u->games);
    u->recs = calloc((size_t)ngames, sizeof *u->recs);
    if (!u->games || !u->recs)
        exit(1);
    for (int i = 0; i < ngames; i++) {
        u->games[i] = game_new(first_seed + (uint64_t)i, NULL);
        if (!u->games[i] || record_init(&u->recs[i], u->games[i], 0) != 0)
            exit(1);
        for (int k = 0; k < keys; k++)
            record_key(&u->recs[i], u->games[i], moves[rng_range(&kr, 0, 8)]);
    }
}

static void print_burst(const burst_t *u, int ngames)
{
    printf("\n%s\n", u->how);
    printf("  records                  %.1f KiB on average\n",
           (double)u->record_bytes / ngames / 1024);
    printf("  the ending callback      %.2f ms\n", (double)u->call_ns / 1e6);
    printf("  worst loop stall         %.2f ms (until %d ms after durable)\n",
           (double)u->worst / 1e6, AFTER_MS);
    printf("  time until all durable   %.1f ms (committed and fsynced)\n",
           (double)u->durable_ns / 1e6);
}

static void on_flushed(void *ctx, int status)
{
    *(int *)ctx = status;
}

/* The size in bytes of a fresh database in dir/sub after ngames games of
 * `keys` random moves each, stored as the server stores a guest's game;
 * -1 on failure. The file is removed afterwards. */
static long long size_after(const char *dir, const char *sub, int ngames,
                            int keys, long long *total_keys)
{
    static const char moves[] = "hjklyubn.";
    char path[300], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    if (mkdir(path, 0750) != 0)
        return -1;
    uv_loop_t loop;
    uv_loop_init(&loop);
    store_t *st = store_open(&loop, path, NULL, err, sizeof err);
    if (!st) {
        fprintf(stderr, "bench_store: %s\n", err);
        return -1;
    }
    rng_t kr;
    rng_seed(&kr, 7);
    *total_keys = 0;
    buf_t out;
    buf_init(&out, RECORD_ENCODED_MAX);
    for (int i = 0; i < ngames; i++) {
        game_t *g = game_new(5000000 + (uint64_t)i, NULL);
        record_t rec;
        if (!g || record_init(&rec, g, 0) != 0)
            exit(1);
        for (int k = 0; k < keys && !game_over(g); k++) {
            record_key(&rec, g, moves[rng_range(&kr, 0, 8)]);
            (*total_keys)++;
        }
        store_game_t row;
        fill_row(&row, g, i);
        snprintf(row.name, sizeof row.name, "guest%d", i + 1);
        buf_reset(&out);
        if (record_finish(&rec, g) != 0 || record_encode(&rec, &out) != 0 ||
            store_add_game(st, &row, out.data, out.len) != 0)
            exit(1);
        record_free(&rec);
        game_free(g);
        if (i % 1000 == 999) { /* a batch at a time: bounded memory */
            int status = -1;
            if (store_flush(st, on_flushed, &status) != 0)
                exit(1);
            uv_run(&loop, UV_RUN_DEFAULT);
        }
    }
    buf_free(&out);
    store_close(st); /* checkpoints: the WAL is in the file */
    uv_loop_close(&loop);
    struct stat sb;
    long long size = -1;
    const char *suffix[] = { "", "-wal", "-shm" };
    for (int i = 0; i < 3; i++) {
        char f[360];
        snprintf(f, sizeof f, "%s/%s%s", path, STORE_FILE, suffix[i]);
        if (i == 0 && stat(f, &sb) == 0)
            size = (long long)sb.st_size;
        unlink(f);
    }
    rmdir(path);
    return size;
}

static void print_sizes(const char *dir)
{
    long long k1, k2;
    long long s1 = size_after(dir, "short", SIZE_GAMES, SIZE_KEYS_SHORT, &k1);
    long long s2 = size_after(dir, "long", SIZE_GAMES, SIZE_KEYS_LONG, &k2);
    if (s1 < 0 || s2 < 0 || k2 <= k1) {
        fprintf(stderr, "bench_store: the size runs failed\n");
        return;
    }
    /* (games that die early have fewer keys: the real counts are used) */
    double per_key = (double)(s2 - s1) / (double)(k2 - k1);
    double per_game = ((double)s1 - per_key * (double)k1) / SIZE_GAMES;
    printf("\ndatabase size after %d games (guests', random moves)\n",
           SIZE_GAMES);
    printf("  of up to %3d keys         %.2f MiB (%.0f bytes a game, %.1f keys)\n",
           SIZE_KEYS_SHORT, (double)s1 / (1 << 20), (double)s1 / SIZE_GAMES,
           (double)k1 / SIZE_GAMES);
    printf("  of up to %3d keys         %.2f MiB (%.0f bytes a game, %.1f keys)\n",
           SIZE_KEYS_LONG, (double)s2 / (1 << 20), (double)s2 / SIZE_GAMES,
           (double)k2 / SIZE_GAMES);
    printf("  so a stored game costs    %.0f bytes + %.2f bytes a key\n",
           per_game, per_key);
}

/* --- the two stores side by side ------------------------------------------------ */

typedef struct side {
    const char *name;
    char where[512];    /* the SQLite file, or the PostgreSQL URL */
    char dir[300];      /* the data directory (SQLite's file is in it) */
    char admin[512];    /* PostgreSQL: the URL to create and drop with */
    char db[64];
} side_t;

typedef struct side_run {
    store_t *st;
    uv_timer_t tick, act;
    uint64_t last, worst;   /* the 1 ms timer's worst lateness */
    int round, rounds;
    uint64_t at, call_max, db_sum, db_max;
    burst_t *burst;         /* the games to end (the first scenario) */
    int ngames;
    int players;            /* the accounts appending (the second) */
    const int64_t *claims;  /* their claims, as their logins took them */
    int busy;               /* a round handed over, not yet durable */
} side_run_t;

static void side_tick(uv_timer_t *t)
{
    side_run_t *r = t->data;
    uint64_t now = uv_hrtime(), gap = now - r->last;
    uint64_t late = gap > 1000000u ? gap - 1000000u : 0;
    r->last = now;
    if (late > r->worst)
        r->worst = late;
}

static void side_done(void *ctx, int status)
{
    side_run_t *r = ctx;
    uint64_t db = uv_hrtime() - r->at;
    if (status != STORE_OK)
        fprintf(stderr, "bench_store: flush: %s\n", store_status_name(status));
    r->busy = 0;
    r->db_sum += db;
    if (db > r->db_max)
        r->db_max = db;
    if (++r->round == r->rounds) {
        uv_close((uv_handle_t *)&r->tick, NULL);
        uv_close((uv_handle_t *)&r->act, NULL);
    }
}

/* One round's requests, in one callback on the loop. */
static void side_act(uv_timer_t *t)
{
    side_run_t *r = t->data;
    if (r->round >= r->rounds || r->busy) /* the last round not yet durable */
        return;
    r->busy = 1;
    r->at = uv_hrtime();
    if (r->burst) {
        for (int i = 0; i < r->ngames; i++) {
            store_game_t g;
            fill_row(&g, r->burst->games[i], i);
            if (store_end_game(r->st, &g, r->burst->games[i],
                               &r->burst->recs[i]) != 0)
                exit(1);
            r->burst->games[i] = NULL; /* the store's now */
        }
    } else {
        static const unsigned char keys[SIDE_KEY_BYTES] = { 'h', 'j', 'k', 'l' };
        for (int i = 0; i < r->players; i++)
            if (store_progress_append(r->st, 1 + i, r->claims[i], keys,
                                      sizeof keys) != 0)
                exit(1);
    }
    uint64_t call = uv_hrtime() - r->at;
    if (call > r->call_max)
        r->call_max = call;
    if (store_flush(r->st, side_done, r) != 0)
        exit(1);
}

/* Runs one scenario on an open store: rounds a second apart, after a
 * calm second. */
static void side_time(uv_loop_t *loop, side_run_t *r)
{
    uv_timer_init(loop, &r->tick);
    uv_timer_init(loop, &r->act);
    r->tick.data = r->act.data = r;
    r->last = uv_hrtime();
    uv_timer_start(&r->tick, side_tick, 1, 1);
    uv_timer_start(&r->act, side_act, 1000, 1000);
    uv_run(loop, UV_RUN_DEFAULT);
}

static long long pg_exec(const char *url, const char *sql)
{
    PGconn *c = PQconnectdb(url);
    long long v = -1;
    if (PQstatus(c) == CONNECTION_OK) {
        PGresult *res = PQexec(c, sql);
        ExecStatusType st = PQresultStatus(res);
        if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
            v = 0;
        else
            fprintf(stderr, "bench_store: %s: %s", sql,
                    PQresultErrorMessage(res));
        PQclear(res);
    } else {
        fprintf(stderr, "bench_store: %s", PQerrorMessage(c));
    }
    PQfinish(c);
    return v;
}

/* A fresh database for one scenario. */
static int side_fresh(side_t *s, const char *base_dir, int n)
{
    snprintf(s->dir, sizeof s->dir, "%s/side-%s-%d", base_dir, s->name, n);
    if (mkdir(s->dir, 0750) != 0)
        return -1;
    if (!s->admin[0]) {
        snprintf(s->where, sizeof s->where, "%s/%s", s->dir, STORE_FILE);
        return 0;
    }
    snprintf(s->db, sizeof s->db, "rogued_bench_%ld_%d", (long)getpid(), n);
    char sql[128];
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", s->db);
    if (pg_exec(s->admin, sql) != 0)
        return -1;
    /* the admin URL with its database replaced */
    const char *host = strstr(s->admin, "://");
    host = host ? host + 3 : s->admin;
    const char *cut = strpbrk(host, "/?");
    int len = cut ? (int)(cut - s->admin) : (int)strlen(s->admin);
    snprintf(s->where, sizeof s->where, "%.*s/%s", len, s->admin, s->db);
    return 0;
}

static void side_drop(side_t *s)
{
    if (s->admin[0]) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", s->db);
        pg_exec(s->admin, sql);
    } else {
        const char *suffix[] = { "", "-wal", "-shm" };
        for (int i = 0; i < 3; i++) {
            char f[600];
            snprintf(f, sizeof f, "%s%s", s->where, suffix[i]);
            unlink(f);
        }
    }
    rmdir(s->dir);
}

/* SIDE_PLAYERS accounts (ids 1..), made with SQL: hashing their passwords
 * is not what is measured. */
static int side_accounts(side_t *s)
{
    char err[512];
    if (store_create_at_version(s->where, STORE_SCHEMA_VERSION, err,
                                sizeof err) != 0) {
        fprintf(stderr, "bench_store: %s\n", err);
        return -1;
    }
    char sql[300];
    if (s->admin[0]) {
        snprintf(sql, sizeof sql, "INSERT INTO accounts (id, name, pwhash,"
                 " created) SELECT i, 'bench' || i, 'x', 0 FROM"
                 " generate_series(1, %d) i", SIDE_PLAYERS);
        return pg_exec(s->where, sql) == 0 ? 0 : -1;
    }
    sqlite3 *db;
    if (sqlite3_open(s->where, &db) != SQLITE_OK)
        return -1;
    snprintf(sql, sizeof sql, "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL"
             " SELECT i + 1 FROM c WHERE i < %d) INSERT INTO accounts (id,"
             " name, pwhash, created) SELECT i, 'bench' || i, 'x', 0 FROM c",
             SIDE_PLAYERS);
    int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : -1;
}

static store_t *side_open(uv_loop_t *loop, side_t *s)
{
    char err[512];
    store_opts_t o = { 0 };
    o.url = s->admin[0] ? s->where : NULL;
    store_t *st = store_open(loop, s->dir, &o, err, sizeof err);
    if (!st)
        fprintf(stderr, "bench_store: %s\n", err);
    return st;
}

static void on_claim(void *ctx, const store_progress_t *p)
{
    int64_t *claims = ctx;
    if (p->account_id >= 1 && p->account_id <= SIDE_PLAYERS)
        claims[p->account_id - 1] = p->claim;
}

/* Each account's claim, taken by a load as a login takes it (store.h,
 * "Claims"), so that the appends are checked as a session's are; a few
 * hundred loads at a time, within the store's queue. */
static int side_claims(uv_loop_t *loop, store_t *st, int64_t *claims)
{
    for (int i = 0; i < SIDE_PLAYERS;) {
        for (int k = 0; k < 500 && i < SIDE_PLAYERS; k++, i++)
            if (store_progress_load(st, 1 + i, on_claim, claims) != 0)
                return -1;
        uv_run(loop, UV_RUN_DEFAULT);
    }
    for (int i = 0; i < SIDE_PLAYERS; i++)
        if (claims[i] <= 0)
            return -1;
    return 0;
}

static void side_row(const char *what, const side_t *s, const side_run_t *r)
{
    printf("  %-8s %-34s %8.2f ms %9.1f ms %9.1f ms %8.2f ms\n", s->name, what,
           (double)r->worst / 1e6, (double)r->db_sum / r->rounds / 1e6,
           (double)r->db_max / 1e6, (double)r->call_max / 1e6);
}

static void store_sides(const char *base_dir)
{
    side_t sides[2];
    memset(sides, 0, sizeof sides);
    sides[0].name = "SQLite";
    sides[1].name = "Postgres";
    const char *pg = getenv("BENCH_PG_URL");
    int nsides = pg && *pg ? 2 : 1;
    if (nsides == 2)
        snprintf(sides[1].admin, sizeof sides[1].admin, "%s", pg);
    printf("\nthe stores side by side (worst stall of the loop's 1 ms timer;"
           " database time:\nhanded over until committed, mean and worst of"
           " the rounds; the loop's callback)\n");
    printf("  %-8s %-34s %11s %12s %12s %11s\n", "store", "", "worst stall",
           "db mean", "db worst", "callback");
    burst_t games;
    for (int k = 0; k < nsides; k++) {
        side_t *s = &sides[k];
        uv_loop_t loop;
        side_run_t r;
        /* 1. SIDE_GAMES games end at once */
        memset(&games, 0, sizeof games);
        play(&games, SIDE_GAMES, SIDE_KEYS, 2000001);
        if (side_fresh(s, base_dir, 2 * k) != 0)
            exit(1);
        uv_loop_init(&loop);
        memset(&r, 0, sizeof r);
        r.st = side_open(&loop, s);
        if (!r.st)
            exit(1);
        r.burst = &games;
        r.ngames = SIDE_GAMES;
        r.rounds = 1;
        side_time(&loop, &r);
        store_close(r.st);
        uv_loop_close(&loop);
        side_drop(s);
        char what[64];
        snprintf(what, sizeof what, "%d games ending at once", SIDE_GAMES);
        side_row(what, s, &r);
        for (int i = 0; i < SIDE_GAMES; i++)
            record_free(&games.recs[i]);
        free(games.recs);
        free(games.games);

        /* 2. the once-a-second progress of SIDE_PLAYERS games */
        if (side_fresh(s, base_dir, 2 * k + 1) != 0 || side_accounts(s) != 0)
            exit(1);
        uv_loop_init(&loop);
        memset(&r, 0, sizeof r);
        r.st = side_open(&loop, s);
        if (!r.st)
            exit(1);
        static int64_t claims[SIDE_PLAYERS];
        if (side_claims(&loop, r.st, claims) != 0)
            exit(1);
        for (int i = 0; i < SIDE_PLAYERS; i++)
            if (store_progress_begin(r.st, 1 + i, claims[i], (uint64_t)i,
                                     NULL, 0) != 0)
                exit(1);
        int status = -1;
        if (store_flush(r.st, on_flushed, &status) != 0)
            exit(1);
        uv_run(&loop, UV_RUN_DEFAULT);
        r.players = SIDE_PLAYERS;
        r.claims = claims;
        r.rounds = SIDE_ROUNDS;
        side_time(&loop, &r);
        store_stats_t st;
        store_stats(r.st, &st);
        store_close(r.st);
        uv_loop_close(&loop);
        side_drop(s);
        snprintf(what, sizeof what, "progress of %d games, a second",
                 SIDE_PLAYERS);
        side_row(what, s, &r);
        if (st.progress_dropped)
            printf("  (%llu progress requests dropped)\n",
                   (unsigned long long)st.progress_dropped);
    }
    if (nsides == 1)
        printf("  (PostgreSQL: not measured; BENCH_PG_URL is not set)\n");
}

int main(int argc, char **argv)
{
    bench_t b;
    memset(&b, 0, sizeof b);
    b.ngames = argc > 1 ? atoi(argv[1]) : 1000;
    int keys = argc > 2 ? atoi(argv[2]) : 3000;
    char dir[256], err[512], path[300];
    if (b.ngames < 1 || keys < 0 ||
        make_dir(dir, sizeof dir, argc > 3 ? argv[3] : NULL) != 0) {
        fprintf(stderr, "usage: bench_store [GAMES] [KEYS] [DIR]\n");
        return 2;
    }
    b.burst[0].how = "1. record_finish + record_encode + store_add_game on the loop";
    b.burst[1].how = "2. store_end_game (hash and encoding on the store's thread)";
    play(&b.burst[0], b.ngames, keys, 1);
    play(&b.burst[1], b.ngames, keys, 1000001);

    uv_loop_t loop;
    uv_loop_init(&loop);
    b.st = store_open(&loop, dir, NULL, err, sizeof err);
    if (!b.st) {
        fprintf(stderr, "bench_store: %s\n", err);
        return 1;
    }
    uv_timer_init(&loop, &b.tick);
    b.tick.data = &b;
    b.cur = -1;
    b.start = b.last_tick = uv_hrtime();
    b.next_at = b.start + (uint64_t)CALM_MS * 1000000u;
    uv_timer_start(&b.tick, on_tick, 1, 1);
    uv_run(&loop, UV_RUN_DEFAULT);
    store_stats_t s;
    store_stats(b.st, &s);
    store_close(b.st);
    int rc = uv_loop_close(&loop);

    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", dir, STORE_FILE);
    double mib = stat(path, &sb) == 0 ? (double)sb.st_size / (1 << 20) : -1;
    printf("%d games ending at once (%d keys each), twice; a 1 ms timer on the loop\n",
           b.ngames, keys);
    printf("worst loop stall before    %.2f ms (%d ms calm)\n",
           (double)b.worst_calm / 1e6, CALM_MS);
    print_burst(&b.burst[0], b.ngames);
    print_burst(&b.burst[1], b.ngames);
    printf("\ntransactions %llu (largest %llu requests), %llu games written, "
           "%llu lost; database %.1f MiB (+ WAL)\n",
           (unsigned long long)s.batches, (unsigned long long)s.largest_batch,
           (unsigned long long)s.games_written, (unsigned long long)s.games_lost,
           mib);
    print_sizes(dir);
    store_sides(dir);
    if (argc <= 3) { /* a directory of our own: leave nothing behind */
        const char *suffix[] = { "", "-wal", "-shm" };
        for (int i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s/%s%s", dir, STORE_FILE, suffix[i]);
            unlink(path);
        }
        rmdir(dir);
    }
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < b.ngames; i++) {
            record_free(&b.burst[k].recs[i]);
            game_free(b.burst[k].games[i]);
        }
        free(b.burst[k].recs);
        free(b.burst[k].games);
    }
    return rc == 0 ? 0 : 1;
}
