/* sock_table.c - the kernel's table of TCP sockets, read (sock_table.h). */
#include "sock_table.h"

#include <check.h>
#include <dirent.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TCP_TIME_WAIT_STATE 0x06 /* include/net/tcp_states.h */

/* The send queue (rx 0) or receive queue (rx 1) of the side of a
 * connection whose local port is lport and whose peer's is rport, or -1
 * if the table has no such connection (TIME-WAIT counts as none). */
static long side(int lport_want, int rport_want, int rx)
{
    FILE *f = fopen("/proc/net/tcp", "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    long found = -1;
    while (found < 0 && fgets(line, sizeof line, f)) {
        unsigned lport, rport, state;
        unsigned long txq, rxq;
        if (sscanf(line, " %*d: %*x:%x %*x:%x %x %lx:%lx", &lport, &rport,
                   &state, &txq, &rxq) == 5 &&
            (int)lport == lport_want && (int)rport == rport_want &&
            state != TCP_TIME_WAIT_STATE)
            found = (long)(rx ? rxq : txq);
    }
    fclose(f);
    return found;
}

long sock_server_side_queue(int server_port, int client_port)
{
    return side(server_port, client_port, 0);
}

long sock_server_side_unread(int server_port, int client_port)
{
    return side(server_port, client_port, 1);
}

static uint64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

int sock_wait_server_side(int server_port, int client_port, int want_queued,
                          int timeout_ms)
{
    uint64_t end = now_ms() + (uint64_t)timeout_ms;
    do {
        long q = sock_server_side_queue(server_port, client_port);
        if (want_queued ? q > 0 : q < 0)
            return 1;
        poll(NULL, 0, 5); /* the kernel's table has no event to wait on */
    } while (now_ms() < end);
    return 0;
}

int sock_wait_server_read(int server_port, int client_port, int timeout_ms)
{
    /* First the client's side acknowledged (its send queue empty: the
     * bytes are in the server's kernel), for an empty receive queue
     * before they arrive (loopback's delivery deferred to a softirq
     * thread on a loaded machine) would pass for bytes read. */
    uint64_t end = now_ms() + (uint64_t)timeout_ms;
    int acked = 0;
    do {
        if (!acked)
            acked = side(client_port, server_port, 0) == 0;
        if (acked && sock_server_side_unread(server_port, client_port) == 0)
            return 1;
        poll(NULL, 0, 5); /* as above: no event to wait on */
    } while (now_ms() < end);
    return 0;
}

int sock_inodes_of(int pid, unsigned long *ino, int n)
{
    char path[64], link[64];
    int found = 0;
    snprintf(path, sizeof path, "/proc/%d/fd", pid);
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d)) != NULL && found < n;) {
        char fd[384];
        snprintf(fd, sizeof fd, "%s/%s", path, e->d_name);
        ssize_t len = readlink(fd, link, sizeof link - 1);
        if (len <= 0)
            continue;
        link[len] = '\0';
        if (sscanf(link, "socket:[%lu]", &ino[found]) == 1)
            found++;
    }
    closedir(d);
    return found;
}

int sock_held_on(int pid, int port)
{
    unsigned long ino[256];
    int n = sock_inodes_of(pid, ino, 256), held = 0;
    static const char *const tables[] = { "/proc/net/tcp", "/proc/net/tcp6" };
    for (int t = 0; t < 2; t++) {
        FILE *f = fopen(tables[t], "r");
        char line[512];
        while (f && fgets(line, sizeof line, f)) {
            char local[64], remote[64];
            unsigned long inode;
            /* sl local rem st tx:rx tr:when retrnsmt uid timeout inode */
            if (sscanf(line, " %*d: %63s %63s %*x %*s %*s %*s %*d %*d %lu",
                       local, remote, &inode) != 3)
                continue; /* the heading */
            const char *lp = strrchr(local, ':'), *rp = strrchr(remote, ':');
            if (!lp || !rp || strtol(lp + 1, NULL, 16) != port ||
                strtol(rp + 1, NULL, 16) == 0)
                continue;
            for (int i = 0; i < n; i++)
                held += ino[i] == inode;
        }
        if (f)
            fclose(f);
    }
    return held;
}
