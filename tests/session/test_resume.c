/* test_resume.c - nothing lost: an account's game survives a dropped
 * connection, a SIGTERM and a SIGKILL, and the next login continues it on
 * the very screen the player left (compared cell by cell through libvterm;
 * after a crash, at most the last second of keys may be missing); a
 * saved game that cannot be looked up or rebuilt is kept, never replaced
 * by p; a saved game comes before a watch or a replay; and a finished
 * game replayed from the hall of fame reaches its final screen. */
#include <check.h>
#include <sqlite3.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "combat.h"
#include "game.h"
#include "plan.h"
#include "play.h"

/* The menu offers the game at `turn`, and p shows it. */
static void go_on_offered(tclient_t *c, int turn)
{
    char offer[64];
    snprintf(offer, sizeof offer, "Continue your game (depth 1, turn %d)", turn);
    play_wait_text(c, offer);
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "HP: ");
    ck_assert(cl_sync(c, CL_WAIT_MS));
}

/* Logs in again and continues (go_on_offered). */
static void continue_game(tclient_t *c, int turn)
{
    play_login_dave(c, 0);
    go_on_offered(c, turn);
}

/* Servers whose two sessions' screens are compared wait for the
 * client's telnet answers as long as it takes (it gives them all): with
 * the 500 ms default a loaded machine once drew the first session in 16
 * colours and the second in 256, and the screens differed in a lit
 * wall's colour alone. */
#define WAIT_ANSWERS "negotiation_ms=10000"

static void expect_same(tclient_t *c, const cl_snap_t *before)
{
    char why[256];
    if (!cl_snap_equal(c, before, why, sizeof why))
        play_fail(c, "the continued game differs from the one left: %s", why);
}

/* A server whose games are the walk's seed, and dave registered on it
 * and n keys into his game (*a): its turn and screen then. */
static tsrv_t *dave_walked(tclient_t **a, int n, int *turn, cl_snap_t *snap)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)play_walk_seed());
    tsrv_t *s = srv_start("--seed", seed, "--set", WAIT_ANSWERS, NULL);
    *a = play_lobby(srv_port(s));
    play_login_dave(*a, 1);
    ck_assert(cl_key(*a, "p"));
    play_wait_text(*a, "HP: ");
    play_walk_keys(*a, n);
    *turn = cl_turn(*a);
    cl_snap(*a, snap);
    return s;
}

START_TEST(dropped_connection_continues_on_the_same_screen)
{
    tclient_t *a;
    int turn;
    cl_snap_t before;
    tsrv_t *s = dave_walked(&a, 50, &turn, &before);
    cl_close(a); /* the link drops: nothing said, nothing sent */
    ck_assert(srv_wait_log(s, "game suspended id=1 name=dave", CL_WAIT_MS));
    ck_assert(!srv_log_has(s, "game over"));

    tclient_t *b = play_lobby(srv_port(s));
    continue_game(b, turn);
    expect_same(b, &before);
    ck_assert_int_eq(cl_turn(b), turn);
    /* It plays on, and ends like any game. */
    ck_assert(cl_key(b, "."));
    ck_assert_int_eq(cl_turn(b), turn + 1);
    ck_assert(cl_key(b, "Q"));
    ck_assert(cl_key(b, "y"));
    play_wait_text(b, "Play as dave");
    ck_assert(srv_wait_log(s, "game over id=2 name=dave", CL_WAIT_MS));
    /* Over means over: the next login offers nothing. */
    ck_assert(cl_key(b, "l"));
    tclient_t *c = play_lobby(srv_port(s));
    play_login_dave(c, 0);
    ck_assert(cl_sync(c, CL_WAIT_MS));
    ck_assert(!cl_screen_has(c, "Continue your game"));
    cl_snap_free(&before);
    cl_close(c);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* A server on data directory dir whose games are the walk's seed. */
static tsrv_t *start_in(const char *dir)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)play_walk_seed());
    return srv_start("--seed", seed, "--data-dir", dir, "--set", WAIT_ANSWERS,
                     NULL);
}

/* start_in a new directory (dir: a mkdtemp template, filled in), and dave
 * registered on it and in his new game (*a). */
static tsrv_t *dave_playing_in(char *dir, tclient_t **a)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    tsrv_t *s = start_in(dir);
    *a = play_lobby(srv_port(s));
    play_login_dave(*a, 1);
    ck_assert(cl_key(*a, "p"));
    play_wait_text(*a, "HP: ");
    return s;
}

/* dave plays 20 keys in a server on dir and leaves: the server, once it
 * has saved the game (suspended); the turn and the screen he left, if
 * asked for (before: freed by the caller). */
static tsrv_t *dave_left_in(char *dir, int *turn, cl_snap_t *before)
{
    tclient_t *a;
    tsrv_t *s = dave_playing_in(dir, &a);
    play_walk_keys(a, 20);
    if (turn)
        *turn = cl_turn(a);
    if (before)
        cl_snap(a, before);
    cl_close(a);
    ck_assert(srv_wait_log(s, "game suspended id=1 name=dave", CL_WAIT_MS));
    return s;
}

/* dave plays `keys` keys (and a guest 3, if with_guest), the server gets
 * sig, and after a restart dave's login offers the game, which p shows
 * exactly as it was. A guest's game is recorded at the shutdown. */
