/* upgrade_wire.h - the records a binary upgrade passes between the old
 * process and the new one over their socketpair: a length, the bytes,
 * and at most one descriptor beside them (SCM_RIGHTS). Blocking calls,
 * bounded by the socket's timeouts (upw_timeouts): both sides use them
 * only while nothing else of theirs runs (docs/hosting.md). */
#ifndef ROGUE_UPGRADE_WIRE_H
#define ROGUE_UPGRADE_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* The records' first byte. */
enum upw_type {
    UPW_READY = 'R',     /* new -> old: set up, ready to take over */
    UPW_LISTENER = 'L',  /* old -> new: a listening socket (kind, fd) */
    UPW_SESSION = 'S',   /* old -> new: a session (blob, fd) */
    UPW_END = 'E',       /* old -> new: that was all (the next id) */
    UPW_TAKEN = 'K'      /* new -> old: everything taken, go */
};

#define UPW_RECORD_MAX (64u << 20)

/* Send and receive timeouts on sock, in ms. */
void upw_timeouts(int sock, int ms);

/* Sends one record of `type` (fd -1: none). Returns 0, or -1 (errno
 * set). */
int upw_send(int sock, int type, const void *data, size_t len, int fd);

/* Receives one record into out (reset first; at most max bytes), its
 * type, and the descriptor that came with it in *fd (-1: none). Returns
 * the type, or -1: the peer closed, timed out, or sent more than max
 * (errno set: 0 for EOF). */
int upw_recv(int sock, buf_t *out, size_t max, int *fd);

#endif
