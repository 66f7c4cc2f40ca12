/* config.c - one table of keys drives the file, the environment and --help. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* access: ROGUED_BIN names a program */
#include <uv.h>     /* uv_ip4_addr: an address as the listeners read it */

#include "combat.h"
#include "log.h"
#include "proxy_proto.h"
#include "ssh_ciphers.h"
#include "ws_sites.h"

enum key_type { K_INT, K_STR };

typedef struct key_def {
    const char *name;
    enum key_type type;
    size_t offset;
    size_t size;    /* K_STR: buffer size */
    long min, max;  /* K_INT: accepted range */
    const char *help;
    /* K_STR: NULL, or a check of the value: 0, or -1 with "key: why" in
     * err (the key's name is passed so that every message names it) */
    int (*check)(const char *key, const char *value, char *err, size_t errlen);
} key_def_t;

#define INT_KEY(n, lo, hi, h) { #n, K_INT, offsetof(config_t, n), 0, lo, hi, h, NULL }
#define STR_KEY(n, h) { #n, K_STR, offsetof(config_t, n), sizeof(((config_t *)0)->n), 0, 0, h, NULL }
#define CHECKED_KEY(n, h, c) { #n, K_STR, offsetof(config_t, n), sizeof(((config_t *)0)->n), 0, 0, h, c }

/* An unknown ruleset stops the server at start, naming the valid ones. */
static int check_combat(const char *key, const char *value, char *err,
                        size_t errlen)
{
    if (combat_ruleset_parse(value) >= 0)
        return 0;
    snprintf(err, errlen, "%s: unknown ruleset '%s' (valid: %s)", key, value,
             combat_ruleset_names());
    return -1;
}

static int check_on_off(const char *key, const char *value, char *err,
                        size_t errlen)
{
    if (strcmp(value, "on") == 0 || strcmp(value, "off") == 0)
        return 0;
    snprintf(err, errlen, "%s: '%s' is neither on nor off", key, value);
    return -1;
}

/* proxy_trust_parse's messages name proxy_trusted themselves. */
static int check_trusted(const char *key, const char *value, char *err,
                         size_t errlen)
{
    (void)key;
    proxy_trust_t t;
    return proxy_trust_parse(&t, value, err, errlen);
}

/* The store: empty (the SQLite file in data_dir) or a libpq URL. */
static int check_store(const char *key, const char *value, char *err,
                       size_t errlen)
{
    if (!value[0] || strncmp(value, "postgresql://", 13) == 0 ||
        strncmp(value, "postgres://", 11) == 0)
        return 0;
    snprintf(err, errlen, "%s: neither empty (the SQLite file in "
             "data_dir) nor a postgresql:// URL", key);
    return -1;
}

static int check_log_level(const char *key, const char *value, char *err,
                           size_t errlen)
{
    if (log_level_parse(value) >= 0)
        return 0;
    snprintf(err, errlen, "%s: '%s' is not error, info or debug", key, value);
    return -1;
}

/* Empty: a random seed per game; else what config_seed reads. */
static int check_seed(const char *key, const char *value, char *err,
                      size_t errlen)
{
    if (!value[0])
        return 0;
    char *end;
    errno = 0;
    (void)strtoull(value, &end, 10);
    if (!errno && !*end && isdigit((unsigned char)value[0]))
        return 0;
    snprintf(err, errlen, "%s: '%s' is not a number from 0 to 2^64-1", key,
             value);
    return -1;
}

/* An address to listen on is an IP address, as the listeners read it: a
 * host name is not looked up. */
static int is_ip(const char *value)
{
    struct sockaddr_in6 a6;
    struct sockaddr_in a4;
    return uv_ip4_addr(value, 0, &a4) == 0 || uv_ip6_addr(value, 0, &a6) == 0;
}

/* value is an IP address, else the error says so with hint. */
static int check_ip(const char *key, const char *value, const char *hint,
                    char *err, size_t errlen)
{
    if (is_ip(value))
        return 0;
    snprintf(err, errlen, "%s: '%s' is not an IP address (%s)", key, value,
             hint);
    return -1;
}

static int check_bind(const char *key, const char *value, char *err,
                      size_t errlen)
{
    return check_ip(key, value, "0.0.0.0: every interface; 127.0.0.1: this "
                    "machine only", err, errlen);
}

