/* store.c - the store's loop-thread hub: open and close, each loop's
 * port, the pending list, the wait of slowed-down logins and the end of
 * every request (r->call->answer); password hashing in libuv's pool is
 * store_hash.c's. It names no call: each call's file (store_accounts.c,
 * store_games.c, ...) makes its requests with its descriptor
 * (store_impl.h, store_call_t). */
#include "store.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store_impl.h"

/* --- the loop threads -------------------------------------------------------- */

/* Which port the calling thread uses: the one store_attach bound to it,
 * else the first (store_open's loop). One binding per thread: a thread
 * runs one loop. */
static _Thread_local struct {
    const store_t *st;
    store_port_t *port;
} here;

static store_port_t *port_here(store_t *st)
{
    return here.st == st ? here.port : &st->ports[0];
}

static void pending_add(store_port_t *p, req_t *r)
{
    r->pprev = NULL;
    r->pnext = p->pending;
    if (p->pending)
        p->pending->pprev = r;
    p->pending = r;
    if (p->npending++ == 0)
        uv_ref((uv_handle_t *)&p->async); /* a callback is owed */
}

static void pending_remove(store_port_t *p, req_t *r)
{
    if (r->pprev)
        r->pprev->pnext = r->pnext;
    else
        p->pending = r->pnext;
    if (r->pnext)
        r->pnext->pprev = r->pprev;
    if (--p->npending == 0)
        uv_unref((uv_handle_t *)&p->async);
}

/* The end of every request that answers: the callback (unless cancelled or
 * closing), then freed. On r's port's loop thread. Every way a request
 * ends comes here, so one still counted from its start without a verdict
 * (admitted: cancelled in the line, while slowed down, back from its
 * lookup, or failed) stops counting here, whichever way it ended. */
void store_finish(store_t *st, req_t *r)
{
    store_port_t *p = r->port;
    pending_remove(p, r);
    if (r->admitted) {
        r->admitted = 0;
        if (r->call->abandoned)
            r->call->abandoned(r);
    }
    if (r->name_counted) {
        r->name_counted = 0;
        uv_mutex_lock(&st->lmu);
        hf_names_put(&st->hash_names, r->name);
        uv_mutex_unlock(&st->lmu);
    }
    if (!r->cancelled && !p->closing)
        r->call->answer(r);
    store_req_free(r);
}

void store_done_push(store_t *st, req_t *r)
{
    store_port_t *p = r->port;
    (void)st;
    store_queue_push(&p->done_head, &p->done_tail, r);
    /* Under st->mu: the port cannot close in between (it closes only when
     * nothing is owed to it, and r still is). */
    uv_async_send(&p->async);
}

void store_db_submit(store_t *st, req_t *r)
{
    r->phase = PH_DB;
    r->at = STORE_WAIT_DB;
    uv_mutex_lock(&st->mu);
    if (store_db_post(st, r) != 0) {
        /* the store is closing: answered as a failure, through the loop */
        r->status = STORE_ERROR;
        r->phase = PH_DONE;
        store_done_push(st, r);
    }
    uv_mutex_unlock(&st->mu);
}

/* An answer known at once still comes through the loop, never from inside
 * the call that asked. */
void store_answer_soon(store_t *st, req_t *r, int status)
{
    r->status = status;
    r->phase = PH_DONE;
    uv_mutex_lock(&st->mu);
    store_done_push(st, r);
    uv_mutex_unlock(&st->mu);
}

static void on_async(uv_async_t *h)
{
    store_port_t *p = h->data;
    store_t *st = p->st;
    uv_mutex_lock(&st->mu);
    req_t *r = p->done_head;
    p->done_head = p->done_tail = NULL;
    uv_mutex_unlock(&st->mu);
    while (r) {
        req_t *next = r->next;
        r->next = NULL;
        if (r->phase == PH_HASH && !p->closing)
            store_hash_enqueue(st, r);
        else
            store_finish(st, r);
        r = next;
    }
    store_hash_start_granted(p); /* slots another loop gave this one's hashes */
}

