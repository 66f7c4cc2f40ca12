/* bench_load.c - the load generator: N telnet players against a real server.
 *
 * For each row (N sessions, R keys per second each, D seconds) it starts a
 * fresh server (the given binary, --port 0 on 127.0.0.1, a temporary data
 * directory, built-in defaults, log to a file), reads its port from the
 * "listening on" line, and opens N sessions on one libuv loop (at most
 * CONNECT_WINDOW setting up at once). Each session negotiates as a real
 * client: DO ECHO, DO SGA, WILL NAWS with 80x24, WILL TTYPE and
 * "xterm-256color" each time it is asked, then leaves the lobby as a guest
 * (p, then Enter on the name offered). A session is held once its game's
 * first screen has arrived (the server ends every screen update with IAC
 * NOP, the frame marker the session tests use too).
 *
 * Then, for D seconds, every session sends one movement key (vi-keys,
 * a random walk that turns at walls; 'r' for a new game after YOU DIED) at
 * R per second, each session's schedule offset at random. Every key that
 * falls due is sent and measured: a session has at most one key in flight,
 * and keys that fall due while an answer is awaited wait their turn (they
 * are sent one by one as the answers come). A key's latency runs from
 * when it was sent to the frame marker that ends its screen update, and
 * for a key that had to wait for the answers before it, from the moment it
 * fell due: a slow server is not hidden by the client waiting for it (no
 * coordinated omission). A key still unanswered when the row ends (the window plus a
 * grace period) counts in the percentiles with the time it had waited by
 * then (a lower bound), and in the "not served" column.
 *
 * Per row it prints: sessions held, keys offered per second (fell due in
 * the window) and served per second (answered in the window), turns per
 * second (the server's own count: the turns= of its game over and game
 * suspended lines, one per game, scaled to the keys answered in the window),
 * latency p50/p99/p99.9/max over every key offered, keys not served, bytes
 * per key (everything received: ANSI, telnet, markers), errors (failed
 * connects, sessions not ready in time), disconnects (by the server during
 * the row), the server's CPU per key in µs (utime + stime from
 * /proc/PID/stat over the measured window), its RSS (VmRSS) once idle after
 * start-up (the start-up work, a password hash of 64 MiB, is over) and with
 * the N sessions held, the difference per session; and the CPU shares of the
 * server and of the generator (which shares the machine with it), with the
 * generator's CPU per key.
 *
 * It raises its descriptor limit to the hard limit, spreads the sessions
 * over several loopback source addresses (127.0.0.1, .2, ...) when one
 * address has too few ephemeral ports, and bounds everything in time: a row
 * ends after its duration plus a grace period whatever happens, and the
 * server is killed if it does not stop.
 *
 * The last column is the machine's 1-minute load average after the row: on
 * this 2-core machine anything above 2 means other work took CPU from the
 * server or the generator. A row whose offered rate needs more than 90% of
 * the cores (the server's and the generator's CPU per key times the keys
 * offered per second), or that left keys unserved while the load average
 * was above the cores, is marked machine-limited.
 *
 *   bench_load --server BIN [--rows N:R:D[:W][,N:R:D[:W]]...] [--sources K]
 *              [--ttype NAME]    (what the sessions say they are; default
 *                                 xterm-256color: 256 colours, ASCII)
 *              [--arg ARG]...    (extra server arguments)
 *              [--echo BIN]      (after each row, the same row against
 *                                 BIN, bench_echo: the floor, with frames
 *                                 of the row's bytes per key; then the
 *                                 server's CPU per key as a ratio to it)
 *   W: the server's worker loops for that row (default: the server's own,
 *   one per core); rows that differ only in W compare 1 and 2 loops at the
 *   same offered load in the same run. 
 *   BENCH_LOAD_TRACE=FILE: one line per answered key (ms since the window
 *   opened, latency ms, session index), to see when slow answers happen. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#define CONNECT_WINDOW 256     /* sessions setting up at once */
#define SETUP_TIMEOUT_MS 60000 /* for all N sessions to be held */
#define GRACE_MS 3000          /* after the window: the last answers */
#define MAX_ROWS 32
#define MAX_ARGS 16
#define PORTS_PER_SOURCE 20000 /* of the 28,232 in 32768-60999 */

#define IAC 255
#define DONT 254
#define DO 253
#define WONT 252
#define WILL 251
#define SB 250
#define NOP 241
#define SE 240
#define OPT_ECHO 1
#define OPT_SGA 3
#define OPT_TTYPE 24
#define OPT_NAWS 31

enum tn_state { TN_DATA, TN_IAC, TN_OPT, TN_SB, TN_SB_DATA, TN_SB_IAC };
enum phase { P_IDLE, P_CONNECTING, P_SETUP, P_READY, P_CLOSED };

