/* refusals.c - connections turned away, by reason (refusals.h). */
#include "refusals.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "log.h"

static atomic_uint_fast64_t counts[REFUSE_NREASONS];

/* Each reason's log window: when it began, the lines written in it, the
 * refusals not logged one by one and the last of them. */
static struct {
    uint64_t start, last;
    unsigned logged;
    uint64_t quiet;
} windows[REFUSE_NREASONS];
static pthread_mutex_t windows_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const names[REFUSE_NREASONS] = {
    [REFUSE_FULL] = "full",
    [REFUSE_ADDR_CONNECTS] = "per_address_connects",
    [REFUSE_ADDR_SESSIONS] = "per_address_sessions",
    [REFUSE_BANNED] = "banned",
    [REFUSE_FD_BUDGET] = "fd_budget",
    [REFUSE_PROXY] = "proxy_header",
    [REFUSE_SLOW] = "no_request_in_time",
    [REFUSE_BAD_HTTP] = "bad_http",
    [REFUSE_SSH_GUARD] = "ssh_guard",
    [REFUSE_STARTUPS] = "startups",
};

void refusal_count_quietly(int reason)
{
    if (reason >= 0 && reason < REFUSE_NREASONS)
        atomic_fetch_add(&counts[reason], 1);
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* The line of reason r's window, if it held refusals not logged; the
 * window ended. Under windows_lock. */
static void window_end(int r, uint64_t now)
{
    uint64_t secs = (windows[r].last - windows[r].start + 999) / 1000;
    if (windows[r].quiet > 0)
        log_info("refused: %llu more (%s) over %llu s, not logged one by "
                 "one; /metrics counts them all",
                 (unsigned long long)windows[r].quiet, names[r],
                 (unsigned long long)(secs ? secs : 1));
    windows[r].logged = 0;
    windows[r].quiet = 0;
    windows[r].start = windows[r].last = now;
}

int refusal_count_at(int reason, uint64_t now)
{
    if (reason < 0 || reason >= REFUSE_NREASONS)
        return 1;
    refusal_count_quietly(reason);
    pthread_mutex_lock(&windows_lock);
    /* a moment read before another thread's began the window: in it */
    if (now < windows[reason].start)
        now = windows[reason].start;
    if (windows[reason].logged + windows[reason].quiet == 0 ||
        now - windows[reason].start >= REFUSAL_LOG_MS)
        window_end(reason, now);
    int may = windows[reason].logged < REFUSAL_LOG_BURST;
    if (may) {
        windows[reason].logged++;
    } else {
        windows[reason].quiet++;
        if (now > windows[reason].last)
            windows[reason].last = now;
    }
    pthread_mutex_unlock(&windows_lock);
    return may;
}

int refusal_count(int reason)
{
    return refusal_count_at(reason, now_ms());
}

void refusal_log_flush_at(uint64_t now)
{
    pthread_mutex_lock(&windows_lock);
    for (int r = 0; r < REFUSE_NREASONS; r++)
        if (windows[r].quiet > 0 && now >= windows[r].start &&
            now - windows[r].start >= REFUSAL_LOG_MS)
            window_end(r, now);
    pthread_mutex_unlock(&windows_lock);
}

void refusal_log_flush(void)
{
    refusal_log_flush_at(now_ms());
}

void refusal_log_reset(void)
{
    pthread_mutex_lock(&windows_lock);
    memset(windows, 0, sizeof windows);
    pthread_mutex_unlock(&windows_lock);
}

uint64_t refusal_total(int reason)
{
    if (reason < 0 || reason >= REFUSE_NREASONS)
        return 0;
    return (uint64_t)atomic_load(&counts[reason]);
}

const char *refusal_name(int reason)
{
    return reason >= 0 && reason < REFUSE_NREASONS ? names[reason] : "?";
}
