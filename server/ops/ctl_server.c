/* ctl_server.c - the console's socket on the host's loop, its requests,
 * the loops' answers and the shutdown countdown (ctl.h). */
#define _GNU_SOURCE /* struct ucred */
#include "ctl.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "host.h"
#include "log.h"

#define CTL_LINE_MAX 512
#define CTL_HTTP_MAX 8192
/* Connections at once on each socket: the console's and /metrics' places
 * are apart, so that scrapes (anyone who may reach metrics_addr) never
 * take the operator's. One that never sends its line holds a place until
 * ctl_read_ms, never more. */
#define CTL_CONSOLE_CONNS 16
#define CTL_METRICS_CONNS 16
/* A listener's refusals are logged once in this many ms at most: a flood
 * of connections is not a flood of lines. */
#define CTL_REFUSAL_LOG_MS 10000

struct ctl_req {
    struct ctl_req *prev, *next;
    ctl_t *c;
    union {                    /* the console's socket, or a scrape's */
        uv_pipe_t pipe;
        uv_tcp_t tcp;
    } h;
    int http;                  /* a scrape of /metrics (ctl_metrics.c) */
    void *data;                /* the command's; freed with the request */
    uv_write_t wr;
    char head[256];            /* http: the response's header */
    uint64_t id;
    unsigned uid;
    buf_t in, out;
    const ctl_cmd_t *cmd;
    uint64_t since;            /* accepted: uv_now, for ctl_read_ms */
    int awaiting;              /* loops still to answer */
    int done;                  /* the answer is complete (being written) */
    int64_t scratch[4];
};

/* One listener's places and its refusals' log (CTL_REFUSAL_LOG_MS). */
struct ctl_places {
    int open;                  /* connections open (at most max) */
    int max;
    unsigned long long refused;/* in all */
    uint64_t said;             /* uv_now of the last refusal logged */
    int said_once;
};

struct ctl {
    struct host *h;
    uv_pipe_t server;
    uv_tcp_t metrics;          /* metrics_port's listener */
    int metrics_on;
    inbox_t inbox;             /* the loops' answers (shared.h host_inbox) */
    uv_timer_t countdown;
    int countdown_left;        /* minutes; -1: none running */
    uint64_t next_id;
    ctl_req_t *reqs;
    struct ctl_places console, scrapes;
    uv_timer_t deadline;       /* the oldest request still reading's */
    char path[CTL_PATH_MAX];
    const char *config_path;
    int config_given;          /* named by --config (ctl_set_config_path) */
    const config_flags_t *flags; /* the command line's keys; NULL: none */
    config_t file_values;      /* the file's as last read (ctl.h) */
    int stopped;
    int keep_socket;           /* handed to a new process: not unlinked */
    double started;            /* when ctl_start ran: Unix time, seconds */
};

struct host *ctl_req_host(ctl_req_t *r) { return r->c->h; }
ctl_t *ctl_req_ctl(ctl_req_t *r) { return r->c; }
int64_t *ctl_req_scratch(ctl_req_t *r) { return r->scratch; }
void **ctl_req_data(ctl_req_t *r) { return &r->data; }
double ctl_started(ctl_t *c) { return c->started; }
void ctl_set_config_path(ctl_t *c, const char *path, int given)
{
    if (c) {
        c->config_path = path;
        c->config_given = given;
    }
}
const char *ctl_config_path(ctl_t *c) { return c->config_path; }
int ctl_config_given(ctl_t *c) { return c->config_given; }
void ctl_set_flags(ctl_t *c, const config_flags_t *f) { if (c) c->flags = f; }
const config_flags_t *ctl_flags(ctl_t *c) { return c->flags; }
void ctl_set_file_values(ctl_t *c, const config_t *file)
{
    if (c)
        c->file_values = *file;
}
const config_t *ctl_file_values(const ctl_t *c) { return &c->file_values; }