/* /metrics: loopback is the default and the advice, so it comes first. */
static int check_metrics_addr(const char *key, const char *value, char *err,
                              size_t errlen)
{
    return check_ip(key, value, "127.0.0.1: this machine only; 0.0.0.0: "
                    "every interface", err, errlen);
}

static int check_not_empty(const char *key, const char *value, char *err,
                           size_t errlen)
{
    if (value[0])
        return 0;
    snprintf(err, errlen, "%s: may not be empty", key);
    return -1;
}

/* libssh is asked (ssh_ciphers.h), whether ssh_port is on or not: a list
 * refused only once SSH is turned on would be a surprise then. */
static int check_ssh_ciphers(const char *key, const char *value, char *err,
                             size_t errlen)
{
    char why[200];
    if (ssh_ciphers_check(value, why, sizeof why) == 0)
        return 0;
    snprintf(err, errlen, "%s: %s", key, why);
    return -1;
}

static const key_def_t keys[] = {
    CHECKED_KEY(bind, "IP address to listen on (0.0.0.0: every interface; 127.0.0.1: this machine only)", check_bind),
    INT_KEY(port, 0, 65535, "TCP port (0 picks a free one and logs it)"),
    CHECKED_KEY(data_dir, "directory for the server's files (created if missing)", check_not_empty),
    STR_KEY(motd, "the lobby's message of the day (may be empty)"),
    STR_KEY(server_name, "name shown to players"),
    STR_KEY(public_host, "the name players reach the server by, in the SSH keys page's command (empty: this-host)"),
    INT_KEY(max_sessions, 1, 1000000, "players at once; more are told the server is full"),
    INT_KEY(ssh_port, 0, 65535, "SSH's port: ssh -p PORT play@HOST, a guest in the lobby (0: off)"),
    INT_KEY(ssh_unauth_per_ip, 0, 100000, "SSH connections from one address not yet logged in; one more is refused (0: no cap)"),
    INT_KEY(ssh_login_grace_ms, 100, 600000, "ms an SSH connection has for its handshake, login and shell (OpenSSH's LoginGraceTime)"),
    INT_KEY(ssh_threads, 0, 64, "threads for SSH's key exchanges and logins, at most one per core (0: one per core, at most 2)"),
    INT_KEY(ssh_fail_delay_ms, 0, 60000, "after 3 failed SSH key tries from an address (50 for a name), each next answer waits this, then twice that, up to 16 times (0: never)"),
    CHECKED_KEY(ssh_ciphers, "the ciphers SSH offers, comma-separated (the client picks the first of its own list that is here); AES-GCM alone is the cheapest for the server", check_ssh_ciphers),
    INT_KEY(http_port, 0, 65535, "the browser's port: a page with a terminal and its WebSocket, on bind's address (0: off)"),
    INT_KEY(workers, 0, 63, "worker loops, each a thread with its share of the sessions (0: one per core)"),
    INT_KEY(fd_reserve, 0, 1000000, "file descriptors kept back from players: a connection accepted past the limit minus this is closed at once, logged (0: 5% of the limit, at least 32)"),
    INT_KEY(max_sessions_per_ip, 0, 1000000, "sessions at once from one address (0: no limit)"),
    INT_KEY(connects_per_ip_per_minute, 0, 1000000, "new connections a minute from one address (0: no limit)"),
    INT_KEY(hashes_per_ip, 0, 1000, "logins and registrations from one address being checked at once (0: no limit)"),
    INT_KEY(hashes_per_name, 0, 100000, "logins of one account name being checked or waiting at once, from addresses it has never logged in from; one more is told to wait and try again (0: no limit)"),
    INT_KEY(registrations_per_ip_per_hour, 0, 1000000, "accounts one address may create an hour (0: no limit)"),
    INT_KEY(idle_timeout, 0, 604800, "seconds without a key before disconnect (0: never)"),
    INT_KEY(lobby_full_idle_ms, 0, 86400000, "when the server is 90% full, ms without a key after which a player in the lobby who is not logged in is let go (four times that for an account; 0: never)"),
    INT_KEY(idle_warning, 0, 3600, "seconds before the idle disconnect that the player is warned"),
    INT_KEY(negotiation_ms, 10, 10000, "ms to wait for a client's telnet answers"),
    INT_KEY(store_wait_ms, 10, 600000, "ms a login, registration or other lobby request waits for the store before the player is told where it waited (the store away, the password checks busy, or a login still slowed after failed ones) and may try again"),
    INT_KEY(store_lock_timeout_ms, 1, 10000, "ms a write of the store waits for a lock another process holds (SQLite's busy timeout, PostgreSQL's lock_timeout) before its batch fails; at most 10000, PostgreSQL's statement timeout"),
    INT_KEY(output_limit, 4096, 64 << 20, "bytes queued for one client before it is cut off"),
    INT_KEY(output_highwater, 1024, 64 << 20, "bytes queued above which screen updates are skipped"),
    INT_KEY(write_timeout, 0, 86400, "seconds our output may wait unread before the client is cut off (0: never)"),
    INT_KEY(close_drain_ms, 1, 600000, "ms a closing connection's last bytes (a goodbye, a browser's file) may wait for the client to take them before the connection is reset and the kernel drops them (tests set it small)"),
    INT_KEY(close_orphan_ms, 1, 600000, "ms the kernel keeps sending a closed connection's last bytes (all handed to it, not all acknowledged) before it gives them up (TCP_USER_TIMEOUT): long enough for a phone's stall, short enough that a client that never reads does not pin them for minutes"),
    INT_KEY(max_keys_per_second, 1, 100000, "keys per second per player; more are dropped"),
    INT_KEY(max_input_bytes_per_second, 0, 100000000, "a connection's input budget: bytes a second read from it, after a burst of 16 KB (or a second's worth, if more); past it its socket is read no more until the budget refills (0: 16 per key of max_keys_per_second)"),
    INT_KEY(max_cols, 80, 1000, "terminal width is clamped to this"),
    INT_KEY(max_rows, 24, 1000, "terminal height is clamped to this"),
    INT_KEY(resizes_per_window, 1, 1000000, "window size changes a client may have redrawn at once in each resize_window_ms; later ones in the window are drawn once, at its end"),
    INT_KEY(resize_window_ms, 1, 3600000, "ms of the window resizes_per_window counts in (tests set it small or large)"),
    INT_KEY(keepalive, 0, 3600, "seconds of silence before an IAC NOP (0: never)"),
    INT_KEY(record_limit, 1024, 4194304, "bytes of keys one game's record may hold (about one a key); a game that reaches it ends and is recorded whole"),
    CHECKED_KEY(seed, "empty: a random seed per game; a number: every game uses it", check_seed),
    CHECKED_KEY(combat, "combat ruleset: power, attack-defense, d10 or dice-pool", check_combat),
    CHECKED_KEY(log_level, "error, info or debug", check_log_level),
    CHECKED_KEY(proxy_protocol, "on: connections from proxy_trusted begin with a PROXY header (v1 or v2) naming the player's address", check_on_off),
    CHECKED_KEY(ws_origins, "hosts (host or host:port, comma-separated) whose pages may open the browser's WebSocket besides the server's own address (empty: only pages from the address the browser asked, its Host)", ws_origins_check), /* (as the upgrade reads it: a mistyped entry would have every page from it refused 403 unsaid) */
    CHECKED_KEY(proxy_trusted, "the balancers' addresses or networks, comma-separated (10.0.0.0/8, ::1)", check_trusted),
    INT_KEY(guest_min_turns, 0, 1000000, "a guest's game of fewer turns is not stored (0: every game)"),
    INT_KEY(guest_keep_days, 0, 36500, "days a guest's game is kept unless in the hall of fame (0: for ever)"),
    INT_KEY(news_interval_ms, 0, 86400000, "the lobby's and the front page's news: at most one line this often (0: every one)"),
    INT_KEY(news_min_depth, 1, 1000, "a death is news from this depth down (a win always is)"),
    INT_KEY(guest_grace, 0, 86400, "seconds a browser guest's game is kept after the connection drops, for the page to resume it (0: never kept)"),
    INT_KEY(guest_grace_max, 0, 100000, "guests' games kept so at once; past it a dropped guest's game ends as before"),
    INT_KEY(web_login_grace, 0, 86400, "seconds a browser page's login holds after the connection drops, for the page to come back logged in (0: it logs in again)"),
    INT_KEY(metrics_port, 0, 65535, "Prometheus's /metrics on this port (0: off)"),
    CHECKED_KEY(metrics_addr, "the IP address /metrics listens on (loopback unless you say otherwise)", check_metrics_addr),
    INT_KEY(ctl_read_ms, 10, 600000, "ms a console or /metrics connection may take to send its command line or request head before it is closed (tests set it small)"),
    INT_KEY(shutdown_minute_ms, 1, 3600000, "the console's shutdown countdown: ms between its notices, one a minute (tests set it small)"),
    INT_KEY(ban_minute_ms, 1, 3600000, "a minute of a ban's duration (ctl ban ADDRESS 30m), in ms (tests set it small)"),
    INT_KEY(upgrade_ready_ms, 10, 3600000, "ms a binary upgrade's new process may take to say it is ready before the old one goes on without it (tests set it small)"),
    INT_KEY(upgrade_drain_ms, 0, 3600000, "ms a binary upgrade waits for a session's last frame to be written before it packs the session anyway (tests set it small)"),
    INT_KEY(site_replays, 0, 1000, "finished games each worker loop replays at once for their pages' character dumps (/game/ID; one game's readers share its replay); a page of another game asked past it is answered 503 (0: none)"),
    INT_KEY(startups_start, 0, 1000000, "connections not yet in the lobby (waiting for their PROXY header or HTTP request, in SSH's handshake and login, or negotiating) past which a new one from an address that already has one is dropped at random, told the server is busy (one from an address with none: let in until startups_full; 0: never)"),
    INT_KEY(startups_rate, 0, 100, "the chance in percent that a new connection is dropped at startups_start, rising linearly to 100 at startups_full"),
    INT_KEY(startups_full, 0, 1000000, "connections not yet in the lobby at which every new one is dropped (OpenSSH's MaxStartups start:rate:full)"),
    INT_KEY(rebuild_threads, 1, 64, "threads that rebuild games from their keys (a watcher joining, a takeover, a resumed game), apart from the password hashing's"),
    INT_KEY(rebuild_queue, 0, 1000000, "rebuilds waiting for a thread at most; one more is refused with a message (0: no bound)"),
    INT_KEY(rebuild_per_ip, 0, 100000, "rebuilds one address may have waiting or running; one more is refused with a message (0: no bound)"),
    CHECKED_KEY(store, "empty: the SQLite file in data_dir; postgresql://user@host/db: that PostgreSQL database", check_store),
};

