/* rebuild_pool.c - the rebuilds' own queue and threads (rebuild_pool.h). */
#define _GNU_SOURCE /* pthread_setname_np */
#include "rebuild_pool.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

struct rbp {
    pthread_mutex_t mu;        /* everything below but the threads' ids */
    pthread_cond_t cv;         /* a job waits, or the pool closes */
    rbp_job_t *head, *tail;    /* waiting, oldest first */
    rbp_job_t *running;        /* being run (linked by next) */
    int nwaiting, closing;
    int queue_max, per_ip;
    rbp_stats_t st;            /* waiting and running filled in rbp_stats */
    void (*hook)(void *ctx, rbp_job_t *j);
    void *hook_ctx;
    int nthreads;
    pthread_t *threads;
};

/* Jobs of ip waiting or running, not cancelled (under mu). */
static int ip_jobs(const rbp_t *p, const char *ip)
{
    int n = 0;
    for (const rbp_job_t *j = p->head; j; j = j->next)
        n += strcmp(j->ip, ip) == 0;
    for (const rbp_job_t *j = p->running; j; j = j->next)
        n += strcmp(j->ip, ip) == 0 && !atomic_load(&j->cancelled);
    return n;
}

/* Unlinks the waiting jobs of session into *dropped and flags its running
 * ones (under mu). */
static void cancel_locked(rbp_t *p, uint64_t session, rbp_job_t **dropped)
{
    rbp_job_t **at = &p->head, *prev = NULL;
    while (*at) {
        rbp_job_t *j = *at;
        if (j->session != session) {
            prev = j;
            at = &j->next;
            continue;
        }
        *at = j->next;
        if (p->tail == j)
            p->tail = prev;
        p->nwaiting--;
        p->st.cancelled++;
        j->next = *dropped;
        *dropped = j;
    }
    for (rbp_job_t *j = p->running; j; j = j->next)
        if (j->session == session && !atomic_exchange(&j->cancelled, 1))
            p->st.cancelled++;
}

static void drop_all(rbp_job_t *list)
{
    while (list) {
        rbp_job_t *next = list->next;
        list->drop(list);
        list = next;
    }
}

int rbp_submit(rbp_t *p, rbp_job_t *j)
{
    rbp_job_t *dropped = NULL;
    int rc = RBP_OK;
    char key[ADDR_MAX];
    addr_key(j->ip, key, sizeof key); /* counted by it: an IPv6 /64 as one */
    memcpy(j->ip, key, sizeof key);
    pthread_mutex_lock(&p->mu);
    cancel_locked(p, j->session, &dropped); /* one job per session */
    if (p->closing)
        rc = RBP_CLOSED;
    else if (!j->exempt && p->queue_max && p->nwaiting >= p->queue_max)
        rc = RBP_FULL;
    else if (!j->exempt && p->per_ip && ip_jobs(p, j->ip) >= p->per_ip)
        rc = RBP_ADDR;
    if (rc == RBP_OK) {
        atomic_store(&j->cancelled, 0);
        j->next = NULL;
        if (p->tail)
            p->tail->next = j;
        else
            p->head = j;
        p->tail = j;
        p->nwaiting++;
        pthread_cond_signal(&p->cv);
    } else {
        p->st.refused++;
    }
    pthread_mutex_unlock(&p->mu);
    drop_all(dropped);
    return rc;
}

void rbp_cancel(rbp_t *p, uint64_t session)
{
    rbp_job_t *dropped = NULL;
    pthread_mutex_lock(&p->mu);
    cancel_locked(p, session, &dropped);
    pthread_mutex_unlock(&p->mu);
    drop_all(dropped);
}

int rbp_cancelled(rbp_t *p, rbp_job_t *j)
{
    if (p->hook)
        p->hook(p->hook_ctx, j);
    return atomic_load(&j->cancelled);
}

void rbp_count_keys(rbp_t *p, uint64_t n)
{
    pthread_mutex_lock(&p->mu);
    p->st.keys += n;
    pthread_mutex_unlock(&p->mu);
}