static void shutdown_keeps_the_game(int sig, int keys, int with_guest)
{
    char dir[] = "/tmp/rogued-resume-XXXXXX";
    tclient_t *a;
    tsrv_t *s = dave_playing_in(dir, &a);
    play_walk_keys(a, keys);
    int turn = cl_turn(a);
    cl_snap_t before;
    cl_snap(a, &before);
    tclient_t *g = NULL;
    if (with_guest) {
        g = play_connect(srv_port(s), NULL);
        play_walk_keys(g, 3);
    }
    srv_signal(s, sig);
    char line[64];
    snprintf(line, sizeof line, "shutting down (%s), %s online",
             sig == SIGHUP ? "SIGHUP" : "SIGTERM",
             with_guest ? "2 players" : "1 player");
    ck_assert(srv_wait_log(s, line, CL_WAIT_MS));
    ck_assert(srv_wait_log(s, "game suspended id=1 name=dave", CL_WAIT_MS));
    /* dave is told his game is kept; a guest's is not */
    ck_assert(cl_wait_eof(a, CL_WAIT_MS));
    ck_assert(cl_stream_has(a, "The server is shutting down: your game is "
                            "saved, log in again to go on. Goodbye!"));
    if (g) {
        ck_assert(cl_wait_eof(g, CL_WAIT_MS));
        ck_assert(!cl_stream_has(g, "your game is saved"));
        ck_assert(cl_stream_has(g, "The server is shutting down: a guest's "
                                "game ends here. Goodbye!"));
        /* its game's end: the second line naming it, after its start */
        ck_assert(srv_wait_log_count(s, " name=guest2 seed=", 2, CL_WAIT_MS));
        ck_assert_int_eq(srv_log_count(s, "game over "), 1);
        ck_assert(srv_log_has(s, "cause=\"disconnected (the server stopped)\""));
    }
    srv_stop(s); /* exit 0, clean log */
    cl_close(a);
    cl_close(g);

    s = start_in(dir);
    tclient_t *b = play_lobby(srv_port(s));
    continue_game(b, turn);
    expect_same(b, &before);
    cl_snap_free(&before);
    cl_close(b);
    srv_stop(s);
    srv_remove_tree(dir);
}

/* Q's prompt says what y does and how to keep the game; S saves an
 * account's game and goes back to the lobby, which offers it at once
 * (saying it is saved, with no welcome back); p
 * goes on at the very screen, and nothing of the S is in the game (no
 * turn, no key). A guest is told its game is not kept and plays
 * on. */
START_TEST(save_and_leave_goes_on_from_the_lobby)
{
    tclient_t *a;
    int turn;
    cl_snap_t before;
    tsrv_t *s = dave_walked(&a, 30, &turn, &before);
    /* Q says what y would do, and how to keep the game instead */
    ck_assert(cl_key(a, "Q"));
    play_wait_text(a, "Really quit? (y/n)");
    ck_assert(cl_screen_has(a, "y ends it for good; n then S saves it."));
    ck_assert(cl_key(a, "n"));
    play_wait_text(a, "Never mind.");
    ck_assert(!cl_screen_has(a, "y ends it for good"));
    ck_assert_int_eq(cl_turn(a), turn); /* no turn, but two lines logged */
    cl_snap_free(&before);
    cl_snap(a, &before);
    ck_assert(cl_key(a, "S"));
    play_wait_text(a, "Your game is saved: p goes on with it.");
    char offer[64];
    snprintf(offer, sizeof offer, "Continue your game (depth 1, turn %d)", turn);
    play_wait_text(a, offer);
    /* the offer after S says saved still: no login's greeting */
    ck_assert(cl_screen_has(a, "Your game is saved: p goes on with it."));
    ck_assert(!cl_screen_has(a, "Welcome back"));
    ck_assert(srv_log_has(s, "game suspended id=1 name=dave"));
    ck_assert(!srv_log_has(s, "game over"));
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    ck_assert(cl_sync(a, CL_WAIT_MS));
    expect_same(a, &before);
    cl_snap_free(&before);
    ck_assert_int_eq(cl_turn(a), turn);
    ck_assert(cl_key(a, "."));
    ck_assert_int_eq(cl_turn(a), turn + 1);
    cl_close(a);

    tclient_t *g = play_connect(srv_port(s), NULL); /* a guest, playing */
    ck_assert(cl_key(g, "S"));
    play_wait_text(g, "A guest's game ends with the connection: only an "
                   "account's game is saved.");
    ck_assert(cl_screen_has(g, "HP: "));
    ck_assert(!cl_screen_has(g, "Unknown key"));
    ck_assert(cl_key(g, "Q")); /* a guest is not offered S */
    play_wait_text(g, "y ends this game for good.");
    ck_assert(!cl_screen_has(g, "saves it"));
    ck_assert(cl_key(g, "n"));
    cl_close(g);
    srv_stop(s);
}
END_TEST

START_TEST(sigterm_and_restart_continue_on_the_same_screen)
{
    shutdown_keeps_the_game(SIGTERM, 50, 0);
}
END_TEST

/* SIGHUP (the terminal that ran the server closed) is a clean shutdown
 * too: the account's game is kept for its next login, a guest's recorded. */
START_TEST(sighup_keeps_every_game)
{
    shutdown_keeps_the_game(SIGHUP, 30, 1);
}
END_TEST

