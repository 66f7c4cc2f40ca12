/* test_pg_cluster_race.c - hosts that race on one PostgreSQL database.
 *
 * the_tables_made_at_once_log_no_error: two hosts starting at once on a
 * fresh database both make the cluster's presence tables, and
 * PostgreSQL's IF NOT EXISTS does not hold against a table another
 * transaction is making: the loser's CREATE waits for it, then fails
 * ("duplicate key value violates unique constraint", with a DETAIL line).
 * The test holds such a transaction open (the other host), lets the
 * host's CREATE wait for it and commits: the host's retry finds the
 * tables, so its failure is no error (a debug line), logged as one line
 * (docs/hosting.md, "Logs": one line per event).
 *
 * Run by tests/run-tests.sh's pg family (test_pg_*: a throwaway cluster,
 * a database of the test's own). */
#include <check.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "store_where.h"

static char dir[64], store_arg[400];

static void start_test(void)
{
    ck_assert_msg(sw_pg(), "ROGUED_TEST_PG is not set: run the pg family "
                  "(tests/run-tests.sh pg)");
    snprintf(dir, sizeof dir, "/tmp/rogued-pgr-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    sw_setup(dir);
    snprintf(store_arg, sizeof store_arg, "store=%s", sw_url);
}

static void end_test(void)
{
    sw_teardown();
    srv_remove_tree(dir);
}

static void exec_on(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    ck_assert_msg(PQresultStatus(r) == PGRES_COMMAND_OK, "%s: %s", sql,
                  PQresultErrorMessage(r));
    PQclear(r);
}

START_TEST(the_tables_made_at_once_log_no_error)
{
    start_test();
    /* the other host, making rogued_hosts (as cluster_presence.c does) */
    PGconn *other = PQconnectdb(sw_url);
    ck_assert_int_eq(PQstatus(other), CONNECTION_OK);
    exec_on(other, "BEGIN");
    exec_on(other, "CREATE UNLOGGED TABLE IF NOT EXISTS rogued_hosts ("
                   " host text PRIMARY KEY, seen timestamptz NOT NULL,"
                   " online integer NOT NULL, games integer NOT NULL,"
                   " list text NOT NULL)");

    tsrv_t *s = srv_start("--data-dir", dir, "--set", store_arg,
                          "--log-level", "debug", NULL);
    /* the host's CREATE waits for the other's */
    ck_assert_int_eq(sw_int_reaches("SELECT count(*) FROM pg_stat_activity"
                                    " WHERE application_name ="
                                    " 'rogued-cluster' AND wait_event_type"
                                    " = 'Lock'", 1), 1);
    exec_on(other, "COMMIT");
    PQfinish(other);

    ck_assert(srv_wait_log(s, "listening on the database", CL_WAIT_MS));
    ck_assert(srv_log_has(s, " debug cluster: ERROR:  duplicate key value "
                             "violates unique constraint "
                             "\"pg_type_typname_nsp_index\" DETAIL:  Key "
                             "(typname, typnamespace)=(rogued_hosts, "));
    ck_assert(!srv_log_has(s, " error "));
    ck_assert_int_eq(sw_int("SELECT count(*) FROM rogued_online"), 0);
    srv_stop(s);
    end_test();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pg_cluster_race");
    TCase *tc = tcase_create("pg_cluster_race");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, the_tables_made_at_once_log_no_error);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
