/* client.h - the session-test harness: runs the real server binary
 * (srv_*, server_proc.c) and connects scripted clients to it (cl_*,
 * client.c). Linked into every tests/session/test_*.c binary.
 *
 * The server (srv_*) is ROGUED_BIN (default build/san/rogued, the ASan +
 * UBSan build) started on 127.0.0.1 with `--port 0`, a fresh data directory
 * and `--config /dev/null`; the kernel picks the port and the harness reads
 * it from the server's "listening on 127.0.0.1:PORT" log line. srv_stop
 * ends it with SIGTERM and fails the test unless it exits 0 with no
 * sanitizer or leak report in its log.
 *
 * A client (cl_*) is a TCP connection to the server with, in telnet mode, a
 * client-side libtelnet that answers as Debian's telnet (inetutils) does:
 * DO ECHO, DO SGA, WILL NAWS + SB NAWS w h, WILL TTYPE + the configured
 * name. In raw mode it negotiates nothing, as `nc` does. Everything the
 * server sends as data goes into a libvterm terminal of the client's size,
 * and the tests read what a player would see back from it.
 *
 * Nothing here sleeps and hopes: every wait polls the socket (or the log
 * file, or the process) until a condition holds or a deadline passes, and
 * returns whether it held. Server start and stop failures end the test
 * (ck_abort); waits return 0/1 so the test states what it expected.
 *
 * For a test case, add srv_tmp_setup / srv_tmp_teardown as its unchecked
 * fixture: every test's directory is then made under one directory that the
 * test runner removes at the end even when a test failed or timed out (it
 * prints the server logs of failed tests first). */
#ifndef ROGUE_TEST_CLIENT_H
#define ROGUE_TEST_CLIENT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* The ceiling for a wait (ms): it only catches a hang, so it is far above
 * what a loaded 2-core machine running the ASan build takes (docs/testing.md:
 * no test asserts how fast something happened). Waits end as soon as their
 * condition holds. */
#define CL_WAIT_MS 30000

/* --- the server ------------------------------------------------------------ */

typedef struct tsrv tsrv_t;

/* Unchecked fixture (runs in the test runner, not in the forked tests):
 * makes the directory under which srv_start makes each test's directory. */
void srv_tmp_setup(void);

/* The directory srv_tmp_setup made (removed at the suite's end, whatever
 * failed), or the temporary files' root without that fixture. */
const char *srv_tmp_base(void);

/* rm -rf path, without following symbolic links. */
void srv_remove_tree(const char *path);

/* Runs the server binary (ROGUED_BIN) once with args (a shell command
 * line, after --port 0 --bind 127.0.0.1), behind prefix (e.g. setpriv;
 * may be ""), for a server that must not start: bounded by timeout(1).
 * Its output goes to out. Returns its exit status. */
int srv_run_once(const char *prefix, const char *args, char *out, size_t len);

/* Unchecked fixture: prints the tail of the server log of every test that
 * did not stop its server (a failed or timed-out test), then removes the
 * whole directory. */
void srv_tmp_teardown(void);

/* Starts the server: ROGUED_BIN --port 0 --bind 127.0.0.1 --data-dir DIR/data
 * --config /dev/null, then the extra arguments (a NULL-terminated list of
 * strings, e.g. "--seed", "42", NULL). Its stdout and stderr go to
 * DIR/server.log. Returns once the log says "listening on 127.0.0.1:PORT";
 * ends the test (with the log) if the server exits or does not listen
 * within CL_WAIT_MS. The server dies with the test process (PDEATHSIG). */
tsrv_t *srv_start(const char *arg, ...);

/* srv_start with the extra arguments in a NULL-terminated array (for a
 * helper that adds its own to a test's). */
tsrv_t *srv_start_argv(const char *const *extra);

/* The next srv_start starts the server as a host would without a config
 * file: no --config (srv_start gives /dev/null otherwise), run from the
 * test's own directory (srv_dir: no config/server.conf there, unless the
 * test writes one), the binary named by its absolute path. */
void srv_next_without_config(void);

/* The test's directory: the server's data directory is DIR/data, and a
 * server started after srv_next_without_config runs from DIR. */
void srv_dir(const tsrv_t *s, char *out, size_t len);

/* The TCP port the server listens on. */
int srv_port(const tsrv_t *s);

/* The server's process id (its /proc entries: threads, memory). */
int srv_pid(const tsrv_t *s);

