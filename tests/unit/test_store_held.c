/* test_store_held.c - finished games whose batch fails are held and
 * written once writes work again, exactly once (store_held.c): a game
 * held while another process holds the database's lock is written after
 * the recovery, whether a batch that wrote or the store's own write (the
 * probe) found it; a game's token is written once however often it is
 * sent, and on PostgreSQL a COMMIT whose answer is lost (it committed) is
 * not a second row when its game is written again; a migration keeps the
 * duplicate games older versions allowed; one game the database always
 * refuses is given up after its tries alone, said once, without the
 * store's health flipping (on PostgreSQL, where it fails its whole try,
 * only that try's members go alone after, and only it is paused); a large held backlog does not keep a new
 * request waiting; held games count against the queue's bound and are
 * lost, each said, only at a close with writes still failing; an
 * account's game held with its game in progress's end ends that game
 * when it is written, and a login before then finds no game to continue;
 * that end leaves a later game of the same claim (an upgrade's new
 * process) in progress;
 * the store counts its held games written (for the site's cache). On
 * either backend (store_where.h), with a real libuv loop. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>
#if defined(__SANITIZE_ADDRESS__)
/* ASan's runtime counts the bytes allocated (its header is not always
 * installed: the one call, declared) */
size_t __sanitizer_get_current_allocated_bytes(void);
#define HELD_MEMORY 1
#endif

#include "check_main.h"
#include "game.h"
#include "record.h"
#include "store.h"
#include "store_fixture.h"
#include "full_disk_vfs.h"
#include "store_lock.h"
#include "store_log.h"
#include "store_where.h"

#define WAIT_MS 15000 /* a condition the store's thread brings (a hang
                         catcher) */
#define NO_PROBE_MS 3600000 /* probe_ms: only a batch that writes finds
                               that writes work again */

static store_scores_t got_scores;

static void setup(void)
{
    store_fixture_setup("/tmp/rogued-held-XXXXXX");
    memset(&got_scores, 0, sizeof got_scores);
    fast.busy_ms = 20; /* a lock held elsewhere fails a batch soon */
}

static void teardown(void)
{
    store_fixture_teardown();
}

#define flush store_fixture_flush

static void on_taken(void *ctx, const char *name, int status, int taken)
{
    (void)name;
    (void)taken;
    *(int *)ctx = status;
}

/* A request that needs the database after what is queued, its status: a
 * flush on SQLite (BEGIN IMMEDIATE takes the write lock even for it); on
 * PostgreSQL, where a transaction that writes nothing takes no lock, a
 * look at the accounts table (held by the lock). */
static int after_queued(store_t *st)
{
    if (!sw_pg())
        return flush(st);
    int status = -1;
    ck_assert_int_eq(store_name_taken(st, "Erin", on_taken, &status), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    return status;
}

/* A guest's death of `score` points, seed and turns as given. */
static store_game_t game(const char *name, int score, uint64_t seed,
                         int turns)
{
    store_game_t g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "%s", name);
    g.score = score;
    g.seed = seed;
    g.depth = 1;
    g.turns = turns;
    g.ending = STORE_END_DEATH;
    snprintf(g.cause, sizeof g.cause, "killed by a rat");
    g.ended = 1000000 + score;
    g.started = g.ended - 60;
    return g;
}

static void add(store_t *st, store_game_t g)
{
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), 0);
}

static store_stats_t stats_of(store_t *st)
{
    store_stats_t s;
    store_stats(st, &s);
    return s;
}

static uint64_t ms_now(void)
{
    return uv_hrtime() / 1000000u;
}

static void pause_10ms(void)
{
    nanosleep(&(struct timespec){ 0, 10 * 1000000L }, NULL);
}

/* Waits (up to WAIT_MS) until the store has written `written` games and
 * lost `lost`, with no request sent; 1 if it did. */
static int settled_within(store_t *st, uint64_t written, uint64_t lost)
{
    uint64_t end = ms_now() + WAIT_MS;
    store_stats_t s = stats_of(st);
    while ((s.games_written != written || s.games_lost != lost) &&
           ms_now() < end) {
        pause_10ms();
        s = stats_of(st);
    }
    return s.games_written == written && s.games_lost == lost;
}

/* n games of `name` (scores from 1) queued while another process holds
 * the database's lock: each batch fails, and the games are held. */
static void held_while_locked(store_t *st, const char *name, int n)
{
    ck_assert_uint_eq(store_held_written(st), 0);
    held_lock_t other;
    lock_hold(&other, "games, accounts IN ACCESS EXCLUSIVE MODE");
    for (int i = 1; i <= n; i++)
        add(st, game(name, i, 1000 + (uint64_t)i, 10));
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    ck_assert_int_eq(store_healthy(st), 0);
    lock_release(&other);
    ck_assert_uint_eq(stats_of(st).games_lost, 0);
}

/* --- held, then written once ------------------------------------------------ */

/* A game held while writes fail is written once a batch has written, and
 * once only: two rows (it and the batch's), two games written, none lost,
 * the same at the close. */
