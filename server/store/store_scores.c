/* store_scores.c - the hall of fame (store.h's store_scores): the best
 * games and a player's own, read on the database thread in a batch like
 * any request. store_impl.h tells how a request moves. */
#include <stdio.h>
#include <stdlib.h>

#include "store_impl.h"

static int scores_db(store_t *st, req_t *r, int ok)
{
    if (!ok || sdb_scores(st->db, r->limit, r->name[0] ? r->name : NULL,
                          r->scores) != 0)
        r->scores->status = STORE_ERROR;
    r->status = r->scores->status;
    r->phase = PH_DONE;
    return 0;
}

static void scores_answer(req_t *r)
{
    r->cb.scores(r->ctx, r->scores);
}

static const store_call_t scores_call = {
    .name = "scores", .db = scores_db, .answer = scores_answer,
};

int store_scores(store_t *st, int n, const char *player, store_scores_cb cb,
                 void *ctx)
{
    req_t *r = store_req_new(st, &scores_call, ctx);
    if (!r)
        return -1;
    r->scores = calloc(1, sizeof *r->scores);
    if (!r->scores) {
        store_req_drop(r);
        return -1;
    }
    r->cb.scores = cb;
    r->limit = n < 0 ? 0 : n > STORE_TOP_MAX ? STORE_TOP_MAX : n;
    if (player)
        snprintf(r->name, sizeof r->name, "%.*s", ACCT_NAME_MAX, player);
    store_db_submit(st, r);
    return 0;
}
