/* test_guest_grace.c - a browser guest's game across a dropped connection
 * (server/session/session_guest.c, guest_grace): the page gets a token
 * with the game; after a drop a page that sends it back plays on at the
 * same turn, without the lobby; a wrong token gets the lobby; a game not
 * taken back within guest_grace is recorded as a disconnect and cannot be
 * resumed; past guest_grace_max a dropped game ends at once; a telnet
 * guest gets no token; a page back at the very moment its old connection
 * drops plays on all the same. The clock: guest_grace=1 (the smallest, one second)
 * where expiry is tested, waited for through the server's own log line. */
#include <check.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_main.h"
#include "client.h"
#include "play.h"
#include "web_page.h"

static tsrv_t *web_server(int *http, const char *grace, const char *max)
{
    static char port_set[32], set1[64], set2[64];
    *http = cl_free_port();
    snprintf(port_set, sizeof port_set, "http_port=%d", *http);
    snprintf(set1, sizeof set1, "guest_grace=%s", grace);
    snprintf(set2, sizeof set2, "guest_grace_max=%s", max);
    return srv_start("--seed", "42", "--set", port_set, "--set", set1,
                     "--set", set2, NULL);
}

/* A browser guest in a game, moved once: its token in token. */
static tclient_t *web_guest(int http, char token[80])
{
    cl_opts_t o = { .web = 1 };
    tclient_t *c = cl_connect(http, &o);
    play_ready(c);
    web_key_to_turn(c, "l", 1); /* seed 42: floor east of the start */
    ck_assert_int_eq((int)strlen(cl_web_token(c)), 32);
    snprintf(token, 80, "%s", cl_web_token(c));
    return c;
}

/* Drops c (the network is gone, no close) and waits for the server to
 * keep its game: "game kept id=N". */
static void drop_kept(tsrv_t *s, tclient_t *c, int id)
{
    char want[32];
    snprintf(want, sizeof want, "game kept id=%d", id);
    cl_abort(c);
    if (!srv_wait_log(s, want, CL_WAIT_MS))
        ck_abort_msg("no \"%s\":\n%s", want, srv_log(s));
}

/* A page back with token gets the lobby: no game of that token. */
static void resume_gets_lobby(int http, const char *token)
{
    tclient_t *c = web_page(http, token);
    ck_assert(cl_wait_text(c, "Play (as a guest)", CL_WAIT_MS));
    cl_close(c);
}

/* A page back with token plays on: the game at turn. */
static void resume_at_turn(int http, const char *token, int turn)
{
    tclient_t *c = web_page(http, token);
    play_ready(c);
    ck_assert_int_eq(cl_turn(c), turn);
    cl_close(c);
}

START_TEST(dropped_game_resumed_by_token)
{
    int http;
    tsrv_t *s = web_server(&http, "300", "10");
    char token[80];
    tclient_t *a = web_guest(http, token);
    int x0, y0;
    ck_assert_int_eq(cl_find(a, '@', &x0, &y0), 1);
    drop_kept(s, a, 1);
    tclient_t *b = web_page(http, token);
    play_ready(b); /* the game, not the lobby */
    ck_assert(!cl_screen_has(b, "Play (as a guest)"));
    ck_assert_int_eq(cl_turn(b), 1);
    int x1, y1;
    ck_assert_int_eq(cl_find(b, '@', &x1, &y1), 1);
    ck_assert_int_eq(x1, x0);
    ck_assert_int_eq(y1, y0);
    ck_assert(srv_log_has(s, "game resumed id=2"));
    ck_assert_str_eq(cl_web_token(b), token); /* the same, for the next drop */
    /* and it plays on */
    web_key_to_turn(b, ".", 2);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* The old connection is still open (the server has not seen it drop, as
 * when a phone changes network): the page back with the token takes the
 * game over from it, at the same turn; the old one is told and closed. */
START_TEST(live_game_taken_over_by_token)
{
    int http;
    tsrv_t *s = web_server(&http, "300", "10");
    char token[80];
    tclient_t *a = web_guest(http, token);
    tclient_t *b = web_page(http, token);
    play_ready(b);
    ck_assert_int_eq(cl_turn(b), 1);
    ck_assert(srv_wait_log(s, "resume id=2 takes the game of id=1 by its token",
                           CL_WAIT_MS));
    ck_assert(srv_wait_log(s, "game resumed id=2", CL_WAIT_MS));
    ck_assert(cl_wait_eof(a, CL_WAIT_MS));
    ck_assert(cl_stream_has(a, "Your game goes on in another window."));
    cl_close(a);
    web_key_to_turn(b, ".", 2);
    /* and dropped now, it is kept for the next page */
    drop_kept(s, b, 2);
    resume_at_turn(http, token, 2);
    srv_stop(s);
}
END_TEST

/* GET path on the browser's port: 1 if the whole answer holds want. */
static int page_has(int http, const char *path, const char *want)
{
    cl_opts_t o = { .raw = 1 };
    tclient_t *c = cl_connect(http, &o);
    char req[128];
    snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: rogued\r\n\r\n",
             path);
    ck_assert_int_eq(cl_send_str(c, req), 0);
    int yes = cl_wait_eof(c, CL_WAIT_MS) && cl_stream_has(c, want);
    cl_close(c);
    return yes;
}

