/* test_combat.c - the four rulesets with scripted rolls: exact damage for
 * exact rolls, the 0-damage floor, critical doubling, misses, dice-pool hits
 * minus blocks, and the log lines of each. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "combat.h"
#include "monster.h"

/* A scripted RNG: hands out the rolls it was given, in order, and checks
 * that each lies in the range asked for. */
typedef struct script {
    const int *rolls;
    int n, used;
    int lo[32], hi[32]; /* the ranges asked for */
} script_t;

static int scripted(void *ctx, int lo, int hi)
{
    script_t *s = ctx;
    ck_assert_msg(s->used < s->n, "roll %d asked for, only %d scripted",
                  s->used + 1, s->n);
    int v = s->rolls[s->used];
    ck_assert_msg(v >= lo && v <= hi, "scripted roll %d outside %d..%d", v,
                  lo, hi);
    if (s->used < 32) {
        s->lo[s->used] = lo;
        s->hi[s->used] = hi;
    }
    s->used++;
    return v;
}

#define SCRIPT(name, ...)                                                  \
    static const int name##_rolls[] = { __VA_ARGS__ };                     \
    script_t name = { name##_rolls, sizeof name##_rolls / sizeof(int), 0,  \
                      { 0 }, { 0 } }

static fighter_t player(int hp, int bonus)
{
    fighter_t f;
    combat_fighter(&f, monster_player_stats(), 1, hp, bonus);
    return f;
}

static fighter_t monster(int kind)
{
    fighter_t f;
    combat_fighter(&f, monster_stats(kind), 0, monster_stats(kind)->hp, 0);
    return f;
}

static int no_roll(void *ctx, int lo, int hi)
{
    (void)ctx;
    (void)lo;
    (void)hi;
    ck_abort_msg("this ruleset rolls nothing");
    return 0;
}

START_TEST(power_always_hits_for_power)
{
    fighter_t you = player(30, 0), gob = monster(MON_GOBLIN);
    combat_result_t r;
    combat_resolve(RULES_POWER, &you, &gob, no_roll, NULL, &r);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_int_eq(r.damage, 5);
    ck_assert_int_eq(r.nlines, 1);
    ck_assert_str_eq(r.line[0].text, "You hit the goblin for 5. (Goblin: 1 hp)");
    ck_assert_int_eq(r.line[0].kind, MSG_GOOD);

    combat_resolve(RULES_POWER, &gob, &you, no_roll, NULL, &r);
    ck_assert_int_eq(r.damage, 3);
    ck_assert_str_eq(r.line[0].text, "The goblin hits you for 3. (You: 27 hp)");
    ck_assert_int_eq(r.line[0].kind, MSG_BAD);

    /* The hp shown never goes below 0; the damage is not capped. */
    fighter_t troll = monster(MON_TROLL);
    you.hp = 4;
    combat_resolve(RULES_POWER, &troll, &you, no_roll, NULL, &r);
    ck_assert_int_eq(r.damage, 5);
    ck_assert_str_eq(r.line[0].text, "The troll hits you for 5. (You: 0 hp)");
    /* Levels add to power. */
    fighter_t strong = player(30, 2);
    combat_resolve(RULES_POWER, &strong, &troll, no_roll, NULL, &r);
    ck_assert_int_eq(r.damage, 7);
}
END_TEST

