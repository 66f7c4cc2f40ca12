/* test_telling10.c - game version 10: the changes held for it (docs/game.md,
 * "Game version 10"), each a line the log told wrongly or a rule: what is
 * told of monsters out of view, merged lines, the order of a turn's lines,
 * the prompts, the win's last line, autopickup's one line, the history's
 * length, a fleeing archer. Scripted games in the arena room, exact lines. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "check_main.h"
#include "fov.h"
#include "game.h"
#include "keys.h"
#include "view.h"

/* A monster of kind at (x, y), asleep for `asleep` turns. */
static int put(game_t *g, int kind, int x, int y, int asleep)
{
    int i = game_place_monster(g, kind, x, y);
    ck_assert_int_ge(i, 0);
    g->monsters[i].asleep = (uint8_t)asleep;
    return i;
}

/* --- monsters out of view ---------------------------------------------------- */

/* The arena's player at (10, 8) sees FOV_RADIUS (8) tiles: x = 30 is far
 * out of view. */
START_TEST(a_confusion_ending_out_of_view_is_not_told)
{
    game_t *g = arena_room(1, NULL);
    int far = put(g, MON_ORC, 30, 8, 100);
    int near = put(g, MON_ORC, 14, 8, 100);
    ck_assert(!game_lit(g, 30, 8));
    ck_assert(game_lit(g, 14, 8));
    g->monsters[far].confused = 1;
    g->monsters[near].confused = 2;
    game_key(g, '.');
    ck_assert_int_eq(g->monsters[far].confused, 0);
    ck_assert_int_eq(arena_log_count(g, "no longer confused"), 0);
    game_key(g, '.');
    ck_assert_int_eq(g->monsters[near].confused, 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "The orc is no longer confused.");
    ck_assert_int_eq(arena_log_count(g, "no longer confused"), 1);
    game_free(g);
}
END_TEST

/* A confused orc ringed by sleeping rats: every stumble but "stay" is a
 * blow on a rat. Out of view none is told, nor a rat's death; in view
 * each is. */
static int ring_blows(int x, int told)
{
    int blows = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        game_t *g = arena_room(1, NULL);
        g->player.hp = g->player.max_hp = 500;
        int orc = put(g, MON_ORC, x, 8, 0);
        g->monsters[orc].confused = 20;
        int rats[8], n = 0, rats_hp = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if (dx || dy)
                    rats[n++] = put(g, MON_RAT, x + dx, 8 + dy, 200);
        rng_seed(&g->rng, seed);
        for (int t = 0; t < 5; t++)
            game_key(g, '.');
        for (int i = 0; i < n; i++)
            rats_hp += g->monsters[rats[i]].alive ? g->monsters[rats[i]].hp : 0;
        int lines = arena_log_count(g, "the rat") +
                    arena_log_count(g, "The rat dies");
        if (told)
            ck_assert_int_ge(lines, 1);
        else
            ck_assert_int_eq(lines, 0);
        blows += rats_hp < 8 * monster_stats(MON_RAT)->hp;
        game_free(g);
    }
    return blows;
}

START_TEST(a_confused_blow_out_of_view_is_not_told)
{
    ck_assert_int_gt(ring_blows(30, 0), 0); /* blows were dealt, unseen */
    ck_assert_int_gt(ring_blows(15, 1), 0);
}
END_TEST

/* --- merged lines ------------------------------------------------------------ */

/* Two goblins' blows that read the same are two lines (they merged into
 * "(x2)", one goblin's two blows); a bat's two blows in a turn (it is
 * fast) are its own and merge. The player cannot be hurt: every blow
 * reads the same. */
START_TEST(lines_merge_only_about_the_same_monster)
{
    game_t *g = arena_room(1, NULL);
    g->player.defense = 100;
    put(g, MON_GOBLIN, 11, 8, 0);
    put(g, MON_GOBLIN, 9, 8, 0);
    game_key(g, '.');
    const char *blow = game_msg(g, 0)->text;
    ck_assert_ptr_null(strstr(blow, "(x"));
    ck_assert_str_eq(game_msg(g, 1)->text, blow);
    ck_assert_ptr_nonnull(strstr(blow, "The goblin "));
    game_free(g);

    g = arena_room(1, NULL);
    g->player.defense = 100;
    put(g, MON_BAT, 11, 8, 0);
    game_key(g, '.');
    ck_assert_ptr_nonnull(strstr(game_msg(g, 0)->text, "The giant bat "));
    ck_assert_ptr_nonnull(strstr(game_msg(g, 0)->text, "(x2)"));
    game_free(g);
}
END_TEST

