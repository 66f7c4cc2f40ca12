/* ssh_ciphers.h - is ssh_ciphers a list libssh can offer? Asked of
 * libssh itself, on a bind object of its own that never listens and is
 * freed at once (no key, no socket, no file): the configuration asks it
 * when the key is read, so a typo is refused with the file and line as
 * any other bad value is, before the store opens or a host key is made
 * (docs/hosting.md, ssh_ciphers). */
#ifndef ROGUE_SSH_CIPHERS_H
#define ROGUE_SSH_CIPHERS_H

#include <libssh/server.h>
#include <stddef.h>

/* 0 if libssh knows every name of list (comma-separated, none empty),
 * else -1 with why in err ("libssh does not know 'X' (for example ...)",
 * without the key's name: the caller says which key). */
int ssh_ciphers_check(const char *list, char *err, size_t errlen);

/* Makes list the ciphers b offers both ways, each name checked as
 * ssh_ciphers_check does (which is this on a bind of its own). 0, or -1
 * with why in err. */
int ssh_ciphers_apply(ssh_bind b, const char *list, char *err,
                      size_t errlen);

#endif
