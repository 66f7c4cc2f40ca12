/* cluster_watch.c - watching a game across hosts, both sides of it:
 *
 *   - the watcher's host: the remote ids of other hosts' games (rgame, as
 *     the heartbeat reads their lists) and a watch of one (watch): asked
 *     for, the game loaded from the database (cluster_progress.c), then
 *     the keys the player's host streams;
 *   - the player's host: a game here watched from another host (feed):
 *     the player's session streams to it as to a watcher on this host,
 *     and the keys go out in batches with a sequence number.
 *
 * docs/hosting.md, "What the hosts share, and how" (watching a player on
 * another host); the payloads are cluster_proto.h's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_impl.h"
#include "log.h"

/* Keys a watcher's host keeps while it loads the game. */
#define PENDING_MAX 262144

typedef struct rgame {          /* another host's game, as a remote id */
    struct rgame *next;
    uint64_t id, sess;
    char chan[CLUSTER_CHAN_MAX + 1];
    int missed;                 /* heartbeats it was not listed in */
} rgame_t;

/* W_WAITING: the player is in the lobby; the next game's S loads it as
 * the first did (docs/hosting.md: watching follows the player). */
enum { W_ASKED, W_LOADING, W_LIVE, W_WAITING };

typedef struct watch {          /* here: a watcher of another host's game */
    struct watch *next;
    uint64_t wid, watcher, game; /* game: the rgame's id (messages' from) */
    char chan[CLUSTER_CHAN_MAX + 1];
    int state;
    int started;                /* a WATCH_START went to the watcher */
    uint64_t deadline, look_at;
    uint64_t seed, seq;
    int64_t nbytes, account;
    char name[ACCT_NAME_MAX + 1];
    int32_t *pending;
    int npending, cappending;
} watch_t;

typedef struct feed {           /* here: a game watched from another host */
    struct feed *next;
    uint64_t id, wid, sess;
    char chan[CLUSTER_CHAN_MAX + 1];
    int64_t account;
    uint64_t seq;               /* keys sent since the last S */
    char buf[CLUSTER_PAYLOAD_MAX + 1]; /* a K payload being filled */
    size_t len;
} feed_t;

/* Printable ASCII of at most CLUSTER_TEXT_MAX bytes, or dflt if none. */
static void clean_text(const char *in, const char *dflt, char *out)
{
    size_t n = 0;
    for (size_t i = 0; in && in[i] && n < CLUSTER_TEXT_MAX; i++)
        if (in[i] >= 0x20 && in[i] < 0x7f)
            out[n++] = in[i];
    out[n] = '\0';
    if (n == 0)
        snprintf(out, CLUSTER_TEXT_MAX + 1, "%s", dflt);
}

/* --- watching another host's game (here: the watcher's host) ------------- */

static rgame_t *rgame_by_id(cluster_t *c, uint64_t id)
{
    for (rgame_t *g = c->rgames; g; g = g->next)
        if (g->id == id)
            return g;
    return NULL;
}

void cluster_rgames_unlist(cluster_t *c)
{
    for (rgame_t *g = c->rgames; g; g = g->next)
        g->missed++;
}

uint64_t cluster_rgame_listed(cluster_t *c, const char *chan, uint64_t sess)
{
    rgame_t *g;
    for (g = c->rgames; g; g = g->next)
        if (g->sess == sess && strcmp(g->chan, chan) == 0)
            break;
    if (!g && (g = calloc(1, sizeof *g))) {
        g->id = cluster_new_id(c);
        g->sess = sess;
        snprintf(g->chan, sizeof g->chan, "%s", chan);
        g->next = c->rgames;
        c->rgames = g;
    }
    if (!g)
        return 0;
    g->missed = 0;
    return g->id;
}

/* Remote ids of games listed no more are forgotten after a while. */
void cluster_rgames_forget(cluster_t *c)
{
    for (rgame_t **p = &c->rgames; *p;) {
        rgame_t *g = *p;
        if (g->missed > 10) {
            *p = g->next;
            free(g);
        } else {
            p = &g->next;
        }
    }
}

static void watch_free(cluster_t *c, watch_t *w)
{
    for (watch_t **p = &c->watches; *p; p = &(*p)->next)
        if (*p == w) {
            *p = w->next;
            break;
        }
    free(w->pending);
    free(w);
    cluster_conv_closed(c);
}

/* The player's host is told watch w is left. */
static void watch_tell_left(cluster_t *c, const watch_t *w)
{
    cluster_notifyf(c, w->chan, "L %llu %s", (unsigned long long)w->wid,
                    c->chan);
}

