/* store.h - the server's storage: accounts, finished games with their
 * records, and the hall of fame, in one SQLite file, never on the loop.
 *
 * Threads. One database thread owns the SQLite connection: it opens and
 * migrates the file, then takes requests from a queue, as many as are
 * waiting (up to a batch), and runs each batch in one transaction, so that a
 * thousand games ending at once cost one commit. Password hashing (Argon2id,
 * tens of ms and tens of MiB each) runs in libuv's thread pool, at most
 * opts.hash_parallel at a time; the rest wait in one line for every loop,
 * in turn by address (store_hash.c, hash_fair.h).
 * A finished game handed over with store_end_game is hashed and encoded on
 * the database thread too. Nothing here blocks the loop thread but
 * store_open and store_close. (store_impl.h has the inside.)
 *
 * Results. Every request that answers does so by calling its callback on
 * the loop thread (woken through a uv_async_t), never from inside the call
 * that made it; an answer from the database comes only after everything
 * queued before it is committed. A request either returns -1 (refused at
 * once, no callback ever) or returns 0 and gets exactly one callback,
 * unless it is cancelled or the store closed first.
 *
 * Cancelling. A caller that is going away (a session closing while its
 * login is hashing) calls store_cancel(store, ctx): no callback with that
 * ctx is called afterwards. Work already started finishes and is thrown
 * away; work not yet started (a password still in line) is skipped. A
 * login given up before its password was checked (in the line, slowed
 * down, still at the database) is no failure: the slow-down stops
 * counting it, so a player who tries again after "busy" is not slowed.
 *
 * Passwords are copied into the request, wiped once hashed or verified, and
 * never logged; neither are hashes.
 *
 * Keeping the loop alive. The store's handles keep the loop running only
 * while a callback is owed (games being written do not: store_close waits
 * for them).
 *
 * Games in progress (store_progress_*: at most one per account) are kept
 * so that a dropped connection, a restart or a crash loses none of them:
 * begin, then append the recorder's new key bytes every second or so, then
 * end when the game is over. Appends cost a row of a few bytes each, never
 * the whole record; each batch is one transaction, committed with a full
 * fsync (WAL, synchronous=FULL) before the next is taken, so a SIGKILL
 * loses only what the store had not yet been handed, plus at most the
 * batch being written. The rows of an account are always a prefix of what
 * was appended: an append that cannot follow the rest (its account has no
 * game in progress, or an earlier append of it was lost with a failed
 * transaction) is dropped, logged, and so is every later one until the
 * next begin.
 *
 * Claims. Each load (a login taking the account's game) takes a claim from
 * the database, a number above every one before, and marks the account
 * and its game with it; the session passes its claim with every write
 * after. A write of an older claim (a host cut off from the database,
 * playing on while another took the game over) is refused, whatever it
 * is, the game sent again whole included: the later login's game stays as
 * it wrote it. A refusal is not a failure (store_healthy is not touched):
 * store_progress_claimed tells the session, which lets its player go.
 * Claim 0 is none: never refused, and refuses nothing (tools, tests, and a
 * session whose load failed). */
#ifndef ROGUE_STORE_H
#define ROGUE_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "store_types.h"

/* Password checks at once when opts.hash_parallel is 0. */
#define STORE_HASH_PARALLEL_DEFAULT 2

