/* cluster_takeover.c - an account that logs in on one host while it plays
 * on another, both sides of it:
 *
 *   - the login's host asks (ask) the hosts that have the account in their
 *     presence rows (a session, or a dropped page's login token) to let
 *     go, then waits until the database has every key
 *     they flushed, so the game goes on at the very turn it was on; if an
 *     answer is late it looks for those hosts again, and asks one it finds
 *     there anew (a host that lost the database heard nothing, and comes
 *     back under a new name), for TAKEOVER_WAIT_MS at most;
 *   - the player's host hands over (give): its dropped pages' tokens of
 *     the account end, its sessions of the account flush their games to
 *     the store and let go, as for a second login on one host, and the
 *     asking host hears how many key bytes went (none: no session).
 *
 * docs/hosting.md, "What the hosts share, and how" (logging in on host B
 * while the account plays on host A). */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_impl.h"
#include "log.h"

/* Sessions of one account a host lets go of at once. */
#define GIVE_MAX 16
/* Hosts one login asks. */
#define ASK_HOSTS 16

enum { A_ASKED, A_CHECK };

typedef struct asked {          /* a host a login asked to let go */
    char chan[CLUSTER_CHAN_MAX + 1];
    uint64_t rid;               /* its answer's id */
    int answered;
    int listed;                 /* it had the account at the last look */
    int held_only;              /* ...by dropped pages' tokens alone, at
                                   every look that found it */
} asked_t;

typedef struct ask {            /* here: a login asking other hosts */
    struct ask *next;
    uint64_t session;
    int64_t account;
    int state;
    int64_t nbytes;
    uint64_t seed, deadline, look_at;
    uint64_t started, give_up_at; /* A_ASKED: the wait's start and end */
    int late;                   /* an answer was late: said once */
    int nhosts;
    asked_t hosts[ASK_HOSTS];
} ask_t;

typedef struct give {           /* here: a game handed to another host */
    struct give *next;
    uint64_t id, rid;
    char chan[CLUSTER_CHAN_MAX + 1];
    int owed;
    int64_t nbytes;
    uint64_t seed, deadline;
} give_t;

/* --- taking over an account's game from another host (here: the login) -- */

static void ask_done(cluster_t *c, ask_t *a)
{
    cluster_postf(c, MSG_TAKEOVER_DONE, CLUSTER_TAKEOVER_ID, a->session, 0,
                  NULL, NULL);
    for (ask_t **p = &c->asks; *p; p = &(*p)->next)
        if (*p == a) {
            *p = a->next;
            break;
        }
    free(a);
    cluster_conv_closed(c);
}

/* Looks for the live hosts that have the account online, and asks each
 * one not asked yet to let go (its answer: a D with an id of its own).
 * Returns 0, or -1 if the database could not say. */
static int ask_hosts(cluster_t *c, ask_t *a, uint64_t now)
{
    char acct[24];
    snprintf(acct, sizeof acct, "%lld", (long long)a->account);
    const char *v[2] = { acct, c->chan };
    PGresult *r = cluster_query(c, "SELECT o.host, bool_and(o.held)::int"
                                " FROM rogued_online o JOIN rogued_hosts h ON"
                                " h.host = o.host WHERE o.account_id = $1 AND"
                                " o.host <> $2 AND h.seen > now() - interval"
                                " '5 seconds' GROUP BY o.host LIMIT 16", 2, v,
                                0);
    if (!r)
        return -1;
    for (int i = 0; i < a->nhosts; i++)
        a->hosts[i].listed = 0;
    for (int i = 0; i < PQntuples(r); i++) {
        const char *chan = PQgetvalue(r, i, 0);
        if (!cluster_chan_ok(chan))
            continue;
        int k;
        for (k = 0; k < a->nhosts && strcmp(a->hosts[k].chan, chan) != 0; k++)
            ;
        if (k == ASK_HOSTS)
            continue;
        asked_t *h = &a->hosts[k];
        int held = strcmp(PQgetvalue(r, i, 1), "1") == 0;
        h->listed = 1;
        if (k < a->nhosts) {
            h->held_only &= held;
            continue;
        }
        h->held_only = held;
        a->nhosts++;
        snprintf(h->chan, sizeof h->chan, "%s", chan);
        h->rid = cluster_new_conv_id(c);
        cluster_notifyf(c, chan, "T %llu %s %lld", (unsigned long long)h->rid,
                        c->chan, (long long)a->account);
        if (a->give_up_at < now + ANSWER_MS) /* (asked late: its time) */
            a->give_up_at = now + ANSWER_MS;
        log_info("cluster: account %lld logs in here and is on %s (a "
                 "session, or a dropped page's token): asking it to let go",
                 (long long)a->account, chan);
    }
    PQclear(r);
    return 0;
}