void ctl_req_printf(ctl_req_t *r, const char *fmt, ...)
{
    char line[CTL_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    buf_puts(&r->out, line);
}

static void on_req_closed(uv_handle_t *hd)
{
    ctl_req_t *r = hd->data;
    (r->http ? &r->c->scrapes : &r->c->console)->open--;
    if (r->prev)
        r->prev->next = r->next;
    else
        r->c->reqs = r->next;
    if (r->next)
        r->next->prev = r->prev;
    buf_free(&r->in);
    buf_free(&r->out);
    free(r->data);
    free(r);
}

static void close_req(ctl_req_t *r)
{
    r->done = 1;
    uv_close((uv_handle_t *)&r->h, on_req_closed);
}

static void on_written(uv_write_t *w, int status)
{
    ctl_req_t *r = w->data;
    (void)status;
    uv_close((uv_handle_t *)&r->h, on_req_closed);
}

/* "! why" on the console. why may say back the operator's own words: a
 * control byte in them is shown as \xNN, never sent to their terminal. */
static void put_refusal(buf_t *out, const char *why)
{
    buf_puts(out, "! ");
    for (const char *p = why; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch < 0x20 || ch == 0x7f)
            buf_printf(out, "\\x%02x", ch);
        else
            buf_append(out, p, 1);
    }
    buf_puts(out, "\n");
}

void ctl_req_done(ctl_req_t *r, const char *err)
{
    if (r->done)
        return;
    r->done = 1;
    if (r->http && err)
        buf_reset(&r->out);
    if (r->http && err && (err[0] < '1' || err[0] > '5'))
        err = "503 Service Unavailable"; /* the console's words */
    if (r->http)
        snprintf(r->head, sizeof r->head,
                 "HTTP/1.0 %s\r\nContent-Type: text/plain; version=0.0.4; "
                 "charset=utf-8\r\nContent-Length: %zu\r\n"
                 "Connection: close\r\n\r\n",
                 err ? err : "200 OK", r->out.len);
    else if (err)
        put_refusal(&r->out, err);
    else
        buf_puts(&r->out, ".\n");
    uv_buf_t b[2] = { uv_buf_init(r->head, (unsigned)strlen(r->head)),
                      uv_buf_init(r->out.data, (unsigned)r->out.len) };
    r->wr.data = r;
    if (uv_write(&r->wr, (uv_stream_t *)&r->h, r->http ? b : b + 1,
                 r->http ? 2 : 1, on_written) != 0)
        uv_close((uv_handle_t *)&r->h, on_req_closed);
}

int ctl_req_send(ctl_req_t *r, int loop, smsg_t *m)
{
    host_t *h = r->c->h;
    m->from = r->id;
    if (loop < 0 || loop >= h->sh.nworkers ||
        inbox_post(h->sh.inbox[loop], m) != 0) {
        msg_free(m);
        return 0;
    }
    r->awaiting++;
    return 1;
}

int ctl_req_broadcast(ctl_req_t *r, smsg_t *m)
{
    host_t *h = r->c->h;
    int n = 0;
    for (int i = 0; i < h->sh.nworkers; i++) {
        smsg_t *copy = msg_new(m->type, 0, 0, "%s", m->text);
        if (!copy)
            continue;
        copy->a = m->a;
        if (m->cfg) {
            copy->cfg = malloc(sizeof *copy->cfg);
            if (!copy->cfg) {
                msg_free(copy);
                continue;
            }
            *copy->cfg = *m->cfg;
        }
        n += ctl_req_send(r, i, copy);
    }
    msg_free(m);
    return n;
}

uint64_t ctl_req_id(ctl_req_t *r) { return r->id; }

ctl_req_t *ctl_req_find(ctl_t *c, uint64_t id)
{
    for (ctl_req_t *r = c->reqs; r; r = r->next)
        if (r->id == id)
            return r;
    return NULL;
}

/* The loops' answers, on the host's loop. */
static void on_answers(inbox_t *ib, void *data)
{
    ctl_t *c = data;
    msgq_t q = { 0 };
    inbox_take(ib, &q);
    smsg_t *m;
    while ((m = msgq_pop(&q))) {
        ctl_req_t *r = ctl_req_find(c, m->from);
        if (r && !r->done) {
            if (r->cmd->answer)
                r->cmd->answer(r, m);
            else if (m->type == MSG_CTL_LINE)
                buf_printf(&r->out, "%s\n", m->text);
            if (m->type == MSG_CTL_END && --r->awaiting == 0)
                r->cmd->finish(r);
        }
        msg_free(m);
    }
}

/* The command of that name in ctl_cmds; NULL: none. */
static const ctl_cmd_t *find_cmd(const char *name)
{
    for (const ctl_cmd_t *k = ctl_cmds; k->name; k++)
        if (strcmp(k->name, name) == 0)
            return k;
    return NULL;
}