typedef struct store_opts {
    unsigned long long pw_ops; /* Argon2id passes; 0: OPSLIMIT_INTERACTIVE (2) */
    size_t pw_mem;         /* bytes per hash; 0: MEMLIMIT_INTERACTIVE (64 MiB) */
    int hash_parallel;     /* hashes at once; 0: STORE_HASH_PARALLEL_DEFAULT
                              (128 MiB at the default) */
    int hashes_per_name;   /* logins of one name hashed or waiting at once,
                              from addresses it has not logged in from;
                              more are answered STORE_SLOW_DOWN
                              (hash_fair.h); 0: no bound */
    int max_pending;       /* requests owed a callback; 0: 4096 */
    int max_queued_games;  /* games waiting for the disk; 0: 100000 */
    int max_queued_progress; /* progress begins, appends, ends waiting for
                                the disk; 0: 100000 (appends past it, or
                                past max_queued_bytes of keys, are refused;
                                begins and ends never are) */
    size_t max_queued_bytes; /* their records; 0: 256 MiB (past it a game is
                                stored without its record) */
    int batch_max;         /* requests per transaction; 0: 1000 */
    /* Bounded disk (docs/hosting.md); unlike the fields above, 0 turns
     * each off (the server passes its config keys guest_min_turns and
     * guest_keep_days, by default 50 turns and 30 days: config.c). A
     * guest's game (account_id 0) of fewer turns than guest_min_turns is
     * not stored at all. */
    int guest_min_turns;
    /* The retention rule: a guest's game is deleted guest_keep_s seconds
     * after it ended, unless it is among the STORE_TOP_MAX best of the
     * hall of fame (which then never lose it: ranks only fall). Run at
     * store_open and at most every STORE_PRUNE_EVERY_S after. Accounts'
     * games are always kept. */
    int64_t guest_keep_s;
    int busy_ms;           /* wait for another process's lock; 0: 10000 */
    int probe_ms;          /* while writes fail, a write of the store's own
                              every so often (store_healthy); 0:
                              STORE_PROBE_EVERY_MS (tests set it long, so
                              that only a batch that writes recovers) */
    int held_pause_ms;     /* a held game whose try alone failed waits this
                              long before its next (store_held.c); 0:
                              STORE_HELD_PAUSE_MS (tests set it long, so
                              that the pause outlasts what they see) */
    /* Where the store is (the config key `store`): NULL or "" the SQLite
     * file data_dir/STORE_FILE; a libpq URL beginning postgresql:// (or
     * postgres://) a PostgreSQL database (store_pg.c, docs/hosting.md).
     * Copied at store_open. */
    const char *url;
} store_opts_t;


typedef struct store store_t;

typedef void (*store_account_cb)(void *ctx, const store_account_t *result);
typedef void (*store_scores_cb)(void *ctx, const store_scores_t *result);
typedef void (*store_recent_cb)(void *ctx, const store_recent_t *result);
typedef void (*store_done_cb)(void *ctx, int status);
typedef void (*store_taken_cb)(void *ctx, const char *name, int status,
                               int taken);
typedef void (*store_progress_cb)(void *ctx, const store_progress_t *result);
typedef void (*store_record_cb)(void *ctx, const store_record_t *result);

/* Opens (creating if missing) data_dir/STORE_FILE, or the PostgreSQL
 * database of opts->url (the same refusals where they apply: another
 * application's tables, a newer schema, no connection, no right to write;
 * each naming the database without its password), and migrates it to
 * STORE_SCHEMA_VERSION, in WAL mode, on the store's own thread; returns
 * when that is done. opts may be NULL (the defaults). Refuses, with a
 * sentence naming the file in err: a file that is not a SQLite database, a
 * database of another application (another PRAGMA application_id, or none
 * but tables already in it), one from a newer rogued, or one that cannot be
 * opened or written (a read-only file or data directory: the first write
 * is made here), and one that fails PRAGMA quick_check (a damaged page).
 * Each sentence says what to do. The retention rule then runs once on
 * the database thread, before the first request is served.
 * Returns the store, or NULL. The data directory must exist. */
store_t *store_open(uv_loop_t *loop, const char *data_dir,
                    const store_opts_t *opts, char *err, size_t errlen);

