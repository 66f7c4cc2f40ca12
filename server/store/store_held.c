/* store_held.c - finished games whose batch failed, held on the database
 * thread and written once writes work again, rather than lost
 * (docs/architecture.md, "Store"; docs/hosting.md says what a host sees).
 *
 * A held game stays counted among the queued (q_games, q_bytes), so the
 * queue's bounds hold: past them a new game is refused. Its tries run
 * only while writes work (store_healthy: after a write of the store's own,
 * the probe, or a batch that wrote), one transaction at each turn of the
 * thread's loop, between the channel's batches, so that a large backlog
 * never keeps a new request waiting more than one try. A try is outside
 * the health's reckoning: one row the database always refuses must not
 * flip the health at each try. So after a try of several fails, its
 * members are tried one at a time (held_alone counts them down; the rest
 * go on in batches); a game that fails alone is paused (held_after_ms),
 * the others go on. Only a refusal (sdb_refused: a constraint, a trigger,
 * a value the database will not take) counts toward giving the game up,
 * after STORE_HELD_TRIES, said once with what finds it (the player, the
 * seed, the turns); any other failure (a deadlock, a timeout, a lost
 * connection, a full disk) is a write failing, tried again for as long as
 * it takes: when the store's own write fails too, writes are failing for
 * everyone, said as after a failed batch, and the held wait for the
 * recovery. A game written twice is refused by its token
 * (store_game_t.token: the row of a batch whose COMMIT answer was lost
 * may be in).
 *
 * A game that ends an account's game in progress carries that end when
 * the end's batch failed too (end_owed, with its claim): each try runs it
 * in the game's transaction, and a login's load runs it first
 * (store_held_end_owed), so that no login goes on with a game held to be
 * recorded (it would be recorded twice). It ends the end's own game
 * alone (the seed and start the end was queued with, kept apart from the
 * carrier's: owed_seed, owed_started): a later game under the same claim
 * (an upgrade's new process begins the player's next game under the
 * claim handed over) is not its to end, and an end carried by an older
 * held game of the account (the ended game's own batch committed, its
 * end's failed) still ends the game it was queued for. The held are this store's alone: a
 * login through another store (a cluster's other host, an upgrade's new
 * process) may continue a held game, recorded twice then (hosting.md). A begin or a load that commits
 * later drops it: the account's game in progress is a new one then.
 *
 * At a close, the held get their last tries; those left unwritten are
 * logged, each. */
#include <stdint.h>
#include <stdio.h>

#include "log.h"
#include "store_impl.h"

/* Refusals of a held game tried alone before it is given up. (The pause
 * after a failed try alone before that game's next, opt.held_pause_ms:
 * whatever stands in its way alone has that long to pass.) */
#define STORE_HELD_TRIES 3
/* Tries alone failed with no refusal while writes worked after which a
 * held game is said, once: such a failure is tried again for as long as
 * it takes, and one that never passes (a permission the games' table
 * lacks) would otherwise never be seen. */
#define STORE_HELD_SAY_AFTER 10

static uint64_t now_ms(void)
{
    return uv_hrtime() / 1000000u;
}

/* r counted among the queued (in), or no longer (a game written or
 * lost). */
static void count_queued(store_t *st, const req_t *r, int in)
{
    uv_mutex_lock(&st->mu);
    if (in) {
        st->q_games++;
        st->q_bytes += r->qbytes;
    } else {
        st->q_games--;
        st->q_bytes -= r->qbytes;
    }
    uv_mutex_unlock(&st->mu);
}

/* The newest held game of the account (the last of the held, else of
 * the paused), or NULL. */
static req_t *held_newest_of(store_t *st, int64_t account_id)
{
    req_t *lists[2] = { st->held, st->paused };
    for (int i = 0; i < 2; i++) {
        req_t *found = NULL;
        for (req_t *r = lists[i]; r; r = r->next)
            if (r->game.account_id == account_id)
                found = r;
        if (found)
            return found;
    }
    return NULL;
}

