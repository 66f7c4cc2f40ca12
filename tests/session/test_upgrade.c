/* test_upgrade.c - a binary upgrade without a goodbye (docs/hosting.md,
 * "Upgrading without a goodbye") against a real server: 50 telnet
 * sessions (players in games, players in the lobby, a watcher) and 10
 * browsers in games keep their TCP connections across
 * `rogued --upgrade`, the process behind the port changes, each game is
 * at the turn it was and the next key moves it, the watcher follows (and
 * one waiting in the lobby for its player's next game follows that); a new
 * binary that exits at start changes nothing and the old server keeps
 * serving. Through the test hooks (docs/testing.md, "Upgrade test hooks"):
 * a new binary of other rules ends a game recorded in the old process and
 * its player lands in the new one's lobby (the game listed among the
 * finished ones at its turn), its watcher waiting there for the player's
 * next game and following it; a new binary that dies
 * mid-handover loses the sessions packed (as docs/hosting.md says) while
 * the old server accepts again and a connection it had not packed plays
 * on. A new binary that never says it is ready is given up at
 * upgrade_ready_ms (set small) and killed; the old server serves on. */
#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "play.h"
#include "sock_table.h"
#include "ssh_client.h"
#include "sshkey.h"

#define WAIT_MS 30000
/* 50 telnet sessions (players, lobbies and a watcher) and 10 browsers */
#define PLAYERS 40
#define LOBBIES 9
#define WEBS 10

static tsrv_t *start_walk_server(int *http)
{
    static char seed[32], port_set[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)play_walk_seed());
    *http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", *http);
    return srv_start("--seed", seed, "--set", port_set, NULL);
}

/* A player in a game, walked `keys` keys. */
static tclient_t *player(int port, int keys)
{
    tclient_t *c = play_connect(port, NULL);
    play_walk_keys(c, keys);
    return c;
}

/* Waits until c's status line says turn t. */
static void wait_turn(tclient_t *c, int t)
{
    if (!cl_wait(c, cl_at_turn, &t, WAIT_MS))
        play_fail(c, "the turn is %d, not %d", cl_turn(c), t);
}

/* The connection still works (an answer to a telnet ping, no EOF), and
 * the screen is the game at `turn` again. */
static void expect_game_at(tclient_t *c, int turn)
{
    ck_assert_msg(cl_sync(c, WAIT_MS), "no answer after the upgrade");
    ck_assert(!cl_closed(c));
    play_wait_text(c, "HP: ");
    wait_turn(c, turn);
}

/* A browser guest in a game, one turn played (web mode has no frame
 * markers: the screen is the answer). */
static tclient_t *browser(int http)
{
    cl_opts_t o = { .web = 1 };
    tclient_t *c = cl_connect(http, &o);
    play_ready(c);
    ck_assert_int_eq(cl_send_str(c, "."), 0);
    wait_turn(c, 1);
    return c;
}

/* `who`'s sessions as "ID NAME" lines, in its order (by name, then id):
 * what must be the same after an upgrade, which keeps each moved
 * session's id (the idle seconds move, and are left out). */
static void who_ids(tsrv_t *s, char *ids, size_t len)
{
    static char out[1 << 14];
    int rc = srv_ctl(s, "who", out, sizeof out);
    ck_assert_msg(rc == 0, "ctl who: status %d: %s", rc, out);
    size_t at = 0;
    char *save = NULL;
    ids[0] = '\0';
    strtok_r(out, "\n", &save); /* the header */
    for (char *line; (line = strtok_r(NULL, "\n", &save));) {
        char id[32], name[32];
        if (sscanf(line, "%31s %*s %*s %*s %31s", id, name) != 2)
            continue; /* the kept guests' games, if any */
        int k = snprintf(ids + at, len - at, "%s %s\n", id, name);
        ck_assert(k > 0 && (size_t)k < len - at);
        at += (size_t)k;
    }
}

/* The next key moves the game: a wait is one turn. */
static void expect_next_turn(tclient_t *c, int turn)
{
    ck_assert(cl_key(c, "."));
    wait_turn(c, turn + 1);
}

/* 1 if the log has a connect line from local port `port` that is a new
 * connection's, not one moved by an upgrade (a browser's connection to the
 * other port may have had the same local port). */
static int new_connect_logged(const tsrv_t *s, int port)
{
    char needle[48];
    snprintf(needle, sizeof needle, "connect 127.0.0.1:%d ", port);
    char *log = srv_log(s);
    int found = 0;
    for (char *p = strstr(log, needle); p && !found; p = strstr(p + 1, needle)) {
        char *eol = strchr(p, '\n');
        if (eol)
            *eol = '\0';
        found = strstr(p, "moved by an upgrade") == NULL;
        if (eol)
            *eol = '\n';
    }
    free(log);
    return found;
}

