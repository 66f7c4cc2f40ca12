/* site_dump.h - a finished game's character dump for its page (/game/ID),
 * made off the loop (docs/site.md, "The character dump").
 *
 * The dump is the core's (common/dump.h) of the game its record rebuilds:
 * the record is decoded and replayed to its end, every check and the final
 * hash checked, and that can be a million keys. So it runs in libuv's
 * thread pool on memory only the job touches (a copy of the record), as a
 * watcher's rebuild does (rebuild.h), and the answer comes back on the
 * loop. The job points at the session that asked until it answers; a
 * session freed before then clears that pointer (site_dump_cancel, which
 * the session calls through its site_req.cancel where the store's answers
 * are cancelled), so the answer is dropped and
 * no pointer to a session outlives it.
 *
 * Readers of one game share its dump: a page asked while that game's dump
 * is being made waits for the same job (at most SITE_DUMP_READERS a job),
 * and a loop keeps its last SITE_DUMP_KEPT answers (each dump at most
 * SITE_DUMP_KEPT_MAX bytes), so a crowd that follows one link costs one
 * replay. A finished game never changes; whether it is still there is the
 * store's answer, asked for every page before this is. A loop runs at
 * most site_replays jobs at once: a page of another game is then refused
 * (the page answers 503), never queued. */
#ifndef ROGUE_SITE_DUMP_H
#define ROGUE_SITE_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "store_types.h"

struct sess;

/* The answer, on the loop, to a session that is still there and not
 * closing: the game's id and row as given to site_dump_start, and either
 * the dump's text (NUL-ended, borrowed for the call) with err RECORD_OK,
 * or text NULL and why not: a record.h error (RECORD_EVERSION: another
 * core's game; RECORD_EDRIFT, RECORD_ECORRUPT, RECORD_EFORMAT: it does
 * not replay; RECORD_ENOMEM: out of memory, or the pool failed). */
typedef void (*site_dump_fn)(struct sess *s, int64_t game_id,
                             const store_game_t *row, int err,
                             const char *text);

enum { SITE_DUMP_BUSY = -2 };
enum { SITE_DUMP_READERS = 16, SITE_DUMP_KEPT = 8,
       SITE_DUMP_KEPT_MAX = 64 * 1024 };

/* A loop's dumps: those being made and the last ones made (site_dump.c). */
struct site_dumps;

/* 1, with the answer in *err and *text, when s's loop has kept the dump
 * of game game_id (text borrowed until the loop's next dump answers:
 * use it within the call); else 0. */
int site_dump_kept(struct sess *s, int64_t game_id, int *err,
                   const char **text);

/* Starts making the dump of game game_id (its row, and its encoded record:
 * bytes and len, copied) for session s, whose site_req.dump it sets, or
 * joins the job making that game's already; done is called once, later,
 * never inside this call. Returns 0; SITE_DUMP_BUSY when the loop runs
 * site_replays dumps already (or that game's has SITE_DUMP_READERS); -1
 * when out of memory or the pool refuses (nothing started either way).
 * One at a time a session: s must have none pending. */
int site_dump_start(struct sess *s, int64_t game_id, const store_game_t *row,
                    const void *bytes, size_t len, site_dump_fn done);

/* The session is being freed: its pending dump, if any, will answer
 * nobody. */
void site_dump_cancel(struct sess *s);

/* Frees a loop's kept dumps (srv_free, through srv->site_dumps_free: its
 * loop is closed, so no job is running). NULL: nothing. */
void site_dumps_free(struct site_dumps *d);

#endif
