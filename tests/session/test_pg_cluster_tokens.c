/* test_pg_cluster_tokens.c - a browser page's login token (web_login_grace)
 * on hosts that share one PostgreSQL database, played directly (no
 * balancer): a page that dropped on one host must not come back there and
 * take the game from a login on another (docs/hosting.md, web_login_grace
 * and "What the hosts share, and how").
 *
 * a_dropped_page_cannot_take_the_game_back_from_another_host: wendy's
 * page drops on x, which publishes its token (a held row); she logs in on
 * y with her password and plays on. y's login asked x to let go, and x
 * forgot the token (cluster_give_start, though x has no session of her):
 * the page back on x with it lands logged out, told its visit has ended,
 * and y's game goes on untouched.
 *
 * a_host_away_from_the_database_refuses_its_tokens: x loses its cluster
 * connection (the others could not ask it to let go): a page back there
 * with its token is refused as a spent token is; and once x is back, the
 * token of another page that dropped before the loss has been forgotten
 * (a login elsewhere could have missed x meanwhile).
 *
 * a_heartbeat_that_commits_late_forgets_the_tokens: two heartbeats of x
 * held up on its row (locks the test holds), the second going in after y
 * counted x gone and wendy logged in on y asking nobody: x forgets its
 * tokens, however long the statements took, and her page back on x lands
 * logged out.
 *
 * a_dead_host_with_only_a_token_is_not_waited_for: x, holding only
 * wendy's dropped page's token, is killed; her login on y waits for x
 * only while x is listed (no "did not answer" after 10 s).
 *
 * a_token_waits_for_an_upgraded_hosts_first_heartbeat: a binary upgrade
 * on PostgreSQL, the new process's first heartbeat held up (rogued_hosts
 * locked against writes): the page back with its token waits for it,
 * then is logged in (not refused and spent).
 *
 * Run by tests/run-tests.sh's cluster family (make cluster: a throwaway
 * PostgreSQL, a database of each test's own). */
#include <check.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "client.h"
#include "pg_cluster_setup.h"
#include "pg_hosts.h"
#include "play.h"
#include "store_where.h"
#include "web_page.h"

/* A host on the test's database with a browser port (*http), its pages'
 * logins kept 300 s, logging at debug. */
static tsrv_t *web_host(const char *seed, int *http)
{
    char port_set[32];
    *http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", *http);
    return srv_start("--seed", seed, "--set", cluster_store_arg, "--set",
                     port_set, "--set", "web_login_grace=300", "--log-level",
                     "debug", NULL);
}

/* A page on x (browser port http) that logs name in (registering it if
 * asked), plays a turn and drops (the network gone: no close), its game
 * suspended; its token into t. */
static void dropped_on(tsrv_t *x, int http, const char *name, int registering,
                       char t[40])
{
    char line[64];
    tclient_t *a = web_page(http, NULL);
    web_page_login(a, name, registering);
    web_token_of(a, t);
    ck_assert_int_eq(cl_send_str(a, "p"), 0);
    play_ready(a);
    web_key_to_turn(a, ".", cl_turn(a) + 1);
    cl_abort(a);
    snprintf(line, sizeof line, " name=%s turns=", name);
    ck_assert(srv_wait_log(x, "game suspended id=", CL_WAIT_MS));
    ck_assert(srv_wait_log(x, line, CL_WAIT_MS));
}

/* Waits until host x publishes n dropped pages' tokens of name (its
 * heartbeat: once a second). */
static void held_rows(tsrv_t *x, const char *name, int n)
{
    char host[CLUSTER_NAME_LEN], sql[384];
    cluster_name(x, host);
    snprintf(sql, sizeof sql, "SELECT (count(*) = %d)::int FROM rogued_online"
             " WHERE held AND host = '%s' AND account_id = (SELECT id FROM"
             " accounts WHERE name = '%s')", n, host, name);
    ck_assert_msg(sw_int_reaches(sql, 1) == 1,
                  "%s does not publish %d token(s) of %s", host, n, name);
}

/* wendy logs in on y with her password, the game offered, and plays a
 * turn. Returns her client. */
