/* ctl_cmds.c - the console's commands (ctl.h): the table, and what each
 * does on the host's loop. Those about sessions ask the worker loops
 * (ctl_loop.c); backup runs on libuv's thread pool (ctl_backup.c). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "ban_list.h"
#include "ctl.h"
#include "host.h"
#include "log.h"
#include "upgrade.h"

extern char **environ;

/* The answers' count (MSG_CTL_END's a), summed into scratch[0]. */
static void count_answer(ctl_req_t *r, const smsg_t *m)
{
    if (m->type == MSG_CTL_END)
        ctl_req_scratch(r)[0] += m->a;
    else if (m->type == MSG_CTL_LINE)
        ctl_req_printf(r, "%s\n", m->text);
}

static void finish_plain(ctl_req_t *r)
{
    ctl_req_done(r, NULL);
}

/* --- who -------------------------------------------------------------------- */

static int who_run(ctl_req_t *r, const char *args)
{
    (void)args;
    ctl_req_printf(r, "ID ADDRESS TRANSPORT STATE NAME IDLE\n");
    smsg_t *m = msg_new(MSG_CTL_WHO, 0, 0, NULL);
    if (!m) {
        ctl_req_done(r, "out of memory");
        return 0;
    }
    ctl_req_broadcast(r, m);
    return 1;
}

/* The loops' rows, kept until every loop has answered (ctl_req_data's:
 * one block, freed with the request): each loop answers in its own time
 * and lists its sessions newest first, so as they came the order changed
 * from one `who` to the next. */
typedef struct who_rows {
    size_t n, cap;
    ctl_who_row_t row[];
} who_rows_t;

static void who_print(ctl_req_t *r, const ctl_who_row_t *w)
{
    ctl_req_printf(r, "%llu %s %s %s %s %llu\n", (unsigned long long)w->id,
                   w->addr, w->transport, w->state,
                   w->name[0] ? w->name : "-",
                   (unsigned long long)w->idle_s);
}

static void who_answer(ctl_req_t *r, const smsg_t *m)
{
    if (m->type != MSG_CTL_LINE || !m->who)
        return;
    void **slot = ctl_req_data(r); /* the rows so far, or NULL */
    who_rows_t *rows = *slot;
    if (!rows || rows->n == rows->cap) {
        size_t cap = rows ? rows->cap * 2 : 64;
        who_rows_t *more = realloc(rows, sizeof *rows +
                                         cap * sizeof rows->row[0]);
        if (!more) { /* out of memory: this row as it comes, unsorted */
            who_print(r, m->who);
            return;
        }
        if (!rows)
            more->n = 0;
        more->cap = cap;
        *slot = rows = more;
    }
    rows->row[rows->n++] = *m->who;
}

/* By name (any case first: a name is one account whatever its case),
 * the sessions with none yet after the named; then by id. */
static int who_cmp(const void *a, const void *b)
{
    const ctl_who_row_t *wa = a, *wb = b;
    int ua = !wa->name[0], ub = !wb->name[0];
    if (ua != ub)
        return ua - ub;
    int c = strcasecmp(wa->name, wb->name);
    if (c == 0)
        c = strcmp(wa->name, wb->name);
    if (c != 0)
        return c;
    return (wa->id > wb->id) - (wa->id < wb->id);
}

/* A browser guest's game kept after its connection dropped (guest_grace)
 * is no session, but it is on the server, and ends unless its page comes
 * back: one line each after the sessions, with when it ends. */
static void who_kept(void *arg, const char *name, unsigned turn,
                     uint64_t left_ms)
{
    ctl_req_t *r = arg;
    uint64_t left = (left_ms + 999) / 1000; /* whole seconds, never 0 */
    char until[48];
    ban_format_until(((int64_t)time(NULL) + (int64_t)left) * 1000, until,
                     sizeof until);
    ctl_req_printf(r, "kept: %s's game at turn %u (a browser guest's, its "
                   "connection gone) ends in %llu s, at %s, unless its page "
                   "comes back (guest_grace)\n", name, turn,
                   (unsigned long long)left, until);
}

static void who_finish(ctl_req_t *r)
{
    host_t *h = ctl_req_host(r);
    who_rows_t *rows = *ctl_req_data(r);
    if (rows) {
        qsort(rows->row, rows->n, sizeof rows->row[0], who_cmp);
        for (size_t i = 0; i < rows->n; i++)
            who_print(r, &rows->row[i]);
    }
    /* expires is on the worker loops' clock: uv_now, one monotonic clock
     * for every loop */
    grace_list(&h->sh.grace, uv_now(h->loop), who_kept, r);
    ctl_req_done(r, NULL);
}

