/* ssh_guard.h - what one address (and one account name) may cost the SSH
 * bridge before anyone is logged in (docs/hosting.md, "The network"):
 *
 * - at most `pending_cap` connections from one address that have not yet
 *   logged in: one more is refused at once;
 * - failed public-key tries slow down: past `free_tries` failures of an
 *   address (or `name_free_tries` of an account name, from anywhere), each
 *   further denial waits base_ms, then twice that, ... up to max_ms:
 *   nothing more is read from that connection meanwhile, nor from a new
 *   connection of that address until the wait is over (sshg_owed), and
 *   each stays counted as not in (so one address holds at most
 *   pending_cap such waits); a failure count goes back to 0 after forget_ms without
 *   one, and an address's at the first success from it (the owner is
 *   never slowed down by strangers' failures from elsewhere).
 *
 * An address is counted by its key (addr_key in addr_limits.h: an IPv6
 * address as its /64); callers pass the full address.
 *
 * Shared by the acceptor and every SSH thread: one mutex. The table is fixed
 * (SSHG_SLOTS); when it is full the oldest idle entry is reused, and with
 * none idle a newcomer is refused (logged by the caller). */
#ifndef ROGUE_SSH_GUARD_H
#define ROGUE_SSH_GUARD_H

#include <pthread.h>
#include <stdint.h>

#define SSHG_SLOTS 4096
#define SSHG_KEY_MAX 64

typedef struct sshg_entry {
    char key[SSHG_KEY_MAX];    /* "ip KEY" or "name NAME" ("": free) */
    int pending;               /* connections not yet logged in */
    int failures;
    uint64_t last_ms;          /* the last failure or connection */
} sshg_entry_t;

typedef struct sshg {
    pthread_mutex_t mu;
    sshg_entry_t *slots;       /* SSHG_SLOTS; owned */
    int pending_cap;           /* 0: no cap */
    int free_tries, name_free_tries;
    int base_ms, max_ms, forget_ms;
} sshg_t;

/* Returns 0, or -1 (out of memory). Caps as in the comment above; 0 for a
 * cap or tries turns that part off. */
int sshg_init(sshg_t *g, int pending_cap, int base_ms);
void sshg_free(sshg_t *g);

/* The address part of "ip:port" or "[ip]:port" into out. */
void sshg_ip_of(const char *addr, char *out, size_t outlen);

/* A connection from ip that is not logged in yet: counted. Returns 0, or
 * -1 (ip is at its cap, or the table is full: refused, not counted). */
int sshg_enter(sshg_t *g, const char *ip, uint64_t now_ms);

/* That connection logged in or ended: no longer counted. */
void sshg_leave(sshg_t *g, const char *ip);

/* A failed try from ip for name: counted for both. Returns how long to
 * wait before saying so (ms; 0: at once). */
int sshg_failed(sshg_t *g, const char *ip, const char *name, uint64_t now_ms);

/* What is left now of the wait ip's last failure earned (ms; 0: none).
 * A new connection from ip waits it out before anything of it is read:
 * a client that tries one key a connection is slowed down as one that
 * tries them all on one. */
int sshg_owed(sshg_t *g, const char *ip, uint64_t now_ms);

/* A login from ip: the address's failures are forgotten. */
void sshg_succeeded(sshg_t *g, const char *ip);

/* Connections not logged in from ip now (for tests and logs). */
int sshg_pending(sshg_t *g, const char *ip);

#endif
