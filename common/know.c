/* know.c - what the player knows of items (world.h; docs/game.md, "Unknown
 * items"): each game gives its potions and scrolls appearances of their
 * own, and a kind shows by its appearance until it is used or identified. */
#include <stdio.h>
#include <string.h>

#include "screen.h"
#include "world.h"

/* The appearances are drawn from their own stream, derived from the seed,
 * so that the rules stream (the levels) is the same whatever they are. */
#define APPEAR_SALT 0x6a09e667f3bcc909ULL

typedef struct appearance {
    const char *word;
    uint8_t colour;
} appearance_t;

static const appearance_t potions[] = {
    { "murky", COL_YELLOW },   { "bubbling", COL_BGREEN },
    { "smoky", COL_GREY },     { "pink", COL_BMAGENTA },
    { "golden", COL_BYELLOW }, { "cloudy", COL_BWHITE },
    { "fizzy", COL_BCYAN },    { "inky", COL_BBLUE },
};

/* Scroll labels, in the old games' manner. */
static const appearance_t scrolls[] = {
    { "ZELGO MER", COL_BWHITE },      { "FOOBIE BLETCH", COL_BWHITE },
    { "XIXAXA XOXAXA", COL_BWHITE },  { "PRATYAVAYAH", COL_BWHITE },
    { "ELBIB YLOH", COL_BWHITE },     { "VERR YED HORRE", COL_BWHITE },
    { "JUYED AWK YACC", COL_BWHITE }, { "NR 9", COL_BWHITE },
};

#define NPOTIONS (int)(sizeof potions / sizeof potions[0])
#define NSCROLLS (int)(sizeof scrolls / sizeof scrolls[0])

static int is_potion(int kind)
{
    return item_is_magic(kind) && item_stats(kind)->glyph == '!';
}

/* Deals out appearances: a shuffled deck of each, one card per kind. */
void item_deal_appearances(game_t *g)
{
    rng_t r;
    rng_seed(&r, g->seed ^ APPEAR_SALT);
    uint8_t pdeck[NPOTIONS], sdeck[NSCROLLS];
    for (int i = 0; i < NPOTIONS; i++)
        pdeck[i] = (uint8_t)i;
    for (int i = 0; i < NSCROLLS; i++)
        sdeck[i] = (uint8_t)i;
    for (int i = NPOTIONS - 1; i > 0; i--) {
        int j = rng_range(&r, 0, i);
        uint8_t t = pdeck[i]; pdeck[i] = pdeck[j]; pdeck[j] = t;
    }
    for (int i = NSCROLLS - 1; i > 0; i--) {
        int j = rng_range(&r, 0, i);
        uint8_t t = sdeck[i]; sdeck[i] = sdeck[j]; sdeck[j] = t;
    }
    int np = 0, ns = 0;
    for (int k = 0; k < IK_COUNT; k++) {
        if (!item_is_magic(k))
            g->known[k] = 1;
        else if (is_potion(k))
            g->appear[k] = pdeck[np++ % NPOTIONS];
        else
            g->appear[k] = sdeck[ns++ % NSCROLLS];
    }
}

int item_known(const game_t *g, int kind)
{
    return kind >= 0 && kind < IK_COUNT && g->known[kind];
}

int item_learn(game_t *g, int kind)
{
    if (kind < 0 || kind >= IK_COUNT || g->known[kind])
        return 0;
    g->known[kind] = 1;
    return 1;
}

const char *item_unknown_name(const game_t *g, int kind, char *buf,
                              size_t len)
{
    if (is_potion(kind))
        snprintf(buf, len, "%s potion", potions[g->appear[kind]].word);
    else
        snprintf(buf, len, "scroll labelled %s", item_scroll_label(g, kind));
    return buf;
}

const char *item_scroll_label(const game_t *g, int kind)
{
    return scrolls[g->appear[kind]].word;
}

const char *item_name(const game_t *g, int kind, int count, char *buf,
                      size_t len)
{
    char one[64];
    if (item_known(g, kind) || !item_is_magic(kind))
        snprintf(one, sizeof one, "%s", item_stats(kind)->name);
    else
        item_unknown_name(g, kind, one, sizeof one);
    if (item_is_wand(kind)) {
        snprintf(buf, len, "%s (%d charge%s)", one, count,
                 count == 1 ? "" : "s");
        return buf;
    }
    if (count <= 1) {
        snprintf(buf, len, "%s", one);
        return buf;
    }
    /* "scrolls labelled X", "potions of speed", "murky potions". */
    const char *space = strchr(one, ' ');
    if ((strncmp(one, "scroll ", 7) == 0 || strncmp(one, "potion ", 7) == 0) &&
        space)
        snprintf(buf, len, "%d %.*ss%s", count, (int)(space - one), one,
                 space);
    else
        snprintf(buf, len, "%d %ss", count, one);
    return buf;
}

const char *item_a_name(const game_t *g, int kind, char *buf, size_t len)
{
    char one[64];
    if (item_is_wand(kind))
        snprintf(one, sizeof one, "%s", item_stats(kind)->name);
    else
        item_name(g, kind, 1, one, sizeof one);
    int known = item_known(g, kind) || !item_is_magic(kind);
    snprintf(buf, len, "%s %s",
             known ? item_article(kind) : item_article_of(one), one);
    return buf;
}

uint8_t item_colour(const game_t *g, int kind)
{
    if (!item_is_magic(kind))
        return item_stats(kind)->colour;
    return is_potion(kind) ? potions[g->appear[kind]].colour
                           : scrolls[g->appear[kind]].colour;
}
