/* combat.c - the four rulesets of docs/game.md ("Combat"), each as written
 * in its source tutorial, with its log lines (in the second person for the
 * player); dice-pool's in a compact form of one line (two if long). */
#include "combat.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef void (*resolve_fn)(const fighter_t *att, const fighter_t *def,
                           combat_roll_fn roll, void *ctx,
                           combat_result_t *out);

/* "You" / "The goblin" / "The dragon's fire" (a breath) */
static const char *subject(const fighter_t *f, char *buf, size_t n)
{
    if (f->is_player)
        return "You";
    snprintf(buf, n, f->breath ? "The %s's fire" : "The %s", f->name);
    return buf;
}

/* "you" / "the goblin" */
static const char *object(const fighter_t *f, char *buf, size_t n)
{
    if (f->is_player)
        return "you";
    snprintf(buf, n, "the %s", f->name);
    return buf;
}

/* The verb for the subject: "hit" for you, "hits" for a monster. */
static const char *verb(const fighter_t *f, const char *you, const char *it)
{
    return f->is_player ? you : it;
}

/* The verb of a blow that connects: a breath burns. */
static const char *hit_verb(const fighter_t *f)
{
    return f->breath ? "burns" : verb(f, "hit", "hits");
}

/* A breath that does no damage does no harm rather than burn ("The
 * dragon's fire does you no harm"; game version 9: "burns you for 0"). */
static int harmless_breath(const fighter_t *att, int dmg)
{
    return att->breath && dmg == 0;
}

/* "The dragon's fire does you no harm", into buf (NO_HARM_LEN bytes). */
#define NO_HARM_LEN 128
static const char *no_harm(const fighter_t *att, const fighter_t *def,
                           char *buf)
{
    char a[48], d[48];
    snprintf(buf, NO_HARM_LEN, "%s does %s no harm", subject(att, a, sizeof a),
             object(def, d, sizeof d));
    return buf;
}

