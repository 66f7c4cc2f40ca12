/* store_impl.h - inside the store, shared by its hub and its calls:
 * store.c (the loop thread: the pending list, the slow-down's wait, open
 * and close), store_hash.c (password hashing in the pool), store_thread.c (the
 * database thread: batches and transactions) and each call's file, which
 * defines its descriptor (store_call_t) and its work on both threads.
 * Nothing outside server/store/ includes this.
 *
 * A request (req_t) is owned by whichever queue holds it, and moves:
 *
 *   loop thread:  store_* call -> [throttle wait] -> db queue
 *   db thread:    db queue -> one transaction per batch -> done queue
 *                 (a game and a progress begin/append/end end here:
 *                 freed by the db thread)
 *   loop thread:  done queue (uv_async_t) -> [pool: hash or verify] -> ...
 *                 -> finish: the callback, unless cancelled, then freed
 *
 * The db queue is a channel (chan.h: each request rides it as the message
 * embedded in it, req_t.link); its wake signals the condition variable the
 * database thread waits on. The done queues and the counts of what is
 * queued are the rest of what the two threads share, under one mutex
 * (st->mu; taken before the channel's when both are). Requests owed a callback are also on the pending
 * list of their port (its loop thread only), which is what store_cancel
 * walks; the db thread never reads a request's callback or context. Every
 * request is freed by store_req_free.
 *
 * Ports. Each loop that calls the store (the first, from store_open, and
 * one per worker loop, from store_attach) has a port: the loop-side half
 * of a request lives there (pending list, throttled logins waiting,
 * hashes given a slot to start, the done queue and the async that wakes
 * that loop), so
 * an answer reaches the loop that asked. What the loops share on this side
 * (the slow-down tables, guest numbers, the line of hashes waiting and the
 * count in flight, the refusal counters) is under lmu. */
#ifndef ROGUE_STORE_IMPL_H
#define ROGUE_STORE_IMPL_H

#include <sodium.h>
#include <uv.h>

#include "addr_limits.h"
#include "ban_list.h"
#include "chan.h"
#include "game.h"
#include "record.h"
#include "store.h"
#include "store_db.h"
#include "hash_fair.h"
#include "known_logins.h"
#include "throttle.h"

typedef struct req req_t;
typedef struct store_port store_port_t;

/* What a kind of request is: a descriptor the request carries (r->call),
 * defined by the file that makes the request (store_accounts.c,
 * store_games.c, store_scores.c, store_progress.c, store_keys.c,
 * store_bans.c, store_recent.c). The database thread runs call->db and the
 * loop call->answer; neither names a call, so a new call is its own file
 * (docs/architecture.md, "Store"). */
typedef struct store_call {
    const char *name;          /* for messages and debugging */
    /* On the database thread, inside the batch's transaction (ok: its
     * BEGIN worked). Sets r->phase to PH_DONE (answer now) or PH_HASH
     * (verify in the pool first); a silent call need not. Returns 1 if it
     * wrote (for STORE_CALL_GAME and STORE_CALL_PROGRESS, a counted write),
     * 0 if it read or changed nothing: only a batch that wrote and
     * committed tells the log that writes work again (store_thread.c).
     * It may run twice or three times for one request, when the database
     * ended the batch to break a deadlock and the batch is run again
     * (store_thread.c, run_again): each run sets the whole answer, frees
     * what a run before left, and leaves the request's input as it found
     * it (a new password's hash is wiped by the thread, after the
     * batch). */
    int (*db)(store_t *st, req_t *r, int ok);
    /* On the asking loop's thread: calls the callback (not cancelled, not
     * closing). NULL for a silent or a waiting thread's call. */
    void (*answer)(req_t *r);
    /* On the database thread, when the batch r was in was rolled back:
     * what r answers now (NULL: its answer stands). */
    void (*undo)(store_t *st, req_t *r);
    /* On the loop, after the pool verified a password (the pool's work
     * ran: status 0), before the answer (NULL: nothing). */
    void (*verified)(req_t *r);
    /* On the loop, when a request its call counted from its start
     * (r->admitted: a login, in the slow-down's tables) ends with no
     * verdict: given up before its check, refused it (its name's line
     * full: STORE_CALL_PER_NAME, or out of memory), or failed (NULL:
     * nothing). Not a failure: an honest player whose login was given up
     * as the server was busy, trying again, must not be slowed down for
     * it. */
    void (*abandoned)(req_t *r);
    unsigned flags;            /* STORE_CALL_* */
} store_call_t;

