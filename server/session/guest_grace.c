/* guest_grace.c - guests' games kept after a drop, by token, for a while
 * and at most so many (guest_grace.h). A small array: max is a few
 * hundred at most, and it is walked only on a keep, a take and the
 * once-a-second drain. */
#include "guest_grace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

int grace_init(guest_grace_t *gg, int max, uint64_t grace_ms)
{
    memset(gg, 0, sizeof *gg);
    pthread_mutex_init(&gg->mu, NULL);
    gg->max = max > 0 && grace_ms > 0 ? max : 0;
    gg->grace_ms = grace_ms;
    if (gg->max > 0 && !(gg->kept = calloc((size_t)gg->max, sizeof *gg->kept))) {
        pthread_mutex_destroy(&gg->mu);
        return -1;
    }
    return 0;
}

static void free_game(grace_game_t *g)
{
    game_free(g->game);
    record_free(&g->rec);
    free(g->watchers);
    memset(g, 0, sizeof *g);
}

void grace_free(guest_grace_t *gg)
{
    for (int i = 0; i < gg->n; i++)
        free_game(&gg->kept[i]);
    free(gg->kept);
    gg->kept = NULL;
    free(gg->live);
    gg->live = NULL;
    gg->nlive = gg->caplive = 0;
    gg->n = gg->max = 0;
    pthread_mutex_destroy(&gg->mu);
}

int grace_token(char out[GRACE_TOKEN_LEN + 1])
{
    unsigned char bytes[GRACE_TOKEN_LEN / 2];
    if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes)
        return -1;
    for (size_t i = 0; i < sizeof bytes; i++)
        snprintf(out + 2 * i, 3, "%02x", bytes[i]);
    return 0;
}

int grace_token_valid(const char *t)
{
    size_t n = strlen(t);
    if (n != GRACE_TOKEN_LEN)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'f')))
            return 0;
    return 1;
}

