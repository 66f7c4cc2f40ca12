/* test_golden.c - pinned replays: for each combat ruleset, one fixed seed and
 * one fixed sequence of keys must end in exactly the game state (game_hash)
 * and the screen (a checksum of what view_draw paints at 80x24) written
 * below.
 *
 * The other tests check rules one by one; these catch a change nobody meant
 * to make: anything that alters what a recorded game plays back as (a
 * number, a random draw, a message, the drawing) changes a value here. A
 * deliberate rule change updates the values (and GAME_VERSION, see
 * game.h): the failure message prints the line to paste.
 *
 * The keys come from a small generator of this file's own (not the core's
 * rng), so that they stay the same whatever the core does. */
#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "check_main.h"
#include "combat.h"
#include "game.h"
#include "keys.h"
#include "screen.h"
#include "view.h"

#ifndef GOLDEN_SEED
#define GOLDEN_SEED 9u
#endif
#define GOLDEN_KEYS 3000

/* What a replay ended in. */
typedef struct golden {
    int ruleset;
    uint64_t hash;    /* game_hash after the last key */
    uint32_t screen;  /* screen_sum of view_draw at 80x24 */
    int turn, depth, dead;
} golden_t;

/* The pinned values, one line per ruleset: hash, screen, turn, depth,
 * dead. Seed 9 was picked because its walk fights under every ruleset and
 * each ruleset ends on a different turn. Pinned for GAME_VERSION 11. */
static const golden_t expected[] = {
    { RULES_POWER, 0x1b845a9fac7e65fa, 0x44b404bd, 739, 2, 0 },
    { RULES_ATTACK_DEFENSE, 0xbf90ea4c0ae81a64, 0xf7867672, 715, 2, 0 },
    { RULES_D10, 0x9d06d303ff49eead, 0xf9a7a06c, 809, 1, 0 },
    { RULES_DICE_POOL, 0x60195da08c019204, 0x9e194fa3, 806, 1, 0 },
};

/* xorshift64*: the key generator. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

/* The i-th key of the sequence: mostly moves (a walk that keeps a
 * direction for a few keys, so that it crosses rooms and corridors and
 * meets monsters), and now and then a wait, a pick-up, the stairs, an
 * item from the pack (a letter after `i`, which may start aiming: the
 * following Enter casts), Enter and Esc. */
static int key_at(uint64_t *s, int *dir, int *run)
{
    static const int moves[] = { 'h', 'j', 'k', 'l', 'y', 'u', 'b', 'n',
                                 KEY_LEFT, KEY_DOWN, KEY_UP, KEY_RIGHT,
                                 '1', '3', '7', '9' };
    static const int other[] = { '.', 'g', '>', 'i', 'a', 'b', KEY_ENTER,
                                 KEY_ESC, '5', ',', '>', '>' };
    uint64_t r = next(s);
    if (r % 100 < 85) {
        if (*run <= 0) {
            *dir = (int)(next(s) % (sizeof moves / sizeof moves[0]));
            *run = 1 + (int)(next(s) % 16);
        }
        (*run)--;
        return moves[*dir];
    }
    return other[(r >> 8) % (sizeof other / sizeof other[0])];
}

/* FNV-1a over each cell's fields (not its bytes: a cell is bit fields). */
static uint32_t screen_sum(const screen_t *sc)
{
    uint32_t h = 2166136261u;
    for (int y = 0; y < sc->h; y++)
        for (int x = 0; x < sc->w; x++) {
            const cell_t *c = screen_cat(sc, x, y);
            uint32_t v[4] = { c->ch, c->fg, c->bg, c->attr };
            for (int i = 0; i < 4; i++)
                for (int b = 0; b < 4; b++) {
                    h ^= (v[i] >> (8 * b)) & 0xff;
                    h *= 16777619u;
                }
        }
    return h;
}

/* Plays the sequence under ruleset r. */
static golden_t play(int r)
{
    game_options_t opt = { .ruleset = r };
    game_t *g = game_new(GOLDEN_SEED, &opt);
    ck_assert_ptr_nonnull(g);
    uint64_t s = 0x9e3779b97f4a7c15ull;
    int dir = 0, run = 0;
    for (int i = 0; i < GOLDEN_KEYS && !game_dead(g); i++)
        game_key(g, key_at(&s, &dir, &run));
    screen_t sc;
    ck_assert_int_eq(screen_init(&sc, 80, 24), 0);
    view_draw(g, &sc);
    golden_t got = { r, game_hash(g), screen_sum(&sc), g->turn, g->depth,
                     game_dead(g) };
    screen_free(&sc);
    game_free(g);
    return got;
}

START_TEST(replay_matches_pinned_values)
{
    const golden_t *want = &expected[_i];
    golden_t got = play(want->ruleset);
    if (got.hash != want->hash || got.screen != want->screen ||
        got.turn != want->turn || got.depth != want->depth ||
        got.dead != want->dead)
        ck_abort_msg("%s: the replay no longer ends where it was pinned.\n"
                     "If the rules changed on purpose, the new line is:\n"
                     "    { %s, 0x%016" PRIx64 ", 0x%08" PRIx32 ", %d, %d, %d },",
                     combat_ruleset_name(want->ruleset),
                     want->ruleset == RULES_POWER ? "RULES_POWER"
                     : want->ruleset == RULES_ATTACK_DEFENSE ? "RULES_ATTACK_DEFENSE"
                     : want->ruleset == RULES_D10 ? "RULES_D10" : "RULES_DICE_POOL",
                     got.hash, got.screen, got.turn, got.depth, got.dead);
}
END_TEST

/* The pin is only worth something if the replay is a real game: it must
 * not depend on anything but the seed and the keys. */
START_TEST(replay_is_deterministic)
{
    golden_t a = play(expected[_i].ruleset), b = play(expected[_i].ruleset);
    ck_assert_uint_eq(a.hash, b.hash);
    ck_assert_uint_eq(a.screen, b.screen);
}
END_TEST

/* Every ruleset has its line. */
START_TEST(every_ruleset_is_pinned)
{
    ck_assert_int_eq((int)(sizeof expected / sizeof expected[0]), RULES_COUNT);
    for (int r = 0; r < RULES_COUNT; r++) {
        int found = 0;
        for (int i = 0; i < RULES_COUNT; i++)
            found += expected[i].ruleset == r;
        ck_assert_msg(found == 1, "ruleset %s pinned %d times",
                      combat_ruleset_name(r), found);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("golden");
    TCase *tc = tcase_create("replays");
    int n = (int)(sizeof expected / sizeof expected[0]);
    tcase_add_loop_test(tc, replay_matches_pinned_values, 0, n);
    tcase_add_loop_test(tc, replay_is_deterministic, 0, n);
    tcase_add_test(tc, every_ruleset_is_pinned);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
