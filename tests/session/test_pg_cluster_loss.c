/* test_pg_cluster_loss.c - two hosts on one PostgreSQL database (played
 * directly, no balancer) when one of them loses the database for a while:
 * what a watcher on the other is told, and which of an account's sessions
 * keeps its game (docs/hosting.md, "Several hosts" and "One account, one
 * host"). test_pg_cluster.c has the hosts behind HAProxy.
 *
 * a_host_back_from_a_short_loss_is_seen_to_have_gone: one host loses its
 * cluster connection for less time than the others take to count a host
 * gone; a watcher of its game on the other host is told the game's host
 * has gone away (its feed ended with the connection), and a new watch of
 * the game, listed under the host's new name, sees each move.
 *
 * a_login_waits_for_a_host_back_from_a_loss: dave plays on a host that
 * has just lost its cluster connection (still listed); he logs in on the
 * other, which hears no answer, looks again, asks the host under the new
 * name it comes back with, and continues the game at its very turn.
 *
 * a_host_back_from_a_long_loss_lets_the_later_login_play: a host away for
 * longer, seen gone; dave's login on the other goes on from the database.
 * Back, the host lets its session of dave go unsaved; the other's game
 * goes on, and the database has it.
 *
 * a_host_cut_off_cannot_overwrite_the_later_login: a host away from the
 * database altogether (its cluster and its store's writes) plays on;
 * dave's later login on the other goes on from the database. When the
 * first host's writes work again, its game sent whole is refused (the
 * later login's claim: store.h), it lets dave go, and the database keeps
 * the other host's game.
 *
 * the_later_claim_keeps_the_game_whatever_was_published_first: dave's
 * session on a host back from a loss is published after his later login
 * on the other host, yet loaded under an older claim: it goes, the later
 * claim's plays on.
 *
 * Run by tests/run-tests.sh's cluster family (make cluster: a throwaway
 * PostgreSQL, a database of each test's own). */
#include <check.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "pg_cluster_setup.h"
#include "pg_hosts.h"
#include "play.h"
#include "store_where.h"

/* Host `name`'s last heartbeat never looks old to the other hosts (as
 * in the first seconds after it, however long the test takes). */
static void keep_fresh(const char *name)
{
    char sql[256];
    sw_exec("CREATE FUNCTION keep_seen() RETURNS trigger LANGUAGE plpgsql AS"
            " $$BEGIN NEW.seen := greatest(NEW.seen, OLD.seen); RETURN NEW;"
            " END$$");
    sw_exec("CREATE TRIGGER keep_seen BEFORE UPDATE ON rogued_hosts FOR EACH"
            " ROW EXECUTE FUNCTION keep_seen()");
    snprintf(sql, sizeof sql, "UPDATE rogued_hosts SET seen = now() +"
             " interval '1 hour' WHERE host = '%s'", name);
    sw_exec(sql);
}

/* x (named `name`) loses its cluster connection and is seen gone by the
 * others (its heartbeat made 6 s old), its rows held so that they are
 * not forgotten yet; returns the hold, for presence_rows_release. */
static PGconn *cut_seen_gone(tsrv_t *x, const char *name)
{
    char sql[256];
    PGconn *hold = presence_rows_hold(name);
    cluster_cut(x);
    ck_assert(srv_wait_log(x, "cluster: lost the database", CL_WAIT_MS));
    snprintf(sql, sizeof sql, "UPDATE rogued_hosts SET seen = now() -"
             " interval '6 seconds' WHERE host = '%s'", name);
    sw_exec(sql);
    return hold;
}

/* Waits until host `host` has a presence row of dave (that plays, if
 * playing), and then (if alone) until no other host has one. */
