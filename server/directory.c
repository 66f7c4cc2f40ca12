/* directory.c - who is on this server (directory.h): open addressing with
 * linear probing, deletion by backward shift (no tombstones); one mutex
 * around each call. */
#include "directory.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What dir_set_progress reads and writes stays in an entry's first 32
 * bytes (directory.h). */
_Static_assert(offsetof(dir_entry_t, game.turns) + sizeof(int) <= 32 &&
                   offsetof(dir_entry_t, playing) < 32 &&
                   offsetof(dir_entry_t, game.last_input_ms) + 8 <= 32,
               "dir_set_progress's fields in an entry's first 32 bytes");

static size_t slot_of(const directory_t *d, uint64_t id)
{
    return (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 17) & (d->cap - 1);
}

void dir_init(directory_t *d)
{
    memset(d, 0, sizeof *d);
    pthread_mutex_init(&d->mu, NULL);
}

void dir_free(directory_t *d)
{
    free(d->slots);
    pthread_mutex_destroy(&d->mu);
    memset(d, 0, sizeof *d);
}

static void put(directory_t *d, const dir_entry_t *e)
{
    size_t i = slot_of(d, e->id);
    while (d->slots[i].id != 0)
        i = (i + 1) & (d->cap - 1);
    d->slots[i] = *e;
}

static int grow(directory_t *d)
{
    size_t cap = d->cap ? d->cap * 2 : 64;
    dir_entry_t *old = d->slots;
    size_t oldcap = d->cap;
    d->slots = calloc(cap, sizeof *d->slots);
    if (!d->slots) {
        d->slots = old;
        return -1;
    }
    d->cap = cap;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].id != 0)
            put(d, &old[i]);
    free(old);
    return 0;
}

int dir_add(directory_t *d, uint64_t id, void *sess, int loop)
{
    pthread_mutex_lock(&d->mu);
    /* at most half full: probes stay short */
    if ((d->n + 1) * 2 > d->cap && grow(d) != 0) {
        pthread_mutex_unlock(&d->mu);
        return -1;
    }
    dir_entry_t e;
    memset(&e, 0, sizeof e);
    e.id = id;
    e.sess = sess;
    e.loop = loop;
    put(d, &e);
    d->n++;
    pthread_mutex_unlock(&d->mu);
    return 0;
}

/* The entry (the mutex held), or NULL. */
static dir_entry_t *find(const directory_t *d, uint64_t id)
{
    if (d->cap == 0 || id == 0)
        return NULL;
    for (size_t i = slot_of(d, id); d->slots[i].id != 0;
         i = (i + 1) & (d->cap - 1))
        if (d->slots[i].id == id)
            return &d->slots[i];
    return NULL;
}

int dir_lookup(directory_t *d, uint64_t id, dir_entry_t *out)
{
    pthread_mutex_lock(&d->mu);
    const dir_entry_t *e = find(d, id);
    if (e)
        *out = *e;
    pthread_mutex_unlock(&d->mu);
    return e != NULL;
}

size_t dir_count(directory_t *d)
{
    pthread_mutex_lock(&d->mu);
    size_t n = d->n;
    pthread_mutex_unlock(&d->mu);
    return n;
}

size_t dir_ngames(directory_t *d)
{
    pthread_mutex_lock(&d->mu);
    size_t n = d->ngames;
    pthread_mutex_unlock(&d->mu);
    return n;
}

void dir_remove(directory_t *d, uint64_t id)
{
    pthread_mutex_lock(&d->mu);
    dir_entry_t *e = find(d, id);
    if (!e) {
        pthread_mutex_unlock(&d->mu);
        return;
    }
    if (e->playing)
        d->ngames--;
    size_t i = (size_t)(e - d->slots), mask = d->cap - 1;
    d->slots[i].id = 0;
    d->n--;
    /* Shift back every later entry of the run that may sit in the hole. */
    for (size_t j = (i + 1) & mask; d->slots[j].id != 0; j = (j + 1) & mask) {
        size_t home = slot_of(d, d->slots[j].id);
        /* j's entry may move to i when home is not cyclically in (i, j] */
        int between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!between) {
            d->slots[i] = d->slots[j];
            d->slots[j].id = 0;
            i = j;
        }
    }
    pthread_mutex_unlock(&d->mu);
}