static tclient_t *wendy_on_y(tsrv_t *x, tsrv_t *y)
{
    tclient_t *b = play_lobby(srv_port(y));
    ck_assert(cl_key(b, "l"));
    play_type_line(b, "wendy");
    play_type_line(b, "password1");
    if (!cl_wait_text(b, "Continue your game (depth 1, turn 1)", CL_WAIT_MS))
        fail_with_logs(b, x, y, "y's login is not offered wendy's game");
    ck_assert(cl_key(b, "p"));
    play_wait_text(b, "HP: ");
    ck_assert(cl_sync(b, CL_WAIT_MS));
    ck_assert_int_eq(cl_turn(b), 1);
    ck_assert(cl_key(b, "."));
    ck_assert_int_eq(cl_turn(b), 2);
    return b;
}

START_TEST(a_dropped_page_cannot_take_the_game_back_from_another_host)
{
    char seed[32], t[40];
    cluster_setup(seed, sizeof seed);
    int hx, hy;
    tsrv_t *x = web_host(seed, &hx), *y = web_host(seed, &hy);
    dropped_on(x, hx, "wendy", 1, t);
    held_rows(x, "wendy", 1);

    /* wendy logs in on y (telnet, her password) and plays on */
    tclient_t *b = wendy_on_y(x, y);
    ck_assert(srv_log_has(y, "asking it to let go"));
    ck_assert(srv_wait_log(x, "1 login token of its dropped pages here "
                              "forgotten", CL_WAIT_MS));

    /* the page back on x: its token holds nothing there now */
    web_back_logged_out(hx, t);
    ck_assert(srv_wait_log(x, "its token holds nothing here", CL_WAIT_MS));
    ck_assert(!srv_log_has(x, "name=wendy by the page's token"));
    ck_assert(!srv_log_has(x, t)); /* a secret: never logged */
    held_rows(x, "wendy", 0);

    /* y's game goes on, its session kept */
    ck_assert(cl_key(b, "."));
    ck_assert_int_eq(cl_turn(b), 3);
    ck_assert(!cl_screen_has(b, "logged in from elsewhere"));
    ck_assert(!srv_log_has(y, "lets go"));
    cl_close(b);
    cluster_teardown(x, y);
}
END_TEST

/* Ends host x's cluster connections (not the store's) from the database's
 * side, and waits for x to say it lost them. */
static void cut_cluster(tsrv_t *x)
{
    cluster_cut(x);
    ck_assert(srv_wait_log(x, "cluster: lost the database", CL_WAIT_MS));
}

START_TEST(a_host_away_from_the_database_refuses_its_tokens)
{
    char seed[32], t[40], u[40];
    cluster_setup(seed, sizeof seed);
    int hx;
    tsrv_t *x = web_host(seed, &hx);
    dropped_on(x, hx, "wendy", 1, t);
    dropped_on(x, hx, "walter", 1, u);
    held_rows(x, "walter", 1);

    /* away (and kept away while its rows are held): wendy's token is
     * refused, and spent */
    char host[CLUSTER_NAME_LEN];
    cluster_name(x, host);
    PGconn *hold = presence_rows_hold(host); /* x cannot come back */
    cut_cluster(x);
    web_back_logged_out(hx, t);
    ck_assert(srv_wait_log(x, "login by the page's token refused id=",
                           CL_WAIT_MS));
    ck_assert(srv_log_has(x, " name=wendy: this host is not in touch with "
                             "the cluster's other hosts now"));
    ck_assert(!srv_log_has(x, "name=wendy by the page's token"));
    ck_assert(!srv_log_has(x, t));

    /* back: walter's was forgotten at its first heartbeat */
    ck_assert(!srv_log_has(x, "login token forgotten"));
    presence_rows_release(hold);
    ck_assert(srv_wait_log_count(x, "listening on the database", 2,
                                 3 * CL_WAIT_MS));
    ck_assert(srv_wait_log(x, "cluster: 1 login token forgotten: other "
                              "hosts may have counted this one gone",
                              CL_WAIT_MS));
    web_back_logged_out(hx, u);
    ck_assert(srv_wait_log(x, "its token holds nothing here", CL_WAIT_MS));
    ck_assert(!srv_log_has(x, "name=walter by the page's token"));
    srv_stop(x);
    sw_teardown();
    srv_remove_tree(cluster_dir);
}
END_TEST

