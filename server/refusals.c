/* refusals.c - connections turned away, by reason (refusals.h). */
#include "refusals.h"

#include <stdatomic.h>

static atomic_uint_fast64_t counts[REFUSE_NREASONS];

static const char *const names[REFUSE_NREASONS] = {
    [REFUSE_FULL] = "full",
    [REFUSE_ADDR_CONNECTS] = "per_address_connects",
    [REFUSE_ADDR_SESSIONS] = "per_address_sessions",
    [REFUSE_BANNED] = "banned",
    [REFUSE_FD_BUDGET] = "fd_budget",
    [REFUSE_PROXY] = "proxy_header",
    [REFUSE_SLOW] = "no_request_in_time",
    [REFUSE_BAD_HTTP] = "bad_http",
    [REFUSE_SSH_GUARD] = "ssh_guard",
    [REFUSE_STARTUPS] = "startups",
};

void refusal_count(int reason)
{
    if (reason >= 0 && reason < REFUSE_NREASONS)
        atomic_fetch_add(&counts[reason], 1);
}

uint64_t refusal_total(int reason)
{
    if (reason < 0 || reason >= REFUSE_NREASONS)
        return 0;
    return (uint64_t)atomic_load(&counts[reason]);
}

const char *refusal_name(int reason)
{
    return reason >= 0 && reason < REFUSE_NREASONS ? names[reason] : "?";
}
