/* loop_close.h - closing a libuv loop that should have nothing left open.
 *
 * A loop's thread ends once every handle on it is closed; one left open is
 * a bug somewhere. loop_close says which handles they were (their types,
 * whether active or referenced, their data pointer) before it closes them
 * and the loop, so a report names the culprit instead of only EBUSY. */
#ifndef ROGUED_LOOP_CLOSE_H
#define ROGUED_LOOP_CLOSE_H

#include <uv.h>

/* Closes loop; 0 when nothing was left open. Otherwise logs each handle
 * still open as `who: left open: TYPE ...` and requests still active as
 * `who: left open: N active requests`, closes the handles, runs the loop
 * until they are closed and the requests done, closes it, and returns
 * UV_EBUSY. */
int loop_close(uv_loop_t *loop, const char *who);

#endif