#define NKEYS (sizeof keys / sizeof keys[0])
_Static_assert(NKEYS <= CONFIG_MAX_KEYS, "config_flags_t holds every key");

void config_defaults(config_t *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->bind, sizeof c->bind, "0.0.0.0");
    c->port = 2323;
    c->http_port = 8023;
    snprintf(c->data_dir, sizeof c->data_dir, "./data");
    snprintf(c->server_name, sizeof c->server_name, "rogued");
    snprintf(c->motd, sizeof c->motd, "Every player has a dungeon of their own. Good luck!");
    c->max_sessions = 1000;
    c->max_sessions_per_ip = 20;
    c->ssh_unauth_per_ip = 10;
    c->ssh_login_grace_ms = 30000;
    c->ssh_fail_delay_ms = 1000;
    c->connects_per_ip_per_minute = 60;
    c->hashes_per_ip = 2;
    c->hashes_per_name = 4;
    c->registrations_per_ip_per_hour = 10;
    c->idle_timeout = 1800;
    c->idle_warning = 60;
    c->lobby_full_idle_ms = 120000;
    c->negotiation_ms = 500;
    c->store_wait_ms = 3000;
    c->store_lock_timeout_ms = 10000;
    c->output_limit = 256 * 1024;
    c->news_interval_ms = 30000;
    c->news_min_depth = 6;
    c->shutdown_minute_ms = 60000;
    c->ctl_read_ms = 5000;
    c->ban_minute_ms = 60000;
    c->upgrade_ready_ms = 60000;
    c->upgrade_drain_ms = 2000;
    snprintf(c->metrics_addr, sizeof c->metrics_addr, "127.0.0.1");
    snprintf(c->ssh_ciphers, sizeof c->ssh_ciphers, "%s", SSH_CIPHERS_DEFAULT);
    c->output_highwater = 64 * 1024;
    c->write_timeout = 60;
    c->close_drain_ms = 2000;
    c->close_orphan_ms = 30000;
    c->max_keys_per_second = 100;
    c->max_input_bytes_per_second = 0; /* 16 a key */
    c->record_limit = 4194304;
    c->max_cols = 250;
    c->max_rows = 100;
    c->resizes_per_window = 4;
    c->resize_window_ms = 1000;
    c->keepalive = 30;
    snprintf(c->log_level, sizeof c->log_level, "info");
    snprintf(c->proxy_protocol, sizeof c->proxy_protocol, "off");
    c->guest_min_turns = 50;
    c->guest_keep_days = 30;
    c->guest_grace = 300;
    c->guest_grace_max = 100;
    c->web_login_grace = 300;
    c->site_replays = 2;
    c->rebuild_threads = 2;
    c->startups_start = 200;
    c->startups_rate = 30;
    c->startups_full = 600;
    c->rebuild_queue = 256;
    c->rebuild_per_ip = 4;
    snprintf(c->combat, sizeof c->combat, "%s",
             combat_ruleset_name(RULES_ATTACK_DEFENSE));
}