/* A connection of the test's own to its database. */
static PGconn *pg_open(void)
{
    PGconn *pg = PQconnectdb(sw_url);
    ck_assert_msg(PQstatus(pg) == CONNECTION_OK, "%s", PQerrorMessage(pg));
    return pg;
}

/* Host `host`'s row in rogued_hosts, locked in a transaction pg keeps
 * open, sent without waiting for the lock (lock_got waits). */
static void lock_host_row(PGconn *pg, const char *host)
{
    char sql[256];
    snprintf(sql, sizeof sql, "BEGIN; SELECT 1 FROM rogued_hosts WHERE host ="
             " '%s' FOR UPDATE", host);
    ck_assert_int_eq(PQsendQuery(pg, sql), 1);
}

static void lock_got(PGconn *pg)
{
    PGresult *r;
    int rows = -1;
    while ((r = PQgetResult(pg))) {
        ck_assert_msg(PQresultStatus(r) == PGRES_COMMAND_OK ||
                      PQresultStatus(r) == PGRES_TUPLES_OK, "%s",
                      PQerrorMessage(pg));
        if (PQresultStatus(r) == PGRES_TUPLES_OK)
            rows = PQntuples(r);
        PQclear(r);
    }
    ck_assert_int_eq(rows, 1);
}

/* Waits until a statement waits on a lock: the backend pid's (0: a
 * heartbeat's INSERT into rogued_hosts), for at least ms. */
static void lock_waited(int pid, int ms)
{
    char sql[384], which[64];
    if (pid)
        snprintf(which, sizeof which, "pid = %d", pid);
    else
        snprintf(which, sizeof which,
                 "query LIKE 'INSERT INTO rogued_hosts%%'");
    snprintf(sql, sizeof sql, "SELECT (count(*) > 0)::int FROM"
             " pg_stat_activity WHERE wait_event_type = 'Lock' AND %s AND"
             " now() - query_start >= interval '%d milliseconds'", which, ms);
    ck_assert_msg(sw_int_reaches(sql, 1) == 1, "no wait on a lock (%d)", pid);
}

/* Waits until host's row says it is gone (ALIVE_S: 5 s since its last
 * heartbeat), or (alive) that it is not. */
static void host_seen(const char *host, int alive)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM rogued_hosts WHERE host ="
             " '%s' AND (seen > now() - interval '5 seconds') = %s", host,
             alive ? "true" : "false");
    ck_assert_msg(sw_int_reaches(sql, 1) == 1, "%s not seen %s", host,
                  alive ? "alive" : "gone");
}

START_TEST(a_heartbeat_that_commits_late_forgets_the_tokens)
{
    char seed[32], t[40], host[CLUSTER_NAME_LEN];
    cluster_setup(seed, sizeof seed);
    int hx, hy;
    tsrv_t *x = web_host(seed, &hx), *y = web_host(seed, &hy);
    dropped_on(x, hx, "wendy", 1, t);
    held_rows(x, "wendy", 1);
    cluster_name(x, host);

    /* one heartbeat of x held 3.3 s on its row (the next one starts
     * less than 4 s after it, so x would not count it late before it
     * writes; the check after the statement, 4 s and more after the one
     * before, does: the tokens are forgotten then), the next held too,
     * until after the others count x gone (5 s from the first's start)
     * and wendy logged in on y asking nobody */
    PGconn *first = pg_open(), *second = pg_open();
    lock_host_row(first, host);
    lock_got(first);
    lock_waited(0, 3300);
    lock_host_row(second, host); /* (in line behind the heartbeat) */
    lock_waited(PQbackendPID(second), 0);
    PQclear(PQexec(first, "ROLLBACK"));
    PQfinish(first);
    lock_got(second);
    lock_waited(0, 0);
    host_seen(host, 0);

    /* meanwhile wendy logs in on y, which asks nobody */
    tclient_t *b = wendy_on_y(x, y);
    ck_assert(!srv_log_has(y, "asking it to let go"));

    /* x's heartbeat goes in, 5 s and more after the one before: the
     * token, which y's login could not end, holds nothing */
    PQclear(PQexec(second, "ROLLBACK"));
    PQfinish(second);
    host_seen(host, 1);
    /* forgotten by the late heartbeat's own check, not refused by a host
     * out of touch */
    ck_assert(srv_wait_log(x, "cluster: 1 login token forgotten", CL_WAIT_MS));
    web_back_logged_out(hx, t);
    ck_assert(srv_wait_log(x, "its token holds nothing here", CL_WAIT_MS));
    ck_assert(!srv_log_has(x, "not in touch"));
    ck_assert(!srv_log_has(x, "name=wendy by the page's token"));
    ck_assert(cl_key(b, "."));
    ck_assert_int_eq(cl_turn(b), 3);
    ck_assert(!cl_screen_has(b, "logged in from elsewhere"));
    cl_close(b);
    cluster_teardown(x, y);
}
END_TEST

