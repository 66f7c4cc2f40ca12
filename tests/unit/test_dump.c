/* test_dump.c - the character dump (dump.h): a fixed game, recorded,
 * replayed from its record to the end, gives exactly the dump in
 * tests/unit/data/dump_seed42.txt (a golden file), the same dump as the
 * game that was played; and the dump holds every part docs/game.md lists.
 *
 * The fixed game is played by a small walker of this file's own: next to a
 * monster it attacks, with one in view it steps toward it, else it picks up
 * what lies underfoot, autoexplores, and goes down when nothing is left.
 * A deliberate rule change updates the golden file: the failure writes
 * the new dump to build/dump_seed42.txt, to look at and copy. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check_main.h"
#include "dump.h"
#include "game.h"
#include "record.h"

#define DUMP_SEED 42u
#define DUMP_KEYS 4000
#define GOLDEN "tests/unit/data/dump_seed42.txt"

static int sign(int v)
{
    return v > 0 ? 1 : v < 0 ? -1 : 0;
}

static const char *dirkeys[3][3] = { { "y", "k", "u" }, { "h", ".", "l" },
                                     { "b", "j", "n" } };

/* 1 if a monster in view stands next to (x, y). */
static int near_monster(const game_t *g, int x, int y)
{
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *m = &g->monsters[i];
        if (m->alive && game_lit(g, m->x, m->y) && m->x - x <= 1 &&
            x - m->x <= 1 && m->y - y <= 1 && y - m->y <= 1)
            return 1;
    }
    return 0;
}

static int key_of(int dx, int dy)
{
    return dirkeys[dy + 1][dx + 1][0];
}

/* The walker's key for g. */
static int walker_key(const game_t *g)
{
    int best = -1, bd = 0;
    for (int i = 0; i < MAX_MONSTERS; i++) {
        const monster_t *m = &g->monsters[i];
        if (!m->alive || !game_lit(g, m->x, m->y))
            continue;
        int dx = m->x - g->player.x, dy = m->y - g->player.y;
        int d = dx * dx + dy * dy;
        if (best < 0 || d < bd) {
            best = i;
            bd = d;
        }
    }
    if (best >= 0) {
        const monster_t *m = &g->monsters[best];
        int dx = sign(m->x - g->player.x), dy = sign(m->y - g->player.y);
        if (bd <= 2 || map_walkable(&g->map, g->player.x + dx,
                                    g->player.y + dy))
            return key_of(dx, dy);
        if (travel_first_step(g, near_monster, &dx, &dy) > 0)
            return key_of(dx, dy);
        return '.';
    }
    if (g->player.hp * 2 < g->player.max_hp)
        return 'R';
    for (int i = 0; i < MAX_ITEMS; i++) {
        const item_t *it = &g->items[i];
        if (it->type == ITEM_THING && it->x == g->player.x &&
            it->y == g->player.y && g->pack_count < PACK_SIZE)
            return 'g';
    }
    return 'o';
}

/* Plays the fixed game through a recorder; returns the encoded record. */
static game_t *play(buf_t *rec_out)
{
    game_t *g = game_new(DUMP_SEED, NULL);
    ck_assert_ptr_nonnull(g);
    record_t r;
    ck_assert_int_eq(record_init(&r, g, 0), 0);
    for (int i = 0; i < DUMP_KEYS && !game_dead(g); i++) {
        int key = walker_key(g);
        uint32_t turn = g->turn;
        record_key(&r, g, key);
        if (key == 'o' && g->turn == turn && g->mode == MODE_PLAY)
            record_key(&r, g, '>'); /* explored: to the stairs, and down */
        if (g->mode != MODE_PLAY && !game_dead(g))
            record_key(&r, g, 27);
    }
    ck_assert_int_eq(record_finish(&r, g), 0);
    ck_assert_int_eq(record_encode(&r, rec_out), 0);
    record_free(&r);
    return g;
}

