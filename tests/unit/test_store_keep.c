/* test_store_keep.c - the store keeps what it says it keeps, and says so
 * when it cannot: a file or directory it may not write and a damaged file
 * are refused at start with a sentence naming the file and what to do;
 * writes that fail while running flip store_healthy and are logged once;
 * guest numbers never repeat across restarts, a clean stop giving back
 * those it reserved and never handed out; guests' short games are not
 * stored and their old ones go (the retention rule); the hall of fame
 * ranks only games with a real end (enum store_ending). A real SQLite file
 * in a temporary directory, or in the pg family a PostgreSQL database
 * (tests/store_where.h; the file's own troubles are SQLite's alone, and
 * PostgreSQL's lost connection its own), and a real libuv loop, as in
 * test_store.c. */
#include <check.h>
#include <fcntl.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "check_main.h"
#include "full_disk_vfs.h"
#include "game.h"
#include "record.h"
#include "store.h"
#include "store_fixture.h"
#include "store_lock.h"
#include "store_log.h"
#include "store_where.h"

#define NOBODY 65534
#define CL_WAIT_MS 30000 /* ms the server may take to end a connection (a hang catcher) */ /* the unprivileged user the read-only tests run as */

static store_scores_t got_scores;

static void setup(void)
{
    store_fixture_setup("/tmp/rogued-keep-XXXXXX");
    atomic_store(&full_disk, 0);
    memset(&got_scores, 0, sizeof got_scores);
}

static void teardown(void)
{
    store_fixture_teardown();
}

static store_t *open_fast(void)
{
    return store_fixture_open(&fast);
}

static void on_scores(void *ctx, const store_scores_t *r)
{
    (void)ctx;
    got_scores = *r;
}

typedef struct answer {
    store_account_t acct;
} answer_t;

static void on_account(void *ctx, const store_account_t *r)
{
    ((answer_t *)ctx)->acct = *r;
}

#define flush store_fixture_flush

#define sql_int sw_int

static store_game_t row(const char *name, int64_t account, int score,
                        int turns, int ending, const char *cause)
{
    store_game_t g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "%s", name);
    g.account_id = account;
    g.score = score;
    g.depth = 1;
    g.turns = turns;
    g.ending = ending;
    snprintf(g.cause, sizeof g.cause, "%s", cause);
    g.ended = 1000000 + score;
    g.started = g.ended - 60;
    return g;
}

/* Runs fn in a child process as user NOBODY (the tests run as root, to
 * whom every file is writable); returns the child's exit status. */
