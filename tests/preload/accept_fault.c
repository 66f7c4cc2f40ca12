/* accept_fault.c - a test-only LD_PRELOAD shim: accept4() failing on demand
 * (tests/session/test_accept_errors.c, docs/testing.md).
 *
 * The errors the acceptor pauses on (server/host.c, on_acceptable) cannot
 * be had from the kernel when a test wants them: ENFILE is the whole
 * system out of files, ENOBUFS and ENOMEM the kernel out of memory. So the
 * test starts the server with this object preloaded, and it interposes
 * accept4 (the server calls it through the PLT, or with -fno-plt through
 * a GOT entry that the dynamic linker fills by the same search, preloaded
 * objects first):
 *
 *   ACCEPT_FAULT_FLAG=PATH   while the file PATH exists, accept4 fails
 *                            with the errno it names ("ENOBUFS"), without
 *                            taking a connection: it stays in the
 *                            listener's backlog. "ENOBUFS 3": only while
 *                            PATH.count holds fewer than 3 failures.
 *   PATH.count               one byte appended per failure made, before
 *                            the call returns: its size is their count.
 *
 * Otherwise (no variable, no file) it is the real accept4, the next one
 * in the search order (dlsym(RTLD_NEXT): a sanitizer's interceptor, then
 * libc's). Built without sanitizers: it runs inside servers built with
 * any of them. libuv's accept4 (the console's socket) comes here too: a
 * test leaves the console alone while the flag is on. The server's
 * acceptor is the only thread calling accept4 on the listeners, so the
 * count and the budget need no lock. */
#define _GNU_SOURCE /* accept4, RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

typedef int (*accept4_fn)(int, struct sockaddr *, socklen_t *, int);

static const struct {
    const char *name;
    int value;
} known[] = {
    { "EMFILE", EMFILE },   { "ENFILE", ENFILE },
    { "ENOBUFS", ENOBUFS }, { "ENOMEM", ENOMEM },
    { "EPERM", EPERM },     { "ECONNABORTED", ECONNABORTED },
    { "EAGAIN", EAGAIN },   { "EINTR", EINTR },
};

/* A line in the server's log: the test shows its tail when it fails. */
static void say(const char *what, const char *detail)
{
    char line[256];
    int n = snprintf(line, sizeof line, "accept_fault: %s: %s\n", what, detail);
    if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n
                                                        : sizeof line - 1) < 0)
        return;
}

/* The errno the flag file names and its budget (0: none), read from
 * path. Returns 0 when there is no file (or no errno in it). */
static int read_flag(const char *path, long *budget)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char text[64];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return 0;
    text[n] = '\0';
    size_t len = strcspn(text, " \n");
    *budget = text[len] == ' ' ? strtol(text + len + 1, NULL, 10) : 0;
    text[len] = '\0';
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(text, known[i].name) == 0)
            return known[i].value;
    say("no such errno in the flag file", text);
    return 0;
}

/* Counts a failure into count_path, unless the budget is spent. Returns 1
 * if the failure is to be made. */
static int take_failure(const char *count_path, long budget)
{
    int fd = open(count_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) {
        say("cannot open", count_path);
        return 0;
    }
    struct stat st;
    int take = budget <= 0 || (fstat(fd, &st) == 0 && st.st_size < budget);
    if (take && write(fd, "x", 1) != 1) {
        say("cannot write", count_path);
        take = 0;
    }
    close(fd);
    return take;
}

int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags)
{
    static accept4_fn real;
    accept4_fn next = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (!next) {
        next = (accept4_fn)dlsym(RTLD_NEXT, "accept4");
        if (!next) {
            say("dlsym", "no accept4 after this object");
            abort();
        }
        __atomic_store_n(&real, next, __ATOMIC_RELEASE);
    }
    const char *flag = getenv("ACCEPT_FAULT_FLAG");
    if (flag && *flag) {
        long budget = 0;
        int err = read_flag(flag, &budget);
        char count_path[PATH_MAX];
        if (err && snprintf(count_path, sizeof count_path, "%s.count", flag) <
                       (int)sizeof count_path &&
            take_failure(count_path, budget)) {
            errno = err;
            return -1;
        }
    }
    return next(fd, addr, addrlen, flags);
}
