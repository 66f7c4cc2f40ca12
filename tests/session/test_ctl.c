/* test_ctl.c - the operator's console (`rogued ctl`, docs/hosting.md,
 * "Operations") against a real server: who lists exactly the sessions,
 * say reaches every screen, kick closes exactly the one named, shutdown
 * counts down on the screens then stops cleanly, reload changes the
 * message of the day a new player sees (and names a mistyped ROGUED_
 * variable, as the log does at start), backup writes a copy that passes
 * quick_check while a game is being written; the socket is the owner's
 * only; each command `help` lists is one the console runs (`metrics`
 * too). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <check.h>
#include <netinet/in.h>
#include <poll.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "play.h"

#define WAIT_MS 30000

/* Waits (up to WAIT_MS) for the server to exit by itself. */
static void wait_exit(tsrv_t *s)
{
    ck_assert_msg(srv_wait_exited(s, WAIT_MS), "the server did not exit:\n%s",
                  srv_log(s));
}

/* The ids `who` lists (after its header), and the lines. */
static int who_lines(tsrv_t *s, char lines[][128], int max)
{
    char out[4096];
    int rc = srv_ctl(s, "who", out, sizeof out);
    ck_assert_msg(rc == 0, "ctl who: status %d: %s", rc, out);
    int n = 0;
    char *save = NULL;
    char *line = strtok_r(out, "\n", &save);
    ck_assert_msg(line && strcmp(line, "ID ADDRESS TRANSPORT STATE NAME IDLE") == 0,
                  "who's header: %s", line ? line : "(none)");
    while ((line = strtok_r(NULL, "\n", &save)) && n < max)
        snprintf(lines[n++], 128, "%s", line);
    return n;
}

/* The line of `who` for the player named name, or fails. */
static const char *who_line_of(char lines[][128], int n, const char *name)
{
    for (int i = 0; i < n; i++) {
        char id[32], addr[64], tr[16], state[16], nm[32];
        unsigned long long idle;
        if (sscanf(lines[i], "%31s %63s %15s %15s %31s %llu", id, addr, tr,
                   state, nm, &idle) == 6 && strcmp(nm, name) == 0)
            return lines[i];
    }
    ck_abort_msg("who lists no %s", name);
    return NULL;
}

START_TEST(who_say_kick)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    char dir[600], sock[700];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(sock, sizeof sock, "%s/ctl.sock", dir);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    struct stat st;
    ck_assert_int_eq(stat(sock, &st), 0);
    ck_assert(S_ISSOCK(st.st_mode));
    ck_assert_int_eq(st.st_mode & 0777, 0600);

    tclient_t *a = play_connect(srv_port(s), NULL); /* guest1 plays */
    /* in the lobby, at 40 columns: its goodbye broken at a space */
    cl_opts_t narrow = { .w = 40, .h = 20 };
    tclient_t *b = cl_connect(srv_port(s), &narrow);
    play_wait_text(b, "Not logged in");
    char lines[8][128];
    int n = who_lines(s, lines, 8);
    ck_assert_msg(n == 2, "who lists %d sessions", n);
    const char *la = who_line_of(lines, n, "guest1");
    ck_assert_msg(strstr(la, " 127.0.0.1:") && strstr(la, " telnet playing guest1 "),
                  "guest1's line: %s", la);
    int other = strstr(lines[0], "guest1") ? 1 : 0;
    ck_assert_msg(strstr(lines[other], " telnet lobby "), "the lobby's line: %s",
                  lines[other]);
    unsigned long long ida = strtoull(la, NULL, 10);
    unsigned long long idb = strtoull(lines[other], NULL, 10);
    ck_assert(ida > 0 && idb > 0 && ida != idb);
    ck_assert(srv_wait_log(s, "ctl: uid ", WAIT_MS));
    char uidline[64];
    snprintf(uidline, sizeof uidline, "ctl: uid %u: who", (unsigned)getuid());
    ck_assert(srv_log_has(s, uidline));

    /* say: on both screens */
    char out[4096];
    ck_assert_int_eq(srv_ctl(s, "say 'Maintenance at noon'", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "said to 2 sessions"), "%s", out);
    play_wait_text(a, "[host] Maintenance at noon");
    play_wait_text(b, "[host] Maintenance at noon");

    /* kick: exactly b */
    char cmd[64];
    snprintf(cmd, sizeof cmd, "kick %llu", idb);
    ck_assert_int_eq(srv_ctl(s, cmd, out, sizeof out), 0);
    ck_assert(cl_wait_eof(b, WAIT_MS));
    ck_assert(cl_stream_has(b, "The server's operator has closed your\r\n"
                               "connection.\r\n"));
    ck_assert(!cl_closed(a));
    int turn = cl_turn(a);
    play_walk_keys(a, 1);
    ck_assert(cl_turn(a) > turn);
    n = who_lines(s, lines, 8);
    ck_assert_int_eq(n, 1);
    ck_assert(strtoull(lines[0], NULL, 10) == ida);
    /* one session left: said to it, in the singular */
    ck_assert_int_eq(srv_ctl(s, "say 'Back soon'", out, sizeof out), 0);
    ck_assert_msg(strcmp(out, "said to 1 session\n") == 0, "%s", out);
    play_wait_text(a, "[host] Back soon");
    /* a session that is not there, a command that is not */
    ck_assert_int_eq(srv_ctl(s, cmd, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "no session"), "%s", out);
    ck_assert_int_eq(srv_ctl(s, "frobnicate", out, sizeof out), 1);
    ck_assert_msg(strstr(out, "unknown command \"frobnicate\"\n") &&
                  strstr(out, "kick ID"), "%s", out);
    cl_close(a);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* who's sessions by name, then id, the nameless ("-") last: the same
 * order at every call, though each worker loop answers in its own time
 * and lists its own sessions newest first. */
START_TEST(who_is_sorted_by_name_then_id)
{
    enum { PLAYERS = 5, CALLS = 3 };
    tsrv_t *s = srv_start("--seed", "42", NULL);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    tclient_t *c[PLAYERS + 1];
    for (int i = 0; i < PLAYERS; i++)
        c[i] = play_connect(srv_port(s), NULL); /* guest1..guest5 play */
    c[PLAYERS] = play_lobby(srv_port(s));      /* no name yet: "-" */
    char first[PLAYERS + 1][48];
    for (int call = 0; call < CALLS; call++) {
        char lines[PLAYERS + 2][128];
        int n = who_lines(s, lines, PLAYERS + 2);
        ck_assert_int_eq(n, PLAYERS + 1);
        for (int i = 0; i < n; i++) {
            char addr[64], tr[16], state[16], name[32];
            unsigned long long id, idle;
            ck_assert_int_eq(sscanf(lines[i], "%llu %63s %15s %15s %31s "
                                    "%llu", &id, addr, tr, state, name,
                                    &idle), 6);
            char want[32];
            if (i < PLAYERS)
                snprintf(want, sizeof want, "guest%d", i + 1);
            else
                snprintf(want, sizeof want, "-");
            ck_assert_msg(strcmp(name, want) == 0, "who's line %d is %s, "
                          "not %s:\n%s", i, name, want, lines[i]);
            char key[48]; /* the idle seconds may move between calls */
            snprintf(key, sizeof key, "%llu %s", id, name);
            if (call == 0)
                snprintf(first[i], sizeof first[i], "%s", key);
            else
                ck_assert_str_eq(key, first[i]);
        }
    }
    for (int i = 0; i <= PLAYERS; i++)
        cl_close(c[i]);
    srv_stop(s);
}
END_TEST

/* `who`'s line of a browser guest's game kept after its connection
 * dropped (guest_grace): "kept: NAME's game at turn T (...) ends in S s,
 * at TIME UTC, ...", S within [lo, hi] and TIME now + S (a second's
 * slack each side); the number of such lines in *nkept. */
static void who_kept_line(tsrv_t *s, const char *name, unsigned turn, int lo,
                          int hi, int *nkept)
{
    char out[4096], want[128];
    ck_assert_int_eq(srv_ctl(s, "who", out, sizeof out), 0);
    snprintf(want, sizeof want, "\nkept: %s's game at turn %u (a browser "
             "guest's, its connection gone) ends in ", name, turn);
    const char *at = strstr(out, want);
    ck_assert_msg(at, "no \"%s\" in:\n%s", want + 1, out);
    *nkept = 0;
    for (const char *k = out; (k = strstr(k, "\nkept: ")); k++)
        (*nkept)++;
    int left, n = 0;
    struct tm tm = { 0 };
    int64_t before = (int64_t)time(NULL);
    ck_assert_msg(sscanf(at + strlen(want), "%d s, at %d-%d-%d %d:%d:%d UTC, "
                         "unless its page comes back (guest_grace)\n%n",
                         &left, &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                         &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) == 7 && n > 0,
                  "kept line: %s", at + 1);
    ck_assert_msg(left >= lo && left <= hi, "ends in %d s: %s", left, at + 1);
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    int64_t until = (int64_t)timegm(&tm);
    ck_assert_msg(until >= before + left - 2 && until <= before + left + 1,
                  "until %lld, now %lld + %d s", (long long)until,
                  (long long)before, left);
}

