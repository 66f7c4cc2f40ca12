/* ctl.h - the operator's console: `rogued ctl --data-dir DIR COMMAND`.
 *
 * The server listens on a Unix socket in its data directory (CTL_SOCKET,
 * mode 0600: whoever may open it is the operator) on the main thread's
 * loop. A client sends one line (within ctl_read_ms), the command and
 * its arguments; the server answers with lines of text and a last line:
 * "." when the command was done, "! why" when it was refused. Every
 * command is logged with the peer's uid (SO_PEERCRED).
 *
 * Commands that concern sessions (who, say, kick, reload) go to every
 * worker loop as messages (MSG_CTL_*, msg.h); each loop answers on the
 * host's inbox (shared.h) and the console gathers the answers: no lock is
 * held across I/O and the console never reads a session. The commands are
 * a table of function pointers (ctl_cmds.c). docs/hosting.md,
 * "Operations". */
#ifndef ROGUE_CTL_H
#define ROGUE_CTL_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "config.h"
#include "msg.h"

#define CTL_SOCKET "ctl.sock"       /* inside the data directory */
/* Room for the socket's path of any data_dir setting (CONFIG_STR_MAX). */
#define CTL_PATH_MAX (CONFIG_STR_MAX + sizeof "/" CTL_SOCKET)

struct host;
struct srv;
typedef struct ctl ctl_t;

/* A console request being answered (one client connection). */
typedef struct ctl_req ctl_req_t;

/* The console socket's path in data_dir (DIR/CTL_SOCKET) written to path
 * (n bytes): the one place that builds it, for the server, rogued ctl and
 * main's refusal to start a second server. Returns 0, or -1 when it did
 * not fit (path then cut). */
int ctl_socket_path(const char *data_dir, char *path, size_t n);

/* 1 if a server answers on the console's socket in data_dir: another
 * server runs on that directory (a socket left by one that did not stop
 * cleanly refuses the connect). */
int ctl_answers(const char *data_dir);

/* Starts the console on the host's loop (after the workers started).
 * Returns it, or NULL after logging why (the server runs without it). */
ctl_t *ctl_start(struct host *h);

/* Stops listening, answers every waiting request with a refusal, closes
 * its handles (the host's loop then ends). The requests still writing
 * finish, then free themselves. NULL is fine. */
void ctl_stop(ctl_t *c);

/* A binary upgrade (upgrade.h): the listening socket's descriptor for
 * the new process (-1: none), /metrics' likewise (the new process
 * answers on the same port, with no moment in which a scrape is
 * refused), and the socket's file is left in place when this console
 * stops (the new process listens on it). */
int ctl_listen_fd(ctl_t *c);
int ctl_metrics_fd(ctl_t *c);
void ctl_keep_socket(ctl_t *c);

/* Frees what is left once the host's loop has ended. NULL is fine. */
void ctl_free(ctl_t *c);

/* The config file reload re-reads (main.c sets it): given, the one
 * --config named (it must be there, as at start); not given, the default
 * path, read if it is there, as at start, and if it is not, reload says
 * there is no file to reload. */
void ctl_set_config_path(ctl_t *c, const char *path, int given);

/* The keys the command line set (main.c's; it outlives the console):
 * reload leaves them as they are. Not set: none. */
void ctl_set_flags(ctl_t *c, const config_flags_t *flags);

/* The file's own values as the server last read them (the defaults with
 * the file over them): main.c's at start, copied; each reload that is
 * done replaces them. reload names a key a flag or the environment sets
 * only when the file's value for it is not the one read last time. */
void ctl_set_file_values(ctl_t *c, const config_t *file);
/* ctl_set_file_values's copy: the defaults' if it was never set. */
const config_t *ctl_file_values(const ctl_t *c);

/* --- the worker loop's side (ctl_loop.c) ------------------------------------ */

/* A MSG_CTL_* message from the host to this loop (not taken). */
void ctl_loop_message(struct srv *srv, const smsg_t *m);

/* The keys `reload` changes in the running server (ctl_cmds.c's list,
 * docs/hosting.md, "Operations"): copies their values from src over dst,
 * the host's settings or a loop's own copy. */
void ctl_apply_live(config_t *dst, const config_t *src);