static void on_timer(uv_timer_t *t);

static void arm_timer(store_port_t *p)
{
    if (!p->wait_head) {
        uv_timer_stop(&p->timer);
        return;
    }
    uint64_t now = uv_now(p->loop), at = p->wait_head->not_before;
    uv_timer_start(&p->timer, on_timer, at > now ? at - now : 0, 0);
}

/* Throttled logins whose time has come go on to the database. */
static void on_timer(uv_timer_t *t)
{
    store_port_t *p = t->data;
    uint64_t now = uv_now(p->loop);
    while (p->wait_head && p->wait_head->not_before <= now) {
        req_t *r = p->wait_head;
        p->wait_head = r->next;
        r->next = NULL;
        store_db_submit(p->st, r);
    }
    arm_timer(p);
}

void store_wait_insert(req_t *r)
{
    store_port_t *port = r->port;
    req_t **p = &port->wait_head;
    while (*p && (*p)->not_before <= r->not_before)
        p = &(*p)->next;
    r->next = *p;
    *p = r;
    r->at = STORE_WAIT_SLOWED;
    arm_timer(port);
}

/* Sets a port up on loop (on the loop's thread, before it runs). The
 * slot is cleared under lmu: store_attach on another loop's thread reads
 * every slot's open and loop under it to find a free one, and a memset
 * outside it was a race (ThreadSanitizer saw it) that could even show
 * this slot free for a moment. */
static void port_open(store_t *st, store_port_t *p, uv_loop_t *loop)
{
    uv_mutex_lock(&st->lmu);
    memset(p, 0, sizeof *p);
    p->st = st;
    p->loop = loop;
    uv_mutex_unlock(&st->lmu);
    uv_async_init(loop, &p->async, on_async);
    p->async.data = p;
    uv_unref((uv_handle_t *)&p->async); /* ref'd while a callback is owed */
    uv_timer_init(loop, &p->timer);
    p->timer.data = p;
    uv_mutex_lock(&st->lmu);
    p->open = 1;
    uv_mutex_unlock(&st->lmu);
}

/* Drops what waits on p's side (throttled logins, hashes not started);
 * those are finished without their callbacks. */
static void port_drop_waiting(store_port_t *p)
{
    p->closing = 1;
    while (p->wait_head) {
        req_t *r = p->wait_head;
        p->wait_head = r->next;
        store_finish(p->st, r);
    }
    store_hash_drop(p->st, p, NULL, 1);
}

static void close_cb(uv_handle_t *h)
{
    (void)h;
}

/* Closes p's handles and runs its loop until they are closed. */
static void port_close_handles(store_port_t *p)
{
    store_t *st = p->st;
    uv_mutex_lock(&st->lmu);
    p->open = 0;
    uv_mutex_unlock(&st->lmu);
    uv_close((uv_handle_t *)&p->async, close_cb);
    uv_close((uv_handle_t *)&p->timer, close_cb);
    /* hashes still in the pool finish (and are dropped), handles close */
    uv_run(p->loop, UV_RUN_DEFAULT);
    if (p->npending != 0)
        log_error("store: %d requests left at close", p->npending);
}

/* --- the API ----------------------------------------------------------------- */