/* A telnet watcher of a browser guest's game waits while the page is away
 * (the game kept), and follows it when the page comes back, on a new
 * session: the watch goes on at the same turn and sees the next key (a
 * QA's watchers were dropped at each reload). Not back in time, the
 * watcher is told the game has ended. */
START_TEST(a_kept_game_s_watchers_follow_it)
{
    int http;
    tsrv_t *s = web_server(&http, "300", "10");
    char token[80];
    tclient_t *a = web_guest(http, token);
    tclient_t *w = cl_connect(srv_port(s), NULL);
    play_wait_text(w, "Play (as a guest)");
    ck_assert(cl_sync(w, CL_WAIT_MS));
    play_watch_first(w, "guest1");
    ck_assert_int_eq(cl_turn(w), 1);
    /* a second watcher, gone while the page is away */
    tclient_t *w2 = cl_connect(srv_port(s), NULL);
    play_wait_text(w2, "Play (as a guest)");
    ck_assert(cl_sync(w2, CL_WAIT_MS));
    play_watch_first(w2, "guest1");
    drop_kept(s, a, 1);
    play_wait_text(w, "guest1's connection dropped. Waiting for them to come "
                      "back - q leaves");
    play_wait_text(w2, "guest1's connection dropped.");
    /* its watch page, meanwhile: why there is nothing to watch yet */
    ck_assert(page_has(http, "/watch/1", "HTTP/1.1 503 Service Unavailable"));
    ck_assert(page_has(http, "/watch/1", "guest1&#39;s connection dropped, "
                       "and the game waits for them"));
    cl_close(w2);
    ck_assert(srv_wait_log_count(s, "disconnect 127.0.0.1:", 2, CL_WAIT_MS));
    tclient_t *b = web_page(http, token);
    play_ready(b);
    ck_assert_int_eq(cl_turn(b), 1);
    play_wait_text(w, "guest1 goes on with the game.");
    /* the gone one is not counted: its summary came back as its leave */
    play_wait_text(b, " 1 watching");
    /* the link a watcher shared, /watch/1, watches it on its new session */
    ck_assert(page_has(http, "/watch/1", "HTTP/1.1 200 OK"));
    ck_assert(page_has(http, "/watch/1", "<h1>Watching guest1</h1>"));
    ck_assert(!page_has(http, "/watch/1", "data-ws=\"watch=1\""));
    cl_opts_t ws = { .web = 1, .ws_path = "/ws?watch=1" };
    tclient_t *w3 = cl_connect(http, &ws);
    play_wait_text(w3, "Watching guest1");
    cl_close(w3);
    web_key_to_turn(b, ".", 2);
    for (time_t end = time(NULL) + 30; cl_turn(w) != 2 && time(NULL) <= end;)
        cl_pump(w, 100);
    ck_assert_int_eq(cl_turn(w), 2);
    cl_close(b);
    srv_stop(s);
    cl_close(w);

    /* not back in time: the watch ends */
    s = web_server(&http, "1", "10");
    a = web_guest(http, token);
    w = cl_connect(srv_port(s), NULL);
    play_wait_text(w, "Play (as a guest)");
    ck_assert(cl_sync(w, CL_WAIT_MS));
    play_watch_first(w, "guest1");
    drop_kept(s, a, 1);
    play_wait_text(w, "The game you watched has ended.");
    play_wait_text(w, "Play (as a guest)");
    cl_close(w);
    srv_stop(s);
}
END_TEST

