/* login_tokens.c - browser pages' logins kept by token (login_tokens.h).
 * A small array: at most max, walked only at a login, a page's return,
 * a close and a logout. */
#include "login_tokens.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

int lt_init(login_tokens_t *lt, int max, uint64_t grace_ms)
{
    memset(lt, 0, sizeof *lt);
    pthread_mutex_init(&lt->mu, NULL);
    lt->max = max > 0 && grace_ms > 0 ? max : 0;
    lt->grace_ms = grace_ms;
    if (lt->max > 0 && !(lt->t = calloc((size_t)lt->max, sizeof *lt->t))) {
        lt->max = 0;
        return -1;
    }
    return 0;
}

void lt_free(login_tokens_t *lt)
{
    if (lt->t) /* secrets: not left in freed memory */
        sodium_memzero(lt->t, (size_t)lt->max * sizeof *lt->t);
    free(lt->t);
    lt->t = NULL;
    lt->n = lt->max = 0;
    pthread_mutex_destroy(&lt->mu);
}

/* Entry i goes (the last takes its place). Under the lock. */
static void drop(login_tokens_t *lt, int i)
{
    lt->t[i] = lt->t[--lt->n];
    sodium_memzero(&lt->t[lt->n], sizeof lt->t[lt->n]);
}

/* A free entry: past the last, else the place of one expired at now, else
 * of the closed one that expires first; NULL when every session is open.
 * Under the lock. */
static login_token_t *room(login_tokens_t *lt, uint64_t now)
{
    if (lt->n < lt->max)
        return &lt->t[lt->n++];
    int oldest = -1;
    for (int i = 0; i < lt->n; i++) {
        if (lt->t[i].session != 0)
            continue;
        if (now >= lt->t[i].expires)
            return &lt->t[i];
        if (oldest < 0 || lt->t[i].expires < lt->t[oldest].expires)
            oldest = i;
    }
    return oldest >= 0 ? &lt->t[oldest] : NULL;
}

int lt_adopt(login_tokens_t *lt, const char *token, int64_t account_id,
             const char *name, int display, uint64_t session, uint64_t now)
{
    if (!grace_token_valid(token) || account_id <= 0 || session == 0)
        return -1;
    pthread_mutex_lock(&lt->mu);
    login_token_t *e = room(lt, now);
    if (e) {
        memset(e, 0, sizeof *e);
        memcpy(e->token, token, GRACE_TOKEN_LEN + 1);
        e->account_id = account_id;
        snprintf(e->name, sizeof e->name, "%s", name);
        e->display = display;
        e->session = session;
        e->was = session;
        e->expires = UINT64_MAX;
    }
    pthread_mutex_unlock(&lt->mu);
    return e ? 0 : -1;
}

int lt_issue(login_tokens_t *lt, int64_t account_id, const char *name,
             int display, uint64_t session, uint64_t now,
             char out[GRACE_TOKEN_LEN + 1])
{
    if (lt->max == 0 || grace_token(out) != 0 ||
        lt_adopt(lt, out, account_id, name, display, session, now) != 0) {
        out[0] = '\0';
        return -1;
    }
    return 0;
}

/* The entry of token, or -1. Under the lock. */
static int find(const login_tokens_t *lt, const char *token)
{
    for (int i = 0; i < lt->n; i++)
        if (grace_token_same(lt->t[i].token, token))
            return i;
    return -1;
}

void lt_closed(login_tokens_t *lt, const char *token, uint64_t session,
               int display, int playing, uint64_t now)
{
    if (!grace_token_valid(token))
        return;
    pthread_mutex_lock(&lt->mu);
    int i = find(lt, token);
    if (i >= 0 && lt->t[i].session == session) {
        lt->t[i].session = 0;
        lt->t[i].display = display;
        lt->t[i].playing = playing;
        lt->t[i].expires = now + lt->grace_ms;
    }
    pthread_mutex_unlock(&lt->mu);
}

int lt_holds(login_tokens_t *lt, const char *token, uint64_t now)
{
    if (!grace_token_valid(token))
        return 0;
    pthread_mutex_lock(&lt->mu);
    int i = find(lt, token);
    int holds = i >= 0 && now < lt->t[i].expires;
    pthread_mutex_unlock(&lt->mu);
    return holds;
}

int lt_take(login_tokens_t *lt, const char *token, uint64_t now,
            login_token_t *out)
{
    if (!grace_token_valid(token))
        return 0;
    pthread_mutex_lock(&lt->mu);
    int i = find(lt, token);
    int found = i >= 0 && now < lt->t[i].expires;
    if (found)
        *out = lt->t[i];
    if (i >= 0)
        drop(lt, i); /* taken, or expired */
    pthread_mutex_unlock(&lt->mu);
    return found;
}

void lt_forget(login_tokens_t *lt, const char *token)
{
    if (!grace_token_valid(token))
        return;
    pthread_mutex_lock(&lt->mu);
    int i = find(lt, token);
    if (i >= 0)
        drop(lt, i);
    pthread_mutex_unlock(&lt->mu);
}

/* Forgets account_id's tokens (0: every account's): all of them, or
 * (closed_only) those whose session has closed. Returns how many went. */
static int forget_of(login_tokens_t *lt, int64_t account_id, int closed_only)
{
    int gone = 0;
    pthread_mutex_lock(&lt->mu);
    for (int i = 0; i < lt->n;)
        if ((account_id == 0 || lt->t[i].account_id == account_id) &&
            (!closed_only || lt->t[i].session == 0)) {
            drop(lt, i); /* the last comes here: looked at next */
            gone++;
        } else {
            i++;
        }
    pthread_mutex_unlock(&lt->mu);
    return gone;
}

void lt_forget_account(login_tokens_t *lt, int64_t account_id)
{
    if (account_id > 0)
        forget_of(lt, account_id, 0);
}

int lt_forget_closed(login_tokens_t *lt, int64_t account_id)
{
    return account_id > 0 ? forget_of(lt, account_id, 1) : 0;
}

int lt_forget_all(login_tokens_t *lt)
{
    return forget_of(lt, 0, 0);
}

int lt_held(login_tokens_t *lt, uint64_t now, uint64_t *was,
            int64_t *account_id, int cap)
{
    int k = 0;
    pthread_mutex_lock(&lt->mu);
    for (int i = 0; i < lt->n && k < cap; i++)
        if (lt->t[i].session == 0 && now < lt->t[i].expires) {
            was[k] = lt->t[i].was;
            account_id[k++] = lt->t[i].account_id;
        }
    pthread_mutex_unlock(&lt->mu);
    return k;
}

int lt_count(login_tokens_t *lt)
{
    pthread_mutex_lock(&lt->mu);
    int n = lt->n;
    pthread_mutex_unlock(&lt->mu);
    return n;
}
