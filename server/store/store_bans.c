/* store_bans.c - bans in the store (store.h): the loop side asks for a
 * ban or an unban through the database thread, which keeps the host's
 * list (ban_list.h) read from the bans table; any thread checks an address
 * or a name against that list, never waiting on the database. */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store_impl.h"

static int ban_put_db(store_t *st, req_t *r, int ok)
{
    r->status = !ok ? STORE_ERROR
              : sdb_ban_put(st->db, &r->ban) == 0 ? STORE_OK : STORE_ERROR;
    r->phase = PH_DONE;
    st->bans_changed = 1;
    return r->status == STORE_OK;
}

static int ban_del_db(store_t *st, req_t *r, int ok)
{
    r->status = !ok ? STORE_ERROR : sdb_ban_remove(st->db, r->ban.target);
    r->phase = PH_DONE;
    st->bans_changed = 1;
    return r->status == STORE_OK;
}

static const store_call_t ban_put_call = {
    .name = "ban", .db = ban_put_db, .answer = store_answer_done,
    .undo = store_undo_error,
};
static const store_call_t ban_del_call = {
    .name = "unban", .db = ban_del_db, .answer = store_answer_done,
    .undo = store_undo_error,
};

int store_ban(store_t *st, const store_ban_t *b, store_done_cb cb, void *ctx)
{
    req_t *r = store_req_new(st, &ban_put_call, ctx);
    if (!r)
        return -1;
    r->cb.done = cb;
    r->ban = *b;
    r->ban.target[sizeof r->ban.target - 1] = '\0';
    store_db_submit(st, r);
    return 0;
}

int store_unban(store_t *st, const char *target, store_done_cb cb, void *ctx)
{
    req_t *r = store_req_new(st, &ban_del_call, ctx);
    if (!r)
        return -1;
    r->cb.done = cb;
    snprintf(r->ban.target, sizeof r->ban.target, "%s", target);
    store_db_submit(st, r);
    return 0;
}

int store_banned_addr(store_t *st, const char *ip, int64_t now_ms,
                      int64_t *until_ms)
{
    return ban_list_addr(&st->bans, ip, now_ms, until_ms);
}

int store_banned_name(store_t *st, const char *name, int64_t now_ms,
                      int64_t *until_ms)
{
    return ban_list_name(&st->bans, name, now_ms, until_ms);
}

size_t store_bans(store_t *st, int64_t now_ms, store_ban_t **out)
{
    return ban_list_copy(&st->bans, now_ms, out);
}

void store_bans_refresh(store_t *st)
{
    st->bans_read_ms = uv_hrtime() / 1000000u;
    st->bans_changed = 0;
    store_ban_t *v = malloc(STORE_BANS_MAX * sizeof *v);
    int n = v ? sdb_bans_read(st->db, v, STORE_BANS_MAX) : -1;
    if (n >= 0 && ban_list_set(&st->bans, v, (size_t)n) != 0)
        n = -1;
    if (n < 0 && v)
        log_debug("store: %s: bans not read again: the last list stays",
                  st->path);
    free(v);
}
