/* sock_table.c - the kernel's table of TCP sockets, read (sock_table.h). */
#include "sock_table.h"

#include <check.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define TCP_TIME_WAIT_STATE 0x06 /* include/net/tcp_states.h */

long sock_server_side_queue(int server_port, int client_port)
{
    FILE *f = fopen("/proc/net/tcp", "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    long found = -1;
    while (found < 0 && fgets(line, sizeof line, f)) {
        unsigned lport, rport, state;
        unsigned long txq;
        if (sscanf(line, " %*d: %*x:%x %*x:%x %x %lx:", &lport, &rport,
                   &state, &txq) == 4 &&
            (int)lport == server_port && (int)rport == client_port &&
            state != TCP_TIME_WAIT_STATE)
            found = (long)txq;
    }
    fclose(f);
    return found;
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
