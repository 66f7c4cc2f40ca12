/* throttle.c - per-name slow-down of failed logins (a linear table: a few
 * thousand short names scanned per login attempt is microseconds, next to
 * the tens of milliseconds of the password hash it guards). */
#include "throttle.h"

#include <stdlib.h>
#include <string.h>

int throttle_init(throttle_t *t, size_t cap)
{
    t->free_fails = THROTTLE_FREE;
    t->cap = cap ? cap : THROTTLE_DEFAULT_CAP;
    t->e = calloc(t->cap, sizeof *t->e);
    return t->e ? 0 : -1;
}

void throttle_free(throttle_t *t)
{
    free(t->e);
    t->e = NULL;
    t->cap = 0;
}

static uint64_t step_after(uint32_t free_fails, uint32_t fails)
{
    if (fails < free_fails)
        return 0;
    uint32_t doublings = fails - free_fails;
    if (doublings >= 16)
        return THROTTLE_MAX_MS;
    uint64_t ms = (uint64_t)THROTTLE_BASE_MS << doublings;
    return ms < THROTTLE_MAX_MS ? ms : THROTTLE_MAX_MS;
}

uint64_t throttle_step_ms(uint32_t fails)
{
    return step_after(THROTTLE_FREE, fails);
}

/* The key of (name, scope). */
static void make_key(const char *name, const char *scope, char *key)
{
    acct_name_key(name, key, ACCT_NAME_MAX + 1);
    if (scope && scope[0]) {
        size_t n = strlen(key);
        key[n] = '@';
        size_t k = strnlen(scope, THROTTLE_KEY_MAX - n - 1);
        memcpy(key + n + 1, scope, k);
        key[n + 1 + k] = '\0';
    }
}

static int forgotten(const throttle_entry_t *e, uint64_t now)
{
    return now >= e->next_ms && now - e->last_fail_ms >= THROTTLE_FORGET_MS;
}

/* The live entry for key, or NULL (a forgotten one is cleared on the way). */
static throttle_entry_t *find(throttle_t *t, const char *key, uint64_t now)
{
    for (size_t i = 0; i < t->cap; i++) {
        throttle_entry_t *e = &t->e[i];
        if (e->key[0] && strcmp(e->key, key) == 0) {
            if (!forgotten(e, now))
                return e;
            memset(e, 0, sizeof *e);
            return NULL;
        }
    }
    return NULL;
}

/* A slot for a new key: free, else forgotten, else the fewest failures
 * (oldest first). */
static throttle_entry_t *take_slot(throttle_t *t, uint64_t now)
{
    throttle_entry_t *best = NULL;
    for (size_t i = 0; i < t->cap; i++) {
        throttle_entry_t *e = &t->e[i];
        if (!e->key[0] || forgotten(e, now))
            return e;
        if (!best || e->fails < best->fails ||
            (e->fails == best->fails && e->last_fail_ms < best->last_fail_ms))
            best = e;
    }
    return best;
}

int64_t throttle_admit_in(throttle_t *t, const char *name, const char *scope,
                          uint64_t now_ms)
{
    char key[THROTTLE_KEY_MAX + 1];
    make_key(name, scope, key);
    throttle_entry_t *e = find(t, key, now_ms);
    if (!e) {
        /* Counted from its start: a fresh name gets an entry now. */
        e = take_slot(t, now_ms);
        if (!e)
            return 0; /* no table (cap 0) */
        memset(e, 0, sizeof *e);
        memcpy(e->key, key, sizeof key);
    }
    uint64_t at = e->next_ms > now_ms ? e->next_ms : now_ms;
    if (at - now_ms > THROTTLE_MAX_WAIT_MS)
        return -1;
    if (e->pending < UINT32_MAX)
        e->pending++;
    e->last_fail_ms = now_ms; /* activity: remembered for FORGET_MS */
    e->next_ms = at + step_after(t->free_fails, e->fails + e->pending);
    return (int64_t)(at - now_ms);
}

void throttle_abandoned_in(throttle_t *t, const char *name, const char *scope,
                           uint64_t now_ms)
{
    char key[THROTTLE_KEY_MAX + 1];
    make_key(name, scope, key);
    throttle_entry_t *e = find(t, key, now_ms);
    if (e && e->pending > 0)
        e->pending--;
}

void throttle_abandoned(throttle_t *t, const char *name, uint64_t now_ms)
{
    throttle_abandoned_in(t, name, NULL, now_ms);
}

void throttle_failed_in(throttle_t *t, const char *name, const char *scope,
                        uint64_t now_ms)
{
    char key[THROTTLE_KEY_MAX + 1];
    make_key(name, scope, key);
    throttle_entry_t *e = find(t, key, now_ms);
    if (!e) {
        e = take_slot(t, now_ms);
        if (!e)
            return; /* no table (cap 0) */
        memset(e, 0, sizeof *e);
        memcpy(e->key, key, sizeof key);
    }
    if (e->pending > 0)
        e->pending--;
    if (e->fails < UINT32_MAX)
        e->fails++;
    e->last_fail_ms = now_ms;
    uint64_t next = now_ms + step_after(t->free_fails, e->fails);
    if (next > e->next_ms)
        e->next_ms = next;
}

void throttle_succeeded_in(throttle_t *t, const char *name, const char *scope)
{
    char key[THROTTLE_KEY_MAX + 1];
    make_key(name, scope, key);
    for (size_t i = 0; i < t->cap; i++)
        if (t->e[i].key[0] && strcmp(t->e[i].key, key) == 0)
            memset(&t->e[i], 0, sizeof t->e[i]);
}

int64_t throttle_admit(throttle_t *t, const char *name, uint64_t now_ms)
{
    return throttle_admit_in(t, name, NULL, now_ms);
}

void throttle_failed(throttle_t *t, const char *name, uint64_t now_ms)
{
    throttle_failed_in(t, name, NULL, now_ms);
}

void throttle_succeeded(throttle_t *t, const char *name)
{
    throttle_succeeded_in(t, name, NULL);
}
