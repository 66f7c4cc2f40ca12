/* bench_watch.c - how long a watcher who joins mid-game waits: the time to
 * rebuild a game from its record (game_new, then every key so far through
 * game_key), which is what session_watch.c does when a watcher picks a
 * game, and what resuming an account's game costs (record_resume, the same
 * replay through a new recorder).
 *
 * The keys are the bench bot's (tests/bench/bot.h), played untimed first:
 * one long game per row, cut at the row's number of turns. Median of 7
 * runs. A benchmark, not a test: nothing is asserted.
 *
 * A second table is about long games: a watch-join, a takeover or a resume
 * of a game of up to a million keys. The loop thread pays only for the
 * summary copied into a message (msg_game_new); the rebuild (the record
 * player, with every check) runs in libuv's pool (rebuild.c), so the
 * loop's stall is the first column and the watcher's wait the second.
 *
 * A third table is a resume by login of a game of a million keys, from a
 * real store (a SQLite file under build/, removed afterwards) holding it
 * as a session leaves it: the keys appended 100 at a time (a second of
 * the bench bot's play each) and, in one row, the latest snapshot (every
 * 65,536 keys). A libuv loop ticks a 1 ms timer while it asks the store
 * for the game, copies the answer into a summary as session_lobby.c does
 * (the loop's part) and rebuilds it with a recorder in libuv's pool as
 * rebuild.c does (from the snapshot, or from the start). The largest gap
 * between two ticks beyond 1 ms is the loop's worst stall; the time from
 * the load asked to the rebuilt game back on the loop is what the player
 * waits after the password check (the game is then on screen at the next
 * frame).
 *
 *   bench_watch        rows at 100, 1,000 and 3,000 turns; long games of
 *                      10,000, 100,000 and 1,000,000 keys; the resume of
 *                      1,000,000 keys */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "bot.h"
#include "game.h"
#include "msg.h"
#include "record.h"
#include "store.h"

#define RUNS 7

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The keys of one bot game that lasts `turns` turns (the first seed from 1
 * whose game does); the caller frees *keys_out. */
static int long_game(int turns, uint64_t *seed_out, int **keys_out, int *n_out)
{
    for (uint64_t seed = 1; seed < 2000; seed++) {
        game_t *g = game_new(seed, NULL);
        int *keys = malloc(sizeof(int) * (size_t)turns * 3);
        int n = 0, resting = 0, kind = 0;
        while (g && keys && !game_dead(g) && (int)g->turn < turns &&
               n < turns * 3) {
            int key = bot_key(g, &resting, &kind);
            if (!key)
                break;
            keys[n++] = key;
            game_key(g, key);
        }
        int ok = g && (int)g->turn >= turns;
        game_free(g);
        if (ok) {
            *seed_out = seed;
            *keys_out = keys;
            *n_out = n;
            return 0;
        }
        free(keys);
    }
    return -1;
}

/* --- a resume by login, from the store ------------------------------------- */

#define RESUME_KEYS 1000000
#define SNAP_EVERY 65536   /* as session_play.c */
#define APPEND_KEYS 100    /* keys per append: a second of the bot's play */

typedef struct resume {
    uv_loop_t loop;
    uv_timer_t tick;
    uv_work_t work;
    store_t *st;
    int64_t account;
    uint64_t last_tick, worst, calm_worst, asked, read_ns, done_ns;
    int phase;             /* 0 calm, 1 resuming, 2 done */
    uint64_t want;         /* the game's hash */
    msg_game_t *src;       /* the loop's copy of the answer */
    game_t *game;          /* the pool's rebuild */
    record_t rec;
    uint32_t replayed;
    int err;
} resume_t;

/* In the pool, as rebuild.c: from the snapshot with a recorder that goes
 * on, or every key from the start. */
static void resume_work(uv_work_t *w)
{
    resume_t *r = w->data;
    const msg_game_t *g = r->src;
    record_player_t pl;
    if (g->snap)
        r->err = record_player_resume_at(&pl, game_clone(g->snap),
                                         g->snap_keys, g->keys.data,
                                         g->keys.len, g->snap_pos,
                                         g->checks.data, g->checks.len,
                                         &r->rec);
    else
        r->err = record_player_start_raw(&pl, g->seed, &g->opt, g->keys.data,
                                         g->keys.len, NULL, 0, &r->rec);
    if (r->err == RECORD_OK)
        r->err = record_player_run(&pl, 0);
    r->replayed = pl.fed - g->snap_keys;
    if (r->err == RECORD_OK)
        r->game = record_player_take(&pl);
    record_player_free(&pl);
}