/* One line came: the command runs. */
static void run_line(ctl_req_t *r, char *line)
{
    char safe[CTL_LINE_MAX];
    log_info("ctl: uid %u: %s", r->uid, log_words(line, safe, sizeof safe));
    char *args = line + strcspn(line, " ");
    if (*args)
        *args++ = '\0';
    r->cmd = find_cmd(line);
    if (r->cmd) {
        if (r->cmd->run(r, args) == 1 && r->awaiting == 0 && !r->done)
            r->cmd->finish(r);
        return;
    }
    ctl_req_printf(r, "commands:\n");
    for (const ctl_cmd_t *k = ctl_cmds; k->name; k++)
        ctl_req_printf(r, "  %s\n", k->usage);
    char err[80]; /* the word asked for, said back (cut if long) */
    snprintf(err, sizeof err, "unknown command \"%.40s\"", line);
    ctl_req_done(r, err);
}

static void on_alloc(uv_handle_t *hd, size_t size, uv_buf_t *b)
{
    (void)hd;
    (void)size;
    static char scratch[CTL_LINE_MAX]; /* the host's loop only */
    *b = uv_buf_init(scratch, sizeof scratch);
}

static void http_read(ctl_req_t *r);

static void on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
    ctl_req_t *r = st->data;
    if (n < 0) {
        uv_read_stop(st);
        if (!r->done)
            close_req(r);
        return;
    }
    if (buf_append(&r->in, b->base, (size_t)n) != 0 ||
        r->in.len > (r->http ? CTL_HTTP_MAX : CTL_LINE_MAX)) {
        uv_read_stop(st);
        ctl_req_done(r, r->http ? "431 Request Header Fields Too Large"
                                : "line too long");
        return;
    }
    if (r->http) {
        http_read(r);
        return;
    }
    char *nl = memchr(r->in.data, '\n', r->in.len);
    if (!nl)
        return;
    uv_read_stop(st);
    if (memchr(r->in.data, '\0', (size_t)(nl - r->in.data))) {
        /* no command has one: what follows it would go unread (a QA's
         * "shutdown\0 cancel" would have run as "shutdown") */
        log_info("ctl: uid %u: a line with a NUL byte, refused", r->uid);
        ctl_req_done(r, "a command line with a NUL byte in it");
        return;
    }
    /* a line ended CRLF (nc -C, a Windows tool) is the same command */
    if (nl > r->in.data && nl[-1] == '\r')
        nl--;
    *nl = '\0';
    run_line(r, r->in.data);
}

/* A scrape: the whole request read (its header ends with an empty line,
 * so that closing after the answer resets nothing), then GET /metrics. */
static void http_read(ctl_req_t *r)
{
    if (memchr(r->in.data, '\0', r->in.len)) {
        /* no request has one; the end's search below would stop at it and
         * the connection wait out ctl_read_ms (a host QA) */
        uv_read_stop((uv_stream_t *)&r->h);
        ctl_req_done(r, "400 Bad Request");
        return;
    }
    buf_append(&r->in, "", 1);
    r->in.len--;
    if (!strstr(r->in.data, "\r\n\r\n") && !strstr(r->in.data, "\n\n"))
        return;
    uv_read_stop((uv_stream_t *)&r->h);
    if (strncmp(r->in.data, "GET /metrics ", 13) != 0 &&
        strncmp(r->in.data, "GET /metrics?", 13) != 0) {
        ctl_req_done(r, "404 Not Found");
        return;
    }
    r->cmd = find_cmd("metrics");
    if (r->cmd->run(r, "") == 1 && r->awaiting == 0 && !r->done)
        r->cmd->finish(r);
}

static void on_drop_closed(uv_handle_t *hd)
{
    free(hd);
}

/* A connection past its listener's places: taken and closed at once (the
 * listener is not left readable), logged at most once a
 * CTL_REFUSAL_LOG_MS with the count so far. */
static void refuse(ctl_t *c, struct ctl_places *p, uv_stream_t *server)
{
    union { uv_pipe_t pipe; uv_tcp_t tcp; } *drop = malloc(sizeof *drop);
    if (!drop)
        return;
    int http = server == (uv_stream_t *)&c->metrics;
    if (http)
        uv_tcp_init(c->h->loop, &drop->tcp);
    else
        uv_pipe_init(c->h->loop, &drop->pipe, 0);
    if (uv_accept(server, (uv_stream_t *)drop) == 0) {
        uint64_t now = uv_now(c->h->loop);
        p->refused++;
        if (!http) {
            /* the console's refusal, which rogued ctl reports (its client
             * died of SIGPIPE on a close with nothing said: a host QA) */
            char why[128];
            int n = snprintf(why, sizeof why, "! the console has %d "
                             "connections open: try again in a moment\n",
                             p->open);
            uv_buf_t b = uv_buf_init(why, (unsigned)n);
            uv_try_write((uv_stream_t *)drop, &b, 1);
        }
        if (!p->said_once || now - p->said >= CTL_REFUSAL_LOG_MS) {
            log_error("%s: %d connections open, one more refused (%llu in "
                      "all; said once in %d s at most)",
                      http ? "metrics" : "console", p->open, p->refused,
                      CTL_REFUSAL_LOG_MS / 1000);
            p->said = now;
            p->said_once = 1;
        }
    }
    uv_close((uv_handle_t *)drop, on_drop_closed);
}