/* One session as `who` lists it: each loop sends its sessions' rows as
 * data (ctl_loop.c), and the console sorts them once every loop has
 * answered and formats each once (ctl_cmds.c). */
typedef struct ctl_who_row {
    uint64_t id;
    char addr[48];            /* "ip:port", cut at 47 */
    const char *transport;    /* static: the transport's name, or "-" */
    const char *state;        /* static: "lobby", "playing", ... */
    char name[21];            /* the player's, cut at 20; "" before one */
    uint64_t idle_s;          /* seconds since the session's last input */
} ctl_who_row_t;

/* --- the commands (ctl_cmds.c), for ctl_server.c ---------------------------- */

typedef struct ctl_cmd {
    const char *name;
    const char *usage;
    /* Starts the command: 0 when it has answered (ctl_req_done), 1 when
     * answers from the loops are awaited (then finish), 2 when it answers
     * later by itself. */
    int (*run)(ctl_req_t *r, const char *args);
    /* A loop's answer (MSG_CTL_LINE or MSG_CTL_END); NULL: lines are
     * appended as they come. */
    void (*answer)(ctl_req_t *r, const smsg_t *m);
    /* Every loop has answered. */
    void (*finish)(ctl_req_t *r);
} ctl_cmd_t;

extern const ctl_cmd_t ctl_cmds[];   /* ended by a NULL name */

/* `metrics` (ctl_metrics.c), which GET /metrics runs too: the figures in
 * Prometheus's text format. */
int ctl_metrics_run(ctl_req_t *r, const char *args);
void ctl_metrics_answer(ctl_req_t *r, const smsg_t *m);
void ctl_metrics_finish(ctl_req_t *r);

/* `backup FILE` (ctl_backup.c): answered later, from the thread pool. */
int ctl_backup_run(ctl_req_t *r, const char *args);

/* `ban`, `unban` (answered later, once the store has it) and `bans`
 * (ctl_bans.c). */
int ctl_ban_run(ctl_req_t *r, const char *args);
int ctl_unban_run(ctl_req_t *r, const char *args);
int ctl_bans_run(ctl_req_t *r, const char *args);

/* What a command may do with its request (ctl_server.c). */
struct host *ctl_req_host(ctl_req_t *r);
ctl_t *ctl_req_ctl(ctl_req_t *r);
void ctl_req_printf(ctl_req_t *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Sends m (to 0) to every worker loop with this request's number; returns
 * how many answers to wait for (a loop gone answers nothing). Frees m. */
int ctl_req_broadcast(ctl_req_t *r, smsg_t *m);
/* Sends m to loop `loop` only: 1 or 0 as above. Frees m on failure. */
int ctl_req_send(ctl_req_t *r, int loop, smsg_t *m);
/* The answer is complete: err NULL ("." last) or why it was refused. */
void ctl_req_done(ctl_req_t *r, const char *err);
/* A request by its number (NULL: gone), for work off the loop that
 * outlives it. */
uint64_t ctl_req_id(ctl_req_t *r);
ctl_req_t *ctl_req_find(ctl_t *c, uint64_t id);
/* The command's own data (malloc'd; freed with the request). */
void **ctl_req_data(ctl_req_t *r);
/* Per-request scratch for the command (zeroed at first). */
int64_t *ctl_req_scratch(ctl_req_t *r);

/* The countdown to a shutdown (ctl_server.c): a notice every minute
 * (shutdown_minute_ms), then host_shutdown; 0: now. A new one replaces
 * the one running. Returns -1 once the console has stopped. */
int ctl_schedule_shutdown(ctl_t *c, int minutes);
/* Calls off the countdown running, and every screen is told: the minutes
 * it had left, or 0 when none was running. */
int ctl_cancel_shutdown(ctl_t *c);
const char *ctl_config_path(ctl_t *c);
int ctl_config_given(ctl_t *c);
/* ctl_set_flags's, or NULL. */
const config_flags_t *ctl_flags(ctl_t *c);
/* When the console started, with its process: Unix time in seconds (ms
 * resolution), for /metrics. */
double ctl_started(ctl_t *c);

/* --- the client (ctl_client.c) ---------------------------------------------- */

/* `rogued ctl ...`: argv[0] is "ctl". Returns the exit status. */
int ctl_client_main(int argc, char **argv);

#endif