/* Worker loops. Every call below is made on the thread of a loop the store
 * answers on: store_open's loop, or a loop attached here. store_attach,
 * on the thread that will run `loop` (before it runs), gives that loop
 * its own side of the store: its requests' callbacks run on it, its
 * throttled logins wait on it and its hashes run from it. What the loops
 * share (the slow-down, guest numbers, the line of hashes waiting and
 * those in flight: hash_parallel in all) stays one. store_detach, on the
 * same thread once its sessions are gone and before the loop is closed,
 * drops what still waits there (its hashes in the line too), runs the
 * loop until every answer owed to it has come (each dropped), and closes
 * its handles. Every attached loop detaches before store_close. Returns
 * 0, or -1 (too many loops: logged). */
int store_attach(store_t *st, uv_loop_t *loop);
void store_detach(store_t *st);

/* Writes everything queued (every game passed to store_add_game is
 * committed, or logged as lost, before it returns: those held while
 * writes fail get their last tries), stops the thread,
 * closes its handles and frees the store. No callback is called any more:
 * owed ones are dropped. Blocks. Call it when the loop is not running
 * (after uv_run has returned, before uv_loop_close): it runs the loop
 * itself until its own handles and pool work are done, so every other
 * handle must be closed by then. NULL is fine. */
void store_close(store_t *st);

/* Queues a finished game and its encoded record (record.h; may be NULL) to
 * be written; copies both. The name must pass acct_name_valid and the cause
 * acct_text_is_safe: they are shown to other players. Past
 * opts.max_queued_bytes the game is stored without its record. A game
 * whose batch fails is held and written once writes work (store_held.c),
 * once: by its token (g->token, or one the store gives it). Returns 0,
 * or -1 (refused, logged: bad text, queue full, out of memory). */
int store_add_game(store_t *st, const store_game_t *g, const void *record,
                   size_t len);
/* (Both store_add_game and store_end_game return 0 and store nothing for a
 * guest's game shorter than opts.guest_min_turns: counted in
 * guests_skipped.) */

/* The same for a game the host is done with, without the loop paying for
 * its record: takes the game (from game_new) and the recorder's buffers
 * (*rec is left empty: record_free or record_init it as usual), and on the
 * database thread finishes the record (the final state hash), encodes it,
 * writes it and frees both. Ownership passes whatever the result. Returns
 * 0, or -1 (refused as store_add_game; game and record freed). */
int store_end_game(store_t *st, const store_game_t *g, game_t *game,
                   record_t *rec);

/* Creates an account: checks the rules (STORE_INVALID), hashes the
 * password off the loop, inserts (STORE_NAME_TAKEN if the name exists in
 * any case). The callback gets STORE_OK with the id, or the reason. A
 * cancelled registration whose hash is done may still create the account.
 * Returns 0 (the callback will come), or -1 (too many requests, OOM). */
/* store_register_from: from address addr (NULL: none), which a success
 * makes an address the name has logged in from (known_logins.h), as a
 * login's success does: the owner who registered there is not held to
 * what strangers elsewhere do to the name. */
int store_register_from(store_t *st, const char *name, const char *addr,
                        const char *password, store_account_cb cb,
                        void *ctx);
int store_register(store_t *st, const char *name, const char *password,
                   store_account_cb cb, void *ctx);

/* Checks a name and password: STORE_OK with the account, or STORE_BAD_LOGIN
 * for a wrong password and for an unknown or malformed name alike (an
 * unknown name is verified against a dummy hash of the same cost, so the
 * answer takes as long), or STORE_SLOW_DOWN (throttle.h: repeated failures
 * on this name; the answer is delayed before that, never after the check,
 * so its timing tells nothing). Returns 0 (the callback will come), or -1. */
int store_login(store_t *st, const char *name, const char *password,
                store_account_cb cb, void *ctx);

/* Sets a new password for an account (the caller has checked the present
 * one with store_login_from): hashed off the loop, then stored. cb gets
 * STORE_OK, STORE_INVALID (accounts.h refuses it), STORE_NOT_FOUND or
 * STORE_ERROR. Returns 0 (the callback will come), or -1. */
