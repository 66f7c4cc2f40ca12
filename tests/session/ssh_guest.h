/* ssh_guest.h - a guest over SSH for the session tests, with libssh's
 * client: "play" logged in with "none", a pty and the shell. */
#ifndef ROGUE_TEST_SSH_GUEST_H
#define ROGUE_TEST_SSH_GUEST_H

#include <libssh/libssh.h>

/* A client session for 127.0.0.1:port as "play" (30 s timeout), not
 * connected yet: options may be added. */
ssh_session ssh_guest_session(int port);

/* Connects to 127.0.0.1:port (30 s timeout) with a cols x rows pty of
 * terminal term and asks for the shell; rekey_bytes > 0: the client
 * rekeys after that many bytes (libssh's SSH_OPTIONS_REKEY_DATA). Fails
 * the test if any step does. *chp: the session channel. */
ssh_session ssh_guest(int port, const char *term, int cols, int rows,
                      long rekey_bytes, ssh_channel *chp);

/* Closes ch and ends ss. */
void ssh_guest_bye(ssh_session ss, ssh_channel ch);

#endif
