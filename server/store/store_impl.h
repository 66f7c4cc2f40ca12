/* store_impl.h - inside the store, shared by its two halves: store.c
 * (the loop thread: the API, the pending list, password hashing in the
 * pool, the slow-down), store_progress.c (the loop thread's side of games
 * in progress and of records by id) and store_thread.c (the database
 * thread: batches and transactions). Nothing outside server/store*.c
 * includes this.
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
 * hashes waiting, the done queue and the async that wakes that loop), so
 * an answer reaches the loop that asked. What the loops share on this side
 * (the slow-down tables, guest numbers, the count of hashes in flight,
 * the refusal counters) is under lmu. */
#ifndef ROGUE_STORE_IMPL_H
#define ROGUE_STORE_IMPL_H

#include <sodium.h>
#include <uv.h>

#include "ban_list.h"
#include "chan.h"
#include "game.h"
#include "record.h"
#include "store.h"
#include "store_db.h"
#include "hash_fair.h"
#include "known_logins.h"
#include "throttle.h"

enum op {
    OP_GAME, OP_REGISTER, OP_LOGIN, OP_SCORES, OP_FLUSH, OP_TAKEN,
    OP_PROG_BEGIN, OP_PROG_APPEND, OP_PROG_END, /* no answer, like OP_GAME */
    OP_PROG_SNAP,                               /* the same */
    OP_PROG_LOAD, OP_GET_RECORD,                /* answer */
    OP_GUEST,     /* reserve guest numbers: answers the store itself */
    OP_SETPASS,   /* hash a new password, then store it: answers done */
    OP_KEYS_LIST, OP_KEY_ADD, OP_KEY_DEL, /* answer keys (store_keys.c) */
    OP_KEY_FIND,  /* a waiting thread's (req_t.sync): answers it directly */
    OP_SETDISPLAY, /* keep an account's display choice: answers done */
    OP_BAN_PUT, OP_BAN_DEL, /* a ban (store_bans.c): answers done */
    OP_RECENT     /* the finished games, newest first (store_recent.c) */
};

/* The ops that end on the database thread, answering nobody. */
#define OP_IS_SILENT(op) ((op) == OP_GAME || (op) == OP_PROG_BEGIN || \
                          (op) == OP_PROG_APPEND || (op) == OP_PROG_END || \
                          (op) == OP_PROG_SNAP)
#define OP_IS_KEYS(op) ((op) == OP_KEYS_LIST || (op) == OP_KEY_ADD || \
                        (op) == OP_KEY_DEL || (op) == OP_KEY_FIND)
#define OP_IS_BAN(op) ((op) == OP_BAN_PUT || (op) == OP_BAN_DEL)
#define OP_IS_PROGRESS(op) ((op) == OP_PROG_BEGIN || (op) == OP_PROG_APPEND || \
                            (op) == OP_PROG_END || (op) == OP_PROG_SNAP)
enum phase {
    PH_DB,    /* for the database thread */
    PH_HASH,  /* for the thread pool: hash (register) or verify (login) */
    PH_DONE   /* answered: the callback is next */
};

typedef struct req req_t;
typedef struct store_port store_port_t;

/* A request made by a thread that runs no loop (store_key_account): it
 * waits on cond (with st->mu) until the database thread sets done; if it
 * stopped waiting first (gone), the database thread frees the request.
 * Both flags under st->mu. */
typedef struct store_sync {
    uv_cond_t cond;
    int done, gone;
} store_sync_t;
struct req {
    smsg_t link;               /* its place in the db channel (chan.h); only
                                  next is used: never msg_free'd */
    req_t *next;               /* in the one queue that holds it */
    req_t *pprev, *pnext;      /* port->pending (its loop thread) */
    store_t *st;
    store_port_t *port;        /* answers go to this loop (NULL: silent) */
    uint8_t op, phase, cancelled, name_ok, pass_ok, found;
    uint8_t name_counted;      /* in st->hash_names (hash_fair.h) */
    hf_item_t fair;            /* in its port's hash queue (addr: scope) */
    int status;                /* enum store_status */
    union {
        store_account_cb account;
        store_scores_cb scores;
        store_recent_cb recent;
        store_done_cb done;
        store_taken_cb taken;
        store_progress_cb progress;
        store_record_cb record;
        store_keys_cb keys;
    } cb;
    void *ctx;
    uv_work_t work;
    uint64_t not_before;       /* throttled login: loop time to go on */
    /* OP_REGISTER, OP_LOGIN; name also OP_SCORES (the player), OP_TAKEN
     * (found: the answer). id is also the account of OP_PROG_* and the
     * game of OP_GET_RECORD. */
    int64_t id;
    char name[ACCT_NAME_MAX + 1];
    char scope[48];            /* OP_LOGIN, OP_REGISTER: the address it comes
                                  from, or "" */
    uint8_t known;             /* OP_LOGIN: scope has logged in as this
                                  name before (known_logins.h) */
    char pass[ACCT_PASS_MAX + 1];
    size_t pass_len;
    char hash[crypto_pwhash_STRBYTES];
    /* OP_GAME; game also OP_GET_RECORD's answer, and game.seed,
     * game.started OP_PROG_BEGIN's and OP_PROG_LOAD's */
    store_game_t game;
    void *record;              /* encoded bytes (malloc'd), or NULL; also
                                  OP_PROG_APPEND's keys, OP_PROG_LOAD's and
                                  OP_GET_RECORD's answer */
    size_t record_len;
    size_t qbytes;             /* counted in st->q_bytes (OP_GAME) or
                                  st->q_prog_bytes (OP_PROG_APPEND) while
                                  queued */
    game_t *played;            /* store_end_game: to finish and encode on */
    record_t rec;              /*   the database thread, then free */
    /* OP_SCORES, OP_RECENT (id: the games after it) */
    int limit;
    store_scores_t *scores;
    store_recent_t *recent;
    /* OP_PROG_BEGIN; OP_PROG_LOAD's answer */
    game_options_t gopt;
    uint32_t game_version;
    /* OP_PROG_SNAP; OP_PROG_LOAD's answer (snap.game NULL: none) */
    sdb_snapshot_t snap;
    /* OP_KEY_*: the key's fingerprint, its text (OP_KEY_ADD's; OP_KEY_FIND's
     * answer), the list answered (OP_KEYS_LIST, _ADD, _DEL), the waiter
     * (OP_KEY_FIND); id is the account, name OP_KEY_FIND's */
    char fp[STORE_KEY_FP_MAX + 1];
    char *key;
    store_keys_t *keys;
    store_sync_t *sync;
    /* OP_SETDISPLAY; OP_LOGIN's answer (found: the account's) */
    int display;
    /* OP_BAN_PUT: the ban; OP_BAN_DEL: ban.target */
    store_ban_t ban;
};

