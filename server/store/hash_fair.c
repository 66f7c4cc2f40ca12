/* hash_fair.c - the hashes' waiting line, in turn by address, and the
 * count of checks per account name (hash_fair.h). */
#include "hash_fair.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HF_NAME_BUCKETS 256

struct hf_group {              /* one address's items */
    hf_group_t *next;          /* the turn */
    hf_item_t *head, *tail;
    char addr[48];
};

static hf_group_t *group_of(hash_fair_t *q, const char *addr)
{
    for (hf_group_t *g = q->head; g; g = g->next)
        if (strcmp(g->addr, addr) == 0)
            return g;
    return NULL;
}

int hf_push(hash_fair_t *q, hf_item_t *it)
{
    hf_group_t *g = group_of(q, it->addr);
    if (!g) {
        g = calloc(1, sizeof *g);
        if (!g)
            return -1;
        strncpy(g->addr, it->addr, sizeof g->addr - 1);
        /* a new address takes its turn after those already waiting */
        if (q->tail)
            q->tail->next = g;
        else
            q->head = g;
        q->tail = g;
    }
    it->next = NULL;
    if (g->tail)
        g->tail->next = it;
    else
        g->head = it;
    g->tail = it;
    q->n++;
    return 0;
}

/* Takes g (the head of the turn) out of the turn. */
static void turn_unlink_head(hash_fair_t *q)
{
    hf_group_t *g = q->head;
    q->head = g->next;
    if (!q->head)
        q->tail = NULL;
    g->next = NULL;
}

hf_item_t *hf_pop(hash_fair_t *q)
{
    hf_group_t *g = q->head;
    if (!g)
        return NULL;
    hf_item_t *it = g->head;
    g->head = it->next;
    if (!g->head)
        g->tail = NULL;
    it->next = NULL;
    q->n--;
    turn_unlink_head(q);
    if (!g->head) {
        free(g);
    } else { /* to the back of the turn */
        if (q->tail)
            q->tail->next = g;
        else
            q->head = g;
        q->tail = g;
    }
    return it;
}

hf_item_t *hf_peek(const hash_fair_t *q)
{
    return q->head ? q->head->head : NULL;
}

hf_item_t *hf_remove_if(hash_fair_t *q, int (*drop)(hf_item_t *it, void *ctx),
                        void *ctx)
{
    hf_item_t *out = NULL, **out_tail = &out;
    hf_group_t **gp = &q->head, *glast = NULL;
    while (*gp) {
        hf_group_t *g = *gp;
        hf_item_t **ip = &g->head, *ilast = NULL;
        while (*ip) {
            hf_item_t *it = *ip;
            if (drop(it, ctx)) {
                *ip = it->next;
                it->next = NULL;
                *out_tail = it;
                out_tail = &it->next;
                q->n--;
            } else {
                ilast = it;
                ip = &it->next;
            }
        }
        g->tail = ilast;
        if (!g->head) {
            *gp = g->next;
            free(g);
        } else {
            glast = g;
            gp = &g->next;
        }
    }
    q->tail = glast;
    return out;
}

/* --- checks per name --------------------------------------------------------- */

struct hf_name {
    hf_name_t *next;
    int n;
    char name[];
};

static size_t bucket(const char *name)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h % HF_NAME_BUCKETS;
}

static hf_name_t **find(const hf_names_t *t, const char *name)
{
    hf_name_t **p = &t->buckets[bucket(name)];
    while (*p && strcmp((*p)->name, name) != 0)
        p = &(*p)->next;
    return p;
}

int hf_names_take(hf_names_t *t, const char *name, int max)
{
    if (!t->buckets) {
        t->buckets = calloc(HF_NAME_BUCKETS, sizeof *t->buckets);
        if (!t->buckets)
            return -1;
    }
    hf_name_t **p = find(t, name);
    if (!*p) {
        size_t len = strlen(name);
        hf_name_t *e = calloc(1, sizeof *e + len + 1);
        if (!e)
            return -1;
        memcpy(e->name, name, len + 1);
        *p = e;
        t->n++;
    }
    if (max > 0 && (*p)->n >= max)
        return -1;
    (*p)->n++;
    return 0;
}

void hf_names_put(hf_names_t *t, const char *name)
{
    if (!t->buckets)
        return;
    hf_name_t **p = find(t, name);
    if (!*p)
        return;
    if (--(*p)->n <= 0) {
        hf_name_t *e = *p;
        *p = e->next;
        free(e);
        t->n--;
    }
}

int hf_names_count(const hf_names_t *t, const char *name)
{
    if (!t->buckets)
        return 0;
    hf_name_t *const *p = find(t, name);
    return *p ? (*p)->n : 0;
}

void hf_names_free(hf_names_t *t)
{
    if (t->buckets)
        for (size_t i = 0; i < HF_NAME_BUCKETS; i++)
            while (t->buckets[i]) {
                hf_name_t *e = t->buckets[i];
                t->buckets[i] = e->next;
                free(e);
            }
    free(t->buckets);
    t->buckets = NULL;
    t->n = 0;
}