/* A game whose record is full (record_limit bytes of keys, one a key
 * here) ends there and is recorded whole, with a line that says so: it
 * never plays on past what can be kept, which a resume would roll back. */
START_TEST(a_full_record_ends_the_game_whole)
{
    game_t *g = NULL;
    uint64_t seed = 0;
    for (uint64_t sd = 1; sd < 500 && !seed; sd++) {
        g = game_new(sd, NULL);
        for (int i = 0; i < 1100 && !game_dead(g); i++)
            game_key(g, '.');
        if (!game_dead(g))
            seed = sd;
        game_free(g);
    }
    ck_assert_uint_ne(seed, 0);
    char sd[32];
    snprintf(sd, sizeof sd, "%llu", (unsigned long long)seed);
    tsrv_t *s = srv_start("--seed", sd, "--set", "record_limit=1024", "--set",
                          "max_keys_per_second=100000", NULL);
    tclient_t *c = play_lobby(srv_port(s));
    play_login_dave(c, 1);
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "HP: ");
    char keys[1025]; /* one more than the record holds: the lobby gets none */
    memset(keys, '.', sizeof keys);
    cl_send_raw(c, keys, sizeof keys, 1, CL_WAIT_MS);
    play_wait_text(c, "Your game reached the longest record this server "
                      "keeps (1024 keys)");
    char want[96];
    snprintf(want, sizeof want, "game over id=1 name=dave seed=%s turns=1025 ", sd);
    ck_assert(srv_wait_log(s, want, CL_WAIT_MS));
    ck_assert(srv_log_has(s, "cause=\"stopped: too long to record\""));
    /* Nothing is left to continue: a new login offers no saved game. */
    cl_close(c);
    tclient_t *b = play_lobby(srv_port(s));
    play_login_dave(b, 0);
    ck_assert(cl_sync(b, CL_WAIT_MS));
    ck_assert(!cl_screen_has(b, "Continue your game"));
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* The server's SQLite file in dir, opened beside it. */
static sqlite3 *open_store(const char *dir)
{
    char path[128];
    snprintf(path, sizeof path, "%s/rogued.db", dir);
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, CL_WAIT_MS); /* the server may be mid-commit */
    return db;
}

/* Holds the test's SQLite file locked for writing: every write of the
 * store fails at its lock timeout. */
static sqlite3 *lock_store(const char *dir)
{
    sqlite3 *db = open_store(dir);
    ck_assert_int_eq(sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL),
                     SQLITE_OK);
    return db;
}

static void unlock_store(sqlite3 *db)
{
    ck_assert_int_eq(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* The database stops taking writes while an account plays (here another
 * process holds it locked): play goes on, the player is told the game is
 * not being saved, the log says so once; when writes work again, the
 * game is kept as before. */
START_TEST(a_failing_store_is_said_on_screen)
{
    char dir[] = "/tmp/rogued-resume-XXXXXX";
    tclient_t *a;
    tsrv_t *s = dave_playing_in(dir, &a);
    sqlite3 *db = lock_store(dir);
    play_walk_keys(a, 3); /* new keys for the store, which cannot take them */
    if (!cl_wait_text(a, "The server cannot save your game right now.",
                      CL_WAIT_MS * 4))
        play_fail(a, "the player was not told");
    ck_assert(srv_log_has(s, "writes are failing"));
    play_walk_keys(a, 3); /* it plays on */
    ck_assert_int_eq(srv_log_count(s, "writes are failing"), 1);
    unlock_store(db);
    play_walk_keys(a, 1);
    ck_assert(srv_wait_log(s, "writes work again", CL_WAIT_MS * 4));
    /* Keys handed over while it failed may be lost: it gets them all. */
    ck_assert(srv_wait_log(s, "progress id=1: sent again whole after the "
                              "store recovered", CL_WAIT_MS));
    int turn = cl_turn(a);
    cl_snap_t before;
    cl_snap(a, &before);
    cl_close(a);
    ck_assert(srv_wait_log(s, "game suspended id=1 name=dave", CL_WAIT_MS));
    /* Nothing was lost: the next login continues at the same screen. */
    tclient_t *b = play_lobby(srv_port(s));
    continue_game(b, turn);
    expect_same(b, &before);
    cl_snap_free(&before);
    cl_close(b);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

/* Writes of games in progress and the store's own (meta) refused, reads
 * not: the shape of a full disk, where batches that write nothing (the
 * keys dropped for the game the failure broke) still commit. */
static const char *const full_disk_on =
    "CREATE TRIGGER full1 BEFORE INSERT ON progress BEGIN"
    " SELECT RAISE(ROLLBACK, 'full'); END;"
    "CREATE TRIGGER full2 BEFORE UPDATE ON progress BEGIN"
    " SELECT RAISE(ROLLBACK, 'full'); END;"
    "CREATE TRIGGER full3 BEFORE INSERT ON progress_keys BEGIN"
    " SELECT RAISE(ROLLBACK, 'full'); END;"
    "CREATE TRIGGER full4 BEFORE UPDATE ON progress_keys BEGIN"
    " SELECT RAISE(ROLLBACK, 'full'); END;"
    "CREATE TRIGGER full5 BEFORE UPDATE ON meta BEGIN"
    " SELECT RAISE(ROLLBACK, 'full'); END";
static const char *const full_disk_off =
    "DROP TRIGGER full1; DROP TRIGGER full2; DROP TRIGGER full3;"
    " DROP TRIGGER full4; DROP TRIGGER full5";

/* The turn a login's offer names ("Continue your game (depth 1, turn
 * N)"), once it is on the screen; -1 if none. */
static int offered_turn(tclient_t *c)
{
    play_wait_text(c, "Continue your game (depth 1, turn ");
    char row[256];
    for (int y = 0; y < 24; y++) {
        const char *at = strstr(cl_row(c, y, row, sizeof row),
                                "Continue your game (depth 1, turn ");
        if (at)
            return atoi(at + strlen("Continue your game (depth 1, turn "));
    }
    return -1;
}

/* Until the game's beginning is in db (its row of progress): the store
 * writes it on its own thread, soon after the game starts, and writes
 * refused before it would leave no saved game to go on from. Waited
 * for; the deadline only ends the wait. */
static void wait_game_begun(sqlite3 *db)
{
    int64_t end = cl_now_ms() + CL_WAIT_MS;
    for (;;) {
        sqlite3_stmt *st;
        ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM "
                                            "progress", -1, &st, NULL),
                         SQLITE_OK);
        int rows = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0)
                                                  : 0;
        sqlite3_finalize(st);
        if (rows > 0)
            return;
        ck_assert_msg(cl_now_ms() < end, "the game's beginning never "
                      "reached the database");
        usleep(20 * 1000);
    }
}

