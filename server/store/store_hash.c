/* store_hash.c - the store's password checks: hashing and verifying in
 * libuv's pool, in one line for the whole server, in turn by address
 * (below). The requests come from the calls' files (store_hash_enqueue)
 * and from the database thread's answers (store.c's on_async); each ends
 * in store_finish or goes on to the database (a new account's insert). */
#include <stddef.h>
#include <stdio.h>

#include "log.h"
#include "store_impl.h"

/* --- the line ------------------------------------------------------------------
 *
 * One line for the whole server (st->hashq, under lmu), in turn by address
 * (hash_fair.h), and the hash_parallel slots shared by every loop. It was a
 * line per loop: each was fair among its own loop's logins only, and a slot
 * freed on a loop went to that loop's line first (its pump ran before the
 * others were woken), so a flood of logins from a few addresses on one loop
 * kept both slots while an honest login on another loop waited past
 * store_wait_ms. Now a slot freed anywhere goes to the address whose turn
 * it is, whatever loop its login came on, so a login waits for at most one
 * check of each other address on the server. A request's pool work must be
 * queued on its own loop (its after-callback and its answer run there), so
 * a slot given to another loop's request puts it on that port's granted
 * list and wakes that loop, which starts it (on_async). Keeping each line
 * per loop and taking turns between loops would not do: an address with
 * connections on every loop would then have a turn on each. */

static void hash_grant(store_t *st, store_port_t *self);

static void hash_work(uv_work_t *w)
{
    req_t *r = w->data;
    const store_opts_t *o = &r->st->opt;
    if (r->call->flags & STORE_CALL_NEW_HASH) {
        r->status = crypto_pwhash_str(r->hash, r->pass, r->pass_len,
                                      o->pw_ops, o->pw_mem) == 0
                    ? STORE_OK : STORE_ERROR;
    } else {
        /* always verify, found or not, so that both take as long */
        int ok = crypto_pwhash_str_verify(r->hash, r->pass, r->pass_len) == 0;
        r->status = ok && r->found && r->pass_ok ? STORE_OK : STORE_BAD_LOGIN;
        sodium_memzero(r->hash, sizeof r->hash);
    }
    sodium_memzero(r->pass, sizeof r->pass);
}

/* Gives n slots back (their hashes ended, or never started). */
static void hash_slots_give(store_t *st, int n)
{
    uv_mutex_lock(&st->lmu);
    st->hashing -= n;
    uv_mutex_unlock(&st->lmu);
}

static void hash_after(uv_work_t *w, int status)
{
    req_t *r = w->data;
    store_t *st = r->st;
    store_port_t *p = r->port;
    hash_slots_give(st, 1);
    if (status != 0)
        r->status = STORE_ERROR;
    if ((r->call->flags & STORE_CALL_NEW_HASH) &&
        r->status == STORE_OK && !r->cancelled &&
        !p->closing) {
        store_db_submit(st, r); /* the insert */
    } else {
        if (r->call->verified && status == 0)
            r->call->verified(r);
        store_finish(st, r);
    }
    hash_grant(st, p); /* the slot, to whoever's turn it is */
}

static req_t *req_of(hf_item_t *it)
{
    return (req_t *)(void *)((char *)it - offsetof(req_t, fair));
}

/* On r's loop, with a slot taken for it: into the pool. Returns 0, or -1
 * (answered as failed, its slot given back: the caller grants again). */
static int hash_start(store_t *st, req_t *r)
{
    if (!r->cancelled && !r->port->closing) {
        r->at = STORE_WAIT_HASHING;
        r->work.data = r;
        if (uv_queue_work(r->port->loop, &r->work, hash_work, hash_after) == 0)
            return 0;
        r->status = STORE_ERROR;
    }
    hash_slots_give(st, 1);
    store_finish(st, r);
    return -1;
}

/* Gives the free slots to the next in the turn while any waits: self's
 * requests are started here, another loop's go to its port's granted list
 * and that loop is woken to start them. Under lmu, so that a port cannot
 * close between: one that closes has taken its requests out first
 * (hash_drop). */
static void hash_grant(store_t *st, store_port_t *self)
{
    int again = 1;
    while (again) {
        req_t *mine = NULL, *mine_tail = NULL;
        uv_mutex_lock(&st->lmu);
        while (st->hashing < st->opt.hash_parallel && st->hashq.n) {
            req_t *r = req_of(hf_pop(&st->hashq));
            st->hashing++;
            if (r->port == self) {
                store_queue_push(&mine, &mine_tail, r);
            } else {
                store_queue_push(&r->port->granted, &r->port->granted_tail, r);
                uv_async_send(&r->port->async);
            }
        }
        uv_mutex_unlock(&st->lmu);
        again = 0;
        while (mine) {
            req_t *r = mine;
            mine = r->next;
            r->next = NULL;
            again |= hash_start(st, r) != 0;
        }
    }
}