/* How many of the server's threads are named name (/proc/PID/task/TID/comm,
 * pthread_setname_np's names); NULL: all of them. */
int srv_threads_named(const tsrv_t *s, const char *name);

/* The server log so far (NUL-terminated, malloc'd; the caller frees). */
char *srv_log(const tsrv_t *s);

/* A whole file (the log, or one of the source tree: the tests run from
 * its top) as a NUL-terminated string, malloc'd; empty if unreadable. */
char *srv_read_file(const char *path);

/* 1 if the log so far contains needle, else 0. */
int srv_log_has(const tsrv_t *s, const char *needle);

/* How many times needle occurs in the log so far. */
int srv_log_count(const tsrv_t *s, const char *needle);

/* Waits until the log contains needle. Returns 1, or 0 at the deadline. */
int srv_wait_log(const tsrv_t *s, const char *needle, int timeout_ms);

/* Waits until the log contains needle n times or more. Returns 1, or 0 at
 * the deadline. */
int srv_wait_log_count(const tsrv_t *s, const char *needle, int n,
                       int timeout_ms);

/* Sends a signal to the server process (if it is still running). */
void srv_signal(tsrv_t *s, int sig);

/* 1 while the server process has not exited. */
int srv_alive(tsrv_t *s);

/* Waits up to ms for the server's process to exit by itself (an upgrade's
 * old process, say): 1 once it has, 0 if it is still alive. */
int srv_wait_exited(tsrv_t *s, int ms);

/* Waits up to ms for process pid (not the server: one it or a test
 * started) to be gone: 1 once it is, 0 at the deadline. With reaped, gone
 * is no such process (its parent, the server, must reap it); without, a
 * zombie counts too (killed, its parent gone and nobody reaping it yet). */
int srv_wait_pid_gone(int pid, int reaped, int ms);

/* Kills the server (SIGKILL, a crash: no exit status or log is checked),
 * waits for it, removes the test's directory and frees s. */
void srv_kill(tsrv_t *s);

/* Stops the server: SIGTERM (unless srv_signal sent SIGTERM or SIGINT
 * already, or it has exited), waits up to
 * CL_WAIT_MS for it to exit (SIGKILL and a failure after that), and fails
 * the test unless it exited with status 0 and its log has no "Sanitizer",
 * "runtime error" or "leak" in it. Then removes the test's directory and
 * frees s. */
void srv_stop(tsrv_t *s);

/* The server's data directory (DIR/data) into out. */
void srv_data_dir(const tsrv_t *s, char *out, size_t len);

/* `rogued ctl --data-dir DIR/data ARGS` (the operator's console; args: a
 * shell command line), bounded by timeout(1): its output (stdout and
 * stderr) into out, its exit status returned. srv_ctl_start runs it in
 * the background, srv_ctl_finish waits for it. */
int srv_ctl(const tsrv_t *s, const char *args, char *out, size_t len);
FILE *srv_ctl_start(const tsrv_t *s, const char *args);

/* `rogued --upgrade --data-dir DIR/data` with the server binary (a binary
 * upgrade to it, docs/hosting.md), bounded by timeout(1): its output into
 * out, its exit status returned. */
int srv_upgrade(const tsrv_t *s, char *out, size_t len);
/* The new process's id in that answer ("... moved to pid N"); 0: none. */
int srv_upgraded_pid(const char *out);
/* Stops the process an upgrade started (not the test's child): SIGTERM
 * by its id, then its "stopped" log line and its exit are awaited. */
void srv_stop_upgraded(tsrv_t *s, int pid);
int srv_ctl_finish(FILE *p, char *out, size_t len);
/* The keys a reload changes at once, as its answer lists them (ctl_cmds.c,
 * live_keys). */
#define LIVE_KEYS "motd, public_host, max_sessions, idle_timeout, idle_warning, " \
    "negotiation_ms, output_limit, output_highwater, write_timeout, " \
    "max_keys_per_second, keepalive, shutdown_minute_ms, ban_minute_ms"

/* Writes text into the file at path (made or emptied). */
void srv_write_file(const char *path, const char *text);
/* A new config file holding text: conf ("/tmp/rogued-ctl-conf-XXXXXX",
 * say) made unique by mkstemp. */
void srv_new_conf(char *conf, const char *text);

/* `rogued ctl ARGS` with no server of the test's named, run in directory
 * cwd with env before it (a shell's assignments, or ""), bounded by
 * timeout(1): its exit status, and what it said in out. */