void cluster_ask_start(cluster_t *c, uint64_t session, int64_t account)
{
    ask_t *a = cluster_connected(c) && account > 0 && cluster_conv_room(c)
        ? calloc(1, sizeof *a) : NULL;
    if (!a) {
        cluster_postf(c, MSG_TAKEOVER_DONE, CLUSTER_TAKEOVER_ID, session, 0,
                      NULL, NULL);
        return;
    }
    uint64_t now = cluster_now_ms();
    a->session = session;
    a->account = account;
    a->nbytes = -1;
    a->state = A_ASKED;
    a->started = now;
    a->give_up_at = now + TAKEOVER_WAIT_MS;
    a->look_at = now + ANSWER_MS; /* (looked again only if answers are late) */
    a->next = c->asks;
    c->asks = a;
    cluster_conv_opened(c);
    ask_hosts(c, a, now);
    if (a->nhosts == 0)
        ask_done(c, a);
}

/* Whether the database has every key the other host flushed. */
static void ask_look(cluster_t *c, ask_t *a, uint64_t now)
{
    uint64_t seed = 0;
    int64_t bytes = 0;
    long long have = -1;
    int same = 0;
    if (cluster_progress_bytes(c, a->account, &seed, &bytes) == 1) {
        same = seed == a->seed;
        have = bytes;
    }
    if (same && have >= a->nbytes) {
        log_info("cluster: takeover of account %lld: every key is in the "
                 "database (%lld of %lld bytes)", (long long)a->account, have,
                 (long long)a->nbytes);
        ask_done(c, a);
    } else if (now >= a->deadline) {
        log_error("cluster: takeover of account %lld: the database has %lld "
                  "of the %lld key bytes handed over (game %s)",
                  (long long)a->account, have < 0 ? 0 : have,
                  (long long)a->nbytes, same ? "the same" : "not found");
        ask_done(c, a);
    } else {
        a->look_at = now + LOOK_MS;
    }
}

/* Whether the asking is over: every host that has the account (as last
 * looked) answered, and none that was asked is owed an answer still, or
 * else one handed the game over (a host that came back under a new name:
 * its old one never answers). A host found by its dropped pages' tokens
 * alone is owed nothing once it is no longer listed (it died, or lost the
 * database: back, it forgets every token, cluster_presence.c, so it needs
 * no asking under a new name). Then the database is waited for; the wait
 * ends anyway at give_up_at. */
static void ask_settle(cluster_t *c, ask_t *a, uint64_t now)
{
    int listed = 0, owed = 0;
    for (int i = 0; i < a->nhosts; i++) {
        asked_t *h = &a->hosts[i];
        listed += h->listed && !h->answered;
        owed += !h->answered && (h->listed || !h->held_only);
    }
    if (listed == 0 && owed == 0)
        for (int i = 0; i < a->nhosts; i++)
            if (!a->hosts[i].answered)
                log_info("cluster: takeover of account %lld: %s, which had "
                         "only dropped pages' tokens of it, is gone: not "
                         "waited for", (long long)a->account,
                         a->hosts[i].chan);
    if (listed > 0 || (owed > 0 && a->nbytes < 0)) {
        if (now < a->give_up_at)
            return;
        log_error("cluster: takeover of account %lld: %d host%s did not "
                  "answer in %d ms: the game goes on from the database",
                  (long long)a->account, owed, owed == 1 ? "" : "s",
                  (int)(now - a->started));
        if (a->nbytes < 0) {
            ask_done(c, a);
            return;
        }
    }
    if (a->nbytes < 0) {
        ask_done(c, a);
        return;
    }
    a->state = A_CHECK;
    a->deadline = now + FLUSHED_MS;
    ask_look(c, a, now);
}

void cluster_ask_note(cluster_t *c, const cluster_note_t *n)
{
    for (ask_t *a = c->asks; a; a = a->next)
        for (int i = 0; i < a->nhosts; i++) {
            asked_t *h = &a->hosts[i];
            if (h->rid != n->id)
                continue;
            if (a->state != A_ASKED || h->answered)
                return;
            h->answered = 1;
            if (n->nbytes >= 0 && n->nbytes > a->nbytes) {
                a->nbytes = n->nbytes;
                a->seed = n->seed;
            }
            ask_settle(c, a, cluster_now_ms());
            return;
        }
}

/* An answer is late: the hosts that have the account are looked for
 * again (one back under a new name is asked there). */
static void ask_again(cluster_t *c, ask_t *a, uint64_t now)
{
    if (!a->late) {
        a->late = 1;
        log_info("cluster: takeover of account %lld: no answer in %d ms: "
                 "looking again for the hosts that have it (for %d ms at "
                 "most)", (long long)a->account, ANSWER_MS, TAKEOVER_WAIT_MS);
    }
    if (now < a->give_up_at)
        ask_hosts(c, a, now);
    a->look_at = now + RELOOK_MS;
    ask_settle(c, a, now);
}

