/* tcp_acked.c - the peer's acknowledged byte count (tcp_acked.h). Its
 * own file: <linux/tcp.h> (which has tcpi_bytes_acked, glibc's
 * <netinet/tcp.h> has not) cannot be included beside libuv's headers. */
#include "tcp_acked.h"

#include <linux/sockios.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

/* The kernel's TCP_INFO of fd into *ti, when it holds at least `need`
 * bytes of it (an older kernel's is shorter). Returns 0 or -1. */
static int tcp_info_of(int fd, struct tcp_info *ti, size_t need)
{
    socklen_t len = sizeof *ti;
    memset(ti, 0, sizeof *ti);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, ti, &len) != 0 ||
        (size_t)len < need)
        return -1;
    return 0;
}

int tcp_acked(int fd, uint64_t *acked, int *all_taken)
{
    struct tcp_info ti;
    if (tcp_info_of(fd, &ti, offsetof(struct tcp_info, tcpi_notsent_bytes) +
                                 sizeof ti.tcpi_notsent_bytes) != 0)
        return -1; /* not TCP, or a kernel before 4.6 */
    *acked = ti.tcpi_bytes_acked;
    /* Nothing held: no segment in flight unacknowledged and no byte
     * waiting to be sent. The same as SIOCOUTQ's count being 0, without
     * a second system call a sweep (docs/performance.md, "Closer to the
     * floor"). */
    *all_taken = ti.tcpi_unacked == 0 && ti.tcpi_notsent_bytes == 0;
    return 0;
}

int tcp_unacked(int fd, uint64_t *bytes)
{
    int n = 0;
    if (ioctl(fd, SIOCOUTQ, &n) != 0 || n < 0)
        return -1;
    *bytes = (uint64_t)n;
    return 0;
}

/* The kernel's states (include/net/tcp_states.h: not in the uapi headers,
 * and glibc's enum is in <netinet/tcp.h>, which clashes with these). */
enum { STATE_CLOSE = 7, STATE_CLOSE_WAIT = 8, STATE_LAST_ACK = 9 };

int tcp_peer_closed(int fd)
{
    struct tcp_info ti;
    if (tcp_info_of(fd, &ti, offsetof(struct tcp_info, tcpi_state) +
                                 sizeof ti.tcpi_state) != 0)
        return 0;
    return ti.tcpi_state == STATE_CLOSE_WAIT ||
           ti.tcpi_state == STATE_CLOSE || ti.tcpi_state == STATE_LAST_ACK;
}
