/* progress_player.h - a player for the suites of games in progress
 * (progress_fixture.h): a game whose recorded keys go to the store as a
 * session sends them. Each suite plays its own keys (player_keys): what
 * they must not do differs. Header-only, like store_fixture.h. */
#ifndef ROGUE_TEST_PROGRESS_PLAYER_H
#define ROGUE_TEST_PROGRESS_PLAYER_H

#include <check.h>

#include "game.h"
#include "record.h"
#include "rng.h"
#include "store.h"

/* A player as a session keeps one: a game, its recorder, how much of the
 * record's keys the store has been handed, and where its keys come from. */
typedef struct gamer {
    game_t *g;
    record_t rec;
    size_t sent;
    rng_t keys;
} gamer_t;

static inline void player_start(gamer_t *p, uint64_t seed, int ruleset)
{
    game_options_t opt = { .ruleset = ruleset };
    p->g = game_new(seed, &opt);
    ck_assert_ptr_nonnull(p->g);
    ck_assert_int_eq(record_init(&p->rec, p->g, 0), 0);
    p->sent = 0;
    rng_seed(&p->keys, seed ^ 0x5eed);
}

/* Hands the store, as `claim`, what it has not had yet (kept here if
 * refused). */
static inline int player_send(store_t *st, gamer_t *p, int64_t account,
                              int64_t claim)
{
    size_t n = p->rec.keys.len - p->sent;
    int rc = store_progress_append(st, account, claim,
                                   p->rec.keys.data + p->sent, n);
    if (rc == 0)
        p->sent += n;
    return rc;
}

static inline void player_free(gamer_t *p)
{
    game_free(p->g);
    record_free(&p->rec);
}

#endif