/* A run of one line past 255 goes on in a new line: "(x255)", then the
 * rest counted from 1. */
START_TEST(a_run_past_255_starts_a_new_line)
{
    game_t *g = arena_room(1, NULL);
    g->player.x = 1;
    game_update_fov(g);
    for (int i = 0; i < 300; i++)
        game_key(g, 'h'); /* into the wall: no turn */
    ck_assert_str_eq(game_msg(g, 0)->text, "There is a wall in the way. (x45)");
    ck_assert_str_eq(game_msg(g, 1)->text,
                     "There is a wall in the way. (x255)");
    ck_assert_int_eq(g->turn, 0);
    game_free(g);
}
END_TEST

/* --- the order of a turn's lines -------------------------------------------- */

/* The corridor (row 8) with a side passage down at x = 15 to an orc
 * archer at (15, 13), seen only from (15, 8), 5 tiles off (its range is
 * 6). It sleeps the four turns the player takes to reach (14, 8) (so that
 * it does not wander off); then, in view as the player steps to (15, 8),
 * it shoots at once in some games (half its turns: the rules' seed). */
static game_t *archer_round_the_corner(uint64_t seed)
{
    game_t *g = arena_room(1, NULL);
    arena_corridor(g);
    for (int y = 9; y <= 13; y++)
        g->map.tile[y][15] = TILE_FLOOR;
    g->player.hp = g->player.max_hp = 500;
    put(g, MON_ARCHER, 15, 13, 4);
    game_update_fov(g);
    ck_assert(!game_monster_in_view(g));
    rng_seed(&g->rng, seed);
    return g;
}

/* The lines of the archer's turns since the arrival's step (the newest
 * `back` of them): the arrival first, then a shot and its blow for each
 * shot; how many it shot. */
static int arrival_then_shots(const game_t *g, int back)
{
    ck_assert_str_eq(game_msg(g, back - 1)->text,
                     "An orc archer comes into view.");
    ck_assert_int_eq((back - 1) % 2, 0);
    for (int i = back - 2; i > 0; i -= 2) {
        ck_assert_str_eq(game_msg(g, i)->text, "The orc archer shoots at you!");
        ck_assert_ptr_nonnull(
            strstr(game_msg(g, i - 1)->text, "The orc archer "));
    }
    return (back - 1) / 2;
}

/* The lines logged since `total` lines had been (none taken back). */
static int lines_after(const game_t *g, uint32_t total)
{
    return (int)(g->log_total - total);
}

/* The arrival is told first, then the shot and its blow (they came
 * first, the arrival at the turn's end). A count or a rest stopped by a
 * blow tells the blow alone, as before. In plate mail the arrival's step
 * takes two turns (every second step does), and it is told before both
 * turns' shots (it was told after the first's). */
START_TEST(an_arrival_is_told_before_its_blow)
{
    int shot = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        game_t *g = archer_round_the_corner(seed);
        uint32_t total = g->log_total;
        ck_assert_int_eq(game_key(g, 'L'), 1); /* a run */
        ck_assert_int_eq(g->player.x, 15);
        ck_assert_int_eq(g->turn, 5);
        int n = arrival_then_shots(g, lines_after(g, total));
        ck_assert_int_le(n, 1);
        shot += n;
        game_free(g);
    }
    ck_assert_int_gt(shot, 0);
    ck_assert_int_lt(shot, 12);

    int twice = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        game_t *g = archer_round_the_corner(seed);
        g->player.armor = item_pack_add(g, IK_PLATE_MAIL);
        g->player.strides = 1; /* the run's odd steps take two turns */
        uint32_t total = g->log_total;
        ck_assert_int_eq(game_key(g, 'L'), 1);
        ck_assert_int_eq(g->player.x, 15);
        ck_assert_int_eq(g->turn, 8); /* steps 1, 3 and 5 took two turns */
        twice += arrival_then_shots(g, lines_after(g, total)) == 2;
        game_free(g);
    }
    ck_assert_int_gt(twice, 0); /* a shot in each of the step's turns */
}
END_TEST

/* A turn's n lines after its monsters' phase began ("Line 0." to
 * "Line n-1."), then an orc's arrival told (game_tell_came). */
