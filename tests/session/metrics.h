/* metrics.h - the session tests' reading of a server's /metrics
 * (metrics_port, docs/hosting.md): one gauge's value, now or awaited. */
#ifndef ROGUE_TEST_METRICS_H
#define ROGUE_TEST_METRICS_H

/* 1 if /metrics on port says `name n` now. */
int metrics_is(int port, const char *name, int n);

/* Waits (CL_WAIT_MS at most, asking every 50 ms) until it does: 1, or 0. */
int metrics_wait(int port, const char *name, int n);

#endif
