/* fd_budget.h - the server's file descriptors as a budget: it knows its
 * limit (RLIMIT_NOFILE, after main raised the soft limit to the hard one),
 * keeps a reserve for what must never fail for want of one (the store's
 * files, a log, a worker's wake-up, an SSH player's watched socket), and
 * stops accepting players before the limit rather than at it: a
 * connection accepted into the reserve is closed at once, with a log line
 * at most every 10 s saying how many were (docs/hosting.md, "Sizing").
 *
 * Descriptors are numbered lowest-free first, so a new descriptor's number
 * is how many are open below it: the check costs nothing. Used by the
 * accepting thread only. */
#ifndef ROGUE_FD_BUDGET_H
#define ROGUE_FD_BUDGET_H

#include <stdint.h>

typedef struct fd_budget {
    int limit;             /* descriptors the process may have */
    int reserve;           /* kept back from players */
    unsigned refused;      /* since the last log line */
    uint64_t logged_ms;    /* that line; 0: none yet */
} fd_budget_t;

/* Reads the limit. reserve <= 0: 5% of it, at least 32, but never more
 * than half the limit. */
void fdb_init(fd_budget_t *b, int reserve);

/* A descriptor just accepted: 0 (keep it), or -1 (it is in the reserve:
 * close it; logged). */
int fdb_admit(fd_budget_t *b, int fd, uint64_t now_ms);

#endif
