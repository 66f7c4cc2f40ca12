/* ctl_loop.c - the console's requests on a worker loop (ctl.h): each is
 * answered on the host's inbox with CTL_LINE lines and one CTL_END. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "log.h"
#include "session.h"
#include "session_states.h"
#include "transport.h"

/* Posts m, an answer, to the console (a request's number in m->from). */
static void post(srv_t *srv, smsg_t *m)
{
    inbox_t *ib = srv->sh->host_inbox;
    if (!ib || inbox_post(ib, m) != 0)
        msg_free(m); /* the console has stopped */
}

static void answer(srv_t *srv, int type, uint64_t req, int64_t a,
                   const char *text)
{
    smsg_t *m = msg_new(type, req, 0, "%s", text ? text : "");
    if (!m)
        return;
    m->a = a;
    post(srv, m);
}

static const char *state_name(const sess_t *s)
{
    if (sess_closing(s))
        return "closing";
    switch (s->state) {
    case S_ADMITTING: return "admitting";
    case S_NEGOTIATING: return "negotiating";
    case S_LOBBY: return "lobby";
    case S_PLAYING: return "playing";
    case S_WATCHING: return "watching";
    case S_REPLAY: return "replay";
    default: return "closing";
    }
}

/* One row per session, as data (ctl.h's ctl_who_row_t): the console
 * sorts every loop's rows before it formats them. */
static int who(srv_t *srv, uint64_t req)
{
    uint64_t now = uv_now(srv->loop);
    int n = 0;
    for (sess_t *s = srv->sessions; s; s = s->next) {
        smsg_t *m = msg_new(MSG_CTL_LINE, req, 0, NULL);
        ctl_who_row_t *row = m ? calloc(1, sizeof *row) : NULL;
        if (!row) {
            msg_free(m);
            continue; /* out of memory: one row fewer, not a wrong one */
        }
        const char *name = s->admitted ? sess_player_name(s) : "";
        uint64_t idle = now > s->last_input_ms ? now - s->last_input_ms : 0;
        row->id = s->id;
        snprintf(row->addr, sizeof row->addr, "%.47s", s->addr);
        row->transport = s->tr ? s->tr->name : "-";
        row->state = state_name(s);
        snprintf(row->name, sizeof row->name, "%.20s", name ? name : "");
        row->idle_s = idle / 1000;
        m->who = row;
        post(srv, m);
        n++;
    }
    return n;
}

/* The operator's line over every admitted session's log (session.h's
 * notice: until the player's next key). */
static int say(srv_t *srv, const char *text)
{
    int n = 0;
    for (sess_t *s = srv->sessions; s; s = s->next) {
        if (sess_closing(s) || !s->admitted)
            continue;
        sess_notice(s, SESS_NOTICE_HOST, "%s", text);
        sess_owe_frame(s);
        n++;
    }
    return n;
}

/* The kick's goodbye: an account's game is kept for its next login
 * (maybe behind, while the store's writes fail); a guest's ends. Two
 * lines: one would break mid-word at 80. */
static const char *kick_words(sess_t *s)
{
    switch (sess_play_game_fate(s)) {
    case SESS_GAME_KEPT:
        return "The server's operator has closed your connection.\r\n"
               "Your game is kept for your next login.";
    case SESS_GAME_KEPT_BEHIND:
        return "The server's operator has closed your connection.\r\n"
               "Your game is kept, but its latest turns may not have been "
               "saved.";
    default:
        return "The server's operator has closed your connection.";
    }
}

static int kick(srv_t *srv, uint64_t id)
{
    for (sess_t *s = srv->sessions; s; s = s->next) {
        if (s->id != id || sess_closing(s))
            continue;
        sess_close(s, "closed by the console", 1, kick_words(s));
        return 1;
    }
    return 0;
}

/* This loop's figures, as lines ctl_metrics.c reads: "s" sessions by
 * state (enum sess_state), "t" by transport (telnet, web, ssh), "c" the
 * counters (keys, frames, bytes out, the outbox's early drains, bytes in,
 * reads paused by the input budget), "q" the
 * output waiting (bytes, sessions), "l" the lag's count and sum (ms), "b"
 * its buckets. */
static int stats(srv_t *srv, uint64_t req)
{
    unsigned long long st[S_NSTATES] = { 0 }, tr[3] = { 0 }, q[2] = { 0 };
    for (sess_t *s = srv->sessions; s; s = s->next) {
        st[sess_closing(s) ? S_CLOSING : s->state]++;
        tr[s->web ? 1 : s->via_ssh ? 2 : 0]++;
        q[0] += s->queued;
        q[1] += s->queued > 0;
    }
    const struct srv_stats *k = &srv->stats;
    char line[160];
    int len = snprintf(line, sizeof line, "s");
    for (int i = 0; i < S_NSTATES; i++)
        len += snprintf(line + len, sizeof line - (size_t)len, " %llu", st[i]);
    answer(srv, MSG_CTL_LINE, req, srv->index, line);
    snprintf(line, sizeof line, "t %llu %llu %llu", tr[0], tr[1], tr[2]);
    answer(srv, MSG_CTL_LINE, req, srv->index, line);
    snprintf(line, sizeof line, "c %llu %llu %llu %llu %llu %llu",
             (unsigned long long)k->keys, (unsigned long long)k->frames,
             (unsigned long long)k->bytes_out,
             (unsigned long long)k->outbox_early,
             (unsigned long long)k->bytes_in,
             (unsigned long long)k->in_pauses);
    answer(srv, MSG_CTL_LINE, req, srv->index, line);
    snprintf(line, sizeof line, "q %llu %llu", q[0], q[1]);
    answer(srv, MSG_CTL_LINE, req, srv->index, line);
    snprintf(line, sizeof line, "l %llu %llu",
             (unsigned long long)k->lag_count, (unsigned long long)k->lag_sum_ms);
    answer(srv, MSG_CTL_LINE, req, srv->index, line);
    len = snprintf(line, sizeof line, "b");
    for (int i = 0; i < SRV_LAG_BUCKETS; i++)
        len += snprintf(line + len, sizeof line - (size_t)len, " %llu",
                        (unsigned long long)k->lag_bucket[i]);
    answer(srv, MSG_CTL_LINE, req, srv->index, line);
    return 1;
}

void ctl_loop_message(srv_t *srv, const smsg_t *m)
{
    int n = 0;
    switch (m->type) {
    case MSG_CTL_WHO:
        n = who(srv, m->from);
        break;
    case MSG_CTL_SAY:
        n = say(srv, m->text);
        break;
    case MSG_CTL_KICK:
        n = kick(srv, (uint64_t)m->a);
        break;
    case MSG_CTL_STATS:
        n = stats(srv, m->from);
        break;
    case MSG_CTL_RELOAD:
        if (m->cfg && (m->cfg->idle_timeout != srv->cfg.idle_timeout ||
                       m->cfg->idle_warning != srv->cfg.idle_warning))
            srv->idle_rule_ms = uv_now(srv->loop); /* (session.c's sweep) */
        if (m->cfg)
            ctl_apply_live(&srv->cfg, m->cfg); /* each loop's own copy */
        n = 1;
        break;
    default:
        return; /* not the console's */
    }
    answer(srv, MSG_CTL_END, m->from, n, NULL);
}
