/* rebuild_hold.c - a test-only LD_PRELOAD shim: the rebuilds' thread held
 * before its first job (tests/session/test_rebuilds.c, docs/testing.md).
 *
 * A rebuild refused for a player's address (rebuild_per_ip) needs another
 * rebuild of that address waiting or running while the player asks, and
 * a real rebuild is over in milliseconds. So the test starts the server
 * (with one rebuilds' thread) with this object preloaded, and it
 * interposes pthread_cond_wait, where that thread waits for jobs:
 *
 *   REBUILD_HOLD_FIFO=PATH   the first time the thread named
 *                            "rogued-rebuild" wakes from its wait, it
 *                            lets go of the pool's lock and opens PATH (a
 *                            FIFO the test made) for reading, which
 *                            blocks until the test opens it for writing;
 *                            it reads to the end (the test's close), takes
 *                            the lock again and returns as a wake that
 *                            found nothing would. Meanwhile the jobs
 *                            submitted stay waiting, counted for their
 *                            addresses. Once only: later waits, and the
 *                            wake of a shutdown, are the real ones.
 *
 * Every other thread and call goes straight on to the next
 * pthread_cond_wait in the search order (dlsym(RTLD_NEXT): a sanitizer's
 * interceptor, then libc's). Built without sanitizers, like
 * accept_fault.c: it runs inside servers built with any of them. */
#define _GNU_SOURCE /* RTLD_NEXT, pthread_getname_np */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*cond_wait_fn)(pthread_cond_t *, pthread_mutex_t *);

static int held; /* the hold was made (atomic) */

/* A line in the server's log: the test shows its tail when it fails. */
static void say(const char *what, const char *detail)
{
    char line[256];
    int n = snprintf(line, sizeof line, "rebuild_hold: %s: %s\n", what,
                     detail);
    if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n
                                                        : sizeof line - 1) < 0)
        return;
}

/* 1 for the rebuilds' thread's first wake while a FIFO is named. */
static int to_hold(void)
{
    const char *fifo = getenv("REBUILD_HOLD_FIFO");
    char name[16];
    if (!fifo || !*fifo || __atomic_load_n(&held, __ATOMIC_ACQUIRE) ||
        pthread_getname_np(pthread_self(), name, sizeof name) != 0 ||
        strcmp(name, "rogued-rebuild") != 0)
        return 0;
    return !__atomic_exchange_n(&held, 1, __ATOMIC_ACQ_REL);
}

/* Blocks until the test has opened the FIFO for writing and closed it. */
static void hold(pthread_mutex_t *mu)
{
    const char *fifo = getenv("REBUILD_HOLD_FIFO");
    pthread_mutex_unlock(mu);
    say("holding the rebuilds' thread", fifo);
    int fd = open(fifo, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        say("cannot open", fifo);
    } else {
        char buf[64];
        while (read(fd, buf, sizeof buf) > 0)
            continue;
        close(fd);
    }
    say("let go", fifo);
    pthread_mutex_lock(mu);
}

int pthread_cond_wait(pthread_cond_t *cv, pthread_mutex_t *mu)
{
    static cond_wait_fn real;
    cond_wait_fn next = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (!next) {
        next = (cond_wait_fn)dlsym(RTLD_NEXT, "pthread_cond_wait");
        if (!next) {
            say("dlsym", "no pthread_cond_wait after this object");
            abort();
        }
        __atomic_store_n(&real, next, __ATOMIC_RELEASE);
    }
    int rc = next(cv, mu);
    if (rc == 0 && to_hold())
        hold(mu);
    return rc;
}
