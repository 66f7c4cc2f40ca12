/* ctl_client.c - `rogued ctl [--data-dir DIR] COMMAND [ARGS]`: one line to
 * the console's socket, its answer printed (ctl.h). Exit status 0 when
 * the command was done (and for `rogued ctl` alone or `help`, which list
 * the commands without a server), 1 when the server refused it (why on
 * stderr), 2 when the server could not be reached or the command line is
 * wrong. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "config.h"
#include "denied_hint.h"
#include "ctl.h"

/* The commands' usage lines, each after indent: the server's own help's
 * list. */
static void list_cmds(FILE *out, const char *indent)
{
    for (const ctl_cmd_t *k = ctl_cmds; k->name; k++)
        fprintf(out, "%s%s\n", indent, k->usage);
}

/* The usage: on stdout (exit 0) when asked for, `rogued ctl` alone; on
 * stderr (exit 2) for a wrong command line. */
static int usage_to(FILE *out, int status)
{
    fprintf(out,
            "Usage: rogued ctl [--config FILE] [--data-dir DIR] COMMAND "
            "[ARGS]\n"
            "Talks to the server running on DIR through DIR/" CTL_SOCKET
            ". DIR is\n"
            "found as the server finds it: --data-dir, else ROGUED_DATA_DIR,\n"
            "else the config file's data_dir (" CONFIG_DEFAULT_FILE ", or\n"
            "--config FILE), else ./data. Commands:\n");
    list_cmds(out, "  ");
    return status;
}

static int usage(void)
{
    return usage_to(stderr, 2);
}

/* `help`: the list the server's own help gives (its usage lines), said
 * without asking one: a host reading it may have none running yet. */
static int help_here(void)
{
    list_cmds(stdout, "");
    return 0;
}

/* A command's word that names a file: backup's FILE, upgrade's BINARY.
 * Made absolute, as the server runs in a directory of its own. */
static int names_a_file(char **argv, int i)
{
    return i == 1 && (strcmp(argv[0], "backup") == 0 ||
                      strcmp(argv[0], "upgrade") == 0);
}

/* The command line as one line: a file's name made absolute
 * (names_a_file). */
static int join(int argc, char **argv, char *line, size_t n)
{
    size_t len = 0;
    for (int i = 0; i < argc; i++) {
        char abs[PATH_MAX + 2];
        const char *word = argv[i];
        if (names_a_file(argv, i) && word[0] != '/') {
            char cwd[PATH_MAX];
            if (!getcwd(cwd, sizeof cwd))
                return -1;
            snprintf(abs, sizeof abs, "%.*s/%s", PATH_MAX / 2, cwd, word);
            word = abs;
        }
        int w = snprintf(line + len, n - len, "%s%s", i ? " " : "", word);
        if (w < 0 || (size_t)w >= n - len)
            return -1;
        len += (size_t)w;
    }
    if (len + 2 > n || memchr(line, '\n', len))
        return -1;
    line[len++] = '\n';
    line[len] = '\0';
    return (int)len;
}

/* Who speaks in the messages: `rogued ctl`, or `rogued --upgrade`, which
 * asks the console too (argv[0] says which). */
static const char *me = "rogued ctl";

/* The socket at path refused the connect with e: said, with what the
 * host can do about the two usual causes (no server there; a user who may
 * not open it, the socket being 0600, not a missing server). */
static void say_unreachable(const char *path, int e)
{
    char hint[256];
    fprintf(stderr, "%s: cannot reach the server at %s: %s", me, path,
            strerror(e));
    if (e == ENOENT || e == ECONNREFUSED)
        fprintf(stderr, " (no server runs with this data directory: start "
                "one, or name its own with --data-dir DIR)");
    else if (e == EACCES || e == EPERM)
        fprintf(stderr, " (%s)", denied_hint(me, "the user the server runs as",
                                             hint, sizeof hint));
    fprintf(stderr, "\n");
}

/* The data directory as the server finds it (docs/hosting.md): the
 * config file's data_dir, ROGUED_DATA_DIR over it; --data-dir over both
 * (the caller's). Only data_dir is read: a mistake in another key is the
 * server's to refuse (at its start, or at a reload), not a reason to leave
 * the console shut. A mistake in data_dir itself is said with the way
 * around it. 0, or -1 with why said. */