static int as_nobody(int (*fn)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (getuid() == 0 && (setgid(NOBODY) != 0 || setuid(NOBODY) != 0))
            _exit(90);
        _exit(fn());
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static int taken_status;

static void on_taken(void *ctx, const char *name, int status, int taken)
{
    (void)ctx;
    (void)name;
    (void)taken;
    taken_status = status;
}

/* A request that needs the database after what is queued: a flush
 * (SQLite's BEGIN IMMEDIATE takes the write lock even for it), or on
 * PostgreSQL, where a transaction that writes nothing takes no lock, a
 * look at the accounts table. */
static int after_queued(store_t *st)
{
    if (!sw_pg())
        return flush(st);
    taken_status = -1;
    ck_assert_int_eq(store_name_taken(st, "Erin", on_taken, NULL), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    return taken_status;
}

static char child_err[512];

/* In the child: store_open must refuse, naming the file and the fix. */
static int open_refused(void)
{
    uv_loop_t l;
    uv_loop_init(&l);
    store_t *st = store_open(&l, dir, &fast, child_err, sizeof child_err);
    if (st) {
        store_close(st);
        return 1;
    }
    fprintf(stderr, "refused: %s\n", child_err);
    if (!strstr(child_err, dbpath) || !strstr(child_err, "cannot be written") ||
        !strstr(child_err, "writable by the user rogued runs as"))
        return 2;
    return uv_loop_close(&l) == 0 ? 0 : 3;
}

/* --- refused at start -------------------------------------------------------- */

START_TEST(read_only_file_refused)
{
    store_close(open_fast());
    long long games = sql_int("SELECT count(*) FROM games");
    /* the directory is nobody's, the file root's and read-only to others */
    ck_assert_int_eq(chown(dir, NOBODY, NOBODY), 0);
    ck_assert_int_eq(chmod(dbpath, 0644), 0);
    ck_assert_int_eq(as_nobody(open_refused), 0);
    /* as it was: still a database of ours, nothing added */
    ck_assert_int_eq(sql_int("PRAGMA user_version"), STORE_SCHEMA_VERSION);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM games"), games);
}
END_TEST

START_TEST(read_only_directory_refused)
{
    /* a file nobody may write, in a directory nobody may write */
    store_close(open_fast());
    ck_assert_int_eq(chown(dbpath, NOBODY, NOBODY), 0);
    ck_assert_int_eq(chmod(dir, 0755), 0);
    ck_assert_int_eq(as_nobody(open_refused), 0);
    /* and no file at all, in a directory nobody may write: not created */
    store_fixture_rm_db();
    ck_assert_int_eq(as_nobody(open_refused), 0);
    ck_assert_int_ne(access(dbpath, F_OK), 0);
}
END_TEST

START_TEST(damaged_file_refused)
{
    store_t *st = open_fast();
    /* enough games for the table to have pages of its own */
    for (int i = 0; i < 400; i++) {
        store_game_t g = row("Dana", 0, i, 10, STORE_END_DEATH,
                             "killed by a very long-named rat of the sewers");
        ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    }
    store_close(st);
    long long page = sql_int("PRAGMA page_size");
    long long root = sql_int("SELECT rootpage FROM sqlite_master WHERE"
                             " name = 'games'");
    ck_assert_int_gt(root, 1);
    /* the games table's root page: its b-tree header overwritten */
    int fd = open(dbpath, O_WRONLY);
    ck_assert_int_ge(fd, 0);
    unsigned char junk[64];
    memset(junk, 0x5a, sizeof junk);
    ck_assert_int_eq(pwrite(fd, junk, sizeof junk, (root - 1) * page),
                     (ssize_t)sizeof junk);
    close(fd);
    char err[768];
    ck_assert_ptr_null(store_open(&loop, dir, &fast, err, sizeof err));
    ck_assert_msg(strstr(err, dbpath) && strstr(err, "is damaged") &&
                  strstr(err, "quick_check") && strstr(err, "backup") &&
                  strstr(err, ".recover"), "%s", err);
}
END_TEST

/* --- failing while running --------------------------------------------------- */

START_TEST(failing_writes_flip_health_and_log_once)
{
    log_to_file();

    fast.busy_ms = 20; /* do not wait long for the lock below */
    store_t *st = open_fast();
    ck_assert_int_eq(store_healthy(st), 1);
    uint64_t failed = store_failed_batches(st);
    ck_assert_uint_eq(failed, 0);
    /* another process holds the write lock: every batch fails */
    held_lock_t other;
    lock_hold(&other, "games, accounts IN ACCESS EXCLUSIVE MODE");
    for (int i = 0; i < 5; i++) {
        store_game_t g = row("Erin", 0, i, 10, STORE_END_DEATH, "killed by a rat");
        ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
        ck_assert_int_eq(after_queued(st), STORE_ERROR);
        ck_assert_int_eq(store_healthy(st), 0);
        /* counted before the answers (the game's batch, perhaps the
         * answered request's too) */
        ck_assert_uint_gt(store_failed_batches(st), failed);
        failed = store_failed_batches(st);
    }
    lock_release(&other);
    store_game_t g = row("Erin", 0, 99, 10, STORE_END_DEATH, "killed by a rat");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert_int_eq(store_healthy(st), 1);
    ck_assert_uint_eq(store_failed_batches(st), failed);
    store_stats_t stats;
    store_stats(st, &stats);
    ck_assert_uint_eq(stats.games_lost, 0); /* held, not lost */
    store_close(st); /* (the held written by then: test_store_held.c) */

    log_restore();
    ck_assert_int_eq(sql_int("SELECT count(*) FROM games"), 6);
    ck_assert_int_eq(logged("writes are failing"), 1);
    /* the reason: in the statement's line and in the one that says so */
    ck_assert_int_eq(logged(sw_pg() ? "lock timeout"
                                                  : "database is locked"), 2);
    ck_assert_int_eq(logged("writes work again"), 1);
    ck_assert_int_eq(logged("games lost"), 0);
    unlink(logpath);
}
END_TEST

/* --- a full disk (SQLite's own: full_disk_vfs.h) ------------------------------ */

/* Waits (up to 10 s) until store_healthy is `want`, with no request
 * sent: what changes it then is the store's own write (a probe). */
static int healthy_within(store_t *st, int want)
{
    uint64_t end = uv_hrtime() + 10000000000ull;
    while (store_healthy(st) != want && uv_hrtime() < end) {
        struct timespec ms = { 0, 10000000 };
        nanosleep(&ms, NULL);
    }
    return store_healthy(st) == want;
}

/* The disk fills while the store runs: its COMMIT fails and SQLite rolls
 * the transaction back itself. The log says why writes fail with that
 * reason, not with the error of a ROLLBACK of no transaction. */
START_TEST(a_full_disk_is_the_reason_told)
{
    full_disk_install();
    log_to_file();
    store_t *st = open_fast();
    atomic_store(&full_disk, 1);
    store_game_t g = row("Ida", 0, 1, 10, STORE_END_DEATH, "killed by a rat");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    flush(st); /* (its batch may be the game's, which fails) */
    ck_assert_uint_eq(store_failed_batches(st), 1);
    atomic_store(&full_disk, 0);
    store_close(st);
    log_restore();
    ck_assert_int_eq(logged("writes are failing (database or "
                                          "disk is full)"), 1);
    ck_assert_int_eq(logged("COMMIT: database or disk is full"),
                     1);
    ck_assert_int_eq(logged("ROLLBACK"), 0);
    ck_assert_int_eq(logged("SQL logic error"), 0);
}
END_TEST

/* While the disk is full, batches of reads (a flush here; keys dropped
 * for a game the failure broke, in a server) commit: they do not make the
 * store healthy, or each session would send its game again whole at once,
 * to fail again. Once there is room, the store's own write (nothing else
 * is sent) finds it: healthy, and said once. */
START_TEST(writes_work_again_only_once_a_write_is_kept)
{
    full_disk_install();
    log_to_file();
    store_t *st = open_fast();
    atomic_store(&full_disk, 1);
    store_game_t g = row("Jo", 0, 1, 10, STORE_END_DEATH, "killed by a rat");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    flush(st); /* (its batch may be the game's, which fails) */
    ck_assert_int_eq(flush(st), STORE_OK); /* a batch of no writes */
    ck_assert_int_eq(store_healthy(st), 0);
    ck_assert_int_eq(logged("writes are failing"), 1);
    ck_assert_int_eq(logged("writes work again"), 0);
    atomic_store(&full_disk, 0);
    ck_assert(healthy_within(st, 1));
    ck_assert_int_eq(logged("writes work again"), 1);
    /* the store's own write is no batch of the sessions' */
    ck_assert_uint_eq(store_failed_batches(st), 1);
    store_close(st);
    log_restore();
    ck_assert_int_eq(logged("writes are failing"), 1);
}
END_TEST

/* A database on a disk that is full at start is refused as that, not as
 * a damaged disk ("disk I/O error": SQLite cannot grow the -shm file). */
START_TEST(a_full_disk_at_start_is_said)
{
    store_close(open_fast());
    full_disk_install();
    atomic_store(&full_disk, 1);
    char err[768];
    ck_assert_ptr_null(store_open(&loop, dir, &fast, err, sizeof err));
    atomic_store(&full_disk, 0);
    ck_assert_msg(strstr(err, dbpath) && strstr(err, "the disk it is on is "
                  "full") && strstr(err, "free some space") &&
                  !strstr(err, "I/O error"), "%s", err);
}
END_TEST

/* on: every game the store inserts, and every write of its own (a guest
 * number: meta), is refused by a trigger, which rolls its transaction
 * back (as a full disk does); reads and other writes go on. off: drops
 * them. */
static void refuse_games(int on)
{
    if (!on) {
        sw_exec(sw_pg() ? "DROP TRIGGER refuse ON games; DROP TRIGGER"
                          " refuse_meta ON meta; DROP FUNCTION refuse()"
                        : "DROP TRIGGER refuse; DROP TRIGGER refuse_meta");
        return;
    }
    if (sw_pg())
        sw_exec("CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql"
                " AS $$BEGIN RAISE EXCEPTION 'no room for games'; END$$;"
                " CREATE TRIGGER refuse BEFORE INSERT ON games FOR EACH ROW"
                " EXECUTE FUNCTION refuse();"
                " CREATE TRIGGER refuse_meta BEFORE INSERT OR UPDATE ON meta"
                " FOR EACH ROW EXECUTE FUNCTION refuse()");
    else
        sw_exec("CREATE TRIGGER refuse BEFORE INSERT ON games BEGIN"
                " SELECT RAISE(ROLLBACK, 'no room for games'); END;"
                " CREATE TRIGGER refuse_meta BEFORE UPDATE ON meta BEGIN"
                " SELECT RAISE(ROLLBACK, 'no room for games'); END");
}

/* A batch of reads only (here a flush) commits while writes fail: the
 * store stays unhealthy for the sessions (store_healthy), and the log
 * says writes work again only after a batch that wrote has committed,
 * and says writes are failing once however often reads commit in
 * between. */
START_TEST(recovery_is_logged_after_a_write_not_a_read)
{
    log_to_file();
    store_t *st = open_fast();
    refuse_games(1);
    for (int i = 0; i < 2; i++) {
        uint64_t failed = store_failed_batches(st);
        store_game_t g = row("Gus", 0, i, 10, STORE_END_DEATH, "killed by a rat");
        ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
        flush(st); /* (its batch may be the game's, which fails) */
        ck_assert_uint_eq(store_failed_batches(st), failed + 1);
        ck_assert_int_eq(flush(st), STORE_OK); /* a batch of no writes */
        ck_assert_int_eq(store_healthy(st), 0);
        ck_assert_int_eq(logged("writes are failing"), 1);
        ck_assert_int_eq(logged("writes work again"), 0);
    }
    refuse_games(0);
    store_game_t g = row("Gus", 0, 9, 10, STORE_END_DEATH, "killed by a rat");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert_int_eq(logged("writes work again"), 1);
    ck_assert_int_eq(logged("writes are failing"), 1);
    store_stats_t stats;
    store_stats(st, &stats);
    ck_assert_uint_eq(stats.games_lost, 0); /* the two held */
    store_close(st); /* (written by then) */
    log_restore();
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 3);
}
END_TEST

static uint64_t now_ms(void)
{
    return uv_hrtime() / 1000000u;
}

/* A write waits for another process's lock at least as long as the
 * store's busy_ms says (store_lock_timeout_ms: SQLite's busy timeout,
 * PostgreSQL's lock_timeout), then its batch fails once. Only the lower
 * bound is asserted: a busy machine can make any wait longer, never
 * shorter. That the setting (not the default) reaches the store is
 * test_start's lock_wait_is_the_setting, by the store's start line. */
START_TEST(a_lock_is_waited_for_as_configured)
{
    fast.busy_ms = 1500;
    store_t *st = open_fast();
    held_lock_t other; /* (PostgreSQL's readers pass: a flush alone
                          would commit) */
    lock_hold(&other, "games IN EXCLUSIVE MODE");
    /* one batch that waits: SQLite's flush takes the write lock itself;
     * PostgreSQL's game waits (a flush behind it, in a batch of its own,
     * commits at once) */
    uint64_t t0 = now_ms();
    if (sw_pg()) {
        store_game_t g = row("Hal", 0, 1, 10, STORE_END_DEATH,
                             "killed by a rat");
        ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
        flush(st);
    } else {
        ck_assert_int_eq(flush(st), STORE_ERROR);
    }
    uint64_t waited = now_ms() - t0;
    ck_assert_uint_eq(store_failed_batches(st), 1);
    ck_assert_msg(waited >= 1450, "waited %llu ms",
                  (unsigned long long)waited);
    lock_release(&other);
    store_close(st);
}
END_TEST

/* PostgreSQL: the server ends our connection (a restart, a failover, an
 * administrator): the batch it was in fails and is said once (the health
 * flips: "writes are failing"), its game held; the next one connects
 * again and is kept, the health flips back ("writes work again"), and
 * the held game is written after it, once. */
START_TEST(pg_lost_connection_comes_back)
{
    log_to_file();

    store_t *st = open_fast();
    store_game_t g = row("Finn", 0, 1, 10, STORE_END_DEATH, "killed by a rat");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    ck_assert_int_eq(flush(st), STORE_OK);
    char sql[256];
    /* (with a timeout, pg_terminate_backend returns once the server
     * process is gone: the next batch cannot slip in before) */
    snprintf(sql, sizeof sql, "SELECT count(*) FROM (SELECT pid FROM"
             " pg_stat_activity WHERE datname = '%s' AND application_name ="
             " 'rogued' OFFSET 0) s WHERE pg_terminate_backend(pid, %d)",
             sw_dbname, CL_WAIT_MS); /* (OFFSET 0: filtered first) */
    ck_assert_int_eq(sw_int(sql), 1);
    /* the batch this game is in is the first on the dead connection: it
     * fails (the flush behind it may come in the next batch, which
     * connects again: its own status says nothing) */
    g = row("Finn", 0, 2, 10, STORE_END_DEATH, "killed by a rat");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    flush(st);
    store_stats_t stats;
    store_stats(st, &stats);
    ck_assert_uint_eq(stats.games_lost, 0); /* held */
    g = row("Finn", 0, 3, 10, STORE_END_DEATH, "killed by a rat");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert_int_eq(store_healthy(st), 1);
    store_close(st); /* (the held game written by then) */

    log_restore();
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 3);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE score = 2"), 1);
    ck_assert_int_eq(logged("writes are failing"), 1);
    ck_assert_int_eq(logged("connected again"), 1);
    ck_assert_int_eq(logged("writes work again"), 1);
    unlink(logpath);
}
END_TEST

