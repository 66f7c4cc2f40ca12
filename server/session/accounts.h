/* accounts.h - the rules for what players type that is stored or shown:
 * account names, passwords, and any text that other players will see.
 *
 * Names are what other players read on their screens (the lobby, the hall
 * of fame), so they are a closed set of characters: no control byte or
 * escape sequence can ever reach another player's terminal through one.
 * These checks are pure functions; the store calls them again at its door. */
#ifndef ROGUE_ACCOUNTS_H
#define ROGUE_ACCOUNTS_H

#include <stddef.h>

#define ACCT_NAME_MIN 2
#define ACCT_NAME_MAX 20         /* characters (= bytes: names are ASCII) */
#define ACCT_PASS_MIN 6          /* characters (UTF-8 code points) */
#define ACCT_PASS_MAX 128        /* bytes: the lobby's input line is capped
                                    here, and Argon2 needs no more */
#define ACCT_LOGIN_TRIES 5       /* failed logins before a connection is
                                    closed (the lobby counts them) */

/* 1 if name is 2-20 characters of A-Z a-z 0-9 _ -, else 0 with a sentence
 * for the player in why (may be NULL). Uniqueness ignores case (the store's
 * COLLATE NOCASE); this checks only the form. */
int acct_name_valid(const char *name, char *why, size_t whylen);

/* 1 if pass is an acceptable password: valid UTF-8, no control characters,
 * at least ACCT_PASS_MIN characters and at most ACCT_PASS_MAX bytes; else 0
 * with a sentence for the player in why (may be NULL; it never quotes the
 * password). */
int acct_password_valid(const char *pass, char *why, size_t whylen);

/* 1 if the len bytes at s may be shown on another player's screen: valid,
 * minimal UTF-8 with no C0 or C1 control, no DEL, and none of the invisible
 * format characters that reorder or hide text (bidirectional overrides and
 * isolates, zero-width characters, the BOM). So no escape sequence, cursor
 * movement or bell can pass. An empty string is safe. */
int acct_text_is_safe(const char *s, size_t len);

/* Copies name into out (outlen >= ACCT_NAME_MAX + 1) folded to lower case
 * and cut at ACCT_NAME_MAX bytes: the key under which one name's failures
 * are counted whatever case it is typed in. */
void acct_name_key(const char *name, char *out, size_t outlen);

#endif