START_TEST(upgrade_keeps_sessions)
{
    int http;
    tsrv_t *s = start_walk_server(&http);
    int port = srv_port(s), old_pid = srv_pid(s);
    tclient_t *p[PLAYERS], *l[LOBBIES], *b[WEBS];
    int turn[PLAYERS];
    /* the watcher watches the first game, the only one when it picks */
    p[0] = player(port, 4);
    tclient_t *w = play_lobby(port);
    play_watch_first(w, "guest1");
    for (int i = 1; i < PLAYERS; i++)
        p[i] = player(port, 2 + i);
    for (int i = 0; i < LOBBIES; i++)
        l[i] = play_lobby(port);
    for (int i = 0; i < WEBS; i++)
        b[i] = browser(http);
    for (int i = 0; i < PLAYERS; i++)
        turn[i] = cl_turn(p[i]);

    static char ids_before[8192], ids_after[8192];
    who_ids(s, ids_before, sizeof ids_before);
    char out[1024];
    int rc = srv_upgrade(s, out, sizeof out);
    ck_assert_msg(rc == 0, "rogued --upgrade: status %d: %s", rc, out);
    int pid = srv_upgraded_pid(out);
    ck_assert_msg(pid > 0 && pid != old_pid, "no new pid in: %s", out);
    char moved[64];
    snprintf(moved, sizeof moved, "upgraded: %d sessions moved",
             PLAYERS + LOBBIES + 1 + WEBS); /* (more than one) */
    ck_assert_msg(strstr(out, moved), "not every session moved: %s", out);
    /* the old process exits by itself, cleanly, and leaves the console's
     * socket to the new one (libuv unlinked a path it had bound) */
    ck_assert(srv_wait_exited(s, WAIT_MS));
    rc = srv_ctl(s, "who", out, sizeof out);
    ck_assert_msg(rc == 0, "ctl who after the upgrade: status %d: %s", rc, out);
    /* every moved session keeps its id: `kick ID` read before it works */
    who_ids(s, ids_after, sizeof ids_after);
    ck_assert_str_eq(ids_after, ids_before);

    for (int i = 0; i < PLAYERS; i++)
        expect_game_at(p[i], turn[i]);
    for (int i = 0; i < LOBBIES; i++) {
        ck_assert(cl_sync(l[i], WAIT_MS));
        play_wait_text(l[i], "Play (as a guest)");
    }
    play_wait_text(w, "Watching guest");
    for (int i = 0; i < PLAYERS; i++)
        expect_next_turn(p[i], turn[i]);
    for (int i = 0; i < WEBS; i++) {
        ck_assert(!cl_closed(b[i]));
        wait_turn(b[i], 1);
        ck_assert_int_eq(cl_send_str(b[i], "."), 0);
        wait_turn(b[i], 2);
        ck_assert(!cl_closed(b[i]));
    }
    /* the watcher follows the game it watched, key by key */
    wait_turn(w, turn[0] + 1);
    /* a browser guest's resume token moved with it: its page, dropped,
     * comes back to its game on the new server */
    char token[80];
    snprintf(token, sizeof token, "%s", cl_web_token(b[0]));
    ck_assert_int_eq((int)strlen(token), 32);
    cl_abort(b[0]);
    ck_assert(srv_wait_log(s, "(guest_grace)", WAIT_MS));
    cl_opts_t ro = { .web = 1, .resume = token };
    b[0] = cl_connect(http, &ro);
    play_ready(b[0]);
    wait_turn(b[0], 2);
    /* the lobby works on the new server: its list of games */
    ck_assert(cl_key(l[0], "w"));
    play_wait_text(l[0], "Games in progress");
    /* and a new connection is the new server's (the old one has exited):
     * its own connect line, logged before its lobby was drawn */
    tclient_t *n = play_connect(port, NULL);
    ck_assert(new_connect_logged(s, cl_local_port(n)));

    for (int i = 0; i < PLAYERS; i++)
        cl_close(p[i]);
    for (int i = 0; i < LOBBIES; i++)
        cl_close(l[i]);
    for (int i = 0; i < WEBS; i++)
        cl_close(b[i]);
    cl_close(w);
    cl_close(n);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

static int same_turn(tclient_t *w, void *p)
{
    return cl_turn(w) == cl_turn((tclient_t *)p);
}

/* Upgrades s, which has n sessions to move; returns the new pid once the
 * old process has exited. */
static int upgrade_moving(tsrv_t *s, int n)
{
    int old_pid = srv_pid(s);
    char out[1024], moved[64];
    snprintf(moved, sizeof moved, "upgraded: %d session%s moved", n,
             n == 1 ? "" : "s");
    int rc = srv_upgrade(s, out, sizeof out);
    ck_assert_msg(rc == 0 && strstr(out, moved),
                  "rogued --upgrade: status %d: %s", rc, out);
    int pid = srv_upgraded_pid(out);
    ck_assert_msg(pid > 0 && pid != old_pid, "no new pid in: %s", out);
    ck_assert(srv_wait_exited(s, WAIT_MS));
    return pid;
}

/* After an upgrade: player p (guest1) in the lobby and w waiting for its
 * next game, both in the new process; p starts a game, and w is brought
 * to it and sees each move. */
static void waiter_follows_the_next_game(tclient_t *p, tclient_t *w)
{
    ck_assert(cl_sync(p, WAIT_MS) && cl_sync(w, WAIT_MS));
    play_wait_text(p, "Play as guest1");
    play_wait_text(w, "guest1 is in the lobby. Waiting for them to play");
    ck_assert(cl_key(p, "p"));
    play_wait_text(p, "Turn:0");
    play_wait_text(w, "guest1 starts a new game.");
    play_wait_text(w, "Watching guest1");
    play_walk_keys(p, 3);
    ck_assert_int_gt(cl_turn(p), 0);
    ck_assert_msg(cl_wait(w, same_turn, p, WAIT_MS),
                  "the watcher is at turn %d, the player at %d", cl_turn(w),
                  cl_turn(p));
    play_wait_text(p, "1 watching");
    ck_assert(!cl_closed(w));
}

/* A player (guest1) in a game, `keys` keys walked, and *w watching it. */
static tclient_t *watched_player(int port, int keys, tclient_t **w)
{
    tclient_t *p = player(port, keys);
    *w = play_lobby(port);
    play_watch_first(*w, "guest1");
    play_wait_text(p, "1 watching");
    return p;
}

/* Upgrades s with p and w (p's watcher) in it, checks that w follows p's
 * next game (waiter_follows_the_next_game), and stops everything. */
static void upgrade_then_follow(tsrv_t *s, tclient_t *p, tclient_t *w)
{
    int pid = upgrade_moving(s, 2);
    waiter_follows_the_next_game(p, w);
    cl_close(w);
    cl_close(p);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}

/* A watcher waiting in the lobby for its player's next game moves with
 * the player: after the upgrade the player starts a game from the lobby
 * and the watcher follows it, key by key. (While they wait, what the
 * watcher's notice line says last may come from either process's loops:
 * only the waiting screen and the new game are checked.) */
START_TEST(watcher_waiting_in_the_lobby_follows_the_next_game)
{
    int http;
    tsrv_t *s = start_walk_server(&http);
    tclient_t *w, *p = watched_player(srv_port(s), 2, &w);
    ck_assert(cl_key(p, "Q"));
    ck_assert(cl_key(p, "y"));
    play_wait_text(p, "Play as guest1");
    play_wait_text(w, "guest1 is in the lobby. Waiting for them to play");
    upgrade_then_follow(s, p, w);
}
END_TEST

/* The player whose watcher waits for its next game watches another game
 * meanwhile: the list moves with it all the same, and its next game,
 * once it is back in the lobby, brings the watcher in. */
static void leave_watch_first(tclient_t *p, tclient_t *w)
{
    ck_assert(cl_sync(p, WAIT_MS));
    play_wait_text(p, "Watching guest3");
    ck_assert(cl_key(p, "q"));
    waiter_follows_the_next_game(p, w);
}

START_TEST(waiting_watchers_of_a_player_watching_move_too)
{
    int http;
    tsrv_t *s = start_walk_server(&http);
    tclient_t *w, *p = watched_player(srv_port(s), 2, &w);
    ck_assert(cl_key(p, "Q"));
    ck_assert(cl_key(p, "y"));
    play_wait_text(w, "guest1 is in the lobby. Waiting for them to play");
    tclient_t *q = player(srv_port(s), 2);
    play_watch_first(p, "guest3");
    int pid = upgrade_moving(s, 3);
    leave_watch_first(p, w);
    cl_close(q);
    cl_close(w);
    cl_close(p);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

/* The pid the new process logs ("upgraded: serving as pid N"), once it
 * has. */
static int new_pid_from_log(tsrv_t *s)
{
    ck_assert(srv_wait_log(s, "upgraded: serving as pid ", WAIT_MS));
    char *log = srv_log(s);
    const char *p = strstr(log, "upgraded: serving as pid ");
    int pid = atoi(p + strlen("upgraded: serving as pid "));
    free(log);
    return pid;
}

static tclient_t *dave; /* the account's connection (dave_playing) */

/* A server with the account dave registered and playing, `keys` keys
 * walked (at turn *turn): dave is its connection. */
static tsrv_t *dave_playing(int *port, int keys, int *turn)
{
    int http;
    tsrv_t *s = start_walk_server(&http);
    *port = srv_port(s);
    dave = play_lobby(*port);
    play_login_dave(dave, 1);
    ck_assert(cl_key(dave, "p"));
    play_wait_text(dave, "HP: ");
    play_walk_keys(dave, keys);
    *turn = cl_turn(dave);
    return s;
}

/* SIGUSR2 upgrades too; an account's game goes on in the new process and
 * the store has every key of it, the old process's and the new one's, in
 * order: the next login continues at the very turn it left. */
START_TEST(sigusr2_and_an_account)
{
    int port, t;
    tsrv_t *s = dave_playing(&port, 12, &t);
    tclient_t *d = dave;
    srv_signal(s, SIGUSR2);
    int pid = new_pid_from_log(s);
    ck_assert_int_ne(pid, srv_pid(s));
    ck_assert(srv_wait_exited(s, WAIT_MS));
    expect_game_at(d, t);
    expect_next_turn(d, t);
    cl_close(d);
    ck_assert(srv_wait_log(s, "game suspended id=1 name=dave", WAIT_MS));
    tclient_t *again = play_lobby(port);
    play_login_dave(again, 0);
    play_continue(again, t + 1, t + 1);
    cl_close(again);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

/* SIGUSR2 when the binary the server was started from is gone (a package
 * removed, not replaced): the log says so and where a new one goes, and
 * the server goes on serving. The server runs from a copy of the binary,
 * removed once it has started. */
START_TEST(sigusr2_with_its_binary_gone_says_where_one_goes)
{
    const char *bin = getenv("ROGUED_BIN");
    ck_assert_ptr_nonnull(bin);
    char dir[] = "/tmp/rogued-gone-XXXXXX", copy[PATH_MAX], cmd[PATH_MAX * 2];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(copy, sizeof copy, "%s/rogued", dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", bin, copy);
    ck_assert_int_eq(system(cmd), 0);
    char *was = strdup(bin);
    setenv("ROGUED_BIN", copy, 1);
    tsrv_t *s = srv_start(NULL);
    setenv("ROGUED_BIN", was, 1);
    free(was);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    ck_assert_int_eq(unlink(copy), 0);
    ck_assert_int_eq(rmdir(dir), 0);
    srv_signal(s, SIGUSR2);
    char want[PATH_MAX + 256];
    snprintf(want, sizeof want, "error SIGUSR2: no upgrade: upgrade failed: "
             "cannot start %s: no such file or directory (the binary this "
             "server was started from is gone: put the new one at that path, "
             "or name it: rogued ctl upgrade FILE)\n", copy);
    ck_assert_msg(srv_wait_log(s, want, WAIT_MS), "no \"%s\"", want);
    ck_assert(srv_alive(s));
    play_check_new_player(srv_port(s));
    srv_stop(s);
}
END_TEST

/* A password half typed when the upgrade comes: the rest of that line,
 * typed into the new process, is dropped up to Enter and said so, not
 * read as menu keys (its r opened the registration, and the letters after
 * it were echoed as the name). */
START_TEST(a_line_half_typed_is_dropped_not_read_as_keys)
{
    int http;
    tsrv_t *s = start_walk_server(&http);
    tclient_t *c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "l"));
    play_type_line(c, "dave");
    play_wait_text(c, "Password:");
    ck_assert_int_eq(cl_send_str(c, "se"), 0);
    ck_assert(cl_sync(c, WAIT_MS));
    char out[1024];
    int rc = srv_upgrade(s, out, sizeof out);
    ck_assert_msg(rc == 0, "rogued --upgrade: status %d: %s", rc, out);
    int pid = srv_upgraded_pid(out);
    ck_assert(srv_wait_exited(s, WAIT_MS));
    play_wait_text(c, "that line is dropped. Press Enter.");
    ck_assert_int_eq(cl_send_str(c, "cret1rq3\r"), 0);
    ck_assert(cl_sync(c, WAIT_MS));
    ck_assert(!cl_closed(c)); /* its q did not quit */
    play_wait_text(c, "Play (as a guest)"); /* the menu, no prompt */
    ck_assert(!cl_screen_has(c, "Name:"));
    ck_assert(!cl_screen_has(c, "et1"));
    ck_assert(!cl_screen_has(c, "that line is dropped"));
    /* and the menu's keys work again */
    ck_assert(cl_key(c, "l"));
    play_wait_text(c, "Log in");
    cl_close(c);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

/* An account in the lobby with its saved game offered: after the upgrade
 * the new process offers it again (from the store), at the same turn. */
START_TEST(account_in_the_lobby_keeps_its_saved_game)
{
    int port, t;
    tsrv_t *s = dave_playing(&port, 9, &t);
    cl_close(dave);
    ck_assert(srv_wait_log(s, "game suspended id=1 name=dave", WAIT_MS));
    tclient_t *again = play_lobby(port);
    play_login_dave(again, 0);
    play_wait_text(again, "Continue your game (depth 1, turn ");
    char out[1024];
    int rc = srv_upgrade(s, out, sizeof out);
    ck_assert_msg(rc == 0, "rogued --upgrade: status %d: %s", rc, out);
    int pid = srv_upgraded_pid(out);
    ck_assert_int_gt(pid, 0);
    ck_assert(cl_sync(again, WAIT_MS));
    ck_assert(srv_wait_log(s, "upgraded: serving as pid", WAIT_MS));
    /* still logged in, the game offered again, and it goes on */
    play_wait_text(again, "Logged in as dave");
    play_continue(again, t, t);
    expect_next_turn(again, t);
    cl_close(again);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

/* A telnet session moved by an upgrade still hears its client's DONT
 * ECHO (telnet's `mode line`) and says line mode on the screen: the new
 * process's libtelnet starts where the negotiation left the options (a
 * docs audit found it dropping DONT ECHO as nothing new, so nothing was
 * answered nor said); one in line mode at the upgrade stays told so, and
 * its DO ECHO back is heard. */
START_TEST(line_mode_is_told_after_an_upgrade)
{
    tsrv_t *s = srv_start(NULL);
    tclient_t *c = play_lobby(srv_port(s));
    /* and one in line mode when the upgrade comes */
    tclient_t *m = play_lobby(srv_port(s));
    ck_assert_uint_eq(cl_send_raw(m, "\xff\xfe\x01", 3, 1, WAIT_MS), 3);
    play_wait_text(m, "Line mode: your client echoes keys");
    char out[1024];
    int rc = srv_upgrade(s, out, sizeof out);
    ck_assert_msg(rc == 0, "rogued --upgrade: status %d: %s", rc, out);
    int pid = srv_upgraded_pid(out);
    ck_assert_int_gt(pid, 0);
    ck_assert(srv_wait_log(s, "upgraded: serving as pid", WAIT_MS));
    ck_assert(cl_sync(c, WAIT_MS));
    ck_assert_uint_eq(cl_send_raw(c, "\xff\xfe\x01", 3, 1, WAIT_MS), 3);
    play_wait_text(c, "Line mode: your client echoes keys. In telnet: "
                      "Ctrl-] then mode character");
    ck_assert(!cl_closed(c));
    cl_close(c);
    /* the one in line mode is still told so, and its mode character
     * (DO ECHO) is heard: the screen painted whole, the line gone at the
     * next key (a review found DO ECHO dropped as nothing new) */
    ck_assert(cl_sync(m, WAIT_MS));
    ck_assert(cl_screen_has(m, "Line mode: your client echoes keys"));
    play_leave_line_mode(m);
    cl_close(m);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

/* An SSH player cannot move (the encryption's state is the old
 * process's): its connection ends, a guest told its game ended there
 * (an account's is kept, as at a shutdown); a telnet
 * player beside it moves. The new process holds nothing of the SSH
 * connection: a descriptor the old one made without close-on-exec was
 * inherited and held in CLOSE-WAIT, one more at every upgrade. */
START_TEST(ssh_players_are_told_to_reconnect)
{
    static char arg[32];
    int sport = cl_free_port();
    snprintf(arg, sizeof arg, "ssh_port=%d", sport);
    tsrv_t *s = srv_start("--set", arg, NULL);
    int in, out;
    pid_t ssh = sshc_open(sport, "play", NULL, &in, &out);
    static char buf[65536];
    size_t got = 0;
    buf[0] = '\0';
    ck_assert_msg(sshc_wait(out, buf, sizeof buf, &got, "Play (as a guest)",
                            WAIT_MS), "no lobby over SSH: %s", buf);
    ck_assert_int_eq(write(in, "p\r", 2), 2);
    ck_assert_msg(sshc_wait(out, buf, sizeof buf, &got, "HP: ", WAIT_MS),
                  "no game over SSH: %s", buf);
    tclient_t *t = play_connect(srv_port(s), NULL);
    int turn = cl_turn(t);
    char res[1024];
    int rc = srv_upgrade(s, res, sizeof res);
    ck_assert_msg(rc == 0 && strstr(res, "upgraded: 1 session moved"),
                  "rogued --upgrade: status %d: %s", rc, res);
    int pid = srv_upgraded_pid(res);
    /* a guest: its game ends (recorded), and it is told so, not to
     * reconnect to continue it */
    ck_assert_msg(sshc_wait(out, buf, sizeof buf, &got, "The server is "
                            "upgrading: a guest's game ends here. Reconnect "
                            "to play again.", WAIT_MS),
                  "the SSH player was not told: %s", buf);
    ck_assert(srv_wait_log(s, "reason=\"upgrade\"", WAIT_MS));
    /* and its connection ends: ssh exits */
    ck_assert_msg(sshc_exited(ssh, WAIT_MS), "ssh did not end after the "
                  "upgrade");
    close(in);
    close(out);
    expect_game_at(t, turn);
    expect_next_turn(t, turn);
    ck_assert_int_eq(sock_held_on(pid, sport), 0);
    cl_close(t);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

/* An SSH account cannot move either: its game is kept, as at a
 * shutdown, and the player told to reconnect to go on with it; a login
 * to the new process (here over telnet) continues it at its turn. */
START_TEST(an_ssh_account_is_told_to_reconnect_to_its_game)
{
    char line[512], fp[STORE_KEY_FP_MAX + 1], arg[32], res[1024];
    sshc_keys_setup();
    sshc_make_key("kim", line, sizeof line, fp, sizeof fp);
    int sport = cl_free_port();
    snprintf(arg, sizeof arg, "ssh_port=%d", sport);
    tsrv_t *s = srv_start("--set", arg, NULL);
    sshc_register_key(srv_port(s), sport, "Kim", line, fp);
    int in, out;
    pid_t ssh = sshc_open(sport, "kim", "kim", &in, &out);
    static char buf[65536];
    size_t got = 0;
    buf[0] = '\0';
    /* (the menu, once the lookup of a saved game has answered: keys
     * before it are not the menu's) */
    ck_assert_msg(sshc_wait(out, buf, sizeof buf, &got, "Play as Kim",
                            WAIT_MS), "no lobby over SSH: %s", buf);
    ck_assert_int_eq(write(in, "p", 1), 1);
    ck_assert_msg(sshc_wait(out, buf, sizeof buf, &got, "HP: ", WAIT_MS),
                  "no game over SSH: %s", buf);
    ck_assert_int_eq(write(in, ".....", 5), 5); /* five turns waited */
    ck_assert_int_eq(srv_upgrade(s, res, sizeof res), 0);
    int pid = srv_upgraded_pid(res);
    ck_assert_msg(sshc_wait(out, buf, sizeof buf, &got, "The server is "
                            "upgrading; reconnect to continue.", WAIT_MS),
                  "the SSH player was not told: %s", buf);
    ck_assert_msg(sshc_exited(ssh, WAIT_MS), "ssh did not end after the "
                  "upgrade");
    close(in);
    close(out);
    /* the old process kept the game at the turn it had reached (the
     * five keys may still have been on their way) */
    const char *at = "game suspended id=2 name=Kim turns=";
    ck_assert(srv_wait_log(s, at, WAIT_MS));
    char *log = srv_log(s);
    int kept = -1;
    ck_assert_int_eq(sscanf(strstr(log, at) + strlen(at), "%d", &kept), 1);
    free(log);
    ck_assert(kept >= 0 && kept <= 5);
    tclient_t *c = play_lobby(srv_port(s));
    play_account(c, "Kim", "password1", 0);
    ck_assert_int_eq(play_continue(c, kept, kept), kept);
    cl_close(c);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
    sshc_keys_teardown();
}
END_TEST

START_TEST(failing_binary_changes_nothing)
{
    int http;
    tsrv_t *s = start_walk_server(&http);
    int port = srv_port(s);
    tclient_t *a = player(port, 5), *b = play_lobby(port), *web = browser(http);
    int t = cl_turn(a);
    char out[1024];
    /* a "new binary" that exits at once */
    int rc = srv_ctl(s, "upgrade /bin/false", out, sizeof out);
    ck_assert_msg(rc == 1, "ctl upgrade /bin/false: status %d: %s", rc, out);
    ck_assert_msg(strstr(out, "upgrade failed: the new binary exited (status "
                              "1, signal 0) before it was ready (what it "
                              "said is in this server's log)"), "%s", out);
    ck_assert(srv_wait_log(s, "this server goes on serving", WAIT_MS));
    ck_assert(srv_alive(s));
    /* the same connections, the same server, playing on */
    expect_next_turn(a, t);
    ck_assert(cl_key(b, "w"));
    play_wait_text(b, "Games in progress");
    ck_assert_int_eq(cl_send_str(web, "."), 0);
    wait_turn(web, 2);
    ck_assert(!cl_closed(a) && !cl_closed(b) && !cl_closed(web));
    /* and a later upgrade still may happen: it is not stuck "under way" */
    rc = srv_ctl(s, "upgrade /bin/false", out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "upgrade failed: the new binary "
                                         "exited"), "%s", out);
    /* a binary that is not there: the console says which and why */
    rc = srv_ctl(s, "upgrade /nonexistent/rogued", out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "rogued ctl: upgrade failed: "
                                         "cannot start /nonexistent/rogued: "
                                         "no such file or directory\n"),
                  "%s", out);
    cl_close(a);
    cl_close(b);
    cl_close(web);
    srv_stop(s);
}
END_TEST

/* A server started with the environment variable `name` set to `value`
 * (inherited by the new process of an upgrade; the test's own environment
 * is left as it was). */
static tsrv_t *start_with_env(const char *name, const char *value, int *port)
{
    ck_assert_int_eq(setenv(name, value, 1), 0);
    int http;
    tsrv_t *s = start_walk_server(&http);
    ck_assert_int_eq(unsetenv(name), 0);
    *port = srv_port(s);
    return s;
}

/* The log's "game over" line of `name`'s game, into line: 1, or 0. */
static int game_over_line(tsrv_t *s, const char *name, char *line, size_t n)
{
    char *log = srv_log(s), want[64];
    snprintf(want, sizeof want, " name=%s seed=", name);
    int found = 0;
    for (const char *p = strstr(log, "game over id="); p && !found;
         p = strstr(p + 1, "game over id=")) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        snprintf(line, n, "%.*s", (int)len, p);
        found = strstr(line, want) != NULL;
    }
    free(log);
    return found;
}

/* The new binary says other rules (GAME_VERSION + 1): the guest's game
 * cannot be replayed there, so it ends recorded in the old process at the
 * turn it was; the connection stays and the player is in the new
 * process's lobby; `rogued --list-games` lists the game. */
START_TEST(other_rules_end_the_game_recorded)
{
    char version[16];
    snprintf(version, sizeof version, "%d", GAME_VERSION + 1);
    int port;
    tsrv_t *s = start_with_env("ROGUED_UPGRADE_TEST_VERSION", version, &port);
    int old_pid = srv_pid(s);
    tclient_t *c = player(port, 6);
    int t = cl_turn(c);
    ck_assert_int_gt(t, 0);
    char out[1024];
    int rc = srv_upgrade(s, out, sizeof out);
    ck_assert_msg(rc == 0 && strstr(out, "upgraded: 1 session moved"),
                  "rogued --upgrade: status %d: %s", rc, out);
    int pid = srv_upgraded_pid(out);
    ck_assert_msg(pid > 0 && pid != old_pid, "no new pid in: %s", out);
    char said[160];
    snprintf(said, sizeof said, "upgrade: the new binary's rules are version "
             "%d, ours %d: games in progress end recorded", GAME_VERSION + 1,
             GAME_VERSION);
    ck_assert_msg(srv_log_has(s, said), "not logged: %s", said);
    /* recorded by the old process, at its turn, for the new rules */
    char line[512], turns[32];
    ck_assert_msg(game_over_line(s, "guest1", line, sizeof line),
                  "guest1's game was not recorded");
    snprintf(turns, sizeof turns, " turns=%d ", t);
    ck_assert_msg(strstr(line, turns), "not at turn %d: %s", t, line);
    ck_assert_msg(strstr(line, " cause=\"ended by a server upgrade to new "
                               "rules\""), "%s", line);
    /* the same connection, in the new process's lobby */
    ck_assert_msg(cl_sync(c, WAIT_MS), "no answer after the upgrade");
    ck_assert(!cl_closed(c));
    play_wait_text(c, "Play as guest1");
    /* the finished games, as the host lists them: the game at its turn,
     * with its record (a game ended so is not ranked: no hall of fame) */
    char dir[512], args[700], list[4096], want[160];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(args, sizeof args, "--data-dir %s --list-games", dir);
    rc = srv_run_once("", args, list, sizeof list);
    ck_assert_msg(rc == 0, "--list-games: status %d: %s", rc, list);
    const char *row = strstr(list, "  guest1 ");
    ck_assert_msg(row, "guest1's game is not listed: %s", list);
    /* its line ends with its turns and how it ended (no "no record") */
    snprintf(want, sizeof want, " %6d  ended by a server upgrade to new "
             "rules\n", t);
    const char *at = strstr(row, want);
    ck_assert_msg(at && !memchr(row, '\n', (size_t)(at - row)),
                  "\"%s\" is not guest1's line: %s", want, list);
    /* the old process exits by itself */
    ck_assert(srv_wait_exited(s, WAIT_MS));
    cl_close(c);
    srv_stop_upgraded(s, pid);
    srv_stop(s);
}
END_TEST

/* Other rules, a game watched: the game ends in the old process, and its
 * watcher waits for the player's next game whichever loop packs it first
 * (told so before either is packed), then follows that game in the new
 * process. */
START_TEST(other_rules_watcher_follows_the_next_game)
{
    char version[16];
    snprintf(version, sizeof version, "%d", GAME_VERSION + 1);
    int port;
    tsrv_t *s = start_with_env("ROGUED_UPGRADE_TEST_VERSION", version, &port);
    tclient_t *w, *p = watched_player(port, 4, &w);
    upgrade_then_follow(s, p, w); /* the game ended: p is in the lobby */
}
END_TEST

/* A telnet client through the "balancer" (this test), made with
 * cl_connect: until its PROXY header it is accepted, not admitted. The
 * header, then the lobby. */
static void proxy_header(tclient_t *c, int sport)
{
    char hdr[96];
    int n = snprintf(hdr, sizeof hdr,
                     "PROXY TCP4 192.0.2.%d 127.0.0.1 %d 2323\r\n",
                     sport % 200 + 1, sport);
    ck_assert_uint_eq(cl_send_raw(c, hdr, (size_t)n, 1, WAIT_MS), (size_t)n);
    play_wait_text(c, "Play (as a guest)");
}

/* In the lobby: a guest game (its name as offered), one turn played. */
static void play_one_turn(tclient_t *c)
{
    ck_assert(cl_key(c, "p"));
    play_wait_text(c, "Name: guest");
    ck_assert(cl_key(c, "\r"));
    play_wait_text(c, "HP: ");
    int t = cl_turn(c);
    expect_next_turn(c, t);
}

/* The new binary exits after it said ready, having taken one of the two
 * sessions packed: the old process says the upgrade failed and that the
 * sessions packed are lost (docs/hosting.md), their connections end, it
 * accepts again, and a connection it had not packed (still in its PROXY
 * header) plays on, as does a new one. */
START_TEST(new_binary_dying_mid_handover)
{
    static char http_set[32];
    int http = cl_free_port();
    snprintf(http_set, sizeof http_set, "http_port=%d", http);
    ck_assert_int_eq(setenv("ROGUED_UPGRADE_TEST_EXIT_AFTER", "1", 1), 0);
    /* a PROXY header may come 4 x negotiation_ms after the connection:
     * 40 s, for the one left waiting through the upgrade */
    tsrv_t *s = srv_start("--set", "proxy_protocol=on", "--set",
                          "proxy_trusted=127.0.0.0/8", "--set", http_set,
                          "--set", "negotiation_ms=10000", NULL);
    ck_assert_int_eq(unsetenv("ROGUED_UPGRADE_TEST_EXIT_AFTER"), 0);
    int port = srv_port(s), old_pid = srv_pid(s);
    /* accepted first (one listener, taken in order), so on its worker
     * before the upgrade is asked */
    tclient_t *pending = cl_connect(port, NULL);
    tclient_t *a = cl_connect(port, NULL), *b = cl_connect(port, NULL);
    proxy_header(a, 40001);
    proxy_header(b, 40002);
    play_one_turn(a);
    ck_assert(srv_wait_log(s, "connect 192.0.2.", WAIT_MS));
    char out[1024];
    int rc = srv_upgrade(s, out, sizeof out);
    /* the one not packed goes on at once: its header, the lobby */
    proxy_header(pending, 40003);
    ck_assert_msg(rc == 1, "rogued --upgrade: status %d: %s", rc, out);
    ck_assert_msg(strstr(out, "upgrade failed: the new binary did not take "
                              "over (") && strstr(out, "); 2 sessions were "
                                                       "lost"), "%s", out);
    ck_assert(srv_wait_log(s, "upgrade: test hook: exiting after 1 sessions "
                              "taken", WAIT_MS));
    ck_assert(srv_wait_log(s, "2 sessions were lost; this server goes on "
                              "serving", WAIT_MS));
    ck_assert(srv_alive(s));
    ck_assert_int_eq(srv_pid(s), old_pid);
    /* the sessions packed are gone with the new process */
    ck_assert(cl_wait_eof(a, WAIT_MS));
    ck_assert(cl_wait_eof(b, WAIT_MS));
    /* the one not packed plays */
    play_one_turn(pending);
    /* and the old server accepts again */
    tclient_t *n = cl_connect(port, NULL);
    proxy_header(n, 40004);
    play_one_turn(n);
    ck_assert(!cl_closed(pending) && !cl_closed(n));
    cl_close(a);
    cl_close(b);
    cl_close(pending);
    cl_close(n);
    srv_stop(s);
}
END_TEST

/* The pid the old process logs for the binary it started as `exe`. */
static int started_pid(tsrv_t *s, const char *exe)
{
    char want[700];
    snprintf(want, sizeof want, "upgrade: started %s as pid ", exe);
    ck_assert(srv_wait_log(s, want, WAIT_MS));
    char *log = srv_log(s);
    int pid = atoi(strstr(log, want) + strlen(want));
    free(log);
    return pid;
}

/* A "new binary" in the server's data directory (its path into exe)
 * that never says it is ready: a script that sleeps. */
static void never_ready_binary(tsrv_t *s, char *exe, size_t n)
{
    char dir[512];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(exe, n, "%s/never-ready.sh", dir);
    FILE *f = fopen(exe, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert(fputs("#!/bin/sh\nexec sleep 600\n", f) >= 0);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(chmod(exe, 0755), 0);
}

/* A new binary that never says it is ready: past upgrade_ready_ms (set
 * small, the clock this test controls) the old process says so, kills it
 * and goes on serving; its player's game goes on. */
START_TEST(new_binary_never_ready)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)play_walk_seed());
    tsrv_t *s = srv_start("--seed", seed, "--set", "upgrade_ready_ms=100",
                          NULL);
    tclient_t *a = player(srv_port(s), 3);
    int t = cl_turn(a);
    char exe[600], cmd[700], out[1024];
    never_ready_binary(s, exe, sizeof exe);
    snprintf(cmd, sizeof cmd, "upgrade %s", exe);
    int rc = srv_ctl(s, cmd, out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "upgrade failed: the new binary did "
                                         "not say it was ready in time"),
                  "ctl %s: status %d: %s", cmd, rc, out);
    /* the process it started is gone (killed, then reaped) */
    int pid = started_pid(s, exe);
    ck_assert_int_gt(pid, 0);
    ck_assert_msg(srv_wait_pid_gone(pid, 1, WAIT_MS), "pid %d still runs",
                  pid);
    ck_assert(srv_alive(s));
    expect_next_turn(a, t);
    tclient_t *n = play_connect(srv_port(s), NULL);
    expect_next_turn(n, cl_turn(n));
    cl_close(a);
    cl_close(n);
    srv_stop(s);
}
END_TEST

