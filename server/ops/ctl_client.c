/* ctl_client.c - `rogued ctl [--data-dir DIR] COMMAND [ARGS]`: one line to
 * the console's socket, its answer printed (ctl.h). Exit status 0 when
 * the command was done, 1 when the server refused it (why on stderr), 2
 * when the server could not be reached or the command line is wrong. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "config.h"
#include "denied_hint.h"
#include "ctl.h"

static int usage(void)
{
    fprintf(stderr,
            "Usage: rogued ctl [--data-dir DIR] COMMAND [ARGS]\n"
            "Talks to the server running on DIR (default ./data) through\n"
            "DIR/" CTL_SOCKET ". Commands:\n");
    for (const ctl_cmd_t *k = ctl_cmds; k->name; k++)
        fprintf(stderr, "  %s\n", k->usage);
    return 2;
}

/* The command line as one line: FILE of backup made absolute (the server
 * runs elsewhere). */
static int join(int argc, char **argv, char *line, size_t n)
{
    size_t len = 0;
    for (int i = 0; i < argc; i++) {
        char abs[PATH_MAX + 2];
        const char *word = argv[i];
        if (i == 1 && strcmp(argv[0], "backup") == 0 && word[0] != '/') {
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

int ctl_client_main(int argc, char **argv)
{
    config_t d;
    config_defaults(&d);
    const char *dir = d.data_dir;
    me = strcmp(argv[0], "--upgrade") == 0 ? "rogued --upgrade" : "rogued ctl";
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if ((strcmp(argv[i], "--data-dir") == 0 || strcmp(argv[i], "-d") == 0) &&
            i + 1 < argc)
            dir = argv[++i];
        else
            return usage();
    }
    if (i >= argc)
        return usage();
    char line[1024];
    int len = join(argc - i, argv + i, line, sizeof line);
    if (len < 0) {
        fprintf(stderr, "%s: the command is too long\n", me);
        return 2;
    }
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    if (ctl_socket_path(dir, sa.sun_path, sizeof sa.sun_path) != 0) {
        fprintf(stderr, "%s: the data directory's path is too long\n", me);
        return 2;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        say_unreachable(sa.sun_path, errno);
        if (fd >= 0)
            close(fd);
        return 2;
    }
    if (write(fd, line, (size_t)len) != len) {
        fprintf(stderr, "%s: %s\n", me, strerror(errno));
        close(fd);
        return 2;
    }
    /* The answer: lines, then "." or "! why". */
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
    close(fd);
    if (!ans)
        return 2;
    ans[n] = '\0';
    /* the status is the last line */
    while (n > 0 && ans[n - 1] == '\n')
        ans[--n] = '\0';
    char *last = strrchr(ans, '\n');
    char *status = last ? last + 1 : ans;
    if (last)
        *last = '\0';
    int rc;
    if (strcmp(status, ".") == 0) {
        if (last)
            printf("%s\n", ans);
        rc = 0;
    } else if (status[0] == '!') {
        if (last)
            printf("%s\n", ans);
        fprintf(stderr, "%s: %s\n", me, status + 2);
        rc = 1;
    } else {
        fprintf(stderr, "%s: the server closed without an answer\n", me);
        rc = 2;
    }
    free(ans);
    return rc;
}