int srv_ctl_in(const char *cwd, const char *env, const char *args, char *out,
               size_t len);

/* --- a client -------------------------------------------------------------- */

typedef struct tclient tclient_t;

typedef struct cl_opts {
    int raw;           /* 1: negotiate nothing, as nc (default 0: telnet) */
    int w, h;          /* terminal size (default 80x24) */
    const char *ttype; /* TTYPE answer (default "XTERM-256COLOR") */
    int refuse_naws;   /* telnet: answer DO NAWS with WONT NAWS */
    int rcvbuf;        /* > 0: SO_RCVBUF for the socket (before connect) */
    const char *src;   /* a loopback source address, "127.0.0.2" (default:
                          the kernel's, 127.0.0.1) */
    int web;           /* 1: the browser's protocol on the http port: the
                          WebSocket upgrade and the size message are sent
                          at connect, keys go in binary messages, and the
                          screen bytes are taken out of the server's
                          messages (cl_sync is not available) */
    const char *const *ttypes; /* telnet: the TTYPE answers round by round
                          (NULL-ended; the last is repeated, as a client
                          ends its list), instead of ttype */
    const char *resume; /* web: sent as "resume T" before the size (a kept
                          guest's game's token) */
    int hold_size;     /* web: the size message is not sent at connect
                          (cl_web_size sends it): the page's start held */
    const char *environ; /* telnet: offer NEW-ENVIRON at once (IAC WILL, as
                          PuTTY does) and answer the server's SEND with
                          these "NAME=value" lines ('\n' between), each a
                          USERVAR, whatever was asked */
    const char *ws_path; /* web: the WebSocket's path and query (default
                          "/ws"; "/ws?watch=ID": a site page's terminal) */
} cl_opts_t;

/* One screen cell as the terminal shows it. Colours: 0..255 a palette
 * index (0-7 normal, 8-15 bright), -1 the terminal's default, -2 RGB. */
typedef struct cl_cell {
    uint32_t ch;       /* ' ' for an empty cell */
    int fg, bg;
    int bold, underline, reverse;
    uint32_t fg_rgb, bg_rgb; /* 0xRRGGBB where fg or bg is -2 (RGB) */
} cl_cell_t;

/* A TCP port free now on 127.0.0.1, below the kernel's ephemeral range
 * and not given before in this process, for a listener the test names
 * itself (the browser's, SSH's or /metrics' port). */
int cl_free_port(void);

/* A socket listening on 127.0.0.1:port that accepts nothing, as another
 * program holding the port would (the test closes it). Close-on-exec, so
 * that a server the test starts does not hold it too; SO_REUSEADDR, so
 * that a port just freed (TIME_WAIT) can still be held. */
int cl_hold_port(int port);

/* Connects to 127.0.0.1:port (o may be NULL for the defaults). Ends the
 * test if the connection cannot be made. Sends nothing yet: a telnet
 * client answers the server's options when it reads them. */
tclient_t *cl_connect(int port, const cl_opts_t *o);

/* A terminal alone, w x h, with no connection: its bytes come from the
 * test (cl_feed), e.g. an SSH channel's output (libssh's client). The
 * screen readers (cl_row, cl_turn, cl_stream_*) and cl_set_size work on
 * it; cl_close frees it. */
tclient_t *cl_screen_new(int w, int h);
void cl_feed(tclient_t *c, const void *data, size_t len);

/* Web mode: a masked client frame of `opcode` (1 text, 2 binary, 8 close)
 * carrying len bytes of data, written into out (room for len + 14).
 * Returns its length. For tests that write frames with cl_send_raw. */
size_t cl_ws_frame(unsigned char *out, int opcode, const void *data,
                   size_t len);

/* Web mode: the code of the server's close frame (1000 a goodbye, 1001
 * the server going away; 1005 for a frame without one), 0 before one. */
int cl_web_close_code(const tclient_t *c);

/* The client's own port (its socket's), for the kernel's table of
 * sockets (sock_table.h); -1 if it has none. */
int cl_local_port(const tclient_t *c);

/* Web mode: the token of the last "token T" message ("" if none came,
 * or if the last was "token " alone, which tells the page to forget it). */
const char *cl_web_token(const tclient_t *c);

/* Web mode: the "state NAME" messages' names so far, each followed by a
 * space ("lobby playing lobby "), "" if none came. */
const char *cl_web_states(const tclient_t *c);

/* Web mode: how many "pong" text messages came (the answers to the
 * page's heartbeat, "ping"). */