/* Ends on the database thread, answering nobody (freed there). */
#define STORE_CALL_SILENT   1u
/* A finished game: counted in q_games/q_bytes while queued (and while
 * held after its batch failed: store_held.c) and in the stats' games
 * written or lost. Its db sets r->status: STORE_OK if its row is in. */
#define STORE_CALL_GAME     2u
/* A game in progress's write: counted in q_progress/q_prog_bytes and in the
 * stats' progress written or dropped. */
#define STORE_CALL_PROGRESS 4u
/* Hashes its password in the pool first, then goes to the database (a
 * request that reaches the pool without it is verified there). */
#define STORE_CALL_NEW_HASH 8u
/* Its hashes are bounded per name (hashes_per_name, hash_fair.h) unless
 * it comes from an address the name has logged in from (r->known). */
#define STORE_CALL_PER_NAME 16u
/* A batch of its own: it takes a claim (store.h, "Claims"), which writes
 * the account's game's row, and in one transaction with the keys of
 * another game it would hold that game's row while it waits for its own.
 * Two hosts each taking over the account the other plays at once would
 * then wait on each other: a deadlock, and PostgreSQL rolling one batch
 * back (its keys and its login's load with it). Alone, it waits holding
 * nothing, and the other host's keys commit first. */
#define STORE_CALL_OWN_BATCH 32u
/* A progress end: one not written (its batch failed) is owed by the
 * account's held game (store_held.c), which runs it with its own try, and
 * a login's load runs it first. Its db sets r->status: STORE_OK if it
 * ended the game or a later claim refused it. */
#define STORE_CALL_PROG_END 64u
/* A progress begin or load: once committed, the account's game in
 * progress is a new one (or read by a login that holds a later claim), so
 * an end owed by a held game of the account is dropped (it would end the
 * new game). Its db sets r->status: STORE_OK if it wrote (or read). */
#define STORE_CALL_PROG_FRESH 128u

enum phase {
    PH_DB,    /* for the database thread */
    PH_HASH,  /* for the thread pool: hash (register) or verify (login) */
    PH_DONE   /* answered: the callback is next */
};

/* A request made by a thread that runs no loop (store_key_account): it
 * waits on cond (with st->mu) until the database thread sets done; if it
 * stopped waiting first (gone), the database thread frees the request.
 * Both flags under st->mu. */
typedef struct store_sync {
    uv_cond_t cond;
    int done, gone;
} store_sync_t;
/* A request. The fields below the callback are what the calls need
 * (named by the call that uses them); a new call that needs no more than
 * id, name, limit and a malloc'd answer uses out and cb.any, and so adds
 * nothing here. */
