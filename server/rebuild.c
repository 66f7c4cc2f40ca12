/* rebuild.c - the record player on the rebuilds' threads (rebuild.h). */
#include "rebuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

typedef struct job {
    rbp_job_t base;            /* first: the pool's part */
    chan_t *reply;             /* the asker's loop's inbox */
    int64_t n;
    int record;
    msg_rebuilt_t *out;        /* owned until run moves it into answer */
    smsg_t *answer;            /* made with the job, so that a job run to
                                  its end always has an answer to post:
                                  nothing on the pool's thread can fail to
                                  make it (the asker waits for it with no
                                  deadline); posted by deliver */
    uint32_t replayed;         /* keys fed */
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

/* Marks a replay stopped by a cancel (not a record_err). */
#define CANCELLED 1

/* Steps pl to the end, REBUILD_CHUNK keys at a time, stopping when the job
 * is cancelled. Returns RECORD_OK, a record_err, or CANCELLED. */
static int replay(job_t *j, rbp_t *pool, record_player_t *pl)
{
    int rc;
    while ((rc = record_player_run(pl, REBUILD_CHUNK)) == 1)
        if (rbp_cancelled(pool, &j->base))
            return CANCELLED;
    return rc;
}

/* On a pool thread: from the snapshot, only the tail. Returns RECORD_OK
 * (r->game set, r->rec too if a recorder was asked), CANCELLED, or why not
 * (nothing set). */
static int from_snapshot(job_t *j, rbp_t *pool)
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
        err = replay(j, pool, &pl);
    j->replayed = pl.fed > g->snap_keys ? pl.fed - g->snap_keys : 0;
    rbp_count_keys(pool, j->replayed);
    if (err == RECORD_OK) {
        r->game = record_player_take(&pl);
    } else if (j->record) {
        record_free(&r->rec);
        memset(&r->rec, 0, sizeof r->rec);
    }
    record_player_free(&pl);
    return err;
}

/* Every key from the start. Returns as from_snapshot. */
static int from_start(job_t *j, rbp_t *pool)
{
    msg_rebuilt_t *r = j->out;
    const msg_game_t *g = r->src;
    record_player_t pl;
    int err = record_player_start_raw(&pl, g->seed, &g->opt, g->keys.data,
                                      g->keys.len, g->checks.data,
                                      g->checks.len,
                                      j->record ? &r->rec : NULL);
    if (err == RECORD_OK)
        err = replay(j, pool, &pl);
    if (err == RECORD_OK)
        r->game = record_player_take(&pl);
    j->replayed = pl.fed;
    rbp_count_keys(pool, j->replayed);
    record_player_free(&pl);
    return err;
}

/* The rebuilt game (or why not) into the answer made with the job, so
 * that deliver only posts it. */
static void fill_answer(job_t *j)
{
    j->answer->a = j->n;
    j->answer->rebuilt = j->out; /* moved */
    j->out = NULL;
}

/* On a pool thread: only the job's own memory. */
static void run(rbp_job_t *base, rbp_t *pool)
{
    job_t *j = (job_t *)base;
    msg_rebuilt_t *r = j->out;
    const msg_game_t *g = r->src;
    unsigned long long to = (unsigned long long)base->session;
    const char *refused = NULL;
    int err = 0;
    if (g->snap) {
        refused = misfit(g);
        if (!refused) {
            err = from_snapshot(j, pool);
            if (err == RECORD_OK || err == CANCELLED)
                goto done;
            refused = record_strerror(err);
        }
        log_error("rebuild for session %llu: the snapshot at key %u refused "
                  "(%s): replayed from the start", to,
                  (unsigned)g->snap_keys, refused);
    }
    err = from_start(j, pool); /* no snapshot, or one that does not fit */
done:
    if (err == CANCELLED) {
        log_debug("rebuild for session %llu: cancelled after %u keys", to,
                  (unsigned)j->replayed);
        return;
    }
    r->err = err;
    if (g->snap && !refused)
        log_debug("rebuild for session %llu: from the snapshot at key %u, "
                  "%u keys replayed", to, (unsigned)g->snap_keys,
                  (unsigned)j->replayed);
    else
        log_debug("rebuild for session %llu: from the start, %u keys "
                  "replayed", to, (unsigned)j->replayed);
    fill_answer(j);
}

/* Under the pool's lock: into the asker's loop's inbox. */
static void deliver(rbp_job_t *base)
{
    job_t *j = (job_t *)base;
    if (chan_post(j->reply, j->answer) == 0)
        j->answer = NULL;
}

static void drop(rbp_job_t *base)
{
    job_t *j = (job_t *)base;
    msg_free(j->answer); /* not delivered: the game goes with it */
    msg_rebuilt_free(j->out);
    free(j);
}

int rebuild_start(rbp_t *pool, chan_t *reply, uint64_t to, const char *ip,
                  int64_t job, msg_game_t *src, int record)
{
    if (!pool) { /* the host has no rebuilds' threads */
        msg_game_free(src);
        return RBP_CLOSED;
    }
    job_t *j = calloc(1, sizeof *j);
    msg_rebuilt_t *r = calloc(1, sizeof *r);
    smsg_t *answer = msg_new(MSG_REBUILT, 0, to, NULL);
    if (!j || !r || !answer) {
        free(j);
        free(r);
        msg_free(answer);
        msg_game_free(src);
        return REBUILD_NOMEM;
    }
    j->answer = answer;
    r->src = src;
    j->base.session = to;
    snprintf(j->base.ip, sizeof j->base.ip, "%s", ip ? ip : "");
    j->base.exempt = ip == NULL;
    j->base.run = run;
    j->base.deliver = deliver;
    j->base.drop = drop;
    j->reply = reply;
    j->n = job;
    j->record = record;
    j->out = r;
    int rc = rbp_submit(pool, &j->base);
    if (rc != RBP_OK)
        drop(&j->base);
    return rc;
}

void rebuild_cancel(rbp_t *pool, uint64_t to)
{
    if (pool)
        rbp_cancel(pool, to);
}

const char *rebuild_refusal(int rc)
{
    switch (rc) {
    case RBP_ADDR:
        return "Too many games are being rebuilt for your address: try again "
               "in a moment.";
    case RBP_FULL:
        return "The server is busy rebuilding games: try again in a moment.";
    case RBP_CLOSED:
        return "The server is shutting down.";
    default:
        return "Out of memory: try again later.";
    }
}
