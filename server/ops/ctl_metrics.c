/* ctl_metrics.c - the figures for /metrics and the console's `metrics`
 * (ctl.h): every worker loop is asked for its own (MSG_CTL_STATS,
 * ctl_loop.c); they are summed here and written in Prometheus's text
 * format, each family with its HELP and TYPE. The names are stable:
 * docs/hosting.md, "Operations", lists them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "host.h"
#include "refusals.h"
#include "rebuild_pool.h"
#include "store.h"

/* What the loops answered. */
typedef struct figures {
    uint64_t states[8];        /* enum sess_state */
    uint64_t transports[3];    /* telnet, web, ssh */
    uint64_t keys, frames, bytes_out, outbox_early, bytes_in, in_pauses;
    uint64_t out_queued, out_waiting;  /* bytes, sessions */
    struct {
        int seen;
        uint64_t count, sum_ms, bucket[SRV_LAG_BUCKETS];
    } lag[HOST_WORKERS_MAX];
} figures_t;

/* enum sess_state's names, in its order (session.h) */
static const char *const state_names[] = {
    "negotiating", "lobby", "playing", "watching", "replay", "closing",
    "admitting",
};
#define NSTATES (sizeof state_names / sizeof state_names[0])

int ctl_metrics_run(ctl_req_t *r, const char *args)
{
    (void)args;
    figures_t *f = calloc(1, sizeof *f);
    smsg_t *m = f ? msg_new(MSG_CTL_STATS, 0, 0, NULL) : NULL;
    if (!m) {
        free(f);
        ctl_req_done(r, "500 Internal Server Error");
        return 0;
    }
    *ctl_req_data(r) = f;
    ctl_req_broadcast(r, m);
    return 1;
}

static void read_numbers(const char *p, uint64_t *out, int n)
{
    for (int i = 0; i < n; i++) {
        char *end;
        out[i] = strtoull(p, &end, 10);
        if (end == p)
            return;
        p = end;
    }
}

void ctl_metrics_answer(ctl_req_t *r, const smsg_t *m)
{
    figures_t *f = *ctl_req_data(r);
    if (m->type != MSG_CTL_LINE || m->a < 0 || m->a >= HOST_WORKERS_MAX)
        return;
    uint64_t v[SRV_LAG_BUCKETS] = { 0 };
    const char *p = m->text + 1;
    int loop = (int)m->a;
    switch (m->text[0]) {
    case 's':
        read_numbers(p, v, NSTATES);
        for (size_t i = 0; i < NSTATES; i++)
            f->states[i] += v[i];
        break;
    case 't':
        read_numbers(p, v, 3);
        for (size_t i = 0; i < 3; i++)
            f->transports[i] += v[i];
        break;
    case 'c':
        read_numbers(p, v, 6);
        f->keys += v[0];
        f->frames += v[1];
        f->bytes_out += v[2];
        f->outbox_early += v[3];
        f->bytes_in += v[4];
        f->in_pauses += v[5];
        break;
    case 'q':
        read_numbers(p, v, 2);
        f->out_queued += v[0];
        f->out_waiting += v[1];
        break;
    case 'l':
        read_numbers(p, v, 2);
        f->lag[loop].seen = 1;
        f->lag[loop].count = v[0];
        f->lag[loop].sum_ms = v[1];
        break;
    case 'b':
        read_numbers(p, f->lag[loop].bucket, SRV_LAG_BUCKETS);
        break;
    default:
        break;
    }
}

