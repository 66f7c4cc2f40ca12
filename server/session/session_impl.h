/* session_impl.h - what the session core's files share (session.c,
 * session_admit.c, session_input.c, session_output.c); the states include
 * session.h only. */
#ifndef ROGUE_SESSION_IMPL_H
#define ROGUE_SESSION_IMPL_H

#include "session.h"

/* session.c: closes every handle of the session; it is freed once the
 * last has closed. */
void sess_close_handles(sess_t *s);
/* session.c: sess_close, forced, because the client does not read its
 * output: its TCP socket is reset, so that the kernel drops what it holds
 * for it rather than keep trying to send it (close.reset; an SSH
 * player's io closes its own socket). */
void sess_close_unread(sess_t *s, const char *reason);

/* session_output.c: takes the loop's write buffer for this session (the
 * render phase), gives it back or frees the session's own, writes what
 * was gathered, writes the page's static file after it; the transport's
 * bytes for the socket. */
void sess_out_borrow(sess_t *s);
void sess_out_release(sess_t *s);
void sess_flush(sess_t *s);
void sess_write_static(sess_t *s);
/* Whether the client has taken none of our output for limit_ms while some
 * waits for it (the sweep's write_timeout; session_output.c). */
int sess_output_stalled(sess_t *s, uint64_t now, uint64_t limit_ms);
/* How long the sweep lets pass between two questions to the kernel about
 * what one client took, for a write_timeout of limit_ms: a second, or a
 * sixteenth of limit_ms when that is longer (session_output.c). */
uint64_t sess_stall_ask_ms(uint64_t limit_ms);
void sess_on_tc_send(void *ctx, const char *bytes, size_t n);

/* session_input.c: the socket's read callbacks, and the transport's data,
 * keys and resizes; the lobby once negotiation is over. */
void sess_on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b);
void sess_on_read(uv_stream_t *stream, ssize_t n, const uv_buf_t *b);
/* The client's bytes, however they came (sess_on_read, byte_io.h), once
 * spent from the input budget where they were read (sess_spend_input). */
void sess_on_bytes(sess_t *s, const char *p, size_t len);
/* len bytes read from the client: taken from its input budget (and
 * counted), its reading paused once the budget is spent (in_budget.h). */
void sess_spend_input(sess_t *s, size_t len);
/* Reading of the client's bytes on (1) or off (0): the socket's, or the
 * io module's (byte_io.h pause). */
void sess_in_reading(sess_t *s, int on);
/* The session's input budget's rate, in bytes a second
 * (max_input_bytes_per_second, or 16 a key of max_keys_per_second:
 * in_budget.h). */
uint32_t sess_in_rate(const sess_t *s);
/* The session's own TCP socket (not an SSH player's io, nor a moved
 * session's, whose socket the new process holds) into *fd. 1 if there
 * is one (session.c). */
int sess_own_fd(sess_t *s, uv_os_fd_t *fd);
/* What a session answers its io with (session_output.c). */
extern const struct byte_io_cb sess_io_cb;
/* One of the session's handles (or its io) is closed. */
void sess_handle_closed(sess_t *s);
void sess_on_tc_data(void *ctx, const char *bytes, size_t n);
void sess_on_tc_key(void *ctx, int key);
/* session_resize.c: a new window size, drawn within the session's
 * resize budget (resizes_per_window a resize_window_ms). */
void sess_on_tc_resize(void *ctx, int w, int h);
/* The negotiation is over: the lobby (or a kept game) takes the session
 * and what was typed meanwhile (session_input.c). */
void sess_start_lobby(sess_t *s);
void sess_start_lobby_if_negotiated(sess_t *s);

/* session_admit.c: a new session on srv's list, in S_ADMITTING: its
 * handles, clocks, buffers and the plain display until the client says
 * more. NULL when out of memory. */
sess_t *sess_new(srv_t *srv);

/* session_admit.c: the browser's HTTP and WebSocket as the session's
 * transport (s->web, allocated). Returns 0, or -1 (out of memory). */
int sess_web_init(sess_t *s);

/* session_admit.c: the first bytes of a trusted balancer's connection
 * (its PROXY header): how many of b it took, or -1 once closing. */
long sess_read_proxy_header(sess_t *s, const char *b, size_t n);

#endif
