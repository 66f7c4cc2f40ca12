/* upgrade_loop.c - a worker loop's part of a binary upgrade (upgrade.h):
 * stop reading, pack each session once its output is written, hand the
 * blobs and descriptors to the host, have the store write its queue. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "log.h"
#include "session.h"
#include "store.h"
#include "upgrade.h"
#include "upgrade_impl.h"
#include "upgrade_wire.h"

static int movable(const sess_t *s)
{
    return s->admitted && !sess_closing(s) && !s->via_ssh && !s->moved;
}

void upgrade_loop_begin(srv_t *srv, uint32_t version)
{
    if (srv->upgrading || srv->shutting_down) {
        upgrade_loop_done(srv->sh->upgrade); /* nothing of ours moves */
        return;
    }
    srv->upgrading = 1;
    srv->upgrade_ms = uv_now(srv->loop);
    srv->upgrade_version = version;
    /* no key is taken from here on: what was read goes with the blob */
    for (sess_t *s = srv->sessions; s; s = s->next)
        if (movable(s))
            uv_read_stop((uv_stream_t *)&s->tcp);
    upgrade_loop_phase(srv);
}

static void on_store_written(void *ctx, int status)
{
    srv_t *srv = ctx;
    if (status != STORE_OK)
        log_error("upgrade: worker %d: the store did not write its queue; "
                  "the new process goes on from what it has", srv->index);
    srv->upgrading = 0; /* a later upgrade (this one may fail) starts anew */
    upgrade_loop_done(srv->sh->upgrade);
}

/* What a player is told as an upgrade closes a connection it cannot
 * move (SSH's, or one it failed to pack): a guest's game ends, an
 * account's is kept as at a shutdown. */
static const char *upgrade_goodbye(sess_t *s)
{
    switch (sess_play_game_fate(s)) {
    case SESS_GAME_ENDS:
        return "The server is upgrading: a guest's game ends here. "
               "Reconnect to play again.";
    case SESS_GAME_KEPT_BEHIND:
        return "The server is upgrading and may not have saved your latest "
               "turns:\r\nreconnect to go on from its last save.";
    default:
        return "The server is upgrading; reconnect to continue.";
    }
}

/* One session into the host's list, and closed here (its socket lives on
 * in the descriptor handed over): 1 moved, 0 it stays. */
static int pack(srv_t *srv, sess_t *s)
{
    upgrade_t *u = srv->sh->upgrade;
    uv_os_fd_t sock;
    upgrade_hold(u, 1);
    /* (close-on-exec: no later process may inherit it) */
    int fd = uv_fileno((uv_handle_t *)&s->tcp, &sock) == 0
                 ? fcntl(sock, F_DUPFD_CLOEXEC, 0) : -1;
    buf_t b;
    buf_init(&b, UPW_RECORD_MAX);
    int rc = fd >= 0 ? sess_upgrade_pack(s, &b, srv->upgrade_version) : -1;
    if (rc == 1 && upgrade_add(u, fd, &b) == 0) {
        sess_close_now(s, "moved by an upgrade");
        upgrade_hold(u, 0);
        return 1;
    }
    if (fd >= 0)
        close(fd);
    upgrade_hold(u, 0);
    buf_free(&b);
    if (rc == 1) /* packed but not kept: its game went with the blob */
        sess_close_away(s, "upgrade: out of memory", upgrade_goodbye(s));
    return 0;
}

void upgrade_loop_phase(srv_t *srv)
{
    int left = 0, moved = 0;
    /* a session's last frame may take upgrade_drain_ms to be written,
     * then it is packed anyway: a client that does not read must not hold
     * the upgrade (the new process paints its screen whole) */
    int late = uv_now(srv->loop) - srv->upgrade_ms >=
               (uint64_t)srv->cfg.upgrade_drain_ms;
    sess_t *next;
    for (sess_t *s = srv->sessions; s; s = next) {
        next = s->next; /* closing marks, never frees */
        if (sess_closing(s) || s->moved || !s->admitted)
            continue; /* not admitted yet: it ends with the shutdown */
        if (s->via_ssh) {
            /* its connection cannot move (the encryption's state): its
             * game is kept as at a shutdown, or a guest's ends */
            sess_close_away(s, "upgrade", upgrade_goodbye(s));
            continue;
        }
        if (s->queued > 0 && !late) { /* its last frame first, whole */
            left++;
            continue;
        }
        if (s->queued > 0)
            log_info("upgrade: session %llu packed with %zu bytes of output "
                     "unwritten after upgrade_drain_ms",
                     (unsigned long long)s->id, s->queued);
        if (pack(srv, s)) {
            moved++;
        } else if (!sess_closing(s)) {
            /* out of memory, or a browser's frame cut in two */
            sess_close_away(s, "upgrade: could not move",
                            upgrade_goodbye(s));
        }
    }
    if (moved)
        log_debug("upgrade: worker %d packed %d sessions", srv->index, moved);
    if (left > 0)
        return;
    srv->upgrading = 2;
    if (store_flush(srv->store, on_store_written, srv) != 0)
        on_store_written(srv, STORE_ERROR);
}