START_TEST(attack_defense_exact_damage_and_crits)
{
    fighter_t you = player(30, 0), orc = monster(MON_ORC);
    combat_result_t r;
    SCRIPT(plain, 11);
    combat_resolve(RULES_ATTACK_DEFENSE, &you, &orc, scripted, &plain, &r);
    ck_assert_int_eq(plain.used, 1);
    ck_assert_int_eq(plain.lo[0], 1);
    ck_assert_int_eq(plain.hi[0], 100);
    ck_assert_int_eq(r.crit, 0);
    ck_assert_int_eq(r.damage, 3); /* 5 - 2 (the orc's defense 2 since
                                      game version 8) */
    ck_assert_str_eq(r.line[0].text, "You hit the orc for 3 damage!");

    SCRIPT(crit, 10); /* <= 10 of 100: the 10% critical hit */
    combat_resolve(RULES_ATTACK_DEFENSE, &you, &orc, scripted, &crit, &r);
    ck_assert_int_eq(r.crit, 1);
    ck_assert_int_eq(r.damage, 6);
    ck_assert_str_eq(r.line[0].text, "Critical hit! You hit the orc for 6 damage!");

    SCRIPT(low, 1);
    combat_resolve(RULES_ATTACK_DEFENSE, &orc, &you, scripted, &low, &r);
    ck_assert_int_eq(r.damage, 4); /* (4 - 2) x 2 */
    ck_assert_str_eq(r.line[0].text, "Critical hit! The orc hits you for 4 damage!");
    ck_assert_int_eq(r.line[0].kind, MSG_BAD);
}
END_TEST

START_TEST(attack_defense_zero_floor)
{
    fighter_t you = player(30, 0), rat = monster(MON_RAT);
    combat_result_t r;
    SCRIPT(a, 57);
    combat_resolve(RULES_ATTACK_DEFENSE, &rat, &you, scripted, &a, &r);
    ck_assert_int_eq(r.damage, 0); /* 1 - 2 floors at 0 */
    ck_assert_str_eq(r.line[0].text, "The rat hits you but deals no damage.");
    SCRIPT(b, 3);
    combat_resolve(RULES_ATTACK_DEFENSE, &rat, &you, scripted, &b, &r);
    ck_assert_int_eq(r.crit, 1);
    ck_assert_int_eq(r.damage, 0); /* double nothing is nothing */
    /* and is not told as a critical hit (game version 9) */
    ck_assert_str_eq(r.line[0].text, "The rat hits you but deals no damage.");
    fighter_t weak = you;
    weak.attack = 1;
    fighter_t troll = monster(MON_TROLL);
    SCRIPT(c, 99);
    combat_resolve(RULES_ATTACK_DEFENSE, &weak, &troll, scripted, &c, &r);
    ck_assert_int_eq(r.damage, 0);
    ck_assert_str_eq(r.line[0].text, "You hit the troll but deal no damage.");
}
END_TEST

