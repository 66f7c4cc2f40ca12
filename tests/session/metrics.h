/* metrics.h - the session tests' reading of a server's /metrics
 * (metrics_port, docs/hosting.md): one gauge's value, now or awaited; and
 * a client made to stop reading with output owed, which /metrics shows. */
#ifndef ROGUE_TEST_METRICS_H
#define ROGUE_TEST_METRICS_H

#include "client.h"

/* 1 if /metrics on port says `name n` now. */
int metrics_is(int port, const char *name, int n);

/* Waits (CL_WAIT_MS at most, asking every 50 ms) until it does: 1, or 0. */
int metrics_wait(int port, const char *name, int n);

/* Waits as metrics_wait does until the series `name` (a counter) is n or
 * more: 1, or 0. */
int metrics_wait_at_least(int port, const char *name, double n);

/* The value of the series `name` (labels included, as the line spells
 * them: rogued_rebuilds{stage="waiting"}) now, or -1 if /metrics has no
 * such line. */
double metrics_value(int port, const char *name);

/* Sends c's server telnet requests it must answer without reading the
 * answers, until /metrics on mport says rogued_sessions_output_waiting 1:
 * the kernel's buffers for c are full and stay full while c does not
 * read. Fails the test if that never comes (only a hang: 120 s) or c is
 * closed. c should have a small receive buffer (cl_opts_t's rcvbuf) and
 * the server an output_limit far above what the buffers hold, and an
 * input budget (max_input_bytes_per_second) that reads megabytes a
 * second. */
void metrics_stop_reading_with_output_owed(tclient_t *c, int mport);

#endif