/* Still waiting for its line or its head: ctl_read_ms applies. */
static int reading(const ctl_req_t *r)
{
    return !r->done && !r->cmd;
}

/* Closes the requests still reading past ctl_read_ms, and sets the timer
 * for the next one's end. One timer for all: at most CTL_CONSOLE_CONNS +
 * CTL_METRICS_CONNS to look at. */
static void on_deadline(uv_timer_t *t)
{
    ctl_t *c = t->data;
    uint64_t now = uv_now(c->h->loop), next = UINT64_MAX;
    uint64_t ms = (uint64_t)c->h->cfg.ctl_read_ms;
    for (ctl_req_t *r = c->reqs; r; r = r->next) {
        if (!reading(r))
            continue;
        if (r->since + ms <= now)
            close_req(r);
        else if (r->since + ms < next)
            next = r->since + ms;
    }
    if (next != UINT64_MAX)
        uv_timer_start(t, on_deadline, next - now, 0);
}

/* The request's peer (the console's uid) and its read started. */
static void req_start(ctl_req_t *r)
{
    uv_os_fd_t fd;
    struct ucred cred;
    socklen_t len = sizeof cred;
    r->uid = (unsigned)-1;
    if (!r->http && uv_fileno((uv_handle_t *)&r->h, &fd) == 0 &&
        getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0)
        r->uid = cred.uid;
    ctl_t *c = r->c;
    /* a timer running is set for an older request's end, before this one */
    if (!uv_is_active((uv_handle_t *)&c->deadline))
        uv_timer_start(&c->deadline, on_deadline,
                       (uint64_t)c->h->cfg.ctl_read_ms, 0);
    uv_read_start((uv_stream_t *)&r->h, on_alloc, on_read);
}

static void on_connection(uv_stream_t *server, int status)
{
    ctl_t *c = server->data;
    if (status < 0 || c->stopped)
        return;
    int http = server == (uv_stream_t *)&c->metrics;
    struct ctl_places *p = http ? &c->scrapes : &c->console;
    ctl_req_t *r = p->open < p->max ? calloc(1, sizeof *r) : NULL;
    if (!r) {
        refuse(c, p, server);
        return;
    }
    p->open++;
    r->c = c;
    r->id = ++c->next_id;
    r->http = http;
    r->since = uv_now(c->h->loop);
    buf_init(&r->in, (r->http ? CTL_HTTP_MAX : CTL_LINE_MAX) + 2);
    buf_init(&r->out, 0);
    if (r->http)
        uv_tcp_init(c->h->loop, &r->h.tcp);
    else
        uv_pipe_init(c->h->loop, &r->h.pipe, 0);
    r->h.pipe.data = r;
    r->next = c->reqs;
    if (c->reqs)
        c->reqs->prev = r;
    c->reqs = r;
    if (uv_accept(server, (uv_stream_t *)&r->h) != 0) {
        close_req(r);
        return;
    }
    req_start(r);
}

/* The host's line to every screen, as a console `say` (one message to
 * each worker loop). */
static void say_everywhere(ctl_t *c, const char *line)
{
    host_t *h = c->h;
    for (int i = 0; i < h->sh.nworkers; i++) {
        smsg_t *m = msg_new(MSG_CTL_SAY, 0, 0, "%s", line);
        if (m && inbox_post(h->sh.inbox[i], m) != 0)
            msg_free(m);
    }
}

static void countdown_say(ctl_t *c)
{
    char line[64];
    snprintf(line, sizeof line, "The server shuts down in %d minute%s.",
             c->countdown_left, c->countdown_left == 1 ? "" : "s");
    say_everywhere(c, line);
}