static void resume_after(uv_work_t *w, int status)
{
    resume_t *r = w->data;
    r->done_ns = uv_hrtime() - r->asked;
    if (status != 0 || r->err != RECORD_OK || !r->game ||
        game_hash(r->game) != r->want)
        fprintf(stderr, "bench_watch: the resumed game differs!\n");
    r->phase = 2;
}

/* The store's answer, on the loop: what session_lobby.c's on_progress
 * does with it (the summary, and the snapshot and its checks if any). */
static void resume_loaded(void *ctx, const store_progress_t *p)
{
    resume_t *r = ctx;
    r->read_ns = uv_hrtime() - r->asked;
    if (p->status != STORE_OK) {
        fprintf(stderr, "bench_watch: load: %s\n", store_status_name(p->status));
        exit(1);
    }
    buf_t keys = { (char *)p->keys, p->len, p->len, p->len };
    buf_t checks = { (char *)p->snap_checks, p->snap_checks_len,
                     p->snap_checks_len, p->snap_checks_len };
    buf_t none = { NULL, 0, 0, 0 };
    r->src = msg_game_new(p->seed, &p->opt, p->started, &keys,
                          p->snap ? &checks : &none);
    if (r->src && p->snap && (r->src->snap = game_clone(p->snap))) {
        r->src->snap_keys = p->snap_keys;
        r->src->snap_pos = p->snap_pos;
    }
    r->work.data = r;
    if (!r->src || uv_queue_work(&r->loop, &r->work, resume_work,
                                 resume_after) != 0)
        exit(1);
}

static void resume_tick(uv_timer_t *t)
{
    resume_t *r = t->data;
    uint64_t now = uv_hrtime();
    uint64_t gap = now - r->last_tick;
    uint64_t late = gap > 1000000u ? gap - 1000000u : 0;
    r->last_tick = now;
    if (r->phase == 0) {
        if (late > r->calm_worst)
            r->calm_worst = late;
        if (now - r->asked >= 300000000u) { /* a calm 0.3 s first */
            r->phase = 1;
            r->asked = now;
            if (store_progress_load(r->st, r->account, resume_loaded, r) != 0)
                exit(1);
        }
    } else {
        if (late > r->worst)
            r->worst = late;
        if (r->phase == 2)
            uv_close((uv_handle_t *)&r->tick, NULL);
    }
}

static void on_registered(void *ctx, const store_account_t *a)
{
    *(int64_t *)ctx = a->status == STORE_OK ? a->id : -1;
}

static void on_flushed(void *ctx, int status)
{
    (void)ctx;
    if (status != STORE_OK)
        exit(1);
}

/* Stores the game of rec (and its snapshot, if snap) for a new account as
 * a session would have, then resumes it once, timed. */
static void resume_row(const char *dir, const char *name, const record_t *rec,
                       uint64_t want, const game_t *snap, uint32_t snap_keys,
                       size_t snap_pos, const buf_t *snap_checks)
{
    resume_t r;
    memset(&r, 0, sizeof r);
    if (uv_loop_init(&r.loop) != 0)
        exit(1);
    store_opts_t o;
    memset(&o, 0, sizeof o);
    o.pw_ops = crypto_pwhash_OPSLIMIT_MIN;
    o.pw_mem = crypto_pwhash_MEMLIMIT_MIN;
    char err[512];
    r.st = store_open(&r.loop, dir, &o, err, sizeof err);
    if (!r.st) {
        fprintf(stderr, "bench_watch: %s\n", err);
        exit(1);
    }
    store_register(r.st, name, "a password", on_registered, &r.account);
    uv_run(&r.loop, UV_RUN_DEFAULT);
    if (r.account <= 0 ||
        store_progress_begin(r.st, r.account, 0, rec->seed, &rec->opt, 1) != 0)
        exit(1);
    /* the keys as the sweep hands them over; the snapshot after its keys */
    size_t pos = 0;
    int appends = 0;
    while (pos < rec->keys.len) {
        size_t end = pos, k = 0;
        while (end < rec->keys.len && k < APPEND_KEYS)
            if (!(rec->keys.data[end++] & 0x80))
                k++;
        if (snap && pos < snap_pos && end >= snap_pos) {
            end = snap_pos;
            if (store_progress_append(r.st, r.account, 0, rec->keys.data + pos,
                                      end - pos) != 0 ||
                store_progress_snapshot(r.st, r.account, 0, snap, snap_keys,
                                        snap_pos, snap_checks->data,
                                        snap_checks->len) != 0)
                exit(1);
        } else if (store_progress_append(r.st, r.account, 0,
                                         rec->keys.data + pos,
                                         end - pos) != 0) {
            exit(1);
        }
        pos = end;
        if (++appends % 1000 == 0) {
            store_flush(r.st, on_flushed, NULL);
            uv_run(&r.loop, UV_RUN_DEFAULT);
        }
    }
    store_flush(r.st, on_flushed, NULL);
    uv_run(&r.loop, UV_RUN_DEFAULT);

    r.want = want;
    uv_timer_init(&r.loop, &r.tick);
    r.tick.data = &r;
    r.last_tick = r.asked = uv_hrtime();
    uv_timer_start(&r.tick, resume_tick, 1, 1);
    uv_run(&r.loop, UV_RUN_DEFAULT);
    printf("| %s | %d | %.2f | %.2f | %.1f | %.1f | %u |\n",
           snap ? "the latest snapshot" : "the start (no snapshot)",
           RESUME_KEYS, r.calm_worst / 1e6, r.worst / 1e6, r.read_ns / 1e6,
           r.done_ns / 1e6, (unsigned)r.replayed);
    msg_game_free(r.src);
    game_free(r.game);
    record_free(&r.rec);
    store_close(r.st);
    uv_loop_close(&r.loop);
}

