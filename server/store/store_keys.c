/* store_keys.c - the store's SSH public keys (store.h, "SSH public keys"):
 * the lobby's list, add and remove, answered on its loop like any request,
 * and the lookup the SSH bridge's threads make while a client
 * authenticates, which waits on the calling thread instead (those threads
 * run no loop). store_impl.h tells how a request moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "store_impl.h"

/* A fingerprint or key as the table keeps them: printable ASCII, no
 * control character, within its length. (The lobby checks a key properly,
 * with libssh: sshkey.h; this only keeps the table's text clean.) */
static int text_ok(const char *s, size_t max)
{
    size_t n = strnlen(s, max + 1);
    if (n == 0 || n > max)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
            return 0;
    return 1;
}

/* --- the database thread ------------------------------------------------------ */

/* The account's list after a change (or none), whatever the change did. */
static void keys_listed(store_t *st, req_t *r)
{
    if (r->status != STORE_ERROR && sdb_keys_list(st->db, r->id, r->keys) != 0)
        r->status = STORE_ERROR;
}

/* After an add or a remove (status: what it did): the list, and 1 if it
 * wrote (store_call_t.db). */
static int keys_changed(store_t *st, req_t *r)
{
    int wrote = r->status == STORE_OK;
    keys_listed(st, r);
    return wrote;
}

static int keys_list_db(store_t *st, req_t *r, int ok)
{
    r->phase = PH_DONE;
    r->status = ok ? STORE_OK : STORE_ERROR;
    if (ok)
        keys_listed(st, r);
    return 0; /* a read */
}

static int key_add_db(store_t *st, req_t *r, int ok)
{
    r->phase = PH_DONE;
    r->status = ok ? sdb_key_add(st->db, r->id, r->fp, r->key,
                                 (int64_t)time(NULL), STORE_KEYS_MAX)
                   : STORE_ERROR;
    return ok ? keys_changed(st, r) : 0;
}

static int key_del_db(store_t *st, req_t *r, int ok)
{
    r->phase = PH_DONE;
    r->status = ok ? sdb_key_remove(st->db, r->id, r->fp) : STORE_ERROR;
    return ok ? keys_changed(st, r) : 0;
}

static int key_find_db(store_t *st, req_t *r, int ok)
{
    r->phase = PH_DONE;
    if (!ok) {
        r->status = STORE_ERROR;
        return 0;
    }
    char name[ACCT_NAME_MAX + 1] = "";
    char key[STORE_KEY_TEXT_MAX + 1] = "";
    free(r->key); /* a run of its batch before this one's */
    r->key = NULL;
    int found = sdb_key_find(st->db, r->name, r->fp, &r->id, name, key,
                             sizeof key);
    r->status = found < 0 ? STORE_ERROR : found ? STORE_OK : STORE_NOT_FOUND;
    if (found > 0) {
        memcpy(r->name, name, sizeof name);
        r->key = strdup(key);
        /* what a password login answers too: the kept display choice */
        if (!r->key || sdb_account_display(st->db, r->id, &r->display) != 0)
            r->status = STORE_ERROR;
    }
    return 0;
}

/* --- the loop thread ----------------------------------------------------------- */

static void keys_answer(req_t *r)
{
    r->keys->status = r->status;
    if (r->status == STORE_ERROR)
        r->keys->n = 0;
    r->cb.keys(r->ctx, r->keys);
}

static const store_call_t keys_list_call = {
    .name = "keys list", .db = keys_list_db, .answer = keys_answer,
    .undo = store_undo_error,
};
static const store_call_t key_add_call = {
    .name = "key add", .db = key_add_db, .answer = keys_answer,
    .undo = store_undo_error,
};
static const store_call_t key_del_call = {
    .name = "key remove", .db = key_del_db, .answer = keys_answer,
    .undo = store_undo_error,
};
/* a waiting thread's (req_t.sync): the database thread wakes it */
static const store_call_t key_find_call = {
    .name = "key find", .db = key_find_db, .undo = store_undo_error,
};