/* Ends watch w: the watcher is told (refused while it waits for the
 * start, ended after), the player's host too if tell_host. */
static void watch_end(cluster_t *c, watch_t *w, const char *why, int tell_host)
{
    if (tell_host)
        watch_tell_left(c, w);
    cluster_postf(c, w->started ? MSG_WATCH_END : MSG_WATCH_REFUSED, w->game,
                  w->watcher, 0, NULL, why);
    watch_free(c, w);
}

static void watch_join(cluster_t *c, uint64_t watcher, rgame_t *g)
{
    if (!cluster_connected(c) || !cluster_conv_room(c)) {
        cluster_postf(c, MSG_WATCH_REFUSED, g->id, watcher, 0, NULL,
                      "Other hosts are unavailable now.");
        return;
    }
    watch_t *w = calloc(1, sizeof *w);
    if (!w) {
        cluster_postf(c, MSG_WATCH_REFUSED, g->id, watcher, 0, NULL,
                      "Out of memory: try again later.");
        return;
    }
    w->wid = cluster_new_conv_id(c);
    w->watcher = watcher;
    w->game = g->id;
    memcpy(w->chan, g->chan, sizeof w->chan);
    w->state = W_ASKED;
    w->deadline = cluster_now_ms() + ANSWER_MS;
    w->next = c->watches;
    c->watches = w;
    cluster_conv_opened(c);
    cluster_notifyf(c, w->chan, "J %llu %s %llu", (unsigned long long)w->wid,
                    c->chan, (unsigned long long)g->sess);
}

static watch_t *watch_by_wid(cluster_t *c, uint64_t wid)
{
    for (watch_t *w = c->watches; w; w = w->next)
        if (w->wid == wid)
            return w;
    return NULL;
}

/* The game is in the database: the watcher gets it and the keys kept. */
static void watch_look(cluster_t *c, watch_t *w, uint64_t now)
{
    msg_game_t *g;
    const char *why = NULL;
    int rc = cluster_load_game(c, w->account, w->seed, w->nbytes, &g, &why);
    if (rc < 0) {
        watch_end(c, w, why, 1);
        return;
    }
    if (rc == 0) {
        if (now >= w->deadline)
            watch_end(c, w, "That game cannot be loaded from the database.", 1);
        else
            w->look_at = now + LOOK_MS;
        return;
    }
    log_info("cluster: watch %llu of %s on %s: loaded %lld key bytes, %d "
             "keys since", (unsigned long long)w->wid, w->name, w->chan,
             (long long)w->nbytes, w->npending);
    cluster_postf(c, MSG_WATCH_START, w->game, w->watcher, 0, g, w->name);
    for (int i = 0; i < w->npending; i++)
        cluster_postf(c, MSG_WATCH_KEY, w->game, w->watcher, w->pending[i],
                      NULL, NULL);
    free(w->pending);
    w->pending = NULL;
    w->npending = w->cappending = 0;
    w->state = W_LIVE;
    w->started = 1;
}

void cluster_watch_note(cluster_t *c, const cluster_note_t *n)
{
    watch_t *w = watch_by_wid(c, n->id);
    if (!w)
        return; /* over already */
    switch (n->kind) {
    case 'R':
    case 'E':
        watch_end(c, w, n->text, 0);
        return;
    case 'S':
        w->state = W_LOADING;
        w->seed = n->seed;
        w->nbytes = n->nbytes;
        w->account = n->account;
        memcpy(w->name, n->name, sizeof w->name);
        w->seq = 0;
        w->npending = 0;
        w->deadline = cluster_now_ms() + FLUSHED_MS;
        w->look_at = 0;
        watch_look(c, w, cluster_now_ms());
        return;
    case 'W':
        /* the player is in the lobby: the watcher waits (as a watcher on
         * the player's host does), the next game's S comes to this watch */
        if (!w->started) {
            watch_end(c, w, n->text, 1);
            return;
        }
        w->state = W_WAITING;
        w->npending = 0;
        cluster_postf(c, MSG_WATCH_END, w->game, w->watcher, MSG_WATCH_LOBBY,
                      NULL, n->text);
        return;
    case 'K':
        if (w->state == W_ASKED || w->state == W_WAITING)
            return;
        if (n->seq != w->seq) {
            log_error("cluster: watch %llu: keys from %llu, %llu expected",
                      (unsigned long long)w->wid, (unsigned long long)n->seq,
                      (unsigned long long)w->seq);
            watch_end(c, w, "The game's stream broke off.", 1);
            return;
        }
        w->seq += (uint64_t)n->nkeys;
        if (w->state == W_LIVE) {
            for (int i = 0; i < n->nkeys; i++)
                cluster_postf(c, MSG_WATCH_KEY, w->game, w->watcher,
                              n->keys[i], NULL, NULL);
            return;
        }
        if (w->npending + n->nkeys > w->cappending) {
            int cap = w->cappending ? w->cappending * 2 : 1024;
            while (cap < w->npending + n->nkeys)
                cap *= 2;
            int32_t *p = cap <= PENDING_MAX
                ? realloc(w->pending, (size_t)cap * sizeof *p) : NULL;
            if (!p) {
                watch_end(c, w, "That game moves too fast to catch up with.", 1);
                return;
            }
            w->pending = p;
            w->cappending = cap;
        }
        memcpy(w->pending + w->npending, n->keys,
               (size_t)n->nkeys * sizeof *n->keys);
        w->npending += n->nkeys;
        return;
    default:
        return;
    }
}

