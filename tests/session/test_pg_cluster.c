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
 * The loss of the database by one host, and which login keeps an account's
 * game then: test_pg_cluster_loss.c.
 *
 * Run by tests/run-tests.sh's cluster family (make cluster: a throwaway
 * PostgreSQL, a database of each test's own, Debian's HAProxy). */
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
#include "pg_cluster_setup.h"
#include "store_where.h"

/* Runs sql on the server's maintenance database (for what cannot run on
 * the test's own: letting it be connected to or not). */
static void admin(const char *sql)
{
    char url[512];
    sw_url_for("postgres", url, sizeof url);
    sw_pq(url, sql, 1);
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
    if (!cl_wait_text(w, "dave is in the lobby. Waiting for them to play",
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