int ctl_cancel_shutdown(ctl_t *c)
{
    if (c->stopped || c->countdown_left <= 0 ||
        !uv_is_active((uv_handle_t *)&c->countdown))
        return 0;
    int left = c->countdown_left;
    uv_timer_stop(&c->countdown);
    c->countdown_left = -1;
    say_everywhere(c, "The shutdown is called off: play on.");
    log_info("shutdown called off by the console (%d minute%s left)", left,
             left == 1 ? "" : "s");
    return left;
}

static void on_countdown(uv_timer_t *t)
{
    ctl_t *c = t->data;
    if (--c->countdown_left > 0) {
        countdown_say(c);
        return;
    }
    uv_timer_stop(t);
    host_shutdown(c->h, "shutdown by the console");
}

int ctl_schedule_shutdown(ctl_t *c, int minutes)
{
    if (c->stopped)
        return -1;
    /* a new shutdown replaces a countdown running (0: now) */
    uv_timer_stop(&c->countdown);
    c->countdown_left = minutes;
    if (minutes <= 0) {
        host_shutdown(c->h, "shutdown by the console");
        return 0;
    }
    countdown_say(c);
    uint64_t step = (uint64_t)c->h->cfg.shutdown_minute_ms;
    uv_timer_start(&c->countdown, on_countdown, step, step);
    return 0;
}

/* /metrics on the socket host.c opened or took over (docs/hosting.md,
 * "Operations"; fd -1: none). Taking it here cannot stop the server: a
 * start has bound it already, and an upgrade's new process holds the
 * sessions. */
static void metrics_listen(ctl_t *c, int fd)
{
    uv_tcp_init(c->h->loop, &c->metrics);
    c->metrics.data = c;
    c->metrics_on = 1;
    int rc = uv_tcp_open(&c->metrics, fd);
    if (rc == 0)
        rc = uv_listen((uv_stream_t *)&c->metrics, 64, on_connection);
    else
        close(fd);
    if (rc != 0) {
        log_error("metrics: cannot listen on %s port %d: %s",
                  c->h->cfg.metrics_addr, c->h->cfg.metrics_port,
                  uv_strerror(rc));
        uv_close((uv_handle_t *)&c->metrics, NULL);
        c->metrics_on = 0;
        return;
    }
    struct sockaddr_storage bound;
    int len = sizeof bound;
    char name[80] = "?";
    if (uv_tcp_getsockname(&c->metrics, (struct sockaddr *)&bound, &len) == 0)
        srv_addr_name(&bound, name, sizeof name);
    log_info("metrics on http://%s/metrics%s", name,
             c->h->metrics_taken ? " (taken over from the old process)" : "");
}

int ctl_socket_path(const char *data_dir, char *path, size_t n)
{
    int len = snprintf(path, n, "%s/%s", data_dir, CTL_SOCKET);
    return len >= 0 && (size_t)len < n ? 0 : -1;
}

/* path as a Unix socket's address. Returns 0, or -1 when it is too long
 * for one. */
static int unix_addr(const char *path, struct sockaddr_un *sa)
{
    size_t len = strlen(path);
    if (len >= sizeof sa->sun_path)
        return -1;
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    memcpy(sa->sun_path, path, len + 1);
    return 0;
}

/* 1 if a server listens on the Unix socket at path (a connect says so at
 * once: a stale socket refuses it). */
static int socket_answers(const char *path)
{
    struct sockaddr_un sa;
    if (unix_addr(path, &sa) != 0)
        return 0;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    int ok = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    close(fd);
    return ok;
}

int ctl_answers(const char *data_dir)
{
    char path[CTL_PATH_MAX];
    return ctl_socket_path(data_dir, path, sizeof path) == 0 &&
           socket_answers(path);
}

static ctl_t *listen_on(ctl_t *c, int fd);

ctl_t *ctl_start(struct host *h)
{
    ctl_t *c = calloc(1, sizeof *c);
    if (!c) {
        log_error("console: out of memory");
        return NULL;
    }
    c->h = h;
    c->countdown_left = -1;
    config_defaults(&c->file_values);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    c->started = (double)now.tv_sec + (double)(now.tv_nsec / 1000000) / 1000.0;
    ctl_socket_path(h->cfg.data_dir, c->path, sizeof c->path); /* fits */
    if (h->ctl_fd >= 0) /* handed over by the old process (upgrade.h) */
        return listen_on(c, h->ctl_fd);
    if (socket_answers(c->path)) {
        /* another server on this directory: its console stays its own
         * (main refuses to start there, ctl_answers; this is two servers
         * started at once, both past that check) */
        log_error("console: a server already answers on %s; no console here",
                  c->path);
        c->stopped = 1;
        return c;
    }
    unlink(c->path); /* left by a server that did not stop cleanly */
    return listen_on(c, -1);
}