static game_t *arrival_after_lines(int n)
{
    game_t *g = arena_room(1, NULL);
    int orc = put(g, MON_ORC, 14, 8, 0);
    g->phase_log = (uint16_t)g->log_total;
    for (int i = 0; i < n; i++)
        game_log(g, MSG_INFO, "Line %d.", i);
    game_tell_came(g, orc);
    return g;
}

/* An arrival goes before the 32 lines of its turn's monsters' phase;
 * after 33, as before game version 10, it is told after them (the lines
 * moved are at most 32). Either way the seqs run in the log's order. */
START_TEST(an_arrival_after_more_than_32_lines_is_told_after_them)
{
    game_t *g = arrival_after_lines(32);
    ck_assert_str_eq(game_msg(g, 32)->text, "An orc comes into view.");
    ck_assert_str_eq(game_msg(g, 31)->text, "Line 0.");
    ck_assert_str_eq(game_msg(g, 0)->text, "Line 31.");
    for (int i = 0; i < 32; i++)
        ck_assert_uint_eq(game_msg(g, i)->seq, game_msg(g, i + 1)->seq + 1);
    ck_assert_uint_eq(game_msg(g, 0)->seq + 1, g->log_total);
    game_free(g);

    g = arrival_after_lines(33);
    ck_assert_str_eq(game_msg(g, 0)->text, "An orc comes into view.");
    ck_assert_str_eq(game_msg(g, 1)->text, "Line 32.");
    ck_assert_str_eq(game_msg(g, 33)->text, "Line 0.");
    ck_assert_uint_eq(game_msg(g, 0)->seq, game_msg(g, 1)->seq + 1);
    ck_assert_uint_eq(game_msg(g, 0)->seq + 1, g->log_total);
    game_free(g);
}
END_TEST

/* --- prompts ------------------------------------------------------------------ */

/* A dagger known to be -1 is named so when aimed and when kept, as when
 * thrown; one not known is "dagger". */
START_TEST(the_throw_prompt_names_the_known_enchantment)
{
    game_t *g = arena_explored();
    int slot = item_pack_add(g, IK_DAGGER);
    g->pack_ench[slot] = -1;
    g->pack_flags[slot] = ITEM_F_KNOWN;
    game_key(g, 't');
    game_key(g, 'a' + slot);
    ck_assert_int_eq(g->mode, MODE_TARGET);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "Throw the -1 dagger: move the cursor; Enter or . "
                     "throws, Esc cancels.");
    game_key(g, KEY_ESC);
    ck_assert_str_eq(game_msg(g, 0)->text, "You keep the -1 dagger.");
    g->pack_flags[slot] = 0; /* not known: its enchantment unsaid */
    game_key(g, 't');
    game_key(g, 'a' + slot);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "Throw the dagger: move the cursor; Enter or . throws, "
                     "Esc cancels.");
    game_free(g);
}
END_TEST

START_TEST(a_wand_is_zapped)
{
    game_t *g = arena_explored();
    put(g, MON_ORC, 14, 8, 0);
    int slot = item_pack_add(g, IK_WAND_SLEEP);
    g->pack_n[slot] = 3; /* (a wand's count is its charges) */
    game_key(g, 'i');
    game_key(g, 'a' + slot);
    ck_assert_int_eq(g->mode, MODE_TARGET);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "Aim the wand of sleep: move the cursor; Enter or . zaps, "
                     "Esc cancels.");
    /* put away with the charges it has (a play-test read "(1 charge)"
     * whatever was left) */
    game_key(g, 27);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You put the wand of sleep (3 charges) away.");
    game_free(g);
}
END_TEST

/* --- autopickup -------------------------------------------------------------- */

/* Explore walks onto a potion and autopickup takes it: told once, as
 * taken (it was "You see a health potion here." then "You pick up
 * ..."); with autopickup off, the step tells what lies there. */
START_TEST(autopickup_tells_an_item_once)
{
    game_t *g = arena_explored();
    game_key(g, 'A');
    item_put(g, ITEM_THING, IK_HEALTH_POTION, 13, 8, 0);
    game_update_fov(g);
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->player.x, 13);
    ck_assert_int_eq(g->pack_count, 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You pick up a health potion (a).");
    ck_assert_int_eq(arena_log_count(g, "health potion"), 1);
    ck_assert_int_eq(arena_log_count(g, "You see"), 0);
    game_free(g);

    g = arena_explored();
    item_put(g, ITEM_THING, IK_HEALTH_POTION, 13, 8, 0);
    game_update_fov(g);
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->pack_count, 0);
    ck_assert_str_eq(game_msg(g, 0)->text, "You see a health potion here.");
    game_free(g);
}
END_TEST