struct req {
    smsg_t link;               /* its place in the db channel (chan.h); only
                                  next is used: never msg_free'd */
    req_t *next;               /* in the one queue that holds it */
    req_t *pprev, *pnext;      /* port->pending (its loop thread) */
    store_t *st;
    store_port_t *port;        /* answers go to this loop (NULL: silent) */
    const store_call_t *call;  /* what it is: its db and answer */
    uint8_t phase, cancelled, name_ok, pass_ok, found;
    uint8_t name_counted;      /* in st->hash_names (hash_fair.h) */
    uint8_t failures;          /* a held game: its tries alone that failed
                                  with no refusal while the store's own
                                  write worked (said at
                                  STORE_HELD_SAY_AFTER; stops counting
                                  there) */
    uint8_t tries;             /* a held game: its tries alone that the
                                  database refused (store_held.c) */
    uint8_t end_owed;          /* a held game: its account's progress end
                                  (as claim, of the game owed_seed and
                                  owed_started) was not written; run with
                                  each of its tries (store_held.c) */
    uint8_t admitted;          /* counted by its call from its start, not
                                  yet settled: finish calls abandoned */
    uint8_t at;                /* where it waits (enum store_wait,
                                  store_wait_of): set and read on its
                                  loop's thread only */
    hf_item_t fair;            /* in st->hashq (addr: scope_key) */
    int status;                /* enum store_status */
    union {
        store_account_cb account;
        store_scores_cb scores;
        store_done_cb done;
        store_taken_cb taken;
        store_progress_cb progress;
        store_record_cb record;
        store_keys_cb keys;
        void (*any)(void);     /* any other call's, cast back by its file */
    } cb;
    void *ctx;
    uv_work_t work;
    uint64_t not_before;       /* throttled login: loop time to go on */
    uint64_t held_after_ms;    /* a held game: uv_hrtime in ms before which
                                  it is not tried (a pause after a failed
                                  try: store_held.c) */
    /* register, login; name also the scores' (the player), taken's (found:
     * the answer). id is also the account of a game in progress's calls,
     * the game of get_record, the games after which recent reads. */
    int64_t id;
    char name[ACCT_NAME_MAX + 1];
    char scope[48];            /* login, register: the address it comes
                                  from, or "" */
    char scope_key[ADDR_MAX];  /* ...as the hash line's turn and the
                                  failures per (name, address) count it
                                  (addr_key: an IPv6 address's /64); the
                                  addresses known to a name (known) keep
                                  the whole scope */
    uint8_t known;             /* login: scope has logged in as this name
                                  before (known_logins.h) */
    char pass[ACCT_PASS_MAX + 1];
    size_t pass_len;
    char hash[crypto_pwhash_STRBYTES];
    /* game; game also get_record's answer, and game.seed, game.started
     * progress begin's and load's */
    store_game_t game;
    void *record;              /* encoded bytes (malloc'd), or NULL; also
                                  a progress append's keys, progress load's
                                  and get_record's answer */
    size_t record_len;
    size_t qbytes;             /* counted in st->q_bytes (STORE_CALL_GAME) or
                                  st->q_prog_bytes (STORE_CALL_PROGRESS)
                                  while queued */
    game_t *played;            /* store_end_game: to finish and encode on */
    record_t rec;              /*   the database thread, then free */
    /* scores, recent */
    int limit;
    store_scores_t *scores;
    void *out;                 /* a call's answer (malloc'd: freed with r) */
    /* progress begin, append, snapshot, end: the writer's claim; progress
     * load's answer: the claim it took; a held game whose end is owed:
     * that end's claim */
    int64_t claim;
    /* a held game whose end is owed: the ended game's seed and start (the
     * end's own: the held game carrying it may be an older one) */
    uint64_t owed_seed;
    int64_t owed_started;
    /* progress begin; progress load's answer */
    game_options_t gopt;
    uint32_t game_version;
    /* progress snapshot; progress load's answer (snap.game NULL: none) */
    sdb_snapshot_t snap;
    /* SSH keys: the key's fingerprint, its text (add's; find's answer), the
     * list answered (list, add, remove), the waiter (find: a thread
     * without a loop); id is the account, name find's */
    char fp[STORE_KEY_FP_MAX + 1];
    char *key;
    store_keys_t *keys;
    store_sync_t *sync;
    /* set display; login's answer (found: the account's) */
    int display;
    /* ban: the ban; unban: ban.target */
    store_ban_t ban;
};

#define STORE_PORTS_MAX 64

/* Accounts whose progress writes were refused for a later claim, kept for
 * the loops to ask (store_progress_claimed): the latest this many. */