START_TEST(a_held_game_is_written_once_after_a_batch_writes)
{
    store_t *st = store_fixture_open(&fast);
    held_while_locked(st, "Ada", 1);
    add(st, game("Bo", 50, 7, 10));
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert_int_eq(store_healthy(st), 1);
    ck_assert(settled_within(st, 2, 0));
    ck_assert_uint_eq(store_held_written(st), 1); /* the site's cache */
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Ada'"), 1);
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 2);
    ck_assert_int_eq(sw_int("SELECT count(DISTINCT token) FROM games"), 2);
}
END_TEST

/* Nothing else sent after the lock goes: the store's own write (the
 * probe, once a second while writes fail) finds that writes work, and
 * that releases the held game too. */
START_TEST(the_probe_releases_the_held_games)
{
    log_to_file();
    store_t *st = store_fixture_open(&fast);
    held_while_locked(st, "Cy", 2);
    ck_assert(settled_within(st, 2, 0));
    ck_assert_int_eq(store_healthy(st), 1);
    ck_assert_int_eq(logged("writes work again"), 1);
    store_close(st);
    log_restore();
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Cy'"), 2);
    unlink(logpath);
}
END_TEST

/* --- never written twice ------------------------------------------------------ */

/* A game's token is its key: sent twice (as a held game whose COMMIT may
 * have committed is), it is one row. */
START_TEST(a_token_is_written_once)
{
    store_t *st = store_fixture_open(&fast);
    store_game_t g = game("Di", 5, 9, 10);
    g.token = 0x1234567890abcdefull;
    add(st, g);
    add(st, g);
    ck_assert_int_eq(flush(st), STORE_OK);
    add(st, g); /* in a batch of its own too */
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert_int_eq(store_healthy(st), 1);
    /* none held, none refused; counted written once */
    ck_assert(settled_within(st, 1, 0));
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 1);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE token ="
                            " 1311768467294899695"), 1);
}
END_TEST

/* Two rows alike, as schema 8 allowed (no token): the migration to
 * tokens keeps both, and games are written after it. */
START_TEST(the_migration_keeps_games_alike)
{
    char err[512];
    ck_assert_int_eq(store_create_at_version(sw_where(), 8, err, sizeof err),
                     0);
    for (int i = 0; i < 2; i++)
        sw_exec("INSERT INTO games (player, ruleset, seed, score, depth,"
                " turns, kills, cause, started, ended, ending, ranked)"
                " VALUES ('Eve', 0, 3, 40, 1, 10, 0, 'killed by a rat', 1,"
                " 2, 1, 1)");
    store_t *st = store_fixture_open(&fast);
    add(st, game("Eve", 41, 3, 10));
    ck_assert_int_eq(flush(st), STORE_OK);
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 3);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE token IS"
                            " NULL"), 2);
}
END_TEST

/* PostgreSQL: a COMMIT that commits but whose answer never comes (here a
 * deferred trigger sleeps past the store's answer deadline, the
 * connection's tcp_user_timeout plus 2 s: pg_deadline.c; a dropped
 * connection loses it alike). The store gives the connection up, the
 * batch fails and its game is held; the row is in all the same. Written
 * again once writes work, it is not a second row. */
START_TEST(pg_a_commit_whose_answer_is_lost_is_one_row)
{
    log_to_file();
    static char url[sizeof sw_url + 32];
    snprintf(url, sizeof url, "%s?tcp_user_timeout=300", sw_url);
    fast.url = url; /* the answer's deadline: 2.3 s */
    store_t *st = store_fixture_open(&fast);
    sw_exec("CREATE SEQUENCE slow;"
            " CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN IF nextval('slow') = 1 THEN PERFORM pg_sleep(4);"
            " END IF; RETURN NULL; END $$;"
            " CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON games"
            " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW"
            " EXECUTE FUNCTION slow()");
    add(st, game("Fay", 1, 11, 10));
    flush(st); /* (in the game's batch, or the next) */
    ck_assert_uint_ge(store_failed_batches(st), 1);
    ck_assert_uint_eq(stats_of(st).games_lost, 0); /* held */
    ck_assert_int_eq(logged("the connection is given up"), 1);
    /* the first COMMIT did commit, once its trigger woke */
    uint64_t end = ms_now() + WAIT_MS;
    while (sw_int("SELECT count(*) FROM games") != 1 && ms_now() < end)
        pause_10ms();
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 1);
    /* a batch that writes (connecting again: at most once a second) */
    add(st, game("Gil", 2, 12, 10));
    while (flush(st) != STORE_OK && ms_now() < end)
        pause_10ms();
    ck_assert(settled_within(st, 2, 0));
    store_close(st);
    log_restore();
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 2);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Fay'"), 1);
    unlink(logpath);
}
END_TEST

/* PostgreSQL: a held game's last try as the store closes, whose COMMIT
 * gets no answer (the deferred trigger sleeps past the answer's
 * deadline), is said to be "may be lost", not lost: its row is in once
 * the trigger wakes. */
