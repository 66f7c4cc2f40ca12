/* main.c - rogued: flags, configuration, and the loop. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "config.h"
#include "ctl.h"
#include "denied_hint.h"
#include "export.h"
#include "log.h"
#include "host.h"
#include "store.h"
#include "upgrade.h"

extern char **environ;

static void usage(FILE *f, const config_t *defaults)
{
    fprintf(f,
        "Usage: rogued [OPTION]...\n"
        "       rogued ctl [--config FILE] [--data-dir DIR] COMMAND [ARGS]\n"
        "                        (the operator's console: who, say, kick,\n"
        "                        ban, shutdown, reload, backup, upgrade...;\n"
        "                        `rogued ctl` alone lists them all; DIR as\n"
        "                        below, else from ROGUED_DATA_DIR or the\n"
        "                        config file's data_dir)\n"
        "A telnet roguelike server: every player gets a dungeon of their own.\n"
        "\n"
        "Options (each overrides the environment, which overrides the file):\n"
        "  -c, --config FILE     read settings from FILE (default " CONFIG_DEFAULT_FILE
        ";\n"
        "                        a missing default file is fine, a named one is not)\n"
        "  -p, --port N          TCP port to listen on (0: any free port, logged)\n"
        "  -b, --bind ADDR       IP address to listen on (0.0.0.0: every\n"
        "                        interface; 127.0.0.1: this machine only)\n"
        "  -d, --data-dir DIR    directory for the server's files\n"
        "  -s, --seed N          every new game uses seed N (tests, bug reports)\n"
        "  -m, --max-sessions N  players at once\n"
        "  -l, --log-level L     error, info or debug\n"
        "      --combat NAME     combat ruleset of new games: power,\n"
        "                        attack-defense (default), d10 or dice-pool\n"
        "      --set KEY=VALUE   set any configuration key\n"
        "      --export ID --format ttyrec|asciicast|dump FILE\n"
        "                        write finished game ID (games are numbered\n"
        "                        from 1 as they end) to FILE ('-': stdout) as a\n"
        "                        recording at 80x24 for ttyplay or asciinema\n"
        "                        play (or its character dump as text), and\n"
        "                        exit; reads the data directory's\n"
        "                        database without changing it\n"
        "      --upgrade         hand the server running on the data directory\n"
        "                        over to this binary (the listeners and every\n"
        "                        telnet and browser session move; SSH players\n"
        "                        are asked to reconnect), and exit; the old\n"
        "                        server keeps serving if this one fails\n"
        "      --list-games      list the finished games (ID, date, player,\n"
        "                        score, depth, turns, how it ended) that\n"
        "                        --export takes, and exit; reads the database\n"
        "                        without changing it\n"
        "  -h, --help            show this help and exit\n"
        "      --version         show the version and exit\n"
        "\n"
        "Configuration keys (file `key = value`, environment ROGUED_KEY), with\n"
        "their built-in defaults:\n");
    config_print_keys(defaults, f);
    fprintf(f,
        "\n"
        "Signals: SIGINT, SIGTERM or SIGHUP tells every player, keeps every\n"
        "account's game for its next login, records every guest's game of\n"
        "guest_min_turns turns or more (50), closes every connection and exits\n"
        "0; a second signal ends it at once (`rogued ctl reload` reloads).\n"
        "SIGUSR2 upgrades to the binary the server was started from, as\n"
        "--upgrade does.\n");
}

/* Flags that take a value, and the key each sets. */
static const struct { const char *s, *l, *key; } flags[] = {
    { "-p", "--port", "port" },
    { "-b", "--bind", "bind" },
    { "-d", "--data-dir", "data_dir" },
    { "-s", "--seed", "seed" },
    { "-m", "--max-sessions", "max_sessions" },
    { "-l", "--log-level", "log_level" },
    { NULL, "--combat", "combat" },
};

/* An option that is none, with the nearest one if a key is near its
 * words ("--prot": did you mean --port?), as a mistyped --set key is:
 * the key's own flag, or --set KEY=VALUE for a key without one. */
