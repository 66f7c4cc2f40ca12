/* site_dump.c - a finished game's record replayed in libuv's thread pool
 * for its page's character dump (site_dump.h). */
#include "site_dump.h"

#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "log.h"
#include "record.h"
#include "session.h"

typedef struct site_dump {
    uv_work_t req;
    srv_t *srv;
    /* Loop thread only: the session to answer, NULL once it is freed. */
    struct sess *sess;
    site_dump_fn done;
    int64_t game_id;
    store_game_t row;
    /* The pool's, until the answer: the record (a copy) and what it made. */
    void *bytes;
    size_t len;
    int err;
    uint32_t replayed;         /* keys fed, for the log */
    char *text;                /* the dump (err RECORD_OK) */
} site_dump_t;

/* On a pool thread: only the job's own memory. Decodes the record, replays
 * it to its end and writes the core's dump of that game. */
static void work(uv_work_t *req)
{
    site_dump_t *j = req->data;
    record_t r;
    j->err = record_decode(j->bytes, j->len, &r);
    if (j->err != RECORD_OK) {
        record_free(&r);
        return;
    }
    record_player_t pl;
    j->err = record_player_start(&pl, &r, NULL); /* another core's: EVERSION */
    if (j->err == RECORD_OK)
        j->err = record_player_run(&pl, 0); /* 0: the end, all checked */
    j->replayed = pl.fed;
    if (j->err == RECORD_OK) {
        /* (the row's cause: a game the record leaves alive ended by a
         * disconnect or a stop) */
        size_t n = game_dump(pl.game, j->row.cause, NULL, 0);
        j->text = malloc(n + 1);
        if (j->text)
            game_dump(pl.game, j->row.cause, j->text, n + 1);
        else
            j->err = RECORD_ENOMEM;
    }
    record_player_free(&pl);
    record_free(&r);
}

static void job_free(site_dump_t *j)
{
    free(j->bytes);
    free(j->text);
    free(j);
}

/* On the loop: the answer to the session if it is still there. */
static void after(uv_work_t *req, int status)
{
    site_dump_t *j = req->data;
    j->srv->site_dumps--;
    if (status != 0) {
        log_error("site: game %lld's dump: %s", (long long)j->game_id,
                  uv_strerror(status));
        j->err = RECORD_ENOMEM;
    } else if (j->err != RECORD_OK) {
        log_info("site: game %lld's dump cannot be made: %s after %u keys",
                 (long long)j->game_id, record_strerror(j->err),
                 (unsigned)j->replayed);
    } else {
        log_debug("site: game %lld's dump made off the loop, %u keys "
                  "replayed", (long long)j->game_id, (unsigned)j->replayed);
    }
    struct sess *s = j->sess;
    if (s) {
        s->site_req.dump = NULL;
        s->site_req.cancel = NULL;
        if (!sess_closing(s))
            j->done(s, j->game_id, &j->row, j->err,
                    j->err == RECORD_OK ? j->text : NULL);
    }
    job_free(j);
}

int site_dump_start(struct sess *s, int64_t game_id, const store_game_t *row,
                    const void *bytes, size_t len, site_dump_fn done)
{
    srv_t *srv = s->srv;
    if (srv->site_dumps >= srv->cfg.site_replays)
        return SITE_DUMP_BUSY;
    site_dump_t *j = calloc(1, sizeof *j);
    if (!j)
        return -1;
    j->bytes = malloc(len ? len : 1);
    if (!j->bytes) {
        free(j);
        return -1;
    }
    memcpy(j->bytes, bytes, len);
    j->len = len;
    j->srv = srv;
    j->sess = s;
    j->done = done;
    j->game_id = game_id;
    j->row = *row;
    j->req.data = j;
    if (uv_queue_work(srv->loop, &j->req, work, after) != 0) {
        job_free(j);
        return -1;
    }
    srv->site_dumps++;
    s->site_req.dump = j;
    s->site_req.cancel = site_dump_cancel;
    return 0;
}

void site_dump_cancel(struct sess *s)
{
    if (s->site_req.dump) {
        s->site_req.dump->sess = NULL;
        s->site_req.dump = NULL;
    }
    s->site_req.cancel = NULL;
}