static void opts_defaults(store_opts_t *o, const store_opts_t *given)
{
    if (given)
        *o = *given;
    else
        memset(o, 0, sizeof *o);
    if (!o->pw_ops)
        o->pw_ops = crypto_pwhash_OPSLIMIT_INTERACTIVE;
    if (!o->pw_mem)
        o->pw_mem = crypto_pwhash_MEMLIMIT_INTERACTIVE;
    if (o->hash_parallel <= 0)
        o->hash_parallel = STORE_HASH_PARALLEL_DEFAULT;
    if (o->max_pending <= 0)
        o->max_pending = 4096;
    if (o->max_queued_games <= 0)
        o->max_queued_games = 100000;
    if (o->max_queued_progress <= 0)
        o->max_queued_progress = 100000;
    if (!o->max_queued_bytes)
        o->max_queued_bytes = (size_t)256 << 20;
    if (o->batch_max <= 0)
        o->batch_max = 1000;
    if (o->busy_ms <= 0)
        o->busy_ms = 10000;
    if (o->probe_ms <= 0)
        o->probe_ms = STORE_PROBE_EVERY_MS;
    if (o->held_pause_ms <= 0)
        o->held_pause_ms = STORE_HELD_PAUSE_MS;
}

store_t *store_open(uv_loop_t *loop, const char *data_dir,
                    const store_opts_t *opts, char *err, size_t errlen)
{
    if (sodium_init() < 0) {
        snprintf(err, errlen, "libsodium cannot start");
        return NULL;
    }
    store_t *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    opts_defaults(&st->opt, opts);
    st->opt.url = NULL; /* copied into st->where */
    int n;
    if (opts && opts->url && opts->url[0])
        n = snprintf(st->where, sizeof st->where, "%s", opts->url);
    else
        n = snprintf(st->where, sizeof st->where, "%s/%s", data_dir, STORE_FILE);
    /* (st->path is set from sdb_name by the database thread) */
    if (n < 0 || (size_t)n >= sizeof st->where ||
        (!(opts && opts->url && opts->url[0]) && (size_t)n >= sizeof st->path)) {
        snprintf(err, errlen, "%s", opts && opts->url && opts->url[0]
                 ? "store: the URL is too long" : "data directory name too long");
        free(st);
        return NULL;
    }
    if (throttle_init(&st->thr, 0) != 0 ||
        throttle_init(&st->thr_name, 0) != 0 || uv_mutex_init(&st->mu) != 0) {
        snprintf(err, errlen, "out of memory");
        throttle_free(&st->thr);
        throttle_free(&st->thr_name);
        free(st);
        return NULL;
    }
    if (uv_mutex_init(&st->lmu) != 0 || uv_mutex_init(&st->wmu) != 0 ||
        chan_init(&st->dbq, 0, store_db_wake, st) != 0 ||
        ban_list_init(&st->bans) != 0) {
        snprintf(err, errlen, "out of memory");
        throttle_free(&st->thr);
        throttle_free(&st->thr_name);
        uv_mutex_destroy(&st->mu);
        free(st); /* (mutexes on Linux hold no memory) */
        return NULL;
    }
    st->thr_name.free_fails = THROTTLE_NAME_FREE;
    uv_cond_init(&st->cond);
    uv_sem_init(&st->ready, 0);
    /* Open on the thread that will own the connection; wait for it. The
     * loop's handles come after, so that a refusal leaves the loop as it
     * was (the thread sends to st->async only for requests, which come
     * after store_open returns). */
    int rc = uv_thread_create(&st->thread, store_db_main, st);
    if (rc == 0) {
        uv_sem_wait(&st->ready);
        if (!st->db)
            uv_thread_join(&st->thread);
    }
    if (rc != 0 || !st->db) {
        snprintf(err, errlen, "%s", rc != 0 ? "cannot start the database thread"
                                            : st->open_err);
        throttle_free(&st->thr);
        throttle_free(&st->thr_name);
        uv_sem_destroy(&st->ready);
        uv_cond_destroy(&st->cond);
        uv_mutex_destroy(&st->mu);
        uv_mutex_destroy(&st->lmu);
        uv_mutex_destroy(&st->wmu);
        chan_free(&st->dbq);
        ban_list_free(&st->bans);
        free(st);
        return NULL;
    }
    port_open(st, &st->ports[0], loop);
    st->healthy = 1;
    st->guest_next = (unsigned long long)sdb_guest_first(st->db);
    st->guest_end = st->guest_next + STORE_GUEST_BLOCK;
    /* (the lock wait is a setting: the host sees the one in force) */
    log_info("store: %s open (schema version %d; a lock held elsewhere is "
             "waited for %d ms)", st->path, STORE_SCHEMA_VERSION,
             st->opt.busy_ms);
    return st;
}