START_TEST(wrong_token_gets_the_lobby)
{
    int http;
    tsrv_t *s = web_server(&http, "300", "10");
    char token[80];
    tclient_t *a = web_guest(http, token);
    drop_kept(s, a, 1);
    resume_gets_lobby(http, "0123456789abcdef0123456789abcdef");
    /* said, without the token */
    ck_assert(srv_wait_log(s, "its token holds nothing here", CL_WAIT_MS));
    ck_assert(!srv_log_has(s, "0123456789abcdef0123456789abcdef"));
    /* the right one still works */
    resume_at_turn(http, token, 1);
    srv_stop(s);
}
END_TEST

START_TEST(expired_game_is_recorded_and_gone)
{
    int http;
    tsrv_t *s = web_server(&http, "1", "10");
    char token[80];
    tclient_t *a = web_guest(http, token);
    drop_kept(s, a, 1);
    if (!srv_wait_log(s, "cause=\"disconnected (not back in time)\"", CL_WAIT_MS))
        ck_abort_msg("the kept game never ended:\n%s", srv_log(s));
    resume_gets_lobby(http, token);
    srv_stop(s);
}
END_TEST

START_TEST(capped_at_guest_grace_max)
{
    int http;
    tsrv_t *s = web_server(&http, "300", "1");
    char t1[80], t2[80];
    tclient_t *a = web_guest(http, t1);
    tclient_t *b = web_guest(http, t2);
    drop_kept(s, a, 1);
    cl_abort(b);
    ck_assert(srv_wait_log(s, "game not kept id=2", CL_WAIT_MS));
    ck_assert(srv_wait_log(s, "cause=\"disconnected (", CL_WAIT_MS));
    resume_gets_lobby(http, t2);
    resume_at_turn(http, t1, 1);
    srv_stop(s);
}
END_TEST

/* Kept at shutdown: recorded then, nothing leaks (srv_stop checks the
 * exit status and the sanitizers' silence). */
START_TEST(kept_game_recorded_at_shutdown)
{
    int http;
    tsrv_t *s = web_server(&http, "300", "10");
    char token[80];
    tclient_t *a = web_guest(http, token);
    drop_kept(s, a, 1);
    srv_signal(s, SIGTERM);
    ck_assert(srv_wait_exited(s, CL_WAIT_MS));
    /* recorded, and said to have ended with the server, not its grace */
    ck_assert(srv_log_has(s, "cause=\"disconnected (the server stopped)\""));
    ck_assert(!srv_log_has(s, "not back in time"));
    srv_stop(s);
}
END_TEST

START_TEST(telnet_guest_gets_no_token)
{
    tsrv_t *s = srv_start("--seed", "42", NULL);
    tclient_t *a = play_connect(srv_port(s), NULL);
    ck_assert(cl_key(a, "."));
    cl_abort(a);
    ck_assert(srv_wait_log(s, "cause=\"disconnected (", CL_WAIT_MS));
    ck_assert(!srv_log_has(s, "game kept"));
    srv_stop(s);
}
END_TEST

/* Whether every thread of process pid is stopped (SIGSTOP taken: each
 * thread's state "T" in /proc/pid/task/TID/stat). */
static int all_stopped(int pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int all = 1, n = 0;
    for (struct dirent *e; all && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char stat[384], buf[256];
        snprintf(stat, sizeof stat, "%s/%s/stat", path, e->d_name);
        FILE *f = fopen(stat, "r");
        size_t len = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f)
            fclose(f);
        buf[len] = '\0';
        const char *st = strrchr(buf, ')'); /* "tid (name) S ..." */
        all = st && st[1] == ' ' && (st[2] == 'T' || st[2] == 't');
        n++;
    }
    closedir(d);
    return all && n > 0;
}

