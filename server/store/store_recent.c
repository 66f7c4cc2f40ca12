/* store_recent.c - the finished games newest first (store.h's
 * store_recent), for the site's feeds: a read through the backend's table
 * (sdb_recent), on the database thread like the hall of fame. */
#include <stdlib.h>

#include "store_impl.h"

int store_recent(store_t *st, int64_t after, int n, store_recent_cb cb,
                 void *ctx)
{
    req_t *r = store_req_new(st, OP_RECENT, ctx);
    if (!r)
        return -1;
    r->cb.recent = cb;
    r->recent = calloc(1, sizeof *r->recent);
    if (!r->recent) {
        /* owed nothing yet: answered at once as an error, through the
         * loop, like every refusal known on the spot */
        store_answer_soon(st, r, STORE_ERROR);
        return 0;
    }
    r->id = after < 0 ? 0 : after;
    r->limit = n < 0 ? 0 : n > STORE_RECENT_MAX ? STORE_RECENT_MAX : n;
    store_db_submit(st, r);
    return 0;
}

void store_recent_answer(req_t *r)
{
    if (r->recent) {
        r->cb.recent(r->ctx, r->recent);
        return;
    }
    store_recent_t none = { .status = r->status };
    r->cb.recent(r->ctx, &none);
}

void store_recent_db(store_t *st, req_t *r, int ok)
{
    if (!ok || sdb_recent(st->db, r->id, r->limit, r->recent) != 0)
        r->recent->status = STORE_ERROR;
    r->status = r->recent->status;
    r->phase = PH_DONE;
}
