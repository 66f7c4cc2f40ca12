/* ssh_guard.c - per-address and per-name limits of the SSH bridge before
 * login (ssh_guard.h). */
#include "ssh_guard.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr_limits.h"

int sshg_init(sshg_t *g, int pending_cap, int base_ms)
{
    memset(g, 0, sizeof *g);
    g->slots = calloc(SSHG_SLOTS, sizeof *g->slots);
    if (!g->slots)
        return -1;
    pthread_mutex_init(&g->mu, NULL);
    g->pending_cap = pending_cap;
    g->free_tries = 3;
    g->name_free_tries = 50;
    g->base_ms = base_ms;
    g->max_ms = base_ms * 16;
    g->forget_ms = 600000;
    return 0;
}

void sshg_free(sshg_t *g)
{
    if (!g->slots)
        return;
    pthread_mutex_destroy(&g->mu);
    free(g->slots);
    g->slots = NULL;
}

void sshg_ip_of(const char *addr, char *out, size_t outlen)
{
    const char *end = strrchr(addr, ':');
    size_t n = end ? (size_t)(end - addr) : strlen(addr);
    if (n > 0 && addr[0] == '[' && addr[n - 1] == ']') {
        addr++;
        n -= 2;
    }
    snprintf(out, outlen, "%.*s", (int)n, addr);
}

/* The table's key of ip: "ip " and what the per-address limits count it
 * by (addr_key: an IPv6 address's /64). */
static void ip_key(const char *ip, char *key, size_t keylen)
{
    char k[ADDR_MAX];
    addr_key(ip, k, sizeof k);
    snprintf(key, keylen, "ip %s", k);
}

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static int idle(const sshg_t *g, const sshg_entry_t *e, uint64_t now)
{
    return e->pending == 0 &&
           (e->failures == 0 || now - e->last_ms >= (uint64_t)g->forget_ms);
}

/* The entry for key (made if make), under g->mu; NULL if absent (or the
 * table is full of live entries). Linear probing over a window. */
static sshg_entry_t *find(sshg_t *g, const char *key, int make, uint64_t now)
{
    uint32_t h = hash(key);
    sshg_entry_t *spare = NULL;
    for (int i = 0; i < 64; i++) {
        sshg_entry_t *e = &g->slots[(h + (uint32_t)i) % SSHG_SLOTS];
        if (strcmp(e->key, key) == 0)
            return e;
        if (!spare && (!e->key[0] || idle(g, e, now)))
            spare = e;
    }
    if (!make || !spare)
        return NULL;
    memset(spare, 0, sizeof *spare);
    snprintf(spare->key, sizeof spare->key, "%s", key);
    spare->last_ms = now;
    return spare;
}

int sshg_enter(sshg_t *g, const char *ip, uint64_t now_ms)
{
    char key[SSHG_KEY_MAX];
    ip_key(ip, key, sizeof key);
    pthread_mutex_lock(&g->mu);
    sshg_entry_t *e = find(g, key, 1, now_ms);
    int ok = e && (g->pending_cap <= 0 || e->pending < g->pending_cap);
    if (ok)
        e->pending++;
    pthread_mutex_unlock(&g->mu);
    return ok ? 0 : -1;
}

void sshg_leave(sshg_t *g, const char *ip)
{
    char key[SSHG_KEY_MAX];
    ip_key(ip, key, sizeof key);
    pthread_mutex_lock(&g->mu);
    sshg_entry_t *e = find(g, key, 0, 0);
    if (e && e->pending > 0)
        e->pending--;
    pthread_mutex_unlock(&g->mu);
}

/* The wait a count of failures earns past `free` of them (0: none). */
static int wait_of(const sshg_t *g, int failures, int free)
{
    if (free <= 0 || failures <= free)
        return 0;
    int over = failures - free - 1;
    long ms = g->base_ms;
    while (over-- > 0 && ms < g->max_ms)
        ms *= 2;
    return ms < g->max_ms ? (int)ms : g->max_ms;
}

/* One more failure of the entry for key; its wait past `free` failures. */
static int fail_one(sshg_t *g, const char *key, int free, uint64_t now)
{
    sshg_entry_t *e = find(g, key, 1, now);
    if (!e)
        return g->max_ms; /* the table is full: the longest wait */
    if (e->failures > 0 && now - e->last_ms >= (uint64_t)g->forget_ms)
        e->failures = 0;
    e->failures++;
    e->last_ms = now;
    return wait_of(g, e->failures, free);
}

int sshg_owed(sshg_t *g, const char *ip, uint64_t now_ms)
{
    char key[SSHG_KEY_MAX];
    if (g->base_ms <= 0)
        return 0;
    ip_key(ip, key, sizeof key);
    pthread_mutex_lock(&g->mu);
    sshg_entry_t *e = find(g, key, 0, 0);
    int owed = 0;
    if (e && e->failures > 0 && now_ms - e->last_ms < (uint64_t)g->forget_ms) {
        uint64_t end = e->last_ms +
                       (uint64_t)wait_of(g, e->failures, g->free_tries);
        if (end > now_ms)
            owed = (int)(end - now_ms);
    }
    pthread_mutex_unlock(&g->mu);
    return owed;
}

int sshg_failed(sshg_t *g, const char *ip, const char *name, uint64_t now_ms)
{
    char key[SSHG_KEY_MAX];
    if (g->base_ms <= 0)
        return 0;
    pthread_mutex_lock(&g->mu);
    ip_key(ip, key, sizeof key);
    int a = fail_one(g, key, g->free_tries, now_ms);
    int n = snprintf(key, sizeof key, "name ");
    for (const char *p = name; *p && n < SSHG_KEY_MAX - 1; p++)
        key[n++] = (char)tolower((unsigned char)*p);
    key[n] = '\0';
    int b = fail_one(g, key, g->name_free_tries, now_ms);
    pthread_mutex_unlock(&g->mu);
    return a > b ? a : b;
}

void sshg_succeeded(sshg_t *g, const char *ip)
{
    char key[SSHG_KEY_MAX];
    ip_key(ip, key, sizeof key);
    pthread_mutex_lock(&g->mu);
    sshg_entry_t *e = find(g, key, 0, 0);
    if (e)
        e->failures = 0;
    pthread_mutex_unlock(&g->mu);
}

int sshg_pending(sshg_t *g, const char *ip)
{
    char key[SSHG_KEY_MAX];
    ip_key(ip, key, sizeof key);
    pthread_mutex_lock(&g->mu);
    sshg_entry_t *e = find(g, key, 0, 0);
    int n = e ? e->pending : 0;
    pthread_mutex_unlock(&g->mu);
    return n;
}