/* A request for the account's keys that answers with a list. */
static req_t *keys_req(store_t *st, const store_call_t *call,
                       int64_t account_id, store_keys_cb cb, void *ctx)
{
    store_keys_t *keys = calloc(1, sizeof *keys);
    req_t *r = keys ? store_req_new(st, call, ctx) : NULL;
    if (!r) {
        free(keys);
        return NULL;
    }
    r->keys = keys;
    r->cb.keys = cb;
    r->id = account_id;
    return r;
}

int store_keys_list(store_t *st, int64_t account_id, store_keys_cb cb,
                    void *ctx)
{
    req_t *r = keys_req(st, &keys_list_call, account_id, cb, ctx);
    if (!r)
        return -1;
    store_db_submit(st, r);
    return 0;
}

int store_key_add(store_t *st, int64_t account_id, const char *fingerprint,
                  const char *key, store_keys_cb cb, void *ctx)
{
    req_t *r = keys_req(st, &key_add_call, account_id, cb, ctx);
    if (!r)
        return -1;
    if (account_id <= 0 || !text_ok(fingerprint, STORE_KEY_FP_MAX) ||
        !text_ok(key, STORE_KEY_TEXT_MAX)) {
        store_answer_soon(st, r, STORE_INVALID);
        return 0;
    }
    snprintf(r->fp, sizeof r->fp, "%s", fingerprint);
    r->key = strdup(key);
    if (!r->key) {
        store_answer_soon(st, r, STORE_ERROR);
        return 0;
    }
    store_db_submit(st, r);
    return 0;
}

int store_key_remove(store_t *st, int64_t account_id, const char *fingerprint,
                     store_keys_cb cb, void *ctx)
{
    req_t *r = keys_req(st, &key_del_call, account_id, cb, ctx);
    if (!r)
        return -1;
    if (!text_ok(fingerprint, STORE_KEY_FP_MAX)) {
        store_answer_soon(st, r, STORE_NOT_FOUND);
        return 0;
    }
    snprintf(r->fp, sizeof r->fp, "%s", fingerprint);
    store_db_submit(st, r);
    return 0;
}

/* --- a thread without a loop ---------------------------------------------------- */

int store_key_account(store_t *st, const char *name, const char *fingerprint,
                      int timeout_ms, store_account_t *out, char *key,
                      size_t keylen)
{
    memset(out, 0, sizeof *out);
    if (key && keylen)
        key[0] = '\0';
    if (!acct_name_valid(name, NULL, 0) ||
        !text_ok(fingerprint, STORE_KEY_FP_MAX)) {
        out->status = STORE_NOT_FOUND;
        return out->status;
    }
    out->status = STORE_ERROR;
    req_t *r = calloc(1, sizeof *r);
    store_sync_t *sync = calloc(1, sizeof *sync);
    if (!r || !sync || uv_cond_init(&sync->cond) != 0) {
        free(r);
        free(sync);
        return out->status;
    }
    r->st = st;
    r->call = &key_find_call;
    r->phase = PH_DB;
    r->sync = sync;
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->fp, sizeof r->fp, "%s", fingerprint);
    uint64_t deadline = uv_hrtime() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) *
                        1000000ull;
    uv_mutex_lock(&st->mu);
    if (st->stopping || store_db_post(st, r) != 0) {
        uv_mutex_unlock(&st->mu);
        store_req_free(r);
        return out->status;
    }
    st->sync_waiting++;
    for (;;) {
        uint64_t now = uv_hrtime();
        if (sync->done || now >= deadline)
            break;
        uv_cond_timedwait(&sync->cond, &st->mu, deadline - now);
    }
    int done = sync->done;
    if (!done)
        sync->gone = 1; /* the database thread frees it */
    st->sync_waiting--;
    uv_mutex_unlock(&st->mu);
    if (!done) {
        log_error("store: %s: the key lookup for %s took more than %d ms: "
                  "refused", st->path, name, timeout_ms);
        return out->status;
    }
    out->status = r->status;
    if (r->status == STORE_OK) {
        out->id = r->id;
        memcpy(out->name, r->name, sizeof out->name);
        out->display = r->display;
        if (key && keylen)
            snprintf(key, keylen, "%s", r->key ? r->key : "");
    }
    store_req_free(r);
    return out->status;
}