#define STORE_CLAIMED_MAX 256

typedef struct store_claimed {
    int64_t account_id;
    int64_t claim;             /* the highest claim of it refused */
} store_claimed_t;

/* The loop-side half of the store for one loop: only its loop's thread
 * touches these, but done_head/done_tail (under st->mu). */
struct store_port {
    store_t *st;
    uv_loop_t *loop;
    uv_async_t async;          /* the done queue has answers */
    uv_timer_t timer;          /* the first throttled login's time */
    req_t *done_head, *done_tail; /* under st->mu */
    req_t *pending;            /* owed a callback */
    int npending;
    req_t *wait_head;          /* throttled logins, soonest first */
    req_t *granted, *granted_tail; /* under st->lmu: hashes given a slot
                                  by another loop, for this one to start
                                  (store_hash.c, hash_grant) */
    int closing;
    int open;                  /* in use (under st->lmu) */
};

struct store {
    store_opts_t opt;
    char path[512];            /* what messages call the database */
    char where[1024];          /* what sdb_open is given: the file, or the
                                  URL (which may hold a password) */
    uv_thread_t thread;
    uv_sem_t ready;            /* the thread has opened (or failed) */
    char open_err[512];
    chan_t dbq;                /* requests for the database thread */
    uv_mutex_t wmu;            /* the channel's wake: woken, under wmu, */
    uv_cond_t cond;            /*   signalled when the channel has work */
    int woken;                 /*   or is closed (store_close) */
    msgq_t backlog;            /* the database thread's: taken from db,
                                  not yet in a batch */
    /* shared, under mu */
    uv_mutex_t mu;
    uint64_t q_games, q_bytes;
    uint64_t q_progress;       /* STORE_CALL_PROGRESS queued */
    uint64_t q_prog_bytes;     /*   their key bytes (qbytes) */
    int stopping;
    int healthy;               /* store_healthy: writes work (the last
                                  batch committed, and since a failure one
                                  that wrote) */
    uint64_t failed_batches;   /* store_failed_batches: ever, this run */
    uint64_t db_busy_at_ms;    /* store_db_stalled: uv_hrtime in ms when
                                  the database thread's work on the
                                  database began (db_busy); 0: none */
    uint64_t rerun_batches;    /* store_rerun_batches: runs again after a
                                  deadlock, ever, this run */
    uint64_t held_writes;      /* store_held_written: held tries that
                                  wrote a game, ever, this run */
    int file_moved;            /* store_file_moved (written by the
                                  database thread only) */
    store_stats_t stats;
    store_claimed_t claimed[STORE_CLAIMED_MAX]; /* a ring: the oldest is */
    int nclaimed, claimed_next;                 /*   replaced first */
    /* the database thread's */
    store_db_t *db;
    char dummy[crypto_pwhash_STRBYTES]; /* verified for unknown names */
    int db_quiet;              /* writes are failing, said once: no more
                                  lines per statement or account */
    uint64_t probed_ms;        /* uv_hrtime in ms of the last write tried
                                  while db_quiet (store_thread.c, probe) */
    req_t *held, *held_tail;   /* finished games whose batch failed, to be
                                  written once writes work (store_held.c) */
    req_t *paused, *paused_tail; /* held games paused after a failed try,
                                  in the order their pauses end */
    uint64_t held_alone;       /* the members of a failed try of several
                                  still to be tried one at a time */
    uint64_t held_ends;        /* held games whose end_owed is set */
    int held_closing;          /* the store closes: their last tries */
    int64_t last_prune;        /* Unix seconds of the retention rule's run */
    uint64_t bans_read_ms;     /* uv_hrtime in ms of the last read of bans */
    uint64_t moved_ms;         /* uv_hrtime in ms of the last look whether
                                  the file moved (store_thread.c) */
    int bans_changed;          /* a ban or unban in this batch */
    int64_t *broken;           /* accounts whose appends are dropped until */
    size_t nbroken, capbroken; /*   their next begin (store_progress.c) */
    int64_t *broken_was;       /* the list as the batch found it */
    size_t nbroken_was, capbroken_was; /* (store_progress_mark) */
    int broken_kept;           /* broken_was holds it (not out of memory) */
    /* the loops' side: ports[0] is store_open's loop */
    store_port_t ports[STORE_PORTS_MAX];
    uv_mutex_t lmu;            /* what the ports share, below */
    int hashing;               /* slots taken (in the pool, or granted
                                  and not yet started), on every loop */
    hash_fair_t hashq;         /* every loop's hashes waiting for a slot,
                                  in turn by address (store_hash.c) */
    hf_names_t hash_names;     /* logins hashing or waiting, per name */
    int closing;
    uint64_t refused, dropped; /* games refused, records dropped: for the log */
    uint64_t prog_refused;     /* appends refused: for the log */
    unsigned long long guest_next, guest_end; /* numbers reserved: [next, end) */
    unsigned long long guest_spare; /* the next block's first (0: none yet) */
    int guest_asking;          /* a guest block is asked for */
    int guest_warned;          /* past the reserve, logged */
    throttle_t thr;            /* failed logins per (name, address) */
    throttle_t thr_name;       /* per name from anywhere: a high ceiling */
    known_logins_t known;      /* (name, address) logged in from: skip
                                  thr_name (known_logins.h) */
    uint64_t login_waits, login_wait_ms; /* store_stats_t's */
    int sync_waiting;          /* store_key_account callers waiting (mu) */
    ban_list_t bans;           /* the host's bans (thread-safe on its own):
                                  the database thread replaces the list */
};

