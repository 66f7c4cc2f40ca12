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

int tcp_acked(int fd, uint64_t *acked, size_t *held)
{
    struct tcp_info ti;
    socklen_t len = sizeof ti;
    memset(&ti, 0, sizeof ti);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0 ||
        len < offsetof(struct tcp_info, tcpi_bytes_acked) +
                  sizeof ti.tcpi_bytes_acked)
        return -1; /* not TCP, or a kernel before 4.1 */
    int outq = 0;
    if (ioctl(fd, SIOCOUTQ, &outq) != 0 || outq < 0)
        return -1;
    *acked = ti.tcpi_bytes_acked;
    *held = (size_t)outq;
    return 0;
}