/* --- say -------------------------------------------------------------------- */

static int say_run(ctl_req_t *r, const char *args)
{
    if (!args[0]) {
        ctl_req_done(r, "say needs a line of text");
        return 0;
    }
    smsg_t *m = msg_new(MSG_CTL_SAY, 0, 0, "[host] %s", args);
    if (!m) {
        ctl_req_done(r, "out of memory");
        return 0;
    }
    ctl_req_broadcast(r, m);
    return 1;
}

static void say_finish(ctl_req_t *r)
{
    long long n = (long long)ctl_req_scratch(r)[0];
    ctl_req_printf(r, "said to %lld session%s\n", n, n == 1 ? "" : "s");
    ctl_req_done(r, NULL);
}

/* --- kick ------------------------------------------------------------------- */

static int kick_run(ctl_req_t *r, const char *args)
{
    char *end;
    errno = 0;
    /* digits only: strtoull takes "-1" and saturates a number too long,
     * which as an id would be no session's (-1) */
    unsigned long long id = strtoull(args, &end, 10);
    if (args[0] < '0' || args[0] > '9' || *end || id == 0 ||
        errno == ERANGE || id > INT64_MAX) {
        ctl_req_done(r, "kick needs a session id (from who)");
        return 0;
    }
    ctl_req_scratch(r)[1] = (int64_t)id;
    /* Every loop is asked: a session not yet admitted is in no directory. */
    smsg_t *m = msg_new(MSG_CTL_KICK, 0, 0, NULL);
    if (!m) {
        ctl_req_done(r, "out of memory");
        return 0;
    }
    m->a = (int64_t)id;
    ctl_req_broadcast(r, m);
    return 1;
}

static void kick_finish(ctl_req_t *r)
{
    int64_t *sc = ctl_req_scratch(r);
    if (sc[0] == 0) {
        char why[64];
        snprintf(why, sizeof why, "no session %lld", (long long)sc[1]);
        ctl_req_done(r, why);
        return;
    }
    ctl_req_printf(r, "closed session %lld\n", (long long)sc[1]);
    ctl_req_done(r, NULL);
}

/* --- shutdown --------------------------------------------------------------- */

static int shutdown_run(ctl_req_t *r, const char *args)
{
    ctl_t *c = ctl_req_ctl(r);
    if (strcmp(args, "cancel") == 0) {
        /* a countdown could only be replaced (a host QA's find) */
        int left = ctl_cancel_shutdown(c);
        if (!left) {
            ctl_req_done(r, "no shutdown is counting down");
            return 0;
        }
        ctl_req_printf(r, "shutdown called off (%d minute%s left)\n", left,
                       left == 1 ? " was" : "s were");
        ctl_req_done(r, NULL);
        return 0;
    }
    char *end;
    long minutes = args[0] ? strtol(args, &end, 10) : 0;
    if (args[0] && (*end || minutes < 0 || minutes > 1440)) {
        ctl_req_done(r, "shutdown takes minutes, 0 to 1440, or cancel");
        return 0;
    }
    if (minutes == 0)
        ctl_req_printf(r, "shutting down now\n");
    else
        ctl_req_printf(r, "shutting down in %ld minute%s\n", minutes,
                       minutes == 1 ? "" : "s");
    /* Answered first: the shutdown stops the console. */
    ctl_req_done(r, NULL);
    ctl_schedule_shutdown(c, (int)minutes);
    return 0;
}

/* --- reload ----------------------------------------------------------------- */

/* The keys reload changes in the running server (the host's copy and
 * each loop's, ctl_loop.c); every other key the file changed is named as
 * taking a restart (config.c's table is the list of keys). The one list:
 * what is copied, what the answer names and what it prints. */
static const char *const live_keys[] = {
    "motd", "public_host", "max_sessions", "idle_timeout", "idle_warning",
    "negotiation_ms", "output_limit", "output_highwater", "write_timeout",
    "max_keys_per_second", "keepalive", "shutdown_minute_ms", "ban_minute_ms",
};
#define NLIVE (sizeof live_keys / sizeof live_keys[0])

static int is_live(const char *name)
{
    for (size_t i = 0; i < NLIVE; i++)
        if (strcmp(live_keys[i], name) == 0)
            return 1;
    return 0;
}

void ctl_apply_live(config_t *dst, const config_t *src)
{
    const char *name;
    for (size_t i = 0; (name = config_key_name(i)); i++)
        if (is_live(name))
            config_copy_key(dst, src, i);
}

/* A line of reload's answer, and the same line in the log: what a
 * reload did (or why it did nothing) is read there too, afterwards. */
