/* clock_shift.c - a test-only LD_PRELOAD shim: the server's monotonic
 * clocks moved forward when the test says, so that behaviour about time
 * (the idle warning and disconnect) runs on a clock the test controls
 * instead of its real seconds (tests/session/clock_shift.h,
 * docs/testing.md).
 *
 *   CLOCK_SHIFT_FILE=PATH   a file the test made, holding a count of
 *                           milliseconds (8 bytes, the machine's order).
 *                           It is mapped at load, and every
 *                           clock_gettime of CLOCK_MONOTONIC (and its
 *                           _COARSE and _RAW forms) and CLOCK_BOOTTIME
 *                           returns the real time plus that count, read
 *                           at each call. The test raises it; it never
 *                           goes down, so the clocks stay monotonic.
 *
 * libuv's loop time (uv_now, uv_hrtime) is read this way, so a loop that
 * wakes after a shift runs at once every timer the shift made due, as
 * after a stall of that long: the loop's wait is given to the kernel as
 * a duration (epoll_wait's timeout), which no shift lengthens. A wait
 * until a moment worked out from a shifted reading is another matter:
 * uv_cond_timedwait (the store's and the cluster's threads) waits on the
 * kernel's own CLOCK_MONOTONIC until the shifted time plus its timeout,
 * a shift late. So a test that shifts must not wait on such a wait
 * (the idle tests and the negotiation's deadline do not).
 * CLOCK_REALTIME (the log's time stamps) is not moved. Without the variable, or if the file
 * cannot be mapped (said on stderr: the server's log), the clocks are the
 * real ones. Built without sanitizers, like the other shims: it runs
 * inside servers built with any of them. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

typedef int (*gettime_fn)(clockid_t, struct timespec *);

static gettime_fn next_gettime;
static const volatile uint64_t *shift_ms; /* the mapped file, or NULL */

static void say(const char *what, const char *detail)
{
    char line[512];
    int n = snprintf(line, sizeof line, "clock_shift: %s: %s\n", what,
                     detail);
    if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n
                                                        : sizeof line - 1) < 0)
        return;
}

/* At load, before the server's main: the next clock_gettime in the search
 * order (a sanitizer's interceptor, then libc's), and the file. */
__attribute__((constructor)) static void clock_shift_init(void)
{
    next_gettime = (gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
    const char *path = getenv("CLOCK_SHIFT_FILE");
    if (!path || !*path)
        return;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    void *m = fd < 0 ? MAP_FAILED
                     : mmap(NULL, sizeof(uint64_t), PROT_READ, MAP_SHARED,
                            fd, 0);
    if (fd >= 0)
        close(fd);
    if (m == MAP_FAILED) {
        say("cannot map (the clocks are the real ones)", path);
        return;
    }
    shift_ms = m;
    say("the monotonic clocks follow", path);
}

static int shifted(clockid_t id)
{
    return id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_COARSE ||
           id == CLOCK_MONOTONIC_RAW || id == CLOCK_BOOTTIME;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    if (!next_gettime) /* called before the constructor: look it up */
        next_gettime = (gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
    int rc = next_gettime(id, ts);
    if (rc != 0 || !shift_ms || !shifted(id))
        return rc;
    uint64_t ms = __atomic_load_n(shift_ms, __ATOMIC_ACQUIRE);
    ts->tv_sec += (time_t)(ms / 1000);
    ts->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_nsec -= 1000000000L;
        ts->tv_sec++;
    }
    return 0;
}
