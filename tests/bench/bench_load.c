/* bench_load.c - the load generator: N telnet players against a real server.
 *
 * For each row (N sessions, R keys per second each, D seconds) it starts a
 * fresh server (the given binary, --port 0 on 127.0.0.1, a temporary data
 * directory, built-in defaults but the per-address limits, off, and for a
 * row faster than half the per-player key limit that limit, at twice R:
 * load_server.h; log to a file), reads its port from the
 * "listening on" line, and opens N sessions on one libuv loop (at most
 * half the server's limit on connections before the lobby setting up at
 * once, so that its random early drop refuses none: floor_plan.h,
 * fp_connect_window). Each session negotiates as a real
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
 * connects, connections the server closed before the game, such as its
 * "busy" refusals, sessions not ready in time), disconnects (by the server during
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
 *              [--echo BIN]      (each row R times, the server then the
 *                                 same row against BIN, bench_echo: the
 *                                 floor, with frames of the server run's
 *                                 bytes per key and as many loops as the
 *                                 server's row; each pair's ratio of the
 *                                 CPU per key, then their median)
 *              [--repeat R]      (the pairs of each floor row, 1..50,
 *                                 default 3)
 *              [--pin | --no-pin] (the server, or the echo, on W CPUs and
 *                                 the generator on another when W is less
 *                                 than the CPUs it may use; the default
 *                                 with --echo, else off)
 *   W: the server's worker loops for that row (default: the server's own,
 *   one per core: host_default_workers, read here as the server reads it);
 *   rows that differ only in W compare 1 and 2 loops at the same offered
 *   load in the same run.
 *   BENCH_LOAD_TRACE=FILE: one line per answered key (ms since the window
 *   opened, latency ms, session index), to see when slow answers happen. */
#define _GNU_SOURCE /* load_server.h: sched_setaffinity, CPU_SET */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include "floor_plan.h"
#include "host.h"
#include "load_server.h" /* the server process: start, stop, /proc, pinning */

#define CONNECT_WINDOW 256     /* sessions setting up at once, at most */
#define SETUP_TIMEOUT_MS 60000 /* for all N sessions to be held */
#define GRACE_MS 3000          /* after the window: the last answers */
#define MAX_ROWS 32
#define PORTS_PER_SOURCE 20000 /* of the 28,232 in 32768-60999 */

#include "load_client.h" /* the players: telnet, lobby, keys, latency */

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

/* What a row measured, for the echo floor's row beside it. */
typedef struct rowres {
    int ok;                 /* keys were answered */
    double cpu_us;          /* server CPU per key answered */
    double user_us;         /* of which in user space */
    double bytes;           /* bytes per key answered */
} rowres_t;

/* How a row runs besides its sessions and rate. */
typedef struct rowenv {
    int sources;            /* loopback source addresses; 0: as needed */
    const char *label;      /* the worker loops column */
    const fp_pin_t *pin;    /* where the server runs */
    int window;             /* sessions setting up at once */
} rowenv_t;

/* What run_row measured around the sessions, for print_row. */
typedef struct rowfig {
    double setup_s, wall;   /* the sessions' set-up; the window and grace */
    double scpu, gcpu;      /* the server's and the generator's CPU, s */
    double suser;           /* of scpu, the server's user time, s */
    long rss0, rss1, rss2;  /* the server's RSS idle, held, at the end */
    long turns;             /* the server's count, from its log */
    int idle, held, not_ready, status;
} rowfig_t;

/* The row's line, a machine-limited line when so, and the details when
 * something went wrong. Returns 1 when something did (the log is kept). */