typedef struct lsess {
    uv_tcp_t tcp;
    uv_connect_t creq;
    uv_timer_t timer;
    struct lrow *row;
    uint8_t phase;          /* enum phase */
    uint8_t tn, tn_cmd, sb_opt, sb_first, sb_len;
    uint8_t in_flight;      /* a key awaits its frame marker */
    uint8_t dead, dir;
    uint8_t m_died, m_wall; /* progress of the two text matchers */
    uint8_t m_hp, in_game;  /* "HP: " seen: the game's status line is here */
    uint8_t lobby_step;     /* 0: lobby shown, 1: p sent, 2: Enter sent */
    uint8_t answer_data;    /* screen bytes since the key was sent (capped) */
    uint8_t counted;        /* 1 once counted as held */
    uint8_t handles;        /* open handles to close */
    uint32_t rng;
    uint64_t sent_ns;       /* the in-flight key's latency counts from here:
                               when it fell due */
    uint64_t first_ns;      /* when the session's first key is due; key k
                               is due at first_ns + k * period */
    uint64_t next_ns;       /* when the next key is due */
    uint32_t due, sent, done; /* keys fallen due, sent, answered */
    uint64_t bytes;         /* received while measuring */
} lsess_t;

typedef struct lrow {
    int n, rate, secs;
    uv_loop_t *loop;
    lsess_t *s;
    struct sockaddr_in server;
    int sources;
    int next_connect, connecting, held, failed, disconnects, closed_handles;
    int measuring, stopping;
    uint64_t t_start, t_end, period_ns;
    uint32_t *lat;          /* µs, one per answered key */
    size_t nlat, caplat;
    long keys_sent, answered, answered_in_window, offered, unserved;
    uint64_t bytes;
    uv_timer_t guard;
} lrow_t;

static uint64_t now_ns(void)
{
    return uv_hrtime();
}

static uint32_t xorshift(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* --- the server process ------------------------------------------------------ */

typedef struct server {
    pid_t pid;
    int port;
    char dir[64], log[96];
} server_t;

static int read_file(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    size_t len = 0;
    ssize_t k;
    while (len + 1 < cap && (k = read(fd, buf + len, cap - 1 - len)) > 0)
        len += (size_t)k;
    close(fd);
    buf[len] = '\0';
    return (int)len;
}

/* VmRSS of pid in KiB, or -1. */
static long rss_kib(pid_t pid)
{
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    if (read_file(path, buf, sizeof buf) < 0)
        return -1;
    char *p = strstr(buf, "VmRSS:");
    return p ? strtol(p + 6, NULL, 10) : -1;
}

/* utime + stime of pid in seconds, or -1. */
static double cpu_s(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (read_file(path, buf, sizeof buf) < 0)
        return -1;
    char *p = strrchr(buf, ')');
    if (!p)
        return -1;
    /* Fields after the name: 3 state ... 14 utime, 15 stime. */
    unsigned long ut = 0, st = 0;
    int field = 2;
    for (char *q = p + 1; *q && field < 15; q++) {
        if (*q == ' ') {
            field++;
            if (field == 14)
                ut = strtoul(q + 1, NULL, 10);
            else if (field == 15)
                st = strtoul(q + 1, NULL, 10);
        }
    }
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static double self_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* The 1-minute load average. */
static double load_avg(void)
{
    char buf[128];
    return read_file("/proc/loadavg", buf, sizeof buf) > 0 ? atof(buf) : -1;
}

/* Waits until pid has used no CPU for 300 ms (up to ms): start-up done.
 * Returns 1 if it went idle. */
static int wait_idle(pid_t pid, int ms)
{
    double last = cpu_s(pid);
    int quiet = 0;
    for (int waited = 0; waited < ms; waited += 100) {
        sleep_ms(100);
        double now = cpu_s(pid);
        quiet = now == last ? quiet + 100 : 0;
        last = now;
        if (quiet >= 300)
            return 1;
    }
    return 0;
}

static int server_start(server_t *sv, const char *bin, int max_sessions,
                        char **extra, int nextra)
{
    snprintf(sv->dir, sizeof sv->dir, "/tmp/bench_load.XXXXXX");
    if (!mkdtemp(sv->dir))
        return -1;
    snprintf(sv->log, sizeof sv->log, "%s/server.log", sv->dir);
    char data[96], maxs[32];
    snprintf(data, sizeof data, "%s/data", sv->dir);
    snprintf(maxs, sizeof maxs, "%d", max_sessions);
    char *argv[16 + MAX_ARGS];
    int a = 0;
    argv[a++] = (char *)bin;
    argv[a++] = "--config";
    argv[a++] = "/dev/null";
    argv[a++] = "--port";
    argv[a++] = "0";
    argv[a++] = "--bind";
    argv[a++] = "127.0.0.1";
    argv[a++] = "--data-dir";
    argv[a++] = data;
    argv[a++] = "--max-sessions";
    argv[a++] = maxs;
    /* Every simulated player comes from loopback: no per-address limits. */
    argv[a++] = "--set";
    argv[a++] = "max_sessions_per_ip=0";
    argv[a++] = "--set";
    argv[a++] = "connects_per_ip_per_minute=0";
    argv[a++] = "--set";
    argv[a++] = "http_port=0";
    for (int i = 0; i < nextra; i++)
        argv[a++] = extra[i];
    argv[a] = NULL;
    pid_t ppid = getpid();
    sv->pid = fork();
    if (sv->pid < 0)
        return -1;
    if (sv->pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the generator */
        if (getppid() != ppid)
            _exit(1);
        int fd = open(sv->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0)
            _exit(1);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        execv(bin, argv);
        _exit(127);
    }
    static char buf[1 << 16];
    /* Up to a minute: under valgrind on a busy machine the start-up's
     * password hash alone can take tens of seconds. */
    for (int waited = 0; waited < 60000; waited += 10) {
        if (read_file(sv->log, buf, sizeof buf) > 0) {
            char *p = strstr(buf, "listening on 127.0.0.1:");
            if (p) {
                sv->port = atoi(p + strlen("listening on 127.0.0.1:"));
                return sv->port > 0 ? 0 : -1;
            }
        }
        if (waitpid(sv->pid, NULL, WNOHANG) == sv->pid) {
            sv->pid = 0;
            fprintf(stderr, "bench_load: the server exited at start:\n%s\n", buf);
            return -1;
        }
        sleep_ms(10);
    }
    fprintf(stderr, "bench_load: the server did not listen within 60 s\n");
    return -1;
}

/* SIGTERM, up to 10 s for it to exit, then SIGKILL. Returns its status. */
static int server_stop(server_t *sv)
{
    int st = -1;
    if (sv->pid <= 0)
        return -1;
    kill(sv->pid, SIGTERM);
    for (int waited = 0; waited < 10000; waited += 10) {
        if (waitpid(sv->pid, &st, WNOHANG) == sv->pid) {
            sv->pid = 0;
            return st;
        }
        sleep_ms(10);
    }
    kill(sv->pid, SIGKILL);
    waitpid(sv->pid, &st, 0);
    sv->pid = 0;
    return st;
}

/* Sums "turns=T" over the log's game over and game suspended lines (one
 * per game: a guest's game cut by a disconnect has its game over line, and
 * the disconnect line repeats the same turns, so it is not added); *disc
 * gets the number of disconnect lines. */
static long log_turns(const char *path, int *disc)
{
    FILE *f = fopen(path, "r");
    long turns = 0;
    char line[512];
    *disc = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        int is_disc = strstr(line, " disconnect ") != NULL;
        *disc += is_disc;
        char *p = strstr(line, " turns=");
        if (p && (strstr(line, " game over ") || strstr(line, " game suspended ")))
            turns += strtol(p + 7, NULL, 10);
    }
    fclose(f);
    return turns;
}

static void remove_dir(const char *dir)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_load: could not remove %s\n", dir);
}

