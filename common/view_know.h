/* view_know.h - the discoveries screen (`\`, MODE_DISCOVERIES): the
 * potions and scrolls this game has taught the player, by appearance. */
#ifndef ROGUE_VIEW_KNOW_H
#define ROGUE_VIEW_KNOW_H

#include "game.h"
#include "screen.h"

/* Draws the discoveries on a cleared screen. */
void view_discoveries(const game_t *g, screen_t *s);

#endif