int store_attach(store_t *st, uv_loop_t *loop)
{
    uv_mutex_lock(&st->lmu);
    int i = 1;
    while (i < STORE_PORTS_MAX && (st->ports[i].open || st->ports[i].loop))
        i++;
    if (i < STORE_PORTS_MAX)
        st->ports[i].loop = loop; /* taken */
    uv_mutex_unlock(&st->lmu);
    if (i == STORE_PORTS_MAX) {
        log_error("store: more than %d loops", STORE_PORTS_MAX - 1);
        return -1;
    }
    port_open(st, &st->ports[i], loop);
    here.st = st;
    here.port = &st->ports[i];
    return 0;
}

void store_detach(store_t *st)
{
    store_port_t *p = port_here(st);
    if (p == &st->ports[0])
        return;
    port_drop_waiting(p);
    /* Answers owed to this loop come first (the async is referenced while
     * any is owed); cancelled ones are dropped as they come. */
    while (p->npending > 0)
        uv_run(p->loop, UV_RUN_ONCE);
    port_close_handles(p);
    uv_mutex_lock(&st->lmu);
    p->loop = NULL; /* free for another attach */
    uv_mutex_unlock(&st->lmu);
    here.st = NULL;
    here.port = NULL;
}

void store_close(store_t *st)
{
    if (!st)
        return;
    store_port_t *p = &st->ports[0];
    st->closing = 1;
    for (int i = 1; i < STORE_PORTS_MAX; i++)
        if (st->ports[i].loop)
            log_error("store: closed while loop %d is still attached", i);
    /* what waits on the loop side is dropped */
    port_drop_waiting(p);
    /* the database thread writes everything queued, then ends */
    uv_mutex_lock(&st->mu);
    st->stopping = 1;
    uv_mutex_unlock(&st->mu);
    chan_close(&st->dbq, NULL); /* what is queued stays for a last take */
    store_db_wake(st);
    uv_thread_join(&st->thread);
    /* threads in store_key_account have their answers (the queue was
     * written to its end): they leave the lock before it goes */
    for (;;) {
        uv_mutex_lock(&st->mu);
        int waiting = st->sync_waiting;
        uv_mutex_unlock(&st->mu);
        if (!waiting)
            break;
        uv_sleep(1);
    }
    on_async(&p->async); /* answers now owed to no one */
    port_close_handles(p);
    throttle_free(&st->thr);
    throttle_free(&st->thr_name);
    hf_names_free(&st->hash_names);
    sodium_memzero(st->dummy, sizeof st->dummy);
    uv_sem_destroy(&st->ready);
    uv_cond_destroy(&st->cond);
    uv_mutex_destroy(&st->mu);
    uv_mutex_destroy(&st->lmu);
    uv_mutex_destroy(&st->wmu);
    chan_free(&st->dbq); /* empty: the thread took it to its end */
    ban_list_free(&st->bans);
    unsigned long long n = (unsigned long long)st->stats.games_written;
    log_info("store: %s closed (%llu game%s written)", st->path, n,
             n == 1 ? "" : "s");
    free(st);
}

/* A request that will answer, on the pending list; NULL if too many are
 * owed already or out of memory. */
req_t *store_req_new(store_t *st, const store_call_t *call, void *ctx)
{
    store_port_t *p = port_here(st);
    if (p->closing || p->npending >= st->opt.max_pending) {
        log_error("store: %d requests waiting: one refused", p->npending);
        return NULL;
    }
    req_t *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->st = st;
    r->port = p;
    r->call = call;
    r->ctx = ctx;
    r->at = STORE_WAIT_DB; /* until it waits anywhere else */
    pending_add(p, r);
    return r;
}