int config_ruleset(const config_t *c)
{
    int r = combat_ruleset_parse(c->combat);
    return r >= 0 ? r : RULES_ATTACK_DEFENSE;
}

const char *config_key_name(size_t i)
{
    return i < NKEYS ? keys[i].name : NULL;
}

int config_key_differs(const config_t *a, const config_t *b, size_t i)
{
    if (i >= NKEYS)
        return 0;
    const key_def_t *k = &keys[i];
    const char *x = (const char *)a + k->offset, *y = (const char *)b + k->offset;
    if (k->type == K_INT)
        return *(const int *)(const void *)x != *(const int *)(const void *)y;
    return strncmp(x, y, k->size) != 0;
}

void config_copy_key(config_t *dst, const config_t *src, size_t i)
{
    if (i >= NKEYS)
        return;
    const key_def_t *k = &keys[i];
    memcpy((char *)dst + k->offset, (const char *)src + k->offset,
           k->type == K_INT ? sizeof(int) : k->size);
}

int config_key_value(const config_t *c, size_t i, char *out, size_t n)
{
    if (n)
        out[0] = '\0';
    if (i >= NKEYS || !n)
        return 0;
    const key_def_t *k = &keys[i];
    const char *field = (const char *)c + k->offset;
    if (k->type == K_INT) {
        snprintf(out, n, "%d", *(const int *)(const void *)field);
        return 1;
    }
    if (config_key_secret(k->name))
        return 0;
    size_t at = (size_t)snprintf(out, n, "'");
    for (size_t j = 0; j < k->size && field[j]; j++) {
        unsigned char ch = (unsigned char)field[j];
        int ctrl = ch < 0x20 || ch == 0x7f; /* a flag's or a variable's */
        if (at + (ctrl ? 4 : 1) + 2 > n) /* and the quote, and the NUL */
            break;
        if (ctrl)
            at += (size_t)snprintf(out + at, n - at, "\\x%02x", ch);
        else
            out[at++] = (char)ch;
    }
    snprintf(out + at, n - at, "'");
    return 1;
}

