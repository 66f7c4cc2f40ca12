/* store_accounts.c - accounts in the store (store.h): register, log in
 * (slowed down per name and address, verified in libuv's pool), change the
 * password or the display choice, ask whether a name is taken, and the
 * blocks of guest numbers reserved in the database. Each call's work on
 * the database thread and its answer on the loop; store_impl.h tells how a
 * request moves. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "store_impl.h"

/* --- the database thread ----------------------------------------------------- */

static int register_db(store_t *st, req_t *r, int ok)
{
    /* (the hash is wiped after the batch: a batch run again needs it) */
    r->status = ok ? sdb_insert_account(st->db, r->name, r->hash,
                                        (int64_t)time(NULL), &r->id)
                   : STORE_ERROR;
    r->phase = PH_DONE;
    return r->status == STORE_OK;
}

static int setpass_db(store_t *st, req_t *r, int ok)
{
    r->status = ok ? sdb_set_password_hash(st->db, r->id, r->hash)
                   : STORE_ERROR;
    r->phase = PH_DONE;
    return r->status == STORE_OK;
}

/* Finds the account and its hash; the pool verifies next (PH_HASH), found
 * or not (an unknown name against the dummy hash: as slow). */
static int login_db(store_t *st, req_t *r, int ok)
{
    char name[ACCT_NAME_MAX + 1];
    int found = !ok ? -1 : !r->name_ok ? 0
              : sdb_find_account(st->db, r->name, &r->id, name, r->hash,
                                 sizeof r->hash);
    if (found < 0) {
        r->status = STORE_ERROR;
        r->phase = PH_DONE;
        return 0;
    }
    r->found = (uint8_t)found;
    /* the display choice comes with the login (0 if it cannot be read:
     * the login itself is not worth failing for it) */
    if (found && sdb_account_display(st->db, r->id, &r->display) != 0)
        r->display = 0;
    if (found)
        memcpy(r->name, name, sizeof name);
    else
        memcpy(r->hash, st->dummy, sizeof r->hash);
    r->phase = PH_HASH;
    return 0;
}

static int setdisplay_db(store_t *st, req_t *r, int ok)
{
    r->status = ok ? sdb_set_account_display(st->db, r->id, r->display)
                   : STORE_ERROR;
    r->phase = PH_DONE;
    return r->status == STORE_OK;
}

static int taken_db(store_t *st, req_t *r, int ok)
{
    int found = ok ? sdb_account_exists(st->db, r->name) : -1;
    r->status = found < 0 ? STORE_ERROR : STORE_OK;
    r->found = (uint8_t)(found > 0);
    r->phase = PH_DONE;
    return 0;
}

static int guest_db(store_t *st, req_t *r, int ok)
{
    long long first = ok ? sdb_guest_reserve(st->db, STORE_GUEST_BLOCK) : -1;
    r->status = first > 0 ? STORE_OK : STORE_ERROR;
    r->id = first;
    r->phase = PH_DONE;
    return r->status == STORE_OK;
}

/* --- the loop thread ----------------------------------------------------------- */

static void account_answer(req_t *r)
{
    store_account_t a;
    memset(&a, 0, sizeof a);
    a.status = r->status;
    if (r->status == STORE_OK) {
        a.id = r->id;
        memcpy(a.name, r->name, sizeof a.name);
        a.display = r->display;
    }
    r->cb.account(r->ctx, &a);
}

/* A registration: the address it came from is now one the name has
 * logged in from (known_logins.h), so the owner who registered there is
 * not held to what strangers elsewhere do to the name. */
static void register_answer(req_t *r)
{
    if (r->status == STORE_OK && r->scope[0]) {
        uv_mutex_lock(&r->st->lmu);
        kl_add(&r->st->known, r->name, r->scope, uv_now(r->port->loop));
        uv_mutex_unlock(&r->st->lmu);
    }
    account_answer(r);
}

static void taken_answer(req_t *r)
{
    r->cb.taken(r->ctx, r->name, r->status,
                r->status == STORE_OK && r->found);
}

/* A block of guest numbers reserved in the database: used when the block
 * in hand runs out. */
static void guest_answer(req_t *r)
{
    store_t *st = r->st;
    uv_mutex_lock(&st->lmu);
    st->guest_asking = 0;
    if (r->status == STORE_OK && r->id > 0)
        st->guest_spare = (unsigned long long)r->id;
    /* else asked again at the next number handed out */
    uv_mutex_unlock(&st->lmu);
}


/* Under lmu: a login admitted by the slow-down (store_login_from) ended
 * with no verdict: it no longer counts in either table. */
static void login_uncounted(req_t *r, uint64_t now)
{
    store_t *st = r->st;
    throttle_abandoned_in(&st->thr, r->name, r->scope_key, now);
    if (!r->known) /* (a known address never entered the name's) */
        throttle_abandoned(&st->thr_name, r->name, now);
}

/* A login's password was checked (right or wrong): the slow-down's
 * counts follow it, and it is settled (store_finish leaves it; a login
 * that ends with no verdict is login_abandoned's). */
