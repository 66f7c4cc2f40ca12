/* ssh_client.c - keys, OpenSSH client runs and a registered account for
 * the SSH suites (ssh_client.h). */
#include "ssh_client.h"

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

#include "play.h"
#include "sshkey.h"

static char keydir[64];

void sshc_keys_setup(void)
{
    snprintf(keydir, sizeof keydir, "/tmp/rogued-sshc-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(keydir));
}

void sshc_keys_teardown(void)
{
    srv_remove_tree(keydir);
}

const char *sshc_keys_dir(void)
{
    return keydir;
}

void sshc_make_key(const char *name, char *line, size_t n, char *fp,
                   size_t fplen)
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
    if (fp)
        ck_assert_int_eq(sshkey_fingerprint(pub, fp, fplen), 0);
    ssh_string_free_char(b64);
    ssh_key_free(pub);
    ssh_key_free(key);
}

/* Reads fd until it ends or the deadline passes, keeping the last n - 1
 * bytes in out (the end says why a connection ended). */
static void read_to_end(int fd, char *out, size_t n, time_t deadline)
{
    size_t got = 0;
    for (;;) {
        struct pollfd p = { fd, POLLIN, 0 };
        if (time(NULL) > deadline || poll(&p, 1, 1000) < 0)
            break;
        if (!p.revents)
            continue;
        ssize_t k = read(fd, out + got, n - 1 - got);
        if (k <= 0)
            break;
        got += (size_t)k;
        if (got == n - 1)
            got = 0;
    }
    out[got] = '\0';
}

static int run(const char *src, const char *key, const char *user, int port,
               const char *loglevel, const char *cmd, char *out, size_t n)
{
    char portarg[16], dest[64], idpath[128], khosts[128], bind[64];
    snprintf(portarg, sizeof portarg, "%d", port);
    snprintf(dest, sizeof dest, "%s@127.0.0.1", user);
    snprintf(idpath, sizeof idpath, "%s/%s", keydir, key ? key : "none");
    snprintf(khosts, sizeof khosts, "UserKnownHostsFile=%s/known_hosts",
             keydir);
    snprintf(bind, sizeof bind, "BindAddress=%s", src ? src : "127.0.0.1");
    const char *argv[] = {
        "ssh", cmd ? "-T" : "-tt", "-F", "/dev/null", "-p", portarg, "-o",
        bind, "-o", "StrictHostKeyChecking=no", "-o", khosts, "-o", loglevel,
        "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
        "-o", "IdentityAgent=none", "-i", idpath, dest, cmd, NULL,
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
    time_t deadline = time(NULL) + 31; /* whole seconds: at least 30 */
    read_to_end(fds[0], out, n, deadline);
    close(fds[0]);
    /* its output is closed: its exit follows, within the deadline */
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

int sshc_run(const char *src, const char *key, const char *user, int port,
             char *out, size_t n)
{
    return run(src, key, user, port, "LogLevel=ERROR", NULL, out, n);
}

int sshc_run_told(const char *key, const char *user, int port, char *out,
                  size_t n)
{
    return run(NULL, key, user, port, "LogLevel=INFO", NULL, out, n);
}

int sshc_run_command(const char *user, int port, const char *cmd, char *out,
                     size_t n)
{
    return run(NULL, NULL, user, port, "LogLevel=ERROR", cmd, out, n);
}

pid_t sshc_open(int port, const char *user, const char *key, int *in,
                int *out)
{
    char portarg[16], dest[64], idpath[128];
    snprintf(portarg, sizeof portarg, "%d", port);
    snprintf(dest, sizeof dest, "%s@127.0.0.1", user);
    snprintf(idpath, sizeof idpath, "%s/%s", keydir, key ? key : "");
    const char *argv[] = {
        "ssh", "-tt", "-F", "/dev/null", "-p", portarg,
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "LogLevel=ERROR", "-o", "BatchMode=yes",
        "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", dest,
        key ? "-i" : NULL, idpath, NULL,
    };
    int i[2], o[2];
    ck_assert_int_eq(pipe(i), 0);
    ck_assert_int_eq(pipe(o), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (dup2(i[0], 0) < 0 || dup2(o[1], 1) < 0 || dup2(o[1], 2) < 0)
            _exit(127);
        close(i[1]);
        close(o[0]);
        execvp("ssh", (char *const *)argv);
        _exit(127);
    }
    close(i[0]);
    close(o[1]);
    *in = i[1];
    *out = o[0];
    return pid;
}

int sshc_wait(int fd, char *buf, size_t n, size_t *got, const char *text,
              int ms)
{
    time_t deadline = time(NULL) + ms / 1000;
    while (!strstr(buf, text) && time(NULL) <= deadline) {
        struct pollfd p = { fd, POLLIN, 0 };
        if (poll(&p, 1, 1000) <= 0)
            continue;
        if (*got + 1 >= n) { /* keep the latter half */
            memmove(buf, buf + n / 2, *got - n / 2);
            *got -= n / 2;
        }
        ssize_t k = read(fd, buf + *got, n - 1 - *got);
        if (k <= 0)
            return 0;
        for (ssize_t j = 0; j < k; j++)
            if (buf[*got + (size_t)j] == '\0')
                buf[*got + (size_t)j] = ' ';
        *got += (size_t)k;
        buf[*got] = '\0';
    }
    return strstr(buf, text) != NULL;
}

int sshc_exited(pid_t pid, int ms)
{
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < ms / 10 && (done = waitpid(pid, &status, WNOHANG)) == 0;
         i++) {
        struct timespec t = { 0, 10 * 1000000L };
        nanosleep(&t, NULL);
    }
    if (done == pid)
        return 1;
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return 0;
}

void sshc_register_key(int port, int sport, const char *name,
                       const char *line, const char *fp)
{
    char want[160];
    tclient_t *c = play_register(port, name);
    ck_assert(cl_key(c, "k"));
    snprintf(want, sizeof want, "ssh -p %d %s@this-host", sport, name);
    play_wait_text(c, want);
    sshc_paste_key(c, line);
    snprintf(want, sizeof want, "Key added: %s", fp);
    play_wait_text(c, want);
    cl_close(c);
}

void sshc_paste_key(tclient_t *c, const char *line)
{
    ck_assert(cl_key(c, "a"));
    play_wait_text(c, "Add an SSH key");
    ck_assert_int_eq(cl_send_str(c, line), 0);
    ck_assert(cl_key(c, "\r"));
}
