/* turn.c - the rules of a turn after the player's action (docs/game.md,
 * "Turns"): blows and their outcomes, the monsters' phase (ai.c decides,
 * this file carries it out; a confused monster stumbles instead; the
 * behaviours of monster.h), regeneration, timed effects, the death check.
 * The rules of a blow are combat.c's. */
#include <string.h>

#include "ai.h"
#include "combat.h"
#include "world.h"

static int game_roll(void *ctx, int lo, int hi)
{
    return rng_range(ctx, lo, hi);
}

static int at_least(int v, int lo)
{
    return v > lo ? v : lo;
}

/* Adds a weapon of `kind` enchanted `ench` to the player's fighter f: it
 * replaces the fist (d10) and adds to attack, power and attack dice; the
 * enchantment adds to each (docs/game.md, "Enchanted and cursed
 * equipment"). */
static void add_weapon(fighter_t *f, int kind, int ench, int bonus)
{
    const item_stats_t *w = item_stats(kind);
    f->weapon = w->name;
    f->attack += w->attack + ench;
    f->to_hit = w->to_hit + ench;
    f->dmg_min = at_least(w->dmg_min + bonus + ench, 0);
    f->dmg_max = at_least(w->dmg_max + bonus + ench, f->dmg_min);
    f->att_dice = at_least(f->att_dice + w->dice + ench, 1);
}

/* Adds armour of `kind` enchanted `ench`: it replaces the burlap sack
 * (d10) and adds to defense, absorption and defense dice. Power's
 * absorption is the defense plus one (game version 8; twice the defense
 * before, which made deep monsters harmless in plate mail: docs/game.md,
 * "Equipment"). */
static void add_armour(fighter_t *f, int kind, int ench)
{
    const item_stats_t *a = item_stats(kind);
    int def = at_least(a->defense + ench, 0);
    f->defense += def;
    f->absorb = def > 0 ? def + 1 : 0;
    f->armor_defense = at_least(a->armor_defense + ench, 0);
    f->armor_class = a->armor_class + ench;
    f->def_dice = at_least(f->def_dice + a->dice + ench, 0);
}

/* The player in every ruleset's terms: the base row, the levels gained,
 * and what is wielded (or, for a throw, `thrown`: a kind, else -1,
 * enchanted `thrown_ench`) and worn (item.h). */
static void player_fighter_with(const game_t *g, fighter_t *f, int thrown,
                                int thrown_ench)
{
    const creature_stats_t *base = monster_player_stats();
    const player_t *p = &g->player;
    int bonus = p->attack - base->attack;
    combat_fighter(f, base, 1, p->hp, bonus);
    f->defense = p->defense;
    if (thrown >= 0)
        add_weapon(f, thrown, thrown_ench, bonus);
    else if (item_pack_has(g, p->weapon))
        add_weapon(f, g->pack[p->weapon], g->pack_ench[p->weapon], bonus);
    if (item_pack_has(g, p->armor))
        add_armour(f, g->pack[p->armor], g->pack_ench[p->armor]);
}

static void player_fighter(const game_t *g, fighter_t *f)
{
    player_fighter_with(g, f, -1, 0);
}

void game_player_fighter(const game_t *g, struct fighter *f)
{
    player_fighter(g, f);
}

static void monster_fighter(const monster_t *m, fighter_t *f)
{
    combat_fighter(f, monster_stats(m->kind), 0, m->hp, 0);
}

/* The blow's lines; a blow between two monsters (a confused one bumping
 * into another) is neither good nor bad for the player: MSG_INFO. */
static void log_blow(game_t *g, const combat_result_t *res, int neutral)
{
    for (int i = 0; i < res->nlines; i++)
        game_log(g, neutral ? MSG_INFO : res->line[i].kind, "%s",
                 res->line[i].text);
}

/* A monster at 0 hp dies: a corpse and its gold on the floor; XP and a
 * kill only when the player killed it. A death by another monster's blow
 * is told only if `told` (the player saw the blow: game version 10). */
