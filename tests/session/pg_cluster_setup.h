/* pg_cluster_setup.h - each test's start and end in the tests of hosts
 * on one PostgreSQL database (test_pg_cluster.c, test_pg_cluster_loss.c).
 * Header-only, as store_where.h (whose state each test file keeps its
 * own) is. */
#ifndef ROGUE_TEST_PG_CLUSTER_SETUP_H
#define ROGUE_TEST_PG_CLUSTER_SETUP_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "client.h"
#include "pg_hosts.h"
#include "play.h"
#include "store_where.h"

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