/* --- a session ---------------------------------------------------------------- */

static void on_write_done(uv_write_t *req, int status)
{
    (void)status;
    free(req);
}

/* Writes constant bytes (static storage: they outlive any request). */
static void send_bytes(lsess_t *c, const char *p, size_t n)
{
    if (c->phase == P_CLOSED)
        return;
    uv_buf_t b = uv_buf_init((char *)p, (unsigned)n);
    int k = uv_try_write((uv_stream_t *)&c->tcp, &b, 1);
    if (k == (int)n)
        return;
    if (k > 0) {
        b.base += k;
        b.len -= (size_t)k;
    }
    uv_write_t *req = malloc(sizeof *req);
    if (!req || uv_write(req, (uv_stream_t *)&c->tcp, &b, 1, on_write_done) != 0)
        free(req);
}

static void on_closed(uv_handle_t *h)
{
    lsess_t *c = h->data;
    c->row->closed_handles++;
}

static void sess_end(lsess_t *c, int by_server)
{
    lrow_t *r = c->row;
    if (c->phase == P_CLOSED)
        return;
    if (c->phase == P_CONNECTING || c->phase == P_SETUP) {
        r->connecting--;
        r->failed++;
    }
    if (by_server && c->phase == P_READY)
        r->disconnects++;
    if (c->counted)
        r->held--;
    c->counted = 0;
    c->phase = P_CLOSED;
    uv_timer_stop(&c->timer);
    uv_close((uv_handle_t *)&c->tcp, on_closed);
    uv_close((uv_handle_t *)&c->timer, on_closed);
}

static void start_connects(lrow_t *r);

