/* rebuild.h - rebuilding a game from its summary off the loop.
 *
 * A watcher joining a long game, a login taking a game over or resuming a
 * saved one must rebuild the game from its keys: a million keys take
 * seconds, and the loop serves everyone. So the record player runs on the
 * rebuilds' own threads (rebuild_pool.h: not libuv's pool, which checks
 * password hashes), on memory only the job touches, and the result comes
 * back as a MSG_REBUILT message to the session that asked, through its
 * loop's inbox (a channel, chan.h), delivered in the render phase like any
 * message. A session has at most one rebuild: a new one replaces the one
 * before, and one whose session has gone or no longer waits is cancelled
 * (rebuild_cancel): dropped before it starts, or stopped between two runs
 * of REBUILD_CHUNK keys. Meanwhile the session shows "One moment..." and
 * nothing else waits. docs/architecture.md, "Rebuilding a game off the
 * loop". */
#ifndef ROGUE_REBUILD_H
#define ROGUE_REBUILD_H

#include <stdint.h>

#include "chan.h"
#include "msg.h"
#include "rebuild_pool.h"

/* Keys replayed between two checks for a cancel. */
#define REBUILD_CHUNK 4096

/* rebuild_start's answer when out of memory (the others: rbp_refusal). */
#define REBUILD_NOMEM (-4)

/* Starts rebuilding the game of summary src (taken) for session `to` of
 * address ip, with a recorder that goes on recording (record) or without
 * one; a rebuild of `to` still waiting or running is cancelled. The answer
 * is MSG_REBUILT with a = job, posted to `reply`; once started it always
 * comes (the rebuilt game, or why not) unless the rebuild is cancelled or
 * `reply` is closed: it is allocated here, so nothing on the pool's
 * thread can fail to make it. Returns 0, or RBP_FULL,
 * RBP_ADDR, RBP_CLOSED or REBUILD_NOMEM (src freed, no answer:
 * rebuild_refusal says why to the player). ip NULL: the host's own
 * rebuild (a session a binary upgrade moved here), held to neither the
 * per-address cap nor the queue's bound (rebuild_pool.h).
 *
 * A summary with a snapshot (src->snap) is rebuilt from it: only the keys
 * after it are replayed, and the recorder (record) starts from the
 * snapshot's keys and checks, which src->checks must hold up to it. A
 * snapshot that does not fit the keys (another game's, past their end,
 * not after as many whole keys as it says, missing its checks or not
 * matching the check at its key, or a tail that drifts) is refused,
 * logged, and the game replayed from the start. The debug log says where
 * each rebuild started and how many keys it replayed. */
int rebuild_start(rbp_t *pool, chan_t *reply, uint64_t to, const char *ip,
                  int64_t job, msg_game_t *src, int record);

/* The session no longer waits for its rebuild (gone, or left the state
 * that asked): nothing more is posted for it. */
void rebuild_cancel(rbp_t *pool, uint64_t to);

/* A player's sentence for rebuild_start's refusal rc. */
const char *rebuild_refusal(int rc);

#endif