int store_set_password(store_t *st, int64_t account_id, const char *password,
                       store_done_cb cb, void *ctx);

/* Keeps an account's display choice (accounts.display: server/session/options.h
 * says what the number means; store_login answers with it). cb gets
 * STORE_OK, STORE_NOT_FOUND, STORE_INVALID (account_id <= 0, or not a
 * choice: 0..15) or STORE_ERROR. Returns 0 (the callback will come), or
 * -1. */
int store_set_display(store_t *st, int64_t account_id, int display,
                      store_done_cb cb, void *ctx);

/* store_login from a network address: the slow-down counts failures per
 * (name, address), so guesses from one address never slow the owner
 * logging in from another, and per name from anywhere only past
 * THROTTLE_NAME_FREE failures (throttle.h). addr may be NULL (the name
 * alone, as store_login). */
int store_login_from(store_t *st, const char *name, const char *addr,
                     const char *password, store_account_cb cb, void *ctx);

/* The hall of fame: the best n games (n is capped at STORE_TOP_MAX) and,
 * if player is not NULL, that account's best game and its rank. Returns 0
 * (the callback will come), or -1. */
int store_scores(store_t *st, int n, const char *player, store_scores_cb cb,
                 void *ctx);

/* The finished games, newest first (store_recent.c): up to n of them (n
 * is capped at STORE_RECENT_MAX) with an id above `after` (0: from the
 * newest; a reader that keeps the highest id it saw asks only for what
 * is new). Every ending, ranked or not. Returns 0 (the callback will
 * come), or -1. */
int store_recent(store_t *st, int64_t after, int n, store_recent_cb cb,
                 void *ctx);

/* Whether an account has this name (any case): for the lobby, where a
 * guest may not play under an account's name, and a name being
 * registered is told taken before its password is typed. cb gets the
 * name asked (cut at ACCT_NAME_MAX bytes), so that an answer to a name
 * since given up is told from the answer to the one typed now, and
 * STORE_OK with taken = 0 or 1, or STORE_ERROR. A malformed name
 * (acct_name_valid fails) answers STORE_INVALID without asking the
 * database. Returns 0
 * (the callback will come, on the loop thread, never inside this call),
 * or -1 (refused at once: too many requests owed, OOM). */
int store_name_taken(store_t *st, const char *name, store_taken_cb cb,
                     void *ctx);

/* Calls cb once everything queued before it is committed (status STORE_OK)
 * or failed (STORE_ERROR). A finished game whose batch failed is held
 * (store_add_game) and written later: a flush answers STORE_OK once its
 * own batch commits, games still held or not (so does the one a binary
 * upgrade waits for: games still held stay this process's, written by
 * its store_close, or logged lost there). Returns 0 (the callback will
 * come), or -1. */
int store_flush(store_t *st, store_done_cb cb, void *ctx);

/* --- games in progress (see the top of this file) ----------------------- */

/* Starts the account's game in progress, replacing (deleting) any it had:
 * the game of `seed` and *opt (NULL: defaults) by this core
 * (GAME_VERSION), started at `started` (Unix seconds), with no key yet.
 * Queued in order with every other request: an append made after it goes
 * to this game. account_id must be an account's (> 0; guests have no
 * progress). Never refused for the queue's length. Returns 0, or -1
 * (account_id <= 0, out of memory: nothing queued; append nothing for the
 * account until a begin succeeds, or it would go to the older game). No
 * callback. */
int store_progress_begin(store_t *st, int64_t account_id, int64_t claim,
                         uint64_t seed, const game_options_t *opt,
                         int64_t started);

/* Appends len encoded key bytes (the recorder's record_t.keys bytes the
 * store has not been handed yet: whole varints, in order) to the account's
 * game in progress; copies them. Fire and forget: no callback; durable
 * once the batch it falls in commits (at once if the database thread is
 * idle). len 0 does nothing. Returns 0 (the bytes are the store's), or -1
 * (refused: more than max_queued_progress waiting, or out of memory;
 * nothing queued: hand the same bytes over again with the next ones). */