/* A progress end e was not written: the account's held game owes it (its
 * game ended it, queued just before it). None held: the game was written,
 * and the end is lost as any failed write of a game in progress is.
 * The game picked: the last held (the one just kept from e's batch, when
 * it is the account's: a session queues its game, then the end), else
 * the account's newest held. It carries e's own game (e's seed and
 * start), whichever held game it picks. The claim: the larger of the one
 * it owes already and e's (a session's claims only grow; an earlier one
 * would be refused by the later), with that end's game (of equal claims,
 * the later end's: a session ends its games in order). */
static void held_owe_end(store_t *st, const req_t *e)
{
    req_t *g = st->held_tail && st->held_tail->game.account_id == e->id
                   ? st->held_tail
                   : held_newest_of(st, e->id);
    if (!g)
        return;
    if (!g->end_owed || e->claim >= g->claim) { /* and its game: the later */
        g->claim = e->claim;
        g->owed_seed = e->game.seed;
        g->owed_started = e->game.started;
    }
    st->held_ends += !g->end_owed;
    g->end_owed = 1;
}

/* The account's game in progress is a new one: no held game of it ends
 * it any more. */
static void held_drop_ends(store_t *st, int64_t account_id)
{
    req_t *lists[2] = { st->held, st->paused };
    for (int i = 0; i < 2 && st->held_ends; i++)
        for (req_t *r = lists[i]; r; r = r->next)
            if (r->end_owed && r->game.account_id == account_id) {
                r->end_owed = 0;
                st->held_ends--;
            }
}

uint64_t store_held_keep(store_t *st, req_t **batch, int committed)
{
    uint64_t n = 0;
    req_t **p = batch;
    while (*p) {
        req_t *r = *p;
        unsigned flags = r->call->flags;
        if ((flags & STORE_CALL_PROG_END) &&
            (!committed || r->status != STORE_OK))
            held_owe_end(st, r);
        if ((flags & STORE_CALL_PROG_FRESH) && committed &&
            r->status != STORE_ERROR)
            held_drop_ends(st, r->id);
        if (!(flags & STORE_CALL_GAME) ||
            (committed && r->status == STORE_OK)) {
            p = &r->next;
            continue;
        }
        *p = r->next;
        r->phase = PH_DB;
        r->held_after_ms = 0;
        count_queued(st, r, 1);
        store_queue_push(&st->held, &st->held_tail, r);
        n++;
    }
    return n;
}

/* The paused whose pause is over, back at the end of the held. */
static void held_unpause(store_t *st, uint64_t now)
{
    while (st->paused && st->paused->held_after_ms <= now) {
        req_t *r = st->paused;
        st->paused = r->next;
        if (!st->paused)
            st->paused_tail = NULL;
        store_queue_push(&st->held, &st->held_tail, r);
    }
}

uint64_t store_held_due_in(const store_t *st)
{
    if (st->db_quiet || (!st->held && !st->paused))
        return UINT64_MAX;
    if (st->held)
        return 0;
    uint64_t now = now_ms(), at = st->paused->held_after_ms;
    return now >= at ? 0 : at - now;
}

/* The list head..tail back in front of the held, in its order. */
static void held_put_back(store_t *st, req_t *head, req_t *tail)
{
    tail->next = st->held;
    if (!st->held)
        st->held_tail = tail;
    st->held = head;
}

/* r paused: tried again, alone, once its pause is over. The pauses are
 * all as long, so the paused list is in the order they end. */
static void held_pause(store_t *st, req_t *r)
{
    r->held_after_ms = now_ms() + (uint64_t)st->opt.held_pause_ms;
    store_queue_push(&st->paused, &st->paused_tail, r);
}

/* A held game leaves the held: written (lost 0) or lost. */
static void held_free(store_t *st, req_t *r)
{
    st->held_ends -= r->end_owed;
    count_queued(st, r, 0);
    store_req_free(r);
}

/* A held game ends unwritten: said, with what finds it, and counted.
 * what: "lost" or "may be lost". */
