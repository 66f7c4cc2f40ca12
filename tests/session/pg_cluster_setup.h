/* pg_cluster_setup.h - each test's start and end in the tests of hosts
 * on one PostgreSQL database (test_pg_cluster.c, test_pg_cluster_loss.c,
 * test_pg_cluster_tokens.c).
 * Header-only, as store_where.h (whose state each test file keeps its
 * own) is. */
#ifndef ROGUE_TEST_PG_CLUSTER_SETUP_H
#define ROGUE_TEST_PG_CLUSTER_SETUP_H

#include <check.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>

#include "client.h"
#include "pg_hosts.h"
#include "play.h"
#include "store_where.h"

/* Ends host x's cluster connections (not the store's, nor another
 * host's) from the database's side. */
static inline void cluster_cut(tsrv_t *x)
{
    char ports[256], sql[512];
    ck_assert_int_gt(tcp_ports_of(srv_pid(x), ports, sizeof ports), 0);
    snprintf(sql, sizeof sql, "SELECT count(pg_terminate_backend(pid)) FROM"
             " pg_stat_activity WHERE application_name = 'rogued-cluster'"
             " AND client_port IN (%s)", ports);
    ck_assert_int_ge(sw_int(sql), 1);
}

/* Host `host`'s presence rows of sessions, locked (in a transaction the
 * returned connection keeps open): a host that comes back from a loss of
 * the database removes its rows under the name it had first, so it
 * cannot come back while they are held (its statement times out and it
 * tries again later); the other hosts only read them. */
static inline PGconn *presence_rows_hold(const char *host)
{
    char sql[256];
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

/* Lets presence_rows_hold's rows go, and closes its connection. */
static inline void presence_rows_release(PGconn *pg)
{
    PQclear(PQexec(pg, "ROLLBACK"));
    PQfinish(pg);
}

/* Each test's start: a directory, a database of its own on the run's
 * PostgreSQL (cluster_store_arg names it), and the walk's seed. */
static inline void cluster_setup(char *seed, size_t n)
{
    ck_assert_msg(sw_pg(), "ROGUED_TEST_PG is not set: run the cluster "
                  "family (make cluster)");
    snprintf(cluster_dir, sizeof cluster_dir, "/tmp/rogued-cluster-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(cluster_dir));
    sw_setup(cluster_dir);
    snprintf(cluster_store_arg, sizeof cluster_store_arg, "store=%s", sw_url);
    snprintf(seed, n, "%llu", (unsigned long long)play_walk_seed());
}

/* Each test's end, after its clients: hosts x and y stopped (by their
 * ids), the test's database dropped and its directory removed. */
static inline void cluster_teardown(tsrv_t *x, tsrv_t *y)
{
    srv_stop(y);
    srv_stop(x);
    sw_teardown();
    srv_remove_tree(cluster_dir);
}

#endif