static void add_line(combat_result_t *out, const fighter_t *att,
                     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add_line(combat_result_t *out, const fighter_t *att,
                     const char *fmt, ...)
{
    if (out->nlines >= COMBAT_MAX_LINES)
        return;
    combat_line_t *l = &out->line[out->nlines++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->text, sizeof l->text, fmt, ap);
    va_end(ap);
    l->kind = att->is_player ? MSG_GOOD : MSG_BAD;
}

/* Power: always hits; the defender loses the attacker's power, less what
 * its armour absorbs. "The goblin hits you for 3. (You: 27 hp)" */
static void resolve_power(const fighter_t *att, const fighter_t *def,
                          combat_roll_fn roll, void *ctx,
                          combat_result_t *out)
{
    (void)roll;
    (void)ctx;
    char a[48], d[48];
    int dmg = att->attack - def->absorb > 0 ? att->attack - def->absorb : 0;
    int left = def->hp - dmg > 0 ? def->hp - dmg : 0;
    out->hit = 1;
    out->damage = dmg;
    char h[NO_HARM_LEN];
    if (harmless_breath(att, dmg))
        add_line(out, att, "%s. (You: %d hp)", no_harm(att, def, h), left);
    else if (def->is_player)
        add_line(out, att, "%s %s %s for %d. (You: %d hp)",
                 subject(att, a, sizeof a), hit_verb(att),
                 object(def, d, sizeof d), dmg, left);
    else
        add_line(out, att, "%s %s %s for %d. (%c%s: %d hp)",
                 subject(att, a, sizeof a), verb(att, "hit", "hits"),
                 object(def, d, sizeof d), dmg,
                 def->name[0] >= 'a' && def->name[0] <= 'z'
                     ? def->name[0] - 'a' + 'A' : def->name[0],
                 def->name + 1, left);
}

/* Attack-defense: damage = max(0, attack - defense); a 10% critical hit
 * doubles it.
 * "You hit the orc for 4 damage!" / "... but deal no damage." */
static void resolve_attack_defense(const fighter_t *att, const fighter_t *def,
                                   combat_roll_fn roll, void *ctx,
                                   combat_result_t *out)
{
    char a[48], d[48];
    int dmg = att->attack - def->defense;
    if (dmg < 0)
        dmg = 0;
    out->hit = 1;
    out->crit = roll(ctx, 1, 100) <= COMBAT_CRIT_PCT;
    if (out->crit)
        dmg *= 2;
    out->damage = dmg;
    /* A critical hit that doubles nothing is not told: "Critical hit!"
     * over no damage read as a bug (game version 9). */
    const char *crit = out->crit && dmg > 0 ? "Critical hit! " : "";
    char h[NO_HARM_LEN];
    if (harmless_breath(att, dmg))
        add_line(out, att, "%s.", no_harm(att, def, h));
    else if (dmg > 0)
        add_line(out, att, "%s%s %s %s for %d damage!", crit,
                 subject(att, a, sizeof a), hit_verb(att),
                 object(def, d, sizeof d), dmg);
    else
        add_line(out, att, "%s%s %s %s but %s no damage.", crit,
                 subject(att, a, sizeof a), hit_verb(att),
                 object(def, d, sizeof d), verb(att, "deal", "deals"));
}

/* d10's damage of a blow that hit: a roll in the weapon's range - the
 * armor's defense, at least 0. */
static int d10_damage(const fighter_t *att, const fighter_t *def,
                      combat_roll_fn roll, void *ctx)
{
    int dmg = roll(ctx, att->dmg_min, att->dmg_max) - def->armor_defense;
    return dmg > 0 ? dmg : 0;
}

/* d10's line for a breath that hit or missed (out->hit set): the same
 * rolls as a blow. */
static void d10_breath(const fighter_t *att, const fighter_t *def,
                       combat_roll_fn roll, void *ctx, combat_result_t *out)
{
    char a[48], d[48], h[NO_HARM_LEN];
    if (!out->hit) {
        add_line(out, att, "%s misses %s.", subject(att, a, sizeof a),
                 object(def, d, sizeof d));
        return;
    }
    out->damage = d10_damage(att, def, roll, ctx);
    if (harmless_breath(att, out->damage))
        add_line(out, att, "%s.", no_harm(att, def, h));
    else
        add_line(out, att, "%s burns %s for %d.", subject(att, a, sizeof a),
                 object(def, d, sizeof d), out->damage);
}

/* A d10 blow's start: "You swing your fist at the skeleton", "The orc
 * swings its axe at you"; a monster's body is not swung (game version
 * 11: "The wolf swings its teeth at you"): "The wolf bites at you", "The
 * troll claws at you", "The wraith reaches for you", "The dragon bites
 * at you" (its melee: the breath is d10_breath's), "The orc archer
 * strikes at you with its bow". */
static void d10_blow(const fighter_t *att, const fighter_t *def, char *buf,
                     size_t n)
{
    static const struct {
        const char *weapon, *how;
    } natural[] = {
        { "teeth", "bites at" }, { "fangs", "bites at" },
        { "claws", "claws at" }, { "touch", "reaches for" },
        { "fire", "bites at" }, /* a dragon next to you: no breath */
    };
    char ab[48], db[48];
    const char *a = subject(att, ab, sizeof ab), *d = object(def, db, sizeof db);
    if (!att->is_player) {
        for (size_t i = 0; i < sizeof natural / sizeof natural[0]; i++)
            if (strcmp(att->weapon, natural[i].weapon) == 0) {
                snprintf(buf, n, "%s %s %s", a, natural[i].how, d);
                return;
            }
        if (strcmp(att->weapon, "bow") == 0) {
            snprintf(buf, n, "%s strikes at %s with its bow", a, d);
            return;
        }
    }
    snprintf(buf, n, "%s %s %s %s at %s", a, verb(att, "swing", "swings"),
             att->is_player ? "your" : "its", att->weapon, d);
}

/* d10: hit if d10 + to-hit > armor class; damage = a roll in the weapon's
 * range - the armor's defense, at least 0.
 * "You swing your fist at the skeleton and hit for 2." / "... and miss." /
 * "... and hit, but deal no damage." (version 11: "hit for 0") */
static void resolve_d10(const fighter_t *att, const fighter_t *def,
                        combat_roll_fn roll, void *ctx, combat_result_t *out)
{
    char blow[160];
    int to_hit = roll(ctx, 1, 10);
    out->hit = to_hit + att->to_hit > def->armor_class;
    if (att->breath) { /* no swing: "The dragon's fire burns you for 5." */
        d10_breath(att, def, roll, ctx, out);
        return;
    }
    d10_blow(att, def, blow, sizeof blow);
    if (!out->hit) {
        add_line(out, att, "%s and %s.", blow, verb(att, "miss", "misses"));
        return;
    }
    out->damage = d10_damage(att, def, roll, ctx);
    if (out->damage > 0)
        add_line(out, att, "%s and %s for %d.", blow, verb(att, "hit", "hits"),
                 out->damage);
    else
        add_line(out, att, "%s and %s, but %s no damage.", blow,
                 verb(att, "hit", "hits"), verb(att, "deal", "deals"));
}

/* Rolls n d100s; each >= 100 - chance is a success. Writes the faces as
 * "12 88 95" into list. Returns the successes. */
static int roll_pool(int n, int chance, combat_roll_fn roll, void *ctx,
                     char *list, size_t len)
{
    int successes = 0;
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < n; i++) {
        int face = roll(ctx, 1, 100);
        if (face >= 100 - chance)
            successes++;
        if (used < len) {
            int w = snprintf(list + used, len - used, "%s%d", i ? " " : "",
                             face);
            used += w > 0 ? (size_t)w : 0;
        }
    }
    return successes;
}