void store_req_drop(req_t *r)
{
    pending_remove(r->port, r);
    store_req_free(r);
}

void store_answer_done(req_t *r)
{
    r->cb.done(r->ctx, r->status);
}
/* Unlinks every request of ctx from the throttled logins' queue and
 * finishes it (silently: it is marked cancelled first). */
static void drop_waiting(store_t *st, req_t **head, void *ctx)
{
    req_t **p = head;
    while (*p) {
        req_t *r = *p;
        if (r->ctx == ctx) {
            *p = r->next;
            r->cancelled = 1;
            store_finish(st, r);
        } else {
            p = &r->next;
        }
    }
}

void store_cancel(store_t *st, void *ctx)
{
    store_port_t *p = port_here(st);
    int in_line = 0;
    for (req_t *r = p->pending; r; r = r->pnext) {
        if (r->ctx == ctx) {
            r->cancelled = 1;
            /* in the server's line, or given a slot and not started
             * (hash_start moves it on) */
            in_line |= r->at == STORE_WAIT_HASH_LINE;
        }
    }
    /* what only waits on the loop side goes now: a throttled login must not
     * keep the loop (and a shutting-down server) alive for a minute */
    drop_waiting(st, &p->wait_head, ctx);
    /* Every session freed comes here: only one with a check waiting for a
     * slot takes the lock every loop shares to look through the line. */
    if (in_line)
        store_hash_drop(st, p, ctx, 0);
    arm_timer(p);
}

int store_wait_of(store_t *st, void *ctx)
{
    store_port_t *p = port_here(st);
    int at = STORE_WAIT_NONE;
    for (req_t *r = p->pending; r; r = r->pnext)
        if (r->ctx == ctx && !r->cancelled && r->at > at)
            at = r->at;
    return at;
}

int store_hash_parallel(const store_t *st)
{
    return st->opt.hash_parallel; /* set at open, never changed */
}

int store_healthy(store_t *st)
{
    uv_mutex_lock(&st->mu);
    int ok = st->healthy;
    uv_mutex_unlock(&st->mu);
    return ok;
}

int store_db_stalled(store_t *st, uint64_t ms)
{
    uv_mutex_lock(&st->mu);
    uint64_t at = st->db_busy_at_ms;
    uv_mutex_unlock(&st->mu);
    return at != 0 && uv_hrtime() / 1000000u - at >= ms;
}

int store_file_moved(store_t *st)
{
    uv_mutex_lock(&st->mu);
    int moved = st->file_moved;
    uv_mutex_unlock(&st->mu);
    return moved;
}

uint64_t store_failed_batches(store_t *st)
{
    uv_mutex_lock(&st->mu);
    uint64_t n = st->failed_batches;
    uv_mutex_unlock(&st->mu);
    return n;
}

uint64_t store_rerun_batches(store_t *st)
{
    uv_mutex_lock(&st->mu);
    uint64_t n = st->rerun_batches;
    uv_mutex_unlock(&st->mu);
    return n;
}

uint64_t store_queued(store_t *st)
{
    uv_mutex_lock(&st->mu);
    uint64_t n = st->q_games + st->q_progress;
    uv_mutex_unlock(&st->mu);
    return n;
}

void store_stats(store_t *st, store_stats_t *out)
{
    uv_mutex_lock(&st->mu);
    *out = st->stats;
    out->queued_games = st->q_games;
    out->queued_bytes = st->q_bytes;
    out->queued_progress = st->q_progress;
    uv_mutex_unlock(&st->mu);
    uv_mutex_lock(&st->lmu);
    out->login_waits = st->login_waits;
    out->login_wait_ms = st->login_wait_ms;
    uv_mutex_unlock(&st->lmu);
}