static void record_latency(lrow_t *r, uint64_t ns)
{
    if (r->nlat == r->caplat) {
        size_t cap = r->caplat ? r->caplat * 2 : 65536;
        uint32_t *p = realloc(r->lat, cap * sizeof *p);
        if (!p)
            return;
        r->lat = p;
        r->caplat = cap;
    }
    uint64_t us = ns / 1000;
    r->lat[r->nlat++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

static FILE *trace; /* BENCH_LOAD_TRACE=FILE: one line per key */

static const char keyset[8] = { 'h', 'j', 'k', 'l', 'y', 'u', 'b', 'n' };

/* Sends the session's next key (number c->sent). Its latency counts from
 * now when it is sent as it falls due (the timer's own lateness, up to a
 * millisecond, is the generator's, not the server's), and from when it
 * fell due when it waited for the answers before it (backlog: the
 * server's). */
static void send_key(lsess_t *c, int backlog)
{
    lrow_t *r = c->row;
    const char *k;
    if (c->dead) {
        k = "r"; /* YOU DIED: a new game */
        c->dead = 0;
    } else {
        /* A random walk: keep going, turn now and then and at walls. */
        if (xorshift(&c->rng) % 8 == 0)
            c->dir = (uint8_t)(xorshift(&c->rng) % 8);
        k = &keyset[c->dir];
    }
    c->in_flight = 1;
    c->answer_data = 0;
    uint64_t due = c->first_ns + (uint64_t)c->sent * r->period_ns, now = now_ns();
    c->sent_ns = backlog && due < now ? due : now;
    c->sent++;
    r->keys_sent++;
    send_bytes(c, k, 1);
}

static void schedule(lsess_t *c);

static void on_key_timer(uv_timer_t *t)
{
    lsess_t *c = t->data;
    lrow_t *r = c->row;
    if (c->phase != P_READY || !r->measuring)
        return;
    c->due++;
    r->offered++;
    if (!c->in_flight)
        send_key(c, 0); /* else it waits for the answers before it */
    c->next_ns += r->period_ns;
    schedule(c);
}

static void schedule(lsess_t *c)
{
    lrow_t *r = c->row;
    if (c->next_ns >= r->t_end) {
        uv_timer_stop(&c->timer);
        return;
    }
    uint64_t now = now_ns();
    uint64_t ms = c->next_ns > now ? (c->next_ns - now + 999999) / 1000000 : 0;
    uv_timer_start(&c->timer, on_key_timer, ms, 0);
}

static void on_marker(lsess_t *c)
{
    lrow_t *r = c->row;
    if (c->phase == P_SETUP) {
        /* The lobby comes first: p, then Enter on the guest name it
         * offers; the frames in between (the prompt, "one moment") are
         * not the game's. */
        if (!c->in_game) {
            if (c->lobby_step < 2)
                send_bytes(c, c->lobby_step++ == 0 ? "p" : "\r", 1);
            return;
        }
        /* The game's first screen: the session is held. */
        c->phase = P_READY;
        c->counted = 1;
        r->connecting--;
        r->held++;
        start_connects(r);
        return;
    }
    if (c->phase != P_READY || !c->in_flight)
        return; /* a keepalive, or a screen nobody asked for */
    uint64_t t = now_ns();
    record_latency(r, t - c->sent_ns);
    if (trace)
        fprintf(trace, "%.3f %.3f %d\n", (double)(c->sent_ns - r->t_start) / 1e6,
                (double)(t - c->sent_ns) / 1e6, (int)(c - r->s));
    r->answered++;
    if (t <= r->t_end)
        r->answered_in_window++;
    c->done++;
    c->in_flight = 0;
    if (c->answer_data == 0) /* nothing changed: a wall said so before */
        c->dir = (uint8_t)(xorshift(&c->rng) % 8);
    if (c->sent < c->due)
        send_key(c, 1); /* late because the server was: counted from its due */
}

/* Two phrases in the screen text steer the player. */
static void match_text(lsess_t *c, unsigned char b)
{
    static const char died[] = "YOU DIED", wall[] = "wall in the way";
    c->m_died = b == (unsigned char)died[c->m_died] ? c->m_died + 1
                : b == (unsigned char)died[0] ? 1 : 0;
    if (c->m_died == sizeof died - 1) {
        c->dead = 1;
        c->m_died = 0;
    }
    c->m_wall = b == (unsigned char)wall[c->m_wall] ? c->m_wall + 1
                : b == (unsigned char)wall[0] ? 1 : 0;
    if (c->m_wall == sizeof wall - 1) {
        c->dir = (uint8_t)(xorshift(&c->rng) % 8);
        c->m_wall = 0;
    }
    static const char hp[] = "HP: ";
    c->m_hp = b == (unsigned char)hp[c->m_hp] ? c->m_hp + 1
              : b == (unsigned char)hp[0] ? 1 : 0;
    if (c->m_hp == sizeof hp - 1) {
        c->in_game = 1;
        c->m_hp = 0;
    }
}

/* The client's telnet: answers what a terminal client answers. */
static void telnet_option(lsess_t *c, uint8_t cmd, uint8_t opt)
{
    static const char do_echo[] = { (char)IAC, (char)DO, OPT_ECHO };
    static const char do_sga[] = { (char)IAC, (char)DO, OPT_SGA };
    static const char naws[] = { (char)IAC, (char)WILL, OPT_NAWS, (char)IAC,
                                 (char)SB, OPT_NAWS, 0, 80, 0, 24, (char)IAC,
                                 (char)SE };
    static const char will_ttype[] = { (char)IAC, (char)WILL, OPT_TTYPE };
    static char refuse[4][256][3];
    if (cmd == WILL && opt == OPT_ECHO)
        send_bytes(c, do_echo, 3);
    else if (cmd == WILL && opt == OPT_SGA)
        send_bytes(c, do_sga, 3);
    else if (cmd == DO && opt == OPT_NAWS)
        send_bytes(c, naws, sizeof naws);
    else if (cmd == DO && opt == OPT_TTYPE)
        send_bytes(c, will_ttype, 3);
    else if (cmd == WILL || cmd == DO) {
        char *p = refuse[cmd == WILL][opt];
        p[0] = (char)IAC;
        p[1] = (char)(cmd == WILL ? DONT : WONT);
        p[2] = (char)opt;
        send_bytes(c, p, 3);
    }
}

/* The terminal type every session says it is (--ttype): the display the
 * server draws it with follows from it (docs/telnet.md). */
static const char *ttype_name = "xterm-256color";

static void telnet_sb_end(lsess_t *c)
{
    if (c->sb_opt == OPT_TTYPE && c->sb_len >= 1 && c->sb_first == 1) {
        char is[96];
        int n = snprintf(is, sizeof is, "\xff\xfa\x18%c%s\xff\xf0", 0,
                         ttype_name);
        send_bytes(c, is, (size_t)n);
    }
}

static void telnet_feed(lsess_t *c, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n && c->phase != P_CLOSED; i++) {
        unsigned char b = p[i];
        switch (c->tn) {
        case TN_DATA:
            if (b == IAC) {
                c->tn = TN_IAC;
            } else {
                match_text(c, b);
                c->answer_data = 1;
            }
            break;
        case TN_IAC:
            c->tn = TN_DATA;
            if (b == WILL || b == WONT || b == DO || b == DONT) {
                c->tn_cmd = b;
                c->tn = TN_OPT;
            } else if (b == SB) {
                c->tn = TN_SB;
            } else if (b == NOP) {
                on_marker(c);
            } else if (b == IAC) {
                match_text(c, b);
            }
            break;
        case TN_OPT:
            c->tn = TN_DATA;
            telnet_option(c, c->tn_cmd, b);
            break;
        case TN_SB:
            c->sb_opt = b;
            c->sb_len = 0;
            c->tn = TN_SB_DATA;
            break;
        case TN_SB_DATA:
            if (b == IAC) {
                c->tn = TN_SB_IAC;
            } else {
                if (c->sb_len == 0)
                    c->sb_first = b;
                if (c->sb_len < 255)
                    c->sb_len++;
            }
            break;
        case TN_SB_IAC:
            if (b == SE) {
                telnet_sb_end(c);
                c->tn = TN_DATA;
            } else {
                c->tn = TN_SB_DATA; /* IAC IAC: a 255 inside */
            }
            break;
        }
    }
}

static char readbuf[1 << 16];

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    (void)h;
    (void)suggested;
    *b = uv_buf_init(readbuf, sizeof readbuf);
}

