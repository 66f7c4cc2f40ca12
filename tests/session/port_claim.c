/* port_claim.c - claims of ports among a run's test processes
 * (port_claim.h). */
#include "port_claim.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A claim left by a dead process is removed once older than this. */
#define STALE_S 300
#define MAX_CLAIMS 256

static int claimed[MAX_CLAIMS], nclaimed;

static void claim_path(int port, char *out, size_t n)
{
    snprintf(out, n, PORT_CLAIM_DIR "/%d", port);
}

/* The process id a claim holds, or 0. */
static pid_t claim_owner(const char *path)
{
    FILE *f = fopen(path, "r");
    long pid = 0;
    if (f) {
        if (fscanf(f, "%ld", &pid) != 1)
            pid = 0;
        fclose(f);
    }
    return (pid_t)pid;
}

/* At exit: this process's claims (a forked child's list holds its
 * parent's too: those stay). */
static void release_all(void)
{
    char path[64];
    for (int i = 0; i < nclaimed; i++) {
        claim_path(claimed[i], path, sizeof path);
        if (claim_owner(path) == getpid())
            unlink(path);
    }
    rmdir(PORT_CLAIM_DIR); /* (only when no claim is left) */
}

/* A claim whose process is gone, old enough that no run can still be
 * starting the server it was for: removed (the port is left unpicked
 * this time). */
static void drop_if_stale(const char *path)
{
    pid_t owner = claim_owner(path);
    struct stat st;
    if (owner > 0 && kill(owner, 0) != 0 && errno == ESRCH &&
        stat(path, &st) == 0 && time(NULL) - st.st_mtime > STALE_S)
        unlink(path);
}

int port_claim(int port)
{
    static int registered;
    if (!registered) {
        registered = atexit(release_all) == 0;
        if (!registered)
            return 1;
    }
    if (mkdir(PORT_CLAIM_DIR, 0777) != 0 && errno != EEXIST)
        return 1;
    char path[64];
    claim_path(port, path, sizeof path);
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (errno != EEXIST)
            return 1;
        drop_if_stale(path);
        return 0;
    }
    char pid[32];
    int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    int ok = write(fd, pid, (size_t)len) == len;
    close(fd);
    if (!ok || nclaimed == MAX_CLAIMS) {
        unlink(path); /* unkept: nothing would remove it */
        return 1;
    }
    claimed[nclaimed++] = port;
    return 1;
}