int grace_token_same(const char *a, const char *b)
{
    unsigned diff = 0;
    for (int i = 0; i < GRACE_TOKEN_LEN; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

int grace_keep(guest_grace_t *gg, const char *token, const char *name,
               grace_game_t *g, uint64_t now)
{
    if (!grace_token_valid(token) || !g->game)
        return -1;
    pthread_mutex_lock(&gg->mu);
    int ok = gg->n < gg->max;
    if (ok) {
        grace_game_t *k = &gg->kept[gg->n++];
        *k = *g;
        snprintf(k->token, sizeof k->token, "%s", token);
        snprintf(k->name, sizeof k->name, "%s", name);
        k->expires = now + gg->grace_ms;
        memset(g, 0, sizeof *g);
    }
    pthread_mutex_unlock(&gg->mu);
    return ok ? 0 : -1;
}

int grace_take(guest_grace_t *gg, const char *token, uint64_t now,
               grace_game_t *out)
{
    if (!grace_token_valid(token))
        return 0;
    int found = 0;
    pthread_mutex_lock(&gg->mu);
    for (int i = 0; i < gg->n; i++)
        if (grace_token_same(gg->kept[i].token, token) && now < gg->kept[i].expires) {
            *out = gg->kept[i];
            gg->kept[i] = gg->kept[--gg->n];
            memset(&gg->kept[gg->n], 0, sizeof gg->kept[gg->n]);
            found = 1;
            break;
        }
    pthread_mutex_unlock(&gg->mu);
    return found;
}

int grace_drain(guest_grace_t *gg, uint64_t now, int all,
                void (*end)(void *ctx, grace_game_t *g), void *ctx)
{
    int ended = 0;
    for (;;) {
        grace_game_t g;
        int found = 0;
        pthread_mutex_lock(&gg->mu);
        for (int i = 0; i < gg->n; i++)
            if (all || now >= gg->kept[i].expires) {
                g = gg->kept[i];
                gg->kept[i] = gg->kept[--gg->n];
                memset(&gg->kept[gg->n], 0, sizeof gg->kept[gg->n]);
                found = 1;
                break;
            }
        pthread_mutex_unlock(&gg->mu);
        if (!found)
            return ended;
        end(ctx, &g); /* outside the lock: it may hand g to the store */
        ended++;
    }
}

int grace_count(guest_grace_t *gg)
{
    pthread_mutex_lock(&gg->mu);
    int n = gg->n;
    pthread_mutex_unlock(&gg->mu);
    return n;
}

int grace_list(guest_grace_t *gg, uint64_t now,
               void (*each)(void *ctx, const char *name, unsigned turn,
                            uint64_t left_ms),
               void *ctx)
{
    int n = 0;
    pthread_mutex_lock(&gg->mu);
    for (int i = 0; i < gg->n; i++) {
        const grace_game_t *k = &gg->kept[i];
        if (now >= k->expires)
            continue; /* ended by the next sweep: nothing to come back to */
        each(ctx, k->name, (unsigned)k->game->turn, k->expires - now);
        n++;
    }
    pthread_mutex_unlock(&gg->mu);
    return n;
}

/* The live entry of token, or -1. Under the lock. */
static int live_index(const guest_grace_t *gg, const char *token)
{
    for (int i = 0; i < gg->nlive; i++)
        if (grace_token_same(gg->live[i].token, token))
            return i;
    return -1;
}

int grace_live_set(guest_grace_t *gg, const char *token, const char *name,
                   uint64_t id)
{
    if (!grace_token_valid(token))
        return -1;
    int rc = 0;
    pthread_mutex_lock(&gg->mu);
    int i = live_index(gg, token);
    if (i < 0 && gg->nlive == gg->caplive) {
        int cap = gg->caplive ? gg->caplive * 2 : 16;
        grace_live_t *l = realloc(gg->live, (size_t)cap * sizeof *l);
        if (l) {
            gg->live = l;
            gg->caplive = cap;
        }
    }
    if (i < 0 && gg->nlive < gg->caplive)
        i = gg->nlive++;
    if (i >= 0) {
        snprintf(gg->live[i].token, sizeof gg->live[i].token, "%s", token);
        snprintf(gg->live[i].name, sizeof gg->live[i].name, "%s", name);
        gg->live[i].id = id;
    } else {
        rc = -1;
    }
    pthread_mutex_unlock(&gg->mu);
    return rc;
}

void grace_live_clear(guest_grace_t *gg, const char *token, uint64_t id)
{
    if (!grace_token_valid(token))
        return;
    pthread_mutex_lock(&gg->mu);
    int i = live_index(gg, token);
    if (i >= 0 && gg->live[i].id == id)
        gg->live[i] = gg->live[--gg->nlive];
    pthread_mutex_unlock(&gg->mu);
}

int grace_live_find(guest_grace_t *gg, const char *token, uint64_t *id,
                    char name[ACCT_NAME_MAX + 1])
{
    if (!grace_token_valid(token))
        return 0;
    pthread_mutex_lock(&gg->mu);
    int i = live_index(gg, token);
    if (i >= 0) {
        *id = gg->live[i].id;
        snprintf(name, ACCT_NAME_MAX + 1, "%s", gg->live[i].name);
    }
    pthread_mutex_unlock(&gg->mu);
    return i >= 0;
}

void grace_moved(guest_grace_t *gg, uint64_t from, uint64_t to)
{
    pthread_mutex_lock(&gg->mu);
    grace_move_t *m = &gg->moved[gg->nmoved++ % GRACE_MOVED];
    m->from = from;
    m->to = to;
    pthread_mutex_unlock(&gg->mu);
}

uint64_t grace_moved_to(guest_grace_t *gg, uint64_t id)
{
    pthread_mutex_lock(&gg->mu);
    /* newest first; each hop to a later session (ids only grow), so the
     * walk ends */
    for (int hops = 0, found = 1; found && hops < GRACE_MOVED; hops++) {
        found = 0;
        for (unsigned i = 0; i < GRACE_MOVED && i < gg->nmoved; i++) {
            const grace_move_t *m = &gg->moved[i];
            if (m->from == id && m->to > id) {
                id = m->to;
                found = 1;
                break;
            }
        }
    }
    pthread_mutex_unlock(&gg->mu);
    return id;
}

int grace_kept_of(guest_grace_t *gg, uint64_t id, char *name)
{
    int found = 0;
    pthread_mutex_lock(&gg->mu);
    for (int i = 0; i < gg->n && !found; i++)
        if (gg->kept[i].session == id) {
            snprintf(name, ACCT_NAME_MAX + 1, "%s", gg->kept[i].name);
            found = 1;
        }
    pthread_mutex_unlock(&gg->mu);
    return found;
}
