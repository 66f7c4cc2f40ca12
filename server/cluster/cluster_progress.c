/* cluster_progress.c - the cluster thread's reading of an account's game
 * in progress from the database (the store's progress tables, saved once
 * a second by the player's host): what a watcher here of another host's
 * game starts from, before the keys streamed after it.
 * docs/hosting.md, "What the hosts share, and how". */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_impl.h"
#include "record.h"

static uint64_t be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* The account's game in progress, if the database has game `seed` with at
 * least nbytes key bytes: its first nbytes, as a summary to rebuild.
 * Returns 1 (*out set), 0 (not there yet), -1 (never: why says). */
int cluster_load_game(cluster_t *c, int64_t account, uint64_t seed,
                      int64_t nbytes, msg_game_t **out, const char **why)
{
    char acct[24], lim[24];
    snprintf(acct, sizeof acct, "%lld", (long long)account);
    snprintf(lim, sizeof lim, "%lld", (long long)nbytes);
    const char *v[2] = { acct, lim };
    *out = NULL;
    if (nbytes > RECORD_ENCODED_MAX) {
        *why = "That game is too long to watch.";
        return -1;
    }
    PGresult *r = cluster_query(c, "SELECT game_version, seed, ruleset,"
                                " started, keys_len, snap_version, snap_keys,"
                                " snap_pos FROM progress WHERE account_id ="
                                " $1", 1, v, 0);
    if (!r)
        return 0;
    int ok = PQntuples(r) == 1 &&
             (uint64_t)strtoll(PQgetvalue(r, 0, 1), NULL, 10) == seed &&
             strtoll(PQgetvalue(r, 0, 4), NULL, 10) >= nbytes;
    if (ok && strtoll(PQgetvalue(r, 0, 0), NULL, 10) != GAME_VERSION) {
        PQclear(r);
        *why = "That game is played by another version of the server.";
        return -1;
    }
    game_options_t opt;
    memset(&opt, 0, sizeof opt);
    int64_t started = 0;
    long long snap_keys = 0, snap_pos = -1;
    if (ok) {
        opt.ruleset = (int)strtol(PQgetvalue(r, 0, 2), NULL, 10);
        started = strtoll(PQgetvalue(r, 0, 3), NULL, 10);
        /* the latest snapshot, if it falls within: only the tail replays */
        if (!PQgetisnull(r, 0, 5) &&
            strtoll(PQgetvalue(r, 0, 5), NULL, 10) == GAME_VERSION) {
            snap_keys = strtoll(PQgetvalue(r, 0, 6), NULL, 10);
            snap_pos = strtoll(PQgetvalue(r, 0, 7), NULL, 10);
        }
    }
    PQclear(r);
    if (!ok)
        return 0;
    r = cluster_query(c, "SELECT pos, keys FROM progress_keys WHERE"
                      " account_id = $1 AND pos < $2 ORDER BY pos", 2, v, 1);
    if (!r)
        return 0;
    buf_t keys;
    buf_init(&keys, RECORD_ENCODED_MAX);
    for (int i = 0; i < PQntuples(r) && (int64_t)keys.len < nbytes; i++) {
        if (PQgetlength(r, i, 0) != 8 ||
            be64((const unsigned char *)PQgetvalue(r, i, 0)) != keys.len)
            break;
        size_t n = (size_t)PQgetlength(r, i, 1);
        if ((int64_t)(keys.len + n) > nbytes)
            n = (size_t)nbytes - keys.len;
        if (buf_append(&keys, PQgetvalue(r, i, 1), n) != 0)
            break;
    }
    PQclear(r);
    if ((int64_t)keys.len != nbytes) {
        buf_free(&keys);
        return 0;
    }
    buf_t checks = { NULL, 0, 0, 0 };
    game_t *snap = NULL;
    if (snap_pos > 0 && snap_pos <= nbytes && snap_keys > 0 &&
        snap_keys <= UINT32_MAX) {
        char pos[24];
        snprintf(pos, sizeof pos, "%lld", snap_pos);
        const char *sv[2] = { acct, pos };
        r = cluster_query(c, "SELECT snap_game, snap_checks FROM progress"
                          " WHERE account_id = $1 AND snap_pos = $2", 2, sv,
                          1);
        if (r && PQntuples(r) == 1 && !PQgetisnull(r, 0, 0) &&
            !PQgetisnull(r, 0, 1) &&
            PQgetlength(r, 0, 0) == (int)sizeof(game_t) &&
            (snap = malloc(sizeof *snap))) {
            memcpy(snap, PQgetvalue(r, 0, 0), sizeof *snap);
            checks.data = PQgetvalue(r, 0, 1);
            checks.len = checks.cap = checks.limit =
                (size_t)PQgetlength(r, 0, 1);
        }
        if (!snap)
            PQclear(r);
    }
    *out = msg_game_new(seed, &opt, started, &keys, &checks);
    buf_free(&keys);
    if (snap) {
        PQclear(r);
        if (*out) {
            (*out)->snap = snap; /* the rebuild checks it fits */
            (*out)->snap_keys = (uint32_t)snap_keys;
            (*out)->snap_pos = (size_t)snap_pos;
        } else {
            game_free(snap);
        }
    }
    if (!*out) {
        *why = "Out of memory: try again later.";
        return -1;
    }
    return 1;
}