/* The resume table: the same million-key game stored twice, with and
 * without its snapshot. */
static void resume_table(uint64_t seed, const int *bot, int nbot)
{
    game_t *g = game_new(seed, NULL), *snap = NULL;
    record_t rec;
    buf_t checks;
    size_t snap_pos = 0;
    uint32_t snap_keys = 0;
    buf_init(&checks, 0);
    record_init(&rec, g, 0);
    for (int i = 0; i < RESUME_KEYS; i++) {
        record_key(&rec, g, i < nbot ? bot[i] : 'z');
        if (rec.nkeys % SNAP_EVERY == 0) { /* as session_play.c */
            game_free(snap);
            snap = game_clone(g);
            snap_pos = rec.keys.len;
            snap_keys = rec.nkeys;
            checks.len = 0;
            buf_append(&checks, rec.checks.data, rec.checks.len);
        }
    }
    char dir[64];
    mkdir("build", 0750);
    snprintf(dir, sizeof dir, "build/bench-resume-XXXXXX");
    if (!mkdtemp(dir))
        exit(1);
    printf("\nResumed by login: a game of %d keys, stored as a session leaves\n"
           "it (appends of %d keys; the latest snapshot, every %d keys), asked\n"
           "of the store, copied on the loop and rebuilt in libuv's pool. The\n"
           "loop's worst stall is the largest gap between two ticks of a 1 ms\n"
           "timer beyond 1 ms (when calm, then while resuming); the player\n"
           "waits from the load asked to the game rebuilt (then one frame).\n"
           "Target: the stall under 5 ms. One run each.\n\n",
           RESUME_KEYS, APPEND_KEYS, SNAP_EVERY);
    printf("| rebuilt from | keys | loop's worst stall when calm, ms | loop's worst stall while resuming, ms | store read, ms | until the game is rebuilt, ms | keys replayed |\n");
    printf("|---|---|---|---|---|---|---|\n");
    uint64_t want = game_hash(g);
    resume_row(dir, "snapshot", &rec, want, snap, snap_keys, snap_pos, &checks);
    resume_row(dir, "nosnapshot", &rec, want, NULL, 0, 0, &checks);
    char path[128];
    const char *suffix[] = { "", "-wal", "-shm" };
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s%s", dir, STORE_FILE, suffix[i]);
        unlink(path);
    }
    rmdir(dir);
    buf_free(&checks);
    record_free(&rec);
    game_free(snap);
    game_free(g);
}