static void held_lose(store_t *st, req_t *r, const char *what,
                      const char *why)
{
    char ended[LOG_TIME_LEN];
    log_error("store: %s: a game of %s %s (seed %llu, %d turns, ended "
              "%s): %s", st->path, r->game.name, what,
              (unsigned long long)r->game.seed, r->game.turns,
              log_time((long long)r->game.ended, ended), why);
    uv_mutex_lock(&st->mu);
    st->stats.games_lost++;
    uv_mutex_unlock(&st->mu);
    held_free(st, r);
}

static void lose_list(store_t *st, req_t *list, const char *what,
                      const char *why)
{
    for (req_t *r = list, *next; r; r = next) {
        next = r->next;
        held_lose(st, r, what, why);
    }
}

/* The store closes and writes fail: the games of its last try (`list`)
 * and every game still held are lost, without more tries (each would
 * wait for the database); maybe: the try's COMMIT got no answer
 * (sdb_commit_unanswered), so its games may be in after all. */
static void held_lose_all(store_t *st, req_t *list, int maybe)
{
    const char *why = "held while writes failed, and they still failed as "
                      "the store closed";
    char line[384];
    snprintf(line, sizeof line, "its last try's COMMIT got no answer as the "
             "store closed (%s): it may have committed", sdb_errmsg(st->db));
    lose_list(st, list, maybe ? "may be lost" : "lost", maybe ? line : why);
    lose_list(st, st->held, "lost", why);
    lose_list(st, st->paused, "lost", why);
    st->held = st->held_tail = st->paused = st->paused_tail = NULL;
    st->held_alone = 0;
}

/* r refused alone: one try more spent, given up at STORE_HELD_TRIES.
 * why: the database's reason. */
static void held_refused(store_t *st, req_t *r, const char *why)
{
    if (++r->tries < STORE_HELD_TRIES) {
        held_pause(st, r);
        return;
    }
    char line[384];
    snprintf(line, sizeof line, "the database refused it %d times while "
             "writes worked (%s); given up", r->tries, why);
    held_lose(st, r, "lost", line);
}

/* r's try alone failed with no refusal while the store's own write
 * worked; why: the database's reason. Said once, at the
 * STORE_HELD_SAY_AFTERth. */
static void held_not_passing(store_t *st, req_t *r, const char *why)
{
    if (r->failures >= STORE_HELD_SAY_AFTER ||
        ++r->failures < STORE_HELD_SAY_AFTER)
        return;
    char ended[LOG_TIME_LEN];
    log_error("store: %s: a game of %s (seed %llu, %d turns, ended %s) "
              "not written after %d tries alone while writes worked (%s): "
              "tried again until it is written or the store closes; said "
              "once", st->path, r->game.name, (unsigned long long)r->game.seed,
              r->game.turns, log_time((long long)r->game.ended, ended),
              r->failures, why);
}

/* r's last try, as the store closes, failed; why: the database's
 * reason. r is lost; the rest still get their last tries when the
 * failure was r's own: a refusal, or no refusal while the store's own
 * write works (a deadlock, a permission its row lacks). Only when the
 * store's own write fails too (a lock held elsewhere, a lost connection,
 * a full disk) are writes failing: the rest are lost at once, not each
 * after as long a wait (busy_ms) for the same failure. A COMMIT with no
 * answer is the connection's failing, whatever the store's own write
 * answers after. */
static void held_last_failed(store_t *st, req_t *r, const char *why)
{
    int maybe = sdb_commit_unanswered(st->db);
    int refused = sdb_refused(st->db);
    char line[384];
    snprintf(line, sizeof line, "%s as the store closed (%s)",
             refused ? "the database refused its last try"
             : maybe ? "its last try's COMMIT got no answer (it may have "
                       "committed)"
                     : "its last try failed",
             why);
    held_lose(st, r, maybe ? "may be lost" : "lost", line);
    if (refused || (!maybe && store_own_write(st)))
        return;
    store_writes_fail(st);
    held_lose_all(st, NULL, 0);
}