static void monster_dies(game_t *g, monster_t *m, int by_player, int told)
{
    const creature_stats_t *k = monster_stats(m->kind);
    int gold = rng_range(&g->rng, k->gold_min, k->gold_max) + m->loot;
    m->loot = 0;
    m->hp = 0;
    m->alive = 0;
    m->confused = 0;
    item_put(g, ITEM_CORPSE, m->kind, m->x, m->y, 0);
    if (gold > 0)
        item_put(g, ITEM_GOLD, 0, m->x, m->y, gold);
    if (!by_player) {
        if (!told)
            return;
        if (gold > 0)
            game_log(g, MSG_KILL, "The %s dies, dropping %d gold.", k->name,
                     gold);
        else
            game_log(g, MSG_KILL, "The %s dies.", k->name);
        return;
    }
    g->kills++;
    g->kills_by[m->kind]++;
    if (gold > 0)
        game_log(g, MSG_KILL, "The %s dies, dropping %d gold. (+%d XP)",
                 k->name, gold, k->xp);
    else
        game_log(g, MSG_KILL, "The %s dies. (+%d XP)", k->name, k->xp);
    game_gain_xp(g, k->xp);
}

static void hurt_monster(game_t *g, int i, int dmg, int by_player, int told)
{
    monster_t *m = &g->monsters[i];
    if (!m->alive)
        return;
    m->hp -= dmg;
    if (dmg > 0)
        m->asleep = 0; /* a sleeper wakes when hurt */
    if (m->hp <= 0)
        monster_dies(g, m, by_player, told);
}

void game_hurt_monster(game_t *g, int i, int dmg, int by_player)
{
    hurt_monster(g, i, dmg, by_player, 1);
}

void game_hurt_player(game_t *g, int dmg, int killer)
{
    if (g->player.hp <= 0)
        return;
    g->player.hp -= dmg;
    if (g->player.hp <= 0) {
        g->player.hp = 0;
        g->killer = (uint8_t)killer;
    }
}

void game_player_throws(game_t *g, int kind, int ench, int i)
{
    fighter_t a, d;
    combat_result_t res;
    player_fighter_with(g, &a, kind, ench);
    monster_fighter(&g->monsters[i], &d);
    combat_resolve(g->opt.ruleset, &a, &d, game_roll, &g->rng, &res);
    game_log_about(g, &g->monsters[i]);
    log_blow(g, &res, 0);
    game_hurt_monster(g, i, res.damage, 1);
    game_log_about(g, NULL);
}

/* One blow of the player on the monster in slot i. A clumsy weapon
 * (item.h) first rolls whether it goes wide: a miss under every ruleset,
 * before the ruleset's own rolls. */
static void player_strikes(game_t *g, int i)
{
    fighter_t a, d;
    combat_result_t res;
    const player_t *p = &g->player;
    if (item_pack_has(g, p->weapon)) {
        const item_stats_t *w = item_stats(g->pack[p->weapon]);
        if (w->clumsy > 0 && rng_range(&g->rng, 1, 100) <= w->clumsy) {
            game_log(g, MSG_GOOD, "Your %s swings wide of the %s.", w->name,
                     monster_stats(g->monsters[i].kind)->name);
            return;
        }
    }
    player_fighter(g, &a);
    monster_fighter(&g->monsters[i], &d);
    combat_resolve(g->opt.ruleset, &a, &d, game_roll, &g->rng, &res);
    log_blow(g, &res, 0);
    game_hurt_monster(g, i, res.damage, 1);
}

/* The blow's lines are about its monster: a cleave's blows on two
 * goblins are two lines. */
static void player_blow(game_t *g, int i)
{
    game_log_about(g, &g->monsters[i]);
    player_strikes(g, i);
    game_log_about(g, NULL);
}

void game_player_attacks(game_t *g, int i)
{
    player_blow(g, i);
    const player_t *p = &g->player;
    if (!item_pack_has(g, p->weapon) || !item_stats(g->pack[p->weapon])->cleave)
        return;
    /* A cleaving weapon goes on round: every other monster next to the
     * player, in slot order, takes a blow of its own. */
    for (int j = 0; j < MAX_MONSTERS; j++) {
        const monster_t *m = &g->monsters[j];
        if (j != i && m->alive && ai_adjacent(m->x, m->y, p->x, p->y))
            player_blow(g, j);
    }
}

