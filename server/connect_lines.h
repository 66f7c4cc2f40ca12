/* connect_lines.h - what the log says, once the server listens, about how
 * to reach it: `telnet HOST PORT`, `http://HOST:PORT/` and, when SSH is
 * on, `ssh -p PORT play@HOST`, with addresses a person can use (the
 * machine's host name and 127.0.0.1 when the server listens on every
 * address, never 0.0.0.0). docs/hosting.md. */
#ifndef ROGUE_CONNECT_LINES_H
#define ROGUE_CONNECT_LINES_H

#include <stddef.h>

/* Writes the lines, each ending in '\n', into out (cut to len, always
 * terminated) for a server bound to `bind` on a machine named `hostname`
 * (NULL or "": none known), its ports (0: that one is off). Returns the
 * number of lines. Pure: the caller logs them (connect_lines_log). */
int connect_lines(char *out, size_t len, const char *bind,
                  const char *hostname, int telnet_port, int http_port,
                  int ssh_port);

/* The same lines in the log, one log line each, for listening sockets
 * (fd < 0: off); the ports are read from the sockets, so port 0 works. */
void connect_lines_log(const char *bind, int telnet_fd, int http_fd,
                       int ssh_fd);

#endif
