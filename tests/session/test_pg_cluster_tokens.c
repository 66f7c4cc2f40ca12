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

START_TEST(a_dropped_page_cannot_take_the_game_back_from_another_host)
{
    char seed[32], t[40];
    cluster_setup(seed, sizeof seed);
    int hx, hy;
    tsrv_t *x = web_host(seed, &hx), *y = web_host(seed, &hy);
    dropped_on(x, hx, "wendy", 1, t);
    held_rows(x, "wendy", 1);

    /* wendy logs in on y (telnet, her password) and plays on */
    tclient_t *b = play_lobby(srv_port(y));
    ck_assert(cl_key(b, "l"));
    play_type_line(b, "wendy");
    play_type_line(b, "password1");
    if (!cl_wait_text(b, "Continue your game (depth 1, turn 1)", CL_WAIT_MS))
        fail_with_logs(b, x, y, "y's login is not offered wendy's game");
    ck_assert(srv_log_has(y, "asking it to let go"));
    ck_assert(srv_wait_log(x, "1 login token of its dropped pages here "
                              "forgotten", CL_WAIT_MS));
    ck_assert(cl_key(b, "p"));
    play_wait_text(b, "HP: ");
    ck_assert(cl_sync(b, CL_WAIT_MS));
    ck_assert_int_eq(cl_turn(b), 1);
    ck_assert(cl_key(b, "."));
    ck_assert_int_eq(cl_turn(b), 2);

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
    char ports[256], sql[512];
    ck_assert_int_gt(tcp_ports_of(srv_pid(x), ports, sizeof ports), 0);
    snprintf(sql, sizeof sql, "SELECT count(pg_terminate_backend(pid)) FROM"
             " pg_stat_activity WHERE application_name = 'rogued-cluster'"
             " AND client_port IN (%s)", ports);
    ck_assert_int_ge(sw_int(sql), 1);
    ck_assert(srv_wait_log(x, "cluster: lost the database", CL_WAIT_MS));
}

/* Host x's presence rows, locked (in a transaction the returned
 * connection keeps open): x, back from a loss, removes its rows under the
 * name it had first, so it cannot come back while they are held (its
 * statement times out and it tries again later). */
static PGconn *hold_rows(tsrv_t *x)
{
    char host[CLUSTER_NAME_LEN], sql[256];
    cluster_name(x, host);
    PGconn *pg = PQconnectdb(sw_url);
    ck_assert_msg(PQstatus(pg) == CONNECTION_OK, "%s", PQerrorMessage(pg));
    snprintf(sql, sizeof sql, "BEGIN; SELECT 1 FROM rogued_online WHERE host"
             " = '%s' FOR UPDATE", host);
    PGresult *r = PQexec(pg, sql);
    ck_assert_msg(PQresultStatus(r) == PGRES_TUPLES_OK, "%s",
                  PQerrorMessage(pg));
    ck_assert_int_ge(PQntuples(r), 1);
    PQclear(r);
    return pg;
}

static void release_rows(PGconn *pg)
{
    PQclear(PQexec(pg, "ROLLBACK"));
    PQfinish(pg);
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
    PGconn *hold = hold_rows(x);
    cut_cluster(x);
    web_back_logged_out(hx, t);
    ck_assert(srv_wait_log(x, "login by the page's token refused id=3 "
                              "name=wendy: this host is not in touch with "
                              "the cluster's other hosts now", CL_WAIT_MS));
    ck_assert(!srv_log_has(x, "name=wendy by the page's token"));
    ck_assert(!srv_log_has(x, t));

    /* back: walter's was forgotten at its first heartbeat */
    ck_assert(!srv_log_has(x, "login token forgotten"));
    release_rows(hold);
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

static Suite *make_suite(void)
{
    Suite *s = suite_create("pg_cluster_tokens");
    TCase *tc = tcase_create("tokens");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc,
                   a_dropped_page_cannot_take_the_game_back_from_another_host);
    tcase_add_test(tc, a_host_away_from_the_database_refuses_its_tokens);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
