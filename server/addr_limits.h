/* addr_limits.h - what one network address may take of the server: how
 * many sessions at once, and how many new connections a minute.
 *
 * Without it, one address could hold every slot (1,000 silent connections
 * and everyone else is told the server is full) or churn connections
 * faster than anyone else can get in. Each address has a count of its
 * sessions and a token bucket of connections (refilled evenly, a minute's
 * worth at most), and of its connections before the lobby (startups.h).
 * An address with no session, none before the lobby and a full bucket is
 * forgotten, so memory follows the addresses that are active. The worker
 * loops share one: every call takes its mutex. No I/O, no libuv; times are
 * the caller's milliseconds. */
#ifndef ROGUE_ADDR_LIMITS_H
#define ROGUE_ADDR_LIMITS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define ADDR_MAX 48 /* an IPv6 address as text, and its NUL */

typedef struct addr_entry addr_entry_t;

typedef struct addr_limits {
    pthread_mutex_t mu;        /* every field below */
    int max_sessions;          /* per address; 0: no limit */
    int connects_per_minute;   /* per address; 0: no limit */
    int hashes;                /* password hashes in flight; 0: no limit */
    int registrations_per_hour; /* accounts created; 0: no limit */
    addr_entry_t **buckets;
    size_t nbuckets;
    size_t n;                  /* addresses remembered */
} addr_limits_t;

enum addr_verdict {
    ADDR_OK = 0,
    ADDR_TOO_MANY_SESSIONS,    /* max_sessions of this address are on */
    ADDR_TOO_MANY_CONNECTS     /* its connections this minute are spent */
};

/* The key a per-address limit counts addr by, into out (outlen >=
 * ADDR_MAX holds any): an IPv4 address as itself, an IPv4-mapped IPv6
 * one (::ffff:a.b.c.d, one IPv4 host) as its IPv4 address, any other IPv6
 * address as its /64 ("2001:db8:1:2::/64"), since one customer usually
 * gets a /64 and would otherwise escape every limit by changing addresses.
 * Read with inet_pton, never by the text's form; text that is no address
 * is kept as is. Used inside the limits' own calls (here, ssh_guard.h,
 * rebuild_pool.h), so callers pass and log the full address. */
void addr_key(const char *addr, char *out, size_t outlen);

/* Returns 0, or -1 (out of memory). */
int addr_limits_init(addr_limits_t *a, int max_sessions,
                     int connects_per_minute, int hashes,
                     int registrations_per_hour);
void addr_limits_free(addr_limits_t *a);

/* A connection from addr at now_ms: spends a connection token and, if the
 * address may have another session, counts it (ADDR_OK: call
 * addr_release when that session ends). Refused: nothing is counted but
 * the token (a refused flood still spends its own tokens). Out of memory
 * counts as ADDR_OK, untracked: *tracked says whether to release. */
int addr_admit(addr_limits_t *a, const char *addr, uint64_t now_ms,
               int *tracked);

/* A session counted by addr_admit has ended. */
void addr_release(addr_limits_t *a, const char *addr, uint64_t now_ms);

/* Sessions the address has now (for tests and logs). */
int addr_sessions(addr_limits_t *a, const char *addr);

/* A password check (login or registration) from a session of addr, whose
 * hash is expensive: at most `hashes` in flight per address, so that one
 * address with many connections cannot fill the hashing queue that
 * everyone shares. Returns 0 (counted: call addr_hash_end when it is
 * answered), or -1 (refused). Only for addresses with a session. */
int addr_hash_begin(addr_limits_t *a, const char *addr);
void addr_hash_end(addr_limits_t *a, const char *addr);

/* A new account from addr: spends one of its registrations_per_hour
 * (refilled evenly). Returns 0, or -1 (none left). */
int addr_register(addr_limits_t *a, const char *addr, uint64_t now_ms);

/* A connection from addr before the lobby (startups.h), counted until
 * addr_startup_end: returns how many the address had before this one (0:
 * a fresh address, let in first under pressure). Counted whatever the
 * limits, and an address with such connections is not forgotten. Out of
 * memory counts nothing and returns 0 (addr_startup_end is then harmless
 * but for another connection of that address: never below 0). */
int addr_startup_begin(addr_limits_t *a, const char *addr, uint64_t now_ms);

/* Once for each addr_startup_begin: the connection has reached the lobby,
 * been refused or closed. */
void addr_startup_end(addr_limits_t *a, const char *addr, uint64_t now_ms);

/* Forgets idle addresses whose buckets have refilled (call now and then). */
void addr_sweep(addr_limits_t *a, uint64_t now_ms);

#endif