int store_progress_append(store_t *st, int64_t account_id, int64_t claim,
                          const void *keys, size_t len);

/* Keeps a snapshot of the account's game in progress, so that the next
 * load rebuilds it from there: *g (copied) is the game after its first
 * nkeys keys, which are the first pos bytes of the keys appended; checks
 * (copied, checks_len bytes) are the recorder's checks so far (record.h:
 * nkeys / RECORD_CHECK_EVERY + 1 of them, 4 bytes each), so that the
 * recorder rebuilt from it goes on as the one that made them. Replaces the
 * one before; a begin or an end drops it. Queued in order like an append
 * (hand those pos bytes over first) and like one fire and forget, dropped
 * for an account whose appends are (see the top of this file). Returns 0,
 * or -1 (refused: account_id <= 0, checks_len not that count, the queue
 * bound as for appends, out of memory; nothing queued: the older snapshot,
 * if any, still serves). */
int store_progress_snapshot(store_t *st, int64_t account_id, int64_t claim,
                            const game_t *g, uint32_t nkeys, size_t pos,
                            const void *checks, size_t checks_len);

/* The account's game is over (stored with store_end_game, or abandoned):
 * drops its game in progress, after everything queued before. Never
 * refused for the queue's length. An end that fails with its batch is
 * carried by the account's finished game held from it (store_add_game),
 * run with that game's write (dropping the game this end is of alone:
 * `seed` and `started`, the ended game's, whichever held game carries
 * it), and by a login's load before it reads (store_progress_load
 * finds no game), so a game recorded is not continued through this
 * store. Through another (a cluster's other host, an upgrade's new
 * process while writes fail) it may be, and then be recorded twice.
 * Returns 0, or -1 (account_id <= 0, out of memory). No
 * callback. */
int store_progress_end(store_t *st, int64_t account_id, int64_t claim,
                       uint64_t seed, int64_t started);

/* (Each write above is made as `claim`, the one the session's load took:
 * store_progress_t.claim; see "Claims" at the top of this file.) */

/* 1 if a write of the account's game as `claim` (or an earlier claim of
 * it) was refused because a later login's claim holds the game: the
 * session holding `claim` is to stop writing it and let its player go.
 * Said once (the refusal is forgotten then); kept until then for the
 * latest STORE_CLAIMED_MAX accounts refused. 0 for claim 0. Loop thread
 * (any); cheap, no I/O. */
int store_progress_claimed(store_t *st, int64_t account_id, int64_t claim);

/* Takes a new claim on the account's game (store_progress_t.claim: every
 * answer but STORE_ERROR has one) and answers with its game in progress
 * (store_progress_t), once
 * everything queued before is committed: STORE_OK with the seed, options,
 * start, every key appended (record_resume rebuilds the game and a
 * recorder that goes on from there) and the latest snapshot if there is
 * one (a rebuild from it replays only the keys after it), STORE_NOT_FOUND,
 * STORE_STALE or
 * STORE_ERROR. Returns 0 (the callback will come, on the loop, never
 * inside this call), or -1 (too many requests owed, OOM). */
int store_progress_load(store_t *st, int64_t account_id, store_progress_cb cb,
                        void *ctx);

/* --- finished games' records ---------------------------------------------- */

/* Answers with a finished game (store_record_t: its row and its encoded
 * record), for replays: STORE_OK, STORE_NOT_FOUND, STORE_NO_RECORD or
 * STORE_ERROR. game_id is store_score_t.game_id. Returns 0 (the callback
 * will come, on the loop, never inside this call), or -1. */
int store_get_record(store_t *st, int64_t game_id, store_record_cb cb,
                     void *ctx);

/* No callback with this ctx will be called after this returns. Call it
 * before freeing whatever ctx points to. */
void store_cancel(store_t *st, void *ctx);