int config_key_secret(const char *name)
{
    return strcmp(name, "store") == 0; /* a URL may hold a password */
}

static const key_def_t *find_key(const char *name)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

static const char *nearest_key(const char *name, size_t len);

int config_key_index(const char *name)
{
    const key_def_t *k = find_key(name);
    return k ? (int)(k - keys) : -1;
}

int config_set(config_t *c, const char *key, const char *value, char *err,
               size_t errlen)
{
    const key_def_t *k = find_key(key);
    if (!k) {
        /* the nearest key, as a ROGUED_ variable's warning names it */
        const char *near = nearest_key(key, strlen(key));
        snprintf(err, errlen, "unknown key '%s' (%s%s%srogued --help lists "
                 "every key)", key, near ? "did you mean " : "",
                 near ? near : "", near ? "? " : "");
        return -1;
    }
    char *field = (char *)c + k->offset;
    if (k->type == K_STR) {
        if (strlen(value) >= k->size) {
            snprintf(err, errlen, "%s: value longer than %zu bytes", key,
                     k->size - 1);
            return -1;
        }
        if (k->check && k->check(key, value, err, errlen) != 0)
            return -1;
        memcpy(field, value, strlen(value) + 1);
        return 0;
    }
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (end == value || *end != '\0') {
        snprintf(err, errlen, "%s: '%s' is not a whole number", key, value);
        return -1;
    }
    if (errno == ERANGE) { /* a whole number, past any key's range */
        snprintf(err, errlen, "%s: %s is outside %ld..%ld", key, value,
                 k->min, k->max);
        return -1;
    }
    if (v < k->min || v > k->max) {
        snprintf(err, errlen, "%s: %ld is outside %ld..%ld", key, v, k->min,
                 k->max);
        return -1;
    }
    *(int *)(void *)field = (int)v;
    return 0;
}

