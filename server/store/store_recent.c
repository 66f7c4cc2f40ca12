/* store_recent.c - the finished games newest first (store.h's
 * store_recent), for the site's feeds: a read through the backend's table
 * (sdb_recent), on the database thread like the hall of fame. */
#include <stdlib.h>

#include "store_impl.h"

static int recent_db(store_t *st, req_t *r, int ok)
{
    store_recent_t *out = r->out;
    if (!ok || sdb_recent(st->db, r->id, r->limit, out) != 0)
        out->status = STORE_ERROR;
    r->status = out->status;
    r->phase = PH_DONE;
    return 0;
}

static void recent_answer(req_t *r)
{
    store_recent_cb cb = (store_recent_cb)r->cb.any;
    if (r->out) {
        cb(r->ctx, r->out);
        return;
    }
    store_recent_t none = { .status = r->status };
    cb(r->ctx, &none);
}

static const store_call_t recent_call = {
    .name = "recent", .db = recent_db, .answer = recent_answer,
};

int store_recent(store_t *st, int64_t after, int n, store_recent_cb cb,
                 void *ctx)
{
    req_t *r = store_req_new(st, &recent_call, ctx);
    if (!r)
        return -1;
    r->cb.any = (void (*)(void))cb;
    r->out = calloc(1, sizeof(store_recent_t));
    if (!r->out) {
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