static int find_data_dir(config_t *d, const char *file, int required)
{
    char err[512];
    config_defaults(d);
    if (config_load_file_key(d, file, required, "data_dir", err,
                             sizeof err) != 0 ||
        config_load_env_key(d, "data_dir", err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s (%s looks there for the server's data "
                "directory: fix it, or name the directory with --data-dir "
                "DIR)\n", me, err, me);
        return -1;
    }
    return 0;
}

/* The console's socket on dir, connected: its descriptor, or -1 (said). */
static int connect_to(const char *dir)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    if (ctl_socket_path(dir, sa.sun_path, sizeof sa.sun_path) != 0) {
        fprintf(stderr, "%s: the data directory's path is too long\n", me);
        return -1;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        say_unreachable(sa.sun_path, errno);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* Everything the server answers on fd until it closes, NUL-terminated
 * (the caller frees), or NULL (out of memory). */
static char *read_answer(int fd)
{
    size_t cap = 4096, n = 0;
    char *ans = malloc(cap);
    ssize_t r;
    while (ans && (r = read(fd, ans + n, cap - n - 1)) != 0) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        n += (size_t)r;
        if (n + 1 == cap) {
            char *more = realloc(ans, cap * 2);
            if (!more)
                break;
            ans = more;
            cap *= 2;
        }
    }
    if (ans)
        ans[n] = '\0';
    return ans;
}

/* The answer's lines printed, and its status (its last line: "." done,
 * "! why" refused) as the exit status. */
static int report(char *ans)
{
    size_t n = strlen(ans);
    while (n > 0 && ans[n - 1] == '\n')
        ans[--n] = '\0';
    char *last = strrchr(ans, '\n');
    char *status = last ? last + 1 : ans;
    if (last)
        *last = '\0';
    if (strcmp(status, ".") == 0) {
        if (last)
            printf("%s\n", ans);
        return 0;
    }
    if (status[0] == '!') {
        if (last)
            printf("%s\n", ans);
        fprintf(stderr, "%s: %s\n", me, status + 2);
        return 1;
    }
    fprintf(stderr, "%s: the server closed without an answer\n", me);
    return 2;
}

int ctl_client_main(int argc, char **argv)
{
    me = strcmp(argv[0], "--upgrade") == 0 ? "rogued --upgrade" : "rogued ctl";
    const char *dir = NULL, *file = CONFIG_DEFAULT_FILE;
    int required = 0, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        int data = strcmp(argv[i], "--data-dir") == 0 ||
                   strcmp(argv[i], "-d") == 0;
        int conf = strcmp(argv[i], "--config") == 0 ||
                   strcmp(argv[i], "-c") == 0;
        if (!(data || conf) || i + 1 >= argc)
            return usage();
        if (data)
            dir = argv[++i];
        else {
            file = argv[++i];
            required = 1;
        }
    }
    if (i >= argc)
        return usage_to(stdout, 0); /* the list, asked for */
    if (argc - i == 1 && strcmp(argv[i], "help") == 0)
        return help_here();
    config_t d;
    if (!dir) {
        if (find_data_dir(&d, file, required) != 0)
            return 2;
        dir = d.data_dir;
    }
    char line[1024];
    int len = join(argc - i, argv + i, line, sizeof line);
    if (len < 0) {
        fprintf(stderr, "%s: the command is too long\n", me);
        return 2;
    }
    int fd = connect_to(dir);
    if (fd < 0)
        return 2;
    /* A server that refuses the connection (its console full) says why
     * and closes: the write then fails with EPIPE, not the signal, and
     * its answer is read all the same. */
    signal(SIGPIPE, SIG_IGN);
    if (write(fd, line, (size_t)len) != len && errno != EPIPE) {
        fprintf(stderr, "%s: %s\n", me, strerror(errno));
        close(fd);
        return 2;
    }
    char *ans = read_answer(fd);
    close(fd);
    if (!ans)
        return 2;
    int rc = report(ans);
    free(ans);
    return rc;
}
