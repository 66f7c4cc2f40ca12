/* test_ssh_keys.c - SSH public keys against the real server (sanitizer
 * build): an account's keys page over telnet (a line that is no key
 * refused, a key added with its fingerprint, the same key again refused,
 * the key removed), and the SSH bridge's key login with Debian's OpenSSH
 * client run once per connection (keys made here with libssh): the
 * registered key logs the account in, another key and another name get
 * "Permission denied (publickey)", and "play" is still a guest. The
 * screens of the SSH logins are ssh_tmux.sh's (tests/e2e); here the
 * bridge's lookup runs under ASan and UBSan. */
#include <check.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "play.h"
#include "ssh_client.h"
#include "sshkey.h"

/* A step whose key is NULL asks the console of this server for `who`
 * instead, into step_who (while the SSH player is connected). */
static tsrv_t *step_srv;
static char step_who[4096];

/* The terminal ssh_guest_steps asks for: "-tt" (one, forced), or "-T"
 * (none, as ssh -T, or a command, asks). */
static const char *steps_tty = "-tt";

/* Runs `ssh -tt -o SetEnv=env -p port play@127.0.0.1` (a guest) with its
 * input on a pipe: each of keys[] is sent once the output so far holds
 * waits[] (in order; a NULL key: step_srv's `who`), then its input ends,
 * which ends it. The output
 * (both streams, the last n - 1 bytes) into out. Returns 1 if every wait
 * held within 30 s. */
static int ssh_guest_steps(int port, const char *env, const char *const *waits,
                           const char *const *keys, int nsteps, char *out,
                           size_t n)
{
    char portarg[16], khosts[128], setenv_opt[96];
    snprintf(portarg, sizeof portarg, "%d", port);
    snprintf(khosts, sizeof khosts, "UserKnownHostsFile=%s/known_hosts",
             sshc_keys_dir());
    snprintf(setenv_opt, sizeof setenv_opt, "SetEnv=%s", env);
    const char *argv[] = {
        "ssh", steps_tty, "-F", "/dev/null", "-p", portarg,
        "-o", "StrictHostKeyChecking=no", "-o", khosts, "-o", "LogLevel=ERROR",
        "-o", "BatchMode=yes", "-o", setenv_opt, "play@127.0.0.1", NULL,
    };
    int in[2], fds[2];
    ck_assert_int_eq(pipe(in), 0);
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (dup2(in[0], 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0)
            _exit(127);
        close(in[1]);
        execvp("ssh", (char *const *)argv);
        _exit(127);
    }
    close(in[0]);
    close(fds[1]);
    size_t got = 0;
    int step = 0;
    time_t deadline = time(NULL) + 30;
    out[0] = '\0';
    while (step < nsteps && time(NULL) <= deadline) {
        if (strstr(out, waits[step]) && !keys[step]) {
            ck_assert_int_eq(srv_ctl(step_srv, "who", step_who,
                                     sizeof step_who), 0);
            step++;
            continue;
        }
        if (strstr(out, waits[step])) {
            ck_assert_int_eq(write(in[1], keys[step], strlen(keys[step])),
                             (ssize_t)strlen(keys[step]));
            step++;
            continue;
        }
        struct pollfd p = { fds[0], POLLIN, 0 };
        if (poll(&p, 1, 1000) < 0)
            break;
        if (!p.revents)
            continue;
        if (got == n - 1) { /* keep the latter half */
            memmove(out, out + n / 2, got - n / 2);
            got -= n / 2;
        }
        ssize_t k = read(fds[0], out + got, n - 1 - got);
        if (k <= 0)
            break;
        got += (size_t)k;
        out[got] = '\0';
        /* the terminal's NULs would end strstr early: make them blanks */
        for (size_t i = got - (size_t)k; i < got; i++)
            if (out[i] == '\0')
                out[i] = ' ';
    }
    close(in[1]); /* the end of its input ends it */
    int status;
    while (waitpid(pid, &status, WNOHANG) == 0 && time(NULL) <= deadline + 10) {
        char sink[4096];
        struct pollfd p = { fds[0], POLLIN, 0 };
        if (poll(&p, 1, 100) > 0 && read(fds[0], sink, sizeof sink) <= 0) {
            waitpid(pid, &status, 0);
            break;
        }
    }
    kill(pid, SIGKILL); /* (gone already, unless it hung) */
    waitpid(pid, &status, WNOHANG);
    close(fds[0]);
    return step == nsteps;
}

/* Debian's OpenSSH client sending LANG (as SendEnv LANG does with the
 * user's locale): the options screen says UTF-8, and the game draws UTF-8
 * glyphs; without it, ASCII. The choice is still the
 * player's (O): docs/telnet.md. */
