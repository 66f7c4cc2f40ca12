/* upgrade_impl.h - what the old process's parts of an upgrade share
 * (upgrade_old.c on the host's loop, upgrade_loop.c on each worker's). */
#ifndef ROGUE_UPGRADE_IMPL_H
#define ROGUE_UPGRADE_IMPL_H

#include "upgrade.h"

/* The loops pack one session at a time, each under this hold: a socket
 * one loop closes is closed before another loop's dup may reuse its
 * number. */
void upgrade_hold(upgrade_t *u, int on);

/* From a worker, under the hold: a packed session (fd and blob taken on
 * success). Returns 0, or -1 (out of memory: both still the caller's). */
int upgrade_add(upgrade_t *u, int fd, buf_t *blob);

/* From a worker: it has packed every session and the store has written
 * its queue. */
void upgrade_loop_done(upgrade_t *u);

#endif
