/* ssh_play.h - an SSH player's connection on the worker loop that holds
 * its session, after the bridge's thread (ssh_conn.h) has done the key
 * exchange and the authentication (docs/architecture.md, "Transports").
 *
 * The thread takes the libssh session out of its ssh_event and hands it
 * over, whole, in the worker's MSG_CONNECTION (msg_accept_t: conn, io);
 * from then on only the worker's thread touches it. The worker watches
 * the socket with a uv_poll (on a dup of it: libssh closes its own when
 * the client goes, and the poll's descriptor must not be reused under
 * it), and at each wakeup lets libssh read, decrypt and answer
 * (rekeying included) in a non-blocking ssh_event_dopoll of this session
 * alone. The player's keys become ssh_link.h's records, handed straight
 * to the session's transport; its frames go to ssh_channel_write: a key
 * is decrypted, played and its frame encrypted on one thread.
 *
 * Backpressure: a frame goes into the channel while the client's window
 * has room and libssh's socket buffer is empty; the rest is kept here and
 * counted by the session as queued (output_highwater, output_limit,
 * write_timeout, as for telnet). */
#ifndef ROGUE_SSH_PLAY_H
#define ROGUE_SSH_PLAY_H

#include <libssh/libssh.h>
#include <stddef.h>

#include "byte_io.h"

typedef struct ssh_play ssh_play_t;

/* On the bridge's thread: the connection's session (out of every
 * ssh_event), its channel, and the records the session reads first
 * (ssh_link.h: the terminal, the locale, the window, 'G', and any keys
 * that came before the hand-over; copied); eof: the client has closed
 * its end already (the session starts, then ends). NULL on OOM (nothing
 * taken). */
ssh_play_t *ssh_play_new(ssh_session session, ssh_channel chan,
                         const char *setup, size_t setup_len, int eof);

/* The table the session calls (byte_io.h). */
extern const byte_io_t ssh_play_io;

#endif
