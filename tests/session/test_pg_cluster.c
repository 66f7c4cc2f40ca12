/* test_pg_cluster.c - two hosts behind a TCP balancer, sharing one
 * PostgreSQL database: Debian's HAProxy in TCP mode (balance source,
 * send-proxy-v2, health checks) in front of two rogued processes on
 * loopback ports, both on the test's own database. Clients bound to
 * 127.0.0.2, 127.0.0.3, ... land on one host or the other (the balancer
 * hashes the source address); the hosts see those addresses through the
 * PROXY v2 header.
 *
 * balancer_kill_a_host_and_continue_on_the_other: a player registers and
 * plays on whichever host the balancer picks; that host is killed with
 * SIGKILL; the player connects again, the balancer sends them to the
 * other host, and they continue their game (losing at most the last
 * second of keys). The per-address limit holds behind the balancer.
 *
 * hosts_share_players (docs/hosting.md, "Several hosts"): the lobby of
 * the other host counts and lists the player; a watcher there sees each
 * move; a login there takes the game over at the same turn (no key lost)
 * and the first host lets go; watched from the first host, that host is
 * killed: the watch ends and the player continues on the first; a guest's death on a third host is in the hall
 * of fame every host shows, and replays there.
 *
 * a_ban_holds_on_every_host (docs/hosting.md, "Operations"): an address
 * banned on one host's console is refused by the other host too (within
 * its reading of the bans), and unbanned on the other's console, admitted
 * by the first again.
 *
 * watcher_follows_across_hosts_through_the_lobby: a watcher on one host
 * follows a player on another through the lobby into the next game.
 *
 * watcher_on_another_host_starts_from_a_snapshot: a player's game passes
 * key 65,536, so its host writes a snapshot; a watcher on the other host
 * starts from that snapshot (only the keys after it replayed) and sees the
 * player's very screen as the player picks up, drops and kills.
 *
 * database_away_games_go_on: the hosts lose their cluster connections and
 * cannot connect again for a while; the lobby says the other hosts are
 * unavailable, games go on (and are saved by the store's own connection),
 * nothing exits, and the other hosts are back once the database is.
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
#include "combat.h"
#include "game.h"
#include "pg_hosts.h"
#include "plan.h"
#include "play.h"
#include "store_where.h"

/* Each test's start: a directory, a database of its own on the run's
 * PostgreSQL (cluster_store_arg names it), and the walk's seed. */
static void cluster_setup(char *seed, size_t n)
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
static void cluster_teardown(tsrv_t *x, tsrv_t *y)
{
    srv_stop(y);
    srv_stop(x);
    sw_teardown();
    srv_remove_tree(cluster_dir);
}

/* Runs sql on the server's maintenance database (for what cannot run on
 * the test's own: letting it be connected to or not). */
static void admin(const char *sql)
{
    char url[512];
    sw_url_for("postgres", url, sizeof url);
    sw_pq(url, sql, 1);
}

/* Ends host x's cluster connections (not the store's, nor another
 * host's) from the database's side. */
static void cluster_cut(tsrv_t *x)
{
    char ports[256], sql[512];
    ck_assert_int_gt(tcp_ports_of(srv_pid(x), ports, sizeof ports), 0);
    snprintf(sql, sizeof sql, "SELECT count(pg_terminate_backend(pid)) FROM"
             " pg_stat_activity WHERE application_name = 'rogued-cluster'"
             " AND client_port IN (%s)", ports);
    ck_assert_int_ge(sw_int(sql), 1);
}

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

/* Host `name`'s presence rows of sessions, locked (in a transaction the
 * returned connection keeps open): a host that comes back from a loss of
 * the database removes its rows under the name it had first, so it
 * cannot come back while they are held (its statement times out and it
 * tries again later); the other hosts only read them. */