static void say_unknown_option(const char *arg)
{
    /* the flags that set no key, for a mistyped one of them */
    static const char *const others[] = {
        "--help", "--version", "--config", "--set", "--list-games",
        "--upgrade", "--export", "--format",
    };
    char name[64];
    const char *p = arg;
    while (*p == '-')
        p++;
    snprintf(name, sizeof name, "%s", p);
    char *eq = strchr(name, '='); /* --port=4000: the flag's words */
    if (eq)
        *eq = '\0';
    const char *flag = NULL;
    for (size_t f = 0; f < sizeof others / sizeof others[0] && !flag; f++)
        if (config_words_near(name, others[f] + 2))
            flag = others[f];
    for (char *c = name; *c; c++)
        if (*c == '-')
            *c = '_';
    const char *near = name[0] && !flag ? config_nearest_key(name) : NULL;
    for (size_t f = 0; near && f < sizeof flags / sizeof flags[0]; f++)
        if (strcmp(flags[f].key, near) == 0)
            flag = flags[f].l;
    if (flag)
        fprintf(stderr, "rogued: unknown option '%s' (did you mean %s? try "
                "--help)\n", arg, flag);
    else if (near)
        fprintf(stderr, "rogued: unknown option '%s' (did you mean --set "
                "%s=VALUE? try --help)\n", arg, near);
    else
        fprintf(stderr, "rogued: unknown option '%s' (try --help)\n", arg);
}

/* s (the short form) may be NULL. */
static int is_flag(const char *arg, const char *s, const char *l)
{
    return (s && strcmp(arg, s) == 0) || strcmp(arg, l) == 0;
}

/* A flag's value refused by config_set: its "key: why" names the flag as
 * the host typed it (`--port: 99999 is outside 0..65535`), since a key they
 * never wrote would send them looking in the config file. --set's error
 * keeps its key, after --set (`--set port: 99999 is outside ...`): both
 * are what they typed, and where it was given (README.md). */
static void flag_refused(const char *given, const char *key, const char *err)
{
    size_t n = strlen(key);
    int keyed = strncmp(err, key, n) == 0 && err[n] == ':';
    if (strcmp(given, "--set") == 0)
        fprintf(stderr, "rogued: --set%s%s\n", keyed ? " " : ": ", err);
    else if (keyed)
        fprintf(stderr, "rogued: %s%s\n", given, err + n);
    else
        fprintf(stderr, "rogued: %s\n", err);
}

/* mkdir -p, for the data directory. */
static int make_dirs(const char *path)
{
    char p[CONFIG_STR_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *c = p + 1; *c; c++) {
        if (*c == '/') {
            *c = '\0';
            if (mkdir(p, 0750) != 0 && errno != EEXIST)
                return -1;
            *c = '/';
        }
    }
    if (mkdir(p, 0750) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

/* Why the data directory could not be made (make_dirs failed with e), in
 * a sentence with what to do: one that is there but out of this user's
 * reach (it, or a directory above it, shut) is said as the database's
 * open and --list-games say it, never as a directory to create; a path
 * that is a file, as not a directory. */
static void say_data_dir_refused(const char *dir, int e)
{
    struct stat st;
    char hint[256];
    int there = stat(dir, &st) == 0, why = there ? 0 : errno;
    if (why == EACCES || why == EPERM)
        fprintf(stderr, "rogued: %s/rogued.db cannot be reached: %s: %s\n",
                dir, strerror(why),
                denied_hint("rogued", "the user the data directory belongs "
                            "to", hint, sizeof hint));
    else if (e == EEXIST || e == ENOTDIR || (there && !S_ISDIR(st.st_mode)))
        fprintf(stderr, "rogued: data directory '%s' is not a directory (or "
                "a part of its path is a file): give data_dir a directory\n",
                dir);
    else
        fprintf(stderr, "rogued: cannot create data directory '%s': %s%s\n",
                dir, strerror(e), e == EACCES || e == EPERM
                    ? " (create it for this user, or give data_dir one it "
                      "may create)" : "");
}

/* Thousands of players need thousands of descriptors: use what we may. */
static void raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* A ROGUED_* variable that is no key (config_env_strays), or a file's
 * value that looks as if it ended in a comment (config_load_file_warn):
 * in the log as an error, so that log_level = error shows it too; the
 * server goes on. */
static void log_stray(const char *line, void *arg)
{
    (void)arg;
    log_error("%s", line);
}

/* libuv's thread pool runs the password checks (hash_parallel at once),
 * the site's game pages' dumps (site_replays a worker loop) and a backup:
 * sized so that all of them can run at once, and a crowd of game pages
 * never holds a login's check back in the pool's queue (libuv's default
 * is 4 threads, the least it is given here; docs/site.md). A host's own
 * UV_THREADPOOL_SIZE is kept. libuv reads it as the pool starts, at its
 * first work: started here, with a work of nothing, and the environment
 * then given back as it was, so that an upgrade's new process sizes its
 * own from its own settings. Before any thread of ours (setenv). */
static void nothing(uv_work_t *w)
{
    (void)w;
}

static void size_thread_pool(const config_t *cfg, uv_loop_t *loop)
{
    const char *given = getenv("UV_THREADPOOL_SIZE");
    if (given) {
        log_debug("libuv's thread pool: UV_THREADPOOL_SIZE=%s, as given",
                  given);
        return;
    }
    int loops = cfg->workers > 0 ? cfg->workers : host_default_workers();
    long dumps = (long)cfg->site_replays * loops;
    long n = STORE_HASH_PARALLEL_DEFAULT + dumps + 1;
    if (n < 4)
        n = 4;
    if (n > 1024) /* libuv's most */
        n = 1024;
    char v[24];
    snprintf(v, sizeof v, "%ld", n);
    setenv("UV_THREADPOOL_SIZE", v, 1);
    uv_work_t w;
    if (uv_queue_work(loop, &w, nothing, NULL) == 0)
        uv_run(loop, UV_RUN_DEFAULT);
    unsetenv("UV_THREADPOOL_SIZE");
    log_debug("libuv's thread pool: %ld threads: %d for password checks, %ld "
              "for game pages' dumps, 1 for a backup", n,
              STORE_HASH_PARALLEL_DEFAULT, dumps);
}

/* --upgrade: the console's `upgrade` with this binary (docs/hosting.md). */
static int ask_upgrade(const char *data_dir)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        fprintf(stderr, "rogued: cannot tell where this binary is\n");
        return 2;
    }
    exe[n] = '\0';
    char *args[] = { "--upgrade", "--data-dir", (char *)data_dir, "upgrade",
                     exe, NULL };
    return ctl_client_main(5, args);
}