/* Key i's variable's name into name; its value, or NULL if not set. */
static const char *env_of(size_t i, char *name, size_t len)
{
    size_t n = (size_t)snprintf(name, len, "ROGUED_%s", keys[i].name);
    for (size_t j = 7; j < n && j < len; j++)
        name[j] = (char)toupper((unsigned char)name[j]);
    return getenv(name);
}

int config_env_sets(size_t i, char *name, size_t len)
{
    return i < NKEYS && env_of(i, name, len) != NULL;
}

void config_flags_note(config_flags_t *f, const char *key, const char *flag)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(keys[i].name, key) == 0)
            snprintf(f->by[i], sizeof f->by[i], "%s", flag);
}

const char *config_flags_by(const config_flags_t *f, size_t i)
{
    return i < NKEYS && f->by[i][0] ? f->by[i] : NULL;
}

/* The variables of every key, or of `only` alone. */
static int load_env(config_t *c, const char *only, char *err, size_t errlen)
{
    char name[64], why[256];
    for (size_t i = 0; i < NKEYS; i++) {
        if (only && strcmp(keys[i].name, only) != 0)
            continue;
        const char *v = env_of(i, name, sizeof name);
        if (v && config_set(c, keys[i].name, v, why, sizeof why) != 0) {
            snprintf(err, errlen, "environment %s: %s", name, why);
            return -1;
        }
    }
    c->make_run = getenv("ROGUED_MAKE_RUN") != NULL;
    return 0;
}

int config_load_env(config_t *c, char *err, size_t errlen)
{
    return load_env(c, NULL, err, errlen);
}

int config_load_env_key(config_t *c, const char *key, char *err,
                        size_t errlen)
{
    return load_env(c, key, err, errlen);
}

/* ROGUED_* variables that are no key but are read on purpose: the
 * server's own for a binary upgrade (upgrade.h, docs/testing.md), `make
 * run`'s MAKE_RUN (config_load_env notes it in make_run: a port in use is
 * moved with PORT=, host.c), and those of the project's tests and tools
 * (docs/testing.md), which every server they start inherits. */
static const char *const env_not_keys[] = {
    "UPGRADE_FD", "UPGRADE_TEST_VERSION", "UPGRADE_TEST_EXIT_AFTER",
    "MAKE_RUN",
    "REL_BIN", "TSAN_BIN", "TEST_PG", "SOAK", "E2E_KEEP",
    "EXPORT_BIN", "EXPORT_DATA",
};

#define NAME_MAX_CMP 64 /* longer names get no suggestion */

/* Edits (insert, delete, change, swap two neighbours) from a to b, case
 * ignored; b at most NAME_MAX_CMP long. Swaps count once because PROT for
 * PORT is the typo a host makes. */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    size_t row[3][NAME_MAX_CMP + 1]; /* rows i-2, i-1 and i, by i % 3 */
    for (size_t j = 0; j <= lb; j++)
        row[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t *cur = row[i % 3], *up = row[(i - 1) % 3], *up2 = row[(i + 1) % 3];
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            int ca = toupper((unsigned char)a[i - 1]);
            int cb = toupper((unsigned char)b[j - 1]);
            size_t d = up[j - 1] + (ca != cb);
            if (up[j] + 1 < d)
                d = up[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ca == toupper((unsigned char)b[j - 2]) &&
                toupper((unsigned char)a[i - 2]) == cb && up2[j - 2] + 1 < d)
                d = up2[j - 2] + 1;
            cur[j] = d;
        }
    }
    return row[la % 3][lb];
}

/* The most edits a word may be from one of length len and still be near
 * it: a quarter of its length, one at least. */
