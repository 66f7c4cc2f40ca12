/* addr_limits.c - per-address limits (addr_limits.h): a chained hash of
 * the addresses that have sessions or spent tokens. */
#include "addr_limits.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct addr_entry {
    struct addr_entry *next;
    char addr[ADDR_MAX];
    int sessions;
    double tokens;             /* connections it may still open now */
    uint64_t tokens_ms;        /* when tokens was last brought up to date */
    int hashing;               /* password checks in flight */
    int startups;              /* connections before the lobby */
    double regs;               /* accounts it may still create now */
    uint64_t regs_ms;
};

/* The /64 of an IPv6 address that is not IPv4-mapped, as text; 0, or -1
 * (out too short). */
static int v6_net_name(struct in6_addr v6, char *out, size_t outlen)
{
    char host[INET6_ADDRSTRLEN];
    memset(&v6.s6_addr[8], 0, 8);
    if (!inet_ntop(AF_INET6, &v6, host, sizeof host))
        return -1;
    int n = snprintf(out, outlen, "%s/64", host);
    return n > 0 && (size_t)n < outlen ? 0 : -1;
}

void addr_key(const char *addr, char *out, size_t outlen)
{
    struct in_addr v4;
    struct in6_addr v6;
    int ok = -1;
    if (outlen == 0)
        return;
    if (inet_pton(AF_INET, addr, &v4) == 1) {
        ok = inet_ntop(AF_INET, &v4, out, (socklen_t)outlen) ? 0 : -1;
    } else if (inet_pton(AF_INET6, addr, &v6) == 1) {
        if (IN6_IS_ADDR_V4MAPPED(&v6)) {
            memcpy(&v4, &v6.s6_addr[12], 4);
            ok = inet_ntop(AF_INET, &v4, out, (socklen_t)outlen) ? 0 : -1;
        } else {
            ok = v6_net_name(v6, out, outlen);
        }
    }
    if (ok != 0)
        snprintf(out, outlen, "%s", addr); /* no address: counted as is */
}

static size_t hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return (size_t)h;
}

int addr_limits_init(addr_limits_t *a, int max_sessions,
                     int connects_per_minute, int hashes,
                     int registrations_per_hour)
{
    memset(a, 0, sizeof *a);
    a->max_sessions = max_sessions;
    a->connects_per_minute = connects_per_minute;
    a->hashes = hashes;
    a->registrations_per_hour = registrations_per_hour;
    a->nbuckets = 1024;
    a->buckets = calloc(a->nbuckets, sizeof *a->buckets);
    if (!a->buckets)
        return -1;
    pthread_mutex_init(&a->mu, NULL);
    return 0;
}

void addr_limits_free(addr_limits_t *a)
{
    for (size_t i = 0; i < a->nbuckets; i++)
        while (a->buckets[i]) {
            addr_entry_t *e = a->buckets[i];
            a->buckets[i] = e->next;
            free(e);
        }
    if (a->buckets)
        pthread_mutex_destroy(&a->mu);
    free(a->buckets);
    memset(a, 0, sizeof *a);
}

static addr_entry_t **slot(const addr_limits_t *a, const char *addr)
{
    addr_entry_t **p = &a->buckets[hash(addr) & (a->nbuckets - 1)];
    while (*p && strcmp((*p)->addr, addr) != 0)
        p = &(*p)->next;
    return p;
}

static void refill_regs(const addr_limits_t *a, addr_entry_t *e, uint64_t now)
{
    double cap = a->registrations_per_hour;
    if (now <= e->regs_ms)
        return; /* (an earlier clock's reading: the SSH threads' and the
                   loops' cached uv_now differ by a few ms) */
    e->regs += (double)(now - e->regs_ms) * cap / 3600000.0;
    e->regs_ms = now;
    if (e->regs > cap)
        e->regs = cap;
}