/* What a blow that hurt the player does besides: poison, drain, theft. */
static void blow_effects(game_t *g, monster_t *m)
{
    const creature_stats_t *k = monster_stats(m->kind);
    player_t *p = &g->player;
    if (p->hp <= 0)
        return;
    if ((k->flags & MF_POISON) && p->poison < k->power) {
        if (p->poison == 0)
            game_log(g, MSG_BAD, "You are poisoned!");
        p->poison = k->power;
    }
    if ((k->flags & MF_DRAIN) && p->max_hp > 10) {
        p->max_hp--;
        if (p->hp > p->max_hp)
            p->hp = p->max_hp;
        game_log(g, MSG_BAD, "The %s drains you: max HP %d.", k->name,
                 p->max_hp);
    }
    if ((k->flags & MF_STEAL) && !m->loot && p->gold > 0) {
        int take = p->gold < k->power ? p->gold : k->power;
        p->gold -= take;
        m->loot = (uint8_t)take;
        game_log(g, MSG_BAD, "The %s steals %d gold!", k->name, take);
    }
}

/* A blow of monster m on the player, next to it or from afar. */
static void monster_attacks(game_t *g, monster_t *m, int ranged)
{
    fighter_t a, d;
    combat_result_t res;
    monster_fighter(m, &a);
    player_fighter(g, &d);
    if (ranged) {
        const creature_stats_t *k = monster_stats(m->kind);
        /* The dragon's shot is its breath, told so in the blow's line
         * too (game version 9: it read as a bite from afar). */
        a.breath = m->kind == MON_DRAGON;
        game_log(g, MSG_BAD, "The %s %s at you!", k->name,
                 a.breath ? "breathes fire" : "shoots");
    }
    combat_resolve(g->opt.ruleset, &a, &d, game_roll, &g->rng, &res);
    log_blow(g, &res, 0);
    game_hurt_player(g, res.damage, m->kind + 1);
    if (res.damage > 0)
        blow_effects(g, m);
}

/* A summoner raises a skeleton on a free tile next to it. */
static void monster_summons(game_t *g, monster_t *m,
                            uint8_t occ[MAP_H][MAP_W])
{
    static const int dir8[8][2] = {
        { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 },
        { 1, -1 }, { 1, 1 }, { -1, 1 }, { -1, -1 },
    };
    int k = rng_range(&g->rng, 0, 7);
    for (int j = 0; j < 8; j++) {
        int x = m->x + dir8[(k + j) % 8][0], y = m->y + dir8[(k + j) % 8][1];
        if (!map_walkable(&g->map, x, y) || occ[y][x])
            continue;
        if (game_place_monster(g, MON_SKELETON, x, y) < 0)
            return;
        occ[y][x] = 1;
        game_log(g, MSG_BAD, "The %s raises a skeleton!",
                 monster_stats(m->kind)->name);
        return;
    }
}

/* A confused monster bumps into another: a blow between monsters, told
 * (and the death it deals) only when the player sees one of the two
 * (game version 10: "The skeleton hits the skeleton" came from out of
 * view, as "wakes up" never did). */
static void monster_attacks_monster(game_t *g, const monster_t *m, int j)
{
    fighter_t a, d;
    combat_result_t res;
    const monster_t *v = &g->monsters[j];
    int seen = game_lit(g, m->x, m->y) || game_lit(g, v->x, v->y);
    monster_fighter(m, &a);
    monster_fighter(v, &d);
    combat_resolve(g->opt.ruleset, &a, &d, game_roll, &g->rng, &res);
    if (seen)
        log_blow(g, &res, 1);
    hurt_monster(g, j, res.damage, 0, seen);
}

/* A confused monster: a random step (dx and dy each -1..1, one
 * rng_range call for the nine choices); into a creature it attacks it,
 * monster or player; onto free floor it moves; else it stays. */