/* Where a request waits (store_wait_of), in the order store_wait_of
 * prefers them. */
enum store_wait {
    STORE_WAIT_NONE = 0,   /* nothing owed an answer */
    STORE_WAIT_DB,         /* the database: queued for its thread, in a
                              batch, or its answer on the way back */
    STORE_WAIT_SLOWED,     /* a login slowed down after failed ones,
                              waiting for its time (throttle.h) */
    STORE_WAIT_HASH_LINE,  /* a password check waiting for one of the
                              hash_parallel slots, behind other addresses'
                              checks (hash_fair.h) */
    STORE_WAIT_HASHING     /* a password being hashed or checked now */
};

/* Where the requests of ctx made on the calling loop wait now (enum
 * store_wait): of several, the last of the list above. So that a caller
 * that gives up waiting can say why truly: a login waiting for a hash slot
 * under a flood of password checks is not the database failing, and the
 * host should not be sent to look at it. Loop thread; walks that loop's
 * requests owed an answer. */
int store_wait_of(store_t *st, void *ctx);

/* How many password checks run at once (opts.hash_parallel as the store
 * took it: its default, 2, on a server), for messages. Any thread. */
int store_hash_parallel(const store_t *st);

/* Whether the store is keeping games: 1 while writes work, 0 from a
 * failed transaction (a full disk, an I/O error, a lock held by another
 * process) until one that wrote commits again (one of reads only may
 * commit while writes still fail: it changes nothing here). While they
 * fail, the store tries a write of its own at most every
 * STORE_PROBE_EVERY_MS, so that this comes back even when nothing else
 * writes. The first failure is logged once, with the reason, and so is
 * the recovery; the failures in between are not (nor each key). Play goes
 * on either way; the session asks this to tell an account's player (whose
 * game in progress is not being kept) on screen, and sends its game again
 * whole once it is 1. Loop thread; cheap. */
int store_healthy(store_t *st);

/* How many times held games (store_add_game: a game whose batch failed)
 * were written since open: a reading of the database asked before one
 * may miss what it wrote, although the game was queued before the
 * reading (site_cache.h). Any thread; cheap. */
uint64_t store_held_written(store_t *st);

/* How many batches have failed since the store opened (not the store's
 * own writes while they fail). A failure can end before a session asks
 * store_healthy (the next batch may write and commit within the same
 * millisecond): a session that compares this count between two looks
 * learns of it all the same, and sends its game again whole
 * (docs/hosting.md). Loop thread; cheap. */
uint64_t store_failed_batches(store_t *st);

/* Whether the database thread's work on the database now (a batch, the
 * bans read again, the probe while writes fail, the prune) began ms or
 * more ago: a database that hangs neither answers nor fails (until its
 * deadline, pg_deadline.h), and keys handed to the store meanwhile are
 * not kept, whatever store_healthy says. So that a goodbye does not say
 * a game is saved then (docs/hosting.md). Loop thread; cheap. */
int store_db_stalled(store_t *st, uint64_t ms);

/* How many times a batch has been run again since the store opened,
 * because the database ended it to break a deadlock (PostgreSQL's 40P01
 * or 40001; docs/hosting.md): not failures, unless the last run failed
 * too. Any thread; cheap. */
uint64_t store_rerun_batches(store_t *st);

/* Whether the database's file is no longer at its path (renamed, deleted
 * or replaced while the server runs: SQLite writes on to the file it has
 * open, which the next start does not read, so all written from then on
 * is lost at the next start): 1 from the database thread's look that
 * found so (at most STORE_MOVED_EVERY_MS after) until one finds it in
 * place again; always 0 on PostgreSQL. Logged when it changes; play goes
 * on (docs/hosting.md). For /metrics. Any thread; cheap. */
int store_file_moved(store_t *st);

/* Games and progress requests waiting for the database thread (/metrics). */
uint64_t store_queued(store_t *st);

