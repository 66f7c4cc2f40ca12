/* connect_lines.c - the log's lines that say how to connect
 * (connect_lines.h). */
#include "connect_lines.h"

#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"

static int is_wildcard(const char *bind)
{
    return strcmp(bind, "0.0.0.0") == 0 || strcmp(bind, "::") == 0 ||
           strcmp(bind, "") == 0;
}

/* Appends one formatted line; keeps out terminated when cut. */
static void add(char *out, size_t len, size_t *at, const char *fmt,
                const char *host, int port)
{
    if (*at >= len)
        return;
    int n = snprintf(out + *at, len - *at, fmt, port, host);
    if (n > 0)
        *at += (size_t)n < len - *at ? (size_t)n : len - *at - 1;
}

int connect_lines(char *out, size_t len, const char *bind,
                  const char *hostname, int telnet_port, int http_port,
                  int ssh_port)
{
    /* Who a person can name: on a wildcard bind the machine's name (for
     * others) and the loopback address (on this machine); otherwise the
     * address the server is bound to, which is the only one that works. */
    const char *hosts[2];
    int nhosts = 0;
    if (is_wildcard(bind)) {
        if (hostname && *hostname)
            hosts[nhosts++] = hostname;
        hosts[nhosts++] = strcmp(bind, "::") == 0 ? "::1" : "127.0.0.1";
    } else {
        hosts[nhosts++] = bind;
    }
    size_t at = 0;
    if (len)
        out[0] = '\0';
    int lines = 0;
    for (int i = 0; i < nhosts; i++) {
        int v6 = strchr(hosts[i], ':') != NULL; /* a URL brackets it */
        if (telnet_port > 0) {
            add(out, len, &at, "telnet %2$s %1$d\n", hosts[i], telnet_port);
            lines++;
        }
        if (http_port > 0) {
            add(out, len, &at, v6 ? "http://[%2$s]:%1$d/\n"
                                  : "http://%2$s:%1$d/\n", hosts[i], http_port);
            lines++;
        }
        if (ssh_port > 0) {
            add(out, len, &at, "ssh -p %1$d play@%2$s\n", hosts[i], ssh_port);
            lines++;
        }
    }
    return lines;
}

static int port_of(int fd)
{
    struct sockaddr_storage a;
    socklen_t n = sizeof a;
    if (fd < 0 || getsockname(fd, (struct sockaddr *)&a, &n) != 0)
        return 0;
    if (a.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&a)->sin6_port);
    if (a.ss_family == AF_INET)
        return ntohs(((struct sockaddr_in *)&a)->sin_port);
    return 0;
}

void connect_lines_log(const char *bind, int telnet_fd, int http_fd,
                       int ssh_fd)
{
    char host[256] = "", lines[2048];
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    connect_lines(lines, sizeof lines, bind, host, port_of(telnet_fd),
                  port_of(http_fd), port_of(ssh_fd));
    for (char *p = lines, *nl; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        log_info("connect: %s", p);
    }
}
