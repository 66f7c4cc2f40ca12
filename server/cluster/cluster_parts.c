/* cluster_parts.c - the table of the cluster thread's parts, one entry per
 * conversation with other hosts, which the hub (cluster.c) loops over
 * without naming any (cluster_impl.h, cluster_part_t). A new conversation
 * is a file of its own and an entry here. In the order the hub asks them:
 * a message goes to the first part that takes it. */
#include "cluster_impl.h"

/* --- a game here watched from another host (cluster_watch.c) -------------- */

static int feed_take(cluster_t *c, smsg_t *m)
{
    return cluster_to_feed(c, m);
}

/* A player still feeding a watch that is gone is told to stop. */
static void feed_orphan(cluster_t *c, const smsg_t *m)
{
    if (m->type == MSG_WATCH_KEY || m->type == MSG_WATCH_START)
        cluster_postf(c, MSG_WATCH_LEAVE, m->to, m->from, 0, NULL, NULL);
}

static int feed_note(cluster_t *c, const cluster_note_t *n)
{
    if (n->kind != 'J' && n->kind != 'L')
        return 0;
    cluster_feed_note(c, n);
    return 1;
}

/* --- handing this host's game over (cluster_takeover.c) --------------------- */

static int give_take(cluster_t *c, smsg_t *m)
{
    return cluster_to_give(c, m);
}

/* A game handed over to a give that is gone has still moved. */
static void give_orphan(cluster_t *c, const smsg_t *m)
{
    if (m->type == MSG_TAKEOVER_DONE && m->game)
        cluster_game_moved(c, m->to, m->game);
}

static int give_note(cluster_t *c, const cluster_note_t *n)
{
    if (n->kind != 'T')
        return 0;
    cluster_give_start(c, n);
    return 1;
}

/* --- a watcher here of another host's game (cluster_watch.c) ---------------- */

static int watch_take(cluster_t *c, smsg_t *m)
{
    return cluster_to_rgame(c, m);
}

static int watch_note(cluster_t *c, const cluster_note_t *n)
{
    if (n->kind != 'S' && n->kind != 'K' && n->kind != 'W' && n->kind != 'E' &&
        n->kind != 'R')
        return 0;
    cluster_watch_note(c, n);
    return 1;
}

/* --- taking an account's game over from another host (cluster_takeover.c) --- */

static int ask_take(cluster_t *c, smsg_t *m)
{
    if (m->to != CLUSTER_TAKEOVER_ID)
        return 0;
    if (m->type == MSG_TAKEOVER)
        cluster_ask_start(c, m->from, m->a);
    return 1;
}

static int ask_note(cluster_t *c, const cluster_note_t *n)
{
    if (n->kind != 'D')
        return 0;
    cluster_ask_note(c, n);
    return 1;
}

/* --- the heartbeat and the presence rows (cluster_presence.c) -------------- */

/* The presence tables (made if no host has), then this host's rows of
 * logged-in sessions left from before. */
static int presence_up(cluster_t *c)
{
    return cluster_presence_tables(c) == 0 && cluster_presence_rejoin(c) == 0
               ? 0 : -1;
}

/* --- the table ------------------------------------------------------------ */

const cluster_part_t cluster_parts[] = {
    { .name = "feed", .take = feed_take, .orphan = feed_orphan,
      .note = feed_note, .flush = cluster_feeds_flush },
    { .name = "give", .take = give_take, .orphan = give_orphan,
      .note = give_note },
    { .name = "watch", .take = watch_take, .note = watch_note,
      .timers = cluster_watch_timers, .waiting = cluster_watch_waiting,
      .down = cluster_watch_down, .free = cluster_watch_free_all },
    { .name = "ask", .take = ask_take, .note = ask_note,
      .timers = cluster_takeover_timers, .waiting = cluster_takeover_waiting,
      .down = cluster_takeover_down, .free = cluster_takeover_free_all },
    { .name = "presence", .down = cluster_presence_down,
      .free = cluster_presence_free, .up = presence_up,
      .beat = cluster_heartbeat, .leave = cluster_presence_leave },
    /* (after the presence's beat: this host's rows as just published) */
    { .name = "single", .beat = cluster_single_beat },
    { .name = "progress", .down = cluster_progress_close,
      .free = cluster_progress_close },
};
const int cluster_nparts = (int)(sizeof cluster_parts / sizeof cluster_parts[0]);