static size_t near_edits(size_t len)
{
    return len / 4 ? len / 4 : 1;
}

/* The key nearest to name (the part after ROGUED_), or NULL when none is
 * near (near_edits of the key's length). */
static const char *nearest_key(const char *name, size_t len)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    if (len > NAME_MAX_CMP)
        return NULL;
    for (size_t i = 0; i < NKEYS; i++) {
        size_t kl = strlen(keys[i].name);
        size_t d = edit_distance(keys[i].name, kl, name, len);
        if (d <= near_edits(kl) && d < best_d) {
            best = keys[i].name;
            best_d = d;
        }
    }
    return best;
}

int config_words_near(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > NAME_MAX_CMP || lb > NAME_MAX_CMP)
        return 0;
    return edit_distance(b, lb, a, la) <= near_edits(lb);
}

const char *config_nearest_key(const char *name)
{
    const key_def_t *k = find_key(name);
    return k ? k->name : nearest_key(name, strlen(name));
}

/* 1 when the variable NAME=value (name the part after ROGUED_, len
 * long) is a key as config_load_env reads it, or one read on purpose. */
static int env_name_known(const char *name, size_t len)
{
    for (size_t i = 0; i < NKEYS; i++) {
        const char *k = keys[i].name;
        size_t j = 0;
        while (j < len && k[j] && name[j] == toupper((unsigned char)k[j]))
            j++;
        if (j == len && !k[j])
            return 1;
    }
    for (size_t i = 0; i < sizeof env_not_keys / sizeof env_not_keys[0]; i++)
        if (strlen(env_not_keys[i]) == len &&
            memcmp(env_not_keys[i], name, len) == 0)
            return 1;
    /* The tests' ROGUED_BIN only when it names a program, as theirs
     * does: it is one letter from ROGUED_BIND, so a host's
     * `ROGUED_BIN=0.0.0.0` is named like any other stray. (The tests'
     * other binaries are near no key, and may name one a family did not
     * build.) */
    return len == 3 && memcmp(name, "BIN=", 4) == 0 &&
           access(name + 4, X_OK) == 0;
}

/* The warning for a stray variable: its name as printable ASCII (an
 * environment may hold any byte), and the nearest key's if one is near. */
static void stray_line(char *out, size_t n, const char *name, size_t len)
{
    char safe[NAME_MAX_CMP + 8], near[NAME_MAX_CMP + 40];
    size_t shown = len < NAME_MAX_CMP ? len : NAME_MAX_CMP;
    for (size_t i = 0; i < shown; i++)
        safe[i] = name[i] > ' ' && name[i] < 127 ? name[i] : '?';
    snprintf(safe + shown, sizeof safe - shown, "%s", shown < len ? "..." : "");
    const char *k = nearest_key(name, len);
    size_t at = (size_t)snprintf(near, sizeof near, "did you mean ROGUED_");
    for (size_t i = 0; k && k[i] && at + 2 < sizeof near; i++)
        near[at++] = (char)toupper((unsigned char)k[i]);
    snprintf(near + at, sizeof near - at, "?");
    snprintf(out, n, "config: ROGUED_%s is not a configuration key (%s); it "
             "is ignored", safe, k ? near : "rogued --help lists every key");
}

int config_env_strays(char *const *env,
                      void (*warn)(const char *line, void *arg), void *arg)
{
    int strays = 0;
    char line[256];
    for (size_t i = 0; env && env[i]; i++) {
        if (strncmp(env[i], "ROGUED_", 7) != 0)
            continue;
        const char *name = env[i] + 7;
        size_t len = strcspn(name, "=");
        if (env_name_known(name, len))
            continue;
        stray_line(line, sizeof line, name, len);
        warn(line, arg);
        strays++;
    }
    return strays;
}

int config_seed(const config_t *c, uint64_t *seed)
{
    if (c->seed[0] == '\0')
        return 0;
    *seed = strtoull(c->seed, NULL, 10);
    return 1;
}

/* Each checked key's value again: config_set checked it already, but a
 * config_t may be filled otherwise (a test's), and is held to the same
 * rules. */
static int check_every_key(const config_t *c, char *err, size_t errlen)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (keys[i].check &&
            keys[i].check(keys[i].name, (const char *)c + keys[i].offset, err,
                          errlen) != 0)
            return -1;
    return 0;
}