START_TEST(pg_a_last_try_whose_commit_is_unanswered_may_be_lost)
{
    log_to_file();
    static char url[sizeof sw_url + 32];
    snprintf(url, sizeof url, "%s?tcp_user_timeout=300", sw_url);
    fast.url = url; /* the answer's deadline: 2.3 s */
    fast.probe_ms = NO_PROBE_MS; /* held until the close */
    store_t *st = store_fixture_open(&fast);
    held_while_locked(st, "Fay", 1);
    sw_exec("CREATE SEQUENCE slow;"
            " CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN IF nextval('slow') = 1 THEN PERFORM pg_sleep(4);"
            " END IF; RETURN NULL; END $$;"
            " CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON games"
            " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW"
            " EXECUTE FUNCTION slow()");
    store_close(st);
    log_restore();
    ck_assert_int_eq(logged("a game of Fay may be lost (seed 1001, 10 turns,"
                            " ended 1970-01-12T13:46:41Z): its last try's COMMIT got no"
                            " answer as the store closed"), 1);
    ck_assert_int_eq(logged("a game of Fay lost"), 0);
    uint64_t end = ms_now() + WAIT_MS;
    while (sw_int("SELECT count(*) FROM games") != 1 && ms_now() < end)
        pause_10ms();
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 1);
    unlink(logpath);
}
END_TEST

/* --- one game refused ------------------------------------------------------- */

/* on: the database refuses every game of Bad (a trigger), and nothing
 * else. */
static void refuse_bad(void)
{
    if (sw_pg())
        sw_exec("CREATE FUNCTION no_bad() RETURNS trigger LANGUAGE plpgsql"
                " AS $$BEGIN IF NEW.player = 'Bad' THEN RAISE EXCEPTION"
                " 'no games of Bad'; END IF; RETURN NEW; END$$;"
                " CREATE TRIGGER no_bad BEFORE INSERT ON games FOR EACH ROW"
                " EXECUTE FUNCTION no_bad()");
    else
        sw_exec("CREATE TRIGGER no_bad BEFORE INSERT ON games WHEN"
                " NEW.player = 'Bad' BEGIN SELECT RAISE(ABORT,"
                " 'no games of Bad'); END");
}

/* Held beside a good game, one the database always refuses fails its
 * tries: the good one is written, the refused one tried alone three
 * times and given up, said once with what finds it; the store stays
 * healthy throughout (no failed batch counted after the first, writes
 * said failing once and working again once). */
START_TEST(a_refused_game_is_given_up_without_flipping_health)
{
    log_to_file();
    store_t *st = store_fixture_open(&fast);
    refuse_bad();
    held_lock_t other;
    lock_hold(&other, "games, accounts IN ACCESS EXCLUSIVE MODE");
    add(st, game("Bad", 1, 77, 33));
    add(st, game("Hal", 2, 78, 10));
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    uint64_t failed = store_failed_batches(st);
    lock_release(&other);
    add(st, game("Ivy", 3, 79, 10));
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert(settled_within(st, 2, 1));
    ck_assert_int_eq(store_healthy(st), 1);
    ck_assert_uint_eq(store_failed_batches(st), failed);
    ck_assert_int_eq(logged("writes are failing"), 1);
    ck_assert_int_eq(logged("writes work again"), 1);
    ck_assert_int_eq(logged("a game of Bad lost (seed 77, 33 turns, ended "
                            "1970-01-12T13:46:41Z): the database refused it 3 times"), 1);
    ck_assert_int_eq(logged("a game of Bad lost"), 1); /* said once */
    store_close(st);
    log_restore();
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 2);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Bad'"), 0);
    unlink(logpath);
}
END_TEST

/* A try alone that fails for a lock held elsewhere (SQLite's busy, or
 * PostgreSQL's lock timeout) is no refusal: it counts no try toward
 * giving the game up, and writes fail until the lock goes. Bad, refused
 * once by a trigger, is paused for long (held_pause_ms: the test's steps
 * up to the lock are a poll or two, far less, even on a loaded machine);
 * another process takes the lock and, in the lock's own transaction,
 * drops the trigger, so Bad's next try alone can only meet the lock: the
 * store then says writes fail (were it taken for a refusal, the store
 * would stay healthy and give Bad up after two more pauses). Once the
 * lock goes, with the trigger, Bad is written. */
START_TEST(a_lock_on_a_try_alone_is_no_refusal)
{
    /* Bad's pause outlasts the steps before the lock is held: a test
     * slowed past it meets a second refusal, and Bad is lost only at a
     * third, past 16 s */
    fast.held_pause_ms = 8000;
    store_t *st = store_fixture_open(&fast);
    refuse_bad();
    held_lock_t other;
    lock_hold(&other, "games, accounts IN ACCESS EXCLUSIVE MODE");
    add(st, game("Bad", 1, 77, 33));
    add(st, game("Hal", 2, 78, 10));
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    lock_release(&other);
    add(st, game("Ivy", 3, 79, 10));
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert(settled_within(st, 2, 0)); /* Hal: Bad was refused first */
    lock_hold(&other, "games, accounts IN ACCESS EXCLUSIVE MODE");
    lock_exec(&other, sw_pg() ? "DROP TRIGGER no_bad ON games"
                              : "DROP TRIGGER no_bad");
    uint64_t end = ms_now() + WAIT_MS;
    while (store_healthy(st) && stats_of(st).games_lost == 0 &&
           ms_now() < end)
        pause_10ms();
    ck_assert_uint_eq(stats_of(st).games_lost, 0);
    ck_assert_int_eq(store_healthy(st), 0);
    lock_commit(&other);
    ck_assert(settled_within(st, 3, 0));
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Bad'"), 1);
}
END_TEST

