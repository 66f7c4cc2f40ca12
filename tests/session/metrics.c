/* metrics.c - the session tests' reading of /metrics (metrics.h). */
#include "metrics.h"

#include <stdio.h>
#include <unistd.h>

#include "client.h"

int metrics_is(int port, const char *name, int n)
{
    cl_opts_t o = { .raw = 1 };
    tclient_t *c = cl_connect(port, &o);
    static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
    cl_send_raw(c, req, sizeof req - 1, 1, CL_WAIT_MS);
    cl_wait_eof(c, CL_WAIT_MS);
    char line[96];
    snprintf(line, sizeof line, "\n%s %d\n", name, n);
    int yes = cl_stream_has(c, line);
    cl_close(c);
    return yes;
}

int metrics_wait(int port, const char *name, int n)
{
    for (int ms = 0; ms < CL_WAIT_MS; ms += 50) {
        if (metrics_is(port, name, n))
            return 1;
        usleep(50 * 1000);
    }
    return 0;
}