/* `who` shows a browser guest's game kept after its connection dropped
 * (it is nobody's session, and ends unless the page comes back): its
 * player, turn and end, after the sessions; gone once the page takes it
 * back. */
START_TEST(who_lists_a_kept_guest_game)
{
    int http = cl_free_port();
    char port_set[32];
    snprintf(port_set, sizeof port_set, "http_port=%d", http);
    tsrv_t *s = srv_start("--seed", "42", "--set", port_set, "--set",
                          "guest_grace=300", NULL);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    cl_opts_t o = { .web = 1 };
    tclient_t *a = cl_connect(http, &o);
    play_ready(a);
    ck_assert_int_eq(cl_send_str(a, "l"), 0); /* seed 42: floor east */
    int one = 1;
    ck_assert(cl_wait(a, cl_at_turn, &one, WAIT_MS));
    char token[80], out[4096];
    snprintf(token, sizeof token, "%s", cl_web_token(a));
    ck_assert_int_eq(srv_ctl(s, "who", out, sizeof out), 0);
    ck_assert_msg(strstr(out, " web playing guest1 ") && !strstr(out, "kept"),
                  "%s", out);
    cl_abort(a);
    ck_assert(srv_wait_log(s, "game kept id=1 name=guest1 turns=1 for 300 s",
                           WAIT_MS));
    int nkept;
    who_kept_line(s, "guest1", 1, 295, 300, &nkept);
    ck_assert_int_eq(nkept, 1);
    /* the page back: played again, kept no more */
    o.resume = token;
    tclient_t *b = cl_connect(http, &o);
    play_ready(b);
    ck_assert_int_eq(cl_turn(b), 1);
    ck_assert_int_eq(srv_ctl(s, "who", out, sizeof out), 0);
    ck_assert_msg(strstr(out, " web playing guest1 ") && !strstr(out, "kept"),
                  "%s", out);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* Where text (its characters past ASCII read as '?') is on c's screen:
 * its column and row, or the test ends. */
static void text_at(const tclient_t *c, const char *text, int *x, int *y)
{
    char row[512];
    for (*y = 0; *y < cl_h(c); (*y)++) {
        const char *at = strstr(cl_row(c, *y, row, sizeof row), text);
        if (at) {
            *x = (int)(at - row);
            return;
        }
    }
    ck_abort_msg("\"%s\" is not on the screen", text);
}

/* kick of an account at play: it is told its game is kept, and the next
 * login is offered it. */
START_TEST(kick_tells_an_account_its_game_is_kept)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *k = play_register(srv_port(s), "kate");
    ck_assert(cl_key(k, "p"));
    play_wait_text(k, "HP: ");
    play_walk_keys(k, 3);
    char lines[4][128], cmd[64], out[1024];
    int n = who_lines(s, lines, 4);
    snprintf(cmd, sizeof cmd, "kick %llu",
             strtoull(who_line_of(lines, n, "kate"), NULL, 10));
    ck_assert_int_eq(srv_ctl(s, cmd, out, sizeof out), 0);
    ck_assert(cl_wait_eof(k, WAIT_MS));
    /* two lines: one would break mid-word at 80 columns */
    ck_assert(cl_stream_has(k, "The server's operator has closed your "
                               "connection.\r\nYour game is kept for your "
                               "next login.\r\n"));
    cl_close(k);
    tclient_t *again = play_lobby(srv_port(s));
    ck_assert(cl_key(again, "l"));
    play_type_line(again, "kate");
    play_type_line(again, "password1");
    play_wait_text(again, "Continue your game");
    cl_close(again);
    srv_stop(s);
}
END_TEST

/* The host's text in UTF-8 (the server's name, the message of the day,
 * a console `say`) reaches a UTF-8 terminal a character a cell, not as
 * its bytes taken for Latin-1 ("CafÃ©"). */