/* PostgreSQL, where a refused game fails its whole try: after a try of
 * several fails, only its members are tried alone (Bad, then Al), and
 * only the refused game is paused: Al and the rest are written while Bad
 * waits out a pause longer than the test, and the games after them go on
 * two to a transaction again (a trigger notes each row's transaction).
 * Bad's last try, at the close, is refused again: lost. */
START_TEST(pg_a_failed_try_s_members_go_alone)
{
    fast.batch_max = 2;
    fast.probe_ms = NO_PROBE_MS;
    fast.held_pause_ms = NO_PROBE_MS;
    store_t *st = store_fixture_open(&fast);
    refuse_bad();
    sw_exec("CREATE TABLE seen (player text, tx bigint);"
            " CREATE FUNCTION seen() RETURNS trigger LANGUAGE plpgsql AS"
            " $$BEGIN INSERT INTO seen VALUES (NEW.player, txid_current());"
            " RETURN NULL; END$$;"
            " CREATE TRIGGER seen AFTER INSERT ON games FOR EACH ROW"
            " EXECUTE FUNCTION seen()");
    held_lock_t other;
    lock_hold(&other, "games, accounts IN ACCESS EXCLUSIVE MODE");
    add(st, game("Bad", 1, 77, 33));
    const char *names[] = { "Al", "Bo", "Cy", "Di", "Ed" };
    for (int i = 0; i < 5; i++)
        add(st, game(names[i], 2 + i, 80 + (uint64_t)i, 10));
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    lock_release(&other);
    add(st, game("Ivy", 9, 79, 10)); /* the batch that writes */
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert(settled_within(st, 6, 0)); /* Bad's pause is its own */
    ck_assert_int_eq(sw_int("SELECT count(DISTINCT tx) FROM seen WHERE"
                            " player IN ('Bo', 'Cy', 'Di', 'Ed')"), 2);
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 6);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Bad'"), 0);
}
END_TEST

/* PostgreSQL: a trigger fails Bad's insert as `state` would (its count
 * in the sequence bad_tries, which no rollback takes back). */
static void fail_bad_as(const char *state)
{
    char sql[512];
    snprintf(sql, sizeof sql, "CREATE SEQUENCE bad_tries;"
             " CREATE FUNCTION fail_bad() RETURNS trigger LANGUAGE plpgsql"
             " AS $$BEGIN IF NEW.player = 'Bad' THEN PERFORM"
             " nextval('bad_tries'); RAISE EXCEPTION 'no games of Bad' USING"
             " ERRCODE = '%s'; END IF; RETURN NEW; END$$;"
             " CREATE TRIGGER fail_bad BEFORE INSERT ON games FOR EACH ROW"
             " EXECUTE FUNCTION fail_bad()", state);
    sw_exec(sql);
}

/* PostgreSQL: a failure that is no refusal and never passes while the
 * store's own write works (42501, a permission the games' table lacks)
 * is tried again for as long as it takes, and said once, with the
 * database's reason, at the tenth try alone; not again after. */
START_TEST(pg_a_failure_that_never_passes_is_said_once)
{
    log_to_file();
    fast.held_pause_ms = 10;
    store_t *st = store_fixture_open(&fast);
    fail_bad_as("42501");
    add(st, game("Bad", 1, 77, 33));
    flush(st);
    ck_assert_int_ge(sw_int_reaches("SELECT CASE WHEN is_called THEN"
                                    " last_value ELSE 0 END FROM bad_tries",
                                    15), 15);
    ck_assert_uint_eq(stats_of(st).games_lost, 0);
    ck_assert_int_eq(store_healthy(st), 1);
    log_restore();
    ck_assert_int_eq(logged("a game of Bad (seed 77, 33 turns, ended"
                            " 1970-01-12T13:46:41Z) not written after 10 tries alone"
                            " while writes worked (no games of Bad)"), 1);
    ck_assert_int_eq(logged("not written after"), 1);
    store_close(st);
    unlink(logpath);
}
END_TEST

/* PostgreSQL: a program limit (SQLSTATE class 54: a row too large for an
 * index, say) is the database refusing the game: given up after its
 * tries alone. */
START_TEST(pg_a_program_limit_is_a_refusal)
{
    log_to_file();
    fast.held_pause_ms = 10;
    store_t *st = store_fixture_open(&fast);
    fail_bad_as("54000");
    add(st, game("Bad", 1, 77, 33));
    flush(st);
    ck_assert(settled_within(st, 0, 1));
    store_close(st);
    log_restore();
    ck_assert_int_eq(logged("a game of Bad lost (seed 77, 33 turns, ended "
                            "1970-01-12T13:46:41Z): the database refused it 3 times"), 1);
    unlink(logpath);
}
END_TEST

/* PostgreSQL: at a close, one game's own failure that is no refusal
 * (42501) while the store's own write works is that game's alone: it is
 * lost, and the rest still get their last tries. Bad fails as 42501 at
 * each try, Hal is refused (by a trigger, then dropped); both are paused
 * for longer than the test while Ivy is written; the store closes: Bad's
 * last try fails, Hal's writes it. */