static void on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
    lsess_t *c = st->data;
    if (n < 0) {
        sess_end(c, 1);
        return;
    }
    if (c->row->measuring) {
        c->bytes += (uint64_t)n;
        c->row->bytes += (uint64_t)n;
    }
    telnet_feed(c, (const unsigned char *)b->base, (size_t)n);
}

static void on_connect(uv_connect_t *req, int status)
{
    lsess_t *c = req->data;
    if (c->phase == P_CLOSED)
        return;
    if (status < 0) {
        sess_end(c, 0);
        start_connects(c->row);
        return;
    }
    c->phase = P_SETUP;
    uv_tcp_nodelay(&c->tcp, 1);
    uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
}

/* Opens a socket from source 127.0.0.(1 + i % sources); the port is picked
 * at connect time (IP_BIND_ADDRESS_NO_PORT), so each source has its own
 * ephemeral range toward the server. */
static int open_socket(lrow_t *r, int i)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (r->sources > 1) {
        int one = 1;
#ifdef IP_BIND_ADDRESS_NO_PORT
        setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
#endif
        struct sockaddr_in a;
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(0x7f000001u + (uint32_t)(i % r->sources));
        if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

static void start_connects(lrow_t *r)
{
    while (!r->stopping && r->connecting < CONNECT_WINDOW &&
           r->next_connect < r->n) {
        int i = r->next_connect++;
        lsess_t *c = &r->s[i];
        memset(c, 0, sizeof *c);
        c->row = r;
        c->rng = 2463534242u ^ (uint32_t)(i * 2654435761u);
        if (!c->rng)
            c->rng = 1;
        c->dir = (uint8_t)(xorshift(&c->rng) % 8);
        c->tcp.data = c->timer.data = c->creq.data = c;
        r->connecting++;
        c->phase = P_CONNECTING;
        uv_tcp_init(r->loop, &c->tcp);
        uv_timer_init(r->loop, &c->timer);
        int fd = open_socket(r, i), ok = fd >= 0;
        if (ok && uv_tcp_open(&c->tcp, fd) != 0) {
            close(fd);
            ok = 0;
        }
        if (ok && uv_tcp_connect(&c->creq, &c->tcp,
                                 (struct sockaddr *)&r->server, on_connect) != 0)
            ok = 0;
        if (!ok)
            sess_end(c, 0);
    }
}

/* --- a row -------------------------------------------------------------------- */

static void on_guard(uv_timer_t *t)
{
    lrow_t *r = t->data;
    uv_stop(r->loop);
}

/* Runs the loop until cond(r) holds or ms pass. */
static void run_until(lrow_t *r, int (*cond)(const lrow_t *), uint64_t ms)
{
    uint64_t end = now_ns() + ms * 1000000u;
    while (!cond(r) && now_ns() < end) {
        uv_timer_start(&r->guard, on_guard, 20, 0);
        uv_run(r->loop, UV_RUN_ONCE);
    }
    uv_timer_stop(&r->guard);
}

static int all_set_up(const lrow_t *r)
{
    return r->next_connect >= r->n && r->connecting == 0;
}

/* No key owed an answer: none in flight, none waiting to be sent. */
static int nothing_owed(const lrow_t *r)
{
    for (int i = 0; i < r->n; i++)
        if (r->s[i].phase == P_READY && r->s[i].done < r->s[i].due)
            return 0;
    return 1;
}

static int never(const lrow_t *r)
{
    (void)r;
    return 0;
}

static int all_closed(const lrow_t *r)
{
    return r->closed_handles >= 2 * r->next_connect;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static double quantile_ms(const uint32_t *v, size_t n, double q)
{
    if (n == 0)
        return 0;
    size_t i = (size_t)(q * (double)(n - 1) + 0.5);
    return v[i] / 1000.0;
}

typedef struct rowspec {
    int n, rate, secs;
    int workers;               /* the server's worker loops; 0: its default */
} rowspec_t;

static int fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 1024;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    return rl.rlim_cur > 1000000 ? 1000000 : (int)rl.rlim_cur;
}

/* The worker loops column: as asked, or the server's default. */
static const char *loops_name(const rowspec_t *spec)
{
    static char name[16];
    if (spec->workers <= 0)
        return "default";
    snprintf(name, sizeof name, "%d", spec->workers);
    return name;
}

/* What a row measured, for the echo floor's row beside it. */
typedef struct rowres {
    int ok;                 /* keys were answered */
    double cpu_us;          /* server CPU per key answered */
    double bytes;           /* bytes per key answered */
} rowres_t;

static rowres_t run_row(const rowspec_t *spec, const char *bin, char **extra,
                        int nextra, int sources, const char *label)
{
    rowres_t res = { 0, 0.0, 0.0 };
    static lrow_t row;
    lrow_t *r = &row;
    free(r->lat);
    memset(r, 0, sizeof *r);
    r->n = spec->n;
    r->rate = spec->rate;
    r->secs = spec->secs;
    r->sources = sources > 0 ? sources : 1 + (r->n - 1) / PORTS_PER_SOURCE;
    int limit = fd_limit();
    if (r->n + 64 > limit) {
        printf("| %d | %d | %s | skipped: descriptor limit %d (raise `ulimit -Hn`) "
               "| | | | | | | | | | | | | | | | | |\n", r->n, r->rate,
               label ? label : loops_name(spec), limit);
        return res;
    }
    server_t sv;
    memset(&sv, 0, sizeof sv);
    char *args[MAX_ARGS + 2], workers[32];
    int nargs = 0;
    for (int i = 0; i < nextra; i++)
        args[nargs++] = extra[i];
    if (spec->workers > 0) {
        snprintf(workers, sizeof workers, "workers=%d", spec->workers);
        args[nargs++] = "--set";
        args[nargs++] = workers;
    }
    if (server_start(&sv, bin, r->n + 16, args, nargs) != 0) {
        printf("| %d | %d | %s | the server did not start | | | | | | | | | | | | | | | | | |\n",
               r->n, r->rate, label ? label : loops_name(spec));
        if (sv.pid > 0)
            server_stop(&sv);
        return res;
    }
    r->s = calloc((size_t)r->n, sizeof *r->s);
    uv_loop_t loop;
    uv_loop_init(&loop);
    r->loop = &loop;
    uv_timer_init(&loop, &r->guard);
    r->guard.data = r;
    uv_ip4_addr("127.0.0.1", sv.port, &r->server);

    /* Start-up is over once the server has been idle for a while: its
     * start-up work (the store's dummy password hash holds 64 MiB while it
     * runs) must not count as the memory of the sessions. */
    int idle = wait_idle(sv.pid, 10000);
    long rss0 = rss_kib(sv.pid);
    uint64_t t0 = now_ns();
    start_connects(r);
    run_until(r, all_set_up, SETUP_TIMEOUT_MS);
    double setup_s = (double)(now_ns() - t0) / 1e9;
    int not_ready = r->n - r->held - r->failed;
    long rss1 = rss_kib(sv.pid);

    /* The measured window. */
    r->period_ns = 1000000000u / (uint64_t)r->rate;
    r->t_start = now_ns() + 50000000u;
    r->t_end = r->t_start + (uint64_t)r->secs * 1000000000u;
    r->measuring = 1;
    for (int i = 0; i < r->n; i++) {
        lsess_t *c = &r->s[i];
        if (c->phase != P_READY)
            continue;
        c->first_ns = c->next_ns = r->t_start + xorshift(&c->rng) % r->period_ns;
        schedule(c);
    }
    double cpu0 = cpu_s(sv.pid), self0 = self_cpu_s();
    uint64_t w0 = now_ns();
    run_until(r, never, (r->t_end - w0) / 1000000u);
    run_until(r, nothing_owed, GRACE_MS);
    uint64_t w1 = now_ns();
    double wall = (double)(w1 - w0) / 1e9;
    double cpu1 = cpu_s(sv.pid), self1 = self_cpu_s();
    long rss2 = rss_kib(sv.pid);
    r->measuring = 0;
    int held = r->held;
    /* Keys never answered: in the percentiles with what they waited. */
    for (int i = 0; i < r->n; i++) {
        lsess_t *c = &r->s[i];
        for (uint32_t k = c->done; k < c->due; k++) {
            uint64_t due = c->first_ns + (uint64_t)k * r->period_ns;
            record_latency(r, w1 > due ? w1 - due : 0);
            r->unserved++;
        }
    }

    /* Close every session, let the server log them, stop it. */
    r->stopping = 1;
    for (int i = 0; i < r->next_connect; i++)
        sess_end(&r->s[i], 0);
    run_until(r, all_closed, 10000);
    int disc = 0;
    for (int waited = 0; waited < 10000; waited += 50) {
        log_turns(sv.log, &disc);
        if (disc >= r->n - r->failed)
            break;
        sleep_ms(50);
    }
    int st = server_stop(&sv);
    long turns = log_turns(sv.log, &disc);
    uv_close((uv_handle_t *)&r->guard, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);

    qsort(r->lat, r->nlat, sizeof *r->lat, cmp_u32);
    double secs = (double)r->secs;
    double scpu = cpu1 - cpu0, gcpu = self1 - self0;
    /* The server's turns come from every key it answered (the grace period
     * too): scaled to the window's share of the answers. */
    double turns_s = r->answered ? (double)turns * (double)r->answered_in_window /
                                   (double)r->answered / secs : 0.0;
    int errors = r->failed + not_ready;
    printf("| %d | %d | %s | %.1f | %d | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f | %.2f "
           "| %ld | %.0f | %d | %d | %.1f | %.1f / %.1f | %.1f "
           "| %.0f%% / %.0f%% | %.1f | %.2f |\n",
           r->n, r->rate, label ? label : loops_name(spec), setup_s, held,
           (double)r->offered / secs,
           (double)r->answered_in_window / secs, turns_s,
           quantile_ms(r->lat, r->nlat, 0.5), quantile_ms(r->lat, r->nlat, 0.99),
           quantile_ms(r->lat, r->nlat, 0.999), quantile_ms(r->lat, r->nlat, 1.0),
           r->unserved,
           r->answered ? (double)r->bytes / (double)r->answered : 0.0, errors,
           r->disconnects,
           r->answered ? scpu * 1e6 / (double)r->answered : 0.0,
           rss0 / 1024.0, rss1 / 1024.0,
           r->n ? (double)(rss1 - rss0) / r->n : 0.0,
           100.0 * scpu / wall, 100.0 * gcpu / wall,
           r->answered ? gcpu * 1e6 / (double)r->answered : 0.0, load_avg());
    res.ok = r->answered > 0;
    res.cpu_us = r->answered ? scpu * 1e6 / (double)r->answered : 0.0;
    res.bytes = r->answered ? (double)r->bytes / (double)r->answered : 0.0;
    /* What the offered rate needs of the machine: the server's and the
     * generator's CPU per key, times the keys offered per second, in
     * cores. Past the cores the row measures the machine, not the
     * server (docs/performance.md). */
    double need = r->answered ? (scpu + gcpu) / (double)r->answered *
                                (double)r->offered / secs : 0.0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    double load = load_avg();
    if (need > 0.9 * (double)cores)
        printf("|   | machine-limited: the server and the generator need %.2f "
               "cores at this rate (their CPU per key times the keys offered), "
               "the machine has %ld shared with other work: this row measures "
               "the machine, not the server |\n", need, cores);
    else if (r->unserved && load > (double)cores)
        printf("|   | machine-limited: keys went unserved while the machine's "
               "load average was %.1f on %ld cores (other work held the CPU): "
               "this row measures the machine, not the server |\n", load, cores);
    int bad = errors || r->disconnects || !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    if (bad || r->unserved || !idle)
        printf("|   | details: %d connects failed, %d not ready in %d s, %ld keys "
               "offered and %ld answered (%ld in the window), %ld not answered "
               "%d s after the window, %ld turns in the log, server %s idle "
               "before the sessions, exit status %d, RSS at the end %.1f MiB; "
               "server log %s%s |\n",
               r->failed, not_ready, SETUP_TIMEOUT_MS / 1000, r->offered,
               r->answered, r->answered_in_window, r->unserved, GRACE_MS / 1000,
               turns, idle ? "was" : "was NOT", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
               rss2 / 1024.0, bad ? "kept in " : "removed", bad ? sv.log : "");
    if (!bad)
        remove_dir(sv.dir);
    fflush(stdout);
    free(r->s);
    r->s = NULL;
    return res;
}

static int parse_rows(const char *spec, rowspec_t *rows)
{
    int n = 0;
    const char *p = spec;
    while (*p && n < MAX_ROWS) {
        rowspec_t r;
        int used = 0;
        if (sscanf(p, "%d:%d:%d%n", &r.n, &r.rate, &r.secs, &used) != 3 ||
            r.n < 1 || r.rate < 1 || r.rate > 1000 || r.secs < 1 || r.secs > 600)
            return -1;
        r.workers = 0;
        if (p[used] == ':') {
            int more = 0;
            if (sscanf(p + used, ":%d%n", &r.workers, &more) != 1 ||
                r.workers < 1 || r.workers > 63)
                return -1;
            used += more;
        }
        rows[n++] = r;
        p += used;
        if (*p == ',')
            p++;
        else if (*p)
            return -1;
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *bin = NULL, *echo = NULL;
    const char *rows_spec = "1:1:10,100:1:10,1000:1:10,10000:1:15:1,"
                            "10000:1:15:2,1000:5:10,1000:50:10:1,1000:50:10:2";
    char *extra[MAX_ARGS];
    int nextra = 0, sources = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--server") == 0 && i + 1 < argc)
            bin = argv[++i];
        else if (strcmp(argv[i], "--echo") == 0 && i + 1 < argc)
            echo = argv[++i];
        else if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc)
            rows_spec = argv[++i];
        else if (strcmp(argv[i], "--sources") == 0 && i + 1 < argc)
            sources = atoi(argv[++i]);
        else if (strcmp(argv[i], "--ttype") == 0 && i + 1 < argc &&
                 strlen(argv[i + 1]) < 64)
            ttype_name = argv[++i];
        else if (strcmp(argv[i], "--arg") == 0 && i + 1 < argc && nextra < MAX_ARGS)
            extra[nextra++] = argv[++i];
        else {
            fprintf(stderr,
                    "usage: bench_load --server BIN [--echo BIN] "
                    "[--rows N:R:D[:W][,...]] [--sources K] [--ttype NAME] "
                    "[--arg SERVER_ARG]...\n");
            return 2;
        }
    }
    rowspec_t rows[MAX_ROWS];
    int nrows = parse_rows(rows_spec, rows);
    if (!bin || nrows <= 0) {
        fprintf(stderr, "bench_load: need --server BIN and valid --rows\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    if (getenv("BENCH_LOAD_TRACE"))
        trace = fopen(getenv("BENCH_LOAD_TRACE"), "w");
    printf("Load: a fresh `%s` per row on 127.0.0.1 (built-in defaults), N "
           "telnet sessions from one libuv loop\n(80x24, terminal type %s), "
           "each sending R movement keys per second for D seconds, "
           "latency from a key to the frame marker that answers it (from when it fell due\nfor a key that waited for earlier answers); every key offered is counted.\n\n", bin, ttype_name);
    printf("| sessions | keys/s each | worker loops | setup s | held | keys/s offered "
           "| keys/s served | turns/s | p50 ms | p99 ms | p99.9 ms | max ms "
           "| not served | bytes/key | errors | disconnects | server CPU µs/key "
           "| RSS idle / held MiB | KiB / session | CPU server / loadgen "
           "| loadgen CPU µs/key | load avg |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    fflush(stdout);
    for (int i = 0; i < nrows; i++) {
        rowres_t got = run_row(&rows[i], bin, extra, nextra, sources, NULL);
        if (!echo || !got.ok)
            continue;
        /* The floor: the same sessions, keys and frame size against the
         * echo server, now, on the same machine. */
        char frame[32];
        snprintf(frame, sizeof frame, "%.0f", got.bytes);
        char *eargs[] = { "--frame-bytes", frame };
        rowspec_t one = rows[i];
        one.workers = 0;
        rowres_t base = run_row(&one, echo, eargs, 2, sources, "echo floor");
        if (base.ok && base.cpu_us > 0)
            printf("|   | server CPU per key / the echo floor's (%.0f-byte "
                   "frames): %.1f / %.1f µs = **%.2f** |\n", got.bytes,
                   got.cpu_us, base.cpu_us, got.cpu_us / base.cpu_us);
        fflush(stdout);
    }
    return 0;
}
