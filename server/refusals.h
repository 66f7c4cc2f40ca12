/* refusals.h - connections turned away, counted by reason for /metrics
 * (server/ops/ctl_metrics.c: rogued_refusals_total{reason="..."}).
 *
 * Each refusal site (admission on a worker loop, the host's accept, the
 * SSH players' threads) counts its own; the counters are process-wide
 * atomics, so any thread may count and the console reads them without
 * asking anyone. The reasons' names are stable: docs/hosting.md,
 * "Operations", lists them. */
#ifndef ROGUE_REFUSALS_H
#define ROGUE_REFUSALS_H

#include <stdint.h>

enum refusal {
    REFUSE_FULL,               /* max_sessions reached, or shutting down */
    REFUSE_ADDR_CONNECTS,      /* connects_per_ip_per_minute */
    REFUSE_ADDR_SESSIONS,      /* max_sessions_per_ip */
    REFUSE_BANNED,             /* the address is banned (ctl ban) */
    REFUSE_FD_BUDGET,          /* descriptors nearly all used */
    REFUSE_PROXY,              /* no, a bad or an untrusted PROXY header */
    REFUSE_SLOW,               /* no HTTP request in time */
    REFUSE_BAD_HTTP,           /* the browser's port: a request refused */
    REFUSE_SSH_GUARD,          /* SSH: too many not logged in from the
                                  address, or too many SSH connections */
    REFUSE_STARTUPS,           /* dropped at random: many connections not
                                  in the lobby yet (startups_*) */
    REFUSE_NREASONS
};

/* Counts one refusal (any thread). Returns 1 when its log line may be
 * written: each reason's first REFUSAL_LOG_BURST in a REFUSAL_LOG_MS
 * window; the rest are counted, and said in one line when the window
 * ends (refusal_log_flush), so that one address's flood of connections is
 * not a line each (a QA wrote 100,000 lines in 5 s). */
int refusal_count(int reason);

/* Counts one refusal whose caller logs a summary of its own (fd_budget.c):
 * no window. */
void refusal_count_quietly(int reason);

#define REFUSAL_LOG_BURST 10
#define REFUSAL_LOG_MS 10000

/* Writes the line of each reason whose window has ended with refusals not
 * logged one by one: "refused: N more (REASON) over S s, not logged one
 * by one; /metrics counts them all" (S: from the window's first refusal
 * to its last, at least 1). The host's sweep calls
 * it (any thread may). */
void refusal_log_flush(void);

/* refusal_count and refusal_log_flush at a moment the caller gives
 * (monotonic ms), for tests; refusal_log_reset forgets every window. */
int refusal_count_at(int reason, uint64_t now_ms);
void refusal_log_flush_at(uint64_t now_ms);
void refusal_log_reset(void);

/* How many so far. */
uint64_t refusal_total(int reason);

/* The reason's label ("full", "per_address_connects", ...). */
const char *refusal_name(int reason);

#endif