START_TEST(pg_a_close_loses_only_a_game_failing_alone)
{
    log_to_file();
    fast.held_pause_ms = NO_PROBE_MS;
    store_t *st = store_fixture_open(&fast);
    fail_bad_as("42501");
    sw_exec("CREATE SEQUENCE hal_tries;"
            " CREATE FUNCTION no_hal() RETURNS trigger LANGUAGE plpgsql AS"
            " $$BEGIN IF NEW.player = 'Hal' THEN PERFORM"
            " nextval('hal_tries'); RAISE EXCEPTION 'no games of Hal';"
            " END IF; RETURN NEW; END$$;"
            " CREATE TRIGGER no_hal BEFORE INSERT ON games FOR EACH ROW"
            " EXECUTE FUNCTION no_hal()");
    held_lock_t other;
    lock_hold(&other, "games, accounts IN ACCESS EXCLUSIVE MODE");
    add(st, game("Bad", 1, 77, 33));
    add(st, game("Hal", 2, 78, 10));
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    lock_release(&other);
    add(st, game("Ivy", 3, 79, 10));
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert(settled_within(st, 1, 0)); /* Ivy */
    /* Hal refused alone (after Bad failed alone): both paused */
    ck_assert_int_ge(sw_int_reaches("SELECT CASE WHEN is_called THEN"
                                    " last_value ELSE 0 END FROM hal_tries",
                                    1), 1);
    sw_exec("DROP TRIGGER no_hal ON games");
    store_close(st);
    log_restore();
    ck_assert_int_eq(logged("a game of Bad lost"), 1);
    ck_assert_int_eq(logged("its last try failed as the store closed"), 1);
    ck_assert_int_eq(logged("a game of Hal"), 0);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Hal'"), 1);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 2);
    unlink(logpath);
}
END_TEST

/* --- a backlog ---------------------------------------------------------------- */

static void on_scores(void *ctx, const store_scores_t *r)
{
    (void)ctx;
    got_scores = *r;
}

/* Thirty games held, one request a batch: after the batch that writes
 * again, a read sent behind it comes after one held try (a game), not
 * after thirty. It sees the batch's game and at most two held. On
 * PostgreSQL Kay's insert waits at a gate the test opens once the read
 * is queued, and on SQLite its write transaction waits at a gate of the
 * VFS (full_disk_vfs.h), so that the read is behind the batch however
 * late this thread gets to queue it (a loaded machine let 18 and 8 held
 * tries run first, each rightly, with no request waiting). */
START_TEST(held_games_do_not_starve_new_requests)
{
    fast.batch_max = 1;
    fast.probe_ms = NO_PROBE_MS; /* Kay's batch is the one that recovers */
    if (!sw_pg())
        full_disk_install(); /* (before the store opens its connection) */
    store_t *st = store_fixture_open(&fast);
    if (sw_pg())
        sw_exec("CREATE TABLE kay_go (x integer);"
                " CREATE FUNCTION kay_gate() RETURNS trigger LANGUAGE plpgsql"
                " AS $$BEGIN IF NEW.player = 'Kay' THEN WHILE NOT EXISTS"
                " (SELECT 1 FROM kay_go) LOOP PERFORM pg_sleep(0.005);"
                " END LOOP; END IF; RETURN NEW; END$$;"
                " CREATE TRIGGER kay_gate BEFORE INSERT ON games FOR EACH ROW"
                " EXECUTE FUNCTION kay_gate()");
    held_while_locked(st, "Jo", 30);
    atomic_store(&write_gate, !sw_pg());
    add(st, game("Kay", 100, 5, 10));
    if (sw_pg()) /* Kay's batch at the gate (this test's database: the
                  * server's other databases are other tests') */
        ck_assert_int_eq(sw_int_reaches("SELECT count(*) FROM"
                                        " pg_stat_activity WHERE wait_event ="
                                        " 'PgSleep' AND application_name ="
                                        " 'rogued' AND datname ="
                                        " current_database()", 1), 1);
    for (int i = 0; i < 3000 && !sw_pg() && !atomic_load(&gate_waiting); i++) {
        struct timespec ts = { 0, 10000000L };
        nanosleep(&ts, NULL);
    }
    ck_assert(sw_pg() || atomic_load(&gate_waiting));
    ck_assert_int_eq(store_scores(st, 20, NULL, on_scores, NULL), 0);
    if (sw_pg())
        sw_exec("INSERT INTO kay_go VALUES (1)");
    atomic_store(&write_gate, 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(got_scores.status, STORE_OK);
    ck_assert_int_ge(got_scores.n, 1);
    ck_assert_int_le(got_scores.n, 3);
    ck_assert_str_eq(got_scores.top[0].name, "Kay");
    store_close(st); /* the rest written by then */
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 31);
}
END_TEST

/* --- an account's game in progress ------------------------------------------ */

static void on_load(void *ctx, const store_progress_t *p)
{
    *(store_progress_t *)ctx = *p;
}

/* A login's load of the account's game: its answer (keys not kept). */
static store_progress_t load_of(store_t *st, int64_t account)
{
    store_progress_t p = { .status = -1 };
    ck_assert_int_eq(store_progress_load(st, account, on_load, &p), 0);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_ne(p.status, -1);
    p.keys = NULL;
    p.snap = NULL;
    p.snap_checks = NULL;
    return p;
}

/* Ann, logged in (a claim taken by a load), plays a game that ends while
 * another process holds the lock: its row and the end of her game in
 * progress fail with their batch, and the game is held. Returns her
 * account. */