static void monster_stumbles(game_t *g, monster_t *m,
                             uint8_t occ[MAP_H][MAP_W])
{
    int k = rng_range(&g->rng, 0, 8);
    int nx = m->x + k % 3 - 1, ny = m->y + k / 3 - 1;
    if (nx == m->x && ny == m->y)
        return;
    if (nx == g->player.x && ny == g->player.y) {
        monster_attacks(g, m, 0);
        return;
    }
    int j = game_monster_at(g, nx, ny);
    if (j >= 0) {
        monster_attacks_monster(g, m, j);
        if (!g->monsters[j].alive)
            occ[ny][nx] = 0;
        return;
    }
    if (!map_walkable(&g->map, nx, ny))
        return;
    occ[m->y][m->x] = 0;
    m->x = nx;
    m->y = ny;
    occ[ny][nx] = 1;
}

/* 1 if monster m, in view, can shoot at the player: it has a ranged
 * attack, is not next to the player and has the player in range. */
static int can_shoot(const game_t *g, const monster_t *m, int in_view)
{
    const creature_stats_t *k = monster_stats(m->kind);
    return in_view && (k->flags & MF_RANGED) &&
           !ai_adjacent(m->x, m->y, g->player.x, g->player.y) &&
           item_in_reach(m->x, m->y, g->player.x, g->player.y, k->range);
}

/* One action of monster m: its behaviour first (a shot from afar, a
 * summoning), else what ai.c decides. A thief with loot flees, and once out
 * of view it is gone with the gold. A monster that flees does not shoot
 * but when cornered (game version 10: an archer's or a dragon's shot was
 * decided before its flight), as one next to the player strikes only
 * then. */
static void monster_act(game_t *g, monster_t *m, ai_turn_t *t,
                        uint8_t occ[MAP_H][MAP_W])
{
    const creature_stats_t *k = monster_stats(m->kind);
    int in_view = game_lit(g, m->x, m->y);
    if (m->asleep)
        return;
    if (m->confused) {
        monster_stumbles(g, m, occ);
        return;
    }
    if (m->loot && !in_view) {
        /* Out of sight with the gold: gone for good. */
        m->alive = 0;
        m->loot = 0;
        occ[m->y][m->x] = 0;
        game_log(g, MSG_WARN, "The %s makes off with your gold.", k->name);
        return;
    }
    int flees = !m->loot && in_view && ai_wants_to_flee(m->hp, k->hp) &&
                m->fled < MONSTER_FLEE_TURNS;
    if (!flees && can_shoot(g, m, in_view) && rng_range(&g->rng, 0, 1) == 0) {
        monster_attacks(g, m, 1);
        return;
    }
    if (in_view && (k->flags & MF_SUMMON) && rng_range(&g->rng, 0, 3) == 0) {
        monster_summons(g, m, occ);
        return;
    }
    int nx, ny, hp = m->loot ? 0 : m->hp;
    if (!m->loot && in_view && ai_wants_to_flee(m->hp, k->hp)) {
        if (m->fled >= MONSTER_FLEE_TURNS)
            hp = k->hp; /* it has run long enough: it turns back */
        else if (m->fled++ == 0) /* told once: it ran silently, and the
                                    next attack key walked after it */
            game_log(g, MSG_WARN, "The %s flees!", k->name);
    }
    int act = ai_decide(&g->map, t, occ, &g->rng, m->x, m->y, in_view, hp,
                        k->hp, &nx, &ny);
    if (act == AI_MOVE) {
        occ[m->y][m->x] = 0;
        m->x = nx;
        m->y = ny;
        occ[ny][nx] = 1;
    } else if (act == AI_ATTACK) {
        monster_attacks(g, m, 0);
    } else if (flees && can_shoot(g, m, in_view)) {
        monster_attacks(g, m, 1); /* cornered: nowhere to run, it shoots */
    }
}

/* Every living monster acts, in slot order, sharing this turn's maps (a
 * fast one twice). A monster stops acting once the player is dead. */