/* Waits (30 s at most) until every thread of process pid is stopped. */
static int stopped(int pid)
{
    for (int i = 0; i < 3000 && !all_stopped(pid); i++) {
        struct timespec ts = { 0, 10 * 1000000L };
        nanosleep(&ts, NULL);
    }
    return all_stopped(pid);
}

/* The page comes back (its size, which starts it, is sent) and its old
 * connection drops in one turn of the server's loop: the server is
 * stopped (SIGSTOP) while both happen, one worker loop has both. The new
 * page's takeover of the old connection's game meets that connection
 * closing: it still plays on, at the same turn, not in the lobby with the
 * game kept for nobody. */
START_TEST(page_back_as_the_old_connection_drops)
{
    int http = cl_free_port();
    char port_set[32];
    snprintf(port_set, sizeof port_set, "http_port=%d", http);
    tsrv_t *s = srv_start("--seed", "42", "--set", port_set, "--set",
                          "guest_grace=300", "--set", "guest_grace_max=10",
                          "--set", "workers=1", NULL);
    char token[80];
    tclient_t *a = web_guest(http, token);
    cl_opts_t o = { .web = 1, .resume = token, .hold_size = 1 };
    tclient_t *b = cl_connect(http, &o);
    ck_assert(cl_wait(b, cl_web_open, NULL, CL_WAIT_MS));
    ck_assert_int_eq(kill(srv_pid(s), SIGSTOP), 0);
    ck_assert(stopped(srv_pid(s)));
    cl_web_size(b);
    cl_abort(a);
    ck_assert_int_eq(kill(srv_pid(s), SIGCONT), 0);
    play_ready(b);
    ck_assert_int_eq(cl_turn(b), 1);
    ck_assert(!cl_screen_has(b, "Play (as a guest)"));
    web_key_to_turn(b, ".", 2);
    ck_assert_int_eq(srv_log_count(s, "game over"), 0);
    cl_close(b);
    srv_stop(s);
}
END_TEST

/* A name typed by a browser guest whose game is kept after a drop is not
 * given to another guest meanwhile: the page could come back beside the
 * new game, two rows alike in the list to watch (a review). */
START_TEST(a_kept_game_s_name_is_not_given_again)
{
    int http;
    tsrv_t *s = web_server(&http, "300", "10");
    cl_opts_t o = { .web = 1 };
    tclient_t *c = cl_connect(http, &o);
    play_wait_text(c, "Play (as a guest)");
    ck_assert_int_eq(cl_send_str(c, "p"), 0);
    play_wait_text(c, "Name: guest");
    ck_assert_int_eq(cl_send_str(c, "\x15Zed\r"), 0);
    play_ready(c);
    web_key_to_turn(c, "l", 1);
    drop_kept(s, c, 1);
    ck_assert(srv_log_has(s, "game kept id=1 name=Zed"));
    tclient_t *b = play_lobby(srv_port(s));
    ck_assert(cl_key(b, "p"));
    play_wait_text(b, "Play as a guest");
    ck_assert(cl_key(b, "\x15"));
    play_type_line(b, "zed");
    play_wait_text(b, "Someone is playing as zed now: choose another name.");
    cl_close(b);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("guest_grace");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, dropped_game_resumed_by_token);
    tcase_add_test(tc, a_kept_game_s_watchers_follow_it);
    tcase_add_test(tc, live_game_taken_over_by_token);
    tcase_add_test(tc, wrong_token_gets_the_lobby);
    tcase_add_test(tc, expired_game_is_recorded_and_gone);
    tcase_add_test(tc, capped_at_guest_grace_max);
    tcase_add_test(tc, kept_game_recorded_at_shutdown);
    tcase_add_test(tc, telnet_guest_gets_no_token);
    tcase_add_test(tc, a_kept_game_s_name_is_not_given_again);
    suite_add_tcase(s, tc);
    TCase *drop = tcase_create("drop");
    tcase_set_timeout(drop, 120);
    tcase_add_unchecked_fixture(drop, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(drop, page_back_as_the_old_connection_drops);
    suite_add_tcase(s, drop);
    return s;
}

CHECK_MAIN(make_suite)