static int print_row(lrow_t *r, const char *label, const rowfig_t *f,
                     const char *log)
{
    qsort(r->lat, r->nlat, sizeof *r->lat, cmp_u32);
    double secs = (double)r->secs, scpu = f->scpu, gcpu = f->gcpu;
    /* The server's turns come from every key it answered (the grace period
     * too): scaled to the window's share of the answers. */
    double turns_s = r->answered ? (double)f->turns * (double)r->answered_in_window /
                                   (double)r->answered / secs : 0.0;
    int errors = r->failed + r->refused + f->not_ready, st = f->status;
    printf("| %d | %d | %s | %.1f | %d | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f | %.2f "
           "| %ld | %.0f | %d | %d | %.1f | %.1f / %.1f | %.1f "
           "| %.0f%% / %.0f%% | %.1f | %.2f |\n",
           r->n, r->rate, label, f->setup_s, f->held,
           (double)r->offered / secs,
           (double)r->answered_in_window / secs, turns_s,
           quantile_ms(r->lat, r->nlat, 0.5), quantile_ms(r->lat, r->nlat, 0.99),
           quantile_ms(r->lat, r->nlat, 0.999), quantile_ms(r->lat, r->nlat, 1.0),
           r->unserved,
           r->answered ? (double)r->bytes / (double)r->answered : 0.0, errors,
           r->disconnects,
           r->answered ? scpu * 1e6 / (double)r->answered : 0.0,
           f->rss0 / 1024.0, f->rss1 / 1024.0,
           r->n ? (double)(f->rss1 - f->rss0) / r->n : 0.0,
           100.0 * scpu / f->wall, 100.0 * gcpu / f->wall,
           r->answered ? gcpu * 1e6 / (double)r->answered : 0.0, load_avg());
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
    if (bad || r->unserved || !f->idle)
        printf("|   | details: %d connects failed, %d refused by the server before "
               "the game (its log says why), %d not ready in %d s, %ld keys "
               "offered and %ld answered (%ld in the window), %ld not answered "
               "%d s after the window, %ld turns in the log, server %s idle "
               "before the sessions, exit status %d, RSS at the end %.1f MiB; "
               "server log %s%s |\n",
               r->failed, r->refused, f->not_ready, SETUP_TIMEOUT_MS / 1000, r->offered,
               r->answered, r->answered_in_window, r->unserved, GRACE_MS / 1000,
               f->turns, f->idle ? "was" : "was NOT", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
               f->rss2 / 1024.0, bad ? "kept in " : "removed", bad ? log : "");
    return bad;
}

/* The measured window: every held session's keys on their schedule for
 * the row's seconds, then up to GRACE_MS for the last answers; the CPU
 * the server (pid) and the generator used meanwhile into f. */
static void measure(lrow_t *r, pid_t pid, rowfig_t *f)
{
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
    double user0 = 0, user1 = 0;
    double cpu0 = cpu_user_s(pid, &user0), self0 = self_cpu_s();
    uint64_t w0 = now_ns();
    run_until(r, never, (r->t_end - w0) / 1000000u);
    run_until(r, nothing_owed, GRACE_MS);
    uint64_t w1 = now_ns();
    f->wall = (double)(w1 - w0) / 1e9;
    f->scpu = cpu_user_s(pid, &user1) - cpu0;
    f->suser = user1 - user0;
    f->gcpu = self_cpu_s() - self0;
    f->rss2 = rss_kib(pid);
    r->measuring = 0;
    f->held = r->held;
    /* Keys never answered: in the percentiles with what they waited. */
    for (int i = 0; i < r->n; i++) {
        lsess_t *c = &r->s[i];
        for (uint32_t k = c->done; k < c->due; k++) {
            uint64_t due = c->first_ns + (uint64_t)k * r->period_ns;
            record_latency(r, w1 > due ? w1 - due : 0);
            r->unserved++;
        }
    }
}

/* One row against bin started with args; prints its line (and the
 * details when something went wrong). */