static void reload_say(ctl_req_t *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void reload_say(ctl_req_t *r, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    log_info("ctl: reload: %s", line);
    ctl_req_printf(r, "%s\n", line);
}

/* A ROGUED_* variable that is no key (config_env_strays), ignored again
 * by this reload, or a file's value that looks as if it ended in a
 * comment (config_load_file_warn): logged as at start, and in the answer,
 * which is what the host reloading to see a setting take effect reads.
 * (The environment is still the one the server started with: a variable
 * cannot be fixed without a restart.) */
static void reload_warn(const char *line, void *arg)
{
    log_error("%s", line);
    ctl_req_printf(arg, "%s\n", line);
}

/* What sets key i over the file, as at start (a flag over the
 * environment, which is over the file), written into out: "--port (the
 * command line)", "ROGUED_PORT (the environment)"; NULL if nothing does. */
static const char *set_over_file(ctl_t *c, size_t i, char *out, size_t len)
{
    const config_flags_t *f = ctl_flags(c);
    const char *flag = f ? config_flags_by(f, i) : NULL;
    char var[64];
    if (flag)
        snprintf(out, len, "%s (the command line)", flag);
    else if (config_env_sets(i, var, sizeof var))
        snprintf(out, len, "%s (the environment)", var);
    else
        return NULL;
    return out;
}

/* What a reload read: the defaults with the file's over them, as at
 * start (file, and alone: the same reading, alone's values compared with
 * the last reading's, ctl_file_values), and which keys the file sets. */
typedef struct reload_files {
    config_t file, alone;
    uint8_t given[CONFIG_MAX_KEYS]; /* the keys the file sets (else its
                                       default is read for it) */
} reload_files_t;

/* Key i, which a flag or the environment (over) sets, where the file now
 * holds another value than the running one: said only when the file's
 * value is new since the last reading (the host edited it); one the file
 * held already was said then, or was there at start, where the flag was
 * given over it on purpose. */
static void reload_kept(ctl_req_t *r, const reload_files_t *rf,
                        const config_t *running, size_t i, const char *over)
{
    if (!config_key_differs(&rf->alone, ctl_file_values(ctl_req_ctl(r)), i))
        return;
    char now[CONFIG_STR_MAX * 4 + 8], keeps[CONFIG_STR_MAX * 4 + 8];
    const char *name = config_key_name(i);
    if (config_key_value(&rf->file, i, now, sizeof now) &&
        config_key_value(running, i, keeps, sizeof keeps))
        reload_say(r, "%s: the file now %s %s; %s keeps %s", name,
                   rf->given[i] ? "says" : "leaves it to its default", now,
                   over, keeps);
    else
        reload_say(r, "%s: changed in the file; %s keeps the running value",
                   name, over);
}

/* Each key whose value in the file is not the running one, in the
 * table's order, and what reload does with it: a flag's or a variable's
 * key stays as it is (they are over the file, as at start: reload_kept),
 * a live key is applied (the host's copy holds every live key's running
 * value), any other takes a restart. */
static void reload_report(ctl_req_t *r, const reload_files_t *rf,
                          const config_t *running)
{
    const char *name;
    char over[128];
    for (size_t i = 0; (name = config_key_name(i)); i++) {
        if (!config_key_differs(&rf->file, running, i))
            continue;
        if (set_over_file(ctl_req_ctl(r), i, over, sizeof over))
            reload_kept(r, rf, running, i, over);
        else
            reload_say(r, "%s: %s, %s", name, rf->given[i]
                       ? "changed in the file" : "not in the file now: its "
                       "default", is_live(name) ? "applied" : "takes a restart");
    }
}

/* The settings a reload makes, into n: the defaults with the file's over
 * them, then the environment's, then the command line's kept from the
 * running ones (as at start). The file's into rf, for the answer; its
 * warnings said (r). */
static int reload_read(ctl_req_t *r, const config_t *running, config_t *n,
                       reload_files_t *rf, char *err, size_t errlen)
{
    ctl_t *c = ctl_req_ctl(r);
    const char *path = ctl_config_path(c);
    /* Started with no --config and no default file, the server has no
     * file: said as such, rather than as a file that cannot be opened
     * (the environment and the flags are the start's: only a restart
     * changes them). */
    if (!ctl_config_given(c) && access(path, F_OK) != 0 && errno == ENOENT) {
        snprintf(err, errlen, "no config file to reload: the server was "
                 "started without --config, and the default %s (from the "
                 "directory it started in) is not there; start it with "
                 "--config FILE for settings that reload can change", path);
        return -1;
    }
    /* The file's values over the defaults, as at start: a line deleted
     * gives its key the default again (config/server.conf: "delete a line
     * to keep it"; a docs audit found the running value kept, unsaid). */
    config_defaults(&rf->alone);
    if (config_load_file_given(&rf->alone, path, 1, reload_warn, r,
                               rf->given, err, errlen) != 0)
        return -1;
    *n = rf->alone;
    rf->file = *n;
    if (config_load_env(n, err, errlen) != 0)
        return -1;
    const config_flags_t *f = ctl_flags(c);
    for (size_t i = 0; f && config_key_name(i); i++)
        if (config_flags_by(f, i))
            config_copy_key(n, running, i);
    return config_validate(n, err, errlen);
}

/* A reload refused: said, and logged as what it did (nothing). */
static int reload_refused(ctl_req_t *r, const char *why)
{
    char said[640];
    snprintf(said, sizeof said, "reload refused, nothing changed: %s", why);
    log_error("ctl: %s", said);
    ctl_req_done(r, said);
    return 0;
}

static int reload_run(ctl_req_t *r, const char *args)
{
    (void)args;
    host_t *h = ctl_req_host(r);
    char err[512];
    config_t *n = malloc(sizeof *n);
    reload_files_t *rf = malloc(sizeof *rf);
    if (!n || !rf) {
        free(n);
        free(rf);
        return reload_refused(r, "out of memory");
    }
    if (reload_read(r, &h->cfg, n, rf, err, sizeof err) != 0) {
        free(n);
        free(rf);
        return reload_refused(r, err);
    }
    smsg_t *m = msg_new(MSG_CTL_RELOAD, 0, 0, NULL);
    if (!m) {
        free(n);
        free(rf);
        return reload_refused(r, "out of memory");
    }
    config_env_strays(environ, reload_warn, r);
    reload_report(r, rf, &h->cfg);
    ctl_set_file_values(ctl_req_ctl(r), &rf->alone); /* the next one's "last" */
    free(rf);
    ctl_apply_live(&h->cfg, n); /* the host's own copy: the live keys */
    m->cfg = n;
    ctl_req_broadcast(r, m);
    return 1;
}

static void reload_finish(ctl_req_t *r)
{
    char keys[512];
    size_t at = 0;
    for (size_t i = 0; i < NLIVE && at < sizeof keys; i++)
        at += (size_t)snprintf(keys + at, sizeof keys - at, "%s %s",
                               i ? "," : "", live_keys[i]);
    reload_say(r, "reloaded %s:%s", ctl_config_path(ctl_req_ctl(r)), keys);
    ctl_req_done(r, NULL);
}

/* --- help ------------------------------------------------------------------- */

static int help_run(ctl_req_t *r, const char *args)
{
    (void)args;
    for (const ctl_cmd_t *k = ctl_cmds; k->name; k++)
        ctl_req_printf(r, "%s\n", k->usage);
    ctl_req_done(r, NULL);
    return 0;
}

const ctl_cmd_t ctl_cmds[] = {
    { "who", "who                list the sessions by name, then id: id, address, transport, state, name, idle seconds; then the guests' games kept for their page", who_run, who_answer, who_finish },
    { "say", "say TEXT           a line on every player's screen", say_run, count_answer, say_finish },
    { "kick", "kick ID            close session ID (its game kept or recorded)", kick_run, count_answer, kick_finish },
    { "shutdown", "shutdown [MINUTES] a notice every minute, then the clean shutdown (0: now); shutdown cancel calls it off", shutdown_run, NULL, finish_plain },
    { "reload", "reload             the config file again; live: motd, public_host, max_sessions, idle_*, negotiation_ms, output_*, write_timeout, max_keys_per_second, keepalive, *_minute_ms (the answer names the rest: they take a restart)", reload_run, NULL, reload_finish },
    { "backup", "backup FILE        an online copy of the SQLite database, checked", ctl_backup_run, NULL, finish_plain },
    { "ban", "ban ADDRESS[/BITS]|NAME [DURATION]  keep an address range or an account out (30m, 2h, 7d; none: for good)", ctl_ban_run, NULL, finish_plain },
    { "unban", "unban ADDRESS[/BITS]|NAME  end that ban", ctl_unban_run, NULL, finish_plain },
    { "bans", "bans               the bans in force", ctl_bans_run, NULL, finish_plain },
    { "metrics", "metrics            the figures /metrics serves, in Prometheus's text format", ctl_metrics_run, ctl_metrics_answer, ctl_metrics_finish },
    { "upgrade", "upgrade [BINARY]   start BINARY (default: this server's) and hand it every listener, telnet and browser session", upgrade_ctl_run, NULL, finish_plain },
    { "help", "help               this list", help_run, NULL, finish_plain },
    { NULL, NULL, NULL, NULL, NULL },
};