/* A line of the turn's end after the step's ("You feel yourself slow
 * down."): the step's is still taken back, the other kept in its place
 * (the newest line alone was looked at, and the item told twice). */
START_TEST(autopickup_tells_an_item_once_after_a_turns_end_line)
{
    game_t *g = arena_explored();
    game_key(g, 'A');
    item_put(g, ITEM_THING, IK_HEALTH_POTION, 13, 8, 0);
    game_update_fov(g);
    g->player.haste = 3; /* it ends with the third step's turn */
    ck_assert_int_eq(game_key(g, 'o'), 1);
    ck_assert_int_eq(g->player.x, 13);
    ck_assert_int_eq(g->pack_count, 1);
    ck_assert_str_eq(game_msg(g, 0)->text,
                     "You pick up a health potion (a).");
    ck_assert_str_eq(game_msg(g, 1)->text, "You feel yourself slow down.");
    ck_assert(game_msg_is_new(g, 1));
    ck_assert_int_eq(arena_log_count(g, "health potion"), 1);
    ck_assert_int_eq(arena_log_count(g, "You see"), 0);
    game_free(g);
}
END_TEST

/* --- the history ------------------------------------------------------------- */

/* 200 lines of a fight's length (about 35 characters, as a game's are on
 * average) are all kept: 128 were before. */
START_TEST(the_history_keeps_more_than_128_lines)
{
    game_t *g = arena_room(1, NULL);
    for (int i = 0; i < 200; i++)
        game_log(g, MSG_BAD, "The goblin hits you for %d damage! %03d", i % 7,
                 i);
    ck_assert_int_ge(g->log_count, 200);
    char want[MSG_LEN];
    for (int i = 0; i < 200; i++) {
        snprintf(want, sizeof want, "The goblin hits you for %d damage! %03d",
                 (199 - i) % 7, 199 - i);
        ck_assert_str_eq(game_msg(g, i)->text, want);
    }
    game_free(g);
}
END_TEST