START_TEST(ssh_lang_utf8)
{
    int sport = cl_free_port();
    char arg[32], out[65536];
    snprintf(arg, sizeof arg, "ssh_port=%d", sport);
    tsrv_t *s = srv_start("--set", arg, NULL);
    const char *waits[] = { "Play (as a guest)", "Your terminal says: UTF-8",
                            "Drawn with: UTF-8" };
    const char *keys[] = { "O", "\x1b", "q" };
    ck_assert_msg(ssh_guest_steps(sport, "LANG=C.UTF-8", waits, keys, 3, out,
                                  sizeof out),
                  "LANG=C.UTF-8 over SSH: %s", out);
    /* a locale without UTF-8: ASCII, as before */
    const char *waits_c[] = { "Play (as a guest)", "Your terminal says: ASCII" };
    const char *keys_c[] = { "O", "\x1bq" };
    ck_assert_msg(ssh_guest_steps(sport, "LC_ALL=C", waits_c, keys_c, 2, out,
                                  sizeof out),
                  "LC_ALL=C over SSH: %s", out);
    srv_stop(s);
}
END_TEST

/* A server with SSH on a free port (*sport), once its console listens. */
static tsrv_t *ssh_server(int *sport)
{
    char arg[32];
    *sport = cl_free_port();
    snprintf(arg, sizeof arg, "ssh_port=%d", *sport);
    tsrv_t *s = srv_start("--set", arg, NULL);
    ck_assert(srv_wait_log(s, "console on ", CL_WAIT_MS));
    return s;
}

/* The console's `who` names an SSH player's transport "ssh", not telnet. */
START_TEST(who_says_ssh)
{
    int sport;
    char out[65536];
    tsrv_t *s = ssh_server(&sport);
    step_srv = s;
    const char *waits[] = { "Play (as a guest)", "Play (as a guest)" };
    const char *keys[] = { NULL, "q" };
    ck_assert_msg(ssh_guest_steps(sport, "LANG=C.UTF-8", waits, keys, 2, out,
                                  sizeof out), "over SSH: %s", out);
    ck_assert_msg(strstr(step_who, " ssh lobby ") &&
                  !strstr(step_who, " telnet "), "who: %s", step_who);
    srv_stop(s);
}
END_TEST

/* ssh -T asks for no terminal: its keys come a line at a time, echoed by
 * ssh itself, and the screen falls apart; the lobby says how to connect
 * (a QA's find: nothing said). With -tt, no such tip. */
START_TEST(ssh_without_a_terminal_is_told)
{
    int sport;
    char out[65536];
    tsrv_t *s = ssh_server(&sport);
    const char *waits[] = { "Tip: this SSH connection has no terminal: "
                            "connect with ssh -t." };
    const char *keys[] = { "q\n" };
    steps_tty = "-T";
    int told = ssh_guest_steps(sport, "LANG=C.UTF-8", waits, keys, 1, out,
                               sizeof out);
    steps_tty = "-tt";
    ck_assert_msg(told, "ssh -T: %s", out);
    const char *lobby[] = { "Play (as a guest)" };
    const char *quit[] = { "q" };
    ck_assert(ssh_guest_steps(sport, "LANG=C.UTF-8", lobby, quit, 1, out,
                              sizeof out));
    ck_assert_msg(!strstr(out, "has no terminal"), "ssh -tt: %s", out);
    srv_stop(s);
}
END_TEST

/* A banned address is refused over SSH before any login, the guest user
 * too: ssh (at its own LogLevel, as a player's) shows the line from an
 * authentication banner, once, then "Permission denied"; no lobby. */
START_TEST(ssh_banned_address)
{
    int sport;
    char out[65536];
    tsrv_t *s = ssh_server(&sport);
    ck_assert_int_eq(srv_ctl(s, "ban 127.0.0.1", out, sizeof out), 0);
    int rc = sshc_run_told(NULL, "play", sport, out, sizeof out);
    ck_assert_int_ne(rc, 0);
    const char *first = strstr(out, "This address is banned.");
    ck_assert_msg(first, "%s", out);
    ck_assert(!strstr(first + 1, "This address is banned."));
    ck_assert_msg(strstr(out, "Permission denied (publickey)"), "%s", out);
    ck_assert(!strstr(out, "Play (as a guest)"));
    ck_assert(srv_wait_log(s, ": a banned address (SSH)", CL_WAIT_MS));
    srv_stop(s);
}
END_TEST

/* A command, not a terminal (ssh play@host id): refused, with a log line
 * that says so (a QA saw the connection end with nothing logged). */
START_TEST(ssh_command_is_refused_and_logged)
{
    int sport;
    char out[65536];
    tsrv_t *s = ssh_server(&sport);
    int rc = sshc_run_command("play", sport, "id", out, sizeof out);
    ck_assert_msg(rc != 0, "ssh play@ id: status 0: %s", out);
    ck_assert(!strstr(out, "uid="));
    ck_assert(srv_wait_log(s, ": closed after its login without a shell (a "
                              "command, sftp, a forwarding or nothing asked: "
                              "only the game is served)\n", CL_WAIT_MS));
    ck_assert(srv_alive(s));
    srv_stop(s);
}
END_TEST