/* A message from a watcher here to another host's game. */
int cluster_to_rgame(cluster_t *c, smsg_t *m)
{
    rgame_t *g = rgame_by_id(c, m->to);
    if (!g && m->type != MSG_WATCH_JOIN && m->type != MSG_WATCH_LEAVE)
        return 0;
    if (m->type == MSG_WATCH_JOIN) {
        if (g)
            watch_join(c, m->from, g);
        else
            cluster_postf(c, MSG_WATCH_REFUSED, m->to, m->from, 0, NULL,
                          "That game is over.");
        return 1;
    }
    if (m->type == MSG_WATCH_LEAVE)
        for (watch_t *w = c->watches; w; w = w->next)
            if (w->watcher == m->from && w->game == m->to) {
                watch_tell_left(c, w);
                watch_free(c, w);
                return 1;
            }
    return 1;
}

/* --- a game of this host watched from another (here: the player's) ----- */

static feed_t *feed_by_id(cluster_t *c, uint64_t id)
{
    for (feed_t *f = c->feeds; f; f = f->next)
        if (f->id == id)
            return f;
    return NULL;
}

static void feed_free(cluster_t *c, feed_t *f)
{
    for (feed_t **p = &c->feeds; *p; p = &(*p)->next)
        if (*p == f) {
            *p = f->next;
            break;
        }
    free(f);
    cluster_conv_closed(c);
}

/* Feed f ends from the other side: the player's session stops feeding it. */
static void feed_drop(cluster_t *c, feed_t *f)
{
    cluster_postf(c, MSG_WATCH_LEAVE, f->id, f->sess, 0, NULL, NULL);
    feed_free(c, f);
}

static void feed_flush(cluster_t *c, feed_t *f)
{
    if (f->len == 0)
        return;
    f->buf[f->len] = '\0';
    cluster_notify(c, f->chan, f->buf);
    f->len = 0;
}

static void feed_key(cluster_t *c, feed_t *f, int64_t key)
{
    char k[16];
    if (key < 0 || key > CLUSTER_KEY_LIMIT)
        return;
    int kl = snprintf(k, sizeof k, "%lld", (long long)key);
    if (f->len > 0 && f->len + 1 + (size_t)kl > CLUSTER_PAYLOAD_MAX)
        feed_flush(c, f);
    if (f->len == 0)
        f->len = (size_t)snprintf(f->buf, sizeof f->buf, "K %llu %llu %s",
                                  (unsigned long long)f->wid,
                                  (unsigned long long)f->seq, k);
    else {
        f->buf[f->len++] = ',';
        memcpy(f->buf + f->len, k, (size_t)kl);
        f->len += (size_t)kl;
    }
    f->seq++;
}

static void feed_join(cluster_t *c, const cluster_note_t *n)
{
    dir_entry_t e;
    const char *why = NULL;
    if (!dir_lookup(&c->sh->dir, n->sess, &e) || !e.playing)
        why = "That game is over.";
    else if (e.account_id <= 0)
        why = "A guest's game can be watched only on its own host.";
    else if (!cluster_conv_room(c))
        why = "Too many games are watched across hosts now.";
    feed_t *f = why ? NULL : calloc(1, sizeof *f);
    if (!why && !f)
        why = "Out of memory: try again later.";
    if (why) {
        cluster_notifyf(c, n->chan, "R %llu %s", (unsigned long long)n->id,
                        why);
        return;
    }
    f->id = cluster_new_id(c);
    f->wid = n->id;
    f->sess = n->sess;
    f->account = e.account_id;
    memcpy(f->chan, n->chan, sizeof f->chan);
    f->next = c->feeds;
    c->feeds = f;
    cluster_conv_opened(c);
    log_info("cluster: %s watches session %llu (%s)", f->chan,
             (unsigned long long)f->sess, e.game.name);
    cluster_postf(c, MSG_WATCH_JOIN, f->id, f->sess, 0, NULL, NULL);
}

