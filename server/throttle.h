/* throttle.h - slowing down repeated failed logins for one name.
 *
 * The store keeps two tables: failures per (name, address) (the *_in
 * functions with the address as scope: the store passes its addr_key, so
 * an IPv6 address counts as its /64 and changing addresses within one
 * earns no more free failures), so that someone guessing from one
 * address never slows the owner logging in from another; and failures per
 * name from anywhere, with THROTTLE_NAME_FREE free failures, a ceiling for
 * guesses spread over many addresses.
 *
 * A table, bounded, of names with recent failures (by acct_name_key, so
 * case does not matter, and unknown names are counted exactly like real
 * ones: the table says nothing about which names exist). The first
 * THROTTLE_FREE failures cost nothing; after that each attempt on the name
 * must wait THROTTLE_BASE_MS doubled per further failure, up to
 * THROTTLE_MAX_MS. Attempts are spaced, not just delayed: parallel
 * attempts from many connections are admitted one step apart, so opening
 * more connections does not make guessing faster. An attempt that would
 * have to wait longer than THROTTLE_MAX_WAIT_MS is refused outright.
 * THROTTLE_FORGET_MS after its last failure a name starts afresh; a
 * success clears it at once.
 *
 * When the table is full, a new name takes the slot of a forgotten entry,
 * else of the one with the fewest failures (the oldest among equals): a
 * flood of single failures on many names cannot push out a name that is
 * being guessed hard.
 *
 * Pure: no clock (the caller passes now_ms), no I/O; the store calls it on
 * the loop thread. */
#ifndef ROGUE_THROTTLE_H
#define ROGUE_THROTTLE_H

#include <stddef.h>
#include <stdint.h>

#include "accounts.h"

#define THROTTLE_FREE 3                   /* failures before any wait */
#define THROTTLE_NAME_FREE 50             /* ...on one name from anywhere
                                             (the store's ceiling) */
#define THROTTLE_BASE_MS 1000             /* the first wait */
#define THROTTLE_MAX_MS 60000             /* the longest step */
#define THROTTLE_MAX_WAIT_MS 120000       /* refuse beyond this */
#define THROTTLE_FORGET_MS (15 * 60 * 1000)
#define THROTTLE_DEFAULT_CAP 4096         /* names remembered */

/* A key: the name's acct_name_key, and "@scope" when there is one. */
#define THROTTLE_KEY_MAX (ACCT_NAME_MAX + 1 + 48)

typedef struct throttle_entry {
    char key[THROTTLE_KEY_MAX + 1]; /* "" = a free slot */
    uint32_t fails;
    uint64_t last_fail_ms;       /* the last failure, or attempt started */
    uint64_t next_ms;            /* the earliest the next attempt may run */
    uint32_t pending;            /* attempts admitted, not yet answered:
                                    counted as failures from their start */
} throttle_entry_t;

typedef struct throttle {
    throttle_entry_t *e;
    size_t cap;
    uint32_t free_fails;         /* failures before any wait (THROTTLE_FREE) */
} throttle_t;

/* A table remembering at most cap names (0: THROTTLE_DEFAULT_CAP), with
 * THROTTLE_FREE free failures (set t->free_fails after for another count).
 * Returns 0, or -1 on OOM. */
int throttle_init(throttle_t *t, size_t cap);

/* Releases the table. */
void throttle_free(throttle_t *t);

/* The wait before an attempt on name, in ms from now. An attempt asks once,
 * at its start, and from then on counts as a failure until its answer
 * (throttle_failed, throttle_succeeded or throttle_abandoned): so parallel
 * attempts are spaced from the first one past the free ones, not only
 * once their hashes have failed. Returns the wait (0: go now), or -1: too many attempts
 * queued for this name, refuse this one. */
int64_t throttle_admit(throttle_t *t, const char *name, uint64_t now_ms);

/* An attempt on name failed (wrong password or unknown name). */
void throttle_failed(throttle_t *t, const char *name, uint64_t now_ms);

/* An attempt on name succeeded: it starts afresh. */
void throttle_succeeded(throttle_t *t, const char *name);

/* An admitted attempt ended with no verdict (an error, or given up
 * before its password was checked): it no longer counts. */
void throttle_abandoned(throttle_t *t, const char *name, uint64_t now_ms);
void throttle_abandoned_in(throttle_t *t, const char *name, const char *scope,
                           uint64_t now_ms);

/* The same three for (name, scope): the failures counted for a name from
 * one scope (an address) only; scope NULL or "" is the name alone. */
int64_t throttle_admit_in(throttle_t *t, const char *name, const char *scope,
                          uint64_t now_ms);
void throttle_failed_in(throttle_t *t, const char *name, const char *scope,
                        uint64_t now_ms);
void throttle_succeeded_in(throttle_t *t, const char *name, const char *scope);

/* The step after `fails` failures: 0 up to THROTTLE_FREE, then
 * THROTTLE_BASE_MS doubled per failure, at most THROTTLE_MAX_MS. */
uint64_t throttle_step_ms(uint32_t fails);

#endif
