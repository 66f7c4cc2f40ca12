/* config.h - the server's settings: embedded defaults, then the config file,
 * then ROGUED_* environment variables, then command-line flags, each
 * overriding the one before. Every key is one row of the table in config.c;
 * config/server.conf documents each of them. */
#ifndef ROGUE_CONFIG_H
#define ROGUE_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define CONFIG_STR_MAX 256

/* SSH's ciphers unless ssh_ciphers says otherwise: AES-GCM alone, the
 * cheapest for the server (docs/hosting.md, docs/performance.md). */
#define SSH_CIPHERS_DEFAULT "aes128-gcm@openssh.com,aes256-gcm@openssh.com"

typedef struct config {
    char bind[64];
    int port;
    char data_dir[CONFIG_STR_MAX];
    char server_name[64];
    char motd[160];          /* the lobby's message of the day */
    char public_host[128];   /* the name players reach the server by, for
                                the hints that show a command; "" */
    int max_sessions;
    int workers;             /* worker loops; 0 = one per core */
    int http_port;           /* the browser's page and WebSocket; 0 = off */
    int ssh_port;            /* SSH (ssh_bridge.h); 0 = off */
    int ssh_unauth_per_ip;   /* SSH connections not logged in, per address */
    int ssh_login_grace_ms;  /* SSH handshake and login deadline */
    int ssh_fail_delay_ms;   /* the first wait after failed key tries */
    int ssh_threads;         /* SSH's threads; 0 = min(cores, 2) */
    char ssh_ciphers[192];   /* the ciphers SSH offers, libssh's list form */
    int max_sessions_per_ip; /* sessions from one address; 0 = no limit */
    int fd_reserve;          /* descriptors kept back from players; 0 = auto */
    int connects_per_ip_per_minute; /* new connections; 0 = no limit */
    int hashes_per_ip;       /* password checks in flight; 0 = no limit */
    int hashes_per_name;     /* logins of one name being checked at once from
                                addresses it has not logged in from */
    int registrations_per_ip_per_hour; /* new accounts; 0 = no limit */
    int idle_timeout;        /* seconds; 0 = never */
    int idle_warning;        /* seconds before the idle disconnect */
    int lobby_full_idle_ms;  /* the lobby's idle clock when nearly full */
    int negotiation_ms;      /* how long to wait for telnet answers */
    int store_wait_ms;       /* how long a player waits for the store's answer
                                before being told where it waited */
    int store_lock_timeout_ms; /* how long a store statement waits for another
                                  process's lock (SQLite's busy timeout,
                                  PostgreSQL's lock_timeout) */
    int output_limit;        /* bytes queued before a client is cut off */
    int output_highwater;    /* bytes queued above which frames are skipped */
    int write_timeout;       /* seconds output may stay unread; 0 = never */
    int close_drain_ms;      /* a closing connection's last bytes may wait
                                this long for the client, then it is reset */
    int close_orphan_ms;     /* then, all with the kernel, this long to be
                                acknowledged (TCP_USER_TIMEOUT) */
    int max_keys_per_second; /* keys above this rate are dropped */
    int max_input_bytes_per_second; /* the input budget's rate (0: 16 a
                                       key of max_keys_per_second) */
    int max_cols, max_rows;  /* terminal sizes are clamped to these */
    int resizes_per_window;  /* window sizes redrawn at once per window; */
    int resize_window_ms;    /* ...more are drawn once, at its end */
    int keepalive;           /* seconds of silence before IAC NOP; 0 = never */
    int record_limit;        /* bytes of keys one game's record may hold */
    char seed[32];           /* "" = a random seed per game, else a number */
    char combat[32];         /* the ruleset of new games (combat.h names) */
    char log_level[16];      /* error, info, debug */
    char proxy_protocol[8];  /* "on": trusted balancers send a PROXY header */
    char proxy_trusted[CONFIG_STR_MAX]; /* addresses and networks */
    char ws_origins[CONFIG_STR_MAX]; /* other sites whose pages may open
                                        the WebSocket (wsconn.h) */
    int guest_min_turns;     /* a guest's shorter game is not stored */
    int guest_keep_days;     /* a guest's game is deleted after; 0 = never */
    int news_interval_ms;    /* at most one line of news this often */
    int news_min_depth;      /* a death this deep or deeper is news */
    int guest_grace;         /* seconds a dropped browser guest's game is
                                kept to be resumed; 0 = not kept */
    int guest_grace_max;     /* such games kept at once */
    int web_login_grace;     /* seconds a browser page's login holds after
                                the connection drops; 0 = it does not */
    int metrics_port;        /* /metrics (ctl.h); 0 = off */
    char metrics_addr[64];   /* its address; loopback by default */
    int ctl_read_ms;         /* a console request's line, a scrape's head */
    int shutdown_minute_ms;  /* the console's countdown step (ctl.h) */
    int ban_minute_ms;       /* a minute of a ban's duration (ctl.h) */
    int upgrade_ready_ms;    /* a binary upgrade's new process says it is
                                ready within this (upgrade.h) */
    int upgrade_drain_ms;    /* ...and a session's last frame is written
                                within this, or it is packed anyway */
    int site_replays;        /* a loop's game pages' dumps made at once */
    int startups_start;      /* connections before the lobby past which new
                                ones may be dropped (startups.h); 0 = never */
    int startups_rate;       /* ...the chance at start, in percent */
    int startups_full;       /* ...and where it reaches 100% */
    int rebuild_threads;     /* threads rebuilding games (rebuild_pool.h) */
    int rebuild_queue;       /* rebuilds waiting at most; 0 = no bound */
    int rebuild_per_ip;      /* rebuilds of one address at once; 0 = no bound */
    char store[CONFIG_STR_MAX]; /* "": the SQLite file in data_dir; else a
                                   postgresql:// URL (store.h) */
    /* Not a key (no row in config.c's table, no --set): how the server
     * was started, read with the environment (config_load_env). */
    int make_run;            /* ROGUED_MAKE_RUN set: `make run` started it,
                                so a listener is moved with PORT= or ARGS=
                                (host.c's hint), not the server's flags */
} config_t;

