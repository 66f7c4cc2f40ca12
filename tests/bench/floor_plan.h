/* floor_plan.h - the pure parts of the load benchmark's rows and of its
 * echo floor (bench_load.c, bench_echo.c; docs/performance.md, "The floor,
 * like for like"): reading a row list and a count from the command line,
 * the median of the repeated ratios, which CPUs the generator and the
 * server get, and how many sessions may set up at once under the server's
 * limit on connections before the lobby.
 *
 * Header-only (static inline), like bot.h, so that both benchmarks and
 * tests/unit/test_floor_plan.c use the same code without a build rule of
 * their own. Nothing here reads a clock, a file or the machine. */
#ifndef ROGUE_BENCH_FLOOR_PLAN_H
#define ROGUE_BENCH_FLOOR_PLAN_H

#include <stdio.h>
#include <string.h>

#define FP_MAX_LOOPS 63    /* rogued's workers key allows 0..63 */
#define FP_MAX_REPEAT 50   /* server/echo pairs of one floor row */

/* One row: N sessions, R keys per second each, D seconds; W worker loops
 * (0: the server's default). */
typedef struct fp_row {
    int n, rate, secs, workers;
} fp_row_t;

/* Reads a decimal number in lo..hi at *p (digits only: no sign, no
 * space) and moves *p past it. Returns 0, or -1 (nothing read, out of
 * range; *p unchanged). */
static inline int fp_take_int(const char **p, int lo, int hi, int *out)
{
    const char *s = *p;
    long v = 0;
    int digits = 0;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (*s++ - '0');
        if (v > hi) /* also keeps v far from overflowing */
            return -1;
        digits++;
    }
    if (!digits || v < lo)
        return -1;
    *out = (int)v;
    *p = s;
    return 0;
}

/* The whole of s as a number in lo..hi. Returns 0, or -1 (*out
 * unchanged). */
static inline int fp_parse_int(const char *s, int lo, int hi, int *out)
{
    int v;
    if (!s || fp_take_int(&s, lo, hi, &v) != 0 || *s != '\0')
        return -1;
    *out = v;
    return 0;
}

/* "N:R:D[:W][,N:R:D[:W]]..." into rows (at most max). N 1..1,000,000,
 * R 1..1,000, D 1..600, W 1..FP_MAX_LOOPS. Returns the number of rows,
 * or -1 for anything else (an empty list, an empty row, a trailing comma,
 * more than max rows). */
static inline int fp_parse_rows(const char *spec, fp_row_t *rows, int max)
{
    int n = 0;
    const char *p = spec;
    if (!p || !*p)
        return -1;
    for (;;) {
        fp_row_t r = { 0, 0, 0, 0 };
        if (n >= max || fp_take_int(&p, 1, 1000000, &r.n) != 0 || *p++ != ':' ||
            fp_take_int(&p, 1, 1000, &r.rate) != 0 || *p++ != ':' ||
            fp_take_int(&p, 1, 600, &r.secs) != 0)
            return -1;
        if (*p == ':') {
            p++;
            if (fp_take_int(&p, 1, FP_MAX_LOOPS, &r.workers) != 0)
                return -1;
        }
        rows[n++] = r;
        if (*p == '\0')
            return n;
        if (*p++ != ',')
            return -1;
    }
}

/* The median of v[0..n-1] (n 1..FP_MAX_REPEAT; the mean of the middle
 * two when n is even); 0 when n is out of that range. v is not changed. */
static inline double fp_median(const double *v, int n)
{
    double s[FP_MAX_REPEAT];
    if (n < 1 || n > FP_MAX_REPEAT)
        return 0.0;
    for (int i = 0; i < n; i++) { /* insertion sort: a handful of values */
        int j = i;
        for (; j > 0 && s[j - 1] > v[i]; j--)
            s[j] = s[j - 1];
        s[j] = v[i];
    }
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

/* Where a row's processes run. */
typedef struct fp_pin {
    int pinned;                    /* 1: the generator on a CPU of its own */
    int gen_cpu;                   /* the generator's CPU, when pinned */
    int nserver;                   /* the server's CPUs, when pinned */
    int server_cpus[FP_MAX_LOOPS];
} fp_pin_t;

/* A row of `loops` worker loops on the CPUs cpus[0..ncpus-1] (those the
 * generator may use, in order): when loops < ncpus, the server (or the
 * echo) gets the first `loops` of them and the generator the last, so
 * that neither preempts the other; else nothing is pinned (shared
 * cores). */
static inline void fp_pin_plan(const int *cpus, int ncpus, int loops,
                               fp_pin_t *pl)
{
    memset(pl, 0, sizeof *pl);
    if (loops < 1 || loops >= ncpus || loops > FP_MAX_LOOPS)
        return;
    pl->pinned = 1;
    pl->gen_cpu = cpus[ncpus - 1];
    pl->nserver = loops;
    for (int i = 0; i < loops; i++)
        pl->server_cpus[i] = cpus[i];
}

/* The plan in words, for the table: "server on CPU 0, generator on CPU
 * 1", "server on CPUs 0,1,2, generator on CPU 3", or "shared cores". */
static inline void fp_pin_text(const fp_pin_t *pl, char *buf, size_t cap)
{
    if (!pl->pinned) {
        snprintf(buf, cap, "shared cores");
        return;
    }
    size_t len = (size_t)snprintf(buf, cap, "server on CPU%s ",
                                  pl->nserver > 1 ? "s" : "");
    for (int i = 0; i < pl->nserver && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%d", i ? "," : "",
                                pl->server_cpus[i]);
    if (len < cap)
        snprintf(buf + len, cap - len, ", generator on CPU %d", pl->gen_cpu);
}

/* Sessions the generator sets up at once when the server lets in at most
 * `startups_start` connections before the lobby (rogued's random early
 * drop, server/startups.h; 0: no limit): half of it, at most cap. The
 * server counts a connection from its accept to its lobby, the generator
 * from its connect to its game's first screen, so the generator's count
 * is never the smaller; the half leaves room for connections the
 * generator has closed and the server not yet seen. */
static inline int fp_connect_window(int startups_start, int cap)
{
    if (startups_start <= 0)
        return cap;
    int w = startups_start / 2;
    if (w < 1)
        w = 1;
    return w < cap ? w : cap;
}

#endif
