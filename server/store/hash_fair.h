/* hash_fair.h - password hashes waiting for a slot, shared fairly.
 *
 * Each check costs tens of ms and 64 MiB, so only a few run at once
 * (hash_parallel); the rest wait. In one line, the addresses that send the
 * most would fill it and everyone else would wait behind them. So the
 * waiting line has a sub-queue per address, served in turn (round-robin):
 * an address with one login waits for at most one check of each other
 * address, however many those sent. And one account name may have at most
 * a few checks waiting or running at once, counted over the whole server
 * (hf_names_*): strangers guessing at one name from many addresses cannot
 * fill the line with it. A login from an address the account has logged in
 * from before is never counted against that cap (the store decides), so
 * the owner is not refused for what strangers do. docs/hosting.md, "The
 * network". No locks of its own: the store keeps one queue for every loop
 * and the names' table, both under its lock (store_hash.c says why one queue).
 * The store keys an item by the address as its per-address counts do
 * (addr_key: an IPv6 address's /64), so that changing addresses within a
 * /64 earns no more turns. */
#ifndef ROGUE_HASH_FAIR_H
#define ROGUE_HASH_FAIR_H

#include <stddef.h>

typedef struct hf_item hf_item_t;
struct hf_item {
    hf_item_t *next;           /* the queue's */
    const char *addr;          /* its address ("" is one address too);
                                  owned by whoever embeds the item */
};

typedef struct hf_group hf_group_t;

typedef struct hash_fair {
    hf_group_t *head, *tail;   /* addresses with items, next served first */
    size_t n;                  /* items waiting */
} hash_fair_t;

/* Queues it behind the other items of its address. Returns 0, or -1 (out
 * of memory for a new address: not queued). */
int hf_push(hash_fair_t *q, hf_item_t *it);

/* The first item of the address whose turn it is (that address goes to
 * the back of the turn), or NULL when none waits. */
hf_item_t *hf_pop(hash_fair_t *q);

/* The item hf_pop would return, left in place, or NULL. */
hf_item_t *hf_peek(const hash_fair_t *q);

/* Removes the items for which drop(it, ctx) says 1, keeping the order of
 * the rest, and returns them linked by next (in their addresses' turn). */
hf_item_t *hf_remove_if(hash_fair_t *q, int (*drop)(hf_item_t *it, void *ctx),
                        void *ctx);

/* Checks of each account name waiting or running. */
typedef struct hf_name hf_name_t;
typedef struct hf_names {
    hf_name_t **buckets;       /* HF_NAME_BUCKETS, made at the first take */
    size_t n;                  /* names with a count */
} hf_names_t;

/* Counts one more check of name if it has fewer than max (0: no bound).
 * Returns 0 (counted: hf_names_put when it is answered), or -1 (refused,
 * or out of memory). */
int hf_names_take(hf_names_t *t, const char *name, int max);
void hf_names_put(hf_names_t *t, const char *name);

/* Checks of name counted now. */
int hf_names_count(const hf_names_t *t, const char *name);

void hf_names_free(hf_names_t *t);

#endif