/* Fills c with the embedded defaults. */
void config_defaults(config_t *c);

/* Sets one key from its text value. Returns 0, or -1 with a message in err. */
int config_set(config_t *c, const char *key, const char *value, char *err,
               size_t errlen);

/* The file read when no --config names one (relative: to the directory
 * the server, or `rogued ctl`, starts in). */
#define CONFIG_DEFAULT_FILE "config/server.conf"

/* Reads `key = value` lines (# comments, blank lines). A missing file is an
 * error only if required; so is a key given twice. Returns 0, or -1 with
 * "FILE:LINE: why" in err. */
int config_load_file(config_t *c, const char *path, int required, char *err,
                     size_t errlen);

/* config_load_file, and warn(line, arg) for each value that looks as if
 * it ended in a comment (an unquoted text value with " #" in it: a
 * comment is a line of its own, so all of it is the value): "config:
 * FILE:LINE: KEY: the value holds a '#', ...". A value config_set refuses
 * that holds a '#' has it said in err too. warn may be NULL. */
int config_load_file_warn(config_t *c, const char *path, int required,
                          void (*warn)(const char *line, void *arg),
                          void *arg, char *err, size_t errlen);

/* config_load_file_warn, and given[i] (CONFIG_MAX_KEYS of them) 1 for
 * each key i the file gives (config_key_name's i), so that a caller can
 * lay the file's values over other settings from one reading (reload:
 * ctl_cmds.c). given may be NULL. */
int config_load_file_given(config_t *c, const char *path, int required,
                           void (*warn)(const char *line, void *arg),
                           void *arg, uint8_t *given, char *err,
                           size_t errlen);

/* config_load_file for key alone: every other line is skipped, a mistake
 * in it too; key's own lines are held to the same rules (`rogued ctl`
 * needs data_dir alone, ctl_client.c). */
int config_load_file_key(config_t *c, const char *path, int required,
                         const char *key, char *err, size_t errlen);

/* Applies ROGUED_<KEY> environment variables (key upper-cased), and
 * notes ROGUED_MAKE_RUN in make_run: the one place the settings' part of
 * the environment is read. Returns 0, or -1 with a message in err. */
int config_load_env(config_t *c, char *err, size_t errlen);

/* config_load_env for key's variable alone (ROGUED_ and key
 * upper-cased). */