static void monsters_act(game_t *g)
{
    uint8_t occ[MAP_H][MAP_W];
    ai_turn_t t;
    /* Monsters summoned this turn act from the next (the count is fixed
     * before the phase). One pass over the slots: the living ones are few,
     * and occ is marked from their list. */
    const monster_t *ms = g->monsters;
    int live[MAX_MONSTERS], n = 0, end = game_monsters_end(g);
    for (int i = monster_next_alive(ms, end, 0); i < end;
         i = monster_next_alive(ms, end, i + 1))
        live[n++] = i;
    memset(occ, 0, sizeof occ);
    for (int j = 0; j < n; j++)
        occ[g->monsters[live[j]].y][g->monsters[live[j]].x] = 1;
    occ[g->player.y][g->player.x] = 1;
    ai_turn_begin(&t, g->player.x, g->player.y);
    for (int j = 0; j < n && g->player.hp > 0; j++) {
        monster_t *m = &g->monsters[live[j]];
        int acts = monster_stats(m->kind)->flags & MF_FAST ? 2 : 1;
        game_log_about(g, m); /* a goblin's lines, not two goblins' */
        for (int a = 0; a < acts && m->alive && g->player.hp > 0; a++) {
            monster_act(g, m, &t, occ);
        }
    }
    game_log_about(g, NULL);
}

/* A monster that has begun to flee and not yet turned back. */
static int running(const monster_t *m)
{
    return m->fled > 0 && m->fled < MONSTER_FLEE_TURNS &&
           ai_wants_to_flee(m->hp, monster_stats(m->kind)->hp);
}

/* The player's timed effects tick at the end of the turn: poison takes 1
 * hp; speed runs out. */
static void player_effects_tick(game_t *g)
{
    player_t *p = &g->player;
    if (p->poison > 0 && p->hp > 0) {
        game_hurt_player(g, 1, MON_SPIDER + 1);
        if (--p->poison == 0 && p->hp > 0)
            game_log(g, MSG_INFO, "The poison wears off.");
    }
    if (p->haste > 0 && --p->haste == 0 && p->hp > 0)
        game_log(g, MSG_INFO, "You feel yourself slow down.");
}

/* The end of the turn for each living monster, in slot order:
 * - every MONSTER_REGEN_TURNS turns a hurt monster heals 1 hp, and an
 *   MF_REGEN monster 1 hp every turn, but not while it runs: a fleeing
 *   monster comes back as hurt as it left (and turns back on its own after
 *   MONSTER_FLEE_TURNS: monster_act);
 * - its timed effects tick: a sleeper has slept one more turn, a confused
 *   monster has had one more confused turn; at 0 it is itself again,
 *   told only in view (the confusion's end out of view too since game
 *   version 10).
 * One pass over the slots (it was three: the regenerations could not change
 * another monster's effects, nor these the player's, so the order of the
 * log lines is the same). */
static void monsters_tick(game_t *g)
{
    int regen = (g->turn + 1) % MONSTER_REGEN_TURNS == 0;
    const monster_t *ms = g->monsters;
    int end = game_monsters_end(g);
    for (int i = monster_next_alive(ms, end, 0); i < end;
         i = monster_next_alive(ms, end, i + 1)) {
        monster_t *m = &g->monsters[i];
        const creature_stats_t *k = monster_stats(m->kind);
        game_log_about(g, m);
        if (regen && m->hp < k->hp && !running(m))
            m->hp++;
        if ((k->flags & MF_REGEN) && m->hp < k->hp && !running(m))
            m->hp++;
        if (m->asleep && --m->asleep == 0 && game_lit(g, m->x, m->y))
            game_log(g, MSG_INFO, "The %s wakes up.", k->name);
        if (m->confused && --m->confused == 0 && game_lit(g, m->x, m->y))
            game_log(g, MSG_INFO, "The %s is no longer confused.", k->name);
    }
    game_log_about(g, NULL);
}

static void end_turn(game_t *g, int monsters_phase)
{
    game_update_fov_turn(g);
    g->phase_log = (uint16_t)g->log_total;
    /* Hasted, the player has every other monsters' phase to itself: the
     * first turn of speed (an even count left) is one of those. */
    if (monsters_phase && !(g->player.haste > 0 && g->player.haste % 2 == 0))
        monsters_act(g);
    player_effects_tick(g);
    monsters_tick(g);
    g->turn++;
    if (g->player.hp <= 0) {
        char cause[64];
        g->mode = MODE_DEAD;
        game_log(g, MSG_BAD, "You die, %s.",
                 game_death_cause(g, cause, sizeof cause));
    }
}

void game_end_turn(game_t *g)
{
    end_turn(g, 1);
}

void game_end_turn_free(game_t *g)
{
    end_turn(g, 0);
}