/* A Unix socket bound to path, 0600 from the start (no moment in which
 * another user may connect). Bound here, not by uv_pipe_bind: libuv
 * unlinks the path of a pipe it bound when the handle closes, and after
 * an upgrade the old process closes its handle while the path is the new
 * process's console (ctl_stop unlinks it itself when it is not handed
 * over). Returns the descriptor, or a negative libuv error. */
static int bind_socket(const char *path)
{
    struct sockaddr_un sa;
    if (unix_addr(path, &sa) != 0)
        return UV_ENAMETOOLONG;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    mode_t old = umask(0177);
    int rc = bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 ? 0 : -errno;
    umask(old);
    if (rc != 0) {
        close(fd);
        return rc;
    }
    return fd;
}

/* Listens on fd (an upgrade's), or binds the socket's path (fd -1). */
static ctl_t *listen_on(ctl_t *c, int fd)
{
    struct host *h = c->h;
    uv_pipe_init(h->loop, &c->server, 0);
    c->server.data = c;
    int made = 0; /* the path bound here (a file of ours) */
    int rc = fd >= 0 ? fd : bind_socket(c->path);
    if (rc >= 0) {
        made = fd < 0;
        fd = rc;
        rc = uv_pipe_open(&c->server, fd);
        if (rc != 0 && made)
            close(fd); /* not the handle's: ours to close */
    }
    if (rc == 0)
        rc = uv_listen((uv_stream_t *)&c->server, 16, on_connection);
    if (rc == 0)
        rc = inbox_open(&c->inbox, h->loop, on_answers, c);
    if (rc != 0) {
        log_error("console: cannot listen on %s: %s", c->path, uv_strerror(rc));
        if (made)
            unlink(c->path); /* bound, but no console on it */
        /* (metrics_fd, untaken: host.c closes it after ctl_start) */
        uv_close((uv_handle_t *)&c->server, NULL);
        c->stopped = 1;
        return c; /* freed by ctl_free after the loop has run the close */
    }
    uv_timer_init(h->loop, &c->countdown);
    c->countdown.data = c;
    uv_timer_init(h->loop, &c->deadline);
    c->deadline.data = c;
    c->console.max = CTL_CONSOLE_CONNS;
    c->scrapes.max = CTL_METRICS_CONNS;
    h->sh.host_inbox = &c->inbox;
    if (h->metrics_fd >= 0)
        metrics_listen(c, h->metrics_fd);
    h->metrics_fd = -1;
    log_info("console on %s (rogued ctl --data-dir %s help)", c->path,
             h->cfg.data_dir);
    return c;
}

void ctl_stop(ctl_t *c)
{
    if (!c || c->stopped)
        return;
    c->stopped = 1;
    uv_close((uv_handle_t *)&c->server, NULL);
    uv_close((uv_handle_t *)&c->countdown, NULL);
    uv_close((uv_handle_t *)&c->deadline, NULL);
    if (c->metrics_on)
        uv_close((uv_handle_t *)&c->metrics, NULL);
    /* The loops' answers from here on are refused (inbox.h): they free
     * them. host_inbox stays set for them until ctl_free. */
    msgq_t left = { 0 };
    inbox_close(&c->inbox, &left);
    msgq_free(&left);
    for (ctl_req_t *r = c->reqs; r; r = r->next) {
        if (r->done)
            continue;
        if (r->cmd) {
            ctl_req_done(r, "the server is shutting down");
        } else { /* still reading its line */
            close_req(r);
        }
    }
    if (!c->keep_socket)
        unlink(c->path);
}

int ctl_listen_fd(ctl_t *c)
{
    uv_os_fd_t fd;
    if (!c || c->stopped || uv_fileno((uv_handle_t *)&c->server, &fd) != 0)
        return -1;
    return fd;
}

int ctl_metrics_fd(ctl_t *c)
{
    uv_os_fd_t fd;
    if (!c || c->stopped || !c->metrics_on ||
        uv_fileno((uv_handle_t *)&c->metrics, &fd) != 0)
        return -1;
    return fd;
}

void ctl_keep_socket(ctl_t *c)
{
    if (c)
        c->keep_socket = 1;
}

void ctl_free(ctl_t *c)
{
    if (!c)
        return;
    inbox_free(&c->inbox);
    free(c);
}