/* Writes of games in progress refused (full_disk_on), once the game's
 * beginning is kept, while dave (a) plays n keys, until he is told his
 * game is not being saved: the database handle that holds the triggers
 * (the caller closes it). */
static sqlite3 *told_not_saving(const char *dir, tclient_t *a, int n)
{
    sqlite3 *db = open_store(dir);
    wait_game_begun(db);
    ck_assert_int_eq(sqlite3_exec(db, full_disk_on, NULL, NULL, NULL),
                     SQLITE_OK);
    play_walk_keys(a, n);
    if (!cl_wait_text(a, "The server cannot save your game right now.",
                      CL_WAIT_MS * 4))
        play_fail(a, "the player was not told");
    return db;
}

/* A shutdown while the store's writes fail does not tell the player the
 * game is saved: it cannot be whole. The player is told the latest turns
 * could not be saved, the log says they may be lost, and the next login
 * (writes working again) goes on from the store's last write, before the
 * turn left. */
START_TEST(a_shutdown_while_writes_fail_does_not_say_saved)
{
    char dir[] = "/tmp/rogued-resume-XXXXXX";
    tclient_t *a;
    tsrv_t *s = dave_playing_in(dir, &a);
    play_walk_keys(a, 5);
    sqlite3 *db = told_not_saving(dir, a, 10);
    play_walk_keys(a, 10); /* turns the store cannot have */
    int turn = cl_turn(a);
    srv_signal(s, SIGTERM);
    ck_assert(srv_wait_log(s, "(kept for the next login; the store is "
                              "failing: the turns since its last write may "
                              "be lost)", CL_WAIT_MS));
    ck_assert(cl_wait_eof(a, CL_WAIT_MS));
    ck_assert(cl_stream_has(a, "The server is shutting down and may not have "
                               "saved your latest\r\nturns: your next login "
                               "goes on from its last save. Goodbye!"));
    ck_assert(!cl_stream_has(a, "your game is saved"));
    srv_stop(s);
    cl_close(a);
    ck_assert_int_eq(sqlite3_exec(db, full_disk_off, NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);

    s = start_in(dir);
    tclient_t *b = play_lobby(srv_port(s));
    play_login_dave(b, 0);
    int saved = offered_turn(b);
    ck_assert_msg(saved >= 0 && saved < turn, "offered turn %d, left at %d",
                  saved, turn);
    cl_close(b);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

/* The console's kick while writes fail: the game is kept, its latest
 * turns not, and the player is told so. */
START_TEST(a_kick_while_writes_fail_says_the_latest_turns_are_lost)
{
    char dir[] = "/tmp/rogued-resume-XXXXXX";
    tclient_t *a;
    tsrv_t *s = dave_playing_in(dir, &a);
    sqlite3 *db = told_not_saving(dir, a, 5);
    char out[4096], cmd[128];
    snprintf(cmd, sizeof cmd, "--data-dir %s kick 1", dir); /* (its own) */
    ck_assert_int_eq(srv_ctl(s, cmd, out, sizeof out), 0);
    ck_assert(cl_wait_eof(a, CL_WAIT_MS));
    ck_assert(cl_stream_has(a, "The server's operator has closed your "
                               "connection.\r\nYour game is kept, but its "
                               "latest turns may not have been saved."));
    ck_assert(!cl_stream_has(a, "kept for your next login"));
    ck_assert(srv_wait_log(s, "the store is failing: the turns since its "
                              "last write may be lost", CL_WAIT_MS));
    cl_close(a);
    sqlite3_close(db);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

/* A game that ends while the store's writes fail may be lost (the store
 * holds it to write once writes work, but loses it if it closes first):
 * the player who quits it is told so, not that it has ended as any
 * other. */
START_TEST(a_game_quit_while_writes_fail_may_be_lost_and_is_said)
{
    char dir[] = "/tmp/rogued-resume-XXXXXX";
    tclient_t *a;
    tsrv_t *s = dave_playing_in(dir, &a);
    sqlite3 *db = told_not_saving(dir, a, 3);
    int turn = cl_turn(a);
    ck_assert(cl_key(a, "Q"));
    ck_assert(cl_key(a, "y"));
    char note[128];
    snprintf(note, sizeof note, "Quit at depth 1, turn %d. It may be lost: "
             "the server cannot save now.", turn);
    play_wait_text(a, note);
    ck_assert(!cl_screen_has(a, "it has ended"));
    sqlite3_close(db);
    cl_close(a);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

/* While writes still fail, the session does not take a batch of reads
 * that commits for a recovery: its game is not sent again whole (to fail
 * again) nor said to be, sweep after sweep; once writes work, it is sent
 * again whole once, and nothing played meanwhile is lost. Each key clears
 * the player's note that the game is not being saved, and a sweep that
 * finds the store still failing puts it back: three keys, three sweeps
 * after batches of dropped keys committed. */
START_TEST(a_game_is_sent_again_only_once_writes_work)
{
    char dir[] = "/tmp/rogued-resume-XXXXXX";
    tclient_t *a;
    tsrv_t *s = dave_playing_in(dir, &a);
    const char *note = "The server cannot save your game right now.";
    const char *again = "progress id=1: sent again whole after the store "
                        "recovered";
    sqlite3 *db = told_not_saving(dir, a, 3);
    ck_assert(srv_wait_log(s, "writes are failing", CL_WAIT_MS));
    for (int i = 0; i < 3; i++) {
        play_walk_keys(a, 1);
        if (!cl_wait_text(a, note, CL_WAIT_MS * 4))
            play_fail(a, "the player was not told again");
    }
    ck_assert_int_eq(srv_log_count(s, again), 0);
    ck_assert_int_eq(srv_log_count(s, "writes work again"), 0);
    ck_assert_int_eq(sqlite3_exec(db, full_disk_off, NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    ck_assert(srv_wait_log(s, "writes work again", CL_WAIT_MS * 4));
    ck_assert(srv_wait_log(s, again, CL_WAIT_MS));
    play_walk_keys(a, 1); /* (the note goes) */
    int turn = cl_turn(a);
    cl_snap_t before;
    cl_snap(a, &before);
    cl_close(a);
    ck_assert(srv_wait_log(s, "game suspended id=1 name=dave", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, again), 1);
    ck_assert_int_eq(srv_log_count(s, "writes are failing"), 1);
    tclient_t *b = play_lobby(srv_port(s));
    continue_game(b, turn);
    expect_same(b, &before);
    cl_snap_free(&before);
    cl_close(b);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

/* The claim on accounts' games cannot be written (a trigger refuses it):
 * every load fails, while logins and registrations, which do not write
 * it, work. */
static const char *const no_claim_on =
    "CREATE TRIGGER no_claim BEFORE UPDATE OF progress_claim ON accounts"
    " BEGIN SELECT RAISE(FAIL, 'refused'); END";

/* A login whose saved game cannot be looked up (the store fails: here
 * the load cannot take its claim) is told so, and p looks again instead
 * of starting a game whose beginning would end the saved one once the
 * store works again; watching a game meanwhile does not change that.
 * When the store answers, the saved game is offered and goes on at the
 * screen left. */
START_TEST(a_failed_lookup_keeps_the_saved_game)
{
    char dir[] = "/tmp/rogued-resume-XXXXXX";
    int turn;
    cl_snap_t before;
    tsrv_t *s = dave_left_in(dir, &turn, &before);

    /* the load fails while a login works (no_claim_on) */
    sqlite3 *db = open_store(dir);
    ck_assert_int_eq(sqlite3_exec(db, no_claim_on, NULL, NULL, NULL),
                     SQLITE_OK);
    tclient_t *b = play_lobby(srv_port(s));
    play_login_dave(b, 0);
    const char *told = "Your saved game, if any, is kept but could not be "
                       "looked up. p looks again.";
    play_wait_text(b, told);
    ck_assert(srv_wait_log_count(s, "progress id=2: not looked up", 1,
                                 CL_WAIT_MS));
    /* p asks again, and is told again: no game begins */
    ck_assert(cl_key(b, "p"));
    ck_assert(srv_wait_log_count(s, "progress id=2: not looked up", 2,
                                 CL_WAIT_MS));
    play_wait_text(b, told);
    /* all the server wrote after the refusal is in before the checks */
    ck_assert(cl_sync(b, CL_WAIT_MS));
    ck_assert(!cl_screen_has(b, "HP: "));
    ck_assert(!srv_log_has(s, "game start id=2"));
    ck_assert_int_eq(sqlite3_exec(db, "DROP TRIGGER no_claim", NULL, NULL,
                                  NULL), SQLITE_OK);
    sqlite3_close(db);

    /* watching a game and back does not forget it: still not looked up */
    tclient_t *g = play_connect(srv_port(s), NULL);
    play_walk_keys(g, 3);
    ck_assert(cl_key(b, "w"));
    play_wait_text(b, "guest");
    ck_assert(cl_key(b, "a"));
    play_wait_text(b, " - q leaves");
    ck_assert(cl_key(b, "q"));
    play_wait_text(b, "Logged in as dave");

    /* the store works: p finds the game, and p again goes on with it */
    ck_assert(cl_key(b, "p"));
    go_on_offered(b, turn);
    ck_assert(!srv_log_has(s, "game start id=2"));
    expect_same(b, &before);
    ck_assert_int_eq(cl_turn(b), turn);
    cl_snap_free(&before);
    cl_close(g);
    cl_close(b);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

/* The claim of dave's game in progress as the database has it, and the
 * account's latest (*account). */
static int64_t game_claim(sqlite3 *db, int64_t *account)
{
    sqlite3_stmt *st;
    ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT p.claim, a.progress_claim"
                                        " FROM progress p JOIN accounts a"
                                        " ON a.id = p.account_id WHERE"
                                        " a.name = 'dave'", -1, &st, NULL),
                     SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    int64_t claim = sqlite3_column_int64(st, 0);
    *account = sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
    return claim;
}

/* A registration is a login: its game begins only under the account's
 * claim, taken by p's load (a game under no claim would write over a
 * later login's elsewhere). While the claim cannot be taken, p is told
 * so and asks again, beginning nothing; once it can, p begins the game,
 * which the database keeps under that claim. */
START_TEST(a_registration_without_its_claim_begins_no_game)
{
    char dir[] = "/tmp/rogued-resume-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    tsrv_t *s = start_in(dir);
    sqlite3 *db = open_store(dir);
    ck_assert_int_eq(sqlite3_exec(db, no_claim_on, NULL, NULL, NULL),
                     SQLITE_OK);
    tclient_t *a = play_lobby(srv_port(s));
    play_login_dave(a, 1);
    const char *told = "The server could not begin your game now. "
                       "p tries again.";
    const char *failed = "progress id=1: not looked up (the store failed)";
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, told);
    ck_assert(srv_wait_log_count(s, failed, 1, CL_WAIT_MS));
    ck_assert(cl_key(a, "p"));
    ck_assert(srv_wait_log_count(s, failed, 2, CL_WAIT_MS));
    play_wait_text(a, told);
    /* all the server wrote after the refusal is in before the checks */
    ck_assert(cl_sync(a, CL_WAIT_MS));
    ck_assert(!cl_screen_has(a, "HP: "));
    ck_assert(!srv_log_has(s, "game start id=1"));

    ck_assert_int_eq(sqlite3_exec(db, "DROP TRIGGER no_claim", NULL, NULL,
                                  NULL), SQLITE_OK);
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    ck_assert(srv_log_has(s, "game start id=1"));
    play_walk_keys(a, 3);
    /* saved now (S): a lookup that fails is said as one of the game this
     * session saved, not "if any" */
    ck_assert_int_eq(sqlite3_exec(db, no_claim_on, NULL, NULL, NULL),
                     SQLITE_OK);
    ck_assert(cl_key(a, "S"));
    play_wait_text(a, "Your saved game could not be looked up: it is kept. "
                      "p looks again.");
    ck_assert(!cl_screen_has(a, told));
    ck_assert_int_eq(sqlite3_exec(db, "DROP TRIGGER no_claim", NULL, NULL,
                                  NULL), SQLITE_OK);
    cl_close(a);
    ck_assert(srv_wait_log(s, "game suspended id=1 name=dave", CL_WAIT_MS));
    srv_stop(s); /* every write of the game in the database */
    int64_t latest, claim = game_claim(db, &latest);
    ck_assert_int_gt(claim, 0);
    ck_assert_int_eq(claim, latest);
    sqlite3_close(db);
    srv_remove_tree(dir);
}
END_TEST

/* The saved game's keys damaged (a byte more, the start of a varint cut
 * short: the rebuild fails with "a damaged record"), and mended. */
static const char *const damage_keys =
    "INSERT INTO progress_keys (account_id, pos, keys)"
    " SELECT account_id, keys_len, X'80' FROM progress;"
    "UPDATE progress SET keys_len = keys_len + 1";
static const char *const mend_keys =
    "DELETE FROM progress_keys WHERE pos ="
    " (SELECT keys_len - 1 FROM progress);"
    "UPDATE progress SET keys_len = keys_len - 1";

/* A saved game whose rebuild fails outright (here a damaged record) is
 * kept: the login is told so, and p rebuilds it again (and is told
 * again) instead of starting a game whose beginning would end the saved
 * one. Mended, the next p offers the game, and it goes on at the screen
 * left. */
START_TEST(a_game_that_does_not_rebuild_is_kept)
{
    char dir[] = "/tmp/rogued-resume-XXXXXX";
    int turn;
    cl_snap_t before;
    tsrv_t *s = dave_left_in(dir, &turn, &before);
    /* stopped, every key is in the database (a write still queued would
     * append after the damage): damaged, then a server again */
    srv_stop(s);
    sqlite3 *db = open_store(dir);
    ck_assert_int_eq(sqlite3_exec(db, damage_keys, NULL, NULL, NULL),
                     SQLITE_OK);
    s = start_in(dir);

    tclient_t *b = play_lobby(srv_port(s));
    play_login_dave(b, 0);
    const char *told = "Your saved game cannot be rebuilt. p tries again; n "
                       "ends it for a new game.";
    const char *failed = "resume id=1: the game does not rebuild: a damaged "
                         "record";
    play_wait_text(b, told);
    ck_assert(srv_wait_log_count(s, failed, 1, CL_WAIT_MS));
    /* p rebuilds it again, and is told again: no game begins */
    ck_assert(cl_key(b, "p"));
    ck_assert(srv_wait_log_count(s, failed, 2, CL_WAIT_MS));
    play_wait_text(b, told);
    /* all the server wrote after the refusal is in before the checks */
    ck_assert(cl_sync(b, CL_WAIT_MS));
    ck_assert(!cl_screen_has(b, "HP: "));
    ck_assert(!srv_log_has(s, "game start id=1"));
    ck_assert(!srv_log_has(s, "game over"));

    /* mended: p finds it, and p again goes on with it */
    ck_assert_int_eq(sqlite3_exec(db, mend_keys, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    ck_assert(cl_key(b, "p"));
    go_on_offered(b, turn);
    ck_assert(!srv_log_has(s, "game start id=1"));
    expect_same(b, &before);
    ck_assert_int_eq(cl_turn(b), turn);
    cl_snap_free(&before);
    cl_close(b);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

/* A saved game that does not rebuild (damaged) is the player's to end:
 * n, said beside p, begins a new game, whose beginning ends it. */
START_TEST(a_game_that_does_not_rebuild_is_ended_by_n)
{
    char dir[] = "/tmp/rogued-resume-XXXXXX";
    tsrv_t *s = dave_left_in(dir, NULL, NULL);
    srv_stop(s);
    sqlite3 *db = open_store(dir);
    ck_assert_int_eq(sqlite3_exec(db, damage_keys, NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    s = start_in(dir);

    tclient_t *b = play_lobby(srv_port(s));
    play_login_dave(b, 0);
    play_wait_text(b, "Your saved game cannot be rebuilt. p tries again; n "
                      "ends it for a new game.");
    ck_assert(!srv_log_has(s, "ended by its player"));
    ck_assert(cl_key(b, "n"));
    play_wait_text(b, "HP: ");
    ck_assert(srv_wait_log(s, "resume id=1: the saved game that does not "
                              "rebuild is ended by its player", CL_WAIT_MS));
    ck_assert(srv_log_has(s, "game start id=1"));
    cl_close(b);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

/* After a crash, everything older than a second is there: the keys the
 * log says were handed to the store a sweep before the kill (debug log
 * "progress id=N bytes=B": one byte per key here). */
START_TEST(sigkill_loses_at_most_the_last_second)
{
    char dir[] = "/tmp/rogued-resume-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)play_walk_seed());
    /* Every key counts here (the test replays them): no rate limit. */
    tsrv_t *s = srv_start("--seed", seed, "--data-dir", dir, "--log-level",
                          "debug", "--set", "max_keys_per_second=100000", NULL);
    tclient_t *a = play_lobby(srv_port(s));
    play_login_dave(a, 1);
    int turn40, last = play_walk_saved(s, a, &turn40);
    srv_kill(s);
    cl_close(a);

    s = srv_start("--seed", seed, "--data-dir", dir, NULL);
    tclient_t *b = play_lobby(srv_port(s));
    play_login_dave(b, 0);
    int turn = play_continue(b, turn40, last);
    /* And it is the very game: the same keys in-process reach that turn on
     * the same screen (the test plays its own copy). */
    static const int calls[] = { 40, 10, 5 }; /* as play_keys was called */
    play_expect_walked(b, strtoull(seed, NULL, 10), calls, 3, turn);
    cl_close(b);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

START_TEST(replay_from_the_hall_of_fame_reaches_the_final_screen)
{
    tsrv_t *s;
    tclient_t *c;
    game_t *g = plan_death_setup(NULL, &s, &c, NULL, NULL);
    ck_assert(cl_key(c, "q"));
    play_wait_text(c, "Play as guest1");

    tclient_t *r = play_lobby(srv_port(s));
    ck_assert(cl_key(r, "s"));
    play_wait_text(r, "Hall of fame");
    ck_assert(cl_key(r, "a"));
    play_wait_text(r, "Replay: guest1");
    /* Space pauses; . steps exactly one turn; space goes on. */
    ck_assert(cl_key(r, " "));
    play_wait_text(r, ", paused");
    ck_assert(cl_sync(r, CL_WAIT_MS));
    int t0 = cl_turn(r);
    ck_assert(cl_key(r, "."));
    ck_assert_int_eq(cl_turn(r), t0 + 1);
    ck_assert(cl_key(r, "."));
    ck_assert_int_eq(cl_turn(r), t0 + 2);
    ck_assert(cl_screen_has(r, ", paused"));
    /* Slower, to the slowest: 10, 5, 2, 1 key a second. */
    for (int i = 0; i < 3; i++)
        ck_assert(cl_key(r, "-"));
    play_wait_text(r, "Replay: guest1, 1 key/s, paused - space + - . q");
    ck_assert(cl_key(r, " "));
    /* Faster: 100 keys a second. */
    for (int i = 0; i < 6; i++)
        ck_assert(cl_key(r, "+"));
    play_wait_replay_end(r);
    /* The final screen is the game's own: a log row (20-22) carries the
     * replay's line at its end, after the game's words, whole (no map
     * cell is hidden); the other rows are the game's. */
    play_expect_rows(r, g, 0, 12, 0, -1);
    play_expect_rows(r, g, 14, 19, 0, -1);
    play_expect_replay_log(r, g, 20, 23);
    /* but for the end box's keys: a replay's go back to the lobby */
    char row13[128];
    ck_assert_str_eq(cl_row(r, 13, row13, sizeof row13),
                     "               |          Esc or q: back to the lobby"
                     "           |");
    game_free(g);
    ck_assert(cl_key(r, "q"));
    play_wait_text(r, "Play (as a guest)");
    cl_close(r);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* From the lobby (a saved game held), the watch list's first game,
 * guest2's (o): refused with the note, the list still shown, no watch
 * begun and o not told of a watcher. */
static void watch_refused(tsrv_t *s, tclient_t *a, tclient_t *o)
{
    ck_assert(cl_key(a, "w"));
    play_wait_text(a, "Games in progress");
    play_wait_text(a, "guest2");
    ck_assert(cl_key(a, "a"));
    play_wait_text(a, "Continue your own game first.");
    ck_assert(cl_sync(a, CL_WAIT_MS));
    if (cl_screen_has(a, "Watching") || !cl_screen_has(a, "Games in progress"))
        play_fail(a, "not the list after a watch refused");
    ck_assert(cl_key(o, "."));
    if (cl_screen_has(o, "watching"))
        play_fail(o, "the player is told of a watcher");
    ck_assert(!srv_log_has(s, "watches id="));
    ck_assert(cl_key(a, "q"));
    play_wait_text(a, "Watch a game");
}

/* From the lobby (a saved game held), the hall of fame's first game,
 * guest1's: refused with the note on the hint's row, under the list,
 * which stays; no replay begun. Back to the menu. */
static void replay_refused(tsrv_t *s, tclient_t *a)
{
    ck_assert(cl_key(a, "s"));
    play_wait_text(a, "Hall of fame");
    play_wait_text(a, "guest1");
    ck_assert(cl_key(a, "a"));
    play_wait_text(a, "Continue your own game first.");
    ck_assert(cl_sync(a, CL_WAIT_MS));
    char row[128];
    ck_assert_str_eq(cl_row(a, cl_h(a) - 1, row, sizeof row),
                     "                         Continue your own game first.");
    if (cl_screen_has(a, "Replay:") || !cl_screen_has(a, "Hall of fame"))
        play_fail(a, "not the hall of fame after a replay refused");
    ck_assert(!srv_log_has(s, "replay id="));
    ck_assert(cl_key(a, "x"));
    play_wait_text(a, "Watch a game");
}

/* An account's saved game comes first: picking a game to watch, or a
 * finished game to replay from the hall of fame, says "Continue your own
 * game first." and starts neither, and p then goes on with the saved
 * game at the very screen it was left at. */
START_TEST(a_saved_game_comes_before_a_watch_or_a_replay)
{
    tsrv_t *s;
    tclient_t *g; /* guest1, dead: a game to replay */
    game_free(plan_death_setup(NULL, &s, &g, NULL, "--set", WAIT_ANSWERS,
                               NULL));
    ck_assert(cl_key(g, "q"));
    play_wait_text(g, "Play as guest1");
    tclient_t *o = play_connect(srv_port(s), NULL); /* guest2: a watch */
    tclient_t *a = play_lobby(srv_port(s));
    play_login_dave(a, 1);
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    ck_assert(cl_key(a, "."));
    int turn = cl_turn(a);
    cl_snap_t before;
    cl_snap(a, &before);
    ck_assert(cl_key(a, "S"));
    char offer[64];
    snprintf(offer, sizeof offer, "Continue your game (depth 1, turn %d)", turn);
    play_wait_text(a, offer); /* (keys wait for it: the lobby is busy) */
    watch_refused(s, a, o);
    replay_refused(s, a);
    go_on_offered(a, turn);
    expect_same(a, &before);
    cl_snap_free(&before);
    cl_close(o);
    cl_close(a);
    cl_close(g);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("resume");
    TCase *tc = tcase_create("resume");
    tcase_set_timeout(tc, 90);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, dropped_connection_continues_on_the_same_screen);
    tcase_add_test(tc, save_and_leave_goes_on_from_the_lobby);
    tcase_add_test(tc, sigterm_and_restart_continue_on_the_same_screen);
    tcase_add_test(tc, sighup_keeps_every_game);
    tcase_add_test(tc, a_full_record_ends_the_game_whole);
    tcase_add_test(tc, a_failing_store_is_said_on_screen);
    tcase_add_test(tc, a_game_is_sent_again_only_once_writes_work);
    tcase_add_test(tc, a_shutdown_while_writes_fail_does_not_say_saved);
    tcase_add_test(tc, a_kick_while_writes_fail_says_the_latest_turns_are_lost);
    tcase_add_test(tc, a_game_quit_while_writes_fail_may_be_lost_and_is_said);
    tcase_add_test(tc, a_failed_lookup_keeps_the_saved_game);
    tcase_add_test(tc, a_game_that_does_not_rebuild_is_kept);
    tcase_add_test(tc, a_game_that_does_not_rebuild_is_ended_by_n);
    tcase_add_test(tc, a_registration_without_its_claim_begins_no_game);
    tcase_add_test(tc, sigkill_loses_at_most_the_last_second);
    tcase_add_test(tc, replay_from_the_hall_of_fame_reaches_the_final_screen);
    tcase_add_test(tc, a_saved_game_comes_before_a_watch_or_a_replay);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