int main(void)
{
    static const int rows[] = { 100, 1000, 3000 };
    printf("Watching: the catch-up of a watcher who joins mid-game (the game\n"
           "rebuilt from seed and keys), and resuming an account's game\n"
           "(record_resume: the same replay through a new recorder). One bot game\n"
           "per row, median of %d runs.\n\n", RUNS);
    printf("| turns played | keys | rebuild (game_new + keys), ms | record_resume, ms | µs per key |\n");
    printf("|---|---|---|---|---|\n");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uint64_t seed;
        int *keys, n;
        if (long_game(rows[r], &seed, &keys, &n) != 0) {
            printf("| %d | - | no bot game lasts that long | - | - |\n", rows[r]);
            continue;
        }
        /* The recorder's bytes, as the store keeps them. */
        game_t *g = game_new(seed, NULL);
        record_t rec;
        record_init(&rec, g, 0);
        for (int i = 0; i < n; i++)
            record_key(&rec, g, keys[i]);
        uint64_t want = game_hash(g);
        game_free(g);

        double rebuild[RUNS], resume[RUNS];
        for (int k = 0; k < RUNS; k++) {
            double t0 = now_us();
            game_t *w = game_new(seed, NULL);
            for (int i = 0; i < n; i++)
                game_key(w, keys[i]);
            rebuild[k] = now_us() - t0;
            if (game_hash(w) != want)
                fprintf(stderr, "bench_watch: the rebuilt game differs!\n");
            game_free(w);

            game_t *rg = NULL;
            record_t rr;
            t0 = now_us();
            int rc = record_resume(seed, &rec.opt, rec.keys.data, rec.keys.len, &rg, &rr);
            resume[k] = now_us() - t0;
            if (rc != RECORD_OK || game_hash(rg) != want)
                fprintf(stderr, "bench_watch: the resumed game differs!\n");
            game_free(rg);
            record_free(&rr);
        }
        qsort(rebuild, RUNS, sizeof rebuild[0], cmp_double);
        qsort(resume, RUNS, sizeof resume[0], cmp_double);
        printf("| %d | %d | %.2f | %.2f | %.2f |\n", rows[r], n,
               rebuild[RUNS / 2] / 1e3, resume[RUNS / 2] / 1e3,
               rebuild[RUNS / 2] / n);
        record_free(&rec);
        free(keys);
    }

    /* Long games: a 1,000-turn bot game, then unknown keys (no turn, one
     * log line each) up to the row's length. */
    static const int lrows[] = { 10000, 100000, 1000000 };
    uint64_t seed;
    int *bot, nbot;
    if (long_game(1000, &seed, &bot, &nbot) != 0)
        return 0;
    printf("\nLong games joined: what the loop pays (the summary copied into a\n"
           "message) and what libuv's pool pays (the record player rebuilding\n"
           "the game, every check compared). Target: the loop's part under 5 ms\n"
           "at 1,000,000 keys. Median of %d runs.\n\n", RUNS);
    printf("| keys | loop: summary copy, ms | pool: rebuild, ms | µs per key | pool: from the latest snapshot (every 65,536 keys), ms |\n");
    printf("|---|---|---|---|---|\n");
    for (size_t r = 0; r < sizeof lrows / sizeof lrows[0]; r++) {
        game_t *g = game_new(seed, NULL), *snap = NULL;
        record_t rec;
        size_t snap_pos = 0;
        uint32_t snap_keys = 0;
        record_init(&rec, g, 0);
        for (int i = 0; i < lrows[r]; i++) {
            record_key(&rec, g, i < nbot ? bot[i] : 'z');
            if (rec.nkeys % 65536 == 0) { /* as session_play.c keeps them */
                game_free(snap);
                snap = game_clone(g);
                snap_pos = rec.keys.len;
                snap_keys = rec.nkeys;
            }
        }
        uint64_t want = game_hash(g);
        double copy[RUNS], build[RUNS], tail[RUNS];
        for (int k = 0; k < RUNS; k++) {
            double t0 = now_us();
            msg_game_t *sum = msg_game_new(rec.seed, &rec.opt, 0, &rec.keys,
                                           &rec.checks);
            copy[k] = now_us() - t0;
            record_player_t pl;
            t0 = now_us();
            int rc = record_player_start_raw(&pl, sum->seed, &sum->opt,
                                             sum->keys.data, sum->keys.len,
                                             sum->checks.data, sum->checks.len,
                                             NULL);
            if (rc == RECORD_OK)
                rc = record_player_run(&pl, 0);
            build[k] = now_us() - t0;
            if (rc != RECORD_OK || game_hash(pl.game) != want)
                fprintf(stderr, "bench_watch: the long game differs!\n");
            record_player_free(&pl);
            t0 = now_us();
            if (snap)
                rc = record_player_start_at(&pl, game_clone(snap), snap_keys,
                                            sum->keys.data, sum->keys.len,
                                            snap_pos, sum->checks.data,
                                            sum->checks.len);
            else
                rc = record_player_start_raw(&pl, sum->seed, &sum->opt,
                                             sum->keys.data, sum->keys.len,
                                             sum->checks.data, sum->checks.len,
                                             NULL);
            if (rc == RECORD_OK)
                rc = record_player_run(&pl, 0);
            tail[k] = now_us() - t0;
            if (rc != RECORD_OK || game_hash(pl.game) != want)
                fprintf(stderr, "bench_watch: the game from its snapshot differs!\n");
            record_player_free(&pl);
            msg_game_free(sum);
        }
        qsort(copy, RUNS, sizeof copy[0], cmp_double);
        qsort(build, RUNS, sizeof build[0], cmp_double);
        qsort(tail, RUNS, sizeof tail[0], cmp_double);
        printf("| %d | %.3f | %.1f | %.2f | %.1f |\n", lrows[r],
               copy[RUNS / 2] / 1e3, build[RUNS / 2] / 1e3,
               build[RUNS / 2] / lrows[r], tail[RUNS / 2] / 1e3);
        record_free(&rec);
        game_free(snap);
        game_free(g);
    }
    resume_table(seed, bot, nbot);
    free(bot);
    return 0;
}
