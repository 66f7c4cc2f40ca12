/* pg_hosts.h - helpers of the tests of hosts on one PostgreSQL database
 * (test_pg_cluster.c, test_pg_cluster_loss.c): pg_hosts.c. */
#ifndef ROGUE_TEST_PG_HOSTS_H
#define ROGUE_TEST_PG_HOSTS_H

#include <stddef.h>
#include <sys/types.h>

#include "client.h"

/* The test's directory, and "store=URL" of its database (for --set):
 * each test sets them. */
extern char cluster_dir[64], cluster_store_arg[300];

/* Presses key until text is on c's screen (what another host publishes
 * arrives with its next heartbeat). Returns 1, or 0 at the deadline. */
int refresh_until(tclient_t *c, const char *key, const char *text);

/* n keys of the walk from its key *i on (counted on). */
void walk_on(tclient_t *c, int *i, int n);

/* The number after `after` on c's screen, or -1. */
int number_after(const tclient_t *c, const char *after);

/* Two hosts x and y on the test's database, played directly (no
 * balancer), logging at debug; dave registers on x and walks 3 steps
 * (*walked counts the walk's keys). Returns dave's client. */
tclient_t *dave_on_x(const char *seed, tsrv_t **x, tsrv_t **y, int *walked);

/* The local ports of process pid's TCP sockets, as "p1,p2,..." in out.
 * Returns how many. */
int tcp_ports_of(int pid, char *out, size_t len);

/* The cluster name (and channel) host s last logged it listens under,
 * once its log has the line (waited for). */
#define CLUSTER_NAME_LEN 40
void cluster_name(tsrv_t *s, char name[CLUSTER_NAME_LEN]);

/* HAProxy on `port` in front of the two hosts pa and pb, in the
 * foreground with its output in the test's directory. Returns its pid
 * once it listens. */
pid_t haproxy_start(int port, int pa, int pb);

/* Ends it (by its id) and waits for it. */
void haproxy_stop(pid_t pid);

/* A watcher on host y, from its lobby, of dave playing on another host
 * (listed once y has heard of him). */
tclient_t *watch_dave_from(tsrv_t *y);

/* dave plays on x (returned: dave_on_x), watched from y by *w, which
 * shows his turn. */
tclient_t *dave_watched(const char *seed, tsrv_t **x, tsrv_t **y,
                        int *walked, tclient_t **w);

/* Prints both hosts' logs, then fails the test (with c's screen). */
void fail_with_logs(tclient_t *c, tsrv_t *x, tsrv_t *y, const char *why);

#endif