/* --- guest numbers ----------------------------------------------------------- */

/* A server that crashes after handing out two guest numbers: 1104 and
 * 1105 (where the test's last clean stop left the database), its block
 * [1104, 2104) reserved and never given back. */
static int crash_after_two(void)
{
    store_t *st = open_fast();
    unsigned long long a = store_guest_number(st), b = store_guest_number(st);
    return a == 1104 && b == 1105 ? 0 : 1; /* _exit: no store_close */
}

/* Runs fn in a child process (its own copy of the loop, uv_loop_fork);
 * returns its exit status. */
static int in_child(int (*fn)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(uv_loop_fork(&loop) != 0 ? 90 : fn());
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

START_TEST(guest_numbers_never_repeat)
{
    store_t *st = open_fast();
    /* past half a block: the next block is reserved on the way */
    for (unsigned long long i = 1; i <= 1100; i++) {
        ck_assert_uint_eq(store_guest_number(st), i);
        if (i == 600)
            ck_assert_int_eq(flush(st), STORE_OK); /* its answer has come */
    }
    store_close(st);
    /* a clean stop gave back what it reserved and never handed out (the
     * rest of the block, and the spare one): a restart goes on from the
     * last number given */
    st = open_fast();
    ck_assert_uint_eq(store_guest_number(st), 1101);
    ck_assert_uint_eq(store_guest_number(st), 1102);
    store_close(st);
    st = open_fast();
    ck_assert_uint_eq(store_guest_number(st), 1103);
    store_close(st);
    /* a crash gives nothing back (the reserve is on disk before any
     * number is given): the next start goes past every number reserved */
    ck_assert_int_eq(in_child(crash_after_two), 0);
    st = open_fast();
    ck_assert_uint_eq(store_guest_number(st), 2104);
    store_close(st);
}
END_TEST

/* While writes fail, the store's own write (the probe) is what tells
 * that they work again. It uses no guest number: after a recovery found
 * by the probe alone, a clean stop still gives back the block reserved,
 * and the next start goes on from the last number handed out. */
START_TEST(the_probe_uses_no_guest_number)
{
    log_to_file();
    fast.busy_ms = 20; /* do not wait long for the lock below */
    store_t *st = open_fast();
    ck_assert_uint_eq(store_guest_number(st), 1);
    held_lock_t other;
    lock_hold(&other, "games, accounts IN ACCESS EXCLUSIVE MODE");
    store_game_t g = row("Kit", 0, 1, 10, STORE_END_DEATH, "killed by a rat");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    ck_assert_int_eq(store_healthy(st), 0);
    lock_release(&other);
    ck_assert(healthy_within(st, 1)); /* nothing else is sent: the probe */
    ck_assert_int_eq(logged("writes work again"), 1);
    store_close(st);
    log_restore();
    unlink(logpath);
    st = open_fast();
    ck_assert_uint_eq(store_guest_number(st), 2);
    store_close(st);
}
END_TEST

/* --- bounded disk ------------------------------------------------------------- */

START_TEST(short_guest_games_not_stored)
{
    fast.guest_min_turns = 50;
    store_t *st = open_fast();
    store_game_t g = row("guest1", 0, 5, 49, STORE_END_DEATH, "killed by a rat");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    g = row("guest2", 0, 6, 50, STORE_END_DEATH, "killed by a rat");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    /* an account's game is kept however short */
    answer_t a = { 0 };
    ck_assert_int_eq(store_register(st, "Fay", "password", on_account, &a), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(a.acct.status, STORE_OK);
    g = row("Fay", a.acct.id, 7, 1, STORE_END_QUIT, "quit");
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    /* a real game handed over whole: freed, not stored */
    game_t *played = game_new(42, NULL);
    record_t rec;
    ck_assert_int_eq(record_init(&rec, played, 0), 0);
    record_key(&rec, played, 'l');
    g = row("guest3", 0, 1, (int)played->turn, STORE_END_QUIT, "quit");
    ck_assert_int_eq(store_end_game(st, &g, played, &rec), 0);
    ck_assert_int_eq(flush(st), STORE_OK);
    store_stats_t stats;
    store_stats(st, &stats);
    ck_assert_uint_eq(stats.guests_skipped, 2);
    ck_assert_uint_eq(stats.games_written, 2);
    store_close(st);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM games"), 2);
    ck_assert_int_eq(sql_int("SELECT turns FROM games WHERE player = 'guest2'"),
                     50);
    ck_assert_int_eq(sql_int("SELECT turns FROM games WHERE player = 'Fay'"), 1);
}
END_TEST

START_TEST(old_guest_games_pruned_unless_famous)
{
    store_t *st = open_fast();
    int64_t now = (int64_t)time(NULL), old = now - 1000;
    /* 20 old ranked games of an account, scores 1000..1019 */
    for (int i = 0; i < 20; i++) {
        store_game_t g = row("Gus", 0, 1000 + i, 200, STORE_END_DEATH,
                             "killed by an orc");
        g.account_id = 0;
        g.ended = old;
        ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
    }
    store_game_t famous = row("guest1", 0, 5000, 300, STORE_END_WIN, "won");
    store_game_t forgotten = row("guest2", 0, 10, 300, STORE_END_DEATH, "killed by a rat");
    store_game_t cut = row("guest3", 0, 9000, 300, STORE_END_DISCONNECT,
                           "disconnected (timeout)");
    store_game_t recent = row("guest4", 0, 11, 300, STORE_END_DEATH, "killed by a rat");
    famous.ended = forgotten.ended = cut.ended = old;
    recent.ended = now;
    ck_assert_int_eq(store_add_game(st, &famous, NULL, 0), 0);
    ck_assert_int_eq(store_add_game(st, &forgotten, NULL, 0), 0);
    ck_assert_int_eq(store_add_game(st, &cut, NULL, 0), 0);
    ck_assert_int_eq(store_add_game(st, &recent, NULL, 0), 0);
    store_close(st);
    /* the accounts' games: made an account's by the file, as the session
     * would have stored them */
    sw_exec("INSERT INTO accounts (id, name, pwhash, created)"
            " VALUES (1, 'Gus', 'x', 0);"
            " UPDATE games SET account_id = 1 WHERE player = 'Gus'");
    sw_ids_follow();

    fast.guest_keep_s = 500; /* the old games are past it, the recent not */
    st = open_fast();        /* the rule runs at start, before any request */
    ck_assert_int_eq(flush(st), STORE_OK);
    store_stats_t stats;
    store_stats(st, &stats);
    ck_assert_uint_eq(stats.guests_pruned, 2);
    store_close(st);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM games"), 22);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM games WHERE player IN"
                             " ('guest2', 'guest3')"), 0);
    ck_assert_int_eq(sql_int("SELECT count(*) FROM games WHERE player IN"
                             " ('guest1', 'guest4')"), 2);
}
END_TEST