static void refill(const addr_limits_t *a, addr_entry_t *e, uint64_t now)
{
    refill_regs(a, e, now);
    double cap = a->connects_per_minute;
    if (now <= e->tokens_ms)
        return; /* (as refill_regs: never counted twice) */
    e->tokens += (double)(now - e->tokens_ms) * cap / 60000.0;
    e->tokens_ms = now;
    if (e->tokens > cap)
        e->tokens = cap;
}

/* Forgets e if it holds nothing: no session, none before the lobby, full
 * buckets. */
static void maybe_forget(addr_limits_t *a, addr_entry_t **p)
{
    addr_entry_t *e = *p;
    if (e->sessions > 0 || e->hashing > 0 || e->startups > 0 ||
        e->tokens < (double)a->connects_per_minute ||
        e->regs < (double)a->registrations_per_hour)
        return;
    *p = e->next;
    free(e);
    a->n--;
}

/* addr's entry, made with full buckets if it has none; NULL: out of
 * memory. */
static addr_entry_t *entry_of(addr_limits_t *a, const char *addr,
                              uint64_t now_ms)
{
    addr_entry_t **p = slot(a, addr);
    if (!*p) {
        addr_entry_t *e = calloc(1, sizeof *e);
        if (!e)
            return NULL;
        snprintf(e->addr, sizeof e->addr, "%s", addr);
        e->tokens = a->connects_per_minute;
        e->tokens_ms = now_ms;
        e->regs = a->registrations_per_hour;
        e->regs_ms = now_ms;
        *p = e;
        a->n++;
    }
    return *p;
}

static int admit_locked(addr_limits_t *a, const char *addr, uint64_t now_ms,
               int *tracked)
{
    *tracked = 0;
    if (a->max_sessions <= 0 && a->connects_per_minute <= 0 &&
        a->hashes <= 0 && a->registrations_per_hour <= 0)
        return ADDR_OK;
    addr_entry_t *e = entry_of(a, addr, now_ms);
    if (!e)
        return ADDR_OK; /* out of memory: never refuse for it */
    if (a->connects_per_minute > 0) {
        refill(a, e, now_ms);
        if (e->tokens < 1.0)
            return ADDR_TOO_MANY_CONNECTS;
        e->tokens -= 1.0;
    }
    if (a->max_sessions > 0 && e->sessions >= a->max_sessions)
        return ADDR_TOO_MANY_SESSIONS;
    e->sessions++;
    *tracked = 1;
    return ADDR_OK;
}

static void release_locked(addr_limits_t *a, const char *addr, uint64_t now_ms)
{
    addr_entry_t **p = slot(a, addr);
    if (!*p)
        return;
    if ((*p)->sessions > 0)
        (*p)->sessions--;
    refill(a, *p, now_ms);
    maybe_forget(a, p);
}

static int hash_begin_locked(addr_limits_t *a, const char *addr)
{
    addr_entry_t **p = slot(a, addr);
    if (!*p)
        return 0; /* untracked (out of memory at admission): let it be */
    if (a->hashes > 0 && (*p)->hashing >= a->hashes)
        return -1;
    (*p)->hashing++;
    return 0;
}

static void hash_end_locked(addr_limits_t *a, const char *addr)
{
    addr_entry_t **p = slot(a, addr);
    if (*p && (*p)->hashing > 0)
        (*p)->hashing--;
}

static int register_locked(addr_limits_t *a, const char *addr, uint64_t now_ms)
{
    if (a->registrations_per_hour <= 0)
        return 0;
    addr_entry_t **p = slot(a, addr);
    if (!*p)
        return 0;
    refill_regs(a, *p, now_ms);
    if ((*p)->regs < 1.0)
        return -1;
    (*p)->regs -= 1.0;
    return 0;
}

static int sessions_locked(addr_limits_t *a, const char *addr)
{
    addr_entry_t *const *p = slot(a, addr);
    return *p ? (*p)->sessions : 0;
}

