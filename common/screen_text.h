/* screen_text.h - text the host writes (the message of the day, the
 * server's name, a console `say`) drawn as UTF-8: the game's own text is
 * ASCII and goes through screen_puts, a byte a cell; a host's "Café" would
 * come out there as "CafÃ©". Here each character is a cell, and one that
 * does not take exactly one column on a terminal (a combining mark, a wide
 * East Asian character or emoji), or bytes that are not UTF-8, show as
 * '?', so that the columns counted are the columns drawn. A client without
 * UTF-8 gets '?' for every character past ASCII (screen_diff.c). */
#ifndef ROGUE_SCREEN_TEXT_H
#define ROGUE_SCREEN_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "screen.h"

/* The columns str takes as screen_puts_text draws it. */
int screen_text_width(const char *str);

/* The bytes of text's first row in w columns, as screen_puts_text draws
 * it: up to the last space that leaves the row at most w columns, or the
 * whole first word if even that is wider (it is clipped then). The
 * game's text wraps with game_text_wrap (world.h) instead, which counts
 * bytes (screen_puts draws a byte a cell) and cuts a word wider than the
 * row onto the next (the lobby's note of a 50-character key fingerprint
 * stays readable below 80 columns); on ASCII whose words fit, the two
 * make the same rows (test_screen_text). */
size_t screen_text_row(const char *text, int w);

/* Writes str from (x, y) to the right, clipped at the edge, a cell a
 * character. Returns the columns it takes (even where clipped). */
int screen_puts_text(screen_t *s, int x, int y, const char *str, uint8_t fg,
                     uint8_t bg, uint8_t attr);

#endif