int cl_web_pongs(const tclient_t *c);

/* Web: whether the server's 101 answer has been read (cl_wait on it), and
 * the size message held at connect (cl_opts_t.hold_size), sent now. */
int cl_web_open(tclient_t *c, void *arg);
void cl_web_size(tclient_t *c);

/* Closes the connection and frees the client (NULL is fine). */
void cl_close(tclient_t *c);

/* Resets the connection (RST, not FIN: the server's next write to it
 * fails) and frees the client. */
void cl_abort(tclient_t *c);

/* Reads and handles whatever the server has sent, waiting up to timeout_ms
 * (0: only what has already arrived). Returns 1 if bytes arrived, 0 if
 * none, -1 once the connection is closed (EOF or reset). */
int cl_pump(tclient_t *c, int timeout_ms);

/* Sends bytes as a key press sends them: through libtelnet (IAC doubled)
 * in telnet mode, as they are in raw mode. Returns 0, or -1 if the
 * connection is closed or the bytes could not be written in time. */
int cl_send(tclient_t *c, const void *data, size_t len);

/* cl_send of a NUL-terminated string. */
int cl_send_str(tclient_t *c, const char *s);

/* Writes bytes to the socket unchanged (no telnet escaping: garbage,
 * floods, hand-made telnet commands), reading what the server sends
 * meanwhile when `read_meanwhile` (otherwise never reading: a client that
 * does not read). Stops at the end, when the connection closes, or at the
 * deadline. Returns the number of bytes written. */
size_t cl_send_raw(tclient_t *c, const void *data, size_t len,
                   int read_meanwhile, int timeout_ms);

/* Telnet mode: makes sure everything the server sent for what this client
 * sent before has arrived and been handled, and takes every frame marker
 * so far. It sends IAC DO <an option nobody supports> twice, each time
 * waiting for the IAC WONT answer: the server handles a read in one go and
 * answers in order, so once the second answer is in, the output of every
 * earlier read is too, and the second read (no key in it) made no frame.
 * Returns 1, or 0 at the deadline, on close, or in raw mode. */
int cl_sync(tclient_t *c, int timeout_ms);

/* The option cl_sync asks for; its answers are counted, so no test sends
 * IAC DO CL_PING_OPT itself. */
#define CL_PING_OPT 99
/* An option the server refuses as it refuses cl_sync's, for a test's flood
 * of requests: with the flood's answers counted too, cl_sync took the
 * first for its own and returned with megabytes still owed (seen on a
 * loaded machine: 667,855 answers not yet read). */
#define CL_FLOOD_OPT 98

/* A key and its answer (telnet mode): cl_sync, then sends the key's bytes,
 * waits for a frame marker (IAC NOP) and syncs again, so that the key's
 * whole answer is in even when a frame the server drew of itself came
 * first, and every frame so far is taken. Returns 1, or 0 if no frame came
 * by the deadline (a key over the rate limit gets no answer) or the
 * connection closed, also just after the frame: a key whose answer ends
 * the connection is sent with cl_send_str, then cl_wait_eof. */
int cl_key(tclient_t *c, const char *bytes);

/* Waits until a frame marker arrives that no earlier wait has taken.
 * Returns 1, or 0 at the deadline or on close. */
int cl_wait_frame(tclient_t *c, int timeout_ms);

/* Frame markers received so far. */
int cl_frames(const tclient_t *c);

/* The terminal is resized to w x h and, if NAWS was agreed, the new size
 * is sent (as a real terminal and telnet client do: resize, then NAWS). */
void cl_resize(tclient_t *c, int w, int h);

/* A monotonic clock in ms, for a test's own deadlines around cl_pump
 * (which returns early when data comes). */
int64_t cl_now_ms(void);

/* Resizes the terminal to w x h without telling the server (for a test
 * that sends the sizes itself, e.g. many in one write). */
void cl_set_size(tclient_t *c, int w, int h);

/* Sends IAC SB NAWS w h IAC SE (escaped) without resizing the terminal. */
int cl_send_naws(tclient_t *c, int w, int h);

/* Waits until pred(c, arg) is true. Returns 1, or 0 at the deadline or
 * when the connection closed with pred still false. */
int cl_wait(tclient_t *c, int (*pred)(tclient_t *c, void *arg), void *arg,
            int timeout_ms);

/* Waits until text is on the screen (within one row). Returns 1 or 0. */
int cl_wait_text(tclient_t *c, const char *text, int timeout_ms);

