/* site_dump.c - a finished game's record replayed in libuv's thread pool
 * for its page's character dump, shared by its readers and kept for the
 * next ones (site_dump.h). */
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
    struct site_dump *next;    /* the loop's jobs being made */
    /* Loop thread only: the sessions to answer, each NULL once it is
     * freed (site_dump_cancel). */
    struct sess *readers[SITE_DUMP_READERS];
    int nreaders;
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

/* A dump made, kept for the next reader of its game. */
typedef struct kept_dump {
    int64_t game_id;           /* 0: an empty slot */
    int err;
    char *text;                /* owned; NULL unless err is RECORD_OK */
} kept_dump_t;

struct site_dumps {
    site_dump_t *jobs;         /* being made, newest first */
    int running;               /* how many: at most cfg.site_replays */
    kept_dump_t kept[SITE_DUMP_KEPT];
    unsigned next;             /* the slot the next answer replaces */
};

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

/* Keeps a job's answer for the next reader of its game, in the oldest
 * slot; a dump larger than SITE_DUMP_KEPT_MAX, or an answer that says
 * nothing of the game (out of memory), is not kept. */
static void keep(struct site_dumps *d, site_dump_t *j)
{
    if (j->err == RECORD_ENOMEM ||
        (j->text && strlen(j->text) > SITE_DUMP_KEPT_MAX))
        return;
    kept_dump_t *k = &d->kept[d->next];
    d->next = (d->next + 1) % SITE_DUMP_KEPT;
    free(k->text);
    k->game_id = j->game_id;
    k->err = j->err;
    k->text = j->text; /* the job's, now the slot's */
    j->text = NULL;
}

static void unlink_job(struct site_dumps *d, site_dump_t *j)
{
    for (site_dump_t **p = &d->jobs; *p; p = &(*p)->next) {
        if (*p == j) {
            *p = j->next;
            break;
        }
    }
    d->running--;
}

/* On the loop: the answer to each reader still there, then kept. */
static void after(uv_work_t *req, int status)
{
    site_dump_t *j = req->data;
    struct site_dumps *d = j->srv->site_dumps;
    unlink_job(d, j);
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
                  "replayed, for %d reader%s", (long long)j->game_id,
                  (unsigned)j->replayed, j->nreaders,
                  j->nreaders == 1 ? "" : "s");
    }
    for (int i = 0; i < j->nreaders; i++) {
        struct sess *s = j->readers[i];
        if (!s)
            continue;
        s->site_req.dump = NULL;
        s->site_req.cancel = NULL;
        if (!sess_closing(s))
            j->done(s, j->game_id, &j->row, j->err,
                    j->err == RECORD_OK ? j->text : NULL);
    }
    keep(d, j);
    job_free(j);
}

int site_dump_kept(struct sess *s, int64_t game_id, int *err,
                   const char **text)
{
    struct site_dumps *d = s->srv->site_dumps;
    for (int i = 0; d && i < SITE_DUMP_KEPT; i++) {
        if (d->kept[i].game_id == game_id) {
            *err = d->kept[i].err;
            *text = d->kept[i].text;
            log_debug("site: game %lld's dump as kept", (long long)game_id);
            return 1;
        }
    }
    return 0;
}

static void add_reader(site_dump_t *j, struct sess *s)
{
    j->readers[j->nreaders++] = s;
    s->site_req.dump = j;
    s->site_req.cancel = site_dump_cancel;
}

/* The job making game_id's dump on this loop, or NULL. */
static site_dump_t *job_of(struct site_dumps *d, int64_t game_id)
{
    for (site_dump_t *j = d->jobs; j; j = j->next)
        if (j->game_id == game_id)
            return j;
    return NULL;
}

int site_dump_start(struct sess *s, int64_t game_id, const store_game_t *row,
                    const void *bytes, size_t len, site_dump_fn done)
{
    srv_t *srv = s->srv;
    if (!srv->site_dumps) {
        srv->site_dumps = calloc(1, sizeof *srv->site_dumps);
        if (!srv->site_dumps)
            return -1;
        srv->site_dumps_free = site_dumps_free;
    }
    struct site_dumps *d = srv->site_dumps;
    site_dump_t *same = job_of(d, game_id);
    if (same) {
        if (same->nreaders == SITE_DUMP_READERS || same->done != done)
            return SITE_DUMP_BUSY;
        add_reader(same, s);
        log_debug("site: game %lld's dump: one more reader waits for it "
                  "(%d)", (long long)game_id, same->nreaders);
        return 0;
    }
    if (d->running >= srv->cfg.site_replays)
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
    j->done = done;
    j->game_id = game_id;
    j->row = *row;
    j->req.data = j;
    if (uv_queue_work(srv->loop, &j->req, work, after) != 0) {
        job_free(j);
        return -1;
    }
    j->next = d->jobs;
    d->jobs = j;
    d->running++;
    add_reader(j, s);
    return 0;
}

void site_dump_cancel(struct sess *s)
{
    site_dump_t *j = s->site_req.dump;
    for (int i = 0; j && i < j->nreaders; i++)
        if (j->readers[i] == s)
            j->readers[i] = NULL;
    s->site_req.dump = NULL;
    s->site_req.cancel = NULL;
}

void site_dumps_free(struct site_dumps *d)
{
    if (!d)
        return;
    for (int i = 0; i < SITE_DUMP_KEPT; i++)
        free(d->kept[i].text);
    free(d);
}