/* The new process of an upgrade (upgrade.h): what the old one hands over,
 * once the store is open. 0: none asked; -1: it failed (logged). */
static int take_over(upgrade_in_t *in, host_inherit_t *inh)
{
    const char *v = getenv(UPGRADE_FD_ENV);
    if (!v)
        return 0;
    int fd = atoi(v);
    unsetenv(UPGRADE_FD_ENV);
    if (fd < 3 || upgrade_receive(fd, in) != 0)
        return -1;
    _Static_assert(sizeof inh->fd == sizeof in->listen_fd,
                   "host_inherit_t and upgrade_in_t name the same listeners");
    for (int k = 0; k < UPGRADE_LISTENERS; k++)
        inh->fd[k] = in->listen_fd[k];
    inh->next_id = in->next_id;
    return 1;
}

int main(int argc, char **argv)
{
    config_t cfg, defaults;
    char err[512];
    const char *config_path = CONFIG_DEFAULT_FILE;
    int config_required = 0;
    const char *export_id = NULL, *export_format = NULL, *export_file = NULL;
    int list_games = 0, upgrade = 0;
    static config_flags_t flagged; /* the keys set below, for reload */
    static config_t file_values;   /* the defaults with the file over them */

    if (argc > 1 && strcmp(argv[1], "ctl") == 0)
        return ctl_client_main(argc - 1, argv + 1);
    config_defaults(&defaults);
    cfg = defaults;

    /* First pass: --help, --version and which file to read. */
    for (int i = 1; i < argc; i++) {
        if (is_flag(argv[i], "-h", "--help")) {
            usage(stdout, &defaults);
            return 0;
        }
        if (strcmp(argv[i], "--version") == 0) {
            printf("rogued 0.1\n");
            return 0;
        }
        if (is_flag(argv[i], "-c", "--config")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "rogued: %s needs a file name\n", argv[i]);
                return 2;
            }
            config_path = argv[++i];
            config_required = 1;
        }
    }
    if (config_load_file_warn(&cfg, config_path, config_required, log_stray,
                              NULL, err, sizeof err) != 0) {
        fprintf(stderr, "rogued: %s\n", err);
        return 2;
    }
    file_values = cfg; /* the file's alone, for reload (ctl.h) */
    if (config_load_env(&cfg, err, sizeof err) != 0) {
        fprintf(stderr, "rogued: %s\n", err);
        return 2;
    }
    /* Second pass: every other flag, over the file and the environment. */
    for (int i = 1; i < argc; i++) {
        const char *key = NULL, *value = NULL, *flag = NULL;
        char kv[CONFIG_STR_MAX + 64], set_flag[sizeof kv + 8];
        if (is_flag(argv[i], "-c", "--config")) {
            i++;
            continue;
        }
        if (strcmp(argv[i], "--list-games") == 0) {
            list_games = 1;
            continue;
        }
        if (strcmp(argv[i], "--upgrade") == 0) {
            upgrade = 1;
            continue;
        }
        if (is_flag(argv[i], NULL, "--export") ||
            is_flag(argv[i], NULL, "--format")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "rogued: %s needs a value\n", argv[i]);
                return 2;
            }
            if (strcmp(argv[i], "--export") == 0)
                export_id = argv[++i];
            else
                export_format = argv[++i];
            continue;
        }
        if (!export_file && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
            export_file = argv[i]; /* the one argument that is not a flag */
            continue;
        }
        const char *given = argv[i]; /* as typed: -p or --port */
        for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++)
            if (is_flag(argv[i], flags[f].s, flags[f].l)) {
                key = flags[f].key;
                flag = flags[f].l;
            }
        if (!key && strcmp(argv[i], "--set") == 0) {
            if (i + 1 >= argc || !strchr(argv[i + 1], '=')) {
                fprintf(stderr, "rogued: --set needs KEY=VALUE\n");
                return 2;
            }
            snprintf(kv, sizeof kv, "%s", argv[++i]);
            char *eq = strchr(kv, '=');
            *eq = '\0';
            key = kv;
            value = eq + 1;
            snprintf(set_flag, sizeof set_flag, "--set %s", key);
            flag = set_flag;
        } else if (key) {
            if (i + 1 >= argc) {
                fprintf(stderr, "rogued: %s needs a value\n", argv[i]);
                return 2;
            }
            value = argv[++i];
        } else {
            say_unknown_option(argv[i]);
            return 2;
        }
        if (config_set(&cfg, key, value, err, sizeof err) != 0) {
            flag_refused(given, key, err);
            return 2;
        }
        config_flags_note(&flagged, key, flag);
    }
    if (config_validate(&cfg, err, sizeof err) != 0) {
        fprintf(stderr, "rogued: %s\n", err);
        return 2;
    }
    log_set_level(log_level_parse(cfg.log_level));
    config_env_strays(environ, log_stray, NULL);
    if (list_games)
        return export_list_main(&cfg, stdout);
    if (upgrade)
        return ask_upgrade(cfg.data_dir);
    if (export_id || export_format || export_file) {
        if (!export_id && !export_format) {
            fprintf(stderr, "rogued: unexpected argument '%s' (try --help)\n",
                    export_file);
            return 2;
        }
        if (!export_id || !export_format || !export_file) {
            fprintf(stderr, "rogued: --export needs an ID, --format "
                    "ttyrec|asciicast|dump and a FILE\n");
            return 2;
        }
        return export_main(&cfg, export_id, export_format, export_file);
    }
    if (!getenv(UPGRADE_FD_ENV) && ctl_answers(cfg.data_dir)) {
        /* Two servers on one database would each serve its players (the
         * claims keep an account's game to one of them, docs/hosting.md),
         * the second without a console. An upgrade's new process is
         * handed the console instead. */
        char sock[CTL_PATH_MAX];
        ctl_socket_path(cfg.data_dir, sock, sizeof sock);
        fprintf(stderr, "rogued: another server runs on the data directory "
                "'%s' (its console answers on %s): stop it first (rogued "
                "ctl --data-dir %s shutdown), or give this one a data_dir of "
                "its own\n", cfg.data_dir, sock, cfg.data_dir);
        return 1;
    }
    /* A port in use stops a start before anything is made on disk (an
     * upgrade's new process is handed its listeners). */
    if (!getenv(UPGRADE_FD_ENV) && host_ports_free(&cfg) != 0)
        return 1;
    if (make_dirs(cfg.data_dir) != 0) {
        say_data_dir_refused(cfg.data_dir, errno);
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    raise_fd_limit();

    uv_loop_t loop;
    uv_loop_init(&loop);
    size_thread_pool(&cfg, &loop);
    /* The database first: a file that is not ours stops the server here,
     * before anyone can connect. */
    store_opts_t sopt = { .guest_min_turns = cfg.guest_min_turns,
                          .hashes_per_name = cfg.hashes_per_name,
                          .guest_keep_s = (int64_t)cfg.guest_keep_days * 86400,
                          .busy_ms = cfg.store_lock_timeout_ms,
                          .url = cfg.store };
    store_t *store = store_open(&loop, cfg.data_dir, &sopt, err, sizeof err);
    if (!store) {
        fprintf(stderr, "rogued: %s\n", err);
        uv_loop_close(&loop);
        return 1;
    }
    upgrade_in_t in;
    host_inherit_t inh;
    int taking = take_over(&in, &inh);
    if (taking < 0) {
        store_close(store);
        uv_loop_close(&loop);
        return 1;
    }
    static host_t host; /* its workers' scratch is large: not on the stack */
    if (host_init_from(&host, &loop, &cfg, store, taking ? &inh : NULL,
                       argv) != 0) {
        if (taking)
            upgrade_in_free(&in);
        uv_loop_close(&loop);
        return 1;
    }
    ctl_set_config_path(host.ctl, config_path, config_required);
    ctl_set_flags(host.ctl, &flagged);
    ctl_set_file_values(host.ctl, &file_values);
    if (taking)
        upgrade_dispatch(&host, &in);
    int rc = host_run(&host);
    log_info("stopped");
    return rc == 0 ? 0 : 1;
}
