/* upgrade.h - a binary upgrade without a goodbye: `rogued --upgrade
 * --data-dir DIR` (the console's `upgrade [BINARY]`) or SIGUSR2 starts the
 * new binary, which takes over the listening sockets, the console's and
 * /metrics' sockets and every telnet and browser session, then the old
 * process exits.
 *
 * The old process (upgrade_old.c) starts the new binary with its own
 * arguments and one end of a socketpair as descriptor 3
 * (ROGUED_UPGRADE_FD=3). The new one opens the store, says it is ready;
 * the old stops accepting, and each worker loop stops reading its
 * sessions, packs each (session_upgrade.c: a blob, upgrade_blob.h, once
 * its output is written) and has the store write what it queued. Then
 * the old sends the listeners, the sessions with their descriptors
 * (upgrade_wire.h) and the next session id; the new one makes its host
 * from them (upgrade_new.c), says it has taken everything, and the old
 * exits. A new binary that fails before it is ready (exits, or does not
 * answer within the deadline) changes nothing: the old one logs it and
 * goes on. SSH players are told to reconnect; their games are kept as at
 * a shutdown. docs/hosting.md, "Upgrading without a goodbye". */
#ifndef ROGUE_UPGRADE_H
#define ROGUE_UPGRADE_H

#include <stdint.h>

#include "buf.h"

struct host;
struct srv;
struct ctl_req;
typedef struct upgrade upgrade_t;

/* The environment variable naming the new process's end. */
#define UPGRADE_FD_ENV "ROGUED_UPGRADE_FD"

/* --- the old process (upgrade_old.c) --------------------------------------- */

/* On the host's loop, once its workers run: SIGUSR2 starts an upgrade to
 * the binary this process was started from; argv: this process's
 * arguments, which the new one gets too (kept, not copied). NULL when out
 * of memory (no upgrade then). */
upgrade_t *upgrade_start(struct host *h, char **argv);

/* Starts an upgrade to binary `exe` (NULL: the one this process was
 * started from); the console's request `ctl_req` (0: none) is answered
 * when it ends. Returns 0, or -1 with why (one is running, or the host is
 * shutting down). */
int upgrade_begin(upgrade_t *u, const char *exe, uint64_t ctl_req,
                  const char **why);

/* The host shuts down: closes the handles (an upgrade under way fails). */
void upgrade_stop(upgrade_t *u);
void upgrade_free(upgrade_t *u);

/* The console's `upgrade [BINARY]` (ctl_cmds.c's table). */
int upgrade_ctl_run(struct ctl_req *r, const char *args);

/* --- a worker loop of the old process (upgrade_old.c) ----------------------- */

/* MSG_UPGRADE from the host: stop reading, pack the sessions for a new
 * process whose core is of GAME_VERSION version. */
void upgrade_loop_begin(struct srv *srv, uint32_t version);

/* The render phase, while the loop is upgrading: packs the sessions
 * whose output is written; when none is left, the store's queue is
 * written and the host told. */
void upgrade_loop_phase(struct srv *srv);

/* --- the new process (upgrade_new.c) ---------------------------------------- */

/* What the old process handed over. */
#define UPGRADE_LISTENERS 5
typedef struct upgrade_in {
    int sock;                  /* the socketpair's end; -1: none */
    /* telnet, http, ssh, the console, /metrics (host.h's host_inherit
     * order); -1: none */
    int listen_fd[UPGRADE_LISTENERS];
    uint64_t next_id;
    int n, cap;
    struct upgrade_item {
        int fd;
        buf_t blob;
    } *items;
} upgrade_in_t;

/* Says ready on descriptor fd and reads what the old process hands over
 * (blocking, bounded by a deadline). Returns 0, or -1 (logged; in freed). */
int upgrade_receive(int fd, upgrade_in_t *in);

/* Once the host runs on in's listeners: each session to a worker loop,
 * then "taken" to the old process. Frees in. */
void upgrade_dispatch(struct host *h, upgrade_in_t *in);

void upgrade_in_free(upgrade_in_t *in);

#endif