START_TEST(d10_hits_misses_and_armor)
{
    fighter_t you = player(30, 0), skel = monster(MON_SKELETON);
    combat_result_t r;
    /* d10: fist 1-3, to-hit +2 against bone AC 4, defense 2 (the
     * tutorial's 3, lowered: the fist could not hurt a skeleton). */
    SCRIPT(miss, 2); /* 2 + 2 = 4, not > 4 */
    combat_resolve(RULES_D10, &you, &skel, scripted, &miss, &r);
    ck_assert_int_eq(miss.used, 1); /* no damage roll on a miss */
    ck_assert_int_eq(miss.lo[0], 1);
    ck_assert_int_eq(miss.hi[0], 10);
    ck_assert_int_eq(r.hit, 0);
    ck_assert_int_eq(r.damage, 0);
    ck_assert_str_eq(r.line[0].text, "You swing your fist at the skeleton and miss.");

    /* Bone armour 1 (game version 7; the sources' 2 made the skeleton
     * d10's wall at depth 2: docs/balance.md). */
    SCRIPT(hit, 3, 1); /* 5 > 4 hits; 1 - 1 = 0: the floor */
    combat_resolve(RULES_D10, &you, &skel, scripted, &hit, &r);
    ck_assert_int_eq(hit.lo[1], 1);
    ck_assert_int_eq(hit.hi[1], 3);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_int_eq(r.damage, 0);
    ck_assert_str_eq(r.line[0].text, "You swing your fist at the skeleton "
                                     "and hit, but deal no damage.");

    /* Short sword 1-5 (game version 7), to-hit +0 against the burlap sack
     * AC 1, defense 1. */
    SCRIPT(back, 2, 5);
    combat_resolve(RULES_D10, &skel, &you, scripted, &back, &r);
    ck_assert_int_eq(back.lo[1], 1);
    ck_assert_int_eq(back.hi[1], 5);
    ck_assert_int_eq(r.damage, 4);
    ck_assert_str_eq(r.line[0].text,
                     "The skeleton swings its short sword at you and hits for 4.");
    SCRIPT(whiff, 1); /* 1 + 0 = 1, not > 1 */
    combat_resolve(RULES_D10, &skel, &you, scripted, &whiff, &r);
    ck_assert_int_eq(r.hit, 0);
    ck_assert_str_eq(r.line[0].text,
                     "The skeleton swings its short sword at you and misses.");

    /* Two levels: +2 to both ends of the fist. */
    fighter_t strong = player(30, 2);
    SCRIPT(lvl, 10, 5);
    combat_resolve(RULES_D10, &strong, &skel, scripted, &lvl, &r);
    ck_assert_int_eq(lvl.lo[1], 3);
    ck_assert_int_eq(lvl.hi[1], 5);
    ck_assert_int_eq(r.damage, 4);

    /* A monster's body is not swung (game version 11). */
    static const struct {
        int kind;
        const char *hit, *miss;
    } bodies[] = {
        { MON_WOLF, "The wolf bites at you and hits for ",
          "The wolf bites at you and misses." },
        { MON_BAT, "The giant bat bites at you and hits for ",
          "The giant bat bites at you and misses." },
        { MON_TROLL, "The troll claws at you and hits for ",
          "The troll claws at you and misses." },
        { MON_WRAITH, "The wraith reaches for you and hits for ",
          "The wraith reaches for you and misses." },
        { MON_ARCHER, "The orc archer strikes at you with its bow and hits "
          "for ", "The orc archer strikes at you with its bow and misses." },
    };
    /* and no kind's body at all, on a hit, a miss or a blow for nothing */
    for (int k = 0; k < MON_COUNT; k++) {
        fighter_t m = monster(k);
        if (m.breath)
            continue;
        const int rolls[] = { 10, m.dmg_min };
        script_t one = { rolls, 2, 0, { 0 }, { 0 } };
        fighter_t hard = you;
        hard.armor_defense = 100; /* every blow for nothing */
        combat_resolve(RULES_D10, &m, &hard, scripted, &one, &r);
        static const char *const bodies_words[] = { "teeth", "fangs", "claws",
                                                    "touch", "fire", "bow" };
        for (size_t w = 0; w < sizeof bodies_words / sizeof bodies_words[0];
             w++) {
            char swung[32];
            snprintf(swung, sizeof swung, "swings its %s", bodies_words[w]);
            ck_assert_msg(!strstr(r.line[0].text, swung), "%s",
                          r.line[0].text);
        }
        ck_assert_msg(strstr(r.line[0].text, " and hits, but deals no "
                                             "damage."), "%s", r.line[0].text);
    }
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        fighter_t m = monster(bodies[i].kind);
        const int rolls[] = { 10, m.dmg_max }; /* its hardest blow */
        script_t bite = { rolls, 2, 0, { 0 }, { 0 } };
        combat_resolve(RULES_D10, &m, &you, scripted, &bite, &r);
        ck_assert_int_gt(r.damage, 0);
        ck_assert_msg(strncmp(r.line[0].text, bodies[i].hit,
                              strlen(bodies[i].hit)) == 0, "%s",
                      r.line[0].text);
        SCRIPT(snap, 1);
        m.to_hit = 0;
        combat_resolve(RULES_D10, &m, &you, scripted, &snap, &r);
        ck_assert_str_eq(r.line[0].text, bodies[i].miss);
    }
}
END_TEST