static PGconn *hold_rows(const char *name)
{
    char sql[256];
    PGconn *pg = PQconnectdb(sw_url);
    ck_assert_msg(PQstatus(pg) == CONNECTION_OK, "%s", PQerrorMessage(pg));
    snprintf(sql, sizeof sql, "BEGIN; SELECT 1 FROM rogued_online WHERE host"
             " = '%s' FOR UPDATE", name);
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

/* x (named `name`) loses its cluster connection and is seen gone by the
 * others (its heartbeat made 6 s old), its rows held so that they are
 * not forgotten yet; returns the hold, for release_rows. */
static PGconn *cut_seen_gone(tsrv_t *x, const char *name)
{
    char sql[256];
    PGconn *hold = hold_rows(name);
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

static tsrv_t *host(const char *seed)
{
    return srv_start("--seed", seed, "--set", cluster_store_arg, "--log-level",
                     "debug", "--set", "proxy_protocol=on", "--set",
                     "proxy_trusted=127.0.0.1", "--set",
                     "max_sessions_per_ip=1", NULL);
}

START_TEST(balancer_kill_a_host_and_continue_on_the_other)
{
    char seed[32];
    cluster_setup(seed, sizeof seed);
    tsrv_t *hosts[2] = { host(seed), host(seed) };
    int port = cl_free_port();
    pid_t hap = haproxy_start(port, srv_port(hosts[0]), srv_port(hosts[1]));

    /* A player from 127.0.0.2: the host it lands on sees that address. */
    cl_opts_t from2 = { .src = "127.0.0.2" };
    tclient_t *a = cl_connect(port, &from2);
    play_wait_text(a, "Play (as a guest)");
    ck_assert(cl_sync(a, CL_WAIT_MS));
    int on = srv_log_has(hosts[0], "connect 127.0.0.2:") ? 0 : 1;
    ck_assert_msg(srv_log_has(hosts[on], "connect 127.0.0.2:"),
                  "neither host saw 127.0.0.2:\n%s\n%s", srv_log(hosts[0]),
                  srv_log(hosts[1]));
    play_login_dave(a, 1);
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    play_walk_keys(a, 40);
    int turn40 = cl_turn(a);
    ck_assert(srv_wait_log(hosts[on], "bytes=40", CL_WAIT_MS));
    /* handed to the store is not yet written: the kill below loses what
     * its thread holds, so the 40 keys are waited for in the database */
    const char *kept = "SELECT coalesce(sum(length(keys)), 0) FROM "
                       "progress_keys WHERE account_id = (SELECT id FROM "
                       "accounts WHERE name = 'dave')";
    ck_assert_int_ge(sw_int_reaches(kept, 40), 40);
    play_walk_keys(a, 5); /* these may be lost */
    int last = cl_turn(a);

    /* The per-address limit, behind the balancer: 127.0.0.2 has its one
     * session (the same address hashes to the same host). */
    tclient_t *a2 = cl_connect(port, &from2);
    if (!cl_wait_text(a2, "Your address has 1 sessions open already", CL_WAIT_MS))
        play_fail(a2, "a second session from 127.0.0.2 was not refused");
    cl_close(a2);

    /* The host dies; the player comes back through the same port. */
    srv_kill(hosts[on]);
    cl_close(a);
    tclient_t *b = cl_connect(port, &from2);
    play_wait_text(b, "Play (as a guest)");
    ck_assert(cl_sync(b, CL_WAIT_MS));
    ck_assert(srv_log_has(hosts[1 - on], "connect 127.0.0.2:"));
    play_login_dave(b, 0);
    int turn = play_continue(b, turn40, last);
    ck_assert(cl_key(b, "."));
    ck_assert_int_eq(cl_turn(b), turn + 1);

    /* Another address is let in beside it, on the host that is left. */
    cl_opts_t from3 = { .src = "127.0.0.3" };
    tclient_t *c = cl_connect(port, &from3);
    play_wait_text(c, "Play (as a guest)");
    ck_assert(srv_wait_log(hosts[1 - on], "connect 127.0.0.3:", CL_WAIT_MS));

    cl_close(b);
    cl_close(c);
    haproxy_stop(hap);
    srv_stop(hosts[1 - on]); /* (srv_kill freed the other) */
    sw_teardown();
    srv_remove_tree(cluster_dir);
}
END_TEST

/* A client in the lobby, through the balancer, from the first address
 * 127.0.0.N (N from *next on) that the balancer sends to hosts[want]. */
static tclient_t *lobby_on(int port, tsrv_t *const *hosts, int want, int *next,
                           char *addr, size_t addrlen)
{
    for (; *next < 64; (*next)++) {
        char src[32], seen[48];
        snprintf(src, sizeof src, "127.0.0.%d", *next);
        snprintf(seen, sizeof seen, "connect %s:", src);
        cl_opts_t o = { .src = src };
        tclient_t *c = cl_connect(port, &o);
        play_wait_text(c, "Play (as a guest)");
        ck_assert(cl_sync(c, CL_WAIT_MS));
        if (srv_log_has(hosts[want], seen)) {
            snprintf(addr, addrlen, "%s", src);
            (*next)++;
            return c;
        }
        cl_close(c);
    }
    ck_abort_msg("no address from 127.0.0.3 up lands on host %d", want);
    return NULL;
}

START_TEST(hosts_share_players)
{
    char seed[32], addr[32];
    cluster_setup(seed, sizeof seed);
    tsrv_t *hosts[2] = { host(seed), host(seed) };
    int port = cl_free_port(), next = 3, walked = 0;
    pid_t hap = haproxy_start(port, srv_port(hosts[0]), srv_port(hosts[1]));

    /* dave plays on host `on` (where 127.0.0.2 lands). */
    cl_opts_t from2 = { .src = "127.0.0.2" };
    tclient_t *a = cl_connect(port, &from2);
    play_wait_text(a, "Play (as a guest)");
    ck_assert(cl_sync(a, CL_WAIT_MS));
    int on = srv_log_has(hosts[0], "connect 127.0.0.2:") ? 0 : 1, off = 1 - on;
    play_login_dave(a, 1);
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    walk_on(a, &walked, 10);

    /* The lobby of the other host counts him and lists his game. */
    tclient_t *w = lobby_on(port, hosts, off, &next, addr, sizeof addr);
    ck_assert(cl_key(w, "w"));
    play_wait_text(w, "Games in progress");
    if (!refresh_until(w, " ", "dave"))
        play_fail(w, "host %d's lobby does not list dave of host %d", off, on);
    if (!refresh_until(w, " ", "2 players online, 1 game in progress"))
        play_fail(w, "host %d's lobby does not count host %d's player", off,
                  on);

    /* Watching him from there: each move arrives. */
    ck_assert(cl_key(w, "a"));
    if (!cl_wait_text(w, "Watching dave - q leaves", CL_WAIT_MS)) {
        char *l0 = srv_log(hosts[0]), *l1 = srv_log(hosts[1]);
        fprintf(stderr, "---- host 0:\n%s\n---- host 1:\n%s\n", l0, l1);
        free(l0);
        free(l1);
        play_fail(w, "the watch of dave did not begin");
    }
    int turn = cl_turn(a);
    if (!cl_wait(w, cl_at_turn, &turn, CL_WAIT_MS))
        play_fail(w, "the watcher is not at dave's turn %d", turn);
    long worst = 0;
    for (int k = 0; k < 3; k++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        walk_on(a, &walked, 1);
        turn = cl_turn(a);
        if (!cl_wait(w, cl_at_turn, &turn, CL_WAIT_MS))
            play_fail(w, "dave's move to turn %d did not reach the watcher",
                      turn);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        long ms = (t1.tv_sec - t0.tv_sec) * 1000 +
                  (t1.tv_nsec - t0.tv_nsec) / 1000000;
        worst = ms > worst ? ms : worst;
        int ax, ay, wx, wy;
        ck_assert_int_eq(cl_find(a, '@', &ax, &ay), 1);
        ck_assert_int_eq(cl_find(w, '@', &wx, &wy), 1);
        ck_assert(ax == wx && ay == wy);
    }
    /* reported, not asserted (tests assert no times: docs/testing.md) */
    fprintf(stderr, "hosts_share_players: a move reached the watcher on the "
            "other host at most %ld ms after the key was sent\n", worst);
    ck_assert(srv_log_has(hosts[off], "cluster: watch "));

    /* dave logs in on the other host: the game moves there, every key. */
    walk_on(a, &walked, 5);
    int last = cl_turn(a);
    tclient_t *t = lobby_on(port, hosts, off, &next, addr, sizeof addr);
    play_login_dave(t, 0);
    char want[64];
    snprintf(want, sizeof want, "Continue your game (depth 1, turn %d)", last);
    play_wait_text(t, want);
    ck_assert(cl_wait_text(a, "logged in from elsewhere", CL_WAIT_MS));
    ck_assert(cl_wait_text(w, "The game moved to another host.", CL_WAIT_MS));
    ck_assert(srv_log_has(hosts[off], "every key is in the database"));
    ck_assert(srv_log_has(hosts[on], "this host lets go"));
    ck_assert(cl_key(t, "p"));
    play_wait_text(t, "HP: ");
    ck_assert(cl_sync(t, CL_WAIT_MS));
    ck_assert_int_eq(cl_turn(t), last);
    walk_on(t, &walked, 3);
    int kept = cl_turn(t);
    ck_assert_int_gt(kept, last);

    /* Watched from the first host now, where it was played before. */
    tclient_t *v = lobby_on(port, hosts, on, &next, addr, sizeof addr);
    ck_assert(cl_key(v, "w"));
    play_wait_text(v, "Games in progress");
    if (!refresh_until(v, " ", "dave"))
        play_fail(v, "host %d's lobby does not list dave of host %d", on, off);
    ck_assert(cl_key(v, "a"));
    play_wait_text(v, "Watching dave - q leaves");
    walk_on(t, &walked, 2);
    last = cl_turn(t);
    if (!cl_wait(v, cl_at_turn, &last, CL_WAIT_MS))
        play_fail(v, "dave's move to turn %d did not reach the watcher", last);

    /* The host it plays on now is killed (once it has published that dave
     * is on it: the first host will ask it, and hear nothing); dave comes
     * back on the first. */
    char name[CLUSTER_NAME_LEN], sql[256];
    cluster_name(hosts[off], name);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM rogued_online WHERE host ="
             " '%s' AND account_id = (SELECT id FROM accounts WHERE name ="
             " 'dave')", name);
    ck_assert_msg(sw_int_reaches(sql, 1) == 1,
                  "host %d did not publish dave's session", off);
    srv_kill(hosts[off]);
    /* (as if it had died a moment ago, however long the login below takes:
     * its last heartbeat is made to look fresh) */
    snprintf(sql, sizeof sql, "UPDATE rogued_hosts SET seen = now() +"
             " interval '1 hour' WHERE host = '%s'", name);
    sw_exec(sql);
    cl_close(t);
    cl_close(w);
    cl_close(a);

    a = cl_connect(port, &from2);
    play_wait_text(a, "Play (as a guest)");
    play_login_dave(a, 0);
    play_wait_text(a, "Continue your game (depth 1, turn ");
    turn = number_after(a, "Continue your game (depth 1, turn ");
    ck_assert_msg(turn >= last - 5 && turn <= last,
                  "continued at turn %d of %d", turn, last);
    /* (the dead host was still listed: it was asked, and did not answer) */
    ck_assert(srv_log_has(hosts[on], "did not answer"));
    /* and the watcher on the first host is told, once the host is not
     * seen (its heartbeat made old now) */
    snprintf(sql, sizeof sql, "UPDATE rogued_hosts SET seen = now() -"
             " interval '1 hour' WHERE host = '%s'", name);
    sw_exec(sql);
    if (!cl_wait_text(v, "The game's host has gone away.", 2 * CL_WAIT_MS))
        play_fail(v, "the watch of a game on a dead host did not end");
    cl_close(v);
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    ck_assert(cl_key(a, "."));
    ck_assert_int_eq(cl_turn(a), turn + 1);

    /* One hall of fame: a guest dies on a third host (not behind the
     * balancer); the first host ranks the game and replays it. */
    tsrv_t *third;
    tclient_t *g;
    game_t *gg = plan_death_setup(NULL, &third, &g, NULL, "--set",
                                  cluster_store_arg, NULL);
    game_free(gg);
    ck_assert(cl_key(g, "\x1b"));
    play_wait_text(g, "Play as guest");
    char guest[32];
    ck_assert_int_ge(number_after(g, "Play as guest"), 1);
    snprintf(guest, sizeof guest, "guest%d", number_after(g, "Play as guest"));
    /* the third host's store writes the game on its own thread, soon
     * after (behind its start-up work, since a guest's game no longer
     * waits for the store to begin): waited for in the database */
    char q[128];
    snprintf(q, sizeof q, "SELECT count(*) FROM games WHERE player = '%s'",
             guest);
    ck_assert_int_eq(sw_int_reaches(q, 1), 1);
    tclient_t *o = lobby_on(port, hosts, on, &next, addr, sizeof addr);
    ck_assert(cl_key(o, "s"));
    play_wait_text(o, "Hall of fame");
    play_wait_text(o, guest);
    ck_assert(cl_key(o, "a"));
    snprintf(want, sizeof want, "Replay: %s", guest);
    play_wait_text(o, want);

    cl_close(o);
    cl_close(g);
    cl_close(a);
    srv_stop(third);
    haproxy_stop(hap);
    srv_stop(hosts[on]);
    sw_teardown();
    srv_remove_tree(cluster_dir);
}
END_TEST

/* Connects from src to port until it is refused for a ban (want_in 0) or
 * admitted (want_in 1), or 30 s. */
static int until_admitted(int port, const char *src, int want_in)
{
    int banned = 0;
    for (int i = 0; i < 300; i++) {
        int in = play_admitted_from(port, src, &banned);
        if (in == want_in && (in || banned))
            return 1;
        usleep(100000);
    }
    return 0;
}

START_TEST(a_ban_holds_on_every_host)
{
    char seed[32], out[4096];
    cluster_setup(seed, sizeof seed);
    tsrv_t *a = host(seed), *b = host(seed);
    ck_assert(srv_wait_log(a, "console on ", CL_WAIT_MS));
    ck_assert(srv_wait_log(b, "console on ", CL_WAIT_MS));
    ck_assert_int_eq(srv_ctl(a, "ban 127.0.0.2", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "banned 127.0.0.2/32 for good"), "%s", out);
    ck_assert_msg(until_admitted(srv_port(b), "127.0.0.2", 0),
                  "host b never refused the ban made on a");
    ck_assert(play_admitted_from(srv_port(b), "127.0.0.3", &(int){ 0 }));
    ck_assert_int_eq(srv_ctl(b, "unban 127.0.0.2", out, sizeof out), 0);
    ck_assert_msg(until_admitted(srv_port(a), "127.0.0.2", 1),
                  "host a never honoured the unban made on b");
    srv_stop(a);
    srv_stop(b);
    sw_teardown();
    srv_remove_tree(cluster_dir);
}
END_TEST

START_TEST(database_away_games_go_on)
{
    char seed[32], sql[256];
    cluster_setup(seed, sizeof seed);
    /* two hosts on the database, played directly (no balancer) */
    tsrv_t *x, *y;
    int walked = 0;
    tclient_t *a = dave_on_x(seed, &x, &y, &walked);
    tclient_t *l = play_lobby(srv_port(y));
    if (!refresh_until(l, " ", "2 players online, 1 game in progress"))
        play_fail(l, "y's lobby does not count x's player");

    /* The hosts lose their cluster connections, and cannot connect again
     * (the store's own connections stay: games are still saved). */
    snprintf(sql, sizeof sql, "ALTER DATABASE %s WITH ALLOW_CONNECTIONS false",
             sw_dbname);
    admin(sql);
    snprintf(sql, sizeof sql, "SELECT pg_terminate_backend(pid) FROM"
             " pg_stat_activity WHERE datname = '%s' AND application_name ="
             " 'rogued-cluster'", sw_dbname);
    admin(sql);
    if (!refresh_until(l, " ", "1 player online, 0 games in progress (other "
                       "hosts unavailable)"))
        play_fail(l, "y's lobby does not say the other hosts are unavailable");
    ck_assert(srv_wait_log(x, "cluster: lost the database", CL_WAIT_MS));
    /* x's game goes on and is still saved */
    int turn = cl_turn(a);
    ck_assert(cl_key(a, "."));
    ck_assert(cl_key(a, "."));
    ck_assert_int_eq(cl_turn(a), turn + 2);
    ck_assert(srv_wait_log(x, "progress id=1 bytes=5", CL_WAIT_MS));
    ck_assert(srv_alive(x) && srv_alive(y));

    /* The database is back: so are the other hosts. */
    snprintf(sql, sizeof sql, "ALTER DATABASE %s WITH ALLOW_CONNECTIONS true",
             sw_dbname);
    admin(sql);
    if (!refresh_until(l, " ", "2 players online, 1 game in progress"))
        play_fail(l, "y's lobby does not count x's player again");
    ck_assert(!cl_screen_has(l, "unavailable"));
    /* x's own retry comes in its time (y may see x's row, still fresh,
     * before it): connected again, once */
    ck_assert(srv_wait_log_count(x, "listening on the database", 2,
                                 CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(x, "listening on the database"), 2);

    cl_close(l);
    cl_close(a);
    cluster_teardown(x, y);
}
END_TEST

/* A watcher on host y, from its lobby, of dave playing on another host
 * (listed once y has heard of him). */
static tclient_t *watch_dave_from(tsrv_t *y)
{
    tclient_t *w = play_lobby(srv_port(y));
    ck_assert(cl_key(w, "w"));
    play_wait_text(w, "Games in progress");
    if (!refresh_until(w, " ", "dave"))
        play_fail(w, "y's lobby does not list dave of x");
    ck_assert(cl_key(w, "a"));
    play_wait_text(w, "Watching dave - q leaves");
    return w;
}

/* dave plays on x (returned), watched from y by *w, which shows his
 * turn. */
static tclient_t *dave_watched(const char *seed, tsrv_t **x, tsrv_t **y,
                               int *walked, tclient_t **w)
{
    tclient_t *a = dave_on_x(seed, x, y, walked);
    *w = watch_dave_from(*y);
    int turn = cl_turn(a);
    if (!cl_wait(*w, cl_at_turn, &turn, CL_WAIT_MS))
        play_fail(*w, "the watcher is not at dave's turn %d", turn);
    return a;
}

/* Watching follows the player across hosts (docs/hosting.md): a watcher
 * on one host watches dave playing on another; dave quits to the lobby
 * (the watcher is told and waits), starts a new game, and the watcher is
 * in it, move by move; then leaves. */
START_TEST(watcher_follows_across_hosts_through_the_lobby)
{
    char seed[32];
    cluster_setup(seed, sizeof seed);
    tsrv_t *x, *y;
    int walked = 0;
    tclient_t *w, *a = dave_watched(seed, &x, &y, &walked, &w);
    int turn;

    /* dave quits to the lobby: the watcher waits, still watching */
    ck_assert(cl_key(a, "Q"));
    ck_assert(cl_key(a, "y"));
    play_wait_text(a, "Logged in as dave");
    if (!cl_wait_text(w, "dave is in the lobby. Waiting for the next game",
                      CL_WAIT_MS))
        play_fail(w, "the watcher on y was not told dave is in the lobby");
    ck_assert(!cl_screen_has(w, "has ended"));
    ck_assert(srv_wait_log(y, "cluster: watch ", CL_WAIT_MS));

    /* a new game: the watcher is in it, and sees each move */
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    if (!cl_wait_text(w, "dave starts a new game.", CL_WAIT_MS))
        play_fail(w, "the watcher on y did not follow dave into his new game");
    walk_on(a, &walked, 2);
    turn = cl_turn(a);
    ck_assert_int_eq(turn, 2);
    if (!cl_wait(w, cl_at_turn, &turn, CL_WAIT_MS))
        play_fail(w, "dave's new game's turn %d did not reach the watcher",
                  turn);
    int ax, ay, wx, wy;
    ck_assert_int_eq(cl_find(a, '@', &ax, &ay), 1);
    ck_assert_int_eq(cl_find(w, '@', &wx, &wy), 1);
    ck_assert(ax == wx && ay == wy);
    /* y loaded each game from the database once */
    ck_assert_int_eq(srv_log_count(y, " key bytes, "), 2);

    /* the watcher leaves, to y's lobby */
    ck_assert(cl_key(w, "q"));
    play_wait_text(w, "Play (as a guest)");

    cl_close(w);
    cl_close(a);
    cluster_teardown(x, y);
}
END_TEST

/* Hosts for a game long enough to have a snapshot: keys taken as fast as
 * the test sends them. */
static tsrv_t *fast_host(const char *seed)
{
    return srv_start("--seed", seed, "--set", cluster_store_arg, "--log-level",
                     "debug", "--set", "max_keys_per_second=100000", NULL);
}

/* Plan pl's keys from..to by the player a, and in g, the test's copy;
 * the player's screen is g's after each (and the watcher w's, if any). */
static void errands(tclient_t *a, tclient_t *w, game_t *g, const plan_t *pl,
                    int from, int to)
{
    for (int i = from; i < to; i++) {
        char key[2] = { pl->keys[i], 0 };
        int no = i < pl->half ? i + 1 : i + 1 + pl->filler;
        if (!cl_key(a, key))
            play_fail(a, "no answer to key %d ('%c')", no, key[0]);
        game_key(g, key[0]);
        if (w)
            play_expect_watched(a, w, g, no);
        else
            expect_screen(a, g, no);
    }
}

/* A watcher on another host joins a game that has a snapshot in the
 * database (docs/hosting.md): that host starts from the snapshot, replays
 * only the keys after it (its log says so), and the watcher sees the
 * player's very screen, then and after each key of errands that pick a
 * thing up, drop one and kill a monster (slots whose bounds a game loaded
 * from a snapshot works out again: world.h, game_derived_t). */
START_TEST(watcher_on_another_host_starts_from_a_snapshot)
{
    char seed[32], sql[256], line[96];
    cluster_setup(seed, sizeof seed);
    plan_t pl;
    find_plan(plan_errands, RULES_ATTACK_DEFENSE, &pl);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)pl.seed);
    fprintf(stderr, "watcher_on_another_host_starts_from_a_snapshot: seed %s, "
            "%d keys before the snapshot's fill, %d after\n", seed, pl.half,
            pl.n - pl.half);
    tsrv_t *x = fast_host(seed), *y = fast_host(seed);
    tclient_t *a = play_lobby(srv_port(x));
    play_login_dave(a, 1);
    ck_assert(cl_key(a, "p"));
    play_wait_text(a, "HP: ");
    game_options_t o = { .ruleset = pl.ruleset };
    game_t *g = game_new(pl.seed, &o);
    expect_screen(a, g, 0);

    /* The first round, then unknown keys up to key 65,536: a snapshot,
     * in the database once dave's host has written it. */
    errands(a, NULL, g, &pl, 0, pl.half);
    char *fill = malloc((size_t)pl.filler);
    ck_assert_ptr_nonnull(fill);
    memset(fill, 'z', (size_t)pl.filler);
    ck_assert_uint_eq(cl_send_raw(a, fill, (size_t)pl.filler, 1,
                                  4 * CL_WAIT_MS), (size_t)pl.filler);
    free(fill);
    for (int i = 0; i < pl.filler; i++)
        game_key(g, 'z');
    ck_assert(cl_sync(a, 4 * CL_WAIT_MS));
    expect_screen(a, g, PLAN_SNAP_KEYS);
    const char *dave = "(SELECT id FROM accounts WHERE name = 'dave')";
    snprintf(sql, sizeof sql, "SELECT coalesce(max(snap_keys), 0) FROM "
             "progress WHERE account_id = %s", dave);
    ck_assert_int_eq(sw_int_reaches(sql, PLAN_SNAP_KEYS), PLAN_SNAP_KEYS);

    /* Two keys of the second round, in the database too: the watcher's
     * host replays both after the snapshot. Only two, so that the tiles
     * the snapshot's last view lit (which each next view must clear:
     * world.h, view_known) are still near the player once it watches. */
    int mid = pl.half + 2;
    errands(a, NULL, g, &pl, pl.half, mid);
    snprintf(sql, sizeof sql, "SELECT coalesce(sum(length(keys)), 0) FROM "
             "progress_keys WHERE account_id = %s", dave);
    ck_assert_int_eq(sw_int_reaches(sql, PLAN_SNAP_KEYS + mid - pl.half),
                     PLAN_SNAP_KEYS + mid - pl.half);

    tclient_t *w = watch_dave_from(y);
    play_expect_watched(a, w, g, mid + pl.filler);
    snprintf(line, sizeof line, ": from the snapshot at key %d, %d keys "
             "replayed", PLAN_SNAP_KEYS, mid - pl.half);
    ck_assert_msg(srv_wait_log(y, line, CL_WAIT_MS), "no \"%s\" in y's log",
                  line);
    ck_assert(!srv_log_has(y, "refused"));

    /* The rest of the round, key by key, on both screens. */
    errands(a, w, g, &pl, mid, pl.n);
    ck_assert_int_ge(g->kills, 2);

    game_free(g);
    cl_close(w);
    cl_close(a);
    cluster_teardown(x, y);
}
END_TEST

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

    PGconn *hold = hold_rows(name);
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
    release_rows(hold);
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
    release_rows(hold);
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

    release_rows(hold);
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
    release_rows(hold);
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
    Suite *s = suite_create("pg_cluster");
    TCase *tc = tcase_create("cluster");
    tcase_set_timeout(tc, 240);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, balancer_kill_a_host_and_continue_on_the_other);
    tcase_add_test(tc, hosts_share_players);
    tcase_add_test(tc, database_away_games_go_on);
    tcase_add_test(tc, a_ban_holds_on_every_host);
    suite_add_tcase(s, tc);
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
    TCase *follow = tcase_create("follow");
    tcase_set_timeout(follow, 240);
    tcase_add_unchecked_fixture(follow, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(follow, watcher_follows_across_hosts_through_the_lobby);
    suite_add_tcase(s, follow);
    TCase *snap = tcase_create("snapshot");
    tcase_set_timeout(snap, 240);
    tcase_add_unchecked_fixture(snap, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(snap, watcher_on_another_host_starts_from_a_snapshot);
    suite_add_tcase(s, snap);
    return s;
}

CHECK_MAIN(make_suite)