static void login_settled(req_t *r)
{
    store_t *st = r->st;
    r->admitted = 0;
    /* A success clears only its own address's count: the ceiling on the
     * name fades with time, not with the owner's login. */
    uint64_t now = uv_now(r->port->loop);
    uv_mutex_lock(&st->lmu);
    if (r->status == STORE_OK) {
        throttle_succeeded_in(&st->thr, r->name, r->scope_key);
        if (!r->known)
            throttle_abandoned(&st->thr_name, r->name, now);
        kl_add(&st->known, r->name, r->scope, now);
    } else if (r->status == STORE_BAD_LOGIN) {
        throttle_failed_in(&st->thr, r->name, r->scope_key, now);
        if (!r->known)
            throttle_failed(&st->thr_name, r->name, now);
    }
    uv_mutex_unlock(&st->lmu);
}

/* A login that ends unsettled (store_call_t.abandoned): given up before
 * its check, refused it (its name's line full), or failed. */
static void login_abandoned(req_t *r)
{
    store_t *st = r->st;
    uint64_t now = uv_now(r->port->loop);
    uv_mutex_lock(&st->lmu);
    login_uncounted(r, now);
    uv_mutex_unlock(&st->lmu);
}

/* A login's password was verified (or not): counted, then settled. */
static void login_verified(req_t *r)
{
    store_t *st = r->st;
    uv_mutex_lock(&st->mu);
    st->stats.login_hashes++;
    st->stats.login_hashes_dummy += !r->found;
    uv_mutex_unlock(&st->mu);
    login_settled(r);
}

static const store_call_t register_call = {
    .name = "register", .db = register_db, .answer = register_answer,
    .undo = store_undo_error_if_ok, .flags = STORE_CALL_NEW_HASH,
};
static const store_call_t login_call = {
    .name = "login", .db = login_db, .answer = account_answer,
    .verified = login_verified, .abandoned = login_abandoned,
    .flags = STORE_CALL_PER_NAME,
};
static const store_call_t setpass_call = {
    .name = "set password", .db = setpass_db, .answer = store_answer_done,
    .undo = store_undo_error_if_ok, .flags = STORE_CALL_NEW_HASH,
};
static const store_call_t setdisplay_call = {
    .name = "set display", .db = setdisplay_db, .answer = store_answer_done,
    .undo = store_undo_error_if_ok,
};
static const store_call_t taken_call = {
    .name = "name taken", .db = taken_db, .answer = taken_answer,
    .undo = store_undo_error,
};
static const store_call_t guest_call = {
    .name = "guest numbers", .db = guest_db, .answer = guest_answer,
    .undo = store_undo_error,
};

/* Copies a password into r (cut at ACCT_PASS_MAX: then it cannot match). */
static void take_password(req_t *r, const char *password)
{
    size_t n = strnlen(password, ACCT_PASS_MAX + 1);
    r->pass_ok = n <= ACCT_PASS_MAX;
    if (n > ACCT_PASS_MAX)
        n = ACCT_PASS_MAX;
    memcpy(r->pass, password, n);
    r->pass[n] = '\0';
    r->pass_len = n;
}

int store_register(store_t *st, const char *name, const char *password,
                   store_account_cb cb, void *ctx)
{
    return store_register_from(st, name, NULL, password, cb, ctx);
}

/* The address a login or registration comes from (NULL: none), whole
 * and as the per-address counts key it (addr_key: an IPv6 /64 as one). */
static void set_scope(req_t *r, const char *addr)
{
    snprintf(r->scope, sizeof r->scope, "%s", addr ? addr : "");
    addr_key(r->scope, r->scope_key, sizeof r->scope_key);
}

int store_register_from(store_t *st, const char *name, const char *addr,
                        const char *password, store_account_cb cb,
                        void *ctx)
{
    req_t *r = store_req_new(st, &register_call, ctx);
    if (!r)
        return -1;
    r->cb.account = cb;
    set_scope(r, addr);
    take_password(r, password);
    if (!acct_name_valid(name, NULL, 0) ||
        !acct_password_valid(password, NULL, 0)) {
        store_answer_soon(st, r, STORE_INVALID);
        return 0;
    }
    snprintf(r->name, sizeof r->name, "%s", name);
    store_hash_enqueue(st, r);
    return 0;
}

int store_login(store_t *st, const char *name, const char *password,
                store_account_cb cb, void *ctx)
{
    return store_login_from(st, name, NULL, password, cb, ctx);
}

