/* rebuild.c - the record player in libuv's thread pool (rebuild.h). */
#include "rebuild.h"

#include <stdlib.h>

#include "log.h"

typedef struct job {
    uv_work_t req;
    srv_t *srv;
    uint64_t to;
    int64_t n;
    int record;
    msg_rebuilt_t *out;  /* owned until posted */
} job_t;

/* On a pool thread: only the job's own memory. */
static void work(uv_work_t *req)
{
    job_t *j = req->data;
    msg_rebuilt_t *r = j->out;
    const msg_game_t *g = r->src;
    record_player_t pl;
    game_t *snap = !j->record && g->snap ? game_clone(g->snap) : NULL;
    if (snap) /* only the tail since the latest snapshot */
        r->err = record_player_start_at(&pl, snap, g->snap_keys, g->keys.data,
                                        g->keys.len, g->snap_pos,
                                        g->checks.data, g->checks.len);
    else
        r->err = record_player_start_raw(&pl, g->seed, &g->opt, g->keys.data,
                                         g->keys.len, g->checks.data,
                                         g->checks.len,
                                         j->record ? &r->rec : NULL);
    if (r->err == RECORD_OK)
        r->err = record_player_run(&pl, 0);
    if (r->err == RECORD_OK)
        r->game = record_player_take(&pl);
    record_player_free(&pl);
}

static void after(uv_work_t *req, int status)
{
    job_t *j = req->data;
    if (!j->record && j->out->src->snap)
        log_debug("rebuild for session %llu: from the snapshot at key %u",
                  (unsigned long long)j->to, (unsigned)j->out->src->snap_keys);
    smsg_t *m = msg_new(MSG_REBUILT, 0, j->to, NULL);
    if (!m || status != 0) {
        log_error("rebuild for session %llu: %s", (unsigned long long)j->to,
                  m ? uv_strerror(status) : "out of memory");
        msg_free(m);
        msg_rebuilt_free(j->out);
        free(j);
        return;
    }
    m->a = j->n;
    m->rebuilt = j->out;
    srv_post(j->srv, m);
    free(j);
}

int rebuild_start(srv_t *srv, uint64_t to, int64_t job, msg_game_t *src,
                  int record)
{
    job_t *j = calloc(1, sizeof *j);
    msg_rebuilt_t *r = calloc(1, sizeof *r);
    if (!j || !r) {
        free(j);
        free(r);
        msg_game_free(src);
        return -1;
    }
    r->src = src;
    j->srv = srv;
    j->to = to;
    j->n = job;
    j->record = record;
    j->out = r;
    j->req.data = j;
    if (uv_queue_work(srv->loop, &j->req, work, after) != 0) {
        msg_rebuilt_free(r);
        free(j);
        return -1;
    }
    return 0;
}
