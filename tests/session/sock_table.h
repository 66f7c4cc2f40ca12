/* sock_table.h - the kernel's table of IPv4 TCP sockets (/proc/net/tcp),
 * as a test sees the server's side of a connection: whether it is still
 * there, what its send queue holds (bytes the client has not taken) and
 * what its receive queue holds (bytes the server has not read).
 * A server that closes a connection whose client does not read leaves an
 * orphan there, sending for minutes; one that resets it leaves nothing
 * (docs/architecture.md, "A client that stops reading"). And which of a
 * process's descriptors are TCP sockets, found in the same tables. */
#ifndef TESTS_SOCK_TABLE_H
#define TESTS_SOCK_TABLE_H

/* The server's side of the connection from client_port to server_port:
 * -1 if the table has none (a TIME-WAIT entry, which holds no buffers,
 * counts as none), else the bytes in its send queue. */
long sock_server_side_queue(int server_port, int client_port);

/* The bytes the client sent that the server has not read yet on that
 * connection (its side's receive queue), or -1 if there is none. */
long sock_server_side_unread(int server_port, int client_port);

/* Waits up to timeout_ms until the server has read every byte the client
 * sent on that connection: the client's side has them acknowledged (its
 * send queue empty), then the server's receive queue is empty. 1 if so. */
int sock_wait_server_read(int server_port, int client_port, int timeout_ms);

/* Waits up to timeout_ms until that side holds bytes unsent (want_queued
 * 1), or is gone (0). 1 if it came in time. */
int sock_wait_server_side(int server_port, int client_port, int want_queued,
                          int timeout_ms);

/* The socket inodes of process pid's descriptors (/proc/PID/fd) into
 * ino, at most n: how many. */
int sock_inodes_of(int pid, unsigned long *ino, int n);

/* How many of process pid's descriptors are TCP connections accepted on
 * local port `port` (a peer's port not 0: not the listener), IPv4 or
 * IPv6 (/proc/net/tcp and tcp6). */
int sock_held_on(int pid, int port);

#endif
