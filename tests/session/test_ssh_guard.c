/* test_ssh_guard.c - what one address may cost the SSH bridge before it
 * is logged in (issue 25, docs/hosting.md): its connections not yet in
 * are capped (ssh_unauth_per_ip) while another address logs in; a
 * connection that does not get in within ssh_login_grace_ms is closed;
 * failed key tries from an address slow its next answers down
 * (ssh_fail_delay_ms), and not the owner's from another address. Source
 * addresses 127.0.0.2 (the stranger) and 127.0.0.1 (the player), no PROXY
 * header. Debian's OpenSSH client, run once per connection. */
#include <check.h>
#include <fcntl.h>
#include <libssh/libssh.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "client.h"
#include "play.h"
#include "sshkey.h"

static char keydir[64];

static void keys_setup(void)
{
    snprintf(keydir, sizeof keydir, "/tmp/rogued-sshguard-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(keydir));
}

static void keys_teardown(void)
{
    srv_remove_tree(keydir);
}

/* A new Ed25519 key in keydir/name; its public line into line. */
static void make_key(const char *name, char *line, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", keydir, name);
    ssh_key key = NULL, pub = NULL;
    char *b64 = NULL;
    ck_assert_int_eq(ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &key), SSH_OK);
    ck_assert_int_eq(ssh_pki_export_privkey_file(key, NULL, NULL, NULL, path),
                     SSH_OK);
    ck_assert_int_eq(chmod(path, 0600), 0);
    ck_assert_int_eq(ssh_pki_export_privkey_to_pubkey(key, &pub), SSH_OK);
    ck_assert_int_eq(ssh_pki_export_pubkey_base64(pub, &b64), SSH_OK);
    snprintf(line, n, "ssh-ed25519 %s %s@tests", b64, name);
    ssh_string_free_char(b64);
    ssh_key_free(pub);
    ssh_key_free(key);
}

/* `ssh -tt -b src [-i keydir/key] -p port user@127.0.0.1` with no input;
 * its output into out. Returns its exit status, or -1 if it had not
 * ended within 30 s (then it is killed). */