/* --- the hall of fame's rule ----------------------------------------------------- */

START_TEST(only_real_endings_ranked)
{
    store_t *st = open_fast();
    struct { const char *name, *cause; int score, turns, ending, ranked; } g[] = {
        { "Ann", "killed by a rat", 10, 5, STORE_END_DEATH, 1 },
        { "Bob", "escaped with the Amulet", 50, 900, STORE_END_WIN, 1 },
        { "Cid", "quit", 500, STORE_QUIT_MIN_TURNS - 1, STORE_END_QUIT, 0 },
        { "Dee", "quit", 400, STORE_QUIT_MIN_TURNS, STORE_END_QUIT, 1 },
        { "Eve", "disconnected (timeout)", 1000, 800, STORE_END_DISCONNECT, 0 },
        /* the ending left unset: read from the cause */
        { "Fox", "disconnected (closed)", 900, 800, STORE_END_UNSET, 0 },
        { "Gil", "quit", 300, 20, STORE_END_UNSET, 0 },
        { "Hal", "killed by a troll", 30, 5, STORE_END_UNSET, 1 },
    };
    int n = (int)(sizeof g / sizeof g[0]);
    for (int i = 0; i < n; i++) {
        store_game_t r = row(g[i].name, 0, g[i].score, g[i].turns, g[i].ending,
                             g[i].cause);
        ck_assert_int_eq(store_game_ranked(&r), g[i].ranked);
        ck_assert_int_eq(store_add_game(st, &r, NULL, 0), 0);
    }
    ck_assert_int_eq(store_scores(st, 20, NULL, on_scores, NULL), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(got_scores.status, STORE_OK);
    ck_assert_int_eq(got_scores.n, 4);
    ck_assert_str_eq(got_scores.top[0].name, "Dee");
    ck_assert_int_eq(got_scores.top[0].ending, STORE_END_QUIT);
    ck_assert_str_eq(got_scores.top[1].name, "Bob");
    ck_assert_int_eq(got_scores.top[1].ending, STORE_END_WIN);
    ck_assert_str_eq(got_scores.top[2].name, "Hal");
    ck_assert_int_eq(got_scores.top[2].ending, STORE_END_DEATH);
    ck_assert_str_eq(got_scores.top[3].name, "Ann");
    store_close(st);
    /* every game is kept, ranked or not */
    ck_assert_int_eq(sql_int("SELECT count(*) FROM games"), n);
    ck_assert_int_eq(sql_int("SELECT ending FROM games WHERE player = 'Fox'"),
                     STORE_END_DISCONNECT);
    ck_assert_int_eq(sql_int("SELECT ending FROM games WHERE player = 'Gil'"),
                     STORE_END_QUIT);
}
END_TEST

START_TEST(migration_reads_endings_from_causes)
{
    char err[512];
    ck_assert_int_eq(store_create_at_version(sw_where(), 3, err, sizeof err), 0);
    sw_exec(
        "INSERT INTO games VALUES (1, 'guest1', NULL, 0, 1, 700, 1, 3, 0,"
        " 'quit', 1, 2, NULL);"
        "INSERT INTO games VALUES (2, 'guest2', NULL, 0, 1, 600, 1, 3, 0,"
        " 'disconnected (', 1, 2, NULL);"
        "INSERT INTO games VALUES (3, 'guest3', NULL, 0, 1, 20, 1, 300, 0,"
        " 'killed by a rat', 1, 2, NULL);"
        "INSERT INTO games VALUES (4, 'guest4', NULL, 0, 1, 10, 1, 150, 0,"
        " 'quit', 1, 2, NULL);");
    sw_ids_follow();
    store_t *st = open_fast();
    ck_assert_int_eq(store_scores(st, 20, NULL, on_scores, NULL), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(got_scores.n, 2);
    ck_assert_int_eq(got_scores.top[0].game_id, 3);
    ck_assert_int_eq(got_scores.top[0].ending, STORE_END_DEATH);
    ck_assert_int_eq(got_scores.top[1].game_id, 4);
    ck_assert_int_eq(got_scores.top[1].ending, STORE_END_QUIT);
    store_close(st);
    ck_assert_int_eq(sql_int("SELECT ending FROM games WHERE id = 2"),
                     STORE_END_DISCONNECT);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create(sw_pg() ? "store_keep (PostgreSQL)" : "store_keep");
    TCase *tc = tcase_create("store_keep");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    if (sw_pg()) {
        tcase_add_test(tc, pg_lost_connection_comes_back);
    } else { /* a file's own troubles (PostgreSQL's are in test_store.c) */
        tcase_add_test(tc, read_only_file_refused);
        tcase_add_test(tc, read_only_directory_refused);
        tcase_add_test(tc, damaged_file_refused);
        tcase_add_test(tc, a_full_disk_is_the_reason_told);
        tcase_add_test(tc, writes_work_again_only_once_a_write_is_kept);
        tcase_add_test(tc, a_full_disk_at_start_is_said);
    }
    tcase_add_test(tc, failing_writes_flip_health_and_log_once);
    tcase_add_test(tc, recovery_is_logged_after_a_write_not_a_read);
    tcase_add_test(tc, a_lock_is_waited_for_as_configured);
    tcase_add_test(tc, guest_numbers_never_repeat);
    tcase_add_test(tc, the_probe_uses_no_guest_number);
    tcase_add_test(tc, short_guest_games_not_stored);
    tcase_add_test(tc, old_guest_games_pruned_unless_famous);
    tcase_add_test(tc, only_real_endings_ranked);
    tcase_add_test(tc, migration_reads_endings_from_causes);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
