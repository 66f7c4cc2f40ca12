/* ssh_conn.h - one SSH connection on one of the bridge's threads
 * (ssh_bridge.h) until the player is in: libssh's session in non-blocking
 * mode in the thread's ssh_event, its callbacks (authentication, the
 * session channel, its pty, window changes, environment and shell), then
 * the hand-over of the whole session to the worker that plays it
 * (ssh_play.h), with the setup as ssh_link.h's records.
 *
 * Nothing here blocks the thread, with one exception: a public key is
 * looked up in the store from the authentication callback (libssh wants
 * its answer on return), for at most SSH_KEY_LOOKUP_MS. Work that would
 * change the thread's poll set (a game socket added, a paused session
 * taken out) is never done inside a callback, where libssh is walking
 * that set: the callback marks the connection (ssh_conn_touch) and the
 * thread calls ssh_conn_service once the poll has returned. The hand-over
 * too: the session leaves the thread's event there, before the worker
 * has it (one thread at a time uses a libssh session). */
#ifndef ROGUE_SSH_CONN_H
#define ROGUE_SSH_CONN_H

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <libssh/server.h>
#include <stdint.h>

#include "accounts.h"
#include "ssh_pend.h"
#include "ssh_state.h"
#include "store.h"

#define SSH_ENV_VARS 4   /* LANG, LC_ALL, LC_CTYPE, COLORTERM */
#define SSH_ENV_MAX 64   /* "NAME=value" and its NUL */

struct ssh_worker;

typedef struct ssh_conn {
    struct ssh_conn *prev, *next;       /* the thread's connections */
    struct ssh_conn *touched_next;      /* the thread's to-do list */
    int touched;
    ssh_bridge_t *b;
    struct ssh_worker *w;               /* its thread */
    ssh_event ev;                       /* the thread's */
    int fd;                             /* until libssh has it: -1 */
    int worker;                         /* the worker loop it goes to */
    char addr[64];
    char ip[64];                        /* addr without its port */
    int counted;                        /* in the guard's not-in count */
    ssh_session session;
    ssh_channel chan;
    struct ssh_server_callbacks_struct scb;
    struct ssh_channel_callbacks_struct ccb;
    uint8_t authed, shell, closed, in_event, eof;
    uint8_t told_store_away;            /* its banner sent (once) */
    uint8_t told_banned;                /* the same, for a banned address */
    uint64_t deadline_ms;               /* the login grace's end */
    uint64_t paused_until_ms;           /* a failed key's wait (0: none) */
    int cols, rows;
    char term[40];
    uint8_t pty;                        /* the client asked for a terminal */
    char env[SSH_ENV_VARS][SSH_ENV_MAX];
    int key_tries;
    int64_t account_id;
    char account[ACCT_NAME_MAX + 1];
    char found_fp[STORE_KEY_FP_MAX + 1];
    int64_t found_id;
    char found_name[ACCT_NAME_MAX + 1];
    int found_display;
    ssh_pend_t early;                   /* keys before the hand-over, as
                                           'D' records (ssh_link.h) */
} ssh_conn_t;

/* A connection for accepted socket fd (taken: closed by ssh_conn_free),
 * counted by the guard for ip already. NULL on OOM (fd not taken). */
ssh_conn_t *ssh_conn_new(ssh_bridge_t *b, struct ssh_worker *w, ssh_event ev,
                         int fd, int worker, const char *addr, const char *ip,
                         uint64_t now_ms);

/* Starts libssh on it: the banner sent, the session in the thread's
 * event. Returns 0, or -1 (the connection is to be freed). */
int ssh_conn_start(ssh_conn_t *c);

/* After a poll: whatever the connection has to do now (pause, deadlines,
 * the hand-over, the end). Returns 1 once it is over here (then
 * ssh_conn_free; a handed one's session is the worker's). */
int ssh_conn_service(ssh_conn_t *c, uint64_t now_ms);

/* Closes and frees everything it holds; the worker's count and the
 * guard's are given back if still held. */
void ssh_conn_free(ssh_conn_t *c);

/* From a callback: the thread services c after this poll (ssh_bridge.c). */
void ssh_conn_touch(ssh_conn_t *c);

uint64_t ssh_mono_ms(void);

#endif