/* A host that held only a dropped page's token of the account, and died:
 * the login elsewhere waits for it only while it is listed (5 s after its
 * last heartbeat), not the 10 s it gives a host that plays the account. */
START_TEST(a_dead_host_with_only_a_token_is_not_waited_for)
{
    char seed[32], t[40], host[CLUSTER_NAME_LEN];
    cluster_setup(seed, sizeof seed);
    int hx, hy;
    tsrv_t *x = web_host(seed, &hx), *y = web_host(seed, &hy);
    dropped_on(x, hx, "wendy", 1, t);
    held_rows(x, "wendy", 1);
    cluster_name(x, host);
    srv_kill(x);

    tclient_t *b = wendy_on_y(y, y);
    ck_assert(srv_log_has(y, "asking it to let go"));
    char line[160];
    snprintf(line, sizeof line, "%s, which had only dropped pages' tokens of "
             "it, is gone: not waited for", host);
    ck_assert(srv_log_has(y, line));
    ck_assert(!srv_log_has(y, "did not answer"));
    cl_close(b);
    srv_stop(y);
    sw_teardown();
    srv_remove_tree(cluster_dir);
}
END_TEST

/* A binary upgrade on PostgreSQL: a page that drops just after it comes
 * back to the new process before that has written its first heartbeat
 * (held up here by the table, locked against writes); its token waits
 * for it, then logs the page in. */
START_TEST(a_token_waits_for_an_upgraded_hosts_first_heartbeat)
{
    char seed[32], t[40], res[1024];
    cluster_setup(seed, sizeof seed);
    int hx;
    tsrv_t *x = web_host(seed, &hx);
    tclient_t *a = web_page(hx, NULL);
    web_page_login(a, "wendy", 1);
    web_token_of(a, t);

    PGconn *hold = pg_open();
    PQclear(PQexec(hold, "BEGIN; LOCK TABLE rogued_hosts IN SHARE MODE"));
    ck_assert_int_eq(srv_upgrade(x, res, sizeof res), 0);
    ck_assert_msg(strstr(res, "upgraded: 1 session moved"), "%s", res);
    int pid = srv_upgraded_pid(res);
    ck_assert(srv_wait_log(x, "online, moved by an upgrade)", CL_WAIT_MS));
    cl_abort(a);
    tclient_t *b = web_page(hx, t);
    ck_assert(srv_wait_log(x, "its token waits for this host's first "
                              "heartbeat", CL_WAIT_MS));
    PQclear(PQexec(hold, "ROLLBACK"));
    PQfinish(hold);
    play_wait_text(b, "Logged in as wendy");
    ck_assert(srv_wait_log(x, "name=wendy by the page's token", CL_WAIT_MS));
    ck_assert(!srv_log_has(x, "this host is not in touch"));
    cl_close(b);
    srv_stop_upgraded(x, pid);
    srv_stop(x);
    sw_teardown();
    srv_remove_tree(cluster_dir);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pg_cluster_tokens");
    TCase *tc = tcase_create("tokens");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc,
                   a_dropped_page_cannot_take_the_game_back_from_another_host);
    tcase_add_test(tc, a_host_away_from_the_database_refuses_its_tokens);
    tcase_add_test(tc, a_heartbeat_that_commits_late_forgets_the_tokens);
    tcase_add_test(tc, a_dead_host_with_only_a_token_is_not_waited_for);
    tcase_add_test(tc, a_token_waits_for_an_upgraded_hosts_first_heartbeat);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
