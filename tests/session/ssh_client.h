/* ssh_client.h - the SSH suites' side of a connection (test_ssh_keys,
 * test_ssh_guard): Ed25519 keys made with libssh in a folder of the test's
 * own, Debian's OpenSSH client run once per connection with one of them,
 * and a key pasted on an account's keys page over telnet (the account
 * registered with play_register). Each ends the test (ck_assert) when a step it needs fails. */
#ifndef ROGUE_TEST_SSH_CLIENT_H
#define ROGUE_TEST_SSH_CLIENT_H

#include <stddef.h>

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

/* Pastes line on the keys page's "Add an SSH key" prompt (the key a),
 * all at once as a terminal pastes it, and Enter. */
void sshc_paste_key(tclient_t *c, const char *line);

#endif
