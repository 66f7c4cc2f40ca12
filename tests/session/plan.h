/* plan.h - scripted fights for the session tests.
 *
 * The game core is deterministic and linked into the tests too, so a test
 * plays a seed in-process first (a small bot: walk to the nearest monster,
 * then fight it or stand still), keeps the keys, and searches the seeds
 * from 1 for the first one whose game shows what it needs. Then it starts
 * the server with that fixed --seed, sends the same keys, and after every
 * key checks that the client's screen is, row for row, the screen of its
 * own copy of the game. No cheat keys, and nothing breaks when the content
 * table is tuned. */
#ifndef ROGUE_TEST_PLAN_H
#define ROGUE_TEST_PLAN_H

#include <stdint.h>

#include "client.h"
#include "game.h"

#define MAX_KEYS 400

typedef struct plan {
    uint64_t seed;
    int ruleset;
    int n;                /* keys */
    char keys[MAX_KEYS];
    int half;             /* plan_errands: the first round's keys */
    int filler;           /* plan_errands: unknown keys between the rounds */
} plan_t;

/* The HP colour band of docs/game.md: 2 green (above 60%), 1 yellow (above
 * 30%), 0 red. */
int hp_band(const player_t *p);

/* A death plan: the bot walks to a monster and stands still until it dies;
 * its HP passes through yellow and red on the way. 1 if seed gives one. */
int plan_death(uint64_t seed, int ruleset, plan_t *pl);

/* A fight plan: the bot fights until its first kill, and lives. */
int plan_fight(uint64_t seed, int ruleset, plan_t *pl);

/* Keys a session plays between snapshots of its game (session_play.c,
 * SNAP_EVERY). */
#define PLAN_SNAP_KEYS 65536

/* An errands plan, in two rounds: each walks to the nearest thing on the
 * floor and picks it up (g), drops something of the pack (d and its
 * letter) and fights until a monster dies (a corpse: a slot more), and
 * lives. Between the rounds, pl->filler unknown keys ('z', no turn), so
 * that the second round begins just after key PLAN_SNAP_KEYS: a game with
 * a snapshot taken then, played on. 1 if seed gives one. */
int plan_errands(uint64_t seed, int ruleset, plan_t *pl);

/* The first seed in 1..2000 for which fn succeeds (the test fails if none). */
void find_plan(int (*fn)(uint64_t, int, plan_t *), int ruleset, plan_t *pl);

/* The client's screen is the game's own screen, row for row (and the HP
 * colour on the status line). key_no is for the failure message. */
void expect_screen(const tclient_t *c, const game_t *g, int key_no);

/* Sends the plan's keys, checking the screen after each. Returns the
 * test's copy of the game after the last key (the caller frees it). */
game_t *play_plan(tclient_t *c, const plan_t *pl);

/* The set-up of a test about a game that ended: the first death plan of
 * the attack-defense ruleset (find_plan, plan_death) into *pl (pl NULL:
 * not wanted), and a server started with its seed into *s:
 * srv_start("--seed", SEED, then the NULL-ended arguments after o). With
 * c, a guest connected with options o (NULL: the defaults) into *c plays
 * the plan to YOU DIED, each screen checked (play_plan), and the test's
 * own copy of the game, dead, is returned (the caller frees it). With c
 * NULL nothing is played and NULL is returned, for a test that plays the
 * plan's keys its own way. */
game_t *plan_death_setup(plan_t *pl, tsrv_t **s, tclient_t **c,
                         const cl_opts_t *o, ...) __attribute__((sentinel));

#endif