START_TEST(dice_pool_hits_minus_blocks)
{
    fighter_t you = player(30, 0), gob = monster(MON_GOBLIN);
    combat_result_t r;
    /* 5 attack dice at 50%: a die >= 50 hits. The goblin: 1 die at 30%. */
    SCRIPT(s, 50, 49, 100, 1, 75, 70);
    combat_resolve(RULES_DICE_POOL, &you, &gob, scripted, &s, &r);
    ck_assert_int_eq(s.used, 6);
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(s.lo[i], 1);
        ck_assert_int_eq(s.hi[i], 100);
    }
    ck_assert_int_eq(r.damage, 2); /* 3 hits - 1 block */
    ck_assert_int_eq(r.nlines, 1); /* compact: one line */
    ck_assert_str_eq(r.line[0].text,
                     "You hit the goblin: [50 49 100 1 75] 3 vs [70] 1 = 2 damage.");

    /* No hit: no defense roll. */
    SCRIPT(m, 1, 2, 3, 4, 49);
    combat_resolve(RULES_DICE_POOL, &you, &gob, scripted, &m, &r);
    ck_assert_int_eq(m.used, 5);
    ck_assert_int_eq(r.hit, 0);
    ck_assert_int_eq(r.damage, 0);
    ck_assert_int_eq(r.nlines, 1);
    ck_assert_str_eq(r.line[0].text, "You miss the goblin: [1 2 3 4 49] 0.");

    /* Blocks >= hits: no damage, never negative. The player defends with 2
     * dice at 40% (>= 60 blocks); the goblin attacks with 3 at 40%. */
    SCRIPT(b, 60, 10, 20, 99, 60);
    combat_resolve(RULES_DICE_POOL, &gob, &you, scripted, &b, &r);
    ck_assert_int_eq(r.damage, 0);
    ck_assert_str_eq(r.line[0].text,
                     "The goblin hits you: [60 10 20] 1 vs [99 60] 2 = blocked.");
    ck_assert_int_eq(r.line[0].kind, MSG_BAD);

    SCRIPT(h, 100, 100, 100, 1, 1);
    combat_resolve(RULES_DICE_POOL, &gob, &you, scripted, &h, &r);
    ck_assert_int_eq(r.damage, 3);
    ck_assert_str_eq(r.line[0].text,
                     "The goblin hits you: [100 100 100] 3 vs [1 1] 0 = 3 damage.");

    /* A long pool is cut before " vs " into a second line. */
    fighter_t big = player(30, 12); /* 17 dice */
    SCRIPT(l, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
           99, 1);
    combat_resolve(RULES_DICE_POOL, &big, &gob, scripted, &l, &r);
    ck_assert_int_eq(r.nlines, 2);
    ck_assert_str_eq(r.line[0].text,
                     "You hit the goblin: [99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99 99] 17");
    ck_assert_str_eq(r.line[1].text, "  vs [1] 0 = 17 damage.");

    /* A rat has no defense dice. */
    fighter_t rat = monster(MON_RAT);
    SCRIPT(n, 90, 1, 1, 1, 1);
    combat_resolve(RULES_DICE_POOL, &you, &rat, scripted, &n, &r);
    ck_assert_int_eq(r.damage, 1);
    ck_assert_str_eq(r.line[0].text,
                     "You hit the rat: [90 1 1 1 1] 1 vs [none] 0 = 1 damage.");
}
END_TEST

START_TEST(level_bonus_and_ruleset_names)
{
    fighter_t f = player(35, 2);
    ck_assert_int_eq(f.attack, 7);
    ck_assert_int_eq(f.dmg_min, 3);
    ck_assert_int_eq(f.dmg_max, 5);
    ck_assert_int_eq(f.att_dice, 7);
    ck_assert_int_eq(f.defense, 2);
    ck_assert_int_eq(f.armor_class, 1);
    for (int r = 0; r < RULES_COUNT; r++) {
        ck_assert_int_eq(combat_ruleset_parse(combat_ruleset_name(r)), r);
        ck_assert_ptr_nonnull(strstr(combat_ruleset_names(), combat_ruleset_name(r)));
    }
    ck_assert_str_eq(combat_ruleset_name(0), "attack-defense");
    ck_assert_int_eq(combat_ruleset_parse("power"), RULES_POWER);
    ck_assert_int_eq(combat_ruleset_parse("d10"), RULES_D10);
    ck_assert_int_eq(combat_ruleset_parse("dice-pool"), RULES_DICE_POOL);
    ck_assert_int_eq(combat_ruleset_parse("Power"), -1);
    ck_assert_int_eq(combat_ruleset_parse(""), -1);
    ck_assert_ptr_null(combat_ruleset_name(RULES_COUNT));
}
END_TEST