/* --- handing this host's game over (here: the player's host) ------------- */

static void give_free(cluster_t *c, give_t *g)
{
    cluster_notifyf(c, g->chan, "D %llu %lld %llu", (unsigned long long)g->rid,
                    (long long)g->nbytes, (unsigned long long)g->seed);
    for (give_t **p = &c->gives; *p; p = &(*p)->next)
        if (*p == g) {
            *p = g->next;
            break;
        }
    free(g);
    cluster_conv_closed(c);
}

void cluster_give_start(cluster_t *c, const cluster_note_t *n)
{
    /* the account's game is taken elsewhere: a page of it that dropped
     * here must not come back with its token and take the game back
     * (as a login here ends them: session_lobby.c, take_over); this host
     * publishes those tokens so that the login asks it even when it has
     * no session of the account (cluster_presence.c) */
    int forgot = lt_forget_closed(&c->sh->logins, n->account);
    if (forgot > 0)
        log_info("cluster: account %lld logged in on %s: %d login token%s "
                 "of its dropped pages here forgotten", (long long)n->account,
                 n->chan, forgot, forgot == 1 ? "" : "s");
    uint64_t ids[GIVE_MAX];
    int k = dir_sessions_of(&c->sh->dir, n->account, 0, ids, GIVE_MAX);
    give_t *g = k > 0 ? calloc(1, sizeof *g) : NULL;
    if (!g) {
        cluster_notifyf(c, n->chan, "D %llu -1 0", (unsigned long long)n->id);
        return;
    }
    g->id = cluster_new_id(c);
    g->rid = n->id;
    memcpy(g->chan, n->chan, sizeof g->chan);
    g->owed = k;
    g->nbytes = -1;
    g->deadline = cluster_now_ms() + ANSWER_MS;
    g->next = c->gives;
    c->gives = g;
    cluster_conv_opened(c);
    log_info("cluster: account %lld logged in on %s: this host lets go of "
             "its %d session%s", (long long)n->account, n->chan, k,
             k == 1 ? "" : "s");
    for (int i = 0; i < k; i++)
        cluster_postf(c, MSG_TAKEOVER, g->id, ids[i], 0, NULL, NULL);
}

void cluster_game_moved(cluster_t *c, uint64_t from, const msg_game_t *g)
{
    for (int i = 0; i < g->nwatchers; i++)
        cluster_postf(c, MSG_WATCH_END, from, g->watchers[i], 0, NULL,
                      "The game moved to another host.");
}

/* A session's answer: its game is flushed to the store and let go. */
static void to_give(cluster_t *c, give_t *g, smsg_t *m)
{
    if (m->type != MSG_TAKEOVER_DONE)
        return;
    msg_game_t *gs = m->game;
    if (gs) {
        g->nbytes = (int64_t)gs->keys.len;
        g->seed = gs->seed;
        /* Its watchers (told WATCH_MOVED to g) cannot follow it there. */
        cluster_game_moved(c, g->id, gs);
        log_info("cluster: handed a game of %zu key bytes to %s", gs->keys.len,
                 g->chan);
    }
    if (--g->owed <= 0)
        give_free(c, g);
}

int cluster_to_give(cluster_t *c, smsg_t *m)
{
    for (give_t *g = c->gives; g; g = g->next)
        if (g->id == m->to) {
            to_give(c, g, m);
            return 1;
        }
    return 0;
}

/* --- both sides: the thread's timers, the end ----------------------------- */

void cluster_takeover_timers(cluster_t *c, uint64_t now)
{
    for (ask_t *a = c->asks, *next; a; a = next) {
        next = a->next;
        if (a->state == A_ASKED && now >= a->look_at) {
            ask_again(c, a, now);
        } else if (a->state == A_CHECK && now >= a->look_at) {
            ask_look(c, a, now);
        }
    }
    for (give_t *g = c->gives, *next; g; g = next) {
        next = g->next;
        if (now >= g->deadline)
            give_free(c, g);
    }
}

int cluster_takeover_waiting(const cluster_t *c)
{
    return c->asks || c->gives;
}

void cluster_takeover_down(cluster_t *c)
{
    while (c->asks)
        ask_done(c, c->asks);
    while (c->gives) {
        give_t *g = c->gives;
        c->gives = g->next;
        free(g);
        cluster_conv_closed(c);
    }
}

void cluster_takeover_free_all(cluster_t *c)
{
    for (ask_t *a = c->asks, *next; a; a = next) {
        next = a->next;
        free(a);
    }
    for (give_t *g = c->gives, *next; g; g = next) {
        next = g->next;
        free(g);
    }
}