/* xorshift: this file's own numbers, not the core's. */
static uint64_t next_number(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The bytes of a line's record: 8 of header, the text and its NUL,
 * rounded up to 4. */
static int record_bytes(const char *text)
{
    return (int)((8 + strlen(text) + 1 + 3) / 4 * 4);
}

/* Lines of every length from 1 to 79, logged one after another (none
 * merges: each ends in its number), some taken back (the newest or the
 * one before it): the log keeps the newest of them in order, text and
 * kind, and drops an old one only for room. When it last dropped one,
 * the new record (at most 88 bytes) did not fit with it: the bytes unused
 * at the ring's end and before its oldest line were fewer than the
 * record's and a record's, so the bytes kept and the next older line's
 * are more than LOG_BYTES less a record of 88, until a line is taken
 * back (its room is free until lines fill it: then the test allows a
 * second record's). */
START_TEST(the_history_keeps_the_newest_lines_that_fit)
{
    enum { LINES = 3000 };
    static char sent[LINES][MSG_LEN];
    static int kinds[LINES];
    game_t *g = arena_room(1, NULL);
    uint64_t s = 88172645463325252ull;
    int n = 0, base = g->log_count, unsaid = 0; /* since the last drop */
    for (int i = 0; i < LINES; i++) {
        int len = 1 + (int)(next_number(&s) % 79), before = g->log_count;
        char text[MSG_LEN];
        int k = snprintf(text, sizeof text, "%d ", i);
        for (; k < len; k++)
            text[k] = (char)('a' + k % 26);
        text[len > k ? len : k] = '\0';
        kinds[n] = (int)(next_number(&s) % 7);
        game_log(g, kinds[n], "%s", text);
        snprintf(sent[n++], MSG_LEN, "%s", text);
        if (g->log_count != before + 1)
            unsaid = 0; /* a line dropped for room */
        uint64_t back = next_number(&s) % 10;
        if (back == 0 && n > 1) { /* taken back */
            game_log_unsay(g, 0);
            n--;
            unsaid = 1;
        } else if (back == 1 && n > 2 && g->log_count > 2) {
            game_log_unsay(g, 1); /* the one before: the newest moves down */
            memcpy(sent[n - 2], sent[n - 1], MSG_LEN);
            kinds[n - 2] = kinds[n - 1];
            n--;
            unsaid = 1;
        }
        int kept = g->log_count, bytes = 0;
        if (kept > n) { /* the arena's own lines still there */
            ck_assert_int_eq(kept, n + base);
            continue;
        }
        if (i % 16 != 0 && i != LINES - 1)
            continue; /* the whole log checked every 16th line: fast enough */
        for (int j = 0; j < kept; j++) {
            const msg_t *m = game_msg(g, j);
            ck_assert_str_eq(m->text, sent[n - 1 - j]);
            ck_assert_int_eq(m->kind, kinds[n - 1 - j]);
            bytes += record_bytes(m->text);
        }
        if (kept < n && kept < LOG_MAX)
            ck_assert_int_gt(bytes + record_bytes(sent[n - 1 - kept]),
                             LOG_BYTES - (unsaid ? 2 : 1) * 88);
    }
    game_free(g);
}
END_TEST

/* --- a fleeing archer ------------------------------------------------------- */

/* An orc archer at 1 hp flees down the corridor: in view and in range
 * for its first turns, it shoots at none of them (in half of them it
 * did, whatever the seed). */
START_TEST(a_fleeing_archer_does_not_shoot)
{
    for (uint64_t seed = 1; seed <= 10; seed++) {
        game_t *g = arena_room(1, NULL);
        arena_corridor(g);
        g->player.hp = g->player.max_hp = 500;
        int a = put(g, MON_ARCHER, 13, 8, 0);
        g->monsters[a].hp = 1;
        game_update_fov(g);
        rng_seed(&g->rng, seed);
        for (int t = 0; t < 3; t++) {
            game_key(g, '.');
            ck_assert(game_lit(g, g->monsters[a].x, 8));
        }
        ck_assert_int_gt(g->monsters[a].x, 15); /* it ran */
        ck_assert_int_eq(arena_log_count(g, "shoots at you"), 0);
        ck_assert_int_eq(arena_log_count(g, "The orc archer flees!"), 1);
        game_free(g);
    }
}
END_TEST

/* Cornered at the corridor's dead end, in range, it shoots every turn,
 * whatever the seed (no roll: one not fleeing shoots in half its turns). */
START_TEST(a_cornered_fleeing_archer_shoots)
{
    for (uint64_t seed = 1; seed <= 10; seed++) {
        game_t *g = arena_room(1, NULL);
        arena_corridor(g);
        for (int x = 16; x <= 40; x++)
            g->map.tile[8][x] = TILE_WALL;
        g->player.hp = g->player.max_hp = 500;
        int a = put(g, MON_ARCHER, 15, 8, 0);
        g->monsters[a].hp = 1;
        game_update_fov(g);
        rng_seed(&g->rng, seed);
        for (int t = 1; t <= 3; t++) {
            game_key(g, '.');
            ck_assert_int_eq(g->monsters[a].x, 15);
            ck_assert_int_eq(
                arena_log_count(g, "The orc archer shoots at you!"), t);
        }
        game_free(g);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("telling10");
    TCase *tc = tcase_create("version 10");
    tcase_add_test(tc, a_confusion_ending_out_of_view_is_not_told);
    tcase_add_test(tc, a_confused_blow_out_of_view_is_not_told);
    tcase_add_test(tc, lines_merge_only_about_the_same_monster);
    tcase_add_test(tc, a_run_past_255_starts_a_new_line);
    tcase_add_test(tc, an_arrival_is_told_before_its_blow);
    tcase_add_test(tc, an_arrival_after_more_than_32_lines_is_told_after_them);
    tcase_add_test(tc, the_throw_prompt_names_the_known_enchantment);
    tcase_add_test(tc, a_wand_is_zapped);
    tcase_add_test(tc, autopickup_tells_an_item_once);
    tcase_add_test(tc, autopickup_tells_an_item_once_after_a_turns_end_line);
    tcase_add_test(tc, the_history_keeps_more_than_128_lines);
    tcase_add_test(tc, the_history_keeps_the_newest_lines_that_fit);
    tcase_add_test(tc, a_fleeing_archer_does_not_shoot);
    tcase_add_test(tc, a_cornered_fleeing_archer_shoots);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