static char *dump_of(const game_t *g)
{
    size_t n = game_dump(g, NULL, NULL, 0);
    char *s = malloc(n + 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(game_dump(g, NULL, s, n + 1), n);
    ck_assert_uint_eq(strlen(s), n);
    return s;
}

START_TEST(dump_of_a_fixed_game_from_its_record)
{
    buf_t enc;
    buf_init(&enc, 0);
    game_t *live = play(&enc);
    /* Replayed from the record, as the host does for a stored game. */
    record_t r;
    ck_assert_int_eq(record_decode(enc.data, enc.len, &r), RECORD_OK);
    record_player_t pl;
    ck_assert_int_eq(record_player_start(&pl, &r, NULL), RECORD_OK);
    ck_assert_int_eq(record_player_run(&pl, 0), 0);
    char *from_record = dump_of(pl.game);
    char *from_live = dump_of(live);
    ck_assert_str_eq(from_record, from_live);

    FILE *f = fopen(GOLDEN, "rb");
    char *want = NULL;
    long n = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        fseek(f, 0, SEEK_SET);
        want = calloc(1, (size_t)n + 1);
        ck_assert_uint_eq(fread(want, 1, (size_t)n, f), (size_t)n);
        fclose(f);
    }
    if (!want || strcmp(want, from_record) != 0) {
        FILE *o = fopen("build/dump_seed42.txt", "wb");
        if (o) {
            fputs(from_record, o);
            fclose(o);
        }
        ck_abort_msg("the dump differs from " GOLDEN
                     " (the new one is in build/dump_seed42.txt)");
    }
    /* A short buffer gets a cut, terminated text and the whole length. */
    char small[64];
    ck_assert_uint_eq(game_dump(pl.game, NULL, small, sizeof small), strlen(want));
    ck_assert_uint_eq(strlen(small), sizeof small - 1);
    ck_assert(strncmp(small, want, sizeof small - 1) == 0);
    free(want);
    free(from_record);
    free(from_live);
    record_player_free(&pl);
    record_free(&r);
    game_free(live);
    buf_free(&enc);
}
END_TEST

START_TEST(dump_has_every_part)
{
    buf_t enc;
    buf_init(&enc, 0);
    game_t *g = play(&enc);
    char *d = dump_of(g);
    char head[64];
    snprintf(head, sizeof head, "rogued character dump (game version %d, "
             "seed 42", GAME_VERSION);
    ck_assert_msg(strstr(d, head) != NULL, "no '%s'", head);
    static const char *parts[] = {
        "\nWeapon: ", "\nArmour: ", "\nPack (everything identified):\n",
        "\nKills by kind:\n", "\nDepths reached:\n  depth  1 on turn 0\n",
        "\nLast messages:\n", "\nThe map of depth ",
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        ck_assert_msg(strstr(d, parts[i]) != NULL, "no '%s'", parts[i]);
    ck_assert(game_dead(g));
    ck_assert_ptr_nonnull(strstr(d, "killed by"));
    free(d);
    game_free(g);
    buf_free(&enc);
}
END_TEST

/* A game its record leaves alive (it ended by a disconnect or a stop,
 * not in the game) is said as the host recorded its end; with none, it
 * is alive; a dead game is said as its death, whatever the host says. */
START_TEST(an_alive_game_is_said_as_the_host_recorded_its_end)
{
    game_t *g = game_new(42, NULL);
    game_key(g, '.');
    char d[8192];
    game_dump(g, "disconnected (client closed)", d, sizeof d);
    ck_assert_msg(strstr(d, "\n\ndisconnected (client closed) on depth 1 "
                            "after 1 turn; score "), "%s", d);
    game_dump(g, NULL, d, sizeof d);
    ck_assert_msg(strstr(d, "\n\nalive on depth 1 after 1 turn; score "),
                  "%s", d);
    game_free(g);
    buf_t enc;
    buf_init(&enc, 0);
    g = play(&enc);
    ck_assert(game_dead(g));
    game_dump(g, "disconnected (client closed)", d, sizeof d);
    ck_assert_msg(strstr(d, "\n\nkilled by"), "%s", d);
    game_free(g);
    buf_free(&enc);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("dump");
    TCase *tc = tcase_create("dump");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, dump_of_a_fixed_game_from_its_record);
    tcase_add_test(tc, dump_has_every_part);
    tcase_add_test(tc, an_alive_game_is_said_as_the_host_recorded_its_end);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
