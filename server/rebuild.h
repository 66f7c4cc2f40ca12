/* rebuild.h - rebuilding a game from its summary off the loop.
 *
 * A watcher joining a long game, a login taking a game over or resuming a
 * saved one must rebuild the game from its keys: a million keys take
 * seconds, and the loop serves everyone. So the record player runs in libuv's
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
 * src freed, no answer).
 *
 * A summary with a snapshot (src->snap) is rebuilt from it: only the keys
 * after it are replayed, and the recorder (record) starts from the
 * snapshot's keys and checks, which src->checks must hold up to it. A
 * snapshot that does not fit the keys (another game's, past their end,
 * not after as many whole keys as it says, missing its checks or not
 * matching the check at its key, or a tail that drifts) is refused,
 * logged, and the game replayed from the start. The debug log says where
 * each rebuild started and how many keys it replayed. */
int rebuild_start(srv_t *srv, uint64_t to, int64_t job, msg_game_t *src,
                  int record);

#endif