/* Waits until text is no longer on the screen. Returns 1 or 0. */
int cl_wait_no_text(tclient_t *c, const char *text, int timeout_ms);

/* Waits until the game is on screen: one '@' in the map rows and the
 * status line ("HP:") in the last row; in telnet mode also the frame
 * marker that ends that screen (all markers so far are then taken). If the
 * lobby comes first, it plays as a guest under the name offered (p, then
 * Enter).
 * Returns 1 or 0. */
int cl_wait_ready(tclient_t *c, int timeout_ms);

/* Waits until the server has closed the connection: reads (and handles)
 * everything up to EOF or a reset. Returns 1 or 0. */
int cl_wait_eof(tclient_t *c, int timeout_ms);

/* 1 once the connection is closed: EOF or reset read, or a write failed
 * (the server has closed it; what it sent before can still be read). */
int cl_closed(const tclient_t *c);

/* 1 if text is on the screen now (within one row). */
int cl_screen_has(const tclient_t *c, const char *text);

/* The receive window c's side of the connection last advertised, in
 * bytes (0: shut, the server may send nothing more until c reads), or -1
 * when the kernel does not say (before Linux 6.2). */
long cl_rcv_window(const tclient_t *c);

/* 1 if text occurs in the data received so far (after telnet, before the
 * terminal; the last 1 MiB is kept). */
int cl_stream_has(const tclient_t *c, const char *text);

/* Where text first occurs in the data received so far (as
 * cl_stream_has; the text after it runs to the next NUL byte), or NULL.
 * Valid until c reads again or is closed. */
const char *cl_stream_find(const tclient_t *c, const char *text);

/* How many times text (not empty) occurs in the data received so far
 * (the last 1 MiB, as cl_stream_has), not overlapping. */
int cl_stream_count(const tclient_t *c, const char *text);

/* Row y of the screen as text: one byte per cell (non-ASCII as '?'),
 * trailing blanks removed. Returns buf ("" outside the screen). */
char *cl_row(const tclient_t *c, int y, char *buf, size_t len);

/* The character at (x, y), ' ' if empty, 0 outside the screen. */
uint32_t cl_at(const tclient_t *c, int x, int y);

/* The cell at (x, y); returns 0, or -1 outside the screen. */
int cl_cell(const tclient_t *c, int x, int y, cl_cell_t *out);

/* Finds ch in the map rows (0..20, or fewer on a short screen). Returns
 * how many there are; *x, *y get the first (row by row), or -1. */
int cl_find(const tclient_t *c, uint32_t ch, int *x, int *y);

/* The turn counter of the status line (the lowest row that starts with
 * "HP:"; "Turn:N" in it), or -1. */
int cl_turn(const tclient_t *c);

/* For cl_wait: 1 once c's turn counter (cl_turn) is *(int *)arg, the turn
 * a key the test sent must reach. */
int cl_at_turn(tclient_t *c, void *arg);

/* How many NEW-ENVIRON SEND requests the server made, and TTYPE SEND
 * requests (rounds asked). */
int cl_env_asked(const tclient_t *c);
int cl_ttype_asked(const tclient_t *c);

/* The terminal size. */
int cl_w(const tclient_t *c);
int cl_h(const tclient_t *c);

/* The whole screen as text, rows joined by '\n' (malloc'd; caller frees).
 * For comparisons and failure messages. */
char *cl_dump(const tclient_t *c);

/* Compares two screens cell by cell (character, colours, bold, underline,
 * reverse). Returns 1 if equal; else 0 with the first difference
 * described in why. */
int cl_screen_equal(const tclient_t *a, const tclient_t *b, char *why,
                    size_t whylen);

/* cl_screen_equal with row `skip` left out (each client may have its own
 * line there; -1: none). */
int cl_screen_equal_but(const tclient_t *a, const tclient_t *b, int skip,
                        char *why, size_t whylen);

/* A copy of the screen's cells, to compare later with cl_snap_equal. */
typedef struct cl_snap {
    int w, h;
    cl_cell_t *cells;
} cl_snap_t;

/* Takes a snapshot of c's screen into snap (free with cl_snap_free). */
void cl_snap(const tclient_t *c, cl_snap_t *snap);

/* 1 if c's screen equals the snapshot; else 0 and why. */
int cl_snap_equal(const tclient_t *c, const cl_snap_t *snap, char *why,
                  size_t whylen);

/* Frees a snapshot's cells. */
void cl_snap_free(cl_snap_t *snap);

#endif
