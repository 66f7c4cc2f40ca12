/* ssh_pend.h - bytes waiting for a peer that is not taking them now (the
 * SSH bridge's keys before a hand-over, ssh_conn.h; a player's frames the
 * window or the socket held, ssh_play.h). Allocated only while it holds
 * some: an idle connection holds no buffer. */
#ifndef ROGUE_SSH_PEND_H
#define ROGUE_SSH_PEND_H

#include <stddef.h>

typedef struct ssh_pend {
    char *data;
    size_t len, cap;
} ssh_pend_t;

/* Appends n bytes unless that makes more than max (0: no cap). 0, or -1
 * (over max, or out of memory: nothing added). */
int ssh_pend_add(ssh_pend_t *p, const char *data, size_t n, size_t max);

/* The first n bytes are gone; the buffer is freed once empty. */
void ssh_pend_drop(ssh_pend_t *p, size_t n);

void ssh_pend_free(ssh_pend_t *p);

#endif
