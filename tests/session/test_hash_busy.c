/* test_hash_busy.c - a login whose wait runs out in the password checks'
 * line is told the truth (docs/hosting.md, store_wait_ms): "The server is
 * busy checking passwords", logged as `hash queue busy`, never "the
 * store is not answering" (which sends a host to look at the database).
 *
 * The checks are held in the pool by tests/preload/hash_hold.so, a
 * test-only LD_PRELOAD shim whose crypto_pwhash_str_verify waits until
 * the test opens a FIFO: the test, not the time a hash takes, says when
 * the slots come free. Two logins hold both slots, a third waits in the
 * line for one; past store_wait_ms all three are told the server is busy
 * checking passwords (the third had no slot, the other two did not end);
 * once the checks are let go, the third's login is checked and answered,
 * and the first two's answers, given up, are dropped.
 *
 * What it stands on, checked as it goes: the server checks 2 passwords
 * at a time (the store's hash_parallel, not a setting: the log's line
 * says "2 checks at a time", and the third's check never started); and
 * the first two logins are on the two worker loops (server_proc.c sets
 * workers=2, and consecutive connections alternate: their `connect`
 * lines say which), so the slots are held from both loops and the third
 * waits in the one line they share.
 *
 * A login slowed down after failed ones on its name is told that instead
 * ("Too many failed logins for that name"), logged as `slowed login`:
 * neither is the database's doing. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "play.h"
#include "preload.h"

#define BUSY "The server is busy checking passwords: please try again " \
             "in a moment."

/* From the lobby's menu: a login of name (no such account), its password
 * typed; the lobby then waits for the store. */
static void login(tclient_t *c, const char *name)
{
    ck_assert(cl_key(c, "l"));
    play_type_line(c, name);
    play_type_line(c, "password1");
}

/* The worker loop of the n-th connection (from 0) as its `connect` line
 * in the log says, or -1. */
static int worker_of_connect(const tsrv_t *s, int n)
{
    char *log = srv_log(s);
    const char *p = log;
    int w = -1;
    for (int i = 0; (p = strstr(p, " info connect ")) != NULL; i++, p++) {
        if (i < n)
            continue;
        const char *q = strstr(p, " worker="), *eol = strchr(p, '\n');
        if (q && (!eol || q < eol))
            w = atoi(q + strlen(" worker="));
        break;
    }
    free(log);
    return w;
}

/* Both a and b show the busy note: not the store away, nor an answer. */
static void told_busy_only(tclient_t *a, tclient_t *b)
{
    tclient_t *both[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        ck_assert(cl_screen_has(both[i], BUSY));
        ck_assert(!cl_screen_has(both[i], "not answering"));
        ck_assert(!cl_screen_has(both[i], "Wrong name or password."));
    }
}