/* A message from the player's session to a watcher on another host. */
static void to_feed(cluster_t *c, feed_t *f, smsg_t *m)
{
    char text[CLUSTER_TEXT_MAX + 1];
    switch (m->type) {
    case MSG_WATCH_START:
        if (!m->game)
            return;
        feed_flush(c, f);
        f->seq = 0;
        clean_text(m->text, "?", text);
        text[ACCT_NAME_MAX] = '\0';
        cluster_notifyf(c, f->chan, "S %llu %llu %zu %lld %s",
                        (unsigned long long)f->wid,
                        (unsigned long long)m->game->seed, m->game->keys.len,
                        (long long)f->account, text);
        return;
    case MSG_WATCH_KEY:
        feed_key(c, f, m->a);
        return;
    case MSG_WATCH_MOVED:
        f->sess = (uint64_t)m->a;
        return;
    case MSG_WATCH_END:
        if (m->a == MSG_WATCH_LOBBY || m->a == MSG_WATCH_AWAY) {
            /* the player went to the lobby, or its page dropped: the feed
             * stays, waiting for the next game's MSG_WATCH_START
             * (session_follow.c, session_guest.c) */
            feed_flush(c, f);
            clean_text(m->text, "The player is in the lobby.", text);
            cluster_notifyf(c, f->chan, "W %llu %s",
                            (unsigned long long)f->wid, text);
            return;
        }
        /* fall through */
    case MSG_WATCH_REFUSED:
        feed_flush(c, f);
        clean_text(m->text, "The game you watched has ended.", text);
        cluster_notifyf(c, f->chan, "%c %llu %s",
                        m->type == MSG_WATCH_END ? 'E' : 'R',
                        (unsigned long long)f->wid, text);
        feed_free(c, f);
        return;
    default:
        return;
    }
}

int cluster_to_feed(cluster_t *c, smsg_t *m)
{
    feed_t *f = feed_by_id(c, m->to);
    if (!f)
        return 0;
    to_feed(c, f, m);
    return 1;
}

void cluster_feed_note(cluster_t *c, const cluster_note_t *n)
{
    if (n->kind == 'J') {
        feed_join(c, n);
        return;
    }
    for (feed_t *f = c->feeds; f; f = f->next)
        if (f->wid == n->id && strcmp(f->chan, n->chan) == 0) {
            feed_drop(c, f);
            return;
        }
}

void cluster_feeds_flush(cluster_t *c)
{
    for (feed_t *f = c->feeds; f; f = f->next)
        feed_flush(c, f);
}

/* --- both sides: the thread's timers, hosts gone, the end ----------------- */

void cluster_watch_timers(cluster_t *c, uint64_t now)
{
    for (watch_t *w = c->watches, *next; w; w = next) {
        next = w->next;
        if (w->state == W_ASKED && now >= w->deadline)
            watch_end(c, w, "That game's host does not answer.", 1);
        else if (w->state == W_LOADING && now >= w->look_at)
            watch_look(c, w, now);
    }
}

int cluster_watch_waiting(const cluster_t *c)
{
    return c->watches != NULL;
}

void cluster_watch_hosts_gone(cluster_t *c)
{
    for (watch_t *w = c->watches, *next; w; w = next) {
        next = w->next;
        if (!cluster_host_alive(c, w->chan))
            watch_end(c, w, "The game's host has gone away.", 0);
    }
    for (feed_t *f = c->feeds, *next; f; f = next) {
        next = f->next;
        if (!cluster_host_alive(c, f->chan))
            feed_drop(c, f);
    }
}

void cluster_watch_down(cluster_t *c)
{
    while (c->watches)
        watch_end(c, c->watches, "The game's host cannot be reached now.", 0);
    while (c->feeds)
        feed_drop(c, c->feeds);
}

void cluster_watch_free_all(cluster_t *c)
{
    for (rgame_t *g = c->rgames, *next; g; g = next) {
        next = g->next;
        free(g);
    }
    for (watch_t *w = c->watches, *next; w; w = next) {
        next = w->next;
        free(w->pending);
        free(w);
    }
    for (feed_t *f = c->feeds, *next; f; f = next) {
        next = f->next;
        free(f);
    }
}