static void dave_row_on(const char *host, int playing, int alone)
{
    char sql[384];
    const char *dave = "(SELECT id FROM accounts WHERE name = 'dave')";
    snprintf(sql, sizeof sql, "SELECT count(*) FROM rogued_online WHERE"
             " account_id = %s AND host = '%s'%s", dave, host,
             playing ? " AND playing" : "");
    ck_assert_msg(sw_int_reaches(sql, 1) == 1, "%s has no row of dave", host);
    if (!alone)
        return;
    snprintf(sql, sizeof sql, "SELECT (count(*) = 0)::int FROM rogued_online"
             " WHERE account_id = %s AND host <> '%s'", dave, host);
    ck_assert_msg(sw_int_reaches(sql, 1) == 1, "another host than %s has a "
                  "row of dave", host);
}

/* x loses its cluster connection for less than the 5 s after which the
 * other hosts count a host gone (and here, for as long as it likes: its
 * last heartbeat's time is kept fresh for an hour). Its watch feeds end
 * then; a watcher of its game on y must be told so, not left before a
 * game that no longer moves: x comes back under a new name, its old rows
 * gone, so y ends the watch as for a host that went away, and lists x's
 * game again under the new name, where a new watch sees each move. */
START_TEST(a_host_back_from_a_short_loss_is_seen_to_have_gone)
{
    char seed[32], name[CLUSTER_NAME_LEN], sql[512];
    cluster_setup(seed, sizeof seed);
    tsrv_t *x, *y;
    int walked = 0;
    tclient_t *w, *a = dave_watched(seed, &x, &y, &walked, &w);
    int turn;

    /* x's heartbeat under its name never looks old to y */
    cluster_name(x, name);
    keep_fresh(name);

    /* x's cluster connections (not y's) end; x connects again */
    cluster_cut(x);
    ck_assert(srv_wait_log(x, "cluster: lost the database", CL_WAIT_MS));
    ck_assert(srv_wait_log_count(x, "listening on the database", 2,
                                 CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(y, "cluster: lost the database"), 0);
    if (!cl_wait_text(w, "The game's host has gone away.", 2 * CL_WAIT_MS))
        play_fail(w, "the watch of a game whose host lost the database (and "
                  "its feed) did not end");
    snprintf(sql, sizeof sql, "SELECT count(*) FROM rogued_hosts WHERE host"
             " = '%s'", name);
    ck_assert_int_eq(sw_int(sql), 0);

    /* watched again, from y's list: under x's new name */
    tclient_t *v = watch_dave_from(y);
    walk_on(a, &walked, 1);
    turn = cl_turn(a);
    if (!cl_wait(v, cl_at_turn, &turn, CL_WAIT_MS))
        play_fail(v, "dave's move to turn %d did not reach the new watch",
                  turn);

    cl_close(v);
    cl_close(w);
    cl_close(a);
    cluster_teardown(x, y);
}
END_TEST

/* A test's start: dave plays on x (dave_on_x), and x has published
 * him; name and yname: x's and y's cluster names. */
static tclient_t *dave_on_named_x(char *seed, size_t n, tsrv_t **x,
                                  tsrv_t **y, int *walked,
                                  char name[CLUSTER_NAME_LEN],
                                  char yname[CLUSTER_NAME_LEN])
{
    cluster_setup(seed, n);
    tclient_t *a = dave_on_x(seed, x, y, walked);
    cluster_name(*x, name);
    cluster_name(*y, yname);
    dave_row_on(name, 1, 1);
    return a;
}

/* x loses its cluster connection, and cannot connect again for a while,
 * while its game plays on (its store saves it); to y its heartbeat under
 * its old name still looks fresh, as in the first seconds of a loss. dave,
 * who plays on x, logs in on y: y asks x under the old name, where nobody
 * listens. No answer comes in the usual time, and y does not go on from
 * the database with x's game still live: it looks again, and once x is
 * back (under a new name) asks it there; x lets go, and y continues at
 * x's very turn. One host plays dave: y. */
START_TEST(a_login_waits_for_a_host_back_from_a_loss)
{
    char seed[32], name[CLUSTER_NAME_LEN], yname[CLUSTER_NAME_LEN], want[64];
    tsrv_t *x, *y;
    int walked = 0;
    tclient_t *a = dave_on_named_x(seed, sizeof seed, &x, &y, &walked, name,
                                   yname);
    keep_fresh(name);

    PGconn *hold = presence_rows_hold(name);
    cluster_cut(x);
    ck_assert(srv_wait_log(x, "cluster: lost the database", CL_WAIT_MS));
    walk_on(a, &walked, 2);
    int last = cl_turn(a);
    ck_assert(srv_wait_log(x, "progress id=1 bytes=5", CL_WAIT_MS));

    /* dave logs in on y, which asks x where x does not listen; dave sees
     * the lobby wait, as for any takeover */
    tclient_t *t = play_lobby(srv_port(y));
    play_login_dave(t, 0);
    ck_assert(srv_wait_log(y, "asking it to let go", CL_WAIT_MS));
    if (!cl_wait_text(t, "One moment...", CL_WAIT_MS))
        fail_with_logs(t, x, y, "the login on y does not wait");
    presence_rows_release(hold);
    if (!srv_wait_log(y, "looking again for the hosts that have it",
                      CL_WAIT_MS))
        fail_with_logs(t, x, y, "y did not look again for dave's host");

    /* x, back under a new name, is asked there and lets go */
    snprintf(want, sizeof want, "Continue your game (depth 1, turn %d)", last);
    if (!cl_wait_text(t, want, CL_WAIT_MS))
        fail_with_logs(t, x, y, "y does not offer dave's game at x's turn");
    if (!cl_wait_text(a, "Your account has logged in from elsewhere",
                      CL_WAIT_MS))
        fail_with_logs(a, x, y, "x's session of dave was not let go");
    ck_assert(srv_log_has(x, "this host lets go of its 1 session"));
    ck_assert(srv_log_has(y, "every key is in the database"));
    ck_assert(!srv_log_has(y, "did not answer"));
    ck_assert_int_eq(srv_log_count(x, "listening on the database"), 2);

    /* and y plays on, the one host with dave */
    ck_assert(cl_key(t, "p"));
    play_wait_text(t, "HP: ");
    ck_assert(cl_sync(t, CL_WAIT_MS));
    ck_assert_int_eq(cl_turn(t), last);
    walk_on(t, &walked, 1);
    ck_assert_int_eq(cl_turn(t), last + 1);
    dave_row_on(yname, 1, 1);
    ck_assert(!srv_log_has(x, "without saving"));

    cl_close(t);
    cl_close(a);
    cluster_teardown(x, y);
}
END_TEST

/* x loses its cluster connection for longer than a login waits: y sees x
 * gone (its heartbeat made old), and dave's login on y goes on from the
 * database, while x's session of him plays on. When x is back, its
 * session of dave (logged in before y's, which plays) lets go without
 * saving: dave there is told, as for a second login; y's game goes on,
 * and is the one the database keeps. */
START_TEST(a_host_back_from_a_long_loss_lets_the_later_login_play)
{
    char seed[32], name[CLUSTER_NAME_LEN], yname[CLUSTER_NAME_LEN], want[64];
    tsrv_t *x, *y;
    int walked = 0;
    tclient_t *a = dave_on_named_x(seed, sizeof seed, &x, &y, &walked, name,
                                   yname);
    int last = cl_turn(a);
    ck_assert(srv_wait_log(x, "progress id=1 bytes=3", CL_WAIT_MS));

    /* (seen gone, not yet forgotten: its rows stay, held) */
    PGconn *hold = cut_seen_gone(x, name);

    /* y sees no host with dave: his game goes on there */
    tclient_t *t = play_lobby(srv_port(y));
    play_login_dave(t, 0);
    snprintf(want, sizeof want, "Continue your game (depth 1, turn %d)", last);
    if (!cl_wait_text(t, want, CL_WAIT_MS))
        fail_with_logs(t, x, y, "y does not offer dave's game");
    ck_assert(!srv_log_has(y, "asking it to let go"));
    ck_assert(cl_key(t, "p"));
    play_wait_text(t, "HP: ");
    walk_on(t, &walked, 2);
    int ylast = cl_turn(t);
    ck_assert_int_gt(ylast, last);
    dave_row_on(yname, 1, 0);
    ck_assert(!cl_screen_has(a, "logged in from elsewhere"));

    /* x is back: its session of dave goes, unsaved */
    presence_rows_release(hold);
    if (!cl_wait_text(a, "Your account has logged in from elsewhere",
                      CL_WAIT_MS))
        fail_with_logs(a, x, y, "x's session of dave was not let go");
    ck_assert(srv_wait_log(x, "let go unsaved at turn", CL_WAIT_MS));
    ck_assert(srv_log_has(x, "without saving"));
    /* (neither suspended nor handed over: nothing written) */
    ck_assert(!srv_log_has(x, "game suspended"));
    ck_assert(!srv_log_has(x, "takes the game of"));
    dave_row_on(yname, 1, 1);

    /* y's game goes on, and the database has it: dave leaves y and
     * comes back at y's turn */
    ck_assert(cl_key(t, "."));
    ck_assert_int_eq(cl_turn(t), ylast + 1);
    cl_close(t);
    ck_assert(srv_wait_log(y, "game suspended", CL_WAIT_MS));
    t = play_lobby(srv_port(y));
    play_login_dave(t, 0);
    snprintf(want, sizeof want, "Continue your game (depth 1, turn %d)",
             ylast + 1);
    if (!cl_wait_text(t, want, CL_WAIT_MS))
        fail_with_logs(t, x, y, "the database does not have y's game");

    cl_close(t);
    cl_close(a);
    cluster_teardown(x, y);
}
END_TEST

/* Host x's store connection (not its cluster's) has every write of a
 * game in progress fail, as a database x cannot reach would, until
 * store_back: its batches fail (the store says writes are failing) and
 * its games play on, not saved. */
static void store_cut(tsrv_t *x)
{
    char ports[256], sql[512];
    ck_assert_int_gt(tcp_ports_of(srv_pid(x), ports, sizeof ports), 0);
    sw_exec("CREATE TABLE cut_off (pid integer PRIMARY KEY)");
    sw_exec("CREATE FUNCTION cut_off() RETURNS trigger LANGUAGE plpgsql AS"
            " $$BEGIN IF EXISTS (SELECT 1 FROM cut_off WHERE pid ="
            " pg_backend_pid()) THEN RAISE EXCEPTION 'cut off'; END IF;"
            " RETURN NULL; END$$");
    sw_exec("CREATE TRIGGER cut_off BEFORE INSERT OR UPDATE OR DELETE ON"
            " progress FOR EACH STATEMENT EXECUTE FUNCTION cut_off()");
    sw_exec("CREATE TRIGGER cut_off BEFORE INSERT OR UPDATE OR DELETE ON"
            " progress_keys FOR EACH STATEMENT EXECUTE FUNCTION cut_off()");
    snprintf(sql, sizeof sql, "WITH i AS (INSERT INTO cut_off SELECT pid FROM"
             " pg_stat_activity WHERE application_name = 'rogued' AND"
             " client_port IN (%s) RETURNING 1) SELECT count(*) FROM i",
             ports);
    ck_assert_int_eq(sw_int(sql), 1);
}

static void store_back(void)
{
    sw_exec("DELETE FROM cut_off");
}

/* The window the claims close (docs/hosting.md, "One account, one
 * host"): x cannot reach the database at all (neither its cluster
 * connection nor its store's writes), and plays on; dave's login on y
 * goes on from the database and plays further. When x's writes work
 * again, its store sends x's game again whole: refused, for y's later
 * claim; x lets dave go (the cluster, still away, tells it nothing), and
 * the database keeps y's game, at y's turn. Before the claims, x's game
 * replaced y's. */
START_TEST(a_host_cut_off_cannot_overwrite_the_later_login)
{
    char seed[32], name[CLUSTER_NAME_LEN], yname[CLUSTER_NAME_LEN], want[64];
    tsrv_t *x, *y;
    int walked = 0;
    tclient_t *a = dave_on_named_x(seed, sizeof seed, &x, &y, &walked, name,
                                   yname);
    int saved = cl_turn(a);
    ck_assert(srv_wait_log(x, "progress id=1 bytes=3", CL_WAIT_MS));

    /* x loses the database: its cluster (seen gone, its rows held) and
     * its store's writes; dave plays on there, unsaved */
    PGconn *hold = cut_seen_gone(x, name);
    store_cut(x);
    walk_on(a, &walked, 2);
    if (!cl_wait_text(a, "cannot save your game", CL_WAIT_MS))
        fail_with_logs(a, x, y, "x's store does not fail");
    ck_assert(srv_wait_log(x, "writes are failing", CL_WAIT_MS));
    int xlast = cl_turn(a);
    ck_assert_int_gt(xlast, saved);

    /* dave on y: the database's game, played 4 turns further */
    tclient_t *t = play_lobby(srv_port(y));
    play_login_dave(t, 0);
    snprintf(want, sizeof want, "Continue your game (depth 1, turn %d)",
             saved);
    if (!cl_wait_text(t, want, CL_WAIT_MS))
        fail_with_logs(t, x, y, "y does not offer the database's game");
    ck_assert(cl_key(t, "p"));
    play_wait_text(t, "HP: ");
    int ywalk = 100;
    walk_on(t, &ywalk, 4);
    int ylast = cl_turn(t);
    ck_assert_int_ne(ylast, xlast);
    ck_assert(srv_wait_log(y, "progress id=1 bytes=7", CL_WAIT_MS));

    /* x's writes work again (its cluster still away), and dave there
     * plays on: the store tries again, and its game sent whole is
     * refused; dave there is let go */
    store_back();
    walk_on(a, &walked, 1);
    if (!srv_wait_log(x, "sent again whole after the store recovered",
                      CL_WAIT_MS))
        fail_with_logs(a, x, y, "x does not send its game again");
    if (!cl_wait_text(a, "Your account has logged in from elsewhere",
                      CL_WAIT_MS))
        fail_with_logs(a, x, y, "x's session of dave was not let go");
    ck_assert(srv_wait_log(x, "a later login's claim holds the game: let go "
                           "unsaved", CL_WAIT_MS));
    ck_assert(srv_log_has(x, "a later login holds its game in progress"));
    ck_assert(!srv_log_has(x, "game suspended"));

    /* the database has y's game: dave leaves y and comes back at y's
     * turn */
    cl_close(t);
    ck_assert(srv_wait_log(y, "game suspended", CL_WAIT_MS));
    t = play_lobby(srv_port(y));
    play_login_dave(t, 0);
    snprintf(want, sizeof want, "Continue your game (depth 1, turn %d)",
             ylast);
    if (!cl_wait_text(t, want, CL_WAIT_MS))
        fail_with_logs(t, x, y, "the database does not have y's game");

    presence_rows_release(hold);
    cl_close(t);
    cl_close(a);
    cluster_teardown(x, y);
}
END_TEST

/* Which of two hosts' sessions of an account is the later login is told
 * by the claims their games were loaded under, as the store tells it
 * (docs/hosting.md, "One account, one host"), not by when each host
 * published them: the two could disagree (logins on two hosts within a
 * heartbeat of each other), each rule then letting a different session
 * go, and both players lost their game. Here they disagree for certain:
 * dave logs in on x again while x is away (the game moves to that
 * session, under x's claim), then on y, which sees nobody play him and
 * looks the game up from the database under a later claim; x, back,
 * publishes its session after y's. x's session, playing, goes, unsaved;
 * y's, still at the lobby's offer, stays and plays the game. */
START_TEST(the_later_claim_keeps_the_game_whatever_was_published_first)
{
    char seed[32], name[CLUSTER_NAME_LEN], yname[CLUSTER_NAME_LEN], want[64];
    tsrv_t *x, *y;
    int walked = 0;
    tclient_t *a = dave_on_named_x(seed, sizeof seed, &x, &y, &walked, name,
                                   yname);
    int last = cl_turn(a);
    ck_assert(srv_wait_log(x, "progress id=1 bytes=3", CL_WAIT_MS));
    PGconn *hold = cut_seen_gone(x, name);

    /* dave again on x, which can ask nobody: the game moves there (at
     * once: the lobby's "Logged in as" may never be drawn) */
    tclient_t *b = play_lobby(srv_port(x));
    ck_assert(cl_key(b, "l"));
    play_type_line(b, "dave");
    play_type_line(b, "davespassword");
    if (!cl_wait_text(a, "Your account has logged in from elsewhere",
                      CL_WAIT_MS))
        fail_with_logs(a, x, y, "x's first session of dave stayed");
    play_wait_text(b, "HP: ");
    ck_assert_int_eq(cl_turn(b), last);

    /* on y, from the database, under a later claim, taken as the login
     * looks the game up: the player is offered it */
    tclient_t *t = play_lobby(srv_port(y));
    play_login_dave(t, 0);
    snprintf(want, sizeof want, "Continue your game (depth 1, turn %d)", last);
    if (!cl_wait_text(t, want, CL_WAIT_MS))
        fail_with_logs(t, x, y, "y does not offer dave's game");
    dave_row_on(yname, 0, 0);

    /* x back: its session, published after y's and playing, is the older
     * claim; y's, not playing yet, the later */
    presence_rows_release(hold);
    if (!cl_wait_text(b, "Your account has logged in from elsewhere",
                      CL_WAIT_MS))
        fail_with_logs(b, x, y, "x's session of dave was not let go");
    ck_assert(srv_wait_log(x, "let go unsaved at turn", CL_WAIT_MS));
    ck_assert(srv_log_has(x, "without saving"));
    dave_row_on(yname, 0, 1);
    ck_assert(!srv_log_has(y, "went on on"));
    ck_assert(!cl_screen_has(t, "logged in from elsewhere"));

    /* y's game goes on */
    ck_assert(cl_key(t, "p"));
    play_wait_text(t, "HP: ");
    ck_assert_int_eq(cl_turn(t), last);
    walk_on(t, &walked, 2);
    ck_assert_int_gt(cl_turn(t), last);
    dave_row_on(yname, 1, 1);
    ck_assert(!srv_log_has(y, "went on on"));

    cl_close(t);
    cl_close(b);
    cl_close(a);
    cluster_teardown(x, y);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pg_cluster_loss");
    TCase *away = tcase_create("away");
    tcase_set_timeout(away, 240);
    tcase_add_unchecked_fixture(away, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(away, a_host_back_from_a_short_loss_is_seen_to_have_gone);
    suite_add_tcase(s, away);
    TCase *loss = tcase_create("loss");
    tcase_set_timeout(loss, 240);
    tcase_add_unchecked_fixture(loss, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(loss, a_login_waits_for_a_host_back_from_a_loss);
    tcase_add_test(loss, a_host_back_from_a_long_loss_lets_the_later_login_play);
    tcase_add_test(loss, a_host_cut_off_cannot_overwrite_the_later_login);
    suite_add_tcase(s, loss);
    TCase *claims = tcase_create("claims");
    tcase_set_timeout(claims, 240);
    tcase_add_unchecked_fixture(claims, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(claims,
                   the_later_claim_keeps_the_game_whatever_was_published_first);
    suite_add_tcase(s, claims);
    return s;
}

CHECK_MAIN(make_suite)