/* On p's loop: starts what other loops gave slots to. */
void store_hash_start_granted(store_port_t *p)
{
    store_t *st = p->st;
    uv_mutex_lock(&st->lmu);
    req_t *r = p->granted;
    p->granted = p->granted_tail = NULL;
    uv_mutex_unlock(&st->lmu);
    int failed = 0;
    while (r) {
        req_t *next = r->next;
        r->next = NULL;
        failed |= hash_start(st, r) != 0;
        r = next;
    }
    if (failed)
        hash_grant(st, p);
}

/* Which of a port's hashes hash_drop takes: all, or those of one ctx. */
typedef struct hash_drop_of {
    const store_port_t *port;
    const void *ctx;
    int all;
} hash_drop_of_t;

static int hash_dropped(const req_t *r, const hash_drop_of_t *d)
{
    return r->port == d->port && (d->all || r->ctx == d->ctx);
}

static int hash_dropped_item(hf_item_t *it, void *d)
{
    return hash_dropped(req_of(it), d);
}

/* Under lmu: takes the requests of p's granted list that d drops (their
 * slots given back), linked by next. */
static req_t *granted_take(store_t *st, store_port_t *p,
                           const hash_drop_of_t *d)
{
    req_t *out = NULL, *out_tail = NULL, *kept = NULL, *kept_tail = NULL;
    req_t *r = p->granted;
    while (r) {
        req_t *next = r->next;
        if (hash_dropped(r, d)) {
            store_queue_push(&out, &out_tail, r);
            st->hashing--;
        } else {
            store_queue_push(&kept, &kept_tail, r);
        }
        r = next;
    }
    p->granted = kept;
    p->granted_tail = kept_tail;
    return out;
}

/* On p's loop: finishes p's hashes not started (those of ctx, or all),
 * without their callbacks, and gives their slots to others. */
void store_hash_drop(store_t *st, store_port_t *p, const void *ctx, int all)
{
    hash_drop_of_t d = { p, ctx, all };
    uv_mutex_lock(&st->lmu);
    hf_item_t *it = hf_remove_if(&st->hashq, hash_dropped_item, &d);
    req_t *dropped = granted_take(st, p, &d);
    uv_mutex_unlock(&st->lmu);
    for (hf_item_t *next; it; it = next) { /* the line's, with them */
        next = it->next;
        req_of(it)->next = dropped;
        dropped = req_of(it);
    }
    while (dropped) {
        req_t *r = dropped;
        dropped = r->next;
        r->next = NULL;
        r->cancelled = 1;
        store_finish(st, r);
    }
    hash_grant(st, p);
}

/* A request of a name that has hashes_per_name checks waiting or running
 * already, from an address it has not logged in from: 1 (counted
 * otherwise). Strangers cannot fill the line with one name. */
static int name_full(store_t *st, req_t *r)
{
    if (!(r->call->flags & STORE_CALL_PER_NAME) || r->known)
        return 0;
    uv_mutex_lock(&st->lmu);
    int full = hf_names_take(&st->hash_names, r->name,
                             st->opt.hashes_per_name) != 0;
    uv_mutex_unlock(&st->lmu);
    r->name_counted = (uint8_t)!full;
    return full;
}

/* Answers r with status without its hash (a call that counted it from
 * its start is told so by store_finish: store_call_t.abandoned). */
static void unhashed(store_t *st, req_t *r, int status)
{
    r->status = status;
    store_finish(st, r);
}

void store_hash_enqueue(store_t *st, req_t *r)
{
    if (r->cancelled) {
        store_finish(st, r); /* not worth a hash any more */
        return;
    }
    if (name_full(st, r)) {
        char safe[ACCT_NAME_MAX + 1];
        log_info("%s %s from %s: %d checks of the name are waiting "
                 "already: refused", r->call->name,
                 log_safe(r->name, safe, sizeof safe),
                 r->scope[0] ? r->scope : "-", st->opt.hashes_per_name);
        unhashed(st, r, STORE_SLOW_DOWN);
        return;
    }
    r->phase = PH_HASH;
    r->at = STORE_WAIT_HASH_LINE;
    r->fair.addr = r->scope_key; /* an IPv6 /64 takes one turn */
    uv_mutex_lock(&st->lmu);
    int rc = hf_push(&st->hashq, &r->fair);
    uv_mutex_unlock(&st->lmu);
    if (rc != 0) {
        unhashed(st, r, STORE_ERROR); /* out of memory */
        return;
    }
    hash_grant(st, r->port);
}