static int startup_begin_locked(addr_limits_t *a, const char *addr,
                                uint64_t now_ms)
{
    addr_entry_t *e = entry_of(a, addr, now_ms);
    if (!e)
        return 0; /* out of memory: as if fresh, never refused for it */
    return e->startups++;
}

static void startup_end_locked(addr_limits_t *a, const char *addr,
                               uint64_t now_ms)
{
    addr_entry_t **p = slot(a, addr);
    if (!*p)
        return;
    if ((*p)->startups > 0)
        (*p)->startups--;
    refill(a, *p, now_ms);
    maybe_forget(a, p);
}

static void sweep_locked(addr_limits_t *a, uint64_t now_ms)
{
    for (size_t i = 0; i < a->nbuckets; i++) {
        addr_entry_t **p = &a->buckets[i];
        while (*p) {
            addr_entry_t *e = *p;
            refill(a, e, now_ms);
            maybe_forget(a, p);
            if (*p == e)
                p = &e->next;
        }
    }
}

/* --- the API: each call counts addr by its key (addr_key) under the mutex
 * (the worker loops share one) --- */

int addr_admit(addr_limits_t *a, const char *addr, uint64_t now_ms,
               int *tracked)
{
    char key[ADDR_MAX];
    addr_key(addr, key, sizeof key);
    pthread_mutex_lock(&a->mu);
    int rc = admit_locked(a, key, now_ms, tracked);
    pthread_mutex_unlock(&a->mu);
    return rc;
}

void addr_release(addr_limits_t *a, const char *addr, uint64_t now_ms)
{
    char key[ADDR_MAX];
    addr_key(addr, key, sizeof key);
    pthread_mutex_lock(&a->mu);
    release_locked(a, key, now_ms);
    pthread_mutex_unlock(&a->mu);
}

int addr_hash_begin(addr_limits_t *a, const char *addr)
{
    char key[ADDR_MAX];
    addr_key(addr, key, sizeof key);
    pthread_mutex_lock(&a->mu);
    int rc = hash_begin_locked(a, key);
    pthread_mutex_unlock(&a->mu);
    return rc;
}

void addr_hash_end(addr_limits_t *a, const char *addr)
{
    char key[ADDR_MAX];
    addr_key(addr, key, sizeof key);
    pthread_mutex_lock(&a->mu);
    hash_end_locked(a, key);
    pthread_mutex_unlock(&a->mu);
}

int addr_register(addr_limits_t *a, const char *addr, uint64_t now_ms)
{
    char key[ADDR_MAX];
    addr_key(addr, key, sizeof key);
    pthread_mutex_lock(&a->mu);
    int rc = register_locked(a, key, now_ms);
    pthread_mutex_unlock(&a->mu);
    return rc;
}

int addr_sessions(addr_limits_t *a, const char *addr)
{
    char key[ADDR_MAX];
    addr_key(addr, key, sizeof key);
    pthread_mutex_lock(&a->mu);
    int n = sessions_locked(a, key);
    pthread_mutex_unlock(&a->mu);
    return n;
}

int addr_startup_begin(addr_limits_t *a, const char *addr, uint64_t now_ms)
{
    char key[ADDR_MAX];
    addr_key(addr, key, sizeof key);
    pthread_mutex_lock(&a->mu);
    int had = startup_begin_locked(a, key, now_ms);
    pthread_mutex_unlock(&a->mu);
    return had;
}

void addr_startup_end(addr_limits_t *a, const char *addr, uint64_t now_ms)
{
    char key[ADDR_MAX];
    addr_key(addr, key, sizeof key);
    pthread_mutex_lock(&a->mu);
    startup_end_locked(a, key, now_ms);
    pthread_mutex_unlock(&a->mu);
}

void addr_sweep(addr_limits_t *a, uint64_t now_ms)
{
    pthread_mutex_lock(&a->mu);
    sweep_locked(a, now_ms);
    pthread_mutex_unlock(&a->mu);
}
