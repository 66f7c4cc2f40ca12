/* cluster_proto.h - what hosts of one cluster say to each other, as text:
 * the NOTIFY payloads on a host's channel and the list of games each host
 * publishes in its presence row (cluster.h, docs/hosting.md "Several
 * hosts").
 *
 * Everything here comes from another process over the database, so it is
 * parsed as untrusted input: bounded lengths, numbers in range, names and
 * lines of printable ASCII only, channels of [a-z0-9_]. No I/O, no libuv,
 * no allocation; the fuzz target tests/fuzz/fuzz_cluster.c feeds both
 * parsers.
 *
 * Payloads (fields split by one space; CHAN is the sender's channel, for
 * the answer):
 *   J WID CHAN SESS              watch session SESS of yours as watch WID
 *   L WID CHAN                   watch WID is over (the watcher left)
 *   S WID SEED NBYTES ACCT NAME  watch WID starts on ACCT's game SEED at its
 *                                first NBYTES key bytes (the database has,
 *                                or will have, them); NAME the player
 *   K WID SEQ KEY,KEY,...        the game's next keys, SEQ the count of
 *                                keys sent since the last S
 *   W WID TEXT                   watch WID waits: the player is in the
 *                                lobby (TEXT: says so); an S follows with
 *                                the next game, or an E
 *   E WID TEXT                   watch WID has ended (TEXT: why)
 *   R WID TEXT                   watch WID is refused (TEXT: why)
 *   T RID CHAN ACCT              hand over account ACCT's game and let go
 *   D RID NBYTES SEED            done: the game SEED was handed over with
 *                                NBYTES key bytes flushed (-1: no game) */
#ifndef ROGUE_CLUSTER_PROTO_H
#define ROGUE_CLUSTER_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "accounts.h"

/* PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
#define CLUSTER_PAYLOAD_MAX 7900
#define CLUSTER_CHAN_MAX 63
#define CLUSTER_TEXT_MAX 95
/* Keys in one K payload: at least 2 bytes each ("1,"). */
#define CLUSTER_KEYS_MAX (CLUSTER_PAYLOAD_MAX / 2)
/* The largest key value a payload may carry (keys.h codes fit below). */
#define CLUSTER_KEY_LIMIT 0x7fffffff

typedef struct cluster_note {
    char kind;                        /* 'J', 'L', 'S', 'K', 'W', 'E', 'R', 'T', 'D' */
    uint64_t id;                      /* WID or RID */
    char chan[CLUSTER_CHAN_MAX + 1];  /* J, L, T */
    uint64_t sess;                    /* J */
    uint64_t seed;                    /* S, D */
    int64_t nbytes;                   /* S (>= 0), D (>= -1) */
    int64_t account;                  /* S, T (> 0) */
    char name[ACCT_NAME_MAX + 1];     /* S */
    char text[CLUSTER_TEXT_MAX + 1];  /* W, E, R */
    uint64_t seq;                     /* K */
    int nkeys;                        /* K: 1..CLUSTER_KEYS_MAX */
    int32_t keys[CLUSTER_KEYS_MAX];   /* K */
} cluster_note_t;

/* Parses one payload (len bytes, not NUL-terminated). Returns 0, or -1
 * for anything malformed (out is then undefined). */
int cluster_note_parse(const char *p, size_t len, cluster_note_t *out);

/* 1 if s is a valid channel name. */
int cluster_chan_ok(const char *s);

/* One game in a host's presence row (one line: "SESS DEPTH TURNS WATCHERS
 * IDLE_S NAME\n"). */
typedef struct cluster_game {
    uint64_t sess;
    int depth, turns, watchers, idle_s;
    char name[ACCT_NAME_MAX + 1];
} cluster_game_t;

/* Appends g's line to out (cap bytes, NUL-terminated, *len used). Returns
 * 0, or -1 if it does not fit (nothing appended). */
int cluster_game_format(const cluster_game_t *g, char *out, size_t cap,
                        size_t *len);

/* Parses up to max lines of a presence row's list; a malformed line is
 * skipped. Returns how many games went into out. */
int cluster_games_parse(const char *p, size_t len, cluster_game_t *out,
                        int max);

#endif