int store_login_from(store_t *st, const char *name, const char *addr,
                     const char *password, store_account_cb cb, void *ctx)
{
    req_t *r = store_req_new(st, &login_call, ctx);
    if (!r)
        return -1;
    r->cb.account = cb;
    take_password(r, password);
    r->name_ok = (uint8_t)acct_name_valid(name, NULL, 0);
    snprintf(r->name, sizeof r->name, "%.*s", ACCT_NAME_MAX, name);
    set_scope(r, addr);
    uint64_t now = uv_now(r->port->loop);
    /* Slowed per (name, address, an IPv6 address by its /64: changing
     * addresses within one would otherwise give each guess the free
     * failures again): someone guessing from elsewhere does not slow the
     * owner down; and per name from anywhere, from a far higher count on
     * (many addresses at once). */
    uv_mutex_lock(&st->lmu);
    int64_t wait = throttle_admit_in(&st->thr, name, r->scope_key, now);
    /* An address the name has logged in from skips the ceiling from
     * anywhere: strangers elsewhere cannot lock the owner out. */
    r->known = (uint8_t)kl_has(&st->known, name, r->scope, now);
    if (wait >= 0 && !r->known) {
        int64_t wait_name = throttle_admit(&st->thr_name, name, now);
        if (wait_name < 0) /* refused: the first admission never ran */
            throttle_abandoned_in(&st->thr, name, r->scope_key, now);
        if (wait_name < 0 || wait_name > wait)
            wait = wait_name;
    }
    if (wait > 0) {
        st->login_waits++;
        st->login_wait_ms += (uint64_t)wait;
    }
    uv_mutex_unlock(&st->lmu);
    /* counted from here until its verdict (login_settled), or until it
     * ends without one (finish: login_abandoned) */
    r->admitted = (uint8_t)(wait >= 0);
    if (wait < 0) {
        store_answer_soon(st, r, STORE_SLOW_DOWN);
    } else if (wait == 0) {
        store_db_submit(st, r);
    } else {
        r->not_before = now + (uint64_t)wait;
        store_wait_insert(r);
    }
    return 0;
}

int store_set_password(store_t *st, int64_t account_id, const char *password,
                       store_done_cb cb, void *ctx)
{
    req_t *r = store_req_new(st, &setpass_call, ctx);
    if (!r)
        return -1;
    r->cb.done = cb;
    take_password(r, password);
    r->id = account_id;
    if (account_id <= 0 || !acct_password_valid(password, NULL, 0)) {
        store_answer_soon(st, r, STORE_INVALID);
        return 0;
    }
    store_hash_enqueue(st, r);
    return 0;
}

int store_set_display(store_t *st, int64_t account_id, int display,
                      store_done_cb cb, void *ctx)
{
    req_t *r = store_req_new(st, &setdisplay_call, ctx);
    if (!r)
        return -1;
    r->cb.done = cb;
    r->id = account_id;
    r->display = display;
    if (account_id <= 0 || display < 0 || display > 15)
        store_answer_soon(st, r, STORE_INVALID);
    else
        store_db_submit(st, r);
    return 0;
}

int store_name_taken(store_t *st, const char *name, store_taken_cb cb,
                     void *ctx)
{
    req_t *r = store_req_new(st, &taken_call, ctx);
    if (!r)
        return -1;
    r->cb.taken = cb;
    /* the answer says what it was asked (a malformed name too, cut) */
    snprintf(r->name, sizeof r->name, "%s", name);
    if (!acct_name_valid(name, NULL, 0)) {
        store_answer_soon(st, r, STORE_INVALID);
        return 0;
    }
    store_db_submit(st, r);
    return 0;
}

void store_guest_give_back(store_t *st)
{
    uv_mutex_lock(&st->lmu);
    unsigned long long next = st->guest_next, end = st->guest_end,
                       spare = st->guest_spare;
    uv_mutex_unlock(&st->lmu);
    /* The database's next is past the spare block, if one was reserved.
     * The first never handed out: the current block's rest too, unless
     * another host reserved between it and the spare block. (Numbers
     * handed out past the reserve, logged as such, move it on.) */
    unsigned long long top = spare ? spare + STORE_GUEST_BLOCK : end;
    unsigned long long from = spare && spare != end ? spare : next;
    if (from == top || sdb_begin(st->db) != 0)
        return;
    if (sdb_guest_give_back(st->db, (long long)from, (long long)top) < 0 ||
        sdb_commit(st->db) != 0) {
        if (sdb_in_transaction(st->db))
            sdb_rollback(st->db);
    }
}

unsigned long long store_guest_number(store_t *st)
{
    uv_mutex_lock(&st->lmu);
    if (st->guest_next >= st->guest_end && st->guest_spare) {
        st->guest_next = st->guest_spare;
        st->guest_end = st->guest_spare + STORE_GUEST_BLOCK;
        st->guest_spare = 0;
        st->guest_warned = 0;
    }
    unsigned long long n = st->guest_next++;
    /* half the block used: reserve the next, long before this one ends */
    int ask = !st->guest_spare && !st->guest_asking && !st->closing &&
              st->guest_next + STORE_GUEST_BLOCK / 2 > st->guest_end;
    if (ask)
        st->guest_asking = 1;
    int warn = n >= st->guest_end && !st->guest_warned;
    if (warn)
        st->guest_warned = 1;
    uv_mutex_unlock(&st->lmu);
    if (ask) {
        req_t *r = store_req_new(st, &guest_call, st);
        if (r) {
            store_db_submit(st, r);
        } else {
            uv_mutex_lock(&st->lmu);
            st->guest_asking = 0;
            uv_mutex_unlock(&st->lmu);
        }
    }
    if (warn) {
        log_error("store: %s: guest numbers past those reserved in the "
                  "database (writes failing?): after a crash they may be "
                  "given again", st->path);
    }
    return n;
}