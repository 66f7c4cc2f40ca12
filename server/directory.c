/* directory.c - who is on this loop (directory.h): open addressing with
 * linear probing, deletion by backward shift (no tombstones). */
#include "directory.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(const directory_t *d, uint64_t id)
{
    return (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 17) & (d->cap - 1);
}

void dir_init(directory_t *d)
{
    memset(d, 0, sizeof *d);
}

void dir_free(directory_t *d)
{
    free(d->slots);
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

int dir_add(directory_t *d, uint64_t id, void *sess)
{
    /* at most half full: probes stay short */
    if ((d->n + 1) * 2 > d->cap && grow(d) != 0)
        return -1;
    dir_entry_t e;
    memset(&e, 0, sizeof e);
    e.id = id;
    e.sess = sess;
    put(d, &e);
    d->n++;
    return 0;
}

dir_entry_t *dir_find(const directory_t *d, uint64_t id)
{
    if (d->cap == 0 || id == 0)
        return NULL;
    for (size_t i = slot_of(d, id); d->slots[i].id != 0;
         i = (i + 1) & (d->cap - 1))
        if (d->slots[i].id == id)
            return &d->slots[i];
    return NULL;
}

void dir_remove(directory_t *d, uint64_t id)
{
    dir_entry_t *e = dir_find(d, id);
    if (!e)
        return;
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
}

void dir_set_account(directory_t *d, uint64_t id, int64_t account_id)
{
    dir_entry_t *e = dir_find(d, id);
    if (e)
        e->account_id = account_id;
}

void dir_set_game(directory_t *d, uint64_t id, const dir_game_t *g)
{
    dir_entry_t *e = dir_find(d, id);
    if (!e)
        return;
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
}

int dir_sessions_of(const directory_t *d, int64_t account_id,
                    uint64_t except, uint64_t *out, int max)
{
    int n = 0;
    for (size_t i = 0; i < d->cap && n < max; i++)
        if (d->slots[i].id != 0 && d->slots[i].id != except &&
            account_id > 0 && d->slots[i].account_id == account_id)
            out[n++] = d->slots[i].id;
    return n;
}

int dir_games(const directory_t *d, uint64_t except, dir_entry_t *out,
              int max)
{
    int n = 0;
    if (max <= 0)
        return 0;
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
    return n;
}
