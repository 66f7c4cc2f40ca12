/* rebuild.h - rebuilding a game from its summary off the loop.
 *
 * A watcher joining a long game, a login taking a game over or resuming a
 * saved one must replay every key so far: a million keys take seconds,
 * and the loop serves everyone. So the record player runs in libuv's
 * thread pool, on memory only the job touches, and the result comes back
 * as a MSG_REBUILT message to the session that asked, in the render phase
 * like any message. A session that is gone by then never sees it: the
 * message is dropped and frees the game. Meanwhile the session shows
 * "One moment..." and nothing else waits. */
#ifndef ROGUE_REBUILD_H
#define ROGUE_REBUILD_H

#include <stdint.h>

#include "msg.h"
#include "server.h"

/* Starts rebuilding the game of summary src (taken) for session `to`,
 * with a recorder that goes on recording (record) or without one. The
 * answer is MSG_REBUILT with a = job. Returns 0, or -1 (out of memory:
 * src freed, no answer). */
int rebuild_start(srv_t *srv, uint64_t to, int64_t job, msg_game_t *src,
                  int record);

#endif
