/* rebuild.c - the record player in libuv's thread pool (rebuild.h). */
#include "rebuild.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"

typedef struct job {
    uv_work_t req;
    srv_t *srv;
    uint64_t to;
    int64_t n;
    int record;
    msg_rebuilt_t *out;  /* owned until posted */
    /* what the pool did, for the log line on the loop */
    const char *refused; /* why the snapshot was not used, or NULL */
    int from_snap;       /* rebuilt from the snapshot */
    uint32_t replayed;   /* keys fed */
} job_t;

/* Why a summary's snapshot cannot be the game it says it is, or NULL. The
 * rest (its keys and checks) is checked by the record player. */
static const char *misfit(const msg_game_t *g)
{
    if (g->snap->seed != g->seed ||
        memcmp(&g->snap->opt, &g->opt, sizeof g->opt) != 0)
        return "another game's";
    if (g->snap_pos > g->keys.len)
        return "past the end of the keys";
    if (g->snap->keys != g->snap_keys)
        return "not after the keys it says";
    return NULL;
}

/* On a pool thread: from the snapshot, only the tail. Returns RECORD_OK
 * (r->game set, r->rec too if a recorder was asked), or why not (nothing
 * set). */
static int from_snapshot(job_t *j)
{
    msg_rebuilt_t *r = j->out;
    const msg_game_t *g = r->src;
    record_player_t pl;
    game_t *snap = game_clone(g->snap); /* the player takes it */
    if (!snap)
        return RECORD_ENOMEM;
    int err = j->record
        ? record_player_resume_at(&pl, snap, g->snap_keys, g->keys.data,
                                  g->keys.len, g->snap_pos, g->checks.data,
                                  g->checks.len, &r->rec)
        : record_player_start_at(&pl, snap, g->snap_keys, g->keys.data,
                                 g->keys.len, g->snap_pos, g->checks.data,
                                 g->checks.len);
    if (err == RECORD_OK)
        err = record_player_run(&pl, 0);
    if (err == RECORD_OK) {
        r->game = record_player_take(&pl);
        j->replayed = pl.fed - g->snap_keys;
    } else if (j->record) {
        record_free(&r->rec);
        memset(&r->rec, 0, sizeof r->rec);
    }
    record_player_free(&pl);
    return err;
}

/* On a pool thread: only the job's own memory. */
static void work(uv_work_t *req)
{
    job_t *j = req->data;
    msg_rebuilt_t *r = j->out;
    const msg_game_t *g = r->src;
    if (g->snap) {
        j->refused = misfit(g);
        if (!j->refused) {
            int err = from_snapshot(j);
            if (err == RECORD_OK) {
                j->from_snap = 1;
                r->err = RECORD_OK;
                return;
            }
            j->refused = record_strerror(err);
        }
    }
    /* No snapshot, or one that does not fit: every key from the start. */
    record_player_t pl;
    r->err = record_player_start_raw(&pl, g->seed, &g->opt, g->keys.data,
                                     g->keys.len, g->checks.data,
                                     g->checks.len,
                                     j->record ? &r->rec : NULL);
    if (r->err == RECORD_OK)
        r->err = record_player_run(&pl, 0);
    if (r->err == RECORD_OK)
        r->game = record_player_take(&pl);
    j->replayed = pl.fed;
    record_player_free(&pl);
}

static void after(uv_work_t *req, int status)
{
    job_t *j = req->data;
    const msg_game_t *g = j->out->src;
    if (j->refused)
        log_error("rebuild for session %llu: the snapshot at key %u refused "
                  "(%s): replayed from the start", (unsigned long long)j->to,
                  (unsigned)g->snap_keys, j->refused);
    if (j->from_snap)
        log_debug("rebuild for session %llu: from the snapshot at key %u, "
                  "%u keys replayed", (unsigned long long)j->to,
                  (unsigned)g->snap_keys, (unsigned)j->replayed);
    else if (status == 0)
        log_debug("rebuild for session %llu: from the start, %u keys "
                  "replayed", (unsigned long long)j->to,
                  (unsigned)j->replayed);
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