void rbp_stats(rbp_t *p, rbp_stats_t *out)
{
    pthread_mutex_lock(&p->mu);
    *out = p->st;
    out->waiting = (uint64_t)p->nwaiting;
    out->running = 0;
    for (const rbp_job_t *j = p->running; j; j = j->next)
        out->running++;
    pthread_mutex_unlock(&p->mu);
}

/* Takes the first waiting job onto the running list (under mu). */
static rbp_job_t *take_locked(rbp_t *p)
{
    rbp_job_t *j = p->head;
    p->head = j->next;
    if (!p->head)
        p->tail = NULL;
    p->nwaiting--;
    p->st.started++;
    j->next = p->running;
    p->running = j;
    return j;
}

/* Runs j (taken), delivers its answer unless cancelled, frees it. */
static void run_job(rbp_t *p, rbp_job_t *j)
{
    j->run(j, p);
    pthread_mutex_lock(&p->mu);
    for (rbp_job_t **at = &p->running; *at; at = &(*at)->next)
        if (*at == j) {
            *at = j->next;
            break;
        }
    j->next = NULL;
    /* Under the lock: a cancel either came before (no answer) or comes
     * after the answer is in its loop's inbox. */
    if (!atomic_load(&j->cancelled) && !p->closing)
        j->deliver(j);
    pthread_mutex_unlock(&p->mu);
    j->drop(j);
}

int rbp_run_one(rbp_t *p)
{
    pthread_mutex_lock(&p->mu);
    rbp_job_t *j = p->head ? take_locked(p) : NULL;
    pthread_mutex_unlock(&p->mu);
    if (!j)
        return 0;
    run_job(p, j);
    return 1;
}

static void *worker(void *arg)
{
    rbp_t *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->head && !p->closing)
            pthread_cond_wait(&p->cv, &p->mu);
        if (p->closing)
            break;
        rbp_job_t *j = take_locked(p);
        pthread_mutex_unlock(&p->mu);
        run_job(p, j);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

void rbp_set_check_hook(rbp_t *p, void (*fn)(void *ctx, rbp_job_t *j),
                        void *ctx)
{
    p->hook = fn;
    p->hook_ctx = ctx;
}

/* "at most N", or "no bound" for 0 (the settings' meaning). */
static const char *bound(int n, char out[24])
{
    if (n == 0)
        return "no bound";
    snprintf(out, 24, "at most %d", n);
    return out;
}

rbp_t *rbp_new(int threads, int queue_max, int per_ip)
{
    rbp_t *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->queue_max = queue_max;
    p->per_ip = per_ip;
    p->threads = threads > 0 ? calloc((size_t)threads, sizeof *p->threads)
                             : NULL;
    if ((threads > 0 && !p->threads) ||
        pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p->threads);
        free(p);
        return NULL;
    }
    pthread_cond_init(&p->cv, NULL);
    for (; p->nthreads < threads; p->nthreads++) {
        if (pthread_create(&p->threads[p->nthreads], NULL, worker, p) != 0) {
            log_error("rebuilds: thread %d does not start", p->nthreads);
            rbp_free(p);
            return NULL;
        }
        /* named for ps -L and top -H (and test_rebuilds, which counts
         * them) */
        pthread_setname_np(p->threads[p->nthreads], "rogued-rebuild");
    }
    if (threads > 0)
        log_info("rebuilds: %d threads, %s waiting, %s an address",
                 p->nthreads, bound(p->queue_max, (char[24]){ 0 }),
                 bound(p->per_ip, (char[24]){ 0 }));
    return p;
}

void rbp_free(rbp_t *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->closing = 1;
    rbp_job_t *dropped = p->head;
    p->head = p->tail = NULL;
    p->nwaiting = 0;
    for (rbp_job_t *j = p->running; j; j = j->next)
        atomic_store(&j->cancelled, 1);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    drop_all(dropped);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p->threads);
    free(p);
}