START_TEST(the_hosts_text_in_utf8)
{
    tsrv_t *s = srv_start("--set", "server_name=Caf\xc3\xa9", "--set",
                          "motd=Bienvenue: \xc3\xa9t\xc3\xa9 \xe2\x9c\x93", NULL);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    cl_opts_t o = { .environ = "LANG=C.UTF-8" };
    tclient_t *c = cl_connect(srv_port(s), &o);
    play_wait_text(c, "Play (as a guest)");
    int x, y;
    text_at(c, "Welcome to Caf?", &x, &y);
    ck_assert_int_eq(cl_at(c, x + 14, y), 0xe9);
    ck_assert_int_eq(cl_at(c, x + 15, y), ' '); /* one cell, not two */
    text_at(c, "Bienvenue: ?t? ?", &x, &y);
    ck_assert_int_eq(cl_at(c, x + 11, y), 0xe9);
    ck_assert_int_eq(cl_at(c, x + 13, y), 0xe9);
    ck_assert_int_eq(cl_at(c, x + 15, y), 0x2713);
    char out[256];
    ck_assert_int_eq(srv_ctl(s, "say 'h\xc3\xa9llo'", out, sizeof out), 0);
    play_wait_text(c, "[host] h?llo");
    text_at(c, "[host] h?llo", &x, &y);
    ck_assert_int_eq(cl_at(c, x + 8, y), 0xe9);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* A say wider than a 40x20 terminal is broken at spaces over the rows
 * under the map window, its columns counted as drawn: the first row is
 * 40 columns of UTF-8 (41 bytes) and keeps its last word. */
START_TEST(say_wrapped_at_40x20)
{
    tsrv_t *s = srv_start(NULL);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    cl_opts_t o = { .environ = "LANG=C.UTF-8", .w = 40, .h = 20 };
    tclient_t *c = cl_connect(srv_port(s), &o);
    play_wait_text(c, "Play (as a guest)");
    char out[256], row[256];
    ck_assert_int_eq(srv_ctl(s, "say 'Caf\xc3\xa9: the server restarts at "
                                "noon for an upgrade.'", out, sizeof out), 0);
    play_wait_text(c, "for an upgrade.");
    ck_assert_str_eq(cl_row(c, 16, row, sizeof row),
                     "[host] Caf?: the server restarts at noon");
    ck_assert_str_eq(cl_row(c, 17, row, sizeof row), "for an upgrade.");
    ck_assert_int_eq(cl_at(c, 10, 16), 0xe9);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* The countdown's notice stays up a minute of the test's clock (an hour
 * here); `shutdown cancel` calls it off (every screen told; a second
 * finds none); a new countdown, then `shutdown 0`, stops now, every game
 * kept. */
START_TEST(shutdown_counts_down_then_stops_clean)
{
    tsrv_t *s = srv_start("--seed", "42", "--set", "guest_min_turns=0",
                          "--set", "shutdown_minute_ms=3600000", NULL);
    tclient_t *a = play_connect(srv_port(s), NULL);
    play_walk_keys(a, 3);
    char out[4096];
    ck_assert_int_eq(srv_ctl(s, "shutdown 2", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "shutting down in 2 minutes"), "%s", out);
    play_wait_text(a, "The server shuts down in 2 minutes.");
    ck_assert(srv_alive(s));
    /* called off: every screen told, the server on; none to call off then */
    ck_assert_int_eq(srv_ctl(s, "shutdown cancel", out, sizeof out), 0);
    ck_assert_str_eq(out, "shutdown called off (2 minutes were left)\n");
    play_wait_text(a, "The shutdown is called off: play on.");
    ck_assert(srv_wait_log(s, "shutdown called off by the console (2 minutes "
                           "left)", WAIT_MS));
    ck_assert_int_eq(srv_ctl(s, "shutdown cancel", out, sizeof out), 1);
    ck_assert_msg(strstr(out, "no shutdown is counting down"), "%s", out);
    play_walk_keys(a, 1);
    ck_assert(srv_alive(s));
    ck_assert_int_eq(srv_ctl(s, "shutdown 2", out, sizeof out), 0);
    play_wait_text(a, "The server shuts down in 2 minutes.");
    ck_assert_int_eq(srv_ctl(s, "shutdown 0", out, sizeof out), 0);
    ck_assert(cl_wait_eof(a, WAIT_MS));
    ck_assert(cl_stream_has(a, "The server is shutting down"));
    ck_assert(srv_wait_log(s, "closed (1 game written)", WAIT_MS));
    wait_exit(s);
    srv_stop(s); /* exit status 0, a clean log */
    cl_close(a);
}
END_TEST

/* With a short minute the countdown ends by itself. */
START_TEST(shutdown_countdown_ends_in_shutdown)
{
    tsrv_t *s = srv_start("--seed", "42", "--set", "guest_min_turns=0",
                          "--set", "shutdown_minute_ms=50", NULL);
    tclient_t *a = play_connect(srv_port(s), NULL);
    play_walk_keys(a, 3);
    char out[4096];
    ck_assert_int_eq(srv_ctl(s, "shutdown 3", out, sizeof out), 0);
    ck_assert(cl_wait_eof(a, WAIT_MS));
    ck_assert(cl_stream_has(a, "The server is shutting down"));
    ck_assert(srv_wait_log(s, "shutting down (shutdown by the console)", WAIT_MS));
    ck_assert(srv_wait_log(s, "closed (1 game written)", WAIT_MS));
    wait_exit(s);
    srv_stop(s);
    cl_close(a);
}
END_TEST

/* reload names each key the file changed, in config.c's order: a live
 * one applied (the motd a new player sees), any other as taking a
 * restart, one a flag sets with what the file now says and what it keeps
 * (workers: srv_start sets it with --set); the same file again names
 * none but those taking a restart; a file that does not parse changes
 * nothing. */
START_TEST(reload_changes_the_motd)
{
    char conf[] = "/tmp/rogued-ctl-conf-XXXXXX";
    srv_new_conf(conf, "motd = The first message of the day\n");
    tsrv_t *s = srv_start("--config", conf, NULL);
    tclient_t *a = play_lobby(srv_port(s));
    play_wait_text(a, "The first message of the day");
    srv_write_file(conf, "motd = A second message, reloaded\nworkers = 1\n"
               "idle_timeout = 600\nmax_cols = 200\n");
    char out[4096], want[1024];
    int rc = srv_ctl(s, "reload", out, sizeof out);
    ck_assert_msg(rc == 0, "reload: %d: %s", rc, out);
    snprintf(want, sizeof want,
             "motd: changed in the file, applied\n"
             "workers: the file now says 1; --set workers (the command line) "
             "keeps 2\n"
             "idle_timeout: changed in the file, applied\n"
             "max_cols: changed in the file, takes a restart\n"
             "reloaded %s: " LIVE_KEYS "\n", conf);
    ck_assert_str_eq(out, want);
    tclient_t *b = play_lobby(srv_port(s));
    play_wait_text(b, "A second message, reloaded");
    /* again: the live keys hold the file's values now; max_cols still
     * differs from the running server's, and takes a restart still;
     * workers, which the flag keeps, was said at the last reading */
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    snprintf(want, sizeof want,
             "max_cols: changed in the file, takes a restart\n"
             "reloaded %s: " LIVE_KEYS "\n", conf);
    ck_assert_str_eq(out, want);
    /* a file that does not parse changes nothing: a value's quote left
     * open is said as at start (test_help), the line and what is wrong */
    srv_write_file(conf, "motd = \"A third message\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 1);
    snprintf(want, sizeof want, "%s:1: motd: the value's quote is not "
             "closed", conf);
    ck_assert_msg(strstr(out, want), "%s", out);
    srv_write_file(conf, "motd_typo = x\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 1);
    tclient_t *c = play_lobby(srv_port(s));
    play_wait_text(c, "A second message, reloaded");
    /* a line deleted gives its key the default again, and says so, as
     * config/server.conf has it (a docs audit found the running value
     * kept, unsaid) */
    srv_write_file(conf, "max_cols = 200\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    snprintf(want, sizeof want,
             "motd: not in the file now: its default, applied\n"
             "workers: the file now leaves it to its default 0; --set "
             "workers (the command line) keeps 2\n"
             "idle_timeout: not in the file now: its default, applied\n"
             "max_cols: changed in the file, takes a restart\n"
             "reloaded %s: " LIVE_KEYS "\n", conf);
    ck_assert_str_eq(out, want);
    tclient_t *d = play_lobby(srv_port(s));
    play_wait_text(d, "Every player has a dungeon of their own. Good luck!");
    cl_close(d);
    cl_close(a);
    cl_close(b);
    cl_close(c);
    srv_stop(s);
    unlink(conf);
}
END_TEST

/* What stops a start is refused by a reload too, which then changes
 * nothing and stops nothing: a key given twice, a metrics_addr that is
 * no IP address. A metrics_port the file moves takes a restart: a reload
 * never opens a listener, so one in use cannot end a running server. */
START_TEST(reload_refuses_what_a_start_refuses)
{
    char conf[] = "/tmp/rogued-ctl-conf-XXXXXX", out[4096], want[1024];
    srv_new_conf(conf, "motd = Before the reloads\n");
    tsrv_t *s = srv_start("--config", conf, NULL);
    srv_write_file(conf, "motd = After\nmotd = After again\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 1);
    snprintf(want, sizeof want, "%s:2: motd: given again (first on line 1)",
             conf);
    ck_assert_msg(strstr(out, want), "%s", out);
    srv_write_file(conf, "metrics_addr = localhost\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 1);
    snprintf(want, sizeof want, "%s:1: metrics_addr: 'localhost' is not an "
             "IP address (127.0.0.1: this machine only; 0.0.0.0: every "
             "interface)", conf);
    ck_assert_msg(strstr(out, want), "%s", out);
    srv_write_file(conf, "motd = Before the reloads\nmetrics_port = 9\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    snprintf(want, sizeof want, "metrics_port: changed in the file, takes a "
             "restart\nreloaded %s: " LIVE_KEYS "\n", conf);
    ck_assert_str_eq(out, want);
    tclient_t *a = play_lobby(srv_port(s));
    play_wait_text(a, "Before the reloads");
    cl_close(a);
    srv_stop(s);
    unlink(conf);
}
END_TEST

/* Started without --config and with no config/server.conf where it
 * started, the server has no file to reload: reload says exactly that
 * (status 1) and changes nothing; the default file written there then,
 * reload reads it, as a start would have. */
START_TEST(reload_without_a_config_file)
{
    /* ROGUED_BIN made absolute for the server, which runs elsewhere: a
     * path that names no program there is logged as a stray ROGUED_
     * variable, and reload says so too (docs/hosting.md, "Logs") */
    char *bin = getenv("ROGUED_BIN"), abs_bin[PATH_MAX], *was = NULL;
    if (bin && realpath(bin, abs_bin)) {
        was = strdup(bin);
        setenv("ROGUED_BIN", abs_bin, 1);
    }
    srv_next_without_config();
    tsrv_t *s = srv_start(NULL);
    if (was) {
        setenv("ROGUED_BIN", was, 1);
        free(was);
    }
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    char out[4096], dir[600], conf[700];
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 1);
    ck_assert_str_eq(out, "rogued ctl: reload refused, nothing changed: no "
                     "config file to reload: the server "
                     "was started without --config, and the default "
                     "config/server.conf (from the directory it started in) "
                     "is not there; start it with --config FILE for settings "
                     "that reload can change\n");
    ck_assert(srv_alive(s));
    srv_dir(s, dir, sizeof dir);
    snprintf(conf, sizeof conf, "%s/config", dir);
    ck_assert_int_eq(mkdir(conf, 0700), 0);
    snprintf(conf, sizeof conf, "%s/config/server.conf", dir);
    srv_write_file(conf, "motd = From the default file\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    ck_assert_str_eq(out, "motd: changed in the file, applied\n"
                     "reloaded config/server.conf: " LIVE_KEYS "\n");
    tclient_t *a = play_lobby(srv_port(s));
    play_wait_text(a, "From the default file");
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* A mistyped ROGUED_ variable: the server starts, its log names it and
 * the key meant, and reload (which reads the environment again) says so
 * in its answer too, before what it did. */
START_TEST(a_mistyped_variable_is_named_at_start_and_on_reload)
{
    static const char line[] = "config: ROGUED_PROT is not a configuration "
        "key (did you mean ROGUED_PORT?); it is ignored";
    setenv("ROGUED_PROT", "2424", 1);
    tsrv_t *s = srv_start(NULL);
    unsetenv("ROGUED_PROT");
    ck_assert_int_eq(srv_log_count(s, line), 1);
    ck_assert_int_eq(srv_log_count(s, "is not a configuration key"), 1);
    char out[4096], want[1024];
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    snprintf(want, sizeof want, "%s\nreloaded /dev/null: " LIVE_KEYS "\n",
             line);
    ck_assert_str_eq(out, want);
    ck_assert_int_eq(srv_log_count(s, line), 2);
    srv_stop(s);
}
END_TEST

/* A key the command line or the environment sets stays as it is when
 * the file changes it (as at start: a flag over the environment, which
 * is over the file), and the answer says what the file now says and what
 * keeps which value; the live key the file alone sets is applied. The
 * motd a new player sees is still the environment's; the same file again
 * names none of them (the host has been told), a new value again is
 * named again. */
START_TEST(reload_leaves_what_a_flag_or_the_environment_sets)
{
    char conf[] = "/tmp/rogued-ctl-conf-XXXXXX";
    srv_new_conf(conf, "motd = The message in the file\n");
    ck_assert_int_eq(setenv("ROGUED_MOTD", "The message of the environment",
                            1), 0);
    tsrv_t *s = srv_start("--config", conf, "--set", "idle_timeout=900", NULL);
    unsetenv("ROGUED_MOTD");
    tclient_t *a = play_lobby(srv_port(s));
    play_wait_text(a, "The message of the environment");
    srv_write_file(conf, "port = 2400\nmotd = The file's second message\n"
               "idle_timeout = 600\nkeepalive = 45\n");
    static const char overridden[] =
        "port: the file now says 2400; --port (the command line) keeps 0\n"
        "motd: the file now says 'The file's second message'; ROGUED_MOTD "
        "(the environment) keeps 'The message of the environment'\n"
        "idle_timeout: the file now says 600; --set idle_timeout (the "
        "command line) keeps 900\n";
    char out[4096], want[2048];
    int rc = srv_ctl(s, "reload", out, sizeof out);
    ck_assert_msg(rc == 0, "reload: %d: %s", rc, out);
    snprintf(want, sizeof want, "%skeepalive: changed in the file, applied\n"
             "reloaded %s: " LIVE_KEYS "\n", overridden, conf);
    ck_assert_str_eq(out, want);
    tclient_t *b = play_lobby(srv_port(s));
    play_wait_text(b, "The message of the environment");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    snprintf(want, sizeof want, "reloaded %s: " LIVE_KEYS "\n", conf);
    ck_assert_str_eq(out, want);
    srv_write_file(conf, "port = 2401\nmotd = The file's second message\n"
               "idle_timeout = 600\nkeepalive = 45\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    snprintf(want, sizeof want, "port: the file now says 2401; --port (the "
             "command line) keeps 0\nreloaded %s: " LIVE_KEYS "\n", conf);
    ck_assert_str_eq(out, want);
    cl_close(a);
    cl_close(b);
    srv_stop(s);
    unlink(conf);
}
END_TEST

START_TEST(backup_while_a_game_is_written)
{
    tsrv_t *s = srv_start("--seed", "42", "--set", "guest_min_turns=0", NULL);
    char dir[600], copy[700];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(copy, sizeof copy, "%s/../copy.db", dir);
    tclient_t *a = play_connect(srv_port(s), NULL);
    play_walk_keys(a, 5);
    char cmd[800], out[4096];
    snprintf(cmd, sizeof cmd, "backup %s", copy);
    FILE *p = srv_ctl_start(s, cmd);
    play_walk_keys(a, 40); /* the game's keys are written meanwhile */
    int rc = srv_ctl_finish(p, out, sizeof out);
    ck_assert_msg(rc == 0, "backup: %d: %s", rc, out);
    ck_assert_msg(strstr(out, "quick_check ok"), "%s", out);
    struct stat sb; /* the password hashes: for the server's user alone */
    ck_assert_int_eq(stat(copy, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0600);
    /* one file: no WAL or shared-memory file left beside it */
    char side[720];
    snprintf(side, sizeof side, "%s-wal", copy);
    ck_assert_int_eq(access(side, F_OK), -1);
    snprintf(side, sizeof side, "%s-shm", copy);
    ck_assert_int_eq(access(side, F_OK), -1);
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open_v2(copy, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    sqlite3_stmt *st = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &st, NULL),
                     SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "ok");
    sqlite3_finalize(st);
    ck_assert_int_eq(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st,
                                        NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "delete");
    sqlite3_finalize(st);
    ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM games", -1,
                                        &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW); /* the schema is there */
    sqlite3_finalize(st);
    sqlite3_close(db);
    /* a copy over the database itself is refused, and the game plays on */
    snprintf(cmd, sizeof cmd, "backup %s/rogued.db", dir);
    rc = srv_ctl(s, cmd, out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "that FILE is the database itself"),
                  "backup over the database: %d: %s", rc, out);
    /* a copy the server cannot make, and one onto a file that is no
     * database: each said with the file and what to do */
    rc = srv_ctl(s, "backup /nonexistent-rogued-dir/copy.db", out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "backup to /nonexistent-rogued-dir/"
                                         "copy.db failed: it cannot be made: "
                                         "No such file or directory (its "
                                         "directory must be there and "
                                         "writable by the server's user)"),
                  "backup into no directory: %d: %s", rc, out);
    char text[700];
    snprintf(text, sizeof text, "%s/notes.txt", dir);
    FILE *f = fopen(text, "w");
    ck_assert_ptr_nonnull(f);
    fputs("not a database, and longer than a header would be: "
          "0123456789012345678901234567890123456789012345678901234567890123"
          "4567890123456789\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "backup %s", text);
    rc = srv_ctl(s, cmd, out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "failed: file is not a database (a "
                                         "file there that is not a database "
                                         "is never written over: give a new "
                                         "path, or an older backup)"),
                  "backup onto a text file: %d: %s", rc, out);
    /* nor onto a symbolic link (a dangling one made the copy 0644), a
     * device, or another application's database; an older backup is
     * written over */
    char link[720], other[720];
    snprintf(link, sizeof link, "%s/link.db", dir);
    ck_assert_int_eq(symlink("/nonexistent-rogued-dir/x.db", link), 0);
    snprintf(cmd, sizeof cmd, "backup %s", link);
    rc = srv_ctl(s, cmd, out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "failed: it is a symbolic link: "
                                         "give the path it names"),
                  "backup onto a link: %d: %s", rc, out);
    rc = srv_ctl(s, "backup /dev/null", out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "backup to /dev/null failed: it is "
                                         "not a regular file"),
                  "backup onto a device: %d: %s", rc, out);
    snprintf(other, sizeof other, "%s/other.db", dir);
    ck_assert_int_eq(sqlite3_open(other, &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE important (x)", NULL, NULL,
                                  NULL), SQLITE_OK);
    sqlite3_close(db);
    snprintf(cmd, sizeof cmd, "backup %s", other);
    rc = srv_ctl(s, cmd, out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "failed: it is a SQLite database of "
                                         "another application"),
                  "backup onto another application's: %d: %s", rc, out);
    ck_assert_int_eq(sqlite3_open_v2(other, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db, "SELECT x FROM important", NULL, NULL,
                                  NULL), SQLITE_OK); /* still there */
    sqlite3_close(db);
    snprintf(cmd, sizeof cmd, "backup %s", copy);
    rc = srv_ctl(s, cmd, out, sizeof out);
    ck_assert_msg(rc == 0 && strstr(out, "quick_check ok"),
                  "backup over an older backup: %d: %s", rc, out);
    play_walk_keys(a, 2);
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* GET /metrics on 127.0.0.1:port: the body (malloc'd), the status line
 * checked. */
static char *scrape(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert(fd >= 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n"
                              "Accept: text/plain\r\n\r\n";
    ck_assert_int_eq(write(fd, req, sizeof req - 1), (ssize_t)(sizeof req - 1));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    ssize_t r;
    while ((r = read(fd, buf + n, cap - n - 1)) > 0)
        n += (size_t)r;
    close(fd);
    buf[n] = '\0';
    ck_assert_msg(strncmp(buf, "HTTP/1.0 200 OK\r\n", 17) == 0, "%s", buf);
    ck_assert(strstr(buf, "Content-Type: text/plain; version=0.0.4"));
    char *body = strstr(buf, "\r\n\r\n");
    ck_assert_ptr_nonnull(body);
    char *out = strdup(body + 4);
    free(buf);
    return out;
}

/* Every line is a HELP, a TYPE or a sample "name{labels} number", and
 * every sample's family has its HELP and TYPE before it. */
static void check_format(const char *text)
{
    char *copy = strdup(text), *save = NULL;
    char helped[64][64], typed[64][64];
    int nh = 0, nt = 0, samples = 0;
    for (char *line = strtok_r(copy, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char name[64], rest[256];
        if (sscanf(line, "# HELP %63s %255[^\n]", name, rest) == 2) {
            ck_assert(nh < 64);
            snprintf(helped[nh++], 64, "%s", name);
            continue;
        }
        if (sscanf(line, "# TYPE %63s %255s", name, rest) == 2) {
            ck_assert_msg(!strcmp(rest, "counter") || !strcmp(rest, "gauge") ||
                          !strcmp(rest, "histogram"), "%s", line);
            ck_assert(nt < 64);
            snprintf(typed[nt++], 64, "%s", name);
            continue;
        }
        size_t len = strspn(line, "abcdefghijklmnopqrstuvwxyz_0123456789");
        ck_assert_msg(len > 0 && len < 64, "not a sample: %s", line);
        snprintf(name, sizeof name, "%.*s", (int)len, line);
        const char *v = line + len;
        if (*v == '{') {
            v = strchr(v, '}');
            ck_assert_msg(v, "labels not closed: %s", line);
            v++;
        }
        ck_assert_msg(*v == ' ', "no value: %s", line);
        char *end;
        strtod(v + 1, &end);
        ck_assert_msg(end != v + 1 && *end == '\0', "not a number: %s", line);
        /* a histogram's series belong to its family */
        static const char *const suffix[] = { "_bucket", "_sum", "_count" };
        int found = 0;
        for (int k = 0; k < 4 && !found; k++) {
            char fam[64];
            snprintf(fam, sizeof fam, "%s", name);
            if (k > 0) {
                size_t sl = strlen(suffix[k - 1]), nl = strlen(fam);
                if (nl <= sl || strcmp(fam + nl - sl, suffix[k - 1]) != 0)
                    continue;
                fam[nl - sl] = '\0';
            }
            int h = 0, t = 0;
            for (int i = 0; i < nh; i++)
                h |= !strcmp(helped[i], fam);
            for (int i = 0; i < nt; i++)
                t |= !strcmp(typed[i], fam);
            found = h && t;
        }
        ck_assert_msg(found, "no HELP and TYPE for %s", line);
        samples++;
    }
    ck_assert_int_gt(samples, 10);
    free(copy);
}

/* The value of the sample whose line starts with `series ` */
static double sample(const char *text, const char *series)
{
    char needle[160];
    snprintf(needle, sizeof needle, "\n%s ", series);
    const char *p = strstr(text, needle);
    ck_assert_msg(p, "no %s in:\n%s", series, text);
    return strtod(p + strlen(needle), NULL);
}

/* `promtool check metrics` accepts the scrape text. */
static void promtool_check(tsrv_t *s, const char *text)
{
    char path[700], cmd[800], dir[600];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/../metrics.txt", dir);
    srv_write_file(path, text);
    snprintf(cmd, sizeof cmd, "promtool check metrics < %s 2>&1", path);
    FILE *p = popen(cmd, "r");
    char out[4096];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    ck_assert_msg(st == 0, "promtool check metrics: %s", out);
}

/* A server (seed 42) with /metrics on port and one more setting (NULL:
 * none), once both its console and /metrics listen. */
static tsrv_t *metrics_server(int port, const char *set2)
{
    char set[64], line[96];
    snprintf(set, sizeof set, "metrics_port=%d", port);
    tsrv_t *s = set2 ? srv_start("--seed", "42", "--set", set, "--set", set2,
                                 NULL)
                     : srv_start("--seed", "42", "--set", set, NULL);
    snprintf(line, sizeof line, "metrics on http://127.0.0.1:%d/metrics", port);
    ck_assert(srv_wait_log(s, line, WAIT_MS));
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    return s;
}

START_TEST(metrics_scraped_and_moving)
{
    int port = cl_free_port();
    tsrv_t *s = metrics_server(port, NULL);
    tclient_t *a = play_connect(srv_port(s), NULL);
    char *m1 = scrape(port);
    check_format(m1);
    ck_assert(sample(m1, "rogued_sessions{state=\"playing\"}") == 1);
    ck_assert(sample(m1, "rogued_sessions{state=\"lobby\"}") == 0);
    ck_assert(sample(m1, "rogued_sessions_by_transport{transport=\"telnet\"}") == 1);
    ck_assert(sample(m1, "rogued_players_online") == 1);
    /* SQLite never ends a batch to break a deadlock */
    ck_assert(sample(m1, "rogued_store_batches_run_again_total") == 0);
    ck_assert(strstr(m1, "rogued_loop_lag_seconds_bucket{loop=\"1\",le=\"+Inf\"}"));
    double k1 = sample(m1, "rogued_keys_total");
    double f1 = sample(m1, "rogued_frames_total");
    double b1 = sample(m1, "rogued_bytes_out_total");
    play_walk_keys(a, 6);
    char *m2 = scrape(port);
    check_format(m2);
    ck_assert_msg(sample(m2, "rogued_keys_total") >= k1 + 6, "keys %g -> %g", k1,
                  sample(m2, "rogued_keys_total"));
    ck_assert(sample(m2, "rogued_frames_total") > f1);
    ck_assert(sample(m2, "rogued_bytes_out_total") > b1);
    if (access("/usr/bin/promtool", X_OK) == 0)
        promtool_check(s, m2);
    free(m1);
    free(m2);
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* A second player on a server of one is refused (full): counted under
 * that reason and no other, in a scrape promtool accepts. */
START_TEST(refusals_counted_by_reason)
{
    int port = cl_free_port();
    tsrv_t *s = metrics_server(port, "max_sessions=1");
    tclient_t *a = play_connect(srv_port(s), NULL);
    char *m1 = scrape(port);
    check_format(m1);
    ck_assert(sample(m1, "rogued_refusals_total{reason=\"full\"}") == 0);
    cl_opts_t raw = { .raw = 1 };
    tclient_t *b = cl_connect(srv_port(s), &raw);
    ck_assert(cl_wait_eof(b, WAIT_MS));
    ck_assert(cl_stream_has(b, "the server is full"));
    char *m2 = scrape(port);
    check_format(m2);
    ck_assert(sample(m2, "rogued_refusals_total{reason=\"full\"}") == 1);
    static const char *const others[] = {
        "per_address_connects", "per_address_sessions", "banned", "fd_budget",
        "proxy_header", "no_request_in_time", "bad_http", "ssh_guard",
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        char series[96];
        snprintf(series, sizeof series, "rogued_refusals_total{reason=\"%s\"}",
                 others[i]);
        ck_assert_msg(sample(m2, series) == 0, "%s", series);
    }
    if (access("/usr/bin/promtool", X_OK) == 0)
        promtool_check(s, m2);
    free(m1);
    free(m2);
    cl_close(b);
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* ban ADDRESS: refused at admission with the line, counted; another
 * address still comes in; bans lists it; unban: admitted again. */
START_TEST(ban_and_unban_an_address)
{
    int mport = cl_free_port(), http = cl_free_port();
    char hset[64];
    snprintf(hset, sizeof hset, "http_port=%d", http);
    tsrv_t *s = metrics_server(mport, hset);
    char out[4096];
    int banned;
    ck_assert_int_eq(srv_ctl(s, "ban 127.0.0.2", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "banned 127.0.0.2/32 for good"), "%s", out);
    cl_opts_t o = { .src = "127.0.0.2" };
    tclient_t *b = cl_connect(srv_port(s), &o);
    ck_assert(cl_wait_eof(b, WAIT_MS));
    ck_assert_msg(cl_stream_has(b, "This address is banned."), "refused how?");
    ck_assert(!cl_stream_has(b, "Play (as a guest)"));
    cl_close(b);
    ck_assert(srv_log_has(s, "refused 127.0.0.2:"));
    /* the browser's terminal shows the line once its WebSocket is open */
    cl_opts_t ow = { .src = "127.0.0.2", .web = 1 };
    b = cl_connect(http, &ow);
    ck_assert(cl_wait_eof(b, WAIT_MS));
    ck_assert_msg(cl_stream_has(b, "This address is banned."), "browser");
    cl_close(b);
    tclient_t *a = play_lobby(srv_port(s)); /* 127.0.0.1: not banned */
    ck_assert_int_eq(srv_ctl(s, "bans", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "TARGET UNTIL\n127.0.0.2/32 for good\n"), "%s", out);
    char *m = scrape(mport);
    ck_assert(sample(m, "rogued_refusals_total{reason=\"banned\"}") == 2);
    free(m);
    /* a range covers its addresses */
    ck_assert_int_eq(srv_ctl(s, "ban 127.0.0.0/30", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "banned 127.0.0.0/30 for good"), "%s", out);
    ck_assert(!play_admitted_from(srv_port(s), "127.0.0.3", &banned));
    ck_assert(banned);
    ck_assert(play_admitted_from(srv_port(s), "127.0.0.4", &banned));
    ck_assert_int_eq(srv_ctl(s, "unban 127.0.0.0/30", out, sizeof out), 0);
    ck_assert_int_eq(srv_ctl(s, "unban 127.0.0.2", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "unbanned 127.0.0.2/32"), "%s", out);
    ck_assert(play_admitted_from(srv_port(s), "127.0.0.2", &banned));
    ck_assert_int_eq(srv_ctl(s, "bans", out, sizeof out), 0);
    ck_assert_str_eq(out, "TARGET UNTIL\n");
    /* refusals: what is not a ban, and one that is not there */
    ck_assert_int_eq(srv_ctl(s, "unban 127.0.0.2", out, sizeof out), 1);
    ck_assert_msg(strstr(out, "no such ban"), "%s", out);
    ck_assert_int_eq(srv_ctl(s, "ban 127.0.0.2 soon", out, sizeof out), 1);
    ck_assert_int_eq(srv_ctl(s, "ban 10.0.0.0/33", out, sizeof out), 1);
    cl_close(a);
    srv_stop(s);
}
END_TEST

/* ban NAME: a login and a registration of that name (any case) are
 * refused with the line; unban: the login works. */
START_TEST(ban_a_name)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    tclient_t *c = play_lobby(srv_port(s));
    play_login_dave(c, 1);
    cl_close(c);
    char out[4096];
    ck_assert_int_eq(srv_ctl(s, "ban Dave", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "banned dave for good"), "%s", out);
    c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "l"));
    play_type_line(c, "dave");
    play_type_line(c, "davespassword");
    play_wait_text(c, "The name dave is banned.");
    ck_assert(!cl_screen_has(c, "Logged in as dave"));
    ck_assert(cl_key(c, "\x1b")); /* back to the menu */
    ck_assert(cl_key(c, "r"));
    play_wait_text(c, "Register an account");
    /* dave's account is there, banned: taken, told at the name's Enter */
    play_type_line(c, "DAVE");
    play_wait_text(c, "The name DAVE is taken: choose another.");
    /* a name banned before anyone took it: refused at the registration's
     * end, where the ban is asked */
    ck_assert_int_eq(srv_ctl(s, "ban Eve", out, sizeof out), 0);
    ck_assert(cl_key(c, "\x1b"));
    ck_assert(cl_key(c, "r"));
    play_wait_text(c, "Register an account");
    play_type_line(c, "EVE");
    play_type_line(c, "anotherpass1");
    play_type_line(c, "anotherpass1");
    play_wait_text(c, "The name EVE is banned.");
    ck_assert_int_eq(srv_ctl(s, "unban dave", out, sizeof out), 0);
    ck_assert(cl_key(c, "\x1b")); /* back to the menu */
    play_login_dave(c, 0);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* ban ADDRESS 1m, a minute being 3 s of the server's clock here: it ends
 * by itself; an admission is never seen before its end. Nothing is sent
 * when a ban ends, so the test asks again until it is let in, with a
 * deadline. */
START_TEST(a_ban_with_a_duration_ends)
{
    tsrv_t *s = srv_start("--seed", "42", "--set", "ban_minute_ms=3000", NULL);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    struct timeval t0;
    gettimeofday(&t0, NULL);
    int64_t start_ms = (int64_t)t0.tv_sec * 1000 + t0.tv_usec / 1000;
    char out[4096];
    int banned;
    ck_assert_int_eq(srv_ctl(s, "ban 127.0.0.2 1m", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "banned 127.0.0.2/32 until "), "%s", out);
    int in = 0;
    for (int i = 0; i < WAIT_MS / 100 && !in; i++) {
        in = play_admitted_from(srv_port(s), "127.0.0.2", &banned);
        if (!in) {
            ck_assert(banned);
            usleep(100000);
        }
    }
    ck_assert_msg(in, "still banned after %d s", WAIT_MS / 1000);
    struct timeval t1;
    gettimeofday(&t1, NULL);
    int64_t end_ms = (int64_t)t1.tv_sec * 1000 + t1.tv_usec / 1000;
    ck_assert_msg(end_ms - start_ms >= 3000, "admitted %lld ms after a ban "
                  "of 3000 ms", (long long)(end_ms - start_ms));
    ck_assert_int_eq(srv_ctl(s, "bans", out, sizeof out), 0);
    ck_assert_str_eq(out, "TARGET UNTIL\n");
    srv_stop(s);
}
END_TEST

static int unix_connect(const char *path)
{
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ck_assert(fd >= 0);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    struct timeval tv = { WAIT_MS / 1000, 0 }; /* a deadline, not a bound */
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

/* Sends bytes (len) on a new connection to the console's socket and
 * reads its answer, whole, into out. */
static void raw_ctl(const char *sock, const char *bytes, size_t len,
                    char *out, size_t cap)
{
    int fd = unix_connect(sock);
    ck_assert_int_eq(write(fd, bytes, len), (ssize_t)len);
    size_t n = 0;
    ssize_t r;
    while (n < cap - 1 && (r = read(fd, out + n, cap - 1 - n)) > 0)
        n += (size_t)r;
    out[n] = '\0';
    close(fd);
}

/* The console's odd lines: a number too long for an id is no id (not
 * "no session -1"), a line ended CRLF is its command, and the operator's
 * control bytes said back are shown as \xNN, never sent raw; a line with
 * a NUL byte is refused, and the log has no byte of no UTF-8. */
START_TEST(odd_lines_answered_plainly)
{
    tsrv_t *s = srv_start(NULL);
    char dir[600], sock[700], out[4096];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(sock, sizeof sock, "%s/ctl.sock", dir);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    static const char *const bad_ids[] = {
        "kick 99999999999999999999999\n", "kick 9223372036854775808\n",
        "kick -1\n", "kick 1x\n",
    };
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
        raw_ctl(sock, bad_ids[i], strlen(bad_ids[i]), out, sizeof out);
        ck_assert_msg(strcmp(out, "! kick needs a session id (from who)\n")
                          == 0, "%s: %s", bad_ids[i], out);
    }
    /* the largest id is a number: asked for, and not there */
    static const char max_id[] = "kick 9223372036854775807\n";
    raw_ctl(sock, max_id, strlen(max_id), out, sizeof out);
    ck_assert_str_eq(out, "! no session 9223372036854775807\n");
    raw_ctl(sock, "help\r\n", strlen("help\r\n"), out, sizeof out);
    ck_assert_msg(strstr(out, "\nkick ID ") && !strstr(out, "unknown"),
                  "%s", out);
    ck_assert_msg(strlen(out) >= 2 && !strcmp(out + strlen(out) - 2, ".\n"),
                  "%s", out);
    static const char odd[] = "bo\x1b[31mgus\x07\n";
    raw_ctl(sock, odd, strlen(odd), out, sizeof out);
    ck_assert_msg(strstr(out, "\n! unknown command \"bo\\x1b[31mgus\\x07\"\n"),
                  "%s", out);
    ck_assert_msg(!strchr(out, '\x1b') && !strchr(out, '\x07'), "%s", out);
    /* a NUL byte: refused, not run cut short (a QA's "shutdown\0 cancel"
     * would have run as "shutdown") */
    static const char nul[] = "shutdown\0 cancel\n";
    raw_ctl(sock, nul, sizeof nul - 1, out, sizeof out);
    ck_assert_str_eq(out, "! a command line with a NUL byte in it\n");
    ck_assert(srv_wait_log(s, "a line with a NUL byte, refused\n", WAIT_MS));
    ck_assert(!srv_log_has(s, "shutting down"));
    /* the log keeps a say's UTF-8 and has '?' for a byte of none (C0 AF,
     * an overlong '/') and for a control */
    static const char say[] = "say caf\xc3\xa9 \xc0\xaf\x1b[2J\n";
    raw_ctl(sock, say, sizeof say - 1, out, sizeof out);
    ck_assert(srv_wait_log(s, ": say caf\xc3\xa9 ???[2J\n", WAIT_MS));
    ck_assert(srv_alive(s));
    srv_stop(s);
}
END_TEST

/* Ends each of n connections that sent no whole line and waits (each
 * read has a deadline) until the server has closed them: its places are
 * free by the time it accepts another (a place is given back in the
 * loop's turn that closes the connection, before the next accept). */
static void let_go(int *fds, int n)
{
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(shutdown(fds[i], SHUT_WR), 0);
    for (int i = 0; i < n; i++) {
        char c;
        ck_assert_msg(read(fds[i], &c, 1) == 0, "connection %d not closed "
                      "by the server", i);
        close(fds[i]);
    }
}

/* Console connections that never send their line hold 16 places at most:
 * one more is closed at once, logged once for a burst, and the console
 * works again once they go. */
START_TEST(idle_connections_are_bounded)
{
    tsrv_t *s = srv_start("--set", "ctl_read_ms=600000", NULL);
    char dir[600], sock[700];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(sock, sizeof sock, "%s/ctl.sock", dir);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    int fds[16];
    for (int i = 0; i < 16; i++)
        fds[i] = unix_connect(sock);
    for (int i = 0; i < 5; i++) {
        int extra = unix_connect(sock);
        char said[128];
        ssize_t n = read(extra, said, sizeof said - 1); /* why, then closed */
        ck_assert_int_gt(n, 0);
        said[n] = '\0';
        ck_assert_str_eq(said, "! the console has 16 connections open: try "
                               "again in a moment\n");
        ck_assert_int_eq(read(extra, said, 1), 0);
        close(extra);
    }
    ck_assert(srv_wait_log(s, "console: 16 connections open, one more "
                           "refused (1 in all; said once in 10 s at most)",
                           WAIT_MS));
    /* rogued ctl says so, status 1 (it died of SIGPIPE, status 141) */
    char out[4096];
    int rc = srv_ctl(s, "who", out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "rogued ctl: the console has 16 "
                                         "connections open: try again in a "
                                         "moment"), "%d: %s", rc, out);
    let_go(fds, 16);
    rc = srv_ctl(s, "who", out, sizeof out);
    ck_assert_msg(rc == 0, "%s", out);
    /* logged before the command (one loop, one log, in order) */
    ck_assert_int_eq(srv_log_count(s, "connections open, one more refused"),
                     1);
    srv_stop(s);
}
END_TEST

/* A TCP connection to 127.0.0.1:port, read with a deadline. */
static int tcp_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert(fd >= 0);
    struct sockaddr_in a = { .sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    struct timeval tv = { WAIT_MS / 1000, 0 }; /* a deadline, not a bound */
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

/* Idle connections on /metrics (anyone who may reach metrics_addr) take
 * /metrics' 16 places, never the console's: `ctl who` answers while 20
 * are held, of which the last 4 were closed at once; a scrape works once
 * they go. */
START_TEST(idle_scrapes_leave_the_console_alone)
{
    int port = cl_free_port();
    tsrv_t *s = metrics_server(port, "ctl_read_ms=600000");
    int fds[20];
    for (int i = 0; i < 20; i++)
        fds[i] = tcp_connect(port);
    for (int i = 16; i < 20; i++) {
        char c;
        ck_assert_int_eq(read(fds[i], &c, 1), 0);
    }
    char out[4096];
    ck_assert_int_eq(srv_ctl(s, "who", out, sizeof out), 0);
    ck_assert_str_eq(out, "ID ADDRESS TRANSPORT STATE NAME IDLE\n");
    ck_assert(srv_wait_log(s, "ctl: uid ", WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "metrics: 16 connections open, one "
                                   "more refused (1 in all;"), 1);
    ck_assert_int_eq(srv_log_count(s, "connections open, one more refused"),
                     1);
    for (int i = 16; i < 20; i++)
        close(fds[i]);
    let_go(fds, 16);
    int fd = tcp_connect(port);
    static const char req[] = "GET /metrics HTTP/1.0\r\n\r\n";
    ck_assert_int_eq(write(fd, req, sizeof req - 1),
                     (ssize_t)(sizeof req - 1));
    char head[32] = "";
    ssize_t n = read(fd, head, sizeof head - 1);
    close(fd);
    ck_assert_msg(n > 0 && strncmp(head, "HTTP/1.0 200 OK", 15) == 0,
                  "no scrape answered once the idle ones went: %s", head);
    srv_stop(s);
}
END_TEST

/* A scrape with a NUL byte in its head is answered 400 at once, not held
 * to ctl_read_ms (10 minutes here; a host QA found it held 5 s, the
 * default); the port answers the next scrape. */
START_TEST(a_nul_in_a_scrape_is_answered_at_once)
{
    int port = cl_free_port();
    tsrv_t *s = metrics_server(port, "ctl_read_ms=600000");
    int fd = tcp_connect(port);
    static const char req[] = "GET /metrics\0 HTTP/1.0\r\n\r\n";
    ck_assert_int_eq(write(fd, req, sizeof req - 1),
                     (ssize_t)(sizeof req - 1));
    struct pollfd pfd = { .fd = fd, .events = POLLIN };
    ck_assert_msg(poll(&pfd, 1, WAIT_MS) == 1, "no answer to a NUL");
    char head[64] = "";
    ssize_t n = read(fd, head, sizeof head - 1);
    close(fd);
    ck_assert_msg(n > 0 && strncmp(head, "HTTP/1.0 400 Bad Request\r\n",
                                   26) == 0, "%s", head);
    fd = tcp_connect(port);
    static const char ok[] = "GET /metrics HTTP/1.0\r\n\r\n";
    ck_assert_int_eq(write(fd, ok, sizeof ok - 1), (ssize_t)(sizeof ok - 1));
    n = read(fd, head, sizeof head - 1);
    close(fd);
    ck_assert_msg(n > 0 && strncmp(head, "HTTP/1.0 200 OK", 15) == 0, "%s",
                  head);
    srv_stop(s);
}
END_TEST

/* A console connection and a scrape that send nothing are closed at
 * ctl_read_ms (300 here), not before; half a line is no line either. */
START_TEST(a_silent_connection_is_closed_at_its_deadline)
{
    int port = cl_free_port();
    tsrv_t *s = metrics_server(port, "ctl_read_ms=300");
    char dir[600], sock[700];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(sock, sizeof sock, "%s/ctl.sock", dir);
    int64_t t0 = cl_now_ms();
    int fds[3] = { unix_connect(sock), tcp_connect(port), unix_connect(sock) };
    static const char half_head[] = "GET /metrics HTTP/1.0\r\n";
    ck_assert_int_eq(write(fds[1], half_head, sizeof half_head - 1),
                     (ssize_t)(sizeof half_head - 1));
    ck_assert_int_eq(write(fds[2], "wh", 2), 2);
    for (int i = 0; i < 3; i++) {
        char c;
        ck_assert_msg(read(fds[i], &c, 1) == 0, "connection %d not closed",
                      i);
        int64_t ms = cl_now_ms() - t0;
        ck_assert_msg(ms >= 299 && ms < WAIT_MS, "connection %d closed after "
                      "%lld ms", i, (long long)ms);
        close(fds[i]);
    }
    char out[4096];
    ck_assert_int_eq(srv_ctl(s, "who", out, sizeof out), 0);
    srv_stop(s);
}
END_TEST

/* ctl_read_ms bounds the wait for a command's line, never the command:
 * an upgrade to a script that waits on a FIFO the test holds runs on
 * after a console connection opened later than it has been closed at its
 * deadline (300 ms), and its whole answer comes once the script is let
 * go (it exits 3: the upgrade fails, the server goes on). */
START_TEST(a_running_command_is_not_cut_at_ctl_read_ms)
{
    tsrv_t *s = srv_start("--set", "ctl_read_ms=300", NULL);
    char dir[600], sock[700], fifo[700], exe[700], cmd[800], out[4096];
    srv_data_dir(s, dir, sizeof dir);
    snprintf(sock, sizeof sock, "%s/ctl.sock", dir);
    snprintf(fifo, sizeof fifo, "%s/go.fifo", dir);
    snprintf(exe, sizeof exe, "%s/wait-go.sh", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    /* read-write: opening it never blocks, and the script's read waits
     * for the line, not for a writer */
    int go = open(fifo, O_RDWR | O_CLOEXEC);
    ck_assert_int_ge(go, 0);
    FILE *f = fopen(exe, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert(fprintf(f, "#!/bin/sh\nread go < '%s'\nexit 3\n", fifo) > 0);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(chmod(exe, 0755), 0);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    snprintf(cmd, sizeof cmd, "upgrade %s", exe);
    FILE *p = srv_ctl_start(s, cmd);
    ck_assert(srv_wait_log(s, "upgrade: started ", WAIT_MS));
    int64_t t0 = cl_now_ms();
    int silent = unix_connect(sock);
    char c;
    ck_assert_int_eq(read(silent, &c, 1), 0);
    ck_assert_int_ge(cl_now_ms() - t0, 299);
    close(silent);
    ck_assert_int_eq(write(go, "\n", 1), 1);
    int rc = srv_ctl_finish(p, out, sizeof out);
    ck_assert_msg(rc == 1 && strstr(out, "upgrade failed: the new binary "
                                         "exited (status 3, signal 0) before "
                                         "it was ready"),
                  "status %d: %s", rc, out);
    close(go);
    ck_assert_int_eq(srv_ctl(s, "who", out, sizeof out), 0);
    srv_stop(s);
}
END_TEST

/* A second server started on the same data directory refuses to start,
 * and says why; the first one's console goes on answering. */
START_TEST(a_second_server_on_the_directory_refuses_to_start)
{
    tsrv_t *a = srv_start(NULL);
    char dir[600], args[700];
    srv_data_dir(a, dir, sizeof dir);
    ck_assert(srv_wait_log(a, "console on ", WAIT_MS));
    snprintf(args, sizeof args, "--config /dev/null --data-dir %s", dir);
    char out[4096];
    ck_assert_int_eq(srv_run_once("", args, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "rogued: another server runs on the data "
                              "directory") &&
                      strstr(out, "stop it first"),
                  "%s", out);
    char sock[700];
    snprintf(sock, sizeof sock, "(its console answers on %s/ctl.sock)", dir);
    ck_assert_msg(strstr(out, sock), "%s", out);
    ck_assert(!strstr(out, "listening on"));
    ck_assert_int_eq(srv_ctl(a, "who", out, sizeof out), 0);
    srv_stop(a);
}
END_TEST

/* rogued ctl with a data directory whose socket's path cannot be a Unix
 * socket's address (108 bytes here) says so, and reaches for nothing. */
START_TEST(ctl_with_a_data_directory_too_long)
{
    char dir[200], cmd[400], out[512];
    memset(dir, 'd', sizeof dir - 1);
    dir[0] = '/';
    dir[sizeof dir - 1] = '\0';
    const char *bin = getenv("ROGUED_BIN");
    snprintf(cmd, sizeof cmd, "timeout 60 %s ctl --data-dir %s who 2>&1 "
             "</dev/null", bin ? bin : "build/san/rogued", dir);
    ck_assert_int_eq(srv_ctl_finish(popen(cmd, "r"), out, sizeof out), 2);
    ck_assert_str_eq(out, "rogued ctl: the data directory's path is too "
                     "long\n");
}
END_TEST

/* The console finds the data directory as the server does
 * (docs/hosting.md, "Operations"): ROGUED_DATA_DIR, else the config
 * file's data_dir (--config FILE), else ./data; and upgrade's BINARY,
 * like backup's FILE, is the caller's path, made absolute. The list of
 * commands needs no server. */
START_TEST(ctl_finds_the_data_dir_as_the_server_does)
{
    tsrv_t *s = srv_start(NULL);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    char dir[600], env[700], conf[700], line[800], out[4096], want[900];
    srv_dir(s, dir, sizeof dir);
    snprintf(env, sizeof env, "ROGUED_DATA_DIR=%s/data", dir);
    ck_assert_int_eq(srv_ctl_in("/", env, "who", out, sizeof out), 0);
    ck_assert(strncmp(out, "ID ADDRESS TRANSPORT STATE NAME IDLE\n", 36) == 0);

    snprintf(conf, sizeof conf, "%s/other.conf", dir);
    snprintf(line, sizeof line, "data_dir = %s/data\n", dir);
    srv_write_file(conf, line);
    snprintf(line, sizeof line, "--config %s who", conf);
    ck_assert_int_eq(srv_ctl_in("/", "", line, out, sizeof out), 0);
    ck_assert(strncmp(out, "ID ADDRESS TRANSPORT STATE NAME IDLE\n", 36) == 0);

    /* neither: ./data, where no server runs */
    ck_assert_int_eq(srv_ctl_in("/", "", "who", out, sizeof out), 2);
    ck_assert_str_eq(out, "rogued ctl: cannot reach the server at "
                     "./data/ctl.sock: No such file or directory (no server "
                     "runs with this data directory: start one, or name its "
                     "own with --data-dir DIR)\n");
    snprintf(line, sizeof line, "--config %s/none.conf who", dir);
    ck_assert_int_eq(srv_ctl_in("/", "", line, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "none.conf"), "%s", out);
    /* the list needs no server: `rogued ctl` alone and `help`, exit 0;
     * a wrong option is a usage error, 2 */
    ck_assert_int_eq(srv_ctl_in("/", "", "", out, sizeof out), 0);
    ck_assert(strncmp(out, "Usage: rogued ctl ", 18) == 0);
    ck_assert_msg(strstr(out, "\n  help               this list\n"), "%s",
                  out);
    ck_assert_int_eq(srv_ctl_in("/", "", "help", out, sizeof out), 0);
    ck_assert(strncmp(out, "who                list the sessions", 35) == 0);
    ck_assert_msg(strstr(out, "\nhelp               this list\n"), "%s", out);
    ck_assert_int_eq(srv_ctl_in("/", "", "--bogus who", out, sizeof out), 2);
    ck_assert(strncmp(out, "Usage: rogued ctl ", 18) == 0);

    /* a relative BINARY: from the caller's directory, not the server's */
    ck_assert_int_eq(srv_ctl_in(dir, "", "--data-dir data upgrade no-such-rogued",
                            out, sizeof out), 1);
    snprintf(want, sizeof want, "rogued ctl: upgrade failed: cannot start "
             "%s/no-such-rogued: "
             "no such file or directory\n", dir);
    ck_assert_str_eq(out, want);
    ck_assert(srv_alive(s));
    srv_stop(s);
}
END_TEST

/* Each command `help` lists, sent with arguments it refuses (or that
 * change nothing lasting), with what it answers: never "unknown
 * command". A command help lists that this table does not know fails
 * the test, so a new command is added here too. */
static const struct probe {
    const char *name, *args;
    int status;                /* rogued ctl's exit status */
    const char *says;          /* in its answer */
} probes[] = {
    { "who", "", 0, "ID ADDRESS TRANSPORT STATE NAME IDLE" },
    { "say", "", 1, "say needs a line of text" },
    { "kick", "", 1, "kick needs a session id" },
    { "shutdown", " soon", 1, "shutdown takes minutes" },
    { "reload", "", 0, "reloaded /dev/null" },
    { "backup", "", 1, "backup needs a FILE: where to write the copy" },
    { "ban", "", 1, "ban needs ADDRESS" },
    { "unban", "", 1, "unban needs ADDRESS" },
    { "bans", "", 0, "TARGET UNTIL" },
    { "metrics", "", 0, "\n# TYPE rogued_process_pid gauge\n" },
    { "upgrade", " /nonexistent/rogued", 1, "cannot start /nonexistent/rogued: no such file" },
    { "help", "", 0, "help " },
};

START_TEST(help_lists_only_commands)
{
    tsrv_t *s = srv_start(NULL);
    ck_assert(srv_wait_log(s, "console on ", WAIT_MS));
    char help[4096], out[1 << 16], args[128];
    ck_assert_int_eq(srv_ctl(s, "help", help, sizeof help), 0);
    size_t nprobes = sizeof probes / sizeof probes[0], listed = 0;
    char *save = NULL;
    for (char *line = strtok_r(help, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        line[strcspn(line, " ")] = '\0';
        const struct probe *p = NULL;
        for (size_t i = 0; i < nprobes && !p; i++)
            if (strcmp(probes[i].name, line) == 0)
                p = &probes[i];
        ck_assert_msg(p, "help lists `%s`, which this test does not know", line);
        listed++;
        snprintf(args, sizeof args, "%s%s", p->name, p->args);
        int rc = srv_ctl(s, args, out, sizeof out);
        ck_assert_msg(!strstr(out, "unknown command"), "%s: %s", args, out);
        ck_assert_msg(rc == p->status, "%s: status %d: %s", args, rc, out);
        ck_assert_msg(strstr(out, p->says), "%s: no \"%s\" in: %s", args,
                      p->says, out);
    }
    ck_assert_uint_eq(listed, nprobes); /* and the table lists no other */
    /* the console's metrics are /metrics' own: the same families */
    ck_assert_int_eq(srv_ctl(s, "metrics", out, sizeof out), 0);
    ck_assert(strstr(out, "\nrogued_sessions{state=\"playing\"} 0\n"));
    ck_assert(strstr(out, "\n# TYPE rogued_loop_lag_seconds histogram\n"));
    ck_assert(srv_alive(s));
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ctl");
    TCase *tc = tcase_create("ctl");
    tcase_set_timeout(tc, 180);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, who_say_kick);
    tcase_add_test(tc, who_is_sorted_by_name_then_id);
    tcase_add_test(tc, who_lists_a_kept_guest_game);
    tcase_add_test(tc, the_hosts_text_in_utf8);
    tcase_add_test(tc, say_wrapped_at_40x20);
    tcase_add_test(tc, kick_tells_an_account_its_game_is_kept);
    tcase_add_test(tc, shutdown_counts_down_then_stops_clean);
    tcase_add_test(tc, shutdown_countdown_ends_in_shutdown);
    tcase_add_test(tc, reload_changes_the_motd);
    tcase_add_test(tc, reload_refuses_what_a_start_refuses);
    tcase_add_test(tc, reload_without_a_config_file);
    tcase_add_test(tc, a_mistyped_variable_is_named_at_start_and_on_reload);
    tcase_add_test(tc, reload_leaves_what_a_flag_or_the_environment_sets);
    tcase_add_test(tc, backup_while_a_game_is_written);
    tcase_add_test(tc, metrics_scraped_and_moving);
    tcase_add_test(tc, refusals_counted_by_reason);
    tcase_add_test(tc, ban_and_unban_an_address);
    tcase_add_test(tc, ban_a_name);
    tcase_add_test(tc, a_ban_with_a_duration_ends);
    tcase_add_test(tc, odd_lines_answered_plainly);
    tcase_add_test(tc, idle_connections_are_bounded);
    tcase_add_test(tc, idle_scrapes_leave_the_console_alone);
    tcase_add_test(tc, a_nul_in_a_scrape_is_answered_at_once);
    tcase_add_test(tc, a_silent_connection_is_closed_at_its_deadline);
    tcase_add_test(tc, a_running_command_is_not_cut_at_ctl_read_ms);
    tcase_add_test(tc, a_second_server_on_the_directory_refuses_to_start);
    tcase_add_test(tc, ctl_with_a_data_directory_too_long);
    tcase_add_test(tc, ctl_finds_the_data_dir_as_the_server_does);
    tcase_add_test(tc, help_lists_only_commands);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
