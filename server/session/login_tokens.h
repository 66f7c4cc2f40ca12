/* login_tokens.h - a browser page's login kept by a token, so that the
 * page reconnects logged in after its connection drops, as a guest's page
 * comes back to its game (guest_grace.h; docs/telnet.md, "The browser").
 *
 * At a login on the page the server draws a token and sends it ("token
 * T", the guest's message); the page sends it back on a new connection
 * ("resume T"), which logs the account in there once: a new token
 * replaces it. A token holds while its session is open and for grace_ms
 * after it closes; a logout, a password change and a later login that
 * takes the account's game end it (on another host of a cluster when it
 * asks this one to let go: this host publishes the accounts of its tokens
 * whose session has closed, lt_held, so that the login asks it as it
 * asks a host that plays the account: cluster_give_start). There are at
 * most max: past that the
 * oldest of those whose session has closed goes first, and with every
 * one's session open no more are made (those pages reconnect logged out,
 * as before this existed). It is a secret that logs an account in, as
 * good as the password for a while: compared in constant time, never
 * logged. One table serves every worker loop: each call takes its mutex.
 * The clock is the caller's (`now`, ms), so tests drive expiry
 * themselves. No I/O, no libuv. */
#ifndef ROGUE_LOGIN_TOKENS_H
#define ROGUE_LOGIN_TOKENS_H

#include <pthread.h>
#include <stdint.h>

#include "accounts.h"
#include "guest_grace.h" /* GRACE_TOKEN_LEN, grace_token */

typedef struct login_token {
    char token[GRACE_TOKEN_LEN + 1];
    int64_t account_id;
    char name[ACCT_NAME_MAX + 1];
    int display;               /* the account's display choice */
    int playing;               /* its session closed in a game: a page
                                  back goes on with it (lt_closed) */
    uint64_t session;          /* the session it is open in (0: closed) */
    uint64_t was;              /* the session it was given in (kept) */
    uint64_t expires;          /* ms on the caller's clock; open: UINT64_MAX */
} login_token_t;

typedef struct login_tokens {
    pthread_mutex_t mu;        /* every field below */
    login_token_t *t;          /* [n] of [max] */
    int n, max;
    uint64_t grace_ms;
} login_tokens_t;

/* An empty table of at most max tokens, each held grace_ms after its
 * session closes (either 0: none is ever made). 0, or -1 (out of memory:
 * the table makes none). */
int lt_init(login_tokens_t *lt, int max, uint64_t grace_ms);
void lt_free(login_tokens_t *lt);

/* A new token into out for account (name, display choice) open in
 * session. 0, or -1 (none made: off, full, no randomness). */
int lt_issue(login_tokens_t *lt, int64_t account_id, const char *name,
             int display, uint64_t session, uint64_t now,
             char out[GRACE_TOKEN_LEN + 1]);

/* The same, under a token the caller has (a session moved here by a
 * binary upgrade, whose page holds it). 0, or -1. */
int lt_adopt(login_tokens_t *lt, const char *token, int64_t account_id,
             const char *name, int display, uint64_t session, uint64_t now);

/* The session of token closed, with display the account's choice then
 * and playing 1 if it closed in a game: the token holds grace_ms from
 * now. */
void lt_closed(login_tokens_t *lt, const char *token, uint64_t session,
               int display, int playing, uint64_t now);

/* 1 if token holds at now (left in the table), else 0. */
int lt_holds(login_tokens_t *lt, const char *token, uint64_t now);

/* Takes token, if it holds at now: 1 and its entry in *out (forgotten
 * here: a token logs in once), or 0. */
int lt_take(login_tokens_t *lt, const char *token, uint64_t now,
            login_token_t *out);

/* Forgets token (a logout, a takeover), or every token of account_id (a
 * password change), or those of account_id whose session has closed (a
 * login that takes the account's game: a page that dropped before it
 * must not come back and take the game from the login). */
void lt_forget(login_tokens_t *lt, const char *token);
void lt_forget_account(login_tokens_t *lt, int64_t account_id);
/* (returns how many went) */
int lt_forget_closed(login_tokens_t *lt, int64_t account_id);

/* Forgets every token (a host of a cluster that other hosts may have
 * counted gone: a login there did not ask it to let go, cluster_presence.c).
 * Returns how many went. */
int lt_forget_all(login_tokens_t *lt);

/* The tokens whose session has closed and that still hold at now: up to
 * cap of them, each as the session it was given in and its account
 * (a host of a cluster publishes them: cluster_presence.c). Returns how
 * many. */
int lt_held(login_tokens_t *lt, uint64_t now, uint64_t *was,
            int64_t *account_id, int cap);

/* Tokens held now (for tests). A walk of the table, as every call here
 * is (a few thousand entries at most at the default max_sessions). */
int lt_count(login_tokens_t *lt);

#endif