static int wildcard(const char *addr)
{
    return strcmp(addr, "0.0.0.0") == 0 || strcmp(addr, "::") == 0;
}

void config_ports(const config_t *c, config_port_t out[CONFIG_PORTS])
{
    out[0] = (config_port_t){ "port", c->bind, c->port };
    out[1] = (config_port_t){ "http_port", c->bind, c->http_port };
    out[2] = (config_port_t){ "ssh_port", c->bind, c->ssh_port };
    out[3] = (config_port_t){ "metrics_port", c->metrics_addr,
                              c->metrics_port };
}

/* Two listeners given one port (metrics_port's on its own address, which
 * a wildcard bind covers too) could not both listen: said as the keys
 * the host gave, rather than as a port another server holds. */
static int check_ports(const config_t *c, char *err, size_t errlen)
{
    config_port_t p[CONFIG_PORTS];
    config_ports(c, p);
    for (int i = 0; i < CONFIG_PORTS; i++)
        for (int j = i + 1; j < CONFIG_PORTS; j++)
            if (p[i].port > 0 && p[i].port == p[j].port &&
                (strcmp(p[i].addr, p[j].addr) == 0 || wildcard(p[i].addr) ||
                 wildcard(p[j].addr))) {
                snprintf(err, errlen, "%s and %s are both %d: give each a "
                         "port of its own", p[i].key, p[j].key, p[i].port);
                return -1;
            }
    return 0;
}

int config_validate(const config_t *c, char *err, size_t errlen)
{
    if (check_every_key(c, err, errlen) != 0 ||
        check_ports(c, err, errlen) != 0)
        return -1;
    if (c->idle_timeout && c->idle_warning >= c->idle_timeout) {
        snprintf(err, errlen, "idle_warning (%d) must be below idle_timeout (%d)",
                 c->idle_warning, c->idle_timeout);
        return -1;
    }
    if (c->startups_start > c->startups_full) { /* (0: never drops) */
        snprintf(err, errlen, "startups_start (%d) must not be above "
                 "startups_full (%d)", c->startups_start, c->startups_full);
        return -1;
    }
    if (c->output_highwater >= c->output_limit) {
        snprintf(err, errlen, "output_highwater (%d) must be below output_limit (%d)",
                 c->output_highwater, c->output_limit);
        return -1;
    }
    proxy_trust_t t;
    proxy_trust_parse(&t, c->proxy_trusted, err, errlen);
    if (config_proxy_on(c) && t.n == 0) {
        snprintf(err, errlen, "proxy_protocol is on: proxy_trusted must name "
                 "the balancers that may send a PROXY header");
        return -1;
    }
    return 0;
}

int config_proxy_on(const config_t *c)
{
    return strcmp(c->proxy_protocol, "on") == 0;
}

/* --help's list fits an 80-column terminal: each key's help wrapped at
 * HELP_COLS, in a column of its own from HELP_INDENT, two spaces at least
 * after the default (a key and default wider than that put the help on the
 * next line). */
#define HELP_COLS 79
#define HELP_INDENT 36

static void print_wrapped(FILE *f, const char *text, int col)
{
    if (col >= HELP_INDENT - 1) {
        fputc('\n', f);
        col = 0;
    }
    fprintf(f, "%*s", HELP_INDENT - col, "");
    int used = 0;
    while (*text) {
        int w = (int)strcspn(text, " ");
        if (used && HELP_INDENT + used + 1 + w > HELP_COLS) {
            fprintf(f, "\n%*s", HELP_INDENT, "");
            used = 0;
        } else if (used) {
            used += fprintf(f, " ");
        }
        used += fprintf(f, "%.*s", w, text);
        text += w;
        while (*text == ' ')
            text++;
    }
    fprintf(f, "\n");
}

void config_print_keys(const config_t *c, void *file)
{
    FILE *f = file;
    for (size_t i = 0; i < NKEYS; i++) {
        const char *field = (const char *)c + keys[i].offset;
        char val[CONFIG_STR_MAX + 8];
        if (keys[i].type == K_INT)
            snprintf(val, sizeof val, "%d", *(const int *)(const void *)field);
        else
            snprintf(val, sizeof val, "\"%s\"", field);
        int col = fprintf(f, "  %-20s %s", keys[i].name, val);
        print_wrapped(f, keys[i].help, col);
    }
}