#define STORE_PORTS_MAX 64

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
    hash_fair_t hashq;         /* hashes waiting, in turn by address */
    int hash_waiting;          /* under st->lmu: hashes in hashq */
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
    uint64_t q_progress;       /* OP_PROG_* queued */
    uint64_t q_prog_bytes;     /*   their key bytes (qbytes) */
    int stopping;
    int healthy;               /* store_healthy: the last batch committed */
    store_stats_t stats;
    /* the database thread's */
    store_db_t *db;
    char dummy[crypto_pwhash_STRBYTES]; /* verified for unknown names */
    int db_quiet;              /* writes are failing, said once: no more
                                  lines per statement or account */
    int64_t last_prune;        /* Unix seconds of the retention rule's run */
    uint64_t bans_read_ms;     /* uv_hrtime in ms of the last read of bans */
    int bans_changed;          /* a ban or unban in this batch */
    int64_t *broken;           /* accounts whose appends are dropped until */
    size_t nbroken, capbroken; /*   their next begin (store_progress.c) */
    /* the loops' side: ports[0] is store_open's loop */
    store_port_t ports[STORE_PORTS_MAX];
    uv_mutex_t lmu;            /* what the ports share, below */
    int hashing;               /* in the pool now, on every loop */
    int hash_waiting;          /* in every port's hash queue */
    hf_names_t hash_names;     /* logins hashing or waiting, per name */
    uint64_t name_refusals;    /* logins refused for their name's count */
    int closing;
    uint64_t refused, dropped; /* games refused, records dropped: for the log */
    uint64_t prog_refused;     /* appends refused: for the log */
    unsigned long long guest_next, guest_end; /* numbers reserved: [next, end) */
    unsigned long long guest_spare; /* the next block's first (0: none yet) */
    int guest_asking;          /* an OP_GUEST is on its way */
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

/* store.c, for store_progress.c: a request that will answer, on the
 * pending list (NULL: too many owed, closing, OOM; logged); hands a request
 * to the database thread; answers one at once, through the loop. */
req_t *store_req_new(store_t *st, int op, void *ctx);
void store_db_submit(store_t *st, req_t *r);
void store_answer_soon(store_t *st, req_t *r, int status);

/* store_progress.c, for store.c: calls the callback of an answered
 * OP_PROG_LOAD or OP_GET_RECORD (not cancelled). */
void store_progress_answer(req_t *r);

/* store_progress.c, for the database thread: runs one OP_PROG_* or
 * OP_GET_RECORD inside the batch's transaction (ok: it is open). Returns 1
 * if a silent request was written (counted in progress_written). */
int store_progress_db(store_t *st, req_t *r, int ok);

/* store_progress.c, for the database thread, after a batch committed:
 * the begins and appends that, as the commit found, had nothing to follow
 * (sdb_unfollowed) lose their accounts' later appends as if they had
 * failed at once. Returns how many (counted dropped, not written). */
uint64_t store_progress_unfollowed(store_t *st);

/* store_progress.c, for the database thread: a batch failed; the accounts
 * of its appends and begins lose their later appends until a begin. */
void store_progress_failed(store_t *st, req_t *batch);

/* store_recent.c: calls the callback of an answered OP_RECENT (not
 * cancelled); and for the database thread, runs one (ok: the batch's
 * transaction is open). */
void store_recent_answer(req_t *r);
void store_recent_db(store_t *st, req_t *r, int ok);

/* store_keys.c: calls the callback of an answered OP_KEYS_LIST, OP_KEY_ADD
 * or OP_KEY_DEL (not cancelled). */
void store_keys_answer(req_t *r);

/* store_keys.c, for the database thread: runs one OP_KEY_* inside the
 * batch's transaction (ok: it is open). */
void store_keys_db(store_t *st, req_t *r, int ok);

/* store_keys.c, for the database thread, under st->mu: a waiting thread's
 * request is answered (wakes it), or freed if it stopped waiting. Returns
 * 1 if the caller must free r (outside the lock). */
int store_keys_wake(req_t *r);

/* store_bans.c, for the database thread: runs one OP_BAN_* inside the
 * batch's transaction (ok: it is open); reads the bans into st->bans
 * (after a batch that changed them, or every STORE_BAN_REFRESH_MS). */
void store_bans_db(store_t *st, req_t *r, int ok);
void store_bans_refresh(store_t *st);

/* The database thread (uv_thread_create's entry, arg: the store): opens
 * the file (posting st->ready either way), then runs batches until
 * its channel is closed and empty, then closes the file. */
void store_db_main(void *arg);

#endif