/* The games of a held try that were not written: `list`, n of them. */
static void held_failed(store_t *st, req_t *list, req_t *tail, uint64_t n)
{
    if (st->held_closing && st->db_quiet) {
        held_lose_all(st, list, sdb_commit_unanswered(st->db));
        return;
    }
    if (n > 1) { /* which of them failed it is not known: each alone */
        st->held_alone = n;
        held_put_back(st, list, tail);
        return;
    }
    char why[256];
    snprintf(why, sizeof why, "%s", sdb_errmsg(st->db));
    int refused = sdb_refused(st->db);
    if (st->held_closing) {
        held_last_failed(st, list, why);
        return;
    }
    if (refused) {
        held_refused(st, list, why);
        return;
    }
    if (store_own_write(st)) { /* a deadlock, a timeout: try again */
        held_not_passing(st, list, why);
        held_pause(st, list);
        return;
    }
    store_writes_fail(st); /* for everyone: the held wait for the probe */
    held_put_back(st, list, tail);
}

/* After a held try (ok: it committed): its games written are counted and
 * freed, the rest go to held_failed. */
static void held_settle(store_t *st, req_t *batch, batch_run_t b)
{
    req_t *failed = NULL, *tail = NULL;
    uint64_t nfailed = 0, written = 0;
    for (req_t *r = batch, *next; r; r = next) {
        next = r->next;
        if (b.ok && r->status == STORE_OK) {
            held_free(st, r);
            written++;
        } else {
            store_queue_push(&failed, &tail, r);
            nfailed++;
        }
    }
    uv_mutex_lock(&st->mu);
    /* (one whose token was in already counted too: its row is in, from a
     * batch whose COMMIT answer was lost, and counted nowhere yet) */
    st->stats.games_written += written;
    st->held_writes += written > 0;
    uv_mutex_unlock(&st->mu);
    if (failed)
        held_failed(st, failed, tail, nfailed);
}

/* One held try: up to batch_max of the held, oldest first (one, while
 * members of a failed try of several are tried alone), in one
 * transaction, its statements' own lines silenced (a game given up is
 * said once, by held_lose). */
static void held_run(store_t *st)
{
    uint64_t max = st->held_alone ? 1 : (uint64_t)st->opt.batch_max, n = 0;
    if (st->held_alone)
        st->held_alone--;
    req_t *batch = NULL, *last = NULL;
    while (st->held && n < max) {
        req_t *r = st->held;
        st->held = r->next;
        store_queue_push(&batch, &last, r);
        n++;
    }
    if (!st->held)
        st->held_tail = NULL;
    sdb_set_quiet(st->db, 1);
    batch_run_t b = store_run_batch(st, batch);
    held_settle(st, batch, b);
    sdb_set_quiet(st->db, st->db_quiet);
}

int store_held_turn(store_t *st)
{
    held_unpause(st, now_ms());
    if (store_held_due_in(st) != 0 || !st->held)
        return 0;
    held_run(st);
    return 1;
}

void store_held_close(store_t *st)
{
    st->held_closing = 1; /* no pauses: each try settles a game or more */
    held_unpause(st, UINT64_MAX);
    while (st->held)
        held_run(st);
}

int store_held_end_owed(store_t *st, int64_t account_id)
{
    if (!st->held_ends)
        return 0;
    /* Each owing game's end drops its own game alone (its seed and
     * start), whichever of them is the one in progress; each as the
     * latest claim of those owed (an earlier one's would be refused by
     * it, and leave its game in progress). */
    int64_t claim = -1;
    req_t *lists[2] = { st->held, st->paused };
    for (int i = 0; i < 2; i++)
        for (req_t *r = lists[i]; r; r = r->next)
            if (r->end_owed && r->game.account_id == account_id &&
                r->claim > claim)
                claim = r->claim;
    for (int i = 0; i < 2 && claim >= 0; i++)
        for (req_t *r = lists[i]; r; r = r->next)
            if (r->end_owed && r->game.account_id == account_id &&
                store_progress_end_now(st, account_id, claim, r->owed_seed,
                                       r->owed_started) != 0)
                return -1;
    return 0;
}

uint64_t store_held_written(store_t *st)
{
    uv_mutex_lock(&st->mu);
    uint64_t n = st->held_writes;
    uv_mutex_unlock(&st->mu);
    return n;
}