/* Dice-pool: the attacker rolls `attack` d100s, the defender `defense`
 * d100s; damage = hits - blocks. One compact line (docs/game.md explains it,
 * and so does the help screen):
 *   "You hit the goblin: [12 88 95] 2 vs [40 97] 1 = 1 damage."
 *   "The orc hits you: [90 71] 2 vs [80 65] 2 = blocked."
 *   "You miss the goblin: [12 30 41] 0."
 * A line too long for the log is cut before " vs ", which starts a second. */
static void resolve_dice_pool(const fighter_t *att, const fighter_t *def,
                              combat_roll_fn roll, void *ctx,
                              combat_result_t *out)
{
    char a[48], d[48], h[NO_HARM_LEN], hit_list[MSG_LEN], block_list[MSG_LEN];
    char first[4 * MSG_LEN], second[2 * MSG_LEN];
    int hits = roll_pool(att->att_dice, att->att_chance, roll, ctx, hit_list,
                         sizeof hit_list);
    if (hits == 0) {
        add_line(out, att, "%s %s %s: [%s] 0.", subject(att, a, sizeof a),
                 verb(att, "miss", "misses"), object(def, d, sizeof d),
                 hit_list);
        return;
    }
    out->hit = 1;
    int blocks = roll_pool(def->def_dice, def->def_chance, roll, ctx,
                           block_list, sizeof block_list);
    out->damage = hits > blocks ? hits - blocks : 0;
    if (harmless_breath(att, out->damage))
        snprintf(first, sizeof first, "%s: [%s] %d", no_harm(att, def, h),
                 hit_list, hits);
    else
        snprintf(first, sizeof first, "%s %s %s: [%s] %d",
                 subject(att, a, sizeof a), hit_verb(att),
                 object(def, d, sizeof d), hit_list, hits);
    if (!block_list[0]) /* no dice to block with (version 11: "[]") */
        snprintf(block_list, sizeof block_list, "none");
    if (out->damage > 0)
        snprintf(second, sizeof second, "vs [%s] %d = %d damage.",
                 block_list, blocks, out->damage);
    else
        snprintf(second, sizeof second, "vs [%s] %d = blocked.", block_list,
                 blocks);
    if (strlen(first) + 1 + strlen(second) < MSG_LEN) {
        add_line(out, att, "%s %s", first, second);
    } else {
        add_line(out, att, "%s", first);
        add_line(out, att, "  %s", second);
    }
}

/* The ruleset table: config name and rule, in enum ruleset order. */
static const struct {
    const char *name;
    resolve_fn resolve;
} rulesets[RULES_COUNT] = {
    [RULES_ATTACK_DEFENSE] = { "attack-defense", resolve_attack_defense },
    [RULES_POWER] = { "power", resolve_power },
    [RULES_D10] = { "d10", resolve_d10 },
    [RULES_DICE_POOL] = { "dice-pool", resolve_dice_pool },
};

void combat_fighter(fighter_t *f, const creature_stats_t *s, int is_player,
                    int hp, int bonus)
{
    memset(f, 0, sizeof *f);
    f->name = s->name;
    f->is_player = is_player;
    f->hp = hp;
    f->attack = s->attack + bonus;
    f->defense = s->defense;
    f->weapon = s->weapon;
    f->to_hit = s->to_hit;
    f->dmg_min = s->dmg_min + bonus;
    f->dmg_max = s->dmg_max + bonus;
    f->armor_defense = s->armor_defense;
    f->armor_class = s->armor_class;
    f->att_dice = s->att_dice + bonus;
    f->att_chance = s->att_chance;
    f->def_dice = s->def_dice;
    f->def_chance = s->def_chance;
}

void combat_resolve(int r, const fighter_t *att, const fighter_t *def,
                    combat_roll_fn roll, void *ctx, combat_result_t *out)
{
    memset(out, 0, sizeof *out);
    if (r < 0 || r >= RULES_COUNT)
        r = RULES_ATTACK_DEFENSE;
    rulesets[r].resolve(att, def, roll, ctx, out);
}

const char *combat_ruleset_name(int r)
{
    return r >= 0 && r < RULES_COUNT ? rulesets[r].name : NULL;
}

int combat_ruleset_parse(const char *name)
{
    for (int r = 0; r < RULES_COUNT; r++)
        if (strcmp(rulesets[r].name, name) == 0)
            return r;
    return -1;
}

const char *combat_ruleset_names(void)
{
    return "power, attack-defense, d10, dice-pool";
}
