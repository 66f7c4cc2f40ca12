/* upgrade_wire.c - records with a descriptor over a Unix socket
 * (upgrade_wire.h). A record: a 4-byte little-endian length and the type
 * byte, sent with the descriptor, then the bytes. A stream socket never merges the header of
 * one record with a descriptor of another: the kernel ends a read at the
 * bytes a descriptor came with. */
#include "upgrade_wire.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

void upw_timeouts(int sock, int ms)
{
    struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
    setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

static int write_all(int sock, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = send(sock, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int upw_send(int sock, int type, const void *data, size_t len, int fd)
{
    if (len > UPW_RECORD_MAX) {
        errno = EMSGSIZE;
        return -1;
    }
    uint8_t head[5] = { (uint8_t)len, (uint8_t)(len >> 8),
                        (uint8_t)(len >> 16), (uint8_t)(len >> 24),
                        (uint8_t)type };
    struct iovec iov = { head, sizeof head };
    union {
        struct cmsghdr h;
        char room[CMSG_SPACE(sizeof(int))];
    } c;
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
    if (fd >= 0) {
        memset(&c, 0, sizeof c);
        mh.msg_control = c.room;
        mh.msg_controllen = sizeof c.room;
        struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cm), &fd, sizeof fd);
    }
    ssize_t k;
    do
        k = sendmsg(sock, &mh, MSG_NOSIGNAL);
    while (k < 0 && errno == EINTR);
    if (k < 0)
        return -1;
    /* the header's rest, if the socket took it in parts (rare) */
    if ((size_t)k < sizeof head &&
        write_all(sock, (const char *)head + k, sizeof head - (size_t)k) != 0)
        return -1;
    return write_all(sock, data, len);
}

static int read_all(int sock, char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = recv(sock, p, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k == 0)
            errno = 0;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Closes every descriptor a control message brought but the first. */
static int take_fds(struct msghdr *mh)
{
    int first = -1;
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
        if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
            continue;
        size_t n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < n; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof fd);
            if (first < 0)
                first = fd;
            else
                close(fd);
        }
    }
    return first;
}

int upw_recv(int sock, buf_t *out, size_t max, int *fd)
{
    uint8_t head[5];
    struct iovec iov = { head, sizeof head };
    union {
        struct cmsghdr h;
        char room[CMSG_SPACE(4 * sizeof(int))];
    } c;
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
                         .msg_control = c.room, .msg_controllen = sizeof c.room };
    *fd = -1;
    buf_reset(out);
    ssize_t k;
    do
        k = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
    while (k < 0 && errno == EINTR);
    if (k <= 0) {
        if (k == 0)
            errno = 0;
        return -1;
    }
    *fd = take_fds(&mh);
    if ((size_t)k < sizeof head &&
        read_all(sock, (char *)head + k, sizeof head - (size_t)k) != 0)
        goto bad;
    size_t len = (size_t)head[0] | (size_t)head[1] << 8 |
                 (size_t)head[2] << 16 | (size_t)head[3] << 24;
    if (len > max) {
        errno = EMSGSIZE;
        goto bad;
    }
    char chunk[4096];
    while (len > 0) {
        size_t n = len < sizeof chunk ? len : sizeof chunk;
        if (read_all(sock, chunk, n) != 0 || buf_append(out, chunk, n) != 0)
            goto bad;
        len -= n;
    }
    return head[4];
bad:
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
    return -1;
}
