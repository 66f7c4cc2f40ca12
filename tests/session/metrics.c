/* metrics.c - the session tests' reading of /metrics (metrics.h). */
#include "metrics.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* GET /metrics on port: the client, its whole answer read (the caller
 * closes it). */
static tclient_t *scrape(int port)
{
    cl_opts_t o = { .raw = 1 };
    tclient_t *c = cl_connect(port, &o);
    static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
    cl_send_raw(c, req, sizeof req - 1, 1, CL_WAIT_MS);
    cl_wait_eof(c, CL_WAIT_MS);
    return c;
}

int metrics_is(int port, const char *name, int n)
{
    tclient_t *c = scrape(port);
    char line[160];
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

int metrics_wait_at_least(int port, const char *name, double n)
{
    for (int ms = 0; ms < CL_WAIT_MS; ms += 50) {
        if (metrics_value(port, name) >= n)
            return 1;
        usleep(50 * 1000);
    }
    return 0;
}

double metrics_value(int port, const char *name)
{
    tclient_t *c = scrape(port);
    char needle[160];
    snprintf(needle, sizeof needle, "\n%s ", name);
    const char *p = cl_stream_find(c, needle);
    double v = p ? strtod(p + strlen(needle), NULL) : -1;
    cl_close(c);
    return v;
}

/* the requests one write carries (IAC DO CL_FLOOD_OPT each) */
#define REQUESTS 8192
#define HANG_S 120

/* Answers to requests cannot be skipped as frames are (test_limits.c's
 * slow_reader_cut_off), so the requests fill the buffers whatever the
 * server's output_highwater. */
void metrics_stop_reading_with_output_owed(tclient_t *c, int mport)
{
    size_t len = 3 * REQUESTS;
    char *buf = malloc(len);
    ck_assert_ptr_nonnull(buf);
    for (size_t i = 0; i < len; i += 3) {
        buf[i] = (char)0xff;
        buf[i + 1] = (char)0xfd;
        buf[i + 2] = CL_FLOOD_OPT;
    }
    time_t deadline = time(NULL) + HANG_S; /* only a hang ends it */
    int owed = 0;
    size_t total = 0;
    while (!owed && !cl_closed(c) && time(NULL) < deadline) {
        total += cl_send_raw(c, buf, len, 0, 2000);
        owed = metrics_is(mport, "rogued_sessions_output_waiting", 1);
    }
    free(buf);
    ck_assert_msg(owed, "no output waiting after %zu bytes sent", total);
    ck_assert(!cl_closed(c));
}
