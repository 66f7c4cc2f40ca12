/* ssh_client.h - the SSH suites' side of a connection (test_ssh_keys,
 * test_ssh_guard): Ed25519 keys made with libssh in a folder of the test's
 * own, Debian's OpenSSH client run once per connection with one of them,
 * and a key pasted on an account's keys page over telnet (the account
 * registered with play_register). Each ends the test (ck_assert) when a step it needs fails. */
#ifndef ROGUE_TEST_SSH_CLIENT_H
#define ROGUE_TEST_SSH_CLIENT_H

#include <stddef.h>
#include <sys/types.h>

#include "client.h"

/* A checked fixture: a fresh key folder (/tmp/rogued-sshc-XXXXXX) for
 * each test, and the folder and all in it removed after it. */
void sshc_keys_setup(void);
void sshc_keys_teardown(void);
/* The key folder (known_hosts is kept there too). */
const char *sshc_keys_dir(void);

/* A new Ed25519 key: the private one in the key folder under name (mode
 * 600), its public line ("ssh-ed25519 BASE64 name@tests") into line, and
 * its fingerprint into fp unless fp is NULL. */
void sshc_make_key(const char *name, char *line, size_t n, char *fp,
                   size_t fplen);

/* Runs `ssh -tt [-b src] -i KEYDIR/key -p port user@127.0.0.1` with no
 * input (its end of input closes the channel once a shell is open), only
 * that key (NULL: none), no prompt, the host key taken and kept in the
 * key folder, from the source address src (NULL: 127.0.0.1, what the
 * kernel picks for that destination anyway). The last n - 1
 * bytes of its output (both streams) into out. Returns its exit status,
 * or -1 if it had not ended within 30 s (then it is killed). */
int sshc_run(const char *src, const char *key, const char *user, int port,
             char *out, size_t n);

/* sshc_run at ssh's own LogLevel (INFO), which shows what the server's
 * authentication banners say, as a player's ssh does. */
int sshc_run_told(const char *key, const char *user, int port, char *out,
                  size_t n);

/* sshc_run with no key and a command (`ssh -T ... user@127.0.0.1 cmd`),
 * which the server refuses: its exit status, its output in out. */
int sshc_run_command(const char *user, int port, const char *cmd, char *out,
                     size_t n);

/* `ssh -tt -p port user@127.0.0.1` with the key folder's key (NULL:
 * none, as the guest "play" needs), left running: its input and output
 * on pipes (*in: the write end, *out: the read end). The caller waits
 * for it (waitpid) and closes both. */
pid_t sshc_open(int port, const char *user, const char *key, int *in,
                int *out);

/* Reads fd into buf (n bytes, NULs made blanks, the latter half kept
 * when full; *got: the bytes in it) until it holds text: 1, or 0 at the
 * deadline (ms from now) or the output's end. */
int sshc_wait(int fd, char *buf, size_t n, size_t *got, const char *text,
              int ms);

/* Waits up to ms for pid (an sshc_open) to exit: 1; 0 if it had not,
 * and then it is killed. */
int sshc_exited(pid_t pid, int ms);

/* Registers name over telnet on port (play_register) and adds the key
 * line (fingerprint fp) on its keys page, which names SSH's port sport. */
void sshc_register_key(int port, int sport, const char *name,
                       const char *line, const char *fp);

/* Pastes line on the keys page's "Add an SSH key" prompt (the key a),
 * all at once as a terminal pastes it, and Enter. */
void sshc_paste_key(tclient_t *c, const char *line);

#endif
