/* known_logins.h - the addresses each account has logged in from, so
 * that the per-name ceiling on failed logins (throttle.h, a defence
 * against guesses spread over many addresses) cannot be turned against
 * the owner: a login from an address the name has succeeded from before
 * skips that ceiling (its own address's count still applies). Strangers
 * failing from any number of other addresses then never lock the owner
 * out (docs/hosting.md, "The network").
 *
 * A fixed table, no allocation: KL_CAP pairs of (acct_name_key, address),
 * the least recently used in a probe window given up for a new one, each
 * forgotten KL_FORGET_MS after its last login. Pure: the caller passes the
 * clock and holds its lock. */
#ifndef ROGUE_KNOWN_LOGINS_H
#define ROGUE_KNOWN_LOGINS_H

#include <stdint.h>

#include "throttle.h"

#define KL_CAP 2048
#define KL_FORGET_MS (30ull * 24 * 3600 * 1000) /* 30 days */

typedef struct kl_entry {
    char key[THROTTLE_KEY_MAX + 1];  /* "name@address"; "": free */
    uint64_t last_ms;
} kl_entry_t;

typedef struct known_logins {
    kl_entry_t e[KL_CAP];
} known_logins_t;

/* A login of name from addr succeeded at now_ms. */
void kl_add(known_logins_t *k, const char *name, const char *addr,
            uint64_t now_ms);

/* 1 if name logged in from addr within KL_FORGET_MS of now_ms. */
int kl_has(const known_logins_t *k, const char *name, const char *addr,
           uint64_t now_ms);

#endif