static rowres_t run_row(const fp_row_t *spec, const char *bin, char **args,
                        int nargs, const rowenv_t *env)
{
    const char *label = env->label;
    int sources = env->sources;
    rowres_t res = { 0, 0.0, 0.0, 0.0 };
    static lrow_t row;
    lrow_t *r = &row;
    free(r->lat);
    memset(r, 0, sizeof *r);
    r->n = spec->n;
    r->rate = spec->rate;
    r->secs = spec->secs;
    r->window = env->window;
    r->sources = sources > 0 ? sources : 1 + (r->n - 1) / PORTS_PER_SOURCE;
    int limit = fd_limit();
    if (r->n + 64 > limit) {
        printf("| %d | %d | %s | skipped: descriptor limit %d (raise `ulimit -Hn`) "
               "| | | | | | | | | | | | | | | | | |\n", r->n, r->rate,
               label, limit);
        return res;
    }
    server_t sv;
    memset(&sv, 0, sizeof sv);
    if (server_start(&sv, bin, r->n + 16, r->rate, args, nargs, env->pin) != 0) {
        printf("| %d | %d | %s | the server did not start | | | | | | | | | | | | | | | | | |\n",
               r->n, r->rate, label);
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
    rowfig_t f;
    memset(&f, 0, sizeof f);
    f.idle = wait_idle(sv.pid, 10000);
    f.rss0 = rss_kib(sv.pid);
    uint64_t t0 = now_ns();
    start_connects(r);
    run_until(r, all_set_up, SETUP_TIMEOUT_MS);
    f.setup_s = (double)(now_ns() - t0) / 1e9;
    f.not_ready = r->n - r->held - r->failed - r->refused;
    f.rss1 = rss_kib(sv.pid);

    measure(r, sv.pid, &f);

    /* Close every session, let the server log them, stop it. */
    r->stopping = 1;
    for (int i = 0; i < r->next_connect; i++)
        sess_end(&r->s[i], 0);
    run_until(r, all_closed, 10000);
    int disc = 0;
    for (int waited = 0; waited < 10000; waited += 50) {
        log_turns(sv.log, &disc);
        if (disc >= r->n - r->failed - r->refused)
            break;
        sleep_ms(50);
    }
    int st = server_stop(&sv);
    f.turns = log_turns(sv.log, &disc);
    uv_close((uv_handle_t *)&r->guard, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);

    f.status = st;
    int bad = print_row(r, label, &f, sv.log);
    res.ok = r->answered > 0;
    res.cpu_us = r->answered ? f.scpu * 1e6 / (double)r->answered : 0.0;
    res.user_us = r->answered ? f.suser * 1e6 / (double)r->answered : 0.0;
    res.bytes = r->answered ? (double)r->bytes / (double)r->answered : 0.0;
    if (!bad)
        remove_dir(sv.dir);
    fflush(stdout);
    free(r->s);
    r->s = NULL;
    return res;
}

/* Runs a row with the generator on its CPU when pin says so, then gives
 * it back all it started with. */
static rowres_t run_placed(const fp_row_t *spec, const char *bin, char **args,
                           int nargs, const rowenv_t *env)
{
    if (env->pin->pinned)
        pin_to(&env->pin->gen_cpu, 1);
    rowres_t res = run_row(spec, bin, args, nargs, env);
    if (env->pin->pinned)
        pin_to(all_cpus, nall_cpus);
    return res;
}

/* What the command line asked for. */
typedef struct opts {
    const char *bin, *echo;
    char *extra[MAX_ARGS];
    int nextra, sources, repeat, pin;
    int default_loops;      /* the server's workers=0: one per core */
    int startups;           /* its limit before the lobby (0: none) */
    int window;
} opts_t;

/* A row's worker loops, as asked or the server's default. */
static int row_loops(const opts_t *o, const fp_row_t *row)
{
    return row->workers > 0 ? row->workers : o->default_loops;
}

/* The server's row: its arguments (the extra ones, then workers=W when the
 * row names W) and its label. */
static int server_args(const opts_t *o, const fp_row_t *row, const fp_pin_t *pin,
                       char **args, char *workers, size_t wcap, char *label,
                       size_t lcap)
{
    int n = 0;
    for (int i = 0; i < o->nextra; i++)
        args[n++] = o->extra[i];
    const char *where = !o->pin ? "" : pin->pinned ? ", pinned" : ", shared cores";
    if (row->workers > 0) {
        snprintf(workers, wcap, "workers=%d", row->workers);
        args[n++] = "--set";
        args[n++] = workers;
        snprintf(label, lcap, "%d%s", row->workers, where);
    } else if (o->pin || o->echo) {
        snprintf(label, lcap, "default (%d)%s", o->default_loops, where);
    } else {
        snprintf(label, lcap, "default");
    }
    return n;
}

/* One floor row: the server, then the echo with as many loops and frames
 * of the bytes per key the server sent, repeat times; each pair's ratio
 * and their median. Returns the median, or 0 when no pair completed. */
static double floor_row(const opts_t *o, const fp_row_t *row, rowenv_t *env,
                        char *sargs[], int nsargs, double *ratios, int *npairs)
{
    const fp_pin_t *pin = env->pin;
    int loops = row_loops(o, row);
    char slabel[64], elabel[64], where[96], frame[32], nloops[16];
    snprintf(slabel, sizeof slabel, "%s", env->label);
    fp_pin_text(pin, where, sizeof where);
    snprintf(elabel, sizeof elabel, "echo floor, %d loop%s%s", loops,
             loops > 1 ? "s" : "", pin->pinned ? ", pinned" : ", shared cores");
    snprintf(nloops, sizeof nloops, "%d", loops);
    printf("|   | floor row %d:%d:%d: %d worker loop%s each side (%s), %s; "
           "server and echo alternated %d time%s |\n", row->n, row->rate,
           row->secs, loops, loops > 1 ? "s" : "",
           row->workers > 0 ? "the row's" : "the server's default, one per core",
           where, o->repeat, o->repeat > 1 ? "s" : "");
    *npairs = 0;
    double srv_us[FP_MAX_REPEAT], echo_us[FP_MAX_REPEAT];
    for (int k = 0; k < o->repeat; k++) {
        env->label = slabel;
        rowres_t got = run_placed(row, o->bin, sargs, nsargs, env);
        if (!got.ok)
            continue;
        snprintf(frame, sizeof frame, "%.0f", got.bytes);
        char *eargs[] = { "--frame-bytes", frame, "--loops", nloops };
        env->label = elabel;
        rowres_t base = run_placed(row, o->echo, eargs, 4, env);
        if (!base.ok || base.cpu_us <= 0)
            continue;
        srv_us[*npairs] = got.cpu_us;
        echo_us[*npairs] = base.cpu_us;
        ratios[(*npairs)++] = got.cpu_us / base.cpu_us;
        printf("|   | pair %d: server CPU per key / the echo floor's (%.0f-byte "
               "frames): %.1f / %.1f µs = **%.2f** (user %.1f / %.1f, system "
               "%.1f / %.1f) |\n", k + 1, got.bytes, got.cpu_us, base.cpu_us,
               got.cpu_us / base.cpu_us, got.user_us, base.user_us,
               got.cpu_us - got.user_us, base.cpu_us - base.user_us);
        fflush(stdout);
    }
    double med = fp_median(ratios, *npairs);
    if (*npairs) {
        printf("|   | floor row %d:%d:%d: median of %d ratio%s **%.2f** |\n",
               row->n, row->rate, row->secs, *npairs, *npairs > 1 ? "s" : "", med);
        /* The same from each side's own median: a pair whose echo ran
         * slow or fast (the echo's spread is the larger) moves it less. */
        double ms = fp_median(srv_us, *npairs), me = fp_median(echo_us, *npairs);
        printf("|   | floor row %d:%d:%d: the medians' ratio, server / echo: "
               "%.1f / %.1f µs = **%.2f** |\n", row->n, row->rate, row->secs,
               ms, me, me > 0 ? ms / me : 0.0);
    }
    fflush(stdout);
    return med;
}

/* After the floor rows: one line each, what docs/performance.md keeps. */
static void floor_summary(const opts_t *o, const fp_row_t *rows, int nrows,
                          double ratios[][FP_MAX_REPEAT], const int *npairs)
{
    printf("\nThe floor, like for like: the server's CPU per key over the echo's, "
           "each pair run back to back (%d pair%s a row).\n\n", o->repeat,
           o->repeat > 1 ? "s" : "");
    printf("| row | worker loops each side | CPUs | ratios, in order | median |\n");
    printf("|---|---|---|---|---|\n");
    for (int i = 0; i < nrows; i++) {
        fp_pin_t pin = { 0 };
        if (o->pin)
            fp_pin_plan(all_cpus, nall_cpus, row_loops(o, &rows[i]), &pin);
        char where[96], list[FP_MAX_REPEAT * 8] = "-";
        fp_pin_text(&pin, where, sizeof where);
        size_t len = 0;
        for (int k = 0; k < npairs[i] && len < sizeof list; k++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%.2f",
                                    k ? ", " : "", ratios[i][k]);
        printf("| %d x %d keys/s, %d s | %d (%s) | %s | %s | ", rows[i].n,
               rows[i].rate, rows[i].secs, row_loops(o, &rows[i]),
               rows[i].workers > 0 ? "the row's" : "default", where, list);
        if (npairs[i])
            printf("**%.2f** |\n", fp_median(ratios[i], npairs[i]));
        else
            printf("- |\n");
    }
    fflush(stdout);
}

static int parse_opts(int argc, char **argv, opts_t *o, const char **rows_spec)
{
    int pin_set = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--server") == 0 && i + 1 < argc)
            o->bin = argv[++i];
        else if (strcmp(argv[i], "--echo") == 0 && i + 1 < argc)
            o->echo = argv[++i];
        else if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc)
            *rows_spec = argv[++i];
        else if (strcmp(argv[i], "--sources") == 0 && i + 1 < argc)
            o->sources = atoi(argv[++i]);
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc &&
                 fp_parse_int(argv[i + 1], 1, FP_MAX_REPEAT, &o->repeat) == 0)
            i++;
        else if (strcmp(argv[i], "--pin") == 0 || strcmp(argv[i], "--no-pin") == 0) {
            o->pin = strcmp(argv[i], "--pin") == 0;
            pin_set = 1;
        } else if (strcmp(argv[i], "--ttype") == 0 && i + 1 < argc &&
                 strlen(argv[i + 1]) < 64)
            ttype_name = argv[++i];
        else if (strcmp(argv[i], "--arg") == 0 && i + 1 < argc && o->nextra < MAX_ARGS)
            o->extra[o->nextra++] = argv[++i];
        else
            return -1;
    }
    if (!pin_set)
        o->pin = o->echo != NULL; /* the floor is like for like by default */
    return 0;
}