START_TEST(keys_page_over_telnet)
{
    char line[512], fp[STORE_KEY_FP_MAX + 1], want[128];
    sshc_make_key("kim", line, sizeof line, fp, sizeof fp);
    tsrv_t *s = srv_start(NULL);
    tclient_t *c = play_register(srv_port(s), "Kim");
    ck_assert(cl_key(c, "k"));
    play_wait_text(c, "No key yet.");
    play_wait_text(c, "no SSH port open now");
    sshc_paste_key(c, "hello world");
    /* whole on one row at 80 columns */
    play_wait_text(c, "Not a public key line (type, key, comment): paste "
                   "your .pub file's line.");
    ck_assert(cl_key(c, "\x1b"));
    play_wait_text(c, "No key yet.");
    sshc_paste_key(c, line);
    snprintf(want, sizeof want, "Key added: %s", fp);
    play_wait_text(c, want);
    /* at 80 columns: the date and the fingerprint whole (the date is
     * today's, or yesterday's if midnight passed since) */
    char today[16], day_before[16];
    time_t now = time(NULL), before = now - 86400;
    strftime(today, sizeof today, "%Y-%m-%d", gmtime(&now));
    strftime(day_before, sizeof day_before, "%Y-%m-%d", gmtime(&before));
    snprintf(want, sizeof want, "%s  ed25519", fp);
    play_wait_text(c, want);
    char row[128], a[128], b[128];
    cl_row(c, 9, row, sizeof row); /* the first key's row */
    snprintf(a, sizeof a, "1  %s  %s  ed25519", today, fp);
    snprintf(b, sizeof b, "1  %s  %s  ed25519", day_before, fp);
    ck_assert_msg(strstr(row, a) || strstr(row, b), "row: %s", row);
    sshc_paste_key(c, line);
    play_wait_text(c, "That key is registered already.");
    ck_assert(cl_key(c, "1"));
    snprintf(want, sizeof want, "Remove %s?", fp);
    play_wait_text(c, want);
    ck_assert(cl_key(c, "y"));
    play_wait_text(c, "Key removed.");
    play_wait_text(c, "No key yet.");
    ck_assert(cl_key(c, "q"));
    play_wait_text(c, "Logged in as Kim");
    snprintf(want, sizeof want, "key add id=1 name=Kim %s", fp);
    ck_assert(srv_log_has(s, want));
    snprintf(want, sizeof want, "key remove id=1 name=Kim %s", fp);
    ck_assert(srv_log_has(s, want));
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* The keys page writes the command out with the name players reach the
 * server by once the host gives it (public_host), at a reload; without
 * it, "this-host". */
START_TEST(keys_page_names_public_host)
{
    char arg[32], conf[64] = "/tmp/rogued-keys-conf-XXXXXX", out[1024],
         want[160];
    int sport = cl_free_port();
    snprintf(arg, sizeof arg, "ssh_port=%d", sport);
    srv_new_conf(conf, "public_host = \"\"\n");
    tsrv_t *s = srv_start("--config", conf, "--set", arg, NULL);
    tclient_t *c = play_register(srv_port(s), "Lee");
    ck_assert(cl_key(c, "k"));
    snprintf(want, sizeof want, "ssh -p %d Lee@this-host", sport);
    play_wait_text(c, want);
    ck_assert(cl_key(c, "q"));
    play_wait_text(c, "Logged in as Lee");
    srv_write_file(conf, "public_host = play.example.org\n");
    ck_assert_int_eq(srv_ctl(s, "reload", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "public_host: changed in the file, applied\n"),
                  "%s", out);
    ck_assert(cl_key(c, "k"));
    snprintf(want, sizeof want, "ssh -p %d Lee@play.example.org", sport);
    play_wait_text(c, want);
    cl_close(c);
    srv_stop(s);
    unlink(conf);
}
END_TEST

/* A server with SSH on a free port (*sport) and the account Kim, who
 * has registered the key line (fingerprint fp) on the keys page. */
static tsrv_t *kim_with_key(const char *line, const char *fp, int *sport)
{
    char arg[32];
    *sport = cl_free_port();
    snprintf(arg, sizeof arg, "ssh_port=%d", *sport);
    tsrv_t *s = srv_start("--set", arg, NULL);
    sshc_register_key(srv_port(s), *sport, "Kim", line, fp);
    return s;
}

START_TEST(key_login_over_ssh)
{
    char line[512], fp[STORE_KEY_FP_MAX + 1], other[512],
         other_fp[STORE_KEY_FP_MAX + 1], want[160], out[4096];
    sshc_make_key("kim", line, sizeof line, fp, sizeof fp);
    sshc_make_key("other", other, sizeof other, other_fp, sizeof other_fp);
    int sport;
    tsrv_t *s = kim_with_key(line, fp, &sport);

    /* the key registered, under the name in another case: in */
    int rc = sshc_run(NULL, "kim", "kim", sport, out, sizeof out);
    ck_assert_msg(rc >= 0, "ssh did not end: %s", out);
    snprintf(want, sizeof want, "Kim logged in by the key %s", fp);
    ck_assert_msg(srv_wait_log(s, want, CL_WAIT_MS), "no \"%s\" (ssh: %s)",
                  want, out);
    ck_assert(srv_wait_log(s, "name=Kim by SSH key", CL_WAIT_MS));
    ck_assert(srv_wait_log(s, "login id=2 name=Kim by SSH key", CL_WAIT_MS));

    /* another key; the right key under another name: refused */
    rc = sshc_run(NULL, "other", "kim", sport, out, sizeof out);
    ck_assert_int_ne(rc, 0);
    ck_assert_msg(strstr(out, "Permission denied (publickey)"), "%s", out);
    snprintf(want, sizeof want, ": the SSH key %s is not registered for "
             "kim\n", other_fp);
    ck_assert(srv_wait_log(s, want, CL_WAIT_MS));
    rc = sshc_run(NULL, "kim", "nobody", sport, out, sizeof out);
    ck_assert_int_ne(rc, 0);
    ck_assert_msg(strstr(out, "Permission denied (publickey)"), "%s", out);

    /* play is a guest still, whatever keys it holds */
    rc = sshc_run(NULL, "kim", "play", sport, out, sizeof out);
    ck_assert_msg(rc >= 0, "ssh did not end: %s", out);
    ck_assert(srv_wait_log(s, "id=3 worker=", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "by SSH key"), 1);

    /* the name banned (ctl ban): the key still opens the door, but the
     * login is refused and the player is a guest */
    ck_assert_int_eq(srv_ctl(s, "ban kim", out, sizeof out), 0);
    rc = sshc_run(NULL, "kim", "kim", sport, out, sizeof out);
    ck_assert_msg(rc >= 0, "ssh did not end: %s", out);
    ck_assert(srv_wait_log(s, "login by SSH key refused id=4 name=Kim: a "
                           "banned name", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "name=Kim by SSH key"), 1);
    srv_stop(s);
}
END_TEST

/* A key the store cannot look up (here its table is renamed away, so the
 * lookup's statement fails) is refused as a wrong one is, but ssh shows
 * the player why: the authentication banner, at ssh's own log level. */
START_TEST(a_key_the_store_cannot_check_is_told)
{
    char line[512], fp[STORE_KEY_FP_MAX + 1], want[160], out[4096], dir[256],
         path[300];
    sshc_make_key("kim", line, sizeof line, fp, sizeof fp);
    int sport;
    tsrv_t *s = kim_with_key(line, fp, &sport);

    srv_data_dir(s, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/rogued.db", dir);
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, CL_WAIT_MS);
    ck_assert_int_eq(sqlite3_exec(db, "ALTER TABLE account_keys RENAME TO "
                                  "keys_away", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);

    int rc = sshc_run_told("kim", "kim", sport, out, sizeof out);
    ck_assert_int_ne(rc, 0);
    ck_assert_msg(strstr(out, "The server's store is not answering, so SSH "
                              "keys cannot be checked now: please try again "
                              "in a minute. (The user play is a guest.)"),
                  "%s", out);
    ck_assert_msg(strstr(out, "Permission denied (publickey)"), "%s", out);
    snprintf(want, sizeof want, "the key %s for kim cannot be looked up", fp);
    ck_assert(srv_wait_log(s, want, CL_WAIT_MS));
    /* told once a connection: ssh offers the key once here */
    const char *first = strstr(out, "SSH keys cannot be checked");
    ck_assert(!strstr(first + 1, "SSH keys cannot be checked"));
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ssh keys");
    TCase *tc = tcase_create("keys");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_checked_fixture(tc, sshc_keys_setup, sshc_keys_teardown);
    tcase_add_test(tc, keys_page_over_telnet);
    tcase_add_test(tc, keys_page_names_public_host);
    tcase_add_test(tc, key_login_over_ssh);
    tcase_add_test(tc, a_key_the_store_cannot_check_is_told);
    tcase_add_test(tc, ssh_lang_utf8);
    tcase_add_test(tc, who_says_ssh);
    tcase_add_test(tc, ssh_banned_address);
    tcase_add_test(tc, ssh_command_is_refused_and_logged);
    tcase_add_test(tc, ssh_without_a_terminal_is_told);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