static int64_t ann_ends_while_locked(store_t *st)
{
    int64_t ann = store_fixture_account(st, "Ann");
    int64_t claim = load_of(st, ann).claim;
    ck_assert_int_gt(claim, 0);
    ck_assert_int_eq(store_progress_begin(st, ann, claim, 5, NULL, 1), 0);
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress"), 1);
    held_lock_t other;
    lock_hold(&other, "games, accounts, progress IN ACCESS EXCLUSIVE MODE");
    store_game_t g = game("Ann", 10, 5, 120);
    g.account_id = ann;
    g.started = 1; /* its game in progress's (the seed's too) */
    add(st, g);
    ck_assert_int_eq(store_progress_end(st, ann, claim, 5, 1), 0);
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    lock_release(&other);
    return ann;
}

/* The held game carries its account's end: written (the probe finding
 * the lock gone), it ends her game in progress in its transaction, so
 * that no login continues a game recorded already (and ending it again
 * would be a second row). */
START_TEST(a_held_game_ends_its_game_in_progress)
{
    store_t *st = store_fixture_open(&fast);
    int64_t ann = ann_ends_while_locked(st);
    ck_assert(settled_within(st, 1, 0));
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress"), 0);
    ck_assert_int_eq(load_of(st, ann).status, STORE_NOT_FOUND);
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Ann'"), 1);
}
END_TEST

/* A login while her game is still held (no probe: nothing has written
 * since) ends that game in progress first: nothing to continue. The game
 * is written after a batch that writes, once, and leaves the game she
 * begins after the login alone. */
START_TEST(a_login_does_not_continue_a_held_game)
{
    fast.probe_ms = NO_PROBE_MS;
    store_t *st = store_fixture_open(&fast);
    int64_t ann = ann_ends_while_locked(st);
    ck_assert_uint_eq(stats_of(st).games_written, 0);
    store_progress_t p = load_of(st, ann);
    ck_assert_int_eq(p.status, STORE_NOT_FOUND);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress"), 0);
    ck_assert_int_eq(store_progress_begin(st, ann, p.claim, 6, NULL, 2), 0);
    add(st, game("Bo", 50, 7, 10)); /* a batch that writes */
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert(settled_within(st, 2, 0));
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Ann'"), 1);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress WHERE seed = 6"),
                     1);
}
END_TEST

/* The latest claim taken on the account's game. */
static int64_t claim_of(int64_t account)
{
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT progress_claim FROM accounts WHERE"
             " id = %lld", (long long)account);
    int64_t claim = sw_int(sql);
    ck_assert_int_gt(claim, 0);
    return claim;
}

/* Ann begins her next game, as the same session (the same claim), while
 * her last is held owing its end; the begin's batch commits, and the
 * held game is written after it (that batch wrote). The begin cancels
 * the owed end: her new game is still in progress. It has the held
 * game's seed and start, so that only the cancel, not the end's own
 * game, keeps the end from dropping it. */
START_TEST(a_committed_begin_cancels_the_owed_end)
{
    fast.probe_ms = NO_PROBE_MS;
    store_t *st = store_fixture_open(&fast);
    int64_t ann = ann_ends_while_locked(st);
    ck_assert_int_eq(store_progress_begin(st, ann, claim_of(ann), 5, NULL,
                                          1), 0);
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert(settled_within(st, 1, 0));
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress WHERE seed = 5"),
                     1);
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Ann'"), 1);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress"), 1);
}
END_TEST

/* An upgrade: the new process's store begins Ann's next game under the
 * claim the old one handed over, while the old store still holds her
 * game and its owed end (no probe: nothing has written there since).
 * The old store's close writes the held game and its end, which ends
 * only the game that was held (its seed and start): the new game is
 * still in progress after it. */
START_TEST(a_held_game_s_end_leaves_a_later_game_of_its_claim)
{
    fast.probe_ms = NO_PROBE_MS;
    store_t *st = store_fixture_open(&fast);
    int64_t ann = ann_ends_while_locked(st);
    int64_t claim = claim_of(ann);
    store_t *next = store_fixture_open(&fast);
    ck_assert_int_eq(store_progress_begin(next, ann, claim, 6, NULL, 2), 0);
    ck_assert_int_eq(flush(next), STORE_OK);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress WHERE seed = 6"),
                     1);
    ck_assert_uint_eq(stats_of(st).games_written, 0);
    store_close(st); /* the held game's last try: written, with its end */
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Ann'"), 1);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress WHERE seed = 6"),
                     1);
    store_close(next);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress"), 1);
}
END_TEST

/* An end carried by an older held game of the account ends the game it
 * was queued for: Ann begins seed 5 (started 1); an older game of hers
 * (seed 9), held, is refused once and paused past the test; the seed 5
 * game is written, but the end of it fails under another process's
 * lock, so the older game carries it. A login then finds no game to
 * continue (the end matching the older game's seed would drop none). */