/* Frees a request and all it owns (wiping any password or hash); the one
 * place a request ends, on whichever thread ends it. */
void store_req_free(req_t *r);

/* Appends r to a singly linked queue. */
void store_queue_push(req_t **head, req_t **tail, req_t *r);

/* Under st->mu: hands r to the database thread through its channel.
 * Returns 0, or -1 once the store is closing (r stays the caller's). */
int store_db_post(store_t *st, req_t *r);

/* The channel's wake (chan.h): the database thread has work, or is to
 * stop. */
void store_db_wake(void *st);

/* The database thread, under st->mu: hands an answered request to its
 * port's done queue and wakes that loop. */
void store_done_push(store_t *st, req_t *r);

/* store.c, for the calls' files: a request of `call` that will answer, on
 * the pending list (NULL: too many owed, closing, OOM; logged); one taken
 * back before it was handed on (unlinked and freed); hands a request to
 * the database thread; answers one at once, through the loop; hashes or
 * verifies its password in the pool (then STORE_CALL_NEW_HASH goes to the
 * database, a verify answers); a throttled login waits until
 * r->not_before (loop time). */
req_t *store_req_new(store_t *st, const store_call_t *call, void *ctx);
void store_req_drop(req_t *r);
void store_db_submit(store_t *st, req_t *r);
void store_answer_soon(store_t *st, req_t *r, int status);
void store_hash_enqueue(store_t *st, req_t *r);
void store_wait_insert(req_t *r);

/* store.c: the end of every request that answers: its callback (unless
 * cancelled or its port closing), then freed; on its port's loop. */
void store_finish(store_t *st, req_t *r);

/* store_hash.c, for store.c: on p's loop, starts the checks other loops
 * gave slots to; finishes p's checks not started (those of ctx, or all),
 * without their callbacks, their slots given to others. */
void store_hash_start_granted(store_port_t *p);
void store_hash_drop(store_t *st, store_port_t *p, const void *ctx, int all);

/* store.c: the answer of the calls that answer with a status only
 * (store_done_cb). */
void store_answer_done(req_t *r);

/* store_thread.c: undo hooks the calls share (store_call_t.undo): the
 * request failed with its batch (its list of keys, if any, emptied); the
 * same, if it had succeeded. */