static int run_ssh(const char *src, const char *key, const char *user,
                   int port, char *out, size_t n)
{
    char portarg[16], dest[64], idpath[128], khosts[128], bind[64];
    snprintf(portarg, sizeof portarg, "%d", port);
    snprintf(dest, sizeof dest, "%s@127.0.0.1", user);
    snprintf(idpath, sizeof idpath, "%s/%s", keydir, key ? key : "none");
    snprintf(khosts, sizeof khosts, "UserKnownHostsFile=%s/known_hosts",
             keydir);
    snprintf(bind, sizeof bind, "BindAddress=%s", src);
    const char *argv[] = {
        "ssh", "-tt", "-F", "/dev/null", "-p", portarg, "-o", bind,
        "-o", "StrictHostKeyChecking=no", "-o", khosts, "-o", "LogLevel=ERROR",
        "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
        "-o", "IdentityAgent=none", "-i", idpath, dest, NULL,
    };
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(fds[1], 1) < 0 ||
            dup2(fds[1], 2) < 0)
            _exit(127);
        execvp("ssh", (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    size_t got = 0;
    time_t deadline = time(NULL) + 31; /* whole seconds: at least 30 */
    for (;;) {
        struct pollfd p = { fds[0], POLLIN, 0 };
        if (time(NULL) > deadline || poll(&p, 1, 1000) < 0)
            break;
        if (!p.revents)
            continue;
        ssize_t k = read(fds[0], out + got, n - 1 - got);
        if (k <= 0)
            break;
        got += (size_t)k;
        if (got == n - 1)
            got = 0;
    }
    out[got] = '\0';
    close(fds[0]);
    int status = 0;
    pid_t done;
    while ((done = waitpid(pid, &status, WNOHANG)) == 0 &&
           time(NULL) <= deadline) {
        struct timespec ms = { 0, 10 * 1000000L };
        nanosleep(&ms, NULL);
    }
    if (done != pid) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static tsrv_t *ssh_server(int *sport, const char *k1, const char *k2)
{
    static char port_set[32], s1[64], s2[64];
    *sport = cl_free_port();
    snprintf(port_set, sizeof port_set, "ssh_port=%d", *sport);
    snprintf(s1, sizeof s1, "%s", k1);
    snprintf(s2, sizeof s2, "%s", k2);
    return srv_start("--set", port_set, "--set", s1, "--set", s2, NULL);
}

/* Two silent connections from 127.0.0.2 hold its cap: a third is closed
 * at once, with a log line; 127.0.0.1 logs in as a guest meanwhile. */
START_TEST(one_address_held_at_its_cap)
{
    int sport;
    tsrv_t *s = ssh_server(&sport, "ssh_unauth_per_ip=2",
                           "ssh_login_grace_ms=60000");
    cl_opts_t o = { .raw = 1, .src = "127.0.0.2" };
    tclient_t *held[2];
    for (int i = 0; i < 2; i++) {
        held[i] = cl_connect(sport, &o);
        /* accepted and in its thread: the server's banner comes */
        ck_assert_msg(cl_wait_text(held[i], "SSH-2.0", CL_WAIT_MS) ||
                      cl_stream_has(held[i], "SSH-2.0"), "no banner %d", i);
    }
    tclient_t *third = cl_connect(sport, &o);
    ck_assert_msg(cl_wait_eof(third, CL_WAIT_MS), "a third connection from "
                  "127.0.0.2 was kept");
    ck_assert(srv_wait_log(s, "refused 127.0.0.2:", CL_WAIT_MS));
    ck_assert(srv_log_has(s, "SSH connections from its address are not "
                             "logged in yet"));
    cl_close(third);

    char out[4096];
    int rc = run_ssh("127.0.0.1", NULL, "play", sport, out, sizeof out);
    ck_assert_msg(rc >= 0, "ssh did not end: %s", out);
    ck_assert_msg(srv_wait_log(s, "id=1 worker=", CL_WAIT_MS),
                  "the guest from 127.0.0.1 did not get in: %s", out);
    ck_assert_int_eq(srv_log_count(s, "refused 127.0.0.1"), 0);
    cl_close(held[0]);
    cl_close(held[1]);
    srv_stop(s);
}
END_TEST

/* A connection that never speaks is closed at ssh_login_grace_ms, not
 * after 30 s: the log says which time closed it (not how soon it came). */
START_TEST(silent_connection_let_go_at_the_grace_time)
{
    int sport;
    tsrv_t *s = ssh_server(&sport, "ssh_unauth_per_ip=2",
                           "ssh_login_grace_ms=500");
    cl_opts_t o = { .raw = 1, .src = "127.0.0.2" };
    tclient_t *c = cl_connect(sport, &o);
    ck_assert_msg(cl_wait_eof(c, CL_WAIT_MS), "a silent SSH connection was "
                  "kept past the grace time");
    ck_assert(srv_wait_log(s, "not in within 500 ms: closed", CL_WAIT_MS));
    ck_assert(srv_log_has(s, "ssh 127.0.0.2:"));
    ck_assert_int_eq(srv_log_count(s, "not in within 30000 ms"), 0);
    cl_close(c);
    srv_stop(s);
}
END_TEST

/* Failed key tries from 127.0.0.2 for kim: past three, each answer waits
 * (logged); the owner's key from 127.0.0.1 gets in with no wait. */
START_TEST(failed_keys_slow_the_address_not_the_owner)
{
    char line[512], other[512], out[4096];
    make_key("kim", line, sizeof line);
    make_key("other", other, sizeof other);
    int sport;
    tsrv_t *s = ssh_server(&sport, "ssh_fail_delay_ms=100",
                           "ssh_unauth_per_ip=10");
    tclient_t *c = play_lobby(srv_port(s));
    ck_assert(cl_key(c, "r"));
    play_type_line(c, "kim");
    play_type_line(c, "password1");
    play_type_line(c, "password1");
    play_wait_text(c, "Logged in as kim");
    ck_assert(cl_key(c, "k"));
    play_wait_text(c, "No key yet.");
    ck_assert(cl_key(c, "a"));
    play_wait_text(c, "Add an SSH key");
    ck_assert_int_eq(cl_send_str(c, line), 0);
    ck_assert(cl_key(c, "\r"));
    play_wait_text(c, "Key added:");
    cl_close(c);

    for (int i = 0; i < 4; i++) {
        int rc = run_ssh("127.0.0.2", "other", "kim", sport, out, sizeof out);
        ck_assert_int_ne(rc, 0);
        ck_assert_msg(strstr(out, "Permission denied (publickey)"), "%s", out);
    }
    ck_assert(srv_wait_log(s, "ssh 127.0.0.2:", CL_WAIT_MS));
    ck_assert_msg(srv_wait_log(s, "failed key tries for kim: the next answer "
                               "waits 100 ms", CL_WAIT_MS),
                  "the fourth failure was not slowed down");
    ck_assert_int_eq(srv_log_count(s, "waits"), 1);
    /* the owner, from elsewhere: in at once */
    int rc = run_ssh("127.0.0.1", "kim", "kim", sport, out, sizeof out);
    ck_assert_msg(rc >= 0, "ssh did not end: %s", out);
    ck_assert(srv_wait_log(s, "kim logged in by the key", CL_WAIT_MS));
    ck_assert_int_eq(srv_log_count(s, "waits"), 1);
    srv_stop(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ssh guard");
    TCase *tc = tcase_create("guard");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, srv_tmp_setup, srv_tmp_teardown);
    tcase_add_checked_fixture(tc, keys_setup, keys_teardown);
    tcase_add_test(tc, one_address_held_at_its_cap);
    tcase_add_test(tc, silent_connection_let_go_at_the_grace_time);
    tcase_add_test(tc, failed_keys_slow_the_address_not_the_owner);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