START_TEST(an_end_carried_by_an_older_game_ends_its_own)
{
    fast.held_pause_ms = NO_PROBE_MS;
    fast.probe_ms = NO_PROBE_MS;
    store_t *st = store_fixture_open(&fast);
    int64_t ann = store_fixture_account(st, "Ann");
    int64_t claim = load_of(st, ann).claim;
    ck_assert_int_eq(store_progress_begin(st, ann, claim, 5, NULL, 1), 0);
    ck_assert_int_eq(flush(st), STORE_OK);
    sw_exec(sw_pg() ? "CREATE FUNCTION no_nine() RETURNS trigger LANGUAGE"
                      " plpgsql AS $$BEGIN IF NEW.seed = 9 THEN RAISE"
                      " EXCEPTION 'no seed 9'; END IF; RETURN NEW; END$$;"
                      " CREATE TRIGGER no_nine BEFORE INSERT ON games FOR"
                      " EACH ROW EXECUTE FUNCTION no_nine()"
                    : "CREATE TRIGGER no_nine BEFORE INSERT ON games WHEN"
                      " NEW.seed = 9 BEGIN SELECT RAISE(ABORT, 'no seed 9');"
                      " END");
    held_lock_t other;
    lock_hold(&other, "games, accounts, progress IN ACCESS EXCLUSIVE MODE");
    store_game_t old = game("Ann", 3, 9, 40);
    old.account_id = ann;
    add(st, old);
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    lock_release(&other);
    store_game_t g = game("Ann", 10, 5, 120);
    g.account_id = ann;
    g.started = 1;
    add(st, g);
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert(settled_within(st, 1, 0)); /* seed 5's; seed 9's refused */
    lock_hold(&other, "games, accounts, progress IN ACCESS EXCLUSIVE MODE");
    ck_assert_int_eq(store_progress_end(st, ann, claim, 5, 1), 0);
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    lock_release(&other);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress"), 1);
    ck_assert_int_eq(load_of(st, ann).status, STORE_NOT_FOUND);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress"), 0);
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE seed = 5"), 1);
}
END_TEST

/* Two held games of Ann owe ends, under claims c1 < c2: her seed 5 game
 * (held with its end under c1, ann_ends_while_locked), then, after a
 * login through another store took c2 (her seed 5 game still the one in
 * progress), a seed 6 game held with its end under c2. Only the c1
 * game's row is in progress; a login here ends it (each owed end as the
 * latest claim, c2, which the c1 row yields to): no game to continue. */
START_TEST(owed_ends_of_two_claims_leave_no_game_in_progress)
{
    fast.probe_ms = NO_PROBE_MS;
    store_t *st = store_fixture_open(&fast);
    int64_t ann = ann_ends_while_locked(st);
    int64_t c1 = claim_of(ann);
    store_t *next = store_fixture_open(&fast);
    store_progress_t p = load_of(next, ann);
    ck_assert_int_eq(p.status, STORE_OK); /* seed 5, still in progress */
    int64_t c2 = p.claim;
    ck_assert_int_gt(c2, c1);
    store_close(next);
    held_lock_t other;
    lock_hold(&other, "games, accounts, progress IN ACCESS EXCLUSIVE MODE");
    store_game_t g = game("Ann", 20, 6, 60);
    g.account_id = ann;
    g.started = 2;
    add(st, g);
    ck_assert_int_eq(store_progress_end(st, ann, c2, 6, 2), 0);
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    lock_release(&other);
    ck_assert_uint_eq(stats_of(st).games_written, 0);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress WHERE seed = 5"),
                     1);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress"), 1);
    ck_assert_int_eq(load_of(st, ann).status, STORE_NOT_FOUND);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM progress"), 0);
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Ann'"), 2);
}
END_TEST

#ifdef HELD_MEMORY
/* A held game's memory is its encoded record (and its request), as the
 * queue's byte bound counts it: the recorder's buffers are freed once the
 * record is encoded and the encoding's buffer is shrunk to its bytes.
 * Ten games of 10,000 keys, held: the bytes they hold (ASan's count of
 * what is allocated) are their queued bytes and a few KiB each. */
START_TEST(a_held_game_holds_its_encoded_record_alone)
{
    store_t *st = store_fixture_open(&fast);
    add(st, game("Bo", 50, 7, 10)); /* the store's caches warm */
    ck_assert_int_eq(flush(st), STORE_OK);
    held_lock_t other;
    lock_hold(&other, "games, accounts IN ACCESS EXCLUSIVE MODE");
    size_t before = __sanitizer_get_current_allocated_bytes();
    for (int i = 0; i < 10; i++) {
        game_t *g = game_new(100 + (uint64_t)i, NULL);
        ck_assert_ptr_nonnull(g);
        record_t rec;
        ck_assert_int_eq(record_init(&rec, g, 0), 0);
        for (int k = 0; k < 10000; k++)
            record_key(&rec, g, "hjklyubn."[k % 9]);
        store_game_t row = game("Cat", 1 + i, 100 + (uint64_t)i, 500);
        ck_assert_int_eq(store_end_game(st, &row, g, &rec), 0);
        record_free(&rec);
    }
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    size_t held = __sanitizer_get_current_allocated_bytes() - before;
    store_stats_t s = stats_of(st);
    ck_assert_uint_eq(s.queued_games, 10);
    ck_assert_uint_lt(held, s.queued_bytes + 10 * 8192);
    lock_release(&other);
    store_close(st);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games WHERE player ="
                            " 'Cat'"), 10);
}
END_TEST
#endif