int config_load_env_key(config_t *c, const char *key, char *err,
                        size_t errlen);

/* Calls warn(line, arg) for each variable of env (environ's form,
 * "NAME=value", NULL last) that begins with ROGUED_ but is no key
 * config_load_env reads, nor a variable the server or the project's tests
 * read on purpose (config.c lists them; the tests' ROGUED_BIN only when it
 * names a program): a mistyped one would otherwise be
 * ignored without a word. line names it and the nearest key, if one is a
 * few edits away: "config: ROGUED_PROT is not a configuration key (did you
 * mean ROGUED_PORT?); it is ignored". Returns how many. */
int config_env_strays(char *const *env,
                      void (*warn)(const char *line, void *arg), void *arg);

/* Every key's own check again (a config_t filled otherwise than by
 * config_set is held to the same rules), then the checks across keys
 * (idle_warning < idle_timeout, highwater < limit, ...). Returns 0, or -1
 * with a message in err. */
int config_validate(const config_t *c, char *err, size_t errlen);

/* Parses the seed key: returns 1 and sets *seed if one is fixed, 0 if random. */
int config_seed(const config_t *c, uint64_t *seed);

/* The combat ruleset (enum ruleset, combat.h) the combat key names; the
 * default one if it names none (config_set and config_validate refuse
 * that). */
int config_ruleset(const config_t *c);

/* 1 if proxy_protocol is on. */
int config_proxy_on(const config_t *c);

/* The ports c has the server listen on, each with the key that sets it
 * and its address (bind's; metrics_addr's for metrics_port); a port of
 * 0 is off (or, for `port`, any). config_validate refuses two of them on
 * one port; the start opens them (host.h, host_ports_free). */
typedef struct config_port {
    const char *key, *addr;
    int port;
} config_port_t;
#define CONFIG_PORTS 4
void config_ports(const config_t *c, config_port_t out[CONFIG_PORTS]);

/* The index of the key named name (config_key_name's i), or -1. */
int config_key_index(const char *name);

/* The key name is, or the nearest to it (a few edits: a mistyped flag's
 * words, "prot"), or NULL when none is near. */
const char *config_nearest_key(const char *name);
/* 1 if a is within as few edits of b as config_nearest_key allows (a
 * quarter of b's length, one at least). */
int config_words_near(const char *a, const char *b);

/* Key i's name, in the table's order; NULL past the last key. */
const char *config_key_name(size_t i);

/* 1 when a and b hold different values for key i (config_key_name's i). */
int config_key_differs(const config_t *a, const config_t *b, size_t i);

/* Key i's value in c as the console says it into out (n bytes): a
 * number as it is, a text in single quotes, a control byte in it as
 * \xNN. Returns 1, or 0 (out "") for a key whose value is not shown:
 * store, whose URL may hold a password. */
int config_key_value(const config_t *c, size_t i, char *out, size_t n);

/* 1 if key `name`'s value is never shown nor logged (the store's URL may
 * hold a password). */
int config_key_secret(const char *name);

/* Copies key i's value from src to dst (nothing past the last key). */
void config_copy_key(config_t *dst, const config_t *src, size_t i);

/* Keys at most (config.c's table is checked to fit). */
#define CONFIG_MAX_KEYS 96

/* The keys the command line set, each with the flag that set it
 * ("--port", "--set motd"; "" for a key it did not set). Flags override
 * the environment and the file at start, and `ctl reload` keeps them so
 * (ctl_cmds.c): it has to know which they are to leave them and say why. */
typedef struct config_flags {
    char by[CONFIG_MAX_KEYS][48];
} config_flags_t;

/* Notes that flag set key (a name config_set took; any other is
 * ignored). */
void config_flags_note(config_flags_t *f, const char *key, const char *flag);

/* The flag that set key i (config_key_name's i), or NULL. */
const char *config_flags_by(const config_flags_t *f, size_t i);

/* Key i's environment variable (ROGUED_ and the key upper-cased) into
 * name; returns 1 if the environment sets it, else 0. */
int config_env_sets(size_t i, char *name, size_t len);

/* Writes every key with its value and description (for --help). */
void config_print_keys(const config_t *c, void *file);

#endif