START_TEST(a_login_waiting_for_a_hash_slot_is_told_the_server_is_busy)
{
    char dir[] = "/tmp/rogued-hash-XXXXXX", fifo[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/hold", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(setenv("HASH_HOLD_FIFO", fifo, 1), 0);
    preload_env_t env;
    preload_set(&env, "hash_hold.so", NULL);
    /* (a wait long enough for a lookup on a loaded machine; every
     * address is 127.0.0.1: no bound on its checks) */
    tsrv_t *s = srv_start("--set", "store_wait_ms=2000", "--set",
                          "hashes_per_ip=0", NULL);
    preload_unset(&env);
    ck_assert_int_eq(unsetenv("HASH_HOLD_FIFO"), 0);

    tclient_t *a = play_lobby(srv_port(s));
    login(a, "ann");
    ck_assert(srv_wait_log_count(s, "hash_hold: holding", 1, CL_WAIT_MS));
    tclient_t *b = play_lobby(srv_port(s));
    login(b, "bob");
    ck_assert(srv_wait_log_count(s, "hash_hold: holding", 2, CL_WAIT_MS));
    int wa = worker_of_connect(s, 0), wb = worker_of_connect(s, 1);
    ck_assert(wa >= 0 && wb >= 0 && wa != wb);
    tclient_t *c = play_lobby(srv_port(s));
    login(c, "cid");
    play_wait_text(c, BUSY);
    play_wait_text(a, BUSY);
    play_wait_text(b, BUSY);
    ck_assert(srv_wait_log_count(s, "hash queue busy id=", 3, CL_WAIT_MS));
    ck_assert(srv_log_has(s, "its password check had no slot within 2000 "
                             "ms"));
    ck_assert(srv_wait_log_count(s, "its password check did not end "
                                    "within 2000 ms", 2, CL_WAIT_MS));
    ck_assert(srv_log_has(s, "(2 checks at a time, in turn by address)"));
    ck_assert_int_eq(srv_log_count(s, "hash_hold: holding"), 2); /* not c */
    ck_assert(!srv_log_has(s, "store away"));
    ck_assert(!cl_screen_has(c, "not answering"));
    told_busy_only(a, b);

    /* let go: held until both checks have said so, so none is left */
    int fd = open(fifo, O_WRONLY | O_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert(srv_wait_log_count(s, "hash_hold: let go", 2, CL_WAIT_MS));
    ck_assert_int_eq(close(fd), 0);
    ck_assert(srv_wait_log_count(s, "hash_hold: checked", 2, CL_WAIT_MS));
    /* the line is free: cid tries again and is checked; ann's and bob's
     * answers came meanwhile and were dropped (given up) */
    login(c, "cid");
    play_wait_text(c, "Wrong name or password.");
    told_busy_only(a, b);
    cl_close(a);
    cl_close(b);
    cl_close(c);
    srv_stop(s);
    srv_remove_tree(dir);
}
END_TEST

#define SLOWED "Too many failed logins for that name."
#define LOGINS 6

/* What c was told of its login: 0 wrong, 1 slowed, 2 busy, 3 the store
 * away; -1 nothing yet. */
static int told(const tclient_t *c)
{
    static const char *const notes[] = { "Wrong name or password.", SLOWED,
                                         BUSY, "not answering" };
    for (int i = 0; i < 4; i++)
        if (cl_screen_has(c, notes[i]))
            return i;
    return -1;
}

static int told_anything(tclient_t *c, void *arg)
{
    (void)arg;
    return told(c) >= 0;
}

/* Six logins of one unknown name from one address at once: the first
 * three are free (docs/hosting.md: 3 failures before any wait), each
 * after waits twice as long as the one before, counted from the logins
 * still being checked (1, 3, then 7 s from now), so at least the last
 * is still waiting when store_wait_ms (2 s) runs out. Each one told it
 * was slowed has its `slowed login` line, and none is told the store is
 * away. */
START_TEST(a_login_still_slowed_is_told_so_not_that_the_store_is_away)
{
    tsrv_t *s = srv_start("--set", "store_wait_ms=2000", "--set",
                          "hashes_per_ip=0", NULL);
    tclient_t *c[LOGINS];
    for (int i = 0; i < LOGINS; i++) {
        c[i] = play_lobby(srv_port(s));
        ck_assert(cl_key(c[i], "l"));
        play_wait_text(c[i], "Name:");
        play_type_line(c[i], "ghost");
        play_wait_text(c[i], "Password:");
    }
    for (int i = 0; i < LOGINS; i++)
        ck_assert_int_eq(cl_send_str(c[i], "guessing\r"), 0);
    int slowed = 0;
    for (int i = 0; i < LOGINS; i++) {
        if (!cl_wait(c[i], told_anything, NULL, CL_WAIT_MS))
            play_fail(c[i], "login %d told nothing", i);
        ck_assert_int_ne(told(c[i]), 3);
        slowed += told(c[i]) == 1;
    }
    ck_assert_int_ge(slowed, 1);
    ck_assert(srv_wait_log_count(s, "slowed login id=", slowed, CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "slowed login id="), slowed);
    ck_assert(srv_log_has(s, "still waiting after failed logins of the name "
                             "at 2"));
    ck_assert(!srv_log_has(s, "store away"));
    for (int i = 0; i < LOGINS; i++)
        cl_close(c[i]);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("hash_busy");
    TCase *tc = tcase_create("hash_busy");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_test(tc, a_login_waiting_for_a_hash_slot_is_told_the_server_is_busy);
    tcase_add_test(tc, a_login_still_slowed_is_told_so_not_that_the_store_is_away);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