/* --- bounds and the close ---------------------------------------------------- */

/* Held games count against the queue's bound (max_queued_games): past it
 * a new game is refused. Those still held as the store closes while
 * writes fail are lost, each said with its player, seed and turns. */
START_TEST(held_games_are_bounded_and_lost_at_a_failing_close)
{
    log_to_file();
    fast.max_queued_games = 2;
    store_t *st = store_fixture_open(&fast);
    held_lock_t other;
    lock_hold(&other, "games, accounts IN ACCESS EXCLUSIVE MODE");
    add(st, game("Lu", 1, 21, 11));
    add(st, game("Lu", 2, 22, 12));
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    store_game_t g = game("Lu", 3, 23, 13);
    ck_assert_int_eq(store_add_game(st, &g, NULL, 0), -1); /* refused */
    ck_assert_uint_eq(stats_of(st).games_lost, 0);
    store_close(st); /* the lock still held: their last try fails */
    lock_release(&other);
    log_restore();
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 0);
    ck_assert_int_eq(logged("too many games waiting for the disk: lost"), 1);
    ck_assert_int_eq(logged("they still failed as the store closed"), 2);
    ck_assert_int_eq(logged("a game of Lu lost (seed 21, 11 turns"), 1);
    ck_assert_int_eq(logged("a game of Lu lost (seed 22, 12 turns"), 1);
    unlink(logpath);
}
END_TEST

/* Three games refused once each and paused (for longer than the test)
 * while writes work; then another process takes the lock and the store
 * closes. Their last tries meet the lock: after the first fails alone,
 * which is no refusal, writes are failing, and the other two are lost at
 * once rather than each after its own wait for the lock. */
START_TEST(a_close_meeting_a_lock_loses_the_rest_at_once)
{
    log_to_file();
    fast.held_pause_ms = NO_PROBE_MS;
    store_t *st = store_fixture_open(&fast);
    refuse_bad();
    held_lock_t other;
    lock_hold(&other, "games, accounts IN ACCESS EXCLUSIVE MODE");
    for (int i = 0; i < 3; i++)
        add(st, game("Bad", 1 + i, 61 + (uint64_t)i, 10));
    add(st, game("Hal", 5, 78, 10));
    ck_assert_int_eq(after_queued(st), STORE_ERROR);
    lock_release(&other);
    add(st, game("Ivy", 6, 79, 10));
    ck_assert_int_eq(flush(st), STORE_OK);
    ck_assert(settled_within(st, 2, 0)); /* the Bads paused */
    sw_exec(sw_pg() ? "DROP TRIGGER no_bad ON games" : "DROP TRIGGER no_bad");
    lock_hold(&other, "games, accounts IN ACCESS EXCLUSIVE MODE");
    store_close(st);
    lock_release(&other);
    log_restore();
    ck_assert_int_eq(logged("a game of Bad lost"), 3);
    ck_assert_int_eq(logged("its last try failed as the store closed"), 1);
    ck_assert_int_eq(logged("they still failed as the store closed"), 2);
    ck_assert_int_eq(sw_int("SELECT count(*) FROM games"), 2);
    unlink(logpath);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create(sw_pg() ? "store_held (PostgreSQL)"
                                    : "store_held");
    TCase *tc = tcase_create("store_held");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 40);
    tcase_add_test(tc, a_held_game_is_written_once_after_a_batch_writes);
    tcase_add_test(tc, the_probe_releases_the_held_games);
    tcase_add_test(tc, a_token_is_written_once);
    tcase_add_test(tc, the_migration_keeps_games_alike);
    if (sw_pg()) {
        tcase_add_test(tc, pg_a_commit_whose_answer_is_lost_is_one_row);
        tcase_add_test(tc,
                       pg_a_last_try_whose_commit_is_unanswered_may_be_lost);
    }
    tcase_add_test(tc, a_refused_game_is_given_up_without_flipping_health);
    tcase_add_test(tc, a_lock_on_a_try_alone_is_no_refusal);
    if (sw_pg()) {
        tcase_add_test(tc, pg_a_failed_try_s_members_go_alone);
        tcase_add_test(tc, pg_a_failure_that_never_passes_is_said_once);
        tcase_add_test(tc, pg_a_program_limit_is_a_refusal);
        tcase_add_test(tc, pg_a_close_loses_only_a_game_failing_alone);
    }
    tcase_add_test(tc, held_games_do_not_starve_new_requests);
    tcase_add_test(tc, held_games_are_bounded_and_lost_at_a_failing_close);
    tcase_add_test(tc, a_close_meeting_a_lock_loses_the_rest_at_once);
    tcase_add_test(tc, a_held_game_ends_its_game_in_progress);
#ifdef HELD_MEMORY
    tcase_add_test(tc, a_held_game_holds_its_encoded_record_alone);
#endif
    tcase_add_test(tc, a_login_does_not_continue_a_held_game);
    tcase_add_test(tc, a_held_game_s_end_leaves_a_later_game_of_its_claim);
    tcase_add_test(tc, a_committed_begin_cancels_the_owed_end);
    tcase_add_test(tc, an_end_carried_by_an_older_game_ends_its_own);
    tcase_add_test(tc, owed_ends_of_two_claims_leave_no_game_in_progress);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