static void print_header(const opts_t *o)
{
    printf("Load: a fresh `%s` per row on 127.0.0.1 (built-in defaults), N "
           "telnet sessions from one libuv loop\n(80x24, terminal type %s), "
           "each sending R movement keys per second for D seconds, "
           "latency from a key to the frame marker that answers it (from when it fell due\nfor a key that waited for earlier answers); every key offered is counted. "
           "At most %d sessions set up at once\n(the server's startups_start is %d: "
           "past that many connections before the lobby it refuses some).",
           o->bin, ttype_name, o->window, o->startups);
    if (o->pin)
        printf(" A row of W loops with W below the %d CPUs this process may use "
               "runs the server\n(or the echo) on W of them and this generator on "
               "another (\"pinned\"); else they share the cores.", nall_cpus);
    printf("\n\n");
    printf("| sessions | keys/s each | worker loops | setup s | held | keys/s offered "
           "| keys/s served | turns/s | p50 ms | p99 ms | p99.9 ms | max ms "
           "| not served | bytes/key | errors | disconnects | server CPU µs/key "
           "| RSS idle / held MiB | KiB / session | CPU server / loadgen "
           "| loadgen CPU µs/key | load avg |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    static opts_t o = { .repeat = 3 };
    const char *rows_spec = "1:1:10,100:1:10,1000:1:10,10000:1:15:1,"
                            "10000:1:15:2,1000:5:10,1000:50:10:1,1000:50:10:2";
    static fp_row_t rows[MAX_ROWS];
    int nrows = 0;
    if (parse_opts(argc, argv, &o, &rows_spec) != 0) {
        fprintf(stderr,
                "usage: bench_load --server BIN [--echo BIN] [--repeat R] "
                "[--pin | --no-pin] [--rows N:R:D[:W][,...]] [--sources K] "
                "[--ttype NAME] [--arg SERVER_ARG]...\n");
        return 2;
    }
    nrows = fp_parse_rows(rows_spec, rows, MAX_ROWS);
    if (!o.bin || nrows <= 0) {
        fprintf(stderr, "bench_load: need --server BIN and valid --rows\n");
        return 2;
    }
    /* Before any pinning: what the server's default would be here. */
    read_cpus();
    o.default_loops = host_default_workers();
    o.startups = server_startups_start(o.extra, o.nextra);
    o.window = fp_connect_window(o.startups, CONNECT_WINDOW);
    signal(SIGPIPE, SIG_IGN);
    if (getenv("BENCH_LOAD_TRACE"))
        trace = fopen(getenv("BENCH_LOAD_TRACE"), "w");
    print_header(&o);
    static double ratios[MAX_ROWS][FP_MAX_REPEAT];
    int npairs[MAX_ROWS] = { 0 };
    for (int i = 0; i < nrows; i++) {
        fp_pin_t pin = { 0 };
        if (o.pin)
            fp_pin_plan(all_cpus, nall_cpus, row_loops(&o, &rows[i]), &pin);
        char *args[MAX_ARGS + 2], workers[32], label[64];
        int nargs = server_args(&o, &rows[i], &pin, args, workers, sizeof workers,
                                label, sizeof label);
        rowenv_t env = { o.sources, label, &pin, o.window };
        if (!o.echo)
            run_placed(&rows[i], o.bin, args, nargs, &env);
        else
            floor_row(&o, &rows[i], &env, args, nargs, ratios[i], &npairs[i]);
    }
    if (o.echo)
        floor_summary(&o, rows, nrows, ratios, npairs);
    return 0;
}
