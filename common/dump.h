/* dump.h - the character dump of a game (docs/game.md, "The character
 * dump"): what DCSS calls a morgue file, as plain text.
 *
 * The core makes it from a game's state, and a game's state comes from its
 * record (seed and keys: record.h's player), so every stored game has one:
 * the host replays the record to its end and calls game_dump. It shows the
 * end (or the state so far), the character, equipment and pack with every
 * item identified, kills by kind, the depths reached with the turn each was
 * reached on, the last messages and the final map as the player knew it. */
#ifndef ROGUE_DUMP_H
#define ROGUE_DUMP_H

#include <stddef.h>

#include "game.h"

/* Writes the dump of g into out (cap bytes, NUL-terminated when cap > 0;
 * cut if short) and returns its whole length, as snprintf does: a caller
 * may ask with cap 0 first, then allocate that + 1. Lines end in "\n";
 * ASCII only; at most about 4 KB. end: how the host recorded the game's
 * end ("disconnected (client closed)"), said for a game its record leaves
 * alive (a game ended by a disconnect or a stop, not by the game); NULL:
 * "alive", a game still going on. */
size_t game_dump(const game_t *g, const char *end, char *out, size_t cap);

#endif