START_TEST(content_table_is_complete)
{
    /* Every kind carries every ruleset's numbers, XP and a gold range. */
    static const char glyphs[] = "rkgosTbatSOWNDhw";
    ck_assert_int_eq(MON_COUNT, 16);
    for (int k = 0; k < MON_COUNT; k++) {
        const creature_stats_t *s = monster_stats(k);
        ck_assert_int_eq(s->glyph, glyphs[k]);
        ck_assert(s->hp > 0 && s->attack > 0 && s->defense >= 0);
        ck_assert(s->weapon && s->armor && s->dmg_min >= 1 &&
                  s->dmg_max >= s->dmg_min && s->armor_class > 0);
        ck_assert(s->att_dice > 0 && s->att_chance > 0 && s->def_dice >= 0);
        ck_assert(s->xp > 0 && s->gold_max >= s->gold_min && s->gold_min >= 0);
    }
    /* The sources' numbers. */
    ck_assert_int_eq(monster_stats(MON_GOBLIN)->hp, 6);
    ck_assert_int_eq(monster_stats(MON_ORC)->attack, 4);
    ck_assert_int_eq(monster_stats(MON_TROLL)->hp, 16);
    ck_assert_int_eq(monster_stats(MON_TROLL)->defense, 3); /* 2 to v7 */
    ck_assert_int_eq(monster_stats(MON_SKELETON)->armor_class, 4);
    ck_assert_int_eq(monster_stats(MON_SKELETON)->armor_defense, 1); /* 2 to v6 */
    ck_assert_int_eq(monster_player_stats()->hp, 30);
    ck_assert_str_eq(monster_article(MON_ORC), "an");
    ck_assert_str_eq(monster_article(MON_TROLL), "a");
}
END_TEST

START_TEST(deeper_levels_draw_stronger_kinds)
{
    /* The share of the strong kinds (orc, skeleton, troll) grows with depth,
     * the rat stops appearing, the skeleton starts below the first level. */
    int strong[4] = { 0 };
    for (int depth = 1; depth <= 4; depth++) {
        rng_t r;
        rng_seed(&r, 77);
        for (int i = 0; i < 4000; i++) {
            int k = monster_pick_kind(&r, depth);
            ck_assert(k >= 0 && k < MON_COUNT);
            strong[depth - 1] += k >= MON_ORC;
        }
        if (depth > 1)
            ck_assert_int_gt(strong[depth - 1], strong[depth - 2]);
    }
    ck_assert_int_eq(monster_weight(MON_SKELETON, 1), 0);
    ck_assert_int_gt(monster_weight(MON_SKELETON, 2), 0);
    ck_assert_int_eq(monster_weight(MON_RAT, 5), 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("combat");
    TCase *tc = tcase_create("rulesets");
    tcase_add_test(tc, power_always_hits_for_power);
    tcase_add_test(tc, attack_defense_exact_damage_and_crits);
    tcase_add_test(tc, attack_defense_zero_floor);
    tcase_add_test(tc, d10_hits_misses_and_armor);
    tcase_add_test(tc, dice_pool_hits_minus_blocks);
    tcase_add_test(tc, level_bonus_and_ruleset_names);
    tcase_add_test(tc, content_table_is_complete);
    tcase_add_test(tc, deeper_levels_draw_stronger_kinds);
    suite_add_tcase(s, tc);
    return s;
}

CHECK_MAIN(make_suite)
