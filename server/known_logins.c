/* known_logins.c - addresses an account has logged in from
 * (known_logins.h). */
#include "known_logins.h"

#include <stdio.h>
#include <string.h>

#include "accounts.h"

#define WINDOW 16

static void make_key(const char *name, const char *addr, char *out,
                     size_t len)
{
    char lower[ACCT_NAME_MAX + 1];
    acct_name_key(name, lower, sizeof lower);
    snprintf(out, len, "%s@%s", lower, addr);
}

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

void kl_add(known_logins_t *k, const char *name, const char *addr,
            uint64_t now_ms)
{
    char key[THROTTLE_KEY_MAX + 1];
    if (!addr || !addr[0])
        return;
    make_key(name, addr, key, sizeof key);
    uint32_t h = hash(key);
    kl_entry_t *oldest = NULL;
    for (int i = 0; i < WINDOW; i++) {
        kl_entry_t *e = &k->e[(h + (uint32_t)i) % KL_CAP];
        if (strcmp(e->key, key) == 0) {
            e->last_ms = now_ms;
            return;
        }
        if (!oldest || !e->key[0] ||
            (oldest->key[0] && e->last_ms < oldest->last_ms))
            oldest = e;
    }
    snprintf(oldest->key, sizeof oldest->key, "%s", key);
    oldest->last_ms = now_ms;
}

int kl_has(const known_logins_t *k, const char *name, const char *addr,
           uint64_t now_ms)
{
    char key[THROTTLE_KEY_MAX + 1];
    if (!addr || !addr[0])
        return 0;
    make_key(name, addr, key, sizeof key);
    uint32_t h = hash(key);
    for (int i = 0; i < WINDOW; i++) {
        const kl_entry_t *e = &k->e[(h + (uint32_t)i) % KL_CAP];
        if (strcmp(e->key, key) == 0)
            return now_ms - e->last_ms < KL_FORGET_MS;
    }
    return 0;
}
