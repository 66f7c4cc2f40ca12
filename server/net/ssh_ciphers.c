/* ssh_ciphers.c - ssh_ciphers checked against libssh's own list. */
#include "ssh_ciphers.h"

#include <libssh/libssh.h>
#include <libssh/server.h>
#include <stdio.h>
#include <string.h>

/* libssh drops the names it does not know from a list that has one it
 * knows: each is tried alone first, so that a typo is refused instead of
 * quietly shrinking what is offered. */
static int each_name_known(ssh_bind b, const char *list, char *err,
                           size_t errlen)
{
    char name[64]; /* the longest of libssh's names is 29 */
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        if (n == 0 || n >= sizeof name ||
            ssh_bind_options_set(b, SSH_BIND_OPTIONS_CIPHERS_C_S, name) != SSH_OK) {
            snprintf(err, errlen, "libssh does not know '%s' (for example "
                     "aes128-gcm@openssh.com, chacha20-poly1305@openssh.com, "
                     "aes256-ctr)", name);
            return -1;
        }
        p += n + (p[n] == ',');
    }
    return 0;
}

int ssh_ciphers_apply(ssh_bind b, const char *list, char *err,
                      size_t errlen)
{
    if (each_name_known(b, list, err, errlen) != 0)
        return -1;
    if (!*list ||
        ssh_bind_options_set(b, SSH_BIND_OPTIONS_CIPHERS_C_S, list) != SSH_OK ||
        ssh_bind_options_set(b, SSH_BIND_OPTIONS_CIPHERS_S_C, list) != SSH_OK) {
        snprintf(err, errlen, "'%s' is not a list of ciphers", list);
        return -1;
    }
    return 0;
}

int ssh_ciphers_check(const char *list, char *err, size_t errlen)
{
    /* ssh_init counts its callers: this pair leaves libssh as it was */
    if (ssh_init() != SSH_OK) {
        snprintf(err, errlen, "libssh cannot start");
        return -1;
    }
    ssh_bind b = ssh_bind_new();
    int rc = -1;
    if (!b)
        snprintf(err, errlen, "out of memory");
    else
        rc = ssh_ciphers_apply(b, list, err, errlen);
    if (b)
        ssh_bind_free(b);
    ssh_finalize();
    return rc;
}