static void family(ctl_req_t *r, const char *name, const char *type,
                   const char *help)
{
    ctl_req_printf(r, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void lag_histogram(ctl_req_t *r, const figures_t *f, int nloops)
{
    family(r, "rogued_loop_lag_seconds", "histogram",
           "How late each worker loop ran its once-a-second timer (ms resolution).");
    for (int l = 0; l < nloops; l++) {
        if (!f->lag[l].seen)
            continue;
        uint64_t cum = 0;
        for (int b = 0; b < SRV_LAG_BUCKETS; b++) {
            cum += f->lag[l].bucket[b];
            if (b < SRV_LAG_BUCKETS - 1)
                ctl_req_printf(r, "rogued_loop_lag_seconds_bucket{loop=\"%d\",le=\"%g\"} %" PRIu64 "\n",
                               l, srv_lag_le_ms[b] / 1000.0, cum);
            else
                ctl_req_printf(r, "rogued_loop_lag_seconds_bucket{loop=\"%d\",le=\"+Inf\"} %" PRIu64 "\n",
                               l, cum);
        }
        ctl_req_printf(r, "rogued_loop_lag_seconds_sum{loop=\"%d\"} %g\n", l,
                       (double)f->lag[l].sum_ms / 1000.0);
        ctl_req_printf(r, "rogued_loop_lag_seconds_count{loop=\"%d\"} %" PRIu64 "\n",
                       l, f->lag[l].count);
    }
}

/* The rebuilds' queue (rebuild_pool.h). */
static void rebuild_figures(ctl_req_t *r, rbp_t *pool)
{
    rbp_stats_t st;
    memset(&st, 0, sizeof st);
    if (pool)
        rbp_stats(pool, &st);
    family(r, "rogued_rebuilds", "gauge",
           "Games being rebuilt from their keys, waiting or running.");
    ctl_req_printf(r, "rogued_rebuilds{stage=\"waiting\"} %" PRIu64 "\n"
                   "rogued_rebuilds{stage=\"running\"} %" PRIu64 "\n",
                   st.waiting, st.running);
    family(r, "rogued_rebuilds_total", "counter",
           "Rebuilds started, cancelled (their asker gone) and refused.");
    ctl_req_printf(r, "rogued_rebuilds_total{outcome=\"started\"} %" PRIu64 "\n"
                   "rogued_rebuilds_total{outcome=\"cancelled\"} %" PRIu64 "\n"
                   "rogued_rebuilds_total{outcome=\"refused\"} %" PRIu64 "\n",
                   st.started, st.cancelled, st.refused);
    family(r, "rogued_rebuild_keys_total", "counter",
           "Keys replayed by rebuilds (after their snapshots).");
    ctl_req_printf(r, "rogued_rebuild_keys_total %" PRIu64 "\n", st.keys);
}

void ctl_metrics_finish(ctl_req_t *r)
{
    const figures_t *f = *ctl_req_data(r);
    host_t *h = ctl_req_host(r);
    family(r, "rogued_process_pid", "gauge",
           "The server process's id: a binary upgrade changes it.");
    ctl_req_printf(r, "rogued_process_pid %d\n", (int)getpid());
    family(r, "rogued_process_start_time_seconds", "gauge",
           "When the server process started, in seconds since the Unix epoch.");
    ctl_req_printf(r, "rogued_process_start_time_seconds %.3f\n",
                   ctl_started(ctl_req_ctl(r)));
    family(r, "rogued_sessions", "gauge", "Sessions by state.");
    for (size_t i = 0; i < NSTATES; i++)
        ctl_req_printf(r, "rogued_sessions{state=\"%s\"} %" PRIu64 "\n",
                       state_names[i], f->states[i]);
    family(r, "rogued_sessions_by_transport", "gauge",
           "Sessions by how they came (telnet, web: the browser, ssh).");
    ctl_req_printf(r, "rogued_sessions_by_transport{transport=\"telnet\"} %" PRIu64 "\n",
                   f->transports[0]);
    ctl_req_printf(r, "rogued_sessions_by_transport{transport=\"web\"} %" PRIu64 "\n",
                   f->transports[1]);
    ctl_req_printf(r, "rogued_sessions_by_transport{transport=\"ssh\"} %" PRIu64 "\n",
                   f->transports[2]);
    family(r, "rogued_players_online", "gauge",
           "Admitted sessions, counted against max_sessions.");
    ctl_req_printf(r, "rogued_players_online %d\n", atomic_load(&h->sh.online));
    family(r, "rogued_startups", "gauge",
           "Connections not yet in the lobby (startups_start, startups_full).");
    ctl_req_printf(r, "rogued_startups %d\n", atomic_load(&h->sh.startups));
    family(r, "rogued_keys_total", "counter", "Keys taken from players.");
    ctl_req_printf(r, "rogued_keys_total %" PRIu64 "\n", f->keys);
    family(r, "rogued_frames_total", "counter", "Screens drawn and sent.");
    ctl_req_printf(r, "rogued_frames_total %" PRIu64 "\n", f->frames);
    family(r, "rogued_bytes_out_total", "counter", "Bytes written to clients.");
    ctl_req_printf(r, "rogued_bytes_out_total %" PRIu64 "\n", f->bytes_out);
    family(r, "rogued_bytes_in_total", "counter",
           "Bytes read from clients, each within its input budget.");
    ctl_req_printf(r, "rogued_bytes_in_total %" PRIu64 "\n", f->bytes_in);
    family(r, "rogued_input_pauses_total", "counter",
           "Times a client's input budget ran out and its socket was read no more until it refilled.");
    ctl_req_printf(r, "rogued_input_pauses_total %" PRIu64 "\n", f->in_pauses);
    family(r, "rogued_outbox_early_drains_total", "counter",
           "Early writes of a loop's outbox: a render phase's frames outgrew it.");
    ctl_req_printf(r, "rogued_outbox_early_drains_total %" PRIu64 "\n",
                   f->outbox_early);
    family(r, "rogued_output_queued_bytes", "gauge",
           "Output the kernel has not taken yet (its buffers full: clients not reading).");
    ctl_req_printf(r, "rogued_output_queued_bytes %" PRIu64 "\n", f->out_queued);
    family(r, "rogued_sessions_output_waiting", "gauge",
           "Sessions with output the kernel has not taken yet.");
    ctl_req_printf(r, "rogued_sessions_output_waiting %" PRIu64 "\n",
                   f->out_waiting);
    family(r, "rogued_store_queued", "gauge",
           "Games and progress writes waiting for the database.");
    ctl_req_printf(r, "rogued_store_queued %" PRIu64 "\n",
                   h->sh.store ? store_queued(h->sh.store) : 0);
    family(r, "rogued_store_failed_batches_total", "counter",
           "Database transactions that failed; after each, every game in "
           "progress is sent again whole.");
    ctl_req_printf(r, "rogued_store_failed_batches_total %" PRIu64 "\n",
                   h->sh.store ? store_failed_batches(h->sh.store) : 0);
    family(r, "rogued_store_batches_run_again_total", "counter",
           "Database transactions the database ended to break a deadlock, "
           "run again (whole) rather than failed.");
    ctl_req_printf(r, "rogued_store_batches_run_again_total %" PRIu64 "\n",
                   h->sh.store ? store_rerun_batches(h->sh.store) : 0);
    family(r, "rogued_store_file_moved", "gauge",
           "1 while the database file is not at its path (renamed or deleted "
           "while the server runs: what is written is lost at the next "
           "start); 0 in place, and on PostgreSQL.");
    ctl_req_printf(r, "rogued_store_file_moved %d\n",
                   h->sh.store ? store_file_moved(h->sh.store) : 0);
    family(r, "rogued_refusals_total", "counter",
           "Connections turned away, by reason.");
    for (int i = 0; i < REFUSE_NREASONS; i++)
        ctl_req_printf(r, "rogued_refusals_total{reason=\"%s\"} %" PRIu64 "\n",
                       refusal_name(i), refusal_total(i));
    rebuild_figures(r, h->sh.rebuilds);
    lag_histogram(r, f, h->sh.nworkers);
    ctl_req_done(r, NULL);
}