void store_undo_error(store_t *st, req_t *r);
void store_undo_error_if_ok(store_t *st, req_t *r);

/* What one run of a batch did (store_run_batch): whether it committed,
 * and its writes. */
typedef struct batch_run {
    int ok;
    uint64_t games, written;         /* finished games: in it, written */
    uint64_t progress, prog_written; /* progress writes: in it, written */
    uint64_t changes;                /* every call's writes (counted or
                                        not) */
} batch_run_t;

/* store_thread.c, for store_held.c: one run of a batch, one transaction,
 * each request's call->db in turn (nothing told to the health, counted or
 * answered); a write of the store's own that leaves nothing behind, as the
 * probe makes (1: it committed); and writes failing, seen by such a write
 * (store_healthy 0, said once, as after a failed batch, but not counted
 * as one). */
batch_run_t store_run_batch(store_t *st, req_t *batch);
int store_own_write(store_t *st);
void store_writes_fail(store_t *st);

/* store_progress.c: ends the account's game in progress as `claim`, in
 * the transaction open, if it is the game of `seed` begun at `started`
 * (an end owed by a held game, the held game's own: store_held.c; a
 * later game of the same claim, as an upgrade's new process begins, is
 * not its to end). Returns 0 (ended, none to end, or a later claim holds it: told as a
 * refused end is), or -1 (failed). */
int store_progress_end_now(store_t *st, int64_t account_id, int64_t claim,
                           uint64_t seed, int64_t started);

/* store_held.c, on the database thread: finished games whose batch
 * failed are held rather than lost, and written once writes work
 * (docs/architecture.md, "Store"). store_held_keep takes the games of a
 * batch that failed, or whose own row failed in one that committed, out
 * of *batch into the held (counted queued again; returns how many);
 * store_held_due_in is the ms until a held try is due (UINT64_MAX: none
 * held, or writes fail); store_held_turn runs one try if due (1: it ran
 * one), between the channel's batches; store_held_close gives those left
 * their last tries as the store closes, and logs each one lost. */
uint64_t store_held_keep(store_t *st, req_t **batch, int committed);
uint64_t store_held_due_in(const store_t *st);
int store_held_turn(store_t *st);
void store_held_close(store_t *st);
/* store_held.c: a login's load of account_id, in its transaction, before
 * its claim: the progress end owed by a held game of the account is run
 * first, so that no login goes on with a game held to be recorded.
 * Returns 0, or -1 (the end failed: the load fails). */
int store_held_end_owed(store_t *st, int64_t account_id);

/* store_progress.c, for the database thread: the broken list kept as a
 * batch finds it (mark, before its first run), and put back before the
 * batch is run again (rewind: 0, or -1 if it could not be kept, out of
 * memory: then the batch is not run again). */
void store_progress_mark(store_t *st);
int store_progress_rewind(store_t *st);

/* store_progress.c, for the database thread, after a batch committed:
 * the begins and appends that, as the commit found, had nothing to follow
 * (sdb_unfollowed) lose their accounts' later appends as if they had
 * failed at once. Returns how many (counted dropped, not written). */
uint64_t store_progress_unfollowed(store_t *st);

/* store_bans.c, for the database thread: reads the bans into st->bans
 * (after a batch that changed them, or every STORE_BAN_REFRESH_MS). */
void store_bans_refresh(store_t *st);

/* store_accounts.c, for the database thread as it ends (every loop
 * gone): the guest numbers reserved and never handed out are given back,
 * so that the next start goes on from the last one handed out rather
 * than past a whole block; only while nobody has reserved since (another
 * host, an upgrade's new process). A crash gives nothing back: the next
 * start goes past every number reserved, as it always did. */
void store_guest_give_back(store_t *st);

/* The database thread (uv_thread_create's entry, arg: the store): opens
 * the file (posting st->ready either way), then runs batches until
 * its channel is closed and empty, then closes the file. */
void store_db_main(void *arg);

#endif