/* A stop while an upgrade waits for its new binary: the upgrade fails,
 * and the log says so without "this server goes on serving" (it does
 * not: a host QA read the two lines together); the server stops. */
START_TEST(a_stop_during_an_upgrade_is_said_plainly)
{
    tsrv_t *s = srv_start("--set", "upgrade_ready_ms=600000", NULL);
    char exe[600], cmd[700], out[1024];
    never_ready_binary(s, exe, sizeof exe);
    snprintf(cmd, sizeof cmd, "upgrade %s", exe);
    FILE *p = srv_ctl_start(s, cmd);
    int pid = started_pid(s, exe);
    ck_assert_int_gt(pid, 0);
    srv_signal(s, SIGTERM);
    ck_assert(srv_wait_exited(s, WAIT_MS));
    char *log = srv_log(s);
    const char *at = strstr(log, "upgrade failed: the server is shutting "
                                 "down");
    ck_assert_msg(at, "%s", log);
    ck_assert_msg(at[43] == '\n', "%s", at); /* nothing after it */
    free(log);
    srv_ctl_finish(p, out, sizeof out);
    ck_assert_msg(srv_wait_pid_gone(pid, 0, WAIT_MS), "pid %d still runs",
                  pid);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("upgrade");
    TCase *tc = tcase_create("upgrade");
    tcase_set_timeout(tc, 240);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, upgrade_keeps_sessions);
    tcase_add_test(tc, sigusr2_and_an_account);
    tcase_add_test(tc, line_mode_is_told_after_an_upgrade);
    tcase_add_test(tc, sigusr2_with_its_binary_gone_says_where_one_goes);
    tcase_add_test(tc, account_in_the_lobby_keeps_its_saved_game);
    tcase_add_test(tc, a_line_half_typed_is_dropped_not_read_as_keys);
    tcase_add_test(tc, watcher_waiting_in_the_lobby_follows_the_next_game);
    tcase_add_test(tc, waiting_watchers_of_a_player_watching_move_too);
    tcase_add_test(tc, ssh_players_are_told_to_reconnect);
    tcase_add_test(tc, an_ssh_account_is_told_to_reconnect_to_its_game);
    tcase_add_test(tc, failing_binary_changes_nothing);
    tcase_add_test(tc, a_stop_during_an_upgrade_is_said_plainly);
    suite_add_tcase(s, tc);
    /* the paths reached through the test hooks (docs/testing.md) */
    TCase *hooks = tcase_create("upgrade_hooks");
    tcase_set_timeout(hooks, 240);
    tcase_add_unchecked_fixture(hooks, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(hooks, other_rules_end_the_game_recorded);
    tcase_add_test(hooks, other_rules_watcher_follows_the_next_game);
    tcase_add_test(hooks, new_binary_dying_mid_handover);
    tcase_add_test(hooks, new_binary_never_ready);
    suite_add_tcase(s, hooks);
    return s;
}

CHECK_MAIN(make_suite)
