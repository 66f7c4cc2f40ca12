/* fd_budget.c - descriptors kept back from players (fd_budget.h). */
#include "fd_budget.h"

#include <sys/resource.h>

#include "log.h"
#include "refusals.h"

void fdb_init(fd_budget_t *b, int reserve)
{
    struct rlimit rl;
    b->limit = 1024;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        b->limit = rl.rlim_cur > 1 << 30 ? 1 << 30 : (int)rl.rlim_cur;
    if (reserve <= 0) {
        reserve = b->limit / 20;
        if (reserve < 32)
            reserve = 32;
    }
    if (reserve > b->limit / 2)
        reserve = b->limit / 2;
    b->reserve = reserve;
    b->refused = 0;
    b->logged_ms = 0;
    log_info("descriptors: limit %d, %d kept in reserve: players are "
             "accepted up to descriptor %d", b->limit, b->reserve,
             b->limit - b->reserve);
}

int fdb_admit(fd_budget_t *b, int fd, uint64_t now_ms)
{
    if (fd < b->limit - b->reserve)
        return 0;
    refusal_count_quietly(REFUSE_FD_BUDGET); /* its own line, below */
    b->refused++;
    if (b->logged_ms == 0 || now_ms - b->logged_ms >= 10000) {
        log_error("refused: descriptors nearly all used (%d of %d, %d kept "
                  "in reserve): %u connection%s closed at once; raise the "
                  "limit (docs/hosting.md)", fd + 1, b->limit, b->reserve,
                  b->refused, b->refused == 1 ? "" : "s");
        b->refused = 0;
        b->logged_ms = now_ms ? now_ms : 1;
    }
    return -1;
}