/* A guest number never handed out before, by this server or an earlier
 * one on the same database: numbers are reserved in the database
 * STORE_GUEST_BLOCK at a time (at store_open, then again when half a block
 * is used), so a restart, even after a crash, starts past every number
 * given. store_close gives back those reserved and never given (while
 * nobody has reserved since), so a clean restart goes on from the last
 * one; after a crash the next start begins past the whole reserve. The session names a guest "guest%llu" with it. Loop thread;
 * never blocks. */
unsigned long long store_guest_number(store_t *st);

/* Counters, for logs, tests and benchmarks. */
void store_stats(store_t *st, store_stats_t *out);

/* --- SSH public keys (the account_keys table) ------------------------------ */

typedef void (*store_keys_cb)(void *ctx, const store_keys_t *result);

/* The account's keys. Returns 0 (the callback will come, on the loop,
 * never inside this call), or -1. */
int store_keys_list(store_t *st, int64_t account_id, store_keys_cb cb,
                    void *ctx);

/* Registers a key for the account: fingerprint as ssh-keygen -l prints it
 * ("SHA256:..."), key OpenSSH's "type base64" (both checked by the caller:
 * sshkey.h; only their lengths and characters are checked here, else
 * STORE_INVALID). An account holds at most STORE_KEYS_MAX (STORE_FULL);
 * the same key twice is STORE_DUPLICATE. Answers with the list after.
 * Returns 0 (the callback will come), or -1. */
int store_key_add(store_t *st, int64_t account_id, const char *fingerprint,
                  const char *key, store_keys_cb cb, void *ctx);

/* Removes one of the account's keys (STORE_NOT_FOUND if it has no such
 * key). Answers with the list after. Returns 0 (the callback will come),
 * or -1. */
int store_key_remove(store_t *st, int64_t account_id, const char *fingerprint,
                     store_keys_cb cb, void *ctx);

/* For the SSH bridge's threads, which run no loop: which account of this
 * name (any case) registered the key of this fingerprint. Blocks the
 * calling thread (any thread but the store's own) until the database
 * thread has answered, queued in order with everything else, or for at
 * most timeout_ms. Fills out: STORE_OK with the account's id and name as
 * registered, and the key's text into key (keylen bytes; may be NULL);
 * STORE_NOT_FOUND (no such account, or not its key; a malformed name or
 * fingerprint too); STORE_ERROR (the database failed, the time ran out,
 * the store is closing, out of memory). Returns out->status. The caller
 * keeps the store open while this runs (store_close waits for callers
 * already waiting). */
int store_key_account(store_t *st, const char *name, const char *fingerprint,
                      int timeout_ms, store_account_t *out, char *key,
                      size_t keylen);

/* --- bans (the bans table; ban_list.h) -------------------------------------- */

/* Keeps b (its target canonical: ban_parse_target), replacing a ban of the
 * same target; unban removes the ban of target (STORE_NOT_FOUND if none).
 * The callback comes on the loop once the database has it and this host's
 * list is read again. Return 0 (the callback will come), or -1. */
int store_ban(store_t *st, const store_ban_t *b, store_done_cb cb, void *ctx);
int store_unban(store_t *st, const char *target, store_done_cb cb,
                void *ctx);

/* From any thread, never waiting on the database (the host's list, read
 * from it every STORE_BAN_REFRESH_MS): 1 if a ban in force at now_ms (Unix
 * ms) covers address ip, or names account `name` (any case), with its end
 * in *until_ms (0: for good); else 0. */
int store_banned_addr(store_t *st, const char *ip, int64_t now_ms,
                      int64_t *until_ms);
int store_banned_name(store_t *st, const char *name, int64_t now_ms,
                      int64_t *until_ms);

/* The bans in force at now_ms, oldest first, as the host's list has them:
 * a malloc'd copy in *out (NULL when none). Returns how many. */
size_t store_bans(store_t *st, int64_t now_ms, store_ban_t **out);

#endif
