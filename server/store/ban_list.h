/* ban_list.h - the bans a host honours (ctl ban, docs/hosting.md
 * "Operations"), kept in memory: the store's database thread replaces the
 * whole list from the database every STORE_BAN_REFRESH_MS and at once
 * after a ban or unban (store.h), and any thread checks an address or a
 * name against it under its mutex, never waiting on the database.
 *
 * A target is an address range ("203.0.113.7", "203.0.113.0/24",
 * "2001:db8::/32"; written back as "ADDR/BITS" with the host bits cleared)
 * or an account name (any case; written in lower case). */
#ifndef ROGUE_BAN_LIST_H
#define ROGUE_BAN_LIST_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "store_types.h"

/* A parsed target. */
typedef struct ban_target {
    int family;               /* AF_INET, AF_INET6, or 0: a name */
    uint8_t addr[16];         /* the network, host bits cleared */
    int bits;                 /* prefix length */
    char text[STORE_BAN_TARGET_MAX + 1]; /* its canonical form */
} ban_target_t;

/* Parses "ADDR[/BITS]" or a NAME into t. Returns 0, or -1 with why in err. */
int ban_parse_target(const char *text, ban_target_t *t, char *err,
                     size_t errlen);

/* Parses a duration, "30m", "2h", "7d" (a number and m, h or d), into
 * minutes. Returns 0, or -1. */
int ban_parse_duration(const char *text, int64_t *minutes);

/* 1 if address ip (text, as a session's) is inside t's range. */
int ban_target_covers(const ban_target_t *t, const char *ip);

typedef struct ban_list {
    pthread_mutex_t mu;
    store_ban_t *bans;        /* owned; under mu */
    ban_target_t *targets;    /*   parsed, one per ban */
    size_t n;
} ban_list_t;

/* Returns 0, or -1 (no mutex). */
int ban_list_init(ban_list_t *l);
void ban_list_free(ban_list_t *l);

/* Replaces the list with bans[0..n) (copied; a target that does not parse
 * is left out). Returns 0, or -1 (out of memory: the old list stays). */
int ban_list_set(ban_list_t *l, const store_ban_t *bans, size_t n);

/* 1 if a ban in force at now_ms covers address ip (or names name, any
 * case), with its end in *until_ms (0: for good); else 0. */
int ban_list_addr(ban_list_t *l, const char *ip, int64_t now_ms,
                  int64_t *until_ms);
int ban_list_name(ban_list_t *l, const char *name, int64_t now_ms,
                  int64_t *until_ms);

/* A copy of the bans in force at now_ms, oldest first (malloc'd; NULL
 * when none or out of memory). Returns how many. */
size_t ban_list_copy(ban_list_t *l, int64_t now_ms, store_ban_t **out);

/* "2026-11-26 15:40:00 UTC" (or "for good" when until_ms is 0). */
void ban_format_until(int64_t until_ms, char *out, size_t outlen);

/* What a banned client is told: "SUBJECT is banned until WHEN." or
 * "SUBJECT is banned." for good. */
void ban_say(char *out, size_t outlen, const char *subject, int64_t until_ms);

/* The wall clock, Unix ms: what bans' ends are compared with. */
int64_t ban_now_ms(void);

#endif
