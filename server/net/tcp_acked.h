/* tcp_acked.h - how much of a socket's output the peer's TCP has
 * acknowledged: the kernel's own count, which grows only when the
 * client's side takes bytes into its receive buffer. libuv's write
 * callbacks say only that our kernel took bytes, and its send buffer
 * grows to megabytes while a client that does not read keeps its window
 * shut (docs/architecture.md, "A client that stops reading"). And
 * whether the peer has gone, without reading. Linux only. */
#ifndef TCP_ACKED_H
#define TCP_ACKED_H

#include <stdint.h>

/* *acked: the bytes the peer has acknowledged since the connection began;
 * *all_taken: 1 if the kernel holds none for it (every byte written was
 * sent and acknowledged), else 0. One system call (TCP_INFO). Returns 0,
 * or -1 if fd is not a TCP socket the kernel can say it of. */
int tcp_acked(int fd, uint64_t *acked, int *all_taken);

/* *bytes: what the kernel holds for the peer of TCP socket fd, sent and
 * not acknowledged or not sent yet (SIOCOUTQ); after a shutdown its FIN
 * counts one until the peer acknowledges it. Returns 0, or -1 (the
 * kernel cannot say it of fd). */
int tcp_unacked(int fd, uint64_t *bytes);

/* 1 if the peer of TCP socket fd has closed its side (its FIN has come,
 * read or not: CLOSE-WAIT) or reset it (CLOSE), else 0: looked at
 * without reading, for a connection whose reading is paused. */
int tcp_peer_closed(int fd);

#endif