void dir_set_account(directory_t *d, uint64_t id, int64_t account_id)
{
    pthread_mutex_lock(&d->mu);
    dir_entry_t *e = find(d, id);
    if (e)
        e->account_id = account_id;
    pthread_mutex_unlock(&d->mu);
}

void dir_set_claim(directory_t *d, uint64_t id, int64_t claim)
{
    pthread_mutex_lock(&d->mu);
    dir_entry_t *e = find(d, id);
    if (e)
        e->claim = claim;
    pthread_mutex_unlock(&d->mu);
}

void dir_set_game(directory_t *d, uint64_t id, const dir_game_t *g)
{
    pthread_mutex_lock(&d->mu);
    dir_entry_t *e = find(d, id);
    if (!e) {
        pthread_mutex_unlock(&d->mu);
        return;
    }
    if (g) {
        if (!e->playing)
            d->ngames++;
        e->playing = 1;
        e->game = *g;
    } else if (e->playing) {
        d->ngames--;
        e->playing = 0;
        memset(&e->game, 0, sizeof e->game);
    }
    pthread_mutex_unlock(&d->mu);
}

void dir_set_progress(directory_t *d, uint64_t id, int depth, int turns,
                      uint64_t last_input_ms)
{
    pthread_mutex_lock(&d->mu);
    dir_entry_t *e = find(d, id);
    if (e && e->playing) {
        e->game.depth = depth;
        e->game.turns = turns;
        e->game.last_input_ms = last_input_ms;
    }
    pthread_mutex_unlock(&d->mu);
}

int dir_sessions_of(directory_t *d, int64_t account_id,
                    uint64_t except, uint64_t *out, int max)
{
    int n = 0;
    pthread_mutex_lock(&d->mu);
    for (size_t i = 0; i < d->cap && n < max; i++)
        if (d->slots[i].id != 0 && d->slots[i].id != except &&
            account_id > 0 && d->slots[i].account_id == account_id)
            out[n++] = d->slots[i].id;
    pthread_mutex_unlock(&d->mu);
    return n;
}

int dir_name_playing(directory_t *d, const char *name, uint64_t except)
{
    int found = 0;
    pthread_mutex_lock(&d->mu);
    for (size_t i = 0; i < d->cap && !found; i++) {
        const dir_entry_t *e = &d->slots[i];
        found = e->id != 0 && e->playing && e->id != except &&
                strcasecmp(e->game.name, name) == 0;
    }
    pthread_mutex_unlock(&d->mu);
    return found;
}

int dir_games(directory_t *d, uint64_t except, dir_entry_t *out,
              int max)
{
    int n = 0;
    if (max <= 0)
        return 0;
    pthread_mutex_lock(&d->mu);
    for (size_t i = 0; i < d->cap; i++) {
        const dir_entry_t *e = &d->slots[i];
        if (e->id == 0 || !e->playing || e->id == except)
            continue;
        /* keep the max lowest ids, sorted: insertion into a short list */
        if (n == max && e->id > out[n - 1].id)
            continue;
        int j = n < max ? n++ : n - 1;
        while (j > 0 && out[j - 1].id > e->id) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = *e;
    }
    pthread_mutex_unlock(&d->mu);
    return n;
}

int dir_accounts(directory_t *d, uint64_t *ids, int64_t *accounts, int max)
{
    int n = 0;
    pthread_mutex_lock(&d->mu);
    for (size_t i = 0; i < d->cap && n < max; i++)
        if (d->slots[i].id != 0 && d->slots[i].account_id > 0) {
            ids[n] = d->slots[i].id;
            accounts[n++] = d->slots[i].account_id;
        }
    pthread_mutex_unlock(&d->mu);
    return n;
}
